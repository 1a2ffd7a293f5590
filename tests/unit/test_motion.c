/* Kits that move the body, through the C API (gait/motion.h): launches, moving actions (constant,
 * keyframes, a hook, toward points and characters), modes, cooldowns, gadgets; that every move
 * goes through the mover (walls slide, a 1 cm slab stops a 60 m/s move, nothing ends inside
 * geometry); that the gate hook sees the changes; frame-rate independence and snapshots taken
 * mid-action. The Lua verbs and the shipped kits are tested by tests/scenarios/kit_motion*.lua. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_fixtures.h"
#include "check.h"
#include "gait/motion.h"
#include "character/world_internal.h" /* to plant values no API call would store */

#define DT (1.0 / 60.0)

static gait_world *flat_world(void) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    return w;
}

static gait_state state_of(gait_world *w, gait_character_id id) { return bw_info(w, id).phase.state; }

/* Steps until the state is s (at most n steps); returns the steps taken, -1 when never. */
static int steps_until(gait_world *w, gait_character_id id, gait_state s, int n) {
    for (int i = 1; i <= n; i++) {
        gait_world_step(w);
        if (state_of(w, id) == s) return i;
    }
    return -1;
}

static bool inside_any(gait_world *w, gait_vec3 feet, double r, double h, double depth) {
    gait_capsule c;
    c.a = c.b = feet;
    c.a.y += r;
    c.b.y += h - r;
    c.radius = r;
    gait_filter f;
    memset(&f, 0, sizeof f);
    f.skip_terrain = true;
    gait_contact_point cp[8];
    int n = gait_collider_capsule_overlap(gait_world_collider(w), &c, &f, cp, 8, NULL);
    for (int i = 0; i < n; i++)
        if (cp[i].depth > depth) return true;
    return false;
}

/* ---- launch ------------------------------------------------------------------------------------ */

TEST(launch_up_reaches_its_apex_and_falls_back) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    const gait_locomotion *n = gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE);
    double h = 6.0, v = sqrt(2 * n->gravity * h);
    gait_launch_def l = {{0, v, 0}, GAIT_FRAME_BODY, false};
    CHECK(gait_character_launch(w, id, &l) == GAIT_OK);
    gait_motion_info mi;
    gait_character_motion_info(w, id, &mi);
    CHECK(mi.requested);
    double top = 0;
    int k;
    bool jumped = false;
    for (k = 0; k < 300; k++) {
        gait_world_step(w);
        gait_character_info ci = bw_info(w, id);
        if (k == 0) jumped = ci.phase.state == GAIT_STATE_JUMP;
        if (ci.position.y > top) top = ci.position.y;
        if (k > 5 && ci.contact.grounded) break;
    }
    CHECK(jumped);
    /* the fall is integrated exactly: the apex is h within one step's rise at the top */
    CHECK_NEAR(top, h, 0.02);
    CHECK_NEAR(k + 1, 2 * v / n->gravity / DT, 2);
    gait_world_destroy(w);
}

TEST(launch_forward_in_the_body_frame_and_then_glides_when_pressed) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_character_face(w, id, M_PI / 2); /* faces +x */
    gait_character_set_camera_yaw(w, id, M_PI / 2);
    gait_launch_def l = {{0, 14, 6}, GAIT_FRAME_BODY, false};
    gait_character_launch(w, id, &l);
    /* the stick held the way it faces keeps the launch's speed (the air's steering cap) */
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 30);
    gait_character_info ci = bw_info(w, id);
    CHECK(ci.position.x > 2.5);
    CHECK_NEAR(ci.position.z, 0, 1e-9);
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_JUMP);
    gait_world_step(w);
    CHECK_EQ_INT(state_of(w, id), GAIT_STATE_GLIDE);
    gait_world_destroy(w);
}

/* ---- moving actions ---------------------------------------------------------------------------- */

TEST(a_constant_move_lasts_its_seconds_and_covers_its_distance) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_move_def d = gait_default_move_def();
    d.name = "dash";
    d.velocity = (gait_vec3){0, 0, 12};
    d.seconds = 0.5;
    CHECK(gait_character_start_move(w, id, &d) == GAIT_OK);
    gait_world_step(w);
    CHECK_EQ_INT(state_of(w, id), GAIT_STATE_ACTION);
    CHECK(strcmp(bw_info(w, id).action_name, "dash") == 0);
    int k = steps_until(w, id, GAIT_STATE_IDLE, 120);
    CHECK_EQ_INT(k, 30); /* 30 steps of 1/60 s moved it, the 31st hands it back */
    CHECK_NEAR(bw_info(w, id).position.z, 12 * 0.5, 1e-9);
    gait_world_destroy(w);
}

TEST(a_move_into_a_wall_slides_and_ends_on_the_wall) {
    gait_world *w = flat_world();
    bw_box(w, -10, 0, 5, 10, 4, 6); /* a wall across z = 5 */
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_move_def d = gait_default_move_def();
    d.frame = GAIT_FRAME_WORLD;
    d.velocity = (gait_vec3){6, 0, 12}; /* into the wall at an angle */
    d.seconds = 2;
    d.end_on = GAIT_END_WALL;
    gait_character_start_move(w, id, &d);
    int k = steps_until(w, id, GAIT_STATE_IDLE, 200);
    CHECK(k > 0 && k < 60);
    gait_character_info ci = bw_info(w, id);
    CHECK(ci.position.z < 5 - 0.29);
    CHECK(!inside_any(w, ci.position, 0.3, 1.7, 0.01));
    /* without the wall end it slides along the wall */
    gait_character_place(w, id, (gait_vec3){0, 0, 0}, 0);
    d.end_on = 0;
    d.seconds = 1;
    gait_character_start_move(w, id, &d);
    bw_steps(w, 61);
    ci = bw_info(w, id);
    CHECK(ci.position.x > 4.5); /* slid along x */
    CHECK(ci.position.z < 5 - 0.29);
    gait_world_destroy(w);
}

TEST(a_fast_move_never_passes_a_thin_slab) {
    gait_world *w = flat_world();
    bw_box(w, -10, 0, 5, 10, 6, 5.01);   /* a 1 cm wall */
    bw_box(w, -10, 3.0, -10, 10, 3.01, 10); /* a 1 cm ceiling 3 m up */
    gait_character_id a = bw_spawn(w, 0, 0, 0, 100);
    gait_character_id b = bw_spawn(w, 3, 0, -5, 100);
    gait_move_def d = gait_default_move_def();
    d.frame = GAIT_FRAME_WORLD;
    d.velocity = (gait_vec3){0, 0, 60};
    d.seconds = 1;
    gait_character_start_move(w, a, &d);
    gait_move_def u = d;
    u.velocity = (gait_vec3){0, 60, 0};
    u.end_on = GAIT_END_CEILING;
    gait_character_start_move(w, b, &u);
    for (int k = 0; k < 70; k++) {
        gait_world_step(w);
        gait_character_info ia = bw_info(w, a), ib = bw_info(w, b);
        CHECK(ia.position.z < 5);
        CHECK(ib.position.y + 1.7 < 3.0 + 1e-6);
        CHECK(!inside_any(w, ia.position, 0.3, 1.7, 0.01));
        CHECK(!inside_any(w, ib.position, 0.3, 1.7, 0.01));
    }
    CHECK(state_of(w, b) != GAIT_STATE_ACTION); /* the ceiling ended it */
    gait_world_destroy(w);
}

TEST(keyframes_give_the_path_their_integral) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_move_def d = gait_default_move_def();
    d.kind = GAIT_MOVE_KEYS;
    d.key_count = 3;
    d.keys[0] = (gait_move_key){0, {0, 20, 0}};
    d.keys[1] = (gait_move_key){0.5, {0, 10, 0}};
    d.keys[2] = (gait_move_key){1.0, {0, 0, 0}};
    d.seconds = 1.0;
    d.then = GAIT_THEN_GLIDE;
    gait_character_start_move(w, id, &d);
    int k = steps_until(w, id, GAIT_STATE_GLIDE, 200);
    CHECK_EQ_INT(k, 61);
    /* the area under the keys: 0.5 * (20 + 10) / 2 + 0.5 * 10 / 2 = 10 m, exact for lines */
    CHECK_NEAR(bw_info(w, id).position.y, 10.0 - 1.8 * DT, 1e-6);
    gait_world_destroy(w);
}

static bool hook_sine(gait_world *w, gait_character_id id, double t, gait_vec3 *v, void *user) {
    (void)w;
    (void)id;
    int *calls = user;
    (*calls)++;
    *v = (gait_vec3){0, 0, 10 * cos(t)};
    return t < 0.4;
}

TEST(a_hook_action_is_asked_once_a_step_and_ends_when_it_says) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_move_def d = gait_default_move_def();
    d.kind = GAIT_MOVE_HOOK;
    CHECK(gait_character_start_move(w, id, &d) == GAIT_ERR_INVALID_ARGUMENT); /* no hook yet */
    int calls = 0;
    gait_character_set_move_hook(w, id, hook_sine, &calls);
    CHECK(gait_character_start_move(w, id, &d) == GAIT_OK);
    int k = steps_until(w, id, GAIT_STATE_IDLE, 100);
    CHECK(k > 20 && k < 30);
    CHECK_EQ_INT(calls, k - 1); /* the step it said "enough" ends it at the next */
    CHECK(bw_info(w, id).position.z > 3);
    gait_world_destroy(w);
}

TEST(a_move_to_points_passes_them_and_stops_at_arrival_distance) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_move_def d = bw_ground_move((gait_vec3){5, 0, 5}, (gait_vec3){5, 0, 15}, 15, 5);
    d.arrive_distance = 1.0;
    d.then = GAIT_THEN_STOP;
    gait_character_start_move(w, id, &d);
    int k = steps_until(w, id, GAIT_STATE_IDLE, 400);
    CHECK(k > 0);
    gait_character_info ci = bw_info(w, id);
    double dz = 15 - ci.position.z, dx = 5 - ci.position.x;
    CHECK(sqrt(dx * dx + dz * dz) <= 1.0 + 1e-9);
    CHECK(sqrt(dx * dx + dz * dz) >= 1.0 - 15 * DT);
    /* faces the way it went: from where it passed the first point toward the second */
    CHECK(ci.yaw > 0 && ci.yaw < 0.1);
    CHECK(ci.contact.grounded);
    /* the path length over the speed, within a step and the arrival */
    double len = sqrt(50) + 10 - 1.0;
    CHECK_NEAR(k * DT, len / 15, 3 * DT);
    gait_world_destroy(w);
}

TEST(a_move_to_a_point_slides_over_an_edge_and_ends_when_blocked) {
    gait_world *w = flat_world();
    bw_box(w, -3, 0, 4, 3, 0.5, 5);  /* a low edge on the way: slid up and over */
    bw_box(w, -10, 0, 12, 10, 6, 13); /* a wall before the point: blocked */
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_move_def d = gait_default_move_def();
    d.kind = GAIT_MOVE_TO_POINTS;
    d.point_count = 1;
    d.points[0] = (gait_vec3){0, 1, 20};
    d.speed = 12;
    d.seconds = 10;
    gait_character_start_move(w, id, &d);
    int k = steps_until(w, id, GAIT_STATE_FALL, 600);
    gait_character_info ci = bw_info(w, id);
    CHECK_NEAR(ci.position.z, 12 - 0.3, 0.01); /* at the wall, past the edge */
    /* it got there in about 11.7 m / 12 m/s, then 12 steps of no progress ended it */
    CHECK(k > 0 && k * DT < 11.7 / 12 + 0.4 && k * DT > 11.7 / 12);
    gait_world_destroy(w);
}

TEST(a_move_to_a_character_follows_it_and_ends_when_it_is_gone) {
    gait_world *w = flat_world();
    gait_character_id a = bw_spawn(w, 0, 0, 0, 100);
    gait_character_id t = bw_spawn(w, 0, 0, 20, 100);
    gait_move_def d = gait_default_move_def();
    d.kind = GAIT_MOVE_TO_CHARACTER;
    d.target = a;
    CHECK(gait_character_start_move(w, a, &d) == GAIT_ERR_INVALID_ARGUMENT); /* itself */
    d.target = t;
    d.horizontal = true;
    d.speed = 10;
    d.arrive_distance = 1.5;
    d.arrive = GAIT_ARRIVE_HANG;
    d.seconds = 10;
    CHECK(gait_character_start_move(w, a, &d) == GAIT_OK);
    bw_steps(w, 150);
    gait_motion_info mi;
    gait_character_motion_info(w, a, &mi);
    CHECK(mi.playing && mi.hanging);
    gait_character_info ia = bw_info(w, a);
    CHECK_NEAR(ia.position.z, 20 - 1.5, 10 * DT);
    gait_character_destroy(w, t);
    bw_steps(w, 2);
    CHECK_EQ_INT(state_of(w, a), GAIT_STATE_IDLE);
    gait_world_destroy(w);
}

TEST(end_conditions_press_land_stamina) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_move_def d = gait_default_move_def();
    d.velocity = (gait_vec3){0, 8, 2};
    d.gravity_scale = 1;
    d.seconds = 5;
    d.end_on = GAIT_END_LAND | GAIT_END_PRESS;
    d.cancel_buttons = GAIT_BUTTON_ATTACK;
    d.then = GAIT_THEN_PLUNGE;
    gait_character_start_move(w, id, &d);
    bw_steps(w, 10);
    CHECK_EQ_INT(state_of(w, id), GAIT_STATE_ACTION);
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_ATTACK);
    gait_world_step(w);
    CHECK_EQ_INT(state_of(w, id), GAIT_STATE_PLUNGE); /* cancelled by the press, no height needed */
    bw_input(w, id, 0, 0, 0, 0);
    /* landing: 8 m/s up under gravity 20 comes back in 0.8 s */
    gait_character_place(w, id, (gait_vec3){0, 0, 0}, 0);
    d.end_on = GAIT_END_LAND;
    d.then = GAIT_THEN_AUTO;
    gait_character_start_move(w, id, &d);
    int k = steps_until(w, id, GAIT_STATE_IDLE, 200);
    CHECK_NEAR(k * DT, 0.8, 3 * DT);
    /* stamina: a drain of 50/s from 20 ends it after 0.4 s */
    gait_character_place(w, id, (gait_vec3){0, 0, 0}, 0);
    gait_stamina *pool = gait_character_stamina(w, id);
    pool->value = 20;
    d.velocity = (gait_vec3){0, 0, 3};
    d.gravity_scale = 0;
    d.drain_per_s = 50;
    d.end_on = GAIT_END_STAMINA;
    gait_character_start_move(w, id, &d);
    k = steps_until(w, id, GAIT_STATE_IDLE, 200);
    CHECK_NEAR(k * DT, 0.4, 2 * DT);
    CHECK_NEAR(pool->value, 0, 1e-9);
    gait_world_destroy(w);
}

TEST(start_cost_gates_the_start_and_is_paid_once) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_stamina *pool = gait_character_stamina(w, id);
    pool->value = 9;
    gait_move_def d = gait_default_move_def();
    d.start_cost = 10;
    CHECK(gait_character_start_move(w, id, &d) == GAIT_ERR_CAPACITY);
    gait_world_step(w);
    CHECK_EQ_INT(state_of(w, id), GAIT_STATE_IDLE);
    pool->value = 30;
    CHECK(gait_character_start_move(w, id, &d) == GAIT_OK);
    bw_steps(w, 10);
    CHECK_NEAR(pool->value, 20, 1e-9);
    gait_world_destroy(w);
}

/* ---- the gate hook sees it ----------------------------------------------------------------------- */

static int hook_seen_action;
static gait_state veto_action(gait_world *w, gait_character_id id, gait_state from,
                              gait_state proposed, void *user) {
    (void)w;
    (void)id;
    (void)user;
    if (proposed == GAIT_STATE_ACTION) {
        hook_seen_action++;
        return from;
    }
    return proposed;
}

TEST(the_gate_hook_sees_an_action_start_and_may_veto_it) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_character_set_gate_hook(w, id, veto_action, NULL);
    gait_move_def d = gait_default_move_def();
    d.velocity = (gait_vec3){0, 0, 5};
    d.start_cost = 10;
    gait_character_start_move(w, id, &d);
    bw_steps(w, 5);
    CHECK_EQ_INT(hook_seen_action, 1);
    CHECK_EQ_INT(state_of(w, id), GAIT_STATE_IDLE);
    CHECK_NEAR(bw_info(w, id).position.z, 0, 1e-12);
    CHECK_NEAR(gait_character_stamina(w, id)->value, 100, 1e-12); /* nothing paid */
    gait_motion_info mi;
    gait_character_motion_info(w, id, &mi);
    CHECK(!mi.requested && !mi.playing);
    gait_world_destroy(w);
}

/* ---- modes --------------------------------------------------------------------------------------- */

TEST(a_sprint_mode_walks_on_water_and_drops_in_when_the_pool_runs_dry) {
    gait_world *w = flat_world();
    gait_water_region lake = {-60, 10, 60, 60, 3.0}; /* 3 m deep over z in [10, 60] */
    gait_collider_add_water(gait_world_collider(w), &lake, NULL);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_mode_def md = gait_default_mode_def();
    md.name = "torrent";
    md.speed = 9;
    md.start_cost = 10;
    md.drain_per_s = 15;
    md.flat_cost = true;
    md.walk_on_water = true;
    CHECK(gait_character_set_mode(w, id, &md) == GAIT_OK);
    bw_input(w, id, 0, 1, GAIT_BUTTON_SPRINT, GAIT_BUTTON_SPRINT);
    gait_world_step(w);
    CHECK_EQ_INT(state_of(w, id), GAIT_STATE_DASH);
    CHECK_NEAR(gait_character_stamina(w, id)->value, 100 - 10 - 15 * DT, 1e-9);
    bw_input(w, id, 0, 1, GAIT_BUTTON_SPRINT, 0);
    double lowest = 1e9;
    for (int k = 0; k < 240; k++) {
        gait_world_step(w);
        gait_character_info ci = bw_info(w, id);
        if (ci.position.z > 12 && ci.phase.state == GAIT_STATE_SPRINT && ci.position.y < lowest)
            lowest = ci.position.y;
    }
    CHECK_NEAR(lowest, 3.0, 1e-9); /* the feet on the surface */
    /* 90 stamina at 15/s is 6 s of sprint: it drops into the water */
    int k = steps_until(w, id, GAIT_STATE_SWIM, 400);
    CHECK(k > 0);
    gait_world_destroy(w);
}

TEST(a_hover_replaces_the_fall_with_a_slow_sink) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_launch_def l = {{0, 25, 0}, GAIT_FRAME_BODY, false};
    gait_character_launch(w, id, &l);
    CHECK(steps_until(w, id, GAIT_STATE_FALL, 120) > 0);
    gait_mode_def md = gait_default_mode_def();
    md.state = GAIT_STATE_FALL;
    md.sink = 1.0;
    md.speed = 6;
    md.seconds = 2;
    gait_character_set_mode(w, id, &md);
    bw_steps(w, 60);
    gait_character_info ci = bw_info(w, id);
    CHECK_EQ_INT(ci.phase.state, GAIT_STATE_FALL);
    CHECK_NEAR(ci.velocity.y, -1.0, 1e-9);
    bw_steps(w, 90);
    ci = bw_info(w, id);
    CHECK_EQ_INT(ci.phase.state, GAIT_STATE_FALL);
    CHECK(ci.velocity.y < -5); /* the mode's 2 s are over: a plain fall */
    gait_world_destroy(w);
}

/* ---- frame rates and snapshots ------------------------------------------------------------------- */

/* The body's state, member by member (the camera follows once a frame, so the world's hash differs
 * between frame rates by design; the body must not). */
static uint64_t body_hash(gait_world *w, gait_character_id id) {
    gait_character_info ci = bw_info(w, id);
    gait_motion_info mi;
    gait_character_motion_info(w, id, &mi);
    double v[] = {ci.position.x, ci.position.y, ci.position.z, ci.velocity.x, ci.velocity.y,
                  ci.velocity.z, ci.yaw, ci.phase.seconds, ci.stamina, mi.seconds, mi.velocity.x,
                  mi.velocity.y, mi.velocity.z, (double)ci.phase.state, (double)mi.point};
    uint64_t h = 14695981039346656037ull;
    const unsigned char *p = (const unsigned char *)v;
    for (size_t i = 0; i < sizeof v; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* A course of kit motion played by gait_world_update at `fps` (a launch, a move to points past a
 * box, a hover): the body's hash after each step, folded. With `snapshot`, a snapshot taken
 * mid-action is restored at the end and the rest played again: the world's hash must match. */
static uint64_t course(double fps, bool snapshot) {
    gait_world *w = flat_world();
    bw_box(w, 4, 0, 8, 8, 3, 9);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    /* requests in frames that start on a multiple of 1/6 s: a frame boundary at every rate
     * here, so each acts at the same step */
#define AT_SIXTHS(k) ((int)(fps * (k) / 6.0 + 0.5))
    int frames = AT_SIXTHS(18), snap_frame = AT_SIXTHS(12);
    double frame = 1.0 / fps;
    uint64_t fold = 0, last_steps = 0;
    void *snap = NULL;
    size_t size = gait_world_snapshot_size(w);
    uint64_t end_hash = 0;
    bool saw_action = false;
    for (int pass = 0; pass < (snapshot ? 2 : 1); pass++) {
        int f0 = pass == 0 ? 0 : snap_frame;
        if (pass == 1) gait_world_snapshot_restore(w, snap, size);
        for (int f = f0; f < frames; f++) {
            if (f == AT_SIXTHS(2)) {
                gait_launch_def l = {{0, 9, 4}, GAIT_FRAME_BODY, false};
                gait_character_launch(w, id, &l);
            } else if (f == AT_SIXTHS(9)) {
                gait_move_def d = bw_ground_move((gait_vec3){6, 0, 4}, (gait_vec3){6, 0, 14}, 12, 1.2);
                gait_character_start_move(w, id, &d);
            }
            if (pass == 0 && snapshot && f == snap_frame) {
                snap = malloc(size);
                gait_world_snapshot_save(w, snap, size, NULL);
            }
            gait_world_update(w, frame, NULL);
            /* every second step: the steps every rate here ends a frame on (30 fps runs two) */
            if (gait_world_step_count(w) != last_steps && gait_world_step_count(w) % 2 == 0) {
                last_steps = gait_world_step_count(w);
                if (pass == 0) fold = fold * 31 + body_hash(w, id);
            }
            if (state_of(w, id) == GAIT_STATE_ACTION) saw_action = true;
        }
        if (pass == 0) end_hash = gait_world_state_hash(w);
        else CHECK_MSG(gait_world_state_hash(w) == end_hash, "%g fps: the run from a snapshot differs", fps);
    }
    CHECK(saw_action);
    free(snap);
    gait_world_destroy(w);
    return fold;
}

TEST(kit_motion_is_the_same_at_every_frame_rate_and_after_a_snapshot) {
    uint64_t h60 = course(60, true);
    CHECK(course(30, true) == h60);
    CHECK(course(144, true) == h60);
    CHECK(course(240, true) == h60);
}

/* ---- cooldowns ---------------------------------------------------------------------------------- */

TEST(cooldowns_count_down_with_the_steps) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    CHECK(gait_character_set_cooldown(w, id, GAIT_BUTTON_SKILL, 1.0) == GAIT_OK);
    CHECK(gait_character_set_cooldown(w, id, GAIT_BUTTON_SKILL | GAIT_BUTTON_BURST, 1.0) ==
          GAIT_ERR_INVALID_ARGUMENT);
    bw_steps(w, 30);
    double left = -1;
    gait_character_cooldown(w, id, GAIT_BUTTON_SKILL, &left);
    CHECK_NEAR(left, 0.5, 1e-9);
    bw_steps(w, 31);
    gait_character_cooldown(w, id, GAIT_BUTTON_SKILL, &left);
    CHECK_EQ_INT(left, 0);
    gait_world_destroy(w);
}

/* ---- bad input ---------------------------------------------------------------------------------- */

TEST(bad_defs_are_refused_with_the_field_named) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_move_def d = gait_default_move_def();
    d.seconds = NAN;
    CHECK(gait_character_start_move(w, id, &d) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gait_world_last_error(w), "seconds") != NULL);
    d = gait_default_move_def();
    d.velocity.y = 1e9;
    CHECK(gait_character_start_move(w, id, &d) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gait_world_last_error(w), "velocity") != NULL);
    d = gait_default_move_def();
    d.kind = GAIT_MOVE_KEYS;
    d.key_count = 2;
    d.keys[1].t = 0;
    CHECK(gait_character_start_move(w, id, &d) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gait_world_last_error(w), "keys[1].t") != NULL);
    gait_launch_def l = {{0, INFINITY, 0}, GAIT_FRAME_BODY, false};
    CHECK(gait_character_launch(w, id, &l) == GAIT_ERR_INVALID_ARGUMENT);
    gait_mode_def md = gait_default_mode_def();
    md.state = GAIT_STATE_DROWN;
    CHECK(gait_character_set_mode(w, id, &md) == GAIT_ERR_INVALID_ARGUMENT);
    md = gait_default_mode_def();
    md.sink = 1;
    CHECK(gait_character_set_mode(w, id, &md) == GAIT_ERR_INVALID_ARGUMENT); /* sprint has no sink */
    gait_gadget_def g = gait_default_gadget_def(GAIT_GADGET_WIND);
    g.point_count = 1;
    CHECK(gait_world_add_gadget(w, &g, NULL) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_world_gadget_count(w), 0);
    gait_motion_info mi;
    gait_character_motion_info(w, id, &mi);
    CHECK(!mi.requested && mi.mode_count == 0);
    gait_world_destroy(w);
}

/* ---- gadgets ------------------------------------------------------------------------------------- */

/* Flat ground with the gadget (added, checked) and a body with 100 stamina at (0, 0, z) that, when
 * `press` is a button, presses it for its first step and then lets go. */
static gait_world *gadget_course(const gait_gadget_def *g, double z, uint32_t press,
                                 gait_character_id *id) {
    gait_world *w = flat_world();
    CHECK(gait_world_add_gadget(w, g, NULL) == GAIT_OK);
    *id = bw_spawn(w, 0, 0, z, 100);
    if (press) {
        bw_input(w, *id, 0, 0, 0, press);
        gait_world_step(w);
        bw_input(w, *id, 0, 0, 0, 0);
    }
    return w;
}

TEST(a_bounce_pad_launches_to_its_height) {
    gait_gadget_def g = gait_default_gadget_def(GAIT_GADGET_BOUNCE);
    g.position = (gait_vec3){0, 0, 5};
    g.height = 7;
    gait_character_id id;
    gait_world *w = gadget_course(&g, 0, 0, &id);
    double top = 0;
    bool bounced = false;
    for (int k = 0; k < 200; k++) {
        bw_input(w, id, 0, k < 60 ? 1 : 0, 0, 0);
        gait_world_step(w);
        gait_character_info ci = bw_info(w, id);
        if (ci.phase.state == GAIT_STATE_JUMP) bounced = true;
        if (ci.position.y > top) top = ci.position.y;
    }
    CHECK(bounced);
    CHECK_NEAR(top, 7, 0.05);
    gait_world_destroy(w);
}

TEST(an_updraft_opens_the_glider_and_lifts_it_to_near_its_top) {
    gait_gadget_def g = gait_default_gadget_def(GAIT_GADGET_UPDRAFT);
    g.position = (gait_vec3){0, 0, 0};
    g.height = 15;
    gait_character_id id;
    gait_world *w = gadget_course(&g, 0, GAIT_BUTTON_JUMP, &id);
    CHECK(steps_until(w, id, GAIT_STATE_GLIDE, 5) > 0);
    bw_steps(w, 240);
    gait_character_info ci = bw_info(w, id);
    CHECK_EQ_INT(ci.phase.state, GAIT_STATE_GLIDE);
    CHECK(ci.position.y > 13 && ci.position.y <= 15);
    gait_world_destroy(w);
}

TEST(a_grapple_point_pulls_a_body_in_range_and_it_hangs_until_jump) {
    gait_gadget_def g = gait_default_gadget_def(GAIT_GADGET_GRAPPLE);
    g.position = (gait_vec3){0, 10, 8};
    g.radius = 14;
    gait_character_id id;
    gait_world *w = gadget_course(&g, 0, GAIT_BUTTON_DROP, &id);
    CHECK_EQ_INT(state_of(w, id), GAIT_STATE_ACTION);
    bw_steps(w, 90);
    gait_motion_info mi;
    gait_character_motion_info(w, id, &mi);
    CHECK(mi.hanging);
    gait_character_info ci = bw_info(w, id);
    CHECK_NEAR(ci.position.y, 10 - 1.7, 0.31);
    CHECK_NEAR(ci.position.z, 8, 0.31);
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_JUMP);
    gait_world_step(w);
    CHECK_EQ_INT(state_of(w, id), GAIT_STATE_GLIDE); /* high enough: the jump opens the glider */
    gait_world_destroy(w);
}

TEST(a_wind_current_carries_a_glider_along_its_path) {
    gait_gadget_def g = gait_default_gadget_def(GAIT_GADGET_WIND);
    g.point_count = 3;
    g.points[0] = (gait_vec3){0, 6, 0};
    g.points[1] = (gait_vec3){0, 8, 20};
    g.points[2] = (gait_vec3){20, 8, 30};
    g.radius = 3;
    g.speed = 14;
    gait_character_id id;
    gait_world *w = gadget_course(&g, -1, 0, &id);
    gait_launch_def l = {{0, sqrt(2 * 20 * 6.0), 0}, GAIT_FRAME_BODY, false};
    gait_character_launch(w, id, &l);
    CHECK(steps_until(w, id, GAIT_STATE_FALL, 60) > 0);
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_JUMP);
    CHECK(steps_until(w, id, GAIT_STATE_ACTION, 10) > 0);
    bw_input(w, id, 0, 0, 0, 0);
    int k = steps_until(w, id, GAIT_STATE_GLIDE, 400);
    CHECK(k > 0);
    gait_character_info ci = bw_info(w, id);
    CHECK_NEAR(ci.position.x, 20, 0.8);
    CHECK_NEAR(ci.position.z, 30, 0.8);
    double len = sqrt(404) + sqrt(500); /* from about the first point */
    CHECK_NEAR(k * DT, (len - 0.75) / 14, 0.15);
    gait_world_destroy(w);
}

/* ---- the camera ---------------------------------------------------------------------------------- */

TEST(the_camera_follows_a_dash_and_stays_out_of_the_wall_it_ends_at) {
    gait_world *w = flat_world();
    bw_box(w, -5, 0, 9, 5, 6, 10);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_character_face(w, id, M_PI); /* faces -z: the camera behind it, on the wall's side */
    gait_character_set_camera_yaw(w, id, M_PI);
    gait_camera cam;
    gait_character_camera(w, id, &cam);
    gait_move_def d = gait_default_move_def();
    d.velocity = (gait_vec3){0, 0, -20}; /* backwards, toward the wall */
    d.end_on = GAIT_END_WALL;
    gait_character_start_move(w, id, &d);
    for (int k = 0; k < 60; k++) gait_world_update(w, DT, NULL);
    gait_character_info ci = bw_info(w, id);
    CHECK(ci.position.z > 8.6);
    gait_character_camera(w, id, &cam);
    CHECK_NEAR(cam.pivot.z, ci.position.z, 0.05); /* followed */
    CHECK(cam.eye.z < 9.0);                       /* pulled in: not in or past the wall */
    CHECK(cam.arm < cam.distance);
    gait_world_destroy(w);
}

static int drawn_lines, drawn_texts;
static void count_line(gait_vec3 a, gait_vec3 b, uint32_t rgba, void *user) {
    (void)a, (void)b, (void)rgba, (void)user;
    drawn_lines++;
}
static void count_text(gait_vec3 p, const char *text, uint32_t rgba, void *user) {
    (void)p, (void)rgba, (void)user;
    if (text && text[0]) drawn_texts++;
}

TEST(the_debug_view_draws_every_gadget_with_its_name) {
    gait_world *w = flat_world();
    for (int k = 0; k < GAIT_GADGET_KIND_COUNT; k++) {
        gait_gadget_def g = gait_default_gadget_def((gait_gadget_kind)k);
        g.point_count = 2;
        g.points[1].z = 10;
        CHECK(gait_world_add_gadget(w, &g, NULL) == GAIT_OK);
    }
    gait_gadget_def back;
    CHECK(gait_world_gadget(w, 2, &back) == GAIT_OK);
    CHECK(strcmp(back.name, "grapple") == 0);
    CHECK(back.button == GAIT_BUTTON_DROP);
    gait_debug_draw d;
    memset(&d, 0, sizeof d);
    d.line = count_line;
    d.text = count_text;
    gait_world_set_debug_draw(w, &d);
    gait_world_draw_debug(w);
    CHECK_EQ_INT(drawn_texts, 4);
    CHECK_EQ_INT(drawn_lines, 2 * 24 + 1 + 1 + 24 + 24); /* updraft, wind, grapple, pad */
    gait_world_clear_gadgets(w);
    CHECK_EQ_INT(gait_world_gadget_count(w), 0);
    gait_world_destroy(w);
}

/* ---- a snapshot is content ------------------------------------------------------------------------ */

/* A snapshot whose motion says what no setter makes is refused, naming the member, and the world
 * is left as it was (the forged buffers are saved from a character changed in place: their
 * checksums are right, as a forger's would be). */
TEST(a_snapshot_with_motion_out_of_range_is_refused) {
    gait_world *w = flat_world();
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_move_def d = gait_default_move_def();
    d.kind = GAIT_MOVE_TO_POINTS;
    d.point_count = 2;
    d.points[1].z = 10;
    d.seconds = 3;
    gait_character_start_move(w, id, &d);
    bw_steps(w, 3);
    size_t size = gait_world_snapshot_size(w);
    unsigned char *honest = malloc(size), *forged = malloc(size);
    CHECK(gait_world_snapshot_save(w, honest, size, NULL) == GAIT_OK);
    uint64_t hash = gait_world_state_hash(w);
    /* indices and counts past the arrays, a request the setter would refuse */
    static const char *const says[] = {"motion.point = 1000", "motion.move.point_count = 99",
                                       "motion.mode_count = 77", "motion.next.key_count = 1000",
                                       "motion.point = 1 is past move.point_count"};
    for (int k = 0; k < (int)(sizeof says / sizeof says[0]); k++) {
        gait__character *ch = gait__character_get(w, id);
        switch (k) {
        case 0: ch->motion.point = 1000; break;
        case 1: ch->motion.move.point_count = 99; break;
        case 2: ch->motion.mode_count = 77; break;
        case 3:
            ch->motion.request = GAIT__REQ_MOVE;
            ch->motion.next.kind = GAIT_MOVE_KEYS;
            ch->motion.next.key_count = 1000;
            break;
        default: ch->motion.point = 1; ch->motion.move.point_count = 1; break;
        }
        CHECK(gait_world_snapshot_save(w, forged, size, NULL) == GAIT_OK);
        CHECK(gait_world_snapshot_restore(w, honest, size) == GAIT_OK);
        CHECK_EQ_INT(gait_world_snapshot_restore(w, forged, size), GAIT_ERR_FORMAT);
        CHECK_MSG(strstr(gait_world_last_error(w), says[k]) != NULL, "case %d: %s", k,
                  gait_world_last_error(w));
        CHECK(gait_world_state_hash(w) == hash);
    }
    free(honest);
    free(forged);
    gait_motion_info mi;
    CHECK_EQ_INT(gait_character_motion_info(w, id, &mi), GAIT_OK);
    CHECK(mi.playing);
    bw_steps(w, 10); /* and the steps go on */
    CHECK(gait_state_on_foot(state_of(w, id)) || state_of(w, id) == GAIT_STATE_ACTION);
    gait_world_destroy(w);
}
