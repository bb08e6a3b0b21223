/* P2G functional definition (SPEC 4.1). See p2g.h. */
#include "p2g/p2g.h"

#include <stddef.h>

p2g_config_t p2g_config_default(uint32_t n_gpus, uint32_t width, uint32_t height)
{
    p2g_config_t c;
    c.n_gpus = n_gpus;
    c.width = width;
    c.height = height;
    c.tile_log2 = 5;
    c.mode = P2G_MODE_DIAG;
    c.sc_x0 = 0;
    c.sc_y0 = 0;
    c.sc_x1 = width ? width - 1 : 0;
    c.sc_y1 = height ? height - 1 : 0;
    return c;
}

const char *p2g_config_check(const p2g_config_t *c)
{
    if (c->n_gpus < 1 || c->n_gpus > P2G_MAX_GPUS) return "number of GPUs must be 1..64";
    if (c->width < 1 || c->width > P2G_MAX_DIM) return "width must be 1..16384";
    if (c->height < 1 || c->height > P2G_MAX_DIM) return "height must be 1..16384";
    if (c->tile_log2 > P2G_MAX_TILE_LOG2) return "tile-log2 must be 0..14";
    if (c->mode != P2G_MODE_DIAG && c->mode != P2G_MODE_LINEAR) return "mode must be diag or linear";
    if (c->sc_x0 >= P2G_MAX_DIM || c->sc_x1 >= P2G_MAX_DIM || c->sc_y0 >= P2G_MAX_DIM ||
        c->sc_y1 >= P2G_MAX_DIM)
        return "scissor coordinates must be 0..16383";
    return NULL;
}

static uint32_t tiles_per_row(const p2g_config_t *c)
{
    uint32_t t = 1u << c->tile_log2;
    return (c->width + t - 1) >> c->tile_log2;
}

uint32_t p2g_owner(const p2g_config_t *c, uint32_t tx, uint32_t ty)
{
    if (c->mode == P2G_MODE_LINEAR)
        return (uint32_t)(((uint64_t)tx + (uint64_t)ty * tiles_per_row(c)) % c->n_gpus);
    return (tx + ty) % c->n_gpus;
}

static uint64_t all_gpus(uint32_t n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }

/* Mask of owners start, start+1, ..., start+len-1 (mod n). */
static uint64_t range_mask(uint32_t n, uint64_t start, uint64_t len)
{
    if (len >= n) return all_gpus(n);
    uint64_t m = 0;
    uint32_t s = (uint32_t)(start % n);
    for (uint64_t i = 0; i < len; i++) {
        m |= 1ull << s;
        if (++s == n) s = 0;
    }
    return m;
}

uint64_t p2g_tile_rect_mask(const p2g_config_t *c, uint32_t tx0, uint32_t ty0, uint32_t tx1,
                            uint32_t ty1)
{
    uint64_t full = all_gpus(c->n_gpus), m = 0;
    uint64_t len = (uint64_t)tx1 - tx0 + 1;
    if (c->mode == P2G_MODE_DIAG) {
        /* owners of row ty are the contiguous range (tx0+ty) .. (tx1+ty): the rectangle's owners are
         * (tx0+ty0) .. (tx1+ty1). */
        return range_mask(c->n_gpus, (uint64_t)tx0 + ty0, len + (ty1 - ty0));
    }
    for (uint64_t ty = ty0; ty <= ty1 && m != full; ty++)
        m |= range_mask(c->n_gpus, (uint64_t)tx0 + ty * tiles_per_row(c), len);
    return m;
}

static int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t min_i32(int32_t a, int32_t b) { return a < b ? a : b; }

int32_t p2g_floor256(int64_t v)
{
    int64_t q = v / 256;
    if (v % 256 != 0 && v < 0) q -= 1;
    return (int32_t)q;
}

int p2g_pixel_box(const p2g_config_t *c, const p2g_prim_t *p, int32_t *px0, int32_t *py0,
                  int32_t *px1, int32_t *py1)
{
    if (p->flags & P2G_FLAG_CULLED) return 0;
    /* Effective region: scissor intersected with the screen. */
    int32_t ex0 = (int32_t)c->sc_x0, ey0 = (int32_t)c->sc_y0;
    int32_t ex1 = min_i32((int32_t)c->sc_x1, (int32_t)c->width - 1);
    int32_t ey1 = min_i32((int32_t)c->sc_y1, (int32_t)c->height - 1);
    int32_t x0, y0, x1, y1;
    if (p->flags & P2G_FLAG_NEAR_CLIP) {
        x0 = ex0; y0 = ey0; x1 = ex1; y1 = ey1;
    } else {
        int32_t minx = min_i32(p->x[0], min_i32(p->x[1], p->x[2]));
        int32_t maxx = max_i32(p->x[0], max_i32(p->x[1], p->x[2]));
        int32_t miny = min_i32(p->y[0], min_i32(p->y[1], p->y[2]));
        int32_t maxy = max_i32(p->y[0], max_i32(p->y[1], p->y[2]));
        /* Pixel p is covered-able if its centre 256p+128 lies in [min, max]:
         * p >= ceil((min-128)/256) = floor((min+127)/256), p <= floor((max-128)/256).
         * 64-bit arithmetic: no overflow for any int32 input. */
        x0 = max_i32(p2g_floor256((int64_t)minx + 127), ex0);
        y0 = max_i32(p2g_floor256((int64_t)miny + 127), ey0);
        x1 = min_i32(p2g_floor256((int64_t)maxx - 128), ex1);
        y1 = min_i32(p2g_floor256((int64_t)maxy - 128), ey1);
    }
    if (x0 > x1 || y0 > y1) return 0;
    *px0 = x0; *py0 = y0; *px1 = x1; *py1 = y1;
    return 1;
}

uint64_t p2g_mask(const p2g_config_t *c, const p2g_prim_t *p)
{
    int32_t x0, y0, x1, y1;
    if (!p2g_pixel_box(c, p, &x0, &y0, &x1, &y1)) return 0;
    return p2g_tile_rect_mask(c, (uint32_t)x0 >> c->tile_log2, (uint32_t)y0 >> c->tile_log2,
                              (uint32_t)x1 >> c->tile_log2, (uint32_t)y1 >> c->tile_log2);
}
