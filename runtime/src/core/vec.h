/* Inline vector math on gait_vec3 (doubles). Internal to the library. */
#ifndef GAIT_VEC_H
#define GAIT_VEC_H

#include <math.h>
#include "gait/types.h"

static inline gait_vec3 v3(double x, double y, double z) { gait_vec3 r = {x, y, z}; return r; }
static inline gait_vec3 v3_add(gait_vec3 a, gait_vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline gait_vec3 v3_sub(gait_vec3 a, gait_vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline gait_vec3 v3_scale(gait_vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
/* a + b * s */
static inline gait_vec3 v3_mad(gait_vec3 a, gait_vec3 b, double s) { return v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s); }
static inline gait_vec3 v3_neg(gait_vec3 a) { return v3(-a.x, -a.y, -a.z); }
static inline double v3_dot(gait_vec3 a, gait_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline gait_vec3 v3_cross(gait_vec3 a, gait_vec3 b) {
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double v3_len2(gait_vec3 a) { return v3_dot(a, a); }
static inline double v3_len(gait_vec3 a) { return sqrt(v3_dot(a, a)); }
static inline gait_vec3 v3_lerp(gait_vec3 a, gait_vec3 b, double t) { return v3_mad(a, v3_sub(b, a), t); }
static inline gait_vec3 v3_min(gait_vec3 a, gait_vec3 b) { return v3(fmin(a.x, b.x), fmin(a.y, b.y), fmin(a.z, b.z)); }
static inline gait_vec3 v3_max(gait_vec3 a, gait_vec3 b) { return v3(fmax(a.x, b.x), fmax(a.y, b.y), fmax(a.z, b.z)); }
/* Unit vector, or zero when the length is below 1e-12. */
static inline gait_vec3 v3_norm(gait_vec3 a) {
    double l = v3_len(a);
    return l > 1e-12 ? v3_scale(a, 1.0 / l) : v3(0, 0, 0);
}
static inline int v3_finite(gait_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

#endif
