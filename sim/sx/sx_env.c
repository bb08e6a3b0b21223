#include "sx_env.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/flit.h"

uint64_t sx_scen_seed(uint64_t seed, uint32_t idx) { return seed * 0x9e3779b97f4a7c15ull + idx * 0x2545f4914f6cdd1dull + 7; }

static uint32_t pick(rng_t *r, const uint32_t *v, int n) { return v[rng_below(r, (uint32_t)n)]; }

void sx_scen_make(uint64_t seed, uint32_t idx, const uint32_t *gpus, int n_gpus, const sx_hw_params_t *prm,
                  uint32_t size, sx_scen_t *s)
{
    memset(s, 0, sizeof *s);
    rng_t r;
    rng_seed(&r, sx_scen_seed(seed, idx));
    uint32_t fit[16];
    int nf = 0;
    for (int i = 0; i < n_gpus && nf < 16; i++)
        if (gpus[i] <= prm->max_gpus) fit[nf++] = gpus[i];
    if (!nf) fit[nf++] = 1;
    uint32_t nmax = 1;
    for (int i = 0; i < nf; i++) nmax = fit[i] > nmax ? fit[i] : nmax;
    uint64_t wseed = sx_scen_seed(seed, idx) ^ 0x5a5a;
    s->p2g_pct = 50 + rng_below(&r, 51);
    s->out_pct = 30 + rng_below(&r, 71);
    s->tx_pct[0] = 40 + rng_below(&r, 61);
    s->tx_pct[1] = 40 + rng_below(&r, 61);
    s->src_pct = 30 + rng_below(&r, 71);
    s->ret_pct = 20 + rng_below(&r, 81);
    s->cr_pct = 20 + rng_below(&r, 81);
    s->lat_max = rng_below(&r, 12);
    s->B = 1 + rng_below(&r, SX_ENV_MAX_B);
    const char *kind = "random";
    if (idx < SX_ENV_DIRECTED) {
        /* directed: a base (N = 3, middle of a line) and each configuration field changed alone, then the
         * full-buffer corners, then the extremes */
        static const struct { uint32_t n, g, topo, out_hold, cr_hold; const char *what; } D[SX_ENV_DIRECTED] = {
            {3, 1, 0, 0, 0, "base: N=3 g=1 line"},
            {4, 1, 0, 0, 0, "n_gpus changed alone"},
            {3, 0, 0, 0, 0, "gpu_id changed alone (0)"},
            {3, 2, 0, 0, 0, "gpu_id changed alone (2)"},
            {3, 1, 1, 0, 0, "topo changed alone (hub)"},
            {3, 1, 0, 400, 0, "base, output stalled 400 cycles at a time (every FIFO full)"},
            {3, 1, 1, 0, 300, "hub, receivers keep credits 300 cycles at a time (PE out of credits)"},
            {3, 1, 0, 300, 300, "base, both stalls"},
            {1, 0, 0, 0, 0, "N=1 (self queue only)"},
            {2, 1, 1, 200, 0, "N=2 hub, output stalled"},
            {0, 0, 0, 0, 0, "N=max, last GPU of a line"},
            {0, 1, 1, 150, 150, "N=max hub, both stalls"},
        };
        s->n = D[idx].n ? D[idx].n : nmax;
        if (s->n > prm->max_gpus) s->n = prm->max_gpus;
        s->g = idx == 10 ? s->n - 1 : (D[idx].g < s->n ? D[idx].g : 0);
        s->topo = D[idx].topo;
        s->out_hold = D[idx].out_hold;
        s->cr_hold = D[idx].cr_hold;
        if (s->out_hold || s->cr_hold) { s->src_pct = 100; s->p2g_pct = 100; }
        s->B = SX_ENV_MAX_B;
        wseed = sx_scen_seed(seed, 0) ^ 0x5a5a;     /* the configuration cases share the base's workload shape */
        kind = D[idx].what;
    } else {
        s->n = pick(&r, fit, nf);
        uint32_t gsel = rng_below(&r, 3);
        s->g = gsel == 0 ? 0 : gsel == 1 ? s->n - 1 : rng_below(&r, s->n);
        s->topo = rng_below(&r, 2);
        if (rng_below(&r, 4) == 0) s->out_hold = 50 + rng_below(&r, 400);
        if (rng_below(&r, 4) == 0) s->cr_hold = 50 + rng_below(&r, 400);
    }
    uint32_t sz = idx >= SX_ENV_DIRECTED && rng_below(&r, 4) == 0 ? 8 : size;
    if (sx_work_gen(&s->w, wseed + s->n, s->n, s->B, sz) || sx_run_one(&s->w.in, s->g, &s->exp)) {
        fprintf(stderr, "sx_scen_make: out of memory\n");
        abort();
    }
    snprintf(s->desc, sizeof s->desc, "N=%u g=%u %s B=%u size<=%u p2g=%u%% out=%u%% tx=%u/%u%% src=%u%% ret=%u%% cr=%u%% "
             "lat<=%u hold=%u/%u [%s]", s->n, s->g, s->topo ? "hub" : "line", s->B, sz, s->p2g_pct, s->out_pct,
             s->tx_pct[0], s->tx_pct[1], s->src_pct, s->ret_pct, s->cr_pct, s->lat_max, s->out_hold, s->cr_hold, kind);
}

void sx_scen_free(sx_scen_t *s)
{
    sx_work_free(&s->w);
    sx_rel_free(&s->exp);
}

/* ---------------------------------------------------------------------------------------- link queues */
static int lq_push(sx_lq_t *q, uint64_t f, uint64_t t)
{
    if (q->n == q->cap) {
        size_t nc = q->cap ? q->cap * 2 : 32;
        uint64_t *nf = malloc(nc * sizeof *nf), *nt = malloc(nc * sizeof *nt);
        if (!nf || !nt) { free(nf); free(nt); return -1; }
        for (size_t i = 0; i < q->n; i++) {
            nf[i] = q->f[(q->head + i) % q->cap];
            nt[i] = q->t[(q->head + i) % q->cap];
        }
        free(q->f);
        free(q->t);
        q->f = nf;
        q->t = nt;
        q->cap = nc;
        q->head = 0;
    }
    if (t <= q->last_t) t = q->last_t + 1;   /* one flit per cycle per port, in order */
    q->f[(q->head + q->n) % q->cap] = f;
    q->t[(q->head + q->n) % q->cap] = t;
    q->last_t = t;
    q->n++;
    return 0;
}

static uint32_t port_of(const sx_scen_t *s, uint32_t other) { return s->topo == SX_TOPO_LINE && other > s->g ? 1 : 0; }

int sx_env_init(sx_env_t *e, const sx_scen_t *s, const sx_hw_params_t *prm, uint64_t seed, uint32_t idx,
                uint64_t drop_at)
{
    memset(e, 0, sizeof *e);
    e->s = s;
    e->prm = *prm;
    e->drop_at = drop_at;
    rng_seed(&e->r, sx_scen_seed(seed, idx) ^ 0xe4e4);
    for (uint32_t d = 0; d < SX_HW_MAX_GPUS; d++) e->credit[d] = prm->depth;
    return 0;
}

void sx_env_free(sx_env_t *e)
{
    for (int q = 0; q < SX_HW_PORTS; q++) {
        free(e->q[q].f);
        free(e->q[q].t);
    }
    memset(e, 0, sizeof *e);
}

static uint64_t all_of(uint32_t n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* P2G beat at (b, i) of this GPU, skipping empty-mask entries (dropped at the P2G output) */
static int p2g_beat(const sx_env_t *e, uint32_t *b, uint32_t *i, sx_hw_beat_t *bt)
{
    const sx_scen_t *s = e->s;
    while (*b < s->B) {
        size_t k = (size_t)*b * s->n + s->g;
        const sx_entry_t *c = s->w.in.chunks[k];
        uint32_t cnt = s->w.in.counts[k];
        if (*i < cnt && (c[*i].mask & all_of(s->n)) == 0) { (*i)++; continue; }
        memset(bt, 0, sizeof *bt);
        bt->valid = 1;
        bt->tag = *b & 0xffff;
        if (*i < cnt) {
            bt->id = c[*i].id;
            bt->mask = c[*i].mask;
        } else {
            bt->end = 1;
            bt->id = cnt;
        }
        return 1;
    }
    return 0;
}

static void p2g_next(const sx_env_t *e, uint32_t *b, uint32_t *i)
{
    sx_hw_beat_t bt;
    if (!p2g_beat(e, b, i, &bt)) return;
    if (bt.end) { (*b)++; *i = 0; } else (*i)++;
}

/* next flit of source s for GPU g at (b, i): PRIM of an entry with bit g, or LAST; 0 when done */
static int src_flit(const sx_env_t *e, uint32_t s, uint32_t *b, uint32_t *i, uint64_t *f)
{
    const sx_scen_t *sc = e->s;
    while (*b < sc->B) {
        size_t k = (size_t)*b * sc->n + s;
        const sx_entry_t *c = sc->w.in.chunks[k];
        uint32_t cnt = sc->w.in.counts[k];
        while (*i < cnt && !((c[*i].mask >> sc->g) & 1)) (*i)++;
        if (*i < cnt) *f = flit_make(FLIT_TYPE_PRIM, s, sc->g, *b & 0xffff, c[*i].id);
        else *f = flit_make(FLIT_TYPE_LAST, s, FLIT_DST_BCAST, *b & 0xffff, cnt);
        return 1;
    }
    return 0;
}

static void src_next(const sx_env_t *e, uint32_t s, uint32_t *b, uint32_t *i)
{
    uint64_t f;
    if (!src_flit(e, s, b, i, &f)) return;
    if (flit_type(f) == FLIT_TYPE_LAST) { (*b)++; *i = 0; } else (*i)++;
}

/* what GPU g must send to receiver d next: PRIM(b, id) of an entry with bit d, or LAST(b) (-> *last = 1) */
static int exp_to(const sx_env_t *e, uint32_t d, uint32_t *b, uint32_t *i, uint32_t *id, int *last)
{
    const sx_scen_t *sc = e->s;
    if (*b >= sc->B) return 0;
    size_t k = (size_t)*b * sc->n + sc->g;
    const sx_entry_t *c = sc->w.in.chunks[k];
    uint32_t cnt = sc->w.in.counts[k];
    while (*i < cnt && !((c[*i].mask >> d) & 1)) (*i)++;
    *last = *i >= cnt;
    *id = *last ? cnt : c[*i].id;
    return 1;
}

void sx_env_drive(sx_env_t *e, uint64_t cycle, sx_hw_in_t *in)
{
    const sx_scen_t *s = e->s;
    memset(in, 0, sizeof *in);
    in->cfg.n_gpus = s->n;
    in->cfg.gpu_id = s->g;
    in->cfg.topo = s->topo;
    if (rng_below(&e->r, 100) < s->p2g_pct) {
        uint32_t lanes = 1 + rng_below(&e->r, e->prm.k), b = e->pb, i = e->pi;
        for (uint32_t j = 0; j < lanes; j++) {
            if (!p2g_beat(e, &b, &i, &in->in[j])) break;
            p2g_next(e, &b, &i);
        }
    }
    for (int q = 0; q < SX_HW_PORTS; q++) {
        in->tx_ready[q] = rng_below(&e->r, 100) < s->tx_pct[q];
        const sx_lq_t *lq = &e->q[q];
        if (lq->n && lq->t[lq->head] <= cycle) {
            in->rx_valid[q] = 1;
            in->rx_flit[q] = lq->f[lq->head];
        }
    }
    if (s->out_hold && cycle >= e->out_hold_until + s->out_hold && rng_below(&e->r, 100) < 2)
        e->out_hold_until = cycle + s->out_hold;
    in->out_ready = cycle >= e->out_hold_until && rng_below(&e->r, 100) < s->out_pct;
}

#define FAILF(...) do { snprintf(why, wl, __VA_ARGS__); return -1; } while (0)

static int take_tx(sx_env_t *e, int q, uint64_t f, char *why, size_t wl)
{
    const sx_scen_t *s = e->s;
    uint32_t t = flit_type(f), src = flit_src(f), dst = flit_dst(f), tag = flit_tag(f), pl = flit_payload(f);
    if (src != s->g) FAILF("tx%d flit from source %u, not this GPU %u", q, src, s->g);
    if (t == FLIT_TYPE_PRIM) {
        if (dst >= s->n || dst == s->g || port_of(s, dst) != (uint32_t)q || (s->topo == SX_TOPO_HUB && q))
            FAILF("tx%d PRIM to GPU %u on the wrong port or to a GPU that does not exist", q, dst);
        uint32_t id;
        int last;
        if (!exp_to(e, dst, &e->eb[dst], &e->ei[dst], &id, &last) || last || tag != (e->eb[dst] & 0xffff) || pl != id)
            FAILF("tx%d PRIM to GPU %u tag %u id %u: expected %s tag %u id %u", q, dst, tag, pl, last ? "LAST" : "PRIM",
                  e->eb[dst] & 0xffff, id);
        e->ei[dst]++;
        if (++e->held[dst] > e->prm.depth) FAILF("tx%d PRIM to GPU %u beyond its credit (FIFO of %u slots overrun)", q, dst, e->prm.depth);
    } else if (t == FLIT_TYPE_LAST) {
        if (dst != FLIT_DST_BCAST) FAILF("tx%d LAST not broadcast (dst %u)", q, dst);
        int any = 0;
        for (uint32_t d = 0; d < s->n; d++) {
            if (d == s->g || port_of(s, d) != (uint32_t)q) continue;
            any = 1;
            uint32_t id;
            int last;
            if (!exp_to(e, d, &e->eb[d], &e->ei[d], &id, &last) || !last || tag != (e->eb[d] & 0xffff) || pl != id)
                FAILF("tx%d LAST tag %u payload %u reaches GPU %u, which expects %s tag %u payload/id %u", q, tag, pl, d,
                      last ? "LAST" : "PRIM", e->eb[d] & 0xffff, id);
            e->eb[d]++;
            e->ei[d] = 0;
            if (++e->held[d] > e->prm.depth) FAILF("tx%d LAST beyond the credit of GPU %u", q, d);
        }
        if (!any) FAILF("tx%d LAST on a port with no GPU behind it", q);
    } else if (t == FLIT_TYPE_CREDIT) {
        if (dst >= s->n || dst == s->g || port_of(s, dst) != (uint32_t)q) FAILF("tx%d CREDIT to GPU %u on the wrong port", q, dst);
        if (pl == 0 || e->credit[dst] + pl > e->prm.depth)
            FAILF("tx%d CREDIT of %u to GPU %u, which holds %u of %u (more returned than used)", q, pl, dst, e->credit[dst],
                  e->prm.depth);
        e->credit[dst] += pl;
        e->credits_in++;
    } else {
        FAILF("tx%d flit of unknown type %u", q, t);
    }
    return 0;
}

int sx_env_observe(sx_env_t *e, uint64_t cycle, const sx_hw_in_t *in, const sx_hw_out_t *o, char *why, size_t wl)
{
    const sx_scen_t *s = e->s;
    if (o->err) FAILF("err_o raised on legal traffic");
    for (uint32_t j = 0; j < e->prm.k; j++) {
        if (!(in->in[j].valid && o->in_ready[j])) break;
        p2g_next(e, &e->pb, &e->pi);
        e->beats_in++;
    }
    for (int q = 0; q < SX_HW_PORTS; q++) {
        if (in->rx_valid[q] && o->rx_ready[q]) {
            sx_lq_t *lq = &e->q[q];
            lq->head = (lq->head + 1) % lq->cap;
            lq->n--;
            e->rx_flits++;
        }
        if (o->tx_valid[q] && in->tx_ready[q]) {
            e->tx_flits++;
            if (take_tx(e, q, o->tx_flit[q], why, wl)) return -1;
        }
    }
    if (o->out_valid[0] && in->out_ready) {
        for (uint32_t j = 0; j < e->prm.k && o->out_valid[j]; j++) {
            if (e->out_pos >= s->exp.n) FAILF("released more than expected (lane %u)", j);
            const sx_rel_t *x = &s->exp.v[e->out_pos];
            if ((uint32_t)o->out_eob != x->eob || o->out_tag != (x->batch & 0xffff) || (!x->eob && o->out_id[j] != x->id))
                FAILF("release #%zu (lane %u): got %s tag %u id %u, expected %s tag %u id %u (application order)", e->out_pos,
                      j, o->out_eob ? "eob" : "prim", o->out_tag, o->out_id[j], x->eob ? "eob" : "prim", x->batch & 0xffff,
                      x->id);
            e->out_pos++;
            e->out_records++;
        }
    }
    if (o->occ >= e->prm.depth * (s->n > 1 ? s->n - 1 : 1)) e->full_cycles++;
    /* the other GPUs react: receivers release and return credits, sources send */
    if (s->cr_hold && cycle >= e->cr_hold_until + s->cr_hold && rng_below(&e->r, 100) < 2) e->cr_hold_until = cycle + s->cr_hold;
    int hold = cycle < e->cr_hold_until;
    if (hold) e->cr_stall_cycles++;
    for (uint32_t d = 0; d < s->n; d++) {
        if (d == s->g) continue;
        if (e->held[d] && rng_below(&e->r, 100) < s->ret_pct) { e->held[d]--; e->pend[d]++; }
        if (!hold && e->pend[d] && rng_below(&e->r, 100) < s->cr_pct) {
            uint32_t a = 1 + rng_below(&e->r, e->pend[d]);
            if (lq_push(&e->q[port_of(s, d)], flit_make(FLIT_TYPE_CREDIT, d, s->g, 0, a), cycle + 1 + rng_below(&e->r, s->lat_max + 1)))
                FAILF("out of memory");
            e->pend[d] -= a;
            e->credits_out++;
        }
    }
    for (int q = 0; q < (s->topo == SX_TOPO_HUB ? 1 : 2); q++) {
        if (rng_below(&e->r, 100) >= s->src_pct) continue;
        uint32_t start = rng_below(&e->r, s->n);
        for (uint32_t k = 0; k < s->n; k++) {
            uint32_t src = (start + k) % s->n;
            uint64_t f;
            if (src == s->g || port_of(s, src) != (uint32_t)q || !e->credit[src]) continue;
            if (!src_flit(e, src, &e->sb[src], &e->si[src], &f)) continue;
            src_next(e, src, &e->sb[src], &e->si[src]);
            e->credit[src]--;
            if (++e->datas_sent == e->drop_at) break;   /* test hook: lost on the way */
            if (lq_push(&e->q[q], f, cycle + 1 + rng_below(&e->r, s->lat_max + 1))) FAILF("out of memory");
            break;
        }
    }
    return 0;
}

int sx_env_finished(const sx_env_t *e, const sx_hw_out_t *o)
{
    const sx_scen_t *s = e->s;
    if (o->busy || e->out_pos != s->exp.n || e->pb < s->B || e->q[0].n || e->q[1].n) return 0;
    for (uint32_t d = 0; d < s->n; d++) {
        if (d == s->g) continue;
        if (e->sb[d] < s->B || e->credit[d] != e->prm.depth || e->eb[d] < s->B || e->held[d] || e->pend[d]) return 0;
    }
    return 1;
}
