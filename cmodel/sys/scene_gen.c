#include "sys/scene_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"

/* xorshift64* steps of common/rng.h; the state is seeded here directly (not through rng_seed), so the
 * synthetic scenes stay what they were. */
typedef rng_t sg_rng_t;

static float sg_f(sg_rng_t *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)((rng_u64(r) >> 40) * (1.0 / 16777216.0));
}


/* MVP = perspective(fovy 60, aspect, near 0.5, far 60) * translate(tx, ty, tz), rows in c[0..3] */
static void set_mvp(gpu_draw_t *d, float aspect, float tx, float ty, float tz)
{
    float f = 1.0f / tanf(30.0f * 3.14159265f / 180.0f), n = 0.5f, fa = 60.0f;
    float P[4][4] = {{f / aspect, 0, 0, 0}, {0, f, 0, 0}, {0, 0, (fa + n) / (n - fa), 2 * fa * n / (n - fa)}, {0, 0, -1, 0}};
    float T[4][4] = {{1, 0, 0, tx}, {0, 1, 0, ty}, {0, 0, 1, tz}, {0, 0, 0, 1}};
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            float a = 0;
            for (int k = 0; k < 4; k++) a += P[r][k] * T[k][c];
            d->vs_consts[r][c] = a;
        }
}

static void set_ortho(gpu_draw_t *d)
{
    memset(&d->vs_consts[0][0], 0, sizeof(float) * 16);   /* the 4 MVP rows */
    d->vs_consts[0][0] = d->vs_consts[1][1] = d->vs_consts[2][2] = d->vs_consts[3][3] = 1.0f;
}

/* vertex buffer: 3 attributes (pos, colour, texcoord) */
static float *mk_verts(sys_scene_t *s, uint32_t n)
{
    return sys_scene_own(s, calloc((size_t)n * 12, sizeof(float)));
}

static void put_vert(float *v, uint32_t i, const float p[3], const float c[4], float u, float t)
{
    float *o = &v[(size_t)i * 12];
    o[0] = p[0]; o[1] = p[1]; o[2] = p[2]; o[3] = 1.0f;
    memcpy(o + 4, c, 4 * sizeof(float));
    o[8] = u; o[9] = t; o[10] = 0; o[11] = 1;
}

static void base_draw(gpu_draw_t *d, float *verts, uint32_t nv, int32_t rt, uint32_t w, uint32_t h)
{
    memset(d, 0, sizeof *d);
    d->attribs = verts;
    d->n_vertices = nv;
    d->n_attribs = 3;
    d->n_varyings = 2;
    d->vs_kind = GPU_VS_MVP;
    d->fs_kind = GPU_FS_COLOR;
    d->st = gpu_state_default(rt, w, h);
}

static void rand_color(sg_rng_t *r, float c[4], float alpha)
{
    c[0] = sg_f(r, 0.05f, 1.0f);
    c[1] = sg_f(r, 0.05f, 1.0f);
    c[2] = sg_f(r, 0.05f, 1.0f);
    c[3] = alpha;
}

/* a draw of `n` random 3D triangles as topology topo */
static int rand_draw(sys_scene_t *s, sg_rng_t *r, uint32_t frame, int32_t rt, int32_t depth, uint32_t w, uint32_t h,
                     uint32_t n, gpu_topo_t topo, int indexed, float size)
{
    uint32_t nv = topo == GPU_TOPO_TRIANGLES ? 3 * n : topo == GPU_TOPO_LINES ? 2 * n
                : (topo == GPU_TOPO_POINTS || topo == GPU_TOPO_LINE_LOOP) ? n : topo == GPU_TOPO_LINE_STRIP ? n + 1 : n + 2;
    float *v = mk_verts(s, nv);
    if (!v) return -1;
    float cx = sg_f(r, -8, 8), cy = sg_f(r, -6, 6), cz = sg_f(r, -30, -1);
    for (uint32_t i = 0; i < nv; i++) {
        float p[3], c[4];
        if (topo == GPU_TOPO_TRIANGLES && i % 3 == 0) { cx = sg_f(r, -8, 8); cy = sg_f(r, -6, 6); cz = sg_f(r, -30, 0.3f); }
        if (topo != GPU_TOPO_TRIANGLES) { cx += sg_f(r, -size, size) * 0.5f; cy += sg_f(r, -size, size) * 0.5f; }
        p[0] = cx + sg_f(r, -size, size);
        p[1] = cy + sg_f(r, -size, size);
        p[2] = cz + sg_f(r, -size, size);
        rand_color(r, c, sg_f(r, 0.3f, 1.0f));
        put_vert(v, i, p, c, sg_f(r, 0, 1), sg_f(r, 0, 1));
    }
    sys_cmd_t *c = sys_scene_add_cmd(s, frame);
    if (!c) return -1;
    c->kind = SYS_CMD_DRAW;
    base_draw(&c->draw, v, nv, rt, w, h);
    c->draw.topo = topo;
    c->draw.first = 0;
    c->draw.count = nv;
    if (topo == GPU_TOPO_TRI_FAN) {
        /* fan: vertex 0 in the middle */
        float *o = &v[0];
        o[0] = cx; o[1] = cy;
    }
    if (indexed) {
        uint32_t *ix = sys_scene_own(s, malloc((size_t)(nv + 1) * sizeof *ix));
        if (!ix) return -1;
        ix[0] = 0;   /* padding: draw starts at index 1 */
        for (uint32_t i = 0; i < nv; i++) ix[i + 1] = i;
        /* reverse pairs of whole triangles for lists to exercise real indexing */
        if (topo == GPU_TOPO_TRIANGLES)
            for (uint32_t t = 0; t + 1 < n; t += 2)
                for (int k = 0; k < 3; k++) {
                    uint32_t a = 1 + 3 * t + k, b = 1 + 3 * (t + 1) + k, tmp = ix[a];
                    ix[a] = ix[b];
                    ix[b] = tmp;
                }
        c->draw.indices = ix;
        c->draw.n_indices = nv + 1;
        c->draw.first = 1;
    }
    set_mvp(&c->draw, (float)w / (float)h, 0, 0, 0);
    if (depth >= 0) {
        c->draw.st.depth_rt = depth;
        c->draw.st.depth_test = 1;
        c->draw.st.depth_write = 1;
        c->draw.st.depth_func = GPU_CMP_LESS;
    }
    c->src_index = (uint32_t)s->frames[frame].n - 1;
    return 0;
}

static sys_cmd_t *clear(sys_scene_t *s, uint32_t frame, int32_t surf, uint32_t value)
{
    sys_cmd_t *c = sys_scene_add_cmd(s, frame);
    if (!c) return NULL;
    c->kind = SYS_CMD_CLEAR;
    c->surface = surf;
    c->value = value;
    c->mask = 0xF;
    return c;
}

/* a screen-aligned quad in NDC [x0,x1]x[y0,y1] at depth z, as a 2-triangle strip */
static sys_cmd_t *quad(sys_scene_t *s, uint32_t frame, int32_t rt, uint32_t w, uint32_t h, float x0, float y0,
                       float x1, float y1, float z, const float col[4])
{
    float *v = mk_verts(s, 4);
    if (!v) return NULL;
    float p[4][3] = {{x0, y0, z}, {x1, y0, z}, {x0, y1, z}, {x1, y1, z}};
    float uv[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    for (int i = 0; i < 4; i++) put_vert(v, (uint32_t)i, p[i], col, uv[i][0], uv[i][1]);
    sys_cmd_t *c = sys_scene_add_cmd(s, frame);
    if (!c) return NULL;
    c->kind = SYS_CMD_DRAW;
    base_draw(&c->draw, v, 4, rt, w, h);
    c->draw.topo = GPU_TOPO_TRI_STRIP;
    c->draw.count = 4;
    set_ortho(&c->draw);
    c->src_index = (uint32_t)s->frames[frame].n - 1;
    return c;
}

static int scene_tris(sys_scene_t *s, uint32_t w, uint32_t h, uint32_t prims, sg_rng_t *r)
{
    int32_t col = sys_scene_add_surface(s, w, h, GPU_FMT_RGBA8, NULL);
    int32_t dep = sys_scene_add_surface(s, w, h, GPU_FMT_DEPTH24, NULL);
    if (col < 0 || dep < 0) return -1;
    s->display = col;
    if (!clear(s, 0, col, 0xFF402010u) || !clear(s, 0, dep, GPU_DEPTH_MAX)) return -1;
    uint32_t per = prims / 12 ? prims / 12 : 1;
    for (int i = 0; i < 12; i++) {
        gpu_topo_t topo = (gpu_topo_t)(i % 3);
        if (rand_draw(s, r, 0, col, dep, w, h, per, topo, i % 2, i < 6 ? 3.0f : 0.8f)) return -1;
        sys_cmd_t *c = &s->frames[0].cmds[s->frames[0].n - 1];
        if (i % 4 == 1) c->draw.st.cull = GPU_CULL_BACK;
        if (i % 4 == 3) {
            c->draw.st.blend[0] = (gpu_blend_t){1, GPU_BEQ_ADD, GPU_BEQ_ADD, GPU_BF_SRC_ALPHA, GPU_BF_ONE_MINUS_SRC_ALPHA,
                                                GPU_BF_ONE, GPU_BF_ONE_MINUS_SRC_ALPHA};
            c->draw.st.depth_write = 0;
            c->draw.st.depth_func = GPU_CMP_LEQUAL;
        }
        if (i == 7) c->draw.fs_kind = GPU_FS_FLAT, c->draw.fs_consts[0][0] = 0.9f, c->draw.fs_consts[0][1] = 0.9f,
                    c->draw.fs_consts[0][3] = 1.0f;
    }
    return 0;
}

static int scene_rtt(sys_scene_t *s, uint32_t w, uint32_t h, sg_rng_t *r)
{
    int32_t col = sys_scene_add_surface(s, w, h, GPU_FMT_RGBA8, NULL);
    int32_t dep = sys_scene_add_surface(s, w, h, GPU_FMT_DEPTH24, NULL);
    int32_t off = sys_scene_add_surface(s, 128, 128, GPU_FMT_RGBA8, NULL);
    int32_t offd = sys_scene_add_surface(s, 128, 128, GPU_FMT_DEPTH24, NULL);
    int32_t mrt1 = sys_scene_add_surface(s, w, h, GPU_FMT_RGBA8, NULL);
    int32_t acc = sys_scene_add_surface(s, 96, 96, GPU_FMT_RGBA8, NULL);
    uint32_t *tex = sys_scene_own(s, malloc(64 * 64 * 4));
    int32_t img = tex ? sys_scene_add_surface(s, 64, 64, GPU_FMT_RGBA8, tex) : -1;
    if (col < 0 || dep < 0 || off < 0 || offd < 0 || mrt1 < 0 || acc < 0 || img < 0) return -1;
    for (uint32_t i = 0; i < 64 * 64; i++) {
        uint32_t x = i % 64, y = i / 64;
        uint32_t a = ((x / 8 + y / 8) & 1) ? 0xFFu : 0x40u;
        tex[i] = (a << 24) | ((x * 4) << 16) | ((y * 4) << 8) | 0x80u;
    }
    s->display = col;
    for (uint32_t f = 0; f < 2; f++) {
        /* pass 1: offscreen scene */
        if (!clear(s, f, off, 0xFF000000u | (f ? 0x202000u : 0x200020u)) || !clear(s, f, offd, GPU_DEPTH_MAX)) return -1;
        for (int i = 0; i < 3; i++)
            if (rand_draw(s, r, f, off, offd, 128, 128, 40, (gpu_topo_t)i, i == 1, 2.0f)) return -1;
        /* accumulation target: never cleared, additive blend (frame f reads frame f-1's result) */
        float qc[4] = {0.1f, 0.05f * (float)(f + 1), 0.2f, 1.0f};
        sys_cmd_t *c = quad(s, f, acc, 96, 96, -0.8f + 0.2f * (float)f, -0.8f, 0.6f, 0.5f, 0.0f, qc);
        if (!c) return -1;
        c->draw.st.blend[0] = (gpu_blend_t){1, GPU_BEQ_ADD, GPU_BEQ_ADD, GPU_BF_ONE, GPU_BF_ONE, GPU_BF_ONE, GPU_BF_ONE};
        /* main pass */
        if (!clear(s, f, col, 0xFF101010u) || !clear(s, f, dep, GPU_DEPTH_MAX) || !clear(s, f, mrt1, 0)) return -1;
        if (rand_draw(s, r, f, col, dep, w, h, 60, GPU_TOPO_TRIANGLES, 0, 2.5f)) return -1;
        /* sample the offscreen target (RAW dependency -> sync) */
        float white[4] = {1, 1, 1, 1};
        c = quad(s, f, col, w, h, -0.9f, -0.9f, 0.1f, 0.3f, 0.5f, white);
        if (!c) return -1;
        c->draw.fs_kind = GPU_FS_TEXTURE_MODULATE;
        c->draw.n_varyings = 2;
        c->draw.st.tex[0] = off;
        c->draw.st.tex_filter[0] = GPU_FILTER_LINEAR;
        c->draw.st.tex_wrap[0] = GPU_WRAP_CLAMP;
        c->draw.st.depth_rt = dep;
        c->draw.st.depth_test = 1;
        c->draw.st.depth_write = 1;
        c->draw.st.depth_func = GPU_CMP_LESS;
        /* sample the offscreen depth as a texture, nearest, repeat, scissored */
        c = quad(s, f, col, w, h, 0.2f, -0.95f, 0.95f, -0.2f, 0.2f, white);
        if (!c) return -1;
        c->draw.fs_kind = GPU_FS_TEXTURE;
        c->draw.n_varyings = 2;
        /* texcoords of vertex 2 are in attribute 2: route them to varying 0 */
        {
            float *v = (float *)c->draw.attribs;
            for (int i = 0; i < 4; i++) { v[i * 12 + 4] = v[i * 12 + 8] * 2.0f; v[i * 12 + 5] = v[i * 12 + 9] * 2.0f; }
        }
        c->draw.st.tex[0] = offd;
        c->draw.st.scissor_enable = 1;
        c->draw.st.sc_x = (int32_t)(w / 2);
        c->draw.st.sc_y = 3;
        c->draw.st.sc_w = w / 3;
        c->draw.st.sc_h = h / 3;
        /* textured with alpha discard from a static image */
        c = quad(s, f, col, w, h, -0.3f, 0.1f, 0.7f, 0.95f, -0.2f, white);
        if (!c) return -1;
        c->draw.fs_kind = GPU_FS_DISCARD_ALPHA;
        {
            float *v = (float *)c->draw.attribs;
            for (int i = 0; i < 4; i++) { v[i * 12 + 4] = v[i * 12 + 8] * 3.0f; v[i * 12 + 5] = v[i * 12 + 9] * 3.0f; }
        }
        c->draw.fs_consts[0][0] = 0.5f;
        c->draw.st.tex[0] = img;
        c->draw.st.depth_rt = dep;
        c->draw.st.depth_test = 1;
        c->draw.st.depth_write = 1;
        c->draw.st.depth_func = GPU_CMP_LESS;
        /* MRT with colour masks and a fragment depth write */
        float mc[4] = {0.9f, 0.3f, 0.1f, 0.7f};
        c = quad(s, f, col, w, h, 0.3f, 0.3f, 0.9f, 0.9f, 0.0f, mc);
        if (!c) return -1;
        c->draw.fs_kind = GPU_FS_DEPTH_WRITE;
        {
            float *v = (float *)c->draw.attribs;
            for (int i = 0; i < 4; i++) v[i * 12 + 8] = 0.1f + 0.25f * (float)i;   /* varying 1 .x = depth */
        }
        c->draw.st.rt[1] = mrt1;
        c->draw.st.color_mask[0] = 0x5;   /* R and B only */
        c->draw.st.color_mask[1] = 0xF;
        c->draw.st.depth_rt = dep;
        c->draw.st.depth_test = 1;
        c->draw.st.depth_write = 1;
        c->draw.st.depth_func = GPU_CMP_LEQUAL;
        /* show the MRT second target and the accumulation target */
        c = quad(s, f, col, w, h, -0.95f, 0.4f, -0.4f, 0.95f, 0.0f, white);
        if (!c) return -1;
        c->draw.fs_kind = GPU_FS_TEXTURE;
        {
            float *v = (float *)c->draw.attribs;
            for (int i = 0; i < 4; i++) { v[i * 12 + 4] = v[i * 12 + 8]; v[i * 12 + 5] = v[i * 12 + 9]; }
        }
        c->draw.st.tex[0] = acc;
        c->draw.st.tex_filter[0] = GPU_FILTER_LINEAR;
        c = quad(s, f, col, w, h, 0.45f, -0.15f, 0.95f, 0.25f, 0.0f, white);
        if (!c) return -1;
        c->draw.fs_kind = GPU_FS_TEXTURE;
        {
            float *v = (float *)c->draw.attribs;
            for (int i = 0; i < 4; i++) { v[i * 12 + 4] = v[i * 12 + 8]; v[i * 12 + 5] = v[i * 12 + 9]; }
        }
        c->draw.st.tex[0] = mrt1;
    }
    return 0;
}

/* Lines and points (docs/golden-model.md 1.1): line lists, strips and loops of widths 1..6 and points of
 * sizes 1..9 (odd and even), random 3D positions (some crossing the near plane), depth tested, a few
 * blended, behind a background of triangles: every scheme must give the same pixels and every P2G mask
 * must hold (--check-masks) for wide primitives across tile borders. */
static int scene_lines(sys_scene_t *s, uint32_t w, uint32_t h, uint32_t prims, sg_rng_t *r)
{
    int32_t col = sys_scene_add_surface(s, w, h, GPU_FMT_RGBA8, NULL);
    int32_t dep = sys_scene_add_surface(s, w, h, GPU_FMT_DEPTH24, NULL);
    if (col < 0 || dep < 0) return -1;
    s->display = col;
    if (!clear(s, 0, col, 0xFF201008u) || !clear(s, 0, dep, GPU_DEPTH_MAX)) return -1;
    uint32_t per = prims / 14 ? prims / 14 : 1;
    if (rand_draw(s, r, 0, col, dep, w, h, per, GPU_TOPO_TRIANGLES, 0, 2.0f)) return -1;
    if (rand_draw(s, r, 0, col, dep, w, h, per, GPU_TOPO_TRI_STRIP, 1, 1.0f)) return -1;
    static const gpu_topo_t topo[4] = {GPU_TOPO_LINES, GPU_TOPO_LINE_STRIP, GPU_TOPO_LINE_LOOP, GPU_TOPO_POINTS};
    for (int i = 0; i < 12; i++) {
        gpu_topo_t t = topo[i % 4];
        if (rand_draw(s, r, 0, col, dep, w, h, per, t, i % 3 == 1, t == GPU_TOPO_POINTS ? 4.0f : 2.5f)) return -1;
        sys_cmd_t *c = &s->frames[0].cmds[s->frames[0].n - 1];
        c->draw.st.line_width = 1.0f + (float)(i % 6) * (i >= 6 ? 1.0f : 0.75f);   /* 1 .. 6, halves included */
        c->draw.st.point_size = 1.0f + (float)i * 0.75f;                           /* 1 .. 9.25 */
        if (i % 5 == 4) {
            c->draw.st.blend[0] = (gpu_blend_t){1, GPU_BEQ_ADD, GPU_BEQ_ADD, GPU_BF_SRC_ALPHA, GPU_BF_ONE_MINUS_SRC_ALPHA,
                                                GPU_BF_ONE, GPU_BF_ONE_MINUS_SRC_ALPHA};
            c->draw.st.depth_write = 0;
        }
        if (i % 4 == 2) c->draw.st.cull = GPU_CULL_BACK;   /* no effect on lines and points (GL) */
    }
    return 0;
}

static int scene_big(sys_scene_t *s, uint32_t w, uint32_t h, uint32_t prims, sg_rng_t *r)
{
    int32_t col = sys_scene_add_surface(s, w, h, GPU_FMT_RGBA8, NULL);
    int32_t dep = sys_scene_add_surface(s, w, h, GPU_FMT_DEPTH24, NULL);
    if (col < 0 || dep < 0) return -1;
    s->display = col;
    if (!clear(s, 0, col, 0xFF000000u) || !clear(s, 0, dep, GPU_DEPTH_MAX)) return -1;
    uint32_t left = prims;
    for (int i = 0; left; i++) {
        uint32_t n = left > 3000 ? 3000 : left;
        if (rand_draw(s, r, 0, col, dep, w, h, n, GPU_TOPO_TRIANGLES, 1, 0.5f)) return -1;
        s->frames[0].cmds[s->frames[0].n - 1].draw.st.cull = GPU_CULL_BACK;
        left -= n;
    }
    return 0;
}

int sys_scene_synth(sys_scene_t *s, const char *name, uint32_t w, uint32_t h, uint32_t prims, uint64_t seed)
{
    sys_scene_init(s);
    if (w < 8 || h < 8 || w > 8192 || h > 8192) return -1;
    sg_rng_t r = {seed * 0x9E3779B97F4A7C15ull + 0x1234567ull};
    if (!r.s) r.s = 1;
    int rc;
    if (!strcmp(name, "tris")) rc = scene_tris(s, w, h, prims ? prims : 600, &r);
    else if (!strcmp(name, "rtt")) rc = scene_rtt(s, w, h, &r);
    else if (!strcmp(name, "big")) rc = scene_big(s, w, h, prims ? prims : 20000, &r);
    else if (!strcmp(name, "lines")) rc = scene_lines(s, w, h, prims ? prims : 1400, &r);
    else rc = -1;
    if (rc) sys_scene_free(s);
    return rc;
}
