/* The per-GPU pipeline: units with explicit queues, stepped back to front (see gpu.h). */
#include "gpu/gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/frag.h"
#include "gpu/gpu_timing.h"
#include "gpu/raster.h"

#define Q_PRIM_CAP 64
#define Q_VTX_CAP  16
#define Q_SHV_CAP  16
#define Q_TRI_CAP  32
#define Q_QUAD_CAP 64
#define Q_FS_CAP   64
#define Q_ROP_CAP  64
#define VS_WARP    32                    /* threads per vertex-shading warp */
#define FS_WARP_QUADS 8                  /* 8 quads = 32 fragment threads */

/* Unit-local state kept between steps (the rasterizer iterator). Stored in a side struct so that
 * gpu_t stays plain; one per GPU instance (allocated in gpu_init). */
typedef struct {
    gpu_rast_t r;
    int active;
    int early_z;
} gpu_unit_state_t;

uint32_t gpu_draw_prim_count(const gpu_draw_t *d)
{
    switch (d->topo) {
    case GPU_TOPO_TRIANGLES: return d->count / 3;
    case GPU_TOPO_TRI_STRIP:
    case GPU_TOPO_TRI_FAN: return d->count >= 3 ? d->count - 2 : 0;
    case GPU_TOPO_LINES: return d->count / 2;
    case GPU_TOPO_LINE_STRIP: return d->count >= 2 ? d->count - 1 : 0;
    case GPU_TOPO_LINE_LOOP: return d->count >= 2 ? d->count : 0;   /* closing segment v[n-1] -> v[0] */
    case GPU_TOPO_POINTS: return d->count;
    default: return 0;
    }
}

gpu_state_t gpu_state_default(int32_t rt, uint32_t w, uint32_t h)
{
    gpu_state_t s;
    memset(&s, 0, sizeof s);
    s.cull = GPU_CULL_NONE;
    s.front_ccw = 1;
    s.vp_w = w;
    s.vp_h = h;
    s.depth_near = 0.0f;
    s.depth_far = 1.0f;
    s.depth_func = GPU_CMP_LESS;
    s.line_width = 1.0f;
    s.point_size = 1.0f;
    s.y_down = 1;
    s.fb_h = h;
    for (int i = 0; i < GPU_MAX_RTS; i++) {
        s.rt[i] = -1;
        s.blend[i].src_rgb = s.blend[i].src_a = GPU_BF_ONE;
        s.blend[i].dst_rgb = s.blend[i].dst_a = GPU_BF_ZERO;
        s.color_mask[i] = 0xF;
    }
    s.rt[0] = rt;
    s.depth_rt = -1;
    for (int i = 0; i < GPU_MAX_TEXTURES; i++) s.tex[i] = -1;
    return s;
}

int gpu_init(gpu_t *g, uint32_t id, uint32_t n_gpus, p2g_mode_t own_mode, uint32_t tile_log2)
{
    memset(g, 0, sizeof *g);
    /* tiles of at least 2x2 pixels: a 2x2 quad never straddles two owners */
    if (n_gpus == 0 || n_gpus > P2G_MAX_GPUS || id >= n_gpus || tile_log2 < 1 || tile_log2 > P2G_MAX_TILE_LOG2) return -1;
    g->id = id;
    g->n_gpus = n_gpus;
    g->own_mode = own_mode;
    g->tile_log2 = tile_log2;
    int rc = 0;
    rc |= gpu_queue_init(&g->q_prim, sizeof(gpu_prim_req_t), Q_PRIM_CAP);
    rc |= gpu_queue_init(&g->q_vtx, sizeof(gpu_vtx_tri_t), Q_VTX_CAP);
    rc |= gpu_queue_init(&g->q_shv, sizeof(gpu_shaded_tri_t), Q_SHV_CAP);
    rc |= gpu_queue_init(&g->q_tri, sizeof(gpu_screen_tri_t), Q_TRI_CAP);
    rc |= gpu_queue_init(&g->q_quad, sizeof(gpu_quad_t), Q_QUAD_CAP);
    rc |= gpu_queue_init(&g->q_fs, sizeof(gpu_quad_t), Q_FS_CAP);
    rc |= gpu_queue_init(&g->q_rop, sizeof(gpu_quad_t), Q_ROP_CAP);
    if (rc) { gpu_free(g); return -1; }
    return 0;
}

void gpu_free(gpu_t *g)
{
    for (uint32_t i = 0; i < GPU_MAX_SURFACES; i++) gpu_surface_changed(g, (int32_t)i);
    for (uint32_t i = 0; i < g->n_surf; i++) {
        if (!g->surf[i].shared) free(g->surf[i].data);
        free(g->dirty[i]);
    }
    gpu_queue_free(&g->q_prim);
    gpu_queue_free(&g->q_vtx);
    gpu_queue_free(&g->q_shv);
    gpu_queue_free(&g->q_tri);
    gpu_queue_free(&g->q_quad);
    gpu_queue_free(&g->q_fs);
    gpu_queue_free(&g->q_rop);
    free(g->proj_out);
    memset(g, 0, sizeof *g);
}

int gpu_add_surface(gpu_t *g, uint32_t w, uint32_t h, gpu_format_t fmt, const uint32_t *init)
{
    if (g->n_surf >= GPU_MAX_SURFACES || w == 0 || h == 0 || w > P2G_MAX_DIM || h > P2G_MAX_DIM) return -1;
    gpu_surface_t *s = &g->surf[g->n_surf];
    s->data = calloc((size_t)w * h, sizeof(uint32_t));
    uint32_t tiles = ((w + (1u << g->tile_log2) - 1) >> g->tile_log2) * ((h + (1u << g->tile_log2) - 1) >> g->tile_log2);
    g->dirty[g->n_surf] = calloc(tiles, 1);
    if (!s->data || !g->dirty[g->n_surf]) {
        free(s->data);
        free(g->dirty[g->n_surf]);
        s->data = NULL;
        g->dirty[g->n_surf] = NULL;
        return -1;
    }
    s->w = w;
    s->h = h;
    s->fmt = fmt;
    if (init) memcpy(s->data, init, (size_t)w * h * sizeof(uint32_t));
    return (int)g->n_surf++;
}

int gpu_add_surface_shared(gpu_t *g, uint32_t w, uint32_t h, gpu_format_t fmt, const uint32_t *data)
{
    if (g->n_surf >= GPU_MAX_SURFACES || w == 0 || h == 0 || w > P2G_MAX_DIM || h > P2G_MAX_DIM || !data) return -1;
    gpu_surface_t *s = &g->surf[g->n_surf];
    s->w = w;
    s->h = h;
    s->fmt = fmt;
    s->data = (uint32_t *)(uintptr_t)data;    /* never written: clears and draws into it are rejected */
    s->shared = 1;
    g->dirty[g->n_surf] = NULL;
    return (int)g->n_surf++;
}

static p2g_config_t own_cfg(const gpu_t *g, uint32_t w, uint32_t h)
{
    p2g_config_t c = p2g_config_default(g->n_gpus, w, h);
    c.tile_log2 = g->tile_log2;
    c.mode = g->own_mode;
    return c;
}

uint32_t gpu_pixel_owner(const gpu_t *g, uint32_t w, uint32_t h, uint32_t x, uint32_t y)
{
    if (g->n_gpus <= 1) return 0;
    p2g_config_t c = own_cfg(g, w, h);
    return p2g_owner(&c, x >> g->tile_log2, y >> g->tile_log2);
}

int gpu_owns_tile(const gpu_t *g, const gpu_surface_t *s, uint32_t tx, uint32_t ty)
{
    if (g->n_gpus <= 1) return 1;
    p2g_config_t c = own_cfg(g, s->w, s->h);
    return p2g_owner(&c, tx, ty) == g->id;
}

int gpu_clear(gpu_t *g, int32_t surface, uint32_t value, uint8_t color_mask,
              int32_t sx, int32_t sy, uint32_t sw, uint32_t sh)
{
    if (surface < 0 || (uint32_t)surface >= g->n_surf) {
        snprintf(g->err, sizeof g->err, "clear: surface %d does not exist (%u surfaces)", (int)surface, g->n_surf);
        return -1;
    }
    gpu_surface_t *s = &g->surf[surface];
    gpu_surface_changed(g, surface);
    if (s->shared) {
        snprintf(g->err, sizeof g->err, "clear: surface %d is a shared read-only texture", (int)surface);
        return -1;
    }
    int32_t x0 = 0, y0 = 0, x1 = (int32_t)s->w - 1, y1 = (int32_t)s->h - 1;
    if (sw > 0 && sh > 0) {
        if (sx > x0) x0 = sx;
        if (sy > y0) y0 = sy;
        /* 64-bit: a scissor origin near INT32_MAX must not overflow (issue 12) */
        if ((int64_t)sx + sw - 1 < x1) x1 = (int32_t)((int64_t)sx + sw - 1);
        if ((int64_t)sy + sh - 1 < y1) y1 = (int32_t)((int64_t)sy + sh - 1);
    }
    uint32_t keep = 0;
    if (s->fmt == GPU_FMT_RGBA8) {
        for (int c = 0; c < 4; c++)
            if (!(color_mask & (1u << c))) keep |= 0xFFu << (8 * c);
    } else {
        value &= GPU_DEPTH_MAX;
    }
    for (int32_t y = y0; y <= y1; y++)
        for (int32_t x = x0; x <= x1; x++) {
            uint32_t *p = &s->data[(size_t)y * s->w + (size_t)x];
            *p = (*p & keep) | (value & ~keep);
        }
    g->stats.clears++;
    return 0;
}

int gpu_fetch_triangle(const gpu_draw_t *d, uint32_t prim, uint32_t vid[3])
{
    uint32_t e[3];
    switch (d->topo) {
    case GPU_TOPO_TRIANGLES:
        e[0] = 3 * prim; e[1] = 3 * prim + 1; e[2] = 3 * prim + 2;
        break;
    case GPU_TOPO_TRI_STRIP:
        if (prim & 1) { e[0] = prim + 1; e[1] = prim; e[2] = prim + 2; }
        else { e[0] = prim; e[1] = prim + 1; e[2] = prim + 2; }
        break;
    case GPU_TOPO_TRI_FAN:
        e[0] = 0; e[1] = prim + 1; e[2] = prim + 2;
        break;
    case GPU_TOPO_LINES:
        e[0] = 2 * prim; e[1] = e[2] = 2 * prim + 1;
        break;
    case GPU_TOPO_LINE_STRIP:
        e[0] = prim; e[1] = e[2] = prim + 1;
        break;
    case GPU_TOPO_LINE_LOOP:
        e[0] = prim; e[1] = e[2] = prim + 1 < d->count ? prim + 1 : 0;
        break;
    case GPU_TOPO_POINTS:
        e[0] = e[1] = e[2] = prim;
        break;
    default:
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        if (e[i] >= d->count) return -1;
        uint64_t k = (uint64_t)d->first + e[i];
        if (d->indices) {
            if (k >= d->n_indices) return -1;
            vid[i] = d->indices[k];
        } else {
            if (k > UINT32_MAX) return -1;
            vid[i] = (uint32_t)k;
        }
        if (vid[i] >= d->n_vertices) return -1;
    }
    return 0;
}

const char *gpu_draw_check(const gpu_t *g, const gpu_draw_t *d)
{
    if (d->n_attribs == 0 || d->n_attribs > GPU_MAX_ATTRIBS) return "attribute count out of range (1..8)";
    if (d->n_varyings > GPU_MAX_VARYINGS) return "varying count out of range (0..8)";
    if (!d->attribs && d->n_vertices) return "no vertex data";
    if (d->topo > GPU_TOPO_POINTS) return "unknown primitive topology";
    if (!(d->st.line_width >= 0.0f && d->st.line_width <= 1024.0f) || !(d->st.point_size >= 0.0f && d->st.point_size <= 1024.0f))
        return "line width or point size out of range (0..1024)";
    if (d->indices == NULL && (uint64_t)d->first + d->count > d->n_vertices) return "vertex range beyond the vertex buffer";
    if (d->indices && (uint64_t)d->first + d->count > d->n_indices) return "index range beyond the index buffer";
    if ((d->vs_kind == GPU_VS_ISA && !g->backend.run_vs) || (d->fs_kind == GPU_FS_ISA && !g->backend.run_fs))
        return "draw uses an ISA program but no shader backend is attached";
    if (d->vs_kind != GPU_VS_MVP && d->vs_kind != GPU_VS_ISA) return "unknown vertex program";
    if ((d->fs_kind < GPU_FS_FLAT || d->fs_kind > GPU_FS_COLOR_CONST) && d->fs_kind != GPU_FS_ISA) return "unknown fragment program";
    const gpu_state_t *st = &d->st;
    if (st->vp_w == 0 || st->vp_h == 0 || st->vp_w > P2G_MAX_DIM || st->vp_h > P2G_MAX_DIM) return "viewport size out of range";
    if (st->vp_x < -P2G_MAX_DIM || st->vp_y < -P2G_MAX_DIM ||
        (int64_t)st->vp_x + st->vp_w + GPU_GUARD >= 32768 || (int64_t)st->vp_y + st->vp_h + GPU_GUARD >= 32768)
        return "viewport position out of the fixed-point range";
    uint32_t w = 0, h = 0;
    int any = 0;
    for (int i = 0; i < GPU_MAX_RTS; i++) {
        int32_t s = st->rt[i];
        if (s < 0) continue;
        if ((uint32_t)s >= g->n_surf) return "render target surface does not exist";
        if (g->surf[s].fmt != GPU_FMT_RGBA8) return "colour render target is not an RGBA8 surface";
        if (g->surf[s].shared) return "render target is a shared read-only texture";
        if (any && (g->surf[s].w != w || g->surf[s].h != h)) return "render targets differ in size";
        w = g->surf[s].w; h = g->surf[s].h; any = 1;
    }
    if (st->depth_rt >= 0) {
        if ((uint32_t)st->depth_rt >= g->n_surf) return "depth surface does not exist";
        if (g->surf[st->depth_rt].fmt != GPU_FMT_DEPTH24) return "depth target is not a depth surface";
        if (g->surf[st->depth_rt].shared) return "depth target is a shared read-only texture";
        if (any && (g->surf[st->depth_rt].w != w || g->surf[st->depth_rt].h != h)) return "depth target size differs from the colour targets";
        any = 1;
    }
    if (!any) return "draw has no render target";
    for (int t = 0; t < GPU_MAX_TEXTURES; t++) {
        int32_t s = st->tex[t];
        if (s < 0) continue;
        if ((uint32_t)s >= g->n_surf) return "texture surface does not exist";
        for (int i = 0; i < GPU_MAX_RTS; i++)
            if (st->rt[i] == s) return "draw samples a surface it renders to (feedback loop)";
        if (st->depth_rt == s) return "draw samples its own depth buffer (feedback loop)";
    }
    return NULL;
}

/* size of the targets of a draw */
static void target_size(const gpu_t *g, const gpu_draw_t *d, uint32_t *w, uint32_t *h)
{
    for (int i = 0; i < GPU_MAX_RTS; i++)
        if (d->st.rt[i] >= 0) { *w = g->surf[d->st.rt[i]].w; *h = g->surf[d->st.rt[i]].h; return; }
    *w = g->surf[d->st.depth_rt].w;
    *h = g->surf[d->st.depth_rt].h;
}

/* ---------------- units ---------------- */

/* Timing helpers (g->tm != NULL): a unit's start tick for an item whose output goes to queue qo. */
static uint64_t sub_sat(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }
static uint64_t t_start(const gpu_timing_t *T, int u, uint64_t ready, const gpu_queue_t *qo)
{
    uint64_t s = gt_max(ready, T->free[u]);
    if (qo) s = gt_max(s, sub_sat(gpu_queue_tf_next(qo, 0), T->lat[u]));
    return s;
}

static int cp_step(gpu_t *g)
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

static int vf_step(gpu_t *g)
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
            memset(&t->attr[i][d->n_attribs], 0, sizeof(float) * 4 * (GPU_MAX_ATTRIBS - d->n_attribs));
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

static int vs_step(gpu_t *g)
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
                    memcpy(hit[nh], g->vc_out[c], sizeof hit[nh]);
                    src[i][k] = -(nh + 1);
                    nh++;
                    continue;
                }
                int j = 0;
                while (j < np && pend_vid[j] != vid) j++;
                if (j == np) {
                    pend_vid[np] = vid;
                    memcpy(in[np], tris[i]->attr[k], sizeof in[np]);
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
        if (np) {
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
            for (int k = 0; k < 3; k++) {
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
            memcpy(g->vc_out[e], out[t], sizeof g->vc_out[e]);
        }
        for (size_t i = 0; i < n; i++) gpu_queue_pop(&g->q_vtx);
        g->stats.vs_invocations += (uint64_t)np;
        g->stats.vs_cache_hits += (uint64_t)nvp * n - (uint64_t)np;
        moved = 1;
    }
    return moved;
}

static int clip_step(gpu_t *g)
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
        if (g->mode == GPU_MODE_PROJECT) {
            if (T && T->proj_t && g->proj_n < T->proj_cap) {
                T->proj_t[g->proj_n] = cst + T->lat[GT_CLIP];
                T->last_done = gt_max(T->last_done, cst + T->lat[GT_CLIP]);
            }
            if (g->proj_n >= g->proj_cap) {
                snprintf(g->err, sizeof g->err, "project: more primitives than requested");
                return -1;
            }
            gpu_clip_triangle(g->draw, s, GPU_MODE_PROJECT, NULL, &g->proj_out[g->proj_n]);
            if (g->proj_out[g->proj_n].p2g.flags & P2G_FLAG_CULLED) g->stats.prims_culled++;
            g->proj_n++;
        } else {
            if (gpu_queue_space(&g->q_tri) < GPU_CLIP_MAX_OUT) break;
            gpu_screen_tri_t out[GPU_CLIP_MAX_OUT];
            int n = gpu_clip_triangle(g->draw, s, GPU_MODE_RENDER, out, NULL);
            if (n == 0) g->stats.prims_culled++;
            uint64_t pt = cst + (T ? T->lat[GT_CLIP] : 0);
            for (int i = 0; i < n; i++) {
                if (T) {
                    pt = gt_max(pt, gpu_queue_tf_next(&g->q_tri, 0));
                    g->q_tri.stamp_push = pt;
                }
                gpu_queue_push(&g->q_tri, &out[i]);
            }
            if (T && n) T->free[GT_CLIP] = gt_max(T->free[GT_CLIP], sub_sat(pt, T->lat[GT_CLIP]));
            g->stats.tris_setup += (uint64_t)n;
        }
        gpu_queue_pop(&g->q_shv);
        moved = 1;
    }
    return moved;
}

static int rast_step(gpu_t *g, gpu_unit_state_t *u)
{
    int moved = 0;
    uint32_t w, h;
    target_size(g, g->draw, &w, &h);
    p2g_config_t oc = own_cfg(g, w, h);
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

static int ez_step(gpu_t *g, gpu_unit_state_t *u)
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

static int fs_step(gpu_t *g)
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

static int rop_step(gpu_t *g, gpu_unit_state_t *u)
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

static int run(gpu_t *g)
{
    gpu_unit_state_t u;
    memset(&u, 0, sizeof u);
    const gpu_draw_t *d = g->draw;
    u.early_z = !gpu_fs_needs_late_z(d);
    g->has_last_prim = 0;
    if (g->tm) {
        g->tm->stamp++;     /* ROP / Z cache blocks: a new run starts cold */
        if (g->tm->stamp == 0) g->tm->stamp = 1;
    }
    memset(g->vc_valid, 0, sizeof g->vc_valid);     /* the vertex cache lives for one draw run */
    g->vc_next = 0;
    for (;;) {
        int p = 0, r;
        if (g->mode == GPU_MODE_PROBE) {
            /* coverage only: count the quads the rasterizer produces in this GPU's tiles, write nothing */
            gpu_quad_t *q;
            while ((q = gpu_queue_front(&g->q_quad))) {
                if (!g->probe_hits) g->probe_first_prim = q->prim;
                g->probe_hits += (uint64_t)__builtin_popcount(q->cover);
                gpu_queue_pop(&g->q_quad);
                p = 1;
            }
            if ((r = rast_step(g, &u)) < 0) return -1;
            p |= r;
        }
        if (g->mode == GPU_MODE_RENDER) {
            if ((r = rop_step(g, &u)) < 0) return -1;
            p |= r;
            if ((r = fs_step(g)) < 0) return -1;
            p |= r;
            if ((r = ez_step(g, &u)) < 0) return -1;
            p |= r;
            if ((r = rast_step(g, &u)) < 0) return -1;
            p |= r;
        }
        if ((r = clip_step(g)) < 0) return -1;
        p |= r;
        if ((r = vs_step(g)) < 0) return -1;
        p |= r;
        if ((r = vf_step(g)) < 0) return -1;
        p |= r;
        p |= cp_step(g);
        if (!p) break;
    }
    if (gpu_queue_count(&g->q_prim) || gpu_queue_count(&g->q_vtx) || gpu_queue_count(&g->q_shv) ||
        gpu_queue_count(&g->q_tri) || gpu_queue_count(&g->q_quad) || gpu_queue_count(&g->q_fs) ||
        gpu_queue_count(&g->q_rop) || u.active) {
        snprintf(g->err, sizeof g->err, "pipeline stalled with work in its queues (internal error)");
        return -1;
    }
    return 0;
}

static void reset_queues(gpu_t *g)
{
    gpu_queue_clear(&g->q_prim);
    gpu_queue_clear(&g->q_vtx);
    gpu_queue_clear(&g->q_shv);
    gpu_queue_clear(&g->q_tri);
    gpu_queue_clear(&g->q_quad);
    gpu_queue_clear(&g->q_fs);
    gpu_queue_clear(&g->q_rop);
}

/* The start of gpu_render/gpu_probe/gpu_project: check the draw (-1 with g->err if rejected), empty the
 * queues, and point the CP at the primitive list in the given mode. */
static int draw_begin(gpu_t *g, const gpu_draw_t *d, gpu_mode_t mode, const gpu_prim_req_t *list, size_t n)
{
    const char *e = gpu_draw_check(g, d);
    if (e) {
        snprintf(g->err, sizeof g->err, "draw rejected: %s", e);
        return -1;
    }
    reset_queues(g);
    g->draw = d;
    g->mode = mode;
    g->cp_list = list;
    g->cp_n = n;
    g->cp_pos = 0;
    return 0;
}

int gpu_render(gpu_t *g, const gpu_draw_t *d, const gpu_prim_req_t *list, size_t n)
{
    if (draw_begin(g, d, GPU_MODE_RENDER, list, n)) return -1;
    int rc = run(g);
    for (int r = 0; r < GPU_MAX_RTS; r++) gpu_surface_changed(g, d->st.rt[r]);
    gpu_surface_changed(g, d->st.depth_rt);
    g->draw = NULL;
    return rc;
}

int gpu_probe(gpu_t *g, const gpu_draw_t *d, const gpu_prim_req_t *list, size_t n, uint64_t *frags, uint32_t *first_prim)
{
    if (draw_begin(g, d, GPU_MODE_PROBE, list, n)) return -1;
    gpu_stats_t keep = g->stats;
    struct gpu_timing *tm = g->tm;      /* a probe is a check, not simulated work */
    const uint8_t *ck = g->clip_keep;
    g->tm = NULL;
    g->clip_keep = NULL;
    gpu_queue_t *qs[] = {&g->q_prim, &g->q_vtx, &g->q_shv, &g->q_tri, &g->q_quad, &g->q_fs, &g->q_rop};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) qs[i]->stamp_off = 1;
    g->probe_hits = 0;
    g->probe_first_prim = 0;
    int rc = run(g);
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) qs[i]->stamp_off = 0;
    g->tm = tm;
    g->clip_keep = ck;
    g->stats = keep;
    g->draw = NULL;
    *frags = g->probe_hits;
    *first_prim = g->probe_first_prim;
    return rc;
}

int gpu_project(gpu_t *g, const gpu_draw_t *d, const gpu_prim_req_t *list, size_t n, gpu_projected_t *out)
{
    if (draw_begin(g, d, GPU_MODE_PROJECT, list, n)) return -1;
    gpu_projected_t *save = g->proj_out;
    size_t save_cap = g->proj_cap;
    g->proj_out = out;
    g->proj_n = 0;
    g->proj_cap = n;
    if (g->tm && g->tm->proj_cap < n) {
        uint64_t *np = realloc(g->tm->proj_t, (n ? n : 1) * sizeof *np);
        if (!np) {
            snprintf(g->err, sizeof g->err, "out of memory");
            return -1;
        }
        g->tm->proj_t = np;
        g->tm->proj_cap = n;
    }
    int rc = run(g);
    g->proj_out = save;
    g->proj_cap = save_cap;
    g->draw = NULL;
    return rc;
}
