/* gpupd-cdsys: the CD system of cycle models (cmodel/sys/cdsys.h) on a real trace.
 *
 *   gpupd-cdsys --trace FILE [--frame K] --gpus N [--topology line|hub] [--scheme gpupd|gpupd-batch|gpupd-ra]
 *               [--batch B] [--own diag|linear] [--latency L] [--hub-rate H] [--cp-cost C] [--no-skip]
 *               [--seed S] [--stall PM] [--jitter J] [--compare-skip] [--links] [--pe hw|ref]
 *
 * Captures the golden model's CP-phase output of the frame (P2G inputs per batch and GPU, golden receive
 * lists), runs N x (P2G cycle model -> PE model) over the link model and checks every GPU's output against the
 * golden lists and the SPEC 4.2 invariant. Prints one CSV line:
 *   trace,gpus,topology,scheme,batches,prims_compared,cycles,stepped,prim_flits,last_flits,cpu_s
 * (cpu_s: CPU seconds of the CD-system run alone, without capturing the workload from the golden model)
 * --compare-skip runs the system twice (every cycle, then with idle skipping) and fails unless lists,
 * completion cycles and link traffic are identical. --stall PM sets every stall probability (per mille),
 * --jitter J the link jitter. --pe ref: the behavioural reference PE (pe_ref.h) instead of the PE cycle model.
 * Exit 0 ok, 1 mismatch, 2 bad arguments. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/args.h"
#include "sys/cdsys.h"
#include "sys/sys.h"

static double now_s(void)   /* CPU time of this process: the machine may be shared */
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int same_result(const cdsys_result_t *a, const cdsys_result_t *b, char *why, size_t n)
{
    size_t slots = (size_t)a->n_batches * a->n_gpus;
    if (a->cycles != b->cycles) { snprintf(why, n, "cycles %" PRIu64 " vs %" PRIu64, a->cycles, b->cycles); return 0; }
    for (size_t i = 0; i < slots; i++) {
        if (a->cd_done[i] != b->cd_done[i] || a->cp_start[i] != b->cp_start[i]) {
            snprintf(why, n, "batch %zu GPU %zu: CD done %" PRIu64 " vs %" PRIu64 ", CP start %" PRIu64 " vs %" PRIu64,
                     i / a->n_gpus, i % a->n_gpus, a->cd_done[i], b->cd_done[i], a->cp_start[i], b->cp_start[i]);
            return 0;
        }
        if (a->recv_n[i] != b->recv_n[i] || (a->recv_n[i] && memcmp(a->recv[i], b->recv[i], a->recv_n[i] * 4))) {
            snprintf(why, n, "batch %zu GPU %zu: received lists differ", i / a->n_gpus, i % a->n_gpus);
            return 0;
        }
    }
    for (uint32_t l = 0; l < a->n_links; l++)
        if (a->links[l].prim_flits != b->links[l].prim_flits || a->links[l].last_flits != b->links[l].last_flits) {
            snprintf(why, n, "link %u traffic differs", l);
            return 0;
        }
    return 1;
}

int main(int argc, char **argv)
{
    const char *T = "gpupd-cdsys";
    const char *trace = NULL;
    uint32_t frame = 0, gpus = 0, batch = 0, cp_cost = 1;
    sys_scheme_t scheme = SYS_SCHEME_GPUPD_RA;
    p2g_mode_t own = P2G_MODE_DIAG;
    cdsys_params_t p = cdsys_params_default(1, NET_LINE);
    net_topo_t topo = NET_LINE;
    int compare = 0, links = 0, skip = 1, pe_ref = 0;
    uint32_t stall = 0, latency = p.latency, hub_rate = 2, jitter = 0;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--compare-skip")) { compare = 1; continue; }
        if (!strcmp(a, "--no-skip")) { skip = 0; continue; }
        if (!strcmp(a, "--links")) { links = 1; continue; }
        if (!v) { arg_need(T, a); return 2; }
        int bad = 0;
        if (!strcmp(a, "--trace")) trace = v;
        else if (!strcmp(a, "--frame")) bad = arg_u32(T, a, v, 0, 1000000, &frame);
        else if (!strcmp(a, "--gpus")) bad = arg_u32(T, a, v, 1, 64, &gpus);
        else if (!strcmp(a, "--batch")) bad = arg_u32(T, a, v, 1, 1u << 30, &batch);
        else if (!strcmp(a, "--latency")) bad = arg_u32(T, a, v, 1, 100000, &latency);
        else if (!strcmp(a, "--hub-rate")) bad = arg_u32(T, a, v, 1, 64, &hub_rate);
        else if (!strcmp(a, "--cp-cost")) bad = arg_u32(T, a, v, 0, 100000, &cp_cost);
        else if (!strcmp(a, "--stall")) bad = arg_u32(T, a, v, 0, 900, &stall);
        else if (!strcmp(a, "--jitter")) bad = arg_u32(T, a, v, 0, 1000, &jitter);
        else if (!strcmp(a, "--seed")) bad = arg_u64x(T, a, v, 0, UINT64_MAX, 1, &seed);
        else if (!strcmp(a, "--pe")) {
            if (!strcmp(v, "hw")) pe_ref = 0;
            else if (!strcmp(v, "ref")) pe_ref = 1;
            else { fprintf(stderr, "gpupd-cdsys: --pe must be hw (the PE cycle model) or ref (behavioural)\n"); return 2; }
        } else if (!strcmp(a, "--topology")) {
            if (net_topo_parse(v, &topo)) { fprintf(stderr, "gpupd-cdsys: --topology must be line or hub\n"); return 2; }
        } else if (!strcmp(a, "--scheme")) {
            if (sys_scheme_parse(v, &scheme) || (scheme != SYS_SCHEME_GPUPD && scheme != SYS_SCHEME_GPUPD_BATCH &&
                                                 scheme != SYS_SCHEME_GPUPD_RA)) {
                fprintf(stderr, "gpupd-cdsys: --scheme must be gpupd, gpupd-batch or gpupd-ra\n");
                return 2;
            }
        } else if (!strcmp(a, "--own")) {
            if (!strcmp(v, "diag")) own = P2G_MODE_DIAG;
            else if (!strcmp(v, "linear")) own = P2G_MODE_LINEAR;
            else { fprintf(stderr, "gpupd-cdsys: --own must be diag or linear\n"); return 2; }
        } else { fprintf(stderr, "gpupd-cdsys: unknown argument '%s'\n", a); return 2; }
        if (bad) return 2;
        i++;
    }
    if (!trace || gpus < 1 || gpus > 64 || latency < 1 || latency > 100000 || hub_rate < 1 || stall > 900 || jitter > 1000) {
        fprintf(stderr, "usage: gpupd-cdsys --trace FILE --gpus N(1..64) [--topology line|hub] [--scheme S] [--batch B]\n"
                        "       [--own diag|linear] [--latency L(1..100000)] [--hub-rate H] [--cp-cost C] [--no-skip]\n"
                        "       [--seed S] [--stall PM(0..900)] [--jitter J(0..1000)] [--compare-skip] [--links] [--pe hw|ref]\n");
        return 2;
    }
    char err[1024];
    cdsys_work_t w;
    if (cdsys_work_from_trace(trace, frame, gpus, scheme, batch, own, cp_cost, &w, err, sizeof err)) {
        fprintf(stderr, "gpupd-cdsys: %s\n", err);
        return 2;
    }
    p = cdsys_params_default(gpus, topo);
    p.latency = latency;
    p.hub_rate = hub_rate;
    p.runahead = scheme == SYS_SCHEME_GPUPD_RA;
    p.skip_idle = skip;
    p.seed = seed;
    p.in_gap_pm = p.tx_stall_pm = p.rx_stall_pm = p.out_stall_pm = p.link_stall_pm = stall;
    p.link_jitter = jitter;
    p.pe_ref = pe_ref;
    cdsys_result_t r, r2;
    double t0 = now_s();
    int rc = cdsys_run(&p, &w, &r);
    double dt = now_s() - t0;
    const char *name = strrchr(trace, '/') ? strrchr(trace, '/') + 1 : trace;
    if (rc) {
        fprintf(stderr, "gpupd-cdsys: MISMATCH %s N=%u %s: %s\n  at GPU %d batch %" PRId64 " primitive %" PRId64 " cycle %" PRIu64 "\n",
                name, gpus, net_topo_name(topo), r.report, r.fail_gpu, r.fail_batch, r.fail_prim, r.fail_cycle);
        cdsys_result_free(&r);
        cdsys_work_free(&w);
        return 1;
    }
    if (compare) {
        p.skip_idle = !skip;
        rc = cdsys_run(&p, &w, &r2);
        if (rc || !same_result(&r, &r2, err, sizeof err)) {
            if (rc)
                fprintf(stderr, "gpupd-cdsys: second run (skip %s) failed: %s\n", p.skip_idle ? "on" : "off", r2.report);
            else
                fprintf(stderr, "gpupd-cdsys: idle skipping changed the result: %s\n", err);
            cdsys_result_free(&r2);
            cdsys_result_free(&r);
            cdsys_work_free(&w);
            return 1;
        }
        printf("# idle skipping: identical lists, completion cycles and traffic (%" PRIu64 " cycles; stepped %" PRIu64
               " with skipping, %" PRIu64 " without)\n", r.cycles, skip ? r.stepped : r2.stepped, skip ? r2.stepped : r.stepped);
        cdsys_result_free(&r2);
    }
    uint64_t pf = 0, lf = 0;
    for (uint32_t l = 0; l < r.n_links; l++) {
        pf += r.links[l].prim_flits;
        lf += r.links[l].last_flits;
        if (links) printf("# link %u->%u prim %" PRIu64 " last %" PRIu64 "\n", r.links[l].from, r.links[l].to,
                          r.links[l].prim_flits, r.links[l].last_flits);
    }
    if (links) printf("# RX buffer high-water mark: %" PRIu64 " flits\n", r.rx_buf_high);
    printf("trace,gpus,topology,scheme,batches,prims_compared,cycles,stepped,prim_flits,last_flits,cpu_s\n");
    printf("%s,%u,%s,%s,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f\n", name, gpus,
           net_topo_name(topo), sys_scheme_name(scheme), w.n_batches, r.prims_compared, r.cycles, r.stepped, pf, lf, dt);
    if (!r.prims_compared) {
        fprintf(stderr, "gpupd-cdsys: no primitive was compared\n");
        rc = 1;
    }
    cdsys_result_free(&r);
    cdsys_work_free(&w);
    return rc ? 1 : 0;
}
