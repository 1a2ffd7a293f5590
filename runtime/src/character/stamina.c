/* The stamina pool (docs/behaviour.md, "Stamina"). Numbers: Genshin Impact Wiki, "Stamina". */
#include "gait/stamina.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "core/core.h"
#include "layouts.h"

#define WIKI "Genshin Impact Wiki, Stamina"
#define D(n, lo, hi, open, def, unit, file, src, doc) \
    {#n, "", offsetof(gait_stamina_def, n), lo, hi, open, def, unit, file, src, doc}
static const gait_schema_field fields[] = {
    D(max, 0, 1e6, true, 100, "stamina", "", WIKI " (the game reaches 240 with every statue)",
      "the pool's size"),
    D(start, -INFINITY, 1e6, false, -1, "stamina", "", "full",
      "stamina at create, at most max; below 0 starts full"),
    D(refill_rate, 0, 10000, false, 25, "stamina/s", "stamina.lua", WIKI,
      "refill once refill_delay has passed with no cost"),
    D(refill_delay, 0, 60, false, 1.5, "s", "stamina.lua", WIKI,
      "with no cost before the refill starts"),
    D(multiplier, 0, 100, false, 1, "x", "", "the game's default",
      "consumption multiplier: every cost and threshold is multiplied by it"),
};
#undef D
GAIT__SCHEMA_TABLE(gait_stamina_schema, "stamina", gait_stamina_def, fields)
enum { F_MAX, F_START, F_RATE, F_DELAY, F_MULTIPLIER };


GAIT__SCHEMA_DEFAULTS(gait_default_stamina_def, gait_stamina_def, gait_stamina_schema)

gait_status gait_stamina_init(gait_stamina *p, const gait_stamina_def *d) {
    if (!p || !d) return GAIT_ERR_INVALID_ARGUMENT;
    if (gait_schema_check(&gait_stamina_schema_table, d, NULL, 0) != GAIT_OK || d->start > d->max)
        return GAIT_ERR_INVALID_ARGUMENT;
    p->max = d->max;
    p->value = d->start < 0 ? d->max : d->start;
    p->refill_rate = d->refill_rate;
    p->refill_delay = d->refill_delay;
    p->multiplier = d->multiplier;
    p->rest = d->refill_delay; /* a new pool has rested: it refills at once if not full */
    p->stroke_timer = 0;
    return GAIT_OK;
}

bool gait_stamina_can_spend(const gait_stamina *p, double amount) {
    return p && isfinite(amount) && amount >= 0 && amount * p->multiplier <= p->value;
}

/* The cost of amount (already per step for running costs), multiplied, taken at once. */
static void take(gait_stamina *p, double amount) {
    p->value -= amount * p->multiplier;
    if (p->value < 0) p->value = 0;
    p->rest = 0;
}

gait_status gait_stamina_spend(gait_stamina *p, double amount) {
    if (!p || !isfinite(amount) || amount < 0) return GAIT_ERR_INVALID_ARGUMENT;
    take(p, amount);
    return GAIT_OK;
}

gait_status gait_stamina_set_max(gait_stamina *p, double max) {
    if (!p || !gait_schema_valid(&fields[F_MAX], max)) return GAIT_ERR_INVALID_ARGUMENT;
    p->max = max;
    if (p->value > max) p->value = max;
    return GAIT_OK;
}

gait_status gait_stamina_set_multiplier(gait_stamina *p, double m) {
    if (!p || !gait_schema_valid(&fields[F_MULTIPLIER], m)) return GAIT_ERR_INVALID_ARGUMENT;
    p->multiplier = m;
    return GAIT_OK;
}

gait_status gait_stamina_set_refill(gait_stamina *p, double rate, double delay) {
    if (!p || !gait_schema_valid(&fields[F_RATE], rate) ||
        !gait_schema_valid(&fields[F_DELAY], delay))
        return GAIT_ERR_INVALID_ARGUMENT;
    p->refill_rate = rate;
    p->refill_delay = delay;
    return GAIT_OK;
}

#define STILL_SPEED 0.01 /* m/s: a body on a wall or in water slower than this is still */

bool gait_stamina_moving(gait_state from, gait_state to, double stick, double speed,
                         double move_epsilon) {
    bool moving = stick > move_epsilon;
    if (moving && to == from && (gait_state_on_wall(to) || gait_state_in_water(to)))
        moving = speed > STILL_SPEED;
    return moving;
}

bool gait_stamina_refills_in(gait_state s) {
    switch (s) {
    case GAIT_STATE_IDLE: case GAIT_STATE_WALK: case GAIT_STATE_RUN: case GAIT_STATE_CROUCH:
    case GAIT_STATE_JUMP: case GAIT_STATE_FALL: case GAIT_STATE_PLUNGE: case GAIT_STATE_TRAVERSE:
        return true;
    default: /* dash and sprint cost; never on a wall, in water or under the glider */
        return false;
    }
}

void gait_stamina_step(gait_stamina *p, const gait_stamina_costs *c, gait_state from, gait_state to,
                       bool moving, double dt) {
    if (!p || !c || !(dt > 0) || !isfinite(dt)) return; /* an infinite step would empty the pool */
    bool entered = from != to;
    bool cost = false;

    /* costs of starting a state */
    if (entered) {
        switch (to) {
        case GAIT_STATE_DASH: take(p, c->dash); cost = true; break;
        case GAIT_STATE_CLIMB_JUMP: take(p, c->climb_jump); cost = true; break;
        case GAIT_STATE_SWIM_DASH: take(p, c->swim_dash_start); cost = true; break;
        case GAIT_STATE_SWIM:
            if (from != GAIT_STATE_SWIM_DASH) { /* a swim starts with a stroke */
                take(p, c->swim_stroke);
                cost = true;
            }
            p->stroke_timer = 0;
            break;
        default: break;
        }
    }

    /* running costs */
    switch (to) {
    case GAIT_STATE_SPRINT: take(p, c->sprint_per_s * dt); cost = true; break;
    case GAIT_STATE_GLIDE: take(p, c->glide_per_s * dt); cost = true; break;
    case GAIT_STATE_CLIMB:
        /* standing still on a wall costs nothing */
        if (moving) { take(p, c->climb_per_s * dt); cost = true; }
        break;
    case GAIT_STATE_SWIM:
        if (!entered) { /* a stroke each stroke_seconds, moving or treading water */
            p->stroke_timer += dt;
            if (p->stroke_timer + 1e-9 >= c->swim_stroke_seconds) {
                p->stroke_timer -= c->swim_stroke_seconds;
                take(p, c->swim_stroke);
                cost = true;
            }
        }
        break;
    case GAIT_STATE_SWIM_DASH:
        if (moving) { take(p, c->swim_dash_per_s * dt); cost = true; }
        break;
    default: break;
    }

    if (cost) return;
    p->rest += dt;
    if (gait_stamina_refills_in(to) && p->rest + 1e-9 >= p->refill_delay && p->value < p->max) {
        p->value += p->refill_rate * dt;
        if (p->value > p->max) p->value = p->max;
    }
}

/* ---- layout (layouts.h) ------------------------------------------------------------------- */

/* The pool's settings by the def's schema (as gait_stamina_set_max, _set_multiplier and
 * _set_refill check them), then what is left up to the max. */
static bool stamina_rules(const void *base, char *err, size_t cap) {
    const gait_stamina *p = base;
    const struct { int field; double v; } checks[] = {
        {F_MAX, p->max}, {F_RATE, p->refill_rate}, {F_DELAY, p->refill_delay},
        {F_MULTIPLIER, p->multiplier},
    };
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (gait_schema_check_value(&fields[checks[i].field], checks[i].v, err, cap) != GAIT_OK)
            return false;
    if (p->value > p->max) {
        snprintf(err, cap, "value = %g is above max = %g", p->value, p->max);
        return false;
    }
    return true;
}

static const gait__lfield stamina_rows[] = {
    GAIT__LREAL(gait_stamina, value, 0, 1e6, "stamina"),
    GAIT__LREAL(gait_stamina, max, -GAIT__LFINITE, GAIT__LFINITE, "stamina"),
    GAIT__LREAL(gait_stamina, refill_rate, -GAIT__LFINITE, GAIT__LFINITE, "stamina/s"),
    GAIT__LREAL(gait_stamina, refill_delay, -GAIT__LFINITE, GAIT__LFINITE, "s"),
    GAIT__LREAL(gait_stamina, multiplier, -GAIT__LFINITE, GAIT__LFINITE, "x"),
    GAIT__LREAL(gait_stamina, rest, 0, GAIT__LFINITE, "s"),
    /* a stroke is taken 1e-9 s early (gait_stamina_step), leaving the timer that much below 0 */
    GAIT__LREAL(gait_stamina, stroke_timer, -1e-6, GAIT__LFINITE, "s"),
};
GAIT__LTABLE(gait__stamina_layout, gait_stamina, stamina_rows, NULL, stamina_rules);
