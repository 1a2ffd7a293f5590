/* Internal: a character's traversal memory and the three calls world.c makes into traverse.c
 * (SPEC §7 crouch, §8 traversal). */
#ifndef GAIT_TRAVERSE_INTERNAL_H
#define GAIT_TRAVERSE_INTERNAL_H

#include "gait/traverse.h"

struct gait__character;

typedef struct gait__traverse {
    gait_traverse_query query;     /* the last scan's query (the debug view re-runs it) */
    gait_traverse_scan scan;       /* the last scan */
    bool scanned;                  /* query/scan hold something */
    bool pending;                  /* the gates chose TRAVERSE this step: start it in the move */
    gait_traverse_kind pending_kind;
    int pending_row;
    gait_traverse_kind kind;       /* the action playing */
    gait_traverse_phase phase;
    double seconds;                /* s in the action */
    double blocked;                /* s the path has been blocked (ends the action) */
    int actions;
    gait_vec3 origin, in;          /* front edge at the grab point; horizontal into the obstacle */
    double ledge_y;                /* m */
    double corridor;               /* m past the front face the feet may go */
    gait_vec3 path[4];             /* feet waypoints after the approach */
    int path_count, path_next;
    double rise_speed, cross_speed;/* m/s */
    double drop_speed;             /* m/s horizontal carried into the drop */
    bool latch;
    gait_vec3 latch_min, latch_max;
    gait_landmark_id latch_landmark;
    double cooldown;               /* s */
    bool auto_crouch;              /* crouched by a low opening ahead */
    bool auto_under;               /* ... and has since been under it (no room to stand) */
    double auto_seconds;           /* s since the auto crouch began */
    bool stand_blocked;
    int crouch_hover;              /* steps a crouched body has read "not grounded" with ground within
                                      a step below (a flicker at an edge is held, a drop is not) */
    bool crouch_air;               /* fell from a crouch with no room to stand: the body keeps the
                                      crouched capsule in the air until there is room (body.c's
                                      body_mover reads it) and lands crouched */
    gait_traverse_hook hook;       /* the host's action hook (not part of the simulation) */
    void *hook_user;
} gait__traverse;

/* Before the gates: the stand-up check and the low opening (may set gi->crouching). */
void gait__traverse_pre_gates(gait_world *world, struct gait__character *ch,
                              const gait_locomotion *numbers, gait_gate_input *gi, double dt);
/* After the gates: starts, chains or ends an action; returns the state to take. */
gait_state gait__traverse_gates(gait_world *world, gait_character_id id, struct gait__character *ch,
                                const gait_locomotion *numbers, const gait_gate_input *gi,
                                gait_state proposed);
/* The move of a body in GAIT_STATE_TRAVERSE (instead of gait__body_move). */
void gait__traverse_move(gait_world *world, struct gait__character *ch,
                         const gait_locomotion *numbers, gait_state from, double dt);

#endif
