/* System co-simulation: N x cd_unit RTL (P2G -> adapter -> PE, rtl/cd_unit.v), verilated (sys_dut.h), joined by
 * the C link model, fed with the golden model's real CP-phase output of a trace, in lockstep with the C cycle
 * models of the three units.
 *
 * The system harness is cmodel/sys/cdsys.c (feeders, the adapters' cycle model, RX buffers, link model, golden
 * and SPEC 4.2 checks); this file plugs in a units backend that evaluates, for every GPU and cycle, the
 * verilated cd_unit AND the C cycle models (p2g_hw, cd_adapter_hw, pe_hw) on the same inputs, compares every
 * port of every unit (the P2G's output and the PE's input handshakes through the unit's obs_* outputs), and
 * hands the RTL's outputs to the harness. So a run checks, at once:
 *   - every unit's RTL against its cycle model, every port every cycle (a divergence is found at its cycle);
 *   - every P2G result against the golden model's mask (at the adapter);
 *   - every GPU's received list against the golden model's (pe/pe.c) on the fly, and against the SPEC 4.2
 *     invariant computed from the masks at the end; packet accounting; a deadlock watchdog.
 * Stall/jitter injection (seeded, replayable): P2G input gaps, PE TX/RX/output stalls, link stalls, link jitter.
 * On a mismatch: GPU, batch, primitive, cycle, fields DUT vs model, the last transactions, the reproduce
 * command; the run is replayed with an FST of the window before the failure and a matching .gtkw.
 * The cycle loop is cdsys_run's (the timing model's own); the history, report, failure window, views and
 * argument parsing are the lockstep driver's (sim/common/lockstep.h).
 * Exit: 0 every GPU matched and at least one primitive was compared; 1 mismatch (or nothing compared);
 * 2 bad arguments. docs/system-cosim.md. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/args.h"
#include "pe/pe_hw.h"
#include "p2g/p2g_hw.h"
#include "sys/cdsys.h"
#include "link/flit.h"
#include "sys/sys.h"
#include "stream/sx_hw.h"
#include "sys_dut.h"
#include "../common/lockstep.h"

#define HIST 32
#define TOOL "cosim-system"

typedef struct {
    ls_common_t c;             /* seed, out_dir, window, waves, gtkw, quiet */
    const char *trace;
    uint32_t frame, gpus, batch, latency, hub_rate, cp_cost;
    sys_scheme_t scheme;
    p2g_mode_t own;
    net_topo_t topo;
    uint32_t in_gap, tx_stall, rx_stall, out_stall, link_stall, jitter;
    uint64_t inject_model, inject_ad, drop_prim;   /* faults: flip a PE / adapter model output bit at this cycle;
                                                      drop the K-th PRIM flit */
    int inject_model_on, inject_ad_on, no_model;
    const char *argv0;
} opts_t;

enum { H_P2G_IN, H_P2G_OUT, H_PE_IN, H_TX, H_RX, H_OUT };
typedef struct {          /* a handshake, formatted only when a report is printed */
    uint64_t cycle;
    uint32_t gpu, kind, port, end;
    uint32_t a, b;
    uint64_t x;
} hist_t;

typedef struct {
    const opts_t *o;
    ls_t ls;               /* history, report */
    sys_dut_t *dut;
    p2g_hw_t *p2g;
    pe_hw_t *pe;
    sx_hw_t *sx;           /* stream build (--scheme gpupd-stream): the stream PE's cycle model instead of pe */
    sx_hw_in_t *sxin;      /* its inputs of this cycle: lane 0 = the RTL adapter's beat (the same bits as the RTL PE's) */
    uint32_t n;
    uint64_t port_checks;
    uint64_t dump_from;
    int dumping;
    int64_t fail_prim;     /* on a lockstep mismatch: the primitive at the GPU's ports (or -1) */
    char report[6144];
    /* the failure the report is about (from cdsys_run's result) */
    const cdsys_work_t *w;
    const cdsys_result_t *r;
} lk_t;

static void hist_add(lk_t *l, uint64_t cycle, uint32_t g, uint32_t kind, uint32_t port, uint32_t end, uint32_t a, uint32_t b,
                     uint64_t x)
{
    hist_t *h = ls_hist_add(&l->ls);
    h->cycle = cycle;
    h->gpu = g;
    h->kind = kind;
    h->port = port;
    h->end = end;
    h->a = a;
    h->b = b;
    h->x = x;
}

static void hist_print(void *u, FILE *f, const void *rec)
{
    const hist_t *h = rec;
    (void)u;
    fprintf(f, "    cycle %-9" PRIu64 " GPU %-2u ", h->cycle, h->gpu);
    switch (h->kind) {
    case H_P2G_IN: fprintf(f, "P2G in   prim %u tag %u\n", h->a, h->b); break;
    case H_P2G_OUT: fprintf(f, "P2G out  prim %u tag %u mask 0x%" PRIx64 "\n", h->a, h->b, h->x); break;
    case H_PE_IN:
        fprintf(f, "PE in    %s tag %u %s %u mask 0x%" PRIx64 "\n", h->end ? "END" : "entry", h->b, h->end ? "count" : "prim", h->a, h->x);
        break;
    case H_TX:
    case H_RX:
        fprintf(f, "PE %s%u   %s src %u dst %u tag %u payload %u\n", h->kind == H_TX ? "tx" : "rx", h->port,
                flit_type(h->x) == FLIT_TYPE_PRIM ? "PRIM" : flit_type(h->x) == FLIT_TYPE_LAST ? "LAST"
                : flit_type(h->x) == FLIT_TYPE_CREDIT ? "CREDIT" : "????", flit_src(h->x),
                flit_dst(h->x), flit_tag(h->x), flit_payload(h->x));
        break;
    default:
        if (h->end) fprintf(f, "PE out   end of batch tag %u\n", h->b);
        else fprintf(f, "PE out   prim %u tag %u\n", h->a, h->b);
    }
}

/* record this cycle's handshakes of GPU g (for the mismatch report) */
static void record(lk_t *l, uint32_t g, uint64_t cy, const p2g_hw_in_t *pin, const p2g_hw_out_t *po, const pe_hw_in_t *ein,
                   const pe_hw_out_t *eo)
{
    if (pin->in_valid && po->in_ready) hist_add(l, cy, g, H_P2G_IN, 0, 0, pin->in.prim_id, pin->in.tag, 0);
    if (po->out_valid && pin->out_ready) hist_add(l, cy, g, H_P2G_OUT, 0, 0, po->out_prim_id, po->out_tag, po->out_mask);
    if (ein->in_valid && eo->in_ready) hist_add(l, cy, g, H_PE_IN, 0, (uint32_t)ein->in_end, ein->in_prim_id, ein->in_tag, ein->in_mask);
    for (uint32_t k = 0; k < 2; k++) {
        if (eo->tx_valid[k] && ein->tx_ready[k]) hist_add(l, cy, g, H_TX, k, 0, 0, 0, eo->tx_flit[k]);
        if (ein->rx_valid[k] && eo->rx_ready[k]) hist_add(l, cy, g, H_RX, k, 0, 0, 0, ein->rx_flit[k]);
    }
    if (eo->out_valid && ein->out_ready) hist_add(l, cy, g, H_OUT, 0, (uint32_t)eo->out_eob, eo->out_prim_id, eo->out_tag, 0);
}

static int sys_comb(void *c, uint32_t g, uint64_t cy, const p2g_hw_in_t *pin, p2g_hw_out_t *pout,
                    const cd_adapter_hw_in_t *ain, const cd_adapter_hw_out_t *ma, const pe_hw_in_t *ein, pe_hw_out_t *eout)
{
    lk_t *l = c;
    if (l->dumping == 0 && cy >= l->dump_from && l->o->c.waves == NULL && l->dump_from != UINT64_MAX) {
        sys_dut_dump(l->dut, 1);
        l->dumping = 1;
    }
    cd_adapter_hw_out_t ra;   /* the RTL adapter's ports (mad: its cycle model's, computed by the harness) */
    sys_dut_eval(l->dut, g, pin, pout, ain, &ra, ein, eout);
    if (l->o->no_model) {
        record(l, g, cy, pin, pout, ein, eout);
        return 0;
    }
    p2g_hw_out_t mp;
    pe_hw_out_t me;
    p2g_hw_comb(&l->p2g[g], pin, &mp);
    pe_hw_comb(&l->pe[g], ein, &me);
    cd_adapter_hw_out_t mad = *ma;
    if (l->o->inject_model_on && cy == l->o->inject_model && g == 0) me.in_ready ^= 1;   /* injected faults */
    if (l->o->inject_ad_on && cy == l->o->inject_ad && g == 0) mad.p2g_ready ^= 1;
    const cd_adapter_hw_out_t *mb = &mad;
    l->port_checks++;
    int bad = mp.in_ready != pout->in_ready || mp.out_valid != pout->out_valid || mp.busy != pout->busy ||
              (mp.out_valid && (mp.out_prim_id != pout->out_prim_id || mp.out_tag != pout->out_tag || mp.out_mask != pout->out_mask));
    bad |= me.in_ready != eout->in_ready || me.out_valid != eout->out_valid || me.busy != eout->busy ||
           me.cur_tag != eout->cur_tag || me.err != eout->err;
    for (int k = 0; k < 2; k++)
        bad |= me.tx_valid[k] != eout->tx_valid[k] || me.rx_ready[k] != eout->rx_ready[k] ||
               (me.tx_valid[k] && me.tx_flit[k] != eout->tx_flit[k]);
    bad |= mb->desc_ready != ra.desc_ready || mb->p2g_ready != ra.p2g_ready || mb->pe_valid != ra.pe_valid || mb->busy != ra.busy ||
           (mb->pe_valid && (mb->pe_end != ra.pe_end || mb->pe_tag != ra.pe_tag || mb->pe_prim_id != ra.pe_prim_id ||
                             mb->pe_mask != ra.pe_mask));
    bad |= me.out_valid && (me.out_eob != eout->out_eob || me.out_tag != eout->out_tag || me.out_prim_id != eout->out_prim_id);
    if (!bad) {
        record(l, g, cy, pin, pout, ein, eout);
        return 0;
    }
    if (!ra.pe_valid && !mb->pe_valid) {   /* not compared while not valid: show no stale register contents */
        ra.pe_end = 0;
        ra.pe_tag = ra.pe_prim_id = 0;
        ra.pe_mask = 0;
    }
    /* the primitive involved: the PE's output, else its input entry, else the P2G's output, else its input */
    l->fail_prim = me.out_valid && !me.out_eob ? (int64_t)me.out_prim_id
                   : ein->in_valid && !ein->in_end ? (int64_t)ein->in_prim_id
                   : mp.out_valid ? (int64_t)mp.out_prim_id
                   : pin->in_valid ? (int64_t)pin->in.prim_id : -1;
    FILE *f = fmemopen(l->report, sizeof l->report, "w");
    if (!f) {
        snprintf(l->report, sizeof l->report, "GPU %u: RTL and C cycle model disagree at cycle %" PRIu64, g, cy);
        return -1;
    }
    fprintf(f, "GPU %u: RTL and C cycle model disagree at cycle %" PRIu64 "\n"
               "  at the ports: P2G in %s%u, P2G out %s%u, PE in %s%u, PE out %s%u\n",
            g, cy, pin->in_valid ? "prim " : "(idle) ", pin->in.prim_id, mp.out_valid ? "prim " : "(idle) ",
            mp.out_prim_id, ein->in_valid ? (ein->in_end ? "END count " : "prim ") : "(idle) ", ein->in_prim_id,
            me.out_valid ? (me.out_eob ? "end-of-batch " : "prim ") : "(idle) ", me.out_prim_id);
    ls_field_head(f, 18, "C cycle model");
    ls_field(f, 18, "p2g.in_ready", (uint64_t)pout->in_ready, (uint64_t)mp.in_ready);
    ls_field(f, 18, "p2g.out_valid", (uint64_t)pout->out_valid, (uint64_t)mp.out_valid);
    ls_field(f, 18, "p2g.out_prim_id", pout->out_prim_id, mp.out_prim_id);
    ls_field(f, 18, "p2g.out_tag", pout->out_tag, mp.out_tag);
    ls_field(f, 18, "p2g.out_mask", pout->out_mask, mp.out_mask);
    ls_field(f, 18, "p2g.busy", (uint64_t)pout->busy, (uint64_t)mp.busy);
    ls_field(f, 18, "ad.desc_ready", (uint64_t)ra.desc_ready, (uint64_t)mb->desc_ready);
    ls_field(f, 18, "ad.p2g_ready", (uint64_t)ra.p2g_ready, (uint64_t)mb->p2g_ready);
    ls_field(f, 18, "ad.pe_valid", (uint64_t)ra.pe_valid, (uint64_t)mb->pe_valid);
    ls_field(f, 18, "ad.pe_end", (uint64_t)ra.pe_end, (uint64_t)mb->pe_end);
    ls_field(f, 18, "ad.pe_tag", ra.pe_tag, mb->pe_tag);
    ls_field(f, 18, "ad.pe_prim_id", ra.pe_prim_id, mb->pe_prim_id);
    ls_field(f, 18, "ad.pe_mask", ra.pe_mask, mb->pe_mask);
    ls_field(f, 18, "ad.busy", (uint64_t)ra.busy, (uint64_t)mb->busy);
    ls_field(f, 18, "pe.in_ready", (uint64_t)eout->in_ready, (uint64_t)me.in_ready);
    for (int k = 0; k < 2; k++) {
        char nm[32];
        snprintf(nm, sizeof nm, "pe.tx%d_valid", k);
        ls_field(f, 18, nm, (uint64_t)eout->tx_valid[k], (uint64_t)me.tx_valid[k]);
        snprintf(nm, sizeof nm, "pe.tx%d_flit", k);
        ls_field(f, 18, nm, eout->tx_flit[k], me.tx_flit[k]);
        snprintf(nm, sizeof nm, "pe.rx%d_ready", k);
        ls_field(f, 18, nm, (uint64_t)eout->rx_ready[k], (uint64_t)me.rx_ready[k]);
    }
    ls_field(f, 18, "pe.out_valid", (uint64_t)eout->out_valid, (uint64_t)me.out_valid);
    ls_field(f, 18, "pe.out_eob", (uint64_t)eout->out_eob, (uint64_t)me.out_eob);
    ls_field(f, 18, "pe.out_tag", eout->out_tag, me.out_tag);
    ls_field(f, 18, "pe.out_prim_id", eout->out_prim_id, me.out_prim_id);
    ls_field(f, 18, "pe.busy", (uint64_t)eout->busy, (uint64_t)me.busy);
    ls_field(f, 18, "pe.cur_tag", eout->cur_tag, me.cur_tag);
    ls_field(f, 18, "pe.err", (uint64_t)eout->err, (uint64_t)me.err);
    fclose(f);
    return -1;
}

static int sys_clock(void *c, uint32_t g, uint64_t cy, const p2g_hw_in_t *pin, const pe_hw_in_t *ein)
{
    lk_t *l = c;
    (void)cy;
    sys_dut_rise(l->dut, g);
    if (!l->o->no_model) {
        p2g_hw_clock(&l->p2g[g], pin);
        pe_hw_clock(&l->pe[g], ein);
    }
    return 0;
}

/* stream build: the verilated cd_unit_stream and the C cycle models (p2g_hw, cd_adapter_hw, sx_hw) on the same
 * inputs; every port of the P2G, the adapter and the stream PE compared (tx flits and out ids while valid) */
static void record_sx(lk_t *l, uint32_t g, uint64_t cy, const p2g_hw_in_t *pin, const p2g_hw_out_t *po,
                      const cd_adapter_hw_out_t *ra, const sx_hw_in_t *xin, const sx_hw_out_t *xo)
{
    if (pin->in_valid && po->in_ready) hist_add(l, cy, g, H_P2G_IN, 0, 0, pin->in.prim_id, pin->in.tag, 0);
    if (po->out_valid && ra->p2g_ready) hist_add(l, cy, g, H_P2G_OUT, 0, 0, po->out_prim_id, po->out_tag, po->out_mask);
    if (ra->pe_valid && xo->in_ready[0]) hist_add(l, cy, g, H_PE_IN, 0, (uint32_t)ra->pe_end, ra->pe_prim_id, ra->pe_tag, ra->pe_mask);
    for (uint32_t k = 0; k < 2; k++) {
        if (xo->tx_valid[k] && xin->tx_ready[k]) hist_add(l, cy, g, H_TX, k, 0, 0, 0, xo->tx_flit[k]);
        if (xin->rx_valid[k] && xo->rx_ready[k]) hist_add(l, cy, g, H_RX, k, 0, 0, 0, xin->rx_flit[k]);
    }
    if (xo->out_valid[0] && xin->out_ready) {
        if (xo->out_eob) hist_add(l, cy, g, H_OUT, 0, 1, 0, xo->out_tag, 0);
        else
            for (uint32_t j = 0; j < SX_HW_MAX_K && xo->out_valid[j]; j++) hist_add(l, cy, g, H_OUT, 0, 0, xo->out_id[j], xo->out_tag, 0);
    }
}

static int sys_comb_sx(void *c, uint32_t g, uint64_t cy, const p2g_hw_in_t *pin, p2g_hw_out_t *pout,
                       const cd_adapter_hw_in_t *ain, const cd_adapter_hw_out_t *ma, const sx_hw_in_t *xin, sx_hw_out_t *xout)
{
    lk_t *l = c;
    uint32_t K = sys_dut_params().sx_k;
    if (l->dumping == 0 && cy >= l->dump_from && l->o->c.waves == NULL && l->dump_from != UINT64_MAX) {
        sys_dut_dump(l->dut, 1);
        l->dumping = 1;
    }
    cd_adapter_hw_out_t ra;
    sys_dut_eval_sx(l->dut, g, pin, pout, ain, &ra, xin, xout);
    if (l->o->no_model) {
        record_sx(l, g, cy, pin, pout, &ra, xin, xout);
        return 0;
    }
    p2g_hw_out_t mp;
    sx_hw_out_t mx;
    p2g_hw_comb(&l->p2g[g], pin, &mp);
    /* the model's stream PE sees exactly the RTL PE's input: lane 0 = the RTL adapter's output, valid or not (the
     * stream PE's readies depend on the lane's data, and the adapter's data is a don't-care while not valid; the
     * adapter's beat itself is compared with its cycle model's while valid, below) */
    sx_hw_in_t *mi = &l->sxin[g];
    *mi = *xin;
    mi->in[0].valid = ra.pe_valid;
    mi->in[0].end = ra.pe_end;
    mi->in[0].tag = ra.pe_tag;
    mi->in[0].id = ra.pe_prim_id;
    mi->in[0].mask = ra.pe_mask;
    sx_hw_comb(&l->sx[g], mi, &mx);
    cd_adapter_hw_out_t mad = *ma;
    if (l->o->inject_model_on && cy == l->o->inject_model && g == 0) mx.in_ready[0] ^= 1;   /* injected faults */
    if (l->o->inject_ad_on && cy == l->o->inject_ad && g == 0) mad.p2g_ready ^= 1;
    const cd_adapter_hw_out_t *mb = &mad;
    l->port_checks++;
    int bad = mp.in_ready != pout->in_ready || mp.out_valid != pout->out_valid || mp.busy != pout->busy ||
              (mp.out_valid && (mp.out_prim_id != pout->out_prim_id || mp.out_tag != pout->out_tag || mp.out_mask != pout->out_mask));
    bad |= mb->desc_ready != ra.desc_ready || mb->p2g_ready != ra.p2g_ready || mb->pe_valid != ra.pe_valid || mb->busy != ra.busy ||
           (mb->pe_valid && (mb->pe_end != ra.pe_end || mb->pe_tag != ra.pe_tag || mb->pe_prim_id != ra.pe_prim_id ||
                             mb->pe_mask != ra.pe_mask));
    bad |= mx.out_eob != xout->out_eob || mx.out_tag != xout->out_tag || mx.rel_last != xout->rel_last ||
           mx.rel_src != xout->rel_src || mx.occ != xout->occ || mx.busy != xout->busy || mx.err != xout->err;
    for (uint32_t j = 0; j < K; j++)
        bad |= mx.in_ready[j] != xout->in_ready[j] || mx.out_valid[j] != xout->out_valid[j] ||
               (mx.out_valid[j] && mx.out_id[j] != xout->out_id[j]);
    for (int k = 0; k < 2; k++)
        bad |= mx.tx_valid[k] != xout->tx_valid[k] || mx.rx_ready[k] != xout->rx_ready[k] ||
               (mx.tx_valid[k] && mx.tx_flit[k] != xout->tx_flit[k]);
    if (!bad) {
        record_sx(l, g, cy, pin, pout, &ra, xin, xout);
        return 0;
    }
    if (!ra.pe_valid && !mb->pe_valid) {   /* not compared while not valid: show no stale register contents */
        ra.pe_end = 0;
        ra.pe_tag = ra.pe_prim_id = 0;
        ra.pe_mask = 0;
    }
    l->fail_prim = mx.out_valid[0] && !mx.out_eob ? (int64_t)mx.out_id[0]
                   : ra.pe_valid && !ra.pe_end ? (int64_t)ra.pe_prim_id
                   : mp.out_valid ? (int64_t)mp.out_prim_id
                   : pin->in_valid ? (int64_t)pin->in.prim_id : -1;
    FILE *f = fmemopen(l->report, sizeof l->report, "w");
    if (!f) {
        snprintf(l->report, sizeof l->report, "GPU %u: RTL and C cycle model disagree at cycle %" PRIu64, g, cy);
        return -1;
    }
    fprintf(f, "GPU %u: RTL and C cycle model disagree at cycle %" PRIu64 " (stream PE)\n"
               "  at the ports: P2G in %s%u, P2G out %s%u, stream PE in %s%u, stream PE out %s%u\n",
            g, cy, pin->in_valid ? "prim " : "(idle) ", pin->in.prim_id, mp.out_valid ? "prim " : "(idle) ",
            mp.out_prim_id, ra.pe_valid ? (ra.pe_end ? "END count " : "prim ") : "(idle) ", ra.pe_prim_id,
            mx.out_valid[0] ? (mx.out_eob ? "end-of-batch " : "prim ") : "(idle) ", mx.out_id[0]);
    ls_field_head(f, 18, "C cycle model");
    ls_field(f, 18, "p2g.in_ready", (uint64_t)pout->in_ready, (uint64_t)mp.in_ready);
    ls_field(f, 18, "p2g.out_valid", (uint64_t)pout->out_valid, (uint64_t)mp.out_valid);
    ls_field(f, 18, "p2g.out_prim_id", pout->out_prim_id, mp.out_prim_id);
    ls_field(f, 18, "p2g.out_tag", pout->out_tag, mp.out_tag);
    ls_field(f, 18, "p2g.out_mask", pout->out_mask, mp.out_mask);
    ls_field(f, 18, "p2g.busy", (uint64_t)pout->busy, (uint64_t)mp.busy);
    ls_field(f, 18, "ad.desc_ready", (uint64_t)ra.desc_ready, (uint64_t)mb->desc_ready);
    ls_field(f, 18, "ad.p2g_ready", (uint64_t)ra.p2g_ready, (uint64_t)mb->p2g_ready);
    ls_field(f, 18, "ad.pe_valid", (uint64_t)ra.pe_valid, (uint64_t)mb->pe_valid);
    ls_field(f, 18, "ad.pe_end", (uint64_t)ra.pe_end, (uint64_t)mb->pe_end);
    ls_field(f, 18, "ad.pe_tag", ra.pe_tag, mb->pe_tag);
    ls_field(f, 18, "ad.pe_prim_id", ra.pe_prim_id, mb->pe_prim_id);
    ls_field(f, 18, "ad.pe_mask", ra.pe_mask, mb->pe_mask);
    ls_field(f, 18, "ad.busy", (uint64_t)ra.busy, (uint64_t)mb->busy);
    char nm[32];
    for (uint32_t j = 0; j < K; j++) {
        snprintf(nm, sizeof nm, "sx.in_ready[%u]", j);
        ls_field(f, 18, nm, (uint64_t)xout->in_ready[j], (uint64_t)mx.in_ready[j]);
    }
    for (int k = 0; k < 2; k++) {
        snprintf(nm, sizeof nm, "sx.tx%d_valid", k);
        ls_field(f, 18, nm, (uint64_t)xout->tx_valid[k], (uint64_t)mx.tx_valid[k]);
        snprintf(nm, sizeof nm, "sx.tx%d_flit", k);
        ls_field(f, 18, nm, xout->tx_flit[k], mx.tx_flit[k]);
        snprintf(nm, sizeof nm, "sx.rx%d_ready", k);
        ls_field(f, 18, nm, (uint64_t)xout->rx_ready[k], (uint64_t)mx.rx_ready[k]);
    }
    for (uint32_t j = 0; j < K; j++) {
        snprintf(nm, sizeof nm, "sx.out_valid[%u]", j);
        ls_field(f, 18, nm, (uint64_t)xout->out_valid[j], (uint64_t)mx.out_valid[j]);
        snprintf(nm, sizeof nm, "sx.out_id[%u]", j);
        ls_field(f, 18, nm, xout->out_id[j], mx.out_id[j]);
    }
    ls_field(f, 18, "sx.out_tag", xout->out_tag, mx.out_tag);
    ls_field(f, 18, "sx.out_eob", (uint64_t)xout->out_eob, (uint64_t)mx.out_eob);
    ls_field(f, 18, "sx.rel_last", (uint64_t)xout->rel_last, (uint64_t)mx.rel_last);
    ls_field(f, 18, "sx.rel_src", xout->rel_src, mx.rel_src);
    ls_field(f, 18, "sx.occ", xout->occ, mx.occ);
    ls_field(f, 18, "sx.busy", (uint64_t)xout->busy, (uint64_t)mx.busy);
    ls_field(f, 18, "sx.err", (uint64_t)xout->err, (uint64_t)mx.err);
    fprintf(f, "  (tx flits, out ids and the adapter's beat are compared only while valid)\n");
    fclose(f);
    return -1;
}

static int sys_clock_sx(void *c, uint32_t g, uint64_t cy, const p2g_hw_in_t *pin, const sx_hw_in_t *xin)
{
    lk_t *l = c;
    (void)cy;
    (void)xin;   /* the model's inputs are l->sxin[g] (sys_comb_sx) */
    sys_dut_rise(l->dut, g);
    if (!l->o->no_model) {
        p2g_hw_clock(&l->p2g[g], pin);
        sx_hw_clock(&l->sx[g], &l->sxin[g]);
    }
    return 0;
}

/* reorder statistics from the stream PE's cycle model (equal to the RTL's occ_o, compared every cycle) */
static uint32_t sys_sx_occ(void *c, uint32_t g) { return ((lk_t *)c)->sx[g].occ; }
static uint32_t sys_sx_held(void *c, uint32_t g) { return sx_hw_held_ids(&((lk_t *)c)->sx[g]); }

static int sys_comb_done(void *c, uint64_t cy)
{
    (void)cy;
    sys_dut_sample(((lk_t *)c)->dut);
    return 0;
}

static int sys_cycle_done(void *c, uint64_t cy)
{
    (void)cy;
    sys_dut_end_cycle(((lk_t *)c)->dut);
    return 0;
}

static const char *sys_report(void *c) { return ((lk_t *)c)->report; }

/* ------------------------------------------------------------------ command line, run, report */
static void sys_cmd(void *u, FILE *f, int near)
{
    const opts_t *o = ((const lk_t *)u)->o;
    (void)near;
    fprintf(f, "%s --trace %s --gpus %u --topology %s --scheme %s --seed 0x%" PRIx64, o->argv0, o->trace, o->gpus,
            net_topo_name(o->topo), sys_scheme_name(o->scheme), o->c.seed);
    if (o->frame) fprintf(f, " --frame %u", o->frame);
    if (o->batch) fprintf(f, " --batch %u", o->batch);
    if (o->own == P2G_MODE_LINEAR) fprintf(f, " --own linear");
    fprintf(f, " --latency %u --hub-rate %u --cp-cost %u", o->latency, o->hub_rate, o->cp_cost);
    if (o->in_gap || o->tx_stall || o->rx_stall || o->out_stall || o->link_stall)
        fprintf(f, " --in-gap %u --tx-stall %u --rx-stall %u --out-stall %u --link-stall %u", o->in_gap, o->tx_stall,
                o->rx_stall, o->out_stall, o->link_stall);
    if (o->jitter) fprintf(f, " --jitter %u", o->jitter);
    if (o->inject_model_on) fprintf(f, " --inject-fault model:%" PRIu64, o->inject_model);
    if (o->inject_ad_on) fprintf(f, " --inject-fault adapter:%" PRIu64, o->inject_ad);
    if (o->drop_prim) fprintf(f, " --inject-fault drop:%" PRIu64, o->drop_prim);
}

/* where the failure is: GPU, batch, frame, primitive */
static void sys_detail(void *u, FILE *f, const char *why)
{
    const lk_t *l = u;
    const cdsys_result_t *r = l->r;
    (void)why;
    int64_t prim = r->fail_prim >= 0 ? r->fail_prim : l->fail_prim;
    fprintf(f, "  where: GPU %d, batch %" PRId64 " (frame %u), primitive %" PRId64 "%s\n", r->fail_gpu, r->fail_batch,
            r->fail_batch >= 0 && l->w->frame ? l->w->frame[r->fail_batch] : 0, prim, prim < 0 ? " (none at the ports)" : "");
}

static const ls_unit_t sys_unit = {
    .tool = TOOL,
    .unit = "cd_unit",
    .detail = sys_detail,
    .hist_print = hist_print,
    .cmd = sys_cmd,
    .hist_depth = HIST,
    .hist_rec = sizeof(hist_t),
};

static const ls_unit_t sys_unit_sx = {   /* the stream build (cd_unit_stream) */
    .tool = TOOL,
    .unit = "cd_unit_stream",
    .detail = sys_detail,
    .hist_print = hist_print,
    .cmd = sys_cmd,
    .hist_depth = HIST,
    .hist_rec = sizeof(hist_t),
};

/* The saved view's widths for this build: every mask is MAX_GPUS wide (saved at 16). */
/* The saved views (tb/system/system.gtkw, system_stream.gtkw) are drawn for MAX_GPUS = 16 and, in the stream
 * view, K = 2: masks, the stream PE's lane readies and valids and its K released ids take this build's widths. */
static uint32_t sys_view_width(const char *name, size_t len, const char *range, void *ctx)
{
    (void)ctx;
    sys_dut_params_t dp = sys_dut_params();
    int has_mask = 0;
    for (size_t i = 0; i + 4 <= len; i++) has_mask |= !strncmp(name + i, "mask", 4);
    if (has_mask && !strcmp(range, "[15:0]")) return dp.max_gpus;
    if (!dp.stream) return 0;
    int lanes = (len == 11 && !strncmp(name, "out_valid_o", 11)) || (len == 17 && !strncmp(name, "obs_pe_in_ready_o", 17));
    if (lanes && !strcmp(range, "[1:0]")) return dp.sx_k > 1 ? dp.sx_k : GTKW_VIEW_SCALAR;
    if (len == 8 && !strncmp(name, "out_id_o", 8) && !strcmp(range, "[63:0]")) return 32 * dp.sx_k;
    return 0;
}


static void params_of(const opts_t *o, cdsys_params_t *p)
{
    sys_dut_params_t dp = sys_dut_params();
    *p = cdsys_params_default(o->gpus, o->topo);
    p->latency = o->latency;
    p->hub_rate = o->hub_rate;
    p->runahead = o->scheme == SYS_SCHEME_GPUPD_RA;
    p->skip_idle = 0;
    if (o->scheme == SYS_SCHEME_GPUPD_STREAM) {   /* the stream PE of this build (sys_dut_params) */
        p->stream = 1;
        p->sx_k = dp.sx_k;
        p->sx_depth = dp.sx_depth;
    }
    p->max_gpus = dp.max_gpus;
    p->p2g_rows = dp.rows;
    p->pe_lq_depth = dp.lq_depth;
    p->pe_rq_depth = dp.rq_depth;
    p->ad_aq_depth = dp.aq_depth;
    p->ad_dq_depth = dp.dq_depth;
    p->seed = o->c.seed;
    p->in_gap_pm = o->in_gap;
    p->tx_stall_pm = o->tx_stall;
    p->rx_stall_pm = o->rx_stall;
    p->out_stall_pm = o->out_stall;
    p->link_stall_pm = o->link_stall;
    p->link_jitter = o->jitter;
    p->fault_drop_prim = o->drop_prim;
}

/* one run; fst/dump_from: waveform (whole run when o->waves, else from dump_from); returns cdsys_run's rc */
static int run(const opts_t *o, const cdsys_work_t *w, const char *fst, uint64_t dump_from, uint64_t max_cycles, lk_t *l,
               cdsys_result_t *r)
{
    sys_dut_params_t dp = sys_dut_params();
    memset(l, 0, sizeof *l);
    l->o = o;
    l->w = w;
    l->r = r;
    l->fail_prim = -1;
    if (ls_init(&l->ls, dp.stream ? &sys_unit_sx : &sys_unit, &o->c, o->argv0)) {
        fprintf(stderr, "cosim-system: out of memory\n");
        exit(1);
    }
    ls_start(&l->ls, l, fst, dump_from, max_cycles ? max_cycles : UINT64_MAX, 1, 0);
    l->n = o->gpus;
    l->dut = sys_dut_new(o->gpus, fst);
    l->dump_from = fst && !o->c.waves ? dump_from : UINT64_MAX;
    sys_dut_dump(l->dut, fst && (o->c.waves || dump_from == 0));
    l->dumping = fst && (o->c.waves || dump_from == 0);
    l->p2g = calloc(o->gpus, sizeof *l->p2g);
    l->pe = calloc(o->gpus, sizeof *l->pe);
    l->sx = dp.stream ? calloc(o->gpus, sizeof *l->sx) : NULL;
    l->sxin = dp.stream ? calloc(o->gpus, sizeof *l->sxin) : NULL;
    if (!l->p2g || !l->pe || (dp.stream && (!l->sx || !l->sxin))) {
        fprintf(stderr, "cosim-system: out of memory\n");
        exit(1);
    }
    p2g_hw_params_t pp = {dp.max_gpus, dp.rows, 16};
    pe_hw_params_t ep = {dp.max_gpus, dp.lq_depth, dp.rq_depth};
    sx_hw_params_t xp = {dp.max_gpus, dp.sx_k, dp.sx_depth};
    for (uint32_t g = 0; g < o->gpus; g++) {
        p2g_hw_init(&l->p2g[g], pp);
        if (dp.stream) {
            if (sx_hw_init(&l->sx[g], xp)) {
                fprintf(stderr, "cosim-system: stream PE cycle model: bad parameters (MAX_GPUS %u K %u DEPTH %u) or out of memory\n",
                        xp.max_gpus, xp.k, xp.depth);
                exit(1);
            }
        } else {
            pe_hw_init(&l->pe[g], ep);
        }
    }
    cdsys_units_t u = {l, sys_comb, sys_clock, NULL, sys_comb_done, sys_cycle_done, sys_report, NULL, NULL, NULL, NULL, NULL};
    if (dp.stream) {
        u.sx_comb = sys_comb_sx;
        u.sx_clock = sys_clock_sx;
        if (!o->no_model) {
            u.sx_occ = sys_sx_occ;
            u.sx_held_ids = sys_sx_held;
        }
    }
    cdsys_params_t p;
    params_of(o, &p);
    p.units = &u;
    p.max_cycles = max_cycles;
    int rc = cdsys_run(&p, w, r);
    sys_dut_free(l->dut);
    if (l->sx)
        for (uint32_t g = 0; g < o->gpus; g++) sx_hw_free(&l->sx[g]);
    free(l->sx);
    free(l->sxin);
    free(l->p2g);
    free(l->pe);
    return rc;
}

static int opt_stall(void *u, const char *name, const char *val)
{
    opts_t *o = u;
    uint32_t x = 0;
    if (arg_u32(TOOL, name, val, 0, 900, &x)) return -1;
    o->in_gap = o->tx_stall = o->rx_stall = o->out_stall = o->link_stall = x;
    return 0;
}

static int opt_topology(void *u, const char *name, const char *val)
{
    (void)name;
    if (net_topo_parse(val, &((opts_t *)u)->topo)) { fprintf(stderr, "cosim-system: --topology must be line or hub\n"); return -1; }
    return 0;
}

static int opt_scheme(void *u, const char *name, const char *val)
{
    opts_t *o = u;
    (void)name;
    if (sys_scheme_parse(val, &o->scheme) || (o->scheme != SYS_SCHEME_GPUPD && o->scheme != SYS_SCHEME_GPUPD_BATCH &&
                                              o->scheme != SYS_SCHEME_GPUPD_RA && o->scheme != SYS_SCHEME_GPUPD_STREAM)) {
        fprintf(stderr, "cosim-system: --scheme must be gpupd, gpupd-batch, gpupd-ra or gpupd-stream\n");
        return -1;
    }
    return 0;
}

static int opt_own(void *u, const char *name, const char *val)
{
    opts_t *o = u;
    (void)name;
    if (!strcmp(val, "diag")) o->own = P2G_MODE_DIAG;
    else if (!strcmp(val, "linear")) o->own = P2G_MODE_LINEAR;
    else { fprintf(stderr, "cosim-system: --own must be diag or linear\n"); return -1; }
    return 0;
}

static int opt_inject(void *u, const char *name, const char *val)
{
    opts_t *o = u;
    char *e;
    int bad = 0;
    (void)name;
    if (!strncmp(val, "model:", 6)) {
        o->inject_model = strtoull(val + 6, &e, 0);
        o->inject_model_on = 1;
    } else if (!strncmp(val, "adapter:", 8)) {
        o->inject_ad = strtoull(val + 8, &e, 0);
        o->inject_ad_on = 1;
    } else if (!strncmp(val, "drop:", 5)) {
        o->drop_prim = strtoull(val + 5, &e, 0);
        if (!o->drop_prim) bad = -1;
    } else {
        e = (char *)"x";
    }
    if (*e || bad) { fprintf(stderr, "cosim-system: --inject-fault must be model:CYCLE, adapter:CYCLE or drop:K (K >= 1)\n"); return -1; }
    return 0;
}

/* the failing run replayed with the FST window */
typedef struct {
    const opts_t *o;
    const cdsys_work_t *w;
} replay_t;

static void sys_replay(void *u, const char *fst, uint64_t from, uint64_t to)
{
    const replay_t *rp = u;
    lk_t l2;
    cdsys_result_t r2;
    run(rp->o, rp->w, fst, from, to, &l2, &r2);
    ls_free(&l2.ls);
    cdsys_result_free(&r2);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: cosim-system --trace FILE.gpt --gpus N [--topology line|hub] [--scheme gpupd|gpupd-batch|gpupd-ra|gpupd-stream]\n"
            "         [--frame K] [--batch B] [--own diag|linear] [--latency L] [--hub-rate H] [--cp-cost C]\n"
            "         [--seed S] [--stall PM | --in-gap PM --tx-stall PM --rx-stall PM --out-stall PM --link-stall PM]\n"
            "         [--jitter J] [--inject-fault model:CYCLE|adapter:CYCLE|drop:K] [--window W] [--out-dir D] [--waves F.fst]\n"
            "         [--gtkw VIEW.gtkw (default tb/system/system.gtkw; system_stream.gtkw with gpupd-stream)] [--no-model] [--quiet]\n"
            "  stalls are per mille (0..900), a pure function of (seed, cycle, unit, port): replayable\n");
}

int main(int argc, char **argv)
{
    opts_t o;
    memset(&o, 0, sizeof o);
    o.scheme = SYS_SCHEME_GPUPD_RA;
    o.topo = NET_LINE;
    o.latency = 4;
    o.hub_rate = 2;
    o.cp_cost = 1;
    o.c.seed = 1;
    o.c.window = 60;
    o.c.out_dir = "out/cosim/system";
    o.argv0 = argv[0];
    const ls_opt_t opts[] = {
        {"--quiet", LS_OPT_FLAG, &o.c.quiet, 0, 0, NULL, NULL},
        {"--no-model", LS_OPT_FLAG, &o.no_model, 0, 0, NULL, NULL},
        {"--trace", LS_OPT_STR, &o.trace, 0, 0, NULL, NULL},
        {"--gpus", LS_OPT_U32, &o.gpus, 1, 64, NULL, NULL},
        {"--frame", LS_OPT_U32, &o.frame, 0, 1000000, NULL, NULL},
        {"--batch", LS_OPT_U32, &o.batch, 1, 1u << 30, NULL, NULL},
        {"--latency", LS_OPT_U32, &o.latency, 1, 100000, NULL, NULL},
        {"--hub-rate", LS_OPT_U32, &o.hub_rate, 1, 64, NULL, NULL},
        {"--cp-cost", LS_OPT_U32, &o.cp_cost, 0, 100000, NULL, NULL},
        {"--window", LS_OPT_U32, &o.c.window, 1, 100000000, NULL, NULL},
        {"--jitter", LS_OPT_U32, &o.jitter, 0, 10000, NULL, NULL},
        {"--in-gap", LS_OPT_U32, &o.in_gap, 0, 900, NULL, NULL},
        {"--tx-stall", LS_OPT_U32, &o.tx_stall, 0, 900, NULL, NULL},
        {"--rx-stall", LS_OPT_U32, &o.rx_stall, 0, 900, NULL, NULL},
        {"--out-stall", LS_OPT_U32, &o.out_stall, 0, 900, NULL, NULL},
        {"--link-stall", LS_OPT_U32, &o.link_stall, 0, 900, NULL, NULL},
        {"--stall", LS_OPT_FN, NULL, 0, 0, opt_stall, NULL},
        {"--seed", LS_OPT_U64X, &o.c.seed, 0, UINT64_MAX, NULL, NULL},
        {"--topology", LS_OPT_FN, NULL, 0, 0, opt_topology, NULL},
        {"--scheme", LS_OPT_FN, NULL, 0, 0, opt_scheme, NULL},
        {"--own", LS_OPT_FN, NULL, 0, 0, opt_own, NULL},
        {"--inject-fault", LS_OPT_FN, NULL, 0, 0, opt_inject, NULL},
        {"--out-dir", LS_OPT_STR, &o.c.out_dir, 0, 0, NULL, NULL},
        {"--waves", LS_OPT_STR, &o.c.waves, 0, 0, NULL, NULL},
        {"--gtkw", LS_OPT_STR, &o.c.gtkw, 0, 0, NULL, NULL},
    };
    int prc = ls_parse(TOOL, argc, argv, opts, sizeof opts / sizeof opts[0], &o, usage);
    if (prc) return prc == 1 ? 0 : 2;
    if (!o.trace || !o.gpus) { usage(); return 2; }
    sys_dut_params_t dp = sys_dut_params();
    if (!o.c.gtkw) o.c.gtkw = o.scheme == SYS_SCHEME_GPUPD_STREAM ? "tb/system/system_stream.gtkw" : "tb/system/system.gtkw";
    if (o.gpus > dp.max_gpus) {
        fprintf(stderr, "cosim-system: this build has MAX_GPUS=%u; use the 64-GPU build for %u GPUs\n", dp.max_gpus, o.gpus);
        return 2;
    }
    if (dp.stream != (o.scheme == SYS_SCHEME_GPUPD_STREAM)) {
        fprintf(stderr, "cosim-system: this build is the %s unit; --scheme %s needs the %s build (make cosim-system%s)\n",
                dp.stream ? "stream (cd_unit_stream)" : "paper protocol's (cd_unit)", sys_scheme_name(o.scheme),
                dp.stream ? "cd_unit" : "stream", dp.stream ? "" : " SCHEME=gpupd-stream");
        return 2;
    }
    const char *name = strrchr(o.trace, '/') ? strrchr(o.trace, '/') + 1 : o.trace;
    char err[1024];
    cdsys_work_t w;
    double t0 = ls_wall_s();
    if (cdsys_work_from_trace(o.trace, o.frame, o.gpus, (int)o.scheme, o.batch, o.own, o.cp_cost, &w, err, sizeof err)) {
        fprintf(stderr, "cosim-system: %s\n", err);
        return 2;
    }
    double t1 = ls_wall_s();
    uint64_t prims = 0;
    for (size_t i = 0; i < (size_t)w.n_batches * w.n_gpus; i++) prims += w.counts[i];
    if (!o.c.quiet && dp.stream)
        printf("cosim-system: %s frame %u, %u GPUs, %s, %s: %u batches, %" PRIu64 " CP-phase primitives (golden model %.2f s); "
               "RTL cd_unit_stream MAX_GPUS=%u ROWS=%u K=%u DEPTH=%u; seed 0x%" PRIx64 "\n",
               name, o.frame, o.gpus, net_topo_name(o.topo), sys_scheme_name(o.scheme), w.n_batches, prims, t1 - t0,
               dp.max_gpus, dp.rows, dp.sx_k, dp.sx_depth, o.c.seed);
    else if (!o.c.quiet)
        printf("cosim-system: %s frame %u, %u GPUs, %s, %s: %u batches, %" PRIu64 " CP-phase primitives (golden model %.2f s); "
               "RTL MAX_GPUS=%u ROWS=%u LQ_DEPTH=%u RQ_DEPTH=%u; seed 0x%" PRIx64 "\n",
               name, o.frame, o.gpus, net_topo_name(o.topo), sys_scheme_name(o.scheme), w.n_batches, prims, t1 - t0,
               dp.max_gpus, dp.rows, dp.lq_depth, dp.rq_depth, o.c.seed);
    lk_t l;
    cdsys_result_t r;
    if (o.c.waves) ls_waves_view(TOOL, &o.c, GTKW_VIEW_KEEP_TIME, sys_view_width, NULL, o.c.quiet);
    double t2 = ls_wall_s(), c2 = ls_cpu_s();
    int rc = run(&o, &w, o.c.waves, 0, 0, &l, &r);
    double dt = ls_wall_s() - t2, dc = ls_cpu_s() - c2;
    if (rc) {
        snprintf(l.ls.params, sizeof l.ls.params, "trace=%s gpus=%u topology=%s scheme=%s", name, o.gpus,
                 net_topo_name(o.topo), sys_scheme_name(o.scheme));
        ls_fail(&l.ls, r.fail_cycle, r.report);
        ls_free(&l.ls);
        if (!o.c.waves) {
            char tag[512];
            snprintf(tag, sizeof tag, "%s-n%u-%s-seed%" PRIx64, name, o.gpus, net_topo_name(o.topo), o.c.seed);
            replay_t rp = {&o, &w};
            ls_fail_window(TOOL, &o.c, r.fail_cycle, tag, NULL, sys_replay, &rp, sys_view_width, NULL);
        }
        cdsys_result_free(&r);
        cdsys_work_free(&w);
        return 1;
    }
    /* The same system on the cycle models alone (cdsys, as the timing model runs it, with idle skipping): its CP
     * start and CD completion cycles, total cycles and link traffic must equal the RTL run's. */
    int same = 1;
    if (!o.no_model) {
        cdsys_params_t p;
        cdsys_result_t rm;
        params_of(&o, &p);
        p.skip_idle = 1;
        if (cdsys_run(&p, &w, &rm)) {
            fprintf(stderr, "cosim-system: FAIL: the cycle models alone failed: %s\n", rm.report);
            same = 0;
        } else {
            const char *why = NULL;
            size_t bad = 0;
            if (rm.cycles != r.cycles) why = "total cycles";
            for (size_t i = 0; !why && i < (size_t)w.n_batches * w.n_gpus; i++)
                if (rm.cd_done[i] != r.cd_done[i] || rm.cp_start[i] != r.cp_start[i]) { why = "CP start / CD completion cycle"; bad = i; }
            for (uint32_t i = 0; !why && i < r.n_links; i++)
                if (rm.links[i].prim_flits != r.links[i].prim_flits || rm.links[i].last_flits != r.links[i].last_flits) why = "link traffic";
            if (!why && rm.credit_flits != r.credit_flits) why = "CREDIT flits (stream PE)";
            if (why) {
                fprintf(stderr, "cosim-system: FAIL: the cycle models alone (cdsys, idle skipping) differ from the RTL run in %s "
                        "(batch %zu GPU %zu: CD done %" PRIu64 " vs %" PRIu64 "; cycles %" PRIu64 " vs %" PRIu64 ")\n", why,
                        bad / w.n_gpus, bad % w.n_gpus, rm.cd_done[bad], r.cd_done[bad], rm.cycles, r.cycles);
                same = 0;
            } else if (!o.c.quiet) {
                printf("cosim-system: the cycle models alone (cdsys, idle skipping: %" PRIu64 " of %" PRIu64 " cycles stepped) "
                       "give the same CP-start and CD-completion cycles of every (batch, GPU) and the same link traffic\n",
                       rm.stepped, rm.cycles);
            }
        }
        cdsys_result_free(&rm);
    }
    uint64_t pf = 0, lf = 0;
    for (uint32_t i = 0; i < r.n_links; i++) {
        pf += r.links[i].prim_flits;
        lf += r.links[i].last_flits;
    }
    printf("cosim-system: %s N=%u %s: %" PRIu64 " received primitives compared with the golden model and the SPEC 4.2 "
           "invariant, %" PRIu64 " P2G masks, %" PRIu64 " GPU-cycles of port comparisons, %" PRIu64 " PRIM + %" PRIu64
           " LAST flits on the links; RX buffer high-water mark %" PRIu64 " flits\n", name, o.gpus, net_topo_name(o.topo),
           r.prims_compared, r.p2g_masks_checked, l.port_checks, pf, lf, r.rx_buf_high);
    if (sys_dut_params().stream) {
        uint32_t slots = 0, ids = 0;
        for (uint32_t g = 0; g < o.gpus; g++) {
            if (r.reorder_max_slots[g] > slots) slots = r.reorder_max_slots[g];
            if (r.reorder_max[g] > ids) ids = r.reorder_max[g];
        }
        printf("cosim-system: stream PE: %" PRIu64 " CREDIT flits (counted with LAST above); reorder FIFOs held at most %u slots "
               "(%u primitive ids) in one GPU (DEPTH %u per source)\n", r.credit_flits, slots, ids, sys_dut_params().sx_depth);
    }
    printf("trace,gpus,topology,cycles,wall_s,cpu_s,system_cycles_per_cpu_s\n%s,%u,%s,%" PRIu64 ",%.3f,%.3f,%.0f\n", name, o.gpus,
           net_topo_name(o.topo), r.cycles, dt, dc, dc > 0 ? (double)r.cycles / dc : 0.0);
    ls_free(&l.ls);
    int ok = same && !ls_require(TOOL, r.prims_compared > 0 && (o.no_model || l.port_checks > 0), "comparisons");
    if (ok) printf("PASS\n");
    cdsys_result_free(&r);
    cdsys_work_free(&w);
    return ok ? 0 : 1;
}
