`timescale 1ns/1ps
`default_nettype none
// p2g_range_mask: the set {s, s+1, ..., s+len-1} mod n as a MAX_GPUS-bit mask, for s < n, len < n, given
// nlen = n - len. Bit i is set when i < n and (s <= i < s+len, or i < s - nlen: the part that wrapped past
// n-1, since i + n < s + len <=> i < s + len - n = s - nlen). Every bit compares against constants only.
module p2g_range_mask #(
  parameter integer MAX_GPUS = 16,
  parameter integer N_W      = 7
) (
  input  wire [N_W-1:0]      s_i,
  input  wire [N_W-1:0]      len_i,
  input  wire [N_W-1:0]      nlen_i,
  input  wire [N_W-1:0]      n_i,
  output wire [MAX_GPUS-1:0] mask_o
);
  wire [N_W:0] s_end = {1'b0, s_i} + {1'b0, len_i};
  wire [N_W:0] w_end = {1'b0, s_i} - {1'b0, nlen_i};   // negative (top bit set): nothing wrapped
  genvar i;
  generate
    for (i = 0; i < MAX_GPUS; i = i + 1) begin : g_bit
      localparam [N_W:0] I = i;
      wire in_n    = I < {1'b0, n_i};
      wire direct  = (I >= {1'b0, s_i}) && (I < s_end);
      wire wrapped = !w_end[N_W] && (I < w_end);
      // if/else per bit: line-coverage points show each bit both set and clear (same logic as an assign)
      reg bit_d;
      always @* begin
        if (in_n && (direct || wrapped)) bit_d = 1'b1;
        else bit_d = 1'b0;
      end
      assign mask_o[i] = bit_d;
    end
  endgenerate
endmodule
`default_nettype wire
