/* Trace library: the binary encoding of the header and of every command (byte buffer, bounds-checked
 * cursor, per-command encode and decode).
 * See trace.h and docs/trace-format.md. */
#include "trace/trace.h"
#include "trace/trace_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- byte buffer (encoding) ---- */
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

/* ---- cursor (decoding) ---- */
void tr_cur_fail(tr_cur_t *c, const char *fmt, ...)
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
size_t tr_cur_left(const tr_cur_t *c) { return c->len - c->pos; }
uint32_t tr_cur_u32(tr_cur_t *c, const char *field)
{
    if (c->failed) return 0;
    if (tr_cur_left(c) < 4) { tr_cur_fail(c, "truncated payload reading %s", field); return 0; }
    const uint8_t *p = c->p + c->pos;
    c->pos += 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static float cur_f32(tr_cur_t *c, const char *field)
{
    uint32_t u = tr_cur_u32(c, field);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static int32_t cur_i32(tr_cur_t *c, const char *field) { return (int32_t)tr_cur_u32(c, field); }
static int64_t cur_i64(tr_cur_t *c, const char *field)
{
    uint64_t lo = tr_cur_u32(c, field), hi = tr_cur_u32(c, field);
    return (int64_t)(lo | hi << 32);
}
/* A u32 field that must be <= max: on failure the error names the field, value and the limit. The
 * offset reported is that of the field itself. */
static uint32_t cur_u32_max(tr_cur_t *c, const char *field, uint32_t max)
{
    size_t at = c->pos;
    uint32_t v = tr_cur_u32(c, field);
    if (!c->failed && v > max) {
        c->pos = at;
        tr_cur_fail(c, "%s = %" PRIu32 " out of range (max %" PRIu32 ")", field, v, max);
    }
    return v;
}
/* A count of elements of elem_size bytes that must fit in the remaining payload (caps allocations). */
static uint32_t cur_count(tr_cur_t *c, const char *field, size_t elem_size, uint32_t max)
{
    size_t at = c->pos;
    uint32_t v = cur_u32_max(c, field, max);
    if (!c->failed && (uint64_t)v * elem_size > tr_cur_left(c)) {
        c->pos = at;
        tr_cur_fail(c, "%s = %" PRIu32 " needs %" PRIu64 " bytes but only %zu remain in the chunk", field, v,
                    (uint64_t)v * elem_size, tr_cur_left(c) + 4);
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
            tr_cur_fail(c, "%s contains a NUL byte", field);
            return NULL;
        }
    char *s = malloc((size_t)n + 1);
    if (!s) { tr_cur_fail(c, "out of memory"); return NULL; }
    memcpy(s, c->p + c->pos, n);
    s[n] = 0;
    c->pos += n;
    return s;
}
static void *cur_alloc(tr_cur_t *c, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) tr_cur_fail(c, "out of memory (%zu bytes)", n);
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
    for (size_t i = 0; i < n; i++) v[i] = tr_cur_u32(c, field);
    return v;
}
static uint32_t cur_bool(tr_cur_t *c, const char *f) { return cur_u32_max(c, f, 1); }
static float cur_finite(tr_cur_t *c, const char *field)
{
    size_t at = c->pos;
    float f = cur_f32(c, field);
    if (!c->failed && !isfinite(f)) { c->pos = at; tr_cur_fail(c, "%s is not finite", field); }
    return f;
}
static uint32_t cur_surf_id(tr_cur_t *c, const char *field, int allow_none)
{
    size_t at = c->pos;
    uint32_t v = tr_cur_u32(c, field);
    if (!c->failed && !(v <= TRACE_MAX_ID || (allow_none && v == TRACE_NONE))) {
        c->pos = at;
        tr_cur_fail(c, "%s = %" PRIu32 " is not a valid id (0..%u%s)", field, v, TRACE_MAX_ID,
                    allow_none ? " or 0xffffffff" : "");
    }
    return v;
}

/* ---- per-command encode / decode ---- */
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
    tr_cur_fail(c, "%s rectangle is empty (w %" PRIu32 ", h %" PRIu32 "; both must be >= 1%s)", what, w, h,
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

uint32_t trace_format_bytes(uint32_t fmt)
{
    switch (fmt) {
    case TRACE_FMT_RGBA16F: case TRACE_FMT_RG32F: return 8;
    case TRACE_FMT_RGBA32F: return 16;
    default: return 4;
    }
}

int tr_encode_info(tr_buf_t *b, const trace_info_t *info)
{
    tb_u32(b, info->width); tb_u32(b, info->height); tb_u32(b, info->n_frames);
    tb_str(b, info->name); tb_str(b, info->source); tb_str(b, info->notes);
    return b->failed ? -1 : 0;
}

int tr_dec_info(tr_cur_t *c, trace_info_t *info)
{
    memset(info, 0, sizeof *info);
    info->width = cur_u32_max(c, "width", TRACE_MAX_DIM);
    info->height = cur_u32_max(c, "height", TRACE_MAX_DIM);
    if (!c->failed && (info->width == 0 || info->height == 0)) tr_cur_fail(c, "screen size is zero");
    info->n_frames = cur_u32_max(c, "n_frames", 1u << 20);
    info->name = cur_str(c, "name");
    info->source = cur_str(c, "source");
    info->notes = cur_str(c, "notes");
    if (!c->failed && tr_cur_left(c)) tr_cur_fail(c, "%zu unexpected trailing bytes", tr_cur_left(c));
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
        if (b->minor >= 4) tb_u32(b, d->state_flags);
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
    s->format = cur_u32_max(c, "format", c->minor >= 3 ? TRACE_FMT_MAX : TRACE_FMT_DEPTH32F);
    if (!c->failed && (s->format == 0 || (s->kind == TRACE_SURF_COLOR) != (s->format == TRACE_FMT_RGBA8 || s->format >= TRACE_FMT_RGBA16F))) {
        c->pos = at;
        tr_cur_fail(c, "format %" PRIu32 " does not fit surface kind %" PRIu32, s->format, s->kind);
    }
    s->width = cur_u32_max(c, "width", TRACE_MAX_DIM);
    s->height = cur_u32_max(c, "height", TRACE_MAX_DIM);
    if (!c->failed && (s->width == 0 || s->height == 0)) tr_cur_fail(c, "surface size is zero");
    s->flags = cur_u32_max(c, "flags", TRACE_SURF_F_DEFAULT_FB | TRACE_SURF_F_HAS_DATA);
    at = c->pos;
    s->data_len = cur_count(c, "data_len", 1, TRACE_MAX_CHUNK_RAW);
    if (!c->failed) {
        uint64_t want = (s->flags & TRACE_SURF_F_HAS_DATA) ? (uint64_t)s->width * s->height * trace_format_bytes(s->format)
                                                           : 0;
        if (s->data_len != want) {
            c->pos = at;
            tr_cur_fail(c, "data_len = %" PRIu32 " but the surface needs %" PRIu64, s->data_len, want);
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
    k->src_call = tr_cur_u32(c, "src_call");
    k->n_color = cur_u32_max(c, "n_color", TRACE_MAX_COLOR_RT);
    for (uint32_t i = 0; i < k->n_color && !c->failed; i++) k->color[i] = cur_surf_id(c, "color target", 0);
    k->depth = cur_surf_id(c, "depth target", 1);
    size_t at = c->pos;
    k->mask = cur_u32_max(c, "mask", 7);
    if (!c->failed && k->mask == 0) { c->pos = at; tr_cur_fail(c, "clear mask is empty"); }
    for (int i = 0; i < 4; i++) k->color_value[i] = cur_finite(c, "color value");
    k->depth_value = cur_finite(c, "depth value");
    k->stencil_value = tr_cur_u32(c, "stencil value");
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
    d->index = tr_cur_u32(c, "index");
    d->src_call = tr_cur_u32(c, "src_call");
    size_t at = c->pos;
    d->prim = cur_u32_max(c, "prim", c->minor >= 2 ? TRACE_PRIM_MAX : TRACE_PRIM_TRIANGLES);
    at = c->pos;
    d->n_attribs = cur_u32_max(c, "n_attribs", c->minor >= 3 ? TRACE_MAX_ATTRIBS : 8u);
    if (!c->failed && d->n_attribs == 0) { c->pos = at; tr_cur_fail(c, "n_attribs is 0 (position required)"); }
    d->stride = 0;
    for (uint32_t i = 0; i < d->n_attribs && !c->failed; i++) {
        at = c->pos;
        d->attribs[i].semantic = cur_u32_max(c, "attrib.semantic", TRACE_SEM_GENERIC);
        if (!c->failed && (i == 0) != (d->attribs[i].semantic == TRACE_SEM_POSITION)) {
            c->pos = at;
            tr_cur_fail(c, "attribute %" PRIu32 ": the position must be attribute 0 and only it", i);
        }
        at = c->pos;
        d->attribs[i].comps = cur_u32_max(c, "attrib.comps", 4);
        if (!c->failed && (d->attribs[i].comps == 0 || (i == 0 && d->attribs[i].comps < 3))) {
            c->pos = at;
            tr_cur_fail(c, "attribute %" PRIu32 " has %" PRIu32 " components", i, d->attribs[i].comps);
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
        tr_cur_fail(c, "n_indices = %" PRIu32 " is not a multiple of 3 (triangle list)", d->n_indices);
    }
    if (!c->failed && d->prim == TRACE_PRIM_LINES && d->n_indices % 2) {
        c->pos = at;
        tr_cur_fail(c, "n_indices = %" PRIu32 " is not a multiple of 2 (line list)", d->n_indices);
    }
    if (c->failed) return;
    d->indices = cur_alloc(c, (size_t)d->n_indices * 4);
    for (uint32_t i = 0; i < d->n_indices && !c->failed; i++) {
        at = c->pos;
        d->indices[i] = tr_cur_u32(c, "index");
        if (d->indices[i] >= d->n_verts) {
            c->pos = at;
            tr_cur_fail(c, "index[%" PRIu32 "] = %" PRIu32 " >= n_verts %" PRIu32, i, d->indices[i], d->n_verts);
        }
    }
    d->vs_prog = cur_surf_id(c, "vs_prog", 1);
    d->fs_prog = cur_surf_id(c, "fs_prog", 1);
    d->n_vs_consts = cur_count(c, "n_vs_consts", 16, 4096);
    d->vs_consts = cur_f32s(c, 4 * (size_t)d->n_vs_consts, "vs constant");
    d->n_fs_consts = cur_count(c, "n_fs_consts", 16, 4096);
    d->fs_consts = cur_f32s(c, 4 * (size_t)d->n_fs_consts, "fs constant");
    d->cost.vs_instr = tr_cur_u32(c, "cost.vs_instr");
    d->cost.vs_tex = tr_cur_u32(c, "cost.vs_tex");
    d->cost.fs_instr = tr_cur_u32(c, "cost.fs_instr");
    d->cost.fs_tex = tr_cur_u32(c, "cost.fs_tex");
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
            tr_cur_fail(c, "texture units not strictly increasing (%" PRIu32 " after %" PRIu32 ")", t->unit,
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
    if (!c->failed && d->ref_pixels < -1) { c->pos = at; tr_cur_fail(c, "ref_pixels = %" PRId64 " < -1", d->ref_pixels); }
    d->flags = cur_u32_max(c, "flags", c->minor >= 2 ? TRACE_DRAW_F_ALL : 15u);
    d->line_width = d->point_size = 1.0f;
    d->prim_flags = 0;
    if (c->minor >= 2) {
        at = c->pos;
        d->line_width = cur_finite(c, "line_width");
        if (!c->failed && !(d->line_width > 0.0f && d->line_width <= TRACE_MAX_LINE_WIDTH)) {
            c->pos = at;
            tr_cur_fail(c, "line_width = %g out of range (0, %g]", (double)d->line_width, (double)TRACE_MAX_LINE_WIDTH);
        }
        at = c->pos;
        d->point_size = cur_finite(c, "point_size");
        if (!c->failed && !(d->point_size > 0.0f && d->point_size <= TRACE_MAX_LINE_WIDTH)) {
            c->pos = at;
            tr_cur_fail(c, "point_size = %g out of range (0, %g]", (double)d->point_size, (double)TRACE_MAX_LINE_WIDTH);
        }
        d->prim_flags = cur_u32_max(c, "prim_flags", TRACE_PRIMF_ALL);
    }
    d->state_flags = 0;
    if (c->minor >= 4) d->state_flags = cur_u32_max(c, "state_flags", TRACE_STATEF_ALL);
}

const char *trace_prim_name(uint32_t prim)
{
    static const char *const names[] = {"triangles", "lines", "line_strip", "line_loop", "points"};
    return prim <= TRACE_PRIM_MAX ? names[prim] : "unknown";
}

/* Decode one chunk payload into cmd (type by tag). On error cmd is freed. */
int tr_dec_cmd(tr_cur_t *c, uint32_t tag, trace_cmd_t *cmd)
{
    memset(cmd, 0, sizeof *cmd);
    if (tag == trace_fourcc("SURF")) { cmd->type = TRACE_CMD_SURFACE; dec_surface(c, &cmd->u.surface); }
    else if (tag == trace_fourcc("PROG")) { cmd->type = TRACE_CMD_PROGRAM; dec_program(c, &cmd->u.program); }
    else if (tag == trace_fourcc("FRMB") || tag == trace_fourcc("FRME")) {
        cmd->type = tag == trace_fourcc("FRMB") ? TRACE_CMD_FRAME_BEGIN : TRACE_CMD_FRAME_END;
        cmd->u.frame.index = tr_cur_u32(c, "index");
        cmd->u.frame.src_frame = tr_cur_u32(c, "src_frame");
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
    if (!c->failed && tr_cur_left(c)) tr_cur_fail(c, "%zu unexpected trailing bytes", tr_cur_left(c));
    if (c->failed) { trace_cmd_free(cmd); return -1; }
    return 0;
}
