/* Traversal in the world (docs/behaviour.md, "Traversal"): the table every character traverses
 * by, a character's action hook, what its traversal shows, and the debug view of its last scan,
 * corridor and latch. */
#include "traverse_internal.h"

#include <stdio.h>
#include <string.h>

#include "core/vec.h"
#include "debug_draw.h"
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
    *out = (gait_traverse_info){
        .scan = t->scan, .kind = t->kind, .phase = t->phase, .seconds = t->seconds,
        .actions = t->actions, .corridor_origin = t->origin, .corridor_dir = t->in,
        .corridor = t->corridor, .latch = t->latch, .latch_min = t->latch_min,
        .latch_max = t->latch_max, .cooldown = t->cooldown,
        /* the crouch's (crouch.c), shown here too */
        .auto_crouch = ch->crouch.auto_crouch, .stand_blocked = ch->crouch.stand_blocked,
        .crouch_air = ch->crouch.air};
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
