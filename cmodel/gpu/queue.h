/* A bounded FIFO of fixed-size items: the explicit queue between two pipeline units.
 * The producer checks gpu_queue_space() before pushing (back-pressure); the timing model of a later
 * issue will attach latencies and capacities to these same queues. */
#ifndef GPUPD_GPU_QUEUE_H
#define GPUPD_GPU_QUEUE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t *buf;
    size_t item, cap, head, count;
    uint64_t pushed, popped;    /* lifetime counters */
    size_t high_water;
    /* timing (gpu_timing.h; NULL: untimed): per slot, the tick its item becomes visible to the consumer (tr)
     * and the tick the consumer took the slot's previous item (tf); the producer sets stamp_push before a
     * commit/push, the consumer stamp_pop before a pop */
    uint64_t *tr, *tf;
    uint64_t stamp_push, stamp_pop;
    int stamp_off;              /* 1: leave tr/tf alone (an untimed run through a timed GPU: probes) */
} gpu_queue_t;

int gpu_queue_init(gpu_queue_t *q, size_t item_size, size_t capacity);
void gpu_queue_free(gpu_queue_t *q);
static inline size_t gpu_queue_count(const gpu_queue_t *q) { return q->count; }
static inline size_t gpu_queue_space(const gpu_queue_t *q) { return q->cap - q->count; }
/* Pointer to the slot the next push will fill (NULL if full); gpu_queue_commit publishes it. */
void *gpu_queue_reserve(gpu_queue_t *q);
void gpu_queue_commit(gpu_queue_t *q);
int gpu_queue_push(gpu_queue_t *q, const void *item);          /* 0, or -1 if full */
int gpu_queue_push_head(gpu_queue_t *q, const void *item, size_t n);   /* only the item's first n bytes */
void *gpu_queue_front(gpu_queue_t *q);                           /* NULL if empty */
void gpu_queue_pop(gpu_queue_t *q);
void gpu_queue_clear(gpu_queue_t *q);
int gpu_queue_timing_enable(gpu_queue_t *q);     /* allocate tr/tf (0 or -1) */
/* ready tick of the i-th item from the head; free tick of the k-th empty slot after the tail */
static inline uint64_t gpu_queue_tr_at(const gpu_queue_t *q, size_t i) { return q->tr[(q->head + i) % q->cap]; }
static inline uint64_t gpu_queue_tf_next(const gpu_queue_t *q, size_t k) { return q->tf[(q->head + q->count + k) % q->cap]; }

#endif
