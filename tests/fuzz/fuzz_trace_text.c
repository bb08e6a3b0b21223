/* libFuzzer target: the text form (gpupd-trace undump) through trace_undump_text from a memory stream and
 * from a file; whatever it accepts must read back as a valid binary trace. Seeds: tests/fuzz/seeds/text. */
#include "fuzz_common.h"
#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    const char *bp = fz_path(".u.gpt");
    FILE *f = fmemopen((void *)data, size ? size : 1, "r");
    if (!f) return 0;
    trace_error_t err;
    int rc = size ? trace_undump_text(f, bp, &err) : -1;
    fclose(f);
    if (rc == 0) {
        trace_reader_t *r = trace_reader_open_file(bp, 0, &err);
        if (!r) { fprintf(stderr, "undump wrote an unreadable trace: %s\n", err.msg); abort(); }
        trace_cmd_t cmd = {0};
        int k;
        while ((k = trace_reader_next(r, &cmd, &err)) == 1) {}
        if (k != 0) { fprintf(stderr, "undump wrote an invalid trace: %s\n", err.msg); abort(); }
        trace_cmd_free(&cmd);
        trace_reader_close(r);
    }
    remove(bp);
    return 0;
}
