/* CD system of cycle models: N x (P2G -> PE) over the link model. See cdsys.h and docs/system-cosim.md. */
#include "sys/cdsys.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cd/cd_adapter_hw.h"
#include "pe/pe_ref.h"
#include "link/flit.h"
#include "p2g/p2g_merge_hw.h"

cdsys_params_t cdsys_params_default(uint32_t n_gpus, net_topo_t topo)
{
    cdsys_params_t p;
    memset(&p, 0, sizeof p);
    p.n_gpus = n_gpus;
    p.topo = topo;
    p.latency = 4;
    p.hub_rate = 2;
    p.max_gpus = n_gpus <= 16 ? 16 : 64;
    p.p2g_rows = n_gpus <= 16 ? 2 : 4;
    p.tag_bits = 16;
    p.pe_lq_depth = 8;
    p.pe_rq_depth = 8;
    p.seed = 1;
    return p;
}

/* ------------------------------------------------------------------ default units: C cycle models */
typedef struct {
    p2g_hw_t *p2g;
    p2g_merge_hw_t *mg; /* P > 1 P2G units per GPU: the cycle model of rtl/p2g_merge.v (instead of p2g) */
    pe_hw_t *pe;        /* the PE cycle model (default) */
    pe_hw_dec_t *dec;   /* its decisions of this cycle (comb, then the clock edge with the same inputs) */
    peref_t *ref;       /* or the behavioural reference PE (params.pe_ref) */
    sx_hw_t *sx;        /* or the stream PE (params.stream, gpupd-stream) */
    struct sxo *sout;   /* its release events of this cycle */
    uint32_t *ids_max, *occ_max;
    uint32_t n;
} models_t;

/* stream PE release events of one cycle: a released primitive, the release of (tag, src) complete, end of batch */
enum { SXEV_PRIM = 0, SXEV_SRC_DONE = 1, SXEV_EOB = 2 };
typedef struct {
    uint8_t kind, src;
    uint32_t tag, id;
} sxev_t;
typedef struct sxo {
    uint32_t n_ev;
    sxev_t ev[SX_HW_MAX_K + 2];
} sxo_t;

/* the stream PE's inputs are the PE's (same ports; one P2G beat per cycle from the adapter: lane 0) */
static void to_sin(const pe_hw_in_t *e, sx_hw_in_t *x)
{
    memset(x, 0, sizeof *x);
    x->cfg.n_gpus = e->cfg.n_gpus;
    x->cfg.gpu_id = e->cfg.gpu_id;
    x->cfg.topo = e->cfg.topo == PE_TOPO_HUB ? SX_TOPO_HUB : SX_TOPO_LINE;
    x->in[0].valid = e->in_valid;
    x->in[0].end = e->in_end;
    x->in[0].tag = e->in_tag;
    x->in[0].id = e->in_prim_id;
    x->in[0].mask = e->in_mask;
    for (int k = 0; k < 2; k++) {
        x->tx_ready[k] = e->tx_ready[k];
        x->rx_valid[k] = e->rx_valid[k];
        x->rx_flit[k] = e->rx_flit[k];
    }
    x->out_ready = e->out_ready;
}

/* the stream PE's outputs o of GPU g as the PE's ports (eout) and this cycle's release events (m->sout[g]) */
static void sx_conv(models_t *m, uint32_t g, uint32_t k, const pe_hw_in_t *ein, const sx_hw_out_t *o, pe_hw_out_t *eout)
{
    memset(eout, 0, sizeof *eout);
    eout->in_ready = o->in_ready[0];
    for (int p = 0; p < 2; p++) {
        eout->tx_valid[p] = o->tx_valid[p];
        eout->tx_flit[p] = o->tx_flit[p];
        eout->rx_ready[p] = o->rx_ready[p];
    }
    eout->busy = o->busy;
    eout->err = o->err;
    /* this cycle's release: ids of (out_tag, rel_src), then its completion; an eob beat completes the last
     * source and the batch */
    sxo_t *v = &m->sout[g];
    v->n_ev = 0;
    if (o->out_valid[0] && ein->out_ready && !o->out_eob)
        for (uint32_t j = 0; j < k && o->out_valid[j]; j++)
            v->ev[v->n_ev++] = (sxev_t){SXEV_PRIM, (uint8_t)o->rel_src, o->out_tag, o->out_id[j]};
    if (o->rel_last) v->ev[v->n_ev++] = (sxev_t){SXEV_SRC_DONE, (uint8_t)o->rel_src, o->out_tag, 0};
    if (o->out_eob && o->out_valid[0] && ein->out_ready) v->ev[v->n_ev++] = (sxev_t){SXEV_EOB, 0, o->out_tag, 0};
}

/* reorder statistics of GPU g after a clock edge: slots held (occ) and, when they could be a new maximum, ids */
static void sx_stats(models_t *m, uint32_t g, uint32_t occ, uint32_t (*ids_fn)(void *, uint32_t), void *ctx)
{
    if (occ > m->occ_max[g]) m->occ_max[g] = occ;
    if (occ > m->ids_max[g] && ids_fn) {      /* ids <= slots: count them only when they could be a new maximum */
        uint32_t ids = ids_fn(ctx, g);
        if (ids > m->ids_max[g]) m->ids_max[g] = ids;
    }
}
static uint32_t m_held_ids(void *c, uint32_t g) { return sx_hw_held_ids(&((models_t *)c)->sx[g]); }

/* the exchanger of GPU g (PE cycle model, reference PE or stream PE): outputs of this cycle, clock edge */
static void unit_comb(models_t *m, uint32_t g, const pe_hw_in_t *ein, pe_hw_out_t *eout)
{
    if (m->sx) {
        sx_hw_in_t x;
        sx_hw_out_t o;
        to_sin(ein, &x);
        sx_hw_comb(&m->sx[g], &x, &o);
        sx_conv(m, g, m->sx[g].prm.k, ein, &o, eout);
    } else if (m->ref) {
        peref_comb(&m->ref[g], ein, eout);
    } else {
        pe_hw_comb_dec(&m->pe[g], ein, eout, &m->dec[g]);
    }
}
static int unit_clock(models_t *m, uint32_t g, const pe_hw_in_t *ein)
{
    if (m->sx) {
        sx_hw_in_t x;
        to_sin(ein, &x);
        sx_hw_clock(&m->sx[g], &x);
        sx_stats(m, g, m->sx[g].occ, m_held_ids, m);
        return 0;
    }
    if (m->ref) {
        peref_clock(&m->ref[g], ein);
        return m->ref[g].err ? -1 : 0;
    }
    pe_hw_clock_dec(&m->pe[g], ein, &m->dec[g]);   /* ein: the inputs unit_comb saw (cdsys_run does not change them) */
    return 0;
}

static int m_comb(void *c, uint32_t g, uint64_t cy, const p2g_hw_in_t *pin, p2g_hw_out_t *pout, const cd_adapter_hw_in_t *ain,
                  const cd_adapter_hw_out_t *aout, const pe_hw_in_t *ein, pe_hw_out_t *eout)
{
    (void)cy;
    (void)ain;
    (void)aout;
    models_t *m = c;
    p2g_hw_comb(&m->p2g[g], pin, pout);
    unit_comb(m, g, ein, eout);
    return 0;
}
static int m_clock(void *c, uint32_t g, uint64_t cy, const p2g_hw_in_t *pin, const pe_hw_in_t *ein)
{
    (void)cy;
    models_t *m = c;
    p2g_hw_clock(&m->p2g[g], pin);
    return unit_clock(m, g, ein);
}
static int m_pe_quiet(void *c, uint32_t g, const pe_hw_in_t *in)
{
    models_t *m = c;
    if (m->sx) {
        sx_hw_in_t x;
        to_sin(in, &x);
        return sx_hw_quiet(&m->sx[g], &x.cfg);
    }
    return m->ref ? peref_quiet(&m->ref[g]) : pe_hw_quiet(&m->pe[g], &in->cfg);
}
static const char *m_report(void *c)
{
    (void)c;
    return "reference PE: internal error (a flit for a batch outside its window, or out of memory)";
}

/* ------------------------------------------------------------------ harness state */
typedef struct {
    uint64_t *buf;
    size_t head, n, cap;
} q64_t;

static int q_push(q64_t *q, uint64_t v)
{
    if (q->n == q->cap) {
        size_t nc = q->cap ? 2 * q->cap : 16;
        uint64_t *nb = malloc(nc * sizeof *nb);
        if (!nb) return -1;
        for (size_t i = 0; i < q->n; i++) nb[i] = q->buf[(q->head + i) % q->cap];
        free(q->buf);
        q->buf = nb;
        q->cap = nc;
        q->head = 0;
    }
    q->buf[(q->head + q->n) % q->cap] = v;
    q->n++;
    return 0;
}

typedef struct {
    /* feeder */
    uint32_t fb, fi;
    int f_started;
    uint64_t f_start;
    int have_cfg, want_cfg;
    uint32_t cur_cfg;
    p2g_hw_in_t pin;
    p2g_hw_out_t pout;
    /* bounded CLIP -> P2G queue (params.cp_queue): cycle the P2G took primitive i of the chunk, at i % cp_queue;
     * the chunk's accumulated stall; effective CLIP output cycles of primitives fi .. fi+effn-1 */
    uint64_t *acc;
    uint64_t shift;
    uint64_t effw[CDSYS_MAX_P2G];
    uint32_t effn;
    /* P > 1 P2G units (params.p2g_units): the ports of the GPU's P2G merge (p2g_merge_hw.h) */
    p2g_merge_hw_in_t min;
    p2g_merge_hw_out_t mout;
    uint32_t fed_now;       /* slots the merge takes on this cycle's edge */
    /* in_order_front: rendering of batch pend_b waits for the chunk being fed */
    int pend;
    uint32_t pend_b;
    /* stream: the piece of the receive list of batch ob since the last completed source starts at rel_start;
     * releases (b, s, recv positions lo..hi) held back behind the chunk being fed (in_order_front) */
    uint32_t rel_start;
    uint32_t (*relq)[4];
    size_t relq_n, relq_cap;
    /* adapter (the cycle model of rtl/cd_adapter.v) */
    cd_adapter_hw_t ad;
    cd_adapter_hw_in_t ain;
    cd_adapter_hw_out_t aout;
    /* P2G output checker: chunk ab, a_cnt of its primitives out */
    uint32_t ab, a_cnt;
    /* RX buffers */
    q64_t rx[2];
    pe_hw_in_t ein;
    pe_hw_out_t eout;
    int pe_quiet;
    /* per-GPU skip: asleep = not evaluated (nothing of it can change) until a flit arrives or cycle `wake` */
    int asleep, may_sleep;
    uint64_t wake;
    /* collector */
    uint32_t ob;
    uint32_t opos;
    uint64_t tx_flits, tx_prim, rx_prim, rx_last, tx_credit, rx_credit;
} gpu_t;

typedef struct {
    const cdsys_params_t *p;
    const cdsys_work_t *w;
    cdsys_result_t *res;
    net_t *net;
    gpu_t *g;
    uint64_t cycle;
    uint64_t s0;            /* net step before cycle 0 */
    int failed;
    uint64_t last_progress;
    uint64_t prims_delivered;
    size_t *recv_cap;
    models_t *M;
    int gpu_skip;           /* GPUs sleep on their own (see gpu_may_sleep) */
} sim_t;

static void failf(sim_t *s, int gpu, int64_t b, int64_t prim, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void failf(sim_t *s, int gpu, int64_t b, int64_t prim, const char *fmt, ...)
{
    if (s->failed) return;
    s->failed = 1;
    s->res->fail_gpu = gpu;
    s->res->fail_batch = b;
    s->res->fail_prim = prim;
    s->res->fail_cycle = s->cycle;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->res->report, sizeof s->res->report, fmt, ap);
    va_end(ap);
}

/* stall draws: a pure function of (seed, kind, unit, port, cycle) */
static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint32_t draw(uint64_t seed, uint32_t kind, uint32_t unit, uint64_t cycle)
{
    return (uint32_t)(mix(seed ^ mix(((uint64_t)kind << 56) ^ ((uint64_t)unit << 40) ^ cycle)) % 1000);
}
static int stall(const sim_t *s, uint32_t pm, uint32_t kind, uint32_t unit)
{
    return pm && draw(s->p->seed, kind, unit, s->cycle) < pm;
}

static int h_link_stall(void *u, uint32_t link, uint64_t step)
{
    const sim_t *s = u;
    return draw(s->p->seed, 7, link, step) < s->p->link_stall_pm;
}
static uint32_t h_link_jitter(void *u, uint32_t link, uint64_t step)
{
    const sim_t *s = u;
    return (uint32_t)(mix(s->p->seed ^ mix((8ull << 56) ^ ((uint64_t)link << 40) ^ step)) % (s->p->link_jitter + 1));
}

static void deliver_port(void *u, uint32_t gpu, uint32_t port, uint64_t flit)
{
    sim_t *s = u;
    if (flit_type(flit) == FLIT_TYPE_PRIM && s->p->fault_drop_prim && ++s->prims_delivered == s->p->fault_drop_prim) {
        s->g[gpu].rx_prim++;        /* counted as delivered: the accounting check does not see the loss */
        return;
    }
    if (q_push(&s->g[gpu].rx[port & 1], flit)) failf(s, (int)gpu, -1, -1, "out of memory");
    if (s->g[gpu].rx[port & 1].n > s->res->rx_buf_high) s->res->rx_buf_high = s->g[gpu].rx[port & 1].n;
    if (flit_type(flit) == FLIT_TYPE_PRIM) s->g[gpu].rx_prim++;
    else if (flit_type(flit) == FLIT_TYPE_CREDIT) s->g[gpu].rx_credit++;
    else s->g[gpu].rx_last++;
    s->last_progress = s->cycle;
}

static size_t slot(const sim_t *s, uint32_t b, uint32_t g) { return (size_t)b * s->p->n_gpus + g; }

static int cd_done_count(const sim_t *s, uint32_t g) { return (int)s->g[g].ob; }

/* may CP of batch b start at GPU g? */
static int cp_may_start(const sim_t *s, uint32_t g, uint32_t b)
{
    if (b == 0) return 1;
    int bar = s->w->barrier && s->w->barrier[b];
    int64_t need = (int64_t)b - (s->p->runahead && !bar ? 2 : 1);   /* CD of batch `need` must be complete */
    if (s->p->stream && !bar) need = (int64_t)b - (s->p->sx_live ? s->p->sx_live : CDSYS_SX_LIVE_DEFAULT);  /* live batches */
    return need < 0 || cd_done_count(s, g) > need;
}

static int push_recv(sim_t *s, size_t sl, uint32_t v)
{
    cdsys_result_t *r = s->res;
    if (r->recv_n[sl] == s->recv_cap[sl]) {
        size_t nc = s->recv_cap[sl] ? 2 * s->recv_cap[sl] : 32;
        uint32_t *nv = realloc(r->recv[sl], nc * sizeof *nv);
        if (!nv) return -1;
        r->recv[sl] = nv;
        s->recv_cap[sl] = nc;
    }
    r->recv[sl][r->recv_n[sl]++] = v;
    return 0;
}

/* the end of batch b at GPU g (PE output): the timing model renders it now (on_cd_done) */
static void cd_done_hook(sim_t *s, uint32_t gi, uint32_t b)
{
    size_t sl = slot(s, b, gi);
    if (s->p->on_cd_done && s->p->on_cd_done(s->p->hook_user, gi, b, s->s0 + s->cycle, s->res->recv[sl], s->res->recv_n[sl]))
        failf(s, (int)gi, b, -1, "GPU %u batch %u: the CD-done hook failed", gi, b);
}

/* stream: the release of (b, src) at GPU gi is complete; its primitives are recv[b][lo .. hi) */
static void release_call(sim_t *s, uint32_t gi, uint32_t b, uint32_t src, uint32_t lo, uint32_t hi)
{
    size_t sl = slot(s, b, gi);
    if (s->p->on_release && s->p->on_release(s->p->hook_user, gi, b, src, s->s0 + s->cycle, s->res->recv[sl] + lo, hi - lo))
        failf(s, (int)gi, b, -1, "GPU %u batch %u source %u: the release hook failed", gi, b, src);
}
static void release_piece(sim_t *s, uint32_t gi, uint32_t b, uint32_t src, uint32_t lo, uint32_t hi)
{
    gpu_t *g = &s->g[gi];
    int ahead = s->p->project_ahead && g->fb < s->w->n_batches && cp_may_start(s, gi, g->fb);
    if (s->p->in_order_front && ((g->fb < s->w->n_batches && g->f_started) || g->relq_n || ahead)) {
        if (g->relq_n == g->relq_cap) {
            size_t nc = g->relq_cap ? 2 * g->relq_cap : 16;
            uint32_t (*nq)[4] = realloc(g->relq, nc * sizeof *nq);
            if (!nq) { failf(s, (int)gi, b, -1, "out of memory"); return; }
            g->relq = nq;
            g->relq_cap = nc;
        }
        g->relq[g->relq_n][0] = b;
        g->relq[g->relq_n][1] = src;
        g->relq[g->relq_n][2] = lo;
        g->relq[g->relq_n][3] = hi;
        g->relq_n++;
        return;
    }
    release_call(s, gi, b, src, lo, hi);
}
static void release_flush(sim_t *s, uint32_t gi)
{
    gpu_t *g = &s->g[gi];
    for (size_t i = 0; i < g->relq_n && !s->failed; i++)
        release_call(s, gi, g->relq[i][0], g->relq[i][1], g->relq[i][2], g->relq[i][3]);
    g->relq_n = 0;
}

/* stream: this cycle's release events of GPU gi's stream PE (primitives, (batch, source) complete, end of
 * batch): compared with the golden lists, recorded, handed to the timing model */
static void stream_out(sim_t *s, uint32_t gi)
{
    gpu_t *g = &s->g[gi];
    const cdsys_work_t *w = s->w;
    const sxo_t *o = &s->M->sout[gi];
    for (uint32_t i = 0; i < o->n_ev && !s->failed; i++) {
        const sxev_t *e = &o->ev[i];
        uint32_t b = g->ob;
        s->last_progress = s->cycle;
        if (b >= w->n_batches) {
            failf(s, (int)gi, b, -1, "GPU %u: the stream PE released tag %u after the last batch", gi, e->tag);
            return;
        }
        size_t sl = slot(s, b, gi);
        if (e->tag != (b & 0xffff)) {
            failf(s, (int)gi, b, -1, "GPU %u: the stream PE released tag %u while batch %u is being released", gi, e->tag, b);
            return;
        }
        if (e->kind == SXEV_PRIM) {
            if (w->golden && (g->opos >= w->golden_n[sl] || w->golden[sl][g->opos] != e->id)) {
                failf(s, (int)gi, b, e->id, "GPU %u batch %u position %u: the stream PE released primitive %u (source %u); "
                      "the golden model has %s%u", gi, b, g->opos, e->id, e->src,
                      g->opos >= w->golden_n[sl] ? "nothing: its list ends at " : "primitive ",
                      g->opos >= w->golden_n[sl] ? w->golden_n[sl] : w->golden[sl][g->opos]);
                return;
            }
            if (push_recv(s, sl, e->id)) { failf(s, (int)gi, b, -1, "out of memory"); return; }
            g->opos++;
        } else if (e->kind == SXEV_SRC_DONE) {
            release_piece(s, gi, b, e->src, g->rel_start, s->res->recv_n[sl]);
            g->rel_start = s->res->recv_n[sl];
        } else {
            if (w->golden && g->opos != w->golden_n[sl]) {
                failf(s, (int)gi, b, -1, "GPU %u batch %u: end of batch after %u primitives; the golden model has %u", gi, b,
                      g->opos, w->golden_n[sl]);
                return;
            }
            s->res->cd_done[sl] = s->cycle;
            g->ob++;
            g->opos = 0;
            g->rel_start = 0;
        }
    }
}

/* the cycle at which primitive fi + j of the chunk being fed leaves CLIP (bounded queue: see cdsys.h) */
static uint64_t eff_at(sim_t *s, uint32_t gi, uint32_t j)
{
    gpu_t *g = &s->g[gi];
    while (g->effn <= j) {
        uint32_t i = g->fi + g->effn;
        uint64_t base = g->f_start + s->w->prims[slot(s, g->fb, gi)][i].ready, e = base + g->shift;
        uint32_t Q = s->p->cp_queue;
        if (Q && i >= Q && g->acc[i % Q] + 1 > e) e = g->acc[i % Q] + 1;
        g->shift = e - base;
        g->effw[g->effn++] = e;
    }
    return g->effw[j];
}

/* a primitives of the chunk were taken by the P2G in this cycle */
static void fed(sim_t *s, gpu_t *g, uint32_t a)
{
    for (uint32_t k = 0; k < a; k++)
        if (s->p->cp_queue) g->acc[(g->fi + k) % s->p->cp_queue] = s->cycle;
    g->fi += a;
    uint32_t keep = g->effn > a ? g->effn - a : 0;
    for (uint32_t k = 0; k < keep; k++) g->effw[k] = g->effw[k + a];
    g->effn = keep;
}

/* feeder: start chunks (at most one per cycle: its descriptor goes to the adapter), choose this cycle's P2G
 * input */
static void feed(sim_t *s, uint32_t gi)
{
    gpu_t *g = &s->g[gi];
    const cdsys_work_t *w = s->w;
    uint32_t N = s->p->n_gpus, B = w->n_batches;
    g->ain.desc_valid = 0;
    for (;;) {
        if (g->fb >= B) {
            if (g->relq_n) release_flush(s, gi);
            break;
        }
        if (!g->f_started) {
            int may = cp_may_start(s, gi, g->fb);
            if (s->p->project_ahead && g->relq_n && !may) release_flush(s, gi);  /* projection gated: render now */
            if (s->failed || g->ain.desc_valid || !cd_adapter_hw_desc_ready(&g->ad) || !may) break;
            g->f_started = 1;
            g->f_start = s->cycle;
            g->shift = 0;
            g->effn = 0;
            s->res->cp_start[slot(s, g->fb, gi)] = s->cycle;
            if (s->p->on_cp_start && s->p->on_cp_start(s->p->hook_user, gi, g->fb, s->s0 + s->cycle)) {
                failf(s, (int)gi, g->fb, -1, "GPU %u batch %u: the CP-start hook failed", gi, g->fb);
                break;
            }
            g->ain.desc_valid = 1;
            g->ain.desc_tag = g->fb & 0xffff;
            g->ain.desc_count = w->counts[slot(s, g->fb, gi)];
        }
        if (g->fi < w->counts[slot(s, g->fb, gi)]) break;
        /* chunk fully fed: the front end is done with it; then the rendering that waited behind it */
        if (s->p->on_cp_fed && s->p->on_cp_fed(s->p->hook_user, gi, g->fb, s->s0 + s->cycle, g->shift)) {
            failf(s, (int)gi, g->fb, -1, "GPU %u batch %u: the CP-fed hook failed", gi, g->fb);
            break;
        }
        g->fb++;
        g->fi = 0;
        g->f_started = 0;
        g->effn = 0;
        if (g->pend) {
            g->pend = 0;
            cd_done_hook(s, gi, g->pend_b);
            if (s->failed) break;
        }
        if (g->relq_n && !(s->p->project_ahead && g->fb < B && cp_may_start(s, gi, g->fb))) {
            release_flush(s, gi);
            if (s->failed) break;
        }
    }
    g->pin.in_valid = 0;
    g->want_cfg = 0;
    uint32_t P = s->p->p2g_units > 1 ? s->p->p2g_units : 1;
    if (P > 1) {
        /* the merge's input slots: primitives fi, fi+1, ... in order, while each is ready */
        memset(g->min.in_valid, 0, sizeof g->min.in_valid);
        g->min.cfg = g->pin.cfg;
        if (g->fb >= B || !g->f_started) return;
        uint32_t cnt = w->counts[slot(s, g->fb, gi)];
        for (uint32_t j = 0; j < P && g->fi + j < cnt; j++) {
            const cdsys_prim_t *pr = &w->prims[slot(s, g->fb, gi)][g->fi + j];
            if (!g->have_cfg || pr->cfg != g->cur_cfg) {
                if (j == 0) g->want_cfg = 1;
                break;
            }
            if (s->cycle < eff_at(s, gi, j) || stall(s, s->p->in_gap_pm, 1, gi * CDSYS_MAX_P2G + j)) break;
            g->min.in_valid[j] = 1;
            g->min.in[j] = pr->p;
            g->min.in[j].tag = g->fb & 0xffff;
            g->pin.in_valid = 1;
        }
        return;
    }
    if (g->fb < B && g->f_started) {
        const cdsys_prim_t *pr = &w->prims[slot(s, g->fb, gi)][g->fi];
        if (!g->have_cfg || pr->cfg != g->cur_cfg) {
            g->want_cfg = 1;
        } else if (s->cycle >= eff_at(s, gi, 0) && !stall(s, s->p->in_gap_pm, 1, gi)) {
            g->pin.in_valid = 1;
            g->pin.in = pr->p;
            g->pin.in.tag = g->fb & 0xffff;
        }
    }
    (void)N;
}

static void pe_inputs(sim_t *s, uint32_t gi)
{
    gpu_t *g = &s->g[gi];
    pe_hw_in_t *e = &g->ein;
    memset(e, 0, sizeof *e);
    e->cfg.n_gpus = s->p->n_gpus;
    e->cfg.gpu_id = gi;
    e->cfg.topo = s->p->topo == NET_HUB ? PE_TOPO_HUB : PE_TOPO_LINE;
    e->cfg.runahead = s->p->runahead ? 1 : 0;
    e->in_valid = g->aout.pe_valid;
    e->in_end = g->aout.pe_end;
    e->in_tag = g->aout.pe_tag;
    e->in_prim_id = g->aout.pe_prim_id;
    e->in_mask = g->aout.pe_mask;
    for (uint32_t k = 0; k < 2; k++) {
        e->tx_ready[k] = !stall(s, s->p->tx_stall_pm, 2, gi * 2 + k);
        if (g->rx[k].n && !stall(s, s->p->rx_stall_pm, 3, gi * 2 + k)) {
            e->rx_valid[k] = 1;
            e->rx_flit[k] = g->rx[k].buf[g->rx[k].head];
        }
    }
    e->out_ready = !stall(s, s->p->out_stall_pm, 4, gi);
}

/* the adapter's inputs from the P2G's and the PE's outputs of this cycle */
static void adapter_inputs(gpu_t *g)
{
    g->ain.p2g_valid = g->pout.out_valid;
    g->ain.p2g_tag = g->pout.out_tag;
    g->ain.p2g_prim_id = g->pout.out_prim_id;
    g->ain.p2g_mask = g->pout.out_mask;
    g->ain.pe_ready = g->eout.in_ready;
}

/* the handshakes of this cycle */
static void transfers(sim_t *s, uint32_t gi)
{
    gpu_t *g = &s->g[gi];
    const cdsys_work_t *w = s->w;
    const p2g_hw_out_t *po = &g->pout;
    pe_hw_out_t *eo = &g->eout;
    pe_hw_in_t *ei = &g->ein;
    uint32_t N = s->p->n_gpus;
    uint32_t P = s->p->p2g_units > 1 ? s->p->p2g_units : 1;
    if (P > 1) {
        uint32_t a = 0;     /* the in-order prefix of offered slots that the merge takes */
        while (a < P && g->min.in_valid[a] && g->mout.in_ready[a]) a++;
        g->fed_now = a;
        if (a) {
            fed(s, g, a);
            s->last_progress = s->cycle;
        }
    } else if (g->pin.in_valid && po->in_ready) {
        fed(s, g, 1);
        s->last_progress = s->cycle;
    }
    if (po->out_valid && g->pin.out_ready) {
        s->last_progress = s->cycle;
        while (g->ab < w->n_batches && g->a_cnt >= w->counts[slot(s, g->ab, gi)] && g->ab < g->fb) {
            g->ab++;        /* chunks whose primitives have all left the P2G (empty ones too) */
            g->a_cnt = 0;
        }
        if (g->ab >= w->n_batches || g->a_cnt >= w->counts[slot(s, g->ab, gi)]) {
            failf(s, (int)gi, g->ab, po->out_prim_id, "GPU %u: the P2G unit output primitive %u (tag %u) that no chunk expects "
                  "(batch %u, %u of its primitives already out)", gi, po->out_prim_id, po->out_tag, g->ab, g->a_cnt);
            return;
        }
        const cdsys_prim_t *pr = &w->prims[slot(s, g->ab, gi)][g->a_cnt];
        if (po->out_prim_id != pr->p.prim_id || po->out_tag != (g->ab & 0xffff) || po->out_mask != pr->mask) {
            failf(s, (int)gi, g->ab, pr->p.prim_id, "GPU %u batch %u: P2G unit output #%u is primitive %u tag %u mask 0x%" PRIx64
                  "; the golden model has primitive %u tag %u mask 0x%" PRIx64, gi, g->ab, g->a_cnt, po->out_prim_id,
                  po->out_tag, po->out_mask, pr->p.prim_id, g->ab & 0xffff, pr->mask);
            return;
        }
        s->res->p2g_masks_checked++;
        g->a_cnt++;
    }
    if (ei->in_valid && eo->in_ready) s->last_progress = s->cycle;
    for (uint32_t k = 0; k < 2; k++) {
        if (eo->tx_valid[k] && ei->tx_ready[k]) {
            if (net_inject_port(s->net, gi, k, eo->tx_flit[k])) {
                failf(s, (int)gi, flit_tag(eo->tx_flit[k]), -1, "GPU %u: PE sent flit 0x%016" PRIx64 " on port %u, which "
                      "cannot carry it (no such port, or the destination is on the other side)", gi, eo->tx_flit[k], k);
                return;
            }
            g->tx_flits++;
            g->tx_prim += flit_type(eo->tx_flit[k]) == FLIT_TYPE_PRIM;
            g->tx_credit += flit_type(eo->tx_flit[k]) == FLIT_TYPE_CREDIT;
            s->last_progress = s->cycle;
        }
        if (ei->rx_valid[k] && eo->rx_ready[k]) {
            q64_t *q = &g->rx[k];
            q->head = (q->head + 1) % q->cap;
            q->n--;
            s->last_progress = s->cycle;
        }
    }
    if (eo->out_valid && ei->out_ready) {
        s->last_progress = s->cycle;
        uint32_t b = g->ob;
        if (b >= w->n_batches) {
            failf(s, (int)gi, b, eo->out_eob ? -1 : (int64_t)eo->out_prim_id, "GPU %u: PE output %s (tag %u) after the last batch",
                  gi, eo->out_eob ? "end-of-batch" : "a primitive", eo->out_tag);
            return;
        }
        size_t sl = slot(s, b, gi);
        uint32_t tmask = s->p->tag_bits >= 32 ? 0xffffffffu : (1u << s->p->tag_bits) - 1;
        if ((eo->out_tag & tmask) != (b & tmask)) {
            failf(s, (int)gi, b, eo->out_eob ? -1 : (int64_t)eo->out_prim_id, "GPU %u: PE output tag %u while batch %u is being "
                  "output (%s)", gi, eo->out_tag, b, eo->out_eob ? "end-of-batch" : "primitive");
            return;
        }
        if (eo->out_eob) {
            if (w->golden && g->opos != w->golden_n[sl]) {
                failf(s, (int)gi, b, g->opos < w->golden_n[sl] ? (int64_t)w->golden[sl][g->opos] : -1,
                      "GPU %u batch %u: end of batch after %u primitives; the golden model has %u (first missing: primitive %u)",
                      gi, b, g->opos, w->golden_n[sl], g->opos < w->golden_n[sl] ? w->golden[sl][g->opos] : 0);
                return;
            }
            s->res->cd_done[sl] = s->cycle;
            g->ob++;
            g->opos = 0;
            if (s->p->in_order_front && g->fb == b + 1 && g->f_started) {
                g->pend = 1;        /* the projection of b+1 went first in this GPU's command stream */
                g->pend_b = b;
            } else {
                cd_done_hook(s, gi, b);
            }
        } else {
            if (w->golden && (g->opos >= w->golden_n[sl] || w->golden[sl][g->opos] != eo->out_prim_id)) {
                if (g->opos >= w->golden_n[sl])
                    failf(s, (int)gi, b, eo->out_prim_id, "GPU %u batch %u position %u: PE output primitive %u; the golden model's "
                          "list has only %u primitives (extra or duplicated)", gi, b, g->opos, eo->out_prim_id, w->golden_n[sl]);
                else
                    failf(s, (int)gi, b, eo->out_prim_id, "GPU %u batch %u position %u: PE output primitive %u; the golden model "
                          "has primitive %u", gi, b, g->opos, eo->out_prim_id, w->golden[sl][g->opos]);
                return;
            }
            if (push_recv(s, sl, eo->out_prim_id)) { failf(s, (int)gi, b, -1, "out of memory"); return; }
            g->opos++;
        }
    }
    if (s->M && s->M->sout) stream_out(s, gi);
    (void)N;
}

/* SPEC 4.2 invariant from the masks of the workload, independent of the golden lists */
static void check_invariant(sim_t *s)
{
    const cdsys_work_t *w = s->w;
    uint32_t N = s->p->n_gpus;
    for (uint32_t b = 0; b < w->n_batches && !s->failed; b++)
        for (uint32_t k = 0; k < N && !s->failed; k++) {
            size_t sl = slot(s, b, k), pos = 0;
            const uint32_t *l = s->res->recv[sl];
            uint32_t n = s->res->recv_n[sl];
            for (uint32_t j = 0; j < N && !s->failed; j++) {
                const cdsys_prim_t *e = w->prims[slot(s, b, j)];
                for (uint32_t i = 0; i < w->counts[slot(s, b, j)]; i++) {
                    if (!(e[i].mask >> k & 1)) continue;
                    if (pos >= n || l[pos] != e[i].p.prim_id) {
                        failf(s, (int)k, b, e[i].p.prim_id, "SPEC 4.2 invariant violated: GPU %u batch %u position %zu: expected "
                              "primitive %u (chunk of GPU %u), got %s%u", k, b, pos, e[i].p.prim_id, j,
                              pos >= n ? "nothing: list ends at " : "", pos >= n ? n : l[pos]);
                        break;
                    }
                    pos++;
                    s->res->prims_compared++;
                }
            }
            if (!s->failed && pos != n)
                failf(s, (int)k, b, l[pos], "SPEC 4.2 invariant violated: GPU %u batch %u received %u primitives, expected %zu "
                      "(extra primitive %u at position %zu)", k, b, n, pos, l[pos], pos);
        }
}

/* GPU gi quiet apart from its PE's own state (pe_quiet) */
static int gpu_quiet_ports(const gpu_t *g)
{
    return !g->pin.in_valid && !g->want_cfg && !g->pout.busy && !g->pout.out_valid && !g->aout.level && !g->rx[0].n &&
           !g->rx[1].n && !g->eout.out_valid && !g->eout.tx_valid[0] && !g->eout.tx_valid[1];
}

/* nothing of GPU gi can change without new input; a configuration key the P2G has not registered yet starts a
 * table build on the next edge, so the GPU is not quiet until the P2G has taken it */
static int gpu_quiet(const sim_t *s, uint32_t gi)
{
    const gpu_t *g = &s->g[gi];
    return gpu_quiet_ports(g) && g->pe_quiet && !(s->M->p2g && p2g_hw_key_change(&s->M->p2g[gi], &g->pin.cfg));
}

/* next cycle at which GPU gi's feeder has a primitive ready (UINT64_MAX: none waiting on time) */
static uint64_t next_ready_gpu(const sim_t *s, uint32_t gi)
{
    const gpu_t *g = &s->g[gi];
    if (g->fb >= s->w->n_batches || !g->f_started || g->fi >= s->w->counts[slot(s, g->fb, gi)]) return UINT64_MAX;
    /* effn > 0: the effective (bounded-queue) cycle of primitive fi is known, else its unstalled one (a lower bound) */
    return g->effn ? g->effw[0] : g->f_start + s->w->prims[slot(s, g->fb, gi)][g->fi].ready;
}

/* next cycle at which a feeder has a primitive ready (UINT64_MAX: none waiting on time) */
static uint64_t next_ready(const sim_t *s)
{
    uint64_t best = UINT64_MAX;
    for (uint32_t gi = 0; gi < s->p->n_gpus; gi++) {
        uint64_t t = next_ready_gpu(s, gi);
        if (t < best) best = t;
    }
    return best;
}

/* per-GPU skip: after this cycle's combinational outputs, may GPU gi sleep? Its clock edge must change nothing
 * (P2G, adapter and PE idle with these inputs; nothing on an output, no release event), and with its state
 * unchanged its inputs stay the same until a flit is delivered to it or its next primitive becomes ready: the
 * feeder changes only with its own progress (CP gating reads the GPU's own completed batches; a deferred
 * render or release waits for the chunk being fed) and the stall draws are off. Stepping it would reproduce
 * this cycle's outputs and change nothing, cycle after cycle. */
static int gpu_may_sleep(const sim_t *s, uint32_t gi)
{
    const gpu_t *g = &s->g[gi];
    const models_t *M = s->M;
    return gpu_quiet(s, gi) && !g->eout.err && (!M->sout || !M->sout[gi].n_ev) &&
           cd_adapter_hw_idle(&g->ad, &g->ain) && p2g_hw_idle(&M->p2g[gi], &g->pin);
}

/* P > 1: the combinational outputs of GPU gi's P2G merge (its P units; g->pout = the merged output, in_ready of
 * slot 0) and PE */
static void lanes_comb(sim_t *s, models_t *M, uint32_t gi)
{
    gpu_t *g = &s->g[gi];
    g->min.out_ready = g->pin.out_ready;
    g->min.cfg = g->pin.cfg;
    p2g_merge_hw_comb(&M->mg[gi], &g->min, &g->mout);
    memset(&g->pout, 0, sizeof g->pout);
    g->pout.in_ready = g->mout.in_ready[0];
    g->pout.out_valid = g->mout.out_valid;
    g->pout.out_prim_id = g->mout.out_prim_id;
    g->pout.out_tag = g->mout.out_tag;
    g->pout.out_mask = g->mout.out_mask;
    g->pout.busy = g->mout.busy;
    unit_comb(M, gi, &g->ein, &g->eout);
}

/* stream mode on a units backend: GPU gi's P2G, adapter and stream PE outputs of this cycle from the backend,
 * converted as for the stream PE cycle model (sx_conv) */
static int units_sx_comb(sim_t *s, const cdsys_units_t *u, uint32_t gi)
{
    gpu_t *g = &s->g[gi];
    sx_hw_in_t x;
    sx_hw_out_t o;
    to_sin(&g->ein, &x);
    memset(&o, 0, sizeof o);
    if (u->sx_comb(u->ctx, gi, s->cycle, &g->pin, &g->pout, &g->ain, &g->aout, &x, &o)) return -1;
    sx_conv(s->M, gi, s->p->sx_k ? s->p->sx_k : 1, &g->ein, &o, &g->eout);
    return 0;
}

void cdsys_result_free(cdsys_result_t *r)
{
    if (r->recv)
        for (size_t i = 0; i < (size_t)r->n_batches * r->n_gpus; i++) free(r->recv[i]);
    free(r->recv);
    free(r->recv_n);
    free(r->cd_done);
    free(r->cp_start);
    free(r->links);
    free(r->reorder_max);
    free(r->reorder_max_slots);
    memset(r, 0, sizeof *r);
}

int cdsys_run(const cdsys_params_t *p, const cdsys_work_t *w, cdsys_result_t *res)
{
    uint32_t N = p->n_gpus, B = w->n_batches;
    memset(res, 0, sizeof *res);
    res->fail_gpu = -1;
    res->fail_batch = res->fail_prim = -1;
    res->n_gpus = N;
    res->n_batches = B;
    if (p->p2g_units > CDSYS_MAX_P2G || (p->p2g_units > 1 && (p->units || p->pe_ref))) {
        snprintf(res->report, sizeof res->report, "cdsys: %u P2G units per GPU (1..%u; more than one only on the C "
                 "cycle models with the PE cycle model)", p->p2g_units, CDSYS_MAX_P2G);
        return -1;
    }
    if (p->stream && (p->pe_ref || (p->units && (!p->units->sx_comb || !p->units->sx_clock)))) {
        snprintf(res->report, sizeof res->report, "cdsys: the stream PE runs on its cycle model or on a units backend with a "
                 "stream PE (no reference PE)");
        return -1;
    }
    if (N == 0 || N > 64 || N != w->n_gpus || N > p->max_gpus) {
        snprintf(res->report, sizeof res->report, "cdsys: bad configuration (%u GPUs, workload %u, MAX_GPUS %u)", N,
                 w->n_gpus, p->max_gpus);
        return -1;
    }
    size_t slots = (size_t)B * N;
    sim_t S;
    memset(&S, 0, sizeof S);
    sim_t *s = &S;
    s->p = p;
    s->w = w;
    s->res = res;
    net_t own_net;
    int own = !p->net;
    models_t M;
    memset(&M, 0, sizeof M);
    cdsys_units_t mu = {&M, m_comb, m_clock, m_pe_quiet, NULL, NULL, m_report, NULL, NULL, NULL, NULL, NULL};
    const cdsys_units_t *u = p->units ? p->units : &mu;
    int rc = -1;
    res->recv = calloc(slots ? slots : 1, sizeof *res->recv);
    res->recv_n = calloc(slots ? slots : 1, sizeof *res->recv_n);
    res->cd_done = calloc(slots ? slots : 1, sizeof *res->cd_done);
    res->cp_start = calloc(slots ? slots : 1, sizeof *res->cp_start);
    s->recv_cap = calloc(slots ? slots : 1, sizeof *s->recv_cap);
    s->g = calloc(N, sizeof *s->g);
    res->reorder_max = calloc(N, sizeof *res->reorder_max);
    res->reorder_max_slots = calloc(N, sizeof *res->reorder_max_slots);
    s->M = &M;
    if (own) {
        if (net_init(&own_net, p->topo, N, p->latency ? p->latency : 1, NULL, NULL)) {
            snprintf(res->report, sizeof res->report, "cdsys: bad network configuration");
            goto out_nonet;
        }
        own_net.hub_rate = p->hub_rate ? p->hub_rate : 2;
        s->net = &own_net;
    } else {
        s->net = p->net;
    }
    if (!res->recv || !res->recv_n || !res->cd_done || !res->cp_start || !s->recv_cap || !s->g || !res->reorder_max || !res->reorder_max_slots) {
        snprintf(res->report, sizeof res->report, "cdsys: out of memory");
        goto out;
    }
    if (p->units && p->stream) {       /* the backend's stream PE: its release events and statistics are kept here */
        M.n = N;
        M.sout = calloc(N, sizeof *M.sout);
        M.ids_max = calloc(N, sizeof *M.ids_max);
        M.occ_max = calloc(N, sizeof *M.occ_max);
        if (!M.sout || !M.ids_max || !M.occ_max) {
            snprintf(res->report, sizeof res->report, "cdsys: out of memory");
            goto out;
        }
    }
    if (!p->units) {
        M.n = N;
        if (p->p2g_units > 1) M.mg = calloc(N, sizeof *M.mg);
        else M.p2g = calloc(N, sizeof *M.p2g);
        if (p->stream) {
            M.sx = calloc(N, sizeof *M.sx);
            M.sout = calloc(N, sizeof *M.sout);
            M.ids_max = calloc(N, sizeof *M.ids_max);
            M.occ_max = calloc(N, sizeof *M.occ_max);
        } else if (p->pe_ref) {
            M.ref = calloc(N, sizeof *M.ref);
        } else {
            M.pe = calloc(N, sizeof *M.pe);
            M.dec = calloc(N, sizeof *M.dec);
        }
        if ((!M.p2g && !M.mg) || (M.pe && !M.dec) || (!M.pe && !M.ref && (!M.sx || !M.sout || !M.ids_max || !M.occ_max))) {
            snprintf(res->report, sizeof res->report, "cdsys: out of memory");
            goto out;
        }
        p2g_hw_params_t pp = {p->max_gpus, p->p2g_rows, p->tag_bits};
        pe_hw_params_t ep = {p->max_gpus, p->pe_lq_depth, p->pe_rq_depth};
        for (uint32_t g = 0; g < N; g++) {
            if (M.mg) p2g_merge_hw_init(&M.mg[g], p->p2g_units, pp);
            else p2g_hw_init(&M.p2g[g], pp);
        }
        for (uint32_t g = 0; g < N; g++) {
            if (M.sx) {
                sx_hw_params_t c = {N, p->sx_k ? p->sx_k : 1, p->sx_depth ? p->sx_depth : CDSYS_SX_DEPTH_DEFAULT};
                if (sx_hw_init(&M.sx[g], c)) {
                    snprintf(res->report, sizeof res->report, "cdsys: bad stream PE parameters (K %u, depth %u) or out of "
                             "memory", c.k, c.depth);
                    goto out;
                }
            } else if (M.ref) peref_init(&M.ref[g], N, g, p->topo);
            else if (pe_hw_init(&M.pe[g], ep)) {
                snprintf(res->report, sizeof res->report, "cdsys: bad PE parameters (MAX_GPUS %u, LQ_DEPTH %u, RQ_DEPTH %u)",
                         ep.max_gpus, ep.lq_depth, ep.rq_depth);
                goto out;
            }
        }
    }
    net_t *net = s->net;
    uint64_t nlinks0[2 * 65][2];
    for (uint32_t i = 0; i < net->n_links; i++) {
        nlinks0[i][0] = net->links[i].flits_prim;
        nlinks0[i][1] = net->links[i].flits_last;
    }
    net->deliver_port = deliver_port;
    net->user = s;
    net->hook_user = s;
    net->link_stall = p->link_stall_pm ? h_link_stall : NULL;
    net->link_jitter = p->link_jitter ? h_link_jitter : NULL;
    s->s0 = net->step;
    for (uint32_t g = 0; g < N; g++) {
        s->g[g].pin.cfg = p2g_config_default(N, 1, 1);
        cd_adapter_hw_params_t ap = cd_adapter_hw_params_default();
        if (p->ad_aq_depth)
            ap.aq_depth = p->ad_aq_depth;
        if (p->ad_dq_depth)
            ap.dq_depth = p->ad_dq_depth;
        if (cd_adapter_hw_init(&s->g[g].ad, ap)) {
            snprintf(res->report, sizeof res->report, "cdsys: bad adapter parameters");
            goto out;
        }
        if (p->cp_queue && !(s->g[g].acc = calloc(p->cp_queue, sizeof *s->g[g].acc))) {
            snprintf(res->report, sizeof res->report, "cdsys: out of memory");
            goto out;
        }
    }
    uint64_t limit = 200000 + 64ull * (net->latency + p->link_jitter + 4);
    uint32_t P = p->p2g_units > 1 ? p->p2g_units : 1;
    s->gpu_skip = p->skip_idle && !p->units && !p->pe_ref && P == 1 && !p->in_gap_pm && !p->tx_stall_pm && !p->rx_stall_pm &&
                  !p->out_stall_pm;
    for (s->cycle = 0;; s->cycle++) {
        /* sleeping GPUs wake on a delivered flit or at their next primitive's ready cycle */
        if (s->gpu_skip)
            for (uint32_t g = 0; g < N; g++) {
                gpu_t *gg = &s->g[g];
                if (gg->asleep && (gg->rx[0].n || gg->rx[1].n || s->cycle >= gg->wake)) gg->asleep = 0;
            }
        /* inputs (all known before comb: the adapter decouples P2G and PE) and combinational outputs */
        for (uint32_t g = 0; g < N; g++) {
            if (s->g[g].asleep) continue;
            feed(s, g);
            cd_adapter_hw_comb(&s->g[g].ad, &s->g[g].ain, &s->g[g].aout);
            s->g[g].pin.out_ready = s->g[g].aout.p2g_ready;
            pe_inputs(s, g);
        }
        for (uint32_t g = 0; g < N && !s->failed; g++) {
            if (s->g[g].asleep) continue;
            if (P > 1) { lanes_comb(s, &M, g); continue; }
            if (p->units && p->stream) {
                if (units_sx_comb(s, u, g)) failf(s, (int)g, s->g[g].ob, -1, "%s", u->report(u->ctx));
                continue;
            }
            if (u->comb(u->ctx, g, s->cycle, &s->g[g].pin, &s->g[g].pout, &s->g[g].ain, &s->g[g].aout, &s->g[g].ein,
                        &s->g[g].eout))
                failf(s, (int)g, s->g[g].ob, -1, "%s", u->report(u->ctx));   /* batch: the one being output there */
        }
        if (!s->failed && u->comb_done && u->comb_done(u->ctx, s->cycle)) failf(s, -1, -1, -1, "%s", u->report(u->ctx));
        for (uint32_t g = 0; g < N && !s->failed; g++) {
            if (s->g[g].asleep) continue;
            if (s->g[g].eout.err)
                failf(s, (int)g, s->g[g].ob, -1, "GPU %u: the PE flags a protocol error (err output: input tag != expected "
                      "batch, or an rx flit of unknown type / foreign tag / other destination)", g);
            if (p->units && p->stream) {
                sx_hw_in_t x;
                to_sin(&s->g[g].ein, &x);
                s->g[g].pe_quiet = u->sx_quiet ? u->sx_quiet(u->ctx, g, &x.cfg) : 0;
            } else if (!p->units && !gpu_quiet_ports(&s->g[g])) {
                s->g[g].pe_quiet = 0;   /* read only together with the ports (gpu_quiet): not asked on the models */
            } else {
                s->g[g].pe_quiet = u->pe_quiet ? u->pe_quiet(u->ctx, g, &s->g[g].ein) : 0;
            }
            adapter_inputs(&s->g[g]);
            if (s->gpu_skip) s->g[g].may_sleep = gpu_may_sleep(s, g);
        }
        if (s->failed) break;
        /* done? */
        int done = net_idle(net);
        for (uint32_t g = 0; g < N && done; g++) {
            const gpu_t *gg = &s->g[g];
            done = gg->ob >= B && !gg->pend && !gg->pin.in_valid && !gg->pout.busy && !gg->pout.out_valid && !gg->aout.busy && !gg->rx[0].n &&
                   !gg->rx[1].n && !gg->eout.tx_valid[0] && !gg->eout.tx_valid[1] && !gg->eout.out_valid && !gg->eout.busy;
        }
        if (done) break;
        /* idle skip: nothing can happen on this edge; jump to the next event */
        if (p->skip_idle) {
            int quiet = 1;
            for (uint32_t g = 0; g < N && quiet; g++) quiet = gpu_quiet(s, g);
            uint64_t ne = net_next_event(net);
            uint64_t nc = ne == UINT64_MAX ? UINT64_MAX : ne - s->s0 - 1;     /* cycle whose net step is ne */
            uint64_t nr = next_ready(s);
            if (nr < nc) nc = nr;
            if (quiet && nc != UINT64_MAX && nc > s->cycle + 1) {
                /* the adapter takes a descriptor given in this cycle (nothing else moves: stable after one edge) */
                for (uint32_t g = 0; g < N; g++) cd_adapter_hw_clock(&s->g[g].ad, &s->g[g].ain);
                s->cycle = nc;
                net_skip_to(net, s->s0 + nc + 1);
                s->last_progress = s->cycle;
                s->cycle--;
                continue;
            }
        }
        res->stepped++;
        for (uint32_t g = 0; g < N && !s->failed; g++)
            if (!s->g[g].asleep) transfers(s, g);
        if (s->failed) break;
        for (uint32_t g = 0; g < N && !s->failed; g++) {
            if (s->g[g].asleep) continue;
            res->gpu_stepped++;
            if (P > 1) {
                uint32_t taken = p2g_merge_hw_clock(&M.mg[g], &s->g[g].min);
                if (taken != s->g[g].fed_now)
                    failf(s, (int)g, -1, -1, "GPU %u: the P2G merge took %u primitives, the feeder handed over %u (internal error)",
                          g, taken, s->g[g].fed_now);
                if (unit_clock(&M, g, &s->g[g].ein)) failf(s, (int)g, -1, -1, "%s", m_report(&M));
            } else if (p->units && p->stream) {
                sx_hw_in_t x;
                to_sin(&s->g[g].ein, &x);
                if (u->sx_clock(u->ctx, g, s->cycle, &s->g[g].pin, &x)) failf(s, (int)g, -1, -1, "%s", u->report(u->ctx));
                else if (u->sx_occ) sx_stats(&M, g, u->sx_occ(u->ctx, g), u->sx_held_ids, u->ctx);
            } else if (u->clock(u->ctx, g, s->cycle, &s->g[g].pin, &s->g[g].ein)) {
                failf(s, (int)g, -1, -1, "%s", u->report(u->ctx));
            }
            cd_adapter_hw_clock(&s->g[g].ad, &s->g[g].ain);
        }
        for (uint32_t g = 0; g < N; g++) {
            gpu_t *gg = &s->g[g];
            if (gg->asleep) continue;
            if (gg->may_sleep) {        /* this edge changed nothing: from the next cycle on, it sleeps */
                gg->asleep = 1;
                gg->may_sleep = 0;
                gg->wake = next_ready_gpu(s, g);
                continue;
            }
            /* a configuration change is applied once the P2G is empty (quasi-static configuration rule) */
            if (gg->want_cfg && !gg->pout.busy && !gg->pout.out_valid) {
                const cdsys_prim_t *pr = &w->prims[slot(s, gg->fb, g)][gg->fi];
                gg->pin.cfg = w->cfgs[pr->cfg];
                gg->cur_cfg = pr->cfg;
                gg->have_cfg = 1;
            }
        }
        if (u->cycle_done && !s->failed && u->cycle_done(u->ctx, s->cycle)) failf(s, -1, -1, -1, "%s", u->report(u->ctx));
        if (s->failed) break;
        net_step(net);
        if (s->failed) break;
        uint64_t lim = p->max_cycles ? p->max_cycles : limit;
        if (s->cycle - s->last_progress > lim || (p->max_cycles && s->cycle > p->max_cycles)) {
            char buf[400];
            int o = 0;
            for (uint32_t g = 0; g < N && o < (int)sizeof buf - 40; g++)
                o += snprintf(buf + o, sizeof buf - (size_t)o, " g%u:fed b%u out b%u", g, s->g[g].fb, s->g[g].ob);
            failf(s, -1, -1, -1, "deadlock: no progress for %" PRIu64 " cycles at cycle %" PRIu64 " (per GPU:%s)",
                  s->cycle - s->last_progress, s->cycle, buf);
            break;
        }
    }
    res->cycles = s->cycle;
    if (!s->failed) check_invariant(s);
    if (!s->failed && !net_idle(net)) failf(s, -1, -1, -1, "network not empty at the end: %" PRIu64 " flits", net->in_flight);
    if (!s->failed) {
        /* packet accounting: PRIM flits sent == delivered; every GPU got N-1 LAST markers per batch */
        uint64_t tx = 0, rx = 0;
        for (uint32_t g = 0; g < N; g++) { tx += s->g[g].tx_prim; rx += s->g[g].rx_prim; }
        if (tx != rx) failf(s, -1, -1, -1, "packet accounting: %" PRIu64 " PRIM flits sent, %" PRIu64 " delivered", tx, rx);
        uint64_t ctx = 0, crx = 0;
        for (uint32_t g = 0; g < N; g++) { ctx += s->g[g].tx_credit; crx += s->g[g].rx_credit; }
        res->credit_flits = ctx;
        if (ctx != crx) failf(s, -1, -1, -1, "packet accounting: %" PRIu64 " CREDIT flits sent, %" PRIu64 " delivered", ctx, crx);
        for (uint32_t g = 0; g < N && !s->failed; g++)
            if (s->g[g].rx_last != (uint64_t)(N - 1) * B)
                failf(s, (int)g, -1, -1, "packet accounting: GPU %u received %" PRIu64 " LAST markers, expected %" PRIu64, g,
                      s->g[g].rx_last, (uint64_t)(N - 1) * B);
    }
    res->n_links = net->n_links;
    res->links = calloc(net->n_links ? net->n_links : 1, sizeof *res->links);
    if (res->links)
        for (uint32_t i = 0; i < net->n_links; i++) {
            res->links[i].from = net->links[i].from;
            res->links[i].to = net->links[i].to;
            res->links[i].prim_flits = net->links[i].flits_prim - nlinks0[i][0];
            res->links[i].last_flits = net->links[i].flits_last - nlinks0[i][1];
        }
    rc = s->failed ? -1 : 0;
out:
    s->net->deliver_port = NULL;
    s->net->link_stall = NULL;
    s->net->link_jitter = NULL;
    s->net->user = s->net->hook_user = NULL;
    if (own) net_free(&own_net);
out_nonet:
    if (s->g)
        for (uint32_t g = 0; g < N; g++) {
            free(s->g[g].rx[0].buf);
            free(s->g[g].rx[1].buf);
            free(s->g[g].acc);
            free(s->g[g].relq);
        }
    free(s->g);
    free(s->recv_cap);
    if (M.ref)
        for (uint32_t g = 0; g < N; g++) peref_free(&M.ref[g]);
    free(M.ref);
    if (M.sout) {
        for (uint32_t g = 0; g < N; g++) {
            if (res->reorder_max && M.ids_max) res->reorder_max[g] = M.ids_max[g];
            if (res->reorder_max_slots && M.occ_max) res->reorder_max_slots[g] = M.occ_max[g];
            if (M.sx) sx_hw_free(&M.sx[g]);
        }
    }
    free(M.sx);
    free(M.sout);
    free(M.ids_max);
    free(M.occ_max);
    free(M.pe);
    free(M.dec);
    free(M.p2g);
    free(M.mg);
    return rc;
}
