/* SIMT interpreter (cmodel/isa/isa_exec.c): directed tests of divergence, reconvergence, loops with
 * divergent exits, exit, guards, memory wrap, special registers, retire records and error cases.
 * Expected values are computed by hand (or by plain C per lane) in this file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "isa_test_fixture.h"

static void load(fx_t *f, const char *src)
{
    uint64_t code[ISA_MAX_CODE];
    isa_asm_err_t err;
    int n = isa_assemble(src, code, ISA_MAX_CODE, &err);
    if (n < 0) {
        print_error("assembly failed: line %d col %d: %s\n%s\n", err.line, err.col, err.msg, src);
        fail();
    }
    assert_int_equal(isa_ctx_load(f->ctx, code, (uint32_t)n, NULL), ISA_OK);
}

static void run(fx_t *f, uint32_t mask)
{
    isa_warp_init(f->w, 3, mask);
    int st = isa_run(f->ctx, f->w, 100000);
    if (st != ISA_DONE) {
        print_error("isa_run: %s\n", isa_status_str(st));
        fail();
    }
}

/* if/else on lane parity; both paths write r1, join writes o[0] = r1 and o[1] = a marker */
static void test_if_else(void **state)
{
    fx_t *f = *state;
    load(f, "s2r r0, %lane\n"
            "and r2, r0, 1\n"
            "isetp.eq p0, r2, 0\n"
            "@p0 bra even, join\n"
            "iadd r1, r0, 100\n"     /* odd lanes */
            "bra join\n"
            "even: iadd r1, r0, 200\n"
            "join: st.o [0], r1\n"
            "mov r3, 7\n"
            "st.o [1], r3\n"
            "exit\n");
    run(f, 0xffffffffu);
    for (uint32_t l = 0; l < 32; l++) {
        assert_int_equal(f->w->out[0][l], l + ((l & 1) ? 100 : 200));
        assert_int_equal(f->w->out[1][l], 7);
    }
    assert_int_equal(f->w->max_sp, 3);
    /* instruction count: 4 + odd path (2) + even path (1) + join (4) = 11 warp instructions */
    assert_int_equal(f->w->n_instrs, 11);
}

/* retire records: the join instruction retires once with the full mask; the paths with their halves */
static void test_retire_records(void **state)
{
    fx_t *f = *state;
    load(f, "s2r r0, %lane\n"
            "isetp.lt p1, r0, 8\n"
            "@p1 bra low, join\n"
            "mov r1, 1\n"
            "bra join\n"
            "low: mov r1, 2\n"
            "join: st.o [r0+5], r1\n"
            "exit\n");
    isa_warp_init(f->w, 9, 0x0000ffffu);
    isa_retire_t rec;
    uint32_t pcs[32], act[32], n = 0;
    int st;
    while ((st = isa_step(f->ctx, f->w, &rec)) == ISA_OK) {
        assert_true(n < 32);
        pcs[n] = rec.pc;
        act[n] = rec.active;
        assert_int_equal(rec.warp, 9);
        if (rec.pc == 6) {   /* the store */
            assert_int_equal(rec.dst_kind, ISA_DST_OUT);
            for (uint32_t l = 0; l < 16; l++) {
                assert_int_equal(rec.addr[l], (l + 5) & 63);
                assert_int_equal(rec.val[0][l], l < 8 ? 2 : 1);
            }
            assert_int_equal(rec.val[0][20], 0);   /* inactive lane */
        }
        if (rec.pc == 1) {
            assert_int_equal(rec.dst_kind, ISA_DST_PRED);
            assert_int_equal(rec.dst, 1);
            assert_int_equal(rec.val[0][3], 1);
            assert_int_equal(rec.val[0][12], 0);
        }
        n++;
    }
    assert_int_equal(st, ISA_DONE);
    /* order: 0 1 2 (diverge) 3 4 (lanes 8..15) 5 (lanes 0..7) 6 7 (joined) */
    uint32_t want_pc[] = {0, 1, 2, 3, 4, 5, 6, 7};
    uint32_t want_act[] = {0xffff, 0xffff, 0xffff, 0xff00, 0xff00, 0x00ff, 0xffff, 0xffff};
    assert_int_equal(n, 8);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(pcs[i], want_pc[i]);
        assert_int_equal(act[i], want_act[i]);
    }
}

/* nested divergent if inside if, with plain-C per-lane expectation */
static void test_nested(void **state)
{
    fx_t *f = *state;
    load(f, "s2r r0, %lane\n"
            "mov r1, 0\n"
            "and r2, r0, 1\n"
            "isetp.ne p0, r2, 0\n"
            "@!p0 bra outer_end, outer_end\n"   /* even lanes skip */
            "  iadd r1, r1, 1\n"
            "  and r3, r0, 2\n"
            "  isetp.ne p1, r3, 0\n"
            "  @p1 bra inner_else, inner_end\n"
            "    iadd r1, r1, 10\n"
            "    bra inner_end\n"
            "inner_else:\n"
            "    iadd r1, r1, 20\n"
            "    and r4, r0, 4\n"
            "    isetp.ne p2, r4, 0\n"
            "    @p2 bra deep_end, deep_end\n"
            "      iadd r1, r1, 300\n"
            "deep_end:\n"
            "inner_end:\n"
            "  iadd r1, r1, 1000\n"
            "outer_end:\n"
            "st.o [0], r1\n"
            "exit\n");
    run(f, 0xffffffffu);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t r = 0;
        if (l & 1) {
            r += 1;
            if (l & 2) {
                r += 20;
                if (!(l & 4))
                    r += 300;
            } else {
                r += 10;
            }
            r += 1000;
        }
        assert_int_equal(f->w->out[0][l], r);
    }
}

/* loop with lane-dependent trip count (divergent exit) and a divergent break; then code after the loop
 * must run once with every lane */
static void test_loops(void **state)
{
    fx_t *f = *state;
    load(f, "s2r r0, %lane\n"
            "and r1, r0, 7\n"        /* trip = lane & 7, at least 1 */
            "imax r1, r1, 1\n"
            "mov r2, 0\n"            /* sum */
            "mov r5, 0\n"            /* iterations */
            "loop:\n"
            "  iadd r2, r2, r1\n"
            "  iadd r5, r5, 1\n"
            "  isetp.eq p1, r0, 13\n"  /* lane 13 breaks after its first iteration */
            "  @p1 bra out, out\n"
            "  isub r1, r1, 1\n"
            "  isetp.gt p0, r1, 0\n"
            "  @p0 bra loop, out\n"
            "out:\n"
            "st.o [0], r2\n"
            "st.o [1], r5\n"
            "exit\n");
    run(f, 0xffffffffu);
    for (uint32_t l = 0; l < 32; l++) {
        uint32_t t = (l & 7) ? (l & 7) : 1, sum = 0, it = 0;
        for (uint32_t k = t; k > 0; k--) {
            sum += k;
            it++;
            if (l == 13)
                break;
        }
        assert_int_equal(f->w->out[0][l], sum);
        assert_int_equal(f->w->out[1][l], it);
    }
    /* the stack must not grow with the iteration count */
    assert_true(f->w->max_sp <= 4);   /* bottom, join of the break, its taken entry, transient split */
}

/* exit inside a divergent region; guarded instructions; partial launch mask */
static void test_exit_and_guards(void **state)
{
    fx_t *f = *state;
    load(f, "s2r r0, %lane\n"
            "mov r1, 5\n"
            "isetp.lt p0, r0, 16\n"
            "@p0 bra lo, j\n"
            "  isetp.eq p1, r0, 20\n"
            "  @p1 exit\n"
            "  mov r1, 6\n"
            "  bra j\n"
            "lo:\n"
            "  @!p0 mov r1, 99\n"      /* guard false for every lane here */
            "  isetp.eq p2, r0, 3\n"
            "  @p2 exit\n"
            "j: st.o [0], r1\n"
            "exit\n");
    run(f, 0x7fffffffu);   /* lane 31 never runs */
    for (uint32_t l = 0; l < 31; l++) {
        uint32_t want = (l == 3 || l == 20) ? 0 : (l < 16 ? 5 : 6);
        assert_int_equal(f->w->out[0][l], want);
    }
    assert_int_equal(f->w->out[0][31], 0);
    assert_int_equal(f->w->exited, 0x7fffffffu);
}

static void test_memory_and_sregs(void **state)
{
    fx_t *f = *state;
    load(f, "s2r r0, %lane\n"
            "s2r r1, %warp\n"
            "s2r r2, %tid\n"
            "s2r r3, %vertex\n"
            "s2r r4, %prim\n"
            "st.o [0], r1\n"
            "st.o [1], r2\n"
            "st.o [2], r3\n"
            "st.o [3], r4\n"
            "ld.a r5, [r0+70]\n"      /* wraps: (lane + 70) & 63 */
            "st.o [4], r5\n"
            "ld.c r6, [r0+250]\n"     /* (lane + 250) & 255 */
            "st.o [5], r6\n"
            "st.l [r0+1], r0\n"
            "ld.l r7, [r0+65]\n"      /* same word after wrap */
            "st.o [6], r7\n"
            "exit\n");
    for (uint32_t i = 0; i < 256; i++)
        f->ctx->konst[i] = 1000 + i;
    for (uint32_t l = 0; l < 32; l++) {
        f->w->sr_vertex[l] = 500 + l;
        f->w->sr_prim[l] = 700 + l;
        for (uint32_t a = 0; a < 64; a++)
            f->w->attr[a][l] = a * 100 + l;
    }
    run(f, 0xffffffffu);
    for (uint32_t l = 0; l < 32; l++) {
        assert_int_equal(f->w->out[0][l] , 3);
        assert_int_equal(f->w->out[1][l], 3 * 32 + l);
        assert_int_equal(f->w->out[2][l], 500 + l);
        assert_int_equal(f->w->out[3][l], 700 + l);
        assert_int_equal(f->w->out[4][l], ((l + 70) & 63) * 100 + l);
        assert_int_equal(f->w->out[5][l], 1000 + ((l + 250) & 255));
        assert_int_equal(f->w->out[6][l], l);
    }
}

static void test_fp_modifiers_and_sel(void **state)
{
    fx_t *f = *state;
    load(f, "mov r0, -2.5\n"
            "mov r1, 4.0\n"
            "fadd r2, |r0|, -r1\n"     /* 2.5 - 4 = -1.5 */
            "fmul r3, -|r0|, r1\n"     /* -10 */
            "fmad r4, r0, r1, -r1\n"   /* -10 - 4 = -14 */
            "fsetp.lt p3, r2, 0\n"
            "sel r5, r0, r1, p3\n"
            "sel r6, r0, r1, !p3\n"
            "pxor p4, p3, pt\n"
            "sel r7, r0, r1, p4\n"
            "f2i.rm r8, r2\n"
            "st.o [0], r2\n"
            "st.o [1], r3\n"
            "st.o [2], r4\n"
            "st.o [3], r5\n"
            "st.o [4], r6\n"
            "st.o [5], r7\n"
            "st.o [6], r8\n"
            "mov rz, 5\n"
            "st.o [7], rz\n"
            "exit\n");
    run(f, 1);
    assert_int_equal(f->w->out[0][0], 0xbfc00000u);
    assert_int_equal(f->w->out[1][0], 0xc1200000u);
    assert_int_equal(f->w->out[2][0], 0xc1600000u);
    assert_int_equal(f->w->out[3][0], 0xc0200000u);
    assert_int_equal(f->w->out[4][0], 0x40800000u);
    assert_int_equal(f->w->out[5][0], 0x40800000u);
    assert_int_equal(f->w->out[6][0], (uint32_t)-2);
    assert_int_equal(f->w->out[7][0], 0);
}

static void test_errors(void **state)
{
    fx_t *f = *state;
    /* nesting deeper than the stack: a recursive chain of divergent ifs generated as text */
    char src[8192];
    size_t n = 0;
    n += (size_t)snprintf(src + n, sizeof src - n, "s2r r0, %%lane\n");
    for (int i = 0; i < 20; i++)
        n += (size_t)snprintf(src + n, sizeof src - n,
                              "and r1, r0, %d\nisetp.ne p0, r1, 0\n@p0 bra J%d, J%d\nnop\n", 1 << (i % 5), i, i);
    for (int i = 19; i >= 0; i--)
        n += (size_t)snprintf(src + n, sizeof src - n, "J%d: nop\n", i);
    snprintf(src + n, sizeof src - n, "exit\n");
    /* the branches target their own join (if-without-else); each level keeps the not-taken lanes */
    load(f, src);
    isa_warp_init(f->w, 0, 0xffffffffu);
    int st = isa_run(f->ctx, f->w, 100000);
    /* only 5 distinct masks: levels beyond the 5th do not diverge, so this must finish */
    assert_int_equal(st, ISA_DONE);

    /* infinite loop: watchdog */
    load(f, "top: bra top\n");
    isa_warp_init(f->w, 0, 1);
    assert_int_equal(isa_run(f->ctx, f->w, 1000), ISA_ERR_LIMIT);

    /* running off the end of the program */
    load(f, "nop\n");
    isa_warp_init(f->w, 0, 1);
    assert_int_equal(isa_run(f->ctx, f->w, 1000), ISA_ERR_PC);

    /* undefined opcode */
    uint64_t bad = (uint64_t)0x7f << ISA_F_OP_LO;
    uint32_t bad_pc = 99;
    assert_int_equal(isa_ctx_load(f->ctx, &bad, 1, &bad_pc), ISA_ERR_DECODE);
    assert_int_equal(bad_pc, 0);
}

/* stack overflow: 17 nested divergent regions need 33 entries */
static void test_stack_overflow(void **state)
{
    fx_t *f = *state;
    char src[16384];
    size_t n = 0;
    n += (size_t)snprintf(src + n, sizeof src - n, "s2r r0, %%lane\nmov r2, 0\n");
    /* level i: lanes with lane > i go deeper (taken = lane <= i jumps to the join) */
    for (int i = 0; i < 17; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "isetp.le p0, r0, %d\n@p0 bra J%d, J%d\niadd r2, r2, 1\n", i,
                              i, i);
    for (int i = 16; i >= 0; i--)
        n += (size_t)snprintf(src + n, sizeof src - n, "J%d: nop\n", i);
    snprintf(src + n, sizeof src - n, "st.o [0], r2\nexit\n");
    load(f, src);
    isa_warp_init(f->w, 0, 0xffffffffu);
    assert_int_equal(isa_run(f->ctx, f->w, 100000), ISA_ERR_STACK);
    /* 15 levels fit (1 + 2*15 = 31 entries) and every lane counts its levels */
    n = 0;
    n += (size_t)snprintf(src + n, sizeof src - n, "s2r r0, %%lane\nmov r2, 0\n");
    for (int i = 0; i < 15; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "isetp.le p0, r0, %d\n@p0 bra J%d, J%d\niadd r2, r2, 1\n", i,
                              i, i);
    for (int i = 14; i >= 0; i--)
        n += (size_t)snprintf(src + n, sizeof src - n, "J%d: nop\n", i);
    snprintf(src + n, sizeof src - n, "st.o [0], r2\nexit\n");
    load(f, src);
    isa_warp_init(f->w, 0, 0xffffffffu);
    assert_int_equal(isa_run(f->ctx, f->w, 100000), ISA_DONE);
    for (uint32_t l = 0; l < 32; l++)
        assert_int_equal(f->w->out[0][l], l < 15 ? l : 15);
}

static void texfn(void *user, uint32_t unit, uint32_t warp, uint32_t lane, uint32_t s, uint32_t t,
                  uint32_t rgba[4])
{
    (void)user;
    rgba[0] = s;
    rgba[1] = t;
    rgba[2] = unit;
    rgba[3] = warp * 100 + lane;
}

static void test_tex(void **state)
{
    fx_t *f = *state;
    load(f, "s2r r0, %lane\nmov r1, 77\ntex r8, r0, 5\n"
            "st.o [0], r8\nst.o [1], r9\nst.o [2], r10\nst.o [3], r11\nexit\n");
    f->ctx->tex = texfn;
    run(f, 0xffffffffu);
    for (uint32_t l = 0; l < 32; l++) {
        assert_int_equal(f->w->out[0][l], l);
        assert_int_equal(f->w->out[1][l], 77);
        assert_int_equal(f->w->out[2][l], 5);
        assert_int_equal(f->w->out[3][l], 300 + l);
    }
    f->ctx->tex = NULL;
}

/* the interpreter's fadd/fmul/fmad (which may take a host fast path for normal operands and results) must
 * equal the soft-float definition isa_f_add/isa_f_mul/isa_f_mad bit for bit, with and without modifiers */
static uint64_t xs = 4242;
static uint32_t xrnd(void)
{
    xs = xs * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(xs >> 32);
}

static uint32_t xop(void)
{
    static const uint32_t sp[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u,
                                  0x00800000u, 0x7f7fffffu, 0x3f800000u, 0xbf800000u};
    uint32_t k = xrnd() % 8;
    if (k == 0)
        return sp[xrnd() % 10];
    if (k < 3) {   /* exponents near the underflow and overflow thresholds */
        uint32_t e = (k == 1) ? xrnd() % 30 : 230 + xrnd() % 26;
        return (xrnd() & 0x80000000u) | (e << 23) | (xrnd() & 0x7fffffu);
    }
    if (k < 5)
        return xrnd();
    return (xrnd() & 0x80000000u) | ((100 + xrnd() % 56) << 23) | (xrnd() & 0x7fffffu);
}

static void test_fast_path_equals_definition(void **state)
{
    fx_t *f = *state;
    load(f, "fadd r2, r0, r1\nfmul r3, r0, r1\nfmad r4, r0, r1, r5\nfadd r6, -|r0|, -r1\n"
            "fmad r7, |r0|, -r1, -r5\nfmul r8, -r0, r5\nexit\n");
    for (int rep = 0; rep < 20000; rep++) {
        isa_warp_init(f->w, 0, 0xffffffffu);
        uint32_t a[32], b[32], c[32];
        for (int l = 0; l < 32; l++) {
            a[l] = f->w->r[0][l] = xop();
            b[l] = f->w->r[1][l] = (l & 3) == 0 ? a[l] ^ 0x80000000u : xop();   /* include cancellation */
            c[l] = f->w->r[5][l] = xop();
            if ((l & 7) == 1) {   /* products just below 2^-126: the soft-float flushes, the host may round up */
                a[l] = f->w->r[0][l] = 0x3f7fff00u | (xrnd() & 0xffu);
                b[l] = f->w->r[1][l] = (xrnd() & 0x80000000u) | (0x00800000u + (xrnd() & 0xffu));
            }
        }
        assert_int_equal(isa_run(f->ctx, f->w, 100), ISA_DONE);
        for (int l = 0; l < 32; l++) {
            uint32_t na = a[l] | 0x80000000u;   /* -|a| */
            uint32_t want[6] = {isa_f_add(a[l], b[l]), isa_f_mul(a[l], b[l]), isa_f_mad(a[l], b[l], c[l]),
                                isa_f_add(na, b[l] ^ 0x80000000u),
                                isa_f_mad(a[l] & 0x7fffffffu, b[l] ^ 0x80000000u, c[l] ^ 0x80000000u),
                                isa_f_mul(a[l] ^ 0x80000000u, c[l])};
            for (int k = 0; k < 6; k++)
                if (f->w->r[2 + k + (k >= 3)][l] != want[k]) {
                    print_error("op %d a 0x%08x b 0x%08x c 0x%08x: interpreter 0x%08x, soft-float 0x%08x\n", k,
                                a[l], b[l], c[l], f->w->r[2 + k + (k >= 3)][l], want[k]);
                    fail();
                }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_if_else, setup, teardown),
        cmocka_unit_test_setup_teardown(test_retire_records, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nested, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exit_and_guards, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory_and_sregs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_modifiers_and_sel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stack_overflow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tex, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fast_path_equals_definition, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
