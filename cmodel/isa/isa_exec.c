/* GPUpd ISA: functional SIMT interpreter (one warp, reconvergence stack) and the per-thread reference
 * interpreter. Semantics: docs/isa.md. */
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/isa_internal.h"

#define ALL 0xffffffffu
#define RZ (ISA_REG_ZERO)
#define PT (ISA_PRED_TRUE)

const char *isa_status_str(int status)
{
    switch (status) {
    case ISA_OK: return "ok";
    case ISA_DONE: return "done";
    case ISA_ERR_PC: return "pc outside the program";
    case ISA_ERR_STACK: return "reconvergence stack overflow";
    case ISA_ERR_LIMIT: return "instruction limit reached (watchdog)";
    case ISA_ERR_DECODE: return "undefined opcode";
    case ISA_ERR_ARG: return "bad argument";
    default: return "unknown status";
    }
}

/* ----- opcode info from the table ----- */
typedef struct {
    const char *name;
    int cls, fmt, ty;
} opinfo_t;

#define FMT_NONE ISA_FMT_NONE
#define FMT_BRA ISA_FMT_BRA
#define FMT_D_B ISA_FMT_D_B
#define FMT_D_SR ISA_FMT_D_SR
#define FMT_D_A_B_P ISA_FMT_D_A_B_P
#define FMT_P_P_P ISA_FMT_P_P_P
#define FMT_D_A_B ISA_FMT_D_A_B
#define FMT_D_A_B_C ISA_FMT_D_A_B_C
#define FMT_P_A_B ISA_FMT_P_A_B
#define FMT_D_A ISA_FMT_D_A
#define FMT_LD ISA_FMT_LD
#define FMT_ST ISA_FMT_ST
#define FMT_TEX ISA_FMT_TEX
#define TY_N ISA_TY_N
#define TY_I ISA_TY_I
#define TY_F ISA_TY_F
#define ALU ISA_CLASS_ALU
#define SFU ISA_CLASS_SFU
#define MEM ISA_CLASS_MEM
#define CTRL ISA_CLASS_CTRL
#define NONE FMT_NONE
#define BRA FMT_BRA
#define D_B FMT_D_B
#define D_SR FMT_D_SR
#define D_A_B_P FMT_D_A_B_P
#define P_P_P FMT_P_P_P
#define D_A_B FMT_D_A_B
#define D_A_B_C FMT_D_A_B_C
#define P_A_B FMT_P_A_B
#define D_A FMT_D_A
#define LD FMT_LD
#define ST FMT_ST
#define TEX FMT_TEX
#define N TY_N
#define I TY_I
#define F TY_F
#define X(id, code, name, cls, fmt, ty) [code] = {name, cls, fmt, ty},
static const opinfo_t opinfo[1 << ISA_F_OP_W] = {ISA_OP_LIST(X)};
#undef X

const char *isa_op_name(uint32_t op)
{
    return op < (1u << ISA_F_OP_W) ? opinfo[op].name : NULL;
}

int isa_op_class(uint32_t op)
{
    return isa_op_name(op) ? opinfo[op].cls : -1;
}

int isa_op_format(uint32_t op)
{
    return isa_op_name(op) ? opinfo[op].fmt : -1;
}

int isa_op_type(uint32_t op)
{
    return isa_op_name(op) ? opinfo[op].ty : -1;
}

/* ----- context ----- */
isa_ctx_t *isa_ctx_new(void)
{
    return calloc(1, sizeof(isa_ctx_t));
}

void isa_ctx_free(isa_ctx_t *ctx)
{
    free(ctx);
}

void isa_ctx_set_const(isa_ctx_t *ctx, uint32_t index, uint32_t value)
{
    ctx->konst[index & (ISA_CONST_WORDS - 1)] = value;
}

void isa_ctx_set_constf(isa_ctx_t *ctx, uint32_t index, float value)
{
    uint32_t v;
    memcpy(&v, &value, 4);
    isa_ctx_set_const(ctx, index, v);
}

int isa_ctx_load(isa_ctx_t *ctx, const uint64_t *words, uint32_t n, uint32_t *bad_pc)
{
    if (n > ISA_MAX_CODE)
        return ISA_ERR_ARG;
    ctx->len = 0;
    for (uint32_t pc = 0; pc < n; pc++) {
        uint64_t w = words[pc];
        uint32_t op = ISA_GET(w, OP);
        if (!opinfo[op].name) {
            if (bad_pc)
                *bad_pc = pc;
            return ISA_ERR_DECODE;
        }
        isa_dinsn_t *d = &ctx->dec[pc];
        memset(d, 0, sizeof *d);
        d->op = (uint8_t)op;
        d->gp = (uint8_t)ISA_GET(w, GP);
        d->gn = (uint8_t)ISA_GET(w, GN);
        d->rd = (uint8_t)ISA_GET(w, RD);
        d->ra = (uint8_t)ISA_GET(w, RA);
        d->rb = (uint8_t)ISA_GET(w, RB);
        d->rc = (uint8_t)ISA_GET(w, RC);
        d->cc = (uint8_t)ISA_GET(w, CC);
        d->bi = (uint8_t)ISA_GET(w, BI);
        d->imm = ISA_GET(w, IMM);
        d->ofs = ISA_GET(w, OFS);
        d->rpc = ISA_GET(w, RPC);
        int ty = opinfo[op].ty, fmt = opinfo[op].fmt;
        if (ty == TY_F) {   /* FP source modifiers */
            d->na = (uint8_t)ISA_GET(w, NA);
            d->aa = (uint8_t)ISA_GET(w, AA);
            d->nb = (uint8_t)ISA_GET(w, NB);
            d->nc = (uint8_t)ISA_GET(w, NC);
        } else if (fmt == FMT_P_P_P) {
            d->na = (uint8_t)ISA_GET(w, NA);
            d->nb = (uint8_t)ISA_GET(w, NB);
        } else if (fmt == FMT_D_A_B_P) {
            d->nc = (uint8_t)ISA_GET(w, NC);
        }
        ctx->code[pc] = w;
    }
    ctx->len = n;
    return ISA_OK;
}

/* ----- warp ----- */
isa_warp_t *isa_warp_new(void)
{
    return calloc(1, sizeof(isa_warp_t));
}

void isa_warp_free(isa_warp_t *w)
{
    free(w);
}

static void settle(isa_warp_t *w)
{
    while (w->sp) {
        isa_stack_entry_t *t = &w->stack[w->sp - 1];
        if ((t->mask & ~w->exited) == 0 || t->pc == t->rpc)
            w->sp--;
        else
            break;
    }
}

void isa_warp_init(isa_warp_t *w, uint32_t warp_id, uint32_t active_mask)
{
    memset(w->r, 0, sizeof w->r);
    memset(w->p, 0, sizeof w->p);
    memset(w->out, 0, sizeof w->out);
    memset(w->local, 0, sizeof w->local);
    w->warp_id = warp_id;
    w->launch_mask = active_mask;
    w->exited = 0;
    w->sp = 1;
    w->stack[0].pc = 0;
    w->stack[0].mask = active_mask;
    w->stack[0].rpc = ISA_RPC_NONE;
    w->max_sp = 1;
    w->n_instrs = 0;
    w->n_thread_instrs = 0;
    settle(w);
}

uint32_t isa_warp_pc(const isa_warp_t *w)
{
    return w->sp ? w->stack[w->sp - 1].pc : ISA_RPC_NONE;
}

uint32_t isa_warp_active(const isa_warp_t *w)
{
    return w->sp ? (w->stack[w->sp - 1].mask & ~w->exited) : 0;
}

/* ----- fast path for add/mul -----
 * The definition of every FP operation is the integer soft-float in isa_fp.c. After flushing denormal
 * operands to signed zero (its FTZ), when both operands are zero or normal finite and the host's correctly
 * rounded (IEEE-754, round to nearest even) result is
 *   add: zero or normal finite (sums of such operands are exact near the underflow threshold),
 *   mul: zero or normal finite with an exponent field >= 2 (a product just below 2^-126 can round to the
 *        smallest normal on the host's denormal grid but to a tiny value, hence zero, in the soft-float),
 * that result is the soft-float's: correct rounding, and the signed-zero rules (x + (-x) = +0, (-0) + (-0)
 * = -0, a product's sign the xor of the operands') are IEEE's. Every other case goes to the soft-float.
 * Only used where host float arithmetic is binary32 SSE with no excess precision (FLT_EVAL_METHOD 0).
 * tests/unit/test_isa_exec.c checks the interpreter's fadd/fmul/fmad against isa_f_* on random and corner
 * operands. */
#include <float.h>
#if defined(__SSE2_MATH__) && FLT_EVAL_METHOD == 0
#define ISA_FAST_FP 1
/* The host's a + b (mul = 0) or a * b (mul = 1), branch-free for warp-wide loops; *bad = 0 when the
 * result is the soft-float's (above), nonzero otherwise. */
static inline uint32_t fast_lane(uint32_t a, uint32_t b, int mul, uint32_t *bad)
{
    uint32_t ea = (a >> 23) & 0xffu, eb = (b >> 23) & 0xffu;
    a = ea == 0 ? (a & 0x80000000u) : a;
    b = eb == 0 ? (b & 0x80000000u) : b;
    float fa, fb, fr;
    uint32_t r;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    fr = mul ? fa * fb : fa + fb;
    memcpy(&r, &fr, 4);
    uint32_t er = (r >> 23) & 0xffu;
    uint32_t rok = ((r & 0x7fffffffu) == 0) | (mul ? (er - 2u < 253u) : (er - 1u < 254u));
    *bad = (uint32_t)(ea == 255u) | (uint32_t)(eb == 255u) | (rok ^ 1u);
    return r;
}
#endif

/* ----- data operations on the lanes of `ex` ----- */
#define FOR_LANES(ex) for (uint32_t m_ = (ex); m_; m_ &= m_ - 1) \
        for (int l = __builtin_ctz(m_), once_ = 1; once_; once_ = 0)

static inline uint32_t fmod_a(const isa_dinsn_t *d, uint32_t v)
{
    if (d->aa)
        v &= 0x7fffffffu;
    if (d->na)
        v ^= 0x80000000u;
    return v;
}

static uint32_t sreg(const isa_warp_t *w, uint32_t id, int l)
{
    switch (id) {
    case ISA_SR_LANE: return (uint32_t)l;
    case ISA_SR_WARP: return w->warp_id;
    case ISA_SR_TID: return w->warp_id * ISA_WARP_SIZE + (uint32_t)l;
    case ISA_SR_VERTEX: return w->sr_vertex[l];
    case ISA_SR_PRIM: return w->sr_prim[l];
    default: return 0;
    }
}

/* Executes a non-control instruction on lanes ex; fills rec (if non-NULL) with what was written.
 * Warp-wide: the instruction is decoded once (d) and its operation runs as a loop over all 32 lanes where
 * it is cheap and has no side effect (integer, moves, loads, the fast FP paths; lanes outside ex compute a
 * value that is never written), so the compiler can vectorise it; the results are then merged into the
 * destination under ex. Operations that call a soft-float or SFU routine run on the lanes of ex only. */
#define WS ISA_WARP_SIZE
_Static_assert(ISA_WARP_SIZE == 32, "lane_bit and the lane masks assume 32 lanes");
static const uint32_t lane_bit[WS] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7, 1u << 8, 1u << 9, 1u << 10,
    1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15, 1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20,
    1u << 21, 1u << 22, 1u << 23, 1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};
static void exec_data(const isa_ctx_t *ctx, isa_warp_t *w, const isa_dinsn_t *d, uint32_t ex,
                      isa_retire_t *rec)
{
    uint32_t res[WS];
    uint32_t bimm[WS];
    const uint32_t *ra = w->r[d->ra], *rc = w->r[d->rc];
    const uint32_t *rb = w->r[d->rb];
    const uint32_t imm = d->imm;
    int kind = ISA_DST_REG;
    int all = 1;    /* res[] holds a value for every lane (else only for the lanes of ex) */
    if (d->bi) {
        for (int l = 0; l < WS; l++)
            bimm[l] = imm;
        rb = bimm;
    }
    /* FP source modifiers as masks: a' = (a & am) ^ ax, b' = b ^ bx, c' = c ^ cx */
    const uint32_t am = d->aa ? 0x7fffffffu : 0xffffffffu, ax = d->na ? 0x80000000u : 0u;
    const uint32_t bx = d->nb ? 0x80000000u : 0u, cx = d->nc ? 0x80000000u : 0u;
#define FA(l) ((ra[l] & am) ^ ax)
#define FB(l) (rb[l] ^ bx)
#define FC(l) (rc[l] ^ cx)
#define ALLOOP(expr) do { for (int l = 0; l < WS; l++) res[l] = (expr); } while (0)
#define EXLOOP(expr) do { if (ex == ALL) { ALLOOP(expr); } else { all = 0; FOR_LANES(ex) { res[l] = (expr); } } } while (0)
    switch (d->op) {
    case ISA_OP_MOV: ALLOOP(rb[l]); break;
    case ISA_OP_S2R: EXLOOP(sreg(w, d->ofs, l)); break;
    case ISA_OP_SEL: {
        uint32_t pm = (d->rc & 7) == PT ? ALL : w->p[d->rc & 7];
        if (d->nc)
            pm = ~pm;
        ALLOOP(((pm >> l) & 1) ? ra[l] : rb[l]);
        break;
    }
    case ISA_OP_PAND: case ISA_OP_POR: case ISA_OP_PXOR: {
        uint32_t pa = (d->ra & 7) == PT ? ALL : w->p[d->ra & 7];
        uint32_t pb = (d->rb & 7) == PT ? ALL : w->p[d->rb & 7];
        if (d->na)
            pa = ~pa;
        if (d->nb)
            pb = ~pb;
        uint32_t r = d->op == ISA_OP_PAND ? (pa & pb) : d->op == ISA_OP_POR ? (pa | pb) : (pa ^ pb);
        ALLOOP((r >> l) & 1);
        kind = ISA_DST_PRED;
        break;
    }
#ifdef ISA_FAST_FP
    /* the host's binary32 result where it is the soft-float's (fast_lane), the soft-float on the lanes
     * of ex where not */
    case ISA_OP_FADD: case ISA_OP_FMUL: case ISA_OP_FMAD: {
        uint32_t bad[WS];   /* 0 where the host result is exact, else nonzero */
        if (d->op == ISA_OP_FADD)
            for (int l = 0; l < WS; l++)
                res[l] = fast_lane(FA(l), FB(l), 0, &bad[l]);
        else if (d->op == ISA_OP_FMUL)
            for (int l = 0; l < WS; l++)
                res[l] = fast_lane(FA(l), FB(l), 1, &bad[l]);
        else
            for (int l = 0; l < WS; l++) {
                uint32_t b1, b2;
                uint32_t m = fast_lane(FA(l), FB(l), 1, &b1);
                res[l] = fast_lane(m, FC(l), 0, &b2);
                bad[l] = b1 | b2;
            }
        uint32_t slow = 0;
        for (int l = 0; l < WS; l++)
            slow |= bad[l] != 0 ? lane_bit[l] : 0u;
        slow &= ex;
        FOR_LANES(slow) {
            res[l] = d->op == ISA_OP_FADD ? isa_f_add(FA(l), FB(l)) : d->op == ISA_OP_FMUL ? isa_f_mul(FA(l), FB(l))
                                                                    : isa_f_mad(FA(l), FB(l), FC(l));
        }
        break;
    }
#else
    case ISA_OP_FADD: EXLOOP(isa_f_add(FA(l), FB(l))); break;
    case ISA_OP_FMUL: EXLOOP(isa_f_mul(FA(l), FB(l))); break;
    case ISA_OP_FMAD: EXLOOP(isa_f_mad(FA(l), FB(l), FC(l))); break;
#endif
    case ISA_OP_FMIN: EXLOOP(isa_f_min(FA(l), FB(l))); break;
    case ISA_OP_FMAX: EXLOOP(isa_f_max(FA(l), FB(l))); break;
    case ISA_OP_FSETP: EXLOOP((uint32_t)isa_f_setp(FA(l), FB(l), d->cc)); kind = ISA_DST_PRED; break;
    case ISA_OP_FRND: EXLOOP(isa_f_rnd(FA(l), d->cc)); break;
    case ISA_OP_IADD: ALLOOP(ra[l] + rb[l]); break;
    case ISA_OP_ISUB: ALLOOP(ra[l] - rb[l]); break;
    case ISA_OP_IMUL: ALLOOP(ra[l] * rb[l]); break;
    case ISA_OP_AND: ALLOOP(ra[l] & rb[l]); break;
    case ISA_OP_OR: ALLOOP(ra[l] | rb[l]); break;
    case ISA_OP_XOR: ALLOOP(ra[l] ^ rb[l]); break;
    case ISA_OP_SHL: ALLOOP(ra[l] << (rb[l] & 31)); break;
    case ISA_OP_SHR: ALLOOP(ra[l] >> (rb[l] & 31)); break;
    case ISA_OP_SRA: ALLOOP((uint32_t)((ra[l] >> 31) ? ~((~ra[l]) >> (rb[l] & 31)) : ra[l] >> (rb[l] & 31)));
        break;
    case ISA_OP_IMIN: ALLOOP((int32_t)ra[l] < (int32_t)rb[l] ? ra[l] : rb[l]); break;
    case ISA_OP_IMAX: ALLOOP((int32_t)ra[l] > (int32_t)rb[l] ? ra[l] : rb[l]); break;
    case ISA_OP_ISETP: case ISA_OP_USETP: {
        const uint32_t cc = d->cc;
        if (d->op == ISA_OP_ISETP)
            ALLOOP((uint32_t)(((int32_t)ra[l] < (int32_t)rb[l] ? ISA_CC_L : ra[l] == rb[l] ? ISA_CC_E : ISA_CC_G) & cc) != 0);
        else
            ALLOOP((uint32_t)((ra[l] < rb[l] ? ISA_CC_L : ra[l] == rb[l] ? ISA_CC_E : ISA_CC_G) & cc) != 0);
        kind = ISA_DST_PRED;
        break;
    }
    case ISA_OP_F2I: EXLOOP(isa_f2i(FA(l), d->cc)); break;
    case ISA_OP_F2U: EXLOOP(isa_f2u(FA(l), d->cc)); break;
    case ISA_OP_I2F: EXLOOP(isa_i2f(ra[l])); break;
    case ISA_OP_U2F: EXLOOP(isa_u2f(ra[l])); break;
    case ISA_OP_RCP: EXLOOP(isa_sfu_rcp(FA(l))); break;
    case ISA_OP_RSQ: EXLOOP(isa_sfu_rsq(FA(l))); break;
    case ISA_OP_EX2: EXLOOP(isa_sfu_ex2(FA(l))); break;
    case ISA_OP_LG2: EXLOOP(isa_sfu_lg2(FA(l))); break;
    case ISA_OP_SIN: EXLOOP(isa_sfu_sin(FA(l))); break;
    case ISA_OP_COS: EXLOOP(isa_sfu_cos(FA(l))); break;
    case ISA_OP_LD_A: ALLOOP(w->attr[(ra[l] + d->ofs) & (ISA_ATTR_WORDS - 1)][l]); break;
    case ISA_OP_LD_C: ALLOOP(ctx->konst[(ra[l] + d->ofs) & (ISA_CONST_WORDS - 1)]); break;
    case ISA_OP_LD_L: ALLOOP(w->local[(ra[l] + d->ofs) & (ISA_LOCAL_WORDS - 1)][l]); break;
    case ISA_OP_ST_L: case ISA_OP_ST_O: {
        int loc = d->op == ISA_OP_ST_L;
        uint32_t words = loc ? ISA_LOCAL_WORDS : ISA_OUT_WORDS;
        rb = w->r[d->rb];   /* stores take the value register, never the immediate */
        FOR_LANES(ex) {
            uint32_t a = (ra[l] + d->ofs) & (words - 1), v = rb[l];
            if (loc)
                w->local[a][l] = v;
            else
                w->out[a][l] = v;
            if (rec) {
                rec->addr[l] = a;
                rec->val[0][l] = v;
            }
        }
        if (rec) {
            rec->dst_kind = loc ? ISA_DST_LOCAL : ISA_DST_OUT;
            rec->ndst = 1;
        }
        return;
    }
    case ISA_OP_TEX: {
        uint32_t rgba[4];
        const uint32_t *rt = w->r[(d->ra + 1) & (ISA_NUM_REGS - 1)];
        uint32_t tres[4][ISA_WARP_SIZE];
        if (ctx->texq) {
            ctx->texq(ctx->tex_user, d->ofs & (ISA_TEX_UNITS - 1), w->warp_id, ex, ra, rt, tres);
        } else FOR_LANES(ex) {
            if (ctx->tex) {
                ctx->tex(ctx->tex_user, d->ofs & (ISA_TEX_UNITS - 1), w->warp_id, (uint32_t)l, ra[l], rt[l], rgba);
            } else {
                rgba[0] = ra[l];
                rgba[1] = rt[l];
                rgba[2] = 0;
                rgba[3] = 0x3f800000u;
            }
            for (int k = 0; k < 4; k++)
                tres[k][l] = rgba[k];
        }
        for (int k = 0; k < 4; k++) {
            uint32_t rd = (d->rd + (uint32_t)k) & (ISA_NUM_REGS - 1);
            if (rd != RZ && ex == ALL)
                memcpy(w->r[rd], tres[k], sizeof tres[k]);
            else if (rd != RZ)
                FOR_LANES(ex) {
                    w->r[rd][l] = tres[k][l];
                }
            if (rec)
                FOR_LANES(ex) {
                    rec->val[k][l] = tres[k][l];
                }
        }
        if (rec) {
            rec->dst_kind = ISA_DST_REG;
            rec->dst = d->rd;
            rec->ndst = 4;
        }
        return;
    }
    default:
        return;
    }
#undef ALLOOP
#undef EXLOOP
#undef FA
#undef FB
#undef FC
    if (kind == ISA_DST_PRED) {
        uint32_t pd = d->rd & 7, bits = 0;
        if (all) {
            for (int l = 0; l < WS; l++)
                bits |= (res[l] & 1u) ? lane_bit[l] : 0u;
            bits &= ex;
        } else {
            FOR_LANES(ex) {
                bits |= (res[l] & 1u) << l;
            }
        }
        if (pd != PT)
            w->p[pd] = (w->p[pd] & ~ex) | bits;
        if (rec) {
            rec->dst_kind = ISA_DST_PRED;
            rec->dst = (uint8_t)pd;
            rec->ndst = 1;
            FOR_LANES(ex) {
                rec->val[0][l] = res[l] & 1u;
            }
        }
        return;
    }
    if (d->rd != RZ) {
        uint32_t *rd = w->r[d->rd];
        if (ex == ALL) {
            memcpy(rd, res, sizeof res);
        } else if (all) {
            for (int l = 0; l < WS; l++)
                rd[l] = (ex & lane_bit[l]) ? res[l] : rd[l];
        } else {
            FOR_LANES(ex) {
                rd[l] = res[l];
            }
        }
    }
    if (rec) {
        rec->dst_kind = ISA_DST_REG;
        rec->dst = d->rd;
        rec->ndst = 1;
        FOR_LANES(ex) {
            rec->val[0][l] = res[l];
        }
    }
}
#undef WS

/* bit count without a libgcc call (the default x86-64 target has no popcnt instruction) */
static inline uint32_t popcount32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0f0f0f0fu;
    return (v * 0x01010101u) >> 24;
}

static inline uint32_t guard_mask(const isa_warp_t *w, const isa_dinsn_t *d)
{
    uint32_t g = d->gp == PT ? ALL : w->p[d->gp];
    return d->gn ? ~g : g;
}

int isa_step(const isa_ctx_t *ctx, isa_warp_t *w, isa_retire_t *rec)
{
    if (w->sp == 0)
        return ISA_DONE;
    isa_stack_entry_t *top = &w->stack[w->sp - 1];
    uint32_t pc = top->pc;
    if (pc >= ctx->len)
        return ISA_ERR_PC;
    const isa_dinsn_t *d = &ctx->dec[pc];
    uint32_t active = top->mask & ~w->exited;
    uint32_t ex = active & guard_mask(w, d);
    if (rec) {
        memset(rec, 0, offsetof(isa_retire_t, val));
        memset(rec->val, 0, sizeof rec->val);
        memset(rec->addr, 0, sizeof rec->addr);
        rec->warp = w->warp_id;
        rec->pc = pc;
        rec->insn = ctx->code[pc];
        rec->active = active;
        rec->wmask = ex;
    }
    w->n_instrs++;
    w->n_thread_instrs += popcount32(active);
    switch (d->op) {
    case ISA_OP_NOP:
        top->pc = pc + 1;
        break;
    case ISA_OP_EXIT:
        w->exited |= ex;
        top->pc = pc + 1;
        break;
    case ISA_OP_BRA: {
        uint32_t taken = ex, fall = active & ~ex;
        if (!taken) {
            top->pc = pc + 1;
        } else if (!fall) {
            top->pc = d->ofs;
        } else {
            if (top->rpc == d->rpc) {
                /* already inside a region reconverging at rpc (e.g. a loop's next iteration): split */
                if (w->sp + 1 > ISA_STACK_DEPTH)
                    return ISA_ERR_STACK;
                top->pc = d->ofs;
                top->mask = taken;
            } else {
                if (w->sp + 2 > ISA_STACK_DEPTH)
                    return ISA_ERR_STACK;
                top->pc = d->rpc;
                top = &w->stack[w->sp++];
                top->pc = d->ofs;
                top->mask = taken;
                top->rpc = d->rpc;
            }
            top = &w->stack[w->sp++];
            top->pc = pc + 1;
            top->mask = fall;
            top->rpc = d->rpc;
            if (w->sp > w->max_sp)
                w->max_sp = w->sp;
        }
        break;
    }
    default:
        exec_data(ctx, w, d, ex, rec);
        top->pc = pc + 1;
        break;
    }
    settle(w);
    if (rec)
        rec->next_pc = isa_warp_pc(w);
    return ISA_OK;
}

int isa_run(const isa_ctx_t *ctx, isa_warp_t *w, uint64_t max_instrs)
{
    for (uint64_t i = 0; i < max_instrs; i++) {
        int st = isa_step(ctx, w, NULL);
        if (st != ISA_OK)
            return st;
    }
    return w->sp == 0 ? ISA_DONE : ISA_ERR_LIMIT;
}

int isa_ref_run_thread(const isa_ctx_t *ctx, isa_warp_t *w, uint32_t lane, uint64_t max_instrs)
{
    uint32_t me = 1u << lane, pc = 0;
    if (!(w->launch_mask & me))
        return ISA_DONE;
    for (uint64_t i = 0; i < max_instrs; i++) {
        if (pc >= ctx->len)
            return ISA_ERR_PC;
        const isa_dinsn_t *d = &ctx->dec[pc];
        uint32_t ex = me & guard_mask(w, d);
        switch (d->op) {
        case ISA_OP_EXIT:
            if (ex)
                return ISA_DONE;
            pc++;
            break;
        case ISA_OP_BRA:
            pc = ex ? d->ofs : pc + 1;
            break;
        case ISA_OP_NOP:
            pc++;
            break;
        default:
            exec_data(ctx, w, d, ex, NULL);
            pc++;
            break;
        }
    }
    return ISA_ERR_LIMIT;
}
