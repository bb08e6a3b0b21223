/* The pixel units of the per-GPU pipeline (gpu.h): RAST (raster.h), EZ (early depth), FS (fragment
 * shading on quads), ROP (late depth, blending, colour masks, MRT write). */
#include "gpu/gpu_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/clip.h"
#include "gpu/frag.h"

#define FS_WARP_QUADS 8                  /* 8 quads = 32 fragment threads */

/* size of the targets of a draw */
static void target_size(const gpu_t *g, const gpu_draw_t *d, uint32_t *w, uint32_t *h)
{
    for (int i = 0; i < GPU_MAX_RTS; i++)
        if (d->st.rt[i] >= 0) { *w = g->surf[d->st.rt[i]].w; *h = g->surf[d->st.rt[i]].h; return; }
    *w = g->surf[d->st.depth_rt].w;
    *h = g->surf[d->st.depth_rt].h;
}

int gpu_rast_step(gpu_t *g, gpu_unit_state_t *u)
{
    int moved = 0;
    uint32_t w, h;
    target_size(g, g->draw, &w, &h);
    p2g_config_t oc = gpu_own_cfg(g, w, h);
    uint32_t ts = 1u << g->tile_log2;
    for (;;) {
        if (!u->active) {
            gpu_screen_tri_t *t = gpu_queue_front(&g->q_tri);
            if (!t) break;
            gpu_timing_t *T = g->tm;
            if (T) {
                /* the geometry -> raster boundary (paper 5.2): a triangle ready at r is accepted at a; the
                 * cycles in between (after the previous acceptance) are Stall, one cycle per triangle issues */
                uint64_t r = gpu_queue_tr_at(&g->q_tri, 0);
                uint64_t a = gt_max(gt_max(r, T->free[GT_SETUP]), sub_sat(T->rast_busy, T->lat[GT_SETUP]));
                uint64_t base = T->has_setup_prev ? gt_max(r, T->setup_prev + T->ii[GT_SETUP]) : r;
                if (a > base) T->b_stall += a - base;
                T->b_issue += T->ii[GT_SETUP];
                T->setup_prev = a;
                T->has_setup_prev = 1;
                T->free[GT_SETUP] = a + T->ii[GT_SETUP];
                T->rast_busy = gt_max(T->rast_busy, a + T->lat[GT_SETUP]);
                g->q_tri.stamp_pop = a;
                gt_account(T, GT_SETUP, a, T->ii[GT_SETUP]);
            }
            gpu_rast_setup(&u->r, t, &g->draw->st, w, h);
            gpu_queue_pop(&g->q_tri);
            moved = 1;
            if (u->r.empty) continue;
            u->active = 1;
        }
        gpu_rast_t *r = &u->r;
        while (r->qy <= r->ry1) {
            if (!gpu_queue_space(&g->q_quad)) return moved;
            /* skip the quads of this row pair that no pixel of the primitive can cover: they would produce
             * nothing (gpu_rast_quad returns 0 for them), and the queue check above cannot change meanwhile */
            if (!r->span_ok || r->span_y != r->qy) {
                gpu_rast_row_span(r, r->qy, &r->span_x0, &r->span_x1);
                r->span_y = r->qy;
                r->span_ok = 1;
            }
            if (r->qx < (r->span_x0 & ~1)) r->qx = r->span_x0 & ~1;
            if (r->qx > r->span_x1) {
                r->qx = r->rx0 & ~1;
                r->qy += 2;
                continue;
            }
            int32_t qx = r->qx, qy = r->qy;
            /* advance the iterator */
            uint32_t tx = (uint32_t)qx >> g->tile_log2, ty = (uint32_t)qy >> g->tile_log2;
            if (g->n_gpus > 1 && p2g_owner(&oc, tx, ty) != g->id) {
                r->qx = (int32_t)((tx + 1) * ts);
            } else {
                r->qx += 2;
                gpu_quad_t *q = gpu_queue_reserve(&g->q_quad);
                if (gpu_rast_quad(r, qx, qy, g->draw->n_varyings, q)) {
                    gpu_timing_t *T = g->tm;
                    if (T) {
                        uint64_t qt = gt_max(T->rast_busy, sub_sat(gpu_queue_tf_next(&g->q_quad, 0), T->lat[GT_RAST]));
                        T->rast_busy = qt + T->ii[GT_RAST];
                        g->q_quad.stamp_push = qt + T->lat[GT_RAST];
                        gt_account(T, GT_RAST, qt, T->ii[GT_RAST]);
                    }
                    gpu_queue_commit(&g->q_quad);
                    g->stats.quads++;
                    int nc = __builtin_popcount(q->cover);
                    g->stats.fragments += (uint64_t)nc;
                    g->stats.helpers += (uint64_t)(4 - nc);
                    if (!g->has_last_prim || g->rast_last_prim != q->prim) {
                        g->stats.prims_rasterized++;
                        g->rast_last_prim = q->prim;
                        g->has_last_prim = 1;
                    }
                    moved = 1;
                }
            }
            if (r->qx > r->rx1) {
                r->qx = r->rx0 & ~1;
                r->qy += 2;
            }
        }
        u->active = 0;
        moved = 1;
    }
    return moved;
}

static uint32_t *pix(gpu_surface_t *s, int32_t x, int32_t y) { return &s->data[(size_t)y * s->w + (size_t)x]; }

static void mark_dirty(gpu_t *g, int32_t sid, int32_t x, int32_t y)
{
    gpu_surface_t *s = &g->surf[sid];
    uint32_t tpr = (s->w + (1u << g->tile_log2) - 1) >> g->tile_log2;
    g->dirty[sid][((uint32_t)y >> g->tile_log2) * tpr + ((uint32_t)x >> g->tile_log2)] = 1;
}

/* depth test (+ write) of the live fragments of a quad */
static void depth_quad(gpu_t *g, gpu_quad_t *q, uint64_t *killed)
{
    const gpu_state_t *st = &g->draw->st;
    if (!st->depth_test || st->depth_rt < 0) return;
    gpu_surface_t *ds = &g->surf[st->depth_rt];
    for (int i = 0; i < 4; i++) {
        if (!(q->live & (1u << i))) continue;
        int32_t x = q->x + (i & 1), y = q->y + (i >> 1);
        uint32_t *p = pix(ds, x, y);
        if (gpu_depth_compare(st->depth_func, q->depth[i], *p & GPU_DEPTH_MAX)) {
            if (st->depth_write && *p != q->depth[i]) {
                *p = q->depth[i];
                mark_dirty(g, st->depth_rt, x, y);
            }
        } else {
            q->live &= (uint8_t)~(1u << i);
            (*killed)++;
        }
    }
}

int gpu_ez_step(gpu_t *g, gpu_unit_state_t *u)
{
    int moved = 0;
    gpu_quad_t *q;
    gpu_timing_t *T = g->tm;
    while ((q = gpu_queue_front(&g->q_quad)) && gpu_queue_space(&g->q_fs)) {
        if (T) {
            uint64_t st = t_start(T, GT_EZ, gpu_queue_tr_at(&g->q_quad, 0), &g->q_fs);
            uint64_t done = st + T->lat[GT_EZ], wb = 0;
            const gpu_state_t *zs = &g->draw->st;
            if (u->early_z && zs->depth_test && zs->depth_rt >= 0) {
                const gpu_surface_t *ds = &g->surf[zs->depth_rt];
                if (gt_block_first(T, (uint32_t)zs->depth_rt, ds->w, ds->h, (uint32_t)q->x, (uint32_t)q->y)) {
                    uint64_t addr = gt_block_addr(T, (uint32_t)zs->depth_rt, ds->w, (uint32_t)q->x, (uint32_t)q->y);
                    done = gt_max(done, gt_l2_access(T, st, addr, 0));                /* Z cache fill */
                    if (zs->depth_write) wb = gt_l2_access(T, st, addr, 1);           /* its write-back */
                }
            }
            T->free[GT_EZ] = gt_max(st + T->ii[GT_EZ], sub_sat(wb, gt_write_slack(T)));
            g->q_quad.stamp_pop = st;
            g->q_fs.stamp_push = done;
            gt_account(T, GT_EZ, st, T->ii[GT_EZ]);
        }
        if (u->early_z) depth_quad(g, q, &g->stats.ez_killed);
        if (q->live) gpu_queue_push(&g->q_fs, q);
        gpu_queue_pop(&g->q_quad);
        moved = 1;
    }
    return moved;
}

int gpu_fs_step(gpu_t *g)
{
    int moved = 0;
    const gpu_draw_t *d = g->draw;
    while (gpu_queue_count(&g->q_fs) && gpu_queue_space(&g->q_rop)) {
        size_t n = gpu_queue_count(&g->q_fs);
        if (n > FS_WARP_QUADS) n = FS_WARP_QUADS;
        if (n > gpu_queue_space(&g->q_rop)) n = gpu_queue_space(&g->q_rop);
        gpu_quad_t *qs[FS_WARP_QUADS];
        for (size_t i = 0; i < n; i++) {
            qs[i] = (gpu_quad_t *)(g->q_fs.buf + ((g->q_fs.head + i) % g->q_fs.cap) * g->q_fs.item);
            g->stats.fs_fragments += (uint64_t)__builtin_popcount(qs[i]->live);
        }
        gpu_timing_t *T = g->tm;
        uint64_t fs_done = 0;
        if (T) {
            uint64_t st = T->free[GT_FS];
            for (size_t i = 0; i < n; i++) st = gt_max(st, gpu_queue_tr_at(&g->q_fs, i));
            if (T->fs_key_draw != d) {
                float pin[FS_WARP_QUADS * 4][GPU_MAX_VARYINGS][4], pz[FS_WARP_QUADS * 4];
                for (size_t i = 0; i < n; i++)
                    for (int k = 0; k < 4; k++) {
                        memcpy(pin[4 * i + k], qs[i]->var[k], sizeof pin[0]);
                        pz[4 * i + k] = (float)qs[i]->depth[k] / (float)GPU_DEPTH_MAX;
                    }
                gt_profile_fs(T, d, (uint32_t)(4 * n), (const float (*)[GPU_MAX_VARYINGS][4])pin, pz);
            }
            uint64_t is, lt, occ;
            gt_warp_cost(T, &T->fs_prof, &is, &lt, &occ);
            uint64_t pool = gt_cal_reserve(&T->pool, st, occ, T->cfg.cores);
            fs_done = gt_max(st + is + lt, pool);
            gt_account(T, GT_SHADER, st, occ);
            gt_account(T, GT_FS, st, T->ii[GT_FS]);
            T->free[GT_FS] = st + T->ii[GT_FS];
            T->fs_warps++;
            T->fs_instrs += T->fs_prof.alu + T->fs_prof.sfu + T->fs_prof.tex + T->fs_prof.mem + T->fs_prof.ctrl;
            g->q_fs.stamp_pop = st;
        }
        if (d->fs_kind == GPU_FS_ISA) {
            float in[FS_WARP_QUADS * 4][GPU_MAX_VARYINGS][4];
            float pos[FS_WARP_QUADS * 4][4];
            float col[FS_WARP_QUADS * 4][GPU_MAX_RTS][4];
            float dep[FS_WARP_QUADS * 4];
            uint8_t disc[FS_WARP_QUADS * 4];
            for (size_t i = 0; i < n; i++)
                for (int k = 0; k < 4; k++) {
                    size_t t = 4 * i + k;
                    memcpy(in[t], qs[i]->var[k], sizeof in[t]);
                    pos[t][0] = (float)(qs[i]->x + (k & 1)) + 0.5f;
                    pos[t][1] = (float)(qs[i]->y + (k >> 1)) + 0.5f;
                    pos[t][2] = (float)qs[i]->depth[k] / (float)GPU_DEPTH_MAX;
                    pos[t][3] = (qs[i]->live & (1u << k)) ? 1.0f : 0.0f;   /* 0: helper lane */
                    dep[t] = pos[t][2];
                    disc[t] = 0;
                }
            if (g->backend.run_fs(g->backend.ctx, d, (uint32_t)(4 * n), (const float (*)[GPU_MAX_VARYINGS][4])in,
                                  (const float (*)[4])pos, col, dep, disc) != 0) {
                snprintf(g->err, sizeof g->err, "fragment shader failed on primitive %u", qs[0]->prim);
                return -1;
            }
            for (size_t i = 0; i < n; i++)
                for (int k = 0; k < 4; k++) {
                    size_t t = 4 * i + k;
                    memcpy(qs[i]->color[k], col[t], sizeof qs[i]->color[k]);
                    if (memcmp(&dep[t], &pos[t][2], sizeof dep[t]) != 0) {   /* the program wrote depth */
                        double z = dep[t] < 0.0f ? 0.0 : dep[t] > 1.0f ? 1.0 : dep[t];
                        qs[i]->depth[k] = (uint32_t)llrint(z * (double)GPU_DEPTH_MAX);
                    }
                    if ((qs[i]->live & (1u << k)) && disc[t]) {
                        qs[i]->live &= (uint8_t)~(1u << k);
                        g->stats.discarded++;
                    }
                }
        } else {
            int tcv = gpu_fs_builtin_texcoord(d);
            for (size_t i = 0; i < n; i++) {
                float lod = 0.0f;
                if (tcv >= 0) {
                    float qs_s[4], qs_t[4];
                    for (int k = 0; k < 4; k++) { qs_s[k] = qs[i]->var[k][tcv][0]; qs_t[k] = qs[i]->var[k][tcv][1]; }
                    lod = gpu_tex_quad_lod(g, d, 0, qs_s, qs_t);
                }
                for (int k = 0; k < 4; k++) {
                    int disc = gpu_fs_builtin_lod(g, d, (const float (*)[4])qs[i]->var[k], lod, qs[i]->color[k], &qs[i]->depth[k]);
                    if ((qs[i]->live & (1u << k)) && disc) {
                        qs[i]->live &= (uint8_t)~(1u << k);
                        g->stats.discarded++;
                    }
                }
            }
        }
        if (d->st.alpha_test)
            for (size_t i = 0; i < n; i++)
                for (int k = 0; k < 4; k++) {
                    if (!(qs[i]->live & (1u << k))) continue;
                    float a = qs[i]->color[k][0][3];
                    a = a > 1.0f ? 1.0f : (a > 0.0f ? a : 0.0f);
                    float ref = d->st.alpha_ref > 1.0f ? 1.0f : (d->st.alpha_ref > 0.0f ? d->st.alpha_ref : 0.0f);
                    int pass;
                    switch (d->st.alpha_func) {
                    case GPU_CMP_NEVER: pass = 0; break;
                    case GPU_CMP_LESS: pass = a < ref; break;
                    case GPU_CMP_EQUAL: pass = a == ref; break;
                    case GPU_CMP_LEQUAL: pass = a <= ref; break;
                    case GPU_CMP_GREATER: pass = a > ref; break;
                    case GPU_CMP_NOTEQUAL: pass = a != ref; break;
                    case GPU_CMP_GEQUAL: pass = a >= ref; break;
                    default: pass = 1; break;
                    }
                    if (!pass) {
                        qs[i]->live &= (uint8_t)~(1u << k);
                        g->stats.discarded++;
                    }
                }
        for (size_t i = 0; i < n; i++) {
            if (!qs[i]->live) continue;
            if (T) {
                fs_done = gt_max(fs_done, gpu_queue_tf_next(&g->q_rop, 0));
                g->q_rop.stamp_push = fs_done;
            }
            gpu_queue_push(&g->q_rop, qs[i]);
        }
        for (size_t i = 0; i < n; i++) gpu_queue_pop(&g->q_fs);
        moved = 1;
    }
    return moved;
}

static const gpu_state_t *st_ptr(const gpu_t *g) { return &g->draw->st; }
static int st_depth_on(const gpu_state_t *st) { return st->depth_test && st->depth_rt >= 0; }

int gpu_rop_step(gpu_t *g, gpu_unit_state_t *u)
{
    int moved = 0;
    const gpu_state_t *st = &g->draw->st;
    int writes_color = gpu_fs_writes_color(g->draw);
    gpu_quad_t *q;
    gpu_timing_t *T = g->tm;
    while ((q = gpu_queue_front(&g->q_rop))) {
        if (T) {
            uint64_t st = t_start(T, GT_ROP, gpu_queue_tr_at(&g->q_rop, 0), NULL);
            uint64_t done = st + T->lat[GT_ROP], wb = 0;
            if (!u->early_z && st_depth_on(st_ptr(g))) {
                int32_t zid = g->draw->st.depth_rt;
                const gpu_surface_t *ds = &g->surf[zid];
                if (gt_block_first(T, (uint32_t)zid, ds->w, ds->h, (uint32_t)q->x, (uint32_t)q->y)) {
                    uint64_t addr = gt_block_addr(T, (uint32_t)zid, ds->w, (uint32_t)q->x, (uint32_t)q->y);
                    done = gt_max(done, gt_l2_access(T, st, addr, 0));
                    if (g->draw->st.depth_write) wb = gt_max(wb, gt_l2_access(T, st, addr, 1));
                }
            }
            if (writes_color)
                for (int r = 0; r < GPU_MAX_RTS; r++) {
                    int32_t cid = st_ptr(g)->rt[r];
                    if (cid < 0 || !(st_ptr(g)->color_mask[r] & 0xF)) continue;
                    const gpu_surface_t *cs = &g->surf[cid];
                    if (!gt_block_first(T, (uint32_t)cid, cs->w, cs->h, (uint32_t)q->x, (uint32_t)q->y)) continue;
                    uint64_t addr = gt_block_addr(T, (uint32_t)cid, cs->w, (uint32_t)q->x, (uint32_t)q->y);
                    if (st_ptr(g)->blend[r].enable || (st_ptr(g)->color_mask[r] & 0xF) != 0xF)
                        done = gt_max(done, gt_l2_access(T, st, addr, 0));          /* read for blend / masked write */
                    wb = gt_max(wb, gt_l2_access(T, st, addr, 1));                   /* write-back */
                }
            T->free[GT_ROP] = gt_max(st + T->ii[GT_ROP], sub_sat(wb, gt_write_slack(T)));
            T->last_done = gt_max(T->last_done, done);
            g->q_rop.stamp_pop = st;
            gt_account(T, GT_ROP, st, T->ii[GT_ROP]);
        }
        if (!u->early_z) depth_quad(g, q, &g->stats.z_killed);
        for (int i = 0; i < 4; i++) {
            if (!(q->live & (1u << i))) continue;
            int32_t x = q->x + (i & 1), y = q->y + (i >> 1);
            if (writes_color)
                for (int r = 0; r < GPU_MAX_RTS; r++) {
                    if (st->rt[r] < 0 || !(st->color_mask[r] & 0xF)) continue;
                    uint32_t *p = pix(&g->surf[st->rt[r]], x, y);
                    uint32_t nv = gpu_blend_pixel(&st->blend[r], st->blend_color, st->color_mask[r], q->color[i][r], *p);
                    if (nv != *p) {
                        *p = nv;
                        mark_dirty(g, st->rt[r], x, y);
                    }
                }
            if (g->wstamp) g->wstamp[(size_t)y * g->wstamp_w + (size_t)x] = g->wstamp_val;
            g->stats.pixels_written++;
        }
        gpu_queue_pop(&g->q_rop);
        moved = 1;
    }
    return moved;
}
