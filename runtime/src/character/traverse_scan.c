/* The traversal's scan (docs/behaviour.md, "Traversal"): a pure, allocation-free query over the
 * collider with the body's own capsule — a sweep forward to the obstacle, the ledge from a trace
 * along the face and one down from above, side probes that build a ledge *segment*, the grab
 * point (the body's projection on that segment, kept a margin from its ends), the room check in
 * two legs (straight up, then forward over the ledge), the depth by a reverse trace from beyond
 * the face, and the floor behind.
 *
 * It follows the pipeline of Epic's Game Animation Sample Project (GASP) — capsule sweeps the
 * size of the body, not rays, so an action is offered only where the *body* fits — with its one
 * hand-made layer replaced: GASP reads ledges from splines an artist placed on each obstacle;
 * here the ledge is synthesised at run time from traces.
 *
 * No mutable globals; allocates nothing; doubles only and a fixed number of queries, so the same
 * inputs give the same bits. */
#include "traverse_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/vec.h"
#include "debug_draw.h"
#include "mover_internal.h"

/* ---- scan constants (m) ------------------------------------------------------------------- */
#define LIFT_EXTRA 0.02     /* the forward sweep starts this far above the step height */
#define LEDGE_IN 0.05       /* the down trace looks this far beyond the face */
#define LEDGE_TOL 0.1       /* a side probe's top within this of the ledge's height is the ledge */
#define FACE_TOL 0.1        /* a side probe's face within this of the front face plane */
#define PROBE_STEP 0.25     /* side probes this far apart ... */
#define PROBE_COUNT 10      /* ... this many each side (2.5 m) ... */
#define PROBE_BISECT 5      /* ... then the end halved this often (0.25 / 32 ~ 8 mm) */
#define SKIN GAIT__TRAVERSE_SKIN
#define CLEAR GAIT__TRAVERSE_CLEAR
#define DEPTH_TRACE 2.0     /* the depth trace reaches this far into the obstacle */
#define BACK_READ 0.1       /* the floor behind is read this far beyond the capsule past the back */
#define COS_FLOOR 0.7071    /* a floor behind within 45 deg of up */
#define PROBE_ABOVE 0.25    /* a side probe's trace starts this far above the ledge ... */
#define PROBE_DOWN 0.5      /* ... and looks this far down */
#define FACE_BACK 0.25      /* a side probe's face trace starts this far out from the face */
#define UNDER_LEDGE 0.05    /* traces along the face run this far under the ledge ... */
#define OVER_LEDGE 0.05     /* ... and the open-top trace this far over it */
#define FACE_TRACE_BACK 0.1 /* the face traces start this far behind the capsule's front */
#define WALL_MIN 0.5        /* a wall's normal is at least this long in the ground plane */
#define FACING_COS 0.25     /* ... and faces the move by at least this (about 75 deg) */
#define DEPTH_STOP 0.01     /* the depth trace starts this far inside the front face */
#define MANTLE_OVER 0.1     /* past the radius a mantle's room check goes onto a thick top */
#define GRAB_DOT 0.08       /* m: the grab point as the debug view draws it */
#define SIN_MAX_LEAN 0.6428 /* sin 40 deg: a face leaning back further is a slope to climb, not
                               an obstacle's face to vault or mantle (its action rises beside it) */

typedef struct scan_ctx {
    const gait_collider *col;
    gait_gather *g;             /* the queries go through it (may be NULL) */
    const gait_traverse_query *q;
    const gait_debug_draw *draw;
    gait_traverse_scan *s;
} scan_ctx;

/* A sweep of the body's capsule (feet at `feet`) by d; drawn as the paths of its two sphere
 * centres. */
static bool csweep(scan_ctx *x, gait_vec3 feet, gait_vec3 d, gait_hit *hit) {
    gait_capsule c = gait__upright_capsule(feet, x->q->radius, x->q->height);
    x->s->sweeps++;
    bool h = gait__query_sweep(x->col, x->g, &c, d, &x->q->filter, hit);
    if (x->draw) {
        double f = h ? hit->fraction : 1;
        gait__draw_line(x->draw, c.a, v3_mad(c.a, d, f), GAIT__COL_SWEEP);
        gait__draw_line(x->draw, c.b, v3_mad(c.b, d, f), GAIT__COL_SWEEP);
        if (h) gait__draw_point(x->draw, hit->point, 0.04, GAIT__COL_HIT);
    }
    return h;
}

/* The scan's later stages ask many queries of a region its first gather did not cover (the side
 * probes reach PROBE_COUNT * PROBE_STEP along the edge, the room and the floor behind go past
 * the ledge and below the feet): one gather for each stage's whole region, rather than a gather
 * around every query that leaves the last one. The answers are the collider's either way. */
#define GATHER_SPARE 0.01 /* m around a stage's region */

static void gather_stage(scan_ctx *x, gait_vec3 lo, gait_vec3 hi) {
    if (!x->g || x->q->filter.skip_landmarks) return;
    gait_vec3 m = v3(GATHER_SPARE, GATHER_SPARE, GATHER_SPARE);
    lo = v3_sub(lo, m);
    hi = v3_add(hi, m);
    if (x->g->collider == x->col && gait_gather_holds(x->g, lo, hi)) return;
    gait_collider_gather(x->col, lo, hi, x->g);
}

/* The box of the points c + t * a + in * b for a in [a0, a1], b in [b0, b1], y in [y0, y1]. */
static void stage_box(gait_vec3 c, gait_vec3 t, double a0, double a1, gait_vec3 in, double b0,
                      double b1, double y0, double y1, gait_vec3 *lo, gait_vec3 *hi) {
    *lo = v3(INFINITY, y0, INFINITY);
    *hi = v3(-INFINITY, y1, -INFINITY);
    for (int i = 0; i < 4; i++) {
        gait_vec3 p = v3_mad(v3_mad(c, t, i & 1 ? a1 : a0), in, i & 2 ? b1 : b0);
        lo->x = fmin(lo->x, p.x);
        lo->z = fmin(lo->z, p.z);
        hi->x = fmax(hi->x, p.x);
        hi->z = fmax(hi->z, p.z);
    }
}

static bool ray(scan_ctx *x, gait_vec3 o, gait_vec3 d, gait_hit *hit) {
    x->s->rays++;
    bool h = gait__query_ray(x->col, x->g, o, d, &x->q->filter, hit);
    if (x->draw) {
        gait__draw_line(x->draw, o, h ? hit->point : v3_add(o, d), GAIT__COL_RAY);
        if (h) gait__draw_point(x->draw, hit->point, 0.02, GAIT__COL_HIT);
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
    o.y = ly + PROBE_ABOVE;
    if (!ray(x, o, v3(0, -PROBE_DOWN, 0), &hit)) return false;
    if (fabs(hit.point.y - ly) > LEDGE_TOL || hit.normal.y < cos_ledge) return false;
    if (!face_too) return true;
    gait_vec3 o2 = v3_mad(q, in, -FACE_BACK);
    o2.y = ly - UNDER_LEDGE;
    if (!ray(x, o2, v3_scale(in, FACE_BACK + LEDGE_IN + FACE_TOL), &hit)) return false;
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
     * walk back a probe at a time until it does, then halve the last step as above (an end on
     * the probe grid has its top met at its very edge and its face missed by a hair) */
    double past = good;
    while (good != 0 && !ledge_probe(x, e, t, in, good, ly, cos_ledge, true)) {
        past = good;
        good = sign * fmax(0, fabs(good) - PROBE_STEP);
    }
    if (past != good)
        for (int b = 0; b < PROBE_BISECT; b++) {
            double mid = 0.5 * (good + past);
            if (ledge_probe(x, e, t, in, mid, ly, cos_ledge, true)) good = mid;
            else past = mid;
        }
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

bool gait__traverse_query_valid(const gait_traverse_query *q) {
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

/* The stages of a scan, each failing with a reason. Between them: the forward direction f, the
 * way into the obstacle `in`, the edge's direction t, the front edge e at ledge height ly. */
typedef struct scan_state {
    gait_vec3 f, in, t, e;
    double ly, cos_ledge;
} scan_state;

/* 1. forward: the body's capsule, lifted over what it would step onto, swept ahead by a reach
 * that grows with speed (GASP: 0.75 m at rest to 3.5 m at 5 m/s). */
static bool scan_forward(scan_ctx *x, scan_state *st) {
    const gait_traverse_query *q = x->q;
    gait_traverse_scan *s = x->s;
    gait_vec3 feet = q->feet;
    double k = clampd(q->speed / q->reach_speed, 0, 1);
    double reach = q->reach_min + (q->reach_max - q->reach_min) * k;
    gait_vec3 lifted = v3(feet.x, feet.y + q->step_height + LIFT_EXTRA, feet.z);
    gait_hit hit;
    if (!csweep(x, lifted, v3_scale(st->f, reach), &hit)) return fail(s, "no obstacle");
    if (hit.start_solid) return fail(s, "inside geometry");
    /* the wall's normal in the ground plane: y dropped *before* normalising (a "2D" normal that
     * kept its y would tilt every probe built on it) */
    gait_vec3 n2 = v3(hit.normal.x, 0, hit.normal.z);
    double nl = v3_len(n2);
    if (nl < WALL_MIN) return fail(s, "not a wall"); /* mostly up or down: a floor's or ceiling's edge */
    n2 = v3_scale(n2, 1.0 / nl);
    if (v3_dot(n2, st->f) > -FACING_COS) return fail(s, "not facing the wall");
    s->wall = true;
    s->wall_point = hit.point;
    s->wall_normal = n2;
    s->wall_distance = hit.distance;
    s->landmark = hit.landmark;
    st->in = v3_neg(n2);
    /* along the edge, to the body's right as it faces `in` (facing +z, right is -x as the
     * camera-relative move has it): ledge_a lies to the left (-t), ledge_b to the right (+t) */
    st->t = v3(-st->in.z, 0, st->in.x);
    return true;
}

/* 2. the ledge: a trace down from above the highest ledge, just beyond the face, and one along
 * the face just below that height (the face reaches the ledge); the top above it is open. */
static bool scan_ledge(scan_ctx *x, scan_state *st) {
    const gait_traverse_query *q = x->q;
    gait_traverse_scan *s = x->s;
    double r = q->radius;
    gait_vec3 feet = q->feet, in = st->in;
    gait_hit hit;
    gait_vec3 o = v3_mad(s->wall_point, in, LEDGE_IN);
    double top = feet.y + q->max_height + CLEAR;
    o.y = top;
    double down = top - (feet.y + q->step_height);
    if (!ray(x, o, v3(0, -down, 0), &hit)) return fail(s, "no ledge");
    gait_vec3 front = s->wall_point; /* the face, near where the ledge's traces look for it */
    if (hit.normal.y < st->cos_ledge) {
        /* a face leaning back further than LEDGE_IN over its height: the trace met the face. Look
         * down the face's own slope from above the highest ledge, LEDGE_IN inside its plane: in
         * the open air above the obstacle, the first thing met is its top, at the edge */
        gait_vec3 n = hit.normal;
        if (!(n.y > 0 && n.y <= SIN_MAX_LEAN && v3_dot(v3(n.x, 0, n.z), in) < 0))
            return fail(s, "ledge too steep");
        gait_vec3 u = v3_norm(v3(-n.x * n.y, 1 - n.y * n.y, -n.z * n.y)); /* up along the face */
        gait_vec3 p = v3_mad(hit.point, n, -LEDGE_IN);
        gait_vec3 from = v3_mad(p, u, (top - p.y) / u.y);
        if (!ray(x, from, v3_scale(u, -down / u.y), &hit) || hit.normal.y < st->cos_ledge)
            return fail(s, "ledge too steep");
        front = v3_mad(hit.point, in, -LEDGE_IN);
    }
    double ly = hit.point.y;
    s->ledge_normal = hit.normal;
    gait_vec3 o2 = v3_mad(front, in, -(r + FACE_TRACE_BACK));
    o2.y = ly - UNDER_LEDGE;
    if (!ray(x, o2, v3_scale(in, r + FACE_TRACE_BACK + LEDGE_IN + FACE_TOL), &hit))
        return fail(s, "face does not reach the ledge");
    /* the face's lean, from its normal there (a vertical face's is exactly 0) */
    s->lean = hit.normal.y > 0 ? asin(fmin(hit.normal.y, 1.0)) : 0;
    st->e = v3(hit.point.x, ly, hit.point.z);
    st->ly = ly;
    s->edge = st->e;
    s->height = ly - feet.y;
    if (s->height > q->max_height) return fail(s, "too high");
    if (s->height < q->min_height) return fail(s, "too low");
    gait_vec3 o3 = v3(o2.x, ly + OVER_LEDGE, o2.z);
    if (ray(x, o3, v3_scale(in, r + FACE_TRACE_BACK + LEDGE_IN + OVER_LEDGE), &hit))
        return fail(s, "no top");
    return true;
}

/* 3. ledge synthesis: side probes build a segment; the grab point is the body's projection on
 * it, kept grab_margin from its ends. */
static void scan_segment(scan_ctx *x, const scan_state *st) {
    gait_traverse_scan *s = x->s;
    gait_vec3 e = st->e, t = st->t;
    /* the probes: along the edge both ways, from FACE_BACK before the face to past the ledge's
     * lip, from PROBE_ABOVE over the ledge down */
    gait_vec3 glo, ghi;
    double along = PROBE_STEP * PROBE_COUNT;
    stage_box(e, t, -along, along, st->in, -FACE_BACK, LEDGE_IN + FACE_TOL,
              st->ly - PROBE_DOWN + PROBE_ABOVE - UNDER_LEDGE, st->ly + PROBE_ABOVE, &glo, &ghi);
    gather_stage(x, glo, ghi);
    double sa = ledge_end(x, e, t, st->in, st->ly, st->cos_ledge, -1.0);
    double sb = ledge_end(x, e, t, st->in, st->ly, st->cos_ledge, +1.0);
    s->ledge_a = v3_mad(e, t, sa);
    s->ledge_b = v3_mad(e, t, sb);
    double u = v3_dot(v3_sub(x->q->feet, e), t);
    double lo = sa + x->q->grab_margin, hi = sb - x->q->grab_margin;
    u = lo <= hi ? clampd(u, lo, hi) : 0.5 * (sa + sb); /* shorter than two margins: its middle */
    s->grab = v3_mad(e, t, u);
    s->ledge = true;
    if (x->draw) {
        gait__draw_line(x->draw, s->ledge_a, s->ledge_b, GAIT__COL_LEDGE);
        gait__draw_point(x->draw, s->grab, GRAB_DOT, GAIT__COL_GRAB);
    }
}

/* 4. depth: a trace forward from just inside the front face, under the ledge, meets the
 * obstacle's own back face first (rays meet faces from either side) — a trace back from beyond
 * it would meet the farthest back face instead (a second fence, a room's back wall). No hit
 * within DEPTH_TRACE: thicker than that. The depth is measured from the front edge (the face
 * under the ledge, less its lean over UNDER_LEDGE) to the hit. */
static void scan_depth(scan_ctx *x, const scan_state *st) {
    gait_traverse_scan *s = x->s;
    gait_hit hit;
    gait_vec3 b0 = v3_mad(s->grab, st->in, DEPTH_STOP);
    b0.y = st->ly - UNDER_LEDGE;
    if (ray(x, b0, v3_scale(st->in, DEPTH_TRACE - DEPTH_STOP), &hit)) {
        s->depth = v3_dot(v3_sub(hit.point, s->grab), st->in) - UNDER_LEDGE * tan(s->lean);
    } else {
        s->thick = true;
        s->depth = DEPTH_TRACE;
    }
}

/* 5. room in two legs, the way a mantle moves: straight up beside the face, then forward over
 * the ledge (a diagonal would clip the top corner and fail at point blank). */
static bool scan_room(scan_ctx *x, const scan_state *st) {
    gait_traverse_scan *s = x->s;
    double r = x->q->radius;
    gait_hit hit;
    /* beside the face at the ledge, its clearance taken square to a leaning face; at the feet,
     * out by the face's lean over the height between (the first leg runs along the face) */
    double off = (r + SKIN) / cos(s->lean);
    gait_vec3 a = v3_mad(s->grab, st->in, -off);
    gait_vec3 a0 = v3_mad(s->grab, st->in, -(off + (st->ly - x->q->feet.y - LIFT_EXTRA) * tan(s->lean)));
    a0.y = x->q->feet.y + LIFT_EXTRA;
    a.y = st->ly + CLEAR;
    gait_vec3 leg = v3_sub(a, a0);
    if (leg.y > 0 && csweep(x, a0, leg, &hit)) return fail(s, "no room above");
    double over = r + SKIN + (s->thick ? r + MANTLE_OVER : s->depth + r + BACK_READ);
    if (csweep(x, a, v3_scale(st->in, over), &hit)) return fail(s, "no room over the ledge");
    s->room = true;
    return true;
}

/* 6. the floor behind: the body's capsule swept down behind the back face (where the room
 * check's second leg ended), so the landing is a place the body fits. Its height is read from
 * the contact point (the point's y less the feet's — never a normal's component). */
static void scan_floor_behind(scan_ctx *x, const scan_state *st) {
    gait_traverse_scan *s = x->s;
    const gait_traverse_query *q = x->q;
    if (s->thick) return;
    s->back_floor_distance = s->depth + q->radius + BACK_READ;
    gait_vec3 fb = v3_mad(s->grab, st->in, s->back_floor_distance);
    fb.y = st->ly + CLEAR;
    double reach_down = fb.y - (q->feet.y - q->max_drop);
    gait_hit hit;
    if (csweep(x, fb, v3(0, -reach_down, 0), &hit) && !hit.start_solid &&
        hit.normal.y >= COS_FLOOR) {
        s->back_floor = true;
        s->back_floor_height = hit.point.y - q->feet.y;
    }
}

/* The scan offers an action only past its first trace down (scan_ledge): a ray from above the
 * highest ledge, LEDGE_IN beyond the wall point the forward sweep met, down to the step height,
 * whose first hit is within max_ledge_slope of level. The wall point lies within the radius of
 * the forward sweep's axis, so that ray lies in the box below (a millimetre to spare for
 * rounding), or as far again beyond it as a face leaning back lets its top lie; with no such
 * surface in the box the scan fails, whatever else it meets. */
#define NO_LEDGE_SPARE 1e-3 /* m */

bool gait__traverse_ledge_box(const gait_traverse_query *q, gait_vec3 *lo, gait_vec3 *hi) {
    if (!q || !gait__traverse_query_valid(q)) return false;
    gait_vec3 f = v3_norm(v3(q->forward.x, 0, q->forward.z));
    if (v3_len2(f) < 0.5) return false;
    double reach = q->reach_min + (q->reach_max - q->reach_min) * clampd(q->speed / q->reach_speed, 0, 1);
    /* a face leaning back (up to SIN_MAX_LEAN) puts its top further in than the wall point, by
     * as much as its height times the lean's tangent: the second trace down of scan_ledge */
    double lean_run = (q->max_height + CLEAR) * SIN_MAX_LEAN / sqrt(1 - SIN_MAX_LEAN * SIN_MAX_LEAN);
    gait_vec3 feet = q->feet, ahead = v3_mad(feet, f, reach + lean_run);
    double side = q->radius + LEDGE_IN + NO_LEDGE_SPARE;
    *lo = v3(fmin(feet.x, ahead.x) - side, feet.y + q->step_height - NO_LEDGE_SPARE,
             fmin(feet.z, ahead.z) - side);
    *hi = v3(fmax(feet.x, ahead.x) + side, feet.y + q->max_height + CLEAR + NO_LEDGE_SPARE,
             fmax(feet.z, ahead.z) + side);
    return true;
}

bool gait__traverse_box_level_free(gait_gather *g, const gait_traverse_query *q, gait_vec3 lo,
                                   gait_vec3 hi) {
    return g && q && gait_gather_level_free(g, lo, hi, q->max_ledge_slope, &q->filter);
}

bool gait__traverse_no_ledge(gait_gather *g, const gait_traverse_query *q) {
    gait_vec3 lo, hi;
    if (!g || !gait__traverse_ledge_box(q, &lo, &hi)) return false;
    return gait__traverse_box_level_free(g, q, lo, hi);
}

bool gait_traverse_scan_run(const gait_collider *col, const gait_traverse_query *q,
                            const gait_debug_draw *draw, gait_traverse_scan *s) {
    return gait__traverse_scan(col, NULL, q, draw, s);
}

bool gait__traverse_scan(const gait_collider *col, gait_gather *g, const gait_traverse_query *q,
                         const gait_debug_draw *draw, gait_traverse_scan *s) {
    if (!s) return false;
    memset(s, 0, sizeof *s);
    set_reason(s, "invalid query");
    if (!col || !q || !gait__traverse_query_valid(q)) return false;
    scan_ctx x = {col, g, q, draw, s};
    scan_state st;
    memset(&st, 0, sizeof st);
    st.f = v3_norm(v3(q->forward.x, 0, q->forward.z));
    if (v3_len2(st.f) < 0.5) return fail(s, "invalid query");
    st.cos_ledge = cos(q->max_ledge_slope);
    if (!scan_forward(&x, &st) || !scan_ledge(&x, &st)) return false;
    scan_segment(&x, &st);
    {
        /* the depth, the room and the floor behind: beside the grab point (the capsule's
         * width), from the room check's start behind the face to past the deepest floor
         * read, from the lowest floor behind up to the body over the ledge */
        double r = q->radius;
        gait_vec3 lo, hi;
        stage_box(s->grab, st.t, -r, r, st.in, -(2 * r + SKIN),
                  2 * r + SKIN + MANTLE_OVER + DEPTH_TRACE + BACK_READ + r,
                  fmin(q->feet.y + LIFT_EXTRA, q->feet.y - q->max_drop), st.ly + CLEAR + q->height,
                  &lo, &hi);
        gather_stage(&x, lo, hi);
    }
    scan_depth(&x, &st);
    if (!scan_room(&x, &st)) return false;
    scan_floor_behind(&x, &st);
    s->ok = true;
    set_reason(s, "ok");
    return true;
}
