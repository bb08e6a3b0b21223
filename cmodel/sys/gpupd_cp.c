/* The CP phase of a gpupd segment, shared by the golden exchange (scheme_gpupd.c) and the CD system
 * (gpupd_cdsys.c): a GPU's chunk projected on its units, its P2G inputs and masks; the exchange wait. */
#include "sys/sys_internal.h"

#include <stdlib.h>
#include <string.h>

int sys_project_group(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u)
{
    cp_ctx_t *c = u;
    const gpu_draw_t *d = &s->scene->frames[s->frame].cmds[ci].draw;
    if (sys_project_on(s, g, d, list, n, c->proj)) return -1;
    p2g_config_t pc = sys_draw_p2g(s, d);
    if (c->ready) c->cfgs[c->n_cfgs] = pc;
    for (size_t i = 0; i < n; i++) {
        if (c->ready) {
            c->ready[c->pos] = s->tm[g].proj_t[i];
            c->pin[c->pos] = c->proj[i].p2g;
            c->cfg_idx[c->pos] = c->n_cfgs;
        }
        c->out[c->pos].prim = list[i].tag;
        c->out[c->pos].mask = sys_mask_of(&pc, &c->proj[i]);
        if (s->cfg->p2g_tap)
            s->cfg->p2g_tap(s->cfg->p2g_tap_user, g, ci, &pc, &c->proj[i].p2g, c->out[c->pos].mask);
        c->pos++;
    }
    if (c->ready) c->n_cfgs++;
    return 0;
}

/* CP of (b, g) starting at step `now`, shared by both paths: the GPU's 1/N chunk of the batch's primitives
 * (ids lo..hi-1) projected on its units into *cc, the chunk's P2G configurations written from cfgs on.
 * Returns the chunk's size, or -1 (L->err set) on a failure. */
int64_t sys_cp_project_chunk(lazy_t *L, uint32_t g, uint32_t b, uint64_t now, p2g_config_t *cfgs, cp_ctx_t *cc)
{
    sys_t *s = L->s;
    uint32_t N = s->N;
    gpu_timing_t *T = &s->tm[g];
    int ps = sys_proj_slots(s);
    gt_proj_slots(&s->gpu[g], ps);     /* projection slots: the CP phase on its own front end */
    uint64_t avail = gt_max(T->start, T->free[GT_CP]);
    if (now * GT_TPC > avail) {     /* the front end (projection slots) idled until the exchange let CP start */
        if (ps) L->phold[g] += now * GT_TPC - avail;
        else L->held[g] += now * GT_TPC - avail;
    }
    T->start = gt_max(T->start, now * GT_TPC);
    uint32_t m = L->B[b].m, c = (m + N - 1) / N;
    uint32_t lo = g * c < m ? g * c : m, hi = (g + 1) * c < m ? (g + 1) * c : m;
    for (uint32_t p = lo; p < hi; p++) L->ids[p - lo] = p;
    memset(cc, 0, sizeof *cc);
    cc->out = L->entries[(size_t)b * N + g];
    cc->proj = L->proj;
    cc->ready = L->ready;
    cc->pin = L->pin;
    cc->cfg_idx = L->cfg_idx;
    cc->cfgs = cfgs;
    int rc = sys_for_groups(s, g, &L->B[b], L->ids, hi - lo, L->tmp, sys_project_group, cc);
    gt_proj_slots(&s->gpu[g], 0);
    if (rc) { L->err = 1; return -1; }
    if (ps && L->pfloor) {
        uint64_t last = hi > lo ? L->ready[hi - lo - 1] : now * GT_TPC;
        L->pfloor[(size_t)b * N + g] = last > L->phold[g] ? last - L->phold[g] : 0;
    }
    return hi - lo;
}

/* Batch b's primitive list (a piece of it under gpupd-stream) is handed to GPU g's rendering at network step
 * `step` (its CD is complete or the piece released; with an in-order front end also the projection issued
 * before it has gone): render it there, and add to the GPU's exchange wait (exchange_overhead_cycles,
 * docs/timing.md section 3) the raster side's starvation the exchange caused: the idle gap SETUP had before
 * the list's first triangle (its NoPrimitive cycles), at most the list's lateness: the cycles from the moment
 * the front end could have started it (CP free, start floor) to the hand-over, plus, since the GPU's previous
 * hand-over, the cycles its front end idled until the exchange let a CP phase start and the cycles its
 * projection was held back by full exchange queues (L->held). With an exchange that hands every list over
 * as soon as the front end can take it, none of them would exist. A list of which no triangle reaches SETUP
 * adds nothing and hands its lateness on to the next list. */
int sys_exchange_render(sys_t *s, lazy_t *L, uint32_t g, uint32_t b, int src, uint64_t step, const uint32_t *prims,
                        size_t n, gpu_prim_req_t *tmp)
{
    gpu_timing_t *T = &s->tm[g];
    uint64_t avail = gt_max(T->start, T->free[GT_CP]), t = step * GT_TPC;
    if (src >= 0 && L->pfloor && sys_proj_slots(s)) avail = gt_max(avail, L->pfloor[(size_t)b * s->N + (uint32_t)src]);
    uint64_t late = (t > avail ? t - avail : 0) + L->held[g];
    L->held[g] = 0;
    T->start = gt_max(T->start, t);
    T->probe = 1;
    T->probe_gap = 0;
    int rc = sys_for_groups(s, g, &L->B[b], prims, n, tmp, sys_render_group, NULL);
    if (!T->probe) s->res->gpu[g].exchange_wait_ticks += T->probe_gap < late ? T->probe_gap : late;
    else L->held[g] = late;     /* no triangle reached SETUP: the lateness carries over to the next list */
    T->probe = 0;
    return rc;
}

typedef struct {
    lazy_t *L;
    uint32_t g, b;
    int src, flags;
    uint64_t step;
    size_t n;
    uint32_t prims[];
} rb_task_t;

static int render_batch(void *u)
{
    rb_task_t *t = u;
    lazy_t *L = t->L;
    sys_t *s = L->s;
    if ((t->flags & SYS_RB_PRE) && sys_exec_between(s, t->g, L->B[t->b].pre0, L->B[t->b].cmd[0])) return -1;
    if (!t->n && !(t->flags & SYS_RB_EMPTY)) return 0;
    gpu_prim_req_t *tmp = malloc((t->n ? t->n : 1) * sizeof *tmp);
    if (!tmp) return sys_failf(s, "out of memory");
    int rc = sys_exchange_render(s, L, t->g, t->b, t->src, t->step, t->prims, t->n, tmp);
    free(tmp);
    return rc;
}

int sys_render_batch_task(lazy_t *L, uint32_t g, uint32_t b, int src, int flags, uint64_t step, const uint32_t *prims,
                          size_t n)
{
    rb_task_t *t = malloc(sizeof *t + n * sizeof *prims);
    if (!t) return sys_failf(L->s, "out of memory");
    t->L = L;
    t->g = g;
    t->b = b;
    t->src = src;
    t->flags = flags;
    t->step = step;
    t->n = n;
    if (n) memcpy(t->prims, prims, n * sizeof *prims);
    return par_run(L->s->par, g, render_batch, t) ? -1 : 0;
}
