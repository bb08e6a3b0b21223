/* A C-only system of N stream PEs (cmodel/stream/sx_hw.h) connected through the link model (cmodel/link/net.h):
 * each GPU's P2G stream from a workload (sx.h chunk lists), random P2G gaps, TX and output back-pressure. Checks,
 * every cycle: no PE raises err, every released id and end-of-batch is the next one of the functional
 * definition (sx_run_one); at the end: everything released, the network empty, every credit returned. No
 * progress for `stall_limit` cycles is reported as a deadlock. Used by the unit tests (tests/unit/test_sx.c)
 * and as the "other GPUs" of docs/sx.md's argument run in C. Deterministic for a seed. */
#ifndef GPUPD_STREAM_SX_NET_H
#define GPUPD_STREAM_SX_NET_H

#include <stddef.h>
#include <stdint.h>

#include "stream/sx.h"
#include "stream/sx_hw.h"

typedef struct {
    sx_hw_params_t prm;
    uint32_t n_gpus;
    uint32_t topo;             /* SX_TOPO_LINE / SX_TOPO_HUB */
    uint32_t latency;          /* link latency in steps (>= 1) */
    uint64_t seed;
    uint32_t p2g_pct;          /* % of cycles the P2G offers lanes (0 -> 100) */
    uint32_t tx_pct;           /* % of cycles a TX port is ready (0 -> 100) */
    uint32_t out_pct;          /* % of cycles the output is ready (0 -> 100) */
    uint32_t slow_gpu;         /* this GPU's output is ready only 1 cycle in slow_div (>= n_gpus: none) */
    uint32_t slow_div;
    uint64_t max_cycles;       /* 0 -> 10,000,000 */
    uint64_t stall_limit;      /* cycles without any handshake -> deadlock (0 -> 100,000) */
    uint64_t drop_flit;        /* test of the checks: the drop_flit-th data flit sent is lost (0: none) */
} sx_net_cfg_t;

typedef struct {
    uint64_t cycles;
    uint64_t released[SX_HW_MAX_GPUS];     /* records (ids + eobs) released per GPU */
    uint32_t occ_max[SX_HW_MAX_GPUS];      /* largest occ (slots held) per GPU */
    uint32_t ids_max[SX_HW_MAX_GPUS];      /* largest number of PRIM ids held per GPU */
    uint64_t flits_data, flits_credit;     /* flits put on TX ports */
    uint64_t full_cycles;                  /* cycle x FIFO pairs with a remote FIFO full */
    uint64_t quiet_cycles;                 /* cycles sx_hw_quiet() said 1 (each checked: no state change) */
    char report[512];                      /* on failure: what, where, when */
} sx_net_res_t;

/* Run the workload. 0 ok, -1 failure (res->report). */
int sx_net_run(const sx_net_cfg_t *cfg, const sx_input_t *work, sx_net_res_t *res);

/* A random workload: n_batches batches of 0..max_size primitives each, split into n_gpus chunks, masks from a
 * mix of (one owner, neighbours, all, random, empty) drawn per batch. Free with sx_work_free. */
typedef struct {
    sx_input_t in;
    sx_entry_t **chunks;
    uint32_t *counts;
} sx_work_t;
int sx_work_gen(sx_work_t *w, uint64_t seed, uint32_t n_gpus, uint32_t n_batches, uint32_t max_size);
void sx_work_free(sx_work_t *w);

#endif
