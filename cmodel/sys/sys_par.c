/* Per-GPU task lanes on a thread pool (sys_par.h): the tasks of a lane run in order, one at a time. */
#include "sys/sys_par.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct task {
    par_fn fn;
    void *arg;
    struct task *next;
} task_t;

typedef struct {
    task_t *head, *tail;
    int running;            /* a thread is running this lane's tasks */
    int failed;             /* a task failed since the last par_wait of the lane */
} lane_t;

struct par {
    pthread_mutex_t m;
    pthread_cond_t work;    /* a lane became runnable, or stop */
    pthread_cond_t done;    /* a lane stopped running */
    lane_t *lane;
    uint32_t n_lanes, n_workers, rr;
    pthread_t *th;
    int stop;
};

/* a runnable lane (tasks queued, no thread on it), round robin; -1 if none. m held. */
static int pick(par_t *p)
{
    for (uint32_t i = 0; i < p->n_lanes; i++) {
        uint32_t l = (p->rr + i) % p->n_lanes;
        if (p->lane[l].head && !p->lane[l].running) {
            p->rr = l + 1;
            return (int)l;
        }
    }
    return -1;
}

/* run lane l's tasks until its queue is empty. m held on entry and exit, released while a task runs. */
static void run_lane(par_t *p, uint32_t l)
{
    lane_t *ln = &p->lane[l];
    ln->running = 1;
    while (ln->head) {
        task_t *t = ln->head;
        ln->head = t->next;
        if (!ln->head) ln->tail = NULL;
        pthread_mutex_unlock(&p->m);
        int rc = t->fn(t->arg);
        free(t->arg);
        free(t);
        pthread_mutex_lock(&p->m);
        if (rc) ln->failed = 1;
    }
    ln->running = 0;
    pthread_cond_broadcast(&p->done);
}

static void *worker(void *u)
{
    par_t *p = u;
    pthread_mutex_lock(&p->m);
    for (;;) {
        int l = pick(p);
        if (l < 0) {
            if (p->stop) break;
            pthread_cond_wait(&p->work, &p->m);
            continue;
        }
        run_lane(p, (uint32_t)l);
    }
    pthread_mutex_unlock(&p->m);
    return NULL;
}

par_t *par_new(uint32_t threads, uint32_t lanes, int *err)
{
    if (err) *err = 0;
    if (threads <= 1 || lanes <= 1) return NULL;
    par_t *p = calloc(1, sizeof *p);
    if (!p) goto fail;
    p->n_lanes = lanes;
    p->lane = calloc(lanes, sizeof *p->lane);
    p->th = calloc(threads - 1, sizeof *p->th);
    if (!p->lane || !p->th) goto fail;
    if (pthread_mutex_init(&p->m, NULL)) goto fail;
    if (pthread_cond_init(&p->work, NULL) || pthread_cond_init(&p->done, NULL)) goto fail;  /* (never fail on Linux) */
    for (uint32_t i = 0; i + 1 < threads; i++) {
        if (pthread_create(&p->th[i], NULL, worker, p)) break;
        p->n_workers++;
    }
    if (p->n_workers + 1 == threads) return p;
    par_free(p);
    p = NULL;
fail:
    if (p) {
        free(p->lane);
        free(p->th);
        free(p);
    }
    if (err) *err = -1;
    return NULL;
}

void par_free(par_t *p)
{
    if (!p) return;
    par_wait_all(p);
    pthread_mutex_lock(&p->m);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->m);
    for (uint32_t i = 0; i < p->n_workers; i++) pthread_join(p->th[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->m);
    free(p->lane);
    free(p->th);
    free(p);
}

int par_run(par_t *p, uint32_t lane, par_fn fn, void *arg)
{
    task_t *t = p ? malloc(sizeof *t) : NULL;
    if (!t) {
        /* no pool (or no memory for the queue entry): run now, after what the lane has queued */
        int rc = par_wait(p, lane);
        int r = fn(arg);
        free(arg);
        return rc ? rc : (p ? (r ? -1 : 0) : r);
    }
    t->fn = fn;
    t->arg = arg;
    t->next = NULL;
    pthread_mutex_lock(&p->m);
    lane_t *ln = &p->lane[lane];
    if (ln->tail) ln->tail->next = t;
    else ln->head = t;
    ln->tail = t;
    if (!ln->running) pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->m);
    return 0;
}

int par_wait(par_t *p, uint32_t lane)
{
    if (!p) return 0;
    pthread_mutex_lock(&p->m);
    lane_t *ln = &p->lane[lane];
    while (ln->head || ln->running) {
        if (!ln->running) run_lane(p, lane);
        else pthread_cond_wait(&p->done, &p->m);
    }
    int f = ln->failed;
    ln->failed = 0;
    pthread_mutex_unlock(&p->m);
    return f ? -1 : 0;
}

int par_wait_all(par_t *p)
{
    if (!p) return 0;
    pthread_mutex_lock(&p->m);
    for (;;) {
        int l = pick(p), busy = 0;
        if (l >= 0) {
            run_lane(p, (uint32_t)l);
            continue;
        }
        for (uint32_t i = 0; i < p->n_lanes && !busy; i++) busy = p->lane[i].running;
        if (!busy) break;
        pthread_cond_wait(&p->done, &p->m);
    }
    int f = 0;
    for (uint32_t i = 0; i < p->n_lanes; i++) {
        f |= p->lane[i].failed;
        p->lane[i].failed = 0;
    }
    pthread_mutex_unlock(&p->m);
    return f ? -1 : 0;
}

void par_add(par_t *p, uint64_t *dst, uint64_t v)
{
    if (p) __atomic_fetch_add(dst, v, __ATOMIC_RELAXED);
    else *dst += v;
}

void par_lock(par_t *p)
{
    if (p) pthread_mutex_lock(&p->m);
}

void par_unlock(par_t *p)
{
    if (p) pthread_mutex_unlock(&p->m);
}
