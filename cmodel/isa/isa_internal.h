/* GPUpd ISA: internals shared by the ISA library files (not a public interface). */
#ifndef GPUPD_ISA_INTERNAL_H
#define GPUPD_ISA_INTERNAL_H

#include <stdint.h>

/* sign * r * 2^e rounded to binary32 (RNE, unbounded exponent), overflow -> inf, tiny -> signed zero. */
uint32_t isa_fp_round_pack(uint32_t sign, uint64_t r, int e);

/* Evaluate SFU table `tab` entry idx at offset d (0 <= d < 2^23): Y in units of 2^-30. */
int64_t isa_sfu_eval(const int64_t (*tab)[3], uint32_t idx, uint32_t d);

#endif

/* opcode table lookups (isa_exec.c) */
enum { ISA_FMT_NONE, ISA_FMT_BRA, ISA_FMT_D_B, ISA_FMT_D_SR, ISA_FMT_D_A_B_P, ISA_FMT_P_P_P, ISA_FMT_D_A_B,
       ISA_FMT_D_A_B_C, ISA_FMT_P_A_B, ISA_FMT_D_A, ISA_FMT_LD, ISA_FMT_ST, ISA_FMT_TEX };
enum { ISA_TY_N, ISA_TY_I, ISA_TY_F };
int isa_op_format(uint32_t op);   /* ISA_FMT_*, -1 if undefined */
int isa_op_type(uint32_t op);     /* ISA_TY_*, -1 if undefined */
