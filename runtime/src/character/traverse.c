/* Traversal in the world (docs/behaviour.md, "Traversal"): the table every character traverses
 * by, a character's action hook, what its traversal shows, and the debug view of its last scan,
 * corridor and latch. */
#include "traverse_internal.h"

#include <stdio.h>
#include <string.h>

#include "collide/collide_layout.h"
#include "core/vec.h"
#include "debug_draw.h"
#include "layouts.h"
#include "world_internal.h"

#define FAIL GAIT__FAIL
#define LABEL_ABOVE 0.3 /* m over the capsule's top the scan's label is drawn */
#define CORRIDOR_MARK 0.6 /* m either side the corridor's end is drawn */

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
    GAIT__GET(w, id, ch);
    ch->trav.hook = hook;
    ch->trav.hook_user = user;
    return GAIT_OK;
}

gait_status gait_character_traverse_info(const gait_world *w, gait_character_id id,
                                         gait_traverse_info *out) {
    GAIT__GET_CONST(w, id, ch, out);
    const gait__traverse *t = &ch->trav;
    /* the scan only once there is one: before it, the record holds what its slot last held */
    *out = (gait_traverse_info){
        .scan = t->scanned ? t->scan : (gait_traverse_scan){0}, .kind = t->kind, .phase = t->phase, .seconds = t->seconds,
        .actions = t->actions, .corridor_origin = t->origin, .corridor_dir = t->in,
        .corridor = t->corridor, .latch = t->latch, .latch_min = t->latch_min,
        .latch_max = t->latch_max, .cooldown = t->cooldown,
        /* the crouch's (crouch.c), shown here too */
        .auto_crouch = ch->crouch.auto_crouch, .stand_blocked = ch->crouch.stand_blocked,
        .crouch_air = ch->crouch.air, .path_count = t->path_count, .path_next = t->path_next,
        .rise_speed = t->rise_speed, .cross_speed = t->cross_speed};
    memcpy(out->path, t->path, sizeof out->path);
    if (!t->scanned) snprintf(out->scan.reason, sizeof out->scan.reason, "not scanned");
    else if (t->scan_deferred) gait_traverse_scan_run(w->collider, &t->query, NULL, &out->scan);
    return GAIT_OK;
}

static void draw_character(const gait_world *w, const gait__character *ch, const gait_debug_draw *d) {
    const gait__traverse *t = &ch->trav;
    if (t->scanned) {
        gait_traverse_scan tmp;
        gait_traverse_scan_run(w->collider, &t->query, d, &tmp);
        const gait_traverse_scan *s = t->scan_deferred ? &tmp : &t->scan;
        char line[96];
        snprintf(line, sizeof line, "%s h %.2f d %.2f%s", s->reason, s->height, s->depth,
                 s->thick ? " thick" : "");
        gait_vec3 at = t->query.feet;
        at.y = t->query.feet.y + t->query.height + LABEL_ABOVE;
        gait__draw_text(d, at, line, s->ok ? GAIT__COL_GRAB : GAIT__COL_HIT);
    }
    if (gait__traverse_playing(t)) {
        gait_vec3 side = v3(-t->in.z, 0, t->in.x);
        gait_vec3 c = v3_mad(t->origin, t->in, t->corridor);
        gait__draw_line(d, v3_mad(c, side, -CORRIDOR_MARK), v3_mad(c, side, CORRIDOR_MARK),
                        GAIT__COL_CORRIDOR);
        gait__draw_line(d, t->origin, c, GAIT__COL_CORRIDOR);
        gait__draw_text(d, c, gait_traverse_kind_name(t->kind), GAIT__COL_CORRIDOR);
        if (t->latch) gait__draw_box(d, t->latch_min, t->latch_max, GAIT__COL_LATCH);
    }
}

gait_status gait_character_traverse_draw(const gait_world *w, gait_character_id id,
                                         const gait_debug_draw *d) {
    GAIT__GET_CONST(w, id, ch, d);
    draw_character(w, ch, d);
    return GAIT_OK;
}

gait_status gait_world_draw_debug(const gait_world *w) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    const gait_debug_draw *d = &w->debug_draw;
    if (!d->line && !d->point && !d->text) return GAIT_OK;
    for (int i = 0; i < w->capacity; i++)
        if (w->characters[i].alive) draw_character(w, &w->characters[i], d);
    gait__gadgets_draw(w, d); /* the world's gadgets (gadget.c) */
    return GAIT_OK;
}

/* ---- layouts (layouts.h) ------------------------------------------------------------------ */

/* Points a scan or an action finds lie within metres of the body's feet. Directions are unit (a
 * hair past 1 from rounding). */
#define NEAR_BODY GAIT__NEAR_LIMIT
#define UNIT 1.000001

static const gait__lfield query_rows[] = {
    GAIT__LVEC3(gait_traverse_query, feet, -GAIT__POS_LIMIT, GAIT__POS_LIMIT, "m"),
    GAIT__LVEC3(gait_traverse_query, forward, -UNIT, UNIT, ""),
    GAIT__LREAL(gait_traverse_query, speed, 0, 2 * GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LREAL(gait_traverse_query, radius, 0, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_query, height, 0, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_query, step_height, 0, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_query, max_height, 0, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_query, min_height, 0, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_query, reach_min, 0, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_query, reach_max, 0, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_query, reach_speed, 0, GAIT__LFINITE, "m/s"),
    GAIT__LREAL(gait_traverse_query, grab_margin, 0, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_query, max_ledge_slope, 0, GAIT__LFINITE, "rad"),
    GAIT__LREAL(gait_traverse_query, max_drop, 0, GAIT__LFINITE, "m"),
    GAIT__LSTRUCT(gait_traverse_query, filter, gait__filter_layout),
};
GAIT__LTABLE(gait__traverse_query_layout, gait_traverse_query, query_rows, NULL, NULL);

static const gait__lfield scan_rows[] = {
    GAIT__LBOOL(gait_traverse_scan, wall),
    GAIT__LBOOL(gait_traverse_scan, ledge),
    GAIT__LBOOL(gait_traverse_scan, room),
    GAIT__LBOOL(gait_traverse_scan, thick),
    GAIT__LBOOL(gait_traverse_scan, back_floor),
    GAIT__LBOOL(gait_traverse_scan, ok),
    GAIT__LTEXT(gait_traverse_scan, reason),
    GAIT__LVEC3(gait_traverse_scan, wall_point, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LVEC3(gait_traverse_scan, wall_normal, -UNIT, UNIT, ""),
    GAIT__LREAL(gait_traverse_scan, wall_distance, -GAIT__LFINITE, GAIT__LFINITE, "m"),
    GAIT__LSTRUCT(gait_traverse_scan, landmark, gait__landmark_id_layout),
    GAIT__LVEC3(gait_traverse_scan, edge, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LVEC3(gait_traverse_scan, ledge_a, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LVEC3(gait_traverse_scan, ledge_b, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LVEC3(gait_traverse_scan, grab, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LVEC3(gait_traverse_scan, ledge_normal, -UNIT, UNIT, ""),
    GAIT__LREAL(gait_traverse_scan, height, -GAIT__LFINITE, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_scan, depth, -GAIT__LFINITE, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_scan, lean, 0, M_PI / 2, "rad"),
    GAIT__LREAL(gait_traverse_scan, back_floor_height, -GAIT__LFINITE, GAIT__LFINITE, "m"),
    GAIT__LREAL(gait_traverse_scan, back_floor_distance, -GAIT__LFINITE, GAIT__LFINITE, "m"),
    GAIT__LINT(gait_traverse_scan, sweeps, 0, 2147483647),
    GAIT__LINT(gait_traverse_scan, rays, 0, 2147483647),
};
GAIT__LTABLE(gait__traverse_scan_layout, gait_traverse_scan, scan_rows, NULL, NULL);

/* v within the range of the schema's field, or "as = v is out of range; allowed ...". */
static bool schema_range(const gait_schema *s, const char *field, const char *as, double v,
                         char *err, size_t cap) {
    const gait_schema_field *f = gait_schema_find(s, "", field);
    if (!f || gait_schema_valid(f, v)) return true;
    char range[96];
    gait_schema_range_text(f, range, sizeof range);
    snprintf(err, cap, "%s = %g is out of range; allowed %s (%s's %s)", as, v, range, s->name,
             field);
    return false;
}

/* A scan's query was made from a body's numbers and the traversal table (gait__traverse_body_
 * query): each number within its source's schema, in the order the scan needs them. */
static bool query_rules(const gait_traverse_query *q, char *err, size_t cap) {
    const gait_schema *loc = gait_locomotion_schema(), *tab = gait_traverse_table_schema(),
                      *row = gait_traverse_action_schema();
    if (!(schema_range(loc, "capsule_radius", "query.radius", q->radius, err, cap) &&
          schema_range(loc, "capsule_height", "query.height", q->height, err, cap) &&
          schema_range(loc, "step_height", "query.step_height", q->step_height, err, cap) &&
          schema_range(row, "max_height", "query.max_height", q->max_height, err, cap) &&
          schema_range(row, "max_height", "query.min_height", q->min_height, err, cap) &&
          schema_range(tab, "reach_min", "query.reach_min", q->reach_min, err, cap) &&
          schema_range(tab, "reach_max", "query.reach_max", q->reach_max, err, cap) &&
          schema_range(tab, "reach_speed", "query.reach_speed", q->reach_speed, err, cap) &&
          schema_range(tab, "grab_margin", "query.grab_margin", q->grab_margin, err, cap) &&
          schema_range(tab, "max_ledge_slope", "query.max_ledge_slope", q->max_ledge_slope, err,
                       cap) &&
          schema_range(tab, "max_drop", "query.max_drop", q->max_drop, err, cap)))
        return false;
    if (q->height < 2 * q->radius)
        snprintf(err, cap, "query.height = %g is below twice query.radius = %g", q->height,
                 q->radius);
    else if (q->reach_max < q->reach_min)
        snprintf(err, cap, "query.reach_max = %g is below query.reach_min = %g", q->reach_max,
                 q->reach_min);
    else if (!(q->max_height > 0))
        snprintf(err, cap, "query.max_height = %g: a scan's ledges must be higher than 0",
                 q->max_height);
    else if (!gait__traverse_query_valid(q)) /* the scan's own test, should the two drift apart */
        snprintf(err, cap, "query is not one the scan takes");
    else
        return true;
    return false;
}

/* The path's next waypoint within its count; the last scan (the debug view runs its query again)
 * one the scan takes. */
static bool traverse_rules(const void *base, char *err, size_t cap) {
    const gait__traverse *t = base;
    if (t->path_next > t->path_count) {
        snprintf(err, cap, "path_next = %d is past path_count = %d", t->path_next, t->path_count);
        return false;
    }
    return !t->scanned || query_rules(&t->query, err, cap);
}

/* Counters: actions started since create (one per 0.15 s at most: 2^30 is five years of
 * nothing else, and far from int's end). Speeds: a row's (the action schema's, up to 50 m/s) or
 * what the body carried. */
static const gait__lfield traverse_rows[] = {
    GAIT__LBOOL(gait__traverse, scanned),
    GAIT__LCACHE(gait__traverse, scan_revision), /* keyed to this collider: dropped */
    GAIT__LBOOL(gait__traverse, scan_deferred),
    GAIT__LCACHE(gait__traverse, free_lo), /* keyed to this collider: dropped */
    GAIT__LCACHE(gait__traverse, free_hi),
    GAIT__LCACHE(gait__traverse, free_revision),
    GAIT__LCACHE(gait__traverse, free_filter),
    GAIT__LCACHE(gait__traverse, free_slope),
    GAIT__LBOOL(gait__traverse, pending),
    GAIT__LINT(gait__traverse, pending_kind, 0, GAIT_TRAVERSE_KIND_COUNT - 1),
    GAIT__LINT(gait__traverse, pending_row, -1, GAIT_TRAVERSE_MAX_ACTIONS - 1),
    GAIT__LINT(gait__traverse, kind, 0, GAIT_TRAVERSE_KIND_COUNT - 1),
    GAIT__LINT(gait__traverse, phase, 0, GAIT_TRAVERSE_PHASE_DONE),
    GAIT__LREAL(gait__traverse, seconds, 0, GAIT__LFINITE, "s"),
    GAIT__LREAL(gait__traverse, blocked, 0, GAIT__LFINITE, "s"),
    GAIT__LINT(gait__traverse, actions, 0, 1 << 30),
    GAIT__LVEC3(gait__traverse, origin, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LVEC3(gait__traverse, in, -UNIT, UNIT, ""),
    GAIT__LREAL(gait__traverse, ledge_y, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LREAL(gait__traverse, corridor, -GAIT__LFINITE, GAIT__LFINITE, "m"),
    GAIT__LVEC3(gait__traverse, path, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LINT(gait__traverse, path_count, 0, 4),
    GAIT__LINT(gait__traverse, path_next, 0, 4),
    GAIT__LREAL(gait__traverse, rise_speed, 0, GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LREAL(gait__traverse, cross_speed, 0, GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LREAL(gait__traverse, drop_speed, 0, GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LBOOL(gait__traverse, latch),
    GAIT__LVEC3(gait__traverse, latch_min, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LVEC3(gait__traverse, latch_max, -NEAR_BODY, NEAR_BODY, "m"),
    GAIT__LSTRUCT(gait__traverse, latch_landmark, gait__landmark_id_layout),
    GAIT__LREAL(gait__traverse, cooldown, 0, GAIT__LFINITE, "s"),
    GAIT__LHOST(gait__traverse, hook),
    GAIT__LHOST(gait__traverse, hook_user),
    GAIT__LSTRUCT(gait__traverse, query, gait__traverse_query_layout),
    GAIT__LSTRUCT(gait__traverse, scan, gait__traverse_scan_layout),
};
#undef NEAR_BODY
#undef UNIT
GAIT__LTABLE(gait__traverse_layout, gait__traverse, traverse_rows, NULL, traverse_rules);
