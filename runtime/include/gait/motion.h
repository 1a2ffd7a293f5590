/* gait — kits that move the body: launches, moving actions, moves toward a point or a character,
 * alternate movement modes, cooldowns, and the world's traversal gadgets made of the same verbs.
 *
 * A kit decides, the C step moves. Every call here stores a request or data in the character
 * (so a snapshot carries it); the next fixed step reads it in its motion stage — after the gates,
 * before the gate hook, so the hook sees the change of state — and moves the body through the one
 * mover (gait/mover.h): it collides, slides, steps, never tunnels and never ends inside geometry.
 * Nothing here runs script code inside the mover: a moving action's velocity is data (a constant,
 * keyframes, a path) or, at most, one call a step of the character's move hook, before the move.
 *
 *   launch       a velocity set or added; the body is airborne as after a jump (jump while it
 *                rises, else fall), so the glider, the plunge and wall catches follow as usual;
 *   move         a moving action, state GAIT_STATE_ACTION: for `seconds` (or until an end
 *                condition or a press) the body moves by the action's velocity, with its own
 *                gravity scale, stamina drain, clip; then hands over (`then`);
 *   move to      the same, toward points in turn or another character, arriving within a
 *                distance, then ending or hanging there;
 *   mode         replaces one state's rules while it holds (its speed, its sink, its costs, the
 *                water's surface as a floor); the gates are left as they are;
 *   cooldown     a per-button timer the step counts down (a kit's state, in the character);
 *   gadgets      world data (an updraft, a wind current, a grapple point, a bounce pad) that
 *                issue the same requests for any body, with no kit.
 *
 * Every function checks its arguments and changes nothing on failure (the world's last error
 * says why). Units: m, s, m/s; y is up; yaw 0 faces +z. Docs: lua/README.md ("Kits that move
 * the body"). */
#ifndef GAIT_MOTION_H
#define GAIT_MOTION_H

#include "gait/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GAIT_MOVE_MAX_KEYS 8        /* keyframes of a moving action */
#define GAIT_MOVE_MAX_POINTS 8      /* points of a path (move to, a wind current) */
#define GAIT_MOTION_NAME_MAX 32     /* bytes of a name, with its terminating zero */
#define GAIT_MOTION_MAX_SECONDS 3600.0
#define GAIT_MOTION_MAX_SPEED 200.0 /* m/s of any velocity a kit gives (a launch, an action) */
#define GAIT_MODE_MAX 4             /* modes held at once (one per state) */

/* The frame a velocity is given in. BODY: x to the body's right, y up, z the way it faces — taken
 * as the body faces when the launch or the action starts. */
typedef enum gait_frame {
    GAIT_FRAME_BODY = 0,
    GAIT_FRAME_WORLD
} gait_frame;

/* ---- launch ------------------------------------------------------------------------------- */

typedef struct gait_launch_def {
    gait_vec3 velocity;         /* m/s in `frame`; each part within +-GAIT_MOTION_MAX_SPEED */
    gait_frame frame;
    bool add;                   /* add to the velocity the body carries instead of replacing it */
} gait_launch_def;

/* The next step sets (or adds) the velocity and puts the body in the air: jump while it rises,
 * fall otherwise; it ends a moving action. Refused (INVALID_ARGUMENT) while drowning. A crouched
 * body under a low ceiling stays where it is (the launch is dropped), as a jump would. */
gait_status gait_character_launch(gait_world *world, gait_character_id id,
                                  const gait_launch_def *def);

/* ---- moving actions ----------------------------------------------------------------------- */

typedef enum gait_move_kind {
    GAIT_MOVE_VELOCITY = 0,     /* a constant velocity */
    GAIT_MOVE_KEYS,             /* keyframes: the velocity linear between them, the last held */
    GAIT_MOVE_HOOK,             /* the character's move hook gives it each step */
    GAIT_MOVE_TO_POINTS,        /* toward each point in turn, at `speed` */
    GAIT_MOVE_TO_CHARACTER,     /* toward another character's feet (+ offset), at `speed` */
    GAIT_MOVE_KIND_COUNT
} gait_move_kind;

typedef struct gait_move_key {
    double t;                   /* s from the action's start; ascending, the first 0 */
    gait_vec3 velocity;         /* m/s in the action's frame */
} gait_move_key;

/* What ends a moving action (bits of gait_move_def.end_on). Its seconds running out always
 * does, and so does deep water (the gates then swim); a move toward points or a character also
 * ends when it is blocked (no nearer for 0.2 s: slid into a corner) or its target is gone. */
enum {
    GAIT_END_LAND = 1u << 0,     /* standing on the ground after being in the air during it */
    GAIT_END_WALL = 1u << 1,     /* its move met a wall */
    GAIT_END_CEILING = 1u << 2,  /* its move met a ceiling */
    GAIT_END_STAMINA = 1u << 3,  /* the pool ran dry */
    GAIT_END_PRESS = 1u << 4,    /* one of cancel_buttons was pressed */
    GAIT_END_ALL = 0x1Fu
};

/* The state a moving action hands the body to when it ends. */
typedef enum gait_move_then {
    GAIT_THEN_AUTO = 0,         /* the gates' answer as if on foot (grounded) or falling: the body
                                   keeps the velocity the action left it */
    GAIT_THEN_STOP,             /* the same with the velocity dropped */
    GAIT_THEN_GLIDE,            /* the glider opens (stamina left and off the ground; else AUTO) */
    GAIT_THEN_PLUNGE,           /* a plunge, at any height (off the ground; else AUTO) */
    GAIT_THEN_COUNT
} gait_move_then;

/* What a move toward a point or a character does when it arrives (within arrive_distance of
 * its last point). */
typedef enum gait_arrive {
    GAIT_ARRIVE_END = 0,        /* the action ends (`then`) */
    GAIT_ARRIVE_HANG,           /* holds there, no gravity, until a cancel press (see end_on) or
                                   hang_seconds, then ends */
    GAIT_ARRIVE_COUNT
} gait_arrive;

typedef struct gait_move_def {
    const char *name;           /* ch:action(), the HUD; < GAIT_MOTION_NAME_MAX bytes; NULL "move" */
    const char *clip;           /* the animation signal's clip while it plays (< 48 bytes); NULL
                                   or "" plays the clip map's "action" entry */
    double fade_seconds;        /* crossfade into it (s, [0, 10]); 0: the anim def's */
    gait_move_kind kind;
    gait_frame frame;           /* of velocity, keys and the hook's answer */
    double seconds;             /* the most it lasts, (0, GAIT_MOTION_MAX_SECONDS] */
    gait_vec3 velocity;         /* VELOCITY: m/s */
    int key_count;              /* KEYS: 1..GAIT_MOVE_MAX_KEYS */
    gait_move_key keys[GAIT_MOVE_MAX_KEYS];
    int point_count;            /* TO_POINTS: 1..GAIT_MOVE_MAX_POINTS */
    gait_vec3 points[GAIT_MOVE_MAX_POINTS];
    gait_character_id target;   /* TO_CHARACTER: whom (not the mover itself) */
    gait_vec3 offset;           /* TO_CHARACTER: m added to the target's feet */
    double speed;               /* TO_*: m/s, (0, GAIT_MOTION_MAX_SPEED] */
    double arrive_distance;     /* TO_*: m, [0, 100]: arrived within it */
    bool horizontal;            /* TO_*: along the ground, the targets' heights ignored */
    gait_arrive arrive;         /* TO_* */
    double hang_seconds;        /* GAIT_ARRIVE_HANG: the most it hangs (s, [0, 3600]; 0: until
                                   the action's seconds run out) */
    double gravity_scale;       /* [0, 10]: this times the body's gravity, from the start of the
                                   action, is added to the vertical velocity (0: none) */
    double start_cost;          /* stamina taken as it starts (times the pool's multiplier), [0,
                                   1e6]; it does not start when the pool cannot pay */
    double drain_per_s;         /* stamina per s while it plays, [0, 1e6] */
    uint32_t end_on;            /* GAIT_END_* bits */
    uint32_t cancel_buttons;    /* gait_button presses that end it (with GAIT_END_PRESS) */
    gait_move_then then;
} gait_move_def;

/* A def with every field at its default: VELOCITY in the body frame, 1 s, nothing that ends it
 * early, then AUTO; speed 10 m/s and arrive_distance 0.5 m for the TO_ kinds. */
gait_move_def gait_default_move_def(void);

/* The next step starts the moving action (state GAIT_STATE_ACTION), replacing any playing; it
 * moves from that step on. CAPACITY (nothing stored) when the pool cannot pay start_cost now;
 * INVALID_ARGUMENT for a def out of range (the message names the field) or while drowning. */
gait_status gait_character_start_move(gait_world *world, gait_character_id id,
                                      const gait_move_def *def);
/* Ends the moving action the next step (then its `then`); a request not yet started is dropped.
 * OK when there is none. */
gait_status gait_character_end_move(gait_world *world, gait_character_id id);

/* A GAIT_MOVE_HOOK action's velocity, asked once a step before the move with t the action's
 * seconds at the middle of the step. Write *velocity (m/s, in the action's frame) and return true,
 * or return false to end the action. It must be deterministic (the same t, the same answer) and
 * cheap; it may read the world but not step, restore or destroy it. NULL removes it (a HOOK
 * action then ends). Like the gate hook, it is the host's: a snapshot keeps the hook in place. */
typedef bool (*gait_move_hook)(gait_world *world, gait_character_id id, double t,
                               gait_vec3 *velocity, void *user);
gait_status gait_character_set_move_hook(gait_world *world, gait_character_id id,
                                         gait_move_hook hook, void *user);
gait_status gait_character_move_hook(const gait_world *world, gait_character_id id,
                                     gait_move_hook *out_hook, void **out_user);

/* ---- alternate movement modes ------------------------------------------------------------- */

typedef struct gait_mode_def {
    gait_state state;           /* whose rules it replaces: walk, run, sprint (with the dash),
                                   crouch, fall, glide, swim, swim_dash or climb */
    const char *name;           /* < GAIT_MOTION_NAME_MAX bytes; NULL: the state's name */
    const char *clip;           /* the clip while it applies (< 48 bytes); NULL or "": the state's */
    double seconds;             /* how long it holds, [0, 3600]; 0: until cleared */
    double speed;               /* m/s in the state, [0, GAIT_MOTION_MAX_SPEED]; 0: the state's
                                   own (fall: the most the stick steers it at) */
    double sink;                /* m/s down, [0, 100]; fall: its terminal speed (a hover), glide:
                                   its sink; 0: the state's own */
    double start_cost;          /* stamina taken as the state starts, [0, 1e6]: replaces its own */
    double drain_per_s;         /* stamina per s in the state, [0, 1e6]: replaces its own costs */
    bool flat_cost;             /* costs not multiplied by the pool's consumption multiplier */
    bool walk_on_water;         /* on foot: the water's surface holds the feet */
    bool end_when_empty;        /* the mode ends when the pool runs dry in its state */
} gait_mode_def;

gait_mode_def gait_default_mode_def(void); /* state sprint, every number the state's own */

/* Sets (or replaces) the mode for def->state; it applies from the next step. CAPACITY when
 * GAIT_MODE_MAX modes are held for other states. */
gait_status gait_character_set_mode(gait_world *world, gait_character_id id,
                                    const gait_mode_def *def);
/* Clears the mode for `state` (GAIT_STATE_COUNT: every mode). OK when there is none. */
gait_status gait_character_clear_mode(gait_world *world, gait_character_id id, gait_state state);

/* ---- cooldowns ---------------------------------------------------------------------------- */

/* A timer per button (one gait_button bit), counted down by the step: a kit's "used recently"
 * kept in the character, so snapshots and replays carry it. seconds in [0, 3600]. */
gait_status gait_character_set_cooldown(gait_world *world, gait_character_id id,
                                        uint32_t button, double seconds);
gait_status gait_character_cooldown(const gait_world *world, gait_character_id id,
                                    uint32_t button, double *out_seconds);

/* ---- what is moving the body -------------------------------------------------------------- */

typedef struct gait_motion_info {
    bool requested;             /* a launch or an action waits for the next step */
    bool playing;               /* a moving action plays (state GAIT_STATE_ACTION) */
    char name[GAIT_MOTION_NAME_MAX];
    gait_move_kind kind;
    double seconds;             /* s it has played */
    double seconds_left;        /* s before its seconds run out */
    gait_vec3 velocity;         /* m/s (world) of its last move */
    int point;                  /* TO_POINTS: the point it heads for (0-based) */
    bool hanging;               /* arrived, hanging there */
    int mode_count;
    gait_mode_def modes[GAIT_MODE_MAX]; /* name and clip point into the character (valid until
                                           the next call that changes its modes) */
    double mode_seconds_left[GAIT_MODE_MAX]; /* 0: until cleared */
    int gadget;                 /* the gadget that started the action or launch, -1: none */
} gait_motion_info;

gait_status gait_character_motion_info(const gait_world *world, gait_character_id id,
                                       gait_motion_info *out);

/* ---- gadgets: the same verbs, declared by the world --------------------------------------- */

typedef enum gait_gadget_kind {
    GAIT_GADGET_UPDRAFT = 0,    /* a vertical cylinder of rising air: lifts a glider inside it;
                                   a body that jumps or falls into it opens the glider */
    GAIT_GADGET_WIND,           /* a current along a path: a glider that enters it is carried
                                   along to its end (a move to the path's points), gliding on */
    GAIT_GADGET_GRAPPLE,        /* a point: a press of `button` within `radius` pulls the body to
                                   it (a move to the point) and hangs there until jump or drop */
    GAIT_GADGET_BOUNCE,         /* a pad: a body standing on it is launched up to `height` */
    GAIT_GADGET_KIND_COUNT
} gait_gadget_kind;

typedef struct gait_gadget_def {
    gait_gadget_kind kind;
    const char *name;           /* < GAIT_MOTION_NAME_MAX bytes; NULL: the kind's name */
    gait_vec3 position;         /* updraft: its base's centre; grapple: the point; bounce: the
                                   pad's top centre */
    double radius;              /* m: updraft and pad radius, the wind's reach around its path,
                                   the grapple's range; (0, 1000] */
    double height;              /* m: the updraft's height above its base; the pad's launch
                                   height; (0, 1000] */
    double speed;               /* m/s: the updraft's lift, the wind's speed, the grapple's pull;
                                   (0, GAIT_MOTION_MAX_SPEED] */
    int point_count;            /* wind: its path, 2..GAIT_MOVE_MAX_POINTS points */
    gait_vec3 points[GAIT_MOVE_MAX_POINTS];
    uint32_t button;            /* grapple: the press that pulls (one gait_button bit; 0: drop) */
} gait_gadget_def;

/* A def with a kind's defaults: updraft radius 3, height 20, lift 8; wind reach 3, speed 14;
 * grapple range 12, pull 22, button drop; pad radius 1.5, height 8 (all provisional). */
gait_gadget_def gait_default_gadget_def(gait_gadget_kind kind);
/* "updraft", "wind", "grapple", "bounce"; NULL out of range. */
const char *gait_gadget_kind_name(gait_gadget_kind kind);
int gait_gadget_kind_from_name(const char *name); /* -1 when unknown */

/* Adds a gadget (it acts from the next step); *out_index (may be NULL) is its index. World data
 * like the geometry: not in snapshots. */
gait_status gait_world_add_gadget(gait_world *world, const gait_gadget_def *def, int *out_index);
gait_status gait_world_clear_gadgets(gait_world *world);
int gait_world_gadget_count(const gait_world *world);
/* The def of gadget `index` (its name points into the world). */
gait_status gait_world_gadget(const gait_world *world, int index, gait_gadget_def *out);

#ifdef __cplusplus
}
#endif
#endif
