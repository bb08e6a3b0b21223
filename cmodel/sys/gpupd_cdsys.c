/* The hookup of the CD system (sys/cdsys.h: P2G + PE cycle models over the timed network) for a gpupd
 * segment: CP start, the CLIP -> P2G back-pressure, rendering when a batch's CD is complete. */
#include "sys/sys_internal.h"

#include <stdlib.h>
#include <string.h>

/* cdsys path: CP of (b, g) starts at network step `step`: project the chunk on the GPU's units and hand the
 * P2G inputs with their ready cycles (after the start) to the CD system, whose P2G and PE cycle models map
 * and exchange them */
static int cds_cp_start(void *u, uint32_t g, uint32_t b, uint64_t step)
{
    lazy_t *L = u;
    sys_t *s = L->s;
    if (L->err) return -1;
    if (par_wait(s->par, g)) { L->err = 1; return -1; }     /* GPU g's rendering so far, before its projection */
    gpu_timing_t *T = &s->tm[g];
    size_t sl = (size_t)b * s->N + g;
    cp_ctx_t cc;
    int64_t n = sys_cp_project_chunk(L, g, b, step, L->w->cfgs + L->n_cfgs, &cc);
    if (n < 0) return -1;
    uint32_t cnt = (uint32_t)n;
    uint64_t prev = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        cdsys_prim_t *pr = &L->w->prims[sl][i];
        pr->p = L->pin[i];
        pr->p.prim_id = L->entries[sl][i].prim;
        pr->cfg = L->n_cfgs + L->cfg_idx[i];
        uint64_t rc = (L->ready[i] + GT_TPC - 1) / GT_TPC;
        uint64_t off = rc > step ? rc - step : 0;
        if (off < prev) off = prev;             /* non-decreasing (projection delivers in order) */
        prev = off;
        pr->ready = off > UINT32_MAX ? UINT32_MAX : (uint32_t)off;
        pr->mask = L->entries[sl][i].mask;
        gt_account(T, GT_P2G, (step + off) * GT_TPC, GT_TPC);
    }
    L->n_cfgs += cc.n_cfgs;
    s->res->gpu[g].p2g_prims += cnt;
    return 0;
}

/* the P2G took the last primitive of chunk (b, g): its projection was held back `stall` cycles in total by the
 * bounded CLIP -> P2G queue, so the GPU's front end (CP .. CLIP) was busy that much longer */
static int cds_cp_fed(void *u, uint32_t g, uint32_t b, uint64_t step, uint64_t stall)
{
    lazy_t *L = u;
    (void)b;
    if (L->err) return -1;
    if (par_wait(L->s->par, g)) { L->err = 1; return -1; }
    gpu_timing_t *T = &L->s->tm[g];
    uint64_t d = stall * GT_TPC;
    if (!d) return 0;
    int ps = sys_proj_slots(L->s);
    if (ps) L->phold[g] += d;   /* the projection slots were held by the exchange's full queue */
    else L->held[g] += d;       /* the front end was: part of the next list's lateness */
    gt_proj_slots(&L->s->gpu[g], ps);   /* projection slots: they were held, not the render front end */
    const int fe[] = {GT_CP, GT_VF, GT_VS, GT_CLIP};
    for (size_t i = 0; i < sizeof fe / sizeof fe[0]; i++) T->free[fe[i]] += d;
    gt_proj_slots(&L->s->gpu[g], 0);
    T->front_done = gt_max(T->front_done + d, step * GT_TPC);
    T->last_done = gt_max(T->last_done, T->front_done);
    return 0;
}

static int cds_cd_done(void *u, uint32_t g, uint32_t b, uint64_t step, const uint32_t *prims, size_t n)
{
    lazy_t *L = u;
    if (L->err) return -1;
    if (sys_render_batch_task(L, g, b, -1, SYS_RB_PRE | SYS_RB_EMPTY, step, prims, n)) { L->err = 1; return -1; }
    return 0;
}

/* The exchange of a segment through the CD system (P2G + PE cycle models over the timed network; gpupd-stream: the
 * stream PE's, scheme_stream.c renders what it releases). Per-GPU
 * statistics follow from the masks (what the PE sends and keeps is fixed by them). */
int sys_run_cdsys(sys_t *s, lazy_t *L, uint32_t nb, uint32_t nd, uint32_t *counts, pe_entry_t **entries)
{
    uint32_t N = s->N;
    const sys_config_t *cfg = s->cfg;
    cdsys_work_t w;
    memset(&w, 0, sizeof w);
    w.n_gpus = N;
    w.n_batches = nb;
    w.n_cfgs = nd * N;
    w.cfgs = calloc(w.n_cfgs ? w.n_cfgs : 1, sizeof *w.cfgs);
    w.prims = calloc((size_t)nb * N, sizeof *w.prims);
    w.counts = counts;
    int rc = -1;
    cdsys_result_t r;
    memset(&r, 0, sizeof r);
    if (!w.cfgs || !w.prims) { sys_failf(s, "out of memory"); goto out; }
    for (size_t i = 0; i < (size_t)nb * N; i++) {
        w.prims[i] = calloc(counts[i] ? counts[i] : 1, sizeof **w.prims);
        if (!w.prims[i]) { sys_failf(s, "out of memory"); goto out; }
    }
    L->w = &w;
    L->n_cfgs = 0;
    cdsys_params_t p = cdsys_params_default(N, cfg->topo);
    p.net = &s->net;
    p.runahead = cfg->scheme == SYS_SCHEME_GPUPD_RA;
    p.skip_idle = !cfg->no_skip;
    p.max_gpus = 64;
    p.p2g_rows = cfg->p2g_rows ? cfg->p2g_rows : 2;
    p.tag_bits = 16;
    p.max_cycles = UINT64_MAX / 4;      /* CP may wait long for the GPU's front end: no watchdog */
    /* the PE's local queue holds a GPU's P2G results until its turn: as deep as the model allows (the paper
     * buffers a chunk's results; a shallow LQ would stall the P2G, and the projection, for whole turns) */
    p.pe_lq_depth = cfg->pe_lq_depth ? cfg->pe_lq_depth : PE_HW_MAX_DEPTH;
    p.on_cp_start = cds_cp_start;
    p.on_cd_done = cds_cd_done;
    /* bounded buffering from CLIP through the P2G to the PE: CLIP's output queue (q_tri) feeds the P2G in the
     * CP phase; a full LQ stalls the P2G, the P2G stalls CLIP, and the projection stops (cdsys.h) */
    p.cp_queue = s->cfg->tcfg.q_tri;
    p.on_cp_fed = cds_cp_fed;
    p.in_order_front = 1;
    /* front-end width P: P P2G units per GPU merged in order (the paper's Fig. 9: one P2G per PME) */
    p.p2g_units = cfg->tcfg.fe_rate ? cfg->tcfg.fe_rate : 1;
    if (cfg->scheme == SYS_SCHEME_GPUPD_STREAM) {   /* the stream PE: release per (batch, source), no turns */
        p.stream = 1;
        p.sx_k = cfg->sx_k;
        p.sx_depth = cfg->sx_depth;
        p.sx_live = cfg->sx_live;
        p.on_cd_done = NULL;
        p.on_release = sys_stream_release;
        p.in_order_front = cfg->sx_front == SYS_SX_FRONT_IN_ORDER || cfg->sx_front == SYS_SX_FRONT_AHEAD;
        p.project_ahead = cfg->sx_front == SYS_SX_FRONT_AHEAD;
    }
    p.hook_user = L;
    int crc = cdsys_run(&p, &w, &r);
    if (par_wait_all(s->par)) L->err = 1;      /* the GPUs' rendering of the segment's last batches */
    if (L->err) goto out;
    if (crc) {
        sys_failf(s, "frame %u: the CD system (P2G + PE cycle models) failed (scheme %s, %u GPUs, %s): %s", s->frame,
                  sys_scheme_name(cfg->scheme), N, net_topo_name(cfg->topo), r.report);
        goto out;
    }
    s->res->exchange_steps += r.cycles;
    s->res->exchange_stepped += r.stepped;
    if (p.stream) {
        s->res->credit_flits += r.credit_flits;
        for (uint32_t g = 0; g < N; g++)
            if (r.reorder_max[g] > s->res->gpu[g].reorder_max_ids) s->res->gpu[g].reorder_max_ids = r.reorder_max[g];
    }
    sys_mask_stats(s, nb, counts, entries);
    rc = 0;
out:
    cdsys_result_free(&r);
    if (w.prims)
        for (size_t i = 0; i < (size_t)nb * N; i++) free(w.prims[i]);
    free(w.prims);
    free(w.cfgs);
    L->w = NULL;
    return rc;
}
