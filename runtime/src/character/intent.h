/* Internal: the step's input, read once (docs/design.md, "The step"): the presses the step takes,
 * the walk and crouch switches they toggle, and the camera-relative move every later stage uses
 * (the gates, the crouch's and the traversal's probes, the body's move). */
#ifndef GAIT_INTENT_H
#define GAIT_INTENT_H

#include "gait/locomotion.h"

struct gait__character;

typedef struct gait__intent {
    double move_x, move_y;      /* stick after clamping; zero while a kit action holds the body */
    double move;                /* stick length, [0, 1] (the gates' move) */
    gait_vec3 dir;              /* camera-relative horizontal move: forward * move_y + right * move_x */
    double stick;               /* |dir|, at most 1 */
    bool moving;                /* |dir| > move_epsilon */
    double climb_x, climb_y;    /* the stick as a wall reads it: y climbs up, x across (the stick
                                   turned by the character's climb_turn) */
    gait_vec3 dir_n;            /* dir as a unit vector; zero when not moving */
    uint32_t pressed;           /* gait_button presses this step takes */
    uint32_t held;              /* gait_button levels */
    bool walking, crouching;    /* the switches after this step's presses */
} gait__intent;

/* Takes the presses held for this step (a character's `pressed` is emptied and kept as
 * presses_read), toggles the switches, and reads the move against the camera's yaw. */
void gait__intent_read(struct gait__character *ch, const gait_locomotion *numbers,
                       gait__intent *out);

/* The state the gates chose: a climb begun this step (from off the wall) by a stick pointing more
 * than 60 deg away from forward keeps that stick's way as up while it is held — it pressed into
 * the wall, so it means up there, whatever the camera faces; W climbs up again once the stick is
 * let go. Updates the character's climb_turn and out's climb_x, climb_y. */
void gait__intent_climb(struct gait__character *ch, gait_state from, gait_state next,
                        gait__intent *out);

#endif
