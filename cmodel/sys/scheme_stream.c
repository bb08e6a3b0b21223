/* gpupd-stream (issue 20 item 2): the ordered streaming exchange. A segment is formed and projected as under
 * gpupd-batch (scheme_gpupd.c); the exchange differs. Functional: every GPU renders, batch by batch, what its
 * stream PE releases by the protocol's definition (cmodel/stream/sx.h). Timed: the CD system in stream mode
 * (cdsys.h: the stream PE's cycle model cmodel/stream/sx_hw.h per GPU over the timed network, set up in
 * gpupd_cdsys.c) calls sys_stream_release for every (batch, source) a GPU's stream PE has released. */
#include "sys/sys_internal.h"

#include <stdlib.h>
#include <string.h>

#include "stream/sx.h"

/* GPU g's stream PE released every primitive of (batch b, source src) at `step`: the raster side renders them
 * from then on. The clears and uploads before batch b run at its first release; the front end's wait for a
 * non-empty piece is the GPU's exchange wait (docs/timing.md, section 3). */
int sys_stream_release(void *u, uint32_t g, uint32_t b, uint32_t src, uint64_t step, const uint32_t *prims, size_t n)
{
    lazy_t *L = u;
    if (L->err) return -1;
    if (sys_render_batch_task(L, g, b, (int)src, src == 0 ? SYS_RB_PRE : 0, step, prims, n)) { L->err = 1; return -1; }
    return 0;
}

void sys_mask_stats(sys_t *s, uint32_t nb, const uint32_t *counts, pe_entry_t *const *entries)
{
    uint32_t N = s->N;
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t g = 0; g < N; g++)
            for (uint32_t i = 0; i < counts[(size_t)b * N + g]; i++) {
                uint64_t mk = entries[(size_t)b * N + g][i].mask;
                for (uint32_t t = 0; t < N; t++) {
                    if (!(mk >> t & 1)) continue;
                    if (t == g) { s->res->gpu[g].prims_kept++; continue; }
                    s->res->gpu[g].prims_sent++;
                    s->res->gpu[t].prims_received++;
                    s->res->gpu[t].prims_received_from[g]++;
                }
            }
}

int sys_stream_render(sys_t *s, const batch_t *B, uint32_t nb, const uint32_t *counts, pe_entry_t *const *entries,
                      uint32_t maxm, gpu_prim_req_t *tmp)
{
    uint32_t N = s->N;
    int rc = -1;
    sx_entry_t **xc = calloc((size_t)nb * N, sizeof *xc);
    uint32_t *lst = malloc((size_t)(maxm ? maxm : 1) * sizeof *lst);
    sx_rel_list_t rel;
    memset(&rel, 0, sizeof rel);
    if (!xc || !lst) { sys_failf(s, "out of memory"); goto out; }
    for (size_t i = 0; i < (size_t)nb * N; i++) {
        if (!(xc[i] = malloc((size_t)(counts[i] ? counts[i] : 1) * sizeof **xc))) { sys_failf(s, "out of memory"); goto out; }
        for (uint32_t k = 0; k < counts[i]; k++) xc[i][k] = (sx_entry_t){entries[i][k].prim, entries[i][k].mask};
    }
    sx_input_t xin = {N, nb, (const sx_entry_t *const *)xc, counts};
    for (uint32_t g = 0; g < N; g++) {
        rel.n = 0;
        if (sx_run_one(&xin, g, &rel)) { sys_failf(s, "gpupd-stream: the release definition failed (out of memory)"); goto out; }
        uint32_t b = 0, n = 0;
        for (size_t i = 0; i < rel.n; i++) {
            const sx_rel_t *e = &rel.v[i];
            if (e->batch != b || b >= nb || (!e->eob && n >= B[b].m)) {
                sys_failf(s, "gpupd-stream: GPU %u release record %zu out of order (internal error)", g, i);
                goto out;
            }
            if (!e->eob) { lst[n++] = e->id; continue; }
            if (sys_exec_between(s, g, B[b].pre0, B[b].cmd[0]) || sys_for_groups(s, g, &B[b], lst, n, tmp, sys_render_group, NULL))
                goto out;
            b++;
            n = 0;
        }
        if (b != nb) { sys_failf(s, "gpupd-stream: GPU %u released %u of %u batches (internal error)", g, b, nb); goto out; }
    }
    rc = 0;
out:
    if (xc)
        for (size_t i = 0; i < (size_t)nb * N; i++) free(xc[i]);
    free(xc);
    free(lst);
    sx_rel_free(&rel);
    return rc;
}
