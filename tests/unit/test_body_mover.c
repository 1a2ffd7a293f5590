/* The mover the body and the benchmark share (gait/mover.h): a velocity in, a move out.
 * Its "open country" cache may only skip queries that would meet nothing: with the cache and
 * with it dropped before every step, the same motion gives the same bits. */
#include <string.h>

#include "gait/mover.h"
#include "body_fixtures.h"
#include "check.h"

static gait_world *field(void) { return bw_hills_field(12345u); }

static gait_vec3 v3i(int i) {
    gait_vec3 p = {-20 + 2.5 * (i % 4) * 4, 0, -20 + 10.0 * (i / 4)};
    p.y = bw_hills(p.x, p.z) + 0.5;
    return p;
}

typedef struct run_out { gait_vec3 feet[16]; int grounded; } run_out;

static void run(const gait_collider *c, bool drop_cache, run_out *out) {
    gait_mover m;
    gait_mover_init(&m, c, 0.3, 1.7, 0.3, 45 * M_PI / 180);
    gait_mover_state s[16];
    double vy[16];
    memset(s, 0, sizeof s);
    for (int i = 0; i < 16; i++) {
        s[i].feet = v3i(i);
        s[i].ground_normal.y = 1;
        vy[i] = 0;
    }
    out->grounded = 0;
    for (int k = 0; k < 600; k++) {
        for (int i = 0; i < 16; i++) {
            double a = 0.4 * i + 1.3 * (k / 120);
            if (s[i].grounded) vy[i] = 0;
            vy[i] -= 9.81 / 60;
            gait_vec3 v = {6 * cos(a), vy[i], 6 * sin(a)};
            if (drop_cache) memset(&s[i].cache, 0, sizeof s[i].cache);
            gait_mover_step(&m, &s[i], v, 1.0 / 60, NULL);
            out->grounded += s[i].grounded;
        }
    }
    for (int i = 0; i < 16; i++) out->feet[i] = s[i].feet;
}

TEST(body_mover_cache_changes_no_bit) {
    gait_world *w = field();
    run_out a, b;
    run(gait_world_collider_const(w), false, &a);
    run(gait_world_collider_const(w), true, &b);
    CHECK(memcmp(a.feet, b.feet, sizeof a.feet) == 0);
    CHECK_EQ_INT(a.grounded, b.grounded);
    CHECK(a.grounded > 16 * 600 * 8 / 10); /* mostly on the ground: the test walks, not flies */
    gait_world_destroy(w);
}

/* Flat ground and a mover of the provisional capsule (0.3 x 1.7 m, step 0.3 m, walkable 45 deg)
 * on it; the state zeroed. */
static gait_world *flat_mover(gait_mover *m, gait_mover_state *s) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_mover_init(m, gait_world_collider_const(w), 0.3, 1.7, 0.3, 45 * M_PI / 180);
    memset(s, 0, sizeof *s);
    return w;
}

TEST(body_mover_cache_drops_when_a_landmark_arrives) {
    gait_mover m;
    gait_mover_state s;
    gait_world *w = flat_mover(&m, &s);
    s.ground_normal.y = 1;
    s.grounded = true;
    gait_vec3 v = {0, 0, 3};
    for (int k = 0; k < 10; k++) gait_mover_step(&m, &s, v, 1.0 / 60, NULL); /* open country cached */
    CHECK(s.cache.valid);
    /* a wall streams in right ahead, inside the cached region */
    bw_box(w, -2, 0, s.feet.z + 0.45, 2, 2, s.feet.z + 1);
    double wall = s.feet.z + 0.45;
    for (int k = 0; k < 30; k++) gait_mover_step(&m, &s, v, 1.0 / 60, NULL);
    CHECK(s.feet.z <= wall - 0.3 + 1e-6);
    CHECK(s.feet.z > wall - 0.3 - 0.01);
    gait_world_destroy(w);
}

TEST(body_mover_walks_at_the_velocity_given) {
    gait_mover m;
    gait_mover_state s;
    gait_world *w = flat_mover(&m, &s);
    s.feet.y = 0.5;
    s.ground_normal.y = 1;
    double vy = 0;
    for (int k = 0; k < 120; k++) {
        if (s.grounded) vy = 0;
        vy -= 9.81 / 60;
        gait_vec3 v = {6, vy, 0};
        gait_mover_step(&m, &s, v, 1.0 / 60, NULL);
    }
    CHECK(s.grounded);
    CHECK_NEAR(s.feet.y, 0, 1e-12);
    CHECK_NEAR(s.feet.x, 12, 0.2); /* 2 s at 6 m/s, less the fall's first steps */
    gait_world_destroy(w);
}
