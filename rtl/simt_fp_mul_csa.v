`timescale 1ns/1ps
`default_nettype none
// simt_fp_mul_csa: the carry-save half of a multiplier: x * y mod 2^W as two rows (sum_o + carry_o), for the
// significand multiplier (simt_fp_mul) and the SFU (simt_sfu_reduce, simt_sfu_quad); docs/simt-fpu.md.
// Partial products x << i for every set bit i of y (x zero-extended, or sign-extended when XS = 1: a signed x
// times an unsigned y is then exact mod 2^W), reduced by a Wallace tree of word-level 3:2 compressors
// level by level (WB rows -> 2*floor(n/3) + n mod 3 per level; 24 rows: 7 full-adder delays).
// Combinational. Written as loops over an array so that simulators keep each row in one machine word;
// constant-zero bits (narrow rows, constant operands) are removed by synthesis.
module simt_fp_mul_csa #(
  parameter integer WA = 24,   // x width
  parameter integer WB = 24,   // y width = number of partial products (>= 3)
  parameter integer W  = 48,   // result width (the product is taken mod 2^W)
  parameter integer XS = 0     // 1: x is signed (two's complement)
) (
  input  wire [WA-1:0] x_i,
  input  wire [WB-1:0] y_i,
  output reg  [W-1:0]  sum_o,
  output reg  [W-1:0]  carry_o
);
  // elaboration-time constant functions: never run in simulation (no coverage points):
  // verilator coverage_off
  function integer rows_at(input integer lvl);   // rows after lvl levels
    integer k, n;
    begin
      n = WB;
      for (k = 0; k < lvl; k = k + 1) n = (n <= 2) ? n : 2 * (n / 3) + (n % 3);
      rows_at = n;
    end
  endfunction
  function integer levels(input integer dummy);
    integer k;
    begin
      levels = 0;
      for (k = 0; k < 64; k = k + 1) if (rows_at(k) > 2) levels = k + 1;
      levels = levels + 0 * dummy;
    end
  endfunction
  // verilator coverage_on
  localparam integer L = levels(0);

  reg [W-1:0] xe, maj;
  reg [W-1:0] t [0:WB-1];
  reg [W-1:0] n [0:WB-1];
  integer lv, g, j, ni;
  // Sensitive to the inputs only: xe, t, n, maj are temporaries written before they are read (with @*, an
  // event simulator would re-run the block on its own writes).
  always @(x_i or y_i) begin
    maj = {W{1'b0}};
    sum_o = {W{1'b0}};
    carry_o = {W{1'b0}};
    xe = {W{XS != 0 && x_i[WA-1]}};
    xe[WA-1:0] = x_i;
    for (j = 0; j < WB; j = j + 1) t[j] = y_i[j] ? (xe << j) : {W{1'b0}};
    for (lv = 0; lv < L; lv = lv + 1) begin
      ni = rows_at(lv);
      for (j = 0; j < WB; j = j + 1) n[j] = {W{1'b0}};
      for (g = 0; g < WB / 3; g = g + 1) begin
        if (g < ni / 3) begin
          maj = (t[3*g] & t[3*g+1]) | (t[3*g] & t[3*g+2]) | (t[3*g+1] & t[3*g+2]);
          n[2*g]   = t[3*g] ^ t[3*g+1] ^ t[3*g+2];
          n[2*g+1] = maj << 1;
        end
      end
      for (j = 0; j < 2; j = j + 1)
        if (j < ni % 3) n[2*(ni/3) + j] = t[3*(ni/3) + j];
      for (j = 0; j < WB; j = j + 1) t[j] = n[j];
    end
    sum_o = t[0];
    carry_o = t[1];
  end
endmodule
`default_nettype wire
