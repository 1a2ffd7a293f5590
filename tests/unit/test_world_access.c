/* The world while it steps (a hook may not destroy, restore, step or update it, nor create or
 * destroy characters: GAIT_ERR_LOCKED, the world untouched) and the one-thing-at-a-time
 * accessors the bindings use, each refusing bad arguments at the edge. */
#include <stdlib.h>
#include <string.h>

#include "body_fixtures.h" /* bw_flat */
#include "check.h"
#include "gait/gait.h"

static void quiet_log(gait_log_level level, const char *msg, void *user) {
    (void)level; (void)msg;
    if (user) ++*(int *)user;
}

static gait_world *flat_world(int *log_count) {
    gait_world_def d = gait_default_world_def();
    d.hooks.log = quiet_log;
    d.hooks.user = log_count;
    d.max_characters = 4;
    gait_world *w = gait_world_create(&d);
    if (w) bw_flat(w);
    return w;
}

/* What the hook tried, and what it got. */
typedef struct probe {
    gait_status step, update, restore, create, destroy, advance, follow;
    bool locked_inside, ran;
    void *snapshot;
    size_t snapshot_size;
    gait_character_id other;
} probe;

static gait_state hostile_hook(gait_world *w, gait_character_id id, gait_state from,
                               gait_state proposed, void *user) {
    probe *p = (probe *)user;
    p->ran = true;
    p->locked_inside = gait_world_is_locked(w);
    p->step = gait_world_step(w);
    p->update = gait_world_update(w, 1.0 / 60, NULL);
    int steps = 0;
    p->advance = gait_world_advance_clock(w, 1.0 / 60, &steps);
    p->follow = gait_world_follow_cameras(w, 1.0 / 60);
    p->restore = gait_world_snapshot_restore(w, p->snapshot, p->snapshot_size);
    gait_character_def cd = gait_default_character_def();
    gait_character_id made;
    p->create = gait_character_create(w, &cd, &made);
    p->destroy = gait_character_destroy(w, p->other);
    gait_world_destroy(w); /* refused: the step below still runs on this world */
    (void)id; (void)from;
    return proposed;
}

TEST(world_is_locked_inside_its_hooks) {
    int logs = 0;
    gait_world *w = flat_world(&logs);
    gait_character_def cd = gait_default_character_def();
    gait_character_id a, b;
    CHECK_EQ_INT(gait_character_create(w, &cd, &a), GAIT_OK);
    cd.position.x = 5;
    CHECK_EQ_INT(gait_character_create(w, &cd, &b), GAIT_OK);
    probe p;
    memset(&p, 0, sizeof p);
    p.snapshot_size = gait_world_snapshot_size(w);
    p.snapshot = malloc(p.snapshot_size);
    CHECK_EQ_INT(gait_world_snapshot_save(w, p.snapshot, p.snapshot_size, NULL), GAIT_OK);
    p.other = b;
    CHECK(!gait_world_is_locked(w));
    CHECK_EQ_INT(gait_character_set_gate_hook(w, a, hostile_hook, &p), GAIT_OK);
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_y = 1; /* idle -> run: the gates propose a change, the hook runs */
    gait_character_set_input(w, a, &in);
    CHECK_EQ_INT(gait_world_step(w), GAIT_OK);
    CHECK(p.ran);
    CHECK(p.locked_inside);
    CHECK_EQ_INT(p.step, GAIT_ERR_LOCKED);
    CHECK_EQ_INT(p.update, GAIT_ERR_LOCKED);
    CHECK_EQ_INT(p.advance, GAIT_ERR_LOCKED);
    CHECK_EQ_INT(p.follow, GAIT_ERR_LOCKED);
    CHECK_EQ_INT(p.restore, GAIT_ERR_LOCKED);
    CHECK_EQ_INT(p.create, GAIT_ERR_LOCKED);
    CHECK_EQ_INT(p.destroy, GAIT_ERR_LOCKED);
    CHECK(logs >= 1); /* the refused destroy said so */
    CHECK(!gait_world_is_locked(w));
    CHECK_EQ_INT(gait_world_step_count(w), 1); /* the nested step did not run */
    CHECK_EQ_INT(gait_world_character_count(w), 2);
    CHECK(gait_character_valid(w, b));
    CHECK(strstr(gait_world_last_error(w), "steps") != NULL);
    /* after the step the same calls work */
    gait_character_set_gate_hook(w, a, NULL, NULL);
    CHECK_EQ_INT(gait_world_snapshot_restore(w, p.snapshot, p.snapshot_size), GAIT_OK);
    CHECK_EQ_INT(gait_character_destroy(w, b), GAIT_OK);
    free(p.snapshot);
    gait_world_destroy(w);
}

TEST(world_accessors_check_their_arguments) {
    gait_world *w = flat_world(NULL);
    gait_character_def cd = gait_default_character_def();
    gait_character_id a, none = {0, 0}, out;
    CHECK_EQ_INT(gait_character_create(w, &cd, &a), GAIT_OK);
    CHECK_EQ_INT(gait_world_max_characters(w), 4);
    CHECK_EQ_INT(gait_world_max_characters(NULL), 0);
    CHECK_EQ_INT(gait_world_character_in_slot(w, 1, &out), GAIT_OK);
    CHECK(out.index1 == a.index1 && out.generation == a.generation);
    CHECK_EQ_INT(gait_world_character_in_slot(w, 2, &out), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_world_character_in_slot(w, 0, &out), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_world_character_in_slot(w, 5, &out), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_world_character_in_slot(w, 1, NULL), GAIT_ERR_INVALID_ARGUMENT);
    CHECK(gait_world_provisional_locomotion(w) != NULL);
    CHECK(gait_world_provisional_locomotion(NULL) == NULL);

    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_x = 0.5;
    in.held = GAIT_BUTTON_SPRINT;
    in.pressed = GAIT_BUTTON_JUMP;
    gait_character_set_input(w, a, &in);
    gait_input got;
    CHECK_EQ_INT(gait_character_input(w, a, &got), GAIT_OK);
    CHECK_NEAR(got.move_x, 0.5, 0);
    CHECK_EQ_INT(got.held, GAIT_BUTTON_SPRINT);
    CHECK_EQ_INT(got.pressed, GAIT_BUTTON_JUMP);
    CHECK_EQ_INT(gait_character_input(w, none, &got), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_character_input(w, a, NULL), GAIT_ERR_INVALID_ARGUMENT);

    gait_stamina pool;
    CHECK_EQ_INT(gait_character_set_stamina(w, a, 40), GAIT_OK);
    CHECK_EQ_INT(gait_character_set_stamina(w, a, NAN), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_character_stamina_get(w, a, &pool), GAIT_OK);
    CHECK_NEAR(pool.value, 40, 0);
    CHECK_EQ_INT(gait_character_set_stamina(w, a, 1e9), GAIT_OK); /* clamped */
    gait_character_stamina_get(w, a, &pool);
    CHECK_NEAR(pool.value, pool.max, 0);
    CHECK_EQ_INT(gait_character_set_stamina_multiplier(w, a, 101), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_character_set_stamina_multiplier(w, a, 2), GAIT_OK);
    CHECK_EQ_INT(gait_character_set_stamina_refill(w, a, -1, 1), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_character_set_stamina_refill(w, a, 10, NAN), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_character_set_stamina_refill(w, a, 10, 2), GAIT_OK);
    gait_character_stamina_get(w, a, &pool);
    CHECK_NEAR(pool.multiplier, 2, 0);
    CHECK_NEAR(pool.refill_rate, 10, 0);
    CHECK_NEAR(pool.refill_delay, 2, 0);

    gait_phase ph;
    CHECK_EQ_INT(gait_character_phase(w, a, &ph), GAIT_OK);
    CHECK_EQ_INT(ph.state, GAIT_STATE_IDLE);
    CHECK_EQ_INT(gait_character_phase(w, none, &ph), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_character_phase(w, a, NULL), GAIT_ERR_INVALID_ARGUMENT);

    gait_gate_hook hook = NULL;
    void *user = &hook;
    CHECK_EQ_INT(gait_character_gate_hook(w, a, &hook, &user), GAIT_OK);
    CHECK(hook == NULL && user == NULL);
    gait_traverse_hook th = NULL;
    CHECK_EQ_INT(gait_character_traverse_hook(w, none, &th, &user), GAIT_ERR_STALE_ID);

    int steps = -1;
    CHECK_EQ_INT(gait_world_advance_clock(w, NAN, &steps), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_world_advance_clock(w, 2.5 / 60, &steps), GAIT_OK);
    CHECK_EQ_INT(steps, 2);
    CHECK_EQ_INT(gait_world_step_count(w), 0); /* due, not run */
    gait_world_destroy(w);
}

/* gait_world_update is its two halves and the steps between: a host (or w:update) that advances
 * the clock, runs the steps and then follows the cameras gets bit for bit the same camera. */
TEST(world_update_is_advance_steps_and_follow) {
    gait_world *one = flat_world(NULL), *two = flat_world(NULL);
    gait_character_def cd = gait_default_character_def();
    gait_character_id a, b;
    CHECK_EQ_INT(gait_character_create(one, &cd, &a), GAIT_OK);
    CHECK_EQ_INT(gait_character_create(two, &cd, &b), GAIT_OK);
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_y = 1;
    in.look_yaw = 0.01;
    for (int f = 0; f < 90; f++) { /* 1.5 s at 60 fps with an uneven frame now and then */
        double dt = f % 7 == 3 ? 2.5 / 60 : 1.0 / 60;
        gait_character_set_input(one, a, &in);
        gait_character_set_input(two, b, &in);
        CHECK_EQ_INT(gait_world_update(one, dt, NULL), GAIT_OK);
        int steps = 0;
        CHECK_EQ_INT(gait_world_advance_clock(two, dt, &steps), GAIT_OK);
        for (int i = 0; i < steps; i++) gait_world_step(two);
        CHECK_EQ_INT(gait_world_follow_cameras(two, dt), GAIT_OK);
    }
    gait_camera c1, c2;
    CHECK_EQ_INT(gait_character_camera(one, a, &c1), GAIT_OK);
    CHECK_EQ_INT(gait_character_camera(two, b, &c2), GAIT_OK);
    CHECK(c1.pivot.z > 5); /* it followed the run */
    CHECK(memcmp(&c1.pivot, &c2.pivot, sizeof c1.pivot) == 0);
    CHECK(memcmp(&c1.eye, &c2.eye, sizeof c1.eye) == 0);
    /* a bad frame is refused and moves nothing */
    CHECK_EQ_INT(gait_world_follow_cameras(two, NAN), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_world_follow_cameras(two, -1), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_world_follow_cameras(NULL, 0.1), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_character_camera(two, b, &c2), GAIT_OK);
    CHECK(memcmp(&c1.eye, &c2.eye, sizeof c1.eye) == 0);
    gait_world_destroy(one);
    gait_world_destroy(two);
}
