/* Shared cmocka fixture of the interpreter unit tests (test_isa_exec.c, test_isa_shaders.c): one ISA context
 * and one warp per test. Header-only (each test is one translation unit); include after cmocka.h. */
#ifndef GPUPD_TEST_ISA_TEST_FIXTURE_H
#define GPUPD_TEST_ISA_TEST_FIXTURE_H

#include <stdlib.h>

#include "isa/isa.h"

typedef struct {
    isa_ctx_t *ctx;
    isa_warp_t *w;
} fx_t;

static int setup(void **state)
{
    fx_t *f = calloc(1, sizeof *f);
    if (!f) return -1;
    f->ctx = isa_ctx_new();
    f->w = isa_warp_new();
    *state = f;
    return f->ctx && f->w ? 0 : -1;
}

static int teardown(void **state)
{
    fx_t *f = *state;
    isa_ctx_free(f->ctx);
    isa_warp_free(f->w);
    free(f);
    return 0;
}

#endif
