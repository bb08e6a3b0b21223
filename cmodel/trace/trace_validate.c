/* Trace library: semantic validation of a command stream, shared by the reader and the writer.
 * See trace.h and docs/trace-format.md. */
#include "trace/trace.h"
#include "trace/trace_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- semantic validation (shared) ---- */
/* Grow a zero-initialised table so that index id exists (ids are <= TRACE_MAX_ID, checked by the parser). */
int tr_grow(void **arr, uint32_t *n, uint32_t id, size_t elem)
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
