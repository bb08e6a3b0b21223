/* C interface to the verilated P2G mapper (p2g_dut.cpp is the only C++ here: a thin extern "C" shim).
 * One shim is built per RTL parameter set (MAX_GPUS, ROWS); p2g_dut_params() says which. */
#ifndef GPUPD_SIM_P2G_DUT_H
#define GPUPD_SIM_P2G_DUT_H

#include "p2g/p2g_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct p2g_dut p2g_dut_t;

/* The RTL parameters this shim was verilated with. */
p2g_hw_params_t p2g_dut_params(void);

/* New DUT held in reset for two cycles, then released. fst_path: NULL for no waveform. */
p2g_dut_t *p2g_dut_new(const char *fst_path);
void p2g_dut_free(p2g_dut_t *d);

/* Drive the input ports for this cycle and evaluate; read the outputs. */
void p2g_dut_eval(p2g_dut_t *d, const p2g_hw_in_t *in, p2g_hw_out_t *out);

/* Rising edge (with the inputs of the last p2g_dut_eval), then the falling edge. The waveform, if any, gets
 * both edges; dumping can be switched on and off per cycle with p2g_dut_dump(). */
void p2g_dut_clock(p2g_dut_t *d);
void p2g_dut_dump(p2g_dut_t *d, int on);
/* Waveform time to the start of lockstep cycle `cycle` (after uncounted warm-up cycles; sim/common/vl_dut.h). */
void p2g_dut_skip_to_cycle(p2g_dut_t *d, uint64_t cycle);

#ifdef __cplusplus
}
#endif
#endif
