/* Internal to the per-GPU pipeline (gpu.c and its units gpu_geom.c, gpu_pixel.c; not for other modules).
 * Dependency direction: gpu.c (API, run loop) -> gpu_geom.c (CP, VF, VS, CLIP step) and gpu_pixel.c (RAST,
 * EZ, FS, ROP step) -> the unit functions of clip.c, raster.c, frag.c. Each step moves items from its input
 * queue to its output queue of gpu_t and returns 1 if it moved any, 0 if not, -1 on an error (g->err). */
#ifndef GPUPD_GPU_UNITS_H
#define GPUPD_GPU_UNITS_H

#include "gpu/gpu.h"
#include "gpu/gpu_timing.h"
#include "gpu/raster.h"

/* Unit-local state kept between steps (the rasterizer iterator). Stored in a side struct so that
 * gpu_t stays plain; one per GPU instance (allocated in gpu_init). */
typedef struct {
    gpu_rast_t r;
    int active;
    int early_z;
    uint8_t front;                  /* gpu_prim_front of the primitive being walked */
    /* frame record (gpu/frec.h) of the triangle being walked: its quads rq..rq_end-1 (replay: the next one
     * to produce), its first span and first row pair; rtri: its index (recording) */
    uint32_t rq, rq_end, rspan, rtri;
    int32_t rqy0;
} gpu_unit_state_t;

/* Pixels in a quad mask (4 bits). */
static inline int pc4(unsigned m) { return (int)((0x4332322132212110ull >> ((m & 15u) * 4)) & 15u); }

/* Timing helpers (g->tm != NULL): a unit's start tick for an item whose output goes to queue qo. */
static inline uint64_t sub_sat(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }
static inline uint64_t t_start(const gpu_timing_t *T, int u, uint64_t ready, const gpu_queue_t *qo)
{
    uint64_t s = gt_max(ready, T->free[u]);
    if (qo) s = gt_max(s, sub_sat(gpu_queue_tf_next(qo, 0), T->lat[u]));
    return s;
}

/* screen ownership of a w x h surface (gpu.c) */
p2g_config_t gpu_own_cfg(const gpu_t *g, uint32_t w, uint32_t h);

/* gpu_geom.c */
int gpu_cp_step(gpu_t *g);
int gpu_vf_step(gpu_t *g);
int gpu_vs_step(gpu_t *g);
int gpu_clip_step(gpu_t *g);

/* gpu_pixel.c */
void gpu_target_size(const gpu_t *g, const gpu_draw_t *d, uint32_t *w, uint32_t *h);   /* of a draw's targets */
int gpu_rast_step(gpu_t *g, gpu_unit_state_t *u);
int gpu_ez_step(gpu_t *g, gpu_unit_state_t *u);
int gpu_fs_step(gpu_t *g);
int gpu_rop_step(gpu_t *g, gpu_unit_state_t *u);

#endif
