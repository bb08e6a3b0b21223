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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
