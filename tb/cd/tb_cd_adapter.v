`timescale 1ns/1ps
`default_nettype none
// Self-checking Icarus testbench of cd_adapter (rtl/cd_adapter.v, docs/cd-unit.md). The vector file
// (tb/cd/cd_adapter_vectors.c) holds, for every cycle, the inputs a seeded environment applied (descriptors,
// P2G beats, PE ready, each valid held until its handshake) and every output the C cycle model
// cmodel/cd/cd_adapter_hw.c produced. The testbench applies the inputs after each falling edge and, just
// before the rising edge, compares EVERY output: desc_ready, p2g_ready, pe_valid and busy every cycle, the
// PE beat (end, tag, prim_id, mask) while pe_valid. No $random. Prints PASS with the counts, or the first
// difference, the reproduce command and FAIL (then $fatal).
//   vvp tb.vvp +vectors=FILE +nrec=N [+vcd=FILE] [+vseed=S]
module tb_cd_adapter;
  parameter integer MAX_GPUS = 16;
  parameter integer AQ_DEPTH = 4;
  parameter integer DQ_DEPTH = 2;
  localparam integer MAXREC  = 200000;
  localparam integer RW      = 320;
  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  reg         desc_valid = 1'b0, p2g_valid = 1'b0, pe_ready = 1'b0;
  reg  [15:0] desc_tag = 16'd0, p2g_tag = 16'd0;
  reg  [31:0] desc_count = 32'd0, p2g_id = 32'd0;
  reg  [63:0] p2g_mask = 64'd0;
  wire        desc_ready, p2g_ready, pe_valid, pe_end, busy;
  wire [15:0] pe_tag;
  wire [31:0] pe_id;
  wire [MAX_GPUS-1:0] pe_mask;
  cd_adapter #(.MAX_GPUS(MAX_GPUS), .AQ_DEPTH(AQ_DEPTH), .DQ_DEPTH(DQ_DEPTH)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .desc_valid_i(desc_valid), .desc_ready_o(desc_ready), .desc_tag_i(desc_tag), .desc_count_i(desc_count),
    .p2g_valid_i(p2g_valid), .p2g_ready_o(p2g_ready), .p2g_tag_i(p2g_tag), .p2g_prim_id_i(p2g_id),
    .p2g_mask_i(p2g_mask[MAX_GPUS-1:0]),
    .pe_valid_o(pe_valid), .pe_ready_i(pe_ready), .pe_end_o(pe_end), .pe_tag_o(pe_tag), .pe_prim_id_o(pe_id),
    .pe_mask_o(pe_mask), .busy_o(busy));
  reg [RW-1:0] mem [0:MAXREC-1];
  reg [1023:0] vectors, vcd, vseed;
  reg [8*400-1:0] repro;
  reg [319:0] r;
  reg [63:0] mask_exp;
  integer nrec, k, cycle, scen, checks, cycles, hs, ends, nerr;
  `include "tb/common/tb_vectors.vh"   // from the repository root, where every recipe runs
  initial begin
    vec_load;
    ends = 0;
    while (mem[k][319:316] != 4'hf) begin
      r = mem[k];
      if (r[319:316] == 4'h1) begin
        // reset: two cycles with rst_ni low and idle inputs, released after a falling edge
        @(negedge clk);
        rst_n = 1'b0; desc_valid = 1'b0; p2g_valid = 1'b0; pe_ready = 1'b0;
        repeat (2) @(negedge clk);
        rst_n = 1'b1;
        scen = r[315:284];
        cycle = 0;
      end else if (r[319:316] == 4'h2) begin
        if (cycle != 0) @(negedge clk);
        #1;
        desc_valid = r[315]; desc_tag = r[314:299]; desc_count = r[298:267];
        p2g_valid = r[266]; p2g_tag = r[265:250]; p2g_id = r[249:218]; p2g_mask = r[217:154];
        pe_ready = r[153];
        #3;   // settle, 1 ns before the rising edge
        chk("desc_ready", {63'd0, desc_ready}, {63'd0, r[152]});
        chk("p2g_ready", {63'd0, p2g_ready}, {63'd0, r[151]});
        chk("pe_valid", {63'd0, pe_valid}, {63'd0, r[150]});
        if (r[150]) begin
          mask_exp = r[100:37];
          chk("pe_end", {63'd0, pe_end}, {63'd0, r[149]});
          chk("pe_tag", {48'd0, pe_tag}, {48'd0, r[148:133]});
          chk("pe_prim_id", {32'd0, pe_id}, {32'd0, r[132:101]});
          chk("pe_mask", {{(64-MAX_GPUS){1'b0}}, pe_mask}, {{(64-MAX_GPUS){1'b0}}, mask_exp[MAX_GPUS-1:0]});
        end
        chk("busy", {63'd0, busy}, {63'd0, r[36]});
        if (nerr != 0) begin
          $display("  inputs: desc_valid=%b desc_tag=%h desc_count=%0d p2g_valid=%b p2g_tag=%h p2g_prim_id=%h p2g_mask=%h pe_ready=%b",
                   desc_valid, desc_tag, desc_count, p2g_valid, p2g_tag, p2g_id, p2g_mask, pe_ready);
          $display("  reproduce: make sim-cd CD_SIM_SEED=%0s", vseed);
          $fatal(1);
        end
        hs = hs + (desc_valid & desc_ready) + (p2g_valid & p2g_ready) + (pe_valid & pe_ready);
        ends = ends + (pe_valid & pe_ready & pe_end);
        cycle = cycle + 1;
        cycles = cycles + 1;
      end else begin
        $display("FAIL: bad record type %h at line %0d", r[319:316], k + 1);
        $fatal(1);
      end
      k = k + 1;
    end
    if (cycles == 0 || hs == 0 || ends == 0) begin
      $display("FAIL: nothing was checked (%0d cycles, %0d handshakes, %0d END beats)", cycles, hs, ends);
      $fatal(1);
    end
    $display("PASS: tb_cd_adapter MAX_GPUS=%0d AQ_DEPTH=%0d DQ_DEPTH=%0d: %0d cycles, %0d handshakes (%0d END beats), %0d port checks",
             MAX_GPUS, AQ_DEPTH, DQ_DEPTH, cycles, hs, ends, checks);
    $finish;
  end
endmodule
`default_nettype wire
