/* C cycle model of the stream primitive exchanger (stream PE) RTL, rtl/sx_pe.v: the same registers, the same
 * valid/ready decisions, the same buffer contents, so a lockstep harness can compare every output port every
 * cycle, and the timing model (cmodel/sys) can drive one instance per GPU through the link model. The
 * functional definition of what it releases is cmodel/stream/sx.h (sx_run); docs/sx.md describes the
 * protocol, the credit argument and the microarchitecture.
 *
 * One instance is the stream PE of GPU gpu_id of an N-GPU system. Ports (valid/ready, data stable until
 * accepted):
 *   in[K]  from the P2G, K lanes per cycle, in order: per batch, the entries of this GPU's chunk
 *          ({tag, id, mask}), then one END beat ({end = 1, tag, id = chunk count}); tag = batch mod 2^16,
 *          batches numbered 0, 1, ... after reset. Valid lanes form a prefix (lane i valid -> lanes < i valid).
 *          Lane i is accepted when in_valid[i] && in_ready[i]; in_ready is a prefix too (in_ready[i] -> every
 *          in_ready[j < i]) and depends on the lanes' data (not on in_valid). Per cycle: lane 0 may be any
 *          beat (entry with remote destinations, END); lanes 1..K-1 are accepted only behind accepted lanes and
 *          only if they need no TX slot (kept-only or empty-mask entries; never END). An entry with d remote
 *          destinations on one port takes d cycles at lane 0 (one flit per port per cycle).
 *   tx[p]  flits towards the link (cmodel/link/flit.h). Line: tx[0] to gpu_id-1, tx[1] to gpu_id+1. Hub: tx[0].
 *          PRIM(b, g -> d, id), LAST(b, g) broadcast (one flit per existing port), CREDIT(g -> s, n).
 *   rx[p]  flits from the link addressed to this GPU (PRIM, CREDIT) or broadcast (LAST); line: port 0 carries
 *          sources < gpu_id, port 1 sources > gpu_id. rx_ready is always 1: a data flit always has its slot
 *          (credits), a CREDIT needs none. An illegal flit is dropped and raises err.
 *   out[K] released primitives in application order: lanes with out_valid (a prefix) carry ids of batch
 *          out_tag from one source; an end-of-batch beat has out_eob = 1 and lane 0 valid only. Accepted as a
 *          whole when out_ready. rel_last/rel_src report that release of (out_tag, rel_src) completes at this
 *          clock edge (LAST(out_tag, rel_src) consumed; for the last source it is the eob beat's handshake).
 * Configuration (cfg) is static while busy is high.
 *
 * Use: sx_hw_init(); each cycle fill sx_hw_in_t, sx_hw_comb() for this cycle's outputs, then sx_hw_clock() for
 * the rising edge; sx_hw_free() at the end. No globals; the buffers are allocated once by sx_hw_init. */
#ifndef GPUPD_STREAM_SX_HW_H
#define GPUPD_STREAM_SX_HW_H

#include <stdint.h>

#define SX_HW_PORTS 2
#define SX_HW_MAX_K 8
#define SX_HW_MAX_GPUS 64
#define SX_HW_MAX_DEPTH 16384    /* < 2^15 (tag window) */
#define SX_TOPO_LINE 0
#define SX_TOPO_HUB 1

typedef struct {
    uint32_t max_gpus;   /* RTL parameter MAX_GPUS, 1..64 (mask width, number of receive FIFOs) */
    uint32_t k;          /* RTL parameter K, 1..8: P2G lanes accepted and ids released per cycle */
    uint32_t depth;      /* RTL parameter DEPTH, 2..SX_HW_MAX_DEPTH: slots of each per-source receive FIFO */
} sx_hw_params_t;

typedef struct {
    uint32_t n_gpus;     /* 1..max_gpus */
    uint32_t gpu_id;     /* 0..n_gpus-1 */
    uint32_t topo;       /* SX_TOPO_LINE or SX_TOPO_HUB */
} sx_hw_cfg_t;

typedef struct {         /* one P2G lane */
    int valid;
    int end;             /* END beat of the batch */
    uint32_t tag;        /* 16 bits */
    uint32_t id;         /* entry: primitive id; END: chunk count (the LAST payload) */
    uint64_t mask;       /* entry: P2G mask (bits >= n_gpus ignored) */
} sx_hw_beat_t;

typedef struct {         /* input ports during one cycle */
    sx_hw_cfg_t cfg;
    sx_hw_beat_t in[SX_HW_MAX_K];
    int tx_ready[SX_HW_PORTS];
    int rx_valid[SX_HW_PORTS];
    uint64_t rx_flit[SX_HW_PORTS];
    int out_ready;
} sx_hw_in_t;

typedef struct {         /* output ports during one cycle */
    int in_ready[SX_HW_MAX_K];
    int tx_valid[SX_HW_PORTS];
    uint64_t tx_flit[SX_HW_PORTS];
    int rx_ready[SX_HW_PORTS];
    int out_valid[SX_HW_MAX_K];
    uint32_t out_id[SX_HW_MAX_K];
    uint32_t out_tag;    /* batch being released (also on eob) */
    int out_eob;
    int rel_last;        /* release of (out_tag, rel_src) completes at this edge */
    uint32_t rel_src;    /* source GPU whose FIFO is being released */
    uint32_t occ;        /* slots held in all receive FIFOs (PRIM ids + LAST markers), register */
    int busy;            /* anything held, in flight from here, or a batch accepted but not released */
    int err;             /* sticky protocol error (docs/sx.md: the conditions) */
} sx_hw_out_t;

typedef struct {         /* the RTL registers */
    sx_hw_params_t prm;
    /* receive FIFOs, one per source (FIFO[gpu_id] is the self queue): slot = id | last << 32 */
    uint64_t *buf;       /* [s * depth + i] */
    uint32_t rp[SX_HW_MAX_GPUS], wp[SX_HW_MAX_GPUS], cnt[SX_HW_MAX_GPUS];
    uint32_t rx_b[SX_HW_MAX_GPUS];     /* batch (16 bits) of the next flit expected from each source */
    uint32_t pend[SX_HW_MAX_GPUS];     /* credits to return to each source */
    uint32_t credit[SX_HW_MAX_GPUS];   /* slots this GPU may still fill at each receiver */
    /* walker (P2G side) */
    uint32_t in_b;                     /* batch of the next P2G beat (16 bits) */
    int rem_v;
    uint64_t rem;                      /* destinations left of the lane-0 entry */
    int last_sent[SX_HW_PORTS];        /* LAST of in_b already loaded on this port */
    /* TX registers */
    int tx_v[SX_HW_PORTS];
    uint64_t tx_flit[SX_HW_PORTS];
    int cr_last[SX_HW_PORTS];          /* the last flit loaded on this port was a CREDIT (alternation) */
    /* release */
    uint32_t rb;                       /* batch being released (16 bits) */
    uint32_t rs;                       /* source being released */
    uint32_t occ;
    int err;
} sx_hw_t;

/* The combinational decisions of one cycle (the RTL's `always @*` blocks: what the rx flits, the walk, the TX
 * ports and the release do), computed from the registers and the inputs. sx_hw_eval() = sx_hw_comb() that also
 * returns them; sx_hw_apply() = sx_hw_clock() from them, so a caller that evaluates and clocks with the same
 * inputs and no state change in between decides once per cycle (the lockstep does). */
typedef struct {
    uint64_t all, gbit, side[SX_HW_PORTS];
    uint32_t n, g;
    int need[SX_HW_PORTS];
    /* rx */
    int rx_push[SX_HW_PORTS];          /* push rx flit q into FIFO[rx_src[q]] */
    uint32_t rx_src[SX_HW_PORTS];
    uint64_t rx_slot[SX_HW_PORTS];
    int rx_credit[SX_HW_PORTS];        /* add payload to credit[rx_src] */
    uint32_t rx_cr_n[SX_HW_PORTS];
    /* walker */
    int in_ready[SX_HW_MAX_K], in_fire[SX_HW_MAX_K];
    uint32_t self_push;                /* slots pushed into the self FIFO */
    uint64_t self_slot[SX_HW_MAX_K];
    int rem_v_next;
    uint64_t rem_next;
    int last_sent_next[SX_HW_PORTS];
    int end_fire;
    uint64_t prim_dec;                 /* destinations charged one credit by a PRIM */
    uint64_t last_dec;                 /* destinations charged one credit by a LAST */
    /* tx */
    int tx_load[SX_HW_PORTS], tx_is_cr[SX_HW_PORTS];
    uint64_t tx_new[SX_HW_PORTS];
    int cr_send[SX_HW_PORTS];
    uint32_t cr_dst[SX_HW_PORTS];
    /* release */
    uint32_t nprim;                    /* PRIM slots at the head of FIFO[rs] presented (out lanes) */
    int out_valid, out_eob, rel_pop_last;
    uint32_t rel_pop;                  /* slots popped from FIFO[rs] */
    int err_set;
} sx_hw_dec_t;

/* Reset state (rst_ni low). Allocates the buffers. 0, or -1 if the parameters are out of range or out of
 * memory. */
int sx_hw_init(sx_hw_t *h, sx_hw_params_t prm);
/* Back to the reset state, keeping the buffers (same parameters). */
void sx_hw_reset(sx_hw_t *h);
void sx_hw_free(sx_hw_t *h);

/* Combinational outputs for this cycle. */
void sx_hw_comb(const sx_hw_t *h, const sx_hw_in_t *in, sx_hw_out_t *out);

/* Rising clock edge. */
void sx_hw_clock(sx_hw_t *h, const sx_hw_in_t *in);

/* sx_hw_comb() that also returns the cycle's decisions; sx_hw_apply(): sx_hw_clock() from the decisions that
 * sx_hw_eval() returned for the same state and the same inputs (nothing else may change in between). */
void sx_hw_eval(const sx_hw_t *h, const sx_hw_in_t *in, sx_hw_out_t *out, sx_hw_dec_t *dec);
void sx_hw_apply(sx_hw_t *h, const sx_hw_in_t *in, const sx_hw_dec_t *dec);

/* 1 if a clock edge with no P2G lane valid and no rx flit (any tx_ready, out_ready) leaves every register
 * unchanged: the timing model may skip such cycles. */
int sx_hw_quiet(const sx_hw_t *h, const sx_hw_cfg_t *cfg);

/* PRIM ids (not LAST markers) held in all receive FIFOs now (O(occupancy); for statistics). */
uint32_t sx_hw_held_ids(const sx_hw_t *h);

#endif
