/* Schemes gpupd, gpupd-batch and gpupd-ra: one segment of draws as batches, CP (projection + P2G) on
 * every GPU, the primitive exchange through the golden PE (pe_run) or the CD system (gpupd_cdsys.c), then
 * rendering of each GPU's received primitives. */
#include "sys/sys_internal.h"

#include <stdlib.h>
#include <string.h>

/* The P2G cycle model of GPU g maps the chunk: primitive i enters when projection delivers it (ready[i]
 * ticks) and the unit is ready; returns the cycle after the last mask left it. Every mask is checked against
 * the definition (the entries). Idle cycles are skipped unless cfg->no_skip (same result). */
static int p2g_chunk(sys_t *s, uint32_t g, uint32_t b, lazy_t *L, uint32_t n, uint64_t now, uint64_t *end)
{
    p2g_hw_t *H = &s->p2g[g];
    const pe_entry_t *e = L->entries[(size_t)b * s->N + g];
    uint64_t cyc = now;
    uint32_t i = 0, o = 0;
    uint64_t limit = now + 1000 + (uint64_t)n * 4096 + (n ? L->ready[n - 1] / GT_TPC : 0);
    while (o < n) {
        p2g_hw_in_t in;
        memset(&in, 0, sizeof in);
        in.cfg = L->cfgs[L->cfg_idx[i < n ? i : n - 1]];
        in.out_ready = 1;
        if (i < n && (L->ready[i] + GT_TPC - 1) / GT_TPC <= cyc) {
            in.in_valid = 1;
            in.in = L->pin[i];
            in.in.prim_id = e[i].prim;
            in.in.tag = b & 0xFFFFu;
        }
        p2g_hw_out_t out;
        p2g_hw_comb(H, &in, &out);
        if (out.out_valid) {
            uint64_t want = e[o].mask;
            if (out.out_mask != want || out.out_prim_id != e[o].prim)
                return sys_failf(s, "frame %u: the P2G cycle model disagrees with p2g_mask on GPU %u batch %u primitive %u: "
                                "mask 0x%llx, definition 0x%llx", s->frame, g, b, e[o].prim,
                             (unsigned long long)out.out_mask, (unsigned long long)want);
            if (L->eready) L->eready[(size_t)b * s->N + g][o] = cyc + 1;
            o++;
            *end = cyc + 1;
        }
        if (in.in_valid && out.in_ready) {
            i++;
            s->res->gpu[g].p2g_prims++;
            gt_account(&s->tm[g], GT_P2G, cyc * GT_TPC, GT_TPC);
        }
        p2g_hw_clock(H, &in);
        cyc++;
        s->res->p2g_cycles_stepped++;
        if (!s->cfg->no_skip && i < n && o == i) {
            /* nothing inside the unit: jump to the next primitive's cycle if the unit is idle and settled */
            p2g_hw_in_t idle = in;
            idle.in_valid = 0;
            idle.cfg = L->cfgs[L->cfg_idx[i]];
            p2g_hw_out_t io;
            p2g_hw_comb(H, &idle, &io);
            uint64_t nx = (L->ready[i] + GT_TPC - 1) / GT_TPC;
            if (!io.busy && io.in_ready && nx > cyc) cyc = nx;
        }
        if (cyc > limit) return sys_failf(s, "P2G cycle model on GPU %u: no progress (internal error)", g);
    }
    return 0;
}

static uint64_t hook_cp(void *u, uint32_t g, uint32_t b, uint64_t now)
{
    lazy_t *L = u;
    if (L->err) return now;
    if (par_wait(L->s->par, g)) { L->err = 1; return now; }   /* GPU g's rendering so far, before its projection */
    cp_ctx_t cc;
    int64_t n = sys_cp_project_chunk(L, g, b, now, L->cfgs, &cc);
    if (n < 0) return now;
    uint64_t end = now;
    if (n > 0 && p2g_chunk(L->s, g, b, L, (uint32_t)n, now, &end)) { L->err = 1; return now; }
    return end;
}

static void hook_cd(void *u, uint32_t g, uint32_t b, uint64_t now, const uint32_t *prims, size_t n)
{
    lazy_t *L = u;
    if (L->err) return;
    if (sys_render_batch_task(L, g, b, -1, SYS_RB_PRE | SYS_RB_EMPTY, now, prims, n)) L->err = 1;
}

/* --check-masks over a segment's P2G results: a primitive left out of GPU g must cover none of its pixels */
static int check_masks_segment(sys_t *s, const batch_t *B, uint32_t nb, pe_entry_t *const *entries, const uint32_t *counts,
                               uint32_t maxm, uint32_t *ids, gpu_prim_req_t *tmp)
{
    uint32_t N = s->N;
    uint64_t *mk = malloc((size_t)(maxm ? maxm : 1) * sizeof *mk);
    if (!mk) return sys_failf(s, "out of memory");
    for (uint32_t b = 0; b < nb; b++) {
        for (uint32_t g = 0; g < N; g++)
            for (uint32_t i = 0; i < counts[(size_t)b * N + g]; i++)
                mk[entries[(size_t)b * N + g][i].prim] = entries[(size_t)b * N + g][i].mask;
        for (uint32_t g = 0; g < N; g++) {
            size_t k = 0;
            for (uint32_t p = 0; p < B[b].m; p++)
                if (!(mk[p] & (1ull << g))) ids[k++] = p;
            if (sys_for_groups(s, g, &B[b], ids, k, tmp, sys_probe_group, NULL)) { free(mk); return -1; }
        }
    }
    free(mk);
    return 0;
}

/* One segment of draws [i0, i1) under gpupd / gpupd-batch / gpupd-ra / gpupd-stream (batches as gpupd-batch). */
int sys_run_segment_gpupd(sys_t *s, uint32_t i0, uint32_t i1)
{
    const sys_frame_t *fr = &s->scene->frames[s->frame];
    const sys_config_t *cfg = s->cfg;
    uint32_t N = s->N;
    /* form the batches */
    uint32_t nd = i1 - i0;
    batch_t *B = calloc(nd ? nd : 1, sizeof *B);
    uint32_t *cmdv = calloc(nd ? nd : 1, sizeof *cmdv), *basev = calloc(nd ? nd : 1, sizeof *basev);
    uint32_t nb = 0, maxm = 0, tail0 = i0;      /* commands tail0 .. i1-1 follow the last batch */
    int rc = -1;
    pe_entry_t **entries = NULL;
    uint32_t *counts = NULL;
    gpu_prim_req_t *tmp = NULL;
    gpu_projected_t *proj = NULL;
    uint32_t *ids = NULL;
    pe_result_t pr;
    memset(&pr, 0, sizeof pr);
    lazy_t L;
    memset(&L, 0, sizeof L);
    if (!B || !cmdv || !basev) { sys_failf(s, "out of memory"); goto out; }
    {
        uint32_t k = 0, pre0 = i0;
        batch_t *cur = NULL;
        for (uint32_t i = i0; i < i1; i++) {
            if (fr->cmds[i].kind != SYS_CMD_DRAW) {     /* a clear or an upload: a batch boundary, not a drain */
                if (cur) pre0 = i;
                cur = NULL;
                continue;
            }
            uint32_t np = gpu_draw_prim_count(&fr->cmds[i].draw);
            if (np == 0) continue;
            if (!cur) {
                cur = &B[nb++];
                cur->cmd = &cmdv[k];
                cur->base = &basev[k];
                cur->pre0 = pre0;
            }
            tail0 = i + 1;
            cur->cmd[cur->n_draws] = i;
            cur->base[cur->n_draws] = cur->m;
            cur->n_draws++;
            k++;
            if ((uint64_t)cur->m + np > UINT32_MAX) { sys_failf(s, "batch too large"); goto out; }
            cur->m += np;
            /* gpupd-stream ramps up: batch k of a segment closes after ramp0 << k primitives (at most --batch), so
             * the first LASTs come after a short projection and the raster side starts early */
            uint64_t thr = cfg->batch, r0 = cfg->sx_ramp ? cfg->sx_ramp : SYS_STREAM_RAMP0;
            if (cfg->scheme == SYS_SCHEME_GPUPD_STREAM && nb - 1 < 32 && (r0 << (nb - 1)) < thr) thr = r0 << (nb - 1);
            int close = cfg->scheme == SYS_SCHEME_GPUPD || cur->m > thr;
            if (cur->m > maxm) maxm = cur->m;
            if (close) { cur = NULL; pre0 = i + 1; }
        }
    }
    if (nb == 0) {
        for (uint32_t g = 0; g < N; g++)
            if (sys_exec_between(s, g, i0, i1)) goto out;
        rc = 0;
        goto out;
    }
    s->res->batches += nb;
    s->res->segments++;
    entries = calloc((size_t)nb * N, sizeof *entries);
    counts = calloc((size_t)nb * N, sizeof *counts);
    tmp = malloc((size_t)maxm * sizeof *tmp);
    proj = malloc((size_t)maxm * sizeof *proj);
    ids = malloc((size_t)maxm * sizeof *ids);
    if (!entries || !counts || !tmp || !proj || !ids) { sys_failf(s, "out of memory"); goto out; }
    int lazy = s->timed;
    if (lazy) {
        /* timed: CP of (b, g) runs when the exchange lets it start (hook_cp), rendering of b when its CD is
         * complete (hook_cd): the GPU's units see CP and rendering work in the order the hardware does */
        L.s = s;
        L.B = B;
        L.entries = entries;
        L.counts = counts;
        L.tmp = tmp;
        L.proj = proj;
        L.ids = ids;
        L.ready = malloc((size_t)maxm * sizeof *L.ready);
        L.pin = malloc((size_t)maxm * sizeof *L.pin);
        L.cfg_idx = malloc((size_t)maxm * sizeof *L.cfg_idx);
        L.cfgs = malloc((size_t)(nd ? nd : 1) * sizeof *L.cfgs);
        L.pfloor = sys_proj_slots(s) ? calloc((size_t)nb * N, sizeof *L.pfloor) : NULL;
        if (!L.ready || !L.pin || !L.cfg_idx || !L.cfgs || (sys_proj_slots(s) && !L.pfloor)) { sys_failf(s, "out of memory"); goto out; }
        for (uint32_t b = 0; b < nb; b++) {
            uint32_t m = B[b].m, c = (m + N - 1) / N;
            for (uint32_t g = 0; g < N; g++) {
                uint32_t lo = g * c < m ? g * c : m, hi = (g + 1) * c < m ? (g + 1) * c : m;
                size_t slot = (size_t)b * N + g;
                counts[slot] = hi - lo;
                entries[slot] = malloc((size_t)(hi - lo ? hi - lo : 1) * sizeof(pe_entry_t));
                if (!entries[slot]) { sys_failf(s, "out of memory"); goto out; }
            }
        }
    }
    /* CP phase: GPU g projects primitives [g*c, (g+1)*c) of every batch */
    for (uint32_t b = 0; b < nb && !lazy; b++) {
        uint32_t m = B[b].m, c = (m + N - 1) / N;
        for (uint32_t g = 0; g < N; g++) {
            uint32_t lo = g * c < m ? g * c : m, hi = (g + 1) * c < m ? (g + 1) * c : m;
            size_t slot = (size_t)b * N + g;
            counts[slot] = hi - lo;
            entries[slot] = malloc((size_t)(hi - lo ? hi - lo : 1) * sizeof(pe_entry_t));
            if (!entries[slot]) { sys_failf(s, "out of memory"); goto out; }
            for (uint32_t p = lo; p < hi; p++) ids[p - lo] = p;
            cp_ctx_t cc;
            memset(&cc, 0, sizeof cc);
            cc.out = entries[slot];
            cc.proj = proj;
            if (sys_for_groups(s, g, &B[b], ids, hi - lo, tmp, sys_project_group, &cc)) goto out;
        }
    }
    if (cfg->fault == PE_FAULT_CLEAR_MASK) {       /* a broken P2G result, for testing the checks */
        uint64_t seen = 0;
        for (size_t i = 0; i < (size_t)nb * N; i++)
            for (uint32_t k = 0; k < counts[i]; k++)
                if (entries[i][k].mask && ++seen == cfg->fault_at) { entries[i][k].mask &= entries[i][k].mask - 1; s->res->fault_fired++; }
    }
    /* optional: no primitive is missing from a GPU whose tiles it covers (timed: after the exchange, when
     * every mask exists; the probes are functional only) */
    if (cfg->check_masks && !lazy && check_masks_segment(s, B, nb, entries, counts, maxm, ids, tmp)) goto out;
    /* timed: the segment's exchange continues on the network's clock (it never goes back): a GPU's CP of the
     * first batch starts at the network's present step or later, when its front end is free */
    if (lazy && !cfg->pe_golden) {     /* timed: the RTL units' cycle models */
        if (sys_run_cdsys(s, &L, nb, nd, counts, entries)) goto out;
        if (cfg->check_masks && check_masks_segment(s, B, nb, entries, counts, maxm, ids, tmp)) goto out;
        for (uint32_t g = 0; g < N; g++)
            if (sys_exec_between(s, g, tail0, i1)) goto out;
        rc = 0;
        goto out;
    }
    if (cfg->scheme == SYS_SCHEME_GPUPD_STREAM) {
        /* functional: each GPU renders, batch by batch, what its stream PE releases by the protocol's definition */
        if (lazy) { sys_failf(s, "gpupd-stream: --pe golden is the paper protocol's PE model; the stream PE has no golden timing"); goto out; }
        if (sys_stream_render(s, B, nb, counts, entries, maxm, tmp)) goto out;
        sys_mask_stats(s, nb, counts, entries);
        for (uint32_t g = 0; g < N; g++)
            if (sys_exec_between(s, g, tail0, i1)) goto out;
        rc = 0;
        goto out;
    }
    /* CD phase */
    pe_input_t in;
    memset(&in, 0, sizeof in);
    in.n_gpus = N;
    in.n_batches = nb;
    in.entries = (const pe_entry_t *const *)entries;
    in.counts = counts;
    in.runahead = cfg->scheme == SYS_SCHEME_GPUPD_RA;
    in.send_rate = cfg->send_rate;
    in.cp_cost = cfg->cp_cost;
    in.fault = cfg->fault;
    in.fault_at = cfg->fault_at;
    if (lazy) {
        /* the golden PE streams from its local queue as the RTL does: entry i is walked once the P2G output it */
        L.eready = calloc((size_t)nb * N, sizeof *L.eready);
        if (!L.eready) { sys_failf(s, "out of memory"); goto out; }
        for (size_t i = 0; i < (size_t)nb * N; i++)
            if (!(L.eready[i] = calloc(counts[i] ? counts[i] : 1, sizeof **L.eready))) { sys_failf(s, "out of memory"); goto out; }
        in.entry_ready = L.eready;
        in.cp_ready = hook_cp;
        in.cd_complete = hook_cd;
        in.hook_user = &L;
        in.skip_idle = !cfg->no_skip;
    }
    int prc = pe_run(&in, &s->net, &pr);
    if (par_wait_all(s->par)) L.err = 1;       /* the GPUs' rendering of the segment's last batches */
    if (L.err) goto out;        /* a projection/rendering error inside a hook (already in res->err) */
    if (prc == 0 && lazy && cfg->check_masks && check_masks_segment(s, B, nb, entries, counts, maxm, ids, tmp)) goto out;
    if (prc != 0) {
        sys_failf(s, "frame %u: primitive exchange failed (scheme %s, %u GPUs, %s): %s", s->frame,
                  sys_scheme_name(cfg->scheme), N, net_topo_name(cfg->topo), pr.report);
        goto out;
    }
    if (cfg->pe_tap) cfg->pe_tap(cfg->pe_tap_user, s->frame, &in, &pr);
    s->res->exchange_steps += pr.steps;
    s->res->fault_fired += pr.fault_fired;
    for (uint32_t g = 0; g < N; g++) {
        s->res->gpu[g].prims_received += pr.gpu[g].prim_recv;
        for (uint32_t j = 0; j < N; j++) s->res->gpu[g].prims_received_from[j] += pr.gpu[g].prim_recv_from[j];
        s->res->gpu[g].prims_kept += pr.gpu[g].kept;
        s->res->gpu[g].prims_sent += pr.gpu[g].prim_sent;
    }
    s->res->exchange_stepped += pr.stepped;
    /* rendering: each GPU its received primitives, batch by batch (timed: done by hook_cd) */
    for (uint32_t g = 0; g < N && !lazy; g++)
        for (uint32_t b = 0; b < nb; b++) {
            const pe_list_t *l = &pr.recv[(size_t)b * N + g];
            if (sys_exec_between(s, g, B[b].pre0, B[b].cmd[0])) goto out;
            if (sys_for_groups(s, g, &B[b], l->prims, l->n, tmp, sys_render_group, NULL)) goto out;
        }
    for (uint32_t g = 0; g < N; g++)
        if (sys_exec_between(s, g, tail0, i1)) goto out;
    rc = 0;
out:
    if (par_wait_all(s->par)) rc = -1;         /* (an error path: no task may outlive the segment's buffers) */
    pe_result_free(&pr, nb * N);
    if (entries)
        for (size_t i = 0; i < (size_t)nb * N; i++) free(entries[i]);
    free(entries);
    free(counts);
    free(tmp);
    free(proj);
    free(ids);
    free(B);
    free(cmdv);
    free(basev);
    free(L.ready);
    free(L.pin);
    free(L.cfg_idx);
    free(L.cfgs);
    free(L.pfloor);
    if (L.eready)
        for (size_t i = 0; i < (size_t)nb * N; i++) free(L.eready[i]);
    free(L.eready);
    return rc;
}
