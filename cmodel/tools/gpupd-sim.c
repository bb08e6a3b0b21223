/* gpupd-sim: the functional N-GPU golden model on the command line (docs/golden-model.md).
 *
 *   gpupd-sim render  (--trace FILE | --scene NAME) [--frame K] [--scheme S] [--gpus N]
 *                     [--topology line|hub] [--batch 4096] [--latency L] [--tile-log2 5] [--own diag|linear]
 *                     [-o frame.png] [--stats out.json] [--size WxH] [--prims N] [--seed S]
 *   gpupd-sim verify  (--trace FILE | --scene NAME) [--frame K] [--gpus 2,3,4,8,16] [--schemes LIST|all]
 *                     [--topology line|hub|both] [--batch B] [--diff-dir DIR] ...
 *       renders `single`, then every scheme x N, and checks each frame is bit-identical (FNV-1a hash and
 *       pixel compare); on a mismatch writes expected/got/diff PNGs to --diff-dir and exits 1. Without
 *       --frame every frame of the scene is rendered and the last one compared (so is bench).
 *   gpupd-sim validate --trace FILE --ref REF.png [--frame K] [--diff DIFF.png] [--json OUT.json]
 *       renders frame K (default: the last) on one GPU and compares it with a reference image of a real
 *       OpenGL implementation (llvmpipe) and with the trace's per-draw reference pixel counts.
 *   gpupd-sim bench   (--trace FILE | --scene NAME) [--scheme S] [--gpus N] [--repeat R] ...
 *       prints primitives/s, fragments/s and frames/s of the functional model.
 * Exit status: 0 ok, 1 mismatch/violation/render error, 2 bad arguments or unreadable input. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/isa_backend.h"
#include "img/png.h"
#include "sys/scene_gen.h"
#include "sys/sys.h"
#include "sys/trace_scene.h"

typedef struct {
    const char *trace, *scene, *out, *stats, *diff_dir, *gpus_list, *schemes, *ref, *diff, *json;
    int frame_given;
    int last_frame;             /* verify/bench without --frame: every frame, the last one compared */
    const char *topo_s;
    uint32_t w, h, prims, repeat;
    uint64_t seed;
    sys_config_t cfg;
    int isa;                    /* --shaders isa */
    int quiet;                  /* -q: no informational notes on stderr (errors are always printed) */
    gpu_isa_library_t lib;
} opts_t;

static void usage(FILE *f)
{
    fprintf(f,
            "usage:\n"
            "  gpupd-sim render (--trace FILE | --scene tris|rtt|big) [--frame K] [--scheme S] [--gpus N]\n"
            "                   [--topology line|hub] [--batch 4096] [--latency L] [--tile-log2 5]\n"
            "                   [--own diag|linear] [--shaders builtin|isa] [-o frame.png] [--stats out.json]\n"
            "                   [--latency L] [--send-rate R] [--hub-rate H]   (network steps, flits/step)\n"
            "                   [--size WxH] [--prims N] [--seed S]          (synthetic scenes)\n"
            "                   [--inject-fault drop|dup|no-turns|wrong-tag|clear-mask[:K]] (test the invariant checks)\n"
            "                   [--check-masks]   (probe: no primitive missing from a GPU it covers)\n"
            "                   [-q]              (no informational notes; errors are always printed)\n"
            "  gpupd-sim verify (--trace FILE | --scene NAME) [--gpus 2,3,4,8,16] [--schemes all|LIST]\n"
            "                   [--topology line|hub|both] [--diff-dir DIR] [other render options]\n"
            "  gpupd-sim validate --trace FILE --ref REF.png [--frame K] [--diff D.png] [--json J.json]\n"
            "  gpupd-sim bench  (--trace FILE | --scene NAME) [--scheme S] [--gpus N] [--repeat R]\n"
            "schemes: single dup gpupd gpupd-batch gpupd-ra afr\n");
}

static int parse_u32(const char *s, uint32_t *v)
{
    char *e;
    unsigned long x = strtoul(s, &e, 10);
    if (!*s || *e || x > 0xFFFFFFFFul) return -1;
    *v = (uint32_t)x;
    return 0;
}

static int parse_args(int argc, char **argv, opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->cfg = sys_config_default();
    o->w = 256;
    o->h = 192;
    o->seed = 1;
    o->repeat = 3;
    o->topo_s = "line";
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED() do { if (!v) { fprintf(stderr, "gpupd-sim: %s needs a value\n", a); return -1; } i++; } while (0)
        if (!strcmp(a, "--trace")) { NEED(); o->trace = v; }
        else if (!strcmp(a, "--scene")) { NEED(); o->scene = v; }
        else if (!strcmp(a, "-o") || !strcmp(a, "--out")) { NEED(); o->out = v; }
        else if (!strcmp(a, "--stats")) { NEED(); o->stats = v; }
        else if (!strcmp(a, "--diff-dir")) { NEED(); o->diff_dir = v; }
        else if (!strcmp(a, "--ref")) { NEED(); o->ref = v; }
        else if (!strcmp(a, "--check-masks")) o->cfg.check_masks = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) o->quiet = 1;
        else if (!strcmp(a, "--inject-fault")) {
            /* testing the checkers: drop|dup|no-turns|wrong-tag|clear-mask[:K] */
            NEED();
            char kind[32];
            unsigned long long at = 1;
            if (sscanf(v, "%31[a-z-]:%llu", kind, &at) < 1) kind[0] = 0;
            if (!strcmp(kind, "drop")) o->cfg.fault = PE_FAULT_DROP;
            else if (!strcmp(kind, "dup")) o->cfg.fault = PE_FAULT_DUP;
            else if (!strcmp(kind, "no-turns")) o->cfg.fault = PE_FAULT_NO_TURNS;
            else if (!strcmp(kind, "wrong-tag")) o->cfg.fault = PE_FAULT_WRONG_TAG;
            else if (!strcmp(kind, "clear-mask")) o->cfg.fault = PE_FAULT_CLEAR_MASK;
            else { fprintf(stderr, "gpupd-sim: --inject-fault must be drop|dup|no-turns|wrong-tag|clear-mask[:K]\n"); return -1; }
            o->cfg.fault_at = at;
        }
        else if (!strcmp(a, "--diff")) { NEED(); o->diff = v; }
        else if (!strcmp(a, "--json")) { NEED(); o->json = v; }
        else if (!strcmp(a, "--schemes")) { NEED(); o->schemes = v; }
        else if (!strcmp(a, "--shaders")) {
            NEED();
            if (!strcmp(v, "isa")) o->isa = 1;
            else if (strcmp(v, "builtin")) { fprintf(stderr, "gpupd-sim: --shaders must be builtin or isa\n"); return -1; }
        }
        else if (!strcmp(a, "--scheme")) {
            NEED();
            if (sys_scheme_parse(v, &o->cfg.scheme)) { fprintf(stderr, "gpupd-sim: unknown scheme '%s' (single dup gpupd gpupd-batch gpupd-ra afr)\n", v); return -1; }
        } else if (!strcmp(a, "--gpus")) {
            NEED();
            o->gpus_list = v;
            if (!strchr(v, ',') && (parse_u32(v, &o->cfg.n_gpus) || o->cfg.n_gpus < 1 || o->cfg.n_gpus > 64)) {
                fprintf(stderr, "gpupd-sim: --gpus must be 1..64 (got '%s')\n", v);
                return -1;
            }
        } else if (!strcmp(a, "--topology")) {
            NEED();
            o->topo_s = v;
            if (strcmp(v, "both") && net_topo_parse(v, &o->cfg.topo)) { fprintf(stderr, "gpupd-sim: --topology must be line or hub (got '%s')\n", v); return -1; }
        } else if (!strcmp(a, "--own")) {
            NEED();
            if (!strcmp(v, "diag")) o->cfg.own_mode = P2G_MODE_DIAG;
            else if (!strcmp(v, "linear")) o->cfg.own_mode = P2G_MODE_LINEAR;
            else { fprintf(stderr, "gpupd-sim: --own must be diag or linear\n"); return -1; }
        } else if (!strcmp(a, "--frame") || !strcmp(a, "--batch") || !strcmp(a, "--latency") || !strcmp(a, "--tile-log2") ||
                   !strcmp(a, "--prims") || !strcmp(a, "--repeat") || !strcmp(a, "--seed") || !strcmp(a, "--send-rate") ||
                   !strcmp(a, "--hub-rate")) {
            NEED();
            uint32_t x;
            if (parse_u32(v, &x)) { fprintf(stderr, "gpupd-sim: %s needs a non-negative integer (got '%s')\n", a, v); return -1; }
            if (!strcmp(a, "--frame")) { o->cfg.frame = x; o->frame_given = 1; }
            else if (!strcmp(a, "--batch")) o->cfg.batch = x;
            else if (!strcmp(a, "--latency")) o->cfg.link_latency = x;
            else if (!strcmp(a, "--tile-log2")) o->cfg.tile_log2 = x;
            else if (!strcmp(a, "--prims")) o->prims = x;
            else if (!strcmp(a, "--repeat")) o->repeat = x ? x : 1;
            else if (!strcmp(a, "--send-rate")) o->cfg.send_rate = x;
            else if (!strcmp(a, "--hub-rate")) o->cfg.hub_rate = x ? x : 1;
            else o->seed = x;
        } else if (!strcmp(a, "--size")) {
            NEED();
            if (sscanf(v, "%ux%u", &o->w, &o->h) != 2) { fprintf(stderr, "gpupd-sim: --size must be WxH\n"); return -1; }
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "gpupd-sim: unknown argument '%s'\n", a);
            return -1;
        }
#undef NEED
    }
    if (o->cfg.tile_log2 < 1 || o->cfg.tile_log2 > 14) { fprintf(stderr, "gpupd-sim: --tile-log2 must be 1..14 (tiles of 2..16384 pixels)\n"); return -1; }
    if (o->cfg.batch < 1) { fprintf(stderr, "gpupd-sim: --batch must be >= 1\n"); return -1; }
    if (o->cfg.link_latency < 1) { fprintf(stderr, "gpupd-sim: --latency must be >= 1 step\n"); return -1; }
    if (o->cfg.send_rate < 1) { fprintf(stderr, "gpupd-sim: --send-rate must be >= 1\n"); return -1; }
    if (!strcmp(argv[1], "validate") && !o->trace) { fprintf(stderr, "gpupd-sim: validate needs --trace FILE\n"); return -1; }
    if (!o->trace == !o->scene) { fprintf(stderr, "gpupd-sim: give exactly one of --trace FILE or --scene NAME\n"); return -1; }
    return 0;
}

static int convert_isa(const opts_t *o, sys_scene_t *s)
{
    if (!o->isa) return 0;
    uint32_t conv = 0, draws = 0;
    for (uint32_t f = 0; f < s->n_frames; f++)
        for (size_t i = 0; i < s->frames[f].n; i++)
            if (s->frames[f].cmds[i].kind == SYS_CMD_DRAW) {
                draws++;
                conv += gpu_isa_convert_draw(&s->frames[f].cmds[i].draw, &o->lib) > 0;
            }
    if (!o->quiet) fprintf(stderr, "gpupd-sim: shaders on the ISA interpreter: %u of %u draws use library programs\n", conv, draws);
    return 0;
}

static int load_frames(const opts_t *o, sys_scene_t *s, char *name, size_t nlen);

static int load(opts_t *o, sys_scene_t *s, char *name, size_t nlen)
{
    if (load_frames(o, s, name, nlen)) return -1;
    if (o->last_frame) o->cfg.frame = s->n_frames - 1;
    if (o->cfg.frame >= s->n_frames) {
        fprintf(stderr, "gpupd-sim: --frame %u: %s has %u frame(s)\n", o->cfg.frame, name, s->n_frames);
        sys_scene_free(s);
        return -1;
    }
    return 0;
}

static int load_frames(const opts_t *o, sys_scene_t *s, char *name, size_t nlen)
{
    if (o->trace) {
        char err[512];
        sys_trace_info_t ti;
        if (sys_scene_from_trace(s, o->trace, o->last_frame ? 0xFFFFFFF0u : o->cfg.frame, &ti, err, sizeof err)) {
            fprintf(stderr, "gpupd-sim: %s\n", err);
            return -1;
        }
        snprintf(name, nlen, "%s", ti.name[0] ? ti.name : o->trace);
        convert_isa(o, s);
        if (!o->quiet && (ti.approx_fs || ti.approx_other))
            fprintf(stderr, "gpupd-sim: note: %u draws, %u with an approximated fragment program, %u with other approximations\n",
                    ti.draws, ti.approx_fs, ti.approx_other);
        return 0;
    }
    if (sys_scene_synth(s, o->scene, o->w, o->h, o->prims, o->seed)) {
        fprintf(stderr, "gpupd-sim: cannot build scene '%s' at %ux%u (scenes: tris rtt big; size 8..8192)\n", o->scene, o->w, o->h);
        return -1;
    }
    snprintf(name, nlen, "scene:%s", o->scene);
    convert_isa(o, s);
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmd_render(opts_t *o)
{
    sys_scene_t s;
    char name[256];
    if (load(o, &s, name, sizeof name)) return 2;
    sys_result_t r;
    int rc = 0;
    if (sys_run(&s, &o->cfg, &r)) {
        fprintf(stderr, "gpupd-sim: %s\n", r.err);
        rc = 1;
    } else {
        printf("%s scheme %s gpus %u topology %s frame %u: %ux%u hash %016" PRIx64 "\n", name, sys_scheme_name(o->cfg.scheme),
               o->cfg.scheme == SYS_SCHEME_SINGLE ? 1 : o->cfg.n_gpus, net_topo_name(o->cfg.topo), o->cfg.frame, r.w, r.h,
               sys_frame_hash(r.pixels, (size_t)r.w * r.h));
        if (o->out && img_write_png(o->out, r.pixels, r.w, r.h, 1, 0)) {
            fprintf(stderr, "gpupd-sim: cannot write %s\n", o->out);
            rc = 2;
        }
        if (o->stats && sys_write_stats_json(&r, &o->cfg, name, o->stats)) {
            fprintf(stderr, "gpupd-sim: cannot write %s\n", o->stats);
            rc = 2;
        }
    }
    sys_result_free(&r);
    sys_scene_free(&s);
    return rc;
}

static int write_diff(const opts_t *o, const char *tag, const sys_result_t *ref, const sys_result_t *got)
{
    if (!o->diff_dir) return 0;
    char p[1024];
    size_t n = (size_t)ref->w * ref->h;
    uint32_t *d = malloc(n * 4);
    if (!d) return -1;
    img_diff(ref->pixels, got->pixels, d, (uint32_t)n);
    snprintf(p, sizeof p, "%s/%s-expected.png", o->diff_dir, tag);
    img_write_png(p, ref->pixels, ref->w, ref->h, 1, 0);
    snprintf(p, sizeof p, "%s/%s-got.png", o->diff_dir, tag);
    img_write_png(p, got->pixels, got->w, got->h, 1, 0);
    snprintf(p, sizeof p, "%s/%s-diff.png", o->diff_dir, tag);
    img_write_png(p, d, ref->w, ref->h, 1, 0);
    fprintf(stderr, "  difference images: %s/%s-{expected,got,diff}.png\n", o->diff_dir, tag);
    free(d);
    return 0;
}

static int cmd_verify(opts_t *o, char **argv, int argc)
{
    sys_scene_t s;
    char name[256];
    if (load(o, &s, name, sizeof name)) return 2;
    sys_config_t c = o->cfg;
    c.scheme = SYS_SCHEME_SINGLE;
    sys_result_t ref;
    if (sys_run(&s, &c, &ref)) {
        fprintf(stderr, "gpupd-sim: single: %s\n", ref.err);
        sys_result_free(&ref);
        sys_scene_free(&s);
        return 1;
    }
    uint64_t href = sys_frame_hash(ref.pixels, (size_t)ref.w * ref.h);
    /* lists */
    uint32_t gl[64], ng = 0;
    const char *gs = o->gpus_list ? o->gpus_list : "2,3,4,8,16";
    for (const char *p = gs; *p && ng < 64;) {
        char *e;
        unsigned long x = strtoul(p, &e, 10);
        if (e == p || x < 1 || x > 64) { fprintf(stderr, "gpupd-sim: bad --gpus list '%s'\n", gs); sys_result_free(&ref); sys_scene_free(&s); return 2; }
        gl[ng++] = (uint32_t)x;
        p = *e == ',' ? e + 1 : e;
    }
    sys_scheme_t sl[SYS_SCHEME_COUNT];
    int ns = 0;
    const char *ss = o->schemes ? o->schemes : "all";
    if (!strcmp(ss, "all")) {
        for (int i = 1; i < SYS_SCHEME_COUNT; i++) sl[ns++] = (sys_scheme_t)i;
    } else {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", ss);
        for (char *tok = strtok(buf, ","); tok && ns < SYS_SCHEME_COUNT; tok = strtok(NULL, ",")) {
            if (sys_scheme_parse(tok, &sl[ns])) { fprintf(stderr, "gpupd-sim: unknown scheme '%s'\n", tok); sys_result_free(&ref); sys_scene_free(&s); return 2; }
            ns++;
        }
    }
    net_topo_t tl[2];
    int nt = 0;
    if (!strcmp(o->topo_s, "both")) { tl[nt++] = NET_LINE; tl[nt++] = NET_HUB; }
    else tl[nt++] = o->cfg.topo;
    int pass = 0, fail = 0;
    for (int si = 0; si < ns; si++)
        for (uint32_t gi = 0; gi < ng; gi++)
            for (int ti = 0; ti < nt; ti++) {
                c = o->cfg;
                c.scheme = sl[si];
                c.n_gpus = gl[gi];
                c.topo = tl[ti];
                sys_result_t r;
                char tag[128];
                snprintf(tag, sizeof tag, "%s-%s-n%u-%s", o->scene ? o->scene : "trace", sys_scheme_name(c.scheme), c.n_gpus, net_topo_name(c.topo));
                if (sys_run(&s, &c, &r)) {
                    fprintf(stderr, "FAIL %s: %s\n", tag, r.err);
                    fail++;
                } else {
                    uint64_t h = sys_frame_hash(r.pixels, (size_t)r.w * r.h);
                    size_t n = (size_t)r.w * r.h, ndiff = 0, first = 0;
                    for (size_t i = 0; i < n; i++)
                        if (r.pixels[i] != ref.pixels[i]) { if (!ndiff) first = i; ndiff++; }
                    if (h != href || ndiff) {
                        fprintf(stderr, "FAIL %s: frame hash %016" PRIx64 " != single %016" PRIx64 ", %zu pixels differ, first at (%zu,%zu): "
                                        "got %08x expected %08x\n", tag, h, href, ndiff, first % r.w, first / r.w,
                                r.pixels[first], ref.pixels[first]);
                        write_diff(o, tag, &ref, &r);
                        fail++;
                    } else {
                        pass++;
                    }
                }
                sys_result_free(&r);
            }
    if (fail) {
        fprintf(stderr, "  reproduce:");
        for (int i = 0; i < argc; i++) fprintf(stderr, " %s", argv[i]);
        fprintf(stderr, "\n");
    }
    printf("verify %s frame %u (%ux%u, single hash %016" PRIx64 "): %d passed, %d failed\n", name, o->cfg.frame, ref.w, ref.h,
           href, pass, fail);
    sys_result_free(&ref);
    sys_scene_free(&s);
    if (pass + fail == 0) {
        fprintf(stderr, "gpupd-sim verify: nothing was compared (no scheme x GPU count selected)\n");
        return 1;
    }
    return fail ? 1 : 0;
}

static int cmd_validate(opts_t *o)
{
    if (!o->trace || !o->ref) { fprintf(stderr, "gpupd-sim: validate needs --trace FILE and --ref REF.png\n"); return 2; }
    sys_scene_t s;
    char err[512];
    sys_trace_info_t ti;
    if (sys_scene_from_trace(&s, o->trace, o->frame_given ? o->cfg.frame : 0xFFFFFFF0u, &ti, err, sizeof err)) {
        fprintf(stderr, "gpupd-sim: %s\n", err);
        return 2;
    }
    convert_isa(o, &s);
    if (!o->frame_given) o->cfg.frame = s.n_frames - 1;
    uint32_t *ref, rw, rh;
    char perr[128];
    if (img_read_png(o->ref, &ref, &rw, &rh, 1, perr)) {
        fprintf(stderr, "gpupd-sim: %s\n", perr);
        sys_scene_free(&s);
        return 2;
    }
    sys_config_t c = o->cfg;
    c.scheme = SYS_SCHEME_SINGLE;
    sys_result_t r;
    if (sys_run(&s, &c, &r)) {
        fprintf(stderr, "gpupd-sim: %s\n", r.err);
        free(ref);
        sys_result_free(&r);
        sys_scene_free(&s);
        return 1;
    }
    if (rw != r.w || rh != r.h) {
        fprintf(stderr, "gpupd-sim: reference is %ux%u, the frame %ux%u\n", rw, rh, r.w, r.h);
        free(ref);
        sys_result_free(&r);
        sys_scene_free(&s);
        return 2;
    }
    /* image agreement (RGB; the reference has no meaningful alpha) */
    size_t n = (size_t)rw * rh, exact = 0, close = 0;
    double sq = 0;
    for (size_t i = 0; i < n; i++) {
        int md = 0;
        for (int ch = 0; ch < 3; ch++) {
            int a = (int)((r.pixels[i] >> (8 * ch)) & 0xFF), b = (int)((ref[i] >> (8 * ch)) & 0xFF);
            int d = a > b ? a - b : b - a;
            if (d > md) md = d;
            sq += (double)d * d;
        }
        exact += md == 0;
        close += md <= 8;
    }
    double mse = sq / (3.0 * (double)n);
    double psnr = mse > 0 ? 10.0 * log10(255.0 * 255.0 / mse) : 99.0;
    /* per-draw pixel counts */
    uint32_t nd = 0, nexact = 0, n1 = 0, n10 = 0;
    uint64_t sum_ref = 0, sum_abs = 0, sum_model = 0;
    for (uint32_t i = 0; i < r.n_draws_frame; i++) {
        if (r.draw_ref_pixels[i] < 0) continue;
        uint64_t m = r.draw_pixels[i], rf = (uint64_t)r.draw_ref_pixels[i];
        uint64_t d = m > rf ? m - rf : rf - m;
        nd++;
        nexact += d == 0;
        n1 += (double)d <= 0.01 * (double)rf || d <= 1;
        n10 += (double)d <= 0.10 * (double)rf || d <= 1;
        sum_ref += rf;
        sum_model += m;
        sum_abs += d;
    }
    printf("validate %s frame %u (%ux%u, %u draws, %u approx FS, %u other approx): image exact %.2f%%, within 8/255 %.2f%%, "
           "PSNR %.1f dB; draws with reference counts %u: exact %u, within 1%% %u, within 10%% %u; pixels model %llu ref %llu "
           "(sum |diff| %.2f%% of ref)\n",
           ti.name, o->cfg.frame, rw, rh, ti.draws, ti.approx_fs, ti.approx_other, 100.0 * (double)exact / (double)n,
           100.0 * (double)close / (double)n, psnr, nd, nexact, n1, n10, (unsigned long long)sum_model,
           (unsigned long long)sum_ref, sum_ref ? 100.0 * (double)sum_abs / (double)sum_ref : 0.0);
    if (o->diff) {
        uint32_t *d = malloc(n * 4);
        if (d) {
            for (size_t i = 0; i < n; i++) {
                int md = 0;
                for (int ch = 0; ch < 3; ch++) {
                    int a = (int)((r.pixels[i] >> (8 * ch)) & 0xFF), b = (int)((ref[i] >> (8 * ch)) & 0xFF);
                    if ((a > b ? a - b : b - a) > md) md = a > b ? a - b : b - a;
                }
                uint32_t g = ((ref[i] & 0xFF) + ((ref[i] >> 8) & 0xFF) + ((ref[i] >> 16) & 0xFF)) / 12;
                d[i] = md == 0 ? (0xFF000000u | g * 0x010101u) : md <= 8 ? 0xFF00C0C0u : 0xFF0000FFu;
            }
            img_write_png(o->diff, d, rw, rh, 1, 0);
            free(d);
        }
    }
    if (o->out) img_write_png(o->out, r.pixels, r.w, r.h, 1, 0);
    if (o->json) {
        FILE *f = fopen(o->json, "w");
        if (f) {
            fprintf(f, "{\"trace\": \"%s\", \"frame\": %u, \"width\": %u, \"height\": %u, \"draws\": %u, \"approx_fs\": %u, "
                       "\"approx_other\": %u, \"image_exact\": %.6f, \"image_close8\": %.6f, \"psnr_db\": %.3f, \"draws_with_ref\": %u, "
                       "\"draws_exact\": %u, \"draws_within_1pct\": %u, \"draws_within_10pct\": %u, \"pixels_model\": %llu, "
                       "\"pixels_ref\": %llu, \"pixels_abs_diff\": %llu}\n",
                    ti.name, o->cfg.frame, rw, rh, ti.draws, ti.approx_fs, ti.approx_other, (double)exact / (double)n,
                    (double)close / (double)n, psnr, nd, nexact, n1, n10, (unsigned long long)sum_model, (unsigned long long)sum_ref,
                    (unsigned long long)sum_abs);
            fclose(f);
        }
    }
    free(ref);
    sys_result_free(&r);
    sys_scene_free(&s);
    return 0;
}

static int cmd_bench(opts_t *o)
{
    sys_scene_t s;
    char name[256];
    if (load(o, &s, name, sizeof name)) return 2;
    double best = 1e30;
    sys_result_t r;
    memset(&r, 0, sizeof r);
    uint64_t prims = 0, frags = 0;
    for (uint32_t k = 0; k < o->repeat; k++) {
        sys_result_free(&r);
        double t0 = now_s();
        if (sys_run(&s, &o->cfg, &r)) {
            fprintf(stderr, "gpupd-sim: %s\n", r.err);
            sys_result_free(&r);
            sys_scene_free(&s);
            return 1;
        }
        double dt = now_s() - t0;
        if (dt < best) best = dt;
    }
    uint32_t N = o->cfg.scheme == SYS_SCHEME_SINGLE ? 1 : o->cfg.n_gpus;
    for (uint32_t g = 0; g < N; g++) frags += r.gpu[g].render.fragments;
    prims = r.prims_app;
    printf("bench %-24s %-11s N=%-2u frames=%u prims=%" PRIu64 " frags=%" PRIu64 " time=%.3fs  %.3g prims/s  %.3g frags/s  %.3g frames/s\n",
           name, sys_scheme_name(o->cfg.scheme), N, o->cfg.frame + 1, prims, frags, best, (double)prims / best,
           (double)frags / best, (double)(o->cfg.frame + 1) / best);
    sys_result_free(&r);
    sys_scene_free(&s);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return 2; }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) { usage(stdout); return 0; }
    opts_t o;
    if (strcmp(argv[1], "render") && strcmp(argv[1], "verify") && strcmp(argv[1], "bench") && strcmp(argv[1], "validate")) {
        fprintf(stderr, "gpupd-sim: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    if (parse_args(argc, argv, &o)) { usage(stderr); return 2; }
    if (o.isa) {
        char err[256];
        if (gpu_isa_library_load(&o.lib, err, sizeof err)) { fprintf(stderr, "gpupd-sim: %s\n", err); return 2; }
        o.cfg.isa = 1;
    }
    int rc;
    if (!o.frame_given && (!strcmp(argv[1], "verify") || !strcmp(argv[1], "bench"))) o.last_frame = 1;
    if (!strcmp(argv[1], "render")) rc = cmd_render(&o);
    else if (!strcmp(argv[1], "verify")) rc = cmd_verify(&o, argv, argc);
    else if (!strcmp(argv[1], "validate")) rc = cmd_validate(&o);
    else rc = cmd_bench(&o);
    gpu_isa_library_free(&o.lib);
    return rc;
}
