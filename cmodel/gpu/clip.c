/* CLIP unit: trivial reject, near/far and guard-band clipping, viewport and depth range, snapping to
 * 1/256 pixel, back-face and zero-area culling. In project mode (the CP phase of C-PD) it classifies the
 * primitive for the P2G mapper instead of producing screen triangles.
 * GL_DEPTH_CLAMP (gpu_state_t.depth_clamp) removes the near and far planes from every test, as Mesa's draw
 * module does with depth clipping off (only the x/y planes then; they also keep w >= 0, since -w <= x <= w
 * and -gx w <= x <= gx w imply it); the fragment depth is clamped to the depth range in raster.c. */
#include <math.h>
#include <string.h>

#include "gpu/clip.h"
#include "gpu/raster.h"

#define NV (1 + GPU_MAX_VARYINGS)       /* vec4 slots per vertex: position + varyings */
#define CLIP_MAX_VERTS 12

typedef struct {
    float a[NV][4];
    int made;                            /* 1: made by the clipper (window position computed in C, below) */
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

/* Planes k of plane_dist (0, 1 near/far), frustum_dist and view_dist (4, 5 near/far) that CLIP tests. */
static unsigned plane_mask(const gpu_draw_t *d) { return d->st.depth_clamp ? 0x3Cu : 0x3Fu; }
static unsigned zlast_mask(const gpu_draw_t *d) { return d->st.depth_clamp ? 0x0Fu : 0x3Fu; }

static void guard_factors(const gpu_draw_t *d, float *gx, float *gy)
{
    float hw = d->st.vp_w > 0 ? (float)d->st.vp_w * 0.5f : 1.0f;
    float hh = d->st.vp_h > 0 ? (float)d->st.vp_h * 0.5f : 1.0f;
    *gx = (hw + (float)GPU_GUARD) / hw;
    *gy = (hh + (float)GPU_GUARD) / hh;
}

/* Clip-space position -> fixed-point window position, window depth and 1/w. w must be > 0.
 * The arithmetic is Mesa llvmpipe's (the implementation the model is validated against, docs/validation.md;
 * docs/golden-model.md section 1 "precision"): binary32 throughout, 1/w by a division, x/w by a product,
 * then one fused multiply-add with the viewport scale and translation (Mesa's viewport transform), in the
 * reference's framebuffer frame (y down for a window surface); snapping rounds (pos - 0.5) * 256 to the
 * nearest integer, ties to even. The result is converted exactly to the model's y-up grid (pixel centre
 * 256p + 128). wx, wy keep the unsnapped position for the depth plane (raster.c). */
static void to_window_m(const gpu_draw_t *d, const float *p, int made, int32_t *x, int32_t *y, float *z,
                        float *iw, float *wx, float *wy)
{
    const gpu_state_t *st = &d->st;
    float oow = 1.0f / p[3];
    float hw = 0.5f * (float)st->vp_w, hh = 0.5f * (float)st->vp_h;
    float sx = hw, tx = hw + (float)st->vp_x;
    float sy = hh, ty = hh + (float)st->vp_y;
    if (st->y_down) {
        sy = -sy;
        ty = -ty + (float)st->fb_h;
    }
    double n = st->depth_near, f = st->depth_far;
    float sz = (float)(0.5 * (f - n)), tz = (float)(0.5 * (n + f));
    float fx, fy, fz;
    if (!made) {
        fx = fmaf(p[0] * oow, sx, tx);
        fy = fmaf(p[1] * oow, sy, ty);
        fz = fmaf(p[2] * oow, sz, tz);
    } else {            /* a vertex made by clipping: Mesa's clipper transforms it without fusing */
        float px = p[0] * oow, py = p[1] * oow, pz = p[2] * oow;
        px = px * sx; py = py * sy; pz = pz * sz;
        fx = px + tx; fy = py + ty; fz = pz + tz;
    }
    float lx = (fx - 0.5f) * (float)GPU_SUBPIX, ly = (fy - 0.5f) * (float)GPU_SUBPIX;
    /* the P2G's coordinate range (the guard band keeps real geometry inside it) */
    const float lo = (float)(P2G_COORD_MIN + 2 * GPU_SUBPIX), hi = (float)(P2G_COORD_MAX - 2 * GPU_SUBPIX);
    if (!(lx >= lo)) lx = lo;
    if (lx > hi) lx = hi;
    if (!(ly >= lo)) ly = lo;
    if (ly > hi) ly = hi;
    int32_t sxi = (int32_t)lrintf(lx), syi = (int32_t)lrintf(ly);
    *x = sxi + GPU_SUBPIX / 2;
    *y = st->y_down ? (int32_t)st->fb_h * GPU_SUBPIX - GPU_SUBPIX / 2 - syi : syi + GPU_SUBPIX / 2;
    *wx = fx;
    *wy = fy;
    *z = fz;
    *iw = oow;
}

static void to_window(const gpu_draw_t *d, const float *p, int32_t *x, int32_t *y, float *z, float *iw,
                      float *wx, float *wy)
{
    to_window_m(d, p, 0, x, y, z, iw, wx, wy);
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

/* Snapped window bounding box of the unclipped triangle (render mode clamps clipped vertices into it). */
typedef struct {
    int on;
    int32_t x0, y0, x1, y1;
} clamp_box_t;

static int emit(const gpu_draw_t *d, const gpu_shaded_tri_t *in, const cvert_t *v0, const cvert_t *v1,
                const cvert_t *v2, const clamp_box_t *cb, gpu_screen_tri_t *out)
{
    const cvert_t *v[3] = {v0, v1, v2};
    for (int i = 0; i < 3; i++)
        if (!(v[i]->a[0][3] > 0.0f)) return 0;   /* degenerate (w <= 0 after clipping) */
    memset(out, 0, sizeof *out);
    out->prim = in->prim;
    out->tag = in->tag;
    out->has_win = 1;
    for (int i = 0; i < 3; i++) {
        to_window_m(d, v[i]->a[0], v[i]->made, &out->x[i], &out->y[i], &out->z[i], &out->inv_w[i], &out->wx[i],
                    &out->wy[i]);
        if (cb->on) {
            if (out->x[i] < cb->x0) out->x[i] = cb->x0;
            if (out->x[i] > cb->x1) out->x[i] = cb->x1;
            if (out->y[i] < cb->y0) out->y[i] = cb->y0;
            if (out->y[i] > cb->y1) out->y[i] = cb->y1;
        }
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
    const unsigned pm = plane_mask(d), fm = zlast_mask(d);
    for (int k = 0; k < 6; k++) {
        int outside = 0;
        if (!(fm & (1u << k))) continue;
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
    need &= pm;
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
        to_window(d, vi->a[0], &o->x[i], &o->y[i], &o->z[i], &o->inv_w[i], &o->wx[i], &o->wy[i]);
        memcpy(o->var[i], &vi->a[1], sizeof o->var[i]);
    }
    if (mode == GPU_MODE_PROJECT) { proj_box(d, o, proj); return 1; }
    return 1;
}

/* Mesa's view-volume planes in its clipper's order (draw_pipe_clip.c): x <= w, x >= -w, y <= w, y >= -w,
 * z >= -w (near), z <= w (far); distance as its 4-term dot product (the zero terms change nothing). */
static float view_dist(const float *p, int k)
{
    switch (k) {
    case 0: return p[3] - p[0];
    case 1: return p[0] + p[3];
    case 2: return p[3] - p[1];
    case 3: return p[1] + p[3];
    case 4: return p[2] + p[3];
    default: return p[3] - p[2];
    }
}

int gpu_clip_triangle(const gpu_draw_t *d, const gpu_shaded_tri_t *in, gpu_mode_t mode,
                      gpu_screen_tri_t *out, gpu_projected_t *proj)
{
    int kind = gpu_topo_kind(d->topo);
    if (kind != GPU_KIND_TRIANGLE) return clip_line_point(d, in, mode, kind, out, proj);
    float gx, gy;
    guard_factors(d, &gx, &gy);

    const unsigned pm = plane_mask(d), fm = zlast_mask(d);
    /* trivial reject against the view frustum */
    for (int k = 0; k < 6; k++) {
        int outside = 0;
        if (!(fm & (1u << k))) continue;
        for (int i = 0; i < 3; i++)
            if (frustum_dist(in->v[i][0], k) < 0.0f) outside++;
        if (outside == 3) {
            if (mode == GPU_MODE_PROJECT) proj_flag(in, proj, P2G_FLAG_CULLED);
            return mode == GPU_MODE_PROJECT;
        }
    }
    /* NaN positions: reject (nothing sensible can be rasterized) */
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 4; c++)
            if (in->v[i][0][c] != in->v[i][0][c]) {
                if (mode == GPU_MODE_PROJECT) proj_flag(in, proj, P2G_FLAG_CULLED);
                return mode == GPU_MODE_PROJECT;
            }

    unsigned need = 0;   /* planes some vertex is outside of */
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 3; i++)
            if (plane_dist(in->v[i][0], k, gx, gy) < 0.0f) need |= 1u << k;
    need &= pm;

    if (mode == GPU_MODE_PROJECT) {
        proj_flag(in, proj, 0);
        if (need) {
            /* Crosses the near plane, the far plane or the guard band: the rendered pieces come from the
             * clipper; be conservative and send to every owner of the scissor region. */
            proj->p2g.flags = P2G_FLAG_NEAR_CLIP;
            return 1;
        }
        /* the same snapping and culling the render side applies (positions only) */
        int32_t x[3], y[3];
        for (int i = 0; i < 3; i++) {
            float z, iw, wx, wy;
            if (!(in->v[i][0][3] > 0.0f)) { proj->p2g.flags = P2G_FLAG_CULLED; return 1; }
            to_window(d, in->v[i][0], &x[i], &y[i], &z, &iw, &wx, &wy);
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

    /* Render mode. Clipping follows Mesa's clipper (draw_pipe_clip.c), the reference the model is validated
     * against (docs/golden-model.md section 1): against the view volume itself (no guard band), planes in its
     * order, each new vertex interpolated from the vertex outside the plane (t = d_out / (d_out - d_in)),
     * the polygon emitted as triangles (v[i-1], v[i], v[0]). The classification above (CP phase) keeps the
     * guard band: a triangle inside the guard band is sent by the bounding box of its unclipped vertices, so
     * the vertices of its clipped pieces are clamped into that box (a rounding of the clipper can move them
     * by 1/256 pixel; the pieces then never cover a pixel outside the box the P2G mask was computed from). */
    unsigned rneed = 0;
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 3; i++)
            if (view_dist(in->v[i][0], k) < 0.0f) rneed |= 1u << k;
    rneed &= fm;
    clamp_box_t cb = {0, 0, 0, 0, 0};
    if (!need) {
        int32_t x[3], y[3];
        for (int i = 0; i < 3; i++) {
            float z, iw, wx, wy;
            if (!(in->v[i][0][3] > 0.0f)) return 0;
            to_window(d, in->v[i][0], &x[i], &y[i], &z, &iw, &wx, &wy);
        }
        if (!rneed) {
            gpu_screen_tri_t *o = &out[0];
            memset(o, 0, sizeof *o);
            o->prim = in->prim;
            o->tag = in->tag;
            o->has_win = 1;
            for (int i = 0; i < 3; i++) {
                to_window(d, in->v[i][0], &o->x[i], &o->y[i], &o->z[i], &o->inv_w[i], &o->wx[i], &o->wy[i]);
                memcpy(o->var[i], &in->v[i][1], sizeof o->var[i]);
            }
            return cull_tri(d, o->x, o->y) ? 0 : 1;
        }
        cb.on = 1;
        cb.x0 = cb.x1 = x[0];
        cb.y0 = cb.y1 = y[0];
        for (int i = 1; i < 3; i++) {
            if (x[i] < cb.x0) cb.x0 = x[i];
            if (x[i] > cb.x1) cb.x1 = x[i];
            if (y[i] < cb.y0) cb.y0 = y[i];
            if (y[i] > cb.y1) cb.y1 = y[i];
        }
    }
    cvert_t poly[2][CLIP_MAX_VERTS + 1];
    int n = 3, cur = 0;
    for (int i = 0; i < 3; i++) {
        memcpy(poly[0][i].a, in->v[i], sizeof poly[0][i].a);
        poly[0][i].made = 0;
    }
    for (int k = 0; k < 6 && n >= 3; k++) {
        if (!(rneed & (1u << k))) continue;
        int m = 0;
        cvert_t *src = poly[cur], *dst = poly[cur ^ 1];
        src[n] = src[0];
        float dprev = view_dist(src[0].a[0], k);
        for (int i = 1; i <= n; i++) {
            const cvert_t *vp = &src[i - 1], *vc = &src[i];
            float dc = view_dist(vc->a[0], k);
            int diff;
            if (dprev >= 0.0f) {
                if (m < CLIP_MAX_VERTS) dst[m++] = *vp;
                diff = dc < 0.0f;
            } else {
                diff = !(dc < 0.0f);
            }
            if (diff && m < CLIP_MAX_VERTS) {
                const cvert_t *vo, *vi;
                float t;
                if (dc < 0.0f) { t = dc / (dc - dprev); vo = vc; vi = vp; }     /* going out */
                else { t = dprev / (dprev - dc); vo = vp; vi = vc; }           /* coming in */
                cvert_t *o = &dst[m++];
                o->made = 1;
                for (int s = 0; s < NV; s++)
                    for (int c = 0; c < 4; c++) o->a[s][c] = vo->a[s][c] + t * (vi->a[s][c] - vo->a[s][c]);
            }
            dprev = dc;
        }
        n = m;
        cur ^= 1;
    }
    int cnt = 0;
    for (int i = 2; i < n && cnt < GPU_CLIP_MAX_OUT; i++)
        cnt += emit(d, in, &poly[cur][i - 1], &poly[cur][i], &poly[cur][0], &cb, &out[cnt]);
    return cnt;
}
