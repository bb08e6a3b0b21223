/* The N-GPU system of the functional golden model (issue 5, SPEC 2-4).
 *
 * A scene (sys_scene_t) is what the model renders: surface descriptions and frames of commands (clears,
 * draws, surface uploads). It comes from a trace (sys/trace_scene.h) or from the synthetic generator
 * (sys/scene_gen.h). A system (sys_run) is N independent gpu_t instances, the network (net.h) and the
 * primitive exchangers (pe.h), running one scheme:
 *
 *   single       1 GPU renders everything
 *   dup          every GPU projects every primitive, rasterizes those whose P2G mask names it
 *   gpupd        per draw: CP (chunk of ceil(m/N) primitives per GPU, projection, P2G), CD (PE exchange),
 *                then each GPU renders its received primitives in order
 *   gpupd-batch  draws merged into batches (stop once more than `batch` primitives are merged)
 *   gpupd-ra     batching plus runahead (CP of b+1 overlaps CD of b)
 *   gpupd-stream batching with the ordered streaming exchange (issue 20): no turns; every GPU sends its P2G
 *                results as they come, each receiver restores application order in per-source FIFOs
 *                (stream/sx.h, stream/sx_hw.h) and renders the primitives of (batch, source) once they are released
 *   afr          frame f is rendered by GPU f mod N (whole screen); inter-frame dependencies are synced
 *   chopin       CHOPIN (Ren and Lis, HPCA 2021): consecutive draws of the same composition state form a
 *                group; a large opaque group is split by draws over the GPUs (each renders whole-screen
 *                sub-images) and composed by depth into each GPU's tiles; other groups run as dup (sys/chopin.h)
 *
 * SFR schemes own the screen by tiles (p2g_owner). Render-to-texture: before a draw samples a surface
 * that some GPU wrote since the last synchronisation, every GPU broadcasts its updated tiles of it
 * (accounted as sync bytes per link). Batches never span a clear, an upload or a synchronisation; a segment
 * (one exchange) ends only at a synchronisation: clears and uploads are batch boundaries inside it.
 * The frame is composed by tile ownership. The SPEC 4.2 invariant and the packet accounting are checked
 * on every exchange; a violation stops the run (sys_run returns -1, report in res->err). */
#ifndef GPUPD_SYS_H
#define GPUPD_SYS_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/gpu.h"
#include "gpu/gpu_timing.h"
#include "link/net.h"
#include "pe/pe.h"

typedef enum { SYS_CMD_CLEAR = 0, SYS_CMD_DRAW = 1, SYS_CMD_UPLOAD = 2 } sys_cmd_kind_t;

typedef struct {
    sys_cmd_kind_t kind;
    /* clear */
    int32_t surface;
    uint32_t value;             /* packed RGBA8 or 24-bit depth */
    float color[4];             /* colour clear of a floating-point surface (gpu_clear_float) */
    uint8_t mask;               /* colour write mask bits RGBA (colour clears) */
    int32_t sx, sy;
    uint32_t sw, sh;            /* scissor (sw = 0: whole surface) */
    /* upload: replace the surface's contents on every GPU (w*h*gpu_fmt_words(fmt) words) */
    const uint32_t *data;
    /* draw */
    gpu_draw_t draw;
    int64_t ref_pixels;         /* reference pixel count (llvmpipe), -1 unknown */
    uint32_t src_index;         /* draw index in the source frame */
} sys_cmd_t;

typedef struct {
    sys_cmd_t *cmds;
    size_t n, cap;
} sys_frame_t;

typedef struct {
    uint32_t w, h;
    gpu_format_t fmt;
    const uint32_t *init;       /* NULL: zero; else w*h*gpu_fmt_words(fmt) words */
} sys_surface_desc_t;

typedef struct {
    uint32_t width, height;     /* screen */
    uint32_t n_surf;
    sys_surface_desc_t surf[GPU_MAX_SURFACES];
    int32_t display;            /* the surface that is the frame */
    sys_frame_t *frames;
    uint32_t n_frames;
    /* memory owned by the scene (freed by sys_scene_free) */
    void **blobs;
    size_t n_blobs, cap_blobs;
} sys_scene_t;

void sys_scene_init(sys_scene_t *s);
void sys_scene_free(sys_scene_t *s);
/* Keep p (malloc'd) alive as long as the scene; returns p or NULL (and frees p) on failure. */
void *sys_scene_own(sys_scene_t *s, void *p);
sys_cmd_t *sys_scene_add_cmd(sys_scene_t *s, uint32_t frame);   /* zeroed command, frames grown as needed */
int sys_scene_add_surface(sys_scene_t *s, uint32_t w, uint32_t h, gpu_format_t fmt, const uint32_t *init);

typedef enum {
    SYS_SCHEME_SINGLE = 0, SYS_SCHEME_DUP, SYS_SCHEME_GPUPD, SYS_SCHEME_GPUPD_BATCH, SYS_SCHEME_GPUPD_RA,
    SYS_SCHEME_AFR, SYS_SCHEME_CHOPIN, SYS_SCHEME_GPUPD_STREAM, SYS_SCHEME_COUNT
} sys_scheme_t;
const char *sys_scheme_name(sys_scheme_t s);
int sys_scheme_parse(const char *name, sys_scheme_t *s);

/* gpupd-stream's front-end policy: what a GPU's front end does with a release and with its next chunk's projection
 * (docs/timing.md sections 2 and 8). SPLIT (default): the CP phase runs on projection slots of its own (a second
 * CP / VF / VS-dispatch / CLIP path sharing the shader cores and memory: gt_proj_slots) and a release goes to
 * rendering at once. The others are the single in-order front end: IN_ORDER, a release waits for the chunk its
 * P2G is taking; FREE, it goes to rendering at once; AHEAD, projection first (releases wait while the next chunk
 * may start its CP phase). */
/* gpupd-stream's batching ramps up at every segment start: batch k closes after ramp0 << k primitives (at most the
 * batching threshold; ramp0 = sys_config_t.sx_ramp, 0: this default), so the GPUs' first LASTs come after a short
 * projection (docs/timing.md sections 2 and 8). */
#define SYS_STREAM_RAMP0 256u

typedef enum { SYS_SX_FRONT_SPLIT = 0, SYS_SX_FRONT_IN_ORDER, SYS_SX_FRONT_FREE, SYS_SX_FRONT_AHEAD } sys_sx_front_t;
const char *sys_sx_front_name(sys_sx_front_t f);

typedef struct {
    sys_scheme_t scheme;
    uint32_t n_gpus;            /* 1..64 */
    net_topo_t topo;
    uint32_t batch;             /* batching threshold (primitives), default 4096 */
    uint32_t tile_log2;         /* default 5 (32x32) */
    p2g_mode_t own_mode;        /* default diag */
    uint32_t link_latency;      /* network steps per link, default 4 */
    uint32_t hub_rate;          /* flits per step through the hub switch, default 2 */
    uint32_t send_rate;         /* PE entries per step, default 1 */
    uint32_t cp_cost;           /* CP steps per primitive, default 1 */
    uint32_t frame;             /* frame to produce (frames 0..frame are rendered) */
    pe_fault_t fault;           /* fault injection for testing the checkers */
    uint64_t fault_at;
    int isa;                    /* attach an ISA-interpreter shader backend to every GPU (its own) */
    int tex_filter;             /* gpu_texf_t of every GPU's texture unit (0: float, the default) */
    uint32_t mem_limit_mb;      /* limit on the surface memory of all GPUs together, MiB (default
                                   SYS_MEM_LIMIT_MB_DEFAULT; 0 = the default); past it sys_run fails with
                                   a clear error before allocating (docs/golden-model.md, limits) */
    int check_masks;            /* probe every primitive a GPU was left out of: it must cover none of its
                                   pixels (P2G soundness; costs a coverage pass per GPU) */
    /* Optional observer of every CP-phase P2G evaluation (gpupd schemes): the GPU that projected it, the
     * command index, the P2G configuration of the draw, the P2G input and the mask. Used to replay real
     * primitive streams through the P2G RTL (gpupd-p2g-trace, cosim-p2g --replay). NULL: none. */
    void (*p2g_tap)(void *user, uint32_t gpu, uint32_t cmd, const p2g_config_t *cfg, const p2g_prim_t *in,
                    uint64_t mask);
    void *p2g_tap_user;
    /* Optional observer of every completed CD phase (gpupd schemes): called once per segment after pe_run
     * succeeded and its checks passed, with the exchange's input (the P2G results per batch and GPU, in CP
     * order: the same records, in the same order, that p2g_tap saw just before) and its result (the golden
     * receive lists). Used by the system co-simulation (sim/system, cmodel/sys/cdsys.h). NULL: none. */
    void (*pe_tap)(void *user, uint32_t frame, const pe_input_t *in, const pe_result_t *res);
    void *pe_tap_user;
    /* Timing (issue 9, docs/timing.md): the produced frame is timed in 1 GHz cycles when `timing` is set
     * (default). The network then runs timed (link_latency_ns, link_gbps, hub_gbps replace link_latency /
     * hub_rate); unit parameters in tcfg. */
    int timing;
    gpu_tcfg_t tcfg;
    double link_latency_ns;     /* per link traversal, default 400 (paper Table 1) */
    double link_gbps;           /* per link and direction, default 40 */
    double hub_gbps;            /* hub switch, default 80 */
    uint32_t timeline_log2;     /* per-unit busy timeline in windows of 2^k cycles (0: none) */
    int no_skip;                /* step every cycle in the stepped parts (exchange, P2G): same results, slower */
    uint32_t threads;           /* threads the GPUs run on (0, 1: the caller's only; sys_par.h): same results */
    uint32_t p2g_rows;          /* P2G RTL parameter ROWS (default 2) */
    uint32_t pe_lq_depth;       /* PE RTL parameter LQ_DEPTH in the timed exchange (0: PE_HW_MAX_DEPTH = 256) */
    uint32_t chopin_min_tris;   /* chopin: a group composes from this many triangles on (default 4096; 0 is an error) */
    int chopin_rr;              /* chopin: draw scheduler round robin instead of least scheduled triangles */
    uint32_t chopin_max_draw_tris;  /* chopin: a draw of more triangles is a group of its own (default 16384; 0: no cap) */
    int pe_golden;              /* timed exchange: 0 = the PE RTL's cycle model (pe_hw) with the P2G cycle model in
                                   the CD system (cdsys.h, default); 1 = the golden protocol model pe.c (send_rate) */
    /* Functional record of each frame 0..frame (gpu/frec.h), frec[f] for frame f. frec_mode FREC_RECORD: a
     * single-GPU run fills them (and each one's frame hash); FREC_REPLAY: every GPU replays them instead of
     * rendering (no frame image; not for chopin or check_masks; the frame hash is the recorded one). */
    frec_t *const *frec;
    int frec_mode;
    /* gpupd-stream's stream PE (cdsys.h stream mode): entries released per cycle (K, 1..8; 0 = 1), FIFO depth per
     * source = credits per destination (0 = 2048), live batches a GPU's CP may run ahead of its release (0 = 4) */
    uint32_t sx_k, sx_depth, sx_live;
    sys_sx_front_t sx_front;    /* gpupd-stream's front-end policy (docs/timing.md sections 2 and 8) */
    uint32_t sx_ramp;           /* gpupd-stream: primitives after which a segment's first batch closes, doubling per
                                   batch up to `batch` (0 = SYS_STREAM_RAMP0; >= batch: no ramp) */
} sys_config_t;

#define SYS_MEM_LIMIT_MB_DEFAULT 4096u
sys_config_t sys_config_default(void);

typedef struct {
    gpu_stats_t render;         /* rendering pipeline of this GPU */
    gpu_stats_t project;        /* CP-phase projection (gpupd*, dup) */
    uint64_t prims_projected;   /* primitives this GPU did geometry processing for in CP / dup */
    uint64_t prims_received;    /* primitives received from other GPUs (PRIM packets) */
    uint64_t prims_received_from[64]; /* ... of them, from each source GPU (own entry 0; Fig. 14) */
    uint64_t prims_kept;        /* own CP primitives it kept for itself */
    uint64_t prims_to_render;   /* primitives in its render lists */
    uint64_t prims_sent;        /* PRIM packets it sent */
    uint64_t sync_bytes_sent;   /* render-to-texture / inter-frame sync data it broadcast */
    uint64_t frames_rendered;   /* AFR */
    uint64_t comp_draws;        /* chopin: draws of composed groups this GPU rendered */
    uint64_t comp_bytes_sent;   /* chopin: composition data it sent */
    uint64_t comp_cycles;       /* chopin, timed: cycles from finishing a group's sub-image to finishing its composition */
    /* timing of the produced frame (cycles); cyc_* is the cycle stack at the geometry -> raster boundary */
    uint64_t cyc_done;          /* this GPU finished its work of the frame */
    uint64_t cyc_no_primitive, cyc_stall, cyc_sync, cyc_issue;
    uint64_t exchange_wait_ticks;   /* exchanging schemes: ticks its rendering front end waited on the exchange
                                       (docs/timing.md, exchange_overhead_cycles) */
    uint64_t reorder_max_ids;   /* gpupd-stream, timed: most entries its reorder FIFOs held at once */
    uint64_t unit_ticks[GT_NUNITS];   /* work per unit in ticks (GT_TPC per cycle; shader: core-ticks) */
    uint64_t mem_bytes, row_hits, row_misses, vs_warps, fs_warps, vs_instrs, fs_instrs, p2g_prims, shader_profiles;
    uint64_t *timeline;         /* [window * GT_NUNITS + unit] busy ticks (timeline_log2 windows) */
    size_t timeline_n;
} sys_gpu_stats_t;

typedef struct {
    uint32_t from, to;          /* node ids (hub switch = n_gpus) */
    uint64_t prim_flits, last_flits, sync_bytes, comp_bytes;
    uint64_t busy_cycles;       /* timed: cycles the link carried exchange flits or synchronisation data */
} sys_link_stats_t;

typedef struct {
    uint32_t w, h;
    uint32_t *pixels;           /* composed display surface (RGBA8, row 0 = bottom) */
    sys_gpu_stats_t gpu[64];
    sys_link_stats_t *links;
    uint32_t n_links;
    uint64_t batches, segments, syncs, sync_bytes, draws, prims_app, exchange_steps;
    uint64_t mask_checks;       /* (primitive, GPU) pairs probed by check_masks */
    /* chopin: groups composed / duplicated (by reason: [0] too small, else the chopin_class_t of a group large
     * enough), composition bytes (every
     * sender -> receiver transfer once), pixels whose merge was decided by draw order among equal depths */
    uint64_t comp_groups, comp_fallback[4], comp_bytes, comp_tie_pixels;
    uint64_t *draw_pixels;      /* per draw of the produced frame: pixels written (all GPUs) */
    int64_t *draw_ref_pixels;   /* reference counts from the scene (-1 unknown) */
    uint32_t n_draws_frame;
    uint64_t fault_fired;       /* how often cfg->fault took effect (0: the injected fault never fired) */
    /* timing */
    int timed;
    uint64_t cycles;            /* single-frame latency of the produced frame, 1 GHz cycles */
    uint64_t exchange_overhead; /* exchange wait (cycles) of the GPU that finishes last; 0 without an exchange */
    uint64_t exchange_stepped;  /* exchange cycles actually evaluated (the rest were skipped as idle) */
    uint64_t p2g_cycles_stepped;
    uint64_t hub_flits, hub_busy_cycles;   /* hub topology, timed frame: flits through the switch, cycles it moved any */
    int replayed;               /* the run replayed frame records: pixels are not the frame, frame_hash is */
    int replay_refused;         /* sys_run failed because the frame records cannot be replayed exactly */
    uint64_t frame_hash;        /* replayed: the recorded frame's hash */
    uint64_t credit_flits;      /* gpupd-stream, timed: CREDIT flits the stream PEs sent */
    char err[1024];
} sys_result_t;

/* Run the scene under cfg; frames 0..cfg->frame rendered, frame cfg->frame composed into res->pixels.
 * Returns 0, or -1 with res->err (bad configuration, bad scene, invariant violation). */
int sys_run(const sys_scene_t *scene, const sys_config_t *cfg, sys_result_t *res);
void sys_result_free(sys_result_t *res);

/* Write the stats as JSON. */
int sys_write_stats_json(const sys_result_t *res, const sys_config_t *cfg, const char *trace_name, const char *path);

/* FNV-1a 64 of a pixel buffer (the frame hash the tests compare). */
uint64_t sys_frame_hash(const uint32_t *pixels, size_t n);

#endif
