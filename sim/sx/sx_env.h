/* Environment model for one stream PE under test (docs/sx.md, "unit environment"): the P2G that feeds it
 * and the other N-1 GPUs, as sources that send it PRIM/LAST flits under the credit protocol and as receivers
 * that take its flits into modelled FIFOs of DEPTH slots and return credits; plus the expectation of its output
 * (cmodel/stream/sx.c sx_run_one). Shared by the Verilator lockstep (sim/sx/cosim_sx.c) and the Icarus
 * vector writer (tb/sx/sx_vectors.c), so both see the same stimulus for the same seed.
 *
 * A scenario (seed, index) fixes N, this GPU's id g, the topology, 1..SX_ENV_MAX_B batches (sx_work_gen) and the
 * timing knobs. Scenarios 0..SX_ENV_DIRECTED-1 are directed (one configuration field changed at a time from a
 * base, full buffers, credits withheld); the others random. What reaches the ports:
 *   rx port of source s (line: 0 if s < g else 1; hub: 0): s's flits for g in order (PRIM(b, s->g) of its chunk
 *   entries with bit g, then LAST(b, s)), each sent only when s holds a credit for g (DEPTH at the start; the
 *   PE's CREDIT flits return them); the sources behind one port interleave at random; CREDIT flits of the
 *   modelled receivers d (for the PE's flits) share the port of d. One flit per port per cycle, random latency.
 * Checked every cycle: every TX flit (port, type, source, destination, tag, per-destination order, LAST payload
 * = chunk count, LAST after every PRIM of its batch on that port's side, never beyond a receiver's credit,
 * CREDIT never beyond what the environment's sources used), every output beat against the expectation, err = 0.
 * At the end: everything delivered and released, every credit back. */
#ifndef GPUPD_SIM_SX_ENV_H
#define GPUPD_SIM_SX_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"
#include "stream/sx.h"
#include "stream/sx_hw.h"
#include "stream/sx_net.h"

#define SX_ENV_MAX_B 8
#define SX_ENV_DIRECTED 12

typedef struct {
    uint32_t n, g, topo, B;
    sx_work_t w;
    sx_rel_list_t exp;          /* what this GPU must release */
    /* knobs, percent */
    uint32_t p2g_pct, out_pct, tx_pct[2], src_pct, ret_pct, cr_pct, lat_max;
    uint32_t out_hold;          /* output stalled for this many cycles at a time (full buffers) */
    uint32_t cr_hold;           /* receivers keep their credits this many cycles at a time */
    char desc[200];
} sx_scen_t;

typedef struct {
    uint64_t *f, *t;
    size_t head, n, cap;
    uint64_t last_t;
} sx_lq_t;

typedef struct {
    const sx_scen_t *s;
    sx_hw_params_t prm;
    rng_t r;
    uint64_t drop_at, datas_sent;   /* test hook: lose the drop_at-th data flit sent to the PE */
    /* P2G */
    uint32_t pb, pi;
    /* sources s -> g */
    uint32_t sb[SX_HW_MAX_GPUS], si[SX_HW_MAX_GPUS];
    uint32_t credit[SX_HW_MAX_GPUS];
    sx_lq_t q[SX_HW_PORTS];
    /* receivers d <- g */
    uint32_t eb[SX_HW_MAX_GPUS], ei[SX_HW_MAX_GPUS];
    uint32_t held[SX_HW_MAX_GPUS], pend[SX_HW_MAX_GPUS];
    uint64_t out_hold_until, cr_hold_until;
    size_t out_pos;
    /* counts */
    uint64_t tx_flits, rx_flits, credits_in, credits_out, beats_in, out_records, full_cycles, cr_stall_cycles;
} sx_env_t;

void sx_scen_make(uint64_t seed, uint32_t idx, const uint32_t *gpus, int n_gpus, const sx_hw_params_t *prm,
                  uint32_t size, sx_scen_t *s);
void sx_scen_free(sx_scen_t *s);
uint64_t sx_scen_seed(uint64_t seed, uint32_t idx);

int sx_env_init(sx_env_t *e, const sx_scen_t *s, const sx_hw_params_t *prm, uint64_t seed, uint32_t idx,
                uint64_t drop_at);
void sx_env_free(sx_env_t *e);
/* This cycle's inputs. */
void sx_env_drive(sx_env_t *e, uint64_t cycle, sx_hw_in_t *in);
/* The PE's outputs of this cycle (after comb): handshakes, checks, the environment's reaction. 0 ok, -1 (why). */
int sx_env_observe(sx_env_t *e, uint64_t cycle, const sx_hw_in_t *in, const sx_hw_out_t *out, char *why, size_t wl);
/* 1 when everything was sent, delivered, released and credited back (out: this cycle's outputs). */
int sx_env_finished(const sx_env_t *e, const sx_hw_out_t *out);

#endif
