/* GPUpd trace format: binary encoding, decoding, validation, streaming reader and writer.
 * See trace.h and docs/trace-format.md. */
#include "trace/trace.h"
#include "trace/trace_internal.h"

#include "common/outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

static const char TRACE_MAGIC[8] = {'G', 'P', 'U', 'P', 'D', 'T', 'R', 'C'};

/* ------------------------------------------------------------------ errors */
void tr_err(trace_error_t *err, uint64_t off, const char *fmt, ...)
{
    if (!err) return;
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    err->offset = off;
    snprintf(err->msg, sizeof err->msg, "offset %" PRIu64 ": %s", off, tmp);
}

/* ------------------------------------------------------------------ misc helpers */
uint32_t trace_fourcc(const char tag[4])
{
    return (uint32_t)(uint8_t)tag[0] | (uint32_t)(uint8_t)tag[1] << 8 | (uint32_t)(uint8_t)tag[2] << 16 |
           (uint32_t)(uint8_t)tag[3] << 24;
}

void tr_tagstr(uint32_t tag, char out[5])
{
    for (int i = 0; i < 4; i++) {
        char c = (char)((tag >> (8 * i)) & 0xff);
        out[i] = (c >= 32 && c < 127) ? c : '?';
    }
    out[4] = 0;
}

const char *trace_cmd_name(trace_cmd_type_t t)
{
    switch (t) {
    case TRACE_CMD_SURFACE: return "SURF";
    case TRACE_CMD_PROGRAM: return "PROG";
    case TRACE_CMD_FRAME_BEGIN: return "FRMB";
    case TRACE_CMD_CLEAR: return "CLER";
    case TRACE_CMD_DRAW: return "DRAW";
    case TRACE_CMD_FRAME_END: return "FRME";
    case TRACE_CMD_UNKNOWN: return "unknown";
    default: return "none";
    }
}

void trace_state_default(trace_state_t *s, uint32_t width, uint32_t height)
{
    memset(s, 0, sizeof *s);
    s->vp_w = width;
    s->vp_h = height;
    s->depth_near = 0.0f;
    s->depth_far = 1.0f;
    s->sc_w = width;
    s->sc_h = height;
    s->cull = TRACE_CULL_NONE;
    s->front_ccw = 1;
    s->depth_func = TRACE_CMP_LESS;
    s->depth_write = 1;
    s->src_rgb = s->src_a = TRACE_BF_ONE;
    s->dst_rgb = s->dst_a = TRACE_BF_ZERO;
    s->eq_rgb = s->eq_a = TRACE_BEQ_ADD;
    s->color_mask = 15;
    s->alpha_func = TRACE_CMP_ALWAYS;
}

void trace_draw_init(trace_draw_t *d)
{
    memset(d, 0, sizeof *d);
    d->prim = TRACE_PRIM_TRIANGLES;
    d->n_attribs = 1;
    d->attribs[0].semantic = TRACE_SEM_POSITION;
    d->attribs[0].comps = 4;
    d->stride = 4;
    d->vs_prog = d->fs_prog = TRACE_NONE;
    d->depth = TRACE_NONE;
    d->ref_pixels = -1;
    d->line_width = d->point_size = 1.0f;
    trace_state_default(&d->state, 0, 0);
}

void trace_cmd_free(trace_cmd_t *cmd)
{
    if (!cmd) return;
    switch (cmd->type) {
    case TRACE_CMD_SURFACE:
        free(cmd->u.surface.data);
        free(cmd->u.surface.label);
        break;
    case TRACE_CMD_PROGRAM:
        free(cmd->u.program.words);
        free(cmd->u.program.name);
        free(cmd->u.program.origin);
        break;
    case TRACE_CMD_DRAW:
        free(cmd->u.draw.verts);
        free(cmd->u.draw.indices);
        free(cmd->u.draw.vs_consts);
        free(cmd->u.draw.fs_consts);
        break;
    case TRACE_CMD_UNKNOWN:
        free(cmd->u.unknown.data);
        break;
    default:
        break;
    }
    memset(cmd, 0, sizeof *cmd);
}

void trace_info_free(trace_info_t *info)
{
    if (!info) return;
    free(info->name);
    free(info->source);
    free(info->notes);
    memset(info, 0, sizeof *info);
}

/* ------------------------------------------------------------------ byte buffer (encoding) */
int tb_reserve(tr_buf_t *b, size_t extra)
{
    if (b->failed) return -1;
    if (b->len + extra <= b->cap) return 0;
    size_t nc = b->cap ? b->cap : 256;
    while (nc < b->len + extra) {
        if (nc > SIZE_MAX / 2) { b->failed = 1; return -1; }
        nc *= 2;
    }
    uint8_t *np = realloc(b->p, nc);
    if (!np) { b->failed = 1; return -1; }
    b->p = np;
    b->cap = nc;
    return 0;
}
void tb_bytes(tr_buf_t *b, const void *src, size_t n)
{
    if (n == 0 || tb_reserve(b, n)) return;
    memcpy(b->p + b->len, src, n);
    b->len += n;
}
void tb_u32(tr_buf_t *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    tb_bytes(b, x, 4);
}
void tb_u16(tr_buf_t *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    tb_bytes(b, x, 2);
}
void tb_u64(tr_buf_t *b, uint64_t v) { tb_u32(b, (uint32_t)v); tb_u32(b, (uint32_t)(v >> 32)); }
void tb_f32(tr_buf_t *b, float f) { uint32_t u; memcpy(&u, &f, 4); tb_u32(b, u); }
static void tb_str(tr_buf_t *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    tb_u32(b, (uint32_t)n);
    tb_bytes(b, s, n);
}
static void tb_f32s(tr_buf_t *b, const float *f, size_t n) { for (size_t i = 0; i < n; i++) tb_f32(b, f[i]); }
static void tb_u32s(tr_buf_t *b, const uint32_t *v, size_t n) { for (size_t i = 0; i < n; i++) tb_u32(b, v[i]); }

/* ------------------------------------------------------------------ cursor (decoding) */
typedef struct {
    const uint8_t *p;
    size_t len, pos;
    uint64_t file_off;   /* file offset of payload byte 0 (if not compressed) */
    uint64_t chunk_off;  /* file offset of the chunk header */
    int compressed;
    const char *what;    /* chunk name */
    trace_error_t *err;
    int failed;
    uint32_t minor;      /* format minor version of the file (DRAW fields of 1.2) */
} tr_cur_t;

static void cur_fail(tr_cur_t *c, const char *fmt, ...)
{
    if (c->failed) return;
    c->failed = 1;
    char tmp[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (c->compressed)
        tr_err(c->err, c->chunk_off, "%s chunk (compressed), payload byte %zu: %s", c->what, c->pos, tmp);
    else
        tr_err(c->err, c->file_off + c->pos, "%s chunk: %s", c->what, tmp);
}
static size_t cur_left(const tr_cur_t *c) { return c->len - c->pos; }
static uint32_t cur_u32(tr_cur_t *c, const char *field)
{
    if (c->failed) return 0;
    if (cur_left(c) < 4) { cur_fail(c, "truncated payload reading %s", field); return 0; }
    const uint8_t *p = c->p + c->pos;
    c->pos += 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static float cur_f32(tr_cur_t *c, const char *field)
{
    uint32_t u = cur_u32(c, field);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static int32_t cur_i32(tr_cur_t *c, const char *field) { return (int32_t)cur_u32(c, field); }
static int64_t cur_i64(tr_cur_t *c, const char *field)
{
    uint64_t lo = cur_u32(c, field), hi = cur_u32(c, field);
    return (int64_t)(lo | hi << 32);
}
/* A u32 field that must be <= max: on failure the error names the field, value and the limit. The
 * offset reported is that of the field itself. */
static uint32_t cur_u32_max(tr_cur_t *c, const char *field, uint32_t max)
{
    size_t at = c->pos;
    uint32_t v = cur_u32(c, field);
    if (!c->failed && v > max) {
        c->pos = at;
        cur_fail(c, "%s = %" PRIu32 " out of range (max %" PRIu32 ")", field, v, max);
    }
    return v;
}
/* A count of elements of elem_size bytes that must fit in the remaining payload (caps allocations). */
static uint32_t cur_count(tr_cur_t *c, const char *field, size_t elem_size, uint32_t max)
{
    size_t at = c->pos;
    uint32_t v = cur_u32_max(c, field, max);
    if (!c->failed && (uint64_t)v * elem_size > cur_left(c)) {
        c->pos = at;
        cur_fail(c, "%s = %" PRIu32 " needs %" PRIu64 " bytes but only %zu remain in the chunk", field, v,
                 (uint64_t)v * elem_size, cur_left(c) + 4);
        return 0;
    }
    return c->failed ? 0 : v;
}
static char *cur_str(tr_cur_t *c, const char *field)
{
    uint32_t n = cur_count(c, field, 1, TRACE_MAX_STR);
    if (c->failed) return NULL;
    for (uint32_t i = 0; i < n; i++)
        if (c->p[c->pos + i] == 0) {
            c->pos += i;
            cur_fail(c, "%s contains a NUL byte", field);
            return NULL;
        }
    char *s = malloc((size_t)n + 1);
    if (!s) { cur_fail(c, "out of memory"); return NULL; }
    memcpy(s, c->p + c->pos, n);
    s[n] = 0;
    c->pos += n;
    return s;
}
static void *cur_alloc(tr_cur_t *c, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) cur_fail(c, "out of memory (%zu bytes)", n);
    return p;
}
static float *cur_f32s(tr_cur_t *c, size_t n, const char *field)
{
    if (c->failed) return NULL;
    float *f = cur_alloc(c, n * sizeof(float));
    if (!f) return NULL;
    for (size_t i = 0; i < n; i++) f[i] = cur_f32(c, field);
    return f;
}
static uint32_t *cur_u32s(tr_cur_t *c, size_t n, const char *field)
{
    if (c->failed) return NULL;
    uint32_t *v = cur_alloc(c, n * sizeof(uint32_t));
    if (!v) return NULL;
    for (size_t i = 0; i < n; i++) v[i] = cur_u32(c, field);
    return v;
}
static uint32_t cur_bool(tr_cur_t *c, const char *f) { return cur_u32_max(c, f, 1); }
static float cur_finite(tr_cur_t *c, const char *field)
{
    size_t at = c->pos;
    float f = cur_f32(c, field);
    if (!c->failed && !isfinite(f)) { c->pos = at; cur_fail(c, "%s is not finite", field); }
    return f;
}
static uint32_t cur_surf_id(tr_cur_t *c, const char *field, int allow_none)
{
    size_t at = c->pos;
    uint32_t v = cur_u32(c, field);
    if (!c->failed && !(v <= TRACE_MAX_ID || (allow_none && v == TRACE_NONE))) {
        c->pos = at;
        cur_fail(c, "%s = %" PRIu32 " is not a valid id (0..%u%s)", field, v, TRACE_MAX_ID,
                 allow_none ? " or 0xffffffff" : "");
    }
    return v;
}

/* ------------------------------------------------------------------ per-command encode / decode */
static void enc_state(tr_buf_t *b, const trace_state_t *s)
{
    tb_u32(b, (uint32_t)s->vp_x); tb_u32(b, (uint32_t)s->vp_y); tb_u32(b, s->vp_w); tb_u32(b, s->vp_h);
    tb_f32(b, s->depth_near); tb_f32(b, s->depth_far);
    tb_u32(b, s->scissor_en); tb_u32(b, (uint32_t)s->sc_x); tb_u32(b, (uint32_t)s->sc_y);
    tb_u32(b, s->sc_w); tb_u32(b, s->sc_h);
    tb_u32(b, s->cull); tb_u32(b, s->front_ccw);
    tb_u32(b, s->depth_test); tb_u32(b, s->depth_func); tb_u32(b, s->depth_write);
    tb_u32(b, s->blend_en); tb_u32(b, s->src_rgb); tb_u32(b, s->dst_rgb); tb_u32(b, s->src_a);
    tb_u32(b, s->dst_a); tb_u32(b, s->eq_rgb); tb_u32(b, s->eq_a);
    tb_f32s(b, s->blend_color, 4);
    tb_u32(b, s->color_mask);
    tb_u32(b, s->alpha_test); tb_u32(b, s->alpha_func); tb_f32(b, s->alpha_ref);
    tb_u32(b, s->poly_offset_en); tb_f32(b, s->poly_factor); tb_f32(b, s->poly_units);
}

/* Rectangles (viewport, enabled scissor) are never empty: w and h >= 1 (their far edge x + w - 1 is computed
 * in 64 bits by every user, so a rectangle is never inverted either). An empty one drew nothing in GL and is
 * a corrupt or hand-edited trace here; the error points at the rectangle's first field. */
static void cur_rect(tr_cur_t *c, size_t at, const char *what, uint32_t enabled, uint32_t w, uint32_t h)
{
    if (c->failed || !enabled || (w && h)) return;
    c->pos = at;
    cur_fail(c, "%s rectangle is empty (w %" PRIu32 ", h %" PRIu32 "; both must be >= 1%s)", what, w, h,
             what[0] == 's' ? " when the scissor is enabled" : "");
}

static void dec_state(tr_cur_t *c, trace_state_t *s)
{
    size_t at = c->pos;
    s->vp_x = cur_i32(c, "viewport.x"); s->vp_y = cur_i32(c, "viewport.y");
    s->vp_w = cur_u32_max(c, "viewport.w", TRACE_MAX_DIM);
    s->vp_h = cur_u32_max(c, "viewport.h", TRACE_MAX_DIM);
    s->depth_near = cur_finite(c, "depth_range.near"); s->depth_far = cur_finite(c, "depth_range.far");
    size_t sc_at = c->pos;
    s->scissor_en = cur_bool(c, "scissor.enable");
    s->sc_x = cur_i32(c, "scissor.x"); s->sc_y = cur_i32(c, "scissor.y");
    s->sc_w = cur_u32_max(c, "scissor.w", TRACE_MAX_DIM);
    s->sc_h = cur_u32_max(c, "scissor.h", TRACE_MAX_DIM);
    cur_rect(c, at, "viewport", 1, s->vp_w, s->vp_h);
    cur_rect(c, sc_at, "scissor", s->scissor_en, s->sc_w, s->sc_h);
    s->cull = cur_u32_max(c, "cull", TRACE_CULL_FRONT_AND_BACK);
    s->front_ccw = cur_bool(c, "front_ccw");
    s->depth_test = cur_bool(c, "depth.test");
    s->depth_func = cur_u32_max(c, "depth.func", TRACE_CMP_ALWAYS);
    s->depth_write = cur_bool(c, "depth.write");
    s->blend_en = cur_bool(c, "blend.enable");
    s->src_rgb = cur_u32_max(c, "blend.src_rgb", TRACE_BF_COUNT - 1);
    s->dst_rgb = cur_u32_max(c, "blend.dst_rgb", TRACE_BF_COUNT - 1);
    s->src_a = cur_u32_max(c, "blend.src_alpha", TRACE_BF_COUNT - 1);
    s->dst_a = cur_u32_max(c, "blend.dst_alpha", TRACE_BF_COUNT - 1);
    s->eq_rgb = cur_u32_max(c, "blend.eq_rgb", TRACE_BEQ_MAX);
    s->eq_a = cur_u32_max(c, "blend.eq_alpha", TRACE_BEQ_MAX);
    for (int i = 0; i < 4; i++) s->blend_color[i] = cur_finite(c, "blend.color");
    s->color_mask = cur_u32_max(c, "color_mask", 15);
    s->alpha_test = cur_bool(c, "alpha.test");
    s->alpha_func = cur_u32_max(c, "alpha.func", TRACE_CMP_ALWAYS);
    s->alpha_ref = cur_finite(c, "alpha.ref");
    s->poly_offset_en = cur_bool(c, "polygon_offset.enable");
    s->poly_factor = cur_finite(c, "polygon_offset.factor");
    s->poly_units = cur_finite(c, "polygon_offset.units");
}

static uint32_t fmt_bytes(uint32_t fmt) { (void)fmt; return 4; }

int tr_encode_info(tr_buf_t *b, const trace_info_t *info)
{
    tb_u32(b, info->width); tb_u32(b, info->height); tb_u32(b, info->n_frames);
    tb_str(b, info->name); tb_str(b, info->source); tb_str(b, info->notes);
    return b->failed ? -1 : 0;
}

static int dec_info(tr_cur_t *c, trace_info_t *info)
{
    memset(info, 0, sizeof *info);
    info->width = cur_u32_max(c, "width", TRACE_MAX_DIM);
    info->height = cur_u32_max(c, "height", TRACE_MAX_DIM);
    if (!c->failed && (info->width == 0 || info->height == 0)) cur_fail(c, "screen size is zero");
    info->n_frames = cur_u32_max(c, "n_frames", 1u << 20);
    info->name = cur_str(c, "name");
    info->source = cur_str(c, "source");
    info->notes = cur_str(c, "notes");
    if (!c->failed && cur_left(c)) cur_fail(c, "%zu unexpected trailing bytes", cur_left(c));
    if (c->failed) { trace_info_free(info); return -1; }
    return 0;
}

int tr_encode_cmd(tr_buf_t *b, const trace_cmd_t *cmd, uint32_t *tag)
{
    switch (cmd->type) {
    case TRACE_CMD_SURFACE: {
        const trace_surface_t *s = &cmd->u.surface;
        *tag = trace_fourcc("SURF");
        tb_u32(b, s->id); tb_u32(b, s->kind); tb_u32(b, s->format); tb_u32(b, s->width); tb_u32(b, s->height);
        tb_u32(b, s->flags); tb_u32(b, s->data_len); tb_bytes(b, s->data, s->data_len); tb_str(b, s->label);
        break;
    }
    case TRACE_CMD_PROGRAM: {
        const trace_program_t *p = &cmd->u.program;
        *tag = trace_fourcc("PROG");
        tb_u32(b, p->id); tb_u32(b, p->stage); tb_u32(b, p->n_words); tb_u32s(b, p->words, p->n_words);
        tb_str(b, p->name); tb_str(b, p->origin);
        break;
    }
    case TRACE_CMD_FRAME_BEGIN:
    case TRACE_CMD_FRAME_END:
        *tag = trace_fourcc(cmd->type == TRACE_CMD_FRAME_BEGIN ? "FRMB" : "FRME");
        tb_u32(b, cmd->u.frame.index); tb_u32(b, cmd->u.frame.src_frame);
        break;
    case TRACE_CMD_CLEAR: {
        const trace_clear_t *k = &cmd->u.clear;
        *tag = trace_fourcc("CLER");
        tb_u32(b, k->src_call);
        tb_u32(b, k->n_color); tb_u32s(b, k->color, k->n_color <= TRACE_MAX_COLOR_RT ? k->n_color : 0);
        tb_u32(b, k->depth); tb_u32(b, k->mask); tb_f32s(b, k->color_value, 4); tb_f32(b, k->depth_value);
        tb_u32(b, k->stencil_value);
        tb_u32(b, k->scissor_en); tb_u32(b, (uint32_t)k->sc_x); tb_u32(b, (uint32_t)k->sc_y);
        tb_u32(b, k->sc_w); tb_u32(b, k->sc_h); tb_u32(b, k->color_mask); tb_u32(b, k->depth_write);
        break;
    }
    case TRACE_CMD_DRAW: {
        const trace_draw_t *d = &cmd->u.draw;
        *tag = trace_fourcc("DRAW");
        uint32_t na = d->n_attribs <= TRACE_MAX_ATTRIBS ? d->n_attribs : 0;
        uint32_t stride = 0;
        tb_u32(b, d->index); tb_u32(b, d->src_call); tb_u32(b, d->prim);
        tb_u32(b, d->n_attribs);
        for (uint32_t i = 0; i < na; i++) {
            tb_u32(b, d->attribs[i].semantic); tb_u32(b, d->attribs[i].comps);
            stride += d->attribs[i].comps <= 4 ? d->attribs[i].comps : 0;
        }
        tb_u32(b, d->n_verts);
        if (d->verts) tb_f32s(b, d->verts, (size_t)d->n_verts * stride);
        tb_u32(b, d->n_indices);
        if (d->indices) tb_u32s(b, d->indices, d->n_indices);
        tb_u32(b, d->vs_prog); tb_u32(b, d->fs_prog);
        tb_u32(b, d->n_vs_consts); if (d->vs_consts) tb_f32s(b, d->vs_consts, 4 * (size_t)d->n_vs_consts);
        tb_u32(b, d->n_fs_consts); if (d->fs_consts) tb_f32s(b, d->fs_consts, 4 * (size_t)d->n_fs_consts);
        tb_u32(b, d->cost.vs_instr); tb_u32(b, d->cost.vs_tex); tb_u32(b, d->cost.fs_instr);
        tb_u32(b, d->cost.fs_tex);
        enc_state(b, &d->state);
        tb_u32(b, d->n_color); tb_u32s(b, d->color, d->n_color <= TRACE_MAX_COLOR_RT ? d->n_color : 0);
        tb_u32(b, d->depth);
        tb_u32(b, d->n_tex);
        for (uint32_t i = 0; i < d->n_tex && i < TRACE_MAX_TEX; i++) {
            const trace_texbind_t *t = &d->tex[i];
            tb_u32(b, t->unit); tb_u32(b, t->surface); tb_u32(b, t->min_filter); tb_u32(b, t->mag_filter);
            tb_u32(b, t->wrap_s); tb_u32(b, t->wrap_t);
        }
        tb_u32(b, d->n_deps); tb_u32s(b, d->deps, d->n_deps <= TRACE_MAX_TEX ? d->n_deps : 0);
        tb_u64(b, (uint64_t)d->ref_pixels);
        tb_u32(b, d->flags);
        if (b->minor >= 2) { tb_f32(b, d->line_width); tb_f32(b, d->point_size); tb_u32(b, d->prim_flags); }
        break;
    }
    case TRACE_CMD_UNKNOWN:
        *tag = cmd->u.unknown.tag;
        tb_bytes(b, cmd->u.unknown.data, cmd->u.unknown.len);
        break;
    default:
        return -1;
    }
    return b->failed ? -1 : 0;
}

static void dec_surface(tr_cur_t *c, trace_surface_t *s)
{
    s->id = cur_surf_id(c, "id", 0);
    s->kind = cur_u32_max(c, "kind", TRACE_SURF_DEPTH);
    size_t at = c->pos;
    s->format = cur_u32_max(c, "format", TRACE_FMT_DEPTH32F);
    if (!c->failed && (s->format == 0 || (s->kind == TRACE_SURF_COLOR) != (s->format == TRACE_FMT_RGBA8))) {
        c->pos = at;
        cur_fail(c, "format %" PRIu32 " does not fit surface kind %" PRIu32, s->format, s->kind);
    }
    s->width = cur_u32_max(c, "width", TRACE_MAX_DIM);
    s->height = cur_u32_max(c, "height", TRACE_MAX_DIM);
    if (!c->failed && (s->width == 0 || s->height == 0)) cur_fail(c, "surface size is zero");
    s->flags = cur_u32_max(c, "flags", TRACE_SURF_F_DEFAULT_FB | TRACE_SURF_F_HAS_DATA);
    at = c->pos;
    s->data_len = cur_count(c, "data_len", 1, TRACE_MAX_CHUNK_RAW);
    if (!c->failed) {
        uint64_t want = (s->flags & TRACE_SURF_F_HAS_DATA) ? (uint64_t)s->width * s->height * fmt_bytes(s->format)
                                                           : 0;
        if (s->data_len != want) {
            c->pos = at;
            cur_fail(c, "data_len = %" PRIu32 " but the surface needs %" PRIu64, s->data_len, want);
        }
    }
    if (!c->failed && s->data_len) {
        s->data = cur_alloc(c, s->data_len);
        if (s->data) { memcpy(s->data, c->p + c->pos, s->data_len); c->pos += s->data_len; }
    }
    s->label = cur_str(c, "label");
}

static void dec_program(tr_cur_t *c, trace_program_t *p)
{
    p->id = cur_surf_id(c, "id", 0);
    p->stage = cur_u32_max(c, "stage", TRACE_STAGE_FRAGMENT);
    p->n_words = cur_count(c, "n_words", 4, 1u << 24);
    p->words = cur_u32s(c, p->n_words, "words");
    p->name = cur_str(c, "name");
    p->origin = cur_str(c, "origin");
}

static void dec_clear(tr_cur_t *c, trace_clear_t *k)
{
    k->src_call = cur_u32(c, "src_call");
    k->n_color = cur_u32_max(c, "n_color", TRACE_MAX_COLOR_RT);
    for (uint32_t i = 0; i < k->n_color && !c->failed; i++) k->color[i] = cur_surf_id(c, "color target", 0);
    k->depth = cur_surf_id(c, "depth target", 1);
    size_t at = c->pos;
    k->mask = cur_u32_max(c, "mask", 7);
    if (!c->failed && k->mask == 0) { c->pos = at; cur_fail(c, "clear mask is empty"); }
    for (int i = 0; i < 4; i++) k->color_value[i] = cur_finite(c, "color value");
    k->depth_value = cur_finite(c, "depth value");
    k->stencil_value = cur_u32(c, "stencil value");
    at = c->pos;
    k->scissor_en = cur_bool(c, "scissor.enable");
    k->sc_x = cur_i32(c, "scissor.x"); k->sc_y = cur_i32(c, "scissor.y");
    k->sc_w = cur_u32_max(c, "scissor.w", TRACE_MAX_DIM);
    k->sc_h = cur_u32_max(c, "scissor.h", TRACE_MAX_DIM);
    cur_rect(c, at, "scissor", k->scissor_en, k->sc_w, k->sc_h);
    k->color_mask = cur_u32_max(c, "color_mask", 15);
    k->depth_write = cur_bool(c, "depth_write");
}

static void dec_draw(tr_cur_t *c, trace_draw_t *d)
{
    d->index = cur_u32(c, "index");
    d->src_call = cur_u32(c, "src_call");
    size_t at = c->pos;
    d->prim = cur_u32_max(c, "prim", c->minor >= 2 ? TRACE_PRIM_MAX : TRACE_PRIM_TRIANGLES);
    at = c->pos;
    d->n_attribs = cur_u32_max(c, "n_attribs", TRACE_MAX_ATTRIBS);
    if (!c->failed && d->n_attribs == 0) { c->pos = at; cur_fail(c, "n_attribs is 0 (position required)"); }
    d->stride = 0;
    for (uint32_t i = 0; i < d->n_attribs && !c->failed; i++) {
        at = c->pos;
        d->attribs[i].semantic = cur_u32_max(c, "attrib.semantic", TRACE_SEM_GENERIC);
        if (!c->failed && (i == 0) != (d->attribs[i].semantic == TRACE_SEM_POSITION)) {
            c->pos = at;
            cur_fail(c, "attribute %" PRIu32 ": the position must be attribute 0 and only it", i);
        }
        at = c->pos;
        d->attribs[i].comps = cur_u32_max(c, "attrib.comps", 4);
        if (!c->failed && (d->attribs[i].comps == 0 || (i == 0 && d->attribs[i].comps < 3))) {
            c->pos = at;
            cur_fail(c, "attribute %" PRIu32 " has %" PRIu32 " components", i, d->attribs[i].comps);
        }
        d->stride += d->attribs[i].comps;
    }
    if (c->failed) return;
    d->n_verts = cur_count(c, "n_verts", (size_t)d->stride * 4, 1u << 26);
    d->verts = cur_f32s(c, (size_t)d->n_verts * d->stride, "vertex data");
    at = c->pos;
    d->n_indices = cur_count(c, "n_indices", 4, 3u << 26);
    if (!c->failed && d->prim == TRACE_PRIM_TRIANGLES && d->n_indices % 3) {
        c->pos = at;
        cur_fail(c, "n_indices = %" PRIu32 " is not a multiple of 3 (triangle list)", d->n_indices);
    }
    if (!c->failed && d->prim == TRACE_PRIM_LINES && d->n_indices % 2) {
        c->pos = at;
        cur_fail(c, "n_indices = %" PRIu32 " is not a multiple of 2 (line list)", d->n_indices);
    }
    if (c->failed) return;
    d->indices = cur_alloc(c, (size_t)d->n_indices * 4);
    for (uint32_t i = 0; i < d->n_indices && !c->failed; i++) {
        at = c->pos;
        d->indices[i] = cur_u32(c, "index");
        if (d->indices[i] >= d->n_verts) {
            c->pos = at;
            cur_fail(c, "index[%" PRIu32 "] = %" PRIu32 " >= n_verts %" PRIu32, i, d->indices[i], d->n_verts);
        }
    }
    d->vs_prog = cur_surf_id(c, "vs_prog", 1);
    d->fs_prog = cur_surf_id(c, "fs_prog", 1);
    d->n_vs_consts = cur_count(c, "n_vs_consts", 16, 4096);
    d->vs_consts = cur_f32s(c, 4 * (size_t)d->n_vs_consts, "vs constant");
    d->n_fs_consts = cur_count(c, "n_fs_consts", 16, 4096);
    d->fs_consts = cur_f32s(c, 4 * (size_t)d->n_fs_consts, "fs constant");
    d->cost.vs_instr = cur_u32(c, "cost.vs_instr");
    d->cost.vs_tex = cur_u32(c, "cost.vs_tex");
    d->cost.fs_instr = cur_u32(c, "cost.fs_instr");
    d->cost.fs_tex = cur_u32(c, "cost.fs_tex");
    dec_state(c, &d->state);
    d->n_color = cur_u32_max(c, "n_color", TRACE_MAX_COLOR_RT);
    for (uint32_t i = 0; i < d->n_color && !c->failed; i++) d->color[i] = cur_surf_id(c, "color target", 0);
    d->depth = cur_surf_id(c, "depth target", 1);
    d->n_tex = cur_u32_max(c, "n_tex", TRACE_MAX_TEX);
    for (uint32_t i = 0; i < d->n_tex && !c->failed; i++) {
        trace_texbind_t *t = &d->tex[i];
        at = c->pos;
        t->unit = cur_u32_max(c, "tex.unit", TRACE_MAX_TEX - 1);
        if (!c->failed && i > 0 && t->unit <= d->tex[i - 1].unit) {
            c->pos = at;
            cur_fail(c, "texture units not strictly increasing (%" PRIu32 " after %" PRIu32 ")", t->unit,
                     d->tex[i - 1].unit);
        }
        t->surface = cur_surf_id(c, "tex.surface", 0);
        t->min_filter = cur_u32_max(c, "tex.min_filter", TRACE_FILTER_LINEAR_MIPMAP_LINEAR);
        t->mag_filter = cur_u32_max(c, "tex.mag_filter", TRACE_FILTER_LINEAR);
        t->wrap_s = cur_u32_max(c, "tex.wrap_s", TRACE_WRAP_MIRRORED_REPEAT);
        t->wrap_t = cur_u32_max(c, "tex.wrap_t", TRACE_WRAP_MIRRORED_REPEAT);
    }
    d->n_deps = cur_u32_max(c, "n_deps", TRACE_MAX_TEX);
    for (uint32_t i = 0; i < d->n_deps && !c->failed; i++) d->deps[i] = cur_surf_id(c, "dep", 0);
    at = c->pos;
    d->ref_pixels = cur_i64(c, "ref_pixels");
    if (!c->failed && d->ref_pixels < -1) { c->pos = at; cur_fail(c, "ref_pixels = %" PRId64 " < -1", d->ref_pixels); }
    d->flags = cur_u32_max(c, "flags", c->minor >= 2 ? TRACE_DRAW_F_ALL : 15u);
    d->line_width = d->point_size = 1.0f;
    d->prim_flags = 0;
    if (c->minor >= 2) {
        at = c->pos;
        d->line_width = cur_finite(c, "line_width");
        if (!c->failed && !(d->line_width > 0.0f && d->line_width <= TRACE_MAX_LINE_WIDTH)) {
            c->pos = at;
            cur_fail(c, "line_width = %g out of range (0, %g]", (double)d->line_width, (double)TRACE_MAX_LINE_WIDTH);
        }
        at = c->pos;
        d->point_size = cur_finite(c, "point_size");
        if (!c->failed && !(d->point_size > 0.0f && d->point_size <= TRACE_MAX_LINE_WIDTH)) {
            c->pos = at;
            cur_fail(c, "point_size = %g out of range (0, %g]", (double)d->point_size, (double)TRACE_MAX_LINE_WIDTH);
        }
        d->prim_flags = cur_u32_max(c, "prim_flags", TRACE_PRIMF_ALL);
    }
}

const char *trace_prim_name(uint32_t prim)
{
    static const char *const names[] = {"triangles", "lines", "line_strip", "line_loop", "points"};
    return prim <= TRACE_PRIM_MAX ? names[prim] : "unknown";
}

/* Decode one chunk payload into cmd (type by tag). On error cmd is freed. */
static int dec_cmd(tr_cur_t *c, uint32_t tag, trace_cmd_t *cmd)
{
    memset(cmd, 0, sizeof *cmd);
    if (tag == trace_fourcc("SURF")) { cmd->type = TRACE_CMD_SURFACE; dec_surface(c, &cmd->u.surface); }
    else if (tag == trace_fourcc("PROG")) { cmd->type = TRACE_CMD_PROGRAM; dec_program(c, &cmd->u.program); }
    else if (tag == trace_fourcc("FRMB") || tag == trace_fourcc("FRME")) {
        cmd->type = tag == trace_fourcc("FRMB") ? TRACE_CMD_FRAME_BEGIN : TRACE_CMD_FRAME_END;
        cmd->u.frame.index = cur_u32(c, "index");
        cmd->u.frame.src_frame = cur_u32(c, "src_frame");
    } else if (tag == trace_fourcc("CLER")) { cmd->type = TRACE_CMD_CLEAR; dec_clear(c, &cmd->u.clear); }
    else if (tag == trace_fourcc("DRAW")) { cmd->type = TRACE_CMD_DRAW; dec_draw(c, &cmd->u.draw); }
    else {
        cmd->type = TRACE_CMD_UNKNOWN;
        cmd->u.unknown.tag = tag;
        cmd->u.unknown.len = (uint32_t)c->len;
        cmd->u.unknown.data = cur_alloc(c, c->len);
        if (cmd->u.unknown.data) memcpy(cmd->u.unknown.data, c->p, c->len);
        c->pos = c->len;
    }
    if (!c->failed && cur_left(c)) cur_fail(c, "%zu unexpected trailing bytes", cur_left(c));
    if (c->failed) { trace_cmd_free(cmd); return -1; }
    return 0;
}

/* ------------------------------------------------------------------ semantic validation (shared) */
typedef struct {
    uint8_t defined, kind, written;
    uint32_t w, h;
} tr_vsurf_t;

struct tr_validator {
    uint32_t width, height, n_frames_declared;
    int in_frame;
    uint32_t frames, frame_draws, draws, clears;
    tr_vsurf_t *surf;     /* n_surf entries, grown to the largest id defined */
    uint8_t *prog;        /* 0 undefined, 1 + stage; n_prog entries */
    uint32_t n_surf, n_prog;
};

/* Grow a zero-initialised table so that index id exists (ids are <= TRACE_MAX_ID, checked by the parser). */
static int tr_grow(void **arr, uint32_t *n, uint32_t id, size_t elem)
{
    if (id < *n) return 0;
    uint32_t nn = *n ? *n : 16;
    while (nn <= id) nn *= 2;
    void *p = realloc(*arr, (size_t)nn * elem);
    if (!p) return -1;
    memset((char *)p + (size_t)*n * elem, 0, (size_t)(nn - *n) * elem);
    *arr = p;
    *n = nn;
    return 0;
}

static const tr_vsurf_t VS_UNDEFINED = {0, 0, 0, 0, 0};
static const tr_vsurf_t *vs_get(const tr_validator_t *v, uint32_t id)
{
    return id < v->n_surf ? &v->surf[id] : &VS_UNDEFINED;
}
static uint8_t vp_get(const tr_validator_t *v, uint32_t id) { return id < v->n_prog ? v->prog[id] : 0; }


tr_validator_t *tr_validator_new(const trace_info_t *info)
{
    tr_validator_t *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->width = info->width;
    v->height = info->height;
    v->n_frames_declared = info->n_frames;
    return v;
}

void tr_validator_free(tr_validator_t *v)
{
    if (!v) return;
    free(v->surf);
    free(v->prog);
    free(v);
}

static int v_target(tr_validator_t *v, uint32_t id, int kind, const char *what, uint32_t *w, uint32_t *h,
                    uint64_t off, trace_error_t *err)
{
    if (!vs_get(v, id)->defined) {
        tr_err(err, off, "%s: surface %" PRIu32 " is not defined", what, id);
        return -1;
    }
    if (v->surf[id].kind != kind) {
        tr_err(err, off, "%s: surface %" PRIu32 " is a %s surface", what, id,
               v->surf[id].kind == TRACE_SURF_COLOR ? "colour" : "depth");
        return -1;
    }
    if (*w && (v->surf[id].w != *w || v->surf[id].h != *h)) {
        tr_err(err, off, "%s: surface %" PRIu32 " is %" PRIu32 "x%" PRIu32 ", other targets are %" PRIu32
               "x%" PRIu32, what, id, v->surf[id].w, v->surf[id].h, *w, *h);
        return -1;
    }
    *w = v->surf[id].w;
    *h = v->surf[id].h;
    return 0;
}

void tr_validator_deps(const tr_validator_t *v, const trace_draw_t *d, uint32_t *n, uint32_t deps[TRACE_MAX_TEX])
{
    *n = 0;
    for (uint32_t i = 0; i < d->n_tex && i < TRACE_MAX_TEX; i++) {
        uint32_t s = d->tex[i].surface;
        if (!vs_get(v, s)->written) continue;
        int dup = 0;
        for (uint32_t j = 0; j < *n; j++) dup |= deps[j] == s;
        if (!dup) deps[(*n)++] = s;
    }
}

/* Check cmd against the stream so far and update the state. off = chunk offset for messages. */
int tr_validate(tr_validator_t *v, const trace_cmd_t *cmd, uint64_t off, trace_error_t *err)
{
    const char *nm = trace_cmd_name(cmd->type);
    switch (cmd->type) {
    case TRACE_CMD_SURFACE: {
        const trace_surface_t *s = &cmd->u.surface;
        if (tr_grow((void **)&v->surf, &v->n_surf, s->id, sizeof *v->surf)) {
            tr_err(err, off, "out of memory");
            return -1;
        }
        tr_vsurf_t *vs = &v->surf[s->id];
        vs->defined = 1;
        vs->kind = (uint8_t)s->kind;
        vs->w = s->width;
        vs->h = s->height;
        vs->written = 0;
        return 0;
    }
    case TRACE_CMD_PROGRAM:
        if (tr_grow((void **)&v->prog, &v->n_prog, cmd->u.program.id, 1)) {
            tr_err(err, off, "out of memory");
            return -1;
        }
        v->prog[cmd->u.program.id] = (uint8_t)(1 + cmd->u.program.stage);
        return 0;
    case TRACE_CMD_FRAME_BEGIN:
        if (v->in_frame) { tr_err(err, off, "FRMB inside frame %" PRIu32, v->frames); return -1; }
        if (cmd->u.frame.index != v->frames) {
            tr_err(err, off, "FRMB index %" PRIu32 ", expected %" PRIu32, cmd->u.frame.index, v->frames);
            return -1;
        }
        if (v->frames >= v->n_frames_declared) {
            tr_err(err, off, "FRMB %" PRIu32 " but INFO declares %" PRIu32 " frames", v->frames,
                   v->n_frames_declared);
            return -1;
        }
        v->in_frame = 1;
        v->frame_draws = 0;
        return 0;
    case TRACE_CMD_FRAME_END:
        if (!v->in_frame || cmd->u.frame.index != v->frames) {
            tr_err(err, off, "FRME %" PRIu32 " without matching FRMB", cmd->u.frame.index);
            return -1;
        }
        v->in_frame = 0;
        v->frames++;
        return 0;
    case TRACE_CMD_CLEAR: {
        const trace_clear_t *k = &cmd->u.clear;
        uint32_t w = 0, h = 0;
        if (!v->in_frame) { tr_err(err, off, "CLER outside a frame"); return -1; }
        for (uint32_t i = 0; i < k->n_color; i++)
            if (v_target(v, k->color[i], TRACE_SURF_COLOR, "CLER colour target", &w, &h, off, err)) return -1;
        if (k->depth != TRACE_NONE && v_target(v, k->depth, TRACE_SURF_DEPTH, "CLER depth target", &w, &h, off, err))
            return -1;
        if ((k->mask & TRACE_CLEAR_COLOR) && k->color_mask)
            for (uint32_t i = 0; i < k->n_color; i++) v->surf[k->color[i]].written = 1;
        if ((k->mask & TRACE_CLEAR_DEPTH) && k->depth != TRACE_NONE && k->depth_write)
            v->surf[k->depth].written = 1;
        v->clears++;
        return 0;
    }
    case TRACE_CMD_DRAW: {
        const trace_draw_t *d = &cmd->u.draw;
        uint32_t w = 0, h = 0;
        if (!v->in_frame) { tr_err(err, off, "DRAW outside a frame"); return -1; }
        if (d->index != v->frame_draws) {
            tr_err(err, off, "DRAW index %" PRIu32 ", expected %" PRIu32, d->index, v->frame_draws);
            return -1;
        }
        if (d->vs_prog != TRACE_NONE && vp_get(v, d->vs_prog) != 1 + TRACE_STAGE_VERTEX) {
            tr_err(err, off, "DRAW %" PRIu32 ": vs_prog %" PRIu32 " is not a defined vertex program", d->index,
                   d->vs_prog);
            return -1;
        }
        if (d->fs_prog != TRACE_NONE && vp_get(v, d->fs_prog) != 1 + TRACE_STAGE_FRAGMENT) {
            tr_err(err, off, "DRAW %" PRIu32 ": fs_prog %" PRIu32 " is not a defined fragment program", d->index,
                   d->fs_prog);
            return -1;
        }
        for (uint32_t i = 0; i < d->n_color; i++)
            if (v_target(v, d->color[i], TRACE_SURF_COLOR, "DRAW colour target", &w, &h, off, err)) return -1;
        if (d->depth != TRACE_NONE && v_target(v, d->depth, TRACE_SURF_DEPTH, "DRAW depth target", &w, &h, off, err))
            return -1;
        for (uint32_t i = 0; i < d->n_tex; i++)
            if (!vs_get(v, d->tex[i].surface)->defined) {
                tr_err(err, off, "DRAW %" PRIu32 ": texture unit %" PRIu32 " samples undefined surface %" PRIu32,
                       d->index, d->tex[i].unit, d->tex[i].surface);
                return -1;
            }
        uint32_t n, deps[TRACE_MAX_TEX];
        tr_validator_deps(v, d, &n, deps);
        int same = n == d->n_deps;
        for (uint32_t i = 0; same && i < n; i++) same = deps[i] == d->deps[i];
        if (!same) {
            char a[120] = "", b[120] = "";
            for (uint32_t i = 0; i < d->n_deps; i++)
                snprintf(a + strlen(a), sizeof a - strlen(a), " %" PRIu32, d->deps[i]);
            for (uint32_t i = 0; i < n; i++) snprintf(b + strlen(b), sizeof b - strlen(b), " %" PRIu32, deps[i]);
            tr_err(err, off, "DRAW %" PRIu32 ": RAW dependencies [%s ] but the stream implies [%s ]", d->index, a, b);
            return -1;
        }
        if (d->state.color_mask)
            for (uint32_t i = 0; i < d->n_color; i++) v->surf[d->color[i]].written = 1;
        if (d->depth != TRACE_NONE && d->state.depth_test && d->state.depth_write) v->surf[d->depth].written = 1;
        v->frame_draws++;
        v->draws++;
        return 0;
    }
    case TRACE_CMD_UNKNOWN:
        return 0;
    default:
        tr_err(err, off, "bad command type %d (%s)", (int)cmd->type, nm);
        return -1;
    }
}

void tr_encode_tend(const tr_validator_t *v, tr_buf_t *b)
{
    tb_u32(b, v->frames); tb_u32(b, v->draws); tb_u32(b, v->clears);
}

/* ------------------------------------------------------------------ chunk framing */
/* zlib max expansion ratio is about 1032:1; anything claiming more is hostile. */
static uint64_t max_raw_for(uint64_t stored) { return stored * 1032u + 64u; }
/* zstd: the densest block is an RLE block, 3 header bytes + 1 byte for up to 128 KiB, so a frame of n
 * bytes can never produce more than (n / 4 + 1) * 128 KiB. */
static uint64_t max_raw_zstd(uint64_t stored) { return (stored / 4u + 1u) * 131072u; }

/* Byte transforms (chunk flags bits 2-3, format 1.2; trace.h). SHUF4: the 4 bytes of each 32-bit word go
 * to 4 planes (plane k = byte k of every word), a tail of n % 4 bytes stays at the end; SHUF4_DELTA: then
 * every plane is replaced by its byte differences. Floats' sign/exponent bytes and the channels of RGBA8
 * texels end up side by side, which the compressor then finds. */
static void xform_fwd(int xf, const uint8_t *in, uint8_t *out, size_t n)
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
    size_t w = n / 4;
    for (size_t k = 0; k < 4; k++) {
        uint8_t acc = 0;
        for (size_t i = 0; i < w; i++) {
            uint8_t b = in[k * w + i];
            acc = xf == TRACE_XFORM_SHUF4_DELTA ? (uint8_t)(acc + b) : b;
            out[4 * i + k] = acc;
        }
    }
    if (n > 4 * w) memcpy(out + 4 * w, in + 4 * w, n - 4 * w);
}

/* Decompress one chunk payload (CRC of the stored bytes already checked). The allocation is `raw` bytes,
 * which the caller has bounded by TRACE_MAX_CHUNK_RAW and by what the stored bytes can expand to: for zlib
 * the ratio bound, for zstd ZSTD_decompressBound() of the frame and the frame's own content size, which
 * must both agree with the chunk header before anything is allocated. */
static uint8_t *chunk_decode(uint32_t flags, const uint8_t *sbuf, uint32_t stored, uint32_t raw, void **dctx,
                             const char *tn, uint64_t off, trace_error_t *err)
{
    unsigned codec = flags & TRACE_CHUNK_CODEC_MASK, xf = (flags & TRACE_CHUNK_XFORM_MASK) >> TRACE_CHUNK_XFORM_SHIFT;
    if (codec == TRACE_CODEC_ZSTD) {
        unsigned long long fsz = ZSTD_getFrameContentSize(sbuf, stored);
        size_t flen = ZSTD_findFrameCompressedSize(sbuf, stored);
        unsigned long long bound = max_raw_zstd(stored);
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

/* ------------------------------------------------------------------ reader */
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
    if ((flags & ~allowed) || codec == 3 || xf == 3 || (xf && !codec)) {
        tr_err(err, *chunk_off + 4, "%s chunk: unknown flags 0x%08" PRIx32 " (format 1.%" PRIu32 ": %s)", tn, flags,
               r->minor, r->minor >= 2 ? "bits 0-1 codec 0..2, bits 2-3 transform 0..2 (only with a codec), "
               "others 0" : "only bit 0, zlib");
        return -1;
    }
    *z = (int)flags;
    if (stored > r->size - r->pos) {
        tr_err(err, *chunk_off + 8, "%s chunk: stored length %" PRIu32 " exceeds the %" PRIu64
               " bytes left in the file (truncated?)", tn, stored, r->size - r->pos);
        return -1;
    }
    if (raw > TRACE_MAX_CHUNK_RAW || (codec == TRACE_CODEC_ZLIB ? raw > max_raw_for(stored)
                                      : codec == TRACE_CODEC_NONE ? raw != stored : raw > max_raw_zstd(stored))) {
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
        out = chunk_decode(flags, sbuf, stored, raw, &r->zstd_dctx, tn, *chunk_off + TRACE_CHUNK_HEADER_SIZE, err);
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
    int rc = dec_info(&c, &r->info);
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
    FILE *f = fopen(path, "rb");
    if (!f) { tr_err(err, 0, "cannot open %s: %s", path, strerror(errno)); return NULL; }
    struct stat st;
    memset(&st, 0, sizeof st);
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        fclose(f);
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
        uint32_t nf = cur_u32(&c, "n_frames"), nd = cur_u32(&c, "n_draws"), nc = cur_u32(&c, "n_clears");
        if (!c.failed && cur_left(&c)) cur_fail(&c, "%zu unexpected trailing bytes", cur_left(&c));
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
    int rc = dec_cmd(&c, tag, cmd);
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
    free(r);
}

/* ------------------------------------------------------------------ writer */
struct trace_writer {
    FILE *f;
    outf_t of;        /* file writer: temporary file renamed into place by trace_writer_close */
    tr_buf_t mem;     /* memory writer output */
    int is_mem;
    int zlevel;
    uint32_t codec;   /* codec of auto chunks: TRACE_CODEC_ZLIB or TRACE_CODEC_ZSTD */
    uint32_t minor;   /* format minor version written in the header */
    void *zstd_cctx;  /* ZSTD_CCtx, created at the first zstd chunk */
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

/* Write one chunk; z: -1 auto, else the chunk flags (codec | transform << 2). Auto: stored as is when
 * shorter than 64 bytes, when the file's level is 0 or when compression does not make it smaller; else the
 * file's codec at its level, after the byte transform (format 1.2) that compresses best at a fast level
 * (ZSTD level 1 or zlib level 1 on each candidate, ties to the simpler one), all deterministic. */
static int w_chunk(trace_writer_t *w, uint32_t tag, const uint8_t *p, size_t n, int z, trace_error_t *err)
{
    if (n > TRACE_MAX_CHUNK_RAW) {
        tr_err(err, w->pos, "chunk payload of %zu bytes exceeds the %u-byte limit", n, TRACE_MAX_CHUNK_RAW);
        return -1;
    }
    uint32_t allowed = w->minor >= 2 ? (TRACE_CHUNK_CODEC_MASK | TRACE_CHUNK_XFORM_MASK) : 1u;
    if (z >= 0) {
        unsigned c = (unsigned)z & TRACE_CHUNK_CODEC_MASK, x = ((unsigned)z & TRACE_CHUNK_XFORM_MASK) >> TRACE_CHUNK_XFORM_SHIFT;
        if (((unsigned)z & ~allowed) || c == 3 || x == 3 || (x && !c)) {
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
    } else if (n >= 64 && w->zlevel > 0) {
        codec = w->codec;
        if (w->minor >= 2 && n >= 256) {
            /* choose the transform on a fast level */
            size_t best = 0;
            uint8_t *t = malloc(n);
            if (!t) { tr_err(err, w->pos, "out of memory"); return -1; }
            for (unsigned cand = TRACE_XFORM_NONE; cand <= TRACE_XFORM_SHUF4_DELTA; cand++) {
                const uint8_t *src = p;
                if (cand) { xform_fwd((int)cand, p, t, n); src = t; }
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
            xform_fwd((int)xf, p, tbuf, n);
            src = tbuf;
        }
        if (w_compress(w, codec, level, src, n, &zb, &zlen)) {
            free(tbuf);
            tr_err(err, w->pos, "%s compression failed", codec == TRACE_CODEC_ZSTD ? "zstd" : "zlib");
            return -1;
        }
        free(tbuf);
        if (z < 0 && zlen >= n) { free(zb); zb = NULL; codec = 0; xf = 0; }
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
    if (dec_info(&c, &w->info)) { free(b.p); goto fail; }
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
    if (dec_cmd(&c, tag, &chk) || tr_validate(w->v, &chk, w->pos, err)) {
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
    free(w);
}

/* ------------------------------------------------------------------ re-pack */
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

/* ------------------------------------------------------------------ summary */
int trace_summarize(trace_reader_t *r, trace_summary_t *s, trace_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->width = r->info.width;
    s->height = r->info.height;
    trace_cmd_t cmd = {0};
    uint32_t prev_rt[TRACE_MAX_COLOR_RT + 2] = {0}, prev_n = 0, frame_draws = 0;
    int have_prev = 0, rc;
    while ((rc = trace_reader_next(r, &cmd, err)) == 1) {
        uint32_t rt[TRACE_MAX_COLOR_RT + 2], n = 0;
        switch (cmd.type) {
        case TRACE_CMD_SURFACE: s->surfaces++; break;
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
            if (cmd.type == TRACE_CMD_CLEAR) { s->clears++; break; }
            const trace_draw_t *d = &cmd.u.draw;
            s->draws++;
            frame_draws++;
            s->prims += trace_draw_prims(d);
            s->verts += d->n_verts;
            s->indices += d->n_indices;
            s->raw_deps += d->n_deps;
            s->raw_dep_draws += d->n_deps > 0;
            for (uint32_t i = 0; i < d->n_deps; i++) {
                const trace_surface_t *ts = trace_reader_surface(r, d->deps[i]);
                if (ts) s->raw_dep_bytes += (uint64_t)ts->width * ts->height * 4;
            }
            s->approx_draws += d->flags != 0;
            if (d->ref_pixels >= 0) s->ref_pixels += d->ref_pixels;
            break;
        }
        default: break;
        }
    }
    trace_cmd_free(&cmd);
    return rc < 0 ? -1 : 0;
}
