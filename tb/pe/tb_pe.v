`timescale 1ns/1ps
`default_nettype none
// Self-checking Icarus testbench of pe_exchanger. The vector file (tb/pe/pe_vectors.c) holds, for every
// cycle, the inputs the environment model of the lockstep co-simulation applied (the P2G and the other N-1
// GPUs, reacting to the handshakes) and every output the C cycle model produced. The testbench applies
// the inputs after each falling edge and, just before the rising edge, compares EVERY output: values and
// handshake timing (each port's valid and ready in each cycle; flits and output data while valid).
// No $random: the stimulus comes from the C generator. Prints PASS with the counts, or the first
// difference, the reproduce command and FAIL (then $fatal).
//   vvp tb.vvp +vectors=FILE +nrec=N [+vcd=FILE] [+vseed=S] [+repro=COMMAND]   (+repro: printed on a failure)
module tb_pe;
  parameter integer MAX_GPUS = 16;
  parameter integer LQ_DEPTH = 8;
  parameter integer RQ_DEPTH = 8;
  localparam integer MAXREC  = 400000;
  localparam integer RW      = 512;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;

  reg  [6:0]  cfg_n = 7'd1;
  reg  [5:0]  cfg_id = 6'd0;
  reg         cfg_topo = 1'b0, cfg_ra = 1'b0;
  reg         in_valid = 1'b0, in_end = 1'b0;
  reg  [15:0] in_tag = 16'd0;
  reg  [31:0] in_id = 32'd0;
  reg  [63:0] in_mask = 64'd0;
  reg         tx0_ready = 1'b0, tx1_ready = 1'b0, rx0_valid = 1'b0, rx1_valid = 1'b0, out_ready = 1'b0;
  reg  [63:0] rx0_flit = 64'd0, rx1_flit = 64'd0;
  wire        in_ready, tx0_valid, tx1_valid, rx0_ready, rx1_ready, out_valid, out_eob, busy, err;
  wire [63:0] tx0_flit, tx1_flit;
  wire [15:0] out_tag, cur_tag;
  wire [31:0] out_id;

  pe_exchanger #(.MAX_GPUS(MAX_GPUS), .LQ_DEPTH(LQ_DEPTH), .RQ_DEPTH(RQ_DEPTH)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .cfg_n_gpus_i(cfg_n), .cfg_gpu_id_i(cfg_id), .cfg_topo_i(cfg_topo), .cfg_runahead_i(cfg_ra),
    .in_valid_i(in_valid), .in_ready_o(in_ready), .in_end_i(in_end), .in_tag_i(in_tag), .in_prim_id_i(in_id),
    .in_mask_i(in_mask[MAX_GPUS-1:0]),
    .tx0_valid_o(tx0_valid), .tx0_ready_i(tx0_ready), .tx0_flit_o(tx0_flit),
    .tx1_valid_o(tx1_valid), .tx1_ready_i(tx1_ready), .tx1_flit_o(tx1_flit),
    .rx0_valid_i(rx0_valid), .rx0_ready_o(rx0_ready), .rx0_flit_i(rx0_flit),
    .rx1_valid_i(rx1_valid), .rx1_ready_o(rx1_ready), .rx1_flit_i(rx1_flit),
    .out_valid_o(out_valid), .out_ready_i(out_ready), .out_eob_o(out_eob), .out_tag_o(out_tag),
    .out_prim_id_o(out_id), .busy_o(busy), .cur_tag_o(cur_tag), .err_o(err));

  reg [RW-1:0] mem [0:MAXREC-1];
  reg [1023:0] vectors, vcd, vseed;
  reg [8*400-1:0] repro;
  reg [511:0] r;
  integer nrec, k, cycle, scen, checks, cycles, hs, nerr;

  `include "tb/common/tb_vectors.vh"   // from the repository root, where every recipe runs

  initial begin
    vec_load;
    while (mem[k][511:508] != 4'hf) begin
      r = mem[k];
      if (r[511:508] == 4'h1) begin
        // reset: two cycles with rst_ni low and idle inputs, released after a falling edge
        @(negedge clk);
        rst_n = 1'b0; in_valid = 1'b0; rx0_valid = 1'b0; rx1_valid = 1'b0;
        tx0_ready = 1'b0; tx1_ready = 1'b0; out_ready = 1'b0; cfg_n = 7'd1;
        repeat (2) @(negedge clk);
        rst_n = 1'b1;
        scen = r[507:476];
        cycle = 0;
      end else if (r[511:508] == 4'h2) begin
        if (cycle != 0) @(negedge clk);
        #1;
        cfg_n = r[507:501]; cfg_id = r[500:495]; cfg_topo = r[494]; cfg_ra = r[493];
        in_valid = r[492]; in_end = r[491]; in_tag = r[490:475]; in_id = r[474:443]; in_mask = r[442:379];
        tx0_ready = r[378]; tx1_ready = r[377]; rx0_valid = r[376]; rx1_valid = r[375];
        rx0_flit = r[374:311]; rx1_flit = r[310:247]; out_ready = r[246];
        #3;   // settle, 1 ns before the rising edge
        chk("in_ready", {63'd0, in_ready}, {63'd0, r[245]});
        chk("tx0_valid", {63'd0, tx0_valid}, {63'd0, r[244]});
        chk("tx1_valid", {63'd0, tx1_valid}, {63'd0, r[243]});
        if (r[244]) chk("tx0_flit", tx0_flit, r[242:179]);
        if (r[243]) chk("tx1_flit", tx1_flit, r[178:115]);
        chk("rx0_ready", {63'd0, rx0_ready}, {63'd0, r[114]});
        chk("rx1_ready", {63'd0, rx1_ready}, {63'd0, r[113]});
        chk("out_valid", {63'd0, out_valid}, {63'd0, r[112]});
        if (r[112]) begin
          chk("out_eob", {63'd0, out_eob}, {63'd0, r[111]});
          chk("out_tag", {48'd0, out_tag}, {48'd0, r[110:95]});
          chk("out_prim_id", {32'd0, out_id}, {32'd0, r[94:63]});
        end
        chk("busy", {63'd0, busy}, {63'd0, r[62]});
        chk("cur_tag", {48'd0, cur_tag}, {48'd0, r[61:46]});
        chk("err", {63'd0, err}, {63'd0, r[45]});
        if (nerr != 0) begin
          $display("  inputs: in_valid=%b in_end=%b in_tag=%h in_prim_id=%h in_mask=%h tx_ready=%b%b rx_valid=%b%b out_ready=%b",
                   in_valid, in_end, in_tag, in_id, in_mask, tx1_ready, tx0_ready, rx1_valid, rx0_valid, out_ready);
          $display("          rx0_flit=%h rx1_flit=%h", rx0_flit, rx1_flit);
          if (repro != "")
            $display("  reproduce: %0s   (scenario %0d)", repro, scen);
          else
            $display("  reproduce: make sim-pe SEED=%0s   (the cosim of the same scenario: cosim-pe --seed %0s --scenario %0d)",
                     vseed, vseed, scen);
          $fatal(1);
        end
        hs = hs + (in_valid & in_ready) + (tx0_valid & tx0_ready) + (tx1_valid & tx1_ready) +
                  (rx0_valid & rx0_ready) + (rx1_valid & rx1_ready) + (out_valid & out_ready);
        cycle = cycle + 1;
        cycles = cycles + 1;
      end else begin
        $display("FAIL: bad record type %h at line %0d", r[511:508], k + 1);
        $fatal(1);
      end
      k = k + 1;
    end
    vec_checked_something;
    $display("PASS: tb_pe MAX_GPUS=%0d LQ_DEPTH=%0d RQ_DEPTH=%0d: %0d cycles, %0d handshakes, %0d port checks",
             MAX_GPUS, LQ_DEPTH, RQ_DEPTH, cycles, hs, checks);
    $finish;
  end
endmodule
`default_nettype wire
