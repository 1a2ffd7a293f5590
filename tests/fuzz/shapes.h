/* What the body's fuzzer and the walkers' survey share to build their worlds: a seeded random
 * stream (splitmix64, one stream per purpose, so adding a roll leaves the others as they were)
 * and triangle meshes built from quads and boxes turned by a yaw and a tilt. Header-only
 * (static functions), included once by each program. */
#ifndef GAIT_FUZZ_SHAPES_H
#define GAIT_FUZZ_SHAPES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct rng { uint64_t s; } rng;
static uint64_t rnext(rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double runi(rng *r, double lo, double hi) {
    return lo + (hi - lo) * ((double)(rnext(r) >> 11) * (1.0 / 9007199254740992.0));
}
static bool rchance(rng *r, double p) { return runi(r, 0, 1) < p; }
static rng stream(uint64_t seed, uint64_t purpose) {
    rng r = {seed * 0x2545F4914F6CDD1Dull ^ (purpose + 1) * 0x9E3779B97F4A7C15ull};
    rnext(&r);
    return r;
}

/* Triangles as positions (9 floats each), at most cap: tri() drops what is past it. */
typedef struct mesh { float *v; int n, cap; } mesh;

/* A mesh of room for cap triangles in one block (free() releases it); NULL out of memory. */
static inline mesh *mesh_new(int cap) {
    mesh *m = malloc(sizeof *m + sizeof(float) * 9 * (size_t)cap);
    if (!m) return NULL;
    m->v = (float *)(void *)(m + 1);
    m->n = 0;
    m->cap = cap;
    return m;
}

static void tri(mesh *m, const double *a, const double *b, const double *c) {
    if (m->n >= m->cap) return;
    float *o = m->v + m->n * 9;
    for (int k = 0; k < 3; k++) { o[k] = (float)a[k]; o[3 + k] = (float)b[k]; o[6 + k] = (float)c[k]; }
    m->n++;
}
static void quad(mesh *m, const double *a, const double *b, const double *c, const double *d) {
    tri(m, a, b, c);
    tri(m, a, c, d);
}

/* A point p (local) rotated by yaw about y, then by tilt about x, and moved to o. */
typedef struct xform { double o[3], yaw, tilt; } xform;
static void xf(const xform *t, const double *p, double *out) {
    double cy = cos(t->yaw), sy = sin(t->yaw), ct = cos(t->tilt), st = sin(t->tilt);
    double y1 = p[1] * ct - p[2] * st, z1 = p[1] * st + p[2] * ct;
    out[0] = t->o[0] + p[0] * cy + z1 * sy;
    out[1] = t->o[1] + y1;
    out[2] = t->o[2] - p[0] * sy + z1 * cy;
}

/* The box [x0, x1] x [y0, y1] x [z0, z1] (local), turned and moved by t, faces outward. */
static void box(mesh *m, const xform *t, double x0, double y0, double z0, double x1, double y1,
                double z1) {
    double c[8][3];
    for (int k = 0; k < 8; k++) {
        double p[3] = {(k & 1) ? x1 : x0, (k & 2) ? y1 : y0, (k & 4) ? z1 : z0};
        xf(t, p, c[k]);
    }
    static const int q[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int f = 0; f < 6; f++) quad(m, c[q[f][0]], c[q[f][1]], c[q[f][2]], c[q[f][3]]);
}

#endif
