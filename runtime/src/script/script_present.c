/* The presentation as tuning data (docs/behaviour.md: "Animation signal", "Camera"): scripts/tuning/camera.lua (the follow camera's
 * distances, pitch limits, smoothing and probe) and scripts/tuning/anim.lua (the animation
 * signal's crossfade, movement epsilon, grounded debounce and the clip map), validated key by
 * key like the other tuning files and hot-reloaded; and the character methods that read them:
 * ch:camera(), ch:set_camera{...}, ch:anim(), ch:set_clip(state, clip), ch:set_model_lacks(state, b). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "script_internal.h"

typedef gait__num_field num_field;

/* camera.lua's and anim.lua's numbers: the defs' schemas (camera.c, anim.c), one for C and Lua. */
#define CAMERA_FIELDS (gait_camera_schema()->fields)
#define CAMERA_COUNT (gait_camera_schema()->count)
#define ANIM_FIELDS (gait_anim_schema()->fields)
#define ANIM_COUNT (gait_anim_schema()->count)

/* Reads the number fields of a table at idx into base (a struct); unknown keys are errors unless
 * `also` names them (sub-tables handled by the caller). */
static bool read_numbers(lua_State *L, int idx, const num_field *fields, int count, void *base,
                         const char *path, const char *also, char *err, size_t cap) {
    char at[GAIT__PATH_MAX + 8];
    snprintf(at, sizeof at, "%s: ", path);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING) {
            snprintf(err, cap, "%skeys are names, not a %s", at, luaL_typename(L, -2));
            lua_pop(L, 2);
            return false;
        }
        const char *key = lua_tostring(L, -2);
        if (also && strcmp(key, also) == 0) {
            lua_pop(L, 1);
            continue;
        }
        const num_field *f = NULL;
        for (int i = 0; i < count; i++)
            if (strcmp(fields[i].name, key) == 0) f = &fields[i];
        if (!f) {
            int n = snprintf(err, cap, "%s%s: unknown key (valid:", at, key);
            for (int i = 0; i < count && n > 0 && (size_t)n < cap; i++)
                n += snprintf(err + n, cap - (size_t)n, " %s", fields[i].name);
            if (also && n > 0 && (size_t)n < cap) n += snprintf(err + n, cap - (size_t)n, " %s", also);
            if (n > 0 && (size_t)n < cap) snprintf(err + n, cap - (size_t)n, ")");
            lua_pop(L, 2);
            return false;
        }
        double v;
        if (!gait__read_number(L, f, path, "", &v, err, cap)) {
            lua_pop(L, 2);
            return false;
        }
        memcpy((char *)base + f->offset, &v, sizeof v);
        lua_pop(L, 1);
    }
    return true;
}

bool gait__camera_from_table(lua_State *L, int idx, const char *path, gait_camera_def *out,
                             char *err, size_t cap) {
    gait_camera_def d = gait_default_camera_def();
    if (!read_numbers(L, idx, CAMERA_FIELDS, CAMERA_COUNT,
                      &d, path, NULL, err, cap))
        return false;
    gait_camera probe;
    if (gait_camera_init(&probe, &d) != GAIT_OK) {
        snprintf(err, cap, "%s: the camera's numbers disagree: need probe_radius < min_distance <= "
                 "distance <= max_distance and min_pitch <= pitch <= max_pitch", path);
        return false;
    }
    *out = d;
    return true;
}

bool gait__anim_from_table(lua_State *L, int idx, const char *path, gait_anim_def *out,
                           char clips[GAIT_ANIM_STATE_COUNT][GAIT_CLIP_NAME_MAX], char *err,
                           size_t cap) {
    gait_anim_def d = gait_default_anim_def();
    if (!read_numbers(L, idx, ANIM_FIELDS, ANIM_COUNT, &d,
                      path, "clips", err, cap))
        return false;
    char map[GAIT_ANIM_STATE_COUNT][GAIT_CLIP_NAME_MAX];
    memset(map, 0, sizeof map);
    lua_getfield(L, idx, "clips");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1)) {
            snprintf(err, cap, "%s: clips must be a table {state = \"clip name\"}, not a %s", path,
                     luaL_typename(L, -1));
            lua_pop(L, 1);
            return false;
        }
        int t = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, t)) {
            const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
            int s = key ? gait_anim_state_from_name(key) : -1;
            if (s < 0) {
                int n = snprintf(err, cap, "%s: clips.%s: not an animation state (valid:", path,
                                 key ? key : "?");
                for (int i = 0; i < GAIT_ANIM_STATE_COUNT && n > 0 && (size_t)n < cap; i++)
                    n += snprintf(err + n, cap - (size_t)n, " %s", gait_anim_state_name((gait_anim_state)i));
                if (n > 0 && (size_t)n < cap) snprintf(err + n, cap - (size_t)n, ")");
                lua_pop(L, 3);
                return false;
            }
            size_t len = 0;
            const char *clip = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
            if (!clip || len == 0 || len >= GAIT_CLIP_NAME_MAX) {
                snprintf(err, cap, "%s: clips.%s: wanted a clip name of 1 to %d bytes, not %s", path,
                         key, GAIT_CLIP_NAME_MAX - 1, clip ? "that" : luaL_typename(L, -1));
                lua_pop(L, 3);
                return false;
            }
            memcpy(map[s], clip, len);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    *out = d;
    memcpy(clips, map, sizeof map);
    return true;
}

void gait__present_apply_character(gait_script *s, gait_world *w, gait_character_id id) {
    if (!s->tuning.loaded) return;
    if (s->tuning.has_camera) gait_character_set_camera_def(w, id, &s->tuning.camera);
    if (s->tuning.has_anim) {
        gait_character_set_anim_def(w, id, &s->tuning.anim);
        for (int k = 0; k < GAIT_ANIM_STATE_COUNT; k++)
            gait_character_set_clip(w, id, (gait_anim_state)k, s->tuning.clips[k]);
    }
}

/* ---- character methods --------------------------------------------------------------------- */

static gait__chud *check_live(lua_State *L) { return gait__check_character(L, 1); /* raises when stale */ }

/* gait_camera's fields of the view, by their C names (its settings, `def`, go apart) */
#define VIEW_FIELDS(X)                                                                            \
    X(number, yaw) X(number, pitch) X(number, distance) X(number, arm) X(vec3, eye)               \
    X(vec3, pivot) X(bool, blocked)

/* ch:camera() -> {yaw, pitch, distance, arm, eye, pivot, blocked, settings = {...}} */
static int l_ch_camera(lua_State *L) {
    gait__chud *c = check_live(L);
    gait_camera cam;
    gait_character_camera(c->box->world, c->id, &cam);
    lua_createtable(L, 0, 8);
    const gait_camera *from = &cam;
    VIEW_FIELDS(GAIT__SET_FIELD)
    lua_createtable(L, 0, 10);
    for (int i = 0; i < CAMERA_COUNT; i++) {
        double v;
        memcpy(&v, (const char *)&cam.def + CAMERA_FIELDS[i].offset, sizeof v);
        gait__set_number(L, CAMERA_FIELDS[i].name, v);
    }
    lua_setfield(L, -2, "settings");
    return 1;
}

/* ch:set_camera{distance = ..., ...} (gait_character_set_camera_def) -> true; the rest keep
 * their values; numbers out of range or that disagree raise */
static int l_ch_set_camera(lua_State *L) {
    gait__chud *c = check_live(L);
    luaL_checktype(L, 2, LUA_TTABLE);
    gait_camera cam;
    gait_character_camera(c->box->world, c->id, &cam);
    gait_camera_def d = cam.def;
    char err[512];
    if (!read_numbers(L, 2, CAMERA_FIELDS, CAMERA_COUNT, &d,
                      "set_camera", NULL, err, sizeof err))
        return luaL_argerror(L, 2, err);
    if (gait_character_set_camera_def(c->box->world, c->id, &d) != GAIT_OK)
        return luaL_argerror(L, 2, "set_camera: the camera's numbers disagree: need probe_radius < "
                                   "min_distance <= distance <= max_distance and min_pitch <= pitch "
                                   "<= max_pitch");
    lua_pushboolean(L, 1);
    return 1;
}

/* ch:anim() -> {state, wanted, clip, fade_seconds, seconds_in_state, grounded, switches} */
static int l_ch_anim(lua_State *L) {
    gait__chud *c = check_live(L);
    gait_anim_signal sig;
    gait_character_anim(c->box->world, c->id, &sig);
    lua_createtable(L, 0, 7);
    gait__set_string(L, "state", gait_anim_state_name(sig.state));
    gait__set_string(L, "wanted", gait_anim_state_name(sig.wanted));
    gait__set_string(L, "clip", sig.clip);
    gait__set_number(L, "fade_seconds", sig.fade_seconds);
    gait__set_number(L, "seconds_in_state", sig.seconds_in_state);
    gait__set_bool(L, "grounded", sig.grounded);
    gait__set_number(L, "switches", sig.switches);
    return 1;
}

static gait_anim_state check_anim_state(lua_State *L, int idx) {
    const char *name = luaL_checkstring(L, idx);
    int s = gait_anim_state_from_name(name);
    if (s < 0) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        luaL_addstring(&b, "not an animation state (valid:");
        for (int i = 0; i < GAIT_ANIM_STATE_COUNT; i++) {
            luaL_addchar(&b, ' ');
            luaL_addstring(&b, gait_anim_state_name((gait_anim_state)i));
        }
        luaL_addchar(&b, ')');
        luaL_pushresult(&b);
        luaL_argerror(L, idx, lua_tostring(L, -1));
    }
    return (gait_anim_state)s;
}

/* ch:set_clip(state, clip | nil) */
static int l_ch_set_clip(lua_State *L) {
    gait__chud *c = check_live(L);
    gait_anim_state s = check_anim_state(L, 2);
    const char *clip = luaL_optstring(L, 3, NULL);
    if (clip && strlen(clip) >= GAIT_CLIP_NAME_MAX)
        return luaL_argerror(L, 3, "a clip name is at most 47 bytes");
    gait_character_set_clip(c->box->world, c->id, s, clip);
    return 0;
}

/* ch:set_model_lacks(state, lacks) */
static int l_ch_set_model_lacks(lua_State *L) {
    gait__chud *c = check_live(L);
    gait_anim_state s = check_anim_state(L, 2);
    luaL_checktype(L, 3, LUA_TBOOLEAN);
    gait_character_set_model_lacks(c->box->world, c->id, s, lua_toboolean(L, 3));
    return 0;
}

void gait__present_register(lua_State *L) {
    static const luaL_Reg methods[] = {
        {"camera", l_ch_camera}, {"set_camera", l_ch_set_camera}, {"anim", l_ch_anim},
        {"set_clip", l_ch_set_clip}, {"set_model_lacks", l_ch_set_model_lacks}, {NULL, NULL},
    };
    gait__add_methods(L, GAIT__MT_CHARACTER, methods);
}
