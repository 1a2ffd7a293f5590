/* The locomotion gates (SPEC §2) as a pure function, and a body type's numbers. */
#include "gait/locomotion.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const state_names[GAIT_STATE_COUNT] = {
    "idle", "walk", "run", "dash", "sprint", "crouch", "jump", "fall", "glide", "plunge",
    "climb", "climb_jump", "swim", "swim_dash", "drown", "traverse",
};

const char *gait_state_name(gait_state s) {
    return (unsigned)s < GAIT_STATE_COUNT ? state_names[s] : NULL;
}

int gait_state_from_name(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < GAIT_STATE_COUNT; i++)
        if (strcmp(name, state_names[i]) == 0) return i;
    return -1;
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

gait_stamina_costs gait_default_stamina_costs(void) {
    gait_stamina_costs c;
    /* Genshin Impact Wiki, "Stamina": dash 18, sprint 18/s, climb jump 25, glide 3/s (approx.),
     * swim 4 a stroke, swim dash 2 + 10.2/s, 5 needed to start a climb. */
    c.dash = 18;
    c.sprint_per_s = 18;
    c.climb_per_s = 6;            /* provisional: the wiki leaves the climb's rate unknown */
    c.climb_start_min = 5;
    c.climb_jump = 25;
    c.glide_per_s = 3;
    c.swim_stroke = 4;
    c.swim_stroke_seconds = 1.0;  /* provisional: the stroke's period is not on the wiki */
    c.swim_dash_start = 2;
    c.swim_dash_per_s = 10.2;
    return c;
}

gait_locomotion gait_default_locomotion(void) {
    /* Provisional numbers (SPEC §6): every body type moves by these until it is measured. */
    gait_locomotion n;
    memset(&n, 0, sizeof n);
    n.walk_speed = 1.9;
    n.run_speed = 5.6;
    n.sprint_speed = 8.0;
    n.dash_speed = 11.0;
    n.dash_seconds = 0.35;
    n.jump_height = 1.2;
    n.gravity = 20.0;
    n.air_control = 8.0;
    n.glide_speed = 7.5;
    n.glide_sink = 1.8;
    n.plunge_speed = 30.0;
    n.max_fall_speed = 50.0;
    n.climb_speed = 1.6;
    n.climb_jump_height = 2.0;
    n.climb_jump_seconds = 0.45;
    n.swim_speed = 2.3;
    n.swim_dash_speed = 4.6;
    n.drown_seconds = 2.0;
    n.step_height = 0.3;
    n.max_walk_slope = 45.0 * M_PI / 180.0;
    n.wading_depth = 1.2;
    n.glider_min_height = 2.5;
    n.capsule_radius = 0.3;
    n.capsule_height = 1.7;
    n.crouch_height = 0.8;
    n.crouch_speed = 1.5;
    n.fall_catch_seconds = 0.3;
    n.walk_stick_threshold = 0.5;
    n.move_epsilon = 0.01;
    n.swim_exit_margin = 0.05;
    n.costs = gait_default_stamina_costs();
    return n;
}

/* Each field with its valid range; the validator and the error messages read this table. */
typedef struct range_entry { const char *name; size_t offset; double lo, hi; } range_entry;
#define R(field, lo, hi) {#field, offsetof(gait_locomotion, field), lo, hi}
#define RC(field, lo, hi) {"costs." #field, offsetof(gait_locomotion, costs) + offsetof(gait_stamina_costs, field), lo, hi}
static const range_entry ranges[] = {
    R(walk_speed, 0, 100), R(run_speed, 0, 100), R(sprint_speed, 0, 100), R(dash_speed, 0, 200),
    R(dash_seconds, 0, 10), R(jump_height, 0, 100), R(gravity, 0.01, 1000), R(air_control, 0, 1000),
    R(glide_speed, 0, 100), R(glide_sink, 0, 100), R(plunge_speed, 0, 500),
    R(max_fall_speed, 0.01, 1000), R(climb_speed, 0, 100), R(climb_jump_height, 0, 100),
    R(climb_jump_seconds, 0, 10), R(swim_speed, 0, 100), R(swim_dash_speed, 0, 100),
    R(drown_seconds, 0, 60), R(step_height, 0, 5), R(max_walk_slope, 0.01, 1.5),
    R(wading_depth, 0, 10), R(glider_min_height, 0, 1000), R(capsule_radius, 0.01, 10),
    R(capsule_height, 0.02, 50), R(crouch_height, 0.02, 50), R(crouch_speed, 0, 100),
    R(fall_catch_seconds, 0, 10), R(walk_stick_threshold, 0, 1), R(move_epsilon, 0, 0.5),
    R(swim_exit_margin, 0, 5),
    RC(dash, 0, 1e6), RC(sprint_per_s, 0, 1e6), RC(climb_per_s, 0, 1e6), RC(climb_start_min, 0, 1e6),
    RC(climb_jump, 0, 1e6), RC(glide_per_s, 0, 1e6), RC(swim_stroke, 0, 1e6),
    RC(swim_stroke_seconds, 0.01, 60), RC(swim_dash_start, 0, 1e6), RC(swim_dash_per_s, 0, 1e6),
};

gait_status gait_locomotion_validate(const gait_locomotion *n, char *err, size_t cap) {
    if (!n) {
        if (err && cap) snprintf(err, cap, "numbers are NULL");
        return GAIT_ERR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        double v;
        memcpy(&v, (const char *)n + ranges[i].offset, sizeof v);
        if (!(v >= ranges[i].lo && v <= ranges[i].hi)) {
            if (err && cap)
                snprintf(err, cap, "%s = %g is not in [%g, %g]", ranges[i].name, v, ranges[i].lo,
                         ranges[i].hi);
            return GAIT_ERR_INVALID_ARGUMENT;
        }
    }
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
        if (pressed(in, GAIT_BUTTON_ATTACK)) return GAIT_STATE_PLUNGE;
        if (pressed(in, GAIT_BUTTON_JUMP) || !stamina_left(in)) return GAIT_STATE_FALL;
        return s;
    }
    case GAIT_STATE_PLUNGE:
        return landed(in, c, n, s);
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
    /* ground within wading depth (less a margin, so the shore does not flicker) */
    if (c->water_depth <= n->wading_depth - n->swim_exit_margin) return on_foot_rest(in, n);
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
    return s; /* traverse: the traversal action ends itself */
}

bool gait_locomotion_is_edge(gait_state from, gait_state to) {
    if ((unsigned)from >= GAIT_STATE_COUNT || (unsigned)to >= GAIT_STATE_COUNT) return false;
    if (from == to) return true;
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
        return foot_rest_to || to == GAIT_STATE_SWIM;
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
    default:
        return false;
    }
}
