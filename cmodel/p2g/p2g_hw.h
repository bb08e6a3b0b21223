/* C cycle model of the P2G mapper RTL (rtl/p2g_mapper.v): the same registers (derived config,
 * S1..S8, OUT), the same valid/ready chain and the same arithmetic decomposition (residues mod n, row
 * walk), so the lockstep harness can compare every output port every cycle. The functional definition
 * stays p2g_mask() in p2g.h; the harness checks the masks against it too.
 *
 * Use: p2g_hw_init(); each cycle: fill p2g_hw_in_t, p2g_hw_comb() for the outputs of this cycle, then
 * p2g_hw_clock() for the rising edge. Configuration changes only while idle (busy low); a change of n, W,
 * tile size or mode holds in_ready low for p2g_hw_build_cycles(rows) + 1 cycles while the tables are rebuilt. */
#ifndef GPUPD_P2G_HW_H
#define GPUPD_P2G_HW_H

#include <stdint.h>

#include "p2g/p2g.h"

/* Idle cycles the harnesses leave after a configuration change (not required: the unit holds in_ready low
 * itself; 0 is legal and is exercised by the co-simulation). */
#define P2G_HW_CFG_SETTLE 2

typedef struct {
    uint32_t max_gpus;   /* RTL parameter MAX_GPUS, 1..64 */
    uint32_t rows;       /* RTL parameter ROWS, >= 1 */
    uint32_t tag_bits;   /* RTL parameter TAG_W, 1..32 */
} p2g_hw_params_t;

typedef struct {         /* input ports during one cycle */
    p2g_config_t cfg;
    int in_valid;
    p2g_prim_t in;       /* x/y must be in the 24-bit signed range; flags bits 0..1 */
    int out_ready;
} p2g_hw_in_t;

typedef struct {         /* output ports during one cycle */
    int in_ready;
    int out_valid;
    uint32_t out_prim_id, out_tag;
    uint64_t out_mask;
    int busy;
} p2g_hw_out_t;

/* Derived configuration. Per cycle: ex0..ey1, all. Residue tables: built by a sequencer whenever the key
 * (n, width, tile_log2, mode) changes: one step for tpr = ceil(W/T), 15 restoring steps for tpr mod n, 14
 * doublings, then ROWS-1 additions for the row-step multiples: p2g_hw_build_cycles(rows) = 29 + rows cycles. */
static inline uint32_t p2g_hw_build_cycles(uint32_t rows) { return 29 + rows; }
/* Cycles from the input handshake to out_valid for a primitive that walks one chunk (nine registers). */
#define P2G_HW_LATENCY 9
typedef struct {
    uint32_t ex0, ey0, ex1, ey1;
    uint64_t all;
    uint32_t n, w, ts, mode;   /* key the tables belong to (n = 0 after reset) */
    int bld;
    uint32_t step, tpr, rem, tprn, p2, pt;
    uint32_t px[14], py[14];   /* px[k] = 2^k mod n; py[k] = 2^k*step mod n (step 1 diag, tpr linear) */
    uint32_t mlast;            /* row-step multiples: the RTL keeps mr[r] = r*tpr mod n; the model walks */
} p2g_hw_cfg_regs_t;

typedef struct {
    p2g_hw_params_t prm;
    p2g_hw_cfg_regs_t c;
    int s1_v, s2_v, s3_v, s4_v, s5_v, s6_v, s7_v, s8_v, o_v;
    p2g_prim_t s1;                                          /* input register */
    uint32_t s2_id, s2_tag, s2_flags;                       /* pixel-centre bounds of the vertices */
    int32_t s2_pxlo, s2_pylo, s2_pxhi, s2_pyhi;
    uint32_t s3_id, s3_tag, s3_empty, s3_tx0, s3_ty0, s3_tx1, s3_ty1;   /* clamped tile rectangle */
    uint32_t s4_id, s4_tag, s4_empty, s4_part[4], s4_w, s4_h;           /* partial residue sums */
    uint32_t s5_id, s5_tag, s5_empty, s5_full, s5_sum, s5_len, s5_rows; /* residue sum (< 28n) */
    uint32_t s6_id, s6_tag, s6_empty, s6_full, s6_r8, s6_len, s6_rows;  /* sum mod 8n */
    uint32_t s7_id, s7_tag, s7_empty, s7_full, s7_first, s7_s, s7_len, s7_left;   /* row walk */
    uint32_t s8_id, s8_tag, s8_empty, s8_full, s8_first, s8_last, s8_s, s8_len, s8_left;  /* one chunk */
    uint64_t s8_acc;
    uint32_t o_id, o_tag;
    uint64_t o_mask;
} p2g_hw_t;

/* Reset state (rst_ni low). */
void p2g_hw_init(p2g_hw_t *h, p2g_hw_params_t prm);

/* Combinational outputs for this cycle (in_ready depends on out_ready through the ready chain). */
void p2g_hw_comb(const p2g_hw_t *h, const p2g_hw_in_t *in, p2g_hw_out_t *out);

/* Rising clock edge. */
void p2g_hw_clock(p2g_hw_t *h, const p2g_hw_in_t *in);

/* 1 if a clock edge with these inputs changes nothing: no stage holds a primitive, no table build, no input,
 * the configuration key unchanged and the per-cycle configuration registers already equal to in->cfg's. */
int p2g_hw_idle(const p2g_hw_t *h, const p2g_hw_in_t *in);

/* 1 if cfg has another key (n, width, tile size, mode) than the registered one: the next clock edge starts a
 * table build. */
int p2g_hw_key_change(const p2g_hw_t *h, const p2g_config_t *cfg);

#endif
