/* gpupd-isa-run: run one ISA program on one warp of the interpreter with inputs given on stdin and print
 * its outputs. Used by the shader-compiler tests (tests/shaders/test_compiler.py) to execute compiled
 * GLSL on the real interpreter.
 *
 *   gpupd-isa-run PROG.bin [--outs N] < inputs
 *
 * inputs: whitespace-separated records
 *   lanes N                  launch N lanes (1..32, default 1)
 *   c WORD VALUE             constant bank word (VALUE: a float, or 0xHEX raw bits)
 *   a LANE WORD VALUE        attribute word of one lane
 *   o LANE WORD VALUE        preset output word (e.g. the fragment depth o[4])
 * output: one line per lane: "lane L:" then N output words as floats (%.9g), then "bits" and the hex words.
 * Textures: no sampler is attached, so tex returns (s, t, 0, 1) (docs/isa.md section 7).
 * Exit status: 0 done, 1 the program failed (status printed), 2 usage/input error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/outfile.h"
#include "isa/isa.h"

static int parse_val(const char *s, uint32_t *v)
{
    char *e;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        unsigned long x = strtoul(s, &e, 16);
        if (*e || x > 0xFFFFFFFFul) return -1;
        *v = (uint32_t)x;
        return 0;
    }
    float f = strtof(s, &e);
    if (*e || e == s) return -1;
    *v = isa_float_bits(f);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    unsigned outs = 8;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--outs") && i + 1 < argc) outs = (unsigned)atoi(argv[++i]);
        else if (!path) path = argv[i];
        else { fprintf(stderr, "usage: gpupd-isa-run PROG.bin [--outs N] < inputs\n"); return 2; }
    }
    if (!path || outs < 1 || outs > ISA_OUT_WORDS) { fprintf(stderr, "usage: gpupd-isa-run PROG.bin [--outs N] < inputs\n"); return 2; }
    char ferr[600];
    FILE *f = inf_open(path, 1, ferr, sizeof ferr);   /* a directory is an error, not an empty program */
    if (!f) { fprintf(stderr, "gpupd-isa-run: %s\n", ferr); return 2; }
    static uint64_t code[ISA_MAX_CODE];
    size_t n = fread(code, 8, ISA_MAX_CODE, f);
    if (inf_close(f)) { fprintf(stderr, "gpupd-isa-run: %s: read error\n", path); return 2; }
    int rc = 2;   /* every exit below goes through done: (no allocation outlives an error) */
    isa_ctx_t *ctx = isa_ctx_new();
    isa_warp_t *w = isa_warp_new();
    if (!ctx || !w) { fprintf(stderr, "gpupd-isa-run: out of memory\n"); goto done; }
    uint32_t bad = 0;
    if (isa_ctx_load(ctx, code, (uint32_t)n, &bad) != ISA_OK) { fprintf(stderr, "%s: cannot load (pc %u)\n", path, bad); goto done; }
    unsigned lanes = 1;
    static uint32_t attr[ISA_ATTR_WORDS][ISA_WARP_SIZE], pre[ISA_OUT_WORDS][ISA_WARP_SIZE];
    char tok[64], t1[64], t2[64], t3[64];
    while (scanf("%63s", tok) == 1) {
        uint32_t v;
        if (!strcmp(tok, "lanes")) {
            if (scanf("%u", &lanes) != 1 || lanes < 1 || lanes > 32) { fprintf(stderr, "bad lanes\n"); goto done; }
        } else if (!strcmp(tok, "c")) {
            unsigned wd;
            if (scanf("%u %63s", &wd, t1) != 2 || wd >= ISA_CONST_WORDS || parse_val(t1, &v)) { fprintf(stderr, "bad c record\n"); goto done; }
            ctx->konst[wd] = v;
        } else if (!strcmp(tok, "a") || !strcmp(tok, "o")) {
            unsigned l, wd;
            if (scanf("%63s %63s %63s", t1, t2, t3) != 3) { fprintf(stderr, "bad %s record\n", tok); goto done; }
            l = (unsigned)atoi(t1);
            wd = (unsigned)atoi(t2);
            if (l >= 32 || wd >= 64 || parse_val(t3, &v)) { fprintf(stderr, "bad %s record\n", tok); goto done; }
            if (tok[0] == 'a') attr[wd][l] = v;
            else pre[wd][l] = v;
        } else {
            fprintf(stderr, "unknown record '%s'\n", tok);
            goto done;
        }
    }
    isa_warp_init(w, 0, lanes >= 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1));
    memcpy(w->attr, attr, sizeof attr);
    memcpy(w->out, pre, sizeof pre);
    int st = isa_run(ctx, w, 1u << 22);
    if (st != ISA_DONE) { fprintf(stderr, "%s: %s\n", path, isa_status_str(st)); rc = 1; goto done; }
    for (unsigned l = 0; l < lanes; l++) {
        printf("lane %u:", l);
        for (unsigned k = 0; k < outs; k++) printf(" %.9g", (double)isa_bits_float(w->out[k][l]));
        printf(" bits");
        for (unsigned k = 0; k < outs; k++) printf(" %08x", w->out[k][l]);
        printf(" exited %u\n", (w->exited >> l) & 1u);
    }
    printf("instructions %llu\n", (unsigned long long)w->n_instrs);
    rc = 0;
done:
    isa_ctx_free(ctx);
    isa_warp_free(w);
    return rc;
}
