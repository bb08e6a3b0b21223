/* The GPUs of a system run on threads between exchange and synchronisation events (issue 23; docs/timing.md,
 * "How the hot paths are kept fast", item 6).
 *
 * A pool has one *lane* per GPU. par_run queues a task on a lane; the tasks of one lane run one at a time, in
 * the order they were queued, on whichever thread is free (the tasks of different lanes run in parallel). A
 * task touches only its own GPU's state (gpu_t, its timing, its entry of the result) and, through
 * par_add / sys_failf, sums and messages shared by all GPUs; so whatever thread runs it and whenever, each GPU
 * sees the same operations in the same order and every result is that of the sequential run (the merge is the
 * order of the lane itself, and integer sums, which commute). The driver (the thread that runs the schemes)
 * calls par_wait(lane) before it reads or writes that GPU's state itself and par_wait_all at the end of every
 * exchange window, synchronisation, clear or frame boundary.
 *
 * threads <= 1 gives no pool (NULL): par_run then runs the task at once on the caller's thread (exactly the
 * sequential model). With T threads, T - 1 workers run tasks and the driver runs them too while it waits.
 *
 *   par_t *p = par_new(T, N);  par_run(p, g, fn, arg);  ...  if (par_wait(p, g)) -> a task of g failed
 *   par_wait_all(p);  par_free(p);
 */
#ifndef GPUPD_SYS_PAR_H
#define GPUPD_SYS_PAR_H

#include <stdint.h>

typedef struct par par_t;

/* a task: 0, or nonzero on a failure (its message already written, sys_failf); arg is freed after it ran */
typedef int (*par_fn)(void *arg);

/* A pool of `threads` threads (the caller included) over `lanes` lanes; NULL if threads <= 1 or lanes <= 1
 * (no pool: tasks run inline). *err = -1 if the threads could not be created (then NULL, run inline). */
par_t *par_new(uint32_t threads, uint32_t lanes, int *err);
void par_free(par_t *p);

/* Queue fn(arg) on lane (p NULL: run it now, free arg, return its result). arg: malloc'd, owned by the pool
 * from here on. Returns 0, or the inline task's result, or -1 when out of memory (the task then ran inline). */
int par_run(par_t *p, uint32_t lane, par_fn fn, void *arg);

/* Wait until every task queued on lane has run (helping: the caller runs them if no thread has started).
 * Returns -1 if one of them failed since the last wait of that lane, else 0. */
int par_wait(par_t *p, uint32_t lane);

/* par_wait of every lane; -1 if any failed. */
int par_wait_all(par_t *p);

/* *dst += v for a sum shared by the lanes' tasks (atomic; p NULL: plain) */
void par_add(par_t *p, uint64_t *dst, uint64_t v);

/* serialise a shared write (an error message): lock / unlock (no-ops when p is NULL) */
void par_lock(par_t *p);
void par_unlock(par_t *p);

#endif
