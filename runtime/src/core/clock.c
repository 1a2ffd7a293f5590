/* The fixed-step clock (docs/behaviour.md, "The frame and the step"). */
#include "gait/clock.h"

#include <math.h>

/* Frame times are sums of doubles like 1/144 that are not exact in binary: a frame meant to end
 * exactly on a step boundary may fall short of it by a few ulps. A step is due once the
 * accumulator is within this much of a whole step, so 144 frames of 1/144 s run exactly 60 steps. */
#define GAIT_CLOCK_EPSILON 1e-9

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
        clock->dropped_steps += (uint64_t)whole;
        acc -= whole * step;
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
