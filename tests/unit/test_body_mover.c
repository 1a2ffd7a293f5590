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

static double v3_len_(gait_vec3 v) { return sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

/* Fills the stack below the caller with a pattern, so a local left unset by the next call reads
 * it (0x7F bytes: a double of about 1.4e306) rather than whatever a luckier run left there. */
__attribute__((noinline)) static void poison_stack(void) {
    volatile unsigned char junk[8192];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = 0x7F;
}

/* A fly that the terrain lifts under a ceiling, from a start past the terrain's edge: the move
 * goes back to the start, where there is no terrain to read a normal from. The normals it reports
 * are unit (the start's ground is taken as flat, as everywhere off the terrain's edge); the one
 * left unset once became a wall normal of (-7.2, 0, 0) in a character's state, refused by its
 * snapshot's check (tests/fuzz/fuzz_body.c, seed 797090202). */
TEST(body_mover_fly_back_past_the_terrain_edge_reports_unit_normals) {
    gait_world *w = bw_world(NULL);
    bw_terrain(w, bw_flat0, 0, -8, 16, 1.0); /* x from 0: the start at x = -0.2 is off it */
    gait_collider *c = gait_world_collider(w);
    bw_box(w, -2, 1.3, -2, 2, 1.6, 2); /* a slab over the edge, 1.3 m up */
    /* the feet start 0.5 m below the terrain's height: over it the terrain lifts them, and the
     * 1.7 m capsule's top, at 1.2 m, has no room to rise 0.5 m under the slab */
    gait_mover m;
    gait_mover_init(&m, c, 0.3, 1.7, 0.3, 45 * M_PI / 180);
    gait_vec3 feet = {-0.2, -0.5, 0};
    gait_move_result r;
    poison_stack();
    gait_mover_fly(&m, &feet, (gait_vec3){0.5, 0, 0}, (gait_vec3){30, 0, 0}, NULL, &r);
    CHECK_NEAR(feet.x, -0.2, 1e-12); /* back at the start: the lift had no room */
    if (r.wall) CHECK_NEAR(v3_len_(r.wall_normal), 1, 1e-9);
    if (r.grounded || r.steep) CHECK_NEAR(v3_len_(r.ground_normal), 1, 1e-9);
    CHECK(r.grounded || r.wall);
    gait_world_destroy(w);
}

/* A slope too steep to stand on (60 deg) rising along +z from z = 0: as the terrain, or as a
 * landmark mesh over flat terrain. */
static double steep60(double x, double z) { (void)x; return z > 0 ? z * tan(60 * M_PI / 180) : 0; }

/* A falling body driven into a too-steep face at a dash's speed slides down it; the face never
 * turns the horizontal speed into a climb (as a bounce up a frictionless slope would): the
 * velocity the fly leaves has no rise, and the feet never end higher than they started. */
static void check_no_ride_up(bool terrain) {
    gait_world *w = bw_world(NULL);
    if (terrain) {
        bw_terrain(w, steep60, -16, -16, 64, 0.5);
    } else {
        bw_flat(w);
        gait_collider *c = gait_world_collider(w);
        double t = tan(60 * M_PI / 180);
        float v[18] = {-20, 0, 0, 20, 0, 0, 20, (float)(20 * t), 20,
                       -20, 0, 0, 20, (float)(20 * t), 20, -20, (float)(20 * t), 20};
        gait_mesh_def md;
        memset(&md, 0, sizeof md);
        md.positions = v;
        md.vertex_count = 6;
        md.triangle_count = 2;
        CHECK(gait_collider_add_landmark(c, &md, NULL) == GAIT_OK);
    }
    gait_mover m;
    gait_mover_init(&m, gait_world_collider_const(w), 0.3, 1.7, 0.3, 45 * M_PI / 180);
    /* falling at 2 m/s, dashing at 11 m/s into the face, from 1 m out and 6 m up it */
    gait_vec3 feet = {0, 6, 6 / tan(60 * M_PI / 180) - 1.0};
    gait_vec3 vel = {0, -2, 11};
    double top = feet.y;
    for (int k = 0; k < 30; k++) {
        gait_move_result r;
        gait_vec3 start = feet;
        gait_vec3 d = {vel.x / 60, vel.y / 60, vel.z / 60};
        gait_mover_fly(&m, &feet, d, vel, NULL, &r);
        gait_mover_settle(&m, start, &feet, r.touched, vel.y <= 0, &r, &vel);
        CHECK_MSG(r.vel.y <= 1e-9, "%s, step %d: the face left a rise of %.3f m/s",
                  terrain ? "terrain" : "mesh", k, r.vel.y);
        vel = r.vel;
        vel.y -= 20.0 / 60; /* gravity */
        if (feet.y > top) top = feet.y;
    }
    CHECK_MSG(top <= 6 + 1e-9, "%s: the feet rose to %.3f m from 6", terrain ? "terrain" : "mesh", top);
    gait_world_destroy(w);
}

TEST(body_mover_a_dash_into_a_steep_terrain_face_does_not_ride_up_it) { check_no_ride_up(true); }
TEST(body_mover_a_dash_into_a_steep_mesh_face_does_not_ride_up_it) { check_no_ride_up(false); }

/* A level with no terrain (the held walk's memo answers only there, gait_mover_held): a floor
 * slab, a wall with its face at z = 6 and one at x = 6 (a corner where they meet), a riser
 * 0.5 m tall (too tall to step) with its face at z = -6. */
static gait_world *walled_floor(gait_landmark_id *wall) {
    gait_world *w = bw_world(NULL);
    bw_box(w, -20, -1, -20, 20, 0, 20);
    *wall = bw_box(w, -10, 0, 6, 10, 3, 7);
    bw_box(w, 6, 0, -10, 7, 3, 6);
    bw_box(w, -10, 0, -7, 10, 0.5, -6);
    return w;
}

typedef struct held_out { gait_vec3 feet[16]; gait_move_result last[16]; int held, grounded; } held_out;

/* 16 walkers at 6 m/s: into the wall (+z), into the corner, into the riser (-z), and at a
 * slant along the wall (a slide, never held); at step 300 the wall goes, and the walkers held
 * by it walk on. drop: the cache zeroed before every step (no memo). */
static void held_run(bool drop, held_out *out) {
    gait_landmark_id wall;
    gait_world *w = walled_floor(&wall);
    const gait_collider *c = gait_world_collider_const(w);
    gait_mover m;
    gait_mover_init(&m, c, 0.3, 1.7, 0.3, 45 * M_PI / 180);
    gait_mover_state s[16];
    double vy[16];
    memset(s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    static const double dir[4][2] = {{0, 1}, {0.7071067811865476, 0.7071067811865476}, {0, -1}, {0.5, 1}};
    for (int i = 0; i < 16; i++) {
        s[i].feet = (gait_vec3){-8 + i, 0, (i % 4 == 2) ? -3 : 3};
        s[i].ground_normal.y = 1;
        s[i].grounded = true;
        vy[i] = 0;
    }
    for (int k = 0; k < 600; k++) {
        if (k == 300) gait_collider_remove_landmark(gait_world_collider(w), wall);
        for (int i = 0; i < 16; i++) {
            if (s[i].grounded) vy[i] = 0;
            vy[i] -= 9.81 / 60;
            gait_vec3 v = {6 * dir[i % 4][0], vy[i], 6 * dir[i % 4][1]};
            if (drop) memset(&s[i].cache, 0, sizeof s[i].cache);
            gait_vec3 before = s[i].feet;
            gait_mover_step(&m, &s[i], v, 1.0 / 60, &out->last[i]);
            out->held += memcmp(&before, &s[i].feet, sizeof before) == 0;
            out->grounded += s[i].grounded;
        }
    }
    for (int i = 0; i < 16; i++) out->feet[i] = s[i].feet;
    gait_world_destroy(w);
}

/* Every field of two results alike, doubles by their bits (a struct's padding is no field). */
static bool same_result(const gait_move_result *a, const gait_move_result *b) {
#define SAME(f) (memcmp(&a->f, &b->f, sizeof a->f) == 0)
    return SAME(grounded) && SAME(ground_normal) && SAME(ground_height) && SAME(steep) && SAME(wall) &&
           SAME(wall_normal) && SAME(wall_terrain) && SAME(ceiling) && SAME(touched) && SAME(vel) &&
           SAME(ground_landmark) && SAME(wall_landmark);
#undef SAME
}

TEST(body_mover_a_held_walk_is_answered_as_if_asked) {
    static held_out a, b;
    held_run(false, &a);
    held_run(true, &b);
    CHECK(memcmp(a.feet, b.feet, sizeof a.feet) == 0);
    for (int i = 0; i < 16; i++) CHECK(same_result(&a.last[i], &b.last[i]));
    CHECK_EQ_INT(a.held, b.held);
    CHECK_EQ_INT(a.grounded, b.grounded);
    /* walkers stood held for most of the run (the wall, the corner, the riser: 12 of the 16
     * from about the first second to step 300, the riser's to the end), so the memo answered */
    CHECK(a.held > 12 * 200);
    /* and with the wall gone its walkers went on past where it stood */
    CHECK(a.feet[0].z > 8);
}
