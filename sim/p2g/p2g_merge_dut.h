/* C interface to the verilated p2g_merge (P P2G mappers merged in order; p2g_merge_dut.cpp is the thin
 * extern "C" shim). One shim per parameter set (P, MAX_GPUS, ROWS); p2g_merge_dut_p/_params say which. */
#ifndef GPUPD_SIM_P2G_MERGE_DUT_H
#define GPUPD_SIM_P2G_MERGE_DUT_H

#include "p2g/p2g_merge_hw.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct p2g_merge_dut p2g_merge_dut_t;

uint32_t p2g_merge_dut_p(void);
p2g_hw_params_t p2g_merge_dut_params(void);
p2g_merge_dut_t *p2g_merge_dut_new(const char *fst_path);
void p2g_merge_dut_free(p2g_merge_dut_t *d);
void p2g_merge_dut_eval(p2g_merge_dut_t *d, const p2g_merge_hw_in_t *in, p2g_merge_hw_out_t *out);
void p2g_merge_dut_clock(p2g_merge_dut_t *d);
void p2g_merge_dut_dump(p2g_merge_dut_t *d, int on);
void p2g_merge_dut_skip_to_cycle(p2g_merge_dut_t *d, uint64_t cycle);

#ifdef __cplusplus
}
#endif
#endif
