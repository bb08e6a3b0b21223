/* Trace format: writer/reader round trip, validation of hostile input, documented error messages. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace.h"

#include <zlib.h>

static char tmpdir[200];    /* $TMPDIR (else the current directory)/test_trace_XXXXXX, made by setup() */

static void expect_err(const uint8_t *b, size_t n, unsigned opts, const char *needle, uint64_t offset);
static void wr32(uint8_t *p, uint32_t v);
static size_t find_chunk(const uint8_t *b, size_t n, const char *tag);

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static uint8_t *synthetic(int zlevel, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/synth-%d.gpt", tmpdir, zlevel);
    trace_error_t err;
    if (trace_write_synthetic(path, zlevel, &err)) fail_msg("synth: %s", err.msg);
    return slurp(path, len);
}

/* The synthetic trace re-packed with zstd at `level` (trace_repack, as gpupd-trace pack) as format 1.`minor`:
 * 1.4 compresses every chunk on its own (codec 2), 1.5 puts the draws into the zstd stream (codec 3). */
static uint8_t *synthetic_zstd_minor(int level, uint32_t minor, size_t *len)
{
    char in[256], out[256];
    snprintf(in, sizeof in, "%s/synth-zs-src.gpt", tmpdir);
    if (minor == 4) snprintf(out, sizeof out, "%s/synth-zstd-%d.gpt", tmpdir, level);
    else snprintf(out, sizeof out, "%s/synth-zstd-%d-1.%u.gpt", tmpdir, level, (unsigned)minor);
    trace_error_t err;
    if (trace_write_synthetic(in, 0, &err)) fail_msg("synth: %s", err.msg);
    trace_reader_t *r = trace_reader_open_file(in, 0, &err);
    assert_non_null(r);
    trace_wopts_t o = {minor, TRACE_CODEC_ZSTD, level};
    if (trace_repack(r, out, &o, &err)) fail_msg("repack: %s", err.msg);
    trace_reader_close(r);
    return slurp(out, len);
}
static uint8_t *synthetic_zstd(int level, size_t *len) { return synthetic_zstd_minor(level, 4, len); }
static uint8_t *synthetic_zstream(int level, size_t *len) { return synthetic_zstd_minor(level, 5, len); }

/* Read the whole buffer: 0 = valid, -1 = rejected (err filled). Counts draws/prims/deps. */
static int read_all(const uint8_t *b, size_t n, unsigned opts, trace_error_t *err, uint32_t *draws, uint64_t *prims,
                    uint32_t *deps)
{
    trace_reader_t *r = trace_reader_open_mem(b, n, opts, err);
    if (!r) return -1;
    trace_cmd_t cmd = {0};
    int rc;
    uint32_t nd = 0, ndep = 0;
    uint64_t np = 0;
    while ((rc = trace_reader_next(r, &cmd, err)) == 1)
        if (cmd.type == TRACE_CMD_DRAW) {
            nd++;
            np += trace_draw_prims(&cmd.u.draw);
            ndep += cmd.u.draw.n_deps;
        }
    trace_cmd_free(&cmd);
    trace_reader_close(r);
    if (draws) *draws = nd;
    if (prims) *prims = np;
    if (deps) *deps = ndep;
    return rc < 0 ? -1 : 0;
}

static void test_synthetic_reads_back(void **state)
{
    (void)state;
    for (int z = 0; z <= 9; z += 9) {
        size_t n;
        uint8_t *b = synthetic(z, &n);
        trace_error_t err;
        uint32_t draws, deps;
        uint64_t prims;
        if (read_all(b, n, 0, &err, &draws, &prims, &deps)) fail_msg("zlevel %d: %s", z, err.msg);
        /* What trace_synth.c writes: frame 0 = fan (6 tris) + quad (2) + triangle (1), frame 1 = triangle. */
        assert_int_equal(draws, 4);
        assert_int_equal(prims, 10);
        assert_int_equal(deps, 1);
        free(b);
    }
}

static uint32_t rd32le(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* Format 1.2: zstd chunks (with byte transforms) read back to the same commands as the zlib original. */
static void test_zstd_reads_back(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = synthetic_zstd(19, &n);
    assert_int_equal(b[10], 4);
    assert_int_equal(rd32le(b + 20), 19u | 2u << 8);   /* level | codec zstd << 8 */
    trace_error_t err;
    uint32_t draws, deps;
    uint64_t prims;
    if (read_all(b, n, 0, &err, &draws, &prims, &deps)) fail_msg("zstd: %s", err.msg);
    assert_int_equal(draws, 4);
    assert_int_equal(prims, 10);
    assert_int_equal(deps, 1);
    /* every chunk is stored or zstd; some are zstd, and some chose a byte transform */
    int zstd = 0, xf = 0;
    for (size_t pos = TRACE_FILE_HEADER_SIZE; pos < n;) {
        uint32_t flags = rd32le(b + pos + 4), stored = rd32le(b + pos + 8);
        uint32_t codec = flags & TRACE_CHUNK_CODEC_MASK;
        assert_true(codec == TRACE_CODEC_NONE || codec == TRACE_CODEC_ZSTD);
        zstd += codec == TRACE_CODEC_ZSTD;
        xf += (flags & TRACE_CHUNK_XFORM_MASK) != 0;
        pos += TRACE_CHUNK_HEADER_SIZE + stored;
    }
    assert_true(zstd >= 3);
    assert_true(xf >= 1);
    /* the same commands: the text dumps agree below their header line */
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "%s/synth-zs-src.gpt", tmpdir);
    snprintf(p2, sizeof p2, "%s/synth-zstd-19.gpt", tmpdir);
    char *txt[2];
    size_t tl[2];
    for (int k = 0; k < 2; k++) {
        trace_reader_t *r = trace_reader_open_file(k ? p2 : p1, 0, &err);
        assert_non_null(r);
        FILE *f = open_memstream(&txt[k], &tl[k]);
        assert_int_equal(trace_dump_text(r, f, &err), 0);
        fclose(f);
        trace_reader_close(r);
    }
    /* drop the header line and every chunk's "z N" (compression differs by design) */
    for (int k = 0; k < 2; k++) {
        char *o = txt[k], *q = strchr(txt[k], '\n');
        for (const char *c = q; *c;) {
            if (c[0] == ' ' && c[1] == 'z' && c[2] == ' ') { c += 3; while (*c && *c != ' ' && *c != '\n') c++; continue; }
            *o++ = *c++;
        }
        *o = 0;
    }
    assert_string_equal(txt[0], txt[1]);
    free(txt[0]);
    free(txt[1]);
    free(b);
}

/* Hostile zstd chunks: each one a clear error naming the chunk, never a crash or a large allocation. */

/* Every third bit of the stored bytes [from, from + len) of the file b flipped in turn (in the scratch copy c),
 * CRC checks off so the decoder sees it: each read is an error naming an offset or (a flip in literal bytes) a
 * valid trace, never a crash (ASan/UBSan build), and more than a quarter are rejected. */
static void flip_each_payload_bit(uint8_t *c, const uint8_t *b, size_t n, size_t from, size_t len)
{
    int rejected = 0, total = 0;
    for (size_t i = from; i < from + len; i++)
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(c, b, n);
            c[i] ^= (uint8_t)(1u << bit);
            trace_error_t err = {0, ""};
            if (read_all(c, n, TRACE_OPT_NO_CRC, &err, NULL, NULL, NULL)) {
                rejected++;
                assert_non_null(strstr(err.msg, "offset "));
            }
            total++;
        }
    assert_true(rejected > total / 4);
}
static void test_zstd_hostile(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = synthetic_zstd(19, &n);
    uint8_t *c = malloc(n + 64);
    /* the first zstd chunk */
    size_t zc = 0;
    for (size_t pos = TRACE_FILE_HEADER_SIZE; pos < n; pos += TRACE_CHUNK_HEADER_SIZE + rd32le(b + pos + 8))
        if ((rd32le(b + pos + 4) & TRACE_CHUNK_CODEC_MASK) == TRACE_CODEC_ZSTD) { zc = pos; break; }
    assert_true(zc > 0);
    uint32_t stored = rd32le(b + zc + 8), raw = rd32le(b + zc + 12);
    /* raw length that disagrees with the frame's content size (header CRC covers only stored bytes) */
    memcpy(c, b, n); wr32(c + zc + 12, raw + 1);
    expect_err(c, n, 0, "zstd frame declares", zc + TRACE_CHUNK_HEADER_SIZE);
    /* a raw length no zstd frame of this size can produce: refused before any allocation */
    memcpy(c, b, n); wr32(c + zc + 12, TRACE_MAX_CHUNK_RAW);
    expect_err(c, n, 0, "beyond zstd ratio", zc + 12);
    /* codec 3, transform 3, transform without codec, unknown bits */
    uint32_t bad[] = {3u, 2u | 3u << 2, 1u << 2, 2u | 1u << 4};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memcpy(c, b, n); wr32(c + zc + 4, bad[i]);
        expect_err(c, n, 0, "unknown flags", zc + 4);
    }
    /* zstd chunks in a file that says 1.1 (header CRC fixed up) are refused: zstd needs 1.2 */
    memcpy(c, b, n); c[10] = 1;
    expect_err(c, n, TRACE_OPT_NO_CRC, "codec 2 in the header", 20);
    memcpy(c, b, n); c[10] = 1; c[20] = 9; c[21] = 0;   /* header says zlib 9 (1.1), chunk says zstd */
    wr32(c + 24, (uint32_t)crc32(0L, c, 24));
    expect_err(c, n, 0, "unknown flags", zc + 4);
    /* bytes after the frame inside the chunk (stored length grown, CRC checks off) */
    memcpy(c, b, zc + TRACE_CHUNK_HEADER_SIZE + stored);
    memset(c + zc + TRACE_CHUNK_HEADER_SIZE + stored, 0, 8);
    memcpy(c + zc + TRACE_CHUNK_HEADER_SIZE + stored + 8, b + zc + TRACE_CHUNK_HEADER_SIZE + stored,
           n - zc - TRACE_CHUNK_HEADER_SIZE - stored);
    wr32(c + zc + 8, stored + 8);
    expect_err(c, n + 8, TRACE_OPT_NO_CRC, "one frame per chunk", zc + TRACE_CHUNK_HEADER_SIZE);
    /* every byte of the compressed payload flipped, CRC checks off so the decoder sees it: an error or
     * (a flip in literal bytes) a valid trace, never a crash (ASan/UBSan build) */
    flip_each_payload_bit(c, b, n, zc + TRACE_CHUNK_HEADER_SIZE, stored);
    free(c);
    free(b);
}

static trace_info_t mkinfo(void)
{
    static char name[] = "unit", src[] = "test_trace_format.c", notes[] = "";
    trace_info_t i = {16, 8, 1, name, src, notes};
    return i;
}

static void put(trace_writer_t *w, trace_cmd_t *c)
{
    trace_error_t err;
    if (trace_writer_put(w, c, &err)) fail_msg("put %s: %s", trace_cmd_name(c->type), err.msg);
}

/* Format 1.5: draws in the zstd stream (codec 3), surfaces in their own frames; same commands as the
 * source; hostile stream chunks are clear errors naming the chunk; codec 3 needs 1.5. */
static void test_zstream(void **state)
{
    (void)state;
    size_t n, n3;
    uint8_t *b = synthetic_zstream(19, &n), *b3 = synthetic_zstd(19, &n3);
    assert_int_equal(b[10], 5);
    trace_error_t err;
    uint32_t draws, deps;
    uint64_t prims;
    if (read_all(b, n, 0, &err, &draws, &prims, &deps)) fail_msg("zstd stream: %s", err.msg);
    assert_int_equal(draws, 4);
    assert_int_equal(prims, 10);
    assert_int_equal(deps, 1);
    size_t zc[8];
    int ns = 0;
    for (size_t pos = TRACE_FILE_HEADER_SIZE; pos < n; pos += TRACE_CHUNK_HEADER_SIZE + rd32le(b + pos + 8)) {
        uint32_t codec = rd32le(b + pos + 4) & TRACE_CHUNK_CODEC_MASK;
        if (codec == TRACE_CODEC_ZSTREAM) {
            assert_memory_not_equal(b + pos, "SURF", 4);
            if (ns < 8) zc[ns] = pos;
            ns++;
        }
    }
    assert_true(ns >= 3);
    /* the same commands as the per-chunk 1.4 file: the dumps agree below their header line, "z N" aside */
    char *txt[2];
    size_t tl[2];
    for (int k = 0; k < 2; k++) {
        trace_reader_t *r = trace_reader_open_mem(k ? b : b3, k ? n : n3, 0, &err);
        assert_non_null(r);
        FILE *f = open_memstream(&txt[k], &tl[k]);
        assert_int_equal(trace_dump_text(r, f, &err), 0);
        fclose(f);
        trace_reader_close(r);
        char *o = txt[k], *q = strchr(txt[k], '\n');
        for (const char *c = q; *c;) {
            if (c[0] == ' ' && c[1] == 'z' && c[2] == ' ') { c += 3; while (*c && *c != ' ' && *c != '\n') c++; continue; }
            *o++ = *c++;
        }
        *o = 0;
    }
    assert_string_equal(txt[0], txt[1]);
    free(txt[0]);
    free(txt[1]);

    uint8_t *c = malloc(n);
    size_t s1 = zc[1];
    uint32_t raw = rd32le(b + s1 + 12), stored = rd32le(b + s1 + 8);
    /* a raw length one byte longer or shorter than the piece decodes to */
    memcpy(c, b, n); wr32(c + s1 + 12, raw + 1);
    expect_err(c, n, 0, "zstd stream piece", s1 + TRACE_CHUNK_HEADER_SIZE);
    memcpy(c, b, n); wr32(c + s1 + 12, raw - 1);
    expect_err(c, n, 0, "zstd stream piece", s1 + TRACE_CHUNK_HEADER_SIZE);
    /* a raw length no piece of this size can produce: refused before any allocation */
    memcpy(c, b, n); wr32(c + s1 + 12, TRACE_MAX_CHUNK_RAW);
    expect_err(c, n, 0, "beyond zstd ratio", s1 + 12);
    /* a stream chunk marked as a zstd frame of its own (its piece has no frame header) */
    memcpy(c, b, n); wr32(c + s1 + 4, TRACE_CODEC_ZSTD);
    expect_err(c, n, 0, "zstd data corrupt", s1 + TRACE_CHUNK_HEADER_SIZE);
    /* the first piece (with the frame header) skipped: the second cannot start the stream. The first
     * stream chunk is re-labelled as an unknown tag stored as is, so the file stays well-formed otherwise. */
    memcpy(c, b, n); memcpy(c + zc[0], "XTRA", 4); wr32(c + zc[0] + 4, 0);
    wr32(c + zc[0] + 12, rd32le(c + zc[0] + 8));
    expect_err(c, n, 0, "zstd stream", UINT64_MAX);
    /* codec 3 in a file that says 1.4 (header CRC fixed up) */
    memcpy(c, b, n); c[10] = 4;
    wr32(c + 24, (uint32_t)crc32(0L, c, 24));
    expect_err(c, n, 0, "unknown flags", zc[0] + 4);
    /* every byte of a stream piece flipped, CRC checks off: an error naming an offset or a valid trace */
    flip_each_payload_bit(c, b, n, s1 + TRACE_CHUNK_HEADER_SIZE, stored);
    free(c);

    /* the writer refuses codec 3 below format 1.5 */
    trace_info_t info = mkinfo();
    trace_wopts_t o = {4, TRACE_CODEC_ZSTD, 19};
    trace_writer_t *w = trace_writer_open(NULL, &info, &o, &err);
    assert_non_null(w);
    trace_cmd_t fb = {0};
    fb.type = TRACE_CMD_FRAME_BEGIN;
    fb.zflag = TRACE_CODEC_ZSTREAM;
    assert_int_equal(trace_writer_put(w, &fb, &err), -1);
    if (!strstr(err.msg, "not allowed in format 1.4")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);
    free(b);
    free(b3);
}


/* Format 1.5 TEX_MED (transform 3): RGBA8 texels come back bit-exact (explicit and auto, edges and wrap-
 * around of the residuals included); it is refused on anything but a SURF of RGBA8 texels and below 1.5. */
static void test_tex_med(void **state)
{
    (void)state;
    trace_error_t err;
    trace_info_t info = mkinfo();
    enum { TW = 37, TH = 19 };
    static uint8_t tex[TW * TH * 4];
    uint32_t seed = 12345;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            for (int k = 0; k < 4; k++) {
                seed = seed * 1103515245u + 12345u;
                /* smooth gradients with noise and a few extreme values (0 / 255 next to each other) */
                int v = (k == 3) ? 255 : (x * (3 + k) + y * 5 + (int)(seed >> 28)) & 255;
                if ((x + y) % 11 == 0) v = (x & 1) ? 255 : 0;
                tex[4 * (y * TW + x) + k] = (uint8_t)v;
            }
    for (int pass = 0; pass < 2; pass++) {   /* 0: explicit z = zstd | TEX_MED << 2, 1: auto */
        trace_wopts_t o = {5, TRACE_CODEC_ZSTD, 19};
        trace_writer_t *w = trace_writer_open(NULL, &info, &o, &err);
        assert_non_null(w);
        trace_cmd_t c;
        memset(&c, 0, sizeof c);
        c.type = TRACE_CMD_SURFACE;
        c.zflag = pass ? -1 : (int)(TRACE_CODEC_ZSTD | TRACE_XFORM_TEX_MED << TRACE_CHUNK_XFORM_SHIFT);
        c.u.surface = (trace_surface_t){5, TRACE_SURF_COLOR, TRACE_FMT_RGBA8, TW, TH, TRACE_SURF_F_HAS_DATA,
                                        sizeof tex, tex, "med"};
        put(w, &c);
        memset(&c, 0, sizeof c);
        c.type = TRACE_CMD_FRAME_BEGIN;
        put(w, &c);
        c.type = TRACE_CMD_FRAME_END;
        put(w, &c);
        uint8_t *bin;
        size_t n;
        assert_int_equal(trace_writer_close(w, &bin, &n, &err), 0);
        size_t sc = find_chunk(bin, n, "SURF");
        if (pass == 0) assert_int_equal(rd32le(bin + sc + 4), TRACE_CODEC_ZSTD | TRACE_XFORM_TEX_MED << TRACE_CHUNK_XFORM_SHIFT);
        trace_reader_t *r = trace_reader_open_mem(bin, n, 0, &err);
        if (!r) fail_msg("%s", err.msg);
        trace_cmd_t g = {0};
        int got = 0, rc;
        while ((rc = trace_reader_next(r, &g, &err)) == 1)
            if (g.type == TRACE_CMD_SURFACE) {
                assert_int_equal(g.u.surface.data_len, sizeof tex);
                assert_memory_equal(g.u.surface.data, tex, sizeof tex);
                assert_string_equal(g.u.surface.label, "med");
                got = 1;
            }
        if (rc < 0) fail_msg("%s", err.msg);
        trace_cmd_free(&g);
        trace_reader_close(r);
        assert_true(got);
        if (pass == 0) {
            /* the same chunk in a file that says 1.4 (header CRC fixed up): transform 3 is unknown there */
            uint8_t *c3 = malloc(n);
            memcpy(c3, bin, n); c3[10] = 4;
            wr32(c3 + 24, (uint32_t)crc32(0L, c3, 24));
            expect_err(c3, n, 0, "unknown flags", sc + 4);
            free(c3);
        }
        free(bin);
    }
    /* a FRMB chunk marked TEX_MED by hand (CRC checks off): refused, naming the chunk */
    {
        trace_wopts_t o = {5, TRACE_CODEC_ZSTD, 19};
        trace_writer_t *w = trace_writer_open(NULL, &info, &o, &err);
        trace_cmd_t c;
        memset(&c, 0, sizeof c);
        c.type = TRACE_CMD_FRAME_BEGIN;
        c.zflag = TRACE_CODEC_ZSTD;
        put(w, &c);
        c.type = TRACE_CMD_FRAME_END;
        c.zflag = -1;
        put(w, &c);
        uint8_t *bin;
        size_t n;
        assert_int_equal(trace_writer_close(w, &bin, &n, &err), 0);
        size_t fc = find_chunk(bin, n, "FRMB");
        wr32(bin + fc + 4, TRACE_CODEC_ZSTD | TRACE_XFORM_TEX_MED << TRACE_CHUNK_XFORM_SHIFT);
        expect_err(bin, n, TRACE_OPT_NO_CRC, "not a SURF of RGBA8 texels", fc + TRACE_CHUNK_HEADER_SIZE);
        free(bin);
        /* and the writer refuses it on a non-SURF chunk and on a surface without texels */
        w = trace_writer_open(NULL, &info, &o, &err);
        c.type = TRACE_CMD_SURFACE;
        c.zflag = (int)(TRACE_CODEC_ZSTD | TRACE_XFORM_TEX_MED << TRACE_CHUNK_XFORM_SHIFT);
        c.u.surface = (trace_surface_t){6, TRACE_SURF_COLOR, TRACE_FMT_RGBA8, 8, 8, 0, 0, NULL, "rt"};
        assert_int_equal(trace_writer_put(w, &c, &err), -1);
        if (!strstr(err.msg, "not allowed in format 1.5")) fail_msg("got: %s", err.msg);
        trace_writer_abort(w);
    }
}

/* Hand-built trace in memory; every field of the draw must come back bit-exact. */
static void test_memory_roundtrip_fields(void **state)
{
    (void)state;
    trace_error_t err;
    trace_info_t info = mkinfo();
    trace_writer_t *w = trace_writer_open_mem(&info, 6, &err);
    assert_non_null(w);
    trace_cmd_t c;
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_SURFACE;
    c.zflag = -1;
    uint8_t tex[4 * 4 * 4];
    for (int i = 0; i < 64; i++) tex[i] = (uint8_t)(i * 7);
    c.u.surface = (trace_surface_t){5, TRACE_SURF_COLOR, TRACE_FMT_RGBA8, 4, 4, TRACE_SURF_F_HAS_DATA, 64, tex, "tex"};
    put(w, &c);
    c.u.surface = (trace_surface_t){0, TRACE_SURF_COLOR, TRACE_FMT_RGBA8, 16, 8, TRACE_SURF_F_DEFAULT_FB, 0, NULL, "fb"};
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_BEGIN;
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_DRAW;
    c.zflag = 1;
    trace_draw_t *d = &c.u.draw;
    trace_draw_init(d);
    float v[3 * 6] = {0, 0, 0, 0.25f, -0.0f, 1e-30f, 1, 0, 0, 1, 1, 3.5f, 0, 1, 0, 0, 1, -7};
    uint32_t idx[3] = {2, 1, 0};
    float vc[4] = {1, 2, 3, 4};
    d->n_attribs = 2;
    d->attribs[0].comps = 3;
    d->attribs[1] = (trace_attr_t){TRACE_SEM_TEXCOORD0, 3};
    d->n_verts = 3;
    d->verts = v;
    d->n_indices = 3;
    d->indices = idx;
    d->n_vs_consts = 1;
    d->vs_consts = vc;
    d->cost = (trace_cost_t){7, 1, 12, 3};
    trace_state_default(&d->state, 16, 8);
    d->state.blend_en = 1;
    d->state.src_rgb = TRACE_BF_SRC_ALPHA_SATURATE;
    d->state.alpha_test = 1;
    d->state.alpha_func = TRACE_CMP_GEQUAL;
    d->state.alpha_ref = 0.5f;
    d->state.vp_x = -3;
    d->n_color = 1;
    d->n_tex = 1;
    d->tex[0] = (trace_texbind_t){3, 5, 1, 0, 2, 1};
    d->ref_pixels = 77;
    d->flags = TRACE_DRAW_F_TEX_APPROX;
    put(w, &c);
    trace_state_t want_state = d->state;
    trace_cost_t want_cost = d->cost;
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_END;
    put(w, &c);
    uint8_t *bin;
    size_t n;
    assert_int_equal(trace_writer_close(w, &bin, &n, &err), 0);

    trace_reader_t *r = trace_reader_open_mem(bin, n, 0, &err);
    if (!r) fail_msg("%s", err.msg);
    assert_int_equal(trace_reader_info(r)->width, 16);
    assert_string_equal(trace_reader_info(r)->name, "unit");
    trace_cmd_t g = {0};
    int got_draw = 0, got_tex = 0, rc;
    while ((rc = trace_reader_next(r, &g, &err)) == 1) {
        if (g.type == TRACE_CMD_SURFACE && g.u.surface.id == 5) {
            assert_int_equal(g.u.surface.data_len, sizeof tex);
            assert_memory_equal(g.u.surface.data, tex, sizeof tex);
            got_tex = 1;
        }
        if (g.type != TRACE_CMD_DRAW) continue;
        got_draw = 1;
        const trace_draw_t *e = &g.u.draw;
        assert_int_equal(g.zflag, 1);
        assert_int_equal(e->stride, 6);
        assert_memory_equal(e->verts, v, sizeof v);
        assert_memory_equal(e->indices, idx, sizeof idx);
        assert_memory_equal(e->vs_consts, vc, sizeof vc);
        assert_memory_equal(&e->state, &want_state, sizeof want_state);
        assert_memory_equal(&e->cost, &want_cost, sizeof want_cost);
        assert_int_equal(e->tex[0].unit, 3);
        assert_int_equal(e->tex[0].wrap_s, 2);
        assert_int_equal(e->n_deps, 0);   /* surface 5 was uploaded, never rendered */
        assert_int_equal(e->ref_pixels, 77);
        assert_int_equal(e->flags, TRACE_DRAW_F_TEX_APPROX);
        const trace_surface_t *s = trace_reader_surface(r, 5);
        assert_non_null(s);
        assert_int_equal(s->width, 4);
        assert_null(s->data);            /* the reader keeps metadata only (bounded memory) */
    }
    if (rc < 0) fail_msg("%s", err.msg);
    assert_true(got_draw);
    assert_true(got_tex);
    trace_cmd_free(&g);
    trace_reader_close(r);
    free(bin);
}

/* trace_summarize counts RAW dependencies per dependent draw, but inter-GPU synchronisations per surface as the
 * paper's Table 2 does: once before the first draw that samples a surface written since it was last synchronised
 * (or defined). Render into surface 2, sample it twice, render it again, sample it, upload it, sample it:
 * 3 dependent draws, 2 synchronisations of the one 8x4 surface (2 x 128 bytes). */
static void test_summary_syncs(void **state)
{
    (void)state;
    trace_error_t err;
    trace_info_t info = mkinfo();
    trace_writer_t *w = trace_writer_open_mem(&info, 0, &err);
    assert_non_null(w);
    trace_cmd_t c;
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_SURFACE;
    c.zflag = -1;
    c.u.surface = (trace_surface_t){0, TRACE_SURF_COLOR, TRACE_FMT_RGBA8, 16, 8, TRACE_SURF_F_DEFAULT_FB, 0, NULL, "fb"};
    put(w, &c);
    c.u.surface = (trace_surface_t){2, TRACE_SURF_COLOR, TRACE_FMT_RGBA8, 8, 4, 0, 0, NULL, "rtt"};
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_BEGIN;
    put(w, &c);
    float v[3 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint32_t idx[3] = {0, 1, 2};
    const int target[6] = {2, 0, 0, 2, 0, -1};   /* -1: upload surface 2, then a draw into 0 sampling it */
    uint8_t texels[8 * 4 * 4] = {0};
    for (int k = 0; k < 6; k++) {
        if (target[k] < 0) {
            memset(&c, 0, sizeof c);
            c.type = TRACE_CMD_SURFACE;
            c.zflag = -1;
            c.u.surface = (trace_surface_t){2, TRACE_SURF_COLOR, TRACE_FMT_RGBA8, 8, 4, TRACE_SURF_F_HAS_DATA,
                                            sizeof texels, texels, "rtt"};
            put(w, &c);
        }
        memset(&c, 0, sizeof c);
        c.type = TRACE_CMD_DRAW;
        c.zflag = -1;
        trace_draw_t *d = &c.u.draw;
        trace_draw_init(d);
        d->n_attribs = 1;
        d->attribs[0].comps = 3;
        d->n_verts = 3;
        d->verts = v;
        d->n_indices = 3;
        d->indices = idx;
        d->index = (uint32_t)k;
        trace_state_default(&d->state, target[k] == 2 ? 8 : 16, target[k] == 2 ? 4 : 8);
        d->n_color = 1;
        d->color[0] = target[k] == 2 ? 2 : 0;
        if (target[k] != 2) {
            d->n_tex = 1;
            d->tex[0] = (trace_texbind_t){0, 2, 0, 0, 0, 0};
        }
        trace_writer_fill_deps(w, d);
        put(w, &c);
    }
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_END;
    put(w, &c);
    uint8_t *bin;
    size_t n;
    assert_int_equal(trace_writer_close(w, &bin, &n, &err), 0);
    trace_reader_t *r = trace_reader_open_mem(bin, n, 0, &err);
    if (!r) fail_msg("%s", err.msg);
    trace_summary_t s;
    if (trace_summarize(r, &s, &err)) fail_msg("%s", err.msg);
    assert_int_equal(s.draws, 6);
    assert_int_equal(s.raw_deps, 3);
    assert_int_equal(s.raw_dep_draws, 3);
    assert_int_equal(s.syncs, 2);
    assert_int_equal(s.sync_surfaces, 1);
    assert_int_equal(s.sync_bytes, 2 * 8 * 4 * 4);
    trace_reader_close(r);
    free(bin);
}

/* Truncation at every length: always rejected, with an error naming an offset, never a crash. */
static void test_truncated_everywhere(void **state)
{
    (void)state;
    for (int z = 0; z <= 18; z += 6) {
        size_t n;
        /* 12: zstd per chunk (format 1.4), 18: zstd stream (format 1.5) */
        uint8_t *b = z == 18 ? synthetic_zstream(19, &n) : z == 12 ? synthetic_zstd(19, &n) : synthetic(z, &n);
        for (size_t len = 0; len < n; len++) {
            uint8_t *cut = malloc(len ? len : 1);   /* exact size: ASan catches any over-read */
            memcpy(cut, b, len);
            trace_error_t err = {0, ""};
            if (read_all(cut, len, 0, &err, NULL, NULL, NULL) == 0)
                fail_msg("zlevel %d: truncated to %zu of %zu bytes but accepted", z, len, n);
            assert_non_null(strstr(err.msg, "offset "));
            assert_true(err.offset <= len);
            free(cut);
        }
        free(b);
    }
}

/* Every single flipped bit is detected (header CRC, chunk CRCs, tag/length checks). */
static void test_flipped_bits_detected(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        size_t n;
        uint8_t *b = k == 2 ? synthetic_zstream(19, &n) : k ? synthetic_zstd(19, &n) : synthetic(6, &n);
        for (size_t i = 0; i < n; i++)
            for (int bit = 0; bit < 8; bit += 3) {
                b[i] ^= (uint8_t)(1u << bit);
                trace_error_t err = {0, ""};
                if (read_all(b, n, 0, &err, NULL, NULL, NULL) == 0)
                    fail_msg("%s: byte %zu bit %d flipped but the trace was accepted",
                             k == 2 ? "zstd stream" : k ? "zstd" : "zlib", i, bit);
                b[i] ^= (uint8_t)(1u << bit);
            }
        free(b);
    }
}

/* Specific documented errors. */
static void expect_err(const uint8_t *b, size_t n, unsigned opts, const char *needle, uint64_t offset)
{
    trace_error_t err = {0, ""};
    if (read_all(b, n, opts, &err, NULL, NULL, NULL) == 0) fail_msg("accepted, expected error \"%s\"", needle);
    if (!strstr(err.msg, needle)) fail_msg("error \"%s\" does not contain \"%s\"", err.msg, needle);
    if (offset != UINT64_MAX && err.offset != offset)
        fail_msg("error \"%s\" at offset %llu, expected %llu", err.msg, (unsigned long long)err.offset,
                 (unsigned long long)offset);
}

static size_t find_chunk(const uint8_t *b, size_t n, const char *tag)
{
    for (size_t i = TRACE_FILE_HEADER_SIZE; i + 4 <= n; i++)
        if (!memcmp(b + i, tag, 4)) return i;
    fail_msg("chunk %s not found", tag);
    return 0;
}

static void wr32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }

static void test_documented_errors(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = synthetic(0, &n);   /* uncompressed: field offsets are file offsets */
    uint8_t *c = malloc(n);
    expect_err(b, 10, 0, "file too short", 0);
    memcpy(c, b, n); c[0] = 'X';
    expect_err(c, n, 0, "bad magic", 0);
    memcpy(c, b, n); c[8] = 2;
    expect_err(c, n, 0, "unsupported format version 2.", 8);
    memcpy(c, b, n); c[20] = 5;
    expect_err(c, n, 0, "header CRC mismatch", 24);
    /* truncated in the middle of the last chunk */
    expect_err(b, n - 3, 0, "exceeds the", UINT64_MAX);
    /* payload byte flipped: CRC names the chunk's CRC field */
    size_t draw = find_chunk(b, n, "DRAW");
    memcpy(c, b, n); c[draw + TRACE_CHUNK_HEADER_SIZE + 40] ^= 0x10;
    expect_err(c, n, 0, "DRAW chunk: CRC mismatch", draw + 16);
    /* absurd counts (CRC off so the parser sees them): n_verts of 2^26 vertices */
    size_t nv = draw + TRACE_CHUNK_HEADER_SIZE + 4 * (4 + 2 * 2);   /* index, call, prim, n_attribs, 2 attribs */
    memcpy(c, b, n); wr32(c + nv, 1u << 26);
    expect_err(c, n, TRACE_OPT_NO_CRC, "n_verts = 67108864 needs", nv);
    memcpy(c, b, n); wr32(c + nv, 0xFFFFFFF0u);
    expect_err(c, n, TRACE_OPT_NO_CRC, "n_verts = 4294967280 out of range", nv);
    /* absurd chunk length */
    memcpy(c, b, n); wr32(c + draw + 8, 0x7FFFFFFF);
    expect_err(c, n, 0, "stored length 2147483647 exceeds", draw + 8);
    /* garbage tag */
    memcpy(c, b, n); c[draw] = 0x01;
    expect_err(c, n, 0, "bad chunk tag", draw);
    /* trailing garbage after TEND */
    uint8_t *g = malloc(n + 5);
    memcpy(g, b, n); memset(g + n, 'A', 5);
    expect_err(g, n + 5, 0, "garbage after TEND", n);
    free(g);
    free(c);
    free(b);
}

/* The writer refuses what the reader would refuse, naming the reason. */
static void test_writer_rejects(void **state)
{
    (void)state;
    trace_error_t err;
    trace_info_t info = mkinfo();
    trace_writer_t *w = trace_writer_open_mem(&info, 0, &err);
    assert_non_null(w);
    trace_cmd_t c;
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_DRAW;
    trace_draw_init(&c.u.draw);
    trace_state_default(&c.u.draw.state, 16, 8);
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    assert_non_null(strstr(err.msg, "DRAW outside a frame"));
    trace_writer_abort(w);

    w = trace_writer_open_mem(&info, 0, &err);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_BEGIN;
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_DRAW;
    trace_draw_init(&c.u.draw);
    trace_state_default(&c.u.draw.state, 16, 8);
    float v[4] = {0, 0, 0, 1};
    uint32_t idx[3] = {0, 0, 1};
    c.u.draw.n_verts = 1;
    c.u.draw.verts = v;
    c.u.draw.n_indices = 3;
    c.u.draw.indices = idx;
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "index[2] = 1 >= n_verts 1")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);

    w = trace_writer_open_mem(&info, 0, &err);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_SURFACE;
    c.u.surface = (trace_surface_t){0, TRACE_SURF_COLOR, TRACE_FMT_RGBA8, 16, 8, 0, 0, NULL, "x"};
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_BEGIN;
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_DRAW;
    trace_draw_init(&c.u.draw);
    trace_state_default(&c.u.draw.state, 16, 8);
    c.u.draw.n_tex = 1;
    c.u.draw.tex[0].surface = 0;
    c.u.draw.n_deps = 1;   /* wrong: surface 0 was never rendered */
    c.u.draw.deps[0] = 0;
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "RAW dependencies [ 0 ] but the stream implies [ ]")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);

    /* empty rectangles (issue 25): a viewport, or an enabled scissor, with w or h 0; a disabled scissor's
     * size is not looked at */
    for (int k = 0; k < 4; k++) {
        w = trace_writer_open_mem(&info, 0, &err);
        memset(&c, 0, sizeof c);
        c.type = TRACE_CMD_FRAME_BEGIN;
        put(w, &c);
        memset(&c, 0, sizeof c);
        c.type = TRACE_CMD_DRAW;
        trace_draw_init(&c.u.draw);
        trace_state_default(&c.u.draw.state, 16, 8);
        float v3[12] = {0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1};
        c.u.draw.n_verts = 3;
        c.u.draw.verts = v3;
        trace_state_t *st = &c.u.draw.state;
        if (k == 0) st->vp_h = 0;
        if (k == 1) { st->scissor_en = 1; st->sc_w = 0; }
        if (k == 2) { st->scissor_en = 0; st->sc_w = 0; st->sc_h = 0; }
        if (k == 3) { st->scissor_en = 1; st->sc_w = 1; st->sc_h = 1; }
        int rc = trace_writer_put(w, &c, &err);
        if (k < 2) {
            assert_int_equal(rc, -1);
            if (!strstr(err.msg, k ? "scissor rectangle is empty (w 0, h 8" : "viewport rectangle is empty (w 16, h 0"))
                fail_msg("case %d got: %s", k, err.msg);
        } else if (rc) {
            fail_msg("case %d: a valid rectangle was rejected: %s", k, err.msg);
        }
        trace_writer_abort(w);
    }

    /* closing with fewer frames than INFO declares */
    w = trace_writer_open_mem(&info, 0, &err);
    assert_int_equal(trace_writer_close(w, NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "wrote 0 frames but INFO declares 1"));
}

/* Format 1.2: line and point topologies with width, size and prim_flags round-trip; the reader rejects a
 * line list with an odd index count and a width out of range; a 1.1 file carries no such draw (prim and
 * flag 16 out of range there) and reads back with width 1, size 1, prim_flags 0. */
static trace_writer_t *frame_writer(trace_writer_t *w)
{
    trace_cmd_t c;
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_SURFACE;
    c.u.surface = (trace_surface_t){0, TRACE_SURF_COLOR, TRACE_FMT_RGBA8, 16, 8, TRACE_SURF_F_DEFAULT_FB, 0, NULL, "fb"};
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_BEGIN;
    put(w, &c);
    return w;
}

static void line_draw(trace_cmd_t *c, float *v, uint32_t *idx, uint32_t prim, uint32_t n_idx)
{
    memset(c, 0, sizeof *c);
    c->type = TRACE_CMD_DRAW;
    trace_draw_init(&c->u.draw);
    trace_draw_t *d = &c->u.draw;
    d->prim = prim;
    d->n_verts = 3;
    d->verts = v;
    d->n_indices = n_idx;
    d->indices = idx;
    d->n_color = 1;
    d->color[0] = 0;
    trace_state_default(&d->state, 16, 8);
}

static void test_lines_points_format(void **state)
{
    (void)state;
    trace_error_t err;
    trace_info_t info = mkinfo();
    float v[12] = {0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 1};
    uint32_t idx[4] = {0, 1, 2, 0};
    trace_writer_t *w = frame_writer(trace_writer_open_mem(&info, 0, &err));
    trace_cmd_t c;
    line_draw(&c, v, idx, TRACE_PRIM_LINE_STRIP, 4);
    c.u.draw.line_width = 2.5f;
    c.u.draw.point_size = 3.0f;
    c.u.draw.prim_flags = TRACE_PRIMF_LINE_SMOOTH;
    c.u.draw.flags = TRACE_DRAW_F_PRIM_APPROX;
    put(w, &c);
    line_draw(&c, v, idx, TRACE_PRIM_POINTS, 3);
    c.u.draw.index = 1;
    c.u.draw.point_size = 6.0f;
    put(w, &c);
    /* rejected: odd line list, zero width, NaN size */
    line_draw(&c, v, idx, TRACE_PRIM_LINES, 3);
    c.u.draw.index = 2;
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "n_indices = 3 is not a multiple of 2 (line list)")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);
    w = frame_writer(trace_writer_open_mem(&info, 0, &err));
    line_draw(&c, v, idx, TRACE_PRIM_LINES, 4);
    c.u.draw.line_width = 0.0f;
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "line_width = 0 out of range")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);
    w = frame_writer(trace_writer_open_mem(&info, 0, &err));
    line_draw(&c, v, idx, TRACE_PRIM_POINTS, 4);
    c.u.draw.point_size = NAN;
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "point_size")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);

    /* the two good draws read back */
    w = frame_writer(trace_writer_open_mem(&info, 0, &err));
    line_draw(&c, v, idx, TRACE_PRIM_LINE_STRIP, 4);
    c.u.draw.line_width = 2.5f;
    c.u.draw.prim_flags = TRACE_PRIMF_LINE_SMOOTH;
    c.u.draw.flags = TRACE_DRAW_F_PRIM_APPROX;
    put(w, &c);
    line_draw(&c, v, idx, TRACE_PRIM_POINTS, 3);
    c.u.draw.index = 1;
    c.u.draw.point_size = 6.0f;
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_END;
    put(w, &c);
    uint8_t *buf = NULL;
    size_t len = 0;
    assert_int_equal(trace_writer_close(w, &buf, &len, &err), 0);
    trace_reader_t *r = trace_reader_open_mem(buf, len, 0, &err);
    assert_non_null(r);
    assert_int_equal(trace_reader_minor(r), TRACE_VERSION_MINOR);
    trace_cmd_t k;
    memset(&k, 0, sizeof k);
    int draws = 0;
    while (trace_reader_next(r, &k, &err) == 1) {
        if (k.type != TRACE_CMD_DRAW) continue;
        const trace_draw_t *d = &k.u.draw;
        if (draws == 0) {
            assert_int_equal(d->prim, TRACE_PRIM_LINE_STRIP);
            assert_int_equal(trace_draw_prims(d), 3);
            assert_true(d->line_width == 2.5f && d->point_size == 1.0f);
            assert_int_equal(d->prim_flags, TRACE_PRIMF_LINE_SMOOTH);
            assert_int_equal(d->flags, TRACE_DRAW_F_PRIM_APPROX);
        } else {
            assert_int_equal(d->prim, TRACE_PRIM_POINTS);
            assert_int_equal(trace_draw_prims(d), 3);
            assert_true(d->point_size == 6.0f && d->line_width == 1.0f);
        }
        draws++;
    }
    assert_int_equal(draws, 2);
    trace_cmd_free(&k);
    trace_reader_close(r);
    free(buf);

    /* format 1.1: no line topology, no flag 16; a triangle draw reads back with the 1.2 defaults */
    char path[256];
    snprintf(path, sizeof path, "%s/v11.gpt", tmpdir);
    w = frame_writer(trace_writer_open_file_minor(path, &info, 0, 1, &err));
    line_draw(&c, v, idx, TRACE_PRIM_LINES, 4);
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "prim = 1 out of range (max 0)")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);
    w = frame_writer(trace_writer_open_file_minor(path, &info, 0, 1, &err));
    line_draw(&c, v, idx, TRACE_PRIM_TRIANGLES, 3);
    c.u.draw.flags = TRACE_DRAW_F_PRIM_APPROX;
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "flags = 16 out of range (max 15)")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);
    w = frame_writer(trace_writer_open_file_minor(path, &info, 0, 1, &err));
    line_draw(&c, v, idx, TRACE_PRIM_TRIANGLES, 3);
    c.u.draw.line_width = 7.0f;     /* not stored in 1.1 */
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_END;
    put(w, &c);
    assert_int_equal(trace_writer_close(w, NULL, NULL, &err), 0);
    r = trace_reader_open_file(path, 0, &err);
    assert_non_null(r);
    assert_int_equal(trace_reader_minor(r), 1);
    memset(&k, 0, sizeof k);
    draws = 0;
    while (trace_reader_next(r, &k, &err) == 1)
        if (k.type == TRACE_CMD_DRAW) {
            assert_true(k.u.draw.line_width == 1.0f && k.u.draw.point_size == 1.0f && k.u.draw.prim_flags == 0);
            draws++;
        }
    assert_int_equal(draws, 1);
    trace_cmd_free(&k);
    trace_reader_close(r);
    remove(path);
}

/* Format 1.3: floating-point colour surfaces (texel sizes 8, 16, 4, 4, 4, 8 bytes) and up to 16 attributes;
 * a 1.2 file refuses both with an error naming the field. */
static void test_float_formats_and_attribs(void **state)
{
    (void)state;
    trace_error_t err;
    trace_info_t info = mkinfo();
    static const uint32_t fmts[6] = {TRACE_FMT_RGBA16F, TRACE_FMT_RGBA32F, TRACE_FMT_R16F, TRACE_FMT_R32F,
                                     TRACE_FMT_RG16F, TRACE_FMT_RG32F};
    static const uint32_t bytes[6] = {8, 16, 4, 4, 4, 8};
    uint8_t data[16 * 8 * 16];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7);
    float v[16 * 4 * 3];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) v[i] = (float)i;
    uint32_t idx[3] = {0, 1, 2};
    trace_writer_t *w = frame_writer(trace_writer_open_mem(&info, 0, &err));
    trace_cmd_t c;
    for (int f = 0; f < 6; f++) {
        memset(&c, 0, sizeof c);
        c.type = TRACE_CMD_SURFACE;
        c.u.surface = (trace_surface_t){(uint32_t)(1 + f), TRACE_SURF_COLOR, fmts[f], 16, 8, TRACE_SURF_F_HAS_DATA,
                                        16 * 8 * bytes[f], data, "float"};
        put(w, &c);
    }
    c.u.surface = (trace_surface_t){9, TRACE_SURF_COLOR, TRACE_FMT_RGBA16F, 16, 8, TRACE_SURF_F_HAS_DATA, 16 * 8 * 4, data, "short"};
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "data_len = 512 but the surface needs 1024")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);
    w = frame_writer(trace_writer_open_mem(&info, 0, &err));
    c.u.surface = (trace_surface_t){1, TRACE_SURF_COLOR, TRACE_FMT_R32F, 16, 8, 0, 0, NULL, "r32f"};
    put(w, &c);
    c.u.surface = (trace_surface_t){2, TRACE_SURF_DEPTH, TRACE_FMT_R32F, 16, 8, 0, 0, NULL, "bad"};
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "format 7 does not fit surface kind 1")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);
    /* 16 attributes: written and read back (the draw renders into the R32F surface) */
    w = frame_writer(trace_writer_open_mem(&info, 0, &err));
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_SURFACE;
    c.u.surface = (trace_surface_t){1, TRACE_SURF_COLOR, TRACE_FMT_R32F, 16, 8, 0, 0, NULL, "r32f"};
    put(w, &c);
    line_draw(&c, v, idx, TRACE_PRIM_TRIANGLES, 3);
    trace_draw_t *d = &c.u.draw;
    d->n_attribs = 16;
    d->attribs[0] = (trace_attr_t){TRACE_SEM_POSITION, 4};
    for (int a = 1; a < 16; a++) d->attribs[a] = (trace_attr_t){TRACE_SEM_GENERIC, 4};
    d->color[0] = 1;
    put(w, &c);
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_FRAME_END;
    put(w, &c);
    uint8_t *buf = NULL;
    size_t len = 0;
    assert_int_equal(trace_writer_close(w, &buf, &len, &err), 0);
    trace_reader_t *r = trace_reader_open_mem(buf, len, 0, &err);
    assert_non_null(r);
    trace_cmd_t k;
    memset(&k, 0, sizeof k);
    int draws = 0;
    while (trace_reader_next(r, &k, &err) == 1)
        if (k.type == TRACE_CMD_DRAW) {
            assert_int_equal(k.u.draw.n_attribs, 16);
            assert_true(k.u.draw.verts[3 * 64 - 1] == (float)(3 * 64 - 1));
            draws++;
        }
    assert_int_equal(draws, 1);
    trace_cmd_free(&k);
    trace_reader_close(r);
    free(buf);
    /* format 1.2 refuses float surfaces and more than 8 attributes */
    char path[256];
    snprintf(path, sizeof path, "%s/v12.gpt", tmpdir);
    w = frame_writer(trace_writer_open_file_minor(path, &info, 0, 2, &err));
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_SURFACE;
    c.u.surface = (trace_surface_t){1, TRACE_SURF_COLOR, TRACE_FMT_RGBA16F, 16, 8, 0, 0, NULL, "f16"};
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "format = 4 out of range (max 3)")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);
    w = frame_writer(trace_writer_open_file_minor(path, &info, 0, 2, &err));
    line_draw(&c, v, idx, TRACE_PRIM_TRIANGLES, 3);
    c.u.draw.n_attribs = 9;
    c.u.draw.attribs[0] = (trace_attr_t){TRACE_SEM_POSITION, 4};
    for (int a = 1; a < 9; a++) c.u.draw.attribs[a] = (trace_attr_t){TRACE_SEM_GENERIC, 4};
    assert_int_equal(trace_writer_put(w, &c, &err), -1);
    if (!strstr(err.msg, "n_attribs = 9 out of range (max 8)")) fail_msg("got: %s", err.msg);
    trace_writer_abort(w);
    remove(path);
}

/* Format 1.4: DRAW state_flags (GL_DEPTH_CLAMP) round-trips through the binary and the text dump; a value
 * beyond TRACE_STATEF_ALL is refused; a 1.3 writer refuses a depth-clamped draw (dropping the field would
 * change what the draw renders) and its draws read back with state_flags 0. */
static void test_state_flags_format(void **state)
{
    (void)state;
    trace_error_t err;
    trace_info_t info = mkinfo();
    float v[3 * 4] = {-1, -1, 2, 1, 1, -1, -2, 1, 0, 1, 0, 1};
    uint32_t idx[3] = {0, 1, 2};
    char path[256], txt[256], out[256];
    snprintf(path, sizeof path, "%s/v14.gpt", tmpdir);
    snprintf(txt, sizeof txt, "%s/v14.txt", tmpdir);
    snprintf(out, sizeof out, "%s/v14.rt.gpt", tmpdir);
    for (uint32_t minor = 4; minor <= 5; minor++) {
        trace_writer_t *w = frame_writer(trace_writer_open_file_minor(path, &info, 6, minor, &err));
        trace_cmd_t c;
        line_draw(&c, v, idx, TRACE_PRIM_TRIANGLES, 3);
        c.u.draw.state_flags = TRACE_STATEF_DEPTH_CLAMP;
        if (minor < 4) {
            assert_int_equal(trace_writer_put(w, &c, &err), -1);
            if (!strstr(err.msg, "DRAW 0: state_flags 0x1 (GL_DEPTH_CLAMP) needs format 1.4 (writing 1.3)"))
                fail_msg("got: %s", err.msg);
            trace_writer_abort(w);
            w = frame_writer(trace_writer_open_file_minor(path, &info, 6, minor, &err));
            c.u.draw.state_flags = 0;
        } else {
            c.u.draw.state_flags = 2;
            assert_int_equal(trace_writer_put(w, &c, &err), -1);
            if (!strstr(err.msg, "state_flags = 2 out of range (max 1)")) fail_msg("got: %s", err.msg);
            trace_writer_abort(w);
            w = frame_writer(trace_writer_open_file_minor(path, &info, 6, minor, &err));
            c.u.draw.state_flags = TRACE_STATEF_DEPTH_CLAMP;
        }
        put(w, &c);
        c.u.draw.index = 1;
        c.u.draw.state_flags = 0;
        put(w, &c);
        memset(&c, 0, sizeof c);
        c.type = TRACE_CMD_FRAME_END;
        put(w, &c);
        assert_int_equal(trace_writer_close(w, NULL, NULL, &err), 0);
        trace_reader_t *r = trace_reader_open_file(path, 0, &err);
        assert_non_null(r);
        assert_int_equal(trace_reader_minor(r), minor);
        trace_cmd_t k;
        memset(&k, 0, sizeof k);
        uint32_t got[2] = {9, 9}, n = 0;
        while (trace_reader_next(r, &k, &err) == 1)
            if (k.type == TRACE_CMD_DRAW && n < 2) got[n++] = k.u.draw.state_flags;
        trace_cmd_free(&k);
        trace_reader_close(r);
        assert_int_equal(n, 2);
        assert_int_equal(got[0], minor >= 4 ? TRACE_STATEF_DEPTH_CLAMP : 0);
        assert_int_equal(got[1], 0);
        /* text dump -> undump: byte-identical, and the dump names the field only from 1.4 on */
        r = trace_reader_open_file(path, 0, &err);
        assert_non_null(r);
        FILE *f = fopen(txt, "w");
        assert_int_equal(trace_dump_text(r, f, &err), 0);
        fclose(f);
        trace_reader_close(r);
        size_t nt, n1, n2;
        char *t = (char *)slurp(txt, &nt);
        t[nt] = 0;
        assert_int_equal(strstr(t, "state_flags 1") != NULL, minor >= 4);
        assert_int_equal(strstr(t, "state_flags") != NULL, minor >= 4);
        free(t);
        f = fopen(txt, "r");
        if (trace_undump_text(f, out, &err)) fail_msg("undump 1.%u: %s", minor, err.msg);
        fclose(f);
        uint8_t *a = slurp(path, &n1), *b = slurp(out, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(a, b, n1);
        free(a);
        free(b);
    }
    remove(path);
    remove(txt);
    remove(out);
}

/* Text dump -> undump is byte-identical, and a damaged text names its line. */
static void test_text_roundtrip(void **state)
{
    (void)state;
    for (int z = 0; z <= 6; z += 6) {
        char in[256], txt[256], out[256];
        snprintf(in, sizeof in, "%s/synth-%d.gpt", tmpdir, z);
        snprintf(txt, sizeof txt, "%s/synth-%d.txt", tmpdir, z);
        snprintf(out, sizeof out, "%s/synth-%d.rt.gpt", tmpdir, z);
        trace_error_t err;
        assert_int_equal(trace_write_synthetic(in, z, &err), 0);
        trace_reader_t *r = trace_reader_open_file(in, 0, &err);
        assert_non_null(r);
        FILE *f = fopen(txt, "w");
        assert_int_equal(trace_dump_text(r, f, &err), 0);
        fclose(f);
        trace_reader_close(r);
        f = fopen(txt, "r");
        if (trace_undump_text(f, out, &err)) fail_msg("undump: %s", err.msg);
        fclose(f);
        size_t n1, n2;
        uint8_t *a = slurp(in, &n1), *b = slurp(out, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(a, b, n1);
        free(a);
        free(b);
    }
    /* zstd, per chunk (1.4) and as a stream (1.5): byte-identical too ("codec zstd" in the header line,
     * z = chunk flags; the stream's bytes follow from the chunks in order) */
    for (uint32_t minor = 4; minor <= 5; minor++) {
        size_t n1, n2;
        uint8_t *a = synthetic_zstd_minor(7, minor, &n1);
        char in[256], txt[256], out[256];
        if (minor == 4) snprintf(in, sizeof in, "%s/synth-zstd-7.gpt", tmpdir);
        else snprintf(in, sizeof in, "%s/synth-zstd-7-1.5.gpt", tmpdir);
        snprintf(txt, sizeof txt, "%s/synth-zstd.txt", tmpdir);
        snprintf(out, sizeof out, "%s/synth-zstd.rt.gpt", tmpdir);
        trace_error_t err;
        trace_reader_t *r = trace_reader_open_file(in, 0, &err);
        assert_non_null(r);
        FILE *f = fopen(txt, "w");
        assert_int_equal(trace_dump_text(r, f, &err), 0);
        fclose(f);
        trace_reader_close(r);
        f = fopen(txt, "r");
        if (trace_undump_text(f, out, &err)) fail_msg("undump zstd: %s", err.msg);
        fclose(f);
        uint8_t *b2 = slurp(out, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(a, b2, n1);
        free(a);
        free(b2);
    }
    /* a bad index in the text is refused with its line */
    char txt[256], out[256];
    snprintf(txt, sizeof txt, "%s/bad.txt", tmpdir);
    snprintf(out, sizeof out, "%s/bad.gpt", tmpdir);
    FILE *f = fopen(txt, "w");
    fputs("GPUPD-TRACE-TEXT version 1 0 zlevel 0\nINFO w 4 h 4 frames 1\n name \"x\" source \"y\" notes \"\"\n"
          "FRMB z 0 index 0 src_frame 0\nDRAW z 0 index 0 call 0 prim 0 flags 0 ref_pixels -1\n"
          " attribs 1 sem 0 comps 4\n verts 1\n v 0 0 0 1\n indices 3\n i 0 0 7\n", f);
    fclose(f);
    f = fopen(txt, "r");
    trace_error_t err;
    assert_int_equal(trace_undump_text(f, out, &err), -1);
    fclose(f);
    if (!strstr(err.msg, "text line")) fail_msg("got: %s", err.msg);
    assert_int_equal(access(out, F_OK), -1);   /* no half-written output left behind */
}

static int setup(void **state)
{
    (void)state;
    const char *t = getenv("TMPDIR");
    int n = snprintf(tmpdir, sizeof tmpdir, "%s/test_trace_XXXXXX", t && *t ? t : ".");
    if (n < 0 || (size_t)n >= sizeof tmpdir) return -1;   /* TMPDIR too long */
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synthetic_reads_back),
        cmocka_unit_test(test_zstd_reads_back),
        cmocka_unit_test(test_zstd_hostile),
        cmocka_unit_test(test_zstream),
        cmocka_unit_test(test_tex_med),
        cmocka_unit_test(test_memory_roundtrip_fields),
        cmocka_unit_test(test_summary_syncs),
        cmocka_unit_test(test_truncated_everywhere),
        cmocka_unit_test(test_flipped_bits_detected),
        cmocka_unit_test(test_documented_errors),
        cmocka_unit_test(test_writer_rejects),
        cmocka_unit_test(test_text_roundtrip),
        cmocka_unit_test(test_float_formats_and_attribs),
        cmocka_unit_test(test_state_flags_format),
        cmocka_unit_test(test_lines_points_format),
    };
    return cmocka_run_group_tests_name("trace_format", tests, setup, teardown);
}
