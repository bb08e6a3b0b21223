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

#include "gpu/queue.h"
#include "p2g/p2g.h"

#define GPU_MAX_ATTRIBS   8
#define GPU_MAX_VARYINGS  8
#define GPU_MAX_RTS       4
#define GPU_MAX_TEXTURES  16
#define GPU_MAX_CONSTS    64            /* vec4s = the ISA constant bank (256 words) */
#define GPU_MAX_SURFACES  1024
#define GPU_DEPTH_MAX     0xFFFFFFu     /* 24-bit unorm depth */
#define GPU_SUBPIX        256           /* 1/256 pixel */
#define GPU_GUARD         8192          /* guard band, pixels beyond the viewport on each side */
#define GPU_VCACHE        16            /* post-transform vertex cache entries */

typedef enum { GPU_FMT_RGBA8 = 0, GPU_FMT_DEPTH24 = 1 } gpu_format_t;

typedef struct {
    uint32_t w, h;
    gpu_format_t fmt;
    uint32_t *data;                     /* w*h words, row 0 = bottom */
    uint8_t shared;                     /* read-only data shared between GPUs (never written) */
} gpu_surface_t;

typedef enum {
    GPU_TOPO_TRIANGLES = 0, GPU_TOPO_TRI_STRIP = 1, GPU_TOPO_TRI_FAN = 2,
    /* lines and points (docs/golden-model.md section 1.1): a primitive still travels as a 3-vertex item,
     * with its last vertex repeated (line: v0 v1 v1, point: v0 v0 v0), and is told apart by its kind */
    GPU_TOPO_LINES = 3, GPU_TOPO_LINE_STRIP = 4, GPU_TOPO_LINE_LOOP = 5, GPU_TOPO_POINTS = 6
} gpu_topo_t;
/* Primitive kind of a topology (gpu_screen_tri_t.kind) and its number of distinct vertices. */
typedef enum { GPU_KIND_TRIANGLE = 0, GPU_KIND_LINE = 1, GPU_KIND_POINT = 2 } gpu_prim_kind_t;
static inline int gpu_topo_kind(int topo)
{
    return topo == GPU_TOPO_POINTS ? GPU_KIND_POINT : topo >= GPU_TOPO_LINES ? GPU_KIND_LINE : GPU_KIND_TRIANGLE;
}
static inline int gpu_topo_verts(int topo) { return 3 - gpu_topo_kind(topo); }
typedef enum { GPU_CULL_NONE = 0, GPU_CULL_BACK = 1, GPU_CULL_FRONT = 2, GPU_CULL_BOTH = 3 } gpu_cull_t;
typedef enum {                          /* OpenGL order */
    GPU_CMP_NEVER = 0, GPU_CMP_LESS, GPU_CMP_EQUAL, GPU_CMP_LEQUAL,
    GPU_CMP_GREATER, GPU_CMP_NOTEQUAL, GPU_CMP_GEQUAL, GPU_CMP_ALWAYS
} gpu_cmp_t;
typedef enum {
    GPU_BF_ZERO = 0, GPU_BF_ONE, GPU_BF_SRC_COLOR, GPU_BF_ONE_MINUS_SRC_COLOR,
    GPU_BF_DST_COLOR, GPU_BF_ONE_MINUS_DST_COLOR, GPU_BF_SRC_ALPHA, GPU_BF_ONE_MINUS_SRC_ALPHA,
    GPU_BF_DST_ALPHA, GPU_BF_ONE_MINUS_DST_ALPHA, GPU_BF_CONST_COLOR, GPU_BF_ONE_MINUS_CONST_COLOR,
    GPU_BF_CONST_ALPHA, GPU_BF_ONE_MINUS_CONST_ALPHA
} gpu_blend_factor_t;
typedef enum { GPU_BEQ_ADD = 0, GPU_BEQ_SUB, GPU_BEQ_REV_SUB, GPU_BEQ_MIN, GPU_BEQ_MAX } gpu_blend_eq_t;
typedef enum { GPU_FILTER_NEAREST = 0, GPU_FILTER_LINEAR = 1 } gpu_filter_t;
typedef enum { GPU_WRAP_REPEAT = 0, GPU_WRAP_CLAMP = 1, GPU_WRAP_MIRROR = 2 } gpu_wrap_t;
typedef enum { GPU_MIP_NONE = 0, GPU_MIP_NEAREST = 1, GPU_MIP_LINEAR = 2 } gpu_mip_t;
#define GPU_MAX_LEVELS 15

typedef struct {
    uint8_t enable;
    uint8_t eq_rgb, eq_a;               /* gpu_blend_eq_t */
    uint8_t src_rgb, dst_rgb, src_a, dst_a; /* gpu_blend_factor_t */
} gpu_blend_t;

typedef struct {
    /* rasterizer */
    uint8_t cull;                       /* gpu_cull_t */
    uint8_t front_ccw;                  /* 1: counter-clockwise is front (GL default) */
    int32_t vp_x, vp_y;
    uint32_t vp_w, vp_h;
    float depth_near, depth_far;        /* glDepthRange */
    uint8_t scissor_enable;
    int32_t sc_x, sc_y;
    uint32_t sc_w, sc_h;
    /* depth */
    uint8_t depth_test, depth_write;
    uint8_t depth_func;                 /* gpu_cmp_t */
    /* output merge */
    gpu_blend_t blend[GPU_MAX_RTS];
    float blend_color[4];
    uint8_t color_mask[GPU_MAX_RTS];    /* bit0 R, bit1 G, bit2 B, bit3 A */
    int32_t rt[GPU_MAX_RTS];            /* colour surface ids, -1: none */
    int32_t depth_rt;                   /* depth surface id, -1: none */
    /* texture units: surface ids (colour or depth surfaces), -1: none */
    int32_t tex[GPU_MAX_TEXTURES];
    uint8_t tex_filter[GPU_MAX_TEXTURES];   /* magnification filter (and minification when tex_min = 0) */
    uint8_t tex_wrap[GPU_MAX_TEXTURES];     /* wrap of s (and of t when tex_wrap_t = 0) */
    uint8_t tex_min[GPU_MAX_TEXTURES];      /* 0: as tex_filter; else 1 + minification filter within a level */
    uint8_t tex_mip[GPU_MAX_TEXTURES];      /* gpu_mip_t: mipmapped minification (levels: 2x2 box chain) */
    uint8_t tex_wrap_t[GPU_MAX_TEXTURES];   /* 0: as tex_wrap; else 1 + wrap of t */
    /* fixed-function extras the traces use */
    uint8_t alpha_test, alpha_func;     /* GL alpha test on RT0 alpha (gpu_cmp_t), forces late Z */
    float alpha_ref;
    uint8_t poly_offset;                /* glPolygonOffset: z += factor * max|dz/dx|,|dz/dy| + units / 2^24 */
    float poly_factor, poly_units;
    /* lines and points (GL aliased rasterization; 0 means 1) */
    float line_width;                   /* glLineWidth: rounded to an integer >= 1 */
    float point_size;                   /* glPointSize: rounded to an integer >= 1 */
    /* Frame of the reference implementation's framebuffer (docs/golden-model.md section 1, "precision"):
     * y_down = 1 for a window surface (Mesa stores it top row first: window y = fb_h - GL y, GL's top-left
     * fill rule), 0 for a texture / FBO target (y as GL's, which makes the rule bottom-left in GL terms). */
    uint8_t y_down;
    uint32_t fb_h;                      /* height of the render target (pixels), used when y_down = 1 */
} gpu_state_t;

/* Built-in programs. They are the reference the ISA shader library (cmodel/shaders/) is checked
 * against; a draw can instead carry ISA programs run through gpu_shader_backend_t. */
typedef enum {
    GPU_VS_MVP = 0,          /* pos = C[0..3] (rows of MVP) . attr0; varying i = attr i+1 */
    GPU_VS_ISA = 100
} gpu_vs_kind_t;
typedef enum {
    GPU_FS_FLAT = 0,         /* colour = C[0] */
    GPU_FS_COLOR,            /* colour = varying 0 */
    GPU_FS_TEXTURE,          /* colour = tex0(varying 0 .xy) */
    GPU_FS_TEXTURE_MODULATE, /* colour = tex0(varying 1 .xy) * varying 0 */
    GPU_FS_DEPTH_ONLY,       /* no colour output */
    GPU_FS_MRT,              /* RT i = varying i (i < GPU_MAX_RTS, missing varyings give C[0]) */
    GPU_FS_DISCARD_ALPHA,    /* colour = tex0(varying 0 .xy); discard if alpha < C[0].x */
    GPU_FS_DEPTH_WRITE,      /* colour = varying 0; depth = varying 1 .x (clamped to [0,1]) */
    GPU_FS_COLOR_CONST,      /* colour = varying 0 * C[0] */
    GPU_FS_ISA = 100
} gpu_fs_kind_t;

typedef struct {
    gpu_topo_t topo;
    uint32_t first, count;              /* vertices (non-indexed) or indices (indexed) */
    const uint32_t *indices;            /* NULL: non-indexed */
    uint32_t n_indices;                 /* size of indices[] (bounds check) */
    const float *attribs;               /* vertex v attribute a at attribs[(v*n_attribs + a)*4 .. +3] */
    uint32_t n_vertices, n_attribs;
    uint32_t n_varyings;                /* VS outputs besides position, <= GPU_MAX_VARYINGS */
    int vs_kind, fs_kind;
    float vs_consts[GPU_MAX_CONSTS][4];
    float fs_consts[GPU_MAX_CONSTS][4];
    const void *vs_prog, *fs_prog;      /* opaque ISA programs for GPU_VS_ISA / GPU_FS_ISA */
    gpu_state_t st;
} gpu_draw_t;

/* Number of primitives (triangles, line segments or points) a draw issues. */
uint32_t gpu_draw_prim_count(const gpu_draw_t *d);

/* Optional shader backend (ISA interpreter adapter). Each call shades a batch of up to 32 threads.
 * vs: in[t][a][4] attributes -> out[t][0] clip position, out[t][1+i] varying i. Returns 0 on success.
 * fs: in[t][i][4] interpolated varyings, pixel position, helper flags -> colours/depth/discard. */
typedef struct {
    void *ctx;
    int (*run_vs)(void *ctx, const gpu_draw_t *d, uint32_t n,
                  const float (*in)[GPU_MAX_ATTRIBS][4], float (*out)[1 + GPU_MAX_VARYINGS][4]);
    int (*run_fs)(void *ctx, const gpu_draw_t *d, uint32_t n,
                  const float (*in)[GPU_MAX_VARYINGS][4], const float (*frag_pos)[4],
                  float (*color)[GPU_MAX_RTS][4], float *depth, uint8_t *discard);
} gpu_shader_backend_t;

/* ---- pipeline data carried by the queues ---- */

typedef struct {                        /* q_prim: one primitive to process */
    uint32_t prim;                      /* primitive index in the draw */
    uint32_t tag;                       /* caller's id (batch primitive id), carried through */
} gpu_prim_req_t;

typedef struct {                        /* q_vtx: fetched attributes of one triangle */
    uint32_t prim, tag;
    uint32_t vid[3];
    float attr[3][GPU_MAX_ATTRIBS][4];
} gpu_vtx_tri_t;

typedef struct {                        /* q_shv: shaded triangle, clip space */
    uint32_t prim, tag;
    float v[3][1 + GPU_MAX_VARYINGS][4];
} gpu_shaded_tri_t;

typedef struct {                        /* q_tri: screen-space triangle ready for setup */
    uint32_t prim, tag;
    int32_t x[3], y[3];                 /* 1/256 pixel */
    float z[3];                         /* window depth in [0,1] */
    float inv_w[3];
    float var[3][GPU_MAX_VARYINGS][4];  /* varyings (not divided by w) */
    uint32_t flags;                     /* P2G_FLAG_* (project mode) */
    uint8_t kind;                       /* gpu_prim_kind_t: line = vertices 0-1, point = vertex 0 */
    uint8_t has_win;                    /* 1: wx, wy hold the unsnapped window position (CLIP sets it) */
    float wx[3], wy[3];                 /* window position in the reference frame (y down if st.y_down) */
} gpu_screen_tri_t;

typedef struct {                        /* q_quad / q_fs / q_rop: a 2x2 quad */
    uint32_t prim, tag;
    int32_t x, y;                       /* lower-left pixel of the quad (even coordinates) */
    uint8_t cover;                      /* bit i: pixel (x + (i&1), y + (i>>1)) covered */
    uint8_t live;                       /* covered and still alive (after early Z / discard) */
    uint32_t depth[4];                  /* interpolated 24-bit depth (or FS output) */
    float var[4][GPU_MAX_VARYINGS][4];
    float color[4][GPU_MAX_RTS][4];
} gpu_quad_t;

typedef struct {
    uint64_t prims_in;          /* primitives entering VF */
    uint64_t vs_invocations;    /* vertices shaded (misses of the post-transform cache) */
    uint64_t vs_cache_hits;     /* triangle vertices supplied by the post-transform cache */
    uint64_t prims_clipped;     /* triangles that went through the near/far/guard clipper */
    uint64_t prims_culled;      /* rejected: trivially outside, back face, zero area, clipped away */
    uint64_t tris_setup;        /* triangles reaching the rasterizer (after clipping) */
    uint64_t prims_rasterized;  /* input primitives with at least one covered pixel on this GPU */
    uint64_t quads;             /* 2x2 quads with >= 1 covered pixel */
    uint64_t fragments;         /* covered pixels */
    uint64_t helpers;           /* helper lanes in those quads */
    uint64_t ez_killed;         /* fragments killed by early Z */
    uint64_t fs_fragments;      /* fragments shaded (covered and alive at FS) */
    uint64_t discarded;         /* fragments discarded by the fragment program */
    uint64_t z_killed;          /* fragments killed by late Z */
    uint64_t pixels_written;    /* fragments that updated at least one target */
    uint64_t clears;            /* clear commands executed */
} gpu_stats_t;

typedef enum { GPU_MODE_RENDER = 0, GPU_MODE_PROJECT = 1, GPU_MODE_PROBE = 2 } gpu_mode_t;

/* Result of the CP-phase projection of one primitive (project mode). */
typedef struct {
    uint32_t prim, tag;
    p2g_prim_t p2g;             /* P2G input: fixed-point vertices and flags */
} gpu_projected_t;

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
    uint8_t rast_prim_hit;      /* current primitive produced a fragment on this GPU */
    uint32_t rast_last_prim;
    int has_last_prim;
    char err[256];
} gpu_t;

/* A surface's content changed (render, clear, upload, synchronisation): its mip chain is stale. */
void gpu_surface_changed(gpu_t *g, int32_t surface);

/* Create a GPU. Surfaces are added with gpu_add_surface (ids 0,1,2,... in order). Returns 0 or -1. */
int gpu_init(gpu_t *g, uint32_t id, uint32_t n_gpus, p2g_mode_t own_mode, uint32_t tile_log2);
void gpu_free(gpu_t *g);
int gpu_add_surface(gpu_t *g, uint32_t w, uint32_t h, gpu_format_t fmt, const uint32_t *init);
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
/* Clip/cull/viewport one shaded triangle. Writes up to GPU_CLIP_MAX_OUT screen triangles to out.
 * Returns the count (0: culled), or in project mode fills *proj and returns 1. */
#define GPU_CLIP_MAX_OUT 16
int gpu_clip_triangle(const gpu_draw_t *d, const gpu_shaded_tri_t *in, gpu_mode_t mode,
                      gpu_screen_tri_t *out, gpu_projected_t *proj);

#endif
