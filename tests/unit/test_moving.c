/* Moving landmarks: a lift ridden up and down with the feet glued, a turning platform stood on
 * with no drift, a jump off a ferry that keeps its velocity, a wall that pushes a body off a
 * ledge, a lift that crushes a body under a ceiling, a moving wall climbed; every one the same
 * bits at 30, 60, 144 and 240 fps and through a snapshot. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "body_fixtures.h"

#define STEP (1.0 / 60)

static gait_vec3 v3_add_(gait_vec3 a, gait_vec3 b) { return (gait_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }

/* A box [lo, hi] in its own frame placed at `at` (so it turns about `at`). */
static gait_landmark_id frame_box(gait_world *w, gait_vec3 at, gait_vec3 lo, gait_vec3 hi) {
    const float flo[3] = {(float)lo.x, (float)lo.y, (float)lo.z};
    const float fhi[3] = {(float)hi.x, (float)hi.y, (float)hi.z};
    float tris[36 * 3];
    box_tris(tris, flo, fhi);
    return add_named_tris(gait_world_collider(w), tris, 12, at, "moving box");
}

static gait_character_id body_at(gait_world *w, double x, double y, double z) {
    gait_character_def d = gait_default_character_def();
    d.position = (gait_vec3){x, y, z};
    gait_character_id id = GAIT_NULL_ID_INIT;
    gait_character_create(w, &d, &id);
    return id;
}

static gait_vec3 pos(gait_world *w, gait_character_id id) { return bw_info(w, id).position; }

/* ---- a lift ---------------------------------------------------------------------------------- */

/* A 4 x 4 m lift 0.3 m thick, its top at y = 0.3, going up 8 m and down again at 4 m/s. */
static gait_landmark_id lift(gait_world *w) {
    gait_landmark_id id = frame_box(w, (gait_vec3){0, 0, 0}, (gait_vec3){-2, 0, -2}, (gait_vec3){2, 0.3, 2});
    gait_transform path[2] = {gait_transform_yaw((gait_vec3){0, 0, 0}, 0),
                              gait_transform_yaw((gait_vec3){0, 8, 0}, 0)};
    gait_collider_set_landmark_path(gait_world_collider(w), id, path, 2, 4.0);
    return id;
}

TEST(moving_a_lift_carries_the_feet_glued_up_and_down) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_landmark_id lm = lift(w);
    gait_character_id id = body_at(w, 0.5, 1, 0.5);
    CHECK_NEAR(pos(w, id).y, 0.3, 0.005);
    double worst = 0, top = 0, rise = 0;
    for (int k = 0; k < 8 * 60; k++) {
        bool walking = k > 240 && k <= 270; /* walks half a metre on it on the way down */
        bw_input(w, id, walking ? 0.2 : 0, 0, 0, 0);
        gait_world_step(w);
        gait_transform t;
        gait_collider_landmark_transform(gait_world_collider(w), lm, &t);
        gait_character_info i = bw_info(w, id);
        double off = fabs(i.position.y - (t.position.y + 0.3));
        if (off > worst) worst = off;
        if (i.position.y > top) top = i.position.y;
        if (!i.contact.grounded || i.phase.state != (walking ? GAIT_STATE_WALK : GAIT_STATE_IDLE))
            CHECK_MSG(k < 2, "step %d: %s, grounded %d", k, gait_state_name(i.phase.state), i.contact.grounded);
        if (k == 60) {
            CHECK(i.carrier.index1 == lm.index1);
            rise = i.carrier_velocity.y;
        }
    }
    CHECK_MSG(worst <= 0.01, "the feet left the lift's floor by %.4f m", worst);
    CHECK_NEAR(top, 8.3, 0.02);
    CHECK_NEAR(rise, 4.0, 1e-6);
    gait_world_destroy(w);
}

/* ---- a turning platform ----------------------------------------------------------------------- */

TEST(moving_a_body_on_a_turning_platform_does_not_drift) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_vec3 c = {10, 1, -5};
    gait_landmark_id lm = frame_box(w, c, (gait_vec3){-6, -0.5, -6}, (gait_vec3){6, 0, 6});
    gait_collider_set_landmark_velocity(gait_world_collider(w), lm, (gait_vec3){0, 0, 0},
                                        (gait_vec3){0, M_PI / 2, 0}); /* 90 deg/s */
    gait_character_id id = body_at(w, c.x + 3, 2, c.z + 1);
    gait_vec3 p0 = pos(w, id);
    double yaw0 = bw_info(w, id).yaw;
    double worst = 0;
    for (int k = 0; k < 600; k++) { /* 10 s: two and a half turns */
        bw_input(w, id, 0, 0, 0, 0);
        gait_world_step(w);
        /* the feet in the platform's frame, against where they began */
        gait_transform t;
        gait_collider_landmark_transform(gait_world_collider(w), lm, &t);
        double a = 2 * atan2(t.rotation[1], t.rotation[3]); /* its yaw */
        gait_vec3 p = pos(w, id);
        double dx = p.x - c.x, dz = p.z - c.z;
        double lx = dx * cos(a) - dz * sin(a), lz = dx * sin(a) + dz * cos(a); /* turned back */
        double drift = hypot(lx - (p0.x - c.x), lz - (p0.z - c.z));
        if (drift > worst) worst = drift;
        CHECK(fabs(p.y - p0.y) < 1e-9);
        CHECK(bw_info(w, id).phase.state == GAIT_STATE_IDLE);
    }
    CHECK_MSG(worst <= 0.01, "the body drifted %.5f m on the platform", worst);
    /* it turned with it: 900 deg, so facing 180 deg from where it began */
    CHECK_NEAR(fabs(remainder(bw_info(w, id).yaw - yaw0, 2 * M_PI)), M_PI, 1e-6);
    gait_world_destroy(w);
}

/* ---- a ferry -------------------------------------------------------------------------------- */

TEST(moving_a_jump_off_a_ferry_keeps_its_velocity) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_landmark_id lm = frame_box(w, (gait_vec3){-20, 0, 0}, (gait_vec3){-3, 0, -3}, (gait_vec3){3, 1, 3});
    gait_collider_set_landmark_velocity(gait_world_collider(w), lm, (gait_vec3){3, 0, 0},
                                        (gait_vec3){0, 0, 0});
    gait_character_id id = body_at(w, -20, 2, 0);
    for (int k = 0; k < 60; k++) { /* a second aboard */
        bw_input(w, id, 0, 0, 0, 0);
        gait_world_step(w);
    }
    gait_transform t0;
    gait_collider_landmark_transform(gait_world_collider(w), lm, &t0);
    double local0 = pos(w, id).x - t0.position.x;
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_JUMP);
    gait_world_step(w);
    bool airborne = false, landed = false;
    for (int k = 0; k < 120 && !landed; k++) {
        gait_character_info i = bw_info(w, id);
        if (gait_state_airborne(i.phase.state)) {
            airborne = true;
            CHECK_MSG(fabs(i.velocity.x - 3) < 1e-6, "in the air at %.4f m/s", i.velocity.x);
        } else if (airborne) {
            landed = true;
        }
        bw_input(w, id, 0, 0, 0, 0);
        gait_world_step(w);
    }
    CHECK(airborne && landed);
    gait_transform t1;
    gait_collider_landmark_transform(gait_world_collider(w), lm, &t1);
    CHECK_NEAR(pos(w, id).x - t1.position.x, local0, 0.01); /* back where it jumped from */
    CHECK(bw_info(w, id).contact.grounded && pos(w, id).y > 0.99);
    gait_world_destroy(w);
}

/* ---- pushed -------------------------------------------------------------------------------- */

/* The deepest the body's capsule reaches into an axis-aligned box [lo, hi] (m; <= 0 outside). */
static double into_box(gait_vec3 feet, gait_vec3 lo, gait_vec3 hi) {
    double r = 0.3, y0 = feet.y + r, y1 = feet.y + 1.7 - r;
    double cy = y0 > hi.y ? hi.y : (y1 < lo.y ? lo.y : (y0 > lo.y ? y0 : lo.y));
    double cx = feet.x < lo.x ? lo.x : (feet.x > hi.x ? hi.x : feet.x);
    double cz = feet.z < lo.z ? lo.z : (feet.z > hi.z ? hi.z : feet.z);
    double ay = cy < y0 ? y0 : (cy > y1 ? y1 : cy);
    double d = sqrt((feet.x - cx) * (feet.x - cx) + (ay - cy) * (ay - cy) + (feet.z - cz) * (feet.z - cz));
    if (feet.x > lo.x && feet.x < hi.x && feet.z > lo.z && feet.z < hi.z && ay > lo.y && ay < hi.y)
        return r + fmin(fmin(feet.x - lo.x, hi.x - feet.x), fmin(feet.z - lo.z, hi.z - feet.z));
    return r - d;
}

TEST(moving_a_wall_pushes_a_standing_body_off_a_ledge) {
    gait_world *w = bw_box_world(-4, 0, -2, 4, 2, 2); /* a ledge 2 m up */
    /* a wall 1 m thick sweeping across the ledge along +z at 2 m/s */
    gait_landmark_id lm = frame_box(w, (gait_vec3){0, 2, -4}, (gait_vec3){-3, 0, -0.5}, (gait_vec3){3, 2.5, 0.5});
    gait_collider_set_landmark_velocity(gait_world_collider(w), lm, (gait_vec3){0, 0, 2}, (gait_vec3){0, 0, 0});
    gait_character_id id = body_at(w, 0, 3, 0.5);
    CHECK_NEAR(pos(w, id).y, 2, 0.005);
    double worst = -1;
    for (int k = 0; k < 240; k++) {
        bw_input(w, id, 0, 0, 0, 0);
        gait_world_step(w);
        gait_transform t;
        gait_collider_landmark_transform(gait_world_collider(w), lm, &t);
        double d = into_box(pos(w, id), v3_add_(t.position, (gait_vec3){-3, 0, -0.5}),
                            v3_add_(t.position, (gait_vec3){3, 2.5, 0.5}));
        if (d > worst) worst = d;
        CHECK(!bw_info(w, id).crushed);
    }
    gait_character_info i = bw_info(w, id);
    CHECK_MSG(worst <= 0.011, "the wall reached %.4f m into the body", worst);
    CHECK_MSG(i.position.z > 2.2 && i.position.y < 0.01 && i.contact.grounded,
              "the body is at (%.2f, %.2f, %.2f), %s", i.position.x, i.position.y, i.position.z,
              gait_state_name(i.phase.state));
    gait_world_destroy(w);
}

TEST(moving_a_lift_under_a_ceiling_reports_a_crush) {
    gait_world *w = bw_box_world(-3, 4, -3, 3, 4.5, 3); /* a ceiling 4 m up */
    gait_landmark_id lm = frame_box(w, (gait_vec3){0, 0, 0}, (gait_vec3){-2, 0, -2}, (gait_vec3){2, 0.3, 2});
    gait_collider_set_landmark_velocity(gait_world_collider(w), lm, (gait_vec3){0, 1, 0}, (gait_vec3){0, 0, 0});
    gait_character_id id = body_at(w, 0, 1, 0);
    bool crushed = false;
    int crushed_at = -1;
    for (int k = 0; k < 240 && !crushed; k++) {
        bw_input(w, id, 0, 0, 0, 0);
        gait_world_step(w);
        crushed = bw_info(w, id).crushed;
        if (crushed) crushed_at = k;
        /* never pushed through the ceiling */
        CHECK(pos(w, id).y + 1.7 <= 4.0 + 0.011);
    }
    CHECK(crushed);
    /* the lift's top reaches the body's room (4 - 1.7 = 2.3 m above 0.3) after ~2 s */
    CHECK(crushed_at > 110 && crushed_at < 140);
    gait_world_destroy(w);
}

/* ---- a moving wall climbed ---------------------------------------------------------------- */

TEST(moving_a_wall_sliding_sideways_can_be_climbed) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_landmark_id lm = frame_box(w, (gait_vec3){0, 0, 3}, (gait_vec3){-4, 0, 0}, (gait_vec3){4, 10, 1});
    gait_collider_set_landmark_velocity(gait_world_collider(w), lm, (gait_vec3){1, 0, 0}, (gait_vec3){0, 0, 0});
    gait_character_id id = body_at(w, 0, 0, 1);
    int climbing = 0;
    double x_at_climb = 0, t_at_climb = 0;
    for (int k = 0; k < 300; k++) {
        bw_input(w, id, 0, 1, 0, 0); /* into the wall, then up it */
        gait_world_step(w);
        gait_character_info i = bw_info(w, id);
        if (i.phase.state == GAIT_STATE_CLIMB) {
            if (!climbing) {
                x_at_climb = i.position.x;
                t_at_climb = k * STEP;
            }
            climbing++;
            /* glued: it slides with the wall, 1 m/s in x */
            CHECK_NEAR(i.position.x - x_at_climb, (k * STEP - t_at_climb), 0.02);
        }
    }
    CHECK(climbing > 120);
    CHECK(pos(w, id).y > 3);
    gait_world_destroy(w);
}

/* ---- the same bits at every frame rate and through a snapshot ------------------------------ */

/* A lift (path), a turning platform (velocity), a ferry (velocity), a swinging bridge (a path of
 * turns), a wall the host moves each step, and bodies on each, two of them walking. */
typedef struct scene {
    gait_world *w;
    gait_character_id ids[5];
    gait_landmark_id pushed;
} scene;

static void scene_build(scene *s) {
    s->w = bw_world(NULL);
    bw_flat(s->w);
    gait_collider *c = gait_world_collider(s->w);
    lift(s->w);
    gait_landmark_id disc = frame_box(s->w, (gait_vec3){12, 1, 0}, (gait_vec3){-4, -0.5, -4}, (gait_vec3){4, 0, 4});
    gait_collider_set_landmark_velocity(c, disc, (gait_vec3){0, 0, 0}, (gait_vec3){0, 1.2, 0});
    gait_landmark_id ferry = frame_box(s->w, (gait_vec3){-12, 0, 0}, (gait_vec3){-3, 0, -3}, (gait_vec3){3, 1, 3});
    gait_collider_set_landmark_velocity(c, ferry, (gait_vec3){0.5, 0, 1.5}, (gait_vec3){0, 0.1, 0});
    gait_landmark_id bridge = frame_box(s->w, (gait_vec3){0, 3, 14}, (gait_vec3){-6, -0.3, -1}, (gait_vec3){6, 0, 1});
    gait_transform swing[3] = {gait_transform_yaw((gait_vec3){0, 3, 14}, -0.4),
                               gait_transform_yaw((gait_vec3){0, 3.5, 14}, 0.4),
                               gait_transform_yaw((gait_vec3){0, 3, 14}, 1.0)};
    gait_collider_set_landmark_path(c, bridge, swing, 3, 5.0);
    s->pushed = frame_box(s->w, (gait_vec3){20, 0, 10}, (gait_vec3){-1, 0, -1}, (gait_vec3){1, 2, 1});
    gait_transform here = gait_transform_yaw((gait_vec3){20, 0, 10}, 0);
    gait_collider_move_landmark(c, s->pushed, &here); /* moving from the start: the host's */
    s->ids[0] = body_at(s->w, 0.5, 1, 0);
    s->ids[1] = body_at(s->w, 13, 2, 1);
    s->ids[2] = body_at(s->w, -12, 2, 0.5);
    s->ids[3] = body_at(s->w, 1, 4, 14);
    s->ids[4] = body_at(s->w, 20, 0, 12);
}

/* Step k's inputs, and the host's own move of the pushed wall, one pose a step. */
static void scene_step_input(scene *s, uint64_t k) {
    double t = (double)k / 60;
    bw_input(s->w, s->ids[0], 0, 0, 0, 0);
    bw_input(s->w, s->ids[1], 0.3 * sin(t), 0.3 * cos(t), 0, k % 97 == 5 ? GAIT_BUTTON_JUMP : 0);
    bw_input(s->w, s->ids[2], 0, 0, 0, k % 150 == 40 ? GAIT_BUTTON_JUMP : 0);
    bw_input(s->w, s->ids[3], 0.2, 0, 0, 0);
    bw_input(s->w, s->ids[4], 0, 0, 0, 0);
    gait_transform to = gait_transform_yaw((gait_vec3){20, 0, 10 + 0.01 * (double)(k % 200)}, 0.002 * (double)k);
    gait_collider_move_landmark(gait_world_collider(s->w), s->pushed, &to);
}

/* Plays at `fps` until `steps` steps have run, the inputs set before each step (per step, not per
 * frame, so every rate gets the same). Returns the simulation hash then. */
static uint64_t scene_play(double fps, uint64_t steps) {
    scene s;
    scene_build(&s);
    uint64_t done = 0;
    while (done < steps) {
        /* one step's worth of frames: the inputs of the step about to run are set first */
        scene_step_input(&s, done);
        while (gait_world_step_count(s.w) == done) gait_world_update(s.w, 1.0 / fps, NULL);
        done = gait_world_step_count(s.w);
    }
    uint64_t h = gait_world_simulation_hash(s.w);
    gait_world_destroy(s.w);
    return h;
}

TEST(moving_the_same_bits_at_30_60_144_240_fps) {
    uint64_t at60 = scene_play(60, 600);
    CHECK(scene_play(144, 600) == at60);
    CHECK(scene_play(240, 600) == at60);
    /* at 30 fps a frame runs two steps, so the next step's inputs cannot come between them:
     * compare step by step through gait_world_step instead */
    scene s;
    scene_build(&s);
    for (uint64_t k = 0; k < 600; k++) {
        scene_step_input(&s, k);
        gait_world_step(s.w);
    }
    CHECK(gait_world_simulation_hash(s.w) == at60);
    gait_world_destroy(s.w);
}

TEST(moving_a_snapshot_restores_the_landmarks_and_their_riders) {
    scene a, b;
    scene_build(&a);
    scene_build(&b);
    for (uint64_t k = 0; k < 250; k++) {
        scene_step_input(&a, k);
        gait_world_step(a.w);
    }
    size_t size = gait_world_snapshot_size(a.w);
    unsigned char *snap = malloc(size);
    CHECK_EQ_INT(gait_world_snapshot_save(a.w, snap, size, NULL), GAIT_OK);
    for (uint64_t k = 250; k < 500; k++) {
        scene_step_input(&a, k);
        gait_world_step(a.w);
    }
    CHECK_EQ_INT(gait_world_snapshot_restore(b.w, snap, size), GAIT_OK);
    for (uint64_t k = 250; k < 500; k++) {
        scene_step_input(&b, k);
        gait_world_step(b.w);
    }
    CHECK(gait_world_simulation_hash(a.w) == gait_world_simulation_hash(b.w));
    CHECK(gait_world_state_hash(a.w) != 0);
    /* a world whose landmarks do not move the same way refuses it, whole */
    scene c;
    scene_build(&c);
    gait_collider_set_landmark_velocity(gait_world_collider(c.w), c.pushed, (gait_vec3){1, 0, 0},
                                        (gait_vec3){0, 0, 0}); /* held, in the snapshot */
    uint64_t before = gait_world_simulation_hash(c.w);
    CHECK_EQ_INT(gait_world_snapshot_restore(c.w, snap, size), GAIT_ERR_FORMAT);
    CHECK(strstr(gait_world_last_error(c.w), "moving landmarks") != NULL);
    CHECK(gait_world_simulation_hash(c.w) == before);
    gait_world_destroy(c.w);
    free(snap);
    gait_world_destroy(a.w);
    gait_world_destroy(b.w);
}

TEST(moving_bad_motions_are_refused_and_change_nothing) {
    gait_world *w = bw_world(NULL);
    gait_collider *c = gait_world_collider(w);
    gait_landmark_id lm = frame_box(w, (gait_vec3){0, 0, 0}, (gait_vec3){-1, 0, -1}, (gait_vec3){1, 1, 1});
    gait_transform bad = gait_transform_yaw((gait_vec3){NAN, 0, 0}, 0);
    CHECK_EQ_INT(gait_collider_move_landmark(c, lm, &bad), GAIT_ERR_INVALID_ARGUMENT);
    gait_transform zero = gait_transform_yaw((gait_vec3){0, 0, 0}, 0);
    zero.rotation[3] = 0;
    CHECK_EQ_INT(gait_collider_move_landmark(c, lm, &zero), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_collider_set_landmark_velocity(c, lm, (gait_vec3){INFINITY, 0, 0}, (gait_vec3){0, 0, 0}),
                 GAIT_ERR_INVALID_ARGUMENT);
    gait_transform two[2] = {gait_transform_yaw((gait_vec3){0, 0, 0}, 0), gait_transform_yaw((gait_vec3){1, 0, 0}, 0)};
    CHECK_EQ_INT(gait_collider_set_landmark_path(c, lm, two, 1, 1), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_collider_set_landmark_path(c, lm, two, 2, 0), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_collider_set_landmark_path(c, lm, two, 2, NAN), GAIT_ERR_INVALID_ARGUMENT);
    two[1].rotation[0] = NAN;
    CHECK_EQ_INT(gait_collider_set_landmark_path(c, lm, two, 2, 1), GAIT_ERR_INVALID_ARGUMENT);
    CHECK(!gait_collider_landmark_moving(c, lm)); /* nothing half-applied */
    CHECK_EQ_INT(gait_collider_moving_count(c), 0);
    gait_landmark_id stale = lm;
    stale.generation++;
    CHECK_EQ_INT(gait_collider_move_landmark(c, stale, &two[0]), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_collider_advance(c, 0), GAIT_ERR_INVALID_ARGUMENT);
    /* moved, then removed: gone from the moving list */
    CHECK_EQ_INT(gait_collider_move_landmark(c, lm, &two[0]), GAIT_OK);
    CHECK_EQ_INT(gait_collider_moving_count(c), 1);
    CHECK_EQ_INT(gait_collider_remove_landmark(c, lm), GAIT_OK);
    CHECK_EQ_INT(gait_collider_moving_count(c), 0);
    CHECK_EQ_INT(gait_collider_advance(c, 1.0 / 60), GAIT_OK);
    gait_world_destroy(w);
}

/* ---- a moving landmark's ledge ---------------------------------------------------------------- */

/* A runner jumps at a 1.6 m block ahead and takes its ledge: the same whether the block stands
 * still or is a moving landmark standing there (never gathered: the scan asks its tree), and the
 * two runs end on the same bits. */
static gait_vec3 jump_at_block(bool moving, bool *traversed) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_landmark_id block = frame_box(w, (gait_vec3){0, 0, 4}, (gait_vec3){-3, 0, 0},
                                       (gait_vec3){3, 1.6, 3});
    if (moving)
        gait_collider_set_landmark_velocity(gait_world_collider(w), block, (gait_vec3){0, 0, 0},
                                            (gait_vec3){0, 0, 0});
    gait_character_id id = body_at(w, 0, 0, 0);
    *traversed = false;
    for (int k = 0; k < 150; k++) {
        bw_input(w, id, 0, 1, 0, k == 12 ? GAIT_BUTTON_JUMP : 0);
        gait_world_step(w);
        if (bw_info(w, id).phase.state == GAIT_STATE_TRAVERSE) *traversed = true;
    }
    gait_vec3 end = pos(w, id);
    gait_world_destroy(w);
    return end;
}

TEST(moving_a_block_that_moves_is_climbed_onto_like_one_that_stands) {
    bool still, moved;
    gait_vec3 a = jump_at_block(false, &still), b = jump_at_block(true, &moved);
    CHECK_MSG(still, "the standing block's ledge was not taken");
    CHECK_MSG(moved, "the moving block's ledge was not taken (the scan was skipped)");
    CHECK_MSG(memcmp(&a, &b, sizeof a) == 0, "the runs end apart: %.17g %.17g %.17g and %.17g "
              "%.17g %.17g", a.x, a.y, a.z, b.x, b.y, b.z);
}
