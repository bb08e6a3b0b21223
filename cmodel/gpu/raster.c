#include "gpu/raster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }

/* floor(a / 256) and ceil(a / 256) for signed a */
static int32_t floor_div256(int64_t a) { return (int32_t)(a >= 0 ? a / 256 : -((-a + 255) / 256)); }
static int32_t ceil_div256(int64_t a) { return -floor_div256(-a); }

/* Integer size of a GL aliased line width / point size: round to nearest, at least 1, at most 1024. GL
 * leaves ties open; as llvmpipe, line widths round halves up, point sizes down (measured: test-shader-diff). */
static int32_t gl_int_size(float v, int ties_up)
{
    if (!(v > 0.0f)) return 1;
    if (v > 1024.0f) v = 1024.0f;
    int32_t f = (int32_t)lrintf(v * 256.0f);
    int32_t n = (f + (ties_up ? 128 : 127)) >> 8;
    return n < 1 ? 1 : n;
}

/* |value - nearest pixel centre| in 1/256 px for the pixel holding v */
static int32_t centre_off(int32_t v) { return v - (floor_div256(v) * 256 + 128); }

/* Columns of an x-major line from (a, ya) to (b, yb) with a < b (1/256 px) that GL's diamond-exit rule
 * produces: [*c0, *c1]. Interior columns always; the start column if the start lies left of (or on) its
 * centre, or inside its pixel's diamond |dx| + |dy| < 1/2; the end column if the end lies right of its
 * centre and outside its diamond (for |slope| <= 1 a segment cannot enter and leave a diamond otherwise). */
static void diamond_columns(int64_t a, int64_t ya, int64_t b, int64_t yb, int32_t *c0, int32_t *c1)
{
    int32_t s = floor_div256(a), e = floor_div256(b);
    int64_t sa = a - ((int64_t)s * 256 + 128), eb = b - ((int64_t)e * 256 + 128);
    int64_t sy = centre_off((int32_t)ya), ey = centre_off((int32_t)yb);
    int start_in = llabs(sa) + llabs(sy) < 128;
    int end_in = llabs(eb) + llabs(ey) < 128;
    *c0 = (sa <= 0 || start_in) ? s : s + 1;
    *c1 = (eb > 0 && !end_in) ? e : e - 1;
}

int gpu_prim_polygon(const gpu_screen_tri_t *t, const gpu_state_t *st, int32_t px[4], int32_t py[4])
{
    if (t->kind == GPU_KIND_POINT) {
        int32_t n = gl_int_size(st->point_size, 0);
        int32_t b[2];
        for (int k = 0; k < 2; k++) {
            int32_t v = k ? t->y[0] : t->x[0];
            b[k] = (n & 1) ? floor_div256(v) - (n - 1) / 2 : floor_div256((int64_t)v + 128) - n / 2;
        }
        int32_t x0 = b[0] * 256, y0 = b[1] * 256, x1 = (b[0] + n) * 256, y1 = (b[1] + n) * 256;
        px[0] = x0; py[0] = y0; px[1] = x1; py[1] = y0; px[2] = x1; py[2] = y1; px[3] = x0; py[3] = y1;
        return 4;
    }
    /* line: work in a frame where the line is x-major and runs towards +x, then map back */
    int64_t dx = (int64_t)t->x[1] - t->x[0], dy = (int64_t)t->y[1] - t->y[0];
    if (dx == 0 && dy == 0) return 0;
    int transpose = llabs(dy) > llabs(dx);
    int64_t u0 = transpose ? t->y[0] : t->x[0], v0 = transpose ? t->x[0] : t->y[0];
    int64_t u1 = transpose ? t->y[1] : t->x[1], v1 = transpose ? t->x[1] : t->y[1];
    int mirror = u1 < u0;
    if (mirror) { u0 = -u0; u1 = -u1; }
    int32_t c0, c1;
    diamond_columns(u0, v0, u1, v1, &c0, &c1);
    if (c0 > c1) return 0;
    int64_t half = (int64_t)gl_int_size(st->line_width, 1) * 128;
    double slope = (double)(v1 - v0) / (double)(u1 - u0);
    int64_t ua = (int64_t)c0 * 256, ub = ((int64_t)c1 + 1) * 256;
    int64_t va = v0 + llrint((double)(ua - u0) * slope), vb = v0 + llrint((double)(ub - u0) * slope);
    int64_t U[4] = {ua, ub, ub, ua}, V[4] = {va - half, vb - half, vb + half, va + half};
    for (int i = 0; i < 4; i++) {
        int64_t uu = mirror ? -U[i] : U[i];
        px[i] = (int32_t)(transpose ? V[i] : uu);
        py[i] = (int32_t)(transpose ? uu : V[i]);
    }
    /* mirroring and transposing each flip the orientation: restore counter-clockwise */
    if (mirror != transpose) {
        int32_t tx = px[1], ty = py[1];
        px[1] = px[3]; py[1] = py[3]; px[3] = tx; py[3] = ty;
    }
    return 4;
}

/* raster rectangle = pixel-centre box of [minx, maxx] x [miny, maxy] clipped to viewport, scissor, surface */
static int rast_rect(gpu_rast_t *r, int32_t minx, int32_t maxx, int32_t miny, int32_t maxy, const gpu_state_t *st,
                     uint32_t w, uint32_t h);

static int rast_setup_line_point(gpu_rast_t *r, const gpu_state_t *st, uint32_t w, uint32_t h)
{
    if (gpu_prim_polygon(&r->t, st, r->px, r->py) == 0) { r->empty = 1; return 0; }
    int32_t minx = r->px[0], maxx = r->px[0], miny = r->py[0], maxy = r->py[0];
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) % 4;
        r->pex[i] = r->px[j] - r->px[i];
        r->pey[i] = r->py[j] - r->py[i];
        r->ptl[i] = (r->pey[i] < 0) || (r->pey[i] == 0 && r->pex[i] < 0);
        minx = min32(minx, r->px[i]); maxx = max32(maxx, r->px[i]);
        miny = min32(miny, r->py[i]); maxy = max32(maxy, r->py[i]);
    }
    if (r->t.kind == GPU_KIND_LINE) {
        /* attributes vary along the major axis only (GL's wide-line interpolation, as llvmpipe) */
        double ddx = (double)r->t.x[1] - r->t.x[0], ddy = (double)r->t.y[1] - r->t.y[0];
        if (fabs(ddx) >= fabs(ddy)) { r->lt_x = 1.0 / ddx; r->lt_y = 0.0; r->lt_c = -(double)r->t.x[0] / ddx; }
        else { r->lt_x = 0.0; r->lt_y = 1.0 / ddy; r->lt_c = -(double)r->t.y[0] / ddy; }
    }
    r->area2 = 1;
    return rast_rect(r, minx, maxx, miny, maxy, st, w, h);
}

int gpu_rast_setup(gpu_rast_t *r, const gpu_screen_tri_t *t, const gpu_state_t *st, uint32_t w, uint32_t h)
{
    memset(r, 0, sizeof *r);
    r->t = *t;
    if (t->kind != GPU_KIND_TRIANGLE) return rast_setup_line_point(r, st, w, h);
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
    return rast_rect(r, minx, maxx, miny, maxy, st, w, h);
}

static int rast_rect(gpu_rast_t *r, int32_t minx, int32_t maxx, int32_t miny, int32_t maxy, const gpu_state_t *st,
                     uint32_t w, uint32_t h)
{
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

/* coverage of a pixel centre by a line/point quadrilateral */
static int poly_in(const gpu_rast_t *r, int64_t fx, int64_t fy)
{
    for (int i = 0; i < 4; i++) {
        int64_t e = (int64_t)r->pex[i] * (fy - r->py[i]) - (int64_t)r->pey[i] * (fx - r->px[i]);
        if (e < 0 || (e == 0 && !r->ptl[i])) return 0;
    }
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
    if (r->t.kind != GPU_KIND_TRIANGLE) return poly_in(r, fx, fy);
    for (int i = 0; i < 3; i++) {
        int64_t e = edge_at(r, i, fx, fy);
        if (e < 0 || (e == 0 && !r->topleft[i])) return 0;
    }
    return 1;
}

/* lines and points: coverage by the quadrilateral; depth and varyings from vertex 0 (point) or along the
 * line's major axis (perspective-correct varyings, linear depth; no polygon offset: GL applies it to
 * filled polygons only) */
static uint8_t quad_line_point(const gpu_rast_t *r, int32_t qx, int32_t qy, uint32_t n_var, gpu_quad_t *q)
{
    uint8_t cover = 0;
    for (int i = 0; i < 4; i++) {
        int32_t px = qx + (i & 1), py = qy + (i >> 1);
        int in = !(px < r->rx0 || px > r->rx1 || py < r->ry0 || py > r->ry1);
        if (in && poly_in(r, (int64_t)px * 256 + 128, (int64_t)py * 256 + 128)) cover |= (uint8_t)(1u << i);
    }
    q->cover = cover;
    q->live = cover;
    if (!cover || r->empty) return 0;
    q->prim = r->t.prim;
    q->tag = r->t.tag;
    q->x = qx;
    q->y = qy;
    for (int i = 0; i < 4; i++) {
        double t = 0.0;
        if (r->t.kind == GPU_KIND_LINE)
            t = r->lt_x * ((double)(qx + (i & 1)) * 256.0 + 128.0) + r->lt_y * ((double)(qy + (i >> 1)) * 256.0 + 128.0) + r->lt_c;
        double z = (1.0 - t) * r->t.z[0] + t * r->t.z[1];
        if (z < 0.0) z = 0.0;
        if (z > 1.0) z = 1.0;
        q->depth[i] = (uint32_t)llrint(z * (double)GPU_DEPTH_MAX);
        double p0 = (1.0 - t) * r->t.inv_w[0], p1 = t * r->t.inv_w[1], sum = p0 + p1;
        double is = sum != 0.0 ? 1.0 / sum : 0.0;
        for (uint32_t v = 0; v < n_var && v < GPU_MAX_VARYINGS; v++)
            for (int c = 0; c < 4; c++)
                q->var[i][v][c] = r->t.kind == GPU_KIND_POINT ? r->t.var[0][v][c]
                                  : (float)((p0 * r->t.var[0][v][c] + p1 * r->t.var[1][v][c]) * is);
    }
    return cover;
}

uint8_t gpu_rast_quad(const gpu_rast_t *r, int32_t qx, int32_t qy, uint32_t n_var, gpu_quad_t *q)
{
    if (r->t.kind != GPU_KIND_TRIANGLE) return quad_line_point(r, qx, qy, n_var, q);
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
