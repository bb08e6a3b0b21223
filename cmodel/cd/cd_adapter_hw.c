/* C cycle model of rtl/cd_adapter.v. See cd_adapter_hw.h and docs/cd-unit.md. */
#include "cd/cd_adapter_hw.h"

#include <string.h>

int cd_adapter_hw_init(cd_adapter_hw_t *h, cd_adapter_hw_params_t prm)
{
    memset(h, 0, sizeof *h);
    h->prm = prm;
    if (prm.aq_depth < 2 || prm.aq_depth > CD_ADAPTER_HW_MAX_AQ || prm.dq_depth < 1 || prm.dq_depth > CD_ADAPTER_HW_MAX_DQ)
        return -1;
    return 0;
}

/* the END of an empty chunk falls through this cycle */
static int bypass(const cd_adapter_hw_t *h, const cd_adapter_hw_in_t *in)
{
    return in->desc_valid && h->dn == 0 && in->desc_count == 0 && h->n < h->prm.aq_depth;
}

void cd_adapter_hw_comb(const cd_adapter_hw_t *h, const cd_adapter_hw_in_t *in, cd_adapter_hw_out_t *out)
{
    int byp = bypass(h, in);
    memset(out, 0, sizeof *out);
    out->desc_ready = h->dn < h->prm.dq_depth;
    out->level = h->n + (uint32_t)byp;
    out->p2g_ready = out->level + 2 <= h->prm.aq_depth;
    out->busy = out->level != 0 || h->dn != 0;
    if (h->n) {
        out->pe_valid = 1;
        out->pe_end = h->q[0].end;
        out->pe_tag = h->q[0].tag;
        out->pe_prim_id = h->q[0].prim;
        out->pe_mask = h->q[0].mask;
    } else if (byp) {
        out->pe_valid = 1;
        out->pe_end = 1;
        out->pe_tag = in->desc_tag & 0xffff;
    }
}

static void push(cd_adapter_hw_t *h, int end, uint32_t tag, uint32_t prim, uint64_t mask)
{
    cd_adapter_hw_beat_t *b = &h->q[h->n++];
    b->end = end;
    b->tag = tag & 0xffff;
    b->prim = prim;
    b->mask = mask;
}

void cd_adapter_hw_clock(cd_adapter_hw_t *h, const cd_adapter_hw_in_t *in)
{
    cd_adapter_hw_out_t o;
    cd_adapter_hw_comb(h, in, &o);
    int byp = bypass(h, in);
    /* the order of the C adapter this models: the fall-through END, the P2G's beat, the PE's pop, then the
     * ENDs of the chunks that are complete */
    if (byp) push(h, 1, in->desc_tag, 0, 0);
    if (in->p2g_valid && o.p2g_ready) {
        push(h, 0, in->p2g_tag, in->p2g_prim_id, in->p2g_mask);
        h->acnt++;
    }
    if (o.pe_valid && in->pe_ready) {
        memmove(&h->q[0], &h->q[1], (h->n - 1) * sizeof h->q[0]);
        h->n--;
    }
    if (in->desc_valid && o.desc_ready && !byp) {
        h->dtag[h->dn] = in->desc_tag & 0xffff;
        h->dcnt[h->dn] = in->desc_count;
        h->dn++;
    }
    while (h->dn && h->n < h->prm.aq_depth && h->acnt == h->dcnt[0]) {
        push(h, 1, h->dtag[0], h->dcnt[0], 0);
        memmove(&h->dtag[0], &h->dtag[1], (h->dn - 1) * sizeof h->dtag[0]);
        memmove(&h->dcnt[0], &h->dcnt[1], (h->dn - 1) * sizeof h->dcnt[0]);
        h->dn--;
        h->acnt = 0;
    }
}

int cd_adapter_hw_idle(const cd_adapter_hw_t *h, const cd_adapter_hw_in_t *in)
{
    return !h->n && !in->desc_valid && !in->p2g_valid && !(h->dn && h->acnt == h->dcnt[0]);
}
