/* The traversal's action (docs/behaviour.md, "Traversal"): the body follows a path of waypoints
 * at the row's speeds (m/s of the path itself; a play rate is never involved — the host animates
 * the action from the state and the path):
 *   approach (walk to the face below the grab point) -> rise (up the face, the last part a
 *   diagonal through the ledge's corner) -> cross (forward over the ledge) -> drop (a vault's
 *   fall behind it) or settle (a mantle stands on the top).
 * Two guards make it honest:
 *   - the corridor: at the start, from what the scan saw, how far past the front face the feet
 *     may go; each step any intrusion beyond it is pushed back;
 *   - the height latch: only the obstacle's triangles overlapping a small box round the ledge
 *     are ignored (gait_filter.ignore_region_only), and only until the feet rise above the ledge.
 *     A windowsill is part of its house's one mesh: ignoring the landmark would make the body a
 *     ghost to the whole house.
 * Every move goes through the mover (gait/mover.h) and ends with its settle pass, as the body's
 * does; the contact is the sense stage's (gait__sense_contact).
 *
 * No mutable globals; a step allocates nothing; doubles only and a fixed number of queries, so
 * the same inputs give the same bits. */
#include "traverse_internal.h"

#include <math.h>
#include <string.h>

#include "body.h"
#include "character.h"
#include "core/vec.h"
#include "mover_internal.h"
#include "sense.h"

#define SKIN GAIT__TRAVERSE_SKIN
#define CLEAR GAIT__TRAVERSE_CLEAR
#define RISE_DIAGONAL 0.05  /* m below the ledge where the rise turns forward through the corner
                               (shallow: the capsule grazes a square corner by under a centimetre;
                               a bevelled or sloping one is what the latch lets it through) */
#define LATCH_EPS 0.005     /* m above the ledge at which the latch lets go */
#define BLOCKED_END 0.2     /* s the path may be blocked before the action ends (falls) */
#define ACTION_MAX 4.0      /* s an action may last at most */
#define APPROACH_TOL 0.03   /* m from the approach point that counts as there */
#define TERRAIN_REFUSE 0.01 /* m: a move ending this far under the terrain is refused (the
                               body's REFUSE_DEPTH for landmarks) */

static const gait_vec3 UP = {0, 1, 0};

static void start_action(const gait_traverse_table *tab, gait__character *ch,
                         const gait_locomotion *n) {
    gait__traverse *t = &ch->trav;
    const gait_traverse_scan *s = &t->scan;
    const gait_traverse_action_def *a = gait__traverse_row(tab, t->pending_kind, t->pending_row);
    t->pending = false;
    if (!a || !s->ok) {
        t->kind = GAIT_TRAVERSE_NONE;
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
        return;
    }
    double r = n->capsule_radius;
    t->kind = t->pending_kind;
    t->actions++;
    t->seconds = 0;
    t->blocked = 0;
    t->in = v3_neg(s->wall_normal);
    t->origin = v3(s->grab.x, s->edge.y, s->grab.z);
    t->ledge_y = s->edge.y;
    t->rise_speed = a->rise_speed;
    t->cross_speed = a->cross_speed;
    t->drop_speed = a->cross_speed;
    bool mantle = t->kind == GAIT_TRAVERSE_MANTLE_LOW || t->kind == GAIT_TRAVERSE_MANTLE_HIGH ||
                  s->thick;
    /* the corridor: how far past the front face this action may take the feet, from what the
     * scan saw and nothing more */
    if (mantle) t->corridor = tab->corridor_mantle;
    else if (s->back_floor) t->corridor = s->back_floor_distance + tab->corridor_floor_margin;
    else t->corridor = s->depth + r + tab->corridor_flight_margin;
    /* the path */
    gait_vec3 g = t->origin;
    gait_vec3 ap = v3_mad(g, t->in, -(r + SKIN));
    ap.y = ch->position.y;
    t->path[0] = ap;
    bool latch = s->landmark.index1 != 0;
    double ly = t->ledge_y;
    t->path[1] = v3(ap.x, latch ? ly - RISE_DIAGONAL : ly + CLEAR, ap.z);
    gait_vec3 p2 = v3_mad(g, t->in, 0.05);
    t->path[2] = v3(p2.x, ly + CLEAR, p2.z);
    gait_vec3 p3 = v3_mad(g, t->in, mantle ? r + 0.1 : s->depth + r + 0.05);
    t->path[3] = v3(p3.x, ly + CLEAR, p3.z);
    t->path_count = 4;
    t->path_next = 0;
    /* a body off the ground (over the top of a climb) or already at the face skips the approach */
    gait_vec3 d = v3_sub(ap, ch->position);
    d.y = 0;
    t->phase = (!ch->contact.grounded || v3_len(d) <= APPROACH_TOL) ? GAIT_TRAVERSE_PHASE_RISE
                                                                     : GAIT_TRAVERSE_PHASE_APPROACH;
    if (t->phase == GAIT_TRAVERSE_PHASE_RISE) {
        t->path[1].x = ch->position.x;
        t->path[1].z = ch->position.z;
        t->path_next = 1;
    }
    /* the latch: the obstacle's triangles near the ledge, a box round the grab point */
    t->latch = latch;
    t->latch_landmark = s->landmark;
    gait_vec3 side = v3(-t->in.z, 0, t->in.x);
    gait_vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = v3(-INFINITY, -INFINITY, -INFINITY);
    double along[2] = {-(r + 0.1), r + 0.1};
    double into[2] = {-0.05, fmin(s->thick ? 0.6 : s->depth, 0.6) + 0.02};
    double ys[2] = {ly - (r + 0.2), ly + 0.1};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) {
                gait_vec3 p = v3_mad(v3_mad(g, side, along[i]), t->in, into[j]);
                p.y = ys[k];
                lo = v3_min(lo, p);
                hi = v3_max(hi, p);
            }
    t->latch_min = lo;
    t->latch_max = hi;
}

/* The filter of the action's own sweeps: the whole world, less the latched region while on. */
static gait_filter action_filter(const gait__traverse *t) {
    gait_filter f;
    memset(&f, 0, sizeof f);
    if (t->latch) {
        f.ignore = t->latch_landmark;
        f.ignore_region_only = true;
        f.region_min = t->latch_min;
        f.region_max = t->latch_max;
    }
    return f;
}

/* Moves the capsule by d with a sweep; returns whether the whole move was made. */
static bool sweep_move(const gait_collider *col, const gait_filter *f, double r, double h,
                       gait_vec3 *feet, gait_vec3 d) {
    if (v3_len2(d) < 1e-18) return true;
    gait_capsule c = gait__upright_capsule(*feet, r, h);
    gait_hit hit;
    if (!gait_collider_capsule_sweep(col, &c, d, f, &hit)) {
        *feet = v3_add(*feet, d);
        return true;
    }
    *feet = v3_mad(*feet, d, hit.fraction);
    return false;
}

/* Pushes any intrusion past the corridor back (along -in, by a sweep so it meets what is there). */
static void corridor_clamp(const gait__traverse *t, const gait_collider *col, double r, double h,
                           gait_vec3 *feet, gait_vec3 *vel) {
    double d = v3_dot(v3_sub(*feet, t->origin), t->in);
    if (d <= t->corridor) return;
    gait_filter f = action_filter(t);
    sweep_move(col, &f, r, h, feet, v3_scale(t->in, -(d - t->corridor)));
    double vi = v3_dot(*vel, t->in);
    if (vi > 0) *vel = v3_mad(*vel, t->in, -vi);
}
/* Hands the body its memory for the moves after the action, and writes the contact. */
static void finish_contact(gait__character *ch, const gait_mover *m, bool grounded,
                           gait_vec3 ground_n, gait_vec3 vel) {
    gait__body_hand_over(&ch->body, grounded, ground_n, vel);
    gait_move_result r;
    gait__mover_result_clear(&r);
    r.grounded = grounded;
    r.ground_normal = ground_n;
    gait__sense_contact(ch, m, &r, false, false, GAIT__PROBE_FULL);
}

void gait__traverse_move(const gait_collider *col, const gait_traverse_table *tab,
                         gait__character *ch, const gait_locomotion *n, double dt) {
    gait__traverse *t = &ch->trav;
    if (t->pending) start_action(tab, ch, n);
    gait_mover m;
    gait_mover_init(&m, col, n->capsule_radius, n->capsule_height, n->step_height,
                     n->max_walk_slope);
    double r = n->capsule_radius, h = n->capsule_height;
    gait_vec3 start = ch->position, feet = start;
    gait_vec3 vel = v3(0, 0, 0);
    bool grounded = false;
    gait_vec3 gn = UP;
    gait_move_result res;
    memset(&res, 0, sizeof res);

    if (t->kind == GAIT_TRAVERSE_NONE || t->phase == GAIT_TRAVERSE_PHASE_DONE) {
        /* nothing to play (a hook forced the state): stand where it is */
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
        gait_mover_walk(&m, &feet, v3(0, 0, 0), ch->body.ground_normal, dt, NULL, &res);
        ch->position = feet;
        ch->velocity = v3(0, 0, 0);
        finish_contact(ch, &m, res.grounded, res.ground_normal, v3(0, 0, 0));
        return;
    }
    t->seconds += dt;
    gait_filter f = action_filter(t);
    ch->yaw = atan2(t->in.x, t->in.z); /* faces the obstacle */

    if (t->phase == GAIT_TRAVERSE_PHASE_APPROACH) {
        gait_vec3 d = v3_sub(t->path[0], feet);
        d.y = 0;
        double dist = v3_len(d);
        /* at the speed the body came with (a standing start walks up to the face) */
        double speed = fmax(n->walk_speed, sqrt(ch->velocity.x * ch->velocity.x +
                                                ch->velocity.z * ch->velocity.z));
        if (dist > APPROACH_TOL) {
            double sp = fmin(speed, dist / dt);
            gait_mover_walk(&m, &feet, v3_scale(d, sp / dist), ch->body.ground_normal, dt, NULL,
                             &res);
            grounded = res.grounded;
            gn = res.ground_normal;
            vel = v3_scale(v3_sub(feet, start), 1.0 / dt);
            gait_vec3 d2 = v3_sub(t->path[0], feet);
            d2.y = 0;
            if (v3_len(d2) > dist - 1e-4) t->blocked += dt; /* made no way */
            if (!res.grounded) t->blocked = BLOCKED_END + 1; /* the ground dropped away */
        }
        gait_vec3 d3 = v3_sub(t->path[0], feet);
        d3.y = 0;
        if (v3_len(d3) <= APPROACH_TOL || (res.wall && v3_len(d3) < 0.15)) {
            t->phase = GAIT_TRAVERSE_PHASE_RISE;
            t->path[1].x = feet.x;
            t->path[1].z = feet.z;
            t->path_next = 1;
        }
    } else if (t->phase == GAIT_TRAVERSE_PHASE_RISE || t->phase == GAIT_TRAVERSE_PHASE_CROSS) {
        /* along the waypoints at the row's speeds; what is left of the step carries on */
        double left = dt;
        for (int guard = 0; guard < 4 && left > 1e-12 && t->path_next < t->path_count; guard++) {
            gait_vec3 target = t->path[t->path_next];
            double speed = t->path_next <= 2 ? t->rise_speed : t->cross_speed;
            t->phase = t->path_next <= 2 ? GAIT_TRAVERSE_PHASE_RISE : GAIT_TRAVERSE_PHASE_CROSS;
            gait_vec3 d = v3_sub(target, feet);
            double dist = v3_len(d), can = speed * left;
            bool arrive = dist <= can;
            gait_vec3 mv = arrive ? d : v3_scale(d, can / dist);
            bool whole = sweep_move(col, &f, r, h, &feet, mv);
            if (t->latch && feet.y >= t->ledge_y + LATCH_EPS) {
                t->latch = false; /* above the ledge: the world is solid again */
                f = action_filter(t);
            }
            if (!whole) {
                t->blocked += left;
                break;
            }
            left -= arrive ? (speed > 0 ? dist / speed : left) : left;
            if (arrive) t->path_next++;
        }
        vel = v3_scale(v3_sub(feet, start), 1.0 / dt);
        if (t->path_next >= t->path_count) {
            bool mantle = t->kind == GAIT_TRAVERSE_MANTLE_LOW ||
                          t->kind == GAIT_TRAVERSE_MANTLE_HIGH || t->scan.thick;
            t->latch = false;
            if (mantle) {
                /* settle onto the top */
                gait_mover_walk(&m, &feet, v3(0, 0, 0), UP, dt, NULL, &res);
                grounded = res.grounded;
                gn = res.ground_normal;
                vel = v3(0, 0, 0);
                t->phase = GAIT_TRAVERSE_PHASE_DONE;
            } else {
                t->phase = GAIT_TRAVERSE_PHASE_DROP;
                vel = v3_scale(t->in, t->drop_speed);
            }
        }
    } else if (t->phase == GAIT_TRAVERSE_PHASE_DROP) {
        gait_vec3 v = ch->body.vel;
        double vy1, mean = gait__body_fall(v.y, n, dt, &vy1); /* the body's own fall */
        gait_vec3 delta = v3(v.x * dt, mean * dt, v.z * dt);
        gait_mover_fly(&m, &feet, delta, v3(v.x, vy1, v.z), NULL, &res);
        vel = res.vel;
        double surface, depth;
        if (res.grounded) {
            grounded = true;
            gn = res.ground_normal;
            vel.y = 0;
            t->phase = GAIT_TRAVERSE_PHASE_DONE;
        } else if (gait_water_at(col, feet.x, feet.z, &surface, &depth) &&
                   gait_locomotion_deep_water(depth, surface - feet.y, n)) {
            t->phase = GAIT_TRAVERSE_PHASE_DONE; /* into deep water: the fall's gate swims */
        }
    }
    corridor_clamp(t, col, r, h, &feet, &vel);
    /* The last word, as the body's move has it (gait_mover_settle): the action's sweeps skip
     * every triangle of the ledge's landmark that touches the latch box, and a large one (a
     * sloping top, a bevel) reaches out of the box where it is not the ledge; the path can end
     * a few cm inside it (tests/replays/fuzz_traverse_path_into_geometry.replay). Outside the
     * latch box the body is pushed out; what the push-out cannot solve ends the action where
     * the last step left the body (refused, or the action ends cleanly), never inside. */
    m.latch = t->latch;
    m.latch_landmark = t->latch_landmark;
    m.latch_min = t->latch_min;
    m.latch_max = t->latch_max;
    gait_move_result settled;
    gait__mover_result_clear(&settled);
    bool refused = gait_mover_settle(&m, start, &feet, false, false, &settled, NULL);
    /* ... and the terrain's: a body beyond the heightfield's edge (fallen off it, caught on a
     * wall) can rise and cross into the terrain's volume from the side, where no terrain sweep
     * meets it (tests/replays/fuzz_traverse_into_terrain_from_outside.replay: 2.5 m under it).
     * The move is refused as a landmark's would be, unless the start was no better. */
    double th, th0;
    gait_vec3 tn;
    bool start_under = gait_terrain_sample(col, start.x, start.z, &th0, &tn) &&
                       start.y < th0 - TERRAIN_REFUSE;
    if (!refused && !start_under && gait_terrain_sample(col, feet.x, feet.z, &th, &tn) &&
        feet.y < th - TERRAIN_REFUSE) {
        feet = start;
        refused = true;
    }
    if (refused) {
        vel = v3(0, 0, 0);
        if (t->phase != GAIT_TRAVERSE_PHASE_DONE) t->blocked = BLOCKED_END + 1;
    }

    if (t->phase != GAIT_TRAVERSE_PHASE_DONE &&
        (t->blocked > BLOCKED_END || t->seconds > ACTION_MAX)) {
        /* the path is blocked (or the action overran): end cleanly where the body is, on the
         * ground if it stands, else falling */
        t->latch = false;
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
        gait_vec3 probe = feet;
        gait_mover_walk(&m, &probe, v3(0, 0, 0), UP, dt, NULL, &res);
        if (res.grounded && fabs(probe.y - feet.y) <= n->step_height) {
            feet = probe;
            grounded = true;
            gn = res.ground_normal;
        }
        vel = v3(0, fmin(vel.y, 0), 0);
    }
    if (t->phase == GAIT_TRAVERSE_PHASE_DONE) t->cooldown = tab->cooldown;
    ch->position = feet;
    ch->velocity = dt > 0 ? v3_scale(v3_sub(feet, start), 1.0 / dt) : v3(0, 0, 0);
    finish_contact(ch, &m, grounded, gn, vel);
}
