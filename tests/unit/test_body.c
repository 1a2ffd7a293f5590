/* The body on foot (docs/behaviour.md, "The body"): run speed, stairs, steps, slopes, ledges, jumps, steep landings,
 * ceilings, robustness (tiny triangles, corners, thin floors), determinism across frame rates.
 * Numbers are the provisional defaults (run 5.6 m/s, jump 1.2 m, gravity 20 m/s^2, step 0.3 m,
 * walkable 45 deg, capsule 0.3 x 1.7 m). Camera yaw 0: W moves along +z. */
#include <stdio.h>
#include <string.h>

#include "body_fixtures.h"
#include "check.h"

#define DT (1.0 / 60.0)

TEST(body_flat_run_speed_is_tuned) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 60);
    gait_character_info i = bw_info(w, id);
    CHECK_EQ_INT(i.phase.state, GAIT_STATE_RUN);
    /* 1 s at 5.6 m/s, +-1 % */
    CHECK_NEAR(i.position.z, 5.6, 0.056);
    CHECK_NEAR(i.velocity.z, 5.6, 0.056);
    CHECK_NEAR(i.position.x, 0, 1e-9);
    CHECK_NEAR(i.position.y, 0, 1e-9);
    CHECK(i.contact.grounded);
    gait_world_destroy(w);
}

TEST(body_stairs_of_a_quarter_metre_are_walked) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    for (int k = 0; k < 8; k++) bw_box(w, -2, 0, 2 + 0.3 * k, 2, 0.25 * (k + 1), 12);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    bw_input(w, id, 0, 1, 0, 0);
    bool climbed = false, fell = false;
    double prev_y = 0;
    bool monotonic = true;
    for (int s = 0; s < 90; s++) {
        gait_world_step(w);
        gait_character_info i = bw_info(w, id);
        if (i.phase.state == GAIT_STATE_CLIMB) climbed = true;
        if (i.phase.state == GAIT_STATE_FALL) fell = true;
        if (i.position.y < prev_y - 1e-9) monotonic = false;
        prev_y = i.position.y;
    }
    gait_character_info i = bw_info(w, id);
    CHECK(!climbed);
    CHECK(!fell);
    CHECK(monotonic);
    CHECK_NEAR(i.position.y, 2.0, 0.005); /* on the top tread */
    CHECK(i.position.z > 6.0);
    gait_world_destroy(w);
}

TEST(body_high_step_stops_then_is_climbed) {
    gait_world *w = bw_box_world(-3, 0, 2, 3, 0.6, 10);
    /* no stamina to climb: the 0.6 m step stops the body, which faces it as a wall */
    gait_character_id id = bw_spawn(w, 0, 0, 0, 0);
    gait_stamina_set_multiplier(gait_character_stamina(w, id), 100); /* 5 x 100: out of reach */
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 40);
    gait_character_info i = bw_info(w, id);
    CHECK(gait_state_on_foot(i.phase.state));
    CHECK_NEAR(i.position.y, 0, 1e-9);
    CHECK(i.position.z < 2.0 - 0.3 + 0.01);
    CHECK(i.position.z > 2.0 - 0.3 - 0.01);
    CHECK(i.contact.wall_ahead);
    gait_world_destroy(w);

    /* with stamina (>= 5) a continued push climbs it and stands on top */
    w = bw_world(NULL);
    bw_flat(w);
    bw_box(w, -3, 0, 2, 3, 0.6, 10);
    id = bw_spawn(w, 0, 0, 0, 100);
    bw_input(w, id, 0, 1, 0, 0);
    bool climbed = false;
    for (int s = 0; s < 120; s++) {
        gait_world_step(w);
        if (bw_info(w, id).phase.state == GAIT_STATE_CLIMB) climbed = true;
    }
    i = bw_info(w, id);
    CHECK(climbed);
    CHECK(gait_state_on_foot(i.phase.state));
    CHECK_NEAR(i.position.y, 0.6, 0.005);
    CHECK(i.position.z > 2.5);
    gait_world_destroy(w);
}

static double slope30(double x, double z) { (void)x; return z > 2 ? (z - 2) * tan(30 * M_PI / 180) : 0; }
static double slope60(double x, double z) { (void)x; return z > 2 ? (z - 2) * tan(60 * M_PI / 180) : 0; }

TEST(body_walks_a_30_degree_slope_and_stops_at_60) {
    gait_world *w = bw_world(NULL);
    bw_terrain(w, slope30, -16, -16, 64, 0.5);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    bw_input(w, id, 0, 1, 0, 0);
    bool left_ground = false;
    for (int s = 0; s < 120; s++) {
        gait_world_step(w);
        if (!bw_info(w, id).contact.grounded) left_ground = true;
    }
    gait_character_info i = bw_info(w, id);
    CHECK(!left_ground);
    CHECK_EQ_INT(i.phase.state, GAIT_STATE_RUN);
    CHECK_NEAR(i.position.y, slope30(i.position.x, i.position.z), 1e-6);
    CHECK(i.position.y > 3.0);
    gait_world_destroy(w);

    w = bw_world(NULL);
    bw_terrain(w, slope60, -16, -16, 64, 0.5);
    id = bw_spawn(w, 0, 0, 0, 0); /* no stamina: it cannot climb it either */
    gait_stamina_set_multiplier(gait_character_stamina(w, id), 100);
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 60);
    i = bw_info(w, id);
    CHECK(gait_state_on_foot(i.phase.state));
    CHECK(i.position.y < 0.1);
    CHECK(i.position.z < 2.1);
    CHECK(i.contact.wall_ahead);
    gait_world_destroy(w);
}

TEST(body_running_off_a_ledge_falls_and_lands) {
    gait_world *w = bw_box_world(-5, 0, -5, 5, 2, 5);
    gait_character_id id = bw_spawn(w, 0, 3, 0, 100);
    CHECK_NEAR(bw_info(w, id).position.y, 2.0, 0.005); /* stood on the box */
    bw_input(w, id, 0, 1, 0, 0);
    bool fell = false;
    for (int s = 0; s < 120; s++) {
        gait_world_step(w);
        if (bw_info(w, id).phase.state == GAIT_STATE_FALL) fell = true;
    }
    gait_character_info i = bw_info(w, id);
    CHECK(fell);
    CHECK(gait_state_on_foot(i.phase.state));
    CHECK_NEAR(i.position.y, 0, 1e-9);
    CHECK(i.position.z > 5.3);
    gait_world_destroy(w);
}

TEST(body_jump_apex_is_the_tuned_height) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_JUMP);
    double apex = 0;
    bool jumped = false, fell = false;
    for (int s = 0; s < 90; s++) {
        gait_world_step(w);
        bw_input(w, id, 0, 0, 0, 0);
        gait_character_info i = bw_info(w, id);
        if (i.position.y > apex) apex = i.position.y;
        if (i.phase.state == GAIT_STATE_JUMP) jumped = true;
        if (i.phase.state == GAIT_STATE_FALL) fell = true;
    }
    CHECK(jumped);
    CHECK(fell);
    CHECK_NEAR(apex, 1.2, 0.012); /* +-1 % */
    gait_character_info i = bw_info(w, id);
    CHECK_EQ_INT(i.phase.state, GAIT_STATE_IDLE);
    CHECK_NEAR(i.position.y, 0, 1e-9);
    gait_world_destroy(w);
}

static double steep_x(double x, double z) { (void)z; return -x * tan(60 * M_PI / 180); }

TEST(body_steep_landing_slides_down) {
    gait_world *w = bw_world(NULL);
    bw_terrain(w, steep_x, -16, -16, 64, 0.5);
    /* a box to stand on above the slope, then a step off it */
    bw_box(w, -3, 5.8, -1, -1.8, 6, 1);
    gait_character_id id = bw_spawn(w, -2.4, 7, 0, 100);
    CHECK_NEAR(bw_info(w, id).position.y, 6, 0.005);
    gait_character_set_camera_yaw(w, id, M_PI / 2); /* W moves along +x */
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 12);
    bw_input(w, id, 0, 0, 0, 0);
    bw_steps(w, 60);
    gait_character_info i = bw_info(w, id);
    CHECK(!gait_state_on_foot(i.phase.state));
    CHECK(i.position.x > 0.5);                               /* slid down the slope */
    CHECK_NEAR(i.position.y, steep_x(i.position.x, 0), 1e-6); /* on its surface */
    CHECK(i.velocity.x > 1.0);
    gait_world_destroy(w);
}

TEST(body_ceiling_stops_a_jump) {
    gait_world *w = bw_box_world(-3, 2.2, -3, 3, 3, 3);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_JUMP);
    double apex = 0;
    int rising_steps = 0;
    for (int s = 0; s < 60; s++) {
        gait_world_step(w);
        bw_input(w, id, 0, 0, 0, 0);
        gait_character_info i = bw_info(w, id);
        if (i.position.y > apex) apex = i.position.y;
        if (i.contact.rising) rising_steps++;
    }
    CHECK(apex <= 2.2 - 1.7 + 1e-6);
    CHECK(apex > 0.45);
    CHECK(rising_steps < 10); /* a free jump rises for ~20 steps */
    CHECK_NEAR(bw_info(w, id).position.y, 0, 1e-9);
    gait_world_destroy(w);
}

/* nu x nv squares of 5 cm (two triangles each) as one landmark at `offset`: u along x, v along
 * axis v_axis (2: a floor in xz facing +y; 1: a wall in xy facing -z). */
static gait_status add_tiny_grid(gait_world *w, int nu, int nv, int v_axis, gait_vec3 offset) {
    float *tris = malloc(sizeof(float) * 18 * (size_t)nu * (size_t)nv);
    int o = 0;
    for (int iv = 0; iv < nv; iv++)
        for (int iu = 0; iu < nu; iu++) {
            float u0 = iu * 0.05f, u1 = (iu + 1) * 0.05f, v0 = iv * 0.05f, v1 = (iv + 1) * 0.05f;
            const float uv[6][2] = {{u0, v0}, {u0, v1}, {u1, v1}, {u0, v0}, {u1, v1}, {u1, v0}};
            for (int k = 0; k < 6; k++, o += 3) {
                tris[o] = uv[k][0];
                tris[o + 1] = tris[o + 2] = 0;
                tris[o + v_axis] = uv[k][1];
            }
        }
    gait_mesh_def m;
    memset(&m, 0, sizeof m);
    m.positions = tris;
    m.vertex_count = nu * nv * 6;
    m.triangle_count = nu * nv * 2;
    m.offset = offset;
    gait_landmark_id lid;
    gait_status st = gait_collider_add_landmark(gait_world_collider(w), &m, &lid);
    free(tris);
    return st;
}

/* 10,000 triangles of 5 cm over a 5 x 2.5 m floor: the walk never lifts the feet (ghost bumps
 * on internal edges would). */
TEST(body_tiny_triangle_floor_has_no_bumps) {
    gait_world *w = bw_world(NULL);
    CHECK(add_tiny_grid(w, 100, 50, 2, (gait_vec3){-2.5, 1.0, -1.25}) == GAIT_OK); /* 5 x 2.5 m */
    gait_character_id id = bw_spawn(w, -2.0, 1.5, 0.013, 100);
    double y0 = bw_info(w, id).position.y;
    CHECK_NEAR(y0, 1.0, 0.003);
    gait_character_set_camera_yaw(w, id, M_PI / 2 - 0.1); /* across the grid, slightly diagonal */
    bw_input(w, id, 0, 1, 0, 0);
    double lo = y0, hi = y0;
    for (int s = 0; s < 40; s++) {
        gait_world_step(w);
        gait_character_info i = bw_info(w, id);
        CHECK(i.contact.grounded);
        if (i.position.y < lo) lo = i.position.y;
        if (i.position.y > hi) hi = i.position.y;
    }
    CHECK(hi - y0 <= 0.001);
    CHECK(y0 - lo <= 0.001);
    CHECK(bw_info(w, id).position.x > 1.0);
    gait_world_destroy(w);
}

TEST(body_standing_on_a_walkable_slope_does_not_slide) {
    gait_world *w = bw_world(NULL);
    bw_terrain(w, slope30, -16, -16, 64, 0.5);
    gait_character_id id = bw_spawn(w, 0, 5, 4, 100);
    gait_vec3 p0 = bw_info(w, id).position;
    bw_input(w, id, 0, 0, 0, 0);
    for (int s = 0; s < 120; s++) {
        gait_world_step(w);
        gait_character_info i = bw_info(w, id);
        CHECK(i.contact.grounded);
        CHECK_EQ_INT(i.phase.state, GAIT_STATE_IDLE);
    }
    gait_vec3 p = bw_info(w, id).position;
    CHECK(p.x == p0.x && p.y == p0.y && p.z == p0.z);
    gait_world_destroy(w);

    /* a walkable landmark ramp (a wedge of two triangles) too */
    w = bw_world(NULL);
    bw_flat(w);
    float t = (float)tan(30 * M_PI / 180);
    float ramp[18] = {-3, 0, 0, -3, 6 * t, 6, 3, 6 * t, 6, -3, 0, 0, 3, 6 * t, 6, 3, 0, 0};
    CHECK(add_named_tris(gait_world_collider(w), ramp, 2, (gait_vec3){0, 0, 0}, NULL).index1 != 0);
    id = bw_spawn(w, 0, 5, 3, 100);
    p0 = bw_info(w, id).position;
    /* the lower sphere rests on the plane: feet r (1 / cos 30 - 1) above it at the axis */
    CHECK_NEAR(p0.y, 3 * t + 0.3 * (1 / cos(30 * M_PI / 180) - 1), 0.003);
    bool flicker = false;
    for (int s = 0; s < 120; s++) {
        gait_world_step(w);
        if (!bw_info(w, id).contact.grounded) flicker = true;
    }
    p = bw_info(w, id).position;
    CHECK(!flicker);
    CHECK_NEAR(p.x, p0.x, 1e-9);
    CHECK_NEAR(p.y, p0.y, 1e-9);
    CHECK_NEAR(p.z, p0.z, 1e-9);
    gait_world_destroy(w);
}

/* Pushing into the acute corner of two walls at 30 deg: no jitter, no wedging, no escape. */
TEST(body_acute_corner_holds_still) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    /* two thin walls meeting at the origin in a V opening towards -z */
    double a = 15 * M_PI / 180;
    for (int side = -1; side <= 1; side += 2) {
        float L = 6, H = 3;
        float dx = (float)(side * sin(a)) * L, dz = (float)(-cos(a)) * L;
        float quad[18] = {0, 0, 0, dx, 0, dz, dx, H, dz, 0, 0, 0, dx, H, dz, 0, H, 0};
        add_named_tris(gait_world_collider(w), quad, 2, (gait_vec3){0, 0, 0}, NULL);
        /* and the back face, so the wall is closed from both sides */
        float back[18] = {0, 0, 0, dx, H, dz, dx, 0, dz, 0, 0, 0, 0, H, 0, dx, H, dz};
        add_named_tris(gait_world_collider(w), back, 2, (gait_vec3){0, 0, 0}, NULL);
    }
    gait_character_id id = bw_spawn(w, 0, 0, -4, 0);
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 90);
    gait_vec3 p0 = bw_info(w, id).position;
    double moved = 0;
    for (int s = 0; s < 30; s++) {
        gait_world_step(w);
        gait_vec3 p = bw_info(w, id).position;
        moved += fabs(p.x - p0.x) + fabs(p.z - p0.z) + fabs(p.y - p0.y);
        p0 = p;
    }
    gait_vec3 p = bw_info(w, id).position;
    CHECK(moved < 1e-3);
    CHECK(p.z < -0.3 / sin(a) + 0.05); /* the capsule's radius from both walls */
    CHECK(fabs(p.x) < 0.05);
    CHECK_NEAR(p.y, 0, 1e-9);
    gait_world_destroy(w);
}

/* ---- determinism ------------------------------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
    return h;
}

static gait_world *obstacle_course(gait_character_id *id) {
    gait_world *w = bw_world(NULL);
    bw_terrain(w, slope30, -32, -32, 128, 0.5);
    for (int k = 0; k < 4; k++) bw_box(w, -6, 0, -6 + 0.3 * k, 6, 0.2 * (k + 1), -2);
    bw_box(w, 2, 0, 3, 4, 3, 5);
    *id = bw_spawn(w, 0, 0, -10, 100);
    return w;
}

/* The same input, scripted in time (events on 1/6 s boundaries, whole frames at every rate),
 * played at a frame rate; returns the final info and a hash of every step's pose. */
static uint64_t play(double fps, gait_character_info *out) {
    gait_character_id id;
    gait_world *w = obstacle_course(&id);
    int frames = (int)(fps * 4.0 + 0.5);
    int per_sixth = (int)(fps / 6.0 + 0.5);
    uint64_t h = 1469598103934665603ull;
    for (int f = 0; f < frames; f++) {
        int sixth = f / per_sixth;
        bool edge = f % per_sixth == 0;
        double mx = sixth >= 12 && sixth < 16 ? 0.7 : 0;
        double my = sixth < 20 ? 1 : 0;
        uint32_t pressed = 0;
        if (edge && (sixth == 9 || sixth == 17)) pressed |= GAIT_BUTTON_JUMP;
        if (edge && sixth == 5) pressed |= GAIT_BUTTON_SPRINT;
        gait_input in;
        memset(&in, 0, sizeof in);
        in.move_x = mx;
        in.move_y = my;
        in.pressed = pressed;
        in.held = sixth >= 5 && sixth < 8 ? GAIT_BUTTON_SPRINT : 0;
        in.look_yaw = edge && sixth == 14 ? 0.5 : 0;
        gait_character_set_input(w, id, &in);
        int n = 0;
        gait_world_update(w, 1.0 / fps, &n);
        if (n > 0) {
            gait_character_info i = bw_info(w, id);
            h = fnv(h, &i.position, sizeof i.position);
        }
    }
    *out = bw_info(w, id);
    gait_world_destroy(w);
    return h;
}

TEST(body_same_path_at_30_60_144_240_fps) {
    gait_character_info ref, got;
    play(60, &ref);
    CHECK(ref.steps == 240);
    CHECK(ref.position.z > 0);
    static const double rates[] = {30, 144, 240};
    for (int r = 0; r < 3; r++) {
        play(rates[r], &got);
        CHECK_MSG(got.steps == ref.steps, "%g fps: %llu steps", rates[r], (unsigned long long)got.steps);
        CHECK_MSG(memcmp(&got.position, &ref.position, sizeof ref.position) == 0 &&
                      memcmp(&got.velocity, &ref.velocity, sizeof ref.velocity) == 0 &&
                      got.stamina == ref.stamina && got.phase.state == ref.phase.state,
                  "%g fps ends at (%.17g %.17g %.17g), 60 fps at (%.17g %.17g %.17g)", rates[r],
                  got.position.x, got.position.y, got.position.z, ref.position.x, ref.position.y,
                  ref.position.z);
    }
}

TEST(body_two_runs_give_the_same_trace_hash) {
    gait_character_info a, b;
    uint64_t h1 = play(60, &a), h2 = play(60, &b);
    CHECK(h1 == h2);
}

TEST(body_step_allocates_nothing) {
    alloc_count cnt;
    gait_world *w = bw_world(&cnt);
    bw_flat(w);
    bw_box(w, -3, 0, 2, 3, 0.6, 10);
    bw_box(w, -3, 0, -8, 3, 3, -6);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    long before = cnt.allocs;
    bw_input(w, id, 0.3, 1, 0, GAIT_BUTTON_JUMP);
    bw_steps(w, 200);
    bw_input(w, id, 0, -1, 0, 0);
    bw_steps(w, 200);
    CHECK_EQ_INT(cnt.allocs, before);
    gait_world_destroy(w);
}

/* At dash speed (11 m/s, 0.18 m a step) a wall 1 cm thick still stops the body: it is swept,
 * never stepped through. */
TEST(body_dash_does_not_tunnel_a_thin_wall) {
    gait_world *w = bw_box_world(-3, 0, 3.0, 3, 3, 3.01);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    gait_stamina_set_multiplier(gait_character_stamina(w, id), 0.01); /* cheap dashes */
    for (int k = 0; k < 6; k++) {
        bw_input(w, id, 0, 1, GAIT_BUTTON_SPRINT, GAIT_BUTTON_SPRINT);
        bw_steps(w, 10);
    }
    gait_character_info i = bw_info(w, id);
    CHECK(i.position.z < 3.0 - 0.3 + 1e-6);
    CHECK(i.position.z > 3.0 - 0.3 - 0.01);
    gait_world_destroy(w);
}

/* Standing in the inside corner of two walls after pushing into it: grounded every step, still. */
TEST(body_stands_in_a_corner_without_flicker) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    bw_box(w, -3, 0, 2, 3, 3, 3);   /* wall ahead (+z) */
    bw_box(w, 2, 0, -3, 3, 3, 3);   /* wall to the left (+x) */
    gait_character_id id = bw_spawn(w, 0, 0, 0, 0);
    gait_stamina_set_multiplier(gait_character_stamina(w, id), 100); /* no climbing */
    gait_character_set_camera_yaw(w, id, M_PI / 4);                  /* into the corner */
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 60);
    gait_vec3 p0 = bw_info(w, id).position;
    CHECK_NEAR(p0.x, 2 - 0.3, 0.01);
    CHECK_NEAR(p0.z, 2 - 0.3, 0.01);
    bool flicker = false;
    for (int k = 0; k < 60; k++) {
        gait_world_step(w);
        if (!bw_info(w, id).contact.grounded) flicker = true;
    }
    gait_vec3 p1 = bw_info(w, id).position;
    CHECK(!flicker);
    CHECK_NEAR(p1.x, p0.x, 1e-6);
    CHECK_NEAR(p1.z, p0.z, 1e-6);
    bw_input(w, id, 0, 0, 0, 0);
    for (int k = 0; k < 60; k++) {
        gait_world_step(w);
        if (!bw_info(w, id).contact.grounded) flicker = true;
    }
    gait_vec3 p2 = bw_info(w, id).position;
    CHECK(!flicker);
    CHECK(p2.x == p1.x && p2.y == p1.y && p2.z == p1.z);
    gait_world_destroy(w);
}

/* Stairs of 0.25 m walked, run and dashed up: each speed ends on the top tread, none climbs. */
TEST(body_stairs_at_every_speed) {
    static const double speeds[3] = {0.3, 1.0, 1.0};
    for (int v = 0; v < 3; v++) {
        gait_world *w = bw_world(NULL);
        bw_flat(w);
        for (int k = 0; k < 8; k++) bw_box(w, -2, 0, 2 + 0.3 * k, 2, 0.25 * (k + 1), 14);
        gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
        gait_stamina_set_multiplier(gait_character_stamina(w, id), 0.01);
        bool climbed = false;
        for (int s = 0; s < 240; s++) {
            uint32_t sprint = v == 2 && s % 20 == 0 ? GAIT_BUTTON_SPRINT : 0;
            bw_input(w, id, 0, speeds[v], v == 2 ? GAIT_BUTTON_SPRINT : 0, sprint);
            gait_world_step(w);
            if (bw_info(w, id).phase.state == GAIT_STATE_CLIMB) climbed = true;
            if (bw_info(w, id).position.z > 6) break;
        }
        gait_character_info i = bw_info(w, id);
        CHECK_MSG(!climbed, "speed case %d climbed", v);
        CHECK_MSG(fabs(i.position.y - 2.0) < 0.005 && i.position.z > 4.7,
                  "speed case %d ends at y %.4f z %.3f", v, i.position.y, i.position.z);
        gait_world_destroy(w);
    }
}

/* Sliding along a wall of 9,600 triangles of 5 cm: the internal edges never push the body out
 * (no ghost bumps sideways either). */
TEST(body_slides_along_a_tiny_triangle_wall_without_bumps) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    /* facing -z (towards the body): counter-clockwise seen from -z */
    CHECK(add_tiny_grid(w, 120, 40, 1, (gait_vec3){-3, 0, 2}) == GAIT_OK); /* 6 x 2 m */
    gait_character_id id = bw_spawn(w, -2.5, 0, 1.5, 0);
    gait_stamina_set_multiplier(gait_character_stamina(w, id), 100); /* no climbing */
    gait_character_set_camera_yaw(w, id, 0.5); /* 29 deg off the wall's normal, towards +x */
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 15);
    double lo = 1e9, hi = -1e9;
    for (int k = 0; k < 40; k++) {
        gait_world_step(w);
        gait_character_info i = bw_info(w, id);
        if (i.position.z < lo) lo = i.position.z;
        if (i.position.z > hi) hi = i.position.z;
        CHECK(i.contact.grounded);
    }
    CHECK(hi - lo <= 0.001);
    CHECK(hi <= 2 - 0.3 + 1e-6);
    CHECK(bw_info(w, id).position.x > -1.0); /* it slid along (2.7 m/s of the run along x) */
    gait_world_destroy(w);
}

/* A body created or placed inside closed geometry (a solid box: faces counter-clockwise seen
 * from outside) comes out to the nearest free space beside it; where none is free (the box is
 * itself inside a bigger solid) it is refused, with a message, and a place changes nothing. A
 * body in a room (the same box turned inside out: its faces seen from inside) stays in it. */
TEST(body_created_inside_a_solid_is_moved_out_or_refused) {
    gait_world *w = bw_box_world(-2, 0, -2, 2, 4, 2);
    gait_character_id id = bw_spawn(w, 0.5, 1, 0, 100);
    CHECK(gait_character_valid(w, id));
    gait_character_info i = bw_info(w, id);
    /* the nearest way out: through the +x face (1.5 m), by the radius and 1 cm */
    CHECK_NEAR(i.position.x, 2.31, 1e-9);
    CHECK_NEAR(i.position.z, 0, 1e-9);
    CHECK(i.position.y < 0.01);
    /* a solid inside a solid: every way out of the inner one is inside the outer */
    bw_box(w, 10, 0, 10, 12, 2.5, 12);
    bw_box(w, 9.4, -0.5, 9.4, 12.6, 4, 12.6);
    gait_character_def cd = gait_default_character_def();
    cd.position.x = 11;
    cd.position.y = 0.2;
    cd.position.z = 11;
    gait_character_id bad = {0, 0};
    CHECK(gait_character_create(w, &cd, &bad) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gait_world_last_error(w), "inside closed geometry") != NULL);
    gait_vec3 at = {11, 0.2, 11};
    CHECK(gait_character_place(w, id, at, 0) == GAIT_ERR_INVALID_ARGUMENT);
    gait_character_info j = bw_info(w, id);
    CHECK(memcmp(&j.position, &i.position, sizeof j.position) == 0); /* nothing changed */
    gait_world_destroy(w);
}

TEST(body_created_in_a_room_stays_in_it) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    /* a 6 m room: the outward box's triangles, each turned (two corners swapped) to face in */
    const float lo[3] = {-3, 0, -3}, hi[3] = {3, 3, 3};
    float v[36 * 3];
    box_tris(v, lo, hi);
    for (int t = 0; t < 12; t++)
        for (int k = 0; k < 3; k++) {
            float s = v[t * 9 + 3 + k];
            v[t * 9 + 3 + k] = v[t * 9 + 6 + k];
            v[t * 9 + 6 + k] = s;
        }
    gait_mesh_def md;
    memset(&md, 0, sizeof md);
    md.positions = v;
    md.vertex_count = 36;
    md.triangle_count = 12;
    CHECK(gait_collider_add_landmark(gait_world_collider(w), &md, NULL) == GAIT_OK);
    gait_character_id id = bw_spawn(w, 0.5, 0.5, 0, 100);
    gait_character_info i = bw_info(w, id);
    CHECK_NEAR(i.position.x, 0.5, 1e-12);
    CHECK_NEAR(i.position.z, 0, 1e-12);
    CHECK_MSG(i.position.y >= 0 && i.position.y < 0.01, "feet %.4f on the room's floor", i.position.y);
    gait_world_destroy(w);
}
