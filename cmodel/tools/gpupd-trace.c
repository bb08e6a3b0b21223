/* gpupd-trace: inspect, validate, dump and rebuild GPUpd traces (docs/trace-format.md). */
#include "trace/trace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr,
            "usage: gpupd-trace info FILE...          frames, draws, primitives, resolution, RT switches, deps\n"
            "       gpupd-trace table FILE...         one Markdown table row per trace (traces/README.md)\n"
            "       gpupd-trace validate FILE...      full validation; exit 1 on the first bad file\n"
            "       gpupd-trace draws FILE            one line per draw (prims, targets, deps, ref pixels)\n"
            "       gpupd-trace dump FILE [OUT.txt]   lossless text dump (stdout by default)\n"
            "       gpupd-trace undump IN.txt OUT     text dump back to the binary (byte-identical)\n"
            "       gpupd-trace synth OUT [ZLEVEL]    write the small synthetic test trace\n");
    return 2;
}

static trace_reader_t *open_or_die(const char *path)
{
    trace_error_t err;
    trace_reader_t *r = trace_reader_open_file(path, 0, &err);
    if (!r) fprintf(stderr, "gpupd-trace: %s: %s\n", path, err.msg);
    return r;
}

static int cmd_info(int argc, char **argv, int table)
{
    int bad = 0;
    if (table) {
        printf("| trace | resolution | frames | draws | max draws/frame | primitives | RT switches | RAW deps | RAW dep MB | approx. draws |\n");
        printf("|---|---|---|---|---|---|---|---|---|---|\n");
    }
    for (int i = 0; i < argc; i++) {
        trace_reader_t *r = open_or_die(argv[i]);
        if (!r) { bad = 1; continue; }
        trace_error_t err;
        trace_summary_t s;
        const trace_info_t *info = trace_reader_info(r);
        if (trace_summarize(r, &s, &err)) {
            fprintf(stderr, "gpupd-trace: %s: %s\n", argv[i], err.msg);
            bad = 1;
        } else if (table) {
            printf("| %s | %ux%u | %u | %u | %u | %" PRIu64 " | %u | %u | %.2f | %u |\n", info->name, s.width, s.height,
                   s.frames, s.draws, s.max_draws_per_frame, s.prims, s.rt_switches, s.raw_deps,
                   (double)s.raw_dep_bytes / 1048576.0, s.approx_draws);
        } else {
            printf("%s\n", argv[i]);
            printf("  name          %s\n", info->name);
            printf("  source        %s\n", info->source);
            printf("  resolution    %ux%u\n", s.width, s.height);
            printf("  frames        %u\n", s.frames);
            printf("  draws         %u (max %u per frame), clears %u\n", s.draws, s.max_draws_per_frame, s.clears);
            printf("  primitives    %" PRIu64 " triangles (%" PRIu64 " vertices, %" PRIu64 " indices)\n", s.prims,
                   s.verts, s.indices);
            printf("  surfaces      %u definitions, programs %u\n", s.surfaces, s.programs);
            printf("  rt switches   %u\n", s.rt_switches);
            printf("  raw deps      %u (in %u draws, %.2f MB sampled after being rendered)\n", s.raw_deps,
                   s.raw_dep_draws, (double)s.raw_dep_bytes / 1048576.0);
            printf("  approximated  %u draws (converter could not reproduce exactly)\n", s.approx_draws);
            printf("  ref pixels    %" PRId64 " (sum of glretrace --ppd counts)\n", s.ref_pixels);
            if (info->notes && *info->notes) printf("  notes         %s\n", info->notes);
        }
        trace_reader_close(r);
    }
    return bad;
}

static int cmd_validate(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        trace_reader_t *r = open_or_die(argv[i]);
        if (!r) return 1;
        trace_cmd_t cmd = {0};
        trace_error_t err;
        int rc;
        uint64_t n = 0;
        while ((rc = trace_reader_next(r, &cmd, &err)) == 1) n++;
        trace_cmd_free(&cmd);
        trace_reader_close(r);
        if (rc < 0) {
            fprintf(stderr, "gpupd-trace: %s: INVALID: %s\n", argv[i], err.msg);
            return 1;
        }
        printf("%s: OK (%" PRIu64 " commands)\n", argv[i], n);
    }
    return 0;
}

static int cmd_draws(const char *path)
{
    trace_reader_t *r = open_or_die(path);
    if (!r) return 1;
    trace_cmd_t cmd = {0};
    trace_error_t err;
    int rc;
    uint32_t frame = 0;
    printf("frame\tdraw\tcall\tprims\tverts\tvs\tfs\tcolor\tdepth\ttex\tdeps\tref_pixels\tflags\n");
    while ((rc = trace_reader_next(r, &cmd, &err)) == 1) {
        if (cmd.type == TRACE_CMD_FRAME_BEGIN) frame = cmd.u.frame.index;
        if (cmd.type != TRACE_CMD_DRAW) continue;
        const trace_draw_t *d = &cmd.u.draw;
        const trace_program_t *vs = trace_reader_program(r, d->vs_prog), *fs = trace_reader_program(r, d->fs_prog);
        printf("%u\t%u\t%u\t%u\t%u\t%s\t%s\t%d\t%d\t%u\t%u\t%" PRId64 "\t%u\n", frame, d->index, d->src_call,
               trace_draw_prims(d), d->n_verts, vs ? vs->name : "-", fs ? fs->name : "-",
               d->n_color ? (int)d->color[0] : -1, d->depth == TRACE_NONE ? -1 : (int)d->depth, d->n_tex, d->n_deps,
               d->ref_pixels, d->flags);
    }
    trace_cmd_free(&cmd);
    trace_reader_close(r);
    if (rc < 0) { fprintf(stderr, "gpupd-trace: %s: %s\n", path, err.msg); return 1; }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) return usage();
    const char *c = argv[1];
    if (!strcmp(c, "info")) return cmd_info(argc - 2, argv + 2, 0);
    if (!strcmp(c, "table")) return cmd_info(argc - 2, argv + 2, 1);
    if (!strcmp(c, "validate")) return cmd_validate(argc - 2, argv + 2);
    if (!strcmp(c, "draws")) return cmd_draws(argv[2]);
    if (!strcmp(c, "dump")) {
        trace_reader_t *r = open_or_die(argv[2]);
        if (!r) return 1;
        FILE *out = argc > 3 ? fopen(argv[3], "w") : stdout;
        if (!out) { perror(argv[3]); trace_reader_close(r); return 1; }
        trace_error_t err;
        int rc = trace_dump_text(r, out, &err);
        trace_reader_close(r);
        if (out != stdout && fclose(out)) rc = -1;
        if (rc) { fprintf(stderr, "gpupd-trace: %s: %s\n", argv[2], err.msg); return 1; }
        return 0;
    }
    if (!strcmp(c, "undump")) {
        if (argc < 4) return usage();
        FILE *in = strcmp(argv[2], "-") ? fopen(argv[2], "r") : stdin;
        if (!in) { perror(argv[2]); return 1; }
        trace_error_t err;
        int rc = trace_undump_text(in, argv[3], &err);
        if (in != stdin) fclose(in);
        if (rc) { fprintf(stderr, "gpupd-trace: %s: %s\n", argv[2], err.msg); return 1; }
        return 0;
    }
    if (!strcmp(c, "synth")) {
        trace_error_t err;
        int z = argc > 3 ? atoi(argv[3]) : 6;
        if (trace_write_synthetic(argv[2], z, &err)) { fprintf(stderr, "gpupd-trace: synth: %s\n", err.msg); return 1; }
        return 0;
    }
    return usage();
}
