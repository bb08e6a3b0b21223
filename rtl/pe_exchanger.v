`timescale 1ns/1ps
`default_nettype none
`include "gpupd_flit.vh"
// pe_exchanger: the primitive exchanger (PE) of one GPU, the CD phase of GPUpd's C-PD (MICRO'17 section
// 4.2-4.3, SPEC 4.2). The functional definition of the exchange is cmodel/pe/pe.c (pe_run); the C cycle
// model of this exact microarchitecture is cmodel/pe/pe_hw.c. Microarchitecture, port table, timing and
// the protocol argument: docs/pe.md. Flit layout: build/gen/gpupd_flit.vh, generated from cmodel/link/flit.h.
//
// Blocks (all queues bounded, valid/ready everywhere, data stable until accepted):
//   LQ      local queue (pe_fifo, LQ_DEPTH beats) of this GPU's P2G results, batch-tagged: entries
//           {tag, prim_id, mask} then END {tag, chunk count}. Backpressure to the P2G (in_ready_o low) when
//           full, and when the beat's batch may not be accepted yet: without runahead only batch cur, with
//           runahead cur and cur+1 (the results of b+1 wait in the LQ while b is exchanged).
//   TURN    turn engine on the LQ head. Own turn of batch cur when LAST(cur, j) arrived from every j < gpu_id,
//           the output has finished batch cur-1 (ob == cur) and the turn is not done. Per cycle and entry:
//           one PRIM to the lowest remaining destination on each TX port (line: t < gpu_id left on tx0,
//           t > gpu_id right on tx1; hub: every t on tx0) and the keep bit (t == gpu_id) into the receive
//           bank of cur; the entry pops when nothing remains (a mask-0 entry takes one cycle). END: LAST(cur,
//           gpu_id) with the chunk count on every port with a neighbour (line) / the hub port, then
//           turn_done. CD of cur completes when turn_done and LAST(cur, j) arrived from every j != gpu_id.
//   TX      one output register per port (tx*_valid_o from a flop; refilled in the cycle it is accepted).
//   RX      both ports accepted in the same cycle. LAST(b, j) sets bit j of lasts[b & 1]; PRIM(b) is
//           appended to receive bank b & 1 (pe_fifo, RQ_DEPTH ids). Two batches are live at most (b and
//           b+1: flits of b+2 cannot exist before this GPU's LAST(b+1)); arrival order is kept per bank;
//           two PRIMs for one bank in one cycle: port 0 first (port 1 waits a cycle; never happens in
//           protocol-legal traffic), then the keep path. Through-traffic of the line is forwarded by the
//           link model (cmodel/link/net.c), not here: rx ports see only flits for this GPU and broadcasts.
//   OUT     output register: the ids of bank ob & 1 in order, then {eob, tag} once CD of batch ob is
//           complete and its bank is empty.
// Throughput: one flit per cycle per TX port, one per cycle per RX port, one output beat per cycle, one
// P2G beat per cycle into the LQ. Latency: a P2G beat accepted in cycle c is at the LQ head in c+1; its
// flits leave the TX registers from c+2 (tx*_valid_o), a kept id reaches out_valid_o in c+3.
// Configuration (cfg_*) is static while busy_o is high: n_gpus 1..MAX_GPUS, gpu_id < n_gpus, topo 0 line
// / 1 hub, runahead. Batches are numbered 0, 1, ... after reset (tag = number mod 2^16).
// err_o (sticky): an input beat whose tag is not the expected batch, an rx flit of unknown type, with a
// tag other than ob or ob+1, or a PRIM addressed to another GPU.
module pe_exchanger #(
  parameter integer MAX_GPUS = 16,   // mask width, 1..64
  parameter integer LQ_DEPTH = 8,    // local queue beats, >= 2
  parameter integer RQ_DEPTH = 8     // ids per receive bank (two banks), >= 2
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // configuration (static while busy_o)
  input  wire [6:0]          cfg_n_gpus_i,
  input  wire [5:0]          cfg_gpu_id_i,
  input  wire                cfg_topo_i,       // 0 line, 1 hub
  input  wire                cfg_runahead_i,
  // P2G results
  input  wire                in_valid_i,
  output wire                in_ready_o,
  input  wire                in_end_i,         // END beat of the batch
  input  wire [15:0]         in_tag_i,
  input  wire [31:0]         in_prim_id_i,     // entry: prim_id; END: chunk count
  input  wire [MAX_GPUS-1:0] in_mask_i,
  // link ports: 0 = left neighbour (line) or the hub, 1 = right neighbour (line)
  output wire                tx0_valid_o,
  input  wire                tx0_ready_i,
  output wire [63:0]         tx0_flit_o,
  output wire                tx1_valid_o,
  input  wire                tx1_ready_i,
  output wire [63:0]         tx1_flit_o,
  input  wire                rx0_valid_i,
  output wire                rx0_ready_o,
  input  wire [63:0]         rx0_flit_i,
  input  wire                rx1_valid_i,
  output wire                rx1_ready_o,
  input  wire [63:0]         rx1_flit_i,
  // this GPU's primitives, in order, and end of batch
  output wire                out_valid_o,
  input  wire                out_ready_i,
  output wire                out_eob_o,
  output wire [15:0]         out_tag_o,
  output wire [31:0]         out_prim_id_o,
  // status
  output wire                busy_o,
  output wire [15:0]         cur_tag_o,
  output wire                err_o
);
  localparam integer M      = MAX_GPUS;
  localparam integer LQ_W   = 1 + 16 + 32 + M;            // {end, tag, id, mask}
  localparam integer LQC_W  = $clog2(LQ_DEPTH + 1);
  localparam integer RQC_W  = $clog2(RQ_DEPTH + 1);
  localparam [6:0]   MAXN   = MAX_GPUS[6:0];
  localparam [LQC_W-1:0] LQ_FULL = LQ_DEPTH[LQC_W-1:0];
  localparam [RQC_W-1:0] RQ_FULL = RQ_DEPTH[RQC_W-1:0];
  localparam [2:0]   T_PRIM = `FLIT_TYPE_PRIM;
  localparam [2:0]   T_LAST = `FLIT_TYPE_LAST;
  localparam [6:0]   D_BCAST = `FLIT_DST_BCAST;

  // ---------------------------------------------------------------- configuration-derived masks
  // Combinational from the static configuration (no flops, nothing to reset).
  wire [6:0]   n_eff = (cfg_n_gpus_i > MAXN) ? MAXN : cfg_n_gpus_i;
  wire [6:0]   gid   = {1'b0, cfg_gpu_id_i};
  wire [M-1:0] ones  = {M{1'b1}};
  wire [M-1:0] one   = {{(M-1){1'b0}}, 1'b1};
  wire [M-1:0] all_m   = ~(ones << n_eff);            // GPUs 0..n-1
  wire [M-1:0] below_m = ~(ones << gid) & all_m;      // GPUs before this one
  wire [M-1:0] gbit_m  = (one << gid) & all_m;        // this GPU
  wire [M-1:0] above_m;                               // GPUs after this one
  assign above_m = all_m & ~below_m & ~gbit_m;
  wire line = !cfg_topo_i;

  // ---------------------------------------------------------------- registers
  reg [15:0]   cur_q, ob_q, in_b_q;      // batch counters: CD in progress, being output, next P2G beat
  reg          turn_done_q;
  reg [M-1:0]  lasts0_q, lasts1_q;       // LAST markers received, batch parity 0 / 1
  reg          rem_v_q;                  // rem_q holds the remaining mask of the LQ head entry
  reg [M-1:0]  rem_q;
  reg [1:0]    last_sent_q;              // LAST of the current END already sent, per port
  reg          tx0_v_q, tx1_v_q;
  reg [63:0]   tx0_flit_q, tx1_flit_q;
  reg          out_v_q, out_eob_q;
  reg [15:0]   out_tag_q;
  reg [31:0]   out_id_q;
  reg          err_q;

  // ---------------------------------------------------------------- local queue
  wire [LQ_W-1:0]  lq_rdata;
  wire [LQC_W-1:0] lq_cnt;
  wire             lq_push, lq_pop;
  wire             cur_p1_ok = cfg_runahead_i && (in_b_q == cur_q + 16'd1);
  assign in_ready_o = (lq_cnt != LQ_FULL) && ((in_b_q == cur_q) || cur_p1_ok);
  assign lq_push    = in_valid_i && in_ready_o;
  pe_fifo #(.W(LQ_W), .DEPTH(LQ_DEPTH)) u_lq (
    .clk_i(clk_i), .rst_ni(rst_ni), .push_i(lq_push), .wdata_i({in_end_i, in_tag_i, in_prim_id_i, in_mask_i}),
    .pop_i(lq_pop), .rdata_o(lq_rdata), .cnt_o(lq_cnt));
  wire         head_end  = lq_rdata[LQ_W-1];
  wire [15:0]  head_tag  = lq_rdata[M+32 +: 16];
  wire [31:0]  head_id   = lq_rdata[M +: 32];
  wire [M-1:0] head_mask = lq_rdata[M-1:0];

  // ---------------------------------------------------------------- RX decode and bank arbitration
  wire [RQC_W-1:0] bk0_cnt, bk1_cnt;
  wire [31:0]      bk0_rdata, bk1_rdata;
  wire bk0_full = (bk0_cnt == RQ_FULL);
  wire bk1_full = (bk1_cnt == RQ_FULL);
  wire rx0_prim = rx0_flit_i[`FLIT_TYPE_LSB +: `FLIT_TYPE_BITS] == T_PRIM;
  wire rx1_prim = rx1_flit_i[`FLIT_TYPE_LSB +: `FLIT_TYPE_BITS] == T_PRIM;
  wire rx0_last = rx0_flit_i[`FLIT_TYPE_LSB +: `FLIT_TYPE_BITS] == T_LAST;
  wire rx1_last = rx1_flit_i[`FLIT_TYPE_LSB +: `FLIT_TYPE_BITS] == T_LAST;
  wire rx0_bank = rx0_flit_i[`FLIT_TAG_LSB];
  wire rx1_bank = rx1_flit_i[`FLIT_TAG_LSB];
  wire rx0_want = rx0_valid_i && rx0_prim;     // port 0 claims the write port of bank rx0_bank
  wire rx1_want = rx1_valid_i && rx1_prim;
  assign rx0_ready_o = !rx0_prim || !(rx0_bank ? bk1_full : bk0_full);
  assign rx1_ready_o = !rx1_prim || (!(rx1_bank ? bk1_full : bk0_full) && !(rx0_want && rx0_bank == rx1_bank));
  wire rx0_fire = rx0_valid_i && rx0_ready_o;
  wire rx1_fire = rx1_valid_i && rx1_ready_o;
  // LAST(b, src): one-hot of src (bits >= MAX_GPUS dropped)
  wire [M-1:0] rx0_src_oh = one << rx0_flit_i[`FLIT_SRC_LSB +: `FLIT_SRC_BITS];
  wire [M-1:0] rx1_src_oh = one << rx1_flit_i[`FLIT_SRC_LSB +: `FLIT_SRC_BITS];
  wire [M-1:0] rx_set0 = ((rx0_fire && rx0_last && !rx0_bank) ? rx0_src_oh : {M{1'b0}}) |
                         ((rx1_fire && rx1_last && !rx1_bank) ? rx1_src_oh : {M{1'b0}});
  wire [M-1:0] rx_set1 = ((rx0_fire && rx0_last &&  rx0_bank) ? rx0_src_oh : {M{1'b0}}) |
                         ((rx1_fire && rx1_last &&  rx1_bank) ? rx1_src_oh : {M{1'b0}});
  // legal rx tags are ob and ob+1 (docs/pe.md, "two live batches")
  wire [15:0] rx0_dtag = rx0_flit_i[`FLIT_TAG_LSB +: `FLIT_TAG_BITS] - ob_q;
  wire [15:0] rx1_dtag = rx1_flit_i[`FLIT_TAG_LSB +: `FLIT_TAG_BITS] - ob_q;
  wire rx0_bad = rx0_fire && ((!rx0_prim && !rx0_last) || (rx0_dtag > 16'd1) ||
                              (rx0_prim && rx0_flit_i[`FLIT_DST_LSB +: `FLIT_DST_BITS] != gid));
  wire rx1_bad = rx1_fire && ((!rx1_prim && !rx1_last) || (rx1_dtag > 16'd1) ||
                              (rx1_prim && rx1_flit_i[`FLIT_DST_LSB +: `FLIT_DST_BITS] != gid));

  // ---------------------------------------------------------------- turn engine
  wire         cc        = cur_q[0];
  wire [M-1:0] lasts_cur = cc ? lasts1_q : lasts0_q;
  wire turn_ok = (lq_cnt != {LQC_W{1'b0}}) && !turn_done_q && (ob_q == cur_q) &&
                 ((lasts_cur & below_m) == below_m);
  wire complete = turn_done_q && (((lasts_cur | gbit_m) & all_m) == all_m);
  wire tx0_free = !tx0_v_q || tx0_ready_i;
  wire tx1_free = !tx1_v_q || tx1_ready_i;
  wire entry = turn_ok && !head_end;
  wire [M-1:0] m_cur = rem_v_q ? rem_q : (head_mask & all_m);
  wire [M-1:0] side0 = line ? (m_cur & below_m) : (m_cur & ~gbit_m);
  wire [M-1:0] side1 = line ? (m_cur & above_m) : {M{1'b0}};
  wire [M-1:0] oh0, oh1;
  wire [5:0]   t0, t1;
  wire         any0, any1;
  pe_lowbit #(.W(M)) u_low0 (.vec_i(side0), .onehot_o(oh0), .idx_o(t0), .any_o(any0));
  pe_lowbit #(.W(M)) u_low1 (.vec_i(side1), .onehot_o(oh1), .idx_o(t1), .any_o(any1));
  wire prim0 = entry && any0 && tx0_free;
  wire prim1 = entry && any1 && tx1_free;
  // the keep path writes bank cur & 1 after the rx ports
  wire keep_ok = !(cc ? bk1_full : bk0_full) && !(rx0_want && rx0_bank == cc) && !(rx1_want && rx1_bank == cc);
  wire keep = entry && |(m_cur & gbit_m) && keep_ok;
  wire [M-1:0] m_next = m_cur & ~(prim0 ? oh0 : {M{1'b0}}) & ~(prim1 ? oh1 : {M{1'b0}}) &
                        ~(keep ? gbit_m : {M{1'b0}});
  wire entry_pop = entry && (m_next == {M{1'b0}});
  // END: LAST(cur, gpu_id) on each port that has a neighbour
  wire fin   = turn_ok && head_end;
  wire need0 = line ? (cfg_gpu_id_i != 6'd0) : (n_eff > 7'd1);
  wire need1 = line && ((gid + 7'd1) < n_eff);
  wire last0 = fin && need0 && !last_sent_q[0] && tx0_free;
  wire last1 = fin && need1 && !last_sent_q[1] && tx1_free;
  wire [1:0] ls_next = last_sent_q | {last1, last0};
  wire end_pop = fin && (!need0 || ls_next[0]) && (!need1 || ls_next[1]);
  assign lq_pop = entry_pop || end_pop;

  // flits built on the field positions of gpupd_flit.vh
  reg [63:0] prim0_f, prim1_f, last_f;
  always @* begin
    prim0_f = 64'd0;
    prim0_f[`FLIT_TYPE_LSB +: `FLIT_TYPE_BITS]       = T_PRIM;
    prim0_f[`FLIT_SRC_LSB +: `FLIT_SRC_BITS]         = cfg_gpu_id_i;
    prim0_f[`FLIT_DST_LSB +: `FLIT_DST_BITS]         = {1'b0, t0};
    prim0_f[`FLIT_TAG_LSB +: `FLIT_TAG_BITS]         = head_tag;
    prim0_f[`FLIT_PAYLOAD_LSB +: `FLIT_PAYLOAD_BITS] = head_id;
    prim1_f = prim0_f;
    prim1_f[`FLIT_DST_LSB +: `FLIT_DST_BITS]         = {1'b0, t1};
    last_f = prim0_f;
    last_f[`FLIT_TYPE_LSB +: `FLIT_TYPE_BITS]        = T_LAST;
    last_f[`FLIT_DST_LSB +: `FLIT_DST_BITS]          = D_BCAST;
  end

  // ---------------------------------------------------------------- receive banks
  wire bk0_push = (rx0_fire && rx0_prim && !rx0_bank) || (rx1_fire && rx1_prim && !rx1_bank) || (keep && !cc);
  wire bk1_push = (rx0_fire && rx0_prim &&  rx0_bank) || (rx1_fire && rx1_prim &&  rx1_bank) || (keep &&  cc);
  wire [31:0] bk0_wdata = (rx0_fire && rx0_prim && !rx0_bank) ? rx0_flit_i[31:0] :
                          (rx1_fire && rx1_prim && !rx1_bank) ? rx1_flit_i[31:0] : head_id;
  wire [31:0] bk1_wdata = (rx0_fire && rx0_prim &&  rx0_bank) ? rx0_flit_i[31:0] :
                          (rx1_fire && rx1_prim &&  rx1_bank) ? rx1_flit_i[31:0] : head_id;
  wire oc       = ob_q[0];
  wire out_free = !out_v_q || out_ready_i;
  wire oc_some  = oc ? (bk1_cnt != {RQC_W{1'b0}}) : (bk0_cnt != {RQC_W{1'b0}});
  wire out_item = out_free && oc_some;
  wire out_eob  = out_free && !oc_some && (cur_q != ob_q);
  pe_fifo #(.W(32), .DEPTH(RQ_DEPTH)) u_bk0 (
    .clk_i(clk_i), .rst_ni(rst_ni), .push_i(bk0_push), .wdata_i(bk0_wdata),
    .pop_i(out_item && !oc), .rdata_o(bk0_rdata), .cnt_o(bk0_cnt));
  pe_fifo #(.W(32), .DEPTH(RQ_DEPTH)) u_bk1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .push_i(bk1_push), .wdata_i(bk1_wdata),
    .pop_i(out_item && oc), .rdata_o(bk1_rdata), .cnt_o(bk1_cnt));

  // ---------------------------------------------------------------- control registers (reset)
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_q <= 16'd0;
      ob_q <= 16'd0;
      in_b_q <= 16'd0;
      turn_done_q <= 1'b0;
      rem_v_q <= 1'b0;
      last_sent_q <= 2'b00;
      lasts0_q <= {M{1'b0}};
      lasts1_q <= {M{1'b0}};
      tx0_v_q <= 1'b0;
      tx1_v_q <= 1'b0;
      out_v_q <= 1'b0;
      err_q <= 1'b0;
    end else begin
      if (complete) begin
        cur_q <= cur_q + 16'd1;
        turn_done_q <= 1'b0;
      end else if (end_pop) begin
        turn_done_q <= 1'b1;
      end
      if (out_eob) ob_q <= ob_q + 16'd1;
      if (lq_push && in_end_i) in_b_q <= in_b_q + 16'd1;
      if (entry) rem_v_q <= !entry_pop;
      if (fin) last_sent_q <= end_pop ? 2'b00 : ls_next;
      lasts0_q <= ((complete && !cc) ? {M{1'b0}} : lasts0_q) | rx_set0;
      lasts1_q <= ((complete &&  cc) ? {M{1'b0}} : lasts1_q) | rx_set1;
      if (prim0 || last0) begin
        tx0_v_q <= 1'b1;
      end else if (tx0_ready_i) begin
        tx0_v_q <= 1'b0;
      end
      if (prim1 || last1) begin
        tx1_v_q <= 1'b1;
      end else if (tx1_ready_i) begin
        tx1_v_q <= 1'b0;
      end
      if (out_item || out_eob) begin
        out_v_q <= 1'b1;
      end else if (out_ready_i) begin
        out_v_q <= 1'b0;
      end
      if ((lq_push && in_tag_i != in_b_q) || rx0_bad || rx1_bad) err_q <= 1'b1;
    end
  end

  // ---------------------------------------------------------------- data registers (no reset: read only when valid)
  always @(posedge clk_i) begin
    if (entry) rem_q <= m_next;
    if (prim0 || last0) tx0_flit_q <= fin ? last_f : prim0_f;
    if (prim1 || last1) tx1_flit_q <= fin ? last_f : prim1_f;
    if (out_item || out_eob) begin
      out_eob_q <= out_eob;
      out_tag_q <= ob_q;
      out_id_q  <= out_eob ? 32'd0 : (oc ? bk1_rdata : bk0_rdata);
    end
  end

  // ---------------------------------------------------------------- outputs
  assign tx0_valid_o   = tx0_v_q;
  assign tx0_flit_o    = tx0_flit_q;
  assign tx1_valid_o   = tx1_v_q;
  assign tx1_flit_o    = tx1_flit_q;
  assign out_valid_o   = out_v_q;
  assign out_eob_o     = out_eob_q;
  assign out_tag_o     = out_tag_q;
  assign out_prim_id_o = out_id_q;
  assign cur_tag_o     = cur_q;
  assign err_o         = err_q;
  assign busy_o = (lq_cnt != {LQC_W{1'b0}}) || (bk0_cnt != {RQC_W{1'b0}}) || (bk1_cnt != {RQC_W{1'b0}}) ||
                  tx0_v_q || tx1_v_q || out_v_q || rem_v_q || (last_sent_q != 2'b00) || turn_done_q ||
                  (lasts0_q != {M{1'b0}}) || (lasts1_q != {M{1'b0}}) || (cur_q != ob_q) || (in_b_q != cur_q);
endmodule
`default_nettype wire
