/* Stream PE (gpupd-stream, docs/sx.md): the functional definition on a hand-checked example, the C cycle
 * model alone (K entries per cycle in and out, every err condition), and N cycle models through the link model
 * (cmodel/stream/sx_net.c) on both topologies with FIFOs of 2..4 slots: no drop, no deadlock, application
 * order, every credit returned; a lost flit must make the run fail. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/flit.h"
#include "stream/sx.h"
#include "stream/sx_hw.h"
#include "stream/sx_net.h"

/* ------------------------------------------------------------------ functional definition */
static void test_golden_example(void **st)
{
    (void)st;
    /* N = 3, batch 0: GPU0 {0: m=110b, 1: m=001b}, GPU1 {2: m=111b}, GPU2 {3: m=000b (dropped), 4: m=010b};
     * batch 1: GPU0 {}, GPU1 {0: m=100b}, GPU2 {1: m=101b}. Expected (written by hand):
     * r0: 1, 2, eob0, 1, eob1;  r1: 0, 2, 4, eob0, eob1;  r2: 0, 2, eob0, 0, 1, eob1 */
    const sx_entry_t c00[] = {{0, 6}, {1, 1}}, c01[] = {{2, 7}}, c02[] = {{3, 0}, {4, 2}};
    const sx_entry_t c11[] = {{0, 4}}, c12[] = {{1, 5}};
    const sx_entry_t *ch[] = {c00, c01, c02, NULL, c11, c12};
    const uint32_t cnt[] = {2, 1, 2, 0, 1, 1};
    sx_input_t in = {.n_gpus = 3, .n_batches = 2, .chunks = ch, .counts = cnt};
    sx_rel_list_t out[3];
    memset(out, 0, sizeof out);
    assert_int_equal(sx_run(&in, out), 0);
    static const int exp[3][7][3] = {      /* {batch, id, eob}, terminated by batch -1 */
        {{0, 1, 0}, {0, 2, 0}, {0, 0, 1}, {1, 1, 0}, {1, 0, 1}, {-1, 0, 0}},
        {{0, 0, 0}, {0, 2, 0}, {0, 4, 0}, {0, 0, 1}, {1, 0, 1}, {-1, 0, 0}},
        {{0, 0, 0}, {0, 2, 0}, {0, 0, 1}, {1, 0, 0}, {1, 1, 0}, {1, 0, 1}, {-1, 0, 0}},
    };
    for (int r = 0; r < 3; r++) {
        size_t n = 0;
        while (exp[r][n][0] >= 0) n++;
        assert_int_equal(out[r].n, n);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(out[r].v[i].batch, exp[r][i][0]);
            assert_int_equal(out[r].v[i].id, exp[r][i][1]);
            assert_int_equal(out[r].v[i].eob, exp[r][i][2]);
        }
        sx_rel_free(&out[r]);
    }
}

/* ------------------------------------------------------------------ one cycle model */
static void cfg_in(sx_hw_in_t *in, uint32_t n, uint32_t g, uint32_t topo)
{
    memset(in, 0, sizeof *in);
    in->cfg.n_gpus = n;
    in->cfg.gpu_id = g;
    in->cfg.topo = topo;
}

/* N = 1: kept-only entries enter K per cycle and leave K per cycle (throughput target) */
static void test_k_per_cycle(void **st)
{
    (void)st;
    for (uint32_t k = 1; k <= 8; k++) {
        sx_hw_t h;
        assert_int_equal(sx_hw_init(&h, (sx_hw_params_t){.max_gpus = 16, .k = k, .depth = 64}), 0);
        const uint32_t M = 40 * k;         /* entries of batch 0, then END */
        uint32_t fed = 0, got = 0, in_cycles = 0, out_cycles = 0, eob = 0;
        for (int cyc = 0; cyc < 1000 && !eob; cyc++) {
            sx_hw_in_t in;
            cfg_in(&in, 1, 0, SX_TOPO_HUB);
            in.out_ready = 1;
            for (uint32_t j = 0; j < k && fed + j <= M; j++) {
                in.in[j].valid = 1;
                in.in[j].end = fed + j == M;
                in.in[j].id = fed + j == M ? M : fed + j;
                in.in[j].mask = 1;
            }
            sx_hw_out_t o;
            sx_hw_comb(&h, &in, &o);
            assert_int_equal(o.err, 0);
            uint32_t acc = 0;
            while (acc < k && in.in[acc].valid && o.in_ready[acc]) acc++;
            if (acc && !in.in[0].end) in_cycles++;
            fed += acc;
            if (o.out_valid[0]) {
                if (o.out_eob) {
                    eob = 1;
                } else {
                    out_cycles++;
                    for (uint32_t j = 0; j < k && o.out_valid[j]; j++) assert_int_equal(o.out_id[j], got++);
                }
            }
            sx_hw_clock(&h, &in);
        }
        assert_true(eob);
        assert_int_equal(got, M);
        assert_int_equal(in_cycles, 40);     /* M / K cycles in */
        assert_int_equal(out_cycles, 40);    /* M / K cycles out */
        sx_hw_free(&h);
    }
}

/* one illegal handshake -> err in the next cycle, sticky */
static int err_after(uint32_t topo, uint32_t n, uint32_t g, const sx_hw_in_t *bad, int prep_credit_from)
{
    sx_hw_t h;
    assert_int_equal(sx_hw_init(&h, (sx_hw_params_t){.max_gpus = 4, .k = 2, .depth = 2}), 0);
    sx_hw_in_t in;
    sx_hw_out_t o;
    if (prep_credit_from >= 0) {   /* send one PRIM to prep_credit_from so that one credit may come back */
        cfg_in(&in, n, g, topo);
        in.in[0].valid = 1;
        in.in[0].mask = 1ull << prep_credit_from;
        for (int i = 0; i < 3; i++) {
            sx_hw_comb(&h, &in, &o);
            if (o.in_ready[0]) { sx_hw_clock(&h, &in); break; }
            sx_hw_clock(&h, &in);
        }
        cfg_in(&in, n, g, topo);
        in.tx_ready[0] = in.tx_ready[1] = 1;
        sx_hw_clock(&h, &in);
    }
    cfg_in(&in, n, g, topo);
    sx_hw_comb(&h, &in, &o);
    int before = o.err;
    sx_hw_in_t b = *bad;
    b.cfg = in.cfg;
    sx_hw_clock(&h, &b);
    sx_hw_comb(&h, &in, &o);
    int after = o.err;
    sx_hw_clock(&h, &in);
    sx_hw_comb(&h, &in, &o);
    int still = o.err;
    sx_hw_free(&h);
    return !before && after && still;
}

static void test_err_conditions(void **st)
{
    (void)st;
    sx_hw_in_t b;
    /* legal reference: a PRIM from GPU 0 to GPU 1 on port 0 of a line of 3 does not raise err */
    memset(&b, 0, sizeof b);
    b.rx_valid[0] = 1;
    b.rx_flit[0] = flit_make(FLIT_TYPE_PRIM, 0, 1, 0, 5);
    assert_false(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
    /* unknown types */
    for (uint32_t t = 0; t < 8; t += 4) {
        memset(&b, 0, sizeof b);
        b.rx_valid[0] = 1;
        b.rx_flit[0] = flit_make(t, 0, 1, 0, 5);
        assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
    }
    /* PRIM for another GPU; source on the wrong port; source = self; source >= N */
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_PRIM, 0, 2, 0, 5);
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
    memset(&b, 0, sizeof b); b.rx_valid[1] = 1; b.rx_flit[1] = flit_make(FLIT_TYPE_PRIM, 0, 1, 0, 5);
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_PRIM, 1, 1, 0, 5);
    assert_true(err_after(SX_TOPO_HUB, 3, 1, &b, -1));
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_PRIM, 3, 1, 0, 5);
    assert_true(err_after(SX_TOPO_HUB, 3, 1, &b, -1));
    /* hub: port 1 does not exist */
    memset(&b, 0, sizeof b); b.rx_valid[1] = 1; b.rx_flit[1] = flit_make(FLIT_TYPE_PRIM, 0, 1, 0, 5);
    assert_true(err_after(SX_TOPO_HUB, 3, 1, &b, -1));
    /* LAST not broadcast; tag not the next expected from that source */
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_LAST, 0, 1, 0, 5);
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_PRIM, 0, 1, 1, 5);
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_PRIM, 0, 1, 0xffff, 5);
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
    /* CREDIT without anything outstanding (overflow), with payload 0, for another GPU; a legal one is fine */
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_CREDIT, 0, 1, 0, 1);
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
    assert_false(err_after(SX_TOPO_LINE, 3, 1, &b, 0));
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_CREDIT, 0, 1, 0, 2);
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, 0));
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_CREDIT, 0, 1, 0, 0);
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, 0));
    memset(&b, 0, sizeof b); b.rx_valid[0] = 1; b.rx_flit[0] = flit_make(FLIT_TYPE_CREDIT, 0, 2, 0, 1);
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, 0));
    /* P2G beat with a tag other than the expected batch */
    memset(&b, 0, sizeof b); b.in[0].valid = 1; b.in[0].tag = 1; b.in[0].mask = 2;
    assert_true(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
    memset(&b, 0, sizeof b); b.in[0].valid = 1; b.in[0].tag = 0; b.in[0].mask = 2;
    assert_false(err_after(SX_TOPO_LINE, 3, 1, &b, -1));
}

/* a data flit beyond the credits (the FIFO of its source full) raises err and is dropped */
static void test_err_overrun(void **st)
{
    (void)st;
    sx_hw_t h;
    assert_int_equal(sx_hw_init(&h, (sx_hw_params_t){.max_gpus = 4, .k = 1, .depth = 2}), 0);
    sx_hw_in_t in;
    sx_hw_out_t o;
    for (uint32_t i = 0; i < 3; i++) {
        cfg_in(&in, 2, 1, SX_TOPO_HUB);   /* out_ready = 0: nothing is released */
        in.rx_valid[0] = 1;
        in.rx_flit[0] = flit_make(FLIT_TYPE_PRIM, 0, 1, 0, i);
        sx_hw_comb(&h, &in, &o);
        assert_int_equal(o.rx_ready[0], 1);
        assert_int_equal(o.err, 0);
        assert_int_equal(o.occ, i);
        sx_hw_clock(&h, &in);
    }
    cfg_in(&in, 2, 1, SX_TOPO_HUB);
    sx_hw_comb(&h, &in, &o);
    assert_int_equal(o.err, 1);
    assert_int_equal(o.occ, 2);
    sx_hw_free(&h);
}

/* ------------------------------------------------------------------ N cycle models through net.c */
static void run_sys(uint32_t n, uint32_t topo, uint32_t k, uint32_t depth, uint64_t seed, uint32_t batches,
                    uint32_t size, int tight, sx_net_res_t *res)
{
    sx_work_t w;
    assert_int_equal(sx_work_gen(&w, seed, n, batches, size), 0);
    sx_net_cfg_t c;
    memset(&c, 0, sizeof c);
    c.prm = (sx_hw_params_t){.max_gpus = n < 16 ? 16 : 64, .k = k, .depth = depth};
    c.n_gpus = n;
    c.topo = topo;
    c.latency = 1 + (uint32_t)(seed % 7);
    c.seed = seed;
    c.p2g_pct = tight ? 100 : 60 + (uint32_t)(seed % 40);
    c.tx_pct = tight ? 70 : 100;
    c.out_pct = tight ? 30 : 90;
    c.slow_gpu = (uint32_t)(seed % n);
    c.slow_div = tight ? 20 : 1;
    int rc = sx_net_run(&c, &w.in, res);
    sx_work_free(&w);
    if (rc) fail_msg("sx_net_run N=%u topo=%s K=%u depth=%u seed=%llu: %s", n, topo ? "hub" : "line", k, depth,
                     (unsigned long long)seed, res->report);
}

static void test_net_tiny_fifos(void **st)
{
    (void)st;
    static const uint32_t ns[] = {1, 2, 3, 5, 8, 16};
    uint64_t full = 0, credits = 0, quiet = 0, runs = 0;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (uint32_t topo = 0; topo < 2; topo++)
            for (uint32_t k = 1; k <= 8; k *= 2) {
                uint32_t depth = 2 + (uint32_t)((i + k + topo) % 3);
                sx_net_res_t r;
                uint64_t seed = 1000 * i + 10 * k + topo;
                run_sys(ns[i], topo, k, depth, seed, 6, ns[i] > 8 ? 120 : 60, 1, &r);
                full += r.full_cycles;
                credits += r.flits_credit;
                quiet += r.quiet_cycles;
                runs++;
                for (uint32_t g = 0; g < ns[i]; g++) assert_true(r.occ_max[g] <= ns[i] * depth);
            }
    printf("test_net_tiny_fifos: %llu runs; cycles with a remote FIFO full: %llu; CREDIT flits: %llu; quiet "
           "cycles checked: %llu\n", (unsigned long long)runs, (unsigned long long)full, (unsigned long long)credits,
           (unsigned long long)quiet);
    assert_true(full > 1000);      /* the buffers were full, often */
    assert_true(credits > 1000);
}

static void test_net_random(void **st)
{
    (void)st;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        uint32_t n = 2 + (uint32_t)(seed * 7 % 15), k = 1u << (seed % 4), depth = 2 + (uint32_t)(seed * 13 % 30);
        sx_net_res_t r;
        run_sys(n, (uint32_t)(seed & 1), k, depth, seed, 8, 200, (int)(seed % 3 == 0), &r);
    }
    sx_net_res_t r;     /* 64 GPUs, line and hub */
    run_sys(64, SX_TOPO_LINE, 4, 3, 77, 3, 300, 0, &r);
    run_sys(64, SX_TOPO_HUB, 2, 2, 78, 3, 300, 1, &r);
}

/* the checks can fail: a data flit lost in the network must be reported (mismatch or deadlock) */
static void test_net_detects_loss(void **st)
{
    (void)st;
    for (uint32_t topo = 0; topo < 2; topo++)
        for (uint64_t drop = 1; drop < 40; drop += 7) {
            sx_work_t w;
            assert_int_equal(sx_work_gen(&w, 5 + drop, 3, 4, 40), 0);
            sx_net_cfg_t c;
            memset(&c, 0, sizeof c);
            c.prm = (sx_hw_params_t){.max_gpus = 4, .k = 2, .depth = 3};
            c.n_gpus = 3;
            c.topo = topo;
            c.latency = 2;
            c.seed = drop;
            c.stall_limit = 2000;
            c.drop_flit = drop;
            sx_net_res_t r;
            int rc = sx_net_run(&c, &w.in, &r);
            sx_work_free(&w);
            if (rc != -1 || !(strstr(r.report, "deadlock") || strstr(r.report, "expected") || strstr(r.report, "credit") ||
                               strstr(r.report, "raised err")))
                fail_msg("lost flit %llu (%s) not reported as such: rc %d, report '%s'", (unsigned long long)drop,
                         topo ? "hub" : "line", rc, r.report);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_example),
        cmocka_unit_test(test_k_per_cycle),
        cmocka_unit_test(test_err_conditions),
        cmocka_unit_test(test_err_overrun),
        cmocka_unit_test(test_net_tiny_fifos),
        cmocka_unit_test(test_net_random),
        cmocka_unit_test(test_net_detects_loss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
