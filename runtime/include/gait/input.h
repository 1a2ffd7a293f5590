/* gait — the input a host gives a character once a frame. */
#ifndef GAIT_INPUT_H
#define GAIT_INPUT_H

#include "gait/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Buttons, as bits of gait_input.held (levels) and gait_input.pressed (this frame's presses). */
typedef enum gait_button {
    GAIT_BUTTON_JUMP   = 1u << 0, /* Space: jump; in the air opens/closes the glider; climb jump */
    GAIT_BUTTON_SPRINT = 1u << 1, /* Left Shift / right mouse: press dashes, hold sprints, swim dash */
    GAIT_BUTTON_DROP   = 1u << 2, /* X: let go of a wall */
    GAIT_BUTTON_ATTACK = 1u << 3, /* left mouse: a kit's attack; in the air a plunge */
    GAIT_BUTTON_SKILL  = 1u << 4, /* E: a kit's elemental skill */
    GAIT_BUTTON_BURST  = 1u << 5, /* Q: a kit's elemental burst */
    GAIT_BUTTON_WALK   = 1u << 6, /* Left Control: the walk switch (a press toggles walking) */
    GAIT_BUTTON_CROUCH = 1u << 7  /* C: crouch switch (a press toggles crouching) */
} gait_button;

#define GAIT_BUTTON_ALL 0xFFu
#define GAIT_BUTTON_COUNT 8

/* One frame's input. Moves are camera-relative: move_y forward along the camera's yaw (W = +1),
 * move_x to the right (D = +1). A stick pushed only part way (length below the body type's
 * walk_stick_threshold) walks. */
typedef struct gait_input {
    double move_x, move_y;   /* stick, each in [-1, 1], length clamped to 1; default 0 */
    double look_yaw;         /* camera yaw delta this frame (rad, + turns left/counter-clockwise
                                seen from above); default 0 */
    double look_pitch;       /* camera pitch delta (rad, + looks up); default 0 */
    double look_zoom;        /* camera arm length delta (m, + further); default 0 */
    uint32_t held;           /* gait_button bits held down now (levels) */
    uint32_t pressed;        /* gait_button bits pressed during this frame (edges). Kept by the
                                character until the next fixed step reads them, then cleared. */
} gait_input;

#ifdef __cplusplus
}
#endif
#endif
