/* C interface to the verilated primitive exchanger pe_exchanger (pe_dut.cpp is the only C++ here: a thin
 * extern "C" shim, port copies and clocking only). One shim is built per RTL parameter set (MAX_GPUS,
 * LQ_DEPTH, RQ_DEPTH); pe_dut_params() says which. */
#ifndef GPUPD_SIM_PE_DUT_H
#define GPUPD_SIM_PE_DUT_H

#include "pe/pe_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pe_dut pe_dut_t;

/* The RTL parameters this shim was verilated with. */
pe_hw_params_t pe_dut_params(void);

/* New DUT held in reset for two cycles, then released. fst_path: NULL for no waveform. */
pe_dut_t *pe_dut_new(const char *fst_path);
void pe_dut_free(pe_dut_t *d);

/* Reset again (two cycles with rst_ni low, inputs idle), then release. */
void pe_dut_reset(pe_dut_t *d);

/* Drive the input ports for this cycle and evaluate; read the outputs. */
void pe_dut_eval(pe_dut_t *d, const pe_hw_in_t *in, pe_hw_out_t *out);

/* Rising edge (with the inputs of the last pe_dut_eval), then the falling edge. */
void pe_dut_clock(pe_dut_t *d);
void pe_dut_dump(pe_dut_t *d, int on);

#ifdef __cplusplus
}
#endif
#endif
