/* C cycle model of P P2G mappers merged in order (rtl/p2g_merge.v): the front end's rate of P primitives per
 * cycle (docs/timing.md, --tcfg fe_rate=P) mapped by P copies of the P2G mapper (p2g_hw.h), one stream out in
 * input order. Definition of the order: primitive i of the stream goes to unit i mod P (counted from reset);
 * the output takes unit 0's next result, then unit 1's, ..., so it is the input order.
 *
 * Ports per cycle: P input slots, slot j offering the j-th next primitive of the stream (in_valid[j] only if
 * in_valid[j-1]); in_ready[j] = every unit that slots 0..j go to can take one (independent of in_valid, like
 * the P2G's own in_ready), so the slots taken in a cycle are the in-order prefix of offered, ready slots. The
 * output is that of the unit whose turn it is; only that unit sees out_ready. busy: any unit busy.
 * The CD system (cmodel/sys/cdsys.c) runs this model for a GPU's P > 1 P2G units: one model for the timing and
 * the lockstep. */
#ifndef GPUPD_P2G_MERGE_HW_H
#define GPUPD_P2G_MERGE_HW_H

#include <stdint.h>

#include "p2g/p2g_hw.h"

#define P2G_MERGE_MAX_P 8

typedef struct {
    p2g_config_t cfg;
    int in_valid[P2G_MERGE_MAX_P];
    p2g_prim_t in[P2G_MERGE_MAX_P];
    int out_ready;
} p2g_merge_hw_in_t;

typedef struct {
    int in_ready[P2G_MERGE_MAX_P];
    int out_valid;
    uint32_t out_prim_id, out_tag;
    uint64_t out_mask;
    int busy;
} p2g_merge_hw_out_t;

typedef struct {
    uint32_t p;                          /* RTL parameter P, 1..P2G_MERGE_MAX_P */
    p2g_hw_t u[P2G_MERGE_MAX_P];
    uint32_t wptr, rptr;                 /* unit of the next input / of the next output */
} p2g_merge_hw_t;

/* Reset state. p: 1..P2G_MERGE_MAX_P. */
void p2g_merge_hw_init(p2g_merge_hw_t *m, uint32_t p, p2g_hw_params_t prm);
/* Combinational outputs of this cycle. */
void p2g_merge_hw_comb(const p2g_merge_hw_t *m, const p2g_merge_hw_in_t *in, p2g_merge_hw_out_t *out);
/* Rising edge; returns the number of input slots taken (the in-order prefix). */
uint32_t p2g_merge_hw_clock(p2g_merge_hw_t *m, const p2g_merge_hw_in_t *in);

#endif
