/* Constrained-random P2G stimulus. See p2g_stim.h. */
#include "p2g/p2g_stim.h"

const char *const p2g_stim_kind_name[P2G_STIM_N_KINDS] = {
    "tiny", "screen", "sliver", "offscreen", "tile-edge", "pixel-edge", "extreme", "culled",
    "near-clip", "medium",
};

static int32_t clamp_coord(int64_t v)
{
    if (v < P2G_COORD_MIN) return P2G_COORD_MIN;
    if (v > P2G_COORD_MAX) return P2G_COORD_MAX;
    return (int32_t)v;
}

/* A fixed-point coordinate near the pixel-centre boundary of pixel p: centre 256p+128 plus -1, 0 or +1. */
static int64_t centre_edge(rng_t *r, int64_t pix) { return 256 * pix + 128 + rng_range(r, -1, 1); }

void p2g_stim_prim(rng_t *r, const p2g_config_t *c, p2g_stim_kind_t kind, p2g_prim_t *p)
{
    int64_t W = c->width, H = c->height, T = 1ll << c->tile_log2;
    int64_t x[3], y[3];
    p->flags = 0;
    switch (kind) {
    case P2G_STIM_TINY: {
        int64_t cx = rng_range(r, -256, 256 * W + 256), cy = rng_range(r, -256, 256 * H + 256);
        for (int i = 0; i < 3; i++) { x[i] = cx + rng_range(r, -300, 300); y[i] = cy + rng_range(r, -300, 300); }
        break;
    }
    case P2G_STIM_SCREEN:
        for (int i = 0; i < 3; i++) {
            x[i] = rng_range(r, -256 * W / 2, 256 * W * 3 / 2);
            y[i] = rng_range(r, -256 * H / 2, 256 * H * 3 / 2);
        }
        break;
    case P2G_STIM_SLIVER: {
        int64_t ax = rng_range(r, -256 * 64, 256 * (W + 64)), ay = rng_range(r, -256 * 64, 256 * (H + 64));
        int64_t bx = rng_range(r, -256 * 64, 256 * (W + 64)), by = rng_range(r, -256 * 64, 256 * (H + 64));
        if (rng_chance(r, 1, 3)) by = ay + rng_range(r, -2, 2);          /* horizontal sliver */
        else if (rng_chance(r, 1, 2)) bx = ax + rng_range(r, -2, 2);     /* vertical sliver */
        x[0] = ax; y[0] = ay; x[1] = bx; y[1] = by;
        x[2] = (ax + bx) / 2 + rng_range(r, -3, 3);
        y[2] = (ay + by) / 2 + rng_range(r, -3, 3);
        break;
    }
    case P2G_STIM_OFFSCREEN: {
        int side = (int)rng_below(r, 4);
        for (int i = 0; i < 3; i++) {
            x[i] = rng_range(r, -256 * W, 256 * 2 * W);
            y[i] = rng_range(r, -256 * H, 256 * 2 * H);
            /* keep every vertex just beyond one screen edge (the last row/column of centres excluded) */
            if (side == 0) x[i] = rng_range(r, P2G_COORD_MIN, 127);
            if (side == 1) x[i] = rng_range(r, 256 * W - 128 + 1, P2G_COORD_MAX);
            if (side == 2) y[i] = rng_range(r, P2G_COORD_MIN, 127);
            if (side == 3) y[i] = rng_range(r, 256 * H - 128 + 1, P2G_COORD_MAX);
        }
        break;
    }
    case P2G_STIM_TILE_EDGE: {
        /* bounding box edges exactly at the first/last pixel centre of a tile, +-1/256 */
        int64_t ntx = (W + T - 1) / T + 1, nty = (H + T - 1) / T + 1;
        int64_t tx = rng_range(r, -1, ntx), ty = rng_range(r, -1, nty);
        int64_t tx2 = tx + rng_range(r, 0, 3), ty2 = ty + rng_range(r, 0, 3);
        x[0] = centre_edge(r, tx * T);          y[0] = centre_edge(r, ty * T);
        x[1] = centre_edge(r, tx2 * T + T - 1 + rng_range(r, 0, 1)); y[1] = centre_edge(r, ty * T + rng_range(r, -1, 0));
        x[2] = centre_edge(r, tx * T + rng_range(r, -1, 0));         y[2] = centre_edge(r, ty2 * T + T - 1 + rng_range(r, 0, 1));
        break;
    }
    case P2G_STIM_PIXEL_EDGE: {
        int64_t px = rng_range(r, -2, W + 1), py = rng_range(r, -2, H + 1);
        for (int i = 0; i < 3; i++) {
            x[i] = centre_edge(r, px + rng_range(r, 0, 2));
            y[i] = centre_edge(r, py + rng_range(r, 0, 2));
        }
        break;
    }
    case P2G_STIM_EXTREME:
        for (int i = 0; i < 3; i++) {
            static const int64_t pick[6] = {P2G_COORD_MIN, P2G_COORD_MIN + 1, -1, 0, P2G_COORD_MAX - 1, P2G_COORD_MAX};
            x[i] = rng_chance(r, 3, 4) ? pick[rng_below(r, 6)] : rng_range(r, P2G_COORD_MIN, P2G_COORD_MAX);
            y[i] = rng_chance(r, 3, 4) ? pick[rng_below(r, 6)] : rng_range(r, P2G_COORD_MIN, P2G_COORD_MAX);
        }
        break;
    case P2G_STIM_CULLED:
    case P2G_STIM_NEAR_CLIP:
    case P2G_STIM_MEDIUM:
    default: {
        int64_t cx = rng_range(r, -256 * 64, 256 * (W + 64)), cy = rng_range(r, -256 * 64, 256 * (H + 64));
        int64_t s = 256 * (int64_t)rng_range(r, 1, 4 * T + 8);
        for (int i = 0; i < 3; i++) { x[i] = cx + rng_range(r, -s, s); y[i] = cy + rng_range(r, -s, s); }
        if (kind == P2G_STIM_CULLED) p->flags = P2G_FLAG_CULLED | (rng_chance(r, 1, 2) ? P2G_FLAG_NEAR_CLIP : 0);
        if (kind == P2G_STIM_NEAR_CLIP) p->flags = P2G_FLAG_NEAR_CLIP;
        break;
    }
    }
    for (int i = 0; i < 3; i++) { p->x[i] = clamp_coord(x[i]); p->y[i] = clamp_coord(y[i]); }
}

p2g_stim_kind_t p2g_stim_any(rng_t *r, const p2g_config_t *c, p2g_prim_t *p)
{
    /* weights: mostly realistic primitives, every corner kind regularly */
    static const uint8_t w[P2G_STIM_N_KINDS] = {20, 6, 8, 8, 10, 10, 4, 4, 4, 26};
    uint32_t total = 0, k;
    for (k = 0; k < P2G_STIM_N_KINDS; k++) total += w[k];
    uint32_t v = rng_below(r, total);
    for (k = 0; k < P2G_STIM_N_KINDS - 1 && v >= w[k]; k++) v -= w[k];
    p2g_stim_prim(r, c, (p2g_stim_kind_t)k, p);
    return (p2g_stim_kind_t)k;
}

const char *const p2g_field_name[P2G_N_FIELDS] = {"n", "W", "H", "tile_log2", "mode", "sc_x0", "sc_y0", "sc_x1", "sc_y1"};

static uint32_t pick_dim(rng_t *r);

/* a value in [lo, hi] other than cur (the range holds at least two values) */
static uint32_t other(rng_t *r, uint32_t cur, uint32_t lo, uint32_t hi)
{
    uint32_t v = (uint32_t)rng_range(r, lo, hi - 1);
    return v >= cur ? v + 1 : v;
}

int p2g_stim_change_one(rng_t *r, const p2g_config_t *prev, p2g_field_t f, uint32_t max_gpus, p2g_config_t *out)
{
    *out = *prev;
    uint32_t d;
    switch (f) {
    case P2G_FIELD_N:
        if (max_gpus < 2) return 0;
        out->n_gpus = other(r, prev->n_gpus, 1, max_gpus);
        break;
    case P2G_FIELD_W:
        d = pick_dim(r);
        out->width = d != prev->width ? d : other(r, prev->width, 1, P2G_MAX_DIM);
        break;
    case P2G_FIELD_H:
        d = pick_dim(r);
        out->height = d != prev->height ? d : other(r, prev->height, 1, P2G_MAX_DIM);
        break;
    case P2G_FIELD_TILE:
        /* mostly a neighbouring size (the residue tables change, the screen does not) */
        if (rng_chance(r, 2, 3) && prev->tile_log2 > 0 && (prev->tile_log2 == P2G_MAX_TILE_LOG2 || rng_chance(r, 1, 2)))
            out->tile_log2 = prev->tile_log2 - 1;
        else if (prev->tile_log2 < P2G_MAX_TILE_LOG2 && rng_chance(r, 2, 3))
            out->tile_log2 = prev->tile_log2 + 1;
        else
            out->tile_log2 = other(r, prev->tile_log2, 0, P2G_MAX_TILE_LOG2);
        break;
    case P2G_FIELD_MODE:
        out->mode = prev->mode == P2G_MODE_DIAG ? P2G_MODE_LINEAR : P2G_MODE_DIAG;
        break;
    case P2G_FIELD_SC_X0: out->sc_x0 = other(r, prev->sc_x0, 0, rng_chance(r, 3, 4) ? (prev->width > 1 ? prev->width : 2) : P2G_MAX_DIM - 1); break;
    case P2G_FIELD_SC_Y0: out->sc_y0 = other(r, prev->sc_y0, 0, rng_chance(r, 3, 4) ? (prev->height > 1 ? prev->height : 2) : P2G_MAX_DIM - 1); break;
    case P2G_FIELD_SC_X1: out->sc_x1 = other(r, prev->sc_x1, 0, rng_chance(r, 3, 4) ? (prev->width > 1 ? prev->width : 2) : P2G_MAX_DIM - 1); break;
    case P2G_FIELD_SC_Y1: out->sc_y1 = other(r, prev->sc_y1, 0, rng_chance(r, 3, 4) ? (prev->height > 1 ? prev->height : 2) : P2G_MAX_DIM - 1); break;
    default: return 0;
    }
    return 1;
}

static uint32_t pick_dim(rng_t *r)
{
    static const uint32_t common[] = {1, 2, 31, 32, 33, 64, 480, 600, 640, 720, 768, 800, 1024, 1080,
                                      1280, 1600, 1920, 2160, 3840, 4096, 8192, 16383, 16384};
    if (rng_chance(r, 1, 2)) return common[rng_below(r, sizeof common / sizeof common[0])];
    return (uint32_t)rng_range(r, 1, rng_chance(r, 3, 4) ? 2048 : P2G_MAX_DIM);
}

void p2g_stim_config(rng_t *r, uint32_t n_gpus, p2g_config_t *c)
{
    *c = p2g_config_default(n_gpus, pick_dim(r), pick_dim(r));
    uint32_t v = rng_below(r, 10);
    c->tile_log2 = v < 5 ? 5 : (v < 9 ? rng_below(r, 8) : rng_below(r, P2G_MAX_TILE_LOG2 + 1));
    c->mode = rng_chance(r, 1, 2) ? P2G_MODE_DIAG : P2G_MODE_LINEAR;
    v = rng_below(r, 10);
    if (v >= 5) { /* partial, oversized or empty scissor */
        c->sc_x0 = (uint32_t)rng_range(r, 0, c->width + 8 > P2G_MAX_DIM - 1 ? P2G_MAX_DIM - 1 : c->width + 8);
        c->sc_y0 = (uint32_t)rng_range(r, 0, c->height + 8 > P2G_MAX_DIM - 1 ? P2G_MAX_DIM - 1 : c->height + 8);
        c->sc_x1 = (uint32_t)rng_range(r, v == 9 ? 0 : c->sc_x0, P2G_MAX_DIM - 1);
        c->sc_y1 = (uint32_t)rng_range(r, v == 9 ? 0 : c->sc_y0, P2G_MAX_DIM - 1);
        if (rng_chance(r, 1, 2) && c->sc_x1 > c->sc_x0) c->sc_x1 = c->sc_x0 + (c->sc_x1 - c->sc_x0) % (c->width + 1);
        if (rng_chance(r, 1, 2) && c->sc_y1 > c->sc_y0) c->sc_y1 = c->sc_y0 + (c->sc_y1 - c->sc_y0) % (c->height + 1);
    }
}
