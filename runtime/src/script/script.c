/* The Lua layer: the state, protected calls, errors, kits, hot reload and the `gait` root module.
 *
 * Why things are the way they are:
 * - Lua allocates through the host hooks (lua_newstate with our allocator). LuaJIT builds with
 *   64-bit GC refs off refuse a custom allocator on x86_64 (lua_newstate returns NULL); then the
 *   script falls back to luaL_newstate and says so (gait_script_uses_hooks_allocator). Debian's
 *   LuaJIT 2.1.0-beta3 accepts it.
 * - Every call into Lua runs under lua_pcall with a C traceback handler. The handler converts a
 *   non-string error object itself under its own pcall, so an error object whose __tostring
 *   fails still gives a message; if the handler fails anyway (LUA_ERRERR) that is reported too.
 * - Kits, gate hooks and tuning files run under an instruction budget (a count hook). LuaJIT's
 *   compiled traces do not run hooks, so such files are loaded with the JIT off for every
 *   function they define (jit.off(chunk, true)). Cost: kit code runs interpreted (it is small
 *   and runs once a frame per character; bench_kit measures it), the rest of Lua keeps the JIT.
 * - No C globals: the script is found from Lua through the registry. */
#include "script_internal.h"

#include "gait/gait.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* ---- errors -------------------------------------------------------------------------------- */

void gait__script_error(gait_script *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    s->error_count++;
    s->hooks.log(GAIT_LOG_ERROR, s->error, s->hooks.user);
}

const char *gait_script_last_error(const gait_script *s) { return s ? s->error : "script is NULL"; }
unsigned gait_script_error_count(const gait_script *s) { return s ? s->error_count : 0; }
void gait_script_clear_error(gait_script *s) {
    if (!s) return;
    s->error[0] = 0;
    s->error_count = 0;
}

gait_script *gait__script_from(lua_State *L) {
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_SCRIPT);
    gait_script *s = (gait_script *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return s;
}

/* ---- protected calls --------------------------------------------------------------------- */

/* The message handler: the error as a string plus a traceback. A non-string error object is
 * turned into a string under a pcall of its own, so a failing __tostring cannot escape. */
static int traceback_handler(lua_State *L) {
    const char *msg = NULL;
    if (lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER) {
        msg = lua_tostring(L, 1);
    } else if (luaL_getmetafield(L, 1, "__tostring")) {
        lua_pushvalue(L, 1);
        if (lua_pcall(L, 1, 1, 0) == 0 && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(a %s error object whose __tostring failed: %s)",
                                  luaL_typename(L, 1),
                                  lua_isstring(L, -1) ? lua_tostring(L, -1) : "?");
    } else {
        msg = lua_pushfstring(L, "(a %s error object)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* The count hook fires every BUDGET_TICK VM instructions; each budgeted call starts its own
 * count at 0, so the hook can stay installed across a batch of calls. */
#define BUDGET_TICK 1000

static void budget_hook(lua_State *L, lua_Debug *ar) {
    gait_script *s = gait__script_from(L);
    if (!s) return;
    s->budget_used += BUDGET_TICK;
    if (s->budget_used < s->instruction_budget) return;
    /* name the line the loop was caught on: the hook's own frame has none */
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: ", ar->short_src, ar->currentline);
    else
        lua_pushliteral(L, "");
    lua_pushfstring(L, "instruction budget of %d VM instructions exceeded (an endless loop?)",
                    (int)s->instruction_budget);
    lua_concat(L, 2);
    lua_error(L);
}

bool gait__budget_arm(gait_script *s) {
    if (lua_gethook(s->L) == budget_hook) return false;
    lua_sethook(s->L, budget_hook, LUA_MASKCOUNT, BUDGET_TICK);
    return true;
}

void gait__budget_disarm(gait_script *s, bool armed) {
    if (armed) lua_sethook(s->L, NULL, 0, 0);
}

gait_status gait__script_pcall(gait_script *s, int nargs, int nresults, const char *what,
                               bool budget) {
    lua_State *L = s->L;
    int base = lua_gettop(L) - nargs; /* the function's slot */
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_HANDLER);
    lua_insert(L, base);
    /* a budgeted call inside another (a kit stepping a world that runs a gate hook) counts on
     * its own and gives the outer call its count back */
    int64_t outer_used = s->budget_used;
    bool armed = false;
    if (budget) {
        armed = gait__budget_arm(s);
        s->budget_used = 0;
    }
    int rc = lua_pcall(L, nargs, nresults, base);
    if (budget) {
        gait__budget_disarm(s, armed);
        s->budget_used = outer_used;
    }
    if (rc == 0) {
        lua_remove(L, base);
        return GAIT_OK;
    }
    const char *msg = lua_tostring(L, -1);
    if (!msg) msg = "(no message)";
    char kit_what[128];
    if (!what) {
        snprintf(kit_what, sizeof kit_what, "kit%s%s (character #%d)", s->call_kit ? " " : "",
                 s->call_kit ? s->call_kit : "", s->call_character);
        what = kit_what;
    }
    switch (rc) {
    case LUA_ERRERR:
        gait__script_error(s, "%s: error in the error handler: %s", what, msg);
        break;
    case LUA_ERRMEM:
        gait__script_error(s, "%s: out of memory (the script's memory_limit is %zu bytes)", what,
                           s->memory_limit);
        break;
    default:
        gait__script_error(s, "%s: %s", what, msg);
        break;
    }
    lua_settop(L, base - 1);
    return GAIT_ERR_SCRIPT;
}

gait_status gait__script_loadfile(gait_script *s, const char *path, bool jit_off) {
    lua_State *L = s->L;
    int rc = luaL_loadfile(L, path);
    if (rc != 0) {
        const char *msg = lua_tostring(L, -1);
        gait__script_error(s, "%s", msg ? msg : path);
        lua_pop(L, 1);
        return rc == LUA_ERRFILE ? GAIT_ERR_IO : GAIT_ERR_SCRIPT;
    }
    if (jit_off) {
        lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_JITOFF);
        if (lua_isfunction(L, -1)) {
            lua_pushvalue(L, -2);
            lua_pushboolean(L, 1); /* recursive: every function the file defines */
            if (lua_pcall(L, 2, 0, 0) != 0) lua_pop(L, 1);
        } else {
            lua_pop(L, 1);
        }
    }
    return GAIT_OK;
}

/* ---- watched files --------------------------------------------------------------------- */

static bool file_stamp(const char *path, long long *mtime_ns, long long *size, long long *ino) {
    struct stat st;
    if (stat(path, &st) != 0) return false;
    *mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    *size = (long long)st.st_size;
    *ino = (long long)st.st_ino;
    return true;
}

void gait__script_watch(gait_script *s, const char *path, int kind, const char *name) {
    gait__watch *w = NULL;
    for (int i = 0; i < s->watch_count; i++)
        if (strcmp(s->watch[i].path, path) == 0) w = &s->watch[i];
    if (!w) {
        if (s->watch_count == GAIT__WATCH_MAX) {
            gait__logf(&s->hooks, GAIT_LOG_WARN, "script: more than %d watched files; %s is not "
                       "hot-reloaded", GAIT__WATCH_MAX, path);
            return;
        }
        w = &s->watch[s->watch_count++];
        memset(w, 0, sizeof *w);
        snprintf(w->path, sizeof w->path, "%s", path);
    }
    w->kind = kind;
    snprintf(w->name, sizeof w->name, "%s", name ? name : "");
    if (!file_stamp(path, &w->mtime_ns, &w->size, &w->ino)) w->mtime_ns = w->size = w->ino = -1;
}

/* ---- kits ---------------------------------------------------------------------------------- */

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

gait_status gait__kit_load(gait_script *s, const char *path, const char *name) {
    lua_State *L = s->L;
    int top = lua_gettop(L);
    gait__script_watch(s, path, GAIT__WATCH_KIT, name);
    gait_status st = gait__script_loadfile(s, path, true);
    if (st != GAIT_OK) return st;
    char what[96];
    snprintf(what, sizeof what, "kit %s", name);
    st = gait__script_pcall(s, 0, 1, what, true);
    if (st != GAIT_OK) return st;
    if (!lua_istable(L, -1)) {
        gait__script_error(s, "%s:1: a kit file must return a table with on_presses(character, "
                           "presses, state); it returned a %s", path, luaL_typename(L, -1));
        lua_settop(L, top);
        return GAIT_ERR_SCRIPT;
    }
    lua_getfield(L, -1, "on_presses");
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

/* ---- hot reload ---------------------------------------------------------------------------- */

gait_status gait_script_poll(gait_script *s, int *out_reloaded) {
    if (!s) return GAIT_ERR_INVALID_ARGUMENT;
    int reloaded = 0;
    bool tuning_changed = false, failed = false;
    for (int i = 0; i < s->watch_count; i++) {
        gait__watch *w = &s->watch[i];
        long long m, sz, ino;
        /* a file missing for a moment (an editor saving through a rename) is not a change */
        if (!file_stamp(w->path, &m, &sz, &ino)) continue;
        if (m == w->mtime_ns && sz == w->size && ino == w->ino) continue;
        w->mtime_ns = m;
        w->size = sz;
        w->ino = ino;
        if (w->kind == GAIT__WATCH_TUNING) {
            tuning_changed = true;
        } else {
            char path[GAIT__PATH_MAX], name[64];
            snprintf(path, sizeof path, "%s", w->path);
            snprintf(name, sizeof name, "%s", w->name);
            if (gait__kit_load(s, path, name) == GAIT_OK) {
                reloaded++;
                gait__logf(&s->hooks, GAIT_LOG_INFO, "script: reloaded kit %s (%s)", name, path);
            } else {
                failed = true;
            }
        }
    }
    if (tuning_changed) {
        const char *paths[GAIT__TUNE_FILES];
        char copy[GAIT__TUNE_FILES][GAIT__PATH_MAX];
        for (int k = 0; k < GAIT__TUNE_FILES; k++) {
            memcpy(copy[k], s->tuning.paths[k], GAIT__PATH_MAX);
            paths[k] = copy[k];
        }
        if (gait__tuning_load(s, paths) == GAIT_OK) {
            reloaded++;
            gait__logf(&s->hooks, GAIT_LOG_INFO, "script: reloaded tuning");
        } else {
            failed = true;
        }
    }
    if (out_reloaded) *out_reloaded = reloaded;
    return failed ? GAIT_ERR_SCRIPT : GAIT_OK;
}

/* ---- the root module ----------------------------------------------------------------------- */

static int l_poll(lua_State *L) {
    gait_script *s = gait__script_from(L);
    int n = 0;
    gait_status st = gait_script_poll(s, &n);
    lua_pushinteger(L, n);
    if (st != GAIT_OK) {
        lua_pushstring(L, s->error);
        return 2;
    }
    return 1;
}

/* gait.last_error() -> the message, or nil (one value either way: select("#", ...) is 1) */
static int l_last_error(lua_State *L) {
    gait_script *s = gait__script_from(L);
    if (!s->error[0]) lua_pushnil(L);
    else lua_pushstring(L, s->error);
    return 1;
}

static int l_error_count(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)gait__script_from(L)->error_count);
    return 1;
}

static int l_clear_error(lua_State *L) {
    gait_script_clear_error(gait__script_from(L));
    return 0;
}

static int l_root(lua_State *L) {
    lua_pushstring(L, gait__script_from(L)->root);
    return 1;
}

static int l_log(lua_State *L) {
    static const char *const levels[] = {"debug", "info", "warn", "error"};
    int level = gait__check_enum(L, 1, levels, 4, "log level");
    const char *msg = luaL_checkstring(L, 2);
    gait_script *s = gait__script_from(L);
    s->hooks.log((gait_log_level)level, msg, s->hooks.user);
    return 0;
}

static int l_instruction_budget(lua_State *L) {
    gait_script *s = gait__script_from(L);
    lua_pushnumber(L, (lua_Number)s->instruction_budget);
    if (!lua_isnoneornil(L, 1)) {
        lua_Number b = luaL_checknumber(L, 1);
        if (!(b >= 1000 && b <= 2e9)) return luaL_argerror(L, 1, "budget must be in [1000, 2e9]");
        s->instruction_budget = (int64_t)b;
    }
    return 1; /* the previous budget */
}

/* gait.memory_limit([bytes]) -> the previous limit, the bytes Lua holds now. A new limit below
 * what Lua holds is refused (it would fail every allocation at once). */
static int l_memory_limit(lua_State *L) {
    gait_script *s = gait__script_from(L);
    lua_pushnumber(L, (lua_Number)s->memory_limit);
    lua_pushnumber(L, (lua_Number)s->memory_used);
    if (!lua_isnoneornil(L, 1)) {
        lua_Number b = luaL_checknumber(L, 1);
        if (!(b >= 1048576 && b <= 1e15)) return luaL_argerror(L, 1, "limit must be in [1 MiB, 1e15] bytes");
        if ((size_t)b < s->memory_used)
            return luaL_argerror(L, 1, "limit is below the memory Lua holds now");
        s->memory_limit = (size_t)b;
    }
    return 2;
}

/* gait.kit.load(name_or_path) -> kit table | nil, message */
static int l_kit_load(lua_State *L) {
    gait_script *s = gait__script_from(L);
    const char *kit = luaL_checkstring(L, 1);
    char path[GAIT__PATH_MAX], name[64];
    if (!gait__kit_path(s, kit, path, sizeof path, name, sizeof name))
        return luaL_argerror(L, 1, "a kit is a name of [a-z0-9_] (scripts/kits/<name>.lua) or a "
                                   "path ending in .lua");
    if (gait__kit_load(s, path, name) != GAIT_OK) {
        lua_pushnil(L);
        lua_pushstring(L, s->error);
        return 2;
    }
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
    lua_getfield(L, -1, name);
    lua_pushstring(L, name);
    return 2;
}

/* gait.kit.get(name) -> the last good kit table, or nil */
static int l_kit_get(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
    lua_getfield(L, -1, name);
    return 1;
}

static int open_kit(lua_State *L) {
    static const luaL_Reg fns[] = {{"load", l_kit_load}, {"get", l_kit_get}, {NULL, NULL}};
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    return 1;
}

static void add_submodule(lua_State *L, const char *field, lua_CFunction open) {
    /* stack: gait */
    lua_pushcfunction(L, open);
    lua_call(L, 0, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
    char full[64];
    snprintf(full, sizeof full, "gait.%s", field);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, full);
    lua_pop(L, 1);
    lua_setfield(L, -2, field);
}

static int luaopen_gait(lua_State *L) {
    static const luaL_Reg fns[] = {
        {"poll", l_poll},
        {"last_error", l_last_error},
        {"error_count", l_error_count},
        {"clear_error", l_clear_error},
        {"root", l_root},
        {"log", l_log},
        {"instruction_budget", l_instruction_budget},
        {"memory_limit", l_memory_limit},
        {NULL, NULL},
    };
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    lua_pushfstring(L, "%d.%d.%d", GAIT_VERSION_MAJOR, GAIT_VERSION_MINOR, GAIT_VERSION_PATCH);
    lua_setfield(L, -2, "version");
    add_submodule(L, "input", gait__open_input);
    add_submodule(L, "world", gait__open_world);
    add_submodule(L, "character", gait__open_character);
    add_submodule(L, "tuning", gait__open_tuning);
    add_submodule(L, "locomotion", gait__open_locomotion);
    add_submodule(L, "stamina", gait__open_stamina);
    add_submodule(L, "clock", gait__open_clock);
    add_submodule(L, "traverse", gait__open_traverse); /* after world and character */
    gait__present_register(L);                         /* ch:camera(), ch:anim(), ... */
    add_submodule(L, "kit", open_kit);
    add_submodule(L, "image", gait__open_image);
    return 1;
}

/* ---- create / destroy -------------------------------------------------------------------- */

/* lua_Alloc over the host hooks. The hooks have no realloc: grow and shrink copy. It counts
 * what Lua holds and refuses to grow past memory_limit: Lua then raises "not enough memory"
 * inside the protected call, the garbage is collected, and the host goes on. */
static void *lua_alloc_hooks(void *ud, void *ptr, size_t osize, size_t nsize) {
    gait_script *s = (gait_script *)ud;
    if (!ptr) osize = 0; /* LuaJIT passes 0 for a new block; be safe with a type tag */
    if (nsize == 0) {
        if (ptr) {
            s->hooks.free(ptr, osize, s->hooks.user);
            s->memory_used -= osize;
        }
        return NULL;
    }
    if (nsize > osize && nsize - osize > s->memory_limit - s->memory_used) return NULL;
    void *p = s->hooks.alloc(nsize, s->hooks.user);
    if (!p) return NULL;
    if (ptr) {
        memcpy(p, ptr, osize < nsize ? osize : nsize);
        s->hooks.free(ptr, osize, s->hooks.user);
    }
    s->memory_used = s->memory_used - osize + nsize;
    return p;
}

gait_script_def gait_default_script_def(void) {
    gait_script_def d;
    memset(&d, 0, sizeof d);
    d.instruction_budget = 10000000;
    d.memory_limit = (size_t)256 << 20;
    return d;
}

/* Runs in protected mode: opens everything, boots lua/boot.lua when it exists. */
static int script_boot(lua_State *L) {
    gait_script *s = (gait_script *)lua_touserdata(L, 1);
    luaL_openlibs(L);
    lua_pushlightuserdata(L, s);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_SCRIPT);
    lua_pushcfunction(L, traceback_handler);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_HANDLER);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
    lua_newtable(L); /* weak-keyed: a world the scripts let go of is collected */
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_WORLDS);

    lua_getglobal(L, "jit");
    if (lua_istable(L, -1)) lua_getfield(L, -1, "off");
    else lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_JITOFF);
    lua_pop(L, 1);

    /* require "gait" finds the C module; lua/ and scripts/ are on the path */
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "preload");
    lua_pushcfunction(L, luaopen_gait);
    lua_setfield(L, -2, "gait");
    lua_pop(L, 1);
    lua_getfield(L, -1, "path");
    lua_pushfstring(L, "%s/lua/?.lua;%s/lua/?/init.lua;%s", s->root, s->root, lua_tostring(L, -1));
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);

    lua_getglobal(L, "require");
    lua_pushliteral(L, "gait");
    lua_call(L, 1, 1);
    lua_pop(L, 1);
    if (s->host_world) {
        gait__push_world(L, s, s->host_world, false);
        lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_HOST);
    }
    return 0;
}

gait_script *gait_script_create(const gait_script_def *def_in) {
    gait_script_def def = def_in ? *def_in : gait_default_script_def();
    gait__hooks_resolve(&def.hooks);
    if (def.instruction_budget < 1000 || def.instruction_budget > 2000000000) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "script: instruction_budget %lld is out of range "
                   "1000..2000000000", (long long)def.instruction_budget);
        return NULL;
    }
    if (def.memory_limit == 0) def.memory_limit = (size_t)256 << 20;
    if (def.memory_limit < ((size_t)1 << 20)) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "script: memory_limit %zu bytes is below 1 MiB",
                   def.memory_limit);
        return NULL;
    }
    const char *root = def.root ? def.root : ".";
    if (strlen(root) >= GAIT__PATH_MAX - 64) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "script: root path is too long");
        return NULL;
    }
    gait_script *s = (gait_script *)gait__alloc(&def.hooks, sizeof *s);
    if (!s) return NULL;
    s->hooks = def.hooks;
    s->host_world = def.world;
    s->instruction_budget = def.instruction_budget;
    s->memory_limit = def.memory_limit;
    snprintf(s->root, sizeof s->root, "%s", root);
    s->tuning.refill_rate = -1; /* not tuned */

    s->L = lua_newstate(lua_alloc_hooks, s);
    s->custom_allocator = s->L != NULL;
    if (!s->L) {
        gait__logf(&s->hooks, GAIT_LOG_INFO, "script: LuaJIT refused a custom allocator (64-bit "
                   "build without GC64); Lua uses its own allocator");
        s->L = luaL_newstate();
    }
    if (!s->L) {
        gait__logf(&s->hooks, GAIT_LOG_ERROR, "script: could not create a Lua state");
        gait__free(&s->hooks, s, sizeof *s);
        return NULL;
    }
    lua_State *L = s->L;
    lua_pushcfunction(L, script_boot);
    lua_pushlightuserdata(L, s);
    if (lua_pcall(L, 1, 0, 0) != 0) {
        gait__logf(&s->hooks, GAIT_LOG_ERROR, "script: boot failed: %s", lua_tostring(L, -1));
        lua_close(L);
        gait__free(&s->hooks, s, sizeof *s);
        return NULL;
    }
    /* lua/boot.lua adds the Lua half of the API; without it the C bindings still work */
    char boot[GAIT__PATH_MAX + 16];
    snprintf(boot, sizeof boot, "%s/lua/boot.lua", s->root);
    FILE *f = fopen(boot, "r");
    if (f) {
        fclose(f);
        if (gait__script_loadfile(s, boot, false) != GAIT_OK ||
            gait__script_pcall(s, 0, 0, "boot", false) != GAIT_OK) {
            gait__logf(&s->hooks, GAIT_LOG_ERROR, "script: lua/boot.lua failed");
            gait_script_destroy(s);
            return NULL;
        }
    }
    return s;
}

void gait_script_destroy(gait_script *s) {
    if (!s) return;
    if (s->host_world) gait__clear_gate_hooks(s, s->host_world);
    gait_hooks hooks = s->hooks;
    lua_close(s->L);
    gait__free(&hooks, s, sizeof *s);
}

lua_State *gait_script_lua(gait_script *s) { return s ? s->L : NULL; }
bool gait_script_uses_hooks_allocator(const gait_script *s) { return s && s->custom_allocator; }

/* ---- the C API over Lua -------------------------------------------------------------------- */

gait_status gait_script_run_file(gait_script *s, const char *path) {
    if (!s || !path) return GAIT_ERR_INVALID_ARGUMENT;
    int top = lua_gettop(s->L);
    gait_status st = gait__script_loadfile(s, path, false);
    if (st == GAIT_OK) st = gait__script_pcall(s, 0, 0, "run", false);
    lua_settop(s->L, top);
    return st;
}

gait_status gait_script_run_string(gait_script *s, const char *code, const char *chunk_name) {
    if (!s || !code) return GAIT_ERR_INVALID_ARGUMENT;
    lua_State *L = s->L;
    int top = lua_gettop(L);
    if (luaL_loadbuffer(L, code, strlen(code), chunk_name ? chunk_name : "=string") != 0) {
        gait__script_error(s, "%s", lua_tostring(L, -1));
        lua_settop(L, top);
        return GAIT_ERR_SCRIPT;
    }
    gait_status st = gait__script_pcall(s, 0, 0, "run", false);
    lua_settop(L, top);
    return st;
}

gait_status gait_script_load_tuning(gait_script *s, const char *dir) {
    if (!s) return GAIT_ERR_INVALID_ARGUMENT;
    char buf[GAIT__TUNE_FILES][GAIT__PATH_MAX];
    const char *paths[GAIT__TUNE_FILES];
    if (!gait__tuning_dir_paths(s, dir, buf, paths)) return GAIT_ERR_INVALID_ARGUMENT;
    int top = lua_gettop(s->L);
    gait_status st = gait__tuning_load(s, paths);
    lua_settop(s->L, top);
    return st;
}

static int host_set_kit(lua_State *L) {
    /* 1: light character id holder (index1, generation), 2: kit name or nil */
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_HOST);
    gait_character_id id = {(int32_t)lua_tointeger(L, 1), (uint32_t)lua_tonumber(L, 2)};
    gait__push_character(L, lua_gettop(L), id);
    lua_getfield(L, -1, "set_kit");
    lua_insert(L, -2);
    lua_pushvalue(L, 3);
    lua_call(L, 2, 2);
    if (lua_isnil(L, -2)) return lua_error(L);
    return 0;
}

gait_status gait_script_set_kit(gait_script *s, gait_character_id id, const char *kit) {
    if (!s) return GAIT_ERR_INVALID_ARGUMENT;
    if (!s->host_world) {
        gait__script_error(s, "set_kit: the script has no host world");
        return GAIT_ERR_INVALID_ARGUMENT;
    }
    if (!gait_character_valid(s->host_world, id)) {
        gait__script_error(s, "set_kit: character id %d (generation %u) is stale", id.index1,
                           id.generation);
        return GAIT_ERR_STALE_ID;
    }
    lua_State *L = s->L;
    int top = lua_gettop(L);
    lua_pushcfunction(L, host_set_kit);
    lua_pushinteger(L, id.index1);
    lua_pushnumber(L, id.generation);
    if (kit) lua_pushstring(L, kit);
    else lua_pushnil(L);
    gait_status st = gait__script_pcall(s, 3, 0, "set_kit", false);
    lua_settop(L, top);
    return st;
}

gait_status gait_script_before_step(gait_script *s, double frame_seconds) {
    /* kits read the frame's seconds (presses.dt): never a NaN or a negative one */
    if (!s || !isfinite(frame_seconds) || frame_seconds < 0) return GAIT_ERR_INVALID_ARGUMENT;
    if (!s->host_world) return GAIT_OK;
    lua_State *L = s->L;
    int top = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_HOST);
    gait_status st = gait__run_kits(s, lua_gettop(L), frame_seconds);
    lua_settop(L, top);
    return st;
}

gait_status gait_script_frame(gait_script *s, double frame_seconds, int *out_steps) {
    if (!s) return GAIT_ERR_INVALID_ARGUMENT;
    if (out_steps) *out_steps = 0;
    if (!s->host_world) return GAIT_ERR_INVALID_ARGUMENT;
    gait_status kits = gait_script_before_step(s, frame_seconds);
    gait_status st = gait_world_update(s->host_world, frame_seconds, out_steps);
    return st != GAIT_OK ? st : kits;
}
