/* Programs and their inputs for the SIMT lockstep (sim/simt/simt_cosim.h): random programs (isa_gen, one seed
 * each), random-word programs, assembly text, a trace's instruction words. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "isa/isa_gen.h"
#include "simt_cosim.h"
#include "simt_sampler.h"

void job_free(job_t *j)
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

int job_alloc(job_t *j, uint32_t nw)
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

int job_load(job_t *j, int no_fp)
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

static int job_random_d(job_t *j, const opts_t *o, simt_hw_params_t prm, uint64_t seed, uint32_t attempt);

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

int job_random(job_t *j, const opts_t *o, simt_hw_params_t prm, uint64_t seed)
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

int job_fuzz_words(job_t *j, const opts_t *o, simt_hw_params_t prm, uint64_t seed)
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

int job_asm(job_t *j, const char *name, const char *text, uint64_t seed, uint32_t nw, uint32_t wid0,
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
int job_words(job_t *j, const char *name, const uint64_t *words, uint32_t n, uint64_t seed, uint32_t nw,
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

