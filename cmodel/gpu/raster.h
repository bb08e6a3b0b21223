/* RAST unit: triangle setup and 2x2-quad fragment generation (SPEC 4.4).
 * Usable on its own (unit tests, validation tools) and by the pipeline in gpu.c. */
#ifndef GPUPD_GPU_RASTER_H
#define GPUPD_GPU_RASTER_H

#include <stdint.h>

#include "gpu/gpu.h"

typedef struct {
    gpu_screen_tri_t t;             /* vertices reordered to positive (counter-clockwise) area */
    int64_t area2;                  /* twice the area, in (1/256 px)^2, > 0 */
    int32_t ex[3], ey[3];           /* edge i runs from vertex (i+1)%3 to (i+2)%3: dx, dy */
    uint8_t topleft[3];
    int32_t rx0, ry0, rx1, ry1;     /* raster rectangle (inclusive pixels): box ∩ viewport ∩ scissor ∩ surface */
    int32_t qx, qy;                 /* iterator: next quad to visit */
    double zoff;                    /* polygon offset added to the interpolated depth */
    int empty;
    /* lines and points (t.kind != GPU_KIND_TRIANGLE): the covered region is a convex quadrilateral
     * (gpu_prim_polygon), edge i from corner i to corner (i+1)%4, counter-clockwise */
    int32_t px[4], py[4];
    int32_t pex[4], pey[4];
    uint8_t ptl[4];                 /* top-left rule per edge */
    double lt_x, lt_y, lt_c;        /* line parameter t = lt_x * fx + lt_y * fy + lt_c (fx, fy in 1/256 px) */
} gpu_rast_t;

/* Set up a triangle for a surface of w x h pixels with the draw's viewport and scissor.
 * Returns 0 if it covers no pixel centre (empty), 1 otherwise. */
int gpu_rast_setup(gpu_rast_t *r, const gpu_screen_tri_t *t, const gpu_state_t *st, uint32_t w, uint32_t h);

/* The pixel region a line or point covers, as GL's aliased rasterization defines it (docs/golden-model.md
 * section 1.1), as a counter-clockwise convex quadrilateral in 1/256 pixel: every pixel centre strictly
 * inside is covered, a centre on an edge by the top-left rule (as triangles). Line (t->kind LINE, ends
 * vertices 0 and 1): width w = max(1, round(st->line_width)); an x-major line covers, in every pixel
 * column it produces, the w pixels whose centres lie within w/2 vertically of the line at the column
 * centre; the columns produced follow the diamond-exit rule at the two ends (w = 1 is exactly GL's
 * diamond-exit line). Y-major lines transpose this. Point (vertex 0): the s x s pixel square of GL's
 * aliased points, s = max(1, round(st->point_size)) (odd s: centred on the pixel holding the point;
 * even s: on the nearest pixel corner). Returns 4 (corners written) or 0 (covers nothing). */
int gpu_prim_polygon(const gpu_screen_tri_t *t, const gpu_state_t *st, int32_t px[4], int32_t py[4]);

/* Coverage of pixel (px, py): 1 if its centre is inside (top-left rule). */
int gpu_rast_covers(const gpu_rast_t *r, int32_t px, int32_t py);

/* Fill one quad's coverage, depth and varyings (helpers are interpolated too). Returns the cover mask. */
uint8_t gpu_rast_quad(const gpu_rast_t *r, int32_t qx, int32_t qy, uint32_t n_var, gpu_quad_t *q);

#endif
