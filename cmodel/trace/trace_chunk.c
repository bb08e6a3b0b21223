/* Trace library: chunk framing (compression bounds, byte transforms, chunk payload decoding).
 * See trace.h and docs/trace-format.md. */
#include "trace/trace.h"
#include "trace/trace_internal.h"

#include <inttypes.h>
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
 * texels end up side by side, which the compressor then finds. */
void tr_xform_fwd(int xf, const uint8_t *in, uint8_t *out, size_t n)
{
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
}
static void xform_inv(int xf, const uint8_t *in, uint8_t *out, size_t n)
{
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
}

/* Decompress one chunk payload (CRC of the stored bytes already checked). The allocation is `raw` bytes,
 * which the caller has bounded by TRACE_MAX_CHUNK_RAW and by what the stored bytes can expand to: for zlib
 * the ratio bound, for zstd ZSTD_decompressBound() of the frame and the frame's own content size, which
 * must both agree with the chunk header before anything is allocated. */
uint8_t *tr_chunk_decode(uint32_t flags, const uint8_t *sbuf, uint32_t stored, uint32_t raw, void **dctx,
                         const char *tn, uint64_t off, trace_error_t *err)
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
        xform_inv((int)xf, out, t, raw);
        free(out);
        out = t;
    }
    return out;
}
