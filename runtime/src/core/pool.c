/* The built-in task system (pool.h): workers - 1 threads asleep on a condition variable. A task
 * wakes them; everyone (the caller too, in finish) claims ranges of items until none are left,
 * and finish returns once every item has run — it never waits for a thread to wake up: on a busy
 * machine a thread the scheduler keeps off its core simply claims nothing, and the caller does
 * the work.
 *
 * The items are split into one block per worker, the same blocks every task of that size: a
 * worker claims ranges from the front of its own block and, when that is done, takes the back
 * half of what is left of the fullest other block. So from step to step a character is stepped
 * on the same core, its record in that core's cache: with one shared cursor a character moved
 * between cores at random and the 2-worker step spent a quarter more CPU per character than the
 * 1-worker step (the record fetched from the other core's cache), 1.45x on 2 cores instead of
 * 1.9x.
 *
 * Each block's cursor holds the task's serial number with the block's front and back, so a
 * thread that wakes late, holding an older task, cannot take a range of a newer one: its claim
 * fails on the serial. Which thread runs which range changes from run to run; the world's results
 * do not depend on it (each character's step reads only what the step began with and writes only
 * itself). */
#include "core/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "core/core.h"

#define GUIDED_SHARE 4       /* an owner's claim takes 1 / this of its block's items left, so the
                               ranges shrink towards the end and a thread slowed by the machine's
                               other work leaves the rest of its block to the others */
#define EDGE_BITS 22         /* a block cursor: serial (20 bits) | front (22) | back (22) */
#define EDGE_MASK ((1u << EDGE_BITS) - 1)
#define SERIAL_MASK ((1u << (64 - 2 * EDGE_BITS)) - 1) /* a thread would have to sleep through
                               a million tasks between reading one and claiming from it */
#define SPINS 1000          /* polls of the done count before finish sleeps on it */
#define IDLE_SPIN_NS 500000 /* how long a worker that ran out of work polls for the next task
                               before it sleeps: a world steps several times a frame, back to
                               back, and a sleeping thread woke 0.1-0.3 ms into each step (a
                               fifth of a step of 1,000 characters done by the caller alone); a
                               host stepping once a frame pays this much of a core a frame */

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

/* A worker's block of the task: what is left of it lies in [front, back). On a cache line of its
 * own: the owner claims from it without disturbing the others. */
typedef struct block_cursor {
    _Alignas(64) _Atomic uint64_t edges; /* serial | front | back (EDGE_BITS); the alignment pads
                                            the struct to the line */
} block_cursor;

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
    block_cursor *blocks;       /* [workers], on a line boundary inside blocks_mem */
    void *blocks_mem;
    atomic_uint signal;         /* bumped by every post and by quit: what an idle worker polls */
    atomic_int finished;        /* items of the posted task that have run */
};

static uint64_t pack(uint32_t serial, uint32_t front, uint32_t back) {
    return (uint64_t)(serial & SERIAL_MASK) << (2 * EDGE_BITS) | (uint64_t)front << EDGE_BITS | back;
}

static int front_of(uint64_t e) { return (int)((e >> EDGE_BITS) & EDGE_MASK); }
static int back_of(uint64_t e) { return (int)(e & EDGE_MASK); }

/* Items left in block k for task v (0 when the block holds another task); its cursor in *edges. */
static int block_left(const gait__pool *p, const task_view *v, int k, uint64_t *edges) {
    uint64_t e = atomic_load(&p->blocks[k].edges);
    *edges = e;
    if ((uint32_t)(e >> (2 * EDGE_BITS)) != (v->serial & SERIAL_MASK)) return 0;
    return back_of(e) > front_of(e) ? back_of(e) - front_of(e) : 0;
}

/* Claims a range of block k: from its front for its owner, the back half of what is left for a
 * thread that takes over. False when the block has nothing left for task v. */
static bool claim(gait__pool *p, const task_view *v, int k, bool owner, int *start, int *end) {
    for (;;) {
        uint64_t e;
        int left = block_left(p, v, k, &e);
        if (left == 0) return false;
        int front = front_of(e), back = back_of(e);
        int take = owner ? left / GUIDED_SHARE : left / 2;
        if (take < v->range) take = v->range;
        if (take > left) take = left;
        uint64_t next = owner ? pack(v->serial, (uint32_t)(front + take), (uint32_t)back)
                              : pack(v->serial, (uint32_t)front, (uint32_t)(back - take));
        if (!atomic_compare_exchange_weak(&p->blocks[k].edges, &e, next)) continue;
        *start = owner ? front : back - take;
        *end = owner ? front + take : back;
        return true;
    }
}

/* Runs ranges of task v: its own block first, then the others' backs, until none are left (or
 * a newer task replaced it). */
static void run_ranges(gait__pool *p, const task_view *v, uint32_t worker) {
    int own = (int)(worker % (uint32_t)v->workers);
    for (;;) {
        int start, end;
        if (!claim(p, v, own, true, &start, &end)) {
            int fullest = -1, most = 0;
            for (int k = 0; k < v->workers; k++) {
                uint64_t e;
                int left = k == own ? 0 : block_left(p, v, k, &e);
                if (left > most) most = left, fullest = k;
            }
            if (fullest < 0) return;
            if (!claim(p, v, fullest, false, &start, &end)) continue;
        }
        v->task(start, end, worker, v->context);
        if (atomic_fetch_add(&p->finished, end - start) + (end - start) == v->count) {
            pthread_mutex_lock(&p->mutex);
            pthread_cond_broadcast(&p->done);
            pthread_mutex_unlock(&p->mutex);
        }
    }
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Polls for a new post for up to IDLE_SPIN_NS; the caller then sleeps on the condition variable,
 * which sees any post this missed (the serial is checked under the mutex). */
static void idle_spin(gait__pool *p, unsigned last_signal) {
    uint64_t until = now_ns() + IDLE_SPIN_NS;
    for (int i = 0;; i++) {
        if (atomic_load_explicit(&p->signal, memory_order_acquire) != last_signal) return;
        cpu_relax();
        if ((i & 63) == 63 && now_ns() > until) return;
    }
}

static void *worker_main(void *arg) {
    worker_arg *a = arg;
    gait__pool *p = a->pool;
    uint32_t seen = 0;
    unsigned signal = atomic_load(&p->signal);
    for (;;) {
        idle_spin(p, signal);
        pthread_mutex_lock(&p->mutex);
        while (!p->quit && p->posted.serial == seen) pthread_cond_wait(&p->wake, &p->mutex);
        if (p->quit) {
            pthread_mutex_unlock(&p->mutex);
            return NULL;
        }
        task_view v = p->posted;
        seen = v.serial;
        signal = atomic_load(&p->signal);
        pthread_mutex_unlock(&p->mutex);
        run_ranges(p, &v, a->index);
    }
}

static void stop_threads(gait__pool *p, int started) {
    pthread_mutex_lock(&p->mutex);
    p->quit = true;
    atomic_fetch_add(&p->signal, 1);
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
    gait__free(&hooks, p->blocks_mem, sizeof *p->blocks * (size_t)p->workers + 64);
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
    p->blocks_mem = gait__alloc(hooks, sizeof *p->blocks * (size_t)workers + 64);
    if (p->blocks_mem) {
        p->blocks = (block_cursor *)(((uintptr_t)p->blocks_mem + 63) & ~(uintptr_t)63);
        for (int k = 0; k < workers; k++) atomic_init(&p->blocks[k].edges, 0);
    }
    atomic_init(&p->finished, 0);
    atomic_init(&p->signal, 0);
    bool sync = pthread_mutex_init(&p->mutex, NULL) == 0;
    sync = pthread_cond_init(&p->wake, NULL) == 0 && sync;
    sync = pthread_cond_init(&p->done, NULL) == 0 && sync;
    if (!p->threads || !p->args || !p->blocks_mem || !sync) {
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
    if (item_count <= min_range || item_count > (int)EDGE_MASK) { /* not worth waking anyone,
                                                                    or past a block's reach */
        if (item_count > 0) task(0, item_count, 0, task_context);
        return NULL;
    }
    pthread_mutex_lock(&p->mutex);
    uint32_t serial = p->posted.serial + 1;
    if (serial == 0) serial = 1; /* 0 is no task: a thread starts having seen it */
    p->posted = (task_view){task, task_context, serial, item_count, min_range, p->workers};
    atomic_store(&p->finished, 0);
    for (int k = 0; k < p->workers; k++) {
        uint32_t lo = (uint32_t)((int64_t)item_count * k / p->workers);
        uint32_t hi = (uint32_t)((int64_t)item_count * (k + 1) / p->workers);
        atomic_store(&p->blocks[k].edges, pack(serial, lo, hi));
    }
    atomic_fetch_add(&p->signal, 1);
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
