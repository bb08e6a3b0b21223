/* The N-GPU system run (sys_run): checks, GPU and network set-up, the frame loop (SFR segments are handed
 * to the schemes), the timed frame's begin and end, and the helpers every scheme uses (render, project,
 * group by draw, mask probes). Schemes: scheme_*.c; synchronisation: sys_sync.c; scene: sys_scene.c. */
#include "sys/sys_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sys_failf(sys_t *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    par_lock(s->par);       /* a GPU's task may fail on a thread */
    vsnprintf(s->res->err, sizeof s->res->err, fmt, ap);
    par_unlock(s->par);
    va_end(ap);
    return -1;
}

int sys_sfr(const sys_t *s)
{
    return s->cfg->scheme == SYS_SCHEME_DUP || s->cfg->scheme == SYS_SCHEME_GPUPD ||
           s->cfg->scheme == SYS_SCHEME_GPUPD_BATCH || s->cfg->scheme == SYS_SCHEME_GPUPD_RA ||
           s->cfg->scheme == SYS_SCHEME_CHOPIN || s->cfg->scheme == SYS_SCHEME_GPUPD_STREAM;
}

void sys_target_size(const sys_scene_t *sc, const gpu_draw_t *d, uint32_t *w, uint32_t *h)
{
    for (int i = 0; i < GPU_MAX_RTS; i++)
        if (d->st.rt[i] >= 0) { *w = sc->surf[d->st.rt[i]].w; *h = sc->surf[d->st.rt[i]].h; return; }
    *w = sc->surf[d->st.depth_rt].w;
    *h = sc->surf[d->st.depth_rt].h;
}

/* P2G configuration of a draw: its target size, viewport ∩ scissor as the scissor rectangle */
p2g_config_t sys_draw_p2g(const sys_t *s, const gpu_draw_t *d)
{
    uint32_t w, h;
    sys_target_size(s->scene, d, &w, &h);
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

uint64_t sys_mask_of(const p2g_config_t *c, const gpu_projected_t *p)
{
    if (c->sc_x0 > c->sc_x1 || c->sc_y0 > c->sc_y1) return 0;
    return p2g_mask(c, &p->p2g);
}

/* render `n` primitives (indices in the draw) of command ci on GPU g, counting its pixels */
int sys_render_on(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n)
{
    const sys_cmd_t *c = &s->scene->frames[s->frame].cmds[ci];
    gpu_t *G = &s->gpu[g];
    uint64_t before = G->stats.pixels_written;
    if (gpu_render(G, &c->draw, list, n) != 0)
        return sys_failf(s, "frame %u draw %u (command %u) on GPU %u: %s", s->frame, c->src_index, ci, g, G->err);
    if (s->last_frame) par_add(s->par, &s->res->draw_pixels[ci], G->stats.pixels_written - before);
    s->res->gpu[g].prims_to_render += n;
    return 0;
}

int sys_project_on(sys_t *s, uint32_t g, const gpu_draw_t *d, const gpu_prim_req_t *list, size_t n,
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
    if (rc) return sys_failf(s, "frame %u: projection on GPU %u: %s", s->frame, g, G->err);
    return 0;
}

/* the clears and uploads among commands [lo, hi) of the frame, on GPU g, in command order */
int sys_exec_between(sys_t *s, uint32_t g, uint32_t lo, uint32_t hi)
{
    const sys_frame_t *fr = &s->scene->frames[s->frame];
    for (uint32_t ci = lo; ci < hi; ci++) {
        const sys_cmd_t *c = &fr->cmds[ci];
        if (c->kind == SYS_CMD_CLEAR && sys_exec_clear(s, c, g, 1)) return -1;
        if (c->kind == SYS_CMD_UPLOAD) sys_exec_upload(s, c, g, 1);
    }
    return 0;
}

int sys_for_groups(sys_t *s, uint32_t g, const batch_t *b, const uint32_t *ids, size_t n, gpu_prim_req_t *tmp,
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
        if (k == 0) return sys_failf(s, "GPU %u: primitive list out of order at id %u (internal error)", g, ids[i]);
        if (fn(s, g, b->cmd[d], tmp, k, u)) return -1;
    }
    return 0;
}

int sys_render_group(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u)
{
    (void)u;
    return sys_render_on(s, g, ci, list, n);
}

/* --check-masks: a primitive left out of GPU g's list must not cover any pixel of g's tiles */
int sys_probe_group(sys_t *s, uint32_t g, uint32_t ci, const gpu_prim_req_t *list, size_t n, void *u)
{
    (void)u;
    const sys_cmd_t *c = &s->scene->frames[s->frame].cmds[ci];
    uint64_t hits = 0;
    uint32_t first = 0;
    if (gpu_probe(&s->gpu[g], &c->draw, list, n, &hits, &first) != 0)
        return sys_failf(s, "frame %u draw %u: probe on GPU %u: %s", s->frame, c->src_index, g, s->gpu[g].err);
    par_add(s->par, &s->res->mask_checks, n);
    if (hits)
        return sys_failf(s, "P2G mask check failed: frame %u draw %u (command %u) primitive %u covers %llu pixel(s) in the "
                        "tiles of GPU %u, but its mask leaves GPU %u out (scheme %s, %u GPUs)",
                     s->frame, c->src_index, ci, first, (unsigned long long)hits, g, g, sys_scheme_name(s->cfg->scheme), s->N);
    return 0;
}

int sys_draw_reads(const gpu_draw_t *d, int32_t sid)
{
    for (int t = 0; t < GPU_MAX_TEXTURES; t++)
        if (d->st.tex[t] == sid) return 1;
    return 0;
}

int sys_draw_writes(const gpu_draw_t *d, int32_t sid)
{
    for (int r = 0; r < GPU_MAX_RTS; r++)
        if (d->st.rt[r] == sid) return 1;
    return d->st.depth_rt == sid;
}

int sys_check_draw(sys_t *s, uint32_t ci)
{
    const sys_cmd_t *c = &s->scene->frames[s->frame].cmds[ci];
    const char *e = gpu_draw_check(&s->gpu[0], &c->draw);
    if (e) return sys_failf(s, "frame %u draw %u (command %u): %s", s->frame, c->src_index, ci, e);
    return 0;
}

static int run_frame_sfr(sys_t *s)
{
    if (s->cfg->scheme == SYS_SCHEME_CHOPIN) {
        /* CHOPIN's schedule table is never reset, but by the end of a frame every GPU has processed all it was
         * given: a frame starts from zero (and an untimed warm-up frame leaves nothing behind) */
        chopin_sched_free(&s->chopin_sched);
        chopin_sched_init(&s->chopin_sched, s->N);
    }
    const sys_frame_t *fr = &s->scene->frames[s->frame];
    uint32_t i = 0;
    while (i < fr->n) {
        const sys_cmd_t *c = &fr->cmds[i];
        if (c->kind == SYS_CMD_CLEAR) {
            if (sys_exec_clear(s, c, 0, s->N)) return -1;
            i++;
            continue;
        }
        if (c->kind == SYS_CMD_UPLOAD) {
            sys_exec_upload(s, c, 0, s->N);
            i++;
            continue;
        }
        /* a draw: synchronise what it samples, then take the longest run of draws that needs no sync */
        if (sys_check_draw(s, i)) return -1;
        for (int t = 0; t < GPU_MAX_TEXTURES; t++) {
            int32_t sid = c->draw.st.tex[t];
            if (sid >= 0 && s->N > 1 && sys_surface_dirty(s, sid)) sys_sync_surface(s, sid);
        }
        if (s->cfg->scheme == SYS_SCHEME_SINGLE) {
            uint32_t m = gpu_draw_prim_count(&c->draw);
            gpu_prim_req_t *all = malloc((size_t)(m ? m : 1) * sizeof *all);
            if (!all) return sys_failf(s, "out of memory");
            for (uint32_t p = 0; p < m; p++) { all[p].prim = p; all[p].tag = p; }
            int rc = sys_render_on(s, 0, i, all, m);
            free(all);
            if (rc) return -1;
            i++;
            continue;
        }
        if (s->cfg->scheme == SYS_SCHEME_DUP) {
            if (sys_run_draw_dup(s, i)) return -1;
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
            if (sys_check_draw(s, j)) return -1;
            if (chopin && !chopin_draw_joins(&c->draw, &fr->cmds[j - 1].draw, dj, s->cfg->chopin_max_draw_tris))
                break;                                                  /* a new composition group */
            for (int t = 0; t < GPU_MAX_TEXTURES && !stop; t++) {
                int32_t sid = dj->st.tex[t];
                if (sid < 0) continue;
                if (s->N > 1 && sys_surface_dirty(s, sid)) stop = 1;
                for (uint32_t k = i; k < j && !stop; k++)
                    if (fr->cmds[k].kind == SYS_CMD_DRAW && sys_draw_writes(&fr->cmds[k].draw, sid)) stop = 1;
            }
            if (stop) break;
            j++;
            end = j;
        }
        if (chopin ? sys_run_group_chopin(s, i, end) : sys_run_segment_gpupd(s, i, end)) return -1;
        i = end;
    }
    return 0;
}

static int check_scene(sys_t *s)
{
    const sys_scene_t *sc = s->scene;
    if (sc->n_frames == 0) return sys_failf(s, "scene has no frames");
    if (sc->display < 0 || (uint32_t)sc->display >= sc->n_surf || sc->surf[sc->display].fmt != GPU_FMT_RGBA8)
        return sys_failf(s, "scene has no colour display surface");
    for (uint32_t f = 0; f < sc->n_frames; f++)
        for (size_t i = 0; i < sc->frames[f].n; i++) {
            const sys_cmd_t *c = &sc->frames[f].cmds[i];
            if ((c->kind == SYS_CMD_CLEAR || c->kind == SYS_CMD_UPLOAD) &&
                (c->surface < 0 || (uint32_t)c->surface >= sc->n_surf))
                return sys_failf(s, "frame %u command %zu: surface %d does not exist", f, i, (int)c->surface);
            if (c->kind == SYS_CMD_UPLOAD && !c->data)
                return sys_failf(s, "frame %u command %zu: upload without data", f, i);
        }
    return 0;
}

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
    if (e) return sys_failf(s, "timing configuration: %s", e);
    if (gpu_isa_library_load(&s->lib, err, sizeof err)) return sys_failf(s, "timing: %s", err);
    s->tm = calloc(s->N, sizeof *s->tm);
    s->p2g = calloc(s->N, sizeof *s->p2g);
    s->link_sync_ticks = calloc(s->net.n_links ? s->net.n_links : 1, sizeof *s->link_sync_ticks);
    s->link_busy0 = calloc(s->net.n_links ? s->net.n_links : 1, sizeof *s->link_busy0);
    if (!s->tm || !s->p2g || !s->link_sync_ticks || !s->link_busy0) return sys_failf(s, "out of memory");
    for (uint32_t g = 0; g < s->N; g++) {
        if (gpu_timing_init(&s->tm[g], &cfg->tcfg, &s->lib, cfg->timeline_log2) ||
            gpu_timing_attach(&s->gpu[g], &s->tm[g]))
            return sys_failf(s, "out of memory");
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
        /* the P2G's issue cycles are the front end's, except on projection slots of their own (gt_proj_slots) */
        G->cyc_issue = T->b_issue / GT_TPC + (sys_proj_slots(s) ? 0 : G->p2g_prims / (s->cfg->tcfg.fe_rate ? s->cfg->tcfg.fe_rate : 1));
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
    if ((unsigned)cfg->scheme >= SYS_SCHEME_COUNT) return sys_failf(&S, "unknown scheme");
    if (cfg->n_gpus < 1 || cfg->n_gpus > 64) return sys_failf(&S, "--gpus must be 1..64 (got %u)", cfg->n_gpus);
    if (cfg->tile_log2 < 1 || cfg->tile_log2 > 14) return sys_failf(&S, "tile size must be 2^1..2^14 pixels");
    if (cfg->batch < 1) return sys_failf(&S, "--batch must be >= 1");
    if (cfg->link_latency < 1) return sys_failf(&S, "link latency must be >= 1 step");
    if (cfg->send_rate < 1) return sys_failf(&S, "send rate must be >= 1");
    if (cfg->scheme == SYS_SCHEME_GPUPD_STREAM && cfg->fault != PE_FAULT_NONE && cfg->fault != PE_FAULT_CLEAR_MASK)
        return sys_failf(&S, "gpupd-stream: the injected faults dup/drop/no-turns/wrong-tag are the paper PE's; only clear-mask applies");
    if (cfg->sx_k > SX_HW_MAX_K || (cfg->sx_depth && (cfg->sx_depth < 2 || cfg->sx_depth > SX_HW_MAX_DEPTH)) || cfg->sx_live > 16384)
        return sys_failf(&S, "stream PE: --sx-k must be 1..%d, --sx-depth 2..%d, --sx-live 1..16384 (got %u, %u, %u)", SX_HW_MAX_K,
                         SX_HW_MAX_DEPTH, cfg->sx_k, cfg->sx_depth, cfg->sx_live);
    if (cfg->scheme == SYS_SCHEME_CHOPIN && cfg->n_gpus < 2)
        return sys_failf(&S, "scheme chopin composes the sub-images of 2 or more GPUs: --gpus must be 2..64 (got %u)", cfg->n_gpus);
    if (cfg->scheme == SYS_SCHEME_CHOPIN && cfg->chopin_min_tris < 1)
        return sys_failf(&S, "scheme chopin: the group threshold (--chopin-min-tris) must be >= 1 triangle (got 0)");
    if (check_scene(&S)) return -1;
    if (cfg->frame >= scene->n_frames)
        return sys_failf(&S, "--frame %u: the scene has %u frame(s)", cfg->frame, scene->n_frames);
    if (cfg->frec_mode != FREC_OFF) {
        if (!cfg->frec) return sys_failf(&S, "frame record: no records given");
        if (cfg->frec_mode == FREC_RECORD && cfg->scheme != SYS_SCHEME_SINGLE)
            return sys_failf(&S, "frame record: recorded by a single-GPU run only");
        if (cfg->frec_mode == FREC_REPLAY && (cfg->scheme == SYS_SCHEME_CHOPIN || cfg->check_masks)) {
            res->replay_refused = 1;
            return sys_failf(&S, "frame record: chopin and --check-masks need the executed model (no replay)");
        }
        for (uint32_t f = 0; f <= cfg->frame; f++)
            if (!cfg->frec[f] || cfg->frec[f]->n_draws != scene->frames[f].n) {
                res->replay_refused = 1;
                return sys_failf(&S, "frame record: frame %u has no record for its %zu commands", f, scene->frames[f].n);
            }
    }
    S.N = cfg->scheme == SYS_SCHEME_SINGLE ? 1 : cfg->n_gpus;
    S.gpu = calloc(S.N, sizeof *S.gpu);
    S.valid = calloc(scene->n_surf ? scene->n_surf : 1, sizeof *S.valid);
    uint8_t *written = calloc(scene->n_surf ? scene->n_surf : 1, 1);
    uint32_t **zero = calloc(scene->n_surf ? scene->n_surf : 1, sizeof *zero);
    int rc = -1;
    S.chopin_bytes = calloc((size_t)S.N * S.N, sizeof *S.chopin_bytes);
    chopin_sched_init(&S.chopin_sched, S.N);
    if (!S.gpu || !S.valid || !written || !zero || !S.chopin_bytes) { sys_failf(&S, "out of memory"); goto out; }
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
        /* resource bound: every GPU holds its own copy of each written surface (a replayed run: no copies, the
         * surfaces have no contents) */
        uint64_t per_gpu = 0, shared = 0, lim = (uint64_t)(cfg->mem_limit_mb ? cfg->mem_limit_mb : SYS_MEM_LIMIT_MB_DEFAULT) << 20;
        for (uint32_t i = 0; i < scene->n_surf; i++)
            if (!written[i] || cfg->frec_mode != FREC_REPLAY)
                *(written[i] ? &per_gpu : &shared) += (uint64_t)scene->surf[i].w * scene->surf[i].h * 4u * gpu_fmt_words(scene->surf[i].fmt);
        uint64_t total = per_gpu * S.N + shared;
        if (total > lim) {
            sys_failf(&S, "the frame needs %" PRIu64 " MiB of surfaces (%u GPU(s) x %" PRIu64 " MiB + %" PRIu64 " MiB shared), "
                      "above the limit of %" PRIu64 " MiB (gpupd-sim --mem-limit-mb raises it)",
                  (total + (1u << 20) - 1) >> 20, S.N, (per_gpu + (1u << 20) - 1) >> 20, (shared + (1u << 20) - 1) >> 20, lim >> 20);
            goto out;
        }
    }
    for (uint32_t i = 0; i < scene->n_surf; i++)
        if (!written[i] && !scene->surf[i].init) {
            zero[i] = calloc((size_t)scene->surf[i].w * scene->surf[i].h * gpu_fmt_words(scene->surf[i].fmt), 4);
            if (!zero[i]) { sys_failf(&S, "out of memory"); goto out; }
        }
    for (uint32_t g = 0; g < S.N; g++) {
        int own_n = sys_sfr(&S) ? (int)S.N : 1;
        if (gpu_init(&S.gpu[g], sys_sfr(&S) ? g : 0, (uint32_t)own_n, cfg->own_mode, cfg->tile_log2) != 0) {
            sys_failf(&S, "cannot create GPU %u", g);
            goto out;
        }
        S.gpu[g].tex_filter = (uint8_t)cfg->tex_filter;
        if (cfg->isa && gpu_isa_attach(&S.gpu[g]) != 0) {
            sys_failf(&S, "cannot create the shader interpreter of GPU %u", g);
            goto out;
        }
        /* a replayed run reads and writes no surface contents (the frame record has the outcomes, the frame hash
         * is the recorded one): its written surfaces have none */
        for (uint32_t i = 0; i < scene->n_surf; i++)
            if ((written[i] ? (cfg->frec_mode == FREC_REPLAY
                                   ? gpu_add_surface_nodata(&S.gpu[g], scene->surf[i].w, scene->surf[i].h, scene->surf[i].fmt)
                                   : gpu_add_surface(&S.gpu[g], scene->surf[i].w, scene->surf[i].h, scene->surf[i].fmt, scene->surf[i].init))
                            : gpu_add_surface_shared(&S.gpu[g], scene->surf[i].w, scene->surf[i].h, scene->surf[i].fmt,
                                                     scene->surf[i].init ? scene->surf[i].init : zero[i])) < 0) {
                sys_failf(&S, "surface %u: bad size %ux%u or out of memory", i, scene->surf[i].w, scene->surf[i].h);
                goto out;
            }
    }
    for (uint32_t i = 0; i < scene->n_surf; i++) S.valid[i] = S.N >= 64 ? ~0ull : ((1ull << S.N) - 1);
    if (net_init(&S.net, cfg->topo, S.N, cfg->link_latency, NULL, NULL) != 0) { sys_failf(&S, "cannot create the network"); goto out; }
    S.net.hub_rate = cfg->hub_rate ? cfg->hub_rate : 2;
    {
        int perr;
        S.par = par_new(cfg->threads, S.N, &perr);
        if (perr) { sys_failf(&S, "cannot start %u threads", cfg->threads); goto out; }
    }
    if (timed_run(cfg)) {
        if (!(cfg->link_latency_ns >= 1.0 && cfg->link_latency_ns <= 1e7) || !(cfg->link_gbps > 0.0 && cfg->link_gbps <= 1e6) ||
            !(cfg->hub_gbps > 0.0 && cfg->hub_gbps <= 1e6)) {
            sys_failf(&S, "link latency must be 1..1e7 ns, link and hub bandwidth > 0 GB/s");
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
    if (!res->draw_pixels || !res->draw_ref_pixels) { sys_failf(&S, "out of memory"); goto out; }
    for (size_t i = 0; i < last->n; i++) res->draw_ref_pixels[i] = last->cmds[i].kind == SYS_CMD_DRAW ? last->cmds[i].ref_pixels : -1;
    for (uint32_t f = 0; f <= cfg->frame; f++) {
        S.frame = f;
        S.last_frame = f == cfg->frame;
        if (S.last_frame && timed_run(cfg) && timing_begin(&S)) goto out;
        if (cfg->frec_mode != FREC_OFF) {
            frec_t *rec = cfg->frec[f];
            if (scene->frames[f].n) frec_bind(rec, &scene->frames[f].cmds[0].draw, sizeof(sys_cmd_t));
            for (uint32_t g = 0; g < S.N; g++) {
                S.gpu[g].rec = rec;
                S.gpu[g].rec_mode = cfg->frec_mode;
            }
            if (cfg->frec_mode == FREC_RECORD) {      /* which draws' fragment profiles need their inputs */
                gpu_isa_library_t lib;
                char err[256];
                memset(&lib, 0, sizeof lib);
                if (gpu_isa_library_load(&lib, err, sizeof err)) {
                    sys_failf(&S, "frame record: %s", err);
                    goto out;
                }
                for (size_t i = 0; i < scene->frames[f].n; i++)
                    rec->draws[i].need_in = scene->frames[f].cmds[i].kind == SYS_CMD_DRAW &&
                                            !gt_fs_flow_uniform(&lib, &scene->frames[f].cmds[i].draw);
                gpu_isa_library_free(&lib);
            }
            if (cfg->frec_mode == FREC_REPLAY && cfg->tile_log2 < FREC_IN_TILE_LOG2)
                for (size_t i = 0; i < scene->frames[f].n; i++)
                    if (rec->draws[i].need_in) {
                        res->replay_refused = 1;
                        sys_failf(&S, "frame record: draw %u's fragment profile needs its inputs, kept for tiles of %u pixels "
                                  "or more (no replay)", scene->frames[f].cmds[i].src_index, 1u << FREC_IN_TILE_LOG2);
                        goto out;
                    }
        }
        for (size_t i = 0; i < scene->frames[f].n; i++)
            if (scene->frames[f].cmds[i].kind == SYS_CMD_DRAW) {
                res->draws++;
                res->prims_app += gpu_draw_prim_count(&scene->frames[f].cmds[i].draw);
            }
        if (cfg->scheme == SYS_SCHEME_AFR) {
            if (sys_run_frame_afr(&S)) goto out;
        } else {
            if (run_frame_sfr(&S)) goto out;
        }
        if (cfg->frec_mode == FREC_RECORD) {      /* single GPU: its display surface is the frame */
            const sys_surface_desc_t *sd = &scene->surf[scene->display];
            cfg->frec[f]->frame_hash = sys_frame_hash(S.gpu[0].surf[scene->display].data, (size_t)sd->w * sd->h);
            cfg->frec[f]->frame_w = sd->w;
            cfg->frec[f]->frame_h = sd->h;
        }
    }
    if (cfg->frec_mode == FREC_REPLAY) {
        res->replayed = 1;
        res->frame_hash = cfg->frec[cfg->frame]->frame_hash;
    }
    /* compose the displayed surface */
    {
        const sys_surface_desc_t *sd = &scene->surf[scene->display];
        res->w = sd->w;
        res->h = sd->h;
        res->pixels = malloc((size_t)sd->w * sd->h * 4);
        if (!res->pixels) { sys_failf(&S, "out of memory"); goto out; }
        if (!S.gpu[0].surf[scene->display].data) {
            memset(res->pixels, 0, (size_t)sd->w * sd->h * 4);     /* replayed: no image (res->frame_hash is the frame's) */
        } else if (sys_sfr(&S) && S.N > 1) {
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
    if (!res->links) { sys_failf(&S, "out of memory"); goto out; }
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
    par_free(S.par);        /* (every lane is idle here: each scheme waits for its tasks) */
    S.par = NULL;
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
    chopin_sched_free(&S.chopin_sched);
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
