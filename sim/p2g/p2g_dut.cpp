// Thin extern "C" shim around the verilated p2g_mapper. No logic here: port copies and clocking only.
#include "p2g_dut.h"

#include <cstdint>
#include <cstdlib>

#include "Vp2g_mapper.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#ifndef P2G_DUT_MAX_GPUS
#error "build with -DP2G_DUT_MAX_GPUS=<MAX_GPUS> -DP2G_DUT_ROWS=<ROWS> matching the -G parameters"
#endif

struct p2g_dut {
    VerilatedContext *ctx;
    Vp2g_mapper *top;
#if VM_TRACE
    VerilatedFstC *fst;
#endif
    int dump;
    uint64_t time;
};

extern "C" p2g_hw_params_t p2g_dut_params(void)
{
    p2g_hw_params_t p;
    p.max_gpus = P2G_DUT_MAX_GPUS;
    p.rows = P2G_DUT_ROWS;
    p.tag_bits = 16;
    return p;
}

static void dump_now(p2g_dut_t *d)
{
#if VM_TRACE
    if (d->fst && d->dump) d->fst->dump(d->time);
#else
    (void)d;
#endif
}

// Waveform time is in ps (the RTL's 1ns/1ps precision). One clock period is 10 ns: inputs change 1 ns after
// the falling edge, the rising edge is at +5 ns, the falling edge at +10 ns.
static void edge(p2g_dut_t *d, int clk, uint64_t dt)
{
    d->top->clk_i = clk;
    d->top->eval();
    d->time += dt;
    dump_now(d);
}

extern "C" p2g_dut_t *p2g_dut_new(const char *fst_path)
{
    p2g_dut_t *d = new p2g_dut();
    d->ctx = new VerilatedContext;
    d->time = 0;
    d->dump = 1;
#if VM_TRACE
    d->fst = nullptr;
    if (fst_path) d->ctx->traceEverOn(true);
#endif
    d->top = new Vp2g_mapper(d->ctx, "p2g_mapper");
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
    d->top->cfg_n_gpus_i = 1;
    d->top->cfg_width_i = 1;
    d->top->cfg_height_i = 1;
    d->top->eval();
    edge(d, 0, 1000); edge(d, 1, 4000); edge(d, 0, 5000); edge(d, 0, 1000); edge(d, 1, 4000); edge(d, 0, 5000);
    d->top->rst_ni = 1;
    d->top->eval();
    return d;
}

extern "C" void p2g_dut_free(p2g_dut_t *d)
{
#if VM_TRACE
    if (d->fst) { d->fst->close(); delete d->fst; }
#endif
    d->top->final();
#if VM_COVERAGE
    // coverage build: write the counters of this run (the file named by VL_COVERAGE_FILE, else ./coverage.dat)
    const char *cov = std::getenv("VL_COVERAGE_FILE");
    d->ctx->coveragep()->write(cov ? cov : "coverage.dat");
#endif
    delete d->top;
    delete d->ctx;
    delete d;
}

extern "C" void p2g_dut_eval(p2g_dut_t *d, const p2g_hw_in_t *in, p2g_hw_out_t *out)
{
    Vp2g_mapper *t = d->top;
    t->cfg_n_gpus_i = in->cfg.n_gpus & 0x7f;
    t->cfg_width_i = in->cfg.width & 0x7fff;
    t->cfg_height_i = in->cfg.height & 0x7fff;
    t->cfg_tile_log2_i = in->cfg.tile_log2 & 0xf;
    t->cfg_mode_i = in->cfg.mode == P2G_MODE_LINEAR;
    t->cfg_sc_x0_i = in->cfg.sc_x0 & 0x3fff;
    t->cfg_sc_y0_i = in->cfg.sc_y0 & 0x3fff;
    t->cfg_sc_x1_i = in->cfg.sc_x1 & 0x3fff;
    t->cfg_sc_y1_i = in->cfg.sc_y1 & 0x3fff;
    t->in_valid_i = in->in_valid ? 1 : 0;
    t->in_prim_id_i = in->in.prim_id;
    t->in_tag_i = in->in.tag & 0xffff;
    t->in_x0_i = (uint32_t)in->in.x[0] & 0xffffff;
    t->in_y0_i = (uint32_t)in->in.y[0] & 0xffffff;
    t->in_x1_i = (uint32_t)in->in.x[1] & 0xffffff;
    t->in_y1_i = (uint32_t)in->in.y[1] & 0xffffff;
    t->in_x2_i = (uint32_t)in->in.x[2] & 0xffffff;
    t->in_y2_i = (uint32_t)in->in.y[2] & 0xffffff;
    t->in_flags_i = in->in.flags & 3;
    t->out_ready_i = in->out_ready ? 1 : 0;
    t->eval();
    d->time += 1000;
    dump_now(d);
    out->in_ready = t->in_ready_o;
    out->out_valid = t->out_valid_o;
    out->out_prim_id = t->out_prim_id_o;
    out->out_tag = t->out_tag_o;
    out->out_mask = (uint64_t)t->out_mask_o;
    out->busy = t->busy_o;
}

extern "C" void p2g_dut_clock(p2g_dut_t *d)
{
    edge(d, 1, 4000);
    edge(d, 0, 5000);
}

extern "C" void p2g_dut_dump(p2g_dut_t *d, int on) { d->dump = on; }
