/* Trace library: error messages and small helpers (fourcc, command names, defaults, freeing).
 * See trace.h and docs/trace-format.md. */
#include "trace/trace.h"
#include "trace/trace_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char TRACE_MAGIC[8] = {'G', 'P', 'U', 'P', 'D', 'T', 'R', 'C'};

/* ---- errors ---- */
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

/* ---- misc helpers ---- */
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
