/* Lossless text dump of a GPUpd trace and its inverse (docs/trace-format.md, "Text dump").
 *
 * Dump and undump share one visitor per command (tx_* field functions that either print or parse), so
 * every field written is read back in the same order: binary -> text -> binary is byte-identical. */
#include "trace/trace.h"
#include "trace/trace_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TX_MAGIC "GPUPD-TRACE-TEXT"
#define TX_MAXTOK (TRACE_MAX_STR * 4 + 8)

typedef struct {
    FILE *f;
    int reading;
    int failed;
    trace_error_t *err;
    /* reader */
    uint64_t pos, line, tok_pos, tok_line, size;
    char *tok;
    size_t tok_len;
    int tok_quoted;
    int peeked;
    uint32_t minor;      /* format minor version of the dump (1.2: DRAW line_width/point_size/prim_flags; 1.4: state_flags) */
} tx_t;

static void tx_fail(tx_t *t, const char *fmt, const char *a, const char *b)
{
    if (t->failed) return;
    t->failed = 1;
    char m[220];
    snprintf(m, sizeof m, fmt, a ? a : "", b ? b : "");
    tr_err(t->err, t->tok_pos, "text line %" PRIu64 ": %s", t->tok_line, m);
}

/* ---------------------------------------------------------------- tokenizer */
static int tx_getc(tx_t *t)
{
    int c = fgetc(t->f);
    if (c != EOF) {
        t->pos++;
        if (c == '\n') t->line++;
    }
    return c;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Next token into t->tok. Returns 0, or -1 at EOF/error (t->failed set on error). */
static int tx_next(tx_t *t)
{
    if (t->failed) return -1;
    if (t->peeked) { t->peeked = 0; return 0; }
    int c;
    for (;;) {
        c = tx_getc(t);
        if (c == '%') { while (c != '\n' && c != EOF) c = tx_getc(t); }   /* comment to end of line */
        if (c == EOF) { t->tok_len = 0; t->tok[0] = 0; return -1; }
        if (!isspace(c)) break;
    }
    t->tok_pos = t->pos - 1;
    t->tok_line = t->line + 1;
    t->tok_len = 0;
    t->tok_quoted = 0;
    if (c == '"') {
        t->tok_quoted = 1;
        for (;;) {
            c = tx_getc(t);
            if (c == EOF || c == '\n') { tx_fail(t, "unterminated string%s%s", NULL, NULL); return -1; }
            if (c == '"') break;
            if (c == '\\') {
                c = tx_getc(t);
                if (c == 'n') c = '\n';
                else if (c == 't') c = '\t';
                else if (c == 'x') {
                    int h = hexval(tx_getc(t)), l = hexval(tx_getc(t));
                    if (h < 0 || l < 0) { tx_fail(t, "bad \\x escape in string%s%s", NULL, NULL); return -1; }
                    c = h * 16 + l;
                } else if (c != '\\' && c != '"') { tx_fail(t, "bad escape in string%s%s", NULL, NULL); return -1; }
                if (c == 0) { tx_fail(t, "NUL byte in string%s%s", NULL, NULL); return -1; }
            }
            if (t->tok_len >= TX_MAXTOK - 1) { tx_fail(t, "string too long%s%s", NULL, NULL); return -1; }
            t->tok[t->tok_len++] = (char)c;
        }
    } else {
        while (c != EOF && !isspace(c)) {
            if (t->tok_len >= TX_MAXTOK - 1) { tx_fail(t, "token too long%s%s", NULL, NULL); return -1; }
            t->tok[t->tok_len++] = (char)c;
            c = tx_getc(t);
        }
        if (c == '\n') { t->line--; ungetc(c, t->f); t->pos--; }
    }
    t->tok[t->tok_len] = 0;
    return 0;
}

static int tx_expect(tx_t *t, const char *label)
{
    while (*label == ' ') label++;
    if (tx_next(t)) { if (!t->failed) { t->tok_line = t->line + 1; tx_fail(t, "unexpected end of text, expected \"%s\"%s", label, NULL); } return -1; }
    if (t->tok_quoted || strcmp(t->tok, label)) { tx_fail(t, "expected \"%s\", found \"%.60s\"", label, t->tok); return -1; }
    return 0;
}

static int tx_value(tx_t *t, const char *label)
{
    if (tx_next(t)) { if (!t->failed) tx_fail(t, "unexpected end of text reading %s%s", label, NULL); return -1; }
    return 0;
}

/* ---------------------------------------------------------------- field visitors */
static void tx_nl(tx_t *t) { if (!t->reading && !t->failed) fputc('\n', t->f); }
static void tx_word(tx_t *t, const char *w)
{
    if (t->failed) return;
    if (t->reading) tx_expect(t, w);
    else fprintf(t->f, "%s", w);
}

static int parse_u64(const char *s, uint64_t *v)
{
    if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s)) return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end) return -1;
    *v = x;
    return 0;
}

static void tx_u32(tx_t *t, const char *label, uint32_t *v)
{
    if (t->failed) return;
    if (!t->reading) {
        if (label) fprintf(t->f, " %s", label);
        if (*v == TRACE_NONE) fprintf(t->f, " none");
        else fprintf(t->f, " %" PRIu32, *v);
        return;
    }
    if (label && tx_expect(t, label)) return;
    if (tx_value(t, label ? label : "number")) return;
    uint64_t x;
    if (!strcmp(t->tok, "none")) { *v = TRACE_NONE; return; }
    if (t->tok_quoted || parse_u64(t->tok, &x) || x > UINT32_MAX)
        tx_fail(t, "bad unsigned number \"%.40s\" for %s", t->tok, label ? label : "value");
    else *v = (uint32_t)x;
}

static void tx_i64(tx_t *t, const char *label, int64_t *v)
{
    if (t->failed) return;
    if (!t->reading) { fprintf(t->f, " %s %" PRId64, label, *v); return; }
    if (tx_expect(t, label) || tx_value(t, label)) return;
    char *end;
    errno = 0;
    long long x = strtoll(t->tok, &end, 10);
    if (t->tok_quoted || errno || *end || !t->tok_len) tx_fail(t, "bad number \"%.40s\" for %s", t->tok, label);
    else *v = x;
}

static void tx_i32(tx_t *t, const char *label, int32_t *v)
{
    int64_t x = *v;
    tx_i64(t, label, &x);
    if (t->reading && !t->failed) {
        if (x < INT32_MIN || x > INT32_MAX) tx_fail(t, "%s out of int32 range%s", label, NULL);
        else *v = (int32_t)x;
    }
}

static void tx_f32(tx_t *t, const char *label, float *v)
{
    if (t->failed) return;
    if (!t->reading) {
        if (label) fprintf(t->f, " %s", label);
        if (isfinite(*v)) fprintf(t->f, " %.9g", (double)*v);
        else { uint32_t u; memcpy(&u, v, 4); fprintf(t->f, " #%08" PRIx32, u); }
        return;
    }
    if (label && tx_expect(t, label)) return;
    if (tx_value(t, label ? label : "float")) return;
    if (t->tok[0] == '#') {
        uint64_t u;
        char buf[24];
        snprintf(buf, sizeof buf, "0x%s", t->tok + 1);
        if (t->tok_len != 9 || parse_u64(buf, &u)) { tx_fail(t, "bad float bits \"%.40s\"%s", t->tok, NULL); return; }
        uint32_t w = (uint32_t)u;
        memcpy(v, &w, 4);
        return;
    }
    char *end;
    errno = 0;
    float f = strtof(t->tok, &end);
    if (t->tok_quoted || *end || !t->tok_len || !isfinite(f)) tx_fail(t, "bad float \"%.40s\"%s", t->tok, NULL);
    else *v = f;
}

static void tx_str(tx_t *t, const char *label, char **s)
{
    if (t->failed) return;
    if (!t->reading) {
        fprintf(t->f, " %s \"", label);
        for (const unsigned char *p = (const unsigned char *)(*s ? *s : ""); *p; p++) {
            if (*p == '"' || *p == '\\') fprintf(t->f, "\\%c", *p);
            else if (*p == '\n') fputs("\\n", t->f);
            else if (*p < 32 || *p >= 127) fprintf(t->f, "\\x%02x", *p);
            else fputc(*p, t->f);
        }
        fputc('"', t->f);
        return;
    }
    if (tx_expect(t, label) || tx_value(t, label)) return;
    if (!t->tok_quoted) { tx_fail(t, "%s must be a quoted string%s", label, NULL); return; }
    if (t->tok_len > TRACE_MAX_STR) { tx_fail(t, "%s longer than the format allows%s", label, NULL); return; }
    free(*s);
    *s = malloc(t->tok_len + 1);
    if (!*s) { tx_fail(t, "out of memory%s%s", NULL, NULL); return; }
    memcpy(*s, t->tok, t->tok_len + 1);
}

/* A count that sizes an array to be read: capped by what the rest of the text could possibly hold. */
static void tx_count(tx_t *t, const char *label, uint32_t *n, uint64_t min_chars_each)
{
    tx_u32(t, label, n);
    if (t->reading && !t->failed && (uint64_t)*n * min_chars_each > t->size - t->pos + 1)
        tx_fail(t, "%s larger than the rest of the text can hold%s", label, NULL);
}

static void *tx_alloc(tx_t *t, size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p) tx_fail(t, "out of memory%s%s", NULL, NULL);
    return p;
}

static void tx_hex(tx_t *t, uint8_t *data, uint32_t n)
{
    const uint32_t per = 64;
    for (uint32_t i = 0; i < n && !t->failed; i += per) {
        uint32_t m = n - i < per ? n - i : per;
        if (!t->reading) {
            fputs("  x ", t->f);
            for (uint32_t j = 0; j < m; j++) fprintf(t->f, "%02x", data[i + j]);
            fputc('\n', t->f);
            continue;
        }
        if (tx_expect(t, "x") || tx_value(t, "hex data")) return;
        if (t->tok_len != 2 * (size_t)m) { tx_fail(t, "hex line has wrong length \"%.20s...\"%s", t->tok, NULL); return; }
        for (uint32_t j = 0; j < m; j++) {
            int h = hexval(t->tok[2 * j]), l = hexval(t->tok[2 * j + 1]);
            if (h < 0 || l < 0) { tx_fail(t, "bad hex digit in \"%.20s...\"%s", t->tok, NULL); return; }
            data[i + j] = (uint8_t)(h * 16 + l);
        }
    }
}

static void tx_state(tx_t *t, trace_state_t *s)
{
    tx_word(t, "  viewport");
    tx_i32(t, "x", &s->vp_x); tx_i32(t, "y", &s->vp_y); tx_u32(t, "w", &s->vp_w); tx_u32(t, "h", &s->vp_h);
    tx_f32(t, "near", &s->depth_near); tx_f32(t, "far", &s->depth_far); tx_nl(t);
    tx_word(t, "  scissor");
    tx_u32(t, "en", &s->scissor_en); tx_i32(t, "x", &s->sc_x); tx_i32(t, "y", &s->sc_y);
    tx_u32(t, "w", &s->sc_w); tx_u32(t, "h", &s->sc_h);
    tx_u32(t, "cull", &s->cull); tx_u32(t, "front_ccw", &s->front_ccw); tx_nl(t);
    tx_word(t, "  depth");
    tx_u32(t, "test", &s->depth_test); tx_u32(t, "func", &s->depth_func); tx_u32(t, "write", &s->depth_write);
    tx_u32(t, "color_mask", &s->color_mask); tx_nl(t);
    tx_word(t, "  blend");
    tx_u32(t, "en", &s->blend_en); tx_u32(t, "src_rgb", &s->src_rgb); tx_u32(t, "dst_rgb", &s->dst_rgb);
    tx_u32(t, "src_a", &s->src_a); tx_u32(t, "dst_a", &s->dst_a); tx_u32(t, "eq_rgb", &s->eq_rgb);
    tx_u32(t, "eq_a", &s->eq_a);
    tx_f32(t, "color", &s->blend_color[0]);
    for (int i = 1; i < 4; i++) tx_f32(t, NULL, &s->blend_color[i]);
    tx_nl(t);
    tx_word(t, "  alpha");
    tx_u32(t, "test", &s->alpha_test); tx_u32(t, "func", &s->alpha_func); tx_f32(t, "ref", &s->alpha_ref);
    tx_word(t, " polygon_offset");
    tx_u32(t, "en", &s->poly_offset_en); tx_f32(t, "factor", &s->poly_factor); tx_f32(t, "units", &s->poly_units);
    tx_nl(t);
}

static void tx_floats(tx_t *t, const char *rowlabel, float *f, size_t n, size_t per_row)
{
    for (size_t i = 0; i < n && !t->failed; i += per_row) {
        tx_word(t, rowlabel);
        for (size_t j = i; j < i + per_row && j < n; j++) tx_f32(t, NULL, &f[j]);
        tx_nl(t);
    }
}

static void tx_u32s(tx_t *t, const char *rowlabel, uint32_t *v, size_t n, size_t per_row)
{
    for (size_t i = 0; i < n && !t->failed; i += per_row) {
        tx_word(t, rowlabel);
        for (size_t j = i; j < i + per_row && j < n; j++) tx_u32(t, NULL, &v[j]);
        tx_nl(t);
    }
}

static void tx_draw(tx_t *t, trace_draw_t *d)
{
    tx_u32(t, "index", &d->index); tx_u32(t, "call", &d->src_call); tx_u32(t, "prim", &d->prim);
    tx_u32(t, "flags", &d->flags); tx_i64(t, "ref_pixels", &d->ref_pixels);
    if (t->minor >= 2) {
        tx_f32(t, "line_width", &d->line_width); tx_f32(t, "point_size", &d->point_size);
        tx_u32(t, "prim_flags", &d->prim_flags);
    }
    if (t->minor >= 4) tx_u32(t, "state_flags", &d->state_flags);
    tx_nl(t);
    tx_word(t, "  attribs");
    tx_u32(t, NULL, &d->n_attribs);
    if (t->reading && !t->failed && (d->n_attribs == 0 || d->n_attribs > TRACE_MAX_ATTRIBS))
        tx_fail(t, "attribs count out of range 1..16%s%s", NULL, NULL);
    d->stride = 0;
    for (uint32_t i = 0; i < d->n_attribs && !t->failed; i++) {
        tx_u32(t, "sem", &d->attribs[i].semantic);
        tx_u32(t, "comps", &d->attribs[i].comps);
        if (t->reading && d->attribs[i].comps > 4) tx_fail(t, "attribute comps > 4%s%s", NULL, NULL);
        d->stride += d->attribs[i].comps;
    }
    tx_nl(t);
    tx_count(t, "  verts", &d->n_verts, 2 * (uint64_t)(d->stride ? d->stride : 1));
    tx_nl(t);
    if (t->reading && !t->failed) d->verts = tx_alloc(t, (size_t)d->n_verts * d->stride * sizeof(float));
    for (uint32_t i = 0; i < d->n_verts && !t->failed; i++) tx_floats(t, "  v", d->verts + (size_t)i * d->stride, d->stride, d->stride);
    tx_count(t, "  indices", &d->n_indices, 2);
    tx_nl(t);
    if (t->reading && !t->failed) d->indices = tx_alloc(t, (size_t)d->n_indices * 4);
    if (!t->failed) tx_u32s(t, "  i", d->indices, d->n_indices, 24);
    tx_word(t, "  programs"); tx_u32(t, "vs", &d->vs_prog); tx_u32(t, "fs", &d->fs_prog);
    tx_word(t, " cost");
    tx_u32(t, "vs_instr", &d->cost.vs_instr); tx_u32(t, "vs_tex", &d->cost.vs_tex);
    tx_u32(t, "fs_instr", &d->cost.fs_instr); tx_u32(t, "fs_tex", &d->cost.fs_tex); tx_nl(t);
    tx_count(t, "  vs_consts", &d->n_vs_consts, 8);
    tx_nl(t);
    if (t->reading && !t->failed) d->vs_consts = tx_alloc(t, (size_t)d->n_vs_consts * 16);
    if (!t->failed) tx_floats(t, "  c", d->vs_consts, 4 * (size_t)d->n_vs_consts, 4);
    tx_count(t, "  fs_consts", &d->n_fs_consts, 8);
    tx_nl(t);
    if (t->reading && !t->failed) d->fs_consts = tx_alloc(t, (size_t)d->n_fs_consts * 16);
    if (!t->failed) tx_floats(t, "  c", d->fs_consts, 4 * (size_t)d->n_fs_consts, 4);
    tx_state(t, &d->state);
    tx_word(t, "  targets");
    tx_u32(t, "color", &d->n_color);
    if (t->reading && d->n_color > TRACE_MAX_COLOR_RT) tx_fail(t, "too many colour targets%s%s", NULL, NULL);
    for (uint32_t i = 0; i < d->n_color && !t->failed; i++) tx_u32(t, NULL, &d->color[i]);
    tx_u32(t, "depth", &d->depth); tx_nl(t);
    tx_word(t, "  textures");
    tx_u32(t, NULL, &d->n_tex);
    if (t->reading && d->n_tex > TRACE_MAX_TEX) tx_fail(t, "too many textures%s%s", NULL, NULL);
    tx_nl(t);
    for (uint32_t i = 0; i < d->n_tex && !t->failed; i++) {
        trace_texbind_t *b = &d->tex[i];
        tx_word(t, "   tex");
        tx_u32(t, "unit", &b->unit); tx_u32(t, "surface", &b->surface); tx_u32(t, "min", &b->min_filter);
        tx_u32(t, "mag", &b->mag_filter); tx_u32(t, "wrap_s", &b->wrap_s); tx_u32(t, "wrap_t", &b->wrap_t);
        tx_nl(t);
    }
    tx_word(t, "  deps");
    tx_u32(t, NULL, &d->n_deps);
    if (t->reading && d->n_deps > TRACE_MAX_TEX) tx_fail(t, "too many deps%s%s", NULL, NULL);
    for (uint32_t i = 0; i < d->n_deps && !t->failed; i++) tx_u32(t, NULL, &d->deps[i]);
    tx_nl(t);
}

static void tx_clear(tx_t *t, trace_clear_t *k)
{
    tx_u32(t, "call", &k->src_call);
    tx_u32(t, "color", &k->n_color);
    if (t->reading && k->n_color > TRACE_MAX_COLOR_RT) tx_fail(t, "too many colour targets%s%s", NULL, NULL);
    for (uint32_t i = 0; i < k->n_color && !t->failed; i++) tx_u32(t, NULL, &k->color[i]);
    tx_u32(t, "depth", &k->depth); tx_u32(t, "mask", &k->mask); tx_nl(t);
    tx_f32(t, "  value", &k->color_value[0]);
    for (int i = 1; i < 4; i++) tx_f32(t, NULL, &k->color_value[i]);
    tx_f32(t, "depth_value", &k->depth_value); tx_u32(t, "stencil", &k->stencil_value); tx_nl(t);
    tx_u32(t, "  scissor", &k->scissor_en); tx_i32(t, "x", &k->sc_x); tx_i32(t, "y", &k->sc_y);
    tx_u32(t, "w", &k->sc_w); tx_u32(t, "h", &k->sc_h); tx_u32(t, "color_mask", &k->color_mask);
    tx_u32(t, "depth_write", &k->depth_write); tx_nl(t);
}

static void tx_cmd_body(tx_t *t, trace_cmd_t *c)
{
    if (!t->reading) fprintf(t->f, " z %d", c->zflag < 0 ? 1 : c->zflag);
    else if (!tx_expect(t, "z") && !tx_value(t, "z")) {
        /* the chunk flags: 0 raw, 1 zlib, (1.2) 2 zstd, plus 4 x the byte transform (docs/trace-format.md);
         * "auto": the writer decides (for generated text, e.g. the converter). The writer checks the value. */
        uint64_t x;
        if (!strcmp(t->tok, "auto")) c->zflag = -1;
        else if (!t->tok_quoted && !parse_u64(t->tok, &x) && x <= 15) c->zflag = (int)x;
        else tx_fail(t, "z must be the chunk flags 0..11 or auto, found \"%.20s\"%s", t->tok, NULL);
    }
    switch (c->type) {
    case TRACE_CMD_SURFACE: {
        trace_surface_t *s = &c->u.surface;
        tx_u32(t, "id", &s->id); tx_u32(t, "kind", &s->kind); tx_u32(t, "format", &s->format);
        tx_u32(t, "w", &s->width); tx_u32(t, "h", &s->height); tx_u32(t, "flags", &s->flags);
        tx_str(t, "label", &s->label); tx_nl(t);
        tx_count(t, "  data", &s->data_len, 2);
        tx_nl(t);
        if (t->reading && !t->failed) s->data = tx_alloc(t, s->data_len);
        if (!t->failed) tx_hex(t, s->data, s->data_len);
        break;
    }
    case TRACE_CMD_PROGRAM: {
        trace_program_t *p = &c->u.program;
        tx_u32(t, "id", &p->id); tx_u32(t, "stage", &p->stage); tx_str(t, "name", &p->name); tx_nl(t);
        tx_str(t, "  origin", &p->origin); tx_nl(t);
        tx_count(t, "  words", &p->n_words, 2);
        tx_nl(t);
        if (t->reading && !t->failed) p->words = tx_alloc(t, (size_t)p->n_words * 4);
        for (uint32_t i = 0; i < p->n_words && !t->failed; i += 8) {
            tx_word(t, "  w");
            for (uint32_t j = i; j < i + 8 && j < p->n_words; j++) {
                if (!t->reading) fprintf(t->f, " 0x%08" PRIx32, p->words[j]);
                else tx_u32(t, NULL, &p->words[j]);
            }
            tx_nl(t);
        }
        break;
    }
    case TRACE_CMD_FRAME_BEGIN:
    case TRACE_CMD_FRAME_END:
        tx_u32(t, "index", &c->u.frame.index); tx_u32(t, "src_frame", &c->u.frame.src_frame); tx_nl(t);
        break;
    case TRACE_CMD_CLEAR: tx_clear(t, &c->u.clear); break;
    case TRACE_CMD_DRAW: tx_draw(t, &c->u.draw); break;
    case TRACE_CMD_UNKNOWN: {
        trace_unknown_t *u = &c->u.unknown;
        tx_u32(t, "tag", &u->tag);
        tx_count(t, "len", &u->len, 2);
        tx_nl(t);
        if (t->reading && !t->failed) u->data = tx_alloc(t, u->len);
        if (!t->failed) tx_hex(t, u->data, u->len);
        break;
    }
    default: break;
    }
}

static const char *cmd_keyword(trace_cmd_type_t ty) { return ty == TRACE_CMD_UNKNOWN ? "CHUNK" : trace_cmd_name(ty); }

static void tx_info(tx_t *t, trace_info_t *info, uint32_t *zlevel, uint32_t *minor, uint32_t *codec)
{
    tx_word(t, TX_MAGIC);
    uint32_t maj = TRACE_VERSION_MAJOR, min = *minor;
    tx_u32(t, "version", &maj); tx_u32(t, NULL, &min);
    if (t->reading && !t->failed && (maj != TRACE_VERSION_MAJOR || min > TRACE_VERSION_MINOR))
        tx_fail(t, "unsupported text version%s%s", NULL, NULL);
    *minor = min;
    t->minor = min;
    tx_u32(t, "zlevel", zlevel);
    /* format 1.2: the codec of auto chunks, "codec zlib|zstd" (optional when reading: zlib) */
    if (!t->reading && *minor >= 2) fprintf(t->f, " codec %s", *codec == TRACE_CODEC_ZSTD ? "zstd" : "zlib");
    else if (t->reading && !t->failed && min >= 2) {
        if (tx_next(t) == 0) {
            if (!t->tok_quoted && !strcmp(t->tok, "codec")) {
                if (!tx_value(t, "codec")) {
                    if (!strcmp(t->tok, "zstd")) *codec = TRACE_CODEC_ZSTD;
                    else if (!strcmp(t->tok, "zlib")) *codec = TRACE_CODEC_ZLIB;
                    else tx_fail(t, "codec must be zlib or zstd, found \"%.20s\"%s", t->tok, NULL);
                }
            } else t->peeked = 1;
        }
    }
    tx_nl(t);
    tx_word(t, "INFO");
    tx_u32(t, "w", &info->width); tx_u32(t, "h", &info->height); tx_u32(t, "frames", &info->n_frames); tx_nl(t);
    tx_str(t, "  name", &info->name); tx_nl(t);
    tx_str(t, "  source", &info->source); tx_nl(t);
    tx_str(t, "  notes", &info->notes); tx_nl(t);
}

int trace_dump_text(trace_reader_t *r, FILE *out, trace_error_t *err)
{
    tx_t t = {.f = out, .reading = 0, .err = err};
    trace_info_t info = *trace_reader_info(r);
    uint32_t zl = trace_reader_zlevel(r), minor = trace_reader_minor(r), codec = trace_reader_codec(r);
    tx_info(&t, &info, &zl, &minor, &codec);
    trace_cmd_t cmd = {0};
    int rc;
    while ((rc = trace_reader_next(r, &cmd, err)) == 1) {
        fprintf(out, "%s", cmd_keyword(cmd.type));
        tx_cmd_body(&t, &cmd);
    }
    trace_cmd_free(&cmd);
    if (rc < 0) return -1;
    fprintf(out, "END\n");
    if (ferror(out)) { tr_err(err, 0, "write error on text output"); return -1; }
    return 0;
}

int trace_undump_text(FILE *in, const char *out_path, trace_error_t *err)
{
    tx_t t = {.f = in, .reading = 1, .err = err};
    struct stat st;
    FILE *spool = NULL;
    int fd = fileno(in);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        /* A pipe or memory stream: spool it to a temporary file first, so that the size of the input is
         * known and every count can be capped by what the rest of the input can hold. */
        spool = tmpfile();
        if (!spool) { tr_err(err, 0, "cannot create a temporary file for the text input"); return -1; }
        char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0)
            if (fwrite(buf, 1, n, spool) != n) { fclose(spool); tr_err(err, 0, "write error spooling input"); return -1; }
        rewind(spool);
        t.f = spool;
        if (fstat(fileno(spool), &st) != 0) { fclose(spool); tr_err(err, 0, "cannot stat spooled input"); return -1; }
    }
    t.size = (uint64_t)st.st_size;
    t.tok = malloc(TX_MAXTOK);
    if (!t.tok) { if (spool) fclose(spool); tr_err(err, 0, "out of memory"); return -1; }
    trace_info_t info = {0};
    uint32_t zl = 0, minor = TRACE_VERSION_MINOR, codec = TRACE_CODEC_ZLIB;
    tx_info(&t, &info, &zl, &minor, &codec);
    trace_writer_t *w = NULL;
    int rc = -1;
    if (t.failed) goto out;
    if (zl > (codec == TRACE_CODEC_ZSTD ? TRACE_ZSTD_MAX_LEVEL : 9u)) {
        tx_fail(&t, "zlevel must be 0..%s for %s", codec == TRACE_CODEC_ZSTD ? "19" : "9",
                codec == TRACE_CODEC_ZSTD ? "zstd" : "zlib");
        goto out;
    }
    trace_wopts_t wo = {minor, codec, (int)zl};
    w = trace_writer_open(out_path, &info, &wo, err);
    if (!w) goto out;
    for (;;) {
        if (tx_next(&t)) { if (!t.failed) tx_fail(&t, "unexpected end of text (missing END)%s%s", NULL, NULL); break; }
        if (!strcmp(t.tok, "END") && !t.tok_quoted) {
            if (tx_next(&t) == 0) { tx_fail(&t, "text after END%s%s", NULL, NULL); break; }
            if (t.failed) break;
            rc = trace_writer_close(w, NULL, NULL, err);
            w = NULL;
            break;
        }
        trace_cmd_t cmd;
        memset(&cmd, 0, sizeof cmd);
        static const trace_cmd_type_t types[] = {TRACE_CMD_SURFACE, TRACE_CMD_PROGRAM, TRACE_CMD_FRAME_BEGIN,
                                                 TRACE_CMD_CLEAR, TRACE_CMD_DRAW, TRACE_CMD_FRAME_END,
                                                 TRACE_CMD_UNKNOWN};
        for (size_t i = 0; i < sizeof types / sizeof *types; i++)
            if (!t.tok_quoted && !strcmp(t.tok, cmd_keyword(types[i]))) cmd.type = types[i];
        if (cmd.type == TRACE_CMD_NONE) { tx_fail(&t, "unknown command \"%.40s\"%s", t.tok, NULL); break; }
        uint64_t cmd_pos = t.tok_pos, cmd_line = t.tok_line;
        if (cmd.type == TRACE_CMD_DRAW) trace_draw_init(&cmd.u.draw);
        tx_cmd_body(&t, &cmd);
        if (t.failed) { trace_cmd_free(&cmd); break; }
        trace_error_t we;
        if (trace_writer_put(w, &cmd, &we)) {
            tr_err(err, cmd_pos, "text line %" PRIu64 ": %s command invalid: %s", cmd_line, cmd_keyword(cmd.type), we.msg);
            t.failed = 1;
            trace_cmd_free(&cmd);
            break;
        }
        trace_cmd_free(&cmd);
    }
out:
    if (spool) fclose(spool);
    if (w) trace_writer_abort(w);
    trace_info_free(&info);
    free(t.tok);
    return rc;
}
