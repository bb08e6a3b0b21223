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

#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "common/args.h"
#include "common/outfile.h"
#include "sys/cdsys.h"
#include "gpu/isa_backend.h"
#include "img/png.h"
#include "sys/scene_gen.h"
#include "sys/sys.h"
#include "sys/trace_scene.h"

typedef struct {
    const char *trace, *scene, *out, *stats, *diff_dir, *schemes, *ref, *diff, *json;
    int frame_given;
    int last_frame;             /* verify/bench without --frame: every frame, the last one compared */
    const char *topo_s;
    uint32_t w, h, prims, repeat;
    uint32_t gpu_list[64], n_gpu_list;   /* --gpus (one value except for verify) */
    uint32_t mem_limit_mb;               /* --mem-limit-mb (0: default) */
    double min_image_close, min_draws_1pct; /* validate: stated agreement, percent */
    uint64_t seed;
    sys_config_t cfg;
    int isa;                    /* --shaders: 0 auto (default), 1 isa, 2 builtin */
    int quiet;                  /* -q: no informational notes on stderr (errors are always printed) */
    gpu_isa_library_t lib;
    const char *timeline;       /* --timeline FILE (CSV) */
    int timing_given;
    const char *frec_dir;       /* --replay-cache DIR: functional frame records (gpu/frec.h) */
} opts_t;

static void usage(FILE *f)
{
    fprintf(f,
            "usage:\n"
            "  gpupd-sim render (--trace FILE | --scene tris|rtt|big|lines) [--frame K] [--scheme S] [--gpus N]\n"
            "                   [--topology line|hub] [--batch 4096] [--latency L] [--tile-log2 5]\n"
            "                   [--own diag|linear] [--shaders auto|builtin|isa] [-o frame.png] [--stats out.json]\n"
            "                   [--tex-filter float|llvmpipe] (texture unit: binary32 filtering, the default, or\n"
            "                                     llvmpipe's 8-bit fixed-point sampler; docs/golden-model.md)\n"
            "                   [--latency L] [--send-rate R] [--hub-rate H]   (network steps, flits/step)\n"
            "                   [--size WxH] [--prims N] [--seed S]          (synthetic scenes)\n"
            "                   [--inject-fault drop|dup|no-turns|wrong-tag|clear-mask[:K]] (test the invariant checks)\n"
            "                   [--check-masks | --no-check-masks]  (probe: no primitive missing from a GPU it covers;\n"
            "                                     default on in render, off in verify and bench)\n"
            "                   [--mem-limit-mb M] (surface memory of all GPUs together; default 4096)\n"
            "                   [-q]              (no informational notes; errors are always printed)\n"
            "                   timing (docs/timing.md; render times the produced frame by default, verify does not):\n"
            "                   [--timing on|off] [--link-latency-ns 400] [--link-gbps 40] [--hub-gbps 80]\n"
            "                   [--tcfg NAME=VALUE]... [--p2g-rows 2] [--pe rtl|golden] [--no-skip]\n"
            "                   [--threads T]     (the GPUs on T threads; default $GPUPD_THREADS or 1; same results)\n"
            "                   [--timeline FILE.csv] [--timeline-window 1024]\n"
            "                   [--replay-cache DIR] (without -o: replay the functional work of the frame from records\n"
            "                                     in DIR, made once by a single-GPU pass; same cycles and stats)\n"
            "                   gpupd-stream: [--sx-k 1] [--sx-depth 2048] [--sx-live 4]  (stream PE: entries released\n"
            "                                     per cycle, FIFO depth per source, live batches) [--sx-front split|in-order|free|ahead]\n"
            "                                     [--sx-ramp 256] (first batch of a segment, doubling up to --batch)\n"
            "  gpupd-sim timing-config   (the timing parameters, their defaults and sources, as a Markdown table)\n"
            "  gpupd-sim verify (--trace FILE | --scene NAME) [--gpus 2,3,4,8,16] [--schemes all|LIST]\n"
            "                   [--topology line|hub|both] [--diff-dir DIR] [other render options]\n"
            "  gpupd-sim validate --trace FILE --ref REF.png [--frame K] [--diff D.png] [--json J.json]\n"
            "                   [--min-image-close 50] [--min-draws-1pct 90]  (stated agreement, %%; below: exit 1)\n"
            "  gpupd-sim bench  (--trace FILE | --scene NAME) [--scheme S] [--gpus N] [--repeat R]\n"
            "                   chopin: [--chopin-min-tris 4096] [--chopin-max-draw-tris 16384] [--chopin-sched least|rr]\n"
            "                           (group threshold, a larger draw is a group of its own (0: no cap), draw scheduler)\n"
            "schemes: single dup gpupd gpupd-batch gpupd-ra afr chopin gpupd-stream\n");
}

/* Documented ranges of the numeric options (docs/cli.md). Every value goes through cmodel/common/args.h. */
#define SIM_MAX_FRAME   1000000u
#define SIM_MAX_BATCH   (1u << 24)
#define SIM_MAX_LATENCY 64u        /* network steps per link (functional exchange; keeps a run bounded) */
#define SIM_MAX_RATE    64u        /* --send-rate / --hub-rate, flits per step */
#define SIM_MAX_PRIMS   4000000u   /* --prims of the synthetic scenes */
#define SIM_MAX_REPEAT  1000u

/* --schemes all|LIST: 1..SYS_SCHEME_COUNT-1 distinct known schemes other than single, comma-separated. */
static int parse_schemes(const char *v, sys_scheme_t *sl, int *ns)
{
    const char *range = "all or a comma-separated list of dup gpupd gpupd-batch gpupd-ra afr chopin gpupd-stream";
    *ns = 0;
    if (!strcmp(v, "all")) {
        for (int i = 1; i < SYS_SCHEME_COUNT; i++) sl[(*ns)++] = (sys_scheme_t)i;
        return 0;
    }
    char buf[256];
    if (strlen(v) >= sizeof buf) return arg_fail("gpupd-sim", "--schemes", v, "too long", range);
    snprintf(buf, sizeof buf, "%s", v);
    for (char *p = buf;;) {
        char *c = strchr(p, ',');
        if (c) *c = 0;
        sys_scheme_t x;
        if (!*p || sys_scheme_parse(p, &x) || x == SYS_SCHEME_SINGLE) return arg_fail("gpupd-sim", "--schemes", v, *p ? "unknown scheme in the list" : "empty item", range);
        for (int i = 0; i < *ns; i++)
            if (sl[i] == x) return arg_fail("gpupd-sim", "--schemes", v, "scheme listed twice", range);
        if (*ns == SYS_SCHEME_COUNT - 1) return arg_fail("gpupd-sim", "--schemes", v, "too many items", range);
        sl[(*ns)++] = x;
        if (!c) break;
        p = c + 1;
    }
    return 0;
}

static int check_out(const char *opt, const char *path)
{
    char err[600];
    if (outf_check(path, err, sizeof err)) { fprintf(stderr, "gpupd-sim: %s: %s\n", opt, err); return -1; }
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
    o->min_image_close = 50.0;
    o->min_draws_1pct = 90.0;
    const char *T = "gpupd-sim";
    int multi = !strcmp(argv[1], "verify");    /* only verify takes a list of GPU counts */
    int cm_given = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED() do { if (!v) return arg_need(T, a); i++; } while (0)
        if (!strcmp(a, "--trace")) { NEED(); o->trace = v; }
        else if (!strcmp(a, "--scene")) {
            NEED();
            if (strcmp(v, "tris") && strcmp(v, "rtt") && strcmp(v, "big") && strcmp(v, "lines"))
                return arg_fail(T, a, v, "unknown scene", "tris, rtt, big or lines");
            o->scene = v;
        }
        else if (!strcmp(a, "-o") || !strcmp(a, "--out")) { NEED(); if (check_out(a, v)) return -1; o->out = v; }
        else if (!strcmp(a, "--stats")) { NEED(); if (check_out(a, v)) return -1; o->stats = v; }
        else if (!strcmp(a, "--diff-dir")) {
            NEED();
            struct stat st;
            if (stat(v, &st) || !S_ISDIR(st.st_mode) || access(v, W_OK | X_OK))
                return arg_fail(T, a, v, "not a writable directory", NULL);
            o->diff_dir = v;
        }
        else if (!strcmp(a, "--ref")) { NEED(); o->ref = v; }
        else if (!strcmp(a, "--check-masks")) { o->cfg.check_masks = 1; cm_given = 1; }
        else if (!strcmp(a, "--no-check-masks")) { o->cfg.check_masks = 0; cm_given = 1; }
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) o->quiet = 1;
        else if (!strcmp(a, "--inject-fault")) {
            /* testing the checkers: drop|dup|no-turns|wrong-tag|clear-mask[:K], K >= 1 (default 1) */
            NEED();
            static const char *const kinds[] = {"drop", "dup", "no-turns", "wrong-tag", "clear-mask"};
            static const pe_fault_t kf[] = {PE_FAULT_DROP, PE_FAULT_DUP, PE_FAULT_NO_TURNS, PE_FAULT_WRONG_TAG, PE_FAULT_CLEAR_MASK};
            const char *colon = strchr(v, ':');
            size_t kl = colon ? (size_t)(colon - v) : strlen(v);
            int found = -1;
            for (int k = 0; k < 5; k++)
                if (strlen(kinds[k]) == kl && !strncmp(v, kinds[k], kl)) found = k;
            if (found < 0) return arg_fail(T, a, v, "unknown fault", "drop|dup|no-turns|wrong-tag|clear-mask[:K]");
            uint64_t at = 1;
            if (colon) {
                if (found == 2) return arg_fail(T, a, v, "no-turns takes no position", "no-turns");
                if (arg__u64_raw(colon + 1, 0, &at) || at < 1 || at > (uint64_t)1 << 40)
                    return arg_fail(T, a, v, "bad position K", "KIND:K with K an integer in 1..1099511627776");
            }
            o->cfg.fault = kf[found];
            o->cfg.fault_at = at;
        }
        else if (!strcmp(a, "--diff")) { NEED(); if (check_out(a, v)) return -1; o->diff = v; }
        else if (!strcmp(a, "--json")) { NEED(); if (check_out(a, v)) return -1; o->json = v; }
        else if (!strcmp(a, "--schemes")) {
            NEED();
            sys_scheme_t tmp[SYS_SCHEME_COUNT];
            int nt;
            if (parse_schemes(v, tmp, &nt)) return -1;
            o->schemes = v;
        }
        else if (!strcmp(a, "--shaders")) {
            NEED();
            if (!strcmp(v, "isa")) o->isa = 1;
            else if (!strcmp(v, "builtin")) o->isa = 2;
            else if (strcmp(v, "auto")) return arg_fail(T, a, v, "unknown shader backend", "auto, builtin or isa");
        }
        else if (!strcmp(a, "--tex-filter")) {
            NEED();
            if (!strcmp(v, "float")) o->cfg.tex_filter = GPU_TEXF_FLOAT;
            else if (!strcmp(v, "llvmpipe")) o->cfg.tex_filter = GPU_TEXF_LLVMPIPE;
            else return arg_fail(T, a, v, "unknown texture filtering", "float or llvmpipe");
        }
        else if (!strcmp(a, "--scheme")) {
            NEED();
            if (sys_scheme_parse(v, &o->cfg.scheme)) return arg_fail(T, a, v, "unknown scheme", "single dup gpupd gpupd-batch gpupd-ra afr chopin gpupd-stream");
        } else if (!strcmp(a, "--gpus")) {
            NEED();
            if (!multi && strchr(v, ',')) return arg_fail(T, a, v, "a list of GPU counts is only for verify", "one integer in 1..64");
            if (arg_u32_list(T, a, v, 1, 64, o->gpu_list, multi ? 64 : 1, &o->n_gpu_list)) return -1;
            o->cfg.n_gpus = o->gpu_list[0];
        } else if (!strcmp(a, "--topology")) {
            NEED();
            o->topo_s = v;
            if ((strcmp(v, "both") || !multi) && net_topo_parse(v, &o->cfg.topo))
                return arg_fail(T, a, v, "unknown topology", multi ? "line, hub or both" : "line or hub");
        } else if (!strcmp(a, "--own")) {
            NEED();
            if (!strcmp(v, "diag")) o->cfg.own_mode = P2G_MODE_DIAG;
            else if (!strcmp(v, "linear")) o->cfg.own_mode = P2G_MODE_LINEAR;
            else return arg_fail(T, a, v, "unknown ownership function", "diag or linear");
        } else if (!strcmp(a, "--frame")) { NEED(); if (arg_u32(T, a, v, 0, SIM_MAX_FRAME, &o->cfg.frame)) return -1; o->frame_given = 1; }
        else if (!strcmp(a, "--chopin-min-tris")) { NEED(); if (arg_u32(T, a, v, 1, UINT32_MAX, &o->cfg.chopin_min_tris)) return -1; }
        else if (!strcmp(a, "--chopin-max-draw-tris")) { NEED(); if (arg_u32(T, a, v, 0, UINT32_MAX, &o->cfg.chopin_max_draw_tris)) return -1; }
        else if (!strcmp(a, "--chopin-sched")) {
            NEED();
            if (!strcmp(v, "least")) o->cfg.chopin_rr = 0;
            else if (!strcmp(v, "rr")) o->cfg.chopin_rr = 1;
            else return arg_fail(T, a, v, "unknown draw scheduler", "least or rr");
        }
        else if (!strcmp(a, "--batch")) { NEED(); if (arg_u32(T, a, v, 1, SIM_MAX_BATCH, &o->cfg.batch)) return -1; }
        else if (!strcmp(a, "--latency")) { NEED(); if (arg_u32(T, a, v, 1, SIM_MAX_LATENCY, &o->cfg.link_latency)) return -1; }
        else if (!strcmp(a, "--tile-log2")) { NEED(); if (arg_u32(T, a, v, 1, 14, &o->cfg.tile_log2)) return -1; }
        else if (!strcmp(a, "--prims")) { NEED(); if (arg_u32(T, a, v, 1, SIM_MAX_PRIMS, &o->prims)) return -1; }
        else if (!strcmp(a, "--repeat")) { NEED(); if (arg_u32(T, a, v, 1, SIM_MAX_REPEAT, &o->repeat)) return -1; }
        else if (!strcmp(a, "--send-rate")) { NEED(); if (arg_u32(T, a, v, 1, SIM_MAX_RATE, &o->cfg.send_rate)) return -1; }
        else if (!strcmp(a, "--hub-rate")) { NEED(); if (arg_u32(T, a, v, 1, SIM_MAX_RATE, &o->cfg.hub_rate)) return -1; }
        else if (!strcmp(a, "--seed")) { NEED(); if (arg_u64x(T, a, v, 0, UINT64_MAX, 1, &o->seed)) return -1; }
        else if (!strcmp(a, "--mem-limit-mb")) { NEED(); if (arg_u32(T, a, v, 1, 1u << 20, &o->mem_limit_mb)) return -1; }
        else if (!strcmp(a, "--min-image-close")) { NEED(); if (arg_f64(T, a, v, 0, 100, &o->min_image_close)) return -1; }
        else if (!strcmp(a, "--min-draws-1pct")) { NEED(); if (arg_f64(T, a, v, 0, 100, &o->min_draws_1pct)) return -1; }
        else if (!strcmp(a, "--size")) { NEED(); if (arg_wxh(T, a, v, 8, 8192, &o->w, &o->h)) return -1; }
        /* timing (issue 9) */
        else if (!strcmp(a, "--link-latency-ns")) { NEED(); if (arg_f64(T, a, v, 1, 1e7, &o->cfg.link_latency_ns)) return -1; }
        else if (!strcmp(a, "--link-gbps")) { NEED(); if (arg_f64(T, a, v, 0.001, 1e6, &o->cfg.link_gbps)) return -1; }
        else if (!strcmp(a, "--hub-gbps")) { NEED(); if (arg_f64(T, a, v, 0.001, 1e6, &o->cfg.hub_gbps)) return -1; }
        else if (!strcmp(a, "--p2g-rows")) { NEED(); if (arg_u32(T, a, v, 1, 64, &o->cfg.p2g_rows)) return -1; }
        else if (!strcmp(a, "--no-skip")) o->cfg.no_skip = 1;
        else if (!strcmp(a, "--threads")) { NEED(); if (arg_u32(T, a, v, 1, 64, &o->cfg.threads)) return -1; }
        else if (!strcmp(a, "--sx-k")) { NEED(); if (arg_u32(T, a, v, 1, SX_HW_MAX_K, &o->cfg.sx_k)) return -1; }
        else if (!strcmp(a, "--sx-depth")) { NEED(); if (arg_u32(T, a, v, 2, SX_HW_MAX_DEPTH, &o->cfg.sx_depth)) return -1; }
        else if (!strcmp(a, "--sx-ramp")) { NEED(); if (arg_u32(T, a, v, 1, 1u << 30, &o->cfg.sx_ramp)) return -1; }
        else if (!strcmp(a, "--sx-live")) { NEED(); if (arg_u32(T, a, v, 1, 16384, &o->cfg.sx_live)) return -1; }
        else if (!strcmp(a, "--sx-front")) {
            NEED();
            if (!strcmp(v, "split")) o->cfg.sx_front = SYS_SX_FRONT_SPLIT;
            else if (!strcmp(v, "in-order")) o->cfg.sx_front = SYS_SX_FRONT_IN_ORDER;
            else if (!strcmp(v, "free")) o->cfg.sx_front = SYS_SX_FRONT_FREE;
            else if (!strcmp(v, "ahead")) o->cfg.sx_front = SYS_SX_FRONT_AHEAD;
            else return arg_fail(T, a, v, "unknown value", "split (default: projection slots of its own), in-order, free (releases rendered at once) or ahead (projection first)");
        }
        else if (!strcmp(a, "--pe")) {
            NEED();
            if (!strcmp(v, "rtl")) o->cfg.pe_golden = 0;
            else if (!strcmp(v, "golden")) o->cfg.pe_golden = 1;
            else return arg_fail(T, a, v, "unknown PE model", "rtl (the PE RTL's cycle model) or golden (cmodel/pe/pe.c, --send-rate)");
        }
        else if (!strcmp(a, "--timing")) {
            NEED();
            if (!strcmp(v, "on")) o->cfg.timing = 1;
            else if (!strcmp(v, "off")) o->cfg.timing = 0;
            else return arg_fail(T, a, v, "unknown value", "on or off");
            o->timing_given = 1;
        } else if (!strcmp(a, "--tcfg")) {
            NEED();
            char nm[64], err[256];
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || (size_t)(eq - v) >= sizeof nm) return arg_fail(T, a, v, "not NAME=VALUE", "a parameter of gpupd-sim timing-config");
            memcpy(nm, v, (size_t)(eq - v));
            nm[eq - v] = 0;
            if (gpu_tcfg_set(&o->cfg.tcfg, nm, eq + 1, err, sizeof err)) return arg_fail(T, a, v, err, NULL);
        } else if (!strcmp(a, "--timeline")) { NEED(); if (check_out(a, v)) return -1; o->timeline = v; }
        else if (!strcmp(a, "--replay-cache")) {
            NEED();
            struct stat sb;
            if (stat(v, &sb) || !S_ISDIR(sb.st_mode)) return arg_fail(T, a, v, "not a directory", "an existing directory");
            o->frec_dir = v;
        }
        else if (!strcmp(a, "--timeline-window")) {
            NEED();
            uint32_t w;
            if (arg_u32(T, a, v, 1, 1u << 24, &w)) return -1;
            if (w & (w - 1)) return arg_fail(T, a, v, "not a power of two", "1, 2, 4, ... 16777216 cycles");
            o->cfg.timeline_log2 = 0;
            while ((1u << o->cfg.timeline_log2) < w) o->cfg.timeline_log2++;
            if (!o->cfg.timeline_log2) o->cfg.timeline_log2 = 1;
        }
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "gpupd-sim: unknown argument '%s'\n", a);
            return -1;
        }
#undef NEED
    }
    if (o->mem_limit_mb) o->cfg.mem_limit_mb = o->mem_limit_mb;
    /* threads: --threads, else GPUPD_THREADS (make run sets it: cores / parallel jobs, docs/evaluation.md) */
    if (!o->cfg.threads && getenv("GPUPD_THREADS") && *getenv("GPUPD_THREADS") &&
        arg_u32(T, "GPUPD_THREADS", getenv("GPUPD_THREADS"), 1, 64, &o->cfg.threads))
        return -1;
    /* --timeline alone uses the documented default window of 1024 cycles (it wrote an empty CSV before) */
    if (o->timeline && !o->cfg.timeline_log2) o->cfg.timeline_log2 = 10;
    /* P2G mask soundness: on by default in render (one run; measured cost in docs/golden-model.md), off by
     * default in verify (every frame is compared with single anyway) and bench (measures speed). */
    if (!cm_given && !strcmp(argv[1], "render")) o->cfg.check_masks = 1;
    if (!strcmp(argv[1], "validate") && (!o->trace || !o->ref)) { fprintf(stderr, "gpupd-sim: validate needs --trace FILE and --ref REF.png\n"); return -1; }
    if (!o->trace == !o->scene) { fprintf(stderr, "gpupd-sim: give exactly one of --trace FILE or --scene NAME\n"); return -1; }
    if (!multi && o->cfg.scheme == SYS_SCHEME_CHOPIN && o->cfg.n_gpus < 2) {
        fprintf(stderr, "gpupd-sim: --scheme chopin composes the sub-images of several GPUs: give --gpus 2..64 (got %u)\n",
                o->cfg.n_gpus);
        return -1;
    }
    if (o->cfg.fault != PE_FAULT_NONE) {
        /* a fault the chosen run cannot inject would silently test nothing */
        if (!strcmp(argv[1], "validate") || !strcmp(argv[1], "bench")) {
            fprintf(stderr, "gpupd-sim: --inject-fault: only render and verify inject faults\n");
            return -1;
        }
        int pe_scheme = o->cfg.scheme == SYS_SCHEME_GPUPD || o->cfg.scheme == SYS_SCHEME_GPUPD_BATCH ||
                        o->cfg.scheme == SYS_SCHEME_GPUPD_RA;
        if (!multi && !pe_scheme) {
            fprintf(stderr, "gpupd-sim: --inject-fault: scheme %s has no primitive exchange to inject into "
                            "(use gpupd, gpupd-batch or gpupd-ra)\n", sys_scheme_name(o->cfg.scheme));
            return -1;
        }
        if (!multi && o->cfg.n_gpus < 2 && o->cfg.fault != PE_FAULT_CLEAR_MASK) {
            fprintf(stderr, "gpupd-sim: --inject-fault: with 1 GPU no packet is exchanged (use --gpus 2..64)\n");
            return -1;
        }
    }
    return 0;
}

static int convert_isa(const opts_t *o, sys_scene_t *s)
{
    if (o->isa == 2) return 0;
    if (o->isa == 0) {
        /* auto: the trace's compiled programs (GLSL, generated fixed function) run on the interpreter,
         * every other draw on the built-in C programs (bit-identical to their library ISA versions) */
        for (uint32_t f = 0; f < s->n_frames; f++)
            for (size_t i = 0; i < s->frames[f].n; i++)
                if (s->frames[f].cmds[i].kind == SYS_CMD_DRAW) gpu_isa_convert_compiled(&s->frames[f].cmds[i].draw);
        return 0;
    }
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

/* After a run with an injected fault that passed every check: did the fault fire, and is the frame still
 * right? The frame is compared with a fault-free `single` run, so a fault no checker caught (e.g.
 * clear-mask without --check-masks) can never give a wrong frame with exit status 0.
 * Returns 0 (fault fired, frame identical: harmless here), 1 (wrong frame) or 2 (fault never fired). */
static int fault_outcome(const opts_t *o, const sys_scene_t *s, const sys_result_t *r)
{
    if (r->fault_fired == 0) {
        fprintf(stderr, "gpupd-sim: --inject-fault: the fault never fired (position %" PRIu64 " is beyond what this run "
                        "exchanges); nothing was tested\n", o->cfg.fault_at);
        return 2;
    }
    sys_config_t c = o->cfg;
    c.scheme = SYS_SCHEME_SINGLE;
    c.fault = PE_FAULT_NONE;
    sys_result_t ref;
    if (sys_run(s, &c, &ref)) {
        fprintf(stderr, "gpupd-sim: reference run failed: %s\n", ref.err);
        sys_result_free(&ref);
        return 1;
    }
    size_t n = (size_t)r->w * r->h, ndiff = 0;
    for (size_t i = 0; i < n && ref.w == r->w && ref.h == r->h; i++) ndiff += r->pixels[i] != ref.pixels[i];
    int bad = ref.w != r->w || ref.h != r->h || ndiff;
    if (bad)
        fprintf(stderr, "gpupd-sim: injected fault fired %" PRIu64 " time(s), no invariant check caught it, and the frame is "
                        "WRONG: %zu pixels differ from `single` (run with --check-masks to catch a P2G mask error "
                        "where it happens)\n", r->fault_fired, ndiff);
    else if (!o->quiet)
        fprintf(stderr, "gpupd-sim: note: injected fault fired %" PRIu64 " time(s) without changing the frame\n", r->fault_fired);
    sys_result_free(&ref);
    return bad ? 1 : 0;
}

/* --timeline: per GPU, window and unit, the unit's busy fraction of its peak (Qsilver-style bottleneck
 * timeline; scripts/plot_timeline.py draws it) */
static int write_timeline(const opts_t *o, const sys_result_t *r)
{
    if (!r->timed) { fprintf(stderr, "gpupd-sim: --timeline needs a timed run (--timing on, no checks/faults)\n"); return -1; }
    /* safe output (cmodel/common/outfile.h): never renamed over a device node, no temporary left behind */
    outf_t of;
    char oerr[600];
    if (outf_open(&of, o->timeline, 0, oerr, sizeof oerr)) { fprintf(stderr, "gpupd-sim: --timeline: %s\n", oerr); return -1; }
    FILE *f = of.f;
    uint32_t N = o->cfg.scheme == SYS_SCHEME_SINGLE ? 1 : o->cfg.n_gpus;
    uint64_t win = 1ull << o->cfg.timeline_log2;
    fprintf(f, "gpu,cycle,window,unit,busy\n");
    for (uint32_t g = 0; g < N; g++)
        for (size_t w = 0; w < r->gpu[g].timeline_n; w++)
            for (int u = 0; u < GT_NUNITS; u++) {
                double cap = (double)win * GT_TPC * (u == GT_SHADER ? o->cfg.tcfg.cores : 1);
                fprintf(f, "%u,%" PRIu64 ",%" PRIu64 ",%s,%.4f\n", g, (uint64_t)w * win, win, gt_unit_name(u),
                        (double)r->gpu[g].timeline[w * GT_NUNITS + (size_t)u] / cap);
            }
    if (outf_commit(&of, oerr, sizeof oerr)) { fprintf(stderr, "gpupd-sim: --timeline: %s\n", oerr); return -1; }
    return 0;
}

/* --replay-cache (docs/timing.md, "Functional work once per frame"). A run without a frame image (no -o) of a
 * trace, not chopin, without --check-masks, replays the frame records of its frames 0..K from the cache; a
 * missing one is recorded first by a single-GPU functional pass. A single-GPU run that writes its frame records
 * in passing what the cache lacks. Sets *mode (FREC_OFF: run as usual) and recs[0..K]. 0, or -1 on an error. */
static frec_t *frec_for(const sys_scene_t *s, uint32_t f)
{
    size_t n = s->frames[f].n;
    uint32_t *np = calloc(n ? n : 1, sizeof *np);
    if (!np) return NULL;
    for (size_t i = 0; i < n; i++)
        np[i] = s->frames[f].cmds[i].kind == SYS_CMD_DRAW ? gpu_draw_prim_count(&s->frames[f].cmds[i].draw) : 0;
    frec_t *r = frec_new(f, np, (uint32_t)n);
    free(np);
    return r;
}

static int frec_prepare(const opts_t *o, const sys_scene_t *s, const char *name, frec_t **recs, int *mode,
                        frec_key_t *keys, char (*paths)[4096])
{
    *mode = FREC_OFF;
    if (!o->frec_dir || !o->trace || o->cfg.fault != PE_FAULT_NONE) return 0;
    int replay = !o->out && o->cfg.scheme != SYS_SCHEME_CHOPIN && !o->cfg.check_masks;
    int inline_rec = o->out && o->cfg.scheme == SYS_SCHEME_SINGLE;
    if (!replay && !inline_rec) return 0;
    uint64_t th = frec_hash_file(o->trace), mh = frec_hash_file("/proc/self/exe");
    if (!th || !mh) {
        if (!o->quiet) fprintf(stderr, "gpupd-sim: --replay-cache: cannot hash the trace or the executable; running the model\n");
        return 0;
    }
    int missing = 0;
    for (uint32_t f = 0; f <= o->cfg.frame; f++) {
        keys[f] = (frec_key_t){th, mh, f, (uint32_t)o->isa | (uint32_t)o->cfg.tex_filter << 8};
        frec_path(paths[f], sizeof paths[f], o->frec_dir, name, &keys[f]);
        char err[512];
        if (access(paths[f], R_OK) != 0) { missing = 1; continue; }
        if (!inline_rec && !(recs[f] = frec_load(&keys[f], paths[f], err, sizeof err))) {
            if (!o->quiet) fprintf(stderr, "gpupd-sim: --replay-cache: %s; recording again\n", err);
            missing = 1;
        }
    }
    if (inline_rec) {
        if (!missing) return 0;
        for (uint32_t f = 0; f <= o->cfg.frame; f++)
            if (!(recs[f] = frec_for(s, f))) return -1;
        *mode = FREC_RECORD;
        return 0;
    }
    if (missing) {      /* one single-GPU functional pass records every frame */
        for (uint32_t f = 0; f <= o->cfg.frame; f++) {
            frec_free(recs[f]);
            if (!(recs[f] = frec_for(s, f))) return -1;
        }
        sys_config_t rc = o->cfg;
        rc.scheme = SYS_SCHEME_SINGLE;
        rc.n_gpus = 1;
        rc.timing = 0;
        rc.check_masks = 0;
        rc.frec = recs;
        rc.frec_mode = FREC_RECORD;
        sys_result_t rr;
        if (sys_run(s, &rc, &rr)) {
            fprintf(stderr, "gpupd-sim: --replay-cache: recording: %s\n", rr.err);
            sys_result_free(&rr);
            return -1;
        }
        sys_result_free(&rr);
        for (uint32_t f = 0; f <= o->cfg.frame; f++) {
            const char *why = frec_check_complete(recs[f]);
            char err[600];
            if (why) {
                if (!o->quiet) fprintf(stderr, "gpupd-sim: --replay-cache: frame %u cannot be recorded (%s); running the model\n", f, why);
                return 0;
            }
            if (frec_save(recs[f], &keys[f], paths[f], err, sizeof err) && !o->quiet)
                fprintf(stderr, "gpupd-sim: --replay-cache: %s (the record is used, not kept)\n", err);
        }
        if (!o->quiet) fprintf(stderr, "gpupd-sim: --replay-cache: recorded %s frames 0..%u\n", name, o->cfg.frame);
    }
    *mode = FREC_REPLAY;
    return 0;
}

static int cmd_render(opts_t *o)
{
    sys_scene_t s;
    char name[256];
    if (load(o, &s, name, sizeof name)) return 2;
    sys_result_t r;
    int rc = 0;
    uint32_t nf = o->cfg.frame + 1;
    frec_t **recs = calloc(nf, sizeof *recs);
    frec_key_t *keys = calloc(nf, sizeof *keys);
    char (*paths)[4096] = calloc(nf, sizeof *paths);
    int fmode = FREC_OFF;
    if (!recs || !keys || !paths || frec_prepare(o, &s, name, recs, &fmode, keys, paths)) {
        fprintf(stderr, "gpupd-sim: --replay-cache: cannot prepare the frame records\n");
        if (recs)
            for (uint32_t f = 0; f < nf; f++) frec_free(recs[f]);
        free(recs);
        free(keys);
        free(paths);
        sys_scene_free(&s);
        return 2;
    }
    o->cfg.frec = recs;
    o->cfg.frec_mode = fmode;
    int frc = sys_run(&s, &o->cfg, &r);
    if (frc && fmode == FREC_REPLAY && r.replay_refused) {
        if (!o->quiet) fprintf(stderr, "gpupd-sim: --replay-cache: %s; running the model\n", r.err);
        sys_result_free(&r);
        o->cfg.frec_mode = fmode = FREC_OFF;
        frc = sys_run(&s, &o->cfg, &r);
    }
    if (!frc && fmode == FREC_RECORD)
        for (uint32_t f = 0; f < nf; f++) {
            char err[600];
            if (frec_check_complete(recs[f]) || frec_save(recs[f], &keys[f], paths[f], err, sizeof err)) {
                if (!o->quiet) fprintf(stderr, "gpupd-sim: --replay-cache: frame %u not recorded\n", f);
                break;
            }
        }
    o->cfg.frec = NULL;
    o->cfg.frec_mode = FREC_OFF;
    for (uint32_t f = 0; f < nf; f++) frec_free(recs[f]);
    free(recs);
    free(keys);
    free(paths);
    if (frc) {
        fprintf(stderr, "gpupd-sim: %s\n", r.err);
        rc = 1;
    } else if (o->cfg.fault != PE_FAULT_NONE && (rc = fault_outcome(o, &s, &r)) != 0) {
        /* an injected fault that never fired or went undetected: no frame is written */
    } else {
        printf("%s scheme %s gpus %u topology %s frame %u: %ux%u hash %016" PRIx64 "%s\n", name, sys_scheme_name(o->cfg.scheme),
               o->cfg.scheme == SYS_SCHEME_SINGLE ? 1 : o->cfg.n_gpus, net_topo_name(o->cfg.topo), o->cfg.frame, r.w, r.h,
               r.replayed ? r.frame_hash : sys_frame_hash(r.pixels, (size_t)r.w * r.h),
               r.replayed ? " (frame record replayed: the recorded frame's hash, no frame rendered)" : "");
        if (o->out && img_write_png(o->out, r.pixels, r.w, r.h, 1, 0)) {
            fprintf(stderr, "gpupd-sim: cannot write %s\n", o->out);
            rc = 2;
        }
        if (o->stats && sys_write_stats_json(&r, &o->cfg, name, o->stats)) {
            fprintf(stderr, "gpupd-sim: cannot write %s\n", o->stats);
            rc = 2;
        }
        if (r.timed && !o->quiet)
            printf("  single-frame latency %" PRIu64 " cycles (%.3f ms at 1 GHz)\n", r.cycles, (double)r.cycles * 1e-6);
        if (o->timeline && write_timeline(o, &r)) {
            fprintf(stderr, "gpupd-sim: cannot write %s\n", o->timeline);
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
    static const uint32_t default_gpus[] = {2, 3, 4, 8, 16};
    const uint32_t *gl = o->n_gpu_list ? o->gpu_list : default_gpus;
    uint32_t ng = o->n_gpu_list ? o->n_gpu_list : 5;
    sys_scheme_t sl[SYS_SCHEME_COUNT];
    int ns = 0;
    const char *ss = o->schemes ? o->schemes : "all";
    if (!strcmp(ss, "all")) {
        for (int i = 1; i < SYS_SCHEME_COUNT; i++) sl[ns++] = (sys_scheme_t)i;
    } else {
        if (parse_schemes(ss, sl, &ns)) { sys_result_free(&ref); sys_scene_free(&s); return 2; }
    }
    net_topo_t tl[2];
    int nt = 0;
    if (!strcmp(o->topo_s, "both")) { tl[nt++] = NET_LINE; tl[nt++] = NET_HUB; }
    else tl[nt++] = o->cfg.topo;
    int pass = 0, fail = 0, chopin_runs = 0;
    uint64_t chopin_groups = 0, chopin_ties = 0;
    for (int si = 0; si < ns; si++)
        for (uint32_t gi = 0; gi < ng; gi++)
            for (int ti = 0; ti < nt; ti++) {
                c = o->cfg;
                c.scheme = sl[si];
                c.n_gpus = gl[gi];
                c.topo = tl[ti];
                if (c.scheme == SYS_SCHEME_CHOPIN && c.n_gpus < 2) continue;   /* composition needs 2+ GPUs */
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
                    if (c.scheme == SYS_SCHEME_CHOPIN) {
                        chopin_runs++;
                        chopin_groups += r.comp_groups;
                        chopin_ties += r.comp_tie_pixels;
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
    if (chopin_runs)    /* how much of chopin was composition (the rest ran as dup): a check of 0 groups tests only dup */
        printf("verify %s: chopin composed %" PRIu64 " group(s) in %d run(s), %" PRIu64 " pixel(s) decided by draw order "
               "among equal depths\n", name, chopin_groups, chopin_runs, chopin_ties);
    sys_result_free(&ref);
    sys_scene_free(&s);
    if (pass + fail == 0) {
        fprintf(stderr, "gpupd-sim verify: nothing was compared (no scheme x GPU count selected)\n");
        return 1;
    }
    return fail ? 1 : 0;
}

static int img_has_variation(const uint32_t *p, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if ((p[i] ^ p[0]) & 0xFFFFFFu) return 1;
    return 0;
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
    if (o->min_image_close > 0 && !img_has_variation(ref, (size_t)rw * rh)) {
        /* a blank reference "agrees" with any blank frame: refuse to compare against nothing */
        fprintf(stderr, "gpupd-sim: validate: reference %s is a single colour; not a reference image\n", o->ref);
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
    /* The stated agreement (docs/validation.md): below it validate fails, so an unrelated or wrong
     * reference image, or a model that stopped matching, cannot pass. */
    int rc = 0;
    double close_pct = 100.0 * (double)close / (double)n;
    double draws_pct = nd ? 100.0 * (double)n1 / (double)nd : 100.0;
    if (close_pct < o->min_image_close) {
        fprintf(stderr, "gpupd-sim: validate FAILED: %.2f%% of the pixels within 8/255 of %s, below --min-image-close %.2f%%\n",
                close_pct, o->ref, o->min_image_close);
        rc = 1;
    }
    if (draws_pct < o->min_draws_1pct) {
        fprintf(stderr, "gpupd-sim: validate FAILED: %.2f%% of the draws with a reference count within 1%% of it, below "
                        "--min-draws-1pct %.2f%%\n", draws_pct, o->min_draws_1pct);
        rc = 1;
    }
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
            if (img_write_png(o->diff, d, rw, rh, 1, 0)) { fprintf(stderr, "gpupd-sim: cannot write %s\n", o->diff); rc = 2; }
            free(d);
        } else {
            fprintf(stderr, "gpupd-sim: out of memory for the difference image\n");
            rc = 2;
        }
    }
    if (o->out && img_write_png(o->out, r.pixels, r.w, r.h, 1, 0)) { fprintf(stderr, "gpupd-sim: cannot write %s\n", o->out); rc = 2; }
    if (o->json) {
        outf_t of;
        char oerr[600];
        FILE *f = NULL;
        if (outf_open(&of, o->json, 0, oerr, sizeof oerr)) { fprintf(stderr, "gpupd-sim: --json: %s\n", oerr); rc = 2; }
        else f = of.f;
        if (f) {
            fprintf(f, "{\"trace\": \"%s\", \"frame\": %u, \"width\": %u, \"height\": %u, \"draws\": %u, \"approx_fs\": %u, "
                       "\"approx_other\": %u, \"image_exact\": %.6f, \"image_close8\": %.6f, \"psnr_db\": %.3f, \"draws_with_ref\": %u, "
                       "\"draws_exact\": %u, \"draws_within_1pct\": %u, \"draws_within_10pct\": %u, \"pixels_model\": %llu, "
                       "\"pixels_ref\": %llu, \"pixels_abs_diff\": %llu, ",
                    ti.name, o->cfg.frame, rw, rh, ti.draws, ti.approx_fs, ti.approx_other, (double)exact / (double)n,
                    (double)close / (double)n, psnr, nd, nexact, n1, n10, (unsigned long long)sum_model, (unsigned long long)sum_ref,
                    (unsigned long long)sum_abs);
            /* per draw of the frame (the model's draws, in order): [model pixels, reference pixels or -1] */
            fprintf(f, "\"per_draw\": [");
            for (uint32_t i = 0; i < r.n_draws_frame; i++)
                fprintf(f, "%s[%llu, %lld]", i ? ", " : "", (unsigned long long)r.draw_pixels[i], (long long)r.draw_ref_pixels[i]);
            fprintf(f, "]}\n");
            if (outf_commit(&of, oerr, sizeof oerr)) { fprintf(stderr, "gpupd-sim: --json: %s\n", oerr); rc = 2; }
        }
    }
    free(ref);
    sys_result_free(&r);
    sys_scene_free(&s);
    return rc;
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
#ifdef __GLIBC__
    /* Large short-lived buffers (decoded trace chunks, frame records, per-draw lists) are reused from the heap
     * instead of being mapped and unmapped, each time zero-filled page by page by the kernel: a quarter fewer
     * page faults, ~5 % of a replayed one-GPU run (docs/timing.md item 8). No effect on any result. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
    if (argc < 2) { usage(stderr); return 2; }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) { usage(stdout); return 0; }
    if (!strcmp(argv[1], "timing-config")) {
        /* the config table of docs/timing.md, generated from the one parameter table of the model */
        sys_config_t d = sys_config_default();
        size_t np;
        const gt_param_t *pt = gt_params(&np);
        printf("| parameter | default | unit | source |\n|---|---|---|---|\n");
        printf("| clock | 1 | GHz | paper Table 1 (one model cycle = 1 ns) |\n");
        printf("| `--link-latency-ns` | %g | ns per link traversal | paper Table 1: 100/200/400/800 ns, default 400 (5) |\n", d.link_latency_ns);
        printf("| `--link-gbps` | %g | GB/s per link and direction | paper Table 1: 40 GB/s |\n", d.link_gbps);
        printf("| `--hub-gbps` | %g | GB/s through the hub switch | paper Table 1: 80 GB/s (section 5.4 text says 40: we follow the table) |\n", d.hub_gbps);
        printf("| `--batch` | %u | primitives | paper 4.3: batching threshold 4096 |\n", d.batch);
        printf("| `--tile-log2` | %u | log2 pixels | paper Table 1: 32x32 tiles |\n", d.tile_log2);
        printf("| `--p2g-rows` | %u | rows/cycle | P2G RTL parameter ROWS (docs/p2g.md) |\n", d.p2g_rows);
        printf("| `--pe` | rtl | | the exchange runs on the P2G and PE RTL cycle models (cmodel/sys/cdsys.c: p2g_hw, pe_hw) |\n");
        printf("| `--send-rate` | %u | entries/cycle | only with `--pe golden` (cmodel/pe/pe.c): entries its turn engine walks per cycle |\n", d.send_rate);
        printf("| `--sx-k` | 1 | entries/cycle | gpupd-stream: entries the stream PE releases per cycle (K, 1..8) |\n");
        printf("| `--sx-depth` | %u | entries | gpupd-stream: reorder FIFO depth per source GPU = credits per destination (ours: one source's share of a large draw's batch fits; what the FIFOs really hold is `reorder_max_ids`) |\n", CDSYS_SX_DEPTH_DEFAULT);
        printf("| `--sx-live` | %u | batches | gpupd-stream: CP of batch b starts once b - %u is released (issue 20: at least 4 live batches) |\n", CDSYS_SX_LIVE_DEFAULT, CDSYS_SX_LIVE_DEFAULT);
        for (size_t i = 0; i < np; i++)
            printf("| `%s` | %g | %s | %s |\n", pt[i].name, gpu_tcfg_get(&d.tcfg, &pt[i]), pt[i].unit, pt[i].source);
        return 0;
    }
    opts_t o;
    if (strcmp(argv[1], "render") && strcmp(argv[1], "verify") && strcmp(argv[1], "bench") && strcmp(argv[1], "validate")) {
        fprintf(stderr, "gpupd-sim: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }
    if (parse_args(argc, argv, &o)) { fprintf(stderr, "(gpupd-sim --help lists the options; docs/cli.md their ranges)\n"); return 2; }
    if (o.isa == 1) {
        char err[256];
        if (gpu_isa_library_load(&o.lib, err, sizeof err)) { fprintf(stderr, "gpupd-sim: %s\n", err); return 2; }
    }
    o.cfg.isa = o.isa != 2;     /* auto attaches the interpreter too (used only by draws that need it) */
    int rc;
    if (!o.frame_given && (!strcmp(argv[1], "verify") || !strcmp(argv[1], "bench"))) o.last_frame = 1;
    if (!o.timing_given && strcmp(argv[1], "render")) o.cfg.timing = 0;   /* verify/validate/bench: functional unless asked */
    if (!strcmp(argv[1], "render")) rc = cmd_render(&o);
    else if (!strcmp(argv[1], "verify")) rc = cmd_verify(&o, argv, argc);
    else if (!strcmp(argv[1], "validate")) rc = cmd_validate(&o);
    else rc = cmd_bench(&o);
    gpu_isa_library_free(&o.lib);
    return rc;
}
