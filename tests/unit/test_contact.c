/* Characters that meet: capsule against capsule in the same casts as the geometry, resolved
 * against where everyone stood as the step began — never more than 1 cm inside one another, no
 * one launched, two walking head-on slide past, one on another's head slides off, the result
 * the same in any stepping order, layers and the collide flag respected. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "body_fixtures.h"
#include "character/crowd.h"
#include "character/world_internal.h"

#define OVERLAP_TOL 0.01   /* m: the most two capsules may overlap (docs/behaviour.md) */

static double v3len(gait_vec3 v) { return sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

/* How deep two characters' capsules overlap (m; <= 0 when apart), as gait draws them:
 * upright, radius r, height h, feet at the position. */
static double overlap_of(gait_world *w, gait_character_id a, gait_character_id b) {
    gait_character_info ia = bw_info(w, a), ib = bw_info(w, b);
    const gait_locomotion *na = gait_world_locomotion(w, ia.body_type);
    const gait_locomotion *nb = gait_world_locomotion(w, ib.body_type);
    double ha = ia.phase.state == GAIT_STATE_CROUCH ? na->crouch_height : na->capsule_height;
    double hb = ib.phase.state == GAIT_STATE_CROUCH ? nb->crouch_height : nb->capsule_height;
    double a0 = ia.position.y + na->capsule_radius, a1 = ia.position.y + ha - na->capsule_radius;
    double b0 = ib.position.y + nb->capsule_radius, b1 = ib.position.y + hb - nb->capsule_radius;
    double dy = a0 > b1 ? a0 - b1 : (a1 < b0 ? b0 - a1 : 0);
    double dx = ia.position.x - ib.position.x, dz = ia.position.z - ib.position.z;
    return na->capsule_radius + nb->capsule_radius - sqrt(dx * dx + dy * dy + dz * dz);
}

static double worst_overlap(gait_world *w, const gait_character_id *ids, int n) {
    double worst = -1e9;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double o = overlap_of(w, ids[i], ids[j]);
            if (o > worst) worst = o;
        }
    return worst;
}

static gait_character_id spawn_at(gait_world *w, double x, double y, double z, double yaw) {
    gait_character_def d = gait_default_character_def();
    d.position = (gait_vec3){x, y, z};
    d.yaw = yaw;
    d.no_camera = true;
    gait_character_id id = GAIT_NULL_ID_INIT;
    gait_character_create(w, &d, &id);
    return id;
}

/* Input with the camera looking along +z: move_y walks +z, move_x walks -x (right-handed). */
static void walk(gait_world *w, gait_character_id id, double mx, double my) {
    bw_input(w, id, mx, my, 0, 0);
}

TEST(contact_two_walking_head_on_slide_past_each_other) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id a = spawn_at(w, 0, 0, -6, 0), b = spawn_at(w, 0, 0, 6, 0);
    double worst = -1, fastest = 0;
    for (int k = 0; k < 300; k++) {
        walk(w, a, 0, 1);  /* a runs +z */
        walk(w, b, 0, -1); /* b runs -z: straight at each other, on one line */
        gait_world_step(w);
        double o = overlap_of(w, a, b);
        if (o > worst) worst = o;
        double va = v3len(bw_info(w, a).velocity), vb = v3len(bw_info(w, b).velocity);
        if (va > fastest) fastest = va;
        if (vb > fastest) fastest = vb;
    }
    gait_character_info ia = bw_info(w, a), ib = bw_info(w, b);
    CHECK_MSG(ia.position.z > 3 && ib.position.z < -3, "they did not pass: a at z %.2f, b at z %.2f",
              ia.position.z, ib.position.z);
    CHECK_MSG(worst <= OVERLAP_TOL, "they overlapped by %.4f m", worst);
    /* no launch: never faster than the run (5.6 m/s) and the sidestep's part of it */
    CHECK_MSG(fastest <= 5.6 * 1.05, "a body reached %.2f m/s", fastest);
    /* they kept to their own sides (each stepped to its right) and came back near the line */
    CHECK(fabs(ia.position.x) < 1.5 && fabs(ib.position.x) < 1.5);
    gait_world_destroy(w);
}

TEST(contact_a_body_landing_on_a_head_slides_off) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id low = spawn_at(w, 0, 0, 0, 0);
    gait_character_id top = spawn_at(w, 0, 0, 0, 0);
    gait_character_place(w, top, (gait_vec3){0, 4, 0}, 0); /* placed onto the terrain... */
    /* ... so lift it into the air by a jump-free route: place it on a box, then remove the box */
    gait_landmark_id box = bw_box(w, -0.5, 3.0, -0.5, 0.5, 3.2, 0.5);
    gait_character_place(w, top, (gait_vec3){0, 3.5, 0}, 0);
    CHECK_NEAR(bw_info(w, top).position.y, 3.2, 0.005);
    gait_collider_remove_landmark(gait_world_collider(w), box);
    double worst = -1, low_fastest = 0;
    for (int k = 0; k < 180; k++) {
        walk(w, low, 0, 0);
        walk(w, top, 0, 0);
        gait_world_step(w);
        double o = overlap_of(w, low, top);
        if (o > worst) worst = o;
        double v = v3len(bw_info(w, low).velocity);
        if (v > low_fastest) low_fastest = v;
    }
    gait_character_info it = bw_info(w, top), il = bw_info(w, low);
    CHECK_MSG(it.contact.grounded && it.position.y < 0.05, "the top body is at y %.3f (state %s)",
              it.position.y, gait_state_name(it.phase.state));
    double dx = it.position.x - il.position.x, dz = it.position.z - il.position.z;
    CHECK(sqrt(dx * dx + dz * dz) >= 0.6 - OVERLAP_TOL);
    CHECK_MSG(worst <= OVERLAP_TOL, "they overlapped by %.4f m", worst);
    CHECK_MSG(low_fastest < 2.0, "the body below was shoved at %.2f m/s", low_fastest);
    CHECK(il.position.y < 1e-6 && il.contact.grounded);
    gait_world_destroy(w);
}

/* ---- a crowd ------------------------------------------------------------------------------- */

#define CROWD 48

static void crowd_input(gait_world *w, const gait_character_id *ids, const int *who, int n, int f) {
    for (int k = 0; k < n; k++) {
        int i = who[k]; /* the character's own number, whatever its slot */
        double a = 0.031 * f + 1.7 * i;
        uint32_t pressed = (f + 11 * i) % 97 == 0 ? GAIT_BUTTON_JUMP : 0;
        uint32_t held = (f / 60 + i) % 4 == 0 ? GAIT_BUTTON_SPRINT : 0;
        if ((f + 13 * i) % 131 == 0) pressed |= GAIT_BUTTON_SPRINT;
        bw_input(w, ids[k], sin(a), cos(0.8 * a), held, pressed);
    }
}

/* A plaza 12 m across, walled, with a crate; CROWD characters packed in it. order 1 creates them
 * last to first (their slots, so their stepping order, reversed). */
static gait_world *plaza(int order, gait_character_id *ids, int *who, int workers) {
    gait_world_def d = gait_default_world_def();
    d.max_characters = CROWD;
    d.worker_count = workers;
    gait_world *w = gait_world_create(&d);
    bw_flat(w);
    bw_box(w, -7, 0, -7, 7, 2, -6);
    bw_box(w, -7, 0, 6, 7, 2, 7);
    bw_box(w, -7, 0, -6, -6, 2, 6);
    bw_box(w, 6, 0, -6, 7, 2, 6);
    bw_box(w, -1, 0, -1, 1, 0.6, 1);
    for (int k = 0; k < CROWD; k++) {
        int i = order ? CROWD - 1 - k : k;
        who[k] = i;
        ids[k] = spawn_at(w, -5 + (i % 8) * 1.4, 0, -5 + (i / 8) * 1.9, 0.4 * i);
    }
    return w;
}

TEST(contact_a_packed_crowd_keeps_apart_in_any_stepping_order) {
    gait_character_id ids[2][CROWD];
    int who[2][CROWD];
    gait_world *w[2] = {plaza(0, ids[0], who[0], 1), plaza(1, ids[1], who[1], 1)};
    double worst = -1;
    int meetings = 0;
    for (int f = 0; f < 60 * 60; f++) { /* a minute */
        for (int r = 0; r < 2; r++) {
            crowd_input(w[r], ids[r], who[r], CROWD, f);
            gait_world_step(w[r]);
        }
        double o = worst_overlap(w[0], ids[0], CROWD);
        if (o > worst) worst = o;
        if (o > -0.05) meetings++;
    }
    CHECK_MSG(worst <= OVERLAP_TOL, "two overlapped by %.4f m", worst);
    CHECK(meetings > 600); /* they did press against each other */
    /* the same character ends in the same place to the bit, stepped first or last */
    int same = 0;
    for (int k = 0; k < CROWD; k++) {
        gait_vec3 p0 = bw_info(w[0], ids[0][k]).position;
        gait_vec3 p1 = bw_info(w[1], ids[1][CROWD - 1 - k]).position;
        same += memcmp(&p0, &p1, sizeof p0) == 0;
    }
    CHECK_EQ_INT(same, CROWD);
    gait_world_destroy(w[0]);
    gait_world_destroy(w[1]);
}

/* The deepest any two of a large crowd overlap (m), as overlap_of measures: a sweep along x. */
typedef struct placed { double x, y0, y1, z, r; } placed;
static int by_x(const void *a, const void *b) {
    double x = ((const placed *)a)->x, y = ((const placed *)b)->x;
    return (x > y) - (x < y);
}
static double crowd_worst_overlap(gait_world *w, const gait_character_id *ids, int n, placed *p) {
    for (int i = 0; i < n; i++) {
        gait_character_info in = bw_info(w, ids[i]);
        const gait_locomotion *num = gait_world_locomotion(w, in.body_type);
        double h = in.phase.state == GAIT_STATE_CROUCH ? num->crouch_height : num->capsule_height;
        p[i] = (placed){in.position.x, in.position.y + num->capsule_radius,
                        in.position.y + h - num->capsule_radius, in.position.z, num->capsule_radius};
    }
    qsort(p, (size_t)n, sizeof *p, by_x);
    double worst = -1e9;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && p[j].x - p[i].x < p[i].r + p[j].r; j++) {
            double dy = p[i].y0 > p[j].y1 ? p[i].y0 - p[j].y1 : (p[i].y1 < p[j].y0 ? p[j].y0 - p[i].y1 : 0);
            double dx = p[i].x - p[j].x, dz = p[i].z - p[j].z;
            double o = p[i].r + p[j].r - sqrt(dx * dx + dy * dy + dz * dz);
            if (o > worst) worst = o;
        }
    return worst;
}

/* A thousand packed in a walled plaza 32 m across (one a square metre), wandering (a new stick
 * every 2 s), pressed against its walls, climbing them and standing on their tops, for 19 s: a
 * climber held among a body above it, one beside it and one between it and the wall was pushed
 * out of two of them into the third and back each step, a millimetre deeper a step: 15.7 mm
 * here before the push-out held the half-spaces it was clear of, 9.3 mm after (a body
 * slipping off the wall's top edge, walk <-> fall, over a climber rising under it: not traced
 * further). */
TEST(contact_a_crowd_climbing_its_walls_keeps_apart) {
    enum { N = 1000, SIDE = 32 };
    gait_world_def d = gait_default_world_def();
    d.max_characters = N;
    gait_world *w = gait_world_create(&d);
    bw_flat(w);
    double h = SIDE / 2.0;
    bw_box(w, -h - 1, 0, -h - 1, h + 1, 2, -h);
    bw_box(w, -h - 1, 0, h, h + 1, 2, h + 1);
    bw_box(w, -h - 1, 0, -h, -h, 2, h);
    bw_box(w, h, 0, -h, h + 1, 2, h);
    static gait_character_id ids[N];
    static placed p[N];
    for (int i = 0; i < N; i++) ids[i] = spawn_at(w, i % SIDE - h + 0.5, 0, i / SIDE - h + 0.5, 0.7 * i);
    double worst = -1;
    int climbing = 0;
    for (int f = 0; f < 1140; f++) {
        for (int i = 0; i < N; i++) {
            uint32_t r = (uint32_t)(i * 2654435761u) ^ (uint32_t)(f / 120) * 40503u;
            r ^= r >> 13;
            r *= 0x5bd1e995u;
            r ^= r >> 15;
            double a = (r & 0xffff) / 65536.0 * 2 * M_PI, len = 0.3 + 0.7 * ((r >> 16) & 0xff) / 255.0;
            bool jump = (r >> 24) % 97 == 0 && f % 120 == 0;
            bw_input(w, ids[i], len * sin(a), len * cos(a), 0, jump ? GAIT_BUTTON_JUMP : 0);
        }
        gait_world_step(w);
        double o = crowd_worst_overlap(w, ids, N, p);
        if (o > worst) worst = o;
        for (int i = 0; i < N; i++) climbing += bw_info(w, ids[i]).phase.state == GAIT_STATE_CLIMB;
    }
    CHECK_MSG(worst <= OVERLAP_TOL, "two overlapped by %.4f m", worst);
    CHECK_MSG(climbing > 6000, "%d character-steps climbing", climbing); /* they did climb them */
    gait_world_destroy(w);
}

TEST(contact_the_parallel_step_gives_the_same_bits_in_a_crowd) {
    gait_character_id ids[2][CROWD];
    int who[2][CROWD];
    gait_world *w[2] = {plaza(0, ids[0], who[0], 1), plaza(0, ids[1], who[1], 3)};
    for (int f = 0; f < 600; f++)
        for (int r = 0; r < 2; r++) {
            crowd_input(w[r], ids[r], who[r], CROWD, f);
            gait_world_update(w[r], 1.0 / 60, NULL);
        }
    CHECK(gait_world_state_hash(w[0]) == gait_world_state_hash(w[1]));
    gait_world_destroy(w[0]);
    gait_world_destroy(w[1]);
}

/* ---- who meets whom ------------------------------------------------------------------------ */

/* Two walking through each other's start: whether they ever got closer than their radii. */
static bool pass_through(void (*setup)(gait_world *w, gait_character_id a, gait_character_id b)) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id a = spawn_at(w, 0, 0, -3, 0), b = spawn_at(w, 0.1, 0, 3, 0);
    setup(w, a, b);
    double worst = -1;
    for (int k = 0; k < 120; k++) {
        walk(w, a, 0, 1);
        walk(w, b, 0, -1);
        gait_world_step(w);
        double o = overlap_of(w, a, b);
        if (o > worst) worst = o;
    }
    gait_world_destroy(w);
    return worst > 0.3;
}

static void meet(gait_world *w, gait_character_id a, gait_character_id b) { (void)w; (void)a; (void)b; }
static void a_off(gait_world *w, gait_character_id a, gait_character_id b) {
    (void)b;
    gait_character_set_collision(w, a, false, 1, ~0u);
}
static void layers_apart(gait_world *w, gait_character_id a, gait_character_id b) {
    gait_character_set_collision(w, a, true, 1, 1);  /* meets layer 1 only */
    gait_character_set_collision(w, b, true, 2, ~0u); /* on layer 2: a's mask leaves it out */
}
static void layers_meet(gait_world *w, gait_character_id a, gait_character_id b) {
    gait_character_set_collision(w, a, true, 4, 2 | 4);
    gait_character_set_collision(w, b, true, 2, 4);
}

TEST(contact_collide_flag_and_layers_choose_who_meets) {
    CHECK(!pass_through(meet));
    CHECK(pass_through(a_off));
    CHECK(pass_through(layers_apart));
    CHECK(!pass_through(layers_meet));
    gait_world *w = bw_world(NULL);
    gait_character_id a = spawn_at(w, 0, 0, 0, 0);
    gait_character_info i = bw_info(w, a);
    CHECK(i.collide && i.collision_layer == 1 && i.collision_mask == 0xffffffffu);
    CHECK_EQ_INT(gait_character_set_collision(w, a, false, 8, 3), GAIT_OK);
    i = bw_info(w, a);
    CHECK(!i.collide && i.collision_layer == 8 && i.collision_mask == 3);
    gait_character_destroy(w, a);
    CHECK_EQ_INT(gait_character_set_collision(w, a, true, 1, 1), GAIT_ERR_STALE_ID);
    gait_world_destroy(w);
}

/* Two created in one spot are pushed apart (each half the way) and stay apart, with no speed
 * carried away from it. */
TEST(contact_two_made_in_one_spot_part_without_a_launch) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id a = spawn_at(w, 2, 0, 2, 0), b = spawn_at(w, 2, 0, 2, 0);
    CHECK(overlap_of(w, a, b) > 0.5);
    gait_world_step(w);
    CHECK(overlap_of(w, a, b) <= OVERLAP_TOL);
    for (int k = 0; k < 60; k++) {
        walk(w, a, 0, 0);
        walk(w, b, 0, 0);
        gait_world_step(w);
    }
    CHECK(overlap_of(w, a, b) <= OVERLAP_TOL);
    CHECK(v3len(bw_info(w, a).velocity) < 1e-9 && v3len(bw_info(w, b).velocity) < 1e-9);
    CHECK_NEAR(bw_info(w, a).position.z, 2, 1e-9);
    gait_world_destroy(w);
}

/* A kit's moving action (a dash straight at another character, its own velocity through the
 * mover) meets the other as a walk does: it stops at the pair's plane and slides around the other
 * (to its right) instead of passing through it, and the other, standing, is not launched. */
TEST(contact_a_kits_dash_goes_around_another_character) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id a = spawn_at(w, 0, 0, 0, 0), b = spawn_at(w, 0, 0, 3, 0);
    gait_move_def d = gait_default_move_def();
    d.kind = GAIT_MOVE_VELOCITY;
    d.frame = GAIT_FRAME_WORLD;
    d.velocity = (gait_vec3){0, 0, 10};
    d.seconds = 0.8;
    CHECK_EQ_INT(gait_character_start_move(w, a, &d), GAIT_OK);
    double worst = -1, widest = 0;
    for (int k = 0; k < 60; k++) {
        gait_world_step(w);
        double o = overlap_of(w, a, b);
        if (o > worst) worst = o;
        double x = fabs(bw_info(w, a).position.x);
        if (x > widest) widest = x;
    }
    gait_character_info ib = bw_info(w, b);
    CHECK_MSG(worst <= OVERLAP_TOL, "they overlapped by %.4f m", worst);
    CHECK_MSG(widest > 0.5, "the dash went %.3f m aside: through, not around", widest);
    CHECK_NEAR(ib.position.z, 3, 0.6); /* pushed at most a little: nothing threw it */
    CHECK(v3len(ib.velocity) < 1e-9);
    gait_world_destroy(w);
}

/* ---- one over another: who takes the gap -------------------------------------------------- */

/* How far the capsule of slot `self` (upright, radius 0.3, height 1.7) stands inside its side of
 * the plane the crowd's picture gives it against slot `other` (m). */
static double side_clearance(gait_world *w, int self, int other) {
    gait_mover_bodies bs;
    CHECK(gait__bodies_begin(&bs, &w->crowd, self));
    gait_vec3 f = w->characters[self].position;
    gait__bodies_cover(&bs, f, (gait_vec3){0, 0, 0}, 1.7);
    for (int k = 0; k < bs.count; k++) {
        if (bs.bounds[k].slot != other) continue;
        gait_vec3 n = bs.bounds[k].normal;
        double da = f.x * n.x + (f.y + 0.3) * n.y + f.z * n.z;
        double db = f.x * n.x + (f.y + 1.4) * n.y + f.z * n.z;
        return (da < db ? da : db) - 0.3 - bs.bounds[k].offset;
    }
    CHECK_MSG(false, "slot %d has no plane against slot %d", self + 1, other + 1);
    return 0;
}

/* b stands on a 1.15 m block's edge, a beside the block below it: their vertical extents 5 cm
 * apart, 2 mm between the capsules. Standing, the lower (a) holds its place and the plane lies on
 * it; rising (a climber under b), a takes the whole gap and the plane lies on b — b, held by its
 * ground (wedged on a wall's top in a corner, say), need not make room it may not have. */
TEST(contact_one_rising_under_another_takes_the_whole_gap) {
    gait_world *w = bw_box_world(-2, 0, -2, 0, 1.15, 2);
    gait_character_id b = spawn_at(w, -0.25, 1.15, 0, 0), a = spawn_at(w, 0.3525, 0, 0, 0);
    int sa = a.index1 - 1, sb = b.index1 - 1;
    CHECK_NEAR(w->characters[sb].position.y, 1.15, 0.01); /* on the block (its top a float) */
    double gap = -overlap_of(w, a, b);
    CHECK(gap > 0 && gap < 0.1);
    gait__crowd_build(&w->crowd, w, w->step_feet);
    CHECK_NEAR(side_clearance(w, sa, sb), 0, 1e-9);   /* standing: the plane on a */
    CHECK_NEAR(side_clearance(w, sb, sa), gap, 1e-6); /* b takes the gap */
    w->characters[sa].velocity.y = 0.8;               /* climbing */
    gait__crowd_build(&w->crowd, w, w->step_feet);
    CHECK_NEAR(side_clearance(w, sa, sb), gap, 1e-6);
    CHECK_NEAR(side_clearance(w, sb, sa), 0, 1e-9);
    gait_world_destroy(w);
}
