`timescale 1ns/1ps
`default_nettype none
// simt_fp_pipe: one optional pipeline boundary of the SIMT lane datapaths (docs/simt-fpu.md).
// EN = 1: a register (W bits) clocked by clk_i; EN = 0: a wire (the boundary is merged into the next stage).
// RST = 1: the register is cleared by the asynchronous active-low reset (used for the valid bits only; data
// registers carry no reset: OSU 0.18 um DFFSR is 176 um2 against 96 um2 for DFFPOSX1).
module simt_fp_pipe #(
  parameter integer W   = 1,
  parameter integer EN  = 1,
  parameter integer RST = 0
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire [W-1:0] d_i,
  output wire [W-1:0] q_o
);
  generate
    if (EN == 0) begin : g_wire
      assign q_o = d_i;
      wire unused_ok = &{1'b0, clk_i, rst_ni};
    end else if (RST != 0) begin : g_rst
      reg [W-1:0] q_q;
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) q_q <= {W{1'b0}};
        else         q_q <= d_i;
      end
      assign q_o = q_q;
    end else begin : g_reg
      reg [W-1:0] q_q;
      always @(posedge clk_i) q_q <= d_i;
      assign q_o = q_q;
      wire unused_ok = &{1'b0, rst_ni};
    end
  endgenerate
endmodule
`default_nettype wire
