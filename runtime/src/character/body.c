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
#include "crouch.h"
#include "mover_internal.h"
#include "sense.h"

#define CLIMB_PRESS 0.05       /* m a climbing body is pressed into a landmark wall each step */
#define OVER_TOP_REACH 0.1     /* m past the radius a body that lost its wall looks over the edge */
#define OVER_TOP_DROP 0.1      /* m below the step height it looks down there for a floor */
#define ON_TERRAIN_EPS 1e-6    /* m: feet this close above the terrain at a wall's foot are on it */
#define CLIFF_TOP_RISE 1e-3    /* m a climb must rise to be over a cliff's top */
#define PROJECT_ITERS 4        /* steps onto the terrain's local plane (converges in 2-3) */
#define FLOAT_SPEED 2.0        /* m/s a swimming body rises or sinks towards its float line
                                  (provisional) */
#define AHEAD_COS 0.5          /* a wall is "ahead" when the move points within 60 deg into it */
#define WALL_PROBE 0.1         /* m an airborne body looks ahead for a wall to catch */
#define WATER_FLOOR_EPS 1e-9   /* m: feet this close over the water's surface stand on it */

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
    b->on_ground = r->grounded;
    b->ground_normal = r->grounded ? r->ground_normal : UP;
    if (r->wall) {
        b->wall_normal = r->wall_normal;
        b->on_terrain_wall = r->wall_terrain;
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

void gait__body_place(const gait_collider *col, gait__character *ch, const gait_locomotion *num) {
    gait_mover m;
    body_mover(col, ch, num, &m);
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
}

/* A landmark wall: move in its plane, pressed into it so the wall is met again each step.
 * When it is met no more, the body is past an edge: over the top onto walkable ground, or off. */
static gait_vec3 climb_landmark(const gait_mover *m, gait_vec3 feet, gait_vec3 v, double dt,
                                gait_vec3 n, gait_move_result *r, bool *over_top) {
    gait_vec3 delta = v3_mad(v3_scale(v, dt), n, -CLIMB_PRESS);
    gait__slide_info si;
    gait_vec3 p = gait__mover_slide(m, feet, delta, false, false, &si);
    if (si.floor) {
        r->grounded = true;
        r->ground_normal = si.floor_n;
    }
    /* climbing down onto the terrain at the wall's foot: the height function is the floor */
    double h;
    gait_vec3 tn;
    if (gait__mover_terrain(m, p.x, p.z, &h, &tn) && p.y <= h + ON_TERRAIN_EPS) {
        p.y = h;
        if (gait__mover_is_floor(m, tn)) {
            r->grounded = true;
            r->ground_normal = tn;
        }
    }
    if (si.wall) {
        r->wall = true;
        r->wall_normal = si.wall_n;
        return p;
    }
    /* no wall met: over the top? A short move over the edge, then a look down for a floor. */
    gait_vec3 fwd = v3_norm(horizontal(v3_neg(n)));
    gait__slide_info s2;
    gait_vec3 q = gait__mover_slide(m, p, v3_scale(fwd, m->radius + OVER_TOP_REACH), true, false, &s2);
    gait_hit hit;
    double reach = m->step_height + OVER_TOP_DROP;
    if (v.y > 0 && gait__mover_sweep(m, q, v3(0, -reach, 0), &hit) && !hit.start_solid &&
        gait__mover_is_floor(m, hit.normal)) {
        q.y -= reach * hit.fraction;
        *over_top = true;
        r->grounded = true;
        r->ground_normal = hit.normal;
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
        if (v.y > 0 && p1.y > feet.y + CLIFF_TOP_RISE) {
            *over_top = true; /* past the cliff's top onto walkable ground */
            r->grounded = true;
            r->ground_normal = tn;
            return v3(p1.x, h, p1.z);
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

static void face_move(body_move *bm) {
    if (bm->in->moving) bm->ch->yaw = atan2(bm->in->dir_n.x, bm->in->dir_n.z);
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
    gait_vec3 facing = v3(sin(bm->ch->yaw), 0, cos(bm->ch->yaw));
    gait_vec3 hd = in->dir_n;
    if (bm->state == GAIT_STATE_DASH && !in->moving) hd = facing; /* a dash with no move goes ahead */
    face_move(bm);
    gait_mover_walk(bm->m, &bm->feet, v3_scale(hd, speed), b->on_ground ? b->ground_normal : UP,
                    bm->dt, &b->near, &bm->r);
    if (b->water_floor) stand_on_water(bm->m, &bm->feet, &bm->r);
    b->vel = bm->r.vel;
    b->vel.y = 0;
    b->launch_speed = v3_len(bm->r.vel);
    if (bm->r.wall && in->moving) bm->wall_ahead = ahead(in->dir_n, bm->r.wall_normal);
}

/* Jump, fall, glide, plunge: the carried velocity under gravity, steered. */
static void move_in_air(body_move *bm) {
    gait__body *b = &bm->ch->body;
    const gait__intent *in = bm->in;
    const gait_locomotion *num = bm->num;
    gait_state s = bm->state;
    double dt = bm->dt;
    gait_vec3 facing = v3(sin(bm->ch->yaw), 0, cos(bm->ch->yaw));
    gait_vec3 v = b->vel;
    gait_vec3 delta;
    if (s == GAIT_STATE_GLIDE) {
        face_move(bm);
        gait_vec3 hv = v3_scale(in->dir_n, num->glide_speed * in->stick);
        v = v3(hv.x, -num->glide_sink, hv.z);
        delta = v3_scale(v, dt);
        b->launch_speed = v3_len(hv);
    } else if (s == GAIT_STATE_PLUNGE) {
        v = v3(0, -num->plunge_speed, 0);
        delta = v3_scale(v, dt);
    } else {
        /* a jump reaches the jump's height, v = sqrt(2 g h); a kit's launch keeps its own */
        if (s == GAIT_STATE_JUMP && bm->from != GAIT_STATE_JUMP && !b->launched)
            v.y = sqrt(2 * num->gravity * num->jump_height);
        /* steering, capped at the speed the body left the ground at */
        gait_vec3 hv = horizontal(v);
        gait_vec3 target = v3_scale(in->dir_n, b->launch_speed * in->stick);
        gait_vec3 dv = v3_sub(target, hv);
        double dl = v3_len(dv), amax = num->air_control * dt;
        if (dl > amax) dv = v3_scale(dv, amax / dl);
        hv = v3_add(hv, dv);
        face_move(bm);
        double vy1, mean = gait__body_fall(v.y, num, dt, &vy1);
        v = v3(hv.x, vy1, hv.z);
        delta = v3(hv.x * dt, mean * dt, hv.z * dt);
    }
    gait_mover_fly(bm->m, &bm->feet, delta, v, &b->near, &bm->r);
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
    gait_vec3 facing = v3(sin(bm->ch->yaw), 0, cos(bm->ch->yaw));
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
        v = v3_scale(v3_add(v3_scale(up_w, in->move_y), v3_scale(right_w, in->move_x)),
                     num->climb_speed * (in->stick > 0 ? 1 : 0));
    if (v3_len(v) > 0 && bm->state == GAIT_STATE_CLIMB && in->stick > 0) {
        /* a stick pushed part way climbs slower */
        double l = v3_len(v), want = num->climb_speed * in->stick;
        v = v3_scale(v, want / l);
    }
    if (b->on_terrain_wall)
        bm->feet = climb_terrain(bm->m, bm->feet, v, bm->dt, n, &bm->r, &bm->over_top);
    else
        bm->feet = climb_landmark(bm->m, bm->feet, v, bm->dt, n, &bm->r, &bm->over_top);
    bm->wall_ahead = bm->r.wall;
    b->vel = v3(0, 0, 0);
    b->launch_speed = 0;
    bm->may_land = !bm->over_top ? in->move_y < 0 : true;
}

/* Swim, swim dash, drown: across the water, floating at the wading depth. */
static void move_in_water(body_move *bm) {
    gait__body *b = &bm->ch->body;
    const gait__intent *in = bm->in;
    const gait_locomotion *num = bm->num;
    double dt = bm->dt;
    double surface, depth;
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
        dy = clampd(target - bm->feet.y, -FLOAT_SPEED * dt, FLOAT_SPEED * dt);
    }
    gait_mover_fly(bm->m, &bm->feet, v3(hv.x * dt, dy, hv.z * dt), v3(hv.x, 0, hv.z), &b->near,
                   &bm->r);
    b->vel = v3(bm->r.vel.x, 0, bm->r.vel.z);
    b->launch_speed = v3_len(hv);
}

void gait__body_move(const gait_collider *col, gait_gather *gather, gait__character *ch,
                     const gait__intent *in, const gait_locomotion *num, gait_state from, double dt) {
    gait_mover m;
    body_mover(col, ch, num, &m);
    m.gather = gather;
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
    bool push = bm.r.touched || !(gait_state_on_foot(s) || gait_state_airborne(s));
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
