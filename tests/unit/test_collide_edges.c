/* Internal edges ("ghost collisions"): a capsule sliding over a flat floor, or along a flat
 * wall, made of many small triangles is never turned by the edges between them. Every contact
 * normal is the face normal (1e-9) and the push out has no tangential part; sweeps along the
 * surface hit nothing. Real creases (a box's corner) keep their own normal. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "collide_fixtures.h"

#define N 100 /* 100 x 100 quads: 20,000 triangles */

static gait_vec3 V(double x, double y, double z) { gait_vec3 v = {x, y, z}; return v; }

/* Slides the capsule (axis offset `axis` from its lowest point, radius r) along a path of small
 * steps; at each step every contact must push along `n` only. Returns contacts seen. */
static int slide(gait_collider *c, gait_vec3 from, gait_vec3 to, gait_vec3 axis, double r,
                 gait_vec3 n, int steps) {
    gait_contact_point ct[256];
    int seen = 0, bad = 0;
    for (int i = 0; i <= steps; i++) {
        double t = (double)i / steps;
        gait_vec3 a = V(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t, from.z + (to.z - from.z) * t);
        gait_capsule cap = {a, V(a.x + axis.x, a.y + axis.y, a.z + axis.z), r};
        bool tr;
        int k = gait_collider_capsule_overlap(c, &cap, NULL, ct, 256, &tr);
        CHECK(k >= 1 && !tr);
        gait_vec3 push = {0, 0, 0};
        for (int j = 0; j < k; j++) {
            if (fabs(ct[j].normal.x - n.x) > 1e-9 || fabs(ct[j].normal.y - n.y) > 1e-9 ||
                fabs(ct[j].normal.z - n.z) > 1e-9) {
                if (bad++ < 3)
                    CHECK_MSG(0, "step %d contact %d: normal (%.12f %.12f %.12f), wanted (%g %g %g)", i, j,
                              ct[j].normal.x, ct[j].normal.y, ct[j].normal.z, n.x, n.y, n.z);
            }
            push.x += ct[j].normal.x * ct[j].depth;
            push.y += ct[j].normal.y * ct[j].depth;
            push.z += ct[j].normal.z * ct[j].depth;
        }
        /* the push's part off the normal */
        double along = push.x * n.x + push.y * n.y + push.z * n.z;
        double tx = push.x - n.x * along, ty = push.y - n.y * along, tz = push.z - n.z * along;
        CHECK(sqrt(tx * tx + ty * ty + tz * tz) <= 1e-9);
        CHECK(along > 0);
        seen += k;
    }
    CHECK_EQ_INT(bad, 0);
    return seen;
}

/* Sweeps along the surface while resting on it (or a hair into it): no hit. */
static void sweep_along(gait_collider *c, gait_vec3 from, gait_vec3 axis, double r, gait_vec3 d,
                        int pieces) {
    int hits = 0;
    for (int i = 0; i < pieces; i++) {
        gait_vec3 a = V(from.x + d.x * i / pieces, from.y + d.y * i / pieces, from.z + d.z * i / pieces);
        gait_capsule cap = {a, V(a.x + axis.x, a.y + axis.y, a.z + axis.z), r};
        gait_hit h;
        if (gait_collider_capsule_sweep(c, &cap, V(d.x / pieces, d.y / pieces, d.z / pieces), NULL, &h)) {
            if (hits++ < 3)
                CHECK_MSG(0, "piece %d: hit at %.9f normal (%.9f %.9f %.9f) tri %d", i, h.fraction,
                          h.normal.x, h.normal.y, h.normal.z, h.triangle);
        }
    }
    CHECK_EQ_INT(hits, 0);
}

TEST(collide_internal_edges_flat_floor) {
    gait_collider *c = make_collider(NULL);
    float *t = malloc(sizeof(float) * 9 * 2 * N * N);
    /* jittered (by up to 0.2 of a cell, so none folds over): irregular triangles of every orientation, still exactly flat (y = 0) */
    int nt = floor_grid(t, N, -5, -5, 10, 0, 0.4f, 4242u);
    gait_landmark_id id = add_tris(c, t, nt, V(0, 0, 0));
    gait_landmark_info info;
    CHECK(gait_collider_landmark_info(c, id, &info) == GAIT_OK);
    CHECK_EQ_INT(info.triangle_count, 2 * N * N);
    gait_vec3 up = V(0, 1, 0);
    /* standing, 0.05 m into the floor, along x, along z and diagonally */
    int seen = 0;
    seen += slide(c, V(-4.5, 0.25, -1.234), V(4.5, 0.25, -1.234), V(0, 1, 0), 0.3, up, 1500);
    seen += slide(c, V(0.77, 0.25, -4.5), V(0.77, 0.25, 4.5), V(0, 1, 0), 0.3, up, 1500);
    seen += slide(c, V(-4.5, 0.21, -4.5), V(4.5, 0.21, 4.5), V(0, 1, 0), 0.3, up, 1500);
    /* lying down (the capsule's side over many edges at once), and tilted */
    seen += slide(c, V(-4.0, 0.28, 0.1), V(3.0, 0.28, 0.3), V(1.0, 0, 0.4), 0.3, up, 800);
    seen += slide(c, V(-4.0, 0.2, 2.0), V(3.0, 0.2, -2.0), V(0.5, 0.8, 0.2), 0.3, up, 800);
    CHECK(seen > 5000); /* many contacts on shared edges and vertices were checked */
    /* sweeps along the floor resting on it, and 0.1 mm into it: no ghost hit */
    sweep_along(c, V(-4.5, 0.3, 0.31), V(0, 1, 0), 0.3, V(9, 0, 0.5), 97);
    sweep_along(c, V(-4.5, 0.2999, -3.1), V(0, 1, 0), 0.3, V(8, 0, 6), 61);
    sweep_along(c, V(-4.0, 0.3, 1.0), V(1.0, 0, 0.2), 0.3, V(0, 0, 3.3), 40);
    /* a sphere cast skimming the floor (the camera's arm along the ground) */
    gait_hit h;
    CHECK(!gait_collider_sphere_cast(c, V(-4.5, 0.2, 0.5), 0.2, V(9, 0, 1), NULL, &h));
    free(t);
    gait_collider_destroy(c);
}

TEST(collide_internal_edges_flat_wall) {
    gait_collider *c = make_collider(NULL);
    float *t = malloc(sizeof(float) * 9 * 2 * N * N);
    int nt = floor_grid(t, N, -5, -5, 10, 0, 0.4f, 99u);
    /* rotate the floor about z: (x, y, z) -> (y, -x, z); its normal +y becomes +x */
    for (int k = 0; k < nt * 3; k++) {
        float x = t[k * 3], y = t[k * 3 + 1];
        t[k * 3] = y;
        t[k * 3 + 1] = -x;
    }
    add_tris(c, t, nt, V(0, 0, 0));
    gait_vec3 nx = V(1, 0, 0);
    int seen = 0;
    /* upright capsule pressed 0.05 m into the wall, sliding along it, and climbing it */
    seen += slide(c, V(0.25, -1, -4.5), V(0.25, -1, 4.5), V(0, 1.2, 0), 0.3, nx, 1500);
    seen += slide(c, V(0.25, -4.5, 0.3), V(0.25, 3.0, 0.3), V(0, 1.2, 0), 0.3, nx, 1500);
    seen += slide(c, V(0.28, -4.0, -4.0), V(0.28, 3.0, 4.0), V(0, 1.2, 0), 0.3, nx, 1500);
    CHECK(seen > 3000);
    sweep_along(c, V(0.3, -1, -4.5), V(0, 1.2, 0), 0.3, V(0, 0, 9), 89);
    sweep_along(c, V(0.2999, -4.5, -2), V(0, 1.2, 0), 0.3, V(0, 7, 3), 53);
    free(t);
    gait_collider_destroy(c);
}

TEST(collide_internal_edges_tilted_plane_and_terrain) {
    gait_collider *c = make_collider(NULL);
    /* a flat heightfield: the terrain's own internal edges */
    static float hs[101 * 101];
    for (int i = 0; i < 101 * 101; i++) hs[i] = 2.0f;
    gait_heightfield_def hd = {101, 101, 0.1, {-5, 0, -5}, hs};
    CHECK(gait_collider_set_terrain(c, &hd) == GAIT_OK);
    int seen = slide(c, V(-4.5, 2.25, -3.3), V(4.5, 2.25, 3.7), V(0, 1, 0), 0.3, V(0, 1, 0), 1500);
    seen += slide(c, V(-4.5, 2.28, 0.05), V(3.8, 2.28, 0.05), V(0.7, 0, 0), 0.3, V(0, 1, 0), 900);
    CHECK(seen > 2000);
    sweep_along(c, V(-4.5, 2.3, 0.0), V(0, 1, 0), 0.3, V(9, 0, 0.3), 91);
    /* a tilted heightfield plane (exact in floats: heights are multiples of 1/8 over 0.5 m
     * cells) has one normal on all its triangles */
    for (int iz = 0; iz < 101; iz++)
        for (int ix = 0; ix < 101; ix++) hs[iz * 101 + ix] = (float)(0.125 * ix + 0.0625 * iz);
    gait_heightfield_def td = {101, 101, 0.5, {0, 0, 0}, hs};
    CHECK(gait_collider_set_terrain(c, &td) == GAIT_OK);
    double l = sqrt(0.25 * 0.25 + 1 + 0.125 * 0.125);
    gait_vec3 n = V(-0.25 / l, 1 / l, -0.125 / l);
    gait_vec3 from = V(3, 0, 4), to = V(45, 0, 30);
    from.y = 0.25 * from.x + 0.125 * from.z;
    to.y = 0.25 * to.x + 0.125 * to.z;
    /* the lowest sphere centre 0.27 m off the plane along its normal: 0.03 m deep */
    from = V(from.x + n.x * 0.27, from.y + n.y * 0.27, from.z + n.z * 0.27);
    to = V(to.x + n.x * 0.27, to.y + n.y * 0.27, to.z + n.z * 0.27);
    seen = slide(c, from, to, V(0, 1, 0), 0.3, n, 1500);
    CHECK(seen > 1500);
    gait_collider_destroy(c);
}

TEST(collide_real_creases_keep_their_normal) {
    gait_collider *c = make_collider(NULL);
    /* a box on a tessellated floor: the box's edges and corners are convex creases */
    float *t = malloc(sizeof(float) * 9 * 2 * 20 * 20);
    int nt = floor_grid(t, 20, -5, -5, 10, 0, 0.0f, 1u);
    add_tris(c, t, nt, V(0, 0, 0));
    add_box(c, 0, 0, 0, 1, 1, 1);
    gait_contact_point ct[32];
    /* over the box's top edge x = 1: the normal leans out of the box, (1, 1, 0) / sqrt 2 */
    gait_capsule cap = {V(1.1, 1.1, 0.5), V(1.1, 2, 0.5), 0.3};
    int k = gait_collider_capsule_overlap(c, &cap, NULL, ct, 32, NULL);
    CHECK(k >= 2);
    for (int i = 0; i < k; i++) {
        CHECK_NEAR(ct[i].normal.x, sqrt(0.5), 1e-9);
        CHECK_NEAR(ct[i].normal.y, sqrt(0.5), 1e-9);
    }
    /* in the concave corner of the floor and the box's side x = 1: the floor pushes up, the
     * side pushes out along +x, nothing pushes along the diagonal */
    cap.a = V(1.25, 0.25, 0.5);
    cap.b = V(1.25, 1.5, 0.5);
    k = gait_collider_capsule_overlap(c, &cap, NULL, ct, 32, NULL);
    CHECK(k >= 2);
    int ups = 0, outs = 0;
    for (int i = 0; i < k; i++) {
        bool up = fabs(ct[i].normal.y - 1) < 1e-9, out = fabs(ct[i].normal.x - 1) < 1e-9;
        ups += up;
        outs += out;
        CHECK(up || out);
    }
    CHECK(ups >= 1 && outs >= 1);
    free(t);
    gait_collider_destroy(c);
}

/* The quad a b c d (counter-clockwise seen from its front) as two triangles into out. */
static void quad_tris(float *out, const double a[3], const double b[3], const double c[3],
                      const double d[3]) {
    const double *v[6] = {a, b, c, a, c, d};
    for (int k = 0; k < 6; k++)
        for (int j = 0; j < 3; j++) out[3 * k + j] = (float)v[k][j];
}

/* Every contact of the capsule (at least `want`) has normal n (1e-9). */
static void normals_are(gait_collider *c, gait_vec3 a, gait_vec3 b, double r, gait_vec3 n, int want) {
    gait_contact_point ct[16];
    gait_capsule cap = {a, b, r};
    int k = gait_collider_capsule_overlap(c, &cap, NULL, ct, 16, NULL);
    CHECK(k >= want);
    for (int i = 0; i < k; i++)
        CHECK_MSG(fabs(ct[i].normal.x - n.x) < 1e-9 && fabs(ct[i].normal.y - n.y) < 1e-9 &&
                      fabs(ct[i].normal.z - n.z) < 1e-9,
                  "contact %d (triangle %d): normal (%.9f %.9f %.9f), wanted (%.9f %.9f %.9f)", i,
                  ct[i].triangle, ct[i].normal.x, ct[i].normal.y, ct[i].normal.z, n.x, n.y, n.z);
}

/* Surfaces are two-sided, so whether an edge is a real crease depends on the side it is met
 * from: an open V-shaped trough (two plates at 30 deg) is a concave crease seen from inside the V
 * and a convex one seen from under it, whichever way its plates face. From under it the crease
 * keeps its own normal (it had a plate's face normal, leaning 30 deg, where the plates face into
 * the V: a sweep up into it was turned aside); from inside, beyond one plate's edge and over the
 * other, each plate pushes along its face normal (it had the edge's own normal there, where the
 * plates face out of the V). */
TEST(collide_crease_is_met_from_the_side_it_is_seen_from) {
    for (int into = 0; into < 2; into++) {
        gait_collider *c = make_collider(NULL);
        double h = tan(M_PI / 6);
        double l0[3] = {-1, 1 + h, -1}, l1[3] = {-1, 1 + h, 1}, m0[3] = {0, 1, -1}, m1[3] = {0, 1, 1};
        double r0[3] = {1, 1 + h, -1}, r1[3] = {1, 1 + h, 1};
        float t[36];
        if (into) { /* both plates facing up, into the V */
            quad_tris(t, l0, l1, m1, m0);
            quad_tris(t + 18, m0, m1, r1, r0);
        } else {    /* facing down, out of it */
            quad_tris(t, l0, m0, m1, l1);
            quad_tris(t + 18, m0, r0, r1, m1);
        }
        add_tris(c, t, 4, V(0, 0, 0));
        /* under the crease: the top end 0.2 m below it, straight down */
        normals_are(c, V(0, 0, 0.3), V(0, 0.8, 0.3), 0.3, V(0, -1, 0), 2);
        /* a capsule sweeping straight up into it from below meets it with the same normal */
        gait_capsule cap = {V(0, -0.5, 0.3), V(0, 0.3, 0.3), 0.3};
        gait_hit hit;
        CHECK(gait_collider_capsule_sweep(c, &cap, V(0, 1, 0), NULL, &hit));
        CHECK_NEAR(hit.normal.x, 0, 1e-9);
        CHECK_NEAR(hit.normal.y, -1, 1e-9);
        /* inside the V, 45 deg up from the crease on the right plate's side: beyond the left
         * plate's edge and over the right plate, in the concave corner: each plate's contact
         * has its face's normal, up into the V (the float plates': within 1e-7) */
        gait_contact_point ct[16];
        gait_capsule in = {V(0.1, 1.1, 0.3), V(0.1, 2, 0.3), 0.3};
        int k = gait_collider_capsule_overlap(c, &in, NULL, ct, 16, NULL);
        CHECK(k >= 2);
        for (int i = 0; i < k; i++)
            CHECK_MSG(fabs(fabs(ct[i].normal.x) - 0.5) < 1e-7 && fabs(ct[i].normal.y - sqrt(0.75)) < 1e-7,
                      "contact %d: normal (%.9f %.9f %.9f), wanted a plate's face normal", i,
                      ct[i].normal.x, ct[i].normal.y, ct[i].normal.z);
        gait_collider_destroy(c);
    }
}

/* A thin wedge (two plates meeting in a knife edge at 19 deg, as the fuzzer's wedge) is a
 * convex edge from every point beyond either plate's edge: its plates bend back past a right
 * angle, so the concave corner between them lies behind the edge's lines. Wound either way (the
 * fuzzer winds both plates facing into the wedge), a capsule in front of the knife edge meets it
 * with the edge's own normal: level when its axis crosses the underside's plane (a body on a
 * bank sliding into the edge at mid-height; the underside's and the slope's face normals, up
 * and out, read there as two floors and held nothing, liveness seed 706655), and leaning up to
 * its bottom end when that end is a little over the underside's plane. */
TEST(collide_knife_edge_is_a_corner_from_both_sides) {
    double a = 19 * M_PI / 180, s = sin(a), co = cos(a), len = 3;
    double q0[3] = {-1, 1, 0}, q1[3] = {1, 1, 0}, q2[3] = {1, 1, len}, q3[3] = {-1, 1, len};
    double q4[3] = {1, 1 + len * s, len * co}, q5[3] = {-1, 1 + len * s, len * co};
    for (int into = 0; into < 2; into++) {
        gait_collider *c = make_collider(NULL);
        float t[36];
        if (into) { /* the fuzzer's: underside facing up, slope facing down, both into the wedge */
            quad_tris(t, q0, q3, q2, q1);
            quad_tris(t + 18, q0, q1, q4, q5);
        } else {    /* facing out: underside down, slope up */
            quad_tris(t, q0, q1, q2, q3);
            quad_tris(t + 18, q0, q5, q4, q1);
        }
        add_tris(c, t, 4, V(0, 0, 0));
        /* the axis 0.25 m in front of the edge, crossing the underside's plane */
        normals_are(c, V(0.2, 0.3, -0.25), V(0.2, 1.7, -0.25), 0.3, V(0, 0, -1), 2);
        /* its bottom end 0.05 m over the underside's plane */
        double d = sqrt(0.25 * 0.25 + 0.05 * 0.05);
        normals_are(c, V(0.2, 1.05, -0.25), V(0.2, 2.45, -0.25), 0.3, V(0, 0.05 / d, -0.25 / d), 2);
        gait_collider_destroy(c);
    }
}
