/* gait — locomotion states, a body type's numbers, and the gates as a pure
 * function (docs/behaviour.md, "States and transitions").
 *
 * The gates decide the next state from: the body's phase (state + seconds in it), the step's
 * input, the contact (what the world says of the body) and the stamina left. They know nothing
 * of Lua, GLFW or GL, allocate nothing and keep no state: the same arguments give the same
 * answer. */
#ifndef GAIT_LOCOMOTION_H
#define GAIT_LOCOMOTION_H

#include "gait/schema.h"
#include "gait/types.h"
#include "gait/input.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gait_state {
    GAIT_STATE_IDLE = 0,   /* on foot, no move */
    GAIT_STATE_WALK,       /* on foot, walk switch on or stick pushed part way */
    GAIT_STATE_RUN,        /* on foot, moving */
    GAIT_STATE_DASH,       /* on foot, a burst of speed for dash_seconds */
    GAIT_STATE_SPRINT,     /* on foot, sprint held after a dash */
    GAIT_STATE_CROUCH,     /* on foot, crouched (shorter capsule; "Crouch") */
    GAIT_STATE_JUMP,       /* in the air, still rising from a jump */
    GAIT_STATE_FALL,       /* in the air, falling */
    GAIT_STATE_GLIDE,      /* in the air, under the glider */
    GAIT_STATE_PLUNGE,     /* in the air, plunging down (an attack from high enough) */
    GAIT_STATE_CLIMB,      /* on a wall */
    GAIT_STATE_CLIMB_JUMP, /* a jump up along the wall, for climb_jump_seconds */
    GAIT_STATE_SWIM,       /* in deep water */
    GAIT_STATE_SWIM_DASH,  /* swimming fast, sprint held */
    GAIT_STATE_DROWN,      /* stamina ran out in water; lasts drown_seconds */
    GAIT_STATE_TRAVERSE,   /* a vault / mantle / hurdle action ("Traversal") */
    GAIT_STATE_ACTION,     /* a kit's (or a world gadget's) moving action (gait/motion.h) */
    GAIT_STATE_COUNT
} gait_state;

/* "idle", "walk", "run", "dash", "sprint", "crouch", "jump", "fall", "glide", "plunge", "climb",
 * "climb_jump", "swim", "swim_dash", "drown", "traverse", "action"; NULL when out of range. */
const char *gait_state_name(gait_state state);
/* The state named `name`, or -1. */
int gait_state_from_name(const char *name);
bool gait_state_on_foot(gait_state state);   /* idle, walk, run, dash, sprint, crouch */
bool gait_state_airborne(gait_state state);  /* jump, fall, glide, plunge */
bool gait_state_in_water(gait_state state);  /* swim, swim_dash, drown */
bool gait_state_on_wall(gait_state state);   /* climb, climb_jump */

/* Stamina costs (docs/behaviour.md, "Stamina"). Source: Genshin Impact Wiki, "Stamina", unless marked provisional. */
typedef struct gait_stamina_costs {
    double dash;              /* 18, taken as a dash starts */
    double sprint_per_s;      /* 18 / s while sprinting */
    double climb_per_s;       /* provisional: 6 / s while the body moves on a wall (the wiki
                                 leaves it unknown); standing still on a wall costs nothing */
    double climb_start_min;   /* 5: stamina needed to start a climb from the ground */
    double climb_jump;        /* 25, taken as a climb jump starts */
    double glide_per_s;       /* 3 / s under the glider (the wiki's approximation) */
    double swim_stroke;       /* 4 a stroke: one as a swim starts, one each stroke on */
    double swim_stroke_seconds; /* provisional: 1.0 s between strokes, moving or treading */
    double swim_dash_start;   /* 2, taken as a swim dash starts */
    double swim_dash_per_s;   /* 10.2 / s while a swim dash moves */
} gait_stamina_costs;

/* A body type's locomotion numbers (docs/behaviour.md, "The numbers"). Units: m, s, m/s, rad. Defaults are the
 * provisional numbers (gait_default_locomotion); scripts/tuning/ holds the measured ones. */
typedef struct gait_locomotion {
    double walk_speed;          /* m/s, default 1.9 (provisional) */
    double run_speed;           /* m/s, default 5.6 (provisional) */
    double sprint_speed;        /* m/s, default 8.0 (provisional) */
    double dash_speed;          /* m/s, default 11.0 (provisional) */
    double dash_seconds;        /* s a dash lasts, default 0.35 (provisional) */
    double jump_height;         /* m the feet rise at the apex, default 1.2 (provisional) */
    double gravity;             /* m/s^2, default 20.0 (provisional: the game falls faster than 9.81) */
    double air_control;         /* m/s^2 of horizontal steering in the air, default 8.0 (provisional) */
    double glide_speed;         /* m/s horizontal under the glider, default 7.5 (provisional) */
    double glide_sink;          /* m/s downward under the glider, default 1.8 (provisional) */
    double plunge_speed;        /* m/s downward in a plunge, default 30.0 (provisional) */
    double max_fall_speed;      /* m/s terminal falling speed, default 50.0 (provisional) */
    double climb_speed;         /* m/s on a wall, default 1.6 (provisional) */
    double climb_jump_height;   /* m a climb jump rises, default 2.0 (provisional) */
    double climb_jump_seconds;  /* s a climb jump lasts, default 0.45 (provisional) */
    double swim_speed;          /* m/s, default 2.3 (provisional) */
    double swim_dash_speed;     /* m/s, default 4.6 (provisional) */
    double drown_seconds;       /* s the drowning lasts before the return, default 2.0 (provisional) */
    double step_height;         /* m the feet follow up or down without leaving the ground,
                                   default 0.3 (provisional) */
    double max_walk_slope;      /* rad, steepest walkable slope, default 45 deg (provisional) */
    double walk_slope_hysteresis; /* rad past max_walk_slope a body already standing keeps
                                   standing (no stand/fall flicker on ground either side of the
                                   limit), default 3 deg (provisional) */
    double wading_depth;        /* m of water the body stands in before it swims; it floats with
                                   its feet this deep, default 1.2 (provisional) */
    double swim_float_speed;    /* m/s a swimming body rises or sinks towards that float line,
                                   default 2.0 (provisional) */
    double glider_min_height;   /* m above the ground needed to open the glider or plunge,
                                   default 2.5 (provisional) */
    double capsule_radius;      /* m, default 0.3 (provisional) */
    double capsule_height;      /* m, feet to top, default 1.7 (provisional) */
    double crouch_height;       /* m, crouched capsule height, default 0.8 (provisional: about half
                                   the standing height; fits a 0.9 m vent) */
    double crouch_speed;        /* m/s crouched, default 1.5 (provisional) */
    double fall_catch_seconds;  /* s a fall must last before it catches a wall, default 0.3 */
    double walk_stick_threshold;/* stick length below which a move walks, default 0.5 */
    double move_epsilon;        /* stick length below which there is no move, default 0.01 */
    double swim_exit_margin;    /* m: swimming ends where the water is this much shallower than
                                   wading_depth (hysteresis at the shore), default 0.05 */
    gait_stamina_costs costs;
} gait_locomotion;

gait_stamina_costs gait_default_stamina_costs(void);
gait_locomotion gait_default_locomotion(void);
/* Every number's unit, range, default, source and tuning file (gait/schema.h); the costs are
 * the group "costs". gait_locomotion_validate checks against it. */
const gait_schema *gait_locomotion_schema(void);
/* Checks every number (finite, in range); on failure writes "field: reason" to err. */
gait_status gait_locomotion_validate(const gait_locomotion *numbers, char *err, size_t err_cap);

/* The body's phase: its state and the seconds it has been in it. */
typedef struct gait_phase {
    gait_state state;
    double seconds;
} gait_phase;

/* What the world says of the body this step (filled by the body from its last move). */
typedef struct gait_contact {
    bool grounded;              /* the feet stand on walkable ground */
    bool rising;                /* still rising (vertical velocity > 0) */
    double height_above_ground; /* m from the feet down to what lies below; +INFINITY for none */
    double water_depth;         /* m from the water surface down to the ground under the body;
                                   0 where there is no water */
    double submersion;          /* m the feet are below the water surface; <= 0 above it or dry */
    bool wall;                  /* touches a surface too steep to walk (a climbable wall) */
    bool wall_ahead;            /* ... and the move (or, gliding, the facing) points into it */
    bool over_top;              /* climbing: past the wall's top, walkable ground beyond */
    bool steep;                 /* in the air, resting on ground too steep to stand on (it slides
                                   down it) */
} gait_contact;

/* The step's input as the gates read it. */
typedef struct gait_gate_input {
    double move;                /* stick length after clamping, [0, 1] */
    double move_up;             /* stick's forward component (+ = W), [-1, 1]: climbs up/down */
    bool walking;               /* the walk switch is on */
    bool crouching;             /* the crouch switch is on and there is room ("Crouch") */
    uint32_t pressed;           /* gait_button presses this step reads */
    uint32_t held;              /* gait_button levels */
    double stamina;             /* stamina left */
    double stamina_multiplier;  /* consumption multiplier (costs and thresholds are multiplied) */
} gait_gate_input;

/* Deep water: more than wading_depth of water with the feet at least wading_depth under its
 * surface (the body swims). Pure. */
bool gait_locomotion_deep_water(double water_depth, double submersion,
                                const gait_locomotion *numbers);

/* The next state. Pure: no side effect, no allocation. */
gait_state gait_locomotion_next(const gait_phase *phase, const gait_gate_input *input,
                                const gait_contact *contact, const gait_locomotion *numbers);

/* True when from -> to is an edge of docs/behaviour.md's state tables (or from == to). On-foot sub-states (idle, walk,
 * run, crouch) switch among themselves freely. */
bool gait_locomotion_is_edge(gait_state from, gait_state to);

#ifdef __cplusplus
}
#endif
#endif
