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
//   S1 input register      -> pixel-centre bounds of each vertex, min/max by three parallel comparisons
//   S2 pixel box           -> clamp to the scissor/screen (four parallel compares give "empty"), tile shift
//   S3 tile rectangle      -> per-bit residues of tx0/ty0, four 7-term partial sums; width/height in tiles
//   S4 partial sums        -> residue sum (< 28n); range length, full-mask detection, rows to walk
//   S5 residue sum         -> sum mod 8n (three parallel subtractions of 8n, 16n, 24n)
//   S6 sum mod 8n          -> start owner s0 = sum mod n (seven parallel subtractions of n..7n)
//   S7 row walk            -> ROWS row starts per cycle (linear mode); diag mode is one closed-form chunk
//   S8 row starts (chunk)  -> range masks of the chunk's rows, OR-accumulated over the chunks of a primitive
//   OUT output register    -> out_valid/out_ready
// Throughput: one primitive per cycle unless a linear-mode primitive spans more than ROWS tile rows
// (at most min(rows, n) rows are walked: owners repeat with period n). Latency: out_valid rises 9 cycles
// after the input handshake (nine registers), plus ceil(min(rows,n)/ROWS)-1 walk cycles.
// Only control flip-flops have a reset (valid bits, the table key n and the sequencer state); the datapath
// registers are loaded before they are read.
// Configuration inputs are quasi-static: change them only while busy_o is low. A change of n, W, tile size
// or mode rebuilds the residue tables in BUILD_CYCLES = 29 + ROWS cycles, during which in_ready_o is low and
// busy_o high; a scissor/height change takes effect on the next cycle (registered, no rebuild).
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
  localparam integer SUM_W = 11;         // residue sums: < 28n < 2^11
  localparam integer R8_W  = 9;          // the sum mod 8n: < 512
  localparam [N_W:0]  ROWS_N = ROWS[N_W:0];

  // ---------------------------------------------------------------- derived configuration
  // Per-cycle registers (cheap): scissor/screen clamp E = [ex0, ex1] x [ey0, ey1] and its corners in tiles
  // (ex0s = ex0 >> TS, ...), all-GPU mask, multiples of n for the reduction. The upper corner is clamped to
  // the screen from registered inputs (two register levels): S2 reads E two cycles after the input handshake
  // of a primitive at the earliest, and the configuration only changes while the unit is idle.
  reg  [N_W-1:0]      c_n;          // table key n (reset to 0, which no configuration has); see the sequencer
  reg  [14:0]         c_w;          // table key W
  reg  [3:0]          c_ts;         // table key TS
  reg  [T_W-1:0]      c_sx1, c_sy1; // scissor upper corner as given
  reg  [14:0]         c_h;
  wire [14:0] w_m1 = c_w - 15'd1;
  wire [14:0] h_m1 = c_h - 15'd1;
  wire [T_W-1:0] ex1_d = ({1'b0, c_sx1} < w_m1) ? c_sx1 : w_m1[T_W-1:0];
  wire [T_W-1:0] ey1_d = ({1'b0, c_sy1} < h_m1) ? c_sy1 : h_m1[T_W-1:0];
  reg  [T_W-1:0]      c_ex0, c_ey0, c_ex1, c_ey1;
  reg  [T_W-1:0]      c_ex0s, c_ey0s, c_ex1s, c_ey1s;
  reg  [MAX_GPUS-1:0] c_all;
  reg  [R8_W-2:0]     c_n3;         // 3n, 5n, 7n (from the registered key n); the other multiples of n
  reg  [R8_W-1:0]     c_n5, c_n7;   // used by the reduction are shifts of n and 3n
  integer k;
  always @(posedge clk_i) begin
    c_ex0  <= cfg_sc_x0_i;
    c_ey0  <= cfg_sc_y0_i;
    c_ex0s <= cfg_sc_x0_i >> c_ts;
    c_ey0s <= cfg_sc_y0_i >> c_ts;
    c_sx1  <= cfg_sc_x1_i;
    c_sy1  <= cfg_sc_y1_i;
    c_h    <= cfg_height_i;
    c_ex1  <= ex1_d;
    c_ey1  <= ey1_d;
    c_ex1s <= ex1_d >> c_ts;
    c_ey1s <= ey1_d >> c_ts;
    for (k = 0; k < MAX_GPUS; k = k + 1) c_all[k] <= (k < cfg_n_gpus_i);
    c_n3   <= {1'b0, c_n} + {c_n, 1'b0};
    c_n5   <= {2'b0, c_n} + {c_n, 2'b0};
    c_n7   <= {c_n, 2'b0} + {1'b0, c_n, 1'b0} + {2'b0, c_n};
  end

  // Residue tables, built sequentially whenever n, W, tile size or mode change (the "key"): step 0 computes
  // tpr = ceil(W/T) (tiles per row) from the registered key, steps 1..15 one restoring step each for
  // tpr mod n, then one doubling per cycle for px[k] = 2^k mod n and py[k] = 2^k*step mod n, k = 0..13
  // (14 cycles), then one addition per cycle for the row-step multiples mr[r] = r*tpr mod n, r = 2..ROWS
  // (mr[1] comes with k = 0): BUILD_CYCLES = 29 + ROWS. While building (and in the cycle the key changes)
  // in_ready_o is low and busy_o is high, so the datapath never sees a half-built table; no deep
  // combinational path hangs off the configuration inputs.
  localparam [6:0] BUILD_LAST = 7'd28 + ROWS[6:0];
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
  wire [14:0] tile_minus1 = (15'd1 << c_ts) - 15'd1;
  wire [14:0] tpr_w       = (c_w + tile_minus1) >> c_ts;                     // <= 32767 before the shift
  wire [3:0]  div_bit     = 4'd15 - c_step[3:0];                             // MSB first (steps 1..15)
  wire [N_W:0] rem_sh     = {c_rem, c_tpr[div_bit]};
  wire [N_W-1:0] rem_nx   = (rem_sh >= {1'b0, c_n}) ? rem_sh[N_W-1:0] - c_n : rem_sh[N_W-1:0];
  wire [N_W:0] p2_dbl     = {c_p2, 1'b0};
  wire [N_W:0] pt_dbl     = {c_pt, 1'b0};
  wire first_k            = (c_step == 7'd16);
  wire [N_W:0] m_sum      = {1'b0, c_mlast} + {1'b0, c_tprn};
  wire [N_W-1:0] m_nx     = (m_sum >= {1'b0, c_n}) ? m_sum[N_W-1:0] - c_n : m_sum[N_W-1:0];
  // mr[r] is written at build step 16 (r = 1: tpr mod n itself) or 28 + r (r >= 2: mr[r-1] + tpr mod n)
  wire [ROWS*N_W-1:0] mr_next;
  genvar gm;
  generate
    for (gm = 1; gm <= ROWS; gm = gm + 1) begin : g_mr
      localparam [6:0] STEP_R = (gm == 1) ? 7'd16 : 7'd28 + gm[6:0];
      assign mr_next[(gm-1)*N_W +: N_W] = (c_step != STEP_R) ? c_mr[(gm-1)*N_W +: N_W]
                                        : ((gm == 1) ? c_rem : m_nx);
    end
  endgenerate
  wire [N_W-1:0] p2_k     = first_k ? ((c_n == 7'd1) ? {N_W{1'b0}} : {{(N_W-1){1'b0}}, 1'b1})
                          : ((p2_dbl >= {1'b0, c_n}) ? p2_dbl[N_W-1:0] - c_n : p2_dbl[N_W-1:0]);
  wire [N_W-1:0] pt_k     = first_k ? c_rem
                          : ((pt_dbl >= {1'b0, c_n}) ? pt_dbl[N_W-1:0] - c_n : pt_dbl[N_W-1:0]);
  // control: the key n (reset to 0, which no configuration has) and the sequencer state
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_n <= {N_W{1'b0}}; c_bld <= 1'b0; c_step <= 7'd0;
    end else if (key_change) begin     // (re)start a build
      c_n <= cfg_n_gpus_i; c_bld <= 1'b1; c_step <= 7'd0;
    end else if (c_bld) begin
      c_step <= c_step + 7'd1;
      if (c_step == BUILD_LAST) c_bld <= 1'b0;
    end
  end
  // data: the rest of the key and the tables
  always @(posedge clk_i) begin
    if (key_change) begin
      c_w <= cfg_width_i; c_ts <= cfg_tile_log2_i; c_mode <= cfg_mode_i; c_rem <= {N_W{1'b0}};
    end else if (c_bld) begin
      if (c_step == 7'd0) begin
        c_tpr <= tpr_w;
      end else if (c_step < 7'd16) begin
        c_rem <= rem_nx;
      end else if (c_step > 7'd29) begin
        // row-step multiples mr[r], r = step - 28 (2..ROWS), written by mr_next
        c_mlast <= m_nx;
        c_mr    <= mr_next;
      end else begin
        // table entry k = step - 16; entries shift in from the top, so k = 0 ends at the bottom
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
    end
  end

  // ---------------------------------------------------------------- pipeline control
  reg s1_v, s2_v, s3_v, s4_v, s5_v, s6_v, s7_v, s8_v, o_v;
  wire s7_final, s8_last;
  wire o_free  = !o_v || out_ready_i;
  wire s8_go   = s8_v && s8_last && o_free;      // the last chunk of a primitive leaves for OUT
  wire s8_free = !s8_v || !s8_last || o_free;    // other chunks only accumulate
  wire s7_go   = s7_v && s7_final && s8_free;
  wire s7_free = !s7_v || s7_go;
  wire s6_free = !s6_v || s7_free;
  wire s5_free = !s5_v || s6_free;
  wire s4_free = !s4_v || s5_free;
  wire s3_free = !s3_v || s4_free;
  wire s2_free = !s2_v || s3_free;
  wire s1_free = !s1_v || s2_free;
  wire accept  = s1_free && !c_bld && !key_change;
  assign in_ready_o = accept;
  assign busy_o     = s1_v | s2_v | s3_v | s4_v | s5_v | s6_v | s7_v | s8_v | o_v | c_bld;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_v <= 1'b0; s2_v <= 1'b0; s3_v <= 1'b0; s4_v <= 1'b0; s5_v <= 1'b0; s6_v <= 1'b0;
      s7_v <= 1'b0; s8_v <= 1'b0; o_v <= 1'b0;
    end else begin
      if (s1_free) s1_v <= in_valid_i && accept;
      if (s2_free) s2_v <= s1_v;
      if (s3_free) s3_v <= s2_v;
      if (s4_free) s4_v <= s3_v;
      if (s5_free) s5_v <= s4_v;
      if (s6_free) s6_v <= s5_v;
      if (s7_free) s7_v <= s6_v;
      if (s8_free) s8_v <= s7_v;          // a chunk per cycle while S7 walks
      if (s8_go) o_v <= 1'b1;
      else if (out_ready_i) o_v <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- S1: input register, vertex bounds
  reg [ID_W-1:0]    s1_id;
  reg [TAG_W-1:0]   s1_tag;
  reg [COORD_W-1:0] s1_x0, s1_y0, s1_x1, s1_y1, s1_x2, s1_y2;
  reg [1:0]         s1_flags;
  always @(posedge clk_i) begin
    if (s1_free && in_valid_i && accept) begin
      s1_id <= in_prim_id_i; s1_tag <= in_tag_i; s1_flags <= in_flags_i;
      s1_x0 <= in_x0_i; s1_y0 <= in_y0_i; s1_x1 <= in_x1_i;
      s1_y1 <= in_y1_i; s1_x2 <= in_x2_i; s1_y2 <= in_y2_i;
    end
  end

  // first pixel centre >= v: floor((v+127)/256) = (v >>> 8) + (frac(v) > 128);
  // last pixel centre <= v: floor((v-128)/256) = (v >>> 8) - (frac(v) < 128). Both are monotonic in v, so the
  // bound of the minimum (maximum) vertex is the bound of the vertex that wins the comparison: the three
  // per-vertex bounds and the three comparisons run in parallel.
  function automatic [P_W-1:0] lo_bound(input [COORD_W-1:0] v);
    lo_bound = {{(P_W-COORD_W+8){v[COORD_W-1]}}, v[COORD_W-1:8]} + {{(P_W-1){1'b0}}, (v[7:0] > 8'd128)};
  endfunction
  function automatic [P_W-1:0] hi_bound(input [COORD_W-1:0] v);
    hi_bound = {{(P_W-COORD_W+8){v[COORD_W-1]}}, v[COORD_W-1:8]} - {{(P_W-1){1'b0}}, (v[7:0] < 8'd128)};
  endfunction
  wire signed [COORD_W-1:0] sx0 = s1_x0, sy0 = s1_y0, sx1 = s1_x1, sy1 = s1_y1, sx2 = s1_x2, sy2 = s1_y2;
  wire x01 = sx0 < sx1, x02 = sx0 < sx2, x12 = sx1 < sx2;
  wire y01 = sy0 < sy1, y02 = sy0 < sy2, y12 = sy1 < sy2;
  // the old two-step selection (min(min(v0, v1), v2)) decided by the same three comparisons
  wire [P_W-1:0] pxlo = x01 ? (x02 ? lo_bound(s1_x0) : lo_bound(s1_x2)) : (x12 ? lo_bound(s1_x1) : lo_bound(s1_x2));
  wire [P_W-1:0] pylo = y01 ? (y02 ? lo_bound(s1_y0) : lo_bound(s1_y2)) : (y12 ? lo_bound(s1_y1) : lo_bound(s1_y2));
  wire [P_W-1:0] pxhi = x01 ? (x12 ? hi_bound(s1_x2) : hi_bound(s1_x1)) : (x02 ? hi_bound(s1_x2) : hi_bound(s1_x0));
  wire [P_W-1:0] pyhi = y01 ? (y12 ? hi_bound(s1_y2) : hi_bound(s1_y1)) : (y02 ? hi_bound(s1_y2) : hi_bound(s1_y0));

  // ---------------------------------------------------------------- S2: pixel box -> clamped tile rectangle
  reg [ID_W-1:0]  s2_id;
  reg [TAG_W-1:0] s2_tag;
  reg [1:0]       s2_flags;
  reg [P_W-1:0]   s2_pxlo, s2_pylo, s2_pxhi, s2_pyhi;
  always @(posedge clk_i) begin
    if (s2_free && s1_v) begin
      s2_id <= s1_id; s2_tag <= s1_tag; s2_flags <= s1_flags;
      s2_pxlo <= pxlo; s2_pylo <= pylo; s2_pxhi <= pxhi; s2_pyhi <= pyhi;
    end
  end
  wire signed [P_W-1:0] lx = s2_pxlo, ly = s2_pylo, hx = s2_pxhi, hy = s2_pyhi;
  wire signed [P_W-1:0] ex0 = {{(P_W-T_W){1'b0}}, c_ex0};
  wire signed [P_W-1:0] ey0 = {{(P_W-T_W){1'b0}}, c_ey0};
  wire signed [P_W-1:0] ex1 = {{(P_W-T_W){1'b0}}, c_ex1};
  wire signed [P_W-1:0] ey1 = {{(P_W-T_W){1'b0}}, c_ey1};
  wire near = s2_flags[1];
  // When not empty, every clamped bound is within [0, 16383], and the tile of the clamped bound is the clamped
  // tile (x -> x >> TS is monotonic): the shift runs in parallel with the comparison.
  wire [T_W-1:0] s2_tx0 = (near || lx < ex0) ? c_ex0s : (lx[T_W-1:0] >> c_ts);
  wire [T_W-1:0] s2_ty0 = (near || ly < ey0) ? c_ey0s : (ly[T_W-1:0] >> c_ts);
  wire [T_W-1:0] s2_tx1 = (near || hx > ex1) ? c_ex1s : (hx[T_W-1:0] >> c_ts);
  wire [T_W-1:0] s2_ty1 = (near || hy > ey1) ? c_ey1s : (hy[T_W-1:0] >> c_ts);
  // max(lo, e0) > min(hi, e1) is the OR of the four comparisons, all in parallel with the clamp
  wire e_scx = c_ex0 > c_ex1, e_scy = c_ey0 > c_ey1;
  wire e_x = near ? e_scx : (lx > hx || lx > ex1 || ex0 > hx || e_scx);
  wire e_y = near ? e_scy : (ly > hy || ly > ey1 || ey0 > hy || e_scy);
  wire s2_empty = s2_flags[0] || e_x || e_y;

  // ---------------------------------------------------------------- S3: tile rectangle -> partial sums
  reg [ID_W-1:0]  s3_id;
  reg [TAG_W-1:0] s3_tag;
  reg             s3_empty;
  reg [T_W-1:0]   s3_tx0, s3_ty0, s3_tx1, s3_ty1;
  always @(posedge clk_i) begin
    if (s3_free && s2_v) begin
      s3_id <= s2_id; s3_tag <= s2_tag; s3_empty <= s2_empty;
      s3_tx0 <= s2_empty ? {T_W{1'b0}} : s2_tx0;
      s3_ty0 <= s2_empty ? {T_W{1'b0}} : s2_ty0;
      s3_tx1 <= s2_empty ? {T_W{1'b0}} : s2_tx1;
      s3_ty1 <= s2_empty ? {T_W{1'b0}} : s2_ty1;
    end
  end

  // start owner, unreduced: tx0 + ty0*step = sum_k tx0[k]*2^k + ty0[k]*2^k*step, each term replaced by its
  // residue mod n (< n <= 64: RES_W = 6 bits), so the sum of the 2*T_W = 28 terms is < 28n < 2^11: partial
  // sums of terms 0..7, 8..15, 16..23 (8 terms, 9 bits) and 24..27 (4 terms) here, their sum in S4. Term t is
  // tx0[t] for t < 14, else ty0[t-14].
  localparam integer RES_W = N_W - 1;
  localparam integer PRT_W = RES_W + 3;
  wire [2*T_W*RES_W-1:0] res_terms;
  wire [4*PRT_W-1:0]     part;
  genvar gb;
  generate
    for (gb = 0; gb < T_W; gb = gb + 1) begin : g_term
      assign res_terms[gb*RES_W +: RES_W] = s3_tx0[gb] ? c_px[gb*N_W +: RES_W] : {RES_W{1'b0}};
      assign res_terms[(T_W+gb)*RES_W +: RES_W] = s3_ty0[gb] ? c_py[gb*N_W +: RES_W] : {RES_W{1'b0}};
    end
    for (gb = 0; gb < 3; gb = gb + 1) begin : g_part
      p2g_add_tree #(.N_IN(8), .IN_W(RES_W), .OUT_W(PRT_W)) u_part (
        .terms_i(res_terms[gb*8*RES_W +: 8*RES_W]), .sum_o(part[gb*PRT_W +: PRT_W]));
    end
  endgenerate
  p2g_add_tree #(.N_IN(4), .IN_W(RES_W), .OUT_W(PRT_W)) u_part3 (
    .terms_i(res_terms[24*RES_W +: 4*RES_W]), .sum_o(part[3*PRT_W +: PRT_W]));
  // bit 6 of a table entry is 0 (residues < n <= 64)
  wire [T_W-1:0] unused_res_msb;
  generate
    for (gb = 0; gb < T_W; gb = gb + 1) begin : g_msb
      assign unused_res_msb[gb] = c_px[gb*N_W + RES_W] | c_py[gb*N_W + RES_W];
    end
  endgenerate
  wire [T_W:0] s3_w = {1'b0, s3_tx1} - {1'b0, s3_tx0} + 1'b1;   // width in tiles, 1..16384
  wire [T_W:0] s3_h = {1'b0, s3_ty1} - {1'b0, s3_ty0} + 1'b1;   // height in tiles

  // ---------------------------------------------------------------- S4: partial sums -> sum, run shape
  reg [ID_W-1:0]    s4_id;
  reg [TAG_W-1:0]   s4_tag;
  reg               s4_empty;
  reg [4*PRT_W-1:0] s4_part;
  reg [T_W:0]       s4_w, s4_h;
  always @(posedge clk_i) begin
    if (s4_free && s3_v) begin
      s4_id <= s3_id; s4_tag <= s3_tag; s4_empty <= s3_empty;
      s4_part <= part; s4_w <= s3_w; s4_h <= s3_h;
    end
  end
  wire [SUM_W-1:0] s4_sum;
  p2g_add_tree #(.N_IN(4), .IN_W(PRT_W), .OUT_W(SUM_W)) u_res_sum (.terms_i(s4_part), .sum_o(s4_sum));
  wire [T_W+1:0]   diag_len = {1'b0, s4_w} + {1'b0, s4_h} - 1'b1;   // owners (tx0+ty0)..(tx1+ty1)
  wire             s4_full = c_mode ? (s4_w >= {{(T_W+1-N_W){1'b0}}, c_n})
                                    : (diag_len >= {{(T_W+2-N_W){1'b0}}, c_n});
  wire [N_W-1:0]   s4_len  = c_mode ? s4_w[N_W-1:0] : diag_len[N_W-1:0];  // only used when !full
  // rows to walk: 1 in diag mode or when the result is already known, else min(h, n)
  wire             s4_one  = !c_mode || s4_full || s4_empty;
  wire [N_W-1:0]   s4_rows = s4_one ? 7'd1 : ((s4_h < {{(T_W+1-N_W){1'b0}}, c_n}) ? s4_h[N_W-1:0] : c_n);

  // ---------------------------------------------------------------- S5: sum -> sum mod 8n
  reg [ID_W-1:0]  s5_id;
  reg [TAG_W-1:0] s5_tag;
  reg             s5_empty, s5_full;
  reg [SUM_W-1:0] s5_sum;
  reg [N_W-1:0]   s5_len, s5_rows;
  always @(posedge clk_i) begin
    if (s5_free && s4_v) begin
      s5_id <= s4_id; s5_tag <= s4_tag; s5_empty <= s4_empty; s5_full <= s4_full;
      s5_sum <= s4_sum; s5_len <= s4_len; s5_rows <= s4_rows;
    end
  end
  // s5_sum < 28n < 32n: subtract the largest of 24n, 16n, 8n that fits (all three in parallel); the result
  // is < 8n <= 512 (R8_W bits)
  wire [SUM_W:0] d8  = {1'b0, s5_sum} - {2'b0, c_n, 3'b0};
  wire [SUM_W:0] d16 = {1'b0, s5_sum} - {1'b0, c_n, 4'b0};
  wire [SUM_W:0] d24 = {1'b0, s5_sum} - {1'b0, c_n3, 3'b0};
  wire [R8_W-1:0] s5_r8 = !d24[SUM_W] ? d24[R8_W-1:0] : !d16[SUM_W] ? d16[R8_W-1:0]
                        : !d8[SUM_W] ? d8[R8_W-1:0] : s5_sum[R8_W-1:0];

  // ---------------------------------------------------------------- S6: sum mod 8n -> start owner s0
  reg [ID_W-1:0]  s6_id;
  reg [TAG_W-1:0] s6_tag;
  reg             s6_empty, s6_full;
  reg [R8_W-1:0]  s6_r8;
  reg [N_W-1:0]   s6_len, s6_rows;
  always @(posedge clk_i) begin
    if (s6_free && s5_v) begin
      s6_id <= s5_id; s6_tag <= s5_tag; s6_empty <= s5_empty; s6_full <= s5_full;
      s6_r8 <= s5_r8; s6_len <= s5_len; s6_rows <= s5_rows;
    end
  end
  // s6_r8 < 8n: subtract the largest of n..7n that fits (all seven in parallel)
  wire [R8_W-1:0] nk [1:7] /* verilator split_var */;   // k*n <= 448
  assign nk[1] = {2'b0, c_n};       assign nk[2] = {1'b0, c_n, 1'b0}; assign nk[3] = {1'b0, c_n3};
  assign nk[4] = {c_n, 2'b0};       assign nk[5] = c_n5;              assign nk[6] = {c_n3, 1'b0};
  assign nk[7] = c_n7;
  wire [R8_W:0] dk [1:7] /* verilator split_var */;
  genvar gk;
  generate
    for (gk = 1; gk <= 7; gk = gk + 1) begin : g_dk
      assign dk[gk] = {1'b0, s6_r8} - {1'b0, nk[gk]};
    end
  endgenerate
  // the k that fit form a prefix 1..K: select dk[K] by a one-hot AND-OR (k = 0: nothing fits)
  wire [8:1] fit;
  wire [N_W-1:0] pick [0:7] /* verilator split_var */;
  assign fit[8] = 1'b0;
  assign pick[0] = (fit[1] ? {N_W{1'b0}} : s6_r8[N_W-1:0]);
  generate
    for (gk = 1; gk <= 7; gk = gk + 1) begin : g_pick
      assign fit[gk]  = !dk[gk][R8_W];
      assign pick[gk] = pick[gk-1] | ((fit[gk] && !fit[gk+1]) ? dk[gk][N_W-1:0] : {N_W{1'b0}});
    end
  endgenerate
  wire [N_W-1:0] s6_s0 = pick[7];
  // n - len (len < n when the row walk uses it): a row's wrapped part ends at s - (n - len)
  wire [N_W-1:0] s6_nlen = c_n - s6_len;

  // ---------------------------------------------------------------- S7: row walk
  reg [ID_W-1:0]  s7_id;
  reg [TAG_W-1:0] s7_tag;
  reg             s7_empty, s7_full, s7_first;
  reg [N_W-1:0]   s7_s, s7_len, s7_nlen, s7_left;
  // Row r of this cycle starts at s + r*step mod n: one add and one conditional subtract per row, all in
  // parallel (step = TPR mod n; diag mode only ever uses row 0). The multiples mr[r] come from the sequencer.
  wire [N_W-1:0] row_s [0:ROWS];
  assign row_s[0] = s7_s;
  genvar r;
  generate
    for (r = 1; r <= ROWS; r = r + 1) begin : g_start
      wire [N_W:0] nxt = {1'b0, s7_s} + {1'b0, c_mr[(r-1)*N_W +: N_W]};
      assign row_s[r] = (nxt >= {1'b0, c_n}) ? nxt[N_W-1:0] - c_n : nxt[N_W-1:0];
    end
  endgenerate
  assign s7_final = ({1'b0, s7_left} <= ROWS_N);
  always @(posedge clk_i) begin
    if (s7_free) begin
      if (s6_v) begin
        s7_id <= s6_id; s7_tag <= s6_tag; s7_empty <= s6_empty; s7_full <= s6_full; s7_first <= 1'b1;
        s7_s <= s6_s0; s7_len <= s6_len; s7_nlen <= s6_nlen; s7_left <= s6_rows;
      end
    end else if (s8_free) begin        // s7_v holds: this chunk went to S8, walk ROWS more rows
      s7_first <= 1'b0;
      s7_s     <= row_s[ROWS];
      s7_left  <= s7_left - ROWS_N[N_W-1:0];
    end
  end

  // ---------------------------------------------------------------- S8: a chunk of row starts -> mask
  reg [ID_W-1:0]      s8_id;
  reg [TAG_W-1:0]     s8_tag;
  reg                 s8_empty, s8_full, s8_first, s8_lst;
  reg [N_W-1:0]       s8_len, s8_nlen;
  reg [ROWS*N_W-1:0]  s8_rs;        // row starts of the chunk
  reg [ROWS-1:0]      s8_rv;        // which rows of the chunk belong to the primitive
  reg [MAX_GPUS-1:0]  s8_acc;       // OR of the earlier chunks of the primitive
  assign s8_last = s8_lst;
  always @(posedge clk_i) begin
    if (s8_free && s7_v) begin
      s8_id <= s7_id; s8_tag <= s7_tag; s8_empty <= s7_empty; s8_full <= s7_full;
      s8_first <= s7_first; s8_lst <= s7_final; s8_len <= s7_len; s8_nlen <= s7_nlen;
    end
  end
  genvar gr;
  generate
    for (gr = 0; gr < ROWS; gr = gr + 1) begin : g_chunk
      localparam [N_W-1:0] R_IDX = gr;
      always @(posedge clk_i) begin
        if (s8_free && s7_v) begin
          s8_rs[gr*N_W +: N_W] <= row_s[gr];
          s8_rv[gr]            <= R_IDX < s7_left;
        end
      end
    end
  endgenerate
  wire [MAX_GPUS-1:0] row_m   [0:ROWS-1];
  wire [MAX_GPUS-1:0] row_acc [0:ROWS] /* verilator split_var */;
  assign row_acc[0] = s8_first ? {MAX_GPUS{1'b0}} : s8_acc;
  generate
    for (gr = 0; gr < ROWS; gr = gr + 1) begin : g_row
      p2g_range_mask #(.MAX_GPUS(MAX_GPUS), .N_W(N_W)) u_range (
        .s_i(s8_rs[gr*N_W +: N_W]), .len_i(s8_len), .nlen_i(s8_nlen), .n_i(c_n), .mask_o(row_m[gr]));
      assign row_acc[gr+1] = row_acc[gr] | (s8_rv[gr] ? row_m[gr] : {MAX_GPUS{1'b0}});
    end
  endgenerate
  always @(posedge clk_i) begin
    if (s8_v && !s8_lst) s8_acc <= row_acc[ROWS];
  end
  wire [MAX_GPUS-1:0] s8_mask = s8_empty ? {MAX_GPUS{1'b0}} : (s8_full ? c_all : row_acc[ROWS]);

  // ---------------------------------------------------------------- OUT: output register
  reg [ID_W-1:0]     o_id;
  reg [TAG_W-1:0]    o_tag;
  reg [MAX_GPUS-1:0] o_mask;
  always @(posedge clk_i) begin
    if (s8_go) begin
      o_id <= s8_id; o_tag <= s8_tag; o_mask <= s8_mask;
    end
  end
  assign out_valid_o   = o_v;
  assign out_prim_id_o = o_id;
  assign out_tag_o     = o_tag;
  assign out_mask_o    = o_mask;
endmodule
`default_nettype wire
