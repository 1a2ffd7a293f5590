/* The tuning in force, seen from the sandbox: runtime/sandbox/tuning.lua run in the Lua layer's
 * own state (the numbers come from the runtime's bindings: w:locomotion, gait.tuning.schema),
 * called from C for the panel, the reload report and the write-back. */
#include "sandbox.h"

#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

struct sb_tuning {
    gait_script *script;
    lua_State *L;
    int module;          /* registry refs */
    int snapshot;
    char error[SB_ERROR_MAX];
};

static int traceback(lua_State *L) {
    luaL_traceback(L, L, lua_tostring(L, 1), 1);
    return 1;
}

/* Calls module.fn with the values pushed after it (nargs), leaving nresults; false with
 * t->error set on an error (the stack back as it was). */
static bool call(sb_tuning *t, const char *fn, int nargs, int nresults) {
    lua_State *L = t->L;
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback);
    lua_rawgeti(L, LUA_REGISTRYINDEX, t->module);
    lua_getfield(L, -1, fn);
    lua_remove(L, -2);
    lua_insert(L, base + 1);        /* fn under the args */
    lua_insert(L, base + 1);        /* traceback under fn */
    if (lua_pcall(L, nargs, nresults, base + 1) != 0) {
        snprintf(t->error, sizeof t->error, "tuning view: %s", lua_tostring(L, -1));
        lua_settop(L, base);
        return false;
    }
    lua_remove(L, base + 1);        /* the traceback handler */
    return true;
}

static void push_host(lua_State *L) {
    lua_getglobal(L, "require");
    lua_pushliteral(L, "gait");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "world");
    lua_getfield(L, -1, "host");
    lua_call(L, 0, 1);
    lua_replace(L, -3);
    lua_pop(L, 1);
}

sb_tuning *sb_tuning_open(gait_script *script, const char *root, char *err, size_t cap) {
    sb_tuning *t = calloc(1, sizeof *t);
    if (!t) { snprintf(err, cap, "out of memory"); return NULL; }
    t->script = script;
    t->L = gait_script_lua(script);
    t->module = t->snapshot = LUA_NOREF;
    char path[SB_PATH_MAX];
    sb_path_join(path, sizeof path, root, "runtime/sandbox/tuning.lua");
    lua_State *L = t->L;
    lua_pushcfunction(L, traceback);
    if (luaL_loadfile(L, path) != 0 || lua_pcall(L, 0, 1, -2) != 0 || !lua_istable(L, -1)) {
        snprintf(err, cap, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "tuning.lua returned no table");
        lua_pop(L, 2);
        free(t);
        return NULL;
    }
    t->module = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
    return t;
}

void sb_tuning_close(sb_tuning *t) {
    if (!t) return;
    luaL_unref(t->L, LUA_REGISTRYINDEX, t->module);
    luaL_unref(t->L, LUA_REGISTRYINDEX, t->snapshot);
    free(t);
}

const char *sb_tuning_error(const sb_tuning *t) { return t ? t->error : "no tuning view"; }

bool sb_tuning_remember(sb_tuning *t) {
    push_host(t->L);
    if (!call(t, "snapshot", 1, 1)) return false;
    luaL_unref(t->L, LUA_REGISTRYINDEX, t->snapshot);
    t->snapshot = luaL_ref(t->L, LUA_REGISTRYINDEX);
    return true;
}

int sb_tuning_changes(sb_tuning *t, gait_body_type current, char *out, size_t cap) {
    lua_State *L = t->L;
    out[0] = '\0';
    if (t->snapshot == LUA_NOREF) return sb_tuning_remember(t) ? 0 : -1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, t->snapshot);
    push_host(L);
    if (!call(t, "snapshot", 1, 1)) { lua_pop(L, 1); return -1; }
    lua_pushvalue(L, -1);
    int keep = luaL_ref(L, LUA_REGISTRYINDEX);   /* the new snapshot becomes the one to diff against */
    lua_pushstring(L, gait_body_type_name(current));
    if (!call(t, "diff", 3, 1)) { luaL_unref(L, LUA_REGISTRYINDEX, keep); return -1; }
    luaL_unref(L, LUA_REGISTRYINDEX, t->snapshot);
    t->snapshot = keep;
    int n = (int)lua_objlen(L, -1), changes = 0;
    size_t o = 0;
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *line = lua_tostring(L, -1);
        if (line && o + strlen(line) + 2 < cap) {
            o += (size_t)snprintf(out + o, cap - o, "%s%s", o ? "\n" : "", line);
            if (line[0] != ' ') changes++;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return changes;
}

static const char *field_string(lua_State *L, const char *key, char *buf, size_t cap) {
    lua_getfield(L, -1, key);
    snprintf(buf, cap, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "");
    lua_pop(L, 1);
    return buf;
}

static double field_number(lua_State *L, const char *key) {
    lua_getfield(L, -1, key);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

static bool field_bool(lua_State *L, const char *key) {
    lua_getfield(L, -1, key);
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

int sb_tuning_rows(sb_tuning *t, gait_body_type body, sb_tuning_row *rows, int cap) {
    lua_State *L = t->L;
    push_host(L);
    lua_pushstring(L, gait_body_type_name(body));
    if (!call(t, "view", 2, 1)) return -1;
    int n = (int)lua_objlen(L, -1), k = 0;
    for (int i = 1; i <= n && k < cap; i++, k++) {
        lua_rawgeti(L, -1, i);
        sb_tuning_row *r = &rows[k];
        field_string(L, "key", r->key, sizeof r->key);
        field_string(L, "unit", r->unit, sizeof r->unit);
        field_string(L, "file", r->file, sizeof r->file);
        field_string(L, "block", r->block, sizeof r->block);
        field_string(L, "group", r->group, sizeof r->group);
        r->value = field_number(L, "value");
        r->min = field_number(L, "min");
        r->max = field_number(L, "max");
        r->line = (int)field_number(L, "line");
        r->set = field_bool(L, "set");
        r->measured = field_bool(L, "measured");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return k;
}

/* Both return (true | nil, message) in Lua. */
static bool ok_or_message(sb_tuning *t, int *line) {
    lua_State *L = t->L;
    bool ok = lua_toboolean(L, -2);
    if (!ok) snprintf(t->error, sizeof t->error, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "failed");
    else if (line) *line = (int)lua_tointeger(L, -1);
    lua_pop(L, 2);
    return ok;
}

bool sb_tuning_apply(sb_tuning *t, gait_body_type body, const char *key, double value) {
    push_host(t->L);
    lua_pushstring(t->L, gait_body_type_name(body));
    lua_pushstring(t->L, key);
    lua_pushnumber(t->L, value);
    if (!call(t, "apply", 4, 2)) return false;
    if (!ok_or_message(t, NULL)) return false;
    return sb_tuning_remember(t);   /* a live edit is not a change the next reload reports */
}

bool sb_tuning_write(sb_tuning *t, const sb_tuning_row *row, double value, int *out_line) {
    lua_pushstring(t->L, row->file);
    lua_pushstring(t->L, row->block);
    lua_pushstring(t->L, row->key);
    lua_pushnumber(t->L, value);
    if (!call(t, "write", 4, 2)) return false;
    return ok_or_message(t, out_line);
}
