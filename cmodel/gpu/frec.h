/* Functional record of a frame (issue 23; docs/timing.md, "Functional work once per frame").
 *
 * Every screen-partitioned scheme renders the same fragments: a primitive clips to the same screen triangles,
 * a triangle covers the same quads, and each pixel sees the same fragments in the same (application) order,
 * so every depth test, discard and colour write has the same outcome on whichever GPU owns the pixel. Only
 * who renders which quad, and when, differs. A frame record keeps, per draw command of one frame, what the
 * timing model needs of that functional work, computed once by a single-GPU render:
 *
 *   per primitive  its CLIP output (the number of screen triangles) and its CP-phase projection (P2G input)
 *   per triangle   the raster rectangle and, per pair of rows, the column span the quad walk visits
 *   per quad       position, coverage, the live mask after early Z, after FS (discard, alpha test) and
 *                  after late Z, and whether it changed the depth / each colour target (dirty tiles)
 *
 * A GPU in replay mode (gpu_t.rec_mode = FREC_REPLAY) runs the same pipeline, queues, unit order and timing,
 * but takes these outcomes from the record instead of shading, interpolating, testing and blending: the
 * queues see the same items in the same order, so the cycles and statistics are those of the executed run
 * (tests/timing/test_replay.sh compares them). The surfaces are not written: a replayed run has no image.
 * The vertex shader's inputs are still fetched (its cost profile runs on the real inputs); the fragment
 * program's profile runs on zero inputs, which is exact only when its control flow provably does not depend
 * on its inputs (frec_fs_profile_exact): a run with any other fragment program is not replayed.
 *
 * On disk (frec_save/frec_load): one file per (trace, frame), named by a key over the trace file's bytes,
 * the simulator executable's bytes (the model version: any rebuild of a changed model is a new key), the
 * frame and the shading path; the key fields are stored in the file and checked on load. */
#ifndef GPUPD_GPU_FREC_H
#define GPUPD_GPU_FREC_H

#include <stddef.h>
#include <stdint.h>

#include "p2g/p2g.h"

enum { FREC_OFF = 0, FREC_RECORD = 1, FREC_REPLAY = 2 };

/* frec_quad_t.m: live masks (bit i = pixel (x + (i & 1), y + (i >> 1))) and change bits */
#define FREC_COVER(m)   ((m) & 0xFu)
#define FREC_EZ(m)      (((m) >> 4) & 0xFu)     /* live after early Z */
#define FREC_FS(m)      (((m) >> 8) & 0xFu)     /* live after the fragment program and the alpha test */
#define FREC_ROP(m)     (((m) >> 12) & 0xFu)    /* live after late Z */
#define FREC_ZCHG       (1u << 16)              /* the depth test wrote a new depth to a pixel of the quad */
#define FREC_CCHG(r)    (1u << (17 + (r)))      /* a pixel of colour target r changed */

typedef struct { uint16_t x, y; uint32_t m; } frec_quad_t;
typedef struct {
    int32_t rx0, ry0, rx1, ry1;     /* raster rectangle (gpu_rast_t) */
    uint32_t span;                  /* first entry of spans[]: one per row pair from ry0 & ~1 to ry1 */
    uint32_t quad, n_quad;          /* its quads in walk order (quads[quad .. quad + n_quad - 1]) */
    uint32_t empty;
} frec_tri_t;
typedef struct {
    uint32_t tri, n_tri;            /* CLIP output: tris[tri .. tri + n_tri - 1] */
    uint32_t done;                  /* recorded (each primitive of a draw is rendered once per frame) */
    p2g_prim_t proj;                /* CP-phase projection (prim_id is the caller's tag: set on replay) */
} frec_prim_t;
typedef struct {
    uint32_t prim, n_prims;         /* its primitives: prims[prim .. prim + n_prims - 1] */
    uint32_t need_in;               /* its fragment program's profile depends on the inputs (frec_flow_uniform
                                       is 0): the profile inputs of some quads are kept (frec_in_t) */
} frec_draw_t;
/* The fragment-profile inputs of a quad (what gt_profile_fs reads: varyings 0 and 1 and the depth of each
 * pixel). Kept, for a draw with need_in, for the first FREC_IN_QUADS quads that leave early Z alive in each
 * FREC_IN_TILE x FREC_IN_TILE tile: the first fragment warp of the draw on any GPU that owns whole tiles of
 * that size or larger holds only such quads (the quads before one in its own tile precede it on that GPU). */
#define FREC_IN_QUADS 8
#define FREC_IN_TILE_LOG2 5
typedef struct { uint32_t quad; float var[4][2][4]; float z[4]; } frec_in_t;

typedef struct frec {
    uint32_t frame;
    uint64_t frame_hash;            /* sys_frame_hash of the display surface after the frame */
    uint32_t frame_w, frame_h;
    frec_draw_t *draws;             /* per command index of the frame (n_prims = 0: not a draw) */
    uint32_t n_draws;
    frec_prim_t *prims;
    size_t n_prims;
    frec_tri_t *tris;
    size_t n_tris, cap_tris;
    int32_t (*spans)[2];
    size_t n_spans, cap_spans;
    frec_quad_t *quads;
    size_t n_quads, cap_quads;
    frec_in_t *ins;                 /* ascending quad index */
    size_t n_ins, cap_ins;
    uint8_t *in_count;              /* recording: live quads seen per tile of the current draw */
    size_t in_count_n;
    /* binding to the scene's commands: draw of command ci at (const char *)bind_base + ci * bind_stride */
    const char *bind_base;
    size_t bind_stride;
    int oom;                        /* recording failed (1 memory or size, 2 a primitive twice, 3 walk start) */
} frec_t;

/* The key fields of a record file. */
typedef struct {
    uint64_t trace_hash, model_hash;
    uint32_t frame, shading;        /* shading: gpupd-sim --shaders 0 auto, 1 isa, 2 builtin; + 256 x --tex-filter */
} frec_key_t;

/* A record for a frame whose commands have these primitive counts (n_prims[ci], 0 for clears/uploads). */
frec_t *frec_new(uint32_t frame, const uint32_t *n_prims, uint32_t n_cmds);
void frec_free(frec_t *r);
/* Tie command ci's draw to the record: the draw of command ci is at base + ci * stride. */
void frec_bind(frec_t *r, const void *base, size_t stride);
/* The record of draw d (NULL if d is not a bound command's draw). */
const frec_draw_t *frec_draw_of(const frec_t *r, const void *d);

/* Recording (the single-GPU render): append a triangle / span / quad; return its index (or UINT32_MAX). */
uint32_t frec_add_tri(frec_t *r);
void frec_add_span(frec_t *r, int32_t x0, int32_t x1);
uint32_t frec_add_quad(frec_t *r, int32_t x, int32_t y, uint8_t cover);
void frec_add_in(frec_t *r, uint32_t quad, const float (*var)[2][4], const float *z);
/* The profile inputs kept for a quad (NULL if none). */
const frec_in_t *frec_in_of(const frec_t *r, uint32_t quad);
/* The record is complete: every primitive of every draw was rendered once. NULL if fine, else why not. */
const char *frec_check_complete(const frec_t *r);

/* FNV-1a 64 (over 8-byte words) of a file's bytes (0 with errno set if unreadable). */
uint64_t frec_hash_file(const char *path);
/* Path of the record file of key k in dir for a trace named name (buf of len bytes). */
void frec_path(char *buf, size_t len, const char *dir, const char *name, const frec_key_t *k);
/* Write (temporary file + rename) / read a record. 0, or -1 with err. A file with other key fields, a
 * truncated or corrupt file is an error (the caller records again). */
int frec_save(const frec_t *r, const frec_key_t *k, const char *path, char *err, size_t errlen);
frec_t *frec_load(const frec_key_t *k, const char *path, char *err, size_t errlen);

/* 1 if the warp-instruction counts of a program (n 64-bit words) are the same for any inputs: no branch or
 * exit is guarded by a predicate that can depend on the thread's attributes, special registers, local memory
 * or texture data, and no memory access has such an address. 0 if that cannot be shown. */
int frec_flow_uniform(const uint64_t *code, uint32_t n);

#endif
