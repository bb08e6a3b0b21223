/* Environment model for one primitive exchanger under test: the P2G that feeds it and the other N-1 GPUs of
 * the exchange (what reaches its RX ports, what its TX flits must be), plus the SPEC 4.2 expectation of its
 * output. Shared by the Verilator lockstep (sim/pe/cosim_pe.c) and the Icarus vector writer
 * (tb/pe/pe_vectors.c), so both see the same stimulus for the same seed. docs/pe.md, "unit environment".
 *
 * A scenario (seed, index) fixes N, this GPU's id k, topology, runahead, 1..PE_ENV_MAX_B batches (0, 1, tens,
 * hundreds or thousands of primitives, split into the N chunks; mask mixes) and the timing knobs. The
 * environment then drives one cycle at a time (pe_env_drive) and observes the PE's outputs of that cycle
 * (pe_env_observe), reacting to its handshakes:
 *   line, port 0 (from the left)  L(b) = for j = 0..k-1: PRIM(b, j->k)..., LAST(b, j)
 *        released after the PE's LAST(b-1) left on tx0 and R(b-1) has fully arrived at k's router;
 *   line, port 1 (from the right) R(b) = for j = k+1..N-1: PRIM(b, j->k)..., LAST(b, j)
 *        released after the PE's LAST(b) left on tx1 and L(b) has fully arrived;
 *   hub, port 0                   lo(b) = the j < k part, released like L(b); hi(b) = the j > k part,
 *        released after the PE's LAST(b) left on tx0.
 * Each released segment arrives after a random reaction delay with random gaps and bursts; rx_ready
 * backpressures it. TX flits are consumed with random tx_ready and checked (port, source, tag, per-destination
 * chunk order, LAST after every PRIM of its port, payload = chunk count); output beats are checked against
 * the expectation [p in application order | bit k of mask(p)], then end-of-batch. */
#ifndef GPUPD_SIM_PE_ENV_H
#define GPUPD_SIM_PE_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"
#include "pe/pe_hw.h"
#include "pe/pe.h"

#define PE_ENV_MAX_B 8

typedef struct {
    uint32_t n, k, topo, ra, B;
    pe_entry_t *ent[PE_ENV_MAX_B * 64];   /* [b * n + j]: chunk of GPU j in batch b */
    uint32_t cnt[PE_ENV_MAX_B * 64];
    uint32_t *exp[PE_ENV_MAX_B];          /* what GPU k must output, per batch */
    uint32_t exp_n[PE_ENV_MAX_B];
    /* timing knobs, percent */
    uint32_t in_gap, out_stall, tx_stall[2], rx_burst, rx_gap_max, react_max;
    char desc[256];
} pe_scen_t;

typedef struct {
    uint64_t flit;
    uint64_t t;                /* cycle from which it is visible at the port */
} pe_lflit_t;

typedef struct {
    pe_lflit_t *v;
    size_t head, n, cap;
    uint64_t last_t;
} pe_lq_t;

typedef struct {
    const pe_scen_t *s;
    rng_t r;
    /* RX side: one link queue per port */
    uint64_t prims_made, drop_at;
    pe_lq_t q[2];
    uint32_t rel[2];           /* line: next batch to release per port; hub: next segment 2b+part on port 0 */
    uint64_t seg_end[2][2 * PE_ENV_MAX_B];
    uint32_t dut_last[2];      /* LAST flits the PE sent per port */
    /* P2G driver */
    uint32_t ib, ii;           /* next beat: batch, index (== count: END) */
    int in_accepted;
    /* TX checker */
    uint32_t txb[2];           /* batch of each port */
    uint32_t pos[64];          /* next chunk index to look at, per destination */
    /* output checker */
    uint32_t ob, oi;
} pe_env_t;

uint64_t pe_scen_seed(uint64_t seed, uint32_t idx);
const char *pe_topo_name(uint32_t t);
/* Scenario idx: N cycles through gpus[] (those <= max_gpus; at least one must fit), then gpu_id 0 / N-1 /
 * random and the topology; sizes (largest batch: size) and timing are random. */
void pe_scen_make(uint64_t seed, uint32_t idx, const uint32_t *gpus, int n_gpus, uint32_t max_gpus, uint32_t size,
                  pe_scen_t *s);
void pe_scen_free(pe_scen_t *s);
/* The golden model's exchange (pe_run) on the scenario's data must give GPU k exactly the expectation. */
int pe_scen_golden_check(const pe_scen_t *s, uint64_t seed, char *why, size_t whylen);

/* drop_at: lose the drop_at-th PRIM flit sent to GPU k (0: never; a test hook of the checkers). */
void pe_env_init(pe_env_t *e, const pe_scen_t *s, uint64_t seed, uint32_t idx, uint64_t drop_at);
void pe_env_free(pe_env_t *e);
/* Set the input ports for this cycle (cfg, P2G beat held until accepted, rx heads, tx_ready, out_ready). */
void pe_env_drive(pe_env_t *e, uint64_t cycle, pe_hw_in_t *in);
/* The PE's outputs of this cycle (with the inputs of pe_env_drive): handshakes, checks. 0 ok, -1 a check
 * failed (why). */
int pe_env_observe(pe_env_t *e, const pe_hw_in_t *in, const pe_hw_out_t *out, char *why, size_t whylen);
/* 1 when every batch was fed, exchanged and output and the PE reports idle (busy low). */
int pe_env_finished(const pe_env_t *e, const pe_hw_out_t *out);
/* After pe_env_finished: every needed LAST was sent. 0 ok, -1 (why). */
int pe_env_final_check(const pe_env_t *e, char *why, size_t whylen);

#endif
