/* gpupd-dis: GPUpd shader disassembler.  gpupd-dis in.bin   (assembly to standard output; it
 * re-assembles with gpupd-as to the identical binary). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/outfile.h"
#include "isa/isa.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gpupd-dis in.bin\n");
        return 2;
    }
    char err[600];
    FILE *f = inf_open(argv[1], 1, err, sizeof err);
    if (!f) {
        fprintf(stderr, "gpupd-dis: %s\n", err);
        return 1;
    }
    uint64_t *code = malloc(sizeof(uint64_t) * (ISA_MAX_CODE + 1));
    uint64_t *back = NULL;
    char *text = NULL;
    int rc = 1;   /* every exit below goes through done: (no allocation outlives an error) */
    uint32_t n = 0;
    unsigned char b[8];
    size_t got;
    while (code && (got = fread(b, 1, 8, f)) > 0) {
        if (got != 8) {
            fprintf(stderr, "gpupd-dis: %s: size is not a multiple of 8 bytes (truncated at byte %u)\n",
                    argv[1], n * 8);
            goto done;
        }
        if (n == ISA_MAX_CODE) {
            fprintf(stderr, "gpupd-dis: %s: more than %d instructions\n", argv[1], ISA_MAX_CODE);
            goto done;
        }
        uint64_t w = 0;
        for (int k = 0; k < 8; k++)
            w |= (uint64_t)b[k] << (8 * k);
        if (!isa_op_name(ISA_GET(w, OP))) {
            fprintf(stderr, "gpupd-dis: %s: undefined opcode 0x%02x at pc %u (byte offset %u)\n", argv[1],
                    ISA_GET(w, OP), n, n * 8);
            goto done;
        }
        code[n++] = w;
    }
    int rd = inf_close(f);
    f = NULL;
    if (rd) {
        fprintf(stderr, "gpupd-dis: %s: read error\n", argv[1]);
        goto done;
    }
    text = code ? isa_disasm_program(code, n) : NULL;
    if (!text) {
        fprintf(stderr, "gpupd-dis: out of memory\n");
        goto done;
    }
    /* The promise of gpupd-dis: its text re-assembles to the identical binary. A word whose fields the
     * assembly syntax cannot express (found by fuzzing, issue 12: e.g. an undefined special-register
     * number) is rejected instead of printing text that does not assemble or means something else. */
    back = malloc(sizeof(uint64_t) * (ISA_MAX_CODE + 1));
    isa_asm_err_t aerr;
    int m = back ? isa_assemble(text, back, ISA_MAX_CODE, &aerr) : -1;
    if (m != (int)n || (n && memcmp(back, code, (size_t)n * 8) != 0)) {
        uint32_t pc = 0;
        if (m == (int)n)
            while (pc < n && back[pc] == code[pc]) pc++;
        else if (m < 0 && back)
            pc = aerr.line > 0 ? (uint32_t)aerr.line - 1 : 0;   /* approximate: one line per instruction + labels */
        fprintf(stderr, "gpupd-dis: %s: the instruction near pc %u (byte offset %u) has a field the assembly syntax cannot "
                        "express (%s); its disassembly would not re-assemble to the same binary\n",
                argv[1], pc, pc * 8, m < 0 && back ? aerr.msg : "different encoding");
        goto done;
    }
    fputs(text, stdout);
    rc = 0;
done:
    if (f)
        inf_close(f);
    free(back);
    free(text);
    free(code);
    return rc;
}
