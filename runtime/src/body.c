/* The kinematic capsule (SPEC §3).
 * First cut: terrain-following on the heightfield with gravity, jump and the state speeds, so
 * the world's step runs end to end; collision with landmarks, walls, climbing, gliding and
 * swimming land with the body's full implementation. */
#include "world_internal.h"

#include <math.h>

#include "vec.h"

static double ground_below(gait_world *w, gait_vec3 p) {
    double h;
    gait_vec3 n;
    if (gait_terrain_sample(gait_world_collider(w), p.x, p.z, &h, &n)) return h;
    return -INFINITY;
}

static void write_contact(gait_world *w, gait__character *ch, const gait_locomotion *num) {
    double g = ground_below(w, ch->position);
    double above = ch->position.y - g;
    ch->contact.grounded = isfinite(g) && above <= 1e-6 && ch->velocity.y <= 0;
    ch->contact.rising = ch->velocity.y > 0;
    ch->contact.height_above_ground = isfinite(g) ? above : INFINITY;
    double surface, depth;
    if (gait_water_at(gait_world_collider_const(w), ch->position.x, ch->position.z, &surface, &depth)) {
        ch->contact.water_depth = depth;
        ch->contact.submersion = surface - ch->position.y;
    } else {
        ch->contact.water_depth = 0;
        ch->contact.submersion = -INFINITY;
    }
    (void)num;
}

void gait__body_place(gait_world *w, gait__character *ch) {
    double g = ground_below(w, ch->position);
    if (isfinite(g)) ch->position.y = g;
    ch->velocity = v3(0, 0, 0);
    write_contact(w, ch, gait_world_locomotion(w, ch->body_type));
}

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

void gait__body_move(gait_world *w, gait__character *ch, const gait_locomotion *num, gait_state from,
                     double mx, double my, double dt) {
    gait_state s = ch->phase.state;
    double cy = ch->camera_yaw;
    gait_vec3 fwd = v3(sin(cy), 0, cos(cy)), right = v3(-cos(cy), 0, sin(cy));
    gait_vec3 dir = v3_add(v3_scale(fwd, my), v3_scale(right, mx));
    double len = v3_len(dir);
    if (len > 1e-9) ch->yaw = atan2(dir.x, dir.z);
    gait_vec3 vel = ch->velocity;
    if (gait_state_on_foot(s)) {
        double speed = state_speed(num, s);
        if (s == GAIT_STATE_DASH && len <= 1e-9) dir = v3(sin(ch->yaw), 0, cos(ch->yaw)), len = 1;
        gait_vec3 hv = len > 1e-9 ? v3_scale(v3_norm(dir), speed) : v3(0, 0, 0);
        vel = v3(hv.x, 0, hv.z);
        ch->body.launch_speed = speed;
    } else if (s == GAIT_STATE_JUMP && from != GAIT_STATE_JUMP) {
        vel.y = sqrt(2 * num->gravity * num->jump_height);
    }
    if (!gait_state_on_foot(s)) vel.y -= num->gravity * dt;
    gait_vec3 p = v3_mad(ch->position, vel, dt);
    double g = ground_below(w, p);
    if (isfinite(g) && (p.y <= g || (gait_state_on_foot(s) && p.y - g <= num->step_height))) {
        p.y = g;
        vel.y = 0;
    }
    ch->velocity = vel;
    ch->position = p;
    write_contact(w, ch, num);
}
