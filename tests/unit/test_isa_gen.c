/* Constrained-random programs (cmodel/isa/isa_gen.c) run on the SIMT interpreter and checked against the
 * straight-line per-thread reference interpretation of the same program: no hang (watchdog), the warp
 * finishes with an empty reconvergence stack, the final top-level instruction retires exactly once with
 * every live lane (reconvergence reached), and every lane's registers, predicates, outputs and local memory
 * equal the per-thread reference. ISA_GEN_SEED / ISA_GEN_COUNT override the seed range. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/isa_gen.h"

#define LIMIT 2000000

static uint64_t base_seed = 1;
static uint32_t count = 3000;
static uint64_t op_seen[1 << ISA_F_OP_W];   /* retired instructions per opcode (coverage) */
static uint64_t div_branches, partial_exits;

static int check_one(uint64_t seed, isa_ctx_t *ctx, isa_warp_t *a, isa_warp_t *b, isa_gen_prog_t *g,
                     uint64_t *tinstr)
{
    isa_gen_params_t p = isa_gen_params_default();
    p.max_depth = 1 + (uint32_t)(seed % 5);
    if (isa_gen_program(&p, seed, g) != 0) {
        print_error("seed %llu: generator failed\n", (unsigned long long)seed);
        return -1;
    }
    uint32_t bad_pc;
    if (isa_ctx_load(ctx, g->code, g->len, &bad_pc) != ISA_OK) {
        print_error("seed %llu: load failed at pc %u\n", (unsigned long long)seed, bad_pc);
        return -1;
    }
    isa_gen_init_warp(&p, seed, ctx, a);
    memcpy(b, a, sizeof *a);
    /* SIMT run, instruction by instruction */
    isa_retire_t rec;
    int st = ISA_OK, final_seen = 0;
    uint64_t steps = 0;
    const char *why = NULL;
    while (steps < LIMIT && (st = isa_step(ctx, a, &rec)) == ISA_OK) {
        steps++;
        op_seen[ISA_GET(rec.insn, OP)]++;
        if (ISA_GET(rec.insn, OP) == ISA_OP_BRA && rec.wmask && rec.wmask != rec.active)
            div_branches++;
        if (ISA_GET(rec.insn, OP) == ISA_OP_EXIT && rec.wmask && rec.wmask != rec.active)
            partial_exits++;
        if (rec.pc == g->final_pc) {
            uint32_t live = a->launch_mask & ~a->exited;
            if (final_seen++)
                why = "final instruction retired twice (threads not reconverged)";
            else if (rec.active != live)
                why = "final instruction did not retire with every live lane";
        }
    }
    if (!why && st != ISA_DONE)
        why = st == ISA_OK ? "watchdog: no completion" : isa_status_str(st);
    if (!why && a->sp != 0)
        why = "stack not empty";
    if (!why && !final_seen && (a->launch_mask & ~a->exited))
        why = "final instruction never retired";
    for (uint32_t l = 0; !why && l < ISA_WARP_SIZE; l++) {
        int rs = isa_ref_run_thread(ctx, b, l, LIMIT);
        if (rs != ISA_DONE)
            why = "reference interpretation did not finish";
    }
    for (uint32_t l = 0; !why && l < ISA_WARP_SIZE; l++) {
        for (uint32_t r = 0; r < ISA_NUM_REGS && !why; r++)
            if (a->r[r][l] != b->r[r][l]) {
                print_error("lane %u r%u: SIMT 0x%08x reference 0x%08x\n", l, r, a->r[r][l], b->r[r][l]);
                why = "register differs";
            }
        for (uint32_t q = 0; q < ISA_NUM_PREDS && !why; q++)
            if (((a->p[q] ^ b->p[q]) >> l) & 1) {
                print_error("lane %u p%u differs\n", l, q);
                why = "predicate differs";
            }
        for (uint32_t m = 0; m < ISA_OUT_WORDS && !why; m++)
            if (a->out[m][l] != b->out[m][l] || a->local[m][l] != b->local[m][l]) {
                print_error("lane %u word %u: out 0x%08x/0x%08x local 0x%08x/0x%08x (SIMT/reference)\n", l, m,
                            a->out[m][l], b->out[m][l], a->local[m][l], b->local[m][l]);
                why = "memory differs";
            }
    }
    *tinstr += a->n_thread_instrs;
    if (why) {
        print_error("seed %llu: %s\n--- program ---\n%s---\nreproduce: ISA_GEN_SEED=%llu ISA_GEN_COUNT=1 "
                    "build/tests/test_isa_gen\n",
                    (unsigned long long)seed, why, g->text, (unsigned long long)seed);
        return -1;
    }
    return 0;
}

static void test_random_programs(void **state)
{
    (void)state;
    isa_ctx_t *ctx = isa_ctx_new();
    isa_warp_t *a = isa_warp_new(), *b = isa_warp_new();
    isa_gen_prog_t *g = calloc(1, sizeof *g);
    assert_non_null(ctx);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(g);
    uint64_t tinstr = 0;
    uint32_t max_sp = 0, diverged = 0;
    int failed = 0;
    for (uint32_t i = 0; i < count && !failed; i++) {
        failed = check_one(base_seed + i, ctx, a, b, g, &tinstr) != 0;
        if (a->max_sp > max_sp)
            max_sp = a->max_sp;
        diverged += a->max_sp > 1;
        isa_gen_free(g);
    }
    printf("test_isa_gen: seeds %llu..%llu, %llu thread-instructions, %u programs diverged, max stack %u\n",
           (unsigned long long)base_seed, (unsigned long long)(base_seed + count - 1),
           (unsigned long long)tinstr, diverged, max_sp);
    free(g);
    isa_warp_free(a);
    isa_warp_free(b);
    isa_ctx_free(ctx);
    assert_false(failed);
    /* the generator must actually produce divergence and cover every opcode (a run without that would
     * prove nothing) */
    printf("test_isa_gen: %llu divergent branches, %llu partial exits\n", (unsigned long long)div_branches,
           (unsigned long long)partial_exits);
    if (count >= 100 && !failed) {
        assert_true(diverged > count / 2);
        assert_true(div_branches > count);
        assert_true(partial_exits > 10);
        for (uint32_t op = 0; op < (1u << ISA_F_OP_W); op++)
            if (isa_op_name(op) && op_seen[op] == 0) {
                print_error("opcode %s never retired in the random programs\n", isa_op_name(op));
                fail();
            }
    }
}

/* same seed -> same program; different seeds -> different programs */
static void test_determinism(void **state)
{
    (void)state;
    isa_gen_params_t p = isa_gen_params_default();
    isa_gen_prog_t *x = calloc(1, sizeof *x), *y = calloc(1, sizeof *y);
    assert_int_equal(isa_gen_program(&p, 42, x), 0);
    assert_int_equal(isa_gen_program(&p, 42, y), 0);
    assert_int_equal(x->len, y->len);
    assert_memory_equal(x->code, y->code, x->len * sizeof(uint64_t));
    isa_gen_free(y);
    assert_int_equal(isa_gen_program(&p, 43, y), 0);
    assert_true(x->len != y->len || memcmp(x->code, y->code, x->len * sizeof(uint64_t)));
    isa_gen_free(x);
    isa_gen_free(y);
    free(x);
    free(y);
}

/* Reduced mode (the SIMT core's iCE40 configuration, docs/simt.md section 6): 16 registers, 16 memory words, 64
 * constants, no SFU. Every generated instruction stays inside (registers r0..r15 or rz, memory at [rz+k] with k
 * below the size, no SFU opcode) and the program runs to completion on the interpreter; too deep a nesting for
 * 16 registers is refused. */
static void test_reduced_mode(void **state)
{
    (void)state;
    isa_gen_params_t p = isa_gen_params_default();
    p.regs = 16, p.mem_words = 16, p.const_words = 64, p.no_sfu = 1;
    isa_gen_prog_t *g = calloc(1, sizeof *g);
    isa_ctx_t *ctx = isa_ctx_new();
    isa_warp_t *w = isa_warp_new();
    assert_non_null(g);
    assert_non_null(ctx);
    assert_non_null(w);
    uint32_t n_mem = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        p.max_depth = 1 + (uint32_t)(seed % 4);
        p.max_static = 40 + (uint32_t)(seed % 200);
        assert_int_equal(isa_gen_program(&p, seed, g), 0);
        for (uint32_t pc = 0; pc < g->len; pc++) {
            uint64_t x = g->code[pc];
            uint32_t op = (uint32_t)ISA_GET(x, OP), ra = (uint32_t)ISA_GET(x, RA), rd = (uint32_t)ISA_GET(x, RD);
            uint32_t rb = (uint32_t)ISA_GET(x, RB), rc = (uint32_t)ISA_GET(x, RC), bi = (uint32_t)ISA_GET(x, BI);
            uint32_t ofs = (uint32_t)ISA_GET(x, OFS);
            assert_false(op == ISA_OP_RCP || op == ISA_OP_RSQ || op == ISA_OP_EX2 || op == ISA_OP_LG2 ||
                         op == ISA_OP_SIN || op == ISA_OP_COS);
            if (op == ISA_OP_BRA || op == ISA_OP_EXIT || op == ISA_OP_NOP)
                continue;
            if (op == ISA_OP_LD_A || op == ISA_OP_LD_C || op == ISA_OP_LD_L || op == ISA_OP_ST_L || op == ISA_OP_ST_O) {
                assert_int_equal(ra, 63);
                assert_true(ofs < (op == ISA_OP_LD_C ? 64u : 16u));
                n_mem++;
            }
            if (op == ISA_OP_TEX)
                assert_true(rd + 3 < 16 && ra + 1 < 16);
            int pdst = op == ISA_OP_FSETP || op == ISA_OP_ISETP || op == ISA_OP_USETP || op == ISA_OP_PAND ||
                       op == ISA_OP_POR || op == ISA_OP_PXOR;
            int psrc = op == ISA_OP_PAND || op == ISA_OP_POR || op == ISA_OP_PXOR;
            if (!pdst && op != ISA_OP_ST_L && op != ISA_OP_ST_O)
                assert_true(rd < 16 || rd == 63);
            if (!psrc && op != ISA_OP_S2R && op != ISA_OP_MOV)
                assert_true(ra < 16 || ra == 63);
            if (!psrc && !bi && op != ISA_OP_S2R)
                assert_true(rb < 16 || rb == 63);
            if (op == ISA_OP_FMAD)
                assert_true(rc < 16 || rc == 63);
        }
        uint32_t bad = 0;
        assert_int_equal(isa_ctx_load(ctx, g->code, g->len, &bad), ISA_OK);
        isa_gen_init_warp(&p, seed, ctx, w);
        assert_int_equal(isa_run(ctx, w, LIMIT), ISA_DONE);
        isa_gen_free(g);
    }
    assert_true(n_mem > 300);
    /* out of range: more nesting than 16 registers hold loop counters for */
    isa_gen_free(g);
    p.max_depth = 5;
    assert_int_equal(isa_gen_program(&p, 1, g), -1);
    isa_gen_free(g);
    free(g);
    isa_ctx_free(ctx);
    isa_warp_free(w);
}

int main(void)
{
    const char *s = getenv("ISA_GEN_SEED"), *c = getenv("ISA_GEN_COUNT");
    if (s)
        base_seed = strtoull(s, NULL, 0);
    if (c)
        count = (uint32_t)strtoul(c, NULL, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_random_programs),
        cmocka_unit_test(test_reduced_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
