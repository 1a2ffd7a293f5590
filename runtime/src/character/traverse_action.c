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

#define CROSS_IN 0.05        /* m past the front edge the rise ends and the cross begins */
#define MANTLE_IN 0.1        /* m past the radius from the edge a mantle's cross ends */
#define VAULT_PAST 0.05      /* m past the radius beyond the back face a vault's cross ends */
#define LATCH_SIDE 0.1       /* m past the radius either side along the ledge the latch box reaches */
#define LATCH_BEFORE 0.05    /* m before the front face ... */
#define LATCH_DEPTH 0.6      /* ... to this far into the obstacle at most (its depth if less) ... */
#define LATCH_PAST 0.02      /* ... plus this */
#define LATCH_BELOW 0.2      /* m past the radius below the ledge ... */
#define LATCH_ABOVE 0.1      /* ... to this far above it */

static bool is_mantle(const gait__traverse *t, const gait_traverse_scan *s) {
    return t->kind == GAIT_TRAVERSE_MANTLE_LOW || t->kind == GAIT_TRAVERSE_MANTLE_HIGH || s->thick;
}

/* The path: the approach point under the grab point, up the face (the last RISE_DIAGONAL a
 * diagonal through the corner when a latch lets it), over the ledge, to past the back face (a
 * vault) or onto the top (a mantle). A body off the ground (over the top of a climb) or already
 * at the face skips the approach. */
static void plan_path(gait__traverse *t, const gait_traverse_scan *s, const gait__character *ch,
                      double r, bool latch) {
    gait_vec3 g = t->origin;
    double ly = t->ledge_y;
    /* beside the face, its clearance square to it; along a face leaning back, the rise follows
     * it (the approach ends out by the lean over the rise's height) */
    double off = (r + SKIN) / cos(s->lean), tl = tan(s->lean);
    double y1 = latch ? ly - RISE_DIAGONAL : ly + CLEAR;
    gait_vec3 ap = v3_mad(g, t->in, -(off + (ly - ch->position.y) * tl));
    ap.y = ch->position.y;
    t->path[0] = ap;
    gait_vec3 top = v3_mad(g, t->in, -(off + (ly - y1) * tl));
    t->path[1] = v3(top.x, y1, top.z);
    gait_vec3 p2 = v3_mad(g, t->in, CROSS_IN);
    t->path[2] = v3(p2.x, ly + CLEAR, p2.z);
    gait_vec3 p3 = v3_mad(g, t->in, is_mantle(t, s) ? r + MANTLE_IN : s->depth + r + VAULT_PAST);
    t->path[3] = v3(p3.x, ly + CLEAR, p3.z);
    t->path_count = 4;
    t->path_next = 0;
    gait_vec3 d = v3_sub(ap, ch->position);
    d.y = 0;
    t->phase = (!ch->contact.grounded || v3_len(d) <= APPROACH_TOL) ? GAIT_TRAVERSE_PHASE_RISE
                                                                     : GAIT_TRAVERSE_PHASE_APPROACH;
    if (t->phase == GAIT_TRAVERSE_PHASE_RISE) {
        t->path[1].x = ch->position.x;
        t->path[1].z = ch->position.z;
        t->path_next = 1;
    }
}

/* The latch: the obstacle's triangles near the ledge, a box round the grab point. */
static void set_latch(gait__traverse *t, const gait_traverse_scan *s, double r, bool latch) {
    t->latch = latch;
    t->latch_landmark = s->landmark;
    gait_vec3 g = t->origin, side = v3(-t->in.z, 0, t->in.x);
    double ly = t->ledge_y;
    gait_vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = v3(-INFINITY, -INFINITY, -INFINITY);
    double along[2] = {-(r + LATCH_SIDE), r + LATCH_SIDE};
    double into[2] = {-LATCH_BEFORE,
                      fmin(s->thick ? LATCH_DEPTH : s->depth, LATCH_DEPTH) + LATCH_PAST};
    double ys[2] = {ly - (r + LATCH_BELOW), ly + LATCH_ABOVE};
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

/* Starts the pending action from the last scan: its row's speeds, the corridor (how far past
 * the front face it may take the feet, from what the scan saw and nothing more), the path and
 * the latch. */
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
    if (is_mantle(t, s)) {
        t->corridor = tab->corridor_mantle;
    } else if (s->back_floor) {
        /* to the floor the scan read behind, or as far as the drop's arc onto that floor's
         * height carries the body at the action's speed, if further (a hurdle at a run lands
         * well past where the floor was read; it is not stopped in the air short of it) */
        double drop = s->height + CLEAR - s->back_floor_height;
        double arc = s->depth + r + VAULT_PAST + a->cross_speed * sqrt(2 * fmax(drop, 0) / n->gravity);
        t->corridor = fmax(s->back_floor_distance, arc) + tab->corridor_floor_margin;
    } else {
        t->corridor = s->depth + r + tab->corridor_flight_margin;
    }
    bool latch = s->landmark.index1 != 0;
    plan_path(t, s, ch, r, latch);
    set_latch(t, s, r, latch);
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

/* Moves the capsule by d with a sweep; returns whether the whole move was made. `others` (may be
 * NULL): a mover whose other characters (gait_mover.bodies) stop the move too. */
static bool sweep_move(const gait_collider *col, gait_gather *g, const gait_filter *f, double r,
                       double h, gait_vec3 *feet, gait_vec3 d, const gait_mover *others) {
    if (v3_len2(d) < 1e-18) return true;
    gait_capsule c = gait__upright_capsule(*feet, r, h);
    gait_hit hit, body;
    bool met = gait__query_sweep(col, g, &c, d, f, &hit);
    if (others && gait__mover_sweep_bodies(others, *feet, d, met ? hit.fraction : 1.0, &body)) {
        hit = body;
        met = true;
    }
    if (!met) {
        *feet = v3_add(*feet, d);
        return true;
    }
    *feet = v3_mad(*feet, d, hit.fraction);
    return false;
}

/* Pushes any intrusion past the corridor back (along -in, by a sweep so it meets what is there). */
static void corridor_clamp(const gait__traverse *t, const gait_collider *col, gait_gather *g, double r,
                           double h, gait_vec3 *feet, gait_vec3 *vel) {
    double d = v3_dot(v3_sub(*feet, t->origin), t->in);
    if (d <= t->corridor) return;
    gait_filter f = action_filter(t);
    sweep_move(col, g, &f, r, h, feet, v3_scale(t->in, -(d - t->corridor)), NULL);
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

/* One step of an action, as each phase fills it. */
typedef struct action_move {
    const gait_collider *col;
    gait_gather *g;             /* the queries go through it (may be NULL) */
    gait_mover m;               /* the standing capsule */
    gait__traverse *t;
    gait__character *ch;
    const gait_locomotion *n;
    double dt;
    double r, h;                /* m: the capsule */
    gait_filter f;              /* the action's sweeps: the world less the latched region */
    gait_vec3 start, feet;
    gait_vec3 vel;              /* m/s handed to the body afterwards */
    bool grounded;
    gait_vec3 gn;               /* ground normal */
    gait_move_result res;       /* the last mover call's */
    bool handed_over;           /* the action ended in the air: a fall takes over, keeping vel */
} action_move;

#define APPROACH_WALL 0.15      /* m: a body stopped by the face this close to the approach point
                                   is there */
#define NO_WAY 1e-4             /* m: an approach step that gains less made no way */
#define CREEP 0.25              /* of what an approach step asked: gaining less is no way made
                                   either (a body standing on the approach point, slid round at a
                                   crawl, is no way to the face) */
#define PATH_LEGS 4             /* waypoints a step may pass (the path has 4) */
#define SNAP_PUSHED 0.01        /* m: a blocked action's snap to the ground pushed out further
                                   than this is not taken */
#define STEP_LEFT 1e-12         /* s: less of a step than this is none */

/* Walk to the face below the grab point, at the speed the body came with (a standing start
 * walks), then rise. */
static void move_approach(action_move *am) {
    gait__traverse *t = am->t;
    const gait__character *ch = am->ch;
    gait_vec3 d = v3_sub(t->path[0], am->feet);
    d.y = 0;
    double dist = v3_len(d);
    double speed = fmax(am->n->walk_speed, sqrt(ch->velocity.x * ch->velocity.x +
                                                 ch->velocity.z * ch->velocity.z));
    if (dist > APPROACH_TOL) {
        double sp = fmin(speed, dist / am->dt);
        gait_mover_walk(&am->m, &am->feet, v3_scale(d, sp / dist), ch->body.ground_normal, am->dt,
                        NULL, &am->res);
        am->grounded = am->res.grounded;
        am->gn = am->res.ground_normal;
        am->vel = v3_scale(v3_sub(am->feet, am->start), 1.0 / am->dt);
        gait_vec3 d2 = v3_sub(t->path[0], am->feet);
        d2.y = 0;
        if (v3_len(d2) > dist - fmax(NO_WAY, CREEP * sp * am->dt))
            t->blocked += am->dt; /* made no way */
        if (!am->res.grounded) t->blocked = BLOCKED_END + 1;  /* the ground dropped away */
    }
    gait_vec3 d3 = v3_sub(t->path[0], am->feet);
    d3.y = 0;
    if (v3_len(d3) <= APPROACH_TOL || (am->res.wall && v3_len(d3) < APPROACH_WALL)) {
        t->phase = GAIT_TRAVERSE_PHASE_RISE;
        t->path[1].x = am->feet.x;
        t->path[1].z = am->feet.z;
        t->path_next = 1;
    }
}

/* The action ends in the air: the fall's gate takes the body, with the velocity it has. */
static void hand_over(action_move *am) {
    am->t->phase = GAIT_TRAVERSE_PHASE_DONE;
    am->t->latch = false;
    am->grounded = false;
    am->handed_over = true;
}

/* Rise and cross: along the waypoints at the row's speeds, what is left of the step carrying
 * on; at the end a mantle settles on the top, a vault starts its drop. */
static void move_along_path(action_move *am) {
    gait__traverse *t = am->t;
    double left = am->dt;
    for (int leg = 0; leg < PATH_LEGS && left > STEP_LEFT && t->path_next < t->path_count; leg++) {
        gait_vec3 target = t->path[t->path_next];
        double speed = t->path_next <= 2 ? t->rise_speed : t->cross_speed;
        t->phase = t->path_next <= 2 ? GAIT_TRAVERSE_PHASE_RISE : GAIT_TRAVERSE_PHASE_CROSS;
        gait_vec3 d = v3_sub(target, am->feet);
        double dist = v3_len(d), can = speed * left;
        bool arrive = dist <= can;
        gait_vec3 mv = arrive ? d : v3_scale(d, can / dist);
        bool whole = sweep_move(am->col, am->g, &am->f, am->r, am->h, &am->feet, mv, &am->m);
        if (t->latch && am->feet.y >= t->ledge_y + LATCH_EPS) {
            t->latch = false; /* above the ledge: the world is solid again */
            am->f = action_filter(t);
        }
        if (!whole) {
            t->blocked += left;
            break;
        }
        left -= arrive ? (speed > 0 ? dist / speed : left) : left;
        if (arrive) t->path_next++;
    }
    am->vel = v3_scale(v3_sub(am->feet, am->start), 1.0 / am->dt);
    if (t->path_next < t->path_count) return;
    t->latch = false;
    if (is_mantle(t, &t->scan)) {
        /* settle onto the top */
        gait_mover_walk(&am->m, &am->feet, v3(0, 0, 0), UP, am->dt, NULL, &am->res);
        am->grounded = am->res.grounded;
        am->gn = am->res.ground_normal;
        am->vel = v3(0, 0, 0);
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
    } else {
        am->vel = v3_scale(t->in, t->drop_speed);
        t->phase = GAIT_TRAVERSE_PHASE_DROP;
        if (left > STEP_LEFT) {
            /* the rest of the step is the drop's: the body does not stall where the cross ended */
            double vy1, mean = gait__body_fall(0, am->n, left, &vy1);
            gait_vec3 d = v3(am->vel.x * left, mean * left, am->vel.z * left);
            gait_mover_fly(&am->m, &am->feet, d, v3(am->vel.x, vy1, am->vel.z), NULL, &am->res);
            am->vel = am->res.vel;
        }
        /* no floor the scan saw behind: the landing is no part of the plan, a fall (the body's
         * own: air control, the glider, a plunge) takes over with the action's forward speed */
        if (!t->scan.back_floor) hand_over(am);
    }
}

/* A vault's fall behind the obstacle onto the floor the scan saw there, until it lands or meets
 * deep water; once the body is where the plan has no landing — past the corridor (beyond where
 * the scan looked), or more than a step below that floor — a fall takes over, keeping its speed
 * (the action never stops a body dead in the air). */
static void move_drop(action_move *am) {
    gait__traverse *t = am->t;
    double dt = am->dt;
    gait_vec3 v = am->ch->body.vel;
    double vy1, mean = gait__body_fall(v.y, am->n, dt, &vy1);
    gait_vec3 delta = v3(v.x * dt, mean * dt, v.z * dt);
    gait_mover_fly(&am->m, &am->feet, delta, v3(v.x, vy1, v.z), NULL, &am->res);
    am->vel = am->res.vel;
    double surface, depth;
    if (am->res.grounded) {
        am->grounded = true;
        am->gn = am->res.ground_normal;
        am->vel.y = 0;
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
    } else if (gait_water_at(am->col, am->feet.x, am->feet.z, &surface, &depth) &&
               gait_locomotion_deep_water(depth, surface - am->feet.y, am->n)) {
        t->phase = GAIT_TRAVERSE_PHASE_DONE; /* into deep water: the fall's gate swims */
    } else {
        const gait_traverse_scan *s = &t->scan;
        double floor_y = s->edge.y - s->height + s->back_floor_height;
        if (v3_dot(v3_sub(am->feet, t->origin), t->in) > t->corridor ||
            am->feet.y < floor_y - am->n->step_height)
            hand_over(am);
    }
}

/* The action's guards after each move: the corridor, the mover's settle pass (with the latch),
 * and the terrain's own refusal. A refused move blocks the action. */
static void guard_move(action_move *am) {
    gait__traverse *t = am->t;
    /* (a body handed to a fall is past what the plan covers: no corridor holds it) */
    if (!am->handed_over) corridor_clamp(t, am->col, am->g, am->r, am->h, &am->feet, &am->vel);
    gait__mover_leave_bodies(&am->m, &am->feet); /* the path's casts pass other characters by */
    /* The last word, as the body's move has it (gait_mover_settle): the action's sweeps skip
     * every triangle of the ledge's landmark that touches the latch box, and a large one (a
     * sloping top, a bevel) reaches out of the box where it is not the ledge; the path can end
     * a few cm inside it (tests/replays/fuzz_traverse_path_into_geometry.replay). Outside the
     * latch box the body is pushed out; what the push-out cannot solve ends the action where
     * the last step left the body (refused, or the action ends cleanly), never inside. */
    am->m.latch = t->latch;
    am->m.latch_landmark = t->latch_landmark;
    am->m.latch_min = t->latch_min;
    am->m.latch_max = t->latch_max;
    gait_move_result settled;
    gait__mover_result_clear(&settled);
    bool refused = gait_mover_settle(&am->m, am->start, &am->feet, false, false, &settled, NULL);
    /* ... and the terrain's: a body beyond the heightfield's edge (fallen off it, caught on a
     * wall) can rise and cross into the terrain's volume from the side, where no terrain sweep
     * meets it (tests/replays/fuzz_traverse_into_terrain_from_outside.replay: 2.5 m under it).
     * The move is refused as a landmark's would be, unless the start was no better. */
    double th, th0;
    gait_vec3 tn;
    gait_vec3 start = am->start, feet = am->feet;
    bool start_under = gait_terrain_sample(am->col, start.x, start.z, &th0, &tn) &&
                       start.y < th0 - TERRAIN_REFUSE;
    if (!refused && !start_under && gait_terrain_sample(am->col, feet.x, feet.z, &th, &tn) &&
        feet.y < th - TERRAIN_REFUSE) {
        am->feet = start;
        refused = true;
    }
    if (refused) {
        am->vel = v3(0, 0, 0);
        if (t->phase != GAIT_TRAVERSE_PHASE_DONE) t->blocked = BLOCKED_END + 1;
    }
}

/* A path blocked too long (or an action overrun) ends cleanly where the body is: on the ground
 * if it stands within a step, else falling. */
static void end_if_blocked(action_move *am) {
    gait__traverse *t = am->t;
    bool over = t->blocked > BLOCKED_END || t->seconds > ACTION_MAX;
    if (t->phase == GAIT_TRAVERSE_PHASE_DONE || !over) return;
    t->latch = false;
    am->m.latch = false; /* the world is solid again for the probe too */
    t->phase = GAIT_TRAVERSE_PHASE_DONE;
    gait_vec3 probe = am->feet;
    gait_mover_walk(&am->m, &probe, v3(0, 0, 0), UP, am->dt, NULL, &am->res);
    /* the snap down is the walk's, which takes the terrain under a cast that starts touching a
     * landmark (a hurdle blocked over a ramp's side edge dropped 0.29 m onto the terrain, 20 cm
     * into the ramp: the liveness fuzzer, seed 413085): a snap the settle refuses or has to
     * push out of something is not taken (the body falls from where it is) */
    gait_move_result settled;
    gait__mover_result_clear(&settled);
    gait_vec3 snapped = probe;
    bool refused = gait_mover_settle(&am->m, am->feet, &probe, false, false, &settled, NULL) ||
                   v3_len(v3_sub(probe, snapped)) > SNAP_PUSHED;
    if (!refused && am->res.grounded && fabs(probe.y - am->feet.y) <= am->n->step_height) {
        am->feet = probe;
        am->grounded = true;
        am->gn = am->res.ground_normal;
    }
    am->vel = v3(0, fmin(am->vel.y, 0), 0);
}

void gait__traverse_move(const gait_collider *col, gait_gather *g, gait_mover_bodies *bodies,
                         const gait_traverse_table *tab, gait__character *ch,
                         const gait_locomotion *n, double dt) {
    gait__traverse *t = &ch->trav;
    if (t->pending) start_action(tab, ch, n);
    action_move am;
    memset(&am, 0, sizeof am);
    am.col = col;
    am.g = g;
    gait_mover_init(&am.m, col, n->capsule_radius, n->capsule_height, n->step_height,
                    n->max_walk_slope);
    am.m.gather = g;
    am.m.bodies = bodies; /* the path's own casts pass others by; its settle pushes out of them */
    am.t = t;
    am.ch = ch;
    am.n = n;
    am.dt = dt;
    am.r = n->capsule_radius;
    am.h = n->capsule_height;
    am.start = am.feet = ch->position;
    am.vel = v3(0, 0, 0);
    am.gn = UP;

    if (t->kind == GAIT_TRAVERSE_NONE || t->phase == GAIT_TRAVERSE_PHASE_DONE) {
        /* nothing to play (a hook forced the state): stand where it is */
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
        gait_mover_walk(&am.m, &am.feet, v3(0, 0, 0), ch->body.ground_normal, dt, NULL, &am.res);
        ch->position = am.feet;
        ch->velocity = v3(0, 0, 0);
        finish_contact(ch, &am.m, am.res.grounded, am.res.ground_normal, v3(0, 0, 0));
        return;
    }
    t->seconds += dt;
    am.f = action_filter(t);
    ch->yaw = atan2(t->in.x, t->in.z); /* faces the obstacle */
    if (t->phase == GAIT_TRAVERSE_PHASE_APPROACH) move_approach(&am);
    else if (t->phase == GAIT_TRAVERSE_PHASE_RISE || t->phase == GAIT_TRAVERSE_PHASE_CROSS)
        move_along_path(&am);
    else if (t->phase == GAIT_TRAVERSE_PHASE_DROP) move_drop(&am);
    guard_move(&am);
    end_if_blocked(&am);
    if (t->phase == GAIT_TRAVERSE_PHASE_DONE) t->cooldown = tab->cooldown;
    ch->position = am.feet;
    ch->velocity = dt > 0 ? v3_scale(v3_sub(am.feet, am.start), 1.0 / dt) : v3(0, 0, 0);
    finish_contact(ch, &am.m, am.grounded, am.gn, am.vel);
}
