`timescale 1ns/1ps
`default_nettype none
// simt_sfu_rom: the SFU coefficient tables, read with $readmemh from the same files the C model compiles in
// (defs/sfu_{rcp,rsq,ex2,lg2,sin,cos}.hex; format and evaluation rule: docs/isa.md section 6).
// One 896 x 96-bit ROM {C0[95:62], C1[61:28], C2[27:0]}; address map (addr_i):
//   rcp 0..127, rsq 128..383 (odd exponent: +128), ex2 384..511, lg2 512..639, sin 640..767, cos 768..895.
// Combinational read. TABLE_DIR is the directory holding the .hex files, relative to the simulator's or the
// synthesis tool's working directory (the repository root in every flow of this project) or absolute.
module simt_sfu_rom #(
  parameter TABLE_DIR = "defs"
) (
  input  wire [9:0]  addr_i,
  output wire [95:0] data_o
);
  reg [95:0] tab [0:895];
  initial begin
    $readmemh({TABLE_DIR, "/sfu_rcp.hex"}, tab, 0, 127);
    $readmemh({TABLE_DIR, "/sfu_rsq.hex"}, tab, 128, 383);
    $readmemh({TABLE_DIR, "/sfu_ex2.hex"}, tab, 384, 511);
    $readmemh({TABLE_DIR, "/sfu_lg2.hex"}, tab, 512, 639);
    $readmemh({TABLE_DIR, "/sfu_sin.hex"}, tab, 640, 767);
    $readmemh({TABLE_DIR, "/sfu_cos.hex"}, tab, 768, 895);
  end
  assign data_o = (addr_i < 10'd896) ? tab[addr_i] : 96'd0;
endmodule
`default_nettype wire
