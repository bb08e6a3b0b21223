/* Unit tests of the SIMT core's C cycle model (cmodel/simt/simt_hw.c) against the ISA interpreter, which is
 * independent of it (isa_step retire records): random programs of the ISA generator on several parameter
 * sets (including ones the RTL lockstep run does not build), the reconvergence-stack overflow error, and the
 * documented issue rate and dependent-instruction latency (docs/simt.md). */
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
#include "simt/simt_hw.h"

typedef struct {
    simt_hw_params_t p;
    simt_hw_t *h;
    isa_ctx_t *ctx;
    isa_warp_t *iw[SIMT_HW_MAX_WARPS];
    uint64_t code[ISA_MAX_CODE];
    uint32_t len, nw;
    uint64_t instrs, cycles, first_issue, last_retire;
    uint32_t issue_cycles[64];
    uint32_t n_issue;
} run_t;

static void sampler(void *user, uint32_t unit, uint32_t warp, uint32_t lane, uint32_t s, uint32_t t, uint32_t rgba[4])
{
    (void)user;
    rgba[0] = s ^ unit;
    rgba[1] = t + warp;
    rgba[2] = lane * 0x01010101u;
    rgba[3] = s + t;
}

/* Upload, launch, run to idle; every retired instruction compared with isa_step. Returns the status of the
 * interpreter at the end (ISA_DONE normally). */
static int run(run_t *r)
{
    const uint32_t L = r->p.lanes;
    simt_hw_derived_t g = simt_hw_derive(r->p);
    r->ctx->tex = sampler;
    assert_int_equal(isa_ctx_load(r->ctx, r->code, r->len, NULL), ISA_OK);
    r->h = calloc(1, sizeof *r->h);
    assert_non_null(r->h);
    assert_int_equal(simt_hw_init(r->h, r->p), 0);
    int phase = 0;
    uint32_t i = 0, w = 0, row = 0, word = 0, cur = 0, cpc = 0, cw = 0, cval[4][32];
    uint32_t texq[64][SIMT_HW_MAX_LANES];
    int texv[64] = {0};
    uint64_t cyc = 0;
    while (phase != 5) {
        simt_hw_in_t in;
        simt_hw_out_t o;
        memset(&in, 0, sizeof in);
        in.prog_len = r->len;
        if (phase == 0) { in.imem_we = 1; in.imem_addr = i; in.imem_data = r->code[i]; }
        else if (phase == 1) { in.const_we = 1; in.const_addr = i; in.const_data = r->ctx->konst[i]; }
        else if (phase == 2) {
            in.attr_we = 1; in.attr_warp = w; in.attr_row = row; in.attr_word = word;
            for (uint32_t l = 0; l < L; l++) {
                uint32_t t = row * L + l;
                in.attr_data[l] = word < 64 ? r->iw[w]->attr[word][t] : word == 64 ? r->iw[w]->sr_vertex[t] : r->iw[w]->sr_prim[t];
            }
        } else if (phase == 3) {
            in.launch = 1; in.launch_warp = w; in.launch_mask = r->iw[w]->launch_mask; in.launch_wid = r->iw[w]->warp_id;
        }
        if (texv[cyc % 64]) { memcpy(in.tex_rsp, texq[cyc % 64], sizeof in.tex_rsp); texv[cyc % 64] = 0; }
        simt_hw_comb(r->h, &in, &o);
        if (o.issue_valid && r->n_issue < 64)
            r->issue_cycles[r->n_issue++] = (uint32_t)cyc;
        if (o.tex_valid) {
            uint32_t due = (uint32_t)((cyc + r->p.tex_lat) % 64);
            texv[due] = 1;
            memset(texq[due], 0, sizeof texq[due]);
            for (uint32_t l = 0; l < L; l++)
                if ((o.tex_mask >> l) & 1u) {
                    uint32_t rgba[4];
                    sampler(NULL, o.tex_unit, r->iw[o.tex_warp]->warp_id, o.tex_row * L + l, o.tex_s[l], o.tex_t[l], rgba);
                    texq[due][l] = rgba[o.tex_comp];
                }
        }
        if (o.rt_valid) {
            if (o.rt_first) { cur = 1; cpc = o.rt_pc; cw = o.rt_warp; memset(cval, 0, sizeof cval); }
            assert_true(cur);
            uint32_t comp = ISA_GET(r->code[cpc], OP) == ISA_OP_TEX ? o.rt_minor : 0;
            for (uint32_t l = 0; l < L; l++)
                if ((o.rt_lane_en >> l) & 1u)
                    cval[comp][o.rt_row * L + l] = o.rt_val[l];
            if (o.rt_last) {
                isa_retire_t rec;
                assert_int_equal(isa_step(r->ctx, r->iw[cw], &rec), ISA_OK);
                assert_int_equal(rec.pc, cpc);
                assert_int_equal(rec.active, o.rt_active);
                assert_int_equal(rec.wmask, o.rt_wmask);
                assert_int_equal(rec.dst_kind, o.rt_kind);
                for (uint32_t k = 0; k < rec.ndst; k++)
                    for (uint32_t t = 0; t < 32; t++)
                        if ((rec.wmask >> t) & 1u && cval[k][t] != rec.val[k][t]) {
                            fprintf(stderr, "warp %u pc %u comp %u lane %u: model 0x%08x interpreter 0x%08x\n", cw, cpc,
                                    k, t, cval[k][t], rec.val[k][t]);
                            fail();
                        }
                r->instrs++;
                r->last_retire = cyc;
                cur = 0;
            }
        }
        switch (phase) {
        case 0: if (++i >= r->len) { phase = 1; i = 0; } break;
        case 1: if (++i >= ISA_CONST_WORDS) { phase = 2; w = row = word = 0; } break;
        case 2: if (++word >= 66) { word = 0; if (++row >= g.q) { row = 0; if (++w >= r->nw) { phase = 3; w = 0; } } } break;
        case 3: if (++w >= r->nw) { phase = 4; r->first_issue = cyc + 1; } break;
        case 4: if (o.idle && cyc > r->first_issue) phase = 5; break;
        }
        simt_hw_clock(r->h, &in);
        cyc++;
        assert_true(cyc < 5000000);
    }
    r->cycles = cyc;
    int st = ISA_DONE;
    simt_hw_out_t o;
    simt_hw_in_t in;
    memset(&in, 0, sizeof in);
    simt_hw_comb(r->h, &in, &o);
    for (uint32_t k = 0; k < r->nw; k++) {
        int s = isa_step(r->ctx, r->iw[k], NULL);
        assert_int_equal((o.err_mask >> k) & 1u, s != ISA_DONE);
        if (s != ISA_DONE)
            st = s;
    }
    simt_hw_free(r->h);
    free(r->h);
    return st;
}

static run_t *new_run(simt_hw_params_t p, uint32_t nw)
{
    run_t *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->p = p;
    r->nw = nw;
    r->ctx = isa_ctx_new();
    for (uint32_t w = 0; w < nw; w++)
        r->iw[w] = isa_warp_new();
    return r;
}

static void free_run(run_t *r)
{
    for (uint32_t w = 0; w < r->nw; w++)
        isa_warp_free(r->iw[w]);
    isa_ctx_free(r->ctx);
    free(r);
}

static void test_random_programs(void **state)
{
    (void)state;
    const simt_hw_params_t ps[] = {{8, 4, 8, 8, 4, 1, 1}, {8, 4, 7, 7, 4, 1, 1}, {4, 3, 3, 9, 2, 1, 1}, {32, 1, 1, 1, 1, 1, 1},
                                   {1, 2, 5, 2, 6, 1, 1}, {16, 5, 2, 12, 3, 1, 1}, {1, 1, 4, 1, 4, 4, 4}, {8, 3, 8, 8, 4, 4, 1}, {4, 2, 3, 2, 2, 1, 4}};
    const char *env = getenv("SIMT_TEST_PROGRAMS");
    uint32_t per = env ? (uint32_t)atoi(env) : 12;
    uint64_t total = 0;
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++)
        for (uint32_t s = 1; s <= per; s++) {
            run_t *r = new_run(ps[k], ps[k].warps);
            isa_gen_params_t gp = isa_gen_params_default();
            gp.max_static = 150;
            gp.max_depth = 1 + s % 4;
            isa_gen_prog_t prog;
            uint64_t seed = 1000u * k + s;
            assert_int_equal(isa_gen_program(&gp, seed, &prog), 0);
            memcpy(r->code, prog.code, prog.len * sizeof r->code[0]);
            r->len = prog.len;
            isa_gen_free(&prog);
            for (uint32_t w = 0; w < r->nw; w++)
                isa_gen_init_warp(&gp, seed * 64u + w + 1u, r->ctx, r->iw[w]);
            assert_int_equal(run(r), ISA_DONE);
            assert_true(r->instrs > 0);
            total += r->instrs;
            free_run(r);
        }
    printf("  cycle model vs interpreter: %llu warp instructions on 9 parameter sets\n", (unsigned long long)total);
}

/* 17 nested divergent levels overflow the 32-entry stack: the interpreter reports ISA_ERR_STACK and the
 * model stops the warp with err at the same instruction (everything before it retired identically). */
static void test_stack_overflow(void **state)
{
    (void)state;
    char src[8192];
    int n = 0;
    n += snprintf(src + n, sizeof src - (size_t)n, "s2r r1, %%lane\n");
    for (int d = 0; d < 17; d++)
        n += snprintf(src + n, sizeof src - (size_t)n, "isetp.eq p0, r1, %d\n@p0 bra J%d, J%d\n", d, d, d);
    n += snprintf(src + n, sizeof src - (size_t)n, "nop\n");
    for (int d = 16; d >= 0; d--)
        n += snprintf(src + n, sizeof src - (size_t)n, "J%d:\niadd r3, r3, 1\n", d);   /* distinct joins */
    snprintf(src + n, sizeof src - (size_t)n, "exit\n");
    simt_hw_params_t p = {8, 2, 7, 7, 4, 1, 1};
    run_t *r = new_run(p, 2);
    isa_asm_err_t err;
    int len = isa_assemble(src, r->code, ISA_MAX_CODE, &err);
    assert_true(len > 0);
    r->len = (uint32_t)len;
    isa_warp_init(r->iw[0], 0, 0xffffffffu);
    isa_warp_init(r->iw[1], 1, 0x1u);   /* one lane: never diverges, finishes */
    int st = run(r);
    free_run(r);
    assert_int_equal(st, ISA_ERR_STACK);
}

/* Issue rate and latency: independent integer instructions on 4 warps issue one warp instruction every
 * 32/L cycles; a dependent chain in one warp issues every 32/L + 1 + D + 1 cycles (scoreboard released at the
 * last beat's write-back, visible the next cycle). */
static void test_issue_rate_and_latency(void **state)
{
    (void)state;
    simt_hw_params_t p = {8, 4, 8, 8, 4, 1, 1};
    simt_hw_derived_t g = simt_hw_derive(p);
    const char *indep = "iadd r1, r1, 1\niadd r2, r2, 1\niadd r3, r3, 1\niadd r4, r4, 1\niadd r5, r5, 1\n"
                        "iadd r6, r6, 1\niadd r7, r7, 1\niadd r8, r8, 1\nexit\n";
    run_t *r = new_run(p, 4);
    isa_asm_err_t err;
    r->len = (uint32_t)isa_assemble(indep, r->code, ISA_MAX_CODE, &err);
    for (uint32_t w = 0; w < 4; w++)
        isa_warp_init(r->iw[w], w, 0xffffffffu);
    assert_int_equal(run(r), ISA_DONE);
    /* after the start-up, issues are g.q cycles apart */
    for (uint32_t k = 8; k + 1 < 24 && k + 1 < r->n_issue; k++)
        assert_int_equal(r->issue_cycles[k + 1] - r->issue_cycles[k], g.q);
    free_run(r);

    const char *chain = "iadd r1, r1, 1\niadd r1, r1, 1\niadd r1, r1, 1\niadd r1, r1, 1\nexit\n";
    r = new_run(p, 1);
    r->len = (uint32_t)isa_assemble(chain, r->code, ISA_MAX_CODE, &err);
    isa_warp_init(r->iw[0], 0, 0xffffffffu);
    assert_int_equal(run(r), ISA_DONE);
    assert_true(r->n_issue >= 4);
    for (uint32_t k = 0; k + 1 < 4; k++)
        assert_int_equal(r->issue_cycles[k + 1] - r->issue_cycles[k], g.q + 1 + g.d + 1);
    free_run(r);
}

/* IMUL_PASSES / FPU_PASSES = 4 (the reduced iCE40 configuration): an imul (FPU op) takes 4 beats per row, so a
 * dependent chain issues every 4 * 32/L + 1 + D + 1 cycles, and 32/L + 1 + D + 1 with one pass; an FPU chain is
 * not slowed by IMUL_PASSES, an imul chain not by FPU_PASSES; invalid pass counts are refused. */
static void test_mul_passes(void **state)
{
    (void)state;
    const char *chains[] = {"imul r1, r1, 3\nimul r1, r1, 5\nimul r1, r1, 7\nimul r1, r1, 9\nexit\n",
                            "fmul r1, r1, 3.0\nfadd r1, r1, 5.0\nfmad r1, r1, r1, r1\nf2i.rn r1, r1\nexit\n"};
    const uint32_t passes[][2] = {{1, 1}, {4, 1}, {1, 4}, {4, 4}, {8, 4}, {16, 4}};
    for (size_t k = 0; k < 2 * sizeof passes / sizeof passes[0]; k++) {
        const uint32_t ip = passes[k / 2][0], fp = passes[k / 2][1], mine = (k % 2) ? fp : ip;
        simt_hw_params_t p = {1, 1, 4, 1, 4, ip, fp};
        simt_hw_derived_t g = simt_hw_derive(p);
        run_t *r = new_run(p, 1);
        isa_asm_err_t err;
        int len = isa_assemble(chains[k % 2], r->code, ISA_MAX_CODE, &err);
        assert_true(len > 0);
        r->len = (uint32_t)len;
        isa_warp_init(r->iw[0], 0, 0xffffffffu);
        assert_int_equal(run(r), ISA_DONE);
        assert_true(r->n_issue >= 4);
        for (uint32_t i = 0; i + 1 < 4; i++)
            assert_int_equal(r->issue_cycles[i + 1] - r->issue_cycles[i], mine * g.q + 1 + g.d + 1);
        free_run(r);
    }
    simt_hw_params_t bad = {1, 1, 4, 1, 4, 2, 1};
    assert_int_equal(simt_hw_params_ok(bad), 0);
    bad.imul_passes = 4;
    assert_int_equal(simt_hw_params_ok(bad), 1);
    bad.imul_passes = 16;
    assert_int_equal(simt_hw_params_ok(bad), 1);
    bad.imul_passes = 32;
    assert_int_equal(simt_hw_params_ok(bad), 0);
    bad.imul_passes = 4;
    bad.fpu_passes = 3;
    assert_int_equal(simt_hw_params_ok(bad), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_programs),
        cmocka_unit_test(test_stack_overflow),
        cmocka_unit_test(test_issue_rate_and_latency),
        cmocka_unit_test(test_mul_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
