/* Vertex and fragment shading on the ISA interpreter gives the same pixels as the built-in programs
 * (same FP operation order: mul then mad chains, RNE, no fused ops), including texture sampling through
 * the GPU's texture units; each GPU has its own interpreter context. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/isa_backend.h"
#include "sys/scene_gen.h"
#include "sys/sys.h"

static void render_scene(const char *name, uint32_t frame, int isa, uint64_t *hash)
{
    sys_scene_t s;
    assert_int_equal(sys_scene_synth(&s, name, 96, 72, 240, 9), 0);
    gpu_isa_library_t lib;
    char err[256];
    if (isa) {
        if (gpu_isa_library_load(&lib, err, sizeof err)) fail_msg("%s", err);
        int conv = 0;
        for (uint32_t f = 0; f < s.n_frames; f++)
            for (size_t i = 0; i < s.frames[f].n; i++)
                if (s.frames[f].cmds[i].kind == SYS_CMD_DRAW) conv += gpu_isa_convert_draw(&s.frames[f].cmds[i].draw, &lib);
        assert_true(conv > 0);
    }
    sys_config_t c = sys_config_default();
    c.frame = frame;
    c.isa = isa;
    c.scheme = isa ? SYS_SCHEME_GPUPD_RA : SYS_SCHEME_SINGLE;
    c.n_gpus = 3;
    sys_result_t r;
    if (sys_run(&s, &c, &r)) fail_msg("%s", r.err);
    *hash = sys_frame_hash(r.pixels, (size_t)r.w * r.h);
    sys_result_free(&r);
    if (isa) gpu_isa_library_free(&lib);
    sys_scene_free(&s);
}

static void test_isa_equals_builtin(void **state)
{
    (void)state;
    uint64_t a, b;
    render_scene("tris", 0, 0, &a);
    render_scene("tris", 0, 1, &b);
    if (a != b) fail_msg("tris: built-in %016llx != ISA %016llx", (unsigned long long)a, (unsigned long long)b);
    render_scene("rtt", 1, 0, &a);
    render_scene("rtt", 1, 1, &b);
    if (a != b) fail_msg("rtt: built-in %016llx != ISA %016llx", (unsigned long long)a, (unsigned long long)b);
}

static void test_library_errors(void **state)
{
    (void)state;
    gpu_isa_prog_t p;
    char err[256];
    assert_int_equal(gpu_isa_prog_library(&p, "no_such_shader", err, sizeof err), -1);
    assert_non_null(strstr(err, "no_such_shader"));
    assert_int_equal(gpu_isa_prog_library(&p, "vs_mvp", err, sizeof err), 0);
    assert_true(p.n > 10);
    gpu_isa_prog_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa_equals_builtin),
        cmocka_unit_test(test_library_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
