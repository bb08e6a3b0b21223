// Thin extern "C" shim around the verilated simt_lane_top (simt_fpu + simt_sfu). No logic: port copies and
// clocking only.
#include "simt_fpu_dut.h"

#include <cstdint>

#include "Vsimt_lane_top.h"
#include "vl_dut.h"

#ifndef SIMT_DUT_LAT_FPU
#error "build with -DSIMT_DUT_LAT_FPU=<LAT> -DSIMT_DUT_LAT_SFU=<LAT> matching the -G parameters"
#endif

struct simt_fpu_dut : vl_dut_one<Vsimt_lane_top> {};   // context, FST, time, model (sim/common/vl_dut.h)

extern "C" int simt_fpu_dut_lat_fpu(void) { return SIMT_DUT_LAT_FPU; }
extern "C" int simt_fpu_dut_lat_sfu(void) { return SIMT_DUT_LAT_SFU; }

extern "C" simt_fpu_dut_t *simt_fpu_dut_new(const char *fst_path)
{
    simt_fpu_dut_t *d = vl_dut_one_new<simt_fpu_dut, Vsimt_lane_top>(fst_path, "simt_lane_top");
    d->top->f_valid_i = 0;
    d->top->s_valid_i = 0;
    vl_dut_reset(&d->vl, d->top);
    return d;
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
    vl_dut_eval_inputs(&d->vl, t);
    fo->valid = t->f_valid_o;
    fo->res = t->f_res_o;
    fo->pred = t->f_pred_o;
    so->valid = t->s_valid_o;
    so->res = t->s_res_o;
}

VL_DUT_ONE_API(simt_fpu_dut, vl_dut_cycle)
