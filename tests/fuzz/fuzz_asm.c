/* libFuzzer target: the assembler (isa_assemble, gpupd-as). Any text is either an error with a line and
 * column, or a program whose disassembly re-assembles to the same words. Seeds: tests/fuzz/seeds/asm
 * (the shader library, cmodel/shaders/NAME.s). */
#include "fuzz_common.h"
#include "isa/isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    static uint64_t code[ISA_MAX_CODE], code2[ISA_MAX_CODE];
    isa_asm_err_t err;
    int n = isa_assemble(text, code, ISA_MAX_CODE, &err);
    if (n < 0) {
        if (err.line < 1 || err.col < 1 || !err.msg[0]) { fprintf(stderr, "error without a position\n"); abort(); }
    } else {
        char *dis = isa_disasm_program(code, (uint32_t)n);
        if (!dis) abort();
        isa_asm_err_t e2;
        int n2 = isa_assemble(dis, code2, ISA_MAX_CODE, &e2);
        if (n2 != n || memcmp(code, code2, (size_t)n * 8) != 0) {
            fprintf(stderr, "disassembly does not re-assemble to the same words (%d vs %d; %d:%d %s)\n%s", n, n2,
                    e2.line, e2.col, e2.msg, dis);
            abort();
        }
        free(dis);
    }
    free(text);
    return 0;
}
