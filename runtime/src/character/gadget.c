/* World gadgets (gait/motion.h): traversal aids a world file declares, made of the kits' verbs and
 * acting on any body with no kit — an updraft (the glider opens and rises), a wind current (a
 * move along its path), a grapple point (a press in range: a move to it, hanging there), a
 * bounce pad (a launch). The motion stage asks them after the gates (gait__gadgets_gate), only
 * for a body with no kit request and no action playing; the first gadget that acts, in the order
 * they were added, is the one. A world with none pays one comparison a step.
 *
 * Gadgets are world data, like the geometry: a snapshot does not carry them; an action a gadget
 * started copies what it needs (its path) into the character, so the snapshot carries that. */
#include "motion.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/vec.h"
#include "world_internal.h"

#define FAIL GAIT__FAIL
#define GADGETS_FIRST 16        /* slots allocated by the first add (doubled when full) */
#define GADGETS_MAX 4096
#define BOUNCE_REACH 0.3        /* m: feet within this of the pad's top stand on it */
#define UPDRAFT_BELOW 0.5       /* m: an updraft reaches this far below its base */
#define UPDRAFT_FADE 2.0        /* m under its top over which the lift fades into the glide's
                                   sink, so a glider settles just under the top (provisional) */
#define WIND_ARRIVE 0.75        /* m: a wind's point is passed within this */
#define WIND_MIN_RIDE 2.0       /* m of path left for a wind to catch a glider (at its end it
                                   lets go) */
#define WIND_SLACK 1.5          /* the ride may take this times its length over speed */
#define GRAPPLE_ARRIVE 0.3      /* m: arrived at the point */
#define GRAPPLE_HANG 30.0       /* s the body hangs at most (then falls) */
#define GRAPPLE_CHEST 0.6       /* of the capsule's height: where the range and the line of sight
                                   are measured from */
#define GRAPPLE_SIGHT_SLACK 0.5 /* m short of the point a blocking hit is ignored (what holds it) */

static const char *const kind_names[GAIT_GADGET_KIND_COUNT] = {"updraft", "wind", "grapple", "bounce"};

const char *gait_gadget_kind_name(gait_gadget_kind k) {
    return (unsigned)k < GAIT_GADGET_KIND_COUNT ? kind_names[k] : NULL;
}

int gait_gadget_kind_from_name(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < GAIT_GADGET_KIND_COUNT; i++)
        if (strcmp(name, kind_names[i]) == 0) return i;
    return -1;
}

gait_gadget_def gait_default_gadget_def(gait_gadget_kind kind) {
    gait_gadget_def d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    switch (kind) {
    case GAIT_GADGET_UPDRAFT: d.radius = 3; d.height = 20; d.speed = 8; break;     /* provisional */
    case GAIT_GADGET_WIND: d.radius = 3; d.height = 1; d.speed = 14; break;        /* provisional */
    case GAIT_GADGET_GRAPPLE:
        d.radius = 12; d.height = 1; d.speed = 22; d.button = GAIT_BUTTON_DROP;    /* provisional */
        break;
    case GAIT_GADGET_BOUNCE: d.radius = 1.5; d.height = 8; d.speed = 1; break;     /* provisional */
    default: break;
    }
    return d;
}

static bool in_range(double v, double lo, double hi) { return v >= lo && v <= hi; }
static bool point_ok(gait_vec3 p) {
    return v3_finite(p) && fabs(p.x) <= 1e7 && fabs(p.y) <= 1e7 && fabs(p.z) <= 1e7;
}

gait_status gait_world_add_gadget(gait_world *w, const gait_gadget_def *d, int *out_index) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "gadget: add refused while the world steps");
    if (!d) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget: def is NULL");
    if ((unsigned)d->kind >= GAIT_GADGET_KIND_COUNT)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget: kind %d is not updraft, wind, grapple or bounce",
                    (int)d->kind);
    const char *k = kind_names[d->kind];
    if (d->name && strlen(d->name) >= GAIT_MOTION_NAME_MAX)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget (%s): name is longer than %d bytes", k,
                    GAIT_MOTION_NAME_MAX - 1);
    if (!point_ok(d->position))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget (%s): position must be finite, within 1e7 m", k);
    if (!in_range(d->radius, 1e-3, 1000))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget (%s): radius %g is not in (0, 1000] m", k, d->radius);
    if (!in_range(d->height, 1e-3, 1000))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget (%s): height %g is not in (0, 1000] m", k, d->height);
    if (!in_range(d->speed, 1e-3, GAIT_MOTION_MAX_SPEED))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget (%s): speed %g is not in (0, %g] m/s", k, d->speed,
                    GAIT_MOTION_MAX_SPEED);
    if (d->kind == GAIT_GADGET_WIND) {
        if (d->point_count < 2 || d->point_count > GAIT_MOVE_MAX_POINTS)
            return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget (wind): %d points, a path needs 2..%d",
                        d->point_count, GAIT_MOVE_MAX_POINTS);
        for (int i = 0; i < d->point_count; i++)
            if (!point_ok(d->points[i]))
                return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget (wind): points[%d] must be finite, "
                            "within 1e7 m", i);
    }
    uint32_t button = d->button ? d->button : GAIT_BUTTON_DROP;
    if (d->kind == GAIT_GADGET_GRAPPLE && (button & (button - 1) || !(button & GAIT_BUTTON_ALL)))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "gadget (grapple): button 0x%x is not one button",
                    (unsigned)d->button);
    if (w->gadget_count >= GADGETS_MAX)
        return FAIL(w, GAIT_ERR_CAPACITY, "gadget: the world holds %d gadgets already", GADGETS_MAX);
    if (w->gadget_count == w->gadget_capacity) {
        int cap = w->gadget_capacity ? 2 * w->gadget_capacity : GADGETS_FIRST;
        gait__gadget *g = gait__alloc(&w->hooks, sizeof *g * (size_t)cap);
        if (!g) return FAIL(w, GAIT_ERR_OUT_OF_MEMORY, "gadget: out of memory");
        if (w->gadget_count) memcpy(g, w->gadgets, sizeof *g * (size_t)w->gadget_count);
        gait__free(&w->hooks, w->gadgets, sizeof *g * (size_t)w->gadget_capacity);
        w->gadgets = g;
        w->gadget_capacity = cap;
    }
    gait__gadget *g = &w->gadgets[w->gadget_count];
    memset(g, 0, sizeof *g);
    g->def = *d;
    g->def.button = d->kind == GAIT_GADGET_GRAPPLE ? button : 0;
    if (d->kind != GAIT_GADGET_WIND) {
        g->def.point_count = 0;
        memset(g->def.points, 0, sizeof g->def.points);
    }
    snprintf(g->name, sizeof g->name, "%s", d->name ? d->name : k);
    g->def.name = NULL; /* the name lives beside it: the array may move */
    if (out_index) *out_index = w->gadget_count;
    w->gadget_count++;
    return GAIT_OK;
}

gait_status gait_world_clear_gadgets(gait_world *w) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "gadget: clear refused while the world steps");
    w->gadget_count = 0;
    return GAIT_OK;
}

int gait_world_gadget_count(const gait_world *w) { return w ? w->gadget_count : 0; }

gait_status gait_world_gadget(const gait_world *w, int index, gait_gadget_def *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    if (index < 0 || index >= w->gadget_count) return GAIT_ERR_INVALID_ARGUMENT;
    *out = w->gadgets[index].def;
    out->name = w->gadgets[index].name;
    return GAIT_OK;
}

void gait__gadgets_free(gait_world *w) {
    gait__free(&w->hooks, w->gadgets, sizeof(gait__gadget) * (size_t)w->gadget_capacity);
    w->gadgets = NULL;
    w->gadget_count = w->gadget_capacity = 0;
}

/* ---- what each gadget asks of a body ------------------------------------------------------- */

static double horizontal_distance(gait_vec3 a, gait_vec3 b) {
    double dx = a.x - b.x, dz = a.z - b.z;
    return sqrt(dx * dx + dz * dz);
}

/* The nearest point of a wind's path to p: its segment, and the path left beyond it (m). */
static double path_nearest(const gait_gadget_def *d, gait_vec3 p, int *segment, double *left) {
    double best = INFINITY;
    *segment = 0;
    *left = 0;
    for (int i = 0; i + 1 < d->point_count; i++) {
        gait_vec3 a = d->points[i], ab = v3_sub(d->points[i + 1], a);
        double l2 = v3_len2(ab), t = l2 > 0 ? clampd(v3_dot(v3_sub(p, a), ab) / l2, 0, 1) : 0;
        double dist = v3_len(v3_sub(p, v3_mad(a, ab, t)));
        if (dist < best) {
            best = dist;
            *segment = i;
            double rest = (1 - t) * sqrt(l2);
            for (int k = i + 1; k + 1 < d->point_count; k++)
                rest += v3_len(v3_sub(d->points[k + 1], d->points[k]));
            *left = rest;
        }
    }
    return best;
}

static bool bounce_on(const gait__character *ch, const gait_gadget_def *d) {
    return ch->contact.grounded && fabs(ch->position.y - d->position.y) <= BOUNCE_REACH &&
           horizontal_distance(ch->position, d->position) <= d->radius;
}

static bool updraft_in(const gait__character *ch, const gait_gadget_def *d) {
    double y = ch->position.y - d->position.y;
    return y >= -UPDRAFT_BELOW && y <= d->height &&
           horizontal_distance(ch->position, d->position) <= d->radius;
}

/* A grapple point in range and in sight of the body's chest. */
static bool grapple_reach(const gait_world *w, const gait__character *ch, const gait_gadget_def *d,
                          const gait_locomotion *n) {
    gait_vec3 chest = v3(ch->position.x, ch->position.y + GRAPPLE_CHEST * n->capsule_height, ch->position.z);
    gait_vec3 to = v3_sub(d->position, chest);
    double dist = v3_len(to);
    if (dist > d->radius) return false;
    gait_filter f;
    memset(&f, 0, sizeof f);
    gait_hit hit;
    return !(dist > GRAPPLE_SIGHT_SLACK && gait_collider_ray_cast(w->collider, chest, to, &f, &hit) &&
             hit.distance < dist - GRAPPLE_SIGHT_SLACK);
}

gait_state gait__gadgets_gate(const gait_world *w, const gait__character *ch,
                              const gait_gate_input *gi, const gait_locomotion *n, gait_state from,
                              gait_state next, gait__motion_plan *plan) {
    bool air_from = from == GAIT_STATE_JUMP || from == GAIT_STATE_FALL;
    bool air_next = next == GAIT_STATE_JUMP || next == GAIT_STATE_FALL;
    for (int i = 0; i < w->gadget_count; i++) {
        const gait_gadget_def *d = &w->gadgets[i].def;
        switch (d->kind) {
        case GAIT_GADGET_BOUNCE:
            if (!bounce_on(ch, d)) break;
            plan->launch = true;
            plan->gadget = i;
            plan->launch_def.frame = GAIT_FRAME_WORLD;
            plan->launch_def.add = false;
            /* v = sqrt(2 g h) reaches the pad's height; the run's speed carries on */
            plan->launch_def.velocity = v3(ch->velocity.x, sqrt(2 * n->gravity * d->height), ch->velocity.z);
            return GAIT_STATE_JUMP;
        case GAIT_GADGET_UPDRAFT:
            if (!updraft_in(ch, d)) break;
            if (air_from && air_next && gi->stamina > 0) { /* jumped or fell in: the glider opens */
                plan->gadget = i;
                return GAIT_STATE_GLIDE;
            }
            if (from == GAIT_STATE_GLIDE && next == GAIT_STATE_GLIDE) {
                double k = clampd((d->position.y + d->height - ch->position.y) / UPDRAFT_FADE, 0, 1);
                plan->gadget = i;
                plan->lift = true;
                plan->lift_vy = k * d->speed - (1 - k) * n->glide_sink;
                return GAIT_STATE_GLIDE;
            }
            break;
        case GAIT_GADGET_WIND: {
            if (from != GAIT_STATE_GLIDE || next != GAIT_STATE_GLIDE) break;
            int seg;
            double left;
            if (path_nearest(d, ch->position, &seg, &left) > d->radius || left < WIND_MIN_RIDE) break;
            plan->gadget = i;
            plan->gadget_start = true;
            return GAIT_STATE_ACTION;
        }
        case GAIT_GADGET_GRAPPLE:
            if (!(gi->pressed & d->button) || !grapple_reach(w, ch, d, n)) break;
            plan->gadget = i;
            plan->gadget_start = true;
            return GAIT_STATE_ACTION;
        default:
            break;
        }
    }
    return next;
}

void gait__gadgets_move(const gait_world *w, const gait__character *ch, int index,
                        const gait_locomotion *n, gait__move *mv) {
    const gait__gadget *g = &w->gadgets[index];
    const gait_gadget_def *d = &g->def;
    memset(mv, 0, sizeof *mv);
    snprintf(mv->name, sizeof mv->name, "%s", g->name);
    mv->frame = GAIT_FRAME_WORLD;
    mv->kind = GAIT_MOVE_TO_POINTS;
    mv->speed = d->speed;
    if (d->kind == GAIT_GADGET_WIND) {
        /* along the path from the segment the body entered by, gliding on at its end (the glide
         * clip plays: the current carries a glider) */
        int seg;
        double left;
        path_nearest(d, ch->position, &seg, &left);
        for (int k = seg + 1; k < d->point_count; k++) mv->points[mv->point_count++] = d->points[k];
        mv->arrive_distance = WIND_ARRIVE;
        mv->seconds = WIND_SLACK * left / d->speed + 1.0;
        mv->end_on = GAIT_END_WALL | GAIT_END_CEILING;
        mv->then = GAIT_THEN_GLIDE;
        snprintf(mv->clip, sizeof mv->clip, "%s", gait_anim_clip(&ch->anim, GAIT_ANIM_GLIDE));
    } else {
        /* to the point, hands at it (the feet a body's height below), hanging there until jump
         * or drop (or the grapple's own button) */
        mv->point_count = 1;
        mv->points[0] = v3(d->position.x, d->position.y - n->capsule_height, d->position.z);
        mv->arrive_distance = GRAPPLE_ARRIVE;
        mv->arrive = GAIT_ARRIVE_HANG;
        mv->hang_seconds = GRAPPLE_HANG;
        double dist = v3_len(v3_sub(mv->points[0], ch->position));
        mv->seconds = 2.0 * dist / d->speed + GRAPPLE_HANG + 1.0;
        mv->end_on = GAIT_END_PRESS; /* an edge on the way is slid over; blocked, it ends */
        mv->cancel_buttons = GAIT_BUTTON_JUMP | GAIT_BUTTON_DROP | d->button;
        mv->then = GAIT_THEN_AUTO;
    }
}

/* ---- the debug view --------------------------------------------------------------------------- */

#define DRAW_SEGMENTS 24        /* a rim's segments */
#define COLOR_UPDRAFT 0x66CCFFFFu
#define COLOR_WIND 0xB0F0FFFFu
#define COLOR_GRAPPLE 0x40E080FFu
#define COLOR_BOUNCE 0xFF9933FFu

static void rim(const gait_debug_draw *d, gait_vec3 c, double r, uint32_t rgba) {
    if (!d->line) return;
    for (int k = 0; k < DRAW_SEGMENTS; k++) {
        double a0 = 2 * M_PI * k / DRAW_SEGMENTS, a1 = 2 * M_PI * (k + 1) / DRAW_SEGMENTS;
        d->line(v3(c.x + r * cos(a0), c.y, c.z + r * sin(a0)),
                v3(c.x + r * cos(a1), c.y, c.z + r * sin(a1)), rgba, d->user);
    }
}

void gait__gadgets_draw(const gait_world *w, const gait_debug_draw *d) {
    for (int i = 0; i < w->gadget_count; i++) {
        const gait__gadget *g = &w->gadgets[i];
        const gait_gadget_def *def = &g->def;
        gait_vec3 p = def->position, label = p;
        switch (def->kind) {
        case GAIT_GADGET_UPDRAFT: {
            gait_vec3 top = v3(p.x, p.y + def->height, p.z);
            rim(d, p, def->radius, COLOR_UPDRAFT);
            rim(d, top, def->radius, COLOR_UPDRAFT);
            if (d->line) d->line(p, top, COLOR_UPDRAFT, d->user);
            label = top;
            break;
        }
        case GAIT_GADGET_WIND:
            for (int k = 0; d->line && k + 1 < def->point_count; k++)
                d->line(def->points[k], def->points[k + 1], COLOR_WIND, d->user);
            label = def->points[0];
            break;
        case GAIT_GADGET_GRAPPLE:
            if (d->point) d->point(p, 0.3, COLOR_GRAPPLE, d->user);
            rim(d, p, def->radius, COLOR_GRAPPLE);
            break;
        case GAIT_GADGET_BOUNCE:
            rim(d, p, def->radius, COLOR_BOUNCE);
            break;
        default:
            break;
        }
        if (d->text) d->text(v3(label.x, label.y + 0.5, label.z), g->name, 0xFFFFFFFFu, d->user);
    }
}
