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
end else if (W + 1 > 64) begin : g_chunks
  // the same prefix network as g_prefix below, with g and p of every level kept as chunks of at most 64 bits
  // (g_l[level].g_c[chunk]; a shift by d crosses chunk boundaries explicitly), so that a cycle-based simulator
  // keeps them in machine words: the same gates (scripts/simt_kadd_equiv.sh)
  localparam integer NW = W + 1;               // extended width (bit 0 carries cin)
  localparam integer NC = (NW + 63) / 64;      // chunks
  localparam integer NL = $clog2(NW);          // levels: d = 1, 2, 4, ... <= W
  wire [NW-1:0] a = {a_i, ci_i};
  wire [NW-1:0] b = {b_i, ci_i};
  wire [NW-1:0] x = a ^ b;
  wire [NW-1:0] gl;                            // g after the last level
  genvar lv, k;
  for (lv = 0; lv <= NL; lv = lv + 1) begin : g_l
    for (k = 0; k < NC; k = k + 1) begin : g_c
      localparam integer CW = (NW - 64 * k < 64) ? NW - 64 * k : 64;
      wire [CW-1:0] g, p;
      if (lv == 0) begin : g_0
        assign g = a[64*k +: CW] & b[64*k +: CW];
        assign p = a[64*k +: CW] ^ b[64*k +: CW];
      end else begin : g_n
        localparam integer D = 1 << (lv - 1);  // shift of this level
        localparam integer Q = D / 64, R = D % 64;
        // (v << D) restricted to this chunk, from chunks k-Q (shifted by R) and k-Q-1 (its top R bits)
        wire [63:0] gs, ps;
        if (k - Q < 0) begin : g_z
          assign gs = 64'd0;
          assign ps = 64'd0;
        end else begin : g_s
          localparam integer SW0 = (NW - 64 * (k - Q) < 64) ? NW - 64 * (k - Q) : 64;
          wire [63:0] g0 = {{(64 - SW0){1'b0}}, g_l[lv-1].g_c[k-Q].g};
          wire [63:0] p0 = {{(64 - SW0){1'b0}}, g_l[lv-1].g_c[k-Q].p};
          if (R == 0 || k - Q - 1 < 0) begin : g_one
            assign gs = g0 << R;
            assign ps = p0 << R;
          end else begin : g_two
            wire [63:0] g1 = g_l[lv-1].g_c[k-Q-1].g;   // a full chunk (only the last one is narrower)
            wire [63:0] p1 = g_l[lv-1].g_c[k-Q-1].p;
            assign gs = (g0 << R) | (g1 >> (64 - R));
            assign ps = (p0 << R) | (p1 >> (64 - R));
          end
        end
        wire [CW-1:0] gp = g_l[lv-1].g_c[k].g;
        wire [CW-1:0] pp = g_l[lv-1].g_c[k].p;
        assign g = gp | (pp & gs[CW-1:0]);
        assign p = pp & ps[CW-1:0];
        wire unused_ok = &{1'b0, gs, ps};
      end
      if (lv == NL) begin : g_o
        assign gl[64*k +: CW] = g;
        wire unused_ok = &{1'b0, p};   // the propagate terms of the last level are not used
      end
    end
  end
  assign s_o  = x[W:1] ^ gl[W-1:0];
  assign co_o = gl[W];
  wire unused_ok = &{1'b0, x[0]};
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
