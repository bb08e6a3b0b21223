/* Behavioural reference PE (see pe_ref.h). */
#include "pe/pe_ref.h"

#include <stdlib.h>
#include <string.h>

#include "link/flit.h"

static uint64_t all_mask(uint32_t n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

static int port_of(const peref_t *p, uint32_t t) { return p->topo == NET_HUB ? 0 : (t < p->gpu ? 0 : 1); }

static int port_exists(const peref_t *p, int port)
{
    if (p->topo == NET_HUB) return port == 0 && p->n_gpus > 1;
    return port == 0 ? p->gpu > 0 : p->gpu + 1 < p->n_gpus;
}

int peref_init(peref_t *p, uint32_t n_gpus, uint32_t gpu, net_topo_t topo)
{
    memset(p, 0, sizeof *p);
    p->n_gpus = n_gpus;
    p->gpu = gpu;
    p->topo = topo;
    return 0;
}

void peref_free(peref_t *p)
{
    for (int i = 0; i < PEREF_WIN; i++) free(p->list[i].v);
    memset(p, 0, sizeof *p);
}

static int push(peref_list_t *l, uint32_t v)
{
    if (l->n == l->cap) {
        uint32_t nc = l->cap ? 2 * l->cap : 64;
        uint32_t *nv = realloc(l->v, nc * sizeof *nv);
        if (!nv) return -1;
        l->v = nv;
        l->cap = nc;
    }
    l->v[l->n++] = v;
    return 0;
}

/* can GPU take (part of) its turn for cur_b this cycle? */
static int turn_ready(const peref_t *p)
{
    uint64_t before = p->gpu >= 64 ? all_mask(64) : (1ull << p->gpu) - 1;
    return !p->turn_done && (p->lasts[0] & before) == before && p->cur_b - p->ob < PEREF_WIN - 1;
}

void peref_comb(const peref_t *p, const pe_hw_in_t *in, pe_hw_out_t *out)
{
    (void)in;
    memset(out, 0, sizeof *out);
    out->in_ready = p->lq_n < PEREF_LQ;
    for (int k = 0; k < 2; k++) {
        out->tx_valid[k] = p->txv[k];
        out->tx_flit[k] = p->txf[k];
        /* RX: take both ports; stall only when the receive window is full */
        out->rx_ready[k] = p->cur_b + 1 - p->ob < PEREF_WIN;
    }
    const peref_list_t *l = &p->list[p->ob % PEREF_WIN];
    if (l->rd < l->n) {
        out->out_valid = 1;
        out->out_tag = p->ob & FLIT_TAG_MASK;
        out->out_prim_id = l->v[l->rd];
    } else if (p->ob < p->cd_done_upto) {
        out->out_valid = 1;
        out->out_eob = 1;
        out->out_tag = p->ob & FLIT_TAG_MASK;
    }
    out->busy = p->lq_n || p->txv[0] || p->txv[1] || p->pend || out->out_valid || p->ob != p->cur_b || p->turn_done;
}

int peref_quiet(const peref_t *p)
{
    uint64_t all = all_mask(p->n_gpus);
    const peref_list_t *l = &p->list[p->ob % PEREF_WIN];
    int out_valid = l->rd < l->n || p->ob < p->cd_done_upto;
    int turn_work = turn_ready(p) && (p->pend || p->lq_n || p->last_pend[0] || p->last_pend[1]);
    int cd_complete = p->turn_done && ((p->lasts[0] | (1ull << p->gpu)) & all) == all && !p->last_pend[0] && !p->last_pend[1];
    return !p->txv[0] && !p->txv[1] && !out_valid && !turn_work && !cd_complete;
}

void peref_clock(peref_t *p, const pe_hw_in_t *in)
{
    pe_hw_out_t o;
    peref_comb(p, in, &o);
    uint32_t N = p->n_gpus, g = p->gpu;
    /* output */
    if (o.out_valid && in->out_ready) {
        if (o.out_eob) {
            peref_list_t *l = &p->list[p->ob % PEREF_WIN];
            l->n = l->rd = 0;
            p->ob++;
        } else {
            p->list[p->ob % PEREF_WIN].rd++;
        }
    }
    /* TX registers drain */
    for (int k = 0; k < 2; k++)
        if (p->txv[k] && in->tx_ready[k]) p->txv[k] = 0;
    /* RX, port 0 first */
    for (int k = 0; k < 2; k++) {
        if (!in->rx_valid[k] || !o.rx_ready[k]) continue;
        uint64_t f = in->rx_flit[k];
        uint32_t d = (flit_tag(f) - p->cur_b) & FLIT_TAG_MASK;
        if (d > 1) { p->err = 1; continue; }
        if (flit_type(f) == FLIT_TYPE_PRIM) {
            if (push(&p->list[(p->cur_b + d) % PEREF_WIN], flit_payload(f))) p->err = 1;
        } else {
            p->lasts[d] |= 1ull << flit_src(f);
        }
    }
    /* turn: one entry's destinations per cycle, at most one flit per port */
    if (turn_ready(p)) {
        if (!p->pend && p->lq_n && !p->last_pend[0] && !p->last_pend[1]) {
            peref_ent_t *e = &p->lq[p->lq_head];
            if (e->end) {
                p->lq_head = (p->lq_head + 1) % PEREF_LQ;
                p->lq_n--;
                p->last_count = e->prim;
                for (int k = 0; k < 2; k++) p->last_pend[k] = port_exists(p, k);
                if (!p->last_pend[0] && !p->last_pend[1]) p->turn_done = 1;
            } else {
                p->pend = e->mask & all_mask(N);
                p->pend_prim = e->prim;
                p->lq_head = (p->lq_head + 1) % PEREF_LQ;
                p->lq_n--;
                if (p->pend & (1ull << g)) {
                    if (push(&p->list[p->cur_b % PEREF_WIN], e->prim)) p->err = 1;
                    p->pend &= ~(1ull << g);
                }
            }
        }
        if (p->pend) {
            int used[2] = {p->txv[0], p->txv[1]};
            for (uint32_t t = 0; t < N && p->pend; t++) {
                if (!(p->pend >> t & 1)) continue;
                int k = port_of(p, t);
                if (used[k]) continue;
                used[k] = 1;
                p->txv[k] = 1;
                p->txf[k] = flit_make(FLIT_TYPE_PRIM, g, t, p->cur_b, p->pend_prim);
                p->pend &= ~(1ull << t);
            }
        } else if (p->last_pend[0] || p->last_pend[1]) {
            for (int k = 0; k < 2; k++)
                if (p->last_pend[k] && !p->txv[k]) {
                    p->txv[k] = 1;
                    p->txf[k] = flit_make(FLIT_TYPE_LAST, g, FLIT_DST_BCAST, p->cur_b, p->last_count);
                    p->last_pend[k] = 0;
                }
            if (!p->last_pend[0] && !p->last_pend[1]) p->turn_done = 1;
        }
    }
    /* CD complete */
    if (p->turn_done && !p->last_pend[0] && !p->last_pend[1] &&
        ((p->lasts[0] | (1ull << g)) & all_mask(N)) == all_mask(N)) {
        p->cd_done_upto = p->cur_b + 1;
        p->cur_b++;
        p->lasts[0] = p->lasts[1];
        p->lasts[1] = 0;
        p->turn_done = 0;
    }
    /* local queue */
    if (in->in_valid && o.in_ready) {
        peref_ent_t *e = &p->lq[(p->lq_head + p->lq_n) % PEREF_LQ];
        e->end = in->in_end;
        e->tag = in->in_tag;
        e->prim = in->in_prim_id;
        e->mask = in->in_mask;
        p->lq_n++;
    }
}
