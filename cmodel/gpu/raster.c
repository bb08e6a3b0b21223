#include "gpu/raster.h"

#include <math.h>
#include <string.h>

static int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }

/* floor(a / 256) and ceil(a / 256) for signed a */
static int32_t floor_div256(int64_t a) { return (int32_t)(a >= 0 ? a / 256 : -((-a + 255) / 256)); }
static int32_t ceil_div256(int64_t a) { return -floor_div256(-a); }

int gpu_rast_setup(gpu_rast_t *r, const gpu_screen_tri_t *t, const gpu_state_t *st, uint32_t w, uint32_t h)
{
    memset(r, 0, sizeof *r);
    r->t = *t;
    int64_t area = (int64_t)(t->x[1] - t->x[0]) * (t->y[2] - t->y[0]) -
                   (int64_t)(t->x[2] - t->x[0]) * (t->y[1] - t->y[0]);
    if (area == 0) { r->empty = 1; return 0; }
    if (area < 0) {     /* swap vertices 1 and 2 (with their attributes) */
        gpu_screen_tri_t *u = &r->t;
        int32_t ti;
        float tf;
        ti = u->x[1]; u->x[1] = u->x[2]; u->x[2] = ti;
        ti = u->y[1]; u->y[1] = u->y[2]; u->y[2] = ti;
        tf = u->z[1]; u->z[1] = u->z[2]; u->z[2] = tf;
        tf = u->inv_w[1]; u->inv_w[1] = u->inv_w[2]; u->inv_w[2] = tf;
        float tmp[GPU_MAX_VARYINGS][4];
        memcpy(tmp, u->var[1], sizeof tmp);
        memcpy(u->var[1], u->var[2], sizeof tmp);
        memcpy(u->var[2], tmp, sizeof tmp);
        area = -area;
    }
    r->area2 = area;
    for (int i = 0; i < 3; i++) {
        int a = (i + 1) % 3, b = (i + 2) % 3;
        r->ex[i] = r->t.x[b] - r->t.x[a];
        r->ey[i] = r->t.y[b] - r->t.y[a];
        /* y up, interior on the left of a->b: a left edge goes down, a top edge goes in -x */
        r->topleft[i] = (r->ey[i] < 0) || (r->ey[i] == 0 && r->ex[i] < 0);
    }
    if (st->poly_offset) {
        /* depth slope per pixel from the plane through the three vertices */
        double z0 = r->t.z[0], z1 = r->t.z[1], z2 = r->t.z[2];
        double dzdx = ((z1 - z0) * (r->t.y[2] - r->t.y[0]) - (z2 - z0) * (r->t.y[1] - r->t.y[0])) / (double)area * 256.0;
        double dzdy = ((z2 - z0) * (r->t.x[1] - r->t.x[0]) - (z1 - z0) * (r->t.x[2] - r->t.x[0])) / (double)area * 256.0;
        double m = fabs(dzdx) > fabs(dzdy) ? fabs(dzdx) : fabs(dzdy);
        r->zoff = m * st->poly_factor + (double)st->poly_units / 16777216.0;
    }
    int32_t minx = min32(r->t.x[0], min32(r->t.x[1], r->t.x[2]));
    int32_t maxx = max32(r->t.x[0], max32(r->t.x[1], r->t.x[2]));
    int32_t miny = min32(r->t.y[0], min32(r->t.y[1], r->t.y[2]));
    int32_t maxy = max32(r->t.y[0], max32(r->t.y[1], r->t.y[2]));
    /* pixel centres inside the box: ceil(min - 0.5) .. floor(max - 0.5) */
    int32_t x0 = ceil_div256((int64_t)minx - 128), x1 = floor_div256((int64_t)maxx - 128);
    int32_t y0 = ceil_div256((int64_t)miny - 128), y1 = floor_div256((int64_t)maxy - 128);
    /* viewport, scissor and surface */
    x0 = max32(x0, max32(st->vp_x, 0));
    y0 = max32(y0, max32(st->vp_y, 0));
    x1 = min32(x1, min32(st->vp_x + (int32_t)st->vp_w - 1, (int32_t)w - 1));
    y1 = min32(y1, min32(st->vp_y + (int32_t)st->vp_h - 1, (int32_t)h - 1));
    if (st->scissor_enable) {
        x0 = max32(x0, st->sc_x);
        y0 = max32(y0, st->sc_y);
        /* 64-bit: a scissor origin near INT32_MAX must not overflow (issue 12); x1, y1 < 16384 here */
        int64_t sx1 = (int64_t)st->sc_x + st->sc_w - 1, sy1 = (int64_t)st->sc_y + st->sc_h - 1;
        if (sx1 < x1) x1 = (int32_t)sx1;
        if (sy1 < y1) y1 = (int32_t)sy1;
    }
    r->rx0 = x0; r->ry0 = y0; r->rx1 = x1; r->ry1 = y1;
    if (x0 > x1 || y0 > y1) { r->empty = 1; return 0; }
    r->qx = x0 & ~1;
    r->qy = y0 & ~1;
    return 1;
}

static int64_t edge_at(const gpu_rast_t *r, int i, int64_t fx, int64_t fy)
{
    int a = (i + 1) % 3;
    return (int64_t)r->ex[i] * (fy - r->t.y[a]) - (int64_t)r->ey[i] * (fx - r->t.x[a]);
}

int gpu_rast_covers(const gpu_rast_t *r, int32_t px, int32_t py)
{
    if (r->empty || px < r->rx0 || px > r->rx1 || py < r->ry0 || py > r->ry1) return 0;
    int64_t fx = (int64_t)px * 256 + 128, fy = (int64_t)py * 256 + 128;
    for (int i = 0; i < 3; i++) {
        int64_t e = edge_at(r, i, fx, fy);
        if (e < 0 || (e == 0 && !r->topleft[i])) return 0;
    }
    return 1;
}

uint8_t gpu_rast_quad(const gpu_rast_t *r, int32_t qx, int32_t qy, uint32_t n_var, gpu_quad_t *q)
{
    /* edge values at the 4 pixel centres, computed once; coverage first (most quads of a box are empty) */
    int64_t e[4][3];
    uint8_t cover = 0;
    for (int i = 0; i < 4; i++) {
        int32_t px = qx + (i & 1), py = qy + (i >> 1);
        int64_t fx = (int64_t)px * 256 + 128, fy = (int64_t)py * 256 + 128;
        int in = !(px < r->rx0 || px > r->rx1 || py < r->ry0 || py > r->ry1);
        for (int k = 0; k < 3; k++) {
            e[i][k] = edge_at(r, k, fx, fy);
            if (e[i][k] < 0 || (e[i][k] == 0 && !r->topleft[k])) in = 0;
        }
        if (in) cover |= (uint8_t)(1u << i);
    }
    q->cover = cover;
    q->live = cover;
    if (!cover || r->empty) return 0;
    q->prim = r->t.prim;
    q->tag = r->t.tag;
    q->x = qx;
    q->y = qy;
    double inv_area = 1.0 / (double)r->area2;
    for (int i = 0; i < 4; i++) {
        double l[3];
        for (int k = 0; k < 3; k++) l[k] = (double)e[i][k] * inv_area;
        double z = l[0] * r->t.z[0] + l[1] * r->t.z[1] + l[2] * r->t.z[2] + r->zoff;
        if (z < 0.0) z = 0.0;
        if (z > 1.0) z = 1.0;
        q->depth[i] = (uint32_t)llrint(z * (double)GPU_DEPTH_MAX);
        double pw[3], sum = 0.0;
        for (int k = 0; k < 3; k++) { pw[k] = l[k] * r->t.inv_w[k]; sum += pw[k]; }
        double is = sum != 0.0 ? 1.0 / sum : 0.0;
        for (uint32_t v = 0; v < n_var && v < GPU_MAX_VARYINGS; v++)
            for (int c = 0; c < 4; c++)
                q->var[i][v][c] = (float)((pw[0] * r->t.var[0][v][c] + pw[1] * r->t.var[1][v][c] +
                                           pw[2] * r->t.var[2][v][c]) * is);
    }
    return cover;
}
