/* Lockstep co-simulation of the P2G mapper: verilated RTL (p2g_dut.h) against the C cycle model
 * (cmodel/p2g/p2g_hw.h), every output port every cycle, and every mask against the functional definition
 * (p2g_mask). Constrained-random primitives and configurations from a printed, replayable seed, directed
 * corners first, random valid gaps and output backpressure. Runs on the lockstep driver (sim/common/lockstep.h):
 * this file holds only what is particular to the P2G (stimulus, scoreboard, ports, fields, reproduce command).
 * On the first mismatch: a report (cycle, seed, fields DUT vs model in hex, last transactions, command to
 * reproduce), then the failing configuration is replayed with an FST waveform of the window around the failure
 * and a matching .gtkw view; exit status 1. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/args.h"
#include "common/rng.h"
#include "p2g/p2g.h"
#include "p2g/p2g_hw.h"
#include "p2g/p2g_stim.h"
#include "p2g_dut.h"
#include "../common/lockstep.h"

#define HIST 24
#define FIFO_CAP 64
#define TOOL "cosim-p2g"

typedef struct {
    ls_common_t c;             /* seed, out_dir, window, waves, gtkw, quiet */
    uint64_t prims;            /* primitives per GPU count */
    uint32_t configs;          /* configurations per GPU count (prims split evenly) */
    ls_list_t gpus;
    uint64_t inject_cycle;     /* flip a bit of the model's mask at this cycle (tests the failure path) */
    int inject;
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

/* what a lockstep cycle does besides comparing the ports */
typedef enum { PH_WARM, PH_SETTLE, PH_RUN } phase_t;

typedef struct {
    const opts_t *o;
    const stream_t *st;
    p2g_hw_params_t prm;
    ls_t ls;
    p2g_dut_t *dut;
    p2g_hw_t hw;
    result_t *r;
    p2g_config_t cfg;
    uint32_t n, ci;            /* GPU count of the list and configuration index being run */
    uint64_t ci_cycle;         /* cycle at which configuration ci started */
    int field;                 /* the one field this configuration changed (-1: several / directed) */
    /* this cycle */
    phase_t phase;
    p2g_hw_in_t in;
    p2g_hw_out_t d, m;
    /* scoreboard of the run phase */
    const segment_t *sg;
    exp_t fifo[FIFO_CAP];
    uint32_t fh, ft;
    uint64_t sent, quota;
    int have;
    /* the report's subject */
    const exp_t *rep_e, *rep_head;
} ctx_t;

static void print_cmd(const opts_t *o, const char *argv0, FILE *f)
{
    fprintf(f, "%s --seed 0x%" PRIx64 " --prims %" PRIu64 " --configs %u --gpus ", argv0, o->c.seed, o->prims,
            o->configs);
    ls_list_print(f, &o->gpus, 0);
    if (o->sweep_n) fprintf(f, " --sweep-n");
    if (o->inject) fprintf(f, " --inject-fault %" PRIu64, o->inject_cycle);
    if (o->replay) fprintf(f, " --replay %s", o->replay);
    if (o->start_config) fprintf(f, " --start-config %u --start-cycle %" PRIu64, o->start_config, o->start_cycle);
    if (o->stop_config != UINT32_MAX) fprintf(f, " --stop-config %u", o->stop_config);
}

/* The options that start at the failing configuration (every configuration is seeded on its own, so the same
 * stimulus follows) and stop after it: seconds instead of the whole run. */
static opts_t near_opts(const opts_t *o, uint32_t n, uint32_t ci, uint64_t ci_cycle)
{
    opts_t x = *o;
    if (!x.sweep_n && !x.replay) { x.gpus.v[0] = n; x.gpus.n = 1; }
    x.start_config = ci;
    x.start_cycle = ci_cycle;
    x.stop_config = ci;
    return x;
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

/* ------------------------------------------------------------------------------ the unit for the driver */
static void p2g_cmd(void *u, FILE *f, int near)
{
    const ctx_t *c = u;
    if (!near) { print_cmd(c->o, c->ls.argv0, f); return; }
    opts_t x = near_opts(c->o, c->n, c->ci, c->ci_cycle);
    print_cmd(&x, c->ls.argv0, f);
}

static void p2g_hist_print(void *u, FILE *f, const void *rec)
{
    const hist_t *h = rec;
    (void)u;
    fprintf(f, "    cycle %-10" PRIu64 " %-4s id=0x%08x tag=0x%04x", h->cycle, h->what, h->p.prim_id, h->p.tag);
    if (!strcmp(h->what, "IN"))
        fprintf(f, " x=(%d,%d,%d) y=(%d,%d,%d) flags=%u\n", h->p.x[0], h->p.x[1], h->p.x[2], h->p.y[0], h->p.y[1],
                h->p.y[2], h->p.flags);
    else
        fprintf(f, " mask=0x%" PRIx64 "\n", h->mask);
}

static void hist_add(ctx_t *c, uint64_t cycle, const char *what, const p2g_prim_t *p, uint64_t mask)
{
    hist_t *h = ls_hist_add(&c->ls);
    h->cycle = cycle;
    snprintf(h->what, sizeof h->what, "%s", what);
    h->p = *p;
    h->mask = mask;
}

static void p2g_detail(void *u, FILE *f, const char *why)
{
    const ctx_t *c = u;
    const p2g_hw_out_t *dut = &c->d, *mdl = &c->m;
    const exp_t *e = c->rep_e, *head = c->rep_head;
    (void)why;
    fprintf(f, "  config: ");
    print_cfg(&c->cfg, f);
    fprintf(f, "\n");
    ls_field_head(f, 12, e ? "expected" : "C cycle model");
    if (e) {
        ls_field(f, 12, "prim_id", dut->out_prim_id, e->p.prim_id);
        ls_field(f, 12, "tag", dut->out_tag, e->p.tag);
        ls_field(f, 12, "mask", dut->out_mask, e->mask);
        fprintf(f, "  primitive: x=(%d,%d,%d) y=(%d,%d,%d) flags=%u\n", e->p.x[0], e->p.x[1], e->p.x[2],
                e->p.y[0], e->p.y[1], e->p.y[2], e->p.flags);
    } else {
        ls_field(f, 12, "in_ready", dut->in_ready, mdl->in_ready);
        ls_field(f, 12, "out_valid", dut->out_valid, mdl->out_valid);
        ls_field(f, 12, "busy", dut->busy, mdl->busy);
        ls_field(f, 12, "out_prim_id", dut->out_prim_id, mdl->out_prim_id);
        ls_field(f, 12, "out_tag", dut->out_tag, mdl->out_tag);
        ls_field(f, 12, "out_mask", dut->out_mask, mdl->out_mask);
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
    fprintf(f, "  configuration %u of GPU count %u (started at cycle %" PRIu64 ")%s%s\n", c->ci, c->n, c->ci_cycle,
            c->field >= 0 ? ", changed only " : "", c->field >= 0 ? p2g_field_name[c->field] : "");
}

/* a failure the report does not describe (its message is printed where it is found) */
static int fail_quiet(ctx_t *c, uint64_t cycle)
{
    c->ls.failed = 1;
    c->ls.fail_cycle = cycle;
    return LS_FAIL;
}

static int p2g_fail(ctx_t *c, uint64_t cycle, const char *why, const exp_t *e, const exp_t *head)
{
    c->rep_e = e;
    c->rep_head = head;
    return ls_fail(&c->ls, cycle, why);
}

static const char *const phase_why[] = {"ports differ while warming up", "ports differ while idle",
                                        "RTL and C cycle model disagree"};

/* DUT and cycle model on this cycle's inputs; every port compared; in the run phase, the scoreboard: every
 * accepted primitive's mask from the definition, every output checked against it in order. */
static int p2g_eval(void *u, uint64_t cycle)
{
    ctx_t *c = u;
    const opts_t *o = c->o;
    result_t *r = c->r;
    p2g_dut_eval(c->dut, &c->in, &c->d);
    p2g_hw_comb(&c->hw, &c->in, &c->m);
    if (c->phase == PH_RUN && o->inject && cycle == o->inject_cycle) c->m.out_mask ^= 1, c->m.out_valid = 1; /* test hook */
    ls_compared(&c->ls);
    const exp_t *head = c->fh != c->ft ? &c->fifo[c->fh % FIFO_CAP] : NULL;
    if (ports_differ(&c->d, &c->m))
        return p2g_fail(c, cycle, phase_why[c->phase], NULL, c->phase == PH_RUN ? head : NULL);
    if (c->phase != PH_RUN) return LS_OK;
    const p2g_hw_in_t *in = &c->in;
    const p2g_hw_out_t *d = &c->d;
    if (in->in_valid && d->in_ready) {
        if (c->ft - c->fh >= FIFO_CAP) { fprintf(stderr, "cosim: scoreboard overflow\n"); return fail_quiet(c, cycle); }
        exp_t *x = &c->fifo[c->ft % FIFO_CAP];
        x->p = in->in;
        x->mask = p2g_mask(&c->cfg, &in->in);
        if (c->sg && c->sg->mask[c->sent] != x->mask) {
            fprintf(stderr, "cosim-p2g: the replayed stream's mask 0x%" PRIx64 " (golden model) differs from "
                    "p2g_mask() 0x%" PRIx64 " for prim_id 0x%08x (record %" PRIu64 " of segment %u)\n",
                    c->sg->mask[c->sent], x->mask, in->in.prim_id, c->sent, c->ci);
            return fail_quiet(c, cycle);
        }
        c->ft++;
        hist_add(c, cycle, "IN", &in->in, 0);
        r->prims_in++;
        c->sent++;
        c->have = 0; /* in_valid drops after the clock edge; the next primitive comes next cycle */
    }
    if (d->out_valid && in->out_ready) {
        p2g_prim_t got = {d->out_prim_id, d->out_tag, {0, 0, 0}, {0, 0, 0}, 0};
        hist_add(c, cycle, "OUT", &got, d->out_mask);
        if (c->fh == c->ft) return p2g_fail(c, cycle, "output with no primitive outstanding", NULL, NULL);
        const exp_t *e = &c->fifo[c->fh % FIFO_CAP];
        c->fh++;
        r->mask_checks++;
        r->n_seen[c->cfg.n_gpus <= 64 ? c->cfg.n_gpus : 0]++;
        if (d->out_prim_id != e->p.prim_id || d->out_tag != (e->p.tag & 0xffff) || d->out_mask != e->mask)
            return p2g_fail(c, cycle, "RTL mask differs from the functional definition p2g_mask()", e, NULL);
        ls_progress(&c->ls);
    }
    c->ls.waiting = c->fh != c->ft;
    c->rep_head = c->ls.waiting ? &c->fifo[c->fh % FIFO_CAP] : NULL;   /* for the watchdog's report */
    c->rep_e = NULL;
    return c->sent == c->quota && !c->have && c->fh == c->ft && !c->m.busy ? LS_DONE : LS_OK;
}

static void p2g_clock(void *u)
{
    ctx_t *c = u;
    p2g_dut_clock(c->dut);
    p2g_hw_clock(&c->hw, &c->in);
}

static void p2g_dump(void *u, int on) { p2g_dut_dump(((ctx_t *)u)->dut, on); }

static const ls_unit_t p2g_unit = {
    .tool = TOOL,
    .unit = "p2g_mapper",
    .eval = p2g_eval,
    .clock = p2g_clock,
    .dump = p2g_dump,
    .detail = p2g_detail,
    .hist_print = p2g_hist_print,
    .cmd = p2g_cmd,
    .has_near = 1,
    .hist_depth = HIST,
    .hist_rec = sizeof(hist_t),
    .watchdog = 20000,
    .watchdog_what = "no output",
};

/* One whole run. stop_at: stop after this cycle (UINT64_MAX: no stop). dump_from: first cycle written to the
 * FST (when fst is set). Returns 0 on success, 1 on mismatch (r->fail_cycle set). */
static int run(const opts_t *o, const stream_t *st, const char *argv0, const char *fst, uint64_t dump_from,
               uint64_t stop_at, int report_failures, result_t *r)
{
    ctx_t *cp = calloc(1, sizeof *cp);
    if (!cp) { fprintf(stderr, "cosim-p2g: out of memory\n"); return 1; }
    ctx_t *const c = cp;
    memset(r, 0, sizeof *r);
    c->o = o;
    c->st = st;
    c->r = r;
    c->prm = p2g_dut_params();
    c->dut = p2g_dut_new(fst);
    p2g_hw_init(&c->hw, c->prm);
    if (ls_init(&c->ls, &p2g_unit, &o->c, argv0)) {
        fprintf(stderr, "cosim-p2g: out of memory\n");
        p2g_dut_free(c->dut);
        free(c);
        return 1;
    }
    ls_start(&c->ls, c, fst, dump_from, stop_at, report_failures, o->start_config == 0 ? o->start_cycle : 0);
    snprintf(c->ls.params, sizeof c->ls.params, "MAX_GPUS=%u ROWS=%u", c->prm.max_gpus, c->prm.rows);
    rng_t rng;
    rng_seed(&rng, o->c.seed);
    uint64_t next_id = 0;
    int fail = 0, stop = 0;
    p2g_hw_in_t *in = &c->in;

    /* random mode: GPU counts x configurations; sweep mode: one configuration per GPU count 1..MAX_GPUS;
     * replay mode: one pass over the stream's segments. Every configuration draws its stimulus from its own
     * generator, seeded from (seed, GPU count, configuration index): a run started at any configuration
     * (--start-config) sees exactly the same stimulus from there on. */
    int n_outer = st || o->sweep_n ? 1 : o->gpus.n;
    p2g_config_t prev_cfg = p2g_config_default(1, 1920, 1080);
    for (int gi = 0; gi < n_outer && !fail && !stop; gi++) {
        uint32_t n = st ? 0 : o->sweep_n ? 1 : o->gpus.v[gi];
        if (!st && n > c->prm.max_gpus) continue;
        uint32_t n_cfg = st ? (uint32_t)st->n : o->sweep_n ? c->prm.max_gpus : o->configs;
        uint64_t n_quota = o->sweep_n ? c->prm.max_gpus : o->configs;
        for (uint32_t ci = 0; ci < n_cfg && !fail && !stop; ci++) {
            const segment_t *sg = st ? &st->seg[ci] : NULL;
            if (ci > o->stop_config) break;
            uint64_t cseed = o->c.seed ^ (0x9E3779B97F4A7C15ull * ((uint64_t)n * 100003u + ci + 1));
            rng_seed(&rng, cseed);
            next_id = ((uint64_t)n << 40) ^ ((uint64_t)ci << 20);
            c->field = -1;
            if (sg) c->cfg = sg->cfg;
            else if (o->sweep_n) {
                /* n = 1, 2, ..., MAX_GPUS in turn, everything else fixed: only n changes (after the first) */
                if (ci == 0) { rng_t base; rng_seed(&base, o->c.seed ^ 0x5157u); p2g_stim_config(&base, 1, &c->cfg); }
                else { c->cfg = prev_cfg; c->field = P2G_FIELD_N; }
                c->cfg.n_gpus = ci + 1;
            }
            else if (ci < 6 && ci + 1 < o->configs) c->cfg = directed_config(n, ci);
            else if (ci % 2 == 0) {
                /* exactly one field changed from the previous configuration, every field in turn: a unit that
                 * misses one field of its rebuild key (e.g. only the tile size) mis-maps here */
                c->field = (int)((ci / 2) % P2G_N_FIELDS);
                if (!p2g_stim_change_one(&rng, &prev_cfg, (p2g_field_t)c->field, c->prm.max_gpus, &c->cfg)) {
                    c->field = -1;
                    p2g_stim_config(&rng, n, &c->cfg);
                }
            }
            else p2g_stim_config(&rng, n, &c->cfg);
            if (o->start_config && ci + 1 < o->start_config) { prev_cfg = c->cfg; continue; }
            if (o->start_config && ci + 1 == o->start_config) {
                /* warm-up: apply the previous configuration with no primitives, so the unit's tables hold it
                 * (not counted as cycles: the run's cycle numbers start at start_cycle) */
                in->cfg = c->cfg;
                in->in_valid = 0;
                in->out_ready = 1;
                c->phase = PH_WARM;
                for (uint32_t k = 0; k < p2g_hw_build_cycles(c->prm.rows) + 4 && !fail; k++) {
                    if (p2g_eval(c, c->ls.cycle) == LS_FAIL) fail = 1;
                    p2g_clock(c);
                }
                prev_cfg = c->cfg;
                c->ls.cycle = o->start_cycle;
                p2g_dut_skip_to_cycle(c->dut, o->start_cycle);   /* the window's view opens at the right time */
                continue;
            }
            prev_cfg = c->cfg;
            c->n = n;
            c->ci = ci;
            c->ci_cycle = c->ls.cycle;
            if (c->field >= 0) r->field_changes[c->field]++;
            static const uint32_t bp[] = {0, 0, 10, 30, 60, 90};
            uint32_t in_gap = bp[rng_below(&rng, 6)], out_stall = bp[rng_below(&rng, 6)];
            c->sg = sg;
            c->quota = sg ? sg->n : o->prims / n_quota + (ci < o->prims % n_quota ? 1 : 0);
            c->sent = 0;
            c->ls.idle = 0;
            uint32_t directed_k = 0;
            c->have = 0;
            in->cfg = c->cfg;
            in->in_valid = 0;
            /* 0..3 idle cycles after a configuration change: the unit must hold in_ready low itself while it
             * rebuilds its tables, so sending at once is legal and exercised */
            uint32_t n_settle = rng_below(&rng, 4);
            c->phase = PH_SETTLE;
            for (uint32_t settle = 0; settle < n_settle && !fail && !stop; settle++) {
                in->out_ready = 1;
                int rc = ls_step(&c->ls);
                fail = rc == LS_FAIL;
                stop = rc == LS_STOP;
            }
            c->phase = PH_RUN;
            while (!fail && !stop) {
                /* stimulus for this cycle: a pending primitive stays on the port until accepted */
                if (!c->have && c->sent < c->quota && sg) {
                    in->in = sg->p[c->sent];
                    c->have = 1;
                    in->in_valid = 0;
                } else if (!c->have && c->sent < c->quota) {
                    p2g_prim_t *p = &in->in;
                    if (directed_prim(&c->cfg, directed_k, p)) directed_k++;
                    else r->kinds[p2g_stim_any(&rng, &c->cfg, p)]++;
                    p->prim_id = (uint32_t)(next_id * 2654435761u) ^ (uint32_t)(o->c.seed);
                    p->tag = (uint32_t)(next_id & 0xffff);
                    next_id++;
                    c->have = 1;
                    in->in_valid = 0;
                }
                if (c->have && !in->in_valid) in->in_valid = !rng_chance(&rng, in_gap, 100);
                in->out_ready = !rng_chance(&rng, out_stall, 100);
                int rc = ls_step(&c->ls);
                if (rc == LS_FAIL) { fail = 1; break; }
                if (!c->have) in->in_valid = 0;
                if (rc == LS_STOP) stop = 1;
                if (rc == LS_DONE) break;
            }
        }
    }
    r->cycles = c->ls.cycle;
    r->port_checks = c->ls.port_checks;
    r->failed = fail;
    r->fail_cycle = fail ? c->ls.fail_cycle : c->ls.cycle;
    r->fail_n = c->n;
    r->fail_ci = c->ci;
    r->fail_ci_cycle = c->ci_cycle;
    p2g_dut_free(c->dut);
    ls_free(&c->ls);
    free(c);
    return fail;
}

/* The saved view's widths for this build: the masks and the accumulator are MAX_GPUS wide (saved at 16). */
static uint32_t p2g_view_width(const char *name, size_t len, const char *range, void *ctx)
{
    if (strcmp(range, "[15:0]") || !(gtkw_view_name_is(name, len, "out_mask_o") || gtkw_view_name_is(name, len, "s8_acc") ||
                                     gtkw_view_name_is(name, len, "s8_mask")))
        return 0;
    return *(const uint32_t *)ctx;
}

/* Stream format (gpupd-p2g-trace): '#' comments; "C n W H tile_log2 mode(0 diag,1 linear) sx0 sy0 sx1 sy1";
 * "P gpu prim_id tag x0 y0 x1 y1 x2 y2 flags mask_hex". */
static int load_stream(const char *path, uint32_t max_gpus, stream_t *st)
{
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    struct stat fst;
    if (fstat(fileno(f), &fst) == 0 && S_ISDIR(fst.st_mode)) {
        fprintf(stderr, "%s: it is a directory\n", path);
        fclose(f);
        return -1;
    }
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

/* the failing configuration replayed alone (same stimulus, same cycle numbers) with the FST window */
typedef struct {
    const opts_t *o;
    const stream_t *st;
    const char *argv0;
    const result_t *r;
} replay_t;

static void p2g_replay(void *u, const char *fst, uint64_t from, uint64_t to)
{
    const replay_t *rp = u;
    opts_t x = near_opts(rp->o, rp->r->fail_n, rp->r->fail_ci, rp->r->fail_ci_cycle);
    result_t r2;
    run(&x, rp->st, rp->argv0, fst, from, to, 0, &r2);
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.c.seed = 1;
    o.prims = 100000;
    o.configs = 20;
    o.gpus.v[0] = 1; o.gpus.v[1] = 3; o.gpus.v[2] = 16; o.gpus.n = 3;
    o.c.out_dir = "out/cosim/p2g";
    o.c.window = 40;
    o.c.gtkw = "tb/p2g/p2g_mapper.gtkw";
    o.stop_config = UINT32_MAX;
    const ls_opt_t opts[] = {
        {"--quiet", LS_OPT_FLAG, &o.c.quiet, 0, 0, NULL, NULL},
        {"--sweep-n", LS_OPT_FLAG, &o.sweep_n, 0, 0, NULL, NULL},
        {"--seed", LS_OPT_SEED, &o.c.seed, 0, 0, NULL, NULL},
        {"--prims", LS_OPT_U64, &o.prims, 0, 10000000000ull, NULL, NULL},
        {"--configs", LS_OPT_U32, &o.configs, 1, 100000, NULL, NULL},
        {"--gpus", LS_OPT_LIST, &o.gpus, 1, 64, NULL, NULL},
        {"--out-dir", LS_OPT_STR, &o.c.out_dir, 0, 0, NULL, NULL},
        {"--window", LS_OPT_U32, &o.c.window, 1, 100000, NULL, NULL},
        {"--gtkw", LS_OPT_STR, &o.c.gtkw, 0, 0, NULL, NULL},
        {"--waves", LS_OPT_STR, &o.c.waves, 0, 0, NULL, NULL},
        {"--inject-fault", LS_OPT_U64, &o.inject_cycle, 0, 1ull << 62, NULL, &o.inject},
        {"--replay", LS_OPT_STR, &o.replay, 0, 0, NULL, NULL},
        {"--start-config", LS_OPT_U32, &o.start_config, 0, 100000, NULL, NULL},
        {"--stop-config", LS_OPT_U32, &o.stop_config, 0, 100000, NULL, NULL},
        {"--start-cycle", LS_OPT_U64, &o.start_cycle, 0, 1ull << 62, NULL, NULL},
    };
    int prc = ls_parse(TOOL, argc, argv, opts, sizeof opts / sizeof opts[0], &o, usage);
    if (prc) return prc == 1 ? 0 : 2;
    if (o.configs == 0) o.configs = 1;
    p2g_hw_params_t prm = p2g_dut_params();
    printf("cosim-p2g: MAX_GPUS=%u ROWS=%u seed=0x%" PRIx64 " prims/GPU-count=%" PRIu64 " configs=%u gpus=",
           prm.max_gpus, prm.rows, o.c.seed, o.prims, o.configs);
    ls_list_print(stdout, &o.gpus, prm.max_gpus);
    printf("\n");
    fflush(stdout);

    result_t r;
    double t0 = ls_wall_s();
    stream_t stream, *st = NULL;
    memset(&stream, 0, sizeof stream);
    if (o.replay) {
        if (load_stream(o.replay, prm.max_gpus, &stream)) return 2;
        st = &stream;
        printf("cosim-p2g: replaying %s: %zu configurations, %" PRIu64 " primitives\n", o.replay, stream.n, stream.prims);
    }
    int fail = run(&o, st, argv[0], o.c.waves, 0, UINT64_MAX, 1, &r);
    double secs = ls_wall_s() - t0;
    if (o.c.waves) ls_waves_view(TOOL, &o.c, 0, p2g_view_width, &prm.max_gpus, 0);
    if (fail) {
        char tag[64];
        snprintf(tag, sizeof tag, "seed%" PRIx64, o.c.seed);
        replay_t rp = {&o, st, argv[0], &r};
        ls_fail_window(TOOL, &o.c, r.fail_cycle, tag, NULL, p2g_replay, &rp, p2g_view_width, &prm.max_gpus);
        fprintf(stderr, "cosim-p2g: FAIL\n");
        return 1;
    }
    printf("cosim-p2g: %" PRIu64 " cycles, %" PRIu64 " primitives, %" PRIu64 " port comparisons, %" PRIu64
           " mask comparisons against p2g_mask(), %.2f s, %.2f Mcycles/s\n",
           r.cycles, r.prims_in, r.port_checks, r.mask_checks, secs, (double)r.cycles / secs / 1e6);
    if (!o.c.quiet && !o.replay) {
        printf("cosim-p2g: random kinds:");
        for (int k = 0; k < P2G_STIM_N_KINDS; k++) printf(" %s=%" PRIu64, p2g_stim_kind_name[k], r.kinds[k]);
        printf("\n");
    }
    if (ls_require(TOOL, r.mask_checks, "mask comparisons")) return 1;
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
