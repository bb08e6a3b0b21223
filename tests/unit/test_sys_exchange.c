/* Network (FIFO links, line and hub) and the primitive exchanger: the SPEC 4.2 ordering invariant and
 * packet accounting hold on random exchanges for many N, topologies, latencies, with and without
 * runahead; and the checker catches injected faults (it can fail). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/flit.h"
#include "link/net.h"
#include "pe/pe.h"
#include "pe_test_work.h"

typedef struct {
    uint32_t got[64];
    uint32_t next[64][64];      /* next payload expected from [src] at [gpu] */
    uint32_t order_err;
} sink_t;

static void sink(void *u, uint32_t gpu, uint64_t f)
{
    sink_t *s = u;
    s->got[gpu]++;
    if (flit_type(f) != FLIT_TYPE_PRIM) return;
    if (flit_dst(f) != gpu) s->order_err++;
    /* FIFO links, no overtaking: payloads from one source arrive in the order they were sent */
    uint32_t src = flit_src(f);
    if (flit_payload(f) < s->next[gpu][src]) s->order_err++;
    s->next[gpu][src] = flit_payload(f) + 1;
}

static void test_flit_layout(void **state)
{
    (void)state;
    uint64_t f = flit_make(FLIT_TYPE_PRIM, 63, 5, 0x1234, 0xDEADBEEF);
    assert_int_equal(flit_type(f), FLIT_TYPE_PRIM);
    assert_int_equal(flit_src(f), 63);
    assert_int_equal(flit_dst(f), 5);
    assert_int_equal(flit_tag(f), 0x1234);
    assert_int_equal(flit_payload(f), 0xDEADBEEFu);
    assert_true(f == ((1ull << 61) | (63ull << 55) | (5ull << 48) | (0x1234ull << 32) | 0xDEADBEEFull));
    assert_true(f == 0x3F851234DEADBEEFull);   /* the same constant test-model-cli checks on the Verilog side */
}

/* unicast reaches exactly its destination; a broadcast reaches every other GPU once */
static void test_net_delivery(void **state)
{
    (void)state;
    for (int topo = 0; topo < 2; topo++)
        for (uint32_t n = 1; n <= 9; n++) {
            net_t net;
            sink_t s;
            memset(&s, 0, sizeof s);
            assert_int_equal(net_init(&net, (net_topo_t)topo, n, 3, sink, &s), 0);
            for (uint32_t a = 0; a < n; a++) {
                for (uint32_t b = 0; b < n; b++)
                    if (a != b) assert_int_equal(net_inject(&net, a, flit_make(FLIT_TYPE_PRIM, a, b, 0, 2 * b)), 0);
                assert_int_equal(net_inject(&net, a, flit_make(FLIT_TYPE_LAST, a, FLIT_DST_BCAST, 0, 0)), 0);
                for (uint32_t b = 0; b < n; b++)      /* a second round, interleaved with forwarding */
                    if (a != b) { net_step(&net); assert_int_equal(net_inject(&net, a, flit_make(FLIT_TYPE_PRIM, a, b, 0, 2 * b + 1)), 0); }
            }
            assert_int_equal(net_inject(&net, 0, flit_make(FLIT_TYPE_PRIM, 0, 0, 0, 0)), -1);   /* to itself */
            int steps = 0;
            while (!net_idle(&net) && steps < 10000) { net_step(&net); steps++; }
            assert_true(net_idle(&net));
            for (uint32_t g = 0; g < n; g++)
                if (s.got[g] != 3 * (n - 1))
                    fail_msg("%s N=%u: GPU %u received %u flits, want %u", net_topo_name((net_topo_t)topo), n, g, s.got[g], 3 * (n - 1));
            assert_int_equal(s.order_err, 0);
            net_free(&net);
        }
}

static int run_one(uint32_t N, uint32_t B, net_topo_t topo, uint32_t lat, int ra, uint32_t rate, pe_fault_t fault,
                   uint64_t fault_at, uint64_t seed, char *report, size_t rlen)
{
    static pe_test_work_t w;
    pe_test_work_make(&w, N, B, seed, 97, 1);
    net_t net;
    if (net_init(&net, topo, N, lat, NULL, NULL)) return -2;
    pe_input_t in;
    memset(&in, 0, sizeof in);
    in.n_gpus = N;
    in.n_batches = B;
    in.entries = (const pe_entry_t *const *)w.e;
    in.counts = w.c;
    in.runahead = ra;
    in.send_rate = rate;
    in.cp_cost = 1;
    in.fault = fault;
    in.fault_at = fault_at;
    pe_result_t r;
    int rc = pe_run(&in, &net, &r);
    snprintf(report, rlen, "%s", r.report);
    pe_result_free(&r, N * B);
    net_free(&net);
    pe_test_work_free(&w, N, B);
    return rc;
}

static void test_invariant_holds(void **state)
{
    (void)state;
    uint32_t ns[] = {1, 2, 3, 4, 5, 8, 16};
    char rep[1024];
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (int topo = 0; topo < 2; topo++)
            for (int ra = 0; ra < 2; ra++)
                for (uint32_t lat = 1; lat <= 9; lat += 8) {
                    uint64_t seed = 1000 * ns[i] + 10 * (uint64_t)topo + (uint64_t)ra + lat;
                    if (run_one(ns[i], 20, (net_topo_t)topo, lat, ra, 1 + (uint32_t)(seed % 3), PE_FAULT_NONE, 0, seed, rep, sizeof rep))
                        fail_msg("N=%u %s runahead=%d latency=%u seed=%llu: %s", ns[i], net_topo_name((net_topo_t)topo), ra, lat,
                                 (unsigned long long)seed, rep);
                }
}

/* every kind of fault is caught on some configuration, with a report naming what broke */
static void test_checker_catches_faults(void **state)
{
    (void)state;
    char rep[1024];
    assert_int_equal(run_one(4, 10, NET_LINE, 3, 0, 1, PE_FAULT_DROP, 5, 7, rep, sizeof rep), -1);
    assert_non_null(strstr(rep, "accounting"));
    assert_int_equal(run_one(4, 10, NET_HUB, 3, 1, 1, PE_FAULT_DUP, 9, 7, rep, sizeof rep), -1);
    assert_non_null(strstr(rep, "invariant"));
    int caught = 0;
    for (uint64_t seed = 1; seed < 6; seed++)
        if (run_one(8, 10, NET_LINE, 5, 0, 1, PE_FAULT_NO_TURNS, 0, seed, rep, sizeof rep) == -1) {
            caught++;
            assert_non_null(strstr(rep, "invariant"));
        }
    assert_true(caught > 0);
    assert_int_equal(run_one(3, 10, NET_HUB, 2, 1, 1, PE_FAULT_WRONG_TAG, 3, 11, rep, sizeof rep), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flit_layout),
        cmocka_unit_test(test_net_delivery),
        cmocka_unit_test(test_invariant_holds),
        cmocka_unit_test(test_checker_catches_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
