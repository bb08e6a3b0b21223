`default_nettype none
// Proofs of the stream PE (rtl/sx_pe.v, unchanged) in an environment of the P2G and the other GPUs that the
// solver drives freely within the protocol (docs/sx.md section 4.5). K = 1, MAX_GPUS 2..3, DEPTH 2..7, every
// N <= MAX_GPUS, every gpu_id, both topologies ($anyconst configuration), any number of batches (16-bit tags,
// wrap included). Used for bounded proofs, k-induction and covers (tests/formal/sx_induct.sh). Not synthesized.
//
// Environment (assumptions):
//   P2G: lane 0 holds its beat until accepted; beats are entries {id = running count, free mask} or END
//        {id = chunk count}; tag = the environment's batch count pb.
//   Sources s != g: on the rx port of s (line: 0 below g, 1 above; hub: 0) the solver may present PRIM(sb[s],
//        id = running count of s) or LAST(sb[s]) whenever s holds a credit (ecr[s] > 0, DEPTH at reset); the PE's
//        CREDIT flits to s give credits back.
//   Receivers d != g: take the PE's flits (held[d] slots); the solver may return 1..held[d] credits with a CREDIT
//        flit on d's port. One flit per rx port per cycle (data or credit). tx_ready and out_ready free.
// Properties (assertions):
//   S1 exactly once and in order per source at the output: the released ids of a beat are the next entries of the
//      shadow queue sq of source rel_src (what that source sent, or this GPU's kept P2G entries); a LAST is consumed
//      (rel_last) only at the head of that queue; the self queue receives each kept entry exactly once, while it is
//      the lane's beat, and the END's LAST when the END is accepted;
//   S2 application order: beats come from source exp_src of batch exp_b, which advance 0..N-1, then the next batch,
//      exactly at rel_last; the end-of-batch beat comes from source N-1;
//   S3 credits: never a PRIM/LAST to a receiver that holds DEPTH of this GPU's slots; never more credits returned to
//      a source than it used; CREDIT payload >= 1; rx ready always;
//   S4 TX content and order per destination: PRIM(d) carries the next entry owed to d (P2G entries with bit d, in
//      order, with the batch tag); LAST on a port only when every receiver behind it has all its PRIMs of the batch,
//      with the tag and the chunk count; every flit on the port of its destination, source = g;
//   S5 err_o stays 0 and occ_o equals the shadow queues' total;
//   P  local progress: the release never idles while FIFO[rs] holds a slot; the lane is accepted as soon as nothing
//      of it is left but a keep into a self FIFO with room; a pending credit with its TX register free is loaded.
// Invariants (assertions that make the properties inductive; `ifndef SX_NO_INV; docs/sx.md 4.5 in words):
//   I1 FIFO[s] = sq[s]: count, write = read + count (mod DEPTH), slot i after the read pointer = sq[s][i];
//      occupancy = the sum of the counts; FIFOs of sources >= N empty;
//   I2 receive credits: ecr[s] + count[s] + pend[s] + (a CREDIT to s in a TX register) = DEPTH;
//      expected tag rx_b[s] = sb[s];
//   I3 send credits: credit[d] + held[d] + (flits to d in the TX registers) = DEPTH;
//   I4 TX registers: a well-formed flit; a PRIM/LAST is the head of tq of each receiver it goes to;
//   I5 tq[d] = (the flit for d in a TX register) + (the lane's beat if it still owes d a flit): the walk's rem_q /
//      last_sent_q say what the lane still owes; rem_v_q only on an entry already shown; k_done (kept) = !rem_q[g];
//   I6 counters: in_b = pb, rb = exp_b, rs = exp_src < N.
// Covers (C1..C10 with SX_COVER, C11 with SX_COVER_LIVE): below.
module sx_formal #(
  parameter integer MAX_GPUS = 3,
  parameter integer DEPTH    = 2
) (
  input wire clk
);
  localparam integer K  = 1;
  localparam integer M  = MAX_GPUS;
  localparam integer AW = $clog2(DEPTH);
  localparam integer CW = ($clog2(DEPTH + 1) < 5) ? 5 : $clog2(DEPTH + 1);   // as in sx_pe.v
  localparam integer SW = 33;
  localparam integer QT = 3;                    // tq slots (at most 2 used)
  localparam [7:0]   DP = DEPTH[7:0];
  reg        rst_n = 1'b0;
  always @(posedge clk) rst_n <= 1'b1;

  // ------------------------------------------------------------------ configuration
  (* anyconst *) reg [1:0] c_n;
  (* anyconst *) reg [1:0] c_g;
  (* anyconst *) reg       c_topo;
  wire [6:0] n = {5'd0, c_n};
  wire [5:0] g = {4'd0, c_g};
  always @* begin
    assume (c_n >= 2'd1 && {30'd0, c_n} <= M);
    assume (c_g < c_n);
  end
  function automatic port_of(input [1:0] s);
    port_of = !c_topo && s > c_g;
  endfunction
  reg [M-1:0] oth, oth0, oth1;                  // the other GPUs; behind port 0; behind port 1
  integer s, i;
  always @* begin
    for (s = 0; s < M; s = s + 1) begin
      oth[s]  = s < c_n && s != c_g;
      oth0[s] = oth[s] && !port_of(s[1:0]);
      oth1[s] = oth[s] && port_of(s[1:0]);
    end
  end

  // ------------------------------------------------------------------ free inputs
  (* anyseq *) reg        f_pvalid, f_pend, f_txr0, f_txr1, f_outr;
  (* anyseq *) reg [M-1:0] f_pmask;
  (* anyseq *) reg        f_rv0, f_rv1, f_rc0, f_rc1, f_last0, f_last1;   // rx valid, is a credit, is a LAST
  (* anyseq *) reg [1:0]  f_rs0, f_rs1;                                   // source (or credit sender)
  (* anyseq *) reg [2:0]  f_amt0, f_amt1;                                 // credit amount - 1

  // ------------------------------------------------------------------ P2G lane
  reg         l_v, l_end;
  reg [M-1:0] l_mask;
  reg [7:0]   l_id, p_seq, p_cnt;
  reg [15:0]  pb;
  wire        in_ready;
  wire        l_fire = l_v && in_ready;
  always @(posedge clk) begin
    if (!rst_n) begin
      l_v <= 1'b0; p_seq <= 8'd0; p_cnt <= 8'd0; pb <= 16'd0; l_end <= 1'b0; l_mask <= {M{1'b0}}; l_id <= 8'd0;
    end else if (!l_v || l_fire) begin
      if (l_fire && l_end) begin pb <= pb + 16'd1; p_cnt <= 8'd0; end
      else if (l_fire) p_cnt <= p_cnt + 8'd1;
      if (l_fire && !l_end) p_seq <= p_seq + 8'd1;
      l_v    <= f_pvalid;
      l_end  <= f_pend;
      l_mask <= f_pmask;
      l_id   <= f_pend ? ((l_fire && l_end) ? 8'd0 : (p_cnt + (l_fire ? 8'd1 : 8'd0)))
                       : (p_seq + ((l_fire && !l_end) ? 8'd1 : 8'd0));
    end
  end

  // ------------------------------------------------------------------ probes (connected after flatten, sx_flow.sh)
  // kept: the connect needs them also where the invariants that read them are left out (SX_NO_INV)
  (* keep *) wire [3:0]            p_self_n;                       // dut.self_n: walk's pushes into the self FIFO
  (* keep *) wire [M*AW-1:0]       p_rp, p_wp;                     // dut.rp_q, dut.wp_q
  (* keep *) wire [M*CW-1:0]       p_cnt_q, p_pend, p_credit;      // dut.cnt_q, dut.pend_q, dut.credit_q
  (* keep *) wire [M*16-1:0]       p_rx_b;                         // dut.rx_b_q
  (* keep *) wire [15:0]           p_in_b, p_rb;                   // dut.in_b_q, dut.rb_q
  (* keep *) wire [5:0]            p_rs;                           // dut.rs_q
  (* keep *) wire                  p_rem_v;                        // dut.rem_v_q
  (* keep *) wire [M-1:0]          p_rem;                          // dut.rem_q
  (* keep *) wire [1:0]            p_last_sent;                    // dut.last_sent_q
  (* keep *) wire [M*DEPTH*SW-1:0] p_mem;                          // dut.u_ram.mem_q[*]
`ifdef SX_RRP
  (* keep *) wire [AW-1:0]         p_rrp;                          // dut.rrp_q: a copy of rp_q[rs_q]
`endif

  // ------------------------------------------------------------------ the DUT
  wire        tx0_v, tx1_v, rx0_r, rx1_r, out_v, out_eob, rel_last, busy, err;
  wire [63:0] tx0_f, tx1_f;
  wire [31:0] out_id;
  wire [15:0] out_tag;
  wire [5:0]  rel_src;
  wire [20:0] occ;
  reg         rx0_v, rx1_v;
  reg  [63:0] rx0_f, rx1_f;
  sx_pe #(.MAX_GPUS(MAX_GPUS), .K(K), .DEPTH(DEPTH)) dut (
    .clk_i(clk), .rst_ni(rst_n), .cfg_n_gpus_i(n), .cfg_gpu_id_i(g), .cfg_topo_i(c_topo),
    .in_valid_i(l_v), .in_ready_o(in_ready), .in_end_i(l_end), .in_tag_i(pb), .in_id_i({24'd0, l_id}),
    .in_mask_i(l_mask),
    .tx0_valid_o(tx0_v), .tx0_ready_i(f_txr0), .tx0_flit_o(tx0_f),
    .tx1_valid_o(tx1_v), .tx1_ready_i(f_txr1), .tx1_flit_o(tx1_f),
    .rx0_valid_i(rx0_v), .rx0_ready_o(rx0_r), .rx0_flit_i(rx0_f),
    .rx1_valid_i(rx1_v), .rx1_ready_o(rx1_r), .rx1_flit_i(rx1_f),
    .out_valid_o(out_v), .out_ready_i(f_outr), .out_id_o(out_id), .out_tag_o(out_tag), .out_eob_o(out_eob),
    .rel_last_o(rel_last), .rel_src_o(rel_src), .occ_o(occ), .busy_o(busy), .err_o(err));

  // ------------------------------------------------------------------ sources and receivers (state)
  // arrays flattened: [s] per GPU, [s*DEPTH + i] of sq slots, [s*QT + i] of tq slots
  reg [7:0]  ecr [0:M-1];       // credits source s holds for this GPU
  reg [15:0] sb  [0:M-1];       // batch of source s's next flit
  reg [7:0]  sseq[0:M-1];       // next PRIM id of source s
  reg [7:0]  held[0:M-1];       // slots this GPU holds at receiver d
  reg [8:0]  sq  [0:M*DEPTH-1]; // shadow queue of source s: what the PE's FIFO[s] must hold, {last, id}
  reg [7:0]  sqn [0:M-1];
  reg [24:0] tq  [0:M*QT-1];    // flits owed to d, in order: {batch, last, id}, queued when the lane shows a new beat
  reg [7:0]  tqn [0:M-1];
  reg        l_new;             // the lane's beat is shown for the first time (tq not yet holding it)
  reg        k_done;            // the lane's entry is already in the self FIFO
  reg [1:0]  exp_src;
  reg [15:0] exp_b;

  wire [1:0] s0 = f_rs0, s1 = f_rs1;
  wire [3:0] amt0 = {1'b0, f_amt0} + 4'd1, amt1 = {1'b0, f_amt1} + 4'd1;
  always @* begin
    rx0_v = rst_n && f_rv0;
    rx1_v = rst_n && f_rv1;
    rx0_f = f_rc0 ? {3'd3, 4'd0, s0, 5'd0, c_g, 16'd0, 28'd0, amt0}
                  : {f_last0 ? 3'd2 : 3'd1, 4'd0, s0, f_last0 ? 7'd127 : {5'd0, c_g}, sb[s0],
                     f_last0 ? 32'd0 : {24'd0, sseq[s0]}};
    rx1_f = f_rc1 ? {3'd3, 4'd0, s1, 5'd0, c_g, 16'd0, 28'd0, amt1}
                  : {f_last1 ? 3'd2 : 3'd1, 4'd0, s1, f_last1 ? 7'd127 : {5'd0, c_g}, sb[s1],
                     f_last1 ? 32'd0 : {24'd0, sseq[s1]}};
  end
  // legality of the solver's choices
  always @* begin
    if (rx0_v) begin
      assume ({30'd0, s0} < M && oth0[s0]);
      if (f_rc0) assume ({4'd0, amt0} <= held[s0]);
      else assume (ecr[s0] != 8'd0);
    end
    if (rx1_v) begin
      assume ({30'd0, s1} < M && oth1[s1]);
      if (f_rc1) assume ({4'd0, amt1} <= held[s1]);
      else assume (ecr[s1] != 8'd0);
    end
  end

  // ------------------------------------------------------------------ TX decode
  wire       tx0_fire = tx0_v && f_txr0, tx1_fire = tx1_v && f_txr1;
  wire [2:0] t0 = tx0_f[63:61], t1 = tx1_f[63:61];
  wire [1:0] d0 = tx0_f[49:48], d1 = tx1_f[49:48];
  wire       out_fire = out_v && f_outr;
  reg [M-1:0] txd0, txd1;       // the TX register of port p holds a PRIM/LAST for receiver s
  reg [7:0]   crin[0:M-1];      // payload of a CREDIT to s held in a TX register
  reg [M-1:0] owed;             // the lane's beat (already in tq) still owes s a flit
  always @* begin
    for (s = 0; s < M; s = s + 1) begin
      txd0[s] = tx0_v && ((t0 == 3'd1 && d0 == s[1:0]) || (t0 == 3'd2 && oth0[s]));
      txd1[s] = tx1_v && ((t1 == 3'd1 && d1 == s[1:0]) || (t1 == 3'd2 && oth1[s]));
      crin[s] = ((tx0_v && t0 == 3'd3 && d0 == s[1:0]) ? tx0_f[7:0] : 8'd0) +
                ((tx1_v && t1 == 3'd3 && d1 == s[1:0]) ? tx1_f[7:0] : 8'd0);
      owed[s] = l_v && !l_new && oth[s] && (l_end ? !p_last_sent[port_of(s[1:0])] : (p_rem_v && p_rem[s]));
    end
  end

  reg [8:0]  sq_n [0:M*DEPTH-1];
  reg [7:0]  sqn_n[0:M-1];
  reg [24:0] tq_n [0:M*QT-1];
  reg [7:0]  tqn_n[0:M-1];
  reg [7:0]  ecr_n [0:M-1];
  reg [7:0]  held_n[0:M-1];
  reg [15:0] sb_n[0:M-1];
  reg [7:0]  sseq_n[0:M-1];
  reg [7:0]  occ_sh;
  reg [M-1:0] tq_pop, tq_popa;  // pops this cycle (port 0, port 1; never both for one receiver: asserted)
  always @* begin
    tq_pop = {M{1'b0}};
    tq_popa = {M{1'b0}};
    for (s = 0; s < M; s = s + 1) begin
      ecr_n[s] = ecr[s]; held_n[s] = held[s]; sb_n[s] = sb[s]; sseq_n[s] = sseq[s];
    end
    // sources send, receivers return credits
    if (rx0_v && !f_rc0) begin
      ecr_n[s0] = ecr_n[s0] - 8'd1;
      if (f_last0) sb_n[s0] = sb[s0] + 16'd1; else sseq_n[s0] = sseq[s0] + 8'd1;
    end
    if (rx1_v && !f_rc1) begin
      ecr_n[s1] = ecr_n[s1] - 8'd1;
      if (f_last1) sb_n[s1] = sb[s1] + 16'd1; else sseq_n[s1] = sseq[s1] + 8'd1;
    end
    if (rx0_v && f_rc0) held_n[s0] = held_n[s0] - {4'd0, amt0};
    if (rx1_v && f_rc1) held_n[s1] = held_n[s1] - {4'd0, amt1};
    // the PE's flits
    if (tx0_fire) begin
      if (t0 == 3'd3) ecr_n[d0] = ecr_n[d0] + tx0_f[7:0];
      else if (t0 == 3'd1) begin held_n[d0] = held_n[d0] + 8'd1; tq_pop[d0] = 1'b1; end
      else for (s = 0; s < M; s = s + 1)
        if (oth0[s]) begin held_n[s] = held_n[s] + 8'd1; tq_pop[s] = 1'b1; end
    end
    if (tx1_fire) begin
      if (t1 == 3'd3) ecr_n[d1] = ecr_n[d1] + tx1_f[7:0];
      else if (t1 == 3'd1) begin held_n[d1] = held_n[d1] + 8'd1; tq_popa[d1] = 1'b1; end
      else for (s = 0; s < M; s = s + 1)
        if (oth1[s]) begin held_n[s] = held_n[s] + 8'd1; tq_popa[s] = 1'b1; end
    end
    // shadow queues: shift out pops, then append pushes
    for (s = 0; s < M; s = s + 1) begin
      for (i = 0; i < DEPTH; i = i + 1) sq_n[s*DEPTH + i] = sq[s*DEPTH + i];
      sqn_n[s] = sqn[s];
      if ({4'd0, s[1:0]} == rel_src) begin
        if (out_fire && !out_eob && rel_last) begin
          for (i = 0; i < DEPTH - 2; i = i + 1) sq_n[s*DEPTH + i] = sq[s*DEPTH + i + 2];
          sqn_n[s] = sqn[s] - 8'd2;
        end else if ((out_fire && !out_eob) || rel_last) begin
          for (i = 0; i < DEPTH - 1; i = i + 1) sq_n[s*DEPTH + i] = sq[s*DEPTH + i + 1];
          sqn_n[s] = sqn[s] - 8'd1;
        end
      end
      if (s == c_g && p_self_n != 4'd0) begin   // the walk pushed the lane's keep / LAST into the self FIFO
        for (i = 0; i < DEPTH; i = i + 1) if (i == sqn_n[s]) sq_n[s*DEPTH + i] = {l_end, l_id};
        sqn_n[s] = sqn_n[s] + 8'd1;
      end
      if (rx0_v && !f_rc0 && s0 == s[1:0]) begin
        for (i = 0; i < DEPTH; i = i + 1) if (i == sqn_n[s]) sq_n[s*DEPTH + i] = {f_last0, f_last0 ? 8'd0 : sseq[s]};
        sqn_n[s] = sqn_n[s] + 8'd1;
      end
      if (rx1_v && !f_rc1 && s1 == s[1:0]) begin
        for (i = 0; i < DEPTH; i = i + 1) if (i == sqn_n[s]) sq_n[s*DEPTH + i] = {f_last1, f_last1 ? 8'd0 : sseq[s]};
        sqn_n[s] = sqn_n[s] + 8'd1;
      end
      // tq: pop (the PE's flit to s), then push (a new lane beat owes s a PRIM or a LAST)
      for (i = 0; i < QT; i = i + 1) tq_n[s*QT + i] = tq[s*QT + i];
      tqn_n[s] = tqn[s];
      if (tq_pop[s] || tq_popa[s]) begin
        for (i = 0; i < QT - 1; i = i + 1) tq_n[s*QT + i] = tq[s*QT + i + 1];
        tqn_n[s] = tqn[s] - 8'd1;
      end
      if (l_new && l_v && oth[s] && (l_end || l_mask[s])) begin
        for (i = 0; i < QT; i = i + 1) if (i == tqn_n[s]) tq_n[s*QT + i] = {pb, l_end, l_id};
        tqn_n[s] = tqn_n[s] + 8'd1;
      end
    end
    occ_sh = 8'd0;
    for (s = 0; s < M; s = s + 1) occ_sh = occ_sh + sqn[s];
  end

  always @(posedge clk) begin
    if (!rst_n) begin
      for (s = 0; s < M; s = s + 1) begin
        ecr[s] <= DP; sb[s] <= 16'd0; sseq[s] <= 8'd0; held[s] <= 8'd0; sqn[s] <= 8'd0; tqn[s] <= 8'd0;
      end
      for (i = 0; i < M*DEPTH; i = i + 1) sq[i] <= 9'd0;
      for (i = 0; i < M*QT; i = i + 1) tq[i] <= 25'd0;
      l_new <= 1'b1; k_done <= 1'b0; exp_src <= 2'd0; exp_b <= 16'd0;
    end else begin
      for (s = 0; s < M; s = s + 1) begin
        ecr[s] <= ecr_n[s]; sb[s] <= sb_n[s]; sseq[s] <= sseq_n[s]; held[s] <= held_n[s]; sqn[s] <= sqn_n[s];
        tqn[s] <= tqn_n[s];
      end
      for (i = 0; i < M*DEPTH; i = i + 1) sq[i] <= sq_n[i];
      for (i = 0; i < M*QT; i = i + 1) tq[i] <= tq_n[i];
      l_new <= l_v ? l_fire : 1'b1;
      k_done <= (l_v && !l_fire) && (k_done || p_self_n != 4'd0);
      if (rel_last) begin
        if ({5'd0, exp_src} + 7'd1 >= n) begin exp_src <= 2'd0; exp_b <= exp_b + 16'd1; end
        else exp_src <= exp_src + 2'd1;
      end
    end
  end

  // ------------------------------------------------------------------ properties
  // (left out of a cover query, SX_COVER_AT: its model holds the one cover's negation only)
  wire [1:0] rs = rel_src[1:0];
`ifndef SX_COVER_AT
  always @* if (rst_n) begin
    // S5
    assert (!err);
    assert ((tq_pop & tq_popa) == {M{1'b0}});
    assert (occ == {13'd0, occ_sh});
    // S3
    assert (rx0_r && rx1_r);
    for (s = 0; s < M; s = s + 1) begin
      assert (held[s] <= DP);
      assert (sqn[s] <= DP);
      assert (tqn[s] < QT);
    end
    // S2: application order
    if (out_v || rel_last) begin
      assert (rs == exp_src && rel_src[5:2] == 4'd0);
      assert (out_tag == exp_b);
    end
    if (out_v && out_eob) assert ({5'd0, exp_src} + 7'd1 == n);
    // S1: the released ids are the head of the shadow queue of their source; LAST consumed only at its head
    if (out_v && !out_eob) begin
      assert (sqn[rs] != 8'd0 && !sq[rs*DEPTH][8] && out_id == {24'd0, sq[rs*DEPTH][7:0]});
      if (rel_last) assert (sqn[rs] >= 8'd2 && sq[rs*DEPTH + 1][8]);
    end
    if (rel_last && !out_v) assert (sqn[rs] != 8'd0 && sq[rs*DEPTH][8]);
    if (out_v && out_eob) assert (sqn[rs] != 8'd0 && sq[rs*DEPTH][8]);
    // S1: the self queue gets each kept entry once, while it is the lane's beat, and the END's LAST on acceptance
    if (p_self_n != 4'd0) assert (p_self_n == 4'd1 && l_v && (l_end ? l_fire : (l_mask[c_g] && !k_done)));
    if (l_fire && (l_end || l_mask[c_g])) assert (p_self_n != 4'd0 || k_done);
    // S3/S4: the PE's flits (well-formed while valid; content at the handshake)
    if (tx0_v) begin
      assert (tx0_f[60:55] == g);
      if (t0 == 3'd1) assert (tx0_f[54:48] == {5'd0, d0} && {30'd0, d0} < M && oth0[d0]);
      else if (t0 == 3'd2) assert (tx0_f[54:48] == 7'd127 && oth0 != {M{1'b0}});
      else assert (t0 == 3'd3 && tx0_f[54:48] == {5'd0, d0} && {30'd0, d0} < M && oth0[d0] &&
                   tx0_f[47:32] == 16'd0 && tx0_f[31:0] >= 32'd1 && tx0_f[31:0] <= DEPTH);
    end
    if (tx1_v) begin
      assert (!c_topo && tx1_f[60:55] == g);
      if (t1 == 3'd1) assert (tx1_f[54:48] == {5'd0, d1} && {30'd0, d1} < M && oth1[d1]);
      else if (t1 == 3'd2) assert (tx1_f[54:48] == 7'd127 && oth1 != {M{1'b0}});
      else assert (t1 == 3'd3 && tx1_f[54:48] == {5'd0, d1} && {30'd0, d1} < M && oth1[d1] &&
                   tx1_f[47:32] == 16'd0 && tx1_f[31:0] >= 32'd1 && tx1_f[31:0] <= DEPTH);
    end
    if (tx0_fire) begin
      if (t0 == 3'd1) assert (tqn[d0] != 8'd0 && tq[d0*QT] == {tx0_f[47:32], 1'b0, tx0_f[7:0]} && tx0_f[31:8] == 24'd0 && held[d0] < DP);
      if (t0 == 3'd3) assert (ecr[d0] + tx0_f[7:0] <= DP);
      if (t0 == 3'd2)
        for (s = 0; s < M; s = s + 1)
          if (oth0[s]) assert (tqn[s] != 8'd0 && tq[s*QT] == {tx0_f[47:32], 1'b1, tx0_f[7:0]} && tx0_f[31:8] == 24'd0 && held[s] < DP);
    end
    if (tx1_fire) begin
      if (t1 == 3'd1) assert (tqn[d1] != 8'd0 && tq[d1*QT] == {tx1_f[47:32], 1'b0, tx1_f[7:0]} && tx1_f[31:8] == 24'd0 && held[d1] < DP);
      if (t1 == 3'd3) assert (ecr[d1] + tx1_f[7:0] <= DP);
      if (t1 == 3'd2)
        for (s = 0; s < M; s = s + 1)
          if (oth1[s]) assert (tqn[s] != 8'd0 && tq[s*QT] == {tx1_f[47:32], 1'b1, tx1_f[7:0]} && tx1_f[31:8] == 24'd0 && held[s] < DP);
    end
    // P: local progress
    if (p_cnt_q[rs*CW +: CW] != {CW{1'b0}}) assert (out_v || rel_last);
    if (l_v && !l_end && ((p_rem_v ? p_rem : l_mask) & oth) == {M{1'b0}} &&
        (!(p_rem_v ? p_rem[c_g] : l_mask[c_g]) || p_cnt_q[c_g*CW +: CW] < DEPTH)) assert (in_ready);
  end
`endif
  // a pending credit behind a port whose TX register is free is loaded at this edge (a CREDIT, or data before it)
  reg [M-1:0] pend_m, cred0_m;  // pending credits for source s; no credit left for receiver s
  always @* for (s = 0; s < M; s = s + 1) begin
    pend_m[s]  = p_pend[s*CW +: CW] != {CW{1'b0}};
    cred0_m[s] = p_credit[s*CW +: CW] == {CW{1'b0}};
  end
`ifndef SX_COVER_AT
  reg cr_load0, cr_load1;
  always @(posedge clk) begin
    cr_load0 <= rst_n && (!tx0_v || f_txr0) && (pend_m & oth0) != {M{1'b0}};
    cr_load1 <= rst_n && (!tx1_v || f_txr1) && (pend_m & oth1) != {M{1'b0}};
  end
  always @* if (rst_n) begin
    if (cr_load0) assert (tx0_v);
    if (cr_load1) assert (tx1_v);
  end
`endif

`ifndef SX_NO_INV
  // ------------------------------------------------------------------ invariants I1..I6
  reg [7:0]  cnt_s, pend_s, cred_s;
  reg [AW:0] rp_s, wp_s, a;
  reg [SW-1:0] word;
  reg [7:0]  ntx;
  always @* if (rst_n) begin
    for (s = 0; s < M; s = s + 1) begin
      cnt_s  = {{(8-CW){1'b0}}, p_cnt_q[s*CW +: CW]};
      pend_s = {{(8-CW){1'b0}}, p_pend[s*CW +: CW]};
      cred_s = {{(8-CW){1'b0}}, p_credit[s*CW +: CW]};
      rp_s   = {1'b0, p_rp[s*AW +: AW]};
      wp_s   = {1'b0, p_wp[s*AW +: AW]};
      // I1
      assert (cnt_s == sqn[s] && rp_s < DEPTH && ecr[s] <= DP && pend_s <= DP && cred_s <= DP);
      a = rp_s + sqn[s][AW:0];
      if (a >= DEPTH) a = a - DEPTH[AW:0];
      assert (wp_s == a);
      for (i = 0; i < DEPTH; i = i + 1)
        if (i < sqn[s]) begin
          a = rp_s + i[AW:0];
          if (a >= DEPTH) a = a - DEPTH[AW:0];
          word = p_mem[(s*DEPTH + a)*SW +: SW];
          assert (word == {sq[s*DEPTH + i][8], 24'd0, sq[s*DEPTH + i][7:0]});
        end
      if (s >= c_n) assert (sqn[s] == 8'd0);
      // I2
      assert (p_rx_b[s*16 +: 16] == sb[s]);
      if (oth[s]) assert (ecr[s] + cnt_s + pend_s + crin[s] == DP);
      else assert (pend_s == 8'd0 && crin[s] == 8'd0 && ecr[s] == DP);
      // I3
      ntx = {7'd0, txd0[s]} + {7'd0, txd1[s]};
      if (oth[s]) assert (cred_s + held[s] + ntx == DP);
      else assert (cred_s == DP && held[s] == 8'd0 && ntx == 8'd0);
      // I4, I5
      assert (tqn[s] == ntx + {7'd0, owed[s]});
      if (txd0[s]) assert (tq[s*QT] == {tx0_f[47:32], t0 == 3'd2, tx0_f[7:0]} && tx0_f[31:8] == 24'd0);
      if (txd1[s]) assert (tq[s*QT] == {tx1_f[47:32], t1 == 3'd2, tx1_f[7:0]} && tx1_f[31:8] == 24'd0);
      if (owed[s]) assert (tq[s*QT + ntx] == {pb, l_end, l_id});
    end
    // I5: the walk's state follows the lane
    if (!l_v) assert (l_new);
    if (l_new) assert (!p_rem_v && p_last_sent == 2'b00 && !k_done);
    if (l_v && !l_new && !l_end) assert (p_rem_v);
    if (p_rem_v) assert (l_v && !l_end && (p_rem & ~(l_mask & (oth | ({{(M-1){1'b0}}, 1'b1} << c_g)))) == {M{1'b0}});
    if (p_last_sent[0]) assert (l_v && l_end && oth0 != {M{1'b0}});
    if (p_last_sent[1]) assert (l_v && l_end && oth1 != {M{1'b0}});
    if (k_done) assert (l_v && !l_end && l_mask[c_g]);
    if (p_rem_v && l_mask[c_g]) assert (k_done == !p_rem[c_g]);
    // I6
    assert (p_in_b == pb && p_rb == exp_b && p_rs == {4'd0, exp_src} && exp_src < c_n);
`ifdef SX_RRP
    assert (p_rrp == p_rp[exp_src*AW +: AW]);
`endif
  end
`endif

  // ------------------------------------------------------------------ covers
  // SX_COVER_AT=i (tests/formal/sx_induct.sh): cover Ci as a reachability query, its negation the only assertion,
  // so one BMC run over the window of steps 0..COVER_DEPTH-1 finds a trace to it (a failure = the cover reached)
  // or proves it unreachable within the window; without it, cover statements (yosys-smtbmc -c).
`ifdef SX_COVER_AT
`define SX_COV(i, c) if (i == `SX_COVER_AT) assert (!(c))
  // hints: assumptions that narrow the environment towards the cover. Sound for reachability: they only remove
  // behaviours, so a trace found under them is a legal trace of the unconstrained environment.
  always @* begin
    if (`SX_COVER_AT == 2 || `SX_COVER_AT == 3) assume (!f_outr);              // nothing released
    if (`SX_COVER_AT == 3 || `SX_COVER_AT == 9 || `SX_COVER_AT == 10) assume (c_n == 2'd3);
    if (`SX_COVER_AT == 8) assume (!f_rv0 && !f_rv1);                          // no credit returned
    if (`SX_COVER_AT == 9) assume (!c_topo && c_g == 2'd1);                    // a line, both ports used
    if (`SX_COVER_AT == 11) assume (!f_pvalid);                                // this GPU's batch 0 never ends
  end
`else
`define SX_COV(i, c) cover (c)
`endif
`ifdef SX_COVER
  // C1..C10 (tests/formal/sx_induct.sh, at 3:2)
  reg saw_full;
  reg [M-1:0] full_now;
  always @* for (s = 0; s < M; s = s + 1) full_now[s] = sqn[s] == DP;
  always @(posedge clk)
    if (!rst_n) saw_full <= 1'b0;
    else if ((full_now & oth) != {M{1'b0}}) saw_full <= 1'b1;
  always @* if (rst_n) begin
    // C1 a remote source's FIFO full; C2 the self FIFO full; C3 the whole reorder buffer full (N = MAX_GPUS)
    `SX_COV(1, (full_now & oth) != {M{1'b0}});
    `SX_COV(2, full_now[c_g]);
    `SX_COV(3, n == M && occ == M * DEPTH);
    // C4..C7 back-pressure on every port that has it (the rx ports are always ready by design, S3)
    `SX_COV(4, tx0_v && !f_txr0);
    `SX_COV(5, tx1_v && !f_txr1);
    `SX_COV(6, out_v && !f_outr);
    `SX_COV(7, l_v && !in_ready);
    // C8 the lane held back by a receiver without credits; C9 CREDIT flits on both ports at once
    `SX_COV(8, l_v && !in_ready && (cred0_m & oth & (p_rem_v ? p_rem : l_mask)) != {M{1'b0}});
    `SX_COV(9, tx0_v && tx1_v && t0 == 3'd3 && t1 == 3'd3);
    // C10 a whole 3-GPU batch released with a remote FIFO full on the way
    `SX_COV(10, c_n == 2'd3 && saw_full && out_v && out_eob && f_outr);
  end
`endif
`ifdef SX_COVER_LIVE
  // ------------------------------------------------------------------ cover C11 (at 2:4): 4 batches live
  // batches of a source s != g (or of this GPU's P2G) complete at s but not yet released here
  reg live4;
  reg [15:0] ahead;
  always @* begin
    live4 = 1'b0;
    for (s = 0; s < M; s = s + 1) begin
      ahead = sb[s] - exp_b;
      if (oth[s] && ahead >= 16'd4 && ahead < 16'h8000) live4 = 1'b1;
    end
  end
  always @* if (rst_n) `SX_COV(11, live4);
`endif
endmodule
`default_nettype wire
