/* gait — the fixed-step clock (docs/behaviour.md, "The frame and the step"; after
 * Glenn Fiedler's "Fix your timestep!").
 *
 * A host calls gait_clock_advance() once a frame with the frame's seconds; it answers how many
 * whole fixed steps to run now. The remainder, as a fraction of a step, is the alpha the drawn
 * body is blended by. A long stall runs at most max_steps_per_frame steps and drops the rest,
 * so it cannot spiral. Pure C, no allocation. */
#ifndef GAIT_CLOCK_H
#define GAIT_CLOCK_H

#include "gait/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gait_clock_def {
    double step_seconds;       /* s per fixed step; default 1/60; range [1/1000, 1/10] */
    int max_steps_per_frame;   /* cap on steps one frame may run; default 8 (0.133 s at 60 Hz);
                                  range 1..1000 */
} gait_clock_def;

typedef struct gait_clock {
    double step_seconds;
    int max_steps_per_frame;
    double accumulator;        /* s not yet stepped, in [0, step_seconds) after advance */
    uint64_t steps;            /* fixed steps run since create */
    uint64_t frames;           /* frames advanced since create */
    uint64_t dropped_steps;    /* whole steps dropped by the cap */
} gait_clock;

gait_clock_def gait_default_clock_def(void);
/* Fails (INVALID_ARGUMENT) on a def out of range; *clock is untouched then. */
gait_status gait_clock_init(gait_clock *clock, const gait_clock_def *def);
/* Adds a frame of frame_seconds (finite, >= 0; else INVALID_ARGUMENT and nothing changes) and
 * writes the number of whole steps to run now to *out_steps. */
gait_status gait_clock_advance(gait_clock *clock, double frame_seconds, int *out_steps);
/* accumulator / step_seconds, in [0, 1): how far the drawn body lies past the last step. */
double gait_clock_alpha(const gait_clock *clock);

#ifdef __cplusplus
}
#endif
#endif
