`timescale 1ns/1ps
`default_nettype none
// p2g_modn: combinational x mod n for a runtime divisor n (1..MAX_N), by restoring reduction:
// IN_W stages, each a shift-in of one bit of x and a conditional subtract of n on an (N_W+1)-bit remainder.
// n = 0 is not allowed (the configuration check rejects it); the result is then x's low bits, never X.
module p2g_modn #(
  parameter integer IN_W = 15,
  parameter integer N_W  = 7
) (
  input  wire [IN_W-1:0] x_i,
  input  wire [N_W-1:0]  n_i,
  output wire [N_W-1:0]  r_o
);
  reg [N_W:0] r;
  integer i;
  always @* begin
    r = {(N_W+1){1'b0}};
    for (i = IN_W - 1; i >= 0; i = i - 1) begin
      r = {r[N_W-1:0], x_i[i]};
      if (r >= {1'b0, n_i}) r = r - {1'b0, n_i};
    end
  end
  assign r_o = r[N_W-1:0];
endmodule
`default_nettype wire
