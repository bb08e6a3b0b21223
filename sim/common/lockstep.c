/* The lockstep driver of every co-simulation harness: run loop, history, mismatch report, failure window,
 * views, argument parsing. Interface and contract: lockstep.h. */
#include "lockstep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/args.h"

/* ---------------------------------------------------------------------------------------- options */
int ls_parse(const char *tool, int argc, char **argv, const ls_opt_t *opts, size_t n_opts, void *user,
             void (*usage)(void))
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            if (usage) usage();
            return 1;
        }
        const ls_opt_t *op = NULL;
        for (size_t k = 0; k < n_opts && !op; k++)
            if (!strcmp(a, opts[k].name)) op = &opts[k];
        if (!op) {
            fprintf(stderr, "%s: unknown argument '%s'\n", tool, a);
            if (usage) usage();
            return 2;
        }
        if (op->given) *op->given = 1;
        if (op->kind == LS_OPT_FLAG) {
            *(int *)op->dst = 1;
            continue;
        }
        if (!v) {
            arg_need(tool, a);
            return 2;
        }
        i++;
        int bad = 0;
        uint32_t u32 = 0;
        uint64_t u64 = 0;
        switch (op->kind) {
        case LS_OPT_U32:
            bad = arg_u32(tool, a, v, (uint32_t)op->lo, (uint32_t)op->hi, &u32);
            if (!bad) *(uint32_t *)op->dst = u32;
            break;
        case LS_OPT_U64:
        case LS_OPT_U64X:
            bad = arg_u64x(tool, a, v, op->lo, op->hi, op->kind == LS_OPT_U64X, &u64);
            if (!bad) *(uint64_t *)op->dst = u64;
            break;
        case LS_OPT_SEED:
            if (!strcmp(v, "random")) *(uint64_t *)op->dst = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
            else bad = arg_u64x(tool, a, v, 0, UINT64_MAX, 1, (uint64_t *)op->dst);
            break;
        case LS_OPT_STR: *(const char **)op->dst = v; break;
        case LS_OPT_FN: bad = op->fn(user, a, v); break;
        case LS_OPT_LIST: {
            ls_list_t *l = op->dst;
            uint32_t n = 0;
            bad = arg_u32_list(tool, a, v, (uint32_t)op->lo, (uint32_t)op->hi, l->v, LS_LIST_MAX, &n);
            if (!bad) l->n = (int)n;
            break;
        }
        case LS_OPT_INDEX:
            bad = arg_u64(tool, a, v, 0, INT64_MAX, &u64);
            if (!bad) *(int64_t *)op->dst = (int64_t)u64;
            break;
        default: bad = -1;
        }
        if (bad) return 2;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- the run */
int ls_init(ls_t *ls, const ls_unit_t *u, const ls_common_t *opt, const char *argv0)
{
    memset(ls, 0, sizeof *ls);
    ls->u = u;
    ls->unit = u->unit;
    ls->opt = opt;
    ls->argv0 = argv0;
    ls->stop_at = UINT64_MAX;
    if (u->hist_depth) {
        ls->hist = calloc(u->hist_depth, u->hist_rec);
        if (!ls->hist) return -1;
    }
    return 0;
}

void ls_start(ls_t *ls, void *user, const char *fst, uint64_t dump_from, uint64_t stop_at, int report, uint64_t cycle)
{
    ls->user = user;
    ls->fst = fst;
    ls->dump_from = dump_from;
    ls->stop_at = stop_at;
    ls->report = report;
    ls->cycle = cycle;
    ls->port_checks = 0;
    ls->idle = 0;
    ls->waiting = 0;
    ls->failed = 0;
    ls->fail_cycle = 0;
    ls->dumping = fst && dump_from <= cycle;
    if (ls->u->dump) ls->u->dump(user, ls->dumping);
}

void ls_free(ls_t *ls)
{
    free(ls->hist);
    ls->hist = NULL;
}

void *ls_hist_add(ls_t *ls)
{
    return ls->hist + (size_t)(ls->n_hist++ % ls->u->hist_depth) * ls->u->hist_rec;
}

int ls_step(ls_t *ls)
{
    const ls_unit_t *u = ls->u;
    if (ls->fst && !ls->dumping && ls->cycle >= ls->dump_from) {
        u->dump(ls->user, 1);
        ls->dumping = 1;
    }
    int rc = u->eval(ls->user, ls->cycle);
    if (rc == LS_FAIL) return LS_FAIL;
    if (u->watchdog && ls->waiting && ++ls->idle > u->watchdog) {
        char why[160];
        snprintf(why, sizeof why, "watchdog: %s for %" PRIu64 " cycles", u->watchdog_what, u->watchdog);
        return ls_fail(ls, ls->cycle, why);
    }
    u->clock(ls->user);
    ls->cycle++;
    if (ls->cycle > ls->stop_at) return LS_STOP;
    return rc;
}

int ls_run(ls_t *ls)
{
    for (;;) {
        int rc = ls->u->drive(ls->user, ls->cycle);
        if (rc != LS_OK) return rc;
        rc = ls_step(ls);
        if (rc != LS_OK) return rc;
    }
}

/* ---------------------------------------------------------------------------------------- report */
void ls_field_head(FILE *f, int name_w, const char *model)
{
    fprintf(f, "  %-*s %-20s %s\n", name_w, "field", "DUT (RTL)", model);
}

int ls_field(FILE *f, int name_w, const char *name, uint64_t dut, uint64_t model)
{
    if (dut != model)
        fprintf(f, "  %-*s 0x%-18" PRIx64 " 0x%-18" PRIx64 "  <-- differs\n", name_w, name, dut, model);
    else
        fprintf(f, "  %-*s 0x%-18" PRIx64 " 0x%" PRIx64 "\n", name_w, name, dut, model);
    return dut != model;
}

void ls_hist_print(const ls_t *ls, FILE *f)
{
    uint32_t depth = ls->u->hist_depth;
    uint64_t first = ls->n_hist > depth ? ls->n_hist - depth : 0;
    fprintf(f, "  last %" PRIu64 " transactions (oldest first):\n", ls->n_hist - first);
    for (uint64_t i = first; i < ls->n_hist; i++)
        ls->u->hist_print(ls->user, f, ls->hist + (size_t)(i % depth) * ls->u->hist_rec);
}

int ls_fail(ls_t *ls, uint64_t cycle, const char *why)
{
    ls->failed = 1;
    ls->fail_cycle = cycle;
    if (!ls->report) return LS_FAIL;
    const ls_unit_t *u = ls->u;
    FILE *f = stderr;
    fprintf(f, "\nCOSIM MISMATCH unit=%s %s seed=0x%" PRIx64 "%s cycle=%" PRIu64 "\n", ls->unit, ls->params,
            ls->opt->seed, ls->where, cycle);
    fprintf(f, "  what: %s\n", why);
    if (u->detail) u->detail(ls->user, f, why);
    if (u->hist_depth) ls_hist_print(ls, f);
    fprintf(f, "  reproduce: ");
    u->cmd(ls->user, f, 0);
    fprintf(f, "\n");
    if (u->has_near) {
        fprintf(f, "  reproduce near the failure: ");
        u->cmd(ls->user, f, 1);
        fprintf(f, "\n");
    }
    return LS_FAIL;
}

/* ---------------------------------------------------------------------------------------- waveforms */
/* mkdir -p */
static int mkdirs(const char *dir)
{
    char p[1024];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof p) return -1;
    memcpy(p, dir, n + 1);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0777) && errno != EEXIST) return -1;
        *s = '/';
    }
    return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

void ls_fail_window(const char *tool, const ls_common_t *o, uint64_t fail_cycle, const char *tag, const char *suffix,
                    void (*replay)(void *user, const char *fst, uint64_t from, uint64_t to), void *user,
                    gtkw_view_width_fn width, void *wctx)
{
    char fst[1024], gtkw[1024];
    if (mkdirs(o->out_dir)) fprintf(stderr, "%s: cannot create %s\n", tool, o->out_dir);
    snprintf(fst, sizeof fst, "%s/fail-%s-cycle%" PRIu64 ".fst", o->out_dir, tag, fail_cycle);
    snprintf(gtkw, sizeof gtkw, "%s/fail-%s-cycle%" PRIu64 ".gtkw", o->out_dir, tag, fail_cycle);
    uint64_t from = fail_cycle > o->window ? fail_cycle - o->window : 0, to = fail_cycle + 2;
    replay(user, fst, from, to);
    struct stat sb;
    if (stat(fst, &sb) != 0) {   /* a build without FST tracing (--trace-fst) writes none */
        fprintf(stderr, "  waveform: none (this binary was built without FST tracing)\n");
        return;
    }
    gtkw_view_write(tool, o->gtkw, gtkw, fst, 20000 + 10000 * from, width, wctx);
    fprintf(stderr, "  waveform: %s (cycles %" PRIu64 "..%" PRIu64 "%s)\n  view:     gtkwave %s\n", fst, from, to,
            suffix ? suffix : "", gtkw);
}

void ls_waves_view(const char *tool, const ls_common_t *opt, uint64_t t0, gtkw_view_width_fn width, void *wctx,
                   int quiet)
{
    char gtkw[1024];
    snprintf(gtkw, sizeof gtkw, "%s.gtkw", opt->waves);
    gtkw_view_write(tool, opt->gtkw, gtkw, opt->waves, t0, width, wctx);
    if (!quiet) printf("%s: waveform %s, view %s\n", tool, opt->waves, gtkw);
}

/* ---------------------------------------------------------------------------------------- the end */
int ls_require(const char *tool, uint64_t n, const char *what)
{
    if (n) return 0;
    fprintf(stderr, "%s: FAIL: zero %s (nothing was checked)\n", tool, what);
    return 1;
}

double ls_wall_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double ls_cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---------------------------------------------------------------------------------------- scenario harnesses */
int ls_list_print(FILE *f, const ls_list_t *g, uint32_t max_gpus)
{
    int fit = 0;
    for (int i = 0; i < g->n; i++) {
        int skip = max_gpus && g->v[i] > max_gpus;
        fprintf(f, "%s%u%s", i ? "," : "", g->v[i], skip ? "(skipped)" : "");
        fit += !skip;
    }
    return fit;
}

void ls_scen_fail_window(const char *tool, const ls_common_t *opt, uint64_t fail_cycle, uint32_t idx,
                         void (*replay)(void *user, const char *fst, uint64_t from, uint64_t to), void *user,
                         gtkw_view_width_fn width, void *wctx)
{
    char tag[64], suffix[48];
    snprintf(tag, sizeof tag, "seed%" PRIx64 "-scen%u", opt->seed, idx);
    snprintf(suffix, sizeof suffix, " of scenario %u", idx);
    ls_fail_window(tool, opt, fail_cycle, tag, suffix, replay, user, width, wctx);
}

void ls_per_n_print(FILE *f, const uint64_t per_n[65])
{
    for (int n = 1; n <= 64; n++)
        if (per_n[n]) fprintf(f, " %d:%" PRIu64, n, per_n[n]);
}

double ls_cpu_since(double c0)
{
    double c = ls_cpu_s() - c0;
    return c > 0 ? c : 1e-9;
}
