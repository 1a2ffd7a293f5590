/* The built-in task system (pool.h): workers - 1 threads asleep on a condition variable; a task
 * wakes them all, everyone (the caller too, in finish) takes ranges of items from one atomic
 * counter until none are left, and finish returns once every thread has let go of the task.
 * Which thread runs which range changes from run to run; the world's results do not depend on
 * it (each character's step reads only what the step began with and writes only itself). */
#include "core/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "core/core.h"

#define RANGES_PER_WORKER 4 /* ranges a task is cut into per worker: a thread slowed by the
                               machine's other work leaves its share to the others */

typedef struct worker_arg {
    gait__pool *pool;
    uint32_t index;
} worker_arg;

struct gait__pool {
    gait_hooks hooks;
    int workers;                /* the caller included */
    pthread_t *threads;         /* workers - 1 */
    worker_arg *args;
    pthread_mutex_t mutex;
    pthread_cond_t wake;        /* a task is posted, or quit */
    pthread_cond_t done;        /* the last thread let go of the task */
    uint64_t task_serial;       /* bumped per task (under mutex): a thread runs each one once */
    bool quit;
    int busy;                   /* threads yet to let go of the task (under mutex) */
    /* the task posted */
    gait_task_fn *task;
    void *context;
    int count, range;
    atomic_int next;            /* the first item no one has taken */
};

/* Takes ranges until none are left. */
static void run_ranges(gait__pool *p, uint32_t worker) {
    for (;;) {
        int start = atomic_fetch_add(&p->next, p->range);
        if (start >= p->count) return;
        int end = p->count - start > p->range ? start + p->range : p->count;
        p->task(start, end, worker, p->context);
    }
}

static void *worker_main(void *arg) {
    worker_arg *a = arg;
    gait__pool *p = a->pool;
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->mutex);
        while (!p->quit && p->task_serial == seen) pthread_cond_wait(&p->wake, &p->mutex);
        if (p->quit) {
            pthread_mutex_unlock(&p->mutex);
            return NULL;
        }
        seen = p->task_serial;
        pthread_mutex_unlock(&p->mutex);
        run_ranges(p, a->index);
        pthread_mutex_lock(&p->mutex);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mutex);
    }
}

static void stop_threads(gait__pool *p, int started) {
    pthread_mutex_lock(&p->mutex);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mutex);
    for (int i = 0; i < started; i++) pthread_join(p->threads[i], NULL);
}

static void free_pool(gait__pool *p) {
    gait_hooks hooks = p->hooks;
    size_t n = (size_t)(p->workers - 1);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mutex);
    gait__free(&hooks, p->threads, sizeof *p->threads * n);
    gait__free(&hooks, p->args, sizeof *p->args * n);
    gait__free(&hooks, p, sizeof *p);
}

gait__pool *gait__pool_create(const gait_hooks *hooks, int workers) {
    if (workers < 2) return NULL;
    gait__pool *p = gait__alloc(hooks, sizeof *p);
    if (!p) return NULL;
    p->hooks = *hooks;
    p->workers = workers;
    size_t n = (size_t)(workers - 1);
    p->threads = gait__alloc(hooks, sizeof *p->threads * n);
    p->args = gait__alloc(hooks, sizeof *p->args * n);
    atomic_init(&p->next, 0);
    bool sync = pthread_mutex_init(&p->mutex, NULL) == 0;
    sync = pthread_cond_init(&p->wake, NULL) == 0 && sync;
    sync = pthread_cond_init(&p->done, NULL) == 0 && sync;
    if (!p->threads || !p->args || !sync) {
        free_pool(p);
        return NULL;
    }
    for (int i = 0; i < workers - 1; i++) {
        p->args[i].pool = p;
        p->args[i].index = (uint32_t)(i + 1); /* the caller is worker 0 */
        if (pthread_create(&p->threads[i], NULL, worker_main, &p->args[i]) != 0) {
            stop_threads(p, i);
            free_pool(p);
            return NULL;
        }
    }
    return p;
}

void gait__pool_destroy(gait__pool *p) {
    if (!p) return;
    stop_threads(p, p->workers - 1);
    free_pool(p);
}

void *gait__pool_enqueue(gait_task_fn *task, int item_count, int min_range, void *task_context,
                         void *pool) {
    gait__pool *p = pool;
    if (min_range < 1) min_range = 1;
    if (item_count <= min_range) { /* not worth waking anyone */
        if (item_count > 0) task(0, item_count, 0, task_context);
        return NULL;
    }
    int range = item_count / (p->workers * RANGES_PER_WORKER);
    if (range < min_range) range = min_range;
    pthread_mutex_lock(&p->mutex);
    p->task = task;
    p->context = task_context;
    p->count = item_count;
    p->range = range;
    atomic_store(&p->next, 0);
    p->busy = p->workers - 1;
    p->task_serial++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mutex);
    return p;
}

void gait__pool_finish(void *user_task, void *pool) {
    gait__pool *p = pool;
    if (!user_task) return;
    run_ranges(p, 0);
    pthread_mutex_lock(&p->mutex);
    while (p->busy > 0) pthread_cond_wait(&p->done, &p->mutex);
    pthread_mutex_unlock(&p->mutex);
}
