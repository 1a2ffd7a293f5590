/* Tuning as data (docs/behaviour.md, "The numbers"), its schema, and the pure modules: gait.tuning, gait.locomotion (the
 * gate function callable with tables), gait.stamina (a pool), gait.clock.
 *
 * The schema is the struct owner's (gait/schema.h: gait_locomotion_schema() in locomotion.c,
 * gait_stamina_schema() in stamina.c): one row per number gives the struct offset, the allowed
 * range, the unit, the default, its source and the file the number belongs in. It is at once
 * the C validator, the mapping onto the struct and the documentation gait.tuning.schema()
 * returns, so a number cannot be validated one way and applied another, or checked against one
 * range here and another in C. gait_locomotion_validate runs afterwards as the last word on
 * cross-field rules (a capsule at least twice its radius tall).
 *
 * Files (each returns a plain table):
 *   locomotion.lua  { provisional = {...}, medium_female = {...}, ... }: the body-type map. An
 *                   entry marks its type measured; its missing keys keep the provisional values.
 *                   Types without an entry move by the provisional numbers (never another
 *                   type's).
 *   stamina.lua     { refill_rate, refill_delay, costs = {dash, sprint_per_s, ...} }
 *   gates.lua       { fall_catch_seconds, walk_stick_threshold, move_epsilon, swim_exit_margin }
 *   traversal.lua   { cooldown, reach_min, ..., actions = {{kind, bands, speeds}, ...} }: the
 *                   traversal's action table, read by traverse_script.c (optional in a directory)
 * Every number: unknown key, wrong type, NaN/Inf, out of range -> an error naming the file (and
 * line), the key and the allowed range; nothing is applied. */
#include "script_internal.h"

#include "gait/schema.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

enum { G_BODY = 0, G_GATES, G_COSTS };

typedef gait_schema_field field;

/* The group a number of gait_locomotion belongs to: its file, or the costs' sub-table. */
static int group_of(const field *f) {
    if (f->group[0]) return G_COSTS;
    return strcmp(f->file, "gates.lua") == 0 ? G_GATES : G_BODY;
}

static const char *const group_file[] = {"locomotion.lua (a body type's entry)", "gates.lua",
                                         "stamina.lua (costs)"};
static const char *const tune_names[GAIT__TUNE_FILES] = {"locomotion", "stamina", "gates",
                                                         "traversal", "camera", "anim"};

static const field *find_field(const char *name, int group) {
    const gait_schema *sc = gait_locomotion_schema();
    for (int i = 0; i < sc->count; i++)
        if (strcmp(sc->fields[i].name, name) == 0 && (group < 0 || group_of(&sc->fields[i]) == group))
            return &sc->fields[i];
    return NULL;
}

/* Whether line holds `key =` (a whole name, not `==`). */
static bool line_sets(const char *line, const char *key, size_t kn) {
    for (const char *p = strstr(line, key); p; p = strstr(p + 1, key)) {
        bool start = p == line || !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                                    p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9'));
        const char *q = p + kn;
        while (*q == ' ' || *q == '\t') q++;
        if (start && *q == '=' && q[1] != '=') return true;
    }
    return false;
}

/* The line of the file holding `key =` (1-based), 0 when not found: the first one after the line
 * that opens `block =` when block is given and found there (an entry's key is reported in its own
 * entry, not in the one before it that sets the same name), else the first in the file. The file
 * is read as content is (gait/file.h): a FIFO put in its place never blocks. */
static int find_line(const char *path, const char *block, const char *key) {
    if (!path || !path[0]) return 0;
    void *data = NULL;
    size_t size = 0;
    if (gait_file_read(path, GAIT__SOURCE_MAX, NULL, &data, &size, NULL, 0) != GAIT_OK) return 0;
    int no = 0, first = 0, in_block = 0, block_line = 0;
    size_t kn = strlen(key), bn = block ? strlen(block) : 0;
    char *text = (char *)data;
    for (char *line = text; !in_block && line && *line;) {
        char *end = strchr(line, '\n');
        if (end) *end = 0;
        no++;
        if (bn && !block_line && line_sets(line, block, bn)) block_line = no;
        else if (line_sets(line, key, kn)) {
            if (!first) first = no;
            if (block_line) in_block = no;
        }
        line = end ? end + 1 : NULL;
    }
    gait_file_free(data, size, NULL);
    return in_block ? in_block : first;
}

/* "file:line: " (or "file: " when the line is unknown, or "" without a file); key looked for in
 * block's entry first (block NULL: anywhere) */
static void where_in(char *out, size_t cap, const char *path, const char *block, const char *key) {
    if (!path || !path[0]) {
        out[0] = 0;
        return;
    }
    int line = find_line(path, block, key);
    if (line > 0) snprintf(out, cap, "%s:%d: ", path, line);
    else snprintf(out, cap, "%s: ", path);
}

static void where(char *out, size_t cap, const char *path, const char *key) {
    where_in(out, cap, path, NULL, key);
}

/* Reads the table at idx into *out: only keys of `group` (-1: any group; "costs" a subtable).
 * prefix names the table in messages ("provisional", "costs"). */
static bool read_fields(lua_State *L, int idx, int group, gait_locomotion *out, const char *path,
                        const char *prefix, char *err, size_t cap) {
    idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
    char at[GAIT__PATH_MAX + 32];
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING) {
            where(at, sizeof at, path, "");
            snprintf(err, cap, "%s%s: a key of type %s; keys are names", at, prefix,
                     luaL_typename(L, -2));
            lua_pop(L, 2);
            return false;
        }
        const char *key = lua_tostring(L, -2);
        if (group < 0 && strcmp(key, "costs") == 0) {
            if (!lua_istable(L, -1)) {
                where(at, sizeof at, path, key);
                snprintf(err, cap, "%scosts must be a table, not a %s", at, luaL_typename(L, -1));
                lua_pop(L, 2);
                return false;
            }
            if (!read_fields(L, -1, G_COSTS, out, path, "costs", err, cap)) {
                lua_pop(L, 2);
                return false;
            }
            lua_pop(L, 1);
            continue;
        }
        const field *f = find_field(key, group);
        where_in(at, sizeof at, path, prefix, key); /* the key in its own entry */
        if (!f) {
            const field *other = find_field(key, -1);
            if (other)
                snprintf(err, cap, "%s%s.%s: this number belongs in %s", at, prefix, key,
                         group_file[group_of(other)]);
            else
                snprintf(err, cap, "%s%s.%s: unknown key (see gait.tuning.schema() for the known "
                         "ones)", at, prefix, key);
            lua_pop(L, 2);
            return false;
        }
        char range[96], why[160];
        gait_schema_range_text(f, range, sizeof range);
        if (lua_type(L, -1) != LUA_TNUMBER) {
            snprintf(err, cap, "%s%s.%s: a %s, wanted a number in %s", at, prefix, key,
                     luaL_typename(L, -1), range);
            lua_pop(L, 2);
            return false;
        }
        double v = lua_tonumber(L, -1);
        if (gait_schema_check_value(f, v, why, sizeof why) != GAIT_OK) {
            snprintf(err, cap, "%s%s.%s", at, prefix, why);
            lua_pop(L, 2);
            return false;
        }
        gait_schema_write(f, out, v);
        lua_pop(L, 1);
    }
    return true;
}

bool gait__locomotion_from_table(lua_State *L, int idx, gait_locomotion *out, char *err, size_t cap) {
    gait_locomotion n = *out;
    if (!read_fields(L, idx, -1, &n, NULL, "numbers", err, cap)) return false;
    if (gait_locomotion_validate(&n, err, cap) != GAIT_OK) return false;
    *out = n;
    return true;
}

void gait__push_locomotion(lua_State *L, const gait_locomotion *n) {
    const gait_schema *sc = gait_locomotion_schema();
    lua_createtable(L, 0, sc->count);
    lua_createtable(L, 0, 10);
    for (int i = 0; i < sc->count; i++) {
        lua_pushnumber(L, gait_schema_read(&sc->fields[i], n));
        lua_setfield(L, group_of(&sc->fields[i]) == G_COSTS ? -2 : -3, sc->fields[i].name);
    }
    lua_setfield(L, -2, "costs");
}

/* ---- loading ------------------------------------------------------------------------------- */

static int plain_copy_top(lua_State *L) {
    gait__plain_copy(L, 1);
    return 1;
}

/* Runs a tuning file (untrusted: sandboxed, under the instruction budget) and leaves a plain
 * copy of its table on the stack: the readers below touch no metamethod of the file's. */
static gait_status run_tuning_file(gait_script *s, const char *path) {
    gait_status st = gait__sandbox_loadfile(s, path);
    if (st != GAIT_OK) return st;
    char what[32];
    snprintf(what, sizeof what, "tuning");
    st = gait__script_pcall(s, 0, 1, what, GAIT__BUDGET_CALL);
    if (st != GAIT_OK) return st;
    if (!lua_istable(s->L, -1)) {
        gait__script_error(s, "%s:1: a tuning file must return a table, not a %s", path,
                           luaL_typename(s->L, -1));
        lua_pop(s->L, 1);
        return GAIT_ERR_SCRIPT;
    }
    lua_pushcfunction(s->L, plain_copy_top);
    lua_insert(s->L, -2);
    return gait__script_pcall(s, 1, 1, path, GAIT__BUDGET_NONE);
}

gait_status gait__tuning_load(gait_script *s, const char *const paths[GAIT__TUNE_FILES]) {
    lua_State *L = s->L;
    int top = lua_gettop(L);
    char err[1024];
    gait__tuning t;
    memset(&t, 0, sizeof t);
    t.refill_rate = -1;
    t.refill_delay = -1;
    for (int k = 0; k < GAIT__TUNE_FILES; k++)
        snprintf(t.paths[k], sizeof t.paths[k], "%s", paths[k] ? paths[k] : "");
    /* The set is watched once it is the script's: after a success, or on a first load that
     * fails (so the fix to a typo at start-up is picked up by poll). A later load of another
     * set that fails leaves the last good set, and what is watched, as they were. */
    if (!s->tuning.loaded) {
        memcpy(s->tuning.paths, t.paths, sizeof t.paths);
        for (int k = 0; k < GAIT__TUNE_FILES; k++)
            if (t.paths[k][0]) gait__script_watch(s, t.paths[k], GAIT__WATCH_TUNING, tune_names[k]);
    }

    int tab[GAIT__TUNE_FILES] = {0};
    for (int k = 0; k < GAIT__TUNE_FILES; k++) {
        if (!t.paths[k][0]) continue;
        if (run_tuning_file(s, t.paths[k]) != GAIT_OK) {
            lua_settop(L, top);
            return GAIT_ERR_SCRIPT;
        }
        tab[k] = lua_gettop(L);
    }

    gait_locomotion base = gait_default_locomotion();
    /* stamina.lua: refill and costs */
    if (tab[GAIT__TUNE_STAMINA]) {
        const char *path = t.paths[GAIT__TUNE_STAMINA];
        int ti = tab[GAIT__TUNE_STAMINA];
        lua_pushnil(L);
        while (lua_next(L, ti)) {
            const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            char at[GAIT__PATH_MAX + 32];
            where(at, sizeof at, path, key);
            if (strcmp(key, "costs") == 0) {
                if (!lua_istable(L, -1)) {
                    snprintf(err, sizeof err, "%scosts must be a table, not a %s", at, luaL_typename(L, -1));
                    goto fail;
                }
                if (!read_fields(L, -1, G_COSTS, &base, path, "costs", err, sizeof err)) goto fail;
            } else if (strcmp(key, "refill_rate") == 0 || strcmp(key, "refill_delay") == 0) {
                const field *f = gait_schema_find(gait_stamina_schema(), "", key);
                char range[96], why[160];
                gait_schema_range_text(f, range, sizeof range);
                if (lua_type(L, -1) != LUA_TNUMBER) {
                    snprintf(err, sizeof err, "%s%s: a %s, wanted a number in %s", at, key,
                             luaL_typename(L, -1), range);
                    goto fail;
                }
                double v = lua_tonumber(L, -1);
                if (gait_schema_check_value(f, v, why, sizeof why) != GAIT_OK) {
                    snprintf(err, sizeof err, "%s%s", at, why);
                    goto fail;
                }
                if (key[7] == 'r') t.refill_rate = v;
                else t.refill_delay = v;
            } else {
                snprintf(err, sizeof err, "%s%s: unknown key (stamina.lua holds refill_rate, "
                         "refill_delay and costs = {...})", at, key);
                goto fail;
            }
            lua_pop(L, 1);
        }
        if ((t.refill_rate < 0) != (t.refill_delay < 0)) {
            snprintf(err, sizeof err, "%s: give refill_rate and refill_delay together", path);
            goto fail;
        }
    }
    if (tab[GAIT__TUNE_GATES] &&
        !read_fields(L, tab[GAIT__TUNE_GATES], G_GATES, &base, t.paths[GAIT__TUNE_GATES], "gates",
                     err, sizeof err))
        goto fail;

    /* traversal.lua: the action table (traverse_script.c reads it) */
    if (tab[GAIT__TUNE_TRAVERSAL]) {
        if (!gait__traversal_from_table(L, tab[GAIT__TUNE_TRAVERSAL], t.paths[GAIT__TUNE_TRAVERSAL],
                                        &t.traversal, err, sizeof err))
            goto fail;
        t.has_traversal = true;
    }
    /* camera.lua and anim.lua: the presentation (script_present.c reads them) */
    if (tab[GAIT__TUNE_CAMERA]) {
        if (!gait__camera_from_table(L, tab[GAIT__TUNE_CAMERA], t.paths[GAIT__TUNE_CAMERA],
                                     &t.camera, err, sizeof err))
            goto fail;
        t.has_camera = true;
    }
    if (tab[GAIT__TUNE_ANIM]) {
        if (!gait__anim_from_table(L, tab[GAIT__TUNE_ANIM], t.paths[GAIT__TUNE_ANIM], &t.anim,
                                   t.clips, err, sizeof err))
            goto fail;
        t.has_anim = true;
    }

    t.provisional = base;
    if (tab[GAIT__TUNE_LOCOMOTION]) {
        const char *path = t.paths[GAIT__TUNE_LOCOMOTION];
        int ti = tab[GAIT__TUNE_LOCOMOTION];
        /* the provisional entry first: measured entries start from it */
        lua_getfield(L, ti, "provisional");
        if (!lua_isnil(L, -1)) {
            if (!lua_istable(L, -1)) {
                snprintf(err, sizeof err, "%s: provisional must be a table", path);
                goto fail;
            }
            if (!read_fields(L, -1, G_BODY, &t.provisional, path, "provisional", err, sizeof err))
                goto fail;
        }
        lua_pop(L, 1);
        lua_pushnil(L);
        while (lua_next(L, ti)) {
            const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            if (strcmp(key, "provisional") == 0) {
                lua_pop(L, 1);
                continue;
            }
            int type = gait_body_type_from_name(key);
            char at[GAIT__PATH_MAX + 32];
            where(at, sizeof at, path, key);
            if (type < 0) {
                snprintf(err, sizeof err, "%s%s: not a body type (provisional, medium_female, "
                         "medium_male, tall_female, tall_male, short_female)", at, key);
                goto fail;
            }
            if (!lua_istable(L, -1)) {
                snprintf(err, sizeof err, "%s%s must be a table, not a %s", at, key, luaL_typename(L, -1));
                goto fail;
            }
            t.measured[type] = t.provisional;
            if (!read_fields(L, -1, G_BODY, &t.measured[type], path, key, err, sizeof err)) goto fail;
            t.has[type] = true;
            lua_pop(L, 1);
        }
    }
    /* the library's own cross-field rules, per entry */
    {
        char why[256];
        const char *file = t.paths[GAIT__TUNE_LOCOMOTION][0] ? t.paths[GAIT__TUNE_LOCOMOTION] : "tuning";
        if (gait_locomotion_validate(&t.provisional, why, sizeof why) != GAIT_OK) {
            snprintf(err, sizeof err, "%s: provisional: %s", file, why);
            goto fail;
        }
        for (int i = 0; i < GAIT_BODY_TYPE_COUNT; i++)
            if (t.has[i] && gait_locomotion_validate(&t.measured[i], why, sizeof why) != GAIT_OK) {
                snprintf(err, sizeof err, "%s: %s: %s", file, gait_body_type_name((gait_body_type)i), why);
                goto fail;
            }
    }
    t.loaded = true;
    s->tuning = t;
    for (int k = 0; k < GAIT__TUNE_FILES; k++)
        if (t.paths[k][0]) gait__script_watch(s, t.paths[k], GAIT__WATCH_TUNING, tune_names[k]);
    lua_settop(L, top);
    gait__tuning_apply_all(s);
    return GAIT_OK;
fail:
    lua_settop(L, top);
    gait__script_error(s, "%s (nothing applied; the last good tuning stays)", err);
    return GAIT_ERR_SCRIPT;
}

void gait__tuning_apply_world(gait_script *s, gait_world *w) {
    if (!s->tuning.loaded || !w) return;
    gait_world_set_provisional_locomotion(w, &s->tuning.provisional);
    for (int i = 0; i < GAIT_BODY_TYPE_COUNT; i++) {
        if (s->tuning.has[i]) gait_world_set_locomotion(w, (gait_body_type)i, &s->tuning.measured[i]);
        else gait_world_clear_locomotion(w, (gait_body_type)i);
    }
    if (s->tuning.has_traversal) gait_world_set_traverse_table(w, &s->tuning.traversal);
    int n = gait_world_max_characters(w);
    for (int i = 1; i <= n; i++) {
        gait_character_id id;
        if (gait_world_character_in_slot(w, i, &id) != GAIT_OK) continue;
        gait__present_apply_character(s, w, id); /* camera and clip map; each keeps its yaw */
        if (s->tuning.refill_rate >= 0) /* runtime state (value, rest) is kept */
            gait_character_set_stamina_refill(w, id, s->tuning.refill_rate, s->tuning.refill_delay);
    }
}

void gait__tuning_apply_all(gait_script *s) {
    lua_State *L = s->L;
    lua_getfield(L, LUA_REGISTRYINDEX, GAIT__REG_WORLDS);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        gait__wbox *b = (gait__wbox *)lua_touserdata(L, -1);
        if (b && b->world) gait__tuning_apply_world(s, b->world);
    }
    lua_pop(L, 1);
    if (s->host_world) gait__tuning_apply_world(s, s->host_world); /* no-op repeat is harmless */
}

/* ---- gait.tuning --------------------------------------------------------------------------- */

bool gait__read_number(lua_State *L, const gait__num_field *f, const char *path,
                       const char *prefix, double *out, char *err, size_t cap) {
    char range[96], why[160];
    gait_schema_range_text(f, range, sizeof range);
    if (lua_type(L, -1) != LUA_TNUMBER) {
        snprintf(err, cap, "%s: %s%s: a %s, wanted a number in %s", path, prefix, f->name,
                 luaL_typename(L, -1), range);
        return false;
    }
    double v = lua_tonumber(L, -1);
    if (gait_schema_check_value(f, v, why, sizeof why) != GAIT_OK) {
        snprintf(err, cap, "%s: %s%s", path, prefix, why);
        return false;
    }
    *out = v;
    return true;
}

bool gait__tuning_dir_paths(const gait_script *s, const char *dir,
                            char buf[GAIT__TUNE_FILES][GAIT__PATH_MAX],
                            const char *paths[GAIT__TUNE_FILES]) {
    for (int k = 0; k < GAIT__TUNE_FILES; k++) {
        int n = dir ? snprintf(buf[k], GAIT__PATH_MAX, "%s/%s.lua", dir, tune_names[k])
                    : snprintf(buf[k], GAIT__PATH_MAX, "%s/scripts/tuning/%s.lua", s->root,
                               tune_names[k]);
        if (n < 0 || n >= GAIT__PATH_MAX) return false;
        paths[k] = buf[k];
    }
    /* the optional files: a set without one keeps the built-in numbers for it */
    static const int optional[] = {GAIT__TUNE_TRAVERSAL, GAIT__TUNE_CAMERA, GAIT__TUNE_ANIM};
    for (size_t o = 0; o < sizeof optional / sizeof optional[0]; o++) {
        struct stat st; /* there or not, without opening it (a FIFO would block) */
        if (stat(buf[optional[o]], &st) != 0) paths[optional[o]] = NULL;
    }
    return true;
}

/* gait.tuning.load([dir | {locomotion = path, stamina = path, gates = path}]) -> true | nil, msg */
static int l_tuning_load(lua_State *L) {
    gait_script *s = gait__script_from(L);
    gait__check_no_hook(L, s, "gait.tuning.load");
    bool trusted = !gait__untrusted(L, s);
    char buf[GAIT__TUNE_FILES][GAIT__PATH_MAX];
    const char *paths[GAIT__TUNE_FILES] = {NULL};
    if (lua_istable(L, 1)) {
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            int which = -1;
            for (int i = 0; i < GAIT__TUNE_FILES; i++)
                if (strcmp(k, tune_names[i]) == 0) which = i;
            if (which < 0)
                return luaL_argerror(L, 1, lua_pushfstring(L, "unknown tuning file \"%s\" (locomotion, "
                                                              "stamina, gates, traversal, camera, anim)", k));
            if (lua_type(L, -1) != LUA_TSTRING) return luaL_argerror(L, 1, "tuning paths are strings");
            snprintf(buf[which], sizeof buf[which], "%s", lua_tostring(L, -1));
            paths[which] = buf[which];
            lua_pop(L, 1);
        }
    } else {
        if (!gait__tuning_dir_paths(s, luaL_optstring(L, 1, NULL), buf, paths))
            return luaL_argerror(L, 1, "path too long");
    }
    for (int k = 0; k < GAIT__TUNE_FILES && trusted; k++)
        if (paths[k]) gait__grant(s, paths[k]);
    if (gait__tuning_load(s, paths) != GAIT_OK) {
        lua_pushnil(L);
        lua_pushstring(L, s->error);
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* gait.tuning.schema() -> {name = {min, max, unit, file, default, source, doc}}: the numbers of
 * locomotion.lua, gates.lua and stamina.lua (costs), as gait_locomotion_schema() has them, and
 * stamina.lua's refill_rate and refill_delay (gait_stamina_schema()). */
static void push_field(lua_State *L, const field *f, const char *file) {
    const char *const num_keys[] = {"min", "max", "default"};
    const double nums[] = {f->min, f->max, f->value};
    const char *const str_keys[] = {"unit", "file", "source", "doc"};
    const char *const strs[] = {f->unit, file, f->source, f->doc};
    lua_createtable(L, 0, 7);
    for (int i = 0; i < 3; i++) {
        lua_pushnumber(L, nums[i]);
        lua_setfield(L, -2, num_keys[i]);
    }
    for (int i = 0; i < 4; i++) {
        lua_pushstring(L, strs[i]);
        lua_setfield(L, -2, str_keys[i]);
    }
    lua_setfield(L, -2, f->name);
}

static int l_tuning_schema(lua_State *L) {
    const gait_schema *sc = gait_locomotion_schema(), *st = gait_stamina_schema();
    lua_createtable(L, 0, sc->count + 2);
    for (int i = 0; i < sc->count; i++)
        push_field(L, &sc->fields[i], group_file[group_of(&sc->fields[i])]);
    for (int i = 0; i < st->count; i++)
        if (st->fields[i].file[0]) push_field(L, &st->fields[i], st->fields[i].file);
    return 1;
}

/* gait.tuning.files() -> {locomotion = path, ...} of the loaded set */
static int l_tuning_files(lua_State *L) {
    gait_script *s = gait__script_from(L);
    lua_newtable(L);
    for (int k = 0; k < GAIT__TUNE_FILES; k++)
        if (s->tuning.paths[k][0]) {
            lua_pushstring(L, s->tuning.paths[k]);
            lua_setfield(L, -2, tune_names[k]);
        }
    return 1;
}

static int l_tuning_loaded(lua_State *L) {
    lua_pushboolean(L, gait__script_from(L)->tuning.loaded);
    return 1;
}

int gait__open_tuning(lua_State *L) {
    static const luaL_Reg fns[] = {{"load", l_tuning_load}, {"schema", l_tuning_schema},
                                   {"files", l_tuning_files}, {"loaded", l_tuning_loaded},
                                   {NULL, NULL}};
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    return 1;
}

/* ---- gait.locomotion ----------------------------------------------------------------------- */

static const char *const next_keys[] = {
    "state", "seconds", "move", "move_up", "walking", "crouching", "pressed", "held", "stamina",
    "stamina_multiplier", "grounded", "rising", "height_above_ground", "water_depth",
    "submersion", "wall", "wall_ahead", "over_top", "numbers",
};
#define NEXT_KEYS ((int)(sizeof next_keys / sizeof next_keys[0]))

static int state_arg(lua_State *L, int idx, const char *what) {
    if (lua_type(L, idx) != LUA_TSTRING) return luaL_error(L, "%s must be a state name", what);
    int st = gait_state_from_name(lua_tostring(L, idx));
    if (st < 0) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (int i = 0; i < GAIT_STATE_COUNT; i++) {
            if (i) luaL_addstring(&b, ", ");
            luaL_addstring(&b, gait_state_name((gait_state)i));
        }
        luaL_pushresult(&b);
        return luaL_error(L, "%s \"%s\" is not one of: %s", what, lua_tostring(L, idx), lua_tostring(L, -1));
    }
    return st;
}

static double opt_num(lua_State *L, int t, const char *k, double def) {
    lua_getfield(L, t, k);
    double v = def;
    if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TNUMBER) luaL_error(L, "next: %s must be a number", k);
        v = lua_tonumber(L, -1);
        if (isnan(v)) luaL_error(L, "next: %s is NaN", k);
    }
    lua_pop(L, 1);
    return v;
}

static bool opt_bool(lua_State *L, int t, const char *k) {
    lua_getfield(L, t, k);
    bool v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

/* gait.locomotion.next{state = "fall", seconds = 0.5, move = 1, pressed = {"jump"}, stamina = 50,
 *   grounded = false, height_above_ground = 10, ..., numbers = {overrides}} -> state name.
 * The pure gate function: contact fields default to "standing on dry ground", stamina to 100,
 * numbers to the provisional defaults (a table overrides some). */
static int l_locomotion_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    gait__check_keys(L, 1, next_keys, NEXT_KEYS, "next");
    gait_phase ph;
    lua_getfield(L, 1, "state");
    ph.state = lua_isnil(L, -1) ? GAIT_STATE_IDLE : (gait_state)state_arg(L, lua_gettop(L), "state");
    lua_pop(L, 1);
    ph.seconds = opt_num(L, 1, "seconds", 0);
    gait_gate_input in;
    memset(&in, 0, sizeof in);
    in.move = opt_num(L, 1, "move", 0);
    in.move_up = opt_num(L, 1, "move_up", in.move);
    in.walking = opt_bool(L, 1, "walking");
    in.crouching = opt_bool(L, 1, "crouching");
    lua_getfield(L, 1, "pressed");
    in.pressed = gait__check_buttons(L, -1, "pressed");
    lua_getfield(L, 1, "held");
    in.held = gait__check_buttons(L, -1, "held");
    lua_pop(L, 2);
    in.stamina = opt_num(L, 1, "stamina", 100);
    in.stamina_multiplier = opt_num(L, 1, "stamina_multiplier", 1);
    gait_contact c;
    memset(&c, 0, sizeof c);
    lua_getfield(L, 1, "grounded");
    c.grounded = lua_isnil(L, -1) ? true : lua_toboolean(L, -1);
    lua_pop(L, 1);
    c.rising = opt_bool(L, 1, "rising");
    c.height_above_ground = opt_num(L, 1, "height_above_ground", 0);
    c.water_depth = opt_num(L, 1, "water_depth", 0);
    c.submersion = opt_num(L, 1, "submersion", -INFINITY);
    c.wall = opt_bool(L, 1, "wall");
    c.wall_ahead = opt_bool(L, 1, "wall_ahead");
    c.over_top = opt_bool(L, 1, "over_top");
    gait_locomotion n = gait_default_locomotion();
    lua_getfield(L, 1, "numbers");
    if (!lua_isnil(L, -1)) {
        char err[256];
        if (!lua_istable(L, -1) || !gait__locomotion_from_table(L, lua_gettop(L), &n, err, sizeof err))
            return luaL_argerror(L, 1, lua_istable(L, -1) ? err : "numbers must be a table");
    }
    lua_pop(L, 1);
    lua_pushstring(L, gait_state_name(gait_locomotion_next(&ph, &in, &c, &n)));
    return 1;
}

static int l_locomotion_is_edge(lua_State *L) {
    int a = state_arg(L, 1, "from"), b = state_arg(L, 2, "to");
    lua_pushboolean(L, gait_locomotion_is_edge((gait_state)a, (gait_state)b));
    return 1;
}

static int l_locomotion_defaults(lua_State *L) {
    gait_locomotion n = gait_default_locomotion();
    gait__push_locomotion(L, &n);
    return 1;
}

/* gait.locomotion.validate{numbers} -> true | nil, message (over the defaults) */
static int l_locomotion_validate(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    gait_locomotion n = gait_default_locomotion();
    char err[256];
    if (!gait__locomotion_from_table(L, 1, &n, err, sizeof err)) {
        lua_pushnil(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int l_state_kind(lua_State *L) {
    gait_state s = (gait_state)state_arg(L, 1, "state");
    lua_pushstring(L, gait_state_on_foot(s) ? "on_foot" : gait_state_airborne(s) ? "airborne"
                      : gait_state_in_water(s) ? "in_water" : gait_state_on_wall(s) ? "on_wall" : "other");
    return 1;
}

int gait__open_locomotion(lua_State *L) {
    static const luaL_Reg fns[] = {{"next", l_locomotion_next}, {"is_edge", l_locomotion_is_edge},
                                   {"defaults", l_locomotion_defaults},
                                   {"validate", l_locomotion_validate}, {"kind", l_state_kind},
                                   {NULL, NULL}};
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    lua_createtable(L, GAIT_STATE_COUNT, 0);
    for (int i = 0; i < GAIT_STATE_COUNT; i++) {
        lua_pushstring(L, gait_state_name((gait_state)i));
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "states");
    return 1;
}

/* ---- gait.stamina: a pool on its own (the same one characters hold) ------------------------- */

static gait_stamina *check_pool(lua_State *L, int i) {
    return (gait_stamina *)luaL_checkudata(L, i, GAIT__MT_POOL);
}

static const char *const pool_keys[] = {"max", "start", "refill_rate", "refill_delay", "multiplier"};

static int l_pool_new(lua_State *L) {
    gait_stamina_def d = gait_default_stamina_def();
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            lua_pop(L, 1);
            bool ok = false;
            for (int i = 0; i < 5 && !ok; i++)
                ok = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), pool_keys[i]) == 0;
            if (!ok) return luaL_argerror(L, 1, "stamina pool keys: max, start, refill_rate, refill_delay, multiplier");
        }
        d.max = opt_num(L, 1, "max", d.max);
        d.start = opt_num(L, 1, "start", d.max);
        d.refill_rate = opt_num(L, 1, "refill_rate", d.refill_rate);
        d.refill_delay = opt_num(L, 1, "refill_delay", d.refill_delay);
        d.multiplier = opt_num(L, 1, "multiplier", d.multiplier);
    }
    gait_stamina *p = (gait_stamina *)lua_newuserdata(L, sizeof *p);
    if (gait_stamina_init(p, &d) != GAIT_OK)
        return luaL_argerror(L, 1, "stamina def out of range (max in (0, 1e6], start in [0, max], "
                                   "refill_rate and refill_delay >= 0, multiplier in [0, 100])");
    luaL_getmetatable(L, GAIT__MT_POOL);
    lua_setmetatable(L, -2);
    return 1;
}

static int l_pool_value(lua_State *L) {
    gait_stamina *p = check_pool(L, 1);
    lua_pushnumber(L, p->value);
    lua_pushnumber(L, p->max);
    return 2;
}

static int l_pool_spend(lua_State *L) {
    gait_stamina *p = check_pool(L, 1);
    double a = luaL_checknumber(L, 2);
    if (!isfinite(a) || a < 0) return luaL_argerror(L, 2, "amount must be finite and >= 0");
    if (!gait_stamina_can_spend(p, a)) {
        lua_pushnil(L);
        lua_pushfstring(L, "%f x %f is more than the %f left", a, p->multiplier, p->value);
        return 2;
    }
    gait_stamina_spend(p, a);
    lua_pushboolean(L, 1);
    return 1;
}

static int l_pool_can_spend(lua_State *L) {
    gait_stamina *p = check_pool(L, 1);
    double a = luaL_checknumber(L, 2);
    if (!isfinite(a) || a < 0) return luaL_argerror(L, 2, "amount must be finite and >= 0");
    lua_pushboolean(L, gait_stamina_can_spend(p, a));
    return 1;
}

static int l_pool_set_multiplier(lua_State *L) {
    if (gait_stamina_set_multiplier(check_pool(L, 1), luaL_checknumber(L, 2)) != GAIT_OK)
        return luaL_argerror(L, 2, "multiplier must be in [0, 100]");
    return 0;
}

/* pool:step(from, to, moving, dt) with the default costs */
static int l_pool_step(lua_State *L) {
    gait_stamina *p = check_pool(L, 1);
    gait_state from = (gait_state)state_arg(L, 2, "from"), to = (gait_state)state_arg(L, 3, "to");
    bool moving = lua_toboolean(L, 4);
    double dt = luaL_checknumber(L, 5);
    if (!(dt >= 0 && dt <= 10)) return luaL_argerror(L, 5, "dt must be in [0, 10] s");
    gait_stamina_costs costs = gait_default_stamina_costs();
    gait_stamina_step(p, &costs, from, to, moving, dt);
    return 0;
}

static int l_pool_tostring(lua_State *L) {
    gait_stamina *p = check_pool(L, 1);
    lua_pushfstring(L, "gait.stamina_pool (%f / %f)", p->value, p->max);
    return 1;
}

static int l_stamina_refills_in(lua_State *L) {
    lua_pushboolean(L, gait_stamina_refills_in((gait_state)state_arg(L, 1, "state")));
    return 1;
}

int gait__open_stamina(lua_State *L) {
    static const luaL_Reg methods[] = {{"value", l_pool_value}, {"spend", l_pool_spend},
                                       {"can_spend", l_pool_can_spend},
                                       {"set_multiplier", l_pool_set_multiplier},
                                       {"step", l_pool_step}, {NULL, NULL}};
    luaL_newmetatable(L, GAIT__MT_POOL);
    lua_newtable(L);
    luaL_register(L, NULL, methods);
    lua_setfield(L, -2, "__index");
    gait__set_function(L, "__tostring", l_pool_tostring);
    lua_pop(L, 1);
    static const luaL_Reg fns[] = {{"new", l_pool_new}, {"refills_in", l_stamina_refills_in},
                                   {NULL, NULL}};
    lua_newtable(L);
    luaL_register(L, NULL, fns);
    return 1;
}

/* ---- gait.clock --------------------------------------------------------------------------- */

static int l_clock_new(lua_State *L) {
    gait_clock_def d = gait_default_clock_def();
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        d.step_seconds = opt_num(L, 1, "step_seconds", d.step_seconds);
        d.max_steps_per_frame = (int)opt_num(L, 1, "max_steps_per_frame", d.max_steps_per_frame);
    }
    gait_clock *c = (gait_clock *)lua_newuserdata(L, sizeof *c);
    if (gait_clock_init(c, &d) != GAIT_OK)
        return luaL_argerror(L, 1, "step_seconds in [0.001, 0.1], max_steps_per_frame in 1..1000");
    luaL_getmetatable(L, GAIT__MT_CLOCK);
    lua_setmetatable(L, -2);
    return 1;
}

static int l_clock_advance(lua_State *L) {
    gait_clock *c = (gait_clock *)luaL_checkudata(L, 1, GAIT__MT_CLOCK);
    int steps = 0;
    if (gait_clock_advance(c, luaL_checknumber(L, 2), &steps) != GAIT_OK)
        return luaL_argerror(L, 2, "frame seconds must be finite and >= 0");
    lua_pushinteger(L, steps);
    return 1;
}

static int l_clock_alpha(lua_State *L) {
    lua_pushnumber(L, gait_clock_alpha((gait_clock *)luaL_checkudata(L, 1, GAIT__MT_CLOCK)));
    return 1;
}

static int l_clock_steps(lua_State *L) {
    gait_clock *c = (gait_clock *)luaL_checkudata(L, 1, GAIT__MT_CLOCK);
    lua_pushnumber(L, (lua_Number)c->steps);
    lua_pushnumber(L, (lua_Number)c->dropped_steps);
    return 2;
}

int gait__open_clock(lua_State *L) {
    static const luaL_Reg methods[] = {{"advance", l_clock_advance}, {"alpha", l_clock_alpha},
                                       {"steps", l_clock_steps}, {NULL, NULL}};
    luaL_newmetatable(L, GAIT__MT_CLOCK);
    lua_newtable(L);
    luaL_register(L, NULL, methods);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    lua_newtable(L);
    gait__set_function(L, "new", l_clock_new);
    return 1;
}
