#include "sys/trace_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/frag.h"
#include "gpu/isa_backend.h"
#include "trace/trace.h"

typedef struct {
    sys_scene_t *s;
    int32_t map[TRACE_MAX_ID + 1];
    const char *fs_name[TRACE_MAX_ID + 1];
    const gpu_isa_prog_t *prog[TRACE_MAX_ID + 1];   /* programs that carry ISA words */
    uint8_t dfb[TRACE_MAX_ID + 1];                   /* 1: the surface is the default framebuffer's */
    char *names;                 /* storage for program names */
    sys_trace_info_t *info;
    char *err;
    size_t err_len;
    int have_frame;
    uint32_t frame;
} ts_t;

static int ts_fail(ts_t *t, const char *msg, uint64_t off)
{
    snprintf(t->err, t->err_len, "trace offset %llu: %s", (unsigned long long)off, msg);
    return -1;
}

/* Model format of a trace surface format (the float formats map one to one). */
static gpu_format_t model_format(uint32_t f)
{
    switch (f) {
    case TRACE_FMT_RGBA8: return GPU_FMT_RGBA8;
    case TRACE_FMT_RGBA16F: return GPU_FMT_RGBA16F;
    case TRACE_FMT_RGBA32F: return GPU_FMT_RGBA32F;
    case TRACE_FMT_R16F: return GPU_FMT_R16F;
    case TRACE_FMT_R32F: return GPU_FMT_R32F;
    case TRACE_FMT_RG16F: return GPU_FMT_RG16F;
    case TRACE_FMT_RG32F: return GPU_FMT_RG32F;
    default: return GPU_FMT_DEPTH24;
    }
}

static uint32_t *convert_data(const trace_surface_t *ts)
{
    gpu_format_t mf = model_format(ts->format);
    size_t n = (size_t)ts->width * ts->height;
    if (gpu_fmt_is_float(mf)) {     /* the trace's layout is the model's (trace.h): copied as it is */
        size_t nb = n * 4 * gpu_fmt_words(mf);
        uint32_t *d = calloc(nb, 1);
        if (d && (ts->flags & TRACE_SURF_F_HAS_DATA) && ts->data && ts->data_len == nb) memcpy(d, ts->data, nb);
        return d;
    }
    uint32_t *d = malloc(n * 4);
    if (!d) return NULL;
    if (!(ts->flags & TRACE_SURF_F_HAS_DATA) || !ts->data) {
        memset(d, 0, n * 4);
        return d;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t v;
        memcpy(&v, ts->data + 4 * i, 4);
        if (ts->format == TRACE_FMT_DEPTH32F) {
            float f;
            memcpy(&f, &v, 4);
            if (!(f > 0.0f)) f = 0.0f;
            if (f > 1.0f) f = 1.0f;
            v = (uint32_t)llrint((double)f * (double)GPU_DEPTH_MAX);
        } else if (ts->format == TRACE_FMT_DEPTH24) {
            v &= GPU_DEPTH_MAX;
        }
        d[i] = v;
    }
    return d;
}

static int on_surface(ts_t *t, const trace_cmd_t *c)
{
    const trace_surface_t *ts = &c->u.surface;
    gpu_format_t fmt = model_format(ts->format);
    int32_t id = t->map[ts->id];
    if (id >= 0) {
        const sys_surface_desc_t *sd = &t->s->surf[id];
        if (sd->w != ts->width || sd->h != ts->height || sd->fmt != fmt)
            return ts_fail(t, "surface redefined with another size or format (not supported by the model)", c->offset);
        if (!(ts->flags & TRACE_SURF_F_HAS_DATA)) return 0;
        uint32_t *d = sys_scene_own(t->s, convert_data(ts));
        if (!d) return ts_fail(t, "out of memory", c->offset);
        if (!t->have_frame) {
            t->s->surf[id].init = d;
            return 0;
        }
        sys_cmd_t *u = sys_scene_add_cmd(t->s, t->frame);
        if (!u) return ts_fail(t, "out of memory", c->offset);
        u->kind = SYS_CMD_UPLOAD;
        u->surface = id;
        u->data = d;
        return 0;
    }
    const uint32_t *init = NULL;
    if (ts->flags & TRACE_SURF_F_HAS_DATA) {
        init = sys_scene_own(t->s, convert_data(ts));
        if (!init) return ts_fail(t, "out of memory", c->offset);
    }
    id = sys_scene_add_surface(t->s, ts->width, ts->height, fmt, init);
    if (id < 0) return ts_fail(t, "more surfaces than the model supports (GPU_MAX_SURFACES = 1024)", c->offset);
    t->map[ts->id] = id;
    t->dfb[ts->id] = (uint8_t)((ts->flags & TRACE_SURF_F_DEFAULT_FB) != 0);
    if ((ts->flags & TRACE_SURF_F_DEFAULT_FB) && fmt == GPU_FMT_RGBA8 && t->s->display < 0) t->s->display = id;
    return 0;
}

static int32_t surf_of(ts_t *t, uint32_t tid)
{
    if (tid == TRACE_NONE || tid > TRACE_MAX_ID) return -1;
    return t->map[tid];
}

static int on_clear(ts_t *t, const trace_cmd_t *c)
{
    const trace_clear_t *cl = &c->u.clear;
    if (cl->mask & TRACE_CLEAR_COLOR)
        for (uint32_t i = 0; i < cl->n_color && i < TRACE_MAX_COLOR_RT; i++) {
            int32_t sid = surf_of(t, cl->color[i]);
            if (sid < 0) continue;
            sys_cmd_t *o = sys_scene_add_cmd(t->s, t->frame);
            if (!o) return ts_fail(t, "out of memory", c->offset);
            o->kind = SYS_CMD_CLEAR;
            o->surface = sid;
            o->value = gpu_pack_rgba8(cl->color_value);
            memcpy(o->color, cl->color_value, sizeof o->color);
            o->mask = (uint8_t)(cl->color_mask & 0xF);
            if (cl->scissor_en) { o->sx = cl->sc_x; o->sy = cl->sc_y; o->sw = cl->sc_w ? cl->sc_w : 0; o->sh = cl->sc_h; if (!o->sw || !o->sh) o->mask = 0; }
        }
    if ((cl->mask & TRACE_CLEAR_DEPTH) && cl->depth_write) {
        int32_t sid = surf_of(t, cl->depth);
        if (sid >= 0) {
            sys_cmd_t *o = sys_scene_add_cmd(t->s, t->frame);
            if (!o) return ts_fail(t, "out of memory", c->offset);
            o->kind = SYS_CMD_CLEAR;
            o->surface = sid;
            float d = cl->depth_value;
            if (!(d > 0.0f)) d = 0.0f;
            if (d > 1.0f) d = 1.0f;
            o->value = (uint32_t)llrint((double)d * (double)GPU_DEPTH_MAX);
            o->mask = 0xF;
            if (cl->scissor_en) { o->sx = cl->sc_x; o->sy = cl->sc_y; o->sw = cl->sc_w; o->sh = cl->sc_h; }
        }
    }
    return 0;
}

static int contains(const char *s, const char *w) { return s && strstr(s, w) != NULL; }

static int on_draw(ts_t *t, const trace_cmd_t *c)
{
    const trace_draw_t *d = &c->u.draw;
    /* draws that cannot produce a pixel are dropped (counted): no primitive, empty viewport, no target */
    if (trace_draw_prims(d) == 0 || d->state.vp_w == 0 || d->state.vp_h == 0 || (d->n_color == 0 && d->depth == TRACE_NONE)) {
        t->info->skipped++;
        return 0;
    }
    sys_cmd_t *o = sys_scene_add_cmd(t->s, t->frame);
    if (!o) return ts_fail(t, "out of memory", c->offset);
    o->kind = SYS_CMD_DRAW;
    o->ref_pixels = d->ref_pixels;
    o->src_index = d->index;
    gpu_draw_t *g = &o->draw;
    static const gpu_topo_t topo_of[TRACE_PRIM_MAX + 1] = {GPU_TOPO_TRIANGLES, GPU_TOPO_LINES, GPU_TOPO_LINE_STRIP,
                                                            GPU_TOPO_LINE_LOOP, GPU_TOPO_POINTS};
    g->topo = topo_of[d->prim <= TRACE_PRIM_MAX ? d->prim : 0];
    g->n_attribs = 3;
    g->n_varyings = 2;
    g->n_vertices = d->n_verts;
    const gpu_isa_prog_t *cvs = d->vs_prog <= TRACE_MAX_ID ? t->prog[d->vs_prog] : NULL;
    int compiled = cvs && cvs->compiled && d->n_attribs >= 1 && d->n_attribs <= GPU_MAX_ATTRIBS;
    if (compiled) g->n_attribs = d->n_attribs;
    float *v = sys_scene_own(t->s, malloc((size_t)(d->n_verts ? d->n_verts : 1) * 4 * g->n_attribs * sizeof(float)));
    uint32_t *ix = sys_scene_own(t->s, malloc((size_t)d->n_indices * sizeof(uint32_t)));
    if (!v || !ix) return ts_fail(t, "out of memory", c->offset);
    if (compiled) {
        /* compiled programs: attribute i of the DRAW is a[4i..4i+3] of the vertex program, missing
         * components (0, 0, 0, 1) as GL defines */
        uint32_t off = 0;
        for (uint32_t a = 0; a < d->n_attribs; a++) {
            for (uint32_t i = 0; i < d->n_verts; i++) {
                float *dst = &v[((size_t)i * g->n_attribs + a) * 4];
                dst[0] = dst[1] = dst[2] = 0.0f;
                dst[3] = 1.0f;
                for (uint32_t k = 0; k < d->attribs[a].comps && k < 4; k++) dst[k] = d->verts[(size_t)i * d->stride + off + k];
            }
            off += d->attribs[a].comps;
        }
    }
    int slot_of_sem[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    uint32_t offs[TRACE_MAX_ATTRIBS], off = 0;
    for (uint32_t a = 0; a < d->n_attribs && a < TRACE_MAX_ATTRIBS; a++) {
        offs[a] = off;
        off += d->attribs[a].comps;
        uint32_t sem = d->attribs[a].semantic;
        int slot = sem == TRACE_SEM_POSITION ? 0 : sem == TRACE_SEM_COLOR ? 1 : sem == TRACE_SEM_TEXCOORD0 ? 2 : -1;
        if (slot >= 0 && slot_of_sem[slot] < 0) slot_of_sem[slot] = (int)a;
    }
    static const float defaults[3][4] = {{0, 0, 0, 1}, {1, 1, 1, 1}, {0, 0, 0, 1}};
    for (uint32_t i = 0; i < d->n_verts && !compiled; i++)
        for (int s = 0; s < 3; s++) {
            float *dst = &v[((size_t)i * 3 + (size_t)s) * 4];
            memcpy(dst, defaults[s], sizeof defaults[s]);
            int a = slot_of_sem[s];
            if (a < 0) continue;
            for (uint32_t k = 0; k < d->attribs[a].comps && k < 4; k++) dst[k] = d->verts[(size_t)i * d->stride + offs[a] + k];
        }
    memcpy(ix, d->indices, (size_t)d->n_indices * sizeof(uint32_t));
    g->attribs = v;
    g->indices = ix;
    g->n_indices = d->n_indices;
    g->first = 0;
    g->count = d->n_indices;
    g->vs_kind = GPU_VS_MVP;
    /* the trace's own ISA programs, if it carries them: used when an ISA backend runs the draw */
    if (d->vs_prog <= TRACE_MAX_ID) g->vs_prog = t->prog[d->vs_prog];
    if (d->fs_prog <= TRACE_MAX_ID) g->fs_prog = t->prog[d->fs_prog];
    for (uint32_t k = 0; k < d->n_vs_consts && k < GPU_MAX_CONSTS; k++) memcpy(g->vs_consts[k], &d->vs_consts[4 * k], 16);
    for (uint32_t k = 0; k < d->n_fs_consts && k < GPU_MAX_CONSTS; k++) memcpy(g->fs_consts[k], &d->fs_consts[4 * k], 16);
    const char *fsn = d->fs_prog <= TRACE_MAX_ID ? t->fs_name[d->fs_prog] : NULL;
    if (compiled) {
        /* the built-in path's stand-in for a compiled program (fast approximation, docs/validation.md):
         * MVP geometry from c0..c3 and the DRAW's second attribute as colour */
        g->fs_kind = d->state.color_mask ? GPU_FS_COLOR : GPU_FS_DEPTH_ONLY;
        if (g->n_varyings < cvs->n_varyings) g->n_varyings = cvs->n_varyings;
        t->info->compiled++;
    } else if (contains(fsn, "tex")) g->fs_kind = GPU_FS_TEXTURE_MODULATE;
    else if (fsn && !strcmp(fsn, "fs_color")) g->fs_kind = d->n_fs_consts ? GPU_FS_COLOR_CONST : GPU_FS_COLOR;
    else if (contains(fsn, "flat") || contains(fsn, "const")) g->fs_kind = GPU_FS_FLAT;
    else if (contains(fsn, "depth")) g->fs_kind = GPU_FS_DEPTH_ONLY;
    else {
        g->fs_kind = GPU_FS_COLOR;
        t->info->approx_fs++;
    }
    if (d->flags & ~TRACE_DRAW_F_FS_APPROX) t->info->approx_other++;
    if (d->flags & TRACE_DRAW_F_FS_APPROX) t->info->approx_fs++;
    /* state */
    const trace_state_t *ts = &d->state;
    gpu_state_t *st = &g->st;
    *st = gpu_state_default(-1, ts->vp_w, ts->vp_h);
    st->vp_x = ts->vp_x;
    st->vp_y = ts->vp_y;
    st->depth_near = ts->depth_near;
    st->depth_far = ts->depth_far;
    st->depth_clamp = (uint8_t)((d->state_flags & TRACE_STATEF_DEPTH_CLAMP) != 0);
    st->scissor_enable = (uint8_t)(ts->scissor_en != 0);
    st->sc_x = ts->sc_x;
    st->sc_y = ts->sc_y;
    st->sc_w = ts->sc_w;
    st->sc_h = ts->sc_h;
    st->cull = (uint8_t)(ts->cull <= TRACE_CULL_FRONT_AND_BACK ? ts->cull : 0);
    st->front_ccw = (uint8_t)(ts->front_ccw != 0);
    st->depth_test = (uint8_t)(ts->depth_test != 0);
    st->depth_func = (uint8_t)(ts->depth_func & 7);
    st->depth_write = (uint8_t)(ts->depth_write != 0);
    for (int r = 0; r < GPU_MAX_RTS; r++) {
        gpu_blend_t *b = &st->blend[r];
        b->enable = (uint8_t)(ts->blend_en != 0);
        b->src_rgb = (uint8_t)(ts->src_rgb < TRACE_BF_SRC_ALPHA_SATURATE ? ts->src_rgb : GPU_BF_ONE);
        b->dst_rgb = (uint8_t)(ts->dst_rgb < TRACE_BF_SRC_ALPHA_SATURATE ? ts->dst_rgb : GPU_BF_ONE);
        b->src_a = (uint8_t)(ts->src_a < TRACE_BF_SRC_ALPHA_SATURATE ? ts->src_a : GPU_BF_ONE);
        b->dst_a = (uint8_t)(ts->dst_a < TRACE_BF_SRC_ALPHA_SATURATE ? ts->dst_a : GPU_BF_ONE);
        b->eq_rgb = (uint8_t)(ts->eq_rgb <= TRACE_BEQ_MAX ? ts->eq_rgb : 0);
        b->eq_a = (uint8_t)(ts->eq_a <= TRACE_BEQ_MAX ? ts->eq_a : 0);
        st->color_mask[r] = (uint8_t)(ts->color_mask & 0xF);
    }
    memcpy(st->blend_color, ts->blend_color, sizeof st->blend_color);
    st->alpha_test = (uint8_t)(ts->alpha_test != 0);
    st->alpha_func = (uint8_t)(ts->alpha_func & 7);
    st->alpha_ref = ts->alpha_ref;
    st->poly_offset = (uint8_t)(ts->poly_offset_en != 0);
    st->poly_factor = ts->poly_factor;
    st->poly_units = ts->poly_units;
    st->line_width = d->line_width;
    st->point_size = d->point_size;
    if (d->n_color > GPU_MAX_RTS) return ts_fail(t, "draw has more colour targets than the model supports (4)", c->offset);
    for (uint32_t r = 0; r < d->n_color; r++) st->rt[r] = surf_of(t, d->color[r]);
    st->depth_rt = surf_of(t, d->depth);
    /* the reference's framebuffer frame: window surfaces are y down (gpu_state_t.y_down) */
    {
        uint32_t tid = d->n_color ? d->color[0] : d->depth;
        int32_t sid = surf_of(t, tid);
        st->y_down = (uint8_t)(sid >= 0 && t->dfb[tid]);
        st->fb_h = sid >= 0 ? t->s->surf[sid].h : ts->vp_h;
    }
    for (uint32_t k = 0; k < d->n_tex; k++) {
        uint32_t u = d->tex[k].unit;
        if (u >= GPU_MAX_TEXTURES) return ts_fail(t, "draw uses a texture unit beyond the model's 16", c->offset);
        st->tex[u] = surf_of(t, d->tex[k].surface);
        st->tex_filter[u] = (uint8_t)(d->tex[k].mag_filter == TRACE_FILTER_LINEAR ? GPU_FILTER_LINEAR : GPU_FILTER_NEAREST);
        uint32_t mf = d->tex[k].min_filter;     /* 0 N, 1 L, 2 N_MIP_N, 3 L_MIP_N, 4 N_MIP_L, 5 L_MIP_L */
        st->tex_min[u] = (uint8_t)(1 + (mf & 1u));
        st->tex_mip[u] = (uint8_t)(mf < 2 ? GPU_MIP_NONE : mf < 4 ? GPU_MIP_NEAREST : GPU_MIP_LINEAR);
        static const uint8_t wrap[3] = {GPU_WRAP_REPEAT, GPU_WRAP_CLAMP, GPU_WRAP_MIRROR};
        st->tex_wrap[u] = wrap[d->tex[k].wrap_s <= 2 ? d->tex[k].wrap_s : 0];
        st->tex_wrap_t[u] = (uint8_t)(1 + wrap[d->tex[k].wrap_t <= 2 ? d->tex[k].wrap_t : 0]);
    }
    t->info->draws++;
    return 0;
}

int sys_scene_from_trace(sys_scene_t *s, const char *path, uint32_t max_frame, sys_trace_info_t *info,
                         char *err, size_t err_len)
{
    sys_scene_init(s);
    memset(info, 0, sizeof *info);
    ts_t *t = calloc(1, sizeof *t);
    if (!t) { snprintf(err, err_len, "out of memory"); return -1; }
    for (uint32_t i = 0; i <= TRACE_MAX_ID; i++) t->map[i] = -1;
    t->s = s;
    t->info = info;
    t->err = err;
    t->err_len = err_len;
    trace_error_t te;
    trace_reader_t *r = trace_reader_open_file(path, 0, &te);
    int rc = -1;
    if (!r) {
        snprintf(err, err_len, "%s: %s", path, te.msg);
        free(t);
        return -1;
    }
    const trace_info_t *ti = trace_reader_info(r);
    snprintf(info->name, sizeof info->name, "%s", ti && ti->name ? ti->name : "");
    if (ti) { s->width = ti->width; s->height = ti->height; }
    trace_cmd_t cmd;
    memset(&cmd, 0, sizeof cmd);
    int done = 0;
    while (!done) {
        int k = trace_reader_next(r, &cmd, &te);
        if (k < 0) { snprintf(err, err_len, "%s: %s", path, te.msg); goto out; }
        if (k == 0) break;
        switch (cmd.type) {
        case TRACE_CMD_SURFACE:
            if (on_surface(t, &cmd)) goto out;
            break;
        case TRACE_CMD_PROGRAM:
            if (cmd.u.program.id <= TRACE_MAX_ID && cmd.u.program.n_words >= 2) {
                /* the ISA program itself: 64-bit instructions as (low word, high word) */
                gpu_isa_prog_t *gp = sys_scene_own(s, calloc(1, sizeof *gp));
                uint32_t n = cmd.u.program.n_words / 2;
                uint64_t *w = gp ? sys_scene_own(s, malloc((size_t)n * sizeof *w)) : NULL;
                if (!w) { snprintf(err, err_len, "out of memory"); goto out; }
                for (uint32_t i = 0; i < n; i++)
                    w[i] = (uint64_t)cmd.u.program.words[2 * i] | ((uint64_t)cmd.u.program.words[2 * i + 1] << 32);
                gp->words = w;
                gp->n = n;
                snprintf(gp->name, sizeof gp->name, "%s", cmd.u.program.name ? cmd.u.program.name : "");
                gpu_isa_prog_scan(gp);
                t->prog[cmd.u.program.id] = gp;
            }
            if (cmd.u.program.stage == TRACE_STAGE_FRAGMENT && cmd.u.program.id <= TRACE_MAX_ID && cmd.u.program.name) {
                char *nm = sys_scene_own(s, strdup(cmd.u.program.name));
                if (!nm) { snprintf(err, err_len, "out of memory"); goto out; }
                t->fs_name[cmd.u.program.id] = nm;
            }
            break;
        case TRACE_CMD_FRAME_BEGIN:
            t->frame = cmd.u.frame.index;
            if (t->frame > max_frame) { done = 1; break; }
            t->have_frame = 1;
            if (!sys_scene_add_cmd(s, t->frame)) { snprintf(err, err_len, "out of memory"); goto out; }
            s->frames[t->frame].n--;    /* make the frame exist, empty */
            break;
        case TRACE_CMD_FRAME_END:
            if (t->frame >= max_frame) done = 1;
            break;
        case TRACE_CMD_CLEAR:
            if (!t->have_frame) break;
            if (on_clear(t, &cmd)) goto out;
            break;
        case TRACE_CMD_DRAW:
            if (!t->have_frame) break;
            if (on_draw(t, &cmd)) goto out;
            break;
        default:
            break;
        }
    }
    if (done) {
        /* Frames past the one asked for are not built, but the rest of the trace is still read and
         * validated (CRCs, every field, stream rules, TEND totals): a trace whose later chunks are corrupt,
         * or whose frame ends are misplaced, is rejected, never rendered as if it were fine. */
        int k;
        while ((k = trace_reader_next(r, &cmd, &te)) == 1) {}
        if (k < 0) { snprintf(err, err_len, "%s: %s", path, te.msg); goto out; }
    }
    if (s->display < 0) { snprintf(err, err_len, "%s: no default colour framebuffer surface", path); goto out; }
    if (s->n_frames == 0) { snprintf(err, err_len, "%s: no frames", path); goto out; }
    rc = 0;
out:
    trace_cmd_free(&cmd);
    trace_reader_close(r);
    free(t);
    if (rc) sys_scene_free(s);
    return rc;
}
