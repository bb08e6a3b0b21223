/* C interface to the verilated SIMT lane datapaths (sim/simt_fpu/simt_lane_top.v: one simt_fpu and one
 * simt_sfu side by side). simt_fpu_dut.cpp is the only C++ here: a thin extern "C" shim. One shim is built
 * per latency pair; simt_fpu_dut_lat_fpu()/_sfu() say which. */
#ifndef GPUPD_SIM_SIMT_FPU_DUT_H
#define GPUPD_SIM_SIMT_FPU_DUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simt_fpu_dut simt_fpu_dut_t;

typedef struct {      /* simt_fpu input ports (interfaces.md section 6) */
    uint8_t valid, op, cc, na, aa, nb, nc;
    uint32_t a, b, c;
} simt_fpu_in_t;
typedef struct {
    uint8_t valid, pred;
    uint32_t res;
} simt_fpu_out_t;
typedef struct {      /* simt_sfu input ports */
    uint8_t valid, op, na, aa;
    uint32_t a;
} simt_sfu_in_t;
typedef struct {
    uint8_t valid;
    uint32_t res;
} simt_sfu_out_t;

int simt_fpu_dut_lat_fpu(void);   /* the LAT parameters this shim was verilated with */
int simt_fpu_dut_lat_sfu(void);

/* New DUT held in reset for two cycles, then released. fst_path: NULL for no waveform. */
simt_fpu_dut_t *simt_fpu_dut_new(const char *fst_path);
void simt_fpu_dut_free(simt_fpu_dut_t *d);
/* Drive the inputs for this cycle, evaluate, read the (registered) outputs. */
void simt_fpu_dut_eval(simt_fpu_dut_t *d, const simt_fpu_in_t *fi, const simt_sfu_in_t *si, simt_fpu_out_t *fo,
                       simt_sfu_out_t *so);
/* Rising then falling edge with the inputs of the last eval. */
void simt_fpu_dut_clock(simt_fpu_dut_t *d);
void simt_fpu_dut_dump(simt_fpu_dut_t *d, int on);

#ifdef __cplusplus
}
#endif
#endif
