/* Field access on raw binary32 bits, shared by the soft-float (isa_fp.c) and the SFU (isa_sfu.c). */
#ifndef GPUPD_ISA_FPBITS_H
#define GPUPD_ISA_FPBITS_H

#define SIGN(x) ((x) >> 31)
#define EXP(x) (((x) >> 23) & 0xffu)
#define FRAC(x) ((x) & 0x7fffffu)
#define IS_NAN(x) (EXP(x) == 0xffu && FRAC(x) != 0)
#define IS_INF(x) (EXP(x) == 0xffu && FRAC(x) == 0)
#define IS_ZERO(x) (((x) & 0x7fffffffu) == 0)

#endif
