// Thin extern "C" shim around the verilated simt_core. No logic here: port copies and clocking only.
#include "simt_dut.h"

#include <cstdint>
#include <cstring>

#include "Vsimt_core.h"
#include "vl_dut.h"
#include "vl_ports.h"

#ifndef SIMT_DUT_LANES
#error "build with -DSIMT_DUT_LANES=.. -DSIMT_DUT_WARPS=.. -DSIMT_DUT_FPU_LAT=.. -DSIMT_DUT_SFU_LAT=.. -DSIMT_DUT_TEX_LAT=.."
#endif

struct simt_dut : vl_dut_one<Vsimt_core> {};   // context, FST, time, model (sim/common/vl_dut.h)

extern "C" int simt_dut_has_fst(void) { return vl_dut_has_fst(); }

#ifndef SIMT_DUT_IMUL_PASSES
#define SIMT_DUT_IMUL_PASSES 1
#endif
#ifndef SIMT_DUT_FPU_PASSES
#define SIMT_DUT_FPU_PASSES 1
#endif
extern "C" simt_hw_params_t simt_dut_params(void)
{
    simt_hw_params_t p;
    p.lanes = SIMT_DUT_LANES;
    p.warps = SIMT_DUT_WARPS;
    p.fpu_lat = SIMT_DUT_FPU_LAT;
    p.sfu_lat = SIMT_DUT_SFU_LAT;
    p.tex_lat = SIMT_DUT_TEX_LAT;
    p.imul_passes = SIMT_DUT_IMUL_PASSES;
    p.fpu_passes = SIMT_DUT_FPU_PASSES;
    return p;
}

#ifndef SIMT_DUT_RF_WORDS
#define SIMT_DUT_RF_WORDS 64
#endif
#ifndef SIMT_DUT_MEM_WORDS
#define SIMT_DUT_MEM_WORDS 64
#endif
#ifndef SIMT_DUT_CONST_WORDS
#define SIMT_DUT_CONST_WORDS 256
#endif
#ifndef SIMT_DUT_IMEM_DEPTH
#define SIMT_DUT_IMEM_DEPTH 4096
#endif
#ifndef SIMT_DUT_STACK_DEPTH
#define SIMT_DUT_STACK_DEPTH 32
#endif
#ifndef SIMT_DUT_HAS_SFU
#define SIMT_DUT_HAS_SFU 1
#endif
#ifndef SIMT_DUT_FPU_AREA
#define SIMT_DUT_FPU_AREA 0
#endif
extern "C" simt_dut_sizes_t simt_dut_sizes(void)
{
    simt_dut_sizes_t z;
    z.rf_words = SIMT_DUT_RF_WORDS;
    z.mem_words = SIMT_DUT_MEM_WORDS;
    z.const_words = SIMT_DUT_CONST_WORDS;
    z.imem_depth = SIMT_DUT_IMEM_DEPTH;
    z.stack_depth = SIMT_DUT_STACK_DEPTH;
    z.has_sfu = SIMT_DUT_HAS_SFU;
    z.fpu_area = SIMT_DUT_FPU_AREA;
    return z;
}

// wide ports: VlWide<N> / QData / IData / CData from and to arrays of 32-bit words

extern "C" void simt_dut_reset(simt_dut_t *d) { vl_dut_reset(&d->vl, d->top); }

extern "C" simt_dut_t *simt_dut_new(const char *fst_path)
{
    simt_dut_t *d = vl_dut_one_new<simt_dut, Vsimt_core>(fst_path, "simt_core");
    simt_dut_reset(d);
    return d;
}

extern "C" void simt_dut_eval(simt_dut_t *d, const simt_hw_in_t *in, simt_hw_out_t *o)
{
    Vsimt_core *t = d->top;
    const uint32_t L = SIMT_DUT_LANES;
    uint32_t buf[SIMT_HW_MAX_LANES * 2];
    t->prog_len_i = in->prog_len & 0x1fff;
    t->imem_we_i = in->imem_we ? 1 : 0;
    t->imem_addr_i = in->imem_addr & 0xfff;
    t->imem_data_i = in->imem_data;
    t->const_we_i = in->const_we ? 1 : 0;
    t->const_addr_i = in->const_addr & 0xff;
    t->const_data_i = in->const_data;
    t->attr_we_i = in->attr_we ? 1 : 0;
    t->attr_warp_i = in->attr_warp & 31;
    t->attr_row_i = in->attr_row & 31;
    t->attr_word_i = in->attr_word & 127;
    vl_port_from_words(t->attr_data_i, in->attr_data);
    t->launch_i = in->launch ? 1 : 0;
    t->launch_warp_i = in->launch_warp & 31;
    t->launch_mask_i = in->launch_mask;
    t->launch_wid_i = in->launch_wid;
    t->out_warp_i = in->out_warp & 31;
    t->out_row_i = in->out_row & 31;
    t->out_word_i = in->out_word & 63;
    vl_port_from_words(t->tex_rsp_data_i, in->tex_rsp);
    vl_dut_eval_inputs(&d->vl, t);
    std::memset(o, 0, sizeof *o);
    o->idle = t->idle_o;
    vl_port_to_words(t->run_o, buf); o->run_mask = buf[0];
    vl_port_to_words(t->err_o, buf); o->err_mask = buf[0];
    vl_port_to_words(t->out_rdata_o, o->out_rdata);
    o->tex_valid = t->tex_req_valid_o;
    o->tex_warp = t->tex_req_warp_o;
    o->tex_row = t->tex_req_row_o;
    o->tex_comp = t->tex_req_comp_o;
    o->tex_unit = t->tex_req_unit_o;
    vl_port_to_words(t->tex_req_mask_o, buf); o->tex_mask = buf[0];
    vl_port_to_words(t->tex_req_s_o, o->tex_s);
    vl_port_to_words(t->tex_req_t_o, o->tex_t);
    o->issue_valid = t->issue_valid_o;
    o->issue_warp = t->issue_warp_o;
    o->issue_pc = t->issue_pc_o;
    o->rt_valid = t->rt_valid_o;
    o->rt_first = t->rt_first_o;
    o->rt_last = t->rt_last_o;
    o->rt_warp = t->rt_warp_o;
    o->rt_pc = t->rt_pc_o;
    o->rt_active = t->rt_active_o;
    o->rt_wmask = t->rt_wmask_o;
    o->rt_row = t->rt_row_o;
    o->rt_minor = t->rt_minor_o;
    vl_port_to_words(t->rt_lane_en_o, buf); o->rt_lane_en = buf[0];
    o->rt_kind = t->rt_kind_o;
    o->rt_dst = t->rt_dst_o;
    vl_port_to_words(t->rt_val_o, o->rt_val);
    std::memset(buf, 0, sizeof buf);
    vl_port_to_words(t->rt_addr_o, buf);
    for (uint32_t l = 0; l < L; l++) {
        uint32_t bit = l * 6, w = bit / 32, s = bit % 32;
        uint64_t v = (uint64_t)buf[w] | ((uint64_t)buf[w + 1] << 32);
        o->rt_addr[l] = (uint32_t)(v >> s) & 63u;
    }
}

// Rising edge, then the falling edge. Nothing in the core is sensitive to the falling clock edge: without a
// waveform the falling-edge evaluation is folded into the next simt_dut_eval (vl_dut_cycle_folded).
VL_DUT_ONE_API(simt_dut, vl_dut_cycle_folded)
