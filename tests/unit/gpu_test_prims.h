/* Shared helpers of the RAST/CLIP unit tests (test_gpu_raster.c, test_gpu_lines.c): screen-space primitives
 * written in pixels. Header-only (each test is one translation unit); include after gpu/gpu.h. */
#ifndef GPUPD_TEST_GPU_TEST_PRIMS_H
#define GPUPD_TEST_GPU_TEST_PRIMS_H

#include <stdint.h>
#include <string.h>

#include "gpu/gpu.h"

/* A screen-space primitive of the given kind (GPU_KIND_TRIANGLE: vertices 0..2; GPU_KIND_LINE: ends 0 and 1;
 * GPU_KIND_POINT: vertex 0) from vertex positions in pixels (pixel p has its centre at p + 0.5), in the
 * rasterizer's fixed point (8 fractional bits, truncated), 1/w = 1, depth 0.5, no varyings. */
static inline gpu_screen_tri_t test_screen_prim(int kind, const double v[3][2])
{
    gpu_screen_tri_t t;
    memset(&t, 0, sizeof t);
    t.kind = (uint8_t)kind;
    for (int i = 0; i < 3; i++) {
        t.x[i] = (int32_t)(v[i][0] * 256.0);
        t.y[i] = (int32_t)(v[i][1] * 256.0);
        t.inv_w[i] = 1.0f;
        t.z[i] = 0.5f;
    }
    return t;
}

#endif
