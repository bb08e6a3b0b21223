`default_nettype none
// Bounded proofs of the stream PE (rtl/sx_pe.v, unchanged) in an environment of the P2G and the other GPUs that
// the solver drives freely within the protocol (docs/sx.md section 4.5). MAX_GPUS = 3, K = 1, every N <= 3,
// every gpu_id, both topologies ($anyconst configuration). Not synthesized.
//
// Environment (assumptions):
//   P2G: lane 0 holds its beat until accepted; beats are entries {id = running count, free mask} or END; tag = the
//        environment's batch count (at most BMAX batches).
//   Sources s != g: on the rx port of s (line: 0 below g, 1 above; hub: 0) the solver may present PRIM(tag sb[s],
//        id = running count of s) or LAST(sb[s]) whenever s holds a credit (ecr[s] > 0, DEPTH at reset); the PE's
//        CREDIT flits to s give credits back.
//   Receivers d != g: take the PE's flits (held[d]); the solver may return 1..held[d] credits with a CREDIT flit
//        on d's port. One flit per rx port per cycle (data or credit). tx_ready and out_ready free.
// Properties (assertions):
//   S1 per-source exactly-once and order at the output: the released ids of a beat are the next entries of the
//      shadow queue of source rel_src (what that source sent, or this GPU's kept P2G entries), none skipped, none
//      twice; a LAST marker is consumed (rel_last) only when it is at the head of that queue;
//   S2 application order: beats come from source exp_src of batch exp_b, which advance 0..N-1 then the next batch
//      exactly at rel_last; the end-of-batch beat comes from source N-1;
//   S3 credits: the PE never sends a PRIM/LAST to a receiver that holds DEPTH of its slots; it never returns more
//      credits to a source than that source used; CREDIT payload >= 1; rx_ready is always 1;
//   S4 TX content and order per destination: PRIM(d) carries the next id owed to d (P2G entries with bit d, in
//      order), LAST on a port only when every receiver behind it has received all its PRIMs of the batch, with
//      the batch's tag and chunk count; flits go out on the port of their destination;
//   S5 err_o stays 0 and occ_o equals the shadow queues' total.
module sx_formal #(
  parameter integer MAX_GPUS = 3,
  parameter integer DEPTH    = 2,
  parameter integer BMAX     = 3
) (
  input wire clk
);
  localparam integer K = 1;
  localparam integer M = MAX_GPUS;
  localparam integer QD = 4;                  // shadow queue slots (>= DEPTH + 2)
  reg        rst_n = 1'b0;
  always @(posedge clk) rst_n <= 1'b1;

  // ------------------------------------------------------------------ configuration
  (* anyconst *) reg [1:0] c_n;
  (* anyconst *) reg [1:0] c_g;
  (* anyconst *) reg       c_topo;
  wire [6:0] n = {5'd0, c_n};
  wire [5:0] g = {4'd0, c_g};
  always @* begin
    assume (c_n >= 2'd1 && c_n <= M[1:0]);
    assume (c_g < c_n);
  end
  function automatic [1:0] port_of(input [1:0] s);
    port_of = (!c_topo && s > c_g) ? 2'd1 : 2'd0;
  endfunction

  // ------------------------------------------------------------------ free inputs
  (* anyseq *) reg        f_pvalid, f_pend, f_txr0, f_txr1, f_outr;
  (* anyseq *) reg [M-1:0] f_pmask;
  (* anyseq *) reg [2:0]  f_rx0, f_rx1;       // 0 none; 1..3 data from source v-1; 4..6 credit from receiver v-4
  (* anyseq *) reg        f_last0, f_last1;   // data flit is a LAST
  (* anyseq *) reg [1:0]  f_amt0, f_amt1;     // credit amount - 1

  // ------------------------------------------------------------------ P2G lane
  reg        l_v, l_end;
  reg [M-1:0] l_mask;
  reg [7:0]  l_id, p_seq, p_cnt;
  reg [2:0]  pb;
  wire       in_ready;
  wire       l_fire = l_v && in_ready;
  always @(posedge clk) begin
    if (!rst_n) begin
      l_v <= 1'b0; p_seq <= 8'd0; p_cnt <= 8'd0; pb <= 3'd0; l_end <= 1'b0; l_mask <= {M{1'b0}}; l_id <= 8'd0;
    end else if (!l_v || l_fire) begin
      if (l_fire && l_end) begin pb <= pb + 3'd1; p_cnt <= 8'd0; end
      else if (l_fire) p_cnt <= p_cnt + 8'd1;
      if (l_fire && !l_end) p_seq <= p_seq + 8'd1;
      l_v    <= f_pvalid && (pb + ((l_fire && l_end) ? 3'd1 : 3'd0)) < BMAX;
      l_end  <= f_pend;
      l_mask <= f_pmask;
      l_id   <= f_pend ? ((l_fire && l_end) ? 8'd0 : (p_cnt + (l_fire ? 8'd1 : 8'd0)))
                       : (p_seq + ((l_fire && !l_end) ? 8'd1 : 8'd0));
    end
  end

  // probe (connected by the flow after flatten: connect -set p_self_n dut.self_n)
  wire [3:0] p_self_n;

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
    .in_valid_i(l_v), .in_ready_o(in_ready), .in_end_i(l_end), .in_tag_i({13'd0, pb}), .in_id_i({24'd0, l_id}),
    .in_mask_i(l_mask),
    .tx0_valid_o(tx0_v), .tx0_ready_i(f_txr0), .tx0_flit_o(tx0_f),
    .tx1_valid_o(tx1_v), .tx1_ready_i(f_txr1), .tx1_flit_o(tx1_f),
    .rx0_valid_i(rx0_v), .rx0_ready_o(rx0_r), .rx0_flit_i(rx0_f),
    .rx1_valid_i(rx1_v), .rx1_ready_o(rx1_r), .rx1_flit_i(rx1_f),
    .out_valid_o(out_v), .out_ready_i(f_outr), .out_id_o(out_id), .out_tag_o(out_tag), .out_eob_o(out_eob),
    .rel_last_o(rel_last), .rel_src_o(rel_src), .occ_o(occ), .busy_o(busy), .err_o(err));

  // ------------------------------------------------------------------ sources and receivers (state)
  // arrays flattened: [s] of per-GPU state, [s*QD + i] of queue slots
  reg [1:0]  ecr [0:M-1];       // credits source s holds for this GPU
  reg [2:0]  sb  [0:M-1];       // batch of source s's next flit
  reg [7:0]  sseq[0:M-1];       // next PRIM id of source s
  reg [2:0]  held[0:M-1];       // slots this GPU holds at receiver d
  reg [8:0]  sq  [0:M*QD-1];    // shadow queue of source s: what the PE's FIFO[s] must hold, {last, id}
  reg [2:0]  sqn [0:M-1];
  reg [11:0] tq  [0:M*QD-1];    // expected TX to d: {batch, last, id}, queued when the lane shows a new beat
  reg [2:0]  tqn [0:M-1];
  reg        l_new;
  reg [1:0]  exp_src;
  reg [2:0]  exp_b;

  reg [1:0] s0, s1;
  always @* begin
    s0 = (f_rx0 >= 3'd4) ? f_rx0[1:0] : f_rx0[1:0] - 2'd1;
    s1 = (f_rx1 >= 3'd4) ? f_rx1[1:0] : f_rx1[1:0] - 2'd1;
    rx0_v = rst_n && f_rx0 != 3'd0;
    rx1_v = rst_n && f_rx1 != 3'd0;
    rx0_f = (f_rx0 >= 3'd4) ? {3'd3, 4'd0, s0, 5'd0, c_g, 16'd0, {29'd0, {1'b0, f_amt0} + 3'd1}}
                            : {f_last0 ? 3'd2 : 3'd1, 4'd0, s0, f_last0 ? 7'd127 : {5'd0, c_g}, 13'd0, sb[s0],
                               f_last0 ? 32'd0 : {24'd0, sseq[s0]}};
    rx1_f = (f_rx1 >= 3'd4) ? {3'd3, 4'd0, s1, 5'd0, c_g, 16'd0, {29'd0, {1'b0, f_amt1} + 3'd1}}
                            : {f_last1 ? 3'd2 : 3'd1, 4'd0, s1, f_last1 ? 7'd127 : {5'd0, c_g}, 13'd0, sb[s1],
                               f_last1 ? 32'd0 : {24'd0, sseq[s1]}};
  end
  // legality of the solver's choices
  always @* begin
    assume (f_rx0 != 3'd7 && f_rx1 != 3'd7);
    if (rx0_v) begin
      assume (s0 < c_n && s0 != c_g && port_of(s0) == 2'd0);
      if (f_rx0 >= 3'd4) assume ({1'b0, f_amt0} + 3'd1 <= held[s0]);
      else assume (ecr[s0] != 2'd0 && sb[s0] < BMAX);
    end
    if (rx1_v) begin
      assume (!c_topo && s1 < c_n && s1 != c_g && port_of(s1) == 2'd1);
      if (f_rx1 >= 3'd4) assume ({1'b0, f_amt1} + 3'd1 <= held[s1]);
      else assume (ecr[s1] != 2'd0 && sb[s1] < BMAX);
    end
  end

  // ------------------------------------------------------------------ TX decode
  wire       tx0_fire = tx0_v && f_txr0, tx1_fire = tx1_v && f_txr1;
  wire [2:0] t0 = tx0_f[63:61], t1 = tx1_f[63:61];
  wire [1:0] d0 = tx0_f[49:48], d1 = tx1_f[49:48];
  wire       out_fire = out_v && f_outr;

  integer s, i;
  reg [8:0]  sq_n [0:M*QD-1];
  reg [2:0]  sqn_n[0:M-1];
  reg [11:0] tq_n [0:M*QD-1];
  reg [2:0]  tqn_n[0:M-1];
  reg [1:0]  ecr_n [0:M-1];
  reg [2:0]  held_n[0:M-1];
  reg [2:0]  sb_n[0:M-1];
  reg [7:0]  sseq_n[0:M-1];
  reg [2:0]  occ_sh;
  reg [M-1:0] sq_pop, tq_pop;   // pops this cycle (at most one per queue)
  reg [M-1:0] tq_popa;          // a second pop source for tq never happens in one cycle (asserted)
  always @* begin
    sq_pop = {M{1'b0}};
    tq_pop = {M{1'b0}};
    tq_popa = {M{1'b0}};
    for (s = 0; s < M; s = s + 1) begin
      ecr_n[s] = ecr[s]; held_n[s] = held[s]; sb_n[s] = sb[s]; sseq_n[s] = sseq[s];
    end
    // output: one pop of FIFO[rel_src] per released id, one for a consumed LAST (K = 1: at most one id)
    // (ids and the LAST in one beat: two pops, handled as a double shift below)
    // sources send, receivers return credits
    if (rx0_v && f_rx0 < 3'd4) begin
      ecr_n[s0] = ecr_n[s0] - 2'd1;
      if (f_last0) sb_n[s0] = sb[s0] + 3'd1; else sseq_n[s0] = sseq[s0] + 8'd1;
    end
    if (rx1_v && f_rx1 < 3'd4) begin
      ecr_n[s1] = ecr_n[s1] - 2'd1;
      if (f_last1) sb_n[s1] = sb[s1] + 3'd1; else sseq_n[s1] = sseq[s1] + 8'd1;
    end
    if (rx0_v && f_rx0 >= 3'd4) held_n[s0] = held_n[s0] - ({1'b0, f_amt0} + 3'd1);
    if (rx1_v && f_rx1 >= 3'd4) held_n[s1] = held_n[s1] - ({1'b0, f_amt1} + 3'd1);
    // the PE's flits
    if (tx0_fire) begin
      if (t0 == 3'd3) ecr_n[d0] = ecr_n[d0] + tx0_f[1:0];
      else if (t0 == 3'd1) begin held_n[d0] = held_n[d0] + 3'd1; tq_pop[d0] = 1'b1; end
      else for (s = 0; s < M; s = s + 1)
        if (s < c_n && s != c_g && port_of(s[1:0]) == 2'd0) begin held_n[s] = held_n[s] + 3'd1; tq_pop[s] = 1'b1; end
    end
    if (tx1_fire) begin
      if (t1 == 3'd3) ecr_n[d1] = ecr_n[d1] + tx1_f[1:0];
      else if (t1 == 3'd1) begin held_n[d1] = held_n[d1] + 3'd1; tq_popa[d1] = 1'b1; end
      else for (s = 0; s < M; s = s + 1)
        if (s < c_n && s != c_g && port_of(s[1:0]) == 2'd1) begin held_n[s] = held_n[s] + 3'd1; tq_popa[s] = 1'b1; end
    end
    // shadow queues: shift out pops, then append pushes
    for (s = 0; s < M; s = s + 1) begin
      // sq: pops (output), then pushes (P2G keep into the self queue, or the source's flit)
      for (i = 0; i < QD; i = i + 1) sq_n[s*QD + i] = sq[s*QD + i];
      sqn_n[s] = sqn[s];
      if ({4'd0, s[1:0]} == rel_src && rst_n) begin
        if ((out_fire && !out_eob) && rel_last) begin
          for (i = 0; i < QD - 2; i = i + 1) sq_n[s*QD + i] = sq[s*QD + i + 2];
          sqn_n[s] = sqn[s] - 3'd2;
        end else if ((out_fire && !out_eob) || rel_last) begin
          for (i = 0; i < QD - 1; i = i + 1) sq_n[s*QD + i] = sq[s*QD + i + 1];
          sqn_n[s] = sqn[s] - 3'd1;
        end
      end
      if (s == c_g && p_self_n != 4'd0) begin   // the walk pushed the lane's keep / LAST into the self FIFO
        sq_n[s*QD + sqn_n[s]] = {l_end, l_end ? l_id : l_id};
        sqn_n[s] = sqn_n[s] + 3'd1;
      end
      if (rx0_v && f_rx0 < 3'd4 && s0 == s[1:0]) begin
        sq_n[s*QD + sqn_n[s]] = {f_last0, f_last0 ? 8'd0 : sseq[s]};
        sqn_n[s] = sqn_n[s] + 3'd1;
      end
      if (rx1_v && f_rx1 < 3'd4 && s1 == s[1:0]) begin
        sq_n[s*QD + sqn_n[s]] = {f_last1, f_last1 ? 8'd0 : sseq[s]};
        sqn_n[s] = sqn_n[s] + 3'd1;
      end
      // tq: pop (the PE's flit to s), then push (a new lane beat owes s a PRIM or a LAST)
      for (i = 0; i < QD; i = i + 1) tq_n[s*QD + i] = tq[s*QD + i];
      tqn_n[s] = tqn[s];
      if (tq_pop[s] || tq_popa[s]) begin
        for (i = 0; i < QD - 1; i = i + 1) tq_n[s*QD + i] = tq[s*QD + i + 1];
        tqn_n[s] = tqn[s] - 3'd1;
      end
      if (l_new && l_v && s < c_n && s != c_g && (l_end || l_mask[s])) begin
        tq_n[s*QD + tqn_n[s]] = {pb, l_end, l_id};
        tqn_n[s] = tqn_n[s] + 3'd1;
      end
    end
    occ_sh = 3'd0;
    for (s = 0; s < M; s = s + 1) occ_sh = occ_sh + sqn[s];
  end

  always @(posedge clk) begin
    if (!rst_n) begin
      for (s = 0; s < M; s = s + 1) begin
        ecr[s] <= DEPTH[1:0]; sb[s] <= 3'd0; sseq[s] <= 8'd0; held[s] <= 3'd0; sqn[s] <= 3'd0; tqn[s] <= 3'd0;
      end
      for (i = 0; i < M*QD; i = i + 1) begin sq[i] <= 9'd0; tq[i] <= 12'd0; end
      l_new <= 1'b1; exp_src <= 2'd0; exp_b <= 3'd0;
    end else begin
      for (s = 0; s < M; s = s + 1) begin
        ecr[s] <= ecr_n[s]; sb[s] <= sb_n[s]; sseq[s] <= sseq_n[s]; held[s] <= held_n[s]; sqn[s] <= sqn_n[s];
        tqn[s] <= tqn_n[s];
      end
      for (i = 0; i < M*QD; i = i + 1) begin sq[i] <= sq_n[i]; tq[i] <= tq_n[i]; end
      l_new <= l_v ? l_fire : 1'b1;
      if (rel_last) begin
        if ({5'd0, exp_src} + 7'd1 >= n) begin exp_src <= 2'd0; exp_b <= exp_b + 3'd1; end
        else exp_src <= exp_src + 2'd1;
      end
    end
  end

  // ------------------------------------------------------------------ properties
  always @* if (rst_n) begin
    // S5
    assert (!err);
    assert ((tq_pop & tq_popa) == {M{1'b0}});   // a receiver is behind one port only
    assert (occ == {18'd0, occ_sh});
    // S3
    assert (rx0_r && rx1_r);
    for (s = 0; s < M; s = s + 1) begin
      assert (held[s] <= DEPTH);
      assert (sqn[s] <= DEPTH);
      assert (tqn[s] < QD);
    end
    // S2: application order
    if (out_v || rel_last) begin
      assert (rel_src[1:0] == exp_src && rel_src[5:2] == 4'd0);
      assert (out_tag == {13'd0, exp_b});
    end
    if (out_v && out_eob) assert ({5'd0, exp_src} + 7'd1 == n);
    // S1: the released ids are the head of the shadow queue of their source; LAST consumed only at its head
    if (out_v && !out_eob) begin
      assert (sqn[rel_src[1:0]] != 3'd0 && !sq[rel_src[1:0]*QD][8] && out_id == {24'd0, sq[rel_src[1:0]*QD][7:0]});
      if (rel_last) assert (sqn[rel_src[1:0]] >= 3'd2 && sq[rel_src[1:0]*QD+1][8]);
    end
    if (rel_last && !out_v) assert (sqn[rel_src[1:0]] != 3'd0 && sq[rel_src[1:0]*QD][8]);
    if (out_v && out_eob) assert (sqn[rel_src[1:0]] != 3'd0 && sq[rel_src[1:0]*QD][8]);
    // S3/S4: the PE's flits
    if (tx0_v) begin
      assert (tx0_f[60:55] == g);
      if (t0 == 3'd1) begin
        assert (d0 < c_n && d0 != c_g && port_of(d0) == 2'd0 && tx0_f[54:50] == 5'd0);
      end else if (t0 == 3'd2) begin
        assert (tx0_f[54:48] == 7'd127);
      end else begin
        assert (t0 == 3'd3 && d0 < c_n && d0 != c_g && port_of(d0) == 2'd0 && tx0_f[31:0] >= 32'd1);
      end
    end
    if (tx1_v) begin
      assert (!c_topo && tx1_f[60:55] == g);
      if (t1 == 3'd1) assert (d1 < c_n && port_of(d1) == 2'd1 && d1 != c_g && tx1_f[54:50] == 5'd0);
      else if (t1 == 3'd2) assert (tx1_f[54:48] == 7'd127);
      else assert (t1 == 3'd3 && d1 < c_n && d1 != c_g && port_of(d1) == 2'd1 && tx1_f[31:0] >= 32'd1);
    end
    if (tx0_fire) begin
      if (t0 == 3'd1) assert (tqn[d0] != 3'd0 && !tq[d0*QD][8] && tx0_f[31:0] == {24'd0, tq[d0*QD][7:0]} && tx0_f[47:32] == {13'd0, tq[d0*QD][11:9]} && held[d0] < DEPTH);
      if (t0 == 3'd3) assert ({1'b0, ecr[d0]} + tx0_f[2:0] <= DEPTH && tx0_f[31:2] == 30'd0);
      if (t0 == 3'd2)
        for (s = 0; s < M; s = s + 1)
          if (s < c_n && s != c_g && port_of(s[1:0]) == 2'd0)
            assert (tqn[s] != 3'd0 && tq[s*QD][8] && tx0_f[31:0] == {24'd0, tq[s*QD][7:0]} && tx0_f[47:32] == {13'd0, tq[s*QD][11:9]} && held[s] < DEPTH);
    end
    if (tx1_fire) begin
      if (t1 == 3'd1) assert (tqn[d1] != 3'd0 && !tq[d1*QD][8] && tx1_f[31:0] == {24'd0, tq[d1*QD][7:0]} && tx1_f[47:32] == {13'd0, tq[d1*QD][11:9]} && held[d1] < DEPTH);
      if (t1 == 3'd3) assert ({1'b0, ecr[d1]} + tx1_f[2:0] <= DEPTH && tx1_f[31:2] == 30'd0);
      if (t1 == 3'd2)
        for (s = 0; s < M; s = s + 1)
          if (s < c_n && s != c_g && port_of(s[1:0]) == 2'd1)
            assert (tqn[s] != 3'd0 && tq[s*QD][8] && tx1_f[31:0] == {24'd0, tq[s*QD][7:0]} && tx1_f[47:32] == {13'd0, tq[s*QD][11:9]} && held[s] < DEPTH);
    end
  end

  // ------------------------------------------------------------------ covers: a whole 3-GPU batch with a full FIFO
  reg saw_full;
  always @(posedge clk)
    if (!rst_n) saw_full <= 1'b0;
    else if (sqn[0] == DEPTH[2:0] || sqn[1] == DEPTH[2:0] || sqn[M-1] == DEPTH[2:0]) saw_full <= 1'b1;
  always @* if (rst_n) cover (c_n == 2'd3 && saw_full && out_v && out_eob && f_outr);
endmodule
`default_nettype wire
