`timescale 1ns/1ps
`default_nettype none
`include "simt_fp_fn.vh"
// simt_fp_mul: binary32 multiply of the SIMT lane (docs/simt-fpu.md), bit-exact to isa_f_mul()
// (cmodel/isa/isa_fp.c): denormal inputs are zeros (FTZ), round to nearest even, results below 2^-126 after
// rounding become a signed zero, overflow gives infinity, every NaN result is 0x7fc00000.
//
// Three stages, each ending in an optional register (E1..E3) that loads only when its enable is set (v1_i..v3_i:
// the stage carries a valid operation; held otherwise). Each stage's logic is a function called inside the
// register's always block (`SIMT_STAGE), so that a cycle-based simulator computes it only in those cycles
// (docs/simt-fpu.md, "Valid-enabled stages"; the CSA tree and the adders are simt_fp_fn.vh's functions):
//   M1  classify (zero/inf/NaN), sign, exponent sum; 24 partial products reduced to two rows (CSA tree)
//   M2  48-bit carry-propagate add; pick the 24 significant bits, guard and sticky (product in [1,4))
//   M3  round to nearest even, exponent adjust, overflow/underflow (FTZ), special results, pack
// AREA = 1 (area-reduced configurations, e.g. iCE40; docs/simt.md section 6): the significand product is one
// `mx * my` in M1 (FPGA flows build it from carry-chain adders), no CSA tree and no 48-bit prefix add in M2,
// and the rounding increment is a ripple adder; same results, same stages. Default 0.
// PASSES = 4 (needs AREA = 1; the reduced iCE40 configuration): the product in four passes through a 24 x 6 array on
// four consecutive cycles with the same operands, pass_i = 0..3 (the core repeats every FPU beat as minor 0..3);
// pass k adds mx * my[23-6k:18-6k] to the previous passes' sum shifted left by 6 (Horner order, a register of 48
// bits), so that M1 of pass 3 sees the whole product; the results of passes 0..2 are not used. Default 1.
module simt_fp_mul #(
  parameter integer AREA = 0,
  parameter integer PASSES = 1,
  parameter integer E1 = 1,
  parameter integer E2 = 1,
  parameter integer E3 = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        v1_i,     // load the M1 register (a valid operation at the input)
  input  wire        v2_i,     // load the M2 register (a valid operation in M1's register)
  input  wire        v3_i,     // load the M3 register (a valid operation in M2's register)
  input  wire [31:0] x_i,
  input  wire [31:0] y_i,
  // verilator lint_off UNUSEDSIGNAL
  input  wire [1:0]  pass_i,   // PASSES = 4: the pass of this M1 cycle
  // verilator lint_on UNUSEDSIGNAL
  output wire [31:0] p_o
);
  // the functions' locals include bits a stage drops (carry-outs, the low product bits)
  // verilator lint_off UNUSEDSIGNAL
  `SIMT_FN_CSA(csa24, 24, 24, 48, 0)       // 24 partial products -> two rows (simt_fp_mul_csa #(24, 24, 48))
  `SIMT_FN_KADD(add48, 48)                 // M2's carry-propagate add
  `SIMT_FN_KADD(inc24p, 24)
  // verilator coverage_off
  `SIMT_FN_RADD(inc24r, 24)          // M3's rounding increment (ripple with AREA)
  // verilator coverage_on
  localparam integer W1 = 96 + 9 + 4;
  localparam integer W2 = 24 + 2 + 11 + 4;

  // ---------------------------------------------------------------- M1
  // PASSES = 4: the product accumulates over the four passes in acc_q, which loads in every cycle (the passes
  // 0..2 are not valid operations); M1 of pass 3 takes accn as the product
  wire [47:0] accn;
  generate if (PASSES != 1 && (PASSES != 4 || AREA == 0)) begin : g_bad_passes
    simt_fp_mul_PASSES_must_be_1_or_4_with_AREA u_bad ();   // elaboration error on purpose
  end else if (AREA != 0 && PASSES == 4) begin : g_pmul
    reg  [41:0] acc_q;   // mx * my[23:24-6(k+1)] after pass k < 3 (< 2^42)
    wire [23:0] mx = {1'b1, x_i[22:0]};
    wire [23:0] my = {1'b1, y_i[22:0]};
    wire [5:0]  ych = (pass_i == 2'd0) ? my[23:18] : (pass_i == 2'd1) ? my[17:12] :
                      (pass_i == 2'd2) ? my[11:6] : my[5:0];
    wire [29:0] pp = mx * ych;
    assign accn = ((pass_i == 2'd0) ? 48'd0 : {acc_q, 6'd0}) + {18'd0, pp};
    always @(posedge clk_i) acc_q <= accn[41:0];
  end else begin : g_nopass
    assign accn = 48'd0;
  end endgenerate

  // {the product as two rows s, c (AREA: the product and 0), exponent sum, sign, NaN, inf, zero}
  function automatic [W1-1:0] stage_m1(input [31:0] x, input [31:0] y, input [47:0] pacc);
    reg [7:0]  xe, ye;
    reg        x_zero, y_zero, x_inf, y_inf, x_nan, y_nan, sign, nan, inf, zero;
    reg [8:0]  esum;
    reg [23:0] mx, my;
    reg [95:0] cs;
    reg [47:0] s, c;
    begin
      xe = x[30:23];
      ye = y[30:23];
      x_zero = (xe == 8'd0);
      y_zero = (ye == 8'd0);
      x_inf  = (xe == 8'hff) && (x[22:0] == 23'd0);
      y_inf  = (ye == 8'hff) && (y[22:0] == 23'd0);
      x_nan  = (xe == 8'hff) && (x[22:0] != 23'd0);
      y_nan  = (ye == 8'hff) && (y[22:0] != 23'd0);
      sign = x[31] ^ y[31];
      nan  = x_nan | y_nan | (x_inf & y_zero) | (y_inf & x_zero);
      inf  = (x_inf | y_inf) & ~nan;
      zero = (x_zero | y_zero) & ~nan & ~inf;
      esum = {1'b0, xe} + {1'b0, ye};
      mx = {1'b1, x[22:0]};
      my = {1'b1, y[22:0]};
      cs = csa24(mx, my);   // Wallace reduction of the 24 partial products: {carry, sum} (not used with AREA)
      // AREA: the product (PASSES = 4: accumulated over the passes) and 0; constant selects, no branches
      s = (AREA != 0 && PASSES == 4) ? pacc : (AREA != 0) ? mx * my : cs[47:0];
      c = (AREA != 0) ? 48'd0 : cs[95:48];
      stage_m1 = {s, c, esum, sign, nan, inf, zero};
    end
  endfunction

  reg [47:0] r1_s, r1_c;
  reg [8:0]  r1_esum;
  reg        r1_sign, r1_nan, r1_inf, r1_zero;
  `SIMT_STAGE(g_r1, E1, v1_i, {r1_s, r1_c, r1_esum, r1_sign, r1_nan, r1_inf, r1_zero}, stage_m1(x_i, y_i, accn))

  // ---------------------------------------------------------------- M2
  // {24 significant bits, guard, sticky, biased exponent before the rounding carry, sign, NaN, inf, zero}
  function automatic [W2-1:0] stage_m2(input [47:0] ps, input [47:0] pc, input [8:0] esum, input [3:0] flags);
    reg [48:0] pr;
    reg [47:0] prod;   // in [2^46, 2^48): both significands are in [2^23, 2^24)
    reg        hi, g, st;
    reg [23:0] m;
    reg signed [10:0] be;
    begin
      pr = (AREA != 0) ? {1'b0, ps} : add48(ps, pc, 1'b0);   // AREA: the product (pc = 0)
      prod = pr[47:0];
      hi = prod[47];
      // biased exponent before the rounding carry: ea + eb - 127 + hi (-125 .. 382)
      be = $signed({2'b00, esum}) - 11'sd127 + $signed({10'd0, hi});
      m  = hi ? prod[47:24] : prod[46:23];
      g  = hi ? prod[23] : prod[22];
      st = hi ? (prod[22:0] != 23'd0) : (prod[21:0] != 22'd0);
      stage_m2 = {m, g, st, be, flags};
    end
  endfunction

  reg [23:0] r2_m;
  reg [10:0] r2_be;
  reg        r2_g, r2_st, r2_sign, r2_nan, r2_inf, r2_zero;
  `SIMT_STAGE(g_r2, E2, v2_i, {r2_m, r2_g, r2_st, r2_be, r2_sign, r2_nan, r2_inf, r2_zero},
              stage_m2(r1_s, r1_c, r1_esum, {r1_sign, r1_nan, r1_inf, r1_zero}))

  // ---------------------------------------------------------------- M3
  function automatic [31:0] stage_m3(input [23:0] m, input g, input st, input [10:0] rbe, input sign,
                                     input nan, input inf, input zero);
    reg        up, mc, ovf, unf;
    reg [24:0] mr;       // {rounding carry, significand}: 2^24 -> 2^23, exponent + 1
    reg signed [10:0] be;
    reg [7:0]  be1;
    begin
      up = g & (st | m[0]);
      mr = (AREA != 0) ? inc24r(m, 24'd0, up) : inc24p(m, 24'd0, up);
      mc = mr[24];
      // exponent + carry as a carry-select: both outcomes precomputed from rbe, chosen by mc
      be  = $signed(rbe);
      be1 = rbe[7:0] + 8'd1;
      ovf = mc ? (be >= 11'sd254) : (be >= 11'sd255);
      unf = mc ? (be <= -11'sd1) : (be <= 11'sd0);
      if (nan)       stage_m3 = 32'h7fc00000;
      else if (inf)  stage_m3 = {sign, 8'hff, 23'd0};
      else if (zero) stage_m3 = {sign, 31'd0};
      else if (ovf)  stage_m3 = {sign, 8'hff, 23'd0};
      else if (unf)  stage_m3 = {sign, 31'd0};
      else           stage_m3 = {sign, mc ? be1 : rbe[7:0], mr[22:0]};
    end
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  reg [31:0] r3_p;
  `SIMT_STAGE(g_r3, E3, v3_i, r3_p, stage_m3(r2_m, r2_g, r2_st, r2_be, r2_sign, r2_nan, r2_inf, r2_zero))
  assign p_o = r3_p;
  wire unused_ok = &{1'b0, clk_i, rst_ni};
endmodule
`default_nettype wire
