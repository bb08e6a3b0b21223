/* GPUpd trace format: in-memory structures, streaming reader, writer (docs/trace-format.md).
 *
 * A trace is a little-endian chunked binary file: a 32-byte file header, then chunks
 * (20-byte chunk header: tag, flags, stored length, raw length, CRC-32 of the stored payload; the payload
 * optionally compressed: zlib (1.0+) or zstd (1.2+), optionally after a byte transform (1.2+) that groups
 * the bytes of 32-bit words into planes, see TRACE_CHUNK_*). Commands arrive in application order:
 *
 *   INFO            trace description (first chunk; read by trace_reader_open, see trace_reader_info)
 *   SURF            define / redefine a surface (texture, render target, default framebuffer)
 *   PROG            define a shader program (ISA words, opaque to this library)
 *   FRMB            frame begin
 *     CLER          clear of render-target surfaces
 *     DRAW          one draw command: geometry, programs, constants, cost annotation, state, targets,
 *                   textures, RAW dependencies, reference pixel count
 *   FRME            frame end
 *   TEND            end of trace (last chunk; its totals are checked)
 *
 * The reader validates every field (ranges, references to defined surfaces/programs, index bounds,
 * RAW dependencies) and reports the first problem as a trace_error_t naming the file byte offset.
 * It never allocates more than the remaining file size allows (times the codec's ratio bound: zlib's
 * 1032:1; for zstd the bound computed from the frame's block headers, and the frame's own content size
 * must equal the chunk's raw length) and never more than TRACE_MAX_CHUNK_RAW per chunk.
 *
 * Ownership: a trace_cmd_t filled by trace_reader_next owns its arrays until trace_cmd_free (or the next
 * trace_reader_next on the same struct, which frees it first). The reader keeps each surface's METADATA
 * (id, kind, format, size, flags, label; data NULL, data_len 0: texel data lives only in the SURF command)
 * and each program for lookups by id for the rest of the stream (trace_reader_surface/program), so its
 * memory is bounded by the ids in use, not by the texel data of the trace.
 *
 * Conventions the converter follows (the C model relies on them):
 *   - geometry: triangle lists only (strips, fans, quads, polygons converted), positions in object space;
 *   - attribute 0 is the position (TRACE_SEM_POSITION, 3 or 4 components);
 *   - vertex constants c[0..3] are the rows of the MVP matrix (clip = MVP * pos, i.e. clip.x = dot(c0,pos));
 *     further constants are program specific (documented with the shader library);
 *   - window coordinates follow OpenGL: origin bottom-left, viewport/scissor in pixels;
 *   - surfaces 0 and 1 are the default framebuffer's colour and depth; texture data rows bottom first;
 *   - programs are shader-library programs by name (vs_mvp; fs_color, fs_tex_modulate, fs_depth), their
 *     words the assembled 64-bit instructions (cmodel/shaders/NAME.s) as u32 pairs, low word first;
 *   - attributes other than the position: colour (4 floats, 0..1), texcoord0/1 (2 floats), in that order
 *     when present; the converter always emits the colour (a constant colour replicated per vertex).
 */
#ifndef GPUPD_TRACE_H
#define GPUPD_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TRACE_VERSION_MAJOR 1
#define TRACE_VERSION_MINOR 5   /* 1.1: mipmapped min filters (2..5); 1.2: zstd chunks, byte transforms, line/point topologies;
                                 * 1.3: floating-point colour formats, up to 16 attributes;
                                 * 1.4: DRAW state_flags (GL_DEPTH_CLAMP); 1.5: zstd stream chunks, TEX_MED texel transform */
#define TRACE_FILE_HEADER_SIZE 32u
#define TRACE_CHUNK_HEADER_SIZE 20u

#define TRACE_NONE          0xFFFFFFFFu   /* "no surface / no program" */
#define TRACE_MAX_ID        65535u        /* surface and program ids are 0..TRACE_MAX_ID */
#define TRACE_MAX_ATTRIBS   16u      /* 8 before format 1.3 */
#define TRACE_MAX_COLOR_RT  8u
#define TRACE_MAX_TEX       16u
#define TRACE_MAX_DIM       16384u        /* surface / screen width and height */
#define TRACE_MAX_CHUNK_RAW (256u << 20)  /* largest raw chunk payload accepted */
#define TRACE_MAX_STR       65536u        /* longest string field */

/* Chunk header flags (docs/trace-format.md, "Chunk header"):
 *   bits 0-1  codec of the stored payload: 0 stored as is, 1 zlib (compress2 stream), 2 zstd (one frame
 *             with its content size; format 1.2+), 3 zstd stream (format 1.5+: the file's codec-3 chunks,
 *             in file order, are the successive flushed pieces of ONE zstd frame, so a chunk can refer back
 *             to the bytes of earlier codec-3 chunks; the frame never ends inside the file)
 *   bits 2-3  byte transform applied to the raw payload before compression (1.2+; only with a codec):
 *             0 none, 1 SHUF4 (bytes of each 4-byte word split into 4 planes: byte 0 of every word, then
 *             byte 1, ...; a tail of len % 4 bytes is kept as is at the end), 2 SHUF4_DELTA (SHUF4, then
 *             each plane replaced by its byte differences: out[i] = in[i] - in[i-1] mod 256, in[-1] = 0),
 *             3 TEX_MED (format 1.5+, SURF chunks of RGBA8 texels only: the texels become 4 planes of the
 *             residuals of the median predictor over each channel's 2-D image, R and B minus G's residual:
 *             R-G, G, B-G, A; other bytes as they are)
 *   bits 4-31 zero */
#define TRACE_CHUNK_CODEC_MASK   0x3u
#define TRACE_CHUNK_XFORM_SHIFT  2
#define TRACE_CHUNK_XFORM_MASK   (0x3u << TRACE_CHUNK_XFORM_SHIFT)
enum { TRACE_CODEC_NONE = 0, TRACE_CODEC_ZLIB = 1, TRACE_CODEC_ZSTD = 2, TRACE_CODEC_ZSTREAM = 3 };
enum { TRACE_XFORM_NONE = 0, TRACE_XFORM_SHUF4 = 1, TRACE_XFORM_SHUF4_DELTA = 2, TRACE_XFORM_TEX_MED = 3 };
#define TRACE_ZSTD_MAX_LEVEL 19   /* zstd levels 1..19 (no --ultra levels: their windows cost memory) */
#define TRACE_ZSTD_DEFAULT_LEVEL 19  /* gpupd-trace pack and the converter */

/* ---- enums (values are the file encoding) ---- */
enum { TRACE_SURF_COLOR = 0, TRACE_SURF_DEPTH = 1 };
enum { TRACE_FMT_RGBA8 = 1, TRACE_FMT_DEPTH24 = 2, TRACE_FMT_DEPTH32F = 3,   /* bytes/texel 4,4,4 */
       /* 1.3: floating-point colour formats (bytes/texel 8, 16, 4, 4, 4, 8): binary16 channels two to a
        * little-endian 32-bit word (channel c in word c/2, bits 16*(c%2)), binary32 one to a word */
       TRACE_FMT_RGBA16F = 4, TRACE_FMT_RGBA32F = 5, TRACE_FMT_R16F = 6, TRACE_FMT_R32F = 7, TRACE_FMT_RG16F = 8,
       TRACE_FMT_RG32F = 9, TRACE_FMT_MAX = 9 };
enum { TRACE_SURF_F_DEFAULT_FB = 1u, TRACE_SURF_F_HAS_DATA = 2u };
/* Bytes per texel of a SURF format (4 for RGBA8 and the depth formats). */
uint32_t trace_format_bytes(uint32_t format);
enum { TRACE_STAGE_VERTEX = 0, TRACE_STAGE_FRAGMENT = 1 };
/* DRAW prim: 0 triangle list (every version); 1.2 adds lines, line strips, line loops and points. */
enum { TRACE_PRIM_TRIANGLES = 0, TRACE_PRIM_LINES = 1, TRACE_PRIM_LINE_STRIP = 2, TRACE_PRIM_LINE_LOOP = 3,
       TRACE_PRIM_POINTS = 4, TRACE_PRIM_MAX = 4 };
/* trace_draw_t.prim_flags (1.2): GL line/point state kept for reference; the model does not render it
 * (the converter sets TRACE_DRAW_F_PRIM_APPROX on a draw it affects). */
enum { TRACE_PRIMF_LINE_SMOOTH = 1u, TRACE_PRIMF_POINT_SMOOTH = 2u, TRACE_PRIMF_LINE_STIPPLE = 4u,
       TRACE_PRIMF_PROGRAM_POINT_SIZE = 8u, TRACE_PRIMF_POINT_SPRITE = 16u, TRACE_PRIMF_ALL = 31u };
/* trace_draw_t.state_flags (1.4): render state bits beyond trace_state_t, rendered by the model.
 * DEPTH_CLAMP: GL_DEPTH_CLAMP (CLIP skips the near and far planes; fragment depth clamped to the depth range). */
enum { TRACE_STATEF_DEPTH_CLAMP = 1u, TRACE_STATEF_ALL = 1u };
#define TRACE_MAX_LINE_WIDTH 1024.0f      /* line_width / point_size range: (0, 1024] */
enum { TRACE_SEM_POSITION = 0, TRACE_SEM_COLOR = 1, TRACE_SEM_TEXCOORD0 = 2, TRACE_SEM_TEXCOORD1 = 3,
       TRACE_SEM_NORMAL = 4, TRACE_SEM_GENERIC = 5 };
/* Compare functions: GL order (GL_NEVER + i). */
enum { TRACE_CMP_NEVER = 0, TRACE_CMP_LESS, TRACE_CMP_EQUAL, TRACE_CMP_LEQUAL, TRACE_CMP_GREATER,
       TRACE_CMP_NOTEQUAL, TRACE_CMP_GEQUAL, TRACE_CMP_ALWAYS };
enum { TRACE_CULL_NONE = 0, TRACE_CULL_BACK, TRACE_CULL_FRONT, TRACE_CULL_FRONT_AND_BACK };
enum { TRACE_BF_ZERO = 0, TRACE_BF_ONE, TRACE_BF_SRC_COLOR, TRACE_BF_ONE_MINUS_SRC_COLOR, TRACE_BF_DST_COLOR,
       TRACE_BF_ONE_MINUS_DST_COLOR, TRACE_BF_SRC_ALPHA, TRACE_BF_ONE_MINUS_SRC_ALPHA, TRACE_BF_DST_ALPHA,
       TRACE_BF_ONE_MINUS_DST_ALPHA, TRACE_BF_CONSTANT_COLOR, TRACE_BF_ONE_MINUS_CONSTANT_COLOR,
       TRACE_BF_CONSTANT_ALPHA, TRACE_BF_ONE_MINUS_CONSTANT_ALPHA, TRACE_BF_SRC_ALPHA_SATURATE,
       TRACE_BF_COUNT };
enum { TRACE_BEQ_ADD = 0, TRACE_BEQ_SUBTRACT, TRACE_BEQ_REVERSE_SUBTRACT, TRACE_BEQ_MIN, TRACE_BEQ_MAX };
enum { TRACE_FILTER_NEAREST = 0, TRACE_FILTER_LINEAR = 1,
       /* min_filter only, format 1.1: GL's mipmapped minification filters (levels: the model builds the
        * chain from level 0 with a 2x2 box filter, docs/trace-format.md) */
       TRACE_FILTER_NEAREST_MIPMAP_NEAREST = 2, TRACE_FILTER_LINEAR_MIPMAP_NEAREST = 3,
       TRACE_FILTER_NEAREST_MIPMAP_LINEAR = 4, TRACE_FILTER_LINEAR_MIPMAP_LINEAR = 5 };
enum { TRACE_WRAP_REPEAT = 0, TRACE_WRAP_CLAMP_TO_EDGE = 1, TRACE_WRAP_MIRRORED_REPEAT = 2 };
enum { TRACE_CLEAR_COLOR = 1u, TRACE_CLEAR_DEPTH = 2u, TRACE_CLEAR_STENCIL = 4u };
/* trace_draw_t.flags: what the converter could not reproduce exactly for this draw. */
enum { TRACE_DRAW_F_FS_APPROX = 1u,      /* fragment program is the closest library program, not exact */
       TRACE_DRAW_F_VS_APPROX = 2u,      /* vertex program approximated (e.g. texgen, lighting dropped) */
       TRACE_DRAW_F_STATE_APPROX = 4u,   /* some render state not representable (stencil, fog, ...) */
       TRACE_DRAW_F_TEX_APPROX = 8u,     /* texture content/sampler approximated */
       TRACE_DRAW_F_PRIM_APPROX = 16u,   /* (1.2) line/point rasterization approximated (smooth, stipple, sprite) */
       TRACE_DRAW_F_ALL = 31u };

typedef enum {
    TRACE_CMD_NONE = 0,
    TRACE_CMD_SURFACE = 1,      /* 'SURF' */
    TRACE_CMD_PROGRAM = 2,      /* 'PROG' */
    TRACE_CMD_FRAME_BEGIN = 3,  /* 'FRMB' */
    TRACE_CMD_CLEAR = 4,        /* 'CLER' */
    TRACE_CMD_DRAW = 5,         /* 'DRAW' */
    TRACE_CMD_FRAME_END = 6,    /* 'FRME' */
    TRACE_CMD_UNKNOWN = 7       /* a chunk with a tag this version does not know: kept, skipped */
} trace_cmd_type_t;

/* ---- errors ---- */
typedef struct {
    uint64_t offset;     /* file byte offset of the offending field (or of its chunk if compressed) */
    char msg[320];       /* "offset N: what was wrong" */
} trace_error_t;

/* ---- INFO ---- */
typedef struct {
    uint32_t width, height;   /* default framebuffer size (the screen) */
    uint32_t n_frames;        /* frames in the trace (checked against the stream) */
    char *name;               /* short name, e.g. "oa-sago-f120" */
    char *source;             /* where it came from: capture command, apitrace frame, ... */
    char *notes;              /* converter report: what it could not reproduce (may be "") */
} trace_info_t;

/* ---- SURF ---- */
typedef struct {
    uint32_t id;
    uint32_t kind;            /* TRACE_SURF_* */
    uint32_t format;          /* TRACE_FMT_* */
    uint32_t width, height;
    uint32_t flags;           /* TRACE_SURF_F_* */
    uint32_t data_len;        /* width*height*4 if HAS_DATA else 0 */
    uint8_t *data;            /* row-major, bottom row first (GL order), RGBA8 / depth as u32 or f32 */
    char *label;
} trace_surface_t;

/* ---- PROG ---- */
typedef struct {
    uint32_t id;
    uint32_t stage;           /* TRACE_STAGE_* */
    uint32_t n_words;
    uint32_t *words;          /* 64-bit ISA instructions as u32 pairs, low word first (opaque here; empty if
                                 the converter had no assembler) */
    char *name;               /* shader library name, e.g. "vs_mvp_color" */
    char *origin;             /* original shader description (GLSL hash / fixed-function state) */
} trace_program_t;

/* ---- FRMB / FRME ---- */
typedef struct {
    uint32_t index;           /* 0, 1, 2, ... in order */
    uint32_t src_frame;       /* frame number in the original capture */
} trace_frame_t;

/* ---- render state ---- */
typedef struct {
    int32_t vp_x, vp_y; uint32_t vp_w, vp_h;   /* viewport */
    float depth_near, depth_far;                /* glDepthRange */
    uint32_t scissor_en; int32_t sc_x, sc_y; uint32_t sc_w, sc_h;
    uint32_t cull;                              /* TRACE_CULL_* */
    uint32_t front_ccw;                         /* 1: counter-clockwise front faces (GL default) */
    uint32_t depth_test, depth_func, depth_write;
    uint32_t blend_en, src_rgb, dst_rgb, src_a, dst_a, eq_rgb, eq_a;  /* TRACE_BF_*, TRACE_BEQ_* */
    float blend_color[4];
    uint32_t color_mask;                        /* bit0 R, bit1 G, bit2 B, bit3 A */
    uint32_t alpha_test, alpha_func; float alpha_ref;
    uint32_t poly_offset_en; float poly_factor, poly_units;
} trace_state_t;

/* ---- CLER ---- */
typedef struct {
    uint32_t src_call;        /* call number in the original capture */
    uint32_t n_color;
    uint32_t color[TRACE_MAX_COLOR_RT];
    uint32_t depth;           /* surface id or TRACE_NONE */
    uint32_t mask;            /* TRACE_CLEAR_* */
    float color_value[4];
    float depth_value;
    uint32_t stencil_value;
    uint32_t scissor_en; int32_t sc_x, sc_y; uint32_t sc_w, sc_h;
    uint32_t color_mask;
    uint32_t depth_write;     /* glDepthMask at clear time (a clear honours it) */
} trace_clear_t;

/* ---- DRAW ---- */
typedef struct { uint32_t semantic, comps; } trace_attr_t;   /* comps 1..4, float32 each */
typedef struct { uint32_t vs_instr, vs_tex, fs_instr, fs_tex; } trace_cost_t;
typedef struct {
    uint32_t unit;            /* texture unit 0..TRACE_MAX_TEX-1, strictly increasing in the list */
    uint32_t surface;
    uint32_t min_filter, mag_filter, wrap_s, wrap_t;
} trace_texbind_t;

typedef struct {
    uint32_t index;           /* draw number within the frame, 0, 1, ... */
    uint32_t src_call;        /* call number in the original capture */
    uint32_t prim;            /* TRACE_PRIM_* (only TRACE_PRIM_TRIANGLES before format 1.2) */
    uint32_t n_verts;
    uint32_t n_attribs;       /* 1..TRACE_MAX_ATTRIBS; attribs[0] is the position */
    trace_attr_t attribs[TRACE_MAX_ATTRIBS];
    uint32_t stride;          /* floats per vertex = sum of comps (derived, not stored) */
    float *verts;             /* n_verts * stride floats, interleaved */
    uint32_t n_indices;       /* triangles: multiple of 3; lines: multiple of 2; strips, loops, points: any */
    uint32_t *indices;        /* each < n_verts */
    uint32_t vs_prog, fs_prog;                 /* PROG ids (or TRACE_NONE) */
    uint32_t n_vs_consts; float *vs_consts;    /* n vec4s */
    uint32_t n_fs_consts; float *fs_consts;
    trace_cost_t cost;        /* from the ORIGINAL shader: instructions and texture fetches */
    trace_state_t state;
    uint32_t n_color;         /* colour render targets */
    uint32_t color[TRACE_MAX_COLOR_RT];
    uint32_t depth;           /* depth target surface or TRACE_NONE */
    uint32_t n_tex;
    trace_texbind_t tex[TRACE_MAX_TEX];
    uint32_t n_deps;          /* RAW: textures sampled here that a draw/clear wrote since their SURF */
    uint32_t deps[TRACE_MAX_TEX];              /* surface ids, in texture-unit order */
    int64_t ref_pixels;       /* pixels drawn on the reference (glretrace --ppd), -1 unknown */
    uint32_t flags;           /* TRACE_DRAW_F_* */
    /* format 1.2 (stored after flags; files of minor < 2 read as 1, 1, 0) */
    float line_width;         /* glLineWidth, 0 < w <= TRACE_MAX_LINE_WIDTH */
    float point_size;         /* glPointSize, same range */
    uint32_t prim_flags;      /* TRACE_PRIMF_* */
    /* format 1.4 (stored after prim_flags; files of minor < 4 read as 0) */
    uint32_t state_flags;     /* TRACE_STATEF_* */
} trace_draw_t;

typedef struct {
    uint32_t tag;             /* FourCC, little-endian: 'S'|'U'<<8|'R'<<16|'F'<<24 */
    uint32_t len;
    uint8_t *data;
} trace_unknown_t;

typedef struct {
    trace_cmd_type_t type;
    uint64_t offset;          /* file offset of the chunk header (reader) */
    int zflag;                /* chunk header flags (codec | transform << 2, TRACE_CHUNK_*). reader: as read.
                               * writer: -1 auto (the file's codec and level; transform and whether to
                               * compress at all chosen per chunk), else exactly these flags */
    union {
        trace_surface_t surface;
        trace_program_t program;
        trace_frame_t frame;
        trace_clear_t clear;
        trace_draw_t draw;
        trace_unknown_t unknown;
    } u;
} trace_cmd_t;

/* ---- helpers ---- */
void trace_state_default(trace_state_t *s, uint32_t width, uint32_t height);  /* GL initial state */
void trace_draw_init(trace_draw_t *d);   /* zero, TRACE_NONE ids, ref_pixels -1, position attrib 4 comps */
void trace_cmd_free(trace_cmd_t *cmd);   /* frees owned arrays, leaves cmd as TRACE_CMD_NONE */
void trace_info_free(trace_info_t *info);
const char *trace_cmd_name(trace_cmd_type_t t);
uint32_t trace_fourcc(const char tag[4]);
/* Number of primitives of a draw: triangles (n_indices / 3), line segments or points. */
static inline uint32_t trace_draw_prims(const trace_draw_t *d)
{
    switch (d->prim) {
    case TRACE_PRIM_LINES: return d->n_indices / 2u;
    case TRACE_PRIM_LINE_STRIP: return d->n_indices >= 2 ? d->n_indices - 1u : 0u;
    case TRACE_PRIM_LINE_LOOP: return d->n_indices >= 2 ? d->n_indices : 0u;
    case TRACE_PRIM_POINTS: return d->n_indices;
    default: return d->n_indices / 3u;
    }
}
const char *trace_prim_name(uint32_t prim);   /* "triangles", "lines", "line_strip", "line_loop", "points" */

/* ---- streaming reader ---- */
typedef struct trace_reader trace_reader_t;
enum { TRACE_OPT_NO_CRC = 1u };   /* skip CRC checks (fuzzing only) */

/* Open and read the file header and INFO chunk. NULL on error (err filled). */
trace_reader_t *trace_reader_open_file(const char *path, unsigned opts, trace_error_t *err);
/* Read from memory; buf must outlive the reader. */
trace_reader_t *trace_reader_open_mem(const void *buf, size_t len, unsigned opts, trace_error_t *err);
const trace_info_t *trace_reader_info(const trace_reader_t *r);
/* Next command: 1 = got one in *cmd, 0 = clean end of trace (TEND checked), -1 = error (err filled).
 * After an error every further call returns -1 with the same error. */
int trace_reader_next(trace_reader_t *r, trace_cmd_t *cmd, trace_error_t *err);
/* Latest definition of a surface (metadata only: data NULL) / program seen so far, or NULL. Valid until
 * the reader is closed or the id is redefined. */
const trace_surface_t *trace_reader_surface(const trace_reader_t *r, uint32_t id);
const trace_program_t *trace_reader_program(const trace_reader_t *r, uint32_t id);
uint32_t trace_reader_zlevel(const trace_reader_t *r);   /* compression level recorded in the header */
uint32_t trace_reader_codec(const trace_reader_t *r);    /* codec of auto chunks in the header (ZLIB or ZSTD) */
uint32_t trace_reader_minor(const trace_reader_t *r);    /* format minor version of the file (0..TRACE_VERSION_MINOR) */
void trace_reader_close(trace_reader_t *r);

/* ---- writer ---- */
typedef struct trace_writer trace_writer_t;
/* zlevel 0..9: zlib level for chunks with zflag -1 (auto: compressed when >= 64 bytes and smaller). */
/* A file writer writes a temporary file next to path, renamed over path only by a successful
 * trace_writer_close (cmodel/common/outfile.h): a failure never destroys an existing file. */
trace_writer_t *trace_writer_open_file(const char *path, const trace_info_t *info, int zlevel,
                                       trace_error_t *err);
trace_writer_t *trace_writer_open_mem(const trace_info_t *info, int zlevel, trace_error_t *err);
/* As trace_writer_open_file, writing format minor version `minor` (<= TRACE_VERSION_MINOR) in the header:
 * the text undumper keeps the version of the dump, so binary -> text -> binary is byte-identical. */
trace_writer_t *trace_writer_open_file_minor(const char *path, const trace_info_t *info, int zlevel, uint32_t minor,
                                             trace_error_t *err);
/* The general form: codec TRACE_CODEC_ZLIB (level 0..9) or TRACE_CODEC_ZSTD (level 0..TRACE_ZSTD_MAX_LEVEL,
 * format 1.2+) for chunks with zflag -1; level 0 stores auto chunks uncompressed. path NULL = memory writer. */
typedef struct {
    uint32_t minor;   /* format minor version written in the header (<= TRACE_VERSION_MINOR) */
    uint32_t codec;   /* TRACE_CODEC_ZLIB or TRACE_CODEC_ZSTD */
    int level;
} trace_wopts_t;
trace_writer_t *trace_writer_open(const char *path, const trace_info_t *info, const trace_wopts_t *o,
                                  trace_error_t *err);
/* Validates cmd exactly as the reader will (same checks), then writes it. 0 ok, -1 error. */
int trace_writer_put(trace_writer_t *w, const trace_cmd_t *cmd, trace_error_t *err);
/* Fill d->n_deps/deps from the surfaces written so far (what the reader will demand). */
void trace_writer_fill_deps(const trace_writer_t *w, trace_draw_t *d);
/* Write TEND, flush, close. For a memory writer, *out and *out_len receive the malloc'd bytes (caller frees).
 * Always frees w. 0 ok, -1 error. */
int trace_writer_close(trace_writer_t *w, uint8_t **out, size_t *out_len, trace_error_t *err);
/* Abandon without finishing: the temporary file is removed, an existing file at the path is untouched. */
void trace_writer_abort(trace_writer_t *w);

/* Re-encode a whole trace (gpupd-trace pack): every command of r written to path with zflag -1 (auto)
 * under o; unknown chunks are kept. r must be freshly opened. 0 ok, -1 error (err; path untouched). */
int trace_repack(trace_reader_t *r, const char *path, const trace_wopts_t *o, trace_error_t *err);

/* ---- text dump (lossless) ---- */
/* Dump a whole trace as text. 0 ok, -1 error (err filled; the text may be partial). */
int trace_dump_text(trace_reader_t *r, FILE *out, trace_error_t *err);
/* Parse the text dump and write the binary (byte-identical to the original). */
int trace_undump_text(FILE *in, const char *out_path, trace_error_t *err);

/* ---- synthetic trace (tests, examples, bring-up of the model) ----
 * Writes a small deterministic 2-frame trace at 64x48: frame 0 renders a triangle fan into a 32x32
 * texture (surface 2) with depth (surface 3), then draws the default framebuffer (surfaces 0 colour, 1 depth)
 * with a textured quad sampling surface 2 (a RAW dependency) and a blended coloured triangle crossing the
 * near plane; frame 1 repeats the screen pass without the render-to-texture pass. Programs carry no ISA
 * words (names only). 0 ok, -1 error. */
int trace_write_synthetic(const char *path, int zlevel, trace_error_t *err);

/* ---- summary (gpupd-trace info, traces/README.md) ---- */
typedef struct {
    uint32_t width, height, frames, draws, clears, surfaces, programs;
    uint64_t prims, verts, indices;
    uint32_t rt_switches;     /* draws/clears whose render-target set differs from the previous one's */
    uint32_t raw_deps;        /* sum of n_deps over draws */
    uint32_t raw_dep_draws;   /* draws with n_deps > 0 */
    /* Inter-GPU synchronisations as the paper's Table 2 counts them (and gpupd-sim's `syncs`): a surface
     * written by a draw or clear and then sampled by a later draw is synchronised once, before the first
     * draw that samples it; it is synchronised again only after it is written again. */
    uint32_t syncs;           /* (surface, first sampling draw after a write) pairs */
    uint32_t sync_surfaces;   /* distinct surfaces ever synchronised (render-to-texture targets read back) */
    uint64_t sync_bytes;      /* sum over syncs of the whole surface's size (the model sends only written tiles) */
    uint32_t approx_draws;    /* draws with any TRACE_DRAW_F_* flag */
    int64_t ref_pixels;       /* sum of known ref_pixels */
    uint32_t max_draws_per_frame;
} trace_summary_t;
int trace_summarize(trace_reader_t *r, trace_summary_t *s, trace_error_t *err);

#endif
