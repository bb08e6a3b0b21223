/* The saved GTKWave views (tb/<unit>/<unit>.gtkw) copied for one FST: the lockstep harnesses
 * (sim/p2g, sim/pe, sim/simt, sim/system) write one next to every failure window (and for --waves), pointing the
 * view at that FST and at the window's start time, and rewriting the widths of the signals whose width depends on
 * the build's parameters (MAX_GPUS masks, queue counters). One copy of the rewriting for every harness; C, header
 * only (each harness includes it once).
 *
 * Rewriting, line by line:
 * - "[dumpfile]" names the FST; "[timestart]" becomes t0 (kept as saved when t0 == GTKW_VIEW_KEEP_TIME);
 * - "[dumpfile_mtime]", "[dumpfile_size]" and "[savefile]" are dropped (they describe the saved session);
 * - a signal line "scope.name[hi:lo]" (not starting with '['): width(name, range, ctx) may return a new width
 *   w >= 1, written as "scope.name[w-1:0]", or GTKW_VIEW_SCALAR, written as "scope.name" (no range); 0 keeps
 *   the line.
 * A missing template gives a view with only the dumpfile and time lines (and a warning), so a failure still opens;
 * tmpl NULL (a unit without a saved view) gives the same without the warning. */
#ifndef GPUPD_SIM_GTKW_VIEW_H
#define GPUPD_SIM_GTKW_VIEW_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define GTKW_VIEW_KEEP_TIME UINT64_MAX
#define GTKW_VIEW_SCALAR UINT32_MAX

/* name: the signal's own name (after the last '.', before its range), not NUL-terminated (name_len chars);
 * range: the range as saved, e.g. "[15:0]" (NUL-terminated, newline stripped). */
typedef uint32_t (*gtkw_view_width_fn)(const char *name, size_t name_len, const char *range, void *ctx);

static inline int gtkw_view_write(const char *tool, const char *tmpl, const char *out, const char *fst, uint64_t t0,
                           gtkw_view_width_fn width, void *ctx)
{
    FILE *in = tmpl ? fopen(tmpl, "r") : NULL, *o = fopen(out, "w");
    if (!o) {
        fprintf(stderr, "%s: cannot write %s\n", tool, out);
        if (in) fclose(in);
        return -1;
    }
    if (!in) {
        if (tmpl) fprintf(stderr, "%s: no saved view %s: %s has the FST and time only\n", tool, tmpl, out);
        fprintf(o, "[dumpfile] \"%s\"\n", fst);
        if (t0 != GTKW_VIEW_KEEP_TIME) fprintf(o, "[timestart] %" PRIu64 "\n", t0);
        fclose(o);
        return 0;
    }
    char line[1024];
    while (fgets(line, sizeof line, in)) {
        if (!strncmp(line, "[dumpfile]", 10)) { fprintf(o, "[dumpfile] \"%s\"\n", fst); continue; }
        if (!strncmp(line, "[timestart]", 11) && t0 != GTKW_VIEW_KEEP_TIME) {
            fprintf(o, "[timestart] %" PRIu64 "\n", t0);
            continue;
        }
        if (!strncmp(line, "[dumpfile_mtime]", 16) || !strncmp(line, "[dumpfile_size]", 15) || !strncmp(line, "[savefile]", 10))
            continue;
        char *dot = strrchr(line, '.'), *br = strrchr(line, '[');
        uint32_t w = 0;
        if (width && line[0] != '[' && dot && br && br > dot) {
            char range[64];
            size_t rl = strcspn(br, "\r\n");
            if (rl < sizeof range) {
                memcpy(range, br, rl);
                range[rl] = '\0';
                w = width(dot + 1, (size_t)(br - dot - 1), range, ctx);
            }
        }
        if (w == GTKW_VIEW_SCALAR) fprintf(o, "%.*s\n", (int)(br - line), line);
        else if (w) fprintf(o, "%.*s[%u:0]\n", (int)(br - line), line, w - 1);
        else fputs(line, o);
    }
    fclose(in);
    fclose(o);
    return 0;
}

/* 1 when the signal's name (name, name_len) is exactly s. */
static inline int gtkw_view_name_is(const char *name, size_t name_len, const char *s)
{
    return strlen(s) == name_len && !strncmp(name, s, name_len);
}

#endif
