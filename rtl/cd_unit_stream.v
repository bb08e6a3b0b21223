`timescale 1ns/1ps
`default_nettype none
// cd_unit_stream: one GPU's datapath of the gpupd-stream scheme (issue 20 item 2; docs/cd-unit.md,
// docs/sx.md): the P2G mapper (rtl/p2g_mapper.v) -> the adapter that inserts the END-of-chunk beats
// (rtl/cd_adapter.v) -> the stream primitive exchanger (rtl/sx_pe.v). The sibling of rtl/cd_unit.v (the paper's
// protocol, rtl/pe_exchanger.v): the N-GPU system co-simulation instantiates one per GPU with
// `make cosim-system SCHEME=gpupd-stream` (sim/system).
//
// The adapter hands the stream PE one beat per cycle on lane 0 (an entry {tag, id, mask}, or END {tag, chunk
// count}); lanes 1..K-1 of the PE's P2G input are idle here (one P2G per GPU). The PE releases up to K ids per
// cycle (out_*), reports the completion of each (batch, source) release (rel_last_o, rel_src_o) and its buffer
// occupancy (occ_o). Timing: the units' own (docs/p2g.md, docs/sx.md) plus the adapter's (rtl/cd_unit.v).
// Configuration inputs are quasi-static (p2g_cfg_*: change only while p2g_busy_o is low; pe_cfg_*: static while
// busy_o). obs_* are observation outputs for the lockstep co-simulation; they add no logic.
module cd_unit_stream #(
  parameter integer MAX_GPUS = 16,   // mask width, 1..64
  parameter integer ROWS     = 2,    // P2G tile rows per cycle (linear mode)
  parameter integer K        = 2,    // stream PE: ids released per cycle, 1..8
  parameter integer DEPTH    = 64,   // stream PE: slots per receive FIFO, 2..16384
  parameter integer AQ_DEPTH = 4,    // adapter beat queue, >= 2
  parameter integer DQ_DEPTH = 2     // adapter chunks without END, >= 1
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // P2G configuration (quasi-static)
  input  wire [6:0]          p2g_cfg_n_gpus_i,
  input  wire [14:0]         p2g_cfg_width_i,
  input  wire [14:0]         p2g_cfg_height_i,
  input  wire [3:0]          p2g_cfg_tile_log2_i,
  input  wire                p2g_cfg_mode_i,
  input  wire [13:0]         p2g_cfg_sc_x0_i,
  input  wire [13:0]         p2g_cfg_sc_y0_i,
  input  wire [13:0]         p2g_cfg_sc_x1_i,
  input  wire [13:0]         p2g_cfg_sc_y1_i,
  // stream PE configuration (static while busy)
  input  wire [6:0]          pe_cfg_n_gpus_i,
  input  wire [5:0]          pe_cfg_gpu_id_i,
  input  wire                pe_cfg_topo_i,    // 0 line, 1 hub
  // projected primitives (CP phase)
  input  wire                in_valid_i,
  output wire                in_ready_o,
  input  wire [31:0]         in_prim_id_i,
  input  wire [15:0]         in_tag_i,
  input  wire [23:0]         in_x0_i,
  input  wire [23:0]         in_y0_i,
  input  wire [23:0]         in_x1_i,
  input  wire [23:0]         in_y1_i,
  input  wire [23:0]         in_x2_i,
  input  wire [23:0]         in_y2_i,
  input  wire [1:0]          in_flags_i,
  // chunk descriptor (CP of a batch starts)
  input  wire                desc_valid_i,
  output wire                desc_ready_o,
  input  wire [15:0]         desc_tag_i,
  input  wire [31:0]         desc_count_i,
  // link ports
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
  // to the render pipeline: released primitives in application order (a beat = the valid lanes)
  output wire [K-1:0]        out_valid_o,
  input  wire                out_ready_i,
  output wire [K*32-1:0]     out_id_o,
  output wire [15:0]         out_tag_o,
  output wire                out_eob_o,
  output wire                rel_last_o,       // release of (out_tag_o, rel_src_o) completes at this edge
  output wire [5:0]          rel_src_o,
  // status
  output wire                p2g_busy_o,       // the P2G holds primitives or rebuilds its tables
  output wire                busy_o,           // any of the three units busy
  output wire [20:0]         occ_o,            // the stream PE's receive FIFO slots held
  output wire                err_o,            // the stream PE's sticky protocol error
  // observation (lockstep co-simulation)
  output wire                obs_p2g_out_valid_o,
  output wire                obs_p2g_out_ready_o,
  output wire [31:0]         obs_p2g_out_prim_id_o,
  output wire [15:0]         obs_p2g_out_tag_o,
  output wire [MAX_GPUS-1:0] obs_p2g_out_mask_o,
  output wire                obs_pe_in_valid_o,
  output wire [K-1:0]        obs_pe_in_ready_o,  // every lane's ready (lane 0 carries the adapter's beats)
  output wire                obs_pe_in_end_o,
  output wire [15:0]         obs_pe_in_tag_o,
  output wire [31:0]         obs_pe_in_prim_id_o,
  output wire [MAX_GPUS-1:0] obs_pe_in_mask_o,
  output wire                obs_ad_busy_o,
  output wire                obs_pe_busy_o
);
  // P2G output -> adapter
  wire                p2g_valid, p2g_ready;
  wire [31:0]         p2g_prim_id;
  wire [15:0]         p2g_tag;
  wire [MAX_GPUS-1:0] p2g_mask;
  // adapter -> stream PE lane 0
  wire                pe_valid, pe_end;
  wire [K-1:0]        pe_ready;
  wire [15:0]         pe_tag;
  wire [31:0]         pe_prim_id;
  wire [MAX_GPUS-1:0] pe_mask;
  wire                ad_busy, pe_busy;

  p2g_mapper #(.MAX_GPUS(MAX_GPUS), .ROWS(ROWS), .ID_W(32), .TAG_W(16), .COORD_W(24)) u_p2g (
    .clk_i(clk_i),
    .rst_ni(rst_ni),
    .cfg_n_gpus_i(p2g_cfg_n_gpus_i),
    .cfg_width_i(p2g_cfg_width_i),
    .cfg_height_i(p2g_cfg_height_i),
    .cfg_tile_log2_i(p2g_cfg_tile_log2_i),
    .cfg_mode_i(p2g_cfg_mode_i),
    .cfg_sc_x0_i(p2g_cfg_sc_x0_i),
    .cfg_sc_y0_i(p2g_cfg_sc_y0_i),
    .cfg_sc_x1_i(p2g_cfg_sc_x1_i),
    .cfg_sc_y1_i(p2g_cfg_sc_y1_i),
    .in_valid_i(in_valid_i),
    .in_ready_o(in_ready_o),
    .in_prim_id_i(in_prim_id_i),
    .in_tag_i(in_tag_i),
    .in_x0_i(in_x0_i),
    .in_y0_i(in_y0_i),
    .in_x1_i(in_x1_i),
    .in_y1_i(in_y1_i),
    .in_x2_i(in_x2_i),
    .in_y2_i(in_y2_i),
    .in_flags_i(in_flags_i),
    .out_valid_o(p2g_valid),
    .out_ready_i(p2g_ready),
    .out_prim_id_o(p2g_prim_id),
    .out_tag_o(p2g_tag),
    .out_mask_o(p2g_mask),
    .busy_o(p2g_busy_o)
  );

  cd_adapter #(.MAX_GPUS(MAX_GPUS), .AQ_DEPTH(AQ_DEPTH), .DQ_DEPTH(DQ_DEPTH)) u_ad (
    .clk_i(clk_i),
    .rst_ni(rst_ni),
    .desc_valid_i(desc_valid_i),
    .desc_ready_o(desc_ready_o),
    .desc_tag_i(desc_tag_i),
    .desc_count_i(desc_count_i),
    .p2g_valid_i(p2g_valid),
    .p2g_ready_o(p2g_ready),
    .p2g_tag_i(p2g_tag),
    .p2g_prim_id_i(p2g_prim_id),
    .p2g_mask_i(p2g_mask),
    .pe_valid_o(pe_valid),
    .pe_ready_i(pe_ready[0]),
    .pe_end_o(pe_end),
    .pe_tag_o(pe_tag),
    .pe_prim_id_o(pe_prim_id),
    .pe_mask_o(pe_mask),
    .busy_o(ad_busy)
  );

  // lane 0 = the adapter's beat; lanes 1..K-1 idle (not valid; their data is zero)
  wire [K-1:0]          sx_valid, sx_end;
  wire [K*16-1:0]       sx_tag;
  wire [K*32-1:0]       sx_id;
  wire [K*MAX_GPUS-1:0] sx_mask;
  genvar j;
  generate
    for (j = 0; j < K; j = j + 1) begin : g_lane
      if (j == 0) begin : g_beat
        assign sx_valid[0]             = pe_valid;
        assign sx_end[0]               = pe_end;
        assign sx_tag[15:0]            = pe_tag;
        assign sx_id[31:0]             = pe_prim_id;
        assign sx_mask[MAX_GPUS-1:0]   = pe_mask;
      end else begin : g_idle
        assign sx_valid[j]                    = 1'b0;
        assign sx_end[j]                      = 1'b0;
        assign sx_tag[j*16 +: 16]             = 16'd0;
        assign sx_id[j*32 +: 32]              = 32'd0;
        assign sx_mask[j*MAX_GPUS +: MAX_GPUS] = {MAX_GPUS{1'b0}};
      end
    end
  endgenerate

  sx_pe #(.MAX_GPUS(MAX_GPUS), .K(K), .DEPTH(DEPTH)) u_sx (
    .clk_i(clk_i),
    .rst_ni(rst_ni),
    .cfg_n_gpus_i(pe_cfg_n_gpus_i),
    .cfg_gpu_id_i(pe_cfg_gpu_id_i),
    .cfg_topo_i(pe_cfg_topo_i),
    .in_valid_i(sx_valid),
    .in_ready_o(pe_ready),
    .in_end_i(sx_end),
    .in_tag_i(sx_tag),
    .in_id_i(sx_id),
    .in_mask_i(sx_mask),
    .tx0_valid_o(tx0_valid_o),
    .tx0_ready_i(tx0_ready_i),
    .tx0_flit_o(tx0_flit_o),
    .tx1_valid_o(tx1_valid_o),
    .tx1_ready_i(tx1_ready_i),
    .tx1_flit_o(tx1_flit_o),
    .rx0_valid_i(rx0_valid_i),
    .rx0_ready_o(rx0_ready_o),
    .rx0_flit_i(rx0_flit_i),
    .rx1_valid_i(rx1_valid_i),
    .rx1_ready_o(rx1_ready_o),
    .rx1_flit_i(rx1_flit_i),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_id_o(out_id_o),
    .out_tag_o(out_tag_o),
    .out_eob_o(out_eob_o),
    .rel_last_o(rel_last_o),
    .rel_src_o(rel_src_o),
    .occ_o(occ_o),
    .busy_o(pe_busy),
    .err_o(err_o)
  );

  assign busy_o = p2g_busy_o || ad_busy || pe_busy;

  assign obs_p2g_out_valid_o   = p2g_valid;
  assign obs_p2g_out_ready_o   = p2g_ready;
  assign obs_p2g_out_prim_id_o = p2g_prim_id;
  assign obs_p2g_out_tag_o     = p2g_tag;
  assign obs_p2g_out_mask_o    = p2g_mask;
  assign obs_pe_in_valid_o     = pe_valid;
  assign obs_pe_in_ready_o     = pe_ready;
  assign obs_pe_in_end_o       = pe_end;
  assign obs_pe_in_tag_o       = pe_tag;
  assign obs_pe_in_prim_id_o   = pe_prim_id;
  assign obs_pe_in_mask_o      = pe_mask;
  assign obs_ad_busy_o         = ad_busy;
  assign obs_pe_busy_o         = pe_busy;
endmodule

`default_nettype wire
