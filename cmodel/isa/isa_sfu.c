/* GPUpd ISA: special function unit (rcp, rsq, ex2, lg2, sin, cos), table + quadratic interpolation in
 * integer arithmetic. Tables: defs/sfu_*.hex (also read by the RTL with $readmemh), compiled in through
 * the generated build/gen/isa_sfu_tab.h. The algorithm is documented in docs/isa.md ("SFU"). */
#include "isa/isa.h"
#include "isa/isa_internal.h"
#include "isa_sfu_tab.h"

#include "isa/isa_fpbits.h"
#define PINF 0x7f800000u
#define ONE 0x3f800000u

/* arithmetic shift right, defined for negative values without relying on implementation behaviour */
static int64_t asr(int64_t v, int n)
{
    return v >= 0 ? (v >> n) : -(int64_t)(((uint64_t)(-(v + 1)) >> n) + 1);
}

int64_t isa_sfu_eval(const int64_t (*tab)[3], uint32_t idx, uint32_t d)
{
    int64_t dd = (int64_t)d;
    int64_t sq = (dd * dd) >> 23;
    return tab[idx][0] + asr(tab[idx][1] * dd, 30) + asr(tab[idx][2] * sq, 31);
}

/* Y (units 2^-30) * 2^k with sign, Y <= 0 -> signed zero */
static uint32_t pack_y(uint32_t sign, int64_t y, int k)
{
    if (y <= 0)
        return sign << 31;
    return isa_fp_round_pack(sign, (uint64_t)y, k - 30);
}

uint32_t isa_sfu_rcp(uint32_t a)
{
    a = isa_f_ftz(a);
    uint32_t s = SIGN(a);
    if (IS_NAN(a))
        return ISA_FNAN;
    if (IS_ZERO(a))
        return (s << 31) | PINF;
    if (IS_INF(a))
        return s << 31;
    int u = (int)EXP(a) - 127;
    if (FRAC(a) == 0)
        return isa_fp_round_pack(s, 1, -u);   /* exact power of two */
    uint32_t t = FRAC(a) << 7;
    return pack_y(s, isa_sfu_eval(isa_sfu_tab_rcp, t >> 23, t & 0x7fffffu), -u);
}

uint32_t isa_sfu_rsq(uint32_t a)
{
    a = isa_f_ftz(a);
    if (IS_NAN(a))
        return ISA_FNAN;
    if (IS_ZERO(a))
        return (a & 0x80000000u) | PINF;   /* rsq(+-0) = +-inf */
    if (SIGN(a))
        return ISA_FNAN;
    if (IS_INF(a))
        return 0;
    int u = (int)EXP(a) - 127;
    int odd = u & 1;   /* two's complement: works for negative u */
    int half = (u - odd) / 2;   /* exact: u - odd is even */
    if (FRAC(a) == 0 && !odd)
        return isa_fp_round_pack(0, 1, -half);
    uint32_t t = FRAC(a) << 7;
    uint32_t idx = ((uint32_t)odd << 7) | (t >> 23);
    return pack_y(0, isa_sfu_eval(isa_sfu_tab_rsq, idx, t & 0x7fffffu), -half);
}

uint32_t isa_sfu_ex2(uint32_t a)
{
    a = isa_f_ftz(a);
    if (IS_NAN(a))
        return ISA_FNAN;
    if (IS_INF(a))
        return SIGN(a) ? 0 : PINF;
    if (IS_ZERO(a))
        return ONE;
    if (!SIGN(a) && EXP(a) >= 127 + 7)   /* a >= 128 */
        return PINF;
    if (SIGN(a) && EXP(a) >= 127 + 7)    /* a <= -128: result < 2^-126 */
        return 0;
    /* X = a * 2^30 truncated toward zero (|a| < 128, so |X| < 2^37) */
    int e = (int)EXP(a) - 150 + 30;
    uint64_t m = FRAC(a) | 0x800000u;
    uint64_t mag = e >= 0 ? (m << e) : (-e >= 64 ? 0 : m >> -e);
    int64_t x = SIGN(a) ? -(int64_t)mag : (int64_t)mag;
    int64_t n = asr(x, 30);
    uint32_t t = (uint32_t)(x - n * (1ll << 30));   /* 0 <= t < 2^30 */
    if (t == 0)
        return isa_fp_round_pack(0, 1, (int)n);
    return pack_y(0, isa_sfu_eval(isa_sfu_tab_ex2, t >> 23, t & 0x7fffffu), (int)n);
}

uint32_t isa_sfu_lg2(uint32_t a)
{
    a = isa_f_ftz(a);
    if (IS_NAN(a))
        return ISA_FNAN;
    if (IS_ZERO(a))
        return 0x80000000u | PINF;
    if (SIGN(a))
        return ISA_FNAN;
    if (IS_INF(a))
        return PINF;
    int u = (int)EXP(a) - 127;
    if (FRAC(a) == 0)
        return isa_i2f((uint32_t)u);
    uint32_t t = FRAC(a) << 7;
    int64_t y = isa_sfu_eval(isa_sfu_tab_lg2, t >> 23, t & 0x7fffffu);
    if (y < 0)
        y = 0;
    int64_t v = (int64_t)u * (1ll << 30) + y;
    if (v == 0)
        return 0;
    return v < 0 ? isa_fp_round_pack(1, (uint64_t)(-v), -30) : isa_fp_round_pack(0, (uint64_t)v, -30);
}

/* 2^65 / pi, rounded: turns = |a| * K * 2^-66 */
#define SFU_K_2PI 0xa2f9836e4e44152aull

/* |a| (finite, normal, >= 2^-12) in turns, fractional part, 32 bits */
static uint32_t turns32(uint32_t a)
{
    int u = (int)EXP(a) - 127;
    uint64_t m = FRAC(a) | 0x800000u;
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)m * SFU_K_2PI;   /* value in turns = p * 2^(u - 23 - 66) */
    int sh = 57 - u;                 /* U = floor(p * 2^(u-57)) mod 2^32 */
    if (sh >= 0)
        return (uint32_t)(p >> sh);
    if (-sh >= 32)
        return 0;
    return (uint32_t)(p << -sh);
}

static uint32_t sfu_sincos(uint32_t a, int is_cos)
{
    a = isa_f_ftz(a);
    if (IS_NAN(a) || IS_INF(a))
        return ISA_FNAN;
    if (EXP(a) < 127 - 12)   /* |a| < 2^-12 (including zero) */
        return is_cos ? ONE : a;
    uint32_t uturn = turns32(a);
    uint32_t q = (uturn >> 30) + (is_cos ? 1u : 0u);
    uint32_t v = uturn & 0x3fffffffu;
    const int64_t (*tab)[3] = (q & 1) ? isa_sfu_tab_cos : isa_sfu_tab_sin;
    uint32_t neg = (q >> 1) & 1;
    if (!is_cos)
        neg ^= SIGN(a);
    return pack_y(neg, isa_sfu_eval(tab, v >> 23, v & 0x7fffffu), 0);
}

uint32_t isa_sfu_sin(uint32_t a)
{
    return sfu_sincos(a, 0);
}

uint32_t isa_sfu_cos(uint32_t a)
{
    return sfu_sincos(a, 1);
}
