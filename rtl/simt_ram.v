// SIMT core: simple dual-port RAM, one write port and one synchronous read port (read-before-write: a read
// of the address written at the same edge returns the old word). Every storage array of the core is built
// from it (register-file banks, attribute/local/output/constant/special-register memories, instruction
// memory), so synthesis can map it to SRAM macros or FPGA block RAM (docs/simt.md, synthesis).
// RW_ANY = 1 (small FPGAs; docs/simt.md section 6): the user never uses the word read from the address written at
// the same edge, so synthesis may return either word (Yosys `no_rw_check`: no collision logic around an FPGA
// block RAM); simulation returns the old word inverted on such a collision, so that a lockstep run shows any use
// of it as a mismatch. Default 0.
`timescale 1ns / 1ps
`default_nettype none

module simt_ram #(
    parameter integer DW = 32,      // word width
    parameter integer DEPTH = 64,   // words
    parameter integer AW = 6,       // address width, 2^AW >= DEPTH
    parameter integer RW_ANY = 0    // 1: the read of a word written at the same edge is a don't-care (above)
) (
    input  wire          clk_i,
    input  wire          we_i,
    input  wire [AW-1:0] waddr_i,
    input  wire [DW-1:0] wdata_i,
    input  wire [AW-1:0] raddr_i,
    output reg  [DW-1:0] rdata_o
);
    generate
        if (RW_ANY == 0) begin : g_rbw
            reg [DW-1:0] mem_q [0:DEPTH-1];
            always @(posedge clk_i) begin
                if (we_i) mem_q[waddr_i] <= wdata_i;
                rdata_o <= mem_q[raddr_i];
            end
        end else begin : g_any
            (* no_rw_check *) reg [DW-1:0] mem_q [0:DEPTH-1];
            always @(posedge clk_i) begin
                if (we_i) mem_q[waddr_i] <= wdata_i;
`ifdef SYNTHESIS
                rdata_o <= mem_q[raddr_i];
`else
                rdata_o <= (we_i && waddr_i == raddr_i) ? ~mem_q[raddr_i] : mem_q[raddr_i];
`endif
            end
        end
    endgenerate
endmodule

`default_nettype wire
