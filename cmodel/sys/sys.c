#include "sys/sys.h"

#include "common/outfile.h"

#include "gpu/isa_backend.h"
#include "p2g/p2g_hw.h"
#include "sys/cdsys.h"
#include "sys/chopin.h"
#include "gpu/frag.h"
#include "pe/pe_hw.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------- scene ---------------- */

void sys_scene_init(sys_scene_t *s)
{
    memset(s, 0, sizeof *s);
    s->display = -1;
}

void sys_scene_free(sys_scene_t *s)
{
    for (size_t i = 0; i < s->n_blobs; i++) free(s->blobs[i]);
    free(s->blobs);
    for (uint32_t f = 0; f < s->n_frames; f++) free(s->frames[f].cmds);
    free(s->frames);
    memset(s, 0, sizeof *s);
    s->display = -1;
}

void *sys_scene_own(sys_scene_t *s, void *p)
{
    if (!p) return NULL;
    if (s->n_blobs == s->cap_blobs) {
        size_t nc = s->cap_blobs ? s->cap_blobs * 2 : 64;
        void **nb = realloc(s->blobs, nc * sizeof *nb);
        if (!nb) { free(p); return NULL; }
        s->blobs = nb;
        s->cap_blobs = nc;
    }
    s->blobs[s->n_blobs++] = p;
    return p;
}

sys_cmd_t *sys_scene_add_cmd(sys_scene_t *s, uint32_t frame)
{
    if (frame >= s->n_frames) {
        sys_frame_t *nf = realloc(s->frames, (size_t)(frame + 1) * sizeof *nf);
        if (!nf) return NULL;
        memset(nf + s->n_frames, 0, (size_t)(frame + 1 - s->n_frames) * sizeof *nf);
        s->frames = nf;
        s->n_frames = frame + 1;
    }
    sys_frame_t *f = &s->frames[frame];
    if (f->n == f->cap) {
        size_t nc = f->cap ? f->cap * 2 : 16;
        sys_cmd_t *nb = realloc(f->cmds, nc * sizeof *nb);
        if (!nb) return NULL;
        f->cmds = nb;
        f->cap = nc;
    }
    sys_cmd_t *c = &f->cmds[f->n++];
    memset(c, 0, sizeof *c);
    c->ref_pixels = -1;
    return c;
}

int sys_scene_add_surface(sys_scene_t *s, uint32_t w, uint32_t h, gpu_format_t fmt, const uint32_t *init)
{
    if (s->n_surf >= GPU_MAX_SURFACES) return -1;
    s->surf[s->n_surf].w = w;
    s->surf[s->n_surf].h = h;
    s->surf[s->n_surf].fmt = fmt;
    s->surf[s->n_surf].init = init;
    return (int)s->n_surf++;
}

/* ---------------- config ---------------- */

static const char *const scheme_names[SYS_SCHEME_COUNT] = {"single", "dup", "gpupd", "gpupd-batch", "gpupd-ra", "afr", "chopin"};

const char *sys_scheme_name(sys_scheme_t s) { return (unsigned)s < SYS_SCHEME_COUNT ? scheme_names[s] : "?"; }

int sys_scheme_parse(const char *name, sys_scheme_t *s)
{
    for (int i = 0; i < SYS_SCHEME_COUNT; i++)
        if (!strcmp(name, scheme_names[i])) { *s = (sys_scheme_t)i; return 0; }
    return -1;
}

sys_config_t sys_config_default(void)
{
    sys_config_t c;
    memset(&c, 0, sizeof c);
    c.scheme = SYS_SCHEME_SINGLE;
    c.n_gpus = 1;
    c.topo = NET_LINE;
    c.batch = 4096;
    c.tile_log2 = 5;
    c.own_mode = P2G_MODE_DIAG;
    c.link_latency = 4;
    c.hub_rate = 2;
    c.send_rate = 1;
    c.cp_cost = 1;
    c.mem_limit_mb = SYS_MEM_LIMIT_MB_DEFAULT;
    c.timing = 1;
    c.tcfg = gpu_tcfg_default();
    c.link_latency_ns = 400.0;
    c.link_gbps = 40.0;
    c.hub_gbps = 80.0;
    c.p2g_rows = 2;
    c.chopin_min_tris = CHOPIN_MIN_TRIS_DEFAULT;
    return c;
}

uint64_t sys_frame_hash(const uint32_t *pixels, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++) {
            h ^= (pixels[i] >> (8 * b)) & 0xFFu;
            h *= 0x100000001b3ull;
        }
    return h;
}

/* ---------------- the run ---------------- */

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
    uint64_t *chopin_bytes;     /* chopin: [src * N + dst] composition bytes of the current group */
} sys_t;

static int failf(sys_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failf(sys_t *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->res->err, sizeof s->res->err, fmt, ap);
    va_end(ap);
    return -1;
}

static int sfr(const sys_t *s)
{
    return s->cfg->scheme == SYS_SCHEME_DUP || s->cfg->scheme == SYS_SCHEME_GPUPD ||
           s->cfg->scheme == SYS_SCHEME_GPUPD_BATCH || s->cfg->scheme == SYS_SCHEME_GPUPD_RA ||
           s->cfg->scheme == SYS_SCHEME_CHOPIN;
}

static void target_size(const sys_scene_t *sc, const gpu_draw_t *d, uint32_t *w, uint32_t *h)
{
    for (int i = 0; i < GPU_MAX_RTS; i++)
        if (d->st.rt[i] >= 0) { *w = sc->surf[d->st.rt[i]].w; *h = sc->surf[d->st.rt[i]].h; return; }
    *w = sc->surf[d->st.depth_rt].w;
    *h = sc->surf[d->st.depth_rt].h;
}

/* P2G configuration of a draw: its target size, viewport ∩ scissor as the scissor rectangle */
static p2g_config_t draw_p2g(const sys_t *s, const gpu_draw_t *d)
{
    uint32_t w, h;
    target_size(s->scene, d, &w, &h);
    p2g_config_t c = p2g_config_default(s->N, w, h);
    c.tile_log2 = s->cfg->tile_log2;
    c.mode = s->cfg->own_mode;
    int64_t x0 = d->st.vp_x, y0 = d->st.vp_y;
    int64_t x1 = (int64_t)d->st.vp_x + d->st.vp_w - 1, y1 = (int64_t)d->st.vp_y + d->st.vp_h - 1;
    if (d->st.scissor_enable) {
        if (d->st.sc_x > x0) x0 = d->st.sc_x;
        if (d->st.sc_y > y0) y0 = d->st.sc_y;
        if ((int64_t)d->st.sc_x + d->st.sc_w - 1 < x1) x1 = (int64_t)d->st.sc_x + d->st.sc_w - 1;
        if ((int64_t)d->st.sc_y + d->st.sc_h - 1 < y1) y1 = (int64_t)d->st.sc_y + d->st.sc_h - 1;
    }
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > (int64_t)w - 1) x1 = (int64_t)w - 1;
    if (y1 > (int64_t)h - 1) y1 = (int64_t)h - 1;
    if (x0 > x1 || y0 > y1) {     /* empty: an impossible rectangle gives empty boxes */
        c.sc_x0 = 1; c.sc_x1 = 0; c.sc_y0 = 1; c.sc_y1 = 0;
    } else {
        c.sc_x0 = (uint32_t)x0; c.sc_y0 = (uint32_t)y0; c.sc_x1 = (uint32_t)x1; c.sc_y1 = (uint32_t)y1;
    }
    return c;
}

static uint64_t mask_of(const p2g_config_t *c, const gpu_projected_t *p)
{
    if (c->sc_x0 > c->sc_x1 || c->sc_y0 > c->sc_y1) return 0;
    return p2g_mask(c, &p->p2g);
}

/* render `n` primitives (indices in the draw) of command ci on GPU g, counting its pixels */
static int render_on(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n)
{
    const sys_cmd_t *c = &s->scene->frames[s->frame].cmds[ci];
    gpu_t *G = &s->gpu[g];
    uint64_t before = G->stats.pixels_written;
    if (gpu_render(G, &c->draw, list, n) != 0)
        return failf(s, "frame %u draw %u (command %u) on GPU %u: %s", s->frame, c->src_index, ci, g, G->err);
    if (s->last_frame) s->res->draw_pixels[ci] += G->stats.pixels_written - before;
    s->res->gpu[g].prims_to_render += n;
    return 0;
}

static int project_on(sys_t *s, uint32_t g, const gpu_draw_t *d, const gpu_prim_req_t *list, size_t n,
                      gpu_projected_t *out)
{
    gpu_t *G = &s->gpu[g];
    gpu_stats_t keep = G->stats;
    memset(&G->stats, 0, sizeof G->stats);
    int rc = gpu_project(G, d, list, n, out);
    gpu_stats_t *p = &s->res->gpu[g].project;
    p->prims_in += G->stats.prims_in;
    p->vs_invocations += G->stats.vs_invocations;
    p->vs_cache_hits += G->stats.vs_cache_hits;
    p->prims_culled += G->stats.prims_culled;
    G->stats = keep;
    s->res->gpu[g].prims_projected += n;
    if (rc) return failf(s, "frame %u: projection on GPU %u: %s", s->frame, g, G->err);
    return 0;
}

/* ---- timing of synchronisations ---- */

static uint64_t xfer_ticks(uint64_t bytes, uint64_t mbpc) { return (bytes * 1000 * GT_TPC + mbpc - 1) / mbpc; }

/* Every GPU waits until all are drained, then GPU 0, 1, ... broadcast their updated tiles in turn (paper 5:
 * "GPUs broadcast the updated contents ... to other GPUs in turn"). A broadcast takes its bytes at the link
 * bandwidth plus the latency of the longest path (line: hops to the farther end; hub: two links, and the
 * switch copies it to N-1 GPUs at the hub bandwidth). The wait and the transfers are Sync cycles. */
static void sync_timing(sys_t *s, const uint64_t *gbytes)
{
    uint32_t N = s->N;
    uint64_t t = 0, lat = (uint64_t)s->net.latency * GT_TPC;
    for (uint32_t g = 0; g < N; g++) t = gt_max(t, gt_drained(&s->tm[g]));
    for (uint32_t g = 0; g < N; g++) {
        if (!gbytes[g]) continue;
        uint64_t d = xfer_ticks(gbytes[g], s->link_mbpc);
        if (s->cfg->topo == NET_HUB) {
            d = gt_max(d, xfer_ticks(gbytes[g] * (N - 1), s->hub_mbpc)) + 2 * lat;
            s->link_sync_ticks[s->net.out_link[g * s->net.n_nodes + N]] += xfer_ticks(gbytes[g], s->link_mbpc);
            for (uint32_t k = 0; k < N; k++)
                if (k != g) s->link_sync_ticks[s->net.out_link[N * s->net.n_nodes + k]] += xfer_ticks(gbytes[g], s->link_mbpc);
        } else {
            uint32_t hops = g > N - 1 - g ? g : N - 1 - g;
            d += (uint64_t)hops * lat;
            for (uint32_t i = g; i + 1 < N; i++) s->link_sync_ticks[s->net.out_link[i * s->net.n_nodes + i + 1]] += xfer_ticks(gbytes[g], s->link_mbpc);
            for (uint32_t i = g; i > 0; i--) s->link_sync_ticks[s->net.out_link[i * s->net.n_nodes + i - 1]] += xfer_ticks(gbytes[g], s->link_mbpc);
        }
        t += d;
    }
    for (uint32_t g = 0; g < N; g++) {
        uint64_t dr = gt_drained(&s->tm[g]);
        s->res->gpu[g].cyc_sync += (t - dr) / GT_TPC;
        gt_barrier(&s->tm[g], t);
    }
}

/* Render-to-texture synchronisation of surface sid (SFR). */
static void sync_surface(sys_t *s, int32_t sid)
{
    const sys_surface_desc_t *sd = &s->scene->surf[sid];
    uint32_t ts = 1u << s->cfg->tile_log2;
    uint32_t tpr = (sd->w + ts - 1) / ts, tpc = (sd->h + ts - 1) / ts;
    int any = 0;
    if (!s->gpu[0].dirty[sid]) return;      /* shared read-only texture */
    uint64_t gbytes[64];
    for (uint32_t g = 0; g < s->N; g++) {
        uint64_t bytes = 0;
        for (uint32_t t = 0; t < tpr * tpc; t++) {
            if (!s->gpu[g].dirty[sid][t]) continue;
            s->gpu[g].dirty[sid][t] = 0;
            uint32_t tx = t % tpr, ty = t / tpr;
            uint32_t x0 = tx * ts, y0 = ty * ts;
            uint32_t x1 = x0 + ts < sd->w ? x0 + ts : sd->w, y1 = y0 + ts < sd->h ? y0 + ts : sd->h;
            for (uint32_t k = 0; k < s->N; k++) {
                if (k == g) continue;
                for (uint32_t y = y0; y < y1; y++)
                    memcpy(&s->gpu[k].surf[sid].data[(size_t)y * sd->w + x0], &s->gpu[g].surf[sid].data[(size_t)y * sd->w + x0],
                           (size_t)(x1 - x0) * 4);
                gpu_surface_changed(&s->gpu[k], (int32_t)sid);
            }
            bytes += (uint64_t)(x1 - x0) * (y1 - y0) * 4;
        }
        gbytes[g] = bytes;
        if (bytes) {
            any = 1;
            net_account_broadcast(&s->net, g, bytes);
            s->res->gpu[g].sync_bytes_sent += bytes;
            s->res->sync_bytes += bytes * (s->N - 1);
        }
    }
    if (any) s->res->syncs++;
    if (any && s->timed) sync_timing(s, gbytes);
}

static int surface_dirty(const sys_t *s, int32_t sid)
{
    const sys_surface_desc_t *sd = &s->scene->surf[sid];
    uint32_t ts = 1u << s->cfg->tile_log2;
    uint32_t nt = ((sd->w + ts - 1) / ts) * ((sd->h + ts - 1) / ts);
    if (!s->gpu[0].dirty[sid]) return 0;
    for (uint32_t g = 0; g < s->N; g++)
        for (uint32_t t = 0; t < nt; t++)
            if (s->gpu[g].dirty[sid][t]) return 1;
    return 0;
}

/* GPUs first..first+count-1 hold the same contents of sid as every other GPU for their part: forget their
 * updated tiles (a per-GPU clear or upload inside a segment runs on each GPU at its own time) */
static void clear_dirty(sys_t *s, int32_t sid, uint32_t first, uint32_t count)
{
    const sys_surface_desc_t *sd = &s->scene->surf[sid];
    uint32_t ts = 1u << s->cfg->tile_log2;
    uint32_t nt = ((sd->w + ts - 1) / ts) * ((sd->h + ts - 1) / ts);
    if (!s->gpu[0].dirty[sid]) return;
    for (uint32_t g = first; g < first + count; g++) memset(s->gpu[g].dirty[sid], 0, nt);
}

static int is_full_clear(const sys_t *s, const sys_cmd_t *c)
{
    const sys_surface_desc_t *sd = &s->scene->surf[c->surface];
    int full_area = c->sw == 0 || (c->sx <= 0 && c->sy <= 0 && (int64_t)c->sx + c->sw >= sd->w && (int64_t)c->sy + c->sh >= sd->h);
    return full_area && (sd->fmt == GPU_FMT_DEPTH24 || (c->mask & 0xF) == 0xF);
}

static int exec_clear(sys_t *s, const sys_cmd_t *c, uint32_t first, uint32_t count)
{
    for (uint32_t g = first; g < first + count; g++) {
        if (gpu_clear(&s->gpu[g], c->surface, c->value, c->mask, c->sx, c->sy, c->sw, c->sh) != 0)
            return failf(s, "frame %u: %s", s->frame, s->gpu[g].err);
        if (s->timed) {     /* SFR: each GPU's ROPs clear its own tiles (1/N of the area); AFR/single: all */
            const sys_surface_desc_t *sd = &s->scene->surf[c->surface];
            uint64_t area = c->sw ? (uint64_t)c->sw * c->sh : (uint64_t)sd->w * sd->h;
            if (area > (uint64_t)sd->w * sd->h) area = (uint64_t)sd->w * sd->h;
            gt_clear(&s->tm[g], area * 4 / (sfr(s) ? s->N : 1));
        }
    }
    if (sfr(s) && is_full_clear(s, c)) clear_dirty(s, c->surface, first, count);
    return 0;
}

static void exec_upload(sys_t *s, const sys_cmd_t *c, uint32_t first, uint32_t count)
{
    const sys_surface_desc_t *sd = &s->scene->surf[c->surface];
    for (uint32_t g = first; g < first + count; g++)
    {
        memcpy(s->gpu[g].surf[c->surface].data, c->data, (size_t)sd->w * sd->h * 4);
        gpu_surface_changed(&s->gpu[g], c->surface);
    }
    if (sfr(s)) clear_dirty(s, c->surface, first, count);
}

/* ---- SFR ---- */

typedef struct {
    uint32_t *cmd;              /* command index of each draw in the batch */
    uint32_t *base;             /* first batch primitive id of each draw */
    uint32_t n_draws, m;        /* draws, primitives */
    uint32_t pre0;              /* commands pre0 .. cmd[0]-1 precede the batch: its clears and uploads (run on
                                   each GPU between the rendering of the previous batch and this one) */
} batch_t;

/* the clears and uploads among commands [lo, hi) of the frame, on GPU g, in command order */
static int exec_between(sys_t *s, uint32_t g, uint32_t lo, uint32_t hi)
{
    const sys_frame_t *fr = &s->scene->frames[s->frame];
    for (uint32_t ci = lo; ci < hi; ci++) {
        const sys_cmd_t *c = &fr->cmds[ci];
        if (c->kind == SYS_CMD_CLEAR && exec_clear(s, c, g, 1)) return -1;
        if (c->kind == SYS_CMD_UPLOAD) exec_upload(s, c, g, 1);
    }
    return 0;
}

/* group a run of batch primitive ids (in order) by draw and call fn for each group */
typedef int (*group_fn)(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u);

static int for_groups(sys_t *s, uint32_t g, const batch_t *b, const uint32_t *ids, size_t n, gpu_prim_req_t *tmp,
                      group_fn fn, void *u)
{
    size_t i = 0;
    uint32_t d = 0;
    while (i < n) {
        /* ids ascend (the exchange invariant was checked), so the draw index only moves forward */
        while (d + 1 < b->n_draws && ids[i] >= b->base[d + 1]) d++;
        uint32_t end = d + 1 < b->n_draws ? b->base[d + 1] : b->m;
        size_t k = 0;
        while (i < n && ids[i] >= b->base[d] && ids[i] < end) {
            tmp[k].prim = ids[i] - b->base[d];
            tmp[k].tag = ids[i];
            k++;
            i++;
        }
        if (k == 0) return failf(s, "GPU %u: primitive list out of order at id %u (internal error)", g, ids[i]);
        if (fn(s, g, b->cmd[d], tmp, k, u)) return -1;
    }
    return 0;
}

static int render_group(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u)
{
    (void)u;
    return render_on(s, g, ci, list, n);
}

/* --check-masks: a primitive left out of GPU g's list must not cover any pixel of g's tiles */
static int probe_group(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u)
{
    (void)u;
    const sys_cmd_t *c = &s->scene->frames[s->frame].cmds[ci];
    uint64_t hits = 0;
    uint32_t first = 0;
    if (gpu_probe(&s->gpu[g], &c->draw, list, n, &hits, &first) != 0)
        return failf(s, "frame %u draw %u: probe on GPU %u: %s", s->frame, c->src_index, g, s->gpu[g].err);
    s->res->mask_checks += n;
    if (hits)
        return failf(s, "P2G mask check failed: frame %u draw %u (command %u) primitive %u covers %llu pixel(s) in the "
                        "tiles of GPU %u, but its mask leaves GPU %u out (scheme %s, %u GPUs)",
                     s->frame, c->src_index, ci, first, (unsigned long long)hits, g, g, sys_scheme_name(s->cfg->scheme), s->N);
    return 0;
}

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

static int project_group(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u)
{
    cp_ctx_t *c = u;
    const gpu_draw_t *d = &s->scene->frames[s->frame].cmds[ci].draw;
    if (project_on(s, g, d, list, n, c->proj)) return -1;
    p2g_config_t pc = draw_p2g(s, d);
    if (c->ready) c->cfgs[c->n_cfgs] = pc;
    for (size_t i = 0; i < n; i++) {
        if (c->ready) {
            c->ready[c->pos] = s->tm[g].proj_t[i];
            c->pin[c->pos] = c->proj[i].p2g;
            c->cfg_idx[c->pos] = c->n_cfgs;
        }
        c->out[c->pos].prim = list[i].tag;
        c->out[c->pos].mask = mask_of(&pc, &c->proj[i]);
        if (s->cfg->p2g_tap)
            s->cfg->p2g_tap(s->cfg->p2g_tap_user, g, ci, &pc, &c->proj[i].p2g, c->out[c->pos].mask);
        c->pos++;
    }
    if (c->ready) c->n_cfgs++;
    return 0;
}

/* ---- timed CP -> CD -> rendering (hooks of pe_run) ---- */
typedef struct {
    sys_t *s;
    batch_t *B;
    pe_entry_t **entries;
    uint32_t *counts;
    gpu_prim_req_t *tmp, *rtmp;
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
} lazy_t;

/* The P2G cycle model of GPU g maps the chunk: primitive i enters when projection delivers it (ready[i]
 * ticks) and the unit is ready; returns the cycle after the last mask left it. Every mask is checked against
 * the definition (the entries). Idle cycles are skipped unless cfg->no_skip (same result). */
static int p2g_chunk(sys_t *s, uint32_t g, uint32_t b, lazy_t *L, uint32_t n, uint64_t now, uint64_t *end)
{
    p2g_hw_t *H = &s->p2g[g];
    const pe_entry_t *e = L->entries[(size_t)b * s->N + g];
    uint64_t cyc = now;
    uint32_t i = 0, o = 0;
    uint64_t limit = now + 1000 + (uint64_t)n * 4096 + (n ? L->ready[n - 1] / GT_TPC : 0);
    while (o < n) {
        p2g_hw_in_t in;
        memset(&in, 0, sizeof in);
        in.cfg = L->cfgs[L->cfg_idx[i < n ? i : n - 1]];
        in.out_ready = 1;
        if (i < n && (L->ready[i] + GT_TPC - 1) / GT_TPC <= cyc) {
            in.in_valid = 1;
            in.in = L->pin[i];
            in.in.prim_id = e[i].prim;
            in.in.tag = b & 0xFFFFu;
        }
        p2g_hw_out_t out;
        p2g_hw_comb(H, &in, &out);
        if (out.out_valid) {
            uint64_t want = e[o].mask;
            if (out.out_mask != want || out.out_prim_id != e[o].prim)
                return failf(s, "frame %u: the P2G cycle model disagrees with p2g_mask on GPU %u batch %u primitive %u: "
                                "mask 0x%llx, definition 0x%llx", s->frame, g, b, e[o].prim,
                             (unsigned long long)out.out_mask, (unsigned long long)want);
            if (L->eready) L->eready[(size_t)b * s->N + g][o] = cyc + 1;
            o++;
            *end = cyc + 1;
        }
        if (in.in_valid && out.in_ready) {
            i++;
            s->res->gpu[g].p2g_prims++;
            gt_account(&s->tm[g], GT_P2G, cyc * GT_TPC, GT_TPC);
        }
        p2g_hw_clock(H, &in);
        cyc++;
        s->res->p2g_cycles_stepped++;
        if (!s->cfg->no_skip && i < n && o == i) {
            /* nothing inside the unit: jump to the next primitive's cycle if the unit is idle and settled */
            p2g_hw_in_t idle = in;
            idle.in_valid = 0;
            idle.cfg = L->cfgs[L->cfg_idx[i]];
            p2g_hw_out_t io;
            p2g_hw_comb(H, &idle, &io);
            uint64_t nx = (L->ready[i] + GT_TPC - 1) / GT_TPC;
            if (!io.busy && io.in_ready && nx > cyc) cyc = nx;
        }
        if (cyc > limit) return failf(s, "P2G cycle model on GPU %u: no progress (internal error)", g);
    }
    return 0;
}

/* CP of (b, g) starting at step `now`, shared by both paths: the GPU's 1/N chunk of the batch's primitives
 * (ids lo..hi-1) projected on its units into *cc, the chunk's P2G configurations written from cfgs on.
 * Returns the chunk's size, or -1 (L->err set) on a failure. */
static int64_t cp_project_chunk(lazy_t *L, uint32_t g, uint32_t b, uint64_t now, p2g_config_t *cfgs, cp_ctx_t *cc)
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
    if (for_groups(s, g, &L->B[b], L->ids, hi - lo, L->tmp, project_group, cc)) { L->err = 1; return -1; }
    return hi - lo;
}

static uint64_t hook_cp(void *u, uint32_t g, uint32_t b, uint64_t now)
{
    lazy_t *L = u;
    if (L->err) return now;
    cp_ctx_t cc;
    int64_t n = cp_project_chunk(L, g, b, now, L->cfgs, &cc);
    if (n < 0) return now;
    uint64_t end = now;
    if (n > 0 && p2g_chunk(L->s, g, b, L, (uint32_t)n, now, &end)) { L->err = 1; return now; }
    return end;
}

/* cdsys path: CP of (b, g) starts at network step `step`: project the chunk on the GPU's units and hand the
 * P2G inputs with their ready cycles (after the start) to the CD system, whose P2G and PE cycle models map
 * and exchange them */
static int cds_cp_start(void *u, uint32_t g, uint32_t b, uint64_t step)
{
    lazy_t *L = u;
    sys_t *s = L->s;
    if (L->err) return -1;
    gpu_timing_t *T = &s->tm[g];
    size_t sl = (size_t)b * s->N + g;
    cp_ctx_t cc;
    int64_t n = cp_project_chunk(L, g, b, step, L->w->cfgs + L->n_cfgs, &cc);
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

/* Batch b's primitive list may go to GPU g's rendering at `step` (its CD is complete; with an in-order front
 * end also the projection issued before it has gone): the cycles the front end has been free before that are
 * the GPU's wait on the exchange (exchange_overhead_cycles, docs/timing.md). */
static void exchange_wait(sys_t *s, uint32_t g, uint64_t step)
{
    const gpu_timing_t *T = &s->tm[g];
    uint64_t avail = gt_max(T->start, T->free[GT_CP]), t = step * GT_TPC;
    if (t > avail) s->res->gpu[g].exchange_wait_ticks += t - avail;
}

/* the P2G took the last primitive of chunk (b, g): its projection was held back `stall` cycles in total by the
 * bounded CLIP -> P2G queue, so the GPU's front end (CP .. CLIP) was busy that much longer */
static int cds_cp_fed(void *u, uint32_t g, uint32_t b, uint64_t step, uint64_t stall)
{
    lazy_t *L = u;
    (void)b;
    if (L->err) return -1;
    gpu_timing_t *T = &L->s->tm[g];
    uint64_t d = stall * GT_TPC;
    if (!d) return 0;
    L->s->res->gpu[g].exchange_wait_ticks += d;    /* the front end was held by the exchange's full queue */
    const int fe[] = {GT_CP, GT_VF, GT_VS, GT_CLIP};
    for (size_t i = 0; i < sizeof fe / sizeof fe[0]; i++) T->free[fe[i]] += d;
    T->front_done = gt_max(T->front_done + d, step * GT_TPC);
    T->last_done = gt_max(T->last_done, T->front_done);
    return 0;
}

static int cds_cd_done(void *u, uint32_t g, uint32_t b, uint64_t step, const uint32_t *prims, size_t n)
{
    lazy_t *L = u;
    sys_t *s = L->s;
    if (L->err) return -1;
    gpu_timing_t *T = &s->tm[g];
    if (exec_between(s, g, L->B[b].pre0, L->B[b].cmd[0])) { L->err = 1; return -1; }
    exchange_wait(s, g, step);
    T->start = gt_max(T->start, step * GT_TPC);
    if (for_groups(s, g, &L->B[b], prims, n, L->rtmp, render_group, NULL)) { L->err = 1; return -1; }
    return 0;
}

/* The exchange of a segment through the CD system (P2G + PE cycle models over the timed network). Per-GPU
 * statistics follow from the masks (what the PE sends and keeps is fixed by them). */
static int run_cdsys(sys_t *s, lazy_t *L, uint32_t nb, uint32_t nd, uint32_t *counts, pe_entry_t **entries)
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
    if (!w.cfgs || !w.prims) { failf(s, "out of memory"); goto out; }
    for (size_t i = 0; i < (size_t)nb * N; i++) {
        w.prims[i] = calloc(counts[i] ? counts[i] : 1, sizeof **w.prims);
        if (!w.prims[i]) { failf(s, "out of memory"); goto out; }
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
    p.hook_user = L;
    int crc = cdsys_run(&p, &w, &r);
    if (L->err) goto out;
    if (crc) {
        failf(s, "frame %u: the CD system (P2G + PE cycle models) failed (scheme %s, %u GPUs, %s): %s", s->frame,
              sys_scheme_name(cfg->scheme), N, net_topo_name(cfg->topo), r.report);
        goto out;
    }
    s->res->exchange_steps += r.cycles;
    s->res->exchange_stepped += r.stepped;
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t g = 0; g < N; g++)
            for (uint32_t i = 0; i < counts[(size_t)b * N + g]; i++) {
                uint64_t mk = entries[(size_t)b * N + g][i].mask;
                for (uint32_t t = 0; t < N; t++) {
                    if (!(mk >> t & 1)) continue;
                    if (t == g) { s->res->gpu[g].prims_kept++; continue; }
                    s->res->gpu[g].prims_sent++;
                    s->res->gpu[t].prims_received++;
                    s->res->gpu[t].prims_received_from[g]++;
                }
            }
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

static void hook_cd(void *u, uint32_t g, uint32_t b, uint64_t now, const uint32_t *prims, size_t n)
{
    lazy_t *L = u;
    sys_t *s = L->s;
    if (L->err) return;
    gpu_timing_t *T = &s->tm[g];
    if (exec_between(s, g, L->B[b].pre0, L->B[b].cmd[0])) { L->err = 1; return; }
    exchange_wait(s, g, now);
    T->start = gt_max(T->start, now * GT_TPC);
    if (for_groups(s, g, &L->B[b], prims, n, L->rtmp, render_group, NULL)) L->err = 1;
}

/* --check-masks over a segment's P2G results: a primitive left out of GPU g must cover none of its pixels */
static int check_masks_segment(sys_t *s, const batch_t *B, uint32_t nb, pe_entry_t *const *entries, const uint32_t *counts,
                               uint32_t maxm, uint32_t *ids, gpu_prim_req_t *tmp)
{
    uint32_t N = s->N;
    uint64_t *mk = malloc((size_t)(maxm ? maxm : 1) * sizeof *mk);
    if (!mk) return failf(s, "out of memory");
    for (uint32_t b = 0; b < nb; b++) {
        for (uint32_t g = 0; g < N; g++)
            for (uint32_t i = 0; i < counts[(size_t)b * N + g]; i++)
                mk[entries[(size_t)b * N + g][i].prim] = entries[(size_t)b * N + g][i].mask;
        for (uint32_t g = 0; g < N; g++) {
            size_t k = 0;
            for (uint32_t p = 0; p < B[b].m; p++)
                if (!(mk[p] & (1ull << g))) ids[k++] = p;
            if (for_groups(s, g, &B[b], ids, k, tmp, probe_group, NULL)) { free(mk); return -1; }
        }
    }
    free(mk);
    return 0;
}

/* One segment of draws [i0, i1) under gpupd / gpupd-batch / gpupd-ra. */
static int run_segment_gpupd(sys_t *s, uint32_t i0, uint32_t i1)
{
    const sys_frame_t *fr = &s->scene->frames[s->frame];
    const sys_config_t *cfg = s->cfg;
    uint32_t N = s->N;
    /* form the batches */
    uint32_t nd = i1 - i0;
    batch_t *B = calloc(nd ? nd : 1, sizeof *B);
    uint32_t *cmdv = calloc(nd ? nd : 1, sizeof *cmdv), *basev = calloc(nd ? nd : 1, sizeof *basev);
    uint32_t nb = 0, maxm = 0, tail0 = i0;      /* commands tail0 .. i1-1 follow the last batch */
    int rc = -1;
    pe_entry_t **entries = NULL;
    uint32_t *counts = NULL;
    gpu_prim_req_t *tmp = NULL;
    gpu_projected_t *proj = NULL;
    uint32_t *ids = NULL;
    pe_result_t pr;
    memset(&pr, 0, sizeof pr);
    lazy_t L;
    memset(&L, 0, sizeof L);
    if (!B || !cmdv || !basev) { failf(s, "out of memory"); goto out; }
    {
        uint32_t k = 0, pre0 = i0;
        batch_t *cur = NULL;
        for (uint32_t i = i0; i < i1; i++) {
            if (fr->cmds[i].kind != SYS_CMD_DRAW) {     /* a clear or an upload: a batch boundary, not a drain */
                if (cur) pre0 = i;
                cur = NULL;
                continue;
            }
            uint32_t np = gpu_draw_prim_count(&fr->cmds[i].draw);
            if (np == 0) continue;
            if (!cur) {
                cur = &B[nb++];
                cur->cmd = &cmdv[k];
                cur->base = &basev[k];
                cur->pre0 = pre0;
            }
            tail0 = i + 1;
            cur->cmd[cur->n_draws] = i;
            cur->base[cur->n_draws] = cur->m;
            cur->n_draws++;
            k++;
            if ((uint64_t)cur->m + np > UINT32_MAX) { failf(s, "batch too large"); goto out; }
            cur->m += np;
            int close = cfg->scheme == SYS_SCHEME_GPUPD || cur->m > cfg->batch;
            if (cur->m > maxm) maxm = cur->m;
            if (close) { cur = NULL; pre0 = i + 1; }
        }
    }
    if (nb == 0) {
        for (uint32_t g = 0; g < N; g++)
            if (exec_between(s, g, i0, i1)) goto out;
        rc = 0;
        goto out;
    }
    s->res->batches += nb;
    s->res->segments++;
    entries = calloc((size_t)nb * N, sizeof *entries);
    counts = calloc((size_t)nb * N, sizeof *counts);
    tmp = malloc((size_t)maxm * sizeof *tmp);
    proj = malloc((size_t)maxm * sizeof *proj);
    ids = malloc((size_t)maxm * sizeof *ids);
    if (!entries || !counts || !tmp || !proj || !ids) { failf(s, "out of memory"); goto out; }
    int lazy = s->timed;
    if (lazy) {
        /* timed: CP of (b, g) runs when the exchange lets it start (hook_cp), rendering of b when its CD is
         * complete (hook_cd): the GPU's units see CP and rendering work in the order the hardware does */
        L.s = s;
        L.B = B;
        L.entries = entries;
        L.counts = counts;
        L.tmp = tmp;
        L.proj = proj;
        L.ids = ids;
        L.ready = malloc((size_t)maxm * sizeof *L.ready);
        L.pin = malloc((size_t)maxm * sizeof *L.pin);
        L.cfg_idx = malloc((size_t)maxm * sizeof *L.cfg_idx);
        L.cfgs = malloc((size_t)(nd ? nd : 1) * sizeof *L.cfgs);
        L.rtmp = malloc((size_t)maxm * sizeof *L.rtmp);
        if (!L.ready || !L.pin || !L.cfg_idx || !L.cfgs || !L.rtmp) { failf(s, "out of memory"); goto out; }
        for (uint32_t b = 0; b < nb; b++) {
            uint32_t m = B[b].m, c = (m + N - 1) / N;
            for (uint32_t g = 0; g < N; g++) {
                uint32_t lo = g * c < m ? g * c : m, hi = (g + 1) * c < m ? (g + 1) * c : m;
                size_t slot = (size_t)b * N + g;
                counts[slot] = hi - lo;
                entries[slot] = malloc((size_t)(hi - lo ? hi - lo : 1) * sizeof(pe_entry_t));
                if (!entries[slot]) { failf(s, "out of memory"); goto out; }
            }
        }
    }
    /* CP phase: GPU g projects primitives [g*c, (g+1)*c) of every batch */
    for (uint32_t b = 0; b < nb && !lazy; b++) {
        uint32_t m = B[b].m, c = (m + N - 1) / N;
        for (uint32_t g = 0; g < N; g++) {
            uint32_t lo = g * c < m ? g * c : m, hi = (g + 1) * c < m ? (g + 1) * c : m;
            size_t slot = (size_t)b * N + g;
            counts[slot] = hi - lo;
            entries[slot] = malloc((size_t)(hi - lo ? hi - lo : 1) * sizeof(pe_entry_t));
            if (!entries[slot]) { failf(s, "out of memory"); goto out; }
            for (uint32_t p = lo; p < hi; p++) ids[p - lo] = p;
            cp_ctx_t cc;
            memset(&cc, 0, sizeof cc);
            cc.out = entries[slot];
            cc.proj = proj;
            if (for_groups(s, g, &B[b], ids, hi - lo, tmp, project_group, &cc)) goto out;
        }
    }
    if (cfg->fault == PE_FAULT_CLEAR_MASK) {       /* a broken P2G result, for testing the checks */
        uint64_t seen = 0;
        for (size_t i = 0; i < (size_t)nb * N; i++)
            for (uint32_t k = 0; k < counts[i]; k++)
                if (entries[i][k].mask && ++seen == cfg->fault_at) { entries[i][k].mask &= entries[i][k].mask - 1; s->res->fault_fired++; }
    }
    /* optional: no primitive is missing from a GPU whose tiles it covers (timed: after the exchange, when
     * every mask exists; the probes are functional only) */
    if (cfg->check_masks && !lazy && check_masks_segment(s, B, nb, entries, counts, maxm, ids, tmp)) goto out;
    /* timed: the segment's exchange continues on the network's clock (it never goes back): a GPU's CP of the
     * first batch starts at the network's present step or later, when its front end is free */
    if (lazy && !cfg->pe_golden) {     /* timed: the RTL units' cycle models */
        if (run_cdsys(s, &L, nb, nd, counts, entries)) goto out;
        if (cfg->check_masks && check_masks_segment(s, B, nb, entries, counts, maxm, ids, tmp)) goto out;
        for (uint32_t g = 0; g < N; g++)
            if (exec_between(s, g, tail0, i1)) goto out;
        rc = 0;
        goto out;
    }
    /* CD phase */
    pe_input_t in;
    memset(&in, 0, sizeof in);
    in.n_gpus = N;
    in.n_batches = nb;
    in.entries = (const pe_entry_t *const *)entries;
    in.counts = counts;
    in.runahead = cfg->scheme == SYS_SCHEME_GPUPD_RA;
    in.send_rate = cfg->send_rate;
    in.cp_cost = cfg->cp_cost;
    in.fault = cfg->fault;
    in.fault_at = cfg->fault_at;
    if (lazy) {
        /* the golden PE streams from its local queue as the RTL does: entry i is walked once the P2G output it */
        L.eready = calloc((size_t)nb * N, sizeof *L.eready);
        if (!L.eready) { failf(s, "out of memory"); goto out; }
        for (size_t i = 0; i < (size_t)nb * N; i++)
            if (!(L.eready[i] = calloc(counts[i] ? counts[i] : 1, sizeof **L.eready))) { failf(s, "out of memory"); goto out; }
        in.entry_ready = L.eready;
        in.cp_ready = hook_cp;
        in.cd_complete = hook_cd;
        in.hook_user = &L;
        in.skip_idle = !cfg->no_skip;
    }
    int prc = pe_run(&in, &s->net, &pr);
    if (L.err) goto out;        /* a projection/rendering error inside a hook (already in res->err) */
    if (prc == 0 && lazy && cfg->check_masks && check_masks_segment(s, B, nb, entries, counts, maxm, ids, tmp)) goto out;
    if (prc != 0) {
        failf(s, "frame %u: primitive exchange failed (scheme %s, %u GPUs, %s): %s", s->frame,
              sys_scheme_name(cfg->scheme), N, net_topo_name(cfg->topo), pr.report);
        goto out;
    }
    if (cfg->pe_tap) cfg->pe_tap(cfg->pe_tap_user, s->frame, &in, &pr);
    s->res->exchange_steps += pr.steps;
    s->res->fault_fired += pr.fault_fired;
    for (uint32_t g = 0; g < N; g++) {
        s->res->gpu[g].prims_received += pr.gpu[g].prim_recv;
        for (uint32_t j = 0; j < N; j++) s->res->gpu[g].prims_received_from[j] += pr.gpu[g].prim_recv_from[j];
        s->res->gpu[g].prims_kept += pr.gpu[g].kept;
        s->res->gpu[g].prims_sent += pr.gpu[g].prim_sent;
    }
    s->res->exchange_stepped += pr.stepped;
    /* rendering: each GPU its received primitives, batch by batch (timed: done by hook_cd) */
    for (uint32_t g = 0; g < N && !lazy; g++)
        for (uint32_t b = 0; b < nb; b++) {
            const pe_list_t *l = &pr.recv[(size_t)b * N + g];
            if (exec_between(s, g, B[b].pre0, B[b].cmd[0])) goto out;
            if (for_groups(s, g, &B[b], l->prims, l->n, tmp, render_group, NULL)) goto out;
        }
    for (uint32_t g = 0; g < N; g++)
        if (exec_between(s, g, tail0, i1)) goto out;
    rc = 0;
out:
    pe_result_free(&pr, nb * N);
    if (entries)
        for (size_t i = 0; i < (size_t)nb * N; i++) free(entries[i]);
    free(entries);
    free(counts);
    free(tmp);
    free(proj);
    free(ids);
    free(B);
    free(cmdv);
    free(basev);
    free(L.ready);
    free(L.pin);
    free(L.cfg_idx);
    free(L.cfgs);
    free(L.rtmp);
    if (L.eready)
        for (size_t i = 0; i < (size_t)nb * N; i++) free(L.eready[i]);
    free(L.eready);
    return rc;
}

static int run_draw_dup(sys_t *s, uint32_t ci)
{
    const gpu_draw_t *d = &s->scene->frames[s->frame].cmds[ci].draw;
    uint32_t m = gpu_draw_prim_count(d);
    if (m == 0) return 0;
    gpu_prim_req_t *all = malloc((size_t)m * sizeof *all), *sel = malloc((size_t)m * sizeof *sel);
    gpu_projected_t *proj = malloc((size_t)m * sizeof *proj);
    int rc = -1;
    if (!all || !sel || !proj) { failf(s, "out of memory"); goto out; }
    for (uint32_t p = 0; p < m; p++) { all[p].prim = p; all[p].tag = p; }
    p2g_config_t pc = draw_p2g(s, d);
    for (uint32_t g = 0; g < s->N; g++) {
        gpu_t *G = &s->gpu[g];
        struct gpu_timing *tm = G->tm;
        G->tm = NULL;       /* timed: the selection below is the functional step; the render pass is timed */
        gt_stamps(G, 0);
        int prc = project_on(s, g, d, all, m, proj);
        gt_stamps(G, 1);
        G->tm = tm;
        if (prc) goto out;
        size_t k = 0;
        for (uint32_t p = 0; p < m; p++)
            if (mask_of(&pc, &proj[p]) & (1ull << g)) sel[k++] = all[p];
        if (s->timed) {
            /* dup as the hardware runs it: geometry for every primitive, CLIP drops those whose P2G mask does not
             * name this GPU; the same primitives reach RAST in the same order as the selection (same pixels) */
            uint8_t *keep = calloc(m ? m : 1, 1);
            if (!keep) { failf(s, "out of memory"); goto out; }
            for (size_t i = 0; i < k; i++) keep[sel[i].tag] = 1;
            G->clip_keep = s->N > 1 ? keep : NULL;   /* one GPU owns everything: no filter (exactly single) */
            G->clip_keep_n = m;
            int rc2 = render_on(s, g, ci, all, m);
            G->clip_keep = NULL;
            free(keep);
            if (rc2) goto out;
            s->res->gpu[g].prims_to_render -= m - k;
        } else if (render_on(s, g, ci, sel, k)) goto out;
        if (s->cfg->check_masks) {
            k = 0;
            for (uint32_t p = 0; p < m; p++)
                if (!(mask_of(&pc, &proj[p]) & (1ull << g))) sel[k++] = all[p];
            if (probe_group(s, g, ci, sel, k, NULL)) goto out;
        }
    }
    s->res->batches++;
    rc = 0;
out:
    free(all);
    free(sel);
    free(proj);
    return rc;
}

static int draw_reads(const gpu_draw_t *d, int32_t sid)
{
    for (int t = 0; t < GPU_MAX_TEXTURES; t++)
        if (d->st.tex[t] == sid) return 1;
    return 0;
}

static int draw_writes(const gpu_draw_t *d, int32_t sid)
{
    for (int r = 0; r < GPU_MAX_RTS; r++)
        if (d->st.rt[r] == sid) return 1;
    return d->st.depth_rt == sid;
}

static int check_draw(sys_t *s, uint32_t ci)
{
    const sys_cmd_t *c = &s->scene->frames[s->frame].cmds[ci];
    const char *e = gpu_draw_check(&s->gpu[0], &c->draw);
    if (e) return failf(s, "frame %u draw %u (command %u): %s", s->frame, c->src_index, ci, e);
    return 0;
}

/* ---- chopin (sys/chopin.h, docs/golden-model.md) ---- */

typedef struct {
    sys_t *s;
    uint64_t bpp;               /* composition bytes per pixel (colour targets + depth) */
} chopin_merge_ctx_t;

static uint64_t chopin_merge_hook(void *user, uint32_t dst, uint32_t src, uint64_t t0, uint64_t t1)
{
    chopin_merge_ctx_t *m = user;
    uint64_t b = m->s->chopin_bytes[(size_t)src * m->s->N + dst];
    return gt_merge(&m->s->tm[dst], t0, t1, b / m->bpp, b);
}

/* Composition timing of one group: every GPU's sub-image is ready when its units drained; CHOPIN's composition
 * scheduler moves the bytes over the links; the receiver's ROPs merge; each GPU continues after its own part. */
static int chopin_timing(sys_t *s, uint64_t bpp)
{
    uint32_t N = s->N;
    uint64_t ready[64], end[64];
    for (uint32_t g = 0; g < N; g++) ready[g] = gt_drained(&s->tm[g]);
    chopin_xfer_t *x = malloc((size_t)N * N * sizeof *x);
    uint32_t nl = s->cfg->topo == NET_HUB ? 2 * N : 2 * (N - 1);
    uint64_t *busy = calloc(nl ? nl : 1, sizeof *busy);
    if (!x || !busy) { free(x); free(busy); return failf(s, "out of memory"); }
    chopin_merge_ctx_t mc = {s, bpp};
    chopin_comp_in_t in;
    memset(&in, 0, sizeof in);
    in.n_gpus = N;
    in.hub = s->cfg->topo == NET_HUB;
    in.lat = (uint64_t)s->net.latency * GT_TPC;
    in.link_mbpc = s->link_mbpc;
    in.hub_mbpc = s->hub_mbpc;
    in.tpc = GT_TPC;
    in.ready = ready;
    in.bytes = s->chopin_bytes;
    in.merge = chopin_merge_hook;
    in.user = &mc;
    size_t nx = 0;
    int rc = chopin_comp_schedule(&in, x, &nx, end, busy);
    if (rc) { free(x); free(busy); return failf(s, "chopin: composition schedule failed (internal error)"); }
    uint32_t nn = s->net.n_nodes;
    for (uint32_t i = 0; i < nl; i++) {
        int32_t l;
        if (in.hub) l = i % 2 == 0 ? s->net.out_link[(i / 2) * nn + N] : s->net.out_link[N * nn + i / 2];
        else l = i % 2 == 0 ? s->net.out_link[(i / 2) * nn + i / 2 + 1] : s->net.out_link[(i / 2 + 1) * nn + i / 2];
        if (l >= 0) s->link_sync_ticks[l] += busy[i];
    }
    for (uint32_t g = 0; g < N; g++) {
        uint64_t c = (end[g] - ready[g]) / GT_TPC;
        s->res->gpu[g].comp_cycles += c;
        s->res->gpu[g].cyc_sync += c;
        gt_barrier(&s->tm[g], end[g]);
    }
    free(x);
    free(busy);
    return 0;
}

/* One chopin group of draws [i0, i1) (same composition state, no synchronisation inside). */
static int run_group_chopin(sys_t *s, uint32_t i0, uint32_t i1)
{
    const sys_frame_t *fr = &s->scene->frames[s->frame];
    const gpu_draw_t *d0 = &fr->cmds[i0].draw;
    uint32_t N = s->N;
    chopin_class_t cls = chopin_draw_class(d0);
    uint64_t tris = 0;
    for (uint32_t i = i0; i < i1; i++) tris += chopin_draw_tris(&fr->cmds[i].draw);
    if (!chopin_group_composes(cls, tris, i1 - i0, N, s->cfg->chopin_min_tris)) {
        /* by reason: too small (whatever its state), else its state */
        s->res->comp_fallback[chopin_group_composes(CHOPIN_OPAQUE, tris, i1 - i0, N, s->cfg->chopin_min_tris) ? cls : CHOPIN_OPAQUE]++;
        for (uint32_t i = i0; i < i1; i++)
            if (run_draw_dup(s, i)) return -1;
        return 0;
    }
    s->res->comp_groups++;
    s->res->batches++;
    /* the surfaces the group writes: the depth buffer and the colour targets it writes */
    int32_t zs = d0->st.depth_rt, cs[GPU_MAX_RTS];
    int ncs = 0;
    if (gpu_fs_writes_color(d0))
        for (int r = 0; r < GPU_MAX_RTS; r++)
            if (d0->st.rt[r] >= 0 && (d0->st.color_mask[r] & 0xF)) cs[ncs++] = d0->st.rt[r];
    int32_t sv[1 + GPU_MAX_RTS];
    int nsv = 0;
    sv[nsv++] = zs;
    for (int k = 0; k < ncs; k++) {
        int dupl = 0;
        for (int j = 0; j < nsv; j++) dupl |= sv[j] == cs[k];
        if (!dupl) sv[nsv++] = cs[k];
    }
    uint32_t W, H;
    target_size(s->scene, d0, &W, &H);
    for (int k = 0; k < nsv; k++)
        if (s->scene->surf[sv[k]].w != W || s->scene->surf[sv[k]].h != H)
            return failf(s, "chopin: frame %u draw %u: targets of different sizes", s->frame, fr->cmds[i0].src_index);
    size_t np = (size_t)W * H;
    uint32_t ts = 1u << s->cfg->tile_log2, tpr = (W + ts - 1) / ts, tpc = (H + ts - 1) / ts;
    size_t nt = (size_t)tpr * tpc;
    uint32_t **saved = calloc((size_t)N * nsv, sizeof *saved);
    uint8_t **sdirty = calloc((size_t)N * nsv, sizeof *sdirty);
    uint32_t **stamp = calloc(N, sizeof *stamp);
    uint8_t *touched = calloc((size_t)N * nt, 1);     /* [g * nt + tile]: g wrote a pixel of the tile */
    uint32_t *sel = malloc((size_t)(i1 - i0) * sizeof *sel);
    uint32_t dep[64], stp[64];
    int rc = -1;
    if (!saved || !sdirty || !stamp || !touched || !sel) { failf(s, "out of memory"); goto out; }
    for (uint32_t g = 0; g < N; g++) {
        stamp[g] = calloc(np, sizeof **stamp);
        if (!stamp[g]) { failf(s, "out of memory"); goto out; }
        for (int k = 0; k < nsv; k++) {
            size_t idx = (size_t)g * nsv + k;
            saved[idx] = malloc(np * 4);
            sdirty[idx] = malloc(nt);
            if (!saved[idx] || !sdirty[idx]) { failf(s, "out of memory"); goto out; }
            memcpy(saved[idx], s->gpu[g].surf[sv[k]].data, np * 4);
            memcpy(sdirty[idx], s->gpu[g].dirty[sv[k]], nt);
        }
        /* the sub-image starts from the merge's identity depth (colour: overwritten wherever a fragment wins) */
        uint32_t id = chopin_depth_identity(d0->st.depth_func);
        uint32_t *z = s->gpu[g].surf[zs].data;
        for (size_t p = 0; p < np; p++) z[p] = id;
        gpu_surface_changed(&s->gpu[g], zs);
    }
    /* draw scheduler */
    {
        uint64_t load[64];
        memset(load, 0, sizeof load);
        for (uint32_t i = i0; i < i1; i++)
            sel[i - i0] = chopin_pick_gpu(load, N, &s->chopin_last, s->cfg->chopin_rr, chopin_draw_tris(&fr->cmds[i].draw));
    }
    /* each GPU renders its draws over the whole screen, in order, stamping the pixels they win */
    for (uint32_t g = 0; g < N; g++) s->gpu[g].n_gpus = 1;
    for (uint32_t i = i0; i < i1; i++) {
        uint32_t g = sel[i - i0];
        uint32_t m = chopin_draw_tris(&fr->cmds[i].draw);
        gpu_prim_req_t *all = malloc((size_t)(m ? m : 1) * sizeof *all);
        if (!all) { failf(s, "out of memory"); goto restore; }
        for (uint32_t p = 0; p < m; p++) { all[p].prim = p; all[p].tag = p; }
        s->gpu[g].wstamp = stamp[g];
        s->gpu[g].wstamp_w = W;
        s->gpu[g].wstamp_val = i + 1;
        int r2 = render_on(s, g, i, all, m);
        s->gpu[g].wstamp = NULL;
        free(all);
        s->res->gpu[g].comp_draws++;
        if (r2) goto restore;
    }
    rc = 0;
restore:
    for (uint32_t g = 0; g < N; g++) s->gpu[g].n_gpus = N;
    if (rc) goto out;
    rc = -1;
    /* compose: the owner of each pixel takes the winner among the sub-images and its own old contents; every
     * other GPU gets its old contents back (its copy outside its tiles is as stale as under every SFR scheme) */
    for (uint32_t g = 0; g < N; g++)
        for (int k = 0; k < nsv; k++) memcpy(s->gpu[g].dirty[sv[k]], sdirty[(size_t)g * nsv + k], nt);
    {
        uint64_t ties = 0;
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++) {
                size_t p = (size_t)y * W + x;
                uint32_t o = gpu_pixel_owner(&s->gpu[0], W, H, x, y);
                size_t tile = (size_t)(y / ts) * tpr + x / ts;
                for (uint32_t g = 0; g < N; g++) {
                    dep[g] = s->gpu[g].surf[zs].data[p];
                    stp[g] = stamp[g][p];
                    if (stp[g] && g != o) touched[(size_t)g * nt + tile] = 1;
                }
                int tie = 0;
                int w = chopin_merge_pick(d0->st.depth_func, N, dep, stp, saved[(size_t)o * nsv][p], &tie);
                int changed = 0;
                for (int k = 0; k < nsv; k++) {      /* sv: the depth buffer and the colour targets written */
                    uint32_t v = w < 0 ? saved[(size_t)o * nsv + k][p] : s->gpu[w].surf[sv[k]].data[p];
                    changed |= v != saved[(size_t)o * nsv + k][p];
                    s->gpu[o].surf[sv[k]].data[p] = v;
                }
                if (w >= 0 && tie) ties++;
                if (changed)
                    for (int k = 0; k < nsv; k++) s->gpu[o].dirty[sv[k]][tile] = 1;
                for (uint32_t g = 0; g < N; g++)
                    if (g != o)
                        for (int k = 0; k < nsv; k++) s->gpu[g].surf[sv[k]].data[p] = saved[(size_t)g * nsv + k][p];
            }
        s->res->comp_tie_pixels += ties;
        for (uint32_t g = 0; g < N; g++)
            for (int k = 0; k < nsv; k++) gpu_surface_changed(&s->gpu[g], sv[k]);
    }
    /* composition traffic: every sender sends each receiver the tiles of the receiver's region it wrote, colour
     * and depth (CHOPIN sends the ROP blocks it touched; our unit is the ownership tile) */
    {
        uint64_t bpp = 4u * (uint64_t)(1 + ncs);
        memset(s->chopin_bytes, 0, (size_t)N * N * sizeof *s->chopin_bytes);
        for (uint32_t t = 0; t < nt; t++) {
            uint32_t tx = t % tpr, ty = t / tpr;
            uint32_t x0 = tx * ts, y0 = ty * ts;
            uint32_t x1 = x0 + ts < W ? x0 + ts : W, y1 = y0 + ts < H ? y0 + ts : H;
            uint32_t o = gpu_pixel_owner(&s->gpu[0], W, H, x0, y0);
            uint64_t b = (uint64_t)(x1 - x0) * (y1 - y0) * bpp;
            for (uint32_t g = 0; g < N; g++)
                if (g != o && touched[(size_t)g * nt + t]) s->chopin_bytes[(size_t)g * N + o] += b;
        }
        for (uint32_t g = 0; g < N; g++)
            for (uint32_t o = 0; o < N; o++) {
                uint64_t b = s->chopin_bytes[(size_t)g * N + o];
                if (!b) continue;
                net_account_comp(&s->net, g, o, b);
                s->res->gpu[g].comp_bytes_sent += b;
                s->res->comp_bytes += b;
            }
        if (s->timed && chopin_timing(s, bpp)) goto out;
    }
    rc = 0;
out:
    if (saved)
        for (size_t k = 0; k < (size_t)N * nsv; k++) free(saved[k]);
    if (sdirty)
        for (size_t k = 0; k < (size_t)N * nsv; k++) free(sdirty[k]);
    if (stamp)
        for (uint32_t g = 0; g < N; g++) free(stamp[g]);
    free(saved);
    free(sdirty);
    free(stamp);
    free(touched);
    free(sel);
    return rc;
}

static int run_frame_sfr(sys_t *s)
{
    const sys_frame_t *fr = &s->scene->frames[s->frame];
    uint32_t i = 0;
    while (i < fr->n) {
        const sys_cmd_t *c = &fr->cmds[i];
        if (c->kind == SYS_CMD_CLEAR) {
            if (exec_clear(s, c, 0, s->N)) return -1;
            i++;
            continue;
        }
        if (c->kind == SYS_CMD_UPLOAD) {
            exec_upload(s, c, 0, s->N);
            i++;
            continue;
        }
        /* a draw: synchronise what it samples, then take the longest run of draws that needs no sync */
        if (check_draw(s, i)) return -1;
        for (int t = 0; t < GPU_MAX_TEXTURES; t++) {
            int32_t sid = c->draw.st.tex[t];
            if (sid >= 0 && s->N > 1 && surface_dirty(s, sid)) sync_surface(s, sid);
        }
        if (s->cfg->scheme == SYS_SCHEME_SINGLE) {
            uint32_t m = gpu_draw_prim_count(&c->draw);
            gpu_prim_req_t *all = malloc((size_t)(m ? m : 1) * sizeof *all);
            if (!all) return failf(s, "out of memory");
            for (uint32_t p = 0; p < m; p++) { all[p].prim = p; all[p].tag = p; }
            int rc = render_on(s, 0, i, all, m);
            free(all);
            if (rc) return -1;
            i++;
            continue;
        }
        if (s->cfg->scheme == SYS_SCHEME_DUP) {
            if (run_draw_dup(s, i)) return -1;
            i++;
            continue;
        }
        int chopin = s->cfg->scheme == SYS_SCHEME_CHOPIN;
        /* the segment: draws, clears and uploads up to the first draw with a read-after-write dependency on
         * what the segment renders (that one needs a synchronisation first); clears and uploads inside it are
         * batch boundaries, run on each GPU in command order between its batches (a CHOPIN group ends there) */
        uint32_t j = i + 1, end = i + 1;
        while (j < fr->n) {
            if (fr->cmds[j].kind != SYS_CMD_DRAW) {
                if (chopin) break;
                j++;
                continue;
            }
            const gpu_draw_t *dj = &fr->cmds[j].draw;
            int stop = 0;
            if (check_draw(s, j)) return -1;
            if (chopin && !chopin_same_state(&c->draw, dj)) break;     /* a new composition group */
            for (int t = 0; t < GPU_MAX_TEXTURES && !stop; t++) {
                int32_t sid = dj->st.tex[t];
                if (sid < 0) continue;
                if (s->N > 1 && surface_dirty(s, sid)) stop = 1;
                for (uint32_t k = i; k < j && !stop; k++)
                    if (fr->cmds[k].kind == SYS_CMD_DRAW && draw_writes(&fr->cmds[k].draw, sid)) stop = 1;
            }
            if (stop) break;
            j++;
            end = j;
        }
        if (chopin ? run_group_chopin(s, i, end) : run_segment_gpupd(s, i, end)) return -1;
        i = end;
    }
    return 0;
}

/* ---- AFR ---- */

static int frame_needs(const sys_t *s, const sys_frame_t *fr, int32_t sid)
{
    for (size_t i = 0; i < fr->n; i++) {
        const sys_cmd_t *c = &fr->cmds[i];
        if (c->kind == SYS_CMD_UPLOAD && c->surface == sid) return 0;
        if (c->kind == SYS_CMD_CLEAR && c->surface == sid) {
            if (is_full_clear(s, c)) return 0;
            return 1;
        }
        if (c->kind == SYS_CMD_DRAW && (draw_reads(&c->draw, sid) || draw_writes(&c->draw, sid))) return 1;
    }
    return 0;
}

static int run_frame_afr(sys_t *s)
{
    const sys_frame_t *fr = &s->scene->frames[s->frame];
    uint32_t g = s->frame % s->N;
    uint32_t allm = s->N >= 64 ? ~0u : ((1u << s->N) - 1);
    (void)allm;
    for (uint32_t sid = 0; sid < s->scene->n_surf; sid++) {
        if (s->valid[sid] & (1ull << g)) continue;
        if (!frame_needs(s, fr, (int32_t)sid)) continue;
        uint32_t h = 0;
        while (h < s->N && !(s->valid[sid] & (1ull << h))) h++;
        if (h == s->N) continue;
        const sys_surface_desc_t *sd = &s->scene->surf[sid];
        uint64_t bytes = (uint64_t)sd->w * sd->h * 4;
        memcpy(s->gpu[g].surf[sid].data, s->gpu[h].surf[sid].data, bytes);
        gpu_surface_changed(&s->gpu[g], (int32_t)sid);
        net_account_unicast(&s->net, h, g, bytes);
        if (s->timed) {     /* GPU g waits for the copy: bytes at the link bandwidth + latency per hop */
            uint32_t hops = s->cfg->topo == NET_HUB ? 2 : (h > g ? h - g : g - h);
            uint64_t t0 = gt_drained(&s->tm[g]);
            uint64_t t1 = t0 + xfer_ticks(bytes, s->link_mbpc) + (uint64_t)hops * s->net.latency * GT_TPC;
            s->res->gpu[g].cyc_sync += (t1 - t0) / GT_TPC;
            gt_barrier(&s->tm[g], t1);
        }
        s->res->gpu[h].sync_bytes_sent += bytes;
        s->res->sync_bytes += bytes;
        s->res->syncs++;
        s->valid[sid] |= 1ull << g;
    }
    for (uint32_t i = 0; i < fr->n; i++) {
        const sys_cmd_t *c = &fr->cmds[i];
        if (c->kind == SYS_CMD_CLEAR) {
            if (exec_clear(s, c, g, 1)) return -1;
            s->valid[c->surface] = 1ull << g;
        } else if (c->kind == SYS_CMD_UPLOAD) {
            exec_upload(s, c, 0, s->N);
            s->valid[c->surface] = s->N >= 64 ? ~0ull : ((1ull << s->N) - 1);
        } else {
            if (check_draw(s, i)) return -1;
            uint32_t m = gpu_draw_prim_count(&c->draw);
            gpu_prim_req_t *all = malloc((size_t)(m ? m : 1) * sizeof *all);
            if (!all) return failf(s, "out of memory");
            for (uint32_t p = 0; p < m; p++) { all[p].prim = p; all[p].tag = p; }
            int rc = render_on(s, g, i, all, m);
            free(all);
            if (rc) return -1;
            for (int r = 0; r < GPU_MAX_RTS; r++)
                if (c->draw.st.rt[r] >= 0) s->valid[c->draw.st.rt[r]] = 1ull << g;
            if (c->draw.st.depth_rt >= 0) s->valid[c->draw.st.depth_rt] = 1ull << g;
        }
    }
    s->res->gpu[g].frames_rendered++;
    return 0;
}

static int check_scene(sys_t *s)
{
    const sys_scene_t *sc = s->scene;
    if (sc->n_frames == 0) return failf(s, "scene has no frames");
    if (sc->display < 0 || (uint32_t)sc->display >= sc->n_surf || sc->surf[sc->display].fmt != GPU_FMT_RGBA8)
        return failf(s, "scene has no colour display surface");
    for (uint32_t f = 0; f < sc->n_frames; f++)
        for (size_t i = 0; i < sc->frames[f].n; i++) {
            const sys_cmd_t *c = &sc->frames[f].cmds[i];
            if ((c->kind == SYS_CMD_CLEAR || c->kind == SYS_CMD_UPLOAD) &&
                (c->surface < 0 || (uint32_t)c->surface >= sc->n_surf))
                return failf(s, "frame %u command %zu: surface %d does not exist", f, i, (int)c->surface);
            if (c->kind == SYS_CMD_UPLOAD && !c->data)
                return failf(s, "frame %u command %zu: upload without data", f, i);
        }
    return 0;
}

/* ---- timing of the produced frame ---- */

static int timed_run(const sys_config_t *cfg)
{
    /* fault injection and P2G taps are functional tools: those runs are not timed (--check-masks is: its
     * probes are functional only and cost no simulated time) */
    return cfg->timing && cfg->fault == PE_FAULT_NONE && !cfg->p2g_tap;
}

static int timing_begin(sys_t *s)
{
    const sys_config_t *cfg = s->cfg;
    char err[256];
    const char *e = gpu_tcfg_check(&cfg->tcfg);
    if (e) return failf(s, "timing configuration: %s", e);
    if (gpu_isa_library_load(&s->lib, err, sizeof err)) return failf(s, "timing: %s", err);
    s->tm = calloc(s->N, sizeof *s->tm);
    s->p2g = calloc(s->N, sizeof *s->p2g);
    s->link_sync_ticks = calloc(s->net.n_links ? s->net.n_links : 1, sizeof *s->link_sync_ticks);
    s->link_busy0 = calloc(s->net.n_links ? s->net.n_links : 1, sizeof *s->link_busy0);
    if (!s->tm || !s->p2g || !s->link_sync_ticks || !s->link_busy0) return failf(s, "out of memory");
    for (uint32_t g = 0; g < s->N; g++) {
        if (gpu_timing_init(&s->tm[g], &cfg->tcfg, &s->lib, cfg->timeline_log2) ||
            gpu_timing_attach(&s->gpu[g], &s->tm[g]))
            return failf(s, "out of memory");
        p2g_hw_params_t pp = {64, cfg->p2g_rows ? cfg->p2g_rows : 2, 16};
        p2g_hw_init(&s->p2g[g], pp);
    }
    for (uint32_t i = 0; i < s->net.n_links; i++) s->link_busy0[i] = s->net.links[i].busy_steps;
    s->res->hub_flits = s->net.hub_flits;               /* subtracted at the end: the timed frame's share */
    s->res->hub_busy_cycles = s->net.hub_busy_steps;
    if (net_idle(&s->net)) s->net.step = 0;      /* the timed frame starts at cycle 0 */
    s->timed = 1;
    s->res->timed = 1;
    return 0;
}

static void timing_end(sys_t *s)
{
    sys_result_t *r = s->res;
    uint64_t end = 0;
    for (uint32_t g = 0; g < s->N; g++) end = gt_max(end, gt_drained(&s->tm[g]));
    r->cycles = (end + GT_TPC - 1) / GT_TPC;
    r->hub_flits = s->net.hub_flits - r->hub_flits;
    r->hub_busy_cycles = s->net.hub_busy_steps - r->hub_busy_cycles;
    uint64_t last = 0;
    for (uint32_t g = 0; g < s->N; g++) {
        gpu_timing_t *T = &s->tm[g];
        sys_gpu_stats_t *G = &r->gpu[g];
        G->cyc_done = (gt_drained(T) + GT_TPC - 1) / GT_TPC;
        if (G->cyc_done > last || g == 0) {     /* the GPU that finishes last (the lowest id on a tie) */
            last = G->cyc_done;
            r->exchange_overhead = G->exchange_wait_ticks / GT_TPC;
        }
        G->cyc_stall = T->b_stall / GT_TPC;
        G->cyc_issue = T->b_issue / GT_TPC + G->p2g_prims / (s->cfg->tcfg.fe_rate ? s->cfg->tcfg.fe_rate : 1);
        uint64_t used = G->cyc_stall + G->cyc_issue + G->cyc_sync;
        if (used > r->cycles) {        /* rounding: keep the stack equal to the frame */
            uint64_t over = used - r->cycles;
            G->cyc_stall -= over < G->cyc_stall ? over : G->cyc_stall;
            used = G->cyc_stall + G->cyc_issue + G->cyc_sync;
        }
        G->cyc_no_primitive = r->cycles > used ? r->cycles - used : 0;
        for (int u = 0; u < GT_NUNITS; u++) G->unit_ticks[u] = T->busy[u];
        G->mem_bytes = T->mem_bytes;
        G->row_hits = T->row_hits;
        G->row_misses = T->row_misses;
        G->vs_warps = T->vs_warps;
        G->fs_warps = T->fs_warps;
        G->vs_instrs = T->vs_instrs;
        G->fs_instrs = T->fs_instrs;
        G->shader_profiles = T->profiles;
        if (T->tl_n) {
            size_t nw = (size_t)((r->cycles >> T->tl_log2) + 1);
            if (nw > T->tl_n) nw = T->tl_n;
            G->timeline = malloc(nw * GT_NUNITS * sizeof *G->timeline);
            if (G->timeline) {
                memcpy(G->timeline, T->tl, nw * GT_NUNITS * sizeof *G->timeline);
                G->timeline_n = nw;
            }
        }
        gpu_timing_attach(&s->gpu[g], NULL);
    }
    s->timed = 0;
}

int sys_run(const sys_scene_t *scene, const sys_config_t *cfg, sys_result_t *res)
{
    memset(res, 0, sizeof *res);
    sys_t S;
    memset(&S, 0, sizeof S);
    S.scene = scene;
    S.cfg = cfg;
    S.res = res;
    if ((unsigned)cfg->scheme >= SYS_SCHEME_COUNT) return failf(&S, "unknown scheme");
    if (cfg->n_gpus < 1 || cfg->n_gpus > 64) return failf(&S, "--gpus must be 1..64 (got %u)", cfg->n_gpus);
    if (cfg->tile_log2 < 1 || cfg->tile_log2 > 14) return failf(&S, "tile size must be 2^1..2^14 pixels");
    if (cfg->batch < 1) return failf(&S, "--batch must be >= 1");
    if (cfg->link_latency < 1) return failf(&S, "link latency must be >= 1 step");
    if (cfg->send_rate < 1) return failf(&S, "send rate must be >= 1");
    if (cfg->scheme == SYS_SCHEME_CHOPIN && cfg->n_gpus < 2)
        return failf(&S, "scheme chopin composes the sub-images of 2 or more GPUs: --gpus must be 2..64 (got %u)", cfg->n_gpus);
    if (cfg->scheme == SYS_SCHEME_CHOPIN && cfg->chopin_min_tris < 1)
        return failf(&S, "scheme chopin: the group threshold (--chopin-min-tris) must be >= 1 triangle (got 0)");
    if (check_scene(&S)) return -1;
    if (cfg->frame >= scene->n_frames)
        return failf(&S, "--frame %u: the scene has %u frame(s)", cfg->frame, scene->n_frames);
    S.N = cfg->scheme == SYS_SCHEME_SINGLE ? 1 : cfg->n_gpus;
    S.gpu = calloc(S.N, sizeof *S.gpu);
    S.valid = calloc(scene->n_surf ? scene->n_surf : 1, sizeof *S.valid);
    uint8_t *written = calloc(scene->n_surf ? scene->n_surf : 1, 1);
    uint32_t **zero = calloc(scene->n_surf ? scene->n_surf : 1, sizeof *zero);
    int rc = -1;
    S.chopin_bytes = calloc((size_t)S.N * S.N, sizeof *S.chopin_bytes);
    if (!S.gpu || !S.valid || !written || !zero || !S.chopin_bytes) { failf(&S, "out of memory"); goto out; }
    /* surfaces never written in frames 0..frame are shared read-only between the GPUs (not copied) */
    for (uint32_t f = 0; f <= cfg->frame; f++)
        for (size_t i = 0; i < scene->frames[f].n; i++) {
            const sys_cmd_t *c = &scene->frames[f].cmds[i];
            if (c->kind != SYS_CMD_DRAW) { written[c->surface] = 1; continue; }
            for (int r = 0; r < GPU_MAX_RTS; r++)
                if (c->draw.st.rt[r] >= 0 && (uint32_t)c->draw.st.rt[r] < scene->n_surf) written[c->draw.st.rt[r]] = 1;
            if (c->draw.st.depth_rt >= 0 && (uint32_t)c->draw.st.depth_rt < scene->n_surf) written[c->draw.st.depth_rt] = 1;
        }
    if ((uint32_t)scene->display < scene->n_surf) written[scene->display] = 1;
    {
        /* resource bound: every GPU holds its own copy of each written surface */
        uint64_t per_gpu = 0, shared = 0, lim = (uint64_t)(cfg->mem_limit_mb ? cfg->mem_limit_mb : SYS_MEM_LIMIT_MB_DEFAULT) << 20;
        for (uint32_t i = 0; i < scene->n_surf; i++)
            *(written[i] ? &per_gpu : &shared) += (uint64_t)scene->surf[i].w * scene->surf[i].h * 4u;
        uint64_t total = per_gpu * S.N + shared;
        if (total > lim) {
            failf(&S, "the frame needs %" PRIu64 " MiB of surfaces (%u GPU(s) x %" PRIu64 " MiB + %" PRIu64 " MiB shared), "
                      "above the limit of %" PRIu64 " MiB (gpupd-sim --mem-limit-mb raises it)",
                  (total + (1u << 20) - 1) >> 20, S.N, (per_gpu + (1u << 20) - 1) >> 20, (shared + (1u << 20) - 1) >> 20, lim >> 20);
            goto out;
        }
    }
    for (uint32_t i = 0; i < scene->n_surf; i++)
        if (!written[i] && !scene->surf[i].init) {
            zero[i] = calloc((size_t)scene->surf[i].w * scene->surf[i].h, 4);
            if (!zero[i]) { failf(&S, "out of memory"); goto out; }
        }
    for (uint32_t g = 0; g < S.N; g++) {
        int own_n = sfr(&S) ? (int)S.N : 1;
        if (gpu_init(&S.gpu[g], sfr(&S) ? g : 0, (uint32_t)own_n, cfg->own_mode, cfg->tile_log2) != 0) {
            failf(&S, "cannot create GPU %u", g);
            goto out;
        }
        if (cfg->isa && gpu_isa_attach(&S.gpu[g]) != 0) {
            failf(&S, "cannot create the shader interpreter of GPU %u", g);
            goto out;
        }
        for (uint32_t i = 0; i < scene->n_surf; i++)
            if ((written[i] ? gpu_add_surface(&S.gpu[g], scene->surf[i].w, scene->surf[i].h, scene->surf[i].fmt, scene->surf[i].init)
                            : gpu_add_surface_shared(&S.gpu[g], scene->surf[i].w, scene->surf[i].h, scene->surf[i].fmt,
                                                     scene->surf[i].init ? scene->surf[i].init : zero[i])) < 0) {
                failf(&S, "surface %u: bad size %ux%u or out of memory", i, scene->surf[i].w, scene->surf[i].h);
                goto out;
            }
    }
    for (uint32_t i = 0; i < scene->n_surf; i++) S.valid[i] = S.N >= 64 ? ~0ull : ((1ull << S.N) - 1);
    if (net_init(&S.net, cfg->topo, S.N, cfg->link_latency, NULL, NULL) != 0) { failf(&S, "cannot create the network"); goto out; }
    S.net.hub_rate = cfg->hub_rate ? cfg->hub_rate : 2;
    if (timed_run(cfg)) {
        if (!(cfg->link_latency_ns >= 1.0 && cfg->link_latency_ns <= 1e7) || !(cfg->link_gbps > 0.0 && cfg->link_gbps <= 1e6) ||
            !(cfg->hub_gbps > 0.0 && cfg->hub_gbps <= 1e6)) {
            failf(&S, "link latency must be 1..1e7 ns, link and hub bandwidth > 0 GB/s");
            goto out;
        }
        /* 1 GHz: 1 ns = 1 cycle, 1 GB/s = 1 byte/cycle = 1000 milli-bytes/cycle */
        S.link_mbpc = (uint64_t)llround(cfg->link_gbps * 1000.0);
        S.hub_mbpc = (uint64_t)llround(cfg->hub_gbps * 1000.0);
        if (S.link_mbpc == 0) S.link_mbpc = 1;
        if (S.hub_mbpc == 0) S.hub_mbpc = 1;
        net_set_timing(&S.net, (uint32_t)llround(cfg->link_latency_ns), S.link_mbpc, S.hub_mbpc);
    }
    const sys_frame_t *last = &scene->frames[cfg->frame];
    res->n_draws_frame = (uint32_t)last->n;
    res->draw_pixels = calloc(last->n ? last->n : 1, sizeof *res->draw_pixels);
    res->draw_ref_pixels = calloc(last->n ? last->n : 1, sizeof *res->draw_ref_pixels);
    if (!res->draw_pixels || !res->draw_ref_pixels) { failf(&S, "out of memory"); goto out; }
    for (size_t i = 0; i < last->n; i++) res->draw_ref_pixels[i] = last->cmds[i].kind == SYS_CMD_DRAW ? last->cmds[i].ref_pixels : -1;
    for (uint32_t f = 0; f <= cfg->frame; f++) {
        S.frame = f;
        S.last_frame = f == cfg->frame;
        if (S.last_frame && timed_run(cfg) && timing_begin(&S)) goto out;
        for (size_t i = 0; i < scene->frames[f].n; i++)
            if (scene->frames[f].cmds[i].kind == SYS_CMD_DRAW) {
                res->draws++;
                res->prims_app += gpu_draw_prim_count(&scene->frames[f].cmds[i].draw);
            }
        if (cfg->scheme == SYS_SCHEME_AFR) {
            if (run_frame_afr(&S)) goto out;
        } else {
            if (run_frame_sfr(&S)) goto out;
        }
    }
    /* compose the displayed surface */
    {
        const sys_surface_desc_t *sd = &scene->surf[scene->display];
        res->w = sd->w;
        res->h = sd->h;
        res->pixels = malloc((size_t)sd->w * sd->h * 4);
        if (!res->pixels) { failf(&S, "out of memory"); goto out; }
        if (sfr(&S) && S.N > 1) {
            for (uint32_t y = 0; y < sd->h; y++)
                for (uint32_t x = 0; x < sd->w; x++) {
                    uint32_t o = gpu_pixel_owner(&S.gpu[0], sd->w, sd->h, x, y);
                    res->pixels[(size_t)y * sd->w + x] = S.gpu[o].surf[scene->display].data[(size_t)y * sd->w + x];
                }
        } else {
            uint32_t g = cfg->scheme == SYS_SCHEME_AFR ? cfg->frame % S.N : 0;
            memcpy(res->pixels, S.gpu[g].surf[scene->display].data, (size_t)sd->w * sd->h * 4);
        }
    }
    for (uint32_t g = 0; g < S.N; g++) res->gpu[g].render = S.gpu[g].stats;
    if (S.timed) timing_end(&S);
    res->n_links = S.net.n_links;
    res->links = calloc(S.net.n_links ? S.net.n_links : 1, sizeof *res->links);
    if (!res->links) { failf(&S, "out of memory"); goto out; }
    for (uint32_t i = 0; i < S.net.n_links; i++) {
        res->links[i].from = S.net.links[i].from;
        res->links[i].to = S.net.links[i].to;
        res->links[i].prim_flits = S.net.links[i].flits_prim;
        res->links[i].last_flits = S.net.links[i].flits_last;
        res->links[i].sync_bytes = S.net.links[i].sync_bytes;
        res->links[i].comp_bytes = S.net.links[i].comp_bytes;
        if (S.link_busy0)
            res->links[i].busy_cycles = S.net.links[i].busy_steps - S.link_busy0[i] + S.link_sync_ticks[i] / GT_TPC;
    }
    rc = 0;
out:
    if (S.gpu)
        for (uint32_t g = 0; g < S.N; g++) {
            gpu_isa_detach(&S.gpu[g]);
            gpu_free(&S.gpu[g]);
        }
    if (S.tm)
        for (uint32_t g = 0; g < S.N; g++) gpu_timing_free(&S.tm[g]);
    free(S.tm);
    free(S.p2g);
    free(S.link_sync_ticks);
    free(S.link_busy0);
    free(S.chopin_bytes);
    gpu_isa_library_free(&S.lib);
    free(S.gpu);
    free(S.valid);
    if (zero)
        for (uint32_t i = 0; i < scene->n_surf; i++) free(zero[i]);
    free(zero);
    free(written);
    net_free(&S.net);
    return rc;
}

void sys_result_free(sys_result_t *res)
{
    free(res->pixels);
    free(res->links);
    free(res->draw_pixels);
    free(res->draw_ref_pixels);
    for (int g = 0; g < 64; g++) {
        free(res->gpu[g].timeline);
        res->gpu[g].timeline = NULL;
    }
    res->pixels = NULL;
    res->links = NULL;
    res->draw_pixels = NULL;
    res->draw_ref_pixels = NULL;
}

static void json_gpu_stats(FILE *f, const char *name, const gpu_stats_t *s)
{
    fprintf(f, "\"%s\": {\"prims_in\": %" PRIu64 ", \"vs_invocations\": %" PRIu64 ", \"vs_cache_hits\": %" PRIu64
               ", \"prims_culled\": %" PRIu64
               ", \"tris_setup\": %" PRIu64 ", \"prims_rasterized\": %" PRIu64 ", \"quads\": %" PRIu64
               ", \"fragments\": %" PRIu64 ", \"helpers\": %" PRIu64 ", \"ez_killed\": %" PRIu64
               ", \"fs_fragments\": %" PRIu64 ", \"discarded\": %" PRIu64 ", \"z_killed\": %" PRIu64
               ", \"pixels_written\": %" PRIu64 "}",
            name, s->prims_in, s->vs_invocations, s->vs_cache_hits, s->prims_culled, s->tris_setup, s->prims_rasterized, s->quads,
            s->fragments, s->helpers, s->ez_killed, s->fs_fragments, s->discarded, s->z_killed, s->pixels_written);
}

int sys_write_stats_json(const sys_result_t *res, const sys_config_t *cfg, const char *trace_name, const char *path)
{
    outf_t of;
    char oerr[512];
    if (outf_open(&of, path, 0, oerr, sizeof oerr)) return -1;
    FILE *f = of.f;
    uint32_t N = cfg->scheme == SYS_SCHEME_SINGLE ? 1 : cfg->n_gpus;
    fprintf(f, "{\n  \"trace\": \"%s\",\n  \"scheme\": \"%s\",\n  \"gpus\": %u,\n  \"topology\": \"%s\",\n"
               "  \"batch\": %u,\n  \"frame\": %u,\n  \"width\": %u,\n  \"height\": %u,\n"
               "  \"frame_hash\": \"%016" PRIx64 "\",\n  \"draws\": %" PRIu64 ",\n  \"prims_app\": %" PRIu64 ",\n"
               "  \"batches\": %" PRIu64 ",\n  \"segments\": %" PRIu64 ",\n  \"syncs\": %" PRIu64 ",\n"
               "  \"sync_bytes\": %" PRIu64 ",\n  \"exchange_steps\": %" PRIu64 ",\n  \"mask_checks\": %" PRIu64 ",\n",
            trace_name ? trace_name : "", sys_scheme_name(cfg->scheme), N, net_topo_name(cfg->topo), cfg->batch,
            cfg->frame, res->w, res->h, sys_frame_hash(res->pixels, (size_t)res->w * res->h), res->draws,
            res->prims_app, res->batches, res->segments, res->syncs, res->sync_bytes, res->exchange_steps, res->mask_checks);
    /* The keys of chopin (traffic by kind, composition per GPU and link, the "chopin" object) are written for
     * chopin runs only: the JSON of every other scheme stays byte for byte what it was (tests/results). */
    int chop = cfg->scheme == SYS_SCHEME_CHOPIN;
    if (chop) {
        /* traffic by kind over every link traversal (bytes): PRIM and LAST packets, framebuffer synchronisation,
         * chopin's sub-image composition */
        uint64_t tp = 0, tl = 0, tsy = 0, tc = 0;
        for (uint32_t i = 0; i < res->n_links; i++) {
            tp += res->links[i].prim_flits * 8;
            tl += res->links[i].last_flits * 8;
            tsy += res->links[i].sync_bytes;
            tc += res->links[i].comp_bytes;
        }
        fprintf(f, "  \"traffic\": {\"prim\": %" PRIu64 ", \"last\": %" PRIu64 ", \"sync\": %" PRIu64 ", \"composition\": %" PRIu64
                   "},\n", tp, tl, tsy, tc);
    }
    if (chop)
        fprintf(f, "  \"chopin\": {\"min_tris\": %u, \"scheduler\": \"%s\", \"groups_composed\": %" PRIu64
                   ", \"groups_dup_small\": %" PRIu64 ", \"groups_dup_blend_depth\": %" PRIu64 ", \"groups_dup_blend\": %" PRIu64
                   ", \"groups_dup_state\": %" PRIu64 ", \"composition_bytes\": %" PRIu64 ", \"tie_pixels\": %" PRIu64 "},\n",
                cfg->chopin_min_tris, cfg->chopin_rr ? "round-robin" : "least-triangles", res->comp_groups,
                res->comp_fallback[CHOPIN_OPAQUE], res->comp_fallback[CHOPIN_DUP_BLEND_DEPTH], res->comp_fallback[CHOPIN_DUP_BLEND],
                res->comp_fallback[CHOPIN_DUP_STATE], res->comp_bytes, res->comp_tie_pixels);
    if (res->timed) {
        fprintf(f, "  \"timed\": true,\n  \"cycles\": %" PRIu64 ",\n  \"exchange_overhead_cycles\": %" PRIu64 ",\n  \"timing\": {\"clock_ghz\": 1, \"link_latency_ns\": %g"
                   ", \"link_gbps\": %g, \"hub_gbps\": %g, \"p2g_rows\": %u, \"pe\": \"%s\", \"skip_idle\": %s, \"exchange_cycles_stepped\": %" PRIu64
                   ", \"p2g_cycles_stepped\": %" PRIu64 ", \"timeline_window_cycles\": %u,\n    \"params\": {",
                res->cycles, res->exchange_overhead, cfg->link_latency_ns, cfg->link_gbps, cfg->hub_gbps, cfg->p2g_rows ? cfg->p2g_rows : 2,
                cfg->pe_golden ? "golden" : "rtl",
                cfg->no_skip ? "false" : "true", res->exchange_stepped, res->p2g_cycles_stepped,
                cfg->timeline_log2 ? 1u << cfg->timeline_log2 : 0u);
        size_t np;
        const gt_param_t *pt = gt_params(&np);
        for (size_t i = 0; i < np; i++) fprintf(f, "%s\"%s\": %g", i ? ", " : "", pt[i].name, gpu_tcfg_get(&cfg->tcfg, &pt[i]));
        fprintf(f, "}},\n");
        if (cfg->topo == NET_HUB && N > 1)
            fprintf(f, "  \"hub\": {\"flits\": %" PRIu64 ", \"busy_cycles\": %" PRIu64 ", \"utilisation\": %.4f},\n",
                    res->hub_flits, res->hub_busy_cycles, res->cycles && cfg->hub_gbps > 0 ?
                    (double)res->hub_flits * 8.0 / (cfg->hub_gbps * (double)res->cycles) : 0.0);
    } else {
        fprintf(f, "  \"timed\": false,\n  \"cycles\": null,\n  \"exchange_overhead_cycles\": null,\n");
    }
    fprintf(f, "  \"per_gpu\": [\n");
    for (uint32_t g = 0; g < N; g++) {
        const sys_gpu_stats_t *s = &res->gpu[g];
        fprintf(f, "    {\"gpu\": %u, \"prims_projected\": %" PRIu64 ", \"prims_received\": %" PRIu64
                   ", \"prims_kept\": %" PRIu64 ", \"prims_to_render\": %" PRIu64 ", \"prims_rasterized\": %" PRIu64
                   ", \"prims_sent\": %" PRIu64 ", \"fragments\": %" PRIu64 ", \"sync_bytes_sent\": %" PRIu64
                   ", \"frames_rendered\": %" PRIu64 ",\n      ",
                g, s->prims_projected, s->prims_received, s->prims_kept, s->prims_to_render, s->render.prims_rasterized,
                s->prims_sent, s->render.fragments, s->sync_bytes_sent, s->frames_rendered);
        if (chop)
            fprintf(f, "\"composition_draws\": %" PRIu64 ", \"composition_bytes_sent\": %" PRIu64 ", ", s->comp_draws, s->comp_bytes_sent);
        if (chop && res->timed) fprintf(f, "\"composition_cycles\": %" PRIu64 ", ", s->comp_cycles);
        else if (chop) fprintf(f, "\"composition_cycles\": null, ");
        if (res->timed) {
            fprintf(f, "\"cycles_done\": %" PRIu64 ", \"exchange_wait_cycles\": %" PRIu64 ", \"cycle_stack\": {\"no_primitive\": %" PRIu64 ", \"stall\": %" PRIu64
                       ", \"sync\": %" PRIu64 ", \"issue\": %" PRIu64 "},\n      \"utilisation\": {",
                    s->cyc_done, s->exchange_wait_ticks / GT_TPC, s->cyc_no_primitive, s->cyc_stall, s->cyc_sync, s->cyc_issue);
            double tot = (double)res->cycles * GT_TPC;
            for (int u = 0; u < GT_NUNITS; u++) {
                double div = tot * (u == GT_SHADER ? cfg->tcfg.cores : u == GT_P2G && cfg->tcfg.fe_rate ? cfg->tcfg.fe_rate : 1);
                fprintf(f, "%s\"%s\": %.4f", u ? ", " : "", gt_unit_name(u), div > 0 ? (double)s->unit_ticks[u] / div : 0.0);
            }
            fprintf(f, "},\n      \"mem_bytes\": %" PRIu64 ", \"row_hits\": %" PRIu64 ", \"row_misses\": %" PRIu64
                       ", \"vs_warps\": %" PRIu64 ", \"fs_warps\": %" PRIu64 ", \"vs_instrs_per_warp\": %.2f"
                       ", \"fs_instrs_per_warp\": %.2f, \"p2g_prims\": %" PRIu64 ", \"shader_profiles\": %" PRIu64 ",\n      ",
                    s->mem_bytes, s->row_hits, s->row_misses, s->vs_warps, s->fs_warps,
                    s->vs_warps ? (double)s->vs_instrs / (double)s->vs_warps : 0.0,
                    s->fs_warps ? (double)s->fs_instrs / (double)s->fs_warps : 0.0, s->p2g_prims, s->shader_profiles);
        } else {
            fprintf(f, "\"cycles_done\": null, \"exchange_wait_cycles\": null, \"cycle_stack\": {\"no_primitive\": null, \"stall\": null, \"sync\": null"
                       ", \"issue\": null},\n      ");
        }
        fprintf(f, "\"prims_received_from\": [");
        for (uint32_t j = 0; j < N; j++) fprintf(f, "%s%" PRIu64, j ? ", " : "", s->prims_received_from[j]);
        fprintf(f, "],\n      ");
        json_gpu_stats(f, "render", &s->render);
        fprintf(f, ",\n      ");
        json_gpu_stats(f, "project", &s->project);
        fprintf(f, "}%s\n", g + 1 < N ? "," : "");
    }
    fprintf(f, "  ],\n  \"links\": [\n");
    for (uint32_t i = 0; i < res->n_links; i++) {
        const sys_link_stats_t *l = &res->links[i];
        uint64_t flits = l->prim_flits + l->last_flits;
        fprintf(f, "    {\"from\": \"%s%u\", \"to\": \"%s%u\", \"prim_packets\": %" PRIu64 ", \"last_packets\": %" PRIu64
                   ", \"packet_bytes\": %" PRIu64 ", \"prim_bytes\": %" PRIu64 ", \"last_bytes\": %" PRIu64
                   ", \"sync_bytes\": %" PRIu64,
                l->from == N && cfg->topo == NET_HUB ? "hub" : "gpu", l->from == N && cfg->topo == NET_HUB ? 0 : l->from,
                l->to == N && cfg->topo == NET_HUB ? "hub" : "gpu", l->to == N && cfg->topo == NET_HUB ? 0 : l->to,
                l->prim_flits, l->last_flits, flits * 8, l->prim_flits * 8, l->last_flits * 8, l->sync_bytes);
        if (chop) fprintf(f, ", \"composition_bytes\": %" PRIu64, l->comp_bytes);
        fprintf(f, ", \"bytes\": %" PRIu64, flits * 8 + l->sync_bytes + l->comp_bytes);
        if (res->timed)
            fprintf(f, ", \"busy_cycles\": %" PRIu64 ", \"utilisation\": %.4f", l->busy_cycles,
                    res->cycles ? (double)l->busy_cycles / (double)res->cycles : 0.0);
        fprintf(f, "}%s\n", i + 1 < res->n_links ? "," : "");
    }
    fprintf(f, "  ],\n  \"draw_pixels\": [");
    for (uint32_t i = 0; i < res->n_draws_frame; i++)
        fprintf(f, "%s[%" PRIu64 ", %" PRId64 "]", i ? ", " : "", res->draw_pixels[i], res->draw_ref_pixels[i]);
    fprintf(f, "]\n}\n");
    return outf_commit(&of, oerr, sizeof oerr);
}
