/* The gait.landmark type (a triangle mesh in a world's collider) and the world methods that add,
 * remove, count and move them: w:add_landmark, w:remove_landmark, w:landmark_count,
 * w:move_landmark; lm:info(), lm:remove(), lm:move(), lm:set_velocity(), lm:set_path(),
 * lm:transform(), lm:moving(). */
#include "script_internal.h"

#include <math.h>
#include <string.h>

/* octree build cost per triangle, in VM instruction units (bench_collide: ~0.1 us a triangle) */
#define CHARGE_PER_TRIANGLE 40

typedef struct landmark_ud {
    gait__wbox *box;
    gait_landmark_id id;
} landmark_ud;

static landmark_ud *check_landmark(lua_State *L, int idx) {
    landmark_ud *lm = (landmark_ud *)luaL_checkudata(L, idx, GAIT__MT_LANDMARK);
    if (!lm->box->world) luaL_error(L, "landmark: its world was destroyed");
    return lm;
}

/* Reads triangles = {{9 numbers}, ...} at the top into a userdata of floats (pushed). */
static int read_triangles(lua_State *L, int tab, gait_mesh_def *d) {
    int tris = (int)lua_objlen(L, tab);
    if (tris < 1 || tris > (1 << 24))
        return luaL_error(L, "landmark.triangles must hold 1 .. 16777216 triangles, not %d", tris);
    gait__budget_charge(L, gait__script_from(L), (int64_t)tris * 9);
    float *p = (float *)lua_newuserdata(L, (size_t)tris * 9 * sizeof(float));
    for (int t = 0; t < tris; t++) {
        lua_rawgeti(L, tab, t + 1);
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
    d->positions = p;
    d->vertex_count = tris * 3;
    d->triangle_count = tris;
    return 0;
}

/* Reads positions = {x, y, z, ...} (and indices) from the def table at arg. */
static int read_positions(lua_State *L, int arg, int ptab, gait_mesh_def *d) {
    int n = (int)lua_objlen(L, ptab);
    if (n < 9 || n % 3 != 0 || n > (1 << 26))
        return luaL_argerror(L, arg, "landmark.positions needs 3 numbers per vertex, 3 vertices or more");
    gait__budget_charge(L, gait__script_from(L), n);
    float *p = (float *)lua_newuserdata(L, (size_t)n * sizeof(float));
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, ptab, i + 1);
        if (lua_type(L, -1) != LUA_TNUMBER)
            return luaL_error(L, "landmark.positions[%d] must be a number", i + 1);
        p[i] = (float)lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    d->positions = p;
    d->vertex_count = n / 3;
    lua_getfield(L, arg, "indices");
    if (lua_istable(L, -1)) {
        int m = (int)lua_objlen(L, -1);
        if (m < 3 || m % 3 != 0 || m > (1 << 26))
            return luaL_argerror(L, arg, "landmark.indices needs 3 per triangle");
        int itab = lua_gettop(L);
        gait__budget_charge(L, gait__script_from(L), m);
        uint32_t *ix = (uint32_t *)lua_newuserdata(L, (size_t)m * sizeof(uint32_t));
        for (int i = 0; i < m; i++) {
            lua_rawgeti(L, itab, i + 1);
            lua_Number v = lua_tonumber(L, -1);
            if (lua_type(L, -1) != LUA_TNUMBER || v < 1 || v > d->vertex_count || v != floor(v))
                return luaL_error(L, "landmark.indices[%d] must be a vertex number in 1..%d",
                                  i + 1, d->vertex_count);
            ix[i] = (uint32_t)v - 1;
            lua_pop(L, 1);
        }
        d->indices = ix;
        d->triangle_count = m / 3;
    } else if (!lua_isnil(L, -1)) {
        return luaL_argerror(L, arg, "landmark.indices must be a list of vertex numbers");
    } else {
        if (d->vertex_count % 3 != 0)
            return luaL_argerror(L, arg, "landmark.positions without indices needs 3 vertices per triangle");
        d->triangle_count = d->vertex_count / 3;
    }
    return 0;
}

/* w:add_landmark{triangles = {{ax, ay, az, bx, by, bz, cx, cy, cz}, ...}
 *              | positions = {x, y, z, ...}, indices = {1-based, 3 per triangle} (optional),
 *               offset = {x, y, z}, name = "...", keep_triangles = bool} -> landmark | nil,
 * message (the collider refuses it: every triangle degenerate, the landmark pool full, memory) */
static const char *const landmark_keys[] = {"triangles", "positions", "indices", "offset", "name",
                                            "keep_triangles"};
static int l_world_add_landmark(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    gait__check_options(L, b->world, "w:add_landmark()", landmark_keys, 6, "landmark");
    gait_mesh_def d;
    memset(&d, 0, sizeof d);
    lua_getfield(L, 2, "keep_triangles");
    if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
        return luaL_argerror(L, 2, "landmark.keep_triangles must be a boolean");
    d.keep_triangles = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, 2, "offset");
    if (!lua_isnil(L, -1)) d.offset = gait__check_vec3(L, -1, "landmark.offset");
    lua_pop(L, 1);
    lua_getfield(L, 2, "name");
    if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TSTRING)
        return luaL_argerror(L, 2, "landmark.name must be a string");
    d.name = lua_tostring(L, -1); /* kept on the stack */
    lua_getfield(L, 2, "triangles");
    lua_getfield(L, 2, "positions");
    int tri = lua_gettop(L) - 1, pos = lua_gettop(L);
    if (lua_istable(L, tri)) read_triangles(L, tri, &d);
    else if (lua_istable(L, pos)) read_positions(L, 2, pos, &d);
    else return luaL_argerror(L, 2, "landmark needs triangles = {...} or positions = {...}");
    gait__budget_charge(L, b->script, (int64_t)d.triangle_count * CHARGE_PER_TRIANGLE);
    gait_collider *c = gait_world_collider(b->world);
    gait_landmark_id id;
    gait_status st = gait_collider_add_landmark(c, &d, &id);
    if (st != GAIT_OK) return gait__lua_fail(L, "%s", gait_collider_last_error(c));
    if (!b->owned) { /* the host's world: what it holds counts against the script's memory */
        gait_landmark_info info;
        size_t bytes = gait_collider_landmark_info(c, id, &info) == GAIT_OK ? info.memory_bytes : 0;
        gait_script *s = b->script;
        if (s->memory_used > s->memory_limit || bytes > s->memory_limit - s->memory_used) {
            gait_collider_remove_landmark(c, id);
            return gait__lua_fail(L, "landmark: not enough memory: its %zu bytes would pass the "
                                 "script's memory_limit of %zu bytes", bytes, s->memory_limit);
        }
        gait__charge_memory(L, b, bytes);
    }
    landmark_ud *lm = (landmark_ud *)lua_newuserdata(L, sizeof *lm);
    lm->box = b;
    lm->id = id;
    luaL_getmetatable(L, GAIT__MT_LANDMARK);
    lua_setmetatable(L, -2);
    lua_getfenv(L, 1);
    lua_setfenv(L, -2);
    return 1;
}

/* lm:remove() (raises when it was removed already) */
static int l_landmark_remove(lua_State *L) {
    landmark_ud *lm = check_landmark(L, 1);
    gait__check_unlocked(L, lm->box->world, "lm:remove()");
    gait_collider *c = gait_world_collider(lm->box->world);
    gait_landmark_info info;
    size_t bytes = gait_collider_landmark_info(c, lm->id, &info) == GAIT_OK ? info.memory_bytes : 0;
    if (gait_collider_remove_landmark(c, lm->id) != GAIT_OK)
        return luaL_error(L, "landmark: %s", gait_collider_last_error(c));
    gait__uncharge_memory(lm->box, bytes);
    return 0;
}

/* w:remove_landmark(lm) */
static int l_world_remove_landmark(lua_State *L) {
    gait__check_world(L, 1);
    lua_remove(L, 1);
    return l_landmark_remove(L);
}

/* lm:info() -> {triangle_count, stored_count, skipped_count, bounds_min, bounds_max,
 * memory_bytes} */
static int l_landmark_info(lua_State *L) {
    landmark_ud *lm = check_landmark(L, 1);
    gait_landmark_info info;
    gait_collider *c = gait_world_collider(lm->box->world);
    if (gait_collider_landmark_info(c, lm->id, &info) != GAIT_OK)
        return luaL_error(L, "landmark: %s", gait_collider_last_error(c));
    lua_createtable(L, 0, 6);
    gait__set_integer(L, "triangle_count", info.triangle_count);
    gait__set_integer(L, "stored_count", info.stored_count);
    gait__set_integer(L, "skipped_count", info.skipped_count);
    gait__set_vec3(L, "bounds_min", info.bounds_min);
    gait__set_vec3(L, "bounds_max", info.bounds_max);
    gait__set_number(L, "memory_bytes", (lua_Number)info.memory_bytes);
    return 1;
}

/* ---- moving landmarks ------------------------------------------------------------------------ */

/* A pose table at idx: {position = {x, y, z}, yaw = rad} or {position = ..., rotation = {x, y,
 * z, w}} (yaw or rotation, not both; neither: no turn). */
static const char *const pose_keys[] = {"position", "yaw", "rotation"};
static gait_transform check_pose(lua_State *L, int idx, const char *what) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    if (!lua_istable(L, idx)) luaL_error(L, "%s must be a table {position = {x, y, z}, yaw = rad}", what);
    gait__check_keys(L, idx, pose_keys, 3, what);
    lua_getfield(L, idx, "position");
    if (lua_isnil(L, -1)) luaL_error(L, "%s.position is missing", what);
    gait_vec3 p = gait__check_vec3(L, -1, what);
    lua_pop(L, 1);
    lua_getfield(L, idx, "rotation");
    bool has_rot = !lua_isnil(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, idx, "yaw");
    bool has_yaw = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (has_rot && has_yaw) luaL_error(L, "%s: give yaw or rotation, not both", what);
    double yaw = gait__field_number(L, idx, "yaw", 0, what);
    gait_transform t = gait_transform_yaw(p, yaw);
    if (has_rot) {
        lua_getfield(L, idx, "rotation");
        if (!lua_istable(L, -1) || lua_objlen(L, -1) != 4)
            luaL_error(L, "%s.rotation must be a quaternion {x, y, z, w}", what);
        for (int k = 0; k < 4; k++) {
            lua_rawgeti(L, -1, k + 1);
            double v = lua_tonumber(L, -1);
            if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(v))
                luaL_error(L, "%s.rotation[%d] must be a finite number", what, k + 1);
            t.rotation[k] = v;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return t;
}

static void push_pose(lua_State *L, const gait_transform *t) {
    lua_createtable(L, 0, 3);
    gait__set_vec3(L, "position", t->position);
    lua_createtable(L, 4, 0);
    for (int k = 0; k < 4; k++) {
        lua_pushnumber(L, t->rotation[k]);
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "rotation");
    /* the turn about +y (exact for a pure yaw) */
    gait__set_number(L, "yaw", 2 * atan2(t->rotation[1], t->rotation[3]));
}

/* The collider's refusal of a motion as a Lua error (every refusal is misuse: a bad number). */
static int motion_result(lua_State *L, gait_collider *c, gait_status st, const char *what) {
    if (st != GAIT_OK) return luaL_error(L, "%s: %s", what, gait_collider_last_error(c));
    return 0;
}

/* lm:move{position = {x, y, z}, yaw = rad | rotation = {x, y, z, w}}: there at the next step,
 * carrying what stands on it; then held there. */
static int l_landmark_move(lua_State *L) {
    landmark_ud *lm = check_landmark(L, 1);
    gait__check_unlocked(L, lm->box->world, "lm:move()");
    gait_transform t = check_pose(L, 2, "lm:move(pose)");
    gait_collider *c = gait_world_collider(lm->box->world);
    return motion_result(L, c, gait_collider_move_landmark(c, lm->id, &t), "lm:move()");
}

/* w:move_landmark(lm, pose): the same as lm:move(pose) */
static int l_world_move_landmark(lua_State *L) {
    gait__check_world(L, 1);
    lua_remove(L, 1);
    return l_landmark_move(L);
}

/* lm:set_velocity{velocity = {x, y, z} (m/s), angular_velocity = {x, y, z} (rad/s)} */
static const char *const velocity_keys[] = {"velocity", "angular_velocity"};
static int l_landmark_set_velocity(lua_State *L) {
    landmark_ud *lm = check_landmark(L, 1);
    gait__check_options(L, lm->box->world, "lm:set_velocity()", velocity_keys, 2, "lm:set_velocity");
    gait_vec3 v = {0, 0, 0}, w = {0, 0, 0};
    lua_getfield(L, 2, "velocity");
    if (!lua_isnil(L, -1)) v = gait__check_vec3(L, -1, "lm:set_velocity.velocity");
    lua_getfield(L, 2, "angular_velocity");
    if (!lua_isnil(L, -1)) w = gait__check_vec3(L, -1, "lm:set_velocity.angular_velocity");
    lua_pop(L, 2);
    gait_collider *c = gait_world_collider(lm->box->world);
    return motion_result(L, c, gait_collider_set_landmark_velocity(c, lm->id, v, w),
                         "lm:set_velocity()");
}

/* lm:set_path{poses = {pose, pose, ...} (2..64), period = s}: a loop through the poses */
static const char *const path_keys[] = {"poses", "period"};
static int l_landmark_set_path(lua_State *L) {
    landmark_ud *lm = check_landmark(L, 1);
    gait__check_options(L, lm->box->world, "lm:set_path()", path_keys, 2, "lm:set_path");
    lua_getfield(L, 2, "poses");
    int n = lua_istable(L, -1) ? (int)lua_objlen(L, -1) : 0;
    if (n < 2 || n > 64) return luaL_error(L, "lm:set_path: poses must be a list of 2..64 poses");
    gait_transform poses[64];
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -1, i + 1);
        poses[i] = check_pose(L, -1, "lm:set_path: a pose");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_getfield(L, 2, "period");
    if (lua_isnil(L, -1)) return luaL_error(L, "lm:set_path: period (s) is missing");
    lua_pop(L, 1);
    double period = gait__field_number(L, 2, "period", 0, "lm:set_path");
    gait_collider *c = gait_world_collider(lm->box->world);
    return motion_result(L, c, gait_collider_set_landmark_path(c, lm->id, poses, n, period),
                         "lm:set_path()");
}

/* lm:transform() -> {position = {x, y, z}, rotation = {x, y, z, w}, yaw = rad} */
static int l_landmark_transform(lua_State *L) {
    landmark_ud *lm = check_landmark(L, 1);
    gait_transform t;
    if (gait_collider_landmark_transform(gait_world_collider(lm->box->world), lm->id, &t) != GAIT_OK)
        return luaL_error(L, "landmark: it was removed");
    push_pose(L, &t);
    return 1;
}

/* lm:moving() -> whether it is a moving landmark */
static int l_landmark_moving(lua_State *L) {
    landmark_ud *lm = check_landmark(L, 1);
    lua_pushboolean(L, gait_collider_landmark_moving(gait_world_collider(lm->box->world), lm->id));
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

void gait__landmark_register(lua_State *L) {
    static const luaL_Reg landmark_methods[] = {
        {"info", l_landmark_info},
        {"remove", l_landmark_remove},
        {"move", l_landmark_move},
        {"set_velocity", l_landmark_set_velocity},
        {"set_path", l_landmark_set_path},
        {"transform", l_landmark_transform},
        {"moving", l_landmark_moving},
        {NULL, NULL},
    };
    static const luaL_Reg world_methods[] = {
        {"add_landmark", l_world_add_landmark},
        {"remove_landmark", l_world_remove_landmark},
        {"landmark_count", l_world_landmark_count},
        {"move_landmark", l_world_move_landmark},
        {NULL, NULL},
    };
    gait__new_class(L, GAIT__MT_LANDMARK, landmark_methods);
    lua_pop(L, 1);
    luaL_getmetatable(L, GAIT__MT_LANDMARK);
    gait__set_function(L, "__tostring", l_landmark_tostring);
    lua_pop(L, 1);
    gait__add_methods(L, GAIT__MT_WORLD, world_methods);
}
