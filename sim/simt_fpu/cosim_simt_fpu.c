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
 * Every output is compared with the model at the cycle LAT after issue (valid_o timing included). On the first
 * mismatch: op, operands, modifiers, DUT vs model in hex, the phase and vector index, a command that replays
 * exactly that vector and one that replays the run (optionally with an FST waveform); exit status 1.
 * --inject-fpu N / --inject-sfu N corrupt the N-th expectation (tests that a mismatch is caught). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/rng.h"
#include "isa/isa.h"
#include "simt_fpu_dut.h"
#include "simt_fpu_stim.h"

#define RING 128   /* in-flight slots (LAT <= 64) */

typedef simt_fvec_t fvec_t;
typedef simt_svec_t svec_t;
#define N_FPH SIMT_N_FPH
#define N_SPH SIMT_N_SPH
#define FPH_NAME SIMT_FPH_NAME
#define SPH_NAME SIMT_SPH_NAME

typedef struct {
    uint64_t seed;
    simt_stim_cfg_t cfg;
    int gap_pct;
    int fph_only, sph_only;    /* -1: all */
    uint64_t inject_fpu, inject_sfu;   /* 1-based index of the checked result to corrupt, 0: none */
    const char *fst;
    int quiet;
    int have_vec, have_svec;
    fvec_t vec;
    svec_t svec;
    char argv0[256];
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

static void usage(const char *p)
{
    fprintf(stderr,
            "usage: %s [--seed S] [--struct N] [--random N] [--srandom N] [--seg-scales K] [--cvt-mants M]\n"
            "          [--gap PCT] [--phase NAME] [--inject-fpu N] [--inject-sfu N] [--fst FILE] [--quiet]\n"
            "       %s --vec OP,CC,MODS,A,B,C     one FPU vector (MODS: bit0 NA bit1 AA bit2 NB bit3 NC; hex ok)\n"
            "       %s --svec OP,MODS,A           one SFU vector (MODS: bit0 NA bit1 AA)\n"
            "phases: corner2 corner3 cornerU cvt int struct random (FPU), scorner segment srandom (SFU)\n",
            p, p, p);
    exit(2);
}

static uint64_t num(const char *s, const char *what)
{
    char *end;
    uint64_t v = strtoull(s, &end, 0);
    if (!*s || *end) {
        fprintf(stderr, "cosim-simt-fpu: bad %s '%s'\n", what, s);
        exit(2);
    }
    return v;
}

static int parse_list(const char *s, uint64_t *out, int max)
{
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok(buf, ","); t && n < max; t = strtok(NULL, ","))
        out[n++] = num(t, "vector field");
    return n;
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.seed = 0x5eed;
    o.cfg.n_struct = 400000;
    o.cfg.n_random = 200000;
    o.cfg.n_srandom = 300000;
    o.cfg.seg_scales = 4;
    o.cfg.cvt_mants = 32;
    o.gap_pct = 3;
    o.fph_only = o.sph_only = -1;
    snprintf(o.argv0, sizeof o.argv0, "%s", argv[0]);
    int any_phase = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV() do { if (!val) usage(argv[0]); i++; } while (0)
        if (!strcmp(a, "--seed")) { NEEDV(); o.seed = num(val, "seed"); }
        else if (!strcmp(a, "--struct")) { NEEDV(); o.cfg.n_struct = num(val, "count"); }
        else if (!strcmp(a, "--random")) { NEEDV(); o.cfg.n_random = num(val, "count"); }
        else if (!strcmp(a, "--srandom")) { NEEDV(); o.cfg.n_srandom = num(val, "count"); }
        else if (!strcmp(a, "--seg-scales")) { NEEDV(); o.cfg.seg_scales = (int)num(val, "count"); }
        else if (!strcmp(a, "--cvt-mants")) { NEEDV(); o.cfg.cvt_mants = (int)num(val, "count"); }
        else if (!strcmp(a, "--gap")) { NEEDV(); o.gap_pct = (int)num(val, "percentage"); }
        else if (!strcmp(a, "--inject-fpu")) { NEEDV(); o.inject_fpu = num(val, "index"); }
        else if (!strcmp(a, "--inject-sfu")) { NEEDV(); o.inject_sfu = num(val, "index"); }
        else if (!strcmp(a, "--fst")) { NEEDV(); o.fst = val; }
        else if (!strcmp(a, "--quiet")) o.quiet = 1;
        else if (!strcmp(a, "--phase")) {
            NEEDV();
            int found = 0;
            if (!any_phase) { o.fph_only = N_FPH; o.sph_only = N_SPH; }   /* none unless named */
            any_phase = 1;
            for (int p = 0; p < N_FPH; p++) if (!strcmp(val, FPH_NAME[p])) { o.fph_only = p; found = 1; }
            for (int p = 0; p < N_SPH; p++) if (!strcmp(val, SPH_NAME[p])) { o.sph_only = p; found = 1; }
            if (!found) usage(argv[0]);
            size_t l = strlen(o.phases);
            snprintf(o.phases + l, sizeof o.phases - l, " --phase %s", val);
        } else if (!strcmp(a, "--vec")) {
            NEEDV();
            uint64_t f[6] = {0};
            if (parse_list(val, f, 6) != 6) usage(argv[0]);
            o.have_vec = 1;
            o.vec = (fvec_t){(uint8_t)f[0], (uint8_t)f[1], (uint8_t)f[2], (uint32_t)f[3], (uint32_t)f[4], (uint32_t)f[5]};
        } else if (!strcmp(a, "--svec")) {
            NEEDV();
            uint64_t f[3] = {0};
            if (parse_list(val, f, 3) != 3) usage(argv[0]);
            o.have_svec = 1;
            o.svec = (svec_t){(uint8_t)f[0], (uint8_t)f[1], (uint32_t)f[2]};
        } else usage(argv[0]);
    }
    const int latf = simt_fpu_dut_lat_fpu(), lats = simt_fpu_dut_lat_sfu();
    if (o.have_vec || o.have_svec) { o.fph_only = N_FPH; o.sph_only = N_SPH; o.gap_pct = 0; }

    rng_t gf, gs;
    rng_seed(&gf, o.seed);
    rng_seed(&gs, o.seed ^ 0x5f5f5f5full);
    rng_t gaprng;
    rng_seed(&gaprng, o.seed ^ 0x9a9a9a9aull);

    uint64_t ftotal = 0, stotal = 0;
    for (int p = 0; p < N_FPH; p++) if (o.fph_only < 0 || o.fph_only == p) ftotal += simt_fph_count(&o.cfg, p);
    for (int p = 0; p < N_SPH; p++) if (o.sph_only < 0 || o.sph_only == p) stotal += simt_sph_count(&o.cfg, p);
    if (o.have_vec) ftotal = 1;
    if (o.have_svec) stotal = 1;
    if (!o.quiet)
        printf("cosim-simt-fpu: seed 0x%" PRIx64 ", LAT fpu %d sfu %d: %" PRIu64 " FPU and %" PRIu64 " SFU vectors\n",
               o.seed, latf, lats, ftotal, stotal);

    simt_fpu_dut_t *d = simt_fpu_dut_new(o.fst);
    fslot_t fr[RING];
    sslot_t sr[RING];
    memset(fr, 0, sizeof fr);
    memset(sr, 0, sizeof sr);
    int fph = 0, sph = 0;
    uint64_t fi = 0, si = 0;   /* index inside the current phase */
    uint64_t fdone = 0, sdone = 0, fchecked = 0, schecked = 0, last_issue = 0;
    uint64_t fph_checked[N_FPH] = {0}, sph_checked[N_SPH] = {0};
    uint64_t op_count[128] = {0};
    static uint32_t seg_hits[896];
    memset(seg_hits, 0, sizeof seg_hits);
    int failed = 0;
    clock_t t0 = clock();
    uint64_t cycle;
    for (cycle = 0;; cycle++) {
        simt_fpu_in_t in_f;
        simt_sfu_in_t in_s;
        memset(&in_f, 0, sizeof in_f);
        memset(&in_s, 0, sizeof in_s);
        fslot_t *fs = &fr[cycle % RING];
        sslot_t *ss = &sr[cycle % RING];
        int gap = o.gap_pct && (int)rng_below(&gaprng, 100) < o.gap_pct;
        /* next FPU vector */
        fs->valid = 0;
        if (fdone < ftotal && !gap) {
            if (o.have_vec) {
                fs->v = o.vec;
                fs->ph = N_FPH;
                fs->idx = 0;
            } else {
                while (fph < N_FPH && ((o.fph_only >= 0 && o.fph_only != fph) || fi >= simt_fph_count(&o.cfg, fph))) {
                    fph++;
                    fi = 0;
                }
                simt_fph_vec(&gf, &o.cfg, fph, fi, &fs->v);
                fs->ph = fph;
                fs->idx = fi++;
            }
            fs->valid = 1;
            fs->cycle = cycle;
            simt_ref_fpu(&fs->v, &fs->res, &fs->pred);
            fdone++;
            last_issue = cycle;
            in_f = (simt_fpu_in_t){1, fs->v.op, fs->v.cc, fs->v.mods & 1, (fs->v.mods >> 1) & 1,
                                   (fs->v.mods >> 2) & 1, (fs->v.mods >> 3) & 1, fs->v.a, fs->v.b, fs->v.c};
            if (fs->v.op < 128) op_count[fs->v.op]++;
        } else {   /* idle: random garbage on the data inputs (must not matter) */
            in_f.op = (uint8_t)(rng_u32(&gaprng) & 0x7f);
            in_f.a = rng_u32(&gaprng);
        }
        ss->valid = 0;
        if (sdone < stotal && !gap) {
            if (o.have_svec) {
                ss->v = o.svec;
                ss->ph = N_SPH;
                ss->idx = 0;
            } else {
                while (sph < N_SPH && ((o.sph_only >= 0 && o.sph_only != sph) || si >= simt_sph_count(&o.cfg, sph))) {
                    sph++;
                    si = 0;
                }
                simt_sph_vec(&gs, &o.cfg, sph, si, &ss->v);
                ss->ph = sph;
                ss->idx = si++;
            }
            ss->valid = 1;
            ss->cycle = cycle;
            ss->res = simt_ref_sfu(&ss->v);
            sdone++;
            last_issue = cycle;
            in_s = (simt_sfu_in_t){1, ss->v.op, ss->v.mods & 1, (ss->v.mods >> 1) & 1, ss->v.a};
            if (ss->v.op < 128) op_count[ss->v.op]++;
            int ent = simt_sfu_entry(ss->v.op, simt_mod_a(ss->v.a, ss->v.mods));
            if (ent >= 0) seg_hits[ent]++;
        } else {
            in_s.op = (uint8_t)(rng_u32(&gaprng) & 0x7f);
            in_s.a = rng_u32(&gaprng);
        }
        simt_fpu_out_t of;
        simt_sfu_out_t os;
        simt_fpu_dut_eval(d, &in_f, &in_s, &of, &os);
        /* compare: the slot issued LAT cycles ago */
        if (cycle >= (uint64_t)latf || of.valid) {
            const fslot_t *e = cycle >= (uint64_t)latf ? &fr[(cycle - (uint64_t)latf) % RING] : NULL;
            int ev = e && e->valid;
            uint32_t eres = ev ? e->res : 0;
            int epred = ev ? e->pred : 0;
            if (ev && ++fchecked == o.inject_fpu) {
                eres ^= 1;
                printf("cosim-simt-fpu: --inject-fpu %" PRIu64 ": expectation of FPU result #%" PRIu64 " corrupted\n",
                       o.inject_fpu, fchecked);
            }
            if (ev) fph_checked[e->ph < N_FPH ? e->ph : 0]++;
            if (of.valid != ev || (ev && (of.res != eres || of.pred != epred))) {
                char buf[200];
                if (ev) fdesc(&e->v, buf, sizeof buf); else snprintf(buf, sizeof buf, "(no operation issued)");
                printf("MISMATCH simt_fpu at cycle %" PRIu64 " (LAT %d): %s\n", cycle, latf, buf);
                printf("  DUT   valid=%d res=0x%08" PRIx32 " pred=%d\n", of.valid, of.res, of.pred);
                printf("  model valid=%d res=0x%08" PRIx32 " pred=%d\n", ev, eres, epred);
                if (ev) {
                    printf("  phase %s, vector #%" PRIu64 ", issued at cycle %" PRIu64 "\n",
                           e->ph < N_FPH ? FPH_NAME[e->ph] : "--vec", e->idx, e->cycle);
                    printf("  reproduce this vector: %s --vec 0x%02x,%u,0x%x,0x%08" PRIx32 ",0x%08" PRIx32 ",0x%08" PRIx32 "\n",
                           o.argv0, e->v.op, e->v.cc, e->v.mods, e->v.a, e->v.b, e->v.c);
                }
                failed = 1;
            }
        }
        if (cycle >= (uint64_t)lats || os.valid) {
            const sslot_t *e = cycle >= (uint64_t)lats ? &sr[(cycle - (uint64_t)lats) % RING] : NULL;
            int ev = e && e->valid;
            uint32_t eres = ev ? e->res : 0;
            if (ev && ++schecked == o.inject_sfu) {
                eres ^= 1;
                printf("cosim-simt-fpu: --inject-sfu %" PRIu64 ": expectation of SFU result #%" PRIu64 " corrupted\n",
                       o.inject_sfu, schecked);
            }
            if (ev) sph_checked[e->ph < N_SPH ? e->ph : 0]++;
            if (os.valid != ev || (ev && os.res != eres)) {
                char buf[200];
                if (ev) sdesc(&e->v, buf, sizeof buf); else snprintf(buf, sizeof buf, "(no operation issued)");
                printf("MISMATCH simt_sfu at cycle %" PRIu64 " (LAT %d): %s\n", cycle, lats, buf);
                printf("  DUT   valid=%d res=0x%08" PRIx32 "\n", os.valid, os.res);
                printf("  model valid=%d res=0x%08" PRIx32 "\n", ev, eres);
                if (ev) {
                    printf("  phase %s, vector #%" PRIu64 ", issued at cycle %" PRIu64 "\n",
                           e->ph < N_SPH ? SPH_NAME[e->ph] : "--svec", e->idx, e->cycle);
                    printf("  reproduce this vector: %s --svec 0x%02x,0x%x,0x%08" PRIx32 "\n", o.argv0, e->v.op,
                           e->v.mods, e->v.a);
                }
                failed = 1;
            }
        }
        if (failed) {
            printf("  reproduce the run: %s --seed 0x%" PRIx64 "%s --struct %" PRIu64 " --random %" PRIu64
                   " --srandom %" PRIu64 " --seg-scales %d --cvt-mants %d --gap %d [--fst out.fst]\n",
                   o.argv0, o.seed, o.phases, o.cfg.n_struct, o.cfg.n_random, o.cfg.n_srandom, o.cfg.seg_scales, o.cfg.cvt_mants, o.gap_pct);
            printf("FAIL\n");
            simt_fpu_dut_free(d);
            return 1;
        }
        simt_fpu_dut_clock(d);
        if (fdone == ftotal && sdone == stotal && cycle >= last_issue + (uint64_t)(latf > lats ? latf : lats) + 1)
            break;
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    simt_fpu_dut_free(d);
    if (fchecked != ftotal || schecked != stotal) {
        printf("FAIL: checked %" PRIu64 "/%" PRIu64 " FPU and %" PRIu64 "/%" PRIu64 " SFU results\n", fchecked, ftotal,
               schecked, stotal);
        return 1;
    }
    if (fchecked + schecked == 0) {
        printf("FAIL: nothing was compared\n");
        return 1;
    }
    if (!o.quiet || 1) {
        printf("cosim-simt-fpu: FPU per phase:");
        for (int p = 0; p < N_FPH; p++) printf(" %s %" PRIu64, FPH_NAME[p], fph_checked[p]);
        printf("\ncosim-simt-fpu: SFU per phase:");
        for (int p = 0; p < N_SPH; p++) printf(" %s %" PRIu64, SPH_NAME[p], sph_checked[p]);
        printf("\ncosim-simt-fpu: per op:");
        for (int k = 0; k < 128; k++)
            if (op_count[k] && isa_op_name((uint32_t)k)) printf(" %s %" PRIu64, isa_op_name((uint32_t)k), op_count[k]);
        printf("\n");
    }
    /* every SFU table entry must have been exercised when the segment phase ran */
    if (o.sph_only < 0 || o.sph_only == SIMT_PS_SEGMENT) {
        uint32_t minh = UINT32_MAX;
        int minent = 0;
        for (int k = 0; k < 896; k++)
            if (seg_hits[k] < minh) { minh = seg_hits[k]; minent = k; }
        printf("cosim-simt-fpu: SFU table entries hit: min %u (entry %d of 896)\n", minh, minent);
        if (minh == 0) {
            printf("FAIL: SFU table entry %d (simt_sfu_rom address) never exercised\n", minent);
            return 1;
        }
    }
    printf("cosim-simt-fpu: %" PRIu64 " cycles, %" PRIu64 " FPU + %" PRIu64 " SFU results compared in %.2f s: "
           "%.2f M ops/s, %.2f M cycles/s\n", cycle + 1, fchecked, schecked, secs,
           secs > 0 ? (double)(fchecked + schecked) / secs / 1e6 : 0.0, secs > 0 ? (double)(cycle + 1) / secs / 1e6 : 0.0);
    printf("PASS\n");
    return 0;
}
