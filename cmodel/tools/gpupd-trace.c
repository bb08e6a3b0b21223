/* gpupd-trace: inspect, validate, dump and rebuild GPUpd traces (docs/trace-format.md). */
#include "trace/trace.h"

#include "common/args.h"
#include "common/outfile.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

static int usage(void)
{
    fprintf(stderr,
            "usage: gpupd-trace info FILE...          engine, frames, draws, primitives, resolution, RT switches, RAW deps,\n"
            "                                         render-to-texture syncs and their MB (counted per sync)\n"
            "       gpupd-trace table FILE...         one Markdown table row per trace (traces/README.md)\n"
            "       gpupd-trace validate FILE...      full validation; exit 1 on the first bad file\n"
            "       gpupd-trace draws FILE            one line per draw (prims, targets, deps, ref pixels)\n"
            "       gpupd-trace coverage FILE...      converter check: per-draw pixels of a simple rasterizer vs ref_pixels\n"
            "       gpupd-trace coverage-draws FILE   the same, one line per draw\n"
            "       gpupd-trace dump FILE [OUT.txt]   lossless text dump (stdout by default)\n"
            "       gpupd-trace undump IN.txt OUT     text dump back to the binary (byte-identical)\n"
            "       gpupd-trace bench FILE...         reader throughput (MB/s, triangles/s)\n"
            "       gpupd-trace synth OUT [ZLEVEL]    write the small synthetic test trace (zlib)\n"
            "       gpupd-trace pack IN OUT [--codec zstd|zlib] [--level N] [--minor M]\n"
            "                                         re-encode a trace compressed (format 1.5, or 1.M; default zstd level %d;\n"
            "                                         OUT may be IN: replaced only when the new file is complete)\n",
            TRACE_ZSTD_DEFAULT_LEVEL);
    return 2;
}

static trace_reader_t *open_or_die(const char *path)
{
    trace_error_t err;
    trace_reader_t *r = trace_reader_open_file(path, 0, &err);
    if (!r) fprintf(stderr, "gpupd-trace: %s: %s\n", path, err.msg);
    return r;
}

/* One line per frame of a multi-frame trace: draws, triangles, clears, RAW dependencies. */
static void per_frame(const char *path)
{
    trace_reader_t *r = open_or_die(path);
    if (!r) return;
    trace_cmd_t cmd = {0};
    trace_error_t err;
    uint32_t frame = 0, draws = 0, clears = 0, deps = 0;
    uint64_t prims = 0;
    while (trace_reader_next(r, &cmd, &err) == 1) {
        if (cmd.type == TRACE_CMD_FRAME_BEGIN) { frame = cmd.u.frame.index; draws = clears = deps = 0; prims = 0; }
        else if (cmd.type == TRACE_CMD_CLEAR) clears++;
        else if (cmd.type == TRACE_CMD_DRAW) { draws++; prims += trace_draw_prims(&cmd.u.draw); deps += cmd.u.draw.n_deps; }
        else if (cmd.type == TRACE_CMD_FRAME_END)
            printf("  frame %-7u %u draws, %" PRIu64 " triangles, %u clears, %u raw deps (src_frame %u)\n", frame,
                   draws, prims, clears, deps, cmd.u.frame.src_frame);
    }
    trace_cmd_free(&cmd);
    trace_reader_close(r);
}

/* The engine that rendered a trace, from its INFO source (what capture.sh writes there): the first entry whose
 * every key occurs in the source, case-insensitively. "-" when none does. */
static const char *trace_engine(const char *source)
{
    static const struct { const char *key1, *key2, *engine; } tab[] = {
        {"darkplaces", NULL, "darkplaces (Nexuiz)"},
        {"nexuiz", NULL, "darkplaces (Nexuiz)"},
        {"openarena", "opengl2", "ioquake3 opengl2 (OpenArena)"},
        {"openarena", NULL, "ioquake3 opengl1 (OpenArena)"},
        {"glmark2 ", NULL, "glmark2"},
        {"meshscene", NULL, "meshscene.py (GLSL, VBOs)"},
        {"ffscene", NULL, "ffscene.py (fixed function)"},
    };
    for (size_t i = 0; source && i < sizeof tab / sizeof tab[0]; i++) {
        const char *k[2] = {tab[i].key1, tab[i].key2};
        int all = 1;
        for (int j = 0; j < 2 && all; j++) {
            if (!k[j]) continue;
            size_t n = strlen(k[j]);
            int hit = 0;
            for (const char *p = source; *p && !hit; p++) hit = !strncasecmp(p, k[j], n);
            all = hit;
        }
        if (all) return tab[i].engine;
    }
    return "-";
}

static int cmd_info(int argc, char **argv, int table)
{
    int bad = 0;
    if (table) {
        printf("| trace | engine | resolution | frames | draws | max draws/frame | primitives | RT switches | RAW deps | RTT syncs | sync MB | approx. draws |\n");
        printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    }
    for (int i = 0; i < argc; i++) {
        trace_reader_t *r = open_or_die(argv[i]);
        if (!r) { bad = 1; continue; }
        trace_error_t err;
        trace_summary_t s;
        const trace_info_t *info = trace_reader_info(r);
        if (trace_summarize(r, &s, &err)) {
            fprintf(stderr, "gpupd-trace: %s: %s\n", argv[i], err.msg);
            bad = 1;
        } else if (table) {
            printf("| %s | %s | %ux%u | %u | %u | %u | %" PRIu64 " | %u | %u | %u | %.2f | %u |\n", info->name,
                   trace_engine(info->source), s.width, s.height, s.frames, s.draws, s.max_draws_per_frame, s.prims,
                   s.rt_switches, s.raw_deps, s.syncs, (double)s.sync_bytes / 1048576.0, s.approx_draws);
        } else {
            printf("%s\n", argv[i]);
            printf("  name          %s\n", info->name);
            printf("  source        %s\n", info->source);
            printf("  engine        %s\n", trace_engine(info->source));
            printf("  resolution    %ux%u\n", s.width, s.height);
            printf("  frames        %u\n", s.frames);
            printf("  draws         %u (max %u per frame), clears %u\n", s.draws, s.max_draws_per_frame, s.clears);
            printf("  primitives    %" PRIu64 " (triangles, line segments, points; %" PRIu64 " vertices, %" PRIu64 " indices)\n", s.prims,
                   s.verts, s.indices);
            printf("  surfaces      %u definitions, programs %u\n", s.surfaces, s.programs);
            printf("  rt switches   %u\n", s.rt_switches);
            printf("  raw deps      %u (in %u draws)\n", s.raw_deps, s.raw_dep_draws);
            printf("  rtt syncs     %u (render-to-texture surfaces read back: %u; %.2f MB, each surface counted once per "
                   "synchronisation)\n", s.syncs, s.sync_surfaces, (double)s.sync_bytes / 1048576.0);
            printf("  approximated  %u draws (converter could not reproduce exactly)\n", s.approx_draws);
            printf("  ref pixels    %" PRId64 " (sum of glretrace --ppd counts)\n", s.ref_pixels);
            if (info->notes && *info->notes) printf("  notes         %s\n", info->notes);
            if (s.frames > 1) per_frame(argv[i]);
        }
        trace_reader_close(r);
    }
    return bad;
}

static int cmd_validate(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        trace_reader_t *r = open_or_die(argv[i]);
        if (!r) return 1;
        trace_cmd_t cmd = {0};
        trace_error_t err;
        int rc;
        uint64_t n = 0;
        while ((rc = trace_reader_next(r, &cmd, &err)) == 1) n++;
        trace_cmd_free(&cmd);
        trace_reader_close(r);
        if (rc < 0) {
            fprintf(stderr, "gpupd-trace: %s: INVALID: %s\n", argv[i], err.msg);
            return 1;
        }
        printf("%s: OK (%" PRIu64 " commands)\n", argv[i], n);
    }
    return 0;
}

static int cmd_draws(const char *path)
{
    trace_reader_t *r = open_or_die(path);
    if (!r) return 1;
    trace_cmd_t cmd = {0};
    trace_error_t err;
    int rc;
    uint32_t frame = 0;
    printf("frame\tdraw\tcall\tprims\tverts\tvs\tfs\tcolor\tdepth\ttex\tdeps\tref_pixels\tflags\ttopology\n");
    while ((rc = trace_reader_next(r, &cmd, &err)) == 1) {
        if (cmd.type == TRACE_CMD_FRAME_BEGIN) frame = cmd.u.frame.index;
        if (cmd.type != TRACE_CMD_DRAW) continue;
        const trace_draw_t *d = &cmd.u.draw;
        const trace_program_t *vs = trace_reader_program(r, d->vs_prog), *fs = trace_reader_program(r, d->fs_prog);
        char topo[64];
        if (d->prim == TRACE_PRIM_TRIANGLES) snprintf(topo, sizeof topo, "triangles");
        else if (d->prim == TRACE_PRIM_POINTS) snprintf(topo, sizeof topo, "points:%g", (double)d->point_size);
        else snprintf(topo, sizeof topo, "%s:%g", trace_prim_name(d->prim), (double)d->line_width);
        printf("%u\t%u\t%u\t%u\t%u\t%s\t%s\t%d\t%d\t%u\t%u\t%" PRId64 "\t%u\t%s\n", frame, d->index, d->src_call,
               trace_draw_prims(d), d->n_verts, vs ? vs->name : "-", fs ? fs->name : "-",
               d->n_color ? (int)d->color[0] : -1, d->depth == TRACE_NONE ? -1 : (int)d->depth, d->n_tex, d->n_deps,
               d->ref_pixels, d->flags, topo);
    }
    trace_cmd_free(&cmd);
    trace_reader_close(r);
    if (rc < 0) { fprintf(stderr, "gpupd-trace: %s: %s\n", path, err.msg); return 1; }
    return 0;
}

/* ---------------------------------------------------------------- coverage check
 * An independent, simple reference rasterizer used only to check the converter against glretrace --ppd:
 * near/far clipping (none with GL_DEPTH_CLAMP), perspective divide, viewport and depth range, culling, scissor,
 * pixel-centre coverage,
 * depth test with per-surface depth buffers, clears, polygon offset. Counts the samples that pass the depth
 * test per draw (what an occlusion query counts). Draws with alpha test (the count depends on texels) or an
 * approximated vertex program (geometry not reproduced, e.g. height-mapped terrain) are reported but not
 * compared. This is NOT the golden model (cmodel/gpu); it exists so the converter can be
 * validated on its own. */
typedef struct { float *z; uint32_t w, h; } cov_depth_t;
/* Resource bound of the coverage check: depth buffers in use at once (docs/cli.md, limits). */
#define COV_MAX_DEPTH_BYTES (1024u << 20)

typedef struct { float x, y, z, w; } cv4;

static int cov_clip(const cv4 *in, int n, cv4 *out, int plane)
{
    /* plane 0: z + w >= 0 (near), 1: w - z >= 0 (far), 2: w >= 1e-6 */
    int m = 0;
    for (int i = 0; i < n; i++) {
        const cv4 *a = &in[i], *b = &in[(i + 1) % n];
        float da = plane == 0 ? a->z + a->w : plane == 1 ? a->w - a->z : a->w - 1e-6f;
        float db = plane == 0 ? b->z + b->w : plane == 1 ? b->w - b->z : b->w - 1e-6f;
        if (da >= 0) out[m++] = *a;
        if ((da >= 0) != (db >= 0)) {
            float t = da / (da - db);
            out[m++] = (cv4){a->x + t * (b->x - a->x), a->y + t * (b->y - a->y), a->z + t * (b->z - a->z),
                             a->w + t * (b->w - a->w)};
        }
    }
    return m;
}

static int cov_cmp(uint32_t f, float a, float b)
{
    switch (f) {
    case TRACE_CMP_NEVER: return 0;
    case TRACE_CMP_LESS: return a < b;
    case TRACE_CMP_EQUAL: return a == b;
    case TRACE_CMP_LEQUAL: return a <= b;
    case TRACE_CMP_GREATER: return a > b;
    case TRACE_CMP_NOTEQUAL: return a != b;
    case TRACE_CMP_GEQUAL: return a >= b;
    default: return 1;
    }
}

/* A compiled vertex program named "...+nomvp" computes its position otherwise than with the MVP rows in
 * c0..c3 (docs/shader-compiler.md): the coverage rasterizer, which uses those rows, cannot reproduce it. */
static int vs_not_mvp(trace_reader_t *r, const trace_draw_t *d)
{
    const trace_program_t *p = d->vs_prog != TRACE_NONE ? trace_reader_program(r, d->vs_prog) : NULL;
    return p && p->name && strstr(p->name, "+nomvp") != NULL;
}

static int64_t cov_draw(const trace_draw_t *d, cov_depth_t *db, uint32_t tw, uint32_t th)
{
    const trace_state_t *s = &d->state;
    const float *c = d->vs_consts;
    int64_t count = 0;
    if (d->n_vs_consts < 4) return -1;
    /* 64-bit rectangle arithmetic: viewport/scissor origins may be anywhere in int32 (no overflow) */
    int64_t X0 = s->vp_x, Y0 = s->vp_y, X1 = (int64_t)s->vp_x + s->vp_w, Y1 = (int64_t)s->vp_y + s->vp_h;
    if (X0 < 0) X0 = 0;
    if (Y0 < 0) Y0 = 0;
    if (X1 > (int64_t)tw) X1 = tw;
    if (Y1 > (int64_t)th) Y1 = th;
    if (s->scissor_en) {
        if (X0 < s->sc_x) X0 = s->sc_x;
        if (Y0 < s->sc_y) Y0 = s->sc_y;
        if (X1 > (int64_t)s->sc_x + s->sc_w) X1 = (int64_t)s->sc_x + s->sc_w;
        if (Y1 > (int64_t)s->sc_y + s->sc_h) Y1 = (int64_t)s->sc_y + s->sc_h;
    }
    if (X0 >= X1 || Y0 >= Y1) return 0;
    int x0 = (int)X0, y0 = (int)Y0, x1 = (int)X1, y1 = (int)Y1;   /* now within 0..TRACE_MAX_DIM */
    float n = s->depth_near, f = s->depth_far;
    int dclamp = (d->state_flags & TRACE_STATEF_DEPTH_CLAMP) != 0;   /* GL_DEPTH_CLAMP: no near/far clipping, */
    double zlo = n < f ? n : f, zhi = n < f ? f : n;                 /* depth clamped to the depth range */
    for (uint32_t t = 0; t + 2 < d->n_indices; t += 3) {
        cv4 a[12], b[12];
        for (int k = 0; k < 3; k++) {
            const float *p = d->verts + (size_t)d->indices[t + k] * d->stride;
            float pw = d->attribs[0].comps > 3 ? p[3] : 1.0f;
            float v[4];
            for (int r = 0; r < 4; r++) v[r] = c[4 * r] * p[0] + c[4 * r + 1] * p[1] + c[4 * r + 2] * p[2] + c[4 * r + 3] * pw;
            a[k] = (cv4){v[0], v[1], v[2], v[3]};
        }
        int m = 3;
        if (!dclamp) {
            m = cov_clip(a, m, b, 0);
            m = cov_clip(b, m, a, 1);
        }
        m = cov_clip(a, m, b, 2);
        if (m < 3) continue;
        float X[12], Y[12], Z[12];
        for (int i = 0; i < m; i++) {
            X[i] = (b[i].x / b[i].w + 1.0f) * 0.5f * (float)s->vp_w + (float)s->vp_x;
            Y[i] = (b[i].y / b[i].w + 1.0f) * 0.5f * (float)s->vp_h + (float)s->vp_y;
            Z[i] = (b[i].z / b[i].w) * 0.5f * (f - n) + 0.5f * (f + n);
        }
        double area = 0;
        for (int i = 0; i < m; i++) area += (double)X[i] * Y[(i + 1) % m] - (double)X[(i + 1) % m] * Y[i];
        if (area == 0) continue;
        int front = (area > 0) == (s->front_ccw != 0);
        if (s->cull == TRACE_CULL_FRONT_AND_BACK || (s->cull == TRACE_CULL_BACK && !front) ||
            (s->cull == TRACE_CULL_FRONT && front))
            continue;
        for (int i = 1; i + 1 < m; i++) {
            float tx[3] = {X[0], X[i], X[i + 1]}, ty[3] = {Y[0], Y[i], Y[i + 1]}, tz[3] = {Z[0], Z[i], Z[i + 1]};
            double ar = ((double)tx[1] - tx[0]) * ((double)ty[2] - ty[0]) - ((double)tx[2] - tx[0]) * ((double)ty[1] - ty[0]);
            if (ar == 0) continue;
            float mnx = fminf(tx[0], fminf(tx[1], tx[2])), mxx = fmaxf(tx[0], fmaxf(tx[1], tx[2]));
            float mny = fminf(ty[0], fminf(ty[1], ty[2])), mxy = fmaxf(ty[0], fmaxf(ty[1], ty[2]));
            /* clamp in float first: a float -> int conversion out of range is undefined (NaN: empty box) */
            if (!(mnx == mnx && mxx == mxx && mny == mny && mxy == mxy)) continue;
            int bx0 = (int)fminf(fmaxf(floorf(mnx), (float)x0), (float)x1), bx1 = (int)fmaxf(fminf(ceilf(mxx), (float)x1), (float)x0);
            int by0 = (int)fminf(fmaxf(floorf(mny), (float)y0), (float)y1), by1 = (int)fmaxf(fminf(ceilf(mxy), (float)y1), (float)y0);
            /* depth plane and polygon offset */
            double dzdx = (((double)tz[1] - tz[0]) * ((double)ty[2] - ty[0]) - ((double)tz[2] - tz[0]) * ((double)ty[1] - ty[0])) / ar;
            double dzdy = (((double)tx[1] - tx[0]) * ((double)tz[2] - tz[0]) - ((double)tx[2] - tx[0]) * ((double)tz[1] - tz[0])) / ar;
            double off = s->poly_offset_en ? s->poly_factor * fmax(fabs(dzdx), fabs(dzdy)) + s->poly_units / 16777216.0 : 0.0;
            double sg = ar > 0 ? 1.0 : -1.0;
            for (int py = by0; py < by1; py++)
                for (int px = bx0; px < bx1; px++) {
                    double cx = px + 0.5, cy = py + 0.5, w[3];
                    int in = 1;
                    for (int e = 0; e < 3 && in; e++) {
                        int e0 = (e + 1) % 3, e1 = (e + 2) % 3;
                        double ev = sg * (((double)tx[e1] - tx[e0]) * (cy - ty[e0]) - ((double)ty[e1] - ty[e0]) * (cx - tx[e0]));
                        double ddy = sg * ((double)ty[e1] - ty[e0]), ddx = sg * ((double)tx[e1] - tx[e0]);
                        /* top-left rule on exact ties */
                        if (ev < 0 || (ev == 0 && !(ddy < 0 || (ddy == 0 && ddx > 0)))) in = 0;
                        w[e] = ev;
                    }
                    if (!in) continue;
                    double z = (w[0] * tz[0] + w[1] * tz[1] + w[2] * tz[2]) / (w[0] + w[1] + w[2]) + off;
                    if (dclamp && z < zlo) z = zlo;
                    if (dclamp && z > zhi) z = zhi;
                    if (z < 0) z = 0;
                    if (z > 1) z = 1;
                    if (db && s->depth_test) {
                        if (px >= (int)db->w || py >= (int)db->h) continue;
                        float *zp = &db->z[(size_t)py * db->w + px];
                        if (!cov_cmp(s->depth_func, (float)z, *zp)) continue;
                        if (s->depth_write) *zp = (float)z;
                    }
                    count++;
                }
        }
    }
    return count;
}

static int cmd_coverage(const char *path, int verbose)
{
    trace_reader_t *r = open_or_die(path);
    if (!r) return 1;
    cov_depth_t *dbs = calloc(TRACE_MAX_ID + 1, sizeof *dbs);
    if (!dbs) { trace_reader_close(r); fprintf(stderr, "gpupd-trace: out of memory\n"); return 1; }
    trace_cmd_t cmd = {0};
    trace_error_t err;
    int rc;
    uint64_t compared = 0, within = 0, exact = 0, skipped = 0, depth_bytes = 0;
    int bad_limit = 0;
    int64_t sum_ours = 0, sum_ref = 0;
    if (verbose) printf("draw\tcall\tprims\tours\tref\tnote\n");
    while ((rc = trace_reader_next(r, &cmd, &err)) == 1) {
        if (cmd.type == TRACE_CMD_SURFACE && cmd.u.surface.kind == TRACE_SURF_DEPTH) {
            cov_depth_t *z = &dbs[cmd.u.surface.id];
            depth_bytes -= (uint64_t)z->w * z->h * sizeof(float);
            depth_bytes += (uint64_t)cmd.u.surface.width * cmd.u.surface.height * sizeof(float);
            if (depth_bytes > COV_MAX_DEPTH_BYTES) {
                fprintf(stderr, "gpupd-trace: %s: offset %" PRIu64 ": depth buffers of %" PRIu64 " MiB in use, above the "
                                "coverage check's limit of %u MiB\n", path, cmd.offset, depth_bytes >> 20, COV_MAX_DEPTH_BYTES >> 20);
                bad_limit = 1;
                break;
            }
            free(z->z);
            z->w = cmd.u.surface.width;
            z->h = cmd.u.surface.height;
            z->z = malloc((size_t)z->w * z->h * sizeof(float));
            for (size_t i = 0; z->z && i < (size_t)z->w * z->h; i++) z->z[i] = 1.0f;
        } else if (cmd.type == TRACE_CMD_CLEAR && (cmd.u.clear.mask & TRACE_CLEAR_DEPTH) && cmd.u.clear.depth != TRACE_NONE &&
                   cmd.u.clear.depth_write) {
            const trace_clear_t *k = &cmd.u.clear;
            cov_depth_t *z = &dbs[k->depth];
            for (uint32_t y = 0; z->z && y < z->h; y++)
                for (uint32_t x = 0; x < z->w; x++) {
                    if (k->scissor_en && ((int64_t)x < k->sc_x || (int64_t)x >= (int64_t)k->sc_x + k->sc_w ||
                                          (int64_t)y < k->sc_y || (int64_t)y >= (int64_t)k->sc_y + k->sc_h))
                        continue;
                    z->z[(size_t)y * z->w + x] = k->depth_value;
                }
        } else if (cmd.type == TRACE_CMD_DRAW) {
            const trace_draw_t *d = &cmd.u.draw;
            uint32_t tw = 0, th = 0;
            const trace_surface_t *ts = d->n_color ? trace_reader_surface(r, d->color[0])
                                                   : d->depth != TRACE_NONE ? trace_reader_surface(r, d->depth) : NULL;
            if (ts) { tw = ts->width; th = ts->height; }
            cov_depth_t *z = d->depth != TRACE_NONE && dbs[d->depth].z ? &dbs[d->depth] : NULL;
            /* lines and points: this independent checker rasterizes triangles only (the golden model's line and
             * point rasterizer is checked against llvmpipe by gpupd-sim validate and test-shader-diff) */
            int64_t ours = d->prim == TRACE_PRIM_TRIANGLES ? cov_draw(d, z, tw, th) : -1;
            const char *note = "";
            if (d->prim != TRACE_PRIM_TRIANGLES) note = "lines/points (not compared)";
            else if (d->state.alpha_test && d->state.alpha_func != TRACE_CMP_ALWAYS) note = "alpha-test (not compared)";
            else if (d->flags & TRACE_DRAW_F_VS_APPROX) note = "vertex program approximated (not compared)";
            else if (vs_not_mvp(r, d)) note = "vertex program is not MVP * position (not compared)";
            else if (d->ref_pixels < 0 || ours < 0) note = "no reference";
            else {
                int64_t diff = ours > d->ref_pixels ? ours - d->ref_pixels : d->ref_pixels - ours;
                compared++;
                exact += diff == 0;
                within += diff <= 2 + d->ref_pixels / 50;
                sum_ours += ours;
                sum_ref += d->ref_pixels;
                if (diff > 2 + d->ref_pixels / 50) note = "DIFFERS";
            }
            if (*note && note[0] != 'D') skipped++;
            if (verbose) printf("%u\t%u\t%u\t%" PRId64 "\t%" PRId64 "\t%s\n", d->index, d->src_call, trace_draw_prims(d),
                                ours, d->ref_pixels, note);
        }
    }
    trace_cmd_free(&cmd);
    trace_reader_close(r);
    for (uint32_t i = 0; i <= TRACE_MAX_ID; i++) free(dbs[i].z);
    free(dbs);
    if (bad_limit) return 1;
    if (rc < 0) { fprintf(stderr, "gpupd-trace: %s: %s\n", path, err.msg); return 1; }
    printf("%s: %" PRIu64 " draws compared with glretrace --ppd: %" PRIu64 " exact, %" PRIu64
           " within 2%% (%.1f%%), %" PRIu64 " not comparable; pixels ours/ref %" PRId64 "/%" PRId64 " (%.4f)\n",
           path, compared, exact, within, compared ? 100.0 * (double)within / (double)compared : 0.0, skipped,
           sum_ours, sum_ref, sum_ref ? (double)sum_ours / (double)sum_ref : 0.0);
    return 0;
}

/* Read (decompress, decode, validate) each trace `reps` times; print rates. */
static int cmd_bench(int argc, char **argv)
{
    int reps = 3;
    for (int i = 0; i < argc; i++) {
        struct timespec t0, t1, c0, c1;
        uint64_t tris = 0, cmds = 0;
        double bytes = 0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        for (int k = 0; k < reps; k++) {
            trace_reader_t *r = open_or_die(argv[i]);
            if (!r) return 1;
            struct stat st;   /* open_or_die accepted a regular file: its size is st_size (never ftell) */
            if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode)) bytes += (double)st.st_size;
            trace_cmd_t cmd = {0};
            trace_error_t err;
            int rc;
            while ((rc = trace_reader_next(r, &cmd, &err)) == 1) {
                cmds++;
                if (cmd.type == TRACE_CMD_DRAW) tris += trace_draw_prims(&cmd.u.draw);
            }
            trace_cmd_free(&cmd);
            trace_reader_close(r);
            if (rc < 0) { fprintf(stderr, "gpupd-trace: %s: %s\n", argv[i], err.msg); return 1; }
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
        printf("%-40s %8.1f MB/s (file)  %10.0f triangles/s  %9.0f commands/s  %7.1f ms per read (CPU %.1f ms)\n",
               argv[i], bytes / sec / 1e6, (double)tris / sec, (double)cmds / sec, 1e3 * sec / reps, 1e3 * cpu / reps);
    }
    return 0;
}

static int nargs(const char *cmd, int argc, int lo, int hi)
{
    int n = argc - 2;
    if (n < lo || n > hi) {
        if (hi > lo) fprintf(stderr, "gpupd-trace: %s takes %d..%d argument(s), got %d\n", cmd, lo, hi, n);
        else fprintf(stderr, "gpupd-trace: %s takes %d argument(s), got %d\n", cmd, lo, n);
        usage();
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) return usage();
    const char *c = argv[1];
    if (!strcmp(c, "info")) return cmd_info(argc - 2, argv + 2, 0);
    if (!strcmp(c, "table")) return cmd_info(argc - 2, argv + 2, 1);
    if (!strcmp(c, "validate")) return cmd_validate(argc - 2, argv + 2);
    if (!strcmp(c, "draws")) return nargs(c, argc, 1, 1) ? 2 : cmd_draws(argv[2]);
    if (!strcmp(c, "bench")) return cmd_bench(argc - 2, argv + 2);
    if (!strcmp(c, "coverage")) {
        int rc = 0;
        for (int i = 2; i < argc; i++) rc |= cmd_coverage(argv[i], 0);
        return rc;
    }
    if (!strcmp(c, "coverage-draws")) return nargs(c, argc, 1, 1) ? 2 : cmd_coverage(argv[2], 1);
    if (!strcmp(c, "dump")) {
        if (nargs(c, argc, 1, 2)) return 2;
        char oerr[600];
        outf_t of;
        /* check the output before reading anything; written to a temporary file, renamed on success */
        if (outf_open(&of, argc > 3 ? argv[3] : "-", 0, oerr, sizeof oerr)) { fprintf(stderr, "gpupd-trace: %s\n", oerr); return 2; }
        trace_reader_t *r = open_or_die(argv[2]);
        if (!r) { outf_abort(&of); return 1; }
        trace_error_t err = {0, ""};
        int rc = trace_dump_text(r, of.f, &err);
        trace_reader_close(r);
        if (rc) { outf_abort(&of); fprintf(stderr, "gpupd-trace: %s: %s\n", argv[2], err.msg); return 1; }
        if (outf_commit(&of, oerr, sizeof oerr)) { fprintf(stderr, "gpupd-trace: %s\n", oerr); return 1; }
        return 0;
    }
    if (!strcmp(c, "undump")) {
        if (nargs(c, argc, 2, 2)) return 2;
        char ierr[600];
        if (outf_check(argv[3], ierr, sizeof ierr)) { fprintf(stderr, "gpupd-trace: %s\n", ierr); return 2; }
        FILE *in = inf_open(argv[2], 0, ierr, sizeof ierr);
        if (!in) { fprintf(stderr, "gpupd-trace: %s\n", ierr); return 1; }
        trace_error_t err = {0, ""};
        int rc = trace_undump_text(in, argv[3], &err);   /* the output appears only if the whole text was valid */
        if (inf_close(in) && !rc) { fprintf(stderr, "gpupd-trace: %s: read error\n", argv[2]); return 1; }
        if (rc) { fprintf(stderr, "gpupd-trace: %s: %s\n", argv[2], err.msg); return 1; }
        return 0;
    }
    if (!strcmp(c, "pack")) {
        if (argc < 4) { fprintf(stderr, "gpupd-trace: pack needs IN and OUT\n"); usage(); return 2; }
        trace_wopts_t o = {TRACE_VERSION_MINOR, TRACE_CODEC_ZSTD, TRACE_ZSTD_DEFAULT_LEVEL};
        int level_set = 0;
        uint32_t lv = 0;
        const char *lvs = NULL;
        for (int i = 4; i < argc; i++) {
            const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
            if (!strcmp(a, "--codec")) {
                if (!v) return arg_need("gpupd-trace", a), 2;
                if (!strcmp(v, "zstd")) o.codec = TRACE_CODEC_ZSTD;
                else if (!strcmp(v, "zlib")) o.codec = TRACE_CODEC_ZLIB;
                else { fprintf(stderr, "gpupd-trace: --codec '%s': unknown codec (expected zstd or zlib)\n", v); return 2; }
                i++;
            } else if (!strcmp(a, "--level")) {
                if (!v) return arg_need("gpupd-trace", a), 2;
                lvs = v;
                level_set = 1;
                i++;
            } else if (!strcmp(a, "--minor")) {
                /* an older minor version: e.g. 3 = every chunk in its own frame (no zstd stream, no TEX_MED) */
                if (!v) return arg_need("gpupd-trace", a), 2;
                uint32_t m;
                if (arg_u32("gpupd-trace", "--minor", v, 0, TRACE_VERSION_MINOR, &m)) return 2;
                o.minor = m;
                i++;
            } else { fprintf(stderr, "gpupd-trace: pack: unknown option '%s'\n", a); usage(); return 2; }
        }
        if (level_set) {
            if (arg_u32("gpupd-trace", "--level", lvs, 0, o.codec == TRACE_CODEC_ZSTD ? TRACE_ZSTD_MAX_LEVEL : 9, &lv))
                return 2;
            o.level = (int)lv;
        } else if (o.codec == TRACE_CODEC_ZLIB) o.level = 9;
        char ierr[600];
        if (outf_check(argv[3], ierr, sizeof ierr)) { fprintf(stderr, "gpupd-trace: %s\n", ierr); return 2; }
        trace_reader_t *r = open_or_die(argv[2]);
        if (!r) return 1;
        trace_error_t err = {0, ""};
        int rc = trace_repack(r, argv[3], &o, &err);
        trace_reader_close(r);
        if (rc) { fprintf(stderr, "gpupd-trace: pack %s: %s\n", argv[2], err.msg); return 1; }
        return 0;
    }
    if (!strcmp(c, "synth")) {
        if (nargs(c, argc, 1, 2)) return 2;
        trace_error_t err = {0, ""};
        uint32_t z = 6;
        if (argc > 3 && arg_u32("gpupd-trace", "synth ZLEVEL", argv[3], 0, 9, &z)) return 2;
        if (trace_write_synthetic(argv[2], (int)z, &err)) { fprintf(stderr, "gpupd-trace: synth: %s\n", err.msg); return 1; }
        return 0;
    }
    fprintf(stderr, "gpupd-trace: unknown command '%s'\n", c);
    return usage();
}
