/* Shader library (cmodel/shaders/) against plain-C computations of the same maths.
 * Exact (bit-equal) where the shader uses only add/mul/mad (two roundings = C float arithmetic with normal
 * values); within a stated tolerance where the shader uses the SFU rcp (perspective divide). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "isa_test_fixture.h"

static uint64_t rs = 777;
static float frand(float lo, float hi)
{
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((rs >> 40) & 0xffffff) / 16777216.0f;
}

static void load_shader(fx_t *f, const char *name)
{
    uint64_t code[ISA_MAX_CODE];
    isa_asm_err_t err;
    int n = isa_shader_assemble(name, code, ISA_MAX_CODE, &err);
    if (n < 0) {
        print_error("%s: line %d col %d: %s\n", name, err.line, err.col, err.msg);
        fail();
    }
    assert_int_equal(isa_ctx_load(f->ctx, code, (uint32_t)n, NULL), ISA_OK);
}

static void run_warp(fx_t *f)
{
    int st = isa_run(f->ctx, f->w, 100000);
    if (st != ISA_DONE) {
        print_error("run: %s\n", isa_status_str(st));
        fail();
    }
}

static float M[16];
static void set_mvp(fx_t *f)
{
    for (int i = 0; i < 16; i++) {
        M[i] = frand(-2.0f, 2.0f);
        isa_ctx_set_constf(f->ctx, (uint32_t)(ISA_VS_C_MVP + i), M[i]);
    }
}

/* plain C: clip_i = ((p0*M[i][0] + p1*M[i][1]) + p2*M[i][2]) + p3*M[i][3], each op rounded to float */
static void c_mvp(const float p[4], float clip[4])
{
    for (int i = 0; i < 4; i++) {
        float acc = p[0] * M[4 * i + 0];
        float t = p[1] * M[4 * i + 1];
        acc = acc + t;
        t = p[2] * M[4 * i + 2];
        acc = acc + t;
        t = p[3] * M[4 * i + 3];
        acc = acc + t;
        clip[i] = acc;
    }
}

static void test_vs_mvp(void **state)
{
    fx_t *f = *state;
    load_shader(f, "vs_mvp");
    for (int rep = 0; rep < 50; rep++) {
        set_mvp(f);
        isa_warp_init(f->w, 0, 0xffffffffu);
        for (int l = 0; l < 32; l++)
            for (int a = 0; a < 12; a++)
                f->w->attr[a][l] = isa_float_bits(a == 3 ? (rep & 1 ? 1.0f : frand(0.5f, 2.0f)) : frand(-100.0f, 100.0f));
        run_warp(f);
        for (int l = 0; l < 32; l++) {
            float p[4], clip[4];
            for (int k = 0; k < 4; k++)
                p[k] = isa_bits_float(f->w->attr[k][l]);
            c_mvp(p, clip);
            for (int k = 0; k < 4; k++)
                if (f->w->out[ISA_VS_O_CLIP + k][l] != isa_float_bits(clip[k])) {
                    print_error("rep %d lane %d clip[%d]: shader %.9g C %.9g\n", rep, l, k,
                                (double)isa_bits_float(f->w->out[k][l]), (double)clip[k]);
                    fail();
                }
            for (int k = 4; k < 12; k++)
                assert_int_equal(f->w->out[k][l], f->w->attr[k][l]);
        }
    }
}

/* viewport constants for a W x H window at (x0, y0) */
static void set_viewport(fx_t *f, float W, float H, float x0, float y0, float n, float fa)
{
    float v[6] = {128.0f * W, 256.0f * x0 + 128.0f * W, 128.0f * H, 256.0f * y0 + 128.0f * H, (fa - n) / 2,
                  (fa + n) / 2};
    for (int i = 0; i < 6; i++)
        isa_ctx_set_constf(f->ctx, (uint32_t)(ISA_VS_C_VIEWPORT + i), v[i]);
}

/* plain C (double precision, exact division) */
static void c_viewport(fx_t *f, const float clip[4], int32_t *X, int32_t *Y, double *z, double *iw,
                       uint32_t *flags)
{
    const uint32_t *c = &f->ctx->konst[ISA_VS_C_VIEWPORT];
    double w = clip[3];
    double xs = clip[0] / w * isa_bits_float(c[0]) + isa_bits_float(c[1]);
    double ys = clip[1] / w * isa_bits_float(c[2]) + isa_bits_float(c[3]);
    double lim = 8388607.0;
    *X = (int32_t)fmax(-lim - 1, fmin(lim, nearbyint(xs)));
    *Y = (int32_t)fmax(-lim - 1, fmin(lim, nearbyint(ys)));
    *z = clip[2] / w * isa_bits_float(c[4]) + isa_bits_float(c[5]);
    *iw = 1.0 / w;
    *flags = (clip[2] < -clip[3] ? ISA_VS_FLAG_NEAR : 0) | (clip[3] <= 0 ? ISA_VS_FLAG_WNEG : 0);
}

static void check_screen(fx_t *f, int l, const float clip[4], int o, const char *what)
{
    int32_t X, Y;
    double z, iw;
    uint32_t flags;
    c_viewport(f, clip, &X, &Y, &z, &iw, &flags);
    int32_t sx = (int32_t)f->w->out[o][l], sy = (int32_t)f->w->out[o + 1][l];
    double sz = isa_bits_float(f->w->out[o + 2][l]), siw = isa_bits_float(f->w->out[o + 3][l]);
    uint32_t sf = f->w->out[o + 4][l];
    /* rcp has >= 23 good bits: the 1/256-pixel coordinate may differ by one unit */
    if (abs(sx - X) > 1 || abs(sy - Y) > 1 || fabs(sz - z) > 1e-5 * (1 + fabs(z)) ||
        fabs(siw - iw) > 3e-7 * fabs(iw) || sf != flags) {
        print_error("%s lane %d clip (%g %g %g %g): shader X %d Y %d z %.9g 1/w %.9g flags %u; C X %d Y %d "
                    "z %.9g 1/w %.9g flags %u\n",
                    what, l, (double)clip[0], (double)clip[1], (double)clip[2], (double)clip[3], sx, sy, sz, siw,
                    sf, X, Y, z, iw, flags);
        fail();
    }
    assert_true(sx >= -8388608 && sx <= 8388607 && sy >= -8388608 && sy <= 8388607);
}

static void test_vs_viewport(void **state)
{
    fx_t *f = *state;
    load_shader(f, "vs_viewport");
    for (int rep = 0; rep < 50; rep++) {
        set_viewport(f, rep & 1 ? 1920 : 640, rep & 1 ? 1080 : 480, (float)(rep % 3) * 10, 0, 0, 1);
        isa_warp_init(f->w, 0, 0xffffffffu);
        for (int l = 0; l < 32; l++) {
            float w = l == 5 ? 1e-6f : l == 6 ? -1.0f : frand(0.1f, 50.0f);
            float xy = l == 7 ? 1e6f : w * 1.2f;
            f->w->attr[0][l] = isa_float_bits(frand(-xy, xy));
            f->w->attr[1][l] = isa_float_bits(frand(-xy, xy));
            f->w->attr[2][l] = isa_float_bits(frand(-1.5f * w, w));
            f->w->attr[3][l] = isa_float_bits(w);
        }
        run_warp(f);
        for (int l = 0; l < 32; l++) {
            float clip[4];
            for (int k = 0; k < 4; k++)
                clip[k] = isa_bits_float(f->w->attr[k][l]);
            check_screen(f, l, clip, 0, "vs_viewport");
        }
    }
}

static void test_vs_project(void **state)
{
    fx_t *f = *state;
    load_shader(f, "vs_project");
    for (int rep = 0; rep < 50; rep++) {
        set_mvp(f);
        set_viewport(f, 1280, 720, 0, 0, 0, 1);
        isa_warp_init(f->w, 0, 0xffffffffu);
        for (int l = 0; l < 32; l++) {
            for (int a = 0; a < 12; a++)
                f->w->attr[a][l] = isa_float_bits(frand(-10.0f, 10.0f));
            f->w->attr[3][l] = isa_float_bits(1.0f);
        }
        run_warp(f);
        for (int l = 0; l < 32; l++) {
            float p[4], clip[4];
            for (int k = 0; k < 4; k++)
                p[k] = isa_bits_float(f->w->attr[k][l]);
            c_mvp(p, clip);
            for (int k = 0; k < 4; k++)
                assert_int_equal(f->w->out[ISA_VS_O_CLIP + k][l], isa_float_bits(clip[k]));
            for (int k = 4; k < 12; k++)
                assert_int_equal(f->w->out[k][l], f->w->attr[k][l]);
            if (clip[3] > 1e-3f || clip[3] < -1e-3f)
                check_screen(f, l, clip, ISA_VS_O_SCREEN, "vs_project");
        }
    }
}

static void test_fs_flat_color_depth(void **state)
{
    fx_t *f = *state;
    float col[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    for (int i = 0; i < 4; i++)
        isa_ctx_set_constf(f->ctx, (uint32_t)(ISA_FS_C_COLOR + i), col[i]);
    isa_warp_init(f->w, 0, 0xffffffffu);
    for (int l = 0; l < 32; l++)
        for (int a = 0; a < 9; a++)
            f->w->attr[a][l] = isa_float_bits(frand(0.0f, 1.0f));
    load_shader(f, "fs_flat");
    run_warp(f);
    for (int l = 0; l < 32; l++)
        for (int k = 0; k < 4; k++)
            assert_int_equal(f->w->out[ISA_FS_O_COLOR + k][l], isa_float_bits(col[k]));
    load_shader(f, "fs_color");
    isa_warp_init(f->w, 0, 0xffffffffu);
    run_warp(f);
    for (int l = 0; l < 32; l++)
        for (int k = 0; k < 4; k++)
            assert_int_equal(f->w->out[ISA_FS_O_COLOR + k][l], f->w->attr[ISA_FS_A_COLOR + k][l]);
    load_shader(f, "fs_depth");
    isa_warp_init(f->w, 0, 0x0000ff0fu);
    run_warp(f);
    for (int l = 0; l < 32; l++) {
        uint32_t want = (0x0000ff0fu >> l) & 1 ? f->w->attr[ISA_FS_A_DEPTH][l] : 0;
        assert_int_equal(f->w->out[ISA_FS_O_DEPTH][l], want);
        assert_int_equal(f->w->out[ISA_FS_O_COLOR][l], 0);
    }
}

/* a checkerboard sampler: texel = (s, t, s*t, 1) quantised; plain C computes the same */
static void sampler(void *user, uint32_t unit, uint32_t warp, uint32_t lane, uint32_t s, uint32_t t,
                    uint32_t rgba[4])
{
    (void)warp;
    (void)lane;
    int *calls = user;
    (*calls)++;
    float fs = isa_bits_float(s), ft = isa_bits_float(t);
    float c = ((int)floorf(fs * 8) + (int)floorf(ft * 8)) & 1 ? 1.0f : 0.5f;
    rgba[0] = isa_float_bits(c);
    rgba[1] = isa_float_bits(c * 0.5f);
    rgba[2] = isa_float_bits((float)unit + 0.25f);
    rgba[3] = isa_float_bits(1.0f);
}

static void test_fs_tex_modulate(void **state)
{
    fx_t *f = *state;
    int calls = 0;
    f->ctx->tex = sampler;
    f->ctx->tex_user = &calls;
    load_shader(f, "fs_tex_modulate");
    isa_warp_init(f->w, 0, 0xfffffff0u);
    for (int l = 0; l < 32; l++)
        for (int a = 0; a < 6; a++)
            f->w->attr[a][l] = isa_float_bits(frand(0.0f, 1.0f));
    run_warp(f);
    assert_int_equal(calls, 28);
    for (int l = 4; l < 32; l++) {
        uint32_t tex[4];
        sampler(&calls, 0, 0, (uint32_t)l, f->w->attr[ISA_FS_A_TEXCOORD][l], f->w->attr[ISA_FS_A_TEXCOORD + 1][l],
                tex);
        for (int k = 0; k < 4; k++) {
            float want = isa_bits_float(f->w->attr[ISA_FS_A_COLOR + k][l]) * isa_bits_float(tex[k]);
            assert_int_equal(f->w->out[ISA_FS_O_COLOR + k][l], isa_float_bits(want));
        }
    }
    f->ctx->tex = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_vs_mvp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vs_viewport, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vs_project, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fs_flat_color_depth, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fs_tex_modulate, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
