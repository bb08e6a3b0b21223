/* CD system of cycle models (cmodel/sys/cdsys.h): random workloads (P2G inputs from the shared stimulus
 * generator, masks from the definition p2g_mask, golden lists from the SPEC 4.2 invariant) on both topologies,
 * N = 1..16 and 64, runahead on/off, every stall/jitter mode; idle skipping (whole cycles, and single GPUs within a
 * cycle, up to 64 GPUs) gives identical lists, completion cycles and link traffic to stepping every cycle (and
 * really skips); the checks catch a wrong mask, a wrong
 * golden list, and a broken network. */
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

static int same(const cdsys_result_t *a, const cdsys_result_t *b)
{
    if (a->cycles != b->cycles || a->n_links != b->n_links) return 0;
    for (size_t i = 0; i < (size_t)a->n_batches * a->n_gpus; i++)
        if (a->cd_done[i] != b->cd_done[i] || a->cp_start[i] != b->cp_start[i] || a->recv_n[i] != b->recv_n[i] ||
            (a->recv_n[i] && memcmp(a->recv[i], b->recv[i], a->recv_n[i] * sizeof(uint32_t))))
            return 0;
    for (uint32_t l = 0; l < a->n_links; l++)
        if (a->links[l].prim_flits != b->links[l].prim_flits || a->links[l].last_flits != b->links[l].last_flits) return 0;
    return 1;
}

static void test_random_workloads(void **state)
{
    (void)state;
    static const uint32_t ns[] = {1, 2, 3, 5, 16, 64};
    uint64_t compared = 0;
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
        for (int topo = 0; topo < 2; topo++)
            for (int mode = 0; mode < 3; mode++) {
                uint32_t N = ns[ni];
                cdsys_work_t w;
                cdsys_test_work_make(&w, N, N >= 64 ? 3 : N >= 16 ? 5 : 12, N >= 16 ? 24 : 60, 1, 100 * ni + 10 * (uint64_t)topo + (uint64_t)mode, 1);
                cdsys_params_t p = cdsys_params_default(N, (net_topo_t)topo);
                p.runahead = mode != 1;
                p.latency = mode == 2 ? 17 : 3;
                p.skip_idle = 1;
                if (mode == 2) {
                    p.seed = 99 + ni;
                    p.in_gap_pm = 300;
                    p.tx_stall_pm = 200;
                    p.rx_stall_pm = 400;
                    p.out_stall_pm = 500;
                    p.link_stall_pm = 300;
                    p.link_jitter = 9;
                }
                cdsys_result_t r;
                int rc = cdsys_run(&p, &w, &r);
                if (rc) print_error("N=%u topo=%d mode=%d: %s\n", N, topo, mode, r.report);
                assert_int_equal(rc, 0);
                compared += r.prims_compared;
                cdsys_result_free(&r);
                if (mode == 0) {    /* the behavioural reference PE on the same workload */
                    p.pe_ref = 1;
                    rc = cdsys_run(&p, &w, &r);
                    if (rc) print_error("reference PE, N=%u topo=%d: %s\n", N, topo, r.report);
                    assert_int_equal(rc, 0);
                    cdsys_result_free(&r);
                }
                cdsys_work_free(&w);
            }
    assert_true(compared > 10000);
}

static void test_skip_identical(void **state)
{
    (void)state;
    for (int topo = 0; topo < 2; topo++)
        for (int kase = 0; kase < 4; kase++) {
            /* small N without and with stall injection; 16 and 64 GPUs (the GPUs also sleep on their own) */
            int stalls = kase == 1;
            uint32_t N = kase == 2 ? 16 : kase == 3 ? 64 : topo ? 5 : 4;
            cdsys_work_t w;
            cdsys_test_work_make(&w, N, N >= 64 ? 2 : N >= 16 ? 5 : 10, N >= 64 ? 3 : N >= 16 ? 6 : 20, N >= 16 ? 60 : 200, 7 + (uint64_t)topo + (kase >= 2 ? 10 * (uint64_t)kase : 0), 1);
            cdsys_params_t p = cdsys_params_default(N, (net_topo_t)topo);
            p.runahead = 1;
            p.latency = N >= 64 ? 40 : 300;
            if (stalls) {
                p.seed = 5;
                p.tx_stall_pm = p.rx_stall_pm = p.out_stall_pm = p.link_stall_pm = p.in_gap_pm = 250;
                p.link_jitter = 40;
            }
            cdsys_result_t a, b;
            p.skip_idle = 0;
            assert_int_equal(cdsys_run(&p, &w, &a), 0);
            p.skip_idle = 1;
            assert_int_equal(cdsys_run(&p, &w, &b), 0);
            assert_true(same(&a, &b));
            assert_int_equal(a.stepped, a.cycles);
            assert_int_equal(a.gpu_stepped, a.cycles * N);
            print_message("topo %d N %u stalls %d: %lu cycles, %lu stepped with skipping, %lu of %lu GPU-cycles evaluated\n", topo,
                          N, stalls, (unsigned long)b.cycles, (unsigned long)b.stepped, (unsigned long)b.gpu_stepped,
                          (unsigned long)(b.stepped * N));
            if (N < 16) assert_true(b.stepped * 10 < b.cycles * 9);    /* it really skipped (long links, slow CP) */
            if (!stalls) assert_true(b.gpu_stepped * 10 < b.stepped * N * 9);    /* GPUs slept on their own */
            cdsys_result_free(&a);
            cdsys_result_free(&b);
            cdsys_work_free(&w);
        }
}

static void test_checks_fail(void **state)
{
    (void)state;
    cdsys_work_t w;
    cdsys_result_t r;
    cdsys_params_t p = cdsys_params_default(3, NET_LINE);
    /* a wrong golden P2G mask: the P2G unit's output is caught at that GPU, batch, primitive */
    cdsys_test_work_make(&w, 3, 6, 30, 1, 11, 1);
    uint32_t b = 2, g = 1;
    while (!w.counts[b * 3 + g]) b++;
    w.prims[b * 3 + g][0].mask ^= 1;
    assert_int_equal(cdsys_run(&p, &w, &r), -1);
    assert_int_equal(r.fail_gpu, 1);
    assert_int_equal(r.fail_batch, b);
    assert_int_equal(r.fail_prim, w.prims[b * 3 + g][0].p.prim_id);
    assert_non_null(strstr(r.report, "P2G unit"));
    cdsys_result_free(&r);
    cdsys_work_free(&w);
    /* a wrong golden receive list: caught at the position */
    cdsys_test_work_make(&w, 3, 6, 30, 1, 12, 1);
    size_t s = 4 * 3 + 2;
    while (w.golden_n[s] < 2) s++;
    uint32_t t = w.golden[s][0];
    w.golden[s][0] = w.golden[s][1];
    w.golden[s][1] = t;
    assert_int_equal(cdsys_run(&p, &w, &r), -1);
    assert_int_equal(r.fail_gpu, (int)(s % 3));
    assert_int_equal(r.fail_batch, (int64_t)(s / 3));
    assert_non_null(strstr(r.report, "golden"));
    cdsys_result_free(&r);
    /* a golden list with a primitive missing: caught at the end of the batch */
    w.golden[s][1] = w.golden[s][0];
    w.golden[s][0] = t;
    w.golden_n[s]--;
    assert_int_equal(cdsys_run(&p, &w, &r), -1);
    assert_int_equal(r.fail_batch, (int64_t)(s / 3));
    cdsys_result_free(&r);
    cdsys_work_free(&w);
    /* no golden lists: the invariant alone is checked, and it holds */
    cdsys_test_work_make(&w, 3, 6, 30, 1, 13, 0);
    assert_int_equal(cdsys_run(&p, &w, &r), 0);
    assert_true(r.prims_compared > 0);
    cdsys_result_free(&r);
    cdsys_work_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_workloads),
        cmocka_unit_test(test_skip_identical),
        cmocka_unit_test(test_checks_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
