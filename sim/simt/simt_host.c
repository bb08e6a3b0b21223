/* The host side of the SIMT core's ports in the lockstep (sim/simt/simt_cosim.h): what a job uploads
 * (instructions, constants, attribute rows), the launches, the output memory read-back, and the texture unit
 * (requests answered TEX_LAT cycles later by the deterministic sampler of simt_sampler.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt_cosim.h"
#include "simt_sampler.h"

void host_inputs(const ctx_t *c, const job_t *j, host_t *h, simt_hw_in_t *in)
{
    const uint32_t L = c->prm.lanes, Q = c->g.q;
    memset(in, 0, sizeof *in);
    in->prog_len = j->len;
    switch (h->phase) {
    case 0:
        in->imem_we = 1;
        in->imem_addr = h->i;
        in->imem_data = j->code[h->i];
        break;
    case 1:
        in->const_we = 1;
        in->const_addr = h->i;
        in->const_data = j->ctx->konst[h->i];
        break;
    case 2: {
        in->attr_we = 1;
        in->attr_warp = h->w;
        in->attr_row = h->row;
        in->attr_word = h->word;
        const isa_warp_t *iw = j->iw[h->w];
        for (uint32_t l = 0; l < L; l++) {
            uint32_t t = h->row * L + l;
            /* (a reduced core stores MEM_WORDS words: word k is attribute k mod MEM_WORDS, uploaded so) */
            in->attr_data[l] = h->word < 64 ? iw->attr[h->word % c->o->sz.mem_words][t]
                               : h->word == 64 ? iw->sr_vertex[t] : iw->sr_prim[t];
        }
        break;
    }
    case 3:
        in->launch = 1;
        in->launch_warp = h->w;
        in->launch_mask = j->iw[h->w]->launch_mask;
        in->launch_wid = j->iw[h->w]->warp_id;
        break;
    case 5:
        in->out_warp = h->w;
        in->out_row = h->row;
        in->out_word = h->word;
        break;
    default:
        break;
    }
    (void)Q;
}

void host_advance(const ctx_t *c, const job_t *j, host_t *h, const simt_hw_out_t *out, uint64_t cycle)
{
    const uint32_t Q = c->g.q;
    switch (h->phase) {
    case 0:
        if (++h->i >= j->len) { h->phase = 1; h->i = 0; }
        break;
    case 1:
        if (++h->i >= (c->o->sz.const_words < ISA_CONST_WORDS ? c->o->sz.const_words : ISA_CONST_WORDS)) {
            h->phase = 2; h->w = h->row = h->word = 0;
        }
        break;
    case 2:
        if (++h->word == c->o->n_upload)
            h->word = 64;   /* then %vertex, %prim */
        if (h->word >= 64 + SIMT_HW_SR_WORDS) {
            h->word = 0;
            if (++h->row >= Q) { h->row = 0; if (++h->w >= j->nw) { h->phase = 3; h->w = 0; } }
        }
        break;
    case 3:
        if (++h->w >= j->nw) { h->phase = 4; h->run_start = cycle + 1; }
        break;
    case 4:
        if (out->idle && cycle > h->run_start)
            h->phase = j->readback ? 5 : 6, h->w = h->row = h->word = 0, h->i = 0;
        break;
    case 5:
        /* the address of cycle n is answered in cycle n+1: h->i counts addresses issued */
        h->i++;
        if (++h->word >= j->rb_words) {
            h->word = 0;
            if (++h->row >= Q) { h->row = 0; if (++h->w >= j->nw) h->phase = 6; }
        }
        break;
    default:
        break;
    }
}

/* this cycle's texture responses (requested TEX_LAT cycles ago) onto the input port */
void tex_respond(ctx_t *c, uint64_t cycle, simt_hw_in_t *in)
{
    uint32_t slot = (uint32_t)(cycle % TEXQ);
    if (c->texq_v[slot]) {
        memcpy(in->tex_rsp, c->texq[slot], sizeof in->tex_rsp);
        c->texq_v[slot] = 0;
    }
}

/* a texture request of this cycle: answer TEX_LAT cycles later */
void tex_request(ctx_t *c, const job_t *j, const simt_hw_out_t *od, uint64_t cycle)
{
    const uint32_t L = c->prm.lanes;
    if (!od->tex_valid)
        return;
    uint32_t due = (uint32_t)((cycle + c->prm.tex_lat) % TEXQ);
    c->texq_v[due] = 1;
    memset(c->texq[due], 0, sizeof c->texq[due]);
    for (uint32_t l = 0; l < L; l++) {
        if (!((od->tex_mask >> l) & 1u))
            continue;
        uint32_t rgba[4], t = od->tex_row * L + l;
        sampler(NULL, od->tex_unit, j->iw[od->tex_warp % j->nw]->warp_id, t, od->tex_s[l], od->tex_t[l], rgba);
        c->texq[due][l] = rgba[od->tex_comp & 3u];
    }
}
