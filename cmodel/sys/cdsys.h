/* CD system: N x (P2G unit -> PE unit) joined by the link model (net.h), stepped per 1 GHz cycle.
 *
 * The cycle-level model of the CP->CD phases of C-PD (SPEC 4.2, docs/system-cosim.md): every GPU has a
 * P2G mapper (cmodel/p2g/p2g_hw.h, the cycle model of rtl/p2g_mapper.v) feeding its primitive exchanger
 * (cmodel/pe/pe_hw.h, the cycle model of the PE RTL); the PEs' link ports are joined by net.c (line or
 * hub, latency/bandwidth as configured there). The same harness runs the verilated RTL units instead of
 * (or in lockstep with) the cycle models: sim/system/cosim_system.c plugs in its own cdsys_units_t.
 *
 * Per GPU and cycle:
 *   feeder   -> P2G in        the CP-phase output of the chunk (b, g), one primitive per cycle at most,
 *                              each not before its ready cycle (chunk CP start + prim.ready); a P2G
 *                              configuration change waits until the P2G is empty (busy low)
 *   feeder   -> adapter desc   the chunk descriptor {tag, count} when the chunk's CP starts (one per cycle)
 *   P2G out  -> adapter        the cycle model of rtl/cd_adapter.v (cmodel/cd/cd_adapter_hw.h): a 4-beat
 *                              queue that also inserts the END-of-chunk beat {tag, count} once every
 *                              primitive of the chunk has left the P2G (a chunk of 0 primitives is just an
 *                              END beat); the P2G's out_ready is "adapter has room for 2"
 *   adapter  -> PE in
 *   PE tx[p] -> net_inject_port(g, p);  net delivery on port p -> RX buffer [g][p] -> PE rx[p]
 *   PE out   -> collector      {tag, prim} beats and end-of-batch: compared on the fly with the golden
 *                              receive list (if given), CD completion cycle recorded per (batch, GPU)
 * CP gating (the scheme's rule, same as pe.c): CP of batch b starts at GPU g when the feeder finished
 * b-1 and CD of b-1 (no runahead) or of b-2 (runahead) is complete at g; a batch with `barrier` set (first
 * batch of a segment) always waits for CD of b-1 at g.
 * After the run: the SPEC 4.2 invariant (every GPU k got exactly [p in batch order | bit k of mask(p)],
 * each once), the golden lists, and packet accounting (network empty, flits delivered == sent).
 *
 * Idle skipping (params.skip_idle): when no unit can change state without new input (P2G not busy and its
 * configuration key registered, no primitive ready, adapters and RX buffers empty, PE quiet, nothing on an
 * output), the run jumps to the next event (a primitive's ready cycle or the network's next arrival).
 * Stall/jitter injection is a pure function of (seed, cycle, GPU, port) so skipping cannot change it;
 * tests/unit/test_cdsys.c checks that skipping gives identical lists, completion cycles and traffic to
 * stepping every cycle (up to 64 GPUs).
 * Within a stepped cycle a GPU also sleeps on its own (C cycle models, one P2G unit, no stall injection): when
 * its P2G, adapter and PE would not change on the clock edge (p2g_hw_idle, cd_adapter_hw_idle, pe quiet) and
 * nothing is on an output, it is not evaluated (its state and outputs stay as they are, as stepping would
 * leave them) until a flit reaches its RX buffers or its next primitive's ready cycle comes.
 *
 * No globals, deterministic. Typical use (timing model):
 *   cdsys_params_t p = cdsys_params_default(N, NET_LINE);  p.latency = 400;  p.runahead = 1;
 *   cdsys_result_t r;  if (cdsys_run(&p, &work, &r)) -> r.report;   r.cd_done[b*N+g], r.links[...]
 *   cdsys_result_free(&r);
 */
#ifndef GPUPD_SYS_CDSYS_H
#define GPUPD_SYS_CDSYS_H

#include <stddef.h>
#include <stdint.h>

#include "cd/cd_adapter_hw.h"
#include "p2g/p2g.h"
#include "p2g/p2g_hw.h"
#include "pe/pe_hw.h"
#include "stream/sx_hw.h"
#include "link/net.h"

#define CDSYS_MAX_P2G 8     /* primitives a GPU's feeder may hand its P2G per cycle, at most */
#define CDSYS_SX_DEPTH_DEFAULT 2048   /* stream PE FIFO depth per source (docs/timing.md: what it must hold) */
#define CDSYS_SX_LIVE_DEFAULT 4       /* live batches of the stream scheme's CP gating */

/* ------------------------------------------------------------------ workload (CP-phase output) */
typedef struct {
    p2g_prim_t p;       /* P2G input (p.prim_id = primitive id within the batch; p.tag is replaced by the batch tag) */
    uint32_t cfg;       /* index of its P2G configuration in cdsys_work_t.cfgs */
    uint32_t ready;     /* cycles after the start of its chunk's CP at which projection delivers it (non-decreasing) */
    uint64_t mask;      /* the golden model's P2G mask: the P2G unit's output is checked against it */
} cdsys_prim_t;

typedef struct {
    uint32_t n_gpus, n_batches;
    p2g_config_t *cfgs;
    uint32_t n_cfgs;
    cdsys_prim_t **prims;   /* [b * n_gpus + g]: chunk of GPU g in batch b, CP order */
    uint32_t *counts;       /* [b * n_gpus + g] */
    uint8_t *barrier;       /* [b]: 1 = first batch of a segment (no runahead into it); may be NULL */
    uint32_t **golden;      /* [b * n_gpus + g]: golden receive list (pe/pe.c); NULL: not compared */
    uint32_t *golden_n;
    uint32_t *frame;        /* [b]: frame of the batch (reports only); may be NULL */
} cdsys_work_t;

void cdsys_work_free(cdsys_work_t *w);

/* Build the workload from the golden model: runs sys_run (scheme of cfg, must be gpupd*) with the P2G and
 * exchange taps and records, per batch and GPU, the CP-phase P2G inputs, their masks and the golden receive
 * lists; segments are concatenated (barrier on the first batch of each). cp_cost: ready = i * cp_cost.
 * Returns 0, or -1 with err. */
int cdsys_work_from_trace(const char *trace, uint32_t frame, uint32_t n_gpus, int scheme, uint32_t batch,
                          p2g_mode_t own, uint32_t cp_cost, cdsys_work_t *w, char *err, size_t errlen);

/* The units of GPU g (its P2G and its PE; the adapter between them is the harness's cycle model, cd_adapter_hw).
 * Default: the C cycle models. The system co-simulation supplies its own (the verilated cd_unit, P2G -> adapter
 * -> PE, compared with the cycle models every cycle). Every input of both units is known before comb (the
 * adapter decouples them: pin->out_ready and ein->in_* are its outputs aout, from its state and its descriptor
 * input ain->desc_*; ain's other fields are not yet this cycle's): comb gives the outputs of this cycle, clock
 * is the rising edge. A hook returning nonzero stops the run (a lockstep mismatch): cdsys_run returns -1 with
 * report(). */
typedef struct {
    void *ctx;
    int (*comb)(void *ctx, uint32_t g, uint64_t cycle, const p2g_hw_in_t *pin, p2g_hw_out_t *pout,
                const cd_adapter_hw_in_t *ain, const cd_adapter_hw_out_t *aout, const pe_hw_in_t *ein, pe_hw_out_t *eout);
    int (*clock)(void *ctx, uint32_t g, uint64_t cycle, const p2g_hw_in_t *pin, const pe_hw_in_t *ein);
    /* 1 if GPU g's PE would not change on a clock edge without new input (pe_hw_quiet); NULL: never (no
     * idle skipping) */
    int (*pe_quiet)(void *ctx, uint32_t g, const pe_hw_in_t *in);
    /* after every GPU's comb, and after every GPU's clock (waveforms, progress); may be NULL */
    int (*comb_done)(void *ctx, uint64_t cycle);
    int (*cycle_done)(void *ctx, uint64_t cycle);
    const char *(*report)(void *ctx);   /* text of the mismatch that stopped the run */
    /* gpupd-stream (params.stream) with this backend: the stream PE's ports replace the PE's (comb and clock are
     * not called). xin: the stream PE's inputs (lane 0 = the adapter's beat, the other lanes idle; ein's ports
     * otherwise); xout: its outputs of this cycle. sx_occ / sx_held_ids (may be NULL: no reorder statistics):
     * slots / PRIM ids held after the last clock edge (sx_hw_t.occ, sx_hw_held_ids). NULL sx_comb: the backend
     * has no stream PE (cdsys_run refuses stream mode). */
    int (*sx_comb)(void *ctx, uint32_t g, uint64_t cycle, const p2g_hw_in_t *pin, p2g_hw_out_t *pout,
                   const cd_adapter_hw_in_t *ain, const cd_adapter_hw_out_t *aout, const sx_hw_in_t *xin, sx_hw_out_t *xout);
    int (*sx_clock)(void *ctx, uint32_t g, uint64_t cycle, const p2g_hw_in_t *pin, const sx_hw_in_t *xin);
    int (*sx_quiet)(void *ctx, uint32_t g, const sx_hw_cfg_t *cfg);
    uint32_t (*sx_occ)(void *ctx, uint32_t g);
    uint32_t (*sx_held_ids)(void *ctx, uint32_t g);
} cdsys_units_t;

/* ------------------------------------------------------------------ parameters, run, result */
typedef struct {
    uint32_t n_gpus;            /* 1..64 */
    net_topo_t topo;
    uint32_t latency;           /* link latency in cycles (used when net == NULL) */
    uint32_t hub_rate;          /* hub flits per cycle (used when net == NULL) */
    net_t *net;                 /* optional: a network the caller configured (timed model); must be idle */
    int runahead;
    int skip_idle;              /* jump over cycles in which nothing can change */
    /* RTL parameters of the units (the cycle models are built with them; must match a verilated build) */
    uint32_t max_gpus, p2g_rows, tag_bits;
    uint32_t pe_lq_depth, pe_rq_depth;
    uint32_t ad_aq_depth, ad_dq_depth;   /* P2G -> PE adapter queues (0: cd_adapter_hw_params_default) */
    int pe_ref;                 /* 1: the behavioural reference PE (pe_ref.h) instead of pe_hw */
    /* stall / jitter injection, per mille, a pure function of (seed, cycle, unit, port) */
    uint64_t seed;
    uint32_t in_gap_pm;         /* P2G input: valid withheld */
    uint32_t tx_stall_pm;       /* PE tx ready low */
    uint32_t rx_stall_pm;       /* PE rx valid withheld (flit waits in the RX buffer) */
    uint32_t out_stall_pm;      /* PE out ready low (the render pipeline is busy) */
    uint32_t link_stall_pm;     /* a link moves no flit this cycle */
    uint32_t link_jitter;       /* extra latency 0..link_jitter cycles per flit (FIFO order kept) */
    uint64_t max_cycles;        /* watchdog: 0 = automatic bound */
    uint64_t fault_drop_prim;   /* test of the checkers: the link model loses the K-th PRIM flit it delivers
                                   (1-based, counted over all GPUs); 0 = none */
    const cdsys_units_t *units; /* NULL: the C cycle models */
    /* Timing-model hooks (issue 9, added by timing; NULL: the workload is complete before the run). `step` is
     * the network's step of that cycle (net->step: monotone across runs on one network).
     * on_cp_start: the cycle CP of batch b starts at GPU g (the gating above); the hook may fill the chunk's
     *   prims (w->prims[b * N + g][0 .. counts), p/cfg/ready/mask) and the w->cfgs they name only now.
     * on_cd_done: GPU g's PE output end-of-batch b; prims/n = its receive list.  Nonzero return stops the run. */
    int (*on_cp_start)(void *user, uint32_t g, uint32_t b, uint64_t step);
    int (*on_cd_done)(void *user, uint32_t g, uint32_t b, uint64_t step, const uint32_t *prims, size_t n);
    void *hook_user;
    /* Bounded CP-phase buffering (timing model; 0 / NULL: the workload's ready cycles are final, as when a
     * projection never stalls). cp_queue: depth of the queue between the projection's last stage (CLIP) and
     * the P2G, in primitives: primitive i of a chunk leaves CLIP no earlier than the cycle after the P2G took
     * primitive i - cp_queue, and the projection is a rigid conveyor behind it: every later primitive of the
     * chunk is delayed by the stall accumulated so far (the front end stops while CLIP cannot output).
     * on_cp_fed: the P2G took the last primitive of chunk (b, g) in the cycle before `step`; stall = the
     * cycles the chunk's projection was held back in total (the front end was busy that much longer).
     * in_order_front: a GPU's front end runs its command stream in order, so the rendering of batch b at g
     * (on_cd_done) waits until the projection of b+1 that was issued before it (runahead) has been taken by
     * the P2G; on_cd_done is then called at that step (cd_done[] keeps the PE's end-of-batch cycle). */
    uint32_t cp_queue;
    /* P2G units per GPU (front-end width P, 1..CDSYS_MAX_P2G; 0 = 1): the feeder hands primitive k of the
     * GPU's CP stream to unit k mod P, up to P per cycle and in order, and the units' outputs are merged in
     * the same order into the adapter (one per cycle): the cycle model of rtl/p2g_merge.v (p2g/p2g_merge_hw.h).
     * P > 1 needs the C cycle models (units == NULL). */
    uint32_t p2g_units;
    int (*on_cp_fed)(void *user, uint32_t g, uint32_t b, uint64_t step, uint64_t stall);
    int in_order_front;
    /* gpupd-stream (issue 20): the stream PE's cycle model (stream/sx_hw.h, the model of rtl/sx_pe.v), or a units
     * backend's stream PE (cdsys_units_t.sx_*: the verilated rtl/cd_unit_stream.v), replaces the PE of the paper's
     * protocol: no turns, per-source FIFOs of sx_depth entries (0 = 2048) with end-to-end
     * credits, release in application order, up to sx_k ids per cycle (its P2G input is the adapter's one beat
     * per cycle: lane 0). CP of batch b starts at g when the feeder finished b-1 and g has released the end of batch
     * b - sx_live (sx_live live batches; 0 = 4); a barrier batch waits for b-1 as above. on_release: GPU g's
     * stream PE has released every primitive of (batch b, source s) (prims/n: those of them, in order) and
     * popped LAST(b, s): the raster side may start them. With in_order_front a release that comes while the
     * feeder is in the middle of a chunk is delivered once the P2G has taken the chunk's last primitive (the
     * front end runs its command stream in order), releases in their order. on_cd_done is not called. */
    int stream;
    /* stream, with in_order_front: the front end projects first: releases wait while the GPU's next chunk may
     * start its CP, and go to rendering once the exchange's gating holds the projection (or every chunk is fed) */
    int project_ahead;
    uint32_t sx_k, sx_depth, sx_live;
    int (*on_release)(void *user, uint32_t g, uint32_t b, uint32_t s, uint64_t step, const uint32_t *prims, size_t n);
} cdsys_params_t;

cdsys_params_t cdsys_params_default(uint32_t n_gpus, net_topo_t topo);

typedef struct {
    uint32_t from, to;          /* node ids (hub switch = n_gpus) */
    uint64_t prim_flits, last_flits;
} cdsys_link_t;

typedef struct {
    uint64_t cycles;            /* cycle at which the last GPU completed CD of the last batch (+1) */
    uint64_t stepped;           /* cycles actually evaluated (cycles - skipped) */
    uint64_t gpu_stepped;       /* GPU-cycles evaluated: stepped cycles x GPUs, less those a GPU slept (per-GPU skip) */
    uint64_t *cd_done;          /* [b * N + g]: cycle at which GPU g output the end of batch b */
    uint64_t *cp_start;         /* [b * N + g]: cycle at which CP of batch b started at g */
    uint32_t **recv;            /* [b * N + g]: what GPU g output for batch b, in order */
    uint32_t *recv_n;
    cdsys_link_t *links;
    uint32_t n_links;
    uint64_t prims_compared;    /* received primitives compared with the golden lists / invariant */
    uint64_t rx_buf_high;       /* most flits ever waiting in one GPU's RX buffer of one port (what an RX FIFO
                                   in front of the PE would need; the harness buffers are elastic) */
    uint64_t p2g_masks_checked;
    /* stream: per GPU, the most primitive ids (LAST markers not counted) its receive FIFOs held at once, and the
     * most slots (ids + LAST markers); CREDIT flits sent */
    uint32_t *reorder_max_slots;
    uint32_t *reorder_max;
    uint64_t credit_flits;
    uint32_t n_gpus, n_batches;
    /* first failure: where */
    int fail_gpu;
    int64_t fail_batch, fail_prim;
    uint64_t fail_cycle;
    char report[2048];
} cdsys_result_t;

/* Run the workload. 0 ok; -1 with res->report (invariant, golden or P2G-mask mismatch, accounting, deadlock,
 * or the units backend stopped it). res must be freed with cdsys_result_free in both cases. */
int cdsys_run(const cdsys_params_t *p, const cdsys_work_t *w, cdsys_result_t *res);
void cdsys_result_free(cdsys_result_t *res);

#endif
