/* The built-in task system (pool.h): workers - 1 threads asleep on a condition variable. A task
 * wakes them; everyone (the caller too, in finish) claims ranges of items from one atomic
 * cursor until none are left, and finish returns once every item has run — it never waits for a
 * thread to wake up: on a busy machine a thread the scheduler keeps off its core simply claims
 * nothing, and the caller does the work.
 *
 * The cursor holds the task's serial number with the next item, so a thread that wakes late,
 * holding an older task, cannot take a range of a newer one: its claim fails on the serial.
 * Which thread runs which range changes from run to run; the world's results do not depend on it
 * (each character's step reads only what the step began with and writes only itself). */
#include "core/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "core/core.h"

#define GUIDED_SHARE 4       /* a claim takes 1 / (workers x this) of the items left: a thread
                               slowed by the machine's other work leaves its share to the others */
#define SPINS 1000          /* polls of the done count before finish sleeps on it */

typedef struct worker_arg {
    gait__pool *pool;
    uint32_t index;
} worker_arg;

/* A task as a thread took it. */
typedef struct task_view {
    gait_task_fn *task;
    void *context;
    uint32_t serial;
    int count, range;           /* items, and the least a claim takes */
    int workers;
} task_view;

struct gait__pool {
    gait_hooks hooks;
    int workers;                /* the caller included */
    pthread_t *threads;         /* workers - 1 */
    worker_arg *args;
    pthread_mutex_t mutex;
    pthread_cond_t wake;        /* a task is posted, or quit */
    pthread_cond_t done;        /* the last item of the task ran */
    bool quit;
    task_view posted;           /* the task now (under mutex) */
    _Atomic uint64_t cursor;    /* serial << 32 | the first item no one has claimed */
    atomic_int finished;        /* items of the posted task that have run */
};

/* Claims and runs ranges of task v until none are left (or a newer task replaced it). */
static void run_ranges(gait__pool *p, const task_view *v, uint32_t worker) {
    for (;;) {
        uint64_t c = atomic_load(&p->cursor);
        if ((uint32_t)(c >> 32) != v->serial) return;
        int start = (int)(uint32_t)c;
        if (start >= v->count) return;
        /* guided: a claim takes a share of what is left (never under the task's least range),
         * so the ranges shrink towards the end and the threads finish together: the last
         * claim is a short one, not a thread idle while another runs a long range out */
        int left = v->count - start, take = left / (v->workers * GUIDED_SHARE);
        if (take < v->range) take = v->range;
        int end = left > take ? start + take : v->count;
        if (!atomic_compare_exchange_weak(&p->cursor, &c, ((uint64_t)v->serial << 32) | (uint32_t)end))
            continue;
        v->task(start, end, worker, v->context);
        if (atomic_fetch_add(&p->finished, end - start) + (end - start) == v->count) {
            pthread_mutex_lock(&p->mutex);
            pthread_cond_broadcast(&p->done);
            pthread_mutex_unlock(&p->mutex);
        }
    }
}

static void *worker_main(void *arg) {
    worker_arg *a = arg;
    gait__pool *p = a->pool;
    uint32_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->mutex);
        while (!p->quit && p->posted.serial == seen) pthread_cond_wait(&p->wake, &p->mutex);
        if (p->quit) {
            pthread_mutex_unlock(&p->mutex);
            return NULL;
        }
        task_view v = p->posted;
        seen = v.serial;
        pthread_mutex_unlock(&p->mutex);
        run_ranges(p, &v, a->index);
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
    atomic_init(&p->cursor, 0);
    atomic_init(&p->finished, 0);
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
    pthread_mutex_lock(&p->mutex);
    uint32_t serial = p->posted.serial + 1;
    if (serial == 0) serial = 1; /* 0 is no task: a thread starts having seen it */
    p->posted = (task_view){task, task_context, serial, item_count, min_range, p->workers};
    atomic_store(&p->finished, 0);
    atomic_store(&p->cursor, (uint64_t)serial << 32);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mutex);
    return p;
}

void gait__pool_finish(void *user_task, void *pool) {
    gait__pool *p = pool;
    if (!user_task) return;
    pthread_mutex_lock(&p->mutex);
    task_view v = p->posted;
    pthread_mutex_unlock(&p->mutex);
    run_ranges(p, &v, 0);
    /* every range is claimed: wait for the ones other threads run to end */
    for (int i = 0; i < SPINS && atomic_load(&p->finished) < v.count; i++) sched_yield();
    pthread_mutex_lock(&p->mutex);
    while (atomic_load(&p->finished) < v.count) pthread_cond_wait(&p->done, &p->mutex);
    pthread_mutex_unlock(&p->mutex);
}
