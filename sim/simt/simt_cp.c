/* The CP phase of one GPU on the SIMT RTL (sim/simt/simt_cosim.h; cosim-simt --cp-trace).
 * A real trace's draws: the vertex shader (the draw's program, vs_mvp for the traces' MVP transforms) runs on
 * the core (one warp per batch of up to 30 vertices the pipeline's vertex cache asks for, each batch a
 * lockstep job checked like any other); primitive assembly, clipping, viewport snapping and culling stay in C
 * (gpu_project through a shader backend whose run_vs is the RTL); the resulting P2G inputs must equal the
 * golden model's (its CP-phase tap) field by field and their masks (p2g_mask) the golden model's masks.
 * The stream of RTL-derived P2G inputs with the golden masks is written for cosim-p2g --replay (the P2G RTL). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "gpu/isa_backend.h"
#include "simt_cosim.h"
#include "sys/sys.h"
#include "sys/trace_scene.h"

typedef struct {
    uint32_t gpu, cmd;
    p2g_config_t cfg;
    p2g_prim_t p;
    uint64_t mask;
} cp_rec_t;

typedef struct {
    cp_rec_t *r;
    size_t n, cap;
    int oom;
} cp_tap_t;

static void cp_tap(void *user, uint32_t gpu, uint32_t cmd, const p2g_config_t *cfg, const p2g_prim_t *in, uint64_t mask)
{
    cp_tap_t *t = user;
    if (t->oom)
        return;
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 4096;
        cp_rec_t *nr = realloc(t->r, nc * sizeof *nr);
        if (!nr) {
            t->oom = 1;
            return;
        }
        t->r = nr;
        t->cap = nc;
    }
    cp_rec_t *r = &t->r[t->n++];
    r->gpu = gpu;
    r->cmd = cmd;
    r->cfg = *cfg;
    r->p = *in;
    r->mask = mask;
}

typedef struct {
    ctx_t *c;
    simt_dut_t *dut;
    simt_hw_t *hw;
    stats_t *st;
    uint64_t calls, verts, seed;
    int failed;
} cp_vs_t;

static int cp_run_vs(void *ctxp, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_ATTRIBS][4],
                     float (*out)[1 + GPU_MAX_VARYINGS][4])
{
    cp_vs_t *v = ctxp;
    const gpu_isa_prog_t *prog = d->vs_prog;
    if (v->failed || n == 0 || n > 32 || !prog)
        return -1;
    job_t j;
    memset(&j, 0, sizeof j);
    j.kind = JOB_SHADER;
    j.seed = v->calls;
    snprintf(j.name, sizeof j.name, "cp %s batch %" PRIu64, prog->name, v->calls);
    if (job_alloc(&j, 1)) {
        job_free(&j);
        return -1;
    }
    memcpy(j.code, prog->words, prog->n * sizeof(uint64_t));
    j.len = prog->n;
    for (uint32_t r = 0; r < GPU_MAX_CONSTS && 4 * r + 3 < ISA_CONST_WORDS; r++)
        for (int k = 0; k < 4; k++)
            j.ctx->konst[4 * r + (uint32_t)k] = isa_float_bits(d->vs_consts[r][k]);
    isa_warp_t *w = j.iw[0];
    isa_warp_init(w, 0, n >= 32 ? 0xffffffffu : ((1u << n) - 1u));
    for (uint32_t t = 0; t < n; t++) {
        for (uint32_t a = 0; a < gpu_attr_span(d->n_attribs) && 4 * a + 3 < ISA_ATTR_WORDS; a++)
            for (int k = 0; k < 4; k++)
                w->attr[4 * a + (uint32_t)k][t] = isa_float_bits(in[t][a][k]);
        w->sr_vertex[t] = t;
    }
    j.readback = 1;
    j.rb_words = 4u * (1u + d->n_varyings);
    if (j.rb_words > 64)
        j.rb_words = 64;
    fail_t fl;
    int rc = job_load(&j, 0) ? 1 : run_job(v->c, &j, v->dut, v->hw, v->st, &fl, UINT64_MAX, 0, UINT64_MAX);
    if (rc == 0)
        for (uint32_t t = 0; t < n; t++)
            for (uint32_t s = 0; s < 1 + GPU_MAX_VARYINGS; s++)
                for (int k = 0; k < 4; k++)
                    out[t][s][k] = 4 * s + (uint32_t)k < j.rb_words ? isa_bits_float(j.rtl_out[0][4 * s + (uint32_t)k][t]) : 0.0f;
    job_free(&j);
    v->calls++;
    v->verts += n;
    if (rc)
        v->failed = 1;
    return rc ? -1 : 0;
}

static int cp_run_fs(void *ctx, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_VARYINGS][4],
                     const float (*frag_pos)[4], float (*color)[GPU_MAX_RTS][4], float *depth, uint8_t *discard)
{
    (void)ctx; (void)d; (void)n; (void)in; (void)frag_pos; (void)color; (void)depth; (void)discard;
    return -1;   /* projection never shades fragments */
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int run_cp(ctx_t *c, simt_dut_t *dut, simt_hw_t *hw, stats_t *st, const char *trace, uint32_t frame, uint32_t gpus,
                  p2g_mode_t own, uint32_t max_prims, const char *stream)
{
    sys_scene_t s;
    sys_trace_info_t ti;
    char err[512];
    if (sys_scene_from_trace(&s, trace, frame, &ti, err, sizeof err)) {
        fprintf(stderr, "cosim-simt: %s\n", err);
        return 2;
    }
    cp_tap_t tap;
    memset(&tap, 0, sizeof tap);
    sys_config_t cfg = sys_config_default();
    cfg.scheme = SYS_SCHEME_GPUPD;
    cfg.n_gpus = gpus;
    cfg.own_mode = own;
    cfg.frame = frame;
    cfg.p2g_tap = cp_tap;
    cfg.p2g_tap_user = &tap;
    sys_result_t res;
    if (sys_run(&s, &cfg, &res) || tap.oom) {
        fprintf(stderr, "cosim-simt: golden model: %s\n", tap.oom ? "out of memory" : res.err);
        sys_scene_free(&s);
        return 2;
    }
    gpu_isa_library_t lib;
    memset(&lib, 0, sizeof lib);
    if (gpu_isa_library_load(&lib, err, sizeof err)) {
        fprintf(stderr, "cosim-simt: %s\n", err);
        sys_scene_free(&s);
        return 2;
    }
    gpu_t g;
    memset(&g, 0, sizeof g);
    uint32_t *zero = NULL;
    int rc = 0;
    if (gpu_init(&g, 0, 1, own, cfg.tile_log2) != 0) {
        fprintf(stderr, "cosim-simt: cannot create the GPU\n");
        rc = 2;
        goto out;
    }
    for (uint32_t i = 0; i < s.n_surf; i++) {
        uint32_t *z = calloc((size_t)s.surf[i].w * s.surf[i].h, 4);
        if (!z || gpu_add_surface(&g, s.surf[i].w, s.surf[i].h, s.surf[i].fmt, z) < 0) {
            free(z);
            fprintf(stderr, "cosim-simt: surface %u\n", i);
            rc = 2;
            goto out;
        }
        free(z);
    }
    cp_vs_t vs = {c, dut, hw, st, 0, 0, 0, 0};
    g.backend.ctx = &vs;
    g.backend.run_vs = cp_run_vs;
    g.backend.run_fs = cp_run_fs;
    FILE *f = stream ? fopen(stream, "w") : NULL;
    if (stream && !f) {
        perror(stream);
        rc = 2;
        goto out;
    }
    if (f) {
        fprintf(f, "# cosim-simt CP phase on the SIMT RTL: trace=%s frame=%u gpus=%u own=%s (P2G inputs from the RTL's "
                   "vertex shading, masks from the golden model)\n", trace, frame, gpus, own == P2G_MODE_DIAG ? "diag" : "linear");
        fprintf(f, "# C n W H tile_log2 mode sx0 sy0 sx1 sy1 | P gpu prim_id tag x0 y0 x1 y1 x2 y2 flags mask\n");
    }
    const sys_frame_t *fr = &s.frames[frame];
    uint64_t prims = 0, draws = 0, mism = 0, skipped = 0, partial = 0;
    for (uint32_t ci = 0; ci < fr->n && prims < max_prims && !rc; ci++) {
        const sys_cmd_t *cmd = &fr->cmds[ci];
        if (cmd->kind != SYS_CMD_DRAW)
            continue;
        /* the golden records of this draw: tags must be contiguous (prim = tag - base) */
        size_t nr = 0;
        for (size_t i = 0; i < tap.n; i++)
            nr += tap.r[i].cmd == ci;
        uint32_t m = gpu_draw_prim_count(&cmd->draw);
        if (nr == 0 || nr != m) {
            skipped++;
            continue;
        }
        uint32_t *tags = malloc(nr * sizeof *tags);
        const cp_rec_t **by = calloc(nr, sizeof *by);
        gpu_prim_req_t *list = malloc(nr * sizeof *list);
        gpu_projected_t *proj = malloc(nr * sizeof *proj);
        if (!tags || !by || !list || !proj) {
            free(tags); free(by); free(list); free(proj);
            rc = 2;
            break;
        }
        size_t k = 0;
        for (size_t i = 0; i < tap.n; i++)
            if (tap.r[i].cmd == ci)
                tags[k++] = tap.r[i].p.prim_id;
        qsort(tags, nr, sizeof *tags, cmp_u32);
        uint32_t base = tags[0];
        int contiguous = tags[nr - 1] - base == nr - 1;
        for (size_t i = 1; i < nr && contiguous; i++)
            contiguous = tags[i] != tags[i - 1];
        gpu_draw_t dc = cmd->draw;
        int conv = contiguous ? gpu_isa_convert_draw(&dc, &lib) : 0;
        if (!contiguous || dc.vs_kind != GPU_VS_ISA || conv < 0) {
            skipped++;
            free(tags); free(by); free(list); free(proj);
            continue;
        }
        for (size_t i = 0; i < tap.n; i++)
            if (tap.r[i].cmd == ci)
                by[tap.r[i].p.prim_id - base] = &tap.r[i];
        for (uint32_t p = 0; p < nr; p++) {
            list[p].prim = p;
            list[p].tag = base + p;
        }
        /* the primitive budget may end inside a draw: its first primitives (in draw order) are compared */
        if (nr > max_prims - prims)
            nr = (size_t)(max_prims - prims);
        if (gpu_project(&g, &dc, list, nr, proj) != 0) {
            fprintf(stderr, "cosim-simt: CP phase: draw %u (command %u): %s\n", cmd->src_index, ci,
                    vs.failed ? "the lockstep run of a vertex-shader batch failed (report above)" : g.err);
            rc = 1;
        }
        const cp_rec_t *first = by[0];
        if (!rc && f)
            fprintf(f, "C %u %u %u %u %u %u %u %u %u\n", first->cfg.n_gpus, first->cfg.width, first->cfg.height,
                    first->cfg.tile_log2, first->cfg.mode == P2G_MODE_LINEAR, first->cfg.sc_x0, first->cfg.sc_y0,
                    first->cfg.sc_x1, first->cfg.sc_y1);
        for (uint32_t p = 0; p < nr && !rc; p++) {
            const cp_rec_t *gr = by[p];
            const p2g_prim_t *q = &proj[p].p2g;
            uint64_t mk = p2g_mask(&gr->cfg, q);
            int same = q->flags == gr->p.flags && mk == gr->mask;
            for (int v = 0; v < 3 && !(q->flags & (P2G_FLAG_CULLED | P2G_FLAG_NEAR_CLIP)); v++)
                same &= q->x[v] == gr->p.x[v] && q->y[v] == gr->p.y[v];
            if (!same) {
                if (mism < 8)
                    fprintf(stderr, "cosim-simt: CP phase MISMATCH draw %u prim %u: RTL-shaded x=(%d,%d,%d) y=(%d,%d,%d) "
                                    "flags=%u mask=%" PRIx64 "; golden x=(%d,%d,%d) y=(%d,%d,%d) flags=%u mask=%" PRIx64 "\n",
                            cmd->src_index, p, q->x[0], q->x[1], q->x[2], q->y[0], q->y[1], q->y[2], q->flags, mk,
                            gr->p.x[0], gr->p.x[1], gr->p.x[2], gr->p.y[0], gr->p.y[1], gr->p.y[2], gr->p.flags, gr->mask);
                mism++;
            }
            if (f)
                fprintf(f, "P %u %u %u %d %d %d %d %d %d %u %" PRIx64 "\n", gr->gpu, gr->p.prim_id, ci & 0xffffu, q->x[0],
                        q->y[0], q->x[1], q->y[1], q->x[2], q->y[2], q->flags, gr->mask);
        }
        partial += nr < m;
        prims += nr;
        draws++;
        free(tags); free(by); free(list); free(proj);
    }
    if (f)
        fclose(f);
    printf("cosim-simt: CP phase %s frame %u (%u GPUs, %s): %" PRIu64 " draws, %" PRIu64 " primitives, %" PRIu64
           " vertices shaded on the RTL in %" PRIu64 " warp batches; %" PRIu64 " primitives differ from the golden model"
           " (%" PRIu64 " draws skipped: not an ISA vertex program or not in one batch; %" PRIu64 " draw cut short by --max-prims)\n",
           trace, frame, gpus, own == P2G_MODE_DIAG ? "diag" : "linear", draws, prims, vs.verts, vs.calls, mism, skipped, partial);
    if (!rc && (mism || prims == 0)) {
        fprintf(stderr, "cosim-simt: CP phase FAIL: %s\n", prims ? "P2G inputs/masks differ from the golden model" : "no primitive compared");
        rc = 1;
    }
out:
    free(zero);
    gpu_free(&g);
    gpu_isa_library_free(&lib);
    free(tap.r);
    sys_scene_free(&s);
    return rc;
}

