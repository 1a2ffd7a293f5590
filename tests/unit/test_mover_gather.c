/* The mover's gather and the scan's shortcut are shortcuts only: with them the same motion gives
 * the same bits as without. Movers walk and jump a field of hills, boxes, a tessellated ramp and
 * stairs with no gather, with one gather shared by all of them, and with a gather too small to
 * hold anything (every query falls back to the trees); a world whose collider changes every step
 * (no gather nor last scan is ever reused) runs the same inputs as a plain one. */
#include <string.h>

#include "gait/mover.h"
#include "body_fixtures.h"
#include "check.h"

/* A ramp of n x n quads, 0.5 m each, rising at `slope` along +x from (x0, y0, z0). */
static void ramp(gait_world *w, double x0, double y0, double z0, int n, double slope) {
    float *t = malloc(sizeof(float) * 18 * (size_t)(n * n));
    int o = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double xa = x0 + 0.5 * i, xb = xa + 0.5, za = z0 + 0.5 * j, zb = za + 0.5;
            double ya = y0 + (xa - x0) * slope, yb = y0 + (xb - x0) * slope;
            float q[4][3] = {{(float)xa, (float)ya, (float)za}, {(float)xa, (float)ya, (float)zb},
                             {(float)xb, (float)yb, (float)zb}, {(float)xb, (float)yb, (float)za}};
            int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
            for (int k = 0; k < 2; k++)
                for (int v = 0; v < 3; v++)
                    for (int a = 0; a < 3; a++) t[o++] = q[tri[k][v]][a];
        }
    gait_vec3 zero = {0, 0, 0};
    gait_mesh_def m = {t, 6 * n * n, NULL, 2 * n * n, zero, "ramp"};
    gait_landmark_id id;
    gait_collider_add_landmark(gait_world_collider(w), &m, &id);
    free(t);
}

static gait_world *field(void) {
    gait_world *w = bw_hills_field(777u);
    ramp(w, -10, 3, -10, 16, 0.6);
    for (int s = 0; s < 10; s++) /* stairs: 0.18 m risers */
        bw_box(w, 5 + 0.3 * s, -4, 5, 5.3 + 0.3 * s, 2.5 + 0.18 * s, 8);
    return w;
}

typedef struct run_out {
    gait_vec3 feet[16];
    gait_move_result last[16];
    int grounded, walls;
} run_out;

static void run(const gait_collider *c, gait_gather *g, run_out *out) {
    gait_mover m;
    gait_mover_init(&m, c, 0.3, 1.7, 0.3, 45 * M_PI / 180);
    m.gather = g;
    gait_mover_state s[16];
    double vy[16];
    memset(s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 16; i++) {
        s[i].feet.x = -12 + 1.6 * i;
        s[i].feet.z = -12 + 1.1 * (i % 5);
        s[i].feet.y = bw_hills(s[i].feet.x, s[i].feet.z) + 4;
        s[i].ground_normal.y = 1;
        vy[i] = 0;
    }
    for (int k = 0; k < 600; k++) {
        for (int i = 0; i < 16; i++) {
            double a = 0.4 * i + 2.3 * (k / 60); /* a new heading every second: they stay near */
            if (s[i].grounded) vy[i] = (k + i) % 97 == 0 ? 5 : 0; /* now and then a jump */
            vy[i] -= 9.81 / 60;
            gait_vec3 v = {4 * cos(a), vy[i], 4 * sin(a)};
            gait_mover_step(&m, &s[i], v, 1.0 / 60, &out->last[i]);
            out->grounded += s[i].grounded;
            out->walls += out->last[i].wall;
        }
    }
    for (int i = 0; i < 16; i++) out->feet[i] = s[i].feet;
}

TEST(mover_gather_changes_no_bit) {
    gait_world *w = field();
    const gait_collider *c = gait_world_collider_const(w);
    size_t nb = gait_gather_scratch_bytes(1024), nt = gait_gather_scratch_bytes(2);
    void *big = malloc(nb), *tiny = malloc(nt);
    gait_gather gb, gt;
    CHECK(gait_gather_init(&gb, big, nb) == GAIT_OK);
    CHECK(gait_gather_init(&gt, tiny, nt) == GAIT_OK);
    static run_out plain, gathered, overflowing;
    run(c, NULL, &plain);
    run(c, &gb, &gathered);
    run(c, &gt, &overflowing);
    CHECK(memcmp(plain.feet, gathered.feet, sizeof plain.feet) == 0);
    CHECK(memcmp(plain.feet, overflowing.feet, sizeof plain.feet) == 0);
    CHECK(memcmp(plain.last, gathered.last, sizeof plain.last) == 0);
    CHECK_EQ_INT(plain.grounded, gathered.grounded);
    CHECK_EQ_INT(plain.walls, gathered.walls);
    /* the course meets what it should: ground mostly, walls often */
    CHECK(plain.grounded > 16 * 600 / 4); /* jumps take a good part of it */
    CHECK(plain.walls > 100);
    /* and the gather was used (it was gathered from this collider) */
    CHECK(gb.collider == c);
    printf("  16 movers x 600 steps: %d grounded, %d walls met\n", plain.grounded, plain.walls);
    free(big);
    free(tiny);
    gait_world_destroy(w);
}

/* One course of characters: held jump against a wall (the same scan asked again and again),
 * climbing a wall with the stick up (a scan every step), running at a fence with jump presses,
 * and walking over the ramp. */
static gait_world *course(gait_character_id ids[4]) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    bw_box(w, -2, 0, 3, 2, 6, 4);       /* a tall wall ahead of the first two */
    bw_box(w, 6, 0, 3, 10, 1.0, 3.2);   /* a fence */
    bw_box(w, 14, 0, 3, 18, 1.4, 6);    /* a block to mantle */
    ids[0] = bw_spawn(w, -1, 0, 2.6, 100);
    ids[1] = bw_spawn(w, 1, 0, 1.5, 100);
    ids[2] = bw_spawn(w, 8, 0, -4, 100);
    ids[3] = bw_spawn(w, 16, 0, -3, 100);
    return w;
}

static void course_input(gait_world *w, const gait_character_id ids[4], int k) {
    bw_input(w, ids[0], 0, 1, GAIT_BUTTON_JUMP, 0);
    bw_input(w, ids[1], 0, 1, 0, 0);
    bw_input(w, ids[2], 0, 1, 0, k % 50 == 20 ? GAIT_BUTTON_JUMP : 0);
    bw_input(w, ids[3], 0, 1, k % 70 == 40 ? GAIT_BUTTON_JUMP : 0, k % 70 == 40 ? GAIT_BUTTON_JUMP : 0);
}

TEST(world_shortcuts_change_no_bit) {
    gait_character_id a[4], b[4];
    gait_world *wa = course(a), *wb = course(b);
    float far_box[108];
    float lo[3] = {1000, 0, 1000}, hi[3] = {1001, 1, 1001};
    box_tris(far_box, lo, hi);
    int differ = 0;
    bool climbed = false, traversed = false;
    for (int k = 0; k < 480; k++) {
        course_input(wa, a, k);
        course_input(wb, b, k);
        /* wb's collider changes every step (a far box in and out): no gather, no last scan is
         * ever taken again there */
        gait_vec3 zero = {0, 0, 0};
        gait_landmark_id id = add_tris(gait_world_collider(wb), far_box, 12, zero);
        gait_collider_remove_landmark(gait_world_collider(wb), id);
        gait_world_step(wa);
        gait_world_step(wb);
        if (gait_world_state_hash(wa) != gait_world_state_hash(wb)) differ++;
        for (int i = 0; i < 4; i++) {
            gait_state s = bw_info(wa, a[i]).phase.state;
            climbed = climbed || s == GAIT_STATE_CLIMB;
            traversed = traversed || s == GAIT_STATE_TRAVERSE;
        }
    }
    CHECK_EQ_INT(differ, 0);
    CHECK(climbed && traversed);
    gait_world_destroy(wa);
    gait_world_destroy(wb);
}
