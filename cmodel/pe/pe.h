/* Primitive exchanger (PE) and the CD phase of C-PD (SPEC 4.2), over the FIFO network of net.h.
 *
 * Input: for each batch b of a segment and each GPU g, the P2G results of g's chunk, in order
 * (primitive id within the batch + GPU mask). The exchange is simulated flit by flit:
 *   - GPU g takes its turn in batch b when its CP results for b are ready, it has received LAST(b, j)
 *     from every j < g, and its own CD of batch b-1 is complete; during the turn it walks its entries
 *     (send_rate entries per step): bit g set -> keep (appended to its own receive list), every other
 *     set bit t -> a PRIM flit to t; then it broadcasts LAST(b, g);
 *   - CD of b is complete at g when g took its turn and holds LAST(b, j) from every j != g;
 *   - received PRIM flits go to the receive list of the batch named by their tag (runahead: flits of
 *     b+1 may arrive before b is complete and wait there);
 *   - CP timing: CP of batch b takes cp_cost steps per primitive of the chunk. Without runahead CP of b
 *     starts when CD of b-1 is complete at that GPU; with runahead (depth 1) it starts as soon as CP of
 *     b-1 is done and CD of b-2 is complete.
 * After the run the invariant is checked for every GPU k and batch b: receive list == [p in batch order
 * | bit k of mask(p)], each once; plus packet accounting (flits sent == delivered, every PRIM to its
 * destination, N-1 LAST per GPU per batch, network empty). A violation returns -1 with a report. */
#ifndef GPUPD_PE_PE_H
#define GPUPD_PE_PE_H

#include <stddef.h>
#include <stdint.h>

#include "link/net.h"

typedef struct {
    uint32_t prim;      /* primitive id within the batch */
    uint64_t mask;      /* P2G mask */
} pe_entry_t;

typedef enum {
    PE_FAULT_NONE = 0,
    PE_FAULT_DROP,          /* the network loses the fault_at-th PRIM flit arriving at each GPU */
    PE_FAULT_DUP,           /* the receiver records its fault_at-th PRIM flit twice */
    PE_FAULT_NO_TURNS,      /* GPUs do not wait for LAST markers before sending (protocol bug) */
    PE_FAULT_WRONG_TAG,     /* the fault_at-th PRIM flit sent carries the next batch's tag */
    PE_FAULT_CLEAR_MASK     /* (system level, before the exchange) the fault_at-th non-empty P2G mask loses
                               its lowest GPU: caught by check_masks / the frame comparison, not the PE */
} pe_fault_t;

typedef struct {
    uint32_t n_gpus, n_batches;
    const pe_entry_t *const *entries;   /* [b * n_gpus + g] */
    const uint32_t *counts;             /* [b * n_gpus + g] */
    int runahead;
    uint32_t send_rate;                 /* entries per step per PE (>= 1) */
    uint32_t cp_cost;                   /* CP steps per primitive (0: CP is instantaneous) */
    pe_fault_t fault;
    uint64_t fault_at;
    /* Timing hooks (issue 9; all optional, NULL/0 = the behaviour above). cp_ready: called when CP of batch b
     * may start at GPU g at step `now` (the scheduling rule above); returns the step at which its results
     * are ready (>= now), replacing counts * cp_cost. cd_complete: called when CD of b completes at g, with
     * its receive list (complete at that point). skip_idle: jump over steps in which nothing can change
     * (identical results, tests/unit/test_net_timed.c). */
    uint64_t (*cp_ready)(void *user, uint32_t g, uint32_t b, uint64_t now);
    void (*cd_complete)(void *user, uint32_t g, uint32_t b, uint64_t now, const uint32_t *prims, size_t n);
    void *hook_user;
    int skip_idle;
    /* Optional (timing): [b * n_gpus + g][i] = the step at which entry i of the chunk is in the PE's local
     * queue, written by cp_ready before it returns. The turn then walks the queue as it fills (entry i no
     * earlier than its step, as the PE RTL streams from its LQ) and sends LAST once every entry is walked and
     * cp_ready's step has come; NULL: the turn waits for cp_ready's step, then walks the whole chunk. */
    uint64_t *const *entry_ready;
} pe_input_t;

typedef struct {
    uint32_t *prims;
    size_t n, cap;
} pe_list_t;

typedef struct {
    uint64_t prim_sent, prim_recv, kept, last_sent, last_recv;
    uint64_t prim_recv_from[64];        /* PRIM flits received from each source GPU (Fig. 14 of the paper) */
} pe_gpu_stats_t;

typedef struct {
    pe_list_t *recv;                    /* [b * n_gpus + g]: what GPU g renders of batch b, in order */
    pe_gpu_stats_t gpu[64];
    uint64_t steps;                     /* network steps of the whole exchange */
    uint64_t stepped;                   /* steps actually evaluated (steps minus skipped idle steps) */
    uint64_t *cd_done;                  /* [b * n_gpus + g]: step at which CD of b completed at g */
    char report[1024];                  /* on failure: what was violated, where */
    uint64_t fault_fired;               /* how often the injected fault took effect */
} pe_result_t;

/* Run the exchange of one segment on network `net` (already initialised, idle). 0 ok, -1 violation or
 * error (res->report). res must be released with pe_result_free. */
int pe_run(const pe_input_t *in, net_t *net, pe_result_t *res);
void pe_result_free(pe_result_t *res, uint32_t n_slots);

#endif
