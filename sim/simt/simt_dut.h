/* C interface to the verilated SIMT core (simt_dut.cpp is the only C++ here: a thin extern "C" shim:
 * port copies and clocking, no logic). One shim is built per RTL parameter set; simt_dut_params() says
 * which. Ports and their meaning: cmodel/simt/simt_hw.h (the same structs drive the C cycle model). */
#ifndef GPUPD_SIM_SIMT_DUT_H
#define GPUPD_SIM_SIMT_DUT_H

#include "simt/simt_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simt_dut simt_dut_t;

simt_hw_params_t simt_dut_params(void);

/* The reduced-configuration parameters this build was verilated with (docs/simt.md section 6; the defaults
 * are the ISA's sizes): words stored per thread / in the banks, stack entries, SFU present, FPU_AREA. */
typedef struct {
    uint32_t rf_words, mem_words, const_words, imem_depth, stack_depth, has_sfu, fpu_area;
} simt_dut_sizes_t;
simt_dut_sizes_t simt_dut_sizes(void);
/* 1 if this build can write FST waveforms (verilated with --trace-fst: the cosim-simt-fst binary; the fast
 * cosim-simt binary has no tracing and hands waveform requests to cosim-simt-fst, docs/simt.md section 4). */
int simt_dut_has_fst(void);

/* New DUT held in reset for two cycles, then released. fst_path: NULL for no waveform (ignored without FST). */
simt_dut_t *simt_dut_new(const char *fst_path);
void simt_dut_free(simt_dut_t *d);
/* Reset for two cycles (state registers; memories keep their contents, as in the RTL). */
void simt_dut_reset(simt_dut_t *d);
/* Drive the inputs of this cycle and evaluate; read the outputs. */
void simt_dut_eval(simt_dut_t *d, const simt_hw_in_t *in, simt_hw_out_t *out);
/* Rising edge with the inputs of the last eval, then the falling edge. */
void simt_dut_clock(simt_dut_t *d);
void simt_dut_dump(simt_dut_t *d, int on);

#ifdef __cplusplus
}
#endif
#endif
