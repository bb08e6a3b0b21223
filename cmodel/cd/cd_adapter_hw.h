/* C cycle model of the P2G -> PE adapter RTL (rtl/cd_adapter.v): the same beat queue, descriptor queue and
 * chunk counter, so the lockstep harnesses compare every port every cycle. The same model is the adapter of
 * the CD system of cycle models (cmodel/sys/cdsys.c): the system's timing is the RTL's by construction.
 * Design and timing: docs/cd-unit.md.
 *
 * What it does: it passes the P2G mapper's output beats {tag, prim_id, mask} to the PE's input in order, and
 * inserts the END-of-chunk beat {tag, count} the PE needs once every primitive of a chunk has left the P2G.
 * It learns each chunk from a descriptor {tag, count} (the number of primitives this GPU projects in that
 * batch), given when the chunk's CP starts, one per cycle; a chunk of 0 primitives is just an END beat.
 *
 * Timing (per cycle):
 *   beat queue   AQ_DEPTH entries (registered). p2g_ready = level + 2 <= AQ_DEPTH: a primitive always
 *                leaves room for its chunk's END.
 *   END of a chunk of n > 0 primitives: in the queue (visible at the PE) the cycle after its last primitive
 *                left the P2G.
 *   END of an empty chunk: visible at the PE in the cycle its descriptor is given, if it is the oldest chunk
 *                without END and the queue has room (a fall-through: pe_valid/pe_end/pe_tag and p2g_ready
 *                then depend on desc_valid/desc_count in the same cycle); otherwise in the cycle after the
 *                END of the chunk before it, as for n > 0.
 *   descriptor queue DQ_DEPTH entries: desc_ready = fewer than DQ_DEPTH chunks without END (registered).
 * Every output depends only on the state and the desc_* inputs (never on p2g_valid or pe_ready), so a
 * harness may evaluate comb before it knows the P2G's and PE's outputs of the cycle.
 *
 * Use: cd_adapter_hw_init(); each cycle: fill the desc_* inputs, cd_adapter_hw_comb(), fill the p2g_* and
 * pe_ready inputs, cd_adapter_hw_clock() for the rising edge. */
#ifndef GPUPD_CD_ADAPTER_HW_H
#define GPUPD_CD_ADAPTER_HW_H

#include <stdint.h>

#define CD_ADAPTER_HW_MAX_AQ 64   /* the legal range of defs/cfg_cd_adapter.tbl */
#define CD_ADAPTER_HW_MAX_DQ 64

typedef struct {
    uint32_t aq_depth;   /* RTL parameter AQ_DEPTH, 2..CD_ADAPTER_HW_MAX_AQ */
    uint32_t dq_depth;   /* RTL parameter DQ_DEPTH, 1..CD_ADAPTER_HW_MAX_DQ */
} cd_adapter_hw_params_t;

static inline cd_adapter_hw_params_t cd_adapter_hw_params_default(void)
{
    cd_adapter_hw_params_t p = {4, 2};
    return p;
}

typedef struct {          /* input ports during one cycle */
    int desc_valid;       /* chunk descriptor: batch tag, primitives of this GPU in the batch */
    uint32_t desc_tag, desc_count;
    int p2g_valid;        /* the P2G mapper's output */
    uint32_t p2g_tag, p2g_prim_id;
    uint64_t p2g_mask;
    int pe_ready;         /* the PE's in_ready */
} cd_adapter_hw_in_t;

typedef struct {          /* output ports during one cycle */
    int desc_ready;
    int p2g_ready;        /* -> the P2G mapper's out_ready */
    int pe_valid, pe_end; /* -> the PE's input beat */
    uint32_t pe_tag, pe_prim_id;   /* END: pe_prim_id = the chunk's count */
    uint64_t pe_mask;
    uint32_t level;       /* beats held, counting an END that falls through this cycle */
    int busy;             /* beats held or chunks without END */
} cd_adapter_hw_out_t;

typedef struct {
    int end;
    uint32_t tag, prim;
    uint64_t mask;
} cd_adapter_hw_beat_t;

typedef struct {
    cd_adapter_hw_params_t prm;
    cd_adapter_hw_beat_t q[CD_ADAPTER_HW_MAX_AQ];   /* q[0] = oldest */
    uint32_t n;
    uint32_t dtag[CD_ADAPTER_HW_MAX_DQ], dcnt[CD_ADAPTER_HW_MAX_DQ];   /* [0] = oldest chunk without END */
    uint32_t dn;
    uint32_t acnt;        /* primitives of chunk dtag[0] that have left the P2G */
} cd_adapter_hw_t;

/* Reset state (rst_ni low). Returns -1 if the parameters are out of range. */
int cd_adapter_hw_init(cd_adapter_hw_t *h, cd_adapter_hw_params_t prm);

/* desc_ready of this cycle (a function of the state only). */
static inline int cd_adapter_hw_desc_ready(const cd_adapter_hw_t *h) { return h->dn < h->prm.dq_depth; }

/* Combinational outputs for this cycle (from the state and in->desc_*). */
void cd_adapter_hw_comb(const cd_adapter_hw_t *h, const cd_adapter_hw_in_t *in, cd_adapter_hw_out_t *out);

/* Rising clock edge. */
void cd_adapter_hw_clock(cd_adapter_hw_t *h, const cd_adapter_hw_in_t *in);

/* 1 if a clock edge with these inputs changes nothing: no beat held, no descriptor or P2G beat coming in, and
 * no chunk whose END is due. */
int cd_adapter_hw_idle(const cd_adapter_hw_t *h, const cd_adapter_hw_in_t *in);

#endif
