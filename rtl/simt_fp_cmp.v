`timescale 1ns/1ps
`default_nettype none
// simt_fp_cmp: fmin, fmax and the fsetp compare of the SIMT lane (docs/simt-fpu.md), bit-exact to
// isa_f_min(), isa_f_max(), isa_f_setp() (cmodel/isa/isa_fp.c). Inputs already flushed (FTZ).
// Combinational. Total order key: -inf < ... < -0 < +0 < ... < +inf (sign ? ~x : x | 2^31).
//   min/max: one NaN operand -> the other operand; two -> 0x7fc00000; -0 < +0
//   setp: relation {U,G,E,L} of a to b (U on a NaN operand, -0 == +0); pred = |(cc & relation)
module simt_fp_cmp (
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  input  wire [3:0]  cc_i,
  output wire [31:0] min_o,
  output wire [31:0] max_o,
  output wire        pred_o
);
  wire a_nan = (a_i[30:23] == 8'hff) && (a_i[22:0] != 23'd0);
  wire b_nan = (b_i[30:23] == 8'hff) && (b_i[22:0] != 23'd0);
  wire [31:0] ka = a_i[31] ? ~a_i : {1'b1, a_i[30:0]};
  wire [31:0] kb = b_i[31] ? ~b_i : {1'b1, b_i[30:0]};
  wire lt = ka < kb;
  wire eq = ka == kb;
  wire both_zero = (a_i[30:0] == 31'd0) && (b_i[30:0] == 31'd0);
  assign min_o = (a_nan & b_nan) ? 32'h7fc00000 : a_nan ? b_i : b_nan ? a_i : (lt | eq) ? a_i : b_i;
  assign max_o = (a_nan & b_nan) ? 32'h7fc00000 : a_nan ? b_i : b_nan ? a_i : lt ? b_i : a_i;
  wire [3:0] rel = (a_nan | b_nan) ? 4'b1000 : (both_zero | eq) ? 4'b0010 : lt ? 4'b0001 : 4'b0100;
  assign pred_o = (cc_i & rel) != 4'd0;
endmodule
`default_nettype wire
