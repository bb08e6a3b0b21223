`timescale 1ns/1ps
`default_nettype none
// sx_fifo_ram: the receive-FIFO storage of the stream primitive exchanger (rtl/sx_pe.v): WORDS slots of W bits,
// WP write ports (synchronous, clock rising edge) and RP read ports (combinational, asynchronous read). Write
// ports are applied in index order, so of two ports writing one address in the same cycle the higher index wins.
// No reset (the slots are read only while a FIFO count says they hold data).
// A separate module so that synthesis can treat the array as a storage macro (docs/sx.md section 6:
// the OSU flow replaces it by a black-box cell with a generated Liberty model, scripts/sx_ram_lib.py).
module sx_fifo_ram #(
  parameter integer W     = 33,   // bits per slot
  parameter integer WORDS = 128,  // slots (>= 2)
  parameter integer AB    = 7,    // address bits: $clog2(WORDS)
  parameter integer WP    = 4,    // write ports
  parameter integer RP    = 2     // read ports
) (
  input  wire             clk_i,
  input  wire [WP-1:0]    we_i,
  input  wire [WP*AB-1:0] waddr_i,
  input  wire [WP*W-1:0]  wdata_i,
  input  wire [RP*AB-1:0] raddr_i,
  output wire [RP*W-1:0]  rdata_o
);
  reg [W-1:0] mem_q [0:WORDS-1];

  genvar gr;
  generate
    for (gr = 0; gr < RP; gr = gr + 1) begin : g_rd
      assign rdata_o[gr*W +: W] = mem_q[raddr_i[gr*AB +: AB]];
    end
  endgenerate

  integer p;
  always @(posedge clk_i) begin
    for (p = 0; p < WP; p = p + 1)
      if (we_i[p]) mem_q[waddr_i[p*AB +: AB]] <= wdata_i[p*W +: W];
  end
endmodule
`default_nettype wire
