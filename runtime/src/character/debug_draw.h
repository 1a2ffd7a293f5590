/* Internal: drawing through a host's gait_debug_draw callbacks (any may be NULL). */
#ifndef GAIT_DEBUG_DRAW_INTERNAL_H
#define GAIT_DEBUG_DRAW_INTERNAL_H

#include "gait/world.h"

/* colours, 0xRRGGBBAA */
#define GAIT__COL_SWEEP 0x40c0ffffu
#define GAIT__COL_HIT 0xff4040ffu
#define GAIT__COL_RAY 0xc0c0c0ffu
#define GAIT__COL_LEDGE 0xffd000ffu
#define GAIT__COL_GRAB 0x00ff60ffu
#define GAIT__COL_CORRIDOR 0xff80ffffu
#define GAIT__COL_LATCH 0xff8000ffu

static inline void gait__draw_line(const gait_debug_draw *d, gait_vec3 a, gait_vec3 b, uint32_t c) {
    if (d && d->line) d->line(a, b, c, d->user);
}
static inline void gait__draw_point(const gait_debug_draw *d, gait_vec3 p, double size, uint32_t c) {
    if (d && d->point) d->point(p, size, c, d->user);
}
static inline void gait__draw_text(const gait_debug_draw *d, gait_vec3 p, const char *s, uint32_t c) {
    if (d && d->text) d->text(p, s, c, d->user);
}

/* The 12 edges of the box [lo, hi]. */
static inline void gait__draw_box(const gait_debug_draw *d, gait_vec3 lo, gait_vec3 hi, uint32_t c) {
    for (int k = 0; k < 12; k++) {
        /* the 12 edges: axis k/4, the other two bits from k%4 */
        int axis = k / 4, bits = k % 4;
        gait_vec3 a, b;
        double o1 = (bits & 1) ? 1 : 0, o2 = (bits & 2) ? 1 : 0;
        if (axis == 0) {
            a.x = lo.x; a.y = o1 ? hi.y : lo.y; a.z = o2 ? hi.z : lo.z;
            b = a; b.x = hi.x;
        } else if (axis == 1) {
            a.x = o1 ? hi.x : lo.x; a.y = lo.y; a.z = o2 ? hi.z : lo.z;
            b = a; b.y = hi.y;
        } else {
            a.x = o1 ? hi.x : lo.x; a.y = o2 ? hi.y : lo.y; a.z = lo.z;
            b = a; b.z = hi.z;
        }
        gait__draw_line(d, a, b, c);
    }
}

#endif
