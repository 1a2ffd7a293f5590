/* The body (docs/behaviour.md, "The body"): turns a locomotion state into a move through the
 * mover (gait/mover.h), adding what only a character does — walking at the state's speed, the
 * jump, air steering under gravity, the glider, the plunge, climbing landmark walls and terrain
 * cliffs, swimming — then the mover's settle pass, its own memory, and the contact (the sense
 * stage's gait__sense_contact).
 *
 * One function a family of states (on foot, in the air, on a wall, in water), each filling a
 * body_move; gait__body_move runs the one for the state and ends the move the same way for all.
 *
 * Determinism: doubles only, a fixed number of queries; the same inputs give the same bits. A
 * step allocates nothing. */
#include "body.h"

#include <math.h>
#include <string.h>

#include "character.h"
#include "core/vec.h"
#include "crowd.h"
#include "crouch.h"
#include "collide/collide_layout.h"
#include "layouts.h"
#include "mover_internal.h"
#include "sense.h"

#define CLIMB_PRESS 0.05       /* m a climbing body is pressed into a landmark wall each step */
#define CLIMB_LOOK 0.02        /* m past the press a climb looks for its wall beside a floor */
#define CLIMB_OVERHANG 0.25    /* m an overhang may stick out and still be climbed round (a
                                  ledge band, a lintel; a balcony, an eave stop the climb) */
#define CLIMB_OUT_CLEAR 0.01   /* m the lean out may go past it */
#define CLIMB_OUT_HALVINGS 6   /* the lean's distance halved to 0.26 / 64, 4 mm */
#define OVER_TOP_REACH 0.1     /* m past the radius a body that lost its wall looks over the edge */
#define OVER_TOP_ROOM 0.1      /* m on from the top a face over the step height keeps the climb */
#define OVER_TOP_DROP 0.1      /* m below the step height it looks down there for a floor */
#define ON_TERRAIN_EPS 1e-6    /* m: feet this close above the terrain at a wall's foot are on it */
#define CLIFF_TOP_RISE 1e-3    /* m a climb must rise to be over a cliff's top */
#define OVER_TOP_SLACK 1e-3    /* m short of a cliff's top a slide there may end (grazing a wall
                                  beside the way) and the climb still be over it */
#define STAND_SLOPE_MAX 1.5    /* rad: a standing body's limit with its hysteresis stays a slope */
#define PROJECT_ITERS 4        /* steps onto the terrain's local plane (converges in 2-3) */
#define AHEAD_COS 0.5          /* a wall is "ahead" when the move points within 60 deg into it */
#define AHEAD_KEEP 0.5         /* ... and, on foot, stops it: the stick's share along the wall,
                                  or the speed the body kept, under this (sin 30 deg) */
#define WALL_PROBE 0.1         /* m an airborne body looks ahead for a wall to catch */
#define WATER_FLOOR_EPS 1e-9   /* m: feet this close over the water's surface stand on it */
#define ASHORE_RINGS 32        /* rings a drowned body's return looks for ground in ... */
#define ASHORE_SPACING 1.0     /* ... m apart */
#define ASHORE_DROP 1000.0     /* m a look down for ground reaches where there is no terrain */
#define SOLID_PROBE 1000.0     /* m the rays that tell a body inside closed geometry reach */
#define SOLID_MARGIN 0.01      /* m beyond the face a body moved out of geometry is put */
#define SPOT_RINGS 12          /* rings a body put in a landmark looks for a free place in ... */
#define SPOT_SPACING 0.25      /* ... m apart */
#define PLACE_CLEAR 0.25       /* m: no landmark this near a placement's reach, and the
                                  terrain alone places the body (place_clear) */
#define MOVER_PLACE_LIFT 0.05  /* m: the least a placement rises before its cast down (the
                                  mover's PLACE_LIFT; the larger of it and the step is used) */
#define NEAR_MOVING 0.05       /* m: a moving landmark this near the capsule may have moved into
                                  it: the move pushes out */
#define CRUSH_DEPTH 0.01       /* m still inside a moving landmark after the push-out: crushed
                                  (the mover's refusal depth) */

static const gait_vec3 UP = {0, 1, 0};

static gait_vec3 horizontal(gait_vec3 v) { return v3(v.x, 0, v.z); }

static double state_speed(const gait_locomotion *n, gait_state s) {
    switch (s) {
    case GAIT_STATE_WALK: return n->walk_speed;
    case GAIT_STATE_RUN: return n->run_speed;
    case GAIT_STATE_DASH: return n->dash_speed;
    case GAIT_STATE_SPRINT: return n->sprint_speed;
    case GAIT_STATE_CROUCH: return n->crouch_speed;
    default: return 0;
    }
}

/* The capsule for this state: crouched, or falling crouched (crouch.c), else standing. */
static void body_mover(const gait_collider *col, const gait__character *ch,
                       const gait_locomotion *num, gait_mover *m) {
    double height = gait__crouch_capsule_height(&ch->crouch, ch->phase.state, num);
    gait_mover_init(m, col, num->capsule_radius, height, num->step_height, num->max_walk_slope);
}

/* The body's memory of what its move stood on and touched. */
static void remember(gait__body *b, const gait_move_result *r) {
    static const gait_landmark_id none = GAIT_NULL_ID_INIT;
    b->on_ground = r->grounded;
    b->ground_normal = r->grounded ? r->ground_normal : UP;
    b->ground_lm = r->grounded ? r->ground_landmark : none;
    if (r->grounded) b->inherit = v3(0, 0, 0); /* landed: no platform's velocity to keep */
    if (r->wall) {
        b->wall_normal = r->wall_normal;
        b->on_terrain_wall = r->wall_terrain;
        b->wall_lm = r->wall_landmark;
    }
}

/* Whether the wall met lies ahead of `look` (within 60 deg). */
static bool ahead(gait_vec3 look, gait_vec3 wall_normal) {
    return v3_dot(look, v3_norm(horizontal(v3_neg(wall_normal)))) > AHEAD_COS;
}

double gait__body_fall(double vy0, const gait_locomotion *n, double dt, double *vy1_out) {
    /* gravity integrated exactly over the step (mean of the velocities at its ends), so a jump's
     * apex reaches its height at any step size; both ends capped at the terminal speed */
    double vy1 = vy0 - n->gravity * dt;
    if (vy1 < -n->max_fall_speed) vy1 = -n->max_fall_speed;
    if (vy0 < -n->max_fall_speed) vy0 = -n->max_fall_speed;
    *vy1_out = vy1;
    return 0.5 * (vy0 + vy1);
}

void gait__body_hand_over(gait__body *b, bool grounded, gait_vec3 ground_normal, gait_vec3 vel) {
    b->vel = vel;
    b->on_ground = grounded;
    b->ground_normal = grounded ? ground_normal : UP;
    b->launch_speed = sqrt(vel.x * vel.x + vel.z * vel.z);
}

/* Whether no landmark (static or moving, at its pose now) lies within PLACE_CLEAR of a body of
 * these numbers put at feet: of its capsule (standing or crouched) anywhere from the terrain under
 * it up to a step's lift and its height over the higher of the two. Every query of a placement
 * (gait_mover_place's lift, cast down, push-out and ground snap; the contact's probe down to the
 * terrain; the low-ceiling check; stands_free) reaches at most SUPPORT_MARGIN (3 cm) past that
 * capsule, so when this holds each of them meets no landmark and the terrain alone decides. No
 * terrain under the feet (a cast down of up to 1 km), or an answer the query could not give: not
 * clear. One overlap of a capsule the placement's reach plus PLACE_CLEAR thick answers. */
static bool place_clear(const gait_collider *col, const gait_locomotion *n, gait_vec3 feet) {
    double h;
    if (!gait_terrain_sample(col, feet.x, feet.z, &h, NULL) || !isfinite(h)) return false;
    double lift = n->step_height > MOVER_PLACE_LIFT ? n->step_height : MOVER_PLACE_LIFT;
    double top = fmax(n->capsule_height, n->crouch_height);
    double r = n->capsule_radius + PLACE_CLEAR;
    gait_capsule c;
    c.a = v3(feet.x, fmin(feet.y, h) - PLACE_CLEAR + r, feet.z);
    c.b = v3(feet.x, fmax(feet.y, h) + lift + top + PLACE_CLEAR - r, feet.z);
    if (c.b.y < c.a.y) c.b.y = c.a.y;
    c.radius = r;
    gait_filter f;
    memset(&f, 0, sizeof f);
    f.skip_terrain = true;
    gait_contact_point cp;
    return gait_collider_capsule_overlap(col, &c, &f, &cp, 1, NULL) == 0;
}

void gait__body_place_known(const gait_collider *col, gait__character *ch,
                            const gait_locomotion *num, bool clear) {
    gait_mover m;
    body_mover(col, ch, num, &m);
    /* nothing near (place_clear): the same queries, skipping the landmarks they would not meet */
    m.filter.skip_landmarks = clear;
    gait__body *b = &ch->body;
    memset(b, 0, sizeof *b);
    b->ground_normal = UP;
    b->wall_normal = v3(0, 0, -1);
    gait_move_result r;
    gait_vec3 p = ch->position;
    gait_mover_place(&m, &p, &r);
    ch->position = p;
    ch->velocity = v3(0, 0, 0);
    remember(b, &r);
    gait__sense_contact(ch, &m, &r, false, false, GAIT__PROBE_TO_TERRAIN);
    /* put on foot where only the crouched capsule fits (under a low ceiling: a spawn, a place,
     * a drowning's return to where it last stood crouched): it crouches there, and the stand-up
     * check keeps it crouched until there is room, as for a body that crouched by the switch.
     * The terrain is a ceiling too (a steep bank over the head): clear skips the landmarks only */
    if (gait_state_on_foot(ch->phase.state) && ch->phase.state != GAIT_STATE_CROUCH) {
        gait_filter f;
        memset(&f, 0, sizeof f);
        f.skip_landmarks = clear;
        if (!gait_crouch_room_to_stand(col, ch->position, num->capsule_radius, num->crouch_height,
                                       num->capsule_height, &f))
            ch->phase.state = GAIT_STATE_CROUCH;
    }
}

void gait__body_place(const gait_collider *col, gait__character *ch, const gait_locomotion *num) {
    gait__body_place_known(col, ch, num, place_clear(col, num, ch->position));
}

/* Whether the capsule of height h with its middle at c is inside closed geometry; *exits the
 * rays' hits along the six axes (+x, -x, +y, -y, +z, -z). */
static bool enclosed(const gait_collider *col, gait_vec3 c, const gait_filter *f, gait_hit *exits) {
    static const gait_vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int i = 0; i < 6; i++)
        if (!gait_collider_ray_cast(col, c, v3_scale(axes[i], SOLID_PROBE), f, &exits[i]) ||
            !exits[i].back)
            return false;
    return true;
}

/* Whether a body put at p and stood on the ground below it lies in no landmark, crouched: a body
 * may be put where only its crouched capsule fits (under a low ceiling), and crouches there. */
static bool stands_free(const gait_collider *col, const gait_locomotion *n, gait_vec3 p) {
    gait_mover m;
    gait_mover_init(&m, col, n->capsule_radius, n->crouch_height, n->step_height, n->max_walk_slope);
    gait_move_result r;
    gait_mover_place(&m, &p, &r);
    return gait__mover_free(&m, p);
}

static bool out_of_solid(const gait_collider *col, gait_vec3 *feet, const gait_locomotion *n) {
    double r = n->capsule_radius, h = n->capsule_height;
    gait_filter f;
    memset(&f, 0, sizeof f);
    f.skip_terrain = true;
    gait_vec3 c = v3(feet->x, feet->y + 0.5 * h, feet->z);
    gait_hit ex[6];
    if (!enclosed(col, c, &f, ex)) return true;
    /* the ways out, nearest first: each moves the feet clear of the face its ray met */
    gait_vec3 way[6];
    double dist[6];
    int order[6];
    for (int i = 0; i < 6; i++) {
        gait_vec3 p = ex[i].point;
        if (i == 2) way[i] = v3(feet->x, p.y + SOLID_MARGIN, feet->z);          /* onto the top */
        else if (i == 3) way[i] = v3(feet->x, p.y - h - SOLID_MARGIN, feet->z); /* under it */
        else way[i] = v3(p.x + (i == 0 ? 1 : i == 1 ? -1 : 0) * (r + SOLID_MARGIN), feet->y,
                         p.z + (i == 4 ? 1 : i == 5 ? -1 : 0) * (r + SOLID_MARGIN));
        dist[i] = v3_len(v3_sub(way[i], *feet));
        order[i] = i;
    }
    for (int i = 1; i < 6; i++) /* insertion sort: ties keep the axes' order */
        for (int k = i; k > 0 && dist[order[k]] < dist[order[k - 1]]; k--) {
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    for (int i = 0; i < 6; i++) {
        gait_vec3 p = way[order[i]];
        double th;
        if (gait_terrain_sample(col, p.x, p.z, &th, NULL) && p.y < th) continue; /* in the ground */
        gait_capsule cap = gait__upright_capsule(p, r, h);
        gait_contact_point cp;
        gait_hit again[6];
        if (gait_collider_capsule_overlap(col, &cap, &f, &cp, 1, NULL) != 0 ||
            enclosed(col, v3(p.x, p.y + 0.5 * h, p.z), &f, again))
            continue;
        *feet = p;
        return true;
    }
    return false;
}

bool gait__body_spot_ex(const gait_collider *col, const gait_locomotion *n, gait_vec3 *feet,
                        bool fast, bool *clear) {
    gait_vec3 p = *feet;
    if (clear) *clear = false;
    if (!out_of_solid(col, &p, n)) return false;
    /* nothing near: the crouched capsule stood on the terrain meets no landmark (stands_free
     * holds without its placement), and the body's placement may skip the landmarks */
    if (fast && place_clear(col, n, p)) {
        *feet = p;
        if (clear) *clear = true;
        return true;
    }
    if (stands_free(col, n, p)) {
        *feet = p;
        return true;
    }
    for (int ring = 1; ring <= SPOT_RINGS; ring++) {
        double d = ring * SPOT_SPACING;
        for (int i = -1; i < 8; i++) { /* above first, then around */
            double a = 2 * M_PI * i / 8;
            gait_vec3 q = i < 0 ? v3(p.x, p.y + d, p.z) : v3(p.x + d * sin(a), p.y, p.z + d * cos(a));
            if (stands_free(col, n, q)) {
                *feet = q;
                return true;
            }
        }
    }
    return false;
}

bool gait__body_spot(const gait_collider *col, const gait_locomotion *n, gait_vec3 *feet, bool *clear) {
    return gait__body_spot_ex(col, n, feet, true, clear);
}

bool gait__body_can_wade(const gait_contact *c, const gait_locomotion *n) {
    return c->water_depth <= n->wading_depth - n->swim_exit_margin;
}

/* The ground at (x, z) below `top`: the first surface a ray down meets (a landmark or the
 * terrain), if walkable, with the water over it shallow enough to stand in. */
static bool shore_at(const gait_mover *m, double x, double z, double top,
                     const gait_locomotion *n, double *ground) {
    double h, surface, depth;
    gait_vec3 tn;
    bool has_t = gait__mover_terrain(m, x, z, &h, &tn);
    gait_filter f = m->filter;
    f.skip_terrain = false;
    gait_hit hit;
    /* from over the terrain there too: a bank rising higher than the body's head over the water
     * is ground as well (missed, a drowned body with such a shore 10 m off was sent back into
     * water 1.6 m deep: the liveness fuzzer, seed 224945) */
    if (has_t && h + n->capsule_height > top) top = h + n->capsule_height;
    double reach = has_t ? top - h + 1 : ASHORE_DROP;
    if (reach <= 0 || !gait_collider_ray_cast(m->collider, v3(x, top, z), v3(0, -reach, 0), &f, &hit) ||
        !gait__mover_is_floor(m, hit.normal))
        return false;
    *ground = hit.point.y;
    if (!gait_water_at(m->collider, x, z, &surface, &depth)) return true; /* dry */
    return surface - hit.point.y <= n->wading_depth - n->swim_exit_margin;
}

/* Whether a placed body's capsule (crouched if it crouches there) lies in no landmark: it
 * touches none, and is not wholly inside one (a closed block the ray down started in, its
 * bottom face met from inside as a floor, holds a capsule touching no face). */
static bool placed_free(const gait_collider *col, const gait__character *ch,
                        const gait_locomotion *n) {
    gait_mover m;
    double h = ch->phase.state == GAIT_STATE_CROUCH ? n->crouch_height : n->capsule_height;
    gait_mover_init(&m, col, n->capsule_radius, h, n->step_height, n->max_walk_slope);
    if (!gait__mover_free(&m, ch->position)) return false;
    gait_filter f;
    memset(&f, 0, sizeof f);
    f.skip_terrain = true;
    gait_hit ex[6];
    gait_vec3 p = ch->position;
    return !enclosed(col, v3(p.x, p.y + 0.5 * h, p.z), &f, ex);
}

void gait__body_place_ashore(const gait_collider *col, gait__character *ch,
                             const gait_locomotion *num) {
    gait_mover m;
    body_mover(col, ch, num, &m);
    gait_vec3 o = ch->position;
    double surface, depth, top = o.y;
    if (gait_water_at(col, o.x, o.z, &surface, &depth) && surface > top) top = surface;
    top += num->capsule_height;
    for (int ring = 1; ring <= ASHORE_RINGS; ring++) {
        int points = 8 * ring; /* about 0.8 m apart around the ring */
        for (int i = 0; i < points; i++) {
            double a = 2 * M_PI * i / points, ground;
            double x = o.x + ring * ASHORE_SPACING * sin(a), z = o.z + ring * ASHORE_SPACING * cos(a);
            if (!shore_at(&m, x, z, top, num, &ground) || !stands_free(col, num, v3(x, ground, z)))
                continue;
            ch->position = v3(x, ground, z);
            gait__body_place(col, ch, num);
            /* the ray's floor may be one the capsule does not stand on (a ledge narrower than
             * the body, a platform's rim at the water line): placed, it went down past it into
             * deeper water, or beside a wall its standing cast met. Only ground the body ends
             * on, its capsule (crouched under a low ceiling) in no landmark, counts. */
            if (gait__body_can_wade(&ch->contact, num) && placed_free(col, ch, num)) return;
        }
    }
    /* none within the rings: back where it was sent, as before the look */
    ch->position = o;
    gait__body_place(col, ch, num);
}

/* A landmark wall: move in its plane, pressed into it so the wall is met again each step.
 * When it is met no more, the body is past an edge: over the top onto walkable ground, or off. */
/* How far out from the wall (m, along its horizontal normal nh) a body climbing up at feet,
 * its head under an overhang (a ledge band, a lintel), must lean for the way `up` to be free:
 * the least out distance up to CLIMB_OVERHANG + CLIMB_OUT_CLEAR, halved to a few mm; 0 when
 * the way up is free already or an overhang deeper than that is in the way. *blocked: whether
 * the way up met anything (its first cast), which the climb asks next when there is no lean. */
static double overhang_out(const gait_mover *m, gait_vec3 feet, gait_vec3 nh, gait_vec3 up,
                           bool *blocked) {
    gait_hit hit;
    *blocked = gait__mover_sweep(m, feet, up, &hit);
    if (!*blocked || hit.normal.y >= 0) return 0; /* up is free, or met by no overhang */
    gait_landmark_id over_lm = hit.landmark; /* what the head met */
    int over_tri = hit.triangle;
    /* out from the wall by as far as the deepest overhang it goes round, less how far out the
     * body leans already */
    double far = CLIMB_OVERHANG + CLIMB_OUT_CLEAR;
    /* the wall below the overhang, level with the bottom sphere's centre */
    gait_vec3 c = v3(feet.x, feet.y + m->radius, feet.z);
    gait_filter f = m->filter;
    if (!gait__query_ray(m->collider, m->gather, c, v3_scale(nh, -(m->radius + far)), &f, &hit))
        return 0;
    far -= hit.distance - m->radius;
    if (far <= 0) return 0;
    gait_vec3 out = v3_scale(nh, far);
    /* leaned out far enough when the head rises past the overhang's edge: by the radius */
    gait_vec3 past = v3(0, m->radius + CLIMB_OUT_CLEAR, 0);
    /* a roof that goes on out past the lean by itself, the face the head met (most of a climb
     * pushed up under a ceiling): the rise there is met, whatever else is, so the answer is 0
     * without the two casts below (either of which meeting something gives 0) */
    gait_capsule leaned = gait__upright_capsule(v3_add(feet, out), m->radius, m->height);
    if (gait__gather_sweep_meets(m->gather, m->collider, over_lm, over_tri, &leaned, past))
        return 0;
    if (gait__mover_sweep(m, feet, out, &hit)) return 0;          /* no room to lean out */
    if (gait__mover_sweep(m, v3_add(feet, out), past, &hit)) return 0; /* deeper than that */
    double lo = 0, hi = far;
    for (int i = 0; i < CLIMB_OUT_HALVINGS; i++) {
        double mid = 0.5 * (lo + hi);
        if (gait__mover_sweep(m, v3_mad(feet, nh, mid), past, &hit)) lo = mid;
        else hi = mid;
    }
    return hi;
}

/* Whether a face too steep to stand on and taller than the step stands within OVER_TOP_ROOM
 * before the capsule at feet q, along fwd: a ray from the axis just over the step height meets
 * it. Put on such a top, the body ran one step into the face and climbed again: run <-> climb
 * on every riser of a flight too tall to step (the liveness fuzzer, seed 1060019). */
static bool wall_past_top(const gait_mover *m, gait_vec3 q, gait_vec3 fwd, gait_hit *hit) {
    gait_vec3 o = v3(q.x, q.y + m->step_height + GAIT__STEP_RAY_LIFT, q.z);
    return gait__query_ray(m->collider, m->gather, o, v3_scale(fwd, m->radius + OVER_TOP_ROOM),
                           &m->filter, hit) &&
           !gait__mover_is_floor(m, hit->normal) && !gait__mover_is_ceiling(hit->normal);
}

/* Whether a slide met a surface facing down (the underside of something over the body). */
static bool met_from_above(const gait__slide_info *si) {
    for (int k = 0; k < si->np; k++)
        if (si->planes[k].y < 0) return true;
    return false;
}

/* ---- a climb held still: the last step's answer (gait__climb_memo) ---------------------- */

static bool same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

/* m round the feet every query of a climb step lies within: the press, then the look over the
 * top and down there, and the lean round an overhang (each chain of its moves, added up) */
static double held_reach(const gait_mover *m, gait_vec3 v, double dt) {
    return v3_len(v) * dt + CLIMB_PRESS + CLIMB_LOOK + m->radius + OVER_TOP_REACH + m->step_height +
           OVER_TOP_DROP + CLIMB_OVERHANG + 2 * CLIMB_OUT_CLEAR;
}

static bool same_bound(const gait__bound *a, const gait__bound *b) {
    return same_bits(&a->normal, &b->normal, sizeof a->normal) &&
           same_bits(&a->offset, &b->offset, sizeof a->offset) && a->slot == b->slot &&
           a->still == b->still;
}


/* The other characters' half-spaces within the step's reach (into bounds: their count), or -1:
 * a moving landmark there (it moves every step), or more of them than the memo keeps. */
static int near_now(const gait_mover *m, gait_vec3 feet, gait_vec3 v, double dt, gait__bound *bounds) {
    double reach = held_reach(m, v, dt), R = reach + m->height;
    if (gait_collider_moving_near(m->collider, v3(feet.x - R, feet.y - R, feet.z - R),
                                  v3(feet.x + R, feet.y + R, feet.z + R)))
        return -1;
    if (!m->bodies) return 0;
    return gait__bodies_within(m->bodies, feet, reach, m->radius, m->height, bounds, GAIT__HELD_BODIES);
}

/* Whether the held step's answer stands for this one: the same question, the static landmarks
 * as they were, no moving landmark near, and the same other characters' half-spaces near. */
static bool held_here(const gait__climb_memo *h, const gait_mover *m, gait_vec3 feet, gait_vec3 v,
                      double dt, gait_vec3 n) {
    if (!gait__held_same(&h->ask, m, feet, v, n, dt)) return false;
    gait__bound bounds[GAIT__HELD_BODIES];
    int nb = near_now(m, feet, v, dt, bounds);
    if (nb != h->nbounds) return false;
    for (int k = 0; k < nb; k++)
        if (!same_bound(&bounds[k], &h->bounds[k])) return false;
    return true;
}

static void hold(gait__climb_memo *h, const gait_mover *m, gait_vec3 feet, gait_vec3 v, double dt,
                 gait_vec3 n, const gait_move_result *r, bool over_top) {
    h->nbounds = near_now(m, feet, v, dt, h->bounds);
    h->ask.valid = false;
    if (h->nbounds < 0) return;
    gait__held_keep(&h->ask, m, feet, v, n, dt, r);
    h->over_top = over_top;
}

static gait_vec3 climb_landmark_asked(const gait_mover *m, gait_vec3 feet, gait_vec3 v, double dt,
                                      gait_vec3 n, gait_move_result *r, bool *over_top);

/* A climb step on a landmark wall (r cleared): the held step's answer where it stands, else
 * asked, and kept when it holds the body still. */
static gait_vec3 climb_landmark(gait__climb_memo *held, const gait_mover *m, gait_vec3 feet,
                                gait_vec3 v, double dt, gait_vec3 n, gait_move_result *r,
                                bool *over_top) {
    if (held_here(held, m, feet, v, dt, n)) {
        *r = held->ask.result;
        *over_top = held->over_top;
        return feet;
    }
    gait_vec3 p = climb_landmark_asked(m, feet, v, dt, n, r, over_top);
    if (same_bits(&p, &feet, sizeof p)) hold(held, m, feet, v, dt, n, r, *over_top);
    else held->ask.valid = false;
    return p;
}

static gait_vec3 climb_landmark_asked(const gait_mover *m, gait_vec3 feet, gait_vec3 v, double dt,
                                      gait_vec3 n, gait_move_result *r, bool *over_top) {
    gait_vec3 delta = v3_mad(v3_scale(v, dt), n, -CLIMB_PRESS);
    gait__slide_info si;
    gait_vec3 p = gait__mover_slide(m, feet, delta, false, false, &si);
    gait_vec3 nh = v3_norm(horizontal(n));
    if (v.y > 0 && v3_len2(nh) > 0.5 && met_from_above(&si) && p.y - feet.y < 0.5 * v.y * dt) {
        /* the head under an overhang no deeper than CLIMB_OVERHANG: lean out round it (at the
         * climb's speed, holding the wall), then rise past its edge without pressing back under
         * it; up its face, over its top the wall goes on just past the edge, and the climb goes
         * on onto it (below) */
        gait_vec3 up = v3(0, v.y * dt, 0);
        bool blocked;
        double d = overhang_out(m, feet, nh, up, &blocked);
        if (d > 0) {
            gait__slide_info so;
            p = gait__mover_slide(m, feet, v3_scale(nh, fmin(d, v3_len(v) * dt)), true, false, &so);
            r->wall = true;
            r->wall_normal = n;
            return p;
        }
        if (!blocked) { /* (overhang_out's first cast, the same question) */
            p = v3_add(feet, up); /* the way up is free: the press drove the head under the edge */
            r->wall = true;
            r->wall_normal = n;
            return p;
        }
    }
    if (si.floor) {
        r->grounded = true;
        r->ground_normal = si.floor_n;
        r->ground_landmark = si.floor_lm;
    }
    /* climbing down onto the terrain at the wall's foot: the height function is the floor */
    double h;
    gait_vec3 tn;
    if (gait__mover_terrain(m, p.x, p.z, &h, &tn) && p.y <= h + ON_TERRAIN_EPS) {
        p.y = h;
        if (gait__mover_is_floor(m, tn)) {
            r->grounded = true;
            r->ground_normal = tn;
            r->ground_landmark.index1 = 0;
            r->ground_landmark.generation = 0;
        }
    }
    if (si.wall) {
        r->wall = true;
        r->wall_normal = si.wall_n;
        r->wall_landmark = si.wall_lm;
        return p;
    }
    if (si.floor) {
        /* the press met a floor at the wall's foot instead of the wall (a slope just too steep
         * to walk, rising from a walkable one): a short look into the wall along that floor, as
         * a walk meets it, says whether the body is still on it, so the climb does not end and
         * start again every other step */
        gait_vec3 into = v3_norm(horizontal(v3_neg(n))), fn = si.floor_n;
        into.y = -(fn.x * into.x + fn.z * into.z) / fn.y;
        gait_hit hit;
        if (v3_len2(into) > 0.5 &&
            gait__mover_sweep(m, p, v3_scale(v3_norm(into), CLIMB_PRESS + CLIMB_LOOK), &hit) &&
            !gait__mover_is_floor(m, hit.normal) && !gait__mover_is_ceiling(hit.normal)) {
            r->wall = true;
            r->wall_normal = hit.normal;
            return p;
        }
    }
    /* no wall met: over the top? A short move over the edge, then a look down for a floor. */
    gait_vec3 fwd = v3_norm(horizontal(v3_neg(n)));
    gait__slide_info s2;
    gait_vec3 q = gait__mover_slide(m, p, v3_scale(fwd, m->radius + OVER_TOP_REACH), true, false, &s2);
    if (s2.wall) {
        /* a wall again just past the edge: the wall bends (another face of a rough slope, a
         * ledge with the wall going on above it), it does not end: climb on, onto the new face */
        r->wall = true;
        r->wall_normal = s2.wall_n;
        return p;
    }
    gait_hit hit;
    double reach = m->step_height + OVER_TOP_DROP;
    if (v.y > 0 && gait__mover_sweep(m, q, v3(0, -reach, 0), &hit) && !hit.start_solid &&
        gait__mover_is_floor(m, hit.normal)) {
        q.y -= reach * hit.fraction;
        gait_hit wall;
        if (wall_past_top(m, q, fwd, &wall)) {
            /* a top with no room for a step before the next face over the step height (a
             * flight of risers too tall to step): the climb goes on up it, as over a band */
            r->wall = true;
            r->wall_normal = wall.normal;
            return p;
        }
        *over_top = true;
        r->grounded = true;
        r->ground_normal = hit.normal;
        r->ground_landmark = hit.landmark;
        return q;
    }
    return p;
}

/* Terrain height and normal at (x, z), with flat ground as the answer off the terrain. */
static gait_vec3 project_terrain(const gait_mover *m, gait_vec3 p, gait_vec3 *n_out) {
    gait_vec3 n = UP;
    for (int i = 0; i < PROJECT_ITERS; i++) {
        double h;
        if (!gait__mover_terrain(m, p.x, p.z, &h, &n)) break;
        /* signed distance to the local plane is (y - h) * n.y: step along the normal */
        double dist = (p.y - h) * n.y;
        p = v3_mad(p, n, -dist);
    }
    *n_out = n;
    return p;
}

/* Whether the capsule at feet gets to `to` in a straight line, sliding along what it meets:
 * to it exactly meeting nothing, or within OVER_TOP_SLACK sliding (*to is then where it got). */
static bool way_clear(const gait_mover *m, gait_vec3 feet, gait_vec3 *to) {
    gait__slide_info si;
    gait_vec3 q = gait__mover_slide(m, feet, v3_sub(*to, feet), false, false, &si);
    if (si.hits == 0) return true;
    if (si.solid || v3_len(v3_sub(q, *to)) > OVER_TOP_SLACK) return false;
    *to = q;
    return true;
}

/* A terrain cliff: the lower sphere's touch point moves in the cliff's plane and is held to the
 * surface through the height function; the sphere rests on it. */
static gait_vec3 climb_terrain(const gait_mover *m, gait_vec3 feet, gait_vec3 v, double dt,
                               gait_vec3 n, gait_move_result *r, bool *over_top) {
    gait_vec3 c = v3(feet.x, feet.y + m->radius, feet.z);
    gait_vec3 n0;
    gait_vec3 p0 = project_terrain(m, v3_mad(c, n, -m->radius), &n0);
    if (gait__mover_is_floor(m, n0)) n0 = n;
    gait_vec3 n1;
    gait_vec3 p1 = project_terrain(m, v3_mad(p0, v, dt), &n1);
    if (gait__mover_is_floor(m, n1)) {
        double h;
        gait_vec3 tn = UP; /* off the terrain's edge gait__mover_terrain writes nothing */
        if (!gait__mover_terrain(m, p1.x, p1.z, &h, &tn)) h = p1.y;
        /* past the cliff's top onto walkable ground, where the landmarks let the body get
         * there: a fence or a block standing over the top stops the move, and the body climbs
         * on, held to the face (put over the top through it, the push-out left it hovering
         * beside it, and the walk dropped it back to the cliff's foot every other step) */
        gait_vec3 top = v3(p1.x, h, p1.z);
        if (v.y > 0 && p1.y > feet.y + CLIFF_TOP_RISE && way_clear(m, feet, &top)) {
            *over_top = true;
            r->grounded = true;
            r->ground_normal = tn;
            return top;
        }
        if (v.y < 0) {
            r->grounded = true; /* down onto the walkable ground at the cliff's foot */
            r->ground_normal = tn;
        }
        n1 = n0;
    }
    r->wall = true;
    r->wall_terrain = true;
    r->wall_normal = n1;
    gait_vec3 c1 = v3_mad(p1, n1, m->radius);
    /* at a cliff's foot the sphere on the face would put the feet under the ground below */
    gait_vec3 target = gait__mover_above_terrain(m, v3(c1.x, c1.y - m->radius, c1.z));
    /* landmarks still stop the body on a cliff */
    gait__slide_info si;
    return gait__mover_slide(m, feet, v3_sub(target, feet), false, false, &si);
}

/* ---- moving landmarks: carried on one, leaving one -------------------------------------------- */

/* v turned by the unit quaternion q (x, y, z, w): v + 2w (u x v) + 2 u x (u x v). */
static gait_vec3 quat_turn(const double q[4], gait_vec3 v) {
    gait_vec3 u = v3(q[0], q[1], q[2]);
    gait_vec3 t = v3_scale(v3_cross(u, v), 2);
    return v3_add(v3_add(v, v3_scale(t, q[3])), v3_cross(u, t));
}

void gait__body_carry(const gait_collider *col, gait_gather *gather, gait_mover_bodies *bodies,
                      gait__character *ch, const gait_locomotion *num, double dt,
                      gait__carry *carry) {
    memset(carry, 0, sizeof *carry);
    gait__body *b = &ch->body;
    gait_state s = ch->phase.state;
    gait_landmark_id lm = GAIT_NULL_ID_INIT;
    if (gait_state_on_wall(s) && !b->on_terrain_wall && gait_collider_landmark_moving(col, b->wall_lm))
        lm = b->wall_lm; /* climbing it */
    else if (b->on_ground && gait_collider_landmark_moving(col, b->ground_lm))
        lm = b->ground_lm; /* standing on it */
    if (!lm.index1 || !(dt > 0)) return;
    gait_vec3 after;
    double turn[4];
    if (gait_collider_landmark_carry(col, lm, ch->position, &after, turn) != GAIT_OK) return;
    gait_vec3 delta = v3_sub(after, ch->position);
    carry->carried = true;
    carry->landmark = lm;
    carry->velocity = v3_scale(delta, 1.0 / dt);
    carry->stays = gait_state_on_foot(s) || gait_state_on_wall(s);
    if (!carry->stays) {
        /* leaving it (a jump, a drop): its velocity goes along, and the air's steering keeps it */
        if (gait_state_airborne(s)) {
            b->vel = v3_add(b->vel, carry->velocity);
            b->inherit = v3(carry->velocity.x, 0, carry->velocity.z);
        }
        return;
    }
    /* glued: the feet go where the landmark took their point, cast through everything else (a
     * lift never carries a body into a ceiling or another character) */
    gait_mover m;
    body_mover(col, ch, num, &m);
    m.gather = gather;
    m.bodies = bodies;
    m.filter.ignore = lm;
    gait_move_result r;
    gait_vec3 feet = ch->position;
    gait_mover_fly(&m, &feet, delta, v3(0, 0, 0), NULL, &r);
    ch->position = feet;
    /* turned with it: the facing, the wall climbed, the ground's slope */
    gait_vec3 f = quat_turn(turn, v3(sin(ch->yaw), 0, cos(ch->yaw)));
    if (f.x * f.x + f.z * f.z > 1e-12) ch->yaw = atan2(f.x, f.z);
    b->wall_normal = v3_norm(quat_turn(turn, b->wall_normal));
    if (b->on_ground) b->ground_normal = v3_norm(quat_turn(turn, b->ground_normal));
    b->inherit = v3(0, 0, 0);
}

/* Whether a moving landmark is near the capsule at feet (within `pad` m). */
static bool moving_near(const gait_mover *m, gait_vec3 feet, double pad) {
    double r = m->radius + pad;
    return gait_collider_moving_near(m->collider, v3(feet.x - r, feet.y - pad, feet.z - r),
                                     v3(feet.x + r, feet.y + m->height + pad, feet.z + r));
}

bool gait__body_crushed(const gait_collider *col, gait_gather *gather, const gait__character *ch,
                        const gait_locomotion *num) {
    gait_mover m;
    body_mover(col, ch, num, &m);
    m.gather = gather;
    if (!moving_near(&m, ch->position, 0)) return false;
    return gait__mover_depth(&m, ch->position) > CRUSH_DEPTH;
}

void gait__body_leave(gait__character *ch, const gait__carry *carry) {
    if (!carry->carried || !carry->stays || !gait_state_on_foot(ch->phase.state) ||
        ch->contact.grounded)
        return;
    gait__body *b = &ch->body; /* walked off its edge: into the fall with its velocity */
    b->vel = v3_add(b->vel, carry->velocity);
    b->inherit = v3(carry->velocity.x, 0, carry->velocity.z);
}

/* ---- a move a family of states ---------------------------------------------------------- */

/* One step's move, as each family fills it. */
typedef struct body_move {
    const gait_mover *m;
    gait__character *ch;
    const gait__intent *in;
    const gait_locomotion *num;
    gait_state state, from;
    double dt;
    gait_vec3 feet;             /* m, moved */
    gait_move_result r;         /* what the move met */
    bool wall_ahead, over_top;
    bool may_land;              /* a floor the settle pass meets grounds the body */
} body_move;

/* the way the body faces (its yaw's sine and cosine, remembered: core/trig.h) */
static gait_vec3 yaw_facing(gait__character *ch) {
    double s, c;
    gait__sincos(&ch->yaw_trig, ch->yaw, &s, &c);
    return v3(s, 0, c);
}

static void face_move(body_move *bm) {
    if (bm->in->moving) bm->ch->yaw = gait__atan2(&bm->ch->heading_trig, bm->in->dir_n.x, bm->in->dir_n.z);
}

/* A kit's mode may let the water's surface hold the feet (an alternate sprint over a lake): feet
 * the walk left under the surface stand on it, when the capsule has room to rise there. */
static void stand_on_water(const gait_mover *m, gait_vec3 *feet, gait_move_result *r) {
    double surface, depth;
    if (!gait_water_at(m->collider, feet->x, feet->z, &surface, &depth) ||
        feet->y > surface + WATER_FLOOR_EPS)
        return;
    gait_hit hit;
    if (feet->y < surface && gait__mover_sweep(m, *feet, v3(0, surface - feet->y, 0), &hit))
        return; /* no room to rise */
    feet->y = surface;
    r->grounded = true;
    r->steep = false;
    r->ground_normal = UP;
    r->ground_height = surface;
}

/* Idle, walk, run, dash, sprint, crouch: along the ground at the state's speed. */
static void move_on_foot(body_move *bm) {
    gait__body *b = &bm->ch->body;
    const gait__intent *in = bm->in;
    double speed = state_speed(bm->num, bm->state);
    gait_vec3 facing = yaw_facing(bm->ch);
    gait_vec3 hd = in->dir_n;
    if (bm->state == GAIT_STATE_DASH && !in->moving) hd = facing; /* a dash with no move goes ahead */
    face_move(bm);
    gait_mover_walk(bm->m, &bm->feet, v3_scale(hd, speed), b->on_ground ? b->ground_normal : UP,
                    bm->dt, &b->near, &bm->r);
    if (b->water_floor) stand_on_water(bm->m, &bm->feet, &bm->r);
    b->vel = bm->r.vel;
    b->vel.y = 0;
    b->launch_speed = v3_len(bm->r.vel);
    /* a wall to climb stops the move: the stick within 30 deg into it, or the body held under
     * half its speed (a corner); one slid along is run past, as a riser stepped over is */
    if (bm->r.wall && in->moving && ahead(in->dir_n, bm->r.wall_normal)) {
        gait_vec3 nh = v3_norm(horizontal(bm->r.wall_normal));
        double along = v3_len(v3_mad(in->dir_n, nh, -v3_dot(in->dir_n, nh)));
        bm->wall_ahead = along < AHEAD_KEEP || v3_len(horizontal(bm->r.vel)) < AHEAD_KEEP * speed;
    }
}

/* Jump, fall, glide, plunge: the carried velocity under gravity, steered. */
static void move_in_air(body_move *bm) {
    gait__body *b = &bm->ch->body;
    const gait__intent *in = bm->in;
    const gait_locomotion *num = bm->num;
    gait_state s = bm->state;
    double dt = bm->dt;
    gait_vec3 facing = yaw_facing(bm->ch);
    gait_vec3 v = b->vel;
    gait_vec3 delta;
    if (s == GAIT_STATE_GLIDE) {
        face_move(bm);
        gait_vec3 hv = v3_scale(in->dir_n, num->glide_speed * in->stick);
        v = v3(hv.x, -num->glide_sink, hv.z);
        delta = v3_scale(v, dt);
        b->launch_speed = v3_len(hv);
    } else if (s == GAIT_STATE_PLUNGE) {
        /* straight down at plunge speed; what a surface turned sideways (a steep slope slid
         * down) is kept, as a fall keeps it, so the plunge slides off such ground to land */
        v = bm->from == GAIT_STATE_PLUNGE ? v3(v.x, -num->plunge_speed, v.z)
                                          : v3(0, -num->plunge_speed, 0);
        delta = v3_scale(v, dt);
    } else {
        /* a jump reaches the jump's height, v = sqrt(2 g h) (on a moving landmark, its rise
         * with it); a kit's launch keeps its own */
        if (s == GAIT_STATE_JUMP && bm->from != GAIT_STATE_JUMP && !b->launched) {
            double up = sqrt(2 * num->gravity * num->jump_height);
            v.y = v.y != 0 ? v.y + up : up;
        }
        /* steering, capped at the speed the body left the ground at, about the velocity of the
         * moving landmark it left (if any); not while it rests on ground too steep to stand on:
         * the slide down it is gravity's, and steering towards a standstill would hold the body
         * on a slope it cannot stand on */
        gait_vec3 hv = horizontal(v);
        if (!bm->ch->contact.steep) {
            gait_vec3 target = v3_scale(in->dir_n, b->launch_speed * in->stick);
            if (b->inherit.x != 0 || b->inherit.z != 0) target = v3_add(target, b->inherit);
            gait_vec3 dv = v3_sub(target, hv);
            double dl = v3_len(dv), amax = num->air_control * dt;
            if (dl > amax) dv = v3_scale(dv, amax / dl);
            hv = v3_add(hv, dv);
        }
        face_move(bm);
        double vy1, mean = gait__body_fall(v.y, num, dt, &vy1);
        v = v3(hv.x, vy1, hv.z);
        delta = v3(hv.x * dt, mean * dt, hv.z * dt);
    }
    gait_vec3 from = bm->feet;
    gait_mover_fly(bm->m, &bm->feet, delta, v, &b->near, &bm->r);
    if (s == GAIT_STATE_GLIDE && bm->r.wall && bm->r.wall_terrain && delta.y <= 0 &&
        bm->feet.y > from.y) {
        /* a glide that rose: its move went into a terrain face too steep to stand on, and the
         * lift onto the surface carried it up the face (a fall's clipped velocity stops that
         * after a step; a glide sets its speed anew each step and rode up a bank at 15 m/s,
         * then hung on its top: found by the liveness fuzzer). The face is a wall to it: the
         * move again without what went into the face across the ground */
        gait_vec3 hn = v3_norm(horizontal(bm->r.wall_normal));
        double into = v3_dot(delta, hn), vin = v3_dot(v, hn);
        if (v3_len2(hn) > 0.5 && into < 0) {
            gait_vec3 wall_n = bm->r.wall_normal;
            bm->feet = from;
            gait_mover_fly(bm->m, &bm->feet, v3_mad(delta, hn, -into), vin < 0 ? v3_mad(v, hn, -vin) : v,
                           &b->near, &bm->r);
            if (!bm->r.wall) { /* met: a wall to catch */
                bm->r.wall = true;
                bm->r.wall_terrain = true;
                bm->r.wall_normal = wall_n;
            }
        }
    }
    b->vel = bm->r.vel;
    bm->may_land = b->vel.y <= 0;
    gait_vec3 look = s == GAIT_STATE_GLIDE ? facing : in->dir_n;
    bool looking = (in->moving || s == GAIT_STATE_GLIDE) && s != GAIT_STATE_PLUNGE;
    if (looking && !bm->r.wall) {
        /* the air's move may not reach a wall the stick pushes into (a body dropped from a wall
         * has no speed to steer with): a short cast along the look finds it, so a fall that has
         * lasted its moment catches the wall again */
        gait_hit hit;
        if (gait__mover_sweep(bm->m, bm->feet, v3_scale(look, WALL_PROBE), &hit) &&
            !gait__mover_is_floor(bm->m, hit.normal) && !gait__mover_is_ceiling(hit.normal)) {
            bm->r.wall = true;
            bm->r.wall_terrain = false;
            bm->r.wall_normal = hit.normal;
        }
    }
    if (bm->r.wall && looking) bm->wall_ahead = ahead(look, bm->r.wall_normal);
}

/* Climb, climb jump: in the wall's plane, held to it. */
static void move_on_wall(body_move *bm) {
    gait__body *b = &bm->ch->body;
    const gait__intent *in = bm->in;
    const gait_locomotion *num = bm->num;
    gait_vec3 facing = yaw_facing(bm->ch);
    gait_vec3 n = v3_norm(b->wall_normal);
    if (v3_len2(n) < 0.5) n = v3_neg(facing);
    gait_vec3 nh = v3_norm(horizontal(n));
    if (v3_len2(nh) > 0.5) bm->ch->yaw = atan2(-nh.x, -nh.z); /* faces the wall */
    gait_vec3 up_w = v3_norm(v3_mad(UP, n, -n.y));
    gait_vec3 right_w = v3_norm(v3_cross(up_w, n));
    gait_vec3 v;
    if (bm->state == GAIT_STATE_CLIMB_JUMP)
        v = v3_scale(up_w, num->climb_jump_height / num->climb_jump_seconds);
    else
        v = v3_scale(v3_add(v3_scale(up_w, in->climb_y), v3_scale(right_w, in->climb_x)),
                     num->climb_speed * (in->stick > 0 ? 1 : 0));
    if (v3_len(v) > 0 && bm->state == GAIT_STATE_CLIMB && in->stick > 0) {
        /* a stick pushed part way climbs slower */
        double l = v3_len(v), want = num->climb_speed * in->stick;
        v = v3_scale(v, want / l);
    }
    if (b->on_terrain_wall)
        bm->feet = climb_terrain(bm->m, bm->feet, v, bm->dt, n, &bm->r, &bm->over_top);
    else
        bm->feet = climb_landmark(&b->held, bm->m, bm->feet, v, bm->dt, n, &bm->r, &bm->over_top);
    bm->wall_ahead = bm->r.wall;
    b->vel = v3(0, 0, 0);
    b->launch_speed = 0;
    bm->may_land = !bm->over_top ? in->climb_y < 0 : true;
}

/* Swim, swim dash, drown: across the water, floating at the wading depth. */
static void move_in_water(body_move *bm) {
    gait__body *b = &bm->ch->body;
    const gait__intent *in = bm->in;
    const gait_locomotion *num = bm->num;
    double dt = bm->dt;
    double surface = 0, depth;
    bool wet = false;
    gait_vec3 hv = v3(0, 0, 0);
    double dy = 0;
    if (bm->state != GAIT_STATE_DROWN) {
        double speed = bm->state == GAIT_STATE_SWIM_DASH ? num->swim_dash_speed : num->swim_speed;
        hv = v3_scale(in->dir_n, speed * in->stick);
        face_move(bm);
    }
    if (gait_water_at(bm->m->collider, bm->feet.x, bm->feet.z, &surface, &depth)) {
        /* floats with the feet its wading depth under the surface */
        double target = surface - num->wading_depth;
        dy = clampd(target - bm->feet.y, -num->swim_float_speed * dt, num->swim_float_speed * dt);
        wet = true;
    }
    gait_vec3 start = bm->feet, d = v3(hv.x * dt, 0, hv.z * dt);
    gait_mover_fly(bm->m, &bm->feet, v3(d.x, dy, d.z), v3(hv.x, 0, hv.z), &b->near, &bm->r);
    gait_vec3 q;
    /* a ledge under the surface stopped the stroke: the swimmer pulls itself up onto it, rising
     * to the surface and over the ledge by the stroke and its own radius, so its feet stand on
     * the ledge's top (the water there is shallow: the gates put the body on its feet) */
    gait_vec3 over = v3_mad(d, v3_norm(d), bm->m->radius);
    if (wet && bm->r.wall && !bm->r.wall_terrain && v3_len2(d) > 0 && surface > start.y &&
        gait__mover_step_over(bm->m, start, over, bm->feet, surface - start.y, &q)) {
        bm->feet = q;
        bm->r.wall = false;
        bm->r.grounded = true;
        bm->r.touched = true;
        bm->r.ground_normal = UP;
        bm->r.ground_height = q.y;
        bm->r.vel = v3(hv.x, 0, hv.z);
    }
    b->vel = v3(bm->r.vel.x, 0, bm->r.vel.z);
    b->launch_speed = v3_len(hv);
}

void gait__body_move(const gait_collider *col, gait_gather *gather, gait_mover_bodies *bodies,
                     gait__character *ch, const gait__intent *in, const gait_locomotion *num,
                     gait_state from, double dt) {
    gait_mover m;
    /* a body already standing stands and walks on ground up to walk_slope_hysteresis past the
     * limit: on ground whose triangles lie either side of it (a 44 deg one beside a 46 deg one)
     * it walks on instead of falling and landing every other step. What is too steep to land on
     * stays so: a fall keeps the limit itself, and so does the support reading's notch
     * (cos_steep; docs/behaviour.md, "The body"). Tried and dropped: keeping the limit for a
     * move up the ground (run <-> fall flicker wherever a walker turned uphill on such ground)
     * and reporting the way up such ground as a wall (short climbs of risers the walk went up
     * before) */
    double cos_limit = gait__cos(&ch->walk_slope_trig, num->max_walk_slope);
    double slope = num->max_walk_slope, cos_slope = cos_limit;
    bool standing = gait_state_on_foot(ch->phase.state) && ch->body.on_ground;
    if (standing && num->walk_slope_hysteresis > 0) {
        slope = fmin(slope + num->walk_slope_hysteresis, STAND_SLOPE_MAX);
        cos_slope = gait__cos(&ch->stand_slope_trig, slope);
    }
    gait__mover_init_cos(&m, col, num->capsule_radius,
                         gait__crouch_capsule_height(&ch->crouch, ch->phase.state, num), num->step_height,
                         slope, cos_slope);
    m.cos_steep = cos_limit;
    if (standing) m.support_hold = m.step_height; /* footing kept on a patchy bank (mover.c) */
    m.gather = gather;
    m.bodies = bodies;
    gait__body *b = &ch->body;
    gait_state s = ch->phase.state;
    body_move bm;
    memset(&bm, 0, sizeof bm);
    bm.m = &m;
    bm.ch = ch;
    bm.in = in;
    bm.num = num;
    bm.state = s;
    bm.from = from;
    bm.dt = dt;
    gait_vec3 start = ch->position;
    bm.feet = start;
    gait__mover_result_clear(&bm.r);
    bm.may_land = true;

    if (gait_state_on_foot(s)) move_on_foot(&bm);
    else if (gait_state_airborne(s)) move_in_air(&bm);
    else if (gait_state_on_wall(s)) move_on_wall(&bm);
    else if (gait_state_in_water(s)) move_in_water(&bm);

    /* walking and flying push out only when a cast says they may overlap (as the mover's step
     * does); on a wall and in water every step */
    bool push = bm.r.touched || !(gait_state_on_foot(s) || gait_state_airborne(s)) ||
                moving_near(&m, bm.feet, NEAR_MOVING); /* one may have moved into the body */
    /* The last word, asked every step (one overlap query; in open country the collider's
     * top-level grid answers at once). Found by tests/fuzz/fuzz_body.c (tests/replays/):
     *   - no cast met what the move ended in (a landmark's edge reached by the terrain's lift, or
     *     by the capsule's side while the move went out of a face): push out now;
     *   - the push-out cannot solve it (a climb jump along a terrain cliff into a ledge or a
     *     ceiling over it, a run up a slope into a box's edge: the push-out moves the capsule
     *     down or back into the terrain and the terrain puts it back): the move is refused and
     *     the body stays where the last step left it, unless that was no better. */
    /* (where the mover's cache knows no landmark comes near the feet, that query would find
     * nothing: the pass would change nothing, and is not asked) */
    if (push || !gait__mover_clear_at(&m, &b->near, bm.feet))
        gait_mover_settle(&m, start, &bm.feet, push, bm.may_land && !gait_state_on_wall(s), &bm.r,
                          &b->vel);

    ch->position = bm.feet;
    ch->velocity = dt > 0 ? v3_scale(v3_sub(bm.feet, start), 1.0 / dt) : v3(0, 0, 0);
    b->launched = false;   /* both for this move only: the motion stage sets them again */
    b->water_floor = false;
    remember(b, &bm.r);
    gait__sense_contact(ch, &m, &bm.r, bm.wall_ahead, bm.over_top, GAIT__PROBE_TO_TERRAIN);
}

/* ---- layout (layouts.h) ------------------------------------------------------------------- */

/* Normals are unit vectors the collider gave (a hair past 1 from rounding); the carried velocity
 * is a step's. The open-country cache, the held climb's and the height probe's are shortcuts
 * that give the same bits when dropped (gait/mover.h, body.h): a snapshot does not carry them (a
 * matching revision in another world would be another world's geometry). */
#define UNIT 1.000001
static const gait__lfield body_rows[] = {
    GAIT__LVEC3(gait__body, vel, -GAIT__SPEED_LIMIT, GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LVEC3(gait__body, wall_normal, -UNIT, UNIT, ""),
    GAIT__LVEC3(gait__body, ground_normal, -UNIT, UNIT, ""),
    GAIT__LREAL(gait__body, launch_speed, 0, 2 * GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LBOOL(gait__body, on_ground),
    GAIT__LBOOL(gait__body, on_terrain_wall),
    GAIT__LBOOL(gait__body, launched),
    GAIT__LBOOL(gait__body, water_floor),
    GAIT__LCACHE(gait__body, near),
    /* the moving landmarks stood on and climbed: ids the carry looks up (a stale or unknown one
     * is no moving landmark, so carries nothing), and a left one's velocity */
    GAIT__LSTRUCT(gait__body, ground_lm, gait__landmark_id_layout),
    GAIT__LSTRUCT(gait__body, wall_lm, gait__landmark_id_layout),
    GAIT__LVEC3(gait__body, inherit, -GAIT__SPEED_LIMIT, GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LCACHE(gait__body, held),
    GAIT__LCACHE(gait__body, probe),
};
#undef UNIT
GAIT__LTABLE(gait__body_layout, gait__body, body_rows, NULL, NULL);
