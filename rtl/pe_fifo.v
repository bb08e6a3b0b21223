`timescale 1ns/1ps
`default_nettype none
// pe_fifo: the bounded FIFO of the primitive exchanger (local queue and receive banks of pe_exchanger.v).
// Register array of DEPTH words (no reset: contents are only read while counted), read and write pointers
// and a count (reset). One push and one pop per cycle, both allowed in the same cycle; the caller never
// pushes when full (cnt_o == DEPTH) and never pops when empty (cnt_o == 0). rdata_o is the head word
// (combinational read of the array). The C cycle model keeps the same pointers (cmodel/pe/pe_hw.c).
module pe_fifo #(
  parameter integer W     = 32,    // word width
  parameter integer DEPTH = 8,     // words, >= 2
  parameter integer CNT_W = $clog2(DEPTH + 1)
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             push_i,
  input  wire [W-1:0]     wdata_i,
  input  wire             pop_i,
  output wire [W-1:0]     rdata_o,
  output wire [CNT_W-1:0] cnt_o
);
  localparam integer PTR_W = $clog2(DEPTH);
  localparam [PTR_W-1:0] LAST_PTR = DEPTH[PTR_W-1:0] - 1'b1;

  reg [W-1:0]     mem_q [0:DEPTH-1];
  reg [PTR_W-1:0] rp_q, wp_q;
  reg [CNT_W-1:0] cnt_q;

  wire [PTR_W-1:0] rp_d = (rp_q == LAST_PTR) ? {PTR_W{1'b0}} : rp_q + 1'b1;
  wire [PTR_W-1:0] wp_d = (wp_q == LAST_PTR) ? {PTR_W{1'b0}} : wp_q + 1'b1;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rp_q  <= {PTR_W{1'b0}};
      wp_q  <= {PTR_W{1'b0}};
      cnt_q <= {CNT_W{1'b0}};
    end else begin
      if (pop_i)  rp_q <= rp_d;
      if (push_i) wp_q <= wp_d;
      if (push_i && !pop_i) cnt_q <= cnt_q + 1'b1;
      else if (pop_i && !push_i) cnt_q <= cnt_q - 1'b1;
    end
  end

  always @(posedge clk_i) begin
    if (push_i) mem_q[wp_q] <= wdata_i;
  end

  assign rdata_o = mem_q[rp_q];
  assign cnt_o   = cnt_q;
endmodule
`default_nettype wire
