/* The gait.character type: a character userdata (world box + id), its getters and setters, its
 * gate hook; and the world methods that make and find characters (w:create_character, alias
 * w:spawn; w:character, w:characters, w:character_count, w:max_characters).
 *
 * A character's userdata is a value: several may name one character. It shares its world's
 * environment table, whose `self` field keeps the world userdata alive while any of its
 * characters is reachable. A stale id raises a clear error, never touches freed memory. Every
 * read and write goes through the public C API (gait_character_*). */
#include "script_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CHARGE_CREATE 500
#define CHARGE_PER_SLOT 20

void gait__new_class(lua_State *L, const char *name, const luaL_Reg *methods) {
    luaL_newmetatable(L, name);
    lua_newtable(L);
    luaL_register(L, NULL, methods);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "__index");
    lua_remove(L, -2);
}

void gait__add_methods(lua_State *L, const char *class_name, const luaL_Reg *methods) {
    luaL_getmetatable(L, class_name);
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "__index");
        if (lua_istable(L, -1)) luaL_register(L, NULL, methods);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* ---- the userdata -------------------------------------------------------------------------- */

void gait__push_character(lua_State *L, int world_idx, gait_character_id id) {
    gait__wbox *b = (gait__wbox *)lua_touserdata(L, world_idx);
    gait__chud *c = (gait__chud *)lua_newuserdata(L, sizeof *c);
    c->box = b;
    c->id = id;
    luaL_getmetatable(L, GAIT__MT_CHARACTER);
    lua_setmetatable(L, -2);
    lua_getfenv(L, world_idx);
    lua_setfenv(L, -2);
}

gait__chud *gait__check_character(lua_State *L, int idx) {
    gait__chud *c = (gait__chud *)luaL_checkudata(L, idx, GAIT__MT_CHARACTER);
    if (!c->box->world)
        luaL_error(L, "character #%d: its world was destroyed", c->id.index1);
    if (!gait_character_valid(c->box->world, c->id))
        luaL_error(L, "character #%d (generation %d) is stale: it was destroyed", c->id.index1,
                   (int)c->id.generation);
    return c;
}

/* The character at argument 1 (raises when stale) and its world. */
#define CH(L) gait__chud *c = gait__check_character(L, 1); gait_world *w = c->box->world

/* Everything about it after the last step (gait_character_info_get). */
static gait_character_info info_of(lua_State *L, const gait__chud *c) {
    gait_character_info in;
    if (gait_character_info_get(c->box->world, c->id, &in) != GAIT_OK)
        luaL_error(L, "character #%d: %s", c->id.index1, gait_world_last_error(c->box->world));
    return in;
}

static gait_stamina pool_of(lua_State *L, const gait__chud *c) {
    gait_stamina p;
    if (gait_character_stamina_get(c->box->world, c->id, &p) != GAIT_OK)
        luaL_error(L, "character #%d: %s", c->id.index1, gait_world_last_error(c->box->world));
    return p;
}

/* A setter's status: a bad value raises with the world's message. */
static void check_status(lua_State *L, gait_world *w, gait_status st, const char *what) {
    if (st != GAIT_OK) luaL_error(L, "%s: %s", what, gait_world_last_error(w));
}

/* ---- getters: fields of gait_character_info ------------------------------------------------ */

/* ch:state() -> name, seconds in it (gait_character_phase) */
static int l_ch_state(lua_State *L) {
    gait__chud *c = gait__check_character(L, 1);
    gait_phase ph;
    if (gait_character_phase(c->box->world, c->id, &ph) != GAIT_OK)
        return luaL_error(L, "character #%d: %s", c->id.index1, gait_world_last_error(c->box->world));
    lua_pushstring(L, gait_state_name(ph.state));
    lua_pushnumber(L, ph.seconds);
    return 2;
}

static int l_ch_position(lua_State *L) {
    return gait__push_xyz(L, info_of(L, gait__check_character(L, 1)).position);
}

static int l_ch_velocity(lua_State *L) {
    return gait__push_xyz(L, info_of(L, gait__check_character(L, 1)).velocity);
}

static int l_ch_yaw(lua_State *L) {
    lua_pushnumber(L, info_of(L, gait__check_character(L, 1)).yaw);
    return 1;
}

static int l_ch_camera_yaw(lua_State *L) {
    lua_pushnumber(L, info_of(L, gait__check_character(L, 1)).camera_yaw);
    return 1;
}

/* ch:stamina() -> value, max */
static int l_ch_stamina(lua_State *L) {
    gait_character_info in = info_of(L, gait__check_character(L, 1));
    lua_pushnumber(L, in.stamina);
    lua_pushnumber(L, in.stamina_max);
    return 2;
}

static int l_ch_stamina_multiplier(lua_State *L) {
    lua_pushnumber(L, pool_of(L, gait__check_character(L, 1)).multiplier);
    return 1;
}

static int l_ch_body_type(lua_State *L) {
    lua_pushstring(L, gait_body_type_name(info_of(L, gait__check_character(L, 1)).body_type));
    return 1;
}

/* ch:action() -> name, seconds left | nil */
static int l_ch_action(lua_State *L) {
    gait_character_info in = info_of(L, gait__check_character(L, 1));
    if (in.action_seconds_left <= 0) return 0;
    lua_pushstring(L, in.action_name);
    lua_pushnumber(L, in.action_seconds_left);
    return 2;
}

/* gait_contact's fields, by their C names */
#define CONTACT_FIELDS(X)                                                                         \
    X(bool, grounded) X(bool, rising) X(number, height_above_ground) X(number, water_depth)       \
    X(number, submersion) X(bool, wall) X(bool, wall_ahead) X(bool, over_top)

static void push_contact(lua_State *L, const gait_contact *from) {
    lua_createtable(L, 0, 8);
    CONTACT_FIELDS(GAIT__SET_FIELD)
}

static int l_ch_contact(lua_State *L) {
    gait_character_info in = info_of(L, gait__check_character(L, 1));
    push_contact(L, &in.contact);
    return 1;
}

/* ch:info() -> a table of everything gait_character_info holds */
static int l_ch_info(lua_State *L) {
    CH(L);
    gait_character_info in = info_of(L, c);
    gait_stamina pool = pool_of(L, c);
    lua_createtable(L, 0, 24);
    gait__set_vec3(L, "position", in.position);
    gait__set_vec3(L, "velocity", in.velocity);
    gait__set_number(L, "yaw", in.yaw);
    gait__set_number(L, "camera_yaw", in.camera_yaw);
    gait__set_string(L, "state", gait_state_name(in.phase.state));
    gait__set_number(L, "state_seconds", in.phase.seconds);
    gait__set_string(L, "previous_state", gait_state_name(in.previous_state));
    push_contact(L, &in.contact);
    lua_setfield(L, -2, "contact");
    gait__set_number(L, "stamina", in.stamina);
    gait__set_number(L, "stamina_max", in.stamina_max);
    gait__set_number(L, "stamina_multiplier", pool.multiplier);
    gait__set_string(L, "body_type", gait_body_type_name(in.body_type));
    gait__set_bool(L, "measured", gait_world_locomotion_measured(w, in.body_type));
    gait__set_bool(L, "walking", in.walking);
    gait__set_bool(L, "crouching", in.crouching);
    gait__set_number(L, "action_seconds_left", in.action_seconds_left);
    if (in.action_seconds_left > 0) {
        gait__set_string(L, "action", in.action_name);
    }
    gait__set_vec3(L, "return_point", in.return_point);
    gait__push_buttons(L, in.presses_read);
    lua_setfield(L, -2, "presses_read");
    gait__set_number(L, "steps", (lua_Number)in.steps);
    gait__set_integer(L, "id", c->id.index1);
    gait__set_bool(L, "collide", in.collide);
    gait__set_number(L, "collision_layer", in.collision_layer);
    gait__set_number(L, "collision_mask", in.collision_mask);
    /* a moving landmark stood on: its velocity under the feet; crushed by one */
    gait__set_bool(L, "on_moving", in.carrier.index1 != 0);
    gait__set_vec3(L, "carrier_velocity", in.carrier_velocity);
    gait__set_bool(L, "crushed", in.crushed);
    return 1;
}

/* A collision layer or mask: a whole number in 0 .. 2^32 - 1 at the top of the stack. */
static uint32_t check_bits(lua_State *L, const char *what) {
    double v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(v >= 0 && v <= 4294967295.0) || v != floor(v))
        luaL_error(L, "%s must be a whole number in 0 .. 4294967295 (bits), not %s", what,
                   lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1) : luaL_typename(L, -1));
    return (uint32_t)v;
}

/* Reads collide = bool, layer = bits, mask = bits from the table at t over *collide etc. */
static void read_collision(lua_State *L, int t, bool *collide, uint32_t *layer, uint32_t *mask,
                           const char *what) {
    char name[96];
    lua_getfield(L, t, "collide");
    if (!lua_isnil(L, -1)) {
        if (!lua_isboolean(L, -1)) luaL_error(L, "%s.collide must be true or false", what);
        *collide = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    lua_getfield(L, t, "layer");
    snprintf(name, sizeof name, "%s.layer", what);
    if (!lua_isnil(L, -1)) *layer = check_bits(L, name);
    lua_pop(L, 1);
    lua_getfield(L, t, "mask");
    snprintf(name, sizeof name, "%s.mask", what);
    if (!lua_isnil(L, -1)) *mask = check_bits(L, name);
    lua_pop(L, 1);
}

/* ch:set_collision{collide = bool, layer = bits, mask = bits} (what it leaves out stays): whether
 * it blocks other characters (a pair meets when both collide and each one's layer shares a bit
 * with the other's mask) */
static const char *const collision_keys[] = {"collide", "layer", "mask"};
static int l_ch_set_collision(lua_State *L) {
    CH(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    gait__check_keys(L, 2, collision_keys, 3, "ch:set_collision");
    gait_character_info in = info_of(L, c);
    bool collide = in.collide;
    uint32_t layer = in.collision_layer, mask = in.collision_mask;
    read_collision(L, 2, &collide, &layer, &mask, "ch:set_collision");
    check_status(L, w, gait_character_set_collision(w, c->id, collide, layer, mask),
                 "ch:set_collision()");
    return 0;
}

/* ch:collision() -> collide, layer, mask */
static int l_ch_collision(lua_State *L) {
    gait_character_info in = info_of(L, gait__check_character(L, 1));
    lua_pushboolean(L, in.collide);
    lua_pushnumber(L, in.collision_layer);
    lua_pushnumber(L, in.collision_mask);
    return 3;
}

/* ch:pose() -> x, y, z, yaw (blended between the last two steps) */
static int l_ch_pose(lua_State *L) {
    CH(L);
    gait_pose p;
    check_status(L, w, gait_character_pose(w, c->id, &p), "ch:pose()");
    gait__push_xyz(L, p.position);
    lua_pushnumber(L, p.yaw);
    return 4;
}

static int l_ch_id(lua_State *L) {
    gait__chud *c = (gait__chud *)luaL_checkudata(L, 1, GAIT__MT_CHARACTER);
    lua_pushinteger(L, c->id.index1);
    lua_pushnumber(L, c->id.generation);
    return 2;
}

static int l_ch_valid(lua_State *L) {
    gait__chud *c = (gait__chud *)luaL_checkudata(L, 1, GAIT__MT_CHARACTER);
    lua_pushboolean(L, c->box->world && gait_character_valid(c->box->world, c->id));
    return 1;
}

/* ch:world() -> its world's userdata */
static int l_ch_world(lua_State *L) {
    luaL_checkudata(L, 1, GAIT__MT_CHARACTER);
    lua_getfenv(L, 1);
    lua_getfield(L, -1, "self");
    return 1;
}

/* ---- setters ------------------------------------------------------------------------------- */

static int l_ch_set_camera_yaw(lua_State *L) {
    CH(L);
    check_status(L, w, gait_character_set_camera_yaw(w, c->id, gait__check_finite(L, 2)),
                 "ch:set_camera_yaw()");
    return 0;
}

/* ch:set_stamina(value): what is left, clamped to [0, max]; a test's or a cheat's door */
static int l_ch_set_stamina(lua_State *L) {
    CH(L);
    check_status(L, w, gait_character_set_stamina(w, c->id, gait__check_finite(L, 2)),
                 "ch:set_stamina()");
    return 0;
}

static int l_ch_set_stamina_multiplier(lua_State *L) {
    CH(L);
    double m = gait__check_finite(L, 2);
    if (gait_character_set_stamina_multiplier(w, c->id, m) != GAIT_OK)
        return luaL_argerror(L, 2, "multiplier must be in [0, 100]");
    return 0;
}

static int l_ch_face(lua_State *L) {
    CH(L);
    check_status(L, w, gait_character_face(w, c->id, gait__check_finite(L, 2)), "ch:face()");
    return 0;
}

/* ch:place(x, y, z[, yaw]) */
static int l_ch_place(lua_State *L) {
    CH(L);
    gait_vec3 p = {gait__check_finite(L, 2), gait__check_finite(L, 3), gait__check_finite(L, 4)};
    double yaw = lua_isnoneornil(L, 5) ? info_of(L, c).yaw : gait__check_finite(L, 5);
    gait__budget_charge(L, c->box->script, 500);
    check_status(L, w, gait_character_place(w, c->id, p, yaw), "ch:place()");
    return 0;
}

static int l_ch_set_body_type(lua_State *L) {
    CH(L);
    check_status(L, w, gait_character_set_body_type(w, c->id, (gait_body_type)gait__check_body_type(L, 2)),
                 "ch:set_body_type()");
    return 0;
}

static double check_amount(lua_State *L, int arg) {
    double a = luaL_checknumber(L, arg);
    if (!isfinite(a) || a < 0) luaL_argerror(L, arg, "amount must be finite and >= 0");
    return a;
}

/* ch:spend(amount) -> true | nil, message (the pool cannot pay amount x multiplier) */
static int l_ch_spend(lua_State *L) {
    CH(L);
    double a = check_amount(L, 2);
    gait_status st = gait_character_spend(w, c->id, a);
    if (st == GAIT_ERR_CAPACITY) return gait__lua_fail(L, "%s", gait_world_last_error(w));
    check_status(L, w, st, "ch:spend()");
    lua_pushboolean(L, 1);
    return 1;
}

static int l_ch_can_spend(lua_State *L) {
    CH(L);
    double a = check_amount(L, 2);
    bool ok = false;
    check_status(L, w, gait_character_can_spend(w, c->id, a, &ok), "ch:can_spend()");
    lua_pushboolean(L, ok);
    return 1;
}

/* ch:start_action(seconds[, name]): the body holds still for `seconds`, the presses still reach
 * the controller. 0 ends it. */
static int l_ch_start_action(lua_State *L) {
    CH(L);
    double sec = luaL_checknumber(L, 2);
    if (!(sec >= 0 && sec <= 3600)) return luaL_argerror(L, 2, "seconds must be in [0, 3600]");
    check_status(L, w, gait_character_start_action(w, c->id, sec, luaL_optstring(L, 3, NULL)),
                 "ch:start_action()");
    return 0;
}

static const char *const input_keys[] = {"move_x", "move_y", "look_yaw", "look_pitch",
                                         "look_zoom", "held", "pressed"};

/* ch:set_input{move_x, move_y, look_yaw, look_pitch, look_zoom, held = {...}, pressed = {...}} */
static int l_ch_set_input(lua_State *L) {
    CH(L);
    gait_input in;
    memset(&in, 0, sizeof in);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        gait__check_keys(L, 2, input_keys, 7, "input");
        in.move_x = gait__field_number(L, 2, "move_x", 0, "input");
        in.move_y = gait__field_number(L, 2, "move_y", 0, "input");
        in.look_yaw = gait__field_number(L, 2, "look_yaw", 0, "input");
        in.look_pitch = gait__field_number(L, 2, "look_pitch", 0, "input");
        in.look_zoom = gait__field_number(L, 2, "look_zoom", 0, "input");
        lua_getfield(L, 2, "held");
        in.held = gait__check_buttons(L, -1, "input.held");
        lua_getfield(L, 2, "pressed");
        in.pressed = gait__check_buttons(L, -1, "input.pressed");
        lua_pop(L, 2);
    }
    check_status(L, w, gait_character_set_input(w, c->id, &in), "ch:set_input()");
    return 0;
}

/* ch:held_presses() -> {jump = true, ...}: what the next step will read */
static int l_ch_held_presses(lua_State *L) {
    CH(L);
    uint32_t p = 0;
    check_status(L, w, gait_character_held_presses(w, c->id, &p), "ch:held_presses()");
    gait__push_buttons(L, p);
    return 1;
}

/* ch:take_presses("attack", "skill") or ch:take_presses{"attack"}: the step will not read them */
static int l_ch_take_presses(lua_State *L) {
    CH(L);
    uint32_t mask = 0;
    int top = lua_gettop(L);
    for (int i = 2; i <= top; i++) mask |= gait__check_buttons(L, i, "take_presses");
    check_status(L, w, gait_character_take_presses(w, c->id, mask), "ch:take_presses()");
    return 0;
}

/* ---- the gate hook ------------------------------------------------------------------------- */

gait_state gait__gate_trampoline(gait_world *world, gait_character_id id, gait_state from,
                                 gait_state proposed, void *user) {
    gait__wbox *b = (gait__wbox *)user;
    lua_State *L = b->script->L;
    gait_state result = proposed;
    int top, wud = gait__hook_enter(b, world, 8, &top);
    if (!wud) goto out;
    lua_getfenv(L, wud);
    lua_getfield(L, -1, "gate_hooks");
    lua_rawgeti(L, -1, id.index1);
    if (!lua_isfunction(L, -1)) goto out;
    gait__push_character(L, wud, id);
    lua_pushstring(L, gait_state_name(from));
    lua_pushstring(L, gait_state_name(proposed));
    char what[64];
    snprintf(what, sizeof what, "gate hook (character #%d)", (int)id.index1);
    if (gait__hook_pcall(b->script, 3, 1, what) != GAIT_OK) goto out;
    if (lua_type(L, -1) == LUA_TSTRING) {
        int n = gait_state_from_name(lua_tostring(L, -1));
        if (n < 0)
            gait__script_error(b->script, "%s returned \"%s\", not a state name", what, lua_tostring(L, -1));
        else
            result = (gait_state)n;
    } else if (!lua_isnil(L, -1)) {
        gait__script_error(b->script, "%s returned a %s; return a state name, or nil to allow", what,
                           luaL_typename(L, -1));
    }
out:
    lua_settop(L, top);
    return result;
}

/* ch:set_gate_hook(function(ch, from, proposed) return state_or_nil end | nil)
 * Called only when the gates propose a change; return nil or `proposed` to allow, `from` to veto,
 * another state to redirect (it must be an edge from `from`). nil removes the hook: then no Lua
 * runs at all. The hook runs under the instruction budget with the JIT off. */
static int l_ch_set_gate_hook(lua_State *L) {
    CH(L);
    gait__check_hook_arg(L, c->box->script);
    lua_getfenv(L, 1);
    lua_getfield(L, -1, "gate_hooks");
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, c->id.index1);
    check_status(L, w, lua_isnil(L, 2) ? gait_character_set_gate_hook(w, c->id, NULL, NULL)
                                       : gait_character_set_gate_hook(w, c->id, gait__gate_trampoline, c->box),
                 "ch:set_gate_hook()");
    return 0;
}

void gait__clear_hooks(gait_script *s, gait_world *world) {
    (void)s;
    int n = gait_world_max_characters(world);
    for (int i = 1; i <= n; i++) {
        gait_character_id id;
        if (gait_world_character_in_slot(world, i, &id) != GAIT_OK) continue;
        gait_gate_hook gate = NULL;
        gait_traverse_hook traverse = NULL;
        gait_move_hook move = NULL;
        void *user = NULL;
        /* only the hooks this script set: a host's own stay */
        if (gait_character_gate_hook(world, id, &gate, &user) == GAIT_OK && gate == gait__gate_trampoline)
            gait_character_set_gate_hook(world, id, NULL, NULL);
        if (gait_character_traverse_hook(world, id, &traverse, &user) == GAIT_OK &&
            traverse == gait__traverse_trampoline)
            gait_character_set_traverse_hook(world, id, NULL, NULL);
        if (gait_character_move_hook(world, id, &move, &user) == GAIT_OK && move == gait__move_trampoline)
            gait_character_set_move_hook(world, id, NULL, NULL);
    }
}

/* ch:destroy(): the character leaves the world; every userdata naming it goes stale */
static int l_ch_destroy(lua_State *L) {
    CH(L);
    gait__check_unlocked(L, w, "ch:destroy()");
    gait_character_set_gate_hook(w, c->id, NULL, NULL);
    lua_getfenv(L, 1);
    lua_getfield(L, -1, "gate_hooks");
    lua_pushnil(L);
    lua_rawseti(L, -2, c->id.index1);
    gait__kit_forget(L, 1);
    check_status(L, w, gait_character_destroy(w, c->id), "ch:destroy()");
    return 0;
}

static int l_ch_tostring(lua_State *L) {
    gait__chud *c = (gait__chud *)luaL_checkudata(L, 1, GAIT__MT_CHARACTER);
    gait_character_info in;
    if (!c->box->world || gait_character_info_get(c->box->world, c->id, &in) != GAIT_OK)
        lua_pushfstring(L, "gait.character #%d (stale)", c->id.index1);
    else
        lua_pushfstring(L, "gait.character #%d (%s, %f stamina)", c->id.index1,
                        gait_state_name(in.phase.state), in.stamina);
    return 1;
}

static int l_ch_eq(lua_State *L) {
    gait__chud *a = (gait__chud *)luaL_checkudata(L, 1, GAIT__MT_CHARACTER);
    gait__chud *b = (gait__chud *)luaL_checkudata(L, 2, GAIT__MT_CHARACTER);
    lua_pushboolean(L, a->box == b->box && a->id.index1 == b->id.index1 &&
                           a->id.generation == b->id.generation);
    return 1;
}

/* ---- the world's character methods --------------------------------------------------------- */

static const char *const create_keys[] = {"position", "yaw", "body_type", "stamina", "kit",
                                          "collide", "layer", "mask"};
static const char *const stamina_keys[] = {"max", "start", "refill_rate", "refill_delay",
                                           "multiplier"};

/* w:create_character{position = {x, y, z}, yaw = 0, body_type = "medium_female",
 *                    stamina = {max, start, refill_rate, refill_delay, multiplier}, kit = "sword",
 *                    collide = true, layer = 1, mask = 0xffffffff}
 * (alias w:spawn) -> character | nil, message (the pool is full, the kit does not load) */
static int l_world_create_character(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:create_character()");
    gait_script *s = b->script;
    gait_character_def d = gait_default_character_def();
    if (s->tuning.loaded && s->tuning.refill_rate >= 0) {
        d.stamina.refill_rate = s->tuning.refill_rate;
        d.stamina.refill_delay = s->tuning.refill_delay;
    }
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        gait__check_keys(L, 2, create_keys, 8, "character def");
        read_collision(L, 2, &d.collide, &d.collision_layer, &d.collision_mask, "character def");
        lua_getfield(L, 2, "position");
        if (!lua_isnil(L, -1)) d.position = gait__check_vec3(L, -1, "character def.position");
        lua_pop(L, 1);
        d.yaw = gait__field_number(L, 2, "yaw", 0, "character def");
        lua_getfield(L, 2, "body_type");
        if (!lua_isnil(L, -1)) {
            const char *names[GAIT_BODY_TYPE_COUNT];
            for (int i = 0; i < GAIT_BODY_TYPE_COUNT; i++) names[i] = gait_body_type_name((gait_body_type)i);
            d.body_type = (gait_body_type)gait__enum_at(L, lua_gettop(L), names, GAIT_BODY_TYPE_COUNT, "body type");
        }
        lua_pop(L, 1);
        lua_getfield(L, 2, "stamina");
        if (!lua_isnil(L, -1)) {
            int t = lua_gettop(L);
            luaL_checktype(L, t, LUA_TTABLE);
            gait__check_keys(L, t, stamina_keys, 5, "character def.stamina");
            d.stamina.max = gait__field_number(L, t, "max", d.stamina.max, "character def.stamina");
            d.stamina.start = gait__field_number(L, t, "start", d.stamina.max, "character def.stamina");
            d.stamina.refill_rate = gait__field_number(L, t, "refill_rate", d.stamina.refill_rate, "character def.stamina");
            d.stamina.refill_delay = gait__field_number(L, t, "refill_delay", d.stamina.refill_delay, "character def.stamina");
            d.stamina.multiplier = gait__field_number(L, t, "multiplier", d.stamina.multiplier, "character def.stamina");
        }
        lua_pop(L, 1);
    }
    gait__budget_charge(L, s, CHARGE_CREATE);
    gait_character_id id;
    gait_status st = gait_character_create(b->world, &d, &id);
    if (st == GAIT_ERR_CAPACITY || st == GAIT_ERR_OUT_OF_MEMORY)
        return gait__lua_fail(L, "%s", gait_world_last_error(b->world));
    if (st != GAIT_OK) return luaL_argerror(L, 2, gait_world_last_error(b->world));
    gait__present_apply_character(s, b->world, id); /* camera.lua, anim.lua */
    gait__push_character(L, 1, id);
    if (!lua_isnoneornil(L, 2)) {
        lua_getfield(L, 2, "kit");
        if (!lua_isnil(L, -1)) {
            int ch = lua_gettop(L) - 1;
            lua_pushcfunction(L, gait__character_set_kit);
            lua_pushvalue(L, ch);
            lua_pushvalue(L, ch + 1);
            lua_call(L, 2, 2);
            if (lua_isnil(L, -2)) {
                gait_character_destroy(b->world, id);
                return 2;
            }
            lua_pop(L, 2);
        }
        lua_pop(L, 1);
    }
    return 1;
}

/* w:character(index[, generation]) -> the character in that slot (of that generation) | nil */
static int l_world_character(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    lua_Number index = luaL_checknumber(L, 2);
    if (index != floor(index)) return luaL_argerror(L, 2, "a character index is a whole number");
    gait_character_id id = {0, 0};
    if (lua_isnoneornil(L, 3)) { /* the living character in that slot */
        if (!(index >= 1 && index <= gait_world_max_characters(b->world))) return 0;
        if (gait_world_character_in_slot(b->world, (int)index, &id) != GAIT_OK) return 0;
    } else {
        lua_Number g = luaL_checknumber(L, 3);
        if (!(index >= 1 && index <= 2147483647.0 && g >= 0 && g <= 4294967295.0 && g == floor(g)))
            return 0;
        id.index1 = (int32_t)index;
        id.generation = (uint32_t)g;
        if (!gait_character_valid(b->world, id)) return 0;
    }
    gait__push_character(L, 1, id);
    return 1;
}

/* w:characters() -> a list of every living character, by slot */
static int l_world_characters(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    int n = gait_world_max_characters(b->world);
    gait__budget_charge(L, b->script, (int64_t)n * CHARGE_PER_SLOT / 10 + 1);
    lua_createtable(L, gait_world_character_count(b->world), 0);
    int k = 0;
    for (int i = 1; i <= n; i++) {
        gait_character_id id;
        if (gait_world_character_in_slot(b->world, i, &id) != GAIT_OK) continue;
        gait__push_character(L, 1, id);
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

static int l_world_character_count(lua_State *L) {
    lua_pushinteger(L, gait_world_character_count(gait__check_world(L, 1)->world));
    return 1;
}

static int l_world_max_characters(lua_State *L) {
    lua_pushinteger(L, gait_world_max_characters(gait__check_world(L, 1)->world));
    return 1;
}

/* ---- module -------------------------------------------------------------------------------- */

static const luaL_Reg character_methods[] = {
    {"state", l_ch_state},
    {"position", l_ch_position},
    {"velocity", l_ch_velocity},
    {"yaw", l_ch_yaw},
    {"camera_yaw", l_ch_camera_yaw},
    {"set_camera_yaw", l_ch_set_camera_yaw},
    {"stamina", l_ch_stamina},
    {"set_stamina", l_ch_set_stamina},
    {"stamina_multiplier", l_ch_stamina_multiplier},
    {"set_stamina_multiplier", l_ch_set_stamina_multiplier},
    {"face", l_ch_face},
    {"place", l_ch_place},
    {"set_body_type", l_ch_set_body_type},
    {"body_type", l_ch_body_type},
    {"spend", l_ch_spend},
    {"can_spend", l_ch_can_spend},
    {"start_action", l_ch_start_action},
    {"action", l_ch_action},
    {"set_input", l_ch_set_input},
    {"held_presses", l_ch_held_presses},
    {"take_presses", l_ch_take_presses},
    {"contact", l_ch_contact},
    {"pose", l_ch_pose},
    {"info", l_ch_info},
    {"id", l_ch_id},
    {"valid", l_ch_valid},
    {"world", l_ch_world},
    {"set_kit", gait__character_set_kit},
    {"kit", gait__character_kit},
    {"set_gate_hook", l_ch_set_gate_hook},
    {"set_collision", l_ch_set_collision},
    {"collision", l_ch_collision},
    {"destroy", l_ch_destroy},
    {NULL, NULL},
};

static const luaL_Reg world_character_methods[] = {
    {"create_character", l_world_create_character},
    {"spawn", l_world_create_character},
    {"character", l_world_character},
    {"characters", l_world_characters},
    {"character_count", l_world_character_count},
    {"max_characters", l_world_max_characters},
    {NULL, NULL},
};

int gait__open_character(lua_State *L) {
    gait__add_methods(L, GAIT__MT_WORLD, world_character_methods);
    gait__new_class(L, GAIT__MT_CHARACTER, character_methods);
    luaL_getmetatable(L, GAIT__MT_CHARACTER);
    gait__set_function(L, "__tostring", l_ch_tostring);
    gait__set_function(L, "__eq", l_ch_eq);
    lua_pop(L, 1);
    int methods = lua_gettop(L);
    lua_newtable(L);
    lua_pushvalue(L, methods);
    lua_setfield(L, -2, "methods");
    lua_createtable(L, GAIT_STATE_COUNT, 0);
    for (int i = 0; i < GAIT_STATE_COUNT; i++) {
        lua_pushstring(L, gait_state_name((gait_state)i));
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "states");
    lua_createtable(L, GAIT_BODY_TYPE_COUNT, 0);
    for (int i = 0; i < GAIT_BODY_TYPE_COUNT; i++) {
        lua_pushstring(L, gait_body_type_name((gait_body_type)i));
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "body_types");
    lua_remove(L, methods);
    return 1;
}
