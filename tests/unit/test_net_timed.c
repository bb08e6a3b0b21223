/* The timed network (issue 9, docs/timing.md): link latency in cycles, bandwidth as a byte credit per cycle,
 * the hub switch's bandwidth; idle skipping gives exactly the results of stepping every cycle; the exchange's
 * duration grows with the link latency; the untimed defaults are unchanged. Expected values are derived from
 * the configured numbers (latency, bytes per cycle), never from a previous run. */
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
    uint64_t n, last_step, first_step;
    uint64_t *log;              /* (step << 8 | gpu), flit pairs */
    size_t cap;
    net_t *net;
} rec_t;

static void rec(void *u, uint32_t gpu, uint64_t f)
{
    rec_t *r = u;
    if (r->n == 0) r->first_step = r->net->step;
    r->last_step = r->net->step;
    if (r->log && 2 * r->n + 1 < r->cap) {
        r->log[2 * r->n] = (r->net->step << 8) | gpu;
        r->log[2 * r->n + 1] = f;
    }
    r->n++;
}

/* K flits from GPU 0 to GPU 1: the first arrives after exactly `latency` cycles, the stream at the link's
 * bandwidth (flits per cycle = bytes per cycle / 8), measured within 5 % of the configured peak */
static void test_link_latency_bandwidth(void **state)
{
    (void)state;
    const uint32_t lats[] = {1, 100, 400, 800};
    const uint64_t gbps[] = {8, 16, 40, 100};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++) {
            net_t net;
            rec_t r;
            memset(&r, 0, sizeof r);
            r.net = &net;
            assert_int_equal(net_init(&net, NET_LINE, 2, 1, rec, &r), 0);
            assert_int_equal(net_set_timing(&net, lats[i], gbps[j] * 1000, 80000), 0);
            const uint64_t K = 4000;
            for (uint64_t k = 0; k < K; k++) net_inject(&net, 0, flit_make(FLIT_TYPE_PRIM, 0, 1, 0, (uint32_t)k));
            while (!net_idle(&net)) net_step(&net);
            assert_int_equal(r.n, K);
            /* sent at step 1, arrives `latency` steps later */
            if (r.first_step != 1 + lats[i]) fail_msg("latency %u: first flit at step %llu, want %u", lats[i], (unsigned long long)r.first_step, 1 + lats[i]);
            double cycles = (double)(r.last_step - r.first_step + 1);
            double bytes_per_cycle = (double)(K * 8) / cycles;
            double peak = (double)gbps[j];
            if (bytes_per_cycle > peak * 1.0001 || bytes_per_cycle < peak * 0.95)
                fail_msg("link %llu GB/s latency %u: measured %.3f B/cycle", (unsigned long long)gbps[j], lats[i], bytes_per_cycle);
            net_free(&net);
        }
}

/* the hub switch limits the sum of what crosses it: 4 GPUs each stream to another GPU through an 80 GB/s
 * hub with 40 GB/s links -> 80 B/cycle in total, not 160 */
static void test_hub_bandwidth(void **state)
{
    (void)state;
    for (uint64_t hub = 40; hub <= 160; hub *= 2) {
        net_t net;
        rec_t r;
        memset(&r, 0, sizeof r);
        r.net = &net;
        assert_int_equal(net_init(&net, NET_HUB, 4, 1, rec, &r), 0);
        assert_int_equal(net_set_timing(&net, 200, 40000, hub * 1000), 0);
        const uint64_t K = 4000;
        for (uint64_t k = 0; k < K; k++)
            for (uint32_t g = 0; g < 4; g++) net_inject(&net, g, flit_make(FLIT_TYPE_PRIM, g, (g + 1) % 4, 0, (uint32_t)k));
        while (!net_idle(&net)) net_step(&net);
        assert_int_equal(r.n, 4 * K);
        double bpc = (double)(4 * K * 8) / (double)(r.last_step - r.first_step + 1);
        double peak = hub < 160 ? (double)hub : 160.0;   /* 4 links x 40 GB/s feed the switch */
        if (bpc > peak * 1.0001 || bpc < peak * 0.95) fail_msg("hub %llu GB/s: measured %.3f B/cycle, peak %.1f", (unsigned long long)hub, bpc, peak);
        net_free(&net);
    }
}

/* the untimed defaults: one flit per step per link */
static void test_untimed_default(void **state)
{
    (void)state;
    net_t net;
    rec_t r;
    memset(&r, 0, sizeof r);
    r.net = &net;
    assert_int_equal(net_init(&net, NET_LINE, 3, 4, rec, &r), 0);
    for (uint32_t k = 0; k < 100; k++) net_inject(&net, 0, flit_make(FLIT_TYPE_PRIM, 0, 2, 0, k));
    while (!net_idle(&net)) net_step(&net);
    /* two hops of latency 4; 100 flits one per step: the last leaves GPU 0 at step 100 */
    assert_int_equal(r.first_step, 1 + 4 + 4);
    assert_int_equal(r.last_step, 100 + 4 + 4);
    net_free(&net);
}

/* random traffic injected at random steps: skipping idle steps gives the same deliveries at the same steps */
static void run_traffic(net_topo_t topo, uint32_t N, uint64_t seed, int skip, rec_t *r)
{
    net_t net;
    r->net = &net;
    assert_int_equal(net_init(&net, topo, N, 1, rec, r), 0);
    assert_int_equal(net_set_timing(&net, 37 + (uint32_t)(seed % 300), 3000 + (seed % 7) * 6000, 5000 + (seed % 5) * 9000), 0);
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    uint64_t t = 0;
    for (int burst = 0; burst < 60; burst++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        t += x % 700;                       /* next burst time: often long idle gaps */
        while (net.step + 1 < t) {
            if (skip) {
                uint64_t nx = net_next_event(&net);
                if (nx >= t) { net_skip_to(&net, t); break; }
                if (nx > net.step + 1) { net_skip_to(&net, nx); continue; }
            }
            net_step(&net);
        }
        uint32_t cnt = 1 + (uint32_t)(x % 40);
        for (uint32_t k = 0; k < cnt; k++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            uint32_t s = (uint32_t)(x % N), d = (uint32_t)((x >> 8) % N);
            if ((x >> 20) % 5 == 0) net_inject(&net, s, flit_make(FLIT_TYPE_LAST, s, FLIT_DST_BCAST, 0, k));
            else if (d != s) net_inject(&net, s, flit_make(FLIT_TYPE_PRIM, s, d, 0, k));
        }
    }
    while (!net_idle(&net)) {
        if (skip) {
            uint64_t nx = net_next_event(&net);
            if (nx > net.step + 1) net_skip_to(&net, nx);
        }
        net_step(&net);
    }
    net_free(&net);
}

static void test_skip_equals_stepping(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 12; seed++)
        for (int topo = 0; topo < 2; topo++) {
            uint32_t N = 2 + (uint32_t)(seed % 7);
            rec_t a, b;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            a.cap = b.cap = 1 << 16;
            a.log = calloc(a.cap, 8);
            b.log = calloc(b.cap, 8);
            run_traffic((net_topo_t)topo, N, seed, 0, &a);
            run_traffic((net_topo_t)topo, N, seed, 1, &b);
            assert_true(a.n > 0);
            if (a.n != b.n) fail_msg("seed %llu %s: %llu vs %llu deliveries", (unsigned long long)seed, net_topo_name((net_topo_t)topo), (unsigned long long)a.n, (unsigned long long)b.n);
            for (uint64_t i = 0; i < 2 * a.n && i < a.cap; i++)
                if (a.log[i] != b.log[i])
                    fail_msg("seed %llu %s: delivery %llu differs: stepping step/gpu 0x%llx flit 0x%llx, skipping 0x%llx 0x%llx",
                             (unsigned long long)seed, net_topo_name((net_topo_t)topo), (unsigned long long)(i / 2),
                             (unsigned long long)a.log[i & ~1ull], (unsigned long long)a.log[i | 1],
                             (unsigned long long)b.log[i & ~1ull], (unsigned long long)b.log[i | 1]);
            free(a.log);
            free(b.log);
        }
}

/* ---- the exchange on the timed network ---- */
typedef struct {
    uint64_t calls;
    uint64_t cd_sum;
} hooks_t;

static uint64_t cp_hook(void *u, uint32_t g, uint32_t b, uint64_t now)
{
    hooks_t *h = u;
    h->calls++;
    return now + 50 + 7 * g + 13 * (b % 5);     /* a CP time that depends on the GPU and batch */
}

static void cd_hook(void *u, uint32_t g, uint32_t b, uint64_t now, const uint32_t *prims, size_t n)
{
    hooks_t *h = u;
    (void)prims;
    h->cd_sum += now * (g + 1) + b + n;
}

static int exchange(uint32_t N, uint32_t B, net_topo_t topo, uint32_t lat, int ra, int skip, int hooks, uint64_t seed,
                    uint64_t *steps, uint64_t *cd, uint64_t *stepped, hooks_t *h)
{
    static pe_test_work_t w;
    pe_test_work_make(&w, N, B, seed, 300, 0);
    net_t net;
    assert_int_equal(net_init(&net, topo, N, 1, NULL, NULL), 0);
    assert_int_equal(net_set_timing(&net, lat, 40000, 80000), 0);
    pe_input_t in;
    memset(&in, 0, sizeof in);
    in.n_gpus = N;
    in.n_batches = B;
    in.entries = (const pe_entry_t *const *)w.e;
    in.counts = w.c;
    in.runahead = ra;
    in.send_rate = 1;
    in.cp_cost = 1;
    in.skip_idle = skip;
    if (hooks) {
        in.cp_ready = cp_hook;
        in.cd_complete = cd_hook;
        in.hook_user = h;
    }
    pe_result_t r;
    int rc = pe_run(&in, &net, &r);
    if (rc) fail_msg("exchange failed: %s", r.report);
    *steps = r.steps;
    *stepped = r.stepped;
    for (size_t i = 0; i < (size_t)N * B; i++) cd[i] = r.cd_done[i];
    pe_result_free(&r, N * B);
    net_free(&net);
    pe_test_work_free(&w, N, B);
    return rc;
}

static void test_exchange_skip_and_latency(void **state)
{
    (void)state;
    static uint64_t cd_a[512], cd_b[512];
    const uint32_t ns[] = {2, 5, 12};
    for (size_t i = 0; i < 3; i++)
        for (int topo = 0; topo < 2; topo++)
            for (int ra = 0; ra < 2; ra++)
                for (int hooks = 0; hooks < 2; hooks++) {
                    uint32_t N = ns[i], B = 6;
                    uint64_t prev = 0;
                    for (uint32_t lat = 100; lat <= 800; lat *= 2) {
                        uint64_t sa, sb, pa, pb;
                        hooks_t ha, hb;
                        memset(&ha, 0, sizeof ha);
                        memset(&hb, 0, sizeof hb);
                        uint64_t seed = 77 + N;
                        exchange(N, B, (net_topo_t)topo, lat, ra, 0, hooks, seed, &sa, cd_a, &pa, &ha);
                        exchange(N, B, (net_topo_t)topo, lat, ra, 1, hooks, seed, &sb, cd_b, &pb, &hb);
                        if (sa != sb || memcmp(cd_a, cd_b, (size_t)N * B * 8) || ha.calls != hb.calls || ha.cd_sum != hb.cd_sum)
                            fail_msg("N=%u %s ra=%d hooks=%d latency %u: skipping differs from stepping (steps %llu vs %llu)", N,
                                     net_topo_name((net_topo_t)topo), ra, hooks, lat, (unsigned long long)sa, (unsigned long long)sb);
                        assert_true(pb < pa);          /* and it skipped something */
                        if (hooks) assert_int_equal(ha.calls, (uint64_t)N * B);
                        /* a turn needs LAST from every earlier GPU: at least (N-1) link latencies per batch */
                        if (sa < (uint64_t)lat * (N - 1)) fail_msg("N=%u latency %u: %llu steps < lower bound", N, lat, (unsigned long long)sa);
                        if (sa < prev) fail_msg("N=%u %s ra=%d: latency %u gives %llu steps < %llu at half the latency", N,
                                                net_topo_name((net_topo_t)topo), ra, lat, (unsigned long long)sa, (unsigned long long)prev);
                        prev = sa;
                    }
                }
}

/* Bulk flits (chopin's composition packets): a link moves their bytes at exactly its bandwidth, the switch at
 * its own; latency per link as for 8-byte flits; skipping equals stepping; an 8-byte-flit net keeps its cap */
static void bulk_run(net_topo_t topo, uint32_t lat, uint64_t link_mb, uint64_t hub_mb, uint32_t pkt, uint32_t npk,
                     int skip, rec_t *r, net_t *net, uint32_t src, uint32_t dst)
{
    memset(r, 0, sizeof *r);
    r->net = net;
    assert_int_equal(net_init(net, topo, 4, 1, rec, r), 0);
    assert_int_equal(net_set_timing(net, lat, link_mb, hub_mb), 0);
    assert_int_equal(net_set_bulk(net, pkt), 0);
    for (uint32_t k = 0; k < npk; k++) assert_int_equal(net_inject_bulk(net, src, dst, pkt), 0);
    while (!net_idle(net)) {
        uint64_t nx = net_next_event(net);
        if (skip && nx > net->step + 1) net_skip_to(net, nx);
        net_step(net);
    }
}

static void test_bulk_flits(void **state)
{
    (void)state;
    net_t net;
    rec_t r;
    const uint32_t pkt = 256, npk = 400;
    /* line, 0 -> 3 (three links), 40 B/cycle: 400 x 256 B = 102400 B in 2560 cycles of link time */
    bulk_run(NET_LINE, 400, 40000, 80000, pkt, npk, 0, &r, &net, 0, 3);
    assert_int_equal(r.n, npk);
    /* a fresh link's credit starts at 0: the first packet leaves once it holds 256 B (step ceil(256 / 40) = 7);
     * the next links forward it at once (their credit is full) and it crosses 3 links */
    if (r.first_step != 7 + 3 * 400) fail_msg("first bulk flit at step %llu, want %u", (unsigned long long)r.first_step, 7 + 3 * 400);
    uint64_t span = r.last_step - r.first_step, want = (uint64_t)(npk - 1) * pkt / 40;   /* 2553.6 cycles */
    if (span < want || span > want + 2) fail_msg("line: %u packets over %llu cycles, want %llu..%llu (40 B/cycle)", npk,
                                                 (unsigned long long)span, (unsigned long long)want, (unsigned long long)want + 2);
    for (uint32_t i = 0; i < net.n_links; i++) {
        uint64_t b = net.links[i].bulk_bytes;
        int on_route = net.links[i].from < 3 && net.links[i].to == net.links[i].from + 1;
        assert_int_equal(b, on_route ? (uint64_t)npk * pkt : 0);
        assert_int_equal(net.links[i].flits_prim + net.links[i].flits_last, 0);
    }
    uint64_t last = r.last_step;
    net_free(&net);
    bulk_run(NET_LINE, 400, 40000, 80000, pkt, npk, 1, &r, &net, 0, 3);
    assert_int_equal(r.last_step, last);                 /* skipping == stepping */
    net_free(&net);
    /* hub, 2 -> 1, links 100 B/cycle, switch 20 B/cycle: the switch paces the stream */
    bulk_run(NET_HUB, 100, 100000, 20000, pkt, npk, 0, &r, &net, 2, 1);
    span = r.last_step - r.first_step;
    want = (uint64_t)(npk - 1) * pkt / 20;
    if (span < want || span > want + 2) fail_msg("hub: %u packets over %llu cycles, want %llu..%llu (switch 20 B/cycle)", npk,
                                                 (unsigned long long)span, (unsigned long long)want, (unsigned long long)want + 2);
    net_free(&net);
    /* bad bulk flits */
    assert_int_equal(net_init(&net, NET_LINE, 2, 1, rec, &r), 0);
    assert_int_equal(net_inject_bulk(&net, 0, 1, 16), -1);            /* above the maximum (8 B by default) */
    assert_int_equal(net_set_bulk(&net, 4), -1);
    assert_int_equal(net_set_bulk(&net, NET_BULK_MAX_BYTES + 1), -1);
    assert_int_equal(net_set_bulk(&net, 64), 0);
    assert_int_equal(net_inject_bulk(&net, 0, 0, 64), -1);            /* to itself */
    assert_int_equal(net_inject_bulk(&net, 0, 1, 0), -1);
    assert_int_equal(net_inject_bulk(&net, 0, 1, 65), -1);
    net_free(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_latency_bandwidth),
        cmocka_unit_test(test_hub_bandwidth),
        cmocka_unit_test(test_untimed_default),
        cmocka_unit_test(test_skip_equals_stepping),
        cmocka_unit_test(test_exchange_skip_and_latency),
        cmocka_unit_test(test_bulk_flits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
