/* Internal: the world and character structs, shared by world.c, body.c and script.c. */
#ifndef GAIT_WORLD_INTERNAL_H
#define GAIT_WORLD_INTERNAL_H

#include "gait/world.h"
#include "gait/anim.h"
#include "gait/camera.h"
#include "body.h"
#include "core/core.h"
#include "traverse.h"  /* traversal and crouch memory (traverse.c) */

typedef struct gait__character {
    uint32_t generation;        /* bumped on destroy; ids carry it */
    bool alive;
    void *user_data;

    /* pose, at the last step and the one before (for the blended draw) */
    gait_vec3 position, prev_position; /* feet (m) */
    double yaw, prev_yaw;              /* rad */
    gait_vec3 velocity;                /* m/s over the last step */

    gait_phase phase;
    gait_state previous_state;
    gait_contact contact;              /* left by the last move, read by the next gates */
    gait_stamina stamina;
    gait_body_type body_type;

    /* input: levels and move replaced each frame; presses accumulate until a step reads them */
    double move_x, move_y;
    uint32_t held;
    uint32_t pressed;
    uint32_t presses_read;             /* what the last step read */
    bool walking, crouching;           /* switches toggled by presses */
    double camera_yaw;                 /* moves are relative to it (= camera.yaw) */
    gait_camera camera;                /* turned once a frame, follows the blended body */
    bool camera_enabled;
    gait_anim anim;                    /* resolved after each step */

    double action_left;                /* s of the kit action, 0 when none */
    char action_name[32];

    gait_vec3 return_point;            /* drowning returns here */
    double return_yaw;

    gait_gate_hook gate_hook;
    void *gate_user;

    uint64_t steps;
    gait__body body;                   /* the body's own memory between steps */
    gait__traverse trav;               /* traversal action, scan and crouch (traverse.c) */
} gait__character;

struct gait_world {
    gait_hooks hooks;
    gait_clock clock;
    uint64_t steps;                    /* fixed steps run (by update or step) */
    gait_collider *collider;
    gait_locomotion provisional;
    gait_locomotion measured[GAIT_BODY_TYPE_COUNT];
    bool is_measured[GAIT_BODY_TYPE_COUNT];
    gait__character *characters;
    int capacity;
    int count;                         /* alive */
    char error[256];
    gait_traverse_table traverse_table; /* traverse.c: the action table every character uses */
    gait_debug_draw debug_draw;        /* traverse.c: gait_world_draw_debug's callbacks */
};

/* The character an id names, or NULL when stale (and the world's error says why). */
gait__character *gait__character_get(gait_world *world, gait_character_id id);
const gait__character *gait__character_get_const(const gait_world *world, gait_character_id id);

#endif
