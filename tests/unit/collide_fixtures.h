/* Shared helpers of the collision tests: a counting allocator and small meshes. Header-only
 * (static functions), included by the test_collide*.c programs. */
#ifndef GAIT_TEST_COLLIDE_FIXTURES_H
#define GAIT_TEST_COLLIDE_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gait/collide.h"

/* Counts every allocation through the hooks, and the bytes alive. */
typedef struct counter {
    long allocs, frees;
    long long live_bytes;
    int logs;
    char last_log[512];
} counter;

static inline void *counting_alloc(size_t size, void *user) {
    counter *c = user;
    c->allocs++;
    c->live_bytes += (long long)size;
    return malloc(size);
}
static inline void counting_free(void *p, size_t size, void *user) {
    counter *c = user;
    c->frees++;
    c->live_bytes -= (long long)size;
    free(p);
}
static inline void counting_log(gait_log_level level, const char *msg, void *user) {
    counter *c = user;
    (void)level;
    c->logs++;
    snprintf(c->last_log, sizeof c->last_log, "%s", msg);
}

/* Routes a def's allocations through a zeroed counter (its log is left to the caller). */
static inline void count_allocations(gait_hooks *h, counter *cnt) {
    memset(cnt, 0, sizeof *cnt);
    h->alloc = counting_alloc;
    h->free = counting_free;
    h->user = cnt;
}

static inline gait_collider *make_collider(counter *cnt) {
    gait_collider_def d = gait_default_collider_def();
    if (cnt) {
        count_allocations(&d.hooks, cnt);
        d.hooks.log = counting_log;
    }
    return gait_collider_create(&d);
}

/* An axis-aligned box [lo, hi] as 12 counter-clockwise (outward) triangles: 36 floats x 3. */
static inline void box_tris(float *out, const float lo[3], const float hi[3]) {
    /* 8 corners: bit 0 x, bit 1 y, bit 2 z */
    float v[8][3];
    for (int k = 0; k < 8; k++) {
        v[k][0] = (k & 1) ? hi[0] : lo[0];
        v[k][1] = (k & 2) ? hi[1] : lo[1];
        v[k][2] = (k & 4) ? hi[2] : lo[2];
    }
    /* each face as a quad in counter-clockwise order seen from outside */
    static const int q[6][4] = {
        {0, 4, 6, 2}, /* -x */ {1, 3, 7, 5}, /* +x */
        {0, 1, 5, 4}, /* -y */ {2, 6, 7, 3}, /* +y */
        {0, 2, 3, 1}, /* -z */ {4, 5, 7, 6}, /* +z */
    };
    int o = 0;
    for (int f = 0; f < 6; f++) {
        int t[2][3] = {{q[f][0], q[f][1], q[f][2]}, {q[f][0], q[f][2], q[f][3]}};
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < 3; j++)
                for (int a = 0; a < 3; a++) out[o++] = v[t[k][j]][a];
    }
}

/* `count` triangles (9 floats each) as a landmark named `name` placed at `offset`; a null id when
 * the collider refuses them. */
static inline gait_landmark_id add_named_tris(gait_collider *c, const float *tris, int count,
                                              gait_vec3 offset, const char *name) {
    gait_mesh_def m;
    memset(&m, 0, sizeof m);
    m.positions = tris;
    m.vertex_count = count * 3;
    m.triangle_count = count;
    m.offset = offset;
    m.name = name;
    gait_landmark_id id = GAIT_NULL_ID_INIT;
    if (gait_collider_add_landmark(c, &m, &id) != GAIT_OK) id.index1 = 0;
    return id;
}

static inline gait_landmark_id add_tris(gait_collider *c, const float *tris, int count, gait_vec3 offset) {
    return add_named_tris(c, tris, count, offset, "test");
}

static inline gait_landmark_id add_box(gait_collider *c, float x0, float y0, float z0, float x1, float y1,
                                float z1) {
    float lo[3] = {x0, y0, z0}, hi[3] = {x1, y1, z1}, t[108];
    box_tris(t, lo, hi);
    gait_vec3 zero = {0, 0, 0};
    return add_tris(c, t, 12, zero);
}

/* A grid of n x n quads (2 triangles each) covering [x0, x0 + size] x [z0, z0 + size] at height
 * y, facing +y; `jitter` moves interior vertices in x and z (the surface stays flat); `flip`
 * alternates the diagonal. Returns the triangle count written into out (n*n*2*9 floats). */
static inline int floor_grid(float *out, int n, float x0, float z0, float size, float y, float jitter,
                      unsigned seed) {
    float h = size / (float)n;
    float *vx = malloc(sizeof(float) * (size_t)(n + 1) * (size_t)(n + 1) * 2);
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            float x = x0 + h * (float)i, z = z0 + h * (float)j;
            if (i > 0 && i < n && j > 0 && j < n && jitter > 0) {
                seed = seed * 1664525u + 1013904223u;
                x += jitter * h * ((float)(seed >> 8) / 16777216.0f - 0.5f);
                seed = seed * 1664525u + 1013904223u;
                z += jitter * h * ((float)(seed >> 8) / 16777216.0f - 0.5f);
            }
            vx[(j * (n + 1) + i) * 2] = x;
            vx[(j * (n + 1) + i) * 2 + 1] = z;
        }
    int o = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            int a = j * (n + 1) + i, b = a + 1, c = a + (n + 1), d = c + 1;
            int tri[2][3];
            if ((i + j) & 1) {
                int t0[3] = {a, c, d}, t1[3] = {a, d, b};
                memcpy(tri[0], t0, sizeof t0);
                memcpy(tri[1], t1, sizeof t1);
            } else {
                int t0[3] = {a, c, b}, t1[3] = {b, c, d};
                memcpy(tri[0], t0, sizeof t0);
                memcpy(tri[1], t1, sizeof t1);
            }
            for (int k = 0; k < 2; k++)
                for (int m = 0; m < 3; m++) {
                    out[o++] = vx[tri[k][m] * 2];
                    out[o++] = y;
                    out[o++] = vx[tri[k][m] * 2 + 1];
                }
        }
    free(vx);
    return n * n * 2;
}

#endif
