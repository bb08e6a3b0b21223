`timescale 1ns/1ps
`default_nettype none
`include "gpupd_flit.vh"
// sx_pe: the stream primitive exchanger of one GPU (gpupd-stream, issue 20 item 2). Ordered streaming
// exchange without turns: this GPU sends PRIM(b, g -> d, id) for every other owner d of each P2G entry as the
// P2G produces it, then LAST(b, g); every receiver keeps one FIFO per source and releases in application
// order (batch, source, id). End-to-end credits per (receiver, source) make every data flit's slot reserved
// before it is sent, so rx ports are always ready, the network always drains, nothing is dropped.
// Functional definition: cmodel/stream/sx.c (sx_run). C cycle model of this exact microarchitecture:
// cmodel/stream/sx_hw.c (same names). Protocol, credit and progress arguments, ports: docs/sx.md.
//
// Blocks:
//   WALK    the P2G lanes: lane 0 may be any beat: an entry sends one PRIM per TX port per cycle to the lowest
//           remaining destination with a credit (rem_q holds what is left), keeps into the self FIFO; an END
//           sends LAST on each port whose receivers all have a credit, then pushes LAST into the self FIFO.
//           Lanes 1..K-1 are accepted behind an accepted lane 0 when kept-only (or empty) and not END.
//   CREDIT  credit_q[d]: slots this GPU may still fill at receiver d (reset: DEPTH). PRIM to d costs one,
//           LAST one at every receiver behind its port. CREDIT flits from d add their payload.
//   TX      one register per port. A CREDIT for the lowest source with pending credits behind that port
//           alternates with data when both wait (cr_last_q).
//   RX      always ready. PRIM/LAST from source s (legal port, expected tag rx_b_q[s], FIFO not full) is
//           pushed into FIFO[s]; a CREDIT adds to credit_q[s]. Anything else raises err_o and is dropped.
//   FIFOS   MAX_GPUS FIFOs of DEPTH slots {last, id} in one storage array (u_ram, rtl/sx_fifo_ram.v: 2 + K
//           write ports, K combinational read ports); FIFO[gpu_id] is the self queue.
//   RELEASE batch rb_q, source rs_q: up to K leading ids of FIFO[rs] per cycle (out lanes); a LAST among
//           the first K slots is consumed with them (or alone, silently) and moves to the next source; the
//           last source's LAST is the end-of-batch beat. Popped slots of FIFO[s], s != gpu_id, become
//           pending credits for s.
// Reset: control state only (pointers, counts, counters, valid bits, credits, err); the FIFO slots, rem_q and the
// TX flit registers have none (read only while valid).
module sx_pe #(
  parameter integer MAX_GPUS = 16,   // 1..64: mask width, number of receive FIFOs
  parameter integer K        = 2,    // 1..8: P2G lanes accepted and ids released per cycle
  parameter integer DEPTH    = 8     // 2..16384: slots per receive FIFO
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  // configuration (static while busy_o)
  input  wire [6:0]            cfg_n_gpus_i,
  input  wire [5:0]            cfg_gpu_id_i,
  input  wire                  cfg_topo_i,       // 0 line, 1 hub
  // P2G lanes (valid lanes a prefix; lane j accepted when in_valid_i[j] && in_ready_o[j])
  input  wire [K-1:0]          in_valid_i,
  output reg  [K-1:0]          in_ready_o,
  input  wire [K-1:0]          in_end_i,
  input  wire [K*16-1:0]       in_tag_i,
  input  wire [K*32-1:0]       in_id_i,          // entry: prim id; END: chunk count
  input  wire [K*MAX_GPUS-1:0] in_mask_i,
  // link ports: 0 = left neighbour (line) or the hub, 1 = right neighbour (line)
  output wire                  tx0_valid_o,
  input  wire                  tx0_ready_i,
  output wire [63:0]           tx0_flit_o,
  output wire                  tx1_valid_o,
  input  wire                  tx1_ready_i,
  output wire [63:0]           tx1_flit_o,
  input  wire                  rx0_valid_i,
  output wire                  rx0_ready_o,
  input  wire [63:0]           rx0_flit_i,
  input  wire                  rx1_valid_i,
  output wire                  rx1_ready_o,
  input  wire [63:0]           rx1_flit_i,
  // released primitives (a beat = the valid lanes; accepted as a whole)
  output reg  [K-1:0]          out_valid_o,
  input  wire                  out_ready_i,
  output reg  [K*32-1:0]       out_id_o,
  output wire [15:0]           out_tag_o,
  output reg                   out_eob_o,
  output reg                   rel_last_o,       // release of (out_tag_o, rel_src_o) completes at this edge
  output wire [5:0]            rel_src_o,
  // status
  output wire [20:0]           occ_o,            // slots held in all FIFOs (ids + LAST markers)
  output wire                  busy_o,
  output wire                  err_o
);
  localparam integer M  = MAX_GPUS;
  localparam integer AW = $clog2(DEPTH);
  localparam integer CW = ($clog2(DEPTH + 1) < 5) ? 5 : $clog2(DEPTH + 1);   // counts (>= 5 bits: K + 1 fits)
  localparam integer OW = ($clog2(MAX_GPUS * DEPTH + 1) < CW) ? CW : $clog2(MAX_GPUS * DEPTH + 1);   // occupancy
  localparam integer SW = 33;                      // slot {last, id}
  localparam integer RAB = $clog2(MAX_GPUS * DEPTH);  // storage address bits
  localparam integer RWP = 2 + K;                  // storage write ports: rx0, rx1, K self lanes
  localparam [6:0]   MAXN = MAX_GPUS[6:0];
  localparam [CW-1:0] DFULL = DEPTH[CW-1:0];
  localparam [2:0]   T_PRIM = `FLIT_TYPE_PRIM;
  localparam [2:0]   T_LAST = `FLIT_TYPE_LAST;
  localparam [2:0]   T_CRED = `FLIT_TYPE_CREDIT;
  localparam [6:0]   D_BCAST = `FLIT_DST_BCAST;

  // ---------------------------------------------------------------- configuration-derived masks (no flops)
  wire [6:0]   n_eff = (cfg_n_gpus_i > MAXN) ? MAXN : cfg_n_gpus_i;
  wire [6:0]   gid   = {1'b0, cfg_gpu_id_i};
  wire [M-1:0] ones  = {M{1'b1}};
  wire [M-1:0] one   = {{(M-1){1'b0}}, 1'b1};
  wire [M-1:0] all_m   = ~(ones << n_eff);
  wire [M-1:0] below_m = ~(ones << gid) & all_m;
  wire [M-1:0] gbit_m  = (one << gid) & all_m;
  wire [M-1:0] above_m = all_m & ~below_m & ~gbit_m;
  wire         line    = !cfg_topo_i;
  wire [M-1:0] side0_m = line ? below_m : (all_m & ~gbit_m);
  wire [M-1:0] side1_m = line ? above_m : {M{1'b0}};
  wire         need0   = |side0_m;
  wire         need1   = |side1_m;

  // ---------------------------------------------------------------- registers
  reg [M*AW-1:0] rp_q, wp_q;
  reg [M*CW-1:0] cnt_q, pend_q, credit_q;
  reg [M*16-1:0] rx_b_q;
  reg [15:0]     in_b_q, rb_q;
  reg [5:0]      rs_q;
  reg            rem_v_q;
  reg [M-1:0]    rem_q;
  reg [1:0]      last_sent_q;
  reg            tx0_v_q, tx1_v_q, cr_last0_q, cr_last1_q;
  reg [63:0]     tx0_flit_q, tx1_flit_q;
  reg [OW-1:0]   occb_q;         // occupancy: occ_q = occb_q + occv_q (the slots held before the last edge, and
  reg [4:0]      occv_q;         // that edge's pushes minus pops, signed): the late pushes and pops reach a 5-bit
                                 // register, not an OW-bit adder
  reg            err_q;
  reg [AW-1:0]   rrp_q;          // read pointer of FIFO[rs_q]: always equal to rp_q[rs_q] (a copy, so that the
                                 // storage read address comes from flops, not through a MAX_GPUS:1 multiplexer)

  // ---------------------------------------------------------------- helpers
  function automatic integer ix(input [5:0] s);   // FIFO index of source s (s < M; 0 otherwise)
    begin
      ix = ({26'd0, s} < M) ? {26'd0, s} : 0;
    end
  endfunction
  function automatic [5:0] lowbit(input [M-1:0] v);
    integer i;
    begin
      lowbit = 6'd0;
      for (i = M - 1; i >= 0; i = i - 1) if (v[i]) lowbit = i[5:0];
    end
  endfunction
  function automatic [RAB-1:0] mi(input [5:0] s, input [AW-1:0] a);   // storage address of slot a of FIFO s
    // verilator lint_off UNUSEDSIGNAL
    integer v;   // < MAX_GPUS * DEPTH: the bits above RAB are zero
    // verilator lint_on UNUSEDSIGNAL
    begin
      v = ix(s) * DEPTH + {{(32-AW){1'b0}}, a};
      mi = v[RAB-1:0];
    end
  endfunction
  function automatic [AW-1:0] addp(input [AW-1:0] a, input [CW+3:0] j);   // (a + j) mod DEPTH, j < DEPTH + 16
    reg [CW+4:0] s;
    begin
      s = {{(CW+5-AW){1'b0}}, a} + {1'b0, j};
      if (s >= DEPTH[CW+4:0]) s = s - DEPTH[CW+4:0];
      if (s >= DEPTH[CW+4:0]) s = {(CW+5){1'b0}};
      addp = s[AW-1:0];
    end
  endfunction
  function automatic [63:0] flit(input [2:0] t, input [5:0] src, input [6:0] dst, input [15:0] tag, input [31:0] pl);
    begin
      flit = 64'd0;
      flit[`FLIT_TYPE_LSB +: `FLIT_TYPE_BITS]       = t;
      flit[`FLIT_SRC_LSB +: `FLIT_SRC_BITS]         = src;
      flit[`FLIT_DST_LSB +: `FLIT_DST_BITS]         = dst;
      flit[`FLIT_TAG_LSB +: `FLIT_TAG_BITS]         = tag;
      flit[`FLIT_PAYLOAD_LSB +: `FLIT_PAYLOAD_BITS] = pl;
    end
  endfunction

  // ---------------------------------------------------------------- RX decode (always ready)
  // The checks of a flit against the state of its source's FIFO (expected tag, room, credit headroom) are made
  // for every FIFO at once, and the source selects one of them (one-hot, push*_m / cr*_m): no register is
  // multiplexed by the flit's source before a comparison, which keeps the input-to-register paths short.
  wire [2:0]    rx_t0 = rx0_flit_i[`FLIT_TYPE_LSB +: `FLIT_TYPE_BITS];
  wire [2:0]    rx_t1 = rx1_flit_i[`FLIT_TYPE_LSB +: `FLIT_TYPE_BITS];
  wire [5:0]    rx_src0 = rx0_flit_i[`FLIT_SRC_LSB +: `FLIT_SRC_BITS];
  wire [5:0]    rx_src1 = rx1_flit_i[`FLIT_SRC_LSB +: `FLIT_SRC_BITS];
  wire [6:0]    rx_dst0 = rx0_flit_i[`FLIT_DST_LSB +: `FLIT_DST_BITS];
  wire [6:0]    rx_dst1 = rx1_flit_i[`FLIT_DST_LSB +: `FLIT_DST_BITS];
  wire [15:0]   rx_tag0 = rx0_flit_i[`FLIT_TAG_LSB +: `FLIT_TAG_BITS];
  wire [15:0]   rx_tag1 = rx1_flit_i[`FLIT_TAG_LSB +: `FLIT_TAG_BITS];
  wire [31:0]   rx_pl0 = rx0_flit_i[`FLIT_PAYLOAD_LSB +: `FLIT_PAYLOAD_BITS];
  wire [31:0]   rx_pl1 = rx1_flit_i[`FLIT_PAYLOAD_LSB +: `FLIT_PAYLOAD_BITS];
  // flit-level conditions (type, destination, payload): PRIM/LAST to store, CREDIT to count
  wire          rx_data0 = rx0_valid_i && ((rx_t0 == T_PRIM && rx_dst0 == gid) || (rx_t0 == T_LAST && rx_dst0 == D_BCAST));
  wire          rx_data1 = rx1_valid_i && ((rx_t1 == T_PRIM && rx_dst1 == gid) || (rx_t1 == T_LAST && rx_dst1 == D_BCAST));
  wire          rx_cred0 = rx0_valid_i && rx_t0 == T_CRED && rx_dst0 == gid && rx_pl0 != 32'd0 &&
                           rx_pl0[31:CW] == {(32-CW){1'b0}};
  wire          rx_cred1 = rx1_valid_i && rx_t1 == T_CRED && rx_dst1 == gid && rx_pl1 != 32'd0 &&
                           rx_pl1[31:CW] == {(32-CW){1'b0}};
  wire [CW-1:0] rx_crn0 = rx_pl0[CW-1:0];
  wire [CW-1:0] rx_crn1 = rx_pl1[CW-1:0];
  wire [SW-1:0] rx_slot0 = {rx_t0 == T_LAST, rx_pl0};
  wire [SW-1:0] rx_slot1 = {rx_t1 == T_LAST, rx_pl1};
  // per FIFO f: the flit on port q is a legal PRIM/LAST (push*_m[f]) or CREDIT (cr*_m[f]) from source f
  wire [M-1:0]  push0_m, push1_m, cr0_m, cr1_m;
  genvar        gx;
  generate
    for (gx = 0; gx < M; gx = gx + 1) begin : g_rx
      localparam [5:0] FX = gx;
      wire [CW-1:0] c    = credit_q[gx*CW +: CW];
      wire          tok0 = rx_tag0 == rx_b_q[gx*16 +: 16];
      wire          tok1 = rx_tag1 == rx_b_q[gx*16 +: 16];
      wire          room = cnt_q[gx*CW +: CW] != DFULL;
      assign push0_m[gx] = rx_data0 && side0_m[gx] && rx_src0 == FX && tok0 && room;
      assign push1_m[gx] = rx_data1 && side1_m[gx] && rx_src1 == FX && tok1 && room;
      assign cr0_m[gx]   = rx_cred0 && side0_m[gx] && rx_src0 == FX && rx_crn0 <= DFULL - c;
      assign cr1_m[gx]   = rx_cred1 && side1_m[gx] && rx_src1 == FX && rx_crn1 <= DFULL - c;
    end
  endgenerate
  wire rx_push0 = |push0_m;
  wire rx_push1 = |push1_m;
  wire rx_err   = (rx0_valid_i && !rx_push0 && !(|cr0_m)) || (rx1_valid_i && !rx_push1 && !(|cr1_m));
  assign rx0_ready_o = 1'b1;
  assign rx1_ready_o = 1'b1;

  // ---------------------------------------------------------------- TX port choice, walker
  wire [M-1:0] pend_m, cok_m;   // pending credits for s / a credit held for receiver d
  genvar       gc;
  generate
    for (gc = 0; gc < M; gc = gc + 1) begin : g_nz
      assign pend_m[gc] = pend_q[gc*CW +: CW] != {CW{1'b0}};
      assign cok_m[gc]  = credit_q[gc*CW +: CW] != {CW{1'b0}};
    end
  endgenerate
  // TX ports: free, a CREDIT waiting (for the lowest source behind the port with pending credits), data allowed
  // (CREDIT and data alternate when both wait); room in the self FIFO
  wire          tx0_free = !tx0_v_q || tx0_ready_i;
  wire          tx1_free = !tx1_v_q || tx1_ready_i;
  wire          cr_want0 = |(pend_m & side0_m);
  wire          cr_want1 = |(pend_m & side1_m);
  wire [5:0]    cr_dst0  = lowbit(pend_m & side0_m);
  wire [5:0]    cr_dst1  = lowbit(pend_m & side1_m);
  wire          data_ok0 = tx0_free && !(cr_want0 && !cr_last0_q);
  wire          data_ok1 = tx1_free && !(cr_want1 && !cr_last1_q);
  wire [CW-1:0] self_cnt  = cnt_q[ix(cfg_gpu_id_i) * CW +: CW];
  wire [CW:0]   self_free = ({1'b0, cfg_gpu_id_i} < M[6:0]) ? {1'b0, DFULL - self_cnt} : {(CW+1){1'b0}};
  // walker results
  reg          data0, data1, load0, load1, iscr0, iscr1;
  reg [63:0]   new0, new1;
  reg [M-1:0]  dec_m;          // destinations charged one credit
  reg          rem_v_d;
  reg [M-1:0]  rem_d;
  reg [1:0]    last_sent_d;
  reg          end_fire, in_err;
  reg [3:0]    self_n;         // slots pushed into the self FIFO
  reg [SW*K-1:0] self_slots;
  // locals
  reg [M-1:0]  m0, mn, sm0, sm1;
  reg [5:0]    t0, t1;
  reg          keep0, ok0, s0, s1, done, prev_ok, prev_fire, kept_only, wants, okj;
  reg [3:0]    used;
  reg [M-1:0]  mj;
  integer      j;
  // Lane 0's acceptance of an entry, apart from the walk's choice of destinations (the path from the lane's mask
  // to in_ready_o). The walk removes at most one destination per port per cycle (the lowest with a credit, when
  // the port takes data) and the keep bit when the self FIFO has room, so nothing remains exactly when every set
  // bit of the entry's mask is removable this cycle (ent_r: from registers and tx*_ready_i) and no port has two
  // or more of them. The same value as `mn == 0` below, without the priority encoder and its decode.
  function automatic many(input [M-1:0] v);   // two or more bits of v set: v & (bits below them), prefix OR
    reg [M-1:0] p;
    integer     i;
    begin
      p = v << 1;
      for (i = 1; i < M; i = i * 2) p = p | (p << i);
      many = |(v & p);
    end
  endfunction
  wire [M-1:0] ent_r;   // destinations (and the keep bit) that can leave this cycle
  assign ent_r = (side0_m & cok_m & {M{data_ok0}}) | (side1_m & cok_m & {M{data_ok1}}) |
                 (gbit_m & {M{self_free != {(CW+1){1'b0}}}});
  wire [M-1:0] ent_m  = rem_v_q ? rem_q : (in_mask_i[0 +: M] & all_m);
  wire ent_ok;
  assign ent_ok = ((ent_m & ~ent_r) == {M{1'b0}}) && !many(ent_m & side0_m) && !many(ent_m & side1_m);
  always @* begin
    data0 = 1'b0; data1 = 1'b0; new0 = 64'd0; new1 = 64'd0; dec_m = {M{1'b0}};
    rem_v_d = rem_v_q; rem_d = rem_q; last_sent_d = last_sent_q; end_fire = 1'b0; in_err = 1'b0;
    self_n = 4'd0; self_slots = {SW*K{1'b0}}; keep0 = 1'b0; ok0 = 1'b0;
    m0 = {M{1'b0}}; mn = {M{1'b0}}; sm0 = {M{1'b0}}; sm1 = {M{1'b0}}; t0 = 6'd0; t1 = 6'd0;
    s0 = 1'b0; s1 = 1'b0; done = 1'b0;
    in_ready_o = {K{1'b0}};
    // lane 0
    if (!in_end_i[0]) begin
      m0  = rem_v_q ? rem_q : (in_mask_i[0 +: M] & all_m);
      mn  = m0;
      sm0 = m0 & side0_m & cok_m;
      sm1 = m0 & side1_m & cok_m;
      t0  = lowbit(sm0);
      t1  = lowbit(sm1);
      if ((|sm0) && data_ok0) begin
        data0 = in_valid_i[0];
        new0  = flit(T_PRIM, cfg_gpu_id_i, {1'b0, t0}, in_b_q, in_id_i[0 +: 32]);
        if (in_valid_i[0]) dec_m = dec_m | (one << t0);
        mn = mn & ~(one << t0);
      end
      if ((|sm1) && data_ok1) begin
        data1 = in_valid_i[0];
        new1  = flit(T_PRIM, cfg_gpu_id_i, {1'b0, t1}, in_b_q, in_id_i[0 +: 32]);
        if (in_valid_i[0]) dec_m = dec_m | (one << t1);
        mn = mn & ~(one << t1);
      end
      keep0 = (|(m0 & gbit_m)) && (self_free != {(CW+1){1'b0}});
      if (keep0) begin
        mn = mn & ~gbit_m;
        self_slots[0 +: SW] = {1'b0, in_id_i[0 +: 32]};
      end
      ok0 = ent_ok;   // = (mn == 0)
      if (in_valid_i[0]) begin
        if (keep0) self_n = 4'd1;
        rem_v_d = !ok0;
        rem_d   = mn;
      end
    end else begin
      s0 = need0 && !last_sent_q[0] && data_ok0 && ((side0_m & ~cok_m) == {M{1'b0}});
      s1 = need1 && !last_sent_q[1] && data_ok1 && ((side1_m & ~cok_m) == {M{1'b0}});
      if (s0) begin
        data0 = in_valid_i[0];
        new0  = flit(T_LAST, cfg_gpu_id_i, D_BCAST, in_b_q, in_id_i[0 +: 32]);
        if (in_valid_i[0]) dec_m = dec_m | side0_m;
      end
      if (s1) begin
        data1 = in_valid_i[0];
        new1  = flit(T_LAST, cfg_gpu_id_i, D_BCAST, in_b_q, in_id_i[0 +: 32]);
        if (in_valid_i[0]) dec_m = dec_m | side1_m;
      end
      done = !(need0 && !(last_sent_q[0] || s0)) && !(need1 && !(last_sent_q[1] || s1));
      if (in_valid_i[0]) last_sent_d = {last_sent_q[1] || s1, last_sent_q[0] || s0};
      ok0 = done && (self_free != {(CW+1){1'b0}});
      if (in_valid_i[0] && ok0) begin
        self_n = 4'd1;
        self_slots[0 +: SW] = {1'b1, in_id_i[0 +: 32]};
        end_fire = 1'b1;
        last_sent_d = 2'b00;
      end
    end
    in_ready_o[0] = ok0;
    if (in_valid_i[0] && ok0 && in_tag_i[0 +: 16] != in_b_q) in_err = 1'b1;
    // lanes 1..K-1
    used = {3'd0, keep0};
    prev_ok = ok0 && !in_end_i[0];
    prev_fire = in_valid_i[0] && ok0;
    for (j = 1; j < K; j = j + 1) begin
      mj = in_mask_i[j*M +: M] & all_m;
      kept_only = !in_end_i[j] && ((mj & ~gbit_m) == {M{1'b0}});
      wants = |(mj & gbit_m);
      okj = prev_ok && kept_only && (!wants || ({{(CW-3){1'b0}}, used} + 1'b1 <= self_free));
      in_ready_o[j] = okj;
      if (okj && wants) used = used + 4'd1;
      if (okj && in_valid_i[j] && prev_fire) begin
        if (wants) begin
          self_slots[self_n*SW +: SW] = {1'b0, in_id_i[j*32 +: 32]};
          self_n = self_n + 4'd1;
        end
        if (in_tag_i[j*16 +: 16] != in_b_q) in_err = 1'b1;
      end
      prev_fire = okj && in_valid_i[j] && prev_fire;
      prev_ok = okj;
    end
    // TX loads: data, else a CREDIT
    load0 = data0 || (tx0_free && cr_want0);
    load1 = data1 || (tx1_free && cr_want1);
    iscr0 = !data0 && tx0_free && cr_want0;
    iscr1 = !data1 && tx1_free && cr_want1;
    if (iscr0) new0 = flit(T_CRED, cfg_gpu_id_i, {1'b0, cr_dst0}, 16'd0,
                           {{(32-CW){1'b0}}, pend_q[ix(cr_dst0) * CW +: CW]});
    if (iscr1) new1 = flit(T_CRED, cfg_gpu_id_i, {1'b0, cr_dst1}, 16'd0,
                           {{(32-CW){1'b0}}, pend_q[ix(cr_dst1) * CW +: CW]});
  end

  // ---------------------------------------------------------------- release of FIFO[rs]
  wire [CW-1:0]   rcnt = cnt_q[ix(rs_q) * CW +: CW];
  wire [AW-1:0]   rrp  = rrp_q;                // = rp_q[rs_q], kept in its own register (below)
  wire [K*SW-1:0] rslot;                       // the first K slots of FIFO[rs]
  reg  [K*RAB-1:0] ram_raddr;
  integer          g;
  always @* begin
    for (g = 0; g < K; g = g + 1) ram_raddr[g*RAB +: RAB] = mi(rs_q, addp(rrp, g[CW+3:0]));
  end
  reg [3:0]    nprim;
  reg          stop, last_at, final_s, rel_valid;
  reg [CW-1:0] rel_pop;
  integer      r;
  reg [3:0]    lim;
  always @* begin
    rel_valid = ({1'b0, rs_q} < M[6:0]) && ({1'b0, rs_q} < n_eff);
    lim = ({{(32-CW){1'b0}}, rcnt} < K) ? rcnt[3:0] : K[3:0];
    nprim = 4'd0;
    stop = 1'b0;
    for (r = 0; r < K; r = r + 1)
      if (!stop && r[3:0] < lim && !rslot[r*SW+SW-1]) nprim = nprim + 4'd1;
      else stop = 1'b1;
    last_at = 1'b0;
    for (r = 0; r < K; r = r + 1)
      if (r[3:0] == nprim && r[3:0] < lim && rslot[r*SW+SW-1]) last_at = 1'b1;
    if (!rel_valid) begin nprim = 4'd0; last_at = 1'b0; end
    final_s = ({1'b0, rs_q} + 7'd1) >= n_eff;
    out_valid_o = {K{1'b0}};
    out_id_o = {K*32{1'b0}};
    out_eob_o = 1'b0;
    rel_last_o = 1'b0;
    rel_pop = {CW{1'b0}};
    if (nprim != 4'd0) begin
      for (r = 0; r < K; r = r + 1)
        if (r[3:0] < nprim) begin
          out_valid_o[r] = 1'b1;
          out_id_o[r*32 +: 32] = rslot[r*SW +: 32];
        end
      if (out_ready_i) begin
        rel_pop = {{(CW-4){1'b0}}, nprim} + {{(CW-1){1'b0}}, last_at && !final_s};
        rel_last_o = last_at && !final_s;
      end
    end else if (last_at) begin
      if (!final_s) begin
        rel_pop = {{(CW-1){1'b0}}, 1'b1};
        rel_last_o = 1'b1;
      end else begin
        out_valid_o[0] = 1'b1;
        out_eob_o = 1'b1;
        if (out_ready_i) begin
          rel_pop = {{(CW-1){1'b0}}, 1'b1};
          rel_last_o = 1'b1;
        end
      end
    end
  end
  assign out_tag_o = rb_q;
  assign rel_src_o = rs_q;
  // next value of rrp_q: the popped pointer, or at a source change the next FIFO's pointer (not popped in this
  // cycle unless it is the same FIFO: N = 1)
  wire [5:0]    rs_next  = final_s ? 6'd0 : rs_q + 6'd1;
  wire [AW-1:0] rrp_pop  = addp(rrp_q, {4'd0, rel_pop});
  wire [AW-1:0] rrp_d    = (rel_last_o && rs_next != rs_q) ? rp_q[ix(rs_next) * AW +: AW] : rrp_pop;

  // ---------------------------------------------------------------- next state of the per-FIFO counters
  // One block per FIFO f. Pushes: the rx port whose flit is from f (at most one: the ports serve disjoint
  // sources), or up to K self lanes when f is this GPU. Pops: the release of FIFO[rs]. The signals that settle
  // last (the walk's self_n and dec_m, the release's rel_pop) enter each sum last.
  wire [M*AW-1:0] rp_d, wp_d;
  wire [M*CW-1:0] cnt_d, pend_d, credit_d;
  wire [M*16-1:0] rx_b_d;
  // pending credits of FIFO[rs] plus its pops: one adder, shared (only FIFO[rs] is popped)
  wire [CW-1:0]   pend_rs = pend_q[ix(rs_q) * CW +: CW] + rel_pop;
  genvar          gf;
  generate
    for (gf = 0; gf < M; gf = gf + 1) begin : g_fifo
      localparam [5:0] F = gf;
      wire          self_f = cfg_gpu_id_i == F;
      wire [CW-1:0] pops   = (rs_q == F) ? rel_pop : {CW{1'b0}};
      wire [CW-1:0] pushes = {{(CW-1){1'b0}}, push0_m[gf] | push1_m[gf]} +
                             (self_f ? {{(CW-4){1'b0}}, self_n} : {CW{1'b0}});
      wire          bump   = (push0_m[gf] && rx_slot0[SW-1]) || (push1_m[gf] && rx_slot1[SW-1]);
      wire          cr_clr = (iscr0 && cr_dst0 == F) || (iscr1 && cr_dst1 == F);
      wire [CW-1:0] cq     = credit_q[gf*CW +: CW];
      // the CREDIT payload of f's port added before the checks settle; the check (cr*_m) and the charge (dec_m,
      // the walk) select among the four candidates last
      wire [CW-1:0] crn    = side1_m[gf] ? rx_crn1 : rx_crn0;
      (* keep *) wire [CW-1:0] cq_m1;
      assign cq_m1 = cq - 1'b1;
      (* keep *) wire [CW-1:0] cq_a;
      assign cq_a = cq + crn;
      (* keep *) wire [CW-1:0] cq_b;
      assign cq_b = cq_m1 + crn;
      wire          cr_f   = cr0_m[gf] | cr1_m[gf];
      wire [CW-1:0] pq     = cr_clr ? {CW{1'b0}} : pend_q[gf*CW +: CW];
      assign rp_d[gf*AW +: AW]     = addp(rp_q[gf*AW +: AW], {4'd0, pops});
      assign wp_d[gf*AW +: AW]     = addp(wp_q[gf*AW +: AW], {4'd0, pushes});
      assign cnt_d[gf*CW +: CW]    = cnt_q[gf*CW +: CW] + pushes - pops;
      (* keep *) wire [15:0] binc;   // from flops only (keep: not merged with bump)
      assign binc = rx_b_q[gf*16 +: 16] + 16'd1;
      assign rx_b_d[gf*16 +: 16]   = bump ? binc : rx_b_q[gf*16 +: 16];
      // pending credits: cleared when sent, plus this cycle's pops (not of the self FIFO)
      assign pend_d[gf*CW +: CW]   = (rs_q != F || self_f) ? pq : cr_clr ? rel_pop : pend_rs;
      // credits held for receiver f: minus one per PRIM/LAST charged (dec_m, late), plus a CREDIT's payload
      assign credit_d[gf*CW +: CW] = dec_m[gf] ? (cr_f ? cq_b : cq_m1) : (cr_f ? cq_a : cq);
    end
  endgenerate
  // occupancy: this cycle's 2 + K pushes (at most 10) minus the pops (at most K + 1 = 9), a signed 5-bit delta
  wire [3:0]    occ_push = {3'd0, rx_push0} + {3'd0, rx_push1} + self_n;
  wire [4:0]    occv_d   = {1'b0, occ_push} - {1'b0, rel_pop[3:0]};
  wire [OW-1:0] occ_q    = occb_q + {{(OW-5){occv_q[4]}}, occv_q};   // slots held now (occ_o)

  // ---------------------------------------------------------------- control registers (reset)
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rp_q <= {M*AW{1'b0}}; wp_q <= {M*AW{1'b0}}; cnt_q <= {M*CW{1'b0}}; pend_q <= {M*CW{1'b0}};
      credit_q <= {M{DFULL}}; rx_b_q <= {M*16{1'b0}};
      in_b_q <= 16'd0; rb_q <= 16'd0; rs_q <= 6'd0; rrp_q <= {AW{1'b0}};
      rem_v_q <= 1'b0; last_sent_q <= 2'b00;
      tx0_v_q <= 1'b0; tx1_v_q <= 1'b0; cr_last0_q <= 1'b0; cr_last1_q <= 1'b0;
      occb_q <= {OW{1'b0}}; occv_q <= 5'd0; err_q <= 1'b0;
    end else begin
      rp_q <= rp_d; wp_q <= wp_d; cnt_q <= cnt_d; pend_q <= pend_d; credit_q <= credit_d; rx_b_q <= rx_b_d;
      occb_q <= occ_q;
      occv_q <= occv_d;
      rrp_q <= rrp_d;
      if (rel_last_o) begin
        if (final_s) begin rs_q <= 6'd0; rb_q <= rb_q + 16'd1; end
        else rs_q <= rs_q + 6'd1;
      end
      if (load0) begin tx0_v_q <= 1'b1; cr_last0_q <= iscr0; end else if (tx0_ready_i) tx0_v_q <= 1'b0;
      if (load1) begin tx1_v_q <= 1'b1; cr_last1_q <= iscr1; end else if (tx1_ready_i) tx1_v_q <= 1'b0;
      rem_v_q <= rem_v_d;
      last_sent_q <= last_sent_d;
      if (end_fire) in_b_q <= in_b_q + 16'd1;
      if (rx_err || in_err) err_q <= 1'b1;
    end
  end

  // ---------------------------------------------------------------- data registers (no reset)
  integer w;
  always @(posedge clk_i) begin
    rem_q <= rem_d;
    if (load0) tx0_flit_q <= new0;
    if (load1) tx1_flit_q <= new1;
  end

  // ---------------------------------------------------------------- FIFO storage (write ports: rx0, rx1, self lanes)
  reg [RWP-1:0]     ram_we;
  reg [RWP*RAB-1:0] ram_waddr;
  reg [RWP*SW-1:0]  ram_wdata;
  always @* begin
    ram_we = {RWP{1'b0}};
    ram_we[0] = rx_push0;
    ram_we[1] = rx_push1;
    ram_waddr[0 +: RAB]   = mi(rx_src0, wp_q[ix(rx_src0) * AW +: AW]);
    ram_waddr[RAB +: RAB] = mi(rx_src1, wp_q[ix(rx_src1) * AW +: AW]);
    ram_wdata[0 +: SW]    = rx_slot0;
    ram_wdata[SW +: SW]   = rx_slot1;
    for (w = 0; w < K; w = w + 1) begin
      ram_we[2 + w] = w[3:0] < self_n;
      ram_waddr[(2 + w)*RAB +: RAB] = mi(cfg_gpu_id_i, addp(wp_q[ix(cfg_gpu_id_i) * AW +: AW], w[CW+3:0]));
      ram_wdata[(2 + w)*SW +: SW]   = self_slots[w*SW +: SW];
    end
  end
  sx_fifo_ram #(.W(SW), .WORDS(M * DEPTH), .AB(RAB), .WP(RWP), .RP(K)) u_ram (
    .clk_i   (clk_i),
    .we_i    (ram_we),
    .waddr_i (ram_waddr),
    .wdata_i (ram_wdata),
    .raddr_i (ram_raddr),
    .rdata_o (rslot)
  );

  // ---------------------------------------------------------------- outputs
  assign tx0_valid_o = tx0_v_q;
  assign tx0_flit_o  = tx0_flit_q;
  assign tx1_valid_o = tx1_v_q;
  assign tx1_flit_o  = tx1_flit_q;
  assign occ_o = {{(21-OW){1'b0}}, occ_q};
  assign err_o = err_q;
  assign busy_o = (occ_q != {OW{1'b0}}) || tx0_v_q || tx1_v_q || rem_v_q || (last_sent_q != 2'b00) ||
                  (pend_q != {M*CW{1'b0}}) || (in_b_q != rb_q) || (rs_q != 6'd0);
endmodule
`default_nettype wire
