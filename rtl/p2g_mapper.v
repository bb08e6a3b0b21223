`timescale 1ns/1ps
`default_nettype none
// p2g_mapper: the primitive-to-GPU (P2G) mapper of GPUpd (MICRO'17 section 4.2, SPEC 4.1).
//
// For each primitive (three screen-space vertices in signed 1/256-pixel fixed point, flags culled and
// near_clip) it produces the MAX_GPUS-bit mask of GPUs owning a screen tile touched by the primitive's
// pixel-centre bounding box, clamped to the screen and the scissor rectangle. prim_id and tag are carried
// through. The C functional definition is cmodel/p2g/p2g.c; the C cycle model of this exact
// microarchitecture is cmodel/p2g/p2g_hw.c. Microarchitecture and timing: docs/p2g.md.
//
// Pipeline (one register per stage, valid/ready with a combinational ready chain, no bubbles):
//   S1 input register      -> bbox: min/max, pixel-centre box, screen/scissor clamp, tile rectangle
//   S2 tile rectangle      -> residue sum: sum_k tx0[k]*(2^k mod n) + ty0[k]*(2^k * step mod n), adder tree
//                             (step = 1 in diag mode, ceil(W/T) in linear mode); width/height in tiles
//   S3 residue sum         -> start owner s0 = sum mod n (5 conditional subtracts: sum < 28n), range length,
//                             full-mask detection, number of row steps
//   S4 row walk            -> ROWS tile rows per cycle (linear mode); diag mode is one closed-form step
//   OUT output register    -> out_valid/out_ready
// Throughput: one primitive per cycle unless a linear-mode primitive spans more than ROWS tile rows
// (at most min(rows, n) rows are walked: owners repeat with period n). Latency: out_valid rises 5 cycles
// after the input handshake (five registers), plus ceil(min(rows,n)/ROWS)-1 walk cycles.
// Configuration inputs are quasi-static: change them only while busy_o is low. A change of n, W, tile size
// or mode rebuilds the residue tables in BUILD_CYCLES = 29 cycles, during which in_ready_o is low and busy_o
// high; a scissor/height change takes effect on the next cycle (registered, no rebuild).
module p2g_mapper #(
  parameter integer MAX_GPUS = 16,   // mask width; n (cfg_n_gpus_i) must be 1..MAX_GPUS, MAX_GPUS <= 64
  parameter integer ROWS     = 2,    // tile rows examined per cycle in linear mode (>= 1)
  parameter integer ID_W     = 32,
  parameter integer TAG_W    = 16,
  parameter integer COORD_W  = 24    // signed 1/256-pixel coordinates
) (
  input  wire                clk_i,
  input  wire                rst_ni,
  // configuration (quasi-static)
  input  wire [6:0]          cfg_n_gpus_i,     // 1..MAX_GPUS
  input  wire [14:0]         cfg_width_i,      // 1..16384 pixels
  input  wire [14:0]         cfg_height_i,     // 1..16384 pixels
  input  wire [3:0]          cfg_tile_log2_i,  // 0..14
  input  wire                cfg_mode_i,       // 0 diag, 1 linear
  input  wire [13:0]         cfg_sc_x0_i,      // scissor, inclusive pixel coordinates
  input  wire [13:0]         cfg_sc_y0_i,
  input  wire [13:0]         cfg_sc_x1_i,
  input  wire [13:0]         cfg_sc_y1_i,
  // primitive input
  input  wire                in_valid_i,
  output wire                in_ready_o,
  input  wire [ID_W-1:0]     in_prim_id_i,
  input  wire [TAG_W-1:0]    in_tag_i,
  input  wire [COORD_W-1:0]  in_x0_i,
  input  wire [COORD_W-1:0]  in_y0_i,
  input  wire [COORD_W-1:0]  in_x1_i,
  input  wire [COORD_W-1:0]  in_y1_i,
  input  wire [COORD_W-1:0]  in_x2_i,
  input  wire [COORD_W-1:0]  in_y2_i,
  input  wire [1:0]          in_flags_i,       // bit 0 culled, bit 1 near_clip
  // mask output
  output wire                out_valid_o,
  input  wire                out_ready_i,
  output wire [ID_W-1:0]     out_prim_id_o,
  output wire [TAG_W-1:0]    out_tag_o,
  output wire [MAX_GPUS-1:0] out_mask_o,
  output wire                busy_o
);
  localparam integer N_W = 7;            // holds 1..64
  localparam integer T_W = 14;           // tile and pixel indices 0..16383
  localparam integer P_W = COORD_W - 6;  // signed pixel index after >>> 8, with two guard bits
  localparam [N_W:0]  ROWS_N = ROWS[N_W:0];

  // ---------------------------------------------------------------- derived configuration
  // Per-cycle registers (cheap): scissor/screen clamp, all-GPU mask.
  wire [14:0] w_m1 = cfg_width_i - 15'd1;
  wire [14:0] h_m1 = cfg_height_i - 15'd1;
  reg  [T_W-1:0]      c_ex0, c_ey0, c_ex1, c_ey1;
  reg  [MAX_GPUS-1:0] c_all;
  integer k;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_ex0 <= {T_W{1'b0}}; c_ey0 <= {T_W{1'b0}}; c_ex1 <= {T_W{1'b0}}; c_ey1 <= {T_W{1'b0}};
      c_all <= {MAX_GPUS{1'b0}};
    end else begin
      c_ex0  <= cfg_sc_x0_i;
      c_ey0  <= cfg_sc_y0_i;
      c_ex1  <= ({1'b0, cfg_sc_x1_i} < w_m1) ? cfg_sc_x1_i : w_m1[T_W-1:0];
      c_ey1  <= ({1'b0, cfg_sc_y1_i} < h_m1) ? cfg_sc_y1_i : h_m1[T_W-1:0];
      for (k = 0; k < MAX_GPUS; k = k + 1) c_all[k] <= (k < cfg_n_gpus_i);
    end
  end

  // Residue tables, built sequentially whenever n, W, tile size or mode change (the "key"): one restoring
  // step per cycle for tpr mod n (15 cycles, tpr = ceil(W/T) tiles per row), then one doubling per cycle for
  // px[k] = 2^k mod n and py[k] = 2^k*step mod n, k = 0..13 (14 cycles), then one addition per cycle for the
  // row-step multiples mr[r] = r*tpr mod n, r = 2..ROWS (mr[1] comes with k = 0): BUILD_CYCLES = 28 + ROWS.
  // While building
  // (and in the cycle the key changes) in_ready_o is low and busy_o is high, so the datapath never sees a
  // half-built table; no deep combinational path hangs off the configuration inputs.
  localparam [6:0] BUILD_LAST = 7'd27 + ROWS[6:0];
  reg  [N_W-1:0]      c_n;          // key: the configuration the tables belong to
  reg  [14:0]         c_w;
  reg  [3:0]          c_ts;
  reg                 c_mode;
  reg                 c_bld;        // building
  reg  [6:0]          c_step;
  reg  [14:0]         c_tpr;
  reg  [N_W-1:0]      c_rem;        // restoring remainder (< n), then tpr mod n
  reg  [N_W-1:0]      c_tprn, c_p2, c_pt;
  reg  [T_W*N_W-1:0]  c_px, c_py;   // residue of bit k of tx0 / ty0 at [k*N_W +: N_W]
  reg  [ROWS*N_W-1:0] c_mr;         // mr[r] = r*tpr mod n at [(r-1)*N_W +: N_W], r = 1..ROWS
  reg  [N_W-1:0]      c_mlast;      // the multiple computed last
  wire key_change = (cfg_n_gpus_i != c_n) || (cfg_width_i != c_w) || (cfg_tile_log2_i != c_ts) ||
                    (cfg_mode_i != c_mode);
  wire [14:0] tile_minus1 = (15'd1 << cfg_tile_log2_i) - 15'd1;
  wire [14:0] tpr_w       = (cfg_width_i + tile_minus1) >> cfg_tile_log2_i;   // <= 32767 before the shift
  wire [3:0]  div_bit     = 4'd14 - c_step[3:0];                             // MSB first
  wire [N_W:0] rem_sh     = {c_rem, c_tpr[div_bit]};
  wire [N_W-1:0] rem_nx   = (rem_sh >= {1'b0, c_n}) ? rem_sh[N_W-1:0] - c_n : rem_sh[N_W-1:0];
  wire [N_W:0] p2_dbl     = {c_p2, 1'b0};
  wire [N_W:0] pt_dbl     = {c_pt, 1'b0};
  wire first_k            = (c_step == 7'd15);
  wire [N_W:0] m_sum      = {1'b0, c_mlast} + {1'b0, c_tprn};
  wire [N_W-1:0] m_nx     = (m_sum >= {1'b0, c_n}) ? m_sum[N_W-1:0] - c_n : m_sum[N_W-1:0];
  // mr[r] is written at build step 15 (r = 1: tpr mod n itself) or 27 + r (r >= 2: mr[r-1] + tpr mod n)
  wire [ROWS*N_W-1:0] mr_next;
  genvar gm;
  generate
    for (gm = 1; gm <= ROWS; gm = gm + 1) begin : g_mr
      localparam [6:0] STEP_R = (gm == 1) ? 7'd15 : 7'd27 + gm[6:0];
      assign mr_next[(gm-1)*N_W +: N_W] = (c_step != STEP_R) ? c_mr[(gm-1)*N_W +: N_W]
                                        : ((gm == 1) ? c_rem : m_nx);
    end
  endgenerate
  wire [N_W-1:0] p2_k     = first_k ? ((c_n == 7'd1) ? {N_W{1'b0}} : {{(N_W-1){1'b0}}, 1'b1})
                          : ((p2_dbl >= {1'b0, c_n}) ? p2_dbl[N_W-1:0] - c_n : p2_dbl[N_W-1:0]);
  wire [N_W-1:0] pt_k     = first_k ? c_rem
                          : ((pt_dbl >= {1'b0, c_n}) ? pt_dbl[N_W-1:0] - c_n : pt_dbl[N_W-1:0]);
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_n <= {N_W{1'b0}}; c_w <= 15'd0; c_ts <= 4'd0; c_mode <= 1'b0;   // n = 0: the first config differs
      c_bld <= 1'b0; c_step <= 7'd0; c_tpr <= 15'd0; c_rem <= {N_W{1'b0}};
      c_mr <= {(ROWS*N_W){1'b0}}; c_mlast <= {N_W{1'b0}};
      c_tprn <= {N_W{1'b0}}; c_p2 <= {N_W{1'b0}}; c_pt <= {N_W{1'b0}};
      c_px <= {(T_W*N_W){1'b0}}; c_py <= {(T_W*N_W){1'b0}};
    end else if (key_change) begin     // (re)start a build
      c_n <= cfg_n_gpus_i; c_w <= cfg_width_i; c_ts <= cfg_tile_log2_i; c_mode <= cfg_mode_i;
      c_tpr <= tpr_w; c_bld <= 1'b1; c_step <= 7'd0; c_rem <= {N_W{1'b0}};
    end else if (c_bld) begin
      c_step <= c_step + 7'd1;
      if (c_step < 7'd15) begin
        c_rem <= rem_nx;
      end else if (c_step > 7'd28) begin
        // row-step multiples mr[r], r = step - 27 (2..ROWS), written by mr_next
        c_mlast <= m_nx;
        c_mr    <= mr_next;
      end else begin
        // table entry k = step - 15; entries shift in from the top, so k = 0 ends at the bottom
        c_p2 <= p2_k;
        c_pt <= pt_k;
        c_px <= {p2_k, c_px[T_W*N_W-1:N_W]};
        c_py <= {(c_mode ? pt_k : p2_k), c_py[T_W*N_W-1:N_W]};
        if (first_k) begin
          c_tprn  <= c_rem;
          c_mlast <= c_rem;
          c_mr    <= mr_next;
        end
      end
      if (c_step == BUILD_LAST) c_bld <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- pipeline control
  reg s1_v, s2_v, s3_v, s4_v, o_v;
  wire s4_final;
  wire o_free  = !o_v || out_ready_i;
  wire s4_go   = s4_v && s4_final && o_free;
  wire s4_free = !s4_v || s4_go;
  wire s3_free = !s3_v || s4_free;
  wire s2_free = !s2_v || s3_free;
  wire s1_free = !s1_v || s2_free;
  assign in_ready_o = s1_free && !c_bld && !key_change;
  assign busy_o     = s1_v | s2_v | s3_v | s4_v | o_v | c_bld;

  // ---------------------------------------------------------------- S1: input register and bbox
  reg [ID_W-1:0]    s1_id;
  reg [TAG_W-1:0]   s1_tag;
  reg [COORD_W-1:0] s1_x0, s1_y0, s1_x1, s1_y1, s1_x2, s1_y2;
  reg [1:0]         s1_flags;
  wire accept = s1_free && !c_bld && !key_change;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_v <= 1'b0; s1_id <= {ID_W{1'b0}}; s1_tag <= {TAG_W{1'b0}}; s1_flags <= 2'b00;
      s1_x0 <= {COORD_W{1'b0}}; s1_y0 <= {COORD_W{1'b0}}; s1_x1 <= {COORD_W{1'b0}};
      s1_y1 <= {COORD_W{1'b0}}; s1_x2 <= {COORD_W{1'b0}}; s1_y2 <= {COORD_W{1'b0}};
    end else if (s1_free) begin
      s1_v <= in_valid_i && accept;
      if (in_valid_i && accept) begin
        s1_id <= in_prim_id_i; s1_tag <= in_tag_i; s1_flags <= in_flags_i;
        s1_x0 <= in_x0_i; s1_y0 <= in_y0_i; s1_x1 <= in_x1_i;
        s1_y1 <= in_y1_i; s1_x2 <= in_x2_i; s1_y2 <= in_y2_i;
      end
    end
  end

  wire signed [COORD_W-1:0] sx0 = s1_x0, sy0 = s1_y0, sx1 = s1_x1, sy1 = s1_y1, sx2 = s1_x2, sy2 = s1_y2;
  wire signed [COORD_W-1:0] minx01 = (sx0 < sx1) ? sx0 : sx1;
  wire signed [COORD_W-1:0] maxx01 = (sx0 < sx1) ? sx1 : sx0;
  wire signed [COORD_W-1:0] miny01 = (sy0 < sy1) ? sy0 : sy1;
  wire signed [COORD_W-1:0] maxy01 = (sy0 < sy1) ? sy1 : sy0;
  wire signed [COORD_W-1:0] minx = (minx01 < sx2) ? minx01 : sx2;
  wire signed [COORD_W-1:0] maxx = (maxx01 < sx2) ? sx2 : maxx01;
  wire signed [COORD_W-1:0] miny = (miny01 < sy2) ? miny01 : sy2;
  wire signed [COORD_W-1:0] maxy = (maxy01 < sy2) ? sy2 : maxy01;
  // first pixel centre >= min: floor((min+127)/256) = (min >>> 8) + (frac(min) > 128);
  // last pixel centre <= max: floor((max-128)/256) = (max >>> 8) - (frac(max) < 128)
  wire signed [P_W-1:0] pxlo = {{(P_W-COORD_W+8){minx[COORD_W-1]}}, minx[COORD_W-1:8]} +
                               {{(P_W-1){1'b0}}, (minx[7:0] > 8'd128)};
  wire signed [P_W-1:0] pylo = {{(P_W-COORD_W+8){miny[COORD_W-1]}}, miny[COORD_W-1:8]} +
                               {{(P_W-1){1'b0}}, (miny[7:0] > 8'd128)};
  wire signed [P_W-1:0] pxhi = {{(P_W-COORD_W+8){maxx[COORD_W-1]}}, maxx[COORD_W-1:8]} -
                               {{(P_W-1){1'b0}}, (maxx[7:0] < 8'd128)};
  wire signed [P_W-1:0] pyhi = {{(P_W-COORD_W+8){maxy[COORD_W-1]}}, maxy[COORD_W-1:8]} -
                               {{(P_W-1){1'b0}}, (maxy[7:0] < 8'd128)};
  wire signed [P_W-1:0] ex0 = {{(P_W-T_W){1'b0}}, c_ex0};
  wire signed [P_W-1:0] ey0 = {{(P_W-T_W){1'b0}}, c_ey0};
  wire signed [P_W-1:0] ex1 = {{(P_W-T_W){1'b0}}, c_ex1};
  wire signed [P_W-1:0] ey1 = {{(P_W-T_W){1'b0}}, c_ey1};
  wire near = s1_flags[1];
  wire signed [P_W-1:0] bx0 = (near || pxlo < ex0) ? ex0 : pxlo;
  wire signed [P_W-1:0] by0 = (near || pylo < ey0) ? ey0 : pylo;
  wire signed [P_W-1:0] bx1 = (near || pxhi > ex1) ? ex1 : pxhi;
  wire signed [P_W-1:0] by1 = (near || pyhi > ey1) ? ey1 : pyhi;
  wire s1_empty = s1_flags[0] || (bx0 > bx1) || (by0 > by1);
  // when not empty, every b* is within [0, 16383]
  wire [T_W-1:0] s1_tx0 = bx0[T_W-1:0] >> c_ts;
  wire [T_W-1:0] s1_ty0 = by0[T_W-1:0] >> c_ts;
  wire [T_W-1:0] s1_tx1 = bx1[T_W-1:0] >> c_ts;
  wire [T_W-1:0] s1_ty1 = by1[T_W-1:0] >> c_ts;

  // ---------------------------------------------------------------- S2: tile rectangle -> residues
  reg [ID_W-1:0]  s2_id;
  reg [TAG_W-1:0] s2_tag;
  reg             s2_empty;
  reg [T_W-1:0]   s2_tx0, s2_ty0, s2_tx1, s2_ty1;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s2_v <= 1'b0; s2_id <= {ID_W{1'b0}}; s2_tag <= {TAG_W{1'b0}}; s2_empty <= 1'b0;
      s2_tx0 <= {T_W{1'b0}}; s2_ty0 <= {T_W{1'b0}}; s2_tx1 <= {T_W{1'b0}}; s2_ty1 <= {T_W{1'b0}};
    end else if (s2_free) begin
      s2_v <= s1_v;
      if (s1_v) begin
        s2_id <= s1_id; s2_tag <= s1_tag; s2_empty <= s1_empty;
        s2_tx0 <= s1_empty ? {T_W{1'b0}} : s1_tx0;
        s2_ty0 <= s1_empty ? {T_W{1'b0}} : s1_ty0;
        s2_tx1 <= s1_empty ? {T_W{1'b0}} : s1_tx1;
        s2_ty1 <= s1_empty ? {T_W{1'b0}} : s1_ty1;
      end
    end
  end

  // start owner, unreduced: tx0 + ty0*step = sum_k tx0[k]*2^k + ty0[k]*2^k*step, each term replaced by its
  // residue mod n (< n), so the sum of the 2*T_W terms is < 28n < 2^11
  localparam integer SUM_W = 11;
  wire [2*T_W*SUM_W-1:0] res_terms;
  wire [SUM_W-1:0]       res_sum;
  genvar gb;
  generate
    for (gb = 0; gb < T_W; gb = gb + 1) begin : g_term
      assign res_terms[gb*SUM_W +: SUM_W] =
        s2_tx0[gb] ? {{(SUM_W-N_W){1'b0}}, c_px[gb*N_W +: N_W]} : {SUM_W{1'b0}};
      assign res_terms[(T_W+gb)*SUM_W +: SUM_W] =
        s2_ty0[gb] ? {{(SUM_W-N_W){1'b0}}, c_py[gb*N_W +: N_W]} : {SUM_W{1'b0}};
    end
  endgenerate
  p2g_add_tree #(.N_IN(2*T_W), .OUT_W(SUM_W)) u_res_sum (.terms_i(res_terms), .sum_o(res_sum));
  wire [T_W:0] s2_w = {1'b0, s2_tx1} - {1'b0, s2_tx0} + 1'b1;   // width in tiles, 1..16384
  wire [T_W:0] s2_h = {1'b0, s2_ty1} - {1'b0, s2_ty0} + 1'b1;   // height in tiles

  // ---------------------------------------------------------------- S3: residue sum -> walk parameters
  reg [ID_W-1:0]  s3_id;
  reg [TAG_W-1:0] s3_tag;
  reg             s3_empty;
  reg [SUM_W-1:0] s3_sum;
  reg [T_W:0]     s3_w, s3_h;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s3_v <= 1'b0; s3_id <= {ID_W{1'b0}}; s3_tag <= {TAG_W{1'b0}}; s3_empty <= 1'b0;
      s3_sum <= {SUM_W{1'b0}}; s3_w <= {(T_W+1){1'b0}}; s3_h <= {(T_W+1){1'b0}};
    end else if (s3_free) begin
      s3_v <= s2_v;
      if (s2_v) begin
        s3_id <= s2_id; s3_tag <= s2_tag; s3_empty <= s2_empty;
        s3_sum <= res_sum; s3_w <= s2_w; s3_h <= s2_h;
      end
    end
  end

  // s0 = s3_sum mod n: s3_sum < 28n < 32n, so subtract 16n, 8n, 4n, 2n, n where they fit
  wire [SUM_W-1:0] red [0:5] /* verilator split_var */;
  assign red[0] = s3_sum;
  genvar gr;
  generate
    for (gr = 0; gr < 5; gr = gr + 1) begin : g_red
      wire [SUM_W-1:0] nk = {{(SUM_W-N_W){1'b0}}, c_n} << (4 - gr);
      assign red[gr+1] = (red[gr] >= nk) ? red[gr] - nk : red[gr];
    end
  endgenerate
  wire [N_W-1:0]   s3_s0 = red[5][N_W-1:0];
  wire [T_W+1:0]   diag_len = {1'b0, s3_w} + {1'b0, s3_h} - 1'b1;   // owners (tx0+ty0)..(tx1+ty1)
  wire             s3_full = c_mode ? (s3_w >= {{(T_W+1-N_W){1'b0}}, c_n})
                                    : (diag_len >= {{(T_W+2-N_W){1'b0}}, c_n});
  wire [N_W-1:0]   s3_len  = c_mode ? s3_w[N_W-1:0] : diag_len[N_W-1:0];  // only used when !full
  // rows to walk: 1 in diag mode or when the result is already known, else min(h, n)
  wire             s3_one  = !c_mode || s3_full || s3_empty;
  wire [N_W-1:0]   s3_rows = s3_one ? 7'd1 : ((s3_h < {{(T_W+1-N_W){1'b0}}, c_n}) ? s3_h[N_W-1:0] : c_n);
  // ---------------------------------------------------------------- S4: row walk
  reg [ID_W-1:0]     s4_id;
  reg [TAG_W-1:0]    s4_tag;
  reg                s4_empty, s4_full;
  reg [N_W-1:0]      s4_s, s4_len, s4_left;
  reg [MAX_GPUS-1:0] s4_acc;
  // Row r of this cycle starts at s + r*step mod n: one add and one conditional subtract per row, all in
  // parallel (step = TPR mod n; diag mode only ever uses row 0). The multiples mr[r] come from the sequencer.
  wire [N_W-1:0]      row_s   [0:ROWS];
  wire [MAX_GPUS-1:0] row_m   [0:ROWS-1];
  wire [MAX_GPUS-1:0] row_acc [0:ROWS] /* verilator split_var */;
  assign row_s[0]   = s4_s;
  assign row_acc[0] = s4_acc;
  genvar r;
  generate
    for (r = 1; r <= ROWS; r = r + 1) begin : g_start
      wire [N_W:0] nxt = {1'b0, s4_s} + {1'b0, c_mr[(r-1)*N_W +: N_W]};
      assign row_s[r] = (nxt >= {1'b0, c_n}) ? nxt[N_W-1:0] - c_n : nxt[N_W-1:0];
    end
    for (r = 0; r < ROWS; r = r + 1) begin : g_row
      p2g_range_mask #(.MAX_GPUS(MAX_GPUS), .N_W(N_W)) u_range (
        .s_i(row_s[r]), .len_i(s4_len), .n_i(c_n), .mask_o(row_m[r]));
      localparam [N_W-1:0] R_IDX = r;
      assign row_acc[r+1] = row_acc[r] | ((R_IDX < s4_left) ? row_m[r] : {MAX_GPUS{1'b0}});
    end
  endgenerate
  assign s4_final = ({1'b0, s4_left} <= ROWS_N);
  wire [MAX_GPUS-1:0] s4_mask = s4_empty ? {MAX_GPUS{1'b0}} : (s4_full ? c_all : row_acc[ROWS]);

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s4_v <= 1'b0; s4_id <= {ID_W{1'b0}}; s4_tag <= {TAG_W{1'b0}}; s4_empty <= 1'b0;
      s4_full <= 1'b0; s4_s <= {N_W{1'b0}}; s4_len <= {N_W{1'b0}}; s4_left <= {N_W{1'b0}};
      s4_acc <= {MAX_GPUS{1'b0}};
    end else if (s4_free) begin
      s4_v <= s3_v;
      if (s3_v) begin
        s4_id <= s3_id; s4_tag <= s3_tag; s4_empty <= s3_empty; s4_full <= s3_full;
        s4_s <= s3_s0;
        s4_len <= s3_len; s4_left <= s3_rows; s4_acc <= {MAX_GPUS{1'b0}};
      end
    end else if (!s4_final) begin        // s4_v holds: walk ROWS more rows
      s4_s    <= row_s[ROWS];
      s4_acc  <= row_acc[ROWS];
      s4_left <= s4_left - ROWS_N[N_W-1:0];
    end
  end

  // ---------------------------------------------------------------- OUT: output register
  reg [ID_W-1:0]     o_id;
  reg [TAG_W-1:0]    o_tag;
  reg [MAX_GPUS-1:0] o_mask;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      o_v <= 1'b0; o_id <= {ID_W{1'b0}}; o_tag <= {TAG_W{1'b0}}; o_mask <= {MAX_GPUS{1'b0}};
    end else if (s4_go) begin
      o_v <= 1'b1; o_id <= s4_id; o_tag <= s4_tag; o_mask <= s4_mask;
    end else if (out_ready_i) begin
      o_v <= 1'b0;
    end
  end
  assign out_valid_o   = o_v;
  assign out_prim_id_o = o_id;
  assign out_tag_o     = o_tag;
  assign out_mask_o    = o_mask;
endmodule
`default_nettype wire
