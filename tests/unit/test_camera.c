/* The follow camera (docs/behaviour.md, "Camera") and the floating origin. */
#include "check.h"

#include <math.h>
#include <string.h>

#include "gait/gait.h"

/* A closed box of 12 triangles: [x0,x1] x [y0,y1] x [z0,z1], faces out. */
static int box_triangles(float *p, double x0, double y0, double z0, double x1, double y1, double z1) {
    const float v[8][3] = {
        {(float)x0, (float)y0, (float)z0}, {(float)x1, (float)y0, (float)z0},
        {(float)x1, (float)y1, (float)z0}, {(float)x0, (float)y1, (float)z0},
        {(float)x0, (float)y0, (float)z1}, {(float)x1, (float)y0, (float)z1},
        {(float)x1, (float)y1, (float)z1}, {(float)x0, (float)y1, (float)z1},
    };
    static const int f[12][3] = {
        {0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
        {3, 7, 6}, {3, 6, 2}, {0, 4, 7}, {0, 7, 3}, {1, 2, 6}, {1, 6, 5},
    };
    for (int t = 0; t < 12; t++)
        for (int k = 0; k < 3; k++) memcpy(p + t * 9 + k * 3, v[f[t][k]], sizeof v[0]);
    return 12;
}

static gait_collider *walls_world(void) {
    gait_collider_def cd = gait_default_collider_def();
    gait_collider *c = gait_collider_create(&cd);
    float heights[64 * 64];
    for (int i = 0; i < 64 * 64; i++) heights[i] = 0;
    gait_heightfield_def hf = {64, 64, 1.0, {-32, 0, -32}, heights};
    gait_collider_set_terrain(c, &hf);
    /* walls of several thicknesses and a low roof, around the origin */
    static const double boxes[][6] = {
        {-10, 0, 3, 10, 6, 3.4},     /* a wall across +z */
        {3, 0, -10, 3.1, 6, 10},     /* a thin wall across +x */
        {-10, 0, -6, 10, 6, -5},     /* a thick wall across -z */
        {-8, 3.5, -4, -2, 3.7, 2},   /* a thin roof */
        {-4, 0, -2, -3.5, 2, 1},     /* a post */
    };
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++) {
        float tri[12 * 9];
        int n = box_triangles(tri, boxes[b][0], boxes[b][1], boxes[b][2], boxes[b][3], boxes[b][4],
                              boxes[b][5]);
        gait_mesh_def md = {.positions = tri, .vertex_count = n * 3, .indices = NULL,
                            .triangle_count = n, .offset = {0, 0, 0}, .name = "wall"};
        gait_landmark_id id;
        gait_collider_add_landmark(c, &md, &id);
    }
    return c;
}

static double rnd(uint32_t *seed) {
    *seed = *seed * 1664525u + 1013904223u;
    return *seed / 4294967296.0;
}

static bool eye_inside(const gait_collider *c, gait_vec3 eye, double r) {
    gait_capsule cap = {eye, eye, r};
    gait_contact_point pts[8];
    return gait_collider_capsule_overlap(c, &cap, NULL, pts, 8, NULL) > 0;
}

TEST(camera_after_place_stands_level_behind) {
    gait_camera cam;
    gait_camera_def d = gait_default_camera_def();
    gait_camera_init(&cam, &d);
    gait_camera_look(&cam, 0.3, 0.5, 2); /* whatever it did before */
    gait_vec3 feet = {10, 2, -4};
    double yaw = 0.7;
    gait_camera_behind(&cam, NULL, feet, yaw, NULL);
    CHECK_NEAR(cam.pitch, 0, 0);
    CHECK_NEAR(cam.yaw, yaw, 1e-12);
    CHECK_NEAR(cam.eye.y, feet.y + d.pivot_height, 1e-9);
    CHECK_NEAR(cam.eye.x, feet.x - sin(yaw) * cam.distance, 1e-9);
    CHECK_NEAR(cam.eye.z, feet.z - cos(yaw) * cam.distance, 1e-9);
}

TEST(camera_look_clamps_pitch_and_zoom) {
    gait_camera cam;
    gait_camera_def d = gait_default_camera_def();
    gait_camera_init(&cam, &d);
    gait_camera_look(&cam, 0, 10, 100);
    CHECK_NEAR(cam.pitch, d.max_pitch, 0);
    CHECK_NEAR(cam.distance, d.max_distance, 0);
    gait_camera_look(&cam, 0, -10, -100);
    CHECK_NEAR(cam.pitch, d.min_pitch, 0);
    CHECK_NEAR(cam.distance, d.min_distance, 0);
    gait_camera_look(&cam, NAN, NAN, NAN); /* ignored */
    CHECK_NEAR(cam.pitch, d.min_pitch, 0);
    gait_camera_def bad = d;
    bad.min_distance = 0.1; /* not more than the probe radius */
    CHECK_EQ_INT(gait_camera_init(&cam, &bad), GAIT_ERR_INVALID_ARGUMENT);
}

TEST(camera_eye_never_inside_geometry_10000_poses) {
    gait_collider *c = walls_world();
    gait_camera_def d = gait_default_camera_def();
    uint32_t seed = 12345;
#define RND() rnd(&seed)
    int inside = 0, blocked = 0;
    for (int i = 0; i < 10000; i++) {
        gait_camera cam;
        gait_camera_init(&cam, &d);
        /* a body somewhere near the walls, standing clear of them */
        double fx = RND() * 12 - 6, fz = RND() * 12 - 6;
        gait_vec3 feet = {fx, 0, fz};
        gait_capsule body = {{feet.x, feet.y + 0.31, feet.z}, {feet.x, feet.y + 1.39, feet.z}, 0.3};
        gait_contact_point pts[8];
        if (gait_collider_capsule_overlap(c, &body, NULL, pts, 8, NULL) > 0) continue;
        if (feet.x > -8.3 && feet.x < -1.7 && feet.z > -4.3 && feet.z < 2.3) continue; /* under the roof: too low */
        double ly = RND() * 6.3, lp = RND() * 2.4 - 1.2, lz = RND() * 11 - 5;
        gait_camera_look(&cam, ly, lp, lz);
        gait_camera_follow(&cam, c, feet, 1.0 / 60.0, NULL);
        /* and a few frames of motion after it */
        for (int k = 0; k < 3; k++) {
            double dy = RND() * 0.4 - 0.2, dp = RND() * 0.2 - 0.1;
            gait_camera_look(&cam, dy, dp, 0);
            gait_camera_follow(&cam, c, feet, 1.0 / 60.0, NULL);
        }
        if (cam.blocked) blocked++;
        if (eye_inside(c, cam.eye, d.probe_radius * 0.9)) {
            if (inside < 3)
                printf("  eye inside at feet (%g, %g) yaw %g pitch %g arm %g\n", feet.x, feet.z,
                       cam.yaw, cam.pitch, cam.arm);
            inside++;
        }
    }
#undef RND
    CHECK_EQ_INT(inside, 0);
    CHECK_MSG(blocked > 1000, "only %d of the poses were blocked: the test does not reach walls", blocked);
    gait_collider_destroy(c);
}

TEST(camera_pulls_in_and_eases_back_out_within_its_time) {
    gait_collider *c = walls_world();
    gait_camera_def d = gait_default_camera_def();
    d.follow_seconds = 0; /* a rigid pivot, so the arm's length is the ease's alone */
    gait_camera cam;
    gait_camera_init(&cam, &d);
    /* body 1 m in front of the +z wall, camera looking at the wall from behind the body's back:
     * yaw pi looks along -z, so the arm reaches +z, into the wall */
    gait_vec3 feet = {0, 0, 2};
    gait_camera_behind(&cam, c, feet, M_PI, NULL);
    CHECK(cam.blocked);
    CHECK(cam.arm < 1.2);
    /* walk away from the wall: clear; the arm eases out to full length within ease_out_seconds */
    gait_vec3 away = {0, 0, -2.5}; /* the eye then stands at z 2.0, clear of the wall at 3 */
    double t = 0;
    const double dt = 1.0 / 60.0;
    while (t < d.ease_out_seconds + 2 * dt) {
        gait_camera_follow(&cam, c, away, dt, NULL);
        t += dt;
    }
    CHECK(!cam.blocked);
    CHECK_NEAR(cam.arm, cam.distance, 1e-9);
    gait_collider_destroy(c);
}

TEST(floating_origin_at_50_km_has_no_jitter) {
    gait_floating_origin fo;
    gait_floating_origin_init(&fo, 256);
    /* a body walking 1.5 mm a frame 50 km from the origin, its camera 4.0371 m behind: drawn
     * with the origin, every frame's move and the body-camera offset stay exact to 10 um;
     * drawn in world floats (3.9 mm apart out there) the body stalls and jumps */
    double worst_with = 0, worst_without = 0, worst_rel = 0;
    float last_b[3] = {0}, last_w = 0;
    for (int i = 0; i < 1000; i++) {
        gait_vec3 body = {50000.0 + i * 0.0015, 12.25, -50000.0 + i * 0.0007};
        gait_vec3 eye = {body.x - 4.0371, body.y + 1.5, body.z};
        bool shifted = gait_floating_origin_update(&fo, eye);
        float b[3], e[3];
        gait_floating_origin_apply(&fo, body, b);
        gait_floating_origin_apply(&fo, eye, e);
        worst_rel = fmax(worst_rel, fabs(((double)b[0] - (double)e[0]) - 4.0371));
        float w = (float)body.x;
        if (i > 0 && !shifted) {
            worst_with = fmax(worst_with, fabs(((double)b[0] - (double)last_b[0]) - 0.0015));
            worst_without = fmax(worst_without, fabs(((double)w - (double)last_w) - 0.0015));
        }
        memcpy(last_b, b, sizeof b);
        last_w = w;
    }
    CHECK_MSG(worst_with < 1e-5, "a frame's move erred %g m with the origin", worst_with);
    CHECK_MSG(worst_rel < 1e-5, "the body-camera offset erred %g m with the origin", worst_rel);
    CHECK_MSG(worst_without > 1e-3, "the test cannot fail: world floats erred only %g m", worst_without);
    CHECK(fo.shifts >= 1);
    CHECK(fabs(fo.origin.x - 49996.0) <= 256); /* snapped near the camera */
}

/* A lake in c: terrain 5 m under a water surface at y = 0 over [-32, 32]^2. */
static void lake(gait_collider *c) {
    float heights[64 * 64];
    for (int i = 0; i < 64 * 64; i++) heights[i] = -5;
    gait_heightfield_def hf = {64, 64, 1.0, {-32, 0, -32}, heights};
    gait_collider_set_terrain(c, &hf);
    gait_water_region r = {-32, -32, 32, 32, 0};
    gait_collider_add_water(c, &r, NULL);
}

static gait_collider *lake_world(void) {
    gait_collider_def cd = gait_default_collider_def();
    gait_collider *c = gait_collider_create(&cd);
    lake(c);
    return c;
}

/* A swimmer floats with its feet 1.2 m under the surface (the wading depth), its axis 0.3 m above
 * it. Looking up swings the arm down behind and below the pivot: the eye stays above the surface
 * by the probe's radius, on the arm's own line (the view keeps its direction; the arm is shorter),
 * at every pitch and yaw. */
TEST(camera_eye_stays_above_the_water_when_a_swimmer_looks_up) {
    gait_collider *c = lake_world();
    gait_camera_def d = gait_default_camera_def();
    gait_vec3 feet = {0, -1.2, 0};
    double lowest = INFINITY, worst_line = 0;
    int shortened = 0;
    for (int i = 0; i <= 40; i++) {
        gait_camera cam;
        gait_camera_init(&cam, &d);
        gait_camera_look(&cam, 0.37 * i, 0, 0);
        /* from the default pitch to the highest, a frame at a time */
        for (int k = 0; k < 60; k++) {
            gait_camera_look(&cam, 0, (d.max_pitch - d.pitch) * (i % 2 ? 1.0 : 0.5) / 60, 0);
            gait_camera_follow(&cam, c, feet, 1.0 / 60, NULL);
            lowest = fmin(lowest, cam.eye.y);
            /* on the arm's line: eye = pivot - forward * arm (the pivot is rigid here: feet still) */
            gait_vec3 f = gait_camera_forward(&cam);
            double ex = cam.pivot.x - f.x * cam.arm, ey = cam.pivot.y - f.y * cam.arm,
                   ez = cam.pivot.z - f.z * cam.arm;
            worst_line = fmax(worst_line, fabs(ex - cam.eye.x) + fabs(ey - cam.eye.y) + fabs(ez - cam.eye.z));
        }
        if (cam.arm < cam.distance - 1e-6) shortened++;
    }
    CHECK_MSG(lowest >= d.probe_radius - 1e-9, "the eye went to %.3f m, under the surface at 0 "
              "(it keeps %.2f m above it)", lowest, d.probe_radius);
    CHECK_MSG(worst_line < 1e-9, "the eye left the arm's line by %g m", worst_line);
    CHECK_MSG(shortened > 10, "only %d of 41 looks up shortened the arm: the test does not reach "
              "the water", shortened);
    gait_collider_destroy(c);
}

/* The same through a world: a body swimming in the lake, the host's look input turning the camera
 * up and down and around every frame; the eye gait_world_update leaves stays above the water, and
 * eases back out to its full length once the look comes down again. */
TEST(camera_eye_above_the_water_through_the_world) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = 1;
    gait_world *w = gait_world_create(&wd);
    lake(gait_world_collider(w));
    gait_character_def cd = gait_default_character_def();
    gait_character_id id;
    CHECK_EQ_INT(gait_character_create(w, &cd, &id), GAIT_OK); /* stood on the bottom, it swims up */
    double lowest = INFINITY;
    int swimming = 0;
    for (int k = 0; k < 600; k++) {
        gait_input in;
        memset(&in, 0, sizeof in);
        in.move_y = (k / 120) % 2 ? 1 : 0;
        in.look_yaw = 0.02;
        in.look_pitch = (k / 60) % 2 ? 0.05 : -0.05; /* up to the highest pitch and back down */
        gait_character_set_input(w, id, &in);
        gait_world_update(w, 1.0 / 60, NULL);
        gait_character_info info;
        gait_character_info_get(w, id, &info);
        /* floating at its line (it rises there from the bottom it was stood on first) */
        if (info.phase.state != GAIT_STATE_SWIM || info.position.y < -1.2 - 1e-9) continue;
        swimming++;
        gait_camera cam;
        gait_character_camera(w, id, &cam);
        lowest = fmin(lowest, cam.eye.y);
    }
    CHECK_MSG(swimming > 300, "the body swam only %d steps", swimming);
    CHECK_MSG(lowest >= cd.camera.probe_radius - 1e-9, "a swimmer's camera eye went to %.3f m, "
              "under the surface at 0", lowest);
    /* looking level again: the arm back to its full length within the ease-out time */
    for (int k = 0; k < 60; k++) {
        gait_input in;
        memset(&in, 0, sizeof in);
        in.look_pitch = -0.1;
        gait_character_set_input(w, id, &in);
        gait_world_update(w, 1.0 / 60, NULL);
    }
    gait_camera cam;
    gait_character_camera(w, id, &cam);
    CHECK_NEAR(cam.arm, cam.distance, 1e-9);
    gait_world_destroy(w);
}
