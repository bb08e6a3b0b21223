/* GPUpd ISA assembler and disassembler (syntax: docs/isa.md, "Assembly syntax"). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "isa/isa.h"
#include "isa/isa_internal.h"

/* ----- compare-condition and rounding-mode names ----- */
static const char *const cc_names[16] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "num",
                                         "nan", "ltu", "equ", "leu", "gtu", "neu", "geu", "t"};
static const char *const rnd_names[4] = {"rn", "rz", "rm", "rp"};
static const char *const sr_names[ISA_SR_NUM] = {"lane", "warp", "tid", "vertex", "prim"};

/* ----- assembler state ----- */
#define MAX_SYMS 1024
#define NAME_MAX_LEN 63

typedef struct {
    char name[NAME_MAX_LEN + 1];
    int is_label;      /* label (value = pc) or .equ constant (text) */
    uint32_t pc;
    char text[96];
    int line;
} sym_t;

typedef struct {
    sym_t *syms;
    int nsyms;
    isa_asm_err_t *err;
    int line;
    const char *lbase;   /* start of the current line, for columns */
    int failed;
} as_t;

static int fail_at(as_t *as, const char *where, const char *fmt, ...)
{
    if (as->failed)
        return -1;
    as->failed = 1;
    if (as->err) {
        as->err->line = as->line;
        as->err->col = where ? (int)(where - as->lbase) + 1 : 1;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(as->err->msg, sizeof as->err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static int is_ident_start(int c)
{
    return isalpha(c) || c == '_' || c == '.';
}

static int is_ident(int c)
{
    return isalnum(c) || c == '_' || c == '.';
}

static sym_t *find_sym(as_t *as, const char *name, size_t len)
{
    for (int i = 0; i < as->nsyms; i++)
        if (strlen(as->syms[i].name) == len && !strncmp(as->syms[i].name, name, len))
            return &as->syms[i];
    return NULL;
}

/* one operand: [s, e) trimmed */
typedef struct {
    const char *s, *e;
} span_t;

static int span_eq(span_t t, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(t.e - t.s) == n && !strncasecmp(t.s, lit, n);
}

static span_t trim(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    span_t t = {s, e};
    return t;
}

/* register rN / rz -> 0..63 */
static int parse_reg(as_t *as, span_t t, int *out)
{
    if (span_eq(t, "rz")) {
        *out = ISA_REG_ZERO;
        return 0;
    }
    if (t.e - t.s >= 2 && (t.s[0] == 'r' || t.s[0] == 'R')) {
        int v = 0;
        const char *p = t.s + 1;
        for (; p < t.e && isdigit((unsigned char)*p); p++)
            if (v < 1000)   /* saturate: "r26666666666" is out of range, not a signed overflow (found by fuzz_asm) */
                v = v * 10 + (*p - '0');
        if (p == t.e && t.e - t.s <= 3 && v < ISA_NUM_REGS) {
            *out = v;
            return 0;
        }
    }
    return fail_at(as, t.s, "expected a register r0..r63 or rz, got '%.*s'", (int)(t.e - t.s), t.s);
}

/* predicate [!]pN / [!]pt -> 0..7, *neg */
static int parse_pred(as_t *as, span_t t, int *out, int *neg, int allow_neg)
{
    *neg = 0;
    if (t.s < t.e && *t.s == '!') {
        if (!allow_neg)
            return fail_at(as, t.s, "'!' not allowed here");
        *neg = 1;
        t.s++;
    }
    if (span_eq(t, "pt")) {
        *out = ISA_PRED_TRUE;
        return 0;
    }
    if (t.e - t.s == 2 && (t.s[0] == 'p' || t.s[0] == 'P') && t.s[1] >= '0' && t.s[1] <= '7') {
        *out = t.s[1] - '0';
        return 0;
    }
    return fail_at(as, t.s, "expected a predicate p0..p7 or pt, got '%.*s'", (int)(t.e - t.s), t.s);
}

static int is_reg_token(span_t t)
{
    if (span_eq(t, "rz"))
        return 1;
    if (t.e - t.s < 2 || (t.s[0] != 'r' && t.s[0] != 'R'))
        return 0;
    for (const char *p = t.s + 1; p < t.e; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    return 1;
}

/* immediate: integer (decimal/hex, optional '-'), float literal, or .equ name. fp: decimal integers are
 * converted to binary32. */
static int parse_imm(as_t *as, span_t t, int fp, uint32_t *out, int depth)
{
    char buf[128];
    size_t n = (size_t)(t.e - t.s);
    if (n == 0)
        return fail_at(as, t.s, "missing operand");
    if (n >= sizeof buf)
        return fail_at(as, t.s, "operand too long");
    memcpy(buf, t.s, n);
    buf[n] = 0;
    if (is_ident_start((unsigned char)buf[0]) && strcasecmp(buf, "inf") && strcasecmp(buf, "nan")) {
        sym_t *s = find_sym(as, buf, n);
        if (!s || s->is_label)
            return fail_at(as, t.s, "unknown constant '%s'", buf);
        if (depth > 8)
            return fail_at(as, t.s, "constant '%s' defined recursively", buf);
        span_t st = {s->text, s->text + strlen(s->text)};
        const char *save = as->lbase;
        int r = parse_imm(as, st, fp, out, depth + 1);
        as->lbase = save;
        if (r && as->err)
            as->err->col = (int)(t.s - as->lbase) + 1;
        return r;
    }
    const char *p = buf;
    int neg = 0;
    if (*p == '-' || *p == '+') {
        neg = *p == '-';
        p++;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p + 2, &end, 16);
        if (*end || end == p + 2 || errno || v > 0xffffffffull)
            return fail_at(as, t.s, "bad hex literal '%s'", buf);
        *out = neg ? (uint32_t)(-(uint32_t)v) : (uint32_t)v;
        return 0;
    }
    int isfloat = strpbrk(p, ".eEnN") != NULL || (fp && isdigit((unsigned char)*p));
    if (isfloat) {
        char *end;
        const char *q = buf;
        float f = strtof(q, &end);
        if (*end == 'f' || *end == 'F')
            end++;
        if (*end || end == q)
            return fail_at(as, t.s, "bad number '%s'", buf);
        memcpy(out, &f, 4);
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (*end || end == p || errno || v > (neg ? 0x80000000ull : 0xffffffffull))
        return fail_at(as, t.s, "bad integer literal '%s'", buf);
    *out = neg ? (uint32_t)(-(uint32_t)v) : (uint32_t)v;
    return 0;
}

/* FP-capable source operand: [-][|]rN[|] (mods allowed per flags) */
static int parse_src(as_t *as, span_t t, int allow_abs, int allow_neg, int *reg, int *neg, int *abs_)
{
    *neg = *abs_ = 0;
    if (t.s < t.e && *t.s == '-' && t.s + 1 < t.e && (t.s[1] == 'r' || t.s[1] == 'R' || t.s[1] == '|')) {
        if (!allow_neg)
            return fail_at(as, t.s, "'-' modifier only on FP operands");
        *neg = 1;
        t.s++;
    }
    if (t.s < t.e && *t.s == '|') {
        if (!allow_abs)
            return fail_at(as, t.s, "'|x|' modifier not allowed on this operand");
        if (t.e - t.s < 3 || t.e[-1] != '|')
            return fail_at(as, t.s, "unterminated '|'");
        *abs_ = 1;
        t.s++;
        t.e--;
    }
    return parse_reg(as, t, reg);
}

/* label or number -> pc */
static int parse_target(as_t *as, span_t t, uint32_t *out)
{
    if (t.s < t.e && isdigit((unsigned char)*t.s)) {
        uint32_t v;
        if (parse_imm(as, t, 0, &v, 0))
            return -1;
        if (v > 0xffff)
            return fail_at(as, t.s, "branch target %u out of range", v);
        *out = v;
        return 0;
    }
    sym_t *s = find_sym(as, t.s, (size_t)(t.e - t.s));
    if (!s || !s->is_label)
        return fail_at(as, t.s, "unknown label '%.*s'", (int)(t.e - t.s), t.s);
    *out = s->pc;
    return 0;
}

/* [rA + ofs] / [rA] / [ofs] */
static int parse_mem(as_t *as, span_t t, int *ra, uint32_t *ofs)
{
    if (t.e - t.s < 2 || *t.s != '[' || t.e[-1] != ']')
        return fail_at(as, t.s, "expected a memory operand [rA+offset]");
    span_t in = trim(t.s + 1, t.e - 1);
    const char *plus = memchr(in.s, '+', (size_t)(in.e - in.s));
    *ra = ISA_REG_ZERO;
    *ofs = 0;
    span_t a = in, o = {in.e, in.e};
    if (plus) {
        a = trim(in.s, plus);
        o = trim(plus + 1, in.e);
    }
    if (is_reg_token(a)) {
        if (parse_reg(as, a, ra))
            return -1;
    } else if (!plus) {
        o = a;
    } else {
        return fail_at(as, a.s, "expected a register before '+'");
    }
    if (o.s < o.e) {
        uint32_t v;
        if (parse_imm(as, o, 0, &v, 0))
            return -1;
        if (v > 0xffff)
            return fail_at(as, o.s, "offset %u out of range 0..65535", v);
        *ofs = v;
    }
    return 0;
}

static int lookup_op(const char *m, size_t n, uint32_t *op)
{
    for (uint32_t i = 0; i < (1u << ISA_F_OP_W); i++) {
        const char *nm = isa_op_name(i);
        if (nm && strlen(nm) == n && !strncasecmp(nm, m, n)) {
            *op = i;
            return 0;
        }
    }
    return -1;
}

#define MAX_OPS 6

/* assemble one instruction line (after labels); returns 0 and *w, or -1 */
static int asm_insn(as_t *as, const char *p, uint32_t pc, uint64_t *w)
{
    (void)pc;
    uint64_t insn = 0;
    int gp = ISA_PRED_TRUE, gn = 0;
    p = skip_ws(p);
    if (*p == '@') {
        const char *s = p + 1;
        const char *e = s;
        while (*e && !isspace((unsigned char)*e))
            e++;
        if (parse_pred(as, (span_t){s, e}, &gp, &gn, 1))
            return -1;
        p = skip_ws(e);
    }
    const char *ms = p;
    while (is_ident((unsigned char)*p))
        p++;
    size_t mlen = (size_t)(p - ms);
    if (mlen == 0)
        return fail_at(as, ms, "expected a mnemonic");
    uint32_t op;
    int cc = 0, have_sfx = 0;
    if (lookup_op(ms, mlen, &op)) {
        /* base.suffix: setp conditions and rounding modes */
        const char *dot = NULL;
        for (const char *q = ms + mlen - 1; q > ms; q--)
            if (*q == '.') {
                dot = q;
                break;
            }
        if (!dot || lookup_op(ms, (size_t)(dot - ms), &op))
            return fail_at(as, ms, "unknown instruction '%.*s'", (int)mlen, ms);
        size_t sl = (size_t)(ms + mlen - dot - 1);
        int found = -1;
        if (isa_op_format(op) == ISA_FMT_P_A_B) {
            for (int i = 0; i < 16; i++)
                if (strlen(cc_names[i]) == sl && !strncasecmp(cc_names[i], dot + 1, sl))
                    found = i;
        } else if (op == ISA_OP_F2I || op == ISA_OP_F2U || op == ISA_OP_FRND) {
            for (int i = 0; i < 4; i++)
                if (strlen(rnd_names[i]) == sl && !strncasecmp(rnd_names[i], dot + 1, sl))
                    found = i;
        }
        if (found < 0)
            return fail_at(as, dot + 1, "unknown suffix '.%.*s' for '%.*s'", (int)sl, dot + 1,
                           (int)(dot - ms), ms);
        cc = found;
        have_sfx = 1;
    }
    int fmt = isa_op_format(op), ty = isa_op_type(op);
    if (!have_sfx && (fmt == ISA_FMT_P_A_B || op == ISA_OP_F2I || op == ISA_OP_F2U || op == ISA_OP_FRND))
        return fail_at(as, ms, "'%.*s' needs a %s suffix", (int)mlen, ms,
                       fmt == ISA_FMT_P_A_B ? "condition (.lt .eq .le .gt .ne .ge ...)" : "rounding (.rn .rz .rm .rp)");
    /* operands */
    span_t ops[MAX_OPS];
    int nops = 0;
    p = skip_ws(p);
    if (*p) {
        const char *s = p;
        int depth = 0;
        for (;; p++) {
            if (*p == '[')
                depth++;
            else if (*p == ']')
                depth--;
            if ((*p == ',' && depth == 0) || *p == 0) {
                if (nops == MAX_OPS)
                    return fail_at(as, s, "too many operands");
                ops[nops] = trim(s, p);
                if (ops[nops].s == ops[nops].e)
                    return fail_at(as, ops[nops].s, "empty operand");
                nops++;
                if (!*p)
                    break;
                s = p + 1;
            }
        }
    }
    static const int want_ops[] = {
        [ISA_FMT_NONE] = 0, [ISA_FMT_BRA] = -1, [ISA_FMT_D_B] = 2, [ISA_FMT_D_SR] = 2, [ISA_FMT_D_A_B_P] = 4,
        [ISA_FMT_P_P_P] = 3, [ISA_FMT_D_A_B] = 3, [ISA_FMT_D_A_B_C] = 4, [ISA_FMT_P_A_B] = 3,
        [ISA_FMT_D_A] = 2, [ISA_FMT_LD] = 2, [ISA_FMT_ST] = 2, [ISA_FMT_TEX] = 3};
    if (fmt == ISA_FMT_BRA) {
        if (nops != 1 && nops != 2)
            return fail_at(as, ms, "bra takes 'target' or 'target, reconvergence'");
        if (nops == 1 && gp != ISA_PRED_TRUE)
            return fail_at(as, ms, "a predicated bra needs a reconvergence label: bra target, join");
    } else if (nops != want_ops[fmt]) {
        return fail_at(as, nops ? ops[0].s : ms, "'%s' takes %d operand(s), got %d", isa_op_name(op),
                       want_ops[fmt], nops);
    }
    insn |= ISA_PUT(op, OP) | ISA_PUT(gp, GP) | ISA_PUT(gn, GN) | ISA_PUT(cc, CC);
    int fp = ty == ISA_TY_F;
    int rd, ra, rb, rc, na, aa, nb, ab, nc, ac, pn;
    uint32_t imm;
    /* B operand: register (with '-' if fp) or immediate */
#define PARSE_B(span, allow_imm)                                                                         \
    do {                                                                                                 \
        span_t bs_ = (span);                                                                             \
        const char *bq_ = bs_.s + (bs_.s < bs_.e && *bs_.s == '-');                                     \
        if (is_reg_token((span_t){bq_, bs_.e})) {                                                        \
            if (parse_src(as, bs_, 0, fp, &rb, &nb, &ab))                                                \
                return -1;                                                                               \
            insn |= ISA_PUT(rb, RB) | ISA_PUT(nb, NB);                                                   \
        } else {                                                                                         \
            if (!(allow_imm))                                                                            \
                return fail_at(as, bs_.s, "this operand must be a register");                           \
            if (parse_imm(as, bs_, fp, &imm, 0))                                                         \
                return -1;                                                                               \
            insn |= ISA_PUT(1, BI) | ISA_PUT(imm, IMM);                                                  \
        }                                                                                                \
    } while (0)
    switch (fmt) {
    case ISA_FMT_NONE:
        break;
    case ISA_FMT_BRA: {
        uint32_t tgt, rpc = 0;
        if (parse_target(as, ops[0], &tgt))
            return -1;
        if (nops == 2 && parse_target(as, ops[1], &rpc))
            return -1;
        insn |= ISA_PUT(tgt, TGT) | ISA_PUT(rpc, RPC);
        break;
    }
    case ISA_FMT_D_B:
        if (parse_reg(as, ops[0], &rd))
            return -1;
        insn |= ISA_PUT(rd, RD);
        PARSE_B(ops[1], 1);
        break;
    case ISA_FMT_D_SR: {
        if (parse_reg(as, ops[0], &rd))
            return -1;
        int id = -1;
        if (ops[1].s < ops[1].e && *ops[1].s == '%')
            for (int i = 0; i < ISA_SR_NUM; i++)
                if (span_eq((span_t){ops[1].s + 1, ops[1].e}, sr_names[i]))
                    id = i;
        if (id < 0)
            return fail_at(as, ops[1].s, "expected a special register %%lane %%warp %%tid %%vertex %%prim");
        insn |= ISA_PUT(rd, RD) | ISA_PUT((uint32_t)id, OFS);
        break;
    }
    case ISA_FMT_D_A_B_P:
        if (parse_reg(as, ops[0], &rd) || parse_reg(as, ops[1], &ra))
            return -1;
        insn |= ISA_PUT(rd, RD) | ISA_PUT(ra, RA);
        PARSE_B(ops[2], 0);
        if (parse_pred(as, ops[3], &rc, &pn, 1))
            return -1;
        insn |= ISA_PUT(rc, RC) | ISA_PUT(pn, NC);
        break;
    case ISA_FMT_P_P_P:
        if (parse_pred(as, ops[0], &rd, &pn, 0) || parse_pred(as, ops[1], &ra, &na, 1) ||
            parse_pred(as, ops[2], &rb, &nb, 1))
            return -1;
        insn |= ISA_PUT(rd, RD) | ISA_PUT(ra, RA) | ISA_PUT(na, NA) | ISA_PUT(rb, RB) | ISA_PUT(nb, NB);
        break;
    case ISA_FMT_D_A_B:
    case ISA_FMT_D_A_B_C:
    case ISA_FMT_P_A_B:
        if (fmt == ISA_FMT_P_A_B) {
            if (parse_pred(as, ops[0], &rd, &pn, 0))
                return -1;
        } else if (parse_reg(as, ops[0], &rd)) {
            return -1;
        }
        if (parse_src(as, ops[1], fp, fp, &ra, &na, &aa))
            return -1;
        insn |= ISA_PUT(rd, RD) | ISA_PUT(ra, RA) | ISA_PUT(na, NA) | ISA_PUT(aa, AA);
        PARSE_B(ops[2], fmt != ISA_FMT_D_A_B_C);
        if (fmt == ISA_FMT_D_A_B_C) {
            if (parse_src(as, ops[3], 0, 1, &rc, &nc, &ac))
                return -1;
            insn |= ISA_PUT(rc, RC) | ISA_PUT(nc, NC);
        }
        break;
    case ISA_FMT_D_A:
        if (parse_reg(as, ops[0], &rd) || parse_src(as, ops[1], fp, fp, &ra, &na, &aa))
            return -1;
        insn |= ISA_PUT(rd, RD) | ISA_PUT(ra, RA) | ISA_PUT(na, NA) | ISA_PUT(aa, AA);
        break;
    case ISA_FMT_LD: {
        uint32_t ofs;
        if (parse_reg(as, ops[0], &rd) || parse_mem(as, ops[1], &ra, &ofs))
            return -1;
        insn |= ISA_PUT(rd, RD) | ISA_PUT(ra, RA) | ISA_PUT(ofs, OFS);
        break;
    }
    case ISA_FMT_ST: {
        uint32_t ofs;
        if (parse_mem(as, ops[0], &ra, &ofs) || parse_reg(as, ops[1], &rb))
            return -1;
        insn |= ISA_PUT(ra, RA) | ISA_PUT(ofs, OFS) | ISA_PUT(rb, RB);
        break;
    }
    case ISA_FMT_TEX: {
        uint32_t unit;
        if (parse_reg(as, ops[0], &rd) || parse_reg(as, ops[1], &ra))
            return -1;
        if (rd > ISA_NUM_REGS - 4 && rd != ISA_REG_ZERO)
            return fail_at(as, ops[0].s, "tex writes rd..rd+3: rd must be <= r60");
        if (parse_imm(as, ops[2], 0, &unit, 0))
            return -1;
        if (unit >= ISA_TEX_UNITS)
            return fail_at(as, ops[2].s, "texture unit %u out of range 0..%d", unit, ISA_TEX_UNITS - 1);
        insn |= ISA_PUT(rd, RD) | ISA_PUT(ra, RA) | ISA_PUT(unit, OFS);
        break;
    }
    default:
        return fail_at(as, ms, "internal: unhandled format");
    }
#undef PARSE_B
    (void)ab;
    (void)ac;
    *w = insn;
    return 0;
}

/* Strip a comment (';', '#', '//') and return the content length. */
static size_t content_len(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ';' || s[i] == '#')
            return i;
        if (s[i] == '/' && i + 1 < n && s[i + 1] == '/')
            return i;
    }
    return n;
}

int isa_assemble(const char *text, uint64_t *out, uint32_t cap, isa_asm_err_t *err)
{
    as_t as = {0};
    as.err = err;
    if (err) {
        err->line = err->col = 0;
        err->msg[0] = 0;
    }
    as.syms = calloc(MAX_SYMS, sizeof(sym_t));
    if (!as.syms) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    int result = -1;
    char *line = NULL;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t pc = 0;
        const char *p = text;
        as.line = 0;
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            as.line++;
            free(line);
            line = malloc(n + 1);
            if (!line)
                goto done;
            memcpy(line, p, n);
            line[content_len(p, n)] = 0;
            as.lbase = line;
            p = nl ? nl + 1 : p + n;
            const char *q = skip_ws(line);
            /* labels */
            for (;;) {
                const char *s = q;
                if (!is_ident_start((unsigned char)*s) || *s == '.')
                    break;
                while (is_ident((unsigned char)*q))
                    q++;
                const char *e = q;
                q = skip_ws(q);
                if (*q != ':') {
                    q = s;
                    break;
                }
                q = skip_ws(q + 1);
                if (pass == 0) {
                    if ((size_t)(e - s) > NAME_MAX_LEN) {
                        fail_at(&as, s, "label too long");
                        goto done;
                    }
                    sym_t *old = find_sym(&as, s, (size_t)(e - s));
                    if (old) {
                        fail_at(&as, s, "'%.*s' already defined on line %d", (int)(e - s), s, old->line);
                        goto done;
                    }
                    if (as.nsyms == MAX_SYMS) {
                        fail_at(&as, s, "too many symbols");
                        goto done;
                    }
                    sym_t *y = &as.syms[as.nsyms++];
                    memcpy(y->name, s, (size_t)(e - s));
                    y->is_label = 1;
                    y->pc = pc;
                    y->line = as.line;
                }
            }
            if (!*q)
                continue;
            if (*q == '.') {   /* directive */
                const char *s = q;
                while (is_ident((unsigned char)*q))
                    q++;
                if (!((q - s == 4 && !strncmp(s, ".equ", 4)) || (q - s == 4 && !strncmp(s, ".set", 4)))) {
                    fail_at(&as, s, "unknown directive '%.*s' (only .equ NAME, value)", (int)(q - s), s);
                    goto done;
                }
                q = skip_ws(q);
                const char *ns = q;
                while (is_ident((unsigned char)*q))
                    q++;
                const char *ne = q;
                q = skip_ws(q);
                if (ns == ne || *q != ',') {
                    fail_at(&as, ns, "expected: .equ NAME, value");
                    goto done;
                }
                span_t v = trim(q + 1, q + strlen(q));
                if (v.s == v.e || (size_t)(v.e - v.s) >= sizeof as.syms[0].text) {
                    fail_at(&as, q + 1, "bad or missing value");
                    goto done;
                }
                if (pass == 0) {
                    if ((size_t)(ne - ns) > NAME_MAX_LEN) {
                        fail_at(&as, ns, "name too long");
                        goto done;
                    }
                    sym_t *old = find_sym(&as, ns, (size_t)(ne - ns));
                    if (old) {
                        fail_at(&as, ns, "'%.*s' already defined on line %d", (int)(ne - ns), ns, old->line);
                        goto done;
                    }
                    if (as.nsyms == MAX_SYMS) {
                        fail_at(&as, ns, "too many symbols");
                        goto done;
                    }
                    sym_t *y = &as.syms[as.nsyms++];
                    memcpy(y->name, ns, (size_t)(ne - ns));
                    memcpy(y->text, v.s, (size_t)(v.e - v.s));
                    y->line = as.line;
                }
                continue;
            }
            if (pass == 1) {
                uint64_t w = 0;
                if (pc >= cap) {
                    fail_at(&as, q, "program longer than the output buffer (%u instructions)", cap);
                    goto done;
                }
                if (asm_insn(&as, q, pc, &w))
                    goto done;
                out[pc] = w;
            }
            pc++;
            if (pc > ISA_MAX_CODE) {
                fail_at(&as, q, "program longer than %d instructions", ISA_MAX_CODE);
                goto done;
            }
        }
        if (pass == 1)
            result = (int)pc;
    }
done:
    free(line);
    free(as.syms);
    return result;
}

/* ----------------------------------------------------------------------------------------------- */
/* Disassembler */

typedef struct {
    char *buf;
    size_t cap, len;
} sb_t;

static void sb_printf(sb_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->buf + (b->len < b->cap ? b->len : b->cap),
                      b->len < b->cap ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
}

static void print_src(sb_t *b, uint32_t r, int neg, int abs_)
{
    char reg[8];
    if (r == ISA_REG_ZERO)
        snprintf(reg, sizeof reg, "rz");
    else
        snprintf(reg, sizeof reg, "r%u", r);
    sb_printf(b, "%s%s%s%s", neg ? "-" : "", abs_ ? "|" : "", reg, abs_ ? "|" : "");
}

static void print_pred(sb_t *b, uint32_t p, int neg)
{
    if (p == ISA_PRED_TRUE)
        sb_printf(b, "%spt", neg ? "!" : "");
    else
        sb_printf(b, "%sp%u", neg ? "!" : "", p);
}

static void print_b(sb_t *b, uint64_t w, int fp)
{
    if (ISA_GET(w, BI)) {
        uint32_t imm = ISA_GET(w, IMM);
        sb_printf(b, "0x%08x", imm);
        (void)fp;
    } else {
        print_src(b, ISA_GET(w, RB), fp && ISA_GET(w, NB), 0);
    }
}

/* labels = program length + 1 when labels are printed (targets inside the program only), else 0 */
static void print_target(sb_t *b, uint32_t pc, uint32_t labels)
{
    if (pc < labels)
        sb_printf(b, "L%u", pc);
    else
        sb_printf(b, "%u", pc);
}

static void disasm(sb_t *b, uint64_t w, uint32_t labels)
{
    uint32_t op = ISA_GET(w, OP);
    const char *name = isa_op_name(op);
    if (!name) {
        sb_printf(b, "<undefined opcode 0x%02x: 0x%016llx>", op, (unsigned long long)w);
        return;
    }
    uint32_t gp = ISA_GET(w, GP), gn = ISA_GET(w, GN);
    if (gp != ISA_PRED_TRUE || gn) {
        sb_printf(b, "@");
        print_pred(b, gp, (int)gn);
        sb_printf(b, " ");
    }
    int fmt = isa_op_format(op), fp = isa_op_type(op) == ISA_TY_F;
    uint32_t cc = ISA_GET(w, CC);
    sb_printf(b, "%s", name);
    if (fmt == ISA_FMT_P_A_B)
        sb_printf(b, ".%s", cc_names[cc]);
    else if (op == ISA_OP_F2I || op == ISA_OP_F2U || op == ISA_OP_FRND)
        sb_printf(b, ".%s", rnd_names[cc & 3]);
    uint32_t rd = ISA_GET(w, RD), ra = ISA_GET(w, RA), rc = ISA_GET(w, RC);
    int na = fp && ISA_GET(w, NA), aa = fp && ISA_GET(w, AA), nc = ISA_GET(w, NC);
    switch (fmt) {
    case ISA_FMT_NONE:
        break;
    case ISA_FMT_BRA:
        sb_printf(b, " ");
        print_target(b, ISA_GET(w, TGT), labels);
        if (ISA_GET(w, RPC) || gp != ISA_PRED_TRUE || gn) {
            sb_printf(b, ", ");
            print_target(b, ISA_GET(w, RPC), labels);
        }
        break;
    case ISA_FMT_D_B:
        sb_printf(b, " ");
        print_src(b, rd, 0, 0);
        sb_printf(b, ", ");
        print_b(b, w, 0);
        break;
    case ISA_FMT_D_SR: {
        uint32_t id = ISA_GET(w, OFS);
        sb_printf(b, " ");
        print_src(b, rd, 0, 0);
        sb_printf(b, ", %%%s", id < ISA_SR_NUM ? sr_names[id] : "?");
        break;
    }
    case ISA_FMT_D_A_B_P:
        sb_printf(b, " ");
        print_src(b, rd, 0, 0);
        sb_printf(b, ", ");
        print_src(b, ra, 0, 0);
        sb_printf(b, ", ");
        print_b(b, w, 0);
        sb_printf(b, ", ");
        print_pred(b, rc & 7, nc);
        break;
    case ISA_FMT_P_P_P:
        sb_printf(b, " ");
        print_pred(b, rd & 7, 0);
        sb_printf(b, ", ");
        print_pred(b, ra & 7, (int)ISA_GET(w, NA));
        sb_printf(b, ", ");
        print_pred(b, ISA_GET(w, RB) & 7, (int)ISA_GET(w, NB));
        break;
    case ISA_FMT_D_A_B:
    case ISA_FMT_D_A_B_C:
    case ISA_FMT_P_A_B:
        sb_printf(b, " ");
        if (fmt == ISA_FMT_P_A_B)
            print_pred(b, rd & 7, 0);
        else
            print_src(b, rd, 0, 0);
        sb_printf(b, ", ");
        print_src(b, ra, na, aa);
        sb_printf(b, ", ");
        print_b(b, w, fp);
        if (fmt == ISA_FMT_D_A_B_C) {
            sb_printf(b, ", ");
            print_src(b, rc, nc, 0);
        }
        break;
    case ISA_FMT_D_A:
        sb_printf(b, " ");
        print_src(b, rd, 0, 0);
        sb_printf(b, ", ");
        print_src(b, ra, na, aa);
        break;
    case ISA_FMT_LD:
        sb_printf(b, " ");
        print_src(b, rd, 0, 0);
        sb_printf(b, ", [");
        print_src(b, ra, 0, 0);
        sb_printf(b, "+%u]", ISA_GET(w, OFS));
        break;
    case ISA_FMT_ST:
        sb_printf(b, " [");
        print_src(b, ra, 0, 0);
        sb_printf(b, "+%u], ", ISA_GET(w, OFS));
        print_src(b, ISA_GET(w, RB), 0, 0);
        break;
    case ISA_FMT_TEX:
        sb_printf(b, " ");
        print_src(b, rd, 0, 0);
        sb_printf(b, ", ");
        print_src(b, ra, 0, 0);
        sb_printf(b, ", %u", ISA_GET(w, OFS));
        break;
    }
    if (fp && ISA_GET(w, BI) && fmt != ISA_FMT_D_B) {
        uint32_t imm = ISA_GET(w, IMM);
        float f;
        memcpy(&f, &imm, 4);
        sb_printf(b, "   ; %.9g", (double)f);
    }
}

int isa_disasm_insn(uint64_t insn, char *buf, size_t cap)
{
    sb_t b = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    disasm(&b, insn, 0);
    return (int)b.len;
}

char *isa_disasm_program(const uint64_t *words, uint32_t n)
{
    /* which pcs are branch targets */
    uint8_t *is_tgt = calloc((size_t)n + 1, 1);
    if (!is_tgt)
        return NULL;
    for (uint32_t pc = 0; pc < n; pc++)
        if (ISA_GET(words[pc], OP) == ISA_OP_BRA) {
            uint32_t t = ISA_GET(words[pc], TGT), r = ISA_GET(words[pc], RPC);
            if (t <= n)
                is_tgt[t] = 1;
            if (r <= n)
                is_tgt[r] = 1;
        }
    size_t cap = 256 + (size_t)n * 96;
    char *out = malloc(cap);
    if (!out) {
        free(is_tgt);
        return NULL;
    }
    out[0] = 0;   /* an empty program is the empty string (nothing printed below) */
    sb_t b = {out, cap, 0};
    for (uint32_t pc = 0; pc <= n; pc++) {
        if (is_tgt[pc])
            sb_printf(&b, "L%u:\n", pc);
        if (pc == n)
            break;
        sb_printf(&b, "    ");
        disasm(&b, words[pc], n + 1);
        sb_printf(&b, "\n");
    }
    free(is_tgt);
    if (b.len >= cap) {   /* cannot happen with 96 bytes per instruction, but stay safe */
        free(out);
        return NULL;
    }
    return out;
}
