#include "sys/chopin.h"

#include "gpu/frag.h"
#include "link/flit.h"
#include "link/net.h"

#include <stdlib.h>
#include <string.h>

const char *chopin_class_name(chopin_class_t c)
{
    switch (c) {
    case CHOPIN_OPAQUE: return "opaque";
    case CHOPIN_DUP_BLEND_DEPTH: return "blend+depth-write";
    case CHOPIN_DUP_BLEND: return "blend";
    case CHOPIN_DUP_STATE: return "state";
    }
    return "?";
}

static int any_blend(const gpu_draw_t *d)
{
    if (!gpu_fs_writes_color(d)) return 0;
    for (int r = 0; r < GPU_MAX_RTS; r++)
        if (d->st.rt[r] >= 0 && (d->st.color_mask[r] & 0xF) && d->st.blend[r].enable) return 1;
    return 0;
}

chopin_class_t chopin_draw_class(const gpu_draw_t *d)
{
    const gpu_state_t *s = &d->st;
    int zw = s->depth_test && s->depth_write && s->depth_rt >= 0;
    if (any_blend(d)) return zw ? CHOPIN_DUP_BLEND_DEPTH : CHOPIN_DUP_BLEND;
    if (!zw) return CHOPIN_DUP_STATE;
    if (s->depth_func != GPU_CMP_LESS && s->depth_func != GPU_CMP_LEQUAL && s->depth_func != GPU_CMP_GREATER &&
        s->depth_func != GPU_CMP_GEQUAL)
        return CHOPIN_DUP_STATE;
    if (gpu_fs_writes_color(d))
        for (int r = 0; r < GPU_MAX_RTS; r++) {
            uint8_t m = s->color_mask[r] & 0xF;
            if (s->rt[r] >= 0 && m != 0 && m != 0xF) return CHOPIN_DUP_STATE;
        }
    return CHOPIN_OPAQUE;
}

int chopin_same_state(const gpu_draw_t *a, const gpu_draw_t *b)
{
    const gpu_state_t *x = &a->st, *y = &b->st;
    if (x->depth_rt != y->depth_rt || x->depth_test != y->depth_test || x->depth_write != y->depth_write ||
        x->depth_func != y->depth_func)
        return 0;
    int wa = gpu_fs_writes_color(a) != 0, wb = gpu_fs_writes_color(b) != 0;
    if (wa != wb) return 0;
    for (int r = 0; r < GPU_MAX_RTS; r++) {
        if (x->rt[r] != y->rt[r]) return 0;
        if (x->rt[r] < 0 || !wa) continue;
        if ((x->color_mask[r] & 0xF) != (y->color_mask[r] & 0xF)) return 0;
        if (x->blend[r].enable != y->blend[r].enable) return 0;
        if (x->blend[r].enable && memcmp(&x->blend[r], &y->blend[r], sizeof x->blend[r])) return 0;
    }
    return 1;
}

uint32_t chopin_draw_tris(const gpu_draw_t *d) { return gpu_draw_prim_count(d); }

int chopin_group_composes(chopin_class_t cls, uint64_t tris, uint32_t n_draws, uint32_t n_gpus, uint32_t min_tris)
{
    return cls == CHOPIN_OPAQUE && n_gpus > 1 && tris >= min_tris && n_draws > n_gpus;
}

uint32_t chopin_pick_gpu(uint64_t *load, uint32_t n_gpus, uint32_t *last, int rr, uint64_t tris)
{
    uint32_t pick = (*last + 1) % n_gpus;
    if (!rr)
        for (uint32_t k = 1; k < n_gpus; k++) {
            uint32_t g = (*last + 1 + k) % n_gpus;
            if (load[g] < load[pick]) pick = g;
        }
    load[pick] += tris;
    *last = pick;
    return pick;
}

int chopin_draw_joins(const gpu_draw_t *first, const gpu_draw_t *prev, const gpu_draw_t *next, uint32_t max_draw_tris)
{
    if (!chopin_same_state(first, next)) return 0;
    return !max_draw_tris || (chopin_draw_tris(prev) <= max_draw_tris && chopin_draw_tris(next) <= max_draw_tris);
}

void chopin_sched_init(chopin_sched_t *s, uint32_t n_gpus)
{
    memset(s, 0, sizeof *s);
    s->n_gpus = n_gpus > 64 ? 64 : n_gpus;
}

void chopin_sched_free(chopin_sched_t *s)
{
    for (uint32_t g = 0; g < 64; g++) free(s->pend[g]);
    memset(s, 0, sizeof *s);
}

int chopin_sched_add(chopin_sched_t *s, uint32_t g, uint64_t tris, uint64_t t0, uint64_t t1)
{
    if (g >= s->n_gpus || t0 > t1) return -1;
    if (t1 == UINT64_MAX) {
        s->never[g] += tris;
        return 0;
    }
    if (s->n_pend[g] == s->cap_pend[g]) {
        size_t nc = s->cap_pend[g] ? 2 * s->cap_pend[g] : 16;
        chopin_pend_t *np = realloc(s->pend[g], nc * sizeof *np);
        if (!np) return -1;
        s->pend[g] = np;
        s->cap_pend[g] = nc;
    }
    s->pend[g][s->n_pend[g]++] = (chopin_pend_t){tris, t0, t1};
    return 0;
}

void chopin_sched_load(chopin_sched_t *s, uint64_t now, uint64_t *load)
{
    for (uint32_t g = 0; g < s->n_gpus; g++) {
        uint64_t l = s->never[g];
        size_t k = 0;
        for (size_t i = 0; i < s->n_pend[g]; i++) {
            const chopin_pend_t *p = &s->pend[g][i];
            if (now >= p->t1) continue;                        /* all its triangles left CLIP */
            uint64_t done = now <= p->t0 ? 0 : (uint64_t)((double)p->tris * (double)(now - p->t0) / (double)(p->t1 - p->t0));
            l += p->tris - (done < p->tris ? done : p->tris);
            s->pend[g][k++] = *p;
        }
        s->n_pend[g] = k;
        load[g] = l;
    }
}

uint32_t chopin_depth_identity(uint8_t depth_func)
{
    return depth_func == GPU_CMP_GREATER || depth_func == GPU_CMP_GEQUAL ? 0u : GPU_DEPTH_MAX;
}

int chopin_merge_pick(uint8_t depth_func, uint32_t n, const uint32_t *depth, const uint32_t *stamp, uint32_t exist,
                      int *tie)
{
    int less = depth_func == GPU_CMP_LESS || depth_func == GPU_CMP_LEQUAL;
    int strict = depth_func == GPU_CMP_LESS || depth_func == GPU_CMP_GREATER;
    int best = -1;
    uint32_t bd = exist & GPU_DEPTH_MAX, bs = 0;
    *tie = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!stamp[i]) continue;
        uint32_t d = depth[i] & GPU_DEPTH_MAX;
        int better;
        if (d != bd) better = less ? d < bd : d > bd;
        else {
            *tie = 1;
            better = strict ? stamp[i] < bs : stamp[i] > bs;
        }
        if (better) { best = (int)i; bd = d; bs = stamp[i]; }
    }
    return best;
}

/* ---- composition: CHOPIN's scheduler over the flit-level network ---- */

typedef struct {
    uint32_t n;
    const net_t *net;
    const uint64_t *bytes;
    uint64_t *got;              /* [src * n + dst] bytes arrived */
    uint64_t *first;            /* [src * n + dst] step of the first arrival */
    size_t *done_k;             /* src * n + dst of the transfers completed in this step, in delivery order */
    uint32_t n_done;
} comp_rx_t;

static void comp_deliver(void *user, uint32_t gpu, uint64_t flit)
{
    comp_rx_t *r = user;
    size_t k = (size_t)flit_src(flit) * r->n + gpu;
    if (!r->got[k]) r->first[k] = r->net->step;
    r->got[k] += flit_payload(flit);
    if (r->got[k] == r->bytes[k]) r->done_k[r->n_done++] = k;
}

int chopin_comp_schedule(const chopin_comp_in_t *in, chopin_xfer_t *xfers, size_t *n_xfers, uint64_t *end,
                         uint64_t *link_busy)
{
    uint32_t n = in->n_gpus;
    *n_xfers = 0;
    if (n < 2 || n > 64 || !in->link_mbpc || (in->hub && !in->hub_mbpc) || !in->tpc || !in->lat_cycles)
        return -1;
    uint32_t pkt = in->packet_bytes ? in->packet_bytes : CHOPIN_COMP_PACKET_BYTES;
    uint32_t depth = in->nic_packets ? in->nic_packets : CHOPIN_COMP_NIC_PACKETS;
    if (pkt < 8 || pkt > NET_BULK_MAX_BYTES) return -1;
    net_t net;
    comp_rx_t rx;
    memset(&rx, 0, sizeof rx);
    if (net_init(&net, in->hub ? NET_HUB : NET_LINE, n, in->lat_cycles, comp_deliver, &rx)) return -1;
    if (net_set_timing(&net, in->lat_cycles, in->link_mbpc, in->hub ? in->hub_mbpc : in->link_mbpc) ||
        net_set_bulk(&net, pkt)) {
        net_free(&net);
        return -1;
    }
    size_t nn = (size_t)n * n;
    rx.n = n;
    rx.bytes = in->bytes;
    rx.got = calloc(nn, sizeof *rx.got);
    rx.first = calloc(nn, sizeof *rx.first);
    rx.done_k = malloc(nn * sizeof *rx.done_k);
    uint8_t *done = calloc(nn, 1);
    int32_t *recv_from = malloc((size_t)n * sizeof *recv_from), *send_to = malloc((size_t)n * sizeof *send_to);
    uint64_t *recv_free = calloc(n, sizeof *recv_free), *sent = calloc(n, sizeof *sent);
    uint64_t *start = calloc(nn, sizeof *start), *rdy = malloc((size_t)n * sizeof *rdy);
    int rc = -1;
    if (!rx.got || !rx.first || !rx.done_k || !done || !recv_from || !send_to || !recv_free || !sent || !start || !rdy)
        goto out;
    rx.net = &net;
    size_t left = 0;                 /* transfers not yet complete */
    uint64_t t = UINT64_MAX;         /* the first step: the earliest ready cycle */
    for (uint32_t g = 0; g < n; g++) {
        rdy[g] = (in->ready[g] + in->tpc - 1) / in->tpc;      /* the cycle GPU g's sub-image is ready */
        if (rdy[g] < t) t = rdy[g];
        end[g] = in->ready[g];
        recv_from[g] = send_to[g] = -1;
        for (uint32_t h = 0; h < n; h++)
            if (g != h && in->bytes[(size_t)g * n + h]) left++;
    }
    if (t > 0) net_skip_to(&net, t);
    while (left) {
        uint64_t c = net.step + 1;   /* the step about to run */
        /* 1. the composition scheduler (CompScheduler::setSendToGPU, opaque groups), polled every cycle by each
         *    ready receiver that is not receiving, in GPU order: the first sender from GPU 0 on that is ready, not
         *    sending and not yet received from */
        for (uint32_t d = 0; d < n; d++) {
            if (recv_from[d] >= 0 || rdy[d] > c || recv_free[d] > c * in->tpc) continue;
            for (uint32_t s = 0; s < n; s++) {
                size_t k = (size_t)s * n + d;
                if (s == d || !in->bytes[k] || done[k] || rdy[s] > c || send_to[s] >= 0) continue;
                recv_from[d] = (int32_t)s;
                send_to[s] = (int32_t)d;
                done[k] = 1;
                start[k] = c;
                sent[s] = 0;
                break;
            }
        }
        /* 2. senders put their packets into their network port while it holds fewer than `depth` */
        int sending = 0;
        for (uint32_t s = 0; s < n; s++) {
            if (send_to[s] < 0) continue;
            uint32_t d = (uint32_t)send_to[s];
            uint64_t b = in->bytes[(size_t)s * n + d];
            uint32_t nb = in->hub ? n : (d > s ? s + 1 : s - 1);
            net_link_t *l = &net.links[net.out_link[s * net.n_nodes + nb]];
            while (sent[s] < b && l->outq.count < depth) {
                uint64_t p = b - sent[s] < pkt ? b - sent[s] : pkt;
                if (net_inject_bulk(&net, s, d, (uint32_t)p)) goto out;
                sent[s] += p;
            }
            if (sent[s] == b) {          /* its last packet handed over: the sender is free */
                uint64_t e = c * in->tpc;
                if (e > end[s]) end[s] = e;
                send_to[s] = -1;
            } else {
                sending = 1;
            }
        }
        /* 3. one network step; arrivals complete transfers, whose receivers merge */
        rx.n_done = 0;
        net_step(&net);
        for (uint32_t i = 0; i < rx.n_done; i++) {
            size_t k = rx.done_k[i];
            uint32_t s = (uint32_t)(k / n), d = (uint32_t)(k % n);
            if (recv_from[d] != (int32_t)s) goto out;      /* one sender per receiver: cannot happen */
            uint64_t t0 = rx.first[k] * in->tpc, t1 = net.step * in->tpc;
            uint64_t merged = in->merge ? in->merge(in->user, d, s, t0, t1) : t1;
            if (merged < t1) merged = t1;
            chopin_xfer_t *e = &xfers[(*n_xfers)++];
            e->src = s; e->dst = d; e->start = start[k] * in->tpc; e->arrive = t1; e->merged = merged;
            recv_free[d] = merged;
            recv_from[d] = -1;
            if (merged > end[d]) end[d] = merged;
            left--;
        }
        if (!left) break;
        if (sending || rx.n_done || net_next_event(&net) <= net.step + 1) continue;
        /* 4. nothing moves in the next cycle: jump to the next event (an arrival, a GPU ready, a merge done) */
        uint64_t nx = net_next_event(&net);
        for (uint32_t g = 0; g < n; g++) {
            if (rdy[g] > net.step && rdy[g] < nx) nx = rdy[g];
            uint64_t f = (recv_free[g] + in->tpc - 1) / in->tpc;
            if (recv_from[g] < 0 && f > net.step && f < nx) nx = f;
        }
        if (nx == UINT64_MAX) goto out;          /* a transfer that can never start: internal error */
        if (nx > net.step + 1) net_skip_to(&net, nx);
    }
    if (!net_idle(&net)) goto out;
    if (link_busy)
        for (uint32_t i = 0; i < net.n_links; i++)
            link_busy[i] += (net.links[i].bulk_bytes * 1000u * in->tpc + in->link_mbpc - 1) / in->link_mbpc;
    rc = 0;
out:
    net_free(&net);
    free(rx.got); free(rx.first); free(rx.done_k); free(done); free(recv_from); free(send_to);
    free(recv_free); free(sent); free(start); free(rdy);
    return rc;
}
