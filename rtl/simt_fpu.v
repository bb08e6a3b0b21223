`timescale 1ns/1ps
`default_nettype none
`include "isa_defs.vh"
`include "simt_fp_fn.vh"
// simt_fpu: the FP32 datapath of one SIMT lane (issue 10; ports: docs/simt-fpu.md;
// semantics: docs/isa.md section 5; algorithms, pipeline and verification: docs/simt-fpu.md).
// Bit-exact to the soft-float of cmodel/isa/isa_fp.c for
//   fadd fmul fmad fmin fmax fsetp frnd f2i f2u i2f u2f
// with the source modifiers applied here, as the interpreter does (cmodel/isa/isa_exec.c): for the
// FP-typed opcodes A = a_i with AA (absolute value) then NA (negate), B = b_i with NB, and for fmad
// C = c_i with NC; i2f/u2f take a_i as raw integer bits and ignore the modifiers. cc_i is the compare
// condition {U,G,E,L} of fsetp and the rounding mode (cc_i[1:0]) of frnd, f2i, f2u.
// Outputs: res_o = the 32-bit result (fsetp: {31'b0, pred}); pred_o = the fsetp result (0 for other ops).
// Any other opcode gives res_o = 0, pred_o = 0 (the core executes it elsewhere).
//
// Dataflow: every arithmetic op goes through ONE multiply-add chain (multiply, round, add, round):
//   fmad = (A*B) + C;  fmul = (A*B) + (-0);  fadd = (A*1.0) + B
// which is exact: x*1.0 = x for every flushed x (NaN -> canonical NaN), and p + (-0) = p for every p the
// multiplier produces (including -0 and +0). fmin/fmax/fsetp (simt_fp_cmp) and the conversions
// (simt_fp_cvt) run beside it and are multiplexed in at the last stage.
//
// Pipeline: the input register B0, then seven stages ending in the boundaries B1..B7 (each boundary a
// register or a wire, see LAT):
//   stage 1  modifiers, FTZ, operand selection; multiplier M1 (partial products, CSA tree); compare; cvt C1
//   stage 2  multiplier M2 (48-bit carry-propagate add, guard/sticky); cvt C2
//   stage 3  multiplier M3 (round, pack product); cvt C3
//   stage 4  adder A1 (classify, swap, exponent difference)
//   stage 5  adder A2 (align, add/subtract)
//   stage 6  adder A3 (leading zeros, normalise)
//   stage 7  adder A4 (round, pack); result multiplexer
// LAT (legal range 1..64, default 8): the fixed latency in cycles from valid_i to valid_o; fully
// pipelined (one operation per cycle, no stall, no ready). LAT >= 8: all eight boundaries B0..B7 are
// registers and LAT-8 further output registers are added; LAT < 8: LAT of the boundaries are registers,
// spread evenly (boundary Bk-1 is a register iff floor(k*LAT/8) > floor((k-1)*LAT/8), k = 1..8; the output
// boundary B7 always is), at a lower clock frequency. Only the valid bits are reset.
// Valid-enabled stages: every data register of B0..B7 loads only in the cycles in which its stage carries a valid
// operation (held otherwise; the valid bits themselves load every cycle), and the multiplier's, converter's and
// adder's stage logic is a function called inside the register's always block (`SIMT_STAGE), so that a
// cycle-based simulator computes a stage only when it is valid (docs/simt-fpu.md, "Valid-enabled stages").
// res_o and pred_o are defined only while valid_o. The output boundary B7 holds the result multiplexer and is
// simt_fp_add's last register (A4).
// AREA (default 0): 1 selects the area-reduced implementation for small FPGAs (the iCE40 configuration,
// docs/simt.md section 6): the significand product as one `*` and every carry-propagate add as a ripple
// adder (the FPGA's carry chain) instead of the CSA tree and the prefix adders. Same results, same latency.
// PASSES (default 1): 4 (with AREA = 1) computes the significand product in four passes on four consecutive
// cycles with the same operands, pass_i = 0..3 (simt_fp_mul PASSES); only the pass-3 result is a result.
module simt_fpu #(
  parameter integer LAT = 8,
  parameter integer AREA = 0,
  parameter integer PASSES = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        valid_i,
  input  wire [6:0]  op_i,
  input  wire [3:0]  cc_i,
  input  wire        na_i,
  input  wire        aa_i,
  input  wire        nb_i,
  input  wire        nc_i,
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  input  wire [31:0] c_i,
  // verilator lint_off UNUSEDSIGNAL
  input  wire [1:0]  pass_i,   // PASSES = 4: the pass of this operation (0..3)
  // verilator lint_on UNUSEDSIGNAL
  output wire        valid_o,
  output wire [31:0] res_o,
  output wire        pred_o
);
  localparam integer NB = 8;                     // internal boundaries B0..B7
  localparam integer L  = (LAT < NB) ? LAT : NB;
  localparam integer XD = (LAT > NB) ? LAT - NB : 0;   // extra output registers
  // elaboration-time constant function: never runs in simulation (no coverage points):
  // verilator coverage_off
  function integer en(input integer i);
    en = ((i * L) / NB != ((i - 1) * L) / NB) ? 1 : 0;
  endfunction
  // verilator coverage_on
  generate
    if (LAT < 1 || LAT > 64) begin : g_bad_lat
      simt_fpu_LAT_must_be_1_to_64 u_bad ();   // elaboration error on purpose
    end
  endgenerate

  // ---------------------------------------------------------------- B0: input register
  // The operands arrive from the core's operand registers/register file with an input delay; registering
  // them first gives stage 1 (the multiplier's CSA tree, the conversion shifter) a whole cycle.
  wire        valid0;
  reg         na0, aa0, nb0, nc0;
  reg  [6:0]  op0;
  reg  [3:0]  cc0;
  reg  [31:0] a0, b0, c0;
  simt_fp_pipe #(.W(1), .EN(en(1)), .RST(1)) u_v0 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(valid_i), .q_o(valid0));
  `SIMT_STAGE(g_in, en(1), valid_i, {op0, cc0, na0, aa0, nb0, nc0, a0, b0, c0}, {op_i, cc_i, na_i, aa_i, nb_i, nc_i, a_i, b_i, c_i})

  // ---------------------------------------------------------------- stage 1: decode, modifiers, FTZ
  wire is_fadd  = op0 == `ISA_OP_FADD;
  wire is_fmul  = op0 == `ISA_OP_FMUL;
  wire is_fmad  = op0 == `ISA_OP_FMAD;
  wire is_fmin  = op0 == `ISA_OP_FMIN;
  wire is_fmax  = op0 == `ISA_OP_FMAX;
  wire is_fsetp = op0 == `ISA_OP_FSETP;
  wire is_frnd  = op0 == `ISA_OP_FRND;
  wire is_f2i   = op0 == `ISA_OP_F2I;
  wire is_f2u   = op0 == `ISA_OP_F2U;
  wire is_i2f   = op0 == `ISA_OP_I2F;
  wire is_u2f   = op0 == `ISA_OP_U2F;
  wire is_arith = is_fadd | is_fmul | is_fmad;
  wire is_cmp   = is_fmin | is_fmax | is_fsetp;
  wire is_cvt   = is_frnd | is_f2i | is_f2u | is_i2f | is_u2f;
  wire is_int   = is_i2f | is_u2f;

  function [31:0] ftz(input [31:0] x);
    ftz = (x[30:23] == 8'd0) ? {x[31], 31'd0} : x;
  endfunction
  wire [31:0] am = {(a0[31] & ~aa0) ^ na0, a0[30:0]};
  wire [31:0] fla = ftz(am);
  wire [31:0] flb = ftz({b0[31] ^ nb0, b0[30:0]});
  wire [31:0] flc = ftz({c0[31] ^ nc0, c0[30:0]});
  wire [31:0] mul_y = is_fadd ? 32'h3f800000 : flb;
  wire [31:0] add_z = is_fadd ? flb : is_fmad ? flc : 32'h80000000;
  // result select: 0 multiply-add, 1 compare/convert, 2 zero (not an FPU op); fsetp also sets pred
  wire [1:0]  sel1 = is_arith ? 2'd0 : (is_cmp | is_cvt) ? 2'd1 : 2'd2;

  // compare (one stage)
  wire [31:0] cmin, cmax;
  wire        cpred;
  simt_fp_cmp u_cmp (.a_i(fla), .b_i(flb), .cc_i(cc0), .min_o(cmin), .max_o(cmax), .pred_o(cpred));
  wire [31:0] cres1 = is_fmin ? cmin : is_fmax ? cmax : {31'd0, cpred};
  wire        pred1 = is_fsetp & cpred;

  // the valid bits of B1..B3
  wire        v1, v2, v3;

  // conversions (three stages, boundaries B1..B3 inside)
  wire [2:0] kind = is_frnd ? 3'd0 : is_f2i ? 3'd1 : is_f2u ? 3'd2 : is_i2f ? 3'd3 : is_u2f ? 3'd4 : 3'd7;
  wire [31:0] cvt3;
  simt_fp_cvt #(.AREA(AREA), .E1(en(2)), .E2(en(3)), .E3(en(4))) u_cvt (.clk_i(clk_i), .rst_ni(rst_ni),
    .v1_i(valid0), .v2_i(v1), .v3_i(v2), .kind_i(kind), .mode_i(cc0[1:0]), .a_i(is_int ? a0 : fla), .r_o(cvt3));

  // multiplier (three stages, boundaries B1..B3 inside)
  wire [31:0] prod3;
  wire [1:0]  pass0;   // pass_i at B0 (PASSES = 4)
  generate if (PASSES != 1) begin : g_pass
    simt_fp_pipe #(.W(2), .EN(en(1))) u_pass (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(pass_i), .q_o(pass0));
  end else begin : g_nopass
    assign pass0 = 2'd0;
  end endgenerate
  simt_fp_mul #(.AREA(AREA), .PASSES(PASSES), .E1(en(2)), .E2(en(3)), .E3(en(4))) u_mul (.clk_i(clk_i),
    .rst_ni(rst_ni), .v1_i(valid0), .v2_i(v1), .v3_i(v2), .x_i(fla), .y_i(mul_y), .pass_i(pass0), .p_o(prod3));
  simt_fp_pipe #(.W(1), .EN(en(2)), .RST(1)) u_v1 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(valid0), .q_o(v1));
  simt_fp_pipe #(.W(1), .EN(en(3)), .RST(1)) u_v2 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(v1), .q_o(v2));
  simt_fp_pipe #(.W(1), .EN(en(4)), .RST(1)) u_v3 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(v2), .q_o(v3));
  // what travels beside the multiplier and the converter through B1..B3
  reg  [1:0]  sel_2, sel_3, sel_4;
  reg  [31:0] z2, z3, z4;
  reg  [31:0] c2_, c3_, c4_;
  reg         p2, p3, p4, ic2, ic3, ic4;
  `SIMT_STAGE(g_s1, en(2), valid0, {sel_2, z2, c2_, p2, ic2}, {sel1, add_z, cres1, pred1, is_cmp})
  `SIMT_STAGE(g_s2, en(3), v1, {sel_3, z3, c3_, p3, ic3}, {sel_2, z2, c2_, p2, ic2})
  `SIMT_STAGE(g_s3, en(4), v2, {sel_4, z4, c4_, p4, ic4}, {sel_3, z3, c3_, p3, ic3})

  // ---------------------------------------------------------------- stages 4..7: adder
  // adder (four stages, boundaries B4..B7 inside; its last stage holds the result multiplexer: B7 is its register)
  wire        v4, v5, v6, v8;
  reg  [1:0]  sel_5, sel_6, sel_7;
  reg  [31:0] side5, side6, side7;
  reg         p5, p6, p7, pred8;
  wire [31:0] res8;
  simt_fp_add #(.AREA(AREA), .E1(en(5)), .E2(en(6)), .E3(en(7)), .E4(en(8))) u_add (.clk_i(clk_i), .rst_ni(rst_ni),
    .v1_i(v3), .v2_i(v4), .v3_i(v5), .v4_i(v6), .a_i(prod3), .b_i(z4), .sel_i(sel_7), .side_i(side7), .s_o(res8));

  simt_fp_pipe #(.W(1), .EN(en(5)), .RST(1)) u_v4 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(v3), .q_o(v4));
  simt_fp_pipe #(.W(1), .EN(en(6)), .RST(1)) u_v5 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(v4), .q_o(v5));
  simt_fp_pipe #(.W(1), .EN(en(7)), .RST(1)) u_v6 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(v5), .q_o(v6));
  `SIMT_STAGE(g_s4, en(5), v3, {sel_5, side5, p5}, {sel_4, ic4 ? c4_ : cvt3, p4})
  `SIMT_STAGE(g_s5, en(6), v4, {sel_6, side6, p6}, {sel_5, side5, p5})
  `SIMT_STAGE(g_s6, en(7), v5, {sel_7, side7, p7}, {sel_6, side6, p6})

  // ---------------------------------------------------------------- stage 7: result multiplexer (in u_add), B7
  simt_fp_pipe #(.W(1), .EN(en(8)), .RST(1)) u_v7 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(v6), .q_o(v8));
  `SIMT_STAGE(g_s7, en(8), v6, pred8, p7)

  // ---------------------------------------------------------------- extra latency (LAT > 8)
  wire [XD:0]    xv;
  wire [33*XD+32:0] xd;
  assign xv[0] = v8;
  assign xd[32:0] = {res8, pred8};
  genvar i;
  generate
    for (i = 0; i < XD; i = i + 1) begin : g_xd
      simt_fp_pipe #(.W(1), .EN(1), .RST(1)) u_xv (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(xv[i]), .q_o(xv[i+1]));
      simt_fp_pipe #(.W(33), .EN(1)) u_xd (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(xd[33*i +: 33]), .q_o(xd[33*(i+1) +: 33]));
    end
  endgenerate
  assign valid_o = xv[XD];
  assign {res_o, pred_o} = xd[33*XD +: 33];
endmodule
`default_nettype wire
