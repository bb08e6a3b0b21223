/* Lockstep co-simulation of rtl/p2g_merge.v (P P2G mappers merged in order) against its C cycle model
 * cmodel/p2g/p2g_merge_hw.c, on the lockstep library (sim/common/lockstep.h): every output port every cycle
 * (in_ready of every slot, out_valid, busy, and the output when valid), every output against the definition
 * p2g_mask() of the primitive that must come next in input order.
 *
 * Stimulus (deterministic for a seed): configurations from p2g_stim_config (N = 1..MAX_GPUS), each applied with
 * the unit idle and 0..3 idle cycles after it; per cycle the front end offers 0..P consecutive primitives (an
 * in-order prefix of the slots, so the merge sees every number of primitives per cycle), and the output is
 * stalled at random (0..60 %).
 *   cosim-p2g-merge [--seed S] [--prims N] [--configs C] [--quiet] [--waves F.fst] [--gtkw V] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "p2g/p2g.h"
#include "p2g/p2g_merge_hw.h"
#include "p2g/p2g_stim.h"
#include "lockstep.h"
#include "p2g_merge_dut.h"

#define TOOL "cosim-p2g-merge"
#define QCAP (1u << 12)   /* primitives in flight (sent, not yet out): far more than P * 9 stages */

typedef struct {
    ls_common_t c;
    uint64_t prims;
    uint32_t configs;
} opts_t;

typedef struct {
    uint64_t cycle;
    int kind;              /* 0 IN (slots taken), 1 OUT */
    uint32_t n, id;
    uint64_t mask;
} hrec_t;

typedef struct {
    const opts_t *o;
    ls_t ls;
    p2g_merge_dut_t *dut;
    p2g_merge_hw_t m;
    uint32_t P;
    p2g_hw_params_t prm;
    rng_t r;
    p2g_merge_hw_in_t in;
    p2g_merge_hw_out_t d, e;
    /* expected outputs, in input order */
    uint32_t q_id[QCAP];
    uint64_t q_mask[QCAP];
    uint32_t qh, qt;
    /* stimulus state */
    uint32_t ci, idle, stall_pm, gap_pm;
    uint64_t sent, quota, per_cfg, outs, mask_checks;
    int cfg_pending;
    p2g_prim_t next[P2G_MERGE_MAX_P];
    uint32_t n_next;
} cs_t;

static void new_prim(cs_t *s, p2g_prim_t *p)
{
    p2g_stim_any(&s->r, &s->in.cfg, p);
    p->prim_id = (uint32_t)(s->sent + s->n_next) * 2654435761u ^ (uint32_t)s->o->c.seed;
    p->tag = (uint32_t)(s->sent + s->n_next) & 0xffff;
}

/* this cycle's inputs */
static void drive(cs_t *s)
{
    if (s->cfg_pending) {
        /* a new configuration only while the unit is idle (quasi-static rule), then 0..3 idle cycles */
        for (uint32_t j = 0; j < s->P; j++) s->in.in_valid[j] = 0;
        return;
    }
    uint32_t k = 0;
    if (s->idle) {
        s->idle--;
    } else if (!rng_chance(&s->r, s->gap_pm, 1000)) {
        k = 1 + rng_below(&s->r, s->P);
        if (s->sent + k > s->quota) k = (uint32_t)(s->quota - s->sent);
    }
    while (s->n_next < k) new_prim(s, &s->next[s->n_next++]);   /* offered primitives stay until taken */
    for (uint32_t j = 0; j < s->P; j++) {
        s->in.in_valid[j] = j < k;
        if (j < s->n_next) s->in.in[j] = s->next[j];
        else memset(&s->in.in[j], 0, sizeof s->in.in[j]);
    }
    s->in.out_ready = !rng_chance(&s->r, s->stall_pm, 1000);
}

static int eval(void *u, uint64_t cycle)
{
    cs_t *s = u;
    p2g_merge_dut_eval(s->dut, &s->in, &s->d);
    p2g_merge_hw_comb(&s->m, &s->in, &s->e);
    ls_compared(&s->ls);
    int diff = s->d.out_valid != s->e.out_valid || s->d.busy != s->e.busy;
    for (uint32_t j = 0; j < s->P; j++) diff |= s->d.in_ready[j] != s->e.in_ready[j];
    if (s->d.out_valid && (s->d.out_prim_id != s->e.out_prim_id || s->d.out_tag != s->e.out_tag ||
                           s->d.out_mask != s->e.out_mask))
        diff = 1;
    if (diff) return ls_fail(&s->ls, cycle, "RTL and C cycle model disagree");
    if (s->d.out_valid && s->in.out_ready) {
        if (s->qh == s->qt) return ls_fail(&s->ls, cycle, "output with no primitive outstanding");
        uint32_t h = s->qh % QCAP;
        hrec_t *rec = ls_hist_add(&s->ls);
        rec->cycle = cycle;
        rec->kind = 1;
        rec->id = s->d.out_prim_id;
        rec->mask = s->d.out_mask;
        if (s->d.out_prim_id != s->q_id[h] || s->d.out_mask != s->q_mask[h])
            return ls_fail(&s->ls, cycle, "output out of input order or mask differs from p2g_mask()");
        s->qh++;
        s->outs++;
        s->mask_checks++;
        ls_progress(&s->ls);
    }
    s->ls.waiting = s->qh != s->qt;
    return LS_OK;
}

static void clock_(void *u)
{
    cs_t *s = u;
    uint32_t a = 0;
    while (a < s->P && s->in.in_valid[a] && s->d.in_ready[a]) a++;
    if (a) {
        hrec_t *rec = ls_hist_add(&s->ls);
        rec->cycle = s->ls.cycle;
        rec->kind = 0;
        rec->n = a;
        rec->id = s->next[0].prim_id;
        rec->mask = 0;
    }
    for (uint32_t j = 0; j < a; j++) {
        uint32_t t = s->qt % QCAP;
        s->q_id[t] = s->next[j].prim_id;
        s->q_mask[t] = p2g_mask(&s->in.cfg, &s->next[j]);
        s->qt++;
    }
    memmove(s->next, s->next + a, (s->n_next - a) * sizeof s->next[0]);
    s->n_next -= a;
    s->sent += a;
    p2g_merge_dut_clock(s->dut);
    uint32_t ma = p2g_merge_hw_clock(&s->m, &s->in);
    (void)ma;   /* equal to a: in_ready compared in eval */
}

static void dump(void *u, int on) { p2g_merge_dut_dump(((cs_t *)u)->dut, on); }

static void detail(void *u, FILE *f, const char *why)
{
    cs_t *s = u;
    (void)why;
    ls_field_head(f, 14, "model");
    char nm[32];
    for (uint32_t j = 0; j < s->P; j++) {
        snprintf(nm, sizeof nm, "in_ready[%u]", j);
        ls_field(f, 14, nm, (uint64_t)s->d.in_ready[j], (uint64_t)s->e.in_ready[j]);
    }
    ls_field(f, 14, "out_valid", (uint64_t)s->d.out_valid, (uint64_t)s->e.out_valid);
    ls_field(f, 14, "busy", (uint64_t)s->d.busy, (uint64_t)s->e.busy);
    ls_field(f, 14, "out_prim_id", s->d.out_prim_id, s->e.out_prim_id);
    ls_field(f, 14, "out_tag", s->d.out_tag, s->e.out_tag);
    ls_field(f, 14, "out_mask", s->d.out_mask, s->e.out_mask);
    if (s->qh != s->qt)
        fprintf(f, "  next expected in input order: prim_id 0x%08x mask 0x%" PRIx64 " (p2g_mask)\n",
                s->q_id[s->qh % QCAP], s->q_mask[s->qh % QCAP]);
    fprintf(f, "  configuration %u: n=%u W=%u H=%u tile_log2=%u mode=%s scissor=(%u,%u)-(%u,%u); units' turn: in %u out %u\n",
            s->ci, s->in.cfg.n_gpus, s->in.cfg.width, s->in.cfg.height, s->in.cfg.tile_log2,
            s->in.cfg.mode == P2G_MODE_LINEAR ? "linear" : "diag", s->in.cfg.sc_x0, s->in.cfg.sc_y0, s->in.cfg.sc_x1,
            s->in.cfg.sc_y1, s->m.wptr, s->m.rptr);
}

static void hist_print(void *u, FILE *f, const void *r)
{
    (void)u;
    const hrec_t *h = r;
    if (h->kind == 0) fprintf(f, "    cycle %-8" PRIu64 " IN   %u slot(s), first id=0x%08x\n", h->cycle, h->n, h->id);
    else fprintf(f, "    cycle %-8" PRIu64 " OUT  id=0x%08x mask=0x%" PRIx64 "\n", h->cycle, h->id, h->mask);
}

static void cmd(void *u, FILE *f, int near)
{
    cs_t *s = u;
    (void)near;
    fprintf(f, "%s --seed 0x%" PRIx64 " --prims %" PRIu64 " --configs %u", s->ls.argv0, s->o->c.seed, s->o->prims,
            s->o->configs);
}

static const ls_unit_t merge_unit = {
    .tool = TOOL, .unit = "p2g_merge", .drive = NULL, .eval = eval, .clock = clock_, .dump = dump,
    .detail = detail, .hist_print = hist_print, .cmd = cmd, .has_near = 0, .hist_depth = 16,
    .hist_rec = sizeof(hrec_t), .watchdog = 100000, .watchdog_what = "no output",
};

static void usage(void)
{
    fprintf(stderr, "usage: " TOOL " [--seed S|random] [--prims N] [--configs C] [--quiet] [--waves F.fst] [--gtkw V]\n"
                    "  [--out-dir D] [--window W]\n");
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.c.seed = 0x5eed;
    o.c.out_dir = "out/cosim/p2g-merge";
    o.c.window = 40;
    o.prims = 100000;
    o.configs = 20;
    const ls_opt_t opts[] = {
        {"--quiet", LS_OPT_FLAG, &o.c.quiet, 0, 0, NULL, NULL},
        {"--seed", LS_OPT_SEED, &o.c.seed, 0, 0, NULL, NULL},
        {"--prims", LS_OPT_U64, &o.prims, 1, 10000000000ull, NULL, NULL},
        {"--configs", LS_OPT_U32, &o.configs, 1, 100000, NULL, NULL},
        {"--out-dir", LS_OPT_STR, &o.c.out_dir, 0, 0, NULL, NULL},
        {"--window", LS_OPT_U32, &o.c.window, 1, 100000, NULL, NULL},
        {"--gtkw", LS_OPT_STR, &o.c.gtkw, 0, 0, NULL, NULL},
        {"--waves", LS_OPT_STR, &o.c.waves, 0, 0, NULL, NULL},
    };
    int pr = ls_parse(TOOL, argc, argv, opts, sizeof opts / sizeof opts[0], NULL, usage);
    if (pr) return pr == 1 ? 0 : 2;

    cs_t *s = calloc(1, sizeof *s);
    if (!s) return 1;
    s->o = &o;
    s->P = p2g_merge_dut_p();
    s->prm = p2g_merge_dut_params();
    if (ls_init(&s->ls, &merge_unit, &o.c, argv[0])) return 1;
    snprintf(s->ls.params, sizeof s->ls.params, "P=%u MAX_GPUS=%u ROWS=%u", s->P, s->prm.max_gpus, s->prm.rows);
    rng_seed(&s->r, o.c.seed);
    s->dut = p2g_merge_dut_new(o.c.waves);
    p2g_merge_hw_init(&s->m, s->P, s->prm);
    ls_start(&s->ls, s, o.c.waves, 0, UINT64_MAX, 1, 0);
    s->per_cfg = o.prims / o.configs ? o.prims / o.configs : 1;
    uint32_t nseen[65] = {0};
    int rc = LS_OK;
    for (s->ci = 0; s->ci < o.configs && rc == LS_OK; s->ci++) {
        /* drain, then the new configuration */
        s->cfg_pending = 1;
        while (rc == LS_OK && (s->qh != s->qt || s->e.busy)) {
            drive(s);
            s->in.out_ready = 1;
            rc = ls_step(&s->ls);
        }
        if (rc != LS_OK) break;
        uint32_t n = 1 + rng_below(&s->r, s->prm.max_gpus);
        if (s->ci % 4 == 3) n = s->prm.max_gpus;
        p2g_stim_config(&s->r, n, &s->in.cfg);
        nseen[n]++;
        s->cfg_pending = 0;
        s->idle = rng_below(&s->r, 4);
        s->stall_pm = rng_below(&s->r, 600);
        s->gap_pm = rng_below(&s->r, 500);
        s->quota = s->sent + s->per_cfg;
        while (rc == LS_OK && (s->sent < s->quota || s->qh != s->qt)) {
            drive(s);
            rc = ls_step(&s->ls);
        }
    }
    if (rc == LS_FAIL) {
        p2g_merge_dut_free(s->dut);
        ls_free(&s->ls);
        return 1;
    }
    uint32_t distinct = 0;
    for (uint32_t n = 1; n <= 64; n++) distinct += nseen[n] != 0;
    if (!o.c.quiet)
        printf(TOOL ": P=%u MAX_GPUS=%u ROWS=%u seed=0x%" PRIx64 " configs=%u (%u distinct GPU counts)\n", s->P,
               s->prm.max_gpus, s->prm.rows, o.c.seed, o.configs, distinct);
    printf(TOOL ": %" PRIu64 " cycles, %" PRIu64 " primitives in, %" PRIu64 " masks out in order and checked against "
                "p2g_mask(), %" PRIu64 " port comparisons\n",
           s->ls.cycle, s->sent, s->mask_checks, s->ls.port_checks);
    int bad = ls_require(TOOL, s->mask_checks, "mask comparisons") || s->mask_checks != s->sent;
    if (s->mask_checks != s->sent) fprintf(stderr, TOOL ": FAIL: %" PRIu64 " primitives in, %" PRIu64 " out\n", s->sent, s->mask_checks);
    p2g_merge_dut_free(s->dut);
    ls_free(&s->ls);
    free(s);
    if (bad) return 1;
    printf(TOOL ": PASS\n");
    return 0;
}
