/* gait replay FILE.replay [--root DIR], and the recording half of gait run --record.
 *
 * A replay made by `gait run SCENARIO.lua --record OUT` names the scenario as its world. The
 * scenario is played again through the same frame loop (lua/gait/runner.lua, with the steps and
 * fps the recording used), but each frame the inputs come from the replay instead of the
 * scenario's frame(): character:set_input is silenced, and world:run_kits (which the runner
 * calls once a frame, after frame() and before the steps) first gives every character its
 * recorded input. Kits, tuning and the world are rebuilt by the scenario itself, so the run is
 * bit-identical and the final gait_world_state_hash matches the recording's.
 *
 * Both halves hook the Lua methods rather than the runner, so the runner stays the one frame
 * loop there is. A frame() that does more than set input (places, spends) is not replayed.
 *
 * A replay recorded by gait-sandbox --record ("meta host sandbox") names a world file instead:
 * it is rebuilt as the sandbox builds it (a host world with the default def, the world file
 * through lua/gait/worldfile.lua, the player's camera turned to the spawn yaw, the recorded
 * --place, the tuning, the recorded kit) and played frame by frame as the sandbox runs a frame
 * (the input, gait_script_poll, gait_script_frame). */
#include <lauxlib.h>
#include <lua.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "gait/replay.h"

#define REG_WORLD "gait.cli.replay_world" /* the world the frames ran on (for the final hash) */

/* rec_input(index1, generation, move_x, move_y, look_yaw, look_pitch, look_zoom, held, pressed) */
static int l_rec_input(lua_State *L) {
    gait_replay_recorder *rec = (gait_replay_recorder *)lua_touserdata(L, lua_upvalueindex(1));
    gait_character_id id = {(int32_t)luaL_checkinteger(L, 1), (uint32_t)luaL_checknumber(L, 2)};
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_x = luaL_checknumber(L, 3);
    in.move_y = luaL_checknumber(L, 4);
    in.look_yaw = luaL_checknumber(L, 5);
    in.look_pitch = luaL_checknumber(L, 6);
    in.look_zoom = luaL_checknumber(L, 7);
    in.held = (uint32_t)luaL_checknumber(L, 8);
    in.pressed = (uint32_t)luaL_checknumber(L, 9);
    if (gait_replay_recorder_add_character(rec, id) != GAIT_OK ||
        gait_replay_recorder_input(rec, id, &in) != GAIT_OK)
        return luaL_error(L, "--record: %s", gait_replay_recorder_last_error(rec));
    return 0;
}

/* rec_frame(world, dt): the frame's inputs are all in; keep the world for the hash */
static int l_rec_frame(lua_State *L) {
    gait_replay_recorder *rec = (gait_replay_recorder *)lua_touserdata(L, lua_upvalueindex(1));
    gait_script_check_world(L, 1);
    lua_pushvalue(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_WORLD);
    if (gait_replay_recorder_end_frame(rec, luaL_optnumber(L, 2, 0)) != GAIT_OK)
        return luaL_error(L, "--record: %s", gait_replay_recorder_last_error(rec));
    return 0;
}

/* play_frame(world, dt): the next recorded frame's inputs into the world */
static int l_play_frame(lua_State *L) {
    gait_replay_player *p = (gait_replay_player *)lua_touserdata(L, lua_upvalueindex(1));
    gait_world *w = gait_script_check_world(L, 1);
    lua_pushvalue(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, REG_WORLD);
    if (gait_replay_player_frame_index(p) >= gait_replay_player_frame_count(p))
        return luaL_error(L, "replay: the scenario runs more frames than the %d recorded (other "
                          "--steps or --fps than when recording?)", gait_replay_player_frame_count(p));
    double dt = 0;
    if (gait_replay_player_next(p, w, &dt) != GAIT_OK)
        return luaL_error(L, "replay: %s", gait_replay_player_last_error(p));
    double want = luaL_optnumber(L, 2, 0);
    if (dt != want)
        return luaL_error(L, "replay: frame %d lasted %.17g s when recorded, %.17g s now (other "
                          "--fps?)", gait_replay_player_frame_index(p), dt, want);
    return 0;
}

static const char *const RECORD_HOOKS =
    "local rec_input, rec_frame = ...\n"
    "local gait = require('gait')\n"
    "local C, W, mask = gait.character.methods, gait.world.methods, gait.input.mask\n"
    "local set_input, run_kits = C.set_input, W.run_kits\n"
    "C.set_input = function(ch, t)\n"
    "  set_input(ch, t)\n"
    "  t = t or {}\n"
    "  local i, g = ch:id()\n"
    "  rec_input(i, g, t.move_x or 0, t.move_y or 0, t.look_yaw or 0, t.look_pitch or 0,\n"
    "            t.look_zoom or 0, mask(t.held), mask(t.pressed))\n"
    "end\n"
    "W.run_kits = function(w, dt) rec_frame(w, dt); return run_kits(w, dt) end\n";

static const char *const PLAY_HOOKS =
    "local play_frame = ...\n"
    "local gait = require('gait')\n"
    "local C, W = gait.character.methods, gait.world.methods\n"
    "local run_kits = W.run_kits\n"
    "C.set_input = function() end -- the replay gives the inputs\n"
    "W.run_kits = function(w, dt) play_frame(w, dt); return run_kits(w, dt) end\n";

/* Runs `code` with the C functions (closures over ptr) as its arguments. */
static int install(gait_script *s, const char *code, const char *name, void *ptr,
                   lua_CFunction a, lua_CFunction b) {
    lua_State *L = gait_script_lua(s);
    int top = lua_gettop(L);
    if (luaL_loadbuffer(L, code, strlen(code), name) != 0) {
        fprintf(stderr, "gait: %s\n", lua_tostring(L, -1));
        lua_settop(L, top);
        return -1;
    }
    int n = 0;
    lua_pushlightuserdata(L, ptr);
    lua_pushcclosure(L, a, 1);
    n++;
    if (b) {
        lua_pushlightuserdata(L, ptr);
        lua_pushcclosure(L, b, 1);
        n++;
    }
    int rc = lua_pcall(L, n, 0, 0);
    if (rc != 0) fprintf(stderr, "gait: %s\n", lua_tostring(L, -1));
    lua_settop(L, top);
    return rc ? -1 : 0;
}

static int l_world_hash(lua_State *L) {
    uint64_t h = gait_world_state_hash(gait_script_check_world(L, 1)); /* raises when destroyed */
    char buf[24];
    snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
    lua_pushstring(L, buf);
    return 1;
}

/* The hash of the world the frames ran on; false when no frame ran or it was destroyed. */
static bool final_hash(gait_script *s, uint64_t *out) {
    lua_State *L = gait_script_lua(s);
    int top = lua_gettop(L);
    lua_pushcfunction(L, l_world_hash);
    lua_getfield(L, LUA_REGISTRYINDEX, REG_WORLD);
    bool ok = !lua_isnil(L, -1) && lua_pcall(L, 1, 1, 0) == 0 && lua_isstring(L, -1);
    if (ok) *out = strtoull(lua_tostring(L, -1), NULL, 16);
    lua_settop(L, top);
    return ok;
}

/* gait run --record: called by cmd_run.c around its run. */
int gait_cli_record_begin(gait_script *s, gait_replay_recorder *rec) {
    return install(s, RECORD_HOOKS, "=gait run --record", rec, l_rec_input, l_rec_frame);
}

int gait_cli_record_end(gait_script *s, gait_replay_recorder *rec, const char *path) {
    uint64_t hash = 0;
    if (final_hash(s, &hash)) printf("state hash: %016llx\n", (unsigned long long)hash);
    if (gait_replay_recorder_save(rec, path) != GAIT_OK) {
        fprintf(stderr, "gait run: %s\n", gait_replay_recorder_last_error(rec));
        return -1;
    }
    printf("recorded %d frames to %s\n", gait_replay_recorder_frame_count(rec), path);
    return 0;
}

/* A sandbox replay (see the top): the world file, the player, the frames; 0 or 1. */
static int replay_sandbox(gait_replay_player *p, const char *file, const char *world_file,
                          const char *dir) {
    static const char *const LOAD_WORLD =
        "local path = ...\n"
        "local gait = require('gait')\n"
        "local player, data = require('gait.worldfile').load_into(gait.world.host(), path)\n"
        "local i, g = player:id()\n"
        "return i, g, (data.spawn or {}).yaw or 0\n";
    gait_world_def wd = gait_default_world_def();
    gait_world *w = gait_world_create(&wd);
    gait_script_def sd = gait_default_script_def();
    sd.root = dir;
    sd.world = w;
    gait_script *s = w ? gait_script_create(&sd) : NULL;
    if (!s) {
        fprintf(stderr, "gait replay: could not make the world and the Lua layer\n");
        if (w) gait_world_destroy(w);
        return 1;
    }
    gait_cli_bind(s);   /* a world file's `level` */
    int rc = 1, played = 0, event = 0;
    lua_State *L = gait_script_lua(s);
    int top = lua_gettop(L);
    gait_character_id player = GAIT_NULL_ID_INIT;
    double yaw = 0;
    if (luaL_loadbuffer(L, LOAD_WORLD, strlen(LOAD_WORLD), "=gait replay (world file)") != 0 ||
        (lua_pushstring(L, world_file), lua_pcall(L, 1, 3, 0) != 0)) {
        fprintf(stderr, "gait replay: %s: %s\n", file, lua_tostring(L, -1));
        lua_settop(L, top);
        goto done;
    }
    player.index1 = (int32_t)lua_tointeger(L, -3);
    player.generation = (uint32_t)lua_tonumber(L, -2);
    yaw = lua_tonumber(L, -1);
    lua_settop(L, top);
    /* as the sandbox makes its player: the camera looks along the spawn yaw, then --place */
    gait_character_set_camera_yaw(w, player, yaw);
    const char *place = gait_replay_player_meta(p, "place");
    if (place) {
        gait_vec3 at;
        double place_yaw;
        if (sscanf(place, "%lf,%lf,%lf,%lf", &at.x, &at.y, &at.z, &place_yaw) != 4 ||
            gait_character_place(w, player, at, place_yaw) != GAIT_OK) {
            fprintf(stderr, "gait replay: %s: cannot place the player at \"%s\"\n", file, place);
            goto done;
        }
    }
    char probe[4096 + 64];
    snprintf(probe, sizeof probe, "%s/scripts/tuning/locomotion.lua", dir);
    struct stat st; /* there or not, unopened: the root's own tuning */
    if (stat(probe, &st) == 0 && gait_script_load_tuning(s, NULL) != GAIT_OK) goto done;
    /* the replay is content: its kit is a name of scripts/kits/, never a path it chooses */
    const char *kit = gait_replay_player_meta(p, "kit");
    if (kit && kit[strspn(kit, "abcdefghijklmnopqrstuvwxyz0123456789_")] != 0) {
        fprintf(stderr, "gait replay: %s: the kit \"%s\" is not a kit name ([a-z0-9_])\n", file, kit);
        goto done;
    }
    if (kit && gait_script_set_kit(s, player, kit) != GAIT_OK) goto done;
    double dt = 0;
    while (gait_replay_player_frame_index(p) < gait_replay_player_frame_count(p)) {
        /* what the sandbox did at this frame besides the inputs (meta event.N = "FRAME what"):
         * a party switch (and its kit), a tuning reload from the files it had then */
        for (;;) {
            char key[32];
            snprintf(key, sizeof key, "event.%d", event + 1);
            const char *ev = gait_replay_player_meta(p, key);
            int at = -1, used = 0;
            if (!ev || sscanf(ev, "%d %n", &at, &used) != 1 || at > gait_replay_player_frame_index(p)) break;
            const char *what = ev + used;
            event++;
            int type = strncmp(what, "party ", 6) == 0 ? gait_body_type_from_name(what + 6) : -1;
            bool kit_event = strncmp(what, "kit ", 4) == 0; /* a party slot's kit */
            if (type >= 0 ? gait_character_set_body_type(w, player, (gait_body_type)type) != GAIT_OK
                : kit_event ? gait_script_set_kit(s, player, what + 4) != GAIT_OK
                          : strncmp(what, "tuning ", 7) != 0 || gait_script_load_tuning(s, what + 7) != GAIT_OK) {
                fprintf(stderr, "gait replay: %s: %s \"%s\" cannot be replayed\n", file, key, what);
                goto done;
            }
        }
        if (gait_replay_player_next(p, w, &dt) != GAIT_OK) {
            fprintf(stderr, "gait replay: %s\n", gait_replay_player_last_error(p));
            goto done;
        }
        gait_script_frame(s, dt, NULL);
        played++;
    }
    rc = gait_script_error_count(s) ? 1 : 0;
    if (rc == 0) {
        printf("replayed %d frames of %s\n", played, world_file);
        printf("state hash: %016llx\n", (unsigned long long)gait_world_state_hash(w));
    }
done:
    gait_script_destroy(s);
    gait_world_destroy(w);
    return rc;
}

static int usage(void) {
    fprintf(stderr, "usage: gait replay FILE.replay [--root DIR]\n");
    return 2;
}

int gait_cli_replay(int argc, char **argv) {
    const char *file = NULL, *root = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = gait_cli_option(argc, argv, &i, "--root"))) root = v;
        else if (argv[i][0] == '-' && argv[i][1] == '-') return usage();
        else if (!file) file = argv[i];
        else return usage();
    }
    if (!file) return usage();
    char err[1024];
    gait_replay_player *p = NULL;
    if (gait_replay_player_open(file, NULL, &p, err, sizeof err) != GAIT_OK) {
        fprintf(stderr, "gait replay: %s\n", err);
        return 1;
    }
    char scenario[1024]; /* a copy: it must outlive the player */
    snprintf(scenario, sizeof scenario, "%s", gait_replay_player_world_name(p));
    if (!scenario[0]) {
        fprintf(stderr, "gait replay: %s: the replay names no world (its \"world\" line is empty)\n", file);
        gait_replay_player_destroy(p);
        return 1;
    }
    char dir[4096];
    if (gait_cli_find_root(root, dir, sizeof dir) != 0) {
        gait_replay_player_destroy(p);
        return 2;
    }
    const char *host = gait_replay_player_meta(p, "host");
    if (host && strcmp(host, "sandbox") == 0) {
        int src = replay_sandbox(p, file, scenario, dir);
        gait_replay_player_destroy(p);
        return src;
    }
    gait_script *s = gait_cli_script(dir, 0);
    if (!s) {
        gait_replay_player_destroy(p);
        return 1;
    }
    int rc = install(s, PLAY_HOOKS, "=gait replay", p, l_play_frame, NULL);
    if (rc == 0) {
        const char *args[4] = {scenario, gait_replay_player_meta(p, "steps"),
                               gait_replay_player_meta(p, "fps"), NULL};
        double result[1] = {0};
        rc = gait_cli_call(s, "gait.runner", "run_cli", 4, args, 1, result);
    }
    uint64_t hash = 0;
    bool have = rc == 0 && final_hash(s, &hash);
    if (rc == 0 && gait_replay_player_frame_index(p) != gait_replay_player_frame_count(p)) {
        fprintf(stderr, "gait replay: %s: the scenario stopped after %d of %d frames\n", file,
                gait_replay_player_frame_index(p), gait_replay_player_frame_count(p));
        rc = -1;
    }
    unsigned errors = gait_script_error_count(s);
    int played = gait_replay_player_frame_index(p);
    gait_script_destroy(s);
    gait_replay_player_destroy(p);
    if (rc != 0 || errors) return 1;
    printf("replayed %d frames of %s\n", played, scenario);
    if (have) printf("state hash: %016llx\n", (unsigned long long)hash);
    return 0;
}
