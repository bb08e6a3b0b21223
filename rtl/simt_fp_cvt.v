`timescale 1ns/1ps
`default_nettype none
// simt_fp_cvt: conversions of the SIMT lane (docs/simt-fpu.md), bit-exact to isa_f_rnd(), isa_f2i(),
// isa_f2u(), isa_i2f(), isa_u2f() (cmodel/isa/isa_fp.c).
//   frnd  float -> integral float, rounding mode mode_i (0 rn, 1 rz, 2 rm, 3 rp), sign of zero kept
//   f2i   float -> int32, mode_i, saturating to [-2^31, 2^31-1], NaN -> 0
//   f2u   float -> uint32, mode_i, saturating to [0, 2^32-1] (negative -> 0), NaN -> 0
//   i2f   int32 -> float, round to nearest even;  u2f  uint32 -> float, round to nearest even
// The float input a_i must already be flushed (zero exponent = signed zero); i2f/u2f take raw bits.
//
// Three stages, each ending in an optional register (E1..E3):
//   C1  float: integer part q = floor(|a|) and the rounding bits (G = the 1/2 bit, S = below) from one
//       64-bit right shift of the significand, the round-up decision for the mode and sign, saturation and
//       special cases; int: magnitude of the (signed) input
//   C2  f2i/f2u: q + up (negated for f2i of a negative value: ~q + !up), saturation -> final;
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
  input  wire [2:0]  kind_i,   // 0 frnd, 1 f2i, 2 f2u, 3 i2f, 4 u2f (others: result 0)
  input  wire [1:0]  mode_i,
  input  wire [31:0] a_i,
  output wire [31:0] r_o
);
  localparam [2:0] K_FRND = 3'd0, K_F2I = 3'd1, K_F2U = 3'd2, K_I2F = 3'd3, K_U2F = 3'd4;
  // ---------------------------------------------------------------- C1
  wire        s    = a_i[31];
  wire [7:0]  e    = a_i[30:23];
  wire        zero = (e == 8'd0);
  wire        inf  = (e == 8'hff) && (a_i[22:0] == 23'd0);
  wire        nan  = (e == 8'hff) && (a_i[22:0] != 23'd0);
  wire [23:0] m    = {1'b1, a_i[22:0]};
  // |a| = {m, 8 zeros} * 2^(e-158): shift right by k = 158 - e, clamped to 33 (then |a| < 1/2, sticky != 0)
  wire [8:0]  k9   = 9'd158 - {1'b0, e};
  wire [5:0]  k    = (e >= 8'd158) ? 6'd0 : (k9 > 9'd33) ? 6'd33 : k9[5:0];
  wire [63:0] t    = {m, 40'd0} >> k;
  wire [31:0] q    = t[63:32];
  wire        g    = t[31];
  wire        st   = t[30:0] != 31'd0;
  // rounding of the magnitude: 0 nearest even, 1 truncate, 2 away from zero (rm of a negative, rp of a positive)
  wire        away = (mode_i == 2'd2 && s) || (mode_i == 2'd3 && !s);
  wire        up   = (mode_i == 2'd0) ? (g & (st | q[0])) : (away & (g | st));
  // frnd on 127 <= e <= 149: fraction mask of the significand (sh = 150 - e fraction bits, 1..23)
  wire [7:0]  sh8  = 8'd150 - e;
  wire [23:0] fmask = ~(24'hffffff << sh8[4:0]);
  wire        i_neg = (kind_i == K_I2F) && a_i[31];
  wire [31:0] mag;
  wire        mag_co;
  simt_fp_kadd #(.W(32), .RIPPLE(AREA)) u_neg (.a_i(i_neg ? ~a_i : a_i), .b_i(32'd0), .ci_i(i_neg), .s_o(mag), .co_o(mag_co));

  // c1 result class: 0 = computed below, else final value in c1_fix
  reg        c1_fixed;
  reg [31:0] c1_fix;
  always @* begin
    c1_fixed = 1'b1;
    c1_fix = 32'd0;
    case (kind_i)
      K_FRND: begin
        if (nan) c1_fix = 32'h7fc00000;
        else if (inf || zero || e >= 8'd150) c1_fix = a_i;
        else if (e < 8'd127) c1_fix = up ? {s, 31'h3f800000} : {s, 31'd0};
        else c1_fixed = 1'b0;
      end
      K_F2I: begin
        if (nan || zero) c1_fix = 32'd0;
        else if (e >= 8'd158) c1_fix = s ? 32'h80000000 : 32'h7fffffff;
        else c1_fixed = 1'b0;
      end
      K_F2U: begin
        if (nan || zero) c1_fix = 32'd0;
        else if (e >= 8'd159) c1_fix = s ? 32'd0 : 32'hffffffff;
        else if (s) c1_fix = 32'd0;   // any negative value rounds to 0 or below: saturates to 0
        else c1_fixed = 1'b0;
      end
      K_I2F, K_U2F: begin
        if (a_i == 32'd0) c1_fix = 32'd0;
        else c1_fixed = 1'b0;
      end
      default: c1_fix = 32'd0;
    endcase
  end
  // the 32-bit operand of C2: q (f2i/f2u), the masked significand (frnd) or the magnitude (i2f/u2f)
  wire [31:0] c1_v = (kind_i == K_I2F || kind_i == K_U2F) ? mag :
                     (kind_i == K_FRND) ? {8'd0, up ? (m | fmask) : (m & ~fmask)} : q;

  wire [2:0]  r1_kind;
  wire        r1_fixed, r1_up, r1_s;
  wire [31:0] r1_fix, r1_v;
  wire [7:0]  r1_e;
  simt_fp_pipe #(.W(3 + 1 + 32 + 32 + 1 + 1 + 8), .EN(E1)) u_r1 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({kind_i, c1_fixed, c1_fix, c1_v, up, (kind_i == K_I2F || kind_i == K_U2F) ? i_neg : s, e}),
    .q_o({r1_kind, r1_fixed, r1_fix, r1_v, r1_up, r1_s, r1_e}));

  // ---------------------------------------------------------------- C2
  // f2i negative: -(q + up) = ~q + !up; positive: q + up (q + up < 2^31 for e <= 157, < 2^32 for e <= 158)
  wire        neg  = (r1_kind == K_F2I) && r1_s;
  wire [31:0] ires;
  wire        ires_co;
  simt_fp_kadd #(.W(32), .RIPPLE(AREA)) u_ires (.a_i(r1_v ^ {32{neg}}), .b_i(32'd0), .ci_i(neg ^ r1_up), .s_o(ires), .co_o(ires_co));
  // frnd: v = m | mask + 1 (round up; may carry to 2^24: exponent + 1) or m & ~mask
  wire [24:0] fr;
  simt_fp_kadd #(.W(24), .RIPPLE(AREA)) u_fr (.a_i(r1_v[23:0]), .b_i(24'd0), .ci_i(r1_up), .s_o(fr[23:0]), .co_o(fr[24]));
  wire [31:0] fres = fr[24] ? {r1_s, r1_e + 8'd1, 23'd0} : {r1_s, r1_e, fr[22:0]};
  // i2f/u2f: normalise (msb to bit 31); exponent 158 - lz
  wire [5:0]  lz;
  simt_fp_lzc #(.W(32), .CW(6)) u_lzc (.x_i(r1_v), .n_o(lz));
  wire [31:0] nrm  = r1_v << lz[4:0];
  wire [7:0]  ne   = 8'd158 - {2'b00, lz};
  wire        is_int2f = (r1_kind == K_I2F) || (r1_kind == K_U2F);
  wire [31:0] c2_fin = r1_fixed ? r1_fix : (r1_kind == K_FRND) ? fres : ires;

  wire        r2_tof, r2_s;
  wire [31:0] r2_fin, r2_n;
  wire [7:0]  r2_e;
  simt_fp_pipe #(.W(1 + 32 + 32 + 1 + 8), .EN(E2)) u_r2 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({is_int2f & ~r1_fixed, c2_fin, nrm, r1_s, ne}),
    .q_o({r2_tof, r2_fin, r2_n, r2_s, r2_e}));

  // ---------------------------------------------------------------- C3
  wire        rup = r2_n[7] & ((r2_n[6:0] != 7'd0) | r2_n[8]);
  wire [24:0] rm;
  simt_fp_kadd #(.W(24), .RIPPLE(AREA)) u_rm (.a_i(r2_n[31:8]), .b_i(24'd0), .ci_i(rup), .s_o(rm[23:0]), .co_o(rm[24]));
  wire [7:0]  re  = r2_e + {7'd0, rm[24]};
  wire [31:0] c3  = r2_tof ? {r2_s, re, rm[22:0]} : r2_fin;
  simt_fp_pipe #(.W(32), .EN(E3)) u_r3 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(c3), .q_o(r_o));
  wire unused_ok = &{1'b0, lz[5], fr[23], rm[23], sh8[7:5], mag_co, ires_co};
endmodule
`default_nettype wire
