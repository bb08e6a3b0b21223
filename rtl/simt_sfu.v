`timescale 1ns/1ps
`default_nettype none
`include "isa_defs.vh"
`include "simt_fp_fn.vh"
// simt_sfu: the special function unit pipe of the SIMT core (issue 10; ports: docs/simt-fpu.md;
// definition: docs/isa.md section 6; algorithms, pipeline, verification: docs/simt-fpu.md).
// rcp rsq ex2 lg2 sin cos, bit-exact to cmodel/isa/isa_sfu.c, with the coefficient tables read from the
// same files the C model compiles in (defs/sfu_*.hex, $readmemh, simt_sfu_rom). The operand is
// A = a_i with AA (absolute value) then NA (negate), as for every FP-typed opcode (cmodel/isa/isa_exec.c),
// then flushed (FTZ). Any other opcode gives res_o = 0.
//
// Pipeline: the input register B0, then seven stages ending in the boundaries B1..B7 (each boundary a
// register or a wire, see LAT):
//   stage 1  modifiers, FTZ (of the special results only), classification, special results; ex2 fixed-point X; sin/cos P = M * 2^65/pi
//   stage 2  reduction: sin/cos turns U and quadrant, ex2 n and t; ROM address, d, exponent, sign
//   stage 3  ROM read, d*d
//   stage 4  C1*d, C2*(d*d >> 23)
//   stage 5  Y = C0 + ...; lg2 V = u*2^30 + max(Y,0) and -V beside Y; magnitude R, exponent E, sign
//   stage 6  leading zeros, normalise
//   stage 7  round, pack, specials
// LAT (legal range 1..64, default 8): fixed latency valid_i -> valid_o; fully pipelined (one operation
// per cycle). LAT >= 8: every boundary B0..B7 is a register plus LAT-8 output registers; LAT < 8: LAT
// boundaries are registers, spread evenly (Bk-1 iff floor(k*LAT/8) > floor((k-1)*LAT/8), k = 1..8; the
// output boundary B7 always).
// Valid-enabled stages: every data register loads only in the cycles in which its stage carries a valid
// operation (held otherwise; the valid bits themselves load every cycle), and each stage's logic is a function
// called inside that register's always block, so that a cycle-based simulator (Verilator) computes a stage only
// when it is valid (docs/simt-fpu.md, "Valid-enabled stages"). res_o is defined only while valid_o.
// TABLE_DIR: directory of the .hex tables as seen from the tool's working directory (see simt_sfu_rom).
module simt_sfu #(
  parameter integer LAT = 8,
  parameter TABLE_DIR = "defs"
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        valid_i,
  input  wire [6:0]  op_i,
  input  wire        na_i,
  input  wire        aa_i,
  input  wire [31:0] a_i,
  output wire        valid_o,
  output wire [31:0] res_o
);
  localparam integer NB = 8;   // boundaries B0..B7
  localparam integer L  = (LAT < NB) ? LAT : NB;
  localparam integer XD = (LAT > NB) ? LAT - NB : 0;
  // elaboration-time constant function: never runs in simulation (no coverage points):
  // verilator coverage_off
  function integer en(input integer i);
    en = ((i * L) / NB != ((i - 1) * L) / NB) ? 1 : 0;
  endfunction
  // verilator coverage_on
  generate
    if (LAT < 1 || LAT > 64) begin : g_bad_lat
      simt_sfu_LAT_must_be_1_to_64 u_bad ();   // elaboration error on purpose
    end
  endgenerate

  // ---------------------------------------------------------------- B0: input register
  wire        valid0;
  reg         na0, aa0;
  reg  [6:0]  op0;
  reg  [31:0] a0;
  simt_fp_pipe #(.W(1), .EN(en(1)), .RST(1)) u_v0 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(valid_i), .q_o(valid0));
  generate
    if (en(1) != 0) begin : g_in
      always @(posedge clk_i) if (valid_i) {op0, na0, aa0, a0} <= {op_i, na_i, aa_i, a_i};
    end else begin : g_inw
      always @* {op0, na0, aa0, a0} = {op_i, na_i, aa_i, a_i};
    end
  endgenerate

  // valid and "not an SFU op" travel beside the data
  wire [6:0] vv_q;   // valid after B1..B7
  wire [5:0] no_q;   // not an SFU opcode, after B1..B6

  // ---------------------------------------------------------------- stage 1: decode, modifiers, FTZ
  wire [2:0] fn = (op0 == `ISA_OP_RCP) ? 3'd0 : (op0 == `ISA_OP_RSQ) ? 3'd1 :
                  (op0 == `ISA_OP_EX2) ? 3'd2 : (op0 == `ISA_OP_LG2) ? 3'd3 :
                  (op0 == `ISA_OP_SIN) ? 3'd4 : (op0 == `ISA_OP_COS) ? 3'd5 : 3'd7;
  // the operand with its modifiers; the flush (FTZ) is applied inside simt_sfu_reduce, only where a flushed
  // operand differs (a zero exponent is a special case of every function), so the reduction's multiplier and
  // shifter take the significand straight from the input register
  wire [31:0] am = {(a0[31] & ~aa0) ^ na0, a0[30:0]};

  wire        spec2, dir2, sign2, lg2_2;
  wire [31:0] sres2;
  wire [7:0]  rdir2;
  wire signed [9:0] e2;
  wire signed [8:0] u2;
  wire [9:0]  addr2;
  wire [22:0] d2;
  simt_sfu_reduce #(.E1(en(2)), .E2(en(3))) u_red (.clk_i(clk_i), .rst_ni(rst_ni), .v1_i(valid0), .v2_i(vv_q[0]),
    .fn_i(fn), .a_i(am),
    .spec_o(spec2), .sres_o(sres2), .direct_o(dir2), .rdir_o(rdir2), .sign_o(sign2), .e_o(e2),
    .lg2_o(lg2_2), .u_o(u2), .addr_o(addr2), .d_o(d2));

  // ---------------------------------------------------------------- stages 3..5: table and polynomial
  wire [33:0] c0_5;
  wire [26:0] t1_5;
  wire [19:0] t2_5;
  simt_sfu_quad #(.E1(en(4)), .E2(en(5)), .TABLE_DIR(TABLE_DIR)) u_quad (.clk_i(clk_i), .rst_ni(rst_ni),
    .v1_i(vv_q[1]), .v2_i(vv_q[2]), .addr_i(addr2), .d_i(d2), .c0_o(c0_5), .t1_o(t1_5), .t2_o(t2_5));
  localparam integer SW = 1 + 32 + 1 + 8 + 1 + 10 + 1 + 9;
  reg [SW-1:0] side3;
  reg [SW+9:0] side5;
  generate
    if (en(4) != 0) begin : g_s3
      always @(posedge clk_i) if (vv_q[1]) side3 <= {spec2, sres2, dir2, rdir2, sign2, e2, lg2_2, u2};
    end else begin : g_s3w
      always @* side3 = {spec2, sres2, dir2, rdir2, sign2, e2, lg2_2, u2};
    end
    // stage 4 also negates u (10 bits) for stage 5's -V
    if (en(5) != 0) begin : g_s4
      always @(posedge clk_i) if (vv_q[2]) side5 <= {side3, 10'd0 - {side3[8], side3[8:0]}};
    end else begin : g_s4w
      always @* side5 = {side3, 10'd0 - {side3[8], side3[8:0]}};
    end
  endgenerate

  // the functions' locals include bits a stage drops (carry-outs, low product bits, the shifted-out part of P):
  // the same bits the former cells' unused_ok lists named
  // verilator lint_off UNUSEDSIGNAL
  `SIMT_FN_KADD(add36, 36)
  `SIMT_FN_KADD(add40, 40)
  // stage 5: Y = C0 + T1 + T2 (simt_sfu_quad's addends: one 3:2 carry-save level, then a 36-bit prefix adder);
  // lg2: V = u*2^30 + max(Y, 0) (|V| < 2^37), magnitude |V| and sign; others: R = max(Y, 0), sign from the
  // reduction. Instead of adding u*2^30 after Y and negating after that (three carry-propagate adds in series),
  // V and -V are each one carry-save sum of the addends at 40 bits (exact: |Y| < 2^34, |V| < 2^39), beside Y's
  // own sum:
  //   Y >= 0:  V = U + C0 + T1 + T2,   -V = -U + ~C0 + ~T1 + ~T2 + 3 (the 3 in the free carry bits and cin)
  //   Y <  0:  V = U, |V| = |u| * 2^30
  // Result {spec, sres, sign, R (40 bits), E}.
  function automatic [1 + 32 + 1 + 40 + 10 - 1:0] stage_5(input [SW+9:0] side, input [33:0] c0, input [26:0] t1,
                                                         input [19:0] t2);
    reg        spec5, dir5, sign5, lg2_5, vneg, s5;
    reg [31:0] sres5;
    reg [7:0]  rdir5;
    reg [9:0]  e5, nu5;
    reg [8:0]  u5, uabs;
    reg [35:0] y0, y1, y2, ys, yc3, y5;
    reg [36:0] ysum;
    reg [39:0] yc, ya, yb, yd, s1, m1, k1p, k1n, up, un, s2p, m2p, s2n, m2n, vp, vn, vabs, r5;
    reg [40:0] vpc, vnc;
    begin
      {spec5, sres5, dir5, rdir5, sign5, e5, lg2_5, u5, nu5} = side;
      y0 = {{2{c0[33]}}, c0};
      y1 = {{9{t1[26]}}, t1};
      y2 = {{16{t2[19]}}, t2};
      ys = y0 ^ y1 ^ y2;
      yc3 = ((y0 & y1) | (y0 & y2) | (y1 & y2)) << 1;
      ysum = add36(ys, yc3, 1'b0);
      y5 = ysum[35:0];
      yc = y5[35] ? 40'd0 : {{4{1'b0}}, y5};
      ya = {{6{c0[33]}}, c0};
      yb = {{13{t1[26]}}, t1};
      yd = {{20{t2[19]}}, t2};
      s1 = ya ^ yb ^ yd;                            // s1 + 2*m1 = Y
      m1 = (ya & yb) | (ya & yd) | (yb & yd);
      k1p = {m1[38:0], 1'b0};
      k1n = {~m1[38:0], 1'b1};                      // ~s1 + k1n = -Y - 2
      up = {u5[8], u5, 30'd0};                      // U = u * 2^30
      un = {nu5, 30'd0};                            // -U
      s2p = s1 ^ k1p ^ up;
      m2p = (s1 & k1p) | (s1 & up) | (k1p & up);
      s2n = ~s1 ^ k1n ^ un;
      m2n = (~s1 & k1n) | (~s1 & un) | (k1n & un);
      vpc = add40(s2p, {m2p[38:0], 1'b0}, 1'b0);    // U + Y
      vnc = add40(s2n, {m2n[38:0], 1'b1}, 1'b1);    // -(U + Y)
      vp = vpc[39:0];
      vn = vnc[39:0];
      uabs = u5[8] ? nu5[8:0] : u5;
      vneg = y5[35] ? u5[8] : vp[39];               // sign of V
      vabs = y5[35] ? {1'b0, uabs, 30'd0} : vp[39] ? vn : vp;
      r5 = dir5 ? {32'd0, rdir5} : lg2_5 ? vabs : yc;
      s5 = dir5 ? sign5 : lg2_5 ? vneg : sign5;
      stage_5 = {spec5, sres5, s5, r5, e5};
    end
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  reg         spec6, sign6;
  reg  [31:0] sres6;
  reg  [39:0] r6;
  reg  [9:0]  e6;
  generate
    if (en(6) != 0) begin : g_s5
      always @(posedge clk_i) if (vv_q[3]) {spec6, sres6, sign6, r6, e6} <= stage_5(side5, c0_5, t1_5, t2_5);
    end else begin : g_s5w
      always @* {spec6, sres6, sign6, r6, e6} = stage_5(side5, c0_5, t1_5, t2_5);
    end
  endgenerate

  // ---------------------------------------------------------------- stages 6..7: normalise, round, pack
  // (the output boundary B7 is simt_sfu_pack's second register; "not an SFU op" gives 0)
  wire [31:0] res8;
  simt_sfu_pack #(.E1(en(7)), .E2(en(8))) u_pack (.clk_i(clk_i), .rst_ni(rst_ni), .v1_i(vv_q[4]), .v2_i(vv_q[5]),
    .zero_i(no_q[5]), .spec_i(spec6), .sres_i(sres6), .sign_i(sign6), .r_i(r6), .e_i(e6), .f_o(res8));
  simt_fp_pipe #(.W(2), .EN(en(2)), .RST(1)) u_v1 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i({valid0, fn == 3'd7}), .q_o({vv_q[0], no_q[0]}));
  genvar i;
  generate
    for (i = 1; i < 6; i = i + 1) begin : g_v
      simt_fp_pipe #(.W(2), .EN(en(i + 2)), .RST(1)) u_v (.clk_i(clk_i), .rst_ni(rst_ni),
        .d_i({vv_q[i-1], no_q[i-1]}), .q_o({vv_q[i], no_q[i]}));
    end
  endgenerate
  simt_fp_pipe #(.W(1), .EN(en(8)), .RST(1)) u_v7 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(vv_q[5]), .q_o(vv_q[6]));

  // ---------------------------------------------------------------- extra latency (LAT > 8)
  wire [XD:0]    xv;
  wire [32*XD+31:0] xd;
  assign xv[0] = vv_q[6];
  assign xd[31:0] = res8;
  generate
    for (i = 0; i < XD; i = i + 1) begin : g_xd
      simt_fp_pipe #(.W(1), .EN(1), .RST(1)) u_xv (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(xv[i]), .q_o(xv[i+1]));
      simt_fp_pipe #(.W(32), .EN(1)) u_xd (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(xd[32*i +: 32]), .q_o(xd[32*(i+1) +: 32]));
    end
  endgenerate
  assign valid_o = xv[XD];
  assign res_o = xd[32*XD +: 32];
endmodule
`default_nettype wire
