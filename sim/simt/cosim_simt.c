/* Lockstep co-simulation of the SIMT core: the verilated RTL (simt_dut.h) against the C cycle model
 * (cmodel/simt/simt_hw.h), every output port every cycle, and every retired instruction against the ISA
 * interpreter (isa_step retire records: pc, active mask, written lanes, destination, every value, store
 * addresses). Each job is one program on up to WARPS warp slots: upload (instructions, constants,
 * attribute rows, launch) through the host ports, run until idle, check the warps' final status and read
 * the output memory back. Jobs: random programs (isa_gen, one seed each), the shader library, one
 * assembly file (--program, the stable `make cosim-simt PROGRAM=...` interface), the programs a trace runs.
 * On the first mismatch: a report (cycle, seed, fields DUT vs model, last transactions, reproduce command),
 * then the failing job is re-run with an FST window and a .gtkw view; exit status 1. docs/simt.md.
 * This file: the command line, the job list, the failure window and the summary; the rest is split by concern
 * (simt_cosim.h lists the files) and runs on the lockstep driver (sim/common/lockstep.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/args.h"
#include "simt_cosim.h"

/* ------------------------------------------------------------------ main */
static void usage(void)
{
    fprintf(stderr,
            "usage: cosim-simt [--seed S] [--programs N] [--no-fp] [--len N] [--depth D] [--shaders | --shader NAME]\n"
            "                  [--program FILE.s|FILE.bin [--warps N]] [--readback-every N] [--out-dir DIR] [--window W]\n"
            "                  [--waves FILE.fst] [--gtkw VIEW.gtkw] [--inject-fault CYCLE] [--quiet]\n"
            "                  [--trace-programs A.gpt,B.gpt [--only NAME]] [--fuzz-words N] [--abort-every N]\n"
            "                  [--expect done|error] [--replay-fst]\n"
            "       cosim-simt --cp-trace TRACE.gpt [--frame K] [--gpus N] [--own diag|linear] [--max-prims P] [-o STREAM]\n");
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    /* the size of a regular file only (ftell of a directory is 2^63-1 on ext4): anything else is unreadable */
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
        fclose(f);
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    char *b = malloc(n + 1);
    if (b && fread(b, 1, n, f) != n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = 0;
    fclose(f);
    return b;
}

/* the options that are not a plain number or string */
typedef struct {
    opts_t *o;
    const char **one_shader, **cp_trace, **cp_out;
    p2g_mode_t *cp_own;
} sc_args_t;

static int opt_readback(void *u, const char *name, const char *val)
{
    uint32_t v = 0;
    if (arg_u32(TOOL, name, val, 0, INT32_MAX, &v))
        return -1;
    ((sc_args_t *)u)->o->readback_every = (int)v;
    return 0;
}

static int opt_own(void *u, const char *name, const char *val)
{
    (void)name;
    *((sc_args_t *)u)->cp_own = !strcmp(val, "linear") ? P2G_MODE_LINEAR : P2G_MODE_DIAG;
    return 0;
}

static int opt_expect(void *u, const char *name, const char *val)
{
    opts_t *o = ((sc_args_t *)u)->o;
    if (!strcmp(val, "done"))
        o->expect = 0;
    else if (!strcmp(val, "error"))
        o->expect = 1;
    else
        return arg_fail(TOOL, name, val, "not an expectation", "done or error");
    return 0;
}

/* the failing job replayed on a new DUT and model, with the FST window */
typedef struct {
    const ctx_t *c;
    const jobs_t *js;
    uint64_t k;
    int part;
} replay_t;

static void sc_replay(void *u, const char *fst, uint64_t from, uint64_t to)
{
    const replay_t *rp = u;
    simt_dut_t *d2 = simt_dut_new(fst);
    stats_t s2;
    fail_t f2;
    memset(&s2, 0, sizeof s2);
    ctx_t *c2 = malloc(sizeof *c2);
    simt_hw_t *h2 = calloc(1, sizeof *h2);
    /* re-create the job (the interpreter state was consumed) and run it up to the failure */
    job_t j2;
    memset(&j2, 0, sizeof j2);
    int p2;
    if (c2 && ctx_init(c2, rp->c->o, rp->c->prm) == 0 && h2 && simt_hw_init(h2, rp->c->prm) == 0)
        run_planned(c2, rp->js, rp->k, d2, h2, &s2, &f2, from, rp->part, 1, to, &p2, &j2, NULL);
    if (c2)
        ls_free(&c2->ls);
    free(c2);
    if (h2)
        simt_hw_free(h2);
    free(h2);
    job_free(&j2);
    simt_dut_free(d2);
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.c.seed = 0x5eed;
    o.programs = 100;
    o.c.out_dir = "out/cosim/simt";
    o.c.window = 60;
    o.c.gtkw = "tb/simt/simt.gtkw";
    o.readback_every = 8;
    o.expect = -1;
    o.argv0 = argv[0];
    const char *one_shader = NULL, *cp_trace = NULL, *cp_out = NULL;
    uint32_t cp_frame = 0, cp_gpus = 4, cp_max = 3000;
    p2g_mode_t cp_own = P2G_MODE_DIAG;
    sc_args_t x = {&o, &one_shader, &cp_trace, &cp_out, &cp_own};
    const ls_opt_t opts[] = {
        {"--seed", LS_OPT_SEED, &o.c.seed, 0, 0, NULL, NULL},
        {"--programs", LS_OPT_U32, &o.programs, 0, UINT32_MAX, NULL, NULL},
        {"--len", LS_OPT_U32, &o.max_static, 0, UINT32_MAX, NULL, NULL},
        {"--depth", LS_OPT_U32, &o.depth, 0, UINT32_MAX, NULL, NULL},
        {"--program", LS_OPT_STR, &o.program, 0, 0, NULL, NULL},
        {"--warps", LS_OPT_U32, &o.warps, 0, UINT32_MAX, NULL, NULL},
        {"--shader", LS_OPT_STR, &one_shader, 0, 0, NULL, NULL},
        {"--readback-every", LS_OPT_FN, NULL, 0, 0, opt_readback, NULL},
        {"--out-dir", LS_OPT_STR, &o.c.out_dir, 0, 0, NULL, NULL},
        {"--window", LS_OPT_U32, &o.c.window, 0, UINT32_MAX, NULL, NULL},
        {"--waves", LS_OPT_STR, &o.c.waves, 0, 0, NULL, NULL},
        {"--gtkw", LS_OPT_STR, &o.c.gtkw, 0, 0, NULL, NULL},
        {"--cp-trace", LS_OPT_STR, &cp_trace, 0, 0, NULL, NULL},
        {"--trace-programs", LS_OPT_STR, &o.trace_progs, 0, 0, NULL, NULL},
        {"--only", LS_OPT_STR, &o.only, 0, 0, NULL, NULL},
        {"--frame", LS_OPT_U32, &cp_frame, 0, UINT32_MAX, NULL, NULL},
        {"--gpus", LS_OPT_U32, &cp_gpus, 0, UINT32_MAX, NULL, NULL},
        {"--own", LS_OPT_FN, NULL, 0, 0, opt_own, NULL},
        {"--max-prims", LS_OPT_U32, &cp_max, 0, UINT32_MAX, NULL, NULL},
        {"-o", LS_OPT_STR, &cp_out, 0, 0, NULL, NULL},
        {"--inject-fault", LS_OPT_U64X, &o.inject_cycle, 0, UINT64_MAX, NULL, &o.inject},
        {"--fuzz-words", LS_OPT_U32, &o.fuzz_words, 0, UINT32_MAX, NULL, NULL},
        {"--abort-every", LS_OPT_U32, &o.abort_every, 0, UINT32_MAX, NULL, NULL},
        {"--expect", LS_OPT_FN, NULL, 0, 0, opt_expect, NULL},
        {"--no-fp", LS_OPT_FLAG, &o.no_fp, 0, 0, NULL, NULL},
        {"--shaders", LS_OPT_FLAG, &o.shaders, 0, 0, NULL, NULL},
        {"--quiet", LS_OPT_FLAG, &o.c.quiet, 0, 0, NULL, NULL},
        {"--replay-fst", LS_OPT_FLAG, &o.replay_fst, 0, 0, NULL, NULL},
    };
    int prc = ls_parse(TOOL, argc, argv, opts, sizeof opts / sizeof opts[0], &x, usage);
    if (prc)
        return prc == 1 ? 0 : 2;
    if ((o.c.waves || o.replay_fst) && !simt_dut_has_fst()) {
        /* waveforms come from the FST build of the same configuration (cosim-simt-fst next to this binary) */
        char fst_bin[1024];
        snprintf(fst_bin, sizeof fst_bin, "%s-fst", argv[0]);
        if (access(fst_bin, X_OK) != 0) {
            fprintf(stderr, "cosim-simt: --waves needs the FST build %s (`make cosim-simt-fst` builds it)\n", fst_bin);
            return 2;
        }
        fflush(stdout);
        argv[0] = fst_bin;
        execv(fst_bin, argv);
        perror(fst_bin);
        return 2;
    }
    o.sz = simt_dut_sizes();
    o.reduced = o.sz.rf_words < 64 || o.sz.mem_words < 64 || o.sz.const_words < ISA_CONST_WORDS ||
                o.sz.imem_depth < ISA_MAX_CODE || o.sz.stack_depth < ISA_STACK_DEPTH || !o.sz.has_sfu;
    o.n_upload = o.sz.rf_words > o.sz.mem_words ? o.sz.rf_words : o.sz.mem_words;
    if (o.reduced && (o.fuzz_words || o.trace_progs || cp_trace)) {
        fprintf(stderr, "cosim-simt: this build is a reduced configuration (RF_WORDS %u MEM_WORDS %u CONST_WORDS %u "
                        "IMEM_DEPTH %u STACK_DEPTH %u HAS_SFU %u): random-word programs, trace programs and the CP "
                        "phase need the ISA's sizes\n", o.sz.rf_words, o.sz.mem_words, o.sz.const_words,
                o.sz.imem_depth, o.sz.stack_depth, o.sz.has_sfu);
        return 2;
    }
    ctx_t c;
    if (ctx_init(&c, &o, simt_dut_params())) {
        fprintf(stderr, "cosim-simt: out of memory\n");
        return 2;
    }
    if (!o.warps)
        o.warps = c.prm.warps;
    if (!o.c.quiet && !o.replay_fst)
        printf("cosim-simt: LANES=%u WARPS=%u FPU_LAT=%u SFU_LAT=%u TEX_LAT=%u seed=0x%" PRIx64 "%s\n", c.prm.lanes,
               c.prm.warps, c.prm.fpu_lat, c.prm.sfu_lat, c.prm.tex_lat, o.c.seed, o.no_fp ? " (no FP/SFU opcodes)" : "");
    if (!o.replay_fst && (o.reduced || o.sz.fpu_area || c.prm.imul_passes > 1 || c.prm.fpu_passes > 1))
        printf("cosim-simt: reduced configuration RF_WORDS=%u MEM_WORDS=%u CONST_WORDS=%u IMEM_DEPTH=%u STACK_DEPTH=%u "
               "HAS_SFU=%u FPU_AREA=%u IMUL_PASSES=%u FPU_PASSES=%u: programs constrained to these sizes\n",
               o.sz.rf_words, o.sz.mem_words, o.sz.const_words, o.sz.imem_depth, o.sz.stack_depth, o.sz.has_sfu,
               o.sz.fpu_area, c.prm.imul_passes ? c.prm.imul_passes : 1u, c.prm.fpu_passes ? c.prm.fpu_passes : 1u);

    /* job list: file program, shaders, random programs */
    enum { MAXJ = 1024 };
    static plan_t plan[MAXJ];
    tprog_t *tprogs = NULL;
    int n_tprogs = 0;
    if (o.trace_progs) {
        char list[4096];
        snprintf(list, sizeof list, "%s", o.trace_progs);
        for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ","))
            if (load_trace_programs(tok, &tprogs, &n_tprogs))
                return 2;
    }
    int np = 0;
    char *file_text = NULL;
    tprog_t bin_prog;   /* --program FILE.bin: instruction words as they are (fields the assembler never sets) */
    memset(&bin_prog, 0, sizeof bin_prog);
    if (o.program) {
        size_t pl = strlen(o.program);
        int is_bin = pl > 4 && !strcmp(o.program + pl - 4, ".bin");
        file_text = read_file(o.program);
        if (!file_text) {
            fprintf(stderr, "cosim-simt: cannot read %s\n", o.program);
            return 2;
        }
        if (is_bin) {
            struct stat bst;
            if (stat(o.program, &bst) != 0 || bst.st_size % 8 || bst.st_size == 0 || bst.st_size / 8 > ISA_MAX_CODE) {
                fprintf(stderr, "cosim-simt: %s: not a program of 1..%d 64-bit words\n", o.program, ISA_MAX_CODE);
                return 2;
            }
            bin_prog.n = (uint32_t)(bst.st_size / 8);
            bin_prog.words = calloc(bin_prog.n, sizeof *bin_prog.words);
            if (!bin_prog.words) { fprintf(stderr, "cosim-simt: out of memory\n"); return 2; }
            for (uint32_t i = 0; i < bin_prog.n; i++)
                for (int b = 0; b < 8; b++)
                    bin_prog.words[i] |= (uint64_t)(unsigned char)file_text[8 * i + (uint32_t)b] << (8 * b);
            snprintf(bin_prog.name, sizeof bin_prog.name, "%s", o.program);
        }
        for (uint32_t w0 = 0; w0 < o.warps && np < MAXJ; w0 += c.prm.warps) {
            uint32_t nw = o.warps - w0 < c.prm.warps ? o.warps - w0 : c.prm.warps;
            plan[np].kind = JOB_FILE; plan[np].name = o.program; plan[np].text = file_text;
            plan[np].tp = is_bin ? &bin_prog : NULL;
            plan[np].seed = o.c.seed + w0; plan[np].nw = nw; plan[np].wid0 = w0; np++;
        }
    }
    for (int s = 0; s < isa_shader_count() && np < MAXJ; s++) {
        const char *nm = isa_shader_name(s);
        if (!(o.shaders || (one_shader && !strcmp(one_shader, nm))))
            continue;
        if (o.reduced && o.shaders) {   /* --shaders on a reduced configuration: the library programs that fit */
            static uint64_t code[ISA_MAX_CODE];
            isa_asm_err_t aerr;
            int n = isa_assemble(isa_shader_source(nm), code, ISA_MAX_CODE, &aerr);
            char why[160] = "does not assemble";
            if (n < 0 || !fits_reduced(&o, code, (uint32_t)n, why, sizeof why)) {
                if (!o.replay_fst)
                    printf("cosim-simt: shader %s skipped: does not fit the reduced configuration (%s)\n", nm, why);
                continue;
            }
        }
        plan[np].kind = JOB_SHADER; plan[np].name = nm; plan[np].text = (char *)isa_shader_source(nm);
        plan[np].seed = o.c.seed + (uint64_t)s; plan[np].nw = c.prm.warps; plan[np].wid0 = 0; np++;
    }
    for (int k = 0; k < n_tprogs && np < MAXJ; k++) {
        if (o.only && strcmp(o.only, tprogs[k].name))
            continue;
        plan[np].kind = JOB_TRACEPROG; plan[np].name = tprogs[k].name; plan[np].text = NULL; plan[np].tp = &tprogs[k];
        plan[np].seed = o.c.seed + (uint64_t)k; plan[np].nw = c.prm.warps; plan[np].wid0 = 0; np++;
    }
    if (one_shader && np == 0) {
        fprintf(stderr, "cosim-simt: unknown shader %s\n", one_shader);
        return 2;
    }

    simt_dut_t *dut = simt_dut_new(o.c.waves);
    simt_hw_t *hw = calloc(1, sizeof *hw);
    if (!hw || simt_hw_init(hw, c.prm) != 0) {
        fprintf(stderr, "cosim-simt: cannot initialise the cycle model\n");
        return 2;
    }
    stats_t st;
    memset(&st, 0, sizeof st);
    double t0 = ls_wall_s(), c0 = ls_cpu_s();
    int rc = 0;
    job_t j;
    fail_t fl;
    if (cp_trace) {
        rc = run_cp(&c, dut, hw, &st, cp_trace, cp_frame, cp_gpus, cp_own, cp_max, cp_out);
        o.programs = 0;
        np = 0;
    }
    jobs_t js = {plan, (uint64_t)np, &o, c.prm};
    uint64_t total = (uint64_t)np + o.programs + o.fuzz_words, aborts = 0;
    for (uint64_t k = 0; k < total && !rc; k++) {
        int part = 1;
        int r = run_planned(&c, &js, k, dut, hw, &st, &fl, o.c.waves ? 0 : UINT64_MAX, o.c.waves ? 2 : -1, o.replay_fst, UINT64_MAX,
                            &part, &j, &aborts);
        if (r == 2) {
            job_free(&j);
            rc = 2;
            break;
        }
        if (r) {
            rc = 1;
            /* replay the failing job with a waveform window */
            simt_dut_free(dut);
            dut = NULL;
            if (!simt_dut_has_fst()) {
                /* this (fast) build has no tracing: the FST build re-runs the failing job alone and writes the window */
                char fst_bin[1024], cmd[3000];
                snprintf(fst_bin, sizeof fst_bin, "%s-fst", argv[0]);
                repro_cmd(&o, &j, fst_bin, cmd, sizeof cmd - 1200);
                size_t m = strlen(cmd);
                snprintf(cmd + m, sizeof cmd - m, " --out-dir '%s' --window %u --gtkw '%s' --replay-fst", o.c.out_dir,
                         o.c.window, o.c.gtkw);
                fflush(stdout);
                fflush(stderr);
                if (access(fst_bin, X_OK) == 0) {
                    if (system(cmd) == -1)
                        fprintf(stderr, "  waveform: could not run %s\n", fst_bin);
                } else {
                    fprintf(stderr, "  waveform: this binary has no FST tracing; `make cosim-simt-fst` builds %s, then run\n"
                                    "            %s\n", fst_bin, cmd);
                }
            } else if (!o.c.waves) {
                char tag[64];
                snprintf(tag, sizeof tag, "seed%" PRIx64, j.seed);
                replay_t rp = {&c, &js, k, part};
                ls_fail_window(TOOL, &o.c, fl.cycle, tag, part == 0 ? " of the run cut short by the reset in the middle" : "",
                               sc_replay, &rp, NULL, NULL);
            }
        } else if (j.kind == JOB_FILE && o.expect >= 0 && (o.expect ? j.n_done != 0 : j.n_err != 0)) {
            fprintf(stderr, "cosim-simt: FAIL: %s: RTL and interpreter agree, but %u warps finished and %u stopped with an "
                    "error%s%s%s; the program is meant to %s (--expect %s)\n", j.name, j.n_done, j.n_err, j.n_err ? " (" : "",
                    j.err_kind, j.n_err ? ")" : "", o.expect ? "stop every warp with an error" : "finish on every warp",
                    o.expect ? "error" : "done");
            rc = 1;
        } else if (!o.c.quiet && ((j.kind != JOB_RANDOM && j.kind != JOB_WORDS) || (k - (uint64_t)np) % 100 == 99)) {
            printf("cosim-simt: %-28s ok: %u warps finished, %u stopped with an error%s%s%s (%" PRIu64 " jobs, %" PRIu64
                   " instructions so far)\n", j.name, j.n_done, j.n_err, j.n_err ? " (" : "", j.err_kind, j.n_err ? ")" : "",
                   st.jobs, st.instrs);
        }
        job_free(&j);
    }
    if (aborts)
        printf("cosim-simt: %" PRIu64 " jobs were reset in the middle of execution and then re-run\n", aborts);
    if (dut)
        simt_dut_free(dut);
    simt_hw_free(hw);
    free(hw);
    free(file_text);
    free(bin_prog.words);
    for (int k = 0; k < n_tprogs; k++)
        free(tprogs[k].words);
    free(tprogs);
    double sec = ls_wall_s() - t0, cpu = ls_cpu_s() - c0;
    ls_free(&c.ls);
    if (o.replay_fst) {
        if (rc == 0)
            fprintf(stderr, "cosim-simt: --replay-fst: the failure did not reproduce in the FST build\n");
        return rc ? rc : 1;
    }
    if (o.c.waves)
        ls_waves_view(TOOL, &o.c, 0, NULL, NULL, 0);   /* no parameter-dependent widths */
    printf("cosim-simt: %" PRIu64 " jobs, %" PRIu64 " cycles, %" PRIu64 " warp instructions (%" PRIu64
           " thread instructions), %" PRIu64 " values and %" PRIu64 " read-back words checked, %.2f s: %.0f cycles/s, %.0f warp instructions/s"
           " (CPU time %.2f s: %.0f cycles/s, %.0f warp instructions/s)\n",
           st.jobs, st.cycles, st.instrs, st.thread_instrs, st.values, st.readback_words, sec,
           sec > 0 ? (double)st.cycles / sec : 0.0, sec > 0 ? (double)st.instrs / sec : 0.0, cpu,
           cpu > 0 ? (double)st.cycles / cpu : 0.0, cpu > 0 ? (double)st.instrs / cpu : 0.0);
    if (rc == 0 && ls_require(TOOL, st.instrs, "retired instructions compared"))
        return 1;
    if (rc == 0)
        printf("PASS\n");
    return rc;
}

