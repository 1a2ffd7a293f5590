/* The body (docs/behaviour.md "The body"): turns a locomotion state into a move through the
 * mover (gait/mover.h), and adds what only a character does: walking at the state's speed,
 * jumping, air steering and gravity, the glider, the plunge, climbing landmark walls and terrain
 * cliffs, swimming.
 *
 * Determinism: doubles only, a fixed number of queries; the same inputs give the same bits. A
 * step allocates nothing. */
#include "world_internal.h"

#include <math.h>
#include <string.h>

#include "core/vec.h"
#include "mover_internal.h"

#define CLIMB_PRESS 0.05       /* m a climbing body is pressed into a landmark wall each step */
#define FLOAT_SPEED 2.0        /* m/s a swimming body rises or sinks towards its float line
                                  (provisional) */
#define AHEAD_COS 0.5          /* a wall is "ahead" when the move points within 60 deg into it */
#define WALL_PROBE 0.1         /* m an airborne body looks ahead for a wall to catch */
#define HEIGHT_PROBE 1000.0    /* m: farthest a height-above-ground probe looks down */

static const gait_vec3 UP = {0, 1, 0};

static gait_vec3 horizontal(gait_vec3 v) { return v3(v.x, 0, v.z); }

/* ---- the body ---------------------------------------------------------------------------- */

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

static void body_mover(gait_world *w, const gait__character *ch, const gait_locomotion *num,
                       gait_mover *m) {
    /* crouched, or falling from a crouch with no room to stand yet (traverse.c) */
    bool crouched = ch->phase.state == GAIT_STATE_CROUCH || ch->trav.crouch_air;
    double height = crouched ? num->crouch_height : num->capsule_height;
    gait_mover_init(m, gait_world_collider_const(w), num->capsule_radius, height, num->step_height,
                     num->max_walk_slope);
}

/* Metres from the feet down to whatever lies below (terrain or a landmark), up to the probe. */
static double height_above_ground(const gait_mover *m, gait_vec3 feet) {
    double best = INFINITY, h;
    gait_vec3 tn;
    if (gait__mover_terrain(m, feet.x, feet.z, &h, &tn)) best = feet.y - h;
    double reach = isfinite(best) ? fmax(best, 0) + 0.01 : HEIGHT_PROBE;
    if (reach > HEIGHT_PROBE) reach = HEIGHT_PROBE;
    gait_hit hit;
    gait_vec3 o = v3(feet.x, feet.y + 0.01, feet.z);
    if (gait_collider_ray_cast(m->collider, o, v3(0, -reach, 0), &m->filter, &hit)) {
        double d = hit.distance - 0.01;
        if (d < best) best = d;
    }
    return best < 0 ? 0 : best;
}

static void write_contact(gait__character *ch, const gait_mover *m, const gait_move_result *r,
                          bool wall_ahead, bool over_top) {
    gait_contact *c = &ch->contact;
    gait__body *b = &ch->body;
    c->grounded = r->grounded;
    c->rising = b->vel.y > 1e-9;
    c->height_above_ground = r->grounded ? 0 : height_above_ground(m, ch->position);
    double surface, depth;
    if (gait_water_at(m->collider, ch->position.x, ch->position.z, &surface, &depth)) {
        c->water_depth = depth;
        c->submersion = surface - ch->position.y;
    } else {
        c->water_depth = 0;
        c->submersion = 0; /* dry: "<= 0 above it or dry" (locomotion.h), and finite */
    }
    c->wall = r->wall;
    c->wall_ahead = r->wall && wall_ahead;
    c->over_top = over_top;
    b->on_ground = r->grounded;
    b->ground_normal = r->grounded ? r->ground_normal : UP;
    b->ground_height = r->ground_height;
    if (r->wall) {
        b->wall_normal = r->wall_normal;
        b->on_terrain_wall = r->wall_terrain;
    }
}

void gait__body_place(gait_world *w, gait__character *ch) {
    const gait_locomotion *num = gait_world_locomotion(w, ch->body_type);
    gait_mover m;
    body_mover(w, ch, num, &m);
    gait__body *b = &ch->body;
    memset(b, 0, sizeof *b);
    b->ground_normal = UP;
    b->wall_normal = v3(0, 0, -1);
    gait_move_result r;
    gait_vec3 p = ch->position;
    gait_mover_place(&m, &p, &r);
    ch->position = p;
    ch->velocity = v3(0, 0, 0);
    write_contact(ch, &m, &r, false, false);
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
    if (gait__mover_terrain(m, p.x, p.z, &h, &tn) && p.y <= h + 1e-6) {
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
    gait_vec3 q = gait__mover_slide(m, p, v3_scale(fwd, m->radius + 0.1), true, false, &s2);
    gait_hit hit;
    double reach = m->step_height + 0.1;
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
    for (int i = 0; i < 4; i++) {
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
        if (v.y > 0 && p1.y > feet.y + 1e-3) {
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

void gait__body_move(gait_world *w, gait__character *ch, const gait_locomotion *num, gait_state from,
                     double mx, double my, double dt) {
    gait_mover m;
    body_mover(w, ch, num, &m);
    gait__body *b = &ch->body;
    gait_state s = ch->phase.state;
    double cy = ch->camera_yaw;
    gait_vec3 fwd = v3(sin(cy), 0, cos(cy)), right = v3(-cos(cy), 0, sin(cy));
    gait_vec3 dir = v3_add(v3_scale(fwd, my), v3_scale(right, mx));
    double stick = v3_len(dir);
    bool moving = stick > num->move_epsilon;
    gait_vec3 dir_n = moving ? v3_scale(dir, 1.0 / stick) : v3(0, 0, 0);
    if (stick > 1) stick = 1;
    gait_vec3 facing = v3(sin(ch->yaw), 0, cos(ch->yaw));

    gait_vec3 start = ch->position;
    gait_vec3 feet = start;
    gait_move_result r;
    gait__mover_result_clear(&r);
    bool wall_ahead = false, over_top = false, may_land = true;

    if (gait_state_on_foot(s)) {
        double speed = state_speed(num, s);
        gait_vec3 hd = dir_n;
        if (s == GAIT_STATE_DASH && !moving) hd = facing; /* a dash with no move goes ahead */
        if (moving) ch->yaw = atan2(dir_n.x, dir_n.z);
        gait_mover_walk(&m, &feet, v3_scale(hd, speed), b->on_ground ? b->ground_normal : UP, dt,
                         &b->near, &r);
        b->vel = r.vel;
        b->vel.y = 0;
        b->launch_speed = v3_len(r.vel);
        if (r.wall && moving) wall_ahead = v3_dot(dir_n, v3_norm(horizontal(v3_neg(r.wall_normal)))) > AHEAD_COS;
    } else if (gait_state_airborne(s)) {
        gait_vec3 v = b->vel;
        double g = num->gravity;
        gait_vec3 delta;
        if (s == GAIT_STATE_GLIDE) {
            if (moving) ch->yaw = atan2(dir_n.x, dir_n.z);
            gait_vec3 hv = v3_scale(dir_n, num->glide_speed * stick);
            v = v3(hv.x, -num->glide_sink, hv.z);
            delta = v3_scale(v, dt);
            b->launch_speed = v3_len(hv);
        } else if (s == GAIT_STATE_PLUNGE) {
            v = v3(0, -num->plunge_speed, 0);
            delta = v3_scale(v, dt);
        } else {
            if (s == GAIT_STATE_JUMP && from != GAIT_STATE_JUMP)
                v.y = sqrt(2 * g * num->jump_height); /* reaches the jump's height: v = sqrt(2 g h) */
            /* steering, capped at the speed the body left the ground at */
            gait_vec3 hv = horizontal(v);
            gait_vec3 target = v3_scale(dir_n, b->launch_speed * stick);
            gait_vec3 dv = v3_sub(target, hv);
            double dl = v3_len(dv), amax = num->air_control * dt;
            if (dl > amax) dv = v3_scale(dv, amax / dl);
            hv = v3_add(hv, dv);
            if (moving) ch->yaw = atan2(dir_n.x, dir_n.z);
            /* gravity integrated exactly over the step (mean of the velocities at its ends), so
             * the apex reaches the jump's height at any step size */
            double vy0 = v.y, vy1 = vy0 - g * dt;
            if (vy1 < -num->max_fall_speed) vy1 = -num->max_fall_speed;
            if (vy0 < -num->max_fall_speed) vy0 = -num->max_fall_speed;
            v = v3(hv.x, vy1, hv.z);
            delta = v3(hv.x * dt, 0.5 * (vy0 + vy1) * dt, hv.z * dt);
        }
        gait_mover_fly(&m, &feet, delta, v, &b->near, &r);
        b->vel = r.vel;
        may_land = b->vel.y <= 0;
        gait_vec3 look = s == GAIT_STATE_GLIDE ? facing : dir_n;
        bool looking = (moving || s == GAIT_STATE_GLIDE) && s != GAIT_STATE_PLUNGE;
        if (looking && !r.wall) {
            /* the air's move may not reach a wall the stick pushes into (a body dropped from a
             * wall has no speed to steer with): a short cast along the look finds it, so a fall
             * that has lasted its moment catches the wall again */
            gait_hit hit;
            if (gait__mover_sweep(&m, feet, v3_scale(look, WALL_PROBE), &hit) &&
                !gait__mover_is_floor(&m, hit.normal) && !gait__mover_is_ceiling(hit.normal)) {
                r.wall = true;
                r.wall_terrain = false;
                r.wall_normal = hit.normal;
            }
        }
        if (r.wall && looking)
            wall_ahead = v3_dot(look, v3_norm(horizontal(v3_neg(r.wall_normal)))) > AHEAD_COS;
    } else if (gait_state_on_wall(s)) {
        gait_vec3 n = v3_norm(b->wall_normal);
        if (v3_len2(n) < 0.5) n = v3_neg(facing);
        gait_vec3 nh = v3_norm(horizontal(n));
        if (v3_len2(nh) > 0.5) ch->yaw = atan2(-nh.x, -nh.z); /* faces the wall */
        gait_vec3 up_w = v3_norm(v3_mad(UP, n, -n.y));
        gait_vec3 right_w = v3_norm(v3_cross(up_w, n));
        gait_vec3 v;
        if (s == GAIT_STATE_CLIMB_JUMP)
            v = v3_scale(up_w, num->climb_jump_height / num->climb_jump_seconds);
        else
            v = v3_scale(v3_add(v3_scale(up_w, my), v3_scale(right_w, mx)),
                         num->climb_speed * (stick > 0 ? 1 : 0));
        if (v3_len(v) > 0 && s == GAIT_STATE_CLIMB && stick > 0) {
            /* a stick pushed part way climbs slower */
            double l = v3_len(v), want = num->climb_speed * stick;
            v = v3_scale(v, want / l);
        }
        if (b->on_terrain_wall)
            feet = climb_terrain(&m, feet, v, dt, n, &r, &over_top);
        else
            feet = climb_landmark(&m, feet, v, dt, n, &r, &over_top);
        wall_ahead = r.wall;
        b->vel = v3(0, 0, 0);
        b->launch_speed = 0;
        may_land = !over_top ? my < 0 : true;
    } else if (gait_state_in_water(s)) {
        double surface, depth;
        gait_vec3 hv = v3(0, 0, 0);
        double dy = 0;
        if (s != GAIT_STATE_DROWN) {
            double speed = s == GAIT_STATE_SWIM_DASH ? num->swim_dash_speed : num->swim_speed;
            hv = v3_scale(dir_n, speed * stick);
            if (moving) ch->yaw = atan2(dir_n.x, dir_n.z);
        }
        if (gait_water_at(m.collider, feet.x, feet.z, &surface, &depth)) {
            /* floats with the feet its wading depth under the surface */
            double target = surface - num->wading_depth;
            dy = clampd(target - feet.y, -FLOAT_SPEED * dt, FLOAT_SPEED * dt);
        }
        gait_mover_fly(&m, &feet, v3(hv.x * dt, dy, hv.z * dt), v3(hv.x, 0, hv.z), &b->near, &r);
        b->vel = v3(r.vel.x, 0, r.vel.z);
        b->launch_speed = v3_len(hv);
    }

    /* walking and flying push out only when a cast says they may overlap (as the mover's step
     * does); on a wall and in water every step */
    bool push = r.touched || !(gait_state_on_foot(s) || gait_state_airborne(s));
    /* The last word, asked every step (one overlap query; in open country the collider's
     * top-level grid answers at once). Found by tests/fuzz/fuzz_body.c (tests/replays/):
     *   - no cast met what the move ended in (a landmark's edge reached by the terrain's lift, or
     *     by the capsule's side while the move went out of a face): push out now;
     *   - the push-out cannot solve it (a climb jump along a terrain cliff into a ledge or a
     *     ceiling over it, a run up a slope into a box's edge: the push-out moves the capsule
     *     down or back into the terrain and the terrain puts it back): the move is refused and
     *     the body stays where the last step left it, unless that was no better. */
    gait_mover_settle(&m, start, &feet, push, may_land && !gait_state_on_wall(s), &r, &b->vel);

    ch->position = feet;
    ch->velocity = dt > 0 ? v3_scale(v3_sub(feet, start), 1.0 / dt) : v3(0, 0, 0);
    write_contact(ch, &m, &r, wall_ahead, over_top);
}
