/* Lua bindings of kits that move the body (gait/motion.h), on the public C API:
 *
 *   ch:launch{...}  ch:start_move{...}  ch:move_to(target, {...})  ch:end_move()
 *   ch:set_mode{...}  ch:clear_mode([state])  ch:set_cooldown(button, s)  ch:cooldown(button)
 *   ch:motion()  w:add_gadget{...}  w:clear_gadgets()  w:gadgets()
 *
 * Every table is read key by key: an unknown key, a wrong type or a number out of range raises
 * an error naming the key (and, through luaL_error, the calling file and line); the C API's own
 * checks name the field for the rest. An expected refusal (the pool cannot pay, the body is
 * drowning) returns nil, message. Inside a kit's on_presses the verbs move only the kit's own
 * character: a call on another raises. A Lua function of time (start_move{fn = ...}) is the
 * character's move hook: the step calls it once, before the move, under the instruction budget.
 * The world-file reader of gadgets (gait_script_gadget_from_table) is public: the sandbox reads
 * its world files with it too. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <luajit.h>

#include "gait/motion.h"
#include "script_internal.h"

#define ENV_MOVE_HOOKS "move_hooks" /* world env: index1 -> {the Lua function of a move hook, the
                                       character's userdata} */

static const char *const frame_names[] = {"body", "world"};
static const char *const then_names[GAIT_THEN_COUNT] = {"auto", "stop", "glide", "plunge"};
static const char *const arrive_names[GAIT_ARRIVE_COUNT] = {"end", "hang"};
static const char *const end_names[] = {"land", "wall", "ceiling", "stamina", "press"};
#define END_NAMES 5
static const char *const kind_names[GAIT_MOVE_KIND_COUNT] = {"velocity", "keys", "fn", "points",
                                                             "target"};

/* ---- reading tables ------------------------------------------------------------------------- */

#define known_keys gait__check_keys

/* Pushes t[key]: false when it is absent (nil), true when it is of `type`; raises otherwise,
 * naming what.key and `type_name` ("a number"). The caller pops the value. */
static bool typed_at(lua_State *L, int t, const char *key, int type, const char *type_name,
                     const char *what) {
    lua_getfield(L, t, key);
    if (lua_isnil(L, -1)) return false;
    if (lua_type(L, -1) != type)
        luaL_error(L, "%s.%s must be %s, not a %s", what, key, type_name, luaL_typename(L, -1));
    return true;
}

/* t[key] as a finite number within [lo, hi], or def when absent. */
static double number_at(lua_State *L, int t, const char *key, double def, double lo, double hi,
                        const char *what) {
    double v = def;
    if (typed_at(L, t, key, LUA_TNUMBER, "a number", what)) {
        v = lua_tonumber(L, -1);
        if (!(v >= lo && v <= hi)) luaL_error(L, "%s.%s = %f is not in [%g, %g]", what, key, v, lo, hi);
    }
    lua_pop(L, 1);
    return v;
}

static bool bool_at(lua_State *L, int t, const char *key, bool def, const char *what) {
    bool v = def;
    if (typed_at(L, t, key, LUA_TBOOLEAN, "a boolean", what)) v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* t[key] as a string (pushed, so it stays alive while the caller uses it) or NULL; leaves one
 * value on the stack either way. */
static const char *string_at(lua_State *L, int t, const char *key, const char *what) {
    return typed_at(L, t, key, LUA_TSTRING, "a string", what) ? lua_tostring(L, -1) : NULL;
}

/* An enum name at t[key] (def when absent). */
static int name_at(lua_State *L, int t, const char *key, const char *const *names, int count,
                   int def, const char *what) {
    int v = def;
    if (typed_at(L, t, key, LUA_TSTRING, "a string", what)) {
        const char *s = lua_tostring(L, -1);
        v = -1;
        for (int i = 0; i < count; i++)
            if (strcmp(s, names[i]) == 0) v = i;
        if (v < 0) {
            gait__push_name_list(L, names, count);
            luaL_error(L, "%s.%s \"%s\" is not one of: %s", what, key, s, lua_tostring(L, -1));
        }
    }
    lua_pop(L, 1);
    return v;
}

static bool has(lua_State *L, int t, const char *key) {
    lua_getfield(L, t, key);
    bool h = !lua_isnil(L, -1);
    lua_pop(L, 1);
    return h;
}

static int state_arg(lua_State *L, int idx, const char *what) {
    const char *s = luaL_checkstring(L, idx);
    int st = gait_state_from_name(s);
    if (st < 0) luaL_error(L, "%s: \"%s\" is not a state name", what, s);
    return st;
}

/* One button's bit from a name. */
static uint32_t button_arg(lua_State *L, int idx, const char *what) {
    if (lua_type(L, idx) != LUA_TSTRING)
        luaL_error(L, "%s: a button name, not a %s", what, luaL_typename(L, idx));
    return gait__check_buttons(L, idx, what);
}

/* ---- the character and its kit -------------------------------------------------------------- */

/* The character at index 1, checked; inside a kit's on_presses, only the kit's own. */
static gait__chud *own_character(lua_State *L, const char *verb) {
    gait__chud *c = gait__check_character(L, 1);
    gait_script *s = c->box->script;
    if (s->call_world && (s->call_world != c->box->world || s->call_character != c->id.index1))
        luaL_error(L, "%s: a kit moves only its own character (#%d), not #%d", verb,
                   s->call_character, (int)c->id.index1);
    return c;
}

/* A C status from a verb: OK -> true; a refusal -> nil, message; misuse -> an error. */
static int verb_result(lua_State *L, gait__chud *c, gait_status st, const char *verb) {
    if (st == GAIT_OK) {
        lua_pushboolean(L, 1);
        return 1;
    }
    const char *msg = gait_world_last_error(c->box->world);
    if (st == GAIT_ERR_CAPACITY) {
        lua_pushnil(L);
        lua_pushstring(L, msg);
        return 2;
    }
    return luaL_error(L, "%s: %s", verb, msg);
}

/* A drowning body refuses kit motion: nil, message (a kit need not check the state first). */
static bool drowning(lua_State *L, gait__chud *c) {
    gait_phase ph;
    if (gait_character_phase(c->box->world, c->id, &ph) != GAIT_OK || ph.state != GAIT_STATE_DROWN)
        return false;
    lua_pushnil(L);
    lua_pushliteral(L, "a drowning body cannot be moved by a kit");
    return true;
}

/* {x, y, z} in the given frame, or up / forward / right (body frame) into *v; returns whether
 * either was given. */
static bool velocity_keys(lua_State *L, int t, gait_frame *frame, gait_vec3 *v, const char *what) {
    bool vec = has(L, t, "velocity");
    bool parts = has(L, t, "up") || has(L, t, "forward") || has(L, t, "right");
    if (vec && parts) luaL_error(L, "%s: give velocity or up/forward/right, not both", what);
    if (vec) {
        lua_getfield(L, t, "velocity");
        char w[64];
        snprintf(w, sizeof w, "%s.velocity", what);
        *v = gait__check_vec3(L, -1, w);
        lua_pop(L, 1);
    } else if (parts) {
        if (*frame == GAIT_FRAME_WORLD)
            luaL_error(L, "%s: up/forward/right are in the body frame, not with frame = \"world\"", what);
        v->x = number_at(L, t, "right", 0, -GAIT_MOTION_MAX_SPEED, GAIT_MOTION_MAX_SPEED, what);
        v->y = number_at(L, t, "up", 0, -GAIT_MOTION_MAX_SPEED, GAIT_MOTION_MAX_SPEED, what);
        v->z = number_at(L, t, "forward", 0, -GAIT_MOTION_MAX_SPEED, GAIT_MOTION_MAX_SPEED, what);
    }
    return vec || parts;
}

/* The frame a table's velocities are in when it names none: the body's when it uses up /
 * forward / right (here or in its keys), else the world's (a velocity {x, y, z}, keys {t, x, y,
 * z}, a function's x, y, z). */
static int default_frame(lua_State *L, int t) {
    if (has(L, t, "up") || has(L, t, "forward") || has(L, t, "right")) return GAIT_FRAME_BODY;
    lua_getfield(L, t, "keys");
    bool body = false;
    if (lua_istable(L, -1)) {
        int n = (int)lua_objlen(L, -1);
        for (int i = 1; i <= n && !body; i++) {
            lua_rawgeti(L, -1, i);
            if (lua_istable(L, -1))
                body = has(L, lua_gettop(L), "up") || has(L, lua_gettop(L), "forward") ||
                       has(L, lua_gettop(L), "right");
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    return body ? GAIT_FRAME_BODY : GAIT_FRAME_WORLD;
}

/* ---- ch:launch{up, forward, right | velocity, frame, add} ------------------------------------ */

static const char *const launch_keys[] = {"up", "forward", "right", "velocity", "frame", "add"};

static int l_launch(lua_State *L) {
    gait__chud *c = own_character(L, "launch");
    luaL_checktype(L, 2, LUA_TTABLE);
    known_keys(L, 2, launch_keys, 6, "launch");
    gait_launch_def d;
    memset(&d, 0, sizeof d);
    d.frame = (gait_frame)name_at(L, 2, "frame", frame_names, 2, default_frame(L, 2), "launch");
    if (!velocity_keys(L, 2, &d.frame, &d.velocity, "launch"))
        luaL_error(L, "launch: give velocity = {x, y, z} or up/forward/right (m/s)");
    d.add = bool_at(L, 2, "add", false, "launch");
    if (drowning(L, c)) return 2;
    return verb_result(L, c, gait_character_launch(c->box->world, c->id, &d), "launch");
}

/* ---- ch:start_move{...} ---------------------------------------------------------------------- */

static const char *const move_keys[] = {
    "name", "clip", "fade_seconds", "frame", "seconds", "velocity", "up", "forward", "right",
    "keys", "fn", "points", "target", "offset", "speed", "arrive_distance", "horizontal",
    "arrive", "hang_seconds", "gravity_scale", "start_cost", "drain_per_s", "end_on",
    "cancel_buttons", "then",
};
#define MOVE_KEYS ((int)(sizeof move_keys / sizeof move_keys[0]))

static uint32_t end_bits(lua_State *L, int t, const char *what) {
    lua_getfield(L, t, "end_on");
    uint32_t bits = 0;
    int e = lua_gettop(L);
    if (lua_isnil(L, e)) {
        lua_pop(L, 1);
        return 0;
    }
    if (lua_type(L, e) == LUA_TSTRING) {
        lua_createtable(L, 1, 0);
        lua_pushvalue(L, e);
        lua_rawseti(L, -2, 1);
        lua_replace(L, e);
    }
    if (!lua_istable(L, e)) luaL_error(L, "%s.end_on must be a list of names, not a %s", what, luaL_typename(L, e));
    int n = (int)lua_objlen(L, e);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, e, i);
        const char *s = lua_tostring(L, -1);
        int k = -1;
        for (int j = 0; s && lua_type(L, -1) == LUA_TSTRING && j < END_NAMES; j++)
            if (strcmp(s, end_names[j]) == 0) k = j;
        if (k < 0)
            luaL_error(L, "%s.end_on[%d] is not one of: land, wall, ceiling, stamina, press", what, i);
        bits |= 1u << k;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return bits;
}

/* The keys {{t, x, y, z}, ...} or {{t = , velocity = {x, y, z} | up = , forward = , right = }}. */
static void read_keys(lua_State *L, int t, gait_move_def *d, const char *what) {
    lua_getfield(L, t, "keys");
    int k = lua_gettop(L);
    if (!lua_istable(L, k)) luaL_error(L, "%s.keys must be a list of keys, not a %s", what, luaL_typename(L, k));
    int n = (int)lua_objlen(L, k);
    if (n < 1 || n > GAIT_MOVE_MAX_KEYS) luaL_error(L, "%s.keys has %d keys, 1..%d allowed", what, n, GAIT_MOVE_MAX_KEYS);
    d->key_count = n;
    static const char *const key_keys[] = {"t", "velocity", "up", "forward", "right"};
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, k, i);
        int e = lua_gettop(L);
        char w[64];
        snprintf(w, sizeof w, "%s.keys[%d]", what, i);
        if (!lua_istable(L, e)) luaL_error(L, "%s must be a table, not a %s", w, luaL_typename(L, e));
        gait_move_key *key = &d->keys[i - 1];
        lua_rawgeti(L, e, 1);
        bool positional = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (positional) {
            double v[4];
            for (int j = 0; j < 4; j++) {
                lua_rawgeti(L, e, j + 1);
                if (lua_type(L, -1) != LUA_TNUMBER)
                    luaL_error(L, "%s must be {t, x, y, z} (numbers), [%d] is a %s", w, j + 1, luaL_typename(L, -1));
                v[j] = lua_tonumber(L, -1);
                lua_pop(L, 1);
            }
            key->t = v[0];
            key->velocity = (gait_vec3){v[1], v[2], v[3]};
        } else {
            known_keys(L, e, key_keys, 5, w);
            key->t = number_at(L, e, "t", NAN, 0, GAIT_MOTION_MAX_SECONDS, w);
            if (isnan(key->t)) luaL_error(L, "%s.t is missing (s from the start)", w);
            if (!velocity_keys(L, e, &d->frame, &key->velocity, w))
                luaL_error(L, "%s needs velocity or up/forward/right", w);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static int read_points(lua_State *L, int idx, gait_vec3 *out, const char *what) {
    if (!lua_istable(L, idx)) luaL_error(L, "%s must be a point {x, y, z} or a list of them", what);
    lua_rawgeti(L, idx, 1);
    bool list = lua_istable(L, -1);
    lua_pop(L, 1);
    if (!list) {
        out[0] = gait__check_vec3(L, idx, what);
        return 1;
    }
    int n = (int)lua_objlen(L, idx);
    if (n > GAIT_MOVE_MAX_POINTS) luaL_error(L, "%s has %d points, at most %d", what, n, GAIT_MOVE_MAX_POINTS);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
        char w[64];
        snprintf(w, sizeof w, "%s[%d]", what, i);
        out[i - 1] = gait__check_vec3(L, -1, w);
        lua_pop(L, 1);
    }
    return n;
}

/* Reads a move def from the table at t (`target` may be the index of a character argument). */
static void read_move(lua_State *L, int t, gait__chud *self, gait_move_def *d, bool *has_fn,
                      const char *what) {
    known_keys(L, t, move_keys, MOVE_KEYS, what);
    *d = gait_default_move_def();
    *has_fn = false;
    d->frame = (gait_frame)name_at(L, t, "frame", frame_names, 2, default_frame(L, t), what);
    int top = lua_gettop(L);
    d->name = string_at(L, t, "name", what);
    d->clip = string_at(L, t, "clip", what);
    /* (the two strings stay on the stack until the call) */
    d->fade_seconds = number_at(L, t, "fade_seconds", 0, 0, 10, what);
    d->seconds = number_at(L, t, "seconds", d->seconds, 1e-6, GAIT_MOTION_MAX_SECONDS, what);
    int kinds = 0;
    if (velocity_keys(L, t, &d->frame, &d->velocity, what)) {
        d->kind = GAIT_MOVE_VELOCITY;
        kinds++;
    }
    if (has(L, t, "keys")) {
        read_keys(L, t, d, what);
        d->kind = GAIT_MOVE_KEYS;
        kinds++;
    }
    if (has(L, t, "fn")) {
        lua_getfield(L, t, "fn");
        if (!lua_isfunction(L, -1)) luaL_error(L, "%s.fn must be a function(ch, t), not a %s", what, luaL_typename(L, -1));
        lua_pop(L, 1);
        d->kind = GAIT_MOVE_HOOK;
        *has_fn = true;
        kinds++;
    }
    if (has(L, t, "points")) {
        lua_getfield(L, t, "points");
        char w[64];
        snprintf(w, sizeof w, "%s.points", what);
        d->point_count = read_points(L, lua_gettop(L), d->points, w);
        lua_pop(L, 1);
        d->kind = GAIT_MOVE_TO_POINTS;
        kinds++;
    }
    if (has(L, t, "target")) {
        lua_getfield(L, t, "target");
        gait__chud *o = (gait__chud *)luaL_testudata(L, -1, GAIT__MT_CHARACTER);
        if (!o) luaL_error(L, "%s.target must be a character, not a %s", what, luaL_typename(L, -1));
        if (o->box != self->box) luaL_error(L, "%s.target is a character of another world", what);
        d->target = o->id;
        lua_pop(L, 1);
        d->kind = GAIT_MOVE_TO_CHARACTER;
        kinds++;
    }
    if (kinds != 1)
        luaL_error(L, "%s: give exactly one of velocity (or up/forward/right), keys, fn, points, "
                      "target (%d given)", what, kinds);
    if (has(L, t, "offset")) {
        lua_getfield(L, t, "offset");
        char w[64];
        snprintf(w, sizeof w, "%s.offset", what);
        d->offset = gait__check_vec3(L, -1, w);
        lua_pop(L, 1);
    }
    d->speed = number_at(L, t, "speed", d->speed, 1e-6, GAIT_MOTION_MAX_SPEED, what);
    d->arrive_distance = number_at(L, t, "arrive_distance", d->arrive_distance, 0, 100, what);
    d->horizontal = bool_at(L, t, "horizontal", false, what);
    d->arrive = (gait_arrive)name_at(L, t, "arrive", arrive_names, GAIT_ARRIVE_COUNT, GAIT_ARRIVE_END, what);
    d->hang_seconds = number_at(L, t, "hang_seconds", 0, 0, GAIT_MOTION_MAX_SECONDS, what);
    d->gravity_scale = number_at(L, t, "gravity_scale", 0, 0, 10, what);
    d->start_cost = number_at(L, t, "start_cost", 0, 0, 1e6, what);
    d->drain_per_s = number_at(L, t, "drain_per_s", 0, 0, 1e6, what);
    d->end_on = end_bits(L, t, what);
    lua_getfield(L, t, "cancel_buttons");
    char w[64];
    snprintf(w, sizeof w, "%s.cancel_buttons", what);
    d->cancel_buttons = gait__check_buttons(L, -1, w);
    lua_pop(L, 1);
    if (d->cancel_buttons) d->end_on |= GAIT_END_PRESS; /* naming the buttons asks for it */
    d->then = (gait_move_then)name_at(L, t, "then", then_names, GAIT_THEN_COUNT, GAIT_THEN_AUTO, what);
    if ((d->kind != GAIT_MOVE_TO_POINTS && d->kind != GAIT_MOVE_TO_CHARACTER) &&
        (has(L, t, "speed") || has(L, t, "arrive_distance") || has(L, t, "arrive") ||
         has(L, t, "hang_seconds") || has(L, t, "horizontal") || has(L, t, "offset")))
        luaL_error(L, "%s: speed, arrive_distance, arrive, hang_seconds, horizontal and offset are "
                      "for a move toward points or a target", what);
    (void)top;
}

/* The Lua function of a move hook, called by the step (gait_move_hook). */
bool gait__move_trampoline(gait_world *world, gait_character_id id, double t, gait_vec3 *velocity,
                           void *user) {
    gait__wbox *b = (gait__wbox *)user;
    gait_script *s = b->script;
    lua_State *L = s->L;
    int top = lua_gettop(L);
    bool ok = false;
    int wud = gait__push_box_world(L, b, world);
    if (!wud) goto out;
    lua_getfenv(L, wud);
    lua_getfield(L, -1, ENV_MOVE_HOOKS);
    if (!lua_istable(L, -1)) goto out;
    lua_rawgeti(L, -1, id.index1);
    if (!lua_istable(L, -1)) goto out;
    int entry = lua_gettop(L);
    lua_rawgeti(L, entry, 1); /* the function */
    if (!lua_isfunction(L, -1)) goto out;
    lua_rawgeti(L, entry, 2); /* the character's userdata, made once (no garbage a step) */
    lua_pushnumber(L, t);
    /* (a fixed label: formatting one a step would cost more than the call) */
    const char *what = "a moving action's fn";
    if (gait__hook_pcall(s, 2, 3, what) != GAIT_OK) goto out; /* the world locked, as for a gate hook */
    double v[3];
    for (int i = 0; i < 3; i++) {
        if (lua_type(L, -3 + i) != LUA_TNUMBER) {
            if (i == 0 && lua_isnil(L, -3)) goto out; /* nil: the action is over */
            gait__script_error(s, "%s: return three numbers (m/s) or nil to end; value %d is a %s",
                               what, i + 1, luaL_typename(L, -3 + i));
            goto out;
        }
        v[i] = lua_tonumber(L, -3 + i);
    }
    *velocity = (gait_vec3){v[0], v[1], v[2]};
    ok = true;
out:
    lua_settop(L, top);
    return ok;
}

static void set_move_fn(lua_State *L, gait__chud *c, int fn_idx) {
    /* as a gate hook: an untrusted kit's function runs as untrusted code, with the JIT off so the
     * budget can stop it */
    if (gait__untrusted(L, c->box->script)) gait__sandbox_wrap(L, fn_idx);
    if (!lua_iscfunction(L, fn_idx)) luaJIT_setmode(L, fn_idx, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
    lua_getfenv(L, 1);
    lua_getfield(L, -1, ENV_MOVE_HOOKS);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, ENV_MOVE_HOOKS);
    }
    lua_createtable(L, 2, 0); /* {fn, character} */
    lua_pushvalue(L, fn_idx);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, c->id.index1);
    lua_pop(L, 1);
    lua_pop(L, 1);
    gait_character_set_move_hook(c->box->world, c->id, gait__move_trampoline, c->box);
}

static int start_move_from(lua_State *L, gait__chud *c, int t, const char *what) {
    gait_move_def d;
    bool has_fn;
    read_move(L, t, c, &d, &has_fn, what);
    if (drowning(L, c)) return 2;
    if (has_fn) {
        lua_getfield(L, t, "fn");
        set_move_fn(L, c, lua_gettop(L));
        lua_pop(L, 1);
    }
    return verb_result(L, c, gait_character_start_move(c->box->world, c->id, &d), what);
}

static int l_start_move(lua_State *L) {
    gait__chud *c = own_character(L, "start_move");
    luaL_checktype(L, 2, LUA_TTABLE);
    return start_move_from(L, c, 2, "start_move");
}

/* ch:move_to(point | {points} | character[, {options}]): start_move with points or target. */
static int l_move_to(lua_State *L) {
    gait__chud *c = own_character(L, "move_to");
    if (lua_isnoneornil(L, 2)) luaL_error(L, "move_to: a point {x, y, z}, a list of points or a character");
    lua_settop(L, 3);
    lua_newtable(L);
    int t = lua_gettop(L);
    if (!lua_isnil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        lua_pushnil(L);
        while (lua_next(L, 3)) {
            if (lua_type(L, -2) == LUA_TSTRING &&
                (!strcmp(lua_tostring(L, -2), "points") || !strcmp(lua_tostring(L, -2), "target")))
                luaL_error(L, "move_to: the options do not take %s (it is the first argument)", lua_tostring(L, -2));
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, t);
        }
    }
    lua_pushvalue(L, 2);
    lua_setfield(L, t, luaL_testudata(L, 2, GAIT__MT_CHARACTER) ? "target" : "points");
    return start_move_from(L, c, t, "move_to");
}

static int l_end_move(lua_State *L) {
    gait__chud *c = own_character(L, "end_move");
    gait_character_end_move(c->box->world, c->id);
    return 0;
}

/* ---- modes ------------------------------------------------------------------------------------ */

static const char *const mode_keys[] = {"state", "name", "clip", "seconds", "speed", "sink",
                                        "start_cost", "drain_per_s", "flat_cost", "walk_on_water",
                                        "end_when_empty"};

static int l_set_mode(lua_State *L) {
    gait__chud *c = own_character(L, "set_mode");
    luaL_checktype(L, 2, LUA_TTABLE);
    known_keys(L, 2, mode_keys, 11, "set_mode");
    gait_mode_def d = gait_default_mode_def();
    lua_getfield(L, 2, "state");
    if (lua_isnil(L, -1)) luaL_error(L, "set_mode: state is missing (the state whose rules it replaces)");
    d.state = (gait_state)state_arg(L, lua_gettop(L), "set_mode.state");
    lua_pop(L, 1);
    d.name = string_at(L, 2, "name", "set_mode");
    d.clip = string_at(L, 2, "clip", "set_mode");
    d.seconds = number_at(L, 2, "seconds", 0, 0, GAIT_MOTION_MAX_SECONDS, "set_mode");
    d.speed = number_at(L, 2, "speed", 0, 0, GAIT_MOTION_MAX_SPEED, "set_mode");
    d.sink = number_at(L, 2, "sink", 0, 0, 100, "set_mode");
    d.start_cost = number_at(L, 2, "start_cost", 0, 0, 1e6, "set_mode");
    d.drain_per_s = number_at(L, 2, "drain_per_s", 0, 0, 1e6, "set_mode");
    d.flat_cost = bool_at(L, 2, "flat_cost", false, "set_mode");
    d.walk_on_water = bool_at(L, 2, "walk_on_water", false, "set_mode");
    d.end_when_empty = bool_at(L, 2, "end_when_empty", false, "set_mode");
    return verb_result(L, c, gait_character_set_mode(c->box->world, c->id, &d), "set_mode");
}

static int l_clear_mode(lua_State *L) {
    gait__chud *c = own_character(L, "clear_mode");
    gait_state s = lua_isnoneornil(L, 2) ? GAIT_STATE_COUNT : (gait_state)state_arg(L, 2, "clear_mode");
    gait_character_clear_mode(c->box->world, c->id, s);
    return 0;
}

/* ---- cooldowns ---------------------------------------------------------------------------------- */

static int l_set_cooldown(lua_State *L) {
    gait__chud *c = own_character(L, "set_cooldown");
    uint32_t b = button_arg(L, 2, "set_cooldown");
    double s = luaL_checknumber(L, 3);
    if (!(s >= 0 && s <= GAIT_MOTION_MAX_SECONDS))
        luaL_error(L, "set_cooldown: seconds %f is not in [0, %g]", s, GAIT_MOTION_MAX_SECONDS);
    gait_character_set_cooldown(c->box->world, c->id, b, s);
    return 0;
}

static int l_cooldown(lua_State *L) {
    gait__chud *c = gait__check_character(L, 1);
    uint32_t b = button_arg(L, 2, "cooldown");
    double s = 0;
    gait_character_cooldown(c->box->world, c->id, b, &s);
    lua_pushnumber(L, s);
    return 1;
}

/* ---- ch:motion() -------------------------------------------------------------------------------- */

static int l_motion(lua_State *L) {
    gait__chud *c = gait__check_character(L, 1);
    gait_motion_info mi;
    gait_character_motion_info(c->box->world, c->id, &mi);
    lua_createtable(L, 0, 12);
    gait__set_bool(L, "requested", mi.requested);
    gait__set_bool(L, "playing", mi.playing);
    if (mi.playing || mi.requested) {
        gait__set_string(L, "name", mi.name);
        gait__set_string(L, "kind", kind_names[mi.kind]);
    }
    gait__set_number(L, "seconds", mi.seconds);
    gait__set_number(L, "seconds_left", mi.seconds_left);
    gait__set_vec3(L, "velocity", mi.velocity);
    gait__set_number(L, "point", mi.point + 1);
    gait__set_bool(L, "hanging", mi.hanging);
    if (mi.gadget >= 0) gait__set_number(L, "gadget", mi.gadget + 1);
    lua_createtable(L, mi.mode_count, 0);
    for (int i = 0; i < mi.mode_count; i++) {
        const gait_mode_def *m = &mi.modes[i];
        lua_createtable(L, 0, 10);
        gait__set_string(L, "state", gait_state_name(m->state));
        gait__set_string(L, "name", m->name);
        gait__set_string(L, "clip", m->clip);
        gait__set_number(L, "seconds_left", mi.mode_seconds_left[i]);
        gait__set_number(L, "speed", m->speed);
        gait__set_number(L, "sink", m->sink);
        gait__set_number(L, "start_cost", m->start_cost);
        gait__set_number(L, "drain_per_s", m->drain_per_s);
        gait__set_bool(L, "flat_cost", m->flat_cost);
        gait__set_bool(L, "walk_on_water", m->walk_on_water);
        gait__set_bool(L, "end_when_empty", m->end_when_empty);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "modes");
    return 1;
}

/* ---- gadgets ------------------------------------------------------------------------------------ */

static const char *const gadget_keys[] = {"kind", "name", "position", "radius", "height", "speed",
                                          "points", "button", "on_ground"};
#define GADGET_KEYS 9

/* A protected reader: the table at index 1 into the def at upvalue-free light userdata 2. */
typedef struct gadget_read {
    gait_gadget_def *def;
    bool *on_ground;
    char name[GAIT_MOTION_NAME_MAX];
} gadget_read;

static int read_gadget(lua_State *L) {
    gadget_read *r = (gadget_read *)lua_touserdata(L, 2);
    const char *what = "gadget";
    luaL_checktype(L, 1, LUA_TTABLE);
    known_keys(L, 1, gadget_keys, GADGET_KEYS, what);
    lua_getfield(L, 1, "kind");
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "gadget.kind must be one of: updraft, wind, grapple, bounce");
    int k = gait_gadget_kind_from_name(lua_tostring(L, -1));
    if (k < 0) luaL_error(L, "gadget.kind \"%s\" is not one of: updraft, wind, grapple, bounce", lua_tostring(L, -1));
    lua_pop(L, 1);
    gait_gadget_def d = gait_default_gadget_def((gait_gadget_kind)k);
    const char *name = string_at(L, 1, "name", what);
    if (name && strlen(name) >= sizeof r->name)
        luaL_error(L, "gadget.name is longer than %d bytes", (int)sizeof r->name - 1);
    snprintf(r->name, sizeof r->name, "%s", name ? name : gait_gadget_kind_name((gait_gadget_kind)k));
    lua_pop(L, 1);
    if (k == GAIT_GADGET_WIND) {
        if (has(L, 1, "position")) luaL_error(L, "gadget.position: a wind has points, not a position");
        lua_getfield(L, 1, "points");
        if (!lua_istable(L, -1)) luaL_error(L, "gadget.points: a wind needs a list of 2..%d points", GAIT_MOVE_MAX_POINTS);
        d.point_count = read_points(L, lua_gettop(L), d.points, "gadget.points");
        lua_pop(L, 1);
    } else {
        if (has(L, 1, "points")) luaL_error(L, "gadget.points: only a wind has points");
        lua_getfield(L, 1, "position");
        if (lua_isnil(L, -1)) luaL_error(L, "gadget.position {x, y, z} is missing");
        d.position = gait__check_vec3(L, -1, "gadget.position");
        lua_pop(L, 1);
    }
    d.radius = number_at(L, 1, "radius", d.radius, 1e-3, 1000, what);
    d.height = number_at(L, 1, "height", d.height, 1e-3, 1000, what);
    d.speed = number_at(L, 1, "speed", d.speed, 1e-3, GAIT_MOTION_MAX_SPEED, what);
    if (has(L, 1, "button")) {
        if (k != GAIT_GADGET_GRAPPLE) luaL_error(L, "gadget.button: only a grapple point has one");
        lua_getfield(L, 1, "button");
        d.button = button_arg(L, lua_gettop(L), "gadget.button");
        lua_pop(L, 1);
    }
    *r->on_ground = bool_at(L, 1, "on_ground", false, what);
    d.name = NULL;
    *r->def = d;
    return 0;
}

gait_status gait_script_gadget_from_table(struct lua_State *L, int index, gait_gadget_def *out,
                                          char name[32], bool *on_ground, char *err, size_t cap) {
    if (!L || !out || !name || !on_ground) return GAIT_ERR_INVALID_ARGUMENT;
    index = index < 0 ? lua_gettop(L) + index + 1 : index;
    gadget_read r;
    memset(&r, 0, sizeof r);
    r.def = out;
    r.on_ground = on_ground;
    lua_pushcfunction(L, read_gadget);
    lua_pushvalue(L, index);
    lua_pushlightuserdata(L, &r);
    if (lua_pcall(L, 2, 0, 0) != 0) {
        if (err && cap) snprintf(err, cap, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "gadget: error");
        lua_pop(L, 1);
        return GAIT_ERR_FORMAT;
    }
    memcpy(name, r.name, GAIT_MOTION_NAME_MAX);
    out->name = name;
    return GAIT_OK;
}

/* w:add_gadget{kind, position | points, radius, height, speed, button, name, on_ground}
 *   -> its index (1-based) | nil, message */
static int l_add_gadget(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:add_gadget()");
    luaL_checktype(L, 2, LUA_TTABLE);
    gait_gadget_def d;
    char name[GAIT_MOTION_NAME_MAX];
    bool on_ground = false;
    char err[256];
    lua_settop(L, 2);
    if (gait_script_gadget_from_table(L, 2, &d, name, &on_ground, err, sizeof err) != GAIT_OK) {
        /* the reader's message (its own position dropped): raise at the caller's line */
        const char *m = strstr(err, "gadget");
        return luaL_error(L, "%s", m ? m : err);
    }
    if (on_ground) { /* heights above the terrain where it stands */
        double h;
        gait_vec3 n;
        const gait_collider *col = gait_world_collider_const(b->world);
        if (d.kind == GAIT_GADGET_WIND) {
            for (int i = 0; i < d.point_count; i++)
                if (gait_terrain_sample(col, d.points[i].x, d.points[i].z, &h, &n)) d.points[i].y += h;
        } else if (gait_terrain_sample(col, d.position.x, d.position.z, &h, &n)) {
            d.position.y += h;
        }
    }
    int index = 0;
    gait_status st = gait_world_add_gadget(b->world, &d, &index);
    if (st == GAIT_ERR_INVALID_ARGUMENT) return luaL_error(L, "%s", gait_world_last_error(b->world));
    if (st != GAIT_OK) { /* the world is full, or memory ran out */
        lua_pushnil(L);
        lua_pushstring(L, gait_world_last_error(b->world));
        return 2;
    }
    lua_pushinteger(L, index + 1);
    return 1;
}

static int l_clear_gadgets(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:clear_gadgets()");
    gait_world_clear_gadgets(b->world);
    return 0;
}

static int l_gadgets(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    int n = gait_world_gadget_count(b->world);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        gait_gadget_def d;
        gait_world_gadget(b->world, i, &d);
        lua_createtable(L, 0, 8);
        gait__set_string(L, "kind", gait_gadget_kind_name(d.kind));
        gait__set_string(L, "name", d.name);
        if (d.kind == GAIT_GADGET_WIND) {
            lua_createtable(L, d.point_count, 0);
            for (int k = 0; k < d.point_count; k++) {
                gait__push_vec3(L, d.points[k]);
                lua_rawseti(L, -2, k + 1);
            }
            lua_setfield(L, -2, "points");
        } else {
            gait__set_vec3(L, "position", d.position);
        }
        gait__set_number(L, "radius", d.radius);
        gait__set_number(L, "height", d.height);
        gait__set_number(L, "speed", d.speed);
        if (d.kind == GAIT_GADGET_GRAPPLE) {
            gait__push_buttons(L, d.button);
            lua_setfield(L, -2, "button");
        }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* ---- registration ------------------------------------------------------------------------------- */

void gait__motion_register(lua_State *L) {
    static const luaL_Reg character[] = {
        {"launch", l_launch},         {"start_move", l_start_move}, {"move_to", l_move_to},
        {"end_move", l_end_move},     {"set_mode", l_set_mode},     {"clear_mode", l_clear_mode},
        {"set_cooldown", l_set_cooldown}, {"cooldown", l_cooldown}, {"motion", l_motion},
        {NULL, NULL},
    };
    static const luaL_Reg world[] = {
        {"add_gadget", l_add_gadget}, {"clear_gadgets", l_clear_gadgets}, {"gadgets", l_gadgets},
        {NULL, NULL},
    };
    gait__add_methods(L, GAIT__MT_CHARACTER, character);
    gait__add_methods(L, GAIT__MT_WORLD, world);
}

void gait__motion_kit_fresh(gait_world *world, gait_character_id id) {
    gait_character_clear_mode(world, id, GAIT_STATE_COUNT);
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++) gait_character_set_cooldown(world, id, 1u << i, 0);
}

