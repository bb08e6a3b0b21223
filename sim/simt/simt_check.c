/* The checks of the SIMT lockstep against the ISA interpreter (sim/simt/simt_cosim.h): every retired
 * instruction (isa_step retire records: pc, active mask, written lanes, destination, every value, store
 * addresses), the output memory read back, and every warp's final status. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_cosim.h"

int check_retire(ctx_t *c, job_t *j, const simt_hw_out_t *o, uint64_t cycle, stats_t *st, fail_t *fl)
{
    const uint32_t L = c->prm.lanes;
    if (!o->rt_valid)
        return 0;
    st->beats++;
    if (o->rt_first) {
        c->cur_v = 1;
        c->cur_warp = o->rt_warp;
        c->cur_pc = o->rt_pc;
        c->cur_active = o->rt_active;
        c->cur_wmask = o->rt_wmask;
        c->cur_kind = o->rt_kind;
        c->cur_dst = o->rt_dst;
        memset(c->cur_val, 0, sizeof c->cur_val);
        memset(c->cur_addr, 0, sizeof c->cur_addr);
        memset(c->cur_seen, 0, sizeof c->cur_seen);
    } else if (!c->cur_v || o->rt_warp != c->cur_warp || o->rt_pc != c->cur_pc) {
        fl->failed = 1;
        fl->cycle = cycle;
        snprintf(fl->what, sizeof fl->what, "retire beat without its first beat (warp %u pc %u)", o->rt_warp, o->rt_pc);
        return -1;
    }
    uint32_t comp = (o->rt_kind == ISA_DST_REG && ISA_GET(j->code[o->rt_pc % ISA_MAX_CODE], OP) == ISA_OP_TEX)
                        ? (o->rt_minor & 3u) : 0u;
    for (uint32_t l = 0; l < L; l++) {
        if (!((o->rt_lane_en >> l) & 1u))
            continue;
        uint32_t t = o->rt_row * L + l;
        c->cur_val[comp][t] = o->rt_val[l];
        c->cur_addr[t] = o->rt_addr[l];
        c->cur_seen[comp] |= 1u << t;
    }
    if (!o->rt_last)
        return 0;
    c->cur_v = 0;
    uint32_t slot = o->rt_warp;
    if (slot >= j->nw) {
        fl->failed = 1;
        fl->cycle = cycle;
        snprintf(fl->what, sizeof fl->what, "retire from warp slot %u, only %u launched", slot, j->nw);
        return -1;
    }
    isa_retire_t rec;
    int stt = isa_step(j->ctx, j->iw[slot], &rec);
    st->instrs++;
    st->thread_instrs += (uint64_t)__builtin_popcount(rec.active);
    char buf[2048];
    int m = 0;
    buf[0] = 0;
    if (stt != ISA_OK) {
        m += snprintf(buf + m, sizeof buf - (size_t)m, "the interpreter has no instruction to retire (%s) but the RTL retired pc %u",
                      isa_status_str(stt), c->cur_pc);
    } else {
        uint32_t ndst = rec.ndst;
        uint32_t want_seen = c->cur_kind == ISA_DST_NONE ? 0u : 0xffffffffu;
        if (rec.pc != c->cur_pc)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "pc: RTL %u ISA %u; ", c->cur_pc, rec.pc);
        if (rec.active != c->cur_active)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "active: RTL 0x%08x ISA 0x%08x; ", c->cur_active, rec.active);
        if (rec.wmask != c->cur_wmask)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "wmask: RTL 0x%08x ISA 0x%08x; ", c->cur_wmask, rec.wmask);
        if (rec.dst_kind != c->cur_kind)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "dst_kind: RTL %u ISA %u; ", c->cur_kind, rec.dst_kind);
        if ((rec.dst_kind == ISA_DST_REG || rec.dst_kind == ISA_DST_PRED) && rec.dst != c->cur_dst)
            m += snprintf(buf + m, sizeof buf - (size_t)m, "dst: RTL %u ISA %u; ", c->cur_dst, rec.dst);
        for (uint32_t k = 0; k < ndst && k < 4 && m < 1500; k++) {
            if (c->cur_seen[k] != want_seen)
                m += snprintf(buf + m, sizeof buf - (size_t)m, "component %u: lanes retired 0x%08x, expected 0x%08x; ", k,
                              c->cur_seen[k], want_seen);
            for (uint32_t t = 0; t < 32 && m < 1500; t++) {
                if (!((rec.wmask >> t) & 1u))
                    continue;
                st->values++;
                if (c->cur_val[k][t] != rec.val[k][t])
                    m += snprintf(buf + m, sizeof buf - (size_t)m, "val[%u][lane %u]: RTL 0x%08x ISA 0x%08x; ", k, t,
                                  c->cur_val[k][t], rec.val[k][t]);
                if ((rec.dst_kind == ISA_DST_LOCAL || rec.dst_kind == ISA_DST_OUT) && c->cur_addr[t] != rec.addr[t])
                    m += snprintf(buf + m, sizeof buf - (size_t)m, "addr[lane %u]: RTL %u ISA %u; ", t, c->cur_addr[t],
                                  rec.addr[t]);
            }
        }
    }
    hist_add(c, cycle, HIST_RETIRE, slot, c->cur_pc, c->cur_active, c->cur_wmask, j->code[c->cur_pc % ISA_MAX_CODE]);
    if (m) {
        char dis[96];
        isa_disasm_insn(j->code[c->cur_pc % ISA_MAX_CODE], dis, sizeof dis);
        fl->failed = 1;
        fl->cycle = cycle;
        snprintf(fl->what, sizeof fl->what, "retired instruction differs from the ISA interpreter: warp %u pc %u `%s`: %.600s",
                 slot, c->cur_pc, dis, buf);
        return -1;
    }
    return 0;
}


/* output read-back: the data of the address of the previous cycle (warp w, row, word) */
int check_readback(ctx_t *c, job_t *j, const simt_hw_out_t *od, uint32_t w, uint32_t row, uint32_t word, uint64_t cycle,
                   stats_t *st, fail_t *fl)
{
    const uint32_t L = c->prm.lanes;
    for (uint32_t l = 0; l < L; l++) {
        uint32_t t = row * L + l, want = j->iw[w]->out[word][t];
        st->readback_words++;
        j->rtl_out[w][word][t] = od->out_rdata[l];
        if (od->out_rdata[l] != want) {
            fl->failed = 1;
            fl->cycle = cycle;
            snprintf(fl->what, sizeof fl->what, "output memory read back: warp %u o[%u] lane %u: RTL 0x%08x ISA 0x%08x",
                     w, word, t, od->out_rdata[l], want);
            return -1;
        }
    }
    return 0;
}

/* the job finished: every warp's final status equals the interpreter's */
int check_final(job_t *j, const simt_hw_out_t *od, uint64_t cycle, fail_t *fl)
{
    char buf[400];
    int m = 0;
    for (uint32_t w = 0; w < j->nw && m < 300; w++) {
        int s = isa_step(j->ctx, j->iw[w], NULL);
        int rtl_err = (od->err_mask >> w) & 1u;
        if (s == ISA_DONE)
            j->n_done++;
        else {
            j->n_err++;
            snprintf(j->err_kind, sizeof j->err_kind, "%s", isa_status_str(s));
        }
        if ((s == ISA_DONE) == rtl_err || (s != ISA_DONE && s >= 0))
            m += snprintf(buf + m, sizeof buf - (size_t)m, "warp %u: RTL %s, interpreter %s; ", w,
                          rtl_err ? "stopped with an error" : "finished", s == ISA_OK ? "has instructions left" : isa_status_str(s));
    }
    if (!m)
        return 0;
    fl->failed = 1;
    fl->cycle = cycle;
    snprintf(fl->what, sizeof fl->what, "final warp status: %s", buf);
    return -1;
}
