/* The CD system in stream mode (gpupd-stream, the stream PE cycle model cmodel/stream/sx_hw.h: per-source FIFOs with end-to-end credits,
 * release in application order): random workloads on both topologies, N = 1..16 and 64, FIFO depths from 2
 * (every buffer full most of the time) to 512, K = 1, 2, 8, with and without stall/jitter injection: every
 * GPU releases exactly its golden list (checked on the fly and by the SPEC 4.2 invariant), the network drains
 * (no deadlock, no drop: credits and flits accounted), a FIFO never holds more than its depth; idle skipping
 * gives identical lists, release cycles and traffic to stepping every cycle (and really skips); the release
 * hook sees every (batch, source) once, in order, with the primitives of that source only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "p2g/p2g_stim.h"
#include "sys/cdsys.h"

#include "cdsys_test_work.h"

typedef struct {
    const cdsys_work_t *w;
    uint32_t n;
    uint32_t *next;     /* [g]: next expected (batch * N + source) */
    uint64_t *last_step;
    uint64_t calls, prims;
    int bad;
    char why[200];
} rel_t;

static int on_release(void *u, uint32_t g, uint32_t b, uint32_t s, uint64_t step, const uint32_t *prims, size_t n)
{
    rel_t *R = u;
    const cdsys_work_t *w = R->w;
    if (R->bad) return 0;
    if ((uint64_t)b * R->n + s != R->next[g] || step < R->last_step[g]) {
        snprintf(R->why, sizeof R->why, "GPU %u: release (%u, %u) at %lu out of order", g, b, s, (unsigned long)step);
        R->bad = 1;
        return 0;
    }
    R->next[g]++;
    R->last_step[g] = step;
    size_t k = 0;
    const cdsys_prim_t *c = w->prims[(size_t)b * R->n + s];
    for (uint32_t i = 0; i < w->counts[(size_t)b * R->n + s]; i++)
        if (c[i].mask >> g & 1) {
            if (k >= n || prims[k] != c[i].p.prim_id) {
                snprintf(R->why, sizeof R->why, "GPU %u release (%u, %u): position %zu is not primitive %u", g, b, s, k, c[i].p.prim_id);
                R->bad = 1;
                return 0;
            }
            k++;
        }
    if (k != n) {
        snprintf(R->why, sizeof R->why, "GPU %u release (%u, %u): %zu primitives, expected %zu", g, b, s, n, k);
        R->bad = 1;
    }
    R->calls++;
    R->prims += n;
    return 0;
}

static int run_stream(cdsys_params_t *p, const cdsys_work_t *w, cdsys_result_t *r, rel_t *R)
{
    uint32_t N = p->n_gpus;
    memset(R, 0, sizeof *R);
    R->w = w;
    R->n = N;
    R->next = calloc(N, sizeof *R->next);
    R->last_step = calloc(N, sizeof *R->last_step);
    p->stream = 1;
    p->on_release = on_release;
    p->hook_user = R;
    int rc = cdsys_run(p, w, r);
    if (rc) print_error("N=%u topo=%d depth=%u k=%u: %s\n", N, (int)p->topo, p->sx_depth, p->sx_k, r->report);
    if (R->bad) print_error("%s\n", R->why);
    for (uint32_t g = 0; !rc && !R->bad && g < N; g++)
        if (R->next[g] != (uint64_t)w->n_batches * N) {
            print_error("GPU %u: %u releases, expected %u\n", g, R->next[g], w->n_batches * N);
            R->bad = 1;
        }
    for (uint32_t g = 0; !rc && g < N; g++)
        if (r->reorder_max[g] > N * (p->sx_depth ? p->sx_depth : CDSYS_SX_DEPTH_DEFAULT)) {
            print_error("GPU %u held %u entries > N x depth\n", g, r->reorder_max[g]);
            R->bad = 1;
        }
    free(R->next);
    free(R->last_step);
    return rc || R->bad ? -1 : 0;
}

static void test_stream_random(void **state)
{
    (void)state;
    static const uint32_t ns[] = {1, 2, 3, 5, 16, 64};
    static const uint32_t depths[] = {2, 3, 8, 512};
    uint64_t compared = 0, credits = 0, held = 0;
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
        for (int topo = 0; topo < 2; topo++)
            for (size_t di = 0; di < sizeof depths / sizeof depths[0]; di++)
                for (int mode = 0; mode < 2; mode++) {
                    uint32_t N = ns[ni];
                    if ((N == 64 && (di == 1 || di == 2 || mode)) || (N == 16 && (di == 1 || di == 2) && mode)) continue;
                    cdsys_work_t w;
                    cdsys_test_work_make(&w, N, N >= 64 ? 3 : N >= 16 ? 5 : 12, N >= 16 ? 24 : 60, 1,
                              1000 + 100 * ni + 10 * (uint64_t)topo + 3 * di + (uint64_t)mode, 1);
                    cdsys_params_t p = cdsys_params_default(N, (net_topo_t)topo);
                    p.latency = mode ? 17 : 3;
                    p.skip_idle = 1;
                    p.sx_depth = depths[di];
                    p.sx_k = di == 1 ? 2 : di == 2 ? 8 : 1;
                    p.sx_live = mode ? 6 : 4;
                    if (mode) {
                        p.seed = 77 + ni;
                        p.in_gap_pm = 300;
                        p.tx_stall_pm = 200;
                        p.rx_stall_pm = 400;
                        p.out_stall_pm = 500;
                        p.link_stall_pm = 300;
                        p.link_jitter = 9;
                    }
                    cdsys_result_t r;
                    rel_t R;
                    assert_int_equal(run_stream(&p, &w, &r, &R), 0);
                    compared += r.prims_compared;
                    credits += r.credit_flits;
                    for (uint32_t g = 0; g < N; g++) held += r.reorder_max[g];
                    cdsys_result_free(&r);
                    cdsys_work_free(&w);
                }
    print_message("stream: %lu primitives compared, %lu CREDIT flits, sum of per-GPU maxima held %lu\n",
                  (unsigned long)compared, (unsigned long)credits, (unsigned long)held);
    assert_true(compared > 10000);
    assert_true(credits > 1000);
}

static int same_stream(const cdsys_result_t *a, const cdsys_result_t *b)
{
    if (a->cycles != b->cycles || a->n_links != b->n_links || a->credit_flits != b->credit_flits) return 0;
    for (size_t i = 0; i < (size_t)a->n_batches * a->n_gpus; i++)
        if (a->cd_done[i] != b->cd_done[i] || a->cp_start[i] != b->cp_start[i] || a->recv_n[i] != b->recv_n[i] ||
            (a->recv_n[i] && memcmp(a->recv[i], b->recv[i], a->recv_n[i] * sizeof(uint32_t))))
            return 0;
    for (uint32_t g = 0; g < a->n_gpus; g++)
        if (a->reorder_max[g] != b->reorder_max[g]) return 0;
    for (uint32_t l = 0; l < a->n_links; l++)
        if (a->links[l].prim_flits != b->links[l].prim_flits || a->links[l].last_flits != b->links[l].last_flits) return 0;
    return 1;
}

static void test_stream_skip_identical(void **state)
{
    (void)state;
    for (int topo = 0; topo < 2; topo++)
        for (int kase = 0; kase < 3; kase++) {
            int stalls = kase == 1;
            uint32_t N = kase == 2 ? 16 : topo ? 5 : 4;   /* 16: the GPUs also sleep on their own */
            cdsys_work_t w;
            cdsys_test_work_make(&w, N, N >= 16 ? 5 : 10, N >= 16 ? 6 : 20, N >= 16 ? 60 : 200, 17 + (uint64_t)topo + 10 * (uint64_t)kase, 1);
            cdsys_params_t p = cdsys_params_default(N, (net_topo_t)topo);
            p.latency = 300;
            p.sx_depth = stalls ? 4 : 64;     /* with stalls: full FIFOs, credits on every cycle */
            if (stalls) {
                p.seed = 5;
                p.tx_stall_pm = p.rx_stall_pm = p.out_stall_pm = p.link_stall_pm = p.in_gap_pm = 250;
                p.link_jitter = 40;
            }
            cdsys_result_t a, b;
            rel_t R;
            p.skip_idle = 0;
            assert_int_equal(run_stream(&p, &w, &a, &R), 0);
            uint64_t calls = R.calls;
            p.skip_idle = 1;
            assert_int_equal(run_stream(&p, &w, &b, &R), 0);
            assert_int_equal(calls, R.calls);
            assert_true(same_stream(&a, &b));
            assert_int_equal(a.stepped, a.cycles);
            assert_int_equal(a.gpu_stepped, a.cycles * N);
            print_message("stream topo %d N %u stalls %d: %lu cycles, %lu stepped with skipping, %lu of %lu GPU-cycles evaluated\n",
                          topo, N, stalls, (unsigned long)b.cycles, (unsigned long)b.stepped, (unsigned long)b.gpu_stepped,
                          (unsigned long)(b.stepped * N));
            if (!stalls && N < 16) assert_true(b.stepped * 10 < b.cycles * 9);    /* it really skipped */
            if (!stalls) assert_true(b.gpu_stepped * 10 < b.stepped * N * 9);    /* and GPUs slept on their own */
            cdsys_result_free(&a);
            cdsys_result_free(&b);
            cdsys_work_free(&w);
        }
}

/* the checks fail: a wrong golden list is caught at its position; a reorder buffer of one slot per source
 * (depth 1) is refused as a configuration */
static void test_stream_checks_fail(void **state)
{
    (void)state;
    cdsys_work_t w;
    cdsys_result_t r;
    rel_t R;
    cdsys_params_t p = cdsys_params_default(3, NET_LINE);
    cdsys_test_work_make(&w, 3, 6, 30, 1, 12, 1);
    size_t s = 4 * 3 + 2;
    while (w.golden_n[s] < 2) s++;
    uint32_t t = w.golden[s][0];
    w.golden[s][0] = w.golden[s][1];
    w.golden[s][1] = t;
    assert_int_equal(run_stream(&p, &w, &r, &R), -1);
    assert_int_equal(r.fail_gpu, (int)(s % 3));
    assert_int_equal(r.fail_batch, (int64_t)(s / 3));
    assert_non_null(strstr(r.report, "golden"));
    cdsys_result_free(&r);
    w.golden[s][1] = w.golden[s][0];
    w.golden[s][0] = t;
    p.sx_depth = 1;
    assert_int_equal(run_stream(&p, &w, &r, &R), -1);
    assert_non_null(strstr(r.report, "stream PE parameters"));
    cdsys_result_free(&r);
    cdsys_work_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_random),
        cmocka_unit_test(test_stream_skip_identical),
        cmocka_unit_test(test_stream_checks_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
