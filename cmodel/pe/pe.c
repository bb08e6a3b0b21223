#include "pe/pe.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link/flit.h"

typedef struct {
    uint32_t cur_b;         /* oldest batch whose CD is not complete here */
    uint32_t cp_next;       /* next batch to project */
    uint64_t cp_busy_until;
    uint64_t *cp_end;       /* [b]: step CP results ready (UINT64_MAX: not started) */
    uint64_t *lasts;        /* [b]: GPUs whose LAST(b) arrived */
    uint32_t *send_pos;     /* [b] */
    uint8_t *turn_done;     /* [b] */
    uint64_t prim_recv_count;
} pe_state_t;

typedef struct {
    const pe_input_t *in;
    pe_result_t *res;
    pe_state_t *st;
    int error;
    uint64_t recv_pairs[64][64];   /* PRIM flits received at [dst][src] */
    uint64_t sent_pairs[64][64];
    uint64_t sent_flits;           /* PRIM flits put into the network */
    uint64_t cp_max;               /* latest CP completion returned by the cp_ready hook */
} pe_sim_t;

static int list_push(pe_list_t *l, uint32_t v)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        uint32_t *nb = realloc(l->prims, nc * sizeof *nb);
        if (!nb) return -1;
        l->prims = nb;
        l->cap = nc;
    }
    l->prims[l->n++] = v;
    return 0;
}

static void fail(pe_sim_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(pe_sim_t *s, const char *fmt, ...)
{
    if (s->error) return;
    s->error = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->res->report, sizeof s->res->report, fmt, ap);
    va_end(ap);
}

static void deliver(void *user, uint32_t gpu, uint64_t flit)
{
    pe_sim_t *s = user;
    const pe_input_t *in = s->in;
    pe_state_t *st = &s->st[gpu];
    uint32_t tag = flit_tag(flit), src = flit_src(flit);
    uint32_t b = st->cur_b + ((tag - st->cur_b) & FLIT_TAG_MASK);
    if (src >= in->n_gpus || src == gpu) {
        fail(s, "GPU %u received a flit from invalid source %u (flit 0x%016" PRIx64 ")", gpu, src, flit);
        return;
    }
    if (b >= in->n_batches) {
        fail(s, "GPU %u received a flit for batch tag %u outside the batches in flight (current batch %u, "
                "%u batches; flit 0x%016" PRIx64 " from GPU %u)", gpu, tag, st->cur_b, in->n_batches, flit, src);
        return;
    }
    if (flit_type(flit) == FLIT_TYPE_PRIM) {
        if (flit_dst(flit) != gpu) {
            fail(s, "GPU %u received a PRIM flit addressed to GPU %u", gpu, flit_dst(flit));
            return;
        }
        st->prim_recv_count++;
        if (in->fault == PE_FAULT_DROP && st->prim_recv_count == in->fault_at) { s->res->fault_fired++; return; }   /* lost on the way */
        s->recv_pairs[gpu][src]++;
        s->res->gpu[gpu].prim_recv++;
        s->res->gpu[gpu].prim_recv_from[src]++;
        pe_list_t *l = &s->res->recv[(size_t)b * in->n_gpus + gpu];
        list_push(l, flit_payload(flit));
        if (in->fault == PE_FAULT_DUP && st->prim_recv_count == in->fault_at) { s->res->fault_fired++; list_push(l, flit_payload(flit)); }
    } else if (flit_type(flit) == FLIT_TYPE_LAST) {
        if (st->lasts[b] & (1ull << src))
            fail(s, "GPU %u received LAST(batch %u, GPU %u) twice", gpu, b, src);
        st->lasts[b] |= 1ull << src;
        s->res->gpu[gpu].last_recv++;
    } else {
        fail(s, "GPU %u received a flit of unknown type %u (0x%016" PRIx64 ")", gpu, flit_type(flit), flit);
    }
}

static int all_done(const pe_sim_t *s)
{
    for (uint32_t g = 0; g < s->in->n_gpus; g++)
        if (s->st[g].cur_b < s->in->n_batches) return 0;
    return 1;
}

/* one step of GPU g's PE: CP scheduling, turn, completion */
static void pe_step(pe_sim_t *s, net_t *net, uint32_t g, uint64_t now)
{
    const pe_input_t *in = s->in;
    pe_state_t *st = &s->st[g];
    uint32_t N = in->n_gpus;
    uint64_t all = N >= 64 ? ~0ull : ((1ull << N) - 1);
    /* CP scheduling */
    if (st->cp_next < in->n_batches && now >= st->cp_busy_until) {
        uint32_t limit = in->runahead ? st->cur_b + 1 : st->cur_b;
        if (st->cp_next <= limit) {
            uint32_t b = st->cp_next++;
            uint64_t end;
            if (in->cp_ready) {
                end = in->cp_ready(in->hook_user, g, b, now);
                if (end < now) end = now;
                if (end > s->cp_max) s->cp_max = end;
            } else {
                end = now + (uint64_t)in->counts[(size_t)b * N + g] * in->cp_cost;
            }
            st->cp_end[b] = end;
            st->cp_busy_until = end;
        }
    }
    uint32_t b = st->cur_b;
    if (b >= in->n_batches) return;
    /* turn */
    if (!st->turn_done[b] && st->cp_end[b] != UINT64_MAX && (in->entry_ready || now >= st->cp_end[b])) {
        uint64_t before = g >= 64 ? all : ((1ull << g) - 1);
        if (in->fault == PE_FAULT_NO_TURNS || (st->lasts[b] & before) == before) {
            if ((st->lasts[b] & before) != before) s->res->fault_fired++;   /* a turn taken too early */
            const pe_entry_t *e = in->entries[(size_t)b * N + g];
            uint32_t cnt = in->counts[(size_t)b * N + g];
            const uint64_t *rd = in->entry_ready ? in->entry_ready[(size_t)b * N + g] : NULL;
            for (uint32_t k = 0; k < in->send_rate && st->send_pos[b] < cnt && (!rd || rd[st->send_pos[b]] <= now); k++) {
                const pe_entry_t *en = &e[st->send_pos[b]++];
                if (en->mask & ~all) {
                    fail(s, "GPU %u batch %u primitive %u: mask 0x%" PRIx64 " names GPUs beyond %u", g, b, en->prim, en->mask, N);
                    return;
                }
                for (uint32_t t = 0; t < N; t++) {
                    if (!(en->mask & (1ull << t))) continue;
                    if (t == g) {
                        list_push(&s->res->recv[(size_t)b * N + g], en->prim);
                        s->res->gpu[g].kept++;
                        continue;
                    }
                    uint32_t tag = b;
                    s->sent_flits++;
                    if (in->fault == PE_FAULT_WRONG_TAG && s->sent_flits == in->fault_at) { tag = b + 1; s->res->fault_fired++; }
                    net_inject(net, g, flit_make(FLIT_TYPE_PRIM, g, t, tag, en->prim));
                    s->sent_pairs[t][g]++;
                    s->res->gpu[g].prim_sent++;
                }
            }
            if (st->send_pos[b] == cnt && now >= st->cp_end[b]) {
                if (N > 1) {
                    net_inject(net, g, flit_make(FLIT_TYPE_LAST, g, FLIT_DST_BCAST, b, cnt));
                    s->res->gpu[g].last_sent++;
                }
                st->turn_done[b] = 1;
            }
        }
    }
    /* completion */
    if (st->turn_done[b] && (st->lasts[b] | (1ull << g)) == all) {
        s->res->cd_done[(size_t)b * N + g] = now;
        st->cur_b++;
        if (in->cd_complete) {
            const pe_list_t *l = &s->res->recv[(size_t)b * N + g];
            in->cd_complete(in->hook_user, g, b, now, l->prims, l->n);
        }
    }
}

/* Earliest step > now at which GPU g's PE can change state without a flit arriving (UINT64_MAX: none). */
static uint64_t pe_next_event(const pe_sim_t *s, uint32_t g, uint64_t now)
{
    const pe_input_t *in = s->in;
    const pe_state_t *st = &s->st[g];
    uint32_t N = in->n_gpus;
    uint64_t all = N >= 64 ? ~0ull : ((1ull << N) - 1);
    uint64_t best = UINT64_MAX;
    if (st->cp_next < in->n_batches) {
        uint32_t limit = in->runahead ? st->cur_b + 1 : st->cur_b;
        if (st->cp_next <= limit) best = st->cp_busy_until > now ? st->cp_busy_until : now + 1;
    }
    uint32_t b = st->cur_b;
    if (b >= in->n_batches) return best;
    if (!st->turn_done[b] && st->cp_end[b] != UINT64_MAX) {
        uint64_t before = g >= 64 ? all : ((1ull << g) - 1);
        if (in->fault == PE_FAULT_NO_TURNS || (st->lasts[b] & before) == before) {
            uint64_t when = st->cp_end[b];
            if (in->entry_ready && st->send_pos[b] < in->counts[(size_t)b * N + g])
                when = in->entry_ready[(size_t)b * N + g][st->send_pos[b]];
            uint64_t t = when > now ? when : now + 1;
            if (t < best) best = t;
        }
    }
    if (st->turn_done[b] && (st->lasts[b] | (1ull << g)) == all) return now + 1;
    return best;
}

void pe_result_free(pe_result_t *res, uint32_t n_slots)
{
    if (res->recv)
        for (uint32_t i = 0; i < n_slots; i++) free(res->recv[i].prims);
    free(res->recv);
    free(res->cd_done);
    res->recv = NULL;
    res->cd_done = NULL;
}

static int check(pe_sim_t *s, net_t *net)
{
    const pe_input_t *in = s->in;
    uint32_t N = in->n_gpus;
    if (!net_idle(net)) {
        fail(s, "network not empty after the exchange: %" PRIu64 " flits left", net->in_flight);
        return -1;
    }
    for (uint32_t k = 0; k < N; k++) {
        for (uint32_t j = 0; j < N; j++)
            if (s->sent_pairs[k][j] != s->recv_pairs[k][j]) {
                fail(s, "packet accounting: GPU %u sent %" PRIu64 " PRIM flits to GPU %u, which received %" PRIu64,
                     j, s->sent_pairs[k][j], k, s->recv_pairs[k][j]);
                return -1;
            }
        if (N > 1 && s->res->gpu[k].last_recv != (uint64_t)(N - 1) * in->n_batches) {
            fail(s, "packet accounting: GPU %u received %" PRIu64 " LAST markers, expected %" PRIu64,
                 k, s->res->gpu[k].last_recv, (uint64_t)(N - 1) * in->n_batches);
            return -1;
        }
    }
    /* the SPEC 4.2 invariant */
    for (uint32_t b = 0; b < in->n_batches; b++)
        for (uint32_t k = 0; k < N; k++) {
            const pe_list_t *l = &s->res->recv[(size_t)b * N + k];
            size_t pos = 0;
            for (uint32_t g = 0; g < N; g++) {
                const pe_entry_t *e = in->entries[(size_t)b * N + g];
                for (uint32_t i = 0; i < in->counts[(size_t)b * N + g]; i++) {
                    if (!(e[i].mask & (1ull << k))) continue;
                    if (pos >= l->n) {
                        fail(s, "ordering invariant violated: GPU %u batch %u: primitive %u (from GPU %u's chunk) "
                                "missing; it received only %zu primitives", k, b, e[i].prim, g, l->n);
                        return -1;
                    }
                    if (l->prims[pos] != e[i].prim) {
                        fail(s, "ordering invariant violated: GPU %u batch %u position %zu: expected primitive %u "
                                "(chunk of GPU %u), got %u", k, b, pos, e[i].prim, g, l->prims[pos]);
                        return -1;
                    }
                    pos++;
                }
            }
            if (pos != l->n) {
                fail(s, "ordering invariant violated: GPU %u batch %u received %zu primitives, expected %zu "
                        "(extra primitive %u at position %zu)", k, b, l->n, pos, l->prims[pos], pos);
                return -1;
            }
        }
    return 0;
}

int pe_run(const pe_input_t *in, net_t *net, pe_result_t *res)
{
    uint32_t N = in->n_gpus, B = in->n_batches;
    memset(res, 0, sizeof *res);
    if (N == 0 || N > 64 || N != net->n_gpus || in->send_rate == 0) {
        snprintf(res->report, sizeof res->report, "exchange: bad configuration");
        return -1;
    }
    size_t slots = (size_t)B * N;
    res->recv = calloc(slots ? slots : 1, sizeof *res->recv);
    res->cd_done = calloc(slots ? slots : 1, sizeof *res->cd_done);
    pe_sim_t *s = calloc(1, sizeof *s);
    if (!res->recv || !res->cd_done || !s) {
        free(s);
        snprintf(res->report, sizeof res->report, "exchange: out of memory");
        return -1;
    }
    s->in = in;
    s->res = res;
    s->st = calloc(N, sizeof *s->st);
    int rc = -1;
    if (!s->st) goto out;
    for (uint32_t g = 0; g < N; g++) {
        pe_state_t *st = &s->st[g];
        st->cp_end = malloc((B ? B : 1) * sizeof *st->cp_end);
        st->lasts = calloc(B ? B : 1, sizeof *st->lasts);
        st->send_pos = calloc(B ? B : 1, sizeof *st->send_pos);
        st->turn_done = calloc(B ? B : 1, 1);
        if (!st->cp_end || !st->lasts || !st->send_pos || !st->turn_done) goto out;
        for (uint32_t b = 0; b < B; b++) st->cp_end[b] = UINT64_MAX;
    }
    net->deliver = deliver;
    net->user = s;
    /* watchdog: generous bound on the steps the exchange can need */
    uint64_t work = 0;
    for (size_t i = 0; i < slots; i++) work += in->counts[i];
    uint64_t limit = 1000 + ((uint64_t)B * N + work * N) * ((uint64_t)net->latency + 2) * (in->cp_cost + 2) * 4;
    uint64_t start = net->step, base = start;
    for (;;) {
        uint64_t now = net->step;
        for (uint32_t g = 0; g < N && !s->error; g++) pe_step(s, net, g, now);
        if (s->error) break;
        if (all_done(s) && net_idle(net)) break;
        if (s->cp_max > base) base = s->cp_max;   /* the watchdog counts from the latest CP completion */
        if (in->skip_idle) {
            uint64_t nx = net_next_event(net);
            for (uint32_t g = 0; g < N; g++) {
                uint64_t t = pe_next_event(s, g, now);
                if (t < nx) nx = t;
            }
            if (nx != UINT64_MAX && nx > now + 1) net_skip_to(net, nx);
        }
        net_step(net);
        res->stepped++;
        if (s->error) break;
        if (net->step > base && net->step - base > limit) {
            char buf[256];
            int o = 0;
            for (uint32_t g = 0; g < N && o < (int)sizeof buf - 32; g++)
                o += snprintf(buf + o, sizeof buf - (size_t)o, " g%u:b%u", g, s->st[g].cur_b);
            fail(s, "exchange deadlock: no completion after %" PRIu64 " steps (current batch per GPU:%s)",
                 net->step - base, buf);
            break;
        }
    }
    res->steps = net->step - start;
    if (!s->error) check(s, net);
    rc = s->error ? -1 : 0;
out:
    if (s->st)
        for (uint32_t g = 0; g < N; g++) {
            free(s->st[g].cp_end);
            free(s->st[g].lasts);
            free(s->st[g].send_pos);
            free(s->st[g].turn_done);
        }
    if (rc && !res->report[0]) snprintf(res->report, sizeof res->report, "exchange: out of memory");
    free(s->st);
    free(s);
    net->deliver = NULL;
    net->user = NULL;
    return rc;
}
