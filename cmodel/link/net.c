#include "link/net.h"

#include <stdlib.h>
#include <string.h>

#include "link/flit.h"

static int fifo_push(net_fifo_t *f, uint64_t v)
{
    if (f->count == f->cap) {
        size_t nc = f->cap ? f->cap * 2 : 64;
        uint64_t *nb = malloc(nc * sizeof *nb);
        if (!nb) return -1;
        for (size_t i = 0; i < f->count; i++) nb[i] = f->buf[(f->head + i) % f->cap];
        free(f->buf);
        f->buf = nb;
        f->cap = nc;
        f->head = 0;
    }
    f->buf[(f->head + f->count) % f->cap] = v;
    f->count++;
    return 0;
}

static uint64_t fifo_front(const net_fifo_t *f) { return f->buf[f->head]; }

static void fifo_pop(net_fifo_t *f)
{
    f->head = (f->head + 1) % f->cap;
    f->count--;
}

const char *net_topo_name(net_topo_t t) { return t == NET_HUB ? "hub" : "line"; }

int net_topo_parse(const char *s, net_topo_t *t)
{
    if (!strcmp(s, "line")) { *t = NET_LINE; return 0; }
    if (!strcmp(s, "hub")) { *t = NET_HUB; return 0; }
    return -1;
}

static int add_link(net_t *n, uint32_t from, uint32_t to)
{
    net_link_t *l = &n->links[n->n_links];
    memset(l, 0, sizeof *l);
    l->from = from;
    l->to = to;
    n->out_link[from * n->n_nodes + to] = (int32_t)n->n_links;
    n->n_links++;
    return 0;
}

int net_init(net_t *n, net_topo_t topo, uint32_t n_gpus, uint32_t latency, net_deliver_fn deliver, void *user)
{
    memset(n, 0, sizeof *n);
    if (n_gpus == 0 || n_gpus > 64 || latency == 0) return -1;
    n->topo = topo;
    n->n_gpus = n_gpus;
    n->n_nodes = topo == NET_HUB ? n_gpus + 1 : n_gpus;
    n->latency = latency;
    n->hub_rate = 2;
    n->link_bw = NET_FLIT_MB;       /* untimed defaults: one flit per step per link */
    n->hub_bw = 0;                  /* hub_rate flits per step */
    n->flit_max_mb = NET_FLIT_MB;   /* no bulk flits */
    n->deliver = deliver;
    n->user = user;
    n->links = calloc(2 * (size_t)n->n_nodes, sizeof *n->links);
    n->out_link = malloc((size_t)n->n_nodes * n->n_nodes * sizeof *n->out_link);
    if (!n->links || !n->out_link) { net_free(n); return -1; }
    for (size_t i = 0; i < (size_t)n->n_nodes * n->n_nodes; i++) n->out_link[i] = -1;
    if (topo == NET_LINE) {
        for (uint32_t i = 0; i + 1 < n_gpus; i++) {
            add_link(n, i, i + 1);
            add_link(n, i + 1, i);
        }
    } else {
        for (uint32_t i = 0; i < n_gpus; i++) {
            add_link(n, i, n_gpus);
            add_link(n, n_gpus, i);
        }
    }
    return 0;
}

void net_free(net_t *n)
{
    if (n->links)
        for (uint32_t i = 0; i < n->n_links; i++) {
            free(n->links[i].outq.buf);
            free(n->links[i].wire.buf);
            free(n->links[i].wire_t.buf);
        }
    free(n->links);
    free(n->out_link);
    memset(n, 0, sizeof *n);
}

static void enqueue(net_t *n, int32_t link, uint64_t flit)
{
    net_link_t *l = &n->links[link];
    if (fifo_push(&l->outq, flit) == 0) {
        n->in_flight++;
        if (l->outq.count > l->outq_high) l->outq_high = l->outq.count;
    }
}

/* next hop node from `node` towards GPU `dst` */
static uint32_t next_hop(const net_t *n, uint32_t node, uint32_t dst)
{
    if (n->topo == NET_HUB) return node == n->n_gpus ? dst : n->n_gpus;
    return dst > node ? node + 1 : node - 1;
}

int net_port_exists(const net_t *n, uint32_t gpu, uint32_t port)
{
    if (gpu >= n->n_gpus) return 0;
    if (n->topo == NET_HUB) return port == 0;
    return (port == 0 && gpu > 0) || (port == 1 && gpu + 1 < n->n_gpus);
}

int net_inject_port(net_t *n, uint32_t src, uint32_t port, uint64_t flit)
{
    uint32_t dst = flit_dst(flit);
    if (!net_port_exists(n, src, port)) return -1;
    uint32_t nb = n->topo == NET_HUB ? n->n_gpus : (port == 0 ? src - 1 : src + 1);
    if (dst != FLIT_DST_BCAST) {
        if (dst >= n->n_gpus || dst == src) return -1;
        if (next_hop(n, src, dst) != nb) return -1;
    }
    enqueue(n, n->out_link[src * n->n_nodes + nb], flit);
    return 0;
}

int net_inject(net_t *n, uint32_t src, uint64_t flit)
{
    uint32_t dst = flit_dst(flit);
    if (src >= n->n_gpus) return -1;
    if (dst == FLIT_DST_BCAST) {
        if (n->n_gpus == 1) return 0;
        if (n->topo == NET_HUB) {
            enqueue(n, n->out_link[src * n->n_nodes + n->n_gpus], flit);
        } else {
            if (src > 0) enqueue(n, n->out_link[src * n->n_nodes + src - 1], flit);
            if (src + 1 < n->n_gpus) enqueue(n, n->out_link[src * n->n_nodes + src + 1], flit);
        }
        return 0;
    }
    if (dst >= n->n_gpus || dst == src) return -1;
    enqueue(n, n->out_link[src * n->n_nodes + next_hop(n, src, dst)], flit);
    return 0;
}

/* a flit arrives at `node` over `link` */
static void arrive(net_t *n, uint32_t node, const net_link_t *link, uint64_t flit)
{
    uint32_t dst = flit_dst(flit);
    if (node == n->n_gpus && n->topo == NET_HUB) {     /* the switch */
        if (dst == FLIT_DST_BCAST) {
            for (uint32_t k = 0; k < n->n_gpus; k++)
                if (k != link->from) enqueue(n, n->out_link[node * n->n_nodes + k], flit);
        } else {
            enqueue(n, n->out_link[node * n->n_nodes + dst], flit);
        }
        return;
    }
    uint32_t port = n->topo == NET_LINE && link->from > node ? 1 : 0;
    if (dst == FLIT_DST_BCAST) {
        if (n->deliver_port) n->deliver_port(n->user, node, port, flit);
        else n->deliver(n->user, node, flit);
        if (n->topo == NET_LINE) {     /* keep travelling away from where it came */
            if (link->from < node && node + 1 < n->n_gpus) enqueue(n, n->out_link[node * n->n_nodes + node + 1], flit);
            if (link->from > node && node > 0) enqueue(n, n->out_link[node * n->n_nodes + node - 1], flit);
        }
        return;
    }
    if (dst == node) {
        if (n->deliver_port) n->deliver_port(n->user, node, port, flit);
        else n->deliver(n->user, node, flit);
        return;
    }
    enqueue(n, n->out_link[node * n->n_nodes + next_hop(n, node, dst)], flit);
}

static uint64_t hub_bw_eff(const net_t *n) { return n->hub_bw ? n->hub_bw : (uint64_t)n->hub_rate * NET_FLIT_MB; }
/* what a flit costs in milli-bytes: 8 bytes, a bulk flit the bytes its payload names */
static uint64_t flit_cost(uint64_t f)
{
    return flit_type(f) == NET_FLIT_TYPE_BULK ? (uint64_t)flit_payload(f) * 1000u : NET_FLIT_MB;
}
/* A credit never exceeds one step's bandwidth or one flit, whichever is more. With bulk flits the cap is one
 * bulk flit plus one step's bandwidth: the credit left over after a packet carries into the next step (a
 * packet every 6.4 cycles at 256 B on 40 B/cycle), and an idle link still sends at most one packet at once. */
static uint64_t credit_add(const net_t *n, uint64_t c, uint64_t bw, uint64_t steps)
{
    uint64_t cap = n->flit_max_mb > NET_FLIT_MB ? bw + n->flit_max_mb : (bw > NET_FLIT_MB ? bw : NET_FLIT_MB);
    if (steps && bw > (cap - c + steps - 1) / steps) return cap;   /* saturates (no overflow) */
    c += bw * steps;
    return c > cap ? cap : c;
}

int net_set_bulk(net_t *n, uint32_t max_bytes)
{
    if (max_bytes < 8 || max_bytes > NET_BULK_MAX_BYTES || n->in_flight) return -1;
    n->flit_max_mb = (uint64_t)max_bytes * 1000u;
    return 0;
}

int net_inject_bulk(net_t *n, uint32_t src, uint32_t dst, uint32_t bytes)
{
    if (bytes == 0 || (uint64_t)bytes * 1000u > n->flit_max_mb || dst >= n->n_gpus || dst == src) return -1;
    return net_inject(n, src, flit_make(NET_FLIT_TYPE_BULK, src, dst, 0, bytes));
}

int net_set_timing(net_t *n, uint32_t latency, uint64_t link_mbpc, uint64_t hub_mbpc)
{
    if (latency == 0 || link_mbpc == 0 || hub_mbpc == 0 || n->in_flight) return -1;
    n->latency = latency;
    n->link_bw = link_mbpc;
    n->hub_bw = hub_mbpc;
    return 0;
}

uint64_t net_next_event(const net_t *n)
{
    if (!n->in_flight) return UINT64_MAX;
    uint64_t best = UINT64_MAX;
    for (uint32_t i = 0; i < n->n_links; i++) {
        const net_link_t *l = &n->links[i];
        if (l->outq.count) return n->step + 1;
        if (l->wire.count) {
            uint64_t t = fifo_front(&l->wire_t);
            if (t < best) best = t;
        }
    }
    return best <= n->step ? n->step + 1 : best;
}

void net_skip_to(net_t *n, uint64_t target)
{
    if (target <= n->step + 1) return;
    uint64_t k = target - 1 - n->step;
    for (uint32_t i = 0; i < n->n_links; i++) n->links[i].credit = credit_add(n, n->links[i].credit, n->link_bw, k);
    n->hub_credit = credit_add(n, n->hub_credit, hub_bw_eff(n), k);
    n->step = target - 1;
}

void net_step(net_t *n)
{
    n->step++;
    /* 1. arrivals: node order, then input port order (by source node) */
    for (uint32_t node = 0; node < n->n_nodes; node++) {
        if (n->topo == NET_HUB && node == n->n_gpus) {
            /* the switch: as many flits as its bandwidth credit allows (untimed: hub_rate), oldest arrival
             * first, ties by input port */
            n->hub_credit = credit_add(n, n->hub_credit, hub_bw_eff(n), 1);
            int moved = 0;
            while (n->hub_credit >= NET_FLIT_MB) {
                net_link_t *best = NULL;
                uint64_t bt = 0;
                for (uint32_t from = 0; from < n->n_gpus; from++) {
                    int32_t li = n->out_link[from * n->n_nodes + node];
                    net_link_t *l = &n->links[li];
                    if (!l->wire.count) continue;
                    uint64_t t = fifo_front(&l->wire_t);
                    if (t <= n->step && (!best || t < bt)) { best = l; bt = t; }
                }
                if (!best) break;
                uint64_t f = fifo_front(&best->wire);
                uint64_t cost = flit_cost(f);
                if (n->hub_credit < cost) break;       /* a bulk flit waits for its bytes' credit */
                fifo_pop(&best->wire);
                fifo_pop(&best->wire_t);
                n->in_flight--;
                n->hub_credit -= cost;
                n->hub_flits++;
                moved = 1;
                arrive(n, node, best, f);
            }
            if (moved) n->hub_busy_steps++;
            continue;
        }
        /* the input links of a node in source order: line: node - 1, node + 1; hub: the switch (node n_gpus) */
        uint32_t from_v[2], nf = 0;
        if (n->topo == NET_HUB) {
            from_v[nf++] = n->n_gpus;
        } else {
            if (node > 0) from_v[nf++] = node - 1;
            if (node + 1 < n->n_nodes) from_v[nf++] = node + 1;
        }
        for (uint32_t k = 0; k < nf; k++) {
            int32_t li = n->out_link[from_v[k] * n->n_nodes + node];
            if (li < 0) continue;
            net_link_t *l = &n->links[li];
            while (l->wire.count && fifo_front(&l->wire_t) <= n->step) {
                uint64_t f = fifo_front(&l->wire);
                fifo_pop(&l->wire);
                fifo_pop(&l->wire_t);
                n->in_flight--;
                arrive(n, node, l, f);
            }
        }
    }
    /* 2. each link puts as many flits on the wire as its credit allows (untimed: one) */
    for (uint32_t i = 0; i < n->n_links; i++) {
        net_link_t *l = &n->links[i];
        l->credit = credit_add(n, l->credit, n->link_bw, 1);
        if (!l->outq.count || l->credit < flit_cost(fifo_front(&l->outq))) continue;
        if (n->link_stall && n->link_stall(n->hook_user, i, n->step)) continue;   /* injected stall (cosim) */
        l->busy_steps++;
        while (l->outq.count && l->credit >= flit_cost(fifo_front(&l->outq))) {
            uint64_t f = fifo_front(&l->outq);
            fifo_pop(&l->outq);
            fifo_push(&l->wire, f);
            fifo_push(&l->wire_t, n->step + n->latency + (n->link_jitter ? n->link_jitter(n->hook_user, i, n->step) : 0));
            l->credit -= flit_cost(f);
            if (flit_type(f) == FLIT_TYPE_PRIM) l->flits_prim++;
            else if (flit_type(f) == NET_FLIT_TYPE_BULK) l->bulk_bytes += flit_payload(f);
            else l->flits_last++;
        }
    }
}

void net_account_unicast(net_t *n, uint32_t src, uint32_t dst, uint64_t bytes)
{
    uint32_t node = src;
    while (node != dst) {
        uint32_t nh = next_hop(n, node, dst);
        n->links[n->out_link[node * n->n_nodes + nh]].sync_bytes += bytes;
        node = nh;
    }
}

void net_account_comp(net_t *n, uint32_t src, uint32_t dst, uint64_t bytes)
{
    uint32_t node = src;
    while (node != dst) {
        uint32_t nh = next_hop(n, node, dst);
        n->links[n->out_link[node * n->n_nodes + nh]].comp_bytes += bytes;
        node = nh;
    }
}

void net_account_broadcast(net_t *n, uint32_t src, uint64_t bytes)
{
    if (n->topo == NET_HUB) {
        n->links[n->out_link[src * n->n_nodes + n->n_gpus]].sync_bytes += bytes;
        for (uint32_t k = 0; k < n->n_gpus; k++)
            if (k != src) n->links[n->out_link[n->n_gpus * n->n_nodes + k]].sync_bytes += bytes;
        return;
    }
    for (uint32_t i = src; i + 1 < n->n_gpus; i++) n->links[n->out_link[i * n->n_nodes + i + 1]].sync_bytes += bytes;
    for (uint32_t i = src; i > 0; i--) n->links[n->out_link[i * n->n_nodes + i - 1]].sync_bytes += bytes;
}
