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
void gpu_target_size(const gpu_t *g, const gpu_draw_t *d, uint32_t *w, uint32_t *h)
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
    gpu_target_size(g, g->draw, &w, &h);
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
                if (T->probe) {
                    T->probe = 0;
                    T->probe_gap = T->has_setup_prev ? sub_sat(r, T->free[GT_SETUP]) : r;
                }
                if (a > base) T->b_stall += a - base;
                T->b_issue += T->ii[GT_SETUP];
                T->setup_prev = a;
                T->has_setup_prev = 1;
                T->free[GT_SETUP] = a + T->ii[GT_SETUP];
                T->rast_busy = gt_max(T->rast_busy, a + T->lat[GT_SETUP]);
                g->q_tri.stamp_pop = a;
                gt_account(T, GT_SETUP, a, T->ii[GT_SETUP]);
            }
            if (g->rec_mode == FREC_REPLAY) {
                const frec_tri_t *ft = &g->rec->tris[t->rec_tri];
                u->r.empty = (int)ft->empty;
                u->r.t.prim = t->prim;
                u->r.t.tag = t->tag;
                u->r.rx0 = ft->rx0; u->r.ry0 = ft->ry0; u->r.rx1 = ft->rx1; u->r.ry1 = ft->ry1;
                u->r.qx = ft->rx0 & ~1;
                u->r.qy = ft->ry0 & ~1;
                u->r.span_ok = 0;
                u->rq = ft->quad;
                u->rq_end = ft->quad + ft->n_quad;
                u->rspan = ft->span;
                u->rqy0 = ft->ry0 & ~1;
            } else {
                gpu_rast_setup(&u->r, t, &g->draw->st, w, h);
                u->rtri = UINT32_MAX;
                if (g->rec_mode == FREC_RECORD && t->rec_tri < g->rec->n_tris) {
                    frec_tri_t *ft = &g->rec->tris[t->rec_tri];
                    u->rtri = t->rec_tri;
                    ft->empty = (uint32_t)u->r.empty;
                    if (!u->r.empty) {
                        ft->rx0 = u->r.rx0; ft->ry0 = u->r.ry0; ft->rx1 = u->r.rx1; ft->ry1 = u->r.ry1;
                        if (u->r.qx != (u->r.rx0 & ~1) || u->r.qy != (u->r.ry0 & ~1)) g->rec->oom = 3;
                    }
                    ft->span = (uint32_t)g->rec->n_spans;
                    ft->quad = (uint32_t)g->rec->n_quads;
                }
            }
            u->front = (uint8_t)gpu_prim_front(t, &g->draw->st);
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
                if (g->rec_mode == FREC_REPLAY) {
                    const int32_t *sp = g->rec->spans[u->rspan + (uint32_t)((r->qy - u->rqy0) / 2)];
                    r->span_x0 = sp[0];
                    r->span_x1 = sp[1];
                } else {
                    gpu_rast_row_span(r, r->qy, &r->span_x0, &r->span_x1);
                    if (g->rec_mode == FREC_RECORD) frec_add_span(g->rec, r->span_x0, r->span_x1);
                }
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
                int hit;
                if (g->rec_mode == FREC_REPLAY) {
                    /* the next recorded quad of the triangle, past those in tiles this GPU does not own */
                    const frec_quad_t *fq = NULL;
                    while (u->rq < u->rq_end) {
                        fq = &g->rec->quads[u->rq];
                        if ((int32_t)fq->y > qy || ((int32_t)fq->y == qy && (int32_t)fq->x >= qx)) break;
                        u->rq++;
                        fq = NULL;
                    }
                    hit = fq && (int32_t)fq->x == qx && (int32_t)fq->y == qy;
                    if (hit) {
                        q->cover = q->live = (uint8_t)FREC_COVER(fq->m);
                        q->prim = r->t.prim;
                        q->tag = r->t.tag;
                        q->x = qx;
                        q->y = qy;
                        q->rec = u->rq++;
                    }
                } else {
                    hit = gpu_rast_quad(r, qx, qy, g->draw->n_varyings, q) != 0;
                    if (hit && g->rec_mode == FREC_RECORD) q->rec = frec_add_quad(g->rec, qx, qy, q->cover);
                }
                if (hit) {
                    q->front = u->front;
                    gpu_timing_t *T = g->tm;
                    if (T) {
                        uint64_t qt = gt_max(T->rast_busy, sub_sat(gpu_queue_tf_next(&g->q_quad, 0), T->lat[GT_RAST]));
                        T->rast_busy = qt + T->ii[GT_RAST];
                        g->q_quad.stamp_push = qt + T->lat[GT_RAST];
                        gt_account(T, GT_RAST, qt, T->ii[GT_RAST]);
                    }
                    gpu_queue_commit(&g->q_quad);
                    g->stats.quads++;
                    int nc = pc4(q->cover);
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
        if (g->rec_mode == FREC_RECORD && u->rtri != UINT32_MAX)
            g->rec->tris[u->rtri].n_quad = (uint32_t)g->rec->n_quads - g->rec->tris[u->rtri].quad;
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
static int depth_quad(gpu_t *g, gpu_quad_t *q, uint64_t *killed)
{
    const gpu_state_t *st = &g->draw->st;
    int changed = 0;
    if (!st->depth_test || st->depth_rt < 0) return 0;
    gpu_surface_t *ds = &g->surf[st->depth_rt];
    for (int i = 0; i < 4; i++) {
        if (!(q->live & (1u << i))) continue;
        int32_t x = q->x + (i & 1), y = q->y + (i >> 1);
        uint32_t *p = pix(ds, x, y);
        if (gpu_depth_compare(st->depth_func, q->depth[i], *p & GPU_DEPTH_MAX)) {
            if (st->depth_write && *p != q->depth[i]) {
                *p = q->depth[i];
                mark_dirty(g, st->depth_rt, x, y);
                changed = 1;
            }
        } else {
            q->live &= (uint8_t)~(1u << i);
            (*killed)++;
        }
    }
    return changed;
}

/* Replay pushes only a quad's header: the varyings and colours are neither computed nor read. */
static void push_quad(gpu_t *g, gpu_queue_t *q, const gpu_quad_t *quad)
{
    if (g->rec_mode == FREC_REPLAY) gpu_queue_push_head(q, quad, offsetof(gpu_quad_t, var));
    else gpu_queue_push(q, quad);
}

/* Frame record: the live mask of a quad from a stage on (EZ 4, FS 8, ROP 12: later stages see the same
 * fragments unless they kill some, so each stage sets its own and every later stage's mask). */
static void rec_live(gpu_t *g, const gpu_quad_t *q, unsigned stage)
{
    if (g->rec->oom || q->rec >= g->rec->n_quads) return;
    uint32_t *m = &g->rec->quads[q->rec].m;
    for (unsigned sh = stage; sh <= 12; sh += 4) *m = (*m & ~(0xFu << sh)) | ((uint32_t)(q->live & 0xF) << sh);
}

/* The depth stage of a quad (early or late Z): executed (recording its outcome) or replayed from the frame
 * record (the recorded live mask; the depth surface is not written, its dirty tile is marked). */
static void depth_stage(gpu_t *g, gpu_quad_t *q, uint64_t *killed, unsigned stage)
{
    if (g->rec_mode == FREC_REPLAY) {
        uint32_t m = g->rec->quads[q->rec].m;
        uint8_t live = (uint8_t)((m >> stage) & 0xF);
        *killed += (uint64_t)(pc4(q->live) - pc4(live));
        q->live = live;
        if (m & FREC_ZCHG) mark_dirty(g, g->draw->st.depth_rt, q->x, q->y);
        return;
    }
    int chg = depth_quad(g, q, killed);
    if (g->rec_mode == FREC_RECORD && !g->rec->oom && q->rec < g->rec->n_quads) {
        rec_live(g, q, stage);
        if (chg) g->rec->quads[q->rec].m |= FREC_ZCHG;
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
        if (u->early_z) depth_stage(g, q, &g->stats.ez_killed, 4);
        if (g->rec_mode == FREC_RECORD && g->rec_draw->need_in && q->live && !g->rec->oom) {
            /* the fragment-profile inputs of the first live quads of each tile (gpu/frec.h) */
            uint32_t w, h;
            gpu_target_size(g, g->draw, &w, &h);
            size_t ti = (size_t)((uint32_t)q->y >> FREC_IN_TILE_LOG2) * ((w + (1u << FREC_IN_TILE_LOG2) - 1) >> FREC_IN_TILE_LOG2) +
                        ((uint32_t)q->x >> FREC_IN_TILE_LOG2);
            if (ti < g->rec->in_count_n && g->rec->in_count[ti] < FREC_IN_QUADS) {
                g->rec->in_count[ti]++;
                float var[4][2][4], z[4];
                for (int k = 0; k < 4; k++) {
                    memcpy(var[k], q->var[k], sizeof var[k]);
                    z[k] = (float)q->depth[k] / (float)GPU_DEPTH_MAX;
                }
                frec_add_in(g->rec, q->rec, (const float (*)[2][4])var, z);
            }
        }
        if (q->live) push_quad(g, &g->q_fs, q);
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
            g->stats.fs_fragments += (uint64_t)pc4(qs[i]->live);
        }
        gpu_timing_t *T = g->tm;
        uint64_t fs_done = 0;
        if (T) {
            uint64_t st = T->free[GT_FS];
            for (size_t i = 0; i < n; i++) st = gt_max(st, gpu_queue_tr_at(&g->q_fs, i));
            if (T->fs_key_draw != d) {
                float pin[FS_WARP_QUADS * 4][GPU_MAX_VARYINGS][4], pz[FS_WARP_QUADS * 4];
                if (g->rec_mode == FREC_REPLAY) {
                    /* no varyings in a replay: the recorded profile inputs of these quads where the program's
                     * cost depends on them, else zero inputs (gpu/frec.h) */
                    memset(pin, 0, sizeof pin);
                    memset(pz, 0, sizeof pz);
                    for (size_t i = 0; i < n && g->rec_draw->need_in; i++) {
                        const frec_in_t *e = frec_in_of(g->rec, qs[i]->rec);
                        if (!e) {
                            snprintf(g->err, sizeof g->err, "frame record: no profile inputs for a quad of the first fragment warp");
                            return -1;
                        }
                        for (int k = 0; k < 4; k++) {
                            memcpy(pin[4 * i + k], e->var[k], sizeof e->var[k]);
                            pz[4 * i + k] = e->z[k];
                        }
                    }
                } else {
                    for (size_t i = 0; i < n; i++)
                        for (int k = 0; k < 4; k++) {
                            memcpy(pin[4 * i + k], qs[i]->var[k], sizeof pin[0]);
                            pz[4 * i + k] = (float)qs[i]->depth[k] / (float)GPU_DEPTH_MAX;
                        }
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
        if (g->rec_mode == FREC_REPLAY) {
            for (size_t i = 0; i < n; i++) {        /* discards and the alpha test from the frame record */
                uint8_t live = (uint8_t)FREC_FS(g->rec->quads[qs[i]->rec].m);
                g->stats.discarded += (uint64_t)(pc4(qs[i]->live) - pc4(live));
                qs[i]->live = live;
            }
        } else if (d->fs_kind == GPU_FS_ISA) {
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
                    pos[t][3] = qs[i]->front ? 1.0f : 0.0f;                /* gl_FrontFacing */
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
        if (d->st.alpha_test && g->rec_mode != FREC_REPLAY)
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
        if (g->rec_mode == FREC_RECORD && !g->rec->oom)
            for (size_t i = 0; i < n; i++) rec_live(g, qs[i], 8);
        for (size_t i = 0; i < n; i++) {
            if (!qs[i]->live) continue;
            if (T) {
                fs_done = gt_max(fs_done, gpu_queue_tf_next(&g->q_rop, 0));
                g->q_rop.stamp_push = fs_done;
            }
            push_quad(g, &g->q_rop, qs[i]);
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
        if (!u->early_z) depth_stage(g, q, &g->stats.z_killed, 12);
        uint32_t cchg = 0;
        if (g->rec_mode == FREC_REPLAY) {       /* colour writes from the frame record: only their dirty tiles */
            uint32_t m = g->rec->quads[q->rec].m;
            for (int r = 0; r < GPU_MAX_RTS; r++)
                if (m & FREC_CCHG(r)) mark_dirty(g, st->rt[r], q->x, q->y);
        }
        for (int i = 0; i < 4; i++) {
            if (!(q->live & (1u << i))) continue;
            int32_t x = q->x + (i & 1), y = q->y + (i >> 1);
            if (writes_color && g->rec_mode != FREC_REPLAY)
                for (int r = 0; r < GPU_MAX_RTS; r++) {
                    if (st->rt[r] < 0 || !(st->color_mask[r] & 0xF)) continue;
                    gpu_surface_t *cs = &g->surf[st->rt[r]];
                    if (gpu_fmt_is_float(cs->fmt)) {
                        uint32_t *fp = &cs->data[((size_t)y * cs->w + (size_t)x) * gpu_fmt_words(cs->fmt)];
                        if (gpu_blend_pixel_float(&st->blend[r], st->blend_color, st->color_mask[r], q->color[i][r], cs->fmt, fp)) {
                            mark_dirty(g, st->rt[r], x, y);
                            cchg |= FREC_CCHG(r);
                        }
                        continue;
                    }
                    uint32_t *p = pix(cs, x, y);
                    uint32_t nv = gpu_blend_pixel(&st->blend[r], st->blend_color, st->color_mask[r], q->color[i][r], *p);
                    if (nv != *p) {
                        *p = nv;
                        mark_dirty(g, st->rt[r], x, y);
                        cchg |= FREC_CCHG(r);
                    }
                }
            if (g->wstamp) g->wstamp[(size_t)y * g->wstamp_w + (size_t)x] = g->wstamp_val;
            g->stats.pixels_written++;
        }
        if (g->rec_mode == FREC_RECORD && !g->rec->oom && q->rec < g->rec->n_quads) g->rec->quads[q->rec].m |= cchg;
        gpu_queue_pop(&g->q_rop);
        moved = 1;
    }
    return moved;
}
