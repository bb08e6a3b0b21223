`timescale 1ns/1ps
`default_nettype none
// Reference model (no build uses it): the module form of `SIMT_FN_LZC (rtl/simt_fp_fn.vh), which the datapaths
// call; scripts/simt_fn_equiv.sh proves the two gate-identical at every width in use.
// simt_fp_lzc: leading-zero count of a W-bit word (W if the word is 0), for the normalisers of the FP
// adder and the int->float converter (docs/simt-fpu.md). Combinational; log-depth priority tree is left to
// synthesis (the loop below is a plain priority encoder).
module simt_fp_lzc #(
  parameter integer W  = 32,
  parameter integer CW = 6    // count width: 2^CW > W
) (
  input  wire [W-1:0]  x_i,
  output reg  [CW-1:0] n_o
);
  integer i;
  reg found;
  reg [31:0] cnt;
  always @* begin
    cnt = W;
    found = 1'b0;
    for (i = W - 1; i >= 0; i = i - 1) begin
      if (!found && x_i[i]) begin
        cnt = W - 1 - i;
        found = 1'b1;
      end
    end
    n_o = cnt[CW-1:0];
  end
  wire unused_ok = &{1'b0, cnt};   // only the low CW bits are the count (W < 2^CW)
endmodule
`default_nettype wire
