/* The step's input (docs/design.md, "The step"): read once, used by every later stage. */
#include "intent.h"

#include <math.h>

#include "character.h"
#include "core/vec.h"

#define CLIMB_FORWARD_SHARE 0.5 /* a stick within 60 deg of forward climbs as it reads (cos 60) */

/* The stick turned back by climb_turn: the way that started the climb reads as forward (up). */
static void climb_stick(const gait__character *ch, gait__intent *out) {
    double t = ch->climb_turn, c = cos(t), s = sin(t);
    if (t == 0) {
        out->climb_x = out->move_x;
        out->climb_y = out->move_y;
        return;
    }
    out->climb_x = out->move_x * c - out->move_y * s;
    out->climb_y = out->move_x * s + out->move_y * c;
}

void gait__intent_read(gait__character *ch, const gait_locomotion *n, gait__intent *out) {
    /* the step reads the held presses and lets them go */
    uint32_t pressed = ch->pressed;
    ch->pressed = 0;
    ch->presses_read = pressed;
    if (pressed & GAIT_BUTTON_WALK) ch->walking = !ch->walking;
    if (pressed & GAIT_BUTTON_CROUCH) ch->crouching = !ch->crouching;
    out->pressed = pressed;
    out->held = ch->held;
    out->walking = ch->walking;
    out->crouching = ch->crouching;

    /* a kit action holds the body: the presses still reach the gates, the move does not */
    double mx = ch->move_x, my = ch->move_y;
    if (ch->action_left > 0) mx = my = 0;
    out->move_x = mx;
    out->move_y = my;
    out->move = sqrt(mx * mx + my * my);

    /* against the camera: forward is the camera's yaw, right is 90 deg clockwise of it */
    double cy = ch->camera_yaw;
    double sy, cyc;
    gait__sincos(&ch->camera_trig, cy, &sy, &cyc);
    gait_vec3 fwd = v3(sy, 0, cyc), right = v3(-cyc, 0, sy);
    out->dir = v3_add(v3_scale(fwd, my), v3_scale(right, mx));
    double stick = v3_len(out->dir);
    out->moving = stick > n->move_epsilon;
    out->dir_n = out->moving ? v3_scale(out->dir, 1.0 / stick) : v3(0, 0, 0);
    out->stick = stick > 1 ? 1 : stick;
    if (!out->moving) ch->climb_turn = 0; /* let go: W climbs up again */
    climb_stick(ch, out);
}

void gait__intent_climb(gait__character *ch, gait_state from, gait_state next, gait__intent *out) {
    if (!gait_state_on_wall(next)) {
        ch->climb_turn = 0;
    } else if (!gait_state_on_wall(from) && out->moving) {
        /* the stick that started the climb pressed into the wall: up, unless it was forward */
        bool forward = out->move_y >= CLIMB_FORWARD_SHARE * out->move;
        ch->climb_turn = forward ? 0 : atan2(out->move_x, out->move_y);
    }
    climb_stick(ch, out);
}
