/* libFuzzer target: the disassembler (isa_disasm_program, gpupd-dis) on any sequence of 64-bit words with
 * defined opcodes (what gpupd-dis accepts), including the empty program: the text is a NUL-terminated
 * string that re-assembles to the same words. Seeds: tests/fuzz/seeds/dis (assembled shader library). */
#include "fuzz_common.h"
#include "isa/isa.h"

static void strip_comments(char *s)
{
    char *o = s;
    for (char *p = s; *p;) {
        if (*p == ';') {
            while (o > s && o[-1] == ' ') o--;
            while (*p && *p != '\n') p++;
        } else *o++ = *p++;
    }
    *o = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size / 8;
    if (n > ISA_MAX_CODE) return 0;
    uint64_t *w = malloc((n ? n : 1) * 8);
    if (!w) return 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int k = 0; k < 8; k++) v |= (uint64_t)data[8 * i + k] << (8 * k);
        w[i] = v;
        if (!isa_op_name(ISA_GET(v, OP))) { free(w); return 0; }   /* gpupd-dis rejects it */
    }
    char *text = isa_disasm_program(w, (uint32_t)n);
    if (!text) abort();
    size_t len = strlen(text);   /* ASan: must be terminated inside its buffer */
    (void)len;
    static uint64_t back[ISA_MAX_CODE];
    isa_asm_err_t err;
    int m = isa_assemble(text, back, ISA_MAX_CODE, &err);
    if (m >= 0) {
        /* whatever re-assembles must disassemble to the same text again (a fixed point) */
        char *t2 = isa_disasm_program(back, (uint32_t)m);
        strip_comments(text);   /* "; ..." notes on bits the syntax does not carry are not instructions */
        if (t2) strip_comments(t2);
        if (!t2 || strcmp(t2, text) != 0) { fprintf(stderr, "disassembly is not a fixed point\n%s\n---\n%s", text, t2 ? t2 : ""); abort(); }
        free(t2);
    }
    /* text that does not re-assemble to the same words is rejected by gpupd-dis (its check, in the tool) */
    free(text);
    free(w);
    return 0;
}
