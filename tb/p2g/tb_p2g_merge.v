`timescale 1ns/1ps
`default_nettype none
// Self-checking Icarus testbench of p2g_merge (P P2G mappers merged in order). Stimulus and expected masks:
// the P2G testbench's vector file (tb/p2g/p2g_vectors.c, the C functional definition). Each cycle the driver
// offers 0..P consecutive primitives (an in-order prefix of the slots, LFSR-chosen from +seed=), the output is
// stalled at random; every mask must come out in input order and equal the vector's. Configuration records
// are applied with the unit idle. Prints PASS with the counts, or the first difference and FAIL ($fatal).
//   vvp tb.vvp +vectors=FILE +nrec=LINES [+seed=N] [+stall=PCT]
module tb_p2g_merge;
  parameter integer P        = 4;
  parameter integer MAX_GPUS = 16;
  localparam integer MAXREC  = 200000;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;

  reg  [6:0]  cfg_n = 7'd1;
  reg  [14:0] cfg_w = 15'd1, cfg_h = 15'd1;
  reg  [3:0]  cfg_ts = 4'd5;
  reg         cfg_mode = 1'b0;
  reg  [13:0] sc_x0 = 14'd0, sc_y0 = 14'd0, sc_x1 = 14'd0, sc_y1 = 14'd0;
  reg  [P-1:0]    in_valid = {P{1'b0}};
  wire [P-1:0]    in_ready;
  reg  [P*32-1:0] in_id = 0;
  reg  [P*16-1:0] in_tag = 0;
  reg  [P*24-1:0] x0 = 0, y0 = 0, x1 = 0, y1 = 0, x2 = 0, y2 = 0;
  reg  [P*2-1:0]  flags = 0;
  wire        out_valid;
  reg         out_ready = 1'b0;
  wire [31:0] out_id;
  wire [15:0] out_tag;
  wire [MAX_GPUS-1:0] out_mask;
  wire        busy;

  p2g_merge #(.P(P), .MAX_GPUS(MAX_GPUS), .ROWS(2)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .cfg_n_gpus_i(cfg_n), .cfg_width_i(cfg_w), .cfg_height_i(cfg_h), .cfg_tile_log2_i(cfg_ts),
    .cfg_mode_i(cfg_mode), .cfg_sc_x0_i(sc_x0), .cfg_sc_y0_i(sc_y0), .cfg_sc_x1_i(sc_x1), .cfg_sc_y1_i(sc_y1),
    .in_valid_i(in_valid), .in_ready_o(in_ready), .in_prim_id_i(in_id), .in_tag_i(in_tag),
    .in_x0_i(x0), .in_y0_i(y0), .in_x1_i(x1), .in_y1_i(y1), .in_x2_i(x2), .in_y2_i(y2), .in_flags_i(flags),
    .out_valid_o(out_valid), .out_ready_i(out_ready), .out_prim_id_o(out_id), .out_tag_o(out_tag),
    .out_mask_o(out_mask), .busy_o(busy));

  reg [287:0] mem [0:MAXREC-1];
  reg [1023:0] vectors;
  integer seed, stall, nrec, rd, chk, nchk, sent, cycles, idle, j, k, r, outstanding;
  reg [31:0] lfsr_in, lfsr_out;
  function [31:0] lfsr_next(input [31:0] s);  // Galois LFSR, taps 32,22,2,1
    lfsr_next = s[0] ? ((s >> 1) ^ 32'h80200003) : (s >> 1);
  endfunction
  function integer next_prim(input integer i);
    integer q;
    begin
      q = i;
      while (q < MAXREC && mem[q][287:284] != 4'h2 && mem[q][287:284] != 4'hf) q = q + 1;
      if (q >= MAXREC || mem[q][287:284] == 4'hf) next_prim = MAXREC; else next_prim = q;
    end
  endfunction

  // slots taken at an edge: the in-order prefix of offered and ready slots
  integer taken_q = 0;
  integer tk;
  always @(posedge clk) begin
    tk = 0;
    while (tk < P && in_valid[tk] && in_ready[tk]) tk = tk + 1;
    taken_q <= tk;
    if (!rst_n && out_valid) begin $display("FAIL: out_valid high during reset"); $fatal(1); end
    if (rst_n) begin
      cycles <= cycles + 1;
      if (out_valid && outstanding == 0) begin
        $display("FAIL: phantom output id=%h at cycle %0d", out_id, cycles); $fatal(1);
      end
      if (outstanding > 0 && !busy) begin
        $display("FAIL: busy low with %0d primitive(s) outstanding at cycle %0d", outstanding, cycles); $fatal(1);
      end
      outstanding = outstanding + tk - ((out_valid && out_ready) ? 1 : 0);
      if (out_valid && out_ready) begin
        chk = next_prim(chk);
        if (chk >= MAXREC || out_id !== mem[chk][283:252] || out_tag !== mem[chk][251:236] ||
            out_mask !== mem[chk][MAX_GPUS-1:0]) begin
          $display("FAIL at cycle %0d: output #%0d id=%h tag=%h mask=%h; expected (vector record %0d, line %0d of %0s) id=%h tag=%h mask=%h",
                   cycles, nchk, out_id, out_tag, out_mask, chk, chk + 1, vectors, mem[chk][283:252], mem[chk][251:236],
                   mem[chk][MAX_GPUS-1:0]);
          $display("  reproduce: make sim-p2g-merge SEED=<seed of the vectors>   (+seed=%0d)", seed);
          $fatal(1);
        end
        chk = chk + 1;
        nchk = nchk + 1;
        idle <= 0;
      end else begin
        idle <= idle + 1;
        if (idle > 20000) begin $display("FAIL: watchdog, no output for 20000 cycles"); $fatal(1); end
      end
    end
  end
  always @(negedge clk) begin
    lfsr_out = lfsr_next(lfsr_out);
    out_ready <= (lfsr_out[15:0] % 100) >= stall;
  end

  initial begin
    if (!$value$plusargs("vectors=%s", vectors)) begin $display("FAIL: +vectors=FILE missing"); $fatal(1); end
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("stall=%d", stall)) stall = 30;
    if (!$value$plusargs("nrec=%d", nrec)) nrec = MAXREC;
    for (k = 0; k < MAXREC; k = k + 1) mem[k] = {4'hf, 284'd0};
    $readmemh(vectors, mem, 0, nrec - 1);
    lfsr_in = 32'h1234_5678 ^ seed; lfsr_out = 32'h8765_4321 ^ (seed * 7);
    rd = 0; chk = 0; nchk = 0; sent = 0; cycles = 0; idle = 0; outstanding = 0;
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    while (mem[rd][287:284] != 4'hf) begin
      if (mem[rd][287:284] == 4'h1) begin
        in_valid = {P{1'b0}};
        @(negedge clk);
        while (outstanding != 0 || busy) @(negedge clk);
        cfg_n = mem[rd][283:277]; cfg_w = mem[rd][276:262]; cfg_h = mem[rd][261:247];
        cfg_ts = mem[rd][246:243]; cfg_mode = mem[rd][242];
        sc_x0 = mem[rd][241:228]; sc_y0 = mem[rd][227:214]; sc_x1 = mem[rd][213:200]; sc_y1 = mem[rd][199:186];
        rd = rd + 1;
      end else begin
        // offer 0..P consecutive primitive records (stopping at a configuration record)
        lfsr_in = lfsr_next(lfsr_in);
        k = lfsr_in[7:0] % (P + 1);
        in_valid = {P{1'b0}};
        r = rd;
        for (j = 0; j < P; j = j + 1) begin
          if (j < k && mem[r][287:284] == 4'h2) begin
            in_valid[j] = 1'b1;
            in_id[j*32 +: 32] = mem[r][283:252]; in_tag[j*16 +: 16] = mem[r][251:236];
            x0[j*24 +: 24] = mem[r][235:212]; y0[j*24 +: 24] = mem[r][211:188]; x1[j*24 +: 24] = mem[r][187:164];
            y1[j*24 +: 24] = mem[r][163:140]; x2[j*24 +: 24] = mem[r][139:116]; y2[j*24 +: 24] = mem[r][115:92];
            flags[j*2 +: 2] = mem[r][91:90];
            r = r + 1;
          end
        end
        @(negedge clk);
        rd = rd + taken_q;
        sent = sent + taken_q;
      end
    end
    in_valid = {P{1'b0}};
    while (outstanding != 0 || busy) @(negedge clk);
    if (nchk != sent || nchk == 0) begin
      $display("FAIL: %0d primitives in, %0d masks checked", sent, nchk); $fatal(1);
    end
    $display("PASS: tb_p2g_merge P=%0d MAX_GPUS=%0d: %0d primitives, %0d masks checked in input order, %0d cycles",
             P, MAX_GPUS, sent, nchk, cycles);
    $finish;
  end
endmodule
`default_nettype wire
