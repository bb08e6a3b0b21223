/* A small deterministic synthetic trace (see trace_write_synthetic in trace.h). */
#include "trace/trace.h"

#include <stdlib.h>
#include <string.h>

#define SW 64u
#define SH 48u
#define RT 32u

static char *dupstr(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d) strcpy(d, s);
    return d;
}

static int put_surface(trace_writer_t *w, uint32_t id, uint32_t kind, uint32_t wd, uint32_t ht, uint32_t flags,
                       const char *label, trace_error_t *err)
{
    trace_cmd_t c;
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_SURFACE;
    c.zflag = -1;
    trace_surface_t *s = &c.u.surface;
    s->id = id;
    s->kind = kind;
    s->format = kind == TRACE_SURF_COLOR ? TRACE_FMT_RGBA8 : TRACE_FMT_DEPTH32F;
    s->width = wd;
    s->height = ht;
    s->flags = flags;
    s->label = (char *)label;
    return trace_writer_put(w, &c, err);
}

static int put_program(trace_writer_t *w, uint32_t id, uint32_t stage, const char *name, const char *origin,
                       trace_error_t *err)
{
    trace_cmd_t c;
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_PROGRAM;
    c.zflag = -1;
    c.u.program.id = id;
    c.u.program.stage = stage;
    c.u.program.name = (char *)name;
    c.u.program.origin = (char *)origin;
    return trace_writer_put(w, &c, err);
}

static int put_frame(trace_writer_t *w, trace_cmd_type_t ty, uint32_t idx, trace_error_t *err)
{
    trace_cmd_t c;
    memset(&c, 0, sizeof c);
    c.type = ty;
    c.zflag = -1;
    c.u.frame.index = idx;
    c.u.frame.src_frame = 100 + idx;
    return trace_writer_put(w, &c, err);
}

static int put_clear(trace_writer_t *w, uint32_t col, uint32_t depth, float r, float g, float b, uint32_t call,
                     trace_error_t *err)
{
    trace_cmd_t c;
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_CLEAR;
    c.zflag = -1;
    trace_clear_t *k = &c.u.clear;
    k->src_call = call;
    k->n_color = 1;
    k->color[0] = col;
    k->depth = depth;
    k->mask = TRACE_CLEAR_COLOR | TRACE_CLEAR_DEPTH;
    k->color_value[0] = r;
    k->color_value[1] = g;
    k->color_value[2] = b;
    k->color_value[3] = 1.0f;
    k->depth_value = 1.0f;
    k->color_mask = 15;
    k->depth_write = 1;
    return trace_writer_put(w, &c, err);
}

/* MVP rows: a simple perspective projection (fovy 90, aspect a, near 1, far 10) times a translation. */
static void mvp(float *c, float aspect, float tz)
{
    const float n = 1.0f, f = 10.0f;
    float m[16] = {1.0f / aspect, 0, 0, 0,
                   0, 1, 0, 0,
                   0, 0, -(f + n) / (f - n), -2 * f * n / (f - n),
                   0, 0, -1, 0};
    /* times translate(0,0,tz): column 3 += column 2 * tz */
    for (int r = 0; r < 4; r++) m[r * 4 + 3] += m[r * 4 + 2] * tz;
    memcpy(c, m, sizeof m);
}

static int put_draw(trace_writer_t *w, trace_draw_t *d, trace_error_t *err)
{
    trace_cmd_t c;
    memset(&c, 0, sizeof c);
    c.type = TRACE_CMD_DRAW;
    c.zflag = -1;
    trace_writer_fill_deps(w, d);
    c.u.draw = *d;
    return trace_writer_put(w, &c, err);
}

static int screen_pass(trace_writer_t *w, uint32_t *draw, int with_tex, uint32_t call, trace_error_t *err)
{
    float consts[16];
    trace_draw_t d;
    /* textured quad sampling the render-to-texture result (pos xyzw + uv) */
    if (with_tex) {
        float v[4 * 6] = {-1, -1, 0, 1, 0, 0, 1, -1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, -1, 1, 0, 1, 0, 1};
        uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
        trace_draw_init(&d);
        d.index = (*draw)++;
        d.src_call = call + 10;
        d.n_attribs = 2;
        d.attribs[1].semantic = TRACE_SEM_TEXCOORD0;
        d.attribs[1].comps = 2;
        d.n_verts = 4;
        d.verts = v;
        d.n_indices = 6;
        d.indices = idx;
        d.vs_prog = 0;
        d.fs_prog = 2;
        mvp(consts, (float)SW / SH, -2.5f);
        d.n_vs_consts = 4;
        d.vs_consts = consts;
        d.cost = (trace_cost_t){4, 0, 2, 1};
        trace_state_default(&d.state, SW, SH);
        d.state.depth_test = 1;
        d.n_color = 1;
        d.color[0] = 0;
        d.depth = 1;
        d.n_tex = 1;
        d.tex[0] = (trace_texbind_t){0, 2, TRACE_FILTER_LINEAR, TRACE_FILTER_LINEAR, TRACE_WRAP_CLAMP_TO_EDGE,
                                     TRACE_WRAP_CLAMP_TO_EDGE};
        d.ref_pixels = 1240;
        if (put_draw(w, &d, err)) return -1;
    }
    /* blended coloured triangle crossing the near plane (z from -0.5 to -4 in eye space) */
    {
        float v[3 * 7] = {-1.5f, -1, 1.0f, 1, 1, 0, 0, 1.5f, -1, 1.0f, 1, 0, 1, 0, 0, 1.2f, -1.5f, 1, 0, 0, 1};
        uint32_t idx[3] = {0, 1, 2};
        float fsc[4] = {1, 1, 1, 0.5f};
        trace_draw_init(&d);
        d.index = (*draw)++;
        d.src_call = call + 20;
        d.n_attribs = 2;
        d.attribs[0].comps = 3;
        d.attribs[1].semantic = TRACE_SEM_COLOR;
        d.attribs[1].comps = 4;
        d.n_verts = 3;
        d.verts = v;
        d.n_indices = 3;
        d.indices = idx;
        d.vs_prog = 0;
        d.fs_prog = 1;
        mvp(consts, (float)SW / SH, -2.0f);
        d.n_vs_consts = 4;
        d.vs_consts = consts;
        d.n_fs_consts = 1;
        d.fs_consts = fsc;
        d.cost = (trace_cost_t){4, 0, 1, 0};
        trace_state_default(&d.state, SW, SH);
        d.state.depth_test = 1;
        d.state.depth_func = TRACE_CMP_LEQUAL;
        d.state.depth_write = 0;
        d.state.blend_en = 1;
        d.state.src_rgb = d.state.src_a = TRACE_BF_SRC_ALPHA;
        d.state.dst_rgb = d.state.dst_a = TRACE_BF_ONE_MINUS_SRC_ALPHA;
        d.state.cull = TRACE_CULL_BACK;
        d.state.scissor_en = 1;
        d.state.sc_x = 4;
        d.state.sc_y = 4;
        d.state.sc_w = SW - 8;
        d.state.sc_h = SH - 8;
        d.n_color = 1;
        d.color[0] = 0;
        d.depth = 1;
        d.flags = TRACE_DRAW_F_FS_APPROX;
        if (put_draw(w, &d, err)) return -1;
    }
    return 0;
}

int trace_write_synthetic(const char *path, int zlevel, trace_error_t *err)
{
    trace_info_t info = {SW, SH, 2, dupstr("synthetic"), dupstr("trace_write_synthetic() in cmodel/trace/trace_synth.c"),
                         dupstr("synthetic: no capture; programs have no ISA words")};
    trace_writer_t *w = NULL;
    int rc = -1;
    if (!info.name || !info.source || !info.notes) goto out;
    w = trace_writer_open_file(path, &info, zlevel, err);
    if (!w) goto out;
    if (put_surface(w, 0, TRACE_SURF_COLOR, SW, SH, TRACE_SURF_F_DEFAULT_FB, "default colour", err) ||
        put_surface(w, 1, TRACE_SURF_DEPTH, SW, SH, TRACE_SURF_F_DEFAULT_FB, "default depth", err) ||
        put_surface(w, 2, TRACE_SURF_COLOR, RT, RT, 0, "rtt colour", err) ||
        put_surface(w, 3, TRACE_SURF_DEPTH, RT, RT, 0, "rtt depth", err) ||
        put_program(w, 0, TRACE_STAGE_VERTEX, "vs_mvp", "synthetic: gl_Position = MVP * pos", err) ||
        put_program(w, 1, TRACE_STAGE_FRAGMENT, "fs_color", "synthetic: colour * c0", err) ||
        put_program(w, 2, TRACE_STAGE_FRAGMENT, "fs_tex_modulate", "synthetic: texture(s0, uv)", err))
        goto out;
    for (uint32_t f = 0; f < 2; f++) {
        uint32_t draw = 0;
        if (put_frame(w, TRACE_CMD_FRAME_BEGIN, f, err)) goto out;
        if (f == 0) {
            /* render-to-texture pass: a fan of 6 triangles, colour per vertex */
            float v[7 * 8];
            uint32_t idx[18];
            for (int i = 0; i < 7; i++) {
                float a = 6.2831853f * (float)i / 6.0f;
                float *p = v + i * 8;
                p[0] = i == 0 ? 0.0f : 0.9f * (a < 3.2f ? 1.0f : -1.0f) * (float)(i % 3) / 2.0f;
                p[1] = i == 0 ? 0.0f : (float)((i * 37) % 11) / 6.0f - 0.8f;
                p[2] = -0.1f * (float)i;
                p[3] = 1.0f;
                p[4] = (float)(i & 1);
                p[5] = (float)((i >> 1) & 1);
                p[6] = (float)((i >> 2) & 1);
                p[7] = 1.0f;
            }
            for (int t = 0; t < 6; t++) {
                idx[3 * t] = 0;
                idx[3 * t + 1] = (uint32_t)(1 + t);
                idx[3 * t + 2] = (uint32_t)(1 + (t + 1) % 6);
            }
            float consts[16];
            mvp(consts, 1.0f, -2.0f);
            if (put_clear(w, 2, 3, 0.2f, 0.3f, 0.4f, 10, err)) goto out;
            trace_draw_t d;
            trace_draw_init(&d);
            d.index = draw++;
            d.src_call = 11;
            d.n_attribs = 2;
            d.attribs[1].semantic = TRACE_SEM_COLOR;
            d.attribs[1].comps = 4;
            d.n_verts = 7;
            d.verts = v;
            d.n_indices = 18;
            d.indices = idx;
            d.vs_prog = 0;
            d.fs_prog = 1;
            d.n_vs_consts = 4;
            d.vs_consts = consts;
            float one[4] = {1, 1, 1, 1};
            d.n_fs_consts = 1;
            d.fs_consts = one;
            d.cost = (trace_cost_t){4, 0, 1, 0};
            trace_state_default(&d.state, RT, RT);
            d.state.depth_test = 1;
            d.state.poly_offset_en = 1;
            d.state.poly_factor = 1.0f;
            d.state.poly_units = 2.0f;
            d.n_color = 1;
            d.color[0] = 2;
            d.depth = 3;
            d.ref_pixels = 512;
            if (put_draw(w, &d, err)) goto out;
        }
        if (put_clear(w, 0, 1, 0.0f, 0.0f, 0.0f, 100 * f + 50, err)) goto out;
        if (screen_pass(w, &draw, f == 0, 100 * f + 50, err)) goto out;
        if (put_frame(w, TRACE_CMD_FRAME_END, f, err)) goto out;
    }
    rc = trace_writer_close(w, NULL, NULL, err);
    w = NULL;
out:
    if (w) trace_writer_abort(w);
    trace_info_free(&info);
    return rc;
}
