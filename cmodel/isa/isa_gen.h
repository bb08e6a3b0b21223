/* GPUpd ISA: constrained-random program generator (seeded) for interpreter self-checks and, later, the
 * SIMT core co-simulation. Programs are valid by construction: properly nested divergent if/else
 * (explicit reconvergence at the join), loops with lane-dependent bounded trip counts and divergent
 * exits (including 'break' at loop level), guarded (predicated) instructions, early exits, SFU ops, all
 * memory spaces with wrapping register addresses, and tex. Same seed -> same program. */
#ifndef GPUPD_ISA_GEN_H
#define GPUPD_ISA_GEN_H

#include <stdint.h>

#include "isa/isa.h"

typedef struct {
    uint32_t max_static;     /* instruction budget (<= ISA_MAX_CODE - 8) */
    uint32_t max_depth;      /* nesting of if/loop (<= 6) */
    uint32_t max_trip;       /* loop trip counts 1..max_trip (per lane) */
    uint32_t p_exit_pct;     /* chance (%) of a guarded early exit at a statement slot */
    /* Reduced hardware configurations (the SIMT core's RF_WORDS/MEM_WORDS/CONST_WORDS/HAS_SFU parameters,
     * docs/simt.md section 6). 0 = the ISA's sizes (the default: programs are exactly as before). Otherwise
     * the program reads and writes only registers r0..r(regs-1) (and rz), attribute/local/output words
     * 0..mem_words-1 and constants 0..const_words-1, always at [rz+k] addresses, and uses no SFU opcode when
     * no_sfu; max_depth must then be <= regs - 12 (one loop counter per nesting level). */
    uint32_t regs;           /* 0 or 16..64 */
    uint32_t mem_words;      /* 0 or 2..64 */
    uint32_t const_words;    /* 0 or 1..256 */
    uint32_t no_sfu;
} isa_gen_params_t;

isa_gen_params_t isa_gen_params_default(void);

typedef struct {
    uint32_t len;
    uint32_t final_pc;       /* pc of the final top-level store: must retire with every live lane */
    uint64_t code[ISA_MAX_CODE];
    char *text;              /* the assembly source (malloc'd; isa_gen_free) */
} isa_gen_prog_t;

/* Returns 0, or -1 (then prog->text may hold the offending source and err the assembler message). */
int isa_gen_program(const isa_gen_params_t *p, uint64_t seed, isa_gen_prog_t *prog);
void isa_gen_free(isa_gen_prog_t *prog);

/* Random warp inputs for a generated program: constants, attributes, special registers, active mask. */
void isa_gen_init_warp(const isa_gen_params_t *p, uint64_t seed, isa_ctx_t *ctx, isa_warp_t *w);

#endif
