/* The animation-state signal (docs/behaviour.md, "Animation signal"): grounded debounce table, clip map, crossfade. */
#include "check.h"

#include <lauxlib.h>
#include <lua.h>
#include <string.h>

#include "gait/gait.h"

static const double DT = 1.0 / 60.0;

static gait_anim make_anim(double delay, bool map_all) {
    gait_anim a;
    gait_anim_def d = gait_default_anim_def();
    d.grounded_transition_delay = delay;
    gait_anim_init(&a, &d);
    if (map_all)
        for (int s = 0; s < GAIT_ANIM_STATE_COUNT; s++)
            gait_anim_set_clip(&a, (gait_anim_state)s, gait_anim_state_name((gait_anim_state)s));
    return a;
}

/* A raw grounded sequence, one char per step ('1' grounded, '0' not), fed with the on-foot state
 * Idle and the body within its step height (edge flicker, not a real fall); expected debounced
 * outputs per step. */
typedef struct debounce_case {
    const char *name;
    double delay;
    const char *raw;
    const char *want;
} debounce_case;

static const debounce_case debounce_cases[] = {
    /* 0.15 s = 9 steps at 60 Hz */
    {"first_reading_adopted_at_once_true", 0.15, "1111", "1111"},
    {"first_reading_adopted_at_once_false", 0.15, "0000", "0000"},
    {"flicker_every_step_never_switches", 0.15, "1010101010101010101010", "1111111111111111111111"},
    {"flicker_two_steps_never_switches", 0.15, "1001100110011001100110", "1111111111111111111111"},
    {"new_value_held_for_the_delay_switches", 0.15, "1000000000000", "1111111110000"},
    {"flip_back_restarts_the_timer", 0.15, "100000001000000000", "111111111111111110"},
    {"delay_zero_switches_at_once", 0.0, "10101", "10101"},
};

static void debounce_case_run(int i) {
    const debounce_case *c = &debounce_cases[i];
    gait_anim a = make_anim(c->delay, true);
    size_t n = strlen(c->raw);
    char got[64] = {0};
    for (size_t k = 0; k < n; k++) {
        gait_anim_input in = {GAIT_STATE_IDLE, c->raw[k] == '1', 0.1, 0.3, 0, 0};
        gait_anim_update(&a, &in, DT);
        gait_anim_signal sig;
        gait_anim_signal_get(&a, &sig);
        got[k] = sig.grounded ? '1' : '0';
    }
    CHECK_MSG(strcmp(got, c->want) == 0, "%s: raw %s gave %s, wanted %s", c->name, c->raw, got, c->want);
}

__attribute__((constructor)) static void debounce_cases_register(void) {
    for (int i = 0; i < (int)(sizeof debounce_cases / sizeof debounce_cases[0]); i++)
        check_register_case(debounce_cases[i].name, debounce_case_run, i);
}

TEST(anim_real_fall_reads_airborne_at_once) {
    gait_anim a = make_anim(0.15, true);
    gait_anim_input in = {GAIT_STATE_RUN, true, 0, 0.3, 5, 1};
    gait_anim_update(&a, &in, DT);
    gait_anim_signal sig;
    gait_anim_signal_get(&a, &sig);
    CHECK_EQ_INT(sig.state, GAIT_ANIM_RUN);
    in.state = GAIT_STATE_FALL; /* the locomotion state says it is in the air */
    in.raw_grounded = false;
    in.height_above_ground = 0.2;
    gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK_EQ_INT(sig.state, GAIT_ANIM_FALL);
    CHECK(!sig.grounded);
    /* more than the step height above the ground reads airborne at once, too */
    a = make_anim(0.15, true);
    in.state = GAIT_STATE_RUN; in.raw_grounded = true; in.height_above_ground = 0;
    gait_anim_update(&a, &in, DT);
    in.raw_grounded = false; in.height_above_ground = 0.5;
    gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK_EQ_INT(sig.state, GAIT_ANIM_FALL);
}

TEST(anim_priority_airborne_crouch_moving_idle) {
    gait_anim a = make_anim(0, true);
    gait_anim_signal sig;
    gait_anim_input in = {GAIT_STATE_IDLE, true, 0, 0.3, 0, 0};
    gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK_EQ_INT(sig.state, GAIT_ANIM_IDLE);
    in.state = GAIT_STATE_RUN; in.move = 1; in.horizontal_speed = 5.6;
    gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK_EQ_INT(sig.state, GAIT_ANIM_RUN); /* idle -> run at once: grounded did not change */
    in.state = GAIT_STATE_CROUCH;
    gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK_EQ_INT(sig.state, GAIT_ANIM_CROUCH_WALK);
    in.state = GAIT_STATE_JUMP; in.raw_grounded = false; in.height_above_ground = 0.5;
    gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK_EQ_INT(sig.state, GAIT_ANIM_JUMP);
    static const struct { gait_state s; bool moving; gait_anim_state want; } every[] = {
        {GAIT_STATE_WALK, true, GAIT_ANIM_WALK}, {GAIT_STATE_DASH, true, GAIT_ANIM_DASH},
        {GAIT_STATE_SPRINT, true, GAIT_ANIM_SPRINT}, {GAIT_STATE_CLIMB, true, GAIT_ANIM_CLIMB},
        {GAIT_STATE_CLIMB, false, GAIT_ANIM_CLIMB_IDLE}, {GAIT_STATE_CLIMB_JUMP, false, GAIT_ANIM_CLIMB_JUMP},
        {GAIT_STATE_SWIM, true, GAIT_ANIM_SWIM}, {GAIT_STATE_SWIM, false, GAIT_ANIM_SWIM_IDLE},
        {GAIT_STATE_SWIM_DASH, true, GAIT_ANIM_SWIM_DASH}, {GAIT_STATE_DROWN, false, GAIT_ANIM_DROWN},
        {GAIT_STATE_TRAVERSE, true, GAIT_ANIM_TRAVERSE},
    };
    for (size_t k = 0; k < sizeof every / sizeof every[0]; k++) {
        gait_anim b = make_anim(0, true);
        gait_anim_input bi = {every[k].s, false, 0.5, 0.3, every[k].moving ? 2 : 0, every[k].moving ? 1 : 0};
        if (gait_state_on_foot(every[k].s)) { bi.raw_grounded = true; bi.height_above_ground = 0; }
        gait_anim_update(&b, &bi, DT);
        gait_anim_signal_get(&b, &sig);
        CHECK_MSG(sig.state == every[k].want, "%s gave %s, wanted %s", gait_state_name(every[k].s),
                  gait_anim_state_name(sig.state), gait_anim_state_name(every[k].want));
    }
}

TEST(anim_missing_clip_keeps_the_last) {
    gait_anim a = make_anim(0, false);
    gait_anim_set_clip(&a, GAIT_ANIM_IDLE, "Idle01");
    gait_anim_set_clip(&a, GAIT_ANIM_RUN, "Run");
    gait_anim_set_clip(&a, GAIT_ANIM_SPRINT, "Sprint");
    gait_anim_set_model_lacks(&a, GAIT_ANIM_SPRINT, true); /* mapped, but the model lacks it */
    gait_anim_signal sig;
    gait_anim_input in = {GAIT_STATE_RUN, true, 0, 0.3, 5.6, 1};
    gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK(strcmp(sig.clip, "Run") == 0);
    in.state = GAIT_STATE_WALK; /* walk is not in the map */
    gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK(strcmp(sig.clip, "Run") == 0);
    CHECK_EQ_INT(sig.wanted, GAIT_ANIM_WALK);
    in.state = GAIT_STATE_SPRINT; /* the model lacks it */
    gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK(strcmp(sig.clip, "Run") == 0);
    CHECK_NEAR(sig.seconds_in_state, 2 * DT, 1e-12); /* the last one keeps playing */
    CHECK_EQ_INT(sig.switches, 1);
}

TEST(anim_every_switch_carries_the_fade) {
    gait_anim a = make_anim(0, true);
    gait_anim_signal sig;
    gait_state seq[] = {GAIT_STATE_IDLE, GAIT_STATE_RUN, GAIT_STATE_WALK, GAIT_STATE_RUN};
    for (int k = 0; k < 4; k++) {
        gait_anim_input in = {seq[k], true, 0, 0.3, k ? 3 : 0, k ? 1 : 0};
        gait_anim_update(&a, &in, DT);
        gait_anim_signal_get(&a, &sig);
        CHECK_NEAR(sig.fade_seconds, 0.2, 0);
        CHECK_NEAR(sig.seconds_in_state, 0, 0);
    }
    CHECK_EQ_INT(sig.switches, 4);
}

TEST(anim_no_model_is_safe) {
    gait_anim a = make_anim(0.15, false); /* nothing mapped: a body with no model */
    gait_anim_signal sig;
    gait_anim_input in = {GAIT_STATE_RUN, true, 0, 0.3, 5, 1};
    for (int k = 0; k < 10; k++) gait_anim_update(&a, &in, DT);
    gait_anim_signal_get(&a, &sig);
    CHECK(sig.clip != NULL && sig.clip[0] == 0);
    CHECK_EQ_INT(sig.wanted, GAIT_ANIM_RUN);
    CHECK_EQ_INT(gait_anim_set_clip(&a, GAIT_ANIM_STATE_COUNT, "x"), GAIT_ERR_INVALID_ARGUMENT);
    char longname[80];
    memset(longname, 'a', sizeof longname - 1);
    longname[79] = 0;
    CHECK_EQ_INT(gait_anim_set_clip(&a, GAIT_ANIM_RUN, longname), GAIT_ERR_INVALID_ARGUMENT);
    gait_anim_def bad = gait_default_anim_def();
    bad.crossfade_seconds = NAN;
    CHECK_EQ_INT(gait_anim_set_def(&a, &bad), GAIT_ERR_INVALID_ARGUMENT);
}

/* A C host that creates its character from gait_default_character_def gets a clip map, the same
 * one the Lua side ships (scripts/tuning/anim.lua): standing plays "Idle", running "Run". */
TEST(anim_default_character_def_has_the_shipped_clip_map) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = 1;
    gait_world *w = gait_world_create(&wd);
    float heights[16 * 16];
    for (int i = 0; i < 16 * 16; i++) heights[i] = 0;
    gait_heightfield_def hf = {16, 16, 1.0, {-8, 0, -8}, heights};
    gait_collider_set_terrain(gait_world_collider(w), &hf);
    gait_character_def cd = gait_default_character_def();
    gait_character_id id;
    CHECK_EQ_INT(gait_character_create(w, &cd, &id), GAIT_OK);
    gait_anim_signal sig;
    gait_world_update(w, DT, NULL);
    gait_character_anim(w, id, &sig);
    CHECK_MSG(strcmp(sig.clip, "Idle") == 0, "standing: clip \"%s\", wanted \"Idle\"", sig.clip);
    for (int k = 0; k < 20; k++) {
        gait_input in;
        memset(&in, 0, sizeof in);
        in.move_y = 1;
        gait_character_set_input(w, id, &in);
        gait_world_update(w, DT, NULL);
    }
    gait_character_anim(w, id, &sig);
    CHECK_EQ_INT(sig.state, GAIT_ANIM_RUN);
    CHECK_MSG(strcmp(sig.clip, "Run") == 0, "running: clip \"%s\", wanted \"Run\"", sig.clip);
    gait_world_destroy(w);
}

/* The C defaults and the shipped scripts/tuning/anim.lua name the same clip for every state (run
 * from the repository's root, as make test runs the tests). */
TEST(anim_default_clips_are_the_ones_anim_lua_ships) {
    gait_script_def d = gait_default_script_def();
    d.root = ".";
    gait_script *s = gait_script_create(&d);
    CHECK(s != NULL);
    if (!s) return;
    lua_State *L = gait_script_lua(s);
    CHECK_MSG(luaL_dofile(L, "scripts/tuning/anim.lua") == 0, "anim.lua: %s", lua_tostring(L, -1));
    lua_getfield(L, -1, "clips");
    CHECK(lua_istable(L, -1));
    int mapped = 0;
    for (int k = 0; k < GAIT_ANIM_STATE_COUNT && lua_istable(L, -1); k++) {
        const char *name = gait_anim_state_name((gait_anim_state)k);
        lua_getfield(L, -1, name);
        const char *lua_clip = lua_tostring(L, -1);
        const char *c_clip = gait_default_anim_clip((gait_anim_state)k);
        CHECK_MSG(lua_clip && c_clip && strcmp(lua_clip, c_clip) == 0,
                  "%s: anim.lua maps \"%s\", the C default \"%s\"", name, lua_clip ? lua_clip : "(none)",
                  c_clip ? c_clip : "(none)");
        mapped += lua_clip != NULL;
        lua_pop(L, 1);
    }
    /* and no state beyond the enum's in the file */
    int keys = 0;
    for (lua_pushnil(L); lua_istable(L, -2) && lua_next(L, -2); lua_pop(L, 1)) keys++;
    CHECK_EQ_INT(mapped, GAIT_ANIM_STATE_COUNT);
    CHECK_EQ_INT(keys, GAIT_ANIM_STATE_COUNT);
    CHECK(gait_default_anim_clip(GAIT_ANIM_STATE_COUNT) == NULL);
    gait_script_destroy(s);
}
