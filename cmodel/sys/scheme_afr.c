/* Scheme afr: frame f renders on GPU f mod N; surfaces a frame needs are copied from a GPU holding them. */
#include "sys/sys_internal.h"

#include <stdlib.h>
#include <string.h>

static int frame_needs(const sys_t *s, const sys_frame_t *fr, int32_t sid)
{
    for (size_t i = 0; i < fr->n; i++) {
        const sys_cmd_t *c = &fr->cmds[i];
        if (c->kind == SYS_CMD_UPLOAD && c->surface == sid) return 0;
        if (c->kind == SYS_CMD_CLEAR && c->surface == sid) {
            if (sys_is_full_clear(s, c)) return 0;
            return 1;
        }
        if (c->kind == SYS_CMD_DRAW && (sys_draw_reads(&c->draw, sid) || sys_draw_writes(&c->draw, sid))) return 1;
    }
    return 0;
}

int sys_run_frame_afr(sys_t *s)
{
    const sys_frame_t *fr = &s->scene->frames[s->frame];
    uint32_t g = s->frame % s->N;
    uint32_t allm = s->N >= 64 ? ~0u : ((1u << s->N) - 1);
    (void)allm;
    for (uint32_t sid = 0; sid < s->scene->n_surf; sid++) {
        if (s->valid[sid] & (1ull << g)) continue;
        if (!frame_needs(s, fr, (int32_t)sid)) continue;
        uint32_t h = 0;
        while (h < s->N && !(s->valid[sid] & (1ull << h))) h++;
        if (h == s->N) continue;
        const sys_surface_desc_t *sd = &s->scene->surf[sid];
        uint64_t bytes = (uint64_t)sd->w * sd->h * 4 * gpu_fmt_words(sd->fmt);
        if (s->gpu[g].surf[sid].data) memcpy(s->gpu[g].surf[sid].data, s->gpu[h].surf[sid].data, bytes);   /* NULL: replay */
        gpu_surface_changed(&s->gpu[g], (int32_t)sid);
        net_account_unicast(&s->net, h, g, bytes);
        if (s->timed) {     /* GPU g waits for the copy: bytes at the link bandwidth + latency per hop */
            uint32_t hops = s->cfg->topo == NET_HUB ? 2 : (h > g ? h - g : g - h);
            uint64_t t0 = gt_drained(&s->tm[g]);
            uint64_t t1 = t0 + sys_xfer_ticks(bytes, s->link_mbpc) + (uint64_t)hops * s->net.latency * GT_TPC;
            s->res->gpu[g].cyc_sync += (t1 - t0) / GT_TPC;
            gt_barrier(&s->tm[g], t1);
        }
        s->res->gpu[h].sync_bytes_sent += bytes;
        s->res->sync_bytes += bytes;
        s->res->syncs++;
        s->valid[sid] |= 1ull << g;
    }
    for (uint32_t i = 0; i < fr->n; i++) {
        const sys_cmd_t *c = &fr->cmds[i];
        if (c->kind == SYS_CMD_CLEAR) {
            if (sys_exec_clear(s, c, g, 1)) return -1;
            s->valid[c->surface] = 1ull << g;
        } else if (c->kind == SYS_CMD_UPLOAD) {
            sys_exec_upload(s, c, 0, s->N);
            s->valid[c->surface] = s->N >= 64 ? ~0ull : ((1ull << s->N) - 1);
        } else {
            if (sys_check_draw(s, i)) return -1;
            uint32_t m = gpu_draw_prim_count(&c->draw);
            gpu_prim_req_t *all = malloc((size_t)(m ? m : 1) * sizeof *all);
            if (!all) return sys_failf(s, "out of memory");
            for (uint32_t p = 0; p < m; p++) { all[p].prim = p; all[p].tag = p; }
            int rc = sys_render_on(s, g, i, all, m);
            free(all);
            if (rc) return -1;
            for (int r = 0; r < GPU_MAX_RTS; r++)
                if (c->draw.st.rt[r] >= 0) s->valid[c->draw.st.rt[r]] = 1ull << g;
            if (c->draw.st.depth_rt >= 0) s->valid[c->draw.st.depth_rt] = 1ull << g;
        }
    }
    s->res->gpu[g].frames_rendered++;
    return 0;
}
