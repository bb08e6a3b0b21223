/* Environment model of one primitive exchanger under test (pe_env.h). */
#include "pe_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/flit.h"
#include "link/net.h"

static uint64_t lowmask(uint32_t bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }

static void lq_push(pe_lq_t *q, uint64_t flit, uint64_t t)
{
    if (q->head + q->n == q->cap) {
        if (q->head > 0) {
            memmove(q->v, q->v + q->head, q->n * sizeof *q->v);
            q->head = 0;
        } else {
            q->cap = q->cap ? 2 * q->cap : 256;
            q->v = realloc(q->v, q->cap * sizeof *q->v);
            if (!q->v) { fprintf(stderr, "cosim-pe: out of memory\n"); exit(2); }
        }
    }
    if (t < q->last_t) t = q->last_t;
    q->v[q->head + q->n].flit = flit;
    q->v[q->head + q->n].t = t;
    q->n++;
    q->last_t = t;
}

uint64_t pe_scen_seed(uint64_t seed, uint32_t idx) { return seed ^ (0x9E3779B97F4A7C15ull * (idx + 1)); }

static uint64_t gen_mask(rng_t *r, uint32_t n, uint32_t k, int kind)
{
    uint64_t all = lowmask(n);
    switch (kind) {
    case 1: return 1ull << rng_below(r, n);                      /* one owner */
    case 2: return all;                                           /* every GPU */
    case 3: { uint64_t m = gen_mask(r, n, k, 0); m &= ~(1ull << k); return m; } /* never this GPU */
    case 4: return 1ull << k;                                     /* only this GPU */
    case 5: return 0;                                             /* all culled */
    default: break;
    }
    uint32_t x = rng_below(r, 100);
    if (x < 10) return 0;
    if (x < 50) return 1ull << rng_below(r, n);
    if (x < 80) {                                                 /* a run of owners, as neighbouring tiles */
        uint32_t s = rng_below(r, n), len = 1 + rng_below(r, n < 8 ? n : 8);
        uint64_t m = 0;
        for (uint32_t i = 0; i < len; i++) m |= 1ull << ((s + i) % n);
        return m;
    }
    if (x < 85) return all;
    uint64_t m = 0;
    for (uint32_t t = 0; t < n; t++)
        if (rng_chance(r, 30, 100)) m |= 1ull << t;
    return m;
}

void pe_scen_free(pe_scen_t *s)
{
    for (uint32_t i = 0; i < s->B * s->n; i++) free(s->ent[i]);
    for (uint32_t b = 0; b < s->B; b++) free(s->exp[b]);
    memset(s, 0, sizeof *s);
}

const char *pe_topo_name(uint32_t t) { return t == PE_TOPO_HUB ? "hub" : "line"; }

/* Scenario idx of the run: configuration cycles through the GPU counts, the ids 0 / N-1 / random and both
 * topologies; sizes and timing are random. */
void pe_scen_make(uint64_t seed, uint32_t idx, const uint32_t *gpus, int n_gpus, uint32_t max_gpus, uint32_t size,
                  pe_scen_t *s)
{
    memset(s, 0, sizeof *s);
    rng_t r;
    rng_seed(&r, pe_scen_seed(seed, idx));
    uint32_t valid[64], nv = 0;
    for (int i = 0; i < n_gpus && nv < 64; i++)
        if (gpus[i] >= 1 && gpus[i] <= max_gpus) valid[nv++] = gpus[i];
    if (!nv) valid[nv++] = 1;
    s->n = valid[idx % nv];
    uint32_t v = idx / nv;
    uint32_t kk = v % 3;
    s->topo = (v / 3) & 1;
    s->k = kk == 0 ? 0 : kk == 1 ? s->n - 1 : rng_below(&r, s->n);
    s->ra = rng_below(&r, 2);
    s->B = 1 + rng_below(&r, PE_ENV_MAX_B);
    /* timing: one scenario in four stresses the queues with heavy backpressure somewhere */
    static const uint32_t gaps[] = {0, 0, 0, 10, 30};
    static const uint32_t stalls[] = {0, 0, 0, 5, 10, 30};
    static const uint32_t heavy[] = {60, 90, 97};
    s->in_gap = gaps[rng_below(&r, 5)];
    s->out_stall = stalls[rng_below(&r, 6)];
    s->tx_stall[0] = stalls[rng_below(&r, 6)];
    s->tx_stall[1] = stalls[rng_below(&r, 6)];
    if (rng_below(&r, 4) == 0) {
        uint32_t h = heavy[rng_below(&r, 3)];
        switch (rng_below(&r, 5)) {
        case 0: s->in_gap = h; break;
        case 1: s->out_stall = h; break;
        case 2: s->tx_stall[0] = h; break;
        case 3: s->tx_stall[1] = h; break;
        default: s->out_stall = s->tx_stall[0] = s->tx_stall[1] = h; break;
        }
    }
    static const uint32_t bursts[] = {100, 100, 95, 80, 50};
    s->rx_burst = bursts[rng_below(&r, 5)];
    s->rx_gap_max = 1 + rng_below(&r, 8);
    s->react_max = rng_below(&r, 2) ? 2 : 60;
    uint32_t sizes[PE_ENV_MAX_B];
    for (uint32_t b = 0; b < s->B; b++) {
        uint32_t x = rng_below(&r, 100), m;
        if (x < 10) m = 0;
        else if (x < 20) m = 1;
        else if (x < 55) m = 2 + rng_below(&r, 63);
        else if (x < 85) m = 65 + rng_below(&r, 536);
        else m = size / 2 + rng_below(&r, size / 2 + 1);
        if (s->n == 1) m /= 8;                  /* N = 1: no flits at all, keep it short */
        sizes[b] = m;
        int kind = rng_below(&r, 100) < 70 ? 0 : (int)(1 + rng_below(&r, 5));
        uint32_t cuts[65];
        if (rng_below(&r, 5)) {                 /* the runtime's split: chunks of ceil(m/N) */
            uint32_t c = (m + s->n - 1) / s->n;
            for (uint32_t j = 0; j <= s->n; j++) cuts[j] = j * c < m ? j * c : m;
        } else {                                /* uneven chunks */
            cuts[0] = 0;
            for (uint32_t j = 1; j < s->n; j++) cuts[j] = rng_below(&r, m + 1);
            cuts[s->n] = m;
            for (uint32_t a = 1; a < s->n; a++)         /* sort the inner cuts */
                for (uint32_t c2 = a; c2 > 1 && cuts[c2 - 1] > cuts[c2]; c2--) {
                    uint32_t t = cuts[c2]; cuts[c2] = cuts[c2 - 1]; cuts[c2 - 1] = t;
                }
        }
        /* primitive ids are opaque to the PE: one batch in four starts at a random 32-bit base (wrapping) */
        uint32_t base = rng_below(&r, 4) == 0 ? rng_u32(&r) : 0;
        for (uint32_t j = 0; j < s->n; j++) {
            uint32_t c = cuts[j + 1] - cuts[j];
            s->cnt[b * s->n + j] = c;
            s->ent[b * s->n + j] = calloc(c ? c : 1, sizeof(pe_entry_t));
            for (uint32_t i = 0; i < c; i++) {
                s->ent[b * s->n + j][i].prim = base + cuts[j] + i;
                s->ent[b * s->n + j][i].mask = gen_mask(&r, s->n, s->k, kind);
            }
        }
    }
    /* the expectation, straight from the SPEC 4.2 invariant */
    for (uint32_t b = 0; b < s->B; b++) {
        s->exp[b] = malloc((sizes[b] ? sizes[b] : 1) * sizeof(uint32_t));
        for (uint32_t j = 0; j < s->n; j++)
            for (uint32_t i = 0; i < s->cnt[b * s->n + j]; i++)
                if (s->ent[b * s->n + j][i].mask & (1ull << s->k)) s->exp[b][s->exp_n[b]++] = s->ent[b * s->n + j][i].prim;
    }
    int o2 = snprintf(s->desc, sizeof s->desc, "N=%u gpu_id=%u topo=%s runahead=%u batches=%u sizes=", s->n, s->k,
                      pe_topo_name(s->topo), s->ra, s->B);
    for (uint32_t b = 0; b < s->B && o2 < (int)sizeof s->desc - 40; b++)
        o2 += snprintf(s->desc + o2, sizeof s->desc - (size_t)o2, "%s%u", b ? "," : "", sizes[b]);
    snprintf(s->desc + o2, sizeof s->desc - (size_t)o2, " in_gap=%u out_stall=%u tx_stall=%u/%u rx_burst=%u", s->in_gap,
             s->out_stall, s->tx_stall[0], s->tx_stall[1], s->rx_burst);
}

/* The golden model's exchange on the same data must give GPU k exactly the expectation. */
int pe_scen_golden_check(const pe_scen_t *s, uint64_t seed, char *why, size_t whylen)
{
    pe_input_t in;
    memset(&in, 0, sizeof in);
    in.n_gpus = s->n;
    in.n_batches = s->B;
    in.entries = (const pe_entry_t *const *)s->ent;
    in.counts = s->cnt;
    in.runahead = s->ra;
    in.send_rate = 16 + (uint32_t)(seed % 3);    /* the received lists do not depend on timing: keep it fast */
    in.cp_cost = 0;
    net_t net;
    if (net_init(&net, s->topo == PE_TOPO_HUB ? NET_HUB : NET_LINE, s->n, 1 + (uint32_t)(seed % 2), NULL, NULL)) {
        snprintf(why, whylen, "net_init failed");
        return -1;
    }
    pe_result_t res;
    int rc = pe_run(&in, &net, &res);
    if (rc) snprintf(why, whylen, "pe_run: %.400s", res.report);
    for (uint32_t b = 0; b < s->B && !rc; b++) {
        const pe_list_t *l = &res.recv[(size_t)b * s->n + s->k];
        if (l->n != s->exp_n[b] || (l->n && memcmp(l->prims, s->exp[b], l->n * sizeof(uint32_t)))) {
            snprintf(why, whylen, "pe_run gives GPU %u %zu primitives in batch %u, the expectation %u (or they differ)",
                     s->k, l->n, b, s->exp_n[b]);
            rc = -1;
        }
    }
    pe_result_free(&res, s->B * s->n);
    net_free(&net);
    return rc;
}

/* append the flits from GPUs j in [j0, j1) of batch b for GPU k */
static void env_segment(const pe_scen_t *s, rng_t *r, uint64_t *made, uint64_t drop_at, pe_lq_t *q, uint32_t b, uint32_t j0,
                        uint32_t j1, uint64_t now)
{
    uint64_t t = now + rng_below(r, s->react_max + 1);
    for (uint32_t j = j0; j < j1; j++) {
        const pe_entry_t *e = s->ent[b * s->n + j];
        for (uint32_t i = 0; i < s->cnt[b * s->n + j]; i++) {
            if (!(e[i].mask & (1ull << s->k))) continue;
            if (++*made != drop_at) lq_push(q, flit_make(FLIT_TYPE_PRIM, j, s->k, b, e[i].prim), t);   /* test hook */
            if (!rng_chance(r, s->rx_burst, 100)) t += 1 + rng_below(r, s->rx_gap_max);
        }
        lq_push(q, flit_make(FLIT_TYPE_LAST, j, FLIT_DST_BCAST, b, s->cnt[b * s->n + j]), t);
        if (!rng_chance(r, s->rx_burst, 100)) t += 1 + rng_below(r, s->rx_gap_max);
    }
}

static void env_release(const pe_scen_t *s, rng_t *r, pe_env_t *e, uint64_t now)
{
    if (s->n == 1) return;
    if (s->topo == PE_TOPO_LINE) {
        for (;;) {
            int moved = 0;
            uint32_t b = e->rel[0];
            if (b < s->B && (b == 0 || s->k == 0 ||
                             (e->dut_last[0] >= b && e->rel[1] >= b && now >= e->seg_end[1][b - 1]))) {
                env_segment(s, r, &e->prims_made, e->drop_at, &e->q[0], b, 0, s->k, now);
                e->seg_end[0][b] = e->q[0].last_t;
                e->rel[0]++;
                moved = 1;
            }
            b = e->rel[1];
            if (b < s->B && (s->k == s->n - 1 || (e->dut_last[1] > b && e->rel[0] > b && now >= e->seg_end[0][b]))) {
                env_segment(s, r, &e->prims_made, e->drop_at, &e->q[1], b, s->k + 1, s->n, now);
                e->seg_end[1][b] = e->q[1].last_t;
                e->rel[1]++;
                moved = 1;
            }
            if (!moved) break;
        }
    } else {
        for (;;) {
            uint32_t sg = e->rel[0], b = sg / 2;
            if (b >= s->B) break;
            int ok;
            if (sg % 2 == 0) ok = b == 0 || (e->dut_last[0] >= b && now >= e->seg_end[0][sg - 1]);
            else ok = e->dut_last[0] > b && now >= e->seg_end[0][sg - 1];
            if (!ok) break;
            if (sg % 2 == 0) env_segment(s, r, &e->prims_made, e->drop_at, &e->q[0], b, 0, s->k, now);
            else env_segment(s, r, &e->prims_made, e->drop_at, &e->q[0], b, s->k + 1, s->n, now);
            e->seg_end[0][sg] = e->q[0].last_t;
            e->rel[0]++;
        }
    }
}

static int env_done(const pe_scen_t *s, const pe_env_t *e)
{
    if (s->n == 1) return 1;
    if (s->topo == PE_TOPO_LINE) return e->rel[0] == s->B && e->rel[1] == s->B && !e->q[0].n && !e->q[1].n;
    return e->rel[0] == 2 * s->B && !e->q[0].n;
}

static int port_of(const pe_scen_t *s, uint32_t t) { return s->topo == PE_TOPO_HUB ? 0 : (t < s->k ? 0 : 1); }

static int tx_check(const pe_scen_t *s, pe_env_t *tc, int p, uint64_t f, char *why, size_t wl)
{
    uint32_t b = tc->txb[p];
    if (flit_src(f) != s->k) { snprintf(why, wl, "tx%d flit from source %u, expected %u", p, flit_src(f), s->k); return -1; }
    if (b >= s->B) { snprintf(why, wl, "tx%d sends after the last batch's LAST", p); return -1; }
    if (flit_tag(f) != (b & 0xffff)) { snprintf(why, wl, "tx%d flit tag %u, expected batch %u", p, flit_tag(f), b); return -1; }
    const pe_entry_t *e = s->ent[b * s->n + s->k];
    uint32_t cnt = s->cnt[b * s->n + s->k];
    if (flit_type(f) == FLIT_TYPE_PRIM) {
        uint32_t t = flit_dst(f);
        if (t >= s->n || t == s->k || port_of(s, t) != p) {
            snprintf(why, wl, "tx%d PRIM to GPU %u: wrong destination/port (N=%u, gpu_id=%u, %s)", p, t, s->n, s->k, pe_topo_name(s->topo));
            return -1;
        }
        uint32_t i = tc->pos[t];
        while (i < cnt && !(e[i].mask & (1ull << t))) i++;
        if (i == cnt) { snprintf(why, wl, "tx%d PRIM id %u to GPU %u: nothing (more) to send there in batch %u", p, flit_payload(f), t, b); return -1; }
        if (e[i].prim != flit_payload(f)) {
            snprintf(why, wl, "tx%d PRIM to GPU %u batch %u: id %u, expected %u (chunk order)", p, t, b, flit_payload(f), e[i].prim);
            return -1;
        }
        tc->pos[t] = i + 1;
        return 0;
    }
    if (flit_type(f) != FLIT_TYPE_LAST || flit_dst(f) != FLIT_DST_BCAST) { snprintf(why, wl, "tx%d flit of bad type/destination", p); return -1; }
    int need = s->topo == PE_TOPO_HUB ? (p == 0 && s->n > 1) : (p == 0 ? s->k > 0 : s->k + 1 < s->n);
    if (!need) { snprintf(why, wl, "tx%d LAST on a port without a neighbour", p); return -1; }
    if (flit_payload(f) != cnt) { snprintf(why, wl, "tx%d LAST(batch %u) payload %u, chunk count %u", p, b, flit_payload(f), cnt); return -1; }
    for (uint32_t t = 0; t < s->n; t++) {
        if (t == s->k || port_of(s, t) != p) continue;
        for (uint32_t i = tc->pos[t]; i < cnt; i++)
            if (e[i].mask & (1ull << t)) {
                snprintf(why, wl, "tx%d LAST(batch %u) before PRIM id %u to GPU %u", p, b, e[i].prim, t);
                return -1;
            }
        tc->pos[t] = 0;
    }
    tc->txb[p]++;
    return 0;
}


/* ------------------------------------------------------------------------------------------ driver */
void pe_env_init(pe_env_t *e, const pe_scen_t *s, uint64_t seed, uint32_t idx, uint64_t drop_at)
{
    memset(e, 0, sizeof *e);
    e->s = s;
    e->drop_at = drop_at;
    rng_seed(&e->r, pe_scen_seed(seed, idx) ^ 0x5851F42D4C957F2Dull);
}

void pe_env_free(pe_env_t *e)
{
    for (int p = 0; p < 2; p++) free(e->q[p].v);
    memset(e, 0, sizeof *e);
}

void pe_env_drive(pe_env_t *e, uint64_t cycle, pe_hw_in_t *in)
{
    const pe_scen_t *s = e->s;
    in->cfg.n_gpus = s->n;
    in->cfg.gpu_id = s->k;
    in->cfg.topo = s->topo;
    in->cfg.runahead = s->ra;
    if (e->in_accepted) {
        in->in_valid = 0;
        e->in_accepted = 0;
    }
    env_release(s, &e->r, e, cycle);
    for (int p = 0; p < 2; p++) {
        in->rx_valid[p] = e->q[p].n && e->q[p].v[e->q[p].head].t <= cycle;
        in->rx_flit[p] = e->q[p].n ? e->q[p].v[e->q[p].head].flit : 0;
        in->tx_ready[p] = !rng_chance(&e->r, s->tx_stall[p], 100);
    }
    if (!in->in_valid && e->ib < s->B && !rng_chance(&e->r, s->in_gap, 100)) {
        uint32_t cnt = s->cnt[e->ib * s->n + s->k];
        in->in_valid = 1;
        in->in_tag = e->ib & 0xffff;
        in->in_end = e->ii == cnt;
        in->in_prim_id = e->ii == cnt ? cnt : s->ent[e->ib * s->n + s->k][e->ii].prim;
        in->in_mask = e->ii == cnt ? 0 : s->ent[e->ib * s->n + s->k][e->ii].mask;
    }
    in->out_ready = !rng_chance(&e->r, s->out_stall, 100);
}

int pe_env_observe(pe_env_t *e, const pe_hw_in_t *in, const pe_hw_out_t *m, char *why, size_t wl)
{
    const pe_scen_t *s = e->s;
    if (in->in_valid && m->in_ready) {
        e->in_accepted = 1;
        if (in->in_end) { e->ib++; e->ii = 0; } else e->ii++;
    }
    for (int p = 0; p < 2; p++) {
        if (in->rx_valid[p] && m->rx_ready[p]) {
            e->q[p].head++;
            e->q[p].n--;
        }
        if (m->tx_valid[p] && in->tx_ready[p]) {
            if (tx_check(s, e, p, m->tx_flit[p], why, wl)) return -1;
            if (flit_type(m->tx_flit[p]) == FLIT_TYPE_LAST) e->dut_last[p]++;
        }
    }
    if (m->out_valid && in->out_ready) {
        uint32_t ob = e->ob, oi = e->oi;
        why[0] = 0;
        if (ob >= s->B) snprintf(why, wl, "output after the last batch's end-of-batch");
        else if (m->out_tag != (ob & 0xffff)) snprintf(why, wl, "output tag %u, expected batch %u", m->out_tag, ob);
        else if (m->out_eob && oi != s->exp_n[ob])
            snprintf(why, wl, "end-of-batch %u after %u primitives, expected %u (SPEC 4.2; next expected id %u)", ob, oi,
                     s->exp_n[ob], s->exp[ob][oi]);
        else if (!m->out_eob && oi >= s->exp_n[ob])
            snprintf(why, wl, "extra primitive %u in batch %u (SPEC 4.2: expected %u, then end-of-batch)", m->out_prim_id, ob,
                     s->exp_n[ob]);
        else if (!m->out_eob && m->out_prim_id != s->exp[ob][oi])
            snprintf(why, wl, "batch %u position %u: primitive %u, expected %u (SPEC 4.2 order)", ob, oi, m->out_prim_id,
                     s->exp[ob][oi]);
        if (why[0]) return -1;
        if (m->out_eob) { e->ob++; e->oi = 0; } else e->oi++;
    }
    if (m->err) {
        snprintf(why, wl, "err_o: the PE flagged a protocol error on legal traffic");
        return -1;
    }
    return 0;
}

int pe_env_finished(const pe_env_t *e, const pe_hw_out_t *m)
{
    const pe_scen_t *s = e->s;
    return e->ob == s->B && e->ib == s->B && env_done(s, e) && !m->busy;
}

int pe_env_final_check(const pe_env_t *e, char *why, size_t wl)
{
    const pe_scen_t *s = e->s;
    for (int p = 0; p < 2; p++) {
        int need = s->topo == PE_TOPO_HUB ? (p == 0 && s->n > 1) : (p == 0 ? s->k > 0 : s->k + 1 < s->n);
        if (need && e->txb[p] != s->B) {
            snprintf(why, wl, "tx%d sent LAST for %u of %u batches", p, e->txb[p], s->B);
            return -1;
        }
    }
    return 0;
}
