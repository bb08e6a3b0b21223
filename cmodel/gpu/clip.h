/* CLIP unit (clip.c): one shaded triangle, line or point through trivial reject, clipping, viewport and
 * culling, or (project mode) classified for the P2G mapper.
 * Dependency direction: gpu.c (the pipeline) -> clip.h -> gpu_types.h; clip.c uses only the data types and
 * the rasterizer's line/point regions (raster.h), never the pipeline (gpu.h). */
#ifndef GPUPD_CLIP_H
#define GPUPD_CLIP_H

#include "gpu/gpu_types.h"

/* Clip/cull/viewport one shaded triangle. Writes up to GPU_CLIP_MAX_OUT screen triangles to out.
 * Returns the count (0: culled), or in project mode fills *proj and returns 1. */
#define GPU_CLIP_MAX_OUT 16
int gpu_clip_triangle(const gpu_draw_t *d, const gpu_shaded_tri_t *in, gpu_mode_t mode,
                      gpu_screen_tri_t *out, gpu_projected_t *proj);

#endif
