/* Stepping characters on several threads: the world's own pool, a host's task system, ranges run
 * in any order — every way gives the same bits as one thread; characters with hooks step one at
 * a time after the others; bad task defs are refused. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "body_fixtures.h"

#define CROWD 240

static double knolls(double x, double z) { return 0.6 * sin(0.21 * x) * cos(0.17 * z) + 0.02 * z; }

/* A crowd on rolling ground among a few boxes and a wall to climb. */
static gait_world *crowd_world(gait_world_def *d, gait_character_id *ids) {
    gait_world_def def = d ? *d : gait_default_world_def();
    def.max_characters = CROWD + 16;
    gait_world *w = gait_world_create(&def);
    if (!w) return NULL;
    bw_terrain(w, knolls, -40, -40, 80, 1.0);
    for (int k = 0; k < 8; k++) bw_box(w, -30 + 8 * k, -1, -5 + (k % 3) * 4, -28 + 8 * k, 1.0 + 0.4 * k, -3 + (k % 3) * 4);
    bw_box(w, -6, -1, 18, 6, 7, 20); /* a wall to climb */
    for (int i = 0; i < CROWD; i++) {
        gait_character_def cd = gait_default_character_def();
        cd.position.x = -30 + (i % 20) * 3.0;
        cd.position.y = 4;
        cd.position.z = -30 + (i / 20) * 4.0;
        cd.yaw = 0.1 * i;
        cd.no_camera = (i % 7) != 0;
        cd.body_type = (gait_body_type)(i % GAIT_BODY_TYPE_COUNT);
        gait_character_create(w, &cd, &ids[i]);
    }
    return w;
}

/* Frame f's input for character i: wandering sticks, jumps, dashes, crouches, sprints. */
static void crowd_input(gait_world *w, const gait_character_id *ids, int f) {
    for (int i = 0; i < CROWD; i++) {
        double a = 0.05 * f + 0.37 * i;
        uint32_t pressed = 0, held = 0;
        if ((f + 3 * i) % 53 == 0) pressed |= GAIT_BUTTON_JUMP;
        if ((f + i) % 97 == 0) pressed |= GAIT_BUTTON_SPRINT;
        if ((f / 40 + i) % 5 == 0) held |= GAIT_BUTTON_SPRINT;
        if ((f + 7 * i) % 211 == 0) pressed |= GAIT_BUTTON_CROUCH;
        bw_input_look(w, ids[i], 0.8 * sin(a), 0.5 + 0.5 * cos(0.7 * a), held, pressed, 0.01 * (i % 3));
        /* every eleventh heads for another character now and then (a kit's move: it reads where
         * the other stood as the step began, whichever of the two steps first) */
        if ((f + i) % 90 == 0 && i % 11 == 0) {
            gait_move_def d = gait_default_move_def();
            d.kind = GAIT_MOVE_TO_CHARACTER;
            d.target = ids[(i + 37) % CROWD];
            d.speed = 6;
            d.seconds = 1.2;
            d.horizontal = true;
            d.gravity_scale = 1;
            gait_character_start_move(w, ids[i], &d);
        }
    }
}

/* Plays `frames` at 60 fps; the simulation hash folded over every frame. */
static uint64_t play(gait_world *w, const gait_character_id *ids, int frames) {
    uint64_t h = 1469598103934665603ull;
    for (int f = 0; f < frames; f++) {
        crowd_input(w, ids, f);
        gait_world_update(w, 1.0 / 60.0, NULL);
        h = (h ^ gait_world_simulation_hash(w)) * 1099511628211ull;
    }
    return h;
}

static uint64_t play_def(gait_world_def *d, int frames, uint64_t *final) {
    gait_character_id ids[CROWD];
    gait_world *w = crowd_world(d, ids);
    CHECK(w != NULL);
    if (!w) return 0;
    uint64_t h = play(w, ids, frames);
    if (final) *final = gait_world_state_hash(w);
    gait_world_destroy(w);
    return h;
}

/* ---- host task systems, single-threaded, that hand out ranges in odd orders ------------------ */

typedef struct fake_host {
    int mode;           /* 0: ranges last to first; 1: interleaved; 2: run inline (returns NULL) */
    int workers;
    int tasks, ranges;  /* counted */
    uint32_t bad_worker;/* a worker index handed out when nonzero (out of range on purpose) */
} fake_host;

static void *fake_enqueue(gait_task_fn *task, int count, int min_range, void *ctx, void *user) {
    fake_host *h = user;
    h->tasks++;
    if (h->mode == 2) {
        task(0, count, 0, ctx);
        h->ranges++;
        return NULL;
    }
    int n = (count + min_range - 1) / min_range;
    if (h->mode == 0) {
        for (int r = n - 1; r >= 0; r--) {
            int s = r * min_range, e = s + min_range < count ? s + min_range : count;
            task(s, e, h->bad_worker ? h->bad_worker : (uint32_t)(r % h->workers), ctx);
            h->ranges++;
        }
    } else {
        for (int pass = 0; pass < 2; pass++)
            for (int r = pass; r < n; r += 2) {
                int s = r * min_range, e = s + min_range < count ? s + min_range : count;
                task(s, e, (uint32_t)(r % h->workers), ctx);
                h->ranges++;
            }
    }
    return h;
}

static void fake_finish(void *task, void *user) {
    CHECK(task == user);
}

TEST(tasks_every_way_of_stepping_gives_the_same_bits) {
    enum { FRAMES = 240 };
    uint64_t serial_final, final;
    uint64_t serial = play_def(NULL, FRAMES, &serial_final);

    for (int workers = 2; workers <= 4; workers += 2) {
        gait_world_def d = gait_default_world_def();
        d.worker_count = workers;
        CHECK_MSG(play_def(&d, FRAMES, &final) == serial && final == serial_final,
                  "the built-in pool with %d workers differs from one thread", workers);
    }
    for (int mode = 0; mode < 3; mode++) {
        fake_host host = {mode, 3, 0, 0, 0};
        gait_world_def d = gait_default_world_def();
        d.worker_count = 3;
        d.enqueue_task = fake_enqueue;
        d.finish_task = fake_finish;
        d.user_task_context = &host;
        CHECK_MSG(play_def(&d, FRAMES, &final) == serial && final == serial_final,
                  "a host's scheduler (mode %d) differs from one thread", mode);
        CHECK_EQ_INT(host.tasks, FRAMES); /* one task a step */
        if (mode != 2) CHECK(host.ranges >= FRAMES * 2);
    }
}

/* ---- hooks -------------------------------------------------------------------------------- */

typedef struct hook_log {
    gait_character_id watched;
    double sum;          /* what the hook read of another character, summed */
    int calls;
} hook_log;

/* A gate hook that reads another character (a thing only a step run alone may do) and vetoes
 * every other jump. */
static gait_state reading_hook(gait_world *w, gait_character_id id, gait_state from,
                               gait_state proposed, void *user) {
    hook_log *log = user;
    gait_character_info info;
    if (gait_character_info_get(w, log->watched, &info) == GAIT_OK)
        log->sum += info.position.x + 3 * info.position.z + (double)id.index1;
    log->calls++;
    if (proposed == GAIT_STATE_JUMP && log->calls % 2 == 0) return from;
    return proposed;
}

static uint64_t play_hooked(int workers, hook_log *log) {
    gait_world_def d = gait_default_world_def();
    d.worker_count = workers;
    gait_character_id ids[CROWD];
    gait_world *w = crowd_world(&d, ids);
    memset(log, 0, sizeof *log);
    log->watched = ids[CROWD - 1]; /* stepped with the others, before any hooked one */
    for (int i = 5; i < CROWD; i += 9) gait_character_set_gate_hook(w, ids[i], reading_hook, log);
    uint64_t h = play(w, ids, 180);
    gait_world_destroy(w);
    return h;
}

TEST(tasks_hooked_characters_step_alone_after_the_others) {
    hook_log one, two;
    uint64_t a = play_hooked(1, &one), b = play_hooked(2, &two);
    CHECK(a == b);
    CHECK(one.calls > 50);
    CHECK_EQ_INT(one.calls, two.calls);
    CHECK(memcmp(&one.sum, &two.sum, sizeof one.sum) == 0);
}

/* ---- defs --------------------------------------------------------------------------------- */

static int asserts;
static void count_assert(const char *e, const char *f, int l, void *u) {
    (void)e; (void)f; (void)l; (void)u;
    asserts++;
}

static char last_log[256];
static void keep_log(gait_log_level level, const char *message, void *user) {
    (void)level; (void)user;
    snprintf(last_log, sizeof last_log, "%s", message);
}

TEST(tasks_defs_are_checked) {
    gait_world_def d = gait_default_world_def();
    d.hooks.log = keep_log;
    CHECK_EQ_INT(d.worker_count, 1);
    d.worker_count = 0; /* a zeroed def: one worker */
    gait_world *w = gait_world_create(&d);
    CHECK(w && gait_world_worker_count(w) == 1);
    gait_world_destroy(w);
    d.worker_count = 65;
    CHECK(gait_world_create(&d) == NULL);
    CHECK(strstr(last_log, "worker_count 65 is out of range 1..64") != NULL);
    d.worker_count = -2;
    CHECK(gait_world_create(&d) == NULL);
    d.worker_count = 2;
    d.enqueue_task = fake_enqueue; /* without finish_task */
    CHECK(gait_world_create(&d) == NULL);
    CHECK(strstr(last_log, "come together") != NULL);
    d.enqueue_task = NULL;
    d.finish_task = fake_finish;
    CHECK(gait_world_create(&d) == NULL);
    d.finish_task = NULL;
    w = gait_world_create(&d); /* the built-in pool */
    CHECK(w && gait_world_worker_count(w) == 2);
    gait_world_destroy(w);
    CHECK_EQ_INT(gait_world_worker_count(NULL), 1);
}

/* A host that hands out a worker index past its count is told through the assert hook, and the
 * step still ends right (its ranges use worker 0's scratch). */
TEST(tasks_a_worker_index_out_of_range_is_reported) {
    fake_host host = {0, 2, 0, 0, 7};
    gait_world_def d = gait_default_world_def();
    d.worker_count = 2;
    d.enqueue_task = fake_enqueue;
    d.finish_task = fake_finish;
    d.user_task_context = &host;
    d.hooks.assert_fail = count_assert;
    asserts = 0;
    uint64_t final, serial_final;
    uint64_t h = play_def(&d, 30, &final);
    CHECK(asserts > 0);
    CHECK(h == play_def(NULL, 30, &serial_final) && final == serial_final);
}
