/* The world file: a Lua chunk returning a plain data table (see scripts/worlds/default.lua for
 * the contract), read in a Lua state of its own, then built into the world's collider (terrain
 * from the PNG heightmap, water, landmarks) and into flat-shaded triangles to draw.
 *
 * Reading and building are split: the whole file is read and checked first, so a broken world
 * file changes nothing (the last good world keeps running and the error is shown). */
#include "sandbox.h"

#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stb_image.h>   /* stbi_info only: the implementation is compiled into libgait.a */

#include "level.h"       /* the host-side level importer (runtime/cli/level.c) */

/* One landmark as read from the file, before it is built. */
typedef struct pending_landmark {
    char name[32];
    gait_vec3 at;
    bool on_ground;
    float *positions;            /* 3 per vertex */
    float *colors;               /* 3 per vertex */
    int vertex_count;
    uint32_t *indices;
    int triangle_count;
    /* `motion` (see scripts/worlds/default.lua): a path of offsets from `at` looped over a
     * period, or a velocity and an angular velocity; none: it stands still */
    int motion;                  /* 0 none, 1 path, 2 velocity */
    int path_count;
    double path[SB_MAX_PATH][4]; /* dx, dy, dz (m), yaw (rad) */
    double period;               /* s */
    gait_vec3 velocity, angular; /* m/s, rad/s */
} pending_landmark;

typedef struct pending_world {
    char name[64];
    char heightmap[SB_PATH_MAX];
    char level[SB_PATH_MAX];     /* `level = "file"` (relative to the world file), "" none */
    double level_scale;          /* `level_scale`, default 1 */
    char level_up;               /* `level_up = "y" | "z"`, default 'y' */
    bool has_spawn;
    double cell_size, height_scale;
    gait_vec3 origin, spawn;
    double spawn_yaw, sea_level;
    int water_count;
    gait_water_region water[SB_MAX_WATER];
    int landmark_count;
    pending_landmark landmarks[SB_MAX_LANDMARKS];
    int gadget_count;            /* traversal gadgets (gait/motion.h), read by the script layer */
    gait_gadget_def gadgets[SB_MAX_GADGETS];
    char gadget_names[SB_MAX_GADGETS][32];
    bool gadget_on_ground[SB_MAX_GADGETS];
} pending_world;

static void pending_free(pending_world *p) {
    for (int i = 0; i < p->landmark_count; i++) {
        free(p->landmarks[i].positions);
        free(p->landmarks[i].colors);
        free(p->landmarks[i].indices);
    }
    p->landmark_count = 0;
}

/* Reads t[key] (t at idx) as a number; def when absent; false (with an error) when not a number. */
static bool field_number(lua_State *L, int idx, const char *key, double def, double *out,
                         const char *where, char *err, size_t cap) {
    lua_getfield(L, idx, key);
    if (lua_isnil(L, -1)) {
        *out = def;
    } else if (lua_type(L, -1) == LUA_TNUMBER && isfinite(lua_tonumber(L, -1))) {
        *out = lua_tonumber(L, -1);
    } else {
        snprintf(err, cap, "%s.%s: expected a finite number, got %s", where, key,
                 luaL_typename(L, -1));
        lua_pop(L, 1);
        return false;
    }
    lua_pop(L, 1);
    return true;
}

/* {x, y, z} at the top of the stack. */
static bool read_vec3(lua_State *L, gait_vec3 *out, const char *where, char *err, size_t cap) {
    if (!lua_istable(L, -1)) {
        snprintf(err, cap, "%s: expected {x, y, z}, got %s", where, luaL_typename(L, -1));
        return false;
    }
    double v[3];
    for (int k = 0; k < 3; k++) {
        lua_rawgeti(L, -1, k + 1);
        if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1))) {
            snprintf(err, cap, "%s[%d]: expected a finite number", where, k + 1);
            lua_pop(L, 1);
            return false;
        }
        v[k] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    out->x = v[0], out->y = v[1], out->z = v[2];
    return true;
}

/* A numeric array field of the table at the top: malloc'd floats / indices. */
static bool read_float_array(lua_State *L, const char *key, float **out, int *count,
                             const char *where, char *err, size_t cap) {
    lua_getfield(L, -1, key);
    if (!lua_istable(L, -1)) {
        snprintf(err, cap, "%s.%s: expected an array of numbers", where, key);
        lua_pop(L, 1);
        return false;
    }
    int n = (int)lua_objlen(L, -1);
    float *a = malloc(sizeof *a * (size_t)(n > 0 ? n : 1));
    if (!a) { lua_pop(L, 1); snprintf(err, cap, "out of memory"); return false; }
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -1, i + 1);
        double v = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!isfinite(v)) {
            snprintf(err, cap, "%s.%s[%d]: not a finite number", where, key, i + 1);
            free(a);
            lua_pop(L, 1);
            return false;
        }
        a[i] = (float)v;
    }
    lua_pop(L, 1);
    *out = a;
    *count = n;
    return true;
}

/* landmarks[i].motion, the table at the top of the stack (as gait.worldfile reads it). */
static bool read_motion(lua_State *L, pending_landmark *pl, const char *where, char *err, size_t cap) {
    char at[96];
    snprintf(at, sizeof at, "%s.motion", where);
    if (!lua_istable(L, -1)) { snprintf(err, cap, "%s: expected a table", at); return false; }
    static const char *const keys[] = {"path", "period", "velocity", "angular_velocity"};
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        bool known = false;
        for (int k = 0; k < 4; k++) known = known || (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), keys[k]) == 0);
        if (!known) {
            snprintf(err, cap, "%s: unknown key %s (path, period, velocity, angular_velocity)", at,
                     lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(not a string)");
            lua_pop(L, 1);
            return false;
        }
    }
    lua_getfield(L, -1, "path");
    bool has_path = !lua_isnil(L, -1);
    if (has_path) {
        int n = lua_istable(L, -1) ? (int)lua_objlen(L, -1) : 0;
        if (n < 2 || n > SB_MAX_PATH) {
            snprintf(err, cap, "%s.path: expected 2..%d points {dx, dy, dz[, yaw]}", at, SB_MAX_PATH);
            lua_pop(L, 1);
            return false;
        }
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, -1, i + 1);
            if (!lua_istable(L, -1)) {
                snprintf(err, cap, "%s.path[%d]: expected {dx, dy, dz[, yaw]}", at, i + 1);
                lua_pop(L, 2);
                return false;
            }
            int len = (int)lua_objlen(L, -1);
            for (int k = 0; k < 4; k++) {
                lua_rawgeti(L, -1, k + 1);
                bool num = lua_type(L, -1) == LUA_TNUMBER && isfinite(lua_tonumber(L, -1));
                pl->path[i][k] = num ? lua_tonumber(L, -1) : 0;
                lua_pop(L, 1);
                if ((k < 3 || len > 3) && !num) {
                    snprintf(err, cap, "%s.path[%d]: expected {dx, dy, dz[, yaw]} (finite numbers)", at, i + 1);
                    lua_pop(L, 2);
                    return false;
                }
            }
            lua_pop(L, 1);
        }
        pl->path_count = n;
        pl->motion = 1;
    }
    lua_pop(L, 1);
    if (has_path && !field_number(L, -1, "period", -1, &pl->period, at, err, cap)) return false;
    if (has_path && !(pl->period > 0)) {
        snprintf(err, cap, "%s.period: a path needs a period > 0 (s)", at);
        return false;
    }
    const char *vk[2] = {"velocity", "angular_velocity"};
    gait_vec3 *vv[2] = {&pl->velocity, &pl->angular};
    for (int k = 0; k < 2; k++) {
        lua_getfield(L, -1, vk[k]);
        if (!lua_isnil(L, -1)) {
            char w[128];
            snprintf(w, sizeof w, "%s.%s", at, vk[k]);
            if (has_path) {
                snprintf(err, cap, "%s: a path or a velocity, not both", at);
                lua_pop(L, 1);
                return false;
            }
            bool ok = read_vec3(L, vv[k], w, err, cap);
            lua_pop(L, 1);
            if (!ok) return false;
            pl->motion = 2;
            continue;
        }
        lua_pop(L, 1);
    }
    return true;
}

/* Starts a landmark's motion as the world file gave it (its anchor at `at`). */
static gait_status start_motion(gait_collider *c, gait_landmark_id id, const pending_landmark *pl,
                                gait_vec3 at) {
    if (pl->motion == 2) return gait_collider_set_landmark_velocity(c, id, pl->velocity, pl->angular);
    if (pl->motion != 1) return GAIT_OK;
    gait_transform poses[SB_MAX_PATH];
    for (int i = 0; i < pl->path_count; i++)
        poses[i] = gait_transform_yaw((gait_vec3){at.x + pl->path[i][0], at.y + pl->path[i][1],
                                                  at.z + pl->path[i][2]}, pl->path[i][3]);
    return gait_collider_set_landmark_path(c, id, poses, pl->path_count, pl->period);
}

static bool read_landmark(lua_State *L, int index, pending_landmark *pl, char *err, size_t cap) {
    char where[64];
    snprintf(where, sizeof where, "landmarks[%d]", index);
    memset(pl, 0, sizeof *pl);
    if (!lua_istable(L, -1)) { snprintf(err, cap, "%s: expected a table", where); return false; }
    lua_getfield(L, -1, "at");
    bool ok = read_vec3(L, &pl->at, where, err, cap);
    lua_pop(L, 1);
    if (!ok) return false;
    lua_getfield(L, -1, "on_ground");
    pl->on_ground = lua_toboolean(L, -1);   /* absent: false, as gait.worldfile reads it */
    lua_pop(L, 1);
    lua_getfield(L, -1, "motion");
    ok = lua_isnil(L, -1) || read_motion(L, pl, where, err, cap);
    lua_pop(L, 1);
    if (!ok) return false;
    lua_getfield(L, -1, "mesh");
    if (!lua_istable(L, -1)) {
        snprintf(err, cap, "%s.mesh: expected a mesh table (scripts/worlds/shapes.lua)", where);
        lua_pop(L, 1);
        return false;
    }
    lua_getfield(L, -1, "name");
    snprintf(pl->name, sizeof pl->name, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "landmark");
    lua_pop(L, 1);
    int np = 0, nc = 0, ni = 0;
    float *idx = NULL;
    ok = read_float_array(L, "positions", &pl->positions, &np, where, err, cap) &&
         read_float_array(L, "indices", &idx, &ni, where, err, cap);
    if (ok) {
        lua_getfield(L, -1, "colors");
        bool has_colors = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (has_colors) ok = read_float_array(L, "colors", &pl->colors, &nc, where, err, cap);
    }
    lua_pop(L, 1); /* mesh */
    if (!ok) { free(idx); return false; }
    if (np % 3 || ni % 3 || np == 0 || ni == 0 || (pl->colors && nc != np)) {
        snprintf(err, cap, "%s (%s): %d positions, %d indices, %d colours: need 3 per vertex / "
                 "triangle", where, pl->name, np, ni, nc);
        free(idx);
        return false;
    }
    pl->vertex_count = np / 3;
    pl->triangle_count = ni / 3;
    pl->indices = malloc(sizeof *pl->indices * (size_t)ni);
    if (!pl->indices) { free(idx); snprintf(err, cap, "out of memory"); return false; }
    /* Indices are 1-based in Lua (world:add_landmark's convention). */
    for (int i = 0; i < ni; i++) {
        if (idx[i] < 1 || idx[i] > pl->vertex_count || idx[i] != floorf(idx[i])) {
            snprintf(err, cap, "%s (%s): index %g out of range 1..%d", where, pl->name,
                     (double)idx[i], pl->vertex_count);
            free(idx);
            return false;
        }
        pl->indices[i] = (uint32_t)idx[i] - 1;
    }
    free(idx);
    return true;
}

/* Runs the file and reads its table into *p (on the heap: it is big). The world file is content:
 * it runs sandboxed under the Lua layer's file budget (gait_script_read_data_file), and what is
 * read here is a plain copy of the data it returned, so no code of the file's runs outside. */
static bool read_world(const char *path, const char *dir, pending_world *p, char *err, size_t cap) {
    gait_script_def sd = gait_default_script_def();
    sd.root = dir;
    gait_script *gs = gait_script_create(&sd);
    if (!gs) { snprintf(err, cap, "%s: cannot start the Lua layer to read it", path); return false; }
    lua_State *L = gait_script_lua(gs);
    bool ok = false;
    if (gait_script_read_data_file(gs, path, dir) != GAIT_OK) {
        snprintf(err, cap, "%s", gait_script_last_error(gs));
        goto done;
    }
    if (!lua_istable(L, -1)) {
        snprintf(err, cap, "%s: the world file must return a table, it returned %s", path,
                 luaL_typename(L, -1));
        goto done;
    }
    int w = lua_gettop(L);
    lua_getfield(L, w, "name");
    snprintf(p->name, sizeof p->name, "%s", lua_isstring(L, -1) ? lua_tostring(L, -1) : "world");
    lua_pop(L, 1);

    lua_getfield(L, w, "level");
    p->level[0] = '\0';
    if (lua_type(L, -1) == LUA_TSTRING) {
        const char *lv = lua_tostring(L, -1);
        if (!lv[0] || lv[0] == '/' || strstr(lv, "..")) { /* content names files beside it only */
            snprintf(err, cap, "%s: level: expected a file beside the world file (a relative name, "
                     "no \"..\")", path);
            goto done;
        }
        sb_path_join(p->level, sizeof p->level, dir, lv);
    } else if (!lua_isnil(L, -1)) {
        snprintf(err, cap, "%s: level: expected a file name (glTF, OBJ, FBX, ...), got %s", path,
                 luaL_typename(L, -1));
        goto done;
    }
    lua_pop(L, 1);
    if (!field_number(L, w, "level_scale", 1.0, &p->level_scale, "world", err, cap)) goto done;
    if (!(p->level_scale > 0)) {
        snprintf(err, cap, "%s: level_scale must be > 0 (0.01 for a file in centimetres)", path);
        goto done;
    }
    lua_getfield(L, w, "level_up");
    p->level_up = 'y';
    if (!lua_isnil(L, -1)) {
        const char *up = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
        if (strcmp(up, "y") != 0 && strcmp(up, "z") != 0) {
            snprintf(err, cap, "%s: level_up: \"y\" or \"z\" (the file's up axis)", path);
            goto done;
        }
        p->level_up = up[0];
    }
    lua_pop(L, 1);

    p->heightmap[0] = '\0';
    lua_getfield(L, w, "terrain");
    if (lua_istable(L, -1)) {
        int t = lua_gettop(L);
        lua_getfield(L, t, "heightmap");
        const char *hm = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (!hm || !hm[0] || hm[0] == '/' || strstr(hm, "..")) {
            snprintf(err, cap, "%s: terrain.heightmap: expected a PNG beside the world file (a "
                     "relative name, no \"..\")", path);
            goto done;
        }
        sb_path_join(p->heightmap, sizeof p->heightmap, dir, hm);
        lua_pop(L, 1);
        if (!field_number(L, t, "cell_size", 1.0, &p->cell_size, "terrain", err, cap) ||
            !field_number(L, t, "height_scale", 50.0, &p->height_scale, "terrain", err, cap))
            goto done;
        lua_getfield(L, t, "origin");
        p->origin = (gait_vec3){0, 0, 0};
        if (!lua_isnil(L, -1) && !read_vec3(L, &p->origin, "terrain.origin", err, cap)) goto done;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);

    lua_getfield(L, w, "sea_level");
    p->sea_level = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -INFINITY;
    lua_pop(L, 1);

    lua_getfield(L, w, "water");
    p->water_count = 0;
    if (lua_istable(L, -1)) {
        int n = (int)lua_objlen(L, -1);
        for (int i = 1; i <= n && p->water_count < SB_MAX_WATER; i++) {
            lua_rawgeti(L, -1, i);
            int r = lua_gettop(L);
            gait_water_region *wr = &p->water[p->water_count];
            if (!lua_istable(L, r) ||
                !field_number(L, r, "min_x", NAN, &wr->min_x, "water", err, cap) ||
                !field_number(L, r, "min_z", NAN, &wr->min_z, "water", err, cap) ||
                !field_number(L, r, "max_x", NAN, &wr->max_x, "water", err, cap) ||
                !field_number(L, r, "max_z", NAN, &wr->max_z, "water", err, cap) ||
                !field_number(L, r, "surface", NAN, &wr->surface, "water", err, cap) ||
                !isfinite(wr->min_x + wr->min_z + wr->max_x + wr->max_z + wr->surface)) {
                if (!err[0]) snprintf(err, cap, "%s: water[%d] needs min_x, min_z, max_x, max_z, surface", path, i);
                goto done;
            }
            lua_pop(L, 1);
            p->water_count++;
        }
    }
    lua_pop(L, 1);

    p->spawn = (gait_vec3){0, 0, 0};
    p->spawn_yaw = 0;
    lua_getfield(L, w, "spawn");
    p->has_spawn = lua_istable(L, -1);
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, "position");
        if (!lua_isnil(L, -1) && !read_vec3(L, &p->spawn, "spawn.position", err, cap)) goto done;
        lua_pop(L, 1);
        if (!field_number(L, lua_gettop(L), "yaw", 0, &p->spawn_yaw, "spawn", err, cap)) goto done;
    }
    lua_pop(L, 1);

    lua_getfield(L, w, "landmarks");
    p->landmark_count = 0;
    if (lua_istable(L, -1)) {
        int n = (int)lua_objlen(L, -1);
        if (n > SB_MAX_LANDMARKS) {
            snprintf(err, cap, "%s: %d landmarks, the sandbox holds %d", path, n, SB_MAX_LANDMARKS);
            goto done;
        }
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            bool good = read_landmark(L, i, &p->landmarks[p->landmark_count], err, cap);
            lua_pop(L, 1);
            if (!good) {
                pending_landmark *pl = &p->landmarks[p->landmark_count];
                free(pl->positions), free(pl->colors), free(pl->indices);
                char tmp[SB_ERROR_MAX];
                snprintf(tmp, sizeof tmp, "%s: %s", path, err);
                snprintf(err, cap, "%s", tmp);
                goto done;
            }
            p->landmark_count++;
        }
    }
    lua_pop(L, 1);

    /* gadgets: the same reader gait.worldfile's w:add_gadget uses */
    lua_getfield(L, w, "gadgets");
    p->gadget_count = 0;
    if (lua_istable(L, -1)) {
        int n = (int)lua_objlen(L, -1);
        for (int i = 1; i <= n && p->gadget_count < SB_MAX_GADGETS; i++) {
            lua_rawgeti(L, -1, i);
            char why[256];
            int k = p->gadget_count;
            bool good = gait_script_gadget_from_table(L, -1, &p->gadgets[k], p->gadget_names[k],
                                                      &p->gadget_on_ground[k], why, sizeof why) == GAIT_OK;
            lua_pop(L, 1);
            if (!good) {
                snprintf(err, cap, "%s: gadget %d: %s", path, i, why);
                goto done;
            }
            p->gadget_count++;
        }
    }
    lua_pop(L, 1);
    ok = true;
done:
    if (!ok && !err[0]) snprintf(err, cap, "%s: could not be read", path);
    gait_script_destroy(gs);
    return ok;
}

static long long file_mtime_ns(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

bool sb_scene_changed(const sb_scene *scene) {
    return (scene->path[0] && file_mtime_ns(scene->path) != scene->mtime_ns) ||
           (scene->level[0] && file_mtime_ns(scene->level) != scene->level_mtime_ns);
}

/* Flat-shaded copy of an indexed mesh. */
static bool make_draw_mesh(sb_draw_mesh *dm, const pending_landmark *pl, gait_vec3 offset) {
    dm->count = pl->triangle_count * 3;
    dm->verts = malloc(sizeof *dm->verts * (size_t)dm->count);
    if (!dm->verts) return false;
    dm->offset = offset;
    snprintf(dm->name, sizeof dm->name, "%s", pl->name);
    for (int t = 0; t < pl->triangle_count; t++) {
        const float *p[3];
        for (int k = 0; k < 3; k++) p[k] = pl->positions + 3 * pl->indices[3 * t + k];
        float e1[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
        float e2[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
        float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                      e1[0] * e2[1] - e1[1] * e2[0]};
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len > 0) n[0] /= len, n[1] /= len, n[2] /= len;
        for (int k = 0; k < 3; k++) {
            sb_vertex *v = &dm->verts[3 * t + k];
            uint32_t vi = pl->indices[3 * t + k];
            v->px = p[k][0], v->py = p[k][1], v->pz = p[k][2];
            v->nx = n[0], v->ny = n[1], v->nz = n[2];
            if (pl->colors) {
                v->r = pl->colors[3 * vi], v->g = pl->colors[3 * vi + 1], v->b = pl->colors[3 * vi + 2];
            } else if (fabsf(n[1]) >= 0.64f) {
                /* no colours given: walkable faces (within 50 deg of level) light, walls darker */
                v->r = 0.80f, v->g = 0.77f, v->b = 0.68f;
            } else {
                v->r = 0.55f, v->g = 0.58f, v->b = 0.64f;
            }
        }
    }
    return true;
}

static void clear_built(sb_scene *s, gait_world *world) {
    gait_collider *c = gait_world_collider(world);
    for (int i = 0; i < s->landmark_count; i++) {
        gait_collider_remove_landmark(c, s->landmarks[i]);
        free(s->meshes[i].verts);
        s->meshes[i].verts = NULL;
    }
    s->landmark_count = 0;
    gait_collider_clear_water(c);
    s->water_count = 0;
}

/* ---- levels through the host-side importer ------------------------------------------------
 *
 * gait_level_load (runtime/cli/level.h) adds a level file's meshes to the collider itself; the
 * sandbox also needs their triangles to draw. It is linked with
 * -Wl,--wrap=gait_collider_add_landmark (sandbox.mk): every landmark added while `capture.on`
 * is copied here as it goes into the collider, so the drawn triangles are exactly the ones the
 * body collides with. */
static struct {
    bool on;
    pending_landmark *items;
    gait_landmark_id *ids;
    gait_vec3 *offsets;
    int n, cap;
    bool failed;                 /* out of memory while copying */
} capture;

gait_status __real_gait_collider_add_landmark(gait_collider *c, const gait_mesh_def *d,
                                              gait_landmark_id *out_id);
gait_status __wrap_gait_collider_add_landmark(gait_collider *c, const gait_mesh_def *d,
                                              gait_landmark_id *out_id);

gait_status __wrap_gait_collider_add_landmark(gait_collider *c, const gait_mesh_def *d,
                                              gait_landmark_id *out_id) {
    gait_landmark_id id;
    gait_status st = __real_gait_collider_add_landmark(c, d, &id);
    if (out_id) *out_id = id;
    if (st != GAIT_OK || !capture.on) return st;
    if (capture.n == capture.cap) {
        int cap = capture.cap ? capture.cap * 2 : 64;
        pending_landmark *items = realloc(capture.items, sizeof *items * (size_t)cap);
        if (items) capture.items = items;
        gait_landmark_id *ids = realloc(capture.ids, sizeof *ids * (size_t)cap);
        if (ids) capture.ids = ids;
        gait_vec3 *offs = realloc(capture.offsets, sizeof *offs * (size_t)cap);
        if (offs) capture.offsets = offs;
        if (!items || !ids || !offs) { capture.failed = true; return st; }
        capture.cap = cap;
    }
    pending_landmark *pl = &capture.items[capture.n];
    memset(pl, 0, sizeof *pl);
    snprintf(pl->name, sizeof pl->name, "%s", d->name ? d->name : "level");
    pl->vertex_count = d->vertex_count;
    pl->triangle_count = d->triangle_count;
    pl->positions = malloc(sizeof(float) * 3 * (size_t)d->vertex_count);
    pl->indices = malloc(sizeof(uint32_t) * 3 * (size_t)d->triangle_count);
    if (!pl->positions || !pl->indices) {
        free(pl->positions), free(pl->indices);
        capture.failed = true;
        return st;
    }
    memcpy(pl->positions, d->positions, sizeof(float) * 3 * (size_t)d->vertex_count);
    for (int i = 0; i < 3 * d->triangle_count; i++) pl->indices[i] = d->indices ? d->indices[i] : (uint32_t)i;
    capture.ids[capture.n] = id;
    capture.offsets[capture.n] = d->offset;
    capture.n++;
    return st;
}

static void capture_clear(gait_collider *c_remove) {
    for (int i = 0; i < capture.n; i++) {
        if (c_remove) gait_collider_remove_landmark(c_remove, capture.ids[i]);
        free(capture.items[i].positions), free(capture.items[i].indices);
    }
    capture.n = 0;
    capture.failed = false;
}

bool sb_scene_load(sb_scene *s, gait_world *world, const char *path, const char *level_path,
                   char *err, size_t cap) {
    err[0] = '\0';
    pending_world *p = calloc(1, sizeof *p);
    if (!p) { snprintf(err, cap, "out of memory"); return false; }
    char dir[SB_PATH_MAX];
    if (path[0]) sb_path_dir(dir, sizeof dir, path);
    else snprintf(dir, sizeof dir, ".");
    long long mtime = path[0] ? file_mtime_ns(path) : -1;
    if (strcmp(s->path, path) == 0) s->mtime_ns = mtime;   /* read once per change, good or bad */
    p->level_scale = 1.0;
    p->level_up = 'y';
    p->sea_level = -INFINITY;
    if (path[0] && !read_world(path, dir, p, err, cap)) {
        pending_free(p);
        free(p);
        return false;
    }
    if (level_path && level_path[0]) snprintf(p->level, sizeof p->level, "%s", level_path);
    const char *what = path[0] ? path : p->level;
    if (!path[0]) {
        const char *base = strrchr(p->level, '/');
        snprintf(p->name, sizeof p->name, "%.63s", base ? base + 1 : p->level);
    }
    if (p->level[0]) s->level_mtime_ns = file_mtime_ns(p->level);
    int hx = 0, hz = 0, comp = 0;
    char why[SB_ERROR_MAX];
    /* a regular file only: stbi_info's fopen would wait forever on a FIFO */
    if (p->heightmap[0] && gait_file_check(p->heightmap, (size_t)64 << 20, NULL, why, sizeof why) != GAIT_OK) {
        snprintf(err, cap, "%s: terrain.heightmap %s", path, why);
        pending_free(p);
        free(p);
        return false;
    }
    if (p->heightmap[0] && !stbi_info(p->heightmap, &hx, &hz, &comp)) {
        snprintf(err, cap, "%s: terrain.heightmap %s: not a readable PNG", path, p->heightmap);
        pending_free(p);
        free(p);
        return false;
    }

    gait_collider *c = gait_world_collider(world);
    /* The level first: gait_level_load adds nothing when it fails, so a broken level changes
     * nothing (the last good world keeps running). */
    gait_level_start level_start; /* the level's first player start (a node with no mesh) */
    int level_starts = 0;
    if (p->level[0]) {
        int room = SB_MAX_LANDMARKS - p->landmark_count;
        gait_landmark_id *ids = malloc(sizeof *ids * (size_t)(room > 0 ? room : 1));
        char lerr[1200];
        capture_clear(NULL);
        capture.on = true;
        gait_level_limits lim = gait_level_default_limits();
        int n = ids && room > 0 ? gait_level_load_starts(c, p->level, p->level_scale, p->level_up, ids, room, &lim,
                                                         &level_start, 1, &level_starts, lerr, sizeof lerr)
                                : (snprintf(lerr, sizeof lerr, "%.900s: no room for more landmarks", p->level), -1);
        capture.on = false;
        free(ids);
        if (n < 0 || capture.failed || capture.n != n) {
            if (n >= 0) snprintf(lerr, sizeof lerr, "%.900s: out of memory copying its meshes", p->level);
            capture_clear(n >= 0 ? c : NULL);
            snprintf(err, cap, "%s: level: %s", what, lerr);
            pending_free(p);
            free(p);
            return false;
        }
    }

    /* Terrain (landmarks stand on it). */
    if (p->heightmap[0]) {
        gait_status st = gait_collider_load_heightmap(c, p->heightmap, p->cell_size,
                                                      p->height_scale, p->origin);
        if (st != GAIT_OK) {
            snprintf(err, cap, "%s: terrain: %s (%s)", path, gait_status_string(st),
                     gait_collider_last_error(c));
            capture_clear(c);
            pending_free(p);
            free(p);
            return false;
        }
    } else {
        gait_collider_set_terrain(c, NULL);
    }
    clear_built(s, world);
    snprintf(s->path, sizeof s->path, "%s", path);
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    snprintf(s->name, sizeof s->name, "%s", p->name);
    snprintf(s->level, sizeof s->level, "%s", p->level);
    s->mtime_ns = mtime;
    s->has_terrain = p->heightmap[0] != '\0';
    s->samples_x = hx, s->samples_z = hz;
    s->cell_size = p->cell_size;
    s->origin = p->origin;
    s->spawn = p->spawn;
    s->spawn_yaw = p->spawn_yaw;
    s->spawn_from_level = false;
    snprintf(s->spawn_source, sizeof s->spawn_source, "%s", p->has_spawn ? "the world file's spawn" : "the origin");
    s->sea_level = p->sea_level;
    gait_collider_set_sea_level(c, p->sea_level);
    for (int i = 0; i < p->water_count; i++) {
        if (gait_collider_add_water(c, &p->water[i], NULL) == GAIT_OK) s->water[s->water_count++] = p->water[i];
    }
    gait_world_clear_gadgets(world);
    for (int i = 0; i < p->gadget_count; i++) {
        gait_gadget_def *g = &p->gadgets[i];
        g->name = p->gadget_names[i];
        double h;
        gait_vec3 n;
        for (int k = 0; p->gadget_on_ground[i] && k < (g->kind == GAIT_GADGET_WIND ? g->point_count : 1); k++) {
            gait_vec3 *q = g->kind == GAIT_GADGET_WIND ? &g->points[k] : &g->position;
            if (gait_terrain_sample(c, q->x, q->z, &h, &n)) q->y += h;
        }
        if (gait_world_add_gadget(world, g, NULL) != GAIT_OK) /* reported, the rest goes on */
            snprintf(err, cap, "%s: gadget %s: %s", path, g->name, gait_world_last_error(world));
    }
    for (int i = 0; i < p->landmark_count; i++) {
        pending_landmark *pl = &p->landmarks[i];
        gait_vec3 at = pl->at;
        if (pl->on_ground) {
            double h;
            gait_vec3 n;
            if (gait_terrain_sample(c, at.x, at.z, &h, &n)) at.y += h;
        }
        gait_mesh_def md = {0};
        md.positions = pl->positions;
        md.vertex_count = pl->vertex_count;
        md.indices = pl->indices;
        md.triangle_count = pl->triangle_count;
        md.offset = at;
        md.name = pl->name;
        gait_landmark_id id;
        gait_status st = gait_collider_add_landmark(c, &md, &id);
        if (st != GAIT_OK) {
            /* Keep going: one bad landmark should not empty the world; report it. */
            snprintf(err, cap, "%s: landmark %s: %s (%s)", path, pl->name, gait_status_string(st),
                     gait_collider_last_error(c));
            continue;
        }
        st = start_motion(c, id, pl, at);
        if (st != GAIT_OK) {
            snprintf(err, cap, "%s: landmark %s: motion: %s", path, pl->name,
                     gait_collider_last_error(c));
            gait_collider_remove_landmark(c, id);
            continue;
        }
        if (!make_draw_mesh(&s->meshes[s->landmark_count], pl, at)) {
            gait_collider_remove_landmark(c, id);
            continue;
        }
        s->landmarks[s->landmark_count++] = id;
    }

    /* The level's meshes: drawn as they are in the collider. The body starts at the file's
     * first player start (an empty node named like one), else on top of a mesh named like one (it stays in the collider, as every host that
     * imports the file has it). */
    s->level_first = s->landmark_count;
    s->level_count = s->level_triangles = 0;
    s->level_min = (gait_vec3){INFINITY, INFINITY, INFINITY};
    s->level_max = (gait_vec3){-INFINITY, -INFINITY, -INFINITY};
    bool start_found = false;
    if (level_starts > 0 && !p->has_spawn) {
        /* a start the file marks with an empty node: the body is stood on what is below it */
        s->spawn = level_start.position;
        s->spawn_yaw = level_start.yaw;
        s->spawn_from_level = start_found = true;
        snprintf(s->spawn_source, sizeof s->spawn_source, "the level's start node %.60s", level_start.name);
    }
    for (int i = 0; i < capture.n; i++) {
        gait_landmark_info info;
        if (gait_collider_landmark_info(c, capture.ids[i], &info) != GAIT_OK) continue;
        if (gait_level_is_start_name(capture.items[i].name) && !start_found && !p->has_spawn) {
            s->spawn = (gait_vec3){(info.bounds_min.x + info.bounds_max.x) / 2, info.bounds_max.y,
                                   (info.bounds_min.z + info.bounds_max.z) / 2};
            s->spawn_yaw = 0;
            s->spawn_from_level = start_found = true;
            snprintf(s->spawn_source, sizeof s->spawn_source, "the level's start node %.60s", capture.items[i].name);
        }
        if (!make_draw_mesh(&s->meshes[s->landmark_count], &capture.items[i], capture.offsets[i])) {
            gait_collider_remove_landmark(c, capture.ids[i]);
            continue;
        }
        s->landmarks[s->landmark_count++] = capture.ids[i];
        s->level_count++;
        s->level_triangles += info.triangle_count;
        s->level_min = (gait_vec3){fmin(s->level_min.x, info.bounds_min.x), fmin(s->level_min.y, info.bounds_min.y),
                                   fmin(s->level_min.z, info.bounds_min.z)};
        s->level_max = (gait_vec3){fmax(s->level_max.x, info.bounds_max.x), fmax(s->level_max.y, info.bounds_max.y),
                                   fmax(s->level_max.z, info.bounds_max.z)};
    }
    capture_clear(NULL);
    if (p->level[0] && !start_found && !p->has_spawn && s->level_count > 0) {
        /* No start node: above the middle of the level's box; the body is stood on whatever
         * is below when it is created or placed. */
        s->spawn = (gait_vec3){(s->level_min.x + s->level_max.x) / 2, s->level_max.y + 1.0,
                               (s->level_min.z + s->level_max.z) / 2};
        s->spawn_from_level = true;
        snprintf(s->spawn_source, sizeof s->spawn_source, "above the level's centre (no start node)");
    }
    s->generation++;
    pending_free(p);
    free(p);
    return true;
}

void sb_scene_free(sb_scene *s, gait_world *world) {
    if (world) clear_built(s, world);
    for (int i = 0; i < s->landmark_count; i++) free(s->meshes[i].verts);
    s->landmark_count = 0;
    capture_clear(NULL);
    free(capture.items), free(capture.ids), free(capture.offsets);
    memset(&capture, 0, sizeof capture);
}
