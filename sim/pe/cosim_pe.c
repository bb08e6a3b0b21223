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
 * The environment model (the P2G and the other N-1 GPUs) is sim/pe/pe_env.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/args.h"
#include "common/rng.h"
#include "pe/pe_hw.h"
#include "pe_dut.h"
#include "pe_env.h"
#include "link/flit.h"
#include "link/net.h"
#include "pe/pe.h"
#include "../common/gtkw_view.h"

#define MAX_LIST 16
#define HIST 32

typedef struct {
    uint64_t seed;
    uint32_t scenarios;        /* at least this many scenarios */
    uint64_t flits;            /* and continue until this many flits were exchanged */
    uint32_t gpus[MAX_LIST];
    int n_gpus;
    uint32_t size;             /* largest batch (primitives) */
    int64_t only;              /* --scenario K: only this one (-1: all) */
    int inject;
    uint64_t inject_cycle;
    uint64_t inject_drop;      /* the environment loses its inject_drop-th PRIM flit to this GPU (0: never) */
    const char *out_dir, *waves, *gtkw_template;
    uint32_t window;
    int quiet;
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
    hist_t hist[HIST];
    uint64_t n_hist;
    const char *argv0;
} ctx_t;

/* ------------------------------------------------------------------------------------------ helpers */
static void hist_add(ctx_t *c, uint64_t cycle, const char *what, uint64_t a, uint64_t b, uint32_t cc)
{
    hist_t *h = &c->hist[c->n_hist++ % HIST];
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

/* ------------------------------------------------------------------------------------------ report */
static void print_cmd(const ctx_t *c, FILE *f)
{
    const opts_t *o = c->o;
    fprintf(f, "%s --seed 0x%" PRIx64 " --scenario %u --gpus ", c->argv0, o->seed, c->idx);
    for (int i = 0; i < o->n_gpus; i++) fprintf(f, "%s%u", i ? "," : "", o->gpus[i]);
    fprintf(f, " --size %u", o->size);
    if (o->inject) fprintf(f, " --inject-fault %" PRIu64, o->inject_cycle);
    if (o->inject_drop) fprintf(f, " --inject-drop %" PRIu64, o->inject_drop);
    fprintf(f, "\n");
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

static void report(ctx_t *c, uint64_t cycle, const char *why, const pe_hw_out_t *dut, const pe_hw_out_t *mdl)
{
    const opts_t *o = c->o;
    FILE *f = stderr;
    fprintf(f, "\nCOSIM MISMATCH unit=pe_exchanger MAX_GPUS=%u LQ_DEPTH=%u RQ_DEPTH=%u seed=0x%" PRIx64
               " scenario=%u cycle=%" PRIu64 "\n", c->prm.max_gpus, c->prm.lq_depth, c->prm.rq_depth, o->seed, c->idx, cycle);
    fprintf(f, "  what: %s\n  scenario: %s\n", why, c->s->desc);
    fprintf(f, "  %-14s %-20s %-20s\n", "field", "DUT (RTL)", "C cycle model");
#define ROW(name, a, b) fprintf(f, "  %-14s 0x%-18" PRIx64 " 0x%-18" PRIx64 "%s\n", name, (uint64_t)(a), (uint64_t)(b), (a) != (b) ? "  <-- differs" : "")
    ROW("in_ready", dut->in_ready, mdl->in_ready);
    ROW("tx0_valid", dut->tx_valid[0], mdl->tx_valid[0]);
    ROW("tx0_flit", dut->tx_flit[0], mdl->tx_flit[0]);
    ROW("tx1_valid", dut->tx_valid[1], mdl->tx_valid[1]);
    ROW("tx1_flit", dut->tx_flit[1], mdl->tx_flit[1]);
    ROW("rx0_ready", dut->rx_ready[0], mdl->rx_ready[0]);
    ROW("rx1_ready", dut->rx_ready[1], mdl->rx_ready[1]);
    ROW("out_valid", dut->out_valid, mdl->out_valid);
    ROW("out_eob", dut->out_eob, mdl->out_eob);
    ROW("out_tag", dut->out_tag, mdl->out_tag);
    ROW("out_prim_id", dut->out_prim_id, mdl->out_prim_id);
    ROW("busy", dut->busy, mdl->busy);
    ROW("cur_tag", dut->cur_tag, mdl->cur_tag);
    ROW("err", dut->err, mdl->err);
#undef ROW
    fprintf(f, "  (tx flits and out data are compared only while valid)\n");
    uint64_t first = c->n_hist > HIST ? c->n_hist - HIST : 0;
    fprintf(f, "  last %" PRIu64 " transactions (oldest first):\n", c->n_hist - first);
    for (uint64_t i = first; i < c->n_hist; i++) {
        const hist_t *h = &c->hist[i % HIST];
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
    fprintf(f, "  reproduce: ");
    print_cmd(c, f);
}

/* Run scenario idx. fst: waveform path (NULL: none), dump_from: first cycle dumped; stop_at: stop after
 * this cycle. Returns 0 pass, 1 fail (st->fail_cycle). */
static int run_scenario(ctx_t *c, pe_dut_t *dut, const pe_scen_t *s, const char *fst, uint64_t dump_from, uint64_t stop_at,
                        int report_failures, stats_t *st)
{
    const opts_t *o = c->o;
    c->s = s;
    c->n_hist = 0;
    pe_hw_t hw;
    if (pe_hw_init(&hw, c->prm)) { fprintf(stderr, "cosim-pe: bad parameters\n"); return 1; }
    pe_dut_dump(dut, fst && dump_from == 0);
    pe_env_t env;
    pe_env_init(&env, s, o->seed, c->idx, o->inject_drop);
    pe_hw_in_t in;
    memset(&in, 0, sizeof in);
    uint64_t idle = 0;
    char why[512];
    int fail = 0;
    uint64_t cycle;
    for (cycle = 0;; cycle++) {
        if (fst && cycle == dump_from) pe_dut_dump(dut, 1);
        pe_env_drive(&env, cycle, &in);
        pe_hw_out_t d, m;
        pe_dut_eval(dut, &in, &d);
        pe_hw_comb(&hw, &in, &m);
        if (o->inject && cycle == o->inject_cycle) m.busy ^= 1;   /* test hook of the failure path */
        st->port_checks++;
        if (ports_differ(&d, &m)) {
            if (report_failures) report(c, cycle, "RTL and C cycle model disagree", &d, &m);
            fail = 1;
            break;
        }
        /* statistics of the corners reached, transaction history */
        if (hw.lq_cnt == c->prm.lq_depth) st->lq_full++;
        if (hw.bk_cnt[0] == c->prm.rq_depth || hw.bk_cnt[1] == c->prm.rq_depth) st->bank_full++;
        if (in.in_valid && !m.in_ready) st->in_blocked++;
        if ((in.rx_valid[0] && !m.rx_ready[0]) || (in.rx_valid[1] && !m.rx_ready[1])) st->rx_blocked++;
        if ((m.tx_valid[0] && !in.tx_ready[0]) || (m.tx_valid[1] && !in.tx_ready[1])) st->tx_stalled++;
        if (m.out_valid && !in.out_ready) st->out_stalled++;
        int progress = 0, rxf = 0, txf = 0;
        if (in.in_valid && m.in_ready) {
            hist_add(c, cycle, "IN", ((uint64_t)in.in_tag << 32) | in.in_prim_id, in.in_mask, (uint32_t)in.in_end);
            st->in_beats++;
            progress = 1;
        }
        for (int p = 0; p < 2; p++) {
            if (in.rx_valid[p] && m.rx_ready[p]) {
                hist_add(c, cycle, p ? "RX1" : "RX0", in.rx_flit[p], 0, 0);
                st->rx_flits++;
                rxf++;
            }
            if (m.tx_valid[p] && in.tx_ready[p]) {
                hist_add(c, cycle, p ? "TX1" : "TX0", m.tx_flit[p], 0, 0);
                st->tx_flits++;
                txf++;
            }
        }
        if (rxf == 2) st->rx_both++;
        if (txf == 2) st->tx_both++;
        if (m.out_valid && in.out_ready) {
            hist_add(c, cycle, "OUT", m.out_tag, m.out_prim_id, (uint32_t)m.out_eob);
            st->out_beats++;
            st->item_checks++;
            progress = 1;
        }
        if (rxf || txf) progress = 1;
        if (pe_env_observe(&env, &in, &m, why, sizeof why)) {
            if (report_failures) report(c, cycle, why, &d, &m);
            fail = 1;
            break;
        }
        idle = progress ? 0 : idle + 1;
        if (idle > 20000) {
            if (report_failures) report(c, cycle, "watchdog: no handshake on any port for 20000 cycles (deadlock)", &d, &m);
            fail = 1;
            break;
        }
        pe_dut_clock(dut);
        pe_hw_clock(&hw, &in);
        if (cycle >= stop_at) break;
        if (pe_env_finished(&env, &m)) {
            /* one more compare of the idle state after the last edge */
            pe_env_drive(&env, cycle + 1, &in);
            pe_dut_eval(dut, &in, &d);
            pe_hw_comb(&hw, &in, &m);
            st->port_checks++;
            if (ports_differ(&d, &m) || m.busy) {
                if (report_failures) report(c, cycle + 1, "ports differ (or busy) after the last batch", &d, &m);
                fail = 1;
            } else if (pe_env_final_check(&env, why, sizeof why)) {
                if (report_failures) report(c, cycle, why, &d, &m);
                fail = 1;
            }
            cycle++;
            break;
        }
    }
    st->cycles += cycle;
    st->fail_cycle = cycle;
    pe_env_free(&env);
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

static void write_gtkw(const char *tmpl, const char *out, const char *fst, uint64_t t0, const pe_hw_params_t *prm)
{
    gtkw_view_write("cosim-pe", tmpl, out, fst, t0, pe_view_width, (void *)prm);
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
    o.seed = 1;
    o.scenarios = 40;
    o.gpus[0] = 1; o.gpus[1] = 2; o.gpus[2] = 3; o.gpus[3] = 16; o.gpus[4] = 64; o.n_gpus = 5;
    o.size = 4000;
    o.golden = 100;
    o.only = -1;
    o.out_dir = "out/cosim/pe";
    o.window = 60;
    o.gtkw_template = "tb/pe/pe.gtkw";
#define T "cosim-pe"
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        uint32_t u = 0;
        uint64_t q = 0;
        if (!strcmp(a, "--quiet")) { o.quiet = 1; continue; }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(); return 0; }
        if (!v) { arg_need(T, a); usage(); return 2; }
        /* every number through common/args.h: whole string, range checked, overflow rejected */
        if (!strcmp(a, "--seed")) {
            if (!strcmp(v, "random")) o.seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
            else bad = arg_u64x(T, a, v, 0, UINT64_MAX, 1, &o.seed);
        } else if (!strcmp(a, "--scenarios")) { bad = arg_u32(T, a, v, 0, 100000000u, &u); o.scenarios = u; }
        else if (!strcmp(a, "--flits")) bad = arg_u64(T, a, v, 0, UINT64_MAX, &o.flits);
        else if (!strcmp(a, "--gpus")) { bad = arg_u32_list(T, a, v, 1, 64, o.gpus, MAX_LIST, &u); o.n_gpus = (int)u; } else if (!strcmp(a, "--golden")) { bad = arg_u32(T, a, v, 0, UINT32_MAX, &u); o.golden = u; }
        else if (!strcmp(a, "--size")) { bad = arg_u32(T, a, v, 2, 1000000, &u); o.size = u; }
        else if (!strcmp(a, "--scenario")) { bad = arg_u64(T, a, v, 0, INT64_MAX, &q); o.only = (int64_t)q; }
        else if (!strcmp(a, "--out-dir")) o.out_dir = v;
        else if (!strcmp(a, "--window")) { bad = arg_u32(T, a, v, 1, 1000000, &u); o.window = u; }
        else if (!strcmp(a, "--gtkw")) o.gtkw_template = v;
        else if (!strcmp(a, "--waves")) o.waves = v;
        else if (!strcmp(a, "--inject-fault")) { o.inject = 1; bad = arg_u64(T, a, v, 0, UINT64_MAX, &o.inject_cycle); }
        else if (!strcmp(a, "--inject-drop")) bad = arg_u64(T, a, v, 1, UINT64_MAX, &o.inject_drop);
        else { fprintf(stderr, T ": unknown argument '%s'\n", a); usage(); return 2; }
        if (bad) return 2;
        i++;
    }
#undef T
    if (o.size < 2 || o.size > 1000000) { fprintf(stderr, "cosim-pe: --size must be 2..1000000\n"); return 2; }
    pe_hw_params_t prm = pe_dut_params();
    int usable = 0;
    for (int i = 0; i < o.n_gpus; i++) usable += o.gpus[i] <= prm.max_gpus;
    printf("cosim-pe: MAX_GPUS=%u LQ_DEPTH=%u RQ_DEPTH=%u seed=0x%" PRIx64 " gpus=", prm.max_gpus, prm.lq_depth,
           prm.rq_depth, o.seed);
    for (int i = 0; i < o.n_gpus; i++) printf("%s%u%s", i ? "," : "", o.gpus[i], o.gpus[i] > prm.max_gpus ? "(skipped)" : "");
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
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_t c0 = clock();
    pe_dut_t *dut = pe_dut_new(o.waves);
    int fail = 0;
    uint64_t hub_sc = 0, line_sc = 0, ra_sc = 0, per_n[65] = {0};
    for (uint32_t idx = o.only >= 0 ? (uint32_t)o.only : 0;; idx++) {
        if (o.only >= 0 && idx != (uint32_t)o.only) break;
        if (o.only < 0 && idx >= o.scenarios && st.tx_flits + st.rx_flits >= o.flits) break;
        pe_scen_t s;
        pe_scen_make(o.seed, idx, o.gpus, o.n_gpus, prm.max_gpus, o.size, &s);
        c.idx = idx;
        /* the golden model's exchange is much slower than the lockstep (net_step is O(N^2) per step): the
         * expectation is cross-checked on the first --golden scenarios (every configuration class; at N > 16
         * one in five) */
        if ((idx < o.golden && (s.n <= 16 || (idx / 5) % 5 == 0)) || o.only >= 0) {
            char why[512];
            if (pe_scen_golden_check(&s, pe_scen_seed(o.seed, idx), why, sizeof why)) {
                fprintf(stderr, "cosim-pe: FAIL: scenario %u (%s): the expectation disagrees with the golden model: %s\n",
                        idx, s.desc, why);
                pe_scen_free(&s);
                fail = 1;
                break;
            }
            st.golden_checks++;
        }
        if (idx != (o.only >= 0 ? (uint32_t)o.only : 0)) pe_dut_reset(dut);
        uint64_t before = st.tx_flits + st.rx_flits, cyc_before = st.cycles;
        if (run_scenario(&c, dut, &s, o.waves, 0, UINT64_MAX, 1, &st)) {
            st.fail_scenario = idx;
            fail = 1;
            /* replay the failing scenario alone with a waveform of the window around the failure */
            pe_dut_free(dut);
            dut = NULL;
            char cmd[1200], fst[1024], gtkw[1024];
            snprintf(cmd, sizeof cmd, "mkdir -p '%s'", o.out_dir);
            if (system(cmd) != 0) fprintf(stderr, "cosim-pe: cannot create %s\n", o.out_dir);
            snprintf(fst, sizeof fst, "%s/fail-seed%" PRIx64 "-scen%u-cycle%" PRIu64 ".fst", o.out_dir, o.seed, idx, st.fail_cycle);
            snprintf(gtkw, sizeof gtkw, "%s/fail-seed%" PRIx64 "-scen%u-cycle%" PRIu64 ".gtkw", o.out_dir, o.seed, idx, st.fail_cycle);
            uint64_t from = st.fail_cycle > o.window ? st.fail_cycle - o.window : 0;
            pe_dut_t *d2 = pe_dut_new(fst);
            stats_t st2;
            memset(&st2, 0, sizeof st2);
            run_scenario(&c, d2, &s, fst, from, st.fail_cycle + 2, 0, &st2);
            pe_dut_free(d2);
            /* waveform time of cycle k (ps): 2 reset cycles of 10 ns, then 10 ns per cycle */
            write_gtkw(o.gtkw_template, gtkw, fst, 20000 + 10000 * from, &prm);
            fprintf(stderr, "  waveform: %s (cycles %" PRIu64 "..%" PRIu64 " of scenario %u)\n  view:     gtkwave %s\n",
                    fst, from, st.fail_cycle + 2, idx, gtkw);
            pe_scen_free(&s);
            break;
        }
        st.scenarios++;
        per_n[s.n]++;
        if (s.topo == PE_TOPO_HUB) hub_sc++; else line_sc++;
        ra_sc += s.ra;
        if (!o.quiet)
            printf("  scenario %-4u %s: %" PRIu64 " cycles, %" PRIu64 " flits, PASS\n", idx, s.desc, st.cycles - cyc_before, st.tx_flits + st.rx_flits - before);
        pe_scen_free(&s);
    }
    if (dut) pe_dut_free(dut);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;   /* the rate an idle core would see */
    if (cpu <= 0) cpu = 1e-9;
    if (o.waves) {
        char gtkw[1024];
        snprintf(gtkw, sizeof gtkw, "%s.gtkw", o.waves);
        write_gtkw(o.gtkw_template, gtkw, o.waves, 0, &prm);
        printf("cosim-pe: waveform %s, view %s\n", o.waves, gtkw);
    }
    if (fail) {
        fprintf(stderr, "cosim-pe: FAIL\n");
        return 1;
    }
    uint64_t flits = st.tx_flits + st.rx_flits;
    printf("cosim-pe: %" PRIu64 " scenarios (line %" PRIu64 ", hub %" PRIu64 ", runahead %" PRIu64 "; per N:", st.scenarios,
           line_sc, hub_sc, ra_sc);
    for (int n = 1; n <= 64; n++)
        if (per_n[n]) printf(" %d:%" PRIu64, n, per_n[n]);
    printf("), %" PRIu64 " cycles, %" PRIu64 " flits (tx %" PRIu64 ", rx %" PRIu64 "), %" PRIu64 " P2G beats, %" PRIu64
           " output beats checked, %" PRIu64 " port comparisons, %" PRIu64 " golden-model cross-checks\n",
           st.cycles, flits, st.tx_flits, st.rx_flits, st.in_beats, st.item_checks, st.port_checks, st.golden_checks);
    printf("cosim-pe: corners: LQ full %" PRIu64 " cycles, a bank full %" PRIu64 ", P2G held off %" PRIu64
           ", rx held off %" PRIu64 ", tx stalled %" PRIu64 ", out stalled %" PRIu64 ", 2 tx flits/cycle %" PRIu64
           ", 2 rx flits/cycle %" PRIu64 "\n",
           st.lq_full, st.bank_full, st.in_blocked, st.rx_blocked, st.tx_stalled, st.out_stalled, st.tx_both, st.rx_both);
    printf("cosim-pe: %.2f s wall, %.2f s CPU; per CPU second: %.2f Mcycles/s, %.2f Mflits/s (wall: %.2f Mcycles/s)\n", secs,
           cpu, (double)st.cycles / cpu / 1e6, (double)flits / cpu / 1e6, (double)st.cycles / secs / 1e6);
    if (st.item_checks == 0 || st.port_checks == 0) {
        fprintf(stderr, "cosim-pe: FAIL: zero output comparisons (nothing was checked)\n");
        return 1;
    }
    printf("cosim-pe: PASS\n");
    return 0;
}
