/* Helpers of the body tests: small worlds built in C (terrain from a formula, boxes, meshes) and a
 * frame driver; the counting allocator and the box triangles are collide_fixtures.h's.
 * Header-only (static functions), included by the test_body*.c programs. */
#ifndef GAIT_TEST_BODY_FIXTURES_H
#define GAIT_TEST_BODY_FIXTURES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gait/gait.h"
#include "collide_fixtures.h" /* counter, counting_alloc / counting_free, box_tris */

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The body tests count allocations with the collision tests' counter (cnt.allocs). */
typedef counter alloc_count;

/* A world with default numbers; counting allocations when cnt is given. */
static inline gait_world *bw_world(alloc_count *cnt) {
    gait_world_def d = gait_default_world_def();
    if (cnt) count_allocations(&d.hooks, cnt);
    return gait_world_create(&d);
}

typedef double (*bw_height_fn)(double x, double z);

/* A heightfield over [x0, x0 + cells * cell] x [z0, ...] from a formula (m). */
static inline void bw_terrain(gait_world *w, bw_height_fn f, double x0, double z0, int cells,
                              double cell) {
    int n = cells + 1;
    float *h = malloc(sizeof(float) * (size_t)n * (size_t)n);
    for (int iz = 0; iz < n; iz++)
        for (int ix = 0; ix < n; ix++)
            h[iz * n + ix] = (float)f(x0 + ix * cell, z0 + iz * cell);
    gait_heightfield_def hd;
    memset(&hd, 0, sizeof hd);
    hd.samples_x = hd.samples_z = n;
    hd.cell_size = cell;
    hd.origin.x = x0;
    hd.origin.z = z0;
    hd.heights = h;
    gait_collider_set_terrain(gait_world_collider(w), &hd);
    free(h);
}

static inline double bw_flat0(double x, double z) { (void)x; (void)z; return 0; }

/* Rolling hills (m): a terrain with slopes of every kind a walker meets. */
static inline double bw_hills(double x, double z) {
    return 1.5 * sin(0.21 * x + 0.17 * z) + 0.5 * cos(0.3 * x);
}

/* Flat terrain at height 0 over [-64, 64]^2. */
static inline void bw_flat(gait_world *w) { bw_terrain(w, bw_flat0, -64, -64, 128, 1.0); }

/* An axis-aligned box [lo, hi] (m) as a landmark of 12 outward counter-clockwise triangles. */
static inline gait_landmark_id bw_box(gait_world *w, double x0, double y0, double z0, double x1,
                                      double y1, double z1) {
    const float lo[3] = {0, 0, 0};
    const float hi[3] = {(float)(x1 - x0), (float)(y1 - y0), (float)(z1 - z0)};
    float tris[36 * 3];
    box_tris(tris, lo, hi); /* relative to the landmark's offset (x0, y0, z0), kept in doubles */
    gait_mesh_def m;
    memset(&m, 0, sizeof m);
    m.positions = tris;
    m.vertex_count = 36;
    m.triangle_count = 12;
    m.offset.x = x0;
    m.offset.y = y0;
    m.offset.z = z0;
    m.name = "box";
    gait_landmark_id id = GAIT_NULL_ID_INIT;
    gait_collider_add_landmark(gait_world_collider(w), &m, &id);
    return id;
}

/* The hills over [-40, 40]^2 with a scatter of 40 boxes 2 x 2 m, sunk 1 m, 0.2-3.2 m above the
 * ground (some low enough to step onto), placed by the LCG from seed. */
static inline gait_world *bw_hills_field(uint32_t seed) {
    gait_world *w = bw_world(NULL);
    bw_terrain(w, bw_hills, -40, -40, 80, 1.0);
    uint32_t st = seed;
    for (int i = 0; i < 40; i++) {
        st = st * 1664525u + 1013904223u;
        double x = -30 + 60 * (st / 4294967296.0);
        st = st * 1664525u + 1013904223u;
        double z = -30 + 60 * (st / 4294967296.0);
        st = st * 1664525u + 1013904223u;
        double h = 0.2 + 3 * (st / 4294967296.0);
        double y = bw_hills(x, z) - 1;
        bw_box(w, x - 1, y, z - 1, x + 1, y + 1 + h, z + 1);
    }
    return w;
}

static inline gait_character_id bw_spawn(gait_world *w, double x, double y, double z, double stamina) {
    gait_character_def d = gait_default_character_def();
    d.position.x = x;
    d.position.y = y;
    d.position.z = z;
    d.stamina.start = stamina;
    gait_character_id id = GAIT_NULL_ID_INIT;
    gait_character_create(w, &d, &id);
    return id;
}

/* A world of default numbers on flat ground with one box [x0, x1] x [y0, y1] x [z0, z1] (m). */
static inline gait_world *bw_box_world(double x0, double y0, double z0, double x1, double y1,
                                       double z1) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    bw_box(w, x0, y0, z0, x1, y1, z1);
    return w;
}

/* A move along the ground (horizontal, under full gravity) through points a then b at `speed`
 * (m/s) for at most `seconds`. */
static inline gait_move_def bw_ground_move(gait_vec3 a, gait_vec3 b, double speed, double seconds) {
    gait_move_def d = gait_default_move_def();
    d.kind = GAIT_MOVE_TO_POINTS;
    d.point_count = 2;
    d.points[0] = a;
    d.points[1] = b;
    d.horizontal = true;
    d.gravity_scale = 1;
    d.speed = speed;
    d.seconds = seconds;
    return d;
}

/* A frame's input: the stick, the buttons held and pressed, and the camera's turn (rad). */
static inline void bw_input_look(gait_world *w, gait_character_id id, double mx, double my,
                                 uint32_t held, uint32_t pressed, double look_yaw) {
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_x = mx;
    in.move_y = my;
    in.held = held;
    in.pressed = pressed;
    in.look_yaw = look_yaw;
    gait_character_set_input(w, id, &in);
}

static inline void bw_input(gait_world *w, gait_character_id id, double mx, double my, uint32_t held,
                            uint32_t pressed) {
    bw_input_look(w, id, mx, my, held, pressed, 0);
}

static inline gait_character_info bw_info(gait_world *w, gait_character_id id) {
    gait_character_info i;
    memset(&i, 0, sizeof i);
    gait_character_info_get(w, id, &i);
    return i;
}

static inline void bw_steps(gait_world *w, int n) {
    for (int i = 0; i < n; i++) gait_world_step(w);
}

#endif
