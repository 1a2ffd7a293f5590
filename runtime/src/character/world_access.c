/* The world's one-thing-at-a-time readers and setters (world.h's last section): what bindings
 * and tools need without the world's structs. Each checks its arguments at the edge and
 * changes nothing on failure. */
#include "world_internal.h"

#include <math.h>
#include <string.h>

#define FAIL GAIT__FAIL

bool gait_world_is_locked(const gait_world *w) { return w && w->stepping; }

gait_status gait_world_advance_clock(gait_world *w, double frame_seconds, int *out_steps) {
    if (!w || !out_steps) return GAIT_ERR_INVALID_ARGUMENT;
    *out_steps = 0;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "advance_clock: refused while the world steps");
    gait_status s = gait_clock_advance(&w->clock, frame_seconds, out_steps);
    if (s != GAIT_OK)
        return FAIL(w, s, "advance_clock: frame seconds %g must be finite and >= 0", frame_seconds);
    return GAIT_OK;
}

int gait_world_max_characters(const gait_world *w) { return w ? w->capacity : 0; }

gait_status gait_world_character_in_slot(const gait_world *w, int index1, gait_character_id *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    if (index1 < 1 || index1 > w->capacity || !w->characters[index1 - 1].alive)
        return GAIT_ERR_STALE_ID;
    out->index1 = index1;
    out->generation = w->characters[index1 - 1].generation;
    return GAIT_OK;
}

const gait_locomotion *gait_world_provisional_locomotion(const gait_world *w) {
    return w ? &w->provisional : NULL;
}

#define GET_CONST(w, id, ch)                                         \
    if (!(w)) return GAIT_ERR_INVALID_ARGUMENT;                      \
    const gait__character *ch = gait__character_get_const((w), (id)); \
    if (!ch) return GAIT_ERR_STALE_ID

#define GET(w, id, ch)                                    \
    if (!(w)) return GAIT_ERR_INVALID_ARGUMENT;           \
    gait__character *ch = gait__character_get((w), (id)); \
    if (!ch) return GAIT_ERR_STALE_ID

gait_status gait_character_input(const gait_world *w, gait_character_id id, gait_input *out) {
    if (!out) return GAIT_ERR_INVALID_ARGUMENT;
    GET_CONST(w, id, ch);
    memset(out, 0, sizeof *out);
    out->move_x = ch->move_x;
    out->move_y = ch->move_y;
    out->held = ch->held;
    out->pressed = ch->pressed;
    return GAIT_OK;
}

gait_status gait_character_phase(const gait_world *w, gait_character_id id, gait_phase *out) {
    if (!out) return GAIT_ERR_INVALID_ARGUMENT;
    GET_CONST(w, id, ch);
    *out = ch->phase;
    return GAIT_OK;
}

gait_status gait_character_stamina_get(const gait_world *w, gait_character_id id,
                                       gait_stamina *out) {
    if (!out) return GAIT_ERR_INVALID_ARGUMENT;
    GET_CONST(w, id, ch);
    *out = ch->stamina;
    return GAIT_OK;
}

gait_status gait_character_set_stamina(gait_world *w, gait_character_id id, double value) {
    GET(w, id, ch);
    if (!isfinite(value))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "stamina: value %g must be finite", value);
    ch->stamina.value = value < 0 ? 0 : (value > ch->stamina.max ? ch->stamina.max : value);
    return GAIT_OK;
}

gait_status gait_character_set_stamina_multiplier(gait_world *w, gait_character_id id,
                                                  double multiplier) {
    GET(w, id, ch);
    if (gait_stamina_set_multiplier(&ch->stamina, multiplier) != GAIT_OK)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "stamina: multiplier %g is not in [0, 100]",
                    multiplier);
    return GAIT_OK;
}

gait_status gait_character_set_stamina_refill(gait_world *w, gait_character_id id, double rate,
                                              double delay) {
    GET(w, id, ch);
    if (gait_stamina_set_refill(&ch->stamina, rate, delay) != GAIT_OK) /* the stamina schema */
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "stamina: refill rate %g per s or delay %g s "
                    "out of the schema's range", rate, delay);
    return GAIT_OK;
}

gait_status gait_character_gate_hook(const gait_world *w, gait_character_id id,
                                     gait_gate_hook *out_hook, void **out_user) {
    if (!out_hook || !out_user) return GAIT_ERR_INVALID_ARGUMENT;
    GET_CONST(w, id, ch);
    *out_hook = ch->gate_hook;
    *out_user = ch->gate_user;
    return GAIT_OK;
}

gait_status gait_character_traverse_hook(const gait_world *w, gait_character_id id,
                                         gait_traverse_hook *out_hook, void **out_user) {
    if (!out_hook || !out_user) return GAIT_ERR_INVALID_ARGUMENT;
    GET_CONST(w, id, ch);
    *out_hook = ch->trav.hook;
    *out_user = ch->trav.hook_user;
    return GAIT_OK;
}
