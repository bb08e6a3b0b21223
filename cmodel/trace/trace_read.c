/* Trace library: the streaming reader (file or memory) and the summary of a trace read through it.
 * See trace.h and docs/trace-format.md. */
#include "trace/trace.h"
#include "common/outfile.h"
#include "trace/trace_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <sys/stat.h>
#include <zstd.h>

/* ---- reader ---- */
typedef struct {
    trace_surface_t s;
} tr_rsurf_t;

struct trace_reader {
    FILE *f;
    const uint8_t *mem;
    uint64_t size, pos;
    unsigned opts;
    uint32_t zlevel;
    uint32_t codec;       /* codec of auto chunks recorded in the header (TRACE_CODEC_ZLIB / ZSTD) */
    uint32_t minor;       /* format minor version in the header */
    void *zstd_dctx;      /* ZSTD_DCtx, created at the first zstd chunk */
    void *zs_dctx;        /* ZSTD_DCtx of the file's zstd stream (codec 3, format 1.5) */
    trace_info_t info;
    tr_validator_t *v;
    trace_surface_t **surf;   /* n_surf entries (grown to the largest id seen) */
    trace_program_t **prog;   /* n_prog entries */
    uint32_t n_surf, n_prog;
    int done, failed;
    trace_error_t last_err;
};

static int r_read(trace_reader_t *r, void *dst, uint64_t n)
{
    if (n > r->size - r->pos) return -1;
    if (r->mem) memcpy(dst, r->mem + r->pos, n);
    else if (n && fread(dst, 1, n, r->f) != n) return -1;
    r->pos += n;
    return 0;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void free_surface(trace_surface_t *s)
{
    if (!s) return;
    free(s->data);
    free(s->label);
    free(s);
}
static void free_program(trace_program_t *p)
{
    if (!p) return;
    free(p->words);
    free(p->name);
    free(p->origin);
    free(p);
}

/* Read one chunk: header, payload (decompressed, CRC checked). *payload malloc'd. */
static int r_chunk(trace_reader_t *r, uint32_t *tag, uint8_t **payload, uint32_t *raw_len, int *z,
                   uint64_t *chunk_off, trace_error_t *err)
{
    uint8_t h[TRACE_CHUNK_HEADER_SIZE];
    *chunk_off = r->pos;
    *payload = NULL;
    if (r->size - r->pos < TRACE_CHUNK_HEADER_SIZE) {
        tr_err(err, r->pos, "truncated file: chunk header needs %u bytes, %" PRIu64 " remain",
               TRACE_CHUNK_HEADER_SIZE, r->size - r->pos);
        return -1;
    }
    if (r_read(r, h, sizeof h)) { tr_err(err, r->pos, "read error in chunk header"); return -1; }
    *tag = rd32(h);
    uint32_t flags = rd32(h + 4), stored = rd32(h + 8), raw = rd32(h + 12), crc = rd32(h + 16);
    for (int i = 0; i < 4; i++) {
        uint8_t ch = h[i];
        if (!((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == ' ' || ch == '_')) {
            tr_err(err, *chunk_off, "bad chunk tag bytes %02x %02x %02x %02x (not a chunk header: corrupt file?)",
                   h[0], h[1], h[2], h[3]);
            return -1;
        }
    }
    char tn[5];
    tr_tagstr(*tag, tn);
    uint32_t allowed = r->minor >= 2 ? (TRACE_CHUNK_CODEC_MASK | TRACE_CHUNK_XFORM_MASK) : 1u;
    unsigned codec = flags & TRACE_CHUNK_CODEC_MASK, xf = (flags & TRACE_CHUNK_XFORM_MASK) >> TRACE_CHUNK_XFORM_SHIFT;
    if ((flags & ~allowed) || ((codec == TRACE_CODEC_ZSTREAM || xf == TRACE_XFORM_TEX_MED) && r->minor < 5) ||
        (xf && !codec)) {
        tr_err(err, *chunk_off + 4, "%s chunk: unknown flags 0x%08" PRIx32 " (format 1.%" PRIu32 ": %s)", tn, flags,
               r->minor, r->minor >= 5 ? "bits 0-1 codec 0..3, bits 2-3 transform 0..3 (only with a codec), others 0"
               : r->minor >= 2 ? "bits 0-1 codec 0..2, bits 2-3 transform 0..2 (only with a codec), "
               "others 0" : "only bit 0, zlib");
        return -1;
    }
    *z = (int)flags;
    if (stored > r->size - r->pos) {
        tr_err(err, *chunk_off + 8, "%s chunk: stored length %" PRIu32 " exceeds the %" PRIu64
               " bytes left in the file (truncated?)", tn, stored, r->size - r->pos);
        return -1;
    }
    if (raw > TRACE_MAX_CHUNK_RAW || (codec == TRACE_CODEC_ZLIB ? raw > tr_max_raw_for(stored)
                                      : codec == TRACE_CODEC_NONE ? raw != stored : raw > tr_max_raw_zstd(stored))) {
        tr_err(err, *chunk_off + 12, "%s chunk: raw length %" PRIu32 " impossible for stored length %" PRIu32
               " (%s)", tn, raw, stored, codec == TRACE_CODEC_NONE ? "uncompressed: must be equal"
               : codec == TRACE_CODEC_ZLIB ? "beyond zlib ratio or the chunk limit" : "beyond zstd ratio or the chunk limit");
        return -1;
    }
    uint8_t *sbuf = malloc(stored ? stored : 1);
    if (!sbuf) { tr_err(err, *chunk_off, "out of memory"); return -1; }
    if (r_read(r, sbuf, stored)) { free(sbuf); tr_err(err, r->pos, "read error in %s payload", tn); return -1; }
    if (!(r->opts & TRACE_OPT_NO_CRC)) {
        uint32_t got = (uint32_t)crc32(0L, sbuf, stored);
        if (got != crc) {
            free(sbuf);
            tr_err(err, *chunk_off + 16, "%s chunk: CRC mismatch (stored %08" PRIx32 ", computed %08" PRIx32
                   "): corrupt payload", tn, crc, got);
            return -1;
        }
    }
    uint8_t *out = sbuf;
    if (codec != TRACE_CODEC_NONE) {
        out = tr_chunk_decode(flags, sbuf, stored, raw, &r->zstd_dctx, &r->zs_dctx, tn, *chunk_off + TRACE_CHUNK_HEADER_SIZE, err);
        free(sbuf);
        if (!out) return -1;
    }
    *payload = out;
    *raw_len = raw;
    return 0;
}

static trace_reader_t *r_open(trace_reader_t *r, trace_error_t *err)
{
    uint8_t h[TRACE_FILE_HEADER_SIZE];
    if (r->size < TRACE_FILE_HEADER_SIZE || r_read(r, h, sizeof h)) {
        tr_err(err, 0, "file too short for the %u-byte header (%" PRIu64 " bytes)", TRACE_FILE_HEADER_SIZE,
               r->size);
        goto fail;
    }
    if (memcmp(h, TRACE_MAGIC, 8)) { tr_err(err, 0, "bad magic: not a GPUpd trace (want \"GPUPDTRC\")"); goto fail; }
    uint16_t maj = (uint16_t)(h[8] | h[9] << 8), min = (uint16_t)(h[10] | h[11] << 8);
    if (maj != TRACE_VERSION_MAJOR) {
        tr_err(err, 8, "unsupported format version %u.%u (this reader: %u.x)", maj, min, TRACE_VERSION_MAJOR);
        goto fail;
    }
    if (rd32(h + 12) != TRACE_FILE_HEADER_SIZE) {
        tr_err(err, 12, "header size %" PRIu32 ", expected %u", rd32(h + 12), TRACE_FILE_HEADER_SIZE);
        goto fail;
    }
    if (rd32(h + 16) != 0) { tr_err(err, 16, "unknown header flags 0x%08" PRIx32, rd32(h + 16)); goto fail; }
    /* offset 20: level | auto codec << 8 (codec byte 0 = zlib, level 0..9; 2 = zstd, level 0..19, 1.2+) */
    uint32_t hz = rd32(h + 20);
    r->zlevel = hz & 0xffu;
    r->codec = (hz >> 8) == 2 ? TRACE_CODEC_ZSTD : TRACE_CODEC_ZLIB;
    r->minor = min;
    if ((hz >> 8) != 0 && !((hz >> 8) == 2 && min >= 2)) {
        tr_err(err, 20, "unknown compression codec %" PRIu32 " in the header (format 1.%u: %s)", hz >> 8, min,
               min >= 2 ? "0 zlib or 2 zstd" : "0 zlib only");
        goto fail;
    }
    if (r->zlevel > (r->codec == TRACE_CODEC_ZSTD ? TRACE_ZSTD_MAX_LEVEL : 9u)) {
        tr_err(err, 20, "%s level %" PRIu32 " > %u", r->codec == TRACE_CODEC_ZSTD ? "zstd" : "zlib", r->zlevel,
               r->codec == TRACE_CODEC_ZSTD ? TRACE_ZSTD_MAX_LEVEL : 9u);
        goto fail;
    }
    if (rd32(h + 24) != (uint32_t)crc32(0L, h, 24)) {
        tr_err(err, 24, "header CRC mismatch (stored %08" PRIx32 ", computed %08" PRIx32 "): corrupt header",
               rd32(h + 24), (uint32_t)crc32(0L, h, 24));
        goto fail;
    }
    if (rd32(h + 28)) { tr_err(err, 28, "reserved header bytes not zero"); goto fail; }
    uint32_t tag, raw;
    uint8_t *pl;
    int z;
    uint64_t coff;
    if (r_chunk(r, &tag, &pl, &raw, &z, &coff, err)) goto fail;
    if (tag != trace_fourcc("INFO")) {
        free(pl);
        tr_err(err, coff, "first chunk must be INFO");
        goto fail;
    }
    tr_cur_t c = {pl, raw, 0, coff + TRACE_CHUNK_HEADER_SIZE, coff, z, "INFO", err, 0, 0};
    int rc = tr_dec_info(&c, &r->info);
    free(pl);
    if (rc) goto fail;
    r->v = tr_validator_new(&r->info);
    if (!r->v) { tr_err(err, coff, "out of memory"); goto fail; }
    return r;
fail:
    trace_reader_close(r);
    return NULL;
}

trace_reader_t *trace_reader_open_mem(const void *buf, size_t len, unsigned opts, trace_error_t *err)
{
    trace_reader_t *r = calloc(1, sizeof *r);
    if (!r) { tr_err(err, 0, "out of memory"); return NULL; }
    r->mem = buf;
    r->size = len;
    r->opts = opts;
    return r_open(r, err);
}

trace_reader_t *trace_reader_open_file(const char *path, unsigned opts, trace_error_t *err)
{
    struct stat st;
    FILE *f = inf_open_regular(path, &st);   /* a FIFO is refused, not waited on */
    if (!f && st.st_mode == 0) { tr_err(err, 0, "cannot open %s: %s", path, strerror(errno)); return NULL; }
    if (!f) {
        tr_err(err, 0, "%s is not a regular file%s", path, S_ISDIR(st.st_mode) ? " (it is a directory)" : "");
        return NULL;
    }
    trace_reader_t *r = calloc(1, sizeof *r);
    if (!r) { fclose(f); tr_err(err, 0, "out of memory"); return NULL; }
    r->f = f;
    r->size = (uint64_t)st.st_size;
    r->opts = opts;
    return r_open(r, err);
}

const trace_info_t *trace_reader_info(const trace_reader_t *r) { return &r->info; }
uint32_t trace_reader_zlevel(const trace_reader_t *r) { return r->zlevel; }
uint32_t trace_reader_minor(const trace_reader_t *r) { return r->minor; }
uint32_t trace_reader_codec(const trace_reader_t *r) { return r->codec; }

const trace_surface_t *trace_reader_surface(const trace_reader_t *r, uint32_t id)
{
    return id < r->n_surf ? r->surf[id] : NULL;
}
const trace_program_t *trace_reader_program(const trace_reader_t *r, uint32_t id)
{
    return id < r->n_prog ? r->prog[id] : NULL;
}

static char *xstrdup(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    char *d = malloc(n + 1);
    if (d) { if (n) memcpy(d, s, n); d[n] = 0; }
    return d;
}

static int keep_copy(trace_reader_t *r, const trace_cmd_t *cmd)
{
    if (cmd->type == TRACE_CMD_SURFACE) {
        const trace_surface_t *s = &cmd->u.surface;
        trace_surface_t *k = calloc(1, sizeof *k);
        if (!k) return -1;
        *k = *s;
        /* metadata only: the reader never keeps texel data (one chunk in memory at a time) */
        k->data = NULL;
        k->data_len = 0;
        k->label = xstrdup(s->label);
        if (!k->label) { free_surface(k); return -1; }
        if (tr_grow((void **)&r->surf, &r->n_surf, s->id, sizeof *r->surf)) { free_surface(k); return -1; }
        free_surface(r->surf[s->id]);
        r->surf[s->id] = k;
    } else if (cmd->type == TRACE_CMD_PROGRAM) {
        const trace_program_t *p = &cmd->u.program;
        trace_program_t *k = calloc(1, sizeof *k);
        if (!k) return -1;
        *k = *p;
        k->words = malloc((size_t)p->n_words * 4 + 4);
        k->name = xstrdup(p->name);
        k->origin = xstrdup(p->origin);
        if (!k->words || !k->name || !k->origin) { free_program(k); return -1; }
        if (p->n_words) memcpy(k->words, p->words, (size_t)p->n_words * 4);
        if (tr_grow((void **)&r->prog, &r->n_prog, p->id, sizeof *r->prog)) { free_program(k); return -1; }
        free_program(r->prog[p->id]);
        r->prog[p->id] = k;
    }
    return 0;
}

int trace_reader_next(trace_reader_t *r, trace_cmd_t *cmd, trace_error_t *err)
{
    trace_cmd_free(cmd);
    if (r->failed) { if (err) *err = r->last_err; return -1; }
    if (r->done) return 0;
    trace_error_t e = {0, ""};
    uint32_t tag, raw;
    uint8_t *pl;
    int z;
    uint64_t coff;
    if (r_chunk(r, &tag, &pl, &raw, &z, &coff, &e)) goto fail;
    char tn[5];
    tr_tagstr(tag, tn);
    tr_cur_t c = {pl, raw, 0, coff + TRACE_CHUNK_HEADER_SIZE, coff, z, tn, &e, 0, r->minor};
    if (tag == trace_fourcc("INFO")) { free(pl); tr_err(&e, coff, "second INFO chunk"); goto fail; }
    if (tag == trace_fourcc("TEND")) {
        uint32_t nf = tr_cur_u32(&c, "n_frames"), nd = tr_cur_u32(&c, "n_draws"), nc = tr_cur_u32(&c, "n_clears");
        if (!c.failed && tr_cur_left(&c)) tr_cur_fail(&c, "%zu unexpected trailing bytes", tr_cur_left(&c));
        free(pl);
        if (c.failed) goto fail;
        if (r->v->in_frame) { tr_err(&e, coff, "TEND inside frame %" PRIu32 " (missing FRME)", r->v->frames); goto fail; }
        if (nf != r->v->frames || nd != r->v->draws || nc != r->v->clears || nf != r->info.n_frames) {
            tr_err(&e, coff, "TEND totals frames/draws/clears %" PRIu32 "/%" PRIu32 "/%" PRIu32 " but the stream has %"
                   PRIu32 "/%" PRIu32 "/%" PRIu32 " (INFO declares %" PRIu32 " frames)", nf, nd, nc, r->v->frames,
                   r->v->draws, r->v->clears, r->info.n_frames);
            goto fail;
        }
        if (r->pos != r->size) {
            tr_err(&e, r->pos, "%" PRIu64 " bytes of garbage after TEND", r->size - r->pos);
            goto fail;
        }
        r->done = 1;
        return 0;
    }
    int rc = tr_dec_cmd(&c, tag, cmd);
    free(pl);
    if (rc) goto fail;
    cmd->offset = coff;
    cmd->zflag = z;
    if (tr_validate(r->v, cmd, coff, &e)) { trace_cmd_free(cmd); goto fail; }
    if (keep_copy(r, cmd)) { trace_cmd_free(cmd); tr_err(&e, coff, "out of memory"); goto fail; }
    return 1;
fail:
    r->failed = 1;
    r->last_err = e;
    if (err) *err = e;
    return -1;
}

void trace_reader_close(trace_reader_t *r)
{
    if (!r) return;
    if (r->f) fclose(r->f);
    for (uint32_t i = 0; i < r->n_surf; i++) free_surface(r->surf[i]);
    for (uint32_t i = 0; i < r->n_prog; i++) free_program(r->prog[i]);
    free(r->surf);
    free(r->prog);
    tr_validator_free(r->v);
    trace_info_free(&r->info);
    ZSTD_freeDCtx(r->zstd_dctx);
    ZSTD_freeDCtx(r->zs_dctx);
    free(r);
}

/* ---- summary ---- */
int trace_summarize(trace_reader_t *r, trace_summary_t *s, trace_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->width = r->info.width;
    s->height = r->info.height;
    trace_cmd_t cmd = {0};
    uint32_t prev_rt[TRACE_MAX_COLOR_RT + 2] = {0}, prev_n = 0, frame_draws = 0;
    int have_prev = 0, rc;
    /* per surface id: bit 0 written since its last synchronisation (or definition), bit 1 ever synchronised */
    uint8_t *st = NULL;
    uint32_t n_st = 0;
    while ((rc = trace_reader_next(r, &cmd, err)) == 1) {
        uint32_t rt[TRACE_MAX_COLOR_RT + 2], n = 0;
        if (cmd.type == TRACE_CMD_SURFACE && cmd.u.surface.id >= n_st) {
            uint32_t m = cmd.u.surface.id + 1 > 2 * n_st ? cmd.u.surface.id + 1 : 2 * n_st;
            uint8_t *p = realloc(st, m);
            if (!p) { rc = -1; if (err) { err->offset = cmd.offset; snprintf(err->msg, sizeof err->msg, "out of memory"); } break; }
            memset(p + n_st, 0, m - n_st);
            st = p;
            n_st = m;
        }
        switch (cmd.type) {
        case TRACE_CMD_SURFACE: s->surfaces++; st[cmd.u.surface.id] &= (uint8_t)~1u; break;
        case TRACE_CMD_PROGRAM: s->programs++; break;
        case TRACE_CMD_FRAME_BEGIN: frame_draws = 0; have_prev = 0; break;
        case TRACE_CMD_FRAME_END:
            s->frames++;
            if (frame_draws > s->max_draws_per_frame) s->max_draws_per_frame = frame_draws;
            break;
        case TRACE_CMD_CLEAR:
        case TRACE_CMD_DRAW: {
            const uint32_t *col = cmd.type == TRACE_CMD_DRAW ? cmd.u.draw.color : cmd.u.clear.color;
            uint32_t nc = cmd.type == TRACE_CMD_DRAW ? cmd.u.draw.n_color : cmd.u.clear.n_color;
            for (uint32_t i = 0; i < nc; i++) rt[n++] = col[i];
            rt[n++] = cmd.type == TRACE_CMD_DRAW ? cmd.u.draw.depth : cmd.u.clear.depth;
            if (have_prev && (n != prev_n || memcmp(rt, prev_rt, n * 4))) s->rt_switches++;
            memcpy(prev_rt, rt, n * 4);
            prev_n = n;
            have_prev = 1;
            if (cmd.type == TRACE_CMD_DRAW)   /* a draw's samplers are synchronised before it writes */
                for (uint32_t i = 0; i < cmd.u.draw.n_tex; i++) {
                    uint32_t id = cmd.u.draw.tex[i].surface;
                    if (id >= n_st || !(st[id] & 1)) continue;
                    const trace_surface_t *ts = trace_reader_surface(r, id);
                    s->syncs++;
                    s->sync_surfaces += !(st[id] & 2);
                    if (ts) s->sync_bytes += (uint64_t)ts->width * ts->height * trace_format_bytes(ts->format);
                    st[id] = 2;
                }
            for (uint32_t i = 0; i < n; i++)
                if (rt[i] < n_st) st[rt[i]] |= 1;
            if (cmd.type == TRACE_CMD_CLEAR) { s->clears++; break; }
            const trace_draw_t *d = &cmd.u.draw;
            s->draws++;
            frame_draws++;
            s->prims += trace_draw_prims(d);
            s->verts += d->n_verts;
            s->indices += d->n_indices;
            s->raw_deps += d->n_deps;
            s->raw_dep_draws += d->n_deps > 0;
            s->approx_draws += d->flags != 0;
            if (d->ref_pixels >= 0) s->ref_pixels += d->ref_pixels;
            break;
        }
        default: break;
        }
    }
    free(st);
    trace_cmd_free(&cmd);
    return rc < 0 ? -1 : 0;
}
