/* Statistics JSON of a run (gpupd-sim --stats-json; keys are a stable interface, tests/results). Written
 * with printf formats, not a JSON library: the byte layout (key order, line breaks, number formats) is the
 * stored result set's. */
#include "sys/sys.h"

#include "common/outfile.h"
#include "sys/chopin.h"
#include "sys/cdsys.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void json_gpu_stats(FILE *f, const char *name, const gpu_stats_t *s)
{
    fprintf(f, "\"%s\": {\"prims_in\": %" PRIu64 ", \"vs_invocations\": %" PRIu64 ", \"vs_cache_hits\": %" PRIu64
               ", \"prims_culled\": %" PRIu64
               ", \"tris_setup\": %" PRIu64 ", \"prims_rasterized\": %" PRIu64 ", \"quads\": %" PRIu64
               ", \"fragments\": %" PRIu64 ", \"helpers\": %" PRIu64 ", \"ez_killed\": %" PRIu64
               ", \"fs_fragments\": %" PRIu64 ", \"discarded\": %" PRIu64 ", \"z_killed\": %" PRIu64
               ", \"pixels_written\": %" PRIu64 "}",
            name, s->prims_in, s->vs_invocations, s->vs_cache_hits, s->prims_culled, s->tris_setup, s->prims_rasterized, s->quads,
            s->fragments, s->helpers, s->ez_killed, s->fs_fragments, s->discarded, s->z_killed, s->pixels_written);
}

int sys_write_stats_json(const sys_result_t *res, const sys_config_t *cfg, const char *trace_name, const char *path)
{
    outf_t of;
    char oerr[512];
    if (outf_open(&of, path, 0, oerr, sizeof oerr)) return -1;
    FILE *f = of.f;
    uint32_t N = cfg->scheme == SYS_SCHEME_SINGLE ? 1 : cfg->n_gpus;
    fprintf(f, "{\n  \"trace\": \"%s\",\n  \"scheme\": \"%s\",\n  \"gpus\": %u,\n  \"topology\": \"%s\",\n"
               "  \"batch\": %u,\n  \"frame\": %u,\n  \"width\": %u,\n  \"height\": %u,\n"
               "  \"frame_hash\": \"%016" PRIx64 "\",\n  \"draws\": %" PRIu64 ",\n  \"prims_app\": %" PRIu64 ",\n"
               "  \"batches\": %" PRIu64 ",\n  \"segments\": %" PRIu64 ",\n  \"syncs\": %" PRIu64 ",\n"
               "  \"sync_bytes\": %" PRIu64 ",\n  \"exchange_steps\": %" PRIu64 ",\n  \"mask_checks\": %" PRIu64 ",\n",
            trace_name ? trace_name : "", sys_scheme_name(cfg->scheme), N, net_topo_name(cfg->topo), cfg->batch,
            cfg->frame, res->w, res->h, res->replayed ? res->frame_hash : sys_frame_hash(res->pixels, (size_t)res->w * res->h), res->draws,
            res->prims_app, res->batches, res->segments, res->syncs, res->sync_bytes, res->exchange_steps, res->mask_checks);
    /* The keys of chopin (traffic by kind, composition per GPU and link, the "chopin" object) are written for
     * chopin runs only: the JSON of every other scheme stays byte for byte what it was (tests/results). */
    int chop = cfg->scheme == SYS_SCHEME_CHOPIN;
    if (chop) {
        /* traffic by kind over every link traversal (bytes): PRIM and LAST packets, framebuffer synchronisation,
         * chopin's sub-image composition */
        uint64_t tp = 0, tl = 0, tsy = 0, tc = 0;
        for (uint32_t i = 0; i < res->n_links; i++) {
            tp += res->links[i].prim_flits * 8;
            tl += res->links[i].last_flits * 8;
            tsy += res->links[i].sync_bytes;
            tc += res->links[i].comp_bytes;
        }
        fprintf(f, "  \"traffic\": {\"prim\": %" PRIu64 ", \"last\": %" PRIu64 ", \"sync\": %" PRIu64 ", \"composition\": %" PRIu64
                   "},\n", tp, tl, tsy, tc);
    }
    if (chop)
        fprintf(f, "  \"chopin\": {\"min_tris\": %u, \"max_draw_tris\": %u, \"scheduler\": \"%s\", \"groups_composed\": %" PRIu64
                   ", \"groups_dup_small\": %" PRIu64 ", \"groups_dup_blend_depth\": %" PRIu64 ", \"groups_dup_blend\": %" PRIu64
                   ", \"groups_dup_state\": %" PRIu64 ", \"composition_bytes\": %" PRIu64 ", \"tie_pixels\": %" PRIu64 "},\n",
                cfg->chopin_min_tris, cfg->chopin_max_draw_tris, cfg->chopin_rr ? "round-robin" : "least-triangles", res->comp_groups,
                res->comp_fallback[CHOPIN_OPAQUE], res->comp_fallback[CHOPIN_DUP_BLEND_DEPTH], res->comp_fallback[CHOPIN_DUP_BLEND],
                res->comp_fallback[CHOPIN_DUP_STATE], res->comp_bytes, res->comp_tie_pixels);
    /* gpupd-stream runs add (and only they) the stream PE's parameters and CREDIT traffic, and per GPU
     * "reorder_max_ids" (docs/timing.md section 4) */
    int strm = cfg->scheme == SYS_SCHEME_GPUPD_STREAM;
    if (strm) {
        fprintf(f, "  \"stream\": {\"k\": %u, \"depth\": %u, \"live\": %u, \"front\": \"%s\", \"credit_flits\": ",
                cfg->sx_k ? cfg->sx_k : 1, cfg->sx_depth ? cfg->sx_depth : CDSYS_SX_DEPTH_DEFAULT,
                cfg->sx_live ? cfg->sx_live : CDSYS_SX_LIVE_DEFAULT, sys_sx_front_name(cfg->sx_front));
        if (res->timed) fprintf(f, "%" PRIu64 "},\n", res->credit_flits);
        else fprintf(f, "null},\n");
    }
    if (res->timed) {
        fprintf(f, "  \"timed\": true,\n  \"cycles\": %" PRIu64 ",\n  \"exchange_overhead_cycles\": %" PRIu64 ",\n  \"timing\": {\"clock_ghz\": 1, \"link_latency_ns\": %g"
                   ", \"link_gbps\": %g, \"hub_gbps\": %g, \"p2g_rows\": %u, \"pe\": \"%s\", \"skip_idle\": %s, \"exchange_cycles_stepped\": %" PRIu64
                   ", \"p2g_cycles_stepped\": %" PRIu64 ", \"timeline_window_cycles\": %u,\n    \"params\": {",
                res->cycles, res->exchange_overhead, cfg->link_latency_ns, cfg->link_gbps, cfg->hub_gbps, cfg->p2g_rows ? cfg->p2g_rows : 2,
                cfg->scheme == SYS_SCHEME_GPUPD_STREAM ? "stream" : cfg->pe_golden ? "golden" : "rtl",
                cfg->no_skip ? "false" : "true", res->exchange_stepped, res->p2g_cycles_stepped,
                cfg->timeline_log2 ? 1u << cfg->timeline_log2 : 0u);
        size_t np;
        const gt_param_t *pt = gt_params(&np);
        for (size_t i = 0; i < np; i++) fprintf(f, "%s\"%s\": %g", i ? ", " : "", pt[i].name, gpu_tcfg_get(&cfg->tcfg, &pt[i]));
        fprintf(f, "}},\n");
        if (cfg->topo == NET_HUB && N > 1)
            fprintf(f, "  \"hub\": {\"flits\": %" PRIu64 ", \"busy_cycles\": %" PRIu64 ", \"utilisation\": %.4f},\n",
                    res->hub_flits, res->hub_busy_cycles, res->cycles && cfg->hub_gbps > 0 ?
                    (double)res->hub_flits * 8.0 / (cfg->hub_gbps * (double)res->cycles) : 0.0);
    } else {
        fprintf(f, "  \"timed\": false,\n  \"cycles\": null,\n  \"exchange_overhead_cycles\": null,\n");
    }
    fprintf(f, "  \"per_gpu\": [\n");
    for (uint32_t g = 0; g < N; g++) {
        const sys_gpu_stats_t *s = &res->gpu[g];
        fprintf(f, "    {\"gpu\": %u, \"prims_projected\": %" PRIu64 ", \"prims_received\": %" PRIu64
                   ", \"prims_kept\": %" PRIu64 ", \"prims_to_render\": %" PRIu64 ", \"prims_rasterized\": %" PRIu64
                   ", \"prims_sent\": %" PRIu64 ", \"fragments\": %" PRIu64 ", \"sync_bytes_sent\": %" PRIu64
                   ", \"frames_rendered\": %" PRIu64 ",\n      ",
                g, s->prims_projected, s->prims_received, s->prims_kept, s->prims_to_render, s->render.prims_rasterized,
                s->prims_sent, s->render.fragments, s->sync_bytes_sent, s->frames_rendered);
        if (chop)
            fprintf(f, "\"composition_draws\": %" PRIu64 ", \"composition_bytes_sent\": %" PRIu64 ", ", s->comp_draws, s->comp_bytes_sent);
        if (strm && res->timed) fprintf(f, "\"reorder_max_ids\": %" PRIu64 ", ", s->reorder_max_ids);
        else if (strm) fprintf(f, "\"reorder_max_ids\": null, ");
        if (chop && res->timed) fprintf(f, "\"composition_cycles\": %" PRIu64 ", ", s->comp_cycles);
        else if (chop) fprintf(f, "\"composition_cycles\": null, ");
        if (res->timed) {
            fprintf(f, "\"cycles_done\": %" PRIu64 ", \"exchange_wait_cycles\": %" PRIu64 ", \"cycle_stack\": {\"no_primitive\": %" PRIu64 ", \"stall\": %" PRIu64
                       ", \"sync\": %" PRIu64 ", \"issue\": %" PRIu64 "},\n      \"utilisation\": {",
                    s->cyc_done, s->exchange_wait_ticks / GT_TPC, s->cyc_no_primitive, s->cyc_stall, s->cyc_sync, s->cyc_issue);
            double tot = (double)res->cycles * GT_TPC;
            for (int u = 0; u < GT_NUNITS; u++) {
                double div = tot * (u == GT_SHADER ? cfg->tcfg.cores : u == GT_P2G && cfg->tcfg.fe_rate ? cfg->tcfg.fe_rate : 1);
                fprintf(f, "%s\"%s\": %.4f", u ? ", " : "", gt_unit_name(u), div > 0 ? (double)s->unit_ticks[u] / div : 0.0);
            }
            fprintf(f, "},\n      \"mem_bytes\": %" PRIu64 ", \"row_hits\": %" PRIu64 ", \"row_misses\": %" PRIu64
                       ", \"vs_warps\": %" PRIu64 ", \"fs_warps\": %" PRIu64 ", \"vs_instrs_per_warp\": %.2f"
                       ", \"fs_instrs_per_warp\": %.2f, \"p2g_prims\": %" PRIu64 ", \"shader_profiles\": %" PRIu64 ",\n      ",
                    s->mem_bytes, s->row_hits, s->row_misses, s->vs_warps, s->fs_warps,
                    s->vs_warps ? (double)s->vs_instrs / (double)s->vs_warps : 0.0,
                    s->fs_warps ? (double)s->fs_instrs / (double)s->fs_warps : 0.0, s->p2g_prims, s->shader_profiles);
        } else {
            fprintf(f, "\"cycles_done\": null, \"exchange_wait_cycles\": null, \"cycle_stack\": {\"no_primitive\": null, \"stall\": null, \"sync\": null"
                       ", \"issue\": null},\n      ");
        }
        fprintf(f, "\"prims_received_from\": [");
        for (uint32_t j = 0; j < N; j++) fprintf(f, "%s%" PRIu64, j ? ", " : "", s->prims_received_from[j]);
        fprintf(f, "],\n      ");
        json_gpu_stats(f, "render", &s->render);
        fprintf(f, ",\n      ");
        json_gpu_stats(f, "project", &s->project);
        fprintf(f, "}%s\n", g + 1 < N ? "," : "");
    }
    fprintf(f, "  ],\n  \"links\": [\n");
    for (uint32_t i = 0; i < res->n_links; i++) {
        const sys_link_stats_t *l = &res->links[i];
        uint64_t flits = l->prim_flits + l->last_flits;
        fprintf(f, "    {\"from\": \"%s%u\", \"to\": \"%s%u\", \"prim_packets\": %" PRIu64 ", \"last_packets\": %" PRIu64
                   ", \"packet_bytes\": %" PRIu64 ", \"prim_bytes\": %" PRIu64 ", \"last_bytes\": %" PRIu64
                   ", \"sync_bytes\": %" PRIu64,
                l->from == N && cfg->topo == NET_HUB ? "hub" : "gpu", l->from == N && cfg->topo == NET_HUB ? 0 : l->from,
                l->to == N && cfg->topo == NET_HUB ? "hub" : "gpu", l->to == N && cfg->topo == NET_HUB ? 0 : l->to,
                l->prim_flits, l->last_flits, flits * 8, l->prim_flits * 8, l->last_flits * 8, l->sync_bytes);
        if (chop) fprintf(f, ", \"composition_bytes\": %" PRIu64, l->comp_bytes);
        fprintf(f, ", \"bytes\": %" PRIu64, flits * 8 + l->sync_bytes + l->comp_bytes);
        if (res->timed)
            fprintf(f, ", \"busy_cycles\": %" PRIu64 ", \"utilisation\": %.4f", l->busy_cycles,
                    res->cycles ? (double)l->busy_cycles / (double)res->cycles : 0.0);
        fprintf(f, "}%s\n", i + 1 < res->n_links ? "," : "");
    }
    fprintf(f, "  ],\n  \"draw_pixels\": [");
    for (uint32_t i = 0; i < res->n_draws_frame; i++)
        fprintf(f, "%s[%" PRIu64 ", %" PRId64 "]", i ? ", " : "", res->draw_pixels[i], res->draw_ref_pixels[i]);
    fprintf(f, "]\n}\n");
    return outf_commit(&of, oerr, sizeof oerr);
}
