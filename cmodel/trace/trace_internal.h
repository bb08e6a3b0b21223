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
tr_validator_t *tr_validator_new(const trace_info_t *info);
void tr_validator_free(tr_validator_t *v);
int tr_validate(tr_validator_t *v, const trace_cmd_t *cmd, uint64_t off, trace_error_t *err);
void tr_validator_deps(const tr_validator_t *v, const trace_draw_t *d, uint32_t *n, uint32_t deps[TRACE_MAX_TEX]);

int tr_encode_info(tr_buf_t *b, const trace_info_t *info);
int tr_encode_cmd(tr_buf_t *b, const trace_cmd_t *cmd, uint32_t *tag);

#endif
