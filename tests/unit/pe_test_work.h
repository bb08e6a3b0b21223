/* Shared fixture of the primitive-exchanger unit tests (test_sys_exchange.c, test_net_timed.c): random P2G
 * results, B batches of N GPUs' chunks, each batch's m primitives split as ceil(m/N) per GPU. Header-only
 * (each test is one translation unit); include after pe/pe.h. Deterministic: xorshift64 from the seed. */
#ifndef GPUPD_TEST_PE_TEST_WORK_H
#define GPUPD_TEST_PE_TEST_WORK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pe/pe.h"

#define PE_TEST_SLOTS 4096 /* N * B at most */

typedef struct {
    pe_entry_t *e[PE_TEST_SLOTS]; /* e[b * N + g]: GPU g's chunk of batch b */
    uint32_t c[PE_TEST_SLOTS];    /* its entry count */
} pe_test_work_t;

/* m = (random % max_prims) primitives per batch; masks random over N bits. corner_masks: about 1/16 of the
 * primitives culled (mask 0) and 1/16 near-clip (all GPUs). */
static inline void pe_test_work_make(pe_test_work_t *w, uint32_t N, uint32_t B, uint64_t seed, uint32_t max_prims,
                                     int corner_masks)
{
    const uint64_t all = (N >= 64) ? ~0ull : ((1ull << N) - 1);
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    memset(w, 0, sizeof *w);
    if ((size_t)N * B > PE_TEST_SLOTS) abort();
    for (uint32_t b = 0; b < B; b++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint32_t m = (uint32_t)(x % max_prims);
        uint32_t c = (m + N - 1) / N;
        for (uint32_t g = 0; g < N; g++) {
            uint32_t lo = g * c < m ? g * c : m, hi = (g + 1) * c < m ? (g + 1) * c : m;
            size_t slot = (size_t)b * N + g;
            w->c[slot] = hi - lo;
            w->e[slot] = malloc((size_t)(hi - lo + 1) * sizeof(pe_entry_t));
            if (!w->e[slot]) abort();
            for (uint32_t p = lo; p < hi; p++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                uint64_t mask = x & all;
                if (corner_masks && (x >> 60) == 0) mask = 0;   /* culled */
                if (corner_masks && (x >> 60) == 1) mask = all; /* near-clip */
                w->e[slot][p - lo].prim = p;
                w->e[slot][p - lo].mask = mask;
            }
        }
    }
}

static inline void pe_test_work_free(pe_test_work_t *w, uint32_t N, uint32_t B)
{
    for (size_t i = 0; i < (size_t)N * B; i++) free(w->e[i]);
}

#endif
