/* Internal to the N-GPU system run (cmodel/sys: sys.c, sys_sync.c, scheme_*.c, gpupd_*.c; not for other
 * modules): the run state, the batch and CP contexts shared by the schemes, and the helpers they share.
 * Dependency direction: sys.c (run driver) -> scheme_*.c -> gpupd_cdsys.c -> gpupd_cp.c, and scheme_gpupd.c ->
 * gpupd_cp.c; every file may use sys_sync.c and the helpers of sys.c declared here (no file calls back up). */
#ifndef GPUPD_SYS_INTERNAL_H
#define GPUPD_SYS_INTERNAL_H

#include "sys/sys.h"

#include "gpu/frag.h"
#include "gpu/isa_backend.h"
#include "p2g/p2g_hw.h"
#include "pe/pe_hw.h"
#include "sys/cdsys.h"
#include "sys/chopin.h"
#include "sys/sys_par.h"

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const sys_scene_t *scene;
    const sys_config_t *cfg;
    sys_result_t *res;
    uint32_t N;                 /* GPU instances */
    gpu_t *gpu;
    net_t net;
    uint32_t frame;             /* frame being rendered */
    int last_frame;             /* it is the produced frame */
    uint64_t *valid;            /* AFR: per surface, GPUs holding the current contents */
    /* timing (the produced frame) */
    int timed;                  /* timing attached for the frame being rendered */
    gpu_timing_t *tm;           /* [N] */
    p2g_hw_t *p2g;              /* [N]: the P2G cycle model of every GPU */
    gpu_isa_library_t lib;      /* shader library (costs of built-in programs) */
    uint64_t link_mbpc, hub_mbpc;
    uint64_t *link_sync_ticks;  /* [n_links] synchronisation transfer time per link */
    uint64_t *link_busy0;       /* [n_links] busy steps at the start of the timed frame */
    uint32_t chopin_last;       /* chopin: the draw scheduler's previous pick */
    chopin_sched_t chopin_sched;    /* chopin: scheduled-but-unprocessed triangles per GPU, across groups */
    uint64_t *chopin_bytes;     /* chopin: [src * N + dst] composition bytes of the current group */
    par_t *par;                 /* the GPUs' task lanes (sys_par.h; NULL: one thread) */
} sys_t;

typedef struct {
    uint32_t *cmd;              /* command index of each draw in the batch */
    uint32_t *base;             /* first batch primitive id of each draw */
    uint32_t n_draws, m;        /* draws, primitives */
    uint32_t pre0;              /* commands pre0 .. cmd[0]-1 precede the batch: its clears and uploads (run on
                                   each GPU between the rendering of the previous batch and this one) */
} batch_t;

/* group a run of batch primitive ids (in order) by draw and call fn for each group */
typedef int (*group_fn)(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u);

typedef struct {
    pe_entry_t *out;
    size_t pos;
    gpu_projected_t *proj;
    /* timed CP phase (NULL otherwise): per chunk position, the CLIP output tick, the P2G input and the index
     * of its P2G configuration in cfgs (one per draw group) */
    uint64_t *ready;
    p2g_prim_t *pin;
    uint32_t *cfg_idx;
    p2g_config_t *cfgs;
    uint32_t n_cfgs;
} cp_ctx_t;

typedef struct {
    sys_t *s;
    batch_t *B;
    pe_entry_t **entries;
    uint32_t *counts;
    gpu_prim_req_t *tmp;
    gpu_projected_t *proj;
    uint32_t *ids;
    uint64_t *ready;
    p2g_prim_t *pin;
    uint32_t *cfg_idx;
    p2g_config_t *cfgs;
    int err;
    /* golden path: [b * N + g][i] = the cycle entry i left the P2G (the PE walks it from then on) */
    uint64_t **eready;
    /* RTL path (cdsys): the workload filled when CP starts */
    cdsys_work_t *w;
    uint32_t n_cfgs;
    /* per GPU, since its last hand-over of a list to rendering: ticks its front end idled until the exchange let
     * a CP phase start, and ticks its projection was held back by full exchange queues (sys_exchange_render) */
    uint64_t held[64];
    /* projection slots (sys_proj_slots): per GPU, ticks its projection slots were held by the exchange so far (CP
     * gating, full exchange queues); per chunk [b * N + g], the tick its last primitive would have left CLIP had
     * they never been (the floor from which a piece of it counts as late: before it the raster side waits for
     * the projection, the C-PD work, not for the exchange) */
    uint64_t phold[64];
    uint64_t *pfloor;
} lazy_t;

/* sys.c: errors, helpers every scheme uses */
int sys_failf(sys_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sys_sfr(const sys_t *s);
void sys_target_size(const sys_scene_t *sc, const gpu_draw_t *d, uint32_t *w, uint32_t *h);
p2g_config_t sys_draw_p2g(const sys_t *s, const gpu_draw_t *d);
uint64_t sys_mask_of(const p2g_config_t *c, const gpu_projected_t *p);
int sys_render_on(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n);
int sys_project_on(sys_t *s, uint32_t g, const gpu_draw_t *d, const gpu_prim_req_t *list, size_t n,
                   gpu_projected_t *out);
int sys_exec_between(sys_t *s, uint32_t g, uint32_t lo, uint32_t hi);
int sys_for_groups(sys_t *s, uint32_t g, const batch_t *b, const uint32_t *ids, size_t n, gpu_prim_req_t *tmp,
                   group_fn fn, void *u);
int sys_render_group(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u);
int sys_probe_group(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u);
int sys_draw_reads(const gpu_draw_t *d, int32_t sid);
int sys_draw_writes(const gpu_draw_t *d, int32_t sid);
int sys_check_draw(sys_t *s, uint32_t ci);

/* 1 if the GPUs' CP phase runs on projection slots of its own (gpupd-stream, --sx-front split, the default; gt_proj_slots) */
static inline int sys_proj_slots(const sys_t *s)
{
    return s->timed && s->cfg->scheme == SYS_SCHEME_GPUPD_STREAM && s->cfg->sx_front == SYS_SX_FRONT_SPLIT;
}

/* sys_sync.c: render-to-texture synchronisation, clears and uploads */
uint64_t sys_xfer_ticks(uint64_t bytes, uint64_t mbpc);
void sys_sync_surface(sys_t *s, int32_t sid);
int sys_surface_dirty(const sys_t *s, int32_t sid);
int sys_is_full_clear(const sys_t *s, const sys_cmd_t *c);
int sys_exec_clear(sys_t *s, const sys_cmd_t *c, uint32_t first, uint32_t count);
void sys_exec_upload(sys_t *s, const sys_cmd_t *c, uint32_t first, uint32_t count);

/* scheme_gpupd.c: gpupd, gpupd-batch, gpupd-ra */
int sys_run_segment_gpupd(sys_t *s, uint32_t i0, uint32_t i1);

/* gpupd_cp.c: the CP phase of a gpupd segment; rendering a handed-over list with its exchange wait (all exchange paths) */
int sys_project_group(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u);
int64_t sys_cp_project_chunk(lazy_t *L, uint32_t g, uint32_t b, uint64_t now, p2g_config_t *cfgs, cp_ctx_t *cc);
int sys_exchange_render(sys_t *s, lazy_t *L, uint32_t g, uint32_t b, int src, uint64_t step, const uint32_t *prims,
                        size_t n, gpu_prim_req_t *tmp);
/* Batch b's primitive list (ascending batch ids) goes to GPU g's rendering at exchange step `step`: the clears
 * and uploads before the batch (SYS_RB_PRE), then (for an empty list only with SYS_RB_EMPTY) sys_exchange_render;
 * a task on GPU g's lane (sys_par.h; prims are copied). src: the source GPU of a gpupd-stream piece (its
 * projection floor, lazy_t.pfloor), -1 for a whole batch. 0, or -1 (message in res->err) if it failed (run inline)
 * or could not be queued. */
enum { SYS_RB_PRE = 1, SYS_RB_EMPTY = 2 };
int sys_render_batch_task(lazy_t *L, uint32_t g, uint32_t b, int src, int flags, uint64_t step, const uint32_t *prims,
                          size_t n);

/* gpupd_cdsys.c: a gpupd segment's exchange through the CD system */
int sys_run_cdsys(sys_t *s, lazy_t *L, uint32_t nb, uint32_t nd, uint32_t *counts, pe_entry_t **entries);

/* scheme_stream.c: gpupd-stream (the segment itself is scheme_gpupd.c's) */
int sys_stream_release(void *u, uint32_t g, uint32_t b, uint32_t src, uint64_t step, const uint32_t *prims, size_t n);
void sys_mask_stats(sys_t *s, uint32_t nb, const uint32_t *counts, pe_entry_t *const *entries);
int sys_stream_render(sys_t *s, const batch_t *B, uint32_t nb, const uint32_t *counts, pe_entry_t *const *entries,
                      uint32_t maxm, gpu_prim_req_t *tmp);

/* scheme_dup.c */
int sys_run_draw_dup(sys_t *s, uint32_t ci);

/* scheme_chopin.c */
int sys_run_group_chopin(sys_t *s, uint32_t i0, uint32_t i1);

/* scheme_afr.c */
int sys_run_frame_afr(sys_t *s);

#endif
