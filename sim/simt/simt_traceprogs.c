/* The programs stored in traces (PROG commands with instruction words), for the SIMT lockstep
 * (sim/simt/simt_cosim.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_cosim.h"
#include "trace/trace.h"

/* every program stored in a trace (PROG commands with instruction words) */
int load_trace_programs(const char *path, tprog_t **out, int *n_out)
{
    trace_error_t err;
    trace_reader_t *r = trace_reader_open_file(path, 0, &err);
    if (!r) {
        fprintf(stderr, "cosim-simt: %s: %s\n", path, err.msg);
        return -1;
    }
    trace_cmd_t cmd;
    memset(&cmd, 0, sizeof cmd);
    int rc, n = *n_out;
    while ((rc = trace_reader_next(r, &cmd, &err)) == 1) {
        if (cmd.type != TRACE_CMD_PROGRAM || cmd.u.program.n_words < 2)
            continue;
        tprog_t *np = realloc(*out, (size_t)(n + 1) * sizeof *np);
        if (!np)
            break;
        *out = np;
        tprog_t *t = &np[n];
        uint32_t m = cmd.u.program.n_words / 2;
        int dup = 0;
        for (int k = 0; k < n && !dup; k++) {
            dup = np[k].n == m;
            for (uint32_t i = 0; i < m && dup; i++)
                dup = np[k].words[i] == ((uint64_t)cmd.u.program.words[2 * i] | ((uint64_t)cmd.u.program.words[2 * i + 1] << 32));
        }
        if (dup)
            continue;
        t->words = malloc((m ? m : 1) * sizeof *t->words);
        if (!t->words)
            break;
        for (uint32_t i = 0; i < m; i++)
            t->words[i] = (uint64_t)cmd.u.program.words[2 * i] | ((uint64_t)cmd.u.program.words[2 * i + 1] << 32);
        t->n = m;
        const char *base = strrchr(path, '/');
        snprintf(t->name, sizeof t->name, "%.40s prog %u %.40s", base ? base + 1 : path, cmd.u.program.id,
                 cmd.u.program.name ? cmd.u.program.name : "");
        n++;
    }
    trace_cmd_free(&cmd);
    trace_reader_close(r);
    if (rc < 0) {
        fprintf(stderr, "cosim-simt: %s: %s\n", path, err.msg);
        return -1;
    }
    *n_out = n;
    return 0;
}
