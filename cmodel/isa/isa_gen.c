/* GPUpd ISA: constrained-random program generator (see isa_gen.h). It writes assembly text and
 * assembles it, so every generated program also exercises the assembler.
 *
 * Register use (keeps the structure valid by construction):
 *   r0..r30 data (random ALU/SFU/memory ops), r31 = lane (never written after the prologue),
 *   r32..r35 condition temporaries, r40+d loop counter of nesting depth d,
 *   p0..p5 data predicates (setp/pand/..., guards), p6 branch/exit conditions (set right before use).
 * Reduced mode (isa_gen_params_t.regs/mem_words/const_words/no_sfu != 0): n = regs - 8 data registers
 * r0..r(n-1), the lane in r(n), condition temporaries r(n+1)..r(n+3), loop counters r(n+4+d); memory
 * addresses [rz+k] inside the sizes; no SFU opcodes with no_sfu (an integer op instead). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa_gen.h"

isa_gen_params_t isa_gen_params_default(void)
{
    isa_gen_params_t p = {.max_static = 400, .max_depth = 4, .max_trip = 4, .p_exit_pct = 2};
    return p;
}

typedef struct {
    uint64_t s;
    char *buf;
    size_t len, cap;
    uint32_t ninsn, budget, labels;
    const isa_gen_params_t *p;
    int oom;
    /* register map and sizes (reduced mode; the default map otherwise) */
    int red;
    uint32_t nd, rlane, rt0, rt1, rt2, rloop, mw, cw;
} gen_t;

static uint64_t rnd(gen_t *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t below(gen_t *g, uint32_t n)
{
    return (uint32_t)(rnd(g) % n);
}

static void emit_raw(gen_t *g, const char *fmt, ...)
{
    if (g->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            g->oom = 1;
            return;
        }
        if ((size_t)n < g->cap - g->len) {
            g->len += (size_t)n;
            return;
        }
        size_t nc = g->cap * 2 + (size_t)n;
        char *nb = realloc(g->buf, nc);
        if (!nb) {
            g->oom = 1;
            return;
        }
        g->buf = nb;
        g->cap = nc;
    }
}

/* one instruction line (counts against the budget) */
#define INSN(...) do { emit_raw(g, "    " __VA_ARGS__); emit_raw(g, "\n"); g->ninsn++; } while (0)

static const char *const ccs[] = {"lt", "eq", "le", "gt", "ne", "ge", "num", "nan", "ltu", "equ", "leu",
                                  "gtu", "neu", "geu", "t", "f"};
static const char *const icc[] = {"lt", "eq", "le", "gt", "ne", "ge"};
static const char *const rnds[] = {"rn", "rz", "rm", "rp"};

static uint32_t dreg(gen_t *g)   /* data register to read: r0..r31 or rz (reduced: r0..r(nd), rz) */
{
    if (g->red) {
        uint32_t r = below(g, g->nd + 3);
        return r > g->nd ? 63 : r;
    }
    uint32_t r = below(g, 34);
    return r >= 32 ? 63 : r;
}

static uint32_t wreg(gen_t *g)   /* data register to write */
{
    return g->red ? below(g, g->nd) : below(g, 31);
}

static void rname(char *b, uint32_t r)
{
    if (r == 63)
        strcpy(b, "rz");
    else
        sprintf(b, "r%u", r & 63u);   /* registers are 6-bit */
}

static void fsrc(gen_t *g, char *b, int allow_abs)
{
    char r[8];
    rname(r, dreg(g));
    uint32_t m = below(g, 8);
    int neg = m == 1 || m == 3, abs_ = allow_abs && (m == 2 || m == 3);
    sprintf(b, "%s%s%s%s", neg ? "-" : "", abs_ ? "|" : "", r, abs_ ? "|" : "");
}

static void fimm(gen_t *g, char *b)
{
    static const char *const lits[] = {"1.0", "-0.5", "3", "0.0", "-0.0", "1e30", "-2.5e-3", "0x7f800000",
                                       "0x7fc00000", "0x00000001", "0x3f800000", "100"};
    if (below(g, 3))
        strcpy(b, lits[below(g, sizeof lits / sizeof lits[0])]);
    else
        sprintf(b, "0x%08x", (uint32_t)rnd(g));
}

static void iimm(gen_t *g, char *b)
{
    switch (below(g, 4)) {
    case 0: sprintf(b, "%u", below(g, 40)); break;
    case 1: sprintf(b, "-%u", below(g, 1000)); break;
    case 2: sprintf(b, "0x%08x", (uint32_t)rnd(g)); break;
    default: sprintf(b, "%u", (uint32_t)rnd(g)); break;
    }
}

static void guard(gen_t *g, char *b)
{
    if (below(g, 5) == 0)
        sprintf(b, "@%sp%u ", below(g, 2) ? "!" : "", below(g, 7));
    else
        b[0] = 0;
}

static void stmt_data(gen_t *g)
{
    char gd[16], d[8], a[16], bb[24], c[16];
    guard(g, gd);
    rname(d, wreg(g));
    uint32_t k = below(g, 100);
    if (k < 30) {   /* FP binary */
        static const char *const ops[] = {"fadd", "fmul", "fmin", "fmax"};
        fsrc(g, a, 1);
        if (below(g, 4) == 0)
            fimm(g, bb);
        else
            fsrc(g, bb, 0);
        INSN("%s%s %s, %s, %s", gd, ops[below(g, 4)], d, a, bb);
    } else if (k < 38) {
        fsrc(g, a, 1);
        fsrc(g, bb, 0);
        fsrc(g, c, 0);
        INSN("%sfmad %s, %s, %s, %s", gd, d, a, bb, c);
    } else if (k < 55) {   /* integer */
        static const char *const ops[] = {"iadd", "isub", "imul", "and", "or", "xor", "shl", "shr", "sra",
                                          "imin", "imax"};
        rname(a, dreg(g));
        if (below(g, 3) == 0)
            iimm(g, bb);
        else
            rname(bb, dreg(g));
        INSN("%s%s %s, %s, %s", gd, ops[below(g, 11)], d, a, bb);
    } else if (k < 62) {   /* conversions */
        uint32_t w = below(g, 5);
        fsrc(g, a, w < 3);
        if (w == 0)
            INSN("%sf2i.%s %s, %s", gd, rnds[below(g, 4)], d, a);
        else if (w == 1)
            INSN("%sf2u.%s %s, %s", gd, rnds[below(g, 4)], d, a);
        else if (w == 2)
            INSN("%sfrnd.%s %s, %s", gd, rnds[below(g, 4)], d, a);
        else {
            rname(a, dreg(g));
            INSN("%s%s %s, %s", gd, w == 3 ? "i2f" : "u2f", d, a);
        }
    } else if (k < 70 && g->red && g->p->no_sfu) {   /* no SFU: an integer op with an immediate */
        rname(a, dreg(g));
        INSN("%s%s %s, %s, %u", gd, below(g, 2) ? "imul" : "iadd", d, a, below(g, 1000));
    } else if (k < 70) {   /* SFU */
        static const char *const ops[] = {"rcp", "rsq", "ex2", "lg2", "sin", "cos"};
        fsrc(g, a, 1);
        INSN("%s%s %s, %s", gd, ops[below(g, 6)], d, a);
    } else if (k < 82) {   /* memory */
        static const char *const lds[] = {"ld.a", "ld.c", "ld.l"};
        char addr[24];
        uint32_t w;
        if (g->red) {   /* inside the stored words: [rz+k] */
            w = below(g, 5);
            sprintf(addr, "[rz+%u]", below(g, w == 1 ? g->cw : g->mw));
        } else {        /* (the default's draws in their original order: same programs as before) */
            if (below(g, 2))
                sprintf(addr, "[rz+%u]", below(g, 300));
            else {
                rname(a, dreg(g));
                sprintf(addr, "[%s+%u]", a, below(g, 70000) & 0xffff);
            }
            w = below(g, 5);
        }
        rname(bb, dreg(g));
        if (w < 3)
            INSN("%s%s %s, %s", gd, lds[w], d, addr);
        else
            INSN("%s%s %s, %s", gd, w == 3 ? "st.l" : "st.o", addr, bb);
    } else if (k < 90) {   /* predicates */
        uint32_t w = below(g, 5), pd = below(g, 6);
        if (w == 0) {
            fsrc(g, a, 1);
            if (below(g, 3) == 0)
                fimm(g, bb);
            else
                fsrc(g, bb, 0);
            INSN("%sfsetp.%s p%u, %s, %s", gd, ccs[below(g, 16)], pd, a, bb);
        } else if (w == 1) {
            rname(a, dreg(g));
            rname(bb, dreg(g));
            INSN("%s%ssetp.%s p%u, %s, %s", gd, below(g, 2) ? "i" : "u", icc[below(g, 6)], pd, a, bb);
        } else if (w == 2) {
            static const char *const ops[] = {"pand", "por", "pxor"};
            INSN("%s%s p%u, %sp%u, %sp%u", gd, ops[below(g, 3)], pd, below(g, 2) ? "!" : "", below(g, 7),
                 below(g, 2) ? "!" : "", below(g, 8) == 7 ? 7 : below(g, 7));
        } else {
            rname(a, dreg(g));
            rname(bb, dreg(g));
            INSN("%ssel %s, %s, %s, %sp%u", gd, d, a, bb, below(g, 2) ? "!" : "", below(g, 7));
        }
    } else if (k < 94) {
        static const char *const srs[] = {"lane", "warp", "tid", "vertex", "prim"};
        INSN("%ss2r %s, %%%s", gd, d, srs[below(g, 5)]);
    } else if (k < 97) {
        if (below(g, 8) == 0) {
            INSN("%snop", gd);
            return;
        }
        if (below(g, 2))
            iimm(g, bb);
        else
            rname(bb, dreg(g));
        INSN("%smov %s, %s", gd, d, bb);
    } else {
        if (g->red) {   /* rd..rd+3 data registers, ra+1 at most the lane register */
            rname(a, below(g, g->nd));
            INSN("%stex r%u, %s, %u", gd, 4 * below(g, g->nd / 4), a, below(g, 16));
            return;
        }
        rname(a, dreg(g) & 31);
        INSN("%stex r%u, %s, %u", gd, 4 * below(g, 7), a, below(g, 16));
    }
}

/* p6 = a (usually lane-dependent) condition */
static void cond(gen_t *g)
{
    char a[8], b[8];
    switch (below(g, 6)) {
    case 0: case 1:
        INSN("and r%u, r%u, %u", g->rt0, g->rlane, 1 + below(g, 31));
        INSN("isetp.%s p6, r%u, %u", icc[below(g, 6)], g->rt0, below(g, 4));
        break;
    case 2:
        rname(a, dreg(g));
        rname(b, dreg(g));
        INSN("fsetp.%s p6, %s, %s", ccs[below(g, 16)], a, b);
        break;
    case 3:
        rname(a, dreg(g));
        INSN("and r%u, %s, %u", g->rt1, a, 1 + below(g, 7));
        INSN("isetp.eq p6, r%u, 0", g->rt1);
        break;
    case 4:   /* uniform */
        INSN("isetp.%s p6, r%u, %u", below(g, 2) ? "lt" : "gt", g->rlane, below(g, 2) ? 32 : 40);
        break;
    default:
        INSN("pand p6, %sp%u, pt", below(g, 2) ? "!" : "", below(g, 6));
        break;
    }
}

static void block(gen_t *g, uint32_t depth, int in_loop, uint32_t loop_exit);

static void stmt(gen_t *g, uint32_t depth, int in_loop, uint32_t loop_exit)
{
    uint32_t k = below(g, 100);
    int room = g->ninsn + 24 < g->budget;
    if (k < 8 && depth < g->p->max_depth && room) {   /* if / if-else */
        uint32_t id = g->labels++;
        cond(g);
        if (below(g, 3) == 0) {
            INSN("@%sp6 bra J%u, J%u", below(g, 2) ? "!" : "", id, id);
            block(g, depth + 1, 0, 0);
        } else {
            INSN("@%sp6 bra E%u, J%u", below(g, 2) ? "!" : "", id, id);
            block(g, depth + 1, 0, 0);
            INSN("bra J%u", id);
            emit_raw(g, "E%u:\n", id);
            block(g, depth + 1, 0, 0);
        }
        emit_raw(g, "J%u:\n", id);
    } else if (k < 13 && depth < g->p->max_depth && room) {   /* loop */
        uint32_t id = g->labels++, rc = g->rloop + depth;
        char src[8];
        rname(src, below(g, 2) ? g->rlane : dreg(g));
        INSN("and r%u, %s, %u", rc, src, g->p->max_trip > 1 ? g->p->max_trip - 1 : 0);
        INSN("iadd r%u, r%u, 1", rc, rc);
        emit_raw(g, "L%u:\n", id);
        block(g, depth + 1, 1, id);
        INSN("isub r%u, r%u, 1", rc, rc);
        INSN("isetp.gt p6, r%u, 0", rc);
        INSN("@p6 bra L%u, X%u", id, id);
        emit_raw(g, "X%u:\n", id);
    } else if (k < 16 && in_loop) {   /* divergent break out of the enclosing loop */
        cond(g);
        INSN("@p6 bra X%u, X%u", loop_exit, loop_exit);
    } else if (k < 16 + g->p->p_exit_pct) {   /* early exit of a few lanes */
        INSN("and r%u, r%u, %u", g->rt2, g->rlane, 3 + 4 * below(g, 8));
        INSN("isetp.eq p6, r%u, %u", g->rt2, below(g, 3));
        INSN("@p6 exit");
    } else {
        stmt_data(g);
    }
}

static void block(gen_t *g, uint32_t depth, int in_loop, uint32_t loop_exit)
{
    uint32_t n = depth == 0 ? 16 + below(g, 48) : 1 + below(g, 8);
    for (uint32_t i = 0; i < n && g->ninsn + 12 < g->budget; i++)
        stmt(g, depth, in_loop, loop_exit);
}

int isa_gen_program(const isa_gen_params_t *p, uint64_t seed, isa_gen_prog_t *prog)
{
    gen_t gs = {0}, *g = &gs;
    g->s = seed * 0x2545f4914f6cdd1dull + 1;
    g->p = p;
    g->budget = p->max_static < ISA_MAX_CODE - 16 ? p->max_static : ISA_MAX_CODE - 16;
    g->red = p->regs || p->mem_words || p->const_words || p->no_sfu;
    g->rlane = 31, g->rt0 = 32, g->rt1 = 33, g->rt2 = 34, g->rloop = 40;
    if (g->red) {
        uint32_t regs = p->regs ? p->regs : 64;
        g->nd = regs - 8;
        if (g->nd > 31)
            g->nd = 31;
        g->rlane = g->nd, g->rt0 = g->nd + 1, g->rt1 = g->nd + 2, g->rt2 = g->nd + 3, g->rloop = g->nd + 4;
        if (regs < 16 || regs > 64 || g->rloop + p->max_depth > regs || p->mem_words > 64 || p->const_words > 256) {
            fprintf(stderr, "isa_gen: reduced mode needs 16 <= regs <= 64, max_depth <= 4 (16 registers), "
                            "mem_words <= 64, const_words <= 256\n");
            return -1;
        }
        g->mw = p->mem_words ? p->mem_words : 64;
        g->cw = p->const_words ? p->const_words : 256;
    }
    g->cap = 4096;
    g->buf = malloc(g->cap);
    prog->text = NULL;
    prog->len = 0;
    if (!g->buf)
        return -1;
    g->buf[0] = 0;
    emit_raw(g, "; isa_gen seed %llu\n", (unsigned long long)seed);
    INSN("s2r r%u, %%lane", g->rlane);
    if (g->red) {   /* data registers: attributes, then a constant, %tid, %vertex/%prim */
        for (uint32_t i = 0; i + 3 < g->nd; i++)
            INSN("ld.a r%u, [rz+%u]", i, i % g->mw);
        INSN("ld.c r%u, [rz+%u]", g->nd - 3, below(g, g->cw));
        INSN("s2r r%u, %%tid", g->nd - 2);
        INSN("s2r r%u, %%%s", g->nd - 1, below(g, 2) ? "vertex" : "prim");
    } else {
        for (uint32_t i = 0; i < 16; i++)
            INSN("ld.a r%u, [rz+%u]", i, i);
        for (uint32_t i = 16; i < 24; i++)
            INSN("ld.c r%u, [rz+%u]", i, below(g, 256));
        INSN("s2r r24, %%tid");
        INSN("s2r r25, %%vertex");
        INSN("s2r r26, %%prim");
    }
    INSN("fsetp.gt p0, r0, r1");
    INSN("isetp.lt p1, r2, r3");
    block(g, 0, 0, 0);
    uint32_t final_pc = g->ninsn;
    INSN("st.o [rz+%u], r%u", g->red ? g->mw - 1 : 63, g->rlane);
    INSN("exit");
    prog->text = g->buf;
    prog->final_pc = final_pc;
    if (g->oom)
        return -1;
    isa_asm_err_t err;
    int n = isa_assemble(g->buf, prog->code, ISA_MAX_CODE, &err);
    if (n < 0) {
        fprintf(stderr, "isa_gen: seed %llu: generated program does not assemble: line %d col %d: %s\n",
                (unsigned long long)seed, err.line, err.col, err.msg);
        return -1;
    }
    prog->len = (uint32_t)n;
    return n == (int)g->ninsn ? 0 : -1;
}

void isa_gen_free(isa_gen_prog_t *prog)
{
    free(prog->text);
    prog->text = NULL;
}

void isa_gen_init_warp(const isa_gen_params_t *p, uint64_t seed, isa_ctx_t *ctx, isa_warp_t *w)
{
    (void)p;
    gen_t gs = {0}, *g = &gs;
    g->s = seed * 0x9e3779b97f4a7c15ull + 7;
    for (uint32_t i = 0; i < ISA_CONST_WORDS; i++)
        ctx->konst[i] = (uint32_t)rnd(g);
    uint32_t mask;
    switch (below(g, 4)) {
    case 0: mask = (uint32_t)rnd(g); break;
    case 1: mask = 0xffffffffu >> below(g, 32); break;
    default: mask = 0xffffffffu; break;
    }
    if (!mask)
        mask = 1;
    isa_warp_init(w, below(g, 64), mask);
    static const uint32_t specials[] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000,
                                        0xff800000, 0x7fc00000, 0x00000001, 0x7f7fffff, 0x40490fdb};
    for (uint32_t a = 0; a < ISA_ATTR_WORDS; a++)
        for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
            uint32_t k = below(g, 8), v;
            if (k == 0)
                v = specials[below(g, sizeof specials / sizeof specials[0])];
            else if (k < 3)
                v = (uint32_t)rnd(g);
            else if (k < 5)
                v = below(g, 64);
            else {   /* float in [-8, 8) */
                float f = (float)((int32_t)below(g, 1u << 20) - (1 << 19)) / 65536.0f;
                memcpy(&v, &f, 4);
            }
            w->attr[a][l] = v;
        }
    for (uint32_t l = 0; l < ISA_WARP_SIZE; l++) {
        w->sr_vertex[l] = (uint32_t)rnd(g) & 0xffffff;
        w->sr_prim[l] = (uint32_t)rnd(g) & 0xffffff;
    }
}
