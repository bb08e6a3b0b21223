#include "gpu/frag.h"

#include <math.h>
#include <string.h>

static float clamp01(float x)
{
    if (!(x > 0.0f)) return 0.0f;   /* also NaN -> 0 */
    if (x > 1.0f) return 1.0f;
    return x;
}

uint32_t gpu_pack_rgba8(const float c[4])
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)lrintf(clamp01(c[i]) * 255.0f) << (8 * i);
    return v;
}

void gpu_unpack_rgba8(uint32_t v, float c[4])
{
    for (int i = 0; i < 4; i++) c[i] = (float)((v >> (8 * i)) & 0xFFu) / 255.0f;
}

static int32_t wrap_coord(int32_t i, uint32_t n, uint8_t wrap)
{
    if (wrap == GPU_WRAP_CLAMP) {
        if (i < 0) return 0;
        if (i >= (int32_t)n) return (int32_t)n - 1;
        return i;
    }
    int32_t m = i % (int32_t)n;
    return m < 0 ? m + (int32_t)n : m;
}

static void texel(const gpu_surface_t *s, int32_t x, int32_t y, float out[4])
{
    uint32_t v = s->data[(size_t)y * s->w + (size_t)x];
    if (s->fmt == GPU_FMT_DEPTH24) {
        float d = (float)(v & GPU_DEPTH_MAX) / (float)GPU_DEPTH_MAX;
        out[0] = out[1] = out[2] = d;
        out[3] = 1.0f;
    } else {
        gpu_unpack_rgba8(v, out);
    }
}

void gpu_tex_sample(const gpu_t *g, const gpu_draw_t *d, int unit, float u, float v, float out[4])
{
    int32_t sid = d->st.tex[unit];
    if (sid < 0 || (uint32_t)sid >= g->n_surf) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    const gpu_surface_t *s = &g->surf[sid];
    uint8_t wrap = d->st.tex_wrap[unit];
    if (!isfinite(u)) u = 0.0f;
    if (!isfinite(v)) v = 0.0f;
    /* keep the coordinates in a range where the float -> int conversions are defined */
    if (u > 1e6f) u = 1e6f;
    if (u < -1e6f) u = -1e6f;
    if (v > 1e6f) v = 1e6f;
    if (v < -1e6f) v = -1e6f;
    float fx = u * (float)s->w, fy = v * (float)s->h;
    if (d->st.tex_filter[unit] == GPU_FILTER_LINEAR) {
        fx -= 0.5f;
        fy -= 0.5f;
        float x0f = floorf(fx), y0f = floorf(fy);
        float ax = fx - x0f, ay = fy - y0f;
        int32_t x0 = (int32_t)x0f, y0 = (int32_t)y0f;
        int32_t xa = wrap_coord(x0, s->w, wrap), xb = wrap_coord(x0 + 1, s->w, wrap);
        int32_t ya = wrap_coord(y0, s->h, wrap), yb = wrap_coord(y0 + 1, s->h, wrap);
        float t00[4], t10[4], t01[4], t11[4];
        texel(s, xa, ya, t00);
        texel(s, xb, ya, t10);
        texel(s, xa, yb, t01);
        texel(s, xb, yb, t11);
        for (int c = 0; c < 4; c++) {
            float lo = t00[c] + ax * (t10[c] - t00[c]);
            float hi = t01[c] + ax * (t11[c] - t01[c]);
            out[c] = lo + ay * (hi - lo);
        }
    } else {
        int32_t x = wrap_coord((int32_t)floorf(fx), s->w, wrap);
        int32_t y = wrap_coord((int32_t)floorf(fy), s->h, wrap);
        texel(s, x, y, out);
    }
}

int gpu_fs_needs_late_z(const gpu_draw_t *d)
{
    return d->fs_kind == GPU_FS_DISCARD_ALPHA || d->fs_kind == GPU_FS_DEPTH_WRITE || d->fs_kind == GPU_FS_ISA ||
           d->st.alpha_test;
}

int gpu_fs_writes_color(const gpu_draw_t *d)
{
    return d->fs_kind != GPU_FS_DEPTH_ONLY;
}

int gpu_fs_builtin(const gpu_t *g, const gpu_draw_t *d, const float var[GPU_MAX_VARYINGS][4],
                   float color[GPU_MAX_RTS][4], uint32_t *depth)
{
    float t[4];
    switch (d->fs_kind) {
    case GPU_FS_FLAT:
        for (int r = 0; r < GPU_MAX_RTS; r++) memcpy(color[r], d->fs_consts[0], sizeof color[r]);
        return 0;
    case GPU_FS_COLOR:
        for (int r = 0; r < GPU_MAX_RTS; r++) memcpy(color[r], var[0], sizeof color[r]);
        return 0;
    case GPU_FS_TEXTURE:
        gpu_tex_sample(g, d, 0, var[0][0], var[0][1], t);
        for (int r = 0; r < GPU_MAX_RTS; r++) memcpy(color[r], t, sizeof color[r]);
        return 0;
    case GPU_FS_TEXTURE_MODULATE:
        gpu_tex_sample(g, d, 0, var[1][0], var[1][1], t);
        for (int c = 0; c < 4; c++) t[c] *= var[0][c];
        for (int r = 0; r < GPU_MAX_RTS; r++) memcpy(color[r], t, sizeof color[r]);
        return 0;
    case GPU_FS_DEPTH_ONLY:
        memset(color, 0, sizeof(float) * GPU_MAX_RTS * 4);
        return 0;
    case GPU_FS_MRT:
        for (int r = 0; r < GPU_MAX_RTS; r++)
            memcpy(color[r], (uint32_t)r < d->n_varyings ? var[r] : d->fs_consts[0], sizeof color[r]);
        return 0;
    case GPU_FS_DISCARD_ALPHA:
        gpu_tex_sample(g, d, 0, var[0][0], var[0][1], t);
        for (int r = 0; r < GPU_MAX_RTS; r++) memcpy(color[r], t, sizeof color[r]);
        return t[3] < d->fs_consts[0][0];
    case GPU_FS_COLOR_CONST:
        for (int c = 0; c < 4; c++) t[c] = var[0][c] * d->fs_consts[0][c];
        for (int r = 0; r < GPU_MAX_RTS; r++) memcpy(color[r], t, sizeof color[r]);
        return 0;
    case GPU_FS_DEPTH_WRITE: {
        for (int r = 0; r < GPU_MAX_RTS; r++) memcpy(color[r], var[0], sizeof color[r]);
        float z = clamp01(var[1][0]);
        *depth = (uint32_t)llrint((double)z * (double)GPU_DEPTH_MAX);
        return 0;
    }
    default:
        memset(color, 0, sizeof(float) * GPU_MAX_RTS * 4);
        return 0;
    }
}

int gpu_depth_compare(uint8_t func, uint32_t frag, uint32_t stored)
{
    switch (func) {
    case GPU_CMP_NEVER: return 0;
    case GPU_CMP_LESS: return frag < stored;
    case GPU_CMP_EQUAL: return frag == stored;
    case GPU_CMP_LEQUAL: return frag <= stored;
    case GPU_CMP_GREATER: return frag > stored;
    case GPU_CMP_NOTEQUAL: return frag != stored;
    case GPU_CMP_GEQUAL: return frag >= stored;
    default: return 1;
    }
}

static void factor(uint8_t f, const float s[4], const float dst[4], const float k[4], float out[4])
{
    for (int c = 0; c < 4; c++) {
        float v;
        switch (f) {
        case GPU_BF_ZERO: v = 0.0f; break;
        case GPU_BF_ONE: v = 1.0f; break;
        case GPU_BF_SRC_COLOR: v = s[c]; break;
        case GPU_BF_ONE_MINUS_SRC_COLOR: v = 1.0f - s[c]; break;
        case GPU_BF_DST_COLOR: v = dst[c]; break;
        case GPU_BF_ONE_MINUS_DST_COLOR: v = 1.0f - dst[c]; break;
        case GPU_BF_SRC_ALPHA: v = s[3]; break;
        case GPU_BF_ONE_MINUS_SRC_ALPHA: v = 1.0f - s[3]; break;
        case GPU_BF_DST_ALPHA: v = dst[3]; break;
        case GPU_BF_ONE_MINUS_DST_ALPHA: v = 1.0f - dst[3]; break;
        case GPU_BF_CONST_COLOR: v = k[c]; break;
        case GPU_BF_ONE_MINUS_CONST_COLOR: v = 1.0f - k[c]; break;
        case GPU_BF_CONST_ALPHA: v = k[3]; break;
        case GPU_BF_ONE_MINUS_CONST_ALPHA: v = 1.0f - k[3]; break;
        default: v = 1.0f; break;
        }
        out[c] = v;
    }
}

static float apply_eq(uint8_t eq, float s, float fs, float d, float fd)
{
    switch (eq) {
    case GPU_BEQ_SUB: return s * fs - d * fd;
    case GPU_BEQ_REV_SUB: return d * fd - s * fs;
    case GPU_BEQ_MIN: return s < d ? s : d;
    case GPU_BEQ_MAX: return s > d ? s : d;
    default: return s * fs + d * fd;
    }
}

uint32_t gpu_blend_pixel(const gpu_blend_t *b, const float blend_color[4], uint8_t mask,
                         const float src_in[4], uint32_t dst_packed)
{
    float src[4], dst[4], res[4], k[4];
    for (int c = 0; c < 4; c++) {
        src[c] = clamp01(src_in[c]);
        k[c] = clamp01(blend_color[c]);
    }
    gpu_unpack_rgba8(dst_packed, dst);
    if (b->enable) {
        float fsr[4], fdr[4], fsa[4], fda[4];
        factor(b->src_rgb, src, dst, k, fsr);
        factor(b->dst_rgb, src, dst, k, fdr);
        factor(b->src_a, src, dst, k, fsa);
        factor(b->dst_a, src, dst, k, fda);
        for (int c = 0; c < 3; c++) res[c] = apply_eq(b->eq_rgb, src[c], fsr[c], dst[c], fdr[c]);
        res[3] = apply_eq(b->eq_a, src[3], fsa[3], dst[3], fda[3]);
    } else {
        memcpy(res, src, sizeof res);
    }
    uint32_t nv = gpu_pack_rgba8(res), out = dst_packed;
    for (int c = 0; c < 4; c++)
        if (mask & (1u << c)) out = (out & ~(0xFFu << (8 * c))) | (nv & (0xFFu << (8 * c)));
    return out;
}
