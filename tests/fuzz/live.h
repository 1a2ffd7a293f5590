/* live.h — what players notice, checked step by step on one body: the liveness invariants the
 * fuzzer (fuzz_body.c) fails a case on and the walkers' survey (walkers.c) counts.
 *
 *   air_stuck         a fall, glide or plunge that has not descended 5 cm in 1 s is held up by
 *                     something it does not stand on (it should slide, land or catch a wall);
 *   traverse_overrun  a vault, hurdle or mantle lasting longer than its own plan (gait_traverse_
 *                     info.path): the approach at walk speed, the rise (from where the approach
 *                     ended) and the cross at its row's speeds, the drop from the ledge to the
 *                     floor behind (or, with none, to max_drop below the feet), plus the 0.2 s a
 *                     blocked path is given and 0.25 s;
 *   drown_deep        a drowning that ends with the body in deep water (it swims again at once)
 *                     where walkable terrain shallow enough to stand in lies within the 32 m the
 *                     return looks ashore (a world of deep water all round has no shore to give);
 *   stuck_walker      walking, running or sprinting the same way (the facing within 0.1 rad) for
 *                     1 s without moving 5 cm, with the body's capsule (lifted over a step) free
 *                     to go 0.5 m that way, or along the wall it meets there (at least 5 cm of it),
 *                     and walkable ground there within a step;
 *   flicker           the state flipping between the same two states 6 times within 0.5 s, in
 *                     steps that read no press and where the stick did not start, stop or cross
 *                     the walk's threshold.
 * live_check reports the first it sees in a step and starts that watch over, so a caller that
 * goes on stepping counts each spell once. Public API only; header-only (static functions) for
 * the two test programs. */
#ifndef GAIT_TESTS_LIVE_H
#define GAIT_TESTS_LIVE_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gait/gait.h"

#define LIVE_AIR_SECONDS 1.0
#define LIVE_AIR_DROP 0.05       /* m a body in the air must descend within LIVE_AIR_SECONDS */
#define LIVE_WALK_SECONDS 1.0
#define LIVE_WALK_MOVE 0.05      /* m */
#define LIVE_WALK_AHEAD 0.5      /* m of free way ahead that makes a stop a stuck walker */
#define LIVE_FLIPS 6
#define LIVE_FLIP_SECONDS 0.5

typedef struct live_track {
    double air_low;              /* lowest feet in this spell in the air (m) */
    int air_steps;               /* steps since the feet last went LIVE_AIR_DROP below it */
    int trav_actions, trav_steps;/* the action playing (its count) and its steps */
    double trav_plan;            /* s it may last: its own path, from where the feet were
                                    when it began and again when its approach ended */
    gait_traverse_phase trav_phase; /* its phase when the plan was last taken */
    gait_vec3 walk_at;           /* where the feet were when this heading began or last moved */
    double walk_yaw;
    int walk_steps;
    gait_state flip_a, flip_b;   /* the pair the last change flipped between */
    int flips;                   /* consecutive changes back and forth between them */
    int flip_step[LIVE_FLIPS];   /* steps of the last changes (a ring) */
    int step;                    /* steps checked */
    int stick_band;              /* the stick at the last step: 0 still, 1 a walk's, 2 a run's */
    bool ready;
} live_track;

/* The seconds the action's own plan (gait_traverse_info.path) has left from the feet at p: the
 * approach still to walk (across the ground, at the walk's speed: the action's is at least that),
 * then each leg at its row's speed. */
static double live_path_left(const gait_traverse_info *t, gait_vec3 p, double walk_speed) {
    double s = 0;
    gait_vec3 at = p;
    int k = t->path_next;
    if (t->phase == GAIT_TRAVERSE_PHASE_APPROACH) {
        double dx = t->path[0].x - p.x, dz = t->path[0].z - p.z;
        s += sqrt(dx * dx + dz * dz) / walk_speed;
        at = (gait_vec3){t->path[0].x, p.y, t->path[0].z};
        k = 1;
    }
    for (; k < t->path_count && k < 4; k++) {
        double sp = k <= 2 ? t->rise_speed : t->cross_speed;
        double dx = t->path[k].x - at.x, dy = t->path[k].y - at.y, dz = t->path[k].z - at.z;
        s += sqrt(dx * dx + dy * dy + dz * dz) / fmax(sp, 1e-3);
        at = t->path[k];
    }
    return s;
}

/* The seconds a vault's drop behind the obstacle may take: to a floor up to a step below the one
 * the scan saw (traverse_action.c move_drop; seed 414774 landed there 20 ms past a plan that
 * stopped at the scan's floor), or as far as the row lets it fall where the scan saw none. */
static double live_drop_plan(const gait_world *w, const gait_traverse_info *t,
                             const gait_locomotion *n) {
    const gait_traverse_scan *s = &t->scan;
    if (t->kind == GAIT_TRAVERSE_MANTLE_LOW || t->kind == GAIT_TRAVERSE_MANTLE_HIGH || s->thick)
        return 0;
    double drop = s->back_floor ? s->height + 0.05 - s->back_floor_height + n->step_height
                                : s->height + gait_world_traverse_table(w)->max_drop;
    return sqrt(2 * fmax(drop, 0) / n->gravity);
}

/* The slack past the plan: what the action may spend blocked before it gives up (traverse_
 * action.c BLOCKED_END) and a quarter second for the steps' rounding and the settle. */
#define LIVE_TRAVERSE_SLACK (0.2 + 0.25)

/* The seconds the action may still take from the feet at p: its path, its drop and the slack. */
static double live_plan_left(const gait_world *w, const gait_traverse_info *t, gait_vec3 p,
                             const gait_locomotion *n) {
    return live_path_left(t, p, n->walk_speed) + live_drop_plan(w, t, n) + LIVE_TRAVERSE_SLACK;
}

/* Whether a body at feet could go LIVE_WALK_AHEAD m along yaw, sliding along a wall in the way
 * as the body does: its capsule, lifted over a step, swept that way (and along the wall it meets)
 * for at least a tenth of that, meeting nothing more, over walkable ground within a step up or
 * down there. */
static bool live_open_way(const gait_world *w, gait_vec3 feet, double yaw, double radius,
                          double height, const gait_locomotion *n) {
    const gait_collider *col = gait_world_collider_const(w);
    double lift = n->step_height + 0.02, cos_walk = cos(n->max_walk_slope);
    gait_filter none;
    memset(&none, 0, sizeof none);
    /* the lift as the step-up takes it: up to a ceiling over the head (a plate 2 mm over a
     * standing body's head, the ground rising under it: no way on standing, seed 1026429; a cast
     * along the plate from above its underside moved "along" it and read the way free) */
    {
        gait_capsule cap = {{feet.x, feet.y + radius, feet.z},
                            {feet.x, feet.y + height - radius, feet.z}, radius};
        gait_hit hit;
        if (gait_collider_capsule_sweep(col, &cap, (gait_vec3){0, lift, 0}, &none, &hit))
            lift *= hit.fraction;
    }
    gait_vec3 p = {feet.x, feet.y + lift, feet.z};
    gait_vec3 d = {sin(yaw) * LIVE_WALK_AHEAD, 0, cos(yaw) * LIVE_WALK_AHEAD};
    for (int leg = 0; leg < 2; leg++) {
        gait_capsule cap = {{p.x, p.y + radius, p.z}, {p.x, p.y + height - radius, p.z}, radius};
        gait_hit hit;
        if (!gait_collider_capsule_sweep(col, &cap, d, &none, &hit)) {
            p = (gait_vec3){p.x + d.x, p.y, p.z + d.z};
            break;
        }
        /* a walkable slope ahead, a second wall, or a start inside: not a clear case */
        if (leg == 1 || hit.start_solid || hit.normal.y >= cos_walk) return false;
        p = (gait_vec3){p.x + d.x * hit.fraction, p.y, p.z + d.z * hit.fraction};
        double nl = sqrt(hit.normal.x * hit.normal.x + hit.normal.z * hit.normal.z);
        if (nl < 1e-6) return false;
        gait_vec3 nh = {hit.normal.x / nl, 0, hit.normal.z / nl};
        double rest = 1 - hit.fraction, into = (d.x * nh.x + d.z * nh.z) * rest;
        d = (gait_vec3){d.x * rest - nh.x * into, 0, d.z * rest - nh.z * into};
        if (sqrt(d.x * d.x + d.z * d.z) < 0.1 * LIVE_WALK_AHEAD) return false;
    }
    gait_hit hit;
    if (!gait_collider_ray_cast(col, p, (gait_vec3){0, -(lift + n->step_height), 0}, &none, &hit))
        return false;
    return hit.normal.y >= cos_walk;
}

/* Whether walkable terrain a body could stand on (dry, or under water shallow enough to leave
 * the swim in: `wading`) lies within LIVE_SHORE_REACH of p, on rings a metre apart: a
 * drowning's return looks that far ashore, and a world of deep water all round (a sea level
 * over the whole terrain) has no shore to give. */
#define LIVE_SHORE_REACH 32
static bool live_shore_near(gait_world *w, gait_vec3 p, double wading, double cos_walk) {
    const gait_collider *c = gait_world_collider(w);
    for (int ring = 1; ring <= LIVE_SHORE_REACH; ring++)
        for (int i = 0; i < 8 * ring; i++) {
            double a = 2 * M_PI * i / (8 * ring), x = p.x + ring * sin(a), z = p.z + ring * cos(a);
            double h, surface, depth;
            gait_vec3 tn;
            if (!gait_terrain_sample(c, x, z, &h, &tn) || tn.y < cos_walk) continue;
            if (!gait_water_at(c, x, z, &surface, &depth) || surface - h <= wading) return true;
        }
    return false;
}

/* One step of one body (info as gait_character_info_get gave it after the step): NULL when all
 * is well, else the invariant broken ("air_stuck", ...) with what was seen written to msg. */
static const char *live_check(gait_world *w, gait_character_id id, const gait_character_info *info,
                              live_track *lt, char *msg, size_t cap) {
    const gait_locomotion *n = gait_world_locomotion(w, info->body_type);
    double dt = gait_world_step_seconds(w);
    gait_state s = info->phase.state, prev = info->previous_state;
    gait_vec3 p = info->position;
    lt->step++;
    if (!lt->ready) {
        lt->ready = true;
        lt->air_low = p.y;
        lt->walk_at = p;
        lt->walk_yaw = info->yaw;
        lt->flip_a = lt->flip_b = GAIT_STATE_COUNT;
    }
    /* air_stuck */
    if (s == GAIT_STATE_FALL || s == GAIT_STATE_GLIDE || s == GAIT_STATE_PLUNGE) {
        bool same_spell = prev == GAIT_STATE_FALL || prev == GAIT_STATE_GLIDE || prev == GAIT_STATE_PLUNGE;
        if (!same_spell || p.y < lt->air_low - LIVE_AIR_DROP) {
            lt->air_low = p.y;
            lt->air_steps = 0;
        } else if (++lt->air_steps * dt > LIVE_AIR_SECONDS + 1e-9) {
            snprintf(msg, cap, "%s for %.2f s without descending %.2f m (feet %.3f %.3f %.3f, "
                     "%.2f m above the ground)", gait_state_name(s), lt->air_steps * dt,
                     LIVE_AIR_DROP, p.x, p.y, p.z, info->contact.height_above_ground);
            lt->air_low = p.y;
            lt->air_steps = 0;
            return "air_stuck";
        }
    }
    /* traverse_overrun */
    if (s == GAIT_STATE_TRAVERSE) {
        gait_traverse_info t;
        if (gait_character_traverse_info(w, id, &t) == GAIT_OK && t.kind != GAIT_TRAVERSE_NONE) {
            if (prev != GAIT_STATE_TRAVERSE || t.actions != lt->trav_actions) {
                lt->trav_actions = t.actions;
                lt->trav_steps = 0;
                lt->trav_phase = t.phase;
                lt->trav_plan = live_plan_left(w, &t, p, n);
            } else if (lt->trav_phase == GAIT_TRAVERSE_PHASE_APPROACH &&
                       t.phase != GAIT_TRAVERSE_PHASE_APPROACH && isfinite(lt->trav_plan)) {
                /* the approach is over: the rise starts where the feet are (an approach down a
                 * slope leaves the ledge that much higher over them: seed 800637, a high mantle
                 * 2.5 m down a slope, 0.31 m more to climb) */
                lt->trav_phase = t.phase;
                lt->trav_plan = (lt->trav_steps + 1) * dt + live_plan_left(w, &t, p, n);
            }
            double plan = lt->trav_plan;
            if (++lt->trav_steps * dt > plan + 1e-9) {
                snprintf(msg, cap, "%s in phase %d for %.2f s, planned %.2f s (height %.2f, depth "
                         "%.2f, floor behind %d at %.2f; feet %.3f %.3f %.3f)",
                         gait_traverse_kind_name(t.kind), (int)t.phase, lt->trav_steps * dt,
                         plan, t.scan.height, t.scan.depth, t.scan.back_floor,
                         t.scan.back_floor_height, p.x, p.y, p.z);
                lt->trav_plan = INFINITY; /* this action is counted */
                return "traverse_overrun";
            }
        }
    }
    /* drown_deep */
    if (prev == GAIT_STATE_DROWN && s != GAIT_STATE_DROWN) {
        const gait_contact *ct = &info->contact;
        if (ct->water_depth > n->wading_depth && ct->submersion >= n->wading_depth &&
            live_shore_near(w, p, n->wading_depth - n->swim_exit_margin, cos(n->max_walk_slope))) {
            snprintf(msg, cap, "a drowning ended in water %.3f m deep (feet %.3f m under; wading "
                     "depth %.2f) at %.3f %.3f %.3f", ct->water_depth, ct->submersion,
                     n->wading_depth, p.x, p.y, p.z);
            return "drown_deep";
        }
    }
    /* stuck_walker: walk, run and sprint move along the facing (body.c turns the body to the move) */
    bool walking = s == GAIT_STATE_WALK || s == GAIT_STATE_RUN || s == GAIT_STATE_SPRINT;
    double turn = fabs(remainder(info->yaw - lt->walk_yaw, 2 * M_PI));
    double dx = p.x - lt->walk_at.x, dy = p.y - lt->walk_at.y, dz = p.z - lt->walk_at.z;
    if (!walking || prev != s || turn > 0.1 || sqrt(dx * dx + dy * dy + dz * dz) > LIVE_WALK_MOVE) {
        lt->walk_at = p;
        lt->walk_yaw = info->yaw;
        lt->walk_steps = 0;
    } else if (++lt->walk_steps * dt > LIVE_WALK_SECONDS + 1e-9) {
        int steps = lt->walk_steps;
        lt->walk_at = p; /* boxed in, or counted: look again after another second */
        lt->walk_steps = 0;
        if (live_open_way(w, p, info->yaw, n->capsule_radius, n->capsule_height, n)) {
            snprintf(msg, cap, "%s for %.2f s without moving %.2f m, with %.1f m free ahead (feet "
                     "%.3f %.3f %.3f, yaw %.3f)", gait_state_name(s), steps * dt, LIVE_WALK_MOVE,
                     LIVE_WALK_AHEAD, p.x, p.y, p.z, info->yaw);
            return "stuck_walker";
        }
    }
    /* flicker: changes the step's presses did not ask for (a tapped sprint in water is a one-step
     * swim dash, tap after tap: the player's doing), nor the stick: a stick tapped and let go
     * frame after frame is run <-> idle, tap after tap, as the player asks */
    gait_input in;
    int band = lt->stick_band;
    if (gait_character_input(w, id, &in) == GAIT_OK) {
        double stick = sqrt(in.move_x * in.move_x + in.move_y * in.move_y);
        band = stick <= n->move_epsilon ? 0 : stick < n->walk_stick_threshold ? 1 : 2;
    }
    bool stick_moved = band != lt->stick_band;
    lt->stick_band = band;
    if (prev != s && (info->presses_read || stick_moved)) lt->flips = 0;
    else if (prev != s) {
        bool back = (prev == lt->flip_b && s == lt->flip_a) || (prev == lt->flip_a && s == lt->flip_b);
        lt->flips = back ? lt->flips + 1 : 1;
        lt->flip_a = prev;
        lt->flip_b = s;
        lt->flip_step[lt->flips % LIVE_FLIPS] = lt->step;
        int oldest = lt->flip_step[(lt->flips + 1) % LIVE_FLIPS];
        if (lt->flips >= LIVE_FLIPS && (lt->step - oldest) * dt <= LIVE_FLIP_SECONDS + 1e-9) {
            snprintf(msg, cap, "%s <-> %s %d times in %.2f s (feet %.3f %.3f %.3f)",
                     gait_state_name(prev), gait_state_name(s), LIVE_FLIPS,
                     (lt->step - oldest) * dt, p.x, p.y, p.z);
            lt->flips = 0;
            return "flicker";
        }
    }
    return NULL;
}

#endif
