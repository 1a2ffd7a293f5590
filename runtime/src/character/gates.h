/* Internal: the gates (gates.c; docs/behaviour.md, "States and transitions"): one pure function,
 * in two halves around the ledge scan, from the step's input, the contact and the senses to the
 * next state — the locomotion state machine (gait_locomotion_next), the crouch's rules and the
 * traversal's transitions. Hooks run after it, in the step. */
#ifndef GAIT_GATES_H
#define GAIT_GATES_H

#include "crouch.h"
#include "sense.h"

typedef struct gait__gates_in {
    gait_phase phase;
    gait_gate_input input;          /* the step's input; crouching is the switch */
    const gait_contact *contact;    /* as the sense stage wrote it */
    const gait__senses *senses;     /* its readings (the ledge filled between the halves) */
    const gait_locomotion *numbers;
    gait__crouch crouch;            /* the crouch's memory */
    double cooldown;                /* s before a chained traversal may start */
    bool action_playing;            /* a traversal action is playing */
    bool can_traverse;              /* the traversal table has rows */
    double auto_stand_seconds;      /* s an auto crouch never entered lasts (the table's
                                       auto_crouch_stand_seconds) */
    gait_vec3 move_dir;             /* unit horizontal move, zero when none */
    gait_vec3 facing;               /* unit horizontal facing */
    double speed;                   /* m/s horizontal over the last step */
    bool on_terrain_wall;           /* climbing the terrain (a cliff), not a landmark */
    gait_vec3 wall_normal;          /* of the wall climbed */
    double dt;                      /* s */
} gait__gates_in;

typedef struct gait__gates_out {
    gait_gate_input input;          /* the input the locomotion gates read (the crouch applied) */
    gait_state proposed;            /* the locomotion state machine's answer */
    gait__ledge_request request;    /* propose: a ledge the traversal could take */
    gait_state next;                /* decide: the state to take */
    gait_state fallback;            /* decide: the state should a hook refuse the traversal */
    bool ledge;                     /* decide: a ledge with room was read where a traversal could
                                       start (the traversal hook may change the action) */
    gait_traverse_kind action;      /* decide: the action the table offered there (may be NONE) */
    int action_row;
    bool drop;                      /* decide: a crouched body's fall starts where it can stand
                                       (the move stage: gait__crouch_drop) */
    gait__crouch crouch;            /* the crouch's memory after the step */
    double cooldown;                /* the traversal's cooldown after the step */
} gait__gates_out;

/* The first half: the crouch the gates see, the locomotion state machine's proposal, and
 * whether a ledge is worth scanning. Pure. */
void gait__gates_propose(const gait__gates_in *in, gait__gates_out *out);
/* The second half, once the ledge (if asked) is in in->senses: the crouch's transitions, the
 * traversal's, the state to take. Pure. */
void gait__gates_decide(const gait__gates_in *in, gait__gates_out *out);

#endif
