// Thin extern "C" shim around the verilated simt_lane_top (simt_fpu + simt_sfu). No logic: port copies and
// clocking only.
#include "simt_fpu_dut.h"

#include <cstdint>
#include <cstdlib>

#include "Vsimt_lane_top.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#ifndef SIMT_DUT_LAT_FPU
#error "build with -DSIMT_DUT_LAT_FPU=<LAT> -DSIMT_DUT_LAT_SFU=<LAT> matching the -G parameters"
#endif

struct simt_fpu_dut {
    VerilatedContext *ctx;
    Vsimt_lane_top *top;
#if VM_TRACE
    VerilatedFstC *fst;
#endif
    int dump;
    uint64_t time;
};

extern "C" int simt_fpu_dut_lat_fpu(void) { return SIMT_DUT_LAT_FPU; }
extern "C" int simt_fpu_dut_lat_sfu(void) { return SIMT_DUT_LAT_SFU; }

static void dump_now(simt_fpu_dut_t *d)
{
#if VM_TRACE
    if (d->fst && d->dump) d->fst->dump(d->time);
#else
    (void)d;
#endif
}

// Waveform time in ps; a 10 ns clock: inputs change 1 ns after the falling edge, rising edge at +5 ns.
static void edge(simt_fpu_dut_t *d, int clk, uint64_t dt)
{
    d->top->clk_i = clk;
    d->top->eval();
    d->time += dt;
    dump_now(d);
}

extern "C" simt_fpu_dut_t *simt_fpu_dut_new(const char *fst_path)
{
    simt_fpu_dut_t *d = new simt_fpu_dut();
    d->ctx = new VerilatedContext;
    d->time = 0;
    d->dump = 1;
#if VM_TRACE
    d->fst = nullptr;
    if (fst_path) d->ctx->traceEverOn(true);
#endif
    d->top = new Vsimt_lane_top(d->ctx, "simt_lane_top");
#if VM_TRACE
    if (fst_path) {
        d->fst = new VerilatedFstC;
        d->top->trace(d->fst, 99);
        d->fst->open(fst_path);
    }
#else
    (void)fst_path;
#endif
    d->top->clk_i = 0;
    d->top->rst_ni = 0;
    d->top->f_valid_i = 0;
    d->top->s_valid_i = 0;
    d->top->eval();
    edge(d, 0, 1000); edge(d, 1, 4000); edge(d, 0, 5000); edge(d, 0, 1000); edge(d, 1, 4000); edge(d, 0, 5000);
    d->top->rst_ni = 1;
    d->top->eval();
    return d;
}

extern "C" void simt_fpu_dut_free(simt_fpu_dut_t *d)
{
#if VM_TRACE
    if (d->fst) { d->fst->close(); delete d->fst; }
#endif
    d->top->final();
#if VM_COVERAGE
    const char *cov = std::getenv("VL_COVERAGE_FILE");
    d->ctx->coveragep()->write(cov ? cov : "coverage.dat");
#endif
    delete d->top;
    delete d->ctx;
    delete d;
}

extern "C" void simt_fpu_dut_eval(simt_fpu_dut_t *d, const simt_fpu_in_t *fi, const simt_sfu_in_t *si,
                                  simt_fpu_out_t *fo, simt_sfu_out_t *so)
{
    Vsimt_lane_top *t = d->top;
    t->f_valid_i = fi->valid ? 1 : 0;
    t->f_op_i = fi->op & 0x7f;
    t->f_cc_i = fi->cc & 0xf;
    t->f_na_i = fi->na & 1;
    t->f_aa_i = fi->aa & 1;
    t->f_nb_i = fi->nb & 1;
    t->f_nc_i = fi->nc & 1;
    t->f_a_i = fi->a;
    t->f_b_i = fi->b;
    t->f_c_i = fi->c;
    t->s_valid_i = si->valid ? 1 : 0;
    t->s_op_i = si->op & 0x7f;
    t->s_na_i = si->na & 1;
    t->s_aa_i = si->aa & 1;
    t->s_a_i = si->a;
    t->eval();
    d->time += 1000;
    dump_now(d);
    fo->valid = t->f_valid_o;
    fo->res = t->f_res_o;
    fo->pred = t->f_pred_o;
    so->valid = t->s_valid_o;
    so->res = t->s_res_o;
}

extern "C" void simt_fpu_dut_clock(simt_fpu_dut_t *d)
{
    edge(d, 1, 4000);
    edge(d, 0, 5000);
}

extern "C" void simt_fpu_dut_dump(simt_fpu_dut_t *d, int on) { d->dump = on; }
