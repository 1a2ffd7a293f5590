/* The built-in task system on its own: every item of every task runs exactly once, on a worker
 * index in range, whatever the task's size against the workers' blocks (smaller than the least
 * range, one item past a block, a block each of one range, thousands) and however many tasks
 * follow one another; a task past a block's reach runs whole on the caller. */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core/pool.h"

#define MOST 5000

typedef struct tally {
    atomic_int runs[MOST];
    atomic_int bad_worker;
    atomic_int bad_range;
    int count;
    uint32_t workers;
} tally;

static void count_items(int start, int end, uint32_t worker, void *context) {
    tally *t = context;
    if (worker >= t->workers) atomic_fetch_add(&t->bad_worker, 1);
    if (start < 0 || end > t->count || start >= end) {
        atomic_fetch_add(&t->bad_range, 1);
        return;
    }
    for (int i = start; i < end; i++) atomic_fetch_add(&t->runs[i], 1);
}

/* A pool that loses or repeats an item never finishes its task: the run below goes on a thread
 * of its own and the test fails (and the process ends) if it is not done within WATCHDOG_S,
 * rather than hanging `make test`. */
#define WATCHDOG_S 60

static void every_item_runs_once(void);

static void *run_every_item(void *arg) {
    every_item_runs_once();
    atomic_store((atomic_int *)arg, 1);
    return NULL;
}

TEST(pool_every_item_runs_once_whatever_the_task_size) {
    atomic_int done = 0;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, run_every_item, &done) == 0);
    double t0 = check_now_s();
    while (!atomic_load(&done) && check_now_s() - t0 < WATCHDOG_S) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    if (!atomic_load(&done)) {
        CHECK_MSG(0, "the tasks did not finish within %d s: an item lost or run twice", WATCHDOG_S);
        fflush(NULL);
        _exit(1);
    }
    pthread_join(t, NULL);
}

static void every_item_runs_once(void) {
    static const int sizes[] = {1, 2, 31, 32, 33, 63, 64, 65, 97, 128, 129, 1000, 4097, MOST};
    static const int ranges[] = {1, 8, 32};
    gait_hooks hooks = gait_default_hooks();
    for (int workers = 2; workers <= 4; workers++) {
        gait__pool *p = gait__pool_create(&hooks, workers);
        CHECK(p != NULL);
        if (!p) return;
        tally *t = calloc(1, sizeof *t);
        CHECK(t != NULL);
        if (!t) {
            gait__pool_destroy(p);
            return;
        }
        int wrong = 0, tasks = 0;
        for (int rep = 0; rep < 40; rep++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
                for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
                    t->count = sizes[s];
                    t->workers = (uint32_t)workers;
                    for (int i = 0; i < t->count; i++) atomic_store(&t->runs[i], 0);
                    void *task = gait__pool_enqueue(count_items, t->count, ranges[r], t, p);
                    gait__pool_finish(task, p);
                    for (int i = 0; i < t->count; i++) wrong += atomic_load(&t->runs[i]) != 1;
                    tasks++;
                }
        CHECK_MSG(wrong == 0, "%d workers: %d items of %d tasks ran other than once", workers, wrong, tasks);
        CHECK_MSG(atomic_load(&t->bad_worker) == 0, "%d workers: a worker index out of range", workers);
        CHECK_MSG(atomic_load(&t->bad_range) == 0, "%d workers: a range outside the task", workers);
        free(t);
        gait__pool_destroy(p);
    }
}

typedef struct big_tally {
    long sum;
    int calls;
} big_tally;

static void sum_items(int start, int end, uint32_t worker, void *context) {
    big_tally *t = context;
    (void)worker;
    for (int i = start; i < end; i++) t->sum += i;
    t->calls++;
}

TEST(pool_a_task_past_a_blocks_reach_runs_on_the_caller) {
    gait_hooks hooks = gait_default_hooks();
    gait__pool *p = gait__pool_create(&hooks, 2);
    CHECK(p != NULL);
    if (!p) return;
    big_tally t = {0, 0};
    int n = (1 << 22) + 5; /* one past what a block's cursor can hold */
    void *task = gait__pool_enqueue(sum_items, n, 32, &t, p);
    CHECK(task == NULL); /* ran at once: nothing to finish */
    gait__pool_finish(task, p);
    CHECK(t.calls == 1);
    CHECK(t.sum == (long)n * (n - 1) / 2);
    gait__pool_destroy(p);
}
