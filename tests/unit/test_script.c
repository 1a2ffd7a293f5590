/* The Lua layer from the C side: allocator hooks, errors (syntax, runtime, inside the error
 * handler), kits and the instruction budget through the C API, tuning validation, hot reload,
 * gate hooks cleared on destroy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "body_fixtures.h" /* the counting allocator, bw_terrain */
#include "check.h"
#include "gait/gait.h"
#include "gait/script.h"

static void quiet_log(gait_log_level level, const char *msg, void *user) {
    (void)level; (void)msg; (void)user;
}

/* Allocations counted in c (nothing zeroed: a script and its world share one counter). */
static gait_hooks hooks_for(counter *c) {
    return (gait_hooks){.alloc = counting_alloc, .free = counting_free, .log = quiet_log, .user = c};
}

static gait_script *make_script(gait_world *w, counter *c) {
    gait_script_def d = gait_default_script_def();
    d.hooks = hooks_for(c);
    d.world = w;
    d.root = ".";
    return gait_script_create(&d);
}

static gait_world *make_world(counter *c) {
    gait_world_def d = gait_default_world_def();
    d.hooks = hooks_for(c);
    gait_world *w = gait_world_create(&d);
    bw_terrain(w, bw_flat0, -100, -100, 1, 200); /* flat: one 200 m cell */
    return w;
}

/* A world and a script on it, then one default character in the world; memory counted in c. */
static gait_script *script_and_body(counter *c, gait_world **w, gait_character_id *id) {
    *w = make_world(c);
    gait_script *s = make_script(*w, c);
    gait_character_def cd = gait_default_character_def();
    CHECK_EQ_INT(gait_character_create(*w, &cd, id), GAIT_OK);
    return s;
}

/* The script, then its world, destroyed: every byte the counter saw allocated is given back. */
static void destroy_both_and_count(gait_script *s, gait_world *w, const counter *c) {
    gait_script_destroy(s);
    gait_world_destroy(w);
    CHECK_EQ_INT(c->live_bytes, 0);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

TEST(script_allocates_through_the_hooks_and_frees_everything) {
    counter c = {0};
    gait_script *s = make_script(NULL, &c);
    CHECK(s != NULL);
    if (!s) return;
    CHECK(gait_script_uses_hooks_allocator(s)); /* Debian's LuaJIT accepts it */
    CHECK_EQ_INT(gait_script_run_string(s, "local t = {} for i = 1, 1000 do t[i] = {i} end", "alloc"), GAIT_OK);
    CHECK(c.allocs > 100);
    gait_script_destroy(s);
    CHECK_EQ_INT(c.live_bytes, 0);
    CHECK_EQ_INT(c.allocs, c.frees);
}

TEST(script_syntax_error_names_the_line) {
    counter c = {0};
    gait_script *s = make_script(NULL, &c);
    CHECK_EQ_INT(gait_script_run_string(s, "local x = 1\nlocal = 2\n", "=broken.lua"), GAIT_ERR_SCRIPT);
    CHECK_MSG(strstr(gait_script_last_error(s), "broken.lua:2:") != NULL, "%s", gait_script_last_error(s));
    CHECK_EQ_INT(gait_script_error_count(s), 1);
    /* the state is still usable */
    CHECK_EQ_INT(gait_script_run_string(s, "assert(1 + 1 == 2)", "ok"), GAIT_OK);
    gait_script_destroy(s);
    CHECK_EQ_INT(c.live_bytes, 0);
}

TEST(script_runtime_error_has_a_traceback) {
    counter c = {0};
    gait_script *s = make_script(NULL, &c);
    CHECK_EQ_INT(gait_script_run_string(s, "local function f() error('boom') end\nf()\n", "=rt.lua"),
                 GAIT_ERR_SCRIPT);
    const char *e = gait_script_last_error(s);
    CHECK_MSG(strstr(e, "rt.lua:1: boom") != NULL, "%s", e);
    CHECK_MSG(strstr(e, "stack traceback") != NULL, "%s", e);
    gait_script_clear_error(s);
    CHECK_EQ_INT(gait_script_last_error(s)[0], 0);
    gait_script_destroy(s);
}

TEST(script_error_inside_the_error_handler_is_reported) {
    counter c = {0};
    gait_script *s = make_script(NULL, &c);
    CHECK_EQ_INT(gait_script_run_string(
                     s, "error(setmetatable({}, {__tostring = function() error('again') end}))", "=eh"),
                 GAIT_ERR_SCRIPT);
    CHECK_MSG(strstr(gait_script_last_error(s), "__tostring failed") != NULL, "%s",
              gait_script_last_error(s));
    /* a non-string error object with no __tostring */
    CHECK_EQ_INT(gait_script_run_string(s, "error({})", "=eh2"), GAIT_ERR_SCRIPT);
    CHECK_MSG(strstr(gait_script_last_error(s), "table error object") != NULL, "%s",
              gait_script_last_error(s));
    CHECK_EQ_INT(gait_script_run_string(s, "return 1", "after"), GAIT_OK);
    gait_script_destroy(s);
}

TEST(script_host_kit_takes_presses_before_the_step) {
    counter c = {0};
    gait_world *w;
    gait_character_id id;
    gait_script *s = script_and_body(&c, &w, &id);
    char path[] = "/tmp/gait_kit_XXXXXX.lua";
    int fd = mkstemps(path, 4);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    write_file(path, "return {on_presses = function(ch, p) if p.jump then ch:take_presses('jump') end end}\n");
    CHECK_EQ_INT(gait_script_set_kit(s, id, path), GAIT_OK);
    gait_input in;
    memset(&in, 0, sizeof in);
    in.pressed = GAIT_BUTTON_JUMP;
    gait_character_set_input(w, id, &in);
    int steps = 0;
    CHECK_EQ_INT(gait_script_frame(s, 1.0 / 60, &steps), GAIT_OK);
    CHECK_EQ_INT(steps, 1);
    gait_character_info info;
    gait_character_info_get(w, id, &info);
    CHECK_EQ_INT(info.phase.state, GAIT_STATE_IDLE);
    CHECK_EQ_INT(info.presses_read & GAIT_BUTTON_JUMP, 0);
    /* a stale id is refused */
    gait_character_id stale = id;
    stale.generation += 7;
    CHECK_EQ_INT(gait_script_set_kit(s, stale, path), GAIT_ERR_STALE_ID);
    unlink(path);
    destroy_both_and_count(s, w, &c);
}

TEST(script_endless_kit_is_stopped_and_the_world_steps_on) {
    counter c = {0};
    gait_world *w = make_world(&c);
    gait_script_def d = gait_default_script_def();
    d.hooks = hooks_for(&c);
    d.world = w;
    d.instruction_budget = 100000;
    gait_script *s = gait_script_create(&d);
    gait_character_def cd = gait_default_character_def();
    gait_character_id id;
    gait_character_create(w, &cd, &id);
    char path[] = "/tmp/gait_loop_XXXXXX.lua";
    int fd = mkstemps(path, 4);
    if (fd >= 0) close(fd);
    write_file(path, "return {on_presses = function()\n  while true do end\nend}\n");
    CHECK_EQ_INT(gait_script_set_kit(s, id, path), GAIT_OK);
    int steps = 0;
    CHECK_EQ_INT(gait_script_frame(s, 1.0 / 60, &steps), GAIT_ERR_SCRIPT);
    CHECK_EQ_INT(steps, 1);
    CHECK_MSG(strstr(gait_script_last_error(s), "instruction budget") != NULL, "%s",
              gait_script_last_error(s));
    CHECK_MSG(strstr(gait_script_last_error(s), ":2:") != NULL, "%s", gait_script_last_error(s));
    /* skipped until reloaded: the next frame is clean */
    CHECK_EQ_INT(gait_script_frame(s, 1.0 / 60, &steps), GAIT_OK);
    unlink(path);
    gait_script_destroy(s);
    gait_world_destroy(w);
}

TEST(script_tuning_validates_and_reloads) {
    counter c = {0};
    gait_world *w = make_world(&c);
    gait_script *s = make_script(w, &c);
    char dir[] = "/tmp/gait_tuning_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char loc[128], sta[128], gat[128];
    snprintf(loc, sizeof loc, "%s/locomotion.lua", dir);
    snprintf(sta, sizeof sta, "%s/stamina.lua", dir);
    snprintf(gat, sizeof gat, "%s/gates.lua", dir);
    write_file(sta, "return {refill_rate = 25, refill_delay = 1.5, costs = {dash = 18}}\n");
    write_file(gat, "return {move_epsilon = 0.01}\n");
    write_file(loc, "return {\n  provisional = {walk_speed = 2},\n  medium_female = {\n    run_speed = 0/0,\n  },\n}\n");
    CHECK_EQ_INT(gait_script_load_tuning(s, dir), GAIT_ERR_SCRIPT);
    CHECK_MSG(strstr(gait_script_last_error(s), "locomotion.lua:4: medium_female.run_speed is NaN") != NULL,
              "%s", gait_script_last_error(s));
    CHECK(!gait_world_locomotion_measured(w, GAIT_BODY_MEDIUM_FEMALE)); /* nothing applied */
    CHECK_NEAR(gait_world_locomotion(w, GAIT_BODY_MEDIUM_MALE)->walk_speed, 1.9, 0);

    /* fixed on disk: the first load's files are watched, poll picks the fix up */
    write_file(loc, "return {\n  provisional = {walk_speed = 2},\n  medium_female = {\n    run_speed = 6.25,\n  },\n}\n");
    int n = 0;
    CHECK_EQ_INT(gait_script_poll(s, &n), GAIT_OK);
    CHECK_EQ_INT(n, 1);
    CHECK(gait_world_locomotion_measured(w, GAIT_BODY_MEDIUM_FEMALE));
    CHECK_NEAR(gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE)->run_speed, 6.25, 0);
    CHECK_NEAR(gait_world_locomotion(w, GAIT_BODY_MEDIUM_MALE)->walk_speed, 2, 0);
    CHECK_NEAR(gait_world_locomotion(w, GAIT_BODY_MEDIUM_MALE)->run_speed, 5.6, 0); /* not lent */

    /* wrong type on reload: the last good numbers stay */
    write_file(gat, "return {move_epsilon = 'small'}\n");
    CHECK_EQ_INT(gait_script_poll(s, &n), GAIT_ERR_SCRIPT);
    CHECK_EQ_INT(n, 0);
    CHECK_MSG(strstr(gait_script_last_error(s), "gates.lua:1: gates.move_epsilon: a string") != NULL,
              "%s", gait_script_last_error(s));
    CHECK_NEAR(gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE)->run_speed, 6.25, 0);
    unlink(loc);
    unlink(sta);
    unlink(gat);
    rmdir(dir);
    destroy_both_and_count(s, w, &c);
}

TEST(script_destroy_clears_its_gate_hooks) {
    counter c = {0};
    gait_world *w;
    gait_character_id id;
    gait_script *s = script_and_body(&c, &w, &id);
    CHECK_EQ_INT(gait_script_run_string(s,
        "local ch = require('gait').world.host():characters()[1]\n"
        "ch:set_gate_hook(function(c, from, to) if to == 'run' then return 'walk' end end)\n",
        "=hook"), GAIT_OK);
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_y = 1;
    gait_character_set_input(w, id, &in);
    gait_world_step(w);
    gait_character_info info;
    gait_character_info_get(w, id, &info);
    CHECK_EQ_INT(info.phase.state, GAIT_STATE_WALK); /* redirected by Lua */
    gait_script_destroy(s);
    /* the world outlives the script: its steps must not call into a closed Lua state */
    gait_character_place(w, id, info.position, 0);
    gait_character_set_input(w, id, &in);
    gait_world_step(w);
    gait_character_info_get(w, id, &info);
    CHECK_EQ_INT(info.phase.state, GAIT_STATE_RUN);
    gait_world_destroy(w);
    CHECK_EQ_INT(c.live_bytes, 0);
}
