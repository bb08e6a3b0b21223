/* C cycle model of rtl/p2g_merge.v: P P2G cycle models (p2g_hw.c) merged in order. See p2g_merge_hw.h. */
#include "p2g/p2g_merge_hw.h"

#include <string.h>

void p2g_merge_hw_init(p2g_merge_hw_t *m, uint32_t p, p2g_hw_params_t prm)
{
    memset(m, 0, sizeof *m);
    m->p = p < 1 ? 1 : p > P2G_MERGE_MAX_P ? P2G_MERGE_MAX_P : p;
    for (uint32_t k = 0; k < m->p; k++) p2g_hw_init(&m->u[k], prm);
}

/* the ports of unit k in this cycle, given the slots' inputs (in_valid of the unit: its slot is taken) */
static void unit_ports(const p2g_merge_hw_t *m, const p2g_merge_hw_in_t *in, p2g_hw_in_t ui[P2G_MERGE_MAX_P],
                       p2g_hw_out_t uo[P2G_MERGE_MAX_P], uint32_t *taken)
{
    for (uint32_t k = 0; k < m->p; k++) {
        memset(&ui[k], 0, sizeof ui[k]);
        ui[k].cfg = in->cfg;
        ui[k].out_ready = in->out_ready && k == m->rptr;
        p2g_hw_comb(&m->u[k], &ui[k], &uo[k]);   /* in_ready does not depend on in_valid */
    }
    uint32_t a = 0;
    while (a < m->p && in->in_valid[a] && uo[(m->wptr + a) % m->p].in_ready) {
        p2g_hw_in_t *u = &ui[(m->wptr + a) % m->p];
        u->in_valid = 1;
        u->in = in->in[a];
        a++;
    }
    *taken = a;
}

void p2g_merge_hw_comb(const p2g_merge_hw_t *m, const p2g_merge_hw_in_t *in, p2g_merge_hw_out_t *out)
{
    p2g_hw_in_t ui[P2G_MERGE_MAX_P];
    p2g_hw_out_t uo[P2G_MERGE_MAX_P];
    uint32_t taken;
    unit_ports(m, in, ui, uo, &taken);
    memset(out, 0, sizeof *out);
    int rdy = 1;
    for (uint32_t j = 0; j < m->p; j++) {
        rdy = rdy && uo[(m->wptr + j) % m->p].in_ready;
        out->in_ready[j] = rdy;
    }
    const p2g_hw_out_t *o = &uo[m->rptr];
    out->out_valid = o->out_valid;
    out->out_prim_id = o->out_prim_id;
    out->out_tag = o->out_tag;
    out->out_mask = o->out_mask;
    for (uint32_t k = 0; k < m->p; k++) out->busy |= uo[k].busy;
}

uint32_t p2g_merge_hw_clock(p2g_merge_hw_t *m, const p2g_merge_hw_in_t *in)
{
    p2g_hw_in_t ui[P2G_MERGE_MAX_P];
    p2g_hw_out_t uo[P2G_MERGE_MAX_P];
    uint32_t taken;
    unit_ports(m, in, ui, uo, &taken);
    int out_go = uo[m->rptr].out_valid && in->out_ready;
    for (uint32_t k = 0; k < m->p; k++) p2g_hw_clock(&m->u[k], &ui[k]);
    m->wptr = (m->wptr + taken) % m->p;
    if (out_go) m->rptr = (m->rptr + 1) % m->p;
    return taken;
}
