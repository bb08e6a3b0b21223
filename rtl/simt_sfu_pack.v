`timescale 1ns/1ps
`default_nettype none
// simt_sfu_pack: sign * R * 2^E to binary32 for the SFU, bit-exact to isa_fp_round_pack()
// (cmodel/isa/isa_fp.c): round to 24 significant bits (nearest even, unbounded exponent), then overflow ->
// infinity, below 2^-126 -> signed zero; R = 0 -> signed zero. spec_i selects sres_i instead.
// Two stages; the first ends in an optional register (E1), the second is combinational:
//   P1  leading-zero count of R (40 bits) and normalising left shift; biased exponent of the msb
//   P2  round (guard, sticky), exponent carry, overflow/underflow, pack, special multiplexer
module simt_sfu_pack #(
  parameter integer E1 = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        spec_i,
  input  wire [31:0] sres_i,
  input  wire        sign_i,
  input  wire [39:0] r_i,
  input  wire signed [9:0] e_i,
  output wire [31:0] f_o
);
  wire [5:0]  lz;
  simt_fp_lzc #(.W(40), .CW(6)) u_lzc (.x_i(r_i), .n_o(lz));
  wire [39:0] nrm  = r_i << lz;
  wire        zero = (r_i == 40'd0);
  // biased exponent of the msb: E + (39 - lz) + 127
  wire signed [11:0] be1 = $signed({{2{e_i[9]}}, e_i}) + 12'sd166 - $signed({6'd0, lz});

  wire        r_spec, r_sign, r_zero, r_g, r_st;
  wire [31:0] r_sres;
  wire [23:0] r_m;
  wire [11:0] r_be;
  simt_fp_pipe #(.W(1 + 32 + 1 + 1 + 24 + 1 + 1 + 12), .EN(E1)) u_r1 (.clk_i(clk_i), .rst_ni(rst_ni),
    .d_i({spec_i, sres_i, sign_i, zero, nrm[39:16], nrm[15], nrm[14:0] != 15'd0, be1}),
    .q_o({r_spec, r_sres, r_sign, r_zero, r_m, r_g, r_st, r_be}));

  wire        up = r_g & (r_st | r_m[0]);
  wire [23:0] mr;
  wire        mc;   // rounding carry: exponent + 1 (carry-select)
  simt_fp_kadd #(.W(24)) u_inc (.a_i(r_m), .b_i(24'd0), .ci_i(up), .s_o(mr), .co_o(mc));
  wire signed [11:0] be = $signed(r_be);
  wire [7:0]  bep1 = r_be[7:0] + 8'd1;
  wire        ovf = mc ? (be >= 12'sd254) : (be >= 12'sd255);
  wire        unf = mc ? (be <= -12'sd1) : (be <= 12'sd0);
  assign f_o = r_spec ? r_sres :
               r_zero ? {r_sign, 31'd0} :
               ovf ? {r_sign, 8'hff, 23'd0} :
               unf ? {r_sign, 31'd0} : {r_sign, mc ? bep1 : r_be[7:0], mr[22:0]};
  wire unused_ok = &{1'b0, mr[23]};
endmodule
`default_nettype wire
