`timescale 1ns/1ps
`default_nettype none
// Self-checking Icarus testbench of p2g_mapper. Stimulus and expected masks come from a vector file
// written by tb/p2g/p2g_vectors.c (the C functional definition); valid gaps and output backpressure come
// from a 32-bit LFSR seeded by +seed=, so runs are replayable. Prints PASS with the number of checks, or
// the first difference and FAIL (then $fatal).
// Handshake timing is checked every cycle, not only the output values (issue 12): an output with no
// primitive outstanding (e.g. a phantom output after reset) fails at once; out_valid and the output data
// must stay stable while out_valid && !out_ready; busy must be high while a primitive is outstanding; after
// a configuration change in_ready must be low for exactly build_cycles + 1 = 30 + ROWS cycles when n, W,
// tile size or mode changed (the residue tables are rebuilt) and must not drop when only H or the scissor
// changed (docs/p2g.md, cmodel/p2g/p2g_hw.h).
//   vvp tb.vvp +vectors=FILE [+seed=N] [+gap=PCT] [+stall=PCT] [+vcd=FILE]
module tb_p2g_mapper;
  parameter integer MAX_GPUS = 16;
  parameter integer ROWS     = 2;
  localparam integer MAXREC  = 200000;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;

  reg  [6:0]  cfg_n = 7'd1;
  reg  [14:0] cfg_w = 15'd1, cfg_h = 15'd1;
  reg  [3:0]  cfg_ts = 4'd5;
  reg         cfg_mode = 1'b0;
  reg  [13:0] sc_x0 = 14'd0, sc_y0 = 14'd0, sc_x1 = 14'd0, sc_y1 = 14'd0;
  reg         in_valid = 1'b0;
  wire        in_ready;
  reg  [31:0] in_id = 32'd0;
  reg  [15:0] in_tag = 16'd0;
  reg  [23:0] x0 = 24'd0, y0 = 24'd0, x1 = 24'd0, y1 = 24'd0, x2 = 24'd0, y2 = 24'd0;
  reg  [1:0]  flags = 2'd0;
  wire        out_valid;
  reg         out_ready = 1'b0;
  wire [31:0] out_id;
  wire [15:0] out_tag;
  wire [MAX_GPUS-1:0] out_mask;
  wire        busy;

  p2g_mapper #(.MAX_GPUS(MAX_GPUS), .ROWS(ROWS)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .cfg_n_gpus_i(cfg_n), .cfg_width_i(cfg_w), .cfg_height_i(cfg_h), .cfg_tile_log2_i(cfg_ts),
    .cfg_mode_i(cfg_mode), .cfg_sc_x0_i(sc_x0), .cfg_sc_y0_i(sc_y0), .cfg_sc_x1_i(sc_x1), .cfg_sc_y1_i(sc_y1),
    .in_valid_i(in_valid), .in_ready_o(in_ready), .in_prim_id_i(in_id), .in_tag_i(in_tag),
    .in_x0_i(x0), .in_y0_i(y0), .in_x1_i(x1), .in_y1_i(y1), .in_x2_i(x2), .in_y2_i(y2), .in_flags_i(flags),
    .out_valid_o(out_valid), .out_ready_i(out_ready), .out_prim_id_o(out_id), .out_tag_o(out_tag),
    .out_mask_o(out_mask), .busy_o(busy));

  reg [287:0] mem [0:MAXREC-1];
  reg [1023:0] vectors, vcd, vseed;
  integer seed, gap, stall;
  reg [31:0] lfsr_in, lfsr_out;
  integer rd, chk, sent, expected_total, cycles, idle;

  function [31:0] lfsr_next(input [31:0] s);  // Galois LFSR, taps 32,22,2,1
    lfsr_next = s[0] ? ((s >> 1) ^ 32'h80200003) : (s >> 1);
  endfunction
  // percent chance from the LFSR's low 7 bits folded to 0..99
  function chance(input [31:0] s, input integer pct);
    chance = ((s[15:0] % 100) < pct);
  endfunction

  // next primitive record index at or after i (skips configs); returns MAXREC at the end marker
  function integer next_prim(input integer i);
    integer j;
    begin
      j = i;
      while (j < MAXREC && mem[j][287:284] != 4'h2 && mem[j][287:284] != 4'hf) j = j + 1;
      if (j >= MAXREC || mem[j][287:284] == 4'hf) next_prim = MAXREC; else next_prim = j;
    end
  endfunction

  // checker: outputs come in input order; walk the primitive records. Handshakes are sampled at the rising
  // edge (pre-edge values), so the driver learns of an input handshake through `accepted`.
  reg accepted = 1'b0;
  integer nchk = 0;
  integer outstanding = 0;              // accepted inputs not yet output
  reg held = 1'b0;                      // out_valid && !out_ready at the last edge: the output must hold
  reg [31:0] held_id; reg [15:0] held_tag; reg [MAX_GPUS-1:0] held_mask;
  always @(posedge clk) begin
    accepted <= in_valid && in_ready;
    if (!rst_n && out_valid) begin
      $display("FAIL: handshake: out_valid high during reset (cycle %0d)", cycles);
      $fatal(1);
    end
    if (rst_n) begin
      // handshake protocol, before the values
      if (out_valid && outstanding == 0) begin
        $display("FAIL: handshake: phantom output (out_valid with no primitive outstanding) id=%h mask=%h at cycle %0d",
                 out_id, out_mask, cycles);
        $display("  reproduce: make sim-p2g SEED=%0s   (this run's +seed=%0d)", vseed, seed);
        $fatal(1);
      end
      if (held && (!out_valid || out_id !== held_id || out_tag !== held_tag || out_mask !== held_mask)) begin
        $display("FAIL: handshake: output changed while stalled (out_valid && !out_ready at the previous edge) at cycle %0d:", cycles);
        $display("  was valid id=%h tag=%h mask=%h, now valid=%b id=%h tag=%h mask=%h", held_id, held_tag, held_mask,
                 out_valid, out_id, out_tag, out_mask);
        $fatal(1);
      end
      if (outstanding > 0 && !busy) begin
        $display("FAIL: handshake: busy low with %0d primitive(s) outstanding at cycle %0d", outstanding, cycles);
        $fatal(1);
      end
      held <= out_valid && !out_ready;
      held_id <= out_id; held_tag <= out_tag; held_mask <= out_mask;
      outstanding = outstanding + ((in_valid && in_ready) ? 1 : 0) - ((out_valid && out_ready) ? 1 : 0);
      cycles <= cycles + 1;
      if (out_valid && out_ready) begin
        chk = next_prim(chk);
        if (chk >= MAXREC) begin
          $display("FAIL: output id=%h with no primitive outstanding (cycle %0d)", out_id, cycles);
          $fatal(1);
        end
        if (out_id !== mem[chk][283:252] || out_tag !== mem[chk][251:236] ||
            out_mask !== mem[chk][MAX_GPUS-1:0]) begin
          $display("FAIL at cycle %0d, vector record %0d (line %0d of %0s):", cycles, chk, chk + 1, vectors);
          $display("  prim_id DUT %h expected %h", out_id, mem[chk][283:252]);
          $display("  tag     DUT %h expected %h", out_tag, mem[chk][251:236]);
          $display("  mask    DUT %h expected %h", out_mask, mem[chk][MAX_GPUS-1:0]);
          $display("  reproduce: make sim-p2g SEED=%0s   (vectors from SEED; this run's +seed=%0d drives gaps and stalls)", vseed, seed);
          $fatal(1);
        end
        chk = chk + 1;
        nchk = nchk + 1;
        idle <= 0;
      end else begin
        idle <= idle + 1;
        if (idle > 20000) begin
          $display("FAIL: watchdog, no output for 20000 cycles at cycle %0d", cycles);
          $fatal(1);
        end
      end
    end
  end

  // output backpressure, changed after each falling edge
  always @(negedge clk) begin
    lfsr_out = lfsr_next(lfsr_out);
    out_ready <= !chance(lfsr_out, stall);
  end

  integer k, lows, keychg, nkey, nnokey;
  reg [6:0] pn; reg [14:0] pw; reg [3:0] pts; reg pmode;
  localparam integer BUILD = 29 + ROWS;   // p2g_hw_build_cycles(ROWS)
  initial begin
    if (!$value$plusargs("vectors=%s", vectors)) begin
      $display("FAIL: give +vectors=FILE"); $fatal(1);
    end
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("vseed=%s", vseed)) vseed = "?";
    if (!$value$plusargs("gap=%d", gap)) gap = 20;
    if (!$value$plusargs("stall=%d", stall)) stall = 30;
    if ($value$plusargs("vcd=%s", vcd)) begin
      $dumpfile(vcd); $dumpvars(0, tb_p2g_mapper);
    end
    for (k = 0; k < MAXREC; k = k + 1) mem[k] = {4'hf, 284'd0};
    if (!$value$plusargs("nrec=%d", k)) k = MAXREC;
    if (k > MAXREC) begin
      $display("FAIL: %0d vector records, the testbench holds %0d (raise MAXREC or use fewer primitives)", k, MAXREC);
      $fatal(1);
    end
    $readmemh(vectors, mem, 0, k - 1);
    lfsr_in = 32'h1234567 ^ seed; lfsr_out = 32'hace1 ^ (seed << 3);
    if (lfsr_in == 0) lfsr_in = 32'h1;      // an all-zero LFSR would stay zero
    if (lfsr_out == 0) lfsr_out = 32'h1;
    chk = 0; sent = 0; cycles = 0; idle = 0; expected_total = 0; nkey = 0; nnokey = 0;
    for (k = 0; k < MAXREC && mem[k][287:284] != 4'hf; k = k + 1)
      if (mem[k][287:284] == 4'h2) expected_total = expected_total + 1;
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    rd = 0;
    while (mem[rd][287:284] != 4'hf) begin
      @(negedge clk);
      if (mem[rd][287:284] == 4'h1) begin
        // configuration: wait until every primitive sent so far is checked and the unit is idle, change
        // it, then let it settle 3 cycles (the configuration is quasi-static)
        while (nchk != sent || busy) @(negedge clk);
        pn = cfg_n; pw = cfg_w; pts = cfg_ts; pmode = cfg_mode;
        cfg_n = mem[rd][283:277]; cfg_w = mem[rd][276:262]; cfg_h = mem[rd][261:247];
        cfg_ts = mem[rd][246:243]; cfg_mode = mem[rd][242];
        sc_x0 = mem[rd][241:228]; sc_y0 = mem[rd][227:214]; sc_x1 = mem[rd][213:200]; sc_y1 = mem[rd][199:186];
        // handshake timing of the table rebuild: count the cycles in_ready stays low from the change on
        keychg = (cfg_n != pn) || (cfg_w != pw) || (cfg_ts != pts) || (cfg_mode != pmode);
        lows = 0;
        #1;
        while (!in_ready && lows < 4 * BUILD) begin
          lows = lows + 1;
          @(negedge clk); #1;
        end
        if (keychg ? (lows != BUILD + 1) : (lows != 0)) begin
          $display("FAIL: handshake: after a configuration change (n %0d->%0d W %0d->%0d tile_log2 %0d->%0d mode %0d->%0d) in_ready was low for %0d cycles, expected %0d (cycle %0d, vector record %0d)",
                   pn, cfg_n, pw, cfg_w, pts, cfg_ts, pmode, cfg_mode, lows, keychg ? BUILD + 1 : 0, cycles, rd);
          $display("  reproduce: make sim-p2g SEED=%0s", vseed);
          $fatal(1);
        end
        if (keychg) nkey = nkey + 1; else nnokey = nnokey + 1;
        repeat (4) @(negedge clk);   // CFG_SETTLE
      end else begin
        // primitive: random gap before valid, then hold valid and data until accepted
        lfsr_in = lfsr_next(lfsr_in);
        while (chance(lfsr_in, gap)) begin
          @(negedge clk);
          lfsr_in = lfsr_next(lfsr_in);
        end
        in_id = mem[rd][283:252]; in_tag = mem[rd][251:236];
        x0 = mem[rd][235:212]; y0 = mem[rd][211:188]; x1 = mem[rd][187:164];
        y1 = mem[rd][163:140]; x2 = mem[rd][139:116]; y2 = mem[rd][115:92]; flags = mem[rd][91:90];
        in_valid = 1'b1;
        @(negedge clk);
        while (!accepted) @(negedge clk);
        in_valid = 1'b0;
        sent = sent + 1;
      end
      rd = rd + 1;
    end
    while (nchk != sent || busy) @(negedge clk);
    if (expected_total == 0 || nchk != expected_total) begin
      $display("FAIL: %0d of %0d primitives checked", nchk, expected_total);
      $fatal(1);
    end
    $display("PASS: tb_p2g_mapper MAX_GPUS=%0d ROWS=%0d: %0d primitives, %0d masks checked, %0d cycles, handshakes checked every cycle, rebuild timing after %0d table-rebuilding and %0d other configuration changes",
             MAX_GPUS, ROWS, sent, nchk, cycles, nkey, nnokey);
    $finish;
  end
endmodule
`default_nettype wire
