/* Collision world: analytic answers (capsule vs plane, face, edge, vertex, box corner; sweep
 * time of impact; sphere cast; ray cast), terrain, water, streaming, allocation, bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "collide_fixtures.h"

#define EPS 1e-9 /* m or unit-vector components: exact geometry up to double rounding */

static gait_vec3 V(double x, double y, double z) { gait_vec3 v = {x, y, z}; return v; }
static gait_capsule CAP(gait_vec3 a, gait_vec3 b, double r) { gait_capsule c = {a, b, r}; return c; }

#define CHECK_VEC(v, X, Y, Z, tol) do { CHECK_NEAR((v).x, X, tol); CHECK_NEAR((v).y, Y, tol); CHECK_NEAR((v).z, Z, tol); } while (0)

/* one big quad at y = 0 over [-10, 10]^2 */
static gait_landmark_id add_floor(gait_collider *c) {
    float t[18] = {-10, 0, -10, -10, 0, 10, 10, 0, 10, -10, 0, -10, 10, 0, 10, 10, 0, -10};
    return add_tris(c, t, 2, V(0, 0, 0));
}

/* The casts' scene: the floor (landmark 1) and the unit box [0, 1]^3 on it (landmark 2). */
static gait_collider *floor_and_unit_box(void) {
    gait_collider *c = make_collider(NULL);
    add_floor(c);
    add_box(c, 0, 0, 0, 1, 1, 1);
    return c;
}

TEST(collide_capsule_vs_plane) {
    gait_collider *c = make_collider(NULL);
    add_floor(c);
    gait_contact_point ct[8];
    gait_capsule cap = CAP(V(1, 0.2, -2), V(1, 1.2, -2), 0.3);
    int n = gait_collider_capsule_overlap(c, &cap, NULL, ct, 8, NULL);
    CHECK_EQ_INT(n, 1);
    CHECK_NEAR(ct[0].depth, 0.1, EPS);
    CHECK_VEC(ct[0].normal, 0, 1, 0, EPS);
    CHECK_VEC(ct[0].point, 1, 0, -2, EPS);
    CHECK(ct[0].cls == GAIT_CONTACT_FLOOR);
    CHECK_EQ_INT(ct[0].landmark.index1, 1);
    /* lying down: the whole axis at 0.25 m, radius 0.3 */
    cap = CAP(V(-1, 0.25, -3), V(1, 0.25, -3), 0.3);
    n = gait_collider_capsule_overlap(c, &cap, NULL, ct, 8, NULL);
    CHECK_EQ_INT(n, 1);
    CHECK_NEAR(ct[0].depth, 0.05, EPS);
    CHECK_VEC(ct[0].normal, 0, 1, 0, EPS);
    /* from below the plane: pushed down, a ceiling */
    cap = CAP(V(1, -0.2, -2), V(1, -1.2, -2), 0.3);
    n = gait_collider_capsule_overlap(c, &cap, NULL, ct, 8, NULL);
    CHECK_EQ_INT(n, 1);
    CHECK_VEC(ct[0].normal, 0, -1, 0, EPS);
    CHECK(ct[0].cls == GAIT_CONTACT_CEILING);
    /* just clear: nothing */
    cap = CAP(V(1, 0.3000001, -2), V(1, 1.3, -2), 0.3);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 8, NULL), 0);
    /* pierced: the axis crosses the plane, pushed up past the lower end */
    cap = CAP(V(1, -0.4, -2), V(1, 1.0, -2), 0.3);
    n = gait_collider_capsule_overlap(c, &cap, NULL, ct, 8, NULL);
    CHECK_EQ_INT(n, 1);
    CHECK_NEAR(ct[0].depth, 0.7, EPS);
    CHECK_VEC(ct[0].normal, 0, 1, 0, EPS);
    gait_collider_destroy(c);
}

TEST(collide_capsule_vs_triangle_features) {
    gait_collider *c = make_collider(NULL);
    /* one triangle facing +y: A (0,0,0), B (0,0,2), C (2,0,0) */
    float t[9] = {0, 0, 0, 0, 0, 2, 2, 0, 0};
    add_tris(c, t, 1, V(0, 0, 0));
    gait_contact_point ct[4];
    /* face */
    gait_capsule cap = CAP(V(0.5, 0.2, 0.5), V(0.5, 0.2, 0.5), 0.3);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, NULL), 1);
    CHECK_NEAR(ct[0].depth, 0.1, EPS);
    CHECK_VEC(ct[0].normal, 0, 1, 0, EPS);
    CHECK_VEC(ct[0].point, 0.5, 0, 0.5, EPS);
    /* edge A-B (x = 0): a border edge, the normal points from the edge to the centre */
    cap = CAP(V(-0.2, 0.1, 1), V(-0.2, 0.1, 1), 0.3);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, NULL), 1);
    double d = sqrt(0.05);
    CHECK_NEAR(ct[0].depth, 0.3 - d, EPS);
    CHECK_VEC(ct[0].normal, -0.2 / d, 0.1 / d, 0, EPS);
    CHECK_VEC(ct[0].point, 0, 0, 1, EPS);
    CHECK(ct[0].cls == GAIT_CONTACT_WALL);
    /* vertex A */
    cap = CAP(V(-0.1, 0.1, -0.1), V(-0.1, 0.1, -0.1), 0.3);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, NULL), 1);
    d = sqrt(0.03);
    CHECK_NEAR(ct[0].depth, 0.3 - d, EPS);
    CHECK_VEC(ct[0].normal, -0.1 / d, 0.1 / d, -0.1 / d, EPS);
    CHECK_VEC(ct[0].point, 0, 0, 0, EPS);
    /* the capsule's side against edge A-B: vertical axis at x = -0.2 */
    cap = CAP(V(-0.2, -1, 1), V(-0.2, 1, 1), 0.3);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, NULL), 1);
    CHECK_NEAR(ct[0].depth, 0.1, EPS);
    CHECK_VEC(ct[0].normal, -1, 0, 0, EPS);
    CHECK_VEC(ct[0].point, 0, 0, 1, EPS);
    gait_collider_destroy(c);
}

TEST(collide_capsule_vs_box_corner_and_edge) {
    gait_collider *c = make_collider(NULL);
    add_box(c, 0, 0, 0, 1, 1, 1);
    gait_contact_point ct[16];
    gait_capsule cap = CAP(V(1.1, 1.1, 1.1), V(1.1, 1.1, 1.1), 0.3);
    int n = gait_collider_capsule_overlap(c, &cap, NULL, ct, 16, NULL);
    CHECK(n >= 3);
    double s = 1 / sqrt(3.0), d = sqrt(0.03);
    for (int i = 0; i < n; i++) {
        CHECK_NEAR(ct[i].depth, 0.3 - d, EPS);
        CHECK_VEC(ct[i].normal, s, s, s, EPS);
        CHECK_VEC(ct[i].point, 1, 1, 1, EPS);
    }
    /* the top edge along z at x = 1 */
    cap = CAP(V(1.1, 1.1, 0.5), V(1.1, 1.1, 0.5), 0.3);
    n = gait_collider_capsule_overlap(c, &cap, NULL, ct, 16, NULL);
    CHECK(n >= 2);
    for (int i = 0; i < n; i++) {
        CHECK_NEAR(ct[i].depth, 0.3 - sqrt(0.02), EPS);
        CHECK_VEC(ct[i].normal, sqrt(0.5), sqrt(0.5), 0, EPS);
    }
    gait_collider_destroy(c);
}

/* a wall x = 5 facing -x over y, z in [-10, 10] */
static void add_wall(gait_collider *c) {
    float t[18] = {5, -10, -10, 5, 10, -10, 5, 10, 10, 5, -10, -10, 5, 10, 10, 5, -10, 10};
    add_tris(c, t, 2, V(0, 0, 0));
}

TEST(collide_sweep_time_of_impact_wall) {
    gait_collider *c = make_collider(NULL);
    add_wall(c);
    gait_hit h;
    gait_capsule cap = CAP(V(0, 0.5, 0.3), V(0, 1.5, 0.3), 0.5);
    CHECK(gait_collider_capsule_sweep(c, &cap, V(10, 0, 0), NULL, &h));
    /* the wall is 5 m away, the capsule 0.5 m thick: it touches after 4.5 of 10 m, stops
     * the 0.002 m skin short */
    CHECK_NEAR(h.fraction, 0.45 - 0.002 / 10, EPS);
    CHECK_NEAR(h.distance, 4.498, EPS);
    CHECK_VEC(h.normal, -1, 0, 0, EPS);
    CHECK_NEAR(h.point.x, 5, EPS);
    CHECK(!h.start_solid);
    /* diagonal: the same 4.5 m along x */
    CHECK(gait_collider_capsule_sweep(c, &cap, V(10, 0, 10), NULL, &h));
    CHECK_NEAR(h.fraction, 0.45 - 0.002 / sqrt(200.0), EPS);
    /* too short to reach: no hit */
    CHECK(!gait_collider_capsule_sweep(c, &cap, V(4.4, 0, 0), NULL, &h));
    /* moving away: no hit */
    CHECK(!gait_collider_capsule_sweep(c, &cap, V(-10, 0, 0), NULL, &h));
    /* starting inside and moving in: start_solid at fraction 0 */
    cap = CAP(V(4.8, 0.5, 0), V(4.8, 1.5, 0), 0.5);
    CHECK(gait_collider_capsule_sweep(c, &cap, V(1, 0, 0), NULL, &h));
    CHECK(h.start_solid);
    CHECK_NEAR(h.fraction, 0, 0);
    gait_collider_destroy(c);
}

TEST(collide_sweep_edges_and_vertices) {
    gait_collider *c = make_collider(NULL);
    add_box(c, 0, 0, 0, 1, 1, 1);
    gait_hit h;
    /* lying along x, wider than the box: its side lands on the top face's edges
     * (segment against edge), after (3 - 1 - 0.25) of 5 m */
    gait_capsule cap = CAP(V(-1, 3, 0.5), V(2, 3, 0.5), 0.25);
    CHECK(gait_collider_capsule_sweep(c, &cap, V(0, -5, 0), NULL, &h));
    CHECK_NEAR(h.fraction, 0.35 - 0.002 / 5, EPS);
    CHECK_VEC(h.normal, 0, 1, 0, EPS);
    CHECK_NEAR(h.point.y, 1, EPS);
    /* lying diagonally right over the corner (1, 1, 1): the corner meets the capsule's side */
    cap = CAP(V(1.5, 3, 0.5), V(0.5, 3, 1.5), 0.25);
    CHECK(gait_collider_capsule_sweep(c, &cap, V(0, -5, 0), NULL, &h));
    CHECK_NEAR(h.fraction, 0.35 - 0.002 / 5, EPS);
    CHECK_VEC(h.normal, 0, 1, 0, EPS);
    CHECK_VEC(h.point, 1, 1, 1, EPS);
    /* a capsule end against the box's top edge x = 0 (sphere against edge) */
    cap = CAP(V(-3, 1.2, 0.5), V(-3, 2.2, 0.5), 0.5);
    CHECK(gait_collider_capsule_sweep(c, &cap, V(5, 0, 0), NULL, &h));
    double x = -sqrt(0.25 - 0.04);
    CHECK_NEAR(h.fraction, (3 + x) / 5 - 0.002 / 5, EPS);
    CHECK_VEC(h.normal, x / 0.5, 0.2 / 0.5, 0, EPS);
    CHECK_VEC(h.point, 0, 1, 0.5, EPS);
    gait_collider_destroy(c);
}

TEST(collide_sphere_cast) {
    gait_collider *c = floor_and_unit_box();
    gait_hit h;
    /* straight down onto the floor */
    CHECK(gait_collider_sphere_cast(c, V(3, 5, 3), 0.5, V(0, -10, 0), NULL, &h));
    CHECK_NEAR(h.fraction, 0.45 - 0.002 / 10, EPS);
    CHECK_VEC(h.normal, 0, 1, 0, EPS);
    CHECK_VEC(h.point, 3, 0, 3, EPS);
    CHECK_EQ_INT(h.landmark.index1, 1);
    /* along x at 1.2 m into the box's top edge x = 0 */
    CHECK(gait_collider_sphere_cast(c, V(-3, 1.2, 0.5), 0.5, V(5, 0, 0), NULL, &h));
    double x = -sqrt(0.25 - 0.04);
    CHECK_NEAR(h.fraction, (3 + x) / 5 - 0.002 / 5, EPS);
    CHECK_VEC(h.normal, x / 0.5, 0.4, 0, EPS);
    CHECK_EQ_INT(h.landmark.index1, 2);
    /* over the box: clear */
    CHECK(!gait_collider_sphere_cast(c, V(-3, 1.6, 0.5), 0.5, V(5, 0, 0), NULL, &h));
    /* invalid radius */
    CHECK(!gait_collider_sphere_cast(c, V(3, 5, 3), 0, V(0, -10, 0), NULL, &h));
    gait_collider_destroy(c);
}

TEST(collide_ray_cast) {
    gait_collider *c = floor_and_unit_box();
    gait_hit h;
    CHECK(gait_collider_ray_cast(c, V(0.5, 5, 0.25), V(0, -10, 0), NULL, &h));
    CHECK_NEAR(h.fraction, 0.4, EPS);
    CHECK_NEAR(h.distance, 4, EPS);
    CHECK_VEC(h.point, 0.5, 1, 0.25, EPS);
    CHECK_VEC(h.normal, 0, 1, 0, EPS);
    CHECK_EQ_INT(h.landmark.index1, 2);
    /* from inside the box: hits its ceiling's back side, the normal faces the ray */
    CHECK(gait_collider_ray_cast(c, V(0.5, 0.5, 0.25), V(0, 2, 0), NULL, &h));
    CHECK_NEAR(h.fraction, 0.25, EPS);
    CHECK_VEC(h.normal, 0, -1, 0, EPS);
    /* skipping landmarks: nothing */
    gait_filter f;
    memset(&f, 0, sizeof f);
    f.skip_landmarks = true;
    CHECK(!gait_collider_ray_cast(c, V(0.5, 5, 0.25), V(0, -10, 0), &f, &h));
    /* ignoring the box: the floor */
    memset(&f, 0, sizeof f);
    f.ignore.index1 = 2;
    f.ignore.generation = 1;
    CHECK(gait_collider_ray_cast(c, V(0.5, 5, 0.25), V(0, -10, 0), &f, &h));
    CHECK_NEAR(h.fraction, 0.5, EPS);
    /* ignoring only the box's triangles overlapping a slab around its top (the top and the
     * sides): the ray passes through, then meets the box's bottom face and the floor, both
     * at y = 0; equal times go to the lower landmark index, the floor */
    f.ignore_region_only = true;
    f.region_min = V(-1, 0.9, -1);
    f.region_max = V(2, 1.1, 2);
    CHECK(gait_collider_ray_cast(c, V(0.5, 5, 0.25), V(0, -10, 0), &f, &h));
    CHECK_NEAR(h.fraction, 0.5, EPS);
    CHECK_EQ_INT(h.landmark.index1, 1);
    /* parallel and beside: no hit */
    CHECK(!gait_collider_ray_cast(c, V(-5, 2, 0), V(10, 0, 0), NULL, &h));
    gait_collider_destroy(c);
}

/* ---- terrain ---------------------------------------------------------------------------- */

TEST(collide_terrain_sample_plane_and_triangles) {
    gait_collider *c = make_collider(NULL);
    float hs[9];
    for (int iz = 0; iz < 3; iz++)
        for (int ix = 0; ix < 3; ix++) hs[iz * 3 + ix] = (float)(0.5 * ix + 0.25 * iz);
    gait_heightfield_def hd = {3, 3, 2.0, {10, 1, 20}, hs};
    CHECK(gait_collider_set_terrain(c, &hd) == GAIT_OK);
    double h;
    gait_vec3 n;
    /* a plane: height = 1 + 0.25 * (x - 10) + 0.125 * (z - 20) */
    CHECK(gait_terrain_sample(c, 10.6, 21.4, &h, &n));
    CHECK_NEAR(h, 1 + 0.25 * 0.6 + 0.125 * 1.4, EPS);
    double l = sqrt(0.25 * 0.25 + 1 + 0.125 * 0.125);
    CHECK_VEC(n, -0.25 / l, 1 / l, -0.125 / l, EPS);
    CHECK(!gait_terrain_sample(c, 9.99, 21, &h, &n));
    CHECK(gait_terrain_sample(c, 14, 24, &h, &n)); /* the far corner is inside */
    CHECK(!gait_terrain_sample(c, 14.01, 24, &h, &n));

    /* a bumpy field: the sampled height is exactly where a ray down hits the surface, on
     * both triangles of every cell */
    float bump[36];
    unsigned s = 7;
    for (int i = 0; i < 36; i++) {
        s = s * 1664525u + 1013904223u;
        bump[i] = (float)(s >> 8) / 16777216.0f * 2.0f;
    }
    gait_heightfield_def bd = {6, 6, 1.0, {0, 0, 0}, bump};
    CHECK(gait_collider_set_terrain(c, &bd) == GAIT_OK);
    for (int i = 0; i < 400; i++) {
        s = s * 1664525u + 1013904223u;
        double x = (double)(s >> 8) / 16777216.0 * 5;
        s = s * 1664525u + 1013904223u;
        double z = (double)(s >> 8) / 16777216.0 * 5;
        gait_hit hit;
        CHECK(gait_terrain_sample(c, x, z, &h, &n));
        CHECK(gait_collider_ray_cast(c, V(x, 10, z), V(0, -20, 0), NULL, &hit));
        CHECK_NEAR(hit.point.y, h, 1e-9);
        CHECK_VEC(hit.normal, n.x, n.y, n.z, 1e-9);
        CHECK(hit.landmark.index1 == 0);
        /* and a capsule resting 0.01 m into it along the normal is pushed out by 0.01 */
        gait_vec3 p = V(x + n.x * 0.29, h + n.y * 0.29, z + n.z * 0.29);
        gait_capsule cap = CAP(p, p, 0.3);
        gait_contact_point ct[16];
        int k = gait_collider_capsule_overlap(c, &cap, NULL, ct, 16, NULL);
        double deepest = 0;
        for (int j = 0; j < k; j++) deepest = fmax(deepest, ct[j].depth);
        CHECK(k >= 1);
        CHECK(deepest >= 0.01 - 1e-9);
    }
    /* clearing it */
    CHECK(gait_collider_set_terrain(c, NULL) == GAIT_OK);
    CHECK(!gait_terrain_sample(c, 1, 1, &h, &n));
    gait_collider_destroy(c);
}

TEST(collide_terrain_bad_input_keeps_old) {
    gait_collider *c = make_collider(NULL);
    float hs[4] = {1, 1, 1, 1};
    gait_heightfield_def hd = {2, 2, 1.0, {0, 0, 0}, hs};
    CHECK(gait_collider_set_terrain(c, &hd) == GAIT_OK);
    float bad[4] = {0, NAN, 0, 0};
    gait_heightfield_def bd = {2, 2, 1.0, {0, 0, 0}, bad};
    CHECK(gait_collider_set_terrain(c, &bd) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gait_collider_last_error(c), "not finite") != NULL);
    bd.heights = hs;
    bd.cell_size = -1;
    CHECK(gait_collider_set_terrain(c, &bd) == GAIT_ERR_INVALID_ARGUMENT);
    bd.cell_size = 1;
    bd.samples_x = 1;
    CHECK(gait_collider_set_terrain(c, &bd) == GAIT_ERR_INVALID_ARGUMENT);
    double h;
    CHECK(gait_terrain_sample(c, 0.5, 0.5, &h, NULL));
    CHECK_NEAR(h, 1, 0);
    CHECK(gait_collider_load_heightmap(c, "/nonexistent/x.png", 1, 1, V(0, 0, 0)) == GAIT_ERR_IO);
    CHECK(gait_terrain_sample(c, 0.5, 0.5, &h, NULL));
    gait_collider_destroy(c);
}

/* ---- PNG heightmaps: a tiny PNG writer (stored deflate blocks) for 8- and 16-bit grey ---- */

static uint32_t crc_table(uint32_t n) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    return c;
}
static uint32_t crc(const unsigned char *p, size_t n, uint32_t c) {
    c = ~c;
    for (size_t i = 0; i < n; i++) c = crc_table((c ^ p[i]) & 0xff) ^ (c >> 8);
    return ~c;
}
static void put32(FILE *f, uint32_t v) {
    unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8), (unsigned char)v};
    fwrite(b, 1, 4, f);
}
static void chunk(FILE *f, const char *type, const unsigned char *data, size_t n) {
    put32(f, (uint32_t)n);
    unsigned char *buf = malloc(n + 4);
    memcpy(buf, type, 4);
    if (n) memcpy(buf + 4, data, n);
    fwrite(buf, 1, n + 4, f);
    put32(f, crc(buf, n + 4, 0));
    free(buf);
}
/* grey PNG of w x h samples (bits 8 or 16), one stored deflate block per image */
static void write_png(const char *path, int w, int h, int bits, const unsigned *v) {
    FILE *f = fopen(path, "wb");
    static const unsigned char sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    fwrite(sig, 1, 8, f);
    unsigned char ihdr[13] = {0, 0, 0, (unsigned char)w, 0, 0, 0, (unsigned char)h, (unsigned char)bits, 0, 0, 0, 0};
    chunk(f, "IHDR", ihdr, 13);
    int bpp = bits / 8;
    size_t raw_n = (size_t)h * (size_t)(1 + w * bpp);
    unsigned char *raw = malloc(raw_n);
    size_t o = 0;
    for (int y = 0; y < h; y++) {
        raw[o++] = 0;
        for (int x = 0; x < w; x++) {
            unsigned s = v[y * w + x];
            if (bpp == 2) raw[o++] = (unsigned char)(s >> 8);
            raw[o++] = (unsigned char)s;
        }
    }
    size_t z_n = 2 + 5 + raw_n + 4;
    unsigned char *z = malloc(z_n);
    z[0] = 0x78; z[1] = 0x01;
    z[2] = 1; /* final stored block */
    z[3] = (unsigned char)raw_n; z[4] = (unsigned char)(raw_n >> 8);
    z[5] = (unsigned char)~raw_n; z[6] = (unsigned char)(~raw_n >> 8);
    memcpy(z + 7, raw, raw_n);
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < raw_n; i++) { a = (a + raw[i]) % 65521; b = (b + a) % 65521; }
    uint32_t ad = (b << 16) | a;
    z[7 + raw_n] = (unsigned char)(ad >> 24); z[8 + raw_n] = (unsigned char)(ad >> 16);
    z[9 + raw_n] = (unsigned char)(ad >> 8); z[10 + raw_n] = (unsigned char)ad;
    chunk(f, "IDAT", z, z_n);
    chunk(f, "IEND", NULL, 0);
    fclose(f);
    free(raw);
    free(z);
}

TEST(collide_heightmap_png_8_and_16_bit) {
    gait_collider *c = make_collider(NULL);
    char p8[256], p16[256];
    snprintf(p8, sizeof p8, "/tmp/gait_hm8_%d.png", (int)getpid());
    snprintf(p16, sizeof p16, "/tmp/gait_hm16_%d.png", (int)getpid());
    unsigned v8[12] = {0, 255, 51, 102, 0, 0, 0, 0, 0, 0, 0, 255};
    write_png(p8, 4, 3, 8, v8);
    CHECK(gait_collider_load_heightmap(c, p8, 2.0, 10.0, V(1, -5, 3)) == GAIT_OK);
    double h;
    /* pixel (1, 0) = 255 -> origin.y + 10; pixel (2, 0) = 51 -> -5 + 2; row 2 col 3 = 255 */
    CHECK(gait_terrain_sample(c, 1 + 2, 3, &h, NULL));
    CHECK_NEAR(h, 5, 1e-6);
    CHECK(gait_terrain_sample(c, 1 + 4, 3, &h, NULL));
    CHECK_NEAR(h, -3, 1e-6);
    CHECK(gait_terrain_sample(c, 1 + 6, 3 + 4, &h, NULL));
    CHECK_NEAR(h, 5, 1e-6);
    CHECK(!gait_terrain_sample(c, 1 + 6.1, 3, &h, NULL));
    unsigned v16[6] = {0, 65535, 32768, 1, 0, 0};
    write_png(p16, 3, 2, 16, v16);
    CHECK(gait_collider_load_heightmap(c, p16, 1.0, 100.0, V(0, 0, 0)) == GAIT_OK);
    CHECK(gait_terrain_sample(c, 1, 0, &h, NULL));
    CHECK_NEAR(h, 100, 1e-5);
    CHECK(gait_terrain_sample(c, 2, 0, &h, NULL));
    CHECK_NEAR(h, 100.0 * 32768 / 65535, 1e-5);
    CHECK(gait_terrain_sample(c, 0, 1, &h, NULL));
    CHECK_NEAR(h, 100.0 / 65535, 1e-6); /* one 16-bit step is resolved (an 8-bit map would lose it) */
    /* not a PNG: a clear format error, the terrain kept */
    FILE *f = fopen(p8, "wb");
    fputs("not an image", f);
    fclose(f);
    CHECK(gait_collider_load_heightmap(c, p8, 1.0, 1.0, V(0, 0, 0)) == GAIT_ERR_FORMAT);
    CHECK(strstr(gait_collider_last_error(c), p8) != NULL);
    CHECK(gait_terrain_sample(c, 1, 0, &h, NULL));
    CHECK_NEAR(h, 100, 1e-5);
    remove(p8);
    remove(p16);
    gait_collider_destroy(c);
}

/* ---- water ------------------------------------------------------------------------------ */

TEST(collide_water) {
    gait_collider *c = make_collider(NULL);
    double s, d;
    CHECK(!gait_water_at(c, 0, 0, &s, &d));
    CHECK(gait_collider_set_sea_level(c, 2.0) == GAIT_OK);
    CHECK(gait_water_at(c, 100, -50, &s, &d));
    CHECK_NEAR(s, 2, 0);
    CHECK(isinf(d) && d > 0);
    float hs[4] = {0, 0, 4, 4}; /* slope along z: 0 at z = 0, 4 at z = 10 */
    gait_heightfield_def hd = {2, 2, 10.0, {0, 0, 0}, hs};
    CHECK(gait_collider_set_terrain(c, &hd) == GAIT_OK);
    CHECK(gait_water_at(c, 5, 2.5, &s, &d));
    CHECK_NEAR(d, 1, 1e-12);
    CHECK(!gait_water_at(c, 5, 7.5, &s, &d)); /* ground at 3 > sea at 2: dry */
    gait_water_region r = {4, 6, 6, 9, 5.0};
    int idx = -1;
    CHECK(gait_collider_add_water(c, &r, &idx) == GAIT_OK);
    CHECK_EQ_INT(idx, 0);
    CHECK(gait_water_at(c, 5, 7.5, &s, &d)); /* a pond at 5 over ground at 3 */
    CHECK_NEAR(s, 5, 0);
    CHECK_NEAR(d, 2, 1e-12);
    gait_water_region bad = {1, 0, 0, 1, 1}; /* min_x > max_x */
    CHECK(gait_collider_add_water(c, &bad, NULL) == GAIT_ERR_INVALID_ARGUMENT);
    bad.min_x = 0;
    bad.surface = NAN;
    CHECK(gait_collider_add_water(c, &bad, NULL) == GAIT_ERR_INVALID_ARGUMENT);
    for (int i = 1; i < 256; i++) CHECK(gait_collider_add_water(c, &r, NULL) == GAIT_OK);
    CHECK(gait_collider_add_water(c, &r, NULL) == GAIT_ERR_CAPACITY);
    CHECK(gait_collider_clear_water(c) == GAIT_OK);
    CHECK(!gait_water_at(c, 5, 7.5, &s, &d));
    CHECK(gait_collider_set_sea_level(c, NAN) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(gait_collider_set_sea_level(c, -INFINITY) == GAIT_OK);
    CHECK(!gait_water_at(c, 5, 2.5, &s, &d));
    gait_collider_destroy(c);
}

/* ---- landmarks: streaming, memory, bad input -------------------------------------------- */

TEST(collide_streaming_add_remove_readd) {
    counter cnt;
    gait_collider *c = make_collider(&cnt);
    long long base = cnt.live_bytes;
    gait_contact_point ct[16];
    gait_capsule cap = CAP(V(0.5, 1.2, 0.5), V(0.5, 2.2, 0.5), 0.3);
    gait_landmark_id a = add_box(c, 0, 0, 0, 1, 1, 1);
    CHECK(a.index1 == 1 && a.generation == 1);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 1);
    gait_landmark_info info;
    CHECK(gait_collider_landmark_info(c, a, &info) == GAIT_OK);
    CHECK_EQ_INT(info.triangle_count, 12);
    CHECK_EQ_INT(info.skipped_count, 0);
    CHECK_VEC(info.bounds_max, 1, 1, 1, 0);
    CHECK(info.memory_bytes > 12 * 36);
    CHECK((long long)info.memory_bytes == cnt.live_bytes - base);
    CHECK(gait_collider_capsule_overlap(c, &cap, NULL, ct, 16, NULL) >= 1);
    CHECK(gait_collider_remove_landmark(c, a) == GAIT_OK);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 0);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 16, NULL), 0);
    CHECK(cnt.live_bytes == base);
    /* the old id is stale now; the slot comes back with a new generation */
    CHECK(gait_collider_remove_landmark(c, a) == GAIT_ERR_STALE_ID);
    CHECK(gait_collider_landmark_info(c, a, &info) == GAIT_ERR_STALE_ID);
    gait_landmark_id b = add_box(c, 0, 0, 0, 1, 1, 1);
    CHECK(b.index1 == 1 && b.generation == 2);
    int n = gait_collider_capsule_overlap(c, &cap, NULL, ct, 16, NULL);
    CHECK(n >= 1);
    for (int i = 0; i < n; i++) CHECK(ct[i].landmark.generation == 2);
    /* many at once, removed in a scattered order */
    gait_landmark_id ids[64];
    for (int i = 0; i < 64; i++) ids[i] = add_box(c, (float)(2 * i), 0, 5, (float)(2 * i + 1), 1, 6);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 65);
    for (int i = 0; i < 64; i += 2) CHECK(gait_collider_remove_landmark(c, ids[i]) == GAIT_OK);
    for (int i = 0; i < 64; i++) {
        gait_capsule k = CAP(V(2 * i + 0.5, 1.2, 5.5), V(2 * i + 0.5, 2, 5.5), 0.3);
        int m = gait_collider_capsule_overlap(c, &k, NULL, ct, 16, NULL);
        CHECK((i % 2 == 0) ? m == 0 : m >= 1);
        if (m >= 1) CHECK(ct[0].landmark.index1 == ids[i].index1);
    }
    for (int i = 1; i < 64; i += 2) CHECK(gait_collider_remove_landmark(c, ids[i]) == GAIT_OK);
    CHECK(gait_collider_remove_landmark(c, b) == GAIT_OK);
    CHECK(cnt.live_bytes == base);
    gait_collider_destroy(c);
    CHECK(cnt.live_bytes == 0);
    CHECK_EQ_INT(cnt.allocs, cnt.frees);
}

/* m with these vertices (nv), triangle count and name, offered to the collider: its answer. */
static gait_status add_mesh(gait_collider *c, gait_mesh_def *m, const float *pos, int nv, int nt,
                            const char *name, gait_landmark_id *id) {
    m->positions = pos;
    m->vertex_count = nv;
    m->triangle_count = nt;
    m->name = name;
    return gait_collider_add_landmark(c, m, id);
}

TEST(collide_landmark_bad_input) {
    counter cnt;
    gait_collider *c = make_collider(&cnt);
    long long base = cnt.live_bytes;
    gait_mesh_def m;
    memset(&m, 0, sizeof m);
    gait_landmark_id id = {77, 77};
    /* empty */
    float one[9] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK(add_mesh(c, &m, one, 3, 0, "empty", &id) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gait_collider_last_error(c), "empty") != NULL);
    CHECK(id.index1 == 77);
    /* all degenerate: zero area, NaN, Inf, index out of range */
    float bad[36] = {0, 0, 0, 1, 0, 0, 2, 0, 0,  /* collinear */
                     0, 0, 0, NAN, 0, 0, 0, 0, 1,
                     0, 0, 0, INFINITY, 0, 0, 0, 0, 1,
                     1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(add_mesh(c, &m, bad, 12, 4, "junk", &id) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gait_collider_last_error(c), "no valid triangle") != NULL);
    uint32_t idx[3] = {0, 1, 99};
    m.indices = idx;
    CHECK(add_mesh(c, &m, one, 3, 1, "junk", &id) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 0);
    CHECK(cnt.live_bytes == base);
    /* NULL / negative / non-finite offset */
    m.indices = NULL;
    m.positions = NULL;
    CHECK(gait_collider_add_landmark(c, &m, &id) == GAIT_ERR_INVALID_ARGUMENT);
    m.positions = one;
    m.triangle_count = -1;
    CHECK(gait_collider_add_landmark(c, &m, &id) == GAIT_ERR_INVALID_ARGUMENT);
    m.triangle_count = 2; /* needs 6 vertices */
    CHECK(gait_collider_add_landmark(c, &m, &id) == GAIT_ERR_INVALID_ARGUMENT);
    m.triangle_count = 1;
    m.offset = V(NAN, 0, 0);
    CHECK(gait_collider_add_landmark(c, &m, &id) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(gait_collider_add_landmark(c, NULL, &id) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 0);
    /* some degenerate: they are skipped, counted and logged, the rest kept */
    float mix[45];
    memcpy(mix, bad, sizeof bad);
    memcpy(mix + 36, one, sizeof one);
    m.offset = V(0, 0, 0);
    int logs = cnt.logs;
    CHECK(add_mesh(c, &m, mix, 15, 5, "mixed", &id) == GAIT_OK);
    gait_landmark_info info;
    CHECK(gait_collider_landmark_info(c, id, &info) == GAIT_OK);
    CHECK_EQ_INT(info.triangle_count, 1);
    CHECK_EQ_INT(info.skipped_count, 4);
    CHECK(cnt.logs == logs + 1);
    CHECK(strstr(cnt.last_log, "mixed") && strstr(cnt.last_log, "skipped 4"));
    gait_contact_point ct[4];
    gait_capsule cap = CAP(V(0.2, 0.1, 0.2), V(0.2, 1, 0.2), 0.2);
    int n = gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, NULL);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(ct[0].triangle, 4); /* the index in the mesh as given */
    /* stale and unknown ids */
    gait_landmark_id nul = GAIT_NULL_ID_INIT, far = {100000, 1}, wrong = {id.index1, id.generation + 1};
    CHECK(gait_collider_remove_landmark(c, nul) == GAIT_ERR_STALE_ID);
    CHECK(gait_collider_remove_landmark(c, far) == GAIT_ERR_STALE_ID);
    CHECK(gait_collider_remove_landmark(c, wrong) == GAIT_ERR_STALE_ID);
    CHECK(strstr(gait_collider_last_error(c), "unknown") != NULL);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 1);
    gait_collider_destroy(c);
    CHECK(cnt.live_bytes == 0);
}

TEST(collide_query_bad_input) {
    gait_collider *c = make_collider(NULL);
    add_box(c, 0, 0, 0, 1, 1, 1);
    gait_contact_point ct[4];
    bool tr = true;
    gait_capsule cap = CAP(V(NAN, 0, 0), V(0, 1, 0), 0.3);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, &tr), -1);
    CHECK(!tr);
    cap = CAP(V(0, 0, 0), V(0, 1, INFINITY), 0.3);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, NULL), -1);
    cap = CAP(V(0.5, 0.5, 0.5), V(0.5, 1, 0.5), -0.3);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, NULL), -1);
    cap.radius = 0;
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, NULL), -1);
    cap.radius = NAN;
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, NULL), -1);
    cap.radius = 0.3;
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, -1, NULL), -1);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, NULL, 4, NULL), -1);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, NULL, NULL, ct, 4, NULL), -1);
    CHECK_EQ_INT(gait_collider_capsule_overlap(NULL, &cap, NULL, ct, 4, NULL), -1);
    /* capacity 0: nothing written, truncated says there was something */
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, NULL, 0, &tr), 0);
    CHECK(tr);
    /* capacity 1 keeps the deepest */
    int all = gait_collider_capsule_overlap(c, &cap, NULL, ct, 4, &tr);
    CHECK(all >= 2);
    double deepest = 0;
    for (int i = 0; i < all; i++) deepest = fmax(deepest, ct[i].depth);
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, NULL, ct, 1, &tr), 1);
    CHECK(tr);
    CHECK_NEAR(ct[0].depth, deepest, 0);
    gait_filter f;
    memset(&f, 0, sizeof f);
    f.walkable_slope = NAN;
    CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, &f, ct, 4, NULL), -1);
    gait_hit h;
    cap = CAP(V(-3, 0.5, 0.5), V(-3, 1, 0.5), 0.3);
    CHECK(!gait_collider_capsule_sweep(c, &cap, V(NAN, 0, 0), NULL, &h));
    CHECK(!gait_collider_capsule_sweep(c, &cap, V(10, 0, 0), &f, &h));
    cap.radius = -1;
    CHECK(!gait_collider_capsule_sweep(c, &cap, V(10, 0, 0), NULL, &h));
    CHECK(!gait_collider_sphere_cast(c, V(0, NAN, 0), 0.3, V(1, 0, 0), NULL, &h));
    CHECK(!gait_collider_ray_cast(c, V(0, 0, 0), V(INFINITY, 0, 0), NULL, &h));
    CHECK(!gait_collider_ray_cast(c, V(0.5, 5, 0.5), V(0, 0, 0), NULL, &h));
    /* a stale id in a filter ignores nothing */
    gait_filter g;
    memset(&g, 0, sizeof g);
    g.ignore.index1 = 1;
    g.ignore.generation = 9;
    CHECK(gait_collider_ray_cast(c, V(0.5, 5, 0.5), V(0, -10, 0), &g, &h));
    /* a bad collider def */
    gait_collider_def d = gait_default_collider_def();
    d.walkable_slope = 2.0;
    CHECK(gait_collider_create(&d) == NULL);
    d = gait_default_collider_def();
    d.max_landmarks = 0;
    CHECK(gait_collider_create(&d) == NULL);
    gait_collider_destroy(c);
}

TEST(collide_max_landmarks) {
    gait_collider_def d = gait_default_collider_def();
    d.max_landmarks = 3;
    gait_collider *c = gait_collider_create(&d);
    for (int i = 0; i < 3; i++) CHECK(add_box(c, (float)i, 0, 0, (float)i + 0.5f, 1, 1).index1 == i + 1);
    float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, t[108];
    box_tris(t, lo, hi);
    gait_mesh_def m = {.positions = t, .vertex_count = 36, .indices = NULL, .triangle_count = 12,
                       .offset = {0, 0, 0}, .name = "fourth"};
    gait_landmark_id id;
    CHECK(gait_collider_add_landmark(c, &m, &id) == GAIT_ERR_CAPACITY);
    gait_collider_destroy(c);
}

/* ---- zero allocation -------------------------------------------------------------------- */

TEST(collide_queries_allocate_nothing) {
    counter cnt;
    gait_collider *c = make_collider(&cnt);
    float hs[64 * 64];
    for (int i = 0; i < 64 * 64; i++) hs[i] = (float)sin(i * 0.37) * 0.5f;
    gait_heightfield_def hd = {64, 64, 1.0, {-32, 0, -32}, hs};
    CHECK(gait_collider_set_terrain(c, &hd) == GAIT_OK);
    for (int i = 0; i < 20; i++) add_box(c, (float)(i - 10), 0, (float)(i % 5), (float)(i - 9.5), 2, (float)(i % 5) + 0.5f);
    gait_contact_point ct[32];
    gait_hit h;
    unsigned s = 1;
    long before = 0;
    for (int i = 0; i < 10100; i++) {
        if (i == 100) before = cnt.allocs; /* warm-up done */
        s = s * 1664525u + 1013904223u;
        double x = (double)(s >> 8) / 16777216.0 * 30 - 15;
        s = s * 1664525u + 1013904223u;
        double z = (double)(s >> 8) / 16777216.0 * 30 - 15;
        gait_capsule cap = CAP(V(x, 0.2, z), V(x, 1.2, z), 0.3);
        switch (i % 4) {
        case 0: gait_collider_capsule_overlap(c, &cap, NULL, ct, 32, NULL); break;
        case 1: gait_collider_capsule_sweep(c, &cap, V(2, -0.5, 1), NULL, &h); break;
        case 2: gait_collider_sphere_cast(c, cap.b, 0.2, V(-3, 1, 2), NULL, &h); break;
        default: gait_collider_ray_cast(c, V(x, 5, z), V(0.5, -10, 0.2), NULL, &h); break;
        }
        double y;
        gait_terrain_sample(c, x, z, &y, NULL);
        gait_water_at(c, x, z, NULL, NULL);
    }
    CHECK_EQ_INT(cnt.allocs - before, 0);
    gait_collider_destroy(c);
}
