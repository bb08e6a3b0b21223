// Synthesis-only stand-in for rtl/simt_ram.v: the same ports as a black box, so the SIMT core's storage
// arrays are SRAM macros (not millions of standard-cell flip-flops) in the OSU 0.18 um flow. Simulation and
// lint always use rtl/simt_ram.v. docs/simt.md (synthesis) lists the macros and their sizes.
`timescale 1ns / 1ps
`default_nettype none

(* blackbox *)
module simt_ram #(
    parameter integer DW = 32,
    parameter integer DEPTH = 64,
    parameter integer AW = 6
) (
    input  wire          clk_i,
    input  wire          we_i,
    input  wire [AW-1:0] waddr_i,
    input  wire [DW-1:0] wdata_i,
    input  wire [AW-1:0] raddr_i,
    output wire [DW-1:0] rdata_o
);
endmodule

`default_nettype wire
