`timescale 1ns/1ps
`default_nettype none
// simt_fp_add: binary32 add of the SIMT lane (docs/simt-fpu.md), bit-exact to isa_f_add()
// (cmodel/isa/isa_fp.c). Inputs must already be flushed (a zero exponent means a signed zero): the unit
// returns an input unchanged in the x + 0, inf + x cases. Round to nearest even, FTZ after rounding, exact
// cancellation gives +0, one canonical NaN 0x7fc00000.
//
// Four stages; the first three end in an optional register (E1..E3, simt_fp_pipe), the last one is
// combinational (the caller registers s_o together with its other results):
//   A1  classify, special results, order by magnitude (swap), exponent difference d (clamped to 26)
//   A2  align the smaller significand (right shift by d, sticky), add or subtract: 28-bit {ovf, 24, G, R, S}
//   A3  leading-zero count and normalising shift (left by lz, or right by one on carry-out), exponent
//   A4  round to nearest even (G and sticky), exponent carry, overflow to inf / underflow to zero, pack
// With 3 guard bits (G, R, sticky) the result is the correctly rounded sum, as the C reference computes it
// with 32 extra bits: a shift by d >= 2 loses at most one leading bit in a subtraction.
// AREA = 1 (area-reduced configurations, docs/simt.md section 6): ripple adders (FPGA carry chains) instead of
// prefix adders; same results, same stages. Default 0.
module simt_fp_add #(
  parameter integer AREA = 0,
  parameter integer E1 = 1,
  parameter integer E2 = 1,
  parameter integer E3 = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  output wire [31:0] s_o
);
  // ---------------------------------------------------------------- A1
  wire [7:0] ae = a_i[30:23], be_ = b_i[30:23];
  wire a_zero = (ae == 8'd0), b_zero = (be_ == 8'd0);
  wire a_inf  = (ae == 8'hff) && (a_i[22:0] == 23'd0);
  wire b_inf  = (be_ == 8'hff) && (b_i[22:0] == 23'd0);
  wire a_nan  = (ae == 8'hff) && (a_i[22:0] != 23'd0);
  wire b_nan  = (be_ == 8'hff) && (b_i[22:0] != 23'd0);
  reg        a1_spec;
  reg [31:0] a1_sres;
  always @* begin
    a1_spec = 1'b1;
    if (a_nan | b_nan | (a_inf & b_inf & (a_i[31] != b_i[31]))) a1_sres = 32'h7fc00000;
    else if (a_inf)            a1_sres = a_i;
    else if (b_inf)            a1_sres = b_i;
    else if (a_zero & b_zero)  a1_sres = {a_i[31] & b_i[31], 31'd0};
    else if (a_zero)           a1_sres = b_i;
    else if (b_zero)           a1_sres = a_i;
    else begin
      a1_spec = 1'b0;
      a1_sres = 32'd0;
    end
  end
  wire        swap = a_i[30:0] < b_i[30:0];
  wire [31:0] big = swap ? b_i : a_i;
  wire [31:0] sml = swap ? a_i : b_i;
  wire [7:0]  d   = big[30:23] - sml[30:23];
  wire [4:0]  a1_d = (d > 8'd26) ? 5'd26 : d[4:0];
  wire        a1_sub = big[31] ^ sml[31];

  wire        r1_spec, r1_sub, r1_sign;
  wire [31:0] r1_sres;
  wire [7:0]  r1_e;
  wire [22:0] r1_fb, r1_fs;
  wire [4:0]  r1_d;
  simt_fp_pipe #(.W(1 + 32 + 1 + 1 + 8 + 23 + 23 + 5), .EN(E1)) u_r1 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({a1_spec, a1_sres, a1_sub, big[31], big[30:23], big[22:0], sml[22:0], a1_d}),
    .q_o({r1_spec, r1_sres, r1_sub, r1_sign, r1_e, r1_fb, r1_fs, r1_d}));

  // ---------------------------------------------------------------- A2
  // {mb, 26 zeros} >> d: bits [49:24] are the aligned {24 significant, G, R}, the rest folds into sticky.
  wire [49:0] sh = {1'b1, r1_fs, 26'd0} >> r1_d;
  wire [27:0] mbx = {1'b0, sh[49:24], sh[23:0] != 24'd0};
  wire [27:0] max = {2'b01, r1_fb, 3'b000};
  wire [27:0] a2_r;   // max - mbx = max + ~mbx + 1 (no borrow: max >= mbx)
  wire        a2_co;
  simt_fp_kadd #(.W(28), .RIPPLE(AREA)) u_add (.a_i(max), .b_i(r1_sub ? ~mbx : mbx), .ci_i(r1_sub), .s_o(a2_r), .co_o(a2_co));

  wire        r2_spec, r2_sign;
  wire [31:0] r2_sres;
  wire [7:0]  r2_e;
  wire [27:0] r2_r;
  simt_fp_pipe #(.W(1 + 32 + 1 + 8 + 28), .EN(E2)) u_r2 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({r1_spec, r1_sres, r1_sign, r1_e, a2_r}),
    .q_o({r2_spec, r2_sres, r2_sign, r2_e, r2_r}));

  // ---------------------------------------------------------------- A3
  wire [4:0] lz;   // 0..28 (28: r == 0)
  simt_fp_lzc #(.W(28), .CW(5)) u_lzc (.x_i(r2_r), .n_o(lz));
  wire [27:0] rn = r2_r << lz;
  wire        a3_zero = (r2_r == 28'd0);   // exact cancellation: +0
  wire [23:0] a3_m  = rn[27:4];
  wire        a3_g  = rn[3];
  wire        a3_st = rn[2:0] != 3'd0;
  // biased exponent of rn[27] = e + 1 - lz (-26 .. 255)
  wire signed [9:0] a3_e = $signed({2'b00, r2_e}) + 10'sd1 - $signed({5'd0, lz});

  wire        r3_spec, r3_sign, r3_zero, r3_g, r3_st;
  wire [31:0] r3_sres;
  wire [23:0] r3_m;
  wire [9:0]  r3_e;
  simt_fp_pipe #(.W(1 + 32 + 1 + 1 + 24 + 1 + 1 + 10), .EN(E3)) u_r3 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({r2_spec, r2_sres, r2_sign, a3_zero, a3_m, a3_g, a3_st, a3_e}),
    .q_o({r3_spec, r3_sres, r3_sign, r3_zero, r3_m, r3_g, r3_st, r3_e}));

  // ---------------------------------------------------------------- A4
  wire        up = r3_g & (r3_st | r3_m[0]);
  wire [23:0] mr;
  wire        mc;   // rounding carry: exponent + 1 (carry-select below)
  simt_fp_kadd #(.W(24), .RIPPLE(AREA)) u_inc (.a_i(r3_m), .b_i(24'd0), .ci_i(up), .s_o(mr), .co_o(mc));
  wire signed [9:0] e = $signed(r3_e);
  wire [7:0]  e1  = r3_e[7:0] + 8'd1;
  wire        ovf = mc ? (e >= 10'sd254) : (e >= 10'sd255);
  wire        unf = mc ? (e <= -10'sd1) : (e <= 10'sd0);
  reg [31:0] a4_s;
  always @* begin
    if (r3_spec)              a4_s = r3_sres;
    else if (r3_zero)         a4_s = 32'd0;
    else if (ovf)             a4_s = {r3_sign, 8'hff, 23'd0};
    else if (unf)             a4_s = {r3_sign, 31'd0};
    else                      a4_s = {r3_sign, mc ? e1 : r3_e[7:0], mr[22:0]};
  end
  assign s_o = a4_s;
  wire unused_ok = &{1'b0, mr[23], a2_co};
endmodule
`default_nettype wire
