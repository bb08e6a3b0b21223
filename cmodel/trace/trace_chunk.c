/* Trace library: chunk framing (compression bounds, byte transforms, chunk payload decoding).
 * See trace.h and docs/trace-format.md. */
#include "trace/trace.h"
#include "trace/trace_internal.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

/* ---- chunk framing ---- */
/* zlib max expansion ratio is about 1032:1; anything claiming more is hostile. */
uint64_t tr_max_raw_for(uint64_t stored) { return stored * 1032u + 64u; }
/* zstd: the densest block is an RLE block, 3 header bytes + 1 byte for up to 128 KiB, so a frame of n
 * bytes can never produce more than (n / 4 + 1) * 128 KiB. */
uint64_t tr_max_raw_zstd(uint64_t stored) { return (stored / 4u + 1u) * 131072u; }

/* Byte transforms (chunk flags bits 2-3, format 1.2; trace.h). SHUF4: the 4 bytes of each 32-bit word go
 * to 4 planes (plane k = byte k of every word), a tail of n % 4 bytes stays at the end; SHUF4_DELTA: then
 * every plane is replaced by its byte differences. Floats' sign/exponent bytes and the channels of RGBA8
 * texels end up side by side, which the compressor then finds. TEX_MED (format 1.5, SURF chunks of RGBA8
 * texels only): the texel data becomes four planes of the residuals of the LOCO-I median predictor over
 * each channel's 2-D image, R and B as their difference from G's residual (R - G, G, B - G, A), which takes
 * out what the channels' errors share; the surface's header fields and label stay as they are. */
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The texel data of a SURF payload if TEX_MED applies to it: format RGBA8 with data, data_len = w x h x 4,
 * inside the payload (the fields sit before the texels, which the transform leaves alone). */
int tr_tex_med_applies(const uint8_t *p, size_t n, uint32_t *w, uint32_t *h)
{
    if (n < 28) return 0;
    uint32_t fmt = rd32(p + 8), ww = rd32(p + 12), hh = rd32(p + 16), flags = rd32(p + 20), len = rd32(p + 24);
    if (fmt != TRACE_FMT_RGBA8 || !(flags & TRACE_SURF_F_HAS_DATA) || ww == 0 || hh == 0) return 0;
    if ((uint64_t)ww * hh * 4u != len || len > n - 28) return 0;
    *w = ww;
    *h = hh;
    return 1;
}

/* LOCO-I / JPEG-LS median predictor from the left (a), lower-row (b) and diagonal (c) neighbours; outside
 * the image they are 0, so the first row predicts from the left and the first column from below. */
static uint8_t med(uint8_t a, uint8_t b, uint8_t c)
{
    uint8_t mx = a > b ? a : b, mn = a > b ? b : a;
    if (c >= mx) return mn;
    if (c <= mn) return mx;
    return (uint8_t)(a + b - c);
}

/* residual of channel k of the texel at px (RGBA8, row length w texels) */
static uint8_t med_res(const uint8_t *px, size_t x, size_t y, size_t w)
{
    uint8_t a = x ? px[-4] : 0, b = y ? px[-4 * (ptrdiff_t)w] : 0, c = x && y ? px[-4 * (ptrdiff_t)w - 4] : 0;
    return (uint8_t)(*px - med(a, b, c));
}
static void tex_med_fwd(const uint8_t *in, uint8_t *out, uint32_t w, uint32_t h)
{
    size_t plane = (size_t)w * h;
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            size_t i = y * w + x;
            const uint8_t *px = in + 4 * i;
            uint8_t r = med_res(px, x, y, w), g = med_res(px + 1, x, y, w), b = med_res(px + 2, x, y, w);
            out[i] = (uint8_t)(r - g);
            out[plane + i] = g;
            out[2 * plane + i] = (uint8_t)(b - g);
            out[3 * plane + i] = med_res(px + 3, x, y, w);
        }
}
static void tex_med_inv(const uint8_t *in, uint8_t *out, uint32_t w, uint32_t h)
{
    size_t plane = (size_t)w * h;
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            size_t i = y * w + x;
            uint8_t g = in[plane + i];
            uint8_t res[4] = {(uint8_t)(in[i] + g), g, (uint8_t)(in[2 * plane + i] + g), in[3 * plane + i]};
            for (size_t k = 0; k < 4; k++) {
                uint8_t *px = out + 4 * i + k;
                uint8_t a = x ? px[-4] : 0, b = y ? px[-4 * (ptrdiff_t)w] : 0, c = x && y ? px[-4 * (ptrdiff_t)w - 4] : 0;
                *px = (uint8_t)(res[k] + med(a, b, c));
            }
        }
}

int tr_xform_fwd(int xf, const uint8_t *in, uint8_t *out, size_t n)
{
    if (xf == TRACE_XFORM_TEX_MED) {
        uint32_t w, h;
        if (!tr_tex_med_applies(in, n, &w, &h)) return -1;
        size_t len = (size_t)w * h * 4;
        memcpy(out, in, 28);
        tex_med_fwd(in + 28, out + 28, w, h);
        memcpy(out + 28 + len, in + 28 + len, n - 28 - len);
        return 0;
    }
    size_t w = n / 4;
    for (size_t k = 0; k < 4; k++) {
        uint8_t prev = 0;
        for (size_t i = 0; i < w; i++) {
            uint8_t b = in[4 * i + k];
            out[k * w + i] = xf == TRACE_XFORM_SHUF4_DELTA ? (uint8_t)(b - prev) : b;
            prev = b;
        }
    }
    if (n > 4 * w) memcpy(out + 4 * w, in + 4 * w, n - 4 * w);
    return 0;
}
static int xform_inv(int xf, const uint8_t *in, uint8_t *out, size_t n)
{
    if (xf == TRACE_XFORM_TEX_MED) {
        uint32_t w, h;
        if (!tr_tex_med_applies(in, n, &w, &h)) return -1;
        size_t len = (size_t)w * h * 4;
        memcpy(out, in, 28);
        tex_med_inv(in + 28, out + 28, w, h);
        memcpy(out + 28 + len, in + 28 + len, n - 28 - len);
        return 0;
    }
    /* byte k of word i is in[k * w + i] (delta-coded per k); one sequential pass over out */
    size_t w = n / 4;
    const uint8_t *p0 = in, *p1 = in + w, *p2 = in + 2 * w, *p3 = in + 3 * w;
    if (xf == TRACE_XFORM_SHUF4_DELTA) {
        uint8_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (size_t i = 0; i < w; i++) {
            out[4 * i] = a0 = (uint8_t)(a0 + p0[i]);
            out[4 * i + 1] = a1 = (uint8_t)(a1 + p1[i]);
            out[4 * i + 2] = a2 = (uint8_t)(a2 + p2[i]);
            out[4 * i + 3] = a3 = (uint8_t)(a3 + p3[i]);
        }
    } else {
        for (size_t i = 0; i < w; i++) {
            out[4 * i] = p0[i];
            out[4 * i + 1] = p1[i];
            out[4 * i + 2] = p2[i];
            out[4 * i + 3] = p3[i];
        }
    }
    if (n > 4 * w) memcpy(out + 4 * w, in + 4 * w, n - 4 * w);
    return 0;
}

/* Decompress one chunk payload (CRC of the stored bytes already checked). The allocation is `raw` bytes,
 * which the caller has bounded by TRACE_MAX_CHUNK_RAW and by what the stored bytes can expand to: for zlib
 * the ratio bound, for zstd ZSTD_decompressBound() of the frame and the frame's own content size, which
 * must both agree with the chunk header before anything is allocated. */
/* One chunk of the file's zstd stream (codec 3): its stored bytes must decode to exactly `raw` bytes, all
 * consumed, without ending the frame (the writer never ends it) and with nothing left over in the decoder.
 * The window the stream may use is zstd's default limit (2^27 bytes, ZSTD_d_windowLogMax), larger ones are
 * refused before anything is allocated for them. The output buffer was bounded by the caller exactly as
 * for codec 2 (a zstd block never yields more than 128 KiB, so (stored / 4 + 1) x 128 KiB holds here too). */
static int stream_decode(void **sdctx, const uint8_t *sbuf, uint32_t stored, uint8_t *out, uint32_t raw,
                         const char *tn, uint64_t off, trace_error_t *err)
{
    if (!*sdctx) {
        ZSTD_DCtx *d = ZSTD_createDCtx();
        if (!d) { tr_err(err, off, "out of memory"); return -1; }
        *sdctx = d;
        if (ZSTD_isError(ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 27))) {
            tr_err(err, off, "zstd stream: cannot limit the window");
            return -1;
        }
    }
    ZSTD_inBuffer in = {sbuf, stored, 0};
    ZSTD_outBuffer o = {out, raw, 0};
    for (;;) {
        size_t ip = in.pos, op = o.pos;
        size_t r = ZSTD_decompressStream(*sdctx, &o, &in);
        if (ZSTD_isError(r)) {
            tr_err(err, off, "%s chunk: zstd stream data corrupt (%s, %zu of %" PRIu32 " bytes)", tn,
                   ZSTD_getErrorName(r), o.pos, raw);
            return -1;
        }
        if (r == 0) {
            tr_err(err, off, "%s chunk: the zstd stream's frame ends inside the file (it never does)", tn);
            return -1;
        }
        if (in.pos == in.size && o.pos == o.size) break;
        if (in.pos == ip && o.pos == op) {
            tr_err(err, off, "%s chunk: zstd stream piece gives %zu of %" PRIu32 " bytes with %zu of %" PRIu32
                   " stored bytes used (does not decode to the raw length)", tn, o.pos, raw, in.pos, stored);
            return -1;
        }
    }
    uint8_t extra;
    ZSTD_inBuffer none = {NULL, 0, 0};
    ZSTD_outBuffer o2 = {&extra, 1, 0};
    size_t r = ZSTD_decompressStream(*sdctx, &o2, &none);
    if (ZSTD_isError(r) || o2.pos) {
        tr_err(err, off, "%s chunk: zstd stream piece gives more than the raw length %" PRIu32, tn, raw);
        return -1;
    }
    return 0;
}

uint8_t *tr_chunk_decode(uint32_t flags, const uint8_t *sbuf, uint32_t stored, uint32_t raw, void **dctx,
                         void **sdctx, const char *tn, uint64_t off, trace_error_t *err)
{
    unsigned codec = flags & TRACE_CHUNK_CODEC_MASK, xf = (flags & TRACE_CHUNK_XFORM_MASK) >> TRACE_CHUNK_XFORM_SHIFT;
    if (codec == TRACE_CODEC_ZSTD) {
        unsigned long long fsz = ZSTD_getFrameContentSize(sbuf, stored);
        size_t flen = ZSTD_findFrameCompressedSize(sbuf, stored);
        unsigned long long bound = tr_max_raw_zstd(stored);
        if (ZSTD_isError(flen) || fsz == ZSTD_CONTENTSIZE_ERROR) {
            tr_err(err, off, "%s chunk: zstd data corrupt (not one valid zstd frame)", tn);
            return NULL;
        }
        if (flen != stored) {
            tr_err(err, off, "%s chunk: zstd frame ends after %zu of %" PRIu32 " stored bytes (one frame per chunk)",
                   tn, flen, stored);
            return NULL;
        }
        if (fsz != (unsigned long long)raw || bound < (unsigned long long)raw) {
            tr_err(err, off, "%s chunk: zstd frame declares %s%llu bytes (can expand to at most %llu) but the chunk header "
                   "says %" PRIu32, tn, fsz == ZSTD_CONTENTSIZE_UNKNOWN ? "unknown size " : "",
                   fsz == ZSTD_CONTENTSIZE_UNKNOWN ? 0ull : fsz, bound, raw);
            return NULL;
        }
    }
    uint8_t *out = malloc(raw ? raw : 1);
    if (!out) { tr_err(err, off, "out of memory"); return NULL; }
    if (codec == TRACE_CODEC_ZLIB) {
        uLongf dlen = raw;
        int zr = uncompress(out, &dlen, sbuf, stored);
        if (zr != Z_OK || dlen != raw) {
            free(out);
            tr_err(err, off, "%s chunk: zlib data corrupt (%s, %lu of %" PRIu32 " bytes)", tn,
                   zr == Z_OK ? "short" : zError(zr), (unsigned long)dlen, raw);
            return NULL;
        }
    } else if (codec == TRACE_CODEC_ZSTREAM) {
        if (stream_decode(sdctx, sbuf, stored, out, raw, tn, off, err)) { free(out); return NULL; }
    } else {
        if (!*dctx) {
            *dctx = ZSTD_createDCtx();
            /* Windows beyond 2^27 bytes (zstd's default limit) are refused rather than allocated. */
            if (!*dctx) { free(out); tr_err(err, off, "out of memory"); return NULL; }
        }
        size_t dr = ZSTD_decompressDCtx(*dctx, out, raw, sbuf, stored);
        if (ZSTD_isError(dr) || dr != raw) {
            free(out);
            tr_err(err, off, "%s chunk: zstd data corrupt (%s, %zu of %" PRIu32 " bytes)", tn,
                   ZSTD_isError(dr) ? ZSTD_getErrorName(dr) : "short", ZSTD_isError(dr) ? (size_t)0 : dr, raw);
            return NULL;
        }
    }
    if (xf != TRACE_XFORM_NONE) {
        uint8_t *t = malloc(raw ? raw : 1);
        if (!t) { free(out); tr_err(err, off, "out of memory"); return NULL; }
        if ((xf == TRACE_XFORM_TEX_MED && strcmp(tn, "SURF")) || xform_inv((int)xf, out, t, raw)) {
            free(out);
            free(t);
            tr_err(err, off, "%s chunk: transform 3 (TEX_MED) on a payload that is not a SURF of RGBA8 texels", tn);
            return NULL;
        }
        free(out);
        out = t;
    }
    return out;
}
