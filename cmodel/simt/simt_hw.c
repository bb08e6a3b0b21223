/* C cycle model of the SIMT core RTL: see simt_hw.h and docs/simt.md (pipeline, timing, ports). */
#include "simt/simt_hw.h"

#include <stdlib.h>
#include <string.h>

#define RZ 63u
#define PT 7u
#define RPC_NONE 0x10000u

static uint32_t lmask(uint32_t L)
{
    return L >= 32 ? 0xffffffffu : ((1u << L) - 1u);
}

simt_hw_derived_t simt_hw_derive(simt_hw_params_t p)
{
    simt_hw_derived_t g;
    g.q = p.lanes ? 32u / p.lanes : 1u;
    g.nsfu = p.lanes >= 4 ? p.lanes / 4 : 1u;
    g.sfu_sub = p.lanes / g.nsfu;
    g.d = 2;
    if (p.fpu_lat > g.d)
        g.d = p.fpu_lat;
    if (p.sfu_lat > g.d)
        g.d = p.sfu_lat;
    if (p.tex_lat > g.d)
        g.d = p.tex_lat;
    g.imul_mm = p.imul_passes > 1 ? p.imul_passes - 1u : 0u;
    g.fpu_mm = p.fpu_passes > 1 ? p.fpu_passes - 1u : 0u;
    return g;
}

int simt_hw_params_ok(simt_hw_params_t p)
{
    if (p.lanes == 0 || p.lanes > 32 || (p.lanes & (p.lanes - 1)))
        return 0;
    if (p.warps < 1 || p.warps > SIMT_HW_MAX_WARPS)
        return 0;
    if (p.fpu_lat < 1 || p.sfu_lat < 1 || p.tex_lat < 1)
        return 0;
    if ((p.imul_passes > 1 && p.imul_passes != 4 && p.imul_passes != 8 && p.imul_passes != 16) ||
        (p.fpu_passes > 1 && p.fpu_passes != 4))
        return 0;
    return simt_hw_derive(p).d <= SIMT_HW_MAX_D;
}

simt_hw_dec_t simt_hw_decode(uint64_t insn)
{
    simt_hw_dec_t d;
    memset(&d, 0, sizeof d);
    d.op = (uint32_t)ISA_GET(insn, OP);
    uint32_t bi = (uint32_t)ISA_GET(insn, BI), ra = (uint32_t)ISA_GET(insn, RA), rb = (uint32_t)ISA_GET(insn, RB);
    d.cls = SIMT_CLS_CTRL;
    d.kind = ISA_DST_NONE;
    switch (d.op) {
    case ISA_OP_MOV: d.cls = SIMT_CLS_INT; d.use_rb = !bi; d.dst_reg = 1; break;
    case ISA_OP_S2R: d.cls = SIMT_CLS_INT; d.dst_reg = 1; break;
    case ISA_OP_SEL:
        d.cls = SIMT_CLS_INT; d.use_ra = 1; d.use_rb = !bi; d.dst_reg = 1;
        d.use_pa = 1; d.pa = (uint32_t)ISA_GET(insn, RC) & 7u;
        break;
    case ISA_OP_PAND: case ISA_OP_POR: case ISA_OP_PXOR:
        d.cls = SIMT_CLS_INT; d.dst_pred = 1;
        d.use_pa = 1; d.pa = ra & 7u; d.use_pb = 1; d.pb = rb & 7u;
        break;
    case ISA_OP_FADD: case ISA_OP_FMUL: case ISA_OP_FMIN: case ISA_OP_FMAX:
        d.cls = SIMT_CLS_FPU; d.use_ra = 1; d.use_rb = !bi; d.dst_reg = 1; break;
    case ISA_OP_FMAD: d.cls = SIMT_CLS_FPU; d.use_ra = 1; d.use_rb = !bi; d.use_rc = 1; d.dst_reg = 1; break;
    case ISA_OP_FSETP: d.cls = SIMT_CLS_FPU; d.use_ra = 1; d.use_rb = !bi; d.dst_pred = 1; break;
    case ISA_OP_FRND: case ISA_OP_F2I: case ISA_OP_F2U: case ISA_OP_I2F: case ISA_OP_U2F:
        d.cls = SIMT_CLS_FPU; d.use_ra = 1; d.dst_reg = 1; break;
    case ISA_OP_IADD: case ISA_OP_ISUB: case ISA_OP_AND: case ISA_OP_OR: case ISA_OP_XOR: case ISA_OP_SHL:
    case ISA_OP_SHR: case ISA_OP_SRA: case ISA_OP_IMIN: case ISA_OP_IMAX:
        d.cls = SIMT_CLS_INT; d.use_ra = 1; d.use_rb = !bi; d.dst_reg = 1; break;
    case ISA_OP_IMUL: d.cls = SIMT_CLS_IMUL; d.use_ra = 1; d.use_rb = !bi; d.dst_reg = 1; break;
    case ISA_OP_ISETP: case ISA_OP_USETP: d.cls = SIMT_CLS_INT; d.use_ra = 1; d.use_rb = !bi; d.dst_pred = 1; break;
    case ISA_OP_RCP: case ISA_OP_RSQ: case ISA_OP_EX2: case ISA_OP_LG2: case ISA_OP_SIN: case ISA_OP_COS:
        d.cls = SIMT_CLS_SFU; d.use_ra = 1; d.dst_reg = 1; break;
    case ISA_OP_LD_A: case ISA_OP_LD_C: case ISA_OP_LD_L: d.cls = SIMT_CLS_LD; d.use_ra = 1; d.dst_reg = 1; break;
    case ISA_OP_ST_L: case ISA_OP_ST_O:
        d.cls = SIMT_CLS_ST; d.use_ra = 1; d.use_rb = 1;
        d.kind = d.op == ISA_OP_ST_L ? ISA_DST_LOCAL : ISA_DST_OUT;
        break;
    case ISA_OP_TEX: d.cls = SIMT_CLS_TEX; d.use_ra = 1; d.use_ra1 = 1; d.dst_reg = 1; d.ndst = 4; break;
    default: break;   /* nop, exit, bra, undefined: control */
    }
    if (d.dst_reg) {
        d.kind = ISA_DST_REG;
        if (!d.ndst)
            d.ndst = 1;
    }
    if (d.dst_pred) {
        d.kind = ISA_DST_PRED;
        d.ndst = 1;
    }
    return d;
}

int simt_hw_init(simt_hw_t *h, simt_hw_params_t p)
{
    memset(h, 0, sizeof *h);
    if (!simt_hw_params_ok(p))
        return -1;
    h->p = p;
    h->g = simt_hw_derive(p);
    size_t n = (size_t)p.warps * 32u * 64u;
    h->rf = calloc(n, 4);
    h->attr = calloc(n, 4);
    h->local = calloc(n, 4);
    h->out = calloc(n, 4);
    h->sr = calloc((size_t)p.warps * 32u * SIMT_HW_SR_WORDS, 4);
    if (!h->rf || !h->attr || !h->local || !h->out || !h->sr) {
        simt_hw_free(h);
        return -1;
    }
    return 0;
}

void simt_hw_free(simt_hw_t *h)
{
    free(h->rf);
    free(h->attr);
    free(h->local);
    free(h->out);
    free(h->sr);
    h->rf = h->attr = h->local = h->out = h->sr = NULL;
}

void simt_hw_reset(simt_hw_t *h)
{
    for (uint32_t w = 0; w < SIMT_HW_MAX_WARPS; w++) {
        h->w[w].run = h->w[w].err = h->w[w].settled = h->w[w].ibuf_v = 0;
        h->w[w].sp = 0;
    }
    h->fetch_v = 0;
    h->fetch_w = h->fptr = h->iptr = 0;
    h->s0_v = 0;
    for (uint32_t k = 0; k < SIMT_HW_MAX_D + 2; k++)
        h->beat[k].v = 0;
}

static inline size_t mi(uint32_t w, uint32_t t, uint32_t word)
{
    return ((size_t)w * 32u + t) * 64u + word;
}

/* the ring of S1 and P[1..d] (simt_hw.h): k = 0 is S1, k = 1..d is P[k], k = d + 1 the free slot */
static inline uint32_t ring_ix(const simt_hw_t *h, uint32_t k)
{
    uint32_t i = h->beat0 + k;
    return i > h->g.d + 1u ? i - (h->g.d + 2u) : i;
}

static inline const simt_hw_beat_t *stage_c(const simt_hw_t *h, uint32_t k)
{
    return &h->beat[ring_ix(h, k)];
}

static inline simt_hw_beat_t *stage(simt_hw_t *h, uint32_t k)
{
    return &h->beat[ring_ix(h, k)];
}

/* ---------------------------------------------------------------- issue-stage helpers (per warp) */
static uint32_t guard_of(const simt_hw_warp_t *w, uint64_t insn)
{
    uint32_t gp = (uint32_t)ISA_GET(insn, GP);
    uint32_t g = gp == PT ? 0xffffffffu : w->pred[gp];
    return ISA_GET(insn, GN) ? ~g : g;
}

static uint64_t dst_regs(const simt_hw_dec_t *d, uint64_t insn)
{
    uint64_t m = 0;
    uint32_t rd = (uint32_t)ISA_GET(insn, RD);
    if (d->dst_reg)
        for (uint32_t k = 0; k < (uint32_t)d->ndst; k++)
            m |= 1ull << ((rd + k) & 63u);
    return m & ~(1ull << RZ);
}

static int hazard(const simt_hw_warp_t *w, uint64_t insn, const simt_hw_dec_t *d)
{
    uint64_t srcs = 0;
    uint32_t ra = (uint32_t)ISA_GET(insn, RA), rb = (uint32_t)ISA_GET(insn, RB), rc = (uint32_t)ISA_GET(insn, RC);
    if (d->use_ra)
        srcs |= 1ull << ra;
    if (d->use_rb)
        srcs |= 1ull << rb;
    if (d->use_rc)
        srcs |= 1ull << rc;
    if (d->use_ra1)
        srcs |= 1ull << ((ra + 1) & 63u);
    if ((srcs | dst_regs(d, insn)) & w->sb_reg)
        return 1;
    uint32_t ps = 1u << ISA_GET(insn, GP);
    if (d->use_pa)
        ps |= 1u << d->pa;
    if (d->use_pb)
        ps |= 1u << d->pb;
    if (d->dst_pred)
        ps |= 1u << (ISA_GET(insn, RD) & 7u);
    return (ps & w->sb_pred & 0x7fu) != 0;
}

/* would this branch overflow the stack? */
static int overflow(const simt_hw_warp_t *w, uint64_t insn)
{
    if (ISA_GET(insn, OP) != ISA_OP_BRA)
        return 0;
    uint32_t top = w->sp - 1, active = w->smask[top] & ~w->exited;
    uint32_t t = active & guard_of(w, insn), n = active & ~t;
    if (!t || !n)
        return 0;
    uint32_t need = w->srpc[top] == (uint32_t)ISA_GET(insn, RPC) ? 1u : 2u;
    return w->sp + need > ISA_STACK_DEPTH;
}

/* last minor of a row of a class: tex components, SFU sub-beats, imul and FPU passes */
static uint32_t beat_mm(const simt_hw_t *h, uint32_t cls)
{
    return cls == SIMT_CLS_TEX    ? 3u
         : cls == SIMT_CLS_SFU  ? h->g.sfu_sub - 1u
         : cls == SIMT_CLS_IMUL ? h->g.imul_mm
         : cls == SIMT_CLS_FPU  ? h->g.fpu_mm
                                : 0u;
}

static int issuable(const simt_hw_warp_t *w)
{
    if (!w->run || !w->settled || !w->ibuf_v)
        return 0;
    return !hazard(w, w->ibuf, &w->ibuf_d) && !overflow(w, w->ibuf);
}

static int issue_pick(const simt_hw_t *h)
{
    int can = !h->s0_v;
    if (h->s0_v) {
        const simt_hw_dec_t *d = &h->s0_d;
        uint32_t mm = beat_mm(h, d->cls);
        can = d->cls == SIMT_CLS_CTRL || (h->s0_row == h->g.q - 1u && h->s0_minor == mm);
    }
    if (!can)
        return -1;
    for (uint32_t k = 0; k < h->p.warps; k++) {
        uint32_t w = (h->iptr + k) % h->p.warps;
        if (issuable(&h->w[w]))
            return (int)w;
    }
    return -1;
}

/* ---------------------------------------------------------------- outputs */
void simt_hw_comb(const simt_hw_t *h, const simt_hw_in_t *in, simt_hw_out_t *o)
{
    const uint32_t L = h->p.lanes, D = h->g.d;
    memset(o, 0, sizeof *o);
    int busy = h->s0_v || h->fetch_v;
    for (uint32_t k = 0; k <= D; k++)
        busy |= stage_c(h, k)->v;
    for (uint32_t w = 0; w < h->p.warps; w++) {
        if (h->w[w].run)
            o->run_mask |= 1u << w;
        if (h->w[w].err)
            o->err_mask |= 1u << w;
    }
    o->idle = !busy && !o->run_mask;
    memcpy(o->out_rdata, h->out_rdata, sizeof o->out_rdata);
    const simt_hw_beat_t *s1 = stage_c(h, 0);
    if (s1->v && s1->cls == SIMT_CLS_TEX) {
        o->tex_valid = 1;
        o->tex_warp = s1->warp;
        o->tex_row = s1->row;
        o->tex_comp = s1->minor;
        o->tex_unit = (uint32_t)ISA_GET(s1->insn, OFS) & 15u;
        o->tex_mask = s1->exl;
        for (uint32_t l = 0; l < L; l++) {
            o->tex_s[l] = s1->val[l];    /* S1 holds the operands in val (A) and addr (T) */
            o->tex_t[l] = s1->addr[l];
        }
    }
    int iw = issue_pick(h);
    if (iw >= 0) {
        o->issue_valid = 1;
        o->issue_warp = (uint32_t)iw;
        o->issue_pc = h->w[iw].spc[h->w[iw].sp - 1];
    }
    const simt_hw_beat_t *b = stage_c(h, D);
    if (b->v) {
        o->rt_valid = 1;
        o->rt_first = b->first;
        o->rt_last = b->last;
        o->rt_warp = b->warp;
        o->rt_pc = b->pc;
        o->rt_active = b->active;
        o->rt_wmask = b->ex;
        o->rt_row = b->row;
        o->rt_minor = b->minor & 3u;   /* the RTL port carries the minor mod 4 (imul passes go to 15) */
        o->rt_lane_en = b->lane_en;
        o->rt_kind = b->kind;
        o->rt_dst = b->kind == ISA_DST_PRED ? ((uint32_t)ISA_GET(b->insn, RD) & 7u)
                  : b->kind == ISA_DST_REG ? (uint32_t)ISA_GET(b->insn, RD) : 0u;
        int tex_now = b->cls == SIMT_CLS_TEX && h->p.tex_lat == D;
        for (uint32_t l = 0; l < L; l++) {
            if ((b->exl >> l) & 1u) {
                o->rt_val[l] = tex_now ? in->tex_rsp[l] : b->val[l];
                if (b->cls == SIMT_CLS_ST)
                    o->rt_addr[l] = b->addr[l];
            }
        }
    }
}

/* ---------------------------------------------------------------- S1 -> P[1]: the lane datapaths */
static uint32_t lane_value(simt_hw_t *h, const simt_hw_beat_t *s, uint32_t l, uint32_t opb, uint32_t opc,
                           uint32_t *addr_out)
{
    const uint64_t in = s->insn;
    const uint32_t op = (uint32_t)ISA_GET(in, OP), bi = (uint32_t)ISA_GET(in, BI);
    const uint32_t imm = (uint32_t)ISA_GET(in, IMM), ofs = (uint32_t)ISA_GET(in, OFS), cc = (uint32_t)ISA_GET(in, CC);
    const uint32_t t = s->row * h->p.lanes + l, w = s->warp;
    const uint32_t a = s->val[l];
    const uint32_t b = bi ? imm : opb;
    uint32_t fa = a;
    if (ISA_GET(in, AA))
        fa &= 0x7fffffffu;
    if (ISA_GET(in, NA))
        fa ^= 0x80000000u;
    const uint32_t fb = ISA_GET(in, NB) ? b ^ 0x80000000u : b;
    const uint32_t fc = ISA_GET(in, NC) ? opc ^ 0x80000000u : opc;
    const simt_hw_warp_t *ws = &h->w[w];
    switch (op) {
    case ISA_OP_MOV: return b;
    case ISA_OP_S2R:
        switch (ofs) {
        case ISA_SR_LANE: return t;
        case ISA_SR_WARP: return ws->wid;
        case ISA_SR_TID: return ws->wid * 32u + t;
        case ISA_SR_VERTEX: return h->sr[((size_t)w * 32u + t) * 2u];
        case ISA_SR_PRIM: return h->sr[((size_t)w * 32u + t) * 2u + 1u];
        default: return 0;
        }
    case ISA_OP_SEL: {
        uint32_t pc = (uint32_t)ISA_GET(in, RC) & 7u;
        uint32_t pb = pc == PT ? 1u : (ws->pred[pc] >> t) & 1u;
        pb ^= (uint32_t)ISA_GET(in, NC);
        return pb ? a : b;
    }
    case ISA_OP_PAND: case ISA_OP_POR: case ISA_OP_PXOR: {
        uint32_t ia = (uint32_t)ISA_GET(in, RA) & 7u, ib = (uint32_t)ISA_GET(in, RB) & 7u;
        uint32_t pa = (ia == PT ? 1u : (ws->pred[ia] >> t) & 1u) ^ (uint32_t)ISA_GET(in, NA);
        uint32_t pb = (ib == PT ? 1u : (ws->pred[ib] >> t) & 1u) ^ (uint32_t)ISA_GET(in, NB);
        return op == ISA_OP_PAND ? (pa & pb) : op == ISA_OP_POR ? (pa | pb) : (pa ^ pb);
    }
    case ISA_OP_FADD: return isa_f_add(fa, fb);
    case ISA_OP_FMUL: return isa_f_mul(fa, fb);
    case ISA_OP_FMAD: return isa_f_mad(fa, fb, fc);
    case ISA_OP_FMIN: return isa_f_min(fa, fb);
    case ISA_OP_FMAX: return isa_f_max(fa, fb);
    case ISA_OP_FSETP: return (uint32_t)(isa_f_setp(fa, fb, cc) != 0);
    case ISA_OP_FRND: return isa_f_rnd(fa, cc & 3u);
    case ISA_OP_F2I: return isa_f2i(fa, cc & 3u);
    case ISA_OP_F2U: return isa_f2u(fa, cc & 3u);
    case ISA_OP_I2F: return isa_i2f(a);
    case ISA_OP_U2F: return isa_u2f(a);
    case ISA_OP_IADD: return a + b;
    case ISA_OP_ISUB: return a - b;
    case ISA_OP_IMUL: return a * b;
    case ISA_OP_AND: return a & b;
    case ISA_OP_OR: return a | b;
    case ISA_OP_XOR: return a ^ b;
    case ISA_OP_SHL: return a << (b & 31u);
    case ISA_OP_SHR: return a >> (b & 31u);
    case ISA_OP_SRA: return (uint32_t)((a >> 31) ? ~((~a) >> (b & 31u)) : a >> (b & 31u));
    case ISA_OP_IMIN: return (int32_t)a < (int32_t)b ? a : b;
    case ISA_OP_IMAX: return (int32_t)a > (int32_t)b ? a : b;
    case ISA_OP_ISETP: case ISA_OP_USETP: {
        uint32_t rel;
        if (op == ISA_OP_ISETP)
            rel = (int32_t)a < (int32_t)b ? ISA_CC_L : a == b ? ISA_CC_E : ISA_CC_G;
        else
            rel = a < b ? ISA_CC_L : a == b ? ISA_CC_E : ISA_CC_G;
        return (cc & rel) != 0;
    }
    case ISA_OP_RCP: return isa_sfu_rcp(fa);
    case ISA_OP_RSQ: return isa_sfu_rsq(fa);
    case ISA_OP_EX2: return isa_sfu_ex2(fa);
    case ISA_OP_LG2: return isa_sfu_lg2(fa);
    case ISA_OP_SIN: return isa_sfu_sin(fa);
    case ISA_OP_COS: return isa_sfu_cos(fa);
    case ISA_OP_LD_A: return h->attr[mi(w, t, (a + ofs) & 63u)];
    case ISA_OP_LD_C: return h->konst[(a + ofs) & 255u];
    case ISA_OP_LD_L: return h->local[mi(w, t, (a + ofs) & 63u)];
    case ISA_OP_ST_L: case ISA_OP_ST_O: {
        uint32_t ad = (a + ofs) & 63u;
        *addr_out = ad;
        if ((s->exl >> l) & 1u) {
            if (op == ISA_OP_ST_L)
                h->local[mi(w, t, ad)] = opb;
            else
                h->out[mi(w, t, ad)] = opb;
        }
        return opb;
    }
    default: return 0;
    }
}

/* ---------------------------------------------------------------- rising edge */
void simt_hw_clock(simt_hw_t *h, const simt_hw_in_t *in)
{
    const uint32_t L = h->p.lanes, W = h->p.warps, D = h->g.d, Q = h->g.q, LM = lmask(L);

    /* (a) decisions from the current state; the output-memory read port (synchronous, old data) */
    uint32_t nrd[SIMT_HW_MAX_LANES] = {0};
    for (uint32_t l = 0; l < L; l++)
        nrd[l] = h->out[mi(in->out_warp % W, (in->out_row % Q) * L + l, in->out_word & 63u)];
    int iw = issue_pick(h);
    int fsel = -1;
    for (uint32_t k = 0; k < W; k++) {
        uint32_t w = (h->fptr + k) % W;
        const simt_hw_warp_t *ws = &h->w[w];
        if (ws->run && ws->settled && !ws->ibuf_v && !(h->fetch_v && h->fetch_w == w)) {
            fsel = (int)w;
            break;
        }
    }

    /* (b) S0 -> S1: operand read (synchronous register-file read of the S0 beat) */
    simt_hw_beat_t *ns1 = stage(h, D + 1u);   /* the free slot: S1 after this edge */
    ns1->v = 0;
    if (h->s0_v) {
        const simt_hw_dec_t d = h->s0_d;
        uint32_t mm = beat_mm(h, d.cls);
        ns1->v = 1;
        ns1->warp = h->s0_warp;
        ns1->row = d.cls == SIMT_CLS_CTRL ? 0u : h->s0_row;
        ns1->minor = h->s0_minor;
        ns1->first = ns1->row == 0 && ns1->minor == 0;
        ns1->last = d.cls == SIMT_CLS_CTRL || (h->s0_row == Q - 1u && h->s0_minor == mm);
        ns1->cls = d.cls;
        ns1->kind = d.kind;
        ns1->pc = h->s0_pc;
        ns1->active = h->s0_active;
        ns1->ex = h->s0_ex;
        ns1->insn = h->s0_insn;
        if (d.cls == SIMT_CLS_CTRL)
            ns1->lane_en = 0;
        else if (d.cls == SIMT_CLS_SFU)
            ns1->lane_en = (lmask(h->g.nsfu) << (h->s0_minor * h->g.nsfu)) & LM;
        else if ((d.cls == SIMT_CLS_IMUL || d.cls == SIMT_CLS_FPU) && h->s0_minor != beat_mm(h, d.cls))
            ns1->lane_en = 0;   /* an imul/FPU pass before the last: no lane writes */
        else
            ns1->lane_en = LM;
        ns1->exl = (uint32_t)(((uint64_t)h->s0_ex >> (ns1->row * L)) & LM) & ns1->lane_en;
        ns1->dst = (uint32_t)ISA_GET(h->s0_insn, RD);
        uint32_t ra = (uint32_t)ISA_GET(h->s0_insn, RA), rb = (uint32_t)ISA_GET(h->s0_insn, RB);
        uint32_t rc = (uint32_t)ISA_GET(h->s0_insn, RC);
        uint32_t rbp = d.cls == SIMT_CLS_TEX ? ((ra + 1u) & 63u) : rb;
        for (uint32_t l = 0; l < L; l++) {
            uint32_t t = ns1->row * L + l;
            ns1->val[l] = ra == RZ ? 0u : h->rf[mi(ns1->warp, t, ra)];
            ns1->addr[l] = rbp == RZ ? 0u : h->rf[mi(ns1->warp, t, rbp)];   /* B (tex: T on the request port) */
            ns1->opc[l] = rc == RZ ? 0u : h->rf[mi(ns1->warp, t, rc)];
        }
    }

    /* (c) write-back of P[D] */
    uint32_t sb_clr_w = 0;
    uint64_t sb_clr_r = 0;
    uint32_t sb_clr_p = 0;
    int sb_clr = 0;
    {
        const simt_hw_beat_t *b = stage_c(h, D);
        if (b->v) {
            int tex_now = b->cls == SIMT_CLS_TEX && h->p.tex_lat == D;
            if (b->kind == ISA_DST_REG) {
                uint32_t r = (b->dst + (b->cls == SIMT_CLS_TEX ? b->minor : 0u)) & 63u;
                if (r != RZ)
                    for (uint32_t l = 0; l < L; l++)
                        if ((b->exl >> l) & 1u)
                            h->rf[mi(b->warp, b->row * L + l, r)] = tex_now ? in->tex_rsp[l] : b->val[l];
            } else if (b->kind == ISA_DST_PRED) {
                uint32_t pd = b->dst & 7u;
                if (pd != PT)
                    for (uint32_t l = 0; l < L; l++)
                        if ((b->exl >> l) & 1u) {
                            uint32_t bit = 1u << (b->row * L + l);
                            h->w[b->warp].pred[pd] = (h->w[b->warp].pred[pd] & ~bit) | (b->val[l] & 1u ? bit : 0u);
                        }
            }
            if (b->last) {
                simt_hw_dec_t d = simt_hw_decode(b->insn);
                sb_clr = 1;
                sb_clr_w = b->warp;
                sb_clr_r = dst_regs(&d, b->insn);
                sb_clr_p = d.dst_pred ? (1u << (b->dst & 7u)) & 0x7fu : 0u;
            }
            h->n_beats++;
        }
    }

    /* (d) result pipeline shift (the ring steps: P[k] -> P[k+1], S1 -> P[1], the beat built in (b) -> S1, the
     * slot of P[D] is free), merging the texture response at P[TEX_LAT] (now P[TEX_LAT + 1]) */
    h->beat0 = h->beat0 == 0 ? D + 1u : h->beat0 - 1u;
    if (h->p.tex_lat >= 1 && h->p.tex_lat + 1u <= D) {
        simt_hw_beat_t *pt = stage(h, h->p.tex_lat + 1u);
        if (pt->v && pt->cls == SIMT_CLS_TEX)
            for (uint32_t l = 0; l < L; l++)
                pt->val[l] = in->tex_rsp[l];
    }

    /* (e) S1 -> P[1]: execute in place (stores write at this edge); lane l reads only its own operands
     * (val[l] = A, addr[l] = B, opc[l] = C) before its result and store address replace val[l] and addr[l] */
    simt_hw_beat_t *p1 = stage(h, 1);
    if (p1->v && p1->cls != SIMT_CLS_CTRL && p1->cls != SIMT_CLS_TEX) {
        for (uint32_t l = 0; l < L; l++) {
            uint32_t ad = 0;
            p1->val[l] = ((p1->lane_en >> l) & 1u) ? lane_value(h, p1, l, p1->addr[l], p1->opc[l], &ad) : 0u;
            p1->addr[l] = ad;
        }
    }

    /* (f) S1 <- S0 beat: built in (b) in the free slot, which the ring step made S1 */

    /* (g) S0: next beat, or the issued instruction */
    if (h->s0_v) {
        const simt_hw_dec_t d = h->s0_d;
        uint32_t mm = beat_mm(h, d.cls);
        int last = d.cls == SIMT_CLS_CTRL || (h->s0_row == Q - 1u && h->s0_minor == mm);
        if (!last) {
            if (h->s0_minor == mm) {
                h->s0_minor = 0;
                h->s0_row++;
            } else {
                h->s0_minor++;
            }
        } else {
            h->s0_v = 0;
        }
    }
    uint64_t sb_set_r = 0;
    uint32_t sb_set_p = 0;
    if (iw >= 0) {
        simt_hw_warp_t *ws = &h->w[iw];
        uint64_t insn = ws->ibuf;
        const simt_hw_dec_t d = ws->ibuf_d;
        uint32_t top = ws->sp - 1, pc = ws->spc[top], active = ws->smask[top] & ~ws->exited;
        uint32_t ex = active & guard_of(ws, insn);
        h->s0_v = 1;
        h->s0_warp = (uint32_t)iw;
        h->s0_pc = pc;
        h->s0_active = active;
        h->s0_ex = ex;
        h->s0_row = 0;
        h->s0_minor = 0;
        h->s0_insn = insn;
        h->s0_d = d;
        sb_set_r = dst_regs(&d, insn);
        sb_set_p = d.dst_pred ? (1u << (ISA_GET(insn, RD) & 7u)) & 0x7fu : 0u;
        /* reconvergence stack (docs/isa.md section 4) */
        uint32_t npc = (pc + 1u) & 0xffffu;
        if (d.op == ISA_OP_BRA) {
            uint32_t tk = ex, fall = active & ~ex, tgt = (uint32_t)ISA_GET(insn, TGT), rpc = (uint32_t)ISA_GET(insn, RPC);
            if (!tk) {
                ws->spc[top] = npc;
            } else if (!fall) {
                ws->spc[top] = tgt;
            } else if (ws->srpc[top] == rpc) {
                ws->spc[top] = tgt;
                ws->smask[top] = tk;
                ws->spc[top + 1] = npc;
                ws->smask[top + 1] = fall;
                ws->srpc[top + 1] = rpc;
                ws->sp += 1;
            } else {
                ws->spc[top] = rpc;
                ws->spc[top + 1] = tgt;
                ws->smask[top + 1] = tk;
                ws->srpc[top + 1] = rpc;
                ws->spc[top + 2] = npc;
                ws->smask[top + 2] = fall;
                ws->srpc[top + 2] = rpc;
                ws->sp += 2;
            }
        } else {
            if (d.op == ISA_OP_EXIT)
                ws->exited |= ex;
            ws->spc[top] = npc;
        }
        ws->ibuf_v = 0;
        ws->settled = 0;
        h->iptr = ((uint32_t)iw + 1u) % W;
        h->n_issued++;
    }

    /* (h) per-warp control: scoreboard, settle (one pop per cycle), fetch return, fetch, overflow */
    for (uint32_t w = 0; w < W; w++) {
        simt_hw_warp_t *ws = &h->w[w];
        /* (the overflow check below sees the scoreboard of this cycle: the clear takes effect at the edge) */
        int ovf_err = 0;
        if ((int)w != iw && ws->run && ws->settled && ws->ibuf_v) {
            ovf_err = !hazard(ws, ws->ibuf, &ws->ibuf_d) && overflow(ws, ws->ibuf);
        }
        if (sb_clr && sb_clr_w == w) {
            ws->sb_reg &= ~sb_clr_r;
            ws->sb_pred &= ~sb_clr_p;
        }
        if ((int)w == iw) {
            ws->sb_reg |= sb_set_r;
            ws->sb_pred |= sb_set_p;
            continue;
        }
        if (ws->run && !ws->settled) {
            if (ws->sp == 0) {
                ws->run = 0;
            } else {
                uint32_t top = ws->sp - 1;
                if ((ws->smask[top] & ~ws->exited) == 0 || ws->spc[top] == ws->srpc[top])
                    ws->sp--;
                else
                    ws->settled = 1;
            }
        } else if (ovf_err) {
            ws->run = 0;
            ws->err = 1;
        }
    }
    if (h->fetch_v) {
        h->w[h->fetch_w].ibuf = h->fetch_data;
        h->w[h->fetch_w].ibuf_d = simt_hw_decode(h->fetch_data);
        h->w[h->fetch_w].ibuf_v = 1;
    }
    h->fetch_v = 0;
    if (fsel >= 0) {
        simt_hw_warp_t *ws = &h->w[fsel];
        uint32_t pc = ws->spc[ws->sp - 1];
        if (pc >= in->prog_len) {
            ws->run = 0;
            ws->err = 1;
        } else {
            h->fetch_v = 1;
            h->fetch_w = (uint32_t)fsel;
            h->fetch_data = h->imem[pc & (ISA_MAX_CODE - 1u)];
        }
        h->fptr = ((uint32_t)fsel + 1u) % W;
    }

    /* (i) host ports */
    if (in->imem_we)
        h->imem[in->imem_addr & (ISA_MAX_CODE - 1u)] = in->imem_data;
    if (in->const_we)
        h->konst[in->const_addr & 255u] = in->const_data;
    if (in->attr_we) {
        uint32_t w = in->attr_warp % W;
        for (uint32_t l = 0; l < L; l++) {
            uint32_t t = (in->attr_row % Q) * L + l;
            if (in->attr_word < 64) {
                size_t i = mi(w, t, in->attr_word);
                h->attr[i] = in->attr_data[l];
                h->rf[i] = 0;
                h->local[i] = 0;
                h->out[i] = 0;
            } else if (in->attr_word < 64 + SIMT_HW_SR_WORDS) {
                h->sr[((size_t)w * 32u + t) * 2u + (in->attr_word - 64u)] = in->attr_data[l];
            }
        }
    }
    if (in->launch) {
        simt_hw_warp_t *ws = &h->w[in->launch_warp % W];
        ws->run = 1;
        ws->err = 0;
        ws->settled = 0;
        ws->ibuf_v = 0;
        ws->wid = in->launch_wid;
        ws->exited = 0;
        ws->sp = 1;
        ws->spc[0] = 0;
        ws->smask[0] = in->launch_mask;
        ws->srpc[0] = RPC_NONE;
        ws->sb_reg = 0;
        ws->sb_pred = 0;
        memset(ws->pred, 0, sizeof ws->pred);
    }
    memcpy(h->out_rdata, nrd, sizeof nrd);
    h->cycle++;
}
