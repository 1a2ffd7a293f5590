/* Remembered trigonometry. Internal to the library.
 *
 * libm's sin and cos of one angle cost some 120 instructions, atan2 some 140, and a character's
 * step asks them of the same few angles over and over: its yaw (the gates' facing, the move's),
 * its camera's yaw (the stick against the camera), its stick's heading (the yaw it turns to),
 * its walkable slope's cosine (the mover's, set up every step), which change seldom between one
 * step and the next. A memo keyed on the argument's bits hands
 * back the very bits the call gave for them: nothing it answers differs from the call, whether
 * it is warm, cold or left over from another character (a snapshot holds it as zeros: cold). Each
 * lives with one character and only that character's step writes it. */
#ifndef GAIT_TRIG_H
#define GAIT_TRIG_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t gait__bits(double v) {
    uint64_t k;
    memcpy(&k, &v, sizeof k);
    return k;
}

typedef struct gait__sincos_memo {
    uint64_t key;              /* the angle's bits */
    double s, c;
    bool valid;
} gait__sincos_memo;

typedef struct gait__atan2_memo {
    uint64_t ky, kx;           /* the arguments' bits */
    double a;
    bool valid;
} gait__atan2_memo;


typedef struct gait__cos_memo {
    uint64_t key;              /* the angle's bits */
    double c;
    bool valid;
} gait__cos_memo;

/* cos(a) */
static inline double gait__cos(gait__cos_memo *m, double a) {
    uint64_t k = gait__bits(a);
    if (!m->valid || m->key != k) {
        m->c = cos(a);
        m->key = k;
        m->valid = true;
    }
    return m->c;
}

/* *s = sin(a), *c = cos(a) */
static inline void gait__sincos(gait__sincos_memo *m, double a, double *s, double *c) {
    uint64_t k = gait__bits(a);
    if (!m->valid || m->key != k) {
        m->s = sin(a);
        m->c = cos(a);
        m->key = k;
        m->valid = true;
    }
    *s = m->s;
    *c = m->c;
}

/* atan2(y, x) */
static inline double gait__atan2(gait__atan2_memo *m, double y, double x) {
    uint64_t ky = gait__bits(y), kx = gait__bits(x);
    if (!m->valid || m->ky != ky || m->kx != kx) {
        m->a = atan2(y, x);
        m->ky = ky;
        m->kx = kx;
        m->valid = true;
    }
    return m->a;
}

#endif
