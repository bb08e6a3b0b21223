/* Small deterministic PRNG (xorshift64*, seeded through splitmix64). State lives in the caller's struct:
 * no global state. The same seed gives the same sequence on every host; stimulus shared with Icarus goes
 * through files written from this generator, never through $random. */
#ifndef GPUPD_COMMON_RNG_H
#define GPUPD_COMMON_RNG_H

#include <stdint.h>

typedef struct { uint64_t s; } rng_t;

static inline void rng_seed(rng_t *r, uint64_t seed)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    r->s = z ? z : 0x2545f4914f6cdd1dull;
}

static inline uint64_t rng_u64(rng_t *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545f4914f6cdd1dull;
}

static inline uint32_t rng_u32(rng_t *r) { return (uint32_t)(rng_u64(r) >> 32); }

/* Uniform in [0, n) (n > 0), by multiply-shift; bias is below 2^-32 and irrelevant for stimulus. */
static inline uint32_t rng_below(rng_t *r, uint32_t n) { return (uint32_t)(((uint64_t)rng_u32(r) * n) >> 32); }

/* Uniform in [lo, hi] inclusive. */
static inline int64_t rng_range(rng_t *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    if (span == 0) return (int64_t)rng_u64(r);
    return lo + (int64_t)(rng_u64(r) % span);
}

/* 1 with probability num/den. */
static inline int rng_chance(rng_t *r, uint32_t num, uint32_t den) { return rng_below(r, den) < num; }

#endif
