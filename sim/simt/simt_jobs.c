/* The job scheduler of the SIMT lockstep (sim/simt/simt_cosim.h): job k of the list (the planned file, shader
 * and trace-program jobs, then random programs, then random-word programs), resets in the middle of a job,
 * and the reduced configurations' limits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_cosim.h"
#include "simt_sampler.h"

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
        return job_random(j, o, js->prm, o->c.seed + (k - js->np));
    return job_fuzz_words(j, o, js->prm, o->c.seed + (k - js->np - o->programs));
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
 * IMEM_DEPTH instructions, a load or store at [rz+k] inside MEM_WORDS (CONST_WORDS for ld.c). (Addresses from a
 * register are dynamic: the generator's reduced mode keeps them inside; the stack depth is checked after the run
 * from the interpreter's max_sp.) Returns 1 if it fits, else 0 and why. */
int fits_reduced(const opts_t *o, const uint64_t *code, uint32_t len, char *why, size_t cap)
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
        uint32_t op = (uint32_t)ISA_GET(code[pc], OP), ofs = (uint32_t)ISA_GET(code[pc], OFS);
        if (op >= ISA_OP_LD_A && op <= ISA_OP_ST_O && ra == 63u &&
            ofs >= (op == ISA_OP_LD_C ? o->sz.const_words : o->sz.mem_words)) {
            snprintf(why, cap, "pc %u accesses word %u, %s is %u", pc, ofs, op == ISA_OP_LD_C ? "CONST_WORDS" : "MEM_WORDS",
                     op == ISA_OP_LD_C ? o->sz.const_words : o->sz.mem_words);
            return 0;
        }
        if (d.cls == SIMT_CLS_SFU && !o->sz.has_sfu) {
            snprintf(why, cap, "pc %u is an SFU opcode, HAS_SFU is 0", pc);
            return 0;
        }
    }
    return 1;
}

int run_planned(ctx_t *c, const jobs_t *js, uint64_t k, simt_dut_t *dut, simt_hw_t *hw, stats_t *st,
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

