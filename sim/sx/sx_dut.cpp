// Thin extern "C" shim around the verilated sx_pe. No logic here: port copies (packing the K lanes into the
// RTL's flat vectors) and clocking only.
//
// One evaluation per cycle (SX_DUT_FUSED, the lockstep builds of mk/sx.mk): Verilator 5 evaluates every
// input-dependent statement of the model on every eval() call, the clock edge's included, so the usual
// "evaluate the inputs, then clock" costs the whole combinational logic twice per cycle. Without a waveform the
// shim instead drives the cycle's inputs and the rising edge together in one eval(), and reads the cycle's outputs
// from sim/sx/sx_pe_cap.v (bound into sx_pe: the output ports as they were just before that edge). The edge is
// detected against Verilator's record of the clock's previous value, which the shim sets to 0 (the falling edge
// is never evaluated, as in vl_dut_cycle_folded); where the model has no such record (another Verilator), or
// while a waveform is written, the shim evaluates inputs and edge separately as before.
#include "sx_dut.h"

#include <cstdint>
#include <cstring>

#include "Vsx_pe.h"
#include "Vsx_pe___024root.h"
#include "vl_dut.h"
#include "vl_ports.h"

#ifndef SX_DUT_MAX_GPUS
#error "build with -DSX_DUT_MAX_GPUS=<MAX_GPUS> -DSX_DUT_K=<K> -DSX_DUT_DEPTH=<DEPTH> matching the -G parameters"
#endif

struct sx_dut : vl_dut_one<Vsx_pe> {
    int fused = 0;   // the last sx_dut_eval clocked the edge too (sx_dut_clock has no edge left to do)
};

// Arm a rising edge of clk_i for the next eval(): Verilator's previous value of the clock to 0. 0 where the
// model keeps no such record under this name.
template <class R> static auto arm_posedge(R *r, int) -> decltype(r->__Vtrigrprev__TOP__clk_i = 0, int())
{
    r->__Vtrigrprev__TOP__clk_i = 0;
    return 1;
}
template <class R> static int arm_posedge(R *, long) { return 0; }

// flat bit vectors as 32-bit words; copied to/from a port of any Verilator width
enum { SX_WORDS = (SX_HW_MAX_K * 64 + 31) / 32 + 2 };
typedef uint32_t words_t[SX_WORDS];

extern "C" sx_hw_params_t sx_dut_params(void)
{
    sx_hw_params_t p;
    p.max_gpus = SX_DUT_MAX_GPUS;
    p.k = SX_DUT_K;
    p.depth = SX_DUT_DEPTH;
    return p;
}

extern "C" void sx_dut_reset(sx_dut_t *d)
{
    Vsx_pe *t = d->top;
    vl_exchange_reset_inputs(t);
    d->fused = 0;
    vl_dut_reset(&d->vl, t);
}

extern "C" sx_dut_t *sx_dut_new(const char *fst_path)
{
    sx_dut_t *d = vl_dut_one_new<sx_dut, Vsx_pe>(fst_path, "sx_pe");
    sx_dut_reset(d);
    return d;
}

extern "C" void sx_dut_eval(sx_dut_t *d, const sx_hw_in_t *in, sx_hw_out_t *out)
{
    Vsx_pe *t = d->top;
    const unsigned K = SX_DUT_K, M = SX_DUT_MAX_GPUS;
    const uint64_t mm = M >= 64 ? ~0ull : ((1ull << M) - 1);
    vl_exchange_inputs(t, in);
    unsigned v = 0, e = 0;
    words_t tag, id, mask;
    std::memset(tag, 0, sizeof tag);
    std::memset(id, 0, sizeof id);
    std::memset(mask, 0, sizeof mask);
    for (unsigned j = 0; j < K; j++) {
        v |= (in->in[j].valid ? 1u : 0u) << j;
        e |= (in->in[j].end ? 1u : 0u) << j;
        vl_words_put(tag, j * 16, 16, in->in[j].tag & 0xffff);
        vl_words_put(id, j * 32, 32, in->in[j].id);
        vl_words_put(mask, j * M, M, in->in[j].mask & mm);
    }
    t->in_valid_i = v;
    t->in_end_i = e;
    vl_port_from_words(t->in_tag_i, tag);
    vl_port_from_words(t->in_id_i, id);
    vl_port_from_words(t->in_mask_i, mask);
    std::memset(out, 0, sizeof *out);
    words_t oid;
    std::memset(oid, 0, sizeof oid);
#define SX_READ_OUTS(P)                                                                                            \
    do {                                                                                                          \
        vl_port_to_words(P(out_id), oid);                                                                          \
        for (unsigned j = 0; j < K; j++) {                                                                        \
            out->in_ready[j] = (P(in_ready) >> j) & 1;                                                            \
            out->out_valid[j] = (P(out_valid) >> j) & 1;                                                          \
            out->out_id[j] = (uint32_t)vl_words_get(oid, j * 32, 32);                                              \
        }                                                                                                         \
        out->tx_valid[0] = P(tx0_valid);                                                                          \
        out->tx_valid[1] = P(tx1_valid);                                                                          \
        out->tx_flit[0] = P(tx0_flit);                                                                            \
        out->tx_flit[1] = P(tx1_flit);                                                                            \
        out->rx_ready[0] = P(rx0_ready);                                                                          \
        out->rx_ready[1] = P(rx1_ready);                                                                          \
        out->out_tag = P(out_tag);                                                                                \
        out->out_eob = P(out_eob);                                                                                \
        out->rel_last = P(rel_last);                                                                              \
        out->rel_src = P(rel_src);                                                                                \
        out->occ = P(occ);                                                                                        \
        out->busy = P(busy);                                                                                      \
        out->err = P(err);                                                                                        \
    } while (0)
#if SX_DUT_FUSED
    if (!vl_dut_tracing(&d->vl) && arm_posedge(t->rootp, 0)) {
        t->clk_i = 1;
        t->eval();
        d->vl.time += 5000;
        d->fused = 1;
#define SX_CAP(n) (t->rootp->sx_pe__DOT__u_cap__DOT__##n##_q)
        SX_READ_OUTS(SX_CAP);
        return;
    }
#endif
    d->fused = 0;
    vl_dut_eval_inputs(&d->vl, t);
#define SX_PORT(n) (t->n##_o)
    SX_READ_OUTS(SX_PORT);
}

extern "C" void sx_dut_clock(sx_dut_t *d)
{
    if (d->fused) {   // the edge was evaluated with the inputs; the falling edge is not evaluated
        d->fused = 0;
        d->top->clk_i = 0;
        d->vl.time += 5000;
        return;
    }
    vl_dut_cycle_folded(&d->vl, d->top);
}

extern "C" void sx_dut_free(sx_dut_t *d)
{
    vl_dut_finish(&d->vl, &d->top, 1);
    delete d;
}
extern "C" void sx_dut_dump(sx_dut_t *d, int on) { d->vl.dump = on; }
extern "C" void sx_dut_skip_to_cycle(sx_dut_t *d, uint64_t cycle) { vl_dut_skip_to_cycle(&d->vl, cycle); }
