`timescale 1ns/1ps
`default_nettype none
// simt_fp_kadd: W-bit adder s = a + b + cin (mod 2^W), carry-out co, as a Kogge-Stone parallel prefix of
// generate/propagate (log2(W+1) AND-OR levels). Used for every carry-propagate add and increment of the
// SIMT lane datapaths (docs/simt-fpu.md): Yosys maps `+` to a ripple carry chain that abc does not
// restructure, which set the critical path of the first synthesis. Written with word-level operations so
// that simulators keep it in machine words. Combinational.
// RIPPLE = 1 (area-reduced configurations, e.g. iCE40: docs/simt.md section 6): the same sum written as `+`,
// which FPGA flows map to their carry chain (one LUT per bit instead of the prefix network); default 0.
module simt_fp_kadd #(
  parameter integer W = 32,
  parameter integer RIPPLE = 0
) (
  input  wire [W-1:0] a_i,
  input  wire [W-1:0] b_i,
  input  wire         ci_i,
  output wire [W-1:0] s_o,
  output wire         co_o
);
generate if (RIPPLE != 0) begin : g_ripple
  assign {co_o, s_o} = {1'b0, a_i} + {1'b0, b_i} + {{W{1'b0}}, ci_i};
end else begin : g_prefix
  // bit 0 of the extended operands carries cin (cin + cin = 2 cin: a carry of cin into bit 1)
  wire [W:0] a = {a_i, ci_i};
  wire [W:0] b = {b_i, ci_i};
  reg  [W:0] g, p;
  integer d;
  // sensitive to the operands only: g and p are temporaries (with @*, an event simulator re-runs the
  // block on its own writes)
  always @(a or b) begin
    g = a & b;
    p = a ^ b;
    for (d = 1; d <= W; d = d * 2) begin
      g = g | (p & (g << d));
      p = p & (p << d);
    end
  end
  wire [W:0] x = a ^ b;
  assign s_o  = x[W:1] ^ g[W-1:0];
  assign co_o = g[W];
  wire unused_ok = &{1'b0, x[0]};
end endgenerate
endmodule
`default_nettype wire
