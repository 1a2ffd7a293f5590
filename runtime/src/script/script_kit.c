/* Kits: gait.kit (load, get), ch:set_kit / ch:kit, w:run_kits and the per-frame kit calls.
 *
 * A kit file is untrusted code: it is loaded sandboxed (script_sandbox.c) and its on_presses runs
 * under the instruction budget. What it returns is kept as a plain copy of its fields, read raw:
 * no metamethod of a kit's table runs outside a budgeted call. */
#include "script_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <luajit.h>

bool gait__kit_path(gait_script *s, const char *kit, char *out, size_t cap, char *name,
                    size_t name_cap) {
    size_t n = strlen(kit);
    if (n > 4 && strcmp(kit + n - 4, ".lua") == 0) {
        if ((size_t)snprintf(out, cap, "%s", kit) >= cap) return false;
        const char *base = strrchr(kit, '/');
        base = base ? base + 1 : kit;
        size_t bn = strlen(base) - 4;
        if (bn >= name_cap) bn = name_cap - 1;
        memcpy(name, base, bn);
        name[bn] = 0;
        return true;
    }
    for (const char *p = kit; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) return false;
    if (n == 0 || n >= name_cap) return false;
    snprintf(name, name_cap, "%s", kit);
    return (size_t)snprintf(out, cap, "%s/scripts/kits/%s.lua", s->root, kit) < cap;
}

/* Clears the "failed" mark of every entry using kit `name` in every world (a reload gives a
 * failed kit a new chance). */
static void kit_clear_failed(lua_State *L, const char *name) {
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_WORLDS);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        lua_getfenv(L, -1);
        lua_getfield(L, -1, "kits");
        int n = (int)lua_objlen(L, -1);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            lua_rawgeti(L, -1, GAIT__KIT_KIT);
            if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), name) == 0) {
                lua_pushnil(L);
                lua_rawseti(L, -3, GAIT__KIT_FAILED);
            }
            lua_pop(L, 2);
        }
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

/* Replaces the table at idx with a shallow raw copy (no metatable). */
static void shallow_copy(lua_State *L, int idx) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
    lua_replace(L, idx);
}

gait_status gait__kit_load(gait_script *s, const char *path, const char *name) {
    lua_State *L = s->L;
    int top = lua_gettop(L);
    gait__script_watch(s, path, GAIT__WATCH_KIT, name);
    gait_status st = gait__sandbox_loadfile(s, path);
    if (st != GAIT_OK) return st;
    char what[96];
    snprintf(what, sizeof what, "kit %s", name);
    st = gait__script_pcall(s, 0, 1, what, GAIT__BUDGET_CALL);
    if (st != GAIT_OK) return st;
    if (!lua_istable(L, -1)) {
        gait__script_error(s, "%s:1: a kit file must return a table with on_presses(character, "
                           "presses, state); it returned a %s", path, luaL_typename(L, -1));
        lua_settop(L, top);
        return GAIT_ERR_SCRIPT;
    }
    shallow_copy(L, -1);
    lua_pushliteral(L, "on_presses");
    lua_rawget(L, -2);
    if (!lua_isfunction(L, -1)) {
        gait__script_error(s, "%s:1: the kit's on_presses is a %s, not a function", path,
                           luaL_typename(L, -1));
        lua_settop(L, top);
        return GAIT_ERR_SCRIPT;
    }
    lua_pop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, name);
    lua_settop(L, top);
    kit_clear_failed(L, name);
    return GAIT_OK;
}

/* Pushes the kit definition `name` as the caller may see it: itself for trusted code, a
 * read-only view for a script (kits are shared: one may not change another's). */
static void push_kitdef(lua_State *L, gait_script *s, const char *name) {
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
    if (lua_istable(L, -1) && gait__untrusted(L, s)) {
        gait__freeze(L, -1, "a kit");
        lua_remove(L, -2);
    }
}

/* gait.kit.load(name_or_path) -> kit table, name | nil, message */
static int l_kit_load(lua_State *L) {
    gait_script *s = gait__script_from(L);
    gait__check_no_hook(L, s, "gait.kit.load");
    const char *kit = luaL_checkstring(L, 1);
    char path[GAIT__PATH_MAX], name[64];
    if (!gait__kit_path(s, kit, path, sizeof path, name, sizeof name))
        return luaL_argerror(L, 1, "a kit is a name of [a-z0-9_] (scripts/kits/<name>.lua) or a "
                                   "path ending in .lua");
    if (!gait__untrusted(L, s)) gait__grant(s, path);
    if (gait__kit_load(s, path, name) != GAIT_OK) return gait__lua_fail(L, "%s", s->error);
    push_kitdef(L, s, name);
    lua_pushstring(L, name);
    return 2;
}

/* gait.kit.get(name) -> the last good kit table, or nil */
static int l_kit_get(lua_State *L) {
    push_kitdef(L, gait__script_from(L), luaL_checkstring(L, 1));
    return 1;
}

/* ---- a character's kit --------------------------------------------------------------------- */

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
        lua_rawgeti(L, -1, GAIT__KIT_DEAD);
        bool dead = lua_toboolean(L, -1);
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

void gait__kit_forget(lua_State *L, int ch_idx) {
    if (find_kit_entry(L, ch_idx)) {
        lua_pushboolean(L, 1);
        lua_rawseti(L, -2, GAIT__KIT_DEAD);
        lua_pop(L, 1);
    }
}

/* ch:set_kit("sword" | "path/kit.lua" | {on_presses = fn} | nil) -> true | nil, message */
int gait__character_set_kit(lua_State *L) {
    gait__chud *c = gait__check_character(L, 1);
    gait_script *s = c->box->script;
    lua_settop(L, 2);
    gait__motion_kit_fresh(c->box->world, c->id); /* the last kit's modes and cooldowns go */
    if (lua_isnil(L, 2)) {
        gait__kit_forget(L, 1);
        lua_pushboolean(L, 1);
        return 1;
    }
    bool untrusted = gait__untrusted(L, s);
    if (lua_type(L, 2) == LUA_TSTRING) {
        char path[GAIT__PATH_MAX], name[64];
        if (!gait__kit_path(s, lua_tostring(L, 2), path, sizeof path, name, sizeof name))
            return luaL_argerror(L, 2, "a kit is a name of [a-z0-9_] (scripts/kits/<name>.lua), a "
                                       "path ending in .lua, or a table with on_presses");
        lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
        lua_getfield(L, -1, name);
        bool have = !lua_isnil(L, -1);
        lua_pop(L, 2);
        if (!have) {
            gait__check_no_hook(L, s, "ch:set_kit (loading a kit file)");
            if (!untrusted) gait__grant(s, path);
            if (gait__kit_load(s, path, name) != GAIT_OK) return gait__lua_fail(L, "%s", s->error);
        }
        lua_pushstring(L, name);
        lua_replace(L, 2);
    } else if (lua_istable(L, 2)) {
        if (untrusted) shallow_copy(L, 2); /* read once: later writes to it change nothing */
        lua_pushliteral(L, "on_presses");
        lua_rawget(L, 2);
        if (!lua_isfunction(L, -1))
            return luaL_argerror(L, 2, "a kit table needs on_presses(character, presses, state)");
        if (untrusted) {
            gait__sandbox_wrap(L, -1);
            lua_pushliteral(L, "on_presses");
            lua_pushvalue(L, -2);
            lua_rawset(L, 2);
        }
        /* so the instruction budget can stop it */
        if (!lua_iscfunction(L, -1)) luaJIT_setmode(L, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
        lua_pop(L, 1);
    } else {
        return luaL_argerror(L, 2, "a kit is a name, a path or a table");
    }
    gait__kit_forget(L, 1); /* a new kit: a new state */
    /* whether on_presses is untrusted: a kit file's always is; a table's, as its function is */
    bool untrusted_fn = true;
    if (lua_istable(L, 2)) {
        lua_pushliteral(L, "on_presses");
        lua_rawget(L, 2);
        untrusted_fn = gait__function_untrusted(L, -1);
        lua_pop(L, 1);
    }
    lua_createtable(L, 7, 0);
    int e = lua_gettop(L);
    lua_pushboolean(L, untrusted_fn);
    lua_rawseti(L, e, GAIT__KIT_UNTRUSTED);
    lua_pushvalue(L, 1);
    lua_rawseti(L, e, GAIT__KIT_CH);
    lua_pushvalue(L, 2);
    lua_rawseti(L, e, GAIT__KIT_KIT);
    lua_newtable(L);
    lua_rawseti(L, e, GAIT__KIT_STATE);
    gait__push_presses(L, c->box, c->id);
    lua_rawseti(L, e, GAIT__KIT_PRESSES);
    lua_getfenv(L, 1);
    lua_getfield(L, -1, "kits");
    lua_pushvalue(L, e);
    lua_rawseti(L, -2, (int)lua_objlen(L, -2) + 1);
    lua_pushboolean(L, 1);
    return 1;
}

/* ch:kit() -> the kit's name (or table) and its per-character state table, or nil */
int gait__character_kit(lua_State *L) {
    gait__check_character(L, 1);
    if (!find_kit_entry(L, 1)) return 0;
    lua_rawgeti(L, -1, GAIT__KIT_KIT);
    lua_rawgeti(L, -2, GAIT__KIT_STATE);
    return 2;
}

/* ---- the per-frame calls ------------------------------------------------------------------- */

gait_status gait__run_kits(gait_script *s, int world_idx, double dt) {
    lua_State *L = s->L;
    gait__wbox *b = (gait__wbox *)lua_touserdata(L, world_idx);
    if (!b || !b->world) return GAIT_OK;
    if (!lua_checkstack(L, 16)) return GAIT_ERR_OUT_OF_MEMORY;
    int top = lua_gettop(L);
    gait_status result = GAIT_OK;
    lua_getfenv(L, world_idx);
    lua_getfield(L, -1, "kits");
    int kits = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
    int defs = lua_gettop(L);
    int n = (int)lua_objlen(L, kits);
    bool any_dead = false;
    /* the kit running now (a kit may run another world's kits: the outer one's comes back) */
    const gait_world *outer_world = s->call_world;
    int outer_character = s->call_character;
    gait__budget_hold(s); /* once for the batch: each call still counts its own */
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
        s->call_world = b->world; /* the motion verbs move only this kit's character */
        lua_pushvalue(L, kit);
        if (s->call_kit) lua_rawget(L, defs);
        if (!lua_istable(L, -1)) continue;
        lua_pushliteral(L, "on_presses");
        lua_rawget(L, -2);
        if (!lua_isfunction(L, -1)) continue;
        lua_rawgeti(L, e, GAIT__KIT_PRESSES);
        gait__presses *p = (gait__presses *)lua_touserdata(L, -1);
        if (p) p->dt = dt;
        lua_pushvalue(L, ch);
        lua_insert(L, -2);
        lua_rawgeti(L, e, GAIT__KIT_STATE);
        lua_rawgeti(L, e, GAIT__KIT_UNTRUSTED);
        int untrusted = lua_toboolean(L, -1);
        lua_pop(L, 1);
        if (gait__script_pcall_as(s, 3, 0, NULL, GAIT__BUDGET_CALL, untrusted) != GAIT_OK) {
            lua_pushboolean(L, 1);
            lua_rawseti(L, e, GAIT__KIT_FAILED);
            result = GAIT_ERR_SCRIPT;
        }
    }
    gait__budget_release(s);
    s->call_kit = NULL;
    s->call_world = outer_world;
    s->call_character = outer_character;
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

/* w:run_kits(frame_seconds) -> whether every kit ran: every kit of this world reads the held
 * presses (gait_script_before_step for a world the script holds) */
static int l_world_run_kits(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:run_kits()");
    double dt = luaL_optnumber(L, 2, 0);
    if (!isfinite(dt) || dt < 0) return luaL_argerror(L, 2, "frame seconds must be finite and >= 0");
    lua_settop(L, 1);
    gait_status st = gait__run_kits(b->script, 1, dt);
    lua_pushboolean(L, st == GAIT_OK);
    return 1;
}

int gait__open_kit(lua_State *L) {
    static const luaL_Reg world_methods[] = {{"run_kits", l_world_run_kits}, {NULL, NULL}};
    gait__add_methods(L, GAIT__MT_WORLD, world_methods);
    static const luaL_Reg fns[] = {{"load", l_kit_load}, {"get", l_kit_get}, {NULL, NULL}};
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    return 1;
}
