/* Assembler / disassembler (cmodel/isa/isa_asm.c) and the generated definitions:
 * hand-computed encodings, disassembly round trips of random instructions of every opcode and of the
 * shader library, error messages with line and column, and agreement of build/gen/isa_defs.h with
 * build/gen/isa_defs.vh (both generated from defs/isa.tbl). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/isa_internal.h"

static uint64_t asm1(const char *src)
{
    uint64_t w[4];
    isa_asm_err_t err;
    int n = isa_assemble(src, w, 4, &err);
    if (n != 1) {
        print_error("'%s': n=%d line %d col %d: %s\n", src, n, err.line, err.col, err.msg);
        fail();
    }
    return w[0];
}

/* encodings computed by hand from the field table in docs/isa.md */
static void test_hand_encodings(void **state)
{
    (void)state;
    assert_int_equal(asm1("fadd r1, r2, r3"), 0x21C084000C000000ull);
    assert_int_equal(asm1("@!p2 iadd r5, r6, -1"), 0x40A28C10FFFFFFFFull);
    assert_int_equal(asm1("bra 5"), 0x05C0000000000005ull);
    assert_int_equal(asm1("exit"), 0x03C0000000000000ull);
    /* fmul r0, -|r1|, 2.0: OP 0x11, GP 7, RA 1, NA, AA, BI, IMM 0x40000000 */
    assert_int_equal(asm1("fmul r0, -|r1|, 2.0"),
                     (0x11ull << 57) | (7ull << 54) | (1ull << 41) | (1ull << 40) | (1ull << 39) | (1ull << 36) |
                         0x40000000ull);
    /* fsetp.ltu p3, r4, -r5: CC = L|U = 9 */
    assert_int_equal(asm1("fsetp.ltu p3, r4, -r5"),
                     (0x15ull << 57) | (7ull << 54) | (3ull << 47) | (4ull << 41) | (1ull << 38) | (9ull << 32) |
                         (5ull << 26));
    /* st.o [r7+12], r9 */
    assert_int_equal(asm1("st.o [r7+12], r9"), (0x44ull << 57) | (7ull << 54) | (7ull << 41) | (9ull << 26) | 12);
    /* ld.c r2, [3] uses rz as the base */
    assert_int_equal(asm1("ld.c r2, [3]"), (0x41ull << 57) | (7ull << 54) | (2ull << 47) | (63ull << 41) | 3);
    /* decimal integer literal in an FP op is a float; hex is raw bits */
    assert_int_equal(asm1("fadd r0, r0, 1") & 0xffffffffu, 0x3f800000u);
    assert_int_equal(asm1("fadd r0, r0, 0x1") & 0xffffffffu, 1u);
    assert_int_equal(asm1("iadd r0, r0, 1") & 0xffffffffu, 1u);
}

/* random canonical instruction of opcode op (only the fields its format uses) */
static uint64_t rnd_state = 12345;
static uint32_t rnd32(void)
{
    rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rnd_state >> 32);
}

static uint64_t rand_insn(uint32_t op, uint32_t n)
{
    int fmt = isa_op_format(op), fp = isa_op_type(op) == ISA_TY_F;
    uint64_t w = ISA_PUT(op, OP);
    uint32_t gp = rnd32() % 8;
    w |= ISA_PUT(gp, GP) | ISA_PUT(gp == 7 ? 0 : rnd32() & 1, GN);
    uint64_t b = (rnd32() & 3) == 0 ? (ISA_PUT(1, BI) | ISA_PUT(rnd32(), IMM))
                                    : (ISA_PUT(rnd32() % 64, RB) | ISA_PUT(fp ? rnd32() & 1 : 0, NB));
    uint64_t a = ISA_PUT(rnd32() % 64, RA) | (fp ? ISA_PUT(rnd32() & 1, NA) | ISA_PUT(rnd32() & 1, AA) : 0);
    switch (fmt) {
    case ISA_FMT_NONE: break;
    case ISA_FMT_BRA:
        w |= ISA_PUT(rnd32() % (n + 1), TGT);
        if (gp != 7 || (rnd32() & 1))
            w |= ISA_PUT(rnd32() % (n + 1), RPC);
        break;
    case ISA_FMT_D_B: w |= ISA_PUT(rnd32() % 64, RD) | b; break;
    case ISA_FMT_D_SR: w |= ISA_PUT(rnd32() % 64, RD) | ISA_PUT(rnd32() % ISA_SR_NUM, OFS); break;
    case ISA_FMT_D_A_B_P:
        w |= ISA_PUT(rnd32() % 64, RD) | ISA_PUT(rnd32() % 64, RA) | ISA_PUT(rnd32() % 64, RB) |
             ISA_PUT(rnd32() % 8, RC) | ISA_PUT(rnd32() & 1, NC);
        break;
    case ISA_FMT_P_P_P:
        w |= ISA_PUT(rnd32() % 8, RD) | ISA_PUT(rnd32() % 8, RA) | ISA_PUT(rnd32() & 1, NA) |
             ISA_PUT(rnd32() % 8, RB) | ISA_PUT(rnd32() & 1, NB);
        break;
    case ISA_FMT_D_A_B: w |= ISA_PUT(rnd32() % 64, RD) | a | b; break;
    case ISA_FMT_P_A_B: w |= ISA_PUT(rnd32() % 8, RD) | a | b | ISA_PUT(rnd32() % 16, CC); break;
    case ISA_FMT_D_A_B_C:
        w |= ISA_PUT(rnd32() % 64, RD) | a | ISA_PUT(rnd32() % 64, RB) | ISA_PUT(rnd32() & 1, NB) |
             ISA_PUT(rnd32() % 64, RC) | ISA_PUT(rnd32() & 1, NC);
        break;
    case ISA_FMT_D_A:
        w |= ISA_PUT(rnd32() % 64, RD) | a;
        if (op == ISA_OP_F2I || op == ISA_OP_F2U || op == ISA_OP_FRND)
            w |= ISA_PUT(rnd32() % 4, CC);
        break;
    case ISA_FMT_LD: w |= ISA_PUT(rnd32() % 64, RD) | ISA_PUT(rnd32() % 64, RA) | ISA_PUT(rnd32() & 0xffff, OFS); break;
    case ISA_FMT_ST: w |= ISA_PUT(rnd32() % 64, RA) | ISA_PUT(rnd32() & 0xffff, OFS) | ISA_PUT(rnd32() % 64, RB); break;
    case ISA_FMT_TEX: w |= ISA_PUT(rnd32() % 61, RD) | ISA_PUT(rnd32() % 64, RA) | ISA_PUT(rnd32() % 16, OFS); break;
    default: fail();
    }
    return w;
}

static void roundtrip(const uint64_t *code, uint32_t n, const char *what)
{
    char *text = isa_disasm_program(code, n);
    assert_non_null(text);
    uint64_t *back = calloc(ISA_MAX_CODE, sizeof(uint64_t));
    isa_asm_err_t err;
    int m = isa_assemble(text, back, ISA_MAX_CODE, &err);
    if (m != (int)n) {
        print_error("%s: re-assembly gave %d of %u instructions: line %d col %d: %s\n", what, m, n, err.line,
                    err.col, err.msg);
        fail();
    }
    for (uint32_t i = 0; i < n; i++)
        if (back[i] != code[i]) {
            char d[160];
            isa_disasm_insn(code[i], d, sizeof d);
            print_error("%s: pc %u: 0x%016llx -> '%s' -> 0x%016llx\n", what, i, (unsigned long long)code[i], d,
                        (unsigned long long)back[i]);
            fail();
        }
    free(back);
    free(text);
}

static void test_roundtrip_random(void **state)
{
    (void)state;
    enum { N = 2000 };
    uint64_t *code = calloc(N, sizeof(uint64_t));
    uint32_t ops[128], nops = 0;
    for (uint32_t op = 0; op < 128; op++)
        if (isa_op_name(op))
            ops[nops++] = op;
    assert_int_equal(nops, ISA_NUM_OPS);
    for (int rep = 0; rep < 20; rep++) {
        for (uint32_t i = 0; i < N; i++)
            code[i] = rand_insn(ops[(i < nops) ? i : rnd32() % nops], N);
        roundtrip(code, N, "random instructions");
    }
    free(code);
}

static void test_roundtrip_shaders(void **state)
{
    (void)state;
    uint64_t code[ISA_MAX_CODE];
    assert_true(isa_shader_count() >= 7);
    for (int i = 0; i < isa_shader_count(); i++) {
        isa_asm_err_t err;
        int n = isa_shader_assemble(isa_shader_name(i), code, ISA_MAX_CODE, &err);
        if (n <= 0) {
            print_error("shader %s: line %d col %d: %s\n", isa_shader_name(i), err.line, err.col, err.msg);
            fail();
        }
        roundtrip(code, (uint32_t)n, isa_shader_name(i));
    }
}

static void expect_err(const char *src, int line, int col, const char *needle)
{
    uint64_t w[16];
    isa_asm_err_t err;
    int n = isa_assemble(src, w, 16, &err);
    if (n != -1 || err.line != line || err.col != col || !strstr(err.msg, needle)) {
        print_error("source:\n%s\nwant error at %d:%d containing '%s'; got n=%d at %d:%d '%s'\n", src, line, col,
                    needle, n, err.line, err.col, err.msg);
        fail();
    }
}

static void test_errors(void **state)
{
    (void)state;
    expect_err("nop\n  fadd r1, r2, r99\n", 2, 16, "expected a register");
    expect_err("foo r1, r2\n", 1, 1, "unknown instruction");
    expect_err("  bra nowhere\n", 1, 7, "unknown label");
    expect_err("x: nop\nx: nop\n", 2, 1, "already defined on line 1");
    expect_err("fsetp p0, r1, r2\n", 1, 1, "needs a condition");
    expect_err("fsetp.xx p0, r1, r2\n", 1, 7, "unknown suffix");
    expect_err("f2i r0, r1\n", 1, 1, "needs a rounding");
    expect_err("iadd r1, -r2, r3\n", 1, 10, "only on FP operands");
    expect_err("fmad r1, r2, 1.0, r3\n", 1, 14, "must be a register");
    expect_err("@p0 bra a\na: exit\n", 1, 5, "needs a reconvergence label");
    expect_err("ld.a r1, r2\n", 1, 10, "memory operand");
    expect_err("ld.a r1, [r2+70000]\n", 1, 14, "out of range");
    expect_err("mov r1, 0x1ffffffff\n", 1, 9, "bad hex literal");
    expect_err("mov r1, BAR\n", 1, 9, "unknown constant");
    expect_err("fadd r1, r2\n", 1, 6, "takes 3 operand");
    expect_err(".word 5\n", 1, 1, "unknown directive");
    expect_err("tex r62, r0, 0\n", 1, 5, "rd must be <= r60");
    expect_err("s2r r1, %nope\n", 1, 9, "special register");
    /* .equ constants, comments of every style, labels on their own line */
    uint64_t w[8];
    isa_asm_err_t err;
    int n = isa_assemble(".equ K, 0x10 ; comment\n# full-line comment\n// another\nstart:\n  iadd r1, r1, K\n"
                         "  bra start // loop\n",
                         w, 8, &err);
    assert_int_equal(n, 2);
    assert_int_equal(w[0] & 0xffffffffu, 0x10u);
    assert_int_equal(ISA_GET(w[1], TGT), 0u);
}

/* build/gen/isa_defs.vh must define the same fields, opcodes and constants as isa_defs.h */
static long vh_lookup(const char *text, const char *name)
{
    char key[96];
    snprintf(key, sizeof key, "`define %s ", name);
    const char *p = strstr(text, key);
    if (!p)
        return -1;
    p += strlen(key);
    const char *q = strchr(p, '\'');
    const char *nl = strchr(p, '\n');
    if (q && nl && q < nl)   /* sized literal N'hXX */
        return strtol(q + 2, NULL, 16);
    return strtol(p, NULL, 10);
}

static void test_vh_agrees(void **state)
{
    (void)state;
    const char *bdir = getenv("BUILD") ? getenv("BUILD") : "build";
    char path[512];
    snprintf(path, sizeof path, "%s/gen/isa_defs.vh", bdir);
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_error("cannot open %s (run from the repository root; BUILD=... if not 'build')\n", path);
        fail();
    }
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    int checked = 0;
#define CHK(name, val)                                                                                    \
    do {                                                                                                  \
        long v_ = vh_lookup(text, name);                                                                  \
        if (v_ != (long)(val)) {                                                                          \
            print_error("%s: C %ld, Verilog %ld\n", name, (long)(val), v_);                               \
            fail();                                                                                       \
        }                                                                                                 \
        checked++;                                                                                        \
    } while (0)
#define X(id, code, name, cls, fmt, ty) CHK("ISA_OP_" #id, code);
    ISA_OP_LIST(X)
#undef X
#define F(n) CHK("ISA_F_" #n "_HI", ISA_F_##n##_HI); CHK("ISA_F_" #n "_LO", ISA_F_##n##_LO);
    F(OP) F(GP) F(GN) F(RD) F(RA) F(NA) F(AA) F(NB) F(NC) F(BI) F(CC) F(IMM) F(RB) F(RC) F(OFS) F(TGT) F(RPC)
#undef F
    CHK("ISA_NUM_REGS", ISA_NUM_REGS);
    CHK("ISA_STACK_DEPTH", ISA_STACK_DEPTH);
    CHK("ISA_CC_U", ISA_CC_U);
    CHK("ISA_SR_PRIM", ISA_SR_PRIM);
    CHK("ISA_NUM_OPS", ISA_NUM_OPS);
    assert_true(checked > ISA_NUM_OPS + 30);
    /* fields must not overlap except the documented unions (IMM = RB|RC|OFS, OFS = TGT, RPC within IMM) */
    assert_true(ISA_F_OP_LO > ISA_F_GP_HI && ISA_F_GP_LO > ISA_F_GN_HI && ISA_F_GN_LO > ISA_F_RD_HI);
    assert_true(ISA_F_RD_LO > ISA_F_RA_HI && ISA_F_RA_LO > ISA_F_NA_HI && ISA_F_CC_LO > ISA_F_IMM_HI);
    assert_true(ISA_F_RB_LO > ISA_F_RC_HI && ISA_F_RC_LO > ISA_F_OFS_HI);
}

/* robustness: mutated shader sources never crash the assembler (ASan/UBSan build); every error has a
 * line and column inside the text and a message */
static void test_mutation_fuzz(void **state)
{
    (void)state;
    static const char alphabet[] = "r0123456789p!@[]+-|,.:;#/ \nxabefilmnostuvz%";
    uint64_t *code = calloc(ISA_MAX_CODE, sizeof(uint64_t));
    int errors = 0, ok = 0;
    for (int i = 0; i < 3000; i++) {
        const char *src = isa_shader_source(isa_shader_name(i % isa_shader_count()));
        size_t n = strlen(src);
        char *m = malloc(n + 1);
        memcpy(m, src, n + 1);
        int edits = 1 + (int)(rnd32() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = rnd32() % n;
            uint32_t kind = rnd32() % 3;
            if (kind == 0)
                m[at] = alphabet[rnd32() % (sizeof alphabet - 1)];
            else if (kind == 1)
                m[at] = ' ';
            else
                m[at] = (char)(1 + rnd32() % 255);
        }
        isa_asm_err_t err;
        int r = isa_assemble(m, code, ISA_MAX_CODE, &err);
        if (r < 0) {
            errors++;
            int lines = 1;
            for (const char *q = m; *q; q++)
                lines += *q == '\n';
            if (err.line < 1 || err.line > lines || err.col < 1 || !err.msg[0]) {
                print_error("bad error position %d:%d '%s' for mutated source:\n%s\n", err.line, err.col, err.msg, m);
                fail();
            }
        } else {
            ok++;
            char *t = isa_disasm_program(code, (uint32_t)r);   /* whatever assembled must disassemble */
            assert_non_null(t);
            free(t);
        }
        free(m);
    }
    printf("test_isa_asm: mutation fuzz: %d rejected with a position, %d still assembled\n", errors, ok);
    assert_true(errors > 100);
    free(code);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_encodings),
        cmocka_unit_test(test_roundtrip_random),
        cmocka_unit_test(test_roundtrip_shaders),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_vh_agrees),
        cmocka_unit_test(test_mutation_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
