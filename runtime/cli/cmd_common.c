/* What the subcommands share: finding lua/ and scripts/, making a script, calling into Lua. */
#include <lauxlib.h>
#include <lua.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <math.h>

#include "cmd.h"
#include "level.h"

static int is_root(const char *dir) {
    char probe[4096];
    int n = snprintf(probe, sizeof probe, "%s/lua/gait/test.lua", dir);
    return n > 0 && n < (int)sizeof probe && access(probe, R_OK) == 0;
}

static int set_root(char *out, size_t cap, const char *dir) {
    int n = snprintf(out, cap, "%s", dir);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

int gait_cli_find_root(const char *opt_root, char *out, size_t cap) {
    if (opt_root) {
        if (!is_root(opt_root)) {
            fprintf(stderr, "gait: --root %s holds no lua/gait/test.lua\n", opt_root);
            return -1;
        }
        return set_root(out, cap, opt_root);
    }
    const char *env = getenv("GAIT_ROOT");
    if (env && env[0]) {
        if (!is_root(env)) {
            fprintf(stderr, "gait: GAIT_ROOT=%s holds no lua/gait/test.lua\n", env);
            return -1;
        }
        return set_root(out, cap, env);
    }
    /* next to the executable, then up to three levels above it (build/gait, build/asan/gait);
     * at each level also <dir>/share/gait, where `make install` puts lua/ and scripts/
     * (PREFIX/bin/gait finds PREFIX/share/gait) */
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        char *dir = dirname(exe);
        for (int up = 0; up < 4; up++) {
            if (is_root(dir)) return set_root(out, cap, dir);
            char share[4096];
            int n = snprintf(share, sizeof share, "%s/share/gait", dir);
            if (n > 0 && n < (int)sizeof share && is_root(share)) return set_root(out, cap, share);
            if (strcmp(dir, "/") == 0) break;
            dir = dirname(dir);
        }
    }
    if (is_root(".")) return set_root(out, cap, ".");
    fprintf(stderr, "gait: cannot find lua/ and scripts/ (use --root DIR or GAIT_ROOT)\n");
    return -1;
}

/* world:load_level(path[, scale = 1[, up_axis = "y"]]) -> landmarks added, starts | nil, message.
 * starts: the file's player starts (nodes with no mesh named like one: level.h), a list of
 * {name =, position = {x, y, z}, yaw =}, empty when it has none.
 * A host binding (assimp lives in the hosts, not the library): every mesh instance of the file
 * becomes a landmark in world coordinates; on failure nothing stays added. The import runs in a
 * child process (level.c): an importer that crashes or hangs is an error naming the file. A
 * script may name only files it may read (gait_script_path_allowed); the triangles it adds are
 * charged to its budget and the memory they hold to its limit. Not from inside a hook. */
static int l_world_load_level(lua_State *L) {
    gait_world *w = gait_script_check_world(L, 1);
    const char *path = luaL_checkstring(L, 2);
    double scale = luaL_optnumber(L, 3, 1);
    const char *up = luaL_optstring(L, 4, "y");
    if (!isfinite(scale) || scale <= 0) return luaL_argerror(L, 3, "scale must be finite and > 0");
    if (strcmp(up, "y") != 0 && strcmp(up, "z") != 0)
        return luaL_argerror(L, 4, "up axis \"y\" or \"z\"");
    if (gait_world_is_locked(w))
        return luaL_error(L, "w:load_level(): not allowed while the world steps (inside a hook)");
    char err[1024];
    if (!gait_script_path_allowed(L, path, err, sizeof err)) {
        lua_pushnil(L);
        lua_pushstring(L, err);
        return 2;
    }
    enum { MAX_MESHES = 4096 };
    gait_landmark_id *ids = (gait_landmark_id *)lua_newuserdata(L, MAX_MESHES * sizeof *ids);
    gait_collider *c = gait_world_collider(w);
    enum { MAX_STARTS = 64 };
    gait_level_start starts[MAX_STARTS];
    int nstarts = 0;
    gait_level_limits lim = gait_level_default_limits();
    int n = gait_level_load_starts(c, path, scale, up[0], ids, MAX_MESHES, &lim, starts, MAX_STARTS,
                                   &nstarts, err, sizeof err);
    if (n < 0) {
        lua_pushnil(L);
        lua_pushstring(L, err);
        return 2;
    }
    size_t bytes = 0;
    int64_t triangles = 0;
    for (int i = 0; i < n; i++) {
        gait_landmark_info info;
        if (gait_collider_landmark_info(c, ids[i], &info) != GAIT_OK) continue;
        bytes += info.memory_bytes;
        triangles += info.triangle_count;
    }
    /* an octree build costs about 40 VM instructions a triangle (the bindings' own rate) */
    if (!gait_script_charge(L, 1, triangles * 40, bytes, err, sizeof err)) {
        for (int i = 0; i < n; i++) gait_collider_remove_landmark(c, ids[i]);
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, err);
        return 2;
    }
    lua_pushinteger(L, n);
    lua_createtable(L, nstarts < MAX_STARTS ? nstarts : MAX_STARTS, 0);
    for (int i = 0; i < nstarts && i < MAX_STARTS; i++) {
        lua_createtable(L, 0, 3);
        lua_pushstring(L, starts[i].name);
        lua_setfield(L, -2, "name");
        lua_createtable(L, 3, 0);
        lua_pushnumber(L, starts[i].position.x);
        lua_rawseti(L, -2, 1);
        lua_pushnumber(L, starts[i].position.y);
        lua_rawseti(L, -2, 2);
        lua_pushnumber(L, starts[i].position.z);
        lua_rawseti(L, -2, 3);
        lua_setfield(L, -2, "position");
        lua_pushnumber(L, starts[i].yaw);
        lua_setfield(L, -2, "yaw");
        lua_rawseti(L, -2, i + 1);
    }
    return 2;
}

gait_script *gait_cli_script(const char *root, int64_t file_budget) {
    gait_script_def def = gait_default_script_def();
    def.root = root;
    if (file_budget) def.file_budget = file_budget;
    gait_script *s = gait_script_create(&def);
    if (!s) {
        fprintf(stderr, "gait: could not start Lua (see the message above)\n");
        return NULL;
    }
    gait_cli_bind(s);
    return s;
}

void gait_cli_bind(gait_script *s) {
    lua_State *L = gait_script_lua(s);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "gait");
    if (lua_pcall(L, 1, 1, 0) == 0) {
        lua_getfield(L, -1, "world");
        lua_getfield(L, -1, "methods");
        lua_pushcfunction(L, l_world_load_level);
        lua_setfield(L, -2, "load_level");
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

int gait_cli_call(gait_script *script, const char *module, const char *fn, int nargs,
                  const char *const *args, int nresults, double *out) {
    lua_State *L = gait_script_lua(script);
    int top = lua_gettop(L);
    /* the call itself runs as a small chunk so it is protected and traced like any other */
    lua_getglobal(L, "require");
    lua_pushstring(L, module);
    if (lua_pcall(L, 1, 1, 0) != 0) {
        fprintf(stderr, "gait: %s\n", lua_tostring(L, -1));
        lua_settop(L, top);
        return -1;
    }
    lua_getfield(L, -1, fn);
    lua_remove(L, -2);
    for (int i = 0; i < nargs; i++) {
        if (args[i]) lua_pushstring(L, args[i]);
        else lua_pushnil(L);
    }
    /* the script's own traceback handler (it copes with non-string error objects) */
    lua_getfield(L, LUA_REGISTRYINDEX, "gait.traceback");
    int handler = lua_gettop(L) - nargs - 1;
    lua_insert(L, handler);
    int rc = lua_pcall(L, nargs, nresults, handler);
    if (rc != 0) {
        const char *msg = lua_tostring(L, -1);
        fprintf(stderr, "%s\n", msg ? msg : "(error object is not a string)");
        lua_settop(L, top);
        return -1;
    }
    for (int i = 0; i < nresults && out; i++) out[i] = lua_tonumber(L, handler + 1 + i);
    lua_settop(L, top);
    return 0;
}

const char *gait_cli_option(int argc, char **argv, int *i, const char *name) {
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0) return NULL;
    if (a[n] == '=') return a + n + 1;
    if (a[n] != 0) return NULL;
    if (*i + 1 >= argc) {
        fprintf(stderr, "gait: %s needs a value\n", name);
        return NULL;
    }
    return argv[++*i];
}
