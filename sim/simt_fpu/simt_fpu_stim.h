/* Stimulus and reference model of the SIMT lane datapath unit tests (docs/simt-fpu.md), shared by the
 * Verilator lockstep (sim/simt_fpu/cosim_simt_fpu.c) and the Icarus vector generator
 * (tb/simt_fpu/simt_fpu_vectors.c). The reference is the ISA definition: cmodel/isa/isa_fp.c and
 * isa_sfu.c through isa.h, with the source modifiers applied as cmodel/isa/isa_exec.c does. Deterministic:
 * every vector is a function of (phase, index, generator state seeded from the run seed). */
#ifndef GPUPD_SIM_SIMT_FPU_STIM_H
#define GPUPD_SIM_SIMT_FPU_STIM_H

#include <stdint.h>

#include "common/rng.h"

typedef struct {
    uint8_t op, cc, mods;   /* mods: bit0 NA, bit1 AA, bit2 NB, bit3 NC */
    uint32_t a, b, c;
} simt_fvec_t;
typedef struct {
    uint8_t op, mods;       /* mods: bit0 NA, bit1 AA */
    uint32_t a;
} simt_svec_t;

/* phases (docs/simt-fpu.md, "Verification") */
enum { SIMT_PH_CORNER2, SIMT_PH_CORNER3, SIMT_PH_CORNERU, SIMT_PH_CVT, SIMT_PH_INT, SIMT_PH_STRUCT, SIMT_PH_RANDOM,
       SIMT_N_FPH };
enum { SIMT_PS_CORNER, SIMT_PS_SEGMENT, SIMT_PS_RANDOM, SIMT_N_SPH };
extern const char *const SIMT_FPH_NAME[SIMT_N_FPH];
extern const char *const SIMT_SPH_NAME[SIMT_N_SPH];

typedef struct {
    uint64_t n_struct, n_random, n_srandom;   /* vectors of the random phases */
    int seg_scales;                           /* exponents / periods per SFU table entry point (>= 1) */
    int cvt_mants;                            /* significands per exponent in the cvt phase (>= 8) */
} simt_stim_cfg_t;

uint32_t simt_mod_a(uint32_t v, unsigned mods);
/* reference results (the ISA definition) */
void simt_ref_fpu(const simt_fvec_t *v, uint32_t *res, int *pred);
uint32_t simt_ref_sfu(const simt_svec_t *v);
/* simt_sfu_rom address of the table entry used for operand A (modifiers applied), -1 if none */
int simt_sfu_entry(uint8_t op, uint32_t A);
/* vectors per phase, and vector i of a phase (phases are generated in index order from one generator) */
uint64_t simt_fph_count(const simt_stim_cfg_t *o, int ph);
void simt_fph_vec(rng_t *gr, const simt_stim_cfg_t *o, int ph, uint64_t i, simt_fvec_t *v);
uint64_t simt_sph_count(const simt_stim_cfg_t *o, int ph);
void simt_sph_vec(rng_t *gr, const simt_stim_cfg_t *o, int ph, uint64_t i, simt_svec_t *v);

#endif
