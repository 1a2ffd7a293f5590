/* The traversal scan (docs/behaviour.md, "Traversal"): ledge found in plain geometry by capsule sweeps and traces, the
 * ledge segment and grab point, room in two legs, depth by the reverse trace, the floor behind;
 * the action table; the crouch's stand-up check. Each check states its tolerance.
 *
 * The bugs a scan can compile with and lie about each have a test that a plausible wrong number fails:
 *   mirrored side probes with one sign     -> traverse_angled_approach_mirrors
 *   depth measured from a point to itself  -> traverse_depth_box_and_thick_block
 *   back ledge height from a normal        -> traverse_back_floor_height_is_a_point
 *   a "2D" wall normal that is really 3D   -> traverse_wall_normal_is_2d_on_a_leaning_wall */
#include <stdio.h>
#include <string.h>

#include "body_fixtures.h"
#include "check.h"

/* ---- fixtures: several boxes (and loose triangles) as one landmark ------------------------- */

typedef struct tv_mesh {
    float v[4096 * 9];
    int tris;
} tv_mesh;

static void tv_tri(tv_mesh *m, const double a[3], const double b[3], const double c[3]) {
    const double *p[3] = {a, b, c};
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++) m->v[m->tris * 9 + j * 3 + k] = (float)p[j][k];
    m->tris++;
}

static void tv_quad(tv_mesh *m, const double a[3], const double b[3], const double c[3],
                    const double d[3]) {
    tv_tri(m, a, b, c);
    tv_tri(m, a, c, d);
}

static void tv_box(tv_mesh *m, double x0, double y0, double z0, double x1, double y1, double z1) {
    double p[8][3];
    for (int k = 0; k < 8; k++) {
        p[k][0] = (k & 1) ? x1 : x0;
        p[k][1] = (k & 2) ? y1 : y0;
        p[k][2] = (k & 4) ? z1 : z0;
    }
    static const int q[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int f = 0; f < 6; f++) tv_quad(m, p[q[f][0]], p[q[f][1]], p[q[f][2]], p[q[f][3]]);
}

static gait_landmark_id tv_add(gait_world *w, tv_mesh *m) {
    gait_mesh_def d;
    memset(&d, 0, sizeof d);
    d.positions = m->v;
    d.vertex_count = m->tris * 3;
    d.triangle_count = m->tris;
    d.name = "traverse fixture";
    gait_landmark_id id = GAIT_NULL_ID_INIT;
    gait_collider_add_landmark(gait_world_collider(w), &d, &id);
    m->tris = 0;
    return id;
}

static tv_mesh mesh; /* test scratch (the tests run one after another) */

static gait_world *tv_world(void) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    return w;
}

/* A scan from feet (x, 0, z) heading at `deg` degrees from +z (towards +x), at `speed`. */
static bool tv_scan(gait_world *w, double x, double z, double deg, double speed,
                    gait_traverse_scan *s) {
    gait_traverse_query q = gait_traverse_default_query(gait_world_traverse_table(w), NULL);
    q.feet.x = x;
    q.feet.y = 0;
    q.feet.z = z;
    q.forward.x = sin(deg * M_PI / 180);
    q.forward.y = 0;
    q.forward.z = cos(deg * M_PI / 180);
    q.speed = speed;
    return gait_traverse_scan_run(gait_world_collider_const(w), &q, NULL, s);
}

/* ---- the scan ----------------------------------------------------------------------------- */

TEST(traverse_fence_1m_gives_a_ledge_segment_grab_and_floor_behind) {
    gait_world *w = tv_world();
    tv_box(&mesh, -2, 0, 2, 2, 1, 2.3);
    tv_add(w, &mesh);
    gait_traverse_scan s;
    CHECK(tv_scan(w, 0, 0, 0, 5.6, &s));
    CHECK_MSG(s.ok, "reason %s", s.reason);
    CHECK(s.wall && s.ledge && s.room && !s.thick && s.back_floor);
    CHECK_NEAR(s.height, 1.0, 1e-6);
    CHECK_NEAR(s.depth, 0.3, 1e-6);
    CHECK_NEAR(s.back_floor_height, 0.0, 1e-6);
    CHECK_NEAR(s.wall_normal.z, -1, 1e-9);
    CHECK(s.wall_normal.y == 0);
    CHECK_NEAR(s.edge.z, 2.0, 1e-6);
    CHECK_NEAR(s.grab.x, 0, 1e-6);
    CHECK_NEAR(s.grab.y, 1.0, 1e-6);
    /* the segment spans the fence: ends within 1.5 cm (probes 25 cm apart, the last halved 5 times) */
    CHECK_NEAR(fmin(s.ledge_a.x, s.ledge_b.x), -2.0, 0.015);
    CHECK_NEAR(fmax(s.ledge_a.x, s.ledge_b.x), 2.0, 0.015);
    CHECK(s.sweeps == 4); /* forward, room up, room over, floor behind */
    /* walking speed reaches less far: the same fence from 3 m away is out of reach at rest */
    CHECK(!tv_scan(w, 0, -1.5, 0, 0, &s));
    CHECK(strcmp(s.reason, "no obstacle") == 0);
    CHECK(tv_scan(w, 0, -1.5, 0, 5.6, &s));
    gait_world_destroy(w);
}

TEST(traverse_depth_box_and_thick_block) {
    gait_world *w = tv_world();
    tv_box(&mesh, -2, 0, 2, 2, 1.0, 2.4); /* 0.4 m deep */
    tv_add(w, &mesh);
    tv_box(&mesh, 8, 0, 2, 12, 1.0, 5.0); /* 3 m deep */
    tv_add(w, &mesh);
    gait_traverse_scan s;
    CHECK(tv_scan(w, 0, 0, 0, 3, &s));
    CHECK_NEAR(s.depth, 0.4, 1e-6);
    CHECK(!s.thick);
    CHECK(tv_scan(w, 10, 0, 0, 3, &s));
    CHECK_MSG(s.thick, "depth %g", s.depth);
    CHECK(!s.back_floor);
    CHECK_NEAR(s.height, 1.0, 1e-6);
    gait_world_destroy(w);
}

TEST(traverse_angled_approach_mirrors) {
    gait_world *w = tv_world();
    tv_box(&mesh, -1.5, 0, 2, 1.5, 1, 2.3);
    tv_add(w, &mesh);
    gait_traverse_scan p, m;
    CHECK(tv_scan(w, 0.25, 0.5, 30, 5, &p));
    CHECK(tv_scan(w, -0.25, 0.5, -30, 5, &m));
    CHECK_MSG(p.ok && m.ok, "%s / %s", p.reason, m.reason);
    /* the sweeps touch the face at mirrored points ahead of the body ... */
    CHECK_NEAR(p.wall_point.x, -m.wall_point.x, 1e-6);
    CHECK(p.wall_point.x > 0.5);
    /* ... the segments cover the whole fence both ways, and the grab is the body's projection */
    CHECK_NEAR(fmin(p.ledge_a.x, p.ledge_b.x), -1.5, 0.015);
    CHECK_NEAR(fmax(p.ledge_a.x, p.ledge_b.x), 1.5, 0.015);
    CHECK_NEAR(fmin(m.ledge_a.x, m.ledge_b.x), -1.5, 0.015);
    CHECK_NEAR(fmax(m.ledge_a.x, m.ledge_b.x), 1.5, 0.015);
    CHECK_NEAR(p.grab.x, 0.25, 1e-6);
    CHECK_NEAR(m.grab.x, -0.25, 1e-6);
    CHECK_NEAR(p.grab.x, -m.grab.x, 1e-9);
    /* walking along: the grab point slides with the body */
    gait_traverse_scan q;
    CHECK(tv_scan(w, 0.75, 0.5, 30, 5, &q));
    CHECK_NEAR(q.grab.x, 0.75, 1e-6);
    gait_world_destroy(w);
}

TEST(traverse_corner_keeps_the_grab_point_at_the_margin) {
    gait_world *w = tv_world();
    tv_box(&mesh, -2, 0, 2, 2, 1, 2.3);
    tv_add(w, &mesh);
    double margin = gait_world_traverse_table(w)->grab_margin;
    gait_traverse_scan s;
    CHECK(tv_scan(w, 1.8, 0, 0, 5, &s)); /* 0.2 m from the ledge's end */
    CHECK_MSG(s.ok, "%s", s.reason);
    CHECK_NEAR(s.grab.x, 2.0 - margin, 0.015);
    CHECK(tv_scan(w, -1.8, 0, 0, 5, &s));
    CHECK_NEAR(s.grab.x, -2.0 + margin, 0.015);
    gait_world_destroy(w);
}

TEST(traverse_no_room_under_a_ceiling_is_not_offered) {
    gait_world *w = tv_world();
    tv_box(&mesh, -2, 0, 2, 2, 1, 2.3);      /* the fence */
    tv_box(&mesh, -2, 1.5, 2.15, 2, 1.7, 4); /* a roof 0.5 m above it, set back 15 cm */
    tv_add(w, &mesh);
    gait_traverse_scan s;
    CHECK(!tv_scan(w, 0, 0, 0, 5, &s));
    CHECK(s.ledge);
    CHECK(!s.room);
    CHECK_MSG(strncmp(s.reason, "no room", 7) == 0, "%s", s.reason);
    gait_world_destroy(w);
}

TEST(traverse_too_high_wall_has_no_ledge) {
    gait_world *w = tv_world();
    tv_box(&mesh, -3, 0, 2, 3, 3.5, 4);
    tv_add(w, &mesh);
    gait_traverse_scan s;
    CHECK(!tv_scan(w, 0, 0, 0, 5, &s));
    CHECK(s.wall);
    CHECK(!s.ledge);
    gait_world_destroy(w);
}

TEST(traverse_back_floor_height_is_a_point) {
    gait_world *w = tv_world();
    tv_box(&mesh, -2, 0, 2, 2, 1, 2.3);
    tv_box(&mesh, -2, 0, 2.3, 2, 0.5, 5); /* a platform behind, 0.5 m up */
    tv_add(w, &mesh);
    gait_traverse_scan s;
    CHECK(tv_scan(w, 0, 0, 0, 5, &s));
    CHECK(s.back_floor);
    /* a normal's y would give 1.0; the point gives the platform's height */
    CHECK_NEAR(s.back_floor_height, 0.5, 1e-6);
    gait_world_destroy(w);
}

TEST(traverse_wall_normal_is_2d_on_a_leaning_wall) {
    gait_world *w = tv_world();
    /* a wedge 1 m high whose front leans back 20 deg from vertical */
    double lean = tan(20 * M_PI / 180);
    double a[3] = {-2, 0, 2}, b[3] = {2, 0, 2}, c[3] = {2, 1, 2 + lean}, d[3] = {-2, 1, 2 + lean};
    tv_quad(&mesh, a, d, c, b);
    double e[3] = {-2, 1, 3}, f[3] = {2, 1, 3}, g[3] = {2, 0, 3}, h[3] = {-2, 0, 3};
    tv_quad(&mesh, d, e, f, c); /* top */
    tv_quad(&mesh, h, g, f, e); /* back */
    tv_quad(&mesh, a, h, e, d); /* sides */
    tv_quad(&mesh, b, c, f, g);
    tv_add(w, &mesh);
    gait_traverse_scan s;
    tv_scan(w, 0, 0, 0, 5, &s);
    CHECK(s.wall);
    CHECK(s.wall_normal.y == 0);
    CHECK_NEAR(sqrt(s.wall_normal.x * s.wall_normal.x + s.wall_normal.z * s.wall_normal.z), 1, 1e-12);
    CHECK_NEAR(s.wall_normal.z, -1, 1e-9);
    gait_world_destroy(w);
}

TEST(traverse_degenerate_geometry_is_refused) {
    gait_world *w = tv_world();
    /* a zero-thickness wall: one double-sided quad, 1 m high */
    double a[3] = {-2, 0, 2}, b[3] = {2, 0, 2}, c[3] = {2, 1, 2}, d[3] = {-2, 1, 2};
    tv_quad(&mesh, a, d, c, b);
    tv_add(w, &mesh);
    gait_traverse_scan s;
    CHECK(!tv_scan(w, 0, 0, 0, 5, &s));
    CHECK(!s.ledge);
    /* a ledge whose top slopes 40 deg */
    double rise = tan(40 * M_PI / 180);
    double p0[3] = {8, 0, 2}, p1[3] = {12, 0, 2}, p2[3] = {12, 1, 2}, p3[3] = {8, 1, 2};
    double p4[3] = {8, 1 + rise, 3}, p5[3] = {12, 1 + rise, 3}, p6[3] = {12, 0, 3}, p7[3] = {8, 0, 3};
    tv_quad(&mesh, p0, p3, p2, p1);
    tv_quad(&mesh, p3, p4, p5, p2);
    tv_quad(&mesh, p7, p6, p5, p4);
    tv_quad(&mesh, p0, p7, p4, p3);
    tv_quad(&mesh, p1, p2, p5, p6);
    tv_add(w, &mesh);
    CHECK(!tv_scan(w, 10, 0, 0, 5, &s));
    CHECK_MSG(strcmp(s.reason, "ledge too steep") == 0, "%s", s.reason);
    /* invalid queries */
    gait_traverse_query q = gait_traverse_default_query(NULL, NULL);
    q.feet.x = NAN;
    CHECK(!gait_traverse_scan_run(gait_world_collider_const(w), &q, NULL, &s));
    CHECK(strcmp(s.reason, "invalid query") == 0);
    q = gait_traverse_default_query(NULL, NULL);
    q.forward.x = q.forward.z = 0;
    CHECK(!gait_traverse_scan_run(gait_world_collider_const(w), &q, NULL, &s));
    CHECK(!gait_traverse_scan_run(NULL, &q, NULL, &s));
    gait_world_destroy(w);
}

static int draw_lines, draw_points;
static void on_line(gait_vec3 a, gait_vec3 b, uint32_t c, void *u) {
    (void)a; (void)b; (void)c; (void)u;
    draw_lines++;
}
static void on_point(gait_vec3 p, double size, uint32_t c, void *u) {
    (void)p; (void)size; (void)c; (void)u;
    draw_points++;
}

TEST(traverse_scan_allocates_nothing_and_draws_every_probe) {
    alloc_count cnt;
    gait_world *w = bw_world(&cnt);
    bw_flat(w);
    tv_box(&mesh, -2, 0, 2, 2, 1, 2.3);
    tv_add(w, &mesh);
    long before = cnt.allocs;
    gait_traverse_scan s;
    for (int i = 0; i < 100; i++) tv_scan(w, 0.01 * i, 0, 0, 5, &s);
    CHECK_EQ_INT(cnt.allocs, before);
    gait_debug_draw d;
    memset(&d, 0, sizeof d);
    d.line = on_line;
    d.point = on_point;
    gait_traverse_query q = gait_traverse_default_query(NULL, NULL);
    q.speed = 5;
    draw_lines = draw_points = 0;
    gait_traverse_scan_run(gait_world_collider_const(w), &q, &d, &s);
    CHECK(s.ok);
    /* two lines a sweep, one a ray, one for the ledge segment; a point at the grab */
    CHECK_EQ_INT(draw_lines, 2 * s.sweeps + s.rays + 1);
    CHECK(draw_points >= 2);
    gait_world_destroy(w);
}

/* ---- the table ---------------------------------------------------------------------------- */

TEST(traverse_table_chooses_by_height_depth_speed_and_floor) {
    gait_traverse_table t = gait_default_traverse_table();
    CHECK_EQ_INT(gait_traverse_table_validate(&t, NULL, 0), GAIT_OK);
    gait_traverse_scan s;
    memset(&s, 0, sizeof s);
    s.ok = true;
    s.height = 1.0;
    s.depth = 0.3;
    s.back_floor = true;
    CHECK_EQ_INT(gait_traverse_choose(&t, &s, 5.6, NULL), GAIT_TRAVERSE_HURDLE);
    CHECK_EQ_INT(gait_traverse_choose(&t, &s, 1.9, NULL), GAIT_TRAVERSE_VAULT);
    s.back_floor = false;
    CHECK_EQ_INT(gait_traverse_choose(&t, &s, 5.6, NULL), GAIT_TRAVERSE_VAULT); /* into the air */
    s.depth = 1.0;
    CHECK_EQ_INT(gait_traverse_choose(&t, &s, 5.6, NULL), GAIT_TRAVERSE_MANTLE_LOW);
    s.thick = true;
    s.height = 1.5;
    CHECK_EQ_INT(gait_traverse_choose(&t, &s, 5.6, NULL), GAIT_TRAVERSE_MANTLE_HIGH);
    s.height = 2.8;
    CHECK_EQ_INT(gait_traverse_choose(&t, &s, 5.6, NULL), GAIT_TRAVERSE_NONE);
    s.height = 0.4;
    CHECK_EQ_INT(gait_traverse_choose(&t, &s, 5.6, NULL), GAIT_TRAVERSE_NONE);
    s.height = 1.0;
    s.ok = false;
    CHECK_EQ_INT(gait_traverse_choose(&t, &s, 5.6, NULL), GAIT_TRAVERSE_NONE);
    /* validation names the field */
    char err[160];
    t.actions[1].max_height = 0.1;
    CHECK_EQ_INT(gait_traverse_table_validate(&t, err, sizeof err), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(err, "actions[2].max_height") != NULL, "%s", err);
    t = gait_default_traverse_table();
    t.cooldown = NAN;
    CHECK_EQ_INT(gait_traverse_table_validate(&t, err, sizeof err), GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err, "cooldown") != NULL);
    CHECK(strcmp(gait_traverse_kind_name(GAIT_TRAVERSE_MANTLE_HIGH), "mantle_high") == 0);
    CHECK_EQ_INT(gait_traverse_kind_from_name("hurdle"), GAIT_TRAVERSE_HURDLE);
    CHECK_EQ_INT(gait_traverse_kind_from_name("cartwheel"), -1);
}

/* ---- crouch: the stand-up check ----------------------------------------------------------- */

TEST(crouch_room_to_stand_under_a_ceiling) {
    gait_world *w = tv_world();
    tv_box(&mesh, -2, 1.2, -2, 2, 1.5, 2); /* a ceiling at 1.2 m */
    tv_add(w, &mesh);
    const gait_collider *col = gait_world_collider_const(w);
    gait_vec3 under = {0, 0, 0}, clear = {0, 0, 3};
    CHECK(!gait_crouch_room_to_stand(col, under, 0.3, 1.0, 1.7, NULL));
    CHECK(gait_crouch_room_to_stand(col, clear, 0.3, 1.0, 1.7, NULL));
    /* beside a wall the crouched body touches: still room */
    gait_vec3 by = {0, 0, 2.0 + 0.3 + 0.001};
    CHECK(gait_crouch_room_to_stand(col, by, 0.3, 1.0, 1.7, NULL));
    gait_world_destroy(w);
}
