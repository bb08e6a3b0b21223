/* Synchronisation of render-to-texture surfaces under SFR (updated tiles broadcast to every GPU) and its
 * timing; clears and uploads with the updated-tile bookkeeping. */
#include "sys/sys_internal.h"

#include <stdlib.h>
#include <string.h>

uint64_t sys_xfer_ticks(uint64_t bytes, uint64_t mbpc) { return (bytes * 1000 * GT_TPC + mbpc - 1) / mbpc; }

/* Every GPU waits until all are drained, then GPU 0, 1, ... broadcast their updated tiles in turn (paper 5:
 * "GPUs broadcast the updated contents ... to other GPUs in turn"). A broadcast takes its bytes at the link
 * bandwidth plus the latency of the longest path (line: hops to the farther end; hub: two links, and the
 * switch copies it to N-1 GPUs at the hub bandwidth). The wait and the transfers are Sync cycles. */
static void sync_timing(sys_t *s, const uint64_t *gbytes)
{
    uint32_t N = s->N;
    uint64_t t = 0, lat = (uint64_t)s->net.latency * GT_TPC;
    for (uint32_t g = 0; g < N; g++) t = gt_max(t, gt_drained(&s->tm[g]));
    for (uint32_t g = 0; g < N; g++) {
        if (!gbytes[g]) continue;
        uint64_t d = sys_xfer_ticks(gbytes[g], s->link_mbpc);
        if (s->cfg->topo == NET_HUB) {
            d = gt_max(d, sys_xfer_ticks(gbytes[g] * (N - 1), s->hub_mbpc)) + 2 * lat;
            s->link_sync_ticks[s->net.out_link[g * s->net.n_nodes + N]] += sys_xfer_ticks(gbytes[g], s->link_mbpc);
            for (uint32_t k = 0; k < N; k++)
                if (k != g) s->link_sync_ticks[s->net.out_link[N * s->net.n_nodes + k]] += sys_xfer_ticks(gbytes[g], s->link_mbpc);
        } else {
            uint32_t hops = g > N - 1 - g ? g : N - 1 - g;
            d += (uint64_t)hops * lat;
            for (uint32_t i = g; i + 1 < N; i++) s->link_sync_ticks[s->net.out_link[i * s->net.n_nodes + i + 1]] += sys_xfer_ticks(gbytes[g], s->link_mbpc);
            for (uint32_t i = g; i > 0; i--) s->link_sync_ticks[s->net.out_link[i * s->net.n_nodes + i - 1]] += sys_xfer_ticks(gbytes[g], s->link_mbpc);
        }
        t += d;
    }
    for (uint32_t g = 0; g < N; g++) {
        uint64_t dr = gt_drained(&s->tm[g]);
        s->res->gpu[g].cyc_sync += (t - dr) / GT_TPC;
        gt_barrier(&s->tm[g], t);
    }
}

/* Render-to-texture synchronisation of surface sid (SFR). */
void sys_sync_surface(sys_t *s, int32_t sid)
{
    const sys_surface_desc_t *sd = &s->scene->surf[sid];
    uint32_t ts = 1u << s->cfg->tile_log2;
    uint32_t tpr = (sd->w + ts - 1) / ts, tpc = (sd->h + ts - 1) / ts;
    uint32_t wpt = gpu_fmt_words(sd->fmt);  /* 32-bit words per texel */
    int any = 0;
    if (!s->gpu[0].dirty[sid]) return;      /* shared read-only texture */
    uint64_t gbytes[64];
    for (uint32_t g = 0; g < s->N; g++) {
        uint64_t bytes = 0;
        for (uint32_t t = 0; t < tpr * tpc; t++) {
            if (!s->gpu[g].dirty[sid][t]) continue;
            s->gpu[g].dirty[sid][t] = 0;
            uint32_t tx = t % tpr, ty = t / tpr;
            uint32_t x0 = tx * ts, y0 = ty * ts;
            uint32_t x1 = x0 + ts < sd->w ? x0 + ts : sd->w, y1 = y0 + ts < sd->h ? y0 + ts : sd->h;
            for (uint32_t k = 0; k < s->N; k++) {
                if (k == g) continue;
                for (uint32_t y = y0; y < y1 && s->gpu[k].surf[sid].data; y++)
                    memcpy(&s->gpu[k].surf[sid].data[((size_t)y * sd->w + x0) * wpt], &s->gpu[g].surf[sid].data[((size_t)y * sd->w + x0) * wpt],
                           (size_t)(x1 - x0) * 4 * wpt);
                gpu_surface_changed(&s->gpu[k], (int32_t)sid);
            }
            bytes += (uint64_t)(x1 - x0) * (y1 - y0) * 4 * wpt;
        }
        gbytes[g] = bytes;
        if (bytes) {
            any = 1;
            net_account_broadcast(&s->net, g, bytes);
            s->res->gpu[g].sync_bytes_sent += bytes;
            s->res->sync_bytes += bytes * (s->N - 1);
        }
    }
    if (any) s->res->syncs++;
    if (any && s->timed) sync_timing(s, gbytes);
}

int sys_surface_dirty(const sys_t *s, int32_t sid)
{
    const sys_surface_desc_t *sd = &s->scene->surf[sid];
    uint32_t ts = 1u << s->cfg->tile_log2;
    uint32_t nt = ((sd->w + ts - 1) / ts) * ((sd->h + ts - 1) / ts);
    if (!s->gpu[0].dirty[sid]) return 0;
    for (uint32_t g = 0; g < s->N; g++)
        for (uint32_t t = 0; t < nt; t++)
            if (s->gpu[g].dirty[sid][t]) return 1;
    return 0;
}

/* GPUs first..first+count-1 hold the same contents of sid as every other GPU for their part: forget their
 * updated tiles (a per-GPU clear or upload inside a segment runs on each GPU at its own time) */
static void clear_dirty(sys_t *s, int32_t sid, uint32_t first, uint32_t count)
{
    const sys_surface_desc_t *sd = &s->scene->surf[sid];
    uint32_t ts = 1u << s->cfg->tile_log2;
    uint32_t nt = ((sd->w + ts - 1) / ts) * ((sd->h + ts - 1) / ts);
    if (!s->gpu[0].dirty[sid]) return;
    for (uint32_t g = first; g < first + count; g++) memset(s->gpu[g].dirty[sid], 0, nt);
}

int sys_is_full_clear(const sys_t *s, const sys_cmd_t *c)
{
    const sys_surface_desc_t *sd = &s->scene->surf[c->surface];
    int full_area = c->sw == 0 || (c->sx <= 0 && c->sy <= 0 && (int64_t)c->sx + c->sw >= sd->w && (int64_t)c->sy + c->sh >= sd->h);
    return full_area && (sd->fmt == GPU_FMT_DEPTH24 || (c->mask & 0xF) == 0xF);
}

int sys_exec_clear(sys_t *s, const sys_cmd_t *c, uint32_t first, uint32_t count)
{
    for (uint32_t g = first; g < first + count; g++) {
        int rc = gpu_fmt_is_float(s->scene->surf[c->surface].fmt)
                     ? gpu_clear_float(&s->gpu[g], c->surface, c->color, c->mask, c->sx, c->sy, c->sw, c->sh)
                     : gpu_clear(&s->gpu[g], c->surface, c->value, c->mask, c->sx, c->sy, c->sw, c->sh);
        if (rc != 0)
            return sys_failf(s, "frame %u: %s", s->frame, s->gpu[g].err);
        if (s->timed) {     /* SFR: each GPU's ROPs clear its own tiles (1/N of the area); AFR/single: all */
            const sys_surface_desc_t *sd = &s->scene->surf[c->surface];
            uint64_t area = c->sw ? (uint64_t)c->sw * c->sh : (uint64_t)sd->w * sd->h;
            if (area > (uint64_t)sd->w * sd->h) area = (uint64_t)sd->w * sd->h;
            gt_clear(&s->tm[g], area * 4 * gpu_fmt_words(sd->fmt) / (sys_sfr(s) ? s->N : 1));
        }
    }
    if (sys_sfr(s) && sys_is_full_clear(s, c)) clear_dirty(s, c->surface, first, count);
    return 0;
}

void sys_exec_upload(sys_t *s, const sys_cmd_t *c, uint32_t first, uint32_t count)
{
    const sys_surface_desc_t *sd = &s->scene->surf[c->surface];
    for (uint32_t g = first; g < first + count; g++)
    {
        if (s->gpu[g].surf[c->surface].data)    /* NULL: no contents (replay) */
            memcpy(s->gpu[g].surf[c->surface].data, c->data, (size_t)sd->w * sd->h * 4 * gpu_fmt_words(sd->fmt));
        gpu_surface_changed(&s->gpu[g], c->surface);
    }
    if (sys_sfr(s)) clear_dirty(s, c->surface, first, count);
}
