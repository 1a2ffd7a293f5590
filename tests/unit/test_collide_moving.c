/* Moving landmarks in the collider: a turned, moved landmark answers queries as the same mesh
 * built in place would (to float rounding of the built one), the trees, a gather and the brute
 * force answer them bit for bit alike, and a gather stays valid while only moving ones move. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "collide/collide_internal.h"
#include "collide_fixtures.h"
#include "gait/gait.h"

/* A uniform number in [0, 1) from a small LCG. */
static double frand(unsigned *s) {
    *s = *s * 1664525u + 1013904223u;
    return (double)(*s >> 8) / 16777216.0;
}

/* A staircase-like mesh: three boxes in the landmark's own frame. */
static int mesh(float *out) {
    const float boxes[3][6] = {{-2, 0, -2, 2, 0.5f, 2}, {-1, 0.5f, -1, 1, 1.0f, 1}, {1.5f, 0, -0.5f, 2.5f, 3, 0.5f}};
    for (int b = 0; b < 3; b++) box_tris(out + 108 * b, boxes[b], boxes[b] + 3);
    return 36;
}

static gait_landmark_id add_mesh(gait_collider *c, const float *tris, int n, gait_vec3 offset) {
    return add_tris(c, tris, n, offset);
}

/* The quaternion's rotation applied to v. */
static gait_vec3 qrot(const double q[4], gait_vec3 v) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double m[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                   2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                   2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
    return (gait_vec3){m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
                       m[6] * v.x + m[7] * v.y + m[8] * v.z};
}

TEST(collide_moving_a_turned_landmark_answers_as_one_built_there) {
    float tris[36 * 9], placed[36 * 9];
    int n = mesh(tris);
    gait_collider *moved = gait_collider_create(NULL), *built = gait_collider_create(NULL);
    gait_landmark_id lm = add_mesh(moved, tris, n, (gait_vec3){0, 0, 0});
    /* a turn about a tilted axis and a move */
    gait_transform to;
    to.position = (gait_vec3){30.25, -2, 7.5};
    double ax[3] = {0.3, 0.9, -0.2}, l = sqrt(0.09 + 0.81 + 0.04), a = 0.8;
    to.rotation[0] = ax[0] / l * sin(a / 2);
    to.rotation[1] = ax[1] / l * sin(a / 2);
    to.rotation[2] = ax[2] / l * sin(a / 2);
    to.rotation[3] = cos(a / 2);
    CHECK_EQ_INT(gait_collider_move_landmark(moved, lm, &to), GAIT_OK);
    CHECK_EQ_INT(gait_collider_advance(moved, 1.0 / 60), GAIT_OK);
    for (int i = 0; i < n * 3; i++) {
        gait_vec3 p = qrot(to.rotation, (gait_vec3){tris[3 * i], tris[3 * i + 1], tris[3 * i + 2]});
        placed[3 * i] = (float)p.x;
        placed[3 * i + 1] = (float)p.y;
        placed[3 * i + 2] = (float)p.z;
    }
    add_mesh(built, placed, n, to.position);
    unsigned seed = 7;
    int hits = 0, contacts = 0;
    for (int q = 0; q < 3000; q++) {
        gait_vec3 at = {to.position.x + 4 * frand(&seed) - 2, to.position.y + 4 * frand(&seed) - 1.5,
                        to.position.z + 4 * frand(&seed) - 2};
        gait_vec3 d = {2 * frand(&seed) - 1, 2 * frand(&seed) - 1, 2 * frand(&seed) - 1};
        gait_capsule cap = {at, {at.x, at.y + 1.1, at.z}, 0.3};
        gait_hit h1, h2;
        bool a1 = gait_collider_capsule_sweep(moved, &cap, d, NULL, &h1);
        bool a2 = gait_collider_capsule_sweep(built, &cap, d, NULL, &h2);
        CHECK_MSG(a1 == a2 || (a1 ? h1.fraction : h2.fraction) > 0.999 ||
                      (a1 ? h1.start_solid : h2.start_solid),
                  "sweep %d: hit %d against %d", q, a1, a2);
        if (a1 && a2) {
            hits++;
            CHECK_NEAR(h1.fraction, h2.fraction, 1e-4);
            if (!h1.start_solid) CHECK_NEAR(v3_dot(h1.normal, h2.normal), 1, 1e-3);
        }
        gait_contact_point c1[16], c2[16];
        int n1 = gait_collider_capsule_overlap(moved, &cap, NULL, c1, 16, NULL);
        int n2 = gait_collider_capsule_overlap(built, &cap, NULL, c2, 16, NULL);
        double d1 = 0, d2 = 0;
        for (int i = 0; i < n1; i++) d1 = c1[i].depth > d1 ? c1[i].depth : d1;
        for (int i = 0; i < n2; i++) d2 = c2[i].depth > d2 ? c2[i].depth : d2;
        CHECK_NEAR(d1, d2, 1e-4);
        contacts += n1 > 0;
        gait_hit r1, r2;
        bool b1 = gait_collider_ray_cast(moved, at, v3_scale(d, 3), NULL, &r1);
        bool b2 = gait_collider_ray_cast(built, at, v3_scale(d, 3), NULL, &r2);
        if (b1 && b2) CHECK_NEAR(r1.distance, r2.distance, 1e-4);
    }
    CHECK(hits > 300 && contacts > 300);
    gait_collider_destroy(moved);
    gait_collider_destroy(built);
}

/* Field by field, to the bit (struct padding aside). */
static bool same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }
static bool same_hit(const gait_hit *a, const gait_hit *b) {
    return same_bits(&a->fraction, &b->fraction, sizeof a->fraction) &&
           same_bits(&a->distance, &b->distance, sizeof a->distance) &&
           same_bits(&a->point, &b->point, sizeof a->point) && same_bits(&a->normal, &b->normal, sizeof a->normal) &&
           a->landmark.index1 == b->landmark.index1 && a->triangle == b->triangle &&
           a->start_solid == b->start_solid;
}
static bool same_contact(const gait_contact_point *a, const gait_contact_point *b) {
    return same_bits(&a->point, &b->point, sizeof a->point) && same_bits(&a->normal, &b->normal, sizeof a->normal) &&
           same_bits(&a->depth, &b->depth, sizeof a->depth) && a->cls == b->cls &&
           a->landmark.index1 == b->landmark.index1 && a->triangle == b->triangle;
}

TEST(collide_moving_trees_gathers_and_brute_force_agree_to_the_bit) {
    float tris[36 * 9];
    int n = mesh(tris);
    gait_collider *c = gait_collider_create(NULL);
    gait_landmark_id still = add_mesh(c, tris, n, (gait_vec3){0, 0, 0});
    gait_landmark_id mover = add_mesh(c, tris, n, (gait_vec3){3, 0, 0});
    (void)still;
    gait_collider_set_landmark_velocity(c, mover, (gait_vec3){0.4, 0.1, -0.3}, (gait_vec3){0.2, 1.1, 0.05});
    size_t bytes = gait_gather_scratch_bytes(512);
    void *mem = malloc(bytes);
    gait_gather g;
    gait_gather_init(&g, mem, bytes);
    unsigned seed = 11;
    uint64_t rev0 = gait_collider_static_revision(c);
    int compared = 0;
    for (int step = 0; step < 40; step++) {
        gait_collider_advance(c, 1.0 / 30);
        CHECK(gait_collider_static_revision(c) == rev0); /* moves leave gathers valid */
        gait_collider_gather(c, (gait_vec3){-4, -3, -4}, (gait_vec3){9, 5, 4}, &g);
        for (int q = 0; q < 50; q++) {
            gait_vec3 at = {8 * frand(&seed) - 2, 3 * frand(&seed) - 1, 6 * frand(&seed) - 3};
            gait_vec3 d = {frand(&seed) - 0.5, frand(&seed) - 0.5, frand(&seed) - 0.5};
            gait_capsule cap = {at, {at.x, at.y + 1.1, at.z}, 0.3};
            gait_hit h[3];
            bool a[3] = {gait_collider_capsule_sweep(c, &cap, d, NULL, &h[0]),
                         gait_gather_capsule_sweep(&g, &cap, d, NULL, &h[1]),
                         gait__capsule_sweep_ex(c, &cap, d, NULL, &h[2], 1)};
            CHECK(a[0] == a[1] && a[0] == a[2]);
            if (a[0]) {
                CHECK(same_hit(&h[0], &h[1]));
                CHECK(same_hit(&h[0], &h[2]));
            }
            gait_contact_point cp[3][32];
            int nn[3] = {gait_collider_capsule_overlap(c, &cap, NULL, cp[0], 32, NULL),
                         gait_gather_capsule_overlap(&g, &cap, NULL, cp[1], 32, NULL),
                         gait__capsule_overlap_ex(c, &cap, NULL, cp[2], 32, NULL, 1)};
            CHECK(nn[0] == nn[1] && nn[0] == nn[2]);
            if (nn[0] > 0) {
                for (int i = 0; i < nn[0]; i++) CHECK(same_contact(&cp[0][i], &cp[1][i]) && same_contact(&cp[0][i], &cp[2][i]));
            }
            compared += a[0] + (nn[0] > 0);
        }
    }
    CHECK(compared > 300);
    /* skip_moving leaves it out, moving_near finds it */
    gait_transform t;
    gait_collider_landmark_transform(c, mover, &t);
    gait_filter f;
    memset(&f, 0, sizeof f);
    f.skip_moving = true;
    gait_capsule at_mover = {t.position, {t.position.x, t.position.y + 1, t.position.z}, 0.3};
    gait_contact_point cp[32];
    int with = gait_collider_capsule_overlap(c, &at_mover, NULL, cp, 32, NULL);
    int without = gait_collider_capsule_overlap(c, &at_mover, &f, cp, 32, NULL);
    CHECK(with > without);
    CHECK(gait_collider_moving_near(c, v3_sub(t.position, (gait_vec3){0.1, 0.1, 0.1}),
                                    v3_add(t.position, (gait_vec3){0.1, 0.1, 0.1})));
    CHECK(!gait_collider_moving_near(c, (gait_vec3){100, 0, 100}, (gait_vec3){101, 1, 101}));
    free(mem);
    gait_collider_destroy(c);
}

/* A still landmark's carry is no carry; a moving one's maps the point along. */
TEST(collide_moving_carry_maps_points_with_the_landmark) {
    float tris[36 * 9];
    int n = mesh(tris);
    gait_collider *c = gait_collider_create(NULL);
    gait_landmark_id lm = add_mesh(c, tris, n, (gait_vec3){1, 2, 3});
    gait_vec3 p = {1.5, 2.5, 3}, out;
    double turn[4];
    CHECK_EQ_INT(gait_collider_landmark_carry(c, lm, p, &out, turn), GAIT_OK);
    CHECK(out.x == p.x && out.y == p.y && out.z == p.z && turn[3] == 1);
    gait_collider_set_landmark_velocity(c, lm, (gait_vec3){0, 0, 0}, (gait_vec3){0, M_PI, 0});
    gait_collider_advance(c, 0.5); /* a quarter turn about +y through (1, 2, 3) */
    CHECK_EQ_INT(gait_collider_landmark_carry(c, lm, p, &out, turn), GAIT_OK);
    /* (+0.5, 0, 0) from the axis turns to (0, 0, -0.5) */
    CHECK_NEAR(out.x, 1, 1e-12);
    CHECK_NEAR(out.z, 2.5, 1e-12);
    CHECK_NEAR(out.y, 2.5, 1e-12);
    CHECK_NEAR(turn[1], sin(M_PI / 4), 1e-12);
    gait_collider_destroy(c);
}
