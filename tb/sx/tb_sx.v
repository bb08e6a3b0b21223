`timescale 1ns/1ps
`default_nettype none
// Self-checking Icarus testbench of sx_pe. The vector file (tb/sx/sx_vectors.c) holds, for every cycle, the
// inputs the environment model of the lockstep co-simulation applied (the P2G and the other N-1 GPUs under the
// credit protocol, reacting to the handshakes) and every output the C cycle model produced. The testbench applies
// the inputs after each falling edge and, 1 ns before the rising edge, compares EVERY output: values and handshake
// timing (each lane's and port's valid and ready in each cycle; flits and ids while valid). No $random. Prints
// PASS with the counts, or the first difference, the reproduce command and FAIL (then $fatal).
// The error-path vectors (sx-vectors --errors) use the same records: one scenario per sticky err condition, named
// in its reset record.
//   vvp tb.vvp +vectors=FILE +nrec=N [+vcd=FILE] [+vseed=S] [+repro=COMMAND]
module tb_sx;
  parameter integer MAX_GPUS = 16;
  parameter integer K        = 2;
  parameter integer DEPTH    = 8;
  localparam integer MAXREC  = 200000;
  localparam integer RW      = 1552;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;

  reg  [6:0]            cfg_n = 7'd1;
  reg  [5:0]            cfg_id = 6'd0;
  reg                   cfg_topo = 1'b0;
  reg  [K-1:0]          in_valid = {K{1'b0}}, in_end = {K{1'b0}};
  reg  [K*16-1:0]       in_tag = {K*16{1'b0}};
  reg  [K*32-1:0]       in_id = {K*32{1'b0}};
  reg  [K*MAX_GPUS-1:0] in_mask = {K*MAX_GPUS{1'b0}};
  reg                   tx0_ready = 1'b0, tx1_ready = 1'b0, rx0_valid = 1'b0, rx1_valid = 1'b0, out_ready = 1'b0;
  reg  [63:0]           rx0_flit = 64'd0, rx1_flit = 64'd0;
  wire [K-1:0]          in_ready, out_valid;
  wire                  tx0_valid, tx1_valid, rx0_ready, rx1_ready, out_eob, rel_last, busy, err;
  wire [63:0]           tx0_flit, tx1_flit;
  wire [K*32-1:0]       out_id;
  wire [15:0]           out_tag;
  wire [5:0]            rel_src;
  wire [20:0]           occ;

  sx_pe #(.MAX_GPUS(MAX_GPUS), .K(K), .DEPTH(DEPTH)) dut (
    .clk_i(clk), .rst_ni(rst_n), .cfg_n_gpus_i(cfg_n), .cfg_gpu_id_i(cfg_id), .cfg_topo_i(cfg_topo),
    .in_valid_i(in_valid), .in_ready_o(in_ready), .in_end_i(in_end), .in_tag_i(in_tag), .in_id_i(in_id),
    .in_mask_i(in_mask),
    .tx0_valid_o(tx0_valid), .tx0_ready_i(tx0_ready), .tx0_flit_o(tx0_flit),
    .tx1_valid_o(tx1_valid), .tx1_ready_i(tx1_ready), .tx1_flit_o(tx1_flit),
    .rx0_valid_i(rx0_valid), .rx0_ready_o(rx0_ready), .rx0_flit_i(rx0_flit),
    .rx1_valid_i(rx1_valid), .rx1_ready_o(rx1_ready), .rx1_flit_i(rx1_flit),
    .out_valid_o(out_valid), .out_ready_i(out_ready), .out_id_o(out_id), .out_tag_o(out_tag), .out_eob_o(out_eob),
    .rel_last_o(rel_last), .rel_src_o(rel_src), .occ_o(occ), .busy_o(busy), .err_o(err));

  reg [RW-1:0] mem [0:MAXREC-1];
  reg [1023:0] vectors, vcd, vseed;
  reg [8*400-1:0] repro;
  reg [255:0] ename = 256'd0;  // error-path vectors: the injected err condition (reset record bits [255:0])
  reg [RW-1:0] r;
  integer nrec, k, j, cycle, scen, checks, cycles, hs, nerr;

  `include "tb/common/tb_vectors.vh"   // from the repository root, where every recipe runs

  initial begin
    vec_load;
    while (mem[k][RW-1 -: 4] != 4'hf) begin
      r = mem[k];
      if (r[RW-1 -: 4] == 4'h1) begin
        @(negedge clk);
        rst_n = 1'b0; in_valid = {K{1'b0}}; rx0_valid = 1'b0; rx1_valid = 1'b0;
        tx0_ready = 1'b0; tx1_ready = 1'b0; out_ready = 1'b0; cfg_n = 7'd1;
        repeat (2) @(negedge clk);
        rst_n = 1'b1;
        scen = r[1516 +: 32];
        ename = r[0 +: 256];
        cycle = 0;
      end else if (r[RW-1 -: 4] == 4'h2) begin
        if (cycle != 0) @(negedge clk);
        #1;
        cfg_n = r[0 +: 7]; cfg_id = r[7 +: 6]; cfg_topo = r[13];
        tx0_ready = r[14]; tx1_ready = r[15]; rx0_valid = r[16]; rx1_valid = r[17]; out_ready = r[18];
        rx0_flit = r[944 +: 64]; rx1_flit = r[1008 +: 64];
        for (j = 0; j < K; j = j + 1) begin
          in_valid[j] = r[32 + j];
          in_end[j] = r[40 + j];
          in_tag[j*16 +: 16] = r[48 + 16*j +: 16];
          in_id[j*32 +: 32] = r[176 + 32*j +: 32];
          in_mask[j*MAX_GPUS +: MAX_GPUS] = r[432 + 64*j +: MAX_GPUS];
        end
        #3;   // settle, 1 ns before the rising edge
        for (j = 0; j < K; j = j + 1) begin
          chk("in_ready", {63'd0, in_ready[j]}, {63'd0, r[1072 + j]});
          chk("out_valid", {63'd0, out_valid[j]}, {63'd0, r[1080 + j]});
          if (r[1080 + j]) chk("out_id", {32'd0, out_id[j*32 +: 32]}, {32'd0, r[1272 + 32*j +: 32]});
        end
        chk("tx0_valid", {63'd0, tx0_valid}, {63'd0, r[1088]});
        chk("tx1_valid", {63'd0, tx1_valid}, {63'd0, r[1089]});
        if (r[1088]) chk("tx0_flit", tx0_flit, r[1144 +: 64]);
        if (r[1089]) chk("tx1_flit", tx1_flit, r[1208 +: 64]);
        chk("rx0_ready", {63'd0, rx0_ready}, {63'd0, r[1090]});
        chk("rx1_ready", {63'd0, rx1_ready}, {63'd0, r[1091]});
        chk("out_eob", {63'd0, out_eob}, {63'd0, r[1092]});
        chk("rel_last", {63'd0, rel_last}, {63'd0, r[1093]});
        chk("busy", {63'd0, busy}, {63'd0, r[1094]});
        chk("err", {63'd0, err}, {63'd0, r[1095]});
        chk("rel_src", {58'd0, rel_src}, {58'd0, r[1096 +: 6]});
        chk("out_tag", {48'd0, out_tag}, {48'd0, r[1104 +: 16]});
        chk("occ", {43'd0, occ}, {43'd0, r[1120 +: 21]});
        if (nerr != 0) begin
          if (ename != 256'd0)
            $display("  error-path vector: injected condition \"%0s\" (err_o must be 0 through the offending handshake, 1 after it)", ename);
          $display("  inputs: in_valid=%b in_end=%b in_tag=%h in_id=%h in_mask=%h tx_ready=%b%b rx_valid=%b%b out_ready=%b",
                   in_valid, in_end, in_tag, in_id, in_mask, tx1_ready, tx0_ready, rx1_valid, rx0_valid, out_ready);
          $display("          rx0_flit=%h rx1_flit=%h", rx0_flit, rx1_flit);
          if (repro != "") $display("  reproduce: %0s   (scenario %0d)", repro, scen);
          else $display("  reproduce: make sim-sx SEED=%0s   (the lockstep of the same scenario: cosim-sx --seed %0s --scenario %0d)",
                        vseed, vseed, scen);
          $fatal(1);
        end
        hs = hs + (tx0_valid & tx0_ready) + (tx1_valid & tx1_ready) + (rx0_valid & rx0_ready) + (rx1_valid & rx1_ready) +
                  (out_valid[0] & out_ready);
        for (j = 0; j < K; j = j + 1) hs = hs + (in_valid[j] & in_ready[j]);
        cycle = cycle + 1;
        cycles = cycles + 1;
      end else begin
        $display("FAIL: bad record type %h at line %0d", r[RW-1 -: 4], k + 1);
        $fatal(1);
      end
      k = k + 1;
    end
    vec_checked_something;
    $display("PASS: tb_sx MAX_GPUS=%0d K=%0d DEPTH=%0d: %0d cycles, %0d handshakes, %0d port checks",
             MAX_GPUS, K, DEPTH, cycles, hs, checks);
    $finish;
  end
endmodule
`default_nettype wire
