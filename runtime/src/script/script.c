/* The Lua layer: the state, protected calls, errors, watched files, the C API over Lua and the
 * `gait` root module.
 *
 * Why things are the way they are:
 * - Lua allocates through the host hooks (lua_newstate with our allocator). LuaJIT builds with
 *   64-bit GC refs off refuse a custom allocator on x86_64 (lua_newstate returns NULL); then the
 *   script falls back to luaL_newstate and says so (gait_script_uses_hooks_allocator). Debian's
 *   LuaJIT 2.1.0-beta3 accepts it. The same counter holds what the worlds scripts make allocate
 *   (world_hooks), so memory_limit bounds both.
 * - Every call into Lua runs under lua_pcall with a C traceback handler. The handler converts a
 *   non-string error object itself under its own pcall, so an error object whose __tostring
 *   fails still gives a message; if the handler fails anyway (LUA_ERRERR) that is reported too.
 * - Scripts are content and untrusted by default (script_sandbox.c): kits, hooks, tuning, world
 *   files and run_file/run_string run sandboxed under a budget (script_budget.c). A host runs its
 *   own code trusted only by asking (gait_script_run_trusted_file).
 * - No C globals: the script is found from Lua through the registry. */
#include "script_internal.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <luajit.h>

/* ---- hooks and errors ---------------------------------------------------------------------- */

void *gait__hooks_alloc(const gait_hooks *h, size_t size) {
    void *p = h->alloc(size ? size : 1, h->user);
    if (p) memset(p, 0, size ? size : 1);
    return p;
}

void gait__hooks_free(const gait_hooks *h, void *p, size_t size) {
    if (p) h->free(p, size ? size : 1, h->user);
}

static void resolve_hooks(gait_hooks *h) {
    gait_hooks d = gait_default_hooks();
    /* allocator members come as a pair: half a custom allocator would free through the wrong one */
    if (!h->alloc || !h->free) { h->alloc = d.alloc; h->free = d.free; }
    if (!h->log) h->log = d.log;
    if (!h->assert_fail) h->assert_fail = d.assert_fail;
}

static void hooks_logf(const gait_hooks *h, gait_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void hooks_logf(const gait_hooks *h, gait_log_level level, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    h->log(level, msg, h->user);
}

void gait__script_logf(gait_script *s, gait_log_level level, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->hooks.log(level, msg, s->hooks.user);
}

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

static void *lua_alloc_hooks(void *ud, void *ptr, size_t osize, size_t nsize);

gait_script *gait__script_from(lua_State *L) {
    /* the allocator's user data is the script (no registry lookup: this runs on every call) */
    void *ud = NULL;
    if (lua_getallocf(L, &ud) == lua_alloc_hooks && ud) return (gait_script *)ud;
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_SCRIPT);
    gait_script *s = (gait_script *)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return s;
}

/* ---- protected calls ----------------------------------------------------------------------- */

/* The message handler: the error as a string plus a traceback. A non-string error object is
 * turned into a string under a pcall of its own, so a failing __tostring cannot escape (and a
 * script's __tostring runs under the budget of the call that raised). */
static int traceback_handler(lua_State *L) {
    const char *msg = NULL;
    gait_script *s = gait__script_from(L);
    bool tripped = s && s->budget.depth > 0 && s->budget.tripped;
    if (lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER) {
        msg = lua_tostring(L, 1);
    } else if (tripped) { /* no script code runs now (hooks may be off in a handler) */
        msg = lua_pushfstring(L, "(a %s error object, not read: %s)", luaL_typename(L, 1),
                              s->trip_message);
    } else if (luaL_getmetafield(L, 1, "__tostring")) {
        lua_pushvalue(L, 1);
        if (lua_pcall(L, 1, 1, 0) == 0 && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(a %s error object whose __tostring failed: %s)",
                                  luaL_typename(L, 1),
                                  lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?");
    } else {
        msg = lua_pushfstring(L, "(a %s error object)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

gait_status gait__pcall(gait_script *s, int nargs, int nresults, gait__budget_kind budget) {
    return gait__pcall_as(s, nargs, nresults, budget, -1);
}

gait_status gait__pcall_as(gait_script *s, int nargs, int nresults, gait__budget_kind budget,
                           int untrusted_hint) {
    lua_State *L = s->L;
    int base = lua_gettop(L) - nargs; /* the function's slot */
    bool untrusted = untrusted_hint < 0 ? gait__function_untrusted(L, base) : untrusted_hint != 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->ref_handler);
    lua_insert(L, base);
    gait__budget saved;
    if (budget != GAIT__BUDGET_NONE)
        gait__budget_enter(s, budget == GAIT__BUDGET_FILE ? s->file_budget : s->instruction_budget,
                           &saved);
    if (untrusted) s->untrusted_depth++;
    int rc = lua_pcall(L, nargs, nresults, base);
    if (untrusted) s->untrusted_depth--;
    if (budget != GAIT__BUDGET_NONE) gait__budget_leave(s, &saved);
    lua_remove(L, base);
    switch (rc) {
    case 0: return GAIT_OK;
    case LUA_ERRMEM: return GAIT_ERR_OUT_OF_MEMORY;
    default: return GAIT_ERR_SCRIPT;
    }
}

gait_status gait__script_pcall(gait_script *s, int nargs, int nresults, const char *what,
                               gait__budget_kind budget) {
    return gait__script_pcall_as(s, nargs, nresults, what, budget, -1);
}

gait_status gait__hook_pcall(gait_script *s, int nargs, int nresults, const char *what) {
    s->hook_depth++;
    gait_status st = gait__script_pcall(s, nargs, nresults, what, GAIT__BUDGET_CALL);
    s->hook_depth--;
    return st;
}

int gait__hook_enter(gait__wbox *b, gait_world *world, int room, int *top) {
    lua_State *L = b->script->L;
    *top = lua_gettop(L);
    if (!lua_checkstack(L, room)) return 0;
    return gait__push_box_world(L, b, world);
}

void gait__check_hook_arg(lua_State *L, gait_script *s) {
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    if (!lua_isnil(L, 2)) {
        if (gait__untrusted(L, s)) gait__sandbox_wrap(L, 2);
        if (!lua_iscfunction(L, 2)) luaJIT_setmode(L, 2, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
    }
}

gait_status gait__script_pcall_as(gait_script *s, int nargs, int nresults, const char *what,
                                  gait__budget_kind budget, int untrusted) {
    lua_State *L = s->L;
    int base = lua_gettop(L) - nargs;
    gait_status st = gait__pcall_as(s, nargs, nresults, budget, untrusted);
    if (st == GAIT_OK) return GAIT_OK;
    /* the message is already a string (the handler's, or Lua's own for memory): formatting it
     * here allocates nothing from Lua, which may be out of memory */
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(no message)";
    char kit_what[128];
    if (!what) {
        snprintf(kit_what, sizeof kit_what, "kit%s%s (character #%d)", s->call_kit ? " " : "",
                 s->call_kit ? s->call_kit : "", s->call_character);
        what = kit_what;
    }
    if (st == GAIT_ERR_OUT_OF_MEMORY)
        gait__script_error(s, "%s: out of memory (the script's memory_limit is %zu bytes)", what,
                           s->memory_limit);
    else
        gait__script_error(s, "%s: %s", what, msg);
    lua_settop(L, base - 1);
    return GAIT_ERR_SCRIPT;
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
            gait__script_logf(s, GAIT_LOG_WARN, "script: more than %d watched files; %s is not "
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

/* ---- hot reload ---------------------------------------------------------------------------- */

gait_status gait_script_poll(gait_script *s, int *out_reloaded) {
    if (out_reloaded) *out_reloaded = 0;
    if (!s) return GAIT_ERR_INVALID_ARGUMENT;
    if (s->hook_depth > 0) return GAIT_ERR_LOCKED; /* a hook's world is mid-step */
    int reloaded = 0;
    bool tuning_changed = false, failed = false;
    for (int i = 0; i < s->watch_count; i++) {
        gait__watch *w = &s->watch[i];
        long long m, sz, ino;
        /* a file missing for a moment (an editor saving through a rename) is not a change; a
         * file turned into a FIFO or a directory is, and its reload is refused unopened */
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
                gait__script_logf(s, GAIT_LOG_INFO, "script: reloaded kit %s (%s)", name, path);
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
            paths[k] = copy[k][0] ? copy[k] : NULL;
        }
        if (gait__tuning_load(s, paths) == GAIT_OK) {
            reloaded++;
            gait__script_logf(s, GAIT_LOG_INFO, "script: reloaded tuning");
        } else {
            failed = true;
        }
    }
    if (out_reloaded) *out_reloaded = reloaded;
    return failed ? GAIT_ERR_SCRIPT : GAIT_OK;
}

/* ---- the root module ----------------------------------------------------------------------- */

/* gait.poll() -> files reloaded | files reloaded, message (the host's: not from a hook) */
static int l_poll(lua_State *L) {
    gait_script *s = gait__script_from(L);
    gait__require_trusted(L, "gait.poll (hot reload)");
    gait__check_no_hook(L, s, "gait.poll");
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
    gait__require_trusted(L, "gait.clear_error");
    gait_script_clear_error(gait__script_from(L));
    return 0;
}

static int l_root(lua_State *L) {
    lua_pushstring(L, gait__script_from(L)->root);
    return 1;
}

/* gait.trusted() -> whether the calling code runs with the whole library (the host's own) */
static int l_trusted(lua_State *L) {
    lua_pushboolean(L, !gait__untrusted(L, gait__script_from(L)));
    return 1;
}

static int l_log(lua_State *L) {
    static const char *const levels[] = {"debug", "info", "warn", "error"};
    int level = gait__check_enum(L, 1, levels, 4, "log level");
    size_t n = 0;
    const char *msg = luaL_checklstring(L, 2, &n);
    gait_script *s = gait__script_from(L);
    gait__budget_charge(L, s, (int64_t)(n / 32));
    s->hooks.log((gait_log_level)level, msg, s->hooks.user);
    return 0;
}

/* gait.instruction_budget([n]) / gait.file_budget([n]) -> the previous budget. Setting one is
 * the host's: a script cannot raise its own. */
static int budget_accessor(lua_State *L, int64_t *slot, const char *what) {
    lua_pushnumber(L, (lua_Number)*slot);
    if (!lua_isnoneornil(L, 1)) {
        gait__require_trusted(L, what);
        lua_Number b = luaL_checknumber(L, 1);
        if (!(b >= 1000 && b <= 1e12))
            return luaL_argerror(L, 1, "a budget is a number of VM instructions in [1000, 1e12]");
        *slot = (int64_t)b;
    }
    return 1;
}

static int l_instruction_budget(lua_State *L) {
    return budget_accessor(L, &gait__script_from(L)->instruction_budget, "gait.instruction_budget(n)");
}

static int l_file_budget(lua_State *L) {
    return budget_accessor(L, &gait__script_from(L)->file_budget, "gait.file_budget(n)");
}

/* gait.memory_limit([bytes]) -> the previous limit, the bytes held now. A new limit below what
 * is held is refused (it would fail every allocation at once); setting it is the host's. */
static int l_memory_limit(lua_State *L) {
    gait_script *s = gait__script_from(L);
    lua_pushnumber(L, (lua_Number)s->memory_limit);
    lua_pushnumber(L, (lua_Number)s->memory_used);
    if (!lua_isnoneornil(L, 1)) {
        gait__require_trusted(L, "gait.memory_limit(bytes)");
        lua_Number b = luaL_checknumber(L, 1);
        if (!(b >= 1048576 && b <= 1e15)) return luaL_argerror(L, 1, "limit must be in [1 MiB, 1e15] bytes");
        if ((size_t)b < s->memory_used)
            return luaL_argerror(L, 1, "limit is below the memory held now");
        s->memory_limit = (size_t)b;
    }
    return 2;
}

static gait_status read_data(gait_script *s, const char *path, const char *arg);

/* gait.read_data_file(path[, arg]) -> a plain copy of what the data file returns | nil, message.
 * The file runs sandboxed in environments of its own, under the file budget (inside another
 * budgeted call: what is left of it), with arg as its `...` (gait_script_read_data_file). */
static int l_read_data_file(lua_State *L) {
    gait_script *s = gait__script_from(L);
    const char *path = luaL_checkstring(L, 1);
    const char *arg = luaL_optstring(L, 2, NULL);
    if (gait__untrusted(L, s)) {
        char err[GAIT__PATH_MAX * 2];
        if (!gait__path_allowed(L, s, path, err, sizeof err)) return gait__lua_fail(L, "%s", err);
    } else {
        gait__grant(s, path);
    }
    unsigned errors = s->error_count;
    char saved[sizeof s->error];
    memcpy(saved, s->error, sizeof saved);
    int top = lua_gettop(L);
    if (read_data(s, path, arg) == GAIT_OK) return 1;
    lua_settop(L, top);
    lua_pushnil(L);
    lua_pushstring(L, s->error);
    /* the caller has the message (an expected failure): it is not counted as an error here */
    s->error_count = errors;
    memcpy(s->error, saved, sizeof saved);
    return 2;
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
        {"trusted", l_trusted},
        {"log", l_log},
        {"instruction_budget", l_instruction_budget},
        {"file_budget", l_file_budget},
        {"memory_limit", l_memory_limit},
        {"read_data_file", l_read_data_file},
        {NULL, NULL},
    };
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    lua_pushfstring(L, "%d.%d.%d", GAIT_VERSION_MAJOR, GAIT_VERSION_MINOR, GAIT_VERSION_PATCH);
    lua_setfield(L, -2, "version");
    add_submodule(L, "input", gait__open_input);
    add_submodule(L, "world", gait__open_world);
    add_submodule(L, "character", gait__open_character); /* after world: adds w:spawn */
    gait__landmark_register(L);
    gait__presses_register(L);
    add_submodule(L, "tuning", gait__open_tuning);
    add_submodule(L, "locomotion", gait__open_locomotion);
    add_submodule(L, "stamina", gait__open_stamina);
    add_submodule(L, "clock", gait__open_clock);
    add_submodule(L, "traverse", gait__open_traverse); /* after world and character */
    gait__present_register(L);                         /* ch:camera(), ch:anim(), ... */
    gait__motion_register(L);                          /* ch:launch(), ..., w:add_gadget() */
    add_submodule(L, "kit", gait__open_kit);
    add_submodule(L, "image", gait__open_image);
    return 1;
}

/* ---- create / destroy -------------------------------------------------------------------- */

#define ALLOC_BYTES_PER_UNIT 4

/* Room for `grow` more bytes under the limit. */
static bool memory_room(const gait_script *s, size_t grow) {
    return grow <= s->memory_limit - (s->memory_used < s->memory_limit ? s->memory_used : s->memory_limit);
}

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
    if (nsize > osize && !memory_room(s, nsize - osize)) return NULL;
    /* what the memory costs the running call beyond its VM instructions (the copy below, the
     * collector's later work on it) goes on its budget: the count hook trips it at its next
     * tick (an allocator may not raise). ~1 ns a byte against ~3 ns an instruction, measured
     * with bench_budget's table-growth loop. */
    if (s->budget.depth > 0) s->budget.used += (int64_t)(nsize / ALLOC_BYTES_PER_UNIT);
    void *p = s->hooks.alloc(nsize, s->hooks.user);
    if (!p) return NULL;
    if (ptr) {
        memcpy(p, ptr, osize < nsize ? osize : nsize);
        s->hooks.free(ptr, osize, s->hooks.user);
    }
    s->memory_used = s->memory_used - osize + nsize;
    return p;
}

/* The hooks of the worlds scripts make: the same counter and limit as Lua's memory, so a script
 * cannot take the host's memory through C (a world of a million characters is refused). */
static void *world_alloc(size_t size, void *user) {
    gait_script *s = (gait_script *)user;
    if (!memory_room(s, size)) return NULL;
    void *p = s->hooks.alloc(size, s->hooks.user);
    if (p) s->memory_used += size;
    return p;
}

static void world_free(void *p, size_t size, void *user) {
    gait_script *s = (gait_script *)user;
    if (!p) return;
    s->hooks.free(p, size, s->hooks.user);
    s->memory_used -= size;
}

static void world_log(gait_log_level level, const char *message, void *user) {
    gait_script *s = (gait_script *)user;
    s->hooks.log(level, message, s->hooks.user);
}

static void world_assert(const char *expression, const char *file, int line, void *user) {
    gait_script *s = (gait_script *)user;
    s->hooks.assert_fail(expression, file, line, s->hooks.user);
}

gait_script_def gait_default_script_def(void) {
    gait_script_def d;
    memset(&d, 0, sizeof d);
    d.instruction_budget = 10000000;
    d.file_budget = 250000000;
    d.memory_limit = (size_t)256 << 20;
    return d;
}

/* Runs in protected mode: the library, the registry, the gait module, the sandbox. */
static int script_boot(lua_State *L) {
    gait_script *s = (gait_script *)lua_touserdata(L, 1);
    luaL_openlibs(L);
    lua_pushlightuserdata(L, s);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_SCRIPT);
    lua_pushcfunction(L, traceback_handler);
    lua_pushvalue(L, -1);
    s->ref_handler = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_HANDLER);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_KITDEFS);
    lua_newtable(L); /* weak-keyed: a world the scripts let go of is collected */
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_WORLDS);

    /* require "gait" finds the C module; lua/ is on the path of the trusted require */
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "preload");
    gait__set_function(L, "gait", luaopen_gait);
    gait__set_function(L, "gait.sandbox", gait__open_sandbox);
    lua_pop(L, 1);
    lua_getfield(L, -1, "path");
    lua_pushfstring(L, "%s/lua/?.lua;%s/lua/?/init.lua;%s", s->root, s->root, lua_tostring(L, -1));
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);

    lua_getglobal(L, "require");
    lua_pushliteral(L, "gait");
    lua_call(L, 1, 1);
    lua_pop(L, 1);
    gait__sandbox_open(L, s);
    if (s->host_world) {
        gait__push_world(L, s, s->host_world, false);
        lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_HOST);
    }
    return 0;
}

gait_script *gait_script_create(const gait_script_def *def_in) {
    gait_script_def def = def_in ? *def_in : gait_default_script_def();
    resolve_hooks(&def.hooks);
    if (def.instruction_budget < 1000 || def.instruction_budget > 2000000000) {
        hooks_logf(&def.hooks, GAIT_LOG_ERROR, "script: instruction_budget %lld is out of range "
                   "1000..2000000000", (long long)def.instruction_budget);
        return NULL;
    }
    if (def.file_budget == 0) def.file_budget = gait_default_script_def().file_budget;
    if (def.file_budget < 1000 || def.file_budget > (int64_t)1000000000000LL) {
        hooks_logf(&def.hooks, GAIT_LOG_ERROR, "script: file_budget %lld is out of range "
                   "1000..1e12", (long long)def.file_budget);
        return NULL;
    }
    if (def.memory_limit == 0) def.memory_limit = (size_t)256 << 20;
    if (def.memory_limit < ((size_t)1 << 20)) {
        hooks_logf(&def.hooks, GAIT_LOG_ERROR, "script: memory_limit %zu bytes is below 1 MiB",
                   def.memory_limit);
        return NULL;
    }
    const char *root = def.root ? def.root : ".";
    if (strlen(root) >= GAIT__PATH_MAX - 64) {
        hooks_logf(&def.hooks, GAIT_LOG_ERROR, "script: root path is too long");
        return NULL;
    }
    gait_script *s = (gait_script *)gait__hooks_alloc(&def.hooks, sizeof *s);
    if (!s) return NULL;
    s->hooks = def.hooks;
    s->world_hooks.alloc = world_alloc;
    s->world_hooks.free = world_free;
    s->world_hooks.log = world_log;
    s->world_hooks.assert_fail = world_assert;
    s->world_hooks.user = s;
    s->host_world = def.world;
    s->instruction_budget = def.instruction_budget;
    s->file_budget = def.file_budget;
    s->memory_limit = def.memory_limit;
    snprintf(s->root, sizeof s->root, "%s", root);
    char real[PATH_MAX];
    const char *resolved = realpath(root, real) ? real : root;
    if (strlen(resolved) >= sizeof s->root_real) resolved = root; /* checked short above */
    memcpy(s->root_real, resolved, strlen(resolved) + 1);
    s->tuning.refill_rate = -1; /* not tuned */

    s->L = lua_newstate(lua_alloc_hooks, s);
    s->custom_allocator = s->L != NULL;
    if (!s->L) {
        hooks_logf(&s->hooks, GAIT_LOG_INFO, "script: LuaJIT refused a custom allocator (64-bit "
                   "build without GC64); Lua uses its own allocator");
        s->L = luaL_newstate();
    }
    if (!s->L) {
        hooks_logf(&s->hooks, GAIT_LOG_ERROR, "script: could not create a Lua state");
        gait__hooks_free(&s->hooks, s, sizeof *s);
        return NULL;
    }
    lua_State *L = s->L;
    lua_pushcfunction(L, script_boot);
    lua_pushlightuserdata(L, s);
    if (lua_pcall(L, 1, 0, 0) != 0) {
        hooks_logf(&s->hooks, GAIT_LOG_ERROR, "script: boot failed: %s", lua_tostring(L, -1));
        lua_close(L);
        gait__hooks_free(&s->hooks, s, sizeof *s);
        return NULL;
    }
    /* lua/boot.lua adds the Lua half of the API (trusted: it ships with the runtime); the JIT is
     * off for the functions it defines, which untrusted scripts call as methods */
    char boot[GAIT__PATH_MAX + 16];
    snprintf(boot, sizeof boot, "%s/lua/boot.lua", s->root);
    struct stat st;
    if (stat(boot, &st) == 0) {
        if (gait__trusted_loadfile(s, boot, true) != GAIT_OK ||
            gait__script_pcall(s, 0, 0, "boot", GAIT__BUDGET_NONE) != GAIT_OK) {
            hooks_logf(&s->hooks, GAIT_LOG_ERROR, "script: lua/boot.lua failed");
            gait_script_destroy(s);
            return NULL;
        }
    }
    return s;
}

void gait_script_destroy(gait_script *s) {
    if (!s) return;
    if (s->host_world) gait__clear_hooks(s, s->host_world);
    gait_hooks hooks = s->hooks;
    lua_close(s->L);
    gait__hooks_free(&hooks, s, sizeof *s);
}

lua_State *gait_script_lua(gait_script *s) { return s ? s->L : NULL; }
bool gait_script_uses_hooks_allocator(const gait_script *s) { return s && s->custom_allocator; }

/* ---- the C API over Lua -------------------------------------------------------------------- */

gait_status gait_script_run_file(gait_script *s, const char *path) {
    if (!s || !path) return GAIT_ERR_INVALID_ARGUMENT;
    int top = lua_gettop(s->L);
    gait__grant(s, path); /* the host named it */
    gait_status st = gait__sandbox_loadfile(s, path);
    if (st == GAIT_OK) st = gait__script_pcall(s, 0, 0, "run", GAIT__BUDGET_FILE);
    lua_settop(s->L, top);
    return st;
}

gait_status gait_script_run_string(gait_script *s, const char *code, const char *chunk_name) {
    if (!s || !code) return GAIT_ERR_INVALID_ARGUMENT;
    int top = lua_gettop(s->L);
    gait_status st = gait__sandbox_loadstring(s, code, strlen(code), chunk_name ? chunk_name : "=string");
    if (st == GAIT_OK) st = gait__script_pcall(s, 0, 0, "run", GAIT__BUDGET_FILE);
    lua_settop(s->L, top);
    return st;
}

gait_status gait_script_run_trusted_file(gait_script *s, const char *path) {
    if (!s || !path) return GAIT_ERR_INVALID_ARGUMENT;
    int top = lua_gettop(s->L);
    gait_status st = gait__trusted_loadfile(s, path, false);
    if (st == GAIT_OK) st = gait__script_pcall(s, 0, 0, "run", GAIT__BUDGET_NONE);
    lua_settop(s->L, top);
    return st;
}

gait_status gait_script_run_trusted_string(gait_script *s, const char *code, const char *chunk_name) {
    if (!s || !code) return GAIT_ERR_INVALID_ARGUMENT;
    lua_State *L = s->L;
    int top = lua_gettop(L);
    if (luaL_loadbufferx(L, code, strlen(code), chunk_name ? chunk_name : "=string", "t") != 0) {
        gait__script_error(s, "%s", lua_tostring(L, -1));
        lua_settop(L, top);
        return GAIT_ERR_SCRIPT;
    }
    gait_status st = gait__script_pcall(s, 0, 0, "run", GAIT__BUDGET_NONE);
    lua_settop(L, top);
    return st;
}

static int plain_copy_top(lua_State *L) {
    gait__plain_copy(L, 1);
    return 1;
}

/* Runs a data file sandboxed and pushes a plain copy of its result (see the C API below). */
static gait_status read_data(gait_script *s, const char *path, const char *arg) {
    lua_State *L = s->L;
    int top = lua_gettop(L);
    gait_status st = gait__sandbox_loadfile(s, path);
    if (st != GAIT_OK) return st;
    if (arg) lua_pushstring(L, arg);
    st = gait__script_pcall(s, arg ? 1 : 0, 1, "data file", GAIT__BUDGET_FILE);
    if (st != GAIT_OK) {
        lua_settop(L, top);
        return st;
    }
    /* a plain copy: the host reads it with lua_getfield, and no metamethod of the script's
     * values may run outside its budget */
    lua_pushcfunction(L, plain_copy_top);
    lua_insert(L, -2);
    st = gait__script_pcall(s, 1, 1, path, GAIT__BUDGET_NONE);
    if (st != GAIT_OK) lua_settop(L, top);
    return st;
}

gait_status gait_script_read_data_file(gait_script *s, const char *path, const char *arg) {
    if (!s || !path) return GAIT_ERR_INVALID_ARGUMENT;
    if (!lua_checkstack(s->L, 8)) return GAIT_ERR_OUT_OF_MEMORY;
    gait__grant(s, path); /* the host named it: its directory may be read (require "shapes") */
    return read_data(s, path, arg);
}

gait_status gait_script_load_tuning(gait_script *s, const char *dir) {
    if (!s) return GAIT_ERR_INVALID_ARGUMENT;
    if (s->hook_depth > 0) return GAIT_ERR_LOCKED;
    char buf[GAIT__TUNE_FILES][GAIT__PATH_MAX];
    const char *paths[GAIT__TUNE_FILES];
    if (!gait__tuning_dir_paths(s, dir, buf, paths)) return GAIT_ERR_INVALID_ARGUMENT;
    for (int k = 0; k < GAIT__TUNE_FILES; k++)
        if (paths[k]) gait__grant(s, paths[k]);
    int top = lua_gettop(s->L);
    gait_status st = gait__tuning_load(s, paths);
    lua_settop(s->L, top);
    return st;
}

static int host_set_kit(lua_State *L) {
    /* 1: index1, 2: generation, 3: kit name or nil */
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_HOST);
    gait_character_id id = {(int32_t)lua_tointeger(L, 1), (uint32_t)lua_tonumber(L, 2)};
    gait__push_character(L, lua_gettop(L), id);
    lua_pushcfunction(L, gait__character_set_kit);
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
    if (kit) gait__grant(s, kit); /* a path the host named (a name: scripts/kits, in the root) */
    lua_State *L = s->L;
    int top = lua_gettop(L);
    lua_pushcfunction(L, host_set_kit);
    lua_pushinteger(L, id.index1);
    lua_pushnumber(L, id.generation);
    if (kit) lua_pushstring(L, kit);
    else lua_pushnil(L);
    gait_status st = gait__script_pcall(s, 3, 0, "set_kit", GAIT__BUDGET_NONE);
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
