/* Lockstep unit co-simulation of the SIMT lane datapaths: the verilated simt_fpu and simt_sfu
 * (sim/simt_fpu/simt_lane_top.v through the shim simt_fpu_dut.h) against the ISA's soft-float and SFU
 * functions (cmodel/isa/isa_fp.c, isa_sfu.c: the definition, docs/isa.md sections 5 and 6).
 *
 * Both units are driven every cycle (random idle cycles in between) from deterministic stimulus phases:
 *   FPU  corner2 (every pair of corner values, fadd fmul fmin fmax fsetp, every cc, modifier sets),
 *        corner3 (every triple for fmad), cornerU (conversions of every corner value, every mode),
 *        cvt (every exponent x significand patterns x every mode: frnd f2i f2u), int (i2f/u2f around every
 *        power of two, ties), struct (structured random: near exponents, few-bit significands, ties,
 *        cancellation, FTZ and overflow boundaries), random (uniform bits, every opcode incl. non-FPU ones)
 *   SFU  scorner (corner values x every function x modifiers), segment (every table entry: endpoints,
 *        midpoints and random points of its interval, over several exponents / periods), srandom
 * Every output is compared with the model at the cycle LAT after issue (valid_o timing included). Runs on the
 * lockstep driver (sim/common/lockstep.h). On the first mismatch: op, operands, modifiers, DUT vs model in hex,
 * the phase and vector index, the last issues, a command that replays exactly that vector and one that replays
 * the run; the run is replayed with an FST of the window before the failure; exit status 1.
 * --inject-fpu N / --inject-sfu N corrupt the N-th expectation (tests that a mismatch is caught). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/rng.h"
#include "isa/isa.h"
#include "simt_fpu_dut.h"
#include "simt_fpu_stim.h"
#include "../common/lockstep.h"

#define RING 128   /* in-flight slots (LAT <= 64) */
#define HIST 16
#define TOOL "cosim-simt-fpu"

typedef simt_fvec_t fvec_t;
typedef simt_svec_t svec_t;
#define N_FPH SIMT_N_FPH
#define N_SPH SIMT_N_SPH
#define FPH_NAME SIMT_FPH_NAME
#define SPH_NAME SIMT_SPH_NAME

typedef struct {
    ls_common_t c;             /* seed, out_dir, window, waves (--fst), gtkw, quiet */
    simt_stim_cfg_t cfg;
    uint32_t gap_pct;
    int fph_only, sph_only;    /* -1: all */
    uint64_t inject_fpu, inject_sfu;   /* 1-based index of the checked result to corrupt, 0: none */
    int have_vec, have_svec, any_phase;
    fvec_t vec;
    svec_t svec;
    const char *argv0;
    char phases[256];          /* the --phase options given, for the reproduce line */
} opts_t;

/* ------------------------------------------------------------------------------------------------ run */
typedef struct {
    int valid;
    int ph;
    uint64_t idx;
    uint64_t cycle;
    fvec_t v;
    uint32_t res;
    int pred;
} fslot_t;
typedef struct {
    int valid;
    int ph;
    uint64_t idx;
    uint64_t cycle;
    svec_t v;
    uint32_t res;
} sslot_t;

typedef struct {             /* an issue (history record) */
    uint64_t cycle;
    int sfu;
    fvec_t f;
    svec_t s;
} hist_t;

static void fdesc(const fvec_t *v, char *buf, size_t cap)
{
    const char *n = isa_op_name(v->op);
    snprintf(buf, cap, "%s (op 0x%02x) cc=%u na=%u aa=%u nb=%u nc=%u a=0x%08" PRIx32 " b=0x%08" PRIx32 " c=0x%08" PRIx32,
             n ? n : "?", v->op, v->cc, v->mods & 1, (v->mods >> 1) & 1, (v->mods >> 2) & 1, (v->mods >> 3) & 1,
             v->a, v->b, v->c);
}

static void sdesc(const svec_t *v, char *buf, size_t cap)
{
    const char *n = isa_op_name(v->op);
    snprintf(buf, cap, "%s (op 0x%02x) na=%u aa=%u a=0x%08" PRIx32, n ? n : "?", v->op, v->mods & 1,
             (v->mods >> 1) & 1, v->a);
}

typedef struct {
    const opts_t *o;
    int latf, lats;
    ls_t ls;
    simt_fpu_dut_t *d;
    rng_t gf, gs, gaprng;
    fslot_t fr[RING];
    sslot_t sr[RING];
    int fph, sph;
    uint64_t fi, si;   /* index inside the current phase */
    uint64_t ftotal, stotal, fdone, sdone, fchecked, schecked, last_issue;
    uint64_t fph_checked[N_FPH], sph_checked[N_SPH];
    uint64_t op_count[128];
    uint32_t seg_hits[896];
    simt_fpu_in_t in_f;
    simt_sfu_in_t in_s;
    /* the report's subject */
    int rep_sfu;
    const fslot_t *rep_fe;
    const sslot_t *rep_se;
    int dut_valid, dut_pred, mod_valid, mod_pred;
    uint32_t dut_res, mod_res;
} ctx_t;

/* this cycle's FPU and SFU operations (or garbage on the data inputs of an idle unit) */
static int fpu_drive(void *u, uint64_t cycle)
{
    ctx_t *c = u;
    const opts_t *o = c->o;
    memset(&c->in_f, 0, sizeof c->in_f);
    memset(&c->in_s, 0, sizeof c->in_s);
    fslot_t *fs = &c->fr[cycle % RING];
    sslot_t *ss = &c->sr[cycle % RING];
    int gap = o->gap_pct && rng_below(&c->gaprng, 100) < o->gap_pct;
    /* next FPU vector */
    fs->valid = 0;
    if (c->fdone < c->ftotal && !gap) {
        if (o->have_vec) {
            fs->v = o->vec;
            fs->ph = N_FPH;
            fs->idx = 0;
        } else {
            while (c->fph < N_FPH && ((o->fph_only >= 0 && o->fph_only != c->fph) || c->fi >= simt_fph_count(&o->cfg, c->fph))) {
                c->fph++;
                c->fi = 0;
            }
            simt_fph_vec(&c->gf, &o->cfg, c->fph, c->fi, &fs->v);
            fs->ph = c->fph;
            fs->idx = c->fi++;
        }
        fs->valid = 1;
        fs->cycle = cycle;
        simt_ref_fpu(&fs->v, &fs->res, &fs->pred);
        c->fdone++;
        c->last_issue = cycle;
        c->in_f = (simt_fpu_in_t){1, fs->v.op, fs->v.cc, fs->v.mods & 1, (fs->v.mods >> 1) & 1,
                                  (fs->v.mods >> 2) & 1, (fs->v.mods >> 3) & 1, fs->v.a, fs->v.b, fs->v.c};
        if (fs->v.op < 128) c->op_count[fs->v.op]++;
        hist_t *h = ls_hist_add(&c->ls);
        h->cycle = cycle;
        h->sfu = 0;
        h->f = fs->v;
    } else {   /* idle: random garbage on the data inputs (must not matter) */
        c->in_f.op = (uint8_t)(rng_u32(&c->gaprng) & 0x7f);
        c->in_f.a = rng_u32(&c->gaprng);
    }
    ss->valid = 0;
    if (c->sdone < c->stotal && !gap) {
        if (o->have_svec) {
            ss->v = o->svec;
            ss->ph = N_SPH;
            ss->idx = 0;
        } else {
            while (c->sph < N_SPH && ((o->sph_only >= 0 && o->sph_only != c->sph) || c->si >= simt_sph_count(&o->cfg, c->sph))) {
                c->sph++;
                c->si = 0;
            }
            simt_sph_vec(&c->gs, &o->cfg, c->sph, c->si, &ss->v);
            ss->ph = c->sph;
            ss->idx = c->si++;
        }
        ss->valid = 1;
        ss->cycle = cycle;
        ss->res = simt_ref_sfu(&ss->v);
        c->sdone++;
        c->last_issue = cycle;
        c->in_s = (simt_sfu_in_t){1, ss->v.op, ss->v.mods & 1, (ss->v.mods >> 1) & 1, ss->v.a};
        if (ss->v.op < 128) c->op_count[ss->v.op]++;
        int ent = simt_sfu_entry(ss->v.op, simt_mod_a(ss->v.a, ss->v.mods));
        if (ent >= 0) c->seg_hits[ent]++;
        hist_t *h = ls_hist_add(&c->ls);
        h->cycle = cycle;
        h->sfu = 1;
        h->s = ss->v;
    } else {
        c->in_s.op = (uint8_t)(rng_u32(&c->gaprng) & 0x7f);
        c->in_s.a = rng_u32(&c->gaprng);
    }
    return LS_OK;
}

/* both units' outputs against the definition's results of the operations issued LAT cycles ago */
static int fpu_eval(void *u, uint64_t cycle)
{
    ctx_t *c = u;
    const opts_t *o = c->o;
    simt_fpu_out_t of;
    simt_sfu_out_t os;
    int failed = 0;
    simt_fpu_dut_eval(c->d, &c->in_f, &c->in_s, &of, &os);
    if (cycle >= (uint64_t)c->latf || of.valid) {
        const fslot_t *e = cycle >= (uint64_t)c->latf ? &c->fr[(cycle - (uint64_t)c->latf) % RING] : NULL;
        int ev = e && e->valid;
        uint32_t eres = ev ? e->res : 0;
        int epred = ev ? e->pred : 0;
        ls_compared(&c->ls);
        if (ev && ++c->fchecked == o->inject_fpu) {
            eres ^= 1;
            if (c->ls.report)   /* (not again while the failure is replayed for its waveform) */
                printf("cosim-simt-fpu: --inject-fpu %" PRIu64 ": expectation of FPU result #%" PRIu64 " corrupted\n",
                       o->inject_fpu, c->fchecked);
        }
        if (ev) c->fph_checked[e->ph < N_FPH ? e->ph : 0]++;
        if (of.valid != ev || (ev && (of.res != eres || of.pred != epred))) {
            c->rep_sfu = 0;
            c->rep_fe = ev ? e : NULL;
            c->dut_valid = of.valid, c->dut_res = of.res, c->dut_pred = of.pred;
            c->mod_valid = ev, c->mod_res = eres, c->mod_pred = epred;
            c->ls.unit = "simt_fpu";
            ls_fail(&c->ls, cycle, "simt_fpu result differs from the ISA definition (isa_fp.c)");
            failed = 1;
        }
    }
    if (cycle >= (uint64_t)c->lats || os.valid) {
        const sslot_t *e = cycle >= (uint64_t)c->lats ? &c->sr[(cycle - (uint64_t)c->lats) % RING] : NULL;
        int ev = e && e->valid;
        uint32_t eres = ev ? e->res : 0;
        ls_compared(&c->ls);
        if (ev && ++c->schecked == o->inject_sfu) {
            eres ^= 1;
            if (c->ls.report)   /* (not again while the failure is replayed for its waveform) */
                printf("cosim-simt-fpu: --inject-sfu %" PRIu64 ": expectation of SFU result #%" PRIu64 " corrupted\n",
                       o->inject_sfu, c->schecked);
        }
        if (ev) c->sph_checked[e->ph < N_SPH ? e->ph : 0]++;
        if (os.valid != ev || (ev && os.res != eres)) {
            c->rep_sfu = 1;
            c->rep_se = ev ? e : NULL;
            c->dut_valid = os.valid, c->dut_res = os.res, c->dut_pred = 0;
            c->mod_valid = ev, c->mod_res = eres, c->mod_pred = 0;
            c->ls.unit = "simt_sfu";
            ls_fail(&c->ls, cycle, "simt_sfu result differs from the ISA definition (isa_sfu.c)");
            failed = 1;
        }
    }
    if (failed) return LS_FAIL;
    int lat = c->latf > c->lats ? c->latf : c->lats;
    return c->fdone == c->ftotal && c->sdone == c->stotal && cycle >= c->last_issue + (uint64_t)lat + 1 ? LS_DONE : LS_OK;
}

static void fpu_clock(void *u) { simt_fpu_dut_clock(((ctx_t *)u)->d); }
static void fpu_dump(void *u, int on) { simt_fpu_dut_dump(((ctx_t *)u)->d, on); }

static void fpu_detail(void *u, FILE *f, const char *why)
{
    const ctx_t *c = u;
    const opts_t *o = c->o;
    char buf[200];
    (void)why;
    if (!c->rep_sfu) {
        const fslot_t *e = c->rep_fe;
        if (e) fdesc(&e->v, buf, sizeof buf); else snprintf(buf, sizeof buf, "(no operation issued)");
        fprintf(f, "  operation: %s (LAT %d)\n", buf, c->latf);
    } else {
        const sslot_t *e = c->rep_se;
        if (e) sdesc(&e->v, buf, sizeof buf); else snprintf(buf, sizeof buf, "(no operation issued)");
        fprintf(f, "  operation: %s (LAT %d)\n", buf, c->lats);
    }
    ls_field_head(f, 8, "ISA definition");
    ls_field(f, 8, "valid", (uint64_t)c->dut_valid, (uint64_t)c->mod_valid);
    ls_field(f, 8, "res", c->dut_res, c->mod_res);
    if (!c->rep_sfu) ls_field(f, 8, "pred", (uint64_t)c->dut_pred, (uint64_t)c->mod_pred);
    if (!c->rep_sfu && c->rep_fe) {
        const fslot_t *e = c->rep_fe;
        fprintf(f, "  phase %s, vector #%" PRIu64 ", issued at cycle %" PRIu64 "\n",
                e->ph < N_FPH ? FPH_NAME[e->ph] : "--vec", e->idx, e->cycle);
        fprintf(f, "  reproduce this vector: %s --vec 0x%02x,%u,0x%x,0x%08" PRIx32 ",0x%08" PRIx32 ",0x%08" PRIx32 "\n",
                o->argv0, e->v.op, e->v.cc, e->v.mods, e->v.a, e->v.b, e->v.c);
    }
    if (c->rep_sfu && c->rep_se) {
        const sslot_t *e = c->rep_se;
        fprintf(f, "  phase %s, vector #%" PRIu64 ", issued at cycle %" PRIu64 "\n",
                e->ph < N_SPH ? SPH_NAME[e->ph] : "--svec", e->idx, e->cycle);
        fprintf(f, "  reproduce this vector: %s --svec 0x%02x,0x%x,0x%08" PRIx32 "\n", o->argv0, e->v.op, e->v.mods,
                e->v.a);
    }
}

static void fpu_hist_print(void *u, FILE *f, const void *rec)
{
    const hist_t *h = rec;
    char buf[200];
    (void)u;
    if (h->sfu) sdesc(&h->s, buf, sizeof buf); else fdesc(&h->f, buf, sizeof buf);
    fprintf(f, "    cycle %-9" PRIu64 " %s issue %s\n", h->cycle, h->sfu ? "SFU" : "FPU", buf);
}

static void fpu_cmd(void *u, FILE *f, int near)
{
    const opts_t *o = ((const ctx_t *)u)->o;
    (void)near;
    fprintf(f, "%s --seed 0x%" PRIx64 "%s --struct %" PRIu64 " --random %" PRIu64 " --srandom %" PRIu64
               " --seg-scales %d --cvt-mants %d --gap %u",
            o->argv0, o->c.seed, o->phases, o->cfg.n_struct, o->cfg.n_random, o->cfg.n_srandom, o->cfg.seg_scales,
            o->cfg.cvt_mants, o->gap_pct);
    if (o->inject_fpu) fprintf(f, " --inject-fpu %" PRIu64, o->inject_fpu);
    if (o->inject_sfu) fprintf(f, " --inject-sfu %" PRIu64, o->inject_sfu);
}

static const ls_unit_t fpu_unit = {
    .tool = TOOL,
    .unit = "simt_lane_top",
    .drive = fpu_drive,
    .eval = fpu_eval,
    .clock = fpu_clock,
    .dump = fpu_dump,
    .detail = fpu_detail,
    .hist_print = fpu_hist_print,
    .cmd = fpu_cmd,
    .hist_depth = HIST,
    .hist_rec = sizeof(hist_t),
};

/* One run (the whole stimulus). fst/dump_from/stop_at: waveform window; report: print a failure's report.
 * Returns the context (the caller frees it) or NULL when out of memory; *rc: LS_DONE, LS_STOP or LS_FAIL. */
static ctx_t *run(const opts_t *o, const char *fst, uint64_t dump_from, uint64_t stop_at, int report, int *rc)
{
    ctx_t *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->o = o;
    c->latf = simt_fpu_dut_lat_fpu();
    c->lats = simt_fpu_dut_lat_sfu();
    rng_seed(&c->gf, o->c.seed);
    rng_seed(&c->gs, o->c.seed ^ 0x5f5f5f5full);
    rng_seed(&c->gaprng, o->c.seed ^ 0x9a9a9a9aull);
    for (int p = 0; p < N_FPH; p++) if (o->fph_only < 0 || o->fph_only == p) c->ftotal += simt_fph_count(&o->cfg, p);
    for (int p = 0; p < N_SPH; p++) if (o->sph_only < 0 || o->sph_only == p) c->stotal += simt_sph_count(&o->cfg, p);
    if (o->have_vec) c->ftotal = 1;
    if (o->have_svec) c->stotal = 1;
    c->d = simt_fpu_dut_new(fst);
    if (ls_init(&c->ls, &fpu_unit, &o->c, o->argv0)) {
        simt_fpu_dut_free(c->d);
        free(c);
        return NULL;
    }
    ls_start(&c->ls, c, fst, dump_from, stop_at, report, 0);
    snprintf(c->ls.params, sizeof c->ls.params, "LAT_FPU=%d LAT_SFU=%d", c->latf, c->lats);
    *rc = ls_run(&c->ls);
    simt_fpu_dut_free(c->d);
    c->d = NULL;
    ls_free(&c->ls);
    return c;
}

static void fpu_replay(void *u, const char *fst, uint64_t from, uint64_t to)
{
    int rc;
    free(run(u, fst, from, to, 0, &rc));
}

static void usage(void)
{
    fprintf(stderr,
            "usage: cosim-simt-fpu [--seed S] [--struct N] [--random N] [--srandom N] [--seg-scales K] [--cvt-mants M]\n"
            "          [--gap PCT] [--phase NAME] [--inject-fpu N] [--inject-sfu N] [--fst FILE] [--quiet]\n"
            "          [--out-dir DIR] [--window W]\n"
            "       cosim-simt-fpu --vec OP,CC,MODS,A,B,C     one FPU vector (MODS: bit0 NA bit1 AA bit2 NB bit3 NC; hex ok)\n"
            "       cosim-simt-fpu --svec OP,MODS,A           one SFU vector (MODS: bit0 NA bit1 AA)\n"
            "phases: corner2 corner3 cornerU cvt int struct random (FPU), scorner segment srandom (SFU)\n"
            "A failure is replayed with an FST of the last W cycles (default 40) in DIR (default out/cosim/simt_fpu).\n");
}

/* comma-separated list of exactly n integers (decimal or 0x hex) */
static int parse_list(const char *name, const char *s, uint64_t *out, int n)
{
    char buf[256], *save = NULL;
    int k = 0;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (k == n) return arg_fail(TOOL, name, s, "too many fields", NULL);
        if (arg_u64x(TOOL, name, t, 0, UINT32_MAX, 1, &out[k++])) return -1;
    }
    return k == n ? 0 : arg_fail(TOOL, name, s, "too few fields", NULL);
}

static int opt_vec(void *u, const char *name, const char *val)
{
    opts_t *o = u;
    uint64_t f[6] = {0};
    if (parse_list(name, val, f, 6)) return -1;
    o->have_vec = 1;
    o->vec = (fvec_t){(uint8_t)f[0], (uint8_t)f[1], (uint8_t)f[2], (uint32_t)f[3], (uint32_t)f[4], (uint32_t)f[5]};
    return 0;
}

static int opt_svec(void *u, const char *name, const char *val)
{
    opts_t *o = u;
    uint64_t f[3] = {0};
    if (parse_list(name, val, f, 3)) return -1;
    o->have_svec = 1;
    o->svec = (svec_t){(uint8_t)f[0], (uint8_t)f[1], (uint32_t)f[2]};
    return 0;
}

static int opt_phase(void *u, const char *name, const char *val)
{
    opts_t *o = u;
    int found = 0;
    if (!o->any_phase) { o->fph_only = N_FPH; o->sph_only = N_SPH; }   /* none unless named */
    o->any_phase = 1;
    for (int p = 0; p < N_FPH; p++) if (!strcmp(val, FPH_NAME[p])) { o->fph_only = p; found = 1; }
    for (int p = 0; p < N_SPH; p++) if (!strcmp(val, SPH_NAME[p])) { o->sph_only = p; found = 1; }
    if (!found) return arg_fail(TOOL, name, val, "no such phase", "corner2 corner3 cornerU cvt int struct random scorner segment srandom");
    size_t l = strlen(o->phases);
    snprintf(o->phases + l, sizeof o->phases - l, " --phase %s", val);
    return 0;
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.c.seed = 0x5eed;
    o.c.out_dir = "out/cosim/simt_fpu";
    o.c.window = 40;
    o.c.gtkw = NULL;   /* no saved view: the window's .gtkw names the FST and the time only */
    o.cfg.n_struct = 400000;
    o.cfg.n_random = 200000;
    o.cfg.n_srandom = 300000;
    uint32_t seg_scales = 4, cvt_mants = 32;
    o.gap_pct = 3;
    o.fph_only = o.sph_only = -1;
    o.argv0 = argv[0];
    const ls_opt_t opts[] = {
        {"--seed", LS_OPT_U64X, &o.c.seed, 0, UINT64_MAX, NULL, NULL},
        {"--struct", LS_OPT_U64, &o.cfg.n_struct, 0, 1ull << 40, NULL, NULL},
        {"--random", LS_OPT_U64, &o.cfg.n_random, 0, 1ull << 40, NULL, NULL},
        {"--srandom", LS_OPT_U64, &o.cfg.n_srandom, 0, 1ull << 40, NULL, NULL},
        {"--seg-scales", LS_OPT_U32, &seg_scales, 1, 1000, NULL, NULL},
        {"--cvt-mants", LS_OPT_U32, &cvt_mants, 8, 1u << 20, NULL, NULL},
        {"--gap", LS_OPT_U32, &o.gap_pct, 0, 100, NULL, NULL},
        {"--inject-fpu", LS_OPT_U64, &o.inject_fpu, 0, UINT64_MAX, NULL, NULL},
        {"--inject-sfu", LS_OPT_U64, &o.inject_sfu, 0, UINT64_MAX, NULL, NULL},
        {"--fst", LS_OPT_STR, &o.c.waves, 0, 0, NULL, NULL},
        {"--out-dir", LS_OPT_STR, &o.c.out_dir, 0, 0, NULL, NULL},
        {"--window", LS_OPT_U32, &o.c.window, 1, 1000000, NULL, NULL},
        {"--quiet", LS_OPT_FLAG, &o.c.quiet, 0, 0, NULL, NULL},
        {"--phase", LS_OPT_FN, NULL, 0, 0, opt_phase, NULL},
        {"--vec", LS_OPT_FN, NULL, 0, 0, opt_vec, NULL},
        {"--svec", LS_OPT_FN, NULL, 0, 0, opt_svec, NULL},
    };
    int prc = ls_parse(TOOL, argc, argv, opts, sizeof opts / sizeof opts[0], &o, usage);
    if (prc) return prc == 1 ? 0 : 2;
    o.cfg.seg_scales = (int)seg_scales;
    o.cfg.cvt_mants = (int)cvt_mants;
    if (o.have_vec || o.have_svec) { o.fph_only = N_FPH; o.sph_only = N_SPH; o.gap_pct = 0; }
    const int latf = simt_fpu_dut_lat_fpu(), lats = simt_fpu_dut_lat_sfu();

    uint64_t ftotal = 0, stotal = 0;
    for (int p = 0; p < N_FPH; p++) if (o.fph_only < 0 || o.fph_only == p) ftotal += simt_fph_count(&o.cfg, p);
    for (int p = 0; p < N_SPH; p++) if (o.sph_only < 0 || o.sph_only == p) stotal += simt_sph_count(&o.cfg, p);
    if (o.have_vec) ftotal = 1;
    if (o.have_svec) stotal = 1;
    if (!o.c.quiet)
        printf("cosim-simt-fpu: seed 0x%" PRIx64 ", LAT fpu %d sfu %d: %" PRIu64 " FPU and %" PRIu64 " SFU vectors\n",
               o.c.seed, latf, lats, ftotal, stotal);

    double t0 = ls_cpu_s();
    int rc;
    ctx_t *c = run(&o, o.c.waves, 0, UINT64_MAX, 1, &rc);
    double secs = ls_cpu_s() - t0;
    if (!c) { fprintf(stderr, "cosim-simt-fpu: out of memory\n"); return 1; }
    if (rc == LS_FAIL) {
        if (!o.c.waves) {
            char tag[64];
            snprintf(tag, sizeof tag, "seed%" PRIx64, o.c.seed);
            ls_fail_window(TOOL, &o.c, c->ls.fail_cycle, tag, NULL, fpu_replay, &o, NULL, NULL);
        }
        printf("FAIL\n");
        free(c);
        return 1;
    }
    uint64_t cycles = c->ls.cycle, fchecked = c->fchecked, schecked = c->schecked;
    if (fchecked != ftotal || schecked != stotal) {
        printf("FAIL: checked %" PRIu64 "/%" PRIu64 " FPU and %" PRIu64 "/%" PRIu64 " SFU results\n", fchecked, ftotal,
               schecked, stotal);
        free(c);
        return 1;
    }
    if (ls_require(TOOL, fchecked + schecked, "results compared")) {
        free(c);
        return 1;
    }
    printf("cosim-simt-fpu: FPU per phase:");
    for (int p = 0; p < N_FPH; p++) printf(" %s %" PRIu64, FPH_NAME[p], c->fph_checked[p]);
    printf("\ncosim-simt-fpu: SFU per phase:");
    for (int p = 0; p < N_SPH; p++) printf(" %s %" PRIu64, SPH_NAME[p], c->sph_checked[p]);
    printf("\ncosim-simt-fpu: per op:");
    for (int k = 0; k < 128; k++)
        if (c->op_count[k] && isa_op_name((uint32_t)k)) printf(" %s %" PRIu64, isa_op_name((uint32_t)k), c->op_count[k]);
    printf("\n");
    /* every SFU table entry must have been exercised when the segment phase ran */
    if (o.sph_only < 0 || o.sph_only == SIMT_PS_SEGMENT) {
        uint32_t minh = UINT32_MAX;
        int minent = 0;
        for (int k = 0; k < 896; k++)
            if (c->seg_hits[k] < minh) { minh = c->seg_hits[k]; minent = k; }
        printf("cosim-simt-fpu: SFU table entries hit: min %u (entry %d of 896)\n", minh, minent);
        if (minh == 0) {
            printf("FAIL: SFU table entry %d (simt_sfu_rom address) never exercised\n", minent);
            free(c);
            return 1;
        }
    }
    printf("cosim-simt-fpu: %" PRIu64 " cycles, %" PRIu64 " FPU + %" PRIu64 " SFU results compared in %.2f s: "
           "%.2f M ops/s, %.2f M cycles/s\n", cycles, fchecked, schecked, secs,
           secs > 0 ? (double)(fchecked + schecked) / secs / 1e6 : 0.0, secs > 0 ? (double)cycles / secs / 1e6 : 0.0);
    printf("PASS\n");
    free(c);
    return 0;
}
