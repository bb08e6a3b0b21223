/* The SIMT core's lockstep co-simulation (sim/simt): what its files share. The harness runs on the lockstep
 * driver (sim/common/lockstep.h) and is split by concern:
 *   cosim_simt.c        command line, the job list, the failure window, the summary (main)
 *   simt_progs.c        programs and their inputs: random (isa_gen), random-word, assembly, trace words
 *   simt_traceprogs.c   the programs stored in traces (PROG commands)
 *   simt_host.c         the host side of the core's ports: upload, launch, output read-back, texture answers
 *   simt_check.c        the checks against the ISA interpreter: retired instructions, read-back, final status
 *   simt_lockstep.c     one job in lockstep (the driver's unit: ports, fields, history, report)
 *   simt_jobs.c         the job scheduler: job k of the list, resets in the middle, reduced configurations
 *   simt_cp.c           the CP phase of one GPU on the RTL (a trace's vertex shading vs the golden model)
 * docs/simt.md. */
#ifndef GPUPD_SIM_SIMT_COSIM_H
#define GPUPD_SIM_SIMT_COSIM_H

#include <stdint.h>
#include <stdio.h>

#include "isa/isa.h"
#include "p2g/p2g.h"
#include "simt/simt_hw.h"
#include "simt_dut.h"
#include "../common/lockstep.h"

#define HIST 24
#define TEXQ 64
#define TOOL "cosim-simt"

typedef struct {
    ls_common_t c;              /* seed, out_dir, window, waves, gtkw, quiet */
    uint32_t programs;          /* random programs */
    int no_fp;                  /* replace FP/SFU opcodes by integer ones (bring-up without simt_fpu) */
    int shaders;                /* run every library shader */
    const char *program;        /* one assembly file */
    uint32_t warps;             /* warps to launch for --program/--shaders (default: every slot) */
    int readback_every;         /* read the output memory back after every N-th random program */
    uint64_t inject_cycle;
    int inject;
    const char *argv0;
    uint32_t max_static, depth;  /* generator (0: vary with the seed) */
    const char *trace_progs;     /* run every program stored in these traces (comma-separated) */
    const char *only;            /* only the trace program of this name */
    uint32_t fuzz_words;         /* random-word programs (every field random, forward branches) */
    uint32_t abort_every;        /* 1 in N random/word jobs is first cut by a reset in the middle, then re-run */
    int expect;                  /* --program: -1 any, 0 every warp must finish, 1 every warp must stop with an error */
    int replay_fst;              /* this run replays a failure for its waveform: no report, only the FST window */
    simt_dut_sizes_t sz;         /* the build's reduced-configuration parameters (docs/simt.md section 6) */
    int reduced;                 /* any size below the ISA's: programs must stay inside them */
    uint32_t n_upload;           /* attribute words uploaded per row: max(RF_WORDS, MEM_WORDS) (64 by default) */
} opts_t;

typedef enum { JOB_RANDOM, JOB_SHADER, JOB_FILE, JOB_TRACEPROG, JOB_WORDS } job_kind_t;

typedef struct {
    job_kind_t kind;
    char name[96];
    uint64_t seed;
    uint32_t len;
    uint64_t *code;
    isa_ctx_t *ctx;
    uint32_t nw;                         /* warps launched */
    isa_warp_t *iw[SIMT_HW_MAX_WARPS];
    int readback;
    uint32_t rb_words;                   /* output words read back per thread (default 64) */
    uint32_t (*rtl_out)[64][32];         /* [warp][word][thread]: what the RTL's output port returned */
    uint32_t abort_run;                  /* > 0: reset the core after this many cycles of execution */
    uint32_t reset_after;                /* > 0: this run follows a reset in the middle of the same job */
    uint32_t n_done, n_err;              /* final warp status (RTL = interpreter): finished / stopped with an error */
    char err_kind[48];                   /* the interpreter's error of the last warp that stopped with one */
} job_t;

/* one line of the transaction history, kept raw and formatted only for a report (formatting every issue and
 * retire cost ~5 % of the run time) */
typedef enum { HIST_RETIRE, HIST_ISSUE, HIST_IDLE, HIST_RESET } hist_kind_t;
typedef struct {
    uint64_t cycle;
    hist_kind_t kind;
    uint32_t warp, pc, active, wmask;
    uint64_t insn;   /* instruction word (RETIRE, ISSUE); cycles of execution (IDLE) */
} hist_t;

typedef struct {
    uint64_t cycles, port_checks, instrs, thread_instrs, beats, values, readback_words, jobs;
    int failed;
    uint64_t fail_cycle;
} stats_t;

typedef struct {
    const opts_t *o;
    simt_hw_params_t prm;
    simt_hw_derived_t g;
    ls_t ls;                    /* the driver: history across jobs, report, comparisons */
    ls_common_t job_opt;        /* the driver's options for the job being run (its seed) */
    /* retire assembly */
    int cur_v;
    uint32_t cur_warp, cur_pc, cur_active, cur_wmask, cur_kind, cur_dst;
    uint32_t cur_val[4][32], cur_addr[32], cur_seen[4];
    /* texture responses due: ring indexed by cycle */
    uint32_t texq[TEXQ][SIMT_HW_MAX_LANES];
    int texq_v[TEXQ];
} ctx_t;

typedef struct {
    char name[96];
    uint64_t *words;
    uint32_t n;
} tprog_t;

typedef struct {
    int failed;
    uint64_t cycle;
    char what[1200];
} fail_t;

/* ------------------------------------------------------------------ one job in lockstep */
typedef struct {
    int phase;   /* 0 imem, 1 const, 2 attr, 3 launch, 4 run, 5 readback, 6 done */
    uint32_t i, w, row, word;
    uint64_t run_start;
} host_t;

typedef struct {
    job_kind_t kind;
    const char *name;
    char *text;
    uint64_t seed;
    uint32_t nw, wid0;
    const tprog_t *tp;
} plan_t;

typedef struct {
    const plan_t *plan;
    uint64_t np;          /* planned (file, shader, trace-program) jobs, then random, then random-word jobs */
    const opts_t *o;
    simt_hw_params_t prm;
} jobs_t;

/* simt_progs.c */
void job_free(job_t *j);
int job_alloc(job_t *j, uint32_t nw);
int job_load(job_t *j, int no_fp);
int job_random(job_t *j, const opts_t *o, simt_hw_params_t prm, uint64_t seed);
int job_fuzz_words(job_t *j, const opts_t *o, simt_hw_params_t prm, uint64_t seed);
int job_asm(job_t *j, const char *name, const char *text, uint64_t seed, uint32_t nw, uint32_t wid0, job_kind_t kind,
            int no_fp);
int job_words(job_t *j, const char *name, const uint64_t *words, uint32_t n, uint64_t seed, uint32_t nw, uint32_t wid0,
              job_kind_t kind, int no_fp);
/* simt_traceprogs.c */
int load_trace_programs(const char *path, tprog_t **out, int *n_out);
/* simt_host.c */
void host_inputs(const ctx_t *c, const job_t *j, host_t *h, simt_hw_in_t *in);
void host_advance(const ctx_t *c, const job_t *j, host_t *h, const simt_hw_out_t *out, uint64_t cycle);
void tex_respond(ctx_t *c, uint64_t cycle, simt_hw_in_t *in);
void tex_request(ctx_t *c, const job_t *j, const simt_hw_out_t *od, uint64_t cycle);
/* simt_check.c */
int check_retire(ctx_t *c, job_t *j, const simt_hw_out_t *o, uint64_t cycle, stats_t *st, fail_t *fl);
int check_readback(ctx_t *c, job_t *j, const simt_hw_out_t *od, uint32_t w, uint32_t row, uint32_t word, uint64_t cycle,
                   stats_t *st, fail_t *fl);
int check_final(job_t *j, const simt_hw_out_t *od, uint64_t cycle, fail_t *fl);
/* simt_lockstep.c */
void hist_add(ctx_t *c, uint64_t cycle, hist_kind_t kind, uint32_t warp, uint32_t pc, uint32_t active, uint32_t wmask,
              uint64_t insn);
void repro_cmd(const opts_t *o, const job_t *j, const char *bin, char *cmd, size_t cap);
int ctx_init(ctx_t *c, const opts_t *o, simt_hw_params_t prm);
int run_job(ctx_t *c, job_t *j, simt_dut_t *dut, simt_hw_t *hw, stats_t *st, fail_t *fl, uint64_t dump_from,
            int silent, uint64_t stop_at);
/* simt_jobs.c */
int fits_reduced(const opts_t *o, const uint64_t *code, uint32_t len, char *why, size_t cap);
int run_planned(ctx_t *c, const jobs_t *js, uint64_t k, simt_dut_t *dut, simt_hw_t *hw, stats_t *st, fail_t *fl,
                uint64_t dump_from, int dump_part, int silent, uint64_t stop_at, int *part, job_t *jout,
                uint64_t *aborts);
/* simt_cp.c */
int run_cp(ctx_t *c, simt_dut_t *dut, simt_hw_t *hw, stats_t *st, const char *trace, uint32_t frame, uint32_t gpus,
           p2g_mode_t own, uint32_t max_prims, const char *stream);

#endif
