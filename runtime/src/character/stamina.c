/* The stamina pool (SPEC §5). Numbers: Genshin Impact Wiki, "Stamina". */
#include "gait/stamina.h"

#include <math.h>

gait_stamina_def gait_default_stamina_def(void) {
    gait_stamina_def d;
    d.max = 100;            /* wiki: the pool starts at 100 (240 with every statue) */
    d.start = -1;           /* below 0: start full */
    d.refill_rate = 25;     /* wiki: 25 per second */
    d.refill_delay = 1.5;   /* wiki: after 1.5 s without a cost */
    d.multiplier = 1;
    return d;
}

gait_status gait_stamina_init(gait_stamina *p, const gait_stamina_def *d) {
    if (!p || !d) return GAIT_ERR_INVALID_ARGUMENT;
    if (!(d->max > 0 && d->max <= 1e6) || !(d->refill_rate >= 0 && d->refill_rate <= 1e6) ||
        !(d->refill_delay >= 0 && d->refill_delay <= 3600) ||
        !(d->multiplier >= 0 && d->multiplier <= 100) || isnan(d->start) || d->start > d->max)
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
    if (!p || !(max > 0 && max <= 1e6)) return GAIT_ERR_INVALID_ARGUMENT;
    p->max = max;
    if (p->value > max) p->value = max;
    return GAIT_OK;
}

gait_status gait_stamina_set_multiplier(gait_stamina *p, double m) {
    if (!p || !(m >= 0 && m <= 100)) return GAIT_ERR_INVALID_ARGUMENT;
    p->multiplier = m;
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
