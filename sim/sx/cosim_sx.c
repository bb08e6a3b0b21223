/* Lockstep co-simulation of the stream PE: verilated RTL (sx_dut.h) against the C cycle model
 * (cmodel/stream/sx_hw.h), every output port every cycle, driven by the environment model of the P2G and the
 * other N-1 GPUs (sim/sx/sx_env.h), whose checkers compare every TX flit and every released id with the
 * functional definition (cmodel/stream/sx.c).
 *
 * The run is a sequence of independent scenarios (the DUT is reset between them), each generated from (seed,
 * scenario index); scenarios 0..11 are directed (each configuration field changed alone from a base, full
 * buffers, credits withheld, N = 1, N = MAX_GPUS). `--scenario K` replays scenario K alone: that is the
 * reproduce command. The run loop, history, report, failure window and argument parsing are the lockstep
 * driver's (sim/common/lockstep.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "link/flit.h"
#include "stream/sx_hw.h"
#include "sx_dut.h"
#include "sx_env.h"
#include "../common/lockstep.h"

#define HIST 32
#define TOOL "cosim-sx"

typedef struct {
    ls_common_t c;
    uint32_t scenarios;
    uint64_t cycles_min;       /* continue until this many cycles were run */
    ls_list_t gpus;
    uint32_t size;
    int64_t only;
    int inject;
    uint64_t inject_cycle;
    uint64_t inject_drop;
} opts_t;

typedef struct {
    uint64_t cycle;
    char what[8];
    uint64_t a, b;
    uint32_t c;
} hist_t;

typedef struct {
    uint64_t cycles, tx, rx, credits_in, credits_out, beats_in, out_records, port_checks, scenarios;
    uint64_t full, in_blocked, tx_stalled, out_stalled, cr_stall, lanes_k, out_k;
    uint64_t fail_cycle;
} stats_t;

typedef struct {
    const opts_t *o;
    sx_hw_params_t prm;
    const sx_scen_t *s;
    uint32_t idx;
    const char *argv0;
    ls_t ls;
    sx_dut_t *dut;
    sx_hw_t hw;
    sx_env_t env;
    stats_t *st;
    sx_hw_in_t in;
    sx_hw_out_t d, m;
    sx_hw_dec_t dec;           /* the model's decisions of this cycle (sx_hw_eval -> sx_hw_apply) */
    char why[512];
} ctx_t;

static void hist_add(ctx_t *c, uint64_t cycle, const char *what, uint64_t a, uint64_t b, uint32_t cc)
{
    hist_t *h = ls_hist_add(&c->ls);
    h->cycle = cycle;
    strncpy(h->what, what, sizeof h->what - 1);   /* what: at most 4 characters */
    h->what[sizeof h->what - 1] = 0;
    h->a = a;
    h->b = b;
    h->c = cc;
}

static const char *tname(uint32_t t)
{
    return t == FLIT_TYPE_PRIM ? "PRIM" : t == FLIT_TYPE_LAST ? "LAST" : t == FLIT_TYPE_CREDIT ? "CREDIT" : "????";
}

static void sx_cmd(void *u, FILE *f, int near)
{
    const ctx_t *c = u;
    const opts_t *o = c->o;
    (void)near;
    fprintf(f, "%s --seed 0x%" PRIx64 " --scenario %u --gpus ", c->argv0, o->c.seed, c->idx);
    ls_list_print(f, &o->gpus, 0);
    fprintf(f, " --size %u", o->size);
    if (o->inject) fprintf(f, " --inject-fault %" PRIu64, o->inject_cycle);
    if (o->inject_drop) fprintf(f, " --inject-drop %" PRIu64, o->inject_drop);
}

static int ports_differ(const sx_hw_out_t *a, const sx_hw_out_t *b, uint32_t k)
{
    if (a->out_eob != b->out_eob || a->out_tag != b->out_tag || a->rel_last != b->rel_last || a->rel_src != b->rel_src ||
        a->occ != b->occ || a->busy != b->busy || a->err != b->err)
        return 1;
    for (uint32_t j = 0; j < k; j++) {
        if (a->in_ready[j] != b->in_ready[j] || a->out_valid[j] != b->out_valid[j]) return 1;
        if (a->out_valid[j] && a->out_id[j] != b->out_id[j]) return 1;
    }
    for (int p = 0; p < SX_HW_PORTS; p++) {
        if (a->tx_valid[p] != b->tx_valid[p] || a->rx_ready[p] != b->rx_ready[p]) return 1;
        if (a->tx_valid[p] && a->tx_flit[p] != b->tx_flit[p]) return 1;
    }
    return 0;
}

static void sx_detail(void *u, FILE *f, const char *why)
{
    const ctx_t *c = u;
    const sx_hw_out_t *d = &c->d, *m = &c->m;
    char nm[32];
    (void)why;
    fprintf(f, "  scenario: %s\n", c->s->desc);
    ls_field_head(f, 14, "C cycle model");
    for (uint32_t j = 0; j < c->prm.k; j++) {
        snprintf(nm, sizeof nm, "in_ready[%u]", j);
        ls_field(f, 14, nm, d->in_ready[j], m->in_ready[j]);
    }
    ls_field(f, 14, "tx0_valid", d->tx_valid[0], m->tx_valid[0]);
    ls_field(f, 14, "tx0_flit", d->tx_flit[0], m->tx_flit[0]);
    ls_field(f, 14, "tx1_valid", d->tx_valid[1], m->tx_valid[1]);
    ls_field(f, 14, "tx1_flit", d->tx_flit[1], m->tx_flit[1]);
    ls_field(f, 14, "rx0_ready", d->rx_ready[0], m->rx_ready[0]);
    ls_field(f, 14, "rx1_ready", d->rx_ready[1], m->rx_ready[1]);
    for (uint32_t j = 0; j < c->prm.k; j++) {
        snprintf(nm, sizeof nm, "out_valid[%u]", j);
        ls_field(f, 14, nm, d->out_valid[j], m->out_valid[j]);
        snprintf(nm, sizeof nm, "out_id[%u]", j);
        ls_field(f, 14, nm, d->out_id[j], m->out_id[j]);
    }
    ls_field(f, 14, "out_tag", d->out_tag, m->out_tag);
    ls_field(f, 14, "out_eob", d->out_eob, m->out_eob);
    ls_field(f, 14, "rel_last", d->rel_last, m->rel_last);
    ls_field(f, 14, "rel_src", d->rel_src, m->rel_src);
    ls_field(f, 14, "occ", d->occ, m->occ);
    ls_field(f, 14, "busy", d->busy, m->busy);
    ls_field(f, 14, "err", d->err, m->err);
    fprintf(f, "  (tx flits and out ids are compared only while valid)\n");
}

static void sx_hist_print(void *u, FILE *f, const void *rec)
{
    const hist_t *h = rec;
    (void)u;
    fprintf(f, "    cycle %-9" PRIu64 " %-4s ", h->cycle, h->what);
    if (!strcmp(h->what, "IN"))
        fprintf(f, "lane %u %s tag=%" PRIu64 " id=%u mask=0x%" PRIx64 "\n", h->c >> 1, (h->c & 1) ? "END" : "entry",
                h->a >> 32, (uint32_t)h->a, h->b);
    else if (!strcmp(h->what, "OUT"))
        fprintf(f, "%s tag=%" PRIu64 " id=%" PRIu64 " (lane %u)\n", (h->c & 1) ? "eob" : "prim", h->a, h->b, h->c >> 1);
    else {
        uint64_t x = h->a;
        fprintf(f, "0x%016" PRIx64 " (%s src=%u dst=%u tag=%u payload=%u)\n", x, tname(flit_type(x)), flit_src(x),
                flit_dst(x), flit_tag(x), flit_payload(x));
    }
}

static int sx_drive(void *u, uint64_t cycle)
{
    ctx_t *c = u;
    sx_env_drive(&c->env, cycle, &c->in);
    return LS_OK;
}

static int sx_eval(void *u, uint64_t cycle)
{
    ctx_t *c = u;
    const opts_t *o = c->o;
    stats_t *st = c->st;
    const sx_hw_in_t *in = &c->in;
    const sx_hw_out_t *m = &c->m;
    sx_dut_eval(c->dut, &c->in, &c->d);
    sx_hw_eval(&c->hw, &c->in, &c->m, &c->dec);
    if (o->inject && cycle == o->inject_cycle) c->m.busy ^= 1;   /* test hook of the failure path */
    ls_compared(&c->ls);
    if (ports_differ(&c->d, &c->m, c->prm.k)) return ls_fail(&c->ls, cycle, "RTL and C cycle model disagree");
    int progress = 0;
    uint32_t acc = 0;
    for (uint32_t j = 0; j < c->prm.k; j++) {
        if (!(in->in[j].valid && m->in_ready[j])) break;
        hist_add(c, cycle, "IN", ((uint64_t)in->in[j].tag << 32) | in->in[j].id, in->in[j].mask,
                 (uint32_t)in->in[j].end | (j << 1));
        acc++;
    }
    if (acc) progress = 1;
    if (acc == c->prm.k && acc > 1) st->lanes_k++;
    if (in->in[0].valid && !m->in_ready[0]) st->in_blocked++;
    for (int p = 0; p < SX_HW_PORTS; p++) {
        if (in->rx_valid[p] && m->rx_ready[p]) { hist_add(c, cycle, p ? "RX1" : "RX0", in->rx_flit[p], 0, 0); progress = 1; }
        if (m->tx_valid[p] && in->tx_ready[p]) { hist_add(c, cycle, p ? "TX1" : "TX0", m->tx_flit[p], 0, 0); progress = 1; }
        if (m->tx_valid[p] && !in->tx_ready[p]) st->tx_stalled++;
    }
    if (m->out_valid[0] && in->out_ready) {
        uint32_t n = 0;
        for (uint32_t j = 0; j < c->prm.k && m->out_valid[j]; j++, n++)
            hist_add(c, cycle, "OUT", m->out_tag, m->out_id[j], (uint32_t)m->out_eob | (j << 1));
        if (n == c->prm.k && n > 1) st->out_k++;
        progress = 1;
    }
    if (m->out_valid[0] && !in->out_ready) st->out_stalled++;
    if (m->rel_last) progress = 1;
    if (sx_env_observe(&c->env, cycle, in, m, c->why, sizeof c->why)) return ls_fail(&c->ls, cycle, c->why);
    if (progress) ls_progress(&c->ls);
    return sx_env_finished(&c->env, m) ? LS_DONE : LS_OK;
}

static void sx_clock(void *u)
{
    ctx_t *c = u;
    sx_dut_clock(c->dut);
    sx_hw_apply(&c->hw, &c->in, &c->dec);
}

static void sx_dump(void *u, int on) { sx_dut_dump(((ctx_t *)u)->dut, on); }

static const ls_unit_t sx_unit = {
    .tool = TOOL,
    .unit = "sx_pe",
    .drive = sx_drive,
    .eval = sx_eval,
    .clock = sx_clock,
    .dump = sx_dump,
    .detail = sx_detail,
    .hist_print = sx_hist_print,
    .cmd = sx_cmd,
    .hist_depth = HIST,
    .hist_rec = sizeof(hist_t),
    .watchdog = 20000,
    .watchdog_what = "no handshake on any port (deadlock)",
};

static int run_scenario(ctx_t *c, sx_dut_t *dut, const sx_scen_t *s, const char *fst, uint64_t dump_from, uint64_t stop_at,
                        int report, stats_t *st)
{
    const opts_t *o = c->o;
    c->s = s;
    c->dut = dut;
    c->st = st;
    if (sx_hw_init(&c->hw, c->prm)) { fprintf(stderr, TOOL ": bad parameters\n"); return 1; }
    if (ls_init(&c->ls, &sx_unit, &o->c, c->argv0)) { fprintf(stderr, TOOL ": out of memory\n"); sx_hw_free(&c->hw); return 1; }
    ls_start(&c->ls, c, fst, dump_from, stop_at, report, 0);
    snprintf(c->ls.params, sizeof c->ls.params, "MAX_GPUS=%u K=%u DEPTH=%u", c->prm.max_gpus, c->prm.k, c->prm.depth);
    snprintf(c->ls.where, sizeof c->ls.where, " scenario=%u", c->idx);
    c->ls.waiting = 1;
    sx_env_init(&c->env, s, &c->prm, o->c.seed, c->idx, o->inject_drop);
    memset(&c->in, 0, sizeof c->in);
    int rc = ls_run(&c->ls), fail = rc == LS_FAIL;
    if (rc == LS_DONE) {
        uint64_t cycle = c->ls.cycle;
        sx_env_drive(&c->env, cycle, &c->in);
        memset(c->in.in, 0, sizeof c->in.in);
        c->in.rx_valid[0] = c->in.rx_valid[1] = 0;
        sx_dut_eval(dut, &c->in, &c->d);
        sx_hw_comb(&c->hw, &c->in, &c->m);
        ls_compared(&c->ls);
        int cred_ok = 1;
        for (uint32_t d = 0; d < s->n; d++) cred_ok &= d == s->g || c->hw.credit[d] == c->prm.depth;
        if (ports_differ(&c->d, &c->m, c->prm.k) || c->m.busy || c->m.occ)
            fail = ls_fail(&c->ls, cycle, "ports differ (or busy, or slots held) after the last batch") == LS_FAIL;
        else if (!cred_ok)
            fail = ls_fail(&c->ls, cycle, "a credit of the PE did not come back (credit lost)") == LS_FAIL;
    }
    st->cycles += c->ls.cycle;
    st->port_checks += c->ls.port_checks;
    st->tx += c->env.tx_flits;
    st->rx += c->env.rx_flits;
    st->credits_in += c->env.credits_in;
    st->credits_out += c->env.credits_out;
    st->beats_in += c->env.beats_in;
    st->out_records += c->env.out_records;
    st->full += c->env.full_cycles;
    st->cr_stall += c->env.cr_stall_cycles;
    st->fail_cycle = fail ? c->ls.fail_cycle : c->ls.cycle;
    sx_env_free(&c->env);
    ls_free(&c->ls);
    sx_hw_free(&c->hw);
    return fail;
}

static uint32_t clog2(uint32_t v) { uint32_t r = 0; while ((1u << r) < v) r++; return r; }

/* the saved view's build-dependent widths */
static uint32_t sx_view_width(const char *name, size_t len, const char *range, void *ctx)
{
    const sx_hw_params_t *prm = ctx;
    uint32_t cw = clog2(prm->depth + 1) < 5 ? 5 : clog2(prm->depth + 1), w = 0;
    (void)range;
    if (gtkw_view_name_is(name, len, "rem_q") || gtkw_view_name_is(name, len, "cok_m") ||
        gtkw_view_name_is(name, len, "pend_m") || gtkw_view_name_is(name, len, "dec_m"))
        w = prm->max_gpus;
    else if (gtkw_view_name_is(name, len, "in_valid_i") || gtkw_view_name_is(name, len, "in_ready_o") ||
             gtkw_view_name_is(name, len, "in_end_i") || gtkw_view_name_is(name, len, "out_valid_o"))
        w = prm->k;
    else if (gtkw_view_name_is(name, len, "out_id_o") || gtkw_view_name_is(name, len, "in_id_i"))
        w = prm->k * 32;
    else if (gtkw_view_name_is(name, len, "in_tag_i"))
        w = prm->k * 16;
    else if (gtkw_view_name_is(name, len, "in_mask_i"))
        w = prm->k * prm->max_gpus;
    else if (gtkw_view_name_is(name, len, "cnt_q") || gtkw_view_name_is(name, len, "pend_q") ||
             gtkw_view_name_is(name, len, "credit_q"))
        w = prm->max_gpus * cw;
    else if (gtkw_view_name_is(name, len, "rel_pop"))
        w = cw;
    return w == 1 ? GTKW_VIEW_SCALAR : w;
}

typedef struct {
    ctx_t *c;
    const sx_scen_t *s;
} replay_t;

static void sx_replay(void *u, const char *fst, uint64_t from, uint64_t to)
{
    const replay_t *rp = u;
    sx_dut_t *d2 = sx_dut_new(fst);
    stats_t st2;
    memset(&st2, 0, sizeof st2);
    run_scenario(rp->c, d2, rp->s, fst, from, to, 0, &st2);
    sx_dut_free(d2);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: cosim-sx [--seed S|random] [--scenarios K] [--cycles C] [--gpus 1,2,3,16] [--size P]\n"
            "                [--scenario I] [--out-dir DIR] [--window W] [--gtkw VIEW.gtkw] [--waves FILE.fst]\n"
            "                [--inject-fault CYCLE] [--inject-drop K] [--quiet]\n"
            "  Runs scenarios 0, 1, ... until at least K ran and C cycles were simulated; --scenario I runs scenario I\n"
            "  alone (the reproduce command). P: largest batch in primitives. Scenarios 0..11 are directed.\n"
            "  Test hooks: --inject-fault flips the model's busy at CYCLE of each scenario; --inject-drop loses the\n"
            "  K-th data flit the environment sends to this GPU (only the environment's checks can see that).\n");
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.c.seed = 1;
    o.scenarios = 40;
    o.gpus.v[0] = 1; o.gpus.v[1] = 2; o.gpus.v[2] = 3; o.gpus.v[3] = 16; o.gpus.n = 4;
    o.size = 400;
    o.only = -1;
    o.c.out_dir = "out/cosim/sx";
    o.c.window = 60;
    o.c.gtkw = "tb/sx/sx.gtkw";
    const ls_opt_t opts[] = {
        {"--quiet", LS_OPT_FLAG, &o.c.quiet, 0, 0, NULL, NULL},
        {"--seed", LS_OPT_SEED, &o.c.seed, 0, 0, NULL, NULL},
        {"--scenarios", LS_OPT_U32, &o.scenarios, 0, 100000000u, NULL, NULL},
        {"--cycles", LS_OPT_U64, &o.cycles_min, 0, UINT64_MAX, NULL, NULL},
        {"--gpus", LS_OPT_LIST, &o.gpus, 1, 64, NULL, NULL},
        {"--size", LS_OPT_U32, &o.size, 2, 1000000, NULL, NULL},
        {"--scenario", LS_OPT_INDEX, &o.only, 0, 0, NULL, NULL},
        {"--out-dir", LS_OPT_STR, &o.c.out_dir, 0, 0, NULL, NULL},
        {"--window", LS_OPT_U32, &o.c.window, 1, 1000000, NULL, NULL},
        {"--gtkw", LS_OPT_STR, &o.c.gtkw, 0, 0, NULL, NULL},
        {"--waves", LS_OPT_STR, &o.c.waves, 0, 0, NULL, NULL},
        {"--inject-fault", LS_OPT_U64, &o.inject_cycle, 0, UINT64_MAX, NULL, &o.inject},
        {"--inject-drop", LS_OPT_U64, &o.inject_drop, 1, UINT64_MAX, NULL, NULL},
    };
    int prc = ls_parse(TOOL, argc, argv, opts, sizeof opts / sizeof opts[0], &o, usage);
    if (prc) return prc == 1 ? 0 : 2;
    sx_hw_params_t prm = sx_dut_params();
    printf(TOOL ": MAX_GPUS=%u K=%u DEPTH=%u seed=0x%" PRIx64 " gpus=", prm.max_gpus, prm.k, prm.depth, o.c.seed);
    int usable = ls_list_print(stdout, &o.gpus, prm.max_gpus);
    if (o.only >= 0) printf(" scenario=%" PRId64 "\n", o.only);
    else printf(" scenarios>=%u cycles>=%" PRIu64 "\n", o.scenarios, o.cycles_min);
    fflush(stdout);
    if (!usable) { fprintf(stderr, TOOL ": FAIL: no GPU count fits MAX_GPUS=%u (nothing to compare)\n", prm.max_gpus); return 1; }

    ctx_t c;
    memset(&c, 0, sizeof c);
    c.o = &o;
    c.prm = prm;
    c.argv0 = argv[0];
    stats_t st;
    memset(&st, 0, sizeof st);
    double t0 = ls_wall_s(), c0 = ls_cpu_s();
    sx_dut_t *dut = sx_dut_new(o.c.waves);
    int fail = 0;
    uint64_t hub_sc = 0, line_sc = 0, per_n[65] = {0};
    for (uint32_t idx = ls_scen_first(o.only); ls_scen_runs(o.only, idx, o.scenarios, st.cycles >= o.cycles_min); idx++) {
        sx_scen_t s;
        sx_scen_make(o.c.seed, idx, o.gpus.v, o.gpus.n, &prm, o.size, &s);
        c.idx = idx;
        if (idx != ls_scen_first(o.only)) sx_dut_reset(dut);
        uint64_t cyc_before = st.cycles;
        if (run_scenario(&c, dut, &s, o.c.waves, 0, UINT64_MAX, 1, &st)) {
            fail = 1;
            sx_dut_free(dut);
            dut = NULL;
            replay_t rp = {&c, &s};
            ls_scen_fail_window(TOOL, &o.c, st.fail_cycle, idx, sx_replay, &rp, sx_view_width, &prm);
            sx_scen_free(&s);
            break;
        }
        st.scenarios++;
        per_n[s.n]++;
        if (s.topo == SX_TOPO_HUB) hub_sc++; else line_sc++;
        if (!o.c.quiet) printf("  scenario %-4u %s: %" PRIu64 " cycles, PASS\n", idx, s.desc, st.cycles - cyc_before);
        sx_scen_free(&s);
    }
    if (dut) sx_dut_free(dut);
    double secs = ls_wall_s() - t0, cpu = ls_cpu_since(c0);
    if (o.c.waves) ls_waves_view(TOOL, &o.c, 0, sx_view_width, &prm, 0);
    if (fail) { fprintf(stderr, TOOL ": FAIL\n"); return 1; }
    printf(TOOL ": %" PRIu64 " scenarios (line %" PRIu64 ", hub %" PRIu64 "; per N:", st.scenarios, line_sc, hub_sc);
    ls_per_n_print(stdout, per_n);
    printf("), %" PRIu64 " cycles, %" PRIu64 " tx + %" PRIu64 " rx flits (%" PRIu64 " CREDIT in, %" PRIu64
           " CREDIT out), %" PRIu64 " P2G beats, %" PRIu64 " released records checked, %" PRIu64 " port comparisons\n",
           st.cycles, st.tx, st.rx, st.credits_in, st.credits_out, st.beats_in, st.out_records, st.port_checks);
    printf(TOOL ": corners: FIFOs holding >= DEPTH*(N-1) slots %" PRIu64 " cycles, credits withheld %" PRIu64 ", P2G held off %" PRIu64
           ", tx stalled %" PRIu64 ", out stalled %" PRIu64 ", K lanes in one cycle %" PRIu64 ", K ids out in one cycle %" PRIu64 "\n",
           st.full, st.cr_stall, st.in_blocked, st.tx_stalled, st.out_stalled, st.lanes_k, st.out_k);
    printf(TOOL ": %.2f s wall, %.2f s CPU; per CPU second: %.2f Mcycles/s (wall: %.2f Mcycles/s)\n", secs, cpu,
           (double)st.cycles / cpu / 1e6, (double)st.cycles / secs / 1e6);
    if (ls_require(TOOL, st.out_records && st.port_checks, "output comparisons")) return 1;
    printf(TOOL ": PASS\n");
    return 0;
}
