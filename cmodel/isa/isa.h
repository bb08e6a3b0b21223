/* GPUpd SIMT shader ISA: functional interpreter, assembler, disassembler (issue 4, docs/isa.md).
 *
 * One instruction = one 64-bit word; fields and opcodes come from defs/isa.tbl via the generated
 * build/gen/isa_defs.h (ISA_OP_*, ISA_F_*, ISA_GET/ISA_PUT, ISA_* constants).
 *
 * Usage (one warp):
 *     isa_ctx_t *ctx = isa_ctx_new();                   // program + constant bank + sampler
 *     isa_ctx_load(ctx, words, n);                      // or isa_assemble(...) first
 *     ctx->konst[0..255] = ...;                         // uniform constants (MVP matrix in c[0..15])
 *     isa_warp_t *w = isa_warp_new();
 *     isa_warp_init(w, warp_id, active_mask);           // lanes set in active_mask run
 *     w->attr[word][lane] = ...;  w->sr_vertex[lane] = ...;
 *     isa_run(ctx, w, max_instrs)  -> ISA_DONE or an error (< 0)
 *     read w->out[word][lane]
 * or, for lockstep co-simulation, call isa_step() repeatedly: it retires exactly one warp instruction
 * and fills an isa_retire_t.
 *
 * No global mutable state: every context and warp is an independent instance. Deterministic.
 */
#ifndef GPUPD_ISA_H
#define GPUPD_ISA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "isa_defs.h"   /* generated from defs/isa.tbl */

/* ------------------------------------------------------------------------------------------------ */
/* Status codes. */
enum {
    ISA_OK = 0,           /* isa_step: one instruction retired */
    ISA_DONE = 1,         /* the warp has finished (every lane exited or ran off the top-level end) */
    ISA_ERR_PC = -1,      /* fetch outside the program */
    ISA_ERR_STACK = -2,   /* reconvergence stack overflow (nesting deeper than ISA_STACK_DEPTH) */
    ISA_ERR_LIMIT = -3,   /* isa_run: max_instrs reached (watchdog) */
    ISA_ERR_DECODE = -4,  /* undefined opcode */
    ISA_ERR_ARG = -5      /* bad argument (e.g. program too long) */
};
const char *isa_status_str(int status);

/* Texture sampler callback (the pipeline model implements the sampler). Called once per active lane of a
 * tex instruction with the raw bits of the coordinates s = R[ra], t = R[ra+1]; must write 4 words
 * (usually FP32 r, g, b, a) into rgba. Deterministic. NULL sampler: tex returns (s, t, 0, 1.0f). */
typedef void (*isa_tex_fn)(void *user, uint32_t unit, uint32_t warp, uint32_t lane, uint32_t s_bits,
                           uint32_t t_bits, uint32_t rgba[4]);

/* Optional whole-warp sampler (docs/isa.md section 7): called once per tex instruction with every lane's
 * raw s, t bits and the mask of executing lanes; writes res[k][lane] for the executing lanes. It lets the
 * sampler compute the level of detail from the 2x2 quads (lanes 4q..4q+3) like a GPU's texture unit.
 * When set it is used instead of `tex`. */
typedef void (*isa_texq_fn)(void *user, uint32_t unit, uint32_t warp, uint32_t exec, const uint32_t s_bits[32],
                            const uint32_t t_bits[32], uint32_t res[4][32]);

/* Pre-decoded instruction (internal to the interpreter, exposed so the context can be a plain struct). */
typedef struct {
    uint8_t op, gp, gn, rd, ra, rb, rc, cc;
    uint8_t na, aa, nb, nc, bi, pad0, pad1, pad2;
    uint32_t imm;  /* IMM (BI = 1) */
    uint32_t ofs;  /* OFS / TGT */
    uint32_t rpc;  /* RPC */
    uint32_t pad3;
} isa_dinsn_t;

/* Shared by every warp running the same program: program, constant bank, sampler. */
typedef struct {
    uint32_t len;                          /* instructions loaded */
    uint64_t code[ISA_MAX_CODE];
    isa_dinsn_t dec[ISA_MAX_CODE];
    uint32_t konst[ISA_CONST_WORDS];       /* uniform constant bank (raw 32-bit words) */
    isa_tex_fn tex;
    void *tex_user;
    isa_texq_fn texq;                      /* optional; preferred over tex (same user pointer) */
} isa_ctx_t;

isa_ctx_t *isa_ctx_new(void);                          /* zeroed; free with isa_ctx_free */
void isa_ctx_free(isa_ctx_t *ctx);
/* Copy and pre-decode a program. Returns ISA_OK, ISA_ERR_ARG (n > ISA_MAX_CODE) or ISA_ERR_DECODE
 * (undefined opcode; *bad_pc set if non-NULL). */
int isa_ctx_load(isa_ctx_t *ctx, const uint64_t *words, uint32_t n, uint32_t *bad_pc);
void isa_ctx_set_const(isa_ctx_t *ctx, uint32_t index, uint32_t value);
void isa_ctx_set_constf(isa_ctx_t *ctx, uint32_t index, float value);

/* Reconvergence stack entry: execute at pc with mask until pc == rpc, then pop. */
typedef struct {
    uint32_t pc, mask, rpc;
} isa_stack_entry_t;

#define ISA_RPC_NONE 0xffffffffu   /* rpc of the bottom entry: never reached */

/* One warp of ISA_WARP_SIZE threads. Arrays are [index][lane]. */
typedef struct {
    uint32_t r[ISA_NUM_REGS][ISA_WARP_SIZE];
    uint32_t p[ISA_NUM_PREDS];                 /* predicate registers as lane masks (bit = lane) */
    uint32_t attr[ISA_ATTR_WORDS][ISA_WARP_SIZE];
    uint32_t out[ISA_OUT_WORDS][ISA_WARP_SIZE];
    uint32_t local[ISA_LOCAL_WORDS][ISA_WARP_SIZE];
    uint32_t sr_vertex[ISA_WARP_SIZE];         /* SR_VERTEX per lane (set by the launcher) */
    uint32_t sr_prim[ISA_WARP_SIZE];           /* SR_PRIM per lane */
    uint32_t warp_id;
    uint32_t launch_mask;                      /* lanes that started */
    uint32_t exited;                           /* lanes that executed exit */
    uint32_t sp;                               /* stack entries in use (0: warp done) */
    isa_stack_entry_t stack[ISA_STACK_DEPTH];
    uint32_t max_sp;                           /* deepest stack use seen */
    uint64_t n_instrs;                         /* warp instructions retired */
    uint64_t n_thread_instrs;                  /* sum over retired instructions of active lanes */
} isa_warp_t;

isa_warp_t *isa_warp_new(void);                /* zeroed; free with isa_warp_free (or free()) */
void isa_warp_free(isa_warp_t *w);
/* Reset registers, predicates (p0..p6 = 0), outputs, local memory, stack; pc 0; keeps attr[] and sr_*
 * (the launcher fills them before or after this call). Lanes not in active_mask never run. */
void isa_warp_init(isa_warp_t *w, uint32_t warp_id, uint32_t active_mask);
/* Current pc (top of the reconvergence stack) or ISA_RPC_NONE if done. */
uint32_t isa_warp_pc(const isa_warp_t *w);
/* Current active mask (top-of-stack mask minus exited lanes), 0 if done. */
uint32_t isa_warp_active(const isa_warp_t *w);

/* Retire record of one warp instruction (lockstep co-simulation compares these field by field). */
enum {
    ISA_DST_NONE = 0,   /* nop, bra, exit */
    ISA_DST_REG = 1,    /* dst = register, ndst registers dst..dst+ndst-1 (tex: 4) */
    ISA_DST_PRED = 2,   /* dst = predicate register; val[0][lane] = 0/1 */
    ISA_DST_LOCAL = 3,  /* st.l: addr[lane] word address, val[0][lane] value */
    ISA_DST_OUT = 4     /* st.o: addr[lane] word address, val[0][lane] value */
};
typedef struct {
    uint32_t warp;
    uint32_t pc;
    uint64_t insn;
    uint32_t active;     /* active mask when issued */
    uint32_t wmask;      /* lanes whose guard passed (bra: lanes that took the branch; exit: lanes exited) */
    uint32_t next_pc;    /* pc of the next instruction of this warp (ISA_RPC_NONE if it finished) */
    uint8_t dst_kind;    /* ISA_DST_* */
    uint8_t dst;
    uint8_t ndst;        /* registers written (0..4) */
    uint8_t pad;
    uint32_t val[4][ISA_WARP_SIZE];   /* values written, [register][lane]; only wmask lanes meaningful
                                         (other lanes hold 0) */
    uint32_t addr[ISA_WARP_SIZE];     /* store word addresses (after wrap), wmask lanes */
} isa_retire_t;

/* Retire one instruction of warp w. Returns ISA_OK (rec filled, if rec != NULL), ISA_DONE (nothing left
 * to execute; rec untouched) or an error < 0. */
int isa_step(const isa_ctx_t *ctx, isa_warp_t *w, isa_retire_t *rec);
/* Run to completion: ISA_DONE, or an error (ISA_ERR_LIMIT after max_instrs warp instructions). */
int isa_run(const isa_ctx_t *ctx, isa_warp_t *w, uint64_t max_instrs);

/* Per-thread reference interpreter (straight-line, no SIMT stack, for self-checks): runs lane `lane` of
 * w alone from pc 0, following its own branches. Returns ISA_DONE or an error. Uses the same per-lane
 * operation semantics as isa_step. */
int isa_ref_run_thread(const isa_ctx_t *ctx, isa_warp_t *w, uint32_t lane, uint64_t max_instrs);

/* ------------------------------------------------------------------------------------------------ */
/* Scalar operation semantics (the definition the RTL mirrors; soft-float, integer only). Values are raw
 * binary32 bit patterns. FTZ on inputs and outputs, RNE, canonical NaN ISA_FNAN. */
#define ISA_FNAN 0x7fc00000u
uint32_t isa_f_ftz(uint32_t a);                  /* denormal -> signed zero */
uint32_t isa_f_add(uint32_t a, uint32_t b);
uint32_t isa_f_mul(uint32_t a, uint32_t b);
uint32_t isa_f_mad(uint32_t a, uint32_t b, uint32_t c);   /* add(mul(a,b), c) */
uint32_t isa_f_min(uint32_t a, uint32_t b);
uint32_t isa_f_max(uint32_t a, uint32_t b);
int isa_f_setp(uint32_t a, uint32_t b, uint32_t cc);    /* cc: ISA_CC_* bits */
uint32_t isa_f_rnd(uint32_t a, uint32_t mode);          /* round to integral, ISA_RND_* */
uint32_t isa_f2i(uint32_t a, uint32_t mode);
uint32_t isa_f2u(uint32_t a, uint32_t mode);
uint32_t isa_i2f(uint32_t a);
uint32_t isa_u2f(uint32_t a);
/* SFU (table + quadratic interpolation, tables defs/sfu_*.hex). */
uint32_t isa_sfu_rcp(uint32_t a);
uint32_t isa_sfu_rsq(uint32_t a);
uint32_t isa_sfu_ex2(uint32_t a);
uint32_t isa_sfu_lg2(uint32_t a);
uint32_t isa_sfu_sin(uint32_t a);
uint32_t isa_sfu_cos(uint32_t a);

/* ------------------------------------------------------------------------------------------------ */
/* Assembler / disassembler (syntax in docs/isa.md). */
typedef struct {
    int line, col;       /* 1-based position of the first error (0 if none) */
    char msg[160];
} isa_asm_err_t;

/* Assemble NUL-terminated source text into out[0..cap-1]. Returns the number of instructions (>= 0) or
 * -1 on error (err filled: line, column, message). */
int isa_assemble(const char *text, uint64_t *out, uint32_t cap, isa_asm_err_t *err);

/* Disassemble one instruction (no labels: branch targets as numbers) into buf. Returns the length
 * written (snprintf semantics). */
int isa_disasm_insn(uint64_t insn, char *buf, size_t cap);
/* Disassemble a program to text that re-assembles to the identical words (labels L<pc> for branch
 * targets). Returns a malloc'd NUL-terminated string (caller frees) or NULL on allocation failure. */
char *isa_disasm_program(const uint64_t *words, uint32_t n);

/* Opcode info (from the table). Returns NULL mnemonic for undefined opcodes. */
const char *isa_op_name(uint32_t op);
enum { ISA_CLASS_ALU = 0, ISA_CLASS_SFU = 1, ISA_CLASS_MEM = 2, ISA_CLASS_CTRL = 3 };
int isa_op_class(uint32_t op);   /* -1 if undefined */

/* ------------------------------------------------------------------------------------------------ */
/* Shader library (cmodel/shaders/NAME.s, embedded at build time; I/O conventions in docs/isa.md and at the
 * top of each .s file): vs_mvp, vs_viewport, vs_project, fs_flat, fs_color, fs_tex_modulate, fs_depth. */
#define ISA_VS_C_MVP        0    /* c[0..15]  MVP matrix, row-major */
#define ISA_VS_C_VIEWPORT   16   /* c[16..21] SX OX SY OY DS DO (vs_viewport.s) */
#define ISA_VS_A_POS        0    /* a[0..3]   position */
#define ISA_VS_A_COLOR      4    /* a[4..7]   colour */
#define ISA_VS_A_TEXCOORD   8    /* a[8..11]  texcoord */
#define ISA_VS_O_CLIP       0    /* vs_mvp/vs_project o[0..3]  clip position (o[4..11] colour, texcoord) */
#define ISA_VS_O_SCREEN     12   /* vs_project o[12] X, o[13] Y (1/256 px), o[14] z, o[15] 1/w, o[16] flags */
#define ISA_VS_FLAG_NEAR    1u   /* screen flags: z < -w */
#define ISA_VS_FLAG_WNEG    2u   /* screen flags: w <= 0 */
#define ISA_FS_A_COLOR      0    /* a[0..3] interpolated colour */
#define ISA_FS_A_TEXCOORD   4    /* a[4..5] texcoord s, t */
#define ISA_FS_A_DEPTH      8    /* a[8]    window z */
#define ISA_FS_O_COLOR      0    /* o[0..3] colour */
#define ISA_FS_O_DEPTH      4    /* o[4]    depth (fs_depth) */
#define ISA_FS_C_COLOR      0    /* c[0..3] flat colour (fs_flat) */

int isa_shader_count(void);
const char *isa_shader_name(int i);            /* NULL if out of range */
const char *isa_shader_source(const char *name);   /* assembly text, NULL if unknown */
/* Assemble a library shader: instruction count, or -1 (unknown name or assembly error, err filled). */
int isa_shader_assemble(const char *name, uint64_t *out, uint32_t cap, isa_asm_err_t *err);

/* The bits of a binary32 value and back (registers hold raw bits). */
static inline uint32_t isa_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float isa_bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#endif
