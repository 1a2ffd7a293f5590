/* Traversal without markup (SPEC §8) and the crouch's stand-up check (SPEC §7).
 *
 * The scan follows the pipeline of Epic's Game Animation Sample Project (GASP) — capsule sweeps
 * the size of the body, not rays, so an action is offered only where the *body* fits — with its
 * one hand-made layer replaced: GASP reads ledges from splines an artist placed on each obstacle;
 * here the ledge is synthesised at run time from traces (SPEC §8, seeds/003). The numbers the
 * scan and the actions use live in gait_traverse_table (scripts/tuning/traversal.lua).
 *
 * The action: the body follows a path of waypoints at the row's speeds (m/s of the path itself;
 * a play rate is never involved — the host animates the action from the state and the path):
 *   approach (walk to the face below the grab point) -> rise (up the face, the last part a
 *   diagonal through the ledge's corner) -> cross (forward over the ledge) -> drop (a vault's
 *   fall behind it) or settle (a mantle stands on the top).
 * Two guards make it honest (SPEC §8.7, §8.8):
 *   - the corridor: at the start, from what the scan saw, how far past the front face the feet
 *     may go; each step any intrusion beyond it is pushed back;
 *   - the height latch: only the obstacle's triangles overlapping a small box round the ledge
 *     are ignored (gait_filter.ignore_region_only), and only until the feet rise above the ledge.
 *     A windowsill is part of its house's one mesh: ignoring the landmark would make the body a
 *     ghost to the whole house.
 *
 * No mutable globals; a step allocates nothing; doubles only and a fixed number of queries, so
 * the same inputs give the same bits. */
#include "world_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/vec.h"
#include "mover_internal.h"

/* ---- scan constants (m) ------------------------------------------------------------------- */
#define LIFT_EXTRA 0.02     /* the forward sweep starts this far above the step height */
#define LEDGE_IN 0.05       /* the down trace looks this far beyond the face */
#define LEDGE_TOL 0.1       /* a side probe's top within this of the ledge's height is the ledge */
#define FACE_TOL 0.1        /* a side probe's face within this of the front face plane */
#define PROBE_STEP 0.25     /* side probes this far apart ... */
#define PROBE_COUNT 10      /* ... this many each side (2.5 m) ... */
#define PROBE_BISECT 5      /* ... then the end halved this often (0.25 / 32 ~ 8 mm) */
#define SKIN 0.03           /* between the capsule and the face at the approach point */
#define CLEAR 0.05          /* the feet cross this far above the ledge */
#define DEPTH_TRACE 2.0     /* the reverse trace starts this far beyond the face (SPEC §8.4) */
#define BACK_READ 0.1       /* the floor behind is read this far beyond the capsule past the back */
#define COS_FLOOR 0.7071    /* a floor behind within 45 deg of up */

/* ---- action constants --------------------------------------------------------------------- */
#define RISE_DIAGONAL 0.05  /* m below the ledge where the rise turns forward through the corner
                               (shallow: the capsule grazes a square corner by under a centimetre;
                               a bevelled or sloping one is what the latch lets it through) */
#define LATCH_EPS 0.005     /* m above the ledge at which the latch lets go */
#define BLOCKED_END 0.2     /* s the path may be blocked before the action ends (falls) */
#define ACTION_MAX 4.0      /* s an action may last at most */
#define APPROACH_TOL 0.03   /* m from the approach point that counts as there */
#define TERRAIN_REFUSE 0.01 /* m: a move ending this far under the terrain is refused (the
                               body's REFUSE_DEPTH for landmarks) */

static const gait_vec3 UP = {0, 1, 0};

/* ---- names --------------------------------------------------------------------------------- */

static const char *const kind_names[GAIT_TRAVERSE_KIND_COUNT] = {"none", "vault", "hurdle",
                                                                 "mantle_low", "mantle_high"};

const char *gait_traverse_kind_name(gait_traverse_kind k) {
    return (unsigned)k < GAIT_TRAVERSE_KIND_COUNT ? kind_names[k] : NULL;
}

int gait_traverse_kind_from_name(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < GAIT_TRAVERSE_KIND_COUNT; i++)
        if (strcmp(name, kind_names[i]) == 0) return i;
    return -1;
}

/* ---- the table ----------------------------------------------------------------------------- */

static gait_traverse_action_def row(gait_traverse_kind k, double h0, double h1, double d0, double d1,
                                    double s0, double s1, int floor, double rise, double cross) {
    gait_traverse_action_def a;
    memset(&a, 0, sizeof a);
    a.kind = k;
    a.min_height = h0;
    a.max_height = h1;
    a.min_depth = d0;
    a.max_depth = d1;
    a.min_speed = s0;
    a.max_speed = s1;
    a.back_floor = floor;
    a.rise_speed = rise;
    a.cross_speed = cross;
    return a;
}

/* Bands: GASP's traversal chooser (Epic Games, Game Animation Sample Project, 5.4), converted
 * from cm: vault and hurdle up to 125 cm high and 60 cm deep, mantles up to 275 cm, the low/high
 * mantle split at 125 cm. The 0.5 m floor of every band, the hurdle's 3.5 m/s, the speeds and
 * the rest are provisional (scripts/tuning/traversal.lua says the same per number). */
gait_traverse_table gait_default_traverse_table(void) {
    gait_traverse_table t;
    memset(&t, 0, sizeof t);
    t.actions[0] = row(GAIT_TRAVERSE_HURDLE, 0.5, 1.25, 0.0, 0.6, 3.5, 1e3, 1, 5.0, 6.0);
    t.actions[1] = row(GAIT_TRAVERSE_VAULT, 0.5, 1.25, 0.0, 0.6, 0.0, 1e3, -1, 3.5, 4.0);
    t.actions[2] = row(GAIT_TRAVERSE_MANTLE_LOW, 0.5, 1.25, 0.0, INFINITY, 0.0, 1e3, -1, 2.5, 2.0);
    t.actions[3] = row(GAIT_TRAVERSE_MANTLE_HIGH, 1.25, 2.75, 0.0, INFINITY, 0.0, 1e3, -1, 2.2, 1.6);
    t.count = 4;
    t.cooldown = 0.15;             /* s, SPEC §8.9 / seeds/003 */
    t.reach_min = 0.75;            /* m at rest: GASP's forward trace, 75 cm ... */
    t.reach_max = 3.5;             /* ... to 350 cm ... */
    t.reach_speed = 5.0;           /* ... at 500 cm/s */
    t.grab_margin = 0.35;          /* m: about the body's half width (radius 0.3 + 5 cm), provisional */
    t.max_ledge_slope = 0.5236;    /* rad (30 deg), provisional */
    t.max_drop = 3.0;              /* m, provisional */
    t.corridor_floor_margin = 0.5; /* m, provisional ("up to the floor plus a little") */
    t.corridor_flight_margin = 1.5;/* m, provisional */
    t.corridor_mantle = 0.5;       /* m: SPEC §8.7 "half a metre and stop" */
    t.climb_over_height = 1.2;     /* m, provisional */
    return t;
}

gait_status gait_traverse_table_validate(const gait_traverse_table *t, char *err, size_t cap) {
#define BAD(...)                                        \
    do {                                                \
        if (err && cap) snprintf(err, cap, __VA_ARGS__); \
        return GAIT_ERR_INVALID_ARGUMENT;               \
    } while (0)
#define RANGE(v, lo, hi, name) \
    if (!((v) >= (lo) && (v) <= (hi))) BAD("%s = %g is not in [%g, %g]", name, (double)(v), (double)(lo), (double)(hi))
    if (!t) BAD("table is NULL");
    if (t->count < 0 || t->count > GAIT_TRAVERSE_MAX_ACTIONS)
        BAD("count = %d is not in [0, %d]", t->count, GAIT_TRAVERSE_MAX_ACTIONS);
    RANGE(t->cooldown, 0, 10, "cooldown");
    RANGE(t->reach_min, 0.05, 20, "reach_min");
    RANGE(t->reach_max, t->reach_min, 20, "reach_max");
    RANGE(t->reach_speed, 0.01, 100, "reach_speed");
    RANGE(t->grab_margin, 0, 5, "grab_margin");
    RANGE(t->max_ledge_slope, 0, 1.5, "max_ledge_slope");
    RANGE(t->max_drop, 0, 100, "max_drop");
    RANGE(t->corridor_floor_margin, 0, 10, "corridor_floor_margin");
    RANGE(t->corridor_flight_margin, 0, 20, "corridor_flight_margin");
    RANGE(t->corridor_mantle, 0.05, 10, "corridor_mantle");
    RANGE(t->climb_over_height, 0, 10, "climb_over_height");
    for (int i = 0; i < t->count; i++) {
        const gait_traverse_action_def *a = &t->actions[i];
        char n[48];
        if (a->kind <= GAIT_TRAVERSE_NONE || a->kind >= GAIT_TRAVERSE_KIND_COUNT)
            BAD("actions[%d].kind = %d is not an action", i + 1, (int)a->kind);
#define ARANGE(f, lo, hi)                                   \
        snprintf(n, sizeof n, "actions[%d].%s", i + 1, #f); \
        RANGE(a->f, lo, hi, n)
        ARANGE(min_height, 0, 20);
        ARANGE(max_height, a->min_height, 20);
        ARANGE(min_depth, 0, 20);
        ARANGE(max_depth, a->min_depth, INFINITY);
        ARANGE(min_speed, 0, 1e3);
        ARANGE(max_speed, a->min_speed, 1e3);
        ARANGE(rise_speed, 0.05, 50);
        ARANGE(cross_speed, 0.05, 50);
#undef ARANGE
        if (a->back_floor < -1 || a->back_floor > 1)
            BAD("actions[%d].back_floor = %d is not -1, 0 or 1", i + 1, a->back_floor);
    }
#undef RANGE
#undef BAD
    if (err && cap) err[0] = 0;
    return GAIT_OK;
}

gait_traverse_kind gait_traverse_choose(const gait_traverse_table *t, const gait_traverse_scan *s,
                                        double speed, int *row_out) {
    if (row_out) *row_out = -1;
    if (!t || !s || !s->ok || !isfinite(speed)) return GAIT_TRAVERSE_NONE;
    double depth = s->thick ? INFINITY : s->depth;
    for (int i = 0; i < t->count; i++) {
        const gait_traverse_action_def *a = &t->actions[i];
        if (s->height < a->min_height || s->height > a->max_height) continue;
        if (depth < a->min_depth || depth > a->max_depth) continue;
        if (speed < a->min_speed || speed > a->max_speed) continue;
        if (a->back_floor == 1 && !s->back_floor) continue;
        if (a->back_floor == 0 && s->back_floor) continue;
        if (row_out) *row_out = i;
        return a->kind;
    }
    return GAIT_TRAVERSE_NONE;
}

/* ---- debug draw ---------------------------------------------------------------------------- */

#define COL_SWEEP 0x40c0ffff
#define COL_HIT 0xff4040ff
#define COL_RAY 0xc0c0c0ff
#define COL_LEDGE 0xffd000ff
#define COL_GRAB 0x00ff60ff
#define COL_ROOM 0x8080ffff
#define COL_CORRIDOR 0xff80ffff
#define COL_LATCH 0xff8000ff

static void dline(const gait_debug_draw *d, gait_vec3 a, gait_vec3 b, uint32_t c) {
    if (d && d->line) d->line(a, b, c, d->user);
}
static void dpoint(const gait_debug_draw *d, gait_vec3 p, double size, uint32_t c) {
    if (d && d->point) d->point(p, size, c, d->user);
}
static void dtext(const gait_debug_draw *d, gait_vec3 p, const char *s, uint32_t c) {
    if (d && d->text) d->text(p, s, c, d->user);
}

static void dbox(const gait_debug_draw *d, gait_vec3 lo, gait_vec3 hi, uint32_t c) {
    for (int k = 0; k < 12; k++) {
        /* the 12 edges: axis k/4, the other two bits from k%4 */
        int axis = k / 4, bits = k % 4;
        gait_vec3 a, b;
        double o1 = (bits & 1) ? 1 : 0, o2 = (bits & 2) ? 1 : 0;
        if (axis == 0) {
            a = v3(lo.x, o1 ? hi.y : lo.y, o2 ? hi.z : lo.z);
            b = v3(hi.x, a.y, a.z);
        } else if (axis == 1) {
            a = v3(o1 ? hi.x : lo.x, lo.y, o2 ? hi.z : lo.z);
            b = v3(a.x, hi.y, a.z);
        } else {
            a = v3(o1 ? hi.x : lo.x, o2 ? hi.y : lo.y, lo.z);
            b = v3(a.x, a.y, hi.z);
        }
        dline(d, a, b, c);
    }
}

/* ---- the scan ------------------------------------------------------------------------------ */

typedef struct scan_ctx {
    const gait_collider *col;
    const gait_traverse_query *q;
    const gait_debug_draw *draw;
    gait_traverse_scan *s;
} scan_ctx;

static gait_capsule capsule_at(double r, double h, gait_vec3 feet) {
    gait_capsule c;
    c.a = v3(feet.x, feet.y + r, feet.z);
    c.b = v3(feet.x, feet.y + h - r, feet.z);
    c.radius = r;
    return c;
}

/* A sweep of the body's capsule (feet at `feet`) by d; drawn as the paths of its two sphere
 * centres. */
static bool csweep(scan_ctx *x, gait_vec3 feet, gait_vec3 d, gait_hit *hit) {
    gait_capsule c = capsule_at(x->q->radius, x->q->height, feet);
    x->s->sweeps++;
    bool h = gait_collider_capsule_sweep(x->col, &c, d, &x->q->filter, hit);
    if (x->draw) {
        double f = h ? hit->fraction : 1;
        dline(x->draw, c.a, v3_mad(c.a, d, f), COL_SWEEP);
        dline(x->draw, c.b, v3_mad(c.b, d, f), COL_SWEEP);
        if (h) dpoint(x->draw, hit->point, 0.04, COL_HIT);
    }
    return h;
}

static bool ray(scan_ctx *x, gait_vec3 o, gait_vec3 d, gait_hit *hit) {
    x->s->rays++;
    bool h = gait_collider_ray_cast(x->col, o, d, &x->q->filter, hit);
    if (x->draw) {
        dline(x->draw, o, h ? hit->point : v3_add(o, d), COL_RAY);
        if (h) dpoint(x->draw, hit->point, 0.02, COL_HIT);
    }
    return h;
}

/* Is there ledge at E + t * s? A trace down from above just beyond the face finds a top at the
 * ledge's height (the face itself was traced at E; one ray a probe keeps the scan cheap where
 * the collider's grid is crowded), and a trace along the face at the segment's ends checks the
 * face is still there (face_too). */
static bool ledge_probe(scan_ctx *x, gait_vec3 e, gait_vec3 t, gait_vec3 in, double s, double ly,
                        double cos_ledge, bool face_too) {
    gait_vec3 q = v3_mad(e, t, s);
    gait_hit hit;
    gait_vec3 o = v3_mad(q, in, LEDGE_IN);
    o.y = ly + 0.25;
    if (!ray(x, o, v3(0, -0.5, 0), &hit)) return false;
    if (fabs(hit.point.y - ly) > LEDGE_TOL || hit.normal.y < cos_ledge) return false;
    if (!face_too) return true;
    gait_vec3 o2 = v3_mad(q, in, -0.25);
    o2.y = ly - 0.05;
    if (!ray(x, o2, v3_scale(in, 0.25 + LEDGE_IN + FACE_TOL), &hit)) return false;
    return fabs(v3_dot(v3_sub(hit.point, e), in)) <= FACE_TOL;
}

/* The end of the ledge on one side (sign -1 or +1): probes every PROBE_STEP, then halves the
 * last interval. Returns the signed distance along t from E. The sign is the caller's and is used
 * here and only here, so the two sides cannot share a sign by a copied loop. */
static double ledge_end(scan_ctx *x, gait_vec3 e, gait_vec3 t, gait_vec3 in, double ly,
                        double cos_ledge, double sign) {
    double good = 0;
    for (int k = 1; k <= PROBE_COUNT; k++) {
        double s = sign * PROBE_STEP * k;
        if (ledge_probe(x, e, t, in, s, ly, cos_ledge, false)) {
            good = s;
            continue;
        }
        double bad = s;
        for (int b = 0; b < PROBE_BISECT; b++) {
            double mid = 0.5 * (good + bad);
            if (ledge_probe(x, e, t, in, mid, ly, cos_ledge, false)) good = mid;
            else bad = mid;
        }
        break;
    }
    /* the face still stands at the end found (a top over a gap in the face is no ledge there):
     * walk back a probe at a time until it does */
    while (good != 0 && !ledge_probe(x, e, t, in, good, ly, cos_ledge, true))
        good = sign * fmax(0, fabs(good) - PROBE_STEP);
    return good; /* (at PROBE_COUNT steps: the ledge goes on beyond what the probes looked at) */
}

static void set_reason(gait_traverse_scan *s, const char *why) {
    snprintf(s->reason, sizeof s->reason, "%s", why);
}

static bool fail(gait_traverse_scan *s, const char *why) {
    set_reason(s, why);
    s->ok = false;
    return false;
}

static bool query_valid(const gait_traverse_query *q) {
    return v3_finite(q->feet) && v3_finite(q->forward) && isfinite(q->speed) &&
           isfinite(q->radius) && q->radius > 0 && isfinite(q->height) &&
           q->height >= 2 * q->radius && isfinite(q->step_height) && q->step_height >= 0 &&
           isfinite(q->max_height) && q->max_height > 0 && isfinite(q->min_height) &&
           isfinite(q->reach_min) && isfinite(q->reach_max) && q->reach_min > 0 &&
           q->reach_max >= q->reach_min && isfinite(q->reach_speed) && q->reach_speed > 0 &&
           isfinite(q->grab_margin) && q->grab_margin >= 0 && isfinite(q->max_ledge_slope) &&
           isfinite(q->max_drop) && q->max_drop >= 0;
}

gait_traverse_query gait_traverse_default_query(const gait_traverse_table *t,
                                                const gait_locomotion *n) {
    gait_traverse_query q;
    memset(&q, 0, sizeof q);
    gait_traverse_table def;
    if (!t) {
        def = gait_default_traverse_table();
        t = &def;
    }
    gait_locomotion nd;
    if (!n) {
        nd = gait_default_locomotion();
        n = &nd;
    }
    q.forward = v3(0, 0, 1);
    q.radius = n->capsule_radius;
    q.height = n->capsule_height;
    q.step_height = n->step_height;
    q.max_height = 0;
    q.min_height = INFINITY;
    for (int i = 0; i < t->count; i++) {
        if (t->actions[i].max_height > q.max_height) q.max_height = t->actions[i].max_height;
        if (t->actions[i].min_height < q.min_height) q.min_height = t->actions[i].min_height;
    }
    if (t->count == 0) q.max_height = q.min_height = 0.01;
    if (q.min_height < n->step_height) q.min_height = n->step_height;
    q.reach_min = t->reach_min;
    q.reach_max = t->reach_max;
    q.reach_speed = t->reach_speed;
    q.grab_margin = t->grab_margin;
    q.max_ledge_slope = t->max_ledge_slope;
    q.max_drop = t->max_drop;
    return q;
}

bool gait_traverse_scan_run(const gait_collider *col, const gait_traverse_query *q,
                            const gait_debug_draw *draw, gait_traverse_scan *s) {
    if (!s) return false;
    memset(s, 0, sizeof *s);
    set_reason(s, "invalid query");
    if (!col || !q || !query_valid(q)) return false;
    scan_ctx x = {col, q, draw, s};
    double r = q->radius;
    gait_vec3 feet = q->feet;
    gait_vec3 f = v3_norm(v3(q->forward.x, 0, q->forward.z));
    if (v3_len2(f) < 0.5) return fail(s, "invalid query");
    double cos_ledge = cos(q->max_ledge_slope);

    /* 1. forward: the body's capsule, lifted over what it would step onto, swept ahead by a
     * reach that grows with speed (GASP: 0.75 m at rest to 3.5 m at 5 m/s) */
    double k = clampd(q->speed / q->reach_speed, 0, 1);
    double reach = q->reach_min + (q->reach_max - q->reach_min) * k;
    gait_vec3 lifted = v3(feet.x, feet.y + q->step_height + LIFT_EXTRA, feet.z);
    gait_hit hit;
    if (!csweep(&x, lifted, v3_scale(f, reach), &hit)) return fail(s, "no obstacle");
    if (hit.start_solid) return fail(s, "inside geometry");
    /* the wall's normal in the ground plane: y dropped *before* normalising (a "2D" normal that
     * kept its y would tilt every probe built on it) */
    gait_vec3 n2 = v3(hit.normal.x, 0, hit.normal.z);
    double nl = v3_len(n2);
    if (nl < 0.5) return fail(s, "not a wall"); /* mostly up or down: a floor's or a ceiling's edge */
    n2 = v3_scale(n2, 1.0 / nl);
    if (v3_dot(n2, f) > -0.25) return fail(s, "not facing the wall");
    s->wall = true;
    s->wall_point = hit.point;
    s->wall_normal = n2;
    s->wall_distance = hit.distance;
    s->landmark = hit.landmark;
    gait_vec3 in = v3_neg(n2);
    /* along the edge, to the body's right as it faces `in` (facing +z, right is -x as in
     * body.c): ledge_a lies to the left (-t), ledge_b to the right (+t) */
    gait_vec3 t = v3(-in.z, 0, in.x);

    /* 2. the ledge: a trace down from above the highest ledge, just beyond the face ... */
    gait_vec3 o = v3_mad(hit.point, in, LEDGE_IN);
    double top = feet.y + q->max_height + CLEAR;
    o.y = top;
    double down = top - (feet.y + q->step_height);
    if (!ray(&x, o, v3(0, -down, 0), &hit)) return fail(s, "no ledge");
    if (hit.normal.y < cos_ledge) return fail(s, "ledge too steep");
    double ly = hit.point.y;
    s->ledge_normal = hit.normal;
    /* ... and one along the face just below that height: the face reaches the ledge */
    gait_vec3 o2 = v3_mad(s->wall_point, in, -(r + 0.1));
    o2.y = ly - 0.05;
    if (!ray(&x, o2, v3_scale(in, r + 0.1 + LEDGE_IN + FACE_TOL), &hit))
        return fail(s, "face does not reach the ledge");
    gait_vec3 e = v3(hit.point.x, ly, hit.point.z);
    s->edge = e;
    s->height = ly - feet.y;
    if (s->height > q->max_height) return fail(s, "too high");
    if (s->height < q->min_height) return fail(s, "too low");
    /* the top above the ledge is open: a trace just above it along the face meets nothing */
    gait_vec3 o3 = v3(o2.x, ly + 0.05, o2.z);
    if (ray(&x, o3, v3_scale(in, r + 0.1 + LEDGE_IN + 0.05), &hit)) return fail(s, "no top");

    /* 3. ledge synthesis: side probes build a segment; the grab point is the body's projection
     * on it, kept grab_margin from its ends */
    double sa = ledge_end(&x, e, t, in, ly, cos_ledge, -1.0);
    double sb = ledge_end(&x, e, t, in, ly, cos_ledge, +1.0);
    s->ledge_a = v3_mad(e, t, sa);
    s->ledge_b = v3_mad(e, t, sb);
    double u = v3_dot(v3_sub(feet, e), t);
    double lo = sa + q->grab_margin, hi = sb - q->grab_margin;
    u = lo <= hi ? clampd(u, lo, hi) : 0.5 * (sa + sb); /* shorter than two margins: its middle */
    s->grab = v3_mad(e, t, u);
    s->ledge = true;
    if (draw) {
        dline(draw, s->ledge_a, s->ledge_b, COL_LEDGE);
        dpoint(draw, s->grab, 0.08, COL_GRAB);
    }

    /* 4. depth by a reverse trace: from 2 m beyond the face back to it. No hit means the trace
     * began inside the obstacle (gait's rays from inside meet nothing before the front face,
     * which the trace stops short of): thicker than 2 m. The depth is measured from the front
     * edge to the hit — two different points. */
    gait_vec3 b0 = v3_mad(s->grab, in, DEPTH_TRACE);
    b0.y = ly - 0.05;
    if (ray(&x, b0, v3_scale(in, -(DEPTH_TRACE - 0.01)), &hit)) {
        s->depth = v3_dot(v3_sub(hit.point, s->grab), in);
    } else {
        s->thick = true;
        s->depth = DEPTH_TRACE;
    }

    /* 5. room in two legs, the way a mantle moves: straight up beside the face, then forward
     * over the ledge (a diagonal would clip the top corner and fail at point blank) */
    gait_vec3 a = v3_mad(s->grab, in, -(r + SKIN));
    a.y = feet.y + LIFT_EXTRA;
    double rise = ly + CLEAR - a.y;
    if (rise > 0 && csweep(&x, a, v3(0, rise, 0), &hit)) return fail(s, "no room above");
    a.y = ly + CLEAR;
    double over = r + SKIN + (s->thick ? r + 0.1 : s->depth + r + BACK_READ);
    if (csweep(&x, a, v3_scale(in, over), &hit)) return fail(s, "no room over the ledge");
    s->room = true;

    /* 6. the floor behind: the body's capsule swept down behind the back face (where the room
     * check's second leg ended), so the landing is a place the body fits. Its height is read
     * from the contact point (the point's y less the feet's — never a normal's component). */
    if (!s->thick) {
        s->back_floor_distance = s->depth + r + BACK_READ;
        gait_vec3 fb = v3_mad(s->grab, in, s->back_floor_distance);
        fb.y = ly + CLEAR;
        double reach_down = fb.y - (feet.y - q->max_drop);
        if (csweep(&x, fb, v3(0, -reach_down, 0), &hit) && !hit.start_solid &&
            hit.normal.y >= COS_FLOOR) {
            s->back_floor = true;
            s->back_floor_height = hit.point.y - feet.y;
        }
    }
    s->ok = true;
    set_reason(s, "ok");
    return true;
}

bool gait_traverse_room_to_stand(const gait_collider *col, gait_vec3 feet, double r, double ch,
                                 double h, const gait_filter *filter) {
    if (!col || !v3_finite(feet) || !(r > 0) || !(h > ch)) return true;
    gait_capsule c;
    /* the part of the standing capsule above the crouched one, a hair thinner so a wall the
     * crouched body already touches does not count */
    c.a = v3(feet.x, feet.y + ch - r, feet.z);
    c.b = v3(feet.x, feet.y + h - r, feet.z);
    c.radius = r - 0.01;
    if (c.b.y < c.a.y) c.b.y = c.a.y;
    gait_contact_point cp;
    gait_filter none;
    memset(&none, 0, sizeof none);
    return gait_collider_capsule_overlap(col, &c, filter ? filter : &none, &cp, 1, NULL) == 0;
}

/* ---- world and character API --------------------------------------------------------------- */

#define FAIL(w, status, ...) gait__fail((w)->error, sizeof (w)->error, (status), __VA_ARGS__)

gait_status gait_world_set_traverse_table(gait_world *w, const gait_traverse_table *t) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    char err[160];
    if (gait_traverse_table_validate(t, err, sizeof err) != GAIT_OK)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "traverse table: %s", err);
    w->traverse_table = *t;
    return GAIT_OK;
}

const gait_traverse_table *gait_world_traverse_table(const gait_world *w) {
    return w ? &w->traverse_table : NULL;
}

gait_status gait_world_set_debug_draw(gait_world *w, const gait_debug_draw *d) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if (d) w->debug_draw = *d;
    else memset(&w->debug_draw, 0, sizeof w->debug_draw);
    return GAIT_OK;
}

gait_status gait_character_set_traverse_hook(gait_world *w, gait_character_id id,
                                             gait_traverse_hook hook, void *user) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    gait__character *ch = gait__character_get(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    ch->trav.hook = hook;
    ch->trav.hook_user = user;
    return GAIT_OK;
}

gait_status gait_character_traverse_info(const gait_world *w, gait_character_id id,
                                         gait_traverse_info *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    const gait__traverse *t = &ch->trav;
    memset(out, 0, sizeof *out);
    out->scan = t->scan;
    if (!t->scanned) set_reason(&out->scan, "not scanned");
    out->kind = t->kind;
    out->phase = t->phase;
    out->seconds = t->seconds;
    out->actions = t->actions;
    out->corridor_origin = t->origin;
    out->corridor_dir = t->in;
    out->corridor = t->corridor;
    out->latch = t->latch;
    out->latch_min = t->latch_min;
    out->latch_max = t->latch_max;
    out->cooldown = t->cooldown;
    out->auto_crouch = t->auto_crouch;
    out->stand_blocked = t->stand_blocked;
    out->crouch_air = t->crouch_air;
    return GAIT_OK;
}

static void draw_character(const gait_world *w, const gait__character *ch, const gait_debug_draw *d) {
    const gait__traverse *t = &ch->trav;
    if (t->scanned) {
        gait_traverse_scan tmp;
        gait_traverse_scan_run(w->collider, &t->query, d, &tmp);
        char line[96];
        snprintf(line, sizeof line, "%s h %.2f d %.2f%s", t->scan.reason, t->scan.height,
                 t->scan.depth, t->scan.thick ? " thick" : "");
        dtext(d, v3(t->query.feet.x, t->query.feet.y + t->query.height + 0.3, t->query.feet.z), line,
              t->scan.ok ? COL_GRAB : COL_HIT);
    }
    if (t->kind != GAIT_TRAVERSE_NONE && t->phase != GAIT_TRAVERSE_PHASE_DONE) {
        gait_vec3 side = v3(-t->in.z, 0, t->in.x);
        gait_vec3 c = v3_mad(t->origin, t->in, t->corridor);
        dline(d, v3_mad(c, side, -0.6), v3_mad(c, side, 0.6), COL_CORRIDOR);
        dline(d, t->origin, c, COL_CORRIDOR);
        dtext(d, c, gait_traverse_kind_name(t->kind), COL_CORRIDOR);
        if (t->latch) dbox(d, t->latch_min, t->latch_max, COL_LATCH);
    }
}

gait_status gait_character_traverse_draw(const gait_world *w, gait_character_id id,
                                         const gait_debug_draw *d) {
    if (!w || !d) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    draw_character(w, ch, d);
    return GAIT_OK;
}

gait_status gait_world_draw_debug(const gait_world *w) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    const gait_debug_draw *d = &w->debug_draw;
    if (!d->line && !d->point && !d->text) return GAIT_OK;
    for (int i = 0; i < w->capacity; i++)
        if (w->characters[i].alive) draw_character(w, &w->characters[i], d);
    return GAIT_OK;
}

/* ---- crouch (before the gates) ------------------------------------------------------------- */

/* The way the body moves this step: the camera-relative move, as body.c reads it. */
static gait_vec3 move_dir(const gait__character *ch, double eps) {
    double cy = ch->camera_yaw, mx = ch->move_x, my = ch->move_y;
    if (ch->action_left > 0) mx = my = 0;
    gait_vec3 fwd = v3(sin(cy), 0, cos(cy)), right = v3(-cos(cy), 0, sin(cy));
    gait_vec3 dir = v3_add(v3_scale(fwd, my), v3_scale(right, mx));
    return v3_len(dir) > eps ? v3_norm(dir) : v3(0, 0, 0);
}

/* A low opening ahead: the standing capsule is stopped within a short way, the crouched one is
 * not (a vent: SPEC §7, entered crouched). */
static bool low_opening_ahead(const gait_collider *col, gait_vec3 feet, gait_vec3 dir,
                              const gait_locomotion *n) {
    if (n->crouch_height >= n->capsule_height) return false;
    gait_vec3 p = v3(feet.x, feet.y + LIFT_EXTRA, feet.z);
    gait_filter none;
    memset(&none, 0, sizeof none);
    gait_hit hit;
    gait_capsule stand = capsule_at(n->capsule_radius, n->capsule_height, p);
    if (!gait_collider_capsule_sweep(col, &stand, v3_scale(dir, 0.4), &none, &hit)) return false;
    gait_capsule low = capsule_at(n->capsule_radius, n->crouch_height, p);
    return !gait_collider_capsule_sweep(col, &low, v3_scale(dir, 0.8), &none, &hit);
}

void gait__traverse_pre_gates(gait_world *w, gait__character *ch, const gait_locomotion *n,
                              gait_gate_input *gi, double dt) {
    gait__traverse *t = &ch->trav;
    t->cooldown = t->cooldown > dt ? t->cooldown - dt : 0;
    t->stand_blocked = false;
    gait_state s = ch->phase.state;
    if (t->crouch_air) {
        /* a fall begun crouched under a low ceiling: it grows to standing where there is room,
         * else it lands crouched (the crouch's own check takes over on foot) */
        if (!gait_state_airborne(s) ||
            gait_traverse_room_to_stand(w->collider, ch->position, n->capsule_radius,
                                        n->crouch_height, n->capsule_height, NULL))
            t->crouch_air = false;
        else
            gi->crouching = true;
    }
    if (!gait_state_on_foot(s)) {
        t->auto_crouch = t->auto_under = false;
        return;
    }
    bool crouched = s == GAIT_STATE_CROUCH;
    gait_vec3 dir = move_dir(ch, n->move_epsilon);
    /* only a body already stopped by something (contact.wall) looks for an opening: a step in
     * open country pays nothing */
    if (!crouched && !t->auto_crouch && ch->contact.grounded && ch->contact.wall &&
        v3_len2(dir) > 0.5 && low_opening_ahead(w->collider, ch->position, dir, n)) {
        t->auto_crouch = true;
        t->auto_under = false;
        t->auto_seconds = 0;
        /* the lip over an opening the crouched body fits is no wall to climb */
        ch->contact.wall_ahead = false;
    }
    if (t->auto_crouch) t->auto_seconds += dt;
    bool want = gi->crouching || t->auto_crouch;
    if (crouched && (!gi->crouching || t->auto_crouch)) {
        /* the stand-up check: the gate may leave crouch only where the standing capsule fits */
        bool room = gait_traverse_room_to_stand(w->collider, ch->position, n->capsule_radius,
                                                n->crouch_height, n->capsule_height, NULL);
        if (!room) {
            want = true;
            t->stand_blocked = true;
            t->auto_under = t->auto_crouch;
        } else if (t->auto_crouch && (t->auto_under || t->auto_seconds > 1.0)) {
            /* out of the opening (or it was never entered): stand */
            t->auto_crouch = t->auto_under = false;
            want = gi->crouching;
        }
    }
    gi->crouching = want;
}

/* ---- planning (the gates) ------------------------------------------------------------------ */

static const gait_traverse_action_def *row_of(const gait_traverse_table *tab, gait_traverse_kind k,
                                              int row) {
    if (row >= 0 && row < tab->count && tab->actions[row].kind == k) return &tab->actions[row];
    for (int i = 0; i < tab->count; i++)
        if (tab->actions[i].kind == k) return &tab->actions[i];
    return tab->count > 0 ? &tab->actions[0] : NULL;
}

static bool plan(gait_world *w, gait_character_id id, gait__character *ch, const gait_locomotion *n,
                 gait_vec3 fwd, double speed, bool climbing) {
    gait__traverse *t = &ch->trav;
    const gait_traverse_table *tab = &w->traverse_table;
    if (tab->count == 0) return false;
    gait_traverse_query q = gait_traverse_default_query(tab, n);
    q.feet = ch->position;
    q.forward = fwd;
    q.speed = speed;
    if (climbing) {
        q.max_height = tab->climb_over_height; /* over the top of a climb: the same scan */
        q.min_height = n->step_height;
    }
    bool ok = gait_traverse_scan_run(w->collider, &q, NULL, &t->scan);
    t->query = q;
    t->scanned = true;
    if (!ok) return false;
    int row = -1;
    gait_traverse_kind k;
    if (climbing)
        k = t->scan.height > 1.25 ? GAIT_TRAVERSE_MANTLE_HIGH : GAIT_TRAVERSE_MANTLE_LOW;
    else
        k = gait_traverse_choose(tab, &t->scan, speed, &row);
    if (t->hook) {
        gait_traverse_kind h = t->hook(w, id, &t->scan, k, t->hook_user);
        if ((unsigned)h < GAIT_TRAVERSE_KIND_COUNT) k = h;
    }
    if (k == GAIT_TRAVERSE_NONE) return false;
    t->pending = true;
    t->pending_kind = k;
    t->pending_row = row;
    return true;
}

/* The ground dropped away under a crouched body beneath a low ceiling: the fall's standing
 * capsule would start inside the ceiling. The body falls anyway, so the first part of the fall is
 * taken here, crouched and straight down (a sweep says the way is clear), to the first height
 * where the standing capsule fits: the fall then starts clear. Up to 0.8 m in 5 cm steps. */
static void drop_to_standing_room(const gait_collider *col, gait__character *ch,
                                  const gait_locomotion *n) {
    double r = n->capsule_radius, ch_h = n->crouch_height, h = n->capsule_height;
    gait_vec3 p = ch->position;
    if (gait_traverse_room_to_stand(col, p, r, ch_h, h, NULL)) return;
    for (int k = 1; k <= 16; k++) {
        gait_vec3 q = v3(p.x, p.y - 0.05 * k, p.z);
        if (!gait_traverse_room_to_stand(col, q, r, ch_h, h, NULL)) continue;
        gait_capsule c = capsule_at(r, ch_h, p);
        gait_filter none;
        memset(&none, 0, sizeof none);
        gait_hit hit;
        if (!gait_collider_capsule_sweep(col, &c, v3(0, q.y - p.y, 0), &none, &hit)) {
            double th;
            gait_vec3 tn;
            /* not below the terrain either (it is read through its height function) */
            if (!gait_terrain_sample(col, q.x, q.z, &th, &tn) || q.y >= th) ch->position = q;
        }
        return;
    }
}

gait_state gait__traverse_gates(gait_world *w, gait_character_id id, gait__character *ch,
                                const gait_locomotion *n, const gait_gate_input *gi,
                                gait_state proposed) {
    gait__traverse *t = &ch->trav;
    t->pending = false;
    gait_state from = ch->phase.state;
    /* out of the state (a place, a drowning's return) no action is playing: a later entry that
     * skipped the scan (a hook's redirect) must not resume a stale path */
    if (from != GAIT_STATE_TRAVERSE) {
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
        t->latch = false;
    }
    bool jump_pressed = (gi->pressed & GAIT_BUTTON_JUMP) != 0;
    bool jump_held = (gi->held & GAIT_BUTTON_JUMP) != 0;
    gait_vec3 dir = move_dir(ch, n->move_epsilon);
    gait_vec3 facing = v3(sin(ch->yaw), 0, cos(ch->yaw));
    double speed = sqrt(ch->velocity.x * ch->velocity.x + ch->velocity.z * ch->velocity.z);

    if (from == GAIT_STATE_TRAVERSE) {
        if (t->kind != GAIT_TRAVERSE_NONE && t->phase != GAIT_TRAVERSE_PHASE_DONE)
            return GAIT_STATE_TRAVERSE; /* the action plays on */
        /* chaining: jump still held re-plans at once once the cooldown is over */
        if ((jump_held || jump_pressed) && t->cooldown <= 0 && ch->contact.grounded &&
            plan(w, id, ch, n, v3_len2(dir) > 0.5 ? dir : facing, speed, false))
            return GAIT_STATE_TRAVERSE;
        /* the action is over: the gates as if on foot (or falling), the jump already spent */
        gait_phase p = {ch->contact.grounded ? GAIT_STATE_IDLE : GAIT_STATE_FALL, 1.0};
        gait_gate_input g = *gi;
        g.pressed &= ~(uint32_t)GAIT_BUTTON_JUMP;
        gait_state next = gait_locomotion_next(&p, &g, &ch->contact, n);
        if (!gait_locomotion_is_edge(GAIT_STATE_TRAVERSE, next))
            next = ch->contact.grounded ? GAIT_STATE_IDLE : GAIT_STATE_FALL;
        return next;
    }
    /* a crouched body (in the crouch, or falling from one with the crouched capsule) leaves its
     * short capsule only where it can stand: a jump, a dash, a climb or a swim from under a low
     * ceiling would grow the capsule into it (the push-out cannot settle 0.1-0.6 m: the fuzzer,
     * tests/replays/fuzz_crouch_to_swim_under_slab, fuzz_crouched_fall_to_climb_under_slab).
     * Falling goes on with the crouched capsule (crouch_air, below). */
    if ((from == GAIT_STATE_CROUCH || t->crouch_air) && proposed != from &&
        proposed != GAIT_STATE_CROUCH && proposed != GAIT_STATE_FALL &&
        !gait_traverse_room_to_stand(w->collider, ch->position, n->capsule_radius, n->crouch_height,
                                     n->capsule_height, NULL)) {
        t->stand_blocked = true;
        return from;
    }
    if (ch->contact.grounded || from != GAIT_STATE_CROUCH) t->crouch_hover = 0;
    if (from == GAIT_STATE_CROUCH && proposed == GAIT_STATE_FALL &&
        !gait_traverse_room_to_stand(w->collider, ch->position, n->capsule_radius, n->crouch_height,
                                     n->capsule_height, NULL)) {
        /* ground within a step below for a step or three (a grounded reading that flickered at
         * an edge): held crouched; longer, or a real drop, starts the fall where the body can
         * stand, else with the crouched capsule (crouch_air) */
        if (ch->contact.height_above_ground <= n->step_height && t->crouch_hover < 3) {
            t->crouch_hover++;
            t->stand_blocked = true;
            return GAIT_STATE_CROUCH;
        }
        drop_to_standing_room(w->collider, ch, n);
        t->crouch_air = !gait_traverse_room_to_stand(w->collider, ch->position, n->capsule_radius,
                                                     n->crouch_height, n->capsule_height, NULL);
    }
    /* (a held jump also beats the climb a run into a low fence would start) */
    if (gait_state_on_foot(from) && ch->contact.grounded && from != GAIT_STATE_CROUCH &&
        (proposed == GAIT_STATE_JUMP || proposed == GAIT_STATE_CLIMB || gait_state_on_foot(proposed))) {
        /* a press plans; a held jump re-plans every step once the cooldown is over (chaining).
         * Nothing fits: the gates' own answer stands (a press jumps: the fallback) */
        if ((jump_pressed || (jump_held && t->cooldown <= 0)) &&
            plan(w, id, ch, n, v3_len2(dir) > 0.5 ? dir : facing, speed, false))
            return GAIT_STATE_TRAVERSE;
        return proposed;
    }
    if (from == GAIT_STATE_CLIMB && proposed == GAIT_STATE_CLIMB && gi->move_up > n->move_epsilon &&
        !ch->body.on_terrain_wall) {
        gait_vec3 wn = v3(ch->body.wall_normal.x, 0, ch->body.wall_normal.z);
        if (v3_len2(wn) > 0.25 && plan(w, id, ch, n, v3_neg(v3_norm(wn)), 0, true))
            return GAIT_STATE_TRAVERSE;
    }
    return proposed;
}

/* ---- the action ---------------------------------------------------------------------------- */

static void start_action(gait_world *w, gait__character *ch, const gait_locomotion *n) {
    gait__traverse *t = &ch->trav;
    const gait_traverse_table *tab = &w->traverse_table;
    const gait_traverse_scan *s = &t->scan;
    const gait_traverse_action_def *a = row_of(tab, t->pending_kind, t->pending_row);
    t->pending = false;
    if (!a || !s->ok) {
        t->kind = GAIT_TRAVERSE_NONE;
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
        return;
    }
    double r = n->capsule_radius;
    t->kind = t->pending_kind;
    t->actions++;
    t->seconds = 0;
    t->blocked = 0;
    t->in = v3_neg(s->wall_normal);
    t->origin = v3(s->grab.x, s->edge.y, s->grab.z);
    t->ledge_y = s->edge.y;
    t->rise_speed = a->rise_speed;
    t->cross_speed = a->cross_speed;
    t->drop_speed = a->cross_speed;
    bool mantle = t->kind == GAIT_TRAVERSE_MANTLE_LOW || t->kind == GAIT_TRAVERSE_MANTLE_HIGH ||
                  s->thick;
    /* the corridor: how far past the front face this action may take the feet, from what the
     * scan saw and nothing more */
    if (mantle) t->corridor = tab->corridor_mantle;
    else if (s->back_floor) t->corridor = s->back_floor_distance + tab->corridor_floor_margin;
    else t->corridor = s->depth + r + tab->corridor_flight_margin;
    /* the path */
    gait_vec3 g = t->origin;
    gait_vec3 ap = v3_mad(g, t->in, -(r + SKIN));
    ap.y = ch->position.y;
    t->path[0] = ap;
    bool latch = s->landmark.index1 != 0;
    double ly = t->ledge_y;
    t->path[1] = v3(ap.x, latch ? ly - RISE_DIAGONAL : ly + CLEAR, ap.z);
    gait_vec3 p2 = v3_mad(g, t->in, 0.05);
    t->path[2] = v3(p2.x, ly + CLEAR, p2.z);
    gait_vec3 p3 = v3_mad(g, t->in, mantle ? r + 0.1 : s->depth + r + 0.05);
    t->path[3] = v3(p3.x, ly + CLEAR, p3.z);
    t->path_count = 4;
    t->path_next = 0;
    /* a body off the ground (over the top of a climb) or already at the face skips the approach */
    gait_vec3 d = v3_sub(ap, ch->position);
    d.y = 0;
    t->phase = (!ch->contact.grounded || v3_len(d) <= APPROACH_TOL) ? GAIT_TRAVERSE_PHASE_RISE
                                                                     : GAIT_TRAVERSE_PHASE_APPROACH;
    if (t->phase == GAIT_TRAVERSE_PHASE_RISE) {
        t->path[1].x = ch->position.x;
        t->path[1].z = ch->position.z;
        t->path_next = 1;
    }
    /* the latch: the obstacle's triangles near the ledge, a box round the grab point */
    t->latch = latch;
    t->latch_landmark = s->landmark;
    gait_vec3 side = v3(-t->in.z, 0, t->in.x);
    gait_vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = v3(-INFINITY, -INFINITY, -INFINITY);
    double along[2] = {-(r + 0.1), r + 0.1};
    double into[2] = {-0.05, fmin(s->thick ? 0.6 : s->depth, 0.6) + 0.02};
    double ys[2] = {ly - (r + 0.2), ly + 0.1};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) {
                gait_vec3 p = v3_mad(v3_mad(g, side, along[i]), t->in, into[j]);
                p.y = ys[k];
                lo = v3_min(lo, p);
                hi = v3_max(hi, p);
            }
    t->latch_min = lo;
    t->latch_max = hi;
}

/* The filter of the action's own sweeps: the whole world, less the latched region while on. */
static gait_filter action_filter(const gait__traverse *t) {
    gait_filter f;
    memset(&f, 0, sizeof f);
    if (t->latch) {
        f.ignore = t->latch_landmark;
        f.ignore_region_only = true;
        f.region_min = t->latch_min;
        f.region_max = t->latch_max;
    }
    return f;
}

/* Moves the capsule by d with a sweep; returns whether the whole move was made. */
static bool sweep_move(const gait_collider *col, const gait_filter *f, double r, double h,
                       gait_vec3 *feet, gait_vec3 d) {
    if (v3_len2(d) < 1e-18) return true;
    gait_capsule c = capsule_at(r, h, *feet);
    gait_hit hit;
    if (!gait_collider_capsule_sweep(col, &c, d, f, &hit)) {
        *feet = v3_add(*feet, d);
        return true;
    }
    *feet = v3_mad(*feet, d, hit.fraction);
    return false;
}

/* Pushes any intrusion past the corridor back (along -in, by a sweep so it meets what is there). */
static void corridor_clamp(const gait__traverse *t, const gait_collider *col, double r, double h,
                           gait_vec3 *feet, gait_vec3 *vel) {
    double d = v3_dot(v3_sub(*feet, t->origin), t->in);
    if (d <= t->corridor) return;
    gait_filter f = action_filter(t);
    sweep_move(col, &f, r, h, feet, v3_scale(t->in, -(d - t->corridor)));
    double vi = v3_dot(*vel, t->in);
    if (vi > 0) *vel = v3_mad(*vel, t->in, -vi);
}

static void finish_contact(gait_world *w, gait__character *ch, const gait_mover *m, bool grounded,
                           gait_vec3 ground_n, gait_vec3 vel) {
    gait_contact *c = &ch->contact;
    gait__body *b = &ch->body;
    memset(c, 0, sizeof *c);
    c->grounded = grounded;
    c->rising = vel.y > 1e-9;
    c->height_above_ground = 0;
    if (!grounded) {
        gait_hit hit;
        double best = INFINITY, th;
        gait_vec3 tn;
        if (gait_terrain_sample(m->collider, ch->position.x, ch->position.z, &th, &tn))
            best = ch->position.y - th;
        gait_filter f;
        memset(&f, 0, sizeof f);
        f.skip_terrain = true;
        gait_vec3 o = v3(ch->position.x, ch->position.y + 0.01, ch->position.z);
        if (gait_collider_ray_cast(m->collider, o, v3(0, -1000, 0), &f, &hit) &&
            hit.distance - 0.01 < best)
            best = hit.distance - 0.01;
        c->height_above_ground = best < 0 ? 0 : best;
    }
    double surface, depth;
    if (gait_water_at(m->collider, ch->position.x, ch->position.z, &surface, &depth)) {
        c->water_depth = depth;
        c->submersion = surface - ch->position.y;
    } else {
        c->submersion = 0; /* dry: as body.c writes it ("<= 0 above it or dry", and finite) */
    }
    b->vel = vel;
    b->on_ground = grounded;
    b->ground_normal = grounded ? ground_n : UP;
    b->launch_speed = sqrt(vel.x * vel.x + vel.z * vel.z);
    (void)w;
}

void gait__traverse_move(gait_world *w, gait__character *ch, const gait_locomotion *n,
                         gait_state from, double dt) {
    gait__traverse *t = &ch->trav;
    (void)from;
    if (t->pending) start_action(w, ch, n);
    const gait_collider *col = gait_world_collider_const(w);
    gait_mover m;
    gait_mover_init(&m, col, n->capsule_radius, n->capsule_height, n->step_height,
                     n->max_walk_slope);
    double r = n->capsule_radius, h = n->capsule_height;
    gait_vec3 start = ch->position, feet = start;
    gait_vec3 vel = v3(0, 0, 0);
    bool grounded = false;
    gait_vec3 gn = UP;
    gait_move_result res;
    memset(&res, 0, sizeof res);

    if (t->kind == GAIT_TRAVERSE_NONE || t->phase == GAIT_TRAVERSE_PHASE_DONE) {
        /* nothing to play (a hook forced the state): stand where it is */
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
        gait_mover_walk(&m, &feet, v3(0, 0, 0), ch->body.ground_normal, dt, NULL, &res);
        ch->position = feet;
        ch->velocity = v3(0, 0, 0);
        finish_contact(w, ch, &m, res.grounded, res.ground_normal, v3(0, 0, 0));
        return;
    }
    t->seconds += dt;
    gait_filter f = action_filter(t);
    ch->yaw = atan2(t->in.x, t->in.z); /* faces the obstacle */

    if (t->phase == GAIT_TRAVERSE_PHASE_APPROACH) {
        gait_vec3 d = v3_sub(t->path[0], feet);
        d.y = 0;
        double dist = v3_len(d);
        /* at the speed the body came with (a standing start walks up to the face) */
        double speed = fmax(n->walk_speed, sqrt(ch->velocity.x * ch->velocity.x +
                                                ch->velocity.z * ch->velocity.z));
        if (dist > APPROACH_TOL) {
            double sp = fmin(speed, dist / dt);
            gait_mover_walk(&m, &feet, v3_scale(d, sp / dist), ch->body.ground_normal, dt, NULL,
                             &res);
            grounded = res.grounded;
            gn = res.ground_normal;
            vel = v3_scale(v3_sub(feet, start), 1.0 / dt);
            gait_vec3 d2 = v3_sub(t->path[0], feet);
            d2.y = 0;
            if (v3_len(d2) > dist - 1e-4) t->blocked += dt; /* made no way */
            if (!res.grounded) t->blocked = BLOCKED_END + 1; /* the ground dropped away */
        }
        gait_vec3 d3 = v3_sub(t->path[0], feet);
        d3.y = 0;
        if (v3_len(d3) <= APPROACH_TOL || (res.wall && v3_len(d3) < 0.15)) {
            t->phase = GAIT_TRAVERSE_PHASE_RISE;
            t->path[1].x = feet.x;
            t->path[1].z = feet.z;
            t->path_next = 1;
        }
    } else if (t->phase == GAIT_TRAVERSE_PHASE_RISE || t->phase == GAIT_TRAVERSE_PHASE_CROSS) {
        /* along the waypoints at the row's speeds; what is left of the step carries on */
        double left = dt;
        for (int guard = 0; guard < 4 && left > 1e-12 && t->path_next < t->path_count; guard++) {
            gait_vec3 target = t->path[t->path_next];
            double speed = t->path_next <= 2 ? t->rise_speed : t->cross_speed;
            t->phase = t->path_next <= 2 ? GAIT_TRAVERSE_PHASE_RISE : GAIT_TRAVERSE_PHASE_CROSS;
            gait_vec3 d = v3_sub(target, feet);
            double dist = v3_len(d), can = speed * left;
            bool arrive = dist <= can;
            gait_vec3 mv = arrive ? d : v3_scale(d, can / dist);
            bool whole = sweep_move(col, &f, r, h, &feet, mv);
            if (t->latch && feet.y >= t->ledge_y + LATCH_EPS) {
                t->latch = false; /* above the ledge: the world is solid again */
                f = action_filter(t);
            }
            if (!whole) {
                t->blocked += left;
                break;
            }
            left -= arrive ? (speed > 0 ? dist / speed : left) : left;
            if (arrive) t->path_next++;
        }
        vel = v3_scale(v3_sub(feet, start), 1.0 / dt);
        if (t->path_next >= t->path_count) {
            bool mantle = t->kind == GAIT_TRAVERSE_MANTLE_LOW ||
                          t->kind == GAIT_TRAVERSE_MANTLE_HIGH || t->scan.thick;
            t->latch = false;
            if (mantle) {
                /* settle onto the top */
                gait_mover_walk(&m, &feet, v3(0, 0, 0), UP, dt, NULL, &res);
                grounded = res.grounded;
                gn = res.ground_normal;
                vel = v3(0, 0, 0);
                t->phase = GAIT_TRAVERSE_PHASE_DONE;
            } else {
                t->phase = GAIT_TRAVERSE_PHASE_DROP;
                vel = v3_scale(t->in, t->drop_speed);
            }
        }
    } else if (t->phase == GAIT_TRAVERSE_PHASE_DROP) {
        gait_vec3 v = ch->body.vel;
        double vy0 = v.y, vy1 = vy0 - n->gravity * dt;
        if (vy1 < -n->max_fall_speed) vy1 = -n->max_fall_speed;
        gait_vec3 delta = v3(v.x * dt, 0.5 * (vy0 + vy1) * dt, v.z * dt);
        gait_mover_fly(&m, &feet, delta, v3(v.x, vy1, v.z), NULL, &res);
        vel = res.vel;
        double surface, depth;
        if (res.grounded) {
            grounded = true;
            gn = res.ground_normal;
            vel.y = 0;
            t->phase = GAIT_TRAVERSE_PHASE_DONE;
        } else if (gait_water_at(col, feet.x, feet.z, &surface, &depth) &&
                   depth > n->wading_depth && surface - feet.y >= n->wading_depth) {
            t->phase = GAIT_TRAVERSE_PHASE_DONE; /* into deep water: the fall's gate swims */
        }
    }
    corridor_clamp(t, col, r, h, &feet, &vel);
    /* The last word, as the body's move has it (gait_mover_settle): the action's sweeps skip
     * every triangle of the ledge's landmark that touches the latch box, and a large one (a
     * sloping top, a bevel) reaches out of the box where it is not the ledge; the path can end
     * a few cm inside it (tests/replays/fuzz_traverse_path_into_geometry.replay). Outside the
     * latch box the body is pushed out; what the push-out cannot solve ends the action where
     * the last step left the body (SPEC §8: refused or ends cleanly), never inside. */
    m.latch = t->latch;
    m.latch_landmark = t->latch_landmark;
    m.latch_min = t->latch_min;
    m.latch_max = t->latch_max;
    gait_move_result settled;
    gait__mover_result_clear(&settled);
    bool refused = gait_mover_settle(&m, start, &feet, false, false, &settled, NULL);
    /* ... and the terrain's: a body beyond the heightfield's edge (fallen off it, caught on a
     * wall) can rise and cross into the terrain's volume from the side, where no terrain sweep
     * meets it (tests/replays/fuzz_traverse_into_terrain_from_outside.replay: 2.5 m under it).
     * The move is refused as a landmark's would be, unless the start was no better. */
    double th, th0;
    gait_vec3 tn;
    bool start_under = gait_terrain_sample(col, start.x, start.z, &th0, &tn) &&
                       start.y < th0 - TERRAIN_REFUSE;
    if (!refused && !start_under && gait_terrain_sample(col, feet.x, feet.z, &th, &tn) &&
        feet.y < th - TERRAIN_REFUSE) {
        feet = start;
        refused = true;
    }
    if (refused) {
        vel = v3(0, 0, 0);
        if (t->phase != GAIT_TRAVERSE_PHASE_DONE) t->blocked = BLOCKED_END + 1;
    }

    if (t->phase != GAIT_TRAVERSE_PHASE_DONE &&
        (t->blocked > BLOCKED_END || t->seconds > ACTION_MAX)) {
        /* the path is blocked (or the action overran): end cleanly where the body is, on the
         * ground if it stands, else falling */
        t->latch = false;
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
        gait_vec3 probe = feet;
        gait_mover_walk(&m, &probe, v3(0, 0, 0), UP, dt, NULL, &res);
        if (res.grounded && fabs(probe.y - feet.y) <= n->step_height) {
            feet = probe;
            grounded = true;
            gn = res.ground_normal;
        }
        vel = v3(0, fmin(vel.y, 0), 0);
    }
    if (t->phase == GAIT_TRAVERSE_PHASE_DONE) t->cooldown = w->traverse_table.cooldown;
    ch->position = feet;
    ch->velocity = dt > 0 ? v3_scale(v3_sub(feet, start), 1.0 / dt) : v3(0, 0, 0);
    finish_contact(w, ch, &m, grounded, gn, vel);
}
