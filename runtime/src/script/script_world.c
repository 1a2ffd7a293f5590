/* Lua bindings: gait.world, gait.character, gait.input, landmarks, presses, kits, gate hooks.
 *
 * Style (as the Lua C API and LÖVE do it): userdata with a metatable (__index method table,
 * __gc, __tostring), checked with luaL_checkudata; string enums whose error lists the valid
 * names; misuse raises (luaL_argerror); an expected failure (a full pool, a stamina refusal, a
 * file that does not load) returns nil, message.
 *
 * A character's userdata is a value (world box + id): several may name one character. It shares
 * its world's environment table, whose `self` field keeps the world userdata alive while any of
 * its characters is reachable. A stale id raises a clear error, never touches freed memory. */
#include "script_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define REG_BOXES "gait.boxes" /* weak-valued: light userdata box -> world userdata */

static const char *const button_names[GAIT_BUTTON_COUNT] = {
    "jump", "sprint", "drop", "attack", "skill", "burst", "walk", "crouch",
};

/* ---- shared helpers ------------------------------------------------------------------------ */

static void push_name_list(lua_State *L, const char *const *names, int count) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; i < count; i++) {
        if (!names[i]) continue;
        if (i) luaL_addstring(&b, ", ");
        luaL_addchar(&b, '"');
        luaL_addstring(&b, names[i]);
        luaL_addchar(&b, '"');
    }
    luaL_pushresult(&b);
}

int gait__check_enum(lua_State *L, int arg, const char *const *names, int count, const char *what) {
    const char *s = luaL_checkstring(L, arg);
    for (int i = 0; i < count; i++)
        if (names[i] && strcmp(s, names[i]) == 0) return i;
    push_name_list(L, names, count);
    return luaL_argerror(L, arg, lua_pushfstring(L, "%s \"%s\" is not one of: %s", what, s,
                                                 lua_tostring(L, -1)));
}

/* a name at the top of the stack -> its index, or an error naming `what` */
static int enum_at(lua_State *L, int idx, const char *const *names, int count, const char *what) {
    if (lua_type(L, idx) != LUA_TSTRING)
        return luaL_error(L, "%s must be a string, not a %s", what, luaL_typename(L, idx));
    const char *s = lua_tostring(L, idx);
    for (int i = 0; i < count; i++)
        if (names[i] && strcmp(s, names[i]) == 0) return i;
    push_name_list(L, names, count);
    return luaL_error(L, "%s \"%s\" is not one of: %s", what, s, lua_tostring(L, -1));
}

static uint32_t button_bit(lua_State *L, int idx, const char *what) {
    return 1u << enum_at(L, idx, button_names, GAIT_BUTTON_COUNT, what);
}

uint32_t gait__check_buttons(lua_State *L, int idx, const char *what) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    if (lua_isnoneornil(L, idx)) return 0;
    if (lua_type(L, idx) == LUA_TSTRING) return button_bit(L, idx, what);
    if (!lua_istable(L, idx))
        return (uint32_t)luaL_error(L, "%s must be a button name, a list of names or a set "
                                       "{name = true}, not a %s", what, luaL_typename(L, idx));
    uint32_t bits = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) == LUA_TNUMBER) { /* {"jump", "attack"} */
            bits |= button_bit(L, lua_gettop(L), what);
        } else { /* {jump = true} */
            uint32_t bit = button_bit(L, lua_gettop(L) - 1, what);
            if (lua_toboolean(L, -1)) bits |= bit;
        }
        lua_pop(L, 1);
    }
    return bits;
}

void gait__push_buttons(lua_State *L, uint32_t bits) {
    lua_createtable(L, 0, 4);
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++) {
        if (!(bits & (1u << i))) continue;
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, button_names[i]);
    }
}

static double num_field(lua_State *L, int t, const char *key, double def, const char *what) {
    lua_getfield(L, t, key);
    double v = def;
    if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TNUMBER)
            return luaL_error(L, "%s.%s must be a number, not a %s", what, key, luaL_typename(L, -1));
        v = lua_tonumber(L, -1);
        if (!isfinite(v)) return luaL_error(L, "%s.%s must be finite (got %f)", what, key, v);
    }
    lua_pop(L, 1);
    return v;
}

gait_vec3 gait__check_vec3(lua_State *L, int idx, const char *what) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    if (!lua_istable(L, idx))
        luaL_error(L, "%s must be a table {x, y, z} or {x = , y = , z = }, not a %s", what,
                   luaL_typename(L, idx));
    gait_vec3 v;
    double *c[3] = {&v.x, &v.y, &v.z};
    static const char *const keys[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; i++) {
        lua_rawgeti(L, idx, i + 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_getfield(L, idx, keys[i]);
        }
        if (lua_type(L, -1) != LUA_TNUMBER)
            luaL_error(L, "%s.%s must be a number, not a %s", what, keys[i], luaL_typename(L, -1));
        *c[i] = lua_tonumber(L, -1);
        if (!isfinite(*c[i])) luaL_error(L, "%s.%s must be finite", what, keys[i]);
        lua_pop(L, 1);
    }
    return v;
}

/* x, y, z as three results */
static int push_xyz(lua_State *L, gait_vec3 v) {
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    lua_pushnumber(L, v.z);
    return 3;
}

void gait__push_vec3(lua_State *L, gait_vec3 v) {
    lua_createtable(L, 3, 0);
    lua_pushnumber(L, v.x);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, v.y);
    lua_rawseti(L, -2, 2);
    lua_pushnumber(L, v.z);
    lua_rawseti(L, -2, 3);
}

/* Raises when the table at t has a key not in `keys` (a typo must not pass silently). */
static void check_keys(lua_State *L, int t, const char *const *keys, int count, const char *what) {
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        bool ok = false;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (int i = 0; i < count && !ok; i++) ok = strcmp(lua_tostring(L, -1), keys[i]) == 0;
        if (!ok) {
            lua_pushvalue(L, -1);
            const char *k = lua_tostring(L, -1);
            push_name_list(L, keys, count);
            luaL_error(L, "%s: unknown key \"%s\" (known keys: %s)", what, k ? k : "?",
                       lua_tostring(L, -1));
        }
    }
}

static double check_finite(lua_State *L, int arg) {
    double v = luaL_checknumber(L, arg);
    if (!isfinite(v)) luaL_argerror(L, arg, "must be finite");
    return v;
}

static int fail(lua_State *L, const char *msg) {
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
}

/* jit.off(fn, true): LuaJIT's compiled traces never run the count hook, so a function that
 * must stay stoppable by the instruction budget runs interpreted (with every function nested
 * in it). */
static void jit_off(lua_State *L, int fn) {
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_JITOFF);
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pushvalue(L, fn);
    lua_pushboolean(L, 1);
    if (lua_pcall(L, 2, 0, 0) != 0) lua_pop(L, 1);
}

/* ---- world userdata ------------------------------------------------------------------------ */

gait__wbox *gait__check_world(lua_State *L, int idx) {
    gait__wbox *b = (gait__wbox *)luaL_checkudata(L, idx, GAIT__MT_WORLD);
    if (!b->world) luaL_error(L, "the world was destroyed");
    return b;
}

gait_world *gait_script_check_world(lua_State *L, int index) {
    return gait__check_world(L, index)->world;
}

void gait__push_world(lua_State *L, gait_script *s, gait_world *world, bool owned) {
    gait__wbox *b = (gait__wbox *)lua_newuserdata(L, sizeof *b);
    b->world = world;
    b->script = s;
    b->owned = owned;
    luaL_getmetatable(L, GAIT__MT_WORLD);
    lua_setmetatable(L, -2);
    int ud = lua_gettop(L);
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, ud);
    lua_setfield(L, -2, "self");
    lua_newtable(L);
    lua_setfield(L, -2, "kits");
    lua_newtable(L);
    lua_setfield(L, -2, "gate_hooks");
    lua_newtable(L);
    lua_setfield(L, -2, "targets");
    lua_setfenv(L, ud);
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_WORLDS);
    lua_pushvalue(L, ud);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, REG_BOXES);
    lua_pushlightuserdata(L, b);
    lua_pushvalue(L, ud);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    gait__tuning_apply_world(s, world);
}

static int l_world_gc(lua_State *L) {
    gait__wbox *b = (gait__wbox *)luaL_checkudata(L, 1, GAIT__MT_WORLD);
    if (b->owned && b->world) gait_world_destroy(b->world);
    b->world = NULL;
    return 0;
}

static int l_world_tostring(lua_State *L) {
    gait__wbox *b = (gait__wbox *)luaL_checkudata(L, 1, GAIT__MT_WORLD);
    if (!b->world) lua_pushliteral(L, "gait.world (destroyed)");
    else
        lua_pushfstring(L, "gait.world (%s, %d characters, %d steps)", b->owned ? "script's" : "host's",
                        gait_world_character_count(b->world), (int)gait_world_step_count(b->world));
    return 1;
}

static const char *const world_def_keys[] = {"max_characters", "step_seconds",
                                             "max_steps_per_frame"};

/* gait.world.new{max_characters = 64, step_seconds = 1/60, max_steps_per_frame = 8} */
static int l_world_new(lua_State *L) {
    gait_script *s = gait__script_from(L);
    gait_world_def def = gait_default_world_def();
    def.hooks = s->hooks;
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        check_keys(L, 1, world_def_keys, 3, "world def");
        def.max_characters = (int)num_field(L, 1, "max_characters", def.max_characters, "world def");
        def.clock.step_seconds = num_field(L, 1, "step_seconds", def.clock.step_seconds, "world def");
        def.clock.max_steps_per_frame =
            (int)num_field(L, 1, "max_steps_per_frame", def.clock.max_steps_per_frame, "world def");
    }
    gait_world *w = gait_world_create(&def);
    if (!w)
        return fail(L, "world: could not create (max_characters in 1..1048576, step_seconds in "
                       "[0.001, 0.1], max_steps_per_frame in 1..1000, or out of memory)");
    gait__push_world(L, s, w, true);
    return 1;
}

static int l_world_host(lua_State *L) {
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_HOST);
    return 1;
}

static int l_world_destroy(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    if (!b->owned) return luaL_error(L, "world:destroy(): the host's world belongs to the host");
    gait_world_destroy(b->world);
    b->world = NULL;
    return 0;
}

/* world:set_terrain{samples_x, samples_z, cell_size, origin = {x, y, z},
 *                   heights = {...} (samples_x * samples_z, row by row along x)
 *                   | height = function(x, z) return metres above origin.y end}
 * world:set_terrain(nil) clears it. */
static const char *const terrain_keys[] = {"samples_x", "samples_z", "cell_size", "origin",
                                           "heights", "height"};
static int l_world_set_terrain(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait_collider *c = gait_world_collider(b->world);
    if (lua_isnoneornil(L, 2)) {
        gait_collider_set_terrain(c, NULL);
        return 0;
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    check_keys(L, 2, terrain_keys, 6, "terrain");
    gait_heightfield_def d;
    memset(&d, 0, sizeof d);
    double sx = num_field(L, 2, "samples_x", 0, "terrain"), sz = num_field(L, 2, "samples_z", 0, "terrain");
    if (!(sx >= 2 && sz >= 2 && sx <= 8193 && sz <= 8193 && sx * sz <= 16785409.0))
        return luaL_argerror(L, 2, "terrain.samples_x and samples_z must be in 2..8193 "
                                   "(at most 4097 x 4097 samples)");
    d.samples_x = (int)sx;
    d.samples_z = (int)sz;
    d.cell_size = num_field(L, 2, "cell_size", 1, "terrain");
    lua_getfield(L, 2, "origin");
    if (!lua_isnil(L, -1)) d.origin = gait__check_vec3(L, -1, "terrain.origin");
    lua_pop(L, 1);
    size_t n = (size_t)d.samples_x * (size_t)d.samples_z;
    float *h = (float *)lua_newuserdata(L, n * sizeof(float)); /* collected, even on an error */
    lua_getfield(L, 2, "heights");
    lua_getfield(L, 2, "height");
    if (lua_istable(L, -2)) {
        if (lua_objlen(L, -2) != n)
            return luaL_error(L, "terrain.heights has %d values; samples_x * samples_z = %d",
                              (int)lua_objlen(L, -2), (int)n);
        for (size_t i = 0; i < n; i++) {
            lua_rawgeti(L, -2, (int)i + 1);
            if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)))
                return luaL_error(L, "terrain.heights[%d] must be a finite number", (int)i + 1);
            h[i] = (float)lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
    } else if (lua_isfunction(L, -1)) {
        for (int iz = 0; iz < d.samples_z; iz++)
            for (int ix = 0; ix < d.samples_x; ix++) {
                lua_pushvalue(L, -1);
                lua_pushnumber(L, d.origin.x + ix * d.cell_size);
                lua_pushnumber(L, d.origin.z + iz * d.cell_size);
                lua_call(L, 2, 1);
                if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)))
                    return luaL_error(L, "terrain.height(%f, %f) must return a finite number",
                                      d.origin.x + ix * d.cell_size, d.origin.z + iz * d.cell_size);
                h[(size_t)iz * (size_t)d.samples_x + (size_t)ix] = (float)lua_tonumber(L, -1);
                lua_pop(L, 1);
            }
    } else {
        return luaL_argerror(L, 2, "terrain needs heights = {...} or height = function(x, z)");
    }
    d.heights = h;
    if (gait_collider_set_terrain(c, &d) != GAIT_OK) return fail(L, gait_collider_last_error(c));
    lua_pushboolean(L, 1);
    return 1;
}

/* world:load_heightmap(png_path, cell_size, height_scale[, origin]) -> true | nil, message */
static int l_world_load_heightmap(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    const char *path = luaL_checkstring(L, 2);
    double cell = check_finite(L, 3), scale = check_finite(L, 4);
    gait_vec3 origin = {0, 0, 0};
    if (!lua_isnoneornil(L, 5)) origin = gait__check_vec3(L, 5, "origin");
    gait_collider *c = gait_world_collider(b->world);
    if (gait_collider_load_heightmap(c, path, cell, scale, origin) != GAIT_OK)
        return fail(L, gait_collider_last_error(c));
    lua_pushboolean(L, 1);
    return 1;
}

static int l_world_set_sea_level(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    double y = luaL_optnumber(L, 2, -INFINITY);
    if (isnan(y)) return luaL_argerror(L, 2, "sea level must not be NaN");
    gait_collider *c = gait_world_collider(b->world);
    if (gait_collider_set_sea_level(c, y) != GAIT_OK) return luaL_error(L, "%s", gait_collider_last_error(c));
    return 0;
}

static const char *const water_keys[] = {"min_x", "min_z", "max_x", "max_z", "surface"};
static int l_world_add_water(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    check_keys(L, 2, water_keys, 5, "water");
    gait_water_region r;
    r.min_x = num_field(L, 2, "min_x", NAN, "water");
    r.min_z = num_field(L, 2, "min_z", NAN, "water");
    r.max_x = num_field(L, 2, "max_x", NAN, "water");
    r.max_z = num_field(L, 2, "max_z", NAN, "water");
    r.surface = num_field(L, 2, "surface", NAN, "water");
    if (isnan(r.min_x + r.min_z + r.max_x + r.max_z + r.surface))
        return luaL_argerror(L, 2, "water needs min_x, min_z, max_x, max_z and surface (m)");
    gait_collider *c = gait_world_collider(b->world);
    int index = -1;
    if (gait_collider_add_water(c, &r, &index) != GAIT_OK) return fail(L, gait_collider_last_error(c));
    lua_pushinteger(L, index + 1);
    return 1;
}

static int l_world_clear_water(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait_collider_clear_water(gait_world_collider(b->world));
    return 0;
}

/* ---- landmarks ----------------------------------------------------------------------------- */

typedef struct landmark_ud {
    gait__wbox *box;
    gait_landmark_id id;
} landmark_ud;

static landmark_ud *check_landmark(lua_State *L, int idx) {
    landmark_ud *lm = (landmark_ud *)luaL_checkudata(L, idx, GAIT__MT_LANDMARK);
    if (!lm->box->world) luaL_error(L, "landmark: its world was destroyed");
    return lm;
}

/* world:add_landmark{triangles = {{ax, ay, az, bx, by, bz, cx, cy, cz}, ...}
 *                  | positions = {x, y, z, ...}, indices = {1-based, 3 per triangle} (optional),
 *                   offset = {x, y, z}, name = "..."} -> landmark | nil, message */
static const char *const landmark_keys[] = {"triangles", "positions", "indices", "offset", "name"};
static int l_world_add_landmark(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    check_keys(L, 2, landmark_keys, 5, "landmark");
    gait_mesh_def d;
    memset(&d, 0, sizeof d);
    lua_getfield(L, 2, "offset");
    if (!lua_isnil(L, -1)) d.offset = gait__check_vec3(L, -1, "landmark.offset");
    lua_pop(L, 1);
    lua_getfield(L, 2, "name");
    d.name = lua_isstring(L, -1) ? lua_tostring(L, -1) : NULL; /* kept on the stack */
    lua_getfield(L, 2, "triangles");
    lua_getfield(L, 2, "positions");
    if (lua_istable(L, -2)) {
        int tris = (int)lua_objlen(L, -2);
        if (tris < 1 || tris > (1 << 24)) return luaL_argerror(L, 2, "landmark.triangles is empty");
        float *p = (float *)lua_newuserdata(L, (size_t)tris * 9 * sizeof(float));
        for (int t = 0; t < tris; t++) {
            lua_rawgeti(L, -3, t + 1);
            if (!lua_istable(L, -1) || lua_objlen(L, -1) != 9)
                return luaL_error(L, "landmark.triangles[%d] must be a table of 9 numbers "
                                     "(ax, ay, az, bx, by, bz, cx, cy, cz)", t + 1);
            for (int k = 0; k < 9; k++) {
                lua_rawgeti(L, -1, k + 1);
                if (lua_type(L, -1) != LUA_TNUMBER)
                    return luaL_error(L, "landmark.triangles[%d][%d] must be a number", t + 1, k + 1);
                p[t * 9 + k] = (float)lua_tonumber(L, -1);
                lua_pop(L, 1);
            }
            lua_pop(L, 1);
        }
        d.positions = p;
        d.vertex_count = tris * 3;
        d.triangle_count = tris;
    } else if (lua_istable(L, -1)) {
        int n = (int)lua_objlen(L, -1);
        if (n < 9 || n % 3 != 0 || n > (1 << 26))
            return luaL_argerror(L, 2, "landmark.positions needs 3 numbers per vertex, 3 vertices or more");
        int ptab = lua_gettop(L);
        float *p = (float *)lua_newuserdata(L, (size_t)n * sizeof(float));
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, ptab, i + 1);
            if (lua_type(L, -1) != LUA_TNUMBER)
                return luaL_error(L, "landmark.positions[%d] must be a number", i + 1);
            p[i] = (float)lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
        d.positions = p;
        d.vertex_count = n / 3;
        lua_getfield(L, 2, "indices");
        if (lua_istable(L, -1)) {
            int m = (int)lua_objlen(L, -1);
            if (m < 3 || m % 3 != 0) return luaL_argerror(L, 2, "landmark.indices needs 3 per triangle");
            int itab = lua_gettop(L);
            uint32_t *ix = (uint32_t *)lua_newuserdata(L, (size_t)m * sizeof(uint32_t));
            for (int i = 0; i < m; i++) {
                lua_rawgeti(L, itab, i + 1);
                lua_Number v = lua_tonumber(L, -1);
                if (lua_type(L, -1) != LUA_TNUMBER || v < 1 || v > d.vertex_count || v != floor(v))
                    return luaL_error(L, "landmark.indices[%d] must be a vertex number in 1..%d",
                                      i + 1, d.vertex_count);
                ix[i] = (uint32_t)v - 1;
                lua_pop(L, 1);
            }
            d.indices = ix;
            d.triangle_count = m / 3;
        } else {
            if (d.vertex_count % 3 != 0)
                return luaL_argerror(L, 2, "landmark.positions without indices needs 3 vertices per triangle");
            d.triangle_count = d.vertex_count / 3;
        }
    } else {
        return luaL_argerror(L, 2, "landmark needs triangles = {...} or positions = {...}");
    }
    gait_collider *c = gait_world_collider(b->world);
    gait_landmark_id id;
    if (gait_collider_add_landmark(c, &d, &id) != GAIT_OK) return fail(L, gait_collider_last_error(c));
    landmark_ud *lm = (landmark_ud *)lua_newuserdata(L, sizeof *lm);
    lm->box = b;
    lm->id = id;
    luaL_getmetatable(L, GAIT__MT_LANDMARK);
    lua_setmetatable(L, -2);
    lua_getfenv(L, 1);
    lua_setfenv(L, -2);
    return 1;
}

static int l_landmark_remove(lua_State *L) {
    landmark_ud *lm = check_landmark(L, 1);
    gait_collider *c = gait_world_collider(lm->box->world);
    if (gait_collider_remove_landmark(c, lm->id) != GAIT_OK)
        return luaL_error(L, "landmark: %s", gait_collider_last_error(c));
    return 0;
}

static int l_world_remove_landmark(lua_State *L) {
    gait__check_world(L, 1);
    lua_remove(L, 1);
    return l_landmark_remove(L);
}

static int l_landmark_info(lua_State *L) {
    landmark_ud *lm = check_landmark(L, 1);
    gait_landmark_info info;
    gait_collider *c = gait_world_collider(lm->box->world);
    if (gait_collider_landmark_info(c, lm->id, &info) != GAIT_OK) return fail(L, gait_collider_last_error(c));
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, info.triangle_count);
    lua_setfield(L, -2, "triangle_count");
    lua_pushinteger(L, info.skipped_count);
    lua_setfield(L, -2, "skipped_count");
    gait__push_vec3(L, info.bounds_min);
    lua_setfield(L, -2, "bounds_min");
    gait__push_vec3(L, info.bounds_max);
    lua_setfield(L, -2, "bounds_max");
    lua_pushnumber(L, (lua_Number)info.memory_bytes);
    lua_setfield(L, -2, "memory_bytes");
    return 1;
}

static int l_landmark_tostring(lua_State *L) {
    landmark_ud *lm = (landmark_ud *)luaL_checkudata(L, 1, GAIT__MT_LANDMARK);
    lua_pushfstring(L, "gait.landmark #%d", lm->id.index1);
    return 1;
}

static int l_world_landmark_count(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    lua_pushinteger(L, gait_collider_landmark_count(gait_world_collider(b->world)));
    return 1;
}

/* ---- world queries ------------------------------------------------------------------------- */

static int l_world_terrain_height(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    double h;
    gait_vec3 n;
    if (!gait_terrain_sample(gait_world_collider(b->world), check_finite(L, 2), check_finite(L, 3), &h, &n))
        return 0;
    lua_pushnumber(L, h);
    push_xyz(L, n);
    return 4;
}

static int l_world_water_at(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    double surface, depth;
    if (!gait_water_at(gait_world_collider(b->world), check_finite(L, 2), check_finite(L, 3), &surface, &depth))
        return 0;
    lua_pushnumber(L, surface);
    lua_pushnumber(L, depth);
    return 2;
}

/* world:ray_cast(origin, delta) -> {fraction, distance, point, normal, triangle, terrain} | nil */
static int l_world_ray_cast(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait_vec3 o = gait__check_vec3(L, 2, "origin"), d = gait__check_vec3(L, 3, "delta");
    gait_hit hit;
    if (!gait_collider_ray_cast(gait_world_collider(b->world), o, d, NULL, &hit)) return 0;
    lua_createtable(L, 0, 6);
    lua_pushnumber(L, hit.fraction);
    lua_setfield(L, -2, "fraction");
    lua_pushnumber(L, hit.distance);
    lua_setfield(L, -2, "distance");
    gait__push_vec3(L, hit.point);
    lua_setfield(L, -2, "point");
    gait__push_vec3(L, hit.normal);
    lua_setfield(L, -2, "normal");
    lua_pushinteger(L, hit.triangle);
    lua_setfield(L, -2, "triangle");
    lua_pushboolean(L, hit.landmark.index1 == 0);
    lua_setfield(L, -2, "terrain");
    return 1;
}

/* ---- characters ---------------------------------------------------------------------------- */

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

/* pushes the character's world userdata (from the shared environment) */
static void push_world_of(lua_State *L, int ch_idx) {
    lua_getfenv(L, ch_idx);
    lua_getfield(L, -1, "self");
    lua_remove(L, -2);
}

static const char *const spawn_keys[] = {"position", "yaw", "body_type", "stamina", "kit"};
static const char *const stamina_keys[] = {"max", "start", "refill_rate", "refill_delay",
                                           "multiplier"};

static int character_set_kit(lua_State *L); /* below */

/* world:spawn{position = {x, y, z}, yaw = 0, body_type = "medium_female",
 *             stamina = {max, start, refill_rate, refill_delay, multiplier}, kit = "sword"}
 *   -> character | nil, message */
static int l_world_spawn(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait_script *s = b->script;
    gait_character_def d = gait_default_character_def();
    if (s->tuning.loaded && s->tuning.refill_rate >= 0) {
        d.stamina.refill_rate = s->tuning.refill_rate;
        d.stamina.refill_delay = s->tuning.refill_delay;
    }
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        check_keys(L, 2, spawn_keys, 5, "spawn");
        lua_getfield(L, 2, "position");
        if (!lua_isnil(L, -1)) d.position = gait__check_vec3(L, -1, "spawn.position");
        lua_pop(L, 1);
        d.yaw = num_field(L, 2, "yaw", 0, "spawn");
        lua_getfield(L, 2, "body_type");
        if (!lua_isnil(L, -1)) {
            const char *names[GAIT_BODY_TYPE_COUNT];
            for (int i = 0; i < GAIT_BODY_TYPE_COUNT; i++) names[i] = gait_body_type_name((gait_body_type)i);
            d.body_type = (gait_body_type)enum_at(L, lua_gettop(L), names, GAIT_BODY_TYPE_COUNT, "body type");
        }
        lua_pop(L, 1);
        lua_getfield(L, 2, "stamina");
        if (!lua_isnil(L, -1)) {
            int t = lua_gettop(L);
            luaL_checktype(L, t, LUA_TTABLE);
            check_keys(L, t, stamina_keys, 5, "spawn.stamina");
            d.stamina.max = num_field(L, t, "max", d.stamina.max, "spawn.stamina");
            d.stamina.start = num_field(L, t, "start", d.stamina.max, "spawn.stamina");
            d.stamina.refill_rate = num_field(L, t, "refill_rate", d.stamina.refill_rate, "spawn.stamina");
            d.stamina.refill_delay = num_field(L, t, "refill_delay", d.stamina.refill_delay, "spawn.stamina");
            d.stamina.multiplier = num_field(L, t, "multiplier", d.stamina.multiplier, "spawn.stamina");
        }
        lua_pop(L, 1);
    }
    gait_character_id id;
    if (gait_character_create(b->world, &d, &id) != GAIT_OK) return fail(L, gait_world_last_error(b->world));
    gait__present_apply_character(s, b->world, id); /* camera.lua, anim.lua */
    gait__push_character(L, 1, id);
    if (!lua_isnoneornil(L, 2)) {
        lua_getfield(L, 2, "kit");
        if (!lua_isnil(L, -1)) {
            int ch = lua_gettop(L) - 1;
            lua_pushcfunction(L, character_set_kit);
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

static int l_world_character(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait_character_id id = {(int32_t)luaL_checkinteger(L, 2), (uint32_t)luaL_optnumber(L, 3, 0)};
    if (lua_isnoneornil(L, 3)) { /* the living character in that slot */
        if (id.index1 < 1 || id.index1 > b->world->capacity) return 0;
        id.generation = b->world->characters[id.index1 - 1].generation;
    }
    if (!gait_character_valid(b->world, id)) return 0;
    gait__push_character(L, 1, id);
    return 1;
}

static int l_world_characters(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    lua_newtable(L);
    int n = 0;
    for (int i = 0; i < b->world->capacity; i++) {
        const gait__character *ch = &b->world->characters[i];
        if (!ch->alive) continue;
        gait_character_id id = {i + 1, ch->generation};
        gait__push_character(L, 1, id);
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

static int l_world_character_count(lua_State *L) {
    lua_pushinteger(L, gait_world_character_count(gait__check_world(L, 1)->world));
    return 1;
}

/* world:run_kits(frame_seconds): every kit of this world reads the held presses */
static int l_world_run_kits(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    double dt = luaL_optnumber(L, 2, 0);
    if (!isfinite(dt) || dt < 0) return luaL_argerror(L, 2, "frame seconds must be finite and >= 0");
    lua_settop(L, 1);
    gait_status st = gait__run_kits(b->script, 1, dt);
    lua_pushboolean(L, st == GAIT_OK);
    return 1;
}

/* world:update(frame_seconds[, on_step]) -> steps run. Kits first (they read the held presses
 * before a step spends them), then the whole fixed steps due; on_step(step_index) after each. */
static int l_world_update(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    double dt = luaL_checknumber(L, 2);
    if (!isfinite(dt) || dt < 0) return luaL_argerror(L, 2, "frame seconds must be finite and >= 0");
    bool has_cb = !lua_isnoneornil(L, 3);
    if (has_cb) luaL_checktype(L, 3, LUA_TFUNCTION);
    lua_settop(L, 3);
    gait__run_kits(b->script, 1, dt);
    int steps = 0;
    if (gait_clock_advance(&b->world->clock, dt, &steps) != GAIT_OK)
        return luaL_error(L, "update: %f frame seconds", dt);
    for (int i = 0; i < steps; i++) {
        if (!b->world) break; /* a callback destroyed it */
        gait_world_step(b->world);
        if (has_cb) {
            lua_pushvalue(L, 3);
            lua_pushinteger(L, i + 1);
            lua_call(L, 1, 0);
        }
    }
    lua_pushinteger(L, steps);
    return 1;
}

static int l_world_step(lua_State *L) {
    gait_world_step(gait__check_world(L, 1)->world);
    return 0;
}

static int l_world_step_count(lua_State *L) {
    lua_pushnumber(L, (lua_Number)gait_world_step_count(gait__check_world(L, 1)->world));
    return 1;
}

static int l_world_step_seconds(lua_State *L) {
    lua_pushnumber(L, gait_world_step_seconds(gait__check_world(L, 1)->world));
    return 1;
}

static int l_world_max_steps_per_frame(lua_State *L) {
    lua_pushinteger(L, gait_world_clock(gait__check_world(L, 1)->world)->max_steps_per_frame);
    return 1;
}

static int l_world_alpha(lua_State *L) {
    lua_pushnumber(L, gait_world_alpha(gait__check_world(L, 1)->world));
    return 1;
}

static int check_body_type(lua_State *L, int arg) {
    const char *names[GAIT_BODY_TYPE_COUNT];
    for (int i = 0; i < GAIT_BODY_TYPE_COUNT; i++) names[i] = gait_body_type_name((gait_body_type)i);
    return gait__check_enum(L, arg, names, GAIT_BODY_TYPE_COUNT, "body type");
}

/* world:locomotion(body_type) -> table of the numbers that body type moves by */
static int l_world_locomotion(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__push_locomotion(L, gait_world_locomotion(b->world, (gait_body_type)check_body_type(L, 2)));
    return 1;
}

static int l_world_measured(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    lua_pushboolean(L, gait_world_locomotion_measured(b->world, (gait_body_type)check_body_type(L, 2)));
    return 1;
}

/* world:set_locomotion(body_type, {numbers}) (over the type's current numbers) -> true | nil, msg */
static int l_world_set_locomotion(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait_body_type t = (gait_body_type)check_body_type(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    gait_locomotion n = *gait_world_locomotion(b->world, t);
    char err[256];
    if (!gait__locomotion_from_table(L, 3, &n, err, sizeof err)) return luaL_argerror(L, 3, err);
    if (gait_world_set_locomotion(b->world, t, &n) != GAIT_OK) return fail(L, gait_world_last_error(b->world));
    lua_pushboolean(L, 1);
    return 1;
}

static int l_world_set_provisional_locomotion(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    gait_locomotion n = b->world->provisional;
    char err[256];
    if (!gait__locomotion_from_table(L, 2, &n, err, sizeof err)) return luaL_argerror(L, 2, err);
    if (gait_world_set_provisional_locomotion(b->world, &n) != GAIT_OK)
        return fail(L, gait_world_last_error(b->world));
    lua_pushboolean(L, 1);
    return 1;
}

static int l_world_clear_locomotion(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait_world_clear_locomotion(b->world, (gait_body_type)check_body_type(L, 2));
    return 0;
}

/* world:set_targets{{x, y, z}, ...}: points a kit may aim at (the sword's skill faces the
 * nearest). world:targets() -> a copy of that list. */
static int l_world_set_targets(lua_State *L) {
    gait__check_world(L, 1);
    lua_newtable(L);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        int n = (int)lua_objlen(L, 2);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, 2, i);
            gait_vec3 v = gait__check_vec3(L, -1, "target");
            lua_pop(L, 1);
            gait__push_vec3(L, v);
            lua_rawseti(L, -2, i);
        }
    }
    lua_getfenv(L, 1);
    lua_insert(L, -2);
    lua_setfield(L, -2, "targets");
    return 0;
}

static int l_world_targets(lua_State *L) {
    gait__check_world(L, 1);
    lua_getfenv(L, 1);
    lua_getfield(L, -1, "targets");
    int n = (int)lua_objlen(L, -1);
    lua_createtable(L, n, 0);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -2, i);
        gait_vec3 v = gait__check_vec3(L, -1, "target");
        lua_pop(L, 1);
        gait__push_vec3(L, v);
        lua_rawseti(L, -2, i);
    }
    return 1;
}

/* world:snapshot() -> a string holding the world's simulation state (gait_world_snapshot_save:
 * the clock, every character, the body-type numbers; not the geometry, kits or hooks). */
static int l_world_snapshot(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    size_t n = gait_world_snapshot_size(b->world);
    void *buf = lua_newuserdata(L, n); /* collected, even on an error */
    if (gait_world_snapshot_save(b->world, buf, n, &n) != GAIT_OK) return fail(L, gait_world_last_error(b->world));
    lua_pushlstring(L, (const char *)buf, n);
    return 1;
}

/* world:restore(s) -> true | nil, message. s from world:snapshot() of this world (or one built
 * the same, same max_characters); anything else is refused and the world is unchanged. */
static int l_world_restore(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    luaL_checktype(L, 2, LUA_TSTRING);
    size_t n = 0;
    const char *s = lua_tolstring(L, 2, &n);
    if (gait_world_snapshot_restore(b->world, s, n) != GAIT_OK) return fail(L, gait_world_last_error(b->world));
    lua_pushboolean(L, 1);
    return 1;
}

/* ---- character methods ---------------------------------------------------------------------- */

#define CH(L) gait__chud *c = gait__check_character(L, 1); gait_world *w = c->box->world

static const gait__character *raw(gait__chud *c) {
    return gait__character_get_const(c->box->world, c->id);
}

/* the getters: the character read-only, no world handle */
#define CH_READ(L) const gait__character *ch = raw(gait__check_character(L, 1))

static int l_ch_state(lua_State *L) {
    CH_READ(L);
    lua_pushstring(L, gait_state_name(ch->phase.state));
    lua_pushnumber(L, ch->phase.seconds);
    return 2;
}

static int l_ch_position(lua_State *L) {
    CH_READ(L);
    return push_xyz(L, ch->position);
}

static int l_ch_velocity(lua_State *L) {
    CH_READ(L);
    return push_xyz(L, ch->velocity);
}

static int l_ch_yaw(lua_State *L) {
    CH_READ(L);
    lua_pushnumber(L, ch->yaw);
    return 1;
}

static int l_ch_camera_yaw(lua_State *L) {
    CH_READ(L);
    lua_pushnumber(L, ch->camera_yaw);
    return 1;
}

static int l_ch_set_camera_yaw(lua_State *L) {
    CH(L);
    gait_character_set_camera_yaw(w, c->id, check_finite(L, 2));
    return 0;
}

static int l_ch_stamina(lua_State *L) {
    CH_READ(L);
    lua_pushnumber(L, ch->stamina.value);
    lua_pushnumber(L, ch->stamina.max);
    return 2;
}

/* ch:set_stamina(value): sets what is left (clamped to [0, max]); a test's or a cheat's door */
static int l_ch_set_stamina(lua_State *L) {
    CH(L);
    double v = check_finite(L, 2);
    gait_stamina *pool = gait_character_stamina(w, c->id);
    pool->value = v < 0 ? 0 : (v > pool->max ? pool->max : v);
    return 0;
}

static int l_ch_stamina_multiplier(lua_State *L) {
    CH_READ(L);
    lua_pushnumber(L, ch->stamina.multiplier);
    return 1;
}

static int l_ch_set_stamina_multiplier(lua_State *L) {
    CH(L);
    double m = check_finite(L, 2);
    if (gait_stamina_set_multiplier(gait_character_stamina(w, c->id), m) != GAIT_OK)
        return luaL_argerror(L, 2, "multiplier must be in [0, 100]");
    return 0;
}

static int l_ch_face(lua_State *L) {
    CH(L);
    gait_character_face(w, c->id, check_finite(L, 2));
    return 0;
}

/* ch:place(x, y, z[, yaw]) */
static int l_ch_place(lua_State *L) {
    CH(L);
    gait_vec3 p = {check_finite(L, 2), check_finite(L, 3), check_finite(L, 4)};
    double yaw = lua_isnoneornil(L, 5) ? raw(c)->yaw : check_finite(L, 5);
    gait_character_place(w, c->id, p, yaw);
    return 0;
}

static int l_ch_set_body_type(lua_State *L) {
    CH(L);
    gait_character_set_body_type(w, c->id, (gait_body_type)check_body_type(L, 2));
    return 0;
}

static int l_ch_body_type(lua_State *L) {
    CH_READ(L);
    lua_pushstring(L, gait_body_type_name(ch->body_type));
    return 1;
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
    if (gait_character_spend(w, c->id, a) != GAIT_OK) return fail(L, gait_world_last_error(w));
    lua_pushboolean(L, 1);
    return 1;
}

static int l_ch_can_spend(lua_State *L) {
    CH(L);
    double a = check_amount(L, 2);
    bool ok = false;
    gait_character_can_spend(w, c->id, a, &ok);
    lua_pushboolean(L, ok);
    return 1;
}

/* ch:start_action(seconds[, name]): the body holds still for `seconds`, the presses still reach
 * the controller. 0 ends it. */
static int l_ch_start_action(lua_State *L) {
    CH(L);
    double sec = luaL_checknumber(L, 2);
    if (!(sec >= 0 && sec <= 3600)) return luaL_argerror(L, 2, "seconds must be in [0, 3600]");
    gait_character_start_action(w, c->id, sec, luaL_optstring(L, 3, NULL));
    return 0;
}

/* ch:action() -> name, seconds_left | nil */
static int l_ch_action(lua_State *L) {
    CH_READ(L);
    if (ch->action_left <= 0) return 0;
    lua_pushstring(L, ch->action_name);
    lua_pushnumber(L, ch->action_left);
    return 2;
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
        check_keys(L, 2, input_keys, 7, "input");
        in.move_x = num_field(L, 2, "move_x", 0, "input");
        in.move_y = num_field(L, 2, "move_y", 0, "input");
        in.look_yaw = num_field(L, 2, "look_yaw", 0, "input");
        in.look_pitch = num_field(L, 2, "look_pitch", 0, "input");
        in.look_zoom = num_field(L, 2, "look_zoom", 0, "input");
        lua_getfield(L, 2, "held");
        in.held = gait__check_buttons(L, -1, "input.held");
        lua_getfield(L, 2, "pressed");
        in.pressed = gait__check_buttons(L, -1, "input.pressed");
        lua_pop(L, 2);
    }
    if (gait_character_set_input(w, c->id, &in) != GAIT_OK)
        return luaL_error(L, "%s", gait_world_last_error(w));
    return 0;
}

/* ch:held_presses() -> {jump = true, ...}: what the next step will read */
static int l_ch_held_presses(lua_State *L) {
    CH(L);
    uint32_t p = 0;
    gait_character_held_presses(w, c->id, &p);
    gait__push_buttons(L, p);
    return 1;
}

/* ch:take_presses("attack", "skill") or ch:take_presses{"attack"}: the step will not read them */
static int l_ch_take_presses(lua_State *L) {
    CH(L);
    uint32_t mask = 0;
    int top = lua_gettop(L);
    for (int i = 2; i <= top; i++) mask |= gait__check_buttons(L, i, "take_presses");
    gait_character_take_presses(w, c->id, mask);
    return 0;
}

static void push_contact(lua_State *L, const gait_contact *k) {
    lua_createtable(L, 0, 8);
    lua_pushboolean(L, k->grounded);
    lua_setfield(L, -2, "grounded");
    lua_pushboolean(L, k->rising);
    lua_setfield(L, -2, "rising");
    lua_pushnumber(L, k->height_above_ground);
    lua_setfield(L, -2, "height_above_ground");
    lua_pushnumber(L, k->water_depth);
    lua_setfield(L, -2, "water_depth");
    lua_pushnumber(L, k->submersion);
    lua_setfield(L, -2, "submersion");
    lua_pushboolean(L, k->wall);
    lua_setfield(L, -2, "wall");
    lua_pushboolean(L, k->wall_ahead);
    lua_setfield(L, -2, "wall_ahead");
    lua_pushboolean(L, k->over_top);
    lua_setfield(L, -2, "over_top");
}

static int l_ch_contact(lua_State *L) {
    CH_READ(L);
    push_contact(L, &ch->contact);
    return 1;
}

static int l_ch_pose(lua_State *L) {
    CH(L);
    gait_pose p;
    gait_character_pose(w, c->id, &p);
    push_xyz(L, p.position);
    lua_pushnumber(L, p.yaw);
    return 4;
}

/* ch:info() -> a table of everything gait_character_info holds */
static int l_ch_info(lua_State *L) {
    CH(L);
    gait_character_info in;
    gait_character_info_get(w, c->id, &in);
    lua_createtable(L, 0, 24);
    gait__push_vec3(L, in.position);
    lua_setfield(L, -2, "position");
    gait__push_vec3(L, in.velocity);
    lua_setfield(L, -2, "velocity");
    lua_pushnumber(L, in.yaw);
    lua_setfield(L, -2, "yaw");
    lua_pushnumber(L, in.camera_yaw);
    lua_setfield(L, -2, "camera_yaw");
    lua_pushstring(L, gait_state_name(in.phase.state));
    lua_setfield(L, -2, "state");
    lua_pushnumber(L, in.phase.seconds);
    lua_setfield(L, -2, "state_seconds");
    lua_pushstring(L, gait_state_name(in.previous_state));
    lua_setfield(L, -2, "previous_state");
    push_contact(L, &in.contact);
    lua_setfield(L, -2, "contact");
    lua_pushnumber(L, in.stamina);
    lua_setfield(L, -2, "stamina");
    lua_pushnumber(L, in.stamina_max);
    lua_setfield(L, -2, "stamina_max");
    lua_pushnumber(L, raw(c)->stamina.multiplier);
    lua_setfield(L, -2, "stamina_multiplier");
    lua_pushstring(L, gait_body_type_name(in.body_type));
    lua_setfield(L, -2, "body_type");
    lua_pushboolean(L, gait_world_locomotion_measured(w, in.body_type));
    lua_setfield(L, -2, "measured");
    lua_pushboolean(L, in.walking);
    lua_setfield(L, -2, "walking");
    lua_pushboolean(L, in.crouching);
    lua_setfield(L, -2, "crouching");
    lua_pushnumber(L, in.action_seconds_left);
    lua_setfield(L, -2, "action_seconds_left");
    if (in.action_seconds_left > 0) {
        lua_pushstring(L, in.action_name);
        lua_setfield(L, -2, "action");
    }
    gait__push_vec3(L, in.return_point);
    lua_setfield(L, -2, "return_point");
    gait__push_buttons(L, in.presses_read);
    lua_setfield(L, -2, "presses_read");
    lua_pushnumber(L, (lua_Number)in.steps);
    lua_setfield(L, -2, "steps");
    lua_pushinteger(L, c->id.index1);
    lua_setfield(L, -2, "id");
    return 1;
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

static int l_ch_world(lua_State *L) {
    luaL_checkudata(L, 1, GAIT__MT_CHARACTER);
    push_world_of(L, 1);
    return 1;
}

/* ---- kits ------------------------------------------------------------------------------------ */

/* Finds the kit entry of the character at ch_idx in env.kits; pushes it (or nothing) and returns
 * whether it found one. */
static bool find_kit_entry(lua_State *L, int ch_idx) {
    gait__chud *c = (gait__chud *)lua_touserdata(L, ch_idx);
    lua_getfenv(L, ch_idx);
    lua_getfield(L, -1, "kits");
    int n = (int)lua_objlen(L, -1);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        lua_rawgeti(L, -1, GAIT__KIT_CH);
        gait__chud *o = (gait__chud *)lua_touserdata(L, -1);
        lua_pop(L, 1);
        bool dead = false;
        lua_rawgeti(L, -1, GAIT__KIT_DEAD);
        dead = lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (!dead && o && o->id.index1 == c->id.index1 && o->id.generation == c->id.generation) {
            lua_replace(L, -3);
            lua_pop(L, 1);
            return true;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    return false;
}

/* ch:set_kit("sword" | "path/kit.lua" | {on_presses = fn} | nil) -> true | nil, message */
static int character_set_kit(lua_State *L) {
    gait__chud *c = gait__check_character(L, 1);
    gait_script *s = c->box->script;
    lua_settop(L, 2);
    if (lua_isnil(L, 2)) {
        if (find_kit_entry(L, 1)) {
            lua_pushboolean(L, 1);
            lua_rawseti(L, -2, GAIT__KIT_DEAD);
        }
        lua_pushboolean(L, 1);
        return 1;
    }
    if (lua_type(L, 2) == LUA_TSTRING) {
        char path[GAIT__PATH_MAX], name[64];
        if (!gait__kit_path(s, lua_tostring(L, 2), path, sizeof path, name, sizeof name))
            return luaL_argerror(L, 2, "a kit is a name of [a-z0-9_] (scripts/kits/<name>.lua), a "
                                       "path ending in .lua, or a table with on_presses");
        lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
        lua_getfield(L, -1, name);
        bool have = !lua_isnil(L, -1);
        lua_pop(L, 2);
        if (!have && gait__kit_load(s, path, name) != GAIT_OK) return fail(L, s->error);
        lua_pushstring(L, name);
        lua_replace(L, 2);
    } else if (lua_istable(L, 2)) {
        lua_getfield(L, 2, "on_presses");
        if (!lua_isfunction(L, -1)) return luaL_argerror(L, 2, "a kit table needs on_presses(character, presses, state)");
        jit_off(L, lua_gettop(L)); /* so the instruction budget can stop it */
        lua_pop(L, 1);
    } else {
        return luaL_argerror(L, 2, "a kit is a name, a path or a table");
    }
    if (find_kit_entry(L, 1)) { /* a new kit: a new state */
        lua_pushboolean(L, 1);
        lua_rawseti(L, -2, GAIT__KIT_DEAD);
        lua_pop(L, 1);
    }
    lua_createtable(L, 6, 0);
    int e = lua_gettop(L);
    lua_pushvalue(L, 1);
    lua_rawseti(L, e, GAIT__KIT_CH);
    lua_pushvalue(L, 2);
    lua_rawseti(L, e, GAIT__KIT_KIT);
    lua_newtable(L);
    lua_rawseti(L, e, GAIT__KIT_STATE);
    gait__presses *p = (gait__presses *)lua_newuserdata(L, sizeof *p);
    p->box = c->box;
    p->id = c->id;
    p->dt = 0;
    luaL_getmetatable(L, GAIT__MT_PRESSES);
    lua_setmetatable(L, -2);
    lua_rawseti(L, e, GAIT__KIT_PRESSES);
    lua_getfenv(L, 1);
    lua_getfield(L, -1, "kits");
    lua_pushvalue(L, e);
    lua_rawseti(L, -2, (int)lua_objlen(L, -2) + 1);
    lua_pushboolean(L, 1);
    return 1;
}

/* ch:kit() -> the kit's name (or table) and its per-character state table, or nil */
static int l_ch_kit(lua_State *L) {
    gait__check_character(L, 1);
    if (!find_kit_entry(L, 1)) return 0;
    lua_rawgeti(L, -1, GAIT__KIT_KIT);
    lua_rawgeti(L, -2, GAIT__KIT_STATE);
    return 2;
}

gait_status gait__run_kits(gait_script *s, int world_idx, double dt) {
    lua_State *L = s->L;
    gait__wbox *b = (gait__wbox *)lua_touserdata(L, world_idx);
    if (!b || !b->world) return GAIT_OK;
    int top = lua_gettop(L);
    gait_status result = GAIT_OK;
    lua_getfenv(L, world_idx);
    lua_getfield(L, -1, "kits");
    int kits = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
    int defs = lua_gettop(L);
    int n = (int)lua_objlen(L, kits);
    bool any_dead = false;
    bool armed = gait__budget_arm(s); /* once for the batch: each call still counts its own */
    for (int i = 1; i <= n; i++) {
        lua_settop(L, defs);
        lua_rawgeti(L, kits, i);
        int e = lua_gettop(L);
        lua_rawgeti(L, e, GAIT__KIT_DEAD);
        if (lua_toboolean(L, -1)) { any_dead = true; continue; }
        lua_rawgeti(L, e, GAIT__KIT_CH);
        int ch = lua_gettop(L);
        gait__chud *c = (gait__chud *)lua_touserdata(L, ch);
        if (!b->world || !c || !gait_character_valid(b->world, c->id)) {
            lua_pushboolean(L, 1);
            lua_rawseti(L, e, GAIT__KIT_DEAD);
            any_dead = true;
            continue;
        }
        lua_rawgeti(L, e, GAIT__KIT_FAILED);
        if (lua_toboolean(L, -1)) continue; /* skipped until its file is reloaded */
        lua_rawgeti(L, e, GAIT__KIT_KIT);
        int kit = lua_gettop(L);
        /* named for an error message only when there is one (no formatting per call) */
        s->call_kit = lua_type(L, kit) == LUA_TSTRING ? lua_tostring(L, kit) : NULL;
        s->call_character = (int)c->id.index1;
        lua_pushvalue(L, kit);
        if (s->call_kit) lua_rawget(L, defs);
        if (!lua_istable(L, -1)) continue;
        lua_getfield(L, -1, "on_presses");
        if (!lua_isfunction(L, -1)) continue;
        lua_rawgeti(L, e, GAIT__KIT_PRESSES);
        gait__presses *p = (gait__presses *)lua_touserdata(L, -1);
        if (p) p->dt = dt;
        lua_pushvalue(L, ch);
        lua_insert(L, -2);
        lua_rawgeti(L, e, GAIT__KIT_STATE);
        if (gait__script_pcall(s, 3, 0, NULL, true) != GAIT_OK) {
            lua_pushboolean(L, 1);
            lua_rawseti(L, e, GAIT__KIT_FAILED);
            result = GAIT_ERR_SCRIPT;
        }
    }
    gait__budget_disarm(s, armed);
    lua_settop(L, defs);
    if (any_dead) { /* compact: drop the entries of gone characters and replaced kits */
        lua_newtable(L);
        int m = 0;
        n = (int)lua_objlen(L, kits);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, kits, i);
            lua_rawgeti(L, -1, GAIT__KIT_DEAD);
            bool dead = lua_toboolean(L, -1);
            lua_pop(L, 1);
            if (dead) lua_pop(L, 1);
            else lua_rawseti(L, -2, ++m);
        }
        lua_setfield(L, kits - 1, "kits");
    }
    lua_settop(L, top);
    return result;
}

/* presses userdata: the held presses as the next step will read them, live. Keys: the button
 * names (pressed this frame, not yet read), "<button>_held" (levels), move_x, move_y, dt (s). */
static int l_presses_index(lua_State *L) {
    gait__presses *p = (gait__presses *)luaL_checkudata(L, 1, GAIT__MT_PRESSES);
    size_t klen = 0;
    const char *k = luaL_checklstring(L, 2, &klen);
    if (!p->box->world || !gait_character_valid(p->box->world, p->id))
        return luaL_error(L, "presses: character #%d is stale", p->id.index1);
    const gait__character *ch = gait__character_get_const(p->box->world, p->id);
    static const size_t lens[GAIT_BUTTON_COUNT] = {4, 6, 4, 6, 5, 5, 4, 6};
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++) {
        size_t n = lens[i];
        if ((klen != n && klen != n + 5) || memcmp(k, button_names[i], n) != 0) continue;
        if (k[n] == 0) {
            lua_pushboolean(L, (ch->pressed >> i) & 1u);
            return 1;
        }
        if (strcmp(k + n, "_held") == 0) {
            lua_pushboolean(L, (ch->held >> i) & 1u);
            return 1;
        }
    }
    if (strcmp(k, "move_x") == 0) { lua_pushnumber(L, ch->move_x); return 1; }
    if (strcmp(k, "move_y") == 0) { lua_pushnumber(L, ch->move_y); return 1; }
    if (strcmp(k, "dt") == 0) { lua_pushnumber(L, p->dt); return 1; }
    return luaL_error(L, "presses has no field \"%s\" (fields: a button name, <button>_held, "
                         "move_x, move_y, dt; buttons: jump, sprint, drop, attack, skill, burst, "
                         "walk, crouch)", k);
}

static int l_presses_tostring(lua_State *L) {
    gait__presses *p = (gait__presses *)luaL_checkudata(L, 1, GAIT__MT_PRESSES);
    const gait__character *ch = p->box->world ? gait__character_get_const(p->box->world, p->id) : NULL;
    if (!ch) {
        lua_pushliteral(L, "gait.presses (stale)");
        return 1;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "gait.presses {");
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++)
        if ((ch->pressed >> i) & 1u) {
            luaL_addchar(&b, ' ');
            luaL_addstring(&b, button_names[i]);
        }
    luaL_addstring(&b, " }");
    luaL_pushresult(&b);
    return 1;
}

/* ---- gate hooks ------------------------------------------------------------------------------ */

int gait__push_box_world(lua_State *L, gait__wbox *b, const gait_world *world) {
    lua_getfield(L, LUA_REGISTRYINDEX, REG_BOXES);
    if (!lua_istable(L, -1)) return 0;
    lua_pushlightuserdata(L, b);
    lua_rawget(L, -2);
    int wud = lua_gettop(L);
    if (lua_isnil(L, wud) || b->world != world) return 0;
    return wud;
}

static gait_state gate_trampoline(gait_world *world, gait_character_id id, gait_state from,
                                  gait_state proposed, void *user) {
    gait__wbox *b = (gait__wbox *)user;
    gait_script *s = b->script;
    lua_State *L = s->L;
    int top = lua_gettop(L);
    gait_state result = proposed;
    int wud = gait__push_box_world(L, b, world);
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
    if (gait__script_pcall(s, 3, 1, what, true) != GAIT_OK) goto out;
    if (lua_type(L, -1) == LUA_TSTRING) {
        int st = gait_state_from_name(lua_tostring(L, -1));
        if (st < 0) gait__script_error(s, "%s returned \"%s\", not a state name", what, lua_tostring(L, -1));
        else result = (gait_state)st;
    } else if (!lua_isnil(L, -1)) {
        gait__script_error(s, "%s returned a %s; return a state name, or nil to allow", what,
                           luaL_typename(L, -1));
    }
out:
    lua_settop(L, top);
    return result;
}

/* ch:set_gate_hook(function(ch, from, proposed) return state_or_nil end | nil)
 * Called only when the gates propose a change; return nil or `proposed` to allow, `from` to veto,
 * another state to redirect (it must be an edge from `from`). nil removes the hook: then no Lua
 * runs at all. */
static int l_ch_set_gate_hook(lua_State *L) {
    CH(L);
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    lua_getfenv(L, 1);
    lua_getfield(L, -1, "gate_hooks");
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, c->id.index1);
    if (lua_isnil(L, 2)) {
        gait_character_set_gate_hook(w, c->id, NULL, NULL);
    } else {
        jit_off(L, 2); /* so the budget can stop it */
        gait_character_set_gate_hook(w, c->id, gate_trampoline, c->box);
    }
    return 0;
}

void gait__clear_gate_hooks(gait_script *s, gait_world *world) {
    (void)s;
    for (int i = 0; i < world->capacity; i++) {
        gait__character *ch = &world->characters[i];
        if (ch->gate_hook == gate_trampoline) {
            ch->gate_hook = NULL;
            ch->gate_user = NULL;
        }
    }
}

/* ch:destroy(): the character leaves the world; every userdata naming it goes stale */
static int l_ch_destroy(lua_State *L) {
    CH(L);
    gait_character_set_gate_hook(w, c->id, NULL, NULL);
    lua_getfenv(L, 1);
    lua_getfield(L, -1, "gate_hooks");
    lua_pushnil(L);
    lua_rawseti(L, -2, c->id.index1);
    if (find_kit_entry(L, 1)) {
        lua_pushboolean(L, 1);
        lua_rawseti(L, -2, GAIT__KIT_DEAD);
    }
    gait_character_destroy(w, c->id);
    return 0;
}

static int l_ch_tostring(lua_State *L) {
    gait__chud *c = (gait__chud *)luaL_checkudata(L, 1, GAIT__MT_CHARACTER);
    const gait__character *ch = c->box->world && gait_character_valid(c->box->world, c->id)
                                    ? gait__character_get_const(c->box->world, c->id) : NULL;
    if (!ch) lua_pushfstring(L, "gait.character #%d (stale)", c->id.index1);
    else
        lua_pushfstring(L, "gait.character #%d (%s, %f stamina)", c->id.index1,
                        gait_state_name(ch->phase.state), ch->stamina.value);
    return 1;
}

static int l_ch_eq(lua_State *L) {
    gait__chud *a = (gait__chud *)luaL_checkudata(L, 1, GAIT__MT_CHARACTER);
    gait__chud *b = (gait__chud *)luaL_checkudata(L, 2, GAIT__MT_CHARACTER);
    lua_pushboolean(L, a->box == b->box && a->id.index1 == b->id.index1 &&
                           a->id.generation == b->id.generation);
    return 1;
}

/* ---- gait.input ------------------------------------------------------------------------------ */

static int l_input_mask(lua_State *L) {
    lua_pushnumber(L, gait__check_buttons(L, 1, "buttons"));
    return 1;
}

static int l_input_names(lua_State *L) {
    lua_Number v = luaL_checknumber(L, 1);
    if (!(v >= 0 && v <= GAIT_BUTTON_ALL)) return luaL_argerror(L, 1, "bits must be in 0..255");
    gait__push_buttons(L, (uint32_t)v);
    return 1;
}

int gait__open_input(lua_State *L) {
    static const luaL_Reg fns[] = {{"mask", l_input_mask}, {"names", l_input_names}, {NULL, NULL}};
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    lua_createtable(L, GAIT_BUTTON_COUNT, 0);
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++) {
        lua_pushstring(L, button_names[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "buttons");
    return 1;
}

/* ---- module tables --------------------------------------------------------------------------- */

static const luaL_Reg world_methods[] = {
    {"destroy", l_world_destroy},
    {"set_terrain", l_world_set_terrain},
    {"load_heightmap", l_world_load_heightmap},
    {"set_sea_level", l_world_set_sea_level},
    {"add_water", l_world_add_water},
    {"clear_water", l_world_clear_water},
    {"add_landmark", l_world_add_landmark},
    {"remove_landmark", l_world_remove_landmark},
    {"landmark_count", l_world_landmark_count},
    {"terrain_height", l_world_terrain_height},
    {"water_at", l_world_water_at},
    {"ray_cast", l_world_ray_cast},
    {"spawn", l_world_spawn},
    {"character", l_world_character},
    {"characters", l_world_characters},
    {"character_count", l_world_character_count},
    {"run_kits", l_world_run_kits},
    {"update", l_world_update},
    {"step", l_world_step},
    {"step_count", l_world_step_count},
    {"step_seconds", l_world_step_seconds},
    {"alpha", l_world_alpha},
    {"max_steps_per_frame", l_world_max_steps_per_frame},
    {"locomotion", l_world_locomotion},
    {"measured", l_world_measured},
    {"set_locomotion", l_world_set_locomotion},
    {"set_provisional_locomotion", l_world_set_provisional_locomotion},
    {"clear_locomotion", l_world_clear_locomotion},
    {"set_targets", l_world_set_targets},
    {"targets", l_world_targets},
    {"snapshot", l_world_snapshot},
    {"restore", l_world_restore},
    {NULL, NULL},
};

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
    {"set_kit", character_set_kit},
    {"kit", l_ch_kit},
    {"set_gate_hook", l_ch_set_gate_hook},
    {"destroy", l_ch_destroy},
    {NULL, NULL},
};

static const luaL_Reg landmark_methods[] = {
    {"info", l_landmark_info},
    {"remove", l_landmark_remove},
    {NULL, NULL},
};

/* metatable `name` with __index = a fresh methods table; leaves the methods table pushed */
static void new_class(lua_State *L, const char *name, const luaL_Reg *methods) {
    luaL_newmetatable(L, name);
    lua_newtable(L);
    luaL_register(L, NULL, methods);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "__index");
    lua_remove(L, -2);
}

int gait__open_world(lua_State *L) {
    lua_newtable(L); /* box -> world userdata, weak values */
    lua_newtable(L);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_BOXES);

    new_class(L, GAIT__MT_WORLD, world_methods);
    luaL_getmetatable(L, GAIT__MT_WORLD);
    lua_pushcfunction(L, l_world_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, l_world_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    int methods = lua_gettop(L);

    new_class(L, GAIT__MT_LANDMARK, landmark_methods);
    luaL_getmetatable(L, GAIT__MT_LANDMARK);
    lua_pushcfunction(L, l_landmark_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 2);

    luaL_newmetatable(L, GAIT__MT_PRESSES);
    lua_pushcfunction(L, l_presses_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_presses_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);

    lua_newtable(L);
    lua_pushcfunction(L, l_world_new);
    lua_setfield(L, -2, "new");
    lua_pushcfunction(L, l_world_host);
    lua_setfield(L, -2, "host");
    lua_pushvalue(L, methods); /* Lua may add methods (lua/boot.lua does) */
    lua_setfield(L, -2, "methods");
    lua_remove(L, methods);
    return 1;
}

int gait__open_character(lua_State *L) {
    new_class(L, GAIT__MT_CHARACTER, character_methods);
    luaL_getmetatable(L, GAIT__MT_CHARACTER);
    lua_pushcfunction(L, l_ch_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushcfunction(L, l_ch_eq);
    lua_setfield(L, -2, "__eq");
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
