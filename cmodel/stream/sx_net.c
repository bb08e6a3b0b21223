#include "stream/sx_net.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "link/flit.h"
#include "link/net.h"

typedef struct {
    uint64_t *v;
    size_t head, n, cap;
} q64_t;

static int q_push(q64_t *q, uint64_t x)
{
    if (q->n == q->cap) {
        size_t nc = q->cap ? q->cap * 2 : 16;
        uint64_t *nv = malloc(nc * sizeof *nv);
        if (!nv) return -1;
        for (size_t i = 0; i < q->n; i++) nv[i] = q->v[(q->head + i) % q->cap];
        free(q->v);
        q->v = nv;
        q->cap = nc;
        q->head = 0;
    }
    q->v[(q->head + q->n) % q->cap] = x;
    q->n++;
    return 0;
}

typedef struct {
    const sx_net_cfg_t *cfg;
    q64_t rxq[SX_HW_MAX_GPUS][SX_HW_PORTS];
    int oom;
} net_ctx_t;

static void deliver_port(void *u, uint32_t gpu, uint32_t port, uint64_t flit)
{
    net_ctx_t *c = u;
    if (gpu >= SX_HW_MAX_GPUS || port >= SX_HW_PORTS || q_push(&c->rxq[gpu][port], flit)) c->oom = 1;
}

typedef struct {             /* P2G stream position of one GPU */
    uint32_t b, i;           /* batch, index in its chunk (count = END) */
} p2g_pos_t;

/* next beat of GPU g from position p (skipping empty-mask entries); 0 if the workload is exhausted */
static int beat_at(const sx_input_t *w, uint32_t g, p2g_pos_t *p, sx_hw_beat_t *bt)
{
    uint64_t all = w->n_gpus >= 64 ? ~0ull : (1ull << w->n_gpus) - 1;
    while (p->b < w->n_batches) {
        size_t k = (size_t)p->b * w->n_gpus + g;
        if (p->i < w->counts[k] && (w->chunks[k][p->i].mask & all) == 0) {
            p->i++;
            continue;
        }
        memset(bt, 0, sizeof *bt);
        bt->valid = 1;
        bt->tag = p->b & 0xffff;
        if (p->i < w->counts[k]) {
            bt->id = w->chunks[k][p->i].id;
            bt->mask = w->chunks[k][p->i].mask;
        } else {
            bt->end = 1;
            bt->id = w->counts[k];
        }
        return 1;
    }
    return 0;
}

static void advance(const sx_input_t *w, uint32_t g, p2g_pos_t *p)
{
    sx_hw_beat_t skip;
    if (!beat_at(w, g, p, &skip)) return;   /* past the empty-mask entries in front */
    size_t k = (size_t)p->b * w->n_gpus + g;
    if (p->i < w->counts[k]) {
        p->i++;
    } else {
        p->b++;
        p->i = 0;
    }
}

static int fail(sx_net_res_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(sx_net_res_t *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->report, sizeof r->report, fmt, ap);
    va_end(ap);
    return -1;
}

int sx_net_run(const sx_net_cfg_t *cfg, const sx_input_t *work, sx_net_res_t *res)
{
    memset(res, 0, sizeof *res);
    uint32_t N = cfg->n_gpus, K = cfg->prm.k;
    if (N == 0 || N > cfg->prm.max_gpus || N != work->n_gpus) return fail(res, "bad configuration: N %u", N);
    uint64_t max_cycles = cfg->max_cycles ? cfg->max_cycles : 10000000;
    uint64_t stall_limit = cfg->stall_limit ? cfg->stall_limit : 100000;
    uint32_t p2g_pct = cfg->p2g_pct ? cfg->p2g_pct : 100, tx_pct = cfg->tx_pct ? cfg->tx_pct : 100;
    uint32_t out_pct = cfg->out_pct ? cfg->out_pct : 100;

    int rc = -1;
    sx_hw_t *pe = calloc(N, sizeof *pe);
    sx_rel_list_t *gold = calloc(N, sizeof *gold);
    uint64_t *pos_out = calloc(N, sizeof *pos_out);
    p2g_pos_t *pos = calloc(N, sizeof *pos);
    net_ctx_t *ctx = calloc(1, sizeof *ctx);
    net_t net;
    memset(&net, 0, sizeof net);
    if (!pe || !gold || !pos_out || !pos || !ctx) { fail(res, "out of memory"); goto out; }
    ctx->cfg = cfg;
    for (uint32_t g = 0; g < N; g++) {
        if (sx_hw_init(&pe[g], cfg->prm)) { fail(res, "sx_hw_init failed"); goto out; }
        if (sx_run_one(work, g, &gold[g])) { fail(res, "sx_run_one failed"); goto out; }
    }
    if (net_init(&net, cfg->topo == SX_TOPO_HUB ? NET_HUB : NET_LINE, N, cfg->latency ? cfg->latency : 1, NULL, ctx)) {
        fail(res, "net_init failed");
        goto out;
    }
    net.deliver_port = deliver_port;
    rng_t rng;
    rng_seed(&rng, cfg->seed);

    uint64_t last_progress = 0;
    sx_hw_in_t *in = calloc(N, sizeof *in);
    sx_hw_out_t *o = calloc(N, sizeof *o);
    if (!in || !o) { free(in); free(o); fail(res, "out of memory"); goto out; }
    for (uint64_t cyc = 0;; cyc++) {
        res->cycles = cyc;
        int done = net_idle(&net);
        for (uint32_t g = 0; g < N && done; g++)
            done = pos_out[g] == gold[g].n && pos[g].b >= work->n_batches && !ctx->rxq[g][0].n && !ctx->rxq[g][1].n;
        for (uint32_t g = 0; g < N && done; g++) {
            sx_hw_in_t idle;
            memset(&idle, 0, sizeof idle);
            idle.cfg.n_gpus = N;
            idle.cfg.gpu_id = g;
            idle.cfg.topo = cfg->topo;
            sx_hw_comb(&pe[g], &idle, &o[g]);
            done = !o[g].busy;   /* credits still to return: keep going */
        }
        if (done) {
            for (uint32_t g = 0; g < N; g++) {
                if (pe[g].occ) { fail(res, "GPU %u holds %u slots at the end (cycle %" PRIu64 ")", g, pe[g].occ, cyc); goto out2; }
                for (uint32_t d = 0; d < N; d++)
                    if (d != g && pe[g].credit[d] != cfg->prm.depth) {
                        fail(res, "GPU %u: credit for GPU %u is %u at the end, not %u (credit lost)", g, d,
                             pe[g].credit[d], cfg->prm.depth);
                        goto out2;
                    }
            }
            rc = 0;
            goto out2;
        }
        if (cyc >= max_cycles) { fail(res, "not finished after %" PRIu64 " cycles", cyc); goto out2; }
        if (cyc - last_progress > stall_limit) {
            fail(res, "deadlock: no handshake for %" PRIu64 " cycles (cycle %" PRIu64 "; GPU 0 released %" PRIu64
                      " of %zu)", stall_limit, cyc, pos_out[0], gold[0].n);
            goto out2;
        }
        /* inputs */
        for (uint32_t g = 0; g < N; g++) {
            sx_hw_in_t *x = &in[g];
            memset(x, 0, sizeof *x);
            x->cfg.n_gpus = N;
            x->cfg.gpu_id = g;
            x->cfg.topo = cfg->topo;
            uint32_t lanes = rng_below(&rng, 100) < p2g_pct ? 1 + rng_below(&rng, K) : 0;
            p2g_pos_t p = pos[g];
            for (uint32_t j = 0; j < lanes; j++) {
                if (!beat_at(work, g, &p, &x->in[j])) break;
                advance(work, g, &p);
            }
            for (int q = 0; q < SX_HW_PORTS; q++) {
                x->tx_ready[q] = rng_below(&rng, 100) < tx_pct;
                if (ctx->rxq[g][q].n) {
                    x->rx_valid[q] = 1;
                    x->rx_flit[q] = ctx->rxq[g][q].v[ctx->rxq[g][q].head];
                }
            }
            x->out_ready = rng_below(&rng, 100) < out_pct;
            if (g == cfg->slow_gpu && cfg->slow_div > 1) x->out_ready = rng_below(&rng, cfg->slow_div) == 0;
        }
        /* outputs and handshakes */
        for (uint32_t g = 0; g < N; g++) {
            sx_hw_comb(&pe[g], &in[g], &o[g]);
            const sx_hw_out_t *y = &o[g];
            if (y->err) { fail(res, "GPU %u raised err at cycle %" PRIu64, g, cyc); goto out2; }
            for (uint32_t j = 0; j < K; j++) {
                if (!(in[g].in[j].valid && y->in_ready[j])) break;
                advance(work, g, &pos[g]);
                last_progress = cyc;
            }
            for (int q = 0; q < SX_HW_PORTS; q++) {
                if (y->tx_valid[q] && in[g].tx_ready[q]) {
                    if (cfg->drop_flit && flit_type(y->tx_flit[q]) != FLIT_TYPE_CREDIT &&
                        res->flits_data + 1 == cfg->drop_flit) {
                        res->flits_data++;   /* lost on the way (test of the checks) */
                        continue;
                    }
                    if (net_inject_port(&net, g, (uint32_t)q, y->tx_flit[q])) {
                        fail(res, "GPU %u sent flit 0x%016" PRIx64 " on a port that cannot carry it (port %d)", g,
                             y->tx_flit[q], q);
                        goto out2;
                    }
                    if (flit_type(y->tx_flit[q]) == FLIT_TYPE_CREDIT) res->flits_credit++;
                    else res->flits_data++;
                    last_progress = cyc;
                }
                if (in[g].rx_valid[q] && y->rx_ready[q]) {
                    q64_t *rq = &ctx->rxq[g][q];
                    rq->head = (rq->head + 1) % rq->cap;
                    rq->n--;
                    last_progress = cyc;
                }
            }
            if (in[g].out_ready && y->out_valid[0]) {
                last_progress = cyc;
                for (uint32_t j = 0; j < K && y->out_valid[j]; j++) {
                    if (pos_out[g] >= gold[g].n) { fail(res, "GPU %u released more than expected (cycle %" PRIu64 ")", g, cyc); goto out2; }
                    const sx_rel_t *e = &gold[g].v[pos_out[g]];
                    if ((uint32_t)y->out_eob != e->eob || y->out_tag != (e->batch & 0xffff) || (!e->eob && y->out_id[j] != e->id)) {
                        fail(res, "GPU %u release #%" PRIu64 " (cycle %" PRIu64 ", lane %u): got %s tag %u id %u, expected %s tag %u id %u",
                             g, pos_out[g], cyc, j, y->out_eob ? "eob" : "prim", y->out_tag, y->out_id[j],
                             e->eob ? "eob" : "prim", e->batch & 0xffff, e->id);
                        goto out2;
                    }
                    pos_out[g]++;
                    res->released[g]++;
                }
            }
            if (y->occ > res->occ_max[g]) res->occ_max[g] = y->occ;
            uint32_t ids = sx_hw_held_ids(&pe[g]);
            if (ids > res->ids_max[g]) res->ids_max[g] = ids;
            for (uint32_t s = 0; s < N; s++)
                if (s != g && pe[g].cnt[s] == cfg->prm.depth) res->full_cycles++;
        }
        for (uint32_t g = 0; g < N; g++) {
            int idle_in = !in[g].rx_valid[0] && !in[g].rx_valid[1];
            for (uint32_t j = 0; j < K; j++) idle_in &= !in[g].in[j].valid;
            if (idle_in && sx_hw_quiet(&pe[g], &in[g].cfg)) {   /* quiet must mean: this edge changes nothing */
                sx_hw_t before = pe[g];
                sx_hw_clock(&pe[g], &in[g]);
                if (memcmp(&before, &pe[g], sizeof before)) {
                    fail(res, "GPU %u: sx_hw_quiet() was 1 but the clock edge changed state (cycle %" PRIu64 ")", g, cyc);
                    goto out2;
                }
                res->quiet_cycles++;
            } else {
                sx_hw_clock(&pe[g], &in[g]);
            }
        }
        net_step(&net);
        if (ctx->oom) { fail(res, "out of memory"); goto out2; }
    }
out2:
    free(in);
    free(o);
out:
    if (net.links) net_free(&net);
    if (ctx)
        for (uint32_t g = 0; g < N && g < SX_HW_MAX_GPUS; g++)
            for (int q = 0; q < SX_HW_PORTS; q++) free(ctx->rxq[g][q].v);
    if (pe)
        for (uint32_t g = 0; g < N; g++) sx_hw_free(&pe[g]);
    if (gold)
        for (uint32_t g = 0; g < N; g++) sx_rel_free(&gold[g]);
    free(pe);
    free(gold);
    free(pos_out);
    free(pos);
    free(ctx);
    return rc;
}

int sx_work_gen(sx_work_t *w, uint64_t seed, uint32_t n_gpus, uint32_t n_batches, uint32_t max_size)
{
    memset(w, 0, sizeof *w);
    if (n_gpus == 0 || n_gpus > 64) return -1;
    rng_t r;
    rng_seed(&r, seed);
    w->in.n_gpus = n_gpus;
    w->in.n_batches = n_batches;
    size_t slots = (size_t)n_batches * n_gpus;
    w->chunks = calloc(slots ? slots : 1, sizeof *w->chunks);
    w->counts = calloc(slots ? slots : 1, sizeof *w->counts);
    if (!w->chunks || !w->counts) { sx_work_free(w); return -1; }
    uint64_t all = n_gpus >= 64 ? ~0ull : (1ull << n_gpus) - 1;
    for (uint32_t b = 0; b < n_batches; b++) {
        uint32_t m = rng_below(&r, 4) == 0 ? rng_below(&r, 3) : rng_below(&r, max_size + 1);
        uint32_t mix = rng_below(&r, 6);
        uint32_t per = (m + n_gpus - 1) / n_gpus, id = 0;
        for (uint32_t s = 0; s < n_gpus; s++) {
            uint32_t c = id + per <= m ? per : m - id;
            size_t k = (size_t)b * n_gpus + s;
            w->counts[k] = c;
            w->chunks[k] = calloc(c ? c : 1, sizeof **w->chunks);
            if (!w->chunks[k]) { sx_work_free(w); return -1; }
            for (uint32_t i = 0; i < c; i++, id++) {
                uint64_t mk;
                uint32_t kind = mix < 5 ? mix : rng_below(&r, 5);
                switch (kind) {
                case 0: mk = 1ull << rng_below(&r, n_gpus); break;                       /* one owner */
                case 1: { uint32_t a = rng_below(&r, n_gpus), l = 1 + rng_below(&r, 3);  /* neighbours */
                          mk = (l >= 64 ? ~0ull : ((1ull << l) - 1)) << a; break; }
                case 2: mk = rng_below(&r, 8) ? 1ull << s : all; break;                  /* mostly kept */
                case 3: mk = rng_u64(&r); break;                                          /* random */
                default: mk = rng_below(&r, 4) ? 1ull << rng_below(&r, n_gpus) : 0; break; /* some empty */
                }
                w->chunks[k][i].id = id;
                w->chunks[k][i].mask = mk & all;
            }
        }
    }
    w->in.chunks = (const sx_entry_t *const *)w->chunks;
    w->in.counts = w->counts;
    return 0;
}

void sx_work_free(sx_work_t *w)
{
    if (w->chunks)
        for (size_t k = 0; k < (size_t)w->in.n_batches * w->in.n_gpus; k++) free(w->chunks[k]);
    free(w->chunks);
    free(w->counts);
    memset(w, 0, sizeof *w);
}
