/* Shared fixture of the CD system unit tests (test_cdsys.c, test_cdsys_stream.c): a random workload of B
 * batches of N GPUs' chunks, P2G inputs from the shared stimulus generator, masks from the definition p2g_mask,
 * golden lists from the SPEC 4.2 invariant. Header-only (each test is one translation unit). Deterministic:
 * the project's rng from the seed. */
#ifndef GPUPD_TEST_CDSYS_TEST_WORK_H
#define GPUPD_TEST_CDSYS_TEST_WORK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "p2g/p2g_stim.h"
#include "sys/cdsys.h"

/* random workload: B batches, chunk sizes 0..maxc (some 0), two configurations */
static void cdsys_test_work_make(cdsys_work_t *w, uint32_t N, uint32_t B, uint32_t maxc, uint32_t cp_cost, uint64_t seed, int golden)
{
    rng_t r;
    rng_seed(&r, seed);
    memset(w, 0, sizeof *w);
    w->n_gpus = N;
    w->n_batches = B;
    w->n_cfgs = 2;
    w->cfgs = calloc(2, sizeof *w->cfgs);
    w->cfgs[0] = p2g_config_default(N, 640, 480);
    w->cfgs[1] = p2g_config_default(N, 300, 200);
    w->cfgs[1].mode = P2G_MODE_LINEAR;
    w->cfgs[1].tile_log2 = 4;
    size_t slots = (size_t)B * N;
    w->prims = calloc(slots, sizeof *w->prims);
    w->counts = calloc(slots, sizeof *w->counts);
    w->barrier = calloc(B, 1);
    for (uint32_t b = 0; b < B; b++) {
        w->barrier[b] = b % 5 == 0;
        uint32_t id = 0;
        for (uint32_t g = 0; g < N; g++) {
            size_t s = (size_t)b * N + g;
            uint32_t n = rng_chance(&r, 1, 6) ? 0 : rng_below(&r, maxc + 1);
            if (b == 3) n = 0;                    /* a batch with no primitive at all */
            w->counts[s] = n;
            w->prims[s] = calloc(n ? n : 1, sizeof(cdsys_prim_t));
            uint32_t ready = 0;
            for (uint32_t i = 0; i < n; i++) {
                cdsys_prim_t *p = &w->prims[s][i];
                p->cfg = (i / 7 + b) % 2;
                p2g_stim_any(&r, &w->cfgs[p->cfg], &p->p);
                p->p.prim_id = id++;
                ready += cp_cost ? rng_below(&r, 2 * cp_cost + 1) : 0;
                p->ready = ready;
                p->mask = p2g_mask(&w->cfgs[p->cfg], &p->p);
            }
        }
    }
    if (!golden) return;
    w->golden = calloc(slots, sizeof *w->golden);
    w->golden_n = calloc(slots, sizeof *w->golden_n);
    for (uint32_t b = 0; b < B; b++)
        for (uint32_t k = 0; k < N; k++) {
            size_t s = (size_t)b * N + k;
            uint32_t tot = 0;
            for (uint32_t j = 0; j < N; j++) tot += w->counts[(size_t)b * N + j];
            w->golden[s] = calloc(tot ? tot : 1, sizeof(uint32_t));
            for (uint32_t j = 0; j < N; j++)
                for (uint32_t i = 0; i < w->counts[(size_t)b * N + j]; i++)
                    if (w->prims[(size_t)b * N + j][i].mask >> k & 1) w->golden[s][w->golden_n[s]++] = w->prims[(size_t)b * N + j][i].p.prim_id;
        }
}

#endif
