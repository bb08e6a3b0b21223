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
} gpu_rast_t;

/* Set up a triangle for a surface of w x h pixels with the draw's viewport and scissor.
 * Returns 0 if it covers no pixel centre (empty), 1 otherwise. */
int gpu_rast_setup(gpu_rast_t *r, const gpu_screen_tri_t *t, const gpu_state_t *st, uint32_t w, uint32_t h);

/* Coverage of pixel (px, py): 1 if its centre is inside (top-left rule). */
int gpu_rast_covers(const gpu_rast_t *r, int32_t px, int32_t py);

/* Fill one quad's coverage, depth and varyings (helpers are interpolated too). Returns the cover mask. */
uint8_t gpu_rast_quad(const gpu_rast_t *r, int32_t qx, int32_t qy, uint32_t n_var, gpu_quad_t *q);

#endif
