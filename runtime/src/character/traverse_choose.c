/* The traversal's choice (docs/behaviour.md, "Traversal"): the action table — the first row
 * whose bands hold the scan's height, depth, speed and floor behind is the action — its defaults
 * and its validation, and what a body asks of the scan. Pure. */
#include "traverse_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "core/vec.h"

/* ---- names --------------------------------------------------------------------------------- */

static const char *const kind_names[GAIT_TRAVERSE_KIND_COUNT] = {"none", "vault", "hurdle",
                                                                 "mantle_low", "mantle_high"};

const char *gait_traverse_kind_name(gait_traverse_kind k) {
    return gait__name_of(kind_names, GAIT_TRAVERSE_KIND_COUNT, (int)k);
}
int gait_traverse_kind_from_name(const char *name) {
    return gait__name_index(kind_names, GAIT_TRAVERSE_KIND_COUNT, name);
}

/* ---- the table ----------------------------------------------------------------------------- */

static gait_traverse_action_def row(gait_traverse_kind k, double h0, double h1, double d0, double d1,
                                    double s0, double s1, int floor, double rise, double cross) {
    gait_traverse_action_def a = {.kind = k, .min_height = h0, .max_height = h1, .min_depth = d0,
                                  .max_depth = d1, .min_speed = s0, .max_speed = s1,
                                  .back_floor = floor, .rise_speed = rise, .cross_speed = cross};
    return a;
}

/* ---- the schemas -------------------------------------------------------------------------- */

/* Sources: GASP = Epic Games, Game Animation Sample Project (UE 5.4): its traversal chooser's
 * bands and forward trace, converted from cm (vault and hurdle up to 125 cm high and 60 cm deep,
 * mantles up to 275 cm split low/high at 125 cm, the trace 75 cm at rest to 350 cm at 500 cm/s).
 * "provisional" = chosen to feel right, awaiting a measurement against the game. */
#define PROV "provisional"
#define GASP "GASP 5.4"
#define TF(n, lo, hi, def, unit, src, doc) \
    {#n, "", offsetof(gait_traverse_table, n), lo, hi, false, def, unit, "traversal.lua", src, doc}
static const gait_schema_field table_fields[] = {
    TF(cooldown, 0, 10, 0.15, "s", PROV, "after an action before a chained one may start"),
    TF(reach_min, 0.05, 20, 0.75, "m", GASP " (75 cm)", "the forward sweep reaches at rest"),
    TF(reach_max, 0.05, 20, 3.5, "m", GASP " (350 cm)",
       "it reaches at reach_speed; at least reach_min"),
    TF(reach_speed, 0.01, 100, 5.0, "m/s", GASP " (500 cm/s)", "the speed of the greatest reach"),
    TF(grab_margin, 0, 5, 0.35, "m", PROV " (the body's half width: radius 0.3 + 5 cm)",
       "the grab point keeps from the ledge segment's ends"),
    TF(max_ledge_slope, 0, 1.5, 0.5236, "rad", PROV " (30 deg)", "a steeper top is no ledge"),
    TF(max_drop, 0, 100, 3.0, "m", PROV, "below the feet a floor behind may lie"),
    TF(corridor_floor_margin, 0, 10, 0.5, "m", PROV,
       "past the floor behind's read point a vault may land"),
    TF(corridor_flight_margin, 0, 20, 1.5, "m", PROV,
       "past the back face a vault into the air may fly"),
    TF(corridor_mantle, 0.05, 10, 0.5, "m", PROV " (half a metre and stop)",
       "past the front face a mantle onto something thick may go"),
    TF(climb_over_height, 0, 10, 1.2, "m", PROV,
       "a climbing body mantles over a ledge this close above its feet"),
    TF(climb_mantle_split, 0, 10, 1.25, "m", GASP " (125 cm, its low/high mantle split)",
       "over the top of a climb, a ledge higher above the feet is a high mantle, else a low one"),
    TF(auto_crouch_stand_seconds, 0, 60, 1.0, "s", PROV,
       "an auto crouch whose low opening is never entered lasts before the body stands"),
};
#undef TF
GAIT__SCHEMA_TABLE(gait_traverse_table_schema, "traversal", gait_traverse_table,
                   table_fields)

/* A row's numbers; the default is what a row of traversal.lua that leaves the key out gets. */
#define AF(n, lo, hi, def, unit, src, doc)                                                     \
    {#n, "", offsetof(gait_traverse_action_def, n), lo, hi, false, def, unit, "traversal.lua", \
     src, doc}
static const gait_schema_field action_fields[] = {
    AF(min_height, 0, 20, 0, "m", GASP, "the ledge above the feet, from"),
    AF(max_height, 0, 20, 0, "m", GASP, "... to (at least min_height)"),
    AF(min_depth, 0, 20, 0, "m", GASP, "the obstacle's depth, from"),
    AF(max_depth, 0, INFINITY, INFINITY, "m (math.huge: thick)", GASP,
       "... to (at least min_depth; a thick obstacle's depth counts as infinite)"),
    AF(min_speed, 0, 1000, 0, "m/s", PROV, "horizontal as the action would start, from"),
    AF(max_speed, 0, 1000, 1000, "m/s", PROV, "... to (at least min_speed)"),
    AF(rise_speed, 0.05, 50, 2.5, "m/s", PROV, "up the face (the path's own speed, no play rate)"),
    AF(cross_speed, 0.05, 50, 2.5, "m/s", PROV, "forward over the ledge"),
};
#undef AF
GAIT__SCHEMA_TABLE(gait_traverse_action_schema, "traversal_action", gait_traverse_action_def,
                   action_fields)


/* The default rows (bands: GASP; the 0.5 m floor of every band, the hurdle's 3.5 m/s and the
 * speeds: provisional; scripts/tuning/traversal.lua says the same per number). */
gait_traverse_table gait_default_traverse_table(void) {
    gait_traverse_table t;
    memset(&t, 0, sizeof t);
    t.actions[0] = row(GAIT_TRAVERSE_HURDLE, 0.5, 1.25, 0.0, 0.6, 3.5, 1e3, 1, 5.0, 6.0);
    t.actions[1] = row(GAIT_TRAVERSE_VAULT, 0.5, 1.25, 0.0, 0.6, 0.0, 1e3, -1, 3.5, 4.0);
    t.actions[2] = row(GAIT_TRAVERSE_MANTLE_LOW, 0.5, 1.25, 0.0, INFINITY, 0.0, 1e3, -1, 2.5, 2.0);
    t.actions[3] = row(GAIT_TRAVERSE_MANTLE_HIGH, 1.25, 2.75, 0.0, INFINITY, 0.0, 1e3, -1, 2.2, 1.6);
    t.count = 4;
    gait_schema_defaults(&gait_traverse_table_schema_table, &t);
    return t;
}

/* "name = v is below other = w" for a band whose end is below its start. */
static gait_status below(char *err, size_t cap, const char *prefix, const char *name, double v,
                         const char *other, double w) {
    if (err && cap) snprintf(err, cap, "%s%s = %g is below %s = %g", prefix, name, v, other, w);
    return GAIT_ERR_INVALID_ARGUMENT;
}

gait_status gait_traverse_table_validate(const gait_traverse_table *t, char *err, size_t cap) {
    if (!t) {
        if (err && cap) snprintf(err, cap, "table is NULL");
        return GAIT_ERR_INVALID_ARGUMENT;
    }
    if (t->count < 0 || t->count > GAIT_TRAVERSE_MAX_ACTIONS) {
        if (err && cap)
            snprintf(err, cap, "count = %d is not in [0, %d]", t->count, GAIT_TRAVERSE_MAX_ACTIONS);
        return GAIT_ERR_INVALID_ARGUMENT;
    }
    if (gait_schema_check(&gait_traverse_table_schema_table, t, err, cap) != GAIT_OK)
        return GAIT_ERR_INVALID_ARGUMENT;
    if (t->reach_max < t->reach_min)
        return below(err, cap, "", "reach_max", t->reach_max, "reach_min", t->reach_min);
    for (int i = 0; i < t->count; i++) {
        const gait_traverse_action_def *a = &t->actions[i];
        char prefix[24], why[160];
        snprintf(prefix, sizeof prefix, "actions[%d].", i + 1);
        if (a->kind <= GAIT_TRAVERSE_NONE || a->kind >= GAIT_TRAVERSE_KIND_COUNT) {
            if (err && cap) snprintf(err, cap, "%skind = %d is not an action", prefix, (int)a->kind);
            return GAIT_ERR_INVALID_ARGUMENT;
        }
        if (gait_schema_check(&gait_traverse_action_schema_table, a, why, sizeof why) != GAIT_OK) {
            if (err && cap) snprintf(err, cap, "%s%s", prefix, why);
            return GAIT_ERR_INVALID_ARGUMENT;
        }
        if (a->max_height < a->min_height)
            return below(err, cap, prefix, "max_height", a->max_height, "min_height", a->min_height);
        if (a->max_depth < a->min_depth)
            return below(err, cap, prefix, "max_depth", a->max_depth, "min_depth", a->min_depth);
        if (a->max_speed < a->min_speed)
            return below(err, cap, prefix, "max_speed", a->max_speed, "min_speed", a->min_speed);
        if (a->back_floor < -1 || a->back_floor > 1) {
            if (err && cap)
                snprintf(err, cap, "%sback_floor = %d is not -1, 0 or 1", prefix, a->back_floor);
            return GAIT_ERR_INVALID_ARGUMENT;
        }
    }
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
        return scan->height > tab->climb_mantle_split ? GAIT_TRAVERSE_MANTLE_HIGH
                                               : GAIT_TRAVERSE_MANTLE_LOW;
    return gait_traverse_choose(tab, scan, speed, row);
}

bool gait__traverse_playing(const gait__traverse *t) {
    return t->kind != GAIT_TRAVERSE_NONE && t->phase != GAIT_TRAVERSE_PHASE_DONE;
}
