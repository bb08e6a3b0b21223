`timescale 1ns/1ps
`default_nettype none
// simt_fp_mul: binary32 multiply of the SIMT lane (docs/simt-fpu.md), bit-exact to isa_f_mul()
// (cmodel/isa/isa_fp.c): denormal inputs are zeros (FTZ), round to nearest even, results below 2^-126 after
// rounding become a signed zero, overflow gives infinity, every NaN result is 0x7fc00000.
//
// Three stages, each ending in an optional register (E1..E3, simt_fp_pipe):
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
  input  wire [31:0] x_i,
  input  wire [31:0] y_i,
  // verilator lint_off UNUSEDSIGNAL
  input  wire [1:0]  pass_i,   // PASSES = 4: the pass of this M1 cycle
  // verilator lint_on UNUSEDSIGNAL
  output wire [31:0] p_o
);
  // ---------------------------------------------------------------- M1
  wire [7:0] xe = x_i[30:23], ye = y_i[30:23];
  wire x_zero = (xe == 8'd0), y_zero = (ye == 8'd0);
  wire x_inf  = (xe == 8'hff) && (x_i[22:0] == 23'd0);
  wire y_inf  = (ye == 8'hff) && (y_i[22:0] == 23'd0);
  wire x_nan  = (xe == 8'hff) && (x_i[22:0] != 23'd0);
  wire y_nan  = (ye == 8'hff) && (y_i[22:0] != 23'd0);
  wire m1_sign = x_i[31] ^ y_i[31];
  wire m1_nan  = x_nan | y_nan | (x_inf & y_zero) | (y_inf & x_zero);
  wire m1_inf  = (x_inf | y_inf) & ~m1_nan;
  wire m1_zero = (x_zero | y_zero) & ~m1_nan & ~m1_inf;
  wire [8:0] m1_esum = {1'b0, xe} + {1'b0, ye};
  wire [23:0] mx = {1'b1, x_i[22:0]};
  wire [23:0] my = {1'b1, y_i[22:0]};
  wire [47:0] m1_s, m1_c;   // 24 partial products, Wallace reduction to two rows (AREA: the product, 0)
  generate if (PASSES != 1 && (PASSES != 4 || AREA == 0)) begin : g_bad_passes
    simt_fp_mul_PASSES_must_be_1_or_4_with_AREA u_bad ();   // elaboration error on purpose
  end else if (AREA != 0 && PASSES == 4) begin : g_pmul
    reg  [41:0] acc_q;   // mx * my[23:24-6(k+1)] after pass k < 3 (< 2^42)
    wire [5:0]  ych = (pass_i == 2'd0) ? my[23:18] : (pass_i == 2'd1) ? my[17:12] :
                      (pass_i == 2'd2) ? my[11:6] : my[5:0];
    wire [29:0] pp = mx * ych;
    wire [47:0] accn = ((pass_i == 2'd0) ? 48'd0 : {acc_q, 6'd0}) + {18'd0, pp};
    always @(posedge clk_i) acc_q <= accn[41:0];
    assign m1_s = accn;
    assign m1_c = 48'd0;
  end else if (AREA != 0) begin : g_amul
    assign m1_s = mx * my;
    assign m1_c = 48'd0;
  end else begin : g_csa
    simt_fp_mul_csa #(.WA(24), .WB(24), .W(48)) u_csa (.x_i(mx), .y_i(my), .sum_o(m1_s), .carry_o(m1_c));
  end endgenerate

  wire [47:0] r1_s, r1_c;
  wire [8:0]  r1_esum;
  wire        r1_sign, r1_nan, r1_inf, r1_zero;
  simt_fp_pipe #(.W(96 + 9 + 4), .EN(E1)) u_r1 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({m1_s, m1_c, m1_esum, m1_sign, m1_nan, m1_inf, m1_zero}),
    .q_o({r1_s, r1_c, r1_esum, r1_sign, r1_nan, r1_inf, r1_zero}));

  // ---------------------------------------------------------------- M2
  wire [47:0] prod;   // in [2^46, 2^48): both significands are in [2^23, 2^24)
  wire        prod_co;
  generate if (AREA != 0) begin : g_aprod
    assign prod = r1_s;
    assign prod_co = |r1_c;   // 0
  end else begin : g_cpa
    simt_fp_kadd #(.W(48)) u_cpa (.a_i(r1_s), .b_i(r1_c), .ci_i(1'b0), .s_o(prod), .co_o(prod_co));
  end endgenerate
  // biased exponent before the rounding carry: ea + eb - 127 + hi (-125 .. 382)
  wire signed [10:0] m2_be = $signed({2'b00, r1_esum}) - 11'sd127 + $signed({10'd0, m2_hi});
  wire        m2_hi = prod[47];
  wire [23:0] m2_m  = m2_hi ? prod[47:24] : prod[46:23];
  wire        m2_g  = m2_hi ? prod[23] : prod[22];
  wire        m2_st = m2_hi ? (prod[22:0] != 23'd0) : (prod[21:0] != 22'd0);

  wire [23:0] r2_m;
  wire [10:0] r2_be;
  wire        r2_g, r2_st, r2_sign, r2_nan, r2_inf, r2_zero;
  simt_fp_pipe #(.W(24 + 2 + 11 + 4), .EN(E2)) u_r2 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({m2_m, m2_g, m2_st, m2_be, r1_sign, r1_nan, r1_inf, r1_zero}),
    .q_o({r2_m, r2_g, r2_st, r2_be, r2_sign, r2_nan, r2_inf, r2_zero}));

  // ---------------------------------------------------------------- M3
  wire        up = r2_g & (r2_st | r2_m[0]);
  wire [23:0] mr;
  wire        mc;   // rounding carry: significand 2^24 -> 2^23, exponent + 1
  simt_fp_kadd #(.W(24), .RIPPLE(AREA)) u_inc (.a_i(r2_m), .b_i(24'd0), .ci_i(up), .s_o(mr), .co_o(mc));
  // exponent + carry as a carry-select: both outcomes precomputed from r2_be, chosen by mc
  wire signed [10:0] be = $signed(r2_be);
  wire [7:0]  be1 = r2_be[7:0] + 8'd1;
  wire        ovf = mc ? (be >= 11'sd254) : (be >= 11'sd255);
  wire        unf = mc ? (be <= -11'sd1) : (be <= 11'sd0);
  reg [31:0] m3_p;
  always @* begin
    if (r2_nan)                 m3_p = 32'h7fc00000;
    else if (r2_inf)            m3_p = {r2_sign, 8'hff, 23'd0};
    else if (r2_zero)           m3_p = {r2_sign, 31'd0};
    else if (ovf)               m3_p = {r2_sign, 8'hff, 23'd0};
    else if (unf)               m3_p = {r2_sign, 31'd0};
    else                        m3_p = {r2_sign, mc ? be1 : r2_be[7:0], mr[22:0]};
  end
  simt_fp_pipe #(.W(32), .EN(E3)) u_r3 (.clk_i(clk_i), .rst_ni(rst_ni), .d_i(m3_p), .q_o(p_o));
  wire unused_ok = &{1'b0, mr[23], prod_co};
endmodule
`default_nettype wire
