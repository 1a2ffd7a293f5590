/* The gait.world type: a world userdata, its geometry (the world's collider), its clock, its
 * body-type numbers, targets and snapshots. Characters (w:create_character / w:spawn,
 * w:characters) are script_character.c's, landmarks script_landmark.c's, w:run_kits
 * script_kit.c's.
 *
 * Style (as the Lua C API and LÖVE do it): userdata with a metatable (__index method table,
 * __gc, __tostring), checked with luaL_checkudata; errors as script_args.c says. Work done in C
 * for a call is charged to the running call's budget (script_budget.c); the worlds scripts make
 * allocate through the script's counted hooks, and geometry added to a world they do not own
 * (the host's) is charged to the same memory limit. */
#include "script_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Budget charges for C work, in VM instruction units (an interpreted instruction is ~3 ns on
 * the machines this was measured on; a character-step ~1-2 us, bench_kit). */
#define CHARGE_STEP_BASE 200
#define CHARGE_STEP_PER_CHARACTER 500
#define CHARGE_PER_SAMPLE 2
#define CHARGE_C_TO_LUA 30 /* a call from C into a script's function: ~100 ns beyond its own */
#define CHARGE_PER_SLOT 20
#define HEIGHTMAP_FILE_MAX ((size_t)64 << 20) /* bytes of a heightmap PNG (collide.c's cap) */
#define HEIGHTMAP_MAX_SAMPLES (4097.0 * 4097.0) /* decoded samples (collide.c's cap) */

/* ---- world userdata ------------------------------------------------------------------------ */

gait__wbox *gait__check_world(lua_State *L, int idx) {
    gait__wbox *b = (gait__wbox *)luaL_checkudata(L, idx, GAIT__MT_WORLD);
    if (!b->world) luaL_error(L, "the world was destroyed");
    return b;
}

gait_world *gait_script_check_world(lua_State *L, int index) {
    return gait__check_world(L, index)->world;
}

bool gait_script_path_allowed(lua_State *L, const char *path, char *err, size_t err_cap) {
    gait_script *s = gait__script_from(L);
    if (!s || !path) {
        if (err && err_cap) snprintf(err, err_cap, "no script or no path");
        return false;
    }
    char why[GAIT__PATH_MAX * 2];
    if (gait__path_allowed(L, s, path, why, sizeof why)) return true;
    if (err && err_cap) snprintf(err, err_cap, "%s", why);
    return false;
}

bool gait_script_charge(lua_State *L, int world_index, int64_t units, size_t bytes, char *err,
                        size_t err_cap) {
    gait__wbox *b = gait__check_world(L, world_index);
    gait_script *s = b->script;
    if (!b->owned && bytes > 0 &&
        (s->memory_used > s->memory_limit || bytes > s->memory_limit - s->memory_used)) {
        if (err && err_cap)
            snprintf(err, err_cap, "not enough memory: %zu bytes would pass the script's "
                     "memory_limit of %zu bytes", bytes, s->memory_limit);
        return false;
    }
    if (!b->owned && bytes > 0) gait__charge_memory(L, b, bytes);
    if (units > 0) gait__budget_charge(L, s, units);
    return true;
}

void gait__push_world(lua_State *L, gait_script *s, gait_world *world, bool owned) {
    gait__wbox *b = (gait__wbox *)lua_newuserdata(L, sizeof *b);
    b->world = world;
    b->script = s;
    b->owned = owned;
    b->charged = 0;
    b->terrain_charged = 0;
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
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_BOXES);
    lua_pushlightuserdata(L, b);
    lua_pushvalue(L, ud);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    gait__tuning_apply_world(s, world);
}

int gait__push_box_world(lua_State *L, gait__wbox *b, const gait_world *world) {
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_BOXES);
    if (!lua_istable(L, -1)) return 0;
    lua_pushlightuserdata(L, b);
    lua_rawget(L, -2);
    int wud = lua_gettop(L);
    if (lua_isnil(L, wud) || b->world != world) return 0;
    return wud;
}

void gait__charge_memory(lua_State *L, gait__wbox *b, size_t bytes) {
    if (b->owned) return; /* counted by the world's own hooks */
    gait_script *s = b->script;
    if (s->memory_used > s->memory_limit || bytes > s->memory_limit - s->memory_used)
        luaL_error(L, "not enough memory: %zu bytes of geometry would pass the script's "
                      "memory_limit of %zu bytes", bytes, s->memory_limit);
    s->memory_used += bytes;
    b->charged += bytes;
}

void gait__uncharge_memory(gait__wbox *b, size_t bytes) {
    if (b->owned) return;
    if (bytes > b->charged) bytes = b->charged;
    b->charged -= bytes;
    b->script->memory_used -= bytes < b->script->memory_used ? bytes : b->script->memory_used;
}

/* A new terrain of `samples` on a world the script does not own replaces the last one's charge:
 * the collider keeps about a float, a normal and a cell bound per sample (32 bytes). */
static void charge_terrain(lua_State *L, gait__wbox *b, size_t samples) {
    gait__uncharge_memory(b, b->terrain_charged);
    b->terrain_charged = 0;
    gait__charge_memory(L, b, samples * 32);
    if (!b->owned) b->terrain_charged = samples * 32;
}

static int l_world_gc(lua_State *L) {
    gait__wbox *b = (gait__wbox *)luaL_checkudata(L, 1, GAIT__MT_WORLD);
    if (b->owned && b->world) gait_world_destroy(b->world);
    if (!b->owned) gait__uncharge_memory(b, b->charged);
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

/* gait.world.new{max_characters = 64, step_seconds = 1/60, max_steps_per_frame = 8}
 *   -> world | nil, message (out of memory: the world counts against the memory limit) */
static int l_world_new(lua_State *L) {
    gait_script *s = gait__script_from(L);
    gait_world_def def = gait_default_world_def();
    def.hooks = s->world_hooks;
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        gait__check_keys(L, 1, world_def_keys, 3, "world def");
        double n = gait__field_number(L, 1, "max_characters", def.max_characters, "world def");
        double step = gait__field_number(L, 1, "step_seconds", def.clock.step_seconds, "world def");
        double cap = gait__field_number(L, 1, "max_steps_per_frame", def.clock.max_steps_per_frame,
                                     "world def");
        if (!(n >= 1 && n <= (1 << 20) && n == floor(n)))
            return luaL_argerror(L, 1, "max_characters must be a whole number in 1..1048576");
        if (!(step >= 0.001 && step <= 0.1))
            return luaL_argerror(L, 1, "step_seconds must be in [0.001, 0.1] s");
        if (!(cap >= 1 && cap <= 1000 && cap == floor(cap)))
            return luaL_argerror(L, 1, "max_steps_per_frame must be a whole number in 1..1000");
        def.max_characters = (int)n;
        def.clock.step_seconds = step;
        def.clock.max_steps_per_frame = (int)cap;
    }
    gait_world *w = gait_world_create(&def);
    if (!w)
        return gait__lua_fail(L, "world: could not create a world of %d characters: not enough memory "
                             "(the script's memory_limit is %zu bytes, %zu held)",
                          def.max_characters, s->memory_limit, s->memory_used);
    gait__push_world(L, s, w, true); /* first: a trip below leaves it to the collector */
    gait__budget_charge(L, s, (int64_t)def.max_characters * CHARGE_PER_SLOT);
    return 1;
}

static int l_world_host(lua_State *L) {
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_HOST);
    return 1;
}

/* w:destroy() (a world the script made; not from inside its own step) */
static int l_world_destroy(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    if (!b->owned) return luaL_error(L, "w:destroy(): the host's world belongs to the host");
    gait__check_unlocked(L, b->world, "w:destroy()");
    gait_world_destroy(b->world);
    b->world = NULL;
    return 0;
}

/* ---- geometry: the world's collider -------------------------------------------------------- */

/* w:set_terrain{samples_x, samples_z, cell_size, origin = {x, y, z},
 *               heights = {...} (samples_x * samples_z, row by row along x)
 *               | height = function(x, z) return metres above origin.y end} -> true
 * w:set_terrain(nil) clears it. */
static const char *const terrain_keys[] = {"samples_x", "samples_z", "cell_size", "origin",
                                           "heights", "height"};
static int l_world_set_terrain(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:set_terrain()");
    gait_collider *c = gait_world_collider(b->world);
    if (lua_isnoneornil(L, 2)) {
        gait_collider_set_terrain(c, NULL);
        lua_pushboolean(L, 1);
        return 1;
    }
    luaL_checktype(L, 2, LUA_TTABLE);
    gait__check_keys(L, 2, terrain_keys, 6, "terrain");
    gait_heightfield_def d;
    memset(&d, 0, sizeof d);
    double sx = gait__field_number(L, 2, "samples_x", 0, "terrain");
    double sz = gait__field_number(L, 2, "samples_z", 0, "terrain");
    if (!(sx >= 2 && sz >= 2 && sx <= 8193 && sz <= 8193 && sx * sz <= 16785409.0 &&
          sx == floor(sx) && sz == floor(sz)))
        return luaL_argerror(L, 2, "terrain.samples_x and samples_z must be whole numbers in "
                                   "2..8193 (at most 4097 x 4097 samples)");
    d.samples_x = (int)sx;
    d.samples_z = (int)sz;
    d.cell_size = gait__field_number(L, 2, "cell_size", 1, "terrain");
    if (!(d.cell_size > 0)) return luaL_argerror(L, 2, "terrain.cell_size must be > 0 (m)");
    lua_getfield(L, 2, "origin");
    if (!lua_isnil(L, -1)) d.origin = gait__check_vec3(L, -1, "terrain.origin");
    lua_pop(L, 1);
    size_t n = (size_t)d.samples_x * (size_t)d.samples_z;
    charge_terrain(L, b, n);
    gait__budget_charge(L, b->script, (int64_t)n * CHARGE_PER_SAMPLE);
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
                gait__budget_charge(L, b->script, CHARGE_C_TO_LUA);
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
    if (gait_collider_set_terrain(c, &d) != GAIT_OK) return gait__lua_fail(L, "%s", gait_collider_last_error(c));
    lua_pushboolean(L, 1);
    return 1;
}

/* The width and height a PNG file says it has (its IHDR), or false. */
static bool png_size(gait_script *s, const char *path, double *w, double *h, char *err, size_t cap) {
    void *data = NULL;
    size_t size = 0;
    if (gait_file_read(path, HEIGHTMAP_FILE_MAX, &s->hooks, &data, &size, err, cap) != GAIT_OK)
        return false;
    const unsigned char *p = (const unsigned char *)data;
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    bool ok = size >= 24 && memcmp(p, sig, 8) == 0 && memcmp(p + 12, "IHDR", 4) == 0;
    if (ok) {
        *w = (double)((uint32_t)p[16] << 24 | (uint32_t)p[17] << 16 | (uint32_t)p[18] << 8 | p[19]);
        *h = (double)((uint32_t)p[20] << 24 | (uint32_t)p[21] << 16 | (uint32_t)p[22] << 8 | p[23]);
    } else {
        snprintf(err, cap, "%s: not a PNG file", path);
    }
    gait_file_free(data, size, &s->hooks);
    return ok;
}

/* w:load_heightmap(png_path, cell_size, height_scale[, origin]) -> true | nil, message
 * (untrusted scripts: a file under the script root or beside the file the host gave). The
 * samples it will hold are charged before it is decoded. */
static int l_world_load_heightmap(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:load_heightmap()");
    const char *path = luaL_checkstring(L, 2);
    double cell = gait__check_finite(L, 3), scale = gait__check_finite(L, 4);
    gait_vec3 origin = {0, 0, 0};
    if (!lua_isnoneornil(L, 5)) origin = gait__check_vec3(L, 5, "origin");
    char err[GAIT__PATH_MAX * 2];
    if (!gait__path_allowed(L, b->script, path, err, sizeof err)) return gait__lua_fail(L, "%s", err);
    double pw = 0, ph = 0;
    if (!png_size(b->script, path, &pw, &ph, err, sizeof err)) return gait__lua_fail(L, "heightmap %s", err);
    if (pw * ph > HEIGHTMAP_MAX_SAMPLES || pw < 2 || ph < 2) /* collide.c's cap, before charging */
        return gait__lua_fail(L, "heightmap %s: %.0f x %.0f pixels; a heightmap has 2 x 2 to "
                                 "%.0f samples (4097 x 4097)", path, pw, ph, HEIGHTMAP_MAX_SAMPLES);
    charge_terrain(L, b, (size_t)(pw * ph));
    gait__budget_charge(L, b->script, (int64_t)(pw * ph) * CHARGE_PER_SAMPLE);
    gait_collider *c = gait_world_collider(b->world);
    if (gait_collider_load_heightmap(c, path, cell, scale, origin) != GAIT_OK)
        return gait__lua_fail(L, "%s", gait_collider_last_error(c));
    lua_pushboolean(L, 1);
    return 1;
}

/* w:set_sea_level(y) (nil or no argument: no sea) */
static int l_world_set_sea_level(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:set_sea_level()");
    double y = luaL_optnumber(L, 2, -INFINITY);
    if (isnan(y)) return luaL_argerror(L, 2, "sea level must not be NaN");
    gait_collider *c = gait_world_collider(b->world);
    if (gait_collider_set_sea_level(c, y) != GAIT_OK)
        return luaL_error(L, "w:set_sea_level(): %s", gait_collider_last_error(c));
    return 0;
}

static const char *const water_keys[] = {"min_x", "min_z", "max_x", "max_z", "surface"};

/* w:add_water{min_x, min_z, max_x, max_z, surface} -> region index | nil, message (full) */
static int l_world_add_water(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_options(L, b->world, "w:add_water()", water_keys, 5, "water");
    gait_water_region r;
    r.min_x = gait__field_number(L, 2, "min_x", NAN, "water");
    r.min_z = gait__field_number(L, 2, "min_z", NAN, "water");
    r.max_x = gait__field_number(L, 2, "max_x", NAN, "water");
    r.max_z = gait__field_number(L, 2, "max_z", NAN, "water");
    r.surface = gait__field_number(L, 2, "surface", NAN, "water");
    if (isnan(r.min_x + r.min_z + r.max_x + r.max_z + r.surface))
        return luaL_argerror(L, 2, "water needs min_x, min_z, max_x, max_z and surface (m)");
    if (!(r.min_x <= r.max_x && r.min_z <= r.max_z))
        return luaL_argerror(L, 2, "water needs min_x <= max_x and min_z <= max_z");
    gait_collider *c = gait_world_collider(b->world);
    int index = -1;
    gait_status st = gait_collider_add_water(c, &r, &index);
    if (st == GAIT_ERR_CAPACITY) return gait__lua_fail(L, "%s", gait_collider_last_error(c));
    if (st != GAIT_OK) return luaL_error(L, "w:add_water(): %s", gait_collider_last_error(c));
    lua_pushinteger(L, index + 1);
    return 1;
}

static int l_world_clear_water(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:clear_water()");
    gait_collider_clear_water(gait_world_collider(b->world));
    return 0;
}

/* ---- queries ------------------------------------------------------------------------------- */

/* The arguments of a query at a point of the ground plane, w:f(x, z): the world's collider, and
 * x, z (finite; x checked first). */
static const gait_collider *ground_query(lua_State *L, double *x, double *z) {
    const gait_collider *c = gait_world_collider_const(gait__check_world(L, 1)->world);
    *x = gait__check_finite(L, 2);
    *z = gait__check_finite(L, 3);
    return c;
}

/* w:terrain_sample(x, z) (alias w:terrain_height) -> height, nx, ny, nz | nil (no terrain) */
static int l_world_terrain_sample(lua_State *L) {
    double x, z, h;
    const gait_collider *c = ground_query(L, &x, &z);
    gait_vec3 n;
    if (!gait_terrain_sample(c, x, z, &h, &n)) return 0;
    lua_pushnumber(L, h);
    gait__push_xyz(L, n);
    return 4;
}

/* w:water_at(x, z) -> surface, depth | nil */
static int l_world_water_at(lua_State *L) {
    double x, z, surface, depth;
    const gait_collider *c = ground_query(L, &x, &z);
    if (!gait_water_at(c, x, z, &surface, &depth)) return 0;
    lua_pushnumber(L, surface);
    lua_pushnumber(L, depth);
    return 2;
}

/* w:ray_cast(origin, delta) -> {fraction, distance, point, normal, triangle, terrain} | nil */
static int l_world_ray_cast(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait_vec3 o = gait__check_vec3(L, 2, "origin"), d = gait__check_vec3(L, 3, "delta");
    gait__budget_charge(L, b->script, 50);
    gait_hit hit;
    if (!gait_collider_ray_cast(gait_world_collider(b->world), o, d, NULL, &hit)) return 0;
    lua_createtable(L, 0, 6);
    gait__set_number(L, "fraction", hit.fraction);
    gait__set_number(L, "distance", hit.distance);
    gait__set_vec3(L, "point", hit.point);
    gait__set_vec3(L, "normal", hit.normal);
    /* the mesh's own triangle, not the merged face standing for it (a script's material table) */
    int tri = hit.landmark.index1 == 0 ? hit.triangle
                                       : gait_collider_source_triangle(gait_world_collider(b->world),
                                                                       hit.landmark, hit.triangle,
                                                                       hit.point);
    gait__set_integer(L, "triangle", tri);
    gait__set_bool(L, "terrain", hit.landmark.index1 == 0);
    return 1;
}

/* ---- the clock and the step ---------------------------------------------------------------- */

static void charge_steps(lua_State *L, gait__wbox *b, int steps) {
    int64_t per = CHARGE_STEP_BASE +
                  (int64_t)CHARGE_STEP_PER_CHARACTER * gait_world_character_count(b->world);
    gait__budget_charge(L, b->script, per * steps);
}

/* w:update(frame_seconds[, on_step]) -> steps run. Kits first (they read the held presses
 * before a step spends them), then the whole fixed steps due; on_step(step_index) after each.
 * (gait_world_advance_clock, then gait_world_step per step; the cameras are not moved.) */
static int l_world_update(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:update()");
    double dt = luaL_checknumber(L, 2);
    if (!isfinite(dt) || dt < 0) return luaL_argerror(L, 2, "frame seconds must be finite and >= 0");
    bool has_cb = !lua_isnoneornil(L, 3);
    if (has_cb) luaL_checktype(L, 3, LUA_TFUNCTION);
    lua_settop(L, 3);
    gait__run_kits(b->script, 1, dt);
    if (!b->world) return luaL_error(L, "w:update(): a kit destroyed the world");
    int steps = 0;
    if (gait_world_advance_clock(b->world, dt, &steps) != GAIT_OK)
        return luaL_error(L, "w:update(): %s", gait_world_last_error(b->world));
    for (int i = 0; i < steps; i++) {
        if (!b->world) break; /* a callback destroyed it */
        charge_steps(L, b, 1);
        gait_world_step(b->world);
        if (has_cb) {
            lua_pushvalue(L, 3);
            lua_pushinteger(L, i + 1);
            lua_call(L, 1, 0);
        }
    }
    /* then the cameras follow the drawn bodies, once a frame, as gait_world_update does */
    if (b->world && gait_world_follow_cameras(b->world, dt) != GAIT_OK)
        return luaL_error(L, "w:update(): %s", gait_world_last_error(b->world));
    lua_pushinteger(L, steps);
    return 1;
}

/* w:step(): one fixed step now */
static int l_world_step(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:step()");
    charge_steps(L, b, 1);
    gait_world_step(b->world);
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

/* ---- body-type numbers --------------------------------------------------------------------- */

/* w:locomotion(body_type) -> table of the numbers that body type moves by */
static int l_world_locomotion(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__push_locomotion(L, gait_world_locomotion(b->world, (gait_body_type)gait__check_body_type(L, 2)));
    return 1;
}

/* w:locomotion_measured(body_type) (alias w:measured) -> whether it has numbers of its own */
static int l_world_locomotion_measured(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    lua_pushboolean(L, gait_world_locomotion_measured(b->world, (gait_body_type)gait__check_body_type(L, 2)));
    return 1;
}

/* The table at `arg` over body type t's numbers (t < 0: the provisional ones), set as them:
 * true, or an argument error saying what is wrong. */
static int set_locomotion_from(lua_State *L, gait_world *w, int arg, int t) {
    gait_locomotion n = t < 0 ? *gait_world_provisional_locomotion(w)
                              : *gait_world_locomotion(w, (gait_body_type)t);
    char err[256];
    if (!gait__locomotion_from_table(L, arg, &n, err, sizeof err)) return luaL_argerror(L, arg, err);
    gait_status st = t < 0 ? gait_world_set_provisional_locomotion(w, &n)
                           : gait_world_set_locomotion(w, (gait_body_type)t, &n);
    if (st != GAIT_OK) return luaL_argerror(L, arg, gait_world_last_error(w));
    lua_pushboolean(L, 1);
    return 1;
}

/* w:set_locomotion(body_type, {numbers}) over the type's current numbers -> true. A number out
 * of range or numbers that disagree (a capsule shorter than twice its radius) raise. */
static int l_world_set_locomotion(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:set_locomotion()");
    int t = gait__check_body_type(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    return set_locomotion_from(L, b->world, 3, t);
}

static int l_world_set_provisional_locomotion(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:set_provisional_locomotion()");
    luaL_checktype(L, 2, LUA_TTABLE);
    return set_locomotion_from(L, b->world, 2, -1);
}

static int l_world_clear_locomotion(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:clear_locomotion()");
    gait_world_clear_locomotion(b->world, (gait_body_type)gait__check_body_type(L, 2));
    return 0;
}

/* ---- targets (Lua only: points a kit may aim at) ------------------------------------------- */

/* w:set_targets{{x, y, z}, ...}; w:targets() -> a copy of that list */
static int l_world_set_targets(lua_State *L) {
    gait__check_world(L, 1);
    lua_newtable(L);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        int n = (int)lua_objlen(L, 2);
        gait__budget_charge(L, gait__script_from(L), n);
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
    gait__budget_charge(L, gait__script_from(L), n);
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

/* ---- snapshots ----------------------------------------------------------------------------- */

/* w:snapshot_save() (alias w:snapshot) -> a string holding the world's simulation state
 * (gait_world_snapshot_save: the clock, every character, the body-type numbers; not the
 * geometry, kits or hooks). */
static int l_world_snapshot_save(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    size_t n = gait_world_snapshot_size(b->world);
    gait__budget_charge(L, b->script, (int64_t)(n / 64));
    void *buf = lua_newuserdata(L, n); /* collected, even on an error */
    if (gait_world_snapshot_save(b->world, buf, n, &n) != GAIT_OK)
        return luaL_error(L, "w:snapshot_save(): %s", gait_world_last_error(b->world));
    lua_pushlstring(L, (const char *)buf, n);
    return 1;
}

/* w:snapshot_restore(s) (alias w:restore) -> true | nil, message. s from w:snapshot_save() of
 * this world (or one built the same, same max_characters); anything else is refused and the
 * world is unchanged. Not from inside the world's own step. */
static int l_world_snapshot_restore(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_unlocked(L, b->world, "w:snapshot_restore()");
    luaL_checktype(L, 2, LUA_TSTRING);
    size_t n = 0;
    const char *s = lua_tolstring(L, 2, &n);
    gait__budget_charge(L, b->script, (int64_t)(n / 64));
    if (gait_world_snapshot_restore(b->world, s, n) != GAIT_OK)
        return gait__lua_fail(L, "%s", gait_world_last_error(b->world));
    lua_pushboolean(L, 1);
    return 1;
}

/* ---- module -------------------------------------------------------------------------------- */

static const luaL_Reg world_methods[] = {
    {"destroy", l_world_destroy},
    {"set_terrain", l_world_set_terrain},
    {"load_heightmap", l_world_load_heightmap},
    {"set_sea_level", l_world_set_sea_level},
    {"add_water", l_world_add_water},
    {"clear_water", l_world_clear_water},
    {"terrain_sample", l_world_terrain_sample},
    {"terrain_height", l_world_terrain_sample},
    {"water_at", l_world_water_at},
    {"ray_cast", l_world_ray_cast},
    {"update", l_world_update},
    {"step", l_world_step},
    {"step_count", l_world_step_count},
    {"step_seconds", l_world_step_seconds},
    {"alpha", l_world_alpha},
    {"max_steps_per_frame", l_world_max_steps_per_frame},
    {"locomotion", l_world_locomotion},
    {"locomotion_measured", l_world_locomotion_measured},
    {"measured", l_world_locomotion_measured},
    {"set_locomotion", l_world_set_locomotion},
    {"set_provisional_locomotion", l_world_set_provisional_locomotion},
    {"clear_locomotion", l_world_clear_locomotion},
    {"set_targets", l_world_set_targets},
    {"targets", l_world_targets},
    {"snapshot_save", l_world_snapshot_save},
    {"snapshot", l_world_snapshot_save},
    {"snapshot_restore", l_world_snapshot_restore},
    {"restore", l_world_snapshot_restore},
    {NULL, NULL},
};

int gait__open_world(lua_State *L) {
    lua_newtable(L); /* box -> world userdata, weak values */
    lua_newtable(L);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, GAIT__REG_BOXES);

    gait__new_class(L, GAIT__MT_WORLD, world_methods);
    luaL_getmetatable(L, GAIT__MT_WORLD);
    gait__set_function(L, "__gc", l_world_gc);
    gait__set_function(L, "__tostring", l_world_tostring);
    lua_pop(L, 1);
    int methods = lua_gettop(L);
    lua_newtable(L);
    gait__set_function(L, "new", l_world_new);
    gait__set_function(L, "host", l_world_host);
    lua_pushvalue(L, methods); /* the host's Lua may add methods (lua/boot.lua does) */
    lua_setfield(L, -2, "methods");
    lua_remove(L, methods);
    return 1;
}
