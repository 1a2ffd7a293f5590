/* The world: character pool, body-type numbers, the clock, and the order of a step. */
#include "world_internal.h"

#include <math.h>
#include <string.h>

#include "core/vec.h"

static const char *const body_type_names[GAIT_BODY_TYPE_COUNT] = {
    "medium_female", "medium_male", "tall_female", "tall_male", "short_female",
};

const char *gait_body_type_name(gait_body_type type) {
    return (unsigned)type < GAIT_BODY_TYPE_COUNT ? body_type_names[type] : NULL;
}

int gait_body_type_from_name(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < GAIT_BODY_TYPE_COUNT; i++)
        if (strcmp(name, body_type_names[i]) == 0) return i;
    return -1;
}

gait_world_def gait_default_world_def(void) {
    gait_world_def d;
    memset(&d, 0, sizeof d);
    d.clock = gait_default_clock_def();
    d.collider = gait_default_collider_def();
    d.max_characters = 64;
    return d;
}

gait_world *gait_world_create(const gait_world_def *def_in) {
    gait_world_def def = def_in ? *def_in : gait_default_world_def();
    gait__hooks_resolve(&def.hooks);
    if (def.max_characters < 1 || def.max_characters > (1 << 20)) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "world: max_characters %d is out of range 1..%d",
                   def.max_characters, 1 << 20);
        return NULL;
    }
    gait_clock clock;
    if (gait_clock_init(&clock, &def.clock) != GAIT_OK) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR,
                   "world: clock def out of range (step_seconds %g in [0.001, 0.1], "
                   "max_steps_per_frame %d in 1..1000)",
                   def.clock.step_seconds, def.clock.max_steps_per_frame);
        return NULL;
    }
    gait_world *w = gait__alloc(&def.hooks, sizeof *w);
    if (!w) return NULL;
    w->hooks = def.hooks;
    w->clock = clock;
    w->capacity = def.max_characters;
    w->characters = gait__alloc(&def.hooks, sizeof(gait__character) * (size_t)w->capacity);
    def.collider.hooks = def.hooks;
    w->collider = w->characters ? gait_collider_create(&def.collider) : NULL;
    if (!w->characters || !w->collider) {
        gait__free(&def.hooks, w->characters, sizeof(gait__character) * (size_t)w->capacity);
        gait__free(&def.hooks, w, sizeof *w);
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "world: could not create (memory or collider def)");
        return NULL;
    }
    w->provisional = gait_default_locomotion();
    w->traverse_table = gait_default_traverse_table(); /* traverse.c */
    memset(&w->debug_draw, 0, sizeof w->debug_draw);
    return w;
}

void gait_world_destroy(gait_world *w) {
    if (!w) return;
    gait_hooks hooks = w->hooks;
    gait_collider_destroy(w->collider);
    gait__free(&hooks, w->characters, sizeof(gait__character) * (size_t)w->capacity);
    gait__free(&hooks, w, sizeof *w);
}

const char *gait_world_last_error(const gait_world *w) { return w ? w->error : "world is NULL"; }
gait_collider *gait_world_collider(gait_world *w) { return w ? w->collider : NULL; }
const gait_collider *gait_world_collider_const(const gait_world *w) { return w ? w->collider : NULL; }

#define FAIL(w, status, ...) gait__fail((w)->error, sizeof (w)->error, (status), __VA_ARGS__)

/* ---- body-type numbers ------------------------------------------------------------------- */

static gait_status check_numbers(gait_world *w, const gait_locomotion *n, const char *what) {
    char err[160];
    if (!n) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "%s: numbers are NULL", what);
    gait_status s = gait_locomotion_validate(n, err, sizeof err);
    if (s != GAIT_OK) return FAIL(w, s, "%s: %s", what, err);
    return GAIT_OK;
}

gait_status gait_world_set_provisional_locomotion(gait_world *w, const gait_locomotion *n) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    gait_status s = check_numbers(w, n, "provisional numbers");
    if (s == GAIT_OK) w->provisional = *n;
    return s;
}

gait_status gait_world_set_locomotion(gait_world *w, gait_body_type type, const gait_locomotion *n) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if ((unsigned)type >= GAIT_BODY_TYPE_COUNT)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "body type %d is not one of 0..%d", (int)type,
                    GAIT_BODY_TYPE_COUNT - 1);
    gait_status s = check_numbers(w, n, body_type_names[type]);
    if (s != GAIT_OK) return s;
    w->measured[type] = *n;
    w->is_measured[type] = true;
    return GAIT_OK;
}

gait_status gait_world_clear_locomotion(gait_world *w, gait_body_type type) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if ((unsigned)type >= GAIT_BODY_TYPE_COUNT)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "body type %d is not one of 0..%d", (int)type,
                    GAIT_BODY_TYPE_COUNT - 1);
    w->is_measured[type] = false;
    return GAIT_OK;
}

const gait_locomotion *gait_world_locomotion(const gait_world *w, gait_body_type type) {
    if (!w) return NULL;
    if ((unsigned)type < GAIT_BODY_TYPE_COUNT && w->is_measured[type]) return &w->measured[type];
    return &w->provisional; /* a measured type never lends its entry to another */
}

bool gait_world_locomotion_measured(const gait_world *w, gait_body_type type) {
    return w && (unsigned)type < GAIT_BODY_TYPE_COUNT && w->is_measured[type];
}

/* ---- characters ---------------------------------------------------------------------------- */

gait__character *gait__character_get(gait_world *w, gait_character_id id) {
    return (gait__character *)gait__character_get_const(w, id);
}

const gait__character *gait__character_get_const(const gait_world *w, gait_character_id id) {
    if (!w) return NULL;
    if (id.index1 <= 0 || id.index1 > w->capacity) {
        gait__fail((char *)w->error, sizeof w->error, GAIT_ERR_STALE_ID,
                   "character id %d is %s", id.index1, id.index1 == 0 ? "null" : "out of range");
        return NULL;
    }
    const gait__character *ch = &w->characters[id.index1 - 1];
    if (!ch->alive || ch->generation != id.generation) {
        gait__fail((char *)w->error, sizeof w->error, GAIT_ERR_STALE_ID,
                   "character id %d (generation %u) is stale: the character was destroyed",
                   id.index1, id.generation);
        return NULL;
    }
    return ch;
}

#define GET(w, id, ch)                                          \
    if (!(w)) return GAIT_ERR_INVALID_ARGUMENT;                 \
    gait__character *ch = gait__character_get((w), (id));       \
    if (!ch) return GAIT_ERR_STALE_ID

gait_character_def gait_default_character_def(void) {
    gait_character_def d;
    memset(&d, 0, sizeof d);
    d.body_type = GAIT_BODY_MEDIUM_FEMALE;
    d.stamina = gait_default_stamina_def();
    d.camera = gait_default_camera_def();
    d.anim = gait_default_anim_def();
    return d;
}

gait_status gait_character_create(gait_world *w, const gait_character_def *def,
                                  gait_character_id *out) {
    if (!w || !def || !out) return GAIT_ERR_INVALID_ARGUMENT;
    if (!v3_finite(def->position) || !isfinite(def->yaw))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "character: position and yaw must be finite");
    if ((unsigned)def->body_type >= GAIT_BODY_TYPE_COUNT)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "character: body type %d is not one of 0..%d",
                    (int)def->body_type, GAIT_BODY_TYPE_COUNT - 1);
    gait_stamina pool;
    if (gait_stamina_init(&pool, &def->stamina) != GAIT_OK)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT,
                    "character: stamina def out of range (max in (0, 1e6], start in [0, max], "
                    "refill_rate and refill_delay >= 0, multiplier in [0, 100])");
    gait_camera camera;
    if (gait_camera_init(&camera, &def->camera) != GAIT_OK)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT,
                    "character: camera def out of range (finite; probe_radius > 0; probe_radius < "
                    "min_distance <= distance <= max_distance <= 1000; -1.55 <= min_pitch <= pitch "
                    "<= max_pitch <= 1.55; follow and ease seconds >= 0)");
    gait_anim anim;
    if (gait_anim_init(&anim, &def->anim) != GAIT_OK)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT,
                    "character: anim def out of range (each value in [0, 10])");
    int slot = -1;
    for (int i = 0; i < w->capacity; i++)
        if (!w->characters[i].alive) { slot = i; break; }
    if (slot < 0) return FAIL(w, GAIT_ERR_CAPACITY, "character: all %d slots are in use", w->capacity);

    gait__character *ch = &w->characters[slot];
    uint32_t generation = ch->generation;
    memset(ch, 0, sizeof *ch);
    ch->generation = generation;
    ch->alive = true;
    ch->user_data = def->user_data;
    ch->position = ch->prev_position = def->position;
    ch->yaw = ch->prev_yaw = def->yaw;
    ch->camera = camera;
    ch->camera_enabled = !def->no_camera;
    ch->anim = anim;
    ch->camera_yaw = def->yaw;
    ch->body_type = def->body_type;
    ch->stamina = pool;
    ch->phase.state = GAIT_STATE_IDLE;
    ch->previous_state = GAIT_STATE_IDLE;
    gait__body_place(w, ch);
    ch->prev_position = ch->position;
    ch->return_point = ch->position;
    ch->return_yaw = ch->yaw;
    if (ch->camera_enabled) gait_camera_behind(&ch->camera, w->collider, ch->position, ch->yaw, NULL);
    ch->camera_yaw = ch->camera.yaw = ch->yaw;
    w->count++;
    out->index1 = slot + 1;
    out->generation = generation;
    return GAIT_OK;
}

gait_status gait_character_destroy(gait_world *w, gait_character_id id) {
    GET(w, id, ch);
    ch->alive = false;
    ch->generation++;
    w->count--;
    return GAIT_OK;
}

bool gait_character_valid(const gait_world *w, gait_character_id id) {
    if (!w || id.index1 <= 0 || id.index1 > w->capacity) return false;
    const gait__character *ch = &w->characters[id.index1 - 1];
    return ch->alive && ch->generation == id.generation;
}

int gait_world_character_count(const gait_world *w) { return w ? w->count : 0; }

gait_status gait_character_set_input(gait_world *w, gait_character_id id, const gait_input *in) {
    GET(w, id, ch);
    if (!in) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "input is NULL");
    if (!isfinite(in->move_x) || !isfinite(in->move_y) || !isfinite(in->look_yaw) ||
        !isfinite(in->look_pitch) || !isfinite(in->look_zoom))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "input: move and look must be finite");
    double mx = clampd(in->move_x, -1, 1), my = clampd(in->move_y, -1, 1);
    double len = sqrt(mx * mx + my * my);
    if (len > 1) { mx /= len; my /= len; }
    ch->move_x = mx;
    ch->move_y = my;
    ch->held = in->held & GAIT_BUTTON_ALL;
    ch->pressed |= in->pressed & GAIT_BUTTON_ALL;
    /* look: yaw, pitch and zoom turn once a frame */
    gait_camera_look(&ch->camera, in->look_yaw, in->look_pitch, in->look_zoom);
    ch->camera_yaw = ch->camera.yaw;
    return GAIT_OK;
}

gait_status gait_character_held_presses(const gait_world *w, gait_character_id id, uint32_t *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    *out = ch->pressed;
    return GAIT_OK;
}

gait_status gait_character_take_presses(gait_world *w, gait_character_id id, uint32_t mask) {
    GET(w, id, ch);
    ch->pressed &= ~mask;
    return GAIT_OK;
}

gait_status gait_character_start_action(gait_world *w, gait_character_id id, double seconds,
                                        const char *name) {
    GET(w, id, ch);
    if (!isfinite(seconds) || seconds < 0 || seconds > 3600)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "action: seconds %g is not in [0, 3600]", seconds);
    ch->action_left = seconds;
    memset(ch->action_name, 0, sizeof ch->action_name);
    if (seconds > 0 && name) {
        size_t n = strlen(name);
        if (n > sizeof ch->action_name - 1) n = sizeof ch->action_name - 1;
        memcpy(ch->action_name, name, n);
    }
    return GAIT_OK;
}

gait_status gait_character_face(gait_world *w, gait_character_id id, double yaw) {
    GET(w, id, ch);
    if (!isfinite(yaw)) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "face: yaw must be finite");
    ch->yaw = remainder(yaw, 2 * M_PI);
    ch->prev_yaw = ch->yaw; /* turned on the spot: nothing to blend */
    return GAIT_OK;
}

gait_status gait_character_place(gait_world *w, gait_character_id id, gait_vec3 p, double yaw) {
    GET(w, id, ch);
    if (!v3_finite(p) || !isfinite(yaw))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "place: position and yaw must be finite");
    ch->position = p;
    ch->yaw = ch->prev_yaw = remainder(yaw, 2 * M_PI);
    ch->velocity = v3(0, 0, 0);
    ch->phase.state = GAIT_STATE_IDLE;
    ch->phase.seconds = 0;
    ch->action_left = 0;
    ch->action_name[0] = 0;
    gait__body_place(w, ch);
    ch->prev_position = ch->position;
    ch->return_point = ch->position;
    ch->return_yaw = ch->yaw;
    /* the camera stands level behind the placed body */
    gait_camera_behind(&ch->camera, w->collider, ch->position, ch->yaw, NULL);
    ch->camera_yaw = ch->camera.yaw;
    return GAIT_OK;
}

gait_status gait_character_set_body_type(gait_world *w, gait_character_id id, gait_body_type t) {
    GET(w, id, ch);
    if ((unsigned)t >= GAIT_BODY_TYPE_COUNT)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "body type %d is not one of 0..%d", (int)t,
                    GAIT_BODY_TYPE_COUNT - 1);
    ch->body_type = t;
    return GAIT_OK;
}

gait_status gait_character_spend(gait_world *w, gait_character_id id, double amount) {
    GET(w, id, ch);
    if (!isfinite(amount) || amount < 0)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "spend: amount %g must be finite and >= 0", amount);
    if (!gait_stamina_can_spend(&ch->stamina, amount))
        return FAIL(w, GAIT_ERR_CAPACITY, "spend: %g x %g is more than the %g stamina left", amount,
                    ch->stamina.multiplier, ch->stamina.value);
    return gait_stamina_spend(&ch->stamina, amount);
}

gait_status gait_character_can_spend(const gait_world *w, gait_character_id id, double amount,
                                     bool *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    if (!isfinite(amount) || amount < 0) return GAIT_ERR_INVALID_ARGUMENT;
    *out = gait_stamina_can_spend(&ch->stamina, amount);
    return GAIT_OK;
}

gait_stamina *gait_character_stamina(gait_world *w, gait_character_id id) {
    gait__character *ch = gait__character_get(w, id);
    return ch ? &ch->stamina : NULL;
}

gait_status gait_character_set_camera_yaw(gait_world *w, gait_character_id id, double yaw) {
    GET(w, id, ch);
    if (!isfinite(yaw)) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "camera yaw must be finite");
    ch->camera_yaw = ch->camera.yaw = remainder(yaw, 2 * M_PI);
    return GAIT_OK;
}

gait_status gait_character_camera(const gait_world *w, gait_character_id id, gait_camera *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    *out = ch->camera;
    return GAIT_OK;
}

gait_status gait_character_set_camera_def(gait_world *w, gait_character_id id,
                                          const gait_camera_def *def) {
    GET(w, id, ch);
    if (gait_camera_set_def(&ch->camera, def) != GAIT_OK)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "camera def out of range");
    return GAIT_OK;
}

gait_status gait_character_anim(const gait_world *w, gait_character_id id, gait_anim_signal *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    gait_anim_signal_get(&ch->anim, out);
    return GAIT_OK;
}

gait_status gait_character_set_anim_def(gait_world *w, gait_character_id id, const gait_anim_def *def) {
    GET(w, id, ch);
    if (gait_anim_set_def(&ch->anim, def) != GAIT_OK)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "anim def out of range (each value in [0, 10])");
    return GAIT_OK;
}

gait_status gait_character_set_clip(gait_world *w, gait_character_id id, gait_anim_state state,
                                    const char *clip) {
    GET(w, id, ch);
    if (gait_anim_set_clip(&ch->anim, state, clip) != GAIT_OK)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT,
                    "clip: state %d is not an animation state, or the name is %d bytes or longer",
                    (int)state, GAIT_CLIP_NAME_MAX);
    return GAIT_OK;
}

gait_status gait_character_set_model_lacks(gait_world *w, gait_character_id id,
                                           gait_anim_state state, bool lacks) {
    GET(w, id, ch);
    if (gait_anim_set_model_lacks(&ch->anim, state, lacks) != GAIT_OK)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "state %d is not an animation state", (int)state);
    return GAIT_OK;
}

gait_status gait_character_set_gate_hook(gait_world *w, gait_character_id id, gait_gate_hook hook,
                                         void *user) {
    GET(w, id, ch);
    ch->gate_hook = hook;
    ch->gate_user = user;
    return GAIT_OK;
}

gait_status gait_character_info_get(const gait_world *w, gait_character_id id,
                                    gait_character_info *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    memset(out, 0, sizeof *out);
    out->position = ch->position;
    out->velocity = ch->velocity;
    out->yaw = ch->yaw;
    out->camera_yaw = ch->camera_yaw;
    out->phase = ch->phase;
    out->previous_state = ch->previous_state;
    out->contact = ch->contact;
    out->stamina = ch->stamina.value;
    out->stamina_max = ch->stamina.max;
    out->body_type = ch->body_type;
    out->walking = ch->walking;
    out->crouching = ch->crouching;
    out->action_seconds_left = ch->action_left;
    memcpy(out->action_name, ch->action_name, sizeof out->action_name);
    out->return_point = ch->return_point;
    out->presses_read = ch->presses_read;
    out->steps = ch->steps;
    return GAIT_OK;
}

gait_status gait_character_pose(const gait_world *w, gait_character_id id, gait_pose *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    double a = gait_clock_alpha(&w->clock);
    out->position = v3_lerp(ch->prev_position, ch->position, a);
    out->yaw = ch->prev_yaw + remainder(ch->yaw - ch->prev_yaw, 2 * M_PI) * a;
    return GAIT_OK;
}

/* ---- the step ---------------------------------------------------------------------------- */

static void character_step(gait_world *w, gait_character_id id, gait__character *ch, double dt) {
    const gait_locomotion *num = gait_world_locomotion(w, ch->body_type);

    /* the step reads the held presses and lets them go */
    uint32_t pressed = ch->pressed;
    ch->pressed = 0;
    ch->presses_read = pressed;
    if (pressed & GAIT_BUTTON_WALK) ch->walking = !ch->walking;
    if (pressed & GAIT_BUTTON_CROUCH) ch->crouching = !ch->crouching;

    /* a kit action holds the body: the presses still reach the gates, the move does not */
    double mx = ch->move_x, my = ch->move_y;
    if (ch->action_left > 0) mx = my = 0;

    gait_gate_input gi;
    gi.move = sqrt(mx * mx + my * my);
    gi.move_up = my;
    gi.walking = ch->walking;
    gi.crouching = ch->crouching;
    gi.pressed = pressed;
    gi.held = ch->held;
    gi.stamina = ch->stamina.value;
    gi.stamina_multiplier = ch->stamina.multiplier;
    /* traverse.c: the stand-up check and a low opening may keep or make the body crouched */
    gait__traverse_pre_gates(w, ch, num, &gi, dt);

    gait_state from = ch->phase.state;
    gait_state next = gait_locomotion_next(&ch->phase, &gi, &ch->contact, num);
    /* traverse.c: a jump (or a held jump) offered a vault / mantle; an action ends itself */
    next = gait__traverse_gates(w, id, ch, num, &gi, next);
    if (next != from && ch->gate_hook) {
        gait_state s = ch->gate_hook(w, id, from, next, ch->gate_user);
        if ((unsigned)s < GAIT_STATE_COUNT && (s == from || gait_locomotion_is_edge(from, s))) next = s;
    }

    /* A climb (and a swim dash) costs while the body moves: a stick pushed against an overhang
     * that holds the body still costs nothing, as standing still on the wall does. The body's
     * speed over the last step tells; a state just entered still counts the stick alone. */
    bool moving = gi.move > num->move_epsilon;
    if (moving && next == from && (gait_state_on_wall(next) || gait_state_in_water(next)))
        moving = v3_len(ch->velocity) > 0.01;
    gait_stamina_step(&ch->stamina, &num->costs, from, next, moving, dt);

    ch->previous_state = from;
    if (next != from) {
        ch->phase.state = next;
        ch->phase.seconds = 0;
    }
    ch->phase.seconds += dt;

    ch->prev_position = ch->position;
    ch->prev_yaw = ch->yaw;
    if (from == GAIT_STATE_DROWN && next != GAIT_STATE_DROWN) {
        /* a drowned body comes back where its stamina was last full on foot, refilled */
        ch->position = ch->return_point;
        ch->yaw = ch->return_yaw;
        ch->velocity = v3(0, 0, 0);
        ch->stamina.value = ch->stamina.max;
        gait__body_place(w, ch);
        ch->prev_position = ch->position;
        ch->prev_yaw = ch->yaw;
    } else if (ch->phase.state == GAIT_STATE_TRAVERSE) {
        gait__traverse_move(w, ch, num, from, dt); /* traverse.c: the action's path */
    } else {
        gait__body_move(w, ch, num, from, mx, my, dt);
    }

    gait_anim_input ai;
    ai.state = ch->phase.state;
    ai.raw_grounded = ch->contact.grounded;
    ai.height_above_ground = ch->contact.height_above_ground;
    ai.step_height = num->step_height;
    ai.horizontal_speed = sqrt(ch->velocity.x * ch->velocity.x + ch->velocity.z * ch->velocity.z);
    ai.move = gi.move;
    gait_anim_update(&ch->anim, &ai, dt);

    if (gait_state_on_foot(ch->phase.state) && ch->contact.grounded &&
        ch->stamina.value >= ch->stamina.max) {
        ch->return_point = ch->position;
        ch->return_yaw = ch->yaw;
    }
    if (ch->action_left > 0) {
        ch->action_left -= dt;
        if (ch->action_left <= 1e-9) {
            ch->action_left = 0;
            ch->action_name[0] = 0;
        }
    }
    ch->steps++;
}

gait_status gait_world_step(gait_world *w) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    double dt = w->clock.step_seconds;
    for (int i = 0; i < w->capacity; i++) {
        gait__character *ch = &w->characters[i];
        if (!ch->alive) continue;
        gait_character_id id = {i + 1, ch->generation};
        character_step(w, id, ch, dt);
    }
    w->steps++;
    return GAIT_OK;
}

gait_status gait_world_update(gait_world *w, double frame_seconds, int *out_steps) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    int steps = 0;
    gait_status s = gait_clock_advance(&w->clock, frame_seconds, &steps);
    if (s != GAIT_OK)
        return FAIL(w, s, "update: frame seconds %g must be finite and >= 0", frame_seconds);
    for (int i = 0; i < steps; i++) gait_world_step(w);
    /* the camera follows the blended body, once a frame, after the steps */
    double a = gait_clock_alpha(&w->clock);
    for (int i = 0; i < w->capacity; i++) {
        gait__character *ch = &w->characters[i];
        if (!ch->alive || !ch->camera_enabled) continue;
        gait_vec3 drawn = v3_lerp(ch->prev_position, ch->position, a);
        gait_camera_follow(&ch->camera, w->collider, drawn, frame_seconds, NULL);
    }
    if (out_steps) *out_steps = steps;
    return GAIT_OK;
}

double gait_world_alpha(const gait_world *w) { return w ? gait_clock_alpha(&w->clock) : 0; }
uint64_t gait_world_step_count(const gait_world *w) { return w ? w->steps : 0; }
double gait_world_step_seconds(const gait_world *w) { return w ? w->clock.step_seconds : 0; }
const gait_clock *gait_world_clock(const gait_world *w) { return w ? &w->clock : NULL; }

/* ---- snapshot / restore ------------------------------------------------------------------- */

/* Layout: header, clock, steps, numbers, characters[capacity]. Structs are copied whole: the
 * snapshot is for the same build, and every struct was zeroed before it was filled, so padding
 * bytes are zero and the bytes (and their hash) depend on the state alone. */
typedef struct snapshot_header {
    char magic[8];              /* "gaitsnp1" */
    uint32_t header_size, character_size;
    uint32_t capacity, count;
    uint64_t payload_size;
    uint64_t checksum;          /* FNV-1a of the payload */
} snapshot_header;

static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

#define FNV_BASIS 14695981039346656037ull

static size_t payload_size(const gait_world *w) {
    return sizeof w->clock + sizeof w->steps + sizeof w->provisional + sizeof w->measured +
           sizeof w->is_measured + sizeof(gait__character) * (size_t)w->capacity;
}

size_t gait_world_snapshot_size(const gait_world *w) {
    return w ? sizeof(snapshot_header) + payload_size(w) : 0;
}

/* Copies the state to or from a payload, in one order for both directions. On restore the
 * host's own pointers in each slot (gate hook, its user pointer, user data) stay as they are. */
static void payload_copy(gait_world *w, unsigned char *p, bool save) {
#define PART(field)                                                   \
    do {                                                              \
        if (save) memcpy(p, &(field), sizeof(field));                 \
        else memcpy(&(field), p, sizeof(field));                      \
        p += sizeof(field);                                           \
    } while (0)
    PART(w->clock);
    PART(w->steps);
    PART(w->provisional);
    PART(w->measured);
    PART(w->is_measured);
#undef PART
    for (int i = 0; i < w->capacity; i++, p += sizeof(gait__character)) {
        gait__character *ch = &w->characters[i];
        if (save) {
            memcpy(p, ch, sizeof *ch);
            continue;
        }
        gait_gate_hook hook = ch->gate_hook;
        void *gate_user = ch->gate_user, *user_data = ch->user_data;
        gait_traverse_hook trav_hook = ch->trav.hook; /* traverse.c: the host's, like the gate hook */
        void *trav_user = ch->trav.hook_user;
        memcpy(ch, p, sizeof *ch);
        ch->gate_hook = hook;
        ch->gate_user = gate_user;
        ch->user_data = user_data;
        /* the body's open-country cache is keyed to this collider's revision: a snapshot from
         * another world could carry a matching number for other geometry. It is only a
         * shortcut (results are the same bits either way), so drop it */
        ch->body.near.valid = false;
        ch->trav.hook = trav_hook;
        ch->trav.hook_user = trav_user;
    }
}

gait_status gait_world_snapshot_save(const gait_world *w, void *buffer, size_t capacity,
                                     size_t *out_size) {
    if (!w || !buffer) return GAIT_ERR_INVALID_ARGUMENT;
    size_t need = gait_world_snapshot_size(w);
    if (capacity < need)
        return FAIL((gait_world *)w, GAIT_ERR_CAPACITY, "snapshot: needs %zu bytes, buffer has %zu",
                    need, capacity);
    unsigned char *p = buffer;
    snapshot_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, "gaitsnp1", 8);
    h.header_size = sizeof h;
    h.character_size = sizeof(gait__character);
    h.capacity = (uint32_t)w->capacity;
    h.count = (uint32_t)w->count;
    h.payload_size = payload_size(w);
    payload_copy((gait_world *)w, p + sizeof h, true);
    h.checksum = fnv1a(FNV_BASIS, p + sizeof h, h.payload_size);
    memcpy(p, &h, sizeof h);
    if (out_size) *out_size = need;
    return GAIT_OK;
}

gait_status gait_world_snapshot_restore(gait_world *w, const void *buffer, size_t size) {
    if (!w || !buffer) return GAIT_ERR_INVALID_ARGUMENT;
    snapshot_header h;
    if (size < sizeof h) return FAIL(w, GAIT_ERR_FORMAT, "snapshot: %zu bytes is too short", size);
    memcpy(&h, buffer, sizeof h);
    if (memcmp(h.magic, "gaitsnp1", 8) != 0 || h.header_size != sizeof h)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: not a gait snapshot (bad magic)");
    if (h.character_size != sizeof(gait__character) || h.capacity != (uint32_t)w->capacity ||
        h.payload_size != payload_size(w) || size < sizeof h + h.payload_size)
        return FAIL(w, GAIT_ERR_FORMAT,
                    "snapshot: made by another build or a world of another size (capacity %u, "
                    "this world %d)", h.capacity, w->capacity);
    const unsigned char *p = (const unsigned char *)buffer + sizeof h;
    if (fnv1a(FNV_BASIS, p, h.payload_size) != h.checksum)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: checksum mismatch (corrupted)");
    payload_copy(w, (unsigned char *)p, false);
    w->count = (int)h.count;
    return GAIT_OK;
}

/* Hashes members one by one: whole-struct bytes would take in padding, which struct
 * assignments may fill with whatever the source's stack held. */
static uint64_t hash_d(uint64_t h, double v) { return fnv1a(h, &v, sizeof v); }
static uint64_t hash_v(uint64_t h, gait_vec3 v) { return hash_d(hash_d(hash_d(h, v.x), v.y), v.z); }
static uint64_t hash_u(uint64_t h, uint64_t v) { return fnv1a(h, &v, sizeof v); }

uint64_t gait_world_state_hash(const gait_world *w) {
    if (!w) return 0;
    uint64_t h = FNV_BASIS;
    h = hash_d(h, w->clock.accumulator);
    h = hash_u(h, w->steps);
    for (int i = 0; i < w->capacity; i++) {
        const gait__character *ch = &w->characters[i];
        h = hash_u(h, ch->alive);
        h = hash_u(h, ch->generation);
        if (!ch->alive) continue;
        h = hash_v(hash_v(hash_v(h, ch->position), ch->prev_position), ch->velocity);
        h = hash_d(hash_d(h, ch->yaw), ch->prev_yaw);
        h = hash_u(hash_d(h, ch->phase.seconds), (uint64_t)ch->phase.state);
        h = hash_u(h, (uint64_t)ch->previous_state);
        const gait_contact *c = &ch->contact;
        h = hash_u(h, (uint64_t)c->grounded | (uint64_t)c->rising << 1 | (uint64_t)c->wall << 2 |
                          (uint64_t)c->wall_ahead << 3 | (uint64_t)c->over_top << 4);
        h = hash_d(hash_d(hash_d(h, c->height_above_ground), c->water_depth), c->submersion);
        h = hash_d(hash_d(hash_d(h, ch->stamina.value), ch->stamina.rest), ch->stamina.stroke_timer);
        h = hash_u(hash_u(h, ch->pressed), ch->held);
        h = hash_u(h, (uint64_t)ch->walking | (uint64_t)ch->crouching << 1);
        h = hash_d(hash_d(h, ch->move_x), ch->move_y);
        h = hash_d(hash_d(h, ch->camera.yaw), ch->camera.pitch);
        h = hash_d(hash_d(h, ch->camera.distance), ch->camera.arm);
        h = hash_v(h, ch->camera.eye);
        h = hash_u(hash_u(h, (uint64_t)ch->anim.playing), ch->anim.switches);
        h = hash_d(h, ch->action_left);
        h = hash_v(h, ch->return_point);
        h = hash_v(hash_v(h, ch->body.vel), ch->body.wall_normal);
        h = hash_u(h, (uint64_t)ch->body_type);
        /* traverse.c: the action and the crouch's memory */
        h = hash_u(hash_u(h, (uint64_t)ch->trav.kind), (uint64_t)ch->trav.phase);
        h = hash_d(hash_d(hash_d(h, ch->trav.seconds), ch->trav.cooldown), ch->trav.corridor);
        h = hash_u(h, (uint64_t)ch->trav.latch | (uint64_t)ch->trav.auto_crouch << 1 |
                          (uint64_t)ch->trav.auto_under << 2 | (uint64_t)ch->trav.crouch_air << 3);
    }
    return h;
}
