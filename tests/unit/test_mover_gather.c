/* The mover's gather and the scan's shortcuts are shortcuts only: with them the same motion gives
 * the same bits as without. The proofs the gather gives (no surface level enough for a ledge in a
 * box; no landmark near a body) never hide what is there. Movers walk and jump a field of hills, boxes, a tessellated ramp and
 * stairs with no gather, with one gather shared by all of them, and with a gather too small to
 * hold anything (every query falls back to the trees); a world whose collider changes every step
 * (no gather nor last scan is ever reused) runs the same inputs as a plain one. */
#include <stddef.h>
#include <string.h>

#include "gait/mover.h"
#include "body_fixtures.h"
#include "character/mover_internal.h"
#include "character/traverse_internal.h"
#include "check.h"
#include "core/vec.h"

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
    gait_mesh_def m = {.positions = t, .vertex_count = 6 * n * n, .indices = NULL,
                       .triangle_count = 2 * n * n, .offset = zero, .name = "ramp",
                       .keep_triangles = true}; /* 512 triangles: a crowded gather */
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
    int held, overflowed;       /* steps that ended with the gather holding its box, overflowing */
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
            if (g && g->collider) {
                out->overflowed += g->overflow;
                out->held += !g->overflow;
            }
            out->grounded += s[i].grounded;
            out->walls += out->last[i].wall;
        }
    }
    for (int i = 0; i < 16; i++) out->feet[i] = s[i].feet;
}

#define MIDDLE_GATHER 12 /* triangles: the course's open ground fits, its stairs and boxes do not */

TEST(mover_gather_changes_no_bit) {
    gait_world *w = field();
    const gait_collider *c = gait_world_collider_const(w);
    size_t nb = gait_gather_scratch_bytes(1024), nt = gait_gather_scratch_bytes(2);
    size_t nm = gait_gather_scratch_bytes(MIDDLE_GATHER);
    void *big = malloc(nb), *tiny = malloc(nt), *middle = malloc(nm);
    gait_gather gb, gt, gm;
    CHECK(gait_gather_init(&gb, big, nb) == GAIT_OK);
    CHECK(gait_gather_init(&gt, tiny, nt) == GAIT_OK);
    CHECK(gait_gather_init(&gm, middle, nm) == GAIT_OK);
    static run_out plain, gathered, overflowing, crowded;
    run(c, NULL, &plain);
    run(c, &gb, &gathered);
    run(c, &gt, &overflowing);
    run(c, &gm, &crowded);
    CHECK(memcmp(plain.feet, gathered.feet, sizeof plain.feet) == 0);
    CHECK(memcmp(plain.feet, overflowing.feet, sizeof plain.feet) == 0);
    /* a gather that holds some steps' regions and not others (the narrower margin where the
     * wide one overflows, the trees where neither fits, the near test's crowded answer) */
    CHECK(memcmp(plain.feet, crowded.feet, sizeof plain.feet) == 0);
    CHECK(memcmp(plain.last, crowded.last, sizeof plain.last) == 0);
    CHECK(crowded.held > 1000 && crowded.overflowed > 100);
    CHECK(memcmp(plain.last, gathered.last, sizeof plain.last) == 0);
    CHECK_EQ_INT(plain.grounded, gathered.grounded);
    CHECK_EQ_INT(plain.walls, gathered.walls);
    /* the course meets what it should: ground mostly, walls often */
    CHECK(plain.grounded > 16 * 600 / 4); /* jumps take a good part of it */
    CHECK(plain.walls > 100);
    /* and the gather was used (it was gathered from this collider) */
    CHECK(gb.collider == c);
    printf("  16 movers x 600 steps: %d grounded, %d walls met\n", plain.grounded, plain.walls);
    printf("  a gather of %d: %d steps held, %d overflowed\n", MIDDLE_GATHER, crowded.held, crowded.overflowed);
    free(big);
    free(tiny);
    free(middle);
    gait_world_destroy(w);
}

/* A query in a crowded spot: where the gather's usual margin takes in more triangles than it
 * holds, it gathers again with the narrower one and answers from that; where even that is too
 * many, the trees answer (NULL), and a query inside the region asks the trees without gathering
 * again. */
TEST(a_crowded_gather_narrows_its_margin) {
    gait_world *w = bw_world(NULL);
    for (int k = 0; k < 5; k++) /* 12 triangles each, 0.25 m apart */
        bw_box(w, 0.45 * k, 0, 0, 0.45 * k + 0.2, 0.2, 0.2);
    const gait_collider *c = gait_world_collider_const(w);
    size_t nb = gait_gather_scratch_bytes(24);
    void *mem = malloc(nb);
    gait_gather g;
    CHECK(gait_gather_init(&g, mem, nb) == GAIT_OK);
    /* around the third box: 0.35 m takes in three boxes (36 triangles), 0.1 m one */
    gait_vec3 lo = {0.85, 0.05, 0.05}, hi = {1.15, 0.15, 0.15};
    gait_gather *got = gait__gather_for(c, &g, NULL, lo, hi);
    CHECK(got == &g && !g.overflow && g.count == 12);
    CHECK(fabs(g.lo.x - (lo.x - 0.1)) < 1e-12 && fabs(g.hi.x - (hi.x + 0.1)) < 1e-12);
    /* the same answer as the trees' */
    gait_capsule cap = {{1.0, 0.6, -0.5}, {1.0, 0.6, -0.5}, 0.05};
    gait_hit ha, hb;
    gait_vec3 d = {0, -0.5, 0.6};
    bool fa = gait_gather_capsule_sweep(&g, &cap, d, NULL, &ha);
    bool fb = gait_collider_capsule_sweep(c, &cap, d, NULL, &hb);
    /* member by member up to the flags: the struct's tail padding is not part of the answer */
    CHECK(fa && fb && memcmp(&ha, &hb, offsetof(gait_hit, start_solid)) == 0 &&
          ha.start_solid == hb.start_solid && ha.back == hb.back);
    /* a box over all five: too many even with the narrow margin: the gather is left overflowing
     * (its queries ask the trees), and a query inside the region asks the trees at once */
    gait_vec3 wlo = {0.0, 0.05, 0.05}, whi = {2.0, 0.15, 0.15};
    got = gait__gather_for(c, &g, NULL, wlo, whi);
    CHECK((got == NULL || got->overflow) && g.overflow);
    gait_vec3 ilo = {0.1, 0.06, 0.06}, ihi = {1.9, 0.14, 0.14};
    CHECK(gait__gather_for(c, &g, NULL, ilo, ihi) == NULL);
    free(mem);
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

/* ---- proofs from the gather: they may only ever skip what would find nothing --------------- */

/* A gather over the box lo..hi of the collider (capacity 1024; the caller frees *mem). */
static void gather_box(const gait_collider *c, gait_gather *g, void **mem, gait_vec3 lo, gait_vec3 hi) {
    size_t n = gait_gather_scratch_bytes(1024);
    *mem = malloc(n);
    gait_gather_init(g, *mem, n);
    gait_collider_gather(c, lo, hi, g);
}

TEST(gather_level_free_sees_floors_and_terrain_not_walls) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);                          /* terrain at y = 0 */
    bw_box(w, 0, 0, 0, 4, 2, 4);         /* a block: its top at y = 2, walls x = 0, 4 and z = 0, 4 */
    const gait_collider *c = gait_world_collider_const(w);
    gait_gather g;
    void *mem;
    gather_box(c, &g, &mem, v3(-2, -1, -2), v3(6, 4, 6));
    gait_filter f;
    memset(&f, 0, sizeof f);
    gait_filter no_terrain = f;
    no_terrain.skip_terrain = true;
    double slope = 30 * M_PI / 180;
    /* beside the west wall, above the terrain, below the top: walls only */
    CHECK(gait_gather_level_free(&g, v3(-0.5, 0.5, 1), v3(0.5, 1.5, 3), slope, &f));
    /* reaching the top: the top is level */
    CHECK(!gait_gather_level_free(&g, v3(-0.5, 0.5, 1), v3(0.5, 2.0, 3), slope, &f));
    CHECK(!gait_gather_level_free(&g, v3(1, 1.9, 1), v3(2, 2.1, 2), slope, &f));
    /* down to the terrain: terrain counts whatever its slope, unless the filter skips it */
    CHECK(!gait_gather_level_free(&g, v3(-1.5, -0.2, 1), v3(-0.5, 1.5, 3), slope, &f));
    CHECK(gait_gather_level_free(&g, v3(-1.5, -0.2, 1), v3(-0.5, 1.5, 3), slope, &no_terrain));
    /* a box the gather does not hold cannot be answered */
    CHECK(!gait_gather_level_free(&g, v3(5, 0.5, 1), v3(7, 1.5, 3), slope, &f));
    /* with every slope level enough, the walls count too */
    CHECK(!gait_gather_level_free(&g, v3(-0.5, 0.5, 1), v3(0.5, 1.5, 3), M_PI / 2, &f));
    /* bad input: no answer */
    CHECK(!gait_gather_level_free(&g, v3(1, 1, 1), v3(0, 0, 0), slope, &f));
    CHECK(!gait_gather_level_free(NULL, v3(-0.5, 0.5, 1), v3(0.5, 1.5, 3), slope, &f));
    free(mem);
    gait_world_destroy(w);
}

/* A tall wall, a block, a fence, a thin slab over a gap, a roofed passage, a 40 deg ramp and
 * stairs: every kind of stop a scan has. */
static gait_world *scan_course(void) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    bw_box(w, -2, 0, 3, 2, 6, 4);          /* a tall wall */
    bw_box(w, 3, 0, 3, 6, 1.4, 6);         /* a block */
    bw_box(w, 7, 0, 3, 10, 1.0, 3.2);      /* a fence */
    bw_box(w, -6, 1.5, 3, -3, 1.55, 5);    /* a thin slab at 1.5 m */
    bw_box(w, -6, 0, 7, -5.7, 2.2, 10);    /* a passage: two walls ... */
    bw_box(w, -4.3, 0, 7, -4, 2.2, 10);
    bw_box(w, -6, 2.2, 7, -4, 2.4, 10);    /* ... and a roof */
    ramp(w, 11, 0, 3, 6, tan(40 * M_PI / 180));
    for (int s = 0; s < 8; s++) bw_box(w, -2 + 0.3 * s, 0, -6, -1.7 + 0.3 * s, 0.18 * (s + 1), -3);
    return w;
}

TEST(scan_no_ledge_never_hides_a_ledge) {
    gait_world *w = scan_course();
    const gait_collider *c = gait_world_collider_const(w);
    const gait_traverse_table *tab = gait_world_traverse_table(w);
    gait_locomotion num = gait_default_locomotion();
    gait_gather g;
    void *mem;
    gather_box(c, &g, &mem, v3(-12, -2, -12), v3(20, 10, 16));
    int asked = 0, proven = 0, ledges = 0;
    for (double x = -7; x <= 13; x += 0.7)
        for (double z = -7; z <= 9; z += 0.9)
            for (double y = 0; y <= 6; y += 0.45)
                for (int h = 0; h < 4; h++) {
                    double a = h * M_PI / 2 + 0.3;
                    gait_vec3 fwd = v3(sin(a), 0, cos(a));
                    bool climbing = h == 3;
                    double speed = climbing ? 0 : 2.5 * h;
                    gait_traverse_query q = gait__traverse_body_query(tab, &num, v3(x, y, z), fwd, speed, climbing);
                    gait_traverse_scan s;
                    bool ok = gait_traverse_scan_run(c, &q, NULL, &s);
                    bool none = gait__traverse_no_ledge(&g, &q);
                    asked++;
                    proven += none;
                    ledges += ok;
                    if (none && ok) {
                        CHECK_MSG(false, "a ledge was hidden at (%.2f %.2f %.2f) heading %d", x, y, z, h);
                        goto done;
                    }
                }
done:
    /* both kinds were met: scans that find a ledge, and many the gather proves cannot */
    CHECK(ledges > 100);
    CHECK(proven > asked / 4);
    printf("  %d scans: %d found a ledge, %d were shown to find none\n", asked, ledges, proven);
    free(mem);
    gait_world_destroy(w);
}

TEST(a_skipped_scan_is_shown_as_run) {
    /* climbing a tall wall, the scan is not run until the top is near; traverse info shows the
     * scan the step would have run (the pure scan of the same query), never an empty one */
    gait_world *w = bw_box_world(-2, 0, 3, 2, 8, 4);
    gait_character_id id = bw_spawn(w, 0, 0, 2.5, 100);
    bool climbed = false;
    int shown = 0;
    for (int k = 0; k < 240; k++) {
        bw_input(w, id, 0, 1, 0, 0);
        gait_world_step(w);
        if (bw_info(w, id).phase.state != GAIT_STATE_CLIMB) continue;
        climbed = true;
        gait_traverse_info ti;
        CHECK(gait_character_traverse_info(w, id, &ti) == GAIT_OK);
        if (strcmp(ti.scan.reason, "not scanned") == 0) continue;
        shown++;
        CHECK_MSG(ti.scan.sweeps >= 1 && !ti.scan.ok, "%s, %d sweeps", ti.scan.reason, ti.scan.sweeps);
    }
    CHECK(climbed && shown > 30);
    gait_world_destroy(w);
}

TEST(mover_cache_knows_open_country) {
    gait_world *w = bw_box_world(10, 0, -1, 11, 2, 1);
    const gait_collider *c = gait_world_collider_const(w);
    gait_mover m;
    gait_mover_init(&m, c, 0.3, 1.7, 0.3, 45 * M_PI / 180);
    gait_mover_state s;
    memset(&s, 0, sizeof s);
    s.ground_normal.y = 1;
    s.grounded = true;
    bool clear_far = false, clear_near = false;
    for (int k = 0; k < 180; k++) { /* 4 m/s along +x: 12 m, into the box at x = 10 */
        gait_move_result r;
        gait_mover_step(&m, &s, v3(4, 0, 0), 1.0 / 60, &r);
        bool clear = gait__mover_clear_at(&m, &s.cache, s.feet);
        if (s.feet.x < 5) clear_far = clear_far || clear;
        if (s.feet.x > 9.2) clear_near = clear_near || clear;
        /* whatever it says, it is never wrong: nothing overlaps where it says clear */
        if (clear) {
            gait_capsule cap = {{s.feet.x, s.feet.y + 0.3, s.feet.z}, {s.feet.x, s.feet.y + 1.4, s.feet.z}, 0.3};
            gait_contact_point cp[4];
            gait_filter f = m.filter;
            CHECK_EQ_INT(gait_collider_capsule_overlap(c, &cap, &f, cp, 4, NULL), 0);
        }
    }
    CHECK(clear_far);   /* open country: known clear */
    (void)clear_near;   /* (by the box it may be too: the known-empty capsule ends at the box) */
    /* a landmark added: what the cache knew is of another collider, and says nothing */
    bw_box(w, 30, 0, 30, 31, 1, 31);
    CHECK(!gait__mover_clear_at(&m, &s.cache, s.feet));
    CHECK_MSG(s.feet.x > 9.6 && s.feet.x < 9.7, "stopped at x = %.4f (the box at 10, radius 0.3)", s.feet.x);
    gait_world_destroy(w);
}

/* An allocator that refuses once `refuse` is set. */
typedef struct refusing {
    counter c;
    bool refuse;
} refusing;
static void *refusing_alloc(size_t size, void *user) {
    refusing *r = user;
    return r->refuse ? NULL : counting_alloc(size, &r->c);
}
static void refusing_free(void *p, size_t size, void *user) {
    counting_free(p, size, &((refusing *)user)->c);
}

TEST(a_character_gathers_for_itself_allocated_once_per_slot) {
    refusing r;
    memset(&r, 0, sizeof r);
    gait_world_def d = gait_default_world_def();
    d.hooks.alloc = refusing_alloc;
    d.hooks.free = refusing_free;
    d.hooks.user = &r;
    d.max_characters = 4;
    gait_world *w = gait_world_create(&d);
    CHECK(w != NULL);
    bw_flat(w);
    bw_box(w, 2, 0, 2, 3, 2, 3);
    /* no memory for the slot's gather: refused whole, nothing half made */
    r.refuse = true;
    gait_character_def cd = gait_default_character_def();
    gait_character_id id;
    CHECK(gait_character_create(w, &cd, &id) == GAIT_ERR_OUT_OF_MEMORY);
    CHECK_EQ_INT(gait_world_character_count(w), 0);
    r.refuse = false;
    long before = r.c.allocs;
    CHECK(gait_character_create(w, &cd, &id) == GAIT_OK);
    CHECK_EQ_INT((int)(r.c.allocs - before), 1); /* the slot's gather */
    /* a slot keeps its gather for the next character in it; steps allocate nothing */
    CHECK(gait_character_destroy(w, id) == GAIT_OK);
    before = r.c.allocs;
    CHECK(gait_character_create(w, &cd, &id) == GAIT_OK);
    for (int k = 0; k < 120; k++) {
        bw_input(w, id, 0.7, 0.7, 0, 0); /* into the box and along it */
        gait_world_step(w);
    }
    CHECK_EQ_INT((int)(r.c.allocs - before), 0);
    gait_world_destroy(w);
    CHECK_EQ_INT((int)r.c.allocs, (int)r.c.frees);
}
