/* One job of the SIMT lockstep on the lockstep driver (sim/common/lockstep.h; sim/simt/simt_cosim.h): the
 * verilated core (simt_dut.h) against the C cycle model (cmodel/simt/simt_hw.h), every output port every cycle,
 * the retired instructions, read-back and final status against the ISA interpreter (simt_check.c), the host
 * side of the ports (simt_host.c). Here: the unit for the driver (drive, eval, clock, the fields of the ports,
 * the history records, the report's notes and the reproduce command). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_cosim.h"

/* ------------------------------------------------------------------ history */
/* one line of the transaction history, kept raw and formatted only for a report (formatting every issue and
 * retire cost ~5 % of the run time) */
void hist_add(ctx_t *c, uint64_t cycle, hist_kind_t kind, uint32_t warp, uint32_t pc, uint32_t active, uint32_t wmask,
              uint64_t insn)
{
    hist_t *h = ls_hist_add(&c->ls);
    h->cycle = cycle;
    h->kind = kind;
    h->warp = warp;
    h->pc = pc;
    h->active = active;
    h->wmask = wmask;
    h->insn = insn;
}

static void sc_hist_print(void *u, FILE *f, const void *rec)
{
    const hist_t *h = rec;
    (void)u;
    char dis[96];
    dis[0] = 0;
    if (h->kind == HIST_RETIRE || h->kind == HIST_ISSUE)
        isa_disasm_insn(h->insn, dis, sizeof dis);
    if (h->kind == HIST_RETIRE)
        fprintf(f, "    cycle %-8" PRIu64 " RETIRE warp %u pc %-4u active=%08x wmask=%08x %s\n", h->cycle, h->warp,
                h->pc, h->active, h->wmask, dis);
    else if (h->kind == HIST_ISSUE)
        fprintf(f, "    cycle %-8" PRIu64 " ISSUE  warp %u pc %-4u %s\n", h->cycle, h->warp, h->pc, dis);
    else if (h->kind == HIST_IDLE)
        fprintf(f, "    cycle %-8" PRIu64 " IDLE   job done (%" PRIu64 " cycles of execution)\n", h->cycle, h->insn);
    else
        fprintf(f, "    cycle %-8" PRIu64 " RESET  in the middle (after %" PRIu64 " cycles of execution); the job runs again\n",
                h->cycle, h->insn);
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

/* The command that re-runs the failing job alone: bin + the job's arguments. */
void repro_cmd(const opts_t *o, const job_t *j, const char *bin, char *cmd, size_t cap)
{
    int m = snprintf(cmd, cap, "%s", bin);
    if (j->kind == JOB_RANDOM)
        m += snprintf(cmd + m, cap - (size_t)m, " --seed 0x%" PRIx64 " --programs 1", j->seed);
    else if (j->kind == JOB_WORDS)
        m += snprintf(cmd + m, cap - (size_t)m, " --seed 0x%" PRIx64 " --programs 0 --fuzz-words 1", j->seed);
    else if (j->kind == JOB_FILE)
        m += snprintf(cmd + m, cap - (size_t)m, " --program %s --seed 0x%" PRIx64 " --warps %u --programs 0",
                      o->program, o->c.seed, o->warps);
    else if (j->kind == JOB_TRACEPROG)
        m += snprintf(cmd + m, cap - (size_t)m, " --trace-programs %s --only '%s' --seed 0x%" PRIx64 " --programs 0",
                      o->trace_progs, j->name, o->c.seed);
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

/* ------------------------------------------------------------------ one job in lockstep */
typedef struct {            /* a job's run: what the driver's callbacks see */
    ctx_t *c;
    job_t *j;
    simt_dut_t *dut;
    simt_hw_t *hw;
    stats_t *st;
    fail_t *fl;
    host_t h;
    simt_hw_in_t in;
    simt_hw_out_t od, om;
    uint32_t rb_w, rb_row, rb_word;
    int rb_pending;
    int ports;              /* the report shows the port table */
} run_t;

#define WATCHDOG 4000000u   /* cycles of execution before a job that is not idle fails */

static int sc_fail(run_t *r, int ports)
{
    r->ports = ports;
    return ls_fail(&r->c->ls, r->fl->cycle, r->fl->what);
}

static int sc_drive(void *u, uint64_t cycle)
{
    run_t *r = u;
    if (r->h.phase == 4 && cycle > r->h.run_start && cycle - r->h.run_start > WATCHDOG) {
        r->fl->failed = 1;
        r->fl->cycle = cycle;
        snprintf(r->fl->what, sizeof r->fl->what, "watchdog: not idle after %u cycles", WATCHDOG);
        return sc_fail(r, 0);
    }
    if (r->h.phase == 6 && !r->rb_pending)
        return LS_DONE;
    if (r->j->abort_run && r->h.phase == 4 && cycle >= r->h.run_start + r->j->abort_run)
        return LS_DONE;   /* reset in the middle: the caller resets both and runs the job again */
    host_inputs(r->c, r->j, &r->h, &r->in);
    tex_respond(r->c, cycle, &r->in);
    return LS_OK;
}

static int sc_eval(void *u, uint64_t cycle)
{
    run_t *r = u;
    ctx_t *c = r->c;
    job_t *j = r->j;
    const opts_t *o = c->o;
    simt_hw_out_t *od = &r->od, *om = &r->om;
    simt_dut_eval(r->dut, &r->in, od);
    simt_hw_comb(r->hw, &r->in, om);
    if (o->inject && cycle == o->inject_cycle) {
        if (od->rt_valid)
            od->rt_val[0] ^= 1u;
        else
            od->idle ^= 1;
    }
    ls_compared(&c->ls);
    if (memcmp(od, om, sizeof *od) != 0) {
        field_t f[256];
        int n = collect_fields(od, om, c->prm.lanes, f, 256), nd = 0;
        for (int i = 0; i < n; i++)
            nd += f[i].dut != f[i].model;
        if (nd) {
            r->fl->failed = 1;
            r->fl->cycle = cycle;
            snprintf(r->fl->what, sizeof r->fl->what, "RTL and C cycle model disagree (%d port fields)", nd);
            return sc_fail(r, 1);
        }
    }
    if (od->issue_valid)
        hist_add(c, cycle, HIST_ISSUE, od->issue_warp, od->issue_pc, 0, 0, r->hw->w[od->issue_warp].ibuf);
    tex_request(c, j, od, cycle);
    if (check_retire(c, j, od, cycle, r->st, r->fl))
        return sc_fail(r, 0);
    if (r->rb_pending) {
        if (check_readback(c, j, od, r->rb_w, r->rb_row, r->rb_word, cycle, r->st, r->fl))
            return sc_fail(r, 0);
        r->rb_pending = 0;
    }
    if (r->h.phase == 5) {
        r->rb_pending = 1;
        r->rb_w = r->h.w;
        r->rb_row = r->h.row;
        r->rb_word = r->h.word;
    }
    int was_run = r->h.phase == 4;
    host_advance(c, j, &r->h, od, cycle);
    if (was_run && r->h.phase != 4) {
        if (check_final(j, od, cycle, r->fl))
            return sc_fail(r, 0);
        hist_add(c, cycle, HIST_IDLE, 0, 0, 0, 0, cycle - r->h.run_start);
    }
    return LS_OK;
}

static void sc_clock(void *u)
{
    run_t *r = u;
    simt_dut_clock(r->dut);
    simt_hw_clock(r->hw, &r->in);
}

static void sc_dump(void *u, int on) { simt_dut_dump(((run_t *)u)->dut, on); }

static void sc_detail(void *u, FILE *f, const char *why)
{
    const run_t *r = u;
    const job_t *j = r->j;
    (void)why;
    if (j->abort_run)
        fprintf(f, "  note: this run is cut short by a reset in the middle after %u cycles of execution (--abort-every)\n",
                j->abort_run);
    if (j->reset_after)
        fprintf(f, "  note: RESET in the middle of this job after %u cycles of execution, then this run from the upload on (--abort-every)\n",
                j->reset_after);
    if (!r->ports)
        return;
    field_t fl[256];
    int n = collect_fields(&r->od, &r->om, r->c->prm.lanes, fl, 256);
    ls_field_head(f, 14, "C cycle model");
    for (int i = 0; i < n; i++)
        if (fl[i].dut != fl[i].model || i < 24)
            ls_field(f, 14, fl[i].name, fl[i].dut, fl[i].model);
}

static void sc_cmd(void *u, FILE *f, int near)
{
    const run_t *r = u;
    char cmd[1024];
    (void)near;
    repro_cmd(r->c->o, r->j, r->c->o->argv0, cmd, sizeof cmd);
    fputs(cmd, f);
}

static const ls_unit_t simt_unit = {
    .tool = TOOL,
    .unit = "simt_core",
    .drive = sc_drive,
    .eval = sc_eval,
    .clock = sc_clock,
    .dump = sc_dump,
    .detail = sc_detail,
    .hist_print = sc_hist_print,
    .cmd = sc_cmd,
    .hist_depth = HIST,
    .hist_rec = sizeof(hist_t),
};

/* The context of a run of jobs: the driver's history lives across its jobs. */
int ctx_init(ctx_t *c, const opts_t *o, simt_hw_params_t prm)
{
    memset(c, 0, sizeof *c);
    c->o = o;
    c->prm = prm;
    c->g = simt_hw_derive(prm);
    c->job_opt = o->c;
    return ls_init(&c->ls, &simt_unit, &c->job_opt, o->argv0);
}

/* Runs job j in lockstep. dump_from: cycle from which the waveform is dumped (UINT64_MAX: never).
 * Returns 0 pass, 1 mismatch (report printed unless silent). */
int run_job(ctx_t *c, job_t *j, simt_dut_t *dut, simt_hw_t *hw, stats_t *st, fail_t *fl, uint64_t dump_from,
            int silent, uint64_t stop_at)
{
    /* the DUT and the model live across jobs: both are reset (memories keep their contents) */
    simt_dut_reset(dut);
    simt_hw_reset(hw);
    memset(c->texq_v, 0, sizeof c->texq_v);
    c->cur_v = 0;
    run_t r;
    memset(&r, 0, sizeof r);
    r.c = c;
    r.j = j;
    r.dut = dut;
    r.hw = hw;
    r.st = st;
    r.fl = fl;
    if (j->len == 0)
        r.h.phase = 1;
    memset(fl, 0, sizeof *fl);
    /* the report names the job and its seed */
    c->job_opt.seed = j->seed;
    snprintf(c->ls.params, sizeof c->ls.params, "LANES=%u WARPS=%u FPU_LAT=%u SFU_LAT=%u TEX_LAT=%u job=\"%s\"",
             c->prm.lanes, c->prm.warps, c->prm.fpu_lat, c->prm.sfu_lat, c->prm.tex_lat, j->name);
    ls_start(&c->ls, &r, dump_from != UINT64_MAX ? "dut" : NULL, dump_from, stop_at, !silent, 0);
    int rc = ls_run(&c->ls) == LS_FAIL;
    st->cycles += c->ls.cycle;
    st->port_checks += c->ls.port_checks;
    st->jobs++;
    c->ls.user = NULL;
    return rc;
}
