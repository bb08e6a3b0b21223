/* The per-GPU pipeline: units with explicit queues, stepped back to front (see gpu.h). This file holds the
 * GPU instance, its surfaces, clears, draw checks and the run loop; the unit steps are in gpu_geom.c and
 * gpu_pixel.c (gpu_units.h). */
#include "gpu/gpu_units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/frag.h"

#define Q_PRIM_CAP 64
#define Q_VTX_CAP  16
#define Q_SHV_CAP  16
#define Q_TRI_CAP  32
#define Q_QUAD_CAP 64
#define Q_FS_CAP   64
#define Q_ROP_CAP  64

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
    if ((int)fmt < 0 || (int)fmt >= GPU_FMT_COUNT) return -1;
    gpu_surface_t *s = &g->surf[g->n_surf];
    s->data = calloc((size_t)w * h * gpu_fmt_words(fmt), sizeof(uint32_t));
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
    if (init) memcpy(s->data, init, (size_t)w * h * gpu_fmt_words(fmt) * sizeof(uint32_t));
    return (int)g->n_surf++;
}

int gpu_add_surface_nodata(gpu_t *g, uint32_t w, uint32_t h, gpu_format_t fmt)
{
    if (g->n_surf >= GPU_MAX_SURFACES || w == 0 || h == 0 || w > P2G_MAX_DIM || h > P2G_MAX_DIM) return -1;
    if ((int)fmt < 0 || (int)fmt >= GPU_FMT_COUNT) return -1;
    gpu_surface_t *s = &g->surf[g->n_surf];
    uint32_t tiles = ((w + (1u << g->tile_log2) - 1) >> g->tile_log2) * ((h + (1u << g->tile_log2) - 1) >> g->tile_log2);
    g->dirty[g->n_surf] = calloc(tiles, 1);
    if (!g->dirty[g->n_surf]) return -1;
    s->data = NULL;
    s->w = w;
    s->h = h;
    s->fmt = fmt;
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

p2g_config_t gpu_own_cfg(const gpu_t *g, uint32_t w, uint32_t h)
{
    p2g_config_t c = p2g_config_default(g->n_gpus, w, h);
    c.tile_log2 = g->tile_log2;
    c.mode = g->own_mode;
    return c;
}

uint32_t gpu_pixel_owner(const gpu_t *g, uint32_t w, uint32_t h, uint32_t x, uint32_t y)
{
    if (g->n_gpus <= 1) return 0;
    p2g_config_t c = gpu_own_cfg(g, w, h);
    return p2g_owner(&c, x >> g->tile_log2, y >> g->tile_log2);
}

int gpu_owns_tile(const gpu_t *g, const gpu_surface_t *s, uint32_t tx, uint32_t ty)
{
    if (g->n_gpus <= 1) return 1;
    p2g_config_t c = gpu_own_cfg(g, s->w, s->h);
    return p2g_owner(&c, tx, ty) == g->id;
}

/* The rectangle a clear writes: the whole surface, cut to the scissor (sx, sy, sw x sh) when it has an area.
 * 64-bit: a scissor origin near INT32_MAX must not overflow. */
static void clear_rect(const gpu_surface_t *s, int32_t sx, int32_t sy, uint32_t sw, uint32_t sh, int32_t *x0,
                       int32_t *y0, int32_t *x1, int32_t *y1)
{
    *x0 = 0, *y0 = 0, *x1 = (int32_t)s->w - 1, *y1 = (int32_t)s->h - 1;
    if (sw > 0 && sh > 0) {
        if (sx > *x0) *x0 = sx;
        if (sy > *y0) *y0 = sy;
        if ((int64_t)sx + sw - 1 < *x1) *x1 = (int32_t)((int64_t)sx + sw - 1);
        if ((int64_t)sy + sh - 1 < *y1) *y1 = (int32_t)((int64_t)sy + sh - 1);
    }
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
    int32_t x0, y0, x1, y1;
    clear_rect(s, sx, sy, sw, sh, &x0, &y0, &x1, &y1);
    if (gpu_fmt_is_float(s->fmt)) {
        snprintf(g->err, sizeof g->err, "clear: surface %d has a floating-point format (gpu_clear_float)", (int)surface);
        return -1;
    }
    uint32_t keep = 0;
    if (s->fmt == GPU_FMT_RGBA8) {
        for (int c = 0; c < 4; c++)
            if (!(color_mask & (1u << c))) keep |= 0xFFu << (8 * c);
    } else {
        value &= GPU_DEPTH_MAX;
    }
    for (int32_t y = y0; y <= y1 && s->data; y++)
        for (int32_t x = x0; x <= x1; x++) {
            uint32_t *p = &s->data[(size_t)y * s->w + (size_t)x];
            *p = (*p & keep) | (value & ~keep);
        }
    g->stats.clears++;
    return 0;
}

int gpu_clear_float(gpu_t *g, int32_t surface, const float color[4], uint8_t color_mask,
                    int32_t sx, int32_t sy, uint32_t sw, uint32_t sh)
{
    if (surface < 0 || (uint32_t)surface >= g->n_surf || !gpu_fmt_is_float(g->surf[surface].fmt) || g->surf[surface].shared) {
        snprintf(g->err, sizeof g->err, "clear: surface %d is not a writable floating-point colour surface", (int)surface);
        return -1;
    }
    gpu_surface_t *s = &g->surf[surface];
    gpu_surface_changed(g, surface);
    int32_t x0, y0, x1, y1;
    clear_rect(s, sx, sy, sw, sh, &x0, &y0, &x1, &y1);
    uint32_t wpt = gpu_fmt_words(s->fmt);
    for (int32_t y = y0; y <= y1 && s->data; y++)
        for (int32_t x = x0; x <= x1; x++) {
            uint32_t *p = &s->data[((size_t)y * s->w + (size_t)x) * wpt];
            float c[4];
            gpu_texel_decode(s->fmt, p, c);
            for (int k = 0; k < 4; k++)
                if (color_mask & (1u << k)) c[k] = color[k];
            gpu_texel_encode(s->fmt, c, p);
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
    if (d->n_attribs == 0 || d->n_attribs > GPU_MAX_ATTRIBS) return "attribute count out of range (1..16)";
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
        if (g->surf[s].fmt != GPU_FMT_RGBA8 && !gpu_fmt_is_float(g->surf[s].fmt)) return "colour render target is not a colour surface";
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
                g->probe_hits += (uint64_t)pc4(q->cover);
                gpu_queue_pop(&g->q_quad);
                p = 1;
            }
            if ((r = gpu_rast_step(g, &u)) < 0) return -1;
            p |= r;
        }
        if (g->mode == GPU_MODE_RENDER) {
            if ((r = gpu_rop_step(g, &u)) < 0) return -1;
            p |= r;
            if ((r = gpu_fs_step(g)) < 0) return -1;
            p |= r;
            if ((r = gpu_ez_step(g, &u)) < 0) return -1;
            p |= r;
            if ((r = gpu_rast_step(g, &u)) < 0) return -1;
            p |= r;
        }
        if ((r = gpu_clip_step(g)) < 0) return -1;
        p |= r;
        if ((r = gpu_vs_step(g)) < 0) return -1;
        p |= r;
        if ((r = gpu_vf_step(g)) < 0) return -1;
        p |= r;
        p |= gpu_cp_step(g);
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
    g->rec_draw = NULL;
    if (g->rec_mode && mode != GPU_MODE_PROBE) {
        g->rec_draw = frec_draw_of(g->rec, d);
        if (!g->rec_draw) {
            snprintf(g->err, sizeof g->err, "frame record: the draw is not a command of the recorded frame");
            return -1;
        }
        if (g->rec_mode == FREC_RECORD && g->rec_draw->need_in && mode == GPU_MODE_RENDER) {
            uint32_t w, h;      /* per tile: the live quads seen in this draw */
            gpu_target_size(g, d, &w, &h);
            size_t n_t = (size_t)((w + (1u << FREC_IN_TILE_LOG2) - 1) >> FREC_IN_TILE_LOG2) * ((h + (1u << FREC_IN_TILE_LOG2) - 1) >> FREC_IN_TILE_LOG2);
            if (n_t > g->rec->in_count_n) {
                uint8_t *c = realloc(g->rec->in_count, n_t);
                if (!c) {
                    snprintf(g->err, sizeof g->err, "out of memory");
                    return -1;
                }
                g->rec->in_count = c;
                g->rec->in_count_n = n_t;
            }
            memset(g->rec->in_count, 0, g->rec->in_count_n);
        }
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
    int rm = g->rec_mode;
    if (rm == FREC_REPLAY) {
        snprintf(g->err, sizeof g->err, "frame record: a coverage probe needs the executed model (no replay)");
        return -1;
    }
    g->tm = NULL;
    g->clip_keep = NULL;
    g->rec_mode = FREC_OFF;     /* a probe is a check: not part of the frame's record */
    gpu_queue_t *qs[] = {&g->q_prim, &g->q_vtx, &g->q_shv, &g->q_tri, &g->q_quad, &g->q_fs, &g->q_rop};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) qs[i]->stamp_off = 1;
    g->probe_hits = 0;
    g->probe_first_prim = 0;
    int rc = run(g);
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) qs[i]->stamp_off = 0;
    g->tm = tm;
    g->clip_keep = ck;
    g->rec_mode = rm;
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
