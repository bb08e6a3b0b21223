// Thin extern "C" shim around N verilated cd_unit instances (rtl/cd_unit.v), or, built with -DSYS_DUT_STREAM,
// cd_unit_stream instances (rtl/cd_unit_stream.v). No logic here: port copies and clocking only.
#include "sys_dut.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "vl_dut.h"
#include "vl_ports.h"

#ifdef SYS_DUT_STREAM
#include "Vcd_unit_stream.h"
typedef Vcd_unit_stream Vcd_unit;
#ifndef SYS_DUT_SX_K
#error "build with -DSYS_DUT_MAX_GPUS=.. -DSYS_DUT_ROWS=.. -DSYS_DUT_SX_K=.. -DSYS_DUT_SX_DEPTH=.. matching the -G parameters"
#endif
#define SYS_DUT_LQ 0
#define SYS_DUT_RQ 0
#else
#include "Vcd_unit.h"
#define SYS_DUT_SX_K 0
#define SYS_DUT_SX_DEPTH 0
#endif
#ifndef SYS_DUT_AQ   // the adapter queues: the RTL defaults unless the build sets AQ_DEPTH / DQ_DEPTH
#define SYS_DUT_AQ 4
#endif
#ifndef SYS_DUT_DQ
#define SYS_DUT_DQ 2
#endif

#ifndef SYS_DUT_MAX_GPUS
#error "build with -DSYS_DUT_MAX_GPUS=.. -DSYS_DUT_ROWS=.. -DSYS_DUT_LQ=.. -DSYS_DUT_RQ=.. matching the -G parameters"
#endif

struct sys_dut {
    vl_dut_core vl;   // context, FST; vl.time = ps at the start of the current cycle (sim/common/vl_dut.h)
    std::vector<Vcd_unit *> g;
};

extern "C" sys_dut_params_t sys_dut_params(void)
{
    sys_dut_params_t p;
    p.max_gpus = SYS_DUT_MAX_GPUS;
    p.rows = SYS_DUT_ROWS;
    p.lq_depth = SYS_DUT_LQ;
    p.rq_depth = SYS_DUT_RQ;
    p.aq_depth = SYS_DUT_AQ;
    p.dq_depth = SYS_DUT_DQ;
#ifdef SYS_DUT_STREAM
    p.stream = 1;
#else
    p.stream = 0;
#endif
    p.sx_k = SYS_DUT_SX_K;
    p.sx_depth = SYS_DUT_SX_DEPTH;
    return p;
}

static void sample(sys_dut_t *d, uint64_t t) { vl_dut_sample(&d->vl, t); }

// One clock period is 10 ns: inputs change 1 ns after the cycle start, rising edge at +5 ns, falling at +10 ns.
static void all_edges(sys_dut_t *d, int clk)
{
    for (Vcd_unit *t : d->g) {
        t->clk_i = clk;
        t->eval();
    }
}

extern "C" sys_dut_t *sys_dut_new(uint32_t n, const char *fst_path)
{
    sys_dut_t *d = new sys_dut();
    vl_dut_init(&d->vl, fst_path);
    for (uint32_t i = 0; i < n; i++) {
        char name[32];
        std::snprintf(name, sizeof name, "gpu%u", i);
        Vcd_unit *t = new Vcd_unit(d->vl.ctx, name);
        t->clk_i = 0;
        t->rst_ni = 0;
        t->p2g_cfg_n_gpus_i = 1;
        t->p2g_cfg_width_i = 1;
        t->p2g_cfg_height_i = 1;
        t->pe_cfg_n_gpus_i = 1;
        d->g.push_back(t);
    }
    vl_dut_open_fst(&d->vl, d->g.data(), d->g.size(), fst_path);
    for (int c = 0; c < 2; c++) {
        all_edges(d, 0);
        sample(d, d->vl.time + 1000);
        all_edges(d, 1);
        sample(d, d->vl.time + 5000);
        all_edges(d, 0);
        d->vl.time += 10000;
        sample(d, d->vl.time);
    }
    for (Vcd_unit *t : d->g) {
        t->rst_ni = 1;
        t->eval();
    }
    return d;
}

extern "C" void sys_dut_free(sys_dut_t *d)
{
    vl_dut_finish(&d->vl, d->g.data(), d->g.size());
    delete d;
}

// the P2G's and the descriptor's inputs (common to both tops)
static void p2g_inputs(Vcd_unit *t, const p2g_hw_in_t *pin, const cd_adapter_hw_in_t *ain)
{
    t->p2g_cfg_n_gpus_i = pin->cfg.n_gpus & 0x7f;
    t->p2g_cfg_width_i = pin->cfg.width & 0x7fff;
    t->p2g_cfg_height_i = pin->cfg.height & 0x7fff;
    t->p2g_cfg_tile_log2_i = pin->cfg.tile_log2 & 0xf;
    t->p2g_cfg_mode_i = pin->cfg.mode == P2G_MODE_LINEAR;
    t->p2g_cfg_sc_x0_i = pin->cfg.sc_x0 & 0x3fff;
    t->p2g_cfg_sc_y0_i = pin->cfg.sc_y0 & 0x3fff;
    t->p2g_cfg_sc_x1_i = pin->cfg.sc_x1 & 0x3fff;
    t->p2g_cfg_sc_y1_i = pin->cfg.sc_y1 & 0x3fff;
    t->in_valid_i = pin->in_valid ? 1 : 0;
    t->in_prim_id_i = pin->in.prim_id;
    t->in_tag_i = pin->in.tag & 0xffff;
    t->in_x0_i = (uint32_t)pin->in.x[0] & 0xffffff;
    t->in_y0_i = (uint32_t)pin->in.y[0] & 0xffffff;
    t->in_x1_i = (uint32_t)pin->in.x[1] & 0xffffff;
    t->in_y1_i = (uint32_t)pin->in.y[1] & 0xffffff;
    t->in_x2_i = (uint32_t)pin->in.x[2] & 0xffffff;
    t->in_y2_i = (uint32_t)pin->in.y[2] & 0xffffff;
    t->in_flags_i = pin->in.flags & 3;
    t->desc_valid_i = ain->desc_valid ? 1 : 0;
    t->desc_tag_i = ain->desc_tag & 0xffff;
    t->desc_count_i = ain->desc_count;
}

// the P2G's and the adapter's outputs (observation ports)
static void p2g_outputs(const Vcd_unit *t, p2g_hw_out_t *pout, cd_adapter_hw_out_t *aout)
{
    pout->in_ready = t->in_ready_o;
    pout->out_valid = t->obs_p2g_out_valid_o;
    pout->out_prim_id = t->obs_p2g_out_prim_id_o;
    pout->out_tag = t->obs_p2g_out_tag_o;
    pout->out_mask = (uint64_t)t->obs_p2g_out_mask_o;
    pout->busy = t->p2g_busy_o;
    aout->desc_ready = t->desc_ready_o;
    aout->p2g_ready = t->obs_p2g_out_ready_o;
    aout->pe_valid = t->obs_pe_in_valid_o;
    aout->pe_end = t->obs_pe_in_end_o;
    aout->pe_tag = t->obs_pe_in_tag_o;
    aout->pe_prim_id = t->obs_pe_in_prim_id_o;
    aout->pe_mask = (uint64_t)t->obs_pe_in_mask_o;
    aout->level = 0;   /* not a port */
    aout->busy = t->obs_ad_busy_o;
}

#ifdef SYS_DUT_STREAM
extern "C" void sys_dut_eval(sys_dut_t *, uint32_t, const p2g_hw_in_t *, p2g_hw_out_t *, const cd_adapter_hw_in_t *,
                             cd_adapter_hw_out_t *, const pe_hw_in_t *, pe_hw_out_t *)
{
    std::fprintf(stderr, "sys_dut_eval: this build is the stream unit (cd_unit_stream): use sys_dut_eval_sx\n");
    std::abort();
}

// the stream PE's released ids: K lanes of 32 bits (out_id_o is K*32 bits wide)

extern "C" void sys_dut_eval_sx(sys_dut_t *d, uint32_t g, const p2g_hw_in_t *pin, p2g_hw_out_t *pout,
                                const cd_adapter_hw_in_t *ain, cd_adapter_hw_out_t *aout, const sx_hw_in_t *xin,
                                sx_hw_out_t *xout)
{
    Vcd_unit *t = d->g[g];
    p2g_inputs(t, pin, ain);
    t->pe_cfg_n_gpus_i = xin->cfg.n_gpus & 0x7f;
    t->pe_cfg_gpu_id_i = xin->cfg.gpu_id & 0x3f;
    t->pe_cfg_topo_i = xin->cfg.topo & 1;
    t->tx0_ready_i = xin->tx_ready[0] ? 1 : 0;
    t->tx1_ready_i = xin->tx_ready[1] ? 1 : 0;
    t->rx0_valid_i = xin->rx_valid[0] ? 1 : 0;
    t->rx0_flit_i = xin->rx_flit[0];
    t->rx1_valid_i = xin->rx_valid[1] ? 1 : 0;
    t->rx1_flit_i = xin->rx_flit[1];
    t->out_ready_i = xin->out_ready ? 1 : 0;
    t->eval();
    p2g_outputs(t, pout, aout);
    std::memset(xout, 0, sizeof *xout);
    for (unsigned j = 0; j < SYS_DUT_SX_K; j++) {
        xout->in_ready[j] = (t->obs_pe_in_ready_o >> j) & 1;
        xout->out_valid[j] = (t->out_valid_o >> j) & 1;
        xout->out_id[j] = vl_port_get32(t->out_id_o, 32 * j);
    }
    xout->tx_valid[0] = t->tx0_valid_o;
    xout->tx_flit[0] = t->tx0_flit_o;
    xout->tx_valid[1] = t->tx1_valid_o;
    xout->tx_flit[1] = t->tx1_flit_o;
    xout->rx_ready[0] = t->rx0_ready_o;
    xout->rx_ready[1] = t->rx1_ready_o;
    xout->out_tag = t->out_tag_o;
    xout->out_eob = t->out_eob_o;
    xout->rel_last = t->rel_last_o;
    xout->rel_src = t->rel_src_o;
    xout->occ = t->occ_o;
    xout->busy = t->obs_pe_busy_o;
    xout->err = t->err_o;
}
#else
extern "C" void sys_dut_eval_sx(sys_dut_t *, uint32_t, const p2g_hw_in_t *, p2g_hw_out_t *, const cd_adapter_hw_in_t *,
                                cd_adapter_hw_out_t *, const sx_hw_in_t *, sx_hw_out_t *)
{
    std::fprintf(stderr, "sys_dut_eval_sx: this build is the paper protocol's unit (cd_unit): use sys_dut_eval\n");
    std::abort();
}

extern "C" void sys_dut_eval(sys_dut_t *d, uint32_t g, const p2g_hw_in_t *pin, p2g_hw_out_t *pout,
                             const cd_adapter_hw_in_t *ain, cd_adapter_hw_out_t *aout, const pe_hw_in_t *ein,
                             pe_hw_out_t *eout)
{
    Vcd_unit *t = d->g[g];
    p2g_inputs(t, pin, ain);
    t->pe_cfg_n_gpus_i = ein->cfg.n_gpus & 0x7f;
    t->pe_cfg_gpu_id_i = ein->cfg.gpu_id & 0x3f;
    t->pe_cfg_topo_i = ein->cfg.topo & 1;
    t->pe_cfg_runahead_i = ein->cfg.runahead & 1;
    t->tx0_ready_i = ein->tx_ready[0] ? 1 : 0;
    t->tx1_ready_i = ein->tx_ready[1] ? 1 : 0;
    t->rx0_valid_i = ein->rx_valid[0] ? 1 : 0;
    t->rx0_flit_i = ein->rx_flit[0];
    t->rx1_valid_i = ein->rx_valid[1] ? 1 : 0;
    t->rx1_flit_i = ein->rx_flit[1];
    t->out_ready_i = ein->out_ready ? 1 : 0;
    t->eval();
    p2g_outputs(t, pout, aout);
    eout->in_ready = t->obs_pe_in_ready_o;
    eout->tx_valid[0] = t->tx0_valid_o;
    eout->tx_flit[0] = t->tx0_flit_o;
    eout->tx_valid[1] = t->tx1_valid_o;
    eout->tx_flit[1] = t->tx1_flit_o;
    eout->rx_ready[0] = t->rx0_ready_o;
    eout->rx_ready[1] = t->rx1_ready_o;
    eout->out_valid = t->out_valid_o;
    eout->out_eob = t->out_eob_o;
    eout->out_tag = t->out_tag_o;
    eout->out_prim_id = t->out_prim_id_o;
    eout->busy = t->obs_pe_busy_o;
    eout->cur_tag = t->cur_tag_o;
    eout->err = t->err_o;
}
#endif

extern "C" void sys_dut_sample(sys_dut_t *d) { sample(d, d->vl.time + 1000); }

extern "C" void sys_dut_rise(sys_dut_t *d, uint32_t g)
{
    d->g[g]->clk_i = 1;
    d->g[g]->eval();
}

extern "C" void sys_dut_end_cycle(sys_dut_t *d)
{
    if (vl_dut_tracing(&d->vl)) {
        sample(d, d->vl.time + 5000);
        all_edges(d, 0);     // an explicit falling edge, for the waveform
        d->vl.time += 10000;
        sample(d, d->vl.time);
        return;
    }
    // Without a waveform the falling edge is folded into the next cycle's input evaluation (the RTL has
    // posedge logic only: clk_i going low changes nothing), saving one eval per GPU and cycle.
    for (Vcd_unit *t : d->g) t->clk_i = 0;
    d->vl.time += 10000;
}

extern "C" void sys_dut_dump(sys_dut_t *d, int on) { d->vl.dump = on; }
