/* RAST and CLIP units: fixed-point edge functions, top-left rule, pixel centres, quads and helpers,
 * clipping and culling. Expected values are derived by hand or by independent counting, never by the
 * code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "gpu/raster.h"
#include "gpu_test_prims.h"

/* A screen-space triangle, positions in pixels. */
static gpu_screen_tri_t tri_px(double x0, double y0, double x1, double y1, double x2, double y2)
{
    const double v[3][2] = {{x0, y0}, {x1, y1}, {x2, y2}};
    return test_screen_prim(GPU_KIND_TRIANGLE, v);
}

static int count_cover(const gpu_screen_tri_t *t, uint32_t w, uint32_t h, uint8_t *hits)
{
    gpu_state_t st = gpu_state_default(0, w, h);
    gpu_rast_t r;
    int n = 0;
    if (!gpu_rast_setup(&r, t, &st, w, h)) return 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            if (gpu_rast_covers(&r, (int32_t)x, (int32_t)y)) {
                n++;
                if (hits) hits[y * w + x]++;
            }
    return n;
}

/* A square [0,8]x[0,8] cut along its diagonal: every pixel exactly once (top-left rule on the shared
 * edge), 64 in total, whichever winding each half has. */
static void test_shared_edge_exactly_once(void **state)
{
    (void)state;
    uint8_t hits[16 * 16];
    memset(hits, 0, sizeof hits);
    gpu_screen_tri_t a = tri_px(0, 0, 8, 0, 8, 8), b = tri_px(0, 0, 8, 8, 0, 8);
    int na = count_cover(&a, 16, 16, hits), nb = count_cover(&b, 16, 16, hits);
    assert_int_equal(na + nb, 64);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            if (hits[y * 16 + x] != (x < 8 && y < 8 ? 1 : 0))
                fail_msg("pixel (%d,%d) covered %d times, want %d", x, y, hits[y * 16 + x], x < 8 && y < 8);
    /* the diagonal pixel centres (i+0.5, i+0.5) lie on the shared edge: exactly one triangle takes each */
    /* clockwise versions give the same coverage */
    memset(hits, 0, sizeof hits);
    gpu_screen_tri_t a2 = tri_px(0, 0, 8, 8, 8, 0), b2 = tri_px(0, 0, 0, 8, 8, 8);
    assert_int_equal(count_cover(&a2, 16, 16, hits) + count_cover(&b2, 16, 16, hits), 64);
    for (int i = 0; i < 256; i++) assert_true(hits[i] <= 1);
}

/* A fan of triangles around an interior point tiles a 12x10 rectangle: each pixel once. Vertices at
 * fractional positions exercise the fixed-point edges. */
static void test_fan_partition(void **state)
{
    (void)state;
    uint8_t hits[16 * 16];
    memset(hits, 0, sizeof hits);
    double cx = 5.37, cy = 4.61;
    double ring[8][2] = {{0, 0}, {6.5, 0}, {12, 0}, {12, 5.25}, {12, 10}, {3.75, 10}, {0, 10}, {0, 3.5}};
    int total = 0;
    for (int i = 0; i < 8; i++) {
        gpu_screen_tri_t t = tri_px(cx, cy, ring[i][0], ring[i][1], ring[(i + 1) % 8][0], ring[(i + 1) % 8][1]);
        total += count_cover(&t, 16, 16, hits);
    }
    assert_int_equal(total, 120);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            if (hits[y * 16 + x] != (x < 12 && y < 10 ? 1 : 0))
                fail_msg("pixel (%d,%d) covered %d times", x, y, hits[y * 16 + x]);
}

/* Pixel centres at +0.5: a triangle whose edge passes exactly through centres. Right triangle with legs
 * of 4 pixels from (0.5,0.5): centres (i+.5, j+.5) with i+j <= 3 on or inside; the hypotenuse x+y=4
 * (in centre units) is a top/right edge for this winding, so its centres are excluded; the legs lie on
 * centres too: the left leg (x = 0.5) is a left edge (included), the bottom leg (y = 0.5) is a bottom
 * edge (excluded). */
static void test_pixel_centres_and_rule(void **state)
{
    (void)state;
    gpu_screen_tri_t t = tri_px(0.5, 0.5, 4.5, 0.5, 0.5, 4.5);    /* counter-clockwise */
    uint8_t hits[8 * 8];
    memset(hits, 0, sizeof hits);
    int n = count_cover(&t, 8, 8, hits);
    /* inside strictly or on the left edge: x = 0 column for y = 1..3; interior i>=1, j>=1, i+j<=2 */
    int expect = 0;
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 8; i++) {
            int want = (j >= 1 && i + j <= 3) ? 1 : 0;   /* y > 0.5 strictly, x >= 0.5, x+y < 5 */
            expect += want;
            if (hits[j * 8 + i] != want) fail_msg("pixel (%d,%d): got %d want %d", i, j, hits[j * 8 + i], want);
        }
    assert_int_equal(n, expect);
    assert_int_equal(n, 6);
}

/* Quads: 2x2 aligned, coverage bits, helpers = 4 - covered, depth interpolated. */
static void test_quads_helpers_depth(void **state)
{
    (void)state;
    gpu_screen_tri_t t = tri_px(1, 1, 7, 1, 1, 7);
    t.z[0] = 0.0f; t.z[1] = 1.0f; t.z[2] = 0.0f;
    gpu_state_t st = gpu_state_default(0, 16, 16);
    gpu_rast_t r;
    assert_int_equal(gpu_rast_setup(&r, &t, &st, 16, 16), 1);
    int frags = 0, helpers = 0, quads = 0;
    for (int qy = 0; qy < 16; qy += 2)
        for (int qx = 0; qx < 16; qx += 2) {
            gpu_quad_t q;
            uint8_t c = gpu_rast_quad(&r, qx, qy, 0, &q);
            if (!c) continue;
            quads++;
            frags += __builtin_popcount(c);
            helpers += 4 - __builtin_popcount(c);
        }
    /* independent count: centres (i+.5, j+.5) with x>1, y>1 (x=1 not a centre), x+y<8 */
    int want = 0;
    for (int j = 0; j < 16; j++)
        for (int i = 0; i < 16; i++) {
            double x = i + 0.5, y = j + 0.5;
            if (x > 1 && y > 1 && x + y < 8) want++;
        }
    assert_int_equal(frags, want);
    assert_int_equal(quads * 4, frags + helpers);
    /* depth at pixel (4,1): centre (4.5,1.5): z = (x-1)/6 = 0.58333 -> 24-bit */
    gpu_quad_t q;
    gpu_rast_quad(&r, 4, 0, 0, &q);
    double z = 3.5 / 6.0;
    uint32_t dz = (uint32_t)(z * 16777215.0 + 0.5);
    assert_true(q.depth[2] + 2 >= dz && q.depth[2] <= dz + 2);
}

static void test_zero_area_and_offscreen(void **state)
{
    (void)state;
    gpu_screen_tri_t t = tri_px(1, 1, 5, 5, 9, 9);
    gpu_state_t st = gpu_state_default(0, 16, 16);
    gpu_rast_t r;
    assert_int_equal(gpu_rast_setup(&r, &t, &st, 16, 16), 0);
    t = tri_px(20, 20, 30, 20, 20, 30);
    assert_int_equal(gpu_rast_setup(&r, &t, &st, 16, 16), 0);
    /* scissor clips the raster rectangle */
    t = tri_px(0, 0, 16, 0, 0, 16);
    st.scissor_enable = 1;
    st.sc_x = 2; st.sc_y = 3; st.sc_w = 2; st.sc_h = 2;
    assert_int_equal(gpu_rast_setup(&r, &t, &st, 16, 16), 1);
    int n = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) n += gpu_rast_covers(&r, x, y);
    assert_int_equal(n, 4);
}

/* CLIP: viewport mapping, snapping, culling, near-plane clipping. */
static gpu_draw_t mk_draw(void)
{
    gpu_draw_t d;
    memset(&d, 0, sizeof d);
    d.n_attribs = 1;
    d.st = gpu_state_default(0, 64, 32);
    return d;
}

static gpu_shaded_tri_t shaded(const float p[3][4])
{
    gpu_shaded_tri_t s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < 3; i++) memcpy(s.v[i][0], p[i], 16);
    return s;
}

static void test_clip_viewport_cull(void **state)
{
    (void)state;
    gpu_draw_t d = mk_draw();
    float p[3][4] = {{-1, -1, 0, 1}, {1, -1, 0, 1}, {-1, 1, 0, 1}};   /* CCW */
    gpu_shaded_tri_t s = shaded(p);
    gpu_screen_tri_t out[GPU_CLIP_MAX_OUT];
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 1);
    assert_int_equal(out[0].x[0], 0);
    assert_int_equal(out[0].y[0], 0);
    assert_int_equal(out[0].x[1], 64 * 256);
    assert_int_equal(out[0].y[2], 32 * 256);
    assert_true(out[0].z[0] == 0.5f);
    d.st.cull = GPU_CULL_BACK;
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 1);   /* front facing */
    d.st.front_ccw = 0;
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 0);   /* now back facing */
    d.st.front_ccw = 1;
    d.st.cull = GPU_CULL_FRONT;
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 0);
    /* trivially outside: all x > w */
    float q[3][4] = {{2, 0, 0, 1}, {3, 0, 0, 1}, {2, 1, 0, 1}};
    s = shaded(q);
    d.st.cull = GPU_CULL_NONE;
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 0);
    gpu_projected_t pr;
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_PROJECT, NULL, &pr), 1);
    assert_int_equal(pr.p2g.flags, P2G_FLAG_CULLED);
}

static void test_clip_near_plane(void **state)
{
    (void)state;
    gpu_draw_t d = mk_draw();
    /* one vertex behind the near plane (z < -w): the clipped polygon is a quad -> 2 triangles */
    float p[3][4] = {{-0.5f, -0.5f, 0, 1}, {0.5f, -0.5f, 0, 1}, {0, 0.5f, -3, 1}};
    gpu_shaded_tri_t s = shaded(p);
    gpu_screen_tri_t out[GPU_CLIP_MAX_OUT];
    int n = gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL);
    assert_int_equal(n, 2);
    /* the new vertices lie where z = -w: t = (0+1)/(0+1-(-3+1)) = 1/3 along each edge to vertex 2 -> y = -1/6 */
    int found = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            if (out[i].z[k] == 0.0f) {
                found++;
                double yw = (1.0 - 1.0 / 6.0) * 0.5 * 32.0 * 256.0;   /* ndc y = -1/6 */
                assert_true(abs(out[i].y[k] - (int32_t)(yw + 0.5)) <= 1);
            }
    assert_true(found >= 2);
    gpu_projected_t pr;
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_PROJECT, NULL, &pr), 1);
    assert_int_equal(pr.p2g.flags, P2G_FLAG_NEAR_CLIP);
    /* entirely behind the eye: culled */
    float b[3][4] = {{0, 0, -2, -1}, {1, 0, -2, -1}, {0, 1, -2, -1}};
    s = shaded(b);
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 0);
}

/* The fill rule follows the target's frame (docs/golden-model.md section 1, precision): on a window surface
 * (y_down = 1) a horizontal edge through pixel centres belongs to the triangle below it in GL terms (top
 * edge), on a texture target (y_down = 0) to the one above it (bottom edge). Rectangle [2,6]x[1.5,3.5]:
 * its bottom edge y = 1.5 and top edge y = 3.5 run through the centres of rows 1 and 3. */
static void test_fill_rule_per_target(void **state)
{
    (void)state;
    gpu_screen_tri_t a = tri_px(2, 1.5, 6, 1.5, 6, 3.5), b = tri_px(2, 1.5, 6, 3.5, 2, 3.5);
    for (int down = 0; down < 2; down++) {
        gpu_state_t st = gpu_state_default(0, 16, 16);
        st.y_down = (uint8_t)down;
        st.fb_h = 16;
        int rows[16] = {0};
        for (int k = 0; k < 2; k++) {
            gpu_rast_t r;
            assert_int_equal(gpu_rast_setup(&r, k ? &b : &a, &st, 16, 16), 1);
            for (int y = 0; y < 16; y++)
                for (int x = 0; x < 16; x++) rows[y] += gpu_rast_covers(&r, x, y);
        }
        /* 4 columns (x = 2..5) per covered row; row 2 always; row 3 (top edge) only on windows, row 1
         * (bottom edge) only on texture targets */
        assert_int_equal(rows[2], 4);
        assert_int_equal(rows[3], down ? 4 : 0);
        assert_int_equal(rows[1], down ? 0 : 4);
        assert_int_equal(rows[0] + rows[4], 0);
    }
}

/* Depth comes from binary32 plane coefficients at the pixel's integer coordinates in the reference frame:
 * a plane with z = 0.25 + x / 64 (x of the window, y independent) gives, at pixel (5, 2), the centre
 * x = 5.5: z = 0.25 + 5.5/64 = 0.3359375 exactly; z * (2^24 - 1) = 5636095.664 rounds to the binary32
 * 5636095.5, stored ties-to-even as 5636096. */
static void test_depth_plane_exact(void **state)
{
    (void)state;
    gpu_screen_tri_t t = tri_px(0, 0, 16, 0, 0, 16);
    t.z[0] = 0.25f; t.z[1] = 0.5f; t.z[2] = 0.25f;
    gpu_state_t st = gpu_state_default(0, 16, 16);
    gpu_rast_t r;
    assert_int_equal(gpu_rast_setup(&r, &t, &st, 16, 16), 1);
    gpu_quad_t q;
    assert_int_not_equal(gpu_rast_quad(&r, 4, 2, 0, &q), 0);
    float z = 0.3359375f;
    assert_int_equal(q.depth[1], (uint32_t)lrintf(z * 16777215.0f));
    assert_int_equal(q.depth[1], 5636096u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_edge_exactly_once),
        cmocka_unit_test(test_fan_partition),
        cmocka_unit_test(test_pixel_centres_and_rule),
        cmocka_unit_test(test_quads_helpers_depth),
        cmocka_unit_test(test_zero_area_and_offscreen),
        cmocka_unit_test(test_clip_viewport_cull),
        cmocka_unit_test(test_clip_near_plane),
        cmocka_unit_test(test_fill_rule_per_target),
        cmocka_unit_test(test_depth_plane_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
