/* ISA soft-float (cmodel/isa/isa_fp.c) against the host FPU on millions of random and corner inputs.
 * Host reference: x86 SSE with FTZ (MXCSR bit 15, tininess after rounding as the ISA defines), inputs
 * flushed explicitly, NaN results canonicalised to 0x7fc00000. Seed: ISA_TEST_SEED env var (printed). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xmmintrin.h>

#include "isa/isa.h"

static uint64_t g_seed;
static uint64_t rng_state;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t ftz(uint32_t a)
{
    return ((a >> 23) & 0xff) == 0 ? (a & 0x80000000u) : a;
}

static uint32_t canon(uint32_t r)
{
    if (((r >> 23) & 0xff) == 0xff && (r & 0x7fffff))
        return 0x7fc00000u;
    return ftz(r);   /* FTZ mode already flushes; keeps the check honest if it did not */
}

static const uint32_t corners[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
    0x7f800001, 0x7fbfffff, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
    0x00800001, 0x00ffffff, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x3f000000, 0x3fc00000, 0x4b000000,
    0x4b7fffff, 0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f800000, 0x4f7fffff, 0x3effffff,
    0x3f7fffff, 0x00400000, 0x01000000, 0x0c000000, 0x33800000, 0x34000000, 0xbf000000, 0x40490fdb,
};
#define NCORNERS (sizeof corners / sizeof corners[0])

/* random operand: corners, arbitrary bits, or values near `near` (cancellation, rounding ties) */
static uint32_t rnd_op(uint32_t near)
{
    uint64_t r = rnd64();
    switch (r & 7) {
    case 0: return corners[(r >> 8) % NCORNERS];
    case 1: case 2: return (uint32_t)(r >> 32);
    case 3: return near ^ ((uint32_t)(r >> 32) & ((1u << ((r >> 8) % 24)) - 1));
    case 4: return (near ^ ((uint32_t)(r >> 40) & 0x807fffffu)) + ((uint32_t)((r >> 16) % 5) << 23) -
                   (2u << 23);
    case 5: {   /* small exponents: results near the underflow threshold */
        uint32_t e = (uint32_t)((r >> 8) % 40);
        return ((uint32_t)(r >> 63) << 31) | (e << 23) | ((uint32_t)(r >> 20) & 0x7fffff);
    }
    case 6: {   /* exponents around 1 */
        uint32_t e = 110 + (uint32_t)((r >> 8) % 40);
        return ((uint32_t)(r >> 63) << 31) | (e << 23) | ((uint32_t)(r >> 20) & 0x7fffff);
    }
    default: return (uint32_t)(r >> 32) & 0xfff80000u;   /* short mantissas: exact results */
    }
}

static void setup_ftz(void)
{
    _mm_setcsr(_mm_getcsr() | 0x8000u);   /* FTZ; inputs are flushed explicitly */
}

#define N_RANDOM 1000000

#define CHECK(name, got, want, a, b, c)                                                                  \
    do {                                                                                                 \
        if ((got) != (want)) {                                                                           \
            print_error("%s(0x%08x, 0x%08x, 0x%08x): soft-float 0x%08x, host 0x%08x (seed %llu; rerun: " \
                        "ISA_TEST_SEED=%llu build/tests/test_isa_fp)\n",                                 \
                        name, a, b, c, got, want, (unsigned long long)g_seed,                              \
                        (unsigned long long)g_seed);                                                       \
            fail();                                                                                      \
        }                                                                                                \
    } while (0)

static void test_add_mul_mad(void **state)
{
    (void)state;
    setup_ftz();
    for (long i = 0; i < N_RANDOM; i++) {
        uint32_t a = rnd_op(0x3f800000), b = rnd_op(a), c = rnd_op(b);
        volatile float fa = isa_bits_float(ftz(a)), fb = isa_bits_float(ftz(b)), fc = isa_bits_float(ftz(c));
        volatile float s = fa + fb, p = fa * fb;
        volatile float pf = isa_bits_float(ftz(isa_float_bits(p)));
        volatile float m = pf + fc;
        CHECK("add", isa_f_add(a, b), canon(isa_float_bits(s)), a, b, 0u);
        CHECK("mul", isa_f_mul(a, b), canon(isa_float_bits(p)), a, b, 0u);
        CHECK("mad", isa_f_mad(a, b, c), canon(isa_float_bits(m)), a, b, c);
    }
}

static uint32_t ref_minmax(uint32_t a, uint32_t b, int is_max)
{
    a = ftz(a);
    b = ftz(b);
    float fa = isa_bits_float(a), fb = isa_bits_float(b);
    if (isnan(fa) && isnan(fb))
        return 0x7fc00000u;
    if (isnan(fa))
        return b;
    if (isnan(fb))
        return a;
    if (fa < fb)
        return is_max ? b : a;
    if (fb < fa)
        return is_max ? a : b;
    /* equal: -0 < +0 */
    if (is_max)
        return (a >> 31) ? b : a;
    return (a >> 31) ? a : b;
}

static void test_min_max_setp(void **state)
{
    (void)state;
    for (long i = 0; i < N_RANDOM; i++) {
        uint32_t a = rnd_op(0x3f800000), b = (i & 3) == 0 ? a ^ ((uint32_t)(i >> 2) & 1u) << 31 : rnd_op(a);
        CHECK("min", isa_f_min(a, b), ref_minmax(a, b, 0), a, b, 0u);
        CHECK("max", isa_f_max(a, b), ref_minmax(a, b, 1), a, b, 0u);
        float fa = isa_bits_float(ftz(a)), fb = isa_bits_float(ftz(b));
        for (uint32_t cc = 0; cc < 16; cc++) {
            int want = ((cc & ISA_CC_L) && fa < fb) || ((cc & ISA_CC_E) && fa == fb) ||
                       ((cc & ISA_CC_G) && fa > fb) || ((cc & ISA_CC_U) && isunordered(fa, fb));
            CHECK("setp", (uint32_t)isa_f_setp(a, b, cc), (uint32_t)want, a, b, cc);
        }
    }
}

static float host_round(float f, uint32_t mode)
{
    switch (mode) {
    case ISA_RND_RN: return rintf(f);
    case ISA_RND_RZ: return truncf(f);
    case ISA_RND_RM: return floorf(f);
    default: return ceilf(f);
    }
}

static void test_conversions(void **state)
{
    (void)state;
    setup_ftz();
    for (long i = 0; i < N_RANDOM; i++) {
        uint32_t a = rnd_op(0x4b000000 + ((uint32_t)(i & 15) << 23));
        float fa = isa_bits_float(ftz(a));
        for (uint32_t mode = 0; mode < 4; mode++) {
            float r = host_round(fa, mode);
            uint32_t wi, wu;
            if (isnan(fa)) {
                wi = 0;
                wu = 0;
            } else {
                wi = r >= 2147483648.0f ? 0x7fffffffu : r < -2147483648.0f ? 0x80000000u : (uint32_t)(int32_t)r;
                wu = r >= 4294967296.0f ? 0xffffffffu : r <= 0.0f ? 0u : (uint32_t)r;
            }
            CHECK("f2i", isa_f2i(a, mode), wi, a, mode, 0u);
            CHECK("f2u", isa_f2u(a, mode), wu, a, mode, 0u);
            CHECK("frnd", isa_f_rnd(a, mode), canon(isa_float_bits(r)), a, mode, 0u);
        }
        uint32_t x = (uint32_t)rnd64();
        if (i & 1)
            x >>= (i >> 1) % 32;
        volatile float fi = (float)(int32_t)x, fu = (float)x;
        CHECK("i2f", isa_i2f(x), isa_float_bits(fi), x, 0u, 0u);
        CHECK("u2f", isa_u2f(x), isa_float_bits(fu), x, 0u, 0u);
    }
}

/* directed: the documented corner rules, written by hand */
static void test_directed(void **state)
{
    (void)state;
    assert_int_equal(isa_f_add(0x80000000u, 0x80000000u), 0x80000000u);   /* -0 + -0 = -0 */
    assert_int_equal(isa_f_add(0x80000000u, 0x00000000u), 0x00000000u);
    assert_int_equal(isa_f_add(0x3f800000u, 0xbf800000u), 0x00000000u);   /* x - x = +0 */
    assert_int_equal(isa_f_add(0x7f800000u, 0xff800000u), ISA_FNAN);
    assert_int_equal(isa_f_mul(0x7f800000u, 0x80000000u), ISA_FNAN);
    assert_int_equal(isa_f_mul(0xffc12345u, 0x3f800000u), ISA_FNAN);      /* NaN canonical */
    assert_int_equal(isa_f_mul(0x00400000u, 0x7f000000u), 0x00000000u);   /* denormal input = 0 */
    assert_int_equal(isa_f_mul(0x00800000u, 0x3f000000u), 0x00000000u);   /* 2^-127 flushed */
    assert_int_equal(isa_f_mul(0x80800000u, 0x3f000000u), 0x80000000u);   /* signed zero */
    assert_int_equal(isa_f_mul(0x00ffffffu, 0x3f7fffffu), 0x00fffffeu);
    assert_int_equal(isa_f_mul(0x7f7fffffu, 0x40000000u), 0x7f800000u);   /* overflow -> inf */
    assert_int_equal(isa_f_min(0x00000000u, 0x80000000u), 0x80000000u);
    assert_int_equal(isa_f_max(0x80000000u, 0x00000000u), 0x00000000u);
    assert_int_equal(isa_f_min(0x7fc00000u, 0x40000000u), 0x40000000u);
    assert_int_equal(isa_f2i(0x3f000000u, ISA_RND_RN), 0u);                /* 0.5 -> 0 */
    assert_int_equal(isa_f2i(0x3fc00000u, ISA_RND_RN), 2u);                /* 1.5 -> 2 */
    assert_int_equal(isa_f2i(0xbfc00000u, ISA_RND_RM), (uint32_t)-2);      /* floor(-1.5) */
    assert_int_equal(isa_f2i(0x7fc00000u, ISA_RND_RZ), 0u);
    assert_int_equal(isa_f2i(0x4f000000u, ISA_RND_RZ), 0x7fffffffu);       /* 2^31 saturates */
    assert_int_equal(isa_f2i(0xcf000000u, ISA_RND_RZ), 0x80000000u);       /* -2^31 exact */
    assert_int_equal(isa_f2u(0xbf000000u, ISA_RND_RM), 0u);                /* negative -> 0 */
    assert_int_equal(isa_i2f(0x7fffffffu), 0x4f000000u);
    assert_int_equal(isa_u2f(0xffffffffu), 0x4f800000u);
    assert_int_equal(isa_f_setp(0x7fc00000u, 0x7fc00000u, ISA_CC_U), 1);
    assert_int_equal(isa_f_setp(0x00000000u, 0x80000000u, ISA_CC_E), 1);
    assert_int_equal(isa_f_setp(0x00000001u, 0x00000000u, ISA_CC_E), 1);   /* denormal == 0 */
}

int main(void)
{
    const char *s = getenv("ISA_TEST_SEED");
    g_seed = s ? strtoull(s, NULL, 0) : 20261122;
    rng_state = g_seed;
    printf("test_isa_fp: seed %llu\n", (unsigned long long)g_seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directed),
        cmocka_unit_test(test_add_mul_mad),
        cmocka_unit_test(test_min_max_setp),
        cmocka_unit_test(test_conversions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
