/* Unit tests of the P2G functional definition (cmodel/p2g/p2g.c) and of the C cycle model (p2g_hw.c).
 * References here are independent of the code under test: hand-computed answers, and a first-principles
 * brute force over every pixel centre of small screens. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "common/rng.h"
#include "p2g/p2g.h"
#include "p2g/p2g_hw.h"
#include "p2g/p2g_stim.h"

static p2g_prim_t tri(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t x2, int32_t y2, uint32_t flags)
{
    p2g_prim_t p = {7, 0, {x0, x1, x2}, {y0, y1, y2}, flags};
    return p;
}

/* Hand-computed answers. 200x100 screen, 32x32 tiles: 7 tile columns, 4 tile rows. */
static void test_hand_computed(void **state)
{
    (void)state;
    p2g_config_t c = p2g_config_default(4, 200, 100);
    /* pixels 0..31 (centres 128 .. 31*256+128=8064 <= 8191): tile (0,0) -> GPU 0 */
    p2g_prim_t p = tri(0, 0, 8191, 0, 0, 8191, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x1);
    /* reaching pixel 32's centre (8320) in x: tiles (0,0),(1,0) -> GPUs 0,1 */
    p = tri(0, 0, 8320, 0, 0, 8191, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x3);
    /* 8319 stops short of pixel 32's centre */
    p = tri(0, 0, 8319, 0, 0, 8191, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x1);
    /* y from 0 to 100/256 px covers no pixel centre (the first is at 128/256): empty */
    p = tri(0, 0, 8320, 0, 0, 100, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x0);
    /* tile (1,1): diag owner (1+1) mod 4 = 2 */
    p = tri(32 * 256, 32 * 256, 40 * 256, 32 * 256, 32 * 256, 40 * 256, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x4);
    /* tiles (6,3): owner 9 mod 4 = 1 */
    p = tri(199 * 256, 99 * 256, 199 * 256 + 200, 99 * 256, 199 * 256, 99 * 256 + 200, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x2);
    /* a point exactly on pixel (0,0)'s centre covers it; a point 1/256 before does not */
    p = tri(128, 128, 128, 128, 128, 128, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x1);
    p = tri(127, 127, 127, 127, 127, 127, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x0);
    /* entirely left of the screen: empty; culled: empty; near_clip: every owner of a scissor tile */
    p = tri(-5000, 0, -200, 500, -300, 900, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x0);
    p = tri(0, 0, 8191, 0, 0, 8191, P2G_FLAG_CULLED);
    assert_int_equal(p2g_mask(&c, &p), 0x0);
    p = tri(-5000, 0, -200, 500, -300, 900, P2G_FLAG_NEAR_CLIP);
    assert_int_equal(p2g_mask(&c, &p), 0xf);
    p = tri(-5000, 0, -200, 500, -300, 900, P2G_FLAG_NEAR_CLIP | P2G_FLAG_CULLED);
    assert_int_equal(p2g_mask(&c, &p), 0x0);
    /* scissor = tile (2,0) only: near_clip gives GPU 2 only, a screen-sized triangle too */
    c.sc_x0 = 64; c.sc_y0 = 0; c.sc_x1 = 95; c.sc_y1 = 31;
    p = tri(0, 0, 0, 0, 0, 0, P2G_FLAG_NEAR_CLIP);
    assert_int_equal(p2g_mask(&c, &p), 0x4);
    p = tri(0, 0, 200 * 256, 0, 0, 100 * 256, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x4);
    /* empty scissor (x1 < x0): nothing, even for near_clip */
    c.sc_x1 = 63;
    assert_int_equal(p2g_mask(&c, &p), 0x0);
    p = tri(0, 0, 0, 0, 0, 0, P2G_FLAG_NEAR_CLIP);
    assert_int_equal(p2g_mask(&c, &p), 0x0);
}

static void test_linear_mode(void **state)
{
    (void)state;
    /* 128 px wide: 4 tiles per row; N=4 linear: owner = (tx + 4 ty) mod 4 = tx: vertical stripes */
    p2g_config_t c = p2g_config_default(4, 128, 128);
    c.mode = P2G_MODE_LINEAR;
    p2g_prim_t p = tri(40 * 256, 0, 50 * 256, 0, 40 * 256, 128 * 256, 0); /* column of tiles tx=1 */
    assert_int_equal(p2g_mask(&c, &p), 0x2);
    c.mode = P2G_MODE_DIAG; /* the same column under diag: owners 1,2,3,0 */
    assert_int_equal(p2g_mask(&c, &p), 0xf);
    /* N=3, 4 tiles per row, linear: tile (0,1) -> 4 mod 3 = 1; tile (3,0) -> 0 */
    c = p2g_config_default(3, 128, 128);
    c.mode = P2G_MODE_LINEAR;
    p = tri(0, 32 * 256, 10 * 256, 32 * 256, 0, 40 * 256, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x2);
    p = tri(100 * 256, 0, 110 * 256, 0, 100 * 256, 10 * 256, 0);
    assert_int_equal(p2g_mask(&c, &p), 0x1);
    assert_int_equal(p2g_owner(&c, 3, 5), (3 + 5 * 4) % 3);
}

static void test_config_check(void **state)
{
    (void)state;
    p2g_config_t c = p2g_config_default(16, 1920, 1080);
    assert_null(p2g_config_check(&c));
    c.n_gpus = 0; assert_non_null(p2g_config_check(&c));
    c.n_gpus = 65; assert_non_null(p2g_config_check(&c));
    c.n_gpus = 64; assert_null(p2g_config_check(&c));
    c.width = 16385; assert_non_null(p2g_config_check(&c));
    c.width = 16384; c.tile_log2 = 15; assert_non_null(p2g_config_check(&c));
    c.tile_log2 = 14; c.sc_x1 = 16384; assert_non_null(p2g_config_check(&c));
}

/* First-principles reference: every pixel whose centre lies in the primitive's bounding box, inside
 * screen and scissor, contributes the owner of its tile. Owner formulas written out here. */
static uint64_t brute_mask(const p2g_config_t *c, const p2g_prim_t *p)
{
    if (p->flags & P2G_FLAG_CULLED) return 0;
    int64_t minx = p->x[0], maxx = p->x[0], miny = p->y[0], maxy = p->y[0];
    for (int i = 1; i < 3; i++) {
        if (p->x[i] < minx) minx = p->x[i];
        if (p->x[i] > maxx) maxx = p->x[i];
        if (p->y[i] < miny) miny = p->y[i];
        if (p->y[i] > maxy) maxy = p->y[i];
    }
    uint32_t T = 1u << c->tile_log2, tpr = (c->width + T - 1) / T;
    uint64_t m = 0;
    for (uint32_t py = 0; py < c->height; py++) {
        if (py < c->sc_y0 || py > c->sc_y1) continue;
        int64_t cy = 256 * (int64_t)py + 128;
        if (!(p->flags & P2G_FLAG_NEAR_CLIP) && (cy < miny || cy > maxy)) continue;
        for (uint32_t px = 0; px < c->width; px++) {
            if (px < c->sc_x0 || px > c->sc_x1) continue;
            int64_t cx = 256 * (int64_t)px + 128;
            if (!(p->flags & P2G_FLAG_NEAR_CLIP) && (cx < minx || cx > maxx)) continue;
            uint32_t tx = px / T, ty = py / T;
            uint32_t owner = c->mode == P2G_MODE_DIAG ? (tx + ty) % c->n_gpus : (tx + ty * tpr) % c->n_gpus;
            m |= 1ull << owner;
        }
    }
    return m;
}

static void test_brute_force_small_screens(void **state)
{
    (void)state;
    rng_t r;
    rng_seed(&r, 0xb40e);
    uint64_t checked = 0, nonzero = 0;
    for (int cfgi = 0; cfgi < 300; cfgi++) {
        uint32_t n = 1 + rng_below(&r, 64);
        p2g_config_t c = p2g_config_default(n, 1 + rng_below(&r, 160), 1 + rng_below(&r, 120));
        c.tile_log2 = rng_below(&r, 7);
        c.mode = rng_chance(&r, 1, 2) ? P2G_MODE_DIAG : P2G_MODE_LINEAR;
        if (rng_chance(&r, 1, 2)) {
            c.sc_x0 = rng_below(&r, 200); c.sc_x1 = rng_below(&r, 200);
            c.sc_y0 = rng_below(&r, 150); c.sc_y1 = rng_below(&r, 150);
        }
        for (int i = 0; i < 60; i++) {
            p2g_prim_t p;
            p2g_stim_any(&r, &c, &p);
            uint64_t want = brute_mask(&c, &p), got = p2g_mask(&c, &p);
            if (want != got) {
                fprintf(stderr, "p2g_mask differs from the pixel brute force: got 0x%llx want 0x%llx\n"
                        "  n=%u W=%u H=%u ts=%u mode=%d sc=%u,%u,%u,%u x=(%d,%d,%d) y=(%d,%d,%d) flags=%u\n",
                        (unsigned long long)got, (unsigned long long)want, c.n_gpus, c.width, c.height,
                        c.tile_log2, c.mode, c.sc_x0, c.sc_y0, c.sc_x1, c.sc_y1, p.x[0], p.x[1], p.x[2],
                        p.y[0], p.y[1], p.y[2], p.flags);
                fail();
            }
            checked++;
            nonzero += want != 0;
        }
    }
    assert_int_equal(checked, 300 * 60);
    fprintf(stderr, "brute force: %llu primitives, %llu with a nonzero mask\n", (unsigned long long)checked,
            (unsigned long long)nonzero);
    assert_true(nonzero > checked / 5); /* the stimulus must actually hit the screen */
}

/* The C cycle model, run alone with backpressure, produces p2g_mask() for every primitive, in order, and
 * sustains one primitive per cycle in diag mode with no backpressure. */
static void run_hw(uint32_t max_gpus, uint32_t rows, uint64_t seed)
{
    rng_t r;
    rng_seed(&r, seed);
    p2g_hw_t h;
    p2g_hw_params_t prm = {max_gpus, rows, 16};
    p2g_hw_init(&h, prm);
    for (int cfgi = 0; cfgi < 40; cfgi++) {
        p2g_hw_in_t in;
        memset(&in, 0, sizeof in);
        p2g_stim_config(&r, 1 + rng_below(&r, max_gpus), &in.cfg);
        for (int i = 0; i < P2G_HW_CFG_SETTLE; i++) { in.out_ready = 1; p2g_hw_clock(&h, &in); }
        p2g_prim_t q[64];
        uint64_t qm[64];
        unsigned qh = 0, qt = 0, sent = 0, got = 0, cycles = 0;
        int stall = cfgi & 1;
        while (got < 500) {
            if (!in.in_valid && sent < 500) {
                p2g_stim_any(&r, &in.cfg, &in.in);
                in.in.prim_id = sent;
                in.in_valid = 1;
            }
            in.out_ready = stall ? rng_chance(&r, 1, 2) : 1;
            p2g_hw_out_t o;
            p2g_hw_comb(&h, &in, &o);
            int acc = in.in_valid && o.in_ready;
            if (acc) { q[qt % 64] = in.in; qm[qt % 64] = p2g_mask(&in.cfg, &in.in); qt++; }
            if (o.out_valid && in.out_ready) {
                assert_true(qh < qt);
                assert_int_equal(o.out_prim_id, q[qh % 64].prim_id);
                assert_int_equal(o.out_mask, qm[qh % 64]);
                qh++;
                got++;
            }
            p2g_hw_clock(&h, &in);
            if (acc) { in.in_valid = 0; sent++; }
            cycles++;
            assert_true(cycles < 500 * 80);
        }
    }
}

static void test_cycle_model_matches_definition(void **state)
{
    (void)state;
    run_hw(16, 2, 1);
    run_hw(64, 4, 2);
    run_hw(3, 1, 3);
    run_hw(64, 1, 4);
}

/* Clock with no input until the unit is idle; returns the cycles in_ready was low. */
static int settle(p2g_hw_t *h, p2g_hw_in_t *in)
{
    int low = 0;
    in->in_valid = 0;
    for (int i = 0; i < 1000; i++) {
        p2g_hw_out_t o;
        p2g_hw_comb(h, in, &o);
        if (!o.busy && o.in_ready) return low;
        low += !o.in_ready;
        p2g_hw_clock(h, in);
    }
    fail_msg("the P2G cycle model does not become idle");
    return -1;
}

static void test_cycle_model_throughput_and_latency(void **state)
{
    (void)state;
    p2g_hw_t h;
    p2g_hw_params_t prm = {16, 2, 16};
    p2g_hw_init(&h, prm);
    p2g_hw_in_t in;
    memset(&in, 0, sizeof in);
    in.cfg = p2g_config_default(16, 1920, 1080);
    in.out_ready = 1;
    /* a new key (n, W, tile size, mode) holds in_ready low for the change cycle + the table build */
    assert_int_equal(settle(&h, &in), 1 + (int)p2g_hw_build_cycles(prm.rows));
    in.cfg.sc_x0 = 5; /* a scissor change needs no rebuild */
    assert_int_equal(settle(&h, &in), 0);
    in.cfg.sc_x0 = 0;
    /* diag mode: a stream of screen-sized primitives is accepted every cycle; the first mask appears 9
     * cycles after its input handshake (nine registers: S1..S8, OUT; docs/p2g.md) */
    in.in = tri(0, 0, 1920 * 256, 0, 0, 1080 * 256, 0);
    in.in_valid = 1;
    int first_out = -1, outs = 0;
    for (int cyc = 0; cyc < 100 + P2G_HW_LATENCY; cyc++) {
        p2g_hw_out_t o;
        p2g_hw_comb(&h, &in, &o);
        assert_true(o.in_ready);
        if (o.out_valid) { if (first_out < 0) first_out = cyc; outs++; }
        p2g_hw_clock(&h, &in);
    }
    assert_int_equal(first_out, P2G_HW_LATENCY);
    assert_int_equal(P2G_HW_LATENCY, 9);
    assert_int_equal(outs, 100);
    /* linear mode, N=16, a primitive 16+ tile rows high and 1 tile wide walks min(rows,16)=16 rows at 2 per
     * cycle: 8 walk cycles, so back-to-back such primitives come out every 8 cycles */
    p2g_hw_init(&h, prm);
    in.in_valid = 0;
    in.cfg.mode = P2G_MODE_LINEAR;
    in.cfg.width = 33 * 32; /* 33 tiles per row: rows start at different owners */
    assert_int_equal(settle(&h, &in), 1 + (int)p2g_hw_build_cycles(prm.rows));
    in.in = tri(10 * 256, 0, 12 * 256, 0, 10 * 256, 1080 * 256, 0);
    in.in_valid = 1;
    int last = -1, gaps = 0;
    for (int cyc = 0; cyc < 200; cyc++) {
        p2g_hw_out_t o;
        p2g_hw_comb(&h, &in, &o);
        if (o.out_valid) {
            if (last >= 0) { assert_int_equal(cyc - last, 8); gaps++; }
            last = cyc;
            assert_int_equal(o.out_mask, p2g_mask(&in.cfg, &in.in));
        }
        p2g_hw_clock(&h, &in);
    }
    assert_true(gaps > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_computed),
        cmocka_unit_test(test_linear_mode),
        cmocka_unit_test(test_config_check),
        cmocka_unit_test(test_brute_force_small_screens),
        cmocka_unit_test(test_cycle_model_matches_definition),
        cmocka_unit_test(test_cycle_model_throughput_and_latency),
    };
    return cmocka_run_group_tests_name("p2g", tests, NULL, NULL);
}
