`timescale 1ns/1ps
`default_nettype none
`include "simt_fp_fn.vh"
// simt_sfu_quad: table look-up and quadratic interpolation of the SFU (docs/isa.md section 6), bit-exact to
// isa_sfu_eval() (cmodel/isa/isa_sfu.c):
//   Y = C0 + ((C1 * d) >> 30) + ((C2 * ((d * d) >> 23)) >> 31)      (>> = arithmetic: floor)
// C0, C1 signed 34-bit, C2 signed 28-bit, d unsigned 23-bit, Y signed (units 2^-30).
// Three steps; the first two are stages here, each ending in an optional register (E1, E2) that loads only when
// its enable is set (v1_i, v2_i: the stage carries a valid operation; held otherwise), with the stage's logic a
// function called inside the register's always block (docs/simt-fpu.md, "Valid-enabled stages"); the third,
// the sum of the three addends, is done by the consumer (simt_sfu stage 5) inside its own enabled register:
//   Q1  ROM read (simt_sfu_rom); d*d (CSA tree + carry-propagate add), keep bits [45:23]
//   Q2  C1*d and C2*sq: signed x unsigned as unsigned products mod 2^W of the sign-extended coefficient
//       (CSA trees + carry-propagate adds); arithmetic right shifts (bit selects)
//   Q3  three-input sum
module simt_sfu_quad #(
  parameter integer E1 = 1,
  parameter integer E2 = 1,
  parameter TABLE_DIR = "defs"
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        v1_i,      // load the Q1 register (a valid operation at the input)
  input  wire        v2_i,      // load the Q2 register (a valid operation in Q1)
  input  wire [9:0]  addr_i,
  input  wire [22:0] d_i,
  // Y's three addends (C0, (C1*d) >> 30, (C2*sq) >> 31; two's complement); their sum Y is the third step, in
  // simt_sfu's stage 5 (which adds them again at 40 bits together with u*2^30 for lg2)
  output wire [33:0] c0_o,
  output wire [26:0] t1_o,
  output wire [19:0] t2_o
);
  // the functions' locals include bits a stage drops (carry-outs, low product bits, the shifted-out part of P):
  // the same bits the former cells' unused_ok lists named
  // verilator lint_off UNUSEDSIGNAL
  `SIMT_FN_CSA(csa_dd, 23, 23, 46, 0)   // simt_fp_mul_csa #(23, 23, 46)
  `SIMT_FN_KADD(add46, 46)
  `SIMT_FN_CSA(csa_p1, 34, 23, 57, 1)   // simt_fp_mul_csa #(34, 23, 57, XS = 1)
  `SIMT_FN_CSA(csa_p2, 28, 23, 51, 1)   // simt_fp_mul_csa #(28, 23, 51, XS = 1)
  `SIMT_FN_KADD(add57, 57)
  `SIMT_FN_KADD(add51, 51)
  // ---------------------------------------------------------------- Q1
  wire [95:0] c;
  simt_sfu_rom #(.TABLE_DIR(TABLE_DIR)) u_rom (.addr_i(addr_i), .data_o(c));
  // {C0, C1, C2, d, (d*d)[45:23]}
  function automatic [96+23+23-1:0] stage_q1(input [95:0] cq, input [22:0] d);
    reg [91:0] dd2;
    reg [46:0] dd;
    begin
      dd2 = csa_dd(d, d);
      dd  = add46(dd2[45:0], dd2[91:46], 1'b0);
      stage_q1 = {cq, d, dd[45:23]};
    end
  endfunction

  reg [33:0] r1_c0, r1_c1;
  reg [27:0] r1_c2;
  reg [22:0] r1_d, r1_sq;
  generate
    if (E1 != 0) begin : g_r1
      always @(posedge clk_i) if (v1_i) {r1_c0, r1_c1, r1_c2, r1_d, r1_sq} <= stage_q1(c, d_i);
    end else begin : g_w1
      always @* {r1_c0, r1_c1, r1_c2, r1_d, r1_sq} = stage_q1(c, d_i);
      wire unused_ok = &{1'b0, v1_i};
    end
  endgenerate

  // ---------------------------------------------------------------- Q2
  // {C0, (C1*d) >> 30, (C2*sq) >> 31}: C1*d two's complement (|C1*d| < 2^56), C2*sq (|C2*sq| < 2^50)
  function automatic [34+27+20-1:0] stage_q2(input [33:0] c0, input [33:0] c1, input [27:0] c2, input [22:0] d,
                                              input [22:0] sq);
    reg [113:0] p1r;
    reg [101:0] p2r;
    reg [57:0]  p1;
    reg [51:0]  p2;
    begin
      p1r = csa_p1(c1, d);
      p2r = csa_p2(c2, sq);
      p1  = add57(p1r[56:0], p1r[113:57], 1'b0);
      p2  = add51(p2r[50:0], p2r[101:51], 1'b0);
      stage_q2 = {c0, p1[56:30], p2[50:31]};
    end
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  reg [33:0] r2_c0;
  reg [26:0] r2_t1;
  reg [19:0] r2_t2;
  generate
    if (E2 != 0) begin : g_r2
      always @(posedge clk_i) if (v2_i) {r2_c0, r2_t1, r2_t2} <= stage_q2(r1_c0, r1_c1, r1_c2, r1_d, r1_sq);
    end else begin : g_w2
      always @* {r2_c0, r2_t1, r2_t2} = stage_q2(r1_c0, r1_c1, r1_c2, r1_d, r1_sq);
      wire unused_ok = &{1'b0, v2_i};
    end
  endgenerate

  assign c0_o = r2_c0;
  assign t1_o = r2_t1;
  assign t2_o = r2_t2;
  wire unused_ok = &{1'b0, clk_i, rst_ni};
endmodule
`default_nettype wire
