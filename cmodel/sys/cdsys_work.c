/* CD-system workload from the golden model (cdsys.h: cdsys_work_from_trace): the CP-phase P2G stream of a
 * real trace (sys_config_t.p2g_tap) cut into batches and GPU chunks with the exchange tap (pe_tap), and the
 * golden receive lists of pe/pe.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/cdsys.h"
#include "sys/sys.h"
#include "sys/trace_scene.h"

typedef struct {
    uint32_t gpu;
    uint32_t cfg;
    p2g_prim_t p;
    uint64_t mask;
} rec_t;

typedef struct {
    rec_t *r;
    size_t n, cap, used;        /* used: records already assigned to batches */
    p2g_config_t *cfgs;
    uint32_t n_cfgs, cap_cfgs;
    cdsys_work_t *w;
    uint32_t cap_b;
    uint32_t cp_cost;
    int err;
    char msg[256];
} cap_t;

static int same_cfg(const p2g_config_t *a, const p2g_config_t *b)
{
    return a->n_gpus == b->n_gpus && a->width == b->width && a->height == b->height && a->tile_log2 == b->tile_log2 &&
           a->mode == b->mode && a->sc_x0 == b->sc_x0 && a->sc_y0 == b->sc_y0 && a->sc_x1 == b->sc_x1 && a->sc_y1 == b->sc_y1;
}

static void p2g_tap(void *user, uint32_t gpu, uint32_t cmd, const p2g_config_t *cfg, const p2g_prim_t *in, uint64_t mask)
{
    cap_t *c = user;
    (void)cmd;
    if (c->err) return;
    if (c->n == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 4096;
        rec_t *nr = realloc(c->r, nc * sizeof *nr);
        if (!nr) { c->err = 1; return; }
        c->r = nr;
        c->cap = nc;
    }
    uint32_t ci = c->n_cfgs;
    if (c->n_cfgs && same_cfg(&c->cfgs[c->n_cfgs - 1], cfg)) ci = c->n_cfgs - 1;
    else {
        for (uint32_t i = 0; i < c->n_cfgs; i++)
            if (same_cfg(&c->cfgs[i], cfg)) { ci = i; break; }
        if (ci == c->n_cfgs) {
            if (c->n_cfgs == c->cap_cfgs) {
                uint32_t nc = c->cap_cfgs ? 2 * c->cap_cfgs : 16;
                p2g_config_t *np = realloc(c->cfgs, nc * sizeof *np);
                if (!np) { c->err = 1; return; }
                c->cfgs = np;
                c->cap_cfgs = nc;
            }
            c->cfgs[c->n_cfgs++] = *cfg;
        }
    }
    rec_t *r = &c->r[c->n++];
    r->gpu = gpu;
    r->cfg = ci;
    r->p = *in;
    r->mask = mask;
}

static void pe_tap(void *user, uint32_t frame, const pe_input_t *in, const pe_result_t *res)
{
    cap_t *c = user;
    cdsys_work_t *w = c->w;
    uint32_t N = in->n_gpus;
    if (c->err) return;
    uint32_t nb = w->n_batches + in->n_batches;
    if (nb > c->cap_b) {
        uint32_t cb = c->cap_b ? c->cap_b : 64;
        while (cb < nb) cb *= 2;
        cdsys_prim_t **pr = realloc(w->prims, (size_t)cb * N * sizeof *pr);
        if (pr) w->prims = pr;
        uint32_t *ct = realloc(w->counts, (size_t)cb * N * sizeof *ct);
        if (ct) w->counts = ct;
        uint32_t **gl = realloc(w->golden, (size_t)cb * N * sizeof *gl);
        if (gl) w->golden = gl;
        uint32_t *gn = realloc(w->golden_n, (size_t)cb * N * sizeof *gn);
        if (gn) w->golden_n = gn;
        uint8_t *ba = realloc(w->barrier, cb);
        if (ba) w->barrier = ba;
        uint32_t *fr = realloc(w->frame, cb * sizeof *fr);
        if (fr) w->frame = fr;
        if (!pr || !ct || !gl || !gn || !ba || !fr) { c->err = 1; return; }
        c->cap_b = cb;
    }
    uint32_t base = w->n_batches;
    for (uint32_t b = 0; b < in->n_batches; b++) {
        uint32_t gb = base + b;
        w->barrier[gb] = b == 0;
        w->frame[gb] = frame;
        for (uint32_t g = 0; g < N; g++) {
            size_t si = (size_t)b * N + g, so = (size_t)gb * N + g;
            uint32_t n = in->counts[si];
            w->counts[so] = n;
            w->prims[so] = malloc((n ? n : 1) * sizeof(cdsys_prim_t));
            const pe_list_t *l = &res->recv[si];
            w->golden_n[so] = (uint32_t)l->n;
            w->golden[so] = malloc((l->n ? l->n : 1) * sizeof(uint32_t));
            if (!w->prims[so] || !w->golden[so]) {
                free(w->prims[so]);
                free(w->golden[so]);
                w->prims[so] = NULL;
                w->golden[so] = NULL;
                w->counts[so] = w->golden_n[so] = 0;
                c->err = 1;
            }
            if (c->err) continue;
            if (l->n) memcpy(w->golden[so], l->prims, l->n * sizeof(uint32_t));
            /* the P2G records of this chunk are the next n records of GPU g in tap order */
            for (uint32_t i = 0; i < n; i++) {
                if (c->used >= c->n) { c->err = 2; break; }
                const rec_t *r = &c->r[c->used++];
                if (r->gpu != g || r->p.prim_id != in->entries[si][i].prim || r->mask != in->entries[si][i].mask) {
                    snprintf(c->msg, sizeof c->msg, "tap records out of step with the exchange input (batch %u GPU %u entry %u)", gb, g, i);
                    c->err = 2;
                    break;
                }
                cdsys_prim_t *d = &w->prims[so][i];
                d->p = r->p;
                d->cfg = r->cfg;
                d->ready = i * c->cp_cost;
                d->mask = r->mask;
            }
        }
        /* every slot of this batch exists before the batch is counted */
        w->n_batches = gb + 1;
    }
    if (c->used != c->n && !c->err) {
        snprintf(c->msg, sizeof c->msg, "%zu P2G tap records not covered by the exchange", c->n - c->used);
        c->err = 2;
    }
    c->n = c->used = 0;   /* records of the next segment start afresh */
}

void cdsys_work_free(cdsys_work_t *w)
{
    for (size_t i = 0; i < (size_t)w->n_batches * w->n_gpus; i++) {
        if (w->prims) free(w->prims[i]);
        if (w->golden) free(w->golden[i]);
    }
    free(w->prims);
    free(w->counts);
    free(w->golden);
    free(w->golden_n);
    free(w->barrier);
    free(w->frame);
    free(w->cfgs);
    memset(w, 0, sizeof *w);
}

int cdsys_work_from_trace(const char *trace, uint32_t frame, uint32_t n_gpus, int scheme, uint32_t batch,
                          p2g_mode_t own, uint32_t cp_cost, cdsys_work_t *w, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    if (scheme != SYS_SCHEME_GPUPD && scheme != SYS_SCHEME_GPUPD_BATCH && scheme != SYS_SCHEME_GPUPD_RA &&
        scheme != SYS_SCHEME_GPUPD_STREAM) {
        snprintf(err, errlen, "the CD system needs a gpupd scheme");
        return -1;
    }
    /* gpupd-stream: its CP phase, batches and segments are gpupd-batch's (scheme_gpupd.c closes a batch the same
     * way for both), and what a GPU releases per batch is by definition (stream/sx.h) the paper exchange's receive
     * list: for each source in order, its ids with this GPU's bit. So the workload and the golden lists are
     * captured from gpupd-batch (pe/pe.c); cdsys checks the SPEC 4.2 invariant from the masks independently. */
    if (scheme == SYS_SCHEME_GPUPD_STREAM) scheme = SYS_SCHEME_GPUPD_BATCH;
    sys_scene_t sc;
    sys_trace_info_t ti;
    if (sys_scene_from_trace(&sc, trace, frame, &ti, err, errlen)) return -1;
    cap_t c;
    memset(&c, 0, sizeof c);
    c.w = w;
    c.cp_cost = cp_cost;
    w->n_gpus = n_gpus;
    sys_config_t cfg = sys_config_default();
    cfg.scheme = (sys_scheme_t)scheme;
    cfg.n_gpus = n_gpus;
    cfg.own_mode = own;
    cfg.frame = frame;
    if (batch) cfg.batch = batch;
    cfg.p2g_tap = p2g_tap;
    cfg.p2g_tap_user = &c;
    cfg.pe_tap = pe_tap;
    cfg.pe_tap_user = &c;
    sys_result_t res;
    int rc = sys_run(&sc, &cfg, &res);
    if (rc) snprintf(err, errlen, "golden model: %s", res.err);
    else if (c.err) {
        snprintf(err, errlen, "capturing the workload: %s", c.err == 1 ? "out of memory" : c.msg);
        rc = -1;
    }
    sys_result_free(&res);
    sys_scene_free(&sc);
    free(c.r);
    w->cfgs = c.cfgs;
    w->n_cfgs = c.n_cfgs;
    if (rc) cdsys_work_free(w);
    return rc ? -1 : 0;
}
