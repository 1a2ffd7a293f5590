/* Internal: the character's body (body.c). world.c runs the gates and the stamina, then calls
 * gait__body_move to turn the state into a move through the mover (gait/mover.h) and to write
 * the contact the next step's gates will read. */
#ifndef GAIT_BODY_H
#define GAIT_BODY_H

#include "gait/mover.h"
#include "gait/world.h"

struct gait__character;

/* What the body keeps between steps (beyond position, velocity and contact). */
typedef struct gait__body {
    gait_vec3 vel;               /* m/s the body carries between steps (the air's momentum) */
    gait_vec3 wall_normal;       /* the wall last touched (unit, out of the wall) */
    gait_vec3 ground_normal;     /* unit, of the ground stood on (up when none) */
    double launch_speed;         /* m/s horizontal the body left the ground with (air steering cap) */
    double ground_height;        /* m, height of the ground under the feet at the last step */
    bool on_ground;              /* stood on walkable ground after the last move */
    bool on_terrain_wall;        /* the wall is the terrain (a cliff), not a landmark */
    gait_mover_cache near;       /* open country around the body */
} gait__body;

/* ---- the body ---------------------------------------------------------------------------- */

/* Stands a new or placed body on the ground below `position` and fills its contact. */
void gait__body_place(gait_world *world, struct gait__character *ch);

/* One step of dt seconds: `from` was the state before the gates, ch->phase.state is the state
 * now; move is (move_x, move_y) camera-relative after a kit action zeroed it; numbers are the
 * body type's. Updates position, velocity, yaw and ch->contact. Allocates nothing. */
void gait__body_move(gait_world *world, struct gait__character *ch, const gait_locomotion *numbers,
                     gait_state from, double move_x, double move_y, double dt);

#endif
