/* The N-GPU system: every scheme renders the frame `single` renders (bit for bit) on synthetic scenes
 * covering clipping, culling, blending, MRT, render-to-texture and inter-frame dependencies; the
 * statistics are consistent; faults and bad configurations stop the run with a report; PNG round trip. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "img/png.h"
#include "sys/scene_gen.h"
#include "sys/sys.h"

static void run_ok(const sys_scene_t *s, const sys_config_t *c, sys_result_t *r)
{
    if (sys_run(s, c, r)) fail_msg("sys_run %s N=%u %s: %s", sys_scheme_name(c->scheme), c->n_gpus, net_topo_name(c->topo), r->err);
}

static void check_identical(const char *scene, uint32_t w, uint32_t h, uint32_t prims, uint32_t frame)
{
    sys_scene_t s;
    assert_int_equal(sys_scene_synth(&s, scene, w, h, prims, 3), 0);
    sys_config_t c = sys_config_default();
    c.frame = frame;
    sys_result_t ref;
    run_ok(&s, &c, &ref);
    uint64_t href = sys_frame_hash(ref.pixels, (size_t)ref.w * ref.h);
    /* the frame is not trivial: several colours */
    size_t distinct = 0;
    for (size_t i = 1; i < (size_t)ref.w * ref.h; i++) distinct += ref.pixels[i] != ref.pixels[i - 1];
    assert_true(distinct > 100);
    uint32_t ns[] = {2, 3, 5};
    for (int sc = SYS_SCHEME_DUP; sc < SYS_SCHEME_COUNT; sc++)
        for (size_t k = 0; k < 3; k++)
            for (int topo = 0; topo < 2; topo++) {
                c = sys_config_default();
                c.frame = frame;
                c.scheme = (sys_scheme_t)sc;
                c.n_gpus = ns[k];
                c.topo = (net_topo_t)topo;
                c.batch = 64;
                c.chopin_min_tris = 16;     /* chopin: compose the groups of these small scenes */
                sys_result_t r;
                run_ok(&s, &c, &r);
                uint64_t hh = sys_frame_hash(r.pixels, (size_t)r.w * r.h);
                if (hh != href) {
                    size_t i = 0;
                    while (r.pixels[i] == ref.pixels[i]) i++;
                    fail_msg("scene %s frame %u scheme %s N=%u %s: hash %016llx != single %016llx; first difference at (%zu,%zu)"
                             " got %08x want %08x; reproduce: gpupd-sim verify --scene %s --size %ux%u --frame %u --gpus %u",
                             scene, frame, sys_scheme_name(c.scheme), c.n_gpus, net_topo_name(c.topo), (unsigned long long)hh,
                             (unsigned long long)href, i % r.w, i / r.w, r.pixels[i], ref.pixels[i], scene, w, h, frame, c.n_gpus);
                }
                sys_result_free(&r);
            }
    sys_result_free(&ref);
    sys_scene_free(&s);
}

static void test_tris_identical(void **state) { (void)state; check_identical("tris", 96, 80, 300, 0); }
static void test_rtt_identical(void **state) { (void)state; check_identical("rtt", 96, 64, 0, 1); }

/* other ownership functions and tile sizes: linear (raster order) and 16x16 / 4x4 tiles */
static void test_ownership_variants(void **state)
{
    (void)state;
    sys_scene_t s;
    assert_int_equal(sys_scene_synth(&s, "rtt", 96, 64, 0, 4), 0);
    sys_config_t c = sys_config_default();
    c.frame = 1;
    sys_result_t ref;
    run_ok(&s, &c, &ref);
    uint64_t href = sys_frame_hash(ref.pixels, (size_t)ref.w * ref.h);
    sys_result_free(&ref);
    p2g_mode_t modes[2] = {P2G_MODE_LINEAR, P2G_MODE_DIAG};
    uint32_t tiles[2] = {4, 2};
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < 2; t++) {
            c = sys_config_default();
            c.frame = 1;
            c.scheme = SYS_SCHEME_GPUPD_RA;
            c.n_gpus = 3;
            c.own_mode = modes[m];
            c.tile_log2 = tiles[t];
            c.batch = 50;
            sys_result_t r;
            run_ok(&s, &c, &r);
            if (sys_frame_hash(r.pixels, (size_t)r.w * r.h) != href)
                fail_msg("ownership %s tile 2^%u: frame differs from single", modes[m] == P2G_MODE_LINEAR ? "linear" : "diag", tiles[t]);
            sys_result_free(&r);
        }
    sys_scene_free(&s);
}

static void test_stats_consistent(void **state)
{
    (void)state;
    sys_scene_t s;
    assert_int_equal(sys_scene_synth(&s, "rtt", 96, 64, 0, 5), 0);
    sys_config_t c = sys_config_default();
    c.frame = 1;
    c.n_gpus = 4;
    c.scheme = SYS_SCHEME_GPUPD;
    sys_result_t r;
    run_ok(&s, &c, &r);
    uint64_t sent = 0, recv = 0, proj = 0, link_prim = 0, frags = 0, written = 0;
    for (int g = 0; g < 4; g++) {
        sent += r.gpu[g].prims_sent;
        recv += r.gpu[g].prims_received;
        proj += r.gpu[g].prims_projected;
        frags += r.gpu[g].render.fragments;
        written += r.gpu[g].render.pixels_written;
        assert_int_equal(r.gpu[g].prims_to_render, r.gpu[g].prims_kept + r.gpu[g].prims_received);
        uint64_t from = 0;                         /* per-source counts add up; nothing from itself */
        for (int j = 0; j < 4; j++) from += r.gpu[g].prims_received_from[j];
        assert_int_equal(from, r.gpu[g].prims_received);
        assert_int_equal(r.gpu[g].prims_received_from[g], 0);
    }
    for (int j = 0; j < 4; j++) {                  /* what j sent == what the others received from j */
        uint64_t got = 0;
        for (int g = 0; g < 4; g++) got += r.gpu[g].prims_received_from[j];
        assert_int_equal(got, r.gpu[j].prims_sent);
    }
    for (uint32_t i = 0; i < r.n_links; i++) link_prim += r.links[i].prim_flits;
    assert_int_equal(sent, recv);
    assert_int_equal(proj, r.prims_app);           /* C-PD: each primitive projected exactly once */
    assert_true(link_prim >= sent);                /* line: forwarded packets cross several links */
    assert_true(r.syncs > 0 && r.sync_bytes > 0);  /* render-to-texture synchronisation happened */
    uint64_t dp = 0;
    for (uint32_t i = 0; i < r.n_draws_frame; i++) dp += r.draw_pixels[i];
    sys_result_free(&r);

    c.scheme = SYS_SCHEME_SINGLE;
    run_ok(&s, &c, &r);
    /* the same pixels are written in total, whoever writes them */
    uint64_t dp1 = 0;
    for (uint32_t i = 0; i < r.n_draws_frame; i++) dp1 += r.draw_pixels[i];
    assert_int_equal(dp, dp1);
    assert_int_equal(r.syncs, 0);
    sys_result_free(&r);

    c.scheme = SYS_SCHEME_DUP;
    run_ok(&s, &c, &r);
    proj = 0;
    for (int g = 0; g < 4; g++) proj += r.gpu[g].prims_projected;
    assert_int_equal(proj, 4 * r.prims_app);       /* dup: every GPU projects everything */
    sys_result_free(&r);

    c.scheme = SYS_SCHEME_AFR;
    c.n_gpus = 2;
    run_ok(&s, &c, &r);
    assert_int_equal(r.gpu[0].frames_rendered, 1);
    assert_int_equal(r.gpu[1].frames_rendered, 1);
    assert_true(r.syncs >= 1);                     /* the accumulation target carries over frames */
    sys_result_free(&r);
    sys_scene_free(&s);
}

static void test_batching_counts(void **state)
{
    (void)state;
    sys_scene_t s;
    assert_int_equal(sys_scene_synth(&s, "big", 64, 64, 9000, 1), 0);   /* 3 draws of 3000 */
    sys_config_t c = sys_config_default();
    c.n_gpus = 3;
    c.scheme = SYS_SCHEME_GPUPD;
    sys_result_t r;
    run_ok(&s, &c, &r);
    assert_int_equal(r.batches, 3);
    sys_result_free(&r);
    c.scheme = SYS_SCHEME_GPUPD_BATCH;
    c.batch = 4096;                                /* 3000, then 6000 > 4096 closes: {0,1}, {2} */
    run_ok(&s, &c, &r);
    assert_int_equal(r.batches, 2);
    sys_result_free(&r);
    c.batch = 100000;
    c.scheme = SYS_SCHEME_GPUPD_RA;
    run_ok(&s, &c, &r);
    assert_int_equal(r.batches, 1);
    sys_result_free(&r);
    sys_scene_free(&s);
}

static void test_faults_stop_the_run(void **state)
{
    (void)state;
    sys_scene_t s;
    assert_int_equal(sys_scene_synth(&s, "tris", 96, 80, 300, 3), 0);
    sys_config_t c = sys_config_default();
    c.scheme = SYS_SCHEME_GPUPD_RA;
    c.n_gpus = 4;
    c.fault = PE_FAULT_DUP;
    c.fault_at = 3;
    sys_result_t r;
    assert_int_equal(sys_run(&s, &c, &r), -1);
    assert_non_null(strstr(r.err, "ordering invariant"));
    sys_result_free(&r);
    c.fault = PE_FAULT_DROP;
    assert_int_equal(sys_run(&s, &c, &r), -1);
    assert_non_null(strstr(r.err, "accounting"));
    sys_result_free(&r);
    /* a broken P2G mask is caught by the coverage probe (check_masks) */
    c.fault = PE_FAULT_CLEAR_MASK;
    c.check_masks = 1;
    int caught = 0;
    for (uint64_t k = 1; k <= 40 && !caught; k++) {
        c.fault_at = k;
        if (sys_run(&s, &c, &r) != 0) {
            assert_non_null(strstr(r.err, "P2G mask check failed"));
            caught = 1;
        }
        sys_result_free(&r);
    }
    assert_true(caught);
    c.fault = PE_FAULT_NONE;
    assert_int_equal(sys_run(&s, &c, &r), 0);        /* and passes on the sound masks */
    assert_true(r.mask_checks > 0);
    sys_result_free(&r);
    /* bad configurations */
    c = sys_config_default();
    c.n_gpus = 0;
    c.scheme = SYS_SCHEME_GPUPD;
    assert_int_equal(sys_run(&s, &c, &r), -1);
    assert_non_null(strstr(r.err, "gpus"));
    sys_result_free(&r);
    c = sys_config_default();
    c.frame = 7;
    assert_int_equal(sys_run(&s, &c, &r), -1);
    assert_non_null(strstr(r.err, "frame"));
    sys_result_free(&r);
    sys_scene_free(&s);
}

static void test_png_roundtrip(void **state)
{
    (void)state;
    char path[1024];
    const char *t = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/test_sys_png_XXXXXX", t && *t ? t : ".");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    uint32_t px[7 * 5];
    for (int i = 0; i < 35; i++) px[i] = 0x01000000u * (uint32_t)(i * 7) | (uint32_t)(i * 0x030507);
    assert_int_equal(img_write_png(path, px, 7, 5, 1, 1), 0);
    uint32_t *back, w, h;
    char err[128];
    assert_int_equal(img_read_png(path, &back, &w, &h, 1, err), 0);
    assert_int_equal(w, 7);
    assert_int_equal(h, 5);
    assert_memory_equal(back, px, sizeof px);
    free(back);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tris_identical),
        cmocka_unit_test(test_rtt_identical),
        cmocka_unit_test(test_ownership_variants),
        cmocka_unit_test(test_stats_consistent),
        cmocka_unit_test(test_batching_counts),
        cmocka_unit_test(test_faults_stop_the_run),
        cmocka_unit_test(test_png_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
