/* The geometry units of the per-GPU pipeline (gpu.h): CP, VF (vertex fetch, index assembly), VS (vertex
 * shading with the post-transform cache), CLIP (calls the CLIP unit, clip.h). */
#include "gpu/gpu_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/clip.h"
#include "gpu/frag.h"

#define VS_WARP    32                    /* threads per vertex-shading warp */

int gpu_cp_step(gpu_t *g)
{
    int moved = 0;
    gpu_timing_t *T = g->tm;
    while (g->cp_pos < g->cp_n && gpu_queue_space(&g->q_prim)) {
        if (T) {
            uint64_t st = t_start(T, GT_CP, T->start, &g->q_prim);
            T->free[GT_CP] = st + T->ii[GT_CP];
            g->q_prim.stamp_push = st + T->lat[GT_CP];
            gt_account(T, GT_CP, st, T->ii[GT_CP]);
        }
        gpu_queue_push(&g->q_prim, &g->cp_list[g->cp_pos++]);
        moved = 1;
    }
    return moved;
}

int gpu_vf_step(gpu_t *g)
{
    int moved = 0;
    const gpu_draw_t *d = g->draw;
    gpu_prim_req_t *p;
    gpu_timing_t *T = g->tm;
    while ((p = gpu_queue_front(&g->q_prim)) && gpu_queue_space(&g->q_vtx)) {
        if (T) {
            uint64_t st = t_start(T, GT_VF, gpu_queue_tr_at(&g->q_prim, 0), &g->q_vtx);
            T->free[GT_VF] = st + T->ii[GT_VF];
            g->q_prim.stamp_pop = st;
            g->q_vtx.stamp_push = st + T->lat[GT_VF];
            gt_account(T, GT_VF, st, T->ii[GT_VF]);
        }
        gpu_vtx_tri_t *t = gpu_queue_reserve(&g->q_vtx);
        t->prim = p->prim;
        t->tag = p->tag;
        if (gpu_fetch_triangle(d, p->prim, t->vid) != 0) {
            snprintf(g->err, sizeof g->err, "vertex fetch: primitive %u of the draw reads outside its index/vertex buffer", p->prim);
            return -1;
        }
        for (int i = 0; i < 3; i++)
            memset(&t->attr[i][d->n_attribs], 0, sizeof(float) * 4 * (gpu_attr_span(d->n_attribs) - d->n_attribs));
        for (int i = 0; i < 3; i++)
            for (uint32_t a = 0; a < d->n_attribs; a++)
                memcpy(t->attr[i][a], &d->attribs[((size_t)t->vid[i] * d->n_attribs + a) * 4], sizeof t->attr[i][a]);
        gpu_queue_commit(&g->q_vtx);
        gpu_queue_pop(&g->q_prim);
        g->stats.prims_in++;
        moved = 1;
    }
    return moved;
}

static void vs_builtin(const gpu_draw_t *d, const float in[GPU_MAX_ATTRIBS][4], float out[1 + GPU_MAX_VARYINGS][4])
{
    memset(out + 1, 0, sizeof(float) * GPU_MAX_VARYINGS * 4);
    /* GPU_VS_MVP: rows of the MVP matrix in C[0..3]; float multiply-add in a fixed order */
    for (int r = 0; r < 4; r++) {
        float acc = d->vs_consts[r][0] * in[0][0];
        acc = acc + d->vs_consts[r][1] * in[0][1];
        acc = acc + d->vs_consts[r][2] * in[0][2];
        acc = acc + d->vs_consts[r][3] * in[0][3];
        out[0][r] = acc;
    }
    for (uint32_t v = 0; v < d->n_varyings; v++)
        if (v + 1 < d->n_attribs) memcpy(out[1 + v], in[v + 1], sizeof out[1 + v]);
}

/* VS: shades the vertices of up to VS_WARP/3 triangles as one warp. A post-transform vertex cache
 * (GPU_VCACHE entries, FIFO, keyed by vertex index, emptied at every run) supplies vertices shaded
 * earlier in the same draw run (ATTILA's post-shading cache); within a warp a vertex is shaded once. */
static int vc_lookup(const gpu_t *g, uint32_t vid)
{
    for (int i = 0; i < GPU_VCACHE; i++)
        if (g->vc_valid[i] && g->vc_tag[i] == vid) return i;
    return -1;
}

int gpu_vs_step(gpu_t *g)
{
    int moved = 0;
    const gpu_draw_t *d = g->draw;
    while (gpu_queue_count(&g->q_vtx) && gpu_queue_space(&g->q_shv)) {
        size_t n = gpu_queue_count(&g->q_vtx);
        if (n > VS_WARP / 3) n = VS_WARP / 3;
        if (n > gpu_queue_space(&g->q_shv)) n = gpu_queue_space(&g->q_shv);
        float in[VS_WARP][GPU_MAX_ATTRIBS][4];
        float out[VS_WARP][1 + GPU_MAX_VARYINGS][4];
        float hit[VS_WARP][1 + GPU_MAX_VARYINGS][4];
        uint32_t pend_vid[VS_WARP];
        int src[VS_WARP / 3][3];        /* >= 0: warp lane; < 0: -(hit index + 1) */
        int np = 0, nh = 0;
        const int nvp = gpu_topo_verts(d->topo);   /* distinct vertices per primitive: 3, 2 or 1 */
        gpu_vtx_tri_t *tris[VS_WARP / 3];
        for (size_t i = 0; i < n; i++) {
            tris[i] = (gpu_vtx_tri_t *)(g->q_vtx.buf + ((g->q_vtx.head + i) % g->q_vtx.cap) * g->q_vtx.item);
            for (int k = nvp; k < 3; k++) src[i][k] = -1000;   /* repeated last vertex of a line/point: copied below */
            for (int k = 0; k < nvp; k++) {
                uint32_t vid = tris[i]->vid[k];
                int c = vc_lookup(g, vid);
                if (c >= 0) {
                    if (g->rec_mode != FREC_REPLAY) memcpy(hit[nh], g->vc_out[c], sizeof hit[nh]);
                    src[i][k] = -(nh + 1);
                    nh++;
                    continue;
                }
                int j = 0;
                while (j < np && pend_vid[j] != vid) j++;
                if (j == np) {
                    pend_vid[np] = vid;
                    memcpy(in[np], tris[i]->attr[k], sizeof in[np][0] * gpu_attr_span(d->n_attribs));
                    np++;
                }
                src[i][k] = j;
            }
        }
        uint64_t vs_done = 0, vs_st = 0;
        gpu_timing_t *T = g->tm;
        if (T) {
            vs_st = T->free[GT_VS];
            for (size_t i = 0; i < n; i++) vs_st = gt_max(vs_st, gpu_queue_tr_at(&g->q_vtx, i));
            T->free[GT_VS] = vs_st + T->ii[GT_VS];
            vs_done = vs_st + GT_TPC;
            if (np) {
                /* attribute fetch of the vertices to shade (vertex buffers: block-linear at surface slot 1023) */
                uint64_t tm = vs_st;
                for (int t = 0; t < np; t++)
                    tm = gt_max(tm, gt_l2_access(T, vs_st, (1023ull << 28) + (uint64_t)pend_vid[t] * d->n_attribs * 16, 0));
                gt_profile_vs(T, d, (uint32_t)np, (const float (*)[GPU_MAX_ATTRIBS][4])in);
                uint64_t is, lt, occ;
                gt_warp_cost(T, &T->vs_prof, &is, &lt, &occ);
                uint64_t pool = gt_cal_reserve(&T->pool, tm, occ, T->cfg.cores);
                vs_done = gt_max(tm + is + lt, pool);
                gt_account(T, GT_SHADER, tm, occ);
                gt_account(T, GT_VS, vs_st, T->ii[GT_VS]);
                T->vs_warps++;
                T->vs_instrs += T->vs_prof.alu + T->vs_prof.sfu + T->vs_prof.tex + T->vs_prof.mem + T->vs_prof.ctrl;
            }
            g->q_vtx.stamp_pop = vs_st;
        }
        if (np && g->rec_mode != FREC_REPLAY) {     /* replay: CLIP takes its output from the frame record */
            if (d->vs_kind == GPU_VS_ISA) {
                if (g->backend.run_vs(g->backend.ctx, d, (uint32_t)np, (const float (*)[GPU_MAX_ATTRIBS][4])in, out) != 0) {
                    snprintf(g->err, sizeof g->err, "vertex shader failed on primitive %u", tris[0]->prim);
                    return -1;
                }
            } else {
                for (int t = 0; t < np; t++) vs_builtin(d, (const float (*)[4])in[t], out[t]);
            }
        }
        for (size_t i = 0; i < n; i++) {
            if (T) {
                vs_done = gt_max(vs_done, gpu_queue_tf_next(&g->q_shv, 0));
                g->q_shv.stamp_push = vs_done;
            }
            gpu_shaded_tri_t *sh = gpu_queue_reserve(&g->q_shv);
            sh->prim = tris[i]->prim;
            sh->tag = tris[i]->tag;
            for (int k = 0; k < 3 && g->rec_mode != FREC_REPLAY; k++) {
                if (k >= nvp) { memcpy(sh->v[k], sh->v[nvp - 1], sizeof sh->v[k]); continue; }
                memcpy(sh->v[k], src[i][k] >= 0 ? out[src[i][k]] : hit[-src[i][k] - 1], sizeof sh->v[k]);
            }
            gpu_queue_commit(&g->q_shv);
        }
        for (int t = 0; t < np; t++) {      /* FIFO replacement */
            uint32_t e = g->vc_next;
            g->vc_next = (g->vc_next + 1) % GPU_VCACHE;
            g->vc_valid[e] = 1;
            g->vc_tag[e] = pend_vid[t];
            if (g->rec_mode != FREC_REPLAY) memcpy(g->vc_out[e], out[t], sizeof g->vc_out[e]);
        }
        for (size_t i = 0; i < n; i++) gpu_queue_pop(&g->q_vtx);
        g->stats.vs_invocations += (uint64_t)np;
        g->stats.vs_cache_hits += (uint64_t)nvp * n - (uint64_t)np;
        moved = 1;
    }
    return moved;
}

int gpu_clip_step(gpu_t *g)
{
    int moved = 0;
    gpu_shaded_tri_t *s;
    gpu_timing_t *T = g->tm;
    while ((s = gpu_queue_front(&g->q_shv))) {
        uint64_t cst = 0;
        if (g->mode != GPU_MODE_PROJECT && gpu_queue_space(&g->q_tri) < GPU_CLIP_MAX_OUT) break;
        if (T) {
            cst = t_start(T, GT_CLIP, gpu_queue_tr_at(&g->q_shv, 0), g->mode == GPU_MODE_PROJECT ? NULL : &g->q_tri);
            T->free[GT_CLIP] = cst + T->ii[GT_CLIP];
            g->q_shv.stamp_pop = cst;
            gt_account(T, GT_CLIP, cst, T->ii[GT_CLIP]);
            T->front_done = gt_max(T->front_done, cst + T->lat[GT_CLIP]);
        }
        if (g->mode == GPU_MODE_RENDER && g->clip_keep && (s->tag >= g->clip_keep_n || !g->clip_keep[s->tag])) {
            gpu_queue_pop(&g->q_shv);       /* dup: not this GPU's primitive (P2G mask), dropped after geometry */
            moved = 1;
            continue;
        }
        frec_prim_t *rp = NULL;
        if (g->rec_mode) {
            if (s->prim >= g->rec_draw->n_prims) {
                snprintf(g->err, sizeof g->err, "frame record: primitive %u beyond the draw's %u", s->prim, g->rec_draw->n_prims);
                return -1;
            }
            rp = &g->rec->prims[g->rec_draw->prim + s->prim];
        }
        if (g->mode == GPU_MODE_PROJECT) {
            if (T && T->proj_t && g->proj_n < T->proj_cap) {
                T->proj_t[g->proj_n] = cst + T->lat[GT_CLIP];
                T->last_done = gt_max(T->last_done, cst + T->lat[GT_CLIP]);
            }
            if (g->proj_n >= g->proj_cap) {
                snprintf(g->err, sizeof g->err, "project: more primitives than requested");
                return -1;
            }
            if (g->rec_mode == FREC_REPLAY) {
                gpu_projected_t *pj = &g->proj_out[g->proj_n];
                pj->prim = s->prim;
                pj->tag = s->tag;
                pj->p2g = rp->proj;
                pj->p2g.prim_id = s->tag;
            } else {
                gpu_clip_triangle(g->draw, s, GPU_MODE_PROJECT, NULL, &g->proj_out[g->proj_n]);
            }
            if (g->proj_out[g->proj_n].p2g.flags & P2G_FLAG_CULLED) g->stats.prims_culled++;
            g->proj_n++;
        } else {
            if (gpu_queue_space(&g->q_tri) < GPU_CLIP_MAX_OUT) break;
            gpu_screen_tri_t out[GPU_CLIP_MAX_OUT];
            int n = g->rec_mode == FREC_REPLAY ? (int)rp->n_tri : gpu_clip_triangle(g->draw, s, GPU_MODE_RENDER, out, NULL);
            if (g->rec_mode == FREC_RECORD) {
                if (rp->done) g->rec->oom = 2;      /* rendered twice in the frame: not a single-GPU render */
                rp->done = 1;
                rp->tri = (uint32_t)g->rec->n_tris;
                rp->n_tri = (uint32_t)n;
                for (int i = 0; i < n; i++) out[i].rec_tri = frec_add_tri(g->rec);
                gpu_projected_t pj;
                gpu_clip_triangle(g->draw, s, GPU_MODE_PROJECT, NULL, &pj);
                rp->proj = pj.p2g;
            }
            if (n == 0) g->stats.prims_culled++;
            uint64_t pt = cst + (T ? T->lat[GT_CLIP] : 0);
            for (int i = 0; i < n; i++) {
                if (T) {
                    pt = gt_max(pt, gpu_queue_tf_next(&g->q_tri, 0));
                    g->q_tri.stamp_push = pt;
                }
                if (g->rec_mode == FREC_REPLAY) {     /* the recorded triangle: RAST reads the rest there */
                    gpu_screen_tri_t *o = gpu_queue_reserve(&g->q_tri);
                    o->prim = s->prim;
                    o->tag = s->tag;
                    o->rec_tri = rp->tri + (uint32_t)i;
                    gpu_queue_commit(&g->q_tri);
                } else {
                    gpu_queue_push(&g->q_tri, &out[i]);
                }
            }
            if (T && n) T->free[GT_CLIP] = gt_max(T->free[GT_CLIP], sub_sat(pt, T->lat[GT_CLIP]));
            g->stats.tris_setup += (uint64_t)n;
        }
        gpu_queue_pop(&g->q_shv);
        moved = 1;
    }
    return moved;
}
