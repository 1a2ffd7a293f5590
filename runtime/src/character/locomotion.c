/* The locomotion state machine (docs/behaviour.md, "States and transitions") as a pure function,
 * and a body type's numbers with their schema. */
#include "gait/locomotion.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "layouts.h"

static const char *const state_names[GAIT_STATE_COUNT] = {
    "idle", "walk", "run", "dash", "sprint", "crouch", "jump", "fall", "glide", "plunge",
    "climb", "climb_jump", "swim", "swim_dash", "drown", "traverse", "action",
};

const char *gait_state_name(gait_state s) {
    return gait__name_of(state_names, GAIT_STATE_COUNT, (int)s);
}
int gait_state_from_name(const char *name) {
    return gait__name_index(state_names, GAIT_STATE_COUNT, name);
}

bool gait_state_on_foot(gait_state s) {
    return s == GAIT_STATE_IDLE || s == GAIT_STATE_WALK || s == GAIT_STATE_RUN ||
           s == GAIT_STATE_DASH || s == GAIT_STATE_SPRINT || s == GAIT_STATE_CROUCH;
}
bool gait_state_airborne(gait_state s) {
    return s == GAIT_STATE_JUMP || s == GAIT_STATE_FALL || s == GAIT_STATE_GLIDE ||
           s == GAIT_STATE_PLUNGE;
}
bool gait_state_in_water(gait_state s) {
    return s == GAIT_STATE_SWIM || s == GAIT_STATE_SWIM_DASH || s == GAIT_STATE_DROWN;
}
bool gait_state_on_wall(gait_state s) { return s == GAIT_STATE_CLIMB || s == GAIT_STATE_CLIMB_JUMP; }

/* ---- the numbers' schema ------------------------------------------------------------------ */

/* Sources: "provisional" = chosen to feel right, awaiting a measurement against the game; WIKI =
 * Genshin Impact Wiki, "Stamina". Every body type moves by these defaults until it is measured
 * (scripts/tuning/locomotion.lua). */
#define PROV "provisional"
#define WIKI "Genshin Impact Wiki, Stamina"
#define LOC "locomotion.lua"
#define GATES "gates.lua"
#define F(n, lo, hi, def, unit, file, src, doc) \
    {#n, "", offsetof(gait_locomotion, n), lo, hi, false, def, unit, file, src, doc}
#define FC(n, lo, hi, def, unit, src, doc)                                                      \
    {#n, "costs", offsetof(gait_locomotion, costs) + offsetof(gait_stamina_costs, n), lo, hi,  \
     false, def, unit, "stamina.lua", src, doc}
static const gait_schema_field fields[] = {
    F(walk_speed, 0.1, 20, 1.9, "m/s", LOC, PROV, "walking (walk switch on, or the stick part way)"),
    F(run_speed, 0.1, 30, 5.6, "m/s", LOC, PROV, "running"),
    F(sprint_speed, 0.1, 40, 8.0, "m/s", LOC, PROV, "sprinting (sprint held after a dash)"),
    F(dash_speed, 0.1, 60, 11.0, "m/s", LOC, PROV, "dashing"),
    F(dash_seconds, 0.01, 5, 0.35, "s", LOC, PROV, "a dash lasts"),
    F(jump_height, 0.05, 20, 1.2, "m", LOC, PROV, "the feet rise at a jump's apex"),
    F(gravity, 0.1, 100, 20.0, "m/s^2", LOC, PROV " (the game falls faster than 9.81)",
      "downward acceleration in the air"),
    F(air_control, 0, 200, 8.0, "m/s^2", LOC, PROV, "horizontal steering in the air"),
    F(glide_speed, 0.1, 50, 7.5, "m/s", LOC, PROV, "horizontal under the glider"),
    F(glide_sink, 0.01, 50, 1.8, "m/s", LOC, PROV, "downward under the glider"),
    F(plunge_speed, 1, 200, 30.0, "m/s", LOC, PROV, "downward in a plunge"),
    F(max_fall_speed, 1, 500, 50.0, "m/s", LOC, PROV, "terminal falling speed"),
    F(climb_speed, 0.05, 20, 1.6, "m/s", LOC, PROV, "on a wall"),
    F(climb_jump_height, 0.05, 20, 2.0, "m", LOC, PROV, "a climb jump rises"),
    F(climb_jump_seconds, 0.01, 5, 0.45, "s", LOC, PROV, "a climb jump lasts"),
    F(swim_speed, 0.05, 20, 2.3, "m/s", LOC, PROV, "swimming"),
    F(swim_dash_speed, 0.05, 40, 4.6, "m/s", LOC, PROV, "a swim dash"),
    F(drown_seconds, 0, 30, 2.0, "s", LOC, PROV, "drowning lasts before the return"),
    F(step_height, 0, 2, 0.3, "m", LOC, PROV,
      "the feet follow up or down without leaving the ground"),
    F(max_walk_slope, 0.01, 1.5, 45.0 * M_PI / 180.0, "rad", LOC, PROV " (45 deg)",
      "steepest walkable slope"),
    F(walk_slope_hysteresis, 0, 0.2, 3.0 * M_PI / 180.0, "rad", LOC, PROV " (3 deg)",
      "past the steepest walkable slope, a body already standing keeps standing"),
    F(wading_depth, 0.05, 5, 1.2, "m", LOC, PROV,
      "water stood in before the body swims; it floats with its feet this deep"),
    F(swim_float_speed, 0.01, 50, 2.0, "m/s", LOC, PROV,
      "a swimming body rises or sinks towards its float line"),
    F(glider_min_height, 0, 100, 2.5, "m", LOC, PROV,
      "above the ground needed to open the glider or plunge"),
    F(capsule_radius, 0.05, 2, 0.3, "m", LOC, PROV, "the body's capsule"),
    F(capsule_height, 0.2, 10, 1.7, "m", LOC, PROV, "feet to top, at least twice the radius"),
    F(crouch_height, 0.1, 10, 0.8, "m", LOC, PROV " (about half standing; fits a 0.9 m vent)",
      "the crouched capsule, at least twice the radius"),
    F(crouch_speed, 0.05, 20, 1.5, "m/s", LOC, PROV, "crouched"),
    F(fall_catch_seconds, 0, 5, 0.3, "s", GATES, PROV,
      "a fall lasts before it catches a wall (a drop is not re-caught at once)"),
    F(walk_stick_threshold, 0, 1, 0.5, "stick length", GATES, PROV, "below it a move walks"),
    F(move_epsilon, 0, 0.5, 0.01, "stick length", GATES, PROV, "below it there is no move"),
    F(swim_exit_margin, 0, 1, 0.05, "m", GATES, PROV,
      "swimming ends where the water is this much shallower than wading_depth"),
    FC(dash, 0, 1000, 18, "stamina", WIKI, "taken as a dash starts"),
    FC(sprint_per_s, 0, 1000, 18, "stamina/s", WIKI, "while sprinting"),
    FC(climb_per_s, 0, 1000, 6, "stamina/s", PROV " (the wiki leaves it unknown)",
       "while the body moves on a wall"),
    FC(climb_start_min, 0, 1000, 5, "stamina", WIKI, "needed to start a climb from the ground"),
    FC(climb_jump, 0, 1000, 25, "stamina", WIKI, "taken as a climb jump starts"),
    FC(glide_per_s, 0, 1000, 3, "stamina/s", WIKI " (an approximation)", "under the glider"),
    FC(swim_stroke, 0, 1000, 4, "stamina", WIKI,
       "a stroke: one as a swim starts, one each stroke on"),
    FC(swim_stroke_seconds, 0.05, 60, 1.0, "s", PROV " (the wiki leaves it unknown)",
       "between strokes, moving or treading water"),
    FC(swim_dash_start, 0, 1000, 2, "stamina", WIKI, "taken as a swim dash starts"),
    FC(swim_dash_per_s, 0, 1000, 10.2, "stamina/s", WIKI, "while a swim dash moves"),
};
#undef F
#undef FC

GAIT__SCHEMA_TABLE(gait_locomotion_schema, "locomotion", gait_locomotion, fields)
/* the provisional numbers: every body type moves by them until it is measured */
GAIT__SCHEMA_DEFAULTS(gait_default_locomotion, gait_locomotion, gait_locomotion_schema)

gait_stamina_costs gait_default_stamina_costs(void) { return gait_default_locomotion().costs; }

gait_status gait_locomotion_validate(const gait_locomotion *n, char *err, size_t cap) {
    if (!n) {
        if (err && cap) snprintf(err, cap, "numbers are NULL");
        return GAIT_ERR_INVALID_ARGUMENT;
    }
    gait_status s = gait_schema_check(&gait_locomotion_schema_table, n, err, cap);
    if (s != GAIT_OK) return s;
    if (n->capsule_height < 2 * n->capsule_radius || n->crouch_height < 2 * n->capsule_radius) {
        if (err && cap)
            snprintf(err, cap, "capsule_height %g and crouch_height %g must be at least twice "
                               "capsule_radius %g", n->capsule_height, n->crouch_height,
                     n->capsule_radius);
        return GAIT_ERR_INVALID_ARGUMENT;
    }
    if (err && cap) err[0] = 0;
    return GAIT_OK;
}

/* ---- the gates ---------------------------------------------------------------------------- */

/* Seconds compare with a margin: 21 steps of 1/60 s sum to a hair under 0.35. */
#define TIME_EPS 1e-9

static bool pressed(const gait_gate_input *in, uint32_t b) { return (in->pressed & b) != 0; }
static bool held(const gait_gate_input *in, uint32_t b) { return (in->held & b) != 0; }
static bool stamina_left(const gait_gate_input *in) { return in->stamina > 0; }
static bool moving(const gait_gate_input *in, const gait_locomotion *n) { return in->move > n->move_epsilon; }
bool gait_locomotion_deep_water(double water_depth, double submersion, const gait_locomotion *n) {
    return water_depth > n->wading_depth && submersion >= n->wading_depth;
}
static bool deep_water(const gait_contact *c, const gait_locomotion *n) {
    return gait_locomotion_deep_water(c->water_depth, c->submersion, n);
}
static bool high_enough(const gait_contact *c, const gait_locomotion *n) {
    return c->height_above_ground >= n->glider_min_height;
}

/* Idle / walk / run / crouch from the move and the switches. */
static gait_state on_foot_rest(const gait_gate_input *in, const gait_locomotion *n) {
    if (in->crouching) return GAIT_STATE_CROUCH;
    if (!moving(in, n)) return GAIT_STATE_IDLE;
    if (in->walking || in->move < n->walk_stick_threshold) return GAIT_STATE_WALK;
    return GAIT_STATE_RUN;
}

static gait_state gate_on_foot(const gait_phase *ph, const gait_gate_input *in,
                               const gait_contact *c, const gait_locomotion *n) {
    gait_state s = ph->state;
    if (deep_water(c, n)) return GAIT_STATE_SWIM;                 /* OnFoot -> Swim */
    if (!c->grounded) return GAIT_STATE_FALL;                     /* the ground drops away */
    if (pressed(in, GAIT_BUTTON_JUMP)) return GAIT_STATE_JUMP;    /* OnFoot -> Jump */
    if (c->wall_ahead && moving(in, n) &&                         /* OnFoot -> Climb, >= 5 */
        in->stamina >= n->costs.climb_start_min * in->stamina_multiplier)
        return GAIT_STATE_CLIMB;
    if (s == GAIT_STATE_DASH) {
        if (ph->seconds + TIME_EPS < n->dash_seconds) return GAIT_STATE_DASH;
        /* Dash -> Sprint: its seconds over, sprint held, stamina left */
        if (held(in, GAIT_BUTTON_SPRINT) && stamina_left(in) && moving(in, n)) return GAIT_STATE_SPRINT;
        return on_foot_rest(in, n);
    }
    if (pressed(in, GAIT_BUTTON_SPRINT) && stamina_left(in) && s != GAIT_STATE_SPRINT)
        return GAIT_STATE_DASH;                                   /* Run -> Dash (and idle/walk) */
    if (s == GAIT_STATE_SPRINT) {
        /* Sprint -> Run: sprint let go, or stamina out (or the move stops) */
        if (held(in, GAIT_BUTTON_SPRINT) && stamina_left(in) && moving(in, n)) return GAIT_STATE_SPRINT;
        return on_foot_rest(in, n);
    }
    return on_foot_rest(in, n);
}

static gait_state landed(const gait_gate_input *in, const gait_contact *c, const gait_locomotion *n,
                         gait_state stay) {
    if (deep_water(c, n)) return GAIT_STATE_SWIM;                 /* lands in deep water */
    if (c->grounded && !c->rising) return on_foot_rest(in, n);    /* lands */
    return stay;
}

static gait_state gate_air(const gait_phase *ph, const gait_gate_input *in, const gait_contact *c,
                           const gait_locomotion *n) {
    gait_state s = ph->state;
    switch (s) {
    case GAIT_STATE_JUMP: {
        gait_state l = landed(in, c, n, s);
        if (l != s) return l;
        if (c->wall_ahead && moving(in, n) && stamina_left(in)) return GAIT_STATE_CLIMB;
        if (pressed(in, GAIT_BUTTON_JUMP) && high_enough(c, n) && stamina_left(in))
            return GAIT_STATE_GLIDE;
        if (!c->rising) return GAIT_STATE_FALL;                   /* no longer rising */
        return s;
    }
    case GAIT_STATE_FALL: {
        gait_state l = landed(in, c, n, s);
        if (l != s) return l;
        /* a fall catches a wall only once it has fallen a moment: a drop from a wall is not
         * re-caught at once by the move still pushing into it */
        if (c->wall_ahead && moving(in, n) && stamina_left(in) &&
            ph->seconds + TIME_EPS >= n->fall_catch_seconds)
            return GAIT_STATE_CLIMB;
        if (pressed(in, GAIT_BUTTON_JUMP) && high_enough(c, n) && stamina_left(in))
            return GAIT_STATE_GLIDE;
        if (pressed(in, GAIT_BUTTON_ATTACK) && high_enough(c, n)) return GAIT_STATE_PLUNGE;
        return s;
    }
    case GAIT_STATE_GLIDE: {
        gait_state l = landed(in, c, n, s);
        if (l != s) return l;
        if (c->wall_ahead && stamina_left(in)) return GAIT_STATE_CLIMB; /* a wall ahead */
        if (c->steep) return GAIT_STATE_FALL;     /* on ground too steep to stand on: let go */
        if (pressed(in, GAIT_BUTTON_ATTACK)) return GAIT_STATE_PLUNGE;
        if (pressed(in, GAIT_BUTTON_JUMP) || !stamina_left(in)) return GAIT_STATE_FALL;
        return s;
    }
    case GAIT_STATE_PLUNGE: {
        gait_state l = landed(in, c, n, s);
        if (l != s) return l;
        /* the dive met ground too steep to stand on: it is over, and the body slides off as a
         * fall (the glide's rule) */
        if (c->steep) return GAIT_STATE_FALL;
        return s;
    }
    default:
        return s;
    }
}

static gait_state gate_wall(const gait_phase *ph, const gait_gate_input *in, const gait_contact *c,
                            const gait_locomotion *n) {
    if (ph->state == GAIT_STATE_CLIMB_JUMP) {
        if (ph->seconds + TIME_EPS < n->climb_jump_seconds) return GAIT_STATE_CLIMB_JUMP;
        return GAIT_STATE_CLIMB;                                  /* its seconds over */
    }
    if (c->over_top) return on_foot_rest(in, n);                  /* over the top */
    if (c->grounded && in->move_up < -n->move_epsilon)            /* down onto walkable ground */
        return on_foot_rest(in, n);
    if (pressed(in, GAIT_BUTTON_DROP) || !stamina_left(in)) return GAIT_STATE_FALL;
    if (!c->wall) return c->grounded ? on_foot_rest(in, n) : GAIT_STATE_FALL; /* the wall ended */
    if (pressed(in, GAIT_BUTTON_JUMP)) return GAIT_STATE_CLIMB_JUMP;
    return GAIT_STATE_CLIMB;
}

static gait_state gate_water(const gait_phase *ph, const gait_gate_input *in, const gait_contact *c,
                             const gait_locomotion *n) {
    gait_state s = ph->state;
    if (s == GAIT_STATE_DROWN) {
        if (ph->seconds + TIME_EPS < n->drown_seconds) return GAIT_STATE_DROWN;
        return GAIT_STATE_IDLE;                                   /* back where stamina was full */
    }
    if (!stamina_left(in)) return GAIT_STATE_DROWN;               /* stamina out */
    /* ground within wading depth (less a margin, so the shore does not flicker) that the body
     * can stand on: a bank too steep to stand on under the surface is swum along. Stood on, the
     * body slid off it as a fall, back into deep water and the swim, every few steps, each swim
     * paying its first stroke until it drowned (the walkers' terrain scene, seed 3: fall -> swim
     * -> run -> fall, 64 changes in 10 s) */
    if (c->water_depth <= n->wading_depth - n->swim_exit_margin && !c->steep)
        return on_foot_rest(in, n);
    if (s == GAIT_STATE_SWIM_DASH) {
        if (!held(in, GAIT_BUTTON_SPRINT)) return GAIT_STATE_SWIM; /* sprint let go */
        return GAIT_STATE_SWIM_DASH;
    }
    if (pressed(in, GAIT_BUTTON_SPRINT) && moving(in, n)) return GAIT_STATE_SWIM_DASH;
    return GAIT_STATE_SWIM;
}

gait_state gait_locomotion_next(const gait_phase *ph, const gait_gate_input *in,
                                const gait_contact *c, const gait_locomotion *n) {
    if (!ph || !in || !c || !n || (unsigned)ph->state >= GAIT_STATE_COUNT) return GAIT_STATE_IDLE;
    gait_state s = ph->state;
    if (gait_state_on_foot(s)) return gate_on_foot(ph, in, c, n);
    if (gait_state_airborne(s)) return gate_air(ph, in, c, n);
    if (gait_state_on_wall(s)) return gate_wall(ph, in, c, n);
    if (gait_state_in_water(s)) return gate_water(ph, in, c, n);
    return s; /* traverse, action: the traversal and the kit's action end themselves */
}

bool gait_locomotion_is_edge(gait_state from, gait_state to) {
    if ((unsigned)from >= GAIT_STATE_COUNT || (unsigned)to >= GAIT_STATE_COUNT) return false;
    if (from == to) return true;
    /* a kit's moving action starts from any state but a drowning (or a traversal, which plays
     * out first), and hands the body to the gates as a traversal does, or to the glider, a
     * plunge, a climb or a swim */
    if (to == GAIT_STATE_ACTION) return from != GAIT_STATE_DROWN && from != GAIT_STATE_TRAVERSE;
    bool foot_rest_to = to == GAIT_STATE_IDLE || to == GAIT_STATE_WALK || to == GAIT_STATE_RUN ||
                        to == GAIT_STATE_CROUCH;
    if (gait_state_on_foot(from)) {
        if (foot_rest_to) return true;                  /* sub-states switch by the move */
        switch (to) {
        case GAIT_STATE_DASH: return from != GAIT_STATE_SPRINT;
        case GAIT_STATE_SPRINT: return from == GAIT_STATE_DASH;
        case GAIT_STATE_JUMP: case GAIT_STATE_FALL: case GAIT_STATE_CLIMB: case GAIT_STATE_SWIM:
        case GAIT_STATE_TRAVERSE:
            return true;
        default: return false;
        }
    }
    switch (from) {
    case GAIT_STATE_JUMP:
        return foot_rest_to || to == GAIT_STATE_FALL || to == GAIT_STATE_GLIDE ||
               to == GAIT_STATE_CLIMB || to == GAIT_STATE_SWIM;
    case GAIT_STATE_FALL:
        return foot_rest_to || to == GAIT_STATE_GLIDE || to == GAIT_STATE_PLUNGE ||
               to == GAIT_STATE_CLIMB || to == GAIT_STATE_SWIM;
    case GAIT_STATE_GLIDE:
        return foot_rest_to || to == GAIT_STATE_PLUNGE || to == GAIT_STATE_FALL ||
               to == GAIT_STATE_CLIMB || to == GAIT_STATE_SWIM;
    case GAIT_STATE_PLUNGE:
        return foot_rest_to || to == GAIT_STATE_SWIM || to == GAIT_STATE_FALL;
    case GAIT_STATE_CLIMB:
        return foot_rest_to || to == GAIT_STATE_CLIMB_JUMP || to == GAIT_STATE_FALL ||
               to == GAIT_STATE_TRAVERSE;
    case GAIT_STATE_CLIMB_JUMP:
        return to == GAIT_STATE_CLIMB;
    case GAIT_STATE_SWIM:
        return foot_rest_to || to == GAIT_STATE_SWIM_DASH || to == GAIT_STATE_DROWN;
    case GAIT_STATE_SWIM_DASH:
        return foot_rest_to || to == GAIT_STATE_SWIM || to == GAIT_STATE_DROWN;
    case GAIT_STATE_DROWN:
        return foot_rest_to;
    case GAIT_STATE_TRAVERSE:
        return foot_rest_to || to == GAIT_STATE_FALL || to == GAIT_STATE_JUMP ||
               to == GAIT_STATE_TRAVERSE;
    case GAIT_STATE_ACTION:
        return foot_rest_to || to == GAIT_STATE_DASH || to == GAIT_STATE_JUMP ||
               to == GAIT_STATE_FALL || to == GAIT_STATE_GLIDE || to == GAIT_STATE_PLUNGE ||
               to == GAIT_STATE_CLIMB || to == GAIT_STATE_SWIM;
    default:
        return false;
    }
}

/* ---- layouts (layouts.h) ------------------------------------------------------------------ */

static const gait__lfield phase_rows[] = {
    GAIT__LINT(gait_phase, state, 0, GAIT_STATE_COUNT - 1),
    GAIT__LREAL(gait_phase, seconds, 0, GAIT__LFINITE, "s"),
};
GAIT__LTABLE(gait__phase_layout, gait_phase, phase_rows, NULL, NULL);

static const gait__lfield contact_rows[] = {
    GAIT__LBOOL(gait_contact, grounded),
    GAIT__LBOOL(gait_contact, rising),
    GAIT__LREAL(gait_contact, height_above_ground, 0, INFINITY, "m"), /* +inf: nothing below */
    GAIT__LREAL(gait_contact, water_depth, 0, INFINITY, "m"),         /* +inf: no terrain under */
    GAIT__LREAL(gait_contact, submersion, -GAIT__LFINITE, GAIT__LFINITE, "m"),
    GAIT__LBOOL(gait_contact, wall),
    GAIT__LBOOL(gait_contact, wall_ahead),
    GAIT__LBOOL(gait_contact, over_top),
    GAIT__LBOOL(gait_contact, steep),
};
GAIT__LTABLE(gait__contact_layout, gait_contact, contact_rows, NULL, NULL);

/* The numbers are the schema's, and gait_locomotion_validate says what else must hold. */
static bool locomotion_rules(const void *base, char *err, size_t cap) {
    return gait_locomotion_validate(base, err, cap) == GAIT_OK;
}
GAIT__LTABLE_SCHEMA(gait__locomotion_layout, gait_locomotion, gait_locomotion_schema,
                    locomotion_rules);
