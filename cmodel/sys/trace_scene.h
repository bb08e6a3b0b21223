/* Adapter: a GPUpd trace (cmodel/trace/trace.h) -> a sys_scene_t the N-GPU model renders.
 *
 * Mapping (what the model reproduces, what it approximates):
 *   - surfaces: trace ids mapped to dense model ids (at most GPU_MAX_SURFACES = 1024); surfaces never written are shared read-only by the GPUs; DEPTH32F stored as 24-bit
 *     depth; a SURF redefinition with data mid-stream becomes an upload command;
 *   - vertex attributes: position -> attr0, colour -> attr1 (default white), texcoord0 -> attr2
 *     (default 0,0,0,1); the vertex program is the built-in MVP program (c[0..3] = MVP rows, as the trace
 *     convention says) unless an ISA backend is attached (not yet: see docs/golden-model.md);
 *   - fragment programs by library name: "*tex*" -> texture x colour, "fs_color" -> colour x c0,
 *     "*flat*"/"*const*" -> c0, "*depth*" -> depth only, anything else -> colour (counted as approximate);
 *   - state: viewport, depth range, scissor, cull, depth, blend (SRC_ALPHA_SATURATE -> ONE), colour mask,
 *     alpha test, polygon offset; up to GPU_MAX_RTS (4) colour targets and GPU_MAX_TEXTURES (16) texture units;
 *     mirrored-repeat wrap approximated by repeat; stencil ignored.
 * Only frames 0..max_frame are loaded. */
#ifndef GPUPD_SYS_TRACE_SCENE_H
#define GPUPD_SYS_TRACE_SCENE_H

#include <stdint.h>

#include "sys/sys.h"

typedef struct {
    uint32_t draws, approx_fs, approx_other;   /* draws loaded; draws whose FS/other state is approximate */
    uint32_t compiled;                         /* draws carrying compiled programs (glsl:/ff:, run on the interpreter) */
    uint32_t skipped;                           /* draws dropped: no triangle, empty viewport, no target */
    char name[64];
} sys_trace_info_t;

/* Load frames 0..max_frame of the trace at path. The rest of the trace is read and validated too (not
 * kept): a trace that `gpupd-trace validate` rejects is never loaded. Returns 0, or -1 with err (a reader
 * error names the file offset). */
int sys_scene_from_trace(sys_scene_t *s, const char *path, uint32_t max_frame, sys_trace_info_t *info,
                         char *err, size_t err_len);

#endif
