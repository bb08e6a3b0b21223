/* C interface to N verilated GPUs of the system co-simulation (sys_dut.cpp is the only C++ here: a thin
 * extern "C" shim, port copies and clocking only). Each GPU is one instance of rtl/cd_unit.v (P2G mapper ->
 * adapter -> PE) or, in a stream build (-DSYS_DUT_STREAM), of rtl/cd_unit_stream.v (P2G mapper -> adapter ->
 * stream PE, gpupd-stream); all instances share one VerilatedContext and, optionally, one FST with a scope per
 * GPU (gpu0, gpu1, ...). One shim is built per RTL parameter set; sys_dut_params() says which. */
#ifndef GPUPD_SIM_SYS_DUT_H
#define GPUPD_SIM_SYS_DUT_H

#include <stdint.h>

#include "cd/cd_adapter_hw.h"
#include "p2g/p2g_hw.h"
#include "pe/pe_hw.h"
#include "stream/sx_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sys_dut sys_dut_t;

typedef struct {
    uint32_t max_gpus, rows, lq_depth, rq_depth;
    uint32_t aq_depth, dq_depth;   /* the adapter's queues (SYS_DUT_AQ, SYS_DUT_DQ; cd_unit AQ_DEPTH, DQ_DEPTH) */
    uint32_t stream;         /* 1: cd_unit_stream (the stream PE; sys_dut_eval_sx), 0: cd_unit (sys_dut_eval) */
    uint32_t sx_k, sx_depth; /* stream build: the stream PE's K and DEPTH (else 0) */
} sys_dut_params_t;

sys_dut_params_t sys_dut_params(void);

/* n GPUs, held in reset for two cycles, then released. fst_path: NULL for no waveform. */
sys_dut_t *sys_dut_new(uint32_t n, const char *fst_path);
void sys_dut_free(sys_dut_t *d);

/* Drive GPU g's input ports for this cycle, evaluate, read its outputs. The unit's inputs are the P2G's (pin
 * except out_ready), the descriptor (ain->desc_*) and the PE's (ein except in_*): the P2G -> adapter -> PE
 * handshakes are inside the unit. Their observation outputs fill pout->out_*, aout and eout->in_ready/busy. */
void sys_dut_eval(sys_dut_t *d, uint32_t g, const p2g_hw_in_t *pin, p2g_hw_out_t *pout, const cd_adapter_hw_in_t *ain,
                  cd_adapter_hw_out_t *aout, const pe_hw_in_t *ein, pe_hw_out_t *eout);
/* The same for a stream build: the stream PE's ports instead of the PE's (xin->in[0] is driven by the adapter
 * inside the unit and ignored here; xout->in_ready[] are the PE's lane readies). A build of the other kind
 * aborts (callers check sys_dut_params().stream). */
void sys_dut_eval_sx(sys_dut_t *d, uint32_t g, const p2g_hw_in_t *pin, p2g_hw_out_t *pout, const cd_adapter_hw_in_t *ain,
                     cd_adapter_hw_out_t *aout, const sx_hw_in_t *xin, sx_hw_out_t *xout);
/* Waveform sample after every GPU was evaluated (1 ns after the cycle start). */
void sys_dut_sample(sys_dut_t *d);
/* Rising edge of GPU g (with the inputs of its last sys_dut_eval). */
void sys_dut_rise(sys_dut_t *d, uint32_t g);
/* After every GPU's rising edge: sample, falling edge of every GPU, sample; the cycle ends. */
void sys_dut_end_cycle(sys_dut_t *d);
/* Switch waveform dumping on/off (per cycle). */
void sys_dut_dump(sys_dut_t *d, int on);

#ifdef __cplusplus
}
#endif
#endif
