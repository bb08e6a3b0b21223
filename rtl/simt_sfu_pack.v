`timescale 1ns/1ps
`default_nettype none
`include "simt_fp_fn.vh"
// simt_sfu_pack: sign * R * 2^E to binary32 for the SFU, bit-exact to isa_fp_round_pack()
// (cmodel/isa/isa_fp.c): round to 24 significant bits (nearest even, unbounded exponent), then overflow ->
// infinity, below 2^-126 -> signed zero; R = 0 -> signed zero. spec_i selects sres_i instead.
// Two stages, each ending in an optional register (E1, E2) that loads only when its enable is set (v1_i, v2_i:
// the stage carries a valid operation; held otherwise), with the stage's logic a function called inside the
// register's always block (docs/simt-fpu.md, "Valid-enabled stages"). zero_i (with P2's inputs) forces f_o = 0
// (not an SFU opcode):
//   P1  leading-zero count of R (40 bits) and normalising left shift; biased exponent of the msb
//   P2  round (guard, sticky), exponent carry, overflow/underflow, pack, special multiplexer
module simt_sfu_pack #(
  parameter integer E1 = 1,
  parameter integer E2 = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        v1_i,      // load the P1 register (a valid operation at the input)
  input  wire        v2_i,      // load the P2 register (a valid operation in P1)
  input  wire        zero_i,    // with P2: the result is 0
  input  wire        spec_i,
  input  wire [31:0] sres_i,
  input  wire        sign_i,
  input  wire [39:0] r_i,
  input  wire [9:0]  e_i,       // signed (two's complement)
  output wire [31:0] f_o
);
  // the functions' locals include bits a stage drops (carry-outs, low product bits, the shifted-out part of P):
  // the same bits the former cells' unused_ok lists named
  // verilator lint_off UNUSEDSIGNAL
  `SIMT_FN_LZC(lzc40, 40, 6)   // simt_fp_lzc #(40, 6)
  `SIMT_FN_KADD(add24, 24)     // simt_fp_kadd #(24)
  localparam integer W1 = 1 + 32 + 1 + 1 + 24 + 1 + 1 + 12;
  // ---------------------------------------------------------------- P1
  // {spec, sres, sign, zero, m (24 bits), guard, sticky, biased exponent of the msb}
  function automatic [W1-1:0] stage_p1(input spec, input [31:0] sres, input sign, input [39:0] r,
                                       input [9:0] e);
    reg [5:0]  lz;
    reg [39:0] nrm;
    reg [11:0] be1;
    begin
      lz  = lzc40(r);
      nrm = r << lz;
      // biased exponent of the msb: E + (39 - lz) + 127
      be1 = {{2{e[9]}}, e} + 12'd166 - {6'd0, lz};
      stage_p1 = {spec, sres, sign, r == 40'd0, nrm[39:16], nrm[15], nrm[14:0] != 15'd0, be1};
    end
  endfunction

  reg         r_spec, r_sign, r_zero, r_g, r_st;
  reg  [31:0] r_sres;
  reg  [23:0] r_m;
  reg  [11:0] r_be;
  generate
    if (E1 != 0) begin : g_r1
      always @(posedge clk_i)
        if (v1_i) {r_spec, r_sres, r_sign, r_zero, r_m, r_g, r_st, r_be} <= stage_p1(spec_i, sres_i, sign_i, r_i, e_i);
    end else begin : g_w1
      always @* {r_spec, r_sres, r_sign, r_zero, r_m, r_g, r_st, r_be} = stage_p1(spec_i, sres_i, sign_i, r_i, e_i);
      wire unused_ok = &{1'b0, v1_i};
    end
  endgenerate

  // ---------------------------------------------------------------- P2
  function automatic [31:0] stage_p2(input zero, input spec, input [31:0] sres, input sign, input rzero,
                                     input [23:0] m, input g, input st, input [11:0] bev);
    reg        up, mc, ovf, unf;
    reg [24:0] mr;   // {rounding carry (exponent + 1, carry-select), rounded significand}
    reg signed [11:0] be;
    reg [7:0]  bep1;
    begin
      up   = g & (st | m[0]);
      mr   = add24(m, 24'd0, up);
      mc   = mr[24];
      be   = $signed(bev);
      bep1 = bev[7:0] + 8'd1;
      ovf  = mc ? (be >= 12'sd254) : (be >= 12'sd255);
      unf  = mc ? (be <= -12'sd1) : (be <= 12'sd0);
      stage_p2 = zero ? 32'd0 :
                 spec ? sres :
                 rzero ? {sign, 31'd0} :
                 ovf ? {sign, 8'hff, 23'd0} :
                 unf ? {sign, 31'd0} : {sign, mc ? bep1 : bev[7:0], mr[22:0]};
    end
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  reg [31:0] f_q;
  generate
    if (E2 != 0) begin : g_r2
      always @(posedge clk_i) if (v2_i) f_q <= stage_p2(zero_i, r_spec, r_sres, r_sign, r_zero, r_m, r_g, r_st, r_be);
    end else begin : g_w2
      always @* f_q = stage_p2(zero_i, r_spec, r_sres, r_sign, r_zero, r_m, r_g, r_st, r_be);
      wire unused_ok = &{1'b0, v2_i};
    end
  endgenerate
  assign f_o = f_q;
  wire unused_ok = &{1'b0, clk_i, rst_ni};
endmodule
`default_nettype wire
