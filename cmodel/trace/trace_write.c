/* Trace library: the streaming writer (file or memory) and re-packing.
 * See trace.h and docs/trace-format.md. */
#include "trace/trace.h"
#include "trace/trace_internal.h"

#include "common/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

/* ---- writer ---- */
struct trace_writer {
    FILE *f;
    outf_t of;        /* file writer: temporary file renamed into place by trace_writer_close */
    tr_buf_t mem;     /* memory writer output */
    int is_mem;
    int zlevel;
    uint32_t codec;   /* codec of auto chunks: TRACE_CODEC_ZLIB or TRACE_CODEC_ZSTD */
    uint32_t minor;   /* format minor version written in the header */
    void *zstd_cctx;  /* ZSTD_CCtx, created at the first zstd chunk */
    void *zs_cctx;    /* ZSTD_CCtx of the zstd stream (codec 3, format 1.5), created at its first chunk */
    uint64_t pos;
    tr_validator_t *v;
    trace_info_t info;
    int failed;
};

static int w_out(trace_writer_t *w, const void *p, size_t n, trace_error_t *err)
{
    if (w->is_mem) {
        tb_bytes(&w->mem, p, n);
        if (w->mem.failed) { tr_err(err, w->pos, "out of memory"); return -1; }
    } else if (n && fwrite(p, 1, n, w->f) != n) {
        tr_err(err, w->pos, "write error: %s", strerror(errno));
        return -1;
    }
    w->pos += n;
    return 0;
}

/* Compress n bytes with codec at level into a malloc'd buffer (*out, *olen). 0 ok, -1 failure. */
static int w_compress(trace_writer_t *w, unsigned codec, int level, const uint8_t *p, size_t n, uint8_t **out,
                      size_t *olen)
{
    *out = NULL;
    if (codec == TRACE_CODEC_ZLIB) {
        uLongf zlen = compressBound(n);
        uint8_t *zb = malloc(zlen);
        if (!zb || compress2(zb, &zlen, p, n, level) != Z_OK) { free(zb); return -1; }
        *out = zb;
        *olen = zlen;
        return 0;
    }
    if (!w->zstd_cctx && !(w->zstd_cctx = ZSTD_createCCtx())) return -1;
    size_t cap = ZSTD_compressBound(n);
    uint8_t *zb = malloc(cap ? cap : 1);
    if (!zb) return -1;
    /* One frame with its content size and no zstd checksum (the chunk CRC covers the stored bytes);
     * single-threaded, so the output depends only on the input, the level and the zstd version. */
    ZSTD_CCtx *cc = w->zstd_cctx;
    size_t r = ZSTD_CCtx_reset(cc, ZSTD_reset_session_and_parameters);
    if (!ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
    if (!ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
    if (!ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 0);
    if (!ZSTD_isError(r)) r = ZSTD_compress2(cc, zb, cap, p, n);
    if (ZSTD_isError(r)) { free(zb); return -1; }
    *out = zb;
    *olen = r;
    return 0;
}

/* Append n bytes to the file's zstd stream (codec 3) and flush: the output is this chunk's stored bytes, a
 * run of complete zstd blocks (the first chunk also carries the frame header; the frame is never ended).
 * Level: the file's when its codec is zstd, else zstd's default. No checksum (the chunk CRC covers the
 * stored bytes), no content size; single-threaded, so the bytes depend only on the chunks streamed so far,
 * the level and the zstd version. */
static int w_stream(trace_writer_t *w, const uint8_t *p, size_t n, uint8_t **out, size_t *olen)
{
    *out = NULL;
    ZSTD_CCtx *cc = w->zs_cctx;
    if (!cc) {
        if (!(cc = ZSTD_createCCtx())) return -1;
        w->zs_cctx = cc;
        size_t r = ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, w->codec == TRACE_CODEC_ZSTD ? w->zlevel : 0);
        if (!ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
        if (!ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 0);
        if (ZSTD_isError(r)) return -1;
    }
    size_t cap = ZSTD_compressBound(n) + 64;
    uint8_t *zb = malloc(cap);
    if (!zb) return -1;
    ZSTD_inBuffer in = {p, n, 0};
    ZSTD_outBuffer o = {zb, cap, 0};
    for (;;) {
        size_t r = ZSTD_compressStream2(cc, &o, &in, ZSTD_e_flush);
        if (ZSTD_isError(r)) { free(zb); return -1; }
        if (r == 0) break;
        uint8_t *nb = realloc(zb, cap * 2);     /* not reached: the bound covers a flushed chunk */
        if (!nb) { free(zb); return -1; }
        zb = nb;
        o.dst = zb;
        o.size = cap *= 2;
    }
    *out = zb;
    *olen = o.pos;
    return 0;
}

/* Write one chunk; z: -1 auto, else the chunk flags (codec | transform << 2). Auto: stored as is when
 * shorter than 64 bytes, when the file's level is 0 or when compression does not make it smaller; else the
 * file's codec at its level, after the byte transform (format 1.2) that compresses best at a fast level
 * (ZSTD level 1 or zlib level 1 on each candidate, ties to the simpler one; from format 1.5 TEX_MED is a
 * candidate for a SURF of RGBA8 texels), all deterministic. From format
 * 1.5 on, a zstd file puts every auto chunk of 64 bytes or more other than SURF into the zstd stream
 * (codec 3, no transform, always: once streamed, the bytes are part of the stream's history): draws,
 * programs and clears repeat each other's state, constants and vertices, which a per-chunk frame cannot
 * see; surfaces keep their own frames (texels gain little from earlier chunks and would crowd the window). */
static int w_chunk(trace_writer_t *w, uint32_t tag, const uint8_t *p, size_t n, int z, trace_error_t *err)
{
    if (n > TRACE_MAX_CHUNK_RAW) {
        tr_err(err, w->pos, "chunk payload of %zu bytes exceeds the %u-byte limit", n, TRACE_MAX_CHUNK_RAW);
        return -1;
    }
    uint32_t allowed = w->minor >= 2 ? (TRACE_CHUNK_CODEC_MASK | TRACE_CHUNK_XFORM_MASK) : 1u;
    if (z >= 0) {
        unsigned c = (unsigned)z & TRACE_CHUNK_CODEC_MASK, x = ((unsigned)z & TRACE_CHUNK_XFORM_MASK) >> TRACE_CHUNK_XFORM_SHIFT;
        uint32_t tw, th;
        if (((unsigned)z & ~allowed) || ((c == TRACE_CODEC_ZSTREAM || x == TRACE_XFORM_TEX_MED) && w->minor < 5) ||
            (x && !c) || (x == TRACE_XFORM_TEX_MED && (tag != trace_fourcc("SURF") || !tr_tex_med_applies(p, n, &tw, &th)))) {
            tr_err(err, w->pos, "chunk flags %d not allowed in format 1.%" PRIu32, z, w->minor);
            return -1;
        }
    }
    unsigned codec = 0, xf = 0;
    int level = w->zlevel;
    if (z >= 0) {
        codec = (unsigned)z & TRACE_CHUNK_CODEC_MASK;
        xf = ((unsigned)z & TRACE_CHUNK_XFORM_MASK) >> TRACE_CHUNK_XFORM_SHIFT;
        /* an explicit codec other than the file's uses that codec's default level (zlib 6, zstd 0 = its
         * default 3); the file's codec its level, also 0 (zlib: stored deflate blocks), as in format 1.0 */
        if (codec != w->codec) level = codec == TRACE_CODEC_ZSTD ? 0 : 6;
    } else if (n >= 64 && w->zlevel > 0 && w->minor >= 5 && w->codec == TRACE_CODEC_ZSTD && tag != trace_fourcc("SURF")) {
        codec = TRACE_CODEC_ZSTREAM;
    } else if (n >= 64 && w->zlevel > 0) {
        codec = w->codec;
        if (w->minor >= 2 && n >= 256) {
            /* choose the transform on a fast level */
            size_t best = 0;
            uint8_t *t = malloc(n);
            if (!t) { tr_err(err, w->pos, "out of memory"); return -1; }
            uint32_t tw, th;
            unsigned last = w->minor >= 5 && tag == trace_fourcc("SURF") && tr_tex_med_applies(p, n, &tw, &th)
                            ? TRACE_XFORM_TEX_MED : TRACE_XFORM_SHUF4_DELTA;
            for (unsigned cand = TRACE_XFORM_NONE; cand <= last; cand++) {
                const uint8_t *src = p;
                if (cand) { tr_xform_fwd((int)cand, p, t, n); src = t; }
                uint8_t *zb;
                size_t zl;
                if (w_compress(w, codec, 1, src, n, &zb, &zl)) { free(t); tr_err(err, w->pos, "compression failed"); return -1; }
                free(zb);
                if (cand == TRACE_XFORM_NONE || zl < best) { best = zl; xf = cand; }
            }
            free(t);
        }
    }
    uint8_t *zb = NULL, *tbuf = NULL;
    size_t zlen = 0;
    if (codec) {
        const uint8_t *src = p;
        if (xf) {
            tbuf = malloc(n ? n : 1);
            if (!tbuf) { tr_err(err, w->pos, "out of memory"); return -1; }
            tr_xform_fwd((int)xf, p, tbuf, n);
            src = tbuf;
        }
        if (codec == TRACE_CODEC_ZSTREAM ? w_stream(w, src, n, &zb, &zlen) : w_compress(w, codec, level, src, n, &zb, &zlen)) {
            free(tbuf);
            tr_err(err, w->pos, "%s compression failed", codec == TRACE_CODEC_ZLIB ? "zlib" : "zstd");
            return -1;
        }
        free(tbuf);
        if (z < 0 && zlen >= n && codec != TRACE_CODEC_ZSTREAM) { free(zb); zb = NULL; codec = 0; xf = 0; }
        if (zlen > 0xffffffffu) { free(zb); tr_err(err, w->pos, "compressed chunk too large"); return -1; }
    }
    uint32_t flags = codec | xf << TRACE_CHUNK_XFORM_SHIFT;
    tr_buf_t h = {0};
    tb_u32(&h, tag);
    tb_u32(&h, zb ? flags : 0u);
    tb_u32(&h, zb ? (uint32_t)zlen : (uint32_t)n);
    tb_u32(&h, (uint32_t)n);
    tb_u32(&h, zb ? (uint32_t)crc32(0L, zb, (uInt)zlen) : (uint32_t)crc32(0L, p, (uInt)n));
    int rc = h.failed ? -1 : 0;
    if (!rc) rc = w_out(w, h.p, h.len, err);
    if (!rc) rc = zb ? w_out(w, zb, zlen, err) : w_out(w, p, n, err);
    free(h.p);
    free(zb);
    return rc;
}

static trace_writer_t *w_open(trace_writer_t *w, const trace_info_t *info, int zlevel, trace_error_t *err)
{
    if (w->codec == TRACE_CODEC_ZSTD) {
        if (w->minor < 2) { tr_err(err, 0, "zstd needs format 1.2 (writing 1.%" PRIu32 ")", w->minor); goto fail; }
        if (zlevel < 0 || zlevel > TRACE_ZSTD_MAX_LEVEL) {
            tr_err(err, 0, "zstd level %d out of range 0..%d", zlevel, TRACE_ZSTD_MAX_LEVEL);
            goto fail;
        }
    } else if (w->codec != TRACE_CODEC_ZLIB) {
        tr_err(err, 0, "unknown codec %" PRIu32 " (1 zlib, 2 zstd)", w->codec);
        goto fail;
    } else if (zlevel < 0 || zlevel > 9) { tr_err(err, 0, "zlib level %d out of range 0..9", zlevel); goto fail; }
    w->zlevel = zlevel;
    /* Validate INFO by encoding and decoding it. */
    tr_buf_t b = {0};
    tr_encode_info(&b, info);
    if (b.failed) { free(b.p); tr_err(err, 0, "out of memory"); goto fail; }
    tr_cur_t c = {b.p, b.len, 0, TRACE_FILE_HEADER_SIZE + TRACE_CHUNK_HEADER_SIZE, TRACE_FILE_HEADER_SIZE, 0,
                  "INFO", err, 0, 0};
    if (tr_dec_info(&c, &w->info)) { free(b.p); goto fail; }
    tr_buf_t h = {0};
    tb_bytes(&h, TRACE_MAGIC, 8);
    tb_u16(&h, TRACE_VERSION_MAJOR);
    tb_u16(&h, (uint16_t)w->minor);
    tb_u32(&h, TRACE_FILE_HEADER_SIZE);
    tb_u32(&h, 0);
    tb_u32(&h, (uint32_t)zlevel | (w->codec == TRACE_CODEC_ZSTD ? 2u << 8 : 0u));
    if (!h.failed) tb_u32(&h, (uint32_t)crc32(0L, h.p, 24));
    tb_u32(&h, 0);
    int rc = h.failed ? -1 : w_out(w, h.p, h.len, err);
    free(h.p);
    if (!rc) rc = w_chunk(w, trace_fourcc("INFO"), b.p, b.len, 0, err);
    free(b.p);
    if (rc) goto fail;
    w->v = tr_validator_new(&w->info);
    if (!w->v) { tr_err(err, w->pos, "out of memory"); goto fail; }
    return w;
fail:
    trace_writer_abort(w);
    return NULL;
}

trace_writer_t *trace_writer_open(const char *path, const trace_info_t *info, const trace_wopts_t *o,
                                  trace_error_t *err)
{
    if (o->minor > TRACE_VERSION_MINOR) {
        tr_err(err, 0, "format version 1.%u is newer than this writer (1.%u)", o->minor, (unsigned)TRACE_VERSION_MINOR);
        return NULL;
    }
    trace_writer_t *w = calloc(1, sizeof *w);
    if (!w) { tr_err(err, 0, "out of memory"); return NULL; }
    if (path) {
        char oerr[300];
        if (outf_open(&w->of, path, 1, oerr, sizeof oerr)) { tr_err(err, 0, "%s", oerr); free(w); return NULL; }
        w->f = w->of.f;
    } else {
        w->is_mem = 1;
    }
    w->minor = o->minor;
    w->codec = o->codec;
    return w_open(w, info, o->level, err);
}

trace_writer_t *trace_writer_open_file(const char *path, const trace_info_t *info, int zlevel, trace_error_t *err)
{
    return trace_writer_open_file_minor(path, info, zlevel, TRACE_VERSION_MINOR, err);
}

trace_writer_t *trace_writer_open_file_minor(const char *path, const trace_info_t *info, int zlevel, uint32_t minor,
                                             trace_error_t *err)
{
    trace_wopts_t o = {minor, TRACE_CODEC_ZLIB, zlevel};
    return trace_writer_open(path, info, &o, err);
}

trace_writer_t *trace_writer_open_mem(const trace_info_t *info, int zlevel, trace_error_t *err)
{
    trace_wopts_t o = {TRACE_VERSION_MINOR, TRACE_CODEC_ZLIB, zlevel};
    return trace_writer_open(NULL, info, &o, err);
}

int trace_writer_put(trace_writer_t *w, const trace_cmd_t *cmd, trace_error_t *err)
{
    if (w->failed) { tr_err(err, w->pos, "writer already failed"); return -1; }
    if (cmd->type == TRACE_CMD_DRAW && w->minor < 4 && cmd->u.draw.state_flags) {
        /* the field does not exist before 1.4: dropping it would change what the draw renders */
        tr_err(err, w->pos, "DRAW %" PRIu32 ": state_flags 0x%" PRIx32 " (GL_DEPTH_CLAMP) needs format 1.4 (writing 1.%" PRIu32 ")",
               cmd->u.draw.index, cmd->u.draw.state_flags, w->minor);
        w->failed = 1;
        return -1;
    }
    tr_buf_t b = {0};
    b.minor = w->minor;
    uint32_t tag = 0;
    if (tr_encode_cmd(&b, cmd, &tag)) {
        free(b.p);
        tr_err(err, w->pos, "cannot encode %s command", trace_cmd_name(cmd->type));
        w->failed = 1;
        return -1;
    }
    if (cmd->type == TRACE_CMD_UNKNOWN) {
        char tn[5];
        tr_tagstr(tag, tn);
        int bad = 0;
        for (int i = 0; i < 4; i++) {
            char ch = tn[i];
            bad |= !((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == ' ' || ch == '_');
        }
        const char *reserved[] = {"INFO", "TEND", "SURF", "PROG", "FRMB", "FRME", "CLER", "DRAW"};
        for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++) bad |= tag == trace_fourcc(reserved[i]);
        if (bad) {
            free(b.p);
            tr_err(err, w->pos, "unknown-chunk tag \"%s\" is not allowed", tn);
            w->failed = 1;
            return -1;
        }
    }
    /* Decode what we encoded: the writer accepts exactly what the reader accepts. */
    trace_cmd_t chk;
    char tn[5];
    tr_tagstr(tag, tn);
    tr_cur_t c = {b.p, b.len, 0, w->pos + TRACE_CHUNK_HEADER_SIZE, w->pos, 0, tn, err, 0, w->minor};
    if (tr_dec_cmd(&c, tag, &chk) || tr_validate(w->v, &chk, w->pos, err)) {
        if (!c.failed) trace_cmd_free(&chk);
        free(b.p);
        w->failed = 1;
        return -1;
    }
    /* Lengths derived from the struct must agree with what was decoded (e.g. stride). */
    trace_cmd_free(&chk);
    int rc = w_chunk(w, tag, b.p, b.len, cmd->zflag, err);
    free(b.p);
    if (rc) w->failed = 1;
    return rc;
}

void trace_writer_fill_deps(const trace_writer_t *w, trace_draw_t *d)
{
    tr_validator_deps(w->v, d, &d->n_deps, d->deps);
}

int trace_writer_close(trace_writer_t *w, uint8_t **out, size_t *out_len, trace_error_t *err)
{
    int rc = 0;
    if (w->failed) { tr_err(err, w->pos, "writer failed earlier"); rc = -1; }
    if (!rc && w->v->in_frame) { tr_err(err, w->pos, "closing inside frame %" PRIu32 " (missing FRME)", w->v->frames); rc = -1; }
    if (!rc && w->v->frames != w->info.n_frames) {
        tr_err(err, w->pos, "wrote %" PRIu32 " frames but INFO declares %" PRIu32, w->v->frames, w->info.n_frames);
        rc = -1;
    }
    if (!rc) {
        tr_buf_t b = {0};
        tr_encode_tend(w->v, &b);
        rc = b.failed ? -1 : w_chunk(w, trace_fourcc("TEND"), b.p, b.len, 0, err);
        free(b.p);
    }
    if (w->f) {
        char oerr[300];
        if (rc) outf_abort(&w->of);    /* never leave a partial trace behind; an existing file stays */
        else if (outf_commit(&w->of, oerr, sizeof oerr)) { tr_err(err, w->pos, "%s", oerr); rc = -1; }
        w->f = NULL;
    }
    if (w->is_mem && !rc && out) {
        *out = w->mem.p;
        *out_len = w->mem.len;
        w->mem.p = NULL;
    }
    free(w->mem.p);
    tr_validator_free(w->v);
    trace_info_free(&w->info);
    ZSTD_freeCCtx(w->zstd_cctx);
    ZSTD_freeCCtx(w->zs_cctx);
    free(w);
    return rc;
}

void trace_writer_abort(trace_writer_t *w)
{
    if (!w) return;
    if (w->f) outf_abort(&w->of);   /* removes only the temporary file */
    free(w->mem.p);
    tr_validator_free(w->v);
    trace_info_free(&w->info);
    ZSTD_freeCCtx(w->zstd_cctx);
    ZSTD_freeCCtx(w->zs_cctx);
    free(w);
}

/* ---- re-pack ---- */
int trace_repack(trace_reader_t *r, const char *path, const trace_wopts_t *o, trace_error_t *err)
{
    trace_writer_t *w = trace_writer_open(path, trace_reader_info(r), o, err);
    if (!w) return -1;
    trace_cmd_t cmd = {0};
    int rc;
    while ((rc = trace_reader_next(r, &cmd, err)) == 1) {
        cmd.zflag = -1;
        if (trace_writer_put(w, &cmd, err)) { rc = -1; break; }
    }
    trace_cmd_free(&cmd);
    if (rc < 0) { trace_writer_abort(w); return -1; }
    return trace_writer_close(w, NULL, NULL, err);
}
