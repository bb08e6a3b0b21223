/* Scheme dup: every GPU projects every primitive and renders those whose P2G mask names it. The GPUs of a draw
 * are independent: each is one task on its lane (sys_par.h), all waited for at the end of the draw. */
#include "sys/sys_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    sys_t *s;
    uint32_t g, ci;
} dup_task_t;

/* the draw on GPU g: projection (functional), selection by the masks, the render pass (timed) */
static int dup_gpu(void *u)
{
    const dup_task_t *t = u;
    sys_t *s = t->s;
    uint32_t g = t->g, ci = t->ci;
    const gpu_draw_t *d = &s->scene->frames[s->frame].cmds[ci].draw;
    uint32_t m = gpu_draw_prim_count(d);
    gpu_prim_req_t *all = malloc((size_t)m * sizeof *all), *sel = malloc((size_t)m * sizeof *sel);
    gpu_projected_t *proj = malloc((size_t)m * sizeof *proj);
    int rc = -1;
    if (!all || !sel || !proj) { sys_failf(s, "out of memory"); goto out; }
    for (uint32_t p = 0; p < m; p++) { all[p].prim = p; all[p].tag = p; }
    p2g_config_t pc = sys_draw_p2g(s, d);
    gpu_t *G = &s->gpu[g];
    struct gpu_timing *tm = G->tm;
    G->tm = NULL;       /* timed: the selection below is the functional step; the render pass is timed */
    gt_stamps(G, 0);
    int prc = sys_project_on(s, g, d, all, m, proj);
    gt_stamps(G, 1);
    G->tm = tm;
    if (prc) goto out;
    size_t k = 0;
    for (uint32_t p = 0; p < m; p++)
        if (sys_mask_of(&pc, &proj[p]) & (1ull << g)) sel[k++] = all[p];
    if (s->timed) {
        /* dup as the hardware runs it: geometry for every primitive, CLIP drops those whose P2G mask does not
         * name this GPU; the same primitives reach RAST in the same order as the selection (same pixels) */
        uint8_t *keep = calloc(m ? m : 1, 1);
        if (!keep) { sys_failf(s, "out of memory"); goto out; }
        for (size_t i = 0; i < k; i++) keep[sel[i].tag] = 1;
        G->clip_keep = s->N > 1 ? keep : NULL;   /* one GPU owns everything: no filter (exactly single) */
        G->clip_keep_n = m;
        int rc2 = sys_render_on(s, g, ci, all, m);
        G->clip_keep = NULL;
        free(keep);
        if (rc2) goto out;
        s->res->gpu[g].prims_to_render -= m - k;
    } else if (sys_render_on(s, g, ci, sel, k)) goto out;
    if (s->cfg->check_masks) {
        k = 0;
        for (uint32_t p = 0; p < m; p++)
            if (!(sys_mask_of(&pc, &proj[p]) & (1ull << g))) sel[k++] = all[p];
        if (sys_probe_group(s, g, ci, sel, k, NULL)) goto out;
    }
    rc = 0;
out:
    free(all);
    free(sel);
    free(proj);
    return rc;
}

int sys_run_draw_dup(sys_t *s, uint32_t ci)
{
    const gpu_draw_t *d = &s->scene->frames[s->frame].cmds[ci].draw;
    if (gpu_draw_prim_count(d) == 0) return 0;
    int rc = 0;
    for (uint32_t g = 0; g < s->N && !rc; g++) {
        dup_task_t *t = malloc(sizeof *t);
        if (!t) { rc = sys_failf(s, "out of memory"); break; }
        *t = (dup_task_t){s, g, ci};
        rc = par_run(s->par, g, dup_gpu, t);
    }
    if (par_wait_all(s->par)) rc = -1;
    if (rc) return -1;
    s->res->batches++;
    return 0;
}
