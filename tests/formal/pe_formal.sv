`default_nettype none
// Bounded proofs of pe_exchanger (rtl/pe_exchanger.v) with Yosys + yosys-smtbmc (tests/formal/pe_formal.sh,
// docs/pe.md "Formal"). This wrapper is NOT part of the synthesized RTL: it instantiates the unchanged unit,
// constrains its inputs (assume) and checks properties (assert). Internal signals are read through probe
// wires that the flow connects after `flatten` (`connect -set probe dut.<signal>`: Yosys 0.23 has no `bind`).
//
// Environment (assumptions): reset in the first cycle; configuration constant and legal (1 <= n <= MAX_GPUS,
// gpu_id < n, any topology, runahead on or off); valid/ready inputs hold valid and data until accepted;
// tx_ready and out_ready free; no input beat or rx flit during reset; rx flits are PRIM (addressed to this
// GPU) or LAST, from another GPU < n, tagged with one of the two live batches (ob, ob+1), each LAST(T, j) at
// most once and no PRIM(T) from j after LAST(T, j); P2G beats carry the expected batch tags, masks free.
// Everything else (order and timing of rx flits, backpressure, masks, ids) is free.
//
// Properties:
//   F1 queues: the local queue and both receive banks are never pushed when full nor popped when empty, and
//      their counts never exceed the depth.
//   F2 TX/link: a flit on tx*_flit_o stays, unchanged and valid, until the link takes it; the turn engine never
//      loads a TX register the link has not emptied; loads minus link handshakes is 0 or 1 and equals valid
//      (no flit lost, none duplicated between the turn engine and the link).
//   F3 each LQ entry produces exactly one PRIM per destination in its mask (other than this GPU) plus the keep
//      of this GPU, nothing twice, before it leaves the LQ; an END produces LAST on exactly the needed ports.
//   F4 turn order: a flit of batch T is produced only when LAST(T, j) arrived from every j < gpu_id, and (T > 0)
//      when LAST(T-1, j) arrived from every j != gpu_id (CD of T-1 complete here).
//   F5 in-order output: the output's primitive ids of a batch are exactly the ids received (rx PRIM
//      handshakes) and kept, in that order; output tags advance 0, 1, 2, ...; end-of-batch T only when
//      LAST(T, j) arrived from every j != gpu_id, this GPU's LAST(T) was produced and nothing of T is left.
//   I1..I9 invariants relating the unit's state (counters, queue pointers and contents) to the environment's
//   shadow state (below); with them every property is inductive (tests/formal/pe_induct.sh); C1..C11 covers.
// The batch shadow state is a ring of NT = 8 slots indexed by tag mod 8 (a slot is cleared when its batch
// leaves the live window), so no property or assumption limits the number of batches or the trace length.
module pe_formal #(
  parameter integer MAX_GPUS = 3,
  parameter integer LQ_DEPTH = 2,
  parameter integer RQ_DEPTH = 2,
  parameter integer NT       = 8     // slots of the batch shadow ring (tag mod NT)
) (
  input wire                clk_i,
  input wire [6:0]          cfg_n_gpus_i,
  input wire [5:0]          cfg_gpu_id_i,
  input wire                cfg_topo_i,
  input wire                cfg_runahead_i,
  input wire                in_valid_i,
  input wire                in_end_i,
  input wire [15:0]         in_tag_i,
  input wire [31:0]         in_prim_id_i,
  input wire [MAX_GPUS-1:0] in_mask_i,
  input wire                tx0_ready_i,
  input wire                tx1_ready_i,
  input wire                rx0_valid_i,
  input wire [63:0]         rx0_flit_i,
  input wire                rx1_valid_i,
  input wire [63:0]         rx1_flit_i,
  input wire                out_ready_i
);
  localparam integer M = MAX_GPUS;
  localparam integer LQC_W = $clog2(LQ_DEPTH + 1);
  localparam integer RQC_W = $clog2(RQ_DEPTH + 1);
  localparam integer LQP_W = $clog2(LQ_DEPTH);
  localparam integer RQP_W = $clog2(RQ_DEPTH);
  localparam integer LQ_W  = 1 + 16 + 32 + M;

  reg init = 1'b1;
  always @(posedge clk_i) init <= 1'b0;
  wire rst_ni = !init;

  wire in_ready, tx0_valid, tx1_valid, rx0_ready, rx1_ready, out_valid, out_eob, busy, err;
  wire [63:0] tx0_flit, tx1_flit;
  wire [15:0] out_tag, cur_tag;
  wire [31:0] out_id;
  pe_exchanger #(.MAX_GPUS(MAX_GPUS), .LQ_DEPTH(LQ_DEPTH), .RQ_DEPTH(RQ_DEPTH)) dut (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .cfg_n_gpus_i(cfg_n_gpus_i), .cfg_gpu_id_i(cfg_gpu_id_i), .cfg_topo_i(cfg_topo_i), .cfg_runahead_i(cfg_runahead_i),
    .in_valid_i(in_valid_i), .in_ready_o(in_ready), .in_end_i(in_end_i), .in_tag_i(in_tag_i),
    .in_prim_id_i(in_prim_id_i), .in_mask_i(in_mask_i),
    .tx0_valid_o(tx0_valid), .tx0_ready_i(tx0_ready_i), .tx0_flit_o(tx0_flit),
    .tx1_valid_o(tx1_valid), .tx1_ready_i(tx1_ready_i), .tx1_flit_o(tx1_flit),
    .rx0_valid_i(rx0_valid_i), .rx0_ready_o(rx0_ready), .rx0_flit_i(rx0_flit_i),
    .rx1_valid_i(rx1_valid_i), .rx1_ready_o(rx1_ready), .rx1_flit_i(rx1_flit_i),
    .out_valid_o(out_valid), .out_ready_i(out_ready_i), .out_eob_o(out_eob), .out_tag_o(out_tag),
    .out_prim_id_o(out_id), .busy_o(busy), .cur_tag_o(cur_tag), .err_o(err));

  // ---------------------------------------------------------------- probes (connected by the flow script)
  (* keep *) wire             p_lq_push, p_lq_pop, p_bk0_push, p_bk0_pop, p_bk1_push, p_bk1_pop;
  (* keep *) wire [LQC_W-1:0] p_lq_cnt;
  (* keep *) wire [RQC_W-1:0] p_bk0_cnt, p_bk1_cnt;
  (* keep *) wire             p_prim0, p_prim1, p_last0, p_last1, p_keep, p_entry_pop, p_end_pop, p_head_end;
  (* keep *) wire [5:0]       p_t0, p_t1;
  (* keep *) wire [M-1:0]     p_head_mask;
  (* keep *) wire [15:0]      p_head_tag;
  (* keep *) wire [31:0]      p_head_id;
  (* keep *) wire [15:0]      p_ob, p_in_b, p_cur;
  (* keep *) wire             p_turn_done;
  (* keep *) wire             p_rem_v;
  (* keep *) wire [M-1:0]     p_rem, p_lasts0, p_lasts1;
  (* keep *) wire [1:0]       p_last_sent;
  (* keep *) wire [LQP_W-1:0] p_lq_rp, p_lq_wp;
  (* keep *) wire [RQP_W-1:0] p_bk0_rp, p_bk0_wp, p_bk1_rp, p_bk1_wp;
  (* keep *) wire [LQ_DEPTH*LQ_W-1:0] p_lqm;     // the queue words, word k at [k*LQ_W +: LQ_W]
  (* keep *) wire [RQ_DEPTH*32-1:0]   p_bk0m, p_bk1m;

  // ---------------------------------------------------------------- assumptions
  wire [6:0] gid = {1'b0, cfg_gpu_id_i};
  // (combinational on registered copies: a clocked assume would leave the last step of the bound unconstrained)
  reg [14:0]  pv_cfg;
  reg         pv_in_hold, pv_rx0_hold, pv_rx1_hold, pv_in_end;
  reg [15:0]  pv_in_tag;
  reg [31:0]  pv_in_id;
  reg [M-1:0] pv_in_mask;
  reg [63:0]  pv_rx0, pv_rx1;
  always @(posedge clk_i) begin
    pv_cfg <= {cfg_n_gpus_i, cfg_gpu_id_i, cfg_topo_i, cfg_runahead_i};
    pv_in_hold <= in_valid_i && !in_ready;
    pv_rx0_hold <= rx0_valid_i && !rx0_ready;
    pv_rx1_hold <= rx1_valid_i && !rx1_ready;
    pv_in_end <= in_end_i; pv_in_tag <= in_tag_i; pv_in_id <= in_prim_id_i; pv_in_mask <= in_mask_i;
    pv_rx0 <= rx0_flit_i; pv_rx1 <= rx1_flit_i;
  end
  always @* begin
    if (init) begin
      assume (!in_valid_i && !rx0_valid_i && !rx1_valid_i);
    end else begin
      assume ({cfg_n_gpus_i, cfg_gpu_id_i, cfg_topo_i, cfg_runahead_i} == pv_cfg);
      if (pv_in_hold)
        assume (in_valid_i && in_end_i == pv_in_end && in_tag_i == pv_in_tag && in_prim_id_i == pv_in_id &&
                in_mask_i == pv_in_mask);
      if (pv_rx0_hold) assume (rx0_valid_i && rx0_flit_i == pv_rx0);
      if (pv_rx1_hold) assume (rx1_valid_i && rx1_flit_i == pv_rx1);
    end
  end
  always @* begin
    assume (cfg_n_gpus_i >= 7'd1 && cfg_n_gpus_i <= M && gid < cfg_n_gpus_i);
    assume (in_tag_i == in_b);
  end
  // ---------------------------------------------------------------- shadow state (from ports and probes)
  wire [M-1:0] all_m  = ~({M{1'b1}} << cfg_n_gpus_i);
  wire [M-1:0] gbit   = ({{(M-1){1'b0}}, 1'b1} << gid) & all_m;
  wire [M-1:0] below  = ~({M{1'b1}} << gid) & all_m;
  wire line = !cfg_topo_i;
  wire need0 = line ? (gid != 7'd0) : (cfg_n_gpus_i > 7'd1);
  wire need1 = line && (gid + 7'd1 < cfg_n_gpus_i);
  wire rx0_hs = rx0_valid_i && rx0_ready, rx1_hs = rx1_valid_i && rx1_ready;
  wire tx0_hs = tx0_valid && tx0_ready_i, tx1_hs = tx1_valid && tx1_ready_i;
  wire out_hs = out_valid && out_ready_i;

  // LAST(T, j) received (got_v[(T mod NT)*M + j]) and this GPU's LAST(T) produced per port
  // (lmade_v[2(T mod NT) + p]); the slot of batch ob - 1 is cleared when the output's batch ob ends
  reg [15:0] ob = 16'd0;          // the environment's output batch (end-of-batch handshakes)
  reg [NT*M-1:0] got_v = {(NT*M){1'b0}};
  reg [2*NT-1:0] lmade_v = {(2*NT){1'b0}};
  reg [NT*M-1:0] got_n;
  wire [2:0]     ob_m1 = ob[2:0] - 3'd1;         // ring slot of batch ob - 1 (3-bit arithmetic)
  reg [2*NT-1:0] lmade_n;
  integer t;
  always @* begin
    got_n = got_v;
    lmade_n = lmade_v;
    for (t = 0; t < NT; t = t + 1) begin
      if (out_hs && out_eob && ob_m1 == t) begin
        got_n[t*M +: M] = {M{1'b0}};
        lmade_n[2*t +: 2] = 2'b00;
      end
      if (rx0_hs && rx0_flit_i[63:61] == 3'd2 && rx0_flit_i[34:32] == t)
        got_n[t*M +: M] = got_n[t*M +: M] | ({{(M-1){1'b0}}, 1'b1} << rx0_flit_i[60:55]);
      if (rx1_hs && rx1_flit_i[63:61] == 3'd2 && rx1_flit_i[34:32] == t)
        got_n[t*M +: M] = got_n[t*M +: M] | ({{(M-1){1'b0}}, 1'b1} << rx1_flit_i[60:55]);
      if (p_last0 && p_head_tag[2:0] == t) lmade_n[2*t] = 1'b1;
      if (p_last1 && p_head_tag[2:0] == t) lmade_n[2*t+1] = 1'b1;
    end
  end
  // (every shadow register is also cleared in the reset cycle, so that an induction trace that passes
  // through reset starts the shadow state afresh, like the unit's)
  always @(posedge clk_i) begin
    if (init) begin
      got_v <= {(NT*M){1'b0}};
      lmade_v <= {(2*NT){1'b0}};
    end else begin
      got_v <= got_n;
      lmade_v <= lmade_n;
    end
  end
  wire [M-1:0] got_head = got_v[p_head_tag[2:0]*M +: M];
  wire [2:0]   head_m1  = p_head_tag[2:0] - 3'd1;
  wire [M-1:0] got_prev = got_v[head_m1*M +: M];
  wire [M-1:0] got_out  = got_v[out_tag[2:0]*M +: M];
  wire [1:0]   lm_out   = lmade_v[2*out_tag[2:0] +: 2];

  // input batch counter (END beats accepted)
  reg [15:0] in_b = 16'd0;
  always @(posedge clk_i) if (init) in_b <= 16'd0; else if (in_valid_i && in_ready && in_end_i) in_b <= in_b + 16'd1;

  // rx flits: PRIM to this GPU or LAST broadcast, from another existing GPU, tagged with one of the two live
  // batches (ob, ob+1: the unit's documented contract), each LAST(T, j) at most once, and no PRIM(T) from j
  // after LAST(T, j) (SPEC 4.2: markers travel the same FIFOs as the data they close)
  function automatic legal_rx(input [63:0] f);
    legal_rx = ((f[63:61] == 3'd1 && f[54:48] == gid && !got_v[f[34:32]*M + f[60:55]]) ||
                (f[63:61] == 3'd2 && f[54:48] == 7'd127 && !got_v[f[34:32]*M + f[60:55]])) &&
               ({1'b0, f[60:55]} < cfg_n_gpus_i) && ({1'b0, f[60:55]} != gid) &&
               (f[47:32] == p_ob || f[47:32] == p_ob + 16'd1);
  endfunction
  always @* begin
    if (rx0_valid_i) assume (legal_rx(rx0_flit_i));
    if (rx1_valid_i) assume (legal_rx(rx1_flit_i));
    // one LAST(T, j) per cycle pair: not the same one on both ports
    if (rx0_valid_i && rx1_valid_i && rx0_flit_i[63:61] == 3'd2 && rx1_flit_i[63:61] == 3'd2)
      assume (rx0_flit_i[60:32] != rx1_flit_i[60:32]);
  end


  // F2: TX registers vs the link
  reg [1:0] tx0_out = 2'd0, tx1_out = 2'd0;  // loads minus handshakes
  always @(posedge clk_i) begin
    if (init) begin
      tx0_out <= 2'd0;
      tx1_out <= 2'd0;
    end else begin
      tx0_out <= tx0_out + (p_prim0 || p_last0) - tx0_hs;
      tx1_out <= tx1_out + (p_prim1 || p_last1) - tx1_hs;
    end
  end

  // F3: destinations produced for the LQ head entry
  reg [M-1:0] made = {M{1'b0}};
  wire [M-1:0] oh0 = {{(M-1){1'b0}}, 1'b1} << p_t0;
  wire [M-1:0] oh1 = {{(M-1){1'b0}}, 1'b1} << p_t1;
  wire [M-1:0] made_now = (p_prim0 ? oh0 : {M{1'b0}}) | (p_prim1 ? oh1 : {M{1'b0}}) | (p_keep ? gbit : {M{1'b0}});
  always @(posedge clk_i) made <= (init || p_entry_pop) ? {M{1'b0}} : (made | made_now);
  reg [1:0] lmade = 2'b00;
  always @(posedge clk_i) lmade <= (init || p_end_pop) ? 2'b00 : (lmade | {p_last1, p_last0});

  // F5: the received-and-kept order, per batch parity (shadow FIFOs of depth 8), and the output batch
  reg [31:0] sq0 [0:7];
  reg [31:0] sq1 [0:7];
  reg [3:0]  s0_h = 4'd0, s0_t = 4'd0, s1_h = 4'd0, s1_t = 4'd0;
  wire rx0_p = rx0_hs && rx0_flit_i[63:61] == 3'd1, rx1_p = rx1_hs && rx1_flit_i[63:61] == 3'd1;
  // pushes in the unit's priority order: rx0, rx1, keep (they never target one bank twice in a cycle)
  wire [1:0] push0 = (rx0_p && !rx0_flit_i[32]) + (rx1_p && !rx1_flit_i[32]) + (p_keep && !p_head_tag[0]);
  wire [1:0] push1 = (rx0_p &&  rx0_flit_i[32]) + (rx1_p &&  rx1_flit_i[32]) + (p_keep &&  p_head_tag[0]);
  wire [31:0] w0 = (rx0_p && !rx0_flit_i[32]) ? rx0_flit_i[31:0] : (rx1_p && !rx1_flit_i[32]) ? rx1_flit_i[31:0] : p_head_id;
  wire [31:0] w1 = (rx0_p &&  rx0_flit_i[32]) ? rx0_flit_i[31:0] : (rx1_p &&  rx1_flit_i[32]) ? rx1_flit_i[31:0] : p_head_id;
  wire pop_item = out_hs && !out_eob;
  reg eob_shown = 1'b0;
  always @(posedge clk_i) eob_shown <= !init && out_valid && out_eob && !out_ready_i;
  always @(posedge clk_i) if (init) begin
    s0_h <= 4'd0; s0_t <= 4'd0; s1_h <= 4'd0; s1_t <= 4'd0; ob <= 16'd0;
  end else begin
    if (push0 != 2'd0) begin sq0[s0_t[2:0]] <= w0; s0_t <= s0_t + 4'd1; end
    if (push1 != 2'd0) begin sq1[s1_t[2:0]] <= w1; s1_t <= s1_t + 4'd1; end
    if (pop_item && !out_tag[0]) s0_h <= s0_h + 4'd1;
    if (pop_item &&  out_tag[0]) s1_h <= s1_h + 4'd1;
    if (out_hs && out_eob) ob <= ob + 16'd1;
  end

  // ---------------------------------------------------------------- assertions
  always @* begin
    if (!init) begin
      // F1
      assert (p_lq_cnt <= LQ_DEPTH && p_bk0_cnt <= RQ_DEPTH && p_bk1_cnt <= RQ_DEPTH);
      assert (!(p_lq_push && p_lq_cnt == LQ_DEPTH) && !(p_lq_pop && p_lq_cnt == 0));
      assert (!(p_bk0_push && p_bk0_cnt == RQ_DEPTH) && !(p_bk0_pop && p_bk0_cnt == 0));
      assert (!(p_bk1_push && p_bk1_cnt == RQ_DEPTH) && !(p_bk1_pop && p_bk1_cnt == 0));
      // F2
      assert (!((p_prim0 || p_last0) && tx0_valid && !tx0_ready_i));
      assert (!((p_prim1 || p_last1) && tx1_valid && !tx1_ready_i));
      assert (tx0_out <= 2'd1 && tx1_out <= 2'd1);
      assert (tx0_valid == (tx0_out == 2'd1) && tx1_valid == (tx1_out == 2'd1));
      // Invariants (hold in every reachable state; with them F1, F2, the tags of F5 and err = 0 are inductive):
      // I1 the unit's next input batch is the environment's; I2 the output batch counter is one ahead of the
      // output register's tag while it holds an end-of-batch, equal otherwise
      assert (p_in_b == in_b);
      if (out_valid) assert (out_tag == (out_eob ? p_ob - 16'd1 : p_ob));
      assert (ob == ((out_valid && out_eob) ? p_ob - 16'd1 : p_ob));
    end
  end
  always @* begin
    if (!init) begin
      // F3
      assert ((made & made_now) == {M{1'b0}});
      assert (((p_prim0 ? oh0 : {M{1'b0}}) & (p_prim1 ? oh1 : {M{1'b0}})) == {M{1'b0}});
      if (p_prim0 || p_prim1 || p_keep) assert (!p_head_end && (made_now & ~(p_head_mask & all_m)) == {M{1'b0}});
      if (p_prim0) assert (p_t0 != gid[5:0] && (line ? (oh0 & below) != {M{1'b0}} : 1'b1));
      if (p_prim1) assert (line && (oh1 & ~below & ~gbit & all_m) != {M{1'b0}});
      if (p_entry_pop) assert ((made | made_now) == (p_head_mask & all_m));
      if (p_last0 || p_last1) assert (p_head_end && !((p_last0 && (lmade[0] || !need0)) || (p_last1 && (lmade[1] || !need1))));
      if (p_end_pop) assert ((lmade | {p_last1, p_last0}) == {need1, need0});
      // F4
      if (p_prim0 || p_prim1 || p_keep || p_last0 || p_last1) begin
        assert ((got_head & below) == below);
        if (!(virgin && p_head_tag == 16'd0)) assert ((got_prev | gbit) == all_m);
      end
      // F5
      assert (s0_t - s0_h <= 4'd8 && s1_t - s1_h <= 4'd8);
      if (pop_item && !out_tag[0]) assert (s0_h != s0_t && out_id == sq0[s0_h[2:0]]);
      if (pop_item &&  out_tag[0]) assert (s1_h != s1_t && out_id == sq1[s1_h[2:0]]);
      if (out_valid && out_eob && !eob_shown) begin   // the cycle after the end-of-batch was loaded
        assert ((got_out | gbit) == all_m);
        assert (lm_out == {need1, need0});
        assert (out_tag[0] ? s1_h == s1_t : s0_h == s0_t);
      end
    end
  end
  always @* begin
    if (!init) begin
      if (out_valid) assert (out_tag == ob);   // F5: output tags advance 0, 1, 2, ...
      assert (!err);                            // legal traffic never raises err_o
    end
  end

  // ---------------------------------------------------------------- invariants over the unit's state (I3..I9)
  // They hold in every reachable state (asserted in the bounded proof too); with them every property above is
  // inductive. docs/pe.md 4.5 states each in words.
  reg virgin = 1'b1;    // no end-of-batch taken yet: batch -1 (ring slot 7) does not exist
  always @(posedge clk_i) if (init) virgin <= 1'b1; else if (out_hs && out_eob) virgin <= 1'b0;
  wire [1:0]   need2 = {need1, need0};
  wire [M-1:0] lasts_cur = p_cur[0] ? p_lasts1 : p_lasts0;
  wire [M-1:0] lasts_nxt = p_cur[0] ? p_lasts0 : p_lasts1;
  wire turn_ok = (p_lq_cnt != {LQC_W{1'b0}}) && !p_turn_done && (p_ob == p_cur) && ((lasts_cur & below) == below);
  wire off0 = out_valid && !out_eob && !out_tag[0];   // the output register holds an id of parity 0 / 1
  wire off1 = out_valid && !out_eob &&  out_tag[0];
  integer k, r, u;
  // I4: LQ words in order carry the tags cur + turn_done + (END words before them); in_b_q follows the last
  reg              lq_tags_ok;
  reg [15:0]       lq_acc;
  reg [LQ_W-1:0]   lq_w;
  // I5: receive bank words in order are the shadow queue of their parity after the id in the output register
  reg              bk_ok;
  reg [31:0]       b0_w, b1_w;
  reg [3:0]        q0_ix, q1_ix;
  always @* begin
    lq_tags_ok = 1'b1;
    lq_acc = p_cur + {15'd0, p_turn_done};
    for (k = 0; k < LQ_DEPTH; k = k + 1) begin
      lq_w = {LQ_W{1'b0}};
      for (r = 0; r < LQ_DEPTH; r = r + 1)
        if (p_lq_rp == r) lq_w = p_lqm[((r + k) % LQ_DEPTH)*LQ_W +: LQ_W];
      if (k < p_lq_cnt) begin
        if (lq_w[M+32 +: 16] != lq_acc) lq_tags_ok = 1'b0;
        if (lq_w[LQ_W-1]) lq_acc = lq_acc + 16'd1;
      end
    end
    bk_ok = 1'b1;
    for (k = 0; k < RQ_DEPTH; k = k + 1) begin
      b0_w = 32'd0;
      b1_w = 32'd0;
      for (r = 0; r < RQ_DEPTH; r = r + 1) begin
        if (p_bk0_rp == r) b0_w = p_bk0m[((r + k) % RQ_DEPTH)*32 +: 32];
        if (p_bk1_rp == r) b1_w = p_bk1m[((r + k) % RQ_DEPTH)*32 +: 32];
      end
      q0_ix = s0_h + off0 + k;
      q1_ix = s1_h + off1 + k;
      if (k < p_bk0_cnt && b0_w != sq0[q0_ix[2:0]]) bk_ok = 1'b0;
      if (k < p_bk1_cnt && b1_w != sq1[q1_ix[2:0]]) bk_ok = 1'b0;
    end
  end
  // I7: FIFO pointers, write = read + count (mod depth)
  reg ptr_ok;
  always @* begin
    ptr_ok = 1'b1;
    for (r = 0; r < LQ_DEPTH; r = r + 1)
      for (k = 0; k <= LQ_DEPTH; k = k + 1)
        if (p_lq_rp == r && p_lq_cnt == k && p_lq_wp != (r + k) % LQ_DEPTH) ptr_ok = 1'b0;
    for (r = 0; r < RQ_DEPTH; r = r + 1)
      for (k = 0; k <= RQ_DEPTH; k = k + 1) begin
        if (p_bk0_rp == r && p_bk0_cnt == k && p_bk0_wp != (r + k) % RQ_DEPTH) ptr_ok = 1'b0;
        if (p_bk1_rp == r && p_bk1_cnt == k && p_bk1_wp != (r + k) % RQ_DEPTH) ptr_ok = 1'b0;
      end
  end
  // I6: the batch ring. Slot of batch T, offset o = T - (ob - 1) (0..7): o > 3 (and batch -1) empty; T < cur:
  // LAST from every other GPU and this GPU's LAST on every needed port; T = cur: the unit's LAST markers of cur,
  // this GPU's LAST as far as sent; T = cur + 1: the markers of the other bank; later batches empty.
  reg          ring_ok;
  reg [2:0]    ro;
  reg [15:0]   rc1;
  reg [M-1:0]  rg;
  reg [1:0]    rl;
  always @* begin
    ring_ok = 1'b1;
    rc1 = p_cur - ob + 16'd1;
    for (u = 0; u < NT; u = u + 1) begin
      rg = got_v[u*M +: M];
      rl = lmade_v[2*u +: 2];
      ro = u[2:0] - (ob[2:0] - 3'd1);
      if ((rg & ~(all_m & ~gbit)) != {M{1'b0}}) ring_ok = 1'b0;
      if ((ro == 3'd0 && virgin) || ro > 3'd3) begin
        if (rg != {M{1'b0}} || rl != 2'b00) ring_ok = 1'b0;
      end else if ({13'd0, ro} < rc1) begin
        if ((rg | gbit) != all_m || rl != need2) ring_ok = 1'b0;
      end else if ({13'd0, ro} == rc1) begin
        if (rg != lasts_cur || rl != (p_turn_done ? need2 : p_last_sent)) ring_ok = 1'b0;
      end else if ({13'd0, ro} == rc1 + 16'd1) begin
        if (rg != lasts_nxt || rl != 2'b00) ring_ok = 1'b0;
      end else begin
        if (rg != {M{1'b0}} || rl != 2'b00) ring_ok = 1'b0;
      end
    end
  end
  always @* begin
    if (!init) begin
      // I3 the CD batch is ob, or ob + 1 with its turn not yet taken; the input batch is at most cur + 1
      // (cur + 2 with runahead)
      assert (p_cur == p_ob || (p_cur == p_ob + 16'd1 && !p_turn_done));
      assert (p_in_b - p_cur <= (cfg_runahead_i ? 16'd2 : 16'd1));
      if (p_cur != p_ob) assert (lasts_nxt == {M{1'b0}});
      // I4
      assert (lq_tags_ok && lq_acc == p_in_b);
      // I5 (+ the queue counts and the id in the output register)
      assert (bk_ok);
      assert (s0_t - s0_h == {{(4-RQC_W){1'b0}}, p_bk0_cnt} + {3'd0, off0});
      assert (s1_t - s1_h == {{(4-RQC_W){1'b0}}, p_bk1_cnt} + {3'd0, off1});
      if (off0) assert (out_id == sq0[s0_h[2:0]]);
      if (off1) assert (out_id == sq1[s1_h[2:0]]);
      if (eob_shown) assert (out_valid && out_eob);
      // I6
      assert (ring_ok);
      if (virgin) assert (ob == 16'd0);
      // I7 the FIFO pointers: write = read + count (mod depth)
      assert (p_lq_rp < LQ_DEPTH && p_lq_wp < LQ_DEPTH && p_bk0_rp < RQ_DEPTH && p_bk0_wp < RQ_DEPTH &&
              p_bk1_rp < RQ_DEPTH && p_bk1_wp < RQ_DEPTH);
      assert (ptr_ok);
      // I8 a partly sent entry: its turn holds, it is an entry, the remaining mask is a non-empty part of its
      // mask, and the wrapper's record of what was produced is the rest
      if (p_rem_v) assert (turn_ok && !p_head_end && p_rem != {M{1'b0}} && (p_rem & ~(p_head_mask & all_m)) == {M{1'b0}});
      assert (made == (p_rem_v ? (p_head_mask & all_m & ~p_rem) : {M{1'b0}}));
      // I9 a partly sent END: its turn holds, the ports sent are a strict part of the needed ones
      assert (lmade == p_last_sent && (p_last_sent & ~need2) == 2'b00);
      if (p_last_sent != 2'b00) assert (turn_ok && p_head_end && p_last_sent != need2);
    end
  end
  // Cover properties (yosys-smtbmc -c): each interesting state is reachable from reset.
  always @* begin
    if (!init) begin
      cover (p_lq_cnt == LQ_DEPTH);                              // C1 the local queue full
      cover (p_bk0_cnt == RQ_DEPTH);                             // C2 receive bank 0 full
      cover (p_bk1_cnt == RQ_DEPTH);                             // C3 receive bank 1 full
      cover (p_cur == p_ob + 16'd1 && p_in_b == p_cur + 16'd1);  // C4 two live batches (and the next one entering)
      cover (in_valid_i && !in_ready);                           // C5 back-pressure on the P2G input
      cover (rx0_valid_i && !rx0_ready);                         // C6 ... on rx port 0
      cover (rx1_valid_i && !rx1_ready);                         // C7 ... on rx port 1
      cover (tx0_valid && !tx0_ready_i);                         // C8 ... on tx port 0
      cover (tx1_valid && !tx1_ready_i);                         // C9 ... on tx port 1
      cover (out_valid && !out_ready_i);                         // C10 ... on the output
      cover (cfg_n_gpus_i == M && p_cur == p_ob + 16'd1 && p_in_b == p_cur + 16'd1);  // C11 C4 with N = MAX_GPUS
    end
  end
endmodule
`default_nettype wire
