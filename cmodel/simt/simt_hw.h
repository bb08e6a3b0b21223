/* C cycle model of the SIMT shader core RTL (rtl/simt_core.v and its submodules; docs/simt.md).
 *
 * The same registers as the RTL: per-warp control (reconvergence stack, exited mask, predicates,
 * scoreboard, instruction buffer, settle flag), the fetch and issue round-robin pointers, the beat
 * sequencer S0, the operand stage S1 and the D-deep result pipeline P[1..D] ending in write-back, and the
 * per-thread memories (registers, attributes, special registers, local, output) plus the instruction
 * memory and the constant bank. The values computed by the FP/SFU units are the ISA's definition
 * (isa_f_*, isa_sfu_*): the RTL units are bit-exact to it, so every port can be compared every cycle.
 *
 * Use: simt_hw_init(); each cycle: fill simt_hw_in_t, simt_hw_comb() for this cycle's outputs, then
 * simt_hw_clock() for the rising edge. Host writes (instructions, constants, attributes) only while idle.
 * simt_hw_free() releases the per-thread memories. No globals: any number of instances. */
#ifndef GPUPD_SIMT_HW_H
#define GPUPD_SIMT_HW_H

#include <stdint.h>

#include "isa/isa.h"

#define SIMT_HW_MAX_LANES 32
#define SIMT_HW_MAX_WARPS 32
#define SIMT_HW_MAX_D 64   /* d = max(2, FPU_LAT, SFU_LAT, TEX_LAT): the legal latencies of defs/cfg_simt.tbl */
#define SIMT_HW_SR_WORDS 2          /* attribute-port words 64, 65: %vertex, %prim */
#define SIMT_HW_ATTR_WORD_VERTEX 64
#define SIMT_HW_ATTR_WORD_PRIM 65

/* Instruction classes of the core (decode). */
enum {
    SIMT_CLS_CTRL = 0,  /* nop, exit, bra: one beat, no result */
    SIMT_CLS_INT = 1,   /* integer ALU, mov, s2r, sel, predicate ops, isetp/usetp: result at P[1] */
    SIMT_CLS_IMUL = 2,  /* imul: two-stage multiplier, result at P[2] */
    SIMT_CLS_FPU = 3,   /* simt_fpu ops: result FPU_LAT after S1 */
    SIMT_CLS_SFU = 4,   /* simt_sfu ops: NSFU lanes per beat, SFU_LAT after S1 */
    SIMT_CLS_LD = 5,    /* ld.a, ld.c, ld.l: synchronous RAM read in S1, result at P[2] */
    SIMT_CLS_ST = 6,    /* st.l, st.o: RAM write at the end of S1 */
    SIMT_CLS_TEX = 7    /* tex: 4 beats per row (one component each), response TEX_LAT after S1 */
};

typedef struct {
    uint32_t lanes;     /* L: 1, 2, 4, 8, 16, 32 (RTL parameter LANES) */
    uint32_t warps;     /* W: 1..32 (RTL parameter WARPS) */
    uint32_t fpu_lat;   /* simt_fpu latency (RTL parameter FPU_LAT) */
    uint32_t sfu_lat;   /* simt_sfu latency (RTL parameter SFU_LAT) */
    uint32_t tex_lat;   /* texture port latency (RTL parameter TEX_LAT), >= 1 */
    uint32_t imul_passes; /* RTL parameter IMUL_PASSES: 1 (0 means 1), or P = 4, 8, 16: every imul beat is
                           * repeated as minor 0..P-1 and only minor P-1 is enabled (lane_en) and writes (the
                           * reduced iCE40 configuration's 32 x (32/P) multiplier, docs/simt.md section 6); the
                           * retire port's minor is the minor mod 4 */
    uint32_t fpu_passes;  /* RTL parameter FPU_PASSES: 1 (0 means 1), or 4: the same for every FPU-class beat
                           * (the significand product in 4 passes of 24 x 6) */
} simt_hw_params_t;

/* Derived sizes (same formulas as the RTL's localparams). */
typedef struct {
    uint32_t q;        /* rows per warp = 32 / L: beats of a normal instruction */
    uint32_t nsfu;     /* SFU pipes = max(1, L / 4) */
    uint32_t sfu_sub;  /* beats per row of an SFU instruction = L / nsfu */
    uint32_t d;        /* result pipeline depth = max(2, fpu_lat, sfu_lat, tex_lat) */
    uint32_t imul_mm;  /* last minor of an imul beat: imul_passes - 1 (0, 3, 7 or 15) */
    uint32_t fpu_mm;   /* last minor of an FPU beat: fpu_passes - 1 (0 or 3) */
} simt_hw_derived_t;
simt_hw_derived_t simt_hw_derive(simt_hw_params_t p);
int simt_hw_params_ok(simt_hw_params_t p);   /* 1 if the RTL accepts this parameter set */

typedef struct {        /* input ports during one cycle */
    int imem_we;
    uint32_t imem_addr;          /* 0..4095 */
    uint64_t imem_data;
    uint32_t prog_len;           /* instructions loaded (a fetch at pc >= prog_len stops the warp: err) */
    int const_we;
    uint32_t const_addr, const_data;
    int attr_we;                 /* one row (L threads) of one attribute word; word < 64 also zeroes the */
    uint32_t attr_warp, attr_row, attr_word;   /* same word of registers, local and output memory */
    uint32_t attr_data[SIMT_HW_MAX_LANES];
    int launch;                  /* start warp slot launch_warp (must not be running) */
    uint32_t launch_warp, launch_mask, launch_wid;
    uint32_t out_warp, out_row, out_word;      /* output memory read address (data next cycle) */
    uint32_t tex_rsp[SIMT_HW_MAX_LANES];       /* texture data for the request of TEX_LAT cycles ago */
} simt_hw_in_t;

typedef struct {        /* output ports during one cycle */
    int idle;                    /* no warp running, pipeline empty */
    uint32_t run_mask, err_mask; /* per warp slot */
    uint32_t out_rdata[SIMT_HW_MAX_LANES];
    /* texture request (one beat: one component of one row) */
    int tex_valid;
    uint32_t tex_warp, tex_row, tex_comp, tex_unit, tex_mask;
    uint32_t tex_s[SIMT_HW_MAX_LANES], tex_t[SIMT_HW_MAX_LANES];
    /* issue (debug/waves) */
    int issue_valid;
    uint32_t issue_warp, issue_pc;
    /* retire port: one beat per cycle at write-back */
    int rt_valid, rt_first, rt_last;
    uint32_t rt_warp, rt_pc, rt_active, rt_wmask;   /* wmask: lanes whose guard passed (whole warp) */
    uint32_t rt_row, rt_minor, rt_lane_en;          /* minor: tex component or SFU sub-beat */
    uint32_t rt_kind, rt_dst;                       /* ISA_DST_*; register/predicate (tex: base rd) */
    uint32_t rt_val[SIMT_HW_MAX_LANES];             /* values of the beat's lanes (0 where not written) */
    uint32_t rt_addr[SIMT_HW_MAX_LANES];            /* store word addresses */
} simt_hw_out_t;

typedef struct {        /* one beat in S1 or the result pipeline */
    int v, first, last;
    uint32_t warp, row, minor, lane_en, exl, cls, kind, dst, pc, active, ex;
    uint32_t val[SIMT_HW_MAX_LANES];    /* S1: operand A; P[k]: result */
    uint32_t addr[SIMT_HW_MAX_LANES];   /* S1: operand B (tex: T = R[ra+1]); P[k]: store address */
    uint32_t opc[SIMT_HW_MAX_LANES];    /* S1: operand C */
    uint64_t insn;
} simt_hw_beat_t;

/* Decode used by both the model and (mirrored) the RTL's simt_decode.v. */
typedef struct {
    uint32_t op, cls, kind;        /* kind: ISA_DST_* of the result */
    int use_ra, use_rb, use_rc, use_ra1;
    int use_pa, use_pb;            /* predicate sources (besides the guard) */
    uint32_t pa, pb;               /* their indices */
    int dst_reg, dst_pred, ndst;   /* destination kind; ndst 4 for tex */
} simt_hw_dec_t;
simt_hw_dec_t simt_hw_decode(uint64_t insn);

typedef struct {        /* per-warp control state (rtl/simt_warp.v) */
    int run, err, settled, ibuf_v;
    uint64_t ibuf;
    simt_hw_dec_t ibuf_d;   /* simt_hw_decode(ibuf), decoded once when the fetch returns (not a register) */
    uint32_t wid, exited, sp;
    uint32_t spc[ISA_STACK_DEPTH], smask[ISA_STACK_DEPTH], srpc[ISA_STACK_DEPTH];   /* srpc bit 16: NONE */
    uint64_t sb_reg;    /* scoreboard: registers with a write in flight */
    uint32_t sb_pred;
    uint32_t pred[8];
} simt_hw_warp_t;

typedef struct {
    simt_hw_params_t p;
    simt_hw_derived_t g;
    uint64_t imem[ISA_MAX_CODE];
    uint32_t konst[ISA_CONST_WORDS];
    simt_hw_warp_t w[SIMT_HW_MAX_WARPS];
    /* per-thread memories, index ((warp * 32 + thread) * 64 + word) */
    uint32_t *rf, *attr, *local, *out, *sr;
    int fetch_v;
    uint32_t fetch_w, fptr, iptr;
    uint64_t fetch_data;
    int s0_v;
    uint32_t s0_warp, s0_pc, s0_active, s0_ex, s0_row, s0_minor;
    uint64_t s0_insn;
    simt_hw_dec_t s0_d;     /* simt_hw_decode(s0_insn), decoded once at issue (not a register) */
    /* S1 and the result pipeline P[1..d] as a ring of d + 2 beats (no per-cycle copy of the pipeline): S1 is
     * beat[beat0], P[k] is beat[(beat0 + k) mod (d + 2)], and beat[(beat0 + d + 1) mod (d + 2)] is where the
     * rising edge builds the next S1 beat; the edge then steps beat0 back by one, so that the new beat is S1,
     * S1 becomes P[1] (executed in place), P[k] becomes P[k+1] and the slot of P[d] is the next free one */
    simt_hw_beat_t beat[SIMT_HW_MAX_D + 2];
    uint32_t beat0;
    uint32_t out_rdata[SIMT_HW_MAX_LANES];
    uint64_t cycle, n_issued, n_beats;
} simt_hw_t;

/* Reset state (rst_ni low). Returns 0, or -1 (bad parameters or out of memory). */
int simt_hw_init(simt_hw_t *h, simt_hw_params_t p);
void simt_hw_free(simt_hw_t *h);
/* rst_ni low (two cycles in the harnesses): the registers the RTL resets (warp control flags, pipeline
 * valid bits, round-robin pointers) return to their reset values; memories and data registers keep their
 * contents, as in the RTL. */
void simt_hw_reset(simt_hw_t *h);
void simt_hw_comb(const simt_hw_t *h, const simt_hw_in_t *in, simt_hw_out_t *out);
void simt_hw_clock(simt_hw_t *h, const simt_hw_in_t *in);


#endif
