/* C cycle model of rtl/sx_pe.v. sx_hw_decide() computes every combinational decision of a cycle from the
 * registers and the inputs (the RTL's `always @*` blocks); sx_hw_comb() drives the ports from it and
 * sx_hw_clock() applies it (the RTL's `always @(posedge clk_i)` blocks). Names follow the RTL. */
#include "stream/sx_hw.h"

#include <stdlib.h>
#include <string.h>

#include "link/flit.h"

#define SLOT_LAST (1ull << 32)

static uint64_t lowmask(uint32_t bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }
static uint32_t lowbit(uint64_t m) { return (uint32_t)__builtin_ctzll(m); }
static uint32_t inc16(uint32_t v) { return (v + 1) & 0xffff; }

typedef sx_hw_dec_t sx_dec_t;

static int params_ok(sx_hw_params_t p)
{
    return p.max_gpus >= 1 && p.max_gpus <= SX_HW_MAX_GPUS && p.k >= 1 && p.k <= SX_HW_MAX_K && p.depth >= 2 &&
           p.depth <= SX_HW_MAX_DEPTH;
}

void sx_hw_reset(sx_hw_t *h)
{
    uint64_t *buf = h->buf;
    sx_hw_params_t prm = h->prm;
    memset(h, 0, sizeof *h);
    h->buf = buf;
    h->prm = prm;
    for (uint32_t d = 0; d < SX_HW_MAX_GPUS; d++) h->credit[d] = prm.depth;
}

int sx_hw_init(sx_hw_t *h, sx_hw_params_t prm)
{
    memset(h, 0, sizeof *h);
    h->prm = prm;
    if (!params_ok(prm)) return -1;
    h->buf = calloc((size_t)prm.max_gpus * prm.depth, sizeof *h->buf);
    if (!h->buf) return -1;
    sx_hw_reset(h);
    return 0;
}

void sx_hw_free(sx_hw_t *h)
{
    free(h->buf);
    h->buf = NULL;
}

static uint64_t slot_at(const sx_hw_t *h, uint32_t s, uint32_t i)
{
    uint32_t a = h->rp[s] + i;
    if (a >= h->prm.depth) a -= h->prm.depth;
    return h->buf[(size_t)s * h->prm.depth + a];
}

static void sx_hw_decide(const sx_hw_t *h, const sx_hw_in_t *in, sx_dec_t *d)
{
    const sx_hw_params_t *p = &h->prm;
    const sx_hw_cfg_t *c = &in->cfg;
    memset(d, 0, sizeof *d);
    uint32_t n = c->n_gpus < p->max_gpus ? c->n_gpus : p->max_gpus;
    uint32_t g = c->gpu_id & 63;
    int line = c->topo == SX_TOPO_LINE;
    d->n = n;
    d->g = g;
    d->all = lowmask(n);
    d->gbit = g < p->max_gpus ? (1ull << g) & d->all : 0;
    uint64_t below = lowmask(g) & d->all;
    uint64_t above = d->all & ~below & ~d->gbit;
    d->side[0] = line ? below : d->all & ~d->gbit;
    d->side[1] = line ? above : 0;
    d->need[0] = d->side[0] != 0;
    d->need[1] = d->side[1] != 0;

    /* ---------------------------------------------------------------- RX (always ready) */
    for (int q = 0; q < SX_HW_PORTS; q++) {
        if (!in->rx_valid[q]) continue;
        uint64_t f = in->rx_flit[q];
        uint32_t t = flit_type(f), s = flit_src(f), dst = flit_dst(f);
        int src_ok = s < 64 && ((d->side[q] >> s) & 1);   /* a source behind this port */
        if (t == FLIT_TYPE_PRIM || t == FLIT_TYPE_LAST) {
            int dst_ok = t == FLIT_TYPE_PRIM ? dst == g : dst == FLIT_DST_BCAST;
            if (!src_ok || !dst_ok || flit_tag(f) != h->rx_b[s] || h->cnt[s] >= p->depth) {
                d->err_set = 1;
                continue;
            }
            d->rx_push[q] = 1;
            d->rx_src[q] = s;
            d->rx_slot[q] = flit_payload(f) | (t == FLIT_TYPE_LAST ? SLOT_LAST : 0);
        } else if (t == FLIT_TYPE_CREDIT) {
            uint32_t a = flit_payload(f);
            if (!src_ok || dst != g || a == 0 || a > p->depth - h->credit[s]) {
                d->err_set = 1;
                continue;
            }
            d->rx_credit[q] = 1;
            d->rx_src[q] = s;
            d->rx_cr_n[q] = a;
        } else {
            d->err_set = 1;
        }
    }

    /* ---------------------------------------------------------------- TX ports: credit or data */
    int tx_free[SX_HW_PORTS], cr_want[SX_HW_PORTS], cr_first[SX_HW_PORTS], data_ok[SX_HW_PORTS];
    uint64_t pendm = 0, cok = 0;
    for (uint32_t s = 0; s < p->max_gpus; s++) {
        if (h->pend[s]) pendm |= 1ull << s;
        if (h->credit[s]) cok |= 1ull << s;
    }
    for (int q = 0; q < SX_HW_PORTS; q++) {
        tx_free[q] = !h->tx_v[q] || in->tx_ready[q];
        uint64_t cm = pendm & d->side[q];
        cr_want[q] = cm != 0;
        d->cr_dst[q] = cm ? lowbit(cm) : 0;
        cr_first[q] = cr_want[q] && !h->cr_last[q];
        data_ok[q] = tx_free[q] && !cr_first[q];
    }

    /* ---------------------------------------------------------------- walker over the P2G lanes */
    uint32_t self_free = p->depth - h->cnt[g < p->max_gpus ? g : 0];
    if (g >= p->max_gpus) self_free = 0;
    d->rem_v_next = h->rem_v;
    d->rem_next = h->rem;
    d->last_sent_next[0] = h->last_sent[0];
    d->last_sent_next[1] = h->last_sent[1];
    int data_used[SX_HW_PORTS] = {0, 0};
    {
        const sx_hw_beat_t *e = &in->in[0];
        int ok0, keep0 = 0;
        if (!e->end) {
            uint64_t m = h->rem_v ? h->rem : e->mask & d->all;
            uint64_t mn = m;
            for (int q = 0; q < SX_HW_PORTS; q++) {
                uint64_t sm = m & d->side[q] & cok;
                if (sm && data_ok[q]) {
                    uint32_t t = lowbit(sm);
                    data_used[q] = in->in[0].valid;
                    d->tx_new[q] = flit_make(FLIT_TYPE_PRIM, g, t, h->in_b, e->id);
                    if (in->in[0].valid) d->prim_dec |= 1ull << t;
                    mn &= ~(1ull << t);
                }
            }
            int keep = (m & d->gbit) && self_free > 0;
            if (keep) {
                keep0 = 1;
                mn &= ~d->gbit;
                d->self_slot[0] = e->id;
            }
            ok0 = mn == 0;
            if (in->in[0].valid) {
                if (keep) d->self_push = 1;
                d->rem_v_next = !ok0;
                d->rem_next = mn;
            }
        } else {
            int done = 1;
            for (int q = 0; q < SX_HW_PORTS; q++) {
                int s = d->need[q] && !h->last_sent[q] && data_ok[q] && (d->side[q] & ~cok) == 0;
                if (s) {
                    data_used[q] = in->in[0].valid;
                    d->tx_new[q] = flit_make(FLIT_TYPE_LAST, g, FLIT_DST_BCAST, h->in_b, e->id);
                    if (in->in[0].valid) d->last_dec |= d->side[q];
                }
                int sent = h->last_sent[q] || s;
                if (d->need[q] && !sent) done = 0;
                if (in->in[0].valid) d->last_sent_next[q] = sent;
            }
            ok0 = done && self_free > 0;
            if (in->in[0].valid && ok0) {
                d->self_push = 1;
                d->self_slot[0] = e->id | SLOT_LAST;
                d->end_fire = 1;
                d->last_sent_next[0] = d->last_sent_next[1] = 0;
            }
        }
        d->in_ready[0] = ok0;
        d->in_fire[0] = in->in[0].valid && ok0;
        if (d->in_fire[0] && (e->tag & 0xffff) != h->in_b) d->err_set = 1;
        /* lanes 1..K-1: kept-only or empty entries behind an accepted non-END lane */
        uint32_t used = (uint32_t)keep0;   /* self slots taken by earlier lanes (as if valid) */
        int prev_ok = ok0 && !e->end, prev_fire = d->in_fire[0];
        for (uint32_t j = 1; j < p->k; j++) {
            const sx_hw_beat_t *x = &in->in[j];
            uint64_t m = x->mask & d->all;
            int kept_only = !x->end && (m & ~d->gbit) == 0;
            int wants = (m & d->gbit) != 0;
            int ok = prev_ok && kept_only && (!wants || used + 1 <= self_free);
            d->in_ready[j] = ok;
            d->in_fire[j] = ok && x->valid && prev_fire;
            if (ok && wants) used++;   /* counted as if valid: in_ready must not depend on in_valid */
            if (d->in_fire[j]) {
                if (wants) d->self_slot[d->self_push++] = x->id;
                if ((x->tag & 0xffff) != h->in_b) d->err_set = 1;
            }
            prev_ok = ok;
            prev_fire = d->in_fire[j];
        }
    }

    /* ---------------------------------------------------------------- TX loads */
    for (int q = 0; q < SX_HW_PORTS; q++) {
        if (data_used[q]) {
            d->tx_load[q] = 1;
        } else if (tx_free[q] && cr_want[q]) {
            d->tx_load[q] = 1;
            d->tx_is_cr[q] = 1;
            d->cr_send[q] = 1;
            d->tx_new[q] = flit_make(FLIT_TYPE_CREDIT, g, d->cr_dst[q], 0, h->pend[d->cr_dst[q]]);
        }
    }

    /* ---------------------------------------------------------------- release of FIFO[rs] */
    uint32_t s = h->rs;
    if (s < p->max_gpus && s < n) {
        uint32_t cn = h->cnt[s], lim = cn < p->k ? cn : p->k, j = 0;
        while (j < lim && !(slot_at(h, s, j) & SLOT_LAST)) j++;
        int last_at_j = j < lim && (slot_at(h, s, j) & SLOT_LAST);
        int final = s + 1 >= n;
        d->nprim = j;
        if (j > 0) {
            d->out_valid = 1;
            if (in->out_ready) {
                d->rel_pop = j;
                if (last_at_j && !final) {
                    d->rel_pop++;
                    d->rel_pop_last = 1;
                }
            }
        } else if (last_at_j) {
            if (!final) {
                d->rel_pop = 1;
                d->rel_pop_last = 1;
            } else {
                d->out_valid = 1;
                d->out_eob = 1;
                if (in->out_ready) {
                    d->rel_pop = 1;
                    d->rel_pop_last = 1;
                }
            }
        }
    }
}

void sx_hw_comb(const sx_hw_t *h, const sx_hw_in_t *in, sx_hw_out_t *out)
{
    sx_dec_t d;
    sx_hw_eval(h, in, out, &d);
}

void sx_hw_eval(const sx_hw_t *h, const sx_hw_in_t *in, sx_hw_out_t *out, sx_hw_dec_t *dec)
{
    sx_hw_decide(h, in, dec);
    const sx_dec_t *d = dec;
    memset(out, 0, sizeof *out);
    for (uint32_t j = 0; j < h->prm.k; j++) out->in_ready[j] = d->in_ready[j];
    for (int q = 0; q < SX_HW_PORTS; q++) {
        out->tx_valid[q] = h->tx_v[q];
        out->tx_flit[q] = h->tx_flit[q];
        out->rx_ready[q] = 1;
    }
    for (uint32_t j = 0; j < h->prm.k; j++) {
        out->out_valid[j] = d->out_eob ? j == 0 : j < d->nprim;
        out->out_id[j] = out->out_valid[j] && !d->out_eob ? (uint32_t)slot_at(h, h->rs, j) : 0;
    }
    out->out_tag = h->rb;
    out->out_eob = d->out_eob;
    out->rel_last = d->rel_pop_last;
    out->rel_src = h->rs;
    out->occ = h->occ;
    int pend = 0;
    for (uint32_t s = 0; s < h->prm.max_gpus; s++) pend |= h->pend[s] != 0;
    out->busy = h->occ != 0 || h->tx_v[0] || h->tx_v[1] || h->rem_v || h->last_sent[0] || h->last_sent[1] || pend ||
                h->in_b != h->rb || h->rs != 0;
    out->err = h->err;
}

void sx_hw_clock(sx_hw_t *h, const sx_hw_in_t *in)
{
    sx_dec_t d;
    sx_hw_decide(h, in, &d);
    sx_hw_apply(h, in, &d);
}

void sx_hw_apply(sx_hw_t *h, const sx_hw_in_t *in, const sx_hw_dec_t *dec)
{
    const sx_dec_t *d = dec;
    const sx_hw_params_t *p = &h->prm;
    uint32_t D = p->depth;
    uint32_t pushes = 0, pops = 0;

    /* release: pops of FIFO[rs], credits owed to its source */
    uint32_t s = h->rs;
    if (d->rel_pop) {
        h->rp[s] += d->rel_pop;   /* < 2 D: rel_pop <= cnt <= D */
        if (h->rp[s] >= D) h->rp[s] -= D;
        h->cnt[s] -= d->rel_pop;
        pops = d->rel_pop;
    }
    if (d->rel_pop_last) {
        if (s + 1 >= d->n) {
            h->rs = 0;
            h->rb = inc16(h->rb);
        } else {
            h->rs = s + 1;
        }
    }
    /* credits owed: cleared when sent, plus this cycle's pops (not of the self FIFO) */
    for (int q = 0; q < SX_HW_PORTS; q++)
        if (d->cr_send[q]) h->pend[d->cr_dst[q]] = 0;
    if (d->rel_pop && s != d->g) h->pend[s] += d->rel_pop;

    /* rx pushes and credits */
    for (int q = 0; q < SX_HW_PORTS; q++) {
        if (d->rx_push[q]) {
            uint32_t r = d->rx_src[q];
            h->buf[(size_t)r * D + h->wp[r]] = d->rx_slot[q];
            if (++h->wp[r] == D) h->wp[r] = 0;
            h->cnt[r]++;
            pushes++;
            if (d->rx_slot[q] & SLOT_LAST) h->rx_b[r] = inc16(h->rx_b[r]);
        }
    }
    /* self pushes */
    if (d->self_push) {
        uint32_t g = d->g;
        for (uint32_t i = 0; i < d->self_push; i++) {
            h->buf[(size_t)g * D + h->wp[g]] = d->self_slot[i];
            if (++h->wp[g] == D) h->wp[g] = 0;
        }
        h->cnt[g] += d->self_push;
        pushes += d->self_push;
    }
    h->occ = h->occ + pushes - pops;

    /* credit counters */
    for (uint32_t t = 0; t < p->max_gpus; t++) {
        uint32_t c = h->credit[t];
        if (((d->prim_dec | d->last_dec) >> t) & 1) c--;
        for (int q = 0; q < SX_HW_PORTS; q++)
            if (d->rx_credit[q] && d->rx_src[q] == t) c += d->rx_cr_n[q];
        h->credit[t] = c;
    }

    /* TX registers */
    for (int q = 0; q < SX_HW_PORTS; q++) {
        if (d->tx_load[q]) {
            h->tx_v[q] = 1;
            h->tx_flit[q] = d->tx_new[q];
            h->cr_last[q] = d->tx_is_cr[q];
        } else if (in->tx_ready[q]) {
            h->tx_v[q] = 0;
        }
    }

    /* walker */
    h->rem_v = d->rem_v_next;
    h->rem = d->rem_next;
    h->last_sent[0] = d->last_sent_next[0];
    h->last_sent[1] = d->last_sent_next[1];
    if (d->end_fire) h->in_b = inc16(h->in_b);
    if (d->err_set) h->err = 1;
}

int sx_hw_quiet(const sx_hw_t *h, const sx_hw_cfg_t *cfg)
{
    if (h->tx_v[0] || h->tx_v[1]) return 0;
    for (uint32_t s = 0; s < h->prm.max_gpus; s++)
        if (h->pend[s]) return 0;
    sx_hw_in_t in;
    memset(&in, 0, sizeof in);
    in.cfg = *cfg;
    in.out_ready = 1;
    sx_dec_t d;
    sx_hw_decide(h, &in, &d);
    return !d.out_valid && !d.rel_pop;
}

uint32_t sx_hw_held_ids(const sx_hw_t *h)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < h->prm.max_gpus; s++)
        for (uint32_t i = 0; i < h->cnt[s]; i++) n += !(slot_at(h, s, i) & SLOT_LAST);
    return n;
}
