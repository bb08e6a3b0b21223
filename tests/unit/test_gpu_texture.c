/* Texturing as GL specifies it (cmodel/gpu/frag.c, issue 11): mirrored repeat, per-axis wrap, the mip chain
 * (2x2 truncating box, rebuilt after gpu_surface_changed), GL's level selection for the mipmapped filters,
 * the quad level of detail, and the ISA whole-warp sampler (texq) against the per-lane one; floating-point
 * colour formats (binary16 rounding, texel layout, sampling, unclamped blending and clears) and the facing of
 * a primitive (gl_FrontFacing).
 * Expected values are computed by hand from the texel values. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "gpu/frag.h"
#include "gpu/gpu.h"
#include "gpu/raster.h"

/* 4x4 texture: red channel = 16 * (4y + x), green = 255, blue = 0, alpha = 255 */
static uint32_t tex4[16];

static void mk(gpu_t *g, gpu_draw_t *d)
{
    for (uint32_t i = 0; i < 16; i++) tex4[i] = 0xFF00FF00u | (16u * i);
    assert_int_equal(gpu_init(g, 0, 1, P2G_MODE_DIAG, 3), 0);
    assert_int_equal(gpu_add_surface(g, 4, 4, GPU_FMT_RGBA8, tex4), 0);
    memset(d, 0, sizeof *d);
    d->st = gpu_state_default(-1, 4, 4);
    d->st.tex[0] = 0;
    d->st.tex_filter[0] = GPU_FILTER_NEAREST;
}

static float red(const float c[4]) { return c[0] * 255.0f; }

static void test_mirror_and_axis_wrap(void **state)
{
    (void)state;
    gpu_t g;
    gpu_draw_t d;
    mk(&g, &d);
    float o[4];
    d.st.tex_wrap[0] = GPU_WRAP_MIRROR;
    gpu_tex_sample(&g, &d, 0, 1.0f + 0.5f / 4, 0.5f / 4, o);     /* x index 4 -> mirrored 3 */
    assert_true(fabsf(red(o) - 48.0f) < 1e-3f);
    gpu_tex_sample(&g, &d, 0, -0.5f / 4, 0.5f / 4, o);           /* x index -1 -> 0 */
    assert_true(fabsf(red(o) - 0.0f) < 1e-3f);
    gpu_tex_sample(&g, &d, 0, 2.0f + 0.5f / 4, 0.5f / 4, o);     /* x index 8 -> 0 (period 8) */
    assert_true(fabsf(red(o) - 0.0f) < 1e-3f);
    /* s repeats, t clamps: (x 5 -> 1, y 6 -> 3) */
    d.st.tex_wrap[0] = GPU_WRAP_REPEAT;
    d.st.tex_wrap_t[0] = 1 + GPU_WRAP_CLAMP;
    gpu_tex_sample(&g, &d, 0, 5.5f / 4, 6.5f / 4, o);
    assert_true(fabsf(red(o) - 16.0f * 13) < 1e-3f);
    gpu_free(&g);
}

static void test_mip_levels(void **state)
{
    (void)state;
    gpu_t g;
    gpu_draw_t d;
    mk(&g, &d);
    float o[4];
    d.st.tex_mip[0] = GPU_MIP_NEAREST;
    d.st.tex_min[0] = 1 + GPU_FILTER_NEAREST;
    /* level 1 texel (0,0) = trunc((0 + 16 + 64 + 80) / 4) = 40; (1,1) = trunc((160+176+224+240)/4) = 200 */
    gpu_tex_sample_lod(&g, &d, 0, 0.1f, 0.1f, 1.0f, o);
    assert_true(fabsf(red(o) - 40.0f) < 1e-3f);
    gpu_tex_sample_lod(&g, &d, 0, 0.9f, 0.9f, 1.0f, o);
    assert_true(fabsf(red(o) - 200.0f) < 1e-3f);
    /* GL nearest level: lambda 0.4 -> level 0, 0.6 -> level ceil(1.1) - 1 = 1 */
    gpu_tex_sample_lod(&g, &d, 0, 0.1f, 0.1f, 0.4f, o);
    assert_true(fabsf(red(o) - 0.0f) < 1e-3f);
    gpu_tex_sample_lod(&g, &d, 0, 0.1f, 0.1f, 0.6f, o);
    assert_true(fabsf(red(o) - 40.0f) < 1e-3f);
    /* level 2 (1x1) = trunc((40 + 72 + 168 + 200) / 4) = 120; levels beyond the last clamp to it */
    gpu_tex_sample_lod(&g, &d, 0, 0.3f, 0.7f, 2.0f, o);
    assert_true(fabsf(red(o) - 120.0f) < 1e-3f);
    gpu_tex_sample_lod(&g, &d, 0, 0.3f, 0.7f, 9.0f, o);
    assert_true(fabsf(red(o) - 120.0f) < 1e-3f);
    /* linear between levels: lambda 1.25 -> 0.75 * level 1 + 0.25 * level 2 at (0,0): 30 + 30 = 60 */
    d.st.tex_mip[0] = GPU_MIP_LINEAR;
    gpu_tex_sample_lod(&g, &d, 0, 0.1f, 0.1f, 1.25f, o);
    assert_true(fabsf(red(o) - 60.0f) < 1e-3f);
    /* magnification (lambda <= 0) uses the mag filter on level 0 whatever the min filter */
    gpu_tex_sample_lod(&g, &d, 0, 0.1f, 0.1f, -1.0f, o);
    assert_true(fabsf(red(o) - 0.0f) < 1e-3f);
    /* the chain follows the surface: change level 0, announce it, level 1 changes */
    for (uint32_t i = 0; i < 16; i++) g.surf[0].data[i] = 0xFF000000u | 100u;
    gpu_surface_changed(&g, 0);
    d.st.tex_mip[0] = GPU_MIP_NEAREST;
    gpu_tex_sample_lod(&g, &d, 0, 0.1f, 0.1f, 1.0f, o);
    assert_true(fabsf(red(o) - 100.0f) < 1e-3f);
    gpu_free(&g);
}

static void test_quad_lod(void **state)
{
    (void)state;
    gpu_t g;
    gpu_draw_t d;
    mk(&g, &d);
    d.st.tex_mip[0] = GPU_MIP_LINEAR;
    /* s advances by 2 texels per pixel in x, t by 0.5 texel per pixel in y: rho = 2 -> lod 1 */
    float s[4] = {0.0f, 0.5f, 0.0f, 0.5f}, t[4] = {0.0f, 0.0f, 0.125f, 0.125f};
    assert_true(fabsf(gpu_tex_quad_lod(&g, &d, 0, s, t) - 1.0f) < 1e-6f);
    /* rotated: d/dx = (1, 1) texels -> |.| = sqrt 2 -> lod 0.5 */
    float s2[4] = {0.0f, 0.25f, 0.0f, 0.25f}, t2[4] = {0.0f, 0.25f, 0.0f, 0.25f};
    assert_true(fabsf(gpu_tex_quad_lod(&g, &d, 0, s2, t2) - 0.5f) < 1e-6f);
    /* no mipmapping and min == mag: the LOD is irrelevant (0) */
    d.st.tex_mip[0] = GPU_MIP_NONE;
    assert_true(gpu_tex_quad_lod(&g, &d, 0, s, t) == 0.0f);
    gpu_free(&g);
}

/* binary16: exact values, round to nearest even, overflow, half denormals, NaN; round trips */
static void test_half_float(void **state)
{
    (void)state;
    static const struct { float f; uint16_t h; } v[] = {
        {1.0f, 0x3C00}, {-2.0f, 0xC000}, {0.0f, 0x0000}, {-0.0f, 0x8000}, {65504.0f, 0x7BFF},
        {65520.0f, 0x7C00},                     /* halfway to 65536: rounds to even = infinity */
        {65519.0f, 0x7BFF}, {1e9f, 0x7C00}, {-1e9f, 0xFC00},
        {1.0f + 0x1p-11f, 0x3C00},             /* tie: to even (down) */
        {1.0f + 0x3p-11f, 0x3C02},             /* tie: to even (up) */
        {1.0f + 0x1p-11f + 0x1p-20f, 0x3C01},  /* above the tie */
        {0x1p-24f, 0x0001}, {0x1p-25f, 0x0000}, /* smallest denormal; half of it ties to 0 */
        {0x3p-25f, 0x0002},                     /* 1.5 denormal units: tie to even (2) */
        {0x1p-14f, 0x0400}, {0x1.ff8p-15f, 0x03FF}, /* smallest normal; largest denormal */
        {0x1.ffcp-15f, 0x0400},                 /* 1023.5 denormal units: ties up into the normals */
        {1e-10f, 0x0000}, {3.140625f, 0x4248},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint16_t h = gpu_f32_to_f16(v[i].f);
        if (h != v[i].h) fail_msg("f32_to_f16(%a) = %04x, want %04x", (double)v[i].f, h, v[i].h);
    }
    assert_int_equal(gpu_f32_to_f16(NAN), 0x7E00);
    for (uint32_t h = 0; h < 0x10000u; h++) {          /* every non-NaN half survives the round trip */
        if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu)) continue;
        uint16_t b = gpu_f32_to_f16(gpu_f16_to_f32((uint16_t)h));
        if (b != h) fail_msg("half %04x -> %a -> %04x", h, (double)gpu_f16_to_f32((uint16_t)h), b);
    }
    assert_true(gpu_f16_to_f32(0x0001) == 0x1p-24f && gpu_f16_to_f32(0x3555) == 0x1.554p-2f);
}

/* Texel layout of each float format, sampling (missing channels 0, 0, 1; bilinear in binary32), blending
 * without clamping under the colour mask, and the float clear. */
static void test_float_formats(void **state)
{
    (void)state;
    uint32_t p[4] = {0, 0, 0, 0};
    float in[4] = {2.5f, -3.0f, 1e5f, 0.25f}, o[4];
    gpu_texel_encode(GPU_FMT_RGBA16F, in, p);
    assert_int_equal(p[0], 0xC2004100u);     /* R in the low half of word 0, G in the high half */
    assert_int_equal(p[1], 0x34007C00u);     /* B = 1e5 overflows to infinity, A = 0.25 */
    gpu_texel_decode(GPU_FMT_RGBA16F, p, o);
    assert_true(o[0] == 2.5f && o[1] == -3.0f && isinf(o[2]) && o[3] == 0.25f);
    memset(p, 0, sizeof p);
    gpu_texel_encode(GPU_FMT_R32F, in, p);
    assert_true(p[1] == 0 && p[2] == 0);
    gpu_texel_decode(GPU_FMT_R32F, p, o);
    assert_true(o[0] == 2.5f && o[1] == 0.0f && o[2] == 0.0f && o[3] == 1.0f);
    gpu_texel_encode(GPU_FMT_RG16F, in, p);
    gpu_texel_decode(GPU_FMT_RG16F, p, o);
    assert_true(o[0] == 2.5f && o[1] == -3.0f && o[2] == 0.0f && o[3] == 1.0f);
    assert_int_equal(gpu_fmt_words(GPU_FMT_RGBA16F), 2);
    assert_int_equal(gpu_fmt_words(GPU_FMT_RGBA32F), 4);
    assert_int_equal(gpu_fmt_words(GPU_FMT_R16F), 1);
    assert_int_equal(gpu_fmt_words(GPU_FMT_RG32F), 2);
    assert_int_equal(gpu_fmt_words(GPU_FMT_RGBA8), 1);

    /* 2x1 RGBA32F texture (10, -1, 0, 1) (30, 3, 0, 1): bilinear halfway = (20, 1, 0, 1), no clamping */
    gpu_t g;
    assert_int_equal(gpu_init(&g, 0, 1, P2G_MODE_DIAG, 3), 0);
    float t2[8] = {10, -1, 0, 1, 30, 3, 0, 1};
    uint32_t tw[8];
    memcpy(tw, t2, sizeof tw);
    assert_int_equal(gpu_add_surface(&g, 2, 1, GPU_FMT_RGBA32F, tw), 0);
    gpu_draw_t d;
    memset(&d, 0, sizeof d);
    d.st = gpu_state_default(-1, 2, 1);
    d.st.tex[0] = 0;
    d.st.tex_filter[0] = GPU_FILTER_LINEAR;
    d.st.tex_wrap[0] = GPU_WRAP_CLAMP;
    gpu_tex_sample(&g, &d, 0, 0.5f, 0.5f, o);
    assert_true(o[0] == 20.0f && o[1] == 1.0f && o[2] == 0.0f && o[3] == 1.0f);

    /* clear to an unclamped colour under a mask (G kept), then additive blending above 1 */
    assert_int_equal(gpu_add_surface(&g, 2, 2, GPU_FMT_RGBA16F, NULL), 1);
    const float cc[4] = {3.0f, 9.0f, -0.5f, 1.0f};
    assert_int_equal(gpu_clear_float(&g, 1, cc, 0xD, 0, 0, 0, 0), 0);
    assert_int_equal(gpu_clear(&g, 1, 0, 0xF, 0, 0, 0, 0), -1);     /* the RGBA8 clear refuses it */
    gpu_texel_decode(GPU_FMT_RGBA16F, &g.surf[1].data[2 * 3], o);
    assert_true(o[0] == 3.0f && o[1] == 0.0f && o[2] == -0.5f && o[3] == 1.0f);
    gpu_blend_t add = {1, GPU_BEQ_ADD, GPU_BEQ_ADD, GPU_BF_ONE, GPU_BF_ONE, GPU_BF_ONE, GPU_BF_ONE};
    const float k[4] = {0, 0, 0, 0}, src[4] = {4.0f, 1.5f, 0.25f, 2.0f};
    uint32_t *px = &g.surf[1].data[0];
    assert_int_equal(gpu_blend_pixel_float(&add, k, 0xB, src, GPU_FMT_RGBA16F, px), 1);    /* B masked */
    gpu_texel_decode(GPU_FMT_RGBA16F, px, o);
    assert_true(o[0] == 7.0f && o[1] == 1.5f && o[2] == -0.5f && o[3] == 3.0f);
    /* ONE_MINUS_SRC_ALPHA with alpha 2: factor -1, not clamped; the result rounds to binary16 */
    gpu_blend_t over = {1, GPU_BEQ_ADD, GPU_BEQ_ADD, GPU_BF_SRC_ALPHA, GPU_BF_ONE_MINUS_SRC_ALPHA, GPU_BF_ONE, GPU_BF_ZERO};
    const float s2[4] = {0.1f, 0.0f, 0.0f, 2.0f};
    assert_int_equal(gpu_blend_pixel_float(&over, k, 0xF, s2, GPU_FMT_RGBA16F, px), 1);
    gpu_texel_decode(GPU_FMT_RGBA16F, px, o);
    assert_true(o[0] == gpu_f16_to_f32(gpu_f32_to_f16(0.1f * 2.0f - 7.0f)) && o[1] == -1.5f && o[3] == 2.0f);
    assert_int_equal(gpu_blend_pixel_float(&over, k, 0x0, s2, GPU_FMT_RGBA16F, px), 0);   /* mask 0: unchanged */
    gpu_free(&g);
}

/* gl_FrontFacing: the snapped window-space winding against glFrontFace; lines and points are front-facing */
static void test_prim_front(void **state)
{
    (void)state;
    gpu_screen_tri_t t;
    memset(&t, 0, sizeof t);
    t.kind = GPU_KIND_TRIANGLE;
    t.x[0] = 0; t.y[0] = 0; t.x[1] = 2560; t.y[1] = 0; t.x[2] = 0; t.y[2] = 2560;    /* counter-clockwise */
    gpu_state_t st = gpu_state_default(-1, 16, 16);
    st.front_ccw = 1;
    assert_int_equal(gpu_prim_front(&t, &st), 1);
    st.front_ccw = 0;
    assert_int_equal(gpu_prim_front(&t, &st), 0);
    t.x[1] = 0; t.y[1] = 2560; t.x[2] = 2560; t.y[2] = 0;                               /* clockwise */
    assert_int_equal(gpu_prim_front(&t, &st), 1);
    st.front_ccw = 1;
    assert_int_equal(gpu_prim_front(&t, &st), 0);
    t.kind = GPU_KIND_LINE;
    assert_int_equal(gpu_prim_front(&t, &st), 1);
}

/* --tex-filter llvmpipe (gpu_t.tex_filter = GPU_TEXF_LLVMPIPE): Mesa llvmpipe's 8-bit sampler. Every expected
 * value below is worked out on paper from llvmpipe's arithmetic (docs/golden-model.md, "Texture filtering"):
 *   coordinate  c = round_half_even(u * n * 256) - 128, texel floor(c / 256), weight c mod 256
 *   lerp        v0 + floor((w (v1 - v0) + 128) / 256)          (8-bit channels, 8-bit weight)
 *   lod         fast_log2(rho^2) / 2, fast_log2(m 2^e) = e + m - 1 (m in [1, 2)),
 *               rho^2 = max(ds/dx^2 + dt/dx^2, ds/dy^2 + dt/dy^2) in texels
 *   mip blend   weight trunc(256 fract(lod)); generated level = rounded pairwise means (x first, then y).
 * The float filter gives other values in each case (noted), so a wrong weight or rounding fails. */
static void mk_lp(gpu_t *g, gpu_draw_t *d, const uint32_t *red2x2)
{
    static uint32_t tex[4];
    for (int i = 0; i < 4; i++) tex[i] = 0xFF00FF00u | red2x2[i];
    assert_int_equal(gpu_init(g, 0, 1, P2G_MODE_DIAG, 3), 0);
    g->tex_filter = GPU_TEXF_LLVMPIPE;
    assert_int_equal(gpu_add_surface(g, 2, 2, GPU_FMT_RGBA8, tex), 0);
    memset(d, 0, sizeof *d);
    d->st = gpu_state_default(-1, 4, 4);
    d->st.tex[0] = 0;
    d->st.tex_filter[0] = GPU_FILTER_LINEAR;
    d->st.tex_wrap[0] = GPU_WRAP_CLAMP;
}

static void test_llvmpipe_filter(void **state)
{
    (void)state;
    gpu_t g;
    gpu_draw_t d;
    const uint32_t ramp[4] = {0, 255, 0, 255};          /* red: 0 | 255 along x, both rows */
    mk_lp(&g, &d, ramp);
    float o[4];
    /* u = 228/512: c = 228 - 128 = 100, texels 0 and 1, weight 100: 0 + floor((100*255 + 128)/256) = 100
     * (float filter: 99.61; truncating lerp: 99) */
    gpu_tex_sample(&g, &d, 0, 228.0f / 512, 0.25f, o);
    assert_true(red(o) == 100.0f);
    /* u*512 = 228.5 rounds to even 228: 100 again (half up would give 101); 229.5 -> 230: weight 102 ->
     * floor((102*255 + 128)/256) = 102 */
    gpu_tex_sample(&g, &d, 0, 228.5f / 512, 0.25f, o);
    assert_true(red(o) == 100.0f);
    gpu_tex_sample(&g, &d, 0, 229.5f / 512, 0.25f, o);
    assert_true(red(o) == 102.0f);
    /* weight 200: floor((200*255 + 128)/256) = floor(199.7) = 199 (float: 199.2) */
    gpu_tex_sample(&g, &d, 0, 328.0f / 512, 0.25f, o);
    assert_true(red(o) == 199.0f);
    /* clamp to edge: u = 0 -> c = -128, texel -1 -> 0 and 0: red 0; repeat: texels 1 and 0, weight 128:
     * 255 + floor((128*(0 - 255) + 128)/256) = 255 - 127 = 128 */
    gpu_tex_sample(&g, &d, 0, 0.0f, 0.25f, o);
    assert_true(red(o) == 0.0f);
    d.st.tex_wrap[0] = GPU_WRAP_REPEAT;
    gpu_tex_sample(&g, &d, 0, 0.0f, 0.25f, o);
    assert_true(red(o) == 128.0f);
    /* the float filter at weight 100: 100/256 * 255 = 99.61 */
    g.tex_filter = GPU_TEXF_FLOAT;
    d.st.tex_wrap[0] = GPU_WRAP_CLAMP;
    gpu_tex_sample(&g, &d, 0, 228.0f / 512, 0.25f, o);
    assert_true(fabsf(red(o) - 99.609375f) < 1e-3f);
    gpu_free(&g);
}

static void test_llvmpipe_mip(void **state)
{
    (void)state;
    gpu_t g;
    gpu_draw_t d;
    /* generated level 1 of red (0 1 / 0 0): rows lerp(128, 0, 1) = floor((128 + 128)/256) = 1 and 0, then
     * lerp(128, 1, 0) = 1 + floor((-128 + 128)/256) = 1 (the truncating box of the float filter: 1/4 -> 0) */
    const uint32_t one[4] = {0, 1, 0, 0};
    mk_lp(&g, &d, one);
    d.st.tex_mip[0] = GPU_MIP_NEAREST;
    d.st.tex_min[0] = 1 + GPU_FILTER_NEAREST;
    float o[4];
    gpu_tex_sample_lod(&g, &d, 0, 0.5f, 0.5f, 1.0f, o);
    assert_true(red(o) == 1.0f);
    gpu_free(&g);
    /* red (0 255 / 255 255): level 1 = lerp(128, lerp(128, 0, 255), lerp(128, 255, 255)) = lerp(128, 128, 255)
     * = 128 + floor((128*127 + 128)/256) = 192. At u = v = 1/4: level 0 gives texel (0,0) = 0 (weight 0), level
     * 1 (1x1, clamped) 192. lod = 515/1024: weight trunc(128.75) = 128 -> floor((128*192 + 128)/256) = 96
     * (a rounded weight 129 gives 97; the float filter 96.56) */
    const uint32_t corner[4] = {0, 255, 255, 255};
    mk_lp(&g, &d, corner);
    d.st.tex_mip[0] = GPU_MIP_LINEAR;
    d.st.tex_min[0] = 1 + GPU_FILTER_LINEAR;
    gpu_tex_sample_lod(&g, &d, 0, 0.25f, 0.25f, 515.0f / 1024, o);
    assert_true(red(o) == 96.0f);
    gpu_tex_sample_lod(&g, &d, 0, 0.25f, 0.25f, 1.0f, o);      /* at the last level: 192, no blend */
    assert_true(red(o) == 192.0f);
    gpu_tex_sample_lod(&g, &d, 0, 0.25f, 0.25f, -0.25f, o);    /* magnification: level 0 */
    assert_true(red(o) == 0.0f);
    gpu_free(&g);
}

static void test_llvmpipe_lod(void **state)
{
    (void)state;
    gpu_t g;
    gpu_draw_t d;
    mk(&g, &d);                                          /* 4x4 */
    g.tex_filter = GPU_TEXF_LLVMPIPE;
    d.st.tex_mip[0] = GPU_MIP_LINEAR;
    d.st.y_down = 0;
    /* lanes 0,1 (x) and 0,2 (y) on a texture target: ds/dx = 0.75 * 4 = 3 texels -> rho^2 = 9 = 1.125 * 2^3
     * -> fast_log2 = 3 + 0.125 -> lod 1.5625 (GL's exact log2(3) = 1.585) */
    float s[4] = {0.0f, 0.75f, 0.0f, 0.75f}, t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    assert_true(gpu_tex_quad_lod(&g, &d, 0, s, t) == 1.5625f);
    /* d/dx = (3, 2) texels: rho^2 = 13 = 1.625 * 2^3 -> lod (3 + 0.625) / 2 = 1.8125 (llvmpipe's
     * approximate rho max(3, 2) would give 1.5625; exact log2(sqrt 13) = 1.850) */
    float s2[4] = {0.0f, 0.75f, 0.0f, 0.75f}, t2[4] = {0.0f, 0.5f, 0.0f, 0.5f};
    assert_true(gpu_tex_quad_lod(&g, &d, 0, s2, t2) == 1.8125f);
    /* a window surface (y down): llvmpipe's lane 0 is the model's lane 2, x from lanes 2,3, y from 2,0 */
    float s3[4] = {0.0f, 0.0f, 0.0f, 0.75f}, t3[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    d.st.y_down = 1;
    assert_true(gpu_tex_quad_lod(&g, &d, 0, s3, t3) == 1.5625f);
    /* the same lanes on a texture target: no derivative, rho^2 = 0 -> fast_log2 = -128 + 1 -> lod -63.5 */
    d.st.y_down = 0;
    assert_true(gpu_tex_quad_lod(&g, &d, 0, s3, t3) == -63.5f);
    gpu_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mirror_and_axis_wrap),
        cmocka_unit_test(test_mip_levels),
        cmocka_unit_test(test_quad_lod),
        cmocka_unit_test(test_half_float),
        cmocka_unit_test(test_float_formats),
        cmocka_unit_test(test_prim_front),
        cmocka_unit_test(test_llvmpipe_filter),
        cmocka_unit_test(test_llvmpipe_mip),
        cmocka_unit_test(test_llvmpipe_lod),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
