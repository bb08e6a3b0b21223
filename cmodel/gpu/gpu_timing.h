/* Timing of one GPU's pipeline units (issue 9, docs/timing.md).
 *
 * The timing is attached to the functional units and queues of gpu.c (ATTILA's boxes and signals): every unit
 * has a throughput (items per cycle, kept as an initiation interval in ticks, GT_TPC ticks per 1 GHz cycle)
 * and a latency (cycles); every queue slot carries the tick at which its item becomes visible to the consumer
 * (tr) and the tick at which the consumer took the previous item out of it (tf, so a bounded queue stalls its
 * producer exactly while it is full). A unit starts an item at max(item ready, unit free, output slot free -
 * latency): the cycle schedule of an in-order pipeline of FIFO units, evaluated once per item while the
 * functional model processes it (event-driven: idle cycles cost nothing, no per-cycle loop). Unit clocks
 * persist across gpu_render/gpu_project calls, so consecutive draws overlap in the pipeline as in hardware.
 *
 * Shared resources that several units use out of time order are capacity calendars (buckets of GT_BUCKET
 * cycles): the unified shader pool (VS and FS warps: issue cycles from the instructions the programs execute,
 * SFU/texture latency hidden by the warps a core holds) and the memory channels (256 B interleave, banks with
 * open rows). A gpu_t without timing (g->tm == NULL) runs exactly as before.
 *
 * Every parameter is in gpu_tcfg_t; defaults and sources: gpu_tcfg_default() and docs/timing.md. */
#ifndef GPUPD_GPU_TIMING_H
#define GPUPD_GPU_TIMING_H

#include <stddef.h>
#include <stdint.h>

#define GT_TPC 64u                 /* ticks per cycle: a rate of up to 64 items per cycle is exact */
#define GT_BUCKET_LOG2 8           /* calendar buckets of 256 cycles */
#define GT_MAX_CHANNELS 32
#define GT_MAX_BANKS 32

enum { GT_CP = 0, GT_VF, GT_VS, GT_CLIP, GT_SETUP, GT_RAST, GT_EZ, GT_FS, GT_ROP, GT_P2G, GT_MEM, GT_SHADER, GT_NUNITS };
const char *gt_unit_name(int u);

typedef struct {
    /* fixed-function units: throughput in items per cycle, latency in cycles */
    double cp_rate, vf_rate, clip_rate, setup_rate, rast_rate, ez_rate, rop_rate;
    uint32_t cp_lat, vf_lat, clip_lat, setup_lat, rast_lat, ez_lat, rop_lat;
    double vs_dispatch_rate, fs_dispatch_rate;   /* warps per cycle the VS / FS units start */
    /* unified shader pool */
    uint32_t cores;                 /* shader cores (Table 1: 32) */
    uint32_t warps_per_core;        /* resident warps per core (latency hiding) */
    uint32_t alu_lanes;             /* scalar ALU lanes per core (16 simd4 ALUs -> 64 scalar lanes) */
    uint32_t sfu_lanes, tex_lanes;  /* SFU / texture address lanes per core */
    uint32_t alu_lat, sfu_lat, tex_lat;   /* cycles */
    /* memory */
    uint32_t mem_channels, mem_banks, row_bytes, interleave;
    uint32_t chan_bytes_per_cycle;  /* data bus of one channel */
    uint32_t mem_lat;               /* access latency (row hit), cycles */
    uint32_t row_miss_lat;          /* extra latency of a row miss (precharge + activate) */
    uint32_t row_miss_busy;         /* channel cycles a row miss costs beyond the data transfer */
    uint32_t rop_block;             /* ROP / Z cache block: rop_block x rop_block pixels (8 -> 256 B) */
    uint32_t l2_kb, l2_ways, l2_lat;  /* shared L2 (lines = interleave bytes), LRU; hit latency in cycles */
    /* queue capacities between the units (items), q_prim .. q_rop of gpu.h */
    uint32_t q_prim, q_vtx, q_shv, q_tri, q_quad, q_fs, q_rop;
    uint32_t tex_block;             /* texture cache block: tex_block x tex_block texels */
    uint32_t fe_rate;               /* front-end width P (1..8): CP, VF, CLIP and SETUP run at P times their rate,
                                       and the GPU has P P2G units merged in order (cmodel/sys/cdsys.h) */
} gpu_tcfg_t;

gpu_tcfg_t gpu_tcfg_default(void);

/* The parameter table: every field of gpu_tcfg_t with its unit and source (docs/timing.md is generated from
 * it by `gpupd-sim timing-config`). gpu_tcfg_set sets one by name (`--tcfg name=value`). */
typedef struct {
    const char *name;
    int is_double;
    size_t off;
    const char *unit;
    const char *source;
} gt_param_t;
const gt_param_t *gt_params(size_t *n);
int gpu_tcfg_set(gpu_tcfg_t *c, const char *name, const char *value, char *err, size_t errlen);
double gpu_tcfg_get(const gpu_tcfg_t *c, const gt_param_t *p);
/* NULL if fine, else what is wrong (a rate <= 0, zero cores, ...). */
const char *gpu_tcfg_check(const gpu_tcfg_t *c);

typedef struct {
    uint32_t *used;                 /* capacity used per bucket */
    size_t n;
    uint64_t cap;                   /* capacity per bucket (resource-ticks) */
    size_t lo;                      /* every bucket below lo is full */
    uint32_t *skip;                 /* per full bucket: a later bucket up to which every bucket is full (0: none
                                       known); buckets never empty, so the reservation jumps over full runs */
} gt_cal_t;

typedef struct {                    /* executed instructions of one warp, by class */
    uint32_t alu, sfu, tex, mem, ctrl;
    uint32_t ok;
} gt_prof_t;

typedef struct gpu_timing {
    gpu_tcfg_t cfg;
    uint64_t ii[GT_NUNITS];         /* ticks per item */
    uint64_t lat[GT_NUNITS];        /* ticks */
    uint64_t free[GT_NUNITS];       /* tick at which the unit can start its next item */
    uint64_t start;                 /* items enter CP no earlier than this (gpu_render/gpu_project) */
    uint64_t last_done;             /* latest completion (ROP write, or CLIP output in project mode) */
    uint64_t front_done;            /* latest CLIP output of the last run (the front end finished) */
    uint64_t rast_busy;             /* traversal of the current triangle done up to this tick */
    uint64_t setup_prev;            /* accept tick of the previous triangle at the boundary */
    int has_setup_prev;
    /* boundary probe (cmodel/sys, exchange_overhead_cycles): armed (probe = 1) before a primitive list the
     * exchange handed over is rendered; the next triangle SETUP accepts disarms it and leaves its idle gap
     * (the NoPrimitive ticks before it: its ready tick - free[GT_SETUP], or its ready tick if it is the first) */
    int probe;
    uint64_t probe_gap;
    /* cycle stack at the geometry -> raster boundary (ticks) */
    uint64_t b_stall, b_issue;
    /* utilisation */
    uint64_t busy[GT_NUNITS];       /* ticks of work */
    uint64_t items[GT_NUNITS];
    /* timeline (Qsilver style): busy ticks per window and unit */
    uint32_t tl_log2;               /* window = 2^tl_log2 cycles; 0: off */
    uint64_t *tl;                   /* [window * GT_NUNITS + unit] */
    size_t tl_n;
    /* shared resources */
    gt_cal_t pool;
    gt_cal_t chan[GT_MAX_CHANNELS];
    uint32_t open_row[GT_MAX_CHANNELS][GT_MAX_BANKS];
    uint64_t mem_bytes, mem_reqs, row_hits, row_misses;
    uint64_t *l2_tag;               /* [set * ways + way]: line address + 1 (0: empty) */
    uint32_t *l2_age;
    uint8_t *l2_dirty;
    uint32_t l2_sets, l2_clock;
    uint64_t l2_hits, l2_misses, l2_writebacks;
    uint64_t vs_warps, fs_warps, vs_instrs, fs_instrs;
    /* project mode: CLIP output tick of each projected primitive (by output index) */
    uint64_t *proj_t;
    size_t proj_cap;
    /* projection slots (gt_proj_slots): the front-end state of the other slot set, swapped with the units' own
     * while a projection runs on them: free ticks of CP, VF, VS (dispatch) and CLIP, the start floor, and the
     * slot stamps (tr/tf) of the queues between them (q_prim, q_vtx, q_shv) */
    uint64_t ps_free[4], ps_start;
    uint64_t *ps_tr[3], *ps_tf[3];
    int ps_on;
    /* shader profiles (per program and draw, measured on the draw's first warp) */
    const void *lib;                /* const gpu_isa_library_t *, read-only, shared */
    void *pctx;                     /* isa_ctx_t * */
    void *pwarp;
    const void *pctx_prog;
    const void *vs_key_prog, *vs_key_draw, *fs_key_prog, *fs_key_draw;
    gt_prof_t vs_prof, fs_prof;
    uint64_t profiles;
    /* ROP / Z / texture cache blocks touched in this run: stamp per block, per surface */
    uint32_t *blk[1024];
    uint32_t blk_n[1024];
    uint32_t stamp;
} gpu_timing_t;

/* Create / free the timing state (allocations only; 0 or -1). lib: the shader library (may be NULL: built-in
 * programs without a library equivalent then use a fixed profile, documented). */
int gpu_timing_init(gpu_timing_t *t, const gpu_tcfg_t *cfg, const void *lib, uint32_t timeline_log2);
void gpu_timing_free(gpu_timing_t *t);

/* Calendar: reserve `amount` resource-ticks from tick t on; returns the tick at which the reservation is
 * complete (>= t). par: how many resource-ticks one tick of time provides (cores for the shader pool). */
uint64_t gt_cal_reserve(gt_cal_t *c, uint64_t t, uint64_t amount, uint64_t par);

/* DRAM access of `bytes` at byte address addr from tick t: returns the tick the data is back. */
uint64_t gt_mem_access(gpu_timing_t *t, uint64_t t0, uint64_t addr, uint32_t bytes);
/* Access through the L2 (one line): read -> the tick the data is available (hit: l2_lat, miss: DRAM fill);
 * write -> the line is written whole (no fill) and becomes dirty; evicting a dirty line writes it to DRAM. */
uint64_t gt_l2_access(gpu_timing_t *t, uint64_t t0, uint64_t addr, int write);
/* A writer may run ahead of its memory writes by this much (a write buffer covering the DRAM latency): its
 * next start is >= the write's completion minus the slack, which throttles it to the memory bandwidth. */
static inline uint64_t gt_write_slack(const gpu_timing_t *t) { return ((uint64_t)t->cfg.mem_lat + t->cfg.l2_lat + t->cfg.row_miss_lat) * GT_TPC; }

/* Account `ticks` of work of unit u starting at tick t0 (utilisation and timeline). */
void gt_account(gpu_timing_t *t, int u, uint64_t t0, uint64_t ticks);

/* Every unit waits until tick `tick` (a barrier: inter-GPU synchronisation). */
void gt_barrier(gpu_timing_t *t, uint64_t tick);
/* The tick at which every unit has finished everything issued so far. */
uint64_t gt_drained(const gpu_timing_t *t);

static inline uint64_t gt_max(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint64_t gt_min(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Shader cost of the draw's programs, measured by running the program on the ISA interpreter for the first
 * warp of each (program, draw) pair with that warp's real inputs (cached: the draws of the bundled traces run
 * straight-line programs or uniform loops, so one warp is exact for them; data-dependent branches are
 * sampled). Built-in programs are costed as their shader-library equivalents (docs/timing.md). */
#include "gpu/gpu.h"
void gt_profile_vs(gpu_timing_t *t, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_ATTRIBS][4]);
void gt_profile_fs(gpu_timing_t *t, const gpu_draw_t *d, uint32_t n, const float (*in)[GPU_MAX_VARYINGS][4], const float *z);
/* 1 if the profile gt_profile_fs measures for draw d's fragment program (lib: the shader library, as
 * gpu_timing_init's) is the same for any inputs (frec_flow_uniform of the program), so that a replay may
 * profile it on zero inputs. */
int gt_fs_flow_uniform(const void *lib, const gpu_draw_t *d);
/* Attach (t != NULL) or detach timing to a GPU: enables the queues' time stamps. 0 or -1. */
int gpu_timing_attach(gpu_t *g, gpu_timing_t *t);
/* Projection slots: a GPU whose CP phase (gpu_project) runs on a front end of its own (CP, VF, VS dispatch and
 * CLIP in classify mode, with their queues), so that a projection never waits behind the rendering the GPU's
 * front end was handed (the raster side's back pressure stops the render front end, not the projection). The
 * shader cores, the L2 and the memory channels stay shared. on = 1 switches the GPU's front-end units to the
 * projection slots (their own free ticks, start floor and queue stamps), on = 0 back; the two sets persist
 * across calls, and gt_barrier / gt_drained cover both. Used by gpupd-stream (docs/timing.md section 2). */
void gt_proj_slots(gpu_t *g, int on);
/* Time stamping of the GPU's queues on (1) or off (0: an untimed functional pass through a timed GPU). */
void gt_stamps(gpu_t *g, int on);
/* Clear of `bytes` (this GPU's share of the surface) by the ROPs through the memory channels. */
void gt_clear(gpu_timing_t *t, uint64_t bytes);
/* Composition merge (chopin) at the ROPs: `pixels` received pixels of `bytes` (colour + depth) arrive from tick
 * t0 to tick t1; the ROPs depth-test each against the local pixel (rop_rate quads per cycle) and read and write
 * the local colour and depth through the memory channels (2 x bytes). Returns the tick the merge is done (>= t1). */
uint64_t gt_merge(gpu_timing_t *t, uint64_t t0, uint64_t t1, uint64_t pixels, uint64_t bytes);
/* Issue ticks and latency ticks of one warp with profile p; pool occupancy with multithreading. */
void gt_warp_cost(const gpu_timing_t *t, const gt_prof_t *p, uint64_t *issue, uint64_t *latency, uint64_t *occupancy);
/* Memory address of the rop_block-sized block containing pixel (x, y) of surface sid (w x h): surfaces are
 * block-linear (8x8 pixels x 4 B = 256 B = the channel interleave), each at its own 256 MB-aligned base. */
uint64_t gt_block_addr(const gpu_timing_t *t, uint32_t sid, uint32_t w, uint32_t x, uint32_t y);
/* 1 the first time in this run (stamp) that block (x, y) of surface sid is touched. */
int gt_block_first(gpu_timing_t *t, uint32_t sid, uint32_t w, uint32_t h, uint32_t x, uint32_t y);

#endif
