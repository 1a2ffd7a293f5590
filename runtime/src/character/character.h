/* Internal: a character — everything a step reads and writes for one body, grouped by the stage
 * that owns each part (docs/design.md, "A character"). A snapshot holds it through its layout
 * table (character.c; a new member needs its row there: docs/design.md, "Snapshots"); the state
 * hash reads it member by member (snapshot.c). */
#ifndef GAIT_CHARACTER_H
#define GAIT_CHARACTER_H

#include "gait/anim.h"
#include "gait/camera.h"
#include "gait/world.h"
#include "body.h"
#include "core/trig.h"
#include "crouch.h"
#include "motion.h"
#include "traverse_internal.h"

typedef struct gait__character {
    uint32_t generation;        /* bumped on destroy; ids carry it */
    bool alive;
    int free_next;              /* dead: the next free slot (-1: the last); the world's free
                                   list, in the order destroys left them (the last destroyed is
                                   reused first) */
    void *user_data;

    /* pose, at the last step and the one before (for the blended draw): the move stage's */
    gait_vec3 position, prev_position; /* feet (m) */
    double yaw, prev_yaw;              /* rad */
    gait_vec3 velocity;                /* m/s over the last step */

    gait_phase phase;                  /* the gates' */
    gait_state previous_state;
    gait_contact contact;              /* the sense stage's (sense.c), read by the next gates */
    gait_stamina stamina;              /* the stamina stage's */
    gait_body_type body_type;

    /* input: levels and move replaced each frame; presses accumulate until a step reads them */
    double move_x, move_y;
    uint32_t held;
    uint32_t pressed;
    uint32_t presses_read;             /* what the last step read */
    bool walking, crouching;           /* switches toggled by presses */
    double camera_yaw;                 /* moves are relative to it (= camera.yaw) */
    double climb_turn;                 /* rad: a climb begun by a stick held some other way than
                                          forward reads that way as up until the stick is let go
                                          (intent.c); 0 for none */
    gait_camera camera;                /* turned once a frame, follows the blended body */
    bool camera_enabled;

    /* a kit's still action: it holds the body (the move is zeroed); a moving action is the
     * motion's below (motion.c) */
    double action_left;                /* s of the kit action, 0 when none */
    char action_name[32];

    gait_vec3 return_point;            /* drowning returns here */
    double return_yaw;

    /* contact with other characters (crowd.c): whether it blocks and is blocked, its layer bits
     * and the layers it meets; a pair meets when both collide and each one's layer is in the
     * other's mask */
    bool collide;
    uint32_t collision_layer, collision_mask;

    /* a moving landmark after the last move (step.c; read by hosts, not by the next step): the
     * one stood on, its velocity under the feet (m/s), whether it holds the body inside it */
    gait_landmark_id carrier;
    gait_vec3 carrier_velocity;
    bool crushed;

    gait_gate_hook gate_hook;
    void *gate_user;

    uint64_t steps;
    gait__body body;                   /* the body's memory between steps (body.c) */
    gait__crouch crouch;               /* the crouch's (crouch.c) */
    /* the step's trigonometry of its yaw, its camera's yaw, its stick's heading and its walkable
     * slope, remembered
     * (core/trig.h: the same bits as the calls; a cache, not state: snapshots hold it as zeros) */
    gait__sincos_memo yaw_trig, camera_trig;
    gait__atan2_memo heading_trig;
    gait__cos_memo walk_slope_trig, stand_slope_trig;
    /* Last, the three parts whose tails a create leaves alone (character.c): the traversal's
     * last scan (read only once scanned), the anim's clip map (the shared default until a state
     * is renamed) and the motion's large parts (read only while in use). Everything before the
     * scan is zeroed at create. */
    gait__traverse trav;               /* the traversal action and its last scan (traverse_*.c) */
    gait_anim anim;                    /* resolved after each step */
    gait__motion motion;               /* a kit's requests, moving action, modes, cooldowns
                                          (motion.c) */
} gait__character;

#endif
