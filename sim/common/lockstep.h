/* The lockstep driver every co-simulation harness (sim/<unit>/cosim_<unit>.c) runs on: one library behind a
 * small unit interface, in the shape of lowRISC Ibex's cosim (one step per cycle, every mismatch reported as
 * text naming the field, the DUT value and the expected value) and Nyuzi's tests/cosimulation.
 *
 * A harness supplies only what is particular to its unit (ls_unit_t): evaluate the DUT and the model on this
 * cycle's inputs and compare the ports (eval), clock both (clock), switch the DUT's waveform (dump), describe a
 * mismatch (detail: the field table, through ls_field), print one history record and the reproduce command.
 * Its own loop drives the stimulus of each cycle and calls ls_step; a harness whose stimulus is one per-cycle
 * function gives it as drive and calls ls_run.
 *
 * The library supplies the rest:
 *   - the run loop (ls_step/ls_run): cycle count, port comparisons, the FST dump window, a stop cycle, the
 *     progress watchdog;
 *   - the history of the last transactions (a ring of fixed-size records, printed oldest first);
 *   - the mismatch report: "COSIM MISMATCH unit=... seed=... cycle=..." head, what, the unit's detail, the
 *     history and the reproduce command(s);
 *   - the failure window: the run replayed (by the harness's replay callback) with an FST of the last
 *     --window cycles before the failure, and a saved GTKWave view (gtkw_view.h) that opens on it;
 *   - the whole-run waveform's view (--waves);
 *   - argument parsing from a table of options (common/args.h checks every number);
 *   - "zero comparisons fails" (ls_require).
 *
 * Time base of the waveforms (sim/common/vl_dut.h): two reset cycles of 10 ns, then 10 ns per cycle, so cycle c
 * starts at 20 ns + 10 ns * c. C11; no global state. */
#ifndef GPUPD_SIM_LOCKSTEP_H
#define GPUPD_SIM_LOCKSTEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gtkw_view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------- options */
typedef enum {
    LS_OPT_FLAG,   /* no value: *(int *)dst = 1 */
    LS_OPT_U32,    /* decimal in [lo, hi]: *(uint32_t *)dst */
    LS_OPT_U64,    /* decimal in [lo, hi]: *(uint64_t *)dst */
    LS_OPT_U64X,   /* decimal or 0x hex in [lo, hi]: *(uint64_t *)dst */
    LS_OPT_SEED,   /* like U64X over the whole range, or "random" (time-based; printed, so still replayable) */
    LS_OPT_STR,    /* *(const char **)dst = the value */
    LS_OPT_FN,     /* fn(user, name, value): 0 ok, -1 bad (fn printed why) */
    LS_OPT_LIST,   /* comma-separated decimals in [lo, hi]: *(ls_list_t *)dst (at most LS_LIST_MAX values) */
    LS_OPT_INDEX   /* decimal in [0, INT64_MAX]: *(int64_t *)dst (an optional index whose default, -1, means none) */
} ls_opt_kind_t;

enum { LS_LIST_MAX = 16 };
typedef struct {
    uint32_t v[LS_LIST_MAX];
    int n;
} ls_list_t;

typedef struct {
    const char *name;      /* "--seed" */
    ls_opt_kind_t kind;
    void *dst;
    uint64_t lo, hi;
    int (*fn)(void *user, const char *name, const char *val);
    int *given;            /* optional: set to 1 when the option appears */
} ls_opt_t;

/* Parse argv[1..] against the table. "-h"/"--help" print usage and return 1 (the caller exits 0). An unknown
 * option prints "<tool>: unknown argument '<a>'" and usage; a bad value prints what is wrong (common/args.h);
 * both return 2 (the caller exits 2, bad arguments). 0: parsed. */
int ls_parse(const char *tool, int argc, char **argv, const ls_opt_t *opts, size_t n_opts, void *user,
             void (*usage)(void));

/* ---------------------------------------------------------------------------------------- the unit */
enum { LS_OK = 0, LS_DONE = 1, LS_FAIL = -1, LS_STOP = 2 };

typedef struct ls ls_t;

typedef struct {
    const char *tool;      /* "cosim-p2g": prefix of every message */
    const char *unit;      /* "p2g_mapper": the report's unit= */
    /* per cycle */
    int (*drive)(void *u, uint64_t cycle);   /* ls_run only: this cycle's inputs; LS_DONE: no more cycles */
    int (*eval)(void *u, uint64_t cycle);    /* DUT and model on this cycle's inputs, ports compared (counted with
                                                ls_compared), results checked: LS_OK, LS_DONE (last cycle: stop
                                                after its clock) or LS_FAIL (after ls_fail) */
    void (*clock)(void *u);                  /* rising edge of DUT and model */
    void (*dump)(void *u, int on);           /* switch the DUT's waveform on/off */
    /* report */
    void (*detail)(void *u, FILE *f, const char *why);      /* lines after "what:" (ls_field for the table) */
    void (*hist_print)(void *u, FILE *f, const void *rec);  /* one history record, one line (or more) */
    void (*cmd)(void *u, FILE *f, int near);                /* the reproduce command, without the newline;
                                                               near = 1: the one that starts near the failure
                                                               (only when has_near) */
    int has_near;
    uint32_t hist_depth;   /* history: last this many transactions */
    size_t hist_rec;       /* size of one history record */
    uint64_t watchdog;     /* fail after this many cycles without ls_progress while ls->waiting (0: never) */
    const char *watchdog_what;   /* "no output" -> "watchdog: no output for N cycles" */
} ls_unit_t;

/* The options every harness has in common (parsed by the harness's table, consumed by the library). */
typedef struct {
    uint64_t seed;
    const char *out_dir;   /* failure windows go here */
    uint32_t window;       /* cycles of waveform before the failure */
    const char *waves;     /* whole-run FST (make waves-*) */
    const char *gtkw;      /* saved view template (tb/<unit>/<unit>.gtkw) */
    int quiet;
} ls_common_t;

struct ls {
    const ls_unit_t *u;
    void *user;
    const ls_common_t *opt;
    const char *argv0;
    const char *unit;      /* report head: unit= (ls_init: u->unit; a harness of two units may name the one that failed) */
    char params[160];      /* report head: build parameters ("MAX_GPUS=16 ROWS=2") */
    char where[96];        /* report head, after the seed (" scenario=3") */
    /* run state */
    uint64_t cycle;
    uint64_t port_checks;
    uint64_t idle;         /* cycles since the last ls_progress */
    int waiting;           /* set by the harness: work is outstanding (the watchdog counts) */
    int report;            /* print the report on a failure (off while replaying a window) */
    const char *fst;       /* waveform of this run (NULL: none) */
    uint64_t dump_from;    /* first cycle dumped */
    int dumping;
    uint64_t stop_at;      /* stop after this cycle (UINT64_MAX: never) */
    /* history */
    unsigned char *hist;
    uint64_t n_hist;
    /* failure */
    int failed;
    uint64_t fail_cycle;
};

/* A driver for unit u (history allocated, empty). Returns 0, -1 out of memory. */
int ls_init(ls_t *ls, const ls_unit_t *u, const ls_common_t *opt, const char *argv0);
void ls_free(ls_t *ls);
/* Start a run at cycle `cycle` on the unit's state `user` (the callbacks' first argument): fst/dump_from: the
 * waveform window (fst NULL: none; the DUT's dump is switched on from dump_from), stop_at: the last cycle,
 * report: print a failure's report. Counts, watchdog and failure start again; the history is kept (a run of
 * several jobs on one DUT reports the transactions before the failing job's too). */
void ls_start(ls_t *ls, void *user, const char *fst, uint64_t dump_from, uint64_t stop_at, int report, uint64_t cycle);

/* One lockstep cycle with this cycle's inputs already driven: dump window, eval (compare), watchdog, clock.
 * Returns LS_OK (next cycle), LS_DONE (the unit said so), LS_STOP (stop_at reached) or LS_FAIL. */
int ls_step(ls_t *ls);
/* drive + ls_step until not LS_OK; returns LS_DONE/LS_STOP or LS_FAIL (from drive too). */
int ls_run(ls_t *ls);

static inline void ls_compared(ls_t *ls) { ls->port_checks++; }
static inline void ls_progress(ls_t *ls) { ls->idle = 0; }
/* A history record for this cycle (the harness fills it; hist_rec bytes). */
void *ls_hist_add(ls_t *ls);

/* Record a failure at `cycle` (and print the report when reporting). Returns LS_FAIL. */
int ls_fail(ls_t *ls, uint64_t cycle, const char *why);

/* ---------------------------------------------------------------------------------------- report pieces */
/* The field table: a header, then one row per field with "<-- differs" where DUT and model disagree.
 * name_w: width of the name column. */
void ls_field_head(FILE *f, int name_w, const char *model);
int ls_field(FILE *f, int name_w, const char *name, uint64_t dut, uint64_t model);
/* "  last N transactions (oldest first):" and the records. */
void ls_hist_print(const ls_t *ls, FILE *f);

/* ---------------------------------------------------------------------------------------- waveforms */
/* After a failure at fail_cycle (of a reporting run): replay the run with an FST of cycles
 * fail_cycle-window .. fail_cycle+2 into <out_dir>/fail-<tag>-cycle<N>.fst (replay(user, fst, from, to) runs it),
 * write the matching view <...>.gtkw opening at that window, and print "  waveform: <fst> (cycles A..B<suffix>)"
 * and "  view:     gtkwave <gtkw>" on stderr. width/wctx rewrite the view's build-dependent widths
 * (gtkw_view.h). */
void ls_fail_window(const char *tool, const ls_common_t *opt, uint64_t fail_cycle, const char *tag, const char *suffix,
                    void (*replay)(void *user, const char *fst, uint64_t from, uint64_t to), void *user,
                    gtkw_view_width_fn width, void *wctx);
/* The view of a whole-run waveform (--waves FILE.fst): FILE.fst.gtkw; t0 GTKW_VIEW_KEEP_TIME keeps the saved
 * start time. Prints "<tool>: waveform <fst>, view <gtkw>" unless quiet. */
void ls_waves_view(const char *tool, const ls_common_t *opt, uint64_t t0, gtkw_view_width_fn width, void *wctx,
                   int quiet);

/* ---------------------------------------------------------------------------------------- scenario harnesses */
/* The pieces shared by the harnesses that run numbered scenarios one after another on one DUT (cosim-pe,
 * cosim-sx): scenario `only` alone (the reproduce command; -1: none), else 0, 1, ... until at least `scenarios`
 * ran and the harness's volume target (flits, cycles) is reached. */
static inline uint32_t ls_scen_first(int64_t only) { return only >= 0 ? (uint32_t)only : 0; }
static inline int ls_scen_runs(int64_t only, uint32_t idx, uint32_t scenarios, int volume_reached)
{
    return only >= 0 ? idx == (uint32_t)only : idx < scenarios || !volume_reached;
}
/* The GPU counts as "1,2,16(skipped)" (counts above max_gpus marked; max_gpus 0: none marked); returns how many
 * fit max_gpus. */
int ls_list_print(FILE *f, const ls_list_t *g, uint32_t max_gpus);
/* ls_fail_window for scenario idx: files tagged seed<S>-scen<idx>, the window named "of scenario <idx>". */
void ls_scen_fail_window(const char *tool, const ls_common_t *opt, uint64_t fail_cycle, uint32_t idx,
                         void (*replay)(void *user, const char *fst, uint64_t from, uint64_t to), void *user,
                         gtkw_view_width_fn width, void *wctx);
/* " 1:5 3:2" for the scenarios run per GPU count (per_n[1..64]). */
void ls_per_n_print(FILE *f, const uint64_t per_n[65]);

/* ---------------------------------------------------------------------------------------- the end */
/* "Zero comparisons fails": n == 0 prints "<tool>: FAIL: zero <what> (nothing was checked)" and returns 1. */
int ls_require(const char *tool, uint64_t n, const char *what);

double ls_wall_s(void);   /* monotonic wall clock */
double ls_cpu_s(void);    /* process CPU time */
double ls_cpu_since(double c0);   /* CPU seconds since c0 (ls_cpu_s), never 0: a rate's divisor */

#ifdef __cplusplus
}
#endif
#endif
