/* The sense stage (docs/design.md, "The step"): the one writer of a character's contact.
 *
 * After each move (the body's, the traversal's, a placement) gait__sense_contact reads what the
 * move met into the contact the next step's gates read: ground, rise, height above the ground,
 * water, wall, wall ahead, over the top. At the start of a step gait__sense_surroundings adds
 * what this step's input asks of the crouch (room to stand, a low opening ahead), and, when the
 * gates ask, gait__sense_ledge scans the ledge ahead and reads the traversal table's offer for
 * it. Every reading is a query of the collider; nothing here decides a state. */
#include "sense.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "character.h"
#include "core/vec.h"
#include "crouch.h"
#include "mover_internal.h"
#include "traverse_internal.h"

#define HEIGHT_PROBE 1000.0   /* m: farthest the height-above-ground probe looks down */
#define PROBE_LIFT 0.01       /* m: the probe's ray starts this far above the feet */
#define PROBE_HINT_DROP 0.5   /* m below the last probe's hit its next first look reaches */
#define RISING_SPEED 1e-9     /* m/s: a carried upward speed above this is rising */

/* Bit for bit the same (every field; doubles by their bits): a query asked again. */
static bool same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }
#define SAME(f) same_bits(&a->f, &b->f, sizeof a->f)
static bool same_filter(const gait_filter *a, const gait_filter *b) {
    return SAME(ignore) && SAME(ignore_region_only) && SAME(region_min) && SAME(region_max) &&
           SAME(skip_terrain) && SAME(skip_landmarks) && SAME(skip_moving) && SAME(walkable_slope);
}

/* The probe's ray down through the landmarks, from o by d: the answer the memo keeps when the same
 * ray was asked last of the same collider at the same static revision with the same filter, and
 * no moving landmark reaches the ray's column (they move between steps); else asked, and kept.
 * The same bits either way. */
static bool probe_ray(const gait_mover *m, gait__probe_memo *memo, gait_vec3 o, gait_vec3 d,
                      double *distance, double *point_y) {
    uint64_t rev = gait_collider_static_revision(m->collider);
    bool fixed = !gait_collider_moving_near(m->collider, v3(o.x, o.y + d.y, o.z), o);
    if (memo && fixed && memo->valid && memo->collider == m->collider && memo->revision == rev &&
        same_bits(&memo->origin, &o, sizeof o) && same_bits(&memo->delta, &d, sizeof d) &&
        same_filter(&memo->filter, &m->filter)) {
        *distance = memo->distance;
        *point_y = memo->point_y;
        return memo->found;
    }
    gait_hit hit;
    /* where the last probe met something, the ground is most likely about as high again (a
     * climber's wall foot, the floor under a fall): a first look that culls everything wholly
     * below that by PROBE_HINT_DROP answers for the whole ray when it meets something (most of
     * a level's tree lies below the body); else the whole ray is asked */
    bool found = memo && memo->found && memo->collider == m->collider &&
                 gait__ray_down_above(m->collider, m->gather, o, d, &m->filter,
                                      memo->point_y - PROBE_HINT_DROP, &hit);
    if (!found) found = gait__query_ray(m->collider, m->gather, o, d, &m->filter, &hit);
    if (found) {
        *distance = hit.distance;
        *point_y = hit.point.y;
    }
    if (memo) {
        memo->valid = fixed;
        memo->collider = m->collider;
        memo->revision = rev;
        memo->filter = m->filter;
        memo->origin = o;
        memo->delta = d;
        memo->found = found;
        memo->distance = found ? hit.distance : 0;
        memo->point_y = found ? hit.point.y : 0;
    }
    return found;
}

/* Metres from the feet down to whatever lies below (terrain or a landmark), up to the probe;
 * *landmark_y the height of the landmark the probe met (-infinity for none). memo (may be NULL):
 * the body's last probe ray (probe_ray). */
static double height_above_ground(const gait_mover *m, gait__probe_memo *memo, gait_vec3 feet,
                                  gait__ground_probe probe, double *landmark_y) {
    double best = INFINITY, h;
    gait_vec3 tn;
    if (gait_terrain_sample(m->collider, feet.x, feet.z, &h, &tn)) best = feet.y - h;
    double reach = isfinite(best) && probe == GAIT__PROBE_TO_TERRAIN ? fmax(best, 0) + PROBE_LIFT
                                                                    : HEIGHT_PROBE;
    if (reach > HEIGHT_PROBE) reach = HEIGHT_PROBE;
    gait_vec3 o = v3(feet.x, feet.y + PROBE_LIFT, feet.z);
    *landmark_y = -INFINITY;
    double distance, point_y;
    if (probe_ray(m, memo, o, v3(0, -reach, 0), &distance, &point_y)) {
        double d = distance - PROBE_LIFT;
        if (d < best) best = d;
        *landmark_y = point_y;
    }
    return best < 0 ? 0 : best;
}

/* A body's footprint: its feet and the points a radius out along these axes. */
static const double FOOTPRINT[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

/* The water over the body at feet. A body in the water (swimming, dashing, drowning) is in it
 * while any of its footprint is — the points a radius out along the axes too, taking the highest
 * surface met, its depth over the ground under the feet — so the side of a water region standing
 * over dry ground (a volume that ends in a vertical face, not a bank) is no line the body crosses
 * in and out of the water every step: a body enters with its feet, leaves with its whole
 * footprint (seed 910373: run <-> swim every step along such a side over a steep bank). */
static bool water_over(const gait_collider *col, gait_vec3 feet, double radius, bool in_water,
                       double *surface, double *depth) {
    bool wet = gait_water_at(col, feet.x, feet.z, surface, depth);
    if (!in_water) return wet;
    double best = wet ? *surface : -INFINITY;
    for (int k = 0; k < 4; k++) {
        double s;
        if (gait_water_at(col, feet.x + FOOTPRINT[k][0] * radius,
                          feet.z + FOOTPRINT[k][1] * radius, &s, NULL) &&
            s > best)
            best = s;
    }
    if (best == -INFINITY || (wet && best <= *surface)) return wet;
    double ground, dep = INFINITY;
    if (gait_terrain_sample(col, feet.x, feet.z, &ground, NULL)) {
        dep = best - ground;
        if (!(dep > 0)) return wet; /* dry land under the feet above that surface */
    }
    *surface = best;
    *depth = dep;
    return true;
}

/* The floor a body in the water stands on: the lowest of the landmark floor under its feet (at
 * floor_y) and the floors under the points a radius out along the axes (a landmark's, or the
 * terrain's where none is higher). It leaves the water with its whole footprint on shallow
 * ground, as it leaves a water region's side: a fence's top 1.05 m under the surface, 0.1-0.3 m
 * wide in water 1.3 m deep, took a swimmer's stroke onto its feet and the next step off it back
 * into the swim, run <-> swim each time the stick turned (the liveness fuzzer, seed 1007112). */
static double footprint_floor(const gait_mover *m, gait_vec3 feet, double floor_y) {
    double lowest = floor_y;
    for (int k = 0; k < 4; k++) {
        double x = feet.x + FOOTPRINT[k][0] * m->radius, z = feet.z + FOOTPRINT[k][1] * m->radius, h;
        double floor = gait_terrain_sample(m->collider, x, z, &h, NULL) ? h : -INFINITY;
        if (floor >= lowest) continue;
        /* down from a little over the feet to the terrain there (off the terrain: to a metre
         * under the lowest floor found so far) */
        double top = feet.y + PROBE_LIFT, reach = top - (isfinite(floor) ? floor : lowest - 1.0);
        gait_hit hit;
        if (reach > 0 && gait__query_ray(m->collider, m->gather, v3(x, top, z), v3(0, -reach, 0),
                                         &m->filter, &hit) && hit.normal.y > 0)
            floor = fmax(floor, hit.point.y);
        if (floor < lowest) lowest = floor;
    }
    return lowest;
}

void gait__sense_contact(gait__character *ch, const gait_mover *m, const gait_move_result *r,
                         bool wall_ahead, bool over_top, gait__ground_probe probe) {
    gait_contact *c = &ch->contact;
    c->grounded = r->grounded;
    c->rising = ch->body.vel.y > RISING_SPEED;
    /* the landmark under the feet: the ground stood on, or what the probe met below */
    double landmark_y = r->grounded ? r->ground_height : -INFINITY;
    c->height_above_ground =
        r->grounded ? 0 : height_above_ground(m, &ch->body.probe, ch->position, probe, &landmark_y);
    double surface, depth;
    if (water_over(m->collider, ch->position, m->radius, gait_state_in_water(ch->phase.state),
                   &surface, &depth)) {
        /* the water stands on whichever is higher under the body: the terrain, or a landmark's
         * floor (a platform under the surface is waded onto as a shelving shore is; one above
         * it is dry) */
        if (landmark_y > surface - depth) {
            double floor = gait_state_in_water(ch->phase.state)
                               ? footprint_floor(m, ch->position, landmark_y) : landmark_y;
            if (floor > surface - depth) depth = surface - floor;
        }
        c->water_depth = depth > 0 ? depth : 0;
        c->submersion = depth > 0 ? surface - ch->position.y : 0;
    } else {
        c->water_depth = 0;
        c->submersion = 0; /* dry: "<= 0 above it or dry" (locomotion.h), and finite */
    }
    c->wall = r->wall;
    c->wall_ahead = r->wall && wall_ahead;
    c->over_top = over_top;
    c->steep = r->steep && !r->grounded;
}

void gait__sense_surroundings(const gait_collider *col, gait_gather *gather, gait__character *ch,
                              const gait__intent *in, const gait_locomotion *n,
                              gait__senses *out) {
    out->low_ceiling = false;
    out->opening = false;
    out->scanned = false;
    out->offer = GAIT_TRAVERSE_NONE;
    out->offer_row = -1;
    gait_state s = ch->phase.state;
    if (gait__crouch_needs_ceiling(&ch->crouch, s))
        out->low_ceiling = gait__crouch_low_ceiling(col, ch->position, n);
    /* only a standing body already stopped by something (contact.wall) looks for an opening: a
     * step in open country pays nothing */
    if (gait_state_on_foot(s) && s != GAIT_STATE_CROUCH && !ch->crouch.auto_crouch &&
        ch->contact.grounded && ch->contact.wall && v3_len2(in->dir_n) > 0.5 &&
        gait__crouch_opening_ahead(col, gather, ch->position, in->dir_n, n)) {
        out->opening = true;
        /* the lip over an opening the crouched body fits is no wall to climb */
        ch->contact.wall_ahead = false;
    }
}

/* Bit for bit the same scan query (every field; doubles by their bits). */
static bool same_query(const gait_traverse_query *a, const gait_traverse_query *b) {
    return SAME(feet) && SAME(forward) && SAME(speed) && SAME(radius) && SAME(height) &&
           SAME(step_height) && SAME(max_height) && SAME(min_height) && SAME(reach_min) &&
           SAME(reach_max) && SAME(reach_speed) && SAME(grab_margin) && SAME(max_ledge_slope) &&
           SAME(max_drop) && same_filter(&a->filter, &b->filter);
}
#undef SAME

/* A climb's proof of no ledge is shown for a box this much wider than the ledge box (m, every
 * way): the climb's next steps, some 0.25 m of climbing, fall inside it and need no gather. */
#define FREE_GROW 0.25

/* The last proof of no ledge covers this query's ledge box (the same filter and slope, the
 * collider as it was, no moving landmark in the box now). */
static bool proof_covers(const gait_collider *col, const gait__traverse *last,
                         const gait_traverse_query *q, gait_vec3 lo, gait_vec3 hi) {
    return last && last->free_revision == gait_collider_revision(col) + 1 &&
           same_filter(&last->free_filter, &q->filter) &&
           same_bits(&last->free_slope, &q->max_ledge_slope, sizeof q->max_ledge_slope) &&
           lo.x >= last->free_lo.x && lo.y >= last->free_lo.y && lo.z >= last->free_lo.z &&
           hi.x <= last->free_hi.x && hi.y <= last->free_hi.y && hi.z <= last->free_hi.z &&
           !gait_collider_moving_near(col, lo, hi);
}

static void no_ledge(gait__senses *out) {
    memset(&out->scan, 0, sizeof out->scan);
    snprintf(out->scan.reason, sizeof out->scan.reason, "no ledge");
    out->deferred = true;
}

/* Whether a body off the ground (over the top of a climb, which rises from where it is: no
 * approach) meets, rising from its feet to the ledge, a face over it that leans over the way up
 * from behind: one facing down and towards the ledge, not the ledge's own lip. The scan's room
 * check rises from the approach point beside the face; a climber may hang elsewhere, under an
 * overhang at its back (a trough's wall leaning over a riser of the ground), and the rise met
 * it at once, was blocked, ended, and was offered again: climb -> traverse -> run every 15
 * steps, a centimetre up each time (the walkers' mesh scene, seed 101). */
static bool rise_blocked(const gait_collider *col, gait_gather *gather,
                         const gait_traverse_query *q, const gait_traverse_scan *s) {
    gait_capsule c = gait__upright_capsule(q->feet, q->radius, q->height);
    gait_hit hit;
    gait_vec3 in = v3_neg(s->wall_normal), up = v3(0, s->height + GAIT__TRAVERSE_CLEAR, 0);
    return gait__query_sweep(col, gather, &c, up, &q->filter, &hit) && hit.normal.y < 0 &&
           hit.normal.x * in.x + hit.normal.z * in.z > 0;
}

void gait__sense_ledge(const gait_collider *col, gait_gather *gather, const gait_traverse_table *tab,
                       gait_vec3 feet, const gait__ledge_request *rq, const gait_locomotion *n,
                       const gait__traverse *last, gait__senses *out) {
    out->scanned = false;
    out->deferred = false;
    out->proved_free = false;
    out->offer = GAIT_TRAVERSE_NONE;
    out->offer_row = -1;
    if (!rq->want) return;
    out->query = gait__traverse_body_query(tab, n, feet, rq->forward, rq->speed, rq->climbing);
    const gait_traverse_query *q = &out->query;
    gait_vec3 llo, lhi;
    bool boxed = gait__traverse_ledge_box(q, &llo, &lhi);
    bool ok;
    if (last && last->scanned && last->scan_revision == gait_collider_revision(col) + 1 &&
        same_query(q, &last->query)) {
        out->scan = last->scan; /* nothing it reads has changed */
        out->deferred = last->scan_deferred;
        ok = out->scan.ok;
    } else if (boxed && proof_covers(col, last, q, llo, lhi)) {
        no_ledge(out); /* the last proof holds the ledge box: no gather, no query */
        ok = false;
    } else {
        /* one gather for the scan's first queries (the sweep ahead, the trace down onto the
         * ledge) and the body's move after it (its capsule, a step up and down) */
        gait_vec3 f = v3_norm(v3(q->forward.x, 0, q->forward.z));
        double reach = q->reach_min + (q->reach_max - q->reach_min) * clampd(q->speed / q->reach_speed, 0, 1);
        gait_vec3 ahead = v3_mad(feet, f, reach), side = v3(q->radius, 0, q->radius);
        gait_vec3 lo = v3_sub(v3(fmin(feet.x, ahead.x), feet.y - q->step_height, fmin(feet.z, ahead.z)),
                              v3_scale(side, 2));
        gait_vec3 hi = v3_add(v3(fmax(feet.x, ahead.x), feet.y + fmax(q->height + q->step_height, q->max_height) + 0.1,
                                 fmax(feet.z, ahead.z)), side);
        /* ... and the box that shows there is no ledge to find (a climb up a wall whose top is
         * out of reach, most of a climb), grown for a climb's proof */
        gait_vec3 grow = v3(FREE_GROW, FREE_GROW, FREE_GROW), plo = v3_sub(llo, grow), phi = v3_add(lhi, grow);
        if (boxed) {
            gait_vec3 glo = rq->climbing ? plo : llo, ghi = rq->climbing ? phi : lhi;
            lo = v3(fmin(lo.x, glo.x), fmin(lo.y, glo.y), fmin(lo.z, glo.z));
            hi = v3(fmax(hi.x, ghi.x), fmax(hi.y, ghi.y), fmax(hi.z, ghi.z));
        }
        gait_gather *g = gait__gather_for(col, gather, &q->filter, lo, hi);
        if (boxed && rq->climbing && gait__traverse_box_level_free(g, q, plo, phi)) {
            out->proved_free = true;
            out->free_lo = plo;
            out->free_hi = phi;
            no_ledge(out);
            ok = false;
        } else if (boxed && gait__traverse_box_level_free(g, q, llo, lhi)) {
            /* no surface to stand on where the ledge could be (a climb up a tall wall, a jump
             * in open ground): the scan would fail; it is run only if it is shown */
            no_ledge(out);
            ok = false;
        } else {
            ok = gait__traverse_scan(col, gather, &out->query, NULL, &out->scan);
        }
    }
    out->scanned = true;
    if (ok && rq->climbing && rise_blocked(col, gather, q, &out->scan)) {
        out->scan.ok = false;
        out->scan.room = false;
        snprintf(out->scan.reason, sizeof out->scan.reason, "no room to rise");
        ok = false;
    }
    if (ok) out->offer = gait__traverse_offer(tab, &out->scan, rq->speed, rq->climbing, &out->offer_row);
}
