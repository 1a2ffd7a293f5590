/* gait — the stamina pool (docs/behaviour.md, "Stamina"). Pure C, no allocation.
 *
 * One pool per party. Costs are multiplied by the consumption multiplier read at each spend.
 * The refill (refill_rate per s) starts once refill_delay seconds pass with no cost; it happens
 * on foot and in the air outside the glider, never on a wall, in water or under the glider. */
#ifndef GAIT_STAMINA_H
#define GAIT_STAMINA_H

#include "gait/locomotion.h"
#include "gait/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Units, ranges, defaults and sources: gait_stamina_schema(). */
typedef struct gait_stamina_def {
    double max;                 /* default 100 (the game reaches 240 with statues); (0, 1e6] */
    double start;               /* stamina at create, at most max; below 0 (the default): full */
    double refill_rate;         /* stamina/s, default 25 (wiki); [0, 10000] */
    double refill_delay;        /* s without a cost before the refill starts, default 1.5 (wiki);
                                   [0, 60] */
    double multiplier;          /* consumption multiplier, default 1; [0, 100] */
} gait_stamina_def;

typedef struct gait_stamina {
    double value;
    double max;
    double refill_rate;
    double refill_delay;
    double multiplier;
    double rest;                /* s since the last cost */
    double stroke_timer;        /* s into the current swim stroke */
} gait_stamina;

gait_stamina_def gait_default_stamina_def(void);
/* The def's schema: every number's unit, range, default and source (gait/schema.h). */
const gait_schema *gait_stamina_schema(void);
gait_status gait_stamina_init(gait_stamina *pool, const gait_stamina_def *def);

/* amount * multiplier <= value. */
bool gait_stamina_can_spend(const gait_stamina *pool, double amount);
/* Takes amount * multiplier at once (the pool stops at 0) and restarts the refill's rest.
 * INVALID_ARGUMENT for a negative or non-finite amount. */
gait_status gait_stamina_spend(gait_stamina *pool, double amount);
/* Sets the maximum (value is clamped to it). */
gait_status gait_stamina_set_max(gait_stamina *pool, double max);
gait_status gait_stamina_set_multiplier(gait_stamina *pool, double multiplier);
/* Sets the refill (stamina.lua's refill_rate, refill_delay); the value and the rest since the last
 * cost are kept. INVALID_ARGUMENT (nothing set) outside the schema's ranges. */
gait_status gait_stamina_set_refill(gait_stamina *pool, double rate, double delay);

/* One fixed step of dt seconds in state `to` (entered from `from`; from == to when it did not
 * change): takes the costs of starting `to` (dash, climb jump, swim dash, first stroke), the
 * state's running costs (sprint, glide, climb while `moving`, swim strokes, swim dash while
 * `moving`) and otherwise refills where the state allows. */
void gait_stamina_step(gait_stamina *pool, const gait_stamina_costs *costs, gait_state from,
                       gait_state to, bool moving, double dt);

/* Whether the body moves, for the running costs of a step from `from` to `to`: the stick's
 * length (above move_epsilon) says, except on a wall or in water held from the last step, where
 * the body's speed over the last step (m/s) must say so too — a stick pushed against an overhang
 * that holds the body still costs nothing, as standing still on a wall does. Pure. */
bool gait_stamina_moving(gait_state from, gait_state to, double stick, double speed,
                         double move_epsilon);

/* True where the pool may refill: on foot (not dashing or sprinting: they cost) and in the air
 * outside the glider. */
bool gait_stamina_refills_in(gait_state state);

#ifdef __cplusplus
}
#endif
#endif
