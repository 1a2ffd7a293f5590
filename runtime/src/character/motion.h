/* Internal: kits that move the body (motion.c, gadget.c; gait/motion.h). The character keeps its
 * requests, its moving action, its modes and cooldowns in a gait__motion (so a snapshot carries
 * them; a restore checks them against gait__motion_layout, motion.c); the step calls in at four
 * places:
 *
 *   gates   gait__motion_gate: after the gates, before the gate hook — a launch, an action that
 *           starts, plays on or ends, a gadget's request; pure (reads the character and the
 *           world, writes only the plan);
 *   hooks   gait__motion_commit: after the gate hook — what the hook let through takes effect;
 *   stamina gait__motion_stamina: an action's or a mode's costs in place of the state's;
 *   move    gait__motion_prepare (a mode's numbers, the water's floor, an updraft's lift) and, in
 *           state GAIT_STATE_ACTION, gait__motion_move through the mover;
 *   anim    gait__motion_anim: the action's or the mode's clip. */
#ifndef GAIT_MOTION_INTERNAL_H
#define GAIT_MOTION_INTERNAL_H

#include "gait/anim.h"
#include "gait/motion.h"
#include "gait/mover.h"

struct gait__character;
struct gait__intent;

enum { GAIT__REQ_NONE = 0, GAIT__REQ_LAUNCH, GAIT__REQ_MOVE, GAIT__REQ_END };

/* What a moving action's move met (gait__motion.met). */
enum { GAIT__MET_WALL = 1u << 0, GAIT__MET_CEILING = 1u << 1, GAIT__MET_GROUND = 1u << 2 };

/* A moving action as the character keeps it: the def with its strings inline, in the world
 * frame once it has started. */
typedef struct gait__move {
    char name[GAIT_MOTION_NAME_MAX];
    char clip[GAIT_CLIP_NAME_MAX];
    double fade_seconds;
    gait_move_kind kind;
    gait_frame frame;
    double seconds;
    gait_vec3 velocity;
    int key_count;
    gait_move_key keys[GAIT_MOVE_MAX_KEYS];
    int point_count;
    gait_vec3 points[GAIT_MOVE_MAX_POINTS];
    gait_character_id target;
    gait_vec3 offset;
    double speed, arrive_distance;
    bool horizontal;
    gait_arrive arrive;
    double hang_seconds;
    double gravity_scale, start_cost, drain_per_s;
    uint32_t end_on, cancel_buttons;
    gait_move_then then;
} gait__move;

typedef struct gait__mode {
    gait_state state;
    char name[GAIT_MOTION_NAME_MAX];
    char clip[GAIT_CLIP_NAME_MAX];
    double seconds_left;        /* s; 0 with !timed: until cleared */
    bool timed;
    double speed, sink, start_cost, drain_per_s;
    bool flat_cost, walk_on_water, end_when_empty;
} gait__mode;

typedef struct gait__motion {
    /* the request the next step takes (one at a time: a later call replaces it) */
    int request;                 /* GAIT__REQ_* */
    /* modes (below), cooldowns: with request and playing, what every step reads first
     * (gait__motion_wanted), so they share the struct's first line */
    int mode_count;
    uint32_t cooling;            /* the buttons whose cooldown is running (a step with none and
                                    no mode skips the count) */
    gait_launch_def launch;
    int request_gadget;          /* the gadget that made the request, -1: a kit or a host */
    /* the moving action playing (its def: move, below) */
    bool playing;
    double seconds;              /* s played */
    double yaw0;                 /* rad the body faced as it started (the body frame) */
    double fall_vy;              /* m/s: the action's gravity part so far (<= 0) */
    int point;                   /* TO_POINTS: the point it heads for */
    bool hanging;                /* arrived at its last point, hanging there */
    bool arrived;                /* arrived at its last point: it ends at the next step */
    double hang_seconds;         /* s it has hung */
    bool airborne_seen;          /* it has been off the ground */
    bool hook_failed;            /* the move hook ended it */
    int stalled;                 /* TO_*: steps in a row it got no nearer (blocked: it ends) */
    uint32_t met;                /* GAIT__MET_* of its last move */
    gait_vec3 last_velocity;     /* m/s (world) of its last move */
    int gadget;                  /* the gadget that started it (or the launch), -1: none */
    double cooldown[8];          /* s per gait_button bit (GAIT_BUTTON_COUNT) */
    /* the host's: kept as they are when a snapshot is restored */
    gait_move_hook hook;
    void *hook_user;
    /* The large parts, last: each is read only while it is in use (next while request is MOVE,
     * move while playing, modes[0 .. mode_count)), so a character's create leaves them as the
     * slot's last character left them (gait__motion_start) and a snapshot writes the unused
     * ones as zeros (snapshot.c). */
    gait__move next;             /* the moving action requested (request MOVE) */
    gait__move move;             /* the moving action playing */
    gait__mode modes[GAIT_MODE_MAX];
} gait__motion;

/* What the motion stage decided for this step (gait__motion_gate), for the stages after it. */
typedef struct gait__motion_plan {
    bool launch;                 /* a launch is taken: the state gait__motion_gate returned */
    bool start;                  /* the requested moving action starts */
    bool end;                    /* the playing action ends */
    bool drop;                   /* the request is dropped (drowning, a low ceiling, no stamina) */
    int taken;                   /* the request the plan took or dropped (a hook may make another
                                    during the step: it waits for the next) */
    bool gadget_start;           /* a gadget starts a move (gadget below) */
    int gadget;                  /* the gadget acting this step, -1: none */
    gait_launch_def launch_def;  /* a launch taken (a kit's, or a bounce pad's) */
    gait_move_then then;         /* an ending action's */
    bool lift;                   /* an updraft lifts the glider: its vertical speed below */
    double lift_vy;              /* m/s, + up */
} gait__motion_plan;

/* An empty motion: nothing requested or playing, no mode, no cooldown. */
void gait__motion_reset(gait__motion *m);
/* The same for a new character: only the members before `next` are written (the unused large
 * parts are never read), and the host's move hook is dropped with the rest. */
void gait__motion_start(gait__motion *m);
/* A snapshot's copy of a motion: its unused large parts zeroed (equal states, equal bytes). */
void gait__motion_clear_unused(gait__motion *m);
/* Drops the request and the moving action (a place, a drowning's return); modes and cooldowns
 * stay. */
void gait__motion_cancel(gait__motion *m);
/* Whether anything of the motion is in use (the state hash reads it only then, so a body no kit
 * touches hashes as before). */
bool gait__motion_active(const gait__motion *m);
/* The mode for state s (sprint covers the dash), or NULL. */
const gait__mode *gait__motion_mode(const gait__motion *m, gait_state s);

/* ---- the step's stages ---------------------------------------------------------------------- */

/* Whether the step needs the motion stages at all: a request, an action, a mode, a cooldown, a
 * body in state ACTION, or gadgets in the world. A body no kit or gadget touches skips them. */
static inline bool gait__motion_wanted(const gait__motion *m, gait_state from, int gadget_count) {
    return m->request != GAIT__REQ_NONE || m->playing || m->mode_count > 0 || m->cooling ||
           from == GAIT_STATE_ACTION || gadget_count > 0;
}

/* After the gates: the state to take instead of `next` (a launch, an action starting, playing or
 * ending, a gadget); writes the plan. Reads the character and the world only. gi is the input
 * the gates read; low_ceiling the sense stage's reading. */
gait_state gait__motion_gate(const gait_world *world, const struct gait__character *ch,
                             const gait_gate_input *gi, const gait_locomotion *numbers,
                             bool low_ceiling, gait_state from, gait_state next,
                             gait__motion_plan *plan);
/* After the gate hook chose `next`: the plan takes effect where the hook let it (a launch's
 * velocity, an action's start or end, a gadget's move), modes and cooldowns count down. */
void gait__motion_commit(gait_world *world, struct gait__character *ch,
                         const gait__motion_plan *plan, gait_state from, gait_state next,
                         const gait_locomotion *numbers, double dt);
/* The stamina stage for an action or a mode: their costs in place of the state's. Returns false
 * when neither applies (the caller runs gait_stamina_step). */
bool gait__motion_stamina(struct gait__character *ch, const gait_locomotion *numbers,
                          gait_state from, gait_state next, bool moving, double dt);
/* Before the move: the numbers the move reads (a mode's speed and sink, an updraft's lift: into
 * *scratch, else `numbers` itself) and the body's floor on water and steering cap. */
const gait_locomotion *gait__motion_prepare(struct gait__character *ch,
                                            const gait__motion_plan *plan,
                                            const gait_locomotion *numbers,
                                            gait_locomotion *scratch);
/* The move of state GAIT_STATE_ACTION: the action's velocity through the mover; the contact.
 * bodies: the other characters as the step began (may be NULL: none to meet). */
void gait__motion_move(gait_world *world, gait_gather *gather, gait_mover_bodies *bodies,
                       gait_character_id id, struct gait__character *ch,
                       const gait_locomotion *numbers, double dt);
/* The action's or the mode's clip (NULL: none) and its crossfade (0: the anim def's). */
const char *gait__motion_clip(const struct gait__character *ch, double *fade_seconds);

/* ---- gadgets (gadget.c) --------------------------------------------------------------------- */

/* A gadget as the world keeps it. */
typedef struct gait__gadget {
    gait_gadget_def def;        /* def.name points at name */
    char name[GAIT_MOTION_NAME_MAX];
} gait__gadget;

/* Frees the world's gadgets (world destroy). */
void gait__gadgets_free(gait_world *world);
/* The gadget that acts on the character this step, if any (plan->gadget, and plan->launch,
 * plan->gadget_start or plan->lift); returns the state to take. */
gait_state gait__gadgets_gate(const gait_world *world, const struct gait__character *ch,
                              const gait_gate_input *gi, const gait_locomotion *numbers,
                              gait_state from, gait_state next, gait__motion_plan *plan);
/* Draws the gadgets through the debug-draw callbacks (gait_world_draw_debug): an updraft's and
 * a pad's rims, a wind's path, a grapple point and its range's rim, each with its name. */
struct gait_debug_draw;
void gait__gadgets_draw(const gait_world *world, const struct gait_debug_draw *draw);
/* The moving action gadget `index` starts for the character (a wind current, a grapple). */
void gait__gadgets_move(const gait_world *world, const struct gait__character *ch, int index,
                        const gait_locomotion *numbers, gait__move *out);

#endif
