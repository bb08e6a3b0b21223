// Thin extern "C" shim around the verilated pe_exchanger. No logic here: port copies and clocking only.
#include "pe_dut.h"

#include <cstdint>

#include "Vpe_exchanger.h"
#include "vl_dut.h"
#include "vl_ports.h"

#ifndef PE_DUT_MAX_GPUS
#error "build with -DPE_DUT_MAX_GPUS=<MAX_GPUS> -DPE_DUT_LQ=<LQ_DEPTH> -DPE_DUT_RQ=<RQ_DEPTH> matching the -G parameters"
#endif

struct pe_dut : vl_dut_one<Vpe_exchanger> {};   // context, FST, time, model (sim/common/vl_dut.h)

extern "C" pe_hw_params_t pe_dut_params(void)
{
    pe_hw_params_t p;
    p.max_gpus = PE_DUT_MAX_GPUS;
    p.lq_depth = PE_DUT_LQ;
    p.rq_depth = PE_DUT_RQ;
    return p;
}

extern "C" void pe_dut_reset(pe_dut_t *d)
{
    Vpe_exchanger *t = d->top;
    vl_exchange_reset_inputs(t);
    vl_dut_reset(&d->vl, t);
}

extern "C" pe_dut_t *pe_dut_new(const char *fst_path)
{
    pe_dut_t *d = vl_dut_one_new<pe_dut, Vpe_exchanger>(fst_path, "pe_exchanger");
    pe_dut_reset(d);
    return d;
}

extern "C" void pe_dut_eval(pe_dut_t *d, const pe_hw_in_t *in, pe_hw_out_t *out)
{
    Vpe_exchanger *t = d->top;
    vl_exchange_inputs(t, in);
    t->cfg_runahead_i = in->cfg.runahead ? 1 : 0;
    t->in_valid_i = in->in_valid ? 1 : 0;
    t->in_end_i = in->in_end ? 1 : 0;
    t->in_tag_i = in->in_tag & 0xffff;
    t->in_prim_id_i = in->in_prim_id;
    t->in_mask_i = in->in_mask & (PE_DUT_MAX_GPUS >= 64 ? ~0ull : ((1ull << PE_DUT_MAX_GPUS) - 1));
    vl_dut_eval_inputs(&d->vl, t);
    out->in_ready = t->in_ready_o;
    vl_exchange_outputs(t, out);
    out->out_valid = t->out_valid_o;
    out->out_eob = t->out_eob_o;
    out->out_tag = t->out_tag_o;
    out->out_prim_id = t->out_prim_id_o;
    out->busy = t->busy_o;
    out->cur_tag = t->cur_tag_o;
    out->err = t->err_o;
}

VL_DUT_ONE_API(pe_dut, vl_dut_cycle)
