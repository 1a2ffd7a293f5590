/* The animation-state signal (docs/behaviour.md, "Animation signal"), after gg-engine's
 * CharacterAnimationController: a grounded reading debounced at edges, a priority order, a clip
 * map that is never switched into a missing clip, and a crossfade on each switch. */
#include "gait/anim.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core/core.h"
#include "layouts.h"

static const char *const anim_names[GAIT_ANIM_STATE_COUNT] = {
    "idle", "walk", "run", "dash", "sprint", "crouch", "crouch_walk", "jump", "fall", "land",
    "glide", "plunge", "climb", "climb_idle", "climb_jump", "swim", "swim_idle", "swim_dash",
    "drown", "traverse", "action",
};

const char *gait_anim_state_name(gait_anim_state s) {
    return gait__name_of(anim_names, GAIT_ANIM_STATE_COUNT, (int)s);
}
int gait_anim_state_from_name(const char *name) {
    return gait__name_index(anim_names, GAIT_ANIM_STATE_COUNT, name);
}

#define GG "gg-engine's CharacterAnimationController"
#define AF(n, def, unit, src, doc) \
    {#n, "", offsetof(gait_anim_def, n), 0, 10, false, def, unit, "anim.lua", src, doc}
static const gait_schema_field fields[] = {
    AF(crossfade_seconds, 0.2, "s", GG, "each switch fades over"),
    AF(movement_epsilon, 0.01, "m/s", GG, "horizontal speed below which the body is idle"),
    AF(grounded_transition_delay, 0.15, "s", "provisional",
       "a new grounded reading must hold before the state follows it; 0 disables"),
    AF(land_seconds, 0.2, "s", "provisional", "the land state plays after touching down"),
};
#undef AF
GAIT__SCHEMA_TABLE(gait_anim_schema, "anim", gait_anim_def, fields)
GAIT__SCHEMA_DEFAULTS(gait_default_anim_def, gait_anim_def, gait_anim_schema)

/* The clip names scripts/tuning/anim.lua ships, in gait_anim_state order (tests/unit/test_anim.c
 * checks the two agree, so a C host and a Lua one start from the same map). */
static const char *const default_clips[GAIT_ANIM_STATE_COUNT] = {
    "Idle", "Walk", "Run", "Dash", "Sprint", "Crouch", "CrouchWalk", "Jump", "Fall", "Land",
    "Glide", "Plunge", "Climb", "ClimbIdle", "ClimbJump", "Swim", "SwimIdle", "SwimDash",
    "Drown", "Vault", "Action",
};

const char *gait_default_anim_clip(gait_anim_state s) {
    return (unsigned)s < GAIT_ANIM_STATE_COUNT ? default_clips[s] : NULL;
}

/* The shared map: a crowd's characters copy none of it (a clip map is 1 KB, most of the record
 * a create would otherwise write); `clips` is zeroed so a copy of the struct holds no stale
 * names. A character's record skips that zeroing: its snapshot writes the map as zeros while it
 * is the default (snapshot.c). */
gait_status gait_anim_set_default_clips(gait_anim *a) {
    if (!a) return GAIT_ERR_INVALID_ARGUMENT;
    memset(a->clips, 0, sizeof a->clips);
    a->default_clips = true;
    return GAIT_OK;
}

const char *gait_anim_clip(const gait_anim *a, gait_anim_state s) {
    if (!a || (unsigned)s >= GAIT_ANIM_STATE_COUNT) return NULL;
    return a->default_clips ? default_clips[s] : a->clips[s];
}

static bool def_valid(const gait_anim_def *d) {
    return d && gait_schema_check(&gait_anim_schema_table, d, NULL, 0) == GAIT_OK;
}

gait_status gait_anim_init(gait_anim *a, const gait_anim_def *d) {
    if (!a || !def_valid(d)) return GAIT_ERR_INVALID_ARGUMENT;
    memset(a, 0, sizeof *a);
    a->def = *d;
    return GAIT_OK;
}

gait_status gait_anim_set_def(gait_anim *a, const gait_anim_def *d) {
    if (!a || !def_valid(d)) return GAIT_ERR_INVALID_ARGUMENT;
    a->def = *d;
    return GAIT_OK;
}

gait_status gait_anim_set_clip(gait_anim *a, gait_anim_state s, const char *clip) {
    if (!a || (unsigned)s >= GAIT_ANIM_STATE_COUNT) return GAIT_ERR_INVALID_ARGUMENT;
    size_t n = clip ? strlen(clip) : 0;
    if (n >= GAIT_CLIP_NAME_MAX) return GAIT_ERR_INVALID_ARGUMENT;
    if (a->default_clips) { /* the first rename: the map becomes the anim's own */
        memset(a->clips, 0, sizeof a->clips);
        for (int k = 0; k < GAIT_ANIM_STATE_COUNT; k++)
            memcpy(a->clips[k], default_clips[k], strlen(default_clips[k]));
        a->default_clips = false;
    }
    memset(a->clips[s], 0, GAIT_CLIP_NAME_MAX);
    if (n) memcpy(a->clips[s], clip, n);
    return GAIT_OK;
}

gait_status gait_anim_set_model_lacks(gait_anim *a, gait_anim_state s, bool lacks) {
    if (!a || (unsigned)s >= GAIT_ANIM_STATE_COUNT) return GAIT_ERR_INVALID_ARGUMENT;
    a->model_lacks[s] = lacks;
    return GAIT_OK;
}

static void debounce(gait_anim *a, const gait_anim_input *in, double dt) {
    bool clearly_airborne = gait_state_airborne(in->state) ||
                            in->height_above_ground > in->step_height;
    bool raw = in->raw_grounded && !clearly_airborne;
    if (!a->has_grounded || clearly_airborne || a->def.grounded_transition_delay <= 0) {
        a->grounded = raw;          /* the first reading, a real fall, or no debounce: at once */
        a->has_grounded = true;
        a->pending = false;
        return;
    }
    if (raw == a->grounded) {
        a->pending = false;         /* a flip back restarts the timer */
        return;
    }
    if (!a->pending) {
        a->pending = true;
        a->pending_seconds = 0;
    }
    a->pending_seconds += dt;
    if (a->pending_seconds + 1e-9 >= a->def.grounded_transition_delay) {
        a->grounded = raw;          /* held steady for the whole delay */
        a->pending = false;
    }
}

static gait_anim_state resolve(const gait_anim *a, const gait_anim_input *in) {
    bool moving = in->move > a->def.movement_epsilon || in->horizontal_speed > a->def.movement_epsilon;
    switch (in->state) {
    case GAIT_STATE_CLIMB: return moving ? GAIT_ANIM_CLIMB : GAIT_ANIM_CLIMB_IDLE;
    case GAIT_STATE_CLIMB_JUMP: return GAIT_ANIM_CLIMB_JUMP;
    case GAIT_STATE_SWIM: return moving ? GAIT_ANIM_SWIM : GAIT_ANIM_SWIM_IDLE;
    case GAIT_STATE_SWIM_DASH: return GAIT_ANIM_SWIM_DASH;
    case GAIT_STATE_DROWN: return GAIT_ANIM_DROWN;
    case GAIT_STATE_TRAVERSE: return GAIT_ANIM_TRAVERSE;
    case GAIT_STATE_ACTION: return GAIT_ANIM_ACTION;
    default: break;
    }
    /* airborne > crouch > moving > idle */
    if (!a->grounded) {
        switch (in->state) {
        case GAIT_STATE_JUMP: return GAIT_ANIM_JUMP;
        case GAIT_STATE_GLIDE: return GAIT_ANIM_GLIDE;
        case GAIT_STATE_PLUNGE: return GAIT_ANIM_PLUNGE;
        default: return GAIT_ANIM_FALL;
        }
    }
    if (in->state == GAIT_STATE_CROUCH) return moving ? GAIT_ANIM_CROUCH_WALK : GAIT_ANIM_CROUCH;
    if (moving) {
        switch (in->state) {
        case GAIT_STATE_WALK: return GAIT_ANIM_WALK;
        case GAIT_STATE_DASH: return GAIT_ANIM_DASH;
        case GAIT_STATE_SPRINT: return GAIT_ANIM_SPRINT;
        default: return GAIT_ANIM_RUN;
        }
    }
    if (a->land_left > 0) return GAIT_ANIM_LAND;
    return GAIT_ANIM_IDLE;
}

void gait_anim_update(gait_anim *a, const gait_anim_input *in, double dt) {
    gait_anim_update_clip(a, in, NULL, 0, dt);
}

void gait_anim_update_clip(gait_anim *a, const gait_anim_input *in, const char *clip,
                           double fade_seconds, double dt) {
    if (!a || !in || !(dt >= 0) || !isfinite(dt)) return; /* timers stay finite */
    bool was_grounded = a->grounded, had = a->has_grounded;
    debounce(a, in, dt);
    if (had && !was_grounded && a->grounded) a->land_left = a->def.land_seconds;
    else if (a->land_left > 0) a->land_left -= dt;
    a->wanted = resolve(a, in);
    /* a clip of its own (a kit's action or mode) plays in place of the map's, and a change of it
     * is a switch as a change of state is */
    bool own = clip && clip[0];
    bool can_play = own || (gait_anim_clip(a, a->wanted)[0] != 0 && !a->model_lacks[a->wanted]);
    bool other_clip = (own || a->playing_own) &&
                      (own != a->playing_own || strncmp(clip, a->playing_clip, GAIT_CLIP_NAME_MAX) != 0);
    if (can_play && (!a->has_played || a->wanted != a->playing || other_clip)) {
        a->playing = a->wanted;
        a->has_played = true;
        a->playing_own = own;
        memset(a->playing_clip, 0, sizeof a->playing_clip);
        if (own) strncpy(a->playing_clip, clip, GAIT_CLIP_NAME_MAX - 1);
        a->fade = own && fade_seconds > 0 ? fade_seconds : a->def.crossfade_seconds;
        a->seconds_in_state = 0;
        a->switches++;
    } else {
        a->seconds_in_state += dt; /* the last clip keeps playing */
    }
}

void gait_anim_signal_get(const gait_anim *a, gait_anim_signal *out) {
    if (!a || !out) return;
    out->state = a->playing;
    out->wanted = a->wanted;
    out->clip = !a->has_played ? "" : a->playing_own ? a->playing_clip : gait_anim_clip(a, a->playing);
    out->fade_seconds = a->fade;
    out->seconds_in_state = a->seconds_in_state;
    out->grounded = a->grounded;
    out->switches = a->switches;
}

/* ---- layout (layouts.h) ------------------------------------------------------------------- */

static GAIT__LTABLE_SCHEMA(anim_def_layout, gait_anim_def, gait_anim_schema, NULL);

/* Timers as gait_anim_update leaves them: the land state's counts down past 0 by at most a step
 * (0.1 s at the slowest clock); a fade is set from the def's crossfade (the schema's [0, 10]). */
static const gait__lfield anim_rows[] = {
    GAIT__LSTRUCT(gait_anim, def, anim_def_layout),
    GAIT__LBOOL(gait_anim, model_lacks),
    GAIT__LINT(gait_anim, playing, 0, GAIT_ANIM_STATE_COUNT - 1),
    GAIT__LINT(gait_anim, wanted, 0, GAIT_ANIM_STATE_COUNT - 1),
    GAIT__LBOOL(gait_anim, has_played),
    GAIT__LBOOL(gait_anim, playing_own),
    GAIT__LTEXT(gait_anim, playing_clip),
    GAIT__LBOOL(gait_anim, grounded),
    GAIT__LBOOL(gait_anim, has_grounded),
    GAIT__LBOOL(gait_anim, pending),
    GAIT__LREAL(gait_anim, pending_seconds, 0, GAIT__LFINITE, "s"),
    GAIT__LREAL(gait_anim, seconds_in_state, 0, GAIT__LFINITE, "s"),
    GAIT__LREAL(gait_anim, land_left, -0.1, 10, "s"),
    GAIT__LREAL(gait_anim, fade, 0, 10, "s"),
    GAIT__LUINT(gait_anim, switches, 0, 4294967295.0),
    GAIT__LBOOL(gait_anim, default_clips),
    GAIT__LTEXTS(gait_anim, clips),
};
GAIT__LTABLE(gait__anim_layout, gait_anim, anim_rows, NULL, NULL);
