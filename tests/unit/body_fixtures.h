/* Helpers of the body tests: small worlds built in C (terrain from a formula, boxes, meshes) and a
 * frame driver. Header-only (static functions), included by the test_body*.c programs. */
#ifndef GAIT_TEST_BODY_FIXTURES_H
#define GAIT_TEST_BODY_FIXTURES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gait/gait.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct alloc_count {
    long allocs;
} alloc_count;

static inline void *body_count_alloc(size_t size, void *user) {
    ((alloc_count *)user)->allocs++;
    return malloc(size);
}
static inline void body_count_free(void *p, size_t size, void *user) {
    (void)size;
    (void)user;
    free(p);
}

/* A world with default numbers; counting allocations when cnt is given. */
static inline gait_world *bw_world(alloc_count *cnt) {
    gait_world_def d = gait_default_world_def();
    if (cnt) {
        memset(cnt, 0, sizeof *cnt);
        d.hooks.alloc = body_count_alloc;
        d.hooks.free = body_count_free;
        d.hooks.user = cnt;
    }
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

/* Flat terrain at height 0 over [-64, 64]^2. */
static inline void bw_flat(gait_world *w) { bw_terrain(w, bw_flat0, -64, -64, 128, 1.0); }

/* An axis-aligned box [lo, hi] (m) as a landmark of 12 outward counter-clockwise triangles. */
static inline gait_landmark_id bw_box(gait_world *w, double x0, double y0, double z0, double x1,
                                      double y1, double z1) {
    float v[8][3];
    for (int k = 0; k < 8; k++) {
        v[k][0] = (float)((k & 1) ? x1 - x0 : 0);
        v[k][1] = (float)((k & 2) ? y1 - y0 : 0);
        v[k][2] = (float)((k & 4) ? z1 - z0 : 0);
    }
    static const int quad[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                   {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    float tris[36 * 3];
    int o = 0;
    for (int f = 0; f < 6; f++) {
        int t[2][3] = {{quad[f][0], quad[f][1], quad[f][2]}, {quad[f][0], quad[f][2], quad[f][3]}};
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < 3; j++)
                for (int a = 0; a < 3; a++) tris[o++] = v[t[k][j]][a];
    }
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

static inline void bw_input(gait_world *w, gait_character_id id, double mx, double my, uint32_t held,
                            uint32_t pressed) {
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_x = mx;
    in.move_y = my;
    in.held = held;
    in.pressed = pressed;
    gait_character_set_input(w, id, &in);
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
