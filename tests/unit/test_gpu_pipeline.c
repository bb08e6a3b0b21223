/* The per-GPU pipeline end to end and its units: queues, vertex fetch (lists, strips, fans, indexed),
 * clears and colour masks, depth test and write, blending, MRT, texture sampling, alpha test, discard,
 * screen ownership, early vs late Z. Expected pixels are computed by hand from the inputs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/clip.h"
#include "gpu/frag.h"
#include "gpu/gpu.h"

#define W 64
#define H 64

static void test_queue(void **state)
{
    (void)state;
    gpu_queue_t q;
    assert_int_equal(gpu_queue_init(&q, sizeof(uint32_t), 3), 0);
    for (uint32_t i = 0; i < 3; i++) assert_int_equal(gpu_queue_push(&q, &i), 0);
    uint32_t x = 9;
    assert_int_equal(gpu_queue_push(&q, &x), -1);            /* full: back-pressure */
    for (uint32_t round = 0; round < 10; round++) {          /* FIFO order across wrap-around */
        uint32_t *f = gpu_queue_front(&q);
        assert_non_null(f);
        assert_int_equal(*f, round);
        gpu_queue_pop(&q);
        uint32_t v = round + 3;
        assert_int_equal(gpu_queue_push(&q, &v), 0);
    }
    assert_int_equal(gpu_queue_count(&q), 3);
    assert_int_equal(q.high_water, 3);
    gpu_queue_free(&q);
}

static void test_fetch_topologies(void **state)
{
    (void)state;
    gpu_draw_t d;
    memset(&d, 0, sizeof d);
    d.n_vertices = 10;
    d.count = 6;
    uint32_t v[3];
    d.topo = GPU_TOPO_TRI_STRIP;
    assert_int_equal(gpu_draw_prim_count(&d), 4);
    assert_int_equal(gpu_fetch_triangle(&d, 0, v), 0);
    assert_true(v[0] == 0 && v[1] == 1 && v[2] == 2);
    assert_int_equal(gpu_fetch_triangle(&d, 1, v), 0);
    assert_true(v[0] == 2 && v[1] == 1 && v[2] == 3);          /* odd strip triangles keep the winding */
    d.topo = GPU_TOPO_TRI_FAN;
    assert_int_equal(gpu_fetch_triangle(&d, 3, v), 0);
    assert_true(v[0] == 0 && v[1] == 4 && v[2] == 5);
    d.topo = GPU_TOPO_TRIANGLES;
    assert_int_equal(gpu_draw_prim_count(&d), 2);
    d.first = 4;
    assert_int_equal(gpu_fetch_triangle(&d, 1, v), 0);
    assert_true(v[0] == 7 && v[1] == 8 && v[2] == 9);
    uint32_t ix[6] = {5, 4, 3, 2, 1, 99};
    d.indices = ix;
    d.n_indices = 6;
    d.first = 0;
    assert_int_equal(gpu_fetch_triangle(&d, 0, v), 0);
    assert_true(v[0] == 5 && v[1] == 4 && v[2] == 3);
    assert_int_equal(gpu_fetch_triangle(&d, 1, v), -1);       /* index 99 >= n_vertices */
}

/* a GPU with colour surface 0, depth surface 1, second colour surface 2, texture 3 (4x4) */
static void mk_gpu(gpu_t *g, uint32_t id, uint32_t n)
{
    assert_int_equal(gpu_init(g, id, n, P2G_MODE_DIAG, 3), 0);   /* 8x8 tiles */
    assert_int_equal(gpu_add_surface(g, W, H, GPU_FMT_RGBA8, NULL), 0);
    assert_int_equal(gpu_add_surface(g, W, H, GPU_FMT_DEPTH24, NULL), 1);
    assert_int_equal(gpu_add_surface(g, W, H, GPU_FMT_RGBA8, NULL), 2);
    uint32_t tex[16];
    for (int i = 0; i < 16; i++) tex[i] = 0xFF000000u | (uint32_t)(i * 16);   /* red = 16*i */
    assert_int_equal(gpu_add_surface(g, 4, 4, GPU_FMT_RGBA8, tex), 3);
}

/* full-screen quad at NDC depth z with per-vertex colour c (attr1) and texcoords (attr2) */
static float quad_v[4][3][4];
static gpu_draw_t quad_draw(float z, const float c[4])
{
    float p[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    for (int i = 0; i < 4; i++) {
        quad_v[i][0][0] = p[i][0]; quad_v[i][0][1] = p[i][1]; quad_v[i][0][2] = z; quad_v[i][0][3] = 1;
        memcpy(quad_v[i][1], c, 16);
        quad_v[i][2][0] = (p[i][0] + 1) / 2; quad_v[i][2][1] = (p[i][1] + 1) / 2; quad_v[i][2][2] = 0; quad_v[i][2][3] = 1;
    }
    gpu_draw_t d;
    memset(&d, 0, sizeof d);
    d.topo = GPU_TOPO_TRI_STRIP;
    d.count = 4;
    d.attribs = &quad_v[0][0][0];
    d.n_vertices = 4;
    d.n_attribs = 3;
    d.n_varyings = 2;
    d.vs_kind = GPU_VS_MVP;
    d.vs_consts[0][0] = d.vs_consts[1][1] = d.vs_consts[2][2] = d.vs_consts[3][3] = 1;
    d.fs_kind = GPU_FS_COLOR;
    d.st = gpu_state_default(0, W, H);
    return d;
}

static int render_all(gpu_t *g, const gpu_draw_t *d)
{
    gpu_prim_req_t l[64];
    uint32_t n = gpu_draw_prim_count(d);
    for (uint32_t i = 0; i < n; i++) { l[i].prim = i; l[i].tag = i; }
    int rc = gpu_render(g, d, l, n);
    if (rc && !strstr(g->err, "feedback")) fprintf(stderr, "render error: %s\n", g->err);   /* unexpected */
    return rc;
}

static uint32_t px(const gpu_t *g, int s, int x, int y) { return g->surf[s].data[y * (int)g->surf[s].w + x]; }

static void test_clear_and_mask(void **state)
{
    (void)state;
    gpu_t g;
    mk_gpu(&g, 0, 1);
    assert_int_equal(gpu_clear(&g, 0, 0x11223344u, 0xF, 0, 0, 0, 0), 0);
    assert_int_equal(px(&g, 0, 5, 7), 0x11223344u);
    assert_int_equal(gpu_clear(&g, 0, 0xAABBCCDDu, 0x5, 2, 2, 3, 3), 0);   /* R and B, scissored */
    assert_int_equal(px(&g, 0, 3, 3), 0x11BB33DDu);
    assert_int_equal(px(&g, 0, 5, 5), 0x11223344u);
    assert_int_equal(gpu_clear(&g, 9, 0, 0xF, 0, 0, 0, 0), -1);
    gpu_free(&g);
}

static void test_depth_and_blend(void **state)
{
    (void)state;
    gpu_t g;
    mk_gpu(&g, 0, 1);
    gpu_clear(&g, 0, 0xFF000000u, 0xF, 0, 0, 0, 0);
    gpu_clear(&g, 1, GPU_DEPTH_MAX, 0xF, 0, 0, 0, 0);
    float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 0.25f};
    gpu_draw_t a = quad_draw(0.0f, red);      /* window depth 0.5 */
    a.st.depth_rt = 1;
    a.st.depth_test = 1;
    a.st.depth_write = 1;
    a.st.depth_func = GPU_CMP_LESS;
    assert_int_equal(render_all(&g, &a), 0);
    assert_int_equal(px(&g, 0, 10, 10), 0xFF0000FFu);
    assert_int_equal(g.stats.fragments, W * H);
    /* the strip's shared diagonal y = x splits the 32 quads on it 2+2: 2 helpers per triangle each */
    assert_int_equal(g.stats.helpers, 32 * 4);
    assert_int_equal(g.stats.quads, (W / 2) * (H / 2) + 32);
    uint32_t dz = px(&g, 1, 10, 10);
    assert_true(dz >= 0x7FFFFE && dz <= 0x800001);
    /* behind: rejected by early Z */
    gpu_draw_t b = quad_draw(0.5f, green);
    b.st.depth_rt = 1; b.st.depth_test = 1; b.st.depth_write = 1; b.st.depth_func = GPU_CMP_LESS;
    assert_int_equal(render_all(&g, &b), 0);
    assert_int_equal(px(&g, 0, 10, 10), 0xFF0000FFu);
    assert_int_equal(g.stats.ez_killed, W * H);
    /* in front with src-alpha blending: 0.25 green over red = (0.75, 0.25, 0, a) */
    gpu_draw_t c = quad_draw(-0.5f, green);
    c.st.depth_rt = 1; c.st.depth_test = 1; c.st.depth_write = 0; c.st.depth_func = GPU_CMP_LESS;
    c.st.blend[0] = (gpu_blend_t){1, GPU_BEQ_ADD, GPU_BEQ_ADD, GPU_BF_SRC_ALPHA, GPU_BF_ONE_MINUS_SRC_ALPHA, GPU_BF_ZERO, GPU_BF_ONE};
    assert_int_equal(render_all(&g, &c), 0);
    uint32_t v = px(&g, 0, 30, 40);
    assert_int_equal(v & 0xFF, 191);          /* round(0.75*255) */
    assert_int_equal((v >> 8) & 0xFF, 64);    /* round(0.25*255) */
    assert_int_equal(v >> 24, 255);           /* alpha kept: ZERO*src + ONE*dst */
    assert_int_equal(px(&g, 1, 30, 40), dz);  /* depth write off */
    /* GREATER with late Z (alpha test forces it): only where the fragment is farther */
    gpu_draw_t e = quad_draw(0.9f, red);
    e.st.depth_rt = 1; e.st.depth_test = 1; e.st.depth_write = 1; e.st.depth_func = GPU_CMP_GREATER;
    e.st.alpha_test = 1; e.st.alpha_func = GPU_CMP_ALWAYS;
    e.st.color_mask[0] = 0x2;                 /* green only */
    g.stats.z_killed = 0;
    assert_int_equal(render_all(&g, &e), 0);
    assert_int_equal(g.stats.z_killed, 0);
    v = px(&g, 0, 30, 40);
    assert_int_equal(v & 0xFF, 191);          /* red untouched by the mask */
    assert_int_equal((v >> 8) & 0xFF, 0);     /* green written (0) */
    gpu_free(&g);
}

/* GL_DEPTH_CLAMP (gpu_state_t.depth_clamp): no near/far clipping, the fragment depth clamped to the depth
 * range. A quad wholly beyond the far (or near) plane draws nothing without it and every pixel with it, at
 * depth 1 (0); with glDepthRange(0.25, 0.75) at 0.25. A quad tilted through both planes (z = -3x) keeps only
 * its middle third (|x| <= 1/3) without, all of it with. CLIP's project mode agrees (culled vs sent). */
static void test_depth_clamp(void **state)
{
    (void)state;
    gpu_t g;
    mk_gpu(&g, 0, 1);
    gpu_clear(&g, 0, 0xFF000000u, 0xF, 0, 0, 0, 0);
    gpu_clear(&g, 1, GPU_DEPTH_MAX, 0xF, 0, 0, 0, 0);
    float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1};
    gpu_draw_t a = quad_draw(1.5f, red);
    a.st.depth_rt = 1; a.st.depth_test = 1; a.st.depth_write = 1; a.st.depth_func = GPU_CMP_ALWAYS;
    uint64_t f0 = g.stats.fragments;
    assert_int_equal(render_all(&g, &a), 0);
    assert_int_equal(g.stats.fragments - f0, 0);
    assert_int_equal(px(&g, 0, 10, 10), 0xFF000000u);
    a.st.depth_clamp = 1;
    f0 = g.stats.fragments;
    assert_int_equal(render_all(&g, &a), 0);
    assert_int_equal(g.stats.fragments - f0, W * H);
    assert_int_equal(px(&g, 0, 10, 10), 0xFF0000FFu);
    assert_int_equal(px(&g, 1, 10, 10), GPU_DEPTH_MAX);
    gpu_draw_t b = quad_draw(-1.5f, green);
    b.st.depth_rt = 1; b.st.depth_test = 1; b.st.depth_write = 1; b.st.depth_func = GPU_CMP_LESS;
    b.st.depth_clamp = 1;
    assert_int_equal(render_all(&g, &b), 0);
    assert_int_equal(px(&g, 0, 10, 10), 0xFF00FF00u);
    assert_int_equal(px(&g, 1, 10, 10), 0);
    gpu_clear(&g, 1, GPU_DEPTH_MAX, 0xF, 0, 0, 0, 0);
    b.st.depth_near = 0.25f; b.st.depth_far = 0.75f;
    quad_v[0][0][2] = -3.0f;   /* vertex 0 only: still wholly before the near plane */
    assert_int_equal(render_all(&g, &b), 0);
    assert_int_equal(px(&g, 1, 10, 10), (uint32_t)lrint(0.25 * GPU_DEPTH_MAX));
    /* tilted through both planes */
    for (int clamp = 0; clamp < 2; clamp++) {
        gpu_draw_t t = quad_draw(0.0f, red);
        for (int i = 0; i < 4; i++) quad_v[i][0][2] = -3.0f * quad_v[i][0][0];
        t.st.depth_clamp = (uint8_t)clamp;
        f0 = g.stats.fragments;
        assert_int_equal(render_all(&g, &t), 0);
        uint64_t n = g.stats.fragments - f0;
        if (clamp) assert_int_equal(n, W * H);
        else assert_true(n >= (uint64_t)(W / 3 - 2) * H && n <= (uint64_t)(W / 3 + 2) * H);
    }
    /* project mode (the CP phase): the quad beyond the far plane is culled without the clamp, sent with it */
    gpu_draw_t p = quad_draw(1.5f, red);
    gpu_shaded_tri_t st;
    memset(&st, 0, sizeof st);
    float pos[3][2] = {{-1, -1}, {1, -1}, {-1, 1}};
    for (int i = 0; i < 3; i++) { st.v[i][0][0] = pos[i][0]; st.v[i][0][1] = pos[i][1]; st.v[i][0][2] = 1.5f; st.v[i][0][3] = 1; }
    gpu_projected_t pr;
    gpu_screen_tri_t out[GPU_CLIP_MAX_OUT];
    assert_int_equal(gpu_clip_triangle(&p, &st, GPU_MODE_PROJECT, out, &pr), 1);
    assert_int_equal(pr.p2g.flags, P2G_FLAG_CULLED);
    p.st.depth_clamp = 1;
    assert_int_equal(gpu_clip_triangle(&p, &st, GPU_MODE_PROJECT, out, &pr), 1);
    assert_int_equal(pr.p2g.flags, 0);
    assert_int_equal(gpu_clip_triangle(&p, &st, GPU_MODE_RENDER, out, &pr), 1);
    gpu_free(&g);
}

static void test_mrt_texture_discard(void **state)
{
    (void)state;
    gpu_t g;
    mk_gpu(&g, 0, 1);
    float white[4] = {1, 1, 1, 1};
    gpu_draw_t d = quad_draw(0.0f, white);
    d.fs_kind = GPU_FS_TEXTURE_MODULATE;      /* tex0(varying1) * varying0 */
    d.st.tex[0] = 3;
    d.st.tex_filter[0] = GPU_FILTER_NEAREST;
    d.st.rt[1] = 2;
    assert_int_equal(render_all(&g, &d), 0);
    /* pixel (x,y) samples u = (x+.5)/64 -> texel floor(u*4) = x/16, same in y */
    for (int y = 0; y < H; y += 7)
        for (int x = 0; x < W; x += 5) {
            uint32_t want = 0xFF000000u | (uint32_t)(((y / 16) * 4 + x / 16) * 16);
            if (px(&g, 0, x, y) != want || px(&g, 2, x, y) != want)
                fail_msg("MRT/texture pixel (%d,%d): rt0 %08x rt1 %08x want %08x", x, y, px(&g, 0, x, y), px(&g, 2, x, y), want);
        }
    /* bilinear at the centre of texel (1,2) returns it exactly; between texels 0 and 1 the mean */
    float out[4];
    d.st.tex_filter[0] = GPU_FILTER_LINEAR;
    d.st.tex_wrap[0] = GPU_WRAP_CLAMP;
    gpu_tex_sample(&g, &d, 0, 1.5f / 4, 2.5f / 4, out);
    assert_true(fabsf(out[0] - (float)(9 * 16) / 255.0f) < 1e-6f);
    gpu_tex_sample(&g, &d, 0, 1.0f / 4, 0.5f / 4, out);
    assert_true(fabsf(out[0] - 8.0f / 255.0f) < 1e-6f);
    /* repeat wraps, clamp clamps */
    d.st.tex_filter[0] = GPU_FILTER_NEAREST;
    d.st.tex_wrap[0] = GPU_WRAP_REPEAT;
    gpu_tex_sample(&g, &d, 0, 1.0f + 0.5f / 4, 0.5f / 4, out);
    assert_true(out[0] == 0.0f);
    d.st.tex_wrap[0] = GPU_WRAP_CLAMP;
    gpu_tex_sample(&g, &d, 0, 1.0f + 0.5f / 4, 0.5f / 4, out);
    assert_true(fabsf(out[0] - 48.0f / 255.0f) < 1e-6f);
    /* discard below alpha: texture alpha is 1 everywhere -> nothing discarded at ref 0.5; all at ref 2 */
    gpu_draw_t k = quad_draw(0.0f, white);
    k.fs_kind = GPU_FS_DISCARD_ALPHA;
    k.st.tex[0] = 3;
    k.fs_consts[0][0] = 2.0f;
    gpu_clear(&g, 0, 0, 0xF, 0, 0, 0, 0);
    assert_int_equal(render_all(&g, &k), 0);
    assert_int_equal(g.stats.discarded, W * H);
    assert_int_equal(px(&g, 0, 3, 3), 0);
    /* a draw that samples its own target is rejected */
    k.st.tex[0] = 0;
    assert_int_equal(render_all(&g, &k), -1);
    assert_non_null(strstr(g.err, "feedback"));
    gpu_free(&g);
}

/* Two GPUs with 8x8 tiles, diag ownership: each writes exactly its own tiles; together the whole screen. */
static void test_ownership(void **state)
{
    (void)state;
    gpu_t g0, g1;
    mk_gpu(&g0, 0, 2);
    mk_gpu(&g1, 1, 2);
    float c[4] = {0.5f, 0.5f, 0.5f, 1};
    gpu_draw_t d = quad_draw(0.0f, c);
    assert_int_equal(render_all(&g0, &d), 0);
    assert_int_equal(render_all(&g1, &d), 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int owner = ((x / 8) + (y / 8)) % 2;
            uint32_t a = px(&g0, 0, x, y), b = px(&g1, 0, x, y);
            if ((a != 0) != (owner == 0) || (b != 0) != (owner == 1))
                fail_msg("pixel (%d,%d) owner %d: gpu0 %08x gpu1 %08x", x, y, owner, a, b);
        }
    assert_int_equal(g0.stats.fragments + g1.stats.fragments, W * H);
    gpu_free(&g0);
    gpu_free(&g1);
}

/* Post-transform vertex cache: a strip of 10 vertices shades each vertex once (8 triangles = 24 vertex
 * slots: 10 shaded, 14 from the cache); an indexed list that reuses 4 vertices 6 times shades 4. */
static void test_vertex_cache(void **state)
{
    (void)state;
    gpu_t g;
    mk_gpu(&g, 0, 1);
    static float v[10][3][4];
    for (int i = 0; i < 10; i++) {
        v[i][0][0] = -1.0f + 0.2f * (float)(i / 2); v[i][0][1] = (i & 1) ? 0.5f : -0.5f; v[i][0][3] = 1.0f;
        v[i][1][0] = v[i][1][3] = 1.0f;
    }
    gpu_draw_t d = quad_draw(0, (float[4]){1, 1, 1, 1});
    d.attribs = &v[0][0][0];
    d.n_vertices = 10;
    d.count = 10;
    assert_int_equal(render_all(&g, &d), 0);
    assert_int_equal(g.stats.vs_invocations, 10);
    assert_int_equal(g.stats.vs_cache_hits, 14);
    uint32_t ix[18] = {0, 1, 2, 2, 1, 3, 0, 1, 2, 2, 1, 3, 0, 1, 2, 2, 1, 3};
    d.topo = GPU_TOPO_TRIANGLES;
    d.indices = ix;
    d.n_indices = 18;
    d.count = 18;
    memset(&g.stats, 0, sizeof g.stats);
    assert_int_equal(render_all(&g, &d), 0);
    assert_int_equal(g.stats.vs_invocations, 4);
    assert_int_equal(g.stats.vs_cache_hits, 14);
    gpu_free(&g);
}

/* Bad inputs are errors with a message, never crashes. */
static void test_draw_check(void **state)
{
    (void)state;
    gpu_t g;
    mk_gpu(&g, 0, 1);
    float c[4] = {1, 1, 1, 1};
    gpu_draw_t d = quad_draw(0, c);
    d.st.rt[0] = 1;                           /* depth surface as colour target */
    assert_non_null(gpu_draw_check(&g, &d));
    d = quad_draw(0, c);
    d.count = 40;                             /* beyond the vertex buffer */
    assert_non_null(gpu_draw_check(&g, &d));
    d = quad_draw(0, c);
    d.fs_kind = GPU_FS_ISA;                   /* no backend */
    assert_non_null(gpu_draw_check(&g, &d));
    d = quad_draw(0, c);
    assert_null(gpu_draw_check(&g, &d));
    /* a shared read-only texture can be sampled but neither cleared nor rendered into */
    static const uint32_t ro[4] = {1, 2, 3, 4};
    int sid = gpu_add_surface_shared(&g, 2, 2, GPU_FMT_RGBA8, ro);
    assert_true(sid > 0);
    assert_int_equal(gpu_clear(&g, sid, 0, 0xF, 0, 0, 0, 0), -1);
    d.st.rt[0] = sid;
    assert_non_null(gpu_draw_check(&g, &d));
    d.st.rt[0] = 0;
    d.st.tex[0] = sid;
    assert_null(gpu_draw_check(&g, &d));
    gpu_free(&g);
    assert_int_equal(ro[3], 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queue),
        cmocka_unit_test(test_fetch_topologies),
        cmocka_unit_test(test_clear_and_mask),
        cmocka_unit_test(test_depth_and_blend),
        cmocka_unit_test(test_depth_clamp),
        cmocka_unit_test(test_mrt_texture_discard),
        cmocka_unit_test(test_ownership),
        cmocka_unit_test(test_vertex_cache),
        cmocka_unit_test(test_draw_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
