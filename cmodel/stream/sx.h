/* gpupd-stream exchange, functional definition (issue 20 item 2; docs/sx.md).
 *
 * Every GPU s walks its P2G output for batch b (its chunk, in order) and sends PRIM(b, s -> d, id) to every
 * other GPU d in the entry's mask as the P2G produces it, then LAST(b, s). Every receiver r releases its
 * primitives in application order: for batch b = 0, 1, ...: for source s = 0..N-1: the ids of chunk (b, s)
 * whose mask has bit r, in chunk order; then an end-of-batch marker. Entries with an empty mask (or with
 * no bit below N) are dropped. This is what the stream PE (cmodel/stream/sx_hw.h, rtl/sx_pe.v) must release,
 * whatever the timing: sx_run() computes it from the chunk lists alone. */
#ifndef GPUPD_STREAM_SX_H
#define GPUPD_STREAM_SX_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t id;        /* primitive id within the batch */
    uint64_t mask;      /* P2G mask (bit d: GPU d owns it) */
} sx_entry_t;

typedef struct {
    uint32_t batch;     /* batch number (not wrapped; the hardware tag is batch & 0xffff) */
    uint32_t id;        /* primitive id; 0 on an end-of-batch record */
    uint8_t eob;        /* 1: end of batch `batch` (everything of it released) */
} sx_rel_t;

typedef struct {
    sx_rel_t *v;
    size_t n, cap;
} sx_rel_list_t;

typedef struct {
    uint32_t n_gpus;                    /* 1..64 */
    uint32_t n_batches;
    const sx_entry_t *const *chunks;    /* [b * n_gpus + s]: chunk (b, s) in P2G order */
    const uint32_t *counts;             /* [b * n_gpus + s] */
} sx_input_t;

/* Released list of every receiver: out[r] for r < n_gpus (caller's array; each list starts empty or is
 * appended to). 0, or -1 (bad input / out of memory). */
int sx_run(const sx_input_t *in, sx_rel_list_t *out);
/* The released list of one receiver r. */
int sx_run_one(const sx_input_t *in, uint32_t r, sx_rel_list_t *out);
int sx_rel_push(sx_rel_list_t *l, uint32_t batch, uint32_t id, int eob);
void sx_rel_free(sx_rel_list_t *l);

#endif
