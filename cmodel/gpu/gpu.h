/* One GPU of the functional golden model (issue 5, SPEC 4.4).
 *
 * A GPU is an instance (gpu_t): its own copy of every surface (render targets, depth buffers, textures),
 * its own pipeline units and queues, its own statistics. Nothing is shared between instances except
 * read-only draw descriptions. The pipeline is a chain of units, each with an explicit input and output
 * queue (gpu_queue_t), stepped back to front until every queue is empty:
 *
 *   CP -> [q_prim] -> VF -> [q_vtx] -> VS -> [q_shv] -> CLIP -> [q_tri] -> RAST -> [q_quad] -> EZ
 *      -> [q_fs] -> FS -> [q_rop] -> ROP (late Z, blend, colour masks, MRT write)
 *
 *   CP   command processor: walks the primitive list it was given (a draw range or a received list)
 *   VF   vertex fetch + index assembly: triangles, strips, fans, indexed or not
 *   VS   vertex shading (built-in programs, or the ISA interpreter through gpu_shader_backend_t), with a
 *        16-entry FIFO post-transform vertex cache keyed by vertex index
 *   CLIP trivial reject, near/far + guard-band clipping, viewport and depth range, 1/256-pixel snap,
 *        back-face and zero-area culling; in project mode (CP phase of C-PD) it classifies instead and
 *        the P2G mask (p2g_mask) is computed from its output
 *   RAST fixed-point edge functions, top-left rule, pixel centres at +0.5, 2x2 quads (helpers counted),
 *        scissor and screen ownership (only tiles this GPU owns are traversed)
 *   EZ   early depth test (when the fragment program neither writes depth nor discards)
 *   FS   fragment shading on quads (helper lanes run, never write)
 *   ROP  late depth test, depth write, blending, colour write masks, up to GPU_MAX_RTS targets
 *
 * Conventions: framebuffer row 0 is the bottom row (OpenGL window coordinates); PNG writing flips.
 * Colour surfaces are RGBA8 packed R | G<<8 | B<<16 | A<<24; depth surfaces hold 24-bit unorm depth.
 * Screen coordinates: signed fixed point, 8 fractional bits; the centre of pixel p is 256*p + 128.
 */
#ifndef GPUPD_GPU_H
#define GPUPD_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/frec.h"
#include "gpu/queue.h"

#include "gpu/gpu_types.h"
#include "gpu/clip.h"   /* the CLIP unit's entry point (gpu_clip_triangle), used by the pipeline */

/* Number of primitives (triangles, line segments or points) a draw issues. */
uint32_t gpu_draw_prim_count(const gpu_draw_t *d);


/* Texture filtering of the texture unit (frag.c, docs/golden-model.md section 1, "Texture filtering"):
 * GPU_TEXF_FLOAT (the default) filters in binary32 with GL's exact level of detail and a truncating 2x2 box
 * mip chain; GPU_TEXF_LLVMPIPE reproduces Mesa llvmpipe's sampler (fixed-point 8-bit filtering of RGBA8
 * textures, its level of detail and its generated mip levels), the reference of docs/validation.md. */
typedef enum { GPU_TEXF_FLOAT = 0, GPU_TEXF_LLVMPIPE = 1 } gpu_texf_t;

typedef struct gpu {
    uint32_t id;                /* GPU index in the system */
    uint32_t n_gpus;            /* for screen ownership (1: owns everything) */
    p2g_mode_t own_mode;
    uint32_t tile_log2;
    gpu_surface_t surf[GPU_MAX_SURFACES];
    uint32_t n_surf;
    uint8_t *dirty[GPU_MAX_SURFACES];   /* per tile: written since the last sync (SFR sync tracking) */
    gpu_shader_backend_t backend;       /* run_vs/run_fs NULL: only built-in programs */
    gpu_stats_t stats;
    /* queues between the units */
    gpu_queue_t q_prim, q_vtx, q_shv, q_tri, q_quad, q_fs, q_rop;
    /* unit-local state of the current run */
    const gpu_draw_t *draw;
    gpu_mode_t mode;
    const gpu_prim_req_t *cp_list;
    size_t cp_n, cp_pos;
    gpu_projected_t *proj_out;  /* project mode output */
    size_t proj_n, proj_cap;
    /* post-transform vertex cache (VS unit), emptied at every run */
    uint32_t vc_tag[GPU_VCACHE];
    uint8_t vc_valid[GPU_VCACHE];
    uint32_t vc_next;
    float vc_out[GPU_VCACHE][1 + GPU_MAX_VARYINGS][4];
    uint64_t probe_hits;        /* probe mode: covered pixels found */
    uint32_t probe_first_prim;
    struct gpu_timing *tm;      /* timing of the units (gpu_timing.h); NULL: functional only */
    const uint8_t *clip_keep;   /* render mode, optional: CLIP drops primitive tag t unless clip_keep[t]
                                   (dup: geometry for every primitive, rasterization of this GPU's own) */
    size_t clip_keep_n;
    uint32_t *wstamp;           /* render mode, optional (chopin): every fragment that passes the depth test
                                   writes wstamp_val to wstamp[y * wstamp_w + x] (which draw last won a pixel) */
    uint32_t wstamp_val, wstamp_w;
    struct gpu_mipchain *mip[GPU_MAX_SURFACES];   /* mip levels built on demand from level 0 */
    uint8_t tex_filter;         /* gpu_texf_t; set after gpu_init, before the first draw (the mip chains follow it) */
    uint8_t rast_prim_hit;      /* current primitive produced a fragment on this GPU */
    uint32_t rast_last_prim;
    int has_last_prim;
    /* functional record of the frame (gpu/frec.h): FREC_RECORD writes the outcomes the units compute into
     * rec; FREC_REPLAY takes them from rec instead of computing them (surfaces are then not written) */
    frec_t *rec;
    int rec_mode;
    const frec_draw_t *rec_draw;        /* the current draw's record (set by draw_begin) */
    char err[256];
} gpu_t;

/* A surface's content changed (render, clear, upload, synchronisation): its mip chain is stale. */
void gpu_surface_changed(gpu_t *g, int32_t surface);

/* Create a GPU. Surfaces are added with gpu_add_surface (ids 0,1,2,... in order). Returns 0 or -1. */
int gpu_init(gpu_t *g, uint32_t id, uint32_t n_gpus, p2g_mode_t own_mode, uint32_t tile_log2);
void gpu_free(gpu_t *g);
int gpu_add_surface(gpu_t *g, uint32_t w, uint32_t h, gpu_format_t fmt, const uint32_t *init);
/* A writable surface without contents (data NULL): size, format and dirty tiles only. For a run that replays
 * a frame record (FREC_REPLAY), which never reads or writes surface contents: clears, uploads and
 * synchronisation copies keep their accounting and skip the pixels. Returns the id or -1. */
int gpu_add_surface_nodata(gpu_t *g, uint32_t w, uint32_t h, gpu_format_t fmt);
/* A read-only surface whose data (w*h words, outliving the GPU) is shared, not copied: textures that are
 * never rendered to, cleared or uploaded. Clearing or rendering into it is an error. */
int gpu_add_surface_shared(gpu_t *g, uint32_t w, uint32_t h, gpu_format_t fmt, const uint32_t *data);

/* Owner of the pixel (x, y) of a surface of size w x h. */
uint32_t gpu_pixel_owner(const gpu_t *g, uint32_t w, uint32_t h, uint32_t x, uint32_t y);
int gpu_owns_tile(const gpu_t *g, const gpu_surface_t *s, uint32_t tx, uint32_t ty);

/* Clear a whole surface (every GPU clears every pixel: clears need no synchronisation).
 * Colour: packed RGBA8 value, mask bits RGBA; depth: 24-bit value. Optional scissor (w=0: none). */
int gpu_clear(gpu_t *g, int32_t surface, uint32_t value, uint8_t color_mask,
              int32_t sx, int32_t sy, uint32_t sw, uint32_t sh);
/* Clear a floating-point colour surface (gpu_fmt_is_float) to `color` (not clamped, rounded to the format)
 * under the colour mask and scissor, as gpu_clear. */
int gpu_clear_float(gpu_t *g, int32_t surface, const float color[4], uint8_t color_mask,
                    int32_t sx, int32_t sy, uint32_t sw, uint32_t sh);

/* Render the listed primitives of a draw, in list order, through the whole pipeline. Only pixels in
 * tiles this GPU owns are generated. Returns 0, or -1 with g->err set. */
int gpu_render(gpu_t *g, const gpu_draw_t *d, const gpu_prim_req_t *list, size_t n);

/* Coverage probe: rasterize the listed primitives in this GPU's tiles without shading or writing anything
 * (statistics untouched); *frags = covered pixels, *first_prim = the first primitive that covered one.
 * Used to check that a P2G mask never leaves out a GPU whose tiles a primitive covers. 0 or -1. */
int gpu_probe(gpu_t *g, const gpu_draw_t *d, const gpu_prim_req_t *list, size_t n, uint64_t *frags, uint32_t *first_prim);

/* CP phase: project the listed primitives (VF, VS, CLIP in classify mode). out[i] receives the P2G
 * input of list[i] (out must have n entries). Returns 0 or -1. */
int gpu_project(gpu_t *g, const gpu_draw_t *d, const gpu_prim_req_t *list, size_t n,
                gpu_projected_t *out);

/* Validate a draw against this GPU's surfaces; NULL if fine, else a message. */
const char *gpu_draw_check(const gpu_t *g, const gpu_draw_t *d);

/* A default render state: viewport = surface size, depth range [0,1], no cull, depth off, no blend,
 * colour mask RGBA on RT0 = rt, no depth buffer, no textures. */
gpu_state_t gpu_state_default(int32_t rt, uint32_t w, uint32_t h);

/* Fill the unit-test hooks: these run one unit on one item (the same code the pipeline runs). */
int gpu_fetch_triangle(const gpu_draw_t *d, uint32_t prim, uint32_t vid[3]);

#endif
