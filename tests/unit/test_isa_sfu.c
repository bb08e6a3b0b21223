/* SFU (cmodel/isa/isa_sfu.c): special values written by hand, and a sampled accuracy check against libm
 * (double) of at least 22 good bits (relative for rcp, rsq, ex2; absolute for lg2 on [1,2) and sin, cos).
 * The exhaustive measurement over every input of each reduced range is the benchmark
 * (build/bin/gpupd-isa-bench sfu, docs/isa-measurements.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"

#define PINF 0x7f800000u
#define NINF 0xff800000u

static void test_special_values(void **state)
{
    (void)state;
    assert_int_equal(isa_sfu_rcp(0), PINF);
    assert_int_equal(isa_sfu_rcp(0x80000000u), NINF);
    assert_int_equal(isa_sfu_rcp(0x00000005u), PINF);          /* denormal = +0 */
    assert_int_equal(isa_sfu_rcp(PINF), 0);
    assert_int_equal(isa_sfu_rcp(NINF), 0x80000000u);
    assert_int_equal(isa_sfu_rcp(0x7fc00001u), ISA_FNAN);
    assert_int_equal(isa_sfu_rcp(isa_float_bits(1.0f)), isa_float_bits(1.0f));       /* powers of two are exact */
    assert_int_equal(isa_sfu_rcp(isa_float_bits(-4.0f)), isa_float_bits(-0.25f));
    assert_int_equal(isa_sfu_rcp(isa_float_bits(0x1p126f)), 0x00800000u);  /* 2^-126 */
    assert_int_equal(isa_sfu_rcp(isa_float_bits(0x1p127f)), 0);           /* 2^-127 is flushed */
    assert_int_equal(isa_sfu_rsq(isa_float_bits(4.0f)), isa_float_bits(0.5f));
    assert_int_equal(isa_sfu_rsq(isa_float_bits(0.25f)), isa_float_bits(2.0f));
    assert_int_equal(isa_sfu_rsq(0), PINF);
    assert_int_equal(isa_sfu_rsq(0x80000000u), NINF);
    assert_int_equal(isa_sfu_rsq(isa_float_bits(-1.0f)), ISA_FNAN);
    assert_int_equal(isa_sfu_rsq(NINF), ISA_FNAN);
    assert_int_equal(isa_sfu_rsq(PINF), 0);
    assert_int_equal(isa_sfu_ex2(0), isa_float_bits(1.0f));
    assert_int_equal(isa_sfu_ex2(0x80000000u), isa_float_bits(1.0f));
    assert_int_equal(isa_sfu_ex2(isa_float_bits(3.0f)), isa_float_bits(8.0f));
    assert_int_equal(isa_sfu_ex2(isa_float_bits(-126.0f)), 0x00800000u);
    assert_int_equal(isa_sfu_ex2(isa_float_bits(-126.5f)), 0);            /* below 2^-126: flushed */
    assert_int_equal(isa_sfu_ex2(isa_float_bits(128.0f)), PINF);
    assert_int_equal(isa_sfu_ex2(NINF), 0);
    assert_int_equal(isa_sfu_ex2(PINF), PINF);
    assert_int_equal(isa_sfu_ex2(ISA_FNAN), ISA_FNAN);
    assert_int_equal(isa_sfu_lg2(isa_float_bits(1.0f)), 0);
    assert_int_equal(isa_sfu_lg2(isa_float_bits(8.0f)), isa_float_bits(3.0f));
    assert_int_equal(isa_sfu_lg2(isa_float_bits(0.125f)), isa_float_bits(-3.0f));
    assert_int_equal(isa_sfu_lg2(0), NINF);
    assert_int_equal(isa_sfu_lg2(0x80000000u), NINF);
    assert_int_equal(isa_sfu_lg2(isa_float_bits(-2.0f)), ISA_FNAN);
    assert_int_equal(isa_sfu_lg2(PINF), PINF);
    assert_int_equal(isa_sfu_sin(0), 0);
    assert_int_equal(isa_sfu_sin(0x80000000u), 0x80000000u);
    assert_int_equal(isa_sfu_sin(isa_float_bits(1e-5f)), isa_float_bits(1e-5f));     /* |x| < 2^-12: sin x = x */
    assert_int_equal(isa_sfu_cos(isa_float_bits(-1e-5f)), isa_float_bits(1.0f));
    assert_int_equal(isa_sfu_cos(0), isa_float_bits(1.0f));
    assert_int_equal(isa_sfu_sin(PINF), ISA_FNAN);
    assert_int_equal(isa_sfu_cos(NINF), ISA_FNAN);
    /* odd / even symmetry is exact by construction */
    for (uint32_t b = 0x3a000000u; b < 0x42000000u; b += 0x00123457u) {
        assert_int_equal(isa_sfu_sin(b | 0x80000000u), isa_sfu_sin(b) ^ 0x80000000u);
        assert_int_equal(isa_sfu_cos(b | 0x80000000u), isa_sfu_cos(b));
    }
}

static uint64_t rs = 99;
static uint32_t rnd32(void)
{
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rs >> 32);
}

typedef struct {
    const char *name;
    uint32_t (*f)(uint32_t);
    double (*ref)(double);
    float lo, hi;
    int absolute;
    double bits;   /* required good bits on this range */
} acc_t;

static double d_rcp(double x) { return 1.0 / x; }
static double d_rsq(double x) { return 1.0 / sqrt(x); }

static void test_sampled_accuracy(void **state)
{
    (void)state;
    const acc_t cases[] = {
        {"rcp", isa_sfu_rcp, d_rcp, 1.0f, 2.0f, 0, 22},
        {"rcp", isa_sfu_rcp, d_rcp, 1e-30f, 1e30f, 0, 22},
        {"rsq", isa_sfu_rsq, d_rsq, 1.0f, 4.0f, 0, 22},
        {"rsq", isa_sfu_rsq, d_rsq, 1e-30f, 1e30f, 0, 22},
        {"ex2", isa_sfu_ex2, exp2, 0.0f, 1.0f, 0, 22},
        {"ex2", isa_sfu_ex2, exp2, 1.0f, 127.0f, 0, 22},
        {"ex2", isa_sfu_ex2, exp2, -125.0f, 0.0f, 0, 22},
        {"lg2", isa_sfu_lg2, log2, 1.0f, 2.0f, 1, 22},
        {"lg2", isa_sfu_lg2, log2, 2.0f, 1e30f, 0, 22},
        {"sin", isa_sfu_sin, sin, 0.0f, 3.14159274f, 1, 22},
        {"cos", isa_sfu_cos, cos, 0.0f, 3.14159274f, 1, 22},
        {"sin", isa_sfu_sin, sin, 3.14159274f, 100.0f, 1, 21},
        {"cos", isa_sfu_cos, cos, 3.14159274f, 100.0f, 1, 21},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const acc_t *c = &cases[k];
        uint32_t lo = isa_float_bits(c->lo), hi = isa_float_bits(c->hi);
        int neg = c->hi <= 0.0f;   /* negative range: walk bit patterns of |x| */
        if (neg) {
            lo = isa_float_bits(-c->hi);
            hi = isa_float_bits(-c->lo);
        }
        double worst = 0;
        uint32_t worst_in = 0;
        for (int i = 0; i < 200000; i++) {
            uint32_t b = lo + rnd32() % (hi - lo);
            if (neg)
                b |= 0x80000000u;
            double x = isa_bits_float(b), y = isa_bits_float(c->f(b)), r = c->ref(x);
            double e = c->absolute ? fabs(y - r) : fabs(y - r) / fabs(r);
            if (!(e <= worst)) {
                worst = e;
                worst_in = b;
            }
        }
        double bits = -log2(worst);
        printf("test_isa_sfu: %s on [%g, %g): %.2f good bits (%s), worst input %.9g\n", c->name,
               (double)c->lo, (double)c->hi, bits, c->absolute ? "absolute" : "relative", (double)isa_bits_float(worst_in));
        if (!(bits >= c->bits)) {
            print_error("%s(%.9g = 0x%08x) = %.9g, libm %.9g: %.2f good bits < %.0f\n", c->name,
                        (double)isa_bits_float(worst_in), worst_in, (double)isa_bits_float(c->f(worst_in)), c->ref(isa_bits_float(worst_in)), bits,
                        c->bits);
            fail();
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_sampled_accuracy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
