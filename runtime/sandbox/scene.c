/* The world file: a Lua chunk returning a plain data table (see scripts/worlds/default.lua for
 * the contract), read in a Lua state of its own, then built into the world's collider (terrain
 * from the PNG heightmap, water, landmarks) and into flat-shaded triangles to draw.
 *
 * Reading and building are split: the whole file is read and checked first, so a broken world
 * file changes nothing (the last good world keeps running and the error is shown). */
#include "sandbox.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <stb_image.h>   /* stbi_info only: the implementation is compiled into libgait.a */

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
} pending_landmark;

typedef struct pending_world {
    char name[64];
    char heightmap[SB_PATH_MAX];
    double cell_size, height_scale;
    gait_vec3 origin, spawn;
    double spawn_yaw, sea_level;
    int water_count;
    gait_water_region water[SB_MAX_WATER];
    int landmark_count;
    pending_landmark landmarks[SB_MAX_LANDMARKS];
} pending_world;

static void pending_free(pending_world *p) {
    for (int i = 0; i < p->landmark_count; i++) {
        free(p->landmarks[i].positions);
        free(p->landmarks[i].colors);
        free(p->landmarks[i].indices);
    }
    p->landmark_count = 0;
}

static int traceback(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
    return 1;
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

/* Runs the file and reads its table into *p (on the heap: it is big). */
static bool read_world(const char *path, const char *dir, pending_world *p, char *err, size_t cap) {
    lua_State *L = luaL_newstate();
    if (!L) { snprintf(err, cap, "%s: cannot create a Lua state", path); return false; }
    luaL_openlibs(L);
    /* The world file's directory first on package.path: `require "shapes"`. */
    lua_getglobal(L, "package");
    lua_pushfstring(L, "%s/?.lua;", dir);
    lua_getfield(L, -2, "path");
    lua_concat(L, 2);
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);

    bool ok = false;
    lua_pushcfunction(L, traceback);
    int handler = lua_gettop(L);
    if (luaL_loadfile(L, path) != 0) {
        snprintf(err, cap, "%s", lua_tostring(L, -1));
        goto done;
    }
    lua_pushstring(L, dir);
    if (lua_pcall(L, 1, 1, handler) != 0) {
        snprintf(err, cap, "%s", lua_tostring(L, -1));
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

    p->heightmap[0] = '\0';
    lua_getfield(L, w, "terrain");
    if (lua_istable(L, -1)) {
        int t = lua_gettop(L);
        lua_getfield(L, t, "heightmap");
        if (!lua_isstring(L, -1)) {
            snprintf(err, cap, "%s: terrain.heightmap: expected a PNG path", path);
            goto done;
        }
        sb_path_join(p->heightmap, sizeof p->heightmap, dir, lua_tostring(L, -1));
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
    ok = true;
done:
    if (!ok && !err[0]) snprintf(err, cap, "%s: could not be read", path);
    lua_close(L);
    return ok;
}

static long long file_mtime_ns(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

bool sb_scene_changed(const sb_scene *scene) {
    return scene->path[0] && file_mtime_ns(scene->path) != scene->mtime_ns;
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
            } else {
                v->r = 0.7f, v->g = 0.7f, v->b = 0.7f;
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

bool sb_scene_load(sb_scene *s, gait_world *world, const char *path, char *err, size_t cap) {
    err[0] = '\0';
    pending_world *p = calloc(1, sizeof *p);
    if (!p) { snprintf(err, cap, "out of memory"); return false; }
    char dir[SB_PATH_MAX];
    sb_path_dir(dir, sizeof dir, path);
    long long mtime = file_mtime_ns(path);
    if (strcmp(s->path, path) == 0) s->mtime_ns = mtime;   /* read once per change, good or bad */
    if (!read_world(path, dir, p, err, cap)) {
        pending_free(p);
        free(p);
        return false;
    }
    int hx = 0, hz = 0, comp = 0;
    if (p->heightmap[0] && !stbi_info(p->heightmap, &hx, &hz, &comp)) {
        snprintf(err, cap, "%s: terrain.heightmap %s: not a readable PNG", path, p->heightmap);
        pending_free(p);
        free(p);
        return false;
    }

    /* Build: terrain first (landmarks stand on it). */
    gait_collider *c = gait_world_collider(world);
    if (p->heightmap[0]) {
        gait_status st = gait_collider_load_heightmap(c, p->heightmap, p->cell_size,
                                                      p->height_scale, p->origin);
        if (st != GAIT_OK) {
            snprintf(err, cap, "%s: terrain: %s (%s)", path, gait_status_string(st),
                     gait_collider_last_error(c));
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
    s->mtime_ns = mtime;
    s->has_terrain = p->heightmap[0] != '\0';
    s->samples_x = hx, s->samples_z = hz;
    s->cell_size = p->cell_size;
    s->origin = p->origin;
    s->spawn = p->spawn;
    s->spawn_yaw = p->spawn_yaw;
    s->sea_level = p->sea_level;
    gait_collider_set_sea_level(c, p->sea_level);
    for (int i = 0; i < p->water_count; i++) {
        if (gait_collider_add_water(c, &p->water[i], NULL) == GAIT_OK) s->water[s->water_count++] = p->water[i];
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
        if (!make_draw_mesh(&s->meshes[s->landmark_count], pl, at)) {
            gait_collider_remove_landmark(c, id);
            continue;
        }
        s->landmarks[s->landmark_count++] = id;
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
}
