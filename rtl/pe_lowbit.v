`timescale 1ns/1ps
`default_nettype none
// pe_lowbit: the lowest set bit of a vector, as a one-hot vector and as a 6-bit index (the destination GPU
// the turn engine of pe_exchanger.v sends to next). One-hot by two's-complement isolation (v & -v), index
// by OR-ing the one-hot bits whose index has bit b set: log-depth, no priority chain. any_o = |vec_i.
// C model: lowbit() in cmodel/pe/pe_hw.c.
module pe_lowbit #(
  parameter integer W = 16   // 1..64
) (
  input  wire [W-1:0] vec_i,
  output wire [W-1:0] onehot_o,
  output wire [5:0]   idx_o,
  output wire         any_o
);
  // bit b of the index of one-hot bit k is bit k of IDX_b
  localparam [63:0] IDX0 = 64'hAAAA_AAAA_AAAA_AAAA, IDX1 = 64'hCCCC_CCCC_CCCC_CCCC, IDX2 = 64'hF0F0_F0F0_F0F0_F0F0,
                    IDX3 = 64'hFF00_FF00_FF00_FF00, IDX4 = 64'hFFFF_0000_FFFF_0000, IDX5 = 64'hFFFF_FFFF_0000_0000;
  assign onehot_o = vec_i & (~vec_i + 1'b1);
  assign any_o    = |vec_i;
  assign idx_o    = {|(onehot_o & IDX5[W-1:0]), |(onehot_o & IDX4[W-1:0]), |(onehot_o & IDX3[W-1:0]),
                     |(onehot_o & IDX2[W-1:0]), |(onehot_o & IDX1[W-1:0]), |(onehot_o & IDX0[W-1:0])};
endmodule
`default_nettype wire
