/* The fixed-step clock (docs/behaviour.md, "The frame and the step"). */
#include "gait/clock.h"

#include <math.h>
#include <stdio.h>

#include "core/layout.h"

/* Frame times are sums of doubles like 1/144 that are not exact in binary: a frame meant to end
 * exactly on a step boundary may fall short of it by a few ulps. A step is due once the
 * accumulator is within this much of a whole step, so 144 frames of 1/144 s run exactly 60 steps. */
#define GAIT_CLOCK_EPSILON 1e-9
/* Below 2^53 steps a stall's count of dropped steps and its leftover are exact doubles. */
#define DROPPED_EXACT 9007199254740992.0

gait_clock_def gait_default_clock_def(void) {
    gait_clock_def d = {1.0 / 60.0, 8};
    return d;
}

gait_status gait_clock_init(gait_clock *clock, const gait_clock_def *def) {
    if (!clock || !def) return GAIT_ERR_INVALID_ARGUMENT;
    if (!(def->step_seconds >= 1.0 / 1000.0 && def->step_seconds <= 0.1) ||
        def->max_steps_per_frame < 1 || def->max_steps_per_frame > 1000)
        return GAIT_ERR_INVALID_ARGUMENT;
    clock->step_seconds = def->step_seconds;
    clock->max_steps_per_frame = def->max_steps_per_frame;
    clock->accumulator = 0;
    clock->steps = 0;
    clock->frames = 0;
    clock->dropped_steps = 0;
    return GAIT_OK;
}

gait_status gait_clock_advance(gait_clock *clock, double frame_seconds, int *out_steps) {
    if (!clock || !out_steps) return GAIT_ERR_INVALID_ARGUMENT;
    if (!isfinite(frame_seconds) || frame_seconds < 0) return GAIT_ERR_INVALID_ARGUMENT;
    double step = clock->step_seconds;
    double acc = clock->accumulator + frame_seconds;
    int n = 0;
    while (acc + GAIT_CLOCK_EPSILON >= step && n < clock->max_steps_per_frame) {
        acc -= step;
        n++;
    }
    if (acc + GAIT_CLOCK_EPSILON >= step) {
        /* the cap: a stall of seconds runs a few steps and forgets the rest (no spiral) */
        double whole = floor((acc + GAIT_CLOCK_EPSILON) / step);
        if (whole < DROPPED_EXACT) {
            clock->dropped_steps += (uint64_t)whole;
            acc -= whole * step;
        } else {
            /* a frame of ages (a replay's 1e300 s): whole * step no longer meets acc, and the
             * count would not fit; keep the leftover in [0, step) and the count saturated */
            clock->dropped_steps = UINT64_MAX;
            acc = fmod(acc, step);
        }
    }
    if (acc < 0) acc = 0;
    clock->accumulator = acc;
    clock->steps += (uint64_t)n;
    clock->frames++;
    *out_steps = n;
    return GAIT_OK;
}

double gait_clock_alpha(const gait_clock *clock) {
    if (!clock) return 0;
    double a = clock->accumulator / clock->step_seconds;
    return a < 0 ? 0 : (a >= 1 ? nextafter(1.0, 0.0) : a);
}

/* ---- layout (core/layout.h): the clock as a snapshot holds it ------------------------------ */

/* The def's ranges (gait_clock_init's), then the accumulator below one step. */
static bool clock_rules(const void *base, char *err, size_t cap) {
    const gait_clock *c = base;
    gait_clock_def d = {c->step_seconds, c->max_steps_per_frame};
    gait_clock scratch;
    if (gait_clock_init(&scratch, &d) != GAIT_OK) {
        snprintf(err, cap, "step_seconds = %g or max_steps_per_frame = %d is out of range; "
                 "allowed [0.001, 0.1] s and 1..1000", c->step_seconds, c->max_steps_per_frame);
        return false;
    }
    if (!(c->accumulator < c->step_seconds)) {
        snprintf(err, cap, "accumulator = %g is not below step_seconds = %g", c->accumulator,
                 c->step_seconds);
        return false;
    }
    return true;
}

static const gait__lfield clock_rows[] = {
    GAIT__LREAL(gait_clock, step_seconds, 0.001, 0.1, "s"),
    GAIT__LINT(gait_clock, max_steps_per_frame, 1, 1000),
    GAIT__LREAL(gait_clock, accumulator, 0, 0.1, "s"),
    GAIT__LUINT(gait_clock, steps, 0, GAIT__LU64_ANY),
    GAIT__LUINT(gait_clock, frames, 0, GAIT__LU64_ANY),
    GAIT__LUINT(gait_clock, dropped_steps, 0, GAIT__LU64_ANY),
};
GAIT__LTABLE(gait__clock_layout, gait_clock, clock_rows, NULL, clock_rules);
