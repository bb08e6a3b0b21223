/* Primitive-to-GPU (P2G) mapping: the functional definition (SPEC 4.1).
 *
 * This is THE definition of which GPUs need a primitive. The RTL (rtl/) and the C cycle model of the
 * RTL microarchitecture (p2g_cycle.h) are checked against it mask for mask.
 *
 * Coordinates: signed fixed point with 8 fractional bits (1/256 pixel); the centre of pixel p is p + 0.5,
 * i.e. 256*p + 128. The RTL takes coordinates in the 24-bit signed range [-2^23, 2^23-1].
 */
#ifndef GPUPD_P2G_H
#define GPUPD_P2G_H

#include <stdint.h>

#define P2G_MAX_GPUS      64
#define P2G_MAX_DIM       16384      /* max screen width/height in pixels */
#define P2G_COORD_BITS    24         /* signed coordinate width the RTL takes */
#define P2G_COORD_MIN     (-(1 << (P2G_COORD_BITS - 1)))
#define P2G_COORD_MAX     ((1 << (P2G_COORD_BITS - 1)) - 1)
#define P2G_FRAC_BITS     8
#define P2G_MIN_TILE_LOG2 0
#define P2G_MAX_TILE_LOG2 14

#define P2G_FLAG_CULLED    1u        /* discarded by clipping/culling: mask 0 (wins over near_clip) */
#define P2G_FLAG_NEAR_CLIP 2u        /* crosses the near plane: every owner of a scissor tile */

typedef enum {
    P2G_MODE_DIAG = 0,   /* owner(tx,ty) = (tx + ty) mod N                          (default) */
    P2G_MODE_LINEAR = 1  /* owner(tx,ty) = (tx + ty * ceil(W/T)) mod N   (raster order)          */
} p2g_mode_t;

typedef struct {
    uint32_t n_gpus;      /* 1..64 */
    uint32_t width;       /* 1..16384 pixels */
    uint32_t height;      /* 1..16384 pixels */
    uint32_t tile_log2;   /* tile side T = 1 << tile_log2 pixels, 0..14 */
    p2g_mode_t mode;
    /* Scissor rectangle, inclusive pixel coordinates. The effective region is the intersection of the
     * scissor with the screen; p2g_config_default() sets it to the whole screen. */
    uint32_t sc_x0, sc_y0, sc_x1, sc_y1;
} p2g_config_t;

typedef struct {
    uint32_t prim_id;
    uint32_t tag;         /* draw/batch tag, carried through untouched */
    int32_t x[3], y[3];   /* screen-space vertices, 1/256 pixel */
    uint32_t flags;       /* P2G_FLAG_* */
} p2g_prim_t;

/* floor(v / 256): the pixel index of a 1/256-pixel coordinate (any int64 with |v| < 2^39). */
int32_t p2g_floor256(int64_t v);

/* Whole-screen scissor, diag mode, 32x32 tiles. */
p2g_config_t p2g_config_default(uint32_t n_gpus, uint32_t width, uint32_t height);

/* Returns NULL if cfg is valid, else a static string naming what is wrong. */
const char *p2g_config_check(const p2g_config_t *cfg);

/* Owner GPU of tile (tx, ty). */
uint32_t p2g_owner(const p2g_config_t *cfg, uint32_t tx, uint32_t ty);

/* Pixel-centre bounding box of a primitive clamped to screen and scissor (inclusive pixel coords).
 * Returns 0 if empty (or culled), 1 otherwise. near_clip primitives get the whole scissor region. */
int p2g_pixel_box(const p2g_config_t *cfg, const p2g_prim_t *p,
                  int32_t *px0, int32_t *py0, int32_t *px1, int32_t *py1);

/* The n-bit GPU mask of a primitive (bit g set: GPU g needs it). The definition. */
uint64_t p2g_mask(const p2g_config_t *cfg, const p2g_prim_t *p);

/* Mask of every GPU owning a tile of the inclusive tile rectangle [tx0..tx1] x [ty0..ty1]. */
uint64_t p2g_tile_rect_mask(const p2g_config_t *cfg, uint32_t tx0, uint32_t ty0,
                            uint32_t tx1, uint32_t ty1);

#endif
