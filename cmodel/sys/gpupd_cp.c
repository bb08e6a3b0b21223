/* The CP phase of a gpupd segment, shared by the golden exchange (scheme_gpupd.c) and the CD system
 * (gpupd_cdsys.c): a GPU's chunk projected on its units, its P2G inputs and masks; the exchange wait. */
#include "sys/sys_internal.h"

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
    if (sys_for_groups(s, g, &L->B[b], L->ids, hi - lo, L->tmp, sys_project_group, cc)) { L->err = 1; return -1; }
    return hi - lo;
}

/* Batch b's primitive list may go to GPU g's rendering at `step` (its CD is complete; with an in-order front
 * end also the projection issued before it has gone): the cycles the front end has been free before that are
 * the GPU's wait on the exchange (exchange_overhead_cycles, docs/timing.md). */
void sys_exchange_wait(sys_t *s, uint32_t g, uint64_t step)
{
    const gpu_timing_t *T = &s->tm[g];
    uint64_t avail = gt_max(T->start, T->free[GT_CP]), t = step * GT_TPC;
    if (t > avail) s->res->gpu[g].exchange_wait_ticks += t - avail;
}
