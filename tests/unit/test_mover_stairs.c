/* The mover alone (gait/mover.h's gait_mover_step, driven as the meadow benchmark drives it:
 * vertical velocity reset while grounded, gravity added, a run's speed along a heading) on stairs
 * along a wall: 0.25 m risers and 0.75 m treads to a 2 m landing, a wall along their -x side.
 * Headed up the stairs and turned into the wall by 10, 24 and 45 deg, the capsule slides along
 * the wall and steps up every riser (the step height is 0.3 m), as it does running parallel to
 * the wall; today it stops at the first riser for good. */
#include <string.h>

#include "body_fixtures.h"
#include "check.h"
#include "gait/mover.h"

#define RISE 0.25
#define TREAD 0.75
#define STEPS 8

static gait_world *stairs(void) {
    gait_world *w = bw_box_world(-3, 0, -2, -1.5, 10, 20); /* the wall: its face at x = -1.5 */
    for (int i = 0; i < STEPS; i++) bw_box(w, -1.5, 0, 2 + i * TREAD, 1.5, (i + 1) * RISE, 20);
    return w;
}

/* 3 s at 60 steps/s from beside the wall (5 cm off it), heading up the stairs turned `deg` into
 * the wall; returns the feet and, in *risers, how many risers the feet rose past */
static gait_vec3 run(double deg, int *risers) {
    gait_world *w = stairs();
    gait_mover m;
    /* the provisional capsule (radius 0.3, height 1.7), step 0.3 m, walkable 45 deg */
    gait_mover_init(&m, gait_world_collider_const(w), 0.3, 1.7, 0.3, 45 * M_PI / 180);
    gait_mover_state s;
    memset(&s, 0, sizeof s);
    s.feet.x = -1.15;
    s.ground_normal.y = 1;
    s.grounded = true;
    double a = deg * M_PI / 180, vy = 0, top = 0;
    for (int k = 0; k < 180; k++) {
        if (s.grounded) vy = 0;
        vy -= 20.0 / 60; /* gravity 20 m/s^2 (the provisional numbers') */
        gait_vec3 v = {-5.6 * sin(a), vy, 5.6 * cos(a)}; /* run speed, turned towards -x */
        gait_mover_step(&m, &s, v, 1.0 / 60, NULL);
        if (s.feet.y > top) top = s.feet.y;
    }
    *risers = (int)floor(top / RISE + 1e-6);
    gait_world_destroy(w);
    return s.feet;
}

static void check_angle(double deg) {
    int risers = 0;
    gait_vec3 f = run(deg, &risers);
    CHECK_MSG(risers == STEPS, "%.0f deg into the wall: the feet rose past %d of the %d risers "
              "(feet %.3f %.3f %.3f)", deg, risers, STEPS, f.x, f.y, f.z);
    CHECK_NEAR(f.y, STEPS * RISE, 0.01);
    CHECK_MSG(f.z > 2 + STEPS * TREAD + 0.3, "%.0f deg: up onto the landing, z %.3f", deg, f.z);
}

TEST(mover_steps_up_stairs_sliding_along_a_wall_at_10_deg) { check_angle(10); }
TEST(mover_steps_up_stairs_sliding_along_a_wall_at_24_deg) { check_angle(24); }
TEST(mover_steps_up_stairs_sliding_along_a_wall_at_45_deg) { check_angle(45); }
