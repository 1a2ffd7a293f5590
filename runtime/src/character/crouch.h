/* Internal: the crouch (crouch.c; docs/behaviour.md, "Crouch"). Its memory between steps, the
 * probes the sense stage asks it for, its rules as pure functions the gates call, and the one
 * move it makes itself (a fall from a crouch begun where the body can stand). */
#ifndef GAIT_CROUCH_INTERNAL_H
#define GAIT_CROUCH_INTERNAL_H

#include "gait/crouch.h"
#include "gait/locomotion.h"

typedef struct gait__crouch {
    bool auto_crouch;              /* crouched by a low opening ahead */
    bool auto_under;               /* ... and has since been under it (no room to stand) */
    double auto_seconds;           /* s since the auto crouch began */
    bool stand_blocked;            /* the stand-up check refused this step */
    int hover;                     /* steps a crouched body has read "not grounded" with ground
                                      within a step below (a flicker at an edge is held, a drop is
                                      not) */
    bool air;                      /* fell from a crouch with no room to stand, or with the
                                      switch on: the body keeps the crouched capsule in the air
                                      until there is room and the switch is off, and lands
                                      crouched */
} gait__crouch;

/* ---- probes (the sense stage asks) ------------------------------------------------------- */

/* No room to stand at feet for a body of these numbers. */
bool gait__crouch_low_ceiling(const gait_collider *collider, gait_vec3 feet,
                              const gait_locomotion *numbers);
/* A low opening ahead along dir (unit, horizontal): the standing capsule is stopped within
 * OPENING_STAND_REACH, the crouched one is not within OPENING_CROUCH_REACH (a vent). Its
 * queries go through gather (may be NULL). */
bool gait__crouch_opening_ahead(const gait_collider *collider, gait_gather *gather, gait_vec3 feet,
                                gait_vec3 dir, const gait_locomotion *numbers);

/* ---- rules (the gates call; pure) --------------------------------------------------------- */

/* Whether a crouch's low-ceiling reading is needed this step (it costs an overlap query):
 * crouched, or falling with the crouched capsule. */
bool gait__crouch_needs_ceiling(const gait__crouch *memory, gait_state state);

/* Before the locomotion gates: the crouch the gates see (the switch, a low opening, the
 * stand-up check, a fall with the crouched capsule). `low_ceiling` and `opening` are the sense
 * stage's readings; `crouching` the switch; `stand_seconds` (s) how long an auto crouch whose
 * opening is never entered lasts (the traversal table's auto_crouch_stand_seconds). Updates
 * *memory. */
bool gait__crouch_before(gait__crouch *memory, gait_state state, bool crouching, bool low_ceiling,
                         bool opening, double stand_seconds, double dt);

/* After the locomotion gates proposed `proposed` from `from`: a crouched body leaves its short
 * capsule only where it can stand. `crouching` is the crouch the gates saw (gait__crouch_before's
 * answer). Returns the state to take; *drop is set when the ground dropped away under a crouched
 * body beneath a low ceiling (the move stage then starts the fall where it can stand:
 * gait__crouch_drop); with the switch on the fall keeps the crouched capsule (memory->air).
 * Updates *memory. */
gait_state gait__crouch_after(gait__crouch *memory, gait_state from, gait_state proposed,
                              const gait_contact *contact, bool low_ceiling, bool crouching,
                              const gait_locomotion *numbers, bool *drop);

/* ---- moves -------------------------------------------------------------------------------- */

/* The first part of a fall from a crouch under a low ceiling, taken crouched and straight down
 * to the first height where the standing capsule fits (up to DROP_STEPS x DROP_STEP); then
 * whether the fall keeps the crouched capsule (memory->air: no room there, or the switch on). */
void gait__crouch_drop(gait__crouch *memory, const gait_collider *collider, gait_vec3 *feet,
                       const gait_locomotion *numbers);

/* The capsule's height (m) in this state: crouched or standing. */
double gait__crouch_capsule_height(const gait__crouch *memory, gait_state state,
                                   const gait_locomotion *numbers);

#endif
