/* gpupd-as: GPUpd shader assembler.  gpupd-as in.s -o out.bin
 * Output: the instructions as 64-bit little-endian words, nothing else (docs/isa.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

static char *slurp(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            return NULL;
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (n + 1 == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    buf[n] = 0;
    if (f != stdin)
        fclose(f);
    if (strlen(buf) != n) {
        free(buf);
        return NULL;
    }
    return buf;
}

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!in)
            in = argv[i];
        else
            in = NULL, i = argc;
    }
    if (!in || !out) {
        fprintf(stderr, "usage: gpupd-as in.s -o out.bin\n");
        return 2;
    }
    char *text = slurp(in);
    if (!text) {
        fprintf(stderr, "gpupd-as: cannot read %s (missing, unreadable or contains NUL bytes)\n", in);
        return 1;
    }
    uint64_t *code = malloc(sizeof(uint64_t) * ISA_MAX_CODE);
    isa_asm_err_t err;
    int n = code ? isa_assemble(text, code, ISA_MAX_CODE, &err) : -1;
    if (n < 0) {
        fprintf(stderr, "%s:%d:%d: error: %s\n", in, err.line, err.col, err.msg);
        return 1;
    }
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "gpupd-as: cannot write %s\n", out);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        unsigned char b[8];
        for (int k = 0; k < 8; k++)
            b[k] = (unsigned char)(code[i] >> (8 * k));
        fwrite(b, 1, 8, f);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "gpupd-as: error writing %s\n", out);
        return 1;
    }
    free(code);
    free(text);
    return 0;
}
