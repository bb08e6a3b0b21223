/* Behavioural reference PE for the CD system (cdsys.h): the SPEC 4.2 exchange protocol at the ports of
 * cmodel/pe/pe_hw.h (local queue with backpressure, LAST-driven turns, PRIM/LAST TX on the line's
 * left/right ports or the hub port, RX of both ports in port order, in-order output with end-of-batch),
 * cycle by cycle, with unbounded internal lists. It is NOT the microarchitecture of the PE RTL (that is
 * cmodel/pe/pe_hw.h): cdsys uses it as an independent second implementation of the protocol (selectable,
 * `--pe ref` of cosim-system) and its test runs it against the golden model on every topology.
 * No globals; one instance per GPU. */
#ifndef GPUPD_PE_PE_REF_H
#define GPUPD_PE_PE_REF_H

#include <stdint.h>

#include "pe/pe_hw.h"
#include "link/net.h"

#define PEREF_WIN 8      /* batches whose receive lists are kept (output lag before RX stalls) */
#define PEREF_LQ 16      /* local queue depth (entries + END beats) */

typedef struct {
    uint32_t *v;
    uint32_t n, cap, rd;
} peref_list_t;

typedef struct {
    int end;
    uint32_t tag, prim;
    uint64_t mask;
} peref_ent_t;

typedef struct {
    uint32_t n_gpus, gpu, topo;
    peref_ent_t lq[PEREF_LQ];
    uint32_t lq_head, lq_n;
    uint32_t cur_b;             /* batch whose turn/CD is in progress */
    uint64_t lasts[2];          /* LAST(cur_b + i) received, by source GPU */
    int turn_done;
    uint64_t pend;              /* remaining destination bits of the entry being sent */
    uint32_t pend_prim, last_count;
    int last_pend[2];           /* LAST still to send per port */
    int txv[2];
    uint64_t txf[2];
    uint32_t ob;                /* oldest batch not fully output */
    uint32_t cd_done_upto;      /* batches < this have CD complete here */
    peref_list_t list[PEREF_WIN];
    int err;
} peref_t;

int peref_init(peref_t *p, uint32_t n_gpus, uint32_t gpu, net_topo_t topo);
void peref_free(peref_t *p);
void peref_comb(const peref_t *p, const pe_hw_in_t *in, pe_hw_out_t *out);
void peref_clock(peref_t *p, const pe_hw_in_t *in);
int peref_quiet(const peref_t *p);

#endif
