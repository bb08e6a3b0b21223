`timescale 1ns/1ps
`default_nettype none
// p2g_add_tree: combinational sum of N_IN unsigned terms of OUT_W bits (the caller guarantees the sum fits),
// as a balanced binary tree (depth ceil(log2 N_IN)) over the terms padded with zeros to a power of two.
module p2g_add_tree #(
  parameter integer N_IN  = 28,
  parameter integer OUT_W = 11
) (
  input  wire [N_IN*OUT_W-1:0] terms_i,   // term k at [k*OUT_W +: OUT_W]
  output wire [OUT_W-1:0]      sum_o
);
  localparam integer P = (N_IN <= 1) ? 1 : (1 << $clog2(N_IN));
  // node 0 is the root, node i has children 2i+1 and 2i+2, leaves are nodes P-1 .. 2P-2
  wire [OUT_W-1:0] node [0:2*P-2] /* verilator split_var */;
  genvar i;
  generate
    for (i = 0; i < P; i = i + 1) begin : g_leaf
      if (i < N_IN) begin : g_term
        assign node[P-1+i] = terms_i[i*OUT_W +: OUT_W];
      end else begin : g_pad
        assign node[P-1+i] = {OUT_W{1'b0}};
      end
    end
    for (i = 0; i < P - 1; i = i + 1) begin : g_add
      // an always block per adder node: a line-coverage point per node (each adder exercised), same logic
      wire [OUT_W-1:0] lhs = node[2*i+1], rhs = node[2*i+2];
      reg  [OUT_W-1:0] sum_d;
      always @* begin
        sum_d = lhs + rhs;
      end
      assign node[i] = sum_d;
    end
  endgenerate
  assign sum_o = node[0];
endmodule
`default_nettype wire
