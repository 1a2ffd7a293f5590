/* The fixed-step clock and the held presses (docs/behaviour.md, "The frame and the step"). */
#include "check.h"

#include <string.h>

#include "gait/gait.h"

TEST(clock_defaults_and_bad_defs) {
    gait_clock c;
    gait_clock_def d = gait_default_clock_def();
    CHECK_NEAR(d.step_seconds, 1.0 / 60.0, 0);
    CHECK_EQ_INT(gait_clock_init(&c, &d), GAIT_OK);
    gait_clock_def bad = d;
    bad.step_seconds = 0;
    CHECK_EQ_INT(gait_clock_init(&c, &bad), GAIT_ERR_INVALID_ARGUMENT);
    bad = d;
    bad.max_steps_per_frame = 0;
    CHECK_EQ_INT(gait_clock_init(&c, &bad), GAIT_ERR_INVALID_ARGUMENT);
    int n = -1;
    CHECK_EQ_INT(gait_clock_init(&c, &d), GAIT_OK);
    CHECK_EQ_INT(gait_clock_advance(&c, NAN, &n), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_clock_advance(&c, -0.01, &n), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_clock_advance(&c, INFINITY, &n), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(n, -1);            /* nothing written on failure */
    CHECK_NEAR(c.accumulator, 0, 0); /* nothing changed */
}

TEST(clock_steps_and_alpha) {
    gait_clock c;
    gait_clock_def d = gait_default_clock_def();
    gait_clock_init(&c, &d);
    int n;
    gait_clock_advance(&c, 1.5 / 60.0, &n);
    CHECK_EQ_INT(n, 1);
    CHECK_NEAR(gait_clock_alpha(&c), 0.5, 1e-9);
    gait_clock_advance(&c, 0.5 / 60.0, &n);
    CHECK_EQ_INT(n, 1);
    CHECK_NEAR(gait_clock_alpha(&c), 0.0, 1e-6);
    /* 144 frames of 1/144 s run exactly 60 steps, though 1/144 is not exact in binary */
    gait_clock_init(&c, &d);
    int total = 0;
    for (int i = 0; i < 144; i++) { gait_clock_advance(&c, 1.0 / 144.0, &n); total += n; }
    CHECK_EQ_INT(total, 60);
}

TEST(clock_stall_is_capped) {
    gait_clock c;
    gait_clock_def d = gait_default_clock_def();
    gait_clock_init(&c, &d);
    int n;
    gait_clock_advance(&c, 2.0, &n); /* a 2-second stall */
    CHECK(n <= d.max_steps_per_frame);
    CHECK_EQ_INT(n, d.max_steps_per_frame);
    CHECK(c.accumulator < c.step_seconds);
    CHECK_EQ_INT(c.dropped_steps, 120 - d.max_steps_per_frame);
    gait_clock_advance(&c, 1.0 / 60.0, &n); /* and it does not spiral afterwards */
    CHECK_EQ_INT(n, 1);
}

/* A world of default numbers with one default character. */
static gait_world *world_of_one(gait_character_id *id) {
    gait_world_def wd = gait_default_world_def();
    gait_world *w = gait_world_create(&wd);
    gait_character_def cd = gait_default_character_def();
    gait_character_create(w, &cd, id);
    return w;
}

/* A frame's input with no stick: the buttons held and those pressed. */
static void set_buttons(gait_world *w, gait_character_id id, uint32_t held, uint32_t pressed) {
    gait_input in;
    memset(&in, 0, sizeof in);
    in.held = held;
    in.pressed = pressed;
    gait_character_set_input(w, id, &in);
}

/* Feeds the same timed press sequence at a frame rate, stepping through the world, and records
 * which step read which presses. Presses fall on multiples of 1/6 s, a whole number of frames
 * at 30, 60, 144 and 240 fps. */
typedef struct read_log { int count; uint64_t step[64]; uint32_t presses[64]; } read_log;

static void play(double fps, read_log *log, int *steps_out) {
    gait_character_id id;
    gait_world *w = world_of_one(&id);
    gait_world_def wd = gait_default_world_def(); /* the world's own clock numbers */
    gait_clock clock;
    gait_clock_init(&clock, &wd.clock);
    memset(log, 0, sizeof *log);
    int frames = (int)(fps * 3.0 + 0.5);
    int per_sixth = (int)(fps / 6.0 + 0.5);
    int steps = 0;
    for (int f = 0; f < frames; f++) {
        int k = f / per_sixth;
        uint32_t pressed = 0;
        if (f % per_sixth == 0) pressed = (k % 3 == 0) ? GAIT_BUTTON_ATTACK
                                        : (k % 3 == 1) ? GAIT_BUTTON_SKILL : GAIT_BUTTON_DROP;
        set_buttons(w, id, 0, pressed);
        int n;
        gait_clock_advance(&clock, 1.0 / fps, &n);
        for (int s = 0; s < n; s++) {
            gait_world_step(w);
            gait_character_info info;
            gait_character_info_get(w, id, &info);
            if (info.presses_read && log->count < 64) {
                log->step[log->count] = gait_world_step_count(w);
                log->presses[log->count] = info.presses_read;
                log->count++;
            }
        }
        steps += n;
    }
    *steps_out = steps;
    gait_world_destroy(w);
}

TEST(clock_same_presses_at_30_60_144_240_fps) {
    read_log ref, log;
    int ref_steps, steps;
    play(60, &ref, &ref_steps);
    CHECK_EQ_INT(ref_steps, 180);
    CHECK_EQ_INT(ref.count, 18); /* each of the 18 presses read by exactly one step */
    static const double rates[] = {30, 144, 240};
    for (int r = 0; r < 3; r++) {
        play(rates[r], &log, &steps);
        CHECK_MSG(steps == ref_steps, "%g fps ran %d steps, 60 fps ran %d", rates[r], steps, ref_steps);
        CHECK_MSG(log.count == ref.count, "%g fps: %d presses read, wanted %d", rates[r], log.count,
                  ref.count);
        for (int i = 0; i < log.count && i < ref.count; i++) {
            CHECK_MSG(log.step[i] == ref.step[i] && log.presses[i] == ref.presses[i],
                      "%g fps: read %d was step %llu presses %u, 60 fps step %llu presses %u",
                      rates[r], i, (unsigned long long)log.step[i], log.presses[i],
                      (unsigned long long)ref.step[i], ref.presses[i]);
        }
    }
}

TEST(clock_press_in_a_frame_without_a_step_is_kept) {
    gait_character_id id;
    gait_world *w = world_of_one(&id);
    set_buttons(w, id, 0, GAIT_BUTTON_SKILL);
    int n;
    gait_world_update(w, 1.0 / 240.0, &n);
    CHECK_EQ_INT(n, 0);
    uint32_t held = 0;
    gait_character_held_presses(w, id, &held);
    CHECK_EQ_INT(held, GAIT_BUTTON_SKILL); /* kept: no step read it */
    int reads = 0;
    for (int f = 0; f < 8; f++) {
        set_buttons(w, id, 0, 0);
        gait_world_update(w, 1.0 / 240.0, &n);
        gait_character_info info;
        gait_character_info_get(w, id, &info);
        if (n > 0 && (info.presses_read & GAIT_BUTTON_SKILL)) reads++;
    }
    CHECK_EQ_INT(reads, 1); /* read by exactly one step, then let go */
    gait_character_held_presses(w, id, &held);
    CHECK_EQ_INT(held, 0);
    gait_world_destroy(w);
}

TEST(clock_held_buttons_are_levels) {
    gait_character_id id;
    gait_world *w = world_of_one(&id);
    set_buttons(w, id, GAIT_BUTTON_ATTACK, 0);
    gait_world_step(w);
    gait_world_step(w);
    gait_character_info info;
    gait_character_info_get(w, id, &info);
    CHECK_EQ_INT(info.presses_read, 0); /* a held button is not a press */
    gait_world_destroy(w);
}
