// Shared boilerplate of the thin extern "C" Verilator shims (sim/*/*_dut.cpp): the Verilator context, FST
// tracing (compiled in only when Verilator was run with --trace-fst: VM_TRACE), the waveform time base, the
// reset clocking, the coverage file of --coverage builds (VM_COVERAGE), and the new/free/clock/dump code of a
// shim around one model (vl_dut_one, VL_DUT_ONE_API). C++ (included by the shims only; the C harnesses see only
// their unit's *_dut.h). Every shim keeps only its own port copies and reset values.
//
// Time base: waveform time is in ps (the RTL's 1ns/1ps precision). One clock period is 10 ns: inputs change
// 1 ns after the falling edge, the rising edge is at +5 ns, the falling edge at +10 ns.
#ifndef GPUPD_SIM_VL_DUT_H
#define GPUPD_SIM_VL_DUT_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

// The part of every shim's state that is not unit-specific: embed it as the member `vl`.
struct vl_dut_core {
    VerilatedContext *ctx = nullptr;
#if VM_TRACE
    VerilatedFstC *fst = nullptr;
#endif
    int dump = 1;        // dumping on (the harness switches it off outside a failure window)
    uint64_t time = 0;   // current waveform time in ps
};

// 1 when the build has FST tracing compiled in
static inline int vl_dut_has_fst(void)
{
#if VM_TRACE
    return 1;
#else
    return 0;
#endif
}

// Create the context; call before constructing the model(s) (tracing must be enabled before).
static inline void vl_dut_init(vl_dut_core *c, const char *fst_path)
{
    c->ctx = new VerilatedContext;
#if VM_TRACE
    if (fst_path) c->ctx->traceEverOn(true);
#else
    (void)fst_path;
#endif
}

// Open the FST file on the n models (after they are constructed); nothing without a path or without tracing.
template <class M> static inline void vl_dut_open_fst(vl_dut_core *c, M *const *tops, std::size_t n, const char *fst_path)
{
#if VM_TRACE
    if (!fst_path) return;
    c->fst = new VerilatedFstC;
    for (std::size_t i = 0; i < n; i++) tops[i]->trace(c->fst, 99);
    c->fst->open(fst_path);
#else
    (void)c;
    (void)tops;
    (void)n;
    (void)fst_path;
#endif
}

// 1 while a waveform is being written (tracing compiled in, a file open, dumping on)
static inline int vl_dut_tracing(const vl_dut_core *c)
{
#if VM_TRACE
    return c->fst && c->dump;
#else
    (void)c;
    return 0;
#endif
}

// Dump the signals at time t (ps) if a waveform is being written.
static inline void vl_dut_sample(vl_dut_core *c, uint64_t t)
{
#if VM_TRACE
    if (c->fst && c->dump) c->fst->dump(t);
#else
    (void)c;
    (void)t;
#endif
}

// Drive clk_i of one model, evaluate, advance time by dt ps and dump.
template <class M> static inline void vl_dut_edge(vl_dut_core *c, M *top, int clk, uint64_t dt)
{
    top->clk_i = clk;
    top->eval();
    c->time += dt;
    vl_dut_sample(c, c->time);
}

// Evaluate the inputs of this cycle (1 ns after the falling edge) and dump.
template <class M> static inline void vl_dut_eval_inputs(vl_dut_core *c, M *top)
{
    top->eval();
    c->time += 1000;
    vl_dut_sample(c, c->time);
}

// Two clock cycles with rst_ni low (the caller has set the other inputs), then rst_ni high.
template <class M> static inline void vl_dut_reset(vl_dut_core *c, M *top)
{
    top->rst_ni = 0;
    top->eval();
    for (int i = 0; i < 2; i++) {
        vl_dut_edge(c, top, 0, 1000);
        vl_dut_edge(c, top, 1, 4000);
        vl_dut_edge(c, top, 0, 5000);
    }
    top->rst_ni = 1;
    top->eval();
}

// Rising then falling edge of one model (the clock of every shim but the folded ones).
template <class M> static inline void vl_dut_cycle(vl_dut_core *c, M *top)
{
    vl_dut_edge(c, top, 1, 4000);
    vl_dut_edge(c, top, 0, 5000);
}

// Rising edge, then the falling edge, for a model in which nothing is sensitive to the falling clock edge:
// without a waveform the falling-edge evaluation is folded into the next input evaluation (same results, a
// third fewer evaluations); with a waveform it is evaluated and dumped as usual.
template <class M> static inline void vl_dut_cycle_folded(vl_dut_core *c, M *top)
{
    vl_dut_edge(c, top, 1, 4000);
    if (vl_dut_tracing(c)) {
        vl_dut_edge(c, top, 0, 5000);
        return;
    }
    top->clk_i = 0;
    c->time += 5000;
}

// Move the waveform time forward to the start of lockstep cycle `cycle` (reset takes 20 ns, then 10 ns per cycle):
// a harness that clocks warm-up cycles it does not count (a replay started near a failure) keeps its waveform
// times equal to those of the full run, so a saved view opens at the same cycle. Never moves time backwards.
static inline void vl_dut_skip_to_cycle(vl_dut_core *c, uint64_t cycle)
{
    uint64_t t = 20000 + 10000 * cycle;
    if (t > c->time) c->time = t;
}

// Close the waveform, run final() of the n models, write the coverage counters of a --coverage build (to the
// file named by VL_COVERAGE_FILE, else ./coverage.dat; before the models are deleted: the counters live in
// them), delete the models and the context.
template <class M> static inline void vl_dut_finish(vl_dut_core *c, M *const *tops, std::size_t n)
{
#if VM_TRACE
    if (c->fst) {
        c->fst->close();
        delete c->fst;
        c->fst = nullptr;
    }
#endif
    for (std::size_t i = 0; i < n; i++) tops[i]->final();
#if VM_COVERAGE
    const char *cov = std::getenv("VL_COVERAGE_FILE");
    c->ctx->coveragep()->write(cov ? cov : "coverage.dat");
#endif
    for (std::size_t i = 0; i < n; i++) delete tops[i];
    delete c->ctx;
    c->ctx = nullptr;
}

// A shim around one verilated model M: the whole shim state, e.g. `struct p2g_dut : vl_dut_one<Vp2g_mapper> {};`
// (the C header declares `typedef struct p2g_dut p2g_dut_t`).
template <class M> struct vl_dut_one {
    vl_dut_core vl;   // context, FST, time
    M *top = nullptr;
};

// New shim D (a vl_dut_one<M>): context, the model named `name`, the FST if fst_path, clk_i low. The caller then
// sets the inputs that must hold during reset and calls vl_dut_reset(&d->vl, d->top).
template <class D, class M> static inline D *vl_dut_one_new(const char *fst_path, const char *name)
{
    D *d = new D();
    vl_dut_init(&d->vl, fst_path);
    d->top = new M(d->vl.ctx, name);
    vl_dut_open_fst(&d->vl, &d->top, 1, fst_path);
    d->top->clk_i = 0;
    return d;
}

// The extern "C" functions every one-model shim P (type P_t) has the same way: P_free (waveform closed, coverage
// written, model deleted), P_clock (rising then falling edge; CYCLE is vl_dut_cycle or vl_dut_cycle_folded) and
// P_dump (waveform on/off per cycle) and P_skip_to_cycle (vl_dut_skip_to_cycle).
#define VL_DUT_ONE_API(P, CYCLE)                                                                                   \
    extern "C" void P##_free(P##_t *d)                                                                            \
    {                                                                                                             \
        vl_dut_finish(&d->vl, &d->top, 1);                                                                        \
        delete d;                                                                                                 \
    }                                                                                                             \
    extern "C" void P##_clock(P##_t *d) { CYCLE(&d->vl, d->top); }                                                \
    extern "C" void P##_dump(P##_t *d, int on) { d->vl.dump = on; }                                             \
    extern "C" void P##_skip_to_cycle(P##_t *d, uint64_t cycle) { vl_dut_skip_to_cycle(&d->vl, cycle); }

#endif
