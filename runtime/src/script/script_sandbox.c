/* Untrusted code: the library it gets, its environments, the read-only views of the gait API,
 * its loaders, and how a binding tells a trusted caller from an untrusted one.
 *
 * A kit, a tuning file, a world file, a scenario named by a replay: each is content a user may
 * have downloaded. Such a file is loaded here, in text form only, into an environment of its
 * own whose globals fall back on a shared base of safe functions:
 *
 *   assert error ipairs next pairs pcall xpcall print select tonumber tostring type unpack
 *   rawequal rawget rawset getmetatable setmetatable collectgarbage("count") require load
 *   loadstring loadfile dofile _G _VERSION, and the libraries string table math bit coroutine
 *   and os.{clock, time, date, difftime}.
 *
 * Not there: io, os.execute and the rest of os, debug, ffi, jit, package, module, newproxy
 * (the only finalizer a script could make: LuaJIT runs no __gc of tables), getfenv, setfenv,
 * string.dump, gcinfo. What is there is changed where it had to be:
 *   - load / loadstring / loadfile / dofile refuse bytecode (a corrupted chunk crashes the VM)
 *     and files outside the script root or the directories the host named files in; a chunk
 *     they make runs in the caller's environment with the JIT off (the budget must see it);
 *   - require loads only Lua files, by a plain name, from beside the file that started it or
 *     from the root's lua/; "gait" gives the read-only view of the API;
 *   - pcall, xpcall and coroutine.resume raise a budget trip again instead of returning it;
 *   - the string functions charge their work to the budget, and the pattern functions count
 *     their steps (script_pattern.c): an unbounded backtracking pattern is stopped;
 *   - the library tables and every table of the gait API are read-only proxies (pairs, ipairs,
 *     next, unpack and table.concat see through them; rawset and table.insert/remove/sort
 *     refuse them), the string metatable is locked, and so are the metatables of gait's
 *     userdata: one script cannot change what another sees.
 *
 * A call counts as untrusted while an untrusted function is being called (untrusted_depth) or
 * one is anywhere on the Lua stack; coroutine.create/wrap start a coroutine in an untrusted
 * trampoline so a coroutine of a C function cannot hide where it came from. */
#include "script_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <luajit.h>

#define REG_ENVS    "gait.sandbox.envs"    /* weak-keyed: untrusted environment -> true */
#define REG_FROZEN  "gait.sandbox.frozen"  /* weak-keyed: read-only proxy -> its target */
#define REG_BASE    "gait.sandbox.base"    /* the shared base of safe globals */
#define REG_ENV_MT  "gait.sandbox.env_mt"  /* every environment's (locked) metatable */
#define REG_VIEW    "gait.sandbox.view"    /* the read-only view of the gait module (lazy) */
#define REG_PRELUDE "gait.sandbox.prelude" /* the Lua-side wrappers (pcall, coroutine ...) */

#define PLAIN_DEPTH_MAX 100
/* A call from C into a script's function costs about 100 ns beyond its own instructions (~30
 * interpreted instructions): charged where C calls Lua in a loop. */
#define CHARGE_C_TO_LUA 30

/* ---- trust --------------------------------------------------------------------------------- */

/* Whether the function at the top of the stack has an untrusted environment. */
static bool top_function_untrusted(lua_State *L) {
    if (!lua_isfunction(L, -1) || lua_iscfunction(L, -1)) return false;
    lua_getfenv(L, -1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, gait__script_from(L)->ref_envs);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 2);
        return false;
    }
    lua_insert(L, -2);
    lua_rawget(L, -2);
    bool u = lua_toboolean(L, -1);
    lua_pop(L, 2);
    return u;
}

bool gait__function_untrusted(lua_State *L, int idx) {
    lua_pushvalue(L, idx);
    bool u = top_function_untrusted(L);
    lua_pop(L, 1);
    return u;
}

bool gait__untrusted(lua_State *L, gait_script *s) {
    if (s->untrusted_depth > 0) return true;
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "f", &ar)) continue;
        bool u = top_function_untrusted(L);
        lua_pop(L, 1);
        if (u) return true;
    }
    return false;
}

void gait__require_trusted(lua_State *L, const char *what) {
    gait_script *s = gait__script_from(L);
    if (s && gait__untrusted(L, s))
        luaL_error(L, "%s is for trusted scripts (the host's own); a kit, hook, tuning or world "
                      "file may not use it (lua/README.md, \"Sandbox\")", what);
}

/* The directory of path, resolved; false when it does not resolve. */
static bool real_dir_of(const char *path, char *out, size_t cap) {
    char dir[GAIT__PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    char real[PATH_MAX];
    if (!realpath(dir, real)) return false;
    return (size_t)snprintf(out, cap, "%s", real) < cap;
}

void gait__grant(gait_script *s, const char *path) {
    if (!path || !strchr(path, '/')) {
        /* a bare name: a kit name (scripts/kits, under the root) or a file in the current
         * directory */
        size_t n = path ? strlen(path) : 0;
        if (n < 4 || strcmp(path + n - 4, ".lua") != 0) return;
    }
    char dir[GAIT__PATH_MAX];
    if (!real_dir_of(path, dir, sizeof dir)) return;
    for (int i = 0; i < s->granted_count; i++)
        if (strcmp(s->granted[i], dir) == 0) return;
    if (s->granted_count == GAIT__GRANT_MAX) {
        gait__script_logf(s, GAIT_LOG_WARN, "script: more than %d directories named; scripts "
                          "run from %s may not read beside it", GAIT__GRANT_MAX, dir);
        return;
    }
    snprintf(s->granted[s->granted_count++], GAIT__PATH_MAX, "%s", dir);
}

static bool under(const char *real, const char *dir) {
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/') return true;
    return strncmp(real, dir, n) == 0 && (real[n] == '/' || real[n] == 0);
}

bool gait__path_allowed(lua_State *L, gait_script *s, const char *path, char *err, size_t cap) {
    if (!gait__untrusted(L, s)) return true;
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        snprintf(err, cap, "%s: no such file (or a directory on its way is not there)", path);
        return false;
    }
    if (under(real, s->root_real)) return true;
    for (int i = 0; i < s->granted_count; i++)
        if (under(real, s->granted[i])) return true;
    snprintf(err, cap, "%s: outside the script root %s: an untrusted script reads only files "
             "under it or beside the file the host gave (lua/README.md, \"Sandbox\")", path,
             s->root_real);
    return false;
}

/* ---- read-only proxies ------------------------------------------------------------------- */

static int frozen_newindex(lua_State *L) {
    return luaL_error(L, "%s is read-only: a script cannot change what other scripts see "
                         "(keep your own table: local t = {})", lua_tostring(L, lua_upvalueindex(1)));
}

void gait__freeze(lua_State *L, int idx, const char *name) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    lua_newtable(L); /* the proxy: always empty, so every write reaches __newindex */
    lua_createtable(L, 0, 3);
    lua_pushvalue(L, idx);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, name);
    lua_pushcclosure(L, frozen_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushliteral(L, "read-only");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_getfield(L, LUA_REGISTRYINDEX, REG_FROZEN);
    lua_pushvalue(L, -2);
    lua_pushvalue(L, idx);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* Pushes the table a proxy at idx stands for, or the value itself when it is no proxy; returns
 * whether it was one. */
static bool push_target(lua_State *L, int idx) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    if (lua_istable(L, idx)) {
        lua_getfield(L, LUA_REGISTRYINDEX, REG_FROZEN);
        lua_pushvalue(L, idx);
        lua_rawget(L, -2);
        lua_remove(L, -2);
        if (!lua_isnil(L, -1)) return true;
        lua_pop(L, 1);
    }
    lua_pushvalue(L, idx);
    return false;
}

static bool is_frozen(lua_State *L, int idx) {
    bool f = push_target(L, idx);
    lua_pop(L, 1);
    return f;
}

/* ---- the see-through and guarded library functions --------------------------------------- */

static int l_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    push_target(L, 1);
    lua_replace(L, 1);
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

/* pairs(t): the iterator holds the target as an upvalue, so a proxy's table never reaches the
 * script. A plain table gets the real next. */
static int l_pairs_next(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_remove(L, 2); /* stack: target, key */
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

static int l_pairs(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (push_target(L, 1)) {
        lua_pushcclosure(L, l_pairs_next, 1);
    } else {
        lua_pop(L, 1);
        lua_pushcfunction(L, l_next);
    }
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int l_ipairs_next(lua_State *L) {
    lua_Integer i = luaL_checkinteger(L, 2) + 1;
    lua_rawgeti(L, lua_upvalueindex(1), (int)i);
    if (lua_isnil(L, -1)) return 0;
    lua_pushinteger(L, i);
    lua_insert(L, -2);
    return 2;
}

static int l_ipairs(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    push_target(L, 1);
    lua_pushcclosure(L, l_ipairs_next, 1);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

static int l_unpack(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    push_target(L, 1);
    lua_replace(L, 1);
    int i = (int)luaL_optinteger(L, 2, 1);
    int e = lua_isnoneornil(L, 3) ? (int)lua_objlen(L, 1) : (int)luaL_checkinteger(L, 3);
    if (i > e) return 0;
    double n = (double)e - (double)i + 1;
    if (n >= 8000 || !lua_checkstack(L, (int)n)) return luaL_error(L, "too many results to unpack");
    gait__budget_charge(L, gait__script_from(L), (int64_t)n);
    for (int k = i; k <= e; k++) lua_rawgeti(L, 1, k);
    return (int)n;
}

static int l_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (is_frozen(L, 1)) return luaL_error(L, "rawset: the table is read-only");
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/* Calls the wrapped function (upvalue 1) with this call's arguments; returns how many results
 * it left (they replace the arguments). */
static int call_wrapped(lua_State *L, int nresults) {
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, nresults);
    return lua_gettop(L);
}

/* VM instruction units for what a call handed over or made: one a value, one per 32 bytes of a
 * string (a copy, a hash, a write: about 3 ns each). */
static int64_t units_of_values(lua_State *L, int first, int last) {
    int64_t units = 1 + (last - first + 1);
    for (int i = first; i <= last; i++)
        if (lua_type(L, i) == LUA_TSTRING) units += (int64_t)(lua_objlen(L, i) / 32);
    return units;
}

/* table.insert / remove / sort: refuse a read-only table, then the real function (upvalue). */
static int l_table_writer(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (is_frozen(L, 1)) return luaL_error(L, "the table is read-only");
    gait__budget_charge(L, gait__script_from(L), (int64_t)lua_objlen(L, 1) / 8 + 1);
    return call_wrapped(L, LUA_MULTRET);
}

/* table.sort sorts in C: n log n comparisons of the default order are charged up front (a
 * comparison function is Lua and counts itself). */
static int l_table_sort(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (is_frozen(L, 1)) return luaL_error(L, "the table is read-only");
    double n = (double)lua_objlen(L, 1);
    double lg = 1;
    for (double m = n; m > 1; m /= 2) lg++;
    gait__budget_charge(L, gait__script_from(L), (int64_t)(n * lg / 4) + 1);
    call_wrapped(L, 0);
    return 0;
}

/* A C function that may do work in proportion to its arguments: called as it is, then charged
 * by what it made (string bytes, results). */
static int l_charged(lua_State *L) {
    int r = call_wrapped(L, LUA_MULTRET);
    gait__budget_charge(L, gait__script_from(L), units_of_values(L, 1, r));
    return r;
}

/* table.concat: sees through a proxy, charged by the string it makes. */
static int l_table_concat(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    push_target(L, 1);
    lua_replace(L, 1);
    return l_charged(L);
}

/* string.rep: charged before it runs (the string it would make), so one call cannot run far
 * past the budget; LuaJIT's rep (the upvalue) then builds it. */
static int l_string_rep(lua_State *L) {
    size_t len = 0, sep = 0;
    luaL_checklstring(L, 1, &len);
    lua_Number n = luaL_checknumber(L, 2);
    if (!lua_isnoneornil(L, 3)) luaL_checklstring(L, 3, &sep);
    if (n > 0) gait__budget_charge(L, gait__script_from(L), (int64_t)(n * (double)(len + sep) / 32) + 1);
    return call_wrapped(L, 1);
}

static int l_print(lua_State *L) {
    gait__budget_charge(L, gait__script_from(L), units_of_values(L, 1, lua_gettop(L)));
    call_wrapped(L, 0);
    return 0;
}

static int l_collectgarbage(lua_State *L) {
    const char *opt = luaL_optstring(L, 1, "collect");
    if (strcmp(opt, "count") != 0)
        return luaL_argerror(L, 1, lua_pushfstring(L, "collectgarbage(\"%s\"): a script may ask "
                                                      "only \"count\"", opt));
    lua_pushnumber(L, (lua_Number)lua_gc(L, LUA_GCCOUNT, 0) +
                          (lua_Number)lua_gc(L, LUA_GCCOUNTB, 0) / 1024);
    return 1;
}

/* The prelude's check: raises a budget trip again, else returns its arguments. A caught error
 * is charged what unwinding it costs in C (about 3 us, ~1000 interpreted instructions), so a
 * loop of pcall(error) cannot outrun the budget on cheap instructions. */
#define CHARGE_CAUGHT_ERROR 1000
static int l_passthrough_check(lua_State *L) {
    gait_script *s = gait__script_from(L);
    gait__budget_check(L, s);
    if (lua_type(L, 1) == LUA_TBOOLEAN && !lua_toboolean(L, 1))
        gait__budget_charge(L, s, CHARGE_CAUGHT_ERROR);
    return lua_gettop(L);
}

/* xpcall's handler for a script: a trip is handed on as it is. Inside an error handler LuaJIT
 * runs no hook when the error came from one, so the script's handler must not run then (it
 * could loop unseen); for any other error it runs, counted. */
static int l_tripped(lua_State *L) {
    gait_script *s = gait__script_from(L);
    lua_pushboolean(L, s->budget.depth > 0 && s->budget.tripped);
    return 1;
}

/* Lua-side wrappers: pcall and friends stay LuaJIT's fast functions (a yield inside a pcall in a
 * coroutine keeps working); only their results pass through the check. The trampolines of
 * create / wrap are functions of an untrusted environment. */
static const char PRELUDE[] =
    "local pcall, xpcall, resume, create, wrap, check, type, error, tripped = ...\n"
    "local P = {}\n"
    "function P.pcall(f, ...) return check(pcall(f, ...)) end\n"
    "function P.xpcall(f, h, ...)\n"
    "  return check(xpcall(f, function(e) if tripped() then return e end return h(e) end, ...))\n"
    "end\n"
    "function P.resume(co, ...) return check(resume(co, ...)) end\n"
    "function P.create(f)\n"
    "  if type(f) ~= 'function' then error('bad argument #1 to \\'create\\' (function expected)', 2) end\n"
    "  return create(function(...) return f(...) end)\n"
    "end\n"
    "function P.wrap(f)\n"
    "  if type(f) ~= 'function' then error('bad argument #1 to \\'wrap\\' (function expected)', 2) end\n"
    "  return wrap(function(...) return f(...) end)\n"
    "end\n"
    "function P.trampoline(f) return function(...) return f(...) end end\n"
    "return P\n";

/* ---- environments -------------------------------------------------------------------------- */

/* Pushes a new environment homed at `home` with the module cache at cache_idx (0: a new one). */
static void push_env(lua_State *L, const char *home, int cache_idx);

/* Reads a Lua source file under the rules: a regular file, not too big, text. Pushes the chunk
 * (no environment set yet) or returns false with the message pushed. */
static bool load_source(lua_State *L, gait_script *s, const char *path) {
    void *data = NULL;
    size_t size = 0;
    char err[GAIT__PATH_MAX + 128];
    gait_status st = gait_file_read(path, GAIT__SOURCE_MAX, &s->hooks, &data, &size, err, sizeof err);
    if (st != GAIT_OK) {
        lua_pushfstring(L, "cannot read %s", err);
        return false;
    }
    const char *text = (const char *)data;
    /* a first line starting with '#' is skipped, as Lua's own loadfile does (a shebang) */
    size_t skip = 0;
    if (size > 0 && text[0] == '#')
        while (skip < size && text[skip] != '\n') skip++;
    int rc = -1;
    if (!(size > skip && text[skip] == LUA_SIGNATURE[0])) {
        lua_pushfstring(L, "@%s", path);
        rc = luaL_loadbufferx(L, text + skip, size - skip, lua_tostring(L, -1), "t");
        lua_remove(L, -2); /* the chunk name */
    }
    gait_file_free(data, size, &s->hooks);
    if (rc == -1) {
        lua_pushfstring(L, "%s: a bytecode chunk: refused (only Lua source is loaded)", path);
        return false;
    }
    return rc == 0;
}

/* Gives the chunk at the top the environment at env_idx and turns the JIT off for it and every
 * function it defines (the count hook never runs in compiled code). */
static void sandbox_chunk_in(lua_State *L, int env_idx) {
    lua_pushvalue(L, env_idx);
    lua_setfenv(L, -2);
    luaJIT_setmode(L, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
}

/* The same with a new environment homed at `home`. */
static void sandbox_chunk(lua_State *L, const char *home) {
    push_env(L, home, 0);
    lua_setfenv(L, -2);
    luaJIT_setmode(L, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
}

static void dir_of(const char *path, char *out, size_t cap) {
    snprintf(out, cap, "%s", path);
    char *slash = strrchr(out, '/');
    if (!slash) snprintf(out, cap, ".");
    else if (slash == out) out[1] = 0;
    else *slash = 0;
}

/* A path an untrusted loader was given: relative ones are relative to the environment's home. */
static void resolve_path(const char *home, const char *path, char *out, size_t cap) {
    if (path[0] == '/' || !home[0]) snprintf(out, cap, "%s", path);
    else snprintf(out, cap, "%s/%s", home, path);
}

/* The loaders' upvalues: 1 home, 2 the environment, 3 the module cache. */
#define UP_HOME lua_upvalueindex(1)
#define UP_ENV lua_upvalueindex(2)
#define UP_CACHE lua_upvalueindex(3)

/* loadfile(path) -> chunk | nil, message: the chunk runs in the caller's environment */
static int env_loadfile(lua_State *L) {
    gait_script *s = gait__script_from(L);
    const char *name = luaL_checkstring(L, 1);
    char path[GAIT__PATH_MAX], err[GAIT__PATH_MAX * 2];
    resolve_path(lua_tostring(L, UP_HOME), name, path, sizeof path);
    if (!gait__path_allowed(L, s, path, err, sizeof err)) return gait__lua_fail(L, "%s", err);
    if (!load_source(L, s, path)) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    sandbox_chunk_in(L, UP_ENV);
    return 1;
}

/* dofile(path) -> what the chunk returns; errors raise */
static int env_dofile(lua_State *L) {
    lua_settop(L, 1);
    lua_pushvalue(L, UP_HOME);
    lua_pushvalue(L, UP_ENV);
    lua_pushvalue(L, UP_CACHE);
    lua_pushcclosure(L, env_loadfile, 3);
    lua_insert(L, 1);
    lua_call(L, 1, 2);
    if (lua_isnil(L, -2)) return lua_error(L);
    lua_pop(L, 1);
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L);
}

/* load(string | function, chunkname) / loadstring(string, chunkname) -> chunk | nil, message.
 * Source text only; the chunk runs in the caller's environment. */
static int env_load(lua_State *L) {
    gait_script *s = gait__script_from(L);
    if (lua_type(L, 1) == LUA_TFUNCTION) { /* a reader: pieces until nil or "" */
        luaL_Buffer b;
        lua_settop(L, 2);
        luaL_buffinit(L, &b);
        size_t total = 0;
        for (;;) {
            gait__budget_charge(L, s, CHARGE_C_TO_LUA); /* each call from C into the reader */
            lua_pushvalue(L, 1);
            lua_call(L, 0, 1);
            if (lua_isnil(L, -1)) { lua_pop(L, 1); break; }
            if (lua_type(L, -1) != LUA_TSTRING) return luaL_error(L, "load: the reader must return a string");
            size_t n = lua_objlen(L, -1);
            if (n == 0) { lua_pop(L, 1); break; }
            total += n;
            if (total > GAIT__SOURCE_MAX) return luaL_error(L, "load: more than %d bytes", (int)GAIT__SOURCE_MAX);
            luaL_addvalue(&b);
        }
        luaL_pushresult(&b);
        lua_replace(L, 1);
    }
    size_t len = 0;
    const char *code = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, "=(load)");
    gait__budget_charge(L, s, (int64_t)(len / 8));
    if (len > 0 && code[0] == LUA_SIGNATURE[0])
        return gait__lua_fail(L, "%s: a bytecode chunk: refused (only Lua source is loaded)", name);
    if (luaL_loadbufferx(L, code, len, name, "t") != 0) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    sandbox_chunk_in(L, UP_ENV);
    return 1;
}

static bool plain_name(const char *name) {
    if (!name[0] || name[0] == '.') return false;
    for (const char *p = name; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return false;
        if (c == '.' && p[1] == '.') return false;
    }
    return true;
}

static void push_gait_view(lua_State *L);

static const char loading_mark = 0; /* its address marks a module being loaded (a constant) */

/* require(name): "gait" -> the read-only API; else a Lua file found by name beside the file the
 * environment started from (home) or in the root's lua/, loaded once per file tree (the module
 * cache), into fresh globals of its own. */
static int env_require(lua_State *L) {
    gait_script *s = gait__script_from(L);
    const char *name = luaL_checkstring(L, 1);
    const char *home = lua_tostring(L, UP_HOME);
    if (strcmp(name, "gait") == 0) {
        push_gait_view(L);
        return 1;
    }
    lua_getfield(L, UP_CACHE, name);
    if (lua_islightuserdata(L, -1))
        return luaL_error(L, "require \"%s\": a loop (it requires itself while it loads)", name);
    if (!lua_isnil(L, -1)) return 1;
    lua_pop(L, 1);
    if (!plain_name(name))
        return luaL_argerror(L, 1, "a module name is letters, digits, '_', '-' and '.' (no "
                                   "path); scripts may require Lua files only");
    char rel[GAIT__PATH_MAX];
    snprintf(rel, sizeof rel, "%s", name);
    for (char *p = rel; *p; p++)
        if (*p == '.') *p = '/';
    char libdir[GAIT__PATH_MAX + 8];
    snprintf(libdir, sizeof libdir, "%s/lua", s->root);
    const char *dirs[2] = {home, libdir};
    static const char *const forms[2] = {"%s/%s.lua", "%s/%s/init.lua"};
    char path[2 * GAIT__PATH_MAX + 16], tried[4 * GAIT__PATH_MAX] = "";
    bool found = false;
    for (int d = 0; d < 2 && !found; d++)
        for (int f = 0; f < 2 && !found; f++) {
            snprintf(path, sizeof path, forms[f], dirs[d], rel);
            struct stat st;
            if (stat(path, &st) == 0) {
                found = true;
            } else {
                size_t tl = strlen(tried);
                snprintf(tried + tl, sizeof tried - tl, "\n\tno file '%s'", path);
            }
        }
    if (!found)
        return luaL_error(L, "module '%s' not found (a script requires Lua files beside it or in "
                             "lua/; C modules, ffi and the like are not available):%s", name, tried);
    char err[GAIT__PATH_MAX * 2];
    if (!gait__path_allowed(L, s, path, err, sizeof err)) return luaL_error(L, "require: %s", err);
    if (!load_source(L, s, path)) return lua_error(L);
    push_env(L, home, UP_CACHE);
    lua_setfenv(L, -2);
    luaJIT_setmode(L, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
    lua_pushlightuserdata(L, (void *)&loading_mark); /* loading: a loop raises */
    lua_setfield(L, UP_CACHE, name);
    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, UP_CACHE, name);
    return 1;
}

static void push_env(lua_State *L, const char *home, int cache_idx) {
    if (cache_idx < 0 && cache_idx > LUA_REGISTRYINDEX) cache_idx = lua_gettop(L) + cache_idx + 1;
    lua_createtable(L, 0, 8);
    int env = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, REG_ENV_MT);
    lua_setmetatable(L, env);
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");
    if (cache_idx) lua_pushvalue(L, cache_idx);
    else lua_newtable(L);
    int cache = lua_gettop(L);
    static const struct { const char *name; lua_CFunction fn; } loaders[] = {
        {"require", env_require}, {"load", env_load}, {"loadstring", env_load},
        {"loadfile", env_loadfile}, {"dofile", env_dofile},
    };
    for (size_t i = 0; i < sizeof loaders / sizeof loaders[0]; i++) {
        lua_pushstring(L, home);
        lua_pushvalue(L, env);
        lua_pushvalue(L, cache);
        lua_pushcclosure(L, loaders[i].fn, 3);
        lua_setfield(L, env, loaders[i].name);
    }
    lua_pop(L, 1); /* cache */
    lua_getfield(L, LUA_REGISTRYINDEX, REG_ENVS);
    lua_pushvalue(L, env);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

gait_status gait__sandbox_loadfile(gait_script *s, const char *path) {
    lua_State *L = s->L;
    char err[GAIT__PATH_MAX * 2];
    if (!lua_checkstack(L, 40)) return GAIT_ERR_OUT_OF_MEMORY;
    if (!gait__path_allowed(L, s, path, err, sizeof err)) {
        gait__script_error(s, "%s", err);
        return GAIT_ERR_IO;
    }
    struct stat st;
    bool missing = stat(path, &st) != 0 || !S_ISREG(st.st_mode);
    if (!load_source(L, s, path)) {
        gait__script_error(s, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
        return missing ? GAIT_ERR_IO : GAIT_ERR_SCRIPT;
    }
    char home[GAIT__PATH_MAX];
    dir_of(path, home, sizeof home);
    sandbox_chunk(L, home);
    return GAIT_OK;
}

gait_status gait__sandbox_loadstring(gait_script *s, const char *code, size_t len,
                                     const char *chunk_name) {
    lua_State *L = s->L;
    if (!lua_checkstack(L, 40)) return GAIT_ERR_OUT_OF_MEMORY;
    if (len > 0 && code[0] == LUA_SIGNATURE[0]) {
        gait__script_error(s, "%s: a bytecode chunk: refused (only Lua source is loaded)", chunk_name);
        return GAIT_ERR_SCRIPT;
    }
    if (luaL_loadbufferx(L, code, len, chunk_name, "t") != 0) {
        gait__script_error(s, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
        return GAIT_ERR_SCRIPT;
    }
    sandbox_chunk(L, s->root);
    return GAIT_OK;
}

gait_status gait__trusted_loadfile(gait_script *s, const char *path, bool jit_off) {
    lua_State *L = s->L;
    struct stat st;
    bool missing = stat(path, &st) != 0;
    if (!load_source(L, s, path)) {
        gait__script_error(s, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
        return missing ? GAIT_ERR_IO : GAIT_ERR_SCRIPT;
    }
    if (jit_off) luaJIT_setmode(L, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
    return GAIT_OK;
}

/* ---- plain copies -------------------------------------------------------------------------- */

/* Pushes a plain copy of the value at idx (seen: original table -> copy). */
static void plain_push(lua_State *L, int idx, int seen, int depth) {
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER: case LUA_TSTRING: case LUA_TBOOLEAN:
        lua_pushvalue(L, idx);
        return;
    case LUA_TTABLE: break;
    default:
        lua_pushnil(L);
        return;
    }
    if (depth > PLAIN_DEPTH_MAX) luaL_error(L, "data nested deeper than %d tables", PLAIN_DEPTH_MAX);
    luaL_checkstack(L, 6, "plain copy");
    lua_pushvalue(L, idx);
    lua_rawget(L, seen);
    if (!lua_isnil(L, -1)) return; /* shared (or cyclic): one copy */
    lua_pop(L, 1);
    lua_newtable(L);
    int copy = lua_gettop(L);
    lua_pushvalue(L, idx);
    lua_pushvalue(L, copy);
    lua_rawset(L, seen);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int v = lua_gettop(L), k = v - 1;
        int kt = lua_type(L, k);
        if (kt == LUA_TNUMBER || kt == LUA_TSTRING || kt == LUA_TBOOLEAN) {
            lua_pushvalue(L, k);
            plain_push(L, v, seen, depth + 1);
            if (lua_isnil(L, -1)) lua_pop(L, 2);
            else lua_rawset(L, copy);
        }
        lua_pop(L, 1);
    }
}

void gait__plain_copy(lua_State *L, int idx) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    lua_newtable(L);
    int seen = lua_gettop(L);
    plain_push(L, idx, seen, 0);
    lua_replace(L, idx);
    lua_settop(L, seen - 1);
}

/* ---- the read-only view of the gait module ------------------------------------------------- */

/* Pushes the proxy of table idx: a live proxy when it holds no tables, else a proxy of a copy
 * whose tables are views too (made once: cache maps table -> proxy). Lua functions reachable
 * from the view get the JIT off: untrusted code calls them under its budget. */
static void view_of(lua_State *L, int idx, int cache, const char *name, int depth) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    lua_pushvalue(L, idx);
    lua_rawget(L, cache);
    if (!lua_isnil(L, -1)) return;
    lua_pop(L, 1);
    luaL_checkstack(L, 8, "view");
    bool has_tables = false;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_istable(L, -1)) has_tables = true;
        if (lua_isfunction(L, -1) && !lua_iscfunction(L, -1))
            luaJIT_setmode(L, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
        lua_pop(L, 1);
    }
    if (!has_tables || depth > 8) {
        gait__freeze(L, idx, name);
    } else {
        lua_newtable(L);
        int copy = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, idx)) {
            if (lua_istable(L, -1)) {
                char sub[128];
                snprintf(sub, sizeof sub, "%s.%s", name,
                         lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
                view_of(L, -1, cache, sub, depth + 1);
                lua_remove(L, -2);
            }
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, copy);
        }
        gait__freeze(L, copy, name);
        lua_remove(L, copy);
    }
    lua_pushvalue(L, idx);
    lua_pushvalue(L, -2);
    lua_rawset(L, cache);
}

static void push_gait_view(lua_State *L) {
    lua_getfield(L, LUA_REGISTRYINDEX, REG_VIEW);
    if (!lua_isnil(L, -1)) return;
    lua_pop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
    lua_getfield(L, -1, "gait");
    lua_remove(L, -2);
    lua_newtable(L);
    view_of(L, -2, lua_gettop(L), "gait", 0);
    lua_replace(L, -3);
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_VIEW);
}

/* ---- building the base --------------------------------------------------------------------- */

static void set_charged(lua_State *L, int lib, int safe, const char *name) {
    lua_getfield(L, lib, name);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pushcclosure(L, l_charged, 1);
    lua_setfield(L, safe, name);
}

static void set_wrapped(lua_State *L, int lib, int safe, const char *name, lua_CFunction fn) {
    lua_getfield(L, lib, name);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, safe, name);
}

static void copy_fields(lua_State *L, int from, int to, const char *const *names) {
    for (int i = 0; names[i]; i++) {
        lua_getfield(L, from, names[i]);
        lua_setfield(L, to, names[i]);
    }
}

/* The safe copy of the library g[name] begins: the library pushed (its index in *lib), then a
 * new table for the copy (its index returned) holding the library's `plain` functions as they
 * are. */
static int safe_copy_begin(lua_State *L, int g, const char *name, const char *const *plain, int *lib) {
    lua_getfield(L, g, name);
    *lib = lua_gettop(L);
    lua_newtable(L);
    copy_fields(L, *lib, lua_gettop(L), plain);
    return lua_gettop(L);
}

/* ... and ends: the copy frozen and set as base[name], the stack back to g. */
static void safe_copy_end(lua_State *L, int safe, int base, int g, const char *name) {
    gait__freeze(L, safe, name);
    lua_setfield(L, base, name);
    lua_settop(L, g);
}

void gait__sandbox_open(lua_State *L, gait_script *s) {
    int top = lua_gettop(L);
    /* weak keys: a proxy or an environment the scripts let go of goes */
    static const char *const weak[] = {REG_ENVS, REG_FROZEN};
    for (int i = 0; i < 2; i++) {
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        if (i == 0) {
            lua_pushvalue(L, -1);
            s->ref_envs = luaL_ref(L, LUA_REGISTRYINDEX);
        }
        lua_setfield(L, LUA_REGISTRYINDEX, weak[i]);
    }

    lua_newtable(L);
    int base = lua_gettop(L);
    lua_pushvalue(L, LUA_GLOBALSINDEX);
    int g = lua_gettop(L);
    static const char *const plain[] = {"assert", "error", "select", "tonumber", "tostring",
                                        "type", "rawequal", "rawget", "getmetatable",
                                        "setmetatable", "_VERSION", NULL};
    copy_fields(L, g, base, plain);
    /* the sandbox's own versions of these */
    static const luaL_Reg own[] = {{"next", l_next},     {"pairs", l_pairs},   {"ipairs", l_ipairs},
                                   {"unpack", l_unpack}, {"rawset", l_rawset},
                                   {"collectgarbage", l_collectgarbage}};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        lua_pushcfunction(L, own[i].func);
        lua_setfield(L, base, own[i].name);
    }
    set_wrapped(L, g, base, "print", l_print);

    /* the prelude: pcall, xpcall, coroutine.resume / create / wrap */
    if (luaL_loadbufferx(L, PRELUDE, sizeof PRELUDE - 1, "=sandbox", "t") != 0) lua_error(L);
    lua_newtable(L); /* its environment: empty, untrusted */
    lua_getfield(L, LUA_REGISTRYINDEX, REG_ENVS);
    lua_pushvalue(L, -2);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    lua_setfenv(L, -2);
    luaJIT_setmode(L, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
    lua_getfield(L, g, "pcall");
    lua_getfield(L, g, "xpcall");
    lua_getfield(L, g, "coroutine");
    lua_getfield(L, -1, "resume");
    lua_getfield(L, -2, "create");
    lua_getfield(L, -3, "wrap");
    lua_remove(L, -4);
    lua_pushcfunction(L, l_passthrough_check);
    lua_getfield(L, g, "type");
    lua_getfield(L, g, "error");
    lua_pushcfunction(L, l_tripped);
    lua_call(L, 9, 1);
    int prelude = lua_gettop(L);
    lua_pushvalue(L, prelude);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_PRELUDE);
    lua_getfield(L, prelude, "pcall");
    lua_setfield(L, base, "pcall");
    lua_getfield(L, prelude, "xpcall");
    lua_setfield(L, base, "xpcall");

    /* string: a copy without dump; the work charged, the patterns counted. It is also the
     * string metatable's __index, so ("x"):rep(n) is the charged rep, and the metatable is
     * locked: a script cannot reach or change it. */
    static const char *const string_plain[] = {"len", NULL};
    int lib;
    int safe = safe_copy_begin(L, g, "string", string_plain, &lib);
    static const char *const string_charged[] = {"byte", "char", "format", "lower", "upper",
                                                 "reverse", "sub", NULL};
    for (int i = 0; string_charged[i]; i++) set_charged(L, lib, safe, string_charged[i]);
    set_wrapped(L, lib, safe, "rep", l_string_rep);
    gait__pattern_register(L, safe);
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushvalue(L, safe);
        lua_setfield(L, -2, "__index");
        lua_pushliteral(L, "read-only");
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    safe_copy_end(L, safe, base, g, "string");

    /* table */
    static const char *const table_plain[] = {"maxn", "getn", NULL};
    safe = safe_copy_begin(L, g, "table", table_plain, &lib);
    set_wrapped(L, lib, safe, "insert", l_table_writer);
    set_wrapped(L, lib, safe, "remove", l_table_writer);
    set_wrapped(L, lib, safe, "sort", l_table_sort);
    set_wrapped(L, lib, safe, "concat", l_table_concat);
    safe_copy_end(L, safe, base, g, "table");

    /* math, bit: pure functions of numbers */
    lua_getfield(L, g, "math");
    gait__freeze(L, -1, "math");
    lua_setfield(L, base, "math");
    lua_pop(L, 1);
    lua_getfield(L, g, "bit");
    if (lua_istable(L, -1)) {
        gait__freeze(L, -1, "bit");
        lua_setfield(L, base, "bit");
    }
    lua_pop(L, 1);

    /* os: the clock and the calendar only */
    static const char *const os_plain[] = {"clock", "time", "difftime", NULL};
    safe = safe_copy_begin(L, g, "os", os_plain, &lib);
    set_charged(L, lib, safe, "date");
    safe_copy_end(L, safe, base, g, "os");

    /* coroutine */
    static const char *const co_plain[] = {"yield", "status", "running", NULL};
    safe = safe_copy_begin(L, g, "coroutine", co_plain, &lib);
    static const char *const co_prelude[] = {"resume", "create", "wrap", NULL};
    for (int i = 0; co_prelude[i]; i++) {
        lua_getfield(L, prelude, co_prelude[i]);
        lua_setfield(L, safe, co_prelude[i]);
    }
    safe_copy_end(L, safe, base, g, "coroutine");

    lua_pushvalue(L, base);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_BASE);
    /* every environment's metatable: the base behind it, locked */
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, base);
    lua_setfield(L, -2, "__index");
    gait__set_bool(L, "__metatable", 0);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_ENV_MT);

    /* gait's own userdata: their metatables hold the method tables every script shares */
    static const char *const classes[] = {GAIT__MT_WORLD, GAIT__MT_CHARACTER, GAIT__MT_LANDMARK,
                                          GAIT__MT_PRESSES, GAIT__MT_CLOCK, GAIT__MT_POOL, NULL};
    for (int i = 0; classes[i]; i++) {
        luaL_getmetatable(L, classes[i]);
        if (lua_istable(L, -1)) {
            gait__set_string(L, "__metatable", classes[i]);
        }
        lua_pop(L, 1);
    }
    lua_settop(L, top);
}

/* ---- gait.sandbox: the trusted side's door ------------------------------------------------- */

/* sandbox.loadfile(path) -> chunk | nil, message: an untrusted chunk homed beside the file */
static int l_sb_loadfile(lua_State *L) {
    gait__require_trusted(L, "gait.sandbox");
    gait_script *s = gait__script_from(L);
    const char *path = luaL_checkstring(L, 1);
    gait__grant(s, path);
    if (!load_source(L, s, path)) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    char home[GAIT__PATH_MAX];
    dir_of(path, home, sizeof home);
    sandbox_chunk(L, home);
    return 1;
}

/* sandbox.load(code, chunkname) -> chunk | nil, message (homed at the script root) */
static int l_sb_load(lua_State *L) {
    gait__require_trusted(L, "gait.sandbox");
    gait_script *s = gait__script_from(L);
    lua_settop(L, 2);
    lua_pushstring(L, s->root);
    push_env(L, s->root, 0);
    lua_newtable(L);
    lua_pushcclosure(L, env_load, 3);
    lua_insert(L, 1);
    lua_call(L, 2, 2);
    if (lua_isnil(L, -2)) return 2;
    lua_pop(L, 1);
    return 1;
}

/* sandbox.call(fn, ...) -> true, results... | false, message: under the file budget, as an
 * untrusted call when fn is untrusted (a trip or an error is the message, with file:line) */
static int l_sb_call(lua_State *L) {
    gait__require_trusted(L, "gait.sandbox");
    gait_script *s = gait__script_from(L);
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int n = lua_gettop(L) - 1;
    gait_status st = gait__pcall(s, n, LUA_MULTRET, GAIT__BUDGET_FILE);
    if (st == GAIT_OK) {
        lua_pushboolean(L, 1);
        lua_insert(L, 1);
        return lua_gettop(L);
    }
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    if (st == GAIT_ERR_OUT_OF_MEMORY) {
        lua_pop(L, 1);
        lua_pushliteral(L, "not enough memory (the script's memory_limit)");
    }
    return 2;
}

/* sandbox.plain(value) -> a plain copy (raw reads: no metamethod runs) */
static int l_sb_plain(lua_State *L) {
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    gait__plain_copy(L, 1);
    return 1;
}

/* sandbox.untrusted(fn) -> whether fn is untrusted code */
static int l_sb_untrusted(lua_State *L) {
    lua_pushboolean(L, lua_isfunction(L, 1) && gait__function_untrusted(L, 1));
    return 1;
}

int gait__open_sandbox(lua_State *L) {
    static const luaL_Reg fns[] = {
        {"loadfile", l_sb_loadfile}, {"load", l_sb_load}, {"call", l_sb_call},
        {"plain", l_sb_plain}, {"untrusted", l_sb_untrusted},
        {NULL, NULL},
    };
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    return 1;
}

/* Wraps the function at idx in an untrusted trampoline (in place) unless it already is
 * untrusted Lua: a C function a script installs as a hook still runs as the script. */
void gait__sandbox_wrap(lua_State *L, int idx) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    if (gait__function_untrusted(L, idx)) return;
    lua_getfield(L, LUA_REGISTRYINDEX, REG_PRELUDE);
    lua_getfield(L, -1, "trampoline");
    lua_remove(L, -2);
    lua_pushvalue(L, idx);
    lua_call(L, 1, 1);
    lua_replace(L, idx);
}
