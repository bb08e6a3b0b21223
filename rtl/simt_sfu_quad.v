`timescale 1ns/1ps
`default_nettype none
// simt_sfu_quad: table look-up and quadratic interpolation of the SFU (docs/isa.md section 6), bit-exact to
// isa_sfu_eval() (cmodel/isa/isa_sfu.c):
//   Y = C0 + ((C1 * d) >> 30) + ((C2 * ((d * d) >> 23)) >> 31)      (>> = arithmetic: floor)
// C0, C1 signed 34-bit, C2 signed 28-bit, d unsigned 23-bit, Y signed (units 2^-30).
// Three stages; the first two end in an optional register (E1, E2), the third is combinational:
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
  input  wire [9:0]  addr_i,
  input  wire [22:0] d_i,
  output wire signed [35:0] y_o,
  // Y's three addends of Q3 (C0, (C1*d) >> 30, (C2*sq) >> 31; two's complement), for the SFU's lg2 path,
  // which adds them again at 40 bits together with u*2^30 instead of adding after Y (simt_sfu stage 5)
  output wire [33:0] c0_o,
  output wire [26:0] t1_o,
  output wire [19:0] t2_o
);
  // ---------------------------------------------------------------- Q1
  wire [95:0] c;
  simt_sfu_rom #(.TABLE_DIR(TABLE_DIR)) u_rom (.addr_i(addr_i), .data_o(c));
  wire [45:0] dd_s, dd_c;
  simt_fp_mul_csa #(.WA(23), .WB(23), .W(46)) u_dd (.x_i(d_i), .y_i(d_i), .sum_o(dd_s), .carry_o(dd_c));
  wire [45:0] dd;
  wire        dd_co;
  simt_fp_kadd #(.W(46)) u_ddc (.a_i(dd_s), .b_i(dd_c), .ci_i(1'b0), .s_o(dd), .co_o(dd_co));

  wire [33:0] r1_c0, r1_c1;
  wire [27:0] r1_c2;
  wire [22:0] r1_d, r1_sq;
  simt_fp_pipe #(.W(96 + 23 + 23), .EN(E1)) u_r1 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({c, d_i, dd[45:23]}), .q_o({r1_c0, r1_c1, r1_c2, r1_d, r1_sq}));

  // ---------------------------------------------------------------- Q2
  wire [56:0] p1_s, p1_c;
  wire [50:0] p2_s, p2_c;
  simt_fp_mul_csa #(.WA(34), .WB(23), .W(57), .XS(1)) u_p1 (.x_i(r1_c1), .y_i(r1_d), .sum_o(p1_s), .carry_o(p1_c));
  simt_fp_mul_csa #(.WA(28), .WB(23), .W(51), .XS(1)) u_p2 (.x_i(r1_c2), .y_i(r1_sq), .sum_o(p2_s), .carry_o(p2_c));
  wire [56:0] p1;   // C1*d, two's complement (|C1*d| < 2^56)
  wire [50:0] p2;   // C2*sq (|C2*sq| < 2^50)
  wire        p1_co, p2_co;
  simt_fp_kadd #(.W(57)) u_p1c (.a_i(p1_s), .b_i(p1_c), .ci_i(1'b0), .s_o(p1), .co_o(p1_co));
  simt_fp_kadd #(.W(51)) u_p2c (.a_i(p2_s), .b_i(p2_c), .ci_i(1'b0), .s_o(p2), .co_o(p2_co));

  wire [33:0] r2_c0;
  wire [26:0] r2_t1;
  wire [19:0] r2_t2;
  simt_fp_pipe #(.W(34 + 27 + 20), .EN(E2)) u_r2 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({r1_c0, p1[56:30], p2[50:31]}), .q_o({r2_c0, r2_t1, r2_t2}));

  // ---------------------------------------------------------------- Q3
  // three-input sum: one 3:2 carry-save level, then a prefix adder (36 bits, two's complement)
  wire [35:0] y0 = {{2{r2_c0[33]}}, r2_c0};
  wire [35:0] y1 = {{9{r2_t1[26]}}, r2_t1};
  wire [35:0] y2 = {{16{r2_t2[19]}}, r2_t2};
  wire [35:0] ys = y0 ^ y1 ^ y2;
  wire [35:0] yc = ((y0 & y1) | (y0 & y2) | (y1 & y2)) << 1;
  wire [35:0] ysum;
  wire        y_co;
  simt_fp_kadd #(.W(36)) u_y (.a_i(ys), .b_i(yc), .ci_i(1'b0), .s_o(ysum), .co_o(y_co));
  assign y_o = $signed(ysum);
  assign c0_o = r2_c0;
  assign t1_o = r2_t1;
  assign t2_o = r2_t2;
  wire unused_ok = &{1'b0, dd[22:0], p1[29:0], p2[30:0], dd_co, p1_co, p2_co, y_co};
endmodule
`default_nettype wire
