`timescale 1ns/1ps
`default_nettype none
`include "simt_fp_fn.vh"
// simt_fp_add: binary32 add of the SIMT lane (docs/simt-fpu.md), bit-exact to isa_f_add()
// (cmodel/isa/isa_fp.c). Inputs must already be flushed (a zero exponent means a signed zero): the unit
// returns an input unchanged in the x + 0, inf + x cases. Round to nearest even, FTZ after rounding, exact
// cancellation gives +0, one canonical NaN 0x7fc00000.
//
// Four stages, each ending in an optional register (E1..E4) that loads only when its enable is set (v1_i..v4_i:
// the stage carries a valid operation; held otherwise). Each stage's logic is a function called inside the
// register's always block (`SIMT_STAGE), so that a cycle-based simulator computes it only in those cycles
// (docs/simt-fpu.md, "Valid-enabled stages"). The last stage also holds simt_fpu's result multiplexer (sel_i:
// 0 the sum, 1 side_i, 2/3 zero), so that its output register is simt_fpu's output boundary B7:
//   A1  classify, special results, order by magnitude (swap), exponent difference d (clamped to 26)
//   A2  align the smaller significand (right shift by d, sticky), add or subtract: 28-bit {ovf, 24, G, R, S}
//   A3  leading-zero count and normalising shift (left by lz, or right by one on carry-out), exponent
//   A4  round to nearest even (G and sticky), exponent carry, overflow to inf / underflow to zero, pack; the
//       result multiplexer
// With 3 guard bits (G, R, sticky) the result is the correctly rounded sum, as the C reference computes it
// with 32 extra bits: a shift by d >= 2 loses at most one leading bit in a subtraction.
// AREA = 1 (area-reduced configurations, docs/simt.md section 6): ripple adders (FPGA carry chains) instead of
// prefix adders; same results, same stages. Default 0.
module simt_fp_add #(
  parameter integer AREA = 0,
  parameter integer E1 = 1,
  parameter integer E2 = 1,
  parameter integer E3 = 1,
  parameter integer E4 = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        v1_i,     // load the A1 register (a valid operation at the input)
  input  wire        v2_i,     // ... the A2 register (a valid operation in A1's register)
  input  wire        v3_i,     // ... the A3 register
  input  wire        v4_i,     // ... the A4 (output) register
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  input  wire [1:0]  sel_i,    // at A4: 0 the sum, 1 side_i, 2/3 zero
  input  wire [31:0] side_i,   // at A4
  output wire [31:0] s_o
);
  // the functions' locals include bits a stage drops (carry-outs)
  // verilator lint_off UNUSEDSIGNAL
  `SIMT_FN_KADD(add28p, 28)
  // verilator coverage_off
  `SIMT_FN_RADD(add28r, 28)   // A2's add/subtract
  // verilator coverage_on
  `SIMT_FN_KADD(inc24p, 24)
  // verilator coverage_off
  `SIMT_FN_RADD(inc24r, 24)   // A4's rounding increment
  // verilator coverage_on
  `SIMT_FN_LZC(lzc28, 28, 5)        // A3's leading-zero count (simt_fp_lzc #(28, 5))
  localparam integer W1 = 1 + 32 + 1 + 1 + 8 + 23 + 23 + 5;

  // ---------------------------------------------------------------- A1
  // {special, its result, subtract, sign/exponent/fraction of the bigger, fraction of the smaller, d}
  function automatic [W1-1:0] stage_a1(input [31:0] a, input [31:0] b);
    reg [7:0]  ae, be_, d;
    reg        a_zero, b_zero, a_inf, b_inf, a_nan, b_nan, spec, swap, sub;
    reg [31:0] sres, big, sml;
    reg [4:0]  dc;
    begin
      ae  = a[30:23];
      be_ = b[30:23];
      a_zero = (ae == 8'd0);
      b_zero = (be_ == 8'd0);
      a_inf  = (ae == 8'hff) && (a[22:0] == 23'd0);
      b_inf  = (be_ == 8'hff) && (b[22:0] == 23'd0);
      a_nan  = (ae == 8'hff) && (a[22:0] != 23'd0);
      b_nan  = (be_ == 8'hff) && (b[22:0] != 23'd0);
      spec = 1'b1;
      if (a_nan | b_nan | (a_inf & b_inf & (a[31] != b[31]))) sres = 32'h7fc00000;
      else if (a_inf)            sres = a;
      else if (b_inf)            sres = b;
      else if (a_zero & b_zero)  sres = {a[31] & b[31], 31'd0};
      else if (a_zero)           sres = b;
      else if (b_zero)           sres = a;
      else begin
        spec = 1'b0;
        sres = 32'd0;
      end
      swap = a[30:0] < b[30:0];
      big  = swap ? b : a;
      sml  = swap ? a : b;
      d    = big[30:23] - sml[30:23];
      dc   = (d > 8'd26) ? 5'd26 : d[4:0];
      sub  = big[31] ^ sml[31];
      stage_a1 = {spec, sres, sub, big[31], big[30:23], big[22:0], sml[22:0], dc};
    end
  endfunction

  reg        r1_spec, r1_sub, r1_sign;
  reg [31:0] r1_sres;
  reg [7:0]  r1_e;
  reg [22:0] r1_fb, r1_fs;
  reg [4:0]  r1_d;
  `SIMT_STAGE(g_r1, E1, v1_i, {r1_spec, r1_sres, r1_sub, r1_sign, r1_e, r1_fb, r1_fs, r1_d}, stage_a1(a_i, b_i))

  // ---------------------------------------------------------------- A2
  function automatic [27:0] stage_a2(input sub, input [22:0] fb, input [22:0] fs, input [4:0] d);
    reg [49:0] sh;
    reg [27:0] mbx, mx;
    reg [28:0] r;
    begin
      // {mb, 26 zeros} >> d: bits [49:24] are the aligned {24 significant, G, R}, the rest folds into sticky
      sh  = {1'b1, fs, 26'd0} >> d;
      mbx = {1'b0, sh[49:24], sh[23:0] != 24'd0};
      mx  = {2'b01, fb, 3'b000};
      // max - mbx = max + ~mbx + 1 (no borrow: max >= mbx): 28 bits {ovf, 24, G, R, S} (the carry out is dropped)
      r = (AREA != 0) ? add28r(mx, sub ? ~mbx : mbx, sub) : add28p(mx, sub ? ~mbx : mbx, sub);
      stage_a2 = r[27:0];
    end
  endfunction

  reg        r2_spec, r2_sign;
  reg [31:0] r2_sres;
  reg [7:0]  r2_e;
  reg [27:0] r2_r;
  `SIMT_STAGE(g_r2, E2, v2_i, {r2_spec, r2_sres, r2_sign, r2_e, r2_r},
              {r1_spec, r1_sres, r1_sign, r1_e, stage_a2(r1_sub, r1_fb, r1_fs, r1_d)})

  // ---------------------------------------------------------------- A3
  // {zero (exact cancellation: +0), 24 significant bits, guard, sticky, exponent}
  function automatic [36:0] stage_a3(input [27:0] r, input [7:0] e);
    reg [4:0]  lz;   // 0..28 (28: r == 0)
    reg [27:0] rn;
    reg signed [9:0] ex;
    begin
      lz = lzc28(r);
      rn = r << lz;
      // biased exponent of rn[27] = e + 1 - lz (-26 .. 255)
      ex = $signed({2'b00, e}) + 10'sd1 - $signed({5'd0, lz});
      stage_a3 = {r == 28'd0, rn[27:4], rn[3], rn[2:0] != 3'd0, ex};
    end
  endfunction

  reg        r3_spec, r3_sign, r3_zero, r3_g, r3_st;
  reg [31:0] r3_sres;
  reg [23:0] r3_m;
  reg [9:0]  r3_e;
  `SIMT_STAGE(g_r3, E3, v3_i, {r3_spec, r3_sres, r3_sign, r3_zero, r3_m, r3_g, r3_st, r3_e},
              {r2_spec, r2_sres, r2_sign, stage_a3(r2_r, r2_e)})

  // ---------------------------------------------------------------- A4
  function automatic [31:0] stage_a4(input spec, input [31:0] sres, input sign, input zero, input [23:0] m,
                                     input g, input st, input [9:0] re, input [1:0] sel, input [31:0] side);
    reg        up, mc, ovf, unf;
    reg [24:0] mr;   // {rounding carry (exponent + 1: carry-select below), significand}
    reg signed [9:0] e;
    reg [7:0]  e1;
    reg [31:0] s;
    begin
      up  = g & (st | m[0]);
      mr  = (AREA != 0) ? inc24r(m, 24'd0, up) : inc24p(m, 24'd0, up);
      mc  = mr[24];
      e   = $signed(re);
      e1  = re[7:0] + 8'd1;
      ovf = mc ? (e >= 10'sd254) : (e >= 10'sd255);
      unf = mc ? (e <= -10'sd1) : (e <= 10'sd0);
      if (spec)      s = sres;
      else if (zero) s = 32'd0;
      else if (ovf)  s = {sign, 8'hff, 23'd0};
      else if (unf)  s = {sign, 31'd0};
      else           s = {sign, mc ? e1 : re[7:0], mr[22:0]};
      stage_a4 = (sel == 2'd0) ? s : (sel == 2'd1) ? side : 32'd0;
    end
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  reg [31:0] r4_s;
  `SIMT_STAGE(g_r4, E4, v4_i, r4_s, stage_a4(r3_spec, r3_sres, r3_sign, r3_zero, r3_m, r3_g, r3_st, r3_e, sel_i, side_i))
  assign s_o = r4_s;
  wire unused_ok = &{1'b0, clk_i, rst_ni};
endmodule
`default_nettype wire
