/* libFuzzer target: the trace reader and the text undumper must reject any input with an error, never
 * crash, hang, leak or allocate hugely. Built by mk/trace.mk (make test-trace-fuzz / make fuzz-trace). */
#include "trace/trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void read_all(const uint8_t *data, size_t size, unsigned opts)
{
    trace_error_t err;
    trace_reader_t *r = trace_reader_open_mem(data, size, opts, &err);
    if (!r) return;
    trace_cmd_t cmd = {0};
    int n = 0;
    while (trace_reader_next(r, &cmd, &err) == 1 && n < 100000) {
        if (cmd.type == TRACE_CMD_DRAW) {   /* touch what the reader promises is valid */
            const trace_draw_t *d = &cmd.u.draw;
            volatile float acc = 0;
            for (uint32_t i = 0; i < d->n_indices; i++) acc += d->verts[(size_t)d->indices[i] * d->stride];
            (void)acc;
        }
        n++;
    }
    trace_cmd_free(&cmd);
    trace_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_all(data, size, TRACE_OPT_NO_CRC);
    if (size && data[0] == 'G' && size < 4096) read_all(data, size, 0);
    /* The text parser on the same bytes (first byte '%' selects it to keep most runs on the binary). */
    if (size > 1 && data[0] == '%') {
        FILE *f = fmemopen((void *)(data + 1), size - 1, "r");
        if (f) {
            char path[64];
            snprintf(path, sizeof path, "fuzz-trace-undump-%d.gpt", (int)getpid());
            trace_error_t err;
            trace_undump_text(f, path, &err);
            fclose(f);
            remove(path);
        }
    }
    return 0;
}
