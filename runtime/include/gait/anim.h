/* gait — the animation-state signal (docs/behaviour.md, "Animation signal"): which animation the host should play.
 *
 * Resolved after each step from the body: airborne beats crouching beats moving beats idle, and
 * every locomotion state has its own animation state. The raw grounded reading is debounced by
 * grounded_transition_delay before the state resolves (the first reading is adopted at once; a
 * new value must hold for the whole delay; a flip back restarts the timer), except that a body
 * clearly in the air (higher than its step above the ground, or in Jump, Fall, Glide or Plunge)
 * reads airborne at once. A clip map names the clip for each state; a state missing from the map
 * or naming a clip the model lacks is never switched into: the last one keeps playing. */
#ifndef GAIT_ANIM_H
#define GAIT_ANIM_H

#include "gait/locomotion.h"
#include "gait/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gait_anim_state {
    GAIT_ANIM_IDLE = 0, GAIT_ANIM_WALK, GAIT_ANIM_RUN, GAIT_ANIM_DASH, GAIT_ANIM_SPRINT,
    GAIT_ANIM_CROUCH, GAIT_ANIM_CROUCH_WALK, GAIT_ANIM_JUMP, GAIT_ANIM_FALL, GAIT_ANIM_LAND,
    GAIT_ANIM_GLIDE, GAIT_ANIM_PLUNGE, GAIT_ANIM_CLIMB, GAIT_ANIM_CLIMB_IDLE, GAIT_ANIM_CLIMB_JUMP,
    GAIT_ANIM_SWIM, GAIT_ANIM_SWIM_IDLE, GAIT_ANIM_SWIM_DASH, GAIT_ANIM_DROWN, GAIT_ANIM_TRAVERSE,
    GAIT_ANIM_ACTION,
    GAIT_ANIM_STATE_COUNT
} gait_anim_state;

/* "idle", "walk", "run", "dash", "sprint", "crouch", "crouch_walk", "jump", "fall", "land",
 * "glide", "plunge", "climb", "climb_idle", "climb_jump", "swim", "swim_idle", "swim_dash",
 * "drown", "traverse", "action"; NULL when out of range. */
const char *gait_anim_state_name(gait_anim_state s);
int gait_anim_state_from_name(const char *name); /* -1 when unknown */

#define GAIT_CLIP_NAME_MAX 48

typedef struct gait_anim_def {
    double crossfade_seconds;          /* s each switch fades over, default 0.2 */
    double movement_epsilon;           /* m/s (horizontal speed) below which the body is idle,
                                          default 0.01 */
    double grounded_transition_delay;  /* s a new grounded reading must hold, default 0.15;
                                          0 disables the debounce */
    double land_seconds;               /* s the land state plays after touching down, default 0.2 */
} gait_anim_def;

/* The signal a host reads each frame. */
typedef struct gait_anim_signal {
    gait_anim_state state;             /* what is playing (the last state that had a clip) */
    gait_anim_state wanted;            /* what the body resolves to now (may have no clip) */
    const char *clip;                  /* clip name, or "" when nothing has played yet */
    double fade_seconds;               /* crossfade of the last switch */
    double seconds_in_state;           /* s since the last switch */
    bool grounded;                     /* the debounced grounded reading */
    uint32_t switches;                 /* how many switches so far */
} gait_anim_signal;

typedef struct gait_anim {
    gait_anim_def def;
    bool model_lacks[GAIT_ANIM_STATE_COUNT];               /* the host said the model lacks it */
    gait_anim_state playing, wanted;
    bool has_played;
    bool playing_own;                  /* what plays is a clip of its own (an action's or a
                                          mode's, gait_anim_input.clip), named in playing_clip */
    char playing_clip[GAIT_CLIP_NAME_MAX];
    bool grounded, has_grounded;       /* debounced reading, and whether one was adopted yet */
    bool pending;                      /* a different raw reading is being timed */
    double pending_seconds;
    double seconds_in_state;
    double land_left;                  /* s of the land state left */
    double fade;
    uint32_t switches;
    /* The clip map. While default_clips holds, it is gait_default_anim_clip's names and `clips`
     * is neither read nor kept (a character starts so: its create copies none of the map); the
     * first gait_anim_set_clip copies the defaults in and clears it. Read the map through
     * gait_anim_clip. Last in the struct, so the part a step uses stays together. */
    bool default_clips;
    char clips[GAIT_ANIM_STATE_COUNT][GAIT_CLIP_NAME_MAX]; /* "" = not mapped */
} gait_anim;

gait_anim_def gait_default_anim_def(void);
/* The def's numbers: unit, range, default, source (gait/schema.h). */
const gait_schema *gait_anim_schema(void);
/* The default clip map: the clip name a state maps to ("Idle", "Walk", "Run", ... "Vault" for
 * traverse), the same names scripts/tuning/anim.lua ships (placeholders a host renames); NULL
 * when the state is out of range. A character starts with this map (gait_character_create). */
const char *gait_default_anim_clip(gait_anim_state state);
/* Starts with an empty clip map (a body with no model: nothing is switched into). */
gait_status gait_anim_init(gait_anim *anim, const gait_anim_def *def);
/* Maps every state to gait_default_anim_clip's name (the shared map: nothing is copied until a
 * state is renamed). */
gait_status gait_anim_set_default_clips(gait_anim *anim);
/* The clip name a state maps to ("" = not mapped); NULL when anim is NULL or the state out of
 * range. */
const char *gait_anim_clip(const gait_anim *anim, gait_anim_state state);
gait_status gait_anim_set_def(gait_anim *anim, const gait_anim_def *def);
/* Map a state to a clip name (NULL or "" removes it). Names longer than 47 bytes are refused. */
gait_status gait_anim_set_clip(gait_anim *anim, gait_anim_state state, const char *clip);
/* The host says whether its model has the clip mapped to this state. */
gait_status gait_anim_set_model_lacks(gait_anim *anim, gait_anim_state state, bool lacks);

/* What the body says after a step. */
typedef struct gait_anim_input {
    gait_state state;                  /* locomotion state */
    bool raw_grounded;                 /* the contact's grounded reading this step */
    double height_above_ground;        /* m */
    double step_height;                /* m: more than this above the ground is clearly airborne */
    double horizontal_speed;           /* m/s */
    double move;                       /* stick length, [0, 1] */
} gait_anim_input;

/* One step of dt seconds. */
void gait_anim_update(gait_anim *anim, const gait_anim_input *in, double dt);
/* The same with a clip of the body's own (a kit's moving action or mode, gait/motion.h) in place
 * of the clip map's for the state it resolves to: NULL or "" is gait_anim_update; a change of the
 * clip switches as a change of state does, with fade_seconds of crossfade (0: the def's). */
void gait_anim_update_clip(gait_anim *anim, const gait_anim_input *in, const char *clip,
                           double fade_seconds, double dt);
void gait_anim_signal_get(const gait_anim *anim, gait_anim_signal *out);

#ifdef __cplusplus
}
#endif
#endif
