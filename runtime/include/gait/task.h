/* gait — a host's task system, in the shape Box2D v3 gives its world (b2WorldDef's workerCount,
 * enqueueTask and finishTask): the world hands the host a task over a number of items, the host
 * runs it in ranges on its own threads, and the world waits for it before it goes on.
 *
 * A world steps its characters through it (gait_world_def.worker_count, enqueue_task,
 * finish_task). A world given none and more than one worker runs its own pool of threads. */
#ifndef GAIT_TASK_H
#define GAIT_TASK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A part of a task: items [start, end), run by worker `worker` (0 .. worker_count - 1). A worker
 * index is held by one thread at a time while the task runs: the world keeps scratch memory per
 * worker index. */
typedef void gait_task_fn(int start, int end, uint32_t worker, void *task_context);

/* Runs `task` over the items [0, item_count), in ranges of at least min_range items (the last
 * may be shorter), spread over the host's workers in any order. Returns a handle finish_task
 * waits on, or NULL when the task already ran to its end before returning (the host chose to run
 * it on the calling thread). The calling thread may be one of the workers. */
typedef void *gait_enqueue_task_fn(gait_task_fn *task, int item_count, int min_range,
                                   void *task_context, void *user_context);

/* Waits until every range of the task enqueue_task returned has run. */
typedef void gait_finish_task_fn(void *user_task, void *user_context);

#ifdef __cplusplus
}
#endif
#endif
