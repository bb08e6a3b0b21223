`timescale 1ns/1ps
`default_nettype none
// Reference model (no build uses it): the module form of `SIMT_FN_CSA / `SIMT_FN_CSA2 (rtl/simt_fp_fn.vh), which
// the datapaths call; scripts/simt_fn_equiv.sh proves them gate-identical at every parameter set in use.
// simt_fp_mul_csa: the carry-save half of a multiplier: x * y mod 2^W as two rows (sum_o + carry_o), for the
// significand multiplier (simt_fp_mul) and the SFU (simt_sfu_reduce, simt_sfu_quad); docs/simt-fpu.md.
// Partial products x << i for every set bit i of y (x zero-extended, or sign-extended when XS = 1: a signed x
// times an unsigned y is then exact mod 2^W), reduced by a Wallace tree of word-level 3:2 compressors
// level by level (WB rows -> 2*floor(n/3) + n mod 3 per level; 24 rows: 7 full-adder delays).
// Combinational; constant-zero bits (narrow rows, constant operands) are removed by synthesis.
// Written as a generate tree in which every row of every level is its own wire (g_l[level].g_r[row]): a
// cycle-based simulator then emits straight-line word operations. Rows wider than 64 bits are kept as chunks
// of at most 64 bits (g_c[chunk]; the carry row's shift crosses a chunk boundary explicitly) so that they
// stay in machine words too. The same gates as a level-by-level loop over an array (docs/simt-fpu.md).
module simt_fp_mul_csa #(
  parameter integer WA = 24,   // x width (< W)
  parameter integer WB = 24,   // y width = number of partial products (>= 3)
  parameter integer W  = 48,   // result width (the product is taken mod 2^W)
  parameter integer XS = 0     // 1: x is signed (two's complement)
) (
  input  wire [WA-1:0] x_i,
  input  wire [WB-1:0] y_i,
  output wire [W-1:0]  sum_o,
  output wire [W-1:0]  carry_o
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
  localparam integer CH = 64;                  // chunk width
  function integer cw(input integer k);        // width of chunk k
    cw = (W - k * CH < CH) ? W - k * CH : CH;
  endfunction
  // verilator coverage_on
  localparam integer L  = levels(0);
  localparam integer NC = (W + CH - 1) / CH;   // chunks per row

  wire [W-1:0] xe = {{(W - WA){XS != 0 && x_i[WA-1]}}, x_i};
  genvar lv, j, k;
  generate
    for (j = 0; j < WB; j = j + 1) begin : g_pp
      wire [W-1:0] pp = y_i[j] ? (xe << j) : {W{1'b0}};   // partial product j
    end
    for (lv = 0; lv <= L; lv = lv + 1) begin : g_l
      localparam integer NP = (lv == 0) ? 0 : rows_at(lv - 1);   // rows of the previous level
      localparam integer NG = NP / 3;                            // 3:2 compressors of this level
      for (j = 0; j < rows_at(lv); j = j + 1) begin : g_r
        localparam integer J3 = 3 * (j / 2);           // first input row of compressor j/2
        localparam integer JP = 3 * NG + j - 2 * NG;   // the row passed on (j >= 2*NG)
        for (k = 0; k < NC; k = k + 1) begin : g_c
          wire [cw(k)-1:0] r;
          if (lv == 0) begin : g_p0
            assign r = g_pp[j].pp[k*CH +: cw(k)];
          end else if (j < 2 * NG) begin : g_c3
            // 3:2 compressor of rows J3 .. J3+2 of the previous level: even j sum, odd j carry
            wire [cw(k)-1:0] a = g_l[lv-1].g_r[J3].g_c[k].r;
            wire [cw(k)-1:0] b = g_l[lv-1].g_r[J3+1].g_c[k].r;
            wire [cw(k)-1:0] c = g_l[lv-1].g_r[J3+2].g_c[k].r;
            if (j % 2 == 0) begin : g_s
              assign r = a ^ b ^ c;
            end else if (k == 0) begin : g_m0
              wire [cw(k)-1:0] maj = (a & b) | (a & c) | (b & c);
              assign r = maj << 1;
            end else begin : g_mk
              // shifted left by one across the chunk boundary: the carry out of chunk k-1's top bit
              wire [cw(k)-1:0] maj = (a & b) | (a & c) | (b & c);
              wire a1 = g_l[lv-1].g_r[J3].g_c[k-1].r[CH-1];
              wire b1 = g_l[lv-1].g_r[J3+1].g_c[k-1].r[CH-1];
              wire c1 = g_l[lv-1].g_r[J3+2].g_c[k-1].r[CH-1];
              assign r = {maj[cw(k)-2:0], (a1 & b1) | (a1 & c1) | (b1 & c1)};
              wire unused_ok = &{1'b0, maj[cw(k)-1]};   // carry out of bit W-1 (the product is mod 2^W)
            end
          end else begin : g_pass
            // rows left over (n mod 3) pass to the next level
            assign r = g_l[lv-1].g_r[JP].g_c[k].r;
          end
        end
      end
    end
    for (k = 0; k < NC; k = k + 1) begin : g_o
      assign sum_o[k*CH +: cw(k)]   = g_l[L].g_r[0].g_c[k].r;
      assign carry_o[k*CH +: cw(k)] = g_l[L].g_r[1].g_c[k].r;
    end
  endgenerate
endmodule
`default_nettype wire
