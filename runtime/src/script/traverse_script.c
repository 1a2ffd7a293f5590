/* The traversal's Lua side: scripts/tuning/traversal.lua read into a gait_traverse_table (its
 * schema is here, next to the struct it fills, as script_tuning.c does for the locomotion
 * numbers), ch:traversal(), ch:set_traverse_hook(fn), w:traverse_scan{...} and gait.traverse.
 *
 * traversal.lua returns { <scalar keys below>, actions = { {kind = "vault", ...}, ... } }.
 * Every number: unknown key, wrong type, NaN, out of range -> an error naming the file, the key
 * and the allowed range; nothing is applied (gait__tuning_load keeps the last good set).
 *
 * Names: ch:traverse_info() is gait_character_traverse_info (ch:traversal() its older alias);
 * w:traverse_scan{...} runs gait_traverse_scan_run; gait.traverse.choose is
 * gait_traverse_choose. */
#include "script_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef gait__num_field tfield;

/* The table's and a row's numbers: their schemas (traverse_choose.c), one for C and Lua alike. */
#define TABLE_FIELDS (gait_traverse_table_schema()->fields)
#define TABLE_COUNT (gait_traverse_table_schema()->count)
#define ACTION_FIELDS (gait_traverse_action_schema()->fields)
#define ACTION_COUNT (gait_traverse_action_schema()->count)


static double *dslot(void *base, size_t off) { return (double *)(void *)((char *)base + off); }


static bool read_action(lua_State *L, int idx, int i, const char *path,
                        gait_traverse_action_def *a, char *err, size_t cap) {
    char prefix[32];
    snprintf(prefix, sizeof prefix, "actions[%d].", i);
    memset(a, 0, sizeof *a);
    a->max_height = 0;
    a->max_depth = INFINITY;
    a->max_speed = 1000;
    a->back_floor = -1;
    a->rise_speed = 2.5;
    a->cross_speed = 2.5;
    bool has_kind = false;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        if (strcmp(key, "kind") == 0) {
            int k = lua_type(L, -1) == LUA_TSTRING ? gait_traverse_kind_from_name(lua_tostring(L, -1)) : -1;
            if (k <= 0) {
                snprintf(err, cap, "%s: %skind must be one of vault, hurdle, mantle_low, mantle_high",
                         path, prefix);
                lua_pop(L, 2);
                return false;
            }
            a->kind = (gait_traverse_kind)k;
            has_kind = true;
        } else if (strcmp(key, "back_floor") == 0) {
            const char *v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
            if (strcmp(v, "required") == 0) a->back_floor = 1;
            else if (strcmp(v, "none") == 0) a->back_floor = 0;
            else if (strcmp(v, "either") == 0) a->back_floor = -1;
            else {
                snprintf(err, cap, "%s: %sback_floor must be \"required\", \"none\" or \"either\"",
                         path, prefix);
                lua_pop(L, 2);
                return false;
            }
        } else {
            const tfield *f = NULL;
            for (int k = 0; k < ACTION_COUNT; k++)
                if (strcmp(ACTION_FIELDS[k].name, key) == 0) f = &ACTION_FIELDS[k];
            if (!f) {
                snprintf(err, cap, "%s: %s%s: unknown key (kind, back_floor, min/max_height, "
                         "min/max_depth, min/max_speed, rise_speed, cross_speed)", path, prefix, key);
                lua_pop(L, 2);
                return false;
            }
            if (!gait__read_number(L, f, path, prefix, dslot(a, f->offset), err, cap)) {
                lua_pop(L, 2);
                return false;
            }
        }
        lua_pop(L, 1);
    }
    if (!has_kind) {
        snprintf(err, cap, "%s: %skind is missing", path, prefix);
        return false;
    }
    return true;
}

bool gait__traversal_from_table(lua_State *L, int idx, const char *path, gait_traverse_table *out,
                                char *err, size_t cap) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    gait_traverse_table t = gait_default_traverse_table();
    bool has_actions = false;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        if (strcmp(key, "actions") == 0) {
            if (!lua_istable(L, -1)) {
                snprintf(err, cap, "%s: actions must be a list of tables", path);
                lua_pop(L, 2);
                return false;
            }
            int n = (int)lua_objlen(L, -1);
            if (n > GAIT_TRAVERSE_MAX_ACTIONS) {
                snprintf(err, cap, "%s: %d actions; at most %d", path, n, GAIT_TRAVERSE_MAX_ACTIONS);
                lua_pop(L, 2);
                return false;
            }
            int tab = lua_gettop(L);
            for (int i = 1; i <= n; i++) {
                lua_rawgeti(L, tab, i);
                if (!lua_istable(L, -1)) {
                    snprintf(err, cap, "%s: actions[%d] must be a table", path, i);
                    lua_pop(L, 3);
                    return false;
                }
                if (!read_action(L, lua_gettop(L), i, path, &t.actions[i - 1], err, cap)) {
                    lua_pop(L, 3);
                    return false;
                }
                lua_pop(L, 1);
            }
            t.count = n;
            has_actions = true;
        } else {
            const tfield *f = NULL;
            for (int k = 0; k < TABLE_COUNT; k++)
                if (strcmp(TABLE_FIELDS[k].name, key) == 0) f = &TABLE_FIELDS[k];
            if (!f) {
                snprintf(err, cap, "%s: %s: unknown key (see gait.traverse.schema())", path, key);
                lua_pop(L, 2);
                return false;
            }
            if (!gait__read_number(L, f, path, "", dslot(&t, f->offset), err, cap)) {
                lua_pop(L, 2);
                return false;
            }
        }
        lua_pop(L, 1);
    }
    (void)has_actions;
    char why[160];
    if (gait_traverse_table_validate(&t, why, sizeof why) != GAIT_OK) {
        snprintf(err, cap, "%s: %s", path, why);
        return false;
    }
    *out = t;
    return true;
}

/* ---- pushing results ------------------------------------------------------------------------ */

/* gait_traverse_scan's fields, by their C names */
#define SCAN_FIELDS(X)                                                                            \
    X(bool, ok) X(string, reason) X(bool, wall) X(bool, ledge) X(bool, room) X(bool, thick)       \
    X(bool, back_floor) X(vec3, wall_point) X(vec3, wall_normal) X(number, wall_distance)         \
    X(vec3, edge) X(vec3, ledge_a) X(vec3, ledge_b) X(vec3, grab) X(number, height)               \
    X(number, depth) X(number, back_floor_height) X(number, back_floor_distance)                  \
    X(number, sweeps) X(number, rays)

static void push_scan(lua_State *L, const gait_traverse_scan *from) {
    lua_createtable(L, 0, 24);
    SCAN_FIELDS(GAIT__SET_FIELD)
}

/* gait_traverse_info's fields that go by their C names (kind, phase and scan are named apart) */
#define INFO_FIELDS(X)                                                                            \
    X(number, seconds) X(number, actions) X(number, corridor) X(vec3, corridor_origin)            \
    X(vec3, corridor_dir) X(bool, latch) X(number, cooldown) X(bool, auto_crouch)                 \
    X(bool, stand_blocked) X(bool, crouch_air)

static const char *const phase_names[] = {"none", "approach", "rise", "cross", "drop", "done"};

/* ch:traverse_info() (alias ch:traversal()) -> {kind, phase, seconds, actions, corridor, latch,
 * cooldown, auto_crouch, stand_blocked, scan = {...}} */
static int l_ch_traverse_info(lua_State *L) {
    gait__chud *c = gait__check_character(L, 1);
    gait_traverse_info ti;
    if (gait_character_traverse_info(c->box->world, c->id, &ti) != GAIT_OK)
        return luaL_error(L, "ch:traverse_info(): %s", gait_world_last_error(c->box->world));
    lua_createtable(L, 0, 12);
    gait__set_string(L, "kind", gait_traverse_kind_name(ti.kind));
    gait__set_string(L, "phase", phase_names[(unsigned)ti.phase < 6 ? ti.phase : 0]);
    const gait_traverse_info *from = &ti;
    INFO_FIELDS(GAIT__SET_FIELD)
    push_scan(L, &ti.scan);
    lua_setfield(L, -2, "scan");
    return 1;
}

/* w:traverse_scan{position = {x, y, z}, forward = {x, y, z}, speed = m/s, body_type = name}
 * -> the scan's table (a pure query; the world's table and the body type's numbers) */
static int l_world_traverse_scan(lua_State *L) {
    gait__wbox *b = gait__check_world(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    int bt = GAIT_BODY_MEDIUM_FEMALE;
    lua_getfield(L, 2, "body_type");
    if (!lua_isnil(L, -1)) {
        const char *names[GAIT_BODY_TYPE_COUNT];
        for (int i = 0; i < GAIT_BODY_TYPE_COUNT; i++) names[i] = gait_body_type_name((gait_body_type)i);
        bt = gait__enum_at(L, lua_gettop(L), names, GAIT_BODY_TYPE_COUNT, "traverse_scan: body_type");
    }
    lua_pop(L, 1);
    /* a scan runs a few dozen sweeps and rays (bench_traverse: tens of us) */
    gait__budget_charge(L, b->script, 5000);
    gait_traverse_query q = gait_traverse_default_query(gait_world_traverse_table(b->world),
                                                        gait_world_locomotion(b->world, (gait_body_type)bt));
    lua_getfield(L, 2, "position");
    q.feet = gait__check_vec3(L, -1, "position");
    lua_pop(L, 1);
    lua_getfield(L, 2, "forward");
    if (!lua_isnil(L, -1)) q.forward = gait__check_vec3(L, -1, "forward");
    lua_pop(L, 1);
    lua_getfield(L, 2, "speed");
    q.speed = luaL_optnumber(L, -1, 0); /* the scan refuses a non-finite one: "invalid query" */
    lua_pop(L, 1);
    gait_traverse_scan s;
    gait_traverse_scan_run(gait_world_collider_const(b->world), &q, NULL, &s);
    push_scan(L, &s);
    return 1;
}

/* ---- the action hook ------------------------------------------------------------------------ */

#define REG_TRAV_HOOKS "gait.traverse_hooks" /* light box -> {index1 -> function} */

gait_traverse_kind gait__traverse_trampoline(gait_world *world, gait_character_id id,
                                             const gait_traverse_scan *scan,
                                             gait_traverse_kind proposed, void *user) {
    gait__wbox *b = (gait__wbox *)user;
    lua_State *L = b->script->L;
    gait_traverse_kind result = proposed;
    int top, wud = gait__hook_enter(b, world, 12, &top);
    if (!wud) goto out;
    lua_getfield(L, LUA_REGISTRYINDEX, REG_TRAV_HOOKS);
    if (!lua_istable(L, -1)) goto out;
    lua_pushlightuserdata(L, b);
    lua_rawget(L, -2);
    if (!lua_istable(L, -1)) goto out;
    lua_rawgeti(L, -1, id.index1);
    if (!lua_isfunction(L, -1)) goto out;
    gait__push_character(L, wud, id);
    push_scan(L, scan);
    lua_pushstring(L, gait_traverse_kind_name(proposed));
    char what[64];
    snprintf(what, sizeof what, "traverse hook (character #%d)", (int)id.index1);
    if (gait__hook_pcall(b->script, 3, 1, what) != GAIT_OK) goto out;
    if (lua_type(L, -1) == LUA_TSTRING) {
        int k = gait_traverse_kind_from_name(lua_tostring(L, -1));
        if (k < 0) gait__script_error(b->script, "%s returned \"%s\", not an action (none, vault, hurdle, "
                                      "mantle_low, mantle_high)", what, lua_tostring(L, -1));
        else result = (gait_traverse_kind)k;
    } else if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
        result = GAIT_TRAVERSE_NONE;
    } else if (!lua_isnil(L, -1)) {
        gait__script_error(b->script, "%s returned a %s; return an action name, false to veto or nil to "
                           "allow", what, luaL_typename(L, -1));
    }
out:
    lua_settop(L, top);
    return result;
}

/* ch:set_traverse_hook(function(ch, scan, proposed) return kind_or_nil end | nil): under the
 * instruction budget with the JIT off, like a gate hook */
static int l_ch_set_traverse_hook(lua_State *L) {
    gait__chud *c = gait__check_character(L, 1);
    gait__check_hook_arg(L, c->box->script);
    lua_getfield(L, LUA_REGISTRYINDEX, REG_TRAV_HOOKS);
    lua_pushlightuserdata(L, c->box);
    lua_rawget(L, -2);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushlightuserdata(L, c->box);
        lua_pushvalue(L, -2);
        lua_rawset(L, -4);
    }
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, c->id.index1);
    if (lua_isnil(L, 2)) gait_character_set_traverse_hook(c->box->world, c->id, NULL, NULL);
    else gait_character_set_traverse_hook(c->box->world, c->id, gait__traverse_trampoline, c->box);
    return 0;
}

/* ---- gait.traverse ---------------------------------------------------------------------------- */

static void push_table(lua_State *L, const gait_traverse_table *t) {
    lua_createtable(L, 0, TABLE_COUNT + 1);
    for (int i = 0; i < TABLE_COUNT; i++)
        gait__set_number(L, TABLE_FIELDS[i].name, *dslot((void *)(uintptr_t)t, TABLE_FIELDS[i].offset));
    lua_createtable(L, t->count, 0);
    for (int i = 0; i < t->count; i++) {
        const gait_traverse_action_def *a = &t->actions[i];
        lua_createtable(L, 0, 10);
        gait__set_string(L, "kind", gait_traverse_kind_name(a->kind));
        for (int k = 0; k < ACTION_COUNT; k++)
            gait__set_number(L, ACTION_FIELDS[k].name, *dslot((void *)(uintptr_t)a, ACTION_FIELDS[k].offset));
        gait__set_string(L, "back_floor", a->back_floor > 0 ? "required" : a->back_floor == 0 ? "none" : "either");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "actions");
}

/* gait.traverse.table([world]) -> the world's table (or the defaults) as traversal.lua spells it */
static int l_trav_table(lua_State *L) {
    if (lua_isnoneornil(L, 1)) {
        gait_traverse_table t = gait_default_traverse_table();
        push_table(L, &t);
    } else {
        gait__wbox *b = gait__check_world(L, 1);
        push_table(L, gait_world_traverse_table(b->world));
    }
    return 1;
}

/* gait.traverse.schema() -> {name = {min, max, unit}} (actions' keys under "actions.<name>") */
static int l_trav_schema(lua_State *L) {
    lua_newtable(L);
    for (int pass = 0; pass < 2; pass++) {
        const tfield *fs = pass ? ACTION_FIELDS : TABLE_FIELDS;
        int n = pass ? ACTION_COUNT : TABLE_COUNT;
        for (int i = 0; i < n; i++) {
            lua_createtable(L, 0, 3);
            gait__set_number(L, "min", fs[i].min);
            gait__set_number(L, "max", fs[i].max);
            gait__set_string(L, "unit", fs[i].unit);
            if (pass) lua_pushfstring(L, "actions.%s", fs[i].name);
            else lua_pushstring(L, fs[i].name);
            lua_insert(L, -2);
            lua_settable(L, -3);
        }
    }
    return 1;
}

/* gait.traverse.choose(table_or_nil, scan, speed) -> kind (the pure action table) */
static int l_trav_choose(lua_State *L) {
    gait_traverse_table t = gait_default_traverse_table();
    char err[512];
    if (!lua_isnoneornil(L, 1) && !gait__traversal_from_table(L, 1, "table", &t, err, sizeof err))
        return luaL_argerror(L, 1, err);
    luaL_checktype(L, 2, LUA_TTABLE);
    gait_traverse_scan s;
    memset(&s, 0, sizeof s);
    lua_getfield(L, 2, "ok");
    s.ok = lua_isnil(L, -1) ? true : lua_toboolean(L, -1);
    lua_getfield(L, 2, "thick");
    s.thick = lua_toboolean(L, -1);
    lua_getfield(L, 2, "back_floor");
    s.back_floor = lua_toboolean(L, -1);
    lua_getfield(L, 2, "height");
    s.height = luaL_checknumber(L, -1);
    lua_getfield(L, 2, "depth");
    s.depth = luaL_optnumber(L, -1, 0);
    lua_pop(L, 5);
    double speed = luaL_checknumber(L, 3);
    lua_pushstring(L, gait_traverse_kind_name(gait_traverse_choose(&t, &s, speed, NULL)));
    return 1;
}

int gait__open_traverse(lua_State *L) {
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_TRAV_HOOKS);
    /* the character's and the world's methods (their metatables exist by now) */
    static const luaL_Reg character_methods[] = {
        {"traverse_info", l_ch_traverse_info},
        {"traversal", l_ch_traverse_info},
        {"set_traverse_hook", l_ch_set_traverse_hook},
        {NULL, NULL},
    };
    static const luaL_Reg world_methods[] = {{"traverse_scan", l_world_traverse_scan}, {NULL, NULL}};
    gait__add_methods(L, GAIT__MT_CHARACTER, character_methods);
    gait__add_methods(L, GAIT__MT_WORLD, world_methods);
    static const luaL_Reg fns[] = {{"table", l_trav_table}, {"schema", l_trav_schema},
                                   {"choose", l_trav_choose}, {NULL, NULL}};
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    return 1;
}
