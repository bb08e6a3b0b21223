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
//   I1..I3 invariants relating the unit's batch counters to the environment's (below); C1..C11 covers.
// IND = 1 (tests/formal/pe_induct.sh): only F1, F2, the tags of F5, err_o = 0 and I1, I2, the set that is
// proved by k-induction; F3, F4, the id order of F5 and I3 stay bounded (docs/pe.md 4.5).
module pe_formal #(
  parameter integer MAX_GPUS = 3,
  parameter integer LQ_DEPTH = 2,
  parameter integer RQ_DEPTH = 2,
  parameter integer NT       = 4,    // batch tags used by the environment
  parameter integer IND      = 0     // 1: the k-induction set (F1, F2, F5 tags, I1..I3; docs/pe.md 4.5)
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
    assume (in_tag_i == in_b && in_b < NT);
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

  // LAST(T, j) received (got_v[T*M + j]) and this GPU's LAST(T) produced per port (lmade_v[2T + p])
  reg [NT*M-1:0] got_v = {(NT*M){1'b0}};
  reg [2*NT-1:0] lmade_v = {(2*NT){1'b0}};
  reg [NT*M-1:0] got_n;
  reg [2*NT-1:0] lmade_n;
  integer t;
  always @* begin
    got_n = got_v;
    lmade_n = lmade_v;
    for (t = 0; t < NT; t = t + 1) begin
      if (rx0_hs && rx0_flit_i[63:61] == 3'd2 && rx0_flit_i[47:32] == t)
        got_n[t*M +: M] = got_n[t*M +: M] | ({{(M-1){1'b0}}, 1'b1} << rx0_flit_i[60:55]);
      if (rx1_hs && rx1_flit_i[63:61] == 3'd2 && rx1_flit_i[47:32] == t)
        got_n[t*M +: M] = got_n[t*M +: M] | ({{(M-1){1'b0}}, 1'b1} << rx1_flit_i[60:55]);
      if (p_last0 && p_head_tag == t) lmade_n[2*t] = 1'b1;
      if (p_last1 && p_head_tag == t) lmade_n[2*t+1] = 1'b1;
    end
  end
  always @(posedge clk_i) begin
    if (!init) begin
      got_v <= got_n;
      lmade_v <= lmade_n;
    end
  end
  wire [M-1:0] got_head = got_v[p_head_tag[1:0]*M +: M];
  wire [M-1:0] got_prev = got_v[(p_head_tag[1:0] - 2'd1)*M +: M];
  wire [M-1:0] got_out  = got_v[out_tag[1:0]*M +: M];
  wire [1:0]   lm_out   = lmade_v[2*out_tag[1:0] +: 2];

  // input batch counter (END beats accepted)
  reg [15:0] in_b = 16'd0;
  always @(posedge clk_i) if (!init && in_valid_i && in_ready && in_end_i) in_b <= in_b + 16'd1;

  // rx flits: PRIM to this GPU or LAST broadcast, from another existing GPU, tag < NT and one of the two live
  // batches (ob, ob+1: the unit's documented contract), each LAST(T, j) at most once, and no PRIM(T) from j
  // after LAST(T, j) (SPEC 4.2: markers travel the same FIFOs as the data they close)
  function automatic legal_rx(input [63:0] f);
    legal_rx = ((f[63:61] == 3'd1 && f[54:48] == gid && !got_v[f[33:32]*M + f[60:55]]) ||
                (f[63:61] == 3'd2 && f[54:48] == 7'd127 && !got_v[f[33:32]*M + f[60:55]])) &&
               ({1'b0, f[60:55]} < cfg_n_gpus_i) && ({1'b0, f[60:55]} != gid) && (f[47:32] < NT) &&
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
    if (!init) begin
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
  reg [15:0] ob = 16'd0;
  wire rx0_p = rx0_hs && rx0_flit_i[63:61] == 3'd1, rx1_p = rx1_hs && rx1_flit_i[63:61] == 3'd1;
  // pushes in the unit's priority order: rx0, rx1, keep (they never target one bank twice in a cycle)
  wire [1:0] push0 = (rx0_p && !rx0_flit_i[32]) + (rx1_p && !rx1_flit_i[32]) + (p_keep && !p_head_tag[0]);
  wire [1:0] push1 = (rx0_p &&  rx0_flit_i[32]) + (rx1_p &&  rx1_flit_i[32]) + (p_keep &&  p_head_tag[0]);
  wire [31:0] w0 = (rx0_p && !rx0_flit_i[32]) ? rx0_flit_i[31:0] : (rx1_p && !rx1_flit_i[32]) ? rx1_flit_i[31:0] : p_head_id;
  wire [31:0] w1 = (rx0_p &&  rx0_flit_i[32]) ? rx0_flit_i[31:0] : (rx1_p &&  rx1_flit_i[32]) ? rx1_flit_i[31:0] : p_head_id;
  wire pop_item = out_hs && !out_eob;
  reg eob_shown = 1'b0;
  always @(posedge clk_i) eob_shown <= out_valid && out_eob && !out_ready_i;
  always @(posedge clk_i) if (!init) begin
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
    if (!init && !IND) begin
      // I3 (bounded only: its induction needs the batch tags of the LQ entries) the CD batch is ob, or ob+1
      // with its turn not yet taken; the input batch is cur .. cur+1 (cur+2 with runahead)
      assert (p_cur == p_ob || (p_cur == p_ob + 16'd1 && !p_turn_done));
      assert (p_in_b - p_cur <= (cfg_runahead_i ? 16'd2 : 16'd1));
    end
  end
  always @* begin
    if (!init && !IND) begin
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
        if (p_head_tag != 16'd0) assert ((got_prev | gbit) == all_m);
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
  // the environment only uses NT tags: stop the proof before they wrap
  always @* if (!init) assume (ob < NT - 1);
endmodule
`default_nettype wire
