/* Data types of the per-GPU pipeline (gpu.h): surfaces, render state, draws, the items its queues carry,
 * statistics, the projection result. No functions: the units (clip.c, raster.c, frag.c) and the pipeline
 * (gpu.c, gpu.h) include this header, so a unit never depends on the pipeline that calls it. */
#ifndef GPUPD_GPU_TYPES_H
#define GPUPD_GPU_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "p2g/p2g.h"

#define GPU_MAX_ATTRIBS   16            /* the ISA's 64 attribute words */
#define GPU_ATTRIBS_BASE  8             /* attributes every stage carries; more only for a draw that has them */
#define GPU_MAX_VARYINGS  8
#define GPU_MAX_RTS       4
#define GPU_MAX_TEXTURES  16
#define GPU_MAX_CONSTS    64            /* vec4s = the ISA constant bank (256 words) */
#define GPU_MAX_SURFACES  1024
#define GPU_DEPTH_MAX     0xFFFFFFu     /* 24-bit unorm depth */
#define GPU_SUBPIX        256           /* 1/256 pixel */
#define GPU_GUARD         8192          /* guard band, pixels beyond the viewport on each side */
#define GPU_VCACHE        16            /* post-transform vertex cache entries */

/* Texel formats. RGBA8 and DEPTH24 take one 32-bit word per texel; the floating-point colour formats (render
 * targets of HDR passes) keep their channels as GL stores them: binary16 halves two to a word (channel c in
 * word c/2, bits 16*(c%2)), binary32 one to a word; missing channels read as G = B = 0, A = 1 (frag.c). */
typedef enum {
    GPU_FMT_RGBA8 = 0, GPU_FMT_DEPTH24 = 1,
    GPU_FMT_RGBA16F = 2, GPU_FMT_RGBA32F = 3, GPU_FMT_R16F = 4, GPU_FMT_R32F = 5, GPU_FMT_RG16F = 6, GPU_FMT_RG32F = 7
} gpu_format_t;
#define GPU_FMT_COUNT 8
static inline int gpu_fmt_is_float(int f) { return f >= GPU_FMT_RGBA16F && f < GPU_FMT_COUNT; }
static inline uint32_t gpu_fmt_channels(int f) { return f == GPU_FMT_R16F || f == GPU_FMT_R32F ? 1 : f == GPU_FMT_RG16F || f == GPU_FMT_RG32F ? 2 : 4; }
static inline int gpu_fmt_half(int f) { return f == GPU_FMT_RGBA16F || f == GPU_FMT_R16F || f == GPU_FMT_RG16F; }
/* 32-bit words per texel */
static inline uint32_t gpu_fmt_words(int f)
{
    return gpu_fmt_is_float(f) ? (gpu_fmt_half(f) ? (gpu_fmt_channels(f) + 1) / 2 : gpu_fmt_channels(f)) : 1;
}

typedef struct {
    uint32_t w, h;
    gpu_format_t fmt;
    uint32_t *data;                     /* w*h*gpu_fmt_words(fmt) words, row 0 = bottom; NULL: a surface without
                                           contents (gpu_add_surface_nodata: replayed runs) */
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
    uint8_t depth_clamp;                /* GL_DEPTH_CLAMP: CLIP skips the near and far planes (the fragment
                                         * depth is clamped to the depth range in every case, raster.c) */
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

/* Attributes a stage copies for a draw of n attributes: at least GPU_ATTRIBS_BASE (those past n are zero). */
static inline uint32_t gpu_attr_span(uint32_t n) { return n > GPU_ATTRIBS_BASE ? n : GPU_ATTRIBS_BASE; }

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

/* Optional shader backend (ISA interpreter adapter). Each call shades a batch of up to 32 threads.
 * vs: in[t][a][4] attributes -> out[t][0] clip position, out[t][1+i] varying i. Returns 0 on success.
 * fs: in[t][i][4] interpolated varyings, pixel position, helper flags -> colours/depth/discard. */
typedef struct {
    void *ctx;
    int (*run_vs)(void *ctx, const gpu_draw_t *d, uint32_t n,
                  const float (*in)[GPU_MAX_ATTRIBS][4], float (*out)[1 + GPU_MAX_VARYINGS][4]);
    int (*run_fs)(void *ctx, const gpu_draw_t *d, uint32_t n,
                  const float (*in)[GPU_MAX_VARYINGS][4], const float (*frag_pos)[4],   /* x, y, z, facing */
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
    uint32_t rec_tri;                   /* frame record (gpu/frec.h): index of this triangle in it */
} gpu_screen_tri_t;

typedef struct {                        /* q_quad / q_fs / q_rop: a 2x2 quad */
    uint32_t prim, tag;
    int32_t x, y;                       /* lower-left pixel of the quad (even coordinates) */
    uint8_t cover;                      /* bit i: pixel (x + (i&1), y + (i>>1)) covered */
    uint8_t live;                       /* covered and still alive (after early Z / discard) */
    uint8_t front;                      /* 1: front-facing primitive (gl_FrontFacing; lines, points: 1) */
    uint32_t rec;                       /* frame record (gpu/frec.h): index of this quad in it */
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

#endif
