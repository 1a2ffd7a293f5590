/* Internal: the kinematic capsule (SPEC §3). world.c runs the gates and the stamina, then calls
 * gait__body_move to turn the state into a move against the collider and to write the contact
 * the next step's gates will read. */
#ifndef GAIT_BODY_H
#define GAIT_BODY_H

#include "gait/world.h"

struct gait__character;

/* What the body keeps between steps (beyond position, velocity and contact). */
typedef struct gait__body {
    gait_vec3 wall_normal;       /* the wall last touched (unit, out of the wall) */
    double launch_speed;         /* m/s horizontal the body left the ground with (air steering cap) */
    double ground_height;        /* m, height of the ground under the feet at the last step */
    bool on_terrain_wall;        /* the wall is the terrain (a cliff), not a landmark */
} gait__body;

/* Stands a new or placed body on the ground below `position` and fills its contact. */
void gait__body_place(gait_world *world, struct gait__character *ch);

/* One step of dt seconds: `from` was the state before the gates, ch->phase.state is the state
 * now; move is (move_x, move_y) camera-relative after a kit action zeroed it; numbers are the
 * body type's. Updates position, velocity, yaw and ch->contact. Allocates nothing. */
void gait__body_move(gait_world *world, struct gait__character *ch, const gait_locomotion *numbers,
                     gait_state from, double move_x, double move_y, double dt);

#endif
