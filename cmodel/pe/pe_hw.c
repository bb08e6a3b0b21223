/* C cycle model of rtl/pe_exchanger.v. pe_hw_decide() computes every combinational decision of a cycle
 * from the registers and the inputs (the RTL's `always @*` blocks); pe_hw_comb() drives the ports from it
 * and pe_hw_clock() applies it (the RTL's `always @(posedge clk_i)` blocks). Names follow the RTL. */
#include "pe/pe_hw.h"

#include <string.h>

#include "link/flit.h"

static uint64_t lowmask(uint32_t bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }

/* index of the lowest set bit (m != 0): rtl/pe_lowbit.v */
static uint32_t lowbit(uint64_t m) { return (uint32_t)__builtin_ctzll(m); }


int pe_hw_init(pe_hw_t *h, pe_hw_params_t prm)
{
    memset(h, 0, sizeof *h);
    h->prm = prm;
    if (prm.max_gpus < 1 || prm.max_gpus > 64 || prm.lq_depth < 2 || prm.lq_depth > PE_HW_MAX_DEPTH ||
        prm.rq_depth < 2 || prm.rq_depth > PE_HW_MAX_DEPTH)
        return -1;
    return 0;
}

static uint32_t inc16(uint32_t v) { return (v + 1) & 0xffff; }

static void pe_hw_decide(const pe_hw_t *h, const pe_hw_in_t *in, pe_hw_dec_t *d)
{
    const pe_hw_params_t *p = &h->prm;
    const pe_hw_cfg_t *c = &in->cfg;
    /* the decisions taken only on some paths start at 0; every other field is assigned on every path below
     * (a memset of the whole struct was a third of this function's time) */
    d->rx_set[0] = d->rx_set[1] = 0;
    d->bk_push[0] = d->bk_push[1] = 0;
    d->bk_push_id[0] = d->bk_push_id[1] = 0;
    d->pop = d->keep = 0;
    d->tx_send[0] = d->tx_send[1] = 0;
    d->tx_new[0] = d->tx_new[1] = 0;
    d->out_load = d->out_load_eob = 0;
    d->bk_pop[0] = d->bk_pop[1] = 0;
    d->err_set = 0;
    uint32_t n = c->n_gpus < p->max_gpus ? c->n_gpus : p->max_gpus;
    uint32_t g = c->gpu_id & 63;
    d->all = lowmask(n);
    d->gbit = g < p->max_gpus ? (1ull << g) & d->all : 0;
    d->below = lowmask(g) & d->all;
    d->above = d->all & ~d->below & ~d->gbit;
    int line = c->topo == PE_TOPO_LINE;

    /* ---------------------------------------------------------------- RX: port 0 first on a bank */
    for (int q = 0; q < PE_HW_PORTS; q++) {
        uint64_t f = in->rx_flit[q];
        d->rx_is_prim[q] = flit_type(f) == FLIT_TYPE_PRIM;
        d->rx_bank[q] = (int)(flit_tag(f) & 1);
    }
    d->rx_ready[0] = !d->rx_is_prim[0] || h->bk_cnt[d->rx_bank[0]] < p->rq_depth;
    d->rx_ready[1] = !d->rx_is_prim[1] || (h->bk_cnt[d->rx_bank[1]] < p->rq_depth &&
                                           !(in->rx_valid[0] && d->rx_is_prim[0] && d->rx_bank[0] == d->rx_bank[1]));
    for (int q = 0; q < PE_HW_PORTS; q++) {
        uint64_t f = in->rx_flit[q];
        d->rx_fire[q] = in->rx_valid[q] && d->rx_ready[q];
        if (!d->rx_fire[q]) continue;
        uint32_t t = flit_type(f);
        if (((flit_tag(f) - h->ob) & 0xffff) > 1) d->err_set = 1;
        if (t == FLIT_TYPE_PRIM) {
            d->bk_push[d->rx_bank[q]] = 1;
            d->bk_push_id[d->rx_bank[q]] = flit_payload(f);
            if (flit_dst(f) != g) d->err_set = 1;
        } else if (t == FLIT_TYPE_LAST) {
            d->rx_set[flit_tag(f) & 1] |= (1ull << flit_src(f)) & lowmask(p->max_gpus);
        } else {
            d->err_set = 1;
        }
    }

    /* ---------------------------------------------------------------- input from the P2G */
    int batch_ok = h->in_b == h->cur || (c->runahead && h->in_b == inc16(h->cur));
    d->in_ready = h->lq_cnt < p->lq_depth && batch_ok;
    d->in_fire = in->in_valid && d->in_ready;
    if (d->in_fire && (in->in_tag & 0xffff) != h->in_b) d->err_set = 1;

    /* ---------------------------------------------------------------- turn engine */
    int tx_free[PE_HW_PORTS];
    for (int q = 0; q < PE_HW_PORTS; q++) tx_free[q] = !h->tx_v[q] || in->tx_ready[q];
    uint32_t cc = h->cur & 1;
    d->turn_ok = h->lq_cnt > 0 && !h->turn_done && h->ob == h->cur && (h->lasts[cc] & d->below) == d->below;
    d->rem_next = h->rem;
    d->last_sent_next[0] = h->last_sent[0];
    d->last_sent_next[1] = h->last_sent[1];
    if (d->turn_ok) {
        const pe_hw_lq_entry_t *e = &h->lq[h->lq_rp];
        if (!e->end) {
            uint64_t m = h->rem_v ? h->rem : e->mask & d->all;
            uint64_t side[PE_HW_PORTS];
            side[0] = line ? m & d->below : m & ~d->gbit;
            side[1] = line ? m & d->above : 0;
            uint64_t mn = m;
            for (int q = 0; q < PE_HW_PORTS; q++)
                if (side[q] && tx_free[q]) {
                    uint32_t t = lowbit(side[q]);
                    d->tx_send[q] = 1;
                    d->tx_new[q] = flit_make(FLIT_TYPE_PRIM, g, t, e->tag, e->id);
                    mn &= ~(1ull << t);
                }
            /* keep: lowest priority on the bank of batch cur (after the rx ports) */
            int keep_ok = h->bk_cnt[cc] < p->rq_depth &&
                          !(in->rx_valid[0] && d->rx_is_prim[0] && (uint32_t)d->rx_bank[0] == cc) &&
                          !(in->rx_valid[1] && d->rx_is_prim[1] && (uint32_t)d->rx_bank[1] == cc);
            if ((m & d->gbit) && keep_ok) {
                d->keep = 1;
                mn &= ~d->gbit;
            }
            d->rem_next = mn;
            d->pop = mn == 0;
        } else {
            int need[PE_HW_PORTS], done = 1;
            need[0] = line ? g > 0 : n > 1;
            need[1] = line ? g + 1 < n : 0;
            for (int q = 0; q < PE_HW_PORTS; q++) {
                int s = need[q] && !h->last_sent[q] && tx_free[q];
                if (s) {
                    d->tx_send[q] = 1;
                    d->tx_new[q] = flit_make(FLIT_TYPE_LAST, g, FLIT_DST_BCAST, e->tag, e->id);
                }
                d->last_sent_next[q] = h->last_sent[q] || s;
                if (need[q] && !d->last_sent_next[q]) done = 0;
            }
            d->pop = done;
        }
    }
    d->complete = h->turn_done && ((h->lasts[cc] | d->gbit) & d->all) == d->all;

    /* ---------------------------------------------------------------- output register */
    uint32_t oc = h->ob & 1;
    if (!h->out_v || in->out_ready) {
        if (h->bk_cnt[oc] > 0) {
            d->out_load = 1;
            d->bk_pop[oc] = 1;
        } else if (h->cur != h->ob) {
            d->out_load = 1;
            d->out_load_eob = 1;
        }
    }
}

void pe_hw_comb_dec(const pe_hw_t *h, const pe_hw_in_t *in, pe_hw_out_t *out, pe_hw_dec_t *d)
{
    pe_hw_decide(h, in, d);
    out->in_ready = d->in_ready;
    for (int q = 0; q < PE_HW_PORTS; q++) {
        out->tx_valid[q] = h->tx_v[q];
        out->tx_flit[q] = h->tx_flit[q];
        out->rx_ready[q] = d->rx_ready[q];
    }
    out->out_valid = h->out_v;
    out->out_eob = h->out_eob;
    out->out_tag = h->out_tag;
    out->out_prim_id = h->out_id;
    out->busy = h->lq_cnt || h->bk_cnt[0] || h->bk_cnt[1] || h->tx_v[0] || h->tx_v[1] || h->out_v || h->rem_v ||
                h->last_sent[0] || h->last_sent[1] || h->turn_done || h->lasts[0] || h->lasts[1] ||
                h->cur != h->ob || h->in_b != h->cur;
    out->cur_tag = h->cur;
    out->err = h->err;
}

void pe_hw_comb(const pe_hw_t *h, const pe_hw_in_t *in, pe_hw_out_t *out)
{
    pe_hw_dec_t d;
    pe_hw_comb_dec(h, in, out, &d);
}

static uint32_t wrap(uint32_t v, uint32_t depth) { return v + 1 == depth ? 0 : v + 1; }

void pe_hw_clock_dec(pe_hw_t *h, const pe_hw_in_t *in, const pe_hw_dec_t *d)
{
    const pe_hw_params_t *p = &h->prm;
    uint32_t cc = h->cur & 1, oc = h->ob & 1;

    /* output register (reads the bank before this cycle's push) */
    if (d->out_load) {
        h->out_v = 1;
        h->out_eob = d->out_load_eob;
        h->out_tag = h->ob;
        h->out_id = d->out_load_eob ? 0 : h->bank[oc][h->bk_rp[oc]];
    } else if (in->out_ready) {
        h->out_v = 0;
    }

    /* banks: pushes from rx (or keep), pops to the output */
    for (int b = 0; b < 2; b++) {
        int push = d->bk_push[b] || (d->keep && (uint32_t)b == cc);
        uint32_t id = d->bk_push[b] ? d->bk_push_id[b] : h->lq[h->lq_rp].id;
        if (push) {
            h->bank[b][h->bk_wp[b]] = id;
            h->bk_wp[b] = wrap(h->bk_wp[b], p->rq_depth);
        }
        if (d->bk_pop[b]) h->bk_rp[b] = wrap(h->bk_rp[b], p->rq_depth);
        h->bk_cnt[b] = h->bk_cnt[b] + (uint32_t)push - (uint32_t)d->bk_pop[b];
    }

    /* TX registers */
    for (int q = 0; q < PE_HW_PORTS; q++) {
        if (d->tx_send[q]) {
            h->tx_v[q] = 1;
            h->tx_flit[q] = d->tx_new[q];
        } else if (in->tx_ready[q]) {
            h->tx_v[q] = 0;
        }
    }

    /* turn engine */
    int end_pop = 0;
    if (d->turn_ok) {
        if (!h->lq[h->lq_rp].end) {
            h->rem_v = !d->pop;
            h->rem = d->rem_next;
        } else {
            end_pop = d->pop;
            h->last_sent[0] = d->pop ? 0 : d->last_sent_next[0];
            h->last_sent[1] = d->pop ? 0 : d->last_sent_next[1];
        }
    }

    /* batch state */
    for (int b = 0; b < 2; b++) {
        uint64_t l = d->complete && (uint32_t)b == cc ? 0 : h->lasts[b];
        h->lasts[b] = l | d->rx_set[b];
    }
    if (d->complete) {
        h->cur = inc16(h->cur);
        h->turn_done = 0;
    } else if (end_pop) {
        h->turn_done = 1;
    }
    if (d->out_load_eob) h->ob = inc16(h->ob);

    /* local queue: pop (turn engine), push (input) */
    int lq_pop = d->turn_ok && d->pop;
    if (lq_pop) h->lq_rp = wrap(h->lq_rp, p->lq_depth);
    if (d->in_fire) {
        pe_hw_lq_entry_t *e = &h->lq[h->lq_wp];
        e->end = in->in_end ? 1 : 0;
        e->tag = (uint16_t)(in->in_tag & 0xffff);
        e->id = in->in_prim_id;
        e->mask = in->in_mask & lowmask(p->max_gpus);
        h->lq_wp = wrap(h->lq_wp, p->lq_depth);
        if (in->in_end) h->in_b = inc16(h->in_b);
    }
    h->lq_cnt = h->lq_cnt + (uint32_t)d->in_fire - (uint32_t)lq_pop;
    if (d->err_set) h->err = 1;
}

void pe_hw_clock(pe_hw_t *h, const pe_hw_in_t *in)
{
    pe_hw_dec_t d;
    pe_hw_decide(h, in, &d);
    pe_hw_clock_dec(h, in, &d);
}

int pe_hw_quiet(const pe_hw_t *h, const pe_hw_cfg_t *cfg)
{
    if (h->tx_v[0] || h->tx_v[1] || h->out_v || h->bk_cnt[0] || h->bk_cnt[1] || h->cur != h->ob) return 0;
    pe_hw_in_t in;
    memset(&in, 0, sizeof in);
    in.cfg = *cfg;
    pe_hw_dec_t d;
    pe_hw_decide(h, &in, &d);
    return !d.turn_ok && !d.complete;
}
