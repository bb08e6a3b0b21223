/* gpupd-p2g-trace: the real P2G input stream of a bundled trace, and statistics on it.
 *
 *   gpupd-p2g-trace --trace FILE [--frame K] --gpus N [--own diag|linear] [--tile-log2 5]
 *                   [-o STREAM] [--csv-header] [--rows R]
 *
 * Runs the golden model (scheme gpupd) on the trace and taps every CP-phase P2G evaluation: the draw's P2G
 * configuration (target size, viewport and scissor), the projected primitive and its mask. Writes the
 * stream for RTL replay (cosim-p2g --replay) and prints one CSV line of statistics:
 *   trace,frame,gpus,own,prims,culled,empty,near_clip,avg_gpus_per_prim,multi_gpu_frac,max_share,min_share,
 *   configs,p2g_cycles,prims_per_cycle
 * avg_gpus_per_prim counts GPUs per primitive that reaches at least one GPU (the redundancy of sending IDs);
 * p2g_cycles is the P2G RTL cycle model (MAX_GPUS 64, ROWS R, default 2) streaming each GPU's primitives
 * (in CP order, a configuration change = drain + P2G_HW_CFG_SETTLE cycles) without backpressure, summed over the GPUs'
 * units; prims_per_cycle = prims / p2g_cycles is the throughput of one unit on this workload;
 * slowest_unit_cycles is the busiest GPU's unit. The stream file is grouped by GPU, as each unit sees it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "common/outfile.h"
#include "p2g/p2g.h"
#include "p2g/p2g_hw.h"
#include "sys/sys.h"
#include "sys/trace_scene.h"

typedef struct {
    uint32_t gpu;
    p2g_config_t cfg;
    p2g_prim_t p;
    uint64_t mask;
} rec_t;

typedef struct {
    rec_t *r;
    size_t n, cap;
    int oom;
} tap_t;

static void tap(void *user, uint32_t gpu, uint32_t cmd, const p2g_config_t *cfg, const p2g_prim_t *in, uint64_t mask)
{
    tap_t *t = user;
    if (t->oom) return;
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 4096;
        rec_t *nr = realloc(t->r, nc * sizeof *nr);
        if (!nr) { t->oom = 1; return; }
        t->r = nr;
        t->cap = nc;
    }
    rec_t *r = &t->r[t->n++];
    r->gpu = gpu;
    r->cfg = *cfg;
    r->p = *in;
    r->p.tag = cmd & 0xffff;
    r->mask = mask;
}

static int same_cfg(const p2g_config_t *a, const p2g_config_t *b)
{
    return a->n_gpus == b->n_gpus && a->width == b->width && a->height == b->height && a->tile_log2 == b->tile_log2 &&
           a->mode == b->mode && a->sc_x0 == b->sc_x0 && a->sc_y0 == b->sc_y0 && a->sc_x1 == b->sc_x1 && a->sc_y1 == b->sc_y1;
}

/* Cycles the P2G cycle model needs for one GPU's records list[0..n), no backpressure; a configuration change
 * drains the pipeline and waits P2G_HW_CFG_SETTLE idle cycles (the RTL's quasi-static configuration rule). */
static uint64_t model_cycles(const rec_t *const *list, size_t n, uint32_t rows)
{
    p2g_hw_t h;
    p2g_hw_params_t prm = {64, rows, 16};
    p2g_hw_init(&h, prm);
    p2g_hw_in_t in;
    memset(&in, 0, sizeof in);
    in.out_ready = 1;
    uint64_t cyc = 0;
    size_t i = 0;
    int have_cfg = 0;
    for (;;) {
        p2g_hw_out_t o;
        if (i < n && (!have_cfg || !same_cfg(&in.cfg, &list[i]->cfg))) {
            /* drain, switch, settle */
            in.in_valid = 0;
            for (;;) {
                p2g_hw_comb(&h, &in, &o);
                if (!o.busy) break;
                p2g_hw_clock(&h, &in);
                cyc++;
            }
            in.cfg = list[i]->cfg;
            have_cfg = 1;
            for (int k = 0; k < P2G_HW_CFG_SETTLE; k++) { p2g_hw_clock(&h, &in); cyc++; }
        }
        in.in_valid = i < n;
        if (in.in_valid) in.in = list[i]->p;
        p2g_hw_comb(&h, &in, &o);
        if (!in.in_valid && !o.busy) break;
        if (in.in_valid && o.in_ready) i++;
        p2g_hw_clock(&h, &in);
        cyc++;
    }
    return cyc;
}

int main(int argc, char **argv)
{
    const char *trace = NULL, *out = NULL;
    uint32_t frame = 0, gpus = 0, ts = 5, rows = 2;
    p2g_mode_t own = P2G_MODE_DIAG;
    int header = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--csv-header")) { header = 1; continue; }
        const char *T = "gpupd-p2g-trace";
        int known = !strcmp(a, "--trace") || !strcmp(a, "-o") || !strcmp(a, "--frame") || !strcmp(a, "--gpus") ||
                    !strcmp(a, "--tile-log2") || !strcmp(a, "--rows") || !strcmp(a, "--own");
        if (!known) { fprintf(stderr, "gpupd-p2g-trace: unknown argument '%s'\n", a); return 2; }
        if (!v) { arg_need(T, a); return 2; }
        if (!strcmp(a, "--trace")) trace = v;
        else if (!strcmp(a, "-o")) {
            char oerr[600];
            if (outf_check(v, oerr, sizeof oerr)) { fprintf(stderr, "gpupd-p2g-trace: -o: %s\n", oerr); return 2; }
            out = v;
        }
        else if (!strcmp(a, "--frame")) { if (arg_u32(T, a, v, 0, 1000000, &frame)) return 2; }
        else if (!strcmp(a, "--gpus")) { if (arg_u32(T, a, v, 2, 64, &gpus)) return 2; }
        else if (!strcmp(a, "--tile-log2")) { if (arg_u32(T, a, v, 1, 14, &ts)) return 2; }
        else if (!strcmp(a, "--rows")) { if (arg_u32(T, a, v, 1, 64, &rows)) return 2; }
        else if (!strcmp(a, "--own")) {
            if (!strcmp(v, "diag")) own = P2G_MODE_DIAG;
            else if (!strcmp(v, "linear")) own = P2G_MODE_LINEAR;
            else { arg_fail(T, a, v, "unknown ownership function", "diag or linear"); return 2; }
        }
        i++;
    }
    if (!trace || !gpus) {
        fprintf(stderr, "usage: gpupd-p2g-trace --trace FILE [--frame K] --gpus N(2..64) [--own diag|linear]\n"
                        "                       [--tile-log2 5] [--rows 2] [-o STREAM] [--csv-header]\n");
        return 2;
    }
    sys_scene_t s;
    sys_trace_info_t ti;
    char err[512];
    if (sys_scene_from_trace(&s, trace, frame, &ti, err, sizeof err)) {
        fprintf(stderr, "gpupd-p2g-trace: %s\n", err);
        return 2;
    }
    tap_t t;
    memset(&t, 0, sizeof t);
    sys_config_t cfg = sys_config_default();
    cfg.scheme = SYS_SCHEME_GPUPD;
    cfg.n_gpus = gpus;
    cfg.own_mode = own;
    cfg.tile_log2 = ts;
    cfg.frame = frame;
    cfg.p2g_tap = tap;
    cfg.p2g_tap_user = &t;
    sys_result_t res;
    int rc = 1;   /* from here every exit goes through done: (no allocation outlives an error) */
    const rec_t **order = NULL;
    if (sys_run(&s, &cfg, &res)) {
        fprintf(stderr, "gpupd-p2g-trace: %s\n", res.err);
        goto done;
    }
    if (t.oom) { fprintf(stderr, "gpupd-p2g-trace: out of memory\n"); goto done; }

    uint64_t culled = 0, empty = 0, near = 0, reached = 0, bits = 0, multi = 0, per_gpu[64] = {0}, configs = 0;
    FILE *f = NULL;
    outf_t of;
    char oerr[600];
    if (out) {
        if (outf_open(&of, out, 0, oerr, sizeof oerr)) { fprintf(stderr, "gpupd-p2g-trace: %s\n", oerr); rc = 2; goto done; }
        f = of.f;
        fprintf(f, "# gpupd-p2g-trace stream v1: trace=%s frame=%u gpus=%u own=%s tile_log2=%u\n", trace, frame, gpus,
                own == P2G_MODE_DIAG ? "diag" : "linear", ts);
        fprintf(f, "# C n W H tile_log2 mode sx0 sy0 sx1 sy1 | P gpu prim_id tag x0 y0 x1 y1 x2 y2 flags mask\n");
    }
    /* every GPU's P2G unit sees its own records in CP order: group the stream by GPU (stable) */
    order = malloc((t.n ? t.n : 1) * sizeof *order);
    if (!order) {
        fprintf(stderr, "gpupd-p2g-trace: out of memory\n");
        if (f) outf_abort(&of);
        goto done;
    }
    uint64_t cycles = 0, max_cycles = 0;
    size_t k = 0;
    for (uint32_t g = 0; g < gpus; g++) {
        size_t k0 = k;
        for (size_t i = 0; i < t.n; i++)
            if (t.r[i].gpu == g) order[k++] = &t.r[i];
        if (k > k0) {
            uint64_t c = model_cycles(order + k0, k - k0, rows);
            cycles += c;
            if (c > max_cycles) max_cycles = c;
        }
    }
    for (size_t i = 0; i < k; i++) {
        const rec_t *r = order[i];
        if (i == 0 || !same_cfg(&r->cfg, &order[i - 1]->cfg)) {
            configs++;
            if (f) fprintf(f, "C %u %u %u %u %u %u %u %u %u\n", r->cfg.n_gpus, r->cfg.width, r->cfg.height, r->cfg.tile_log2,
                           r->cfg.mode == P2G_MODE_LINEAR, r->cfg.sc_x0, r->cfg.sc_y0, r->cfg.sc_x1, r->cfg.sc_y1);
        }
        if (f) fprintf(f, "P %u %u %u %d %d %d %d %d %d %u %" PRIx64 "\n", r->gpu, r->p.prim_id, r->p.tag, r->p.x[0],
                       r->p.y[0], r->p.x[1], r->p.y[1], r->p.x[2], r->p.y[2], r->p.flags, r->mask);
        if (r->p.flags & P2G_FLAG_CULLED) culled++;
        else if (r->p.flags & P2G_FLAG_NEAR_CLIP) near++;
        if (!r->mask && !(r->p.flags & P2G_FLAG_CULLED)) empty++;
        if (r->mask) {
            reached++;
            int pc = __builtin_popcountll(r->mask);
            bits += (uint64_t)pc;
            multi += pc > 1;
            for (uint32_t g = 0; g < gpus; g++)
                if (r->mask >> g & 1) per_gpu[g]++;
        }
    }
    if (f && outf_commit(&of, oerr, sizeof oerr)) { fprintf(stderr, "gpupd-p2g-trace: %s\n", oerr); goto done; }
    uint64_t mx = 0, mn = UINT64_MAX;
    for (uint32_t g = 0; g < gpus; g++) {
        if (per_gpu[g] > mx) mx = per_gpu[g];
        if (per_gpu[g] < mn) mn = per_gpu[g];
    }
    const char *name = strrchr(trace, '/') ? strrchr(trace, '/') + 1 : trace;
    if (header)
        printf("trace,frame,gpus,own,prims,culled,empty,near_clip,avg_gpus_per_prim,multi_gpu_frac,max_share,min_share,"
               "configs,p2g_cycles,prims_per_cycle,slowest_unit_cycles\n");
    double tot = 0;
    for (uint32_t g = 0; g < gpus; g++) tot += (double)per_gpu[g];
    printf("%s,%u,%u,%s,%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.4f,%.4f,%.4f,%.4f,%" PRIu64 ",%" PRIu64 ",%.4f,%" PRIu64 "\n", name, frame,
           gpus, own == P2G_MODE_DIAG ? "diag" : "linear", t.n, culled, empty, near,
           reached ? (double)bits / (double)reached : 0.0, reached ? (double)multi / (double)reached : 0.0,
           tot > 0 ? (double)mx / tot : 0.0, tot > 0 ? (double)mn / tot : 0.0, configs, cycles,
           cycles ? (double)t.n / (double)cycles : 0.0, max_cycles);
    rc = 0;
done:
    free(order);
    free(t.r);
    sys_result_free(&res);
    sys_scene_free(&s);
    return rc;
}
