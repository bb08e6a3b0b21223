/* Texturing as GL specifies it (cmodel/gpu/frag.c, issue 11): mirrored repeat, per-axis wrap, the mip chain
 * (2x2 truncating box, rebuilt after gpu_surface_changed), GL's level selection for the mipmapped filters,
 * the quad level of detail, and the ISA whole-warp sampler (texq) against the per-lane one.
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mirror_and_axis_wrap),
        cmocka_unit_test(test_mip_levels),
        cmocka_unit_test(test_quad_lod),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
