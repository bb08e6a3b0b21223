`timescale 1ns/1ps
`default_nettype none
// p2g_merge: P P2G mappers (rtl/p2g_mapper.v) merged in order, for a front end that projects P primitives per
// cycle (issue 20 item 3; the timing model's --tcfg fe_rate=P). C cycle model: cmodel/p2g/p2g_merge_hw.c.
//
// Order: primitive i of the input stream goes to unit i mod P; the output takes unit 0's next mask, then unit
// 1's, ..., so masks leave in input order. Two pointers (wptr, rptr) hold whose turn it is.
// Input: P slots; slot j offers the j-th next primitive (in_valid_i[j] only with in_valid_i[j-1]); slot j's
// in_ready_o[j] is high when the units of slots 0..j can all take a primitive, so the slots taken in a cycle
// are the in-order prefix of offered, ready slots. Output: one valid/ready stream; only the unit whose turn it
// is sees out_ready_i. Throughput: P primitives per cycle in, one mask per cycle out (the P units' masks leave
// one at a time: P > 1 is for front ends whose bursts the units absorb, or behind a consumer of one per cycle).
// Latency: that of a P2G mapper (9 cycles) plus nothing: slot routing and the output multiplexer are
// combinational. Configuration: as p2g_mapper, shared by every unit. busy_o: any unit busy.
module p2g_merge #(
  parameter integer P        = 4,    // units, 1..8
  parameter integer MAX_GPUS = 16,
  parameter integer ROWS     = 2,
  parameter integer ID_W     = 32,
  parameter integer TAG_W    = 16,
  parameter integer COORD_W  = 24
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire [6:0]           cfg_n_gpus_i,
  input  wire [14:0]          cfg_width_i,
  input  wire [14:0]          cfg_height_i,
  input  wire [3:0]           cfg_tile_log2_i,
  input  wire                 cfg_mode_i,
  input  wire [13:0]          cfg_sc_x0_i,
  input  wire [13:0]          cfg_sc_y0_i,
  input  wire [13:0]          cfg_sc_x1_i,
  input  wire [13:0]          cfg_sc_y1_i,
  // P input slots, slot j at [j*W +: W]
  input  wire [P-1:0]         in_valid_i,
  output wire [P-1:0]         in_ready_o,
  input  wire [P*ID_W-1:0]    in_prim_id_i,
  input  wire [P*TAG_W-1:0]   in_tag_i,
  input  wire [P*COORD_W-1:0] in_x0_i,
  input  wire [P*COORD_W-1:0] in_y0_i,
  input  wire [P*COORD_W-1:0] in_x1_i,
  input  wire [P*COORD_W-1:0] in_y1_i,
  input  wire [P*COORD_W-1:0] in_x2_i,
  input  wire [P*COORD_W-1:0] in_y2_i,
  input  wire [P*2-1:0]       in_flags_i,
  // merged output
  output wire                 out_valid_o,
  input  wire                 out_ready_i,
  output wire [ID_W-1:0]      out_prim_id_o,
  output wire [TAG_W-1:0]     out_tag_o,
  output wire [MAX_GPUS-1:0]  out_mask_o,
  output wire                 busy_o
);
  localparam integer PTR_W = (P <= 1) ? 1 : $clog2(P);
  localparam integer SLOT_W = ID_W + TAG_W + 6 * COORD_W + 2;   // one slot's primitive, packed
  localparam [PTR_W:0]   PN  = P[PTR_W:0];
  localparam [PTR_W+1:0] PN2 = P[PTR_W+1:0];

  reg  [PTR_W-1:0] wptr, rptr;       // unit of the next input primitive / of the next output mask
  wire [P-1:0]     u_in_ready, u_out_valid, u_busy, u_in_valid, u_out_ready;
  wire [P*ID_W-1:0]     u_id;
  wire [P*TAG_W-1:0]    u_tag;
  wire [P*MAX_GPUS-1:0] u_mask;

  // slot j is ready when the units of slots 0..j are; taken when, besides, slots 0..j are all offered
  wire [P:0] rdy_pre /* verilator split_var */, take_pre /* verilator split_var */;
  wire [P-1:0] taken_v = take_pre[P:1];   // slot j taken
  assign rdy_pre[0]  = 1'b1;
  assign take_pre[0] = 1'b1;
  wire [P*SLOT_W-1:0] slot_d;
  genvar j, k;
  generate
    for (j = 0; j < P; j = j + 1) begin : g_slot
      // slot j goes to unit (wptr + j) mod P
      localparam [PTR_W:0] J = j;
      wire [PTR_W:0] uj = {1'b0, wptr} + J;
      wire [PTR_W:0] unit = (uj >= PN) ? uj - PN : uj;
      wire unit_rdy = u_in_ready[unit[PTR_W-1:0]];
      wire unused_unit_top = unit[PTR_W];   // 0: unit < P
      assign rdy_pre[j+1]  = rdy_pre[j] && unit_rdy;
      assign take_pre[j+1] = take_pre[j] && unit_rdy && in_valid_i[j];
      assign in_ready_o[j] = rdy_pre[j+1];
      assign slot_d[j*SLOT_W +: SLOT_W] = {in_flags_i[j*2 +: 2], in_y2_i[j*COORD_W +: COORD_W],
        in_x2_i[j*COORD_W +: COORD_W], in_y1_i[j*COORD_W +: COORD_W], in_x1_i[j*COORD_W +: COORD_W],
        in_y0_i[j*COORD_W +: COORD_W], in_x0_i[j*COORD_W +: COORD_W], in_tag_i[j*TAG_W +: TAG_W],
        in_prim_id_i[j*ID_W +: ID_W]};
    end
    for (k = 0; k < P; k = k + 1) begin : g_unit
      // unit k takes slot (k - wptr) mod P
      localparam [PTR_W:0] K = k;
      wire [PTR_W:0] sk = (K >= {1'b0, wptr}) ? K - {1'b0, wptr} : K + PN - {1'b0, wptr};
      wire [SLOT_W-1:0] d = slot_d[sk[PTR_W-1:0]*SLOT_W +: SLOT_W];
      assign u_in_valid[k]  = taken_v[sk[PTR_W-1:0]];
      wire unused_sk_top = sk[PTR_W];       // 0: slot < P
      assign u_out_ready[k] = out_ready_i && (rptr == K[PTR_W-1:0]);
      p2g_mapper #(.MAX_GPUS(MAX_GPUS), .ROWS(ROWS), .ID_W(ID_W), .TAG_W(TAG_W), .COORD_W(COORD_W)) u_p2g (
        .clk_i(clk_i), .rst_ni(rst_ni),
        .cfg_n_gpus_i(cfg_n_gpus_i), .cfg_width_i(cfg_width_i), .cfg_height_i(cfg_height_i),
        .cfg_tile_log2_i(cfg_tile_log2_i), .cfg_mode_i(cfg_mode_i), .cfg_sc_x0_i(cfg_sc_x0_i),
        .cfg_sc_y0_i(cfg_sc_y0_i), .cfg_sc_x1_i(cfg_sc_x1_i), .cfg_sc_y1_i(cfg_sc_y1_i),
        .in_valid_i(u_in_valid[k]), .in_ready_o(u_in_ready[k]),
        .in_prim_id_i(d[0 +: ID_W]), .in_tag_i(d[ID_W +: TAG_W]),
        .in_x0_i(d[ID_W+TAG_W +: COORD_W]), .in_y0_i(d[ID_W+TAG_W+COORD_W +: COORD_W]),
        .in_x1_i(d[ID_W+TAG_W+2*COORD_W +: COORD_W]), .in_y1_i(d[ID_W+TAG_W+3*COORD_W +: COORD_W]),
        .in_x2_i(d[ID_W+TAG_W+4*COORD_W +: COORD_W]), .in_y2_i(d[ID_W+TAG_W+5*COORD_W +: COORD_W]),
        .in_flags_i(d[ID_W+TAG_W+6*COORD_W +: 2]),
        .out_valid_o(u_out_valid[k]), .out_ready_i(u_out_ready[k]),
        .out_prim_id_o(u_id[k*ID_W +: ID_W]), .out_tag_o(u_tag[k*TAG_W +: TAG_W]),
        .out_mask_o(u_mask[k*MAX_GPUS +: MAX_GPUS]), .busy_o(u_busy[k]));
    end
  endgenerate

  // slots taken this cycle (the in-order prefix), and the pointers
  // (taken_v is a prefix, so the count is the position of its last one: a running sum over the slots)
  wire [PTR_W:0] cnt [0:P] /* verilator split_var */;
  assign cnt[0] = {(PTR_W+1){1'b0}};
  generate
    for (j = 0; j < P; j = j + 1) begin : g_cnt
      assign cnt[j+1] = cnt[j] + {{PTR_W{1'b0}}, taken_v[j]};
    end
  endgenerate
  wire [PTR_W:0] taken = cnt[P];
  wire [PTR_W+1:0] w_sum = {2'b0, wptr} + {1'b0, taken};
  wire [PTR_W+1:0] w_nx  = (w_sum >= PN2) ? w_sum - PN2 : w_sum;
  wire [PTR_W:0]   r_inc = {1'b0, rptr} + 1'b1;
  wire [PTR_W:0]   r_nx  = (r_inc >= PN) ? {(PTR_W+1){1'b0}} : r_inc;
  wire [2:0]       unused_ptr_top = {w_nx[PTR_W+1:PTR_W], r_nx[PTR_W]};   // 0: pointers < P
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr <= {PTR_W{1'b0}};
      rptr <= {PTR_W{1'b0}};
    end else begin
      wptr <= w_nx[PTR_W-1:0];
      if (out_valid_o && out_ready_i) rptr <= r_nx[PTR_W-1:0];
    end
  end

  assign out_valid_o   = u_out_valid[rptr];
  assign out_prim_id_o = u_id[rptr*ID_W +: ID_W];
  assign out_tag_o     = u_tag[rptr*TAG_W +: TAG_W];
  assign out_mask_o    = u_mask[rptr*MAX_GPUS +: MAX_GPUS];
  assign busy_o        = |u_busy;
endmodule
`default_nettype wire
