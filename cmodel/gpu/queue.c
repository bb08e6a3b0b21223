#include "gpu/queue.h"

#include <stdlib.h>
#include <string.h>

int gpu_queue_init(gpu_queue_t *q, size_t item_size, size_t capacity)
{
    memset(q, 0, sizeof *q);
    if (item_size == 0 || capacity == 0) return -1;
    q->buf = calloc(capacity, item_size);
    if (!q->buf) return -1;
    q->item = item_size;
    q->cap = capacity;
    return 0;
}

void gpu_queue_free(gpu_queue_t *q)
{
    free(q->buf);
    free(q->tr);
    free(q->tf);
    memset(q, 0, sizeof *q);
}

void *gpu_queue_reserve(gpu_queue_t *q)
{
    if (q->count == q->cap) return NULL;
    return q->buf + ((q->head + q->count) % q->cap) * q->item;
}

void gpu_queue_commit(gpu_queue_t *q)
{
    if (q->tr && !q->stamp_off) q->tr[(q->head + q->count) % q->cap] = q->stamp_push;
    q->count++;
    q->pushed++;
    if (q->count > q->high_water) q->high_water = q->count;
}

int gpu_queue_push(gpu_queue_t *q, const void *item)
{
    void *slot = gpu_queue_reserve(q);
    if (!slot) return -1;
    memcpy(slot, item, q->item);
    gpu_queue_commit(q);
    return 0;
}

int gpu_queue_push_head(gpu_queue_t *q, const void *item, size_t n)
{
    void *slot = gpu_queue_reserve(q);
    if (!slot) return -1;
    memcpy(slot, item, n < q->item ? n : q->item);
    gpu_queue_commit(q);
    return 0;
}

void *gpu_queue_front(gpu_queue_t *q)
{
    if (q->count == 0) return NULL;
    return q->buf + q->head * q->item;
}

void gpu_queue_pop(gpu_queue_t *q)
{
    if (q->count == 0) return;
    if (q->tf && !q->stamp_off) q->tf[q->head] = q->stamp_pop;
    q->head = (q->head + 1) % q->cap;
    q->count--;
    q->popped++;
}

void gpu_queue_clear(gpu_queue_t *q)
{
    q->head = 0;
    q->count = 0;
}

int gpu_queue_timing_enable(gpu_queue_t *q)
{
    if (q->tr) return 0;
    q->tr = calloc(q->cap, sizeof *q->tr);
    q->tf = calloc(q->cap, sizeof *q->tf);
    if (!q->tr || !q->tf) {
        free(q->tr);
        free(q->tf);
        q->tr = q->tf = NULL;
        return -1;
    }
    return 0;
}
