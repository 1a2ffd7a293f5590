/* Characters: create, destroy, their input, a kit's door (presses, actions, stamina), place,
 * face, party switch, camera, animation, hooks, and what they are after a step. */
#include "world_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/vec.h"
#include "collide/collide_layout.h"
#include "layouts.h"

#define FAIL GAIT__FAIL

/* Finite and within GAIT_WORLD_LIMIT (a position's every coordinate, an angle). */
static bool in_limit(double v) { return v >= -GAIT_WORLD_LIMIT && v <= GAIT_WORLD_LIMIT; }
static bool pos_in_limit(gait_vec3 p) { return in_limit(p.x) && in_limit(p.y) && in_limit(p.z); }

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

#define GET GAIT__GET

gait_character_def gait_default_character_def(void) {
    gait_character_def d;
    memset(&d, 0, sizeof d);
    d.body_type = GAIT_BODY_MEDIUM_FEMALE;
    d.stamina = gait_default_stamina_def();
    d.camera = gait_default_camera_def();
    d.anim = gait_default_anim_def();
    d.collide = true;
    d.collision_layer = 1;
    d.collision_mask = 0xffffffffu;
    return d;
}

gait_status gait_character_create(gait_world *w, const gait_character_def *def,
                                  gait_character_id *out) {
    if (!w || !def || !out) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "character: create refused while the world steps");
    if (!pos_in_limit(def->position) || !in_limit(def->yaw))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "character: position and yaw must be finite and "
                    "within %g (m, rad)", GAIT_WORLD_LIMIT);
    if ((unsigned)def->body_type >= GAIT_BODY_TYPE_COUNT)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "character: body type %d is not one of 0..%d",
                    (int)def->body_type, GAIT_BODY_TYPE_COUNT - 1);
    gait__create_cache *cc = &w->create_cache;
    bool same = cc->valid && memcmp(&cc->stamina_def, &def->stamina, sizeof def->stamina) == 0 &&
                memcmp(&cc->camera_def, &def->camera, sizeof def->camera) == 0 &&
                memcmp(&cc->anim_def, &def->anim, sizeof def->anim) == 0;
    if (!same) {
        gait_stamina pool;
        if (gait_stamina_init(&pool, &def->stamina) != GAIT_OK)
            return FAIL(w, GAIT_ERR_INVALID_ARGUMENT,
                        "character: stamina def out of range (max in (0, 1e6], start in [0, max], "
                        "refill_rate and refill_delay >= 0, multiplier in [0, 100])");
        gait_camera camera;
        if (gait_camera_init(&camera, &def->camera) != GAIT_OK)
            return FAIL(w, GAIT_ERR_INVALID_ARGUMENT,
                        "character: camera def out of range (finite; probe_radius > 0; "
                        "probe_radius < min_distance <= distance <= max_distance <= 1000; -1.55 "
                        "<= min_pitch <= pitch <= max_pitch <= 1.55; follow and ease seconds >= 0)");
        if (gait_anim_init(&cc->anim, &def->anim) != GAIT_OK) {
            cc->valid = false;
            return FAIL(w, GAIT_ERR_INVALID_ARGUMENT,
                        "character: anim def out of range (each value in [0, 10])");
        }
        gait_anim_set_default_clips(&cc->anim); /* the map the Lua side ships; tuning or the host
                                                   renames */
        cc->pool = pool;
        cc->camera = camera;
        cc->stamina_def = def->stamina;
        cc->camera_def = def->camera;
        cc->anim_def = def->anim;
        cc->valid = true;
    }
    int slot = w->free_head; /* the free list: O(1) whatever the pool's size */
    if (slot < 0) return FAIL(w, GAIT_ERR_CAPACITY, "character: all %d slots are in use", w->capacity);
    /* the slot's own gather, kept for every character it holds; past GAIT__OWN_GATHERS slots a
     * character moves through its worker's gather (the same bits: a crowd of 100,000 would
     * otherwise hold 4 GB of caches) */
    if (!w->own_gather[slot] && w->own_gather_count < GAIT__OWN_GATHERS) {
        gait_gather *g = gait__alloc_raw(&w->hooks, w->own_gather_bytes); /* init writes what it reads */
        if (!g || gait_gather_init(g, g + 1, w->own_gather_bytes - sizeof *g) != GAIT_OK) {
            gait__free(&w->hooks, g, w->own_gather_bytes);
            return FAIL(w, GAIT_ERR_OUT_OF_MEMORY, "character: out of memory (%zu bytes)",
                        w->own_gather_bytes);
        }
        w->own_gather[slot] = g;
        w->own_gather_count++;
    }

    /* inside closed geometry: out to the nearest free space, or refused */
    gait_vec3 at = def->position;
    bool clear; /* no landmark near: the placement below skips them (one query, not two placements) */
    if (!gait__body_spot(w->collider, gait_world_locomotion(w, def->body_type), &at, &clear))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "character: position %g %g %g is inside closed "
                    "geometry (a landmark) with no free space next to it", def->position.x,
                    def->position.y, def->position.z);

    gait__character *ch = &w->characters[slot];
    uint32_t generation = ch->generation;
    w->free_head = ch->free_next;
    /* What a create writes is what memory bandwidth makes it cost (a record is 5 KB; a crowd of
     * 100,000 wrote 0.5 GB): everything up to the traversal's last scan is zeroed, the anim's
     * part before its clip map copied (the map is the shared default:
     * gait_anim_set_default_clips), the motion's part before its large tail zeroed
     * (gait__motion_start). The scan, the map and the tail keep what the slot's last character
     * left: valid (every record written was), and read only once written anew. */
    memset(ch, 0, offsetof(gait__character, trav.query));
    ch->free_next = -1;
    ch->generation = generation;
    ch->alive = true;
    ch->user_data = def->user_data;
    ch->position = ch->prev_position = at;
    ch->yaw = ch->prev_yaw = def->yaw;
    ch->camera = cc->camera;
    ch->camera_enabled = !def->no_camera;
    memcpy(&ch->anim, &cc->anim, offsetof(gait_anim, clips));
    ch->camera_yaw = def->yaw;
    ch->body_type = def->body_type;
    ch->collide = def->collide;
    ch->collision_layer = def->collision_layer;
    ch->collision_mask = def->collision_mask;
    ch->stamina = cc->pool;
    ch->phase.state = GAIT_STATE_IDLE;
    ch->previous_state = GAIT_STATE_IDLE;
    gait__motion_start(&ch->motion);
    gait__body_place_known(w->collider, ch, gait_world_locomotion(w, ch->body_type), clear);
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
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "character: destroy refused while the world steps");
    ch->alive = false;
    ch->generation++;
    ch->free_next = w->free_head;
    w->free_head = id.index1 - 1;
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
    GAIT__GET_CONST(w, id, ch, out);
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
    if (!in_limit(yaw))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "face: yaw must be finite and within %g rad",
                    GAIT_WORLD_LIMIT);
    ch->yaw = remainder(yaw, 2 * M_PI);
    ch->prev_yaw = ch->yaw; /* turned on the spot: nothing to blend */
    return GAIT_OK;
}

gait_status gait_character_place(gait_world *w, gait_character_id id, gait_vec3 p, double yaw) {
    GET(w, id, ch);
    if (!pos_in_limit(p) || !in_limit(yaw))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "place: position and yaw must be finite and "
                    "within %g (m, rad)", GAIT_WORLD_LIMIT);
    gait_vec3 at = p; /* inside closed geometry: out to the nearest free space, or refused */
    bool clear;
    if (!gait__body_spot(w->collider, gait_world_locomotion(w, ch->body_type), &at, &clear))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "place: position %g %g %g is inside closed "
                    "geometry (a landmark) with no free space next to it", p.x, p.y, p.z);
    ch->position = at;
    ch->yaw = ch->prev_yaw = remainder(yaw, 2 * M_PI);
    ch->velocity = v3(0, 0, 0);
    ch->phase.state = GAIT_STATE_IDLE;
    ch->phase.seconds = 0;
    ch->action_left = 0;
    ch->action_name[0] = 0;
    gait__motion_cancel(&ch->motion);
    gait__body_place_known(w->collider, ch, gait_world_locomotion(w, ch->body_type), clear);
    ch->prev_position = ch->position;
    ch->return_point = ch->position;
    ch->return_yaw = ch->yaw;
    /* the camera stands level behind the placed body */
    gait_camera_behind(&ch->camera, w->collider, ch->position, ch->yaw, NULL);
    ch->camera_yaw = ch->camera.yaw;
    return GAIT_OK;
}

gait_status gait_character_set_collision(gait_world *w, gait_character_id id, bool collide,
                                         uint32_t layer, uint32_t mask) {
    GET(w, id, ch);
    /* the crowd's picture of the step is taken at its start: a change now would reach the
     * characters stepped after it and not those before */
    if (w->stepping)
        return FAIL(w, GAIT_ERR_LOCKED, "set_collision: refused while the world steps");
    ch->collide = collide;
    ch->collision_layer = layer;
    ch->collision_mask = mask;
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
    GAIT__GET_CONST(w, id, ch, out);
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
    if (!in_limit(yaw))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "camera yaw must be finite and within %g rad",
                    GAIT_WORLD_LIMIT);
    ch->camera_yaw = ch->camera.yaw = remainder(yaw, 2 * M_PI);
    return GAIT_OK;
}

gait_status gait_character_camera(const gait_world *w, gait_character_id id, gait_camera *out) {
    GAIT__GET_CONST(w, id, ch, out);
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
    GAIT__GET_CONST(w, id, ch, out);
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
    GAIT__GET_CONST(w, id, ch, out);
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
    if (ch->action_left <= 0 && ch->motion.playing) { /* a moving action (motion.c) */
        const gait__motion *m = &ch->motion;
        out->action_seconds_left = m->move.seconds > m->seconds ? m->move.seconds - m->seconds : 0;
        memcpy(out->action_name, m->move.name, sizeof out->action_name);
    }
    out->return_point = ch->return_point;
    out->presses_read = ch->presses_read;
    out->steps = ch->steps;
    out->collide = ch->collide;
    out->collision_layer = ch->collision_layer;
    out->collision_mask = ch->collision_mask;
    out->carrier = ch->carrier;
    out->carrier_velocity = ch->carrier_velocity;
    out->crushed = ch->crushed;
    return GAIT_OK;
}

gait_status gait_character_pose(const gait_world *w, gait_character_id id, gait_pose *out) {
    GAIT__GET_CONST(w, id, ch, out);
    double a = gait_clock_alpha(&w->clock);
    out->position = v3_lerp(ch->prev_position, ch->position, a);
    out->yaw = ch->prev_yaw + remainder(ch->yaw - ch->prev_yaw, 2 * M_PI) * a;
    return GAIT_OK;
}

/* ---- layout (layouts.h) ------------------------------------------------------------------- */

/* The stick as set_input leaves it: each axis in [-1, 1], the length at most 1 (a rounding hair
 * past it after the scale). */
static bool character_rules(const void *base, char *err, size_t cap) {
    const gait__character *ch = base;
    double len2 = ch->move_x * ch->move_x + ch->move_y * ch->move_y;
    if (len2 > 1 + 1e-9) {
        snprintf(err, cap, "move_x = %g, move_y = %g: the stick is longer than 1", ch->move_x,
                 ch->move_y);
        return false;
    }
    return true;
}

/* A live character, member by member (snapshot.c reads a dead slot's generation and alive only).
 * Positions within GAIT__POS_LIMIT, angles within GAIT_WORLD_LIMIT (create, place, face and
 * set_camera_yaw take no more; the body's own turns are atan2's), presses and levels gait_button
 * bits. */
#define POS GAIT__POS_LIMIT
#define ANGLE GAIT_WORLD_LIMIT
static const gait__lfield character_rows[] = {
    GAIT__LUINT(gait__character, generation, 0, 4294967295.0),
    GAIT__LBOOL(gait__character, alive),
    /* -1 while alive; a dead slot's link, checked with the whole list (snapshot.c) */
    GAIT__LINT(gait__character, free_next, -1, INT_MAX),
    GAIT__LHOST(gait__character, user_data),
    GAIT__LVEC3(gait__character, position, -POS, POS, "m"),
    GAIT__LVEC3(gait__character, prev_position, -POS, POS, "m"),
    GAIT__LREAL(gait__character, yaw, -ANGLE, ANGLE, "rad"),
    GAIT__LREAL(gait__character, prev_yaw, -ANGLE, ANGLE, "rad"),
    GAIT__LVEC3(gait__character, velocity, -GAIT__SPEED_LIMIT, GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LSTRUCT(gait__character, phase, gait__phase_layout),
    GAIT__LINT(gait__character, previous_state, 0, GAIT_STATE_COUNT - 1),
    GAIT__LSTRUCT(gait__character, contact, gait__contact_layout),
    GAIT__LSTRUCT(gait__character, stamina, gait__stamina_layout),
    GAIT__LINT(gait__character, body_type, 0, GAIT_BODY_TYPE_COUNT - 1),
    GAIT__LREAL(gait__character, move_x, -1, 1, ""),
    GAIT__LREAL(gait__character, move_y, -1, 1, ""),
    GAIT__LUINT(gait__character, held, 0, GAIT_BUTTON_ALL),
    GAIT__LUINT(gait__character, pressed, 0, GAIT_BUTTON_ALL),
    GAIT__LUINT(gait__character, presses_read, 0, GAIT_BUTTON_ALL),
    GAIT__LBOOL(gait__character, walking),
    GAIT__LBOOL(gait__character, crouching),
    GAIT__LREAL(gait__character, camera_yaw, -ANGLE, ANGLE, "rad"),
    GAIT__LREAL(gait__character, climb_turn, -ANGLE, ANGLE, "rad"),
    GAIT__LSTRUCT(gait__character, camera, gait__camera_layout),
    GAIT__LBOOL(gait__character, camera_enabled),
    GAIT__LREAL(gait__character, action_left, 0, 3600, "s"), /* start_action's range */
    GAIT__LTEXT(gait__character, action_name),
    GAIT__LVEC3(gait__character, return_point, -POS, POS, "m"),
    GAIT__LREAL(gait__character, return_yaw, -ANGLE, ANGLE, "rad"),
    GAIT__LBOOL(gait__character, collide),
    GAIT__LUINT(gait__character, collision_layer, 0, 4294967295.0),
    GAIT__LUINT(gait__character, collision_mask, 0, 4294967295.0),
    /* what the last move stood on, for the host (the next step computes them anew) */
    GAIT__LSTRUCT(gait__character, carrier, gait__landmark_id_layout),
    GAIT__LVEC3(gait__character, carrier_velocity, -GAIT__SPEED_LIMIT, GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LBOOL(gait__character, crushed),
    GAIT__LHOST(gait__character, gate_hook),
    GAIT__LHOST(gait__character, gate_user),
    GAIT__LUINT(gait__character, steps, 0, GAIT__LU64_ANY),
    GAIT__LSTRUCT(gait__character, body, gait__body_layout),
    GAIT__LSTRUCT(gait__character, crouch, gait__crouch_layout),
    GAIT__LCACHE(gait__character, yaw_trig), /* remembered trigonometry (core/trig.h) */
    GAIT__LCACHE(gait__character, camera_trig),
    GAIT__LCACHE(gait__character, heading_trig),
    GAIT__LCACHE(gait__character, walk_slope_trig),
    GAIT__LCACHE(gait__character, stand_slope_trig),
    GAIT__LSTRUCT(gait__character, trav, gait__traverse_layout),
    GAIT__LSTRUCT(gait__character, anim, gait__anim_layout),
    GAIT__LSTRUCT(gait__character, motion, gait__motion_layout),
};
#undef POS
#undef ANGLE
GAIT__LTABLE(gait__character_layout, gait__character, character_rows, NULL, character_rules);
