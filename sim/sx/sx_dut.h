/* C interface to the verilated stream PE sx_pe (sx_dut.cpp is the only C++ here: a thin extern "C" shim, port
 * copies and clocking only). One shim is built per RTL parameter set (MAX_GPUS, K, DEPTH); sx_dut_params() says
 * which. */
#ifndef GPUPD_SIM_SX_DUT_H
#define GPUPD_SIM_SX_DUT_H

#include "stream/sx_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sx_dut sx_dut_t;

sx_hw_params_t sx_dut_params(void);
/* New DUT held in reset for two cycles, then released. fst_path: NULL for no waveform. */
sx_dut_t *sx_dut_new(const char *fst_path);
void sx_dut_free(sx_dut_t *d);
void sx_dut_reset(sx_dut_t *d);
/* Drive the input ports for this cycle and evaluate; read the outputs. */
void sx_dut_eval(sx_dut_t *d, const sx_hw_in_t *in, sx_hw_out_t *out);
/* Rising edge (with the inputs of the last sx_dut_eval), then the falling edge. */
void sx_dut_clock(sx_dut_t *d);
void sx_dut_dump(sx_dut_t *d, int on);

#ifdef __cplusplus
}
#endif
#endif
