`timescale 1ns/1ps
`default_nettype none
`include "simt_fp_fn.vh"
// simt_fp_cvt: conversions of the SIMT lane (docs/simt-fpu.md), bit-exact to isa_f_rnd(), isa_f2i(),
// isa_f2u(), isa_i2f(), isa_u2f() (cmodel/isa/isa_fp.c).
//   frnd  float -> integral float, rounding mode mode_i (0 rn, 1 rz, 2 rm, 3 rp), sign of zero kept
//   f2i   float -> int32, mode_i, saturating to [-2^31, 2^31-1], NaN -> 0
//   f2u   float -> uint32, mode_i, saturating to [0, 2^32-1] (negative -> 0), NaN -> 0
//   i2f   int32 -> float, round to nearest even;  u2f  uint32 -> float, round to nearest even
// The float input a_i must already be flushed (zero exponent = signed zero); i2f/u2f take raw bits.
//
// Three stages, each ending in an optional register (E1..E3) that loads only when its enable is set (v1_i..v3_i:
// the stage carries a valid operation; held otherwise). Each stage's logic is a function called inside the
// register's always block (`SIMT_STAGE), so that a cycle-based simulator computes it only in those cycles
// (docs/simt-fpu.md, "Valid-enabled stages"):
//   C1  float: integer part q = floor(|a|) and the rounding bits (G = the 1/2 bit, S = below) from one
//       64-bit right shift of the significand, the round-up decision for the mode and sign, saturation and
//       special cases; int: magnitude of the (signed) input
//   C2  f2i/f2u: q + up (f2i of a negative value: ~q + !up, complemented in C1), saturation -> final;
//       frnd: the significand with the fraction bits cleared, or all set plus one (carry into the
//       exponent) -> final; i2f/u2f: leading-zero count and normalising left shift
//   C3  i2f/u2f: round the normalised 32-bit magnitude to 24 bits (RNE), exponent carry, pack
// AREA = 1 (area-reduced configurations, docs/simt.md section 6): ripple adders (FPGA carry chains) instead of
// prefix adders; same results, same stages. Default 0.
module simt_fp_cvt #(
  parameter integer AREA = 0,
  parameter integer E1 = 1,
  parameter integer E2 = 1,
  parameter integer E3 = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        v1_i,     // load the C1 register (a valid operation at the input)
  input  wire        v2_i,     // ... the C2 register (a valid operation in C1's register)
  input  wire        v3_i,     // ... the C3 register
  input  wire [2:0]  kind_i,   // 0 frnd, 1 f2i, 2 f2u, 3 i2f, 4 u2f (others: result 0)
  input  wire [1:0]  mode_i,
  input  wire [31:0] a_i,
  output wire [31:0] r_o
);
  localparam [2:0] K_FRND = 3'd0, K_F2I = 3'd1, K_F2U = 3'd2, K_I2F = 3'd3, K_U2F = 3'd4;
  // the functions' locals include bits a stage drops (carry-outs, the top bits of counts)
  // verilator lint_off UNUSEDSIGNAL
  `SIMT_FN_KADD(add32p, 32)
  // verilator coverage_off
  `SIMT_FN_RADD(add32r, 32)   // C1's negation, C2's f2i/f2u increment
  // verilator coverage_on
  `SIMT_FN_KADD(inc24p, 24)
  // verilator coverage_off
  `SIMT_FN_RADD(inc24r, 24)   // C2's frnd increment, C3's rounding increment
  // verilator coverage_on
  `SIMT_FN_LZC(lzc32, 32, 6)        // C2's leading-zero count (simt_fp_lzc #(32, 6))
  localparam integer W1 = 3 + 1 + 32 + 32 + 1 + 1 + 8;
  localparam integer W2 = 1 + 32 + 32 + 1 + 8;

  // ---------------------------------------------------------------- C1
  // {kind, fixed (fix is the result), fix, the 32-bit operand of C2, its carry-in (round up), sign, exponent}
  function automatic [W1-1:0] stage_c1(input [2:0] knd, input [1:0] mode, input [31:0] a);
    reg        s, zero, inf, nan, g, st, away, up, i_neg, f_neg, fixed;
    reg [7:0]  e, sh8;
    reg [23:0] m, fmask;
    reg [8:0]  k9;
    reg [5:0]  k;
    reg [63:0] t;
    reg [31:0] q, fix, v;
    reg [32:0] mag;
    begin
      s    = a[31];
      e    = a[30:23];
      zero = (e == 8'd0);
      inf  = (e == 8'hff) && (a[22:0] == 23'd0);
      nan  = (e == 8'hff) && (a[22:0] != 23'd0);
      m    = {1'b1, a[22:0]};
      // |a| = {m, 8 zeros} * 2^(e-158): shift right by k = 158 - e, clamped to 33 (then |a| < 1/2, sticky != 0)
      k9   = 9'd158 - {1'b0, e};
      k    = (e >= 8'd158) ? 6'd0 : (k9 > 9'd33) ? 6'd33 : k9[5:0];
      t    = {m, 40'd0} >> k;
      q    = t[63:32];
      g    = t[31];
      st   = t[30:0] != 31'd0;
      // rounding of the magnitude: 0 nearest even, 1 truncate, 2 away from zero (rm of a negative, rp of a positive)
      away = (mode == 2'd2 && s) || (mode == 2'd3 && !s);
      up   = (mode == 2'd0) ? (g & (st | q[0])) : (away & (g | st));
      // frnd on 127 <= e <= 149: fraction mask of the significand (sh = 150 - e fraction bits, 1..23)
      sh8   = 8'd150 - e;
      fmask = ~(24'hffffff << sh8[4:0]);
      i_neg = (knd == K_I2F) && a[31];
      mag   = (AREA != 0) ? add32r(i_neg ? ~a : a, 32'd0, i_neg) : add32p(i_neg ? ~a : a, 32'd0, i_neg);
      // result class: 0 = computed below, else final value in fix
      fixed = 1'b1;
      fix = 32'd0;
      case (knd)
        K_FRND: begin
          if (nan) fix = 32'h7fc00000;
          else if (inf || zero || e >= 8'd150) fix = a;
          else if (e < 8'd127) fix = up ? {s, 31'h3f800000} : {s, 31'd0};
          else fixed = 1'b0;
        end
        K_F2I: begin
          if (nan || zero) fix = 32'd0;
          else if (e >= 8'd158) fix = s ? 32'h80000000 : 32'h7fffffff;
          else fixed = 1'b0;
        end
        K_F2U: begin
          if (nan || zero) fix = 32'd0;
          else if (e >= 8'd159) fix = s ? 32'd0 : 32'hffffffff;
          else if (s) fix = 32'd0;   // any negative value rounds to 0 or below: saturates to 0
          else fixed = 1'b0;
        end
        K_I2F, K_U2F: begin
          if (a == 32'd0) fix = 32'd0;
          else fixed = 1'b0;
        end
        default: fix = 32'd0;
      endcase
      // the 32-bit operand of C2: q (f2i/f2u), the masked significand (frnd) or the magnitude (i2f/u2f); f2i of a
      // negative value: -(q + up) = ~q + !up, so C2 adds the carry-in up ^ neg to v ^ neg (complemented here,
      // which keeps the decode of neg and its 32-bit fan-out out of C2's carry chain, the FPU's longest path)
      f_neg = (knd == K_F2I) && s;
      v = (knd == K_I2F || knd == K_U2F) ? mag[31:0] :
          (knd == K_FRND) ? {8'd0, up ? (m | fmask) : (m & ~fmask)} : (q ^ {32{f_neg}});
      stage_c1 = {knd, fixed, fix, v, up ^ f_neg, (knd == K_I2F || knd == K_U2F) ? i_neg : s, e};
    end
  endfunction

  reg [2:0]  r1_kind;
  reg        r1_fixed, r1_up, r1_s;
  reg [31:0] r1_fix, r1_v;
  reg [7:0]  r1_e;
  `SIMT_STAGE(g_r1, E1, v1_i, {r1_kind, r1_fixed, r1_fix, r1_v, r1_up, r1_s, r1_e}, stage_c1(kind_i, mode_i, a_i))

  // ---------------------------------------------------------------- C2
  // {int -> float (C3 rounds), final value (others), normalised magnitude, sign, exponent of the normalised value}
  function automatic [W2-1:0] stage_c2(input [2:0] knd, input fixed, input [31:0] fix, input [31:0] v, input up,
                                       input s, input [7:0] e);
    reg        is_int2f;
    reg [32:0] ires;
    reg [24:0] fr;
    reg [31:0] fres, nrm, fin;
    reg [5:0]  lz;
    reg [7:0]  ne;
    begin
      // f2i negative: -(q + up) = ~q + !up (v = ~q and up = !up from C1); positive: q + up (q + up < 2^31 for
      // e <= 157, < 2^32 for e <= 158)
      ires = (AREA != 0) ? add32r(v, 32'd0, up) : add32p(v, 32'd0, up);
      // frnd: v = m | mask + 1 (round up; may carry to 2^24: exponent + 1) or m & ~mask
      fr   = (AREA != 0) ? inc24r(v[23:0], 24'd0, up) : inc24p(v[23:0], 24'd0, up);
      fres = fr[24] ? {s, e + 8'd1, 23'd0} : {s, e, fr[22:0]};
      // i2f/u2f: normalise (msb to bit 31); exponent 158 - lz
      lz   = lzc32(v);
      nrm  = v << lz[4:0];
      ne   = 8'd158 - {2'b00, lz};
      is_int2f = (knd == K_I2F) || (knd == K_U2F);
      fin  = fixed ? fix : (knd == K_FRND) ? fres : ires[31:0];
      stage_c2 = {is_int2f & ~fixed, fin, nrm, s, ne};
    end
  endfunction

  reg        r2_tof, r2_s;
  reg [31:0] r2_fin, r2_n;
  reg [7:0]  r2_e;
  `SIMT_STAGE(g_r2, E2, v2_i, {r2_tof, r2_fin, r2_n, r2_s, r2_e},
              stage_c2(r1_kind, r1_fixed, r1_fix, r1_v, r1_up, r1_s, r1_e))

  // ---------------------------------------------------------------- C3
  function automatic [31:0] stage_c3(input tof, input [31:0] fin, input [31:0] n, input s, input [7:0] e);
    reg        rup;
    reg [24:0] rm;
    reg [7:0]  re;
    begin
      rup = n[7] & ((n[6:0] != 7'd0) | n[8]);
      rm  = (AREA != 0) ? inc24r(n[31:8], 24'd0, rup) : inc24p(n[31:8], 24'd0, rup);
      re  = e + {7'd0, rm[24]};
      stage_c3 = tof ? {s, re, rm[22:0]} : fin;
    end
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  reg [31:0] r3_r;
  `SIMT_STAGE(g_r3, E3, v3_i, r3_r, stage_c3(r2_tof, r2_fin, r2_n, r2_s, r2_e))
  assign r_o = r3_r;
  wire unused_ok = &{1'b0, clk_i, rst_ni};
endmodule
`default_nettype wire
