/* Lines and points in the RAST and CLIP units (docs/golden-model.md section 1.1): GL's diamond-exit rule at
 * the ends of a line, integer widths and their tie rules, aliased points of odd and even size, the order of
 * the ends, interpolation along a line, clipping against the near plane and the P2G box of a line or point.
 * Every expected pixel set is worked out by hand in the comment above its check (pixel (x, y) has its
 * centre at (x + 0.5, y + 0.5); window y grows upwards), never taken from the code under test. */
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
#include "p2g/p2g.h"
#include "gpu_test_prims.h"

#define W 16
#define H 16

/* A screen-space line (kind LINE, ends 0 and 1) or point (kind POINT, vertex 0), positions in pixels. */
static gpu_screen_tri_t prim_px(int kind, double x0, double y0, double x1, double y1)
{
    const double v[3][2] = {{x0, y0}, {x1, y1}, {x1, y1}};
    return test_screen_prim(kind, v);
}

/* The covered pixels as a W*H map of '#'/'.', rows listed top (y = H-1) first, compared with want (a list
 * of "x,y" pairs). */
static void expect_pixels(const gpu_screen_tri_t *t, float width, float size, const int (*want)[2], int n_want)
{
    gpu_state_t st = gpu_state_default(0, W, H);
    st.line_width = width;
    st.point_size = size;
    gpu_rast_t r;
    uint8_t got[H][W], exp[H][W];
    memset(got, 0, sizeof got);
    memset(exp, 0, sizeof exp);
    if (gpu_rast_setup(&r, t, &st, W, H))
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) got[y][x] = (uint8_t)gpu_rast_covers(&r, x, y);
    for (int i = 0; i < n_want; i++) exp[want[i][1]][want[i][0]] = 1;
    if (memcmp(got, exp, sizeof got)) {
        for (int y = H - 1; y >= 0; y--) {
            char a[W + 1], b[W + 1];
            for (int x = 0; x < W; x++) { a[x] = got[y][x] ? '#' : '.'; b[x] = exp[y][x] ? '#' : '.'; }
            a[W] = b[W] = 0;
            print_error("%2d got %s want %s\n", y, a, b);
        }
        fail_msg("covered pixels differ");
    }
    /* the quads the pipeline walks agree with the per-pixel test */
    if (gpu_rast_setup(&r, t, &st, W, H)) {
        int n = 0;
        for (int qy = 0; qy < H; qy += 2)
            for (int qx = 0; qx < W; qx += 2) {
                gpu_quad_t q;
                memset(&q, 0, sizeof q);
                n += __builtin_popcount(gpu_rast_quad(&r, qx, qy, 0, &q));
            }
        assert_int_equal(n, n_want);
    }
}

#define EXPECT(t, width, size, ...) do { \
        static const int want_[][2] = {__VA_ARGS__}; \
        expect_pixels(&(t), (width), (size), want_, (int)(sizeof want_ / sizeof want_[0])); \
    } while (0)
#define EXPECT_NONE(t, width, size) expect_pixels(&(t), (width), (size), NULL, 0)

/* Horizontal width-1 line between two pixel centres (2.5,3.5) -> (7.5,3.5): the start lies on its pixel's
 * centre (inside its diamond: produced), the end on its centre (the line ends inside that diamond: not
 * produced): pixels x = 2..6 of row 3. Reversed, the start is (7.5,3.5): x = 3..7. */
static void test_line_ends_on_centres(void **state)
{
    (void)state;
    gpu_screen_tri_t a = prim_px(GPU_KIND_LINE, 2.5, 3.5, 7.5, 3.5);
    EXPECT(a, 1.0f, 1.0f, {2, 3}, {3, 3}, {4, 3}, {5, 3}, {6, 3});
    gpu_screen_tri_t b = prim_px(GPU_KIND_LINE, 7.5, 3.5, 2.5, 3.5);
    EXPECT(b, 1.0f, 1.0f, {3, 3}, {4, 3}, {5, 3}, {6, 3}, {7, 3});
}

/* Diamond-exit at the ends. (2.8,3.5) -> (6.2,3.5): the start is 0.3 right of pixel 2's centre, inside its
 * diamond (|0.3| + 0 < 0.5): produced; the end is 0.3 left of pixel 6's centre: pixel 6 not produced (the
 * line never reaches a diamond it leaves): x = 2..5. Start (2.8,3.9): |0.3| + |0.4| > 0.5, outside pixel
 * 2's diamond and right of its centre: not produced. End (6.7,3.5): right of pixel 6's centre but inside
 * its diamond: not produced; end (6.7,3.9): outside the diamond: produced. */
static void test_line_diamond_exit(void **state)
{
    (void)state;
    gpu_screen_tri_t a = prim_px(GPU_KIND_LINE, 2.8, 3.5, 6.2, 3.5);
    EXPECT(a, 1.0f, 1.0f, {2, 3}, {3, 3}, {4, 3}, {5, 3});
    gpu_screen_tri_t b = prim_px(GPU_KIND_LINE, 2.8, 3.9, 6.2, 3.9);
    EXPECT(b, 1.0f, 1.0f, {3, 3}, {4, 3}, {5, 3});
    gpu_screen_tri_t c = prim_px(GPU_KIND_LINE, 2.5, 3.5, 6.7, 3.5);
    EXPECT(c, 1.0f, 1.0f, {2, 3}, {3, 3}, {4, 3}, {5, 3});
    gpu_screen_tri_t d = prim_px(GPU_KIND_LINE, 2.5, 3.9, 6.7, 3.9);
    EXPECT(d, 1.0f, 1.0f, {2, 3}, {3, 3}, {4, 3}, {5, 3}, {6, 3});
    /* a line inside one pixel's diamond never leaves it: nothing */
    gpu_screen_tri_t e = prim_px(GPU_KIND_LINE, 4.4, 4.5, 4.6, 4.5);
    EXPECT_NONE(e, 1.0f, 1.0f);
    /* zero length: nothing */
    gpu_screen_tri_t f = prim_px(GPU_KIND_LINE, 4.5, 4.5, 4.5, 4.5);
    EXPECT_NONE(f, 3.0f, 1.0f);
}

/* Ties between two rows or columns. A horizontal line on the pixel border y = 3.0 from x = 2.0 to 7.0:
 * centres 2.5 and 3.5 are both 1/2 away; the lower one is taken (llvmpipe's bottom rule): row 2; columns:
 * start 2.0 is left of pixel 2's centre (produced), end 7.0 left of pixel 7's centre (not): x = 2..6.
 * A vertical line on x = 4.0 from y = 1.5 to 5.5: the left column 3 is taken, rows 1..4. */
static void test_line_ties(void **state)
{
    (void)state;
    gpu_screen_tri_t a = prim_px(GPU_KIND_LINE, 2.0, 3.0, 7.0, 3.0);
    EXPECT(a, 1.0f, 1.0f, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2});
    gpu_screen_tri_t b = prim_px(GPU_KIND_LINE, 4.0, 1.5, 4.0, 5.5);
    EXPECT(b, 1.0f, 1.0f, {3, 1}, {3, 2}, {3, 3}, {3, 4});
}

/* A 45-degree line counts as x-major (|dx| >= |dy|): (1.5,1.5) -> (5.5,5.5) produces one pixel per column,
 * the one whose centre the line passes: (1,1) (2,2) (3,3) (4,4). */
static void test_line_diagonal(void **state)
{
    (void)state;
    gpu_screen_tri_t a = prim_px(GPU_KIND_LINE, 1.5, 1.5, 5.5, 5.5);
    EXPECT(a, 1.0f, 1.0f, {1, 1}, {2, 2}, {3, 3}, {4, 4});
    /* shallow x-major (2.5,2.5) -> (10.5,4.5), slope 1/4, columns 2..9 (the end is on a centre): at column
     * c the line is at Y = 2.5 + (c - 2) / 4 and the row is the one whose centre lies in [Y - 0.5, Y + 0.5):
     * Y = 2.5, 2.75, 3.0 (band [2.5, 3.5): row 2), 3.25, 3.5, 3.75, 4.0 (band [3.5, 4.5): row 3), 4.25 */
    gpu_screen_tri_t b = prim_px(GPU_KIND_LINE, 2.5, 2.5, 10.5, 4.5);
    EXPECT(b, 1.0f, 1.0f, {2, 2}, {3, 2}, {4, 2}, {5, 3}, {6, 3}, {7, 3}, {8, 3}, {9, 4});
}

/* Wide lines: width w covers, per column, the rows whose centres are within w/2 of the line (bottom tie in,
 * top tie out). Horizontal (1.5,5.5) -> (4.5,5.5): columns 1..3; width 3: [4.0, 7.0) -> rows 4,5,6; width 2:
 * [4.5, 6.5) -> rows 4,5; width 2.5 rounds to 3 (GL: nearest integer; halves up as llvmpipe); 1.49 to 1.
 * Vertical (6.5,1.5) -> (6.5,3.5), width 4: rows 1..2, columns with centres in [4.5, 8.5): 4,5,6,7. */
static void test_wide_lines(void **state)
{
    (void)state;
    gpu_screen_tri_t a = prim_px(GPU_KIND_LINE, 1.5, 5.5, 4.5, 5.5);
    EXPECT(a, 3.0f, 1.0f, {1, 4}, {2, 4}, {3, 4}, {1, 5}, {2, 5}, {3, 5}, {1, 6}, {2, 6}, {3, 6});
    EXPECT(a, 2.0f, 1.0f, {1, 4}, {2, 4}, {3, 4}, {1, 5}, {2, 5}, {3, 5});
    EXPECT(a, 2.5f, 1.0f, {1, 4}, {2, 4}, {3, 4}, {1, 5}, {2, 5}, {3, 5}, {1, 6}, {2, 6}, {3, 6});
    EXPECT(a, 1.49f, 1.0f, {1, 5}, {2, 5}, {3, 5});
    gpu_screen_tri_t b = prim_px(GPU_KIND_LINE, 6.5, 1.5, 6.5, 3.5);
    EXPECT(b, 4.0f, 1.0f, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {4, 2}, {5, 2}, {6, 2}, {7, 2});
}

/* Aliased points: size 1 at (3.7,2.2) -> pixel (3,2). Odd size 3: centred on that pixel -> x 2..4, y 1..3.
 * Even size 2: centred on the nearest corner (4.0, 2.0) -> x 3..4, y 1..2. Size 2.5 rounds to 2 (halves
 * down, as llvmpipe), 0.2 to 1. */
static void test_points(void **state)
{
    (void)state;
    gpu_screen_tri_t p = prim_px(GPU_KIND_POINT, 3.7, 2.2, 3.7, 2.2);
    EXPECT(p, 1.0f, 1.0f, {3, 2});
    EXPECT(p, 1.0f, 0.2f, {3, 2});
    EXPECT(p, 1.0f, 3.0f, {2, 1}, {3, 1}, {4, 1}, {2, 2}, {3, 2}, {4, 2}, {2, 3}, {3, 3}, {4, 3});
    EXPECT(p, 1.0f, 2.0f, {3, 1}, {4, 1}, {3, 2}, {4, 2});
    EXPECT(p, 1.0f, 2.5f, {3, 1}, {4, 1}, {3, 2}, {4, 2});
    /* at the surface corner: clipped to the surface */
    gpu_screen_tri_t q = prim_px(GPU_KIND_POINT, 0.2, 0.2, 0.2, 0.2);
    EXPECT(q, 1.0f, 3.0f, {0, 0}, {1, 0}, {0, 1}, {1, 1});
}

/* Depth and varyings along a line vary with the major axis only: (2.5,3.5) z 0 -> (6.5,3.5) z 1, colour
 * 0 -> 1: pixel x has t = (x + 0.5 - 2.5) / 4 -> pixels 2..5 get t = 0, 0.25, 0.5, 0.75. A point takes its
 * vertex's values everywhere. */
static void test_line_interpolation(void **state)
{
    (void)state;
    gpu_screen_tri_t t = prim_px(GPU_KIND_LINE, 2.5, 3.5, 6.5, 3.5);
    t.z[0] = 0.0f;
    t.z[1] = t.z[2] = 1.0f;
    t.var[0][0][0] = 0.0f;
    t.var[1][0][0] = t.var[2][0][0] = 1.0f;
    gpu_state_t st = gpu_state_default(0, W, H);
    gpu_rast_t r;
    assert_int_equal(gpu_rast_setup(&r, &t, &st, W, H), 1);
    for (int qx = 2; qx <= 4; qx += 2) {
        gpu_quad_t q;
        memset(&q, 0, sizeof q);
        uint8_t cov = gpu_rast_quad(&r, qx, 2, 1, &q);
        assert_int_equal(cov, 0xC);    /* pixels (qx, 3) and (qx + 1, 3): the upper two of the quad */
        for (int i = 2; i < 4; i++) {
            double tt = (qx + (i & 1) - 2) / 4.0;
            assert_true(fabs(q.var[i][0][0] - tt) < 1e-6);
            assert_int_equal(q.depth[i], (uint32_t)llrint(tt * GPU_DEPTH_MAX));
        }
    }
    gpu_screen_tri_t p = prim_px(GPU_KIND_POINT, 5.5, 5.5, 5.5, 5.5);
    p.var[0][0][1] = 0.75f;
    p.z[0] = 0.25f;
    st.point_size = 2.0f;
    assert_int_equal(gpu_rast_setup(&r, &p, &st, W, H), 1);
    gpu_quad_t q;
    memset(&q, 0, sizeof q);
    /* size 2 at (5.5,5.5): centred on the corner (6,6) -> x, y 5..6: quad (4,4) holds only (5,5) (bit 3),
     * quad (6,6) only (6,6) (bit 0) */
    assert_int_equal(gpu_rast_quad(&r, 6, 6, 1, &q), 0x1);
    memset(&q, 0, sizeof q);
    assert_int_equal(gpu_rast_quad(&r, 4, 4, 2, &q), 0x8);
    assert_true(q.var[3][1][0] == 0.0f && fabs(q.var[3][0][1] - 0.75) < 1e-7);
    assert_int_equal(q.depth[3], (uint32_t)llrint(0.25 * GPU_DEPTH_MAX));
}

/* CLIP: a line from z_ndc = 0 (w 1) to behind the eye (w -1) is cut at the near plane z = -w; the screen
 * line keeps its first end. Points outside the view volume are discarded (GL). In project mode the P2G
 * input of a line is its pixel box: width 3 line (1.5,5.5)->(4.5,5.5) -> pixels x 1..3, y 4..6. */
static void test_clip_and_p2g_box(void **state)
{
    (void)state;
    gpu_draw_t d;
    memset(&d, 0, sizeof d);
    d.topo = GPU_TOPO_LINES;
    d.st = gpu_state_default(0, W, H);
    d.st.line_width = 3.0f;
    gpu_shaded_tri_t s;
    memset(&s, 0, sizeof s);
    /* clip (x, y, z, w): ndc x = (2 px / W) - 1 for pixel px */
    float a[4] = {2.0f * 1.5f / W - 1.0f, 2.0f * 5.5f / H - 1.0f, 0.0f, 1.0f};
    float b[4] = {2.0f * 4.5f / W - 1.0f, 2.0f * 5.5f / H - 1.0f, 0.0f, 1.0f};
    memcpy(s.v[0][0], a, sizeof a);
    memcpy(s.v[1][0], b, sizeof b);
    memcpy(s.v[2][0], b, sizeof b);
    gpu_projected_t pj;
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_PROJECT, NULL, &pj), 1);
    assert_int_equal(pj.p2g.flags, 0);
    p2g_config_t cfg = p2g_config_default(2, W, H);
    int32_t x0, y0, x1, y1;
    assert_int_equal(p2g_pixel_box(&cfg, &pj.p2g, &x0, &y0, &x1, &y1), 1);
    assert_int_equal(x0, 1); assert_int_equal(x1, 3);
    assert_int_equal(y0, 4); assert_int_equal(y1, 6);
    /* the same line in render mode: one screen line with kind LINE */
    gpu_screen_tri_t out[GPU_CLIP_MAX_OUT];
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 1);
    assert_int_equal(out[0].kind, GPU_KIND_LINE);
    assert_int_equal(out[0].x[0], (int32_t)(1.5 * 256)); assert_int_equal(out[0].x[1], (int32_t)(4.5 * 256));
    /* crossing the near plane: b behind the eye (z = w = -1 after the sign flip: z < -w means outside) */
    float c[4] = {0.0f, 0.0f, -3.0f, 1.0f};    /* z = -3 < -w = -1: outside the near plane */
    memcpy(s.v[1][0], c, sizeof c);
    memcpy(s.v[2][0], c, sizeof c);
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_PROJECT, NULL, &pj), 1);
    assert_int_equal(pj.p2g.flags, P2G_FLAG_NEAR_CLIP);
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 1);
    /* cut where z = -w: from z 0 to -3 with w 1: t = 1/3; x from a.x to 0 -> a.x * 2/3 */
    double xn = a[0] + (0.0 - a[0]) / 3.0, xw = (xn + 1.0) * 0.5 * W * 256.0;
    assert_true(llabs((long long)out[0].x[1] - llrint(xw)) <= 1);
    assert_true(fabs(out[0].z[1] - 0.0f) < 1e-6f);   /* on the near plane: window depth 0 */
    /* a point outside the view volume is discarded, inside it is kept */
    d.topo = GPU_TOPO_POINTS;
    float e[4] = {1.2f, 0.0f, 0.0f, 1.0f};
    memcpy(s.v[0][0], e, sizeof e);
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 0);
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_PROJECT, NULL, &pj), 1);
    assert_int_equal(pj.p2g.flags, P2G_FLAG_CULLED);
    e[0] = 0.5f;
    memcpy(s.v[0][0], e, sizeof e);
    assert_int_equal(gpu_clip_triangle(&d, &s, GPU_MODE_RENDER, out, NULL), 1);
    assert_int_equal(out[0].kind, GPU_KIND_POINT);
}

/* Vertex fetch and primitive counts of the line and point topologies: 5 vertices make 2 lines (the 5th is
 * dropped), 4 strip segments, 5 loop segments (the last one closes 4 -> 0), 5 points. */
static void test_fetch_topologies(void **state)
{
    (void)state;
    gpu_draw_t d;
    memset(&d, 0, sizeof d);
    d.count = 5;
    d.n_vertices = 5;
    uint32_t v[3];
    d.topo = GPU_TOPO_LINES;
    assert_int_equal(gpu_draw_prim_count(&d), 2);
    assert_int_equal(gpu_fetch_triangle(&d, 1, v), 0);
    assert_int_equal(v[0], 2); assert_int_equal(v[1], 3); assert_int_equal(v[2], 3);
    d.topo = GPU_TOPO_LINE_STRIP;
    assert_int_equal(gpu_draw_prim_count(&d), 4);
    assert_int_equal(gpu_fetch_triangle(&d, 3, v), 0);
    assert_int_equal(v[0], 3); assert_int_equal(v[1], 4);
    d.topo = GPU_TOPO_LINE_LOOP;
    assert_int_equal(gpu_draw_prim_count(&d), 5);
    assert_int_equal(gpu_fetch_triangle(&d, 4, v), 0);
    assert_int_equal(v[0], 4); assert_int_equal(v[1], 0);
    d.topo = GPU_TOPO_POINTS;
    assert_int_equal(gpu_draw_prim_count(&d), 5);
    assert_int_equal(gpu_fetch_triangle(&d, 4, v), 0);
    assert_int_equal(v[0], 4); assert_int_equal(v[2], 4);
    assert_int_equal(gpu_fetch_triangle(&d, 5, v), -1);
    d.count = 1;
    d.topo = GPU_TOPO_LINE_LOOP;
    assert_int_equal(gpu_draw_prim_count(&d), 0);
    d.topo = GPU_TOPO_LINE_STRIP;
    assert_int_equal(gpu_draw_prim_count(&d), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_ends_on_centres),
        cmocka_unit_test(test_line_diamond_exit),
        cmocka_unit_test(test_line_ties),
        cmocka_unit_test(test_line_diagonal),
        cmocka_unit_test(test_wide_lines),
        cmocka_unit_test(test_points),
        cmocka_unit_test(test_line_interpolation),
        cmocka_unit_test(test_clip_and_p2g_box),
        cmocka_unit_test(test_fetch_topologies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
