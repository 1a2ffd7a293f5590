/* Internal: the layout tables (core/layout.h) of the structs a world and its characters keep, each
 * defined in the file that owns its struct, beside the code that writes it. A snapshot is written
 * and read through gait__world_layout and gait__character_layout (snapshot.c); a new member of
 * any of these structs needs its row (tests/unit/test_layout.c fails until it has one). */
#ifndef GAIT_LAYOUTS_H
#define GAIT_LAYOUTS_H

#include "core/layout.h"

/* Bounds of what a step can make from what the API takes (GAIT_WORLD_LIMIT):
 *   POS: a body's feet (m). Placed within the limit, a body may walk or fall on past it; twice
 *        the limit is centuries of falling at any speed the numbers allow.
 *   NEAR: a point found near a body (m): the camera's eye, a scan's ledge, an action's path.
 *   SPEED: a velocity (m/s): two feet within POS over the shortest step (1 ms). */
#define GAIT__POS_LIMIT (2 * GAIT_WORLD_LIMIT)
#define GAIT__NEAR_LIMIT (2 * GAIT__POS_LIMIT)
#define GAIT__SPEED_LIMIT (2 * GAIT__POS_LIMIT / 0.001)

extern const gait__ltable gait__world_layout;          /* struct gait_world (world.c) */
extern const gait__ltable gait__character_layout;      /* gait__character (character.c) */
extern const gait__ltable gait__phase_layout;          /* gait_phase (locomotion.c) */
extern const gait__ltable gait__contact_layout;        /* gait_contact (locomotion.c) */
extern const gait__ltable gait__locomotion_layout;     /* gait_locomotion (locomotion.c) */
extern const gait__ltable gait__stamina_layout;        /* gait_stamina (stamina.c) */
extern const gait__ltable gait__camera_layout;         /* gait_camera (camera.c) */
extern const gait__ltable gait__anim_layout;           /* gait_anim (anim.c) */
extern const gait__ltable gait__body_layout;           /* gait__body (body.c) */
extern const gait__ltable gait__crouch_layout;         /* gait__crouch (crouch.c) */
extern const gait__ltable gait__traverse_layout;       /* gait__traverse (traverse.c) */
extern const gait__ltable gait__traverse_query_layout; /* gait_traverse_query (traverse.c) */
extern const gait__ltable gait__traverse_scan_layout;  /* gait_traverse_scan (traverse.c) */
extern const gait__ltable gait__motion_layout;         /* gait__motion (motion.c) */

#endif
