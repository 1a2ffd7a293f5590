/* Internal: the built-in task system (gait/task.h) a world runs when the host gives none — a few
 * threads of its own that take ranges of a task as they come free. One task at a time: enqueue,
 * then finish, then the next. */
#ifndef GAIT_POOL_H
#define GAIT_POOL_H

#include "gait/task.h"
#include "gait/types.h"

typedef struct gait__pool gait__pool;

/* `workers` in all, the calling thread included (worker 0): workers - 1 threads are started.
 * NULL when memory or a thread cannot be had (nothing is left running). */
gait__pool *gait__pool_create(const gait_hooks *hooks, int workers);
/* Stops and joins the threads; no task may be running. */
void gait__pool_destroy(gait__pool *pool);

/* gait_enqueue_task_fn and gait_finish_task_fn, with the pool as the user context. A task too
 * small to share runs at once on the caller (enqueue returns NULL); the caller works on the task
 * in finish as worker 0. */
void *gait__pool_enqueue(gait_task_fn *task, int item_count, int min_range, void *task_context,
                         void *pool);
void gait__pool_finish(void *user_task, void *pool);

#endif
