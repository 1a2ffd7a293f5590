/* Argument checks shared by the bindings, and the one way they report an error
 * (lua/README.md, "Errors"):
 *
 *   misuse            raises a Lua error: "file:line: what: why (valid: ...)". A wrong type, NaN,
 *                     an unknown key, a value out of range, an unknown name, a stale character,
 *                     a destroyed world, a call that is not allowed now (inside a hook, from an
 *                     untrusted script). luaL_error and luaL_argerror put the caller's file:line
 *                     in front; the valid names or the range come after.
 *   expected failure  returns nil, message: what the caller cannot know beforehand — a file that
 *                     does not load, a full character pool, stamina that cannot pay, memory.
 *   nothing found     a query that finds nothing (a ray that hits nothing, no terrain there, no
 *                     action) returns nil alone. */
#include "script_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int gait__lua_fail(lua_State *L, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
}

void gait__push_name_list(lua_State *L, const char *const *names, int count) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    bool first = true;
    for (int i = 0; i < count; i++) {
        if (!names[i]) continue;
        if (!first) luaL_addstring(&b, ", ");
        first = false;
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
    gait__push_name_list(L, names, count);
    return luaL_argerror(L, arg, lua_pushfstring(L, "%s \"%s\" is not one of: %s", what, s,
                                                 lua_tostring(L, -1)));
}

int gait__enum_at(lua_State *L, int idx, const char *const *names, int count, const char *what) {
    if (lua_type(L, idx) != LUA_TSTRING)
        return luaL_error(L, "%s must be a string, not a %s", what, luaL_typename(L, idx));
    const char *s = lua_tostring(L, idx);
    for (int i = 0; i < count; i++)
        if (names[i] && strcmp(s, names[i]) == 0) return i;
    gait__push_name_list(L, names, count);
    return luaL_error(L, "%s \"%s\" is not one of: %s", what, s, lua_tostring(L, -1));
}

int gait__check_body_type(lua_State *L, int arg) {
    const char *names[GAIT_BODY_TYPE_COUNT];
    for (int i = 0; i < GAIT_BODY_TYPE_COUNT; i++) names[i] = gait_body_type_name((gait_body_type)i);
    return gait__check_enum(L, arg, names, GAIT_BODY_TYPE_COUNT, "body type");
}

double gait__field_number(lua_State *L, int t, const char *key, double def, const char *what) {
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

int gait__push_xyz(lua_State *L, gait_vec3 v) {
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

/* Each pushes v and sets it as t[key], t being the table just below it. */
void gait__set_number(lua_State *L, const char *key, double v) { lua_pushnumber(L, v); lua_setfield(L, -2, key); }
void gait__set_integer(lua_State *L, const char *key, lua_Integer v) { lua_pushinteger(L, v); lua_setfield(L, -2, key); }
void gait__set_bool(lua_State *L, const char *key, bool v) { lua_pushboolean(L, v); lua_setfield(L, -2, key); }
void gait__set_string(lua_State *L, const char *key, const char *v) { lua_pushstring(L, v); lua_setfield(L, -2, key); }
void gait__set_vec3(lua_State *L, const char *key, gait_vec3 v) { gait__push_vec3(L, v); lua_setfield(L, -2, key); }
void gait__set_function(lua_State *L, const char *key, lua_CFunction fn) { lua_pushcfunction(L, fn); lua_setfield(L, -2, key); }

void gait__check_keys(lua_State *L, int t, const char *const *keys, int count, const char *what) {
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        bool ok = false;
        if (lua_type(L, -1) == LUA_TSTRING)
            for (int i = 0; i < count && !ok; i++) ok = strcmp(lua_tostring(L, -1), keys[i]) == 0;
        if (!ok) {
            lua_pushvalue(L, -1);
            const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : luaL_typename(L, -1);
            gait__push_name_list(L, keys, count);
            luaL_error(L, "%s: unknown key \"%s\" (known keys: %s)", what, k, lua_tostring(L, -1));
        }
    }
}

double gait__check_finite(lua_State *L, int arg) {
    double v = luaL_checknumber(L, arg);
    if (!isfinite(v)) luaL_argerror(L, arg, "must be finite");
    return v;
}

void gait__check_unlocked(lua_State *L, const gait_world *w, const char *what) {
    if (gait_world_is_locked(w))
        luaL_error(L, "%s: not allowed while the world steps (inside one of its gate or traversal "
                      "hooks); a hook may read, set input, take presses, spend and face "
                      "(lua/README.md, \"Inside hooks\")", what);
}

void gait__check_options(lua_State *L, const gait_world *w, const char *call,
                         const char *const *keys, int count, const char *what) {
    gait__check_unlocked(L, w, call);
    luaL_checktype(L, 2, LUA_TTABLE);
    gait__check_keys(L, 2, keys, count, what);
}

void gait__check_no_hook(lua_State *L, gait_script *s, const char *what) {
    if (s->hook_depth > 0)
        luaL_error(L, "%s: not allowed inside a gate or traversal hook (a world is mid-step; "
                      "lua/README.md, \"Inside hooks\")", what);
}
