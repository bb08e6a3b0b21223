/* CHOPIN (Ren and Lis, HPCA 2021) as a scheme of the golden and timing model: sort-last composition of draw
 * groups, duplication (`dup`) as the fallback (docs/golden-model.md "chopin", docs/timing.md).
 *
 * The pieces here are pure functions, unit-tested in tests/unit/test_chopin.c; cmodel/sys/scheme_chopin.c runs them:
 *   grouping      consecutive draws with the same composition state (chopin_same_state) form a group; a
 *                 clear, an upload or a read-after-write dependency (a draw sampling a surface written since
 *                 the last synchronisation) ends it too
 *   class         whether a group composes exactly (chopin_draw_class) or falls back to duplication
 *   scheduler     chopin_pick_gpu: the GPU with the fewest scheduled-but-unprocessed triangles, or round robin
 *   merge         chopin_merge_pick: the winner of one pixel among the sub-images and the existing contents
 *   composition   chopin_comp_schedule: CHOPIN's composition scheduler (who sends to whom when) over the
 *                 flit-level network of cmodel/link/net.c (both topologies), with the receiver's ROP merge */
#ifndef GPUPD_SYS_CHOPIN_H
#define GPUPD_SYS_CHOPIN_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/gpu.h"

#define CHOPIN_MIN_TRIS_DEFAULT 4096u   /* CHOPIN: groups below this many triangles are duplicated */
#define CHOPIN_MAX_DRAW_TRIS_DEFAULT 16384u  /* CHOPIN: a draw of more triangles is a group of its own */
#define CHOPIN_COMP_PACKET_BYTES 256u   /* composition packet: an 8x8 block of one 4-byte surface (a ROP block) */
#define CHOPIN_COMP_NIC_PACKETS 2u      /* packets a sender may have waiting in its network port */

typedef enum {
    CHOPIN_OPAQUE = 0,          /* composes exactly: depth test and write on, a strict/non-strict LESS or GREATER
                                   function, no blending, every colour mask all or nothing */
    CHOPIN_DUP_BLEND_DEPTH,     /* blended with depth test and write on: duplicated (CHOPIN's rule) */
    CHOPIN_DUP_BLEND,           /* blended (transparent): duplicated in this model (docs/golden-model.md) */
    CHOPIN_DUP_STATE            /* any other state that a depth merge cannot compose (depth off, EQUAL, ALWAYS,
                                   depth write off, partial colour mask): duplicated */
} chopin_class_t;
const char *chopin_class_name(chopin_class_t c);

/* The composition class of one draw. */
chopin_class_t chopin_draw_class(const gpu_draw_t *d);
/* 1 if b may join a group that a started: the same render targets, depth buffer, depth test / write /
 * function, blending and colour masks, and whether the fragment program writes colour (CHOPIN starts a new
 * group on a render-target, blend or depth-state change). */
int chopin_same_state(const gpu_draw_t *a, const gpu_draw_t *b);
/* Triangles a draw issues (what the scheduler counts). */
uint32_t chopin_draw_tris(const gpu_draw_t *d);

/* The group composes (instead of falling back to duplication): class opaque, at least min_tris triangles and
 * more draws than GPUs (CHOPIN: MinKDTreeInSortLast and numDraws > numGPUs). */
int chopin_group_composes(chopin_class_t cls, uint64_t tris, uint32_t n_draws, uint32_t n_gpus, uint32_t min_tris);

/* Draw scheduler: the GPU for a draw of `tris` triangles. load[g] = scheduled-but-unprocessed triangles of GPU
 * g (updated: load[pick] += tris); *last = the previous pick (updated). Least-loaded: candidates in the order
 * last+1, last+2, ...; the first with the strictly smallest load wins (CHOPIN's GPUSchedInfo). rr: last+1. */
uint32_t chopin_pick_gpu(uint64_t *load, uint32_t n_gpus, uint32_t *last, int rr, uint64_t tris);

/* CHOPIN's group cap (parkd/Common/TriangleMesh.cpp): a draw of more than max_draw_tris triangles (16384) closes
 * the group before it and the one it is in: it forms a group of its own (which, one draw, falls back to
 * duplication). 1 if `next` joins the group whose first draw is `first` and whose last draw is `prev`: the same
 * composition state and, unless max_draw_tris is 0 (no cap), neither prev nor next above the cap. */
int chopin_draw_joins(const gpu_draw_t *first, const gpu_draw_t *prev, const gpu_draw_t *next, uint32_t max_draw_tris);

/* Scheduled-but-unprocessed triangles per GPU, across groups and frames (CHOPIN's GPUSchedInfo: the schedule
 * table is never reset; totProcessedTris grows as the GPU's clipper outputs triangles of scheduled draws). A
 * draw scheduled to GPU g is recorded with the ticks its first and last triangle leave CLIP (t0 <= t1);
 * processed(now) counts its triangles as leaving CLIP evenly from t0 to t1. t0 = t1 = UINT64_MAX: never
 * processed (the untimed model: the driver is ahead of every GPU). */
typedef struct {
    uint64_t tris, t0, t1;
} chopin_pend_t;
typedef struct {
    uint32_t n_gpus;
    uint64_t never[64];         /* triangles recorded with t1 = UINT64_MAX */
    chopin_pend_t *pend[64];    /* the others, not yet fully processed at the last chopin_sched_load */
    size_t n_pend[64], cap_pend[64];
} chopin_sched_t;
void chopin_sched_init(chopin_sched_t *s, uint32_t n_gpus);
void chopin_sched_free(chopin_sched_t *s);
/* Record a draw of `tris` triangles scheduled to GPU g. 0, or -1 (out of memory, bad input). */
int chopin_sched_add(chopin_sched_t *s, uint32_t g, uint64_t tris, uint64_t t0, uint64_t t1);
/* load[g] = triangles scheduled to g and not processed at tick `now`; drops the fully processed records
 * (now must not decrease between calls). */
void chopin_sched_load(chopin_sched_t *s, uint64_t now, uint64_t *load);

/* Merge of one pixel of an opaque group: n sub-images with depth[i] and stamp[i] (0: no fragment of the group
 * wrote the pixel on that GPU; else 1 + the command index of the draw that did) against the existing depth
 * `exist` (stamp 0: older than the group). Returns the index of the winning sub-image, or -1 if the existing
 * contents stay. Depth func LESS / LEQUAL: the smallest depth wins, GREATER / GEQUAL: the largest; a tie goes to
 * the earliest draw for the strict functions (a later equal fragment fails the test) and to the latest for the
 * non-strict ones (it passes): exactly what one GPU rendering the draws in order keeps. *tie is set when the
 * winner had to be chosen by draw order among different candidates of equal depth. */
int chopin_merge_pick(uint8_t depth_func, uint32_t n, const uint32_t *depth, const uint32_t *stamp, uint32_t exist,
                      int *tie);
/* The depth a sub-image starts from: the identity of the merge (LESS/LEQUAL: the far value, GREATER/GEQUAL: 0). */
uint32_t chopin_depth_identity(uint8_t depth_func);

/* ---- composition (timing) ---- */
typedef struct {
    uint32_t n_gpus;            /* 2..64 */
    int hub;                    /* 0: line (GPU i -- i+1), 1: hub switch */
    uint32_t lat_cycles;        /* link latency, cycles per link traversal */
    uint64_t link_mbpc;         /* link bandwidth, milli-bytes per cycle */
    uint64_t hub_mbpc;          /* hub switch bandwidth */
    uint64_t tpc;               /* ticks per cycle */
    uint32_t packet_bytes;      /* composition packet size (0: CHOPIN_COMP_PACKET_BYTES) */
    uint32_t nic_packets;       /* sender's port depth in packets (0: CHOPIN_COMP_NIC_PACKETS) */
    const uint64_t *ready;      /* [n] tick at which GPU g finished rendering its sub-image */
    const uint64_t *bytes;      /* [src * n + dst] bytes src sends to dst (0: nothing to send) */
    /* merge cost at the receiver: called when a transfer's data starts arriving at `t0` (ticks) and ends
     * arriving at `t1`; returns the tick the receiver's ROPs finished merging it (>= t1). NULL: t1. */
    uint64_t (*merge)(void *user, uint32_t dst, uint32_t src, uint64_t t0, uint64_t t1);
    void *user;
} chopin_comp_in_t;

typedef struct {
    uint32_t src, dst;
    uint64_t start, arrive, merged;   /* ticks: transfer start, last byte arrived, merge done */
} chopin_xfer_t;

/* The composition of one group, cycle by cycle on a net_t of the topology (cmodel/link/net.c, timed: latency,
 * link and switch bandwidth). Every cycle, CHOPIN's composition scheduler (GPUDriver.cpp
 * CompScheduler::setSendToGPU, opaque groups; polled every cycle by each receiver's ROP) lets each receiver
 * that is ready, not receiving and done merging, in GPU order, take the first sender from GPU 0 on that is
 * ready, not sending and has not sent to it yet (pairs with 0 bytes are skipped). A sender cuts its bytes into
 * bulk packets of packet_bytes and puts them into its network port (the FIFO of its first link) while that
 * holds fewer than nic_packets; it is free when its last packet is in. The network moves them (bandwidth,
 * contention in the FIFOs and the switch, latency per link: all from net.c); when the last packet of a
 * transfer arrives, the receiver's merge hook gets the first and last arrival ticks and the receiver takes its
 * next sender once the merge is done. xfers: room for n*(n-1) entries, in completion order; *n_xfers written.
 * link_busy (optional, [net link id]: line 2*(n-1) directed links, 2*i = i->i+1, 2*i+1 = i+1->i; hub 2*n,
 * 2*g = g->hub, 2*g+1 = hub->g) accumulates the ticks each link spent sending (its bytes / its bandwidth).
 * end[g] = the tick GPU g finished its composition (last merge, last packet handed to the network; its ready
 * tick if nothing). 0, or -1 on bad input. */
int chopin_comp_schedule(const chopin_comp_in_t *in, chopin_xfer_t *xfers, size_t *n_xfers, uint64_t *end,
                         uint64_t *link_busy);

#endif
