/* RAST unit: triangle setup and 2x2-quad fragment generation (SPEC 4.4).
 * Usable on its own (unit tests, validation tools) and by the pipeline in gpu.c. */
#ifndef GPUPD_GPU_RASTER_H
#define GPUPD_GPU_RASTER_H

#include <stdint.h>

#include "gpu/gpu_types.h"

/* The pixels a line or point covers (gpu_lp_region). */
typedef struct {
    int kind;                       /* GPU_KIND_LINE or GPU_KIND_POINT */
    int32_t bx0, by0, bx1, by1;     /* inclusive pixel box holding every covered pixel (the P2G input) */
    int xmajor;                     /* line: |dx| >= |dy| */
    int32_t c0, c1;                 /* line: pixel columns (x-major) or rows (y-major) produced, inclusive */
    int64_t x0, y0, dx, dy;         /* line: first end and direction, 1/256 px */
    int64_t half;                   /* line: half the integer width, 1/256 px */
} gpu_lp_t;

typedef struct {
    gpu_screen_tri_t t;             /* vertices reordered to positive (counter-clockwise) area */
    int64_t area2;                  /* twice the area, in (1/256 px)^2, > 0 */
    int32_t ex[3], ey[3];           /* edge i runs from vertex (i+1)%3 to (i+2)%3: dx, dy */
    uint8_t topleft[3];
    int32_t rx0, ry0, rx1, ry1;     /* raster rectangle (inclusive pixels): box ∩ viewport ∩ scissor ∩ surface */
    int32_t qx, qy;                 /* iterator: next quad to visit */
    double zoff;                    /* polygon offset added to the interpolated depth */
    float za0, zdx, zdy;            /* depth plane in the reference frame: z = za0 + zdx*x + zdy*y (binary32) */
    float zlo, zhi;                 /* depth range the fragment depth is clamped to */
    uint8_t y_down;                 /* pixel row of the plane: h - 1 - py (window surface) or py */
    int32_t h;
    int empty;
    /* lines and points (t.kind != GPU_KIND_TRIANGLE): gpu_lp_region */
    gpu_lp_t lp;
    double lt_x, lt_y, lt_c;        /* line parameter t = lt_x * fx + lt_y * fy + lt_c (fx, fy in 1/256 px) */
    /* the quad walk's cache of gpu_rast_row_span for row pair span_y (valid when span_ok) */
    int32_t span_y, span_x0, span_x1;
    uint8_t span_ok;
} gpu_rast_t;

/* gl_FrontFacing of a primitive: 1 if the snapped window-space triangle (GL's y up) is front-facing by
 * st->front_ccw (the orientation culling uses), 0 if back-facing; lines and points are front-facing. */
int gpu_prim_front(const gpu_screen_tri_t *t, const gpu_state_t *st);

/* Set up a triangle for a surface of w x h pixels with the draw's viewport and scissor.
 * Returns 0 if it covers no pixel centre (empty), 1 otherwise. */
int gpu_rast_setup(gpu_rast_t *r, const gpu_screen_tri_t *t, const gpu_state_t *st, uint32_t w, uint32_t h);

/* The pixels a line or point covers, as GL's aliased rasterization defines them (docs/golden-model.md
 * section 1.1). Line (t->kind LINE, ends = vertices 0 and 1), width w = max(1, round(st->line_width)):
 * an x-major line (|dx| >= |dy|) produces, in each pixel column c0..c1, the w pixels whose centres lie
 * within w/2 vertically of the line at the column centre (a centre exactly w/2 below is in, exactly w/2
 * above is out); the columns follow GL's diamond-exit rule at the two ends, so w = 1 is exactly GL's
 * diamond-exit line. Y-major lines swap x and y (a centre exactly w/2 left of the line is in, right is
 * out). These tie rules are llvmpipe's on a window-system framebuffer. Point (vertex 0): GL's aliased
 * s x s square, s = max(1, round(st->point_size)), centred on the pixel holding the point (odd s) or on
 * the nearest pixel corner (even s). Returns 1 with *lp filled, 0 if it covers no pixel. */
int gpu_lp_region(const gpu_screen_tri_t *t, const gpu_state_t *st, gpu_lp_t *lp);
/* Pixel (px, py) covered by the region (its box and, for lines, the width test)? */
int gpu_lp_covers(const gpu_lp_t *lp, int32_t px, int32_t py);

/* Coverage of pixel (px, py): 1 if its centre is inside (top-left rule). */
int gpu_rast_covers(const gpu_rast_t *r, int32_t px, int32_t py);

/* Pixel columns [*x0, *x1] outside of which no pixel of rows qy and qy + 1 is covered (a superset, from
 * the edge equations; the raster rectangle for lines and points); *x0 > *x1 when none is covered. Lets
 * the quad walk skip the empty quads of a primitive's box. */
void gpu_rast_row_span(const gpu_rast_t *r, int32_t qy, int32_t *x0, int32_t *x1);

/* Fill one quad's coverage, depth and varyings (helpers are interpolated too). Returns the cover mask. */
uint8_t gpu_rast_quad(const gpu_rast_t *r, int32_t qx, int32_t qy, uint32_t n_var, gpu_quad_t *q);

#endif
