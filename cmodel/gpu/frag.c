#include "gpu/frag.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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

/* (float)i / 255.0f for every byte i, folded by the compiler (binary32 division is correctly rounded at
 * compile time as at run time: the same values, without a division per channel) */
#define U8F1(i) ((float)(i) / 255.0f)
#define U8F4(i) U8F1(i), U8F1((i) + 1), U8F1((i) + 2), U8F1((i) + 3)
#define U8F16(i) U8F4(i), U8F4((i) + 4), U8F4((i) + 8), U8F4((i) + 12)
#define U8F64(i) U8F16(i), U8F16((i) + 16), U8F16((i) + 32), U8F16((i) + 48)
static const float u8_to_f[256] = {U8F64(0), U8F64(64), U8F64(128), U8F64(192)};

void gpu_unpack_rgba8(uint32_t v, float c[4])
{
    for (int i = 0; i < 4; i++) c[i] = u8_to_f[(v >> (8 * i)) & 0xFFu];
}

uint16_t gpu_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xFFu, m = x & 0x7FFFFFu;
    if (e == 0xFFu) return (uint16_t)(m ? 0x7E00u : sign | 0x7C00u);
    int32_t he = (int32_t)e - 127 + 15;
    if (he >= 31) return (uint16_t)(sign | 0x7C00u);                 /* overflow: infinity */
    if (he <= 0) {                                                    /* half denormal or zero */
        if (he < -10) return (uint16_t)sign;
        m |= 0x800000u;
        uint32_t sh = (uint32_t)(14 - he), q = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
        if (rem > half || (rem == half && (q & 1u))) q++;
        return (uint16_t)(sign | q);
    }
    uint32_t q = ((uint32_t)he << 10) | (m >> 13), rem = m & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (q & 1u))) q++;           /* a carry into the exponent is right */
    return (uint16_t)(sign | q);
}

float gpu_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu, x;
    if (e == 0x1Fu) x = sign | 0x7F800000u | (m << 13);
    else if (e) x = sign | ((e + 112u) << 23) | (m << 13);
    else if (!m) x = sign;
    else {                                                            /* denormal: normalise */
        int sh = 0;
        while (!(m & 0x400u)) { m <<= 1; sh++; }
        x = sign | ((uint32_t)(113 - sh) << 23) | ((m & 0x3FFu) << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

void gpu_texel_decode(gpu_format_t fmt, const uint32_t *p, float out[4])
{
    uint32_t n = gpu_fmt_channels(fmt);
    out[0] = out[1] = out[2] = 0.0f;
    out[3] = 1.0f;
    for (uint32_t c = 0; c < n; c++) {
        if (gpu_fmt_half(fmt)) out[c] = gpu_f16_to_f32((uint16_t)(p[c / 2] >> (16 * (c % 2))));
        else memcpy(&out[c], &p[c], 4);
    }
}

void gpu_texel_encode(gpu_format_t fmt, const float in[4], uint32_t *p)
{
    uint32_t n = gpu_fmt_channels(fmt);
    for (uint32_t c = 0; c < n; c++) {
        if (gpu_fmt_half(fmt)) {
            uint32_t sh = 16 * (c % 2);
            p[c / 2] = (p[c / 2] & ~(0xFFFFu << sh)) | ((uint32_t)gpu_f32_to_f16(in[c]) << sh);
        } else {
            float f = in[c];
            if (f != f) { uint32_t q = 0x7FC00000u; memcpy(&f, &q, 4); }
            memcpy(&p[c], &f, 4);
        }
    }
}

static int32_t wrap_coord(int32_t i, uint32_t n, uint8_t wrap)
{
    if (wrap == GPU_WRAP_CLAMP) {
        if (i < 0) return 0;
        if (i >= (int32_t)n) return (int32_t)n - 1;
        return i;
    }
    /* n a power of two: i mod n (non-negative) is i & (n - 1) in two's complement */
    const int pow2 = (n & (n - 1)) == 0;
    if (wrap == GPU_WRAP_MIRROR) {     /* GL mirrored repeat: ... 1 0 | 0 1 ... n-1 | n-1 ... */
        int32_t p = 2 * (int32_t)n;
        int32_t m = pow2 ? (int32_t)((uint32_t)i & (uint32_t)(p - 1)) : i % p;
        if (m < 0) m += p;
        return m < (int32_t)n ? m : p - 1 - m;
    }
    if (pow2) return (int32_t)((uint32_t)i & (n - 1));
    int32_t m = i % (int32_t)n;
    return m < 0 ? m + (int32_t)n : m;
}

static void texel(const uint32_t *data, uint32_t w, gpu_format_t fmt, int32_t x, int32_t y, float out[4])
{
    if (gpu_fmt_is_float(fmt)) {
        gpu_texel_decode(fmt, &data[((size_t)y * w + (size_t)x) * gpu_fmt_words(fmt)], out);
        return;
    }
    uint32_t v = data[(size_t)y * w + (size_t)x];
    if (fmt == GPU_FMT_DEPTH24) {
        float d = (float)(v & GPU_DEPTH_MAX) / (float)GPU_DEPTH_MAX;
        out[0] = out[1] = out[2] = d;
        out[3] = 1.0f;
    } else {
        gpu_unpack_rgba8(v, out);
    }
}

/* One level: nearest or bilinear, GL's texel-centre convention, per-axis wrap. */
static void sample_level(const uint32_t *data, uint32_t w, uint32_t h, gpu_format_t fmt, float u, float v, int linear,
                         uint8_t ws, uint8_t wt, float out[4])
{
    float fx = u * (float)w, fy = v * (float)h;
    if (linear) {
        fx -= 0.5f;
        fy -= 0.5f;
        float x0f = floorf(fx), y0f = floorf(fy);
        float ax = fx - x0f, ay = fy - y0f;
        int32_t x0 = (int32_t)x0f, y0 = (int32_t)y0f;
        int32_t xa = wrap_coord(x0, w, ws), xb = wrap_coord(x0 + 1, w, ws);
        int32_t ya = wrap_coord(y0, h, wt), yb = wrap_coord(y0 + 1, h, wt);
        float t00[4], t10[4], t01[4], t11[4];
        texel(data, w, fmt, xa, ya, t00);
        texel(data, w, fmt, xb, ya, t10);
        texel(data, w, fmt, xa, yb, t01);
        texel(data, w, fmt, xb, yb, t11);
        for (int c = 0; c < 4; c++) {
            float lo = t00[c] + ax * (t10[c] - t00[c]);
            float hi = t01[c] + ax * (t11[c] - t01[c]);
            out[c] = lo + ay * (hi - lo);
        }
    } else {
        int32_t x = wrap_coord((int32_t)floorf(fx), w, ws);
        int32_t y = wrap_coord((int32_t)floorf(fy), h, wt);
        texel(data, w, fmt, x, y, out);
    }
}

/* ---- llvmpipe's sampler (gpu_t.tex_filter == GPU_TEXF_LLVMPIPE) ----
 * Mesa 22.3 gallivm, measured bit-exact against llvmpipe on this arithmetic (docs/golden-model.md section 1,
 * "Texture filtering"). RGBA8 textures with repeat or clamp-to-edge wraps take llvmpipe's "AoS" path
 * (lp_bld_sample_aos.c): coordinates in 8.8 fixed point, every lerp on 8-bit channels with an 8-bit weight,
 * the mip blend weight truncated to 8 bits. Other formats and wraps take its float path: the model's binary32
 * filtering with llvmpipe's level of detail. */

/* floor(a / 256) for any int64 a (no reliance on the shift of a negative number) */
static int64_t floor256(int64_t a) { return a >= 0 ? a / 256 : -((-a + 255) / 256); }

/* lp_build_iround (cvtps2dq): round half to even; out of range or NaN gives INT32_MIN as the instruction does */
static int32_t lp_iround(float x)
{
    if (!(x >= -2147483648.0f && x < 2147483648.0f)) return INT32_MIN;
    return (int32_t)lrintf(x);
}

/* lp_build_lerp of unorm8 channels with a prescaled 8-bit weight w (pmulhrsw of w and (v1 - v0) << 7):
 * v0 + floor((w (v1 - v0) + 128) / 256), which stays within [min(v0,v1), max(v0,v1)] */
static uint32_t lp_lerp8(uint32_t w, uint32_t v0, uint32_t v1)
{
    return (uint32_t)((int64_t)v0 + floor256((int64_t)w * ((int64_t)v1 - (int64_t)v0) + 128));
}

/* the same on the four channels of two RGBA8 texels */
static uint32_t lp_lerp_rgba8(uint32_t w, uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    for (uint32_t sh = 0; sh < 32; sh += 8) r |= lp_lerp8(w, (a >> sh) & 255u, (b >> sh) & 255u) << sh;
    return r;
}

/* lp_build_fast_log2: exponent + mantissa - 1, piecewise linear between powers of two, in binary32 */
static float lp_fast_log2(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    int32_t e = (int32_t)((b >> 23) & 255u) - 128;      /* floor(log2 x) - 1 for normal x */
    uint32_t mb = (b & 0x7FFFFFu) | 0x3F800000u;        /* mantissa in [1, 2) */
    float m;
    memcpy(&m, &mb, 4);
    return (float)e + m;
}

/* Texel indices and 8-bit weight of one axis for the linear filter (lp_build_sample_image_linear and
 * lp_build_sample_wrap_linear_int): c = iround(u * n * 256) - 128, index floor(c / 256), weight c mod 256. */
static void lp_axis_linear(float u, uint32_t n, uint8_t wrap, uint32_t *i0, uint32_t *i1, uint32_t *wt)
{
    int64_t c = (int64_t)lp_iround(u * (float)(n * 256u)) - 128;
    int64_t x0 = floor256(c);
    *wt = (uint32_t)(c - 256 * x0);
    if (wrap == GPU_WRAP_CLAMP) {
        *i0 = x0 < 0 ? 0 : x0 >= (int64_t)n ? n - 1 : (uint32_t)x0;
        *i1 = x0 + 1 < 0 ? 0 : x0 + 1 >= (int64_t)n ? n - 1 : (uint32_t)(x0 + 1);
    } else if ((n & (n - 1)) == 0) {                    /* repeat, power of two: two's-complement mask */
        *i0 = (uint32_t)x0 & (n - 1);
        *i1 = (uint32_t)(x0 + 1) & (n - 1);
    } else {                                            /* repeat, other sizes: lp_build_coord_repeat_npot_linear_int */
        float f = u - floorf(u);
        f = f * (float)n;
        f = f * 256.0f;
        c = (int64_t)lp_iround(f) - 128;
        x0 = floor256(c);
        *wt = (uint32_t)(c - 256 * x0);
        if (x0 < 0) x0 = n - 1;
        if (x0 > (int64_t)n - 1) x0 = n - 1;
        *i0 = (uint32_t)x0;
        *i1 = *i0 != n - 1 ? *i0 + 1 : 0;
    }
}

/* Nearest texel index of one axis (lp_build_sample_image_nearest, lp_build_sample_wrap_nearest_int). */
static uint32_t lp_axis_nearest(float u, uint32_t n, uint8_t wrap)
{
    float f = floorf(u * (float)n);
    int64_t i = f >= -2147483648.0f && f < 2147483648.0f ? (int64_t)f : INT32_MIN;
    if (wrap == GPU_WRAP_CLAMP) return i < 0 ? 0 : i >= (int64_t)n ? n - 1 : (uint32_t)i;
    if ((n & (n - 1)) == 0) return (uint32_t)i & (n - 1);
    float fr = u - floorf(u);                           /* lp_build_fract_safe: below 1 */
    if (!(fr < 0.99999994f)) fr = 0.99999994f;
    uint32_t k = (uint32_t)(fr * (float)n);
    return k < n ? k : n - 1;
}

/* One level of an RGBA8 texture on llvmpipe's 8-bit path: the filtered texel, RGBA8. */
static uint32_t lp_sample_level(const uint32_t *data, uint32_t w, uint32_t h, float u, float v, int linear,
                                uint8_t ws, uint8_t wt)
{
    if (!linear) return data[(size_t)lp_axis_nearest(v, h, wt) * w + lp_axis_nearest(u, w, ws)];
    uint32_t xa, xb, ya, yb, fx, fy;
    lp_axis_linear(u, w, ws, &xa, &xb, &fx);
    lp_axis_linear(v, h, wt, &ya, &yb, &fy);
    uint32_t lo = lp_lerp_rgba8(fx, data[(size_t)ya * w + xa], data[(size_t)ya * w + xb]);
    uint32_t hi = lp_lerp_rgba8(fx, data[(size_t)yb * w + xa], data[(size_t)yb * w + xb]);
    return lp_lerp_rgba8(fy, lo, hi);
}

/* 1 if llvmpipe samples this texture on its 8-bit path (util_format_fits_8unorm, lp_is_simple_wrap_mode) */
static int lp_aos(const gpu_t *g, gpu_format_t fmt, uint8_t ws, uint8_t wt)
{
    return g->tex_filter == GPU_TEXF_LLVMPIPE && fmt == GPU_FMT_RGBA8 && ws != GPU_WRAP_MIRROR && wt != GPU_WRAP_MIRROR;
}

/* Mip chain of a surface: levels 1.. built from level 0 with a 2x2 box filter (truncating average per
 * channel, as Mesa's software _mesa_generate_mipmap for RGBA8; a dimension of 1 averages 2 texels; under
 * GPU_TEXF_LLVMPIPE RGBA8 levels are llvmpipe's own, lp_sample_level), rebuilt after the surface changes
 * (gpu_surface_changed). Owned by the GPU instance (no shared mutable state). */
struct gpu_mipchain {
    uint32_t nlev;
    uint32_t w[GPU_MAX_LEVELS], h[GPU_MAX_LEVELS];
    uint32_t *lev[GPU_MAX_LEVELS];     /* lev[0] unused: the surface's own data */
};

void gpu_surface_changed(gpu_t *g, int32_t surface)
{
    if (surface < 0 || (uint32_t)surface >= GPU_MAX_SURFACES || !g->mip[surface]) return;
    struct gpu_mipchain *m = g->mip[surface];
    for (uint32_t l = 1; l < m->nlev; l++) free(m->lev[l]);
    free(m);
    g->mip[surface] = NULL;
}

static const struct gpu_mipchain *mip_chain(const gpu_t *gc, int32_t sid)
{
    gpu_t *g = (gpu_t *)(uintptr_t)gc;      /* a cache: building it does not change what the GPU renders */
    if (g->mip[sid]) return g->mip[sid];
    const gpu_surface_t *s = &g->surf[sid];
    struct gpu_mipchain *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->w[0] = s->w;
    m->h[0] = s->h;
    m->nlev = 1;
    const uint32_t *src = s->data;
    while (m->nlev < GPU_MAX_LEVELS && (m->w[m->nlev - 1] > 1 || m->h[m->nlev - 1] > 1)) {
        uint32_t pw = m->w[m->nlev - 1], ph = m->h[m->nlev - 1];
        uint32_t nw = pw > 1 ? pw / 2 : 1, nh = ph > 1 ? ph / 2 : 1;
        uint32_t wpt = gpu_fmt_words(s->fmt);
        uint32_t *d = calloc((size_t)nw * nh, 4 * (size_t)wpt);
        if (!d) break;
        for (uint32_t y = 0; y < nh; y++)
            for (uint32_t x = 0; x < nw; x++) {
                uint32_t x0 = pw > 1 ? 2 * x : 0, x1 = pw > 1 ? 2 * x + 1 : 0;
                uint32_t y0 = ph > 1 ? 2 * y : 0, y1 = ph > 1 ? 2 * y + 1 : 0;
                if (gpu_fmt_is_float(s->fmt)) {     /* binary32 mean of the four texels, rounded to the format */
                    float t[4][4], o[4];
                    gpu_texel_decode(s->fmt, &src[((size_t)y0 * pw + x0) * wpt], t[0]);
                    gpu_texel_decode(s->fmt, &src[((size_t)y0 * pw + x1) * wpt], t[1]);
                    gpu_texel_decode(s->fmt, &src[((size_t)y1 * pw + x0) * wpt], t[2]);
                    gpu_texel_decode(s->fmt, &src[((size_t)y1 * pw + x1) * wpt], t[3]);
                    for (int k = 0; k < 4; k++) o[k] = ((t[0][k] + t[1][k]) + (t[2][k] + t[3][k])) * 0.25f;
                    gpu_texel_encode(s->fmt, o, &d[((size_t)y * nw + x) * wpt]);
                    continue;
                }
                if (s->fmt == GPU_FMT_RGBA8 && g->tex_filter == GPU_TEXF_LLVMPIPE) {
                    /* llvmpipe's glGenerateMipmap: a blit that samples level l-1 bilinearly at each texel
                     * centre of level l on the 8-bit path, clamp to edge (2x2: two rounded pairwise means) */
                    d[(size_t)y * nw + x] = lp_sample_level(src, pw, ph, ((float)x + 0.5f) / (float)nw,
                                                            ((float)y + 0.5f) / (float)nh, 1, GPU_WRAP_CLAMP, GPU_WRAP_CLAMP);
                    continue;
                }
                uint32_t a = src[(size_t)y0 * pw + x0], b = src[(size_t)y0 * pw + x1];
                uint32_t c = src[(size_t)y1 * pw + x0], e = src[(size_t)y1 * pw + x1];
                uint32_t v = 0;
                if (s->fmt == GPU_FMT_DEPTH24) {
                    v = (uint32_t)(((uint64_t)(a & GPU_DEPTH_MAX) + (b & GPU_DEPTH_MAX) + (c & GPU_DEPTH_MAX) + (e & GPU_DEPTH_MAX)) / 4);
                } else {
                    for (int k = 0; k < 4; k++) {
                        uint32_t sh = 8u * (uint32_t)k;
                        uint32_t t = ((a >> sh) & 255u) + ((b >> sh) & 255u) + ((c >> sh) & 255u) + ((e >> sh) & 255u);
                        v |= (t / 4u) << sh;
                    }
                }
                d[(size_t)y * nw + x] = v;
            }
        m->lev[m->nlev] = d;
        m->w[m->nlev] = nw;
        m->h[m->nlev] = nh;
        src = d;
        m->nlev++;
    }
    g->mip[sid] = m;
    return m;
}

static void sample_mip(const gpu_t *g, int32_t sid, const gpu_surface_t *s, uint32_t l, float u, float v, int linear,
                       uint8_t ws, uint8_t wt, float out[4])
{
    if (l == 0) { sample_level(s->data, s->w, s->h, s->fmt, u, v, linear, ws, wt, out); return; }
    const struct gpu_mipchain *m = mip_chain(g, sid);
    if (!m || l >= m->nlev) { sample_level(s->data, s->w, s->h, s->fmt, u, v, linear, ws, wt, out); return; }
    sample_level(m->lev[l], m->w[l], m->h[l], s->fmt, u, v, linear, ws, wt, out);
}

float gpu_tex_quad_lod(const gpu_t *g, const gpu_draw_t *d, int unit, const float s[4], const float t[4])
{
    int32_t sid = d->st.tex[unit];
    if (sid < 0 || (uint32_t)sid >= g->n_surf) return 0.0f;
    if (!d->st.tex_mip[unit] && (!d->st.tex_min[unit] || d->st.tex_min[unit] - 1 == d->st.tex_filter[unit])) return 0.0f;
    const gpu_surface_t *sf = &g->surf[sid];
    if (g->tex_filter == GPU_TEXF_LLVMPIPE) {
        /* llvmpipe (lp_build_rho without its approximation, lp_build_lod_selector): derivatives from its quad
         * lanes 0 (top left in its frame, y down on a window surface), 1 (right of it) and 2 (below it);
         * rho^2 = max over x and y of the squared scaled derivatives, lod = fast_log2(rho^2) / 2 */
        int a = d->st.y_down ? 2 : 0, b = d->st.y_down ? 3 : 1, c = d->st.y_down ? 0 : 2;
        float sx = (s[b] - s[a]) * (float)sf->w, tx = (t[b] - t[a]) * (float)sf->h;
        float sy = (s[c] - s[a]) * (float)sf->w, ty = (t[c] - t[a]) * (float)sf->h;
        float rx = sx * sx + tx * tx, ry = sy * sy + ty * ty;
        return lp_fast_log2(rx > ry ? rx : ry) * 0.5f;
    }
    /* GL's scale factor from the quad's (coarse) derivatives: lanes 0,1 differ in x, lanes 0,2 in y */
    float dudx = (s[1] - s[0]) * (float)sf->w, dvdx = (t[1] - t[0]) * (float)sf->h;
    float dudy = (s[2] - s[0]) * (float)sf->w, dvdy = (t[2] - t[0]) * (float)sf->h;
    float rx = sqrtf(dudx * dudx + dvdx * dvdx), ry = sqrtf(dudy * dudy + dvdy * dvdy);
    float rho = rx > ry ? rx : ry;
    if (!(rho > 0.0f) || !isfinite(rho)) return rho > 0.0f ? 64.0f : 0.0f;
    return log2f(rho);
}

/* Level l of a surface (l > 0: its mip chain; a level past the chain: level 0). */
static const uint32_t *level_of(const gpu_t *g, int32_t sid, const gpu_surface_t *s, uint32_t l, uint32_t *w, uint32_t *h)
{
    const struct gpu_mipchain *m = l ? mip_chain(g, sid) : NULL;
    if (!m || l >= m->nlev) { *w = s->w; *h = s->h; return s->data; }
    *w = m->w[l];
    *h = m->h[l];
    return m->lev[l];
}

/* llvmpipe's level selection and filtering (lp_build_sample_mipmap and lp_build_linear_mip_levels; the level
 * of detail comes from gpu_tex_quad_lod): lod <= 0 is magnification at level 0; nearest mip level
 * floor((floor(log2 rho^2) + 1) / 2) (lp_build_ilog2_sqrt); linear: levels floor(lod) and the next, blended
 * with the weight trunc(256 fract(lod)) on the 8-bit path, fract(lod) on the float path; both clamp at the
 * last level with no blend. */
static void lp_tex_sample(const gpu_t *g, const gpu_draw_t *d, int unit, int32_t sid, const gpu_surface_t *s,
                          float u, float v, float lod, uint8_t ws, uint8_t wt, float out[4])
{
    int lin = d->st.tex_filter[unit] == GPU_FILTER_LINEAR;
    uint8_t mip = d->st.tex_mip[unit];
    uint32_t l0 = 0;
    float f = 0.0f;
    if (lod > 0.0f) {
        if (d->st.tex_min[unit]) lin = d->st.tex_min[unit] - 1 == GPU_FILTER_LINEAR;
        const struct gpu_mipchain *m = mip != GPU_MIP_NONE ? mip_chain(g, sid) : NULL;
        uint32_t top = m ? m->nlev - 1 : 0;
        float fl = floorf(lod);
        if (mip == GPU_MIP_NEAREST) {
            float e = floorf(2.0f * lod);               /* floor(fast_log2(rho^2)) = exponent of rho^2 */
            l0 = e > 64.0f ? top : (uint32_t)((e + 1.0f) / 2.0f);
            if (l0 > top) l0 = top;
        } else if (mip == GPU_MIP_LINEAR) {
            if (fl >= (float)top) l0 = top;
            else { l0 = (uint32_t)fl; f = lod - fl; }
        }
    }
    uint32_t w, h;
    const uint32_t *data = level_of(g, sid, s, l0, &w, &h);
    if (lp_aos(g, s->fmt, ws, wt)) {
        uint32_t texel = lp_sample_level(data, w, h, u, v, lin, ws, wt);
        uint32_t wgt = (uint32_t)(f * 256.0f);
        if (wgt > 0) {
            const uint32_t *d1 = level_of(g, sid, s, l0 + 1, &w, &h);
            texel = lp_lerp_rgba8(wgt, texel, lp_sample_level(d1, w, h, u, v, lin, ws, wt));
        }
        gpu_unpack_rgba8(texel, out);
        return;
    }
    sample_level(data, w, h, s->fmt, u, v, lin, ws, wt, out);
    if (f > 0.0f) {
        float o2[4];
        const uint32_t *d1 = level_of(g, sid, s, l0 + 1, &w, &h);
        sample_level(d1, w, h, s->fmt, u, v, lin, ws, wt, o2);
        for (int c = 0; c < 4; c++) out[c] = out[c] + f * (o2[c] - out[c]);
    }
}

void gpu_tex_sample_lod(const gpu_t *g, const gpu_draw_t *d, int unit, float u, float v, float lod, float out[4])
{
    int32_t sid = d->st.tex[unit];
    if (sid < 0 || (uint32_t)sid >= g->n_surf) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    const gpu_surface_t *s = &g->surf[sid];
    uint8_t ws = d->st.tex_wrap[unit], wt = d->st.tex_wrap_t[unit] ? (uint8_t)(d->st.tex_wrap_t[unit] - 1) : ws;
    if (!isfinite(u)) u = 0.0f;
    if (!isfinite(v)) v = 0.0f;
    /* keep the coordinates in a range where the float -> int conversions are defined */
    if (u > 1e6f) u = 1e6f;
    if (u < -1e6f) u = -1e6f;
    if (v > 1e6f) v = 1e6f;
    if (v < -1e6f) v = -1e6f;
    if (g->tex_filter == GPU_TEXF_LLVMPIPE) {
        lp_tex_sample(g, d, unit, sid, s, u, v, lod, ws, wt, out);
        return;
    }
    if (!(lod > 0.0f)) {                    /* magnification (or no derivative information) */
        sample_level(s->data, s->w, s->h, s->fmt, u, v, d->st.tex_filter[unit] == GPU_FILTER_LINEAR, ws, wt, out);
        return;
    }
    int lin = d->st.tex_min[unit] ? d->st.tex_min[unit] - 1 == GPU_FILTER_LINEAR : d->st.tex_filter[unit] == GPU_FILTER_LINEAR;
    uint8_t mip = d->st.tex_mip[unit];
    if (mip == GPU_MIP_NONE) {
        sample_level(s->data, s->w, s->h, s->fmt, u, v, lin, ws, wt, out);
        return;
    }
    const struct gpu_mipchain *m = mip_chain(g, sid);
    uint32_t top = m ? m->nlev - 1 : 0;
    if (lod > (float)top) lod = (float)top;
    if (mip == GPU_MIP_NEAREST) {           /* GL: level ceil(lambda + 1/2) - 1 */
        uint32_t l = lod <= 0.5f ? 0 : (uint32_t)ceilf(lod + 0.5f) - 1;
        if (l > top) l = top;
        sample_mip(g, sid, s, l, u, v, lin, ws, wt, out);
        return;
    }
    uint32_t l0 = (uint32_t)floorf(lod);
    float f = lod - floorf(lod);
    sample_mip(g, sid, s, l0, u, v, lin, ws, wt, out);
    if (l0 < top && f > 0.0f) {
        float o2[4];
        sample_mip(g, sid, s, l0 + 1, u, v, lin, ws, wt, o2);
        for (int c = 0; c < 4; c++) out[c] = out[c] + f * (o2[c] - out[c]);
    }
}

void gpu_tex_sample(const gpu_t *g, const gpu_draw_t *d, int unit, float u, float v, float out[4])
{
    gpu_tex_sample_lod(g, d, unit, u, v, 0.0f, out);
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
    return gpu_fs_builtin_lod(g, d, var, 0.0f, color, depth);
}

int gpu_fs_builtin_texcoord(const gpu_draw_t *d)
{
    switch (d->fs_kind) {
    case GPU_FS_TEXTURE: case GPU_FS_DISCARD_ALPHA: return 0;
    case GPU_FS_TEXTURE_MODULATE: return 1;
    default: return -1;
    }
}

int gpu_fs_builtin_lod(const gpu_t *g, const gpu_draw_t *d, const float var[GPU_MAX_VARYINGS][4], float lod,
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
        gpu_tex_sample_lod(g, d, 0, var[0][0], var[0][1], lod, t);
        for (int r = 0; r < GPU_MAX_RTS; r++) memcpy(color[r], t, sizeof color[r]);
        return 0;
    case GPU_FS_TEXTURE_MODULATE:
        gpu_tex_sample_lod(g, d, 0, var[1][0], var[1][1], lod, t);
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
        gpu_tex_sample_lod(g, d, 0, var[0][0], var[0][1], lod, t);
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

/* The blend equation on decoded colours (the RGBA8 and the float paths): res = src when blending is off. */
static inline void blend_rgba(const gpu_blend_t *b, const float k[4], const float src[4], const float dst[4],
                              float res[4])
{
    if (b->enable) {
        float fsr[4], fdr[4], fsa[4], fda[4];
        factor(b->src_rgb, src, dst, k, fsr);
        factor(b->dst_rgb, src, dst, k, fdr);
        factor(b->src_a, src, dst, k, fsa);
        factor(b->dst_a, src, dst, k, fda);
        for (int c = 0; c < 3; c++) res[c] = apply_eq(b->eq_rgb, src[c], fsr[c], dst[c], fdr[c]);
        res[3] = apply_eq(b->eq_a, src[3], fsa[3], dst[3], fda[3]);
    } else {
        memcpy(res, src, 4 * sizeof(float));
    }
}

int gpu_blend_pixel_float(const gpu_blend_t *b, const float blend_color[4], uint8_t mask, const float src[4],
                          gpu_format_t fmt, uint32_t *p)
{
    float dst[4], res[4];
    gpu_texel_decode(fmt, p, dst);
    blend_rgba(b, blend_color, src, dst, res);
    for (int c = 0; c < 4; c++)
        if (!(mask & (1u << c))) res[c] = dst[c];
    uint32_t old[4], w = gpu_fmt_words(fmt);
    memcpy(old, p, 4 * w);
    gpu_texel_encode(fmt, res, p);
    return memcmp(old, p, 4 * w) != 0;
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
    blend_rgba(b, k, src, dst, res);
    uint32_t nv = gpu_pack_rgba8(res), out = dst_packed;
    for (int c = 0; c < 4; c++)
        if (mask & (1u << c)) out = (out & ~(0xFFu << (8 * c))) | (nv & (0xFFu << (8 * c)));
    return out;
}
