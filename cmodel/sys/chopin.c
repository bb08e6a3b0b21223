#include "sys/chopin.h"

#include "gpu/frag.h"

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

/* ---- composition schedule ---- */

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* the directed links of the route src -> dst (indices as in chopin.h); returns the count */
static uint32_t route(const chopin_comp_in_t *in, uint32_t s, uint32_t d, uint32_t *l)
{
    uint32_t k = 0;
    if (in->hub) {
        l[k++] = 2 * s;
        l[k++] = 2 * d + 1;
    } else if (s < d) {
        for (uint32_t i = s; i < d; i++) l[k++] = 2 * i;
    } else {
        for (uint32_t i = d; i < s; i++) l[k++] = 2 * i + 1;
    }
    return k;
}

int chopin_comp_schedule(const chopin_comp_in_t *in, chopin_xfer_t *xfers, size_t *n_xfers, uint64_t *end,
                         uint64_t *link_busy)
{
    uint32_t n = in->n_gpus;
    *n_xfers = 0;
    if (n == 0 || n > 64 || !in->link_mbpc || (in->hub && !in->hub_mbpc) || !in->tpc) return -1;
    uint32_t nl = in->hub ? 2 * n : 2 * (n - 1);
    uint64_t *send_free = calloc(n, sizeof *send_free), *recv_free = calloc(n, sizeof *recv_free);
    uint64_t *link_free = calloc(nl ? nl : 1, sizeof *link_free);
    uint8_t *done = calloc((size_t)n * n, 1);
    uint32_t *rl = malloc((size_t)(n + 2) * sizeof *rl);
    if (!send_free || !recv_free || !link_free || !done || !rl) {
        free(send_free); free(recv_free); free(link_free); free(done); free(rl);
        return -1;
    }
    uint64_t hub_free = 0;
    size_t left = 0;
    for (uint32_t g = 0; g < n; g++) {
        send_free[g] = recv_free[g] = end[g] = in->ready[g];
        for (uint32_t h = 0; h < n; h++)
            if (g != h && in->bytes[(size_t)g * n + h]) left++;
    }
    while (left) {
        uint64_t best = UINT64_MAX;
        uint32_t bs = 0, bd = 0;
        for (uint32_t d = 0; d < n; d++)
            for (uint32_t s = 0; s < n; s++) {
                if (s == d || !in->bytes[(size_t)s * n + d] || done[(size_t)s * n + d]) continue;
                uint64_t t = send_free[s] > recv_free[d] ? send_free[s] : recv_free[d];
                uint32_t k = route(in, s, d, rl);
                for (uint32_t i = 0; i < k; i++)
                    if (link_free[rl[i]] > t) t = link_free[rl[i]];
                if (in->hub && hub_free > t) t = hub_free;
                if (t < best) { best = t; bs = s; bd = d; }
            }
        uint64_t b = in->bytes[(size_t)bs * n + bd];
        uint64_t x = ceil_div(b * 1000 * in->tpc, in->link_mbpc);
        uint32_t k = route(in, bs, bd, rl);
        for (uint32_t i = 0; i < k; i++) {
            link_free[rl[i]] = best + x;
            if (link_busy) link_busy[rl[i]] += x;
        }
        if (in->hub) hub_free = best + ceil_div(b * 1000 * in->tpc, in->hub_mbpc);
        uint64_t arrive = best + x + (uint64_t)k * in->lat;
        uint64_t merged = in->merge ? in->merge(in->user, bd, bs, best + (uint64_t)k * in->lat, arrive) : arrive;
        if (merged < arrive) merged = arrive;
        chopin_xfer_t *e = &xfers[(*n_xfers)++];
        e->src = bs; e->dst = bd; e->start = best; e->arrive = arrive; e->merged = merged;
        send_free[bs] = best + x;
        recv_free[bd] = merged;
        if (best + x > end[bs]) end[bs] = best + x;
        if (merged > end[bd]) end[bd] = merged;
        done[(size_t)bs * n + bd] = 1;
        left--;
    }
    free(send_free); free(recv_free); free(link_free); free(done); free(rl);
    return 0;
}
