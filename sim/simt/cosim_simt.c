/* Lockstep co-simulation of the SIMT core: the verilated RTL (simt_dut.h) against the C cycle model
 * (cmodel/simt/simt_hw.h), every output port every cycle, and every retired instruction against the ISA
 * interpreter (isa_step retire records: pc, active mask, written lanes, destination, every value, store
 * addresses). Each job is one program on up to WARPS warp slots: upload (instructions, constants,
 * attribute rows, launch) through the host ports, run until idle, check the warps' final status and read
 * the output memory back. Jobs: random programs (isa_gen, one seed each), the shader library, one
 * assembly file (--program, the stable `make cosim-simt PROGRAM=...` interface), the programs a trace runs.
 * On the first mismatch: a report (cycle, seed, fields DUT vs model, last transactions, reproduce command),
 * then the failing job is re-run with an FST window and a .gtkw view; exit status 1. docs/simt.md. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/rng.h"
#include "gpu/gpu.h"
#include "gpu/isa_backend.h"
#include "isa/isa.h"
#include "isa/isa_gen.h"
#include "p2g/p2g.h"
#include "simt/simt_hw.h"
#include "simt_dut.h"
#include "simt_sampler.h"
#include "sys/sys.h"
#include "sys/trace_scene.h"
#include "trace/trace.h"
#include "../common/gtkw_view.h"

#define HIST 24
#define TEXQ 64

typedef struct {
    uint64_t seed;
    uint32_t programs;          /* random programs */
    int no_fp;                  /* replace FP/SFU opcodes by integer ones (bring-up without simt_fpu) */
    int shaders;                /* run every library shader */
    const char *program;        /* one assembly file */
    uint32_t warps;             /* warps to launch for --program/--shaders (default: every slot) */
    int readback_every;         /* read the output memory back after every N-th random program */
    uint64_t inject_cycle;
    int inject;
    const char *out_dir;
    uint32_t window;
    const char *waves;
    const char *gtkw_template;
    int quiet;
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
    hist_t hist[HIST];
    uint64_t n_hist;
    /* retire assembly */
    int cur_v;
    uint32_t cur_warp, cur_pc, cur_active, cur_wmask, cur_kind, cur_dst;
    uint32_t cur_val[4][32], cur_addr[32], cur_seen[4];
    /* texture responses due: ring indexed by cycle */
    uint32_t texq[TEXQ][SIMT_HW_MAX_LANES];
    int texq_v[TEXQ];
} ctx_t;

/* texture sampler (deterministic): mix64() and sampler() of sim/simt/simt_sampler.h */

/* ------------------------------------------------------------------ history */
static void hist_add(ctx_t *c, uint64_t cycle, hist_kind_t kind, uint32_t warp, uint32_t pc, uint32_t active,
                     uint32_t wmask, uint64_t insn)
{
    hist_t *h = &c->hist[c->n_hist++ % HIST];
    h->cycle = cycle;
    h->kind = kind;
    h->warp = warp;
    h->pc = pc;
    h->active = active;
    h->wmask = wmask;
    h->insn = insn;
}

static void hist_print(const hist_t *h)
{
    char dis[96];
    dis[0] = 0;
    if (h->kind == HIST_RETIRE || h->kind == HIST_ISSUE)
        isa_disasm_insn(h->insn, dis, sizeof dis);
    if (h->kind == HIST_RETIRE)
        fprintf(stderr, "    cycle %-8" PRIu64 " RETIRE warp %u pc %-4u active=%08x wmask=%08x %s\n", h->cycle, h->warp,
                h->pc, h->active, h->wmask, dis);
    else if (h->kind == HIST_ISSUE)
        fprintf(stderr, "    cycle %-8" PRIu64 " ISSUE  warp %u pc %-4u %s\n", h->cycle, h->warp, h->pc, dis);
    else if (h->kind == HIST_IDLE)
        fprintf(stderr, "    cycle %-8" PRIu64 " IDLE   job done (%" PRIu64 " cycles of execution)\n", h->cycle, h->insn);
    else
        fprintf(stderr, "    cycle %-8" PRIu64 " RESET  in the middle (after %" PRIu64 " cycles of execution); the job runs again\n",
                h->cycle, h->insn);
}

/* ------------------------------------------------------------------ jobs */
static void job_free(job_t *j)
{
    free(j->rtl_out);
    free(j->code);
    if (j->ctx)
        isa_ctx_free(j->ctx);
    for (uint32_t w = 0; w < SIMT_HW_MAX_WARPS; w++)
        if (j->iw[w])
            isa_warp_free(j->iw[w]);
    memset(j, 0, sizeof *j);
}

static int job_alloc(job_t *j, uint32_t nw)
{
    j->code = calloc(ISA_MAX_CODE, sizeof(uint64_t));
    j->ctx = isa_ctx_new();
    j->nw = nw;
    j->rb_words = 64;
    j->rtl_out = calloc(nw ? nw : 1, sizeof *j->rtl_out);
    if (!j->code || !j->ctx || !j->rtl_out)
        return -1;
    for (uint32_t w = 0; w < nw; w++)
        if (!(j->iw[w] = isa_warp_new()))
            return -1;
    return 0;
}

/* no-FP bring-up mode: FP/SFU opcodes become integer ones with the same operand fields */
static void strip_fp(uint64_t *code, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t op = (uint32_t)ISA_GET(code[i], OP), nop = op;
        switch (op) {
        case ISA_OP_FADD: case ISA_OP_FMUL: case ISA_OP_FMIN: case ISA_OP_FMAX: nop = ISA_OP_XOR; break;
        case ISA_OP_FMAD: nop = ISA_OP_IADD; break;
        case ISA_OP_FSETP: nop = ISA_OP_ISETP; break;
        case ISA_OP_FRND: case ISA_OP_F2I: case ISA_OP_F2U: case ISA_OP_I2F: case ISA_OP_U2F: nop = ISA_OP_AND; break;
        case ISA_OP_RCP: case ISA_OP_RSQ: case ISA_OP_EX2: case ISA_OP_LG2: case ISA_OP_SIN: case ISA_OP_COS:
            nop = ISA_OP_OR; break;
        default: break;
        }
        if (nop != op)
            code[i] = (code[i] & ~(0x7full << ISA_F_OP_LO)) | ((uint64_t)nop << ISA_F_OP_LO);
    }
}

static int job_load(job_t *j, int no_fp)
{
    uint32_t bad = 0;
    if (no_fp)
        strip_fp(j->code, j->len);
    if (isa_ctx_load(j->ctx, j->code, j->len, &bad) != ISA_OK) {
        fprintf(stderr, "cosim-simt: %s: program does not load (pc %u)\n", j->name, bad);
        return -1;
    }
    j->ctx->tex = sampler;
    j->ctx->tex_user = NULL;
    return 0;
}

static int job_random_d(job_t *j, const opts_t *o, simt_hw_params_t prm, uint64_t seed, uint32_t dcap);

/* deepest reconvergence stack the interpreter reaches on the job's warps (run on copies; the job is untouched) */
static uint32_t job_max_sp(const job_t *j)
{
    uint32_t m = 0;
    isa_warp_t *w = isa_warp_new();
    if (!w)
        return UINT32_MAX;
    for (uint32_t k = 0; k < j->nw; k++) {
        memcpy(w, j->iw[k], sizeof *w);
        isa_run(j->ctx, w, 1000000);
        if (w->max_sp > m)
            m = w->max_sp;
    }
    isa_warp_free(w);
    return m;
}

static int job_random(job_t *j, const opts_t *o, simt_hw_params_t prm, uint64_t seed)
{
    int r = job_random_d(j, o, prm, seed, 0);
    /* a reduced core has STACK_DEPTH stack entries; nesting depth alone does not bound the stack (every divergent
     * loop break leaves an entry until the loop ends), so: regenerate (deterministically: attempt k uses generator
     * seed + k * 2^40, nesting at most 3, then 2, then 1) until the interpreter's deepest stack fits */
    for (uint32_t k = 1; r == 0 && o->reduced && job_max_sp(j) > o->sz.stack_depth; k++) {
        job_free(j);
        if (k > 64) {
            fprintf(stderr, "cosim-simt: seed 0x%" PRIx64 ": no program within STACK_DEPTH %u after 64 attempts\n", seed,
                    o->sz.stack_depth);
            return -1;
        }
        r = job_random_d(j, o, prm, seed, k);
    }
    return r;
}

static int job_random_d(job_t *j, const opts_t *o, simt_hw_params_t prm, uint64_t seed, uint32_t attempt)
{
    uint32_t dcap = attempt ? (attempt < 3 ? 4 - attempt : 1) : 0;
    memset(j, 0, sizeof *j);
    j->kind = JOB_RANDOM;
    j->seed = seed;
    snprintf(j->name, sizeof j->name, "random seed 0x%" PRIx64, seed);
    if (job_alloc(j, prm.warps))
        return -1;
    isa_gen_params_t gp = isa_gen_params_default();
    gp.max_static = o->max_static ? o->max_static : 60 + (uint32_t)(mix64(seed) % 400);
    gp.max_depth = o->depth ? o->depth : 1 + (uint32_t)(mix64(seed + 1) % 5);
    if (o->reduced) {   /* the reduced configuration: registers, words, constants, no SFU, length, nesting */
        gp.regs = o->sz.rf_words;
        gp.mem_words = o->sz.mem_words;
        gp.const_words = o->sz.const_words;
        gp.no_sfu = !o->sz.has_sfu;
        uint32_t cap = o->sz.imem_depth > 40 ? o->sz.imem_depth - 24 : 16;
        if (gp.max_static > cap)
            gp.max_static = o->max_static && o->max_static < cap ? o->max_static : 16 + (uint32_t)(mix64(seed) % (cap - 15));
        /* nesting: one loop counter register per level (<= 4 with 16 registers); 1..3 keeps the stack within 8 */
        uint32_t dmax = o->sz.stack_depth >= 16 ? 4 : 3;
        if (!o->depth || gp.max_depth > dmax)
            gp.max_depth = 1 + (uint32_t)(mix64(seed + 1) % dmax);
        if (dcap && gp.max_depth > dcap)
            gp.max_depth = dcap;
    }
    /* the other generator knobs vary with the seed too: loop trip counts 1..9 (1: loops that never repeat,
     * large: deeper per-lane divergence of the loop exit), early exits from none to frequent */
    gp.max_trip = 1 + (uint32_t)(mix64(seed + 2) % 9);
    gp.p_exit_pct = (uint32_t)(mix64(seed + 3) % 4) == 0 ? (uint32_t)(mix64(seed + 4) % 16) : 2;
    isa_gen_prog_t prog;
    if (isa_gen_program(&gp, seed + ((uint64_t)attempt << 40), &prog) != 0) {
        fprintf(stderr, "cosim-simt: generator failed for seed 0x%" PRIx64 "\n", seed);
        isa_gen_free(&prog);
        return -1;
    }
    memcpy(j->code, prog.code, prog.len * sizeof(uint64_t));
    j->len = prog.len;
    isa_gen_free(&prog);
    for (uint32_t w = 0; w < j->nw; w++) {
        isa_gen_init_warp(&gp, seed * 64u + w + 1u, j->ctx, j->iw[w]);
        /* 1 in 4 programs: warp ids over the whole 32-bit range (%warp, %tid, the texture sampler's warp) */
        if (mix64(seed + 5) % 4 == 0)
            j->iw[w]->warp_id = (uint32_t)mix64(seed * 64u + w + 9u);
    }
    j->readback = o->readback_every > 0 && (seed % (uint64_t)o->readback_every) == 0;
    return job_load(j, o->no_fp);
}

/* Random-word program: every instruction a defined opcode with every other field random (guards, modifier
 * bits on every format, immediates, junk in unused fields, special register numbers >= 5, tex registers
 * wrapping past r63, stores/loads anywhere), after a prologue that loads r0..r47 from attributes and constants.
 * Branches jump forward only (target and reconvergence pc after the branch) and the last word is an
 * unguarded exit, so every program terminates; 1 in 16 programs has one branch whose target or reconvergence pc
 * is far past the end (ISA_ERR_PC when a lane gets there, the upper pc bits). Texture-heavy programs (bursts
 * of tex) 1 in 4; 1 in 24 is 2048..4096 words long (half of them 4096, the maximum). %vertex/%prim and the
 * warp ids over all 32 bits for half of the warps. */
static const uint8_t word_ops[] = {
    ISA_OP_NOP, ISA_OP_EXIT, ISA_OP_BRA, ISA_OP_MOV, ISA_OP_S2R, ISA_OP_SEL, ISA_OP_PAND, ISA_OP_POR, ISA_OP_PXOR,
    ISA_OP_FADD, ISA_OP_FMUL, ISA_OP_FMAD, ISA_OP_FMIN, ISA_OP_FMAX, ISA_OP_FSETP, ISA_OP_FRND, ISA_OP_IADD,
    ISA_OP_ISUB, ISA_OP_IMUL, ISA_OP_AND, ISA_OP_OR, ISA_OP_XOR, ISA_OP_SHL, ISA_OP_SHR, ISA_OP_SRA, ISA_OP_IMIN,
    ISA_OP_IMAX, ISA_OP_ISETP, ISA_OP_USETP, ISA_OP_F2I, ISA_OP_F2U, ISA_OP_I2F, ISA_OP_U2F, ISA_OP_RCP, ISA_OP_RSQ,
    ISA_OP_EX2, ISA_OP_LG2, ISA_OP_SIN, ISA_OP_COS, ISA_OP_LD_A, ISA_OP_LD_C, ISA_OP_LD_L, ISA_OP_ST_L, ISA_OP_ST_O,
    ISA_OP_TEX};

static int job_fuzz_words(job_t *j, const opts_t *o, simt_hw_params_t prm, uint64_t seed)
{
    memset(j, 0, sizeof *j);
    j->kind = JOB_WORDS;
    j->seed = seed;
    snprintf(j->name, sizeof j->name, "words seed 0x%" PRIx64, seed);
    if (job_alloc(j, prm.warps))
        return -1;
    rng_t r;
    rng_seed(&r, mix64(seed ^ 0x776f726473ull));
    uint32_t n = 0, body = 16 + rng_below(&r, 240), texp = rng_chance(&r, 1, 4) ? 40 : 4;
    if (rng_chance(&r, 1, 24))   /* long programs: 2048..4096 words (half of them the maximum, 4096) */
        body = (rng_chance(&r, 1, 2) ? ISA_MAX_CODE : 2048 + rng_below(&r, ISA_MAX_CODE - 2048)) - 49;
    uint32_t brap = 1 + rng_below(&r, 8), far = rng_chance(&r, 1, 16) ? 1 + rng_below(&r, body) : 0;
    for (uint32_t i = 0; i < 48; i++)   /* r0..r31 attributes, r32..r47 constants */
        j->code[n++] = ISA_PUT(i < 32 ? ISA_OP_LD_A : ISA_OP_LD_C, OP) | ISA_PUT(7, GP) | ISA_PUT(i, RD) |
                       ISA_PUT(63, RA) | ISA_PUT(i < 32 ? i : rng_below(&r, 256), OFS);
    uint32_t len = n + body + 1;
    for (uint32_t i = 0; i < body; i++, n++) {
        uint32_t op;
        uint32_t k = rng_below(&r, 100);
        if (k < texp)
            op = ISA_OP_TEX;
        else if (k < texp + brap)
            op = ISA_OP_BRA;
        else
            op = word_ops[rng_below(&r, (uint32_t)sizeof word_ops)];
        if (far && i == far - 1)
            op = ISA_OP_BRA;
        uint64_t w = rng_u64(&r) & ((1ull << ISA_F_OP_LO) - 1);
        if (rng_chance(&r, 1, 2))   /* half unguarded */
            w = (w & ~(ISA_PUT(7, GP) | ISA_PUT(1, GN))) | ISA_PUT(7, GP);
        if (op == ISA_OP_BRA) {
            uint32_t pc = n, tgt = pc + 1 + rng_below(&r, len - pc - 1), rpc = pc + 1 + rng_below(&r, len - pc - 1);
            if (far && i == far - 1) {   /* far past the end: the target or (then reached last) the join */
                if (rng_chance(&r, 1, 2))
                    tgt = len + rng_below(&r, 0x10000 - len);
                else
                    rpc = len + rng_below(&r, 0x10000 - len);
            }
            w = (w & ~(ISA_PUT(0xffff, TGT) | ISA_PUT(0xffff, RPC))) | ISA_PUT(tgt, TGT) | ISA_PUT(rpc, RPC);
        } else if (op == ISA_OP_EXIT && rng_chance(&r, 3, 4)) {
            /* mostly exits guarded by a data predicate (only the lanes where it is set leave) */
            w = (w & ~(ISA_PUT(7, GP) | ISA_PUT(1, GN))) | ISA_PUT(rng_below(&r, 7), GP);
        }
        j->code[n] = ISA_PUT(op, OP) | w;
    }
    j->code[n++] = ISA_PUT(ISA_OP_EXIT, OP) | ISA_PUT(7, GP);
    j->len = n;
    isa_gen_params_t gp = isa_gen_params_default();
    for (uint32_t w = 0; w < j->nw; w++) {
        isa_gen_init_warp(&gp, seed * 64u + w + 3u, j->ctx, j->iw[w]);
        if (rng_chance(&r, 1, 2))
            j->iw[w]->warp_id = rng_u32(&r);
        if (rng_chance(&r, 1, 2))   /* %vertex / %prim over all 32 bits (the generator keeps them below 2^24) */
            for (uint32_t l = 0; l < 32; l++) {
                j->iw[w]->sr_vertex[l] = rng_u32(&r);
                j->iw[w]->sr_prim[l] = rng_u32(&r);
            }
    }
    j->readback = 1;
    return job_load(j, o->no_fp);
}

/* inputs for a given program: every lane active, attributes from the seed */
static void fill_inputs(job_t *j, uint64_t seed, uint32_t wid0)
{
    rng_t r;
    rng_seed(&r, seed);
    for (uint32_t i = 0; i < ISA_CONST_WORDS; i++) {
        float f = (float)((int32_t)rng_below(&r, 1u << 16) - (1 << 15)) / 16384.0f;
        j->ctx->konst[i] = rng_chance(&r, 1, 8) ? rng_u32(&r) : isa_float_bits(f);
    }
    for (uint32_t w = 0; w < j->nw; w++) {
        isa_warp_t *iw = j->iw[w];
        isa_warp_init(iw, wid0 + w, 0xffffffffu);
        for (uint32_t a = 0; a < ISA_ATTR_WORDS; a++)
            for (uint32_t l = 0; l < 32; l++) {
                uint32_t k = rng_below(&r, 8);
                float f = (float)((int32_t)rng_below(&r, 1u << 20) - (1 << 19)) / 65536.0f;
                iw->attr[a][l] = k == 0 ? rng_u32(&r) : k == 1 ? rng_below(&r, 64) : isa_float_bits(f);
            }
        for (uint32_t l = 0; l < 32; l++) {
            iw->sr_vertex[l] = (wid0 + w) * 32u + l;
            iw->sr_prim[l] = ((wid0 + w) * 32u + l) / 3u;
        }
    }
}

static int job_asm(job_t *j, const char *name, const char *text, uint64_t seed, uint32_t nw, uint32_t wid0,
                   job_kind_t kind, int no_fp)
{
    memset(j, 0, sizeof *j);
    j->kind = kind;
    j->seed = seed;
    snprintf(j->name, sizeof j->name, "%s", name);
    if (job_alloc(j, nw))
        return -1;
    isa_asm_err_t err;
    int n = isa_assemble(text, j->code, ISA_MAX_CODE, &err);
    if (n < 0) {
        fprintf(stderr, "cosim-simt: %s:%d:%d: error: %s\n", name, err.line, err.col, err.msg);
        return -1;
    }
    j->len = (uint32_t)n;
    fill_inputs(j, seed, wid0);
    j->readback = 1;
    return job_load(j, no_fp);
}

/* a program given as instruction words (a trace's PROG, or --program FILE.bin), inputs from the seed */
static int job_words(job_t *j, const char *name, const uint64_t *words, uint32_t n, uint64_t seed, uint32_t nw,
                     uint32_t wid0, job_kind_t kind, int no_fp)
{
    memset(j, 0, sizeof *j);
    j->kind = kind;
    j->seed = seed;
    snprintf(j->name, sizeof j->name, "%s", name);
    if (job_alloc(j, nw) || n > ISA_MAX_CODE)
        return -1;
    memcpy(j->code, words, n * sizeof *words);
    j->len = n;
    fill_inputs(j, seed, wid0);
    j->readback = 1;
    return job_load(j, no_fp);
}

/* every program stored in a trace (PROG commands with instruction words) */
typedef struct {
    char name[96];
    uint64_t *words;
    uint32_t n;
} tprog_t;

static int load_trace_programs(const char *path, tprog_t **out, int *n_out)
{
    trace_error_t err;
    trace_reader_t *r = trace_reader_open_file(path, 0, &err);
    if (!r) {
        fprintf(stderr, "cosim-simt: %s: %s\n", path, err.msg);
        return -1;
    }
    trace_cmd_t cmd;
    memset(&cmd, 0, sizeof cmd);
    int rc, n = *n_out;
    while ((rc = trace_reader_next(r, &cmd, &err)) == 1) {
        if (cmd.type != TRACE_CMD_PROGRAM || cmd.u.program.n_words < 2)
            continue;
        tprog_t *np = realloc(*out, (size_t)(n + 1) * sizeof *np);
        if (!np)
            break;
        *out = np;
        tprog_t *t = &np[n];
        uint32_t m = cmd.u.program.n_words / 2;
        int dup = 0;
        for (int k = 0; k < n && !dup; k++) {
            dup = np[k].n == m;
            for (uint32_t i = 0; i < m && dup; i++)
                dup = np[k].words[i] == ((uint64_t)cmd.u.program.words[2 * i] | ((uint64_t)cmd.u.program.words[2 * i + 1] << 32));
        }
        if (dup)
            continue;
        t->words = malloc((m ? m : 1) * sizeof *t->words);
        if (!t->words)
            break;
        for (uint32_t i = 0; i < m; i++)
            t->words[i] = (uint64_t)cmd.u.program.words[2 * i] | ((uint64_t)cmd.u.program.words[2 * i + 1] << 32);
        t->n = m;
        const char *base = strrchr(path, '/');
        snprintf(t->name, sizeof t->name, "%.40s prog %u %.40s", base ? base + 1 : path, cmd.u.program.id,
                 cmd.u.program.name ? cmd.u.program.name : "");
        n++;
    }
    trace_cmd_free(&cmd);
    trace_reader_close(r);
    if (rc < 0) {
        fprintf(stderr, "cosim-simt: %s: %s\n", path, err.msg);
        return -1;
    }
    *n_out = n;
    return 0;
}

/* ------------------------------------------------------------------ comparison */
typedef struct {
    const char *name;
    uint32_t dut, model;
} field_t;

static int collect_fields(const simt_hw_out_t *a, const simt_hw_out_t *b, uint32_t L, field_t *f, int cap)
{
    int n = 0;
#define F(nm, x) do { if (n < cap) { f[n].name = nm; f[n].dut = (uint32_t)a->x; f[n].model = (uint32_t)b->x; n++; } } while (0)
    F("idle", idle); F("run_mask", run_mask); F("err_mask", err_mask);
    F("issue_valid", issue_valid); F("issue_warp", issue_warp); F("issue_pc", issue_pc);
    F("tex_valid", tex_valid); F("tex_warp", tex_warp); F("tex_row", tex_row); F("tex_comp", tex_comp);
    F("tex_unit", tex_unit); F("tex_mask", tex_mask);
    F("rt_valid", rt_valid); F("rt_first", rt_first); F("rt_last", rt_last); F("rt_warp", rt_warp);
    F("rt_pc", rt_pc); F("rt_active", rt_active); F("rt_wmask", rt_wmask); F("rt_row", rt_row);
    F("rt_minor", rt_minor); F("rt_lane_en", rt_lane_en); F("rt_kind", rt_kind); F("rt_dst", rt_dst);
#undef F
    static const char *const vn[] = {"rt_val[%u]", "rt_addr[%u]", "tex_s[%u]", "tex_t[%u]", "out_rdata[%u]"};
    static char names[5][SIMT_HW_MAX_LANES][20];
    for (uint32_t l = 0; l < L; l++) {
        const uint32_t *da[5] = {a->rt_val, a->rt_addr, a->tex_s, a->tex_t, a->out_rdata};
        const uint32_t *db[5] = {b->rt_val, b->rt_addr, b->tex_s, b->tex_t, b->out_rdata};
        for (int k = 0; k < 5; k++) {
            if (n >= cap)
                break;
            if (!names[k][l][0])
                snprintf(names[k][l], sizeof names[k][l], vn[k], l);
            f[n].name = names[k][l];
            f[n].dut = da[k][l];
            f[n].model = db[k][l];
            n++;
        }
    }
    return n;
}

typedef struct {
    int failed;
    uint64_t cycle;
    char what[1200];
} fail_t;

/* The command that re-runs the failing job alone: bin + the job's arguments. */
static void repro_cmd(const opts_t *o, const job_t *j, const char *bin, char *cmd, size_t cap)
{
    int m = snprintf(cmd, cap, "%s", bin);
    if (j->kind == JOB_RANDOM)
        m += snprintf(cmd + m, cap - (size_t)m, " --seed 0x%" PRIx64 " --programs 1", j->seed);
    else if (j->kind == JOB_WORDS)
        m += snprintf(cmd + m, cap - (size_t)m, " --seed 0x%" PRIx64 " --programs 0 --fuzz-words 1", j->seed);
    else if (j->kind == JOB_FILE)
        m += snprintf(cmd + m, cap - (size_t)m, " --program %s --seed 0x%" PRIx64 " --warps %u --programs 0",
                      o->program, o->seed, o->warps);
    else if (j->kind == JOB_TRACEPROG)
        m += snprintf(cmd + m, cap - (size_t)m, " --trace-programs %s --only '%s' --seed 0x%" PRIx64 " --programs 0",
                      o->trace_progs, j->name, o->seed);
    else
        m += snprintf(cmd + m, cap - (size_t)m, " --shader %s --seed 0x%" PRIx64 " --programs 0", j->name, j->seed);
    if (o->max_static)
        m += snprintf(cmd + m, cap - (size_t)m, " --len %u", o->max_static);
    if (o->depth)
        m += snprintf(cmd + m, cap - (size_t)m, " --depth %u", o->depth);
    if (o->no_fp)
        m += snprintf(cmd + m, cap - (size_t)m, " --no-fp");
    if (o->inject)
        m += snprintf(cmd + m, cap - (size_t)m, " --inject-fault %" PRIu64, o->inject_cycle);
    if (o->abort_every && (j->kind == JOB_RANDOM || j->kind == JOB_WORDS))
        m += snprintf(cmd + m, cap - (size_t)m, " --abort-every %u", o->abort_every);
    (void)m;
}

static void report(const ctx_t *c, const job_t *j, const fail_t *fl, const simt_hw_out_t *dut, const simt_hw_out_t *mod,
                   const char *extra)
{
    const opts_t *o = c->o;
    fprintf(stderr, "COSIM MISMATCH unit=simt_core LANES=%u WARPS=%u FPU_LAT=%u SFU_LAT=%u TEX_LAT=%u job=\"%s\" "
            "seed=0x%" PRIx64 " cycle=%" PRIu64 "\n", c->prm.lanes, c->prm.warps, c->prm.fpu_lat, c->prm.sfu_lat,
            c->prm.tex_lat, j->name, j->seed, fl->cycle);
    fprintf(stderr, "  what: %s\n", fl->what);
    if (j->abort_run)
        fprintf(stderr, "  note: this run is cut short by a reset in the middle after %u cycles of execution (--abort-every)\n",
                j->abort_run);
    if (j->reset_after)
        fprintf(stderr, "  note: RESET in the middle of this job after %u cycles of execution, then this run from the upload on (--abort-every)\n",
                j->reset_after);
    if (extra && *extra)
        fprintf(stderr, "%s", extra);
    if (dut && mod) {
        field_t f[256];
        int n = collect_fields(dut, mod, c->prm.lanes, f, 256);
        fprintf(stderr, "  %-14s %-12s %-12s\n", "port", "DUT (RTL)", "C cycle model");
        for (int i = 0; i < n; i++) {
            int diff = f[i].dut != f[i].model;
            if (diff || i < 24)
                fprintf(stderr, "  %-14s 0x%-10x 0x%-10x%s\n", f[i].name, f[i].dut, f[i].model, diff ? "  <-- differs" : "");
        }
    }
    uint64_t n = c->n_hist < HIST ? c->n_hist : HIST;
    fprintf(stderr, "  last %" PRIu64 " transactions (oldest first):\n", n);
    for (uint64_t i = c->n_hist - n; i < c->n_hist; i++)
        hist_print(&c->hist[i % HIST]);
    char cmd[1024];
    repro_cmd(o, j, o->argv0, cmd, sizeof cmd);
    fprintf(stderr, "  reproduce: %s\n", cmd);
}

/* ------------------------------------------------------------------ one job in lockstep */
typedef struct {
    int phase;   /* 0 imem, 1 const, 2 attr, 3 launch, 4 run, 5 readback, 6 done */
    uint32_t i, w, row, word;
    uint64_t run_start;
} host_t;

static void host_inputs(const ctx_t *c, const job_t *j, host_t *h, simt_hw_in_t *in)
{
    const uint32_t L = c->prm.lanes, Q = c->g.q;
    memset(in, 0, sizeof *in);
    in->prog_len = j->len;
    switch (h->phase) {
    case 0:
        in->imem_we = 1;
        in->imem_addr = h->i;
        in->imem_data = j->code[h->i];
        break;
    case 1:
        in->const_we = 1;
        in->const_addr = h->i;
        in->const_data = j->ctx->konst[h->i];
        break;
    case 2: {
        in->attr_we = 1;
        in->attr_warp = h->w;
        in->attr_row = h->row;
        in->attr_word = h->word;
        const isa_warp_t *iw = j->iw[h->w];
        for (uint32_t l = 0; l < L; l++) {
            uint32_t t = h->row * L + l;
            /* (a reduced core stores MEM_WORDS words: word k is attribute k mod MEM_WORDS, uploaded so) */
            in->attr_data[l] = h->word < 64 ? iw->attr[h->word % c->o->sz.mem_words][t]
                               : h->word == 64 ? iw->sr_vertex[t] : iw->sr_prim[t];
        }
        break;
    }
    case 3:
        in->launch = 1;
        in->launch_warp = h->w;
        in->launch_mask = j->iw[h->w]->launch_mask;
        in->launch_wid = j->iw[h->w]->warp_id;
        break;
    case 5:
        in->out_warp = h->w;
        in->out_row = h->row;
        in->out_word = h->word;
        break;
    default:
        break;
    }
    (void)Q;
}

static void host_advance(const ctx_t *c, const job_t *j, host_t *h, const simt_hw_out_t *out, uint64_t cycle)
{
    const uint32_t Q = c->g.q;
    switch (h->phase) {
    case 0:
        if (++h->i >= j->len) { h->phase = 1; h->i = 0; }
        break;
    case 1:
        if (++h->i >= (c->o->sz.const_words < ISA_CONST_WORDS ? c->o->sz.const_words : ISA_CONST_WORDS)) {
            h->phase = 2; h->w = h->row = h->word = 0;
        }
        break;
    case 2:
        if (++h->word == c->o->n_upload)
            h->word = 64;   /* then %vertex, %prim */
        if (h->word >= 64 + SIMT_HW_SR_WORDS) {
            h->word = 0;
            if (++h->row >= Q) { h->row = 0; if (++h->w >= j->nw) { h->phase = 3; h->w = 0; } }
        }
        break;
    case 3:
        if (++h->w >= j->nw) { h->phase = 4; h->run_start = cycle + 1; }
        break;
    case 4:
        if (out->idle && cycle > h->run_start)
            h->phase = j->readback ? 5 : 6, h->w = h->row = h->word = 0, h->i = 0;
        break;
    case 5:
        /* the address of cycle n is answered in cycle n+1: h->i counts addresses issued */
        h->i++;
        if (++h->word >= j->rb_words) {
            h->word = 0;
            if (++h->row >= Q) { h->row = 0; if (++h->w >= j->nw) h->phase = 6; }
        }
        break;
    default:
        break;
    }
}

static int check_retire(ctx_t *c, job_t *j, const simt_hw_out_t *o, uint64_t cycle, stats_t *st, fail_t *fl)
{
    const uint32_t L = c->prm.lanes;
    if (!o->rt_valid)
        return 0;
    st->beats++;
    if (o->rt_first) {
        c->cur_v = 1;
        c->cur_warp = o->rt_warp;
        c->cur_pc = o->rt_pc;
        c->cur_active = o->rt_active;
        c->cur_wmask = o->rt_wmask;
        c->cur_kind = o->rt_kind;
        c->cur_dst = o->rt_dst;
        memset(c->cur_val, 0, sizeof c->cur_val);
        memset(c->cur_addr, 0, sizeof c->cur_addr);
        memset(c->cur_seen, 0, sizeof c->cur_seen);
    } else if (!c->cur_v || o->rt_warp != c->cur_warp || o->rt_pc != c->cur_pc) {
        fl->failed = 1;
        fl->cycle = cycle;
        snprintf(fl->what, sizeof fl->what, "retire beat without its first beat (warp %u pc %u)", o->rt_warp, o->rt_pc);
        return -1;
    }
    uint32_t comp = (o->rt_kind == ISA_DST_REG && ISA_GET(j->code[o->rt_pc % ISA_MAX_CODE], OP) == ISA_OP_TEX)
                        ? (o->rt_minor & 3u) : 0u;
    for (uint32_t l = 0; l < L; l++) {
        if (!((o->rt_lane_en >> l) & 1u))
            continue;
        uint32_t t = o->rt_row * L + l;
        c->cur_val[comp][t] = o->rt_val[l];
        c->cur_addr[t] = o->rt_addr[l];
        c->cur_seen[comp] |= 1u << t;
    }
    if (!o->rt_last)
        return 0;
    c->cur_v = 0;
    uint32_t slot = o->rt_warp;
    if (slot >= j->nw) {
        fl->failed = 1;
        fl->cycle = cycle;
        snprintf(fl->what, sizeof fl->what, "retire from warp slot %u, only %u launched", slot, j->nw);
        return -1;
    }
    isa_retire_t rec;
    int stt = isa_step(j->ctx, j->iw[slot], &rec);
    st->instrs++;
    st->thread_instrs += (uint64_t)__builtin_popcount(rec.active);
    char buf[2048];
    int m = 0;
    buf[0] = 0;
    if (stt != ISA_OK) {
        m += snprintf(buf + m, sizeof buf - (size_t)m, "the interpreter has no instruction to retire (%s) but the RTL retired pc %u",
                      isa_status_str(stt), c->cur_pc);
    } else {
        uint32_t ndst = rec.ndst;
        uint32_t want_seen = c->cur_kind == ISA_DST_NONE ? 0u : 0xffffffffu;
        if (rec.pc != c->cur_pc)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "pc: RTL %u ISA %u; ", c->cur_pc, rec.pc);
        if (rec.active != c->cur_active)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "active: RTL 0x%08x ISA 0x%08x; ", c->cur_active, rec.active);
        if (rec.wmask != c->cur_wmask)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "wmask: RTL 0x%08x ISA 0x%08x; ", c->cur_wmask, rec.wmask);
        if (rec.dst_kind != c->cur_kind)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "dst_kind: RTL %u ISA %u; ", c->cur_kind, rec.dst_kind);
        if ((rec.dst_kind == ISA_DST_REG || rec.dst_kind == ISA_DST_PRED) && rec.dst != c->cur_dst)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "dst: RTL %u ISA %u; ", c->cur_dst, rec.dst);
        for (uint32_t k = 0; k < ndst && k < 4 && m < 1500; k++) {
            if (c->cur_seen[k] != want_seen)
                m += snprintf(buf + m, sizeof buf - (size_t)m, "component %u: lanes retired 0x%08x, expected 0x%08x; ", k,
                              c->cur_seen[k], want_seen);
            for (uint32_t t = 0; t < 32 && m < 1500; t++) {
                if (!((rec.wmask >> t) & 1u))
                    continue;
                st->values++;
                if (c->cur_val[k][t] != rec.val[k][t])
                    m += snprintf(buf + m, sizeof buf - (size_t)m, "val[%u][lane %u]: RTL 0x%08x ISA 0x%08x; ", k, t,
                                  c->cur_val[k][t], rec.val[k][t]);
                if ((rec.dst_kind == ISA_DST_LOCAL || rec.dst_kind == ISA_DST_OUT) && c->cur_addr[t] != rec.addr[t])
                    m += snprintf(buf + m, sizeof buf - (size_t)m, "addr[lane %u]: RTL %u ISA %u; ", t, c->cur_addr[t],
                                  rec.addr[t]);
            }
        }
    }
    hist_add(c, cycle, HIST_RETIRE, slot, c->cur_pc, c->cur_active, c->cur_wmask, j->code[c->cur_pc % ISA_MAX_CODE]);
    if (m) {
        char dis[96];
        isa_disasm_insn(j->code[c->cur_pc % ISA_MAX_CODE], dis, sizeof dis);
        fl->failed = 1;
        fl->cycle = cycle;
        snprintf(fl->what, sizeof fl->what, "retired instruction differs from the ISA interpreter: warp %u pc %u `%s`: %.600s",
                 slot, c->cur_pc, dis, buf);
        return -1;
    }
    return 0;
}

/* Runs job j in lockstep. dump_from: cycle from which the waveform is dumped (UINT64_MAX: never).
 * Returns 0 pass, 1 mismatch (report printed unless silent). */
static int run_job(ctx_t *c, job_t *j, simt_dut_t *dut, simt_hw_t *hw, stats_t *st, fail_t *fl, uint64_t dump_from,
                   int silent, uint64_t stop_at)
{
    const opts_t *o = c->o;
    const uint32_t L = c->prm.lanes;
    /* the DUT and the model live across jobs: both are reset (memories keep their contents) */
    simt_dut_reset(dut);
    simt_hw_reset(hw);
    memset(c->texq_v, 0, sizeof c->texq_v);
    c->cur_v = 0;
    host_t h = {0};
    if (j->len == 0)
        h.phase = 1;
    uint64_t cycle = 0, watchdog = 4000000;
    int rc = 0;
    simt_hw_in_t in;
    simt_hw_out_t od, om;
    uint32_t rb_w = 0, rb_row = 0, rb_word = 0;
    int rb_pending = 0;
    memset(fl, 0, sizeof *fl);
    while (h.phase != 6 || rb_pending) {
        if (cycle > stop_at)
            break;
        if (j->abort_run && h.phase == 4 && cycle >= h.run_start + j->abort_run)
            break;   /* reset in the middle: the caller resets both and runs the job again */
        simt_dut_dump(dut, cycle >= dump_from);
        host_inputs(c, j, &h, &in);
        uint32_t slot = (uint32_t)(cycle % TEXQ);
        if (c->texq_v[slot]) {
            memcpy(in.tex_rsp, c->texq[slot], sizeof in.tex_rsp);
            c->texq_v[slot] = 0;
        }
        simt_dut_eval(dut, &in, &od);
        simt_hw_comb(hw, &in, &om);
        if (o->inject && cycle == o->inject_cycle) {
            if (od.rt_valid)
                od.rt_val[0] ^= 1u;
            else
                od.idle ^= 1;
        }
        st->port_checks++;
        if (memcmp(&od, &om, sizeof od) != 0) {
            field_t f[256];
            int n = collect_fields(&od, &om, L, f, 256), nd = 0;
            for (int i = 0; i < n; i++)
                nd += f[i].dut != f[i].model;
            if (nd) {
                fl->failed = 1;
                fl->cycle = cycle;
                snprintf(fl->what, sizeof fl->what, "RTL and C cycle model disagree (%d port fields)", nd);
                if (!silent)
                    report(c, j, fl, &od, &om, NULL);
                rc = 1;
                break;
            }
        }
        if (od.issue_valid)
            hist_add(c, cycle, HIST_ISSUE, od.issue_warp, od.issue_pc, 0, 0, hw->w[od.issue_warp].ibuf);
        /* texture: answer TEX_LAT cycles later */
        if (od.tex_valid) {
            uint32_t due = (uint32_t)((cycle + c->prm.tex_lat) % TEXQ);
            c->texq_v[due] = 1;
            memset(c->texq[due], 0, sizeof c->texq[due]);
            for (uint32_t l = 0; l < L; l++) {
                if (!((od.tex_mask >> l) & 1u))
                    continue;
                uint32_t rgba[4], t = od.tex_row * L + l;
                sampler(NULL, od.tex_unit, j->iw[od.tex_warp % j->nw]->warp_id, t, od.tex_s[l], od.tex_t[l], rgba);
                c->texq[due][l] = rgba[od.tex_comp & 3u];
            }
        }
        if (check_retire(c, j, &od, cycle, st, fl)) {
            if (!silent)
                report(c, j, fl, NULL, NULL, NULL);
            rc = 1;
            break;
        }
        /* output read-back: data for the address of the previous cycle */
        if (rb_pending) {
            for (uint32_t l = 0; l < L; l++) {
                uint32_t t = rb_row * L + l, want = j->iw[rb_w]->out[rb_word][t];
                st->readback_words++;
                j->rtl_out[rb_w][rb_word][t] = od.out_rdata[l];
                if (od.out_rdata[l] != want) {
                    fl->failed = 1;
                    fl->cycle = cycle;
                    snprintf(fl->what, sizeof fl->what, "output memory read back: warp %u o[%u] lane %u: RTL 0x%08x ISA 0x%08x",
                             rb_w, rb_word, t, od.out_rdata[l], want);
                    break;
                }
            }
            if (fl->failed) {
                if (!silent)
                    report(c, j, fl, NULL, NULL, NULL);
                rc = 1;
                break;
            }
            rb_pending = 0;
        }
        if (h.phase == 5) {
            rb_pending = 1;
            rb_w = h.w;
            rb_row = h.row;
            rb_word = h.word;
        }
        int was_run = h.phase == 4;
        host_advance(c, j, &h, &od, cycle);
        if (was_run && h.phase != 4) {
            /* finished: every warp's final status equals the interpreter's */
            char buf[400];
            int m = 0;
            for (uint32_t w = 0; w < j->nw && m < 300; w++) {
                int s = isa_step(j->ctx, j->iw[w], NULL);
                int rtl_err = (od.err_mask >> w) & 1u;
                if (s == ISA_DONE)
                    j->n_done++;
                else {
                    j->n_err++;
                    snprintf(j->err_kind, sizeof j->err_kind, "%s", isa_status_str(s));
                }
                if ((s == ISA_DONE) == rtl_err || (s != ISA_DONE && s >= 0))
                    m += snprintf(buf + m, sizeof buf - (size_t)m, "warp %u: RTL %s, interpreter %s; ", w,
                                  rtl_err ? "stopped with an error" : "finished", s == ISA_OK ? "has instructions left" : isa_status_str(s));
            }
            if (m) {
                fl->failed = 1;
                fl->cycle = cycle;
                snprintf(fl->what, sizeof fl->what, "final warp status: %s", buf);
                if (!silent)
                    report(c, j, fl, NULL, NULL, NULL);
                rc = 1;
                break;
            }
            hist_add(c, cycle, HIST_IDLE, 0, 0, 0, 0, cycle - h.run_start);
        }
        simt_dut_clock(dut);
        simt_hw_clock(hw, &in);
        cycle++;
        if (h.phase == 4 && cycle - h.run_start > watchdog) {
            fl->failed = 1;
            fl->cycle = cycle;
            snprintf(fl->what, sizeof fl->what, "watchdog: not idle after %" PRIu64 " cycles", watchdog);
            if (!silent)
                report(c, j, fl, NULL, NULL, NULL);
            rc = 1;
            break;
        }
    }
    st->cycles += cycle;
    st->jobs++;
    return rc;
}

/* ------------------------------------------------------------------ waves */
static void write_gtkw(const char *tmpl, const char *out, const char *fst, uint64_t t0)
{
    gtkw_view_write("cosim-simt", tmpl, out, fst, t0, NULL, NULL);   /* no parameter-dependent widths */
}

static int mkdir_p(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    return system(cmd);
}


/* ------------------------------------------------------------------ CP phase of one GPU on the RTL
 * A real trace's draws: the vertex shader (the draw's program, vs_mvp for the traces' MVP transforms) runs on
 * the core (one warp per batch of up to 30 vertices the pipeline's vertex cache asks for, each batch a
 * lockstep job checked like any other); primitive assembly, clipping, viewport snapping and culling stay in C
 * (gpu_project through a shader backend whose run_vs is the RTL); the resulting P2G inputs must equal the
 * golden model's (its CP-phase tap) field by field and their masks (p2g_mask) the golden model's masks.
 * The stream of RTL-derived P2G inputs with the golden masks is written for cosim-p2g --replay (the P2G RTL). */
typedef struct {
    uint32_t gpu, cmd;
    p2g_config_t cfg;
    p2g_prim_t p;
    uint64_t mask;
} cp_rec_t;

typedef struct {
    cp_rec_t *r;
    size_t n, cap;
    int oom;
} cp_tap_t;

static void cp_tap(void *user, uint32_t gpu, uint32_t cmd, const p2g_config_t *cfg, const p2g_prim_t *in, uint64_t mask)
{
    cp_tap_t *t = user;
    if (t->oom)
        return;
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 4096;
        cp_rec_t *nr = realloc(t->r, nc * sizeof *nr);
        if (!nr) {
            t->oom = 1;
            return;
        }
        t->r = nr;
        t->cap = nc;
    }
    cp_rec_t *r = &t->r[t->n++];
    r->gpu = gpu;
    r->cmd = cmd;
    r->cfg = *cfg;
    r->p = *in;
    r->mask = mask;
}

typedef struct {
    ctx_t *c;
    simt_dut_t *dut;
    simt_hw_t *hw;
    stats_t *st;
    uint64_t calls, verts, seed;
    int failed;
} cp_vs_t;

static int cp_run_vs(void *ctxp, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_ATTRIBS][4],
                     float (*out)[1 + GPU_MAX_VARYINGS][4])
{
    cp_vs_t *v = ctxp;
    const gpu_isa_prog_t *prog = d->vs_prog;
    if (v->failed || n == 0 || n > 32 || !prog)
        return -1;
    job_t j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_SHADER;
    j.seed = v->calls;
    snprintf(j.name, sizeof j.name, "cp %s batch %" PRIu64, prog->name, v->calls);
    if (job_alloc(&j, 1)) {
        job_free(&j);
        return -1;
    }
    memcpy(j.code, prog->words, prog->n * sizeof(uint64_t));
    j.len = prog->n;
    for (uint32_t r = 0; r < GPU_MAX_CONSTS && 4 * r + 3 < ISA_CONST_WORDS; r++)
        for (int k = 0; k < 4; k++)
            j.ctx->konst[4 * r + (uint32_t)k] = isa_float_bits(d->vs_consts[r][k]);
    isa_warp_t *w = j.iw[0];
    isa_warp_init(w, 0, n >= 32 ? 0xffffffffu : ((1u << n) - 1u));
    for (uint32_t t = 0; t < n; t++) {
        for (uint32_t a = 0; a < GPU_MAX_ATTRIBS && 4 * a + 3 < ISA_ATTR_WORDS; a++)
            for (int k = 0; k < 4; k++)
                w->attr[4 * a + (uint32_t)k][t] = isa_float_bits(in[t][a][k]);
        w->sr_vertex[t] = t;
    }
    j.readback = 1;
    j.rb_words = 4u * (1u + d->n_varyings);
    if (j.rb_words > 64)
        j.rb_words = 64;
    fail_t fl;
    int rc = job_load(&j, 0) ? 1 : run_job(v->c, &j, v->dut, v->hw, v->st, &fl, UINT64_MAX, 0, UINT64_MAX);
    if (rc == 0)
        for (uint32_t t = 0; t < n; t++)
            for (uint32_t s = 0; s < 1 + GPU_MAX_VARYINGS; s++)
                for (int k = 0; k < 4; k++)
                    out[t][s][k] = 4 * s + (uint32_t)k < j.rb_words ? isa_bits_float(j.rtl_out[0][4 * s + (uint32_t)k][t]) : 0.0f;
    job_free(&j);
    v->calls++;
    v->verts += n;
    if (rc)
        v->failed = 1;
    return rc ? -1 : 0;
}

static int cp_run_fs(void *ctx, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_VARYINGS][4],
                     const float (*frag_pos)[4], float (*color)[GPU_MAX_RTS][4], float *depth, uint8_t *discard)
{
    (void)ctx; (void)d; (void)n; (void)in; (void)frag_pos; (void)color; (void)depth; (void)discard;
    return -1;   /* projection never shades fragments */
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int run_cp(ctx_t *c, simt_dut_t *dut, simt_hw_t *hw, stats_t *st, const char *trace, uint32_t frame, uint32_t gpus,
                  p2g_mode_t own, uint32_t max_prims, const char *stream)
{
    sys_scene_t s;
    sys_trace_info_t ti;
    char err[512];
    if (sys_scene_from_trace(&s, trace, frame, &ti, err, sizeof err)) {
        fprintf(stderr, "cosim-simt: %s\n", err);
        return 2;
    }
    cp_tap_t tap;
    memset(&tap, 0, sizeof tap);
    sys_config_t cfg = sys_config_default();
    cfg.scheme = SYS_SCHEME_GPUPD;
    cfg.n_gpus = gpus;
    cfg.own_mode = own;
    cfg.frame = frame;
    cfg.p2g_tap = cp_tap;
    cfg.p2g_tap_user = &tap;
    sys_result_t res;
    if (sys_run(&s, &cfg, &res) || tap.oom) {
        fprintf(stderr, "cosim-simt: golden model: %s\n", tap.oom ? "out of memory" : res.err);
        sys_scene_free(&s);
        return 2;
    }
    gpu_isa_library_t lib;
    memset(&lib, 0, sizeof lib);
    if (gpu_isa_library_load(&lib, err, sizeof err)) {
        fprintf(stderr, "cosim-simt: %s\n", err);
        sys_scene_free(&s);
        return 2;
    }
    gpu_t g;
    memset(&g, 0, sizeof g);
    uint32_t *zero = NULL;
    int rc = 0;
    if (gpu_init(&g, 0, 1, own, cfg.tile_log2) != 0) {
        fprintf(stderr, "cosim-simt: cannot create the GPU\n");
        rc = 2;
        goto out;
    }
    for (uint32_t i = 0; i < s.n_surf; i++) {
        uint32_t *z = calloc((size_t)s.surf[i].w * s.surf[i].h, 4);
        if (!z || gpu_add_surface(&g, s.surf[i].w, s.surf[i].h, s.surf[i].fmt, z) < 0) {
            free(z);
            fprintf(stderr, "cosim-simt: surface %u\n", i);
            rc = 2;
            goto out;
        }
        free(z);
    }
    cp_vs_t vs = {c, dut, hw, st, 0, 0, 0, 0};
    g.backend.ctx = &vs;
    g.backend.run_vs = cp_run_vs;
    g.backend.run_fs = cp_run_fs;
    FILE *f = stream ? fopen(stream, "w") : NULL;
    if (stream && !f) {
        perror(stream);
        rc = 2;
        goto out;
    }
    if (f) {
        fprintf(f, "# cosim-simt CP phase on the SIMT RTL: trace=%s frame=%u gpus=%u own=%s (P2G inputs from the RTL's "
                   "vertex shading, masks from the golden model)\n", trace, frame, gpus, own == P2G_MODE_DIAG ? "diag" : "linear");
        fprintf(f, "# C n W H tile_log2 mode sx0 sy0 sx1 sy1 | P gpu prim_id tag x0 y0 x1 y1 x2 y2 flags mask\n");
    }
    const sys_frame_t *fr = &s.frames[frame];
    uint64_t prims = 0, draws = 0, mism = 0, skipped = 0, partial = 0;
    for (uint32_t ci = 0; ci < fr->n && prims < max_prims && !rc; ci++) {
        const sys_cmd_t *cmd = &fr->cmds[ci];
        if (cmd->kind != SYS_CMD_DRAW)
            continue;
        /* the golden records of this draw: tags must be contiguous (prim = tag - base) */
        size_t nr = 0;
        for (size_t i = 0; i < tap.n; i++)
            nr += tap.r[i].cmd == ci;
        uint32_t m = gpu_draw_prim_count(&cmd->draw);
        if (nr == 0 || nr != m) {
            skipped++;
            continue;
        }
        uint32_t *tags = malloc(nr * sizeof *tags);
        const cp_rec_t **by = calloc(nr, sizeof *by);
        gpu_prim_req_t *list = malloc(nr * sizeof *list);
        gpu_projected_t *proj = malloc(nr * sizeof *proj);
        if (!tags || !by || !list || !proj) {
            free(tags); free(by); free(list); free(proj);
            rc = 2;
            break;
        }
        size_t k = 0;
        for (size_t i = 0; i < tap.n; i++)
            if (tap.r[i].cmd == ci)
                tags[k++] = tap.r[i].p.prim_id;
        qsort(tags, nr, sizeof *tags, cmp_u32);
        uint32_t base = tags[0];
        int contiguous = tags[nr - 1] - base == nr - 1;
        for (size_t i = 1; i < nr && contiguous; i++)
            contiguous = tags[i] != tags[i - 1];
        gpu_draw_t dc = cmd->draw;
        int conv = contiguous ? gpu_isa_convert_draw(&dc, &lib) : 0;
        if (!contiguous || dc.vs_kind != GPU_VS_ISA || conv < 0) {
            skipped++;
            free(tags); free(by); free(list); free(proj);
            continue;
        }
        for (size_t i = 0; i < tap.n; i++)
            if (tap.r[i].cmd == ci)
                by[tap.r[i].p.prim_id - base] = &tap.r[i];
        for (uint32_t p = 0; p < nr; p++) {
            list[p].prim = p;
            list[p].tag = base + p;
        }
        /* the primitive budget may end inside a draw: its first primitives (in draw order) are compared */
        if (nr > max_prims - prims)
            nr = (size_t)(max_prims - prims);
        if (gpu_project(&g, &dc, list, nr, proj) != 0) {
            fprintf(stderr, "cosim-simt: CP phase: draw %u (command %u): %s\n", cmd->src_index, ci,
                    vs.failed ? "the lockstep run of a vertex-shader batch failed (report above)" : g.err);
            rc = 1;
        }
        const cp_rec_t *first = by[0];
        if (!rc && f)
            fprintf(f, "C %u %u %u %u %u %u %u %u %u\n", first->cfg.n_gpus, first->cfg.width, first->cfg.height,
                    first->cfg.tile_log2, first->cfg.mode == P2G_MODE_LINEAR, first->cfg.sc_x0, first->cfg.sc_y0,
                    first->cfg.sc_x1, first->cfg.sc_y1);
        for (uint32_t p = 0; p < nr && !rc; p++) {
            const cp_rec_t *gr = by[p];
            const p2g_prim_t *q = &proj[p].p2g;
            uint64_t mk = p2g_mask(&gr->cfg, q);
            int same = q->flags == gr->p.flags && mk == gr->mask;
            for (int v = 0; v < 3 && !(q->flags & (P2G_FLAG_CULLED | P2G_FLAG_NEAR_CLIP)); v++)
                same &= q->x[v] == gr->p.x[v] && q->y[v] == gr->p.y[v];
            if (!same) {
                if (mism < 8)
                    fprintf(stderr, "cosim-simt: CP phase MISMATCH draw %u prim %u: RTL-shaded x=(%d,%d,%d) y=(%d,%d,%d) "
                                    "flags=%u mask=%" PRIx64 "; golden x=(%d,%d,%d) y=(%d,%d,%d) flags=%u mask=%" PRIx64 "\n",
                            cmd->src_index, p, q->x[0], q->x[1], q->x[2], q->y[0], q->y[1], q->y[2], q->flags, mk,
                            gr->p.x[0], gr->p.x[1], gr->p.x[2], gr->p.y[0], gr->p.y[1], gr->p.y[2], gr->p.flags, gr->mask);
                mism++;
            }
            if (f)
                fprintf(f, "P %u %u %u %d %d %d %d %d %d %u %" PRIx64 "\n", gr->gpu, gr->p.prim_id, ci & 0xffffu, q->x[0],
                        q->y[0], q->x[1], q->y[1], q->x[2], q->y[2], q->flags, gr->mask);
        }
        partial += nr < m;
        prims += nr;
        draws++;
        free(tags); free(by); free(list); free(proj);
    }
    if (f)
        fclose(f);
    printf("cosim-simt: CP phase %s frame %u (%u GPUs, %s): %" PRIu64 " draws, %" PRIu64 " primitives, %" PRIu64
           " vertices shaded on the RTL in %" PRIu64 " warp batches; %" PRIu64 " primitives differ from the golden model"
           " (%" PRIu64 " draws skipped: not an ISA vertex program or not in one batch; %" PRIu64 " draw cut short by --max-prims)\n",
           trace, frame, gpus, own == P2G_MODE_DIAG ? "diag" : "linear", draws, prims, vs.verts, vs.calls, mism, skipped, partial);
    if (!rc && (mism || prims == 0)) {
        fprintf(stderr, "cosim-simt: CP phase FAIL: %s\n", prims ? "P2G inputs/masks differ from the golden model" : "no primitive compared");
        rc = 1;
    }
out:
    free(zero);
    gpu_free(&g);
    gpu_isa_library_free(&lib);
    free(tap.r);
    sys_scene_free(&s);
    return rc;
}

/* ------------------------------------------------------------------ the job list */
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

static int make_job_(const jobs_t *js, uint64_t k, job_t *j);
static int make_job(const jobs_t *js, uint64_t k, job_t *j)
{
    int r = make_job_(js, k, j);
    if (r == 0 && j->rb_words > js->o->sz.mem_words)   /* a reduced core stores MEM_WORDS output words */
        j->rb_words = js->o->sz.mem_words;
    return r;
}

static int make_job_(const jobs_t *js, uint64_t k, job_t *j)
{
    const opts_t *o = js->o;
    if (k < js->np && (js->plan[k].kind == JOB_TRACEPROG || (js->plan[k].kind == JOB_FILE && js->plan[k].tp)))
        return job_words(j, js->plan[k].name, js->plan[k].tp->words, js->plan[k].tp->n, js->plan[k].seed,
                         js->plan[k].nw, js->plan[k].kind == JOB_FILE ? js->plan[k].wid0 : 0, js->plan[k].kind, o->no_fp);
    if (k < js->np)
        return job_asm(j, js->plan[k].name, js->plan[k].text, js->plan[k].seed, js->plan[k].nw, js->plan[k].wid0,
                       js->plan[k].kind, o->no_fp);
    if (k < js->np + o->programs)
        return job_random(j, o, js->prm, o->seed + (k - js->np));
    return job_fuzz_words(j, o, js->prm, o->seed + (k - js->np - o->programs));
}

/* reset in the middle: 1 in abort_every random/word jobs first runs for a while, then the core and the model
 * are reset while warps are running and the job runs again from its upload (memories keep their contents) */
static uint32_t abort_point(const opts_t *o, const job_t *j)
{
    if (!o->abort_every || (j->kind != JOB_RANDOM && j->kind != JOB_WORDS) ||
        mix64(j->seed ^ 0xab0abull) % o->abort_every != 0)
        return 0;
    return 1 + (uint32_t)(mix64(j->seed ^ 0xcdull) % 600);
}

/* Runs job k: its cut-short part (if chosen), then the whole job. *part: which run failed (0 cut, 1 whole).
 * dump_part: which run dumps the waveform from dump_from (-1 none, 0 the cut part, 1 the whole run, 2 both);
 * stop_at applies to that run only (failure replay). Returns 0 pass, 1 mismatch, 2 setup error. */
/* A reduced configuration (docs/simt.md section 6) runs a program as the ISA defines only if it stays inside
 * the sizes. Static part of that check: registers < RF_WORDS (or rz), no SFU opcode without the SFU, at most
 * IMEM_DEPTH instructions. (Memory addresses are dynamic: the generator's reduced mode keeps them inside; the
 * stack depth is checked after the run from the interpreter's max_sp.) Returns 1 if it fits, else 0 and why. */
static int fits_reduced(const opts_t *o, const uint64_t *code, uint32_t len, char *why, size_t cap)
{
    if (len > o->sz.imem_depth) {
        snprintf(why, cap, "%u instructions, IMEM_DEPTH is %u", len, o->sz.imem_depth);
        return 0;
    }
    for (uint32_t pc = 0; pc < len; pc++) {
        simt_hw_dec_t d = simt_hw_decode(code[pc]);
        uint32_t ra = (uint32_t)ISA_GET(code[pc], RA), rb = (uint32_t)ISA_GET(code[pc], RB);
        uint32_t rc = (uint32_t)ISA_GET(code[pc], RC), rd = (uint32_t)ISA_GET(code[pc], RD);
        uint32_t regs[8], n = 0;
        if (d.use_ra) regs[n++] = ra;
        if (d.use_rb) regs[n++] = rb;
        if (d.use_rc) regs[n++] = rc;
        if (d.use_ra1) regs[n++] = (ra + 1) & 63u;
        if (d.dst_reg)
            for (uint32_t k = 0; k < (d.ndst ? (uint32_t)d.ndst : 1u); k++)
                regs[n++] = (rd + k) & 63u;
        for (uint32_t i = 0; i < n; i++)
            if (regs[i] != 63u && regs[i] >= o->sz.rf_words) {
                snprintf(why, cap, "pc %u uses r%u, RF_WORDS is %u", pc, regs[i], o->sz.rf_words);
                return 0;
            }
        if (d.cls == SIMT_CLS_SFU && !o->sz.has_sfu) {
            snprintf(why, cap, "pc %u is an SFU opcode, HAS_SFU is 0", pc);
            return 0;
        }
    }
    return 1;
}

static int run_planned(ctx_t *c, const jobs_t *js, uint64_t k, simt_dut_t *dut, simt_hw_t *hw, stats_t *st,
                       fail_t *fl, uint64_t dump_from, int dump_part, int silent, uint64_t stop_at, int *part,
                       job_t *jout, uint64_t *aborts)
{
    job_t j;
    if (make_job(js, k, &j) != 0) {
        job_free(&j);
        return 2;
    }
    if (js->o->reduced) {
        char why[160];
        if (!fits_reduced(js->o, j.code, j.len, why, sizeof why)) {
            fprintf(stderr, "cosim-simt: %s does not fit the reduced configuration: %s\n", j.name, why);
            job_free(&j);
            return 2;
        }
    }
    uint32_t ap = abort_point(js->o, &j);
    *part = 1;
    if (ap) {
        j.abort_run = ap;
        *part = 0;
        int rc = run_job(c, &j, dut, hw, st, fl, (dump_part == 0 || dump_part == 2) ? dump_from : UINT64_MAX, silent,
                         dump_part == 0 ? stop_at : UINT64_MAX);
        if (rc || (dump_part == 0 && stop_at != UINT64_MAX)) {
            *jout = j;
            return rc;
        }
        if (aborts)
            (*aborts)++;
        hist_add(c, 0, HIST_RESET, 0, 0, 0, 0, ap);
        job_free(&j);
        if (make_job(js, k, &j) != 0) {
            job_free(&j);
            return 2;
        }
        *part = 1;
        j.reset_after = ap;
    }
    int rc = run_job(c, &j, dut, hw, st, fl, dump_part >= 1 ? dump_from : UINT64_MAX, silent,
                     dump_part == 1 ? stop_at : UINT64_MAX);
    if (js->o->reduced && !silent)   /* deeper nesting than the core's stack: the ISA's semantics do not apply */
        for (uint32_t w = 0; w < j.nw; w++)
            if (j.iw[w]->max_sp > js->o->sz.stack_depth) {
                fprintf(stderr, "cosim-simt: %s needs %u reconvergence-stack entries, STACK_DEPTH is %u\n", j.name,
                        j.iw[w]->max_sp, js->o->sz.stack_depth);
                if (!rc)
                    rc = 2;
            }
    *jout = j;
    return rc;
}

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

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.seed = 0x5eed;
    o.programs = 100;
    o.out_dir = "out/cosim/simt";
    o.window = 60;
    o.gtkw_template = "tb/simt/simt.gtkw";
    o.readback_every = 8;
    o.expect = -1;
    o.argv0 = argv[0];
    const char *one_shader = NULL, *cp_trace = NULL, *cp_out = NULL;
    uint32_t cp_frame = 0, cp_gpus = 4, cp_max = 3000;
    p2g_mode_t cp_own = P2G_MODE_DIAG;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int take = 1;
        if (!strcmp(a, "--seed") && v) {
            if (!strcmp(v, "random"))
                o.seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
            else
                o.seed = strtoull(v, NULL, 0);
        } else if (!strcmp(a, "--programs") && v) o.programs = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--len") && v) o.max_static = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--depth") && v) o.depth = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--program") && v) o.program = v;
        else if (!strcmp(a, "--warps") && v) o.warps = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--shader") && v) one_shader = v;
        else if (!strcmp(a, "--readback-every") && v) o.readback_every = atoi(v);
        else if (!strcmp(a, "--out-dir") && v) o.out_dir = v;
        else if (!strcmp(a, "--window") && v) o.window = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--waves") && v) o.waves = v;
        else if (!strcmp(a, "--gtkw") && v) o.gtkw_template = v;
        else if (!strcmp(a, "--cp-trace") && v) cp_trace = v;
        else if (!strcmp(a, "--trace-programs") && v) o.trace_progs = v;
        else if (!strcmp(a, "--only") && v) o.only = v;
        else if (!strcmp(a, "--frame") && v) cp_frame = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--gpus") && v) cp_gpus = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--own") && v) cp_own = !strcmp(v, "linear") ? P2G_MODE_LINEAR : P2G_MODE_DIAG;
        else if (!strcmp(a, "--max-prims") && v) cp_max = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "-o") && v) cp_out = v;
        else if (!strcmp(a, "--inject-fault") && v) { o.inject = 1; o.inject_cycle = strtoull(v, NULL, 0); }
        else if (!strcmp(a, "--fuzz-words") && v) o.fuzz_words = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--abort-every") && v) o.abort_every = (uint32_t)strtoul(v, NULL, 0);
        else if (!strcmp(a, "--expect") && v) {
            if (!strcmp(v, "done")) o.expect = 0;
            else if (!strcmp(v, "error")) o.expect = 1;
            else { usage(); return 2; }
        }
        else {
            take = 0;
            if (!strcmp(a, "--no-fp")) o.no_fp = 1;
            else if (!strcmp(a, "--shaders")) o.shaders = 1;
            else if (!strcmp(a, "--quiet")) o.quiet = 1;
            else if (!strcmp(a, "--replay-fst")) o.replay_fst = 1;
            else { usage(); return 2; }
        }
        i += take;
    }
    if ((o.waves || o.replay_fst) && !simt_dut_has_fst()) {
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
    memset(&c, 0, sizeof c);
    c.o = &o;
    c.prm = simt_dut_params();
    c.g = simt_hw_derive(c.prm);
    if (!o.warps)
        o.warps = c.prm.warps;
    if (!o.quiet && !o.replay_fst)
        printf("cosim-simt: LANES=%u WARPS=%u FPU_LAT=%u SFU_LAT=%u TEX_LAT=%u seed=0x%" PRIx64 "%s\n", c.prm.lanes,
               c.prm.warps, c.prm.fpu_lat, c.prm.sfu_lat, c.prm.tex_lat, o.seed, o.no_fp ? " (no FP/SFU opcodes)" : "");
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
            plan[np].seed = o.seed + w0; plan[np].nw = nw; plan[np].wid0 = w0; np++;
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
        plan[np].seed = o.seed + (uint64_t)s; plan[np].nw = c.prm.warps; plan[np].wid0 = 0; np++;
    }
    for (int k = 0; k < n_tprogs && np < MAXJ; k++) {
        if (o.only && strcmp(o.only, tprogs[k].name))
            continue;
        plan[np].kind = JOB_TRACEPROG; plan[np].name = tprogs[k].name; plan[np].text = NULL; plan[np].tp = &tprogs[k];
        plan[np].seed = o.seed + (uint64_t)k; plan[np].nw = c.prm.warps; plan[np].wid0 = 0; np++;
    }
    if (one_shader && np == 0) {
        fprintf(stderr, "cosim-simt: unknown shader %s\n", one_shader);
        return 2;
    }

    simt_dut_t *dut = simt_dut_new(o.waves);
    simt_hw_t *hw = calloc(1, sizeof *hw);
    if (!hw || simt_hw_init(hw, c.prm) != 0) {
        fprintf(stderr, "cosim-simt: cannot initialise the cycle model\n");
        return 2;
    }
    stats_t st;
    memset(&st, 0, sizeof st);
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
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
        int r = run_planned(&c, &js, k, dut, hw, &st, &fl, o.waves ? 0 : UINT64_MAX, o.waves ? 2 : -1, o.replay_fst, UINT64_MAX,
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
                snprintf(cmd + m, sizeof cmd - m, " --out-dir '%s' --window %u --gtkw '%s' --replay-fst", o.out_dir,
                         o.window, o.gtkw_template);
                fflush(stdout);
                fflush(stderr);
                if (access(fst_bin, X_OK) == 0) {
                    if (system(cmd) == -1)
                        fprintf(stderr, "  waveform: could not run %s\n", fst_bin);
                } else {
                    fprintf(stderr, "  waveform: this binary has no FST tracing; `make cosim-simt-fst` builds %s, then run\n"
                                    "            %s\n", fst_bin, cmd);
                }
            } else if (!o.waves && mkdir_p(o.out_dir) == 0) {
                char fst[1024], gtkw[1024];
                uint64_t from = fl.cycle > o.window ? fl.cycle - o.window : 0;
                snprintf(fst, sizeof fst, "%s/fail-seed%" PRIx64 "-cycle%" PRIu64 ".fst", o.out_dir, j.seed, fl.cycle);
                snprintf(gtkw, sizeof gtkw, "%s/fail-seed%" PRIx64 "-cycle%" PRIu64 ".gtkw", o.out_dir, j.seed, fl.cycle);
                simt_dut_t *d2 = simt_dut_new(fst);
                stats_t s2;
                fail_t f2;
                memset(&s2, 0, sizeof s2);
                ctx_t c2 = c;
                c2.n_hist = 0;
                /* re-create the job (the interpreter state was consumed) and run it up to the failure */
                job_t j2;
                memset(&j2, 0, sizeof j2);
                int p2;
                simt_hw_t *h2 = calloc(1, sizeof *h2);
                if (h2 && simt_hw_init(h2, c.prm) == 0)
                    run_planned(&c2, &js, k, d2, h2, &s2, &f2, from, part, 1, fl.cycle + 2, &p2, &j2, NULL);
                if (h2)
                    simt_hw_free(h2);
                free(h2);
                job_free(&j2);
                simt_dut_free(d2);
                /* FST time: reset takes 20 ns, then 10 ns per cycle */
                write_gtkw(o.gtkw_template, gtkw, fst, 20000 + 10000 * from);
                fprintf(stderr, "  waveform: %s (cycles %" PRIu64 "..%" PRIu64 "%s)\n  view:     gtkwave %s\n", fst, from,
                        fl.cycle + 2, part == 0 ? " of the run cut short by the reset in the middle" : "", gtkw);
            }
        } else if (j.kind == JOB_FILE && o.expect >= 0 && (o.expect ? j.n_done != 0 : j.n_err != 0)) {
            fprintf(stderr, "cosim-simt: FAIL: %s: RTL and interpreter agree, but %u warps finished and %u stopped with an "
                    "error%s%s%s; the program is meant to %s (--expect %s)\n", j.name, j.n_done, j.n_err, j.n_err ? " (" : "",
                    j.err_kind, j.n_err ? ")" : "", o.expect ? "stop every warp with an error" : "finish on every warp",
                    o.expect ? "error" : "done");
            rc = 1;
        } else if (!o.quiet && ((j.kind != JOB_RANDOM && j.kind != JOB_WORDS) || (k - (uint64_t)np) % 100 == 99)) {
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
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
    if (o.replay_fst) {
        if (rc == 0)
            fprintf(stderr, "cosim-simt: --replay-fst: the failure did not reproduce in the FST build\n");
        return rc ? rc : 1;
    }
    if (o.waves) {
        char gtkw[1024];
        snprintf(gtkw, sizeof gtkw, "%s.gtkw", o.waves);
        write_gtkw(o.gtkw_template, gtkw, o.waves, 0);
        printf("cosim-simt: waveform %s, view %s\n", o.waves, gtkw);
    }
    printf("cosim-simt: %" PRIu64 " jobs, %" PRIu64 " cycles, %" PRIu64 " warp instructions (%" PRIu64
           " thread instructions), %" PRIu64 " values and %" PRIu64 " read-back words checked, %.2f s: %.0f cycles/s, %.0f warp instructions/s"
           " (CPU time %.2f s: %.0f cycles/s, %.0f warp instructions/s)\n",
           st.jobs, st.cycles, st.instrs, st.thread_instrs, st.values, st.readback_words, sec,
           sec > 0 ? (double)st.cycles / sec : 0.0, sec > 0 ? (double)st.instrs / sec : 0.0, cpu,
           cpu > 0 ? (double)st.cycles / cpu : 0.0, cpu > 0 ? (double)st.instrs / cpu : 0.0);
    if (rc == 0 && st.instrs == 0) {
        fprintf(stderr, "cosim-simt: FAIL: zero retired instructions compared\n");
        return 1;
    }
    if (rc == 0)
        printf("PASS\n");
    return rc;
}
