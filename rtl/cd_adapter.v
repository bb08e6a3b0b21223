`timescale 1ns/1ps
`default_nettype none
// cd_adapter: the P2G -> PE adapter of one GPU's C-PD datapath (rtl/cd_unit.v, docs/cd-unit.md).
//
// It passes the P2G mapper's output beats {tag, prim_id, mask} to the primitive exchanger's input in order,
// and inserts the END-of-chunk beat {tag, count} the PE needs once every primitive of a chunk has left the
// P2G. It learns each chunk from a descriptor {tag, count} (the primitives this GPU projects in that batch),
// given when the chunk's CP starts, one per cycle; a chunk of 0 primitives is just an END beat. The C cycle
// model of this exact design is cmodel/cd/cd_adapter_hw.c (also the adapter of the CD system, cdsys.c).
//
// Structure: a beat queue of AQ_DEPTH entries (shift register, oldest at 0), a descriptor queue of DQ_DEPTH
// chunks without END (oldest at 0), and cnt_q = primitives of the oldest chunk that have left the P2G.
// Timing:
//   p2g_ready_o = level + 2 <= AQ_DEPTH (a primitive always leaves room for its chunk's END).
//   END of a chunk of n > 0 primitives: at the PE the cycle after its last primitive left the P2G (written
//     on the same edge as that primitive).
//   END of an empty chunk that is the oldest without END: at the PE in the cycle of its descriptor if the
//     beat queue has room (fall-through: pe_*_o, p2g_ready_o and level_o depend on desc_valid_i and
//     desc_count_i in that cycle); otherwise written on the edge after the END of the chunk before it.
//   desc_ready_o = fewer than DQ_DEPTH chunks without END (registered).
// No output depends on p2g_valid_i or pe_ready_i. Up to 2 + DQ_DEPTH beats are written on one edge (the
// fall-through END or the P2G beat, then the ENDs of the chunks that are complete), in that order.
// Throughput: one beat per cycle in and out. Rules: DQ_DEPTH >= 1, AQ_DEPTH >= 2; in the C-PD system a GPU
// has at most 2 chunks without END (CP of batch b+1 waits for CD of b-1), so DQ_DEPTH = 2 never stalls it.
module cd_adapter #(
  parameter integer MAX_GPUS = 16,   // mask width, 1..64
  parameter integer AQ_DEPTH = 4,    // beat queue entries, >= 2
  parameter integer DQ_DEPTH = 2     // chunks without END, >= 1
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // chunk descriptor (from CP: this GPU's chunk of a batch has started)
  input  wire                desc_valid_i,
  output wire                desc_ready_o,
  input  wire [15:0]         desc_tag_i,
  input  wire [31:0]         desc_count_i,
  // from the P2G mapper's output
  input  wire                p2g_valid_i,
  output wire                p2g_ready_o,
  input  wire [15:0]         p2g_tag_i,
  input  wire [31:0]         p2g_prim_id_i,
  input  wire [MAX_GPUS-1:0] p2g_mask_i,
  // to the PE's input
  output wire                pe_valid_o,
  input  wire                pe_ready_i,
  output wire                pe_end_o,
  output wire [15:0]         pe_tag_o,
  output wire [31:0]         pe_prim_id_o,     // END: the chunk's count
  output wire [MAX_GPUS-1:0] pe_mask_o,
  output wire                busy_o            // beats held (a fall-through END too) or chunks without END
);
  localparam integer BW = 1 + 16 + 32 + MAX_GPUS;   // beat {end, tag, prim_id, mask}
  localparam integer DW = 16 + 32;                  // descriptor {tag, count}
  localparam integer LW = $clog2(AQ_DEPTH + 1);
  localparam integer DLW = $clog2(DQ_DEPTH + 1);
  localparam [LW-1:0] AQ_N = AQ_DEPTH[LW-1:0];
  localparam [DLW-1:0] DQ_N = DQ_DEPTH[DLW-1:0];

  reg [AQ_DEPTH*BW-1:0] beat_q, beat_d;
  reg [LW-1:0]          lvl_q, lvl_d;
  reg [DQ_DEPTH*DW-1:0] desc_q, desc_d;
  reg [DLW-1:0]         dn_q, dn_d;
  reg [31:0]            cnt_q, cnt_d;

  // ---------------------------------------------------------------- outputs of this cycle
  wire byp = desc_valid_i && (dn_q == {DLW{1'b0}}) && (desc_count_i == 32'd0) && (lvl_q != AQ_N);
  wire [BW-1:0] byp_beat = {1'b1, desc_tag_i, 32'd0, {MAX_GPUS{1'b0}}};
  wire [BW-1:0] head = (lvl_q != {LW{1'b0}}) ? beat_q[BW-1:0] : byp_beat;
  wire [LW:0] level = {1'b0, lvl_q} + {{LW{1'b0}}, byp};
  localparam [LW:0] P2G_MAX = AQ_DEPTH[LW:0] - 2;   // level at which the P2G's beat and its END still fit

  assign desc_ready_o = dn_q != DQ_N;
  assign p2g_ready_o  = level <= P2G_MAX;
  assign pe_valid_o   = (lvl_q != {LW{1'b0}}) || byp;
  assign pe_end_o     = head[BW-1];
  assign pe_tag_o     = head[BW-2 -: 16];
  assign pe_prim_id_o = head[MAX_GPUS +: 32];
  assign pe_mask_o    = head[MAX_GPUS-1:0];
  assign busy_o       = (level != {(LW+1){1'b0}}) || (dn_q != {DLW{1'b0}});

  // ---------------------------------------------------------------- next state
  // Written as per-slot selects on small indices (no variable part-select): beats join at index wp in the
  // order fall-through END, P2G beat; the PE's pop shifts the queue by one; then the ENDs of the complete
  // chunks join, oldest first, while there is room.
  wire p2g_fire  = p2g_valid_i && p2g_ready_o;
  wire pe_fire   = pe_valid_o && pe_ready_i;
  wire desc_fire = desc_valid_i && desc_ready_o;
  wire [BW-1:0] p2g_beat = {1'b0, p2g_tag_i, p2g_prim_id_i, p2g_mask_i};
  integer i, k;
  reg [LW-1:0] wp;
  reg [BW-1:0] end_beat;
  reg chain;
  always @* begin
    beat_d = beat_q;
    desc_d = desc_q;
    dn_d   = dn_q;
    cnt_d  = cnt_q + {31'd0, p2g_fire};
    wp     = lvl_q;
    for (i = 0; i < AQ_DEPTH; i = i + 1) begin
      if (byp && wp == i[LW-1:0]) beat_d[i*BW +: BW] = byp_beat;
    end
    if (byp) wp = wp + 1'b1;
    for (i = 0; i < AQ_DEPTH; i = i + 1) begin
      if (p2g_fire && wp == i[LW-1:0]) beat_d[i*BW +: BW] = p2g_beat;
    end
    if (p2g_fire) wp = wp + 1'b1;
    if (pe_fire) begin
      beat_d = beat_d >> BW;
      wp = wp - 1'b1;
    end
    // a descriptor that did not fall through joins the descriptor queue
    for (i = 0; i < DQ_DEPTH; i = i + 1) begin
      if (desc_fire && !byp && dn_q == i[DLW-1:0]) desc_d[i*DW +: DW] = {desc_tag_i, desc_count_i};
    end
    if (desc_fire && !byp) dn_d = dn_d + 1'b1;
    // ENDs of the complete chunks: the k-th oldest chunk closes when the k-1 before it did, the queue has
    // room, and its count is reached (cnt_d for the oldest; 0 for the others, as cnt restarts at 0)
    chain = 1'b1;
    for (k = 0; k < DQ_DEPTH; k = k + 1) begin
      chain = chain && (dn_d != {DLW{1'b0}}) && (wp != AQ_N) && (cnt_d == desc_d[31:0]);
      end_beat = {1'b1, desc_d[47:32], desc_d[31:0], {MAX_GPUS{1'b0}}};
      for (i = 0; i < AQ_DEPTH; i = i + 1) begin
        if (chain && wp == i[LW-1:0]) beat_d[i*BW +: BW] = end_beat;
      end
      if (chain) begin
        wp = wp + 1'b1;
        desc_d = desc_d >> DW;
        dn_d = dn_d - 1'b1;
        cnt_d = 32'd0;
      end
    end
    lvl_d = wp;
  end

  // ---------------------------------------------------------------- registers
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lvl_q <= {LW{1'b0}};
      dn_q  <= {DLW{1'b0}};
      cnt_q <= 32'd0;
    end else begin
      lvl_q <= lvl_d;
      dn_q  <= dn_d;
      cnt_q <= cnt_d;
    end
  end
  // payload: no reset (valid only below lvl_q / dn_q)
  always @(posedge clk_i) begin
    beat_q <= beat_d;
    desc_q <= desc_d;
  end
endmodule

`default_nettype wire
