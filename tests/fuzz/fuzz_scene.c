/* libFuzzer target: a trace FILE (CRCs fixed up) into the golden model: sys_scene_from_trace (the scene
 * conversion, which reads and validates the whole trace), then, for small scenes, a short render: `single`
 * and `gpupd` on 3 GPUs with the P2G mask probe on, which must give the same frame (SPEC 2) -- and the
 * converter-check rasterizer of `gpupd-trace coverage`, where the INT32 overflows of issue 12 lived.
 * Resource bounds keep every execution short: screens up to 256x256, at most 4096 primitives per frame,
 * 64 MiB of surfaces. Seeds: tests/fuzz/seeds/trace. */
#include "fuzz_common.h"
#include "sys/sys.h"
#include "sys/trace_scene.h"

/* the coverage rasterizer is part of the tool: include it with its main renamed */
#define main gpupd_trace_main
#include "../../cmodel/tools/gpupd-trace.c"
#undef main

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    uint8_t *b = malloc(size ? size : 1);
    if (!b) return 0;
    memcpy(b, data, size);
    fz_fix_crcs(b, size);
    const char *path = fz_path(".s.gpt");
    int wr = fz_write(path, b, size);
    free(b);
    if (wr) return 0;
    sys_scene_t s;
    sys_trace_info_t ti;
    char err[512];
    if (sys_scene_from_trace(&s, path, 0, &ti, err, sizeof err) == 0) {
        uint64_t prims = 0, pix = 0;
        for (uint32_t f = 0; f < s.n_frames; f++)
            for (size_t i = 0; i < s.frames[f].n; i++)
                if (s.frames[f].cmds[i].kind == SYS_CMD_DRAW) prims += gpu_draw_prim_count(&s.frames[f].cmds[i].draw);
        for (uint32_t i = 0; i < s.n_surf; i++) pix += (uint64_t)s.surf[i].w * s.surf[i].h;
        if (s.width <= 256 && s.height <= 256 && prims <= 4096 && pix <= (1u << 20)) {
            sys_config_t c = sys_config_default();
            c.mem_limit_mb = 64;
            sys_result_t ref, got;
            int rr = sys_run(&s, &c, &ref);
            c.scheme = SYS_SCHEME_GPUPD;
            c.n_gpus = 3;
            c.check_masks = 1;
            int rg = sys_run(&s, &c, &got);
            if (rr == 0 && rg == 0) {
                if (ref.w != got.w || ref.h != got.h ||
                    memcmp(ref.pixels, got.pixels, (size_t)ref.w * ref.h * 4) != 0) {
                    fprintf(stderr, "gpupd frame differs from single\n");
                    abort();
                }
            } else if (rr == 0 && rg != 0 && strstr(got.err, "P2G mask check failed")) {
                fprintf(stderr, "%s\n", got.err);
                abort();
            }
            sys_result_free(&ref);
            sys_result_free(&got);
            /* the converter check rasterizer on the same file */
            char *argv[] = {(char *)"gpupd-trace", (char *)"coverage", (char *)path, NULL};
            (void)gpupd_trace_main(3, argv);
        }
        sys_scene_free(&s);
    }
    remove(path);
    return 0;
}
