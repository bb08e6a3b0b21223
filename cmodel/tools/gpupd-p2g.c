/* gpupd-p2g: the P2G functional definition as a command-line filter (a stable interface for outside checks).
 *
 *   gpupd-p2g --gpus N --width W --height H [--tile-log2 5] [--mode diag|linear] [--scissor X0,Y0,X1,Y1]
 *
 * stdin:  one primitive per line: prim_id x0 y0 x1 y1 x2 y2 flags (decimal; coordinates signed 1/256 pixel
 *         in [-8388608, 8388607]; flags bit 0 culled, bit 1 near_clip). Empty lines and lines starting
 *         with '#' are skipped.
 * stdout: prim_id mask, mask in lowercase hexadecimal without prefix, one line per primitive, input order.
 * Errors: message with the line number on stderr, exit status 2. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "p2g/p2g.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpupd-p2g --gpus N --width W --height H [--tile-log2 5] [--mode diag|linear]\n"
            "                 [--scissor X0,Y0,X1,Y1]\n"
            "reads 'prim_id x0 y0 x1 y1 x2 y2 flags' lines on stdin (coordinates in 1/256 pixel,\n"
            "flags bit0 culled, bit1 near_clip), prints 'prim_id mask' (mask in hex) per line.\n");
}

static int die_arg(const char *opt, const char *val, const char *why)
{
    fprintf(stderr, "gpupd-p2g: bad value '%s' for %s: %s\n", val ? val : "(missing)", opt, why);
    return 2;
}

/* Parse one decimal integer token into [lo, hi]. Returns 0 or -1. */
static int parse_field(char **p, int64_t lo, int64_t hi, int64_t *out)
{
    char *s = *p, *end;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '\0' || *s == '\n' || *s == '\r') return -2; /* missing */
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r')) return -1;
    if (errno || v < lo || v > hi) return -3;
    *out = v;
    *p = end;
    return 0;
}

int main(int argc, char **argv)
{
    uint32_t n = 0, w = 0, h = 0, ts = 5;
    int have_sc = 0;
    uint32_t sc[4] = {0, 0, 0, 0};
    p2g_mode_t mode = P2G_MODE_DIAG;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        const char *T = "gpupd-p2g";
        if (!strcmp(a, "--gpus")) {
            if (arg_u32(T, a, v, 1, P2G_MAX_GPUS, &n)) return 2;
        } else if (!strcmp(a, "--width")) {
            if (arg_u32(T, a, v, 1, P2G_MAX_DIM, &w)) return 2;
        } else if (!strcmp(a, "--height")) {
            if (arg_u32(T, a, v, 1, P2G_MAX_DIM, &h)) return 2;
        } else if (!strcmp(a, "--tile-log2")) {
            if (arg_u32(T, a, v, 0, P2G_MAX_TILE_LOG2, &ts)) return 2;
        } else if (!strcmp(a, "--mode")) {
            if (v && !strcmp(v, "diag")) mode = P2G_MODE_DIAG;
            else if (v && !strcmp(v, "linear")) mode = P2G_MODE_LINEAR;
            else return die_arg(a, v, "expected diag or linear");
        } else if (!strcmp(a, "--scissor")) {
            uint32_t k = 0;
            if (arg_u32_list(T, a, v, 0, P2G_MAX_DIM - 1, sc, 4, &k)) return 2;
            if (k != 4) return die_arg(a, v, "expected exactly four numbers X0,Y0,X1,Y1 (inclusive pixels 0..16383)");
            /* The unit maps an inverted scissor to an empty region (mask 0 for everything, docs/p2g.md); given
             * on the command line it is a mistake, never what a caller means. */
            if (sc[2] < sc[0] || sc[3] < sc[1])
                return die_arg(a, v, sc[2] < sc[0] ? "inverted rectangle: X1 < X0 (inclusive pixels, need X0 <= X1 and Y0 <= Y1)"
                                                   : "inverted rectangle: Y1 < Y0 (inclusive pixels, need X0 <= X1 and Y0 <= Y1)");
            have_sc = 1;
        } else {
            fprintf(stderr, "gpupd-p2g: unknown argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (!n || !w || !h) {
        fprintf(stderr, "gpupd-p2g: --gpus, --width and --height are required\n");
        usage(stderr);
        return 2;
    }
    p2g_config_t cfg = p2g_config_default(n, w, h);
    cfg.tile_log2 = ts;
    cfg.mode = mode;
    if (have_sc) { cfg.sc_x0 = sc[0]; cfg.sc_y0 = sc[1]; cfg.sc_x1 = sc[2]; cfg.sc_y1 = sc[3]; }
    const char *bad = p2g_config_check(&cfg);
    if (bad) { fprintf(stderr, "gpupd-p2g: bad configuration: %s\n", bad); return 2; }

    static const char *const names[8] = {"prim_id", "x0", "y0", "x1", "y1", "x2", "y2", "flags"};
    char line[4096];
    unsigned long lineno = 0;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            fprintf(stderr, "gpupd-p2g: line %lu: line too long\n", lineno);
            return 2;
        }
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\n' || *p == '\r' || *p == '\0' || *p == '#') continue;
        int64_t f[8];
        for (int k = 0; k < 8; k++) {
            int64_t lo = k == 0 ? 0 : (k == 7 ? 0 : P2G_COORD_MIN);
            int64_t hi = k == 0 ? UINT32_MAX : (k == 7 ? 3 : P2G_COORD_MAX);
            int rc = parse_field(&p, lo, hi, &f[k]);
            if (rc == -2) {
                fprintf(stderr, "gpupd-p2g: line %lu: missing field '%s' (expected 8 fields: "
                                "prim_id x0 y0 x1 y1 x2 y2 flags)\n", lineno, names[k]);
                return 2;
            }
            if (rc == -1) {
                fprintf(stderr, "gpupd-p2g: line %lu: field '%s' is not a decimal integer\n", lineno, names[k]);
                return 2;
            }
            if (rc == -3) {
                fprintf(stderr, "gpupd-p2g: line %lu: field '%s' out of range [%" PRId64 ", %" PRId64 "]\n",
                        lineno, names[k], lo, hi);
                return 2;
            }
        }
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (*p) {
            fprintf(stderr, "gpupd-p2g: line %lu: extra text after 8 fields: '%.40s'\n", lineno, p);
            return 2;
        }
        p2g_prim_t prim = {(uint32_t)f[0], 0, {(int32_t)f[1], (int32_t)f[3], (int32_t)f[5]},
                           {(int32_t)f[2], (int32_t)f[4], (int32_t)f[6]}, (uint32_t)f[7]};
        printf("%" PRIu32 " %" PRIx64 "\n", prim.prim_id, p2g_mask(&cfg, &prim));
    }
    if (ferror(stdin)) { fprintf(stderr, "gpupd-p2g: read error on stdin\n"); return 2; }
    return fflush(stdout) == 0 ? 0 : 2;
}
