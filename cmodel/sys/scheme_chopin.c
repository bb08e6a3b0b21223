/* Scheme chopin (sys/chopin.h, docs/golden-model.md): draw groups with the same composition state are
 * distributed over the GPUs and their sub-images composed. */
#include "sys/sys_internal.h"

#include <stdlib.h>
#include <string.h>

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
    if (!x || !busy) { free(x); free(busy); return sys_failf(s, "out of memory"); }
    chopin_merge_ctx_t mc = {s, bpp};
    chopin_comp_in_t in;
    memset(&in, 0, sizeof in);
    in.n_gpus = N;
    in.hub = s->cfg->topo == NET_HUB;
    in.lat_cycles = s->net.latency;
    in.link_mbpc = s->link_mbpc;
    in.hub_mbpc = s->hub_mbpc;
    in.tpc = GT_TPC;
    in.ready = ready;
    in.bytes = s->chopin_bytes;
    in.merge = chopin_merge_hook;
    in.user = &mc;
    size_t nx = 0;
    int rc = chopin_comp_schedule(&in, x, &nx, end, busy);
    if (rc) { free(x); free(busy); return sys_failf(s, "chopin: composition schedule failed (internal error)"); }
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
int sys_run_group_chopin(sys_t *s, uint32_t i0, uint32_t i1)
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
            if (sys_run_draw_dup(s, i)) return -1;
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
    sys_target_size(s->scene, d0, &W, &H);
    for (int k = 0; k < nsv; k++)
        if (s->scene->surf[sv[k]].w != W || s->scene->surf[sv[k]].h != H)
            return sys_failf(s, "chopin: frame %u draw %u: targets of different sizes", s->frame, fr->cmds[i0].src_index);
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
    if (!saved || !sdirty || !stamp || !touched || !sel) { sys_failf(s, "out of memory"); goto out; }
    for (uint32_t g = 0; g < N; g++) {
        stamp[g] = calloc(np, sizeof **stamp);
        if (!stamp[g]) { sys_failf(s, "out of memory"); goto out; }
        for (int k = 0; k < nsv; k++) {
            size_t idx = (size_t)g * nsv + k;
            size_t nb = np * 4 * gpu_fmt_words(s->scene->surf[sv[k]].fmt);
            saved[idx] = malloc(nb);
            sdirty[idx] = malloc(nt);
            if (!saved[idx] || !sdirty[idx]) { sys_failf(s, "out of memory"); goto out; }
            memcpy(saved[idx], s->gpu[g].surf[sv[k]].data, nb);
            memcpy(sdirty[idx], s->gpu[g].dirty[sv[k]], nt);
        }
        /* the sub-image starts from the merge's identity depth (colour: overwritten wherever a fragment wins) */
        uint32_t id = chopin_depth_identity(d0->st.depth_func);
        uint32_t *z = s->gpu[g].surf[zs].data;
        for (size_t p = 0; p < np; p++) z[p] = id;
        gpu_surface_changed(&s->gpu[g], zs);
    }
    /* draw scheduler and rendering: each draw goes to the GPU with the fewest scheduled-but-unprocessed
     * triangles (across groups, CHOPIN's GPUSchedInfo) when the command stream reaches it, i.e. (timed) when
     * the previous draw's GPU took the previous draw into its command processor; the group's first draw when
     * the first GPU's command processor is free. Processed = triangles out of CLIP. Untimed: nothing is
     * processed (the driver runs ahead of every GPU). Each GPU renders its draws over the whole screen, in
     * order, stamping the pixels they win. */
    uint64_t now = 0;
    if (s->timed) {
        now = UINT64_MAX;
        for (uint32_t g = 0; g < N; g++)
            if (s->tm[g].free[GT_CP] < now) now = s->tm[g].free[GT_CP];
    }
    for (uint32_t g = 0; g < N; g++) s->gpu[g].n_gpus = 1;
    for (uint32_t i = i0; i < i1; i++) {
        uint32_t m = chopin_draw_tris(&fr->cmds[i].draw);
        uint64_t load[64];
        chopin_sched_load(&s->chopin_sched, now, load);
        uint32_t g = chopin_pick_gpu(load, N, &s->chopin_last, s->cfg->chopin_rr, m);
        sel[i - i0] = g;
        uint64_t cp0 = s->timed ? s->tm[g].free[GT_CP] : 0, clip0 = s->timed ? s->tm[g].free[GT_CLIP] : 0;
        gpu_prim_req_t *all = malloc((size_t)(m ? m : 1) * sizeof *all);
        if (!all) { sys_failf(s, "out of memory"); goto restore; }
        for (uint32_t p = 0; p < m; p++) { all[p].prim = p; all[p].tag = p; }
        s->gpu[g].wstamp = stamp[g];
        s->gpu[g].wstamp_w = W;
        s->gpu[g].wstamp_val = i + 1;
        int r2 = sys_render_on(s, g, i, all, m);
        s->gpu[g].wstamp = NULL;
        free(all);
        s->res->gpu[g].comp_draws++;
        if (r2) goto restore;
        uint64_t t0 = UINT64_MAX, t1 = UINT64_MAX;
        if (s->timed) {
            t1 = s->tm[g].free[GT_CLIP];
            t0 = clip0 > cp0 ? clip0 : cp0;
            if (t0 > t1) t0 = t1;
            if (cp0 > now) now = cp0;     /* the next draw is issued once this one entered its command processor */
        }
        if (chopin_sched_add(&s->chopin_sched, g, m, t0, t1)) { sys_failf(s, "out of memory"); goto restore; }
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
                    size_t wpt = gpu_fmt_words(s->scene->surf[sv[k]].fmt);   /* words per texel */
                    for (size_t j = p * wpt; j < (p + 1) * wpt; j++) {
                        uint32_t v = w < 0 ? saved[(size_t)o * nsv + k][j] : s->gpu[w].surf[sv[k]].data[j];
                        changed |= v != saved[(size_t)o * nsv + k][j];
                        s->gpu[o].surf[sv[k]].data[j] = v;
                    }
                }
                if (w >= 0 && tie) ties++;
                if (changed)
                    for (int k = 0; k < nsv; k++) s->gpu[o].dirty[sv[k]][tile] = 1;
                for (uint32_t g = 0; g < N; g++)
                    if (g != o)
                        for (int k = 0; k < nsv; k++) {
                            size_t wpt = gpu_fmt_words(s->scene->surf[sv[k]].fmt);
                            memcpy(&s->gpu[g].surf[sv[k]].data[p * wpt], &saved[(size_t)g * nsv + k][p * wpt], 4 * wpt);
                        }
            }
        s->res->comp_tie_pixels += ties;
        for (uint32_t g = 0; g < N; g++)
            for (int k = 0; k < nsv; k++) gpu_surface_changed(&s->gpu[g], sv[k]);
    }
    /* composition traffic: every sender sends each receiver the tiles of the receiver's region it wrote, colour
     * and depth (CHOPIN sends the ROP blocks it touched; our unit is the ownership tile) */
    {
        uint64_t bpp = 4u;      /* depth, plus each colour target's texel */
        for (int k = 0; k < ncs; k++) bpp += 4u * gpu_fmt_words(s->scene->surf[cs[k]].fmt);
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
