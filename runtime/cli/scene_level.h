/* A level-like benchmark scene in the meadow-v1 format with no terrain: what a game brings as a
 * triangle mesh exported from its editor. Rooms on a grid joined by corridors, floors at three
 * heights with stairs (0.15-0.2 m risers) and ramps (30-50 deg, some too steep to walk) between
 * them, some corridors roofed, lintels over the doors, and in the rooms pillars (16-sided),
 * freestanding arches, thin fences (8 cm posts, 4 cm rails), crates (some stacked), barrels,
 * tables, kerbs, raised platforms with stairs up and open edges to fall from, rugs. Floors are
 * long slabs of two triangles a face, or tessellated on a 1-2 m grid (as many exports are), so
 * large and small triangles lie side by side.
 *
 * Every piece is a closed convex solid (box, wedge, prism, arch segment) with its triangles
 * counter-clockwise seen from outside; solids touch but never overlap, so a point is inside the
 * level's solid matter exactly when a ray from it crosses the surface an odd number of times
 * (level_inside_solid). Deterministic: the scene's LCG (state * 1664525 + 1013904223 mod 2^32)
 * from the seed. Players start 0.5 m above a floor, clear of everything on it.
 *
 * Header-only, like meadow.h: one file defines MEADOW_IMPLEMENTATION before including both. */
#ifndef GAIT_BENCH_LEVEL_H
#define GAIT_BENCH_LEVEL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scene_meadow.h"

#define LEVEL_ROOMS 4        /* rooms per side of the grid */
#define LEVEL_PITCH 26.0     /* m between room centres */
#define LEVEL_WALL_T 0.3     /* m: wall thickness */
#define LEVEL_WALL_H 4.0     /* m: wall height above its floor */
#define LEVEL_GROUND -0.5    /* m: the courtyard's ground, on which every room's block stands */
#define LEVEL_DOOR_H 2.6     /* m: door opening height */
#define LEVEL_SEED 20240611u

/* The level scene with n characters (seed: LEVEL_SEED unless another level is wanted). */
int level_generate(meadow_scene *s, int num_characters, uint32_t seed, char *err, size_t errcap);
/* Whether (x, y, z) lies inside the scene's solid matter deeper than margin (m). */
int level_inside_solid(const meadow_scene *s, double x, double y, double z, double margin);

#endif

#ifdef MEADOW_IMPLEMENTATION
#ifndef LEVEL_IMPLEMENTED
#define LEVEL_IMPLEMENTED

typedef struct level__buf {
    float *t;                /* 9 floats a triangle */
    int n, cap;
    int oom;
    /* footprints of everything standing on a floor (xz box, y range), for the spawn points */
    double *foot;            /* 6 a footprint: x0, z0, x1, z1, y0, y1 */
    int nfoot, capfoot;
    uint32_t rng;
} level__buf;

static double level__rand(level__buf *b) {
    b->rng = b->rng * 1664525u + 1013904223u;
    return b->rng / 4294967296.0;
}
static double level__range(level__buf *b, double lo, double hi) { return lo + (hi - lo) * level__rand(b); }

static void level__tri(level__buf *b, const double *p, const double *q, const double *r) {
    if (b->oom) return;
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 4096;
        float *t = realloc(b->t, sizeof(float) * 9 * (size_t)cap);
        if (!t) { b->oom = 1; return; }
        b->t = t;
        b->cap = cap;
    }
    float *o = b->t + 9 * (size_t)b->n++;
    for (int a = 0; a < 3; a++) { o[a] = (float)p[a]; o[3 + a] = (float)q[a]; o[6 + a] = (float)r[a]; }
}

static void level__footprint(level__buf *b, const double (*v)[3], int nv) {
    if (b->oom) return;
    if (b->nfoot == b->capfoot) {
        int cap = b->capfoot ? 2 * b->capfoot : 256;
        double *f = realloc(b->foot, sizeof(double) * 6 * (size_t)cap);
        if (!f) { b->oom = 1; return; }
        b->foot = f;
        b->capfoot = cap;
    }
    double *f = b->foot + 6 * (size_t)b->nfoot++;
    f[0] = f[1] = f[4] = INFINITY;
    f[2] = f[3] = f[5] = -INFINITY;
    for (int i = 0; i < nv; i++) {
        f[0] = fmin(f[0], v[i][0]); f[2] = fmax(f[2], v[i][0]);
        f[1] = fmin(f[1], v[i][2]); f[3] = fmax(f[3], v[i][2]);
        f[4] = fmin(f[4], v[i][1]); f[5] = fmax(f[5], v[i][1]);
    }
}

/* A convex solid: faces are polygons (counts[f] vertex indices each, in idx), split into fans
 * and turned to face away from the solid's centroid. */
static void level__convex(level__buf *b, const double (*v)[3], int nv, const int *counts, int nf,
                          const int *idx, int tess) {
    double c[3] = {0, 0, 0};
    for (int i = 0; i < nv; i++)
        for (int a = 0; a < 3; a++) c[a] += v[i][a] / nv;
    int at = 0;
    for (int f = 0; f < nf; f++) {
        const int *p = idx + at;
        at += counts[f];
        double fc[3] = {0, 0, 0};
        for (int k = 0; k < counts[f]; k++)
            for (int a = 0; a < 3; a++) fc[a] += v[p[k]][a] / counts[f];
        /* a quad face may be tessellated on a grid of about `tess` m (a floor's top) */
        int nu = 1, nw = 1;
        if (tess > 0 && counts[f] == 4) {
            double lu = 0, lw = 0;
            for (int a = 0; a < 3; a++) {
                lu += (v[p[1]][a] - v[p[0]][a]) * (v[p[1]][a] - v[p[0]][a]);
                lw += (v[p[3]][a] - v[p[0]][a]) * (v[p[3]][a] - v[p[0]][a]);
            }
            nu = (int)ceil(sqrt(lu) / tess);
            nw = (int)ceil(sqrt(lw) / tess);
            if (nu < 1) nu = 1;
            if (nw < 1) nw = 1;
        }
        for (int k = 1; k + 1 < counts[f]; k++) {
            const double *A = v[p[0]], *B = v[p[k]], *C = v[p[k + 1]];
            double u[3], w[3], n[3];
            for (int a = 0; a < 3; a++) { u[a] = B[a] - A[a]; w[a] = C[a] - A[a]; }
            n[0] = u[1] * w[2] - u[2] * w[1];
            n[1] = u[2] * w[0] - u[0] * w[2];
            n[2] = u[0] * w[1] - u[1] * w[0];
            int flip = n[0] * (fc[0] - c[0]) + n[1] * (fc[1] - c[1]) + n[2] * (fc[2] - c[2]) < 0;
            if (nu == 1 && nw == 1) {
                if (flip) level__tri(b, A, C, B);
                else level__tri(b, A, B, C);
                continue;
            }
            if (k > 1) continue; /* the tessellated quad is emitted whole below */
            const double *P0 = v[p[0]], *P1 = v[p[1]], *P3 = v[p[3]];
            for (int i = 0; i < nu; i++)
                for (int j = 0; j < nw; j++) {
                    double q[4][3];
                    for (int a = 0; a < 3; a++) {
                        double du = (P1[a] - P0[a]) / nu, dw = (P3[a] - P0[a]) / nw;
                        q[0][a] = P0[a] + i * du + j * dw;
                        q[1][a] = P0[a] + (i + 1) * du + j * dw;
                        q[2][a] = P0[a] + (i + 1) * du + (j + 1) * dw;
                        q[3][a] = P0[a] + i * du + (j + 1) * dw;
                    }
                    /* the quad's own fan has the same orientation as its corner fan */
                    if (flip) { level__tri(b, q[0], q[2], q[1]); level__tri(b, q[0], q[3], q[2]); }
                    else { level__tri(b, q[0], q[1], q[2]); level__tri(b, q[0], q[2], q[3]); }
                }
        }
    }
}

/* Hexahedron with a box's topology: corner k has bit 0 = +u, bit 1 = +y, bit 2 = +w. */
static void level__hexa(level__buf *b, const double (*v)[3], int tess_top, int standing) {
    static const int counts[6] = {4, 4, 4, 4, 4, 4};
    /* -u, +u, -y, +y (top: corners 2, 3, 7, 6 in order), -w, +w */
    static const int idx[24] = {0, 2, 6, 4, 1, 3, 7, 5, 0, 1, 5, 4, 2, 3, 7, 6, 0, 1, 3, 2, 4, 5, 7, 6};
    if (tess_top > 0) {
        /* the top alone tessellated: the five other faces whole, the top on its grid */
        level__convex(b, v, 8, counts, 3, idx, 0);
        double box_c[3] = {0, 0, 0};
        for (int k = 0; k < 8; k++)
            for (int a = 0; a < 3; a++) box_c[a] += v[k][a] / 8;
        /* the top face with the solid's centroid as reference: emit it through a 5-point solid
         * made of the top's 4 corners and the centroid (its other faces are not emitted) */
        double w[5][3];
        memcpy(w, v[2], sizeof w[0]);
        memcpy(w[1], v[3], sizeof w[0]);
        memcpy(w[2], v[7], sizeof w[0]);
        memcpy(w[3], v[6], sizeof w[0]);
        memcpy(w[4], box_c, sizeof w[0]);
        static const int top_counts[1] = {4}, top_idx[4] = {0, 1, 2, 3};
        /* centroid of w is below the top, as the box's is: the orientation comes out the same */
        level__convex(b, (const double(*)[3])w, 5, top_counts, 1, top_idx, tess_top);
        level__convex(b, v, 8, counts + 4, 2, idx + 16, 0);
    } else {
        level__convex(b, v, 8, counts, 6, idx, 0);
    }
    if (standing) level__footprint(b, v, 8);
}

/* A box [x0,x1] x [y0,y1] x [z0,z1] turned by `angle` about the vertical through its centre. */
static void level__box(level__buf *b, double cx, double cz, double hx, double hz, double angle,
                       double y0, double y1, int tess_top, int standing) {
    double v[8][3], c = cos(angle), s = sin(angle);
    for (int k = 0; k < 8; k++) {
        double lx = (k & 1) ? hx : -hx, lz = (k & 4) ? hz : -hz;
        v[k][0] = cx + lx * c + lz * s;
        v[k][1] = (k & 2) ? y1 : y0;
        v[k][2] = cz - lx * s + lz * c;
    }
    level__hexa(b, (const double(*)[3])v, tess_top, standing);
}

static void level__aabb(level__buf *b, double x0, double x1, double y0, double y1, double z0,
                        double z1, int tess_top, int standing) {
    level__box(b, 0.5 * (x0 + x1), 0.5 * (z0 + z1), 0.5 * (x1 - x0), 0.5 * (z1 - z0), 0, y0, y1,
               tess_top, standing);
}

/* A vertical prism of `sides` sides (a pillar, a barrel) of radius r from y0 to y1. */
static void level__prism(level__buf *b, double cx, double cz, double r, int sides, double y0,
                         double y1, double turn) {
    double v[64][3];
    int counts[34], idx[4 * 32 + 2 * 32];
    if (sides > 32) sides = 32;
    for (int i = 0; i < sides; i++) {
        double a = turn + 2 * MEADOW_PI * i / sides;
        v[i][0] = v[sides + i][0] = cx + r * cos(a);
        v[i][2] = v[sides + i][2] = cz + r * sin(a);
        v[i][1] = y0;
        v[sides + i][1] = y1;
    }
    int at = 0, nf = 0;
    for (int i = 0; i < sides; i++) {
        int j = (i + 1) % sides;
        counts[nf++] = 4;
        idx[at++] = i; idx[at++] = j; idx[at++] = sides + j; idx[at++] = sides + i;
    }
    counts[nf++] = sides;
    for (int i = 0; i < sides; i++) idx[at++] = i;
    counts[nf++] = sides;
    for (int i = 0; i < sides; i++) idx[at++] = sides + i;
    level__convex(b, (const double(*)[3])v, 2 * sides, counts, nf, idx, 0);
    level__footprint(b, (const double(*)[3])v, 2 * sides);
}

/* A ramp: a wedge rising from y0 at distance 0 to y1 at distance len along (dx, dz) (unit), of
 * half width hw, starting at (x, z). */
static void level__ramp(level__buf *b, double x, double z, double dx, double dz, double len,
                        double hw, double y0, double y1) {
    double px = -dz, pz = dx, v[6][3];
    for (int side = 0; side < 2; side++) {
        double sx = x + (side ? hw : -hw) * px, sz = z + (side ? hw : -hw) * pz;
        double *lo = v[3 * side], *far_lo = v[3 * side + 1], *far_hi = v[3 * side + 2];
        lo[0] = sx; lo[1] = y0; lo[2] = sz;
        far_lo[0] = sx + len * dx; far_lo[1] = y0; far_lo[2] = sz + len * dz;
        far_hi[0] = far_lo[0]; far_hi[1] = y1; far_hi[2] = far_lo[2];
    }
    static const int counts[5] = {3, 3, 4, 4, 4};
    static const int idx[18] = {0, 1, 2, 3, 4, 5, 0, 1, 4, 3, 1, 2, 5, 4, 0, 2, 5, 3};
    level__convex(b, (const double(*)[3])v, 6, counts, 5, idx, 0);
    level__footprint(b, (const double(*)[3])v, 6);
}

/* Solid stairs from y0 up to y1 along (dx, dz), starting at (x, z): one box per step. Returns
 * the run (m). */
static double level__stairs(level__buf *b, double x, double z, double dx, double dz, double hw,
                            double y0, double y1, double rise, double tread) {
    int n = (int)ceil((y1 - y0) / rise - 1e-9);
    if (n < 1) n = 1;
    double step = (y1 - y0) / n;
    for (int k = 0; k < n; k++) {
        double c = (k + 0.5) * tread;
        level__box(b, x + c * dx, z + c * dz, 0.5 * tread, hw, atan2(-dz, dx), y0, y0 + (k + 1) * step, 0, 1);
    }
    return n * tread;
}

/* A freestanding arch: two square posts and a half ring of 8 segments over a span (m), along
 * (dx, dz), posts `height` m tall, 0.4 m thick. */
static void level__arch(level__buf *b, double cx, double cz, double dx, double dz, double span,
                        double y0, double height) {
    const double t = 0.4;
    double angle = atan2(-dz, dx);
    for (int side = -1; side <= 1; side += 2) {
        double o = side * (0.5 * span + 0.5 * t);
        level__box(b, cx + o * dx, cz + o * dz, 0.5 * t, 0.5 * t, angle, y0, y0 + height, 0, 1);
    }
    double px = -dz, pz = dx, ri = 0.5 * span, ro = ri + t, yc = y0 + height;
    for (int s = 0; s < 8; s++) {
        double a0 = MEADOW_PI * s / 8, a1 = MEADOW_PI * (s + 1) / 8, v[8][3];
        for (int k = 0; k < 8; k++) {
            double a = (k & 1) ? a1 : a0, r = (k & 2) ? ro : ri, w = (k & 4) ? 0.5 * t : -0.5 * t;
            double along = -r * cos(a);
            v[k][0] = cx + along * dx + w * px;
            v[k][1] = yc + r * sin(a);
            v[k][2] = cz + along * dz + w * pz;
        }
        level__hexa(b, (const double(*)[3])v, 0, 1);
    }
}

/* A thin fence: posts every metre along (dx, dz) for len m, two rails. */
static void level__fence(level__buf *b, double x, double z, double dx, double dz, double len, double y0) {
    double angle = atan2(-dz, dx);
    int posts = (int)floor(len) + 1;
    for (int k = 0; k < posts; k++) {
        double s = len * k / (posts - 1);
        level__box(b, x + s * dx, z + s * dz, 0.04, 0.04, angle, y0, y0 + 1.0, 0, 1);
    }
    /* the rails run between the posts' faces, touching them */
    for (int k = 0; k + 1 < posts; k++) {
        double s0 = len * k / (posts - 1) + 0.04, s1 = len * (k + 1) / (posts - 1) - 0.04;
        double c = 0.5 * (s0 + s1);
        for (int r = 0; r < 2; r++) {
            double yr = y0 + (r ? 0.86 : 0.42);
            level__box(b, x + c * dx, z + c * dz, 0.5 * (s1 - s0), 0.02, angle, yr, yr + 0.08, 0, 1);
        }
    }
}

/* A ball of 320 small triangles (an icosahedron split twice, on a sphere of radius r): a prop
 * with a detailed mesh (a statue's head, a lamp) among the large faces. */
static void level__ball(level__buf *b, double cx, double cy, double cz, double r) {
    const double g = 1.6180339887498949;
    static const int ico[20][3] = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9},
                                   {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2},
                                   {3, 2, 6}, {3, 6, 8}, {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10},
                                   {8, 6, 7}, {9, 8, 1}};
    double v[12][3] = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
                       {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
    for (int f = 0; f < 20; f++) {
        /* each face split into 16 on a 4 x 4 barycentric grid, pushed out onto the sphere */
        const double *A = v[ico[f][0]], *B = v[ico[f][1]], *C = v[ico[f][2]];
        double p[5][5][3];
        for (int i = 0; i <= 4; i++)
            for (int j = 0; i + j <= 4; j++) {
                double l = 0;
                for (int a = 0; a < 3; a++) {
                    p[i][j][a] = (A[a] * (4 - i - j) + B[a] * i + C[a] * j) / 4;
                    l += p[i][j][a] * p[i][j][a];
                }
                l = sqrt(l);
                p[i][j][0] = cx + r * p[i][j][0] / l;
                p[i][j][1] = cy + r * p[i][j][1] / l;
                p[i][j][2] = cz + r * p[i][j][2] / l;
            }
        for (int i = 0; i < 4; i++)
            for (int j = 0; i + j < 4; j++) {
                const double *t[2][3] = {{p[i][j], p[i + 1][j], p[i][j + 1]},
                                         {p[i + 1][j], p[i + 1][j + 1], p[i][j + 1]}};
                for (int k = 0; k < (i + j < 3 ? 2 : 1); k++) {
                    double u[3], w[3], n[3], m[3];
                    for (int a = 0; a < 3; a++) {
                        u[a] = t[k][1][a] - t[k][0][a];
                        w[a] = t[k][2][a] - t[k][0][a];
                        m[a] = t[k][0][a] - (a == 0 ? cx : a == 1 ? cy : cz);
                    }
                    n[0] = u[1] * w[2] - u[2] * w[1];
                    n[1] = u[2] * w[0] - u[0] * w[2];
                    n[2] = u[0] * w[1] - u[1] * w[0];
                    if (n[0] * m[0] + n[1] * m[1] + n[2] * m[2] < 0) level__tri(b, t[k][0], t[k][2], t[k][1]);
                    else level__tri(b, t[k][0], t[k][1], t[k][2]);
                }
            }
    }
    double box[2][3] = {{cx - r, cy - r, cz - r}, {cx + r, cy + r, cz + r}};
    level__footprint(b, (const double(*)[3])box, 2);
}

typedef struct level__room {
    double cx, cz, hx, hz, fy;
    int tess;
} level__room;

/* Room i, j: a floor slab (the walls stand on it), walls with door gaps, lintels. */
static void level__room_shell(level__buf *b, const level__room *r, const double doors[4][3]) {
    double x0 = r->cx - r->hx - LEVEL_WALL_T, x1 = r->cx + r->hx + LEVEL_WALL_T;
    double z0 = r->cz - r->hz - LEVEL_WALL_T, z1 = r->cz + r->hz + LEVEL_WALL_T;
    level__aabb(b, x0, x1, LEVEL_GROUND, r->fy, z0, z1, r->tess, 0);
    double top = r->fy + LEVEL_WALL_H;
    /* sides: 0 = -x, 1 = +x (run along z between the z walls), 2 = -z, 3 = +z (full length) */
    for (int side = 0; side < 4; side++) {
        int along_x = side >= 2;
        double lo = along_x ? x0 : r->cz - r->hz, hi = along_x ? x1 : r->cz + r->hz;
        double fixed0 = side == 0 ? x0 : side == 1 ? x1 - LEVEL_WALL_T : side == 2 ? z0 : z1 - LEVEL_WALL_T;
        double fixed1 = fixed0 + LEVEL_WALL_T;
        double gaps[2] = {INFINITY, -INFINITY};
        if (doors[side][2] > 0) { gaps[0] = doors[side][0]; gaps[1] = doors[side][1]; }
        double segs[2][2] = {{lo, fmin(hi, gaps[0])}, {fmax(lo, gaps[1]), hi}};
        for (int s = 0; s < 2; s++) {
            if (segs[s][1] - segs[s][0] < 1e-6) continue;
            if (along_x) level__aabb(b, segs[s][0], segs[s][1], r->fy, top, fixed0, fixed1, 0, 1);
            else level__aabb(b, fixed0, fixed1, r->fy, top, segs[s][0], segs[s][1], 0, 1);
        }
        if (doors[side][2] > 0) { /* the lintel over the door */
            if (along_x) level__aabb(b, gaps[0], gaps[1], r->fy + LEVEL_DOOR_H, top, fixed0, fixed1, 0, 1);
            else level__aabb(b, fixed0, fixed1, r->fy + LEVEL_DOOR_H, top, gaps[0], gaps[1], 0, 1);
        }
    }
}

/* Whether the xz disc (x, z, rad) is clear of every footprint reaching into [y0, y1]. */
static int level__clear(const level__buf *b, double x, double z, double rad, double y0, double y1) {
    for (int i = 0; i < b->nfoot; i++) {
        const double *f = b->foot + 6 * i;
        if (f[5] <= y0 || f[4] >= y1) continue;
        if (x + rad > f[0] && x - rad < f[2] && z + rad > f[1] && z - rad < f[3]) return 0;
    }
    return 1;
}

/* Props inside a room, kept `margin` m from its walls and the doorways clear. */
static void level__furnish(level__buf *b, const level__room *r) {
    double fy = r->fy, ix = r->hx - 1.2, iz = r->hz - 1.2;
    /* pillars on a grid (two rows) */
    int pillars = (int)(level__rand(b) * 3) * 2;
    for (int k = 0; k < pillars; k++) {
        double px = r->cx + (k / 2 == 0 ? -0.5 : 0.5) * ix, pz = r->cz + (k % 2 ? 0.5 : -0.5) * iz;
        if (pillars == 4 && k >= 2) px = r->cx + (k % 2 ? 0.25 : -0.25) * ix, pz = r->cz;
        level__prism(b, px, pz, level__range(b, 0.3, 0.5), 16, fy, fy + LEVEL_WALL_H, 0);
    }
    /* what else stands here: tries a few placements of each prop, keeping clear of the others */
    int props = 10 + (int)(level__rand(b) * 14);
    for (int k = 0; k < props; k++) {
        int kind = (int)(level__rand(b) * 9);
        double px = r->cx + level__range(b, -ix, ix), pz = r->cz + level__range(b, -iz, iz);
        double ang = level__rand(b) * 2 * MEADOW_PI;
        double dx = cos(ang), dz = sin(ang);
        if (kind <= 1) { /* a crate, sometimes with a smaller one on top */
            double h = level__range(b, 0.5, 1.4), hw = level__range(b, 0.25, 0.75);
            if (!level__clear(b, px, pz, hw * 1.5, fy, fy + h)) continue;
            level__box(b, px, pz, hw, hw, ang, fy, fy + h, 0, 1);
            if (level__rand(b) < 0.4) {
                double h2 = level__range(b, 0.3, 0.8);
                level__box(b, px, pz, 0.6 * hw, 0.6 * hw, ang + 0.3, fy + h, fy + h + h2, 0, 1);
            }
        } else if (kind == 2) { /* a barrel */
            if (!level__clear(b, px, pz, 0.4, fy, fy + 1)) continue;
            level__prism(b, px, pz, 0.35, 12, fy, fy + 0.9, ang);
        } else if (kind == 3) { /* a table: a top on four legs */
            if (!level__clear(b, px, pz, 0.9, fy, fy + 1)) continue;
            for (int l = 0; l < 4; l++) {
                double lx = (l & 1 ? 0.55 : -0.55), lz = (l & 2 ? 0.35 : -0.35);
                level__box(b, px + lx * dx + lz * dz, pz - lx * dz + lz * dx, 0.03, 0.03, ang, fy, fy + 0.72, 0, 1);
            }
            level__box(b, px, pz, 0.6, 0.4, ang, fy + 0.72, fy + 0.77, 0, 1);
        } else if (kind == 4) { /* a thin fence */
            double len = level__range(b, 3, 6);
            double ex = px + len * dx, ez = pz + len * dz;
            if (fabs(ex - r->cx) > ix || fabs(ez - r->cz) > iz) continue;
            if (!level__clear(b, px + 0.5 * len * dx, pz + 0.5 * len * dz, 0.5 * len, fy, fy + 1)) continue;
            level__fence(b, px, pz, dx, dz, len, fy);
        } else if (kind == 5) { /* a kerb a body steps over */
            double len = level__range(b, 2, 5);
            if (!level__clear(b, px, pz, 0.5 * len, fy, fy + 0.3)) continue;
            level__box(b, px, pz, 0.5 * len, 0.15, ang, fy, fy + level__range(b, 0.12, 0.25), 0, 1);
        } else if (kind == 6) { /* a freestanding arch */
            double span = level__range(b, 1.6, 3);
            if (!level__clear(b, px, pz, 0.5 * span + 1, fy, fy + 4)) continue;
            level__arch(b, px, pz, dx, dz, span, fy, level__range(b, 2.0, 2.6));
        } else if (kind == 7) { /* a statue: a ball on a plinth */
            double h = level__range(b, 0.8, 1.6), rb = level__range(b, 0.3, 0.6);
            if (!level__clear(b, px, pz, rb + 0.4, fy, fy + h + 2 * rb)) continue;
            level__box(b, px, pz, 0.35, 0.35, ang, fy, fy + h, 0, 1);
            /* the ball sits on the plinth's top (touching it at one point, overlapping nothing) */
            level__ball(b, px, fy + h + rb, pz, rb);
        } else { /* a raised platform, stairs up one side (its other edges open) */
            double hw = level__range(b, 1.2, 2.0), h = level__range(b, 1.0, 2.0);
            double run = ceil(h / 0.2 - 1e-9) * 0.3;
            if (fabs(px - r->cx) + hw + run > ix || fabs(pz - r->cz) + hw + run > iz) continue;
            if (!level__clear(b, px, pz, hw + run + 0.5, fy, fy + h + 2)) continue;
            /* axis-aligned: the stairs meet the platform's -x face */
            level__aabb(b, px - hw, px + hw, fy, fy + h, pz - hw, pz + hw, 0, 1);
            level__stairs(b, px - hw - run, pz, 1, 0, 0.6, fy, fy + h, 0.2, 0.3);
        }
    }
    /* a rug: a thin closed slab on the floor (the player walks over its 1 cm lip) */
    if (level__rand(b) < 0.5) {
        double px = r->cx + level__range(b, -0.5, 0.5) * ix, pz = r->cz + level__range(b, -0.5, 0.5) * iz;
        level__box(b, px, pz, 1.0, 0.7, level__rand(b) * MEADOW_PI, fy, fy + 0.01, 0, 0);
    }
}

/* A corridor from room a (west or south) to room b, along x (ew) or z: a floor slab at the lower
 * floor, a plinth up to the higher one at its end, stairs or a ramp between, side walls, maybe a
 * roof. door[0..1]: the span across (z for ew, x otherwise). */
static void level__corridor(level__buf *b, const level__room *ra, const level__room *rb, int ew,
                            double c0, double c1) {
    double s0 = ew ? ra->cx + ra->hx + LEVEL_WALL_T : ra->cz + ra->hz + LEVEL_WALL_T;
    double s1 = ew ? rb->cx - rb->hx - LEVEL_WALL_T : rb->cz - rb->hz - LEVEL_WALL_T;
    double lo = fmin(ra->fy, rb->fy), hi = fmax(ra->fy, rb->fy);
    double top = hi + 3.0;
    /* (along, across) -> world */
#define LEVEL_BOX(a0, a1, y0, y1, w0, w1, st)                                                         \
    (ew ? level__aabb(b, a0, a1, y0, y1, w0, w1, 0, st) : level__aabb(b, w0, w1, y0, y1, a0, a1, 0, st))
    LEVEL_BOX(s0, s1, LEVEL_GROUND, lo, c0 - LEVEL_WALL_T, c1 + LEVEL_WALL_T, 0);
    if (hi > lo) {
        int up_to_b = rb->fy > ra->fy;
        double len = s1 - s0, mid = 0.5 * (c0 + c1), hw = 0.5 * (c1 - c0);
        double climb;
        if (level__rand(b) < 0.5) {
            double rise = level__range(b, 0.15, 0.2);
            climb = ceil((hi - lo) / rise - 1e-9) * 0.3;
        } else {
            double slope = level__range(b, 30, 50) * MEADOW_PI / 180;
            climb = (hi - lo) / tan(slope);
        }
        if (climb > len - 1.0) climb = len - 1.0;
        double flat = 0.5 * (len - climb); /* flat run at the bottom before the climb */
        double foot = up_to_b ? s0 + flat : s1 - flat;       /* where the climb starts */
        double head = up_to_b ? foot + climb : foot - climb; /* where it reaches hi */
        /* the plinth from the climb's head to the high room */
        if (up_to_b) LEVEL_BOX(head, s1, lo, hi, c0, c1, 1);
        else LEVEL_BOX(s0, head, lo, hi, c0, c1, 1);
        double dir = up_to_b ? 1 : -1;
        double fx = ew ? foot : mid, fz = ew ? mid : foot;
        double dx = ew ? dir : 0, dz = ew ? 0 : dir;
        double slope_tan = (hi - lo) / climb;
        if (slope_tan < 0.55) { /* shallow enough for stairs of the rise above */
            int n = (int)ceil((hi - lo) / 0.2 - 1e-9);
            level__stairs(b, fx, fz, dx, dz, hw, lo, hi, (hi - lo) / n + 1e-9, climb / n);
        } else {
            level__ramp(b, fx, fz, dx, dz, climb, hw, lo, hi);
        }
    }
    /* side walls, and a roof over some */
    LEVEL_BOX(s0, s1, lo, top, c0 - LEVEL_WALL_T, c0, 1);
    LEVEL_BOX(s0, s1, lo, top, c1, c1 + LEVEL_WALL_T, 1);
    if (level__rand(b) < 0.3) LEVEL_BOX(s0, s1, top - 0.3, top, c0 - LEVEL_WALL_T, c1 + LEVEL_WALL_T, 0);
#undef LEVEL_BOX
}

int level_generate(meadow_scene *s, int num_characters, uint32_t seed, char *err, size_t errcap) {
    memset(s, 0, sizeof *s);
    if (num_characters < 1) return meadow__err(err, errcap, "level: need at least one character");
    level__buf b;
    memset(&b, 0, sizeof b);
    b.rng = seed;
    enum { R = LEVEL_ROOMS };
    level__room rooms[R][R];
    static const double heights[5] = {0, 0, 0, 1.5, 3.0};
    for (int i = 0; i < R; i++)
        for (int j = 0; j < R; j++) {
            level__room *r = &rooms[i][j];
            r->cx = LEVEL_PITCH * (i + 0.5);
            r->cz = LEVEL_PITCH * (j + 0.5);
            r->hx = level__range(&b, 6, 10);
            r->hz = level__range(&b, 6, 10);
            r->fy = heights[(int)(level__rand(&b) * 5)];
            double u = level__rand(&b);
            r->tess = u < 0.4 ? 0 : u < 0.7 ? 1 : 2; /* 0: two triangles a face, else a grid (m) */
        }
    /* doors: [room][side] = (span lo, span hi, present); corridors east (+x) and north (+z) */
    double doors[R][R][4][3];
    memset(doors, 0, sizeof doors);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < R; j++)
            for (int ew = 0; ew < 2; ew++) {
                int ni = i + (ew ? 1 : 0), nj = j + (ew ? 0 : 1);
                if (ni >= R || nj >= R || level__rand(&b) < 0.15) continue;
                const level__room *ra = &rooms[i][j], *rb = &rooms[ni][nj];
                double w = level__range(&b, 2.5, 4.0);
                double room_half = ew ? fmin(ra->hz, rb->hz) : fmin(ra->hx, rb->hx);
                double base = ew ? ra->cz : ra->cx; /* rooms of a row share the centre line */
                double mid = base + level__range(&b, -1, 1) * (room_half - 0.5 * w - 1.0);
                double c0 = mid - 0.5 * w, c1 = mid + 0.5 * w;
                level__corridor(&b, ra, rb, ew, c0, c1);
                double *da = doors[i][j][ew ? 1 : 3], *db = doors[ni][nj][ew ? 0 : 2];
                da[0] = db[0] = c0;
                da[1] = db[1] = c1;
                da[2] = db[2] = 1;
            }
    /* the courtyard: one slab under everything, 6 m beyond the rooms, and an 8 m wall round it */
    {
        const double lo = -6, hi = R * LEVEL_PITCH + 6, t = 0.5;
        level__aabb(&b, lo, hi, LEVEL_GROUND - 1, LEVEL_GROUND, lo, hi, 0, 0);
        level__aabb(&b, lo, hi, LEVEL_GROUND, 8, lo - t, lo, 0, 1);
        level__aabb(&b, lo, hi, LEVEL_GROUND, 8, hi, hi + t, 0, 1);
        level__aabb(&b, lo - t, lo, LEVEL_GROUND, 8, lo - t, hi + t, 0, 1);
        level__aabb(&b, hi, hi + t, LEVEL_GROUND, 8, lo - t, hi + t, 0, 1);
    }
    for (int i = 0; i < R; i++)
        for (int j = 0; j < R; j++) level__room_shell(&b, &rooms[i][j], (const double(*)[3])doors[i][j]);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < R; j++) level__furnish(&b, &rooms[i][j]);
    if (b.oom) {
        free(b.t);
        free(b.foot);
        return meadow__err(err, errcap, "level: out of memory");
    }

    s->num_triangles = b.n;
    s->num_terrain_triangles = 0;
    s->tris = b.t;
    meadow_motion(s, num_characters);
    s->spawn = malloc(sizeof(double) * 3 * (size_t)num_characters);
    s->headings = malloc(sizeof(double) * (size_t)s->num_segments * (size_t)num_characters);
    s->boxes = malloc(sizeof(double));
    if (!s->spawn || !s->headings || !s->boxes) {
        free(b.foot);
        meadow_free(s);
        return meadow__err(err, errcap, "level: out of memory");
    }
    for (int i = 0; i < num_characters; i++) {
        const level__room *r;
        double x, z;
        int tries = 0;
        for (;;) {
            r = &rooms[(int)(level__rand(&b) * R)][(int)(level__rand(&b) * R)];
            x = r->cx + level__range(&b, -1, 1) * (r->hx - 0.8);
            z = r->cz + level__range(&b, -1, 1) * (r->hz - 0.8);
            if (level__clear(&b, x, z, s->radius + 0.2, r->fy, r->fy + s->height + 0.6)) break;
            if (++tries > 10000) {
                free(b.foot);
                meadow_free(s);
                return meadow__err(err, errcap, "level: no clear floor for a player");
            }
        }
        s->spawn[3 * i] = x;
        s->spawn[3 * i + 1] = r->fy + 0.5;
        s->spawn[3 * i + 2] = z;
        for (int g = 0; g < s->num_segments; g++)
            s->headings[(size_t)i * (size_t)s->num_segments + (size_t)g] = level__rand(&b) * 2 * MEADOW_PI;
    }
    free(b.foot);
    meadow_bounds(s);
    s->generator = "gait runtime/cli/scene_level.h";
    s->seed = seed;
    return 0;
}

/* ---- inside the solid matter ------------------------------------------------------------ */

/* Ray (o, d) against triangle t (9 floats): 1 when it crosses at a distance > 0. */
static int level__crosses(const double *o, const double *d, const float *t) {
    double e1[3], e2[3], p[3], q[3], tv[3];
    for (int a = 0; a < 3; a++) { e1[a] = t[3 + a] - t[a]; e2[a] = t[6 + a] - t[a]; tv[a] = o[a] - t[a]; }
    p[0] = d[1] * e2[2] - d[2] * e2[1]; p[1] = d[2] * e2[0] - d[0] * e2[2]; p[2] = d[0] * e2[1] - d[1] * e2[0];
    double det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (det == 0) return 0;
    double inv = 1 / det, u = (tv[0] * p[0] + tv[1] * p[1] + tv[2] * p[2]) * inv;
    if (u < 0 || u > 1) return 0;
    q[0] = tv[1] * e1[2] - tv[2] * e1[1]; q[1] = tv[2] * e1[0] - tv[0] * e1[2]; q[2] = tv[0] * e1[1] - tv[1] * e1[0];
    double v = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
    if (v < 0 || u + v > 1) return 0;
    return (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv > 0;
}

/* Squared distance from p to triangle t (Ericson, Real-Time Collision Detection 5.1.5). */
static double level__dist2(const double *p, const float *t) {
    double a[3], b[3], c[3], ab[3], ac[3], ap[3], bp[3], cp[3], r[3];
    for (int k = 0; k < 3; k++) {
        a[k] = t[k]; b[k] = t[3 + k]; c[k] = t[6 + k];
        ab[k] = b[k] - a[k]; ac[k] = c[k] - a[k]; ap[k] = p[k] - a[k]; bp[k] = p[k] - b[k]; cp[k] = p[k] - c[k];
    }
#define LDOT(u, w) ((u)[0] * (w)[0] + (u)[1] * (w)[1] + (u)[2] * (w)[2])
    double d1 = LDOT(ab, ap), d2 = LDOT(ac, ap), d3 = LDOT(ab, bp), d4 = LDOT(ac, bp);
    double d5 = LDOT(ab, cp), d6 = LDOT(ac, cp);
    double va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2;
    if (d1 <= 0 && d2 <= 0) memcpy(r, a, sizeof r);
    else if (d3 >= 0 && d4 <= d3) memcpy(r, b, sizeof r);
    else if (vc <= 0 && d1 >= 0 && d3 <= 0) for (int k = 0; k < 3; k++) r[k] = a[k] + ab[k] * (d1 / (d1 - d3));
    else if (d6 >= 0 && d5 <= d6) memcpy(r, c, sizeof r);
    else if (vb <= 0 && d2 >= 0 && d6 <= 0) for (int k = 0; k < 3; k++) r[k] = a[k] + ac[k] * (d2 / (d2 - d6));
    else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
        for (int k = 0; k < 3; k++) r[k] = b[k] + (c[k] - b[k]) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    else {
        double inv = 1 / (va + vb + vc);
        for (int k = 0; k < 3; k++) r[k] = a[k] + ab[k] * vb * inv + ac[k] * vc * inv;
    }
    for (int k = 0; k < 3; k++) r[k] -= p[k];
    return LDOT(r, r);
#undef LDOT
}

/* Whether (x, y, z) lies inside the scene's solid matter deeper than margin (m): the crossings
 * of three oblique rays, two of three odd (robust to a ray grazing an edge), and no triangle
 * within margin. Brute force over every triangle: a report's check, not a query. Only meaningful
 * for scenes of closed solids (the generated level is; an imported level may not be). */
int level_inside_solid(const meadow_scene *s, double x, double y, double z, double margin) {
    static const double dirs[3][3] = {{0.5773, 0.6124, 0.5401}, {-0.6311, -0.4723, 0.6153},
                                      {0.4027, -0.7311, -0.5509}};
    double o[3] = {x, y, z};
    int odd = 0;
    for (int k = 0; k < 3; k++) {
        int n = 0;
        for (int t = 0; t < s->num_triangles; t++) n += level__crosses(o, dirs[k], s->tris + 9 * (size_t)t);
        odd += n & 1;
    }
    if (odd < 2) return 0;
    for (int t = 0; t < s->num_triangles; t++)
        if (level__dist2(o, s->tris + 9 * (size_t)t) < margin * margin) return 0;
    return 1;
}

#endif
#endif
