/* Timing state of one GPU: unit rates and latencies, capacity calendars (shader pool, memory channels),
 * shader profiles, block tracking for the ROP/Z/texture caches. See gpu_timing.h and docs/timing.md. */
#include "gpu/gpu_timing.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/isa_backend.h"
#include "isa/isa.h"

static const char *const unit_names[GT_NUNITS] = {"cp", "vf", "vs", "clip", "setup", "rast", "ez", "fs", "rop", "p2g", "mem", "shader"};

const char *gt_unit_name(int u) { return u >= 0 && u < GT_NUNITS ? unit_names[u] : "?"; }

gpu_tcfg_t gpu_tcfg_default(void)
{
    gpu_tcfg_t c;
    memset(&c, 0, sizeof c);
    c.cp_rate = 1.0;     c.cp_lat = 1;      /* command processor: one primitive per cycle (ours) */
    c.vf_rate = 1.0;     c.vf_lat = 4;      /* vertex fetch / assembly: 1 triangle per cycle (ATTILA PA) */
    c.clip_rate = 1.0;   c.clip_lat = 6;    /* clipping: 1 triangle per cycle, 6 cycles (ATTILA Table 2) */
    c.setup_rate = 1.0;  c.setup_lat = 10;  /* triangle setup: 1 per cycle, 10 cycles (ATTILA Table 2) */
    c.rast_rate = 16.0;  c.rast_lat = 1;    /* fragment generation: 16 quads = 64 fragments per cycle (GP104: 4 x 16 px) */
    c.ez_rate = 64.0;    c.ez_lat = 2;      /* early Z: matched to the ROPs (ATTILA Z test 2 + mem) */
    c.rop_rate = 64.0;   c.rop_lat = 2;     /* 64 ROPs x 4 fragments per cycle = 64 quads (Table 1) */
    c.vs_dispatch_rate = 1.0;
    c.fs_dispatch_rate = 2.0;
    c.cores = 32;                           /* Table 1 */
    c.warps_per_core = 16;                  /* ours: between ATTILA (128 threads) and GP104 (64 warps) */
    c.alu_lanes = 64;                       /* Table 1: 16 simd4 ALUs = 64 scalar lanes (our ISA is scalar) */
    c.sfu_lanes = 16;                       /* Table 1: the scalar ALU of each of the 16 simd4+scalar ALUs */
    c.tex_lanes = 4;                        /* ATTILA: one texture unit per shader, a quad per cycle */
    c.alu_lat = 6;                          /* ATTILA: 1-9 execution stages */
    c.sfu_lat = 12;                         /* ours */
    c.tex_lat = 100;                        /* ours: texture cache + filtering pipeline */
    c.mem_channels = 10;                    /* Table 1 */
    c.mem_banks = 8;                        /* Table 1 */
    c.row_bytes = 2048;                     /* Table 1 */
    c.interleave = 256;                     /* Table 1 */
    c.chan_bytes_per_cycle = 32;            /* ours: 10 x 32 B = 320 GB/s (GP104's GDDR5X) */
    c.mem_lat = 100;                        /* ours */
    c.row_miss_lat = 24;                    /* ours: tRP + tRCD ~ 2 x 12 ns */
    c.row_miss_busy = 4;                    /* ours */
    c.rop_block = 8;                        /* 8x8 pixels x 4 B = 256 B = the interleave */
    c.l2_kb = 2048;                         /* GP104: 2 MB L2 */
    c.l2_ways = 16;                         /* ours */
    c.l2_lat = 30;                          /* ours */
    c.q_prim = 64;  c.q_vtx = 16;  c.q_shv = 16;  c.q_tri = 32;   /* the functional model's (ATTILA-like) */
    c.q_quad = 64;  c.q_fs = 256;  c.q_rop = 256;                /* ours: cover the L2 latency at fill rate */
    c.tex_block = 8;
    c.fe_rate = 1;                          /* ATTILA: one triangle per cycle through the front end */
    return c;
}

const char *gpu_tcfg_check(const gpu_tcfg_t *c)
{
    if (!(c->cp_rate > 0) || !(c->vf_rate > 0) || !(c->clip_rate > 0) || !(c->setup_rate > 0) || !(c->rast_rate > 0) ||
        !(c->ez_rate > 0) || !(c->rop_rate > 0) || !(c->vs_dispatch_rate > 0) || !(c->fs_dispatch_rate > 0))
        return "every unit rate must be > 0";
    if (c->cp_rate > GT_TPC || c->vf_rate > GT_TPC || c->clip_rate > GT_TPC || c->setup_rate > GT_TPC || c->rast_rate > GT_TPC ||
        c->ez_rate > GT_TPC || c->rop_rate > GT_TPC || c->vs_dispatch_rate > GT_TPC || c->fs_dispatch_rate > GT_TPC)
        return "unit rates are at most 64 items per cycle";
    if (c->cores == 0 || c->warps_per_core == 0 || c->alu_lanes == 0 || c->sfu_lanes == 0 || c->tex_lanes == 0)
        return "shader cores, warps and lanes must be >= 1";
    if (c->mem_channels == 0 || c->mem_channels > GT_MAX_CHANNELS || c->mem_banks == 0 || c->mem_banks > GT_MAX_BANKS)
        return "memory channels 1..32, banks 1..32";
    if (c->row_bytes < c->interleave || c->interleave == 0 || c->chan_bytes_per_cycle == 0 || c->rop_block == 0 || c->tex_block == 0)
        return "memory geometry out of range";
    if (c->q_prim < 1 || c->q_vtx < 1 || c->q_shv < 10 || c->q_tri < 16 || c->q_quad < 1 || c->q_fs < 8 || c->q_rop < 8 ||
        c->q_prim > 65536 || c->q_vtx > 65536 || c->q_shv > 65536 || c->q_tri > 65536 || c->q_quad > 65536 || c->q_fs > 65536 || c->q_rop > 65536)
        return "queue capacities: q_shv >= 10 (a vertex warp), q_tri >= 16 (a clipped triangle), q_fs, q_rop >= 8, all <= 65536";
    if (c->fe_rate < 1 || c->fe_rate > 8) return "fe_rate (front-end triangles per cycle, P2G units per GPU) must be 1..8";
    if (c->cp_rate * c->fe_rate > GT_TPC || c->vf_rate * c->fe_rate > GT_TPC || c->clip_rate * c->fe_rate > GT_TPC ||
        c->setup_rate * c->fe_rate > GT_TPC)
        return "unit rates are at most 64 items per cycle (cp/vf/clip/setup_rate x fe_rate)";
    if (c->l2_ways == 0 || c->l2_ways > 64 || (uint64_t)c->l2_kb * 1024 / c->interleave < c->l2_ways || c->l2_kb > (1u << 20))
        return "L2: 1..64 ways, at least one set, at most 1 GB";
    return NULL;
}

static uint64_t ii_of(double rate) { return (uint64_t)llround((double)GT_TPC / rate); }

int gpu_timing_init(gpu_timing_t *t, const gpu_tcfg_t *cfg, const void *lib, uint32_t timeline_log2)
{
    memset(t, 0, sizeof *t);
    t->cfg = *cfg;
    t->lib = lib;
    t->tl_log2 = timeline_log2;
    double fe = cfg->fe_rate ? cfg->fe_rate : 1;
    t->ii[GT_CP] = ii_of(cfg->cp_rate * fe);
    t->ii[GT_VF] = ii_of(cfg->vf_rate * fe);
    t->ii[GT_VS] = ii_of(cfg->vs_dispatch_rate);
    t->ii[GT_CLIP] = ii_of(cfg->clip_rate * fe);
    t->ii[GT_SETUP] = ii_of(cfg->setup_rate * fe);
    t->ii[GT_RAST] = ii_of(cfg->rast_rate);
    t->ii[GT_EZ] = ii_of(cfg->ez_rate);
    t->ii[GT_FS] = ii_of(cfg->fs_dispatch_rate);
    t->ii[GT_ROP] = ii_of(cfg->rop_rate);
    t->ii[GT_P2G] = GT_TPC;
    for (int u = 0; u < GT_NUNITS; u++)
        if (t->ii[u] == 0) t->ii[u] = 1;
    t->lat[GT_CP] = (uint64_t)cfg->cp_lat * GT_TPC;
    t->lat[GT_VF] = (uint64_t)cfg->vf_lat * GT_TPC;
    t->lat[GT_CLIP] = (uint64_t)cfg->clip_lat * GT_TPC;
    t->lat[GT_SETUP] = (uint64_t)cfg->setup_lat * GT_TPC;
    t->lat[GT_RAST] = (uint64_t)cfg->rast_lat * GT_TPC;
    t->lat[GT_EZ] = (uint64_t)cfg->ez_lat * GT_TPC;
    t->lat[GT_ROP] = (uint64_t)cfg->rop_lat * GT_TPC;
    t->pool.cap = (uint64_t)cfg->cores << (GT_BUCKET_LOG2 + 6);     /* cores x bucket ticks */
    t->l2_sets = (uint32_t)((uint64_t)cfg->l2_kb * 1024 / cfg->interleave / cfg->l2_ways);
    if (t->l2_sets == 0) t->l2_sets = 1;
    size_t nl = (size_t)t->l2_sets * cfg->l2_ways;
    t->l2_tag = calloc(nl, sizeof *t->l2_tag);
    t->l2_age = calloc(nl, sizeof *t->l2_age);
    t->l2_dirty = calloc(nl, 1);
    if (!t->l2_tag || !t->l2_age || !t->l2_dirty) { gpu_timing_free(t); return -1; }
    for (uint32_t c = 0; c < cfg->mem_channels; c++) {
        t->chan[c].cap = 1ull << (GT_BUCKET_LOG2 + 6);
        for (uint32_t b = 0; b < cfg->mem_banks; b++) t->open_row[c][b] = UINT32_MAX;
    }
    return 0;
}

void gpu_timing_free(gpu_timing_t *t)
{
    free(t->pool.used);
    free(t->pool.skip);
    free(t->l2_tag);
    free(t->l2_age);
    free(t->l2_dirty);
    for (int c = 0; c < GT_MAX_CHANNELS; c++) {
        free(t->chan[c].used);
        free(t->chan[c].skip);
    }
    free(t->tl);
    free(t->proj_t);
    for (int i = 0; i < 3; i++) {
        free(t->ps_tr[i]);
        free(t->ps_tf[i]);
    }
    for (int i = 0; i < 1024; i++) free(t->blk[i]);
    if (t->pctx) isa_ctx_free(t->pctx);
    if (t->pwarp) isa_warp_free(t->pwarp);
    memset(t, 0, sizeof *t);
}

static int cal_grow(gt_cal_t *c, size_t k)
{
    if (k < c->n) return 0;
    size_t nn = c->n ? c->n : 256;
    while (nn <= k) nn *= 2;
    uint32_t *nu = realloc(c->used, nn * sizeof *nu);
    if (!nu) return -1;
    memset(nu + c->n, 0, (nn - c->n) * sizeof *nu);
    c->used = nu;
    uint32_t *ns = realloc(c->skip, nn * sizeof *ns);
    if (!ns) return -1;
    memset(ns + c->n, 0, (nn - c->n) * sizeof *ns);
    c->skip = ns;
    c->n = nn;
    return 0;
}

/* The first bucket >= k that is not full (or beyond the allocated ones), k itself full: follows the skip
 * pointers of full runs and points every full bucket passed at the result (buckets only ever fill up). */
static size_t cal_next_open(gt_cal_t *c, size_t k)
{
    size_t r = k;
    while (r < c->n && c->used[r] >= c->cap) r = c->skip[r] > r ? c->skip[r] : r + 1;
    while (k < r && k < c->n) {
        size_t nx = c->skip[k] > k ? c->skip[k] : k + 1;
        if (r <= UINT32_MAX) c->skip[k] = (uint32_t)r;
        k = nx;
    }
    return r;
}

uint64_t gt_cal_reserve(gt_cal_t *c, uint64_t t, uint64_t amount, uint64_t par)
{
    const uint64_t span = 1ull << (GT_BUCKET_LOG2 + 6);   /* ticks per bucket */
    size_t k = (size_t)(t / span);
    if (k < c->lo) { k = c->lo; if (t < (uint64_t)k * span) t = (uint64_t)k * span; }
    uint64_t done = t;
    while (amount) {
        if (cal_grow(c, k)) return done + amount;          /* out of memory: no contention, still a time */
        uint64_t bstart = (uint64_t)k * span, bend = bstart + span;
        uint64_t from = t > bstart ? t : bstart;
        uint64_t room = c->cap - c->used[k];
        uint64_t window = (bend - from) * par;              /* what the rest of this bucket can still provide */
        if (window < room) room = window;
        if (room == 0) { k = cal_next_open(c, k); continue; }   /* a full bucket (window > 0 always) */
        uint64_t x = amount < room ? amount : room;
        c->used[k] += (uint32_t)x;
        amount -= x;
        /* completion: the bucket fills at the rate par; its fill level is where the time of this work is */
        uint64_t fill = (c->used[k] + par - 1) / par;        /* ticks of this bucket in use */
        uint64_t at = bstart + fill;
        uint64_t own = from + (x + par - 1) / par;
        done = at > own ? at : own;
        if (c->used[k] >= c->cap && k == c->lo) {
            while (c->lo < c->n && c->used[c->lo] >= c->cap) c->lo++;
        }
        k++;
    }
    return done;
}

uint64_t gt_mem_access(gpu_timing_t *t, uint64_t t0, uint64_t addr, uint32_t bytes)
{
    const gpu_tcfg_t *c = &t->cfg;
    uint64_t unit = addr / c->interleave;
    uint32_t ch = (uint32_t)(unit % c->mem_channels);
    uint64_t per_row = c->row_bytes / c->interleave;      /* interleave units of one row in one bank */
    uint64_t in_ch = unit / c->mem_channels;
    uint32_t bank = (uint32_t)((in_ch / per_row) % c->mem_banks);
    uint32_t row = (uint32_t)(in_ch / per_row / c->mem_banks);
    uint64_t xfer = ((uint64_t)bytes * GT_TPC + c->chan_bytes_per_cycle - 1) / c->chan_bytes_per_cycle;
    uint64_t lat = (uint64_t)c->mem_lat * GT_TPC;
    if (t->open_row[ch][bank] == row) {
        t->row_hits++;
    } else {
        t->row_misses++;
        t->open_row[ch][bank] = row;
        xfer += (uint64_t)c->row_miss_busy * GT_TPC;
        lat += (uint64_t)c->row_miss_lat * GT_TPC;
    }
    uint64_t done = gt_cal_reserve(&t->chan[ch], t0, xfer, 1);
    t->mem_bytes += bytes;
    t->mem_reqs++;
    gt_account(t, GT_MEM, done > xfer ? done - xfer : 0, xfer / c->mem_channels ? xfer / c->mem_channels : 1);
    return done + lat;
}

uint64_t gt_l2_access(gpu_timing_t *t, uint64_t t0, uint64_t addr, int write)
{
    const gpu_tcfg_t *c = &t->cfg;
    uint64_t line = addr / c->interleave;
    uint32_t set = (uint32_t)(line % t->l2_sets), W = c->l2_ways;
    uint64_t *tag = &t->l2_tag[(size_t)set * W];
    uint32_t *age = &t->l2_age[(size_t)set * W];
    uint8_t *dirty = &t->l2_dirty[(size_t)set * W];
    t->l2_clock++;
    for (uint32_t w = 0; w < W; w++)
        if (tag[w] == line + 1) {
            age[w] = t->l2_clock;
            if (write) dirty[w] = 1;
            t->l2_hits++;
            return t0 + (uint64_t)c->l2_lat * GT_TPC;
        }
    t->l2_misses++;
    uint32_t v = 0;
    for (uint32_t w = 1; w < W; w++)
        if (!tag[w] || (tag[v] && age[w] < age[v])) v = w;
    uint64_t wb = 0;
    if (tag[v] && dirty[v]) {           /* write the victim back: a writer is throttled by it (gt_write_slack) */
        wb = gt_mem_access(t, t0, (tag[v] - 1) * c->interleave, c->interleave);
        t->l2_writebacks++;
    }
    tag[v] = line + 1;
    age[v] = t->l2_clock;
    dirty[v] = (uint8_t)(write != 0);
    if (write) return gt_max(t0 + (uint64_t)c->l2_lat * GT_TPC, wb);   /* a whole-line write needs no fill */
    return gt_mem_access(t, t0, line * c->interleave, c->interleave) + (uint64_t)c->l2_lat * GT_TPC;
}

void gt_account(gpu_timing_t *t, int u, uint64_t t0, uint64_t ticks)
{
    t->busy[u] += ticks;
    t->items[u]++;
    if (!t->tl_log2) return;
    size_t w = (size_t)((t0 / GT_TPC) >> t->tl_log2);
    if (w >= t->tl_n) {
        size_t nn = t->tl_n ? t->tl_n : 64;
        while (nn <= w) nn *= 2;
        uint64_t *nt = realloc(t->tl, nn * GT_NUNITS * sizeof *nt);
        if (!nt) return;
        memset(nt + t->tl_n * GT_NUNITS, 0, (nn - t->tl_n) * GT_NUNITS * sizeof *nt);
        t->tl = nt;
        t->tl_n = nn;
    }
    t->tl[w * GT_NUNITS + (size_t)u] += ticks;
}

uint64_t gt_drained(const gpu_timing_t *t)
{
    uint64_t d = gt_max(t->last_done, t->front_done);
    for (int u = 0; u < GT_NUNITS; u++) d = gt_max(d, t->free[u]);
    for (int i = 0; i < 4; i++) d = gt_max(d, t->ps_free[i]);    /* the projection slots (gt_proj_slots) */
    return gt_max(d, gt_max(t->start, t->ps_start));
}

void gt_barrier(gpu_timing_t *t, uint64_t tick)
{
    for (int u = 0; u < GT_NUNITS; u++) t->free[u] = gt_max(t->free[u], tick);
    for (int i = 0; i < 4; i++) t->ps_free[i] = gt_max(t->ps_free[i], tick);
    t->start = gt_max(t->start, tick);
    t->ps_start = gt_max(t->ps_start, tick);
    t->rast_busy = gt_max(t->rast_busy, tick);
    t->last_done = gt_max(t->last_done, tick);
}

void gt_warp_cost(const gpu_timing_t *t, const gt_prof_t *p, uint64_t *issue, uint64_t *latency, uint64_t *occupancy)
{
    const gpu_tcfg_t *c = &t->cfg;
    uint64_t W = ISA_WARP_SIZE;
    uint64_t is = ((uint64_t)(p->alu + p->mem + p->ctrl) * W * GT_TPC + c->alu_lanes - 1) / c->alu_lanes +
                  ((uint64_t)p->sfu * W * GT_TPC + c->sfu_lanes - 1) / c->sfu_lanes +
                  ((uint64_t)p->tex * W * GT_TPC + c->tex_lanes - 1) / c->tex_lanes;
    if (is == 0) is = 1;
    uint64_t lat = ((uint64_t)c->alu_lat + (uint64_t)p->sfu * c->sfu_lat + (uint64_t)p->tex * c->tex_lat) * GT_TPC;
    /* a core interleaves warps_per_core warps: latency is hidden once (issue + latency) / warps <= issue */
    uint64_t occ = (is + lat + c->warps_per_core - 1) / c->warps_per_core;
    *issue = is;
    *latency = lat;
    *occupancy = occ > is ? occ : is;
}

/* ---- shader profiles ---- */

static const gpu_isa_prog_t *vs_program(const gpu_timing_t *t, const gpu_draw_t *d)
{
    const gpu_isa_library_t *lib = t->lib;
    if (d->vs_prog) return d->vs_prog;
    if (lib && lib->loaded) return &lib->vs_mvp;
    return NULL;
}

static const gpu_isa_prog_t *fs_program_of(const gpu_isa_library_t *lib, const gpu_draw_t *d)
{
    if (d->fs_prog && d->fs_kind != GPU_FS_DEPTH_ONLY) return d->fs_prog;
    if (!lib || !lib->loaded) return NULL;
    switch (d->fs_kind) {
    case GPU_FS_FLAT: return &lib->fs_flat;
    case GPU_FS_COLOR: return &lib->fs_color;
    case GPU_FS_TEXTURE: return &lib->fs_tex_modulate;            /* approximation: + 4 fmul */
    case GPU_FS_TEXTURE_MODULATE: return &lib->fs_tex_modulate;
    case GPU_FS_DEPTH_ONLY: return &lib->fs_depth;
    case GPU_FS_DISCARD_ALPHA: return &lib->fs_tex_modulate;      /* approximation: compare/discard not counted */
    default: return &lib->fs_color;                               /* MRT, depth write, colour * constant */
    }
}

static const gpu_isa_prog_t *fs_program(const gpu_timing_t *t, const gpu_draw_t *d) { return fs_program_of(t->lib, d); }

int gt_fs_flow_uniform(const void *lib, const gpu_draw_t *d)
{
    const gpu_isa_prog_t *p = fs_program_of(lib, d);
    return !p || frec_flow_uniform(p->words, p->n);     /* no program: a fixed profile */
}

static int prof_run(gpu_timing_t *t, const gpu_isa_prog_t *p, const float (*k)[4], gt_prof_t *out)
{
    isa_ctx_t *ctx = t->pctx;
    isa_warp_t *w = t->pwarp;
    for (uint32_t r = 0; r < GPU_MAX_CONSTS && 4 * r + 3 < ISA_CONST_WORDS; r++)
        for (int c = 0; c < 4; c++) ctx->konst[4 * r + (uint32_t)c] = isa_float_bits(k[r][c]);
    memset(out, 0, sizeof *out);
    for (uint32_t steps = 0; steps < (1u << 16); steps++) {
        uint32_t pc = isa_warp_pc(w);
        if (pc == ISA_RPC_NONE || pc >= ctx->len) break;
        switch (isa_op_class(ISA_GET(ctx->code[pc], OP))) {
        case ISA_CLASS_SFU: out->sfu++; break;
        case ISA_CLASS_MEM:
            if (ISA_GET(ctx->code[pc], OP) == ISA_OP_TEX) out->tex++;
            else out->mem++;
            break;
        case ISA_CLASS_CTRL: out->ctrl++; break;
        default: out->alu++; break;
        }
        int rc = isa_step(ctx, w, NULL);
        if (rc != ISA_OK) break;
    }
    (void)p;
    out->ok = 1;
    return 0;
}

static int prof_setup(gpu_timing_t *t, const gpu_isa_prog_t *p)
{
    if (!t->pctx) {
        t->pctx = isa_ctx_new();
        t->pwarp = isa_warp_new();
        if (!t->pctx || !t->pwarp) return -1;
    }
    if (t->pctx_prog != p) {
        if (isa_ctx_load(t->pctx, p->words, p->n, NULL) != ISA_OK) return -1;
        t->pctx_prog = p;
    }
    return 0;
}

static void prof_fallback(gt_prof_t *p, int vs)
{
    /* no library program: the size of vs_mvp / fs_color (docs/timing.md) */
    memset(p, 0, sizeof *p);
    if (vs) { p->alu = 24; p->mem = 28; p->ctrl = 5; }
    else { p->mem = 8; p->ctrl = 1; }
    p->ok = 1;
}

void gt_profile_vs(gpu_timing_t *t, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_ATTRIBS][4])
{
    const gpu_isa_prog_t *p = vs_program(t, d);
    if (t->vs_key_draw == d && t->vs_key_prog == p && t->vs_prof.ok) return;
    t->vs_key_draw = d;
    t->vs_key_prog = p;
    t->profiles++;
    if (!p || prof_setup(t, p)) { prof_fallback(&t->vs_prof, 1); return; }
    isa_warp_t *w = t->pwarp;
    if (n > ISA_WARP_SIZE) n = ISA_WARP_SIZE;
    for (uint32_t l = 0; l < n; l++) {
        for (uint32_t a = 0; a < gpu_attr_span(d->n_attribs) && 4 * a + 3 < ISA_ATTR_WORDS; a++)
            for (int c = 0; c < 4; c++) w->attr[4 * a + (uint32_t)c][l] = isa_float_bits(in[l][a][c]);
        w->sr_vertex[l] = l;
    }
    isa_warp_init(w, 0, n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1));
    prof_run(t, p, (const float (*)[4])d->vs_consts, &t->vs_prof);
}

void gt_profile_fs(gpu_timing_t *t, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_VARYINGS][4], const float *z)
{
    const gpu_isa_prog_t *p = fs_program(t, d);
    if (t->fs_key_draw == d && t->fs_key_prog == p && t->fs_prof.ok) return;
    t->fs_key_draw = d;
    t->fs_key_prog = p;
    t->profiles++;
    if (!p || prof_setup(t, p)) { prof_fallback(&t->fs_prof, 0); return; }
    isa_warp_t *w = t->pwarp;
    if (n > ISA_WARP_SIZE) n = ISA_WARP_SIZE;
    for (uint32_t l = 0; l < n; l++) {
        for (uint32_t v = 0; v < 2; v++)
            for (int c = 0; c < 4; c++) w->attr[4 * v + (uint32_t)c][l] = isa_float_bits(in[l][v][c]);
        w->attr[8][l] = isa_float_bits(z[l]);
    }
    isa_warp_init(w, 0, n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1));
    for (uint32_t l = 0; l < n; l++) w->out[4][l] = isa_float_bits(z[l]);
    prof_run(t, p, (const float (*)[4])d->fs_consts, &t->fs_prof);
}

uint64_t gt_block_addr(const gpu_timing_t *t, uint32_t sid, uint32_t w, uint32_t x, uint32_t y)
{
    uint32_t b = t->cfg.rop_block;
    uint64_t bpr = (w + b - 1) / b;
    return ((uint64_t)sid << 28) + (((uint64_t)(y / b) * bpr + x / b) * (uint64_t)b * b * 4);
}

int gt_block_first(gpu_timing_t *t, uint32_t sid, uint32_t w, uint32_t h, uint32_t x, uint32_t y)
{
    if (sid >= 1024) return 0;
    uint32_t b = t->cfg.rop_block;
    uint32_t bpr = (w + b - 1) / b, bpc = (h + b - 1) / b;
    if (!t->blk[sid]) {
        t->blk[sid] = calloc((size_t)bpr * bpc, sizeof(uint32_t));
        if (!t->blk[sid]) return 0;
        t->blk_n[sid] = bpr * bpc;
    }
    size_t i = (size_t)(y / b) * bpr + x / b;
    if (i >= t->blk_n[sid]) return 0;
    if (t->blk[sid][i] == t->stamp) return 0;
    t->blk[sid][i] = t->stamp;
    return 1;
}

int gpu_timing_attach(gpu_t *g, gpu_timing_t *t)
{
    g->tm = t;
    if (!t) return 0;
    gpu_queue_t *qs[] = {&g->q_prim, &g->q_vtx, &g->q_shv, &g->q_tri, &g->q_quad, &g->q_fs, &g->q_rop};
    const uint32_t caps[] = {t->cfg.q_prim, t->cfg.q_vtx, t->cfg.q_shv, t->cfg.q_tri, t->cfg.q_quad, t->cfg.q_fs, t->cfg.q_rop};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        /* the timed capacities (queues are empty between runs; what the units compute does not depend on them) */
        size_t item = qs[i]->item;
        gpu_queue_free(qs[i]);
        if (gpu_queue_init(qs[i], item, caps[i]) || gpu_queue_timing_enable(qs[i])) return -1;
    }
    for (int i = 0; i < 3; i++) {      /* the projection slots' stamps of q_prim, q_vtx, q_shv (gt_proj_slots) */
        free(t->ps_tr[i]);
        free(t->ps_tf[i]);
        t->ps_tr[i] = calloc(caps[i], sizeof *t->ps_tr[i]);
        t->ps_tf[i] = calloc(caps[i], sizeof *t->ps_tf[i]);
        if (!t->ps_tr[i] || !t->ps_tf[i]) return -1;
    }
    t->ps_on = 0;
    return 0;
}

static void swap64(uint64_t *a, uint64_t *b)
{
    uint64_t x = *a;
    *a = *b;
    *b = x;
}

void gt_proj_slots(gpu_t *g, int on)
{
    gpu_timing_t *t = g->tm;
    if (!t || t->ps_on == !!on) return;
    static const int fe[4] = {GT_CP, GT_VF, GT_VS, GT_CLIP};
    for (int i = 0; i < 4; i++) swap64(&t->free[fe[i]], &t->ps_free[i]);
    swap64(&t->start, &t->ps_start);
    gpu_queue_t *qs[3] = {&g->q_prim, &g->q_vtx, &g->q_shv};
    for (int i = 0; i < 3; i++) {
        uint64_t *tr = qs[i]->tr, *tf = qs[i]->tf;
        qs[i]->tr = t->ps_tr[i];
        qs[i]->tf = t->ps_tf[i];
        t->ps_tr[i] = tr;
        t->ps_tf[i] = tf;
    }
    t->ps_on = !!on;
}

void gt_clear(gpu_timing_t *t, uint64_t bytes)
{
    const gpu_tcfg_t *c = &t->cfg;
    uint64_t t0 = gt_max(t->free[GT_ROP], t->start), done = t0;
    uint64_t per = (bytes + c->mem_channels - 1) / c->mem_channels;
    uint64_t xfer = (per * GT_TPC + c->chan_bytes_per_cycle - 1) / c->chan_bytes_per_cycle;
    if (!bytes) return;
    for (uint32_t ch = 0; ch < c->mem_channels; ch++) done = gt_max(done, gt_cal_reserve(&t->chan[ch], t0, xfer, 1));
    t->mem_bytes += bytes;
    gt_account(t, GT_ROP, t0, done - t0);
    t->free[GT_ROP] = done;
    t->last_done = gt_max(t->last_done, done);
}

uint64_t gt_merge(gpu_timing_t *t, uint64_t t0, uint64_t t1, uint64_t pixels, uint64_t bytes)
{
    const gpu_tcfg_t *c = &t->cfg;
    if (!pixels) return t1;
    uint64_t st = gt_max(t0, t->free[GT_ROP]);
    uint64_t rop = (pixels + 3) / 4 * t->ii[GT_ROP];            /* quads at rop_rate */
    uint64_t done = gt_max(t1, st + rop) + t->lat[GT_ROP];
    uint64_t per = (2 * bytes + c->mem_channels - 1) / c->mem_channels;
    uint64_t xfer = (per * GT_TPC + c->chan_bytes_per_cycle - 1) / c->chan_bytes_per_cycle;
    for (uint32_t ch = 0; ch < c->mem_channels; ch++) done = gt_max(done, gt_cal_reserve(&t->chan[ch], st, xfer, 1));
    t->mem_bytes += 2 * bytes;
    gt_account(t, GT_ROP, st, rop);
    t->free[GT_ROP] = gt_max(t->free[GT_ROP], done);
    t->last_done = gt_max(t->last_done, done);
    return done;
}

/* ---- parameter table (one source for the CLI, the JSON and docs/timing.md) ---- */
#define PD(f, u, src) {#f, 1, offsetof(gpu_tcfg_t, f), u, src}
#define PU(f, u, src) {#f, 0, offsetof(gpu_tcfg_t, f), u, src}
static const gt_param_t params[] = {
    PD(cp_rate, "prims/cycle", "ours: the command processor issues one primitive per cycle (ATTILA's streamer: 1 index/cycle)"),
    PU(cp_lat, "cycles", "ours"),
    PD(vf_rate, "triangles/cycle", "ATTILA Table 2: primitive assembly 1 triangle/cycle"),
    PU(vf_lat, "cycles", "ours (index + attribute fetch from cache; misses go to memory, see VS)"),
    PD(vs_dispatch_rate, "warps/cycle", "ours: one vertex warp (up to 10 triangles) starts per cycle"),
    PD(clip_rate, "triangles/cycle", "ATTILA Table 2: clipping 1 triangle/cycle"),
    PU(clip_lat, "cycles", "ATTILA Table 2: clipping 6"),
    PD(setup_rate, "triangles/cycle", "ATTILA Table 2: triangle setup 1 triangle/cycle (the geometry/raster boundary)"),
    PU(setup_lat, "cycles", "ATTILA Table 2: triangle setup 10"),
    PD(rast_rate, "quads/cycle", "GP104-like: 4 raster engines x 16 pixels = 16 quads/cycle (ATTILA: 2x64 fragments)"),
    PU(rast_lat, "cycles", "ATTILA Table 2: fragment generation 1"),
    PD(ez_rate, "quads/cycle", "ours: early Z matched to the ROPs (256 fragments/cycle)"),
    PU(ez_lat, "cycles", "ATTILA Table 2: Z test 2 + memory"),
    PD(fs_dispatch_rate, "warps/cycle", "ours: two fragment warps (16 quads) start per cycle, matched to the rasterizer"),
    PD(rop_rate, "quads/cycle", "paper Table 1: 64 ROPs x 4 fragments/cycle = 64 quads/cycle"),
    PU(rop_lat, "cycles", "ATTILA Table 2: color write 2 + memory"),
    PU(cores, "cores", "paper Table 1: 32 unified shaders"),
    PU(warps_per_core, "warps", "ours: resident warps per core (ATTILA 128 threads/shader, GP104 64 warps/SM)"),
    PU(alu_lanes, "lanes", "paper Table 1: 16 simd4 ALUs per shader = 64 scalar lanes (our ISA is scalar)"),
    PU(sfu_lanes, "lanes", "paper Table 1: the scalar ALU of each simd4+scalar ALU (16)"),
    PU(tex_lanes, "lanes", "ATTILA: one texture unit per shader, one quad (4 lanes) per cycle"),
    PU(alu_lat, "cycles", "ATTILA: 1-9 execution stages"),
    PU(sfu_lat, "cycles", "ours"),
    PU(tex_lat, "cycles", "ours: texture cache hit + filtering"),
    PU(mem_channels, "channels", "paper Table 1: 10 GDDR channels"),
    PU(mem_banks, "banks/channel", "paper Table 1: 8"),
    PU(row_bytes, "bytes", "paper Table 1: 2 KB rows"),
    PU(interleave, "bytes", "paper Table 1: 256 B channel interleave"),
    PU(chan_bytes_per_cycle, "bytes/cycle", "ours: 10 x 32 B/cycle = 320 GB/s at 1 GHz (GP104 GDDR5X)"),
    PU(mem_lat, "cycles", "ours: DRAM access, row hit"),
    PU(row_miss_lat, "cycles", "ours: precharge + activate, ~2 x 12 ns"),
    PU(row_miss_busy, "cycles", "ours: channel time a row miss costs beyond its data"),
    PU(rop_block, "pixels", "ours: ROP/Z cache block 8x8 pixels x 4 B = 256 B (one interleave unit); ATTILA has 16 KB Z/colour caches"),
    PU(l2_kb, "KB", "GP104: 2 MB L2 (lines of the interleave size)"),
    PU(l2_ways, "ways", "ours: LRU"),
    PU(l2_lat, "cycles", "ours: L2 hit latency"),
    PU(q_prim, "primitives", "CP -> VF queue: the functional model's 64"),
    PU(q_vtx, "triangles", "VF -> VS queue: the functional model's 16 (ATTILA streamer 48 vertices)"),
    PU(q_shv, "triangles", "VS -> CLIP queue: the functional model's 16 (ATTILA primitive assembly 8)"),
    PU(q_tri, "triangles", "CLIP -> RAST queue: the functional model's 32 (ATTILA setup 12); in the CP phase CLIP -> P2G (a full one stalls projection)"),
    PU(q_quad, "quads", "RAST -> EZ queue: the functional model's 64 (ATTILA Z test 64)"),
    PU(q_fs, "quads", "ours: EZ -> FS, 256 quads (hides the L2 latency at full rate; ATTILA: 112+16 threads x shaders)"),
    PU(q_rop, "quads", "ours: FS -> ROP, 256 quads (ATTILA colour write 64)"),
    PU(tex_block, "texels", "ours: texture cache block (not yet used: texture traffic is not modelled, only latency)"),
    PU(fe_rate, "triangles/cycle", "front-end width P: CP, VF, CLIP and SETUP at P x their rate, P P2G units per GPU merged in order (paper Fig. 9: one P2G per PME); 1 = ATTILA, GP104-like about 4"),
};
#undef PD
#undef PU

const gt_param_t *gt_params(size_t *n)
{
    *n = sizeof params / sizeof params[0];
    return params;
}

double gpu_tcfg_get(const gpu_tcfg_t *c, const gt_param_t *p)
{
    const char *b = (const char *)c + p->off;
    if (p->is_double) { double v; memcpy(&v, b, sizeof v); return v; }
    uint32_t v;
    memcpy(&v, b, sizeof v);
    return (double)v;
}

int gpu_tcfg_set(gpu_tcfg_t *c, const char *name, const char *value, char *err, size_t errlen)
{
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        if (strcmp(params[i].name, name)) continue;
        char *end = NULL;
        double v = strtod(value, &end);
        if (!end || end == value || *end || !(v >= 0) || v > 4e9) {
            snprintf(err, errlen, "timing parameter %s: bad value '%s'", name, value);
            return -1;
        }
        char *b = (char *)c + params[i].off;
        if (params[i].is_double) {
            memcpy(b, &v, sizeof v);
        } else {
            if (v != floor(v)) { snprintf(err, errlen, "timing parameter %s: '%s' is not an integer", name, value); return -1; }
            uint32_t u = (uint32_t)v;
            memcpy(b, &u, sizeof u);
        }
        const char *e = gpu_tcfg_check(c);
        if (e) { snprintf(err, errlen, "timing parameter %s=%s: %s", name, value, e); return -1; }
        return 0;
    }
    snprintf(err, errlen, "unknown timing parameter '%s' (gpupd-sim timing-config lists them)", name);
    return -1;
}

void gt_stamps(gpu_t *g, int on)
{
    gpu_queue_t *qs[] = {&g->q_prim, &g->q_vtx, &g->q_shv, &g->q_tri, &g->q_quad, &g->q_fs, &g->q_rop};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) qs[i]->stamp_off = !on;
}
