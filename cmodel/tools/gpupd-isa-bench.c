/* gpupd-isa-bench: ISA benchmarks.
 *   gpupd-isa-bench sfu [--step K] [func...]   SFU accuracy vs libm (double) over EVERY binary32 input of
 *                                              each function's reduced range (--step K: every K-th input)
 *   gpupd-isa-bench interp [--warps N]         interpreter speed in thread-instructions/second
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/args.h"
#include "isa/isa.h"
#include "isa/isa_gen.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double d_rcp(double x) { return 1.0 / x; }
static double d_rsq(double x) { return 1.0 / sqrt(x); }
static double d_ex2(double x) { return exp2(x); }
static double d_lg2(double x) { return log2(x); }

typedef struct {
    const char *name;
    uint32_t (*f)(uint32_t);
    double (*ref)(double);
    float lo, hi;     /* reduced range [lo, hi) */
    int absolute;     /* error measured absolute (result in [-1,1]) rather than relative */
} sfu_fn_t;

static const sfu_fn_t fns[] = {
    {"rcp", isa_sfu_rcp, d_rcp, 1.0f, 2.0f, 0},
    {"rsq", isa_sfu_rsq, d_rsq, 1.0f, 4.0f, 0},
    {"ex2", isa_sfu_ex2, d_ex2, 0.0f, 1.0f, 0},
    {"lg2", isa_sfu_lg2, d_lg2, 1.0f, 2.0f, 1},
    {"sin", isa_sfu_sin, sin, 0.0f, 3.14159274f, 1},
    {"cos", isa_sfu_cos, cos, 0.0f, 3.14159274f, 1},
};

/* ulp of the binary32 result closest to v */
static double ulp_of(double v)
{
    int e;
    frexp(fabs(v), &e);   /* |v| in [2^(e-1), 2^e) */
    if (e - 1 < -126)
        e = -125;
    return ldexp(1.0, e - 1 - 23);
}

static int bench_sfu(int argc, char **argv)
{
    uint32_t step = 1;
    int any = 0;
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--step")) {
            if (arg_u32("gpupd-isa-bench", "--step", i + 1 < argc ? argv[i + 1] : NULL, 1, 1u << 24, &step)) return 2;
            argv[i] = argv[i + 1] = (char *)"";   /* not function names */
            i++;
        }
    for (int i = 0; i < argc; i++) {
        int ok = !argv[i][0];
        for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) ok |= !strcmp(argv[i], fns[k].name);
        if (!ok) { fprintf(stderr, "gpupd-isa-bench: sfu: unknown function or argument '%s'\n", argv[i]); return 2; }
    }
    printf("SFU accuracy vs libm (double), every %s binary32 input of the reduced range\n",
           step == 1 ? "" : "K-th");
    printf("%-4s %-22s %12s %12s %10s %10s %9s %8s\n", "fn", "range", "inputs", "max_err", "at_input",
           "max_ulp", "good_bits", "Minput/s");
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        const sfu_fn_t *fn = &fns[k];
        int nnames = 0;
        for (int i = 0; i < argc; i++) nnames += argv[i][0] != 0;
        int want = nnames == 0;
        for (int i = 0; i < argc; i++)
            if (!strcmp(argv[i], fn->name))
                want = 1;
        if (!want)
            continue;
        any = 1;
        uint32_t b0 = isa_float_bits(fn->lo), b1 = isa_float_bits(fn->hi);
        double maxerr = 0, maxulp = 0;
        uint32_t worst = b0;
        uint64_t n = 0;
        double t0 = now();
        for (uint64_t b = b0; b < b1; b += step) {
            double x = isa_bits_float((uint32_t)b);
            double y = isa_bits_float(fn->f((uint32_t)b));
            double r = fn->ref(x);
            double err = fn->absolute ? fabs(y - r) : fabs(y - r) / fabs(r);
            double ue = fabs(y - r) / ulp_of(r);
            if (err > maxerr) {
                maxerr = err;
                worst = (uint32_t)b;
            }
            if (ue > maxulp)
                maxulp = ue;
            n++;
        }
        double dt = now() - t0;
        char range[40];
        snprintf(range, sizeof range, "[%g,%g)", (double)fn->lo, (double)fn->hi);
        printf("%-4s %-22s %12llu %12.3e %10.7g %10.3f %9.2f %8.1f   (%s error)\n", fn->name, range,
               (unsigned long long)n, maxerr, (double)isa_bits_float(worst), maxulp, -log2(maxerr), n / dt / 1e6,
               fn->absolute ? "absolute" : "relative");
    }
    return any ? 0 : 2;
}

static int bench_interp(int argc, char **argv)
{
    uint32_t warps = 20000;
    printf("interpreter speed (thread-instructions = warp instructions x active lanes)\n");
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--warps")) {
            if (arg_u32("gpupd-isa-bench", "--warps", i + 1 < argc ? argv[i + 1] : NULL, 1, 100000000, &warps)) return 2;
            i++;
        } else {
            fprintf(stderr, "gpupd-isa-bench: interp: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    isa_ctx_t *ctx = isa_ctx_new();
    isa_warp_t *w = isa_warp_new();
    if (!ctx || !w)
        return 1;
    /* workloads: the shader library's vertex shader and a random generated program mix */
    const char *names[] = {"vs_mvp", "fs_tex_modulate"};
    for (int k = 0; k < 2; k++) {
        uint64_t code[ISA_MAX_CODE];
        int n = isa_shader_assemble(names[k], code, ISA_MAX_CODE, NULL);
        if (n < 0 || isa_ctx_load(ctx, code, (uint32_t)n, NULL) != ISA_OK) {
            fprintf(stderr, "cannot load %s\n", names[k]);
            return 1;
        }
        for (int i = 0; i < 16; i++)
            isa_ctx_set_constf(ctx, (uint32_t)i, (i % 5) ? 0.25f * (float)i : 1.0f);
        uint64_t ti = 0;
        double t0 = now();
        for (uint32_t i = 0; i < warps; i++) {
            isa_warp_init(w, i, 0xffffffffu);
            for (int a = 0; a < 16; a++)
                for (int l = 0; l < 32; l++)
                    w->attr[a][l] = isa_float_bits(0.5f + (float)(a + l));
            if (isa_run(ctx, w, 100000) != ISA_DONE)
                return 1;
            ti += w->n_thread_instrs;
        }
        double dt = now() - t0;
        printf("interp %-16s %8u warps %12llu thread-instrs %8.3f s %8.1f M thread-instrs/s\n", names[k],
               warps, (unsigned long long)ti, dt, ti / dt / 1e6);
    }
    /* generated programs: divergent branches, loops, SFU, memory */
    uint64_t ti = 0;
    double t0 = now();
    double tgen = 0;
    isa_gen_prog_t *g = malloc(sizeof *g);
    if (!g)
        return 1;
    for (uint32_t i = 0; i < warps / 10; i++) {
        isa_gen_params_t gp = isa_gen_params_default();
        double tg = now();
        if (isa_gen_program(&gp, 1000 + i, g) != 0 || isa_ctx_load(ctx, g->code, g->len, NULL) != ISA_OK)
            return 1;
        isa_gen_free(g);
        isa_gen_init_warp(&gp, 1000 + i, ctx, w);
        tgen += now() - tg;
        if (isa_run(ctx, w, 1000000) != ISA_DONE)
            return 1;
        ti += w->n_thread_instrs;
    }
    free(g);
    double dt = now() - t0 - tgen;   /* interpretation only (generation and assembly excluded) */
    printf("interp %-16s %8u warps %12llu thread-instrs %8.3f s %8.1f M thread-instrs/s\n", "random-programs",
           warps / 10, (unsigned long long)ti, dt, ti / dt / 1e6);
    isa_warp_free(w);
    isa_ctx_free(ctx);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "sfu"))
        return bench_sfu(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "interp"))
        return bench_interp(argc - 2, argv + 2);
    fprintf(stderr, "usage: gpupd-isa-bench sfu [--step K] [rcp|rsq|ex2|lg2|sin|cos...]\n"
                    "       gpupd-isa-bench interp [--warps N]\n");
    return 2;
}
