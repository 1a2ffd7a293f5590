/* The crouch (docs/behaviour.md, "Crouch"): a crouched body is crouch_height tall, walks at
 * crouch_speed, stands up only where the standing capsule fits, crouches by itself to enter a low
 * opening it walks into, and keeps the crouched capsule through a fall begun under a low ceiling.
 *
 * The sense stage asks this file's probes (room to stand, an opening ahead); the gates call its
 * rules (gait__crouch_before, gait__crouch_after), pure over the crouch's memory; the move stage
 * calls gait__crouch_drop, the one move the crouch makes itself. */
#include "crouch.h"

#include <string.h>

#include "core/vec.h"
#include "layouts.h"
#include "mover_internal.h"

#define ROOM_SLACK 0.01          /* m: the stand-up check's capsule is this much thinner, so a wall
                                    the crouched body already touches does not count */
#define OPENING_LIFT 0.02        /* m: the opening probes start this far above the feet (over the
                                    ground's own triangles) */
#define OPENING_STAND_REACH 0.4  /* m: the standing capsule is stopped within this ... */
#define OPENING_NEAR 0.1         /* m: the crouched capsule's first, short look (below) */
#define OPENING_CROUCH_REACH 0.8 /* ... and the crouched one is not within this: a low opening */
#define HOVER_STEPS 3            /* steps a crouched body may read "not grounded" over ground
                                    within a step below before it falls (an edge's flicker) */
#define DROP_STEP 0.05           /* m: a fall from a crouch looks for standing room this often ... */
#define DROP_STEPS 16            /* ... this many times (0.8 m) */

bool gait_crouch_room_to_stand(const gait_collider *col, gait_vec3 feet, double r, double ch,
                               double h, const gait_filter *filter) {
    if (!col || !v3_finite(feet) || !(r > 0) || !(h > ch)) return true;
    gait_capsule c;
    /* the part of the standing capsule above the crouched one */
    c.a = v3(feet.x, feet.y + ch - r, feet.z);
    c.b = v3(feet.x, feet.y + h - r, feet.z);
    c.radius = r - ROOM_SLACK;
    if (c.b.y < c.a.y) c.b.y = c.a.y;
    gait_contact_point cp;
    gait_filter none;
    memset(&none, 0, sizeof none);
    return gait_collider_capsule_overlap(col, &c, filter ? filter : &none, &cp, 1, NULL) == 0;
}

/* ---- probes -------------------------------------------------------------------------------- */

bool gait__crouch_low_ceiling(const gait_collider *col, gait_vec3 feet, const gait_locomotion *n) {
    return !gait_crouch_room_to_stand(col, feet, n->capsule_radius, n->crouch_height,
                                      n->capsule_height, NULL);
}

bool gait__crouch_opening_ahead(const gait_collider *col, gait_gather *gather, gait_vec3 feet,
                                gait_vec3 dir, const gait_locomotion *n) {
    if (n->crouch_height >= n->capsule_height) return false;
    gait_vec3 p = v3(feet.x, feet.y + OPENING_LIFT, feet.z);
    gait_filter landmarks, terrain;
    memset(&landmarks, 0, sizeof landmarks);
    landmarks.skip_terrain = true;
    memset(&terrain, 0, sizeof terrain);
    terrain.skip_landmarks = true;
    gait_hit hit;
    /* The terrain never makes an opening: it is a height field, so where it meets the standing
     * capsule the crouched one (the same feet, the same column) meets it as soon or sooner. The
     * standing capsule is therefore asked of the landmarks alone, and the terrain only of the
     * crouched one, last, where the landmarks leave an opening (the answer is the two full
     * sweeps' answer; a run along a wall skips the terrain's triangles under the feet). */
    /* The crouched capsule's landmark sweep goes first: at a wall (98 % of the asks on a level,
     * where a wall stops the body and it then looks for an opening) it meets the wall too and
     * answers alone; the three answers are and-ed, so their order changes nothing. */
    gait_capsule low = gait__upright_capsule(p, n->capsule_radius, n->crouch_height);
    gait_vec3 reach = v3_scale(dir, OPENING_CROUCH_REACH);
    /* A wall right ahead (the one that stopped the body, most asks) is met by a short look as
     * surely as by the whole reach (what the capsule meets on the way to OPENING_NEAR it meets
     * on the way past it), and the short one's box holds a few of the gather's triangles where
     * the whole reach's bounds every one 0.8 m ahead: the level's whole step 14,812 -> 14,511
     * instructions (0.03-0.2 m read within 0.2 %). Only a miss asks the whole reach. */
    if (gait__query_sweep(col, gather, &low, v3_scale(dir, OPENING_NEAR), &landmarks, &hit)) return false;
    if (gait__query_sweep(col, gather, &low, reach, &landmarks, &hit)) return false;
    gait_capsule stand = gait__upright_capsule(p, n->capsule_radius, n->capsule_height);
    return gait__query_sweep(col, gather, &stand, v3_scale(dir, OPENING_STAND_REACH), &landmarks, &hit) &&
           !gait__query_sweep(col, gather, &low, reach, &terrain, &hit);
}

/* ---- rules --------------------------------------------------------------------------------- */

bool gait__crouch_needs_ceiling(const gait__crouch *c, gait_state s) {
    return s == GAIT_STATE_CROUCH || c->air;
}

bool gait__crouch_before(gait__crouch *c, gait_state s, bool crouching, bool low_ceiling,
                         bool opening, double stand_seconds, double dt) {
    c->stand_blocked = false;
    if (c->air) {
        /* a fall begun crouched, under a low ceiling or with the switch still on: it grows to
         * standing where there is room and the switch is off, else it lands crouched (the
         * stand-up check takes over on foot). A swim it became keeps the short capsule while a
         * ceiling is low over it: the fall entered the water where the standing capsule fitted,
         * the swim's first stroke rose under a plate, and the capsule grew 3.5 cm into it the
         * step after (the liveness fuzzer, seed 1000836:
         * tests/replays/fuzz_crouched_fall_to_swim_rising_under_a_plate) */
        bool keep = gait_state_airborne(s) ? low_ceiling || crouching
                                           : !gait_state_on_foot(s) && low_ceiling;
        if (!keep) c->air = false;
        else if (gait_state_airborne(s)) crouching = true;
    }
    if (!gait_state_on_foot(s)) {
        c->auto_crouch = c->auto_under = false;
        return crouching;
    }
    bool crouched = s == GAIT_STATE_CROUCH;
    if (opening) { /* the sense stage looks only while standing, not auto-crouched, against a wall */
        c->auto_crouch = true;
        c->auto_under = false;
        c->auto_seconds = 0;
    }
    if (c->auto_crouch) c->auto_seconds += dt;
    bool want = crouching || c->auto_crouch;
    if (crouched && (!crouching || c->auto_crouch)) {
        /* the stand-up check: the gate may leave crouch only where the standing capsule fits */
        if (low_ceiling) {
            want = true;
            c->stand_blocked = true;
            c->auto_under = c->auto_crouch;
        } else if (c->auto_crouch && (c->auto_under || c->auto_seconds > stand_seconds)) {
            /* out of the opening (or it was never entered): stand */
            c->auto_crouch = c->auto_under = false;
            want = crouching;
        }
    }
    return want;
}

gait_state gait__crouch_after(gait__crouch *c, gait_state from, gait_state proposed,
                              const gait_contact *contact, bool low_ceiling, bool crouching,
                              const gait_locomotion *n, bool *drop) {
    *drop = false;
    /* a crouched body (in the crouch, or falling with the crouched capsule) leaves its short
     * capsule only where it can stand: a jump, a dash, a climb or a swim from under a low ceiling
     * would grow the capsule into it (the push-out cannot settle 0.1-0.6 m: the fuzzer's
     * tests/replays/fuzz_crouch_to_swim_under_slab, fuzz_crouched_fall_to_climb_under_slab).
     * Falling goes on with the crouched capsule (memory->air, gait__crouch_drop); such a fall
     * on ground lands crouched (a swim proposed in a flooded notch under a steep face held it in
     * the air for good: tests/replays/fuzz_crouched_fall_held_in_a_terrain_notch). */
    if ((from == GAIT_STATE_CROUCH || c->air) && proposed != from && proposed != GAIT_STATE_CROUCH &&
        proposed != GAIT_STATE_FALL && low_ceiling) {
        c->stand_blocked = true;
        if (c->air && contact->grounded && !contact->rising) return GAIT_STATE_CROUCH;
        /* a glide held off a climb by the bank it would climb (too steep to stand on, and over
         * the standing capsule's head) lets go, as a glide resting on such a bank does: held in
         * the glide, it hung on the bank, its sink going into the face every step (the liveness
         * fuzzer, seed 300217) */
        if (from == GAIT_STATE_GLIDE && contact->steep) return GAIT_STATE_FALL;
        return from;
    }
    if (contact->grounded || from != GAIT_STATE_CROUCH) c->hover = 0;
    if (from == GAIT_STATE_CROUCH && proposed == GAIT_STATE_FALL && low_ceiling) {
        /* ground within a step below for a step or three (a grounded reading that flickered at
         * an edge): held crouched; longer, or a real drop, starts the fall where the body can
         * stand, else with the crouched capsule */
        if (contact->height_above_ground <= n->step_height && c->hover < HOVER_STEPS) {
            c->hover++;
            c->stand_blocked = true;
            return GAIT_STATE_CROUCH;
        }
        *drop = true;
    }
    /* A fall from the crouch with the switch still on keeps the crouched capsule (it lands
     * crouched: the switch is on). Grown to standing in the air, the fall and the crouch it lands
     * in asked for support with different capsules: the standing one leaning on a wall 1.5 m up
     * over a steep slope was held there and landed, the crouched one a step later touched only
     * the slope and fell again, crouch <-> fall every step (the liveness fuzzer's flicker). */
    if (from == GAIT_STATE_CROUCH && proposed == GAIT_STATE_FALL && crouching) c->air = true;
    return proposed;
}

/* ---- moves --------------------------------------------------------------------------------- */

void gait__crouch_drop(gait__crouch *c, const gait_collider *col, gait_vec3 *feet,
                       const gait_locomotion *n) {
    double r = n->capsule_radius, ch_h = n->crouch_height, h = n->capsule_height;
    gait_vec3 p = *feet;
    bool held = c->air; /* the switch on (gait__crouch_after): crouched in the air wherever it is */
    if (!gait__crouch_low_ceiling(col, p, n)) {
        c->air = held;
        return;
    }
    for (int k = 1; k <= DROP_STEPS; k++) {
        gait_vec3 q = v3(p.x, p.y - DROP_STEP * k, p.z);
        if (!gait_crouch_room_to_stand(col, q, r, ch_h, h, NULL)) continue;
        gait_capsule cap = gait__upright_capsule(p, r, ch_h);
        gait_filter none;
        memset(&none, 0, sizeof none);
        gait_hit hit;
        if (!gait_collider_capsule_sweep(col, &cap, v3(0, q.y - p.y, 0), &none, &hit)) {
            double th;
            gait_vec3 tn;
            /* not below the terrain either (it is read through its height function) */
            if (!gait_terrain_sample(col, q.x, q.z, &th, &tn) || q.y >= th) *feet = q;
        }
        break;
    }
    c->air = held || gait__crouch_low_ceiling(col, *feet, n);
}

double gait__crouch_capsule_height(const gait__crouch *c, gait_state s, const gait_locomotion *n) {
    /* crouched, or falling from a crouch with no room to stand yet */
    bool crouched = s == GAIT_STATE_CROUCH || c->air;
    return crouched ? n->crouch_height : n->capsule_height;
}

/* ---- layout (layouts.h) ------------------------------------------------------------------- */

static const gait__lfield crouch_rows[] = {
    GAIT__LBOOL(gait__crouch, auto_crouch),
    GAIT__LBOOL(gait__crouch, auto_under),
    GAIT__LREAL(gait__crouch, auto_seconds, 0, GAIT__LFINITE, "s"),
    GAIT__LBOOL(gait__crouch, stand_blocked),
    GAIT__LINT(gait__crouch, hover, 0, HOVER_STEPS),
    GAIT__LBOOL(gait__crouch, air),
};
GAIT__LTABLE(gait__crouch_layout, gait__crouch, crouch_rows, NULL, NULL);
