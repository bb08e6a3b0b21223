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

/* offset of v from the centre of the pixel holding it, 1/256 px */
static int64_t centre_off(int64_t v) { return v - ((int64_t)floor_div256(v) * 256 + 128); }

/* floor and ceil of a / b for b > 0 */
static int64_t fdiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static int64_t cdiv(int64_t a, int64_t b) { return -fdiv(-a, b); }

/* Major-axis pixels [*c0, *c1] an x-major line from (a, ya) to (b, yb), a < b (1/256 px), produces by GL's
 * diamond-exit rule: interior columns always; the start column if the start lies left of (or on) its
 * centre, or inside its pixel's diamond |dx| + |dy| < 1/2; the end column if the end lies right of its
 * centre and outside its diamond (for |slope| <= 1 a segment cannot enter and leave a diamond otherwise). */
static void diamond_columns(int64_t a, int64_t ya, int64_t b, int64_t yb, int32_t *c0, int32_t *c1)
{
    int32_t s = floor_div256(a), e = floor_div256(b);
    int64_t sa = centre_off(a), eb = centre_off(b);
    int start_in = llabs(sa) + llabs(centre_off(ya)) < 128;
    int end_in = llabs(eb) + llabs(centre_off(yb)) < 128;
    *c0 = (sa <= 0 || start_in) ? s : s + 1;
    *c1 = (eb > 0 && !end_in) ? e : e - 1;
}

int gpu_lp_region(const gpu_screen_tri_t *t, const gpu_state_t *st, gpu_lp_t *lp)
{
    memset(lp, 0, sizeof *lp);
    lp->kind = t->kind;
    if (t->kind == GPU_KIND_POINT) {
        int32_t n = gl_int_size(st->point_size, 0);
        int32_t b[2];
        for (int k = 0; k < 2; k++) {
            int32_t v = k ? t->y[0] : t->x[0];
            b[k] = (n & 1) ? floor_div256(v) - (n - 1) / 2 : floor_div256((int64_t)v + 128) - n / 2;
        }
        lp->bx0 = b[0]; lp->by0 = b[1]; lp->bx1 = b[0] + n - 1; lp->by1 = b[1] + n - 1;
        return 1;
    }
    int64_t dx = (int64_t)t->x[1] - t->x[0], dy = (int64_t)t->y[1] - t->y[0];
    if (dx == 0 && dy == 0) return 0;
    lp->xmajor = llabs(dx) >= llabs(dy);
    lp->x0 = t->x[0]; lp->y0 = t->y[0]; lp->dx = dx; lp->dy = dy;
    lp->half = (int64_t)gl_int_size(st->line_width, 1) * 128;
    /* major axis u, minor v; the diamond rule in a frame where u grows from start to end */
    int64_t u0 = lp->xmajor ? t->x[0] : t->y[0], v0 = lp->xmajor ? t->y[0] : t->x[0];
    int64_t u1 = lp->xmajor ? t->x[1] : t->y[1], v1 = lp->xmajor ? t->y[1] : t->x[1];
    int32_t c0, c1;
    if (u1 > u0) diamond_columns(u0, v0, u1, v1, &c0, &c1);
    else {      /* mirrored: u -> -u, pixel c -> -c - 1 */
        int32_t m0, m1;
        diamond_columns(-u0, v0, -u1, v1, &m0, &m1);
        c0 = -m1 - 1;
        c1 = -m0 - 1;
    }
    if (c0 > c1) return 0;
    lp->c0 = c0; lp->c1 = c1;
    /* minor-axis extent: the line at the centres of the first and last column, +- half (monotone) */
    int64_t du = u1 - u0, dv = v1 - v0;
    if (du < 0) { du = -du; dv = -dv; }
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int k = 0; k < 2; k++) {
        int64_t fu = (int64_t)(k ? c1 : c0) * 256 + 128;
        int64_t num = (fu - u0) * dv;
        int64_t vl = v0 + fdiv(num, du) - lp->half, vh = v0 + cdiv(num, du) + lp->half;
        if (vl < lo) lo = vl;
        if (vh > hi) hi = vh;
    }
    /* pixels whose centres lie in [lo, hi] (ties included: conservative) */
    int32_t r0 = (int32_t)cdiv(lo - 128, 256), r1 = (int32_t)fdiv(hi - 128, 256);
    if (lp->xmajor) { lp->bx0 = c0; lp->bx1 = c1; lp->by0 = r0; lp->by1 = r1; }
    else { lp->by0 = c0; lp->by1 = c1; lp->bx0 = r0; lp->bx1 = r1; }
    return 1;
}

int gpu_lp_covers(const gpu_lp_t *lp, int32_t px, int32_t py)
{
    if (px < lp->bx0 || px > lp->bx1 || py < lp->by0 || py > lp->by1) return 0;
    if (lp->kind == GPU_KIND_POINT) return 1;
    int64_t fx = (int64_t)px * 256 + 128 - lp->x0, fy = (int64_t)py * 256 + 128 - lp->y0;
    /* x-major: fy - Y(fx) = (fy dx - fx dy) / dx must lie in [-half, half); y-major: fx - X(fy) likewise */
    int64_t n, d;
    if (lp->xmajor) { n = fy * lp->dx - fx * lp->dy; d = lp->dx; }
    else { n = fx * lp->dy - fy * lp->dx; d = lp->dy; }
    if (d < 0) { n = -n; d = -d; }
    return n >= -lp->half * d && n < lp->half * d;
}

/* raster rectangle = pixel-centre box of [minx, maxx] x [miny, maxy] clipped to viewport, scissor, surface */
static int rast_rect(gpu_rast_t *r, int32_t minx, int32_t maxx, int32_t miny, int32_t maxy, const gpu_state_t *st,
                     uint32_t w, uint32_t h);

static int rast_setup_line_point(gpu_rast_t *r, const gpu_state_t *st, uint32_t w, uint32_t h)
{
    if (!gpu_lp_region(&r->t, st, &r->lp)) { r->empty = 1; return 0; }
    /* depth clamped to [0, 1]; with GL_DEPTH_CLAMP (no near/far clipping) to the depth range too */
    float n = st->depth_near, fa = st->depth_far;
    r->zlo = st->depth_clamp && n > 0.0f && fa > 0.0f ? (n < fa ? n : fa) : 0.0f;
    r->zhi = st->depth_clamp && n < 1.0f && fa < 1.0f ? (n < fa ? fa : n) : 1.0f;
    if (r->t.kind == GPU_KIND_LINE) {
        /* attributes vary along the major axis only (GL's wide-line interpolation, as llvmpipe) */
        double ddx = (double)r->lp.dx, ddy = (double)r->lp.dy;
        if (r->lp.xmajor) { r->lt_x = 1.0 / ddx; r->lt_y = 0.0; r->lt_c = -(double)r->t.x[0] / ddx; }
        else { r->lt_x = 0.0; r->lt_y = 1.0 / ddy; r->lt_c = -(double)r->t.y[0] / ddy; }
    }
    r->area2 = 1;
    /* rast_rect takes a 1/256 box and keeps the pixel centres inside: give it the pixel box's centres */
    return rast_rect(r, r->lp.bx0 * 256 + 128, r->lp.bx1 * 256 + 128, r->lp.by0 * 256 + 128, r->lp.by1 * 256 + 128,
                     st, w, h);
}

/* Depth plane as Mesa llvmpipe sets it up (lp_state_setup.c; docs/golden-model.md section 1 "precision"):
 * binary32 from the unsnapped window positions, anchored at vertex 0 of the reference's vertex order
 * (a clockwise triangle in the reference's frame is reordered v1 v0 v2) and at the pixel centre, so that
 * the depth of pixel (x, y) of that frame is fma(dzdy, y, fma(dzdx, x, a0)). */
static void depth_plane(gpu_rast_t *r, const gpu_screen_tri_t *t, const gpu_state_t *st, uint32_t h)
{
    float wx[3], wy[3];
    int64_t X[3], Y[3];
    r->y_down = st->y_down;
    r->h = (int32_t)h;
    for (int i = 0; i < 3; i++) {
        X[i] = (int64_t)t->x[i] - GPU_SUBPIX / 2;
        Y[i] = st->y_down ? (int64_t)h * GPU_SUBPIX - GPU_SUBPIX / 2 - t->y[i] : (int64_t)t->y[i] - GPU_SUBPIX / 2;
        wx[i] = t->has_win ? t->wx[i] : (float)(X[i] + GPU_SUBPIX / 2) / (float)GPU_SUBPIX;
        wy[i] = t->has_win ? t->wy[i] : (float)(Y[i] + GPU_SUBPIX / 2) / (float)GPU_SUBPIX;
    }
    int64_t area = (X[0] - X[1]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[0] - Y[1]);
    int o[3] = {0, 1, 2};
    if (area < 0) { o[0] = 1; o[1] = 0; }
    float x0 = wx[o[0]], y0 = wy[o[0]], z0 = t->z[o[0]];
    float dx01 = x0 - wx[o[1]], dy01 = y0 - wy[o[1]];
    float dx20 = wx[o[2]] - x0, dy20 = wy[o[2]] - y0;
    float e = dx01 * dy20, f = dy01 * dx20;
    float ooa = 1.0f / (e - f);
    float dx20o = dx20 * ooa, dy20o = dy20 * ooa, dx01o = dx01 * ooa, dy01o = dy01 * ooa;
    float da01 = z0 - t->z[o[1]], da20 = t->z[o[2]] - z0;
    float t1 = da01 * dy20o, t2 = da20 * dy01o;
    r->zdx = t1 - t2;
    float t3 = da20 * dx01o, t4 = da01 * dx20o;
    r->zdy = t3 - t4;
    float p1 = r->zdx * (x0 - 0.5f), p2 = r->zdy * (y0 - 0.5f);
    float s = p1 + p2;
    r->za0 = z0 - s;
    float n = st->depth_near, fa = st->depth_far;
    r->zlo = n < fa ? n : fa;
    r->zhi = n < fa ? fa : n;
    if (r->zlo < 0.0f) r->zlo = 0.0f;
    if (r->zhi > 1.0f) r->zhi = 1.0f;
}

int gpu_prim_front(const gpu_screen_tri_t *t, const gpu_state_t *st)
{
    if (t->kind != GPU_KIND_TRIANGLE) return 1;
    int64_t area = (int64_t)(t->x[1] - t->x[0]) * (t->y[2] - t->y[0]) -
                   (int64_t)(t->x[2] - t->x[0]) * (t->y[1] - t->y[0]);
    int ccw = area > 0;
    return st->front_ccw ? ccw : !ccw;
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
    depth_plane(r, t, st, h);
    for (int i = 0; i < 3; i++) {
        int a = (i + 1) % 3, b = (i + 2) % 3;
        r->ex[i] = r->t.x[b] - r->t.x[a];
        r->ey[i] = r->t.y[b] - r->t.y[a];
        /* y up, interior on the left of a->b: a left edge goes down; a horizontal edge counts if it is a
         * top edge (goes in -x) on a window surface, a bottom edge (goes in +x) on a texture target: the
         * reference's top-left rule in its own frame, which is y down for windows, y up for textures */
        r->topleft[i] = (r->ey[i] < 0) || (r->ey[i] == 0 && (st->y_down ? r->ex[i] < 0 : r->ex[i] > 0));
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

static int64_t edge_at(const gpu_rast_t *r, int i, int64_t fx, int64_t fy)
{
    int a = (i + 1) % 3;
    return (int64_t)r->ex[i] * (fy - r->t.y[a]) - (int64_t)r->ey[i] * (fx - r->t.x[a]);
}

void gpu_rast_row_span(const gpu_rast_t *r, int32_t qy, int32_t *x0, int32_t *x1)
{
    *x0 = r->rx0;
    *x1 = r->rx1;
    if (r->empty || r->t.kind != GPU_KIND_TRIANGLE) return;
    int64_t lo = INT64_MIN, hi = INT64_MAX;   /* pixel x bounds over the three edges */
    for (int k = 0; k < 3; k++) {
        int a = (k + 1) % 3;
        int64_t klo = INT64_MAX, khi = INT64_MIN;  /* union over the two rows of this edge's allowed x */
        for (int j = 0; j < 2; j++) {
            int64_t fy = (int64_t)(qy + j) * 256 + 128;
            /* edge_at = ex (fy - ya) - ey (fx - xa) >= 0 is necessary for coverage */
            int64_t c = (int64_t)r->ex[k] * (fy - r->t.y[a]);
            int64_t ey = r->ey[k];
            if (ey == 0) {
                if (c >= 0) { klo = INT64_MIN; khi = INT64_MAX; }
                continue;
            }
            int64_t l, h;
            if (ey > 0) {       /* fx <= xa + floor(c / ey) */
                int64_t fx = r->t.x[a] + fdiv(c, ey);
                l = INT64_MIN;
                h = fdiv(fx - 128, 256);
            } else {            /* fx >= xa + ceil(c / ey) */
                int64_t fx = r->t.x[a] + cdiv(-c, -ey);
                l = cdiv(fx - 128, 256);
                h = INT64_MAX;
            }
            if (l < klo) klo = l;
            if (h > khi) khi = h;
        }
        if (klo > lo) lo = klo;
        if (khi < hi) hi = khi;
    }
    /* one pixel of margin on each side (the bounds above are exact; the margin costs nothing) */
    if (lo > (int64_t)r->rx0 + 1) *x0 = (int32_t)(lo - 1);
    if (hi < (int64_t)r->rx1 - 1) *x1 = (int32_t)(hi + 1);
    if (lo > hi) { *x0 = r->rx1 + 1; *x1 = r->rx1; }     /* no pixel of these rows is covered */
}

/* pixel (px, py) inside the clamped bounding box of the primitive */
static int in_box(const gpu_rast_t *r, int32_t px, int32_t py)
{
    return !(px < r->rx0 || px > r->rx1 || py < r->ry0 || py > r->ry1);
}

/* The header of a quad, shared by triangles and lines/points: coverage (live = covered at this point), and
 * when something is covered, the primitive, its tag and the quad's position. Returns 0 when the quad is empty
 * (the caller then leaves the per-pixel fields unset). */
static int quad_header(const gpu_rast_t *r, int32_t qx, int32_t qy, uint8_t cover, gpu_quad_t *q)
{
    q->cover = cover;
    q->live = cover;
    if (!cover || r->empty) return 0;
    q->prim = r->t.prim;
    q->tag = r->t.tag;
    q->x = qx;
    q->y = qy;
    return 1;
}

int gpu_rast_covers(const gpu_rast_t *r, int32_t px, int32_t py)
{
    if (r->empty || !in_box(r, px, py)) return 0;
    int64_t fx = (int64_t)px * 256 + 128, fy = (int64_t)py * 256 + 128;
    if (r->t.kind != GPU_KIND_TRIANGLE) return gpu_lp_covers(&r->lp, px, py);
    for (int i = 0; i < 3; i++) {
        int64_t e = edge_at(r, i, fx, fy);
        if (e < 0 || (e == 0 && !r->topleft[i])) return 0;
    }
    return 1;
}

/* lines and points: coverage by gpu_lp_covers; depth and varyings from vertex 0 (point) or along the
 * line's major axis (perspective-correct varyings, linear depth; no polygon offset: GL applies it to
 * filled polygons only) */
static uint8_t quad_line_point(const gpu_rast_t *r, int32_t qx, int32_t qy, uint32_t n_var, gpu_quad_t *q)
{
    uint8_t cover = 0;
    for (int i = 0; i < 4; i++) {
        int32_t px = qx + (i & 1), py = qy + (i >> 1);
        if (in_box(r, px, py) && gpu_lp_covers(&r->lp, px, py)) cover |= (uint8_t)(1u << i);
    }
    if (!quad_header(r, qx, qy, cover, q)) return 0;
    for (int i = 0; i < 4; i++) {
        double t = 0.0;
        if (r->t.kind == GPU_KIND_LINE)
            t = r->lt_x * ((double)(qx + (i & 1)) * 256.0 + 128.0) + r->lt_y * ((double)(qy + (i >> 1)) * 256.0 + 128.0) + r->lt_c;
        double z = (1.0 - t) * r->t.z[0] + t * r->t.z[1];
        if (z < (double)r->zlo) z = r->zlo;
        if (z > (double)r->zhi) z = r->zhi;
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
        int in = in_box(r, px, py);
        for (int k = 0; k < 3; k++) {
            e[i][k] = edge_at(r, k, fx, fy);
            if (e[i][k] < 0 || (e[i][k] == 0 && !r->topleft[k])) in = 0;
        }
        if (in) cover |= (uint8_t)(1u << i);
    }
    if (!quad_header(r, qx, qy, cover, q)) return 0;
    double inv_area = 1.0 / (double)r->area2;
    for (int i = 0; i < 4; i++) {
        double l[3];
        for (int k = 0; k < 3; k++) l[k] = (double)e[i][k] * inv_area;
        int32_t px = qx + (i & 1), py = qy + (i >> 1);
        float fpy = (float)(r->y_down ? r->h - 1 - py : py);
        float z = fmaf(r->zdy, fpy, fmaf(r->zdx, (float)px, r->za0));
        if (r->zoff != 0.0) z += (float)r->zoff;
        if (!(z >= r->zlo)) z = r->zlo;
        if (z > r->zhi) z = r->zhi;
        float zs = z * (float)GPU_DEPTH_MAX;
        q->depth[i] = (uint32_t)lrintf(zs);
        double pw[3], sum = 0.0;
        for (int k = 0; k < 3; k++) { pw[k] = l[k] * r->t.inv_w[k]; sum += pw[k]; }
        double is = sum != 0.0 ? 1.0 / sum : 0.0;
        const uint32_t nv = n_var < GPU_MAX_VARYINGS ? n_var : GPU_MAX_VARYINGS;
        for (uint32_t v = 0; v < nv; v++) {
            /* per component, in this order: ((pw0 a0 + pw1 a1) + pw2 a2) * is, in double (vectorised) */
            const float *a0 = r->t.var[0][v], *a1 = r->t.var[1][v], *a2 = r->t.var[2][v];
            float o[4];
            for (int c = 0; c < 4; c++)
                o[c] = (float)((pw[0] * (double)a0[c] + pw[1] * (double)a1[c] + pw[2] * (double)a2[c]) * is);
            memcpy(q->var[i][v], o, sizeof o);
        }
    }
    return cover;
}
