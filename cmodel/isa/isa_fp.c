/* GPUpd ISA: integer-only binary32 soft-float, the definition the SIMT core RTL mirrors (docs/isa.md).
 * Rules: round to nearest even (unless an explicit mode), denormal inputs flushed to signed zero before
 * the operation, results whose magnitude after rounding (with unbounded exponent) is below 2^-126 flushed
 * to signed zero, every NaN result is ISA_FNAN (0x7fc00000). */
#include "isa/isa.h"
#include "isa/isa_internal.h"

#include "isa/isa_fpbits.h"

uint32_t isa_f_ftz(uint32_t a)
{
    return EXP(a) == 0 ? (a & 0x80000000u) : a;
}

static int msb64(uint64_t v)   /* v != 0 */
{
    return 63 - __builtin_clzll(v);
}

/* value = sign * r * 2^e, r != 0; round to 24 bits (RNE, unbounded exponent), then overflow -> inf,
 * tiny (< 2^-126) -> signed zero. */
uint32_t isa_fp_round_pack(uint32_t sign, uint64_t r, int e)
{
    uint32_t s = sign ? 0x80000000u : 0;
    if (r == 0)
        return s;
    int p = msb64(r);
    uint64_t m;
    int be;
    if (p > 23) {
        int sh = p - 23;
        m = r >> sh;
        uint64_t rem = r & ((1ull << sh) - 1), half = 1ull << (sh - 1);
        if (rem > half || (rem == half && (m & 1)))
            m++;
        if (m == (1ull << 24)) {
            m >>= 1;
            sh++;
        }
        be = e + sh + 23 + 127;
    } else {
        m = r << (23 - p);
        be = e - (23 - p) + 23 + 127;
    }
    if (be >= 255)
        return s | 0x7f800000u;
    if (be <= 0)
        return s;
    return s | ((uint32_t)be << 23) | ((uint32_t)m & 0x7fffffu);
}

uint32_t isa_f_add(uint32_t a, uint32_t b)
{
    a = isa_f_ftz(a);
    b = isa_f_ftz(b);
    if (IS_NAN(a) || IS_NAN(b))
        return ISA_FNAN;
    if (IS_INF(a)) {
        if (IS_INF(b) && SIGN(a) != SIGN(b))
            return ISA_FNAN;
        return a;
    }
    if (IS_INF(b))
        return b;
    if (IS_ZERO(a)) {
        if (IS_ZERO(b))
            return a & b & 0x80000000u;   /* -0 only if both are -0 */
        return b;
    }
    if (IS_ZERO(b))
        return a;
    /* both normal: order by magnitude */
    if ((a & 0x7fffffffu) < (b & 0x7fffffffu)) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    int ea = (int)EXP(a), eb = (int)EXP(b);
    uint64_t ma = (uint64_t)(FRAC(a) | 0x800000u) << 32;
    uint64_t mb = (uint64_t)(FRAC(b) | 0x800000u) << 32;
    int d = ea - eb;
    if (d > 40) {
        mb = 1;   /* sticky only */
    } else if (d > 0) {
        uint64_t lost = mb & ((1ull << d) - 1);
        mb = (mb >> d) | (lost != 0);
    }
    uint64_t r;
    if (SIGN(a) == SIGN(b))
        r = ma + mb;
    else
        r = ma - mb;
    if (r == 0)
        return 0;   /* exact cancellation: +0 in round-to-nearest */
    return isa_fp_round_pack(SIGN(a), r, ea - 127 - 23 - 32);
}

uint32_t isa_f_mul(uint32_t a, uint32_t b)
{
    a = isa_f_ftz(a);
    b = isa_f_ftz(b);
    uint32_t s = SIGN(a) ^ SIGN(b);
    if (IS_NAN(a) || IS_NAN(b))
        return ISA_FNAN;
    if (IS_INF(a) || IS_INF(b)) {
        if (IS_ZERO(a) || IS_ZERO(b))
            return ISA_FNAN;
        return (s << 31) | 0x7f800000u;
    }
    if (IS_ZERO(a) || IS_ZERO(b))
        return s << 31;
    uint64_t r = (uint64_t)(FRAC(a) | 0x800000u) * (uint64_t)(FRAC(b) | 0x800000u);
    return isa_fp_round_pack(s, r, (int)EXP(a) - 150 + (int)EXP(b) - 150);
}

uint32_t isa_f_mad(uint32_t a, uint32_t b, uint32_t c)
{
    return isa_f_add(isa_f_mul(a, b), c);
}

/* Total order key of a non-NaN value: -inf < ... < -0 < +0 < ... < +inf. */
static uint32_t okey(uint32_t x)
{
    return SIGN(x) ? ~x : (x | 0x80000000u);
}

uint32_t isa_f_min(uint32_t a, uint32_t b)
{
    a = isa_f_ftz(a);
    b = isa_f_ftz(b);
    if (IS_NAN(a))
        return IS_NAN(b) ? ISA_FNAN : b;
    if (IS_NAN(b))
        return a;
    return okey(a) <= okey(b) ? a : b;
}

uint32_t isa_f_max(uint32_t a, uint32_t b)
{
    a = isa_f_ftz(a);
    b = isa_f_ftz(b);
    if (IS_NAN(a))
        return IS_NAN(b) ? ISA_FNAN : b;
    if (IS_NAN(b))
        return a;
    return okey(a) >= okey(b) ? a : b;
}

int isa_f_setp(uint32_t a, uint32_t b, uint32_t cc)
{
    a = isa_f_ftz(a);
    b = isa_f_ftz(b);
    if (IS_NAN(a) || IS_NAN(b))
        return (cc & ISA_CC_U) != 0;
    if (IS_ZERO(a) && IS_ZERO(b))
        return (cc & ISA_CC_E) != 0;
    uint32_t ka = okey(a), kb = okey(b);
    uint32_t rel = ka < kb ? ISA_CC_L : ka == kb ? ISA_CC_E : ISA_CC_G;
    return (cc & rel) != 0;
}

/* Round the magnitude m * 2^-sh (sh >= 0) to an integer: mode 0 nearest-even, 1 down (truncate),
 * 2 up (away from zero). */
static uint64_t round_mag(uint64_t m, int sh, int how)
{
    if (sh == 0)
        return m;
    if (sh > 62)
        return (how == 2 && m) ? 1 : 0;   /* m < 2^25 here, so the value is < 0.5 */
    uint64_t q = m >> sh, rem = m & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    if (how == 0) {
        if (rem > half || (rem == half && (q & 1)))
            q++;
    } else if (how == 2) {
        if (rem)
            q++;
    }
    return q;
}

/* rounding mode (ISA_RND_*) + sign -> how to round the magnitude */
static int mag_how(uint32_t mode, uint32_t sign)
{
    switch (mode & 3) {
    case ISA_RND_RN: return 0;
    case ISA_RND_RZ: return 1;
    case ISA_RND_RM: return sign ? 2 : 1;
    default: return sign ? 1 : 2;
    }
}

uint32_t isa_f_rnd(uint32_t a, uint32_t mode)
{
    a = isa_f_ftz(a);
    if (IS_NAN(a))
        return ISA_FNAN;
    if (IS_INF(a) || IS_ZERO(a) || EXP(a) >= 150)
        return a;
    uint32_t s = SIGN(a);
    uint64_t q = round_mag(FRAC(a) | 0x800000u, 150 - (int)EXP(a), mag_how(mode, s));
    return q ? isa_fp_round_pack(s, q, 0) : (s << 31);
}

uint32_t isa_f2i(uint32_t a, uint32_t mode)
{
    a = isa_f_ftz(a);
    if (IS_NAN(a))
        return 0;
    uint32_t s = SIGN(a);
    if (IS_ZERO(a))
        return 0;
    if (EXP(a) >= 127 + 31)
        return s ? 0x80000000u : 0x7fffffffu;
    uint64_t m = FRAC(a) | 0x800000u, q;
    int e = (int)EXP(a) - 150;
    if (e >= 0)
        q = m << e;
    else
        q = round_mag(m, -e, mag_how(mode, s));
    if (s)
        return q >= 0x80000000ull ? 0x80000000u : (uint32_t)(-(int64_t)q);
    return q >= 0x7fffffffull ? 0x7fffffffu : (uint32_t)q;
}

uint32_t isa_f2u(uint32_t a, uint32_t mode)
{
    a = isa_f_ftz(a);
    if (IS_NAN(a) || IS_ZERO(a))
        return 0;
    uint32_t s = SIGN(a);
    if (EXP(a) >= 127 + 32)
        return s ? 0 : 0xffffffffu;
    uint64_t m = FRAC(a) | 0x800000u, q;
    int e = (int)EXP(a) - 150;
    if (e >= 0)
        q = m << e;
    else
        q = round_mag(m, -e, mag_how(mode, s));
    if (s)
        return 0;
    return q > 0xffffffffull ? 0xffffffffu : (uint32_t)q;
}

uint32_t isa_i2f(uint32_t a)
{
    if (a == 0)
        return 0;
    uint32_t s = a >> 31;
    uint64_t mag = s ? (uint64_t)(~a) + 1 : a;
    return isa_fp_round_pack(s, mag, 0);
}

uint32_t isa_u2f(uint32_t a)
{
    return a ? isa_fp_round_pack(0, a, 0) : 0;
}
