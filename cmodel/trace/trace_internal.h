/* Internal helpers shared by the trace library's source files (not a public API). */
#ifndef GPUPD_TRACE_INTERNAL_H
#define GPUPD_TRACE_INTERNAL_H

#include "trace/trace.h"

typedef struct {
    uint8_t *p;
    size_t len, cap;
    int failed;
    uint32_t minor;      /* format minor version being encoded (DRAW fields of 1.2) */
} tr_buf_t;

int tb_reserve(tr_buf_t *b, size_t extra);
void tb_bytes(tr_buf_t *b, const void *src, size_t n);
void tb_u16(tr_buf_t *b, uint16_t v);
void tb_u32(tr_buf_t *b, uint32_t v);
void tb_u64(tr_buf_t *b, uint64_t v);
void tb_f32(tr_buf_t *b, float f);

void tr_err(trace_error_t *err, uint64_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tr_tagstr(uint32_t tag, char out[5]);

typedef struct tr_validator tr_validator_t;
/* the validator state (the reader checks the TEND totals against it) */
typedef struct {
    uint8_t defined, kind, written;
    uint32_t w, h;
} tr_vsurf_t;
struct tr_validator {
    uint32_t width, height, n_frames_declared;
    int in_frame;
    uint32_t frames, frame_draws, draws, clears;
    tr_vsurf_t *surf;     /* n_surf entries, grown to the largest id defined */
    uint8_t *prog;        /* 0 undefined, 1 + stage; n_prog entries */
    uint32_t n_surf, n_prog;
};
tr_validator_t *tr_validator_new(const trace_info_t *info);
void tr_validator_free(tr_validator_t *v);
int tr_validate(tr_validator_t *v, const trace_cmd_t *cmd, uint64_t off, trace_error_t *err);
void tr_validator_deps(const tr_validator_t *v, const trace_draw_t *d, uint32_t *n, uint32_t deps[TRACE_MAX_TEX]);

int tr_encode_info(tr_buf_t *b, const trace_info_t *info);
int tr_encode_cmd(tr_buf_t *b, const trace_cmd_t *cmd, uint32_t *tag);

/* bounds-checked decoding cursor over one chunk payload */
typedef struct {
    const uint8_t *p;
    size_t len, pos;
    uint64_t file_off;   /* file offset of payload byte 0 (if not compressed) */
    uint64_t chunk_off;  /* file offset of the chunk header */
    int compressed;
    const char *what;    /* chunk name */
    trace_error_t *err;
    int failed;
    uint32_t minor;      /* format minor version of the file (DRAW fields of 1.2) */
} tr_cur_t;

/* trace_util.c */
extern const char TRACE_MAGIC[8];

/* trace_codec.c */
void tr_cur_fail(tr_cur_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
size_t tr_cur_left(const tr_cur_t *c);
uint32_t tr_cur_u32(tr_cur_t *c, const char *field);
int tr_dec_info(tr_cur_t *c, trace_info_t *info);
int tr_dec_cmd(tr_cur_t *c, uint32_t tag, trace_cmd_t *cmd);

/* trace_validate.c */
int tr_grow(void **arr, uint32_t *n, uint32_t id, size_t elem);
void tr_encode_tend(const tr_validator_t *v, tr_buf_t *b);

/* trace_chunk.c */
uint64_t tr_max_raw_for(uint64_t stored);
uint64_t tr_max_raw_zstd(uint64_t stored);
/* forward byte transform of a raw payload (TRACE_XFORM_*); -1 if TEX_MED does not apply to it */
int tr_xform_fwd(int xf, const uint8_t *in, uint8_t *out, size_t n);
int tr_tex_med_applies(const uint8_t *p, size_t n, uint32_t *w, uint32_t *h);
/* dctx: the per-chunk ZSTD_DCtx (codec 2); sdctx: the file's zstd stream decoder (codec 3, format 1.5),
 * both created on first use and freed by the caller with ZSTD_freeDCtx */
uint8_t *tr_chunk_decode(uint32_t flags, const uint8_t *sbuf, uint32_t stored, uint32_t raw, void **dctx,
                         void **sdctx, const char *tn, uint64_t off, trace_error_t *err);

#endif
