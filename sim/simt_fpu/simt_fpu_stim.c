/* Stimulus and reference model of the SIMT lane datapath unit tests: see simt_fpu_stim.h. */
#include "simt_fpu_stim.h"

#include <string.h>

#include "isa/isa.h"

const char *const SIMT_FPH_NAME[SIMT_N_FPH] = {"corner2", "corner3", "cornerU", "cvt", "int", "struct", "random"};
const char *const SIMT_SPH_NAME[SIMT_N_SPH] = {"scorner", "segment", "srandom"};

/* ------------------------------------------------------------------------------------------------ model */
uint32_t simt_mod_a(uint32_t v, unsigned mods)
{
    if (mods & 2)
        v &= 0x7fffffffu;
    if (mods & 1)
        v ^= 0x80000000u;
    return v;
}

/* What the interpreter computes for one lane (cmodel/isa/isa_exec.c exec_data): FP-typed opcodes take A with
 * AA then NA, B with NB, C with NC; i2f/u2f raw bits. Non-FPU opcodes: the unit outputs 0. */
void simt_ref_fpu(const simt_fvec_t *v, uint32_t *res, int *pred)
{
    uint32_t A = simt_mod_a(v->a, v->mods), B = v->b ^ ((v->mods & 4) ? 0x80000000u : 0);
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

uint32_t simt_ref_sfu(const simt_svec_t *v)
{
    uint32_t A = simt_mod_a(v->a, v->mods);
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
int simt_sfu_entry(uint8_t op, uint32_t A)
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


/* FPU structured random vector */
static void fgen_struct(rng_t *r, simt_fvec_t *v)
{
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
            uint32_t A = simt_mod_a(v->a, v->mods), B = v->b ^ ((v->mods & 4) ? 0x80000000u : 0);
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

uint64_t simt_fph_count(const simt_stim_cfg_t *o, int ph)
{
    uint64_t n = (uint64_t)N_CORNERS;
    switch (ph) {
    case SIMT_PH_CORNER2: return sizeof BIN_OPS * n * n * 4;
    case SIMT_PH_CORNER3: return n * n * n;
    case SIMT_PH_CORNERU: return 3 * 4 * 4 * n + 2 * n + 2 * 32 * 8;
    case SIMT_PH_CVT: return 3ull * 4 * 256 * (uint64_t)o->cvt_mants;
    case SIMT_PH_INT: return 2ull * 32 * 64;
    case SIMT_PH_STRUCT: return o->n_struct;
    default: return o->n_random;
    }
}

void simt_fph_vec(rng_t *gr, const simt_stim_cfg_t *o, int ph, uint64_t i, simt_fvec_t *v)
{
    memset(v, 0, sizeof *v);
    uint64_t n = (uint64_t)N_CORNERS;
    switch (ph) {
    case SIMT_PH_CORNER2: {   /* [op][modset][a][b] */
        uint64_t b = i % n, a = (i / n) % n, ms = (i / n / n) % 4, op = i / n / n / 4;
        static const uint8_t MS[4] = {0x0, 0x1, 0x6, 0x7};
        v->op = BIN_OPS[op];
        v->a = CORNERS[a];
        v->b = CORNERS[b];
        v->mods = MS[ms];
        v->cc = (uint8_t)((a + b * 3 + ms * 5) & 15);
        break;
    }
    case SIMT_PH_CORNER3:
        v->op = ISA_OP_FMAD;
        v->a = CORNERS[i / n / n];
        v->b = CORNERS[(i / n) % n];
        v->c = CORNERS[i % n];
        v->mods = (uint8_t)((i * 7) % 16);
        break;
    case SIMT_PH_CORNERU: {
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
    case SIMT_PH_CVT: {   /* [op][mode][exponent][significand pattern]: every exponent, ties at every position */
        uint64_t m = i % (uint64_t)o->cvt_mants, e = (i / (uint64_t)o->cvt_mants) % 256;
        uint64_t mode = (i / (uint64_t)o->cvt_mants / 256) % 4, op = i / (uint64_t)o->cvt_mants / 256 / 4;
        static const uint8_t OPS[3] = {ISA_OP_FRND, ISA_OP_F2I, ISA_OP_F2U};
        v->op = OPS[op];
        v->cc = (uint8_t)mode;
        uint32_t f;
        int sh = 150 - (int)e;   /* fraction bits below the integer point */
        if (m < 8 && sh >= 1 && sh <= 23) {   /* exact halves, just below / above, around an odd/even lsb */
            uint32_t half = 1u << (sh - 1), hi = (rng_u32(gr) & 0x7fffff) & ~((half << 1) - 1);
            uint32_t pat[8] = {hi | half, hi | half | (half << 1), hi | (half - 1), hi | half | 1, hi,
                               hi | (half << 1), hi | ((half << 1) - 1), 0x7fffff};
            f = pat[m] & 0x7fffff;
        } else {
            f = gen_frac(gr);
        }
        v->a = mk((uint32_t)(m & 1) ^ (rng_u32(gr) & 1), (uint32_t)e, f);
        break;
    }
    case SIMT_PH_INT: {   /* [op][bit position][pattern] */
        uint64_t w = i % 64, p = (i / 64) % 32;
        v->op = (i / 64 / 32) ? ISA_OP_U2F : ISA_OP_I2F;
        uint32_t b = 1u << p, r = rng_u32(gr);
        uint32_t x;
        if (w < 16) {
            uint32_t vals[16] = {b, b - 1, b + 1, b | (b >> 24), (b | (b >> 24)) + (b >> 23), b | (b >> 24) | 1,
                                 b | ((b >> 24) - (b >= (1u << 25))), ~b, -b, -b - 1, -b + 1, b | (r & (b - 1)),
                                 (b | (r & (b - 1))) & ~((b >> 23) - (b >= (1u << 23))), b << 1 | b, 0x80000000u | b,
                                 0x7fffffffu >> (31 - p)};
            x = vals[w];
        } else {
            x = (b | (r & (b - 1))) ^ (uint32_t)(rng_chance(gr, 1, 3) ? 0x80000000u : 0);
        }
        v->a = x;
        break;
    }
    case SIMT_PH_STRUCT:
        fgen_struct(gr, v);
        break;
    default: {   /* uniform bits, every opcode, now and then a non-FPU one */
        rng_t *r = gr;
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

uint64_t simt_sph_count(const simt_stim_cfg_t *o, int ph)
{
    switch (ph) {
    case SIMT_PS_CORNER: return (uint64_t)N_CORNERS * 6 * 4 + 4;   /* + 4 non-SFU opcodes */
    case SIMT_PS_SEGMENT: return (128ull * 5 + 256) * SEG_POINTS * (uint64_t)o->seg_scales;
    default: return o->n_srandom;
    }
}

static uint32_t f2b(float f) { return isa_float_bits(f); }

void simt_sph_vec(rng_t *gr, const simt_stim_cfg_t *o, int ph, uint64_t i, simt_svec_t *v)
{
    memset(v, 0, sizeof *v);
    rng_t *r = gr;
    switch (ph) {
    case SIMT_PS_CORNER: {
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
    case SIMT_PS_SEGMENT: {   /* [scale][entry][point] */
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

