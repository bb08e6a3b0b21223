/* Lockstep co-simulation of the primitive exchanger: verilated RTL (pe_dut.h) against the C cycle model
 * (cmodel/pe/pe_hw.h), every output port every cycle, driven by a C environment model of the other N-1
 * GPUs and of the P2G, and every result checked against an independently computed expectation (SPEC 4.2:
 * GPU k receives exactly [p in application order | bit k of mask(p)], each once, then end-of-batch) and
 * that expectation against the golden model's exchange (cmodel/pe/pe.c pe_run) on the same data.
 *
 * The run is a sequence of independent scenarios (the DUT is reset between them), each generated from
 * (seed, scenario index): N, this GPU's id k, topology, runahead, 1..8 batches of 0, 1, tens, hundreds or
 * thousands of primitives split into the N chunks, mask mixes, and the timing knobs (P2G valid gaps, output
 * and per-port TX backpressure, RX arrival latency, gaps and bursts). `--scenario K` replays scenario K
 * alone: that is the reproduce command, and it starts at the failing scenario's reset.
 *
 * The environment model (the P2G and the other N-1 GPUs) is sim/pe/pe_env.h; the run loop, history, report,
 * failure window and argument parsing are the lockstep driver's (sim/common/lockstep.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/rng.h"
#include "pe/pe_hw.h"
#include "pe_dut.h"
#include "pe_env.h"
#include "link/flit.h"
#include "link/net.h"
#include "pe/pe.h"
#include "../common/lockstep.h"

#define HIST 32
#define TOOL "cosim-pe"

typedef struct {
    ls_common_t c;             /* seed, out_dir, window, waves, gtkw, quiet */
    uint32_t scenarios;        /* at least this many scenarios */
    uint64_t flits;            /* and continue until this many flits were exchanged */
    ls_list_t gpus;
    uint32_t size;             /* largest batch (primitives) */
    int64_t only;              /* --scenario K: only this one (-1: all) */
    int inject;
    uint64_t inject_cycle;
    uint64_t inject_drop;      /* the environment loses its inject_drop-th PRIM flit to this GPU (0: never) */
    uint32_t golden;           /* cross-check the expectation with pe_run on the first this many scenarios */
} opts_t;

typedef struct {
    uint64_t cycle;
    char what[8];
    uint64_t a, b;
    uint32_t c;
} hist_t;

typedef struct {
    uint64_t cycles, flits, tx_flits, rx_flits, in_beats, out_beats, port_checks, item_checks, scenarios;
    uint64_t lq_full, bank_full, in_blocked, rx_blocked, tx_both, rx_both, tx_stalled, out_stalled;
    uint64_t golden_checks;
    uint64_t fail_cycle;
    int64_t fail_scenario;
} stats_t;

typedef struct {
    const opts_t *o;
    pe_hw_params_t prm;
    const pe_scen_t *s;
    uint32_t idx;
    const char *argv0;
    /* the scenario being run */
    ls_t ls;
    pe_dut_t *dut;
    pe_hw_t hw;
    pe_env_t env;
    stats_t *st;
    pe_hw_in_t in;
    pe_hw_out_t d, m;
    char why[512];
} ctx_t;

/* ------------------------------------------------------------------------------------------ helpers */
static void hist_add(ctx_t *c, uint64_t cycle, const char *what, uint64_t a, uint64_t b, uint32_t cc)
{
    hist_t *h = ls_hist_add(&c->ls);
    h->cycle = cycle;
    snprintf(h->what, sizeof h->what, "%s", what);
    h->a = a;
    h->b = b;
    h->c = cc;
}

static void print_flit(FILE *f, uint64_t x)
{
    uint32_t t = flit_type(x);
    fprintf(f, "0x%016" PRIx64 " (%s src=%u dst=%u tag=%u payload=%u)", x,
            t == FLIT_TYPE_PRIM ? "PRIM" : t == FLIT_TYPE_LAST ? "LAST" : "????", flit_src(x), flit_dst(x),
            flit_tag(x), flit_payload(x));
}

/* ------------------------------------------------------------------------------------------ the unit */
static void pe_cmd(void *u, FILE *f, int near)
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

static int ports_differ(const pe_hw_out_t *a, const pe_hw_out_t *b)
{
    if (a->in_ready != b->in_ready || a->out_valid != b->out_valid || a->busy != b->busy || a->cur_tag != b->cur_tag ||
        a->err != b->err)
        return 1;
    for (int p = 0; p < PE_HW_PORTS; p++) {
        if (a->tx_valid[p] != b->tx_valid[p] || a->rx_ready[p] != b->rx_ready[p]) return 1;
        if (a->tx_valid[p] && a->tx_flit[p] != b->tx_flit[p]) return 1;
    }
    if (a->out_valid && (a->out_eob != b->out_eob || a->out_tag != b->out_tag || a->out_prim_id != b->out_prim_id))
        return 1;
    return 0;
}

static void pe_detail(void *u, FILE *f, const char *why)
{
    const ctx_t *c = u;
    const pe_hw_out_t *dut = &c->d, *mdl = &c->m;
    (void)why;
    fprintf(f, "  scenario: %s\n", c->s->desc);
    ls_field_head(f, 14, "C cycle model");
    ls_field(f, 14, "in_ready", dut->in_ready, mdl->in_ready);
    ls_field(f, 14, "tx0_valid", dut->tx_valid[0], mdl->tx_valid[0]);
    ls_field(f, 14, "tx0_flit", dut->tx_flit[0], mdl->tx_flit[0]);
    ls_field(f, 14, "tx1_valid", dut->tx_valid[1], mdl->tx_valid[1]);
    ls_field(f, 14, "tx1_flit", dut->tx_flit[1], mdl->tx_flit[1]);
    ls_field(f, 14, "rx0_ready", dut->rx_ready[0], mdl->rx_ready[0]);
    ls_field(f, 14, "rx1_ready", dut->rx_ready[1], mdl->rx_ready[1]);
    ls_field(f, 14, "out_valid", dut->out_valid, mdl->out_valid);
    ls_field(f, 14, "out_eob", dut->out_eob, mdl->out_eob);
    ls_field(f, 14, "out_tag", dut->out_tag, mdl->out_tag);
    ls_field(f, 14, "out_prim_id", dut->out_prim_id, mdl->out_prim_id);
    ls_field(f, 14, "busy", dut->busy, mdl->busy);
    ls_field(f, 14, "cur_tag", dut->cur_tag, mdl->cur_tag);
    ls_field(f, 14, "err", dut->err, mdl->err);
    fprintf(f, "  (tx flits and out data are compared only while valid)\n");
}

static void pe_hist_print(void *u, FILE *f, const void *rec)
{
    const hist_t *h = rec;
    (void)u;
    fprintf(f, "    cycle %-9" PRIu64 " %-4s ", h->cycle, h->what);
    if (!strcmp(h->what, "IN"))
        fprintf(f, "%s tag=%" PRIu64 " id=%u mask=0x%" PRIx64 "\n", (h->c & 1) ? "END" : "entry", h->a >> 32,
                (uint32_t)h->a, h->b);
    else if (!strcmp(h->what, "OUT"))
        fprintf(f, "%s tag=%" PRIu64 " id=%" PRIu64 "\n", h->c ? "eob" : "prim", h->a, h->b);
    else {
        print_flit(f, h->a);
        fprintf(f, "\n");
    }
}

static int pe_drive(void *u, uint64_t cycle)
{
    ctx_t *c = u;
    pe_env_drive(&c->env, cycle, &c->in);
    return LS_OK;
}

/* DUT and cycle model on this cycle's inputs, every port compared; the environment reacts to the handshakes
 * and checks every output against the expectation (SPEC 4.2). */
static int pe_eval(void *u, uint64_t cycle)
{
    ctx_t *c = u;
    const opts_t *o = c->o;
    stats_t *st = c->st;
    const pe_hw_in_t *in = &c->in;
    const pe_hw_out_t *m = &c->m;
    pe_dut_eval(c->dut, &c->in, &c->d);
    pe_hw_comb(&c->hw, &c->in, &c->m);
    if (o->inject && cycle == o->inject_cycle) c->m.busy ^= 1;   /* test hook of the failure path */
    ls_compared(&c->ls);
    if (ports_differ(&c->d, &c->m)) return ls_fail(&c->ls, cycle, "RTL and C cycle model disagree");
    /* statistics of the corners reached, transaction history */
    if (c->hw.lq_cnt == c->prm.lq_depth) st->lq_full++;
    if (c->hw.bk_cnt[0] == c->prm.rq_depth || c->hw.bk_cnt[1] == c->prm.rq_depth) st->bank_full++;
    if (in->in_valid && !m->in_ready) st->in_blocked++;
    if ((in->rx_valid[0] && !m->rx_ready[0]) || (in->rx_valid[1] && !m->rx_ready[1])) st->rx_blocked++;
    if ((m->tx_valid[0] && !in->tx_ready[0]) || (m->tx_valid[1] && !in->tx_ready[1])) st->tx_stalled++;
    if (m->out_valid && !in->out_ready) st->out_stalled++;
    int progress = 0, rxf = 0, txf = 0;
    if (in->in_valid && m->in_ready) {
        hist_add(c, cycle, "IN", ((uint64_t)in->in_tag << 32) | in->in_prim_id, in->in_mask, (uint32_t)in->in_end);
        st->in_beats++;
        progress = 1;
    }
    for (int p = 0; p < 2; p++) {
        if (in->rx_valid[p] && m->rx_ready[p]) {
            hist_add(c, cycle, p ? "RX1" : "RX0", in->rx_flit[p], 0, 0);
            st->rx_flits++;
            rxf++;
        }
        if (m->tx_valid[p] && in->tx_ready[p]) {
            hist_add(c, cycle, p ? "TX1" : "TX0", m->tx_flit[p], 0, 0);
            st->tx_flits++;
            txf++;
        }
    }
    if (rxf == 2) st->rx_both++;
    if (txf == 2) st->tx_both++;
    if (m->out_valid && in->out_ready) {
        hist_add(c, cycle, "OUT", m->out_tag, m->out_prim_id, (uint32_t)m->out_eob);
        st->out_beats++;
        st->item_checks++;
        progress = 1;
    }
    if (rxf || txf) progress = 1;
    if (pe_env_observe(&c->env, in, m, c->why, sizeof c->why)) return ls_fail(&c->ls, cycle, c->why);
    if (progress) ls_progress(&c->ls);
    return pe_env_finished(&c->env, m) ? LS_DONE : LS_OK;
}

static void pe_clock(void *u)
{
    ctx_t *c = u;
    pe_dut_clock(c->dut);
    pe_hw_clock(&c->hw, &c->in);
}

static void pe_dump(void *u, int on) { pe_dut_dump(((ctx_t *)u)->dut, on); }

static const ls_unit_t pe_unit = {
    .tool = TOOL,
    .unit = "pe_exchanger",
    .drive = pe_drive,
    .eval = pe_eval,
    .clock = pe_clock,
    .dump = pe_dump,
    .detail = pe_detail,
    .hist_print = pe_hist_print,
    .cmd = pe_cmd,
    .hist_depth = HIST,
    .hist_rec = sizeof(hist_t),
    .watchdog = 20000,
    .watchdog_what = "no handshake on any port (deadlock)",
};

/* Run scenario idx on dut. fst: waveform path (NULL: none), dump_from: first cycle dumped; stop_at: stop after
 * this cycle. Returns 0 pass, 1 fail (st->fail_cycle). */
static int run_scenario(ctx_t *c, pe_dut_t *dut, const pe_scen_t *s, const char *fst, uint64_t dump_from, uint64_t stop_at,
                        int report_failures, stats_t *st)
{
    const opts_t *o = c->o;
    c->s = s;
    c->dut = dut;
    c->st = st;
    if (pe_hw_init(&c->hw, c->prm)) { fprintf(stderr, "cosim-pe: bad parameters\n"); return 1; }
    if (ls_init(&c->ls, &pe_unit, &o->c, c->argv0)) {
        fprintf(stderr, "cosim-pe: out of memory\n");
        return 1;
    }
    ls_start(&c->ls, c, fst, dump_from, stop_at, report_failures, 0);
    snprintf(c->ls.params, sizeof c->ls.params, "MAX_GPUS=%u LQ_DEPTH=%u RQ_DEPTH=%u", c->prm.max_gpus,
             c->prm.lq_depth, c->prm.rq_depth);
    snprintf(c->ls.where, sizeof c->ls.where, " scenario=%u", c->idx);
    c->ls.waiting = 1;   /* the watchdog counts every cycle without a handshake */
    pe_env_init(&c->env, s, o->c.seed, c->idx, o->inject_drop);
    memset(&c->in, 0, sizeof c->in);
    int rc = ls_run(&c->ls), fail = rc == LS_FAIL;
    if (rc == LS_DONE) {
        /* one more compare of the idle state after the last edge */
        uint64_t cycle = c->ls.cycle;
        pe_env_drive(&c->env, cycle, &c->in);
        pe_dut_eval(dut, &c->in, &c->d);
        pe_hw_comb(&c->hw, &c->in, &c->m);
        ls_compared(&c->ls);
        if (ports_differ(&c->d, &c->m) || c->m.busy)
            fail = ls_fail(&c->ls, cycle, "ports differ (or busy) after the last batch") == LS_FAIL;
        else if (pe_env_final_check(&c->env, c->why, sizeof c->why))
            fail = ls_fail(&c->ls, cycle - 1, c->why) == LS_FAIL;
    }
    st->cycles += c->ls.cycle;
    st->port_checks += c->ls.port_checks;
    st->fail_cycle = fail ? c->ls.fail_cycle : c->ls.cycle;
    pe_env_free(&c->env);
    ls_free(&c->ls);
    return fail;
}

/* ------------------------------------------------------------------------------------------ main */
static uint32_t clog2(uint32_t v) { uint32_t r = 0; while ((1u << r) < v) r++; return r; }

/* The saved view's widths for this build: masks are MAX_GPUS wide, queue counters $clog2(DEPTH+1); a 1-bit
 * one is written without a range. */
static uint32_t pe_view_width_of(const char *name, size_t len, const char *range, void *ctx)
{
    const pe_hw_params_t *prm = ctx;
    static const char *masks[] = {"in_mask_i", "head_mask", "lasts0_q", "lasts1_q", "rem_q"};
    (void)range;
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++)
        if (gtkw_view_name_is(name, len, masks[i])) return prm->max_gpus;
    if (gtkw_view_name_is(name, len, "lq_cnt")) return clog2(prm->lq_depth + 1);
    if (gtkw_view_name_is(name, len, "bk0_cnt") || gtkw_view_name_is(name, len, "bk1_cnt")) return clog2(prm->rq_depth + 1);
    return 0;
}

static uint32_t pe_view_width(const char *name, size_t len, const char *range, void *ctx)
{
    uint32_t w = pe_view_width_of(name, len, range, ctx);
    return w == 1 ? GTKW_VIEW_SCALAR : w;
}

/* the failing scenario replayed alone on a new DUT, with the FST window */
typedef struct {
    ctx_t *c;
    const pe_scen_t *s;
} replay_t;

static void pe_replay(void *u, const char *fst, uint64_t from, uint64_t to)
{
    const replay_t *rp = u;
    pe_dut_t *d2 = pe_dut_new(fst);
    stats_t st2;
    memset(&st2, 0, sizeof st2);
    run_scenario(rp->c, d2, rp->s, fst, from, to, 0, &st2);
    pe_dut_free(d2);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: cosim-pe [--seed S|random] [--scenarios K] [--flits F] [--gpus 1,2,3,16,64] [--size P]\n"
            "                [--scenario I] [--out-dir DIR] [--window W] [--gtkw VIEW.gtkw] [--waves FILE.fst]\n"
            "                [--inject-fault CYCLE] [--inject-drop K] [--golden G] [--quiet]\n"
            "  Runs scenarios 0, 1, ... until at least K ran and F flits (TX + RX handshakes) were exchanged;\n"
            "  --scenario I runs scenario I alone (the reproduce command). P: largest batch in primitives.\n"
            "  Test hooks: --inject-fault flips the model's busy at CYCLE of each scenario; --inject-drop loses the\n"
            "  K-th PRIM flit the environment sends to this GPU (only the SPEC 4.2 checker can see that).\n"
            "  G: the expectation is checked against the golden model's pe_run on scenarios 0..G-1 (default 100).\n");
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.c.seed = 1;
    o.scenarios = 40;
    o.gpus.v[0] = 1; o.gpus.v[1] = 2; o.gpus.v[2] = 3; o.gpus.v[3] = 16; o.gpus.v[4] = 64; o.gpus.n = 5;
    o.size = 4000;
    o.golden = 100;
    o.only = -1;
    o.c.out_dir = "out/cosim/pe";
    o.c.window = 60;
    o.c.gtkw = "tb/pe/pe.gtkw";
    /* every number through common/args.h: whole string, range checked, overflow rejected */
    const ls_opt_t opts[] = {
        {"--quiet", LS_OPT_FLAG, &o.c.quiet, 0, 0, NULL, NULL},
        {"--seed", LS_OPT_SEED, &o.c.seed, 0, 0, NULL, NULL},
        {"--scenarios", LS_OPT_U32, &o.scenarios, 0, 100000000u, NULL, NULL},
        {"--flits", LS_OPT_U64, &o.flits, 0, UINT64_MAX, NULL, NULL},
        {"--gpus", LS_OPT_LIST, &o.gpus, 1, 64, NULL, NULL},
        {"--golden", LS_OPT_U32, &o.golden, 0, UINT32_MAX, NULL, NULL},
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
    if (o.size < 2 || o.size > 1000000) { fprintf(stderr, "cosim-pe: --size must be 2..1000000\n"); return 2; }
    pe_hw_params_t prm = pe_dut_params();
    printf("cosim-pe: MAX_GPUS=%u LQ_DEPTH=%u RQ_DEPTH=%u seed=0x%" PRIx64 " gpus=", prm.max_gpus, prm.lq_depth,
           prm.rq_depth, o.c.seed);
    int usable = ls_list_print(stdout, &o.gpus, prm.max_gpus);
    if (o.only >= 0) printf(" scenario=%" PRId64 "\n", o.only);
    else printf(" scenarios>=%u flits>=%" PRIu64 "\n", o.scenarios, o.flits);
    fflush(stdout);
    if (!usable) { fprintf(stderr, "cosim-pe: FAIL: no GPU count fits MAX_GPUS=%u (nothing to compare)\n", prm.max_gpus); return 1; }

    ctx_t c;
    memset(&c, 0, sizeof c);
    c.o = &o;
    c.prm = prm;
    c.argv0 = argv[0];
    stats_t st;
    memset(&st, 0, sizeof st);
    st.fail_scenario = -1;
    double t0 = ls_wall_s(), c0 = ls_cpu_s();
    pe_dut_t *dut = pe_dut_new(o.c.waves);
    int fail = 0;
    uint64_t hub_sc = 0, line_sc = 0, ra_sc = 0, per_n[65] = {0};
    for (uint32_t idx = ls_scen_first(o.only); ls_scen_runs(o.only, idx, o.scenarios, st.tx_flits + st.rx_flits >= o.flits); idx++) {
        pe_scen_t s;
        pe_scen_make(o.c.seed, idx, o.gpus.v, o.gpus.n, prm.max_gpus, o.size, &s);
        c.idx = idx;
        /* the golden model's exchange is much slower than the lockstep (net_step is O(N^2) per step): the
         * expectation is cross-checked on the first --golden scenarios (every configuration class; at N > 16
         * one in five) */
        if ((idx < o.golden && (s.n <= 16 || (idx / 5) % 5 == 0)) || o.only >= 0) {
            char why[512];
            if (pe_scen_golden_check(&s, pe_scen_seed(o.c.seed, idx), why, sizeof why)) {
                fprintf(stderr, "cosim-pe: FAIL: scenario %u (%s): the expectation disagrees with the golden model: %s\n",
                        idx, s.desc, why);
                pe_scen_free(&s);
                fail = 1;
                break;
            }
            st.golden_checks++;
        }
        if (idx != ls_scen_first(o.only)) pe_dut_reset(dut);
        uint64_t before = st.tx_flits + st.rx_flits, cyc_before = st.cycles;
        if (run_scenario(&c, dut, &s, o.c.waves, 0, UINT64_MAX, 1, &st)) {
            st.fail_scenario = idx;
            fail = 1;
            /* replay the failing scenario alone with a waveform of the window around the failure */
            pe_dut_free(dut);
            dut = NULL;
            replay_t rp = {&c, &s};
            ls_scen_fail_window(TOOL, &o.c, st.fail_cycle, idx, pe_replay, &rp, pe_view_width, &prm);
            pe_scen_free(&s);
            break;
        }
        st.scenarios++;
        per_n[s.n]++;
        if (s.topo == PE_TOPO_HUB) hub_sc++; else line_sc++;
        ra_sc += s.ra;
        if (!o.c.quiet)
            printf("  scenario %-4u %s: %" PRIu64 " cycles, %" PRIu64 " flits, PASS\n", idx, s.desc, st.cycles - cyc_before, st.tx_flits + st.rx_flits - before);
        pe_scen_free(&s);
    }
    if (dut) pe_dut_free(dut);
    double secs = ls_wall_s() - t0, cpu = ls_cpu_since(c0);   /* CPU: the rate an idle core would see */
    if (o.c.waves) ls_waves_view(TOOL, &o.c, 0, pe_view_width, &prm, 0);
    if (fail) {
        fprintf(stderr, "cosim-pe: FAIL\n");
        return 1;
    }
    uint64_t flits = st.tx_flits + st.rx_flits;
    printf("cosim-pe: %" PRIu64 " scenarios (line %" PRIu64 ", hub %" PRIu64 ", runahead %" PRIu64 "; per N:", st.scenarios,
           line_sc, hub_sc, ra_sc);
    ls_per_n_print(stdout, per_n);
    printf("), %" PRIu64 " cycles, %" PRIu64 " flits (tx %" PRIu64 ", rx %" PRIu64 "), %" PRIu64 " P2G beats, %" PRIu64
           " output beats checked, %" PRIu64 " port comparisons, %" PRIu64 " golden-model cross-checks\n",
           st.cycles, flits, st.tx_flits, st.rx_flits, st.in_beats, st.item_checks, st.port_checks, st.golden_checks);
    printf("cosim-pe: corners: LQ full %" PRIu64 " cycles, a bank full %" PRIu64 ", P2G held off %" PRIu64
           ", rx held off %" PRIu64 ", tx stalled %" PRIu64 ", out stalled %" PRIu64 ", 2 tx flits/cycle %" PRIu64
           ", 2 rx flits/cycle %" PRIu64 "\n",
           st.lq_full, st.bank_full, st.in_blocked, st.rx_blocked, st.tx_stalled, st.out_stalled, st.tx_both, st.rx_both);
    printf("cosim-pe: %.2f s wall, %.2f s CPU; per CPU second: %.2f Mcycles/s, %.2f Mflits/s (wall: %.2f Mcycles/s)\n", secs,
           cpu, (double)st.cycles / cpu / 1e6, (double)flits / cpu / 1e6, (double)st.cycles / secs / 1e6);
    if (ls_require(TOOL, st.item_checks && st.port_checks, "output comparisons")) return 1;
    printf("cosim-pe: PASS\n");
    return 0;
}
