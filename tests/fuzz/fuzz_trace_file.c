/* libFuzzer target: a trace FILE through the whole reader surface with its normal options (CRCs fixed up so
 * mutations reach the parsers): trace_reader_open_file + every command, trace_summarize, trace_dump_text of
 * the whole trace, and the dump parsed back by trace_undump_text (must succeed when the binary was valid).
 * Any crash, sanitizer report, leak or hang is a bug; errors must be reported, never a success on a bad
 * file. Seeds: tests/fuzz/seeds/trace (small valid traces, make_seeds.py). */
#include "fuzz_common.h"
#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    uint8_t *b = malloc(size ? size : 1);
    if (!b) return 0;
    memcpy(b, data, size);
    fz_fix_crcs(b, size);
    const char *path = fz_path(".gpt");
    if (fz_write(path, b, size)) { free(b); return 0; }
    free(b);
    trace_error_t err;
    /* 1: every command */
    trace_reader_t *r = trace_reader_open_file(path, 0, &err);
    int valid = 0;
    if (r) {
        trace_cmd_t cmd = {0};
        int rc, n = 0;
        while ((rc = trace_reader_next(r, &cmd, &err)) == 1 && n < 200000) {
            if (cmd.type == TRACE_CMD_DRAW) {
                const trace_draw_t *d = &cmd.u.draw;
                volatile float acc = 0;
                for (uint32_t i = 0; i < d->n_indices; i++) acc += d->verts[(size_t)d->indices[i] * d->stride];
                (void)acc;
                (void)trace_reader_program(r, d->vs_prog);
                (void)trace_reader_surface(r, d->depth);
            }
            n++;
        }
        valid = rc == 0;
        trace_cmd_free(&cmd);
        trace_reader_close(r);
    }
    /* 2: summary */
    r = trace_reader_open_file(path, 0, &err);
    if (r) {
        trace_summary_t s;
        int rc = trace_summarize(r, &s, &err);
        if ((rc == 0) != valid) abort();   /* the summary must agree with a full read */
        trace_reader_close(r);
    }
    /* 3: text dump, and the dump must undump (lossless) when the binary was valid */
    r = trace_reader_open_file(path, 0, &err);
    if (r) {
        const char *tp = fz_path(".txt"), *bp = fz_path(".rt.gpt");
        FILE *f = fopen(tp, "w");
        if (f) {
            int rc = trace_dump_text(r, f, &err);
            fclose(f);
            if ((rc == 0) != valid) abort();
            if (rc == 0) {
                FILE *in = fopen(tp, "r");
                if (in) {
                    trace_error_t e2;
                    if (trace_undump_text(in, bp, &e2) != 0) {
                        fprintf(stderr, "dump of a valid trace does not undump: %s\n", e2.msg);
                        abort();
                    }
                    fclose(in);
                    remove(bp);
                }
            }
            remove(tp);
        }
        trace_reader_close(r);
    }
    remove(path);
    return 0;
}
