/* The traversal's choice (docs/behaviour.md, "Traversal"): the action table — the first row
 * whose bands hold the scan's height, depth, speed and floor behind is the action — its defaults
 * and its validation, and what a body asks of the scan. Pure. */
#include "traverse_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/vec.h"

#define MANTLE_HIGH_FROM 1.25  /* m: over the top of a climb, a ledge higher than this above the
                                  feet is a high mantle (GASP's low/high split at 125 cm) */

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

const gait_traverse_action_def *gait__traverse_row(const gait_traverse_table *tab,
                                                   gait_traverse_kind k, int row) {
    if (row >= 0 && row < tab->count && tab->actions[row].kind == k) return &tab->actions[row];
    for (int i = 0; i < tab->count; i++)
        if (tab->actions[i].kind == k) return &tab->actions[i];
    return tab->count > 0 ? &tab->actions[0] : NULL;
}

gait_traverse_query gait__traverse_body_query(const gait_traverse_table *tab,
                                              const gait_locomotion *n, gait_vec3 feet,
                                              gait_vec3 forward, double speed, bool climbing) {
    gait_traverse_query q = gait_traverse_default_query(tab, n);
    q.feet = feet;
    q.forward = forward;
    q.speed = speed;
    if (climbing) {
        q.max_height = tab->climb_over_height; /* over the top of a climb: the same scan */
        q.min_height = n->step_height;
    }
    return q;
}

gait_traverse_kind gait__traverse_offer(const gait_traverse_table *tab,
                                        const gait_traverse_scan *scan, double speed,
                                        bool climbing, int *row) {
    *row = -1;
    if (climbing)
        return scan->height > MANTLE_HIGH_FROM ? GAIT_TRAVERSE_MANTLE_HIGH
                                               : GAIT_TRAVERSE_MANTLE_LOW;
    return gait_traverse_choose(tab, scan, speed, row);
}

bool gait__traverse_playing(const gait__traverse *t) {
    return t->kind != GAIT_TRAVERSE_NONE && t->phase != GAIT_TRAVERSE_PHASE_DONE;
}
