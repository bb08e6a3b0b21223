/* Lockstep co-simulation of the P2G mapper: verilated RTL (p2g_dut.h) against the C cycle model
 * (cmodel/p2g/p2g_hw.h), every output port every cycle, and every mask against the functional definition
 * (p2g_mask). Constrained-random primitives and configurations from a printed, replayable seed, directed
 * corners first, random valid gaps and output backpressure. On the first mismatch: a report (cycle, seed,
 * fields DUT vs model in hex, last transactions, command to reproduce), then the same run is replayed with an
 * FST waveform of the window around the failure and a matching .gtkw view; exit status 1. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/args.h"
#include "common/rng.h"
#include "p2g/p2g.h"
#include "p2g/p2g_hw.h"
#include "p2g/p2g_stim.h"
#include "p2g_dut.h"
#include "../common/gtkw_view.h"

#define MAX_LIST 16
#define HIST 24
#define FIFO_CAP 64

typedef struct {
    uint64_t seed;
    uint64_t prims;            /* primitives per GPU count */
    uint32_t configs;          /* configurations per GPU count (prims split evenly) */
    uint32_t gpus[MAX_LIST];
    int n_gpus;
    uint64_t inject_cycle;     /* flip a bit of the model's mask at this cycle (tests the failure path) */
    int inject;
    const char *out_dir;       /* where failure waveforms go */
    uint32_t window;           /* cycles of waveform before the failure */
    const char *waves;         /* dump the whole run to this FST (for make waves-p2g) */
    const char *gtkw_template; /* saved view whose dumpfile line is rewritten */
    int quiet;
    const char *replay;        /* replay a primitive stream (gpupd-p2g-trace -o) instead of random stimulus */
    int sweep_n;               /* one configuration per GPU count 1..MAX_GPUS, each changing only n */
    uint32_t start_config;     /* reproduce near a failure: begin at this configuration (the one before it is
                                  applied first, without primitives, so the unit's tables are in the same state) */
    uint64_t start_cycle;      /* cycle number the run has at start_config (keeps cycle numbers of the report) */
    uint32_t stop_config;      /* last configuration run (UINT32_MAX: all) */
} opts_t;

/* A replayed stream: segments of one configuration each, with the mask the golden model computed. */
typedef struct {
    p2g_config_t cfg;
    p2g_prim_t *p;
    uint64_t *mask;
    size_t n, cap;
} segment_t;

typedef struct {
    segment_t *seg;
    size_t n, cap;
    uint64_t prims;
} stream_t;

typedef struct {
    uint64_t cycle;
    char what[8];
    p2g_prim_t p;
    uint64_t mask;
} hist_t;

typedef struct {
    p2g_prim_t p;
    uint64_t mask; /* functional definition */
} exp_t;

typedef struct {
    uint64_t cycles, port_checks, mask_checks, prims_in;
    uint64_t kinds[P2G_STIM_N_KINDS];
    uint64_t fail_cycle;
    int failed;
    uint32_t fail_n, fail_ci;          /* GPU count and configuration index of the failure */
    uint64_t fail_ci_cycle;            /* cycle at which that configuration started */
    uint64_t field_changes[P2G_N_FIELDS];  /* configurations that changed only this field */
    uint64_t n_seen[65];               /* primitives checked per GPU count */
} result_t;

typedef struct {
    const opts_t *o;
    p2g_hw_params_t prm;
    hist_t hist[HIST];
    uint64_t n_hist;
    p2g_config_t cfg;
    uint32_t n, ci;            /* GPU count of the list and configuration index being run */
    uint64_t ci_cycle;         /* cycle at which configuration ci started */
    int field;                 /* the one field this configuration changed (-1: several / directed) */
} ctx_t;

static void hist_add(ctx_t *c, uint64_t cycle, const char *what, const p2g_prim_t *p, uint64_t mask)
{
    hist_t *h = &c->hist[c->n_hist++ % HIST];
    h->cycle = cycle;
    snprintf(h->what, sizeof h->what, "%s", what);
    h->p = *p;
    h->mask = mask;
}

static void print_cmd(const opts_t *o, const char *argv0, FILE *f)
{
    fprintf(f, "%s --seed 0x%" PRIx64 " --prims %" PRIu64 " --configs %u --gpus ", argv0, o->seed, o->prims,
            o->configs);
    for (int i = 0; i < o->n_gpus; i++) fprintf(f, "%s%u", i ? "," : "", o->gpus[i]);
    if (o->sweep_n) fprintf(f, " --sweep-n");
    if (o->inject) fprintf(f, " --inject-fault %" PRIu64, o->inject_cycle);
    if (o->replay) fprintf(f, " --replay %s", o->replay);
    if (o->start_config) fprintf(f, " --start-config %u --start-cycle %" PRIu64, o->start_config, o->start_cycle);
    if (o->stop_config != UINT32_MAX) fprintf(f, " --stop-config %u", o->stop_config);
    fprintf(f, "\n");
}

/* The command that starts at the failing configuration (every configuration is seeded on its own, so the
 * same stimulus follows) and stops after it: seconds instead of the whole run. */
static void print_near_cmd(const ctx_t *c, const char *argv0, FILE *f)
{
    opts_t n = *c->o;
    if (!n.sweep_n && !n.replay) { n.gpus[0] = c->n; n.n_gpus = 1; }
    n.start_config = c->ci;
    n.start_cycle = c->ci_cycle;
    n.stop_config = c->ci;
    print_cmd(&n, argv0, f);
}

static void print_cfg(const p2g_config_t *c, FILE *f)
{
    fprintf(f, "n=%u W=%u H=%u tile_log2=%u mode=%s scissor=%u,%u,%u,%u", c->n_gpus, c->width, c->height,
            c->tile_log2, c->mode == P2G_MODE_DIAG ? "diag" : "linear", c->sc_x0, c->sc_y0, c->sc_x1, c->sc_y1);
}

/* Directed configurations tried first for every GPU count (then random ones). */
static p2g_config_t directed_config(uint32_t n, uint32_t k)
{
    p2g_config_t c = p2g_config_default(n, 1920, 1080);
    switch (k % 6) {
    case 0: break;                                                     /* the paper's default */
    case 1: c.mode = P2G_MODE_LINEAR; break;
    case 2: c = p2g_config_default(n, 16384, 16384); c.tile_log2 = 0; c.mode = P2G_MODE_LINEAR; break; /* longest walk */
    case 3: c = p2g_config_default(n, 1, 1); break;                    /* one pixel */
    case 4: c = p2g_config_default(n, 16384, 16384); c.tile_log2 = 14; break;                          /* one tile */
    case 5: c.sc_x0 = 100; c.sc_y0 = 200; c.sc_x1 = 99; c.sc_y1 = 900; c.mode = P2G_MODE_LINEAR; break; /* empty scissor */
    }
    return c;
}

/* Directed corner primitives at the start of every configuration. Returns 0 when the list is exhausted. */
static int directed_prim(const p2g_config_t *c, uint32_t k, p2g_prim_t *p)
{
    int32_t W = (int32_t)c->width, H = (int32_t)c->height, T = 1 << c->tile_log2;
    const int32_t mx = P2G_COORD_MAX, mn = P2G_COORD_MIN;
    int32_t v[][7] = {
        /* x0, y0, x1, y1, x2, y2, flags */
        {128, 128, 128, 128, 128, 128, 0},                          /* a point exactly on pixel (0,0)'s centre */
        {127, 127, 127, 127, 127, 127, 0},                          /* a point just before it: empty */
        {0, 0, 256 * W, 0, 0, 256 * H, 0},                          /* the whole screen */
        {mn, mn, mx, mn, mn, mx, 0},                                /* extreme coordinates */
        {mx, mx, mx, mx, mx, mx, 0}, {mn, mn, mn, mn, mn, mn, 0},
        {256 * T - 128, 0, 256 * T - 128, 256 * H, 256 * T - 129, 0, 0}, /* last column of tile 0 */
        {256 * T + 128, 0, 256 * T + 128, 256 * H, 256 * T + 127, 0, 0}, /* first column of tile 1 */
        {0, 256 * T - 128, 256 * W, 256 * T - 128, 0, 256 * T - 128, 0}, /* last row of tile row 0 */
        {0, 0, 256 * W, 0, 0, 256 * H, P2G_FLAG_NEAR_CLIP},
        {0, 0, 256 * W, 0, 0, 256 * H, P2G_FLAG_CULLED | P2G_FLAG_NEAR_CLIP},
        {-1000, -1000, -900, -900, -1000, -900, P2G_FLAG_NEAR_CLIP}, /* near_clip wins over being off-screen */
        {256 * W - 128, 256 * H - 128, 256 * W - 128, 256 * H - 128, 256 * W - 128, 256 * H - 128, 0}, /* last centre */
        {256 * W - 127, 0, 256 * W, 256 * H, 256 * W + 5000, 0, 0}, /* right of the last centre: empty */
    };
    uint32_t nv = sizeof v / sizeof v[0];
    if (k >= nv) return 0;
    memset(p, 0, sizeof *p);
    for (int i = 0; i < 3; i++) {
        p->x[i] = v[k][2 * i];
        p->y[i] = v[k][2 * i + 1];
    }
    p->flags = (uint32_t)v[k][6];
    return 1;
}

static int ports_differ(const p2g_hw_out_t *a, const p2g_hw_out_t *b)
{
    if (a->in_ready != b->in_ready || a->out_valid != b->out_valid || a->busy != b->busy) return 1;
    if (a->out_valid &&
        (a->out_prim_id != b->out_prim_id || a->out_tag != b->out_tag || a->out_mask != b->out_mask))
        return 1;
    return 0;
}

static void report(ctx_t *c, const char *argv0, uint64_t cycle, const char *why, const p2g_hw_out_t *dut,
                   const p2g_hw_out_t *mdl, const exp_t *e, const exp_t *head)
{
    const opts_t *o = c->o;
    FILE *f = stderr;
    fprintf(f, "\nCOSIM MISMATCH unit=p2g_mapper MAX_GPUS=%u ROWS=%u seed=0x%" PRIx64 " cycle=%" PRIu64 "\n",
            c->prm.max_gpus, c->prm.rows, o->seed, cycle);
    fprintf(f, "  what: %s\n  config: ", why);
    print_cfg(&c->cfg, f);
    fprintf(f, "\n  %-12s %-20s %-20s\n", "field", "DUT (RTL)", e ? "expected" : "C cycle model");
#define ROW(name, a, b) fprintf(f, "  %-12s 0x%-18" PRIx64 " 0x%-18" PRIx64 "%s\n", name, (uint64_t)(a), (uint64_t)(b), (a) != (b) ? "  <-- differs" : "")
    if (e) {
        ROW("prim_id", dut->out_prim_id, e->p.prim_id);
        ROW("tag", dut->out_tag, e->p.tag);
        ROW("mask", dut->out_mask, e->mask);
        fprintf(f, "  primitive: x=(%d,%d,%d) y=(%d,%d,%d) flags=%u\n", e->p.x[0], e->p.x[1], e->p.x[2],
                e->p.y[0], e->p.y[1], e->p.y[2], e->p.flags);
    } else {
        ROW("in_ready", dut->in_ready, mdl->in_ready);
        ROW("out_valid", dut->out_valid, mdl->out_valid);
        ROW("busy", dut->busy, mdl->busy);
        ROW("out_prim_id", dut->out_prim_id, mdl->out_prim_id);
        ROW("out_tag", dut->out_tag, mdl->out_tag);
        ROW("out_mask", dut->out_mask, mdl->out_mask);
        if (head) {
            /* the primitive the output port is about: what the definition says it must give */
            fprintf(f, "  oldest outstanding primitive: prim_id=0x%08x tag=0x%04x x=(%d,%d,%d) y=(%d,%d,%d) flags=%u\n",
                    head->p.prim_id, head->p.tag & 0xffff, head->p.x[0], head->p.x[1], head->p.x[2], head->p.y[0],
                    head->p.y[1], head->p.y[2], head->p.flags);
            fprintf(f, "  expected mask (p2g_mask): 0x%" PRIx64 "   DUT out_mask 0x%" PRIx64 "%s   model out_mask 0x%" PRIx64 "%s\n",
                    head->mask, dut->out_mask, dut->out_valid ? "" : " (not valid)", mdl->out_mask, mdl->out_valid ? "" : " (not valid)");
        } else {
            fprintf(f, "  no primitive outstanding (an output now would be a phantom)\n");
        }
    }
#undef ROW
    fprintf(f, "  configuration %u of GPU count %u (started at cycle %" PRIu64 ")%s%s\n", c->ci, c->n, c->ci_cycle,
            c->field >= 0 ? ", changed only " : "", c->field >= 0 ? p2g_field_name[c->field] : "");
    uint64_t first = c->n_hist > HIST ? c->n_hist - HIST : 0;
    fprintf(f, "  last %" PRIu64 " transactions (oldest first):\n", c->n_hist - first);
    for (uint64_t i = first; i < c->n_hist; i++) {
        const hist_t *h = &c->hist[i % HIST];
        fprintf(f, "    cycle %-10" PRIu64 " %-4s id=0x%08x tag=0x%04x", h->cycle, h->what, h->p.prim_id, h->p.tag);
        if (!strcmp(h->what, "IN"))
            fprintf(f, " x=(%d,%d,%d) y=(%d,%d,%d) flags=%u\n", h->p.x[0], h->p.x[1], h->p.x[2], h->p.y[0],
                    h->p.y[1], h->p.y[2], h->p.flags);
        else
            fprintf(f, " mask=0x%" PRIx64 "\n", h->mask);
    }
    fprintf(f, "  reproduce: ");
    print_cmd(o, argv0, f);
    fprintf(f, "  reproduce near the failure: ");
    print_near_cmd(c, argv0, f);
}

/* One whole run. stop_at: stop after this cycle (UINT64_MAX: no stop). dump_from: first cycle written to the
 * FST (when fst is set). Returns 0 on success, 1 on mismatch (r->fail_cycle set). */
static int run(const opts_t *o, const stream_t *st, const char *argv0, const char *fst, uint64_t dump_from,
               uint64_t stop_at, int report_failures, result_t *r)
{
    ctx_t c;
    memset(&c, 0, sizeof c);
    memset(r, 0, sizeof *r);
    c.o = o;
    c.prm = p2g_dut_params();
    p2g_dut_t *dut = p2g_dut_new(fst);
    p2g_dut_dump(dut, fst && dump_from == 0);
    p2g_hw_t hw;
    p2g_hw_init(&hw, c.prm);
    rng_t rng;
    rng_seed(&rng, o->seed);
    exp_t fifo[FIFO_CAP];
    uint32_t fh = 0, ft = 0;
    uint64_t cycle = o->start_config == 0 ? o->start_cycle : 0, next_id = 0;
    int fail = 0;
    p2g_hw_in_t in;
    memset(&in, 0, sizeof in);

    /* random mode: GPU counts x configurations; sweep mode: one configuration per GPU count 1..MAX_GPUS;
     * replay mode: one pass over the stream's segments. Every configuration draws its stimulus from its own
     * generator, seeded from (seed, GPU count, configuration index): a run started at any configuration
     * (--start-config) sees exactly the same stimulus from there on. */
    int n_outer = st || o->sweep_n ? 1 : o->n_gpus;
    p2g_config_t prev_cfg = p2g_config_default(1, 1920, 1080);
    for (int gi = 0; gi < n_outer && !fail; gi++) {
        uint32_t n = st ? 0 : o->sweep_n ? 1 : o->gpus[gi];
        if (!st && n > c.prm.max_gpus) continue;
        uint32_t n_cfg = st ? (uint32_t)st->n : o->sweep_n ? c.prm.max_gpus : o->configs;
        uint64_t n_quota = o->sweep_n ? c.prm.max_gpus : o->configs;
        for (uint32_t ci = 0; ci < n_cfg && !fail; ci++) {
            const segment_t *sg = st ? &st->seg[ci] : NULL;
            if (ci > o->stop_config) break;
            uint64_t cseed = o->seed ^ (0x9E3779B97F4A7C15ull * ((uint64_t)n * 100003u + ci + 1));
            rng_seed(&rng, cseed);
            next_id = ((uint64_t)n << 40) ^ ((uint64_t)ci << 20);
            c.field = -1;
            if (sg) c.cfg = sg->cfg;
            else if (o->sweep_n) {
                /* n = 1, 2, ..., MAX_GPUS in turn, everything else fixed: only n changes (after the first) */
                if (ci == 0) { rng_t base; rng_seed(&base, o->seed ^ 0x5157u); p2g_stim_config(&base, 1, &c.cfg); }
                else { c.cfg = prev_cfg; c.field = P2G_FIELD_N; }
                c.cfg.n_gpus = ci + 1;
            }
            else if (ci < 6 && ci + 1 < o->configs) c.cfg = directed_config(n, ci);
            else if (ci % 2 == 0) {
                /* exactly one field changed from the previous configuration, every field in turn: a unit that
                 * misses one field of its rebuild key (e.g. only the tile size) mis-maps here */
                c.field = (int)((ci / 2) % P2G_N_FIELDS);
                if (!p2g_stim_change_one(&rng, &prev_cfg, (p2g_field_t)c.field, c.prm.max_gpus, &c.cfg)) {
                    c.field = -1;
                    p2g_stim_config(&rng, n, &c.cfg);
                }
            }
            else p2g_stim_config(&rng, n, &c.cfg);
            if (o->start_config && ci + 1 < o->start_config) { prev_cfg = c.cfg; continue; }
            if (o->start_config && ci + 1 == o->start_config) {
                /* warm-up: apply the previous configuration with no primitives, so the unit's tables hold it */
                in.cfg = c.cfg;
                in.in_valid = 0;
                in.out_ready = 1;
                for (uint32_t k = 0; k < p2g_hw_build_cycles(c.prm.rows) + 4 && !fail; k++) {
                    p2g_hw_out_t a, b;
                    p2g_dut_eval(dut, &in, &a);
                    p2g_hw_comb(&hw, &in, &b);
                    r->port_checks++;
                    if (ports_differ(&a, &b)) {
                        if (report_failures) report(&c, argv0, cycle, "ports differ while warming up", &a, &b, NULL, NULL);
                        fail = 1;
                    }
                    p2g_dut_clock(dut);
                    p2g_hw_clock(&hw, &in);
                }
                prev_cfg = c.cfg;
                cycle = o->start_cycle;
                continue;
            }
            prev_cfg = c.cfg;
            c.n = n;
            c.ci = ci;
            c.ci_cycle = cycle;
            if (c.field >= 0) r->field_changes[c.field]++;
            static const uint32_t bp[] = {0, 0, 10, 30, 60, 90};
            uint32_t in_gap = bp[rng_below(&rng, 6)], out_stall = bp[rng_below(&rng, 6)];
            uint64_t quota = sg ? sg->n : o->prims / n_quota + (ci < o->prims % n_quota ? 1 : 0);
            uint64_t sent = 0, since_progress = 0;
            uint32_t directed_k = 0;
            int have = 0;
            in.cfg = c.cfg;
            in.in_valid = 0;
            /* 0..3 idle cycles after a configuration change: the unit must hold in_ready low itself while it
             * rebuilds its tables, so sending at once is legal and exercised */
            uint32_t n_settle = rng_below(&rng, 4);
            for (uint32_t settle = 0; settle < n_settle; settle++) {
                p2g_hw_out_t a, b;
                in.out_ready = 1;
                p2g_dut_eval(dut, &in, &a);
                p2g_hw_comb(&hw, &in, &b);
                r->port_checks++;
                if (ports_differ(&a, &b)) {
                    if (report_failures) report(&c, argv0, cycle, "ports differ while idle", &a, &b, NULL, NULL);
                    fail = 1;
                    break;
                }
                p2g_dut_clock(dut);
                p2g_hw_clock(&hw, &in);
                cycle++;
            }
            while (!fail) {
                /* stimulus for this cycle: a pending primitive stays on the port until accepted */
                if (!have && sent < quota && sg) {
                    in.in = sg->p[sent];
                    have = 1;
                    in.in_valid = 0;
                } else if (!have && sent < quota) {
                    p2g_prim_t *p = &in.in;
                    if (directed_prim(&c.cfg, directed_k, p)) directed_k++;
                    else r->kinds[p2g_stim_any(&rng, &c.cfg, p)]++;
                    p->prim_id = (uint32_t)(next_id * 2654435761u) ^ (uint32_t)(o->seed);
                    p->tag = (uint32_t)(next_id & 0xffff);
                    next_id++;
                    have = 1;
                    in.in_valid = 0;
                }
                if (have && !in.in_valid) in.in_valid = !rng_chance(&rng, in_gap, 100);
                in.out_ready = !rng_chance(&rng, out_stall, 100);
                if (cycle >= dump_from && fst) p2g_dut_dump(dut, 1);

                p2g_hw_out_t d, m;
                p2g_dut_eval(dut, &in, &d);
                p2g_hw_comb(&hw, &in, &m);
                if (o->inject && cycle == o->inject_cycle) m.out_mask ^= 1, m.out_valid = 1; /* test hook */
                r->port_checks++;
                if (ports_differ(&d, &m)) {
                    if (report_failures) report(&c, argv0, cycle, "RTL and C cycle model disagree", &d, &m, NULL, fh != ft ? &fifo[fh % FIFO_CAP] : NULL);
                    fail = 1;
                    break;
                }
                if (in.in_valid && d.in_ready) {
                    if (ft - fh >= FIFO_CAP) { fprintf(stderr, "cosim: scoreboard overflow\n"); fail = 1; break; }
                    fifo[ft % FIFO_CAP].p = in.in;
                    fifo[ft % FIFO_CAP].mask = p2g_mask(&c.cfg, &in.in);
                    if (sg && sg->mask[sent] != fifo[ft % FIFO_CAP].mask) {
                        fprintf(stderr, "cosim-p2g: the replayed stream's mask 0x%" PRIx64 " (golden model) differs from "
                                "p2g_mask() 0x%" PRIx64 " for prim_id 0x%08x (record %" PRIu64 " of segment %u)\n",
                                sg->mask[sent], fifo[ft % FIFO_CAP].mask, in.in.prim_id, sent, ci);
                        fail = 1;
                        break;
                    }
                    ft++;
                    hist_add(&c, cycle, "IN", &in.in, 0);
                    r->prims_in++;
                    sent++;
                    have = 0; /* in_valid drops after the clock edge; the next primitive comes next cycle */
                }
                if (d.out_valid && in.out_ready) {
                    p2g_prim_t got = {d.out_prim_id, d.out_tag, {0, 0, 0}, {0, 0, 0}, 0};
                    hist_add(&c, cycle, "OUT", &got, d.out_mask);
                    if (fh == ft) {
                        if (report_failures) report(&c, argv0, cycle, "output with no primitive outstanding", &d, &m, NULL, NULL);
                        fail = 1;
                        break;
                    }
                    exp_t *e = &fifo[fh % FIFO_CAP];
                    fh++;
                    r->mask_checks++;
                    r->n_seen[c.cfg.n_gpus <= 64 ? c.cfg.n_gpus : 0]++;
                    if (d.out_prim_id != e->p.prim_id || d.out_tag != (e->p.tag & 0xffff) || d.out_mask != e->mask) {
                        if (report_failures)
                            report(&c, argv0, cycle, "RTL mask differs from the functional definition p2g_mask()", &d, &m, e, NULL);
                        fail = 1;
                        break;
                    }
                    since_progress = 0;
                }
                if (fh != ft && ++since_progress > 20000) {
                    if (report_failures) report(&c, argv0, cycle, "watchdog: no output for 20000 cycles", &d, &m, NULL, fh != ft ? &fifo[fh % FIFO_CAP] : NULL);
                    fail = 1;
                    break;
                }
                p2g_dut_clock(dut);
                p2g_hw_clock(&hw, &in);
                if (!have) in.in_valid = 0;
                cycle++;
                if (cycle > stop_at) break;
                if (sent == quota && !have && fh == ft && !m.busy) break;
            }
            if (cycle > stop_at) break;
        }
        if (cycle > stop_at) break;
    }
    r->cycles = cycle;
    r->failed = fail;
    r->fail_cycle = cycle;
    r->fail_n = c.n;
    r->fail_ci = c.ci;
    r->fail_ci_cycle = c.ci_cycle;
    p2g_dut_free(dut);
    return fail;
}

/* The saved view's widths for this build: the mask and its accumulator are MAX_GPUS wide (saved at 16). */
static uint32_t p2g_view_width(const char *name, size_t len, const char *range, void *ctx)
{
    if (strcmp(range, "[15:0]") || !(gtkw_view_name_is(name, len, "out_mask_o") || gtkw_view_name_is(name, len, "s4_acc")))
        return 0;
    return *(const uint32_t *)ctx;
}

static void write_gtkw(const char *tmpl, const char *out, const char *fst, uint64_t t0, uint32_t max_gpus)
{
    gtkw_view_write("cosim", tmpl, out, fst, t0, p2g_view_width, &max_gpus);
}

/* Stream format (gpupd-p2g-trace): '#' comments; "C n W H tile_log2 mode(0 diag,1 linear) sx0 sy0 sx1 sy1";
 * "P gpu prim_id tag x0 y0 x1 y1 x2 y2 flags mask_hex". */
static int load_stream(const char *path, uint32_t max_gpus, stream_t *st)
{
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    char line[512];
    unsigned long ln = 0;
    segment_t *cur = NULL;
    while (fgets(line, sizeof line, f)) {
        ln++;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (line[0] == 'C') {
            p2g_config_t c;
            unsigned mode;
            if (sscanf(line, "C %u %u %u %u %u %u %u %u %u", &c.n_gpus, &c.width, &c.height, &c.tile_log2, &mode,
                       &c.sc_x0, &c.sc_y0, &c.sc_x1, &c.sc_y1) != 9) goto bad;
            c.mode = mode ? P2G_MODE_LINEAR : P2G_MODE_DIAG;
            if (p2g_config_check(&c)) goto bad;
            if (c.n_gpus > max_gpus) {
                fprintf(stderr, "%s:%lu: %u GPUs do not fit this build (MAX_GPUS=%u)\n", path, ln, c.n_gpus, max_gpus);
                fclose(f);
                return -1;
            }
            if (st->n == st->cap) {
                st->cap = st->cap ? 2 * st->cap : 16;
                st->seg = realloc(st->seg, st->cap * sizeof *st->seg);
                if (!st->seg) goto oom;
            }
            cur = &st->seg[st->n++];
            memset(cur, 0, sizeof *cur);
            cur->cfg = c;
        } else if (line[0] == 'P') {
            p2g_prim_t p;
            unsigned g;
            unsigned long long m;
            if (!cur || sscanf(line, "P %u %u %u %d %d %d %d %d %d %u %llx", &g, &p.prim_id, &p.tag, &p.x[0], &p.y[0],
                               &p.x[1], &p.y[1], &p.x[2], &p.y[2], &p.flags, &m) != 11) goto bad;
            for (int i = 0; i < 3; i++)
                if (p.x[i] < P2G_COORD_MIN || p.x[i] > P2G_COORD_MAX || p.y[i] < P2G_COORD_MIN || p.y[i] > P2G_COORD_MAX) goto bad;
            if (cur->n == cur->cap) {
                cur->cap = cur->cap ? 2 * cur->cap : 256;
                cur->p = realloc(cur->p, cur->cap * sizeof *cur->p);
                cur->mask = realloc(cur->mask, cur->cap * sizeof *cur->mask);
                if (!cur->p || !cur->mask) goto oom;
            }
            p.tag &= 0xffff;
            cur->p[cur->n] = p;
            cur->mask[cur->n++] = m;
            st->prims++;
        } else goto bad;
    }
    fclose(f);
    if (!st->prims) { fprintf(stderr, "%s: no primitives\n", path); return -1; }
    return 0;
bad:
    fprintf(stderr, "%s:%lu: malformed stream line: %s", path, ln, line);
    fclose(f);
    return -1;
oom:
    fprintf(stderr, "%s: out of memory\n", path);
    fclose(f);
    return -1;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: cosim-p2g [--seed S] [--prims P] [--configs K] [--gpus 1,3,16] [--out-dir DIR]\n"
            "                 [--window W] [--gtkw VIEW.gtkw] [--waves FILE.fst] [--inject-fault CYCLE] [--quiet]\n"
            "                 [--replay STREAM] [--sweep-n] [--start-config C --start-cycle X] [--stop-config C]\n"
            "  P primitives per GPU count, split over K configurations (the first ones directed).\n"
            "  --replay: drive a real primitive stream (gpupd-p2g-trace -o) instead; the seed then only\n"
            "  drives valid gaps and backpressure. --sweep-n: one configuration per GPU count 1..MAX_GPUS,\n"
            "  each changing only n. --start-config/--stop-config: run only those configurations (the report of a\n"
            "  failure prints this command, starting at the failing configuration).\n");
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.prims = 100000;
    o.configs = 20;
    o.gpus[0] = 1; o.gpus[1] = 3; o.gpus[2] = 16; o.n_gpus = 3;
    o.out_dir = "out/cosim/p2g";
    o.window = 40;
    o.gtkw_template = "tb/p2g/p2g_mapper.gtkw";
    o.stop_config = UINT32_MAX;
    const char *T = "cosim-p2g";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quiet")) { o.quiet = 1; continue; }
        if (!strcmp(a, "--sweep-n")) { o.sweep_n = 1; continue; }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(); return 0; }
        int bad = 0;
        if (!strcmp(a, "--seed")) {
            if (v && !strcmp(v, "random")) o.seed = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
            else bad = arg_u64x(T, a, v, 0, UINT64_MAX, 1, &o.seed);
        } else if (!strcmp(a, "--prims")) bad = arg_u64x(T, a, v, 0, 10000000000ull, 0, &o.prims);
        else if (!strcmp(a, "--configs")) bad = arg_u32(T, a, v, 1, 100000, &o.configs);
        else if (!strcmp(a, "--gpus")) {
            uint32_t n = 0;
            bad = arg_u32_list(T, a, v, 1, 64, o.gpus, MAX_LIST, &n);
            o.n_gpus = (int)n;
        }
        else if (!strcmp(a, "--out-dir")) { if (!v) bad = arg_need(T, a); o.out_dir = v; }
        else if (!strcmp(a, "--window")) bad = arg_u32(T, a, v, 1, 100000, &o.window);
        else if (!strcmp(a, "--gtkw")) { if (!v) bad = arg_need(T, a); o.gtkw_template = v; }
        else if (!strcmp(a, "--waves")) { if (!v) bad = arg_need(T, a); o.waves = v; }
        else if (!strcmp(a, "--inject-fault")) { o.inject = 1; bad = arg_u64(T, a, v, 0, 1ull << 62, &o.inject_cycle); }
        else if (!strcmp(a, "--replay")) { if (!v) bad = arg_need(T, a); o.replay = v; }
        else if (!strcmp(a, "--start-config")) bad = arg_u32(T, a, v, 0, 100000, &o.start_config);
        else if (!strcmp(a, "--stop-config")) bad = arg_u32(T, a, v, 0, 100000, &o.stop_config);
        else if (!strcmp(a, "--start-cycle")) bad = arg_u64(T, a, v, 0, 1ull << 62, &o.start_cycle);
        else { fprintf(stderr, "cosim-p2g: unknown argument '%s'\n", a); usage(); return 2; }
        if (bad) return 2;
        i++;
    }
    if (o.configs == 0) o.configs = 1;
    p2g_hw_params_t prm = p2g_dut_params();
    printf("cosim-p2g: MAX_GPUS=%u ROWS=%u seed=0x%" PRIx64 " prims/GPU-count=%" PRIu64 " configs=%u gpus=",
           prm.max_gpus, prm.rows, o.seed, o.prims, o.configs);
    for (int i = 0; i < o.n_gpus; i++) printf("%s%u%s", i ? "," : "", o.gpus[i], o.gpus[i] > prm.max_gpus ? "(skipped)" : "");
    printf("\n");
    fflush(stdout);

    result_t r;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    stream_t stream, *st = NULL;
    memset(&stream, 0, sizeof stream);
    if (o.replay) {
        if (load_stream(o.replay, prm.max_gpus, &stream)) return 2;
        st = &stream;
        printf("cosim-p2g: replaying %s: %zu configurations, %" PRIu64 " primitives\n", o.replay, stream.n, stream.prims);
    }
    int fail = run(&o, st, argv[0], o.waves, 0, UINT64_MAX, 1, &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (o.waves) {
        char gtkw[1024];
        snprintf(gtkw, sizeof gtkw, "%s.gtkw", o.waves);
        write_gtkw(o.gtkw_template, gtkw, o.waves, 0, prm.max_gpus);
        printf("cosim-p2g: waveform %s, view %s\n", o.waves, gtkw);
    }
    if (fail) {
        char fst[1024], gtkw[1024], cmd[1200];
        snprintf(cmd, sizeof cmd, "mkdir -p '%s'", o.out_dir);
        if (system(cmd) != 0) fprintf(stderr, "cosim: cannot create %s\n", o.out_dir);
        snprintf(fst, sizeof fst, "%s/fail-seed%" PRIx64 "-cycle%" PRIu64 ".fst", o.out_dir, o.seed, r.fail_cycle);
        snprintf(gtkw, sizeof gtkw, "%s/fail-seed%" PRIx64 "-cycle%" PRIu64 ".gtkw", o.out_dir, o.seed, r.fail_cycle);
        uint64_t from = r.fail_cycle > o.window ? r.fail_cycle - o.window : 0;
        result_t r2;
        opts_t o2 = o;      /* replay only the failing configuration (same stimulus, same cycle numbers) */
        if (!o.replay && !o.sweep_n) { o2.gpus[0] = r.fail_n; o2.n_gpus = 1; }
        o2.start_config = r.fail_ci;
        o2.start_cycle = r.fail_ci_cycle;
        o2.stop_config = r.fail_ci;
        run(&o2, st, argv[0], fst, from, r.fail_cycle + 2, 0, &r2);
        /* waveform time of cycle k (ps): 2 reset cycles of 10 ns, then 10 ns per cycle */
        write_gtkw(o.gtkw_template, gtkw, fst, 20000 + 10000 * from, p2g_dut_params().max_gpus);
        fprintf(stderr, "  waveform: %s (cycles %" PRIu64 "..%" PRIu64 ")\n  view:     gtkwave %s\n", fst, from,
                r.fail_cycle + 2, gtkw);
        fprintf(stderr, "cosim-p2g: FAIL\n");
        return 1;
    }
    printf("cosim-p2g: %" PRIu64 " cycles, %" PRIu64 " primitives, %" PRIu64 " port comparisons, %" PRIu64
           " mask comparisons against p2g_mask(), %.2f s, %.2f Mcycles/s\n",
           r.cycles, r.prims_in, r.port_checks, r.mask_checks, secs, (double)r.cycles / secs / 1e6);
    if (!o.quiet && !o.replay) {
        printf("cosim-p2g: random kinds:");
        for (int k = 0; k < P2G_STIM_N_KINDS; k++) printf(" %s=%" PRIu64, p2g_stim_kind_name[k], r.kinds[k]);
        printf("\n");
    }
    if (r.mask_checks == 0) {
        fprintf(stderr, "cosim-p2g: FAIL: zero mask comparisons (nothing was checked)\n");
        return 1;
    }
    if (!o.replay) {
        printf("cosim-p2g: configurations that changed one field only:");
        for (int k = 0; k < P2G_N_FIELDS; k++) printf(" %s=%" PRIu64, p2g_field_name[k], r.field_changes[k]);
        printf("\ncosim-p2g: GPU counts checked:");
        uint32_t nn = 0;
        for (uint32_t k = 1; k <= 64; k++)
            if (r.n_seen[k]) { nn++; if (!o.sweep_n) printf(" %u", k); }
        printf(" (%u distinct)\n", nn);
        if (o.sweep_n && o.start_config == 0 && o.stop_config == UINT32_MAX && nn != prm.max_gpus) {
            fprintf(stderr, "cosim-p2g: FAIL: --sweep-n checked %u of the %u GPU counts\n", nn, prm.max_gpus);
            return 1;
        }
    }
    printf("cosim-p2g: PASS\n");
    return 0;
}
