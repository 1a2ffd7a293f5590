/* gait — crouching (docs/behaviour.md, "Crouch"): the stand-up check a host can ask too.
 *
 * A crouched body is crouch_height tall. It stands up only where the standing capsule fits; it
 * crouches by itself to enter a low opening it walks into; falling from a crouch under a low
 * ceiling keeps the crouched capsule until there is room. What a character's crouch is doing is
 * in gait_traverse_info (auto_crouch, stand_blocked, crouch_air). */
#ifndef GAIT_CROUCH_H
#define GAIT_CROUCH_H

#include "gait/collide.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether a body standing at feet could stand up: no overlap in the part of the standing
 * capsule (radius, height; m) above the crouched one (crouch_height). filter may be NULL
 * (nothing skipped). Pure. True for input it cannot judge (NULL collider, NaN, height not above
 * crouch_height). */
bool gait_crouch_room_to_stand(const gait_collider *collider, gait_vec3 feet, double radius,
                               double crouch_height, double height, const gait_filter *filter);

#ifdef __cplusplus
}
#endif
#endif
