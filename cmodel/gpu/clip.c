/* CLIP unit: trivial reject, near/far and guard-band clipping, viewport and depth range, snapping to
 * 1/256 pixel, back-face and zero-area culling. In project mode (the CP phase of C-PD) it classifies the
 * primitive for the P2G mapper instead of producing screen triangles. */
#include <math.h>
#include <string.h>

#include "gpu/gpu.h"
#include "gpu/raster.h"

#define NV (1 + GPU_MAX_VARYINGS)       /* vec4 slots per vertex: position + varyings */
#define CLIP_MAX_VERTS 12

typedef struct {
    float a[NV][4];
} cvert_t;

/* Signed distance of a clip-space position to plane k (>= 0: inside).
 * 0 near z >= -w, 1 far z <= w, 2..5 guard band x >= -gx w, x <= gx w, y >= -gy w, y <= gy w. */
static float plane_dist(const float *p, int k, float gx, float gy)
{
    switch (k) {
    case 0: return p[2] + p[3];
    case 1: return p[3] - p[2];
    case 2: return p[0] + gx * p[3];
    case 3: return gx * p[3] - p[0];
    case 4: return p[1] + gy * p[3];
    default: return gy * p[3] - p[1];
    }
}

/* The frustum planes used for trivial reject (x, y in [-w, w], z in [-w, w]). */
static float frustum_dist(const float *p, int k)
{
    switch (k) {
    case 0: return p[0] + p[3];
    case 1: return p[3] - p[0];
    case 2: return p[1] + p[3];
    case 3: return p[3] - p[1];
    case 4: return p[2] + p[3];
    default: return p[3] - p[2];
    }
}

static void guard_factors(const gpu_draw_t *d, float *gx, float *gy)
{
    float hw = d->st.vp_w > 0 ? (float)d->st.vp_w * 0.5f : 1.0f;
    float hh = d->st.vp_h > 0 ? (float)d->st.vp_h * 0.5f : 1.0f;
    *gx = (hw + (float)GPU_GUARD) / hw;
    *gy = (hh + (float)GPU_GUARD) / hh;
}

/* Clip-space position -> fixed-point window position, window depth and 1/w. w must be > 0. */
static void to_window(const gpu_draw_t *d, const float *p, int32_t *x, int32_t *y, float *z, float *iw)
{
    double w = p[3];
    double nx = p[0] / w, ny = p[1] / w, nz = p[2] / w;
    double wx = (double)d->st.vp_x + (nx + 1.0) * 0.5 * (double)d->st.vp_w;
    double wy = (double)d->st.vp_y + (ny + 1.0) * 0.5 * (double)d->st.vp_h;
    double fx = wx * GPU_SUBPIX, fy = wy * GPU_SUBPIX;
    if (fx < P2G_COORD_MIN) fx = P2G_COORD_MIN;
    if (fx > P2G_COORD_MAX) fx = P2G_COORD_MAX;
    if (fy < P2G_COORD_MIN) fy = P2G_COORD_MIN;
    if (fy > P2G_COORD_MAX) fy = P2G_COORD_MAX;
    *x = (int32_t)llrint(fx);
    *y = (int32_t)llrint(fy);
    double n = d->st.depth_near, f = d->st.depth_far;
    double zw = (f - n) * 0.5 * nz + (n + f) * 0.5;
    if (zw < 0.0) zw = 0.0;
    if (zw > 1.0) zw = 1.0;
    *z = (float)zw;
    *iw = (float)(1.0 / w);
}

/* Culling decision on a snapped triangle: 1 = cull. */
static int cull_tri(const gpu_draw_t *d, const int32_t *x, const int32_t *y)
{
    int64_t area = (int64_t)(x[1] - x[0]) * (y[2] - y[0]) - (int64_t)(x[2] - x[0]) * (y[1] - y[0]);
    if (area == 0) return 1;
    int ccw = area > 0;
    int front = d->st.front_ccw ? ccw : !ccw;
    switch (d->st.cull) {
    case GPU_CULL_BACK: return !front;
    case GPU_CULL_FRONT: return front;
    case GPU_CULL_BOTH: return 1;
    default: return 0;
    }
}

static int emit(const gpu_draw_t *d, const gpu_shaded_tri_t *in, const cvert_t *v0, const cvert_t *v1,
                const cvert_t *v2, gpu_screen_tri_t *out)
{
    const cvert_t *v[3] = {v0, v1, v2};
    for (int i = 0; i < 3; i++)
        if (!(v[i]->a[0][3] > 0.0f)) return 0;   /* degenerate (w <= 0 after clipping) */
    memset(out, 0, sizeof *out);
    out->prim = in->prim;
    out->tag = in->tag;
    for (int i = 0; i < 3; i++) {
        to_window(d, v[i]->a[0], &out->x[i], &out->y[i], &out->z[i], &out->inv_w[i]);
        memcpy(out->var[i], &v[i]->a[1], sizeof out->var[i]);
    }
    return cull_tri(d, out->x, out->y) ? 0 : 1;
}

static void proj_flag(const gpu_shaded_tri_t *in, gpu_projected_t *proj, uint32_t flags)
{
    memset(proj, 0, sizeof *proj);
    proj->prim = in->prim;
    proj->tag = in->tag;
    proj->p2g.prim_id = in->tag;
    proj->p2g.flags = flags;
}

/* Project mode for a line or point that needs no clipping: the P2G input is the pixel box holding every
 * pixel the rasterizer will cover (the width included, gpu_lp_region), given as three vertices on the
 * centres of its corner pixels: (x0, y0), (x1, y1), (x0, y1). p2g_mask takes the pixel-centre box of its
 * three vertices, which is then exactly that box; an empty region is culled. */
static void proj_box(const gpu_draw_t *d, const gpu_screen_tri_t *o, gpu_projected_t *proj)
{
    gpu_lp_t lp;
    if (!gpu_lp_region(o, &d->st, &lp)) { proj->p2g.flags = P2G_FLAG_CULLED; return; }
    int32_t x0 = lp.bx0 * 256 + 128, x1 = lp.bx1 * 256 + 128, y0 = lp.by0 * 256 + 128, y1 = lp.by1 * 256 + 128;
    proj->p2g.x[0] = x0; proj->p2g.y[0] = y0;
    proj->p2g.x[1] = x1; proj->p2g.y[1] = y1;
    proj->p2g.x[2] = x0; proj->p2g.y[2] = y1;
}

/* CLIP for lines and points (GL 3.5/3.4 with a guard band, docs/golden-model.md section 1.1).
 * Line: trivial reject when both ends are outside one frustum plane; otherwise the segment is clipped
 * parametrically against near, far and the guard band (new ends interpolate every varying), never against
 * the x/y frustum planes, so wide lines and the diamond-exit rule see the real end points inside the
 * band. Point: discarded when its vertex is outside the view volume (GL). No culling (lines and points
 * have no facing). */
static int clip_line_point(const gpu_draw_t *d, const gpu_shaded_tri_t *in, gpu_mode_t mode, int kind,
                           gpu_screen_tri_t *out, gpu_projected_t *proj)
{
    int nv = kind == GPU_KIND_LINE ? 2 : 1;
    float gx, gy;
    guard_factors(d, &gx, &gy);
    for (int i = 0; i < nv; i++)
        for (int c = 0; c < 4; c++)
            if (in->v[i][0][c] != in->v[i][0][c]) {
                if (mode == GPU_MODE_PROJECT) proj_flag(in, proj, P2G_FLAG_CULLED);
                return mode == GPU_MODE_PROJECT;
            }
    for (int k = 0; k < 6; k++) {
        int outside = 0;
        for (int i = 0; i < nv; i++)
            if (frustum_dist(in->v[i][0], k) < 0.0f) outside++;
        if (outside == nv || (kind == GPU_KIND_POINT && outside)) {
            if (mode == GPU_MODE_PROJECT) proj_flag(in, proj, P2G_FLAG_CULLED);
            return mode == GPU_MODE_PROJECT;
        }
    }
    cvert_t v[2];
    for (int i = 0; i < nv; i++) memcpy(v[i].a, in->v[i], sizeof v[i].a);
    unsigned need = 0;
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < nv; i++)
            if (plane_dist(in->v[i][0], k, gx, gy) < 0.0f) need |= 1u << k;
    if (mode == GPU_MODE_PROJECT) {
        proj_flag(in, proj, 0);
        if (need) { proj->p2g.flags = P2G_FLAG_NEAR_CLIP; return 1; }
    } else if (need) {
        /* Liang-Barsky on the planes that matter */
        float t0 = 0.0f, t1 = 1.0f;
        for (int k = 0; k < 6; k++) {
            if (!(need & (1u << k))) continue;
            float d0 = plane_dist(in->v[0][0], k, gx, gy), d1 = plane_dist(in->v[1][0], k, gx, gy);
            if (d0 < 0.0f && d1 < 0.0f) return 0;
            if (d0 < 0.0f) { float t = d0 / (d0 - d1); if (t > t0) t0 = t; }
            else if (d1 < 0.0f) { float t = d0 / (d0 - d1); if (t < t1) t1 = t; }
        }
        if (!(t0 < t1)) return 0;
        for (int s = 0; s < NV; s++)
            for (int c = 0; c < 4; c++) {
                float a = in->v[0][s][c], b = in->v[1][s][c];
                v[0].a[s][c] = a + t0 * (b - a);
                v[1].a[s][c] = a + t1 * (b - a);
            }
    }
    for (int i = 0; i < nv; i++)
        if (!(v[i].a[0][3] > 0.0f)) {
            if (mode == GPU_MODE_PROJECT) proj->p2g.flags = P2G_FLAG_CULLED;
            return mode == GPU_MODE_PROJECT;
        }
    gpu_screen_tri_t tmp, *o = mode == GPU_MODE_PROJECT ? &tmp : &out[0];
    memset(o, 0, sizeof *o);
    o->prim = in->prim;
    o->tag = in->tag;
    o->kind = (uint8_t)kind;
    for (int i = 0; i < 3; i++) {
        const cvert_t *vi = &v[i < nv ? i : nv - 1];
        to_window(d, vi->a[0], &o->x[i], &o->y[i], &o->z[i], &o->inv_w[i]);
        memcpy(o->var[i], &vi->a[1], sizeof o->var[i]);
    }
    if (mode == GPU_MODE_PROJECT) { proj_box(d, o, proj); return 1; }
    return 1;
}

int gpu_clip_triangle(const gpu_draw_t *d, const gpu_shaded_tri_t *in, gpu_mode_t mode,
                      gpu_screen_tri_t *out, gpu_projected_t *proj)
{
    int kind = gpu_topo_kind(d->topo);
    if (kind != GPU_KIND_TRIANGLE) return clip_line_point(d, in, mode, kind, out, proj);
    float gx, gy;
    guard_factors(d, &gx, &gy);

    /* trivial reject against the view frustum */
    for (int k = 0; k < 6; k++) {
        int outside = 0;
        for (int i = 0; i < 3; i++)
            if (frustum_dist(in->v[i][0], k) < 0.0f) outside++;
        if (outside == 3) {
            if (mode == GPU_MODE_PROJECT) {
                memset(proj, 0, sizeof *proj);
                proj->prim = in->prim;
                proj->tag = in->tag;
                proj->p2g.prim_id = in->tag;
                proj->p2g.flags = P2G_FLAG_CULLED;
                return 1;
            }
            return 0;
        }
    }
    /* NaN positions: reject (nothing sensible can be rasterized) */
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 4; c++)
            if (in->v[i][0][c] != in->v[i][0][c]) {
                if (mode == GPU_MODE_PROJECT) {
                    memset(proj, 0, sizeof *proj);
                    proj->prim = in->prim;
                    proj->tag = in->tag;
                    proj->p2g.prim_id = in->tag;
                    proj->p2g.flags = P2G_FLAG_CULLED;
                    return 1;
                }
                return 0;
            }

    unsigned need = 0;   /* planes some vertex is outside of */
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 3; i++)
            if (plane_dist(in->v[i][0], k, gx, gy) < 0.0f) need |= 1u << k;

    if (mode == GPU_MODE_PROJECT) {
        memset(proj, 0, sizeof *proj);
        proj->prim = in->prim;
        proj->tag = in->tag;
        proj->p2g.prim_id = in->tag;
        if (need) {
            /* Crosses the near plane, the far plane or the guard band: the rendered pieces come from the
             * clipper; be conservative and send to every owner of the scissor region. */
            proj->p2g.flags = P2G_FLAG_NEAR_CLIP;
            return 1;
        }
        /* the same snapping and culling the render side applies (positions only) */
        int32_t x[3], y[3];
        for (int i = 0; i < 3; i++) {
            float z, iw;
            if (!(in->v[i][0][3] > 0.0f)) { proj->p2g.flags = P2G_FLAG_CULLED; return 1; }
            to_window(d, in->v[i][0], &x[i], &y[i], &z, &iw);
        }
        if (cull_tri(d, x, y)) {
            proj->p2g.flags = P2G_FLAG_CULLED;
            return 1;
        }
        for (int i = 0; i < 3; i++) {
            proj->p2g.x[i] = x[i];
            proj->p2g.y[i] = y[i];
        }
        return 1;
    }

    if (!need) {
        gpu_screen_tri_t *o = &out[0];
        for (int i = 0; i < 3; i++)
            if (!(in->v[i][0][3] > 0.0f)) return 0;
        o->prim = in->prim;
        o->tag = in->tag;
        o->flags = 0;
        o->kind = GPU_KIND_TRIANGLE;
        for (int i = 0; i < 3; i++) {
            to_window(d, in->v[i][0], &o->x[i], &o->y[i], &o->z[i], &o->inv_w[i]);
            memcpy(o->var[i], &in->v[i][1], sizeof o->var[i]);
        }
        return cull_tri(d, o->x, o->y) ? 0 : 1;
    }

    /* Sutherland-Hodgman against the planes that matter */
    cvert_t poly[2][CLIP_MAX_VERTS];
    int n = 3, cur = 0;
    for (int i = 0; i < 3; i++) memcpy(poly[0][i].a, in->v[i], sizeof poly[0][i].a);
    for (int k = 0; k < 6 && n > 0; k++) {
        if (!(need & (1u << k))) continue;
        int m = 0;
        cvert_t *src = poly[cur], *dst = poly[cur ^ 1];
        for (int i = 0; i < n; i++) {
            const cvert_t *a = &src[i], *b = &src[(i + 1) % n];
            float da = plane_dist(a->a[0], k, gx, gy), db = plane_dist(b->a[0], k, gx, gy);
            if (da >= 0.0f && m < CLIP_MAX_VERTS) dst[m++] = *a;
            if ((da >= 0.0f) != (db >= 0.0f) && m < CLIP_MAX_VERTS) {
                float t = da / (da - db);
                cvert_t *o = &dst[m++];
                for (int s = 0; s < NV; s++)
                    for (int c = 0; c < 4; c++) o->a[s][c] = a->a[s][c] + t * (b->a[s][c] - a->a[s][c]);
            }
        }
        n = m;
        cur ^= 1;
    }
    int cnt = 0;
    for (int i = 1; i + 1 < n && cnt < GPU_CLIP_MAX_OUT; i++)
        cnt += emit(d, in, &poly[cur][0], &poly[cur][i], &poly[cur][i + 1], &out[cnt]);
    return cnt;
}
