// Thin extern "C" shim around the verilated p2g_merge. No logic here: port copies and clocking only.
#include "p2g_merge_dut.h"

#include <cstdint>

#include "Vp2g_merge.h"
#include "vl_dut.h"
#include "vl_ports.h"

#ifndef P2G_MERGE_DUT_P
#error "build with -DP2G_MERGE_DUT_P=<P> -DP2G_DUT_MAX_GPUS=<MAX_GPUS> -DP2G_DUT_ROWS=<ROWS> matching the -G parameters"
#endif

struct p2g_merge_dut : vl_dut_one<Vp2g_merge> {};

extern "C" uint32_t p2g_merge_dut_p(void) { return P2G_MERGE_DUT_P; }

extern "C" p2g_hw_params_t p2g_merge_dut_params(void)
{
    p2g_hw_params_t p;
    p.max_gpus = P2G_DUT_MAX_GPUS;
    p.rows = P2G_DUT_ROWS;
    p.tag_bits = 16;
    return p;
}

extern "C" p2g_merge_dut_t *p2g_merge_dut_new(const char *fst_path)
{
    p2g_merge_dut_t *d = vl_dut_one_new<p2g_merge_dut, Vp2g_merge>(fst_path, "p2g_merge");
    d->top->cfg_n_gpus_i = 1;
    d->top->cfg_width_i = 1;
    d->top->cfg_height_i = 1;
    vl_dut_reset(&d->vl, d->top);
    return d;
}

extern "C" void p2g_merge_dut_eval(p2g_merge_dut_t *d, const p2g_merge_hw_in_t *in, p2g_merge_hw_out_t *out)
{
    Vp2g_merge *t = d->top;
    t->cfg_n_gpus_i = in->cfg.n_gpus & 0x7f;
    t->cfg_width_i = in->cfg.width & 0x7fff;
    t->cfg_height_i = in->cfg.height & 0x7fff;
    t->cfg_tile_log2_i = in->cfg.tile_log2 & 0xf;
    t->cfg_mode_i = in->cfg.mode == P2G_MODE_LINEAR;
    t->cfg_sc_x0_i = in->cfg.sc_x0 & 0x3fff;
    t->cfg_sc_y0_i = in->cfg.sc_y0 & 0x3fff;
    t->cfg_sc_x1_i = in->cfg.sc_x1 & 0x3fff;
    t->cfg_sc_y1_i = in->cfg.sc_y1 & 0x3fff;
    for (unsigned j = 0; j < P2G_MERGE_DUT_P; j++) {
        const p2g_prim_t *p = &in->in[j];
        vl_port_set_bits(t->in_valid_i, j, 1, in->in_valid[j] ? 1 : 0);
        vl_port_set_bits(t->in_prim_id_i, 32 * j, 32, p->prim_id);
        vl_port_set_bits(t->in_tag_i, 16 * j, 16, p->tag & 0xffff);
        vl_port_set_bits(t->in_x0_i, 24 * j, 24, (uint32_t)p->x[0] & 0xffffff);
        vl_port_set_bits(t->in_y0_i, 24 * j, 24, (uint32_t)p->y[0] & 0xffffff);
        vl_port_set_bits(t->in_x1_i, 24 * j, 24, (uint32_t)p->x[1] & 0xffffff);
        vl_port_set_bits(t->in_y1_i, 24 * j, 24, (uint32_t)p->y[1] & 0xffffff);
        vl_port_set_bits(t->in_x2_i, 24 * j, 24, (uint32_t)p->x[2] & 0xffffff);
        vl_port_set_bits(t->in_y2_i, 24 * j, 24, (uint32_t)p->y[2] & 0xffffff);
        vl_port_set_bits(t->in_flags_i, 2 * j, 2, p->flags & 3);
    }
    t->out_ready_i = in->out_ready ? 1 : 0;
    vl_dut_eval_inputs(&d->vl, t);
    for (unsigned j = 0; j < P2G_MERGE_DUT_P; j++) out->in_ready[j] = (int)((t->in_ready_o >> j) & 1u);
    out->out_valid = t->out_valid_o;
    out->out_prim_id = t->out_prim_id_o;
    out->out_tag = t->out_tag_o;
    out->out_mask = (uint64_t)t->out_mask_o;
    out->busy = t->busy_o;
}

VL_DUT_ONE_API(p2g_merge_dut, vl_dut_cycle)
