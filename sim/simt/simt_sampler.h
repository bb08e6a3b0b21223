/* The deterministic texture sampler of the SIMT verification harnesses: the lockstep co-simulation
 * (sim/simt/cosim_simt.c) and the Icarus vector writer (tb/simt/simt_vectors.c) answer the core's texture
 * requests with it (the texture unit stays in C; docs/simt.md). A hash of (unit, warp id, lane, s, t): a float
 * in [0, 1) most of the time, raw bits sometimes. One definition, so both harnesses expect the same texels. */
#ifndef GPUPD_SIM_SIMT_SAMPLER_H
#define GPUPD_SIM_SIMT_SAMPLER_H

#include <stdint.h>

/* splitmix64 finaliser */
static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* isa_ctx_t.tex callback */
static inline void sampler(void *user, uint32_t unit, uint32_t warp, uint32_t lane, uint32_t s, uint32_t t, uint32_t rgba[4])
{
    (void)user;
    uint64_t h = mix64(((uint64_t)unit << 40) ^ ((uint64_t)warp << 8) ^ lane ^ ((uint64_t)s << 17) ^ ((uint64_t)t << 29));
    for (int c = 0; c < 4; c++) {
        h = mix64(h + (uint64_t)c);
        rgba[c] = (h & 7) ? (0x3f800000u | (uint32_t)(h >> 41)) - 0x00800000u : (uint32_t)(h >> 32);
    }
}

#endif
