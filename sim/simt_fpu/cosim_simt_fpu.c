/* Lockstep unit co-simulation of the SIMT lane datapaths: the verilated simt_fpu and simt_sfu
 * (sim/simt_fpu/simt_lane_top.v through the shim simt_fpu_dut.h) against the ISA's soft-float and SFU
 * functions (cmodel/isa/isa_fp.c, isa_sfu.c: the definition, docs/isa.md sections 5 and 6).
 *
 * Both units are driven every cycle (random idle cycles in between) from deterministic stimulus phases:
 *   FPU  corner2 (every pair of corner values, fadd fmul fmin fmax fsetp, every cc, modifier sets),
 *        corner3 (every triple for fmad), cornerU (conversions of every corner value, every mode),
 *        cvt (every exponent x significand patterns x every mode: frnd f2i f2u), int (i2f/u2f around every
 *        power of two, ties), struct (structured random: near exponents, few-bit significands, ties,
 *        cancellation, FTZ and overflow boundaries), random (uniform bits, every opcode incl. non-FPU ones)
 *   SFU  scorner (corner values x every function x modifiers), segment (every table entry: endpoints,
 *        midpoints and random points of its interval, over several exponents / periods), srandom
 * Every output is compared with the model at the cycle LAT after issue (valid_o timing included). On the first
 * mismatch: op, operands, modifiers, DUT vs model in hex, the phase and vector index, a command that replays
 * exactly that vector and one that replays the run (optionally with an FST waveform); exit status 1.
 * --inject-fpu N / --inject-sfu N corrupt the N-th expectation (tests that a mismatch is caught). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/rng.h"
#include "isa/isa.h"
#include "simt_fpu_dut.h"

#define RING 128

typedef struct {
    uint8_t op, cc, mods;   /* mods: bit0 NA, bit1 AA, bit2 NB, bit3 NC */
    uint32_t a, b, c;
} fvec_t;
typedef struct {
    uint8_t op, mods;       /* mods: bit0 NA, bit1 AA */
    uint32_t a;
} svec_t;

/* ------------------------------------------------------------------------------------------------ model */
static uint32_t mod_a(uint32_t v, unsigned mods)
{
    if (mods & 2)
        v &= 0x7fffffffu;
    if (mods & 1)
        v ^= 0x80000000u;
    return v;
}

/* What the interpreter computes for one lane (cmodel/isa/isa_exec.c exec_data): FP-typed opcodes take A with
 * AA then NA, B with NB, C with NC; i2f/u2f raw bits. Non-FPU opcodes: the unit outputs 0. */
static void ref_fpu(const fvec_t *v, uint32_t *res, int *pred)
{
    uint32_t A = mod_a(v->a, v->mods), B = v->b ^ ((v->mods & 4) ? 0x80000000u : 0);
    uint32_t C = v->c ^ ((v->mods & 8) ? 0x80000000u : 0);
    *pred = 0;
    switch (v->op) {
    case ISA_OP_FADD: *res = isa_f_add(A, B); break;
    case ISA_OP_FMUL: *res = isa_f_mul(A, B); break;
    case ISA_OP_FMAD: *res = isa_f_mad(A, B, C); break;
    case ISA_OP_FMIN: *res = isa_f_min(A, B); break;
    case ISA_OP_FMAX: *res = isa_f_max(A, B); break;
    case ISA_OP_FSETP: *pred = isa_f_setp(A, B, v->cc); *res = (uint32_t)*pred; break;
    case ISA_OP_FRND: *res = isa_f_rnd(A, v->cc & 3); break;
    case ISA_OP_F2I: *res = isa_f2i(A, v->cc & 3); break;
    case ISA_OP_F2U: *res = isa_f2u(A, v->cc & 3); break;
    case ISA_OP_I2F: *res = isa_i2f(v->a); break;
    case ISA_OP_U2F: *res = isa_u2f(v->a); break;
    default: *res = 0; break;
    }
}

static uint32_t ref_sfu(const svec_t *v)
{
    uint32_t A = mod_a(v->a, v->mods);
    switch (v->op) {
    case ISA_OP_RCP: return isa_sfu_rcp(A);
    case ISA_OP_RSQ: return isa_sfu_rsq(A);
    case ISA_OP_EX2: return isa_sfu_ex2(A);
    case ISA_OP_LG2: return isa_sfu_lg2(A);
    case ISA_OP_SIN: return isa_sfu_sin(A);
    case ISA_OP_COS: return isa_sfu_cos(A);
    default: return 0;
    }
}

/* ROM entry (simt_sfu_rom address map) the SFU uses for operand A (after modifiers), -1 if none (special,
 * exact or tiny). Mirrors the reduction of isa_sfu.c, for the per-entry coverage count only. */
static int sfu_entry(uint8_t op, uint32_t A)
{
    uint32_t e = (A >> 23) & 0xff, f = A & 0x7fffff, s = A >> 31;
    if (e == 0 || e == 255)
        return -1;
    int u = (int)e - 127;
    switch (op) {
    case ISA_OP_RCP: return f ? (int)(f >> 16) : -1;
    case ISA_OP_RSQ: if (s) return -1; return (f || (u & 1)) ? 128 + (int)(((unsigned)(u & 1) << 7) | (f >> 16)) : -1;
    case ISA_OP_LG2: return (!s && f) ? 512 + (int)(f >> 16) : -1;
    case ISA_OP_EX2: {
        if (e >= 134)
            return -1;
        int sh = (int)e - 120;
        uint64_t m = f | 0x800000u, mag = sh >= 0 ? m << sh : (-sh >= 64 ? 0 : m >> -sh);
        int64_t x = s ? -(int64_t)mag : (int64_t)mag;
        uint32_t t = (uint32_t)((uint64_t)x & 0x3fffffffu);
        return t ? 384 + (int)(t >> 23) : -1;
    }
    case ISA_OP_SIN: case ISA_OP_COS: {
        if (e < 115)
            return -1;
        __extension__ typedef unsigned __int128 u128;
        u128 p = (u128)(f | 0x800000u) * 0xa2f9836e4e44152aull;
        int sh = 57 - u;
        uint32_t U = sh >= 0 ? (uint32_t)(p >> sh) : (-sh >= 32 ? 0 : (uint32_t)(p << -sh));
        uint32_t q = (U >> 30) + (op == ISA_OP_COS);
        return ((q & 1) ? 768 : 640) + (int)((U >> 23) & 127);
    }
    default: return -1;
    }
}

/* ------------------------------------------------------------------------------------------------ stimulus */
static const uint32_t CORNERS[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000, 0x00800000,
    0x80800000, 0x00800001, 0x00ffffff, 0x00c00000, 0x01000000, 0x7f7fffff, 0xff7fffff, 0x7f7ffffe,
    0x7f000000, 0x7e800000, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0xbf7fffff, 0x3fc00000,
    0x3f000000, 0xbf000000, 0x3f000001, 0x3effffff, 0x40000000, 0x40400000, 0x3f400000, 0x40200000,
    0xc0200000, 0x3fe00000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
    0x7fffffff, 0x4b000000, 0x4b000001, 0x4b800000, 0x4b7fffff, 0x4affffff, 0xcb7fffff, 0x4f000000,
    0x4effffff, 0x4f800000, 0x4f7fffff, 0xcf000000, 0xcf000001, 0xceffffff, 0x5f800000, 0x20000000,
    0x1f800000, 0x33800000, 0x33000000, 0x34000000, 0xb3800000, 0x3eaaaaab, 0x40490fdb, 0xc0490fdb,
    0x3fc90fdb, 0x42fe0000, 0x43000000, 0xc3000000, 0x42ff0000, 0xc2fc0000, 0xc2fe0000, 0x39800000,
};
#define N_CORNERS ((int)(sizeof CORNERS / sizeof CORNERS[0]))

static const uint8_t BIN_OPS[] = {ISA_OP_FADD, ISA_OP_FMUL, ISA_OP_FMIN, ISA_OP_FMAX, ISA_OP_FSETP};
static const uint8_t ALL_FOPS[] = {ISA_OP_FADD, ISA_OP_FMUL, ISA_OP_FMAD, ISA_OP_FMIN, ISA_OP_FMAX, ISA_OP_FSETP,
                                   ISA_OP_FRND, ISA_OP_F2I, ISA_OP_F2U, ISA_OP_I2F, ISA_OP_U2F};
static const uint8_t NON_FPU_OPS[] = {ISA_OP_NOP, ISA_OP_MOV, ISA_OP_IADD, ISA_OP_RCP, ISA_OP_LD_A, 0x7f};
static const uint8_t SFU_OPS[] = {ISA_OP_RCP, ISA_OP_RSQ, ISA_OP_EX2, ISA_OP_LG2, ISA_OP_SIN, ISA_OP_COS};

/* a significand (23 bits) with a pattern that makes ties, carries and long runs likely */
static uint32_t gen_frac(rng_t *r)
{
    switch (rng_below(r, 8)) {
    case 0: case 1: case 2: return rng_u32(r) & 0x7fffff;
    case 3: {   /* few bits set */
        uint32_t f = 0;
        for (uint32_t k = rng_below(r, 4); k; k--)
            f |= 1u << rng_below(r, 23);
        return f;
    }
    case 4: return (1u << rng_below(r, 24)) - 1;                                   /* low run of ones */
    case 5: return 0x7fffff & ~((1u << rng_below(r, 24)) - 1);                     /* high run of ones */
    case 6: return 0x7fffff ^ (1u << rng_below(r, 23)) ^ (rng_chance(r, 1, 2) ? 1u << rng_below(r, 23) : 0);
    default: return (rng_u32(r) & 0x7fffff) & ~((1u << rng_below(r, 20)) - 1);     /* random high, zero low */
    }
}

static uint32_t mk(uint32_t s, uint32_t e, uint32_t f) { return (s << 31) | ((e & 0xff) << 23) | (f & 0x7fffff); }

static uint32_t clamp_e(int e) { return e < 0 ? 0 : e > 255 ? 255 : (uint32_t)e; }

/* a float: corner, or exponent from a mix (uniform, near ref_e, near the ends, near 127) and gen_frac */
static uint32_t gen_f(rng_t *r, int ref_e)
{
    uint32_t k = rng_below(r, 100);
    if (k < 6)
        return CORNERS[rng_below(r, N_CORNERS)];
    int e;
    if (k < 35) e = (int)rng_below(r, 256);
    else if (k < 70) e = ref_e + (int)rng_range(r, -30, 30);
    else if (k < 82) e = rng_chance(r, 1, 2) ? (int)rng_below(r, 24) : 255 - (int)rng_below(r, 24);
    else e = 127 + (int)rng_range(r, -40, 40);
    return mk(rng_u32(r) & 1, clamp_e(e), gen_frac(r));
}

typedef struct {
    rng_t r;
    int dense;
} gen_t;

/* FPU structured random vector */
static void fgen_struct(gen_t *g, fvec_t *v)
{
    rng_t *r = &g->r;
    v->op = ALL_FOPS[rng_below(r, sizeof ALL_FOPS)];
    v->cc = (uint8_t)rng_below(r, 16);
    v->mods = (uint8_t)(rng_chance(r, 1, 3) ? rng_below(r, 16) : 0);
    v->a = gen_f(r, 127);
    int ea = (int)((v->a >> 23) & 0xff);
    v->b = gen_f(r, ea);
    v->c = gen_f(r, ea);
    switch (v->op) {
    case ISA_OP_FMUL: case ISA_OP_FMAD:
        if (rng_chance(r, 1, 3)) {   /* product exponent near the FTZ (2^-126) or overflow boundary */
            int target = rng_chance(r, 1, 2) ? 127 + 1 : 127 + 254;
            int eb = target - ea + (int)rng_range(r, -3, 3);
            v->b = mk(rng_u32(r) & 1, clamp_e(eb), gen_frac(r));
        }
        if (v->op == ISA_OP_FMAD && rng_chance(r, 1, 2)) {   /* c near -(a*b): cancellation */
            uint32_t A = mod_a(v->a, v->mods), B = v->b ^ ((v->mods & 4) ? 0x80000000u : 0);
            uint32_t p = isa_f_mul(A, B) ^ 0x80000000u;
            if (v->mods & 8)
                p ^= 0x80000000u;
            uint32_t delta = rng_chance(r, 1, 2) ? rng_below(r, 4) : rng_u32(r) & ((1u << rng_below(r, 24)) - 1);
            v->c = rng_chance(r, 1, 2) ? p + delta : p - delta;
        }
        break;
    case ISA_OP_FRND: case ISA_OP_F2I: case ISA_OP_F2U:
        if (rng_chance(r, 2, 3))
            v->a = mk(rng_u32(r) & 1, 120 + rng_below(r, 42), gen_frac(r));
        break;
    case ISA_OP_I2F: case ISA_OP_U2F: {
        uint32_t p = rng_below(r, 32);
        uint32_t x = rng_chance(r, 1, 2) ? rng_u32(r) >> rng_below(r, 32) : (1u << p) + (uint32_t)rng_range(r, -3, 3);
        if (rng_chance(r, 1, 4) && p >= 24)   /* exact tie at the 24-bit rounding point, odd or even */
            x = (1u << p) | ((rng_u32(r) & ((1u << (p - 23)) - 1)) << (p - 23)) | (1u << (p - 24));
        v->a = x;
        break;
    }
    default: break;
    }
}

/* ---- FPU phases: each returns its vector count and fills vector i */
enum { PH_CORNER2, PH_CORNER3, PH_CORNERU, PH_CVT, PH_INT, PH_STRUCT, PH_RANDOM, N_FPH };
static const char *FPH_NAME[N_FPH] = {"corner2", "corner3", "cornerU", "cvt", "int", "struct", "random"};
enum { PS_CORNER, PS_SEGMENT, PS_RANDOM, N_SPH };
static const char *SPH_NAME[N_SPH] = {"scorner", "segment", "srandom"};

typedef struct {
    uint64_t seed;
    uint64_t n_struct, n_random, n_srandom;
    int seg_scales;            /* exponents / periods per SFU table entry point */
    int cvt_mants;             /* significands per exponent in the cvt phase */
    int gap_pct;
    int fph_only, sph_only;    /* -1: all */
    uint64_t inject_fpu, inject_sfu;   /* 1-based index of the checked result to corrupt, 0: none */
    const char *fst;
    int quiet;
    int have_vec, have_svec;
    fvec_t vec;
    svec_t svec;
    char argv0[256];
    char phases[256];          /* the --phase options given, for the reproduce line */
} opts_t;

static uint64_t fph_count(const opts_t *o, int ph)
{
    uint64_t n = (uint64_t)N_CORNERS;
    switch (ph) {
    case PH_CORNER2: return sizeof BIN_OPS * n * n * 4;
    case PH_CORNER3: return n * n * n;
    case PH_CORNERU: return 3 * 4 * 4 * n + 2 * n + 2 * 32 * 8;
    case PH_CVT: return 3ull * 4 * 256 * (uint64_t)o->cvt_mants;
    case PH_INT: return 2ull * 32 * 64;
    case PH_STRUCT: return o->n_struct;
    default: return o->n_random;
    }
}

static void fph_vec(gen_t *g, const opts_t *o, int ph, uint64_t i, fvec_t *v)
{
    memset(v, 0, sizeof *v);
    uint64_t n = (uint64_t)N_CORNERS;
    switch (ph) {
    case PH_CORNER2: {   /* [op][modset][a][b] */
        uint64_t b = i % n, a = (i / n) % n, ms = (i / n / n) % 4, op = i / n / n / 4;
        static const uint8_t MS[4] = {0x0, 0x1, 0x6, 0x7};
        v->op = BIN_OPS[op];
        v->a = CORNERS[a];
        v->b = CORNERS[b];
        v->mods = MS[ms];
        v->cc = (uint8_t)((a + b * 3 + ms * 5) & 15);
        break;
    }
    case PH_CORNER3:
        v->op = ISA_OP_FMAD;
        v->a = CORNERS[i / n / n];
        v->b = CORNERS[(i / n) % n];
        v->c = CORNERS[i % n];
        v->mods = (uint8_t)((i * 7) % 16);
        break;
    case PH_CORNERU: {
        uint64_t k = i;
        if (k < 3 * 4 * 4 * n) {   /* [op][mode][mods][a] */
            static const uint8_t OPS[3] = {ISA_OP_FRND, ISA_OP_F2I, ISA_OP_F2U};
            v->op = OPS[k / (16 * n)];
            v->cc = (uint8_t)((k / (4 * n)) % 4);
            v->mods = (uint8_t)((k / n) % 4);
            v->a = CORNERS[k % n];
            break;
        }
        k -= 3 * 4 * 4 * n;
        if (k < 2 * n) {
            v->op = k < n ? ISA_OP_I2F : ISA_OP_U2F;
            v->a = CORNERS[k % n];
            break;
        }
        k -= 2 * n;   /* integers around 2^p: 2^p-1, 2^p, 2^p+1, -2^p, ~0 >> p, ties */
        v->op = (k & 1) ? ISA_OP_U2F : ISA_OP_I2F;
        {
            uint32_t p = (uint32_t)(k / 2) % 32, w = (uint32_t)(k / 64);
            uint32_t b = 1u << p;
            uint32_t vals[8] = {b - 1, b, b + 1, (uint32_t)-(int32_t)b, 0xffffffffu >> p, b | (b >> 24) | 1,
                                b | (b >> 24), b | (b >> 23) | (b >> 24)};
            v->a = vals[w & 7];
        }
        break;
    }
    case PH_CVT: {   /* [op][mode][exponent][significand pattern]: every exponent, ties at every position */
        uint64_t m = i % (uint64_t)o->cvt_mants, e = (i / (uint64_t)o->cvt_mants) % 256;
        uint64_t mode = (i / (uint64_t)o->cvt_mants / 256) % 4, op = i / (uint64_t)o->cvt_mants / 256 / 4;
        static const uint8_t OPS[3] = {ISA_OP_FRND, ISA_OP_F2I, ISA_OP_F2U};
        v->op = OPS[op];
        v->cc = (uint8_t)mode;
        uint32_t f;
        int sh = 150 - (int)e;   /* fraction bits below the integer point */
        if (m < 8 && sh >= 1 && sh <= 23) {   /* exact halves, just below / above, around an odd/even lsb */
            uint32_t half = 1u << (sh - 1), hi = (rng_u32(&g->r) & 0x7fffff) & ~((half << 1) - 1);
            uint32_t pat[8] = {hi | half, hi | half | (half << 1), hi | (half - 1), hi | half | 1, hi,
                               hi | (half << 1), hi | ((half << 1) - 1), 0x7fffff};
            f = pat[m] & 0x7fffff;
        } else {
            f = gen_frac(&g->r);
        }
        v->a = mk((uint32_t)(m & 1) ^ (rng_u32(&g->r) & 1), (uint32_t)e, f);
        break;
    }
    case PH_INT: {   /* [op][bit position][pattern] */
        uint64_t w = i % 64, p = (i / 64) % 32;
        v->op = (i / 64 / 32) ? ISA_OP_U2F : ISA_OP_I2F;
        uint32_t b = 1u << p, r = rng_u32(&g->r);
        uint32_t x;
        if (w < 16) {
            uint32_t vals[16] = {b, b - 1, b + 1, b | (b >> 24), (b | (b >> 24)) + (b >> 23), b | (b >> 24) | 1,
                                 b | ((b >> 24) - (b >= (1u << 25))), ~b, -b, -b - 1, -b + 1, b | (r & (b - 1)),
                                 (b | (r & (b - 1))) & ~((b >> 23) - (b >= (1u << 23))), b << 1 | b, 0x80000000u | b,
                                 0x7fffffffu >> (31 - p)};
            x = vals[w];
        } else {
            x = (b | (r & (b - 1))) ^ (uint32_t)(rng_chance(&g->r, 1, 3) ? 0x80000000u : 0);
        }
        v->a = x;
        break;
    }
    case PH_STRUCT:
        fgen_struct(g, v);
        break;
    default: {   /* uniform bits, every opcode, now and then a non-FPU one */
        rng_t *r = &g->r;
        v->op = rng_chance(r, 1, 40) ? NON_FPU_OPS[rng_below(r, sizeof NON_FPU_OPS)] : ALL_FOPS[rng_below(r, sizeof ALL_FOPS)];
        v->cc = (uint8_t)rng_below(r, 16);
        v->mods = (uint8_t)rng_below(r, 16);
        v->a = rng_u32(r);
        v->b = rng_u32(r);
        v->c = rng_u32(r);
        break;
    }
    }
    (void)o;
}

/* ---- SFU phases */
#define SEG_POINTS 10   /* per table entry: d = 0, 1, mid-1, mid, mid+1, max-1, max, 3 random */

static uint64_t sph_count(const opts_t *o, int ph)
{
    switch (ph) {
    case PS_CORNER: return (uint64_t)N_CORNERS * 6 * 4 + 4;   /* + 4 non-SFU opcodes */
    case PS_SEGMENT: return (128ull * 5 + 256) * SEG_POINTS * (uint64_t)o->seg_scales;
    default: return o->n_srandom;
    }
}

static uint32_t f2b(float f) { return isa_float_bits(f); }

static void sph_vec(gen_t *g, const opts_t *o, int ph, uint64_t i, svec_t *v)
{
    memset(v, 0, sizeof *v);
    rng_t *r = &g->r;
    switch (ph) {
    case PS_CORNER: {
        uint64_t n = (uint64_t)N_CORNERS;
        if (i >= n * 24) {
            static const uint8_t NS[4] = {ISA_OP_FADD, ISA_OP_NOP, ISA_OP_IADD, 0x7f};
            v->op = NS[i - n * 24];
            v->a = 0x3f800000;
            break;
        }
        v->op = SFU_OPS[i / (4 * n)];
        v->mods = (uint8_t)((i / n) % 4);
        v->a = CORNERS[i % n];
        break;
    }
    case PS_SEGMENT: {   /* [scale][entry][point] */
        uint64_t pt = i % SEG_POINTS, ent = (i / SEG_POINTS) % (128 * 5 + 256), sc = i / SEG_POINTS / (128 * 5 + 256);
        uint32_t fn, idx;   /* fn: 0 rcp 1 rsq 2 ex2 3 lg2 4 sin 5 cos (rsq: 256 entries) */
        if (ent < 128) { fn = 0; idx = (uint32_t)ent; }
        else if (ent < 384) { fn = 1; idx = (uint32_t)ent - 128; }
        else { fn = 2 + (uint32_t)(ent - 384) / 128; idx = (uint32_t)(ent - 384) % 128; }
        v->op = SFU_OPS[fn];
        /* d in [0, 2^23): position inside the entry's interval */
        uint32_t D = 1u << 23, dpts[7] = {0, 1, D / 2 - 1, D / 2, D / 2 + 1, D - 2, D - 1};
        uint32_t d = pt < 7 ? dpts[pt] : rng_below(r, D);
        uint32_t e;
        if (sc == 0) e = 127;
        else if (sc == 1) e = 1 + rng_below(r, 254);
        else e = rng_chance(r, 1, 2) ? 1 + rng_below(r, 8) : 246 + rng_below(r, 8);
        if (fn == 0 || fn == 1 || fn == 3) {   /* mantissa-indexed: f = idx<<16 | d>>7 */
            uint32_t low = d >> 7;
            if (fn == 1) {   /* idx bit 7 = odd exponent (u = e - 127 odd <=> e even) */
                e = (e & ~1u) | ((idx >> 7) ? 0u : 1u);
                if (e == 0) e = 2;
                if (e == 255) e = 253;
            }
            v->a = mk(fn == 0 ? (uint32_t)(i & 1) : 0, e, ((idx & 127) << 16) | low);
        } else if (fn == 2) {   /* ex2: a = n + (idx*2^23 + d)/2^30, n over the range */
            int nn = sc == 0 ? 0 : sc == 1 ? (int)rng_range(r, -126, 126) : (rng_chance(r, 1, 2) ? -127 : 127);
            if (sc > 2) nn = (int)rng_range(r, -8, 8);
            double a = nn + ((double)idx * D + d) / (double)(1u << 30);
            v->a = f2b((float)a);
        } else {   /* sin/cos: a = (4k + q + (idx*2^23 + d)/2^30) * pi/2 */
            int q = (int)rng_below(r, 4);
            double k = sc == 0 ? 0 : sc == 1 ? (double)rng_range(r, -8, 8) : (double)rng_range(r, -2000, 2000);
            double t = ((double)idx * D + d) / (double)(1u << 30);
            double a = (4.0 * k + q + t) * (3.14159265358979323846 / 2);
            v->a = f2b((float)a);
        }
        v->mods = 0;
        break;
    }
    default: {
        v->op = SFU_OPS[rng_below(r, 6)];
        v->mods = (uint8_t)(rng_chance(r, 1, 4) ? rng_below(r, 4) : 0);
        uint32_t k = rng_below(r, 4);
        if (k == 0) v->a = rng_u32(r);
        else if (k == 1) v->a = gen_f(r, 127);
        else if (v->op == ISA_OP_EX2) v->a = mk(rng_u32(r) & 1, 100 + rng_below(r, 36), rng_u32(r));
        else if (v->op == ISA_OP_SIN || v->op == ISA_OP_COS) v->a = mk(rng_u32(r) & 1, 110 + rng_below(r, 40), rng_u32(r));
        else v->a = mk(rng_u32(r) & 1, rng_below(r, 256), rng_u32(r));
        break;
    }
    }
    (void)o;
}

/* ------------------------------------------------------------------------------------------------ run */
typedef struct {
    int valid;
    int ph;
    uint64_t idx;
    uint64_t cycle;
    fvec_t v;
    uint32_t res;
    int pred;
} fslot_t;
typedef struct {
    int valid;
    int ph;
    uint64_t idx;
    uint64_t cycle;
    svec_t v;
    uint32_t res;
} sslot_t;

static void fdesc(const fvec_t *v, char *buf, size_t cap)
{
    const char *n = isa_op_name(v->op);
    snprintf(buf, cap, "%s (op 0x%02x) cc=%u na=%u aa=%u nb=%u nc=%u a=0x%08" PRIx32 " b=0x%08" PRIx32 " c=0x%08" PRIx32,
             n ? n : "?", v->op, v->cc, v->mods & 1, (v->mods >> 1) & 1, (v->mods >> 2) & 1, (v->mods >> 3) & 1,
             v->a, v->b, v->c);
}

static void sdesc(const svec_t *v, char *buf, size_t cap)
{
    const char *n = isa_op_name(v->op);
    snprintf(buf, cap, "%s (op 0x%02x) na=%u aa=%u a=0x%08" PRIx32, n ? n : "?", v->op, v->mods & 1,
             (v->mods >> 1) & 1, v->a);
}

static void usage(const char *p)
{
    fprintf(stderr,
            "usage: %s [--seed S] [--struct N] [--random N] [--srandom N] [--seg-scales K] [--cvt-mants M]\n"
            "          [--gap PCT] [--phase NAME] [--inject-fpu N] [--inject-sfu N] [--fst FILE] [--quiet]\n"
            "       %s --vec OP,CC,MODS,A,B,C     one FPU vector (MODS: bit0 NA bit1 AA bit2 NB bit3 NC; hex ok)\n"
            "       %s --svec OP,MODS,A           one SFU vector (MODS: bit0 NA bit1 AA)\n"
            "phases: corner2 corner3 cornerU cvt int struct random (FPU), scorner segment srandom (SFU)\n",
            p, p, p);
    exit(2);
}

static uint64_t num(const char *s, const char *what)
{
    char *end;
    uint64_t v = strtoull(s, &end, 0);
    if (!*s || *end) {
        fprintf(stderr, "cosim-simt-fpu: bad %s '%s'\n", what, s);
        exit(2);
    }
    return v;
}

static int parse_list(const char *s, uint64_t *out, int max)
{
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok(buf, ","); t && n < max; t = strtok(NULL, ","))
        out[n++] = num(t, "vector field");
    return n;
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.seed = 0x5eed;
    o.n_struct = 400000;
    o.n_random = 200000;
    o.n_srandom = 300000;
    o.seg_scales = 4;
    o.cvt_mants = 32;
    o.gap_pct = 3;
    o.fph_only = o.sph_only = -1;
    snprintf(o.argv0, sizeof o.argv0, "%s", argv[0]);
    int any_phase = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV() do { if (!val) usage(argv[0]); i++; } while (0)
        if (!strcmp(a, "--seed")) { NEEDV(); o.seed = num(val, "seed"); }
        else if (!strcmp(a, "--struct")) { NEEDV(); o.n_struct = num(val, "count"); }
        else if (!strcmp(a, "--random")) { NEEDV(); o.n_random = num(val, "count"); }
        else if (!strcmp(a, "--srandom")) { NEEDV(); o.n_srandom = num(val, "count"); }
        else if (!strcmp(a, "--seg-scales")) { NEEDV(); o.seg_scales = (int)num(val, "count"); }
        else if (!strcmp(a, "--cvt-mants")) { NEEDV(); o.cvt_mants = (int)num(val, "count"); }
        else if (!strcmp(a, "--gap")) { NEEDV(); o.gap_pct = (int)num(val, "percentage"); }
        else if (!strcmp(a, "--inject-fpu")) { NEEDV(); o.inject_fpu = num(val, "index"); }
        else if (!strcmp(a, "--inject-sfu")) { NEEDV(); o.inject_sfu = num(val, "index"); }
        else if (!strcmp(a, "--fst")) { NEEDV(); o.fst = val; }
        else if (!strcmp(a, "--quiet")) o.quiet = 1;
        else if (!strcmp(a, "--phase")) {
            NEEDV();
            int found = 0;
            if (!any_phase) { o.fph_only = N_FPH; o.sph_only = N_SPH; }   /* none unless named */
            any_phase = 1;
            for (int p = 0; p < N_FPH; p++) if (!strcmp(val, FPH_NAME[p])) { o.fph_only = p; found = 1; }
            for (int p = 0; p < N_SPH; p++) if (!strcmp(val, SPH_NAME[p])) { o.sph_only = p; found = 1; }
            if (!found) usage(argv[0]);
            size_t l = strlen(o.phases);
            snprintf(o.phases + l, sizeof o.phases - l, " --phase %s", val);
        } else if (!strcmp(a, "--vec")) {
            NEEDV();
            uint64_t f[6] = {0};
            if (parse_list(val, f, 6) != 6) usage(argv[0]);
            o.have_vec = 1;
            o.vec = (fvec_t){(uint8_t)f[0], (uint8_t)f[1], (uint8_t)f[2], (uint32_t)f[3], (uint32_t)f[4], (uint32_t)f[5]};
        } else if (!strcmp(a, "--svec")) {
            NEEDV();
            uint64_t f[3] = {0};
            if (parse_list(val, f, 3) != 3) usage(argv[0]);
            o.have_svec = 1;
            o.svec = (svec_t){(uint8_t)f[0], (uint8_t)f[1], (uint32_t)f[2]};
        } else usage(argv[0]);
    }
    const int latf = simt_fpu_dut_lat_fpu(), lats = simt_fpu_dut_lat_sfu();
    if (o.have_vec || o.have_svec) { o.fph_only = N_FPH; o.sph_only = N_SPH; o.gap_pct = 0; }

    gen_t gf = {{0}, 0}, gs = {{0}, 0};
    rng_seed(&gf.r, o.seed);
    rng_seed(&gs.r, o.seed ^ 0x5f5f5f5full);
    rng_t gaprng;
    rng_seed(&gaprng, o.seed ^ 0x9a9a9a9aull);

    uint64_t ftotal = 0, stotal = 0;
    for (int p = 0; p < N_FPH; p++) if (o.fph_only < 0 || o.fph_only == p) ftotal += fph_count(&o, p);
    for (int p = 0; p < N_SPH; p++) if (o.sph_only < 0 || o.sph_only == p) stotal += sph_count(&o, p);
    if (o.have_vec) ftotal = 1;
    if (o.have_svec) stotal = 1;
    if (!o.quiet)
        printf("cosim-simt-fpu: seed 0x%" PRIx64 ", LAT fpu %d sfu %d: %" PRIu64 " FPU and %" PRIu64 " SFU vectors\n",
               o.seed, latf, lats, ftotal, stotal);

    simt_fpu_dut_t *d = simt_fpu_dut_new(o.fst);
    fslot_t fr[RING];
    sslot_t sr[RING];
    memset(fr, 0, sizeof fr);
    memset(sr, 0, sizeof sr);
    int fph = 0, sph = 0;
    uint64_t fi = 0, si = 0;   /* index inside the current phase */
    uint64_t fdone = 0, sdone = 0, fchecked = 0, schecked = 0, last_issue = 0;
    uint64_t fph_checked[N_FPH] = {0}, sph_checked[N_SPH] = {0};
    uint64_t op_count[128] = {0};
    static uint32_t seg_hits[896];
    memset(seg_hits, 0, sizeof seg_hits);
    int failed = 0;
    clock_t t0 = clock();
    uint64_t cycle;
    for (cycle = 0;; cycle++) {
        simt_fpu_in_t in_f;
        simt_sfu_in_t in_s;
        memset(&in_f, 0, sizeof in_f);
        memset(&in_s, 0, sizeof in_s);
        fslot_t *fs = &fr[cycle % RING];
        sslot_t *ss = &sr[cycle % RING];
        int gap = o.gap_pct && (int)rng_below(&gaprng, 100) < o.gap_pct;
        /* next FPU vector */
        fs->valid = 0;
        if (fdone < ftotal && !gap) {
            if (o.have_vec) {
                fs->v = o.vec;
                fs->ph = N_FPH;
                fs->idx = 0;
            } else {
                while (fph < N_FPH && ((o.fph_only >= 0 && o.fph_only != fph) || fi >= fph_count(&o, fph))) {
                    fph++;
                    fi = 0;
                }
                fph_vec(&gf, &o, fph, fi, &fs->v);
                fs->ph = fph;
                fs->idx = fi++;
            }
            fs->valid = 1;
            fs->cycle = cycle;
            ref_fpu(&fs->v, &fs->res, &fs->pred);
            fdone++;
            last_issue = cycle;
            in_f = (simt_fpu_in_t){1, fs->v.op, fs->v.cc, fs->v.mods & 1, (fs->v.mods >> 1) & 1,
                                   (fs->v.mods >> 2) & 1, (fs->v.mods >> 3) & 1, fs->v.a, fs->v.b, fs->v.c};
            if (fs->v.op < 128) op_count[fs->v.op]++;
        } else {   /* idle: random garbage on the data inputs (must not matter) */
            in_f.op = (uint8_t)(rng_u32(&gaprng) & 0x7f);
            in_f.a = rng_u32(&gaprng);
        }
        ss->valid = 0;
        if (sdone < stotal && !gap) {
            if (o.have_svec) {
                ss->v = o.svec;
                ss->ph = N_SPH;
                ss->idx = 0;
            } else {
                while (sph < N_SPH && ((o.sph_only >= 0 && o.sph_only != sph) || si >= sph_count(&o, sph))) {
                    sph++;
                    si = 0;
                }
                sph_vec(&gs, &o, sph, si, &ss->v);
                ss->ph = sph;
                ss->idx = si++;
            }
            ss->valid = 1;
            ss->cycle = cycle;
            ss->res = ref_sfu(&ss->v);
            sdone++;
            last_issue = cycle;
            in_s = (simt_sfu_in_t){1, ss->v.op, ss->v.mods & 1, (ss->v.mods >> 1) & 1, ss->v.a};
            if (ss->v.op < 128) op_count[ss->v.op]++;
            int ent = sfu_entry(ss->v.op, mod_a(ss->v.a, ss->v.mods));
            if (ent >= 0) seg_hits[ent]++;
        } else {
            in_s.op = (uint8_t)(rng_u32(&gaprng) & 0x7f);
            in_s.a = rng_u32(&gaprng);
        }
        simt_fpu_out_t of;
        simt_sfu_out_t os;
        simt_fpu_dut_eval(d, &in_f, &in_s, &of, &os);
        /* compare: the slot issued LAT cycles ago */
        if (cycle >= (uint64_t)latf || of.valid) {
            const fslot_t *e = cycle >= (uint64_t)latf ? &fr[(cycle - (uint64_t)latf) % RING] : NULL;
            int ev = e && e->valid;
            uint32_t eres = ev ? e->res : 0;
            int epred = ev ? e->pred : 0;
            if (ev && ++fchecked == o.inject_fpu) {
                eres ^= 1;
                printf("cosim-simt-fpu: --inject-fpu %" PRIu64 ": expectation of FPU result #%" PRIu64 " corrupted\n",
                       o.inject_fpu, fchecked);
            }
            if (ev) fph_checked[e->ph < N_FPH ? e->ph : 0]++;
            if (of.valid != ev || (ev && (of.res != eres || of.pred != epred))) {
                char buf[200];
                if (ev) fdesc(&e->v, buf, sizeof buf); else snprintf(buf, sizeof buf, "(no operation issued)");
                printf("MISMATCH simt_fpu at cycle %" PRIu64 " (LAT %d): %s\n", cycle, latf, buf);
                printf("  DUT   valid=%d res=0x%08" PRIx32 " pred=%d\n", of.valid, of.res, of.pred);
                printf("  model valid=%d res=0x%08" PRIx32 " pred=%d\n", ev, eres, epred);
                if (ev) {
                    printf("  phase %s, vector #%" PRIu64 ", issued at cycle %" PRIu64 "\n",
                           e->ph < N_FPH ? FPH_NAME[e->ph] : "--vec", e->idx, e->cycle);
                    printf("  reproduce this vector: %s --vec 0x%02x,%u,0x%x,0x%08" PRIx32 ",0x%08" PRIx32 ",0x%08" PRIx32 "\n",
                           o.argv0, e->v.op, e->v.cc, e->v.mods, e->v.a, e->v.b, e->v.c);
                }
                failed = 1;
            }
        }
        if (cycle >= (uint64_t)lats || os.valid) {
            const sslot_t *e = cycle >= (uint64_t)lats ? &sr[(cycle - (uint64_t)lats) % RING] : NULL;
            int ev = e && e->valid;
            uint32_t eres = ev ? e->res : 0;
            if (ev && ++schecked == o.inject_sfu) {
                eres ^= 1;
                printf("cosim-simt-fpu: --inject-sfu %" PRIu64 ": expectation of SFU result #%" PRIu64 " corrupted\n",
                       o.inject_sfu, schecked);
            }
            if (ev) sph_checked[e->ph < N_SPH ? e->ph : 0]++;
            if (os.valid != ev || (ev && os.res != eres)) {
                char buf[200];
                if (ev) sdesc(&e->v, buf, sizeof buf); else snprintf(buf, sizeof buf, "(no operation issued)");
                printf("MISMATCH simt_sfu at cycle %" PRIu64 " (LAT %d): %s\n", cycle, lats, buf);
                printf("  DUT   valid=%d res=0x%08" PRIx32 "\n", os.valid, os.res);
                printf("  model valid=%d res=0x%08" PRIx32 "\n", ev, eres);
                if (ev) {
                    printf("  phase %s, vector #%" PRIu64 ", issued at cycle %" PRIu64 "\n",
                           e->ph < N_SPH ? SPH_NAME[e->ph] : "--svec", e->idx, e->cycle);
                    printf("  reproduce this vector: %s --svec 0x%02x,0x%x,0x%08" PRIx32 "\n", o.argv0, e->v.op,
                           e->v.mods, e->v.a);
                }
                failed = 1;
            }
        }
        if (failed) {
            printf("  reproduce the run: %s --seed 0x%" PRIx64 "%s --struct %" PRIu64 " --random %" PRIu64
                   " --srandom %" PRIu64 " --seg-scales %d --cvt-mants %d --gap %d [--fst out.fst]\n",
                   o.argv0, o.seed, o.phases, o.n_struct, o.n_random, o.n_srandom, o.seg_scales, o.cvt_mants, o.gap_pct);
            printf("FAIL\n");
            simt_fpu_dut_free(d);
            return 1;
        }
        simt_fpu_dut_clock(d);
        if (fdone == ftotal && sdone == stotal && cycle >= last_issue + (uint64_t)(latf > lats ? latf : lats) + 1)
            break;
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    simt_fpu_dut_free(d);
    if (fchecked != ftotal || schecked != stotal) {
        printf("FAIL: checked %" PRIu64 "/%" PRIu64 " FPU and %" PRIu64 "/%" PRIu64 " SFU results\n", fchecked, ftotal,
               schecked, stotal);
        return 1;
    }
    if (fchecked + schecked == 0) {
        printf("FAIL: nothing was compared\n");
        return 1;
    }
    if (!o.quiet || 1) {
        printf("cosim-simt-fpu: FPU per phase:");
        for (int p = 0; p < N_FPH; p++) printf(" %s %" PRIu64, FPH_NAME[p], fph_checked[p]);
        printf("\ncosim-simt-fpu: SFU per phase:");
        for (int p = 0; p < N_SPH; p++) printf(" %s %" PRIu64, SPH_NAME[p], sph_checked[p]);
        printf("\ncosim-simt-fpu: per op:");
        for (int k = 0; k < 128; k++)
            if (op_count[k] && isa_op_name((uint32_t)k)) printf(" %s %" PRIu64, isa_op_name((uint32_t)k), op_count[k]);
        printf("\n");
    }
    /* every SFU table entry must have been exercised when the segment phase ran */
    if (o.sph_only < 0 || o.sph_only == PS_SEGMENT) {
        uint32_t minh = UINT32_MAX;
        int minent = 0;
        for (int k = 0; k < 896; k++)
            if (seg_hits[k] < minh) { minh = seg_hits[k]; minent = k; }
        printf("cosim-simt-fpu: SFU table entries hit: min %u (entry %d of 896)\n", minh, minent);
        if (minh == 0) {
            printf("FAIL: SFU table entry %d (simt_sfu_rom address) never exercised\n", minent);
            return 1;
        }
    }
    printf("cosim-simt-fpu: %" PRIu64 " cycles, %" PRIu64 " FPU + %" PRIu64 " SFU results compared in %.2f s: "
           "%.2f M ops/s, %.2f M cycles/s\n", cycle + 1, fchecked, schecked, secs,
           secs > 0 ? (double)(fchecked + schecked) / secs / 1e6 : 0.0, secs > 0 ? (double)(cycle + 1) / secs / 1e6 : 0.0);
    printf("PASS\n");
    return 0;
}
