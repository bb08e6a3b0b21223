/* gpupd-as: GPUpd shader assembler.  gpupd-as in.s -o out.bin   ("-" reads standard input)
 * Output: the instructions as 64-bit little-endian words, nothing else (docs/isa.md). The output is written
 * to a temporary file and renamed into place only when assembly succeeded (cmodel/common/outfile.h).
 * Exit status: 0 ok, 1 assembly or I/O error, 2 bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/outfile.h"
#include "isa/isa.h"

/* Largest source accepted (a full ISA_MAX_CODE program is far smaller). */
#define AS_MAX_SOURCE (16u << 20)

/* Whole file as a NUL-terminated string; NULL with a reason in err. */
static char *slurp(const char *path, char *err, size_t err_len)
{
    FILE *f = inf_open(path, 0, err, err_len);
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            snprintf(err, err_len, "cannot read %s: out of memory", path);
            inf_close(f);
            return NULL;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (n > AS_MAX_SOURCE) {
            snprintf(err, err_len, "cannot read %s: larger than %u bytes", path, AS_MAX_SOURCE);
            free(buf);
            inf_close(f);
            return NULL;
        }
        if (n + 1 == cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    buf[n] = 0;
    if (inf_close(f)) {
        snprintf(err, err_len, "cannot read %s: read error", path);
        free(buf);
        return NULL;
    }
    if (strlen(buf) != n) {
        snprintf(err, err_len, "cannot read %s: contains NUL bytes (not assembly text)", path);
        free(buf);
        return NULL;
    }
    return buf;
}

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 >= argc || out) bad = 1;
            else out = argv[++i];
        } else if (!in && (argv[i][0] != '-' || !strcmp(argv[i], "-")))
            in = argv[i];
        else
            bad = 1;
    }
    if (bad || !in || !out) {
        fprintf(stderr, "usage: gpupd-as in.s -o out.bin\n");
        return 2;
    }
    char err[600];
    if (outf_check(out, err, sizeof err)) {
        fprintf(stderr, "gpupd-as: -o: %s\n", err);
        return 2;
    }
    char *text = slurp(in, err, sizeof err);
    if (!text) {
        fprintf(stderr, "gpupd-as: %s\n", err);
        return 1;
    }
    uint64_t *code = malloc(sizeof(uint64_t) * ISA_MAX_CODE);
    isa_asm_err_t aerr;
    int n = code ? isa_assemble(text, code, ISA_MAX_CODE, &aerr) : -1;
    if (n < 0) {
        if (code)
            fprintf(stderr, "%s:%d:%d: error: %s\n", in, aerr.line, aerr.col, aerr.msg);
        else
            fprintf(stderr, "gpupd-as: out of memory\n");
        free(code);
        free(text);
        return 1;
    }
    outf_t of;
    if (outf_open(&of, out, 1, err, sizeof err)) {
        fprintf(stderr, "gpupd-as: %s\n", err);
        free(code);
        free(text);
        return 1;
    }
    for (int i = 0; i < n; i++) {
        unsigned char b[8];
        for (int k = 0; k < 8; k++)
            b[k] = (unsigned char)(code[i] >> (8 * k));
        fwrite(b, 1, 8, of.f);
    }
    free(code);
    free(text);
    if (outf_commit(&of, err, sizeof err)) {
        fprintf(stderr, "gpupd-as: %s\n", err);
        return 1;
    }
    return 0;
}
