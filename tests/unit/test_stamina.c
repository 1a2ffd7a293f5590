/* The stamina pool (docs/behaviour.md, "Stamina"), with exact timings at 60 steps a second. */
#include "check.h"

#include "gait/gait.h"

static const double DT = 1.0 / 60.0;

static gait_stamina pool_at(double value) {
    gait_stamina p;
    gait_stamina_def d = gait_default_stamina_def();
    d.start = value;
    gait_stamina_init(&p, &d);
    return p;
}

TEST(stamina_defaults) {
    gait_stamina p = pool_at(-1);
    CHECK_NEAR(p.value, 100, 0);
    CHECK_NEAR(p.max, 100, 0);
    gait_stamina_def d = gait_default_stamina_def();
    CHECK_NEAR(d.refill_rate, 25, 0);
    CHECK_NEAR(d.refill_delay, 1.5, 0);
    gait_stamina_costs c = gait_default_stamina_costs();
    CHECK_NEAR(c.dash, 18, 0);
    CHECK_NEAR(c.sprint_per_s, 18, 0);
    CHECK_NEAR(c.climb_jump, 25, 0);
    CHECK_NEAR(c.glide_per_s, 3, 0);
    CHECK_NEAR(c.swim_stroke, 4, 0);
    CHECK_NEAR(c.swim_dash_start, 2, 0);
    CHECK_NEAR(c.swim_dash_per_s, 10.2, 0);
    CHECK_NEAR(c.climb_start_min, 5, 0);
}

TEST(stamina_sprint_from_100_ends_in_100_over_18_s) {
    gait_stamina p = pool_at(100);
    gait_stamina_costs c = gait_default_stamina_costs();
    int steps = 0;
    while (p.value > 0 && steps < 100000) {
        gait_stamina_step(&p, &c, GAIT_STATE_SPRINT, GAIT_STATE_SPRINT, true, DT);
        steps++;
    }
    CHECK_NEAR(steps * DT, 100.0 / 18.0, DT);
}

TEST(stamina_refills_from_0_in_1_5_plus_4_s) {
    gait_stamina p = pool_at(100);
    gait_stamina_spend(&p, 100); /* a cost at t = 0 */
    CHECK_NEAR(p.value, 0, 0);
    gait_stamina_costs c = gait_default_stamina_costs();
    int steps = 0;
    while (p.value < p.max && steps < 100000) {
        gait_stamina_step(&p, &c, GAIT_STATE_IDLE, GAIT_STATE_IDLE, false, DT);
        steps++;
    }
    CHECK_NEAR(steps * DT, 1.5 + 4.0, DT);
}

TEST(stamina_climb_standing_still_costs_nothing) {
    gait_stamina p = pool_at(50);
    gait_stamina_costs c = gait_default_stamina_costs();
    for (int i = 0; i < 600; i++) gait_stamina_step(&p, &c, GAIT_STATE_CLIMB, GAIT_STATE_CLIMB, false, DT);
    CHECK_NEAR(p.value, 50, 0); /* no cost, and no refill on a wall */
    for (int i = 0; i < 60; i++) gait_stamina_step(&p, &c, GAIT_STATE_CLIMB, GAIT_STATE_CLIMB, true, DT);
    CHECK_NEAR(p.value, 50 - c.climb_per_s, 1e-9); /* one second moving on the wall */
}

TEST(stamina_multiplier_halves_every_cost_and_the_gate_agrees) {
    gait_stamina_costs c = gait_default_stamina_costs();
    gait_stamina p = pool_at(100);
    gait_stamina_set_multiplier(&p, 0.5);
    gait_stamina_step(&p, &c, GAIT_STATE_RUN, GAIT_STATE_DASH, true, DT);
    CHECK_NEAR(p.value, 100 - 9, 1e-9);
    p = pool_at(100);
    gait_stamina_set_multiplier(&p, 0.5);
    for (int i = 0; i < 60; i++) gait_stamina_step(&p, &c, GAIT_STATE_SPRINT, GAIT_STATE_SPRINT, true, DT);
    CHECK_NEAR(p.value, 100 - 9, 1e-9);
    p = pool_at(100);
    gait_stamina_set_multiplier(&p, 0.5);
    gait_stamina_step(&p, &c, GAIT_STATE_CLIMB, GAIT_STATE_CLIMB_JUMP, false, DT);
    CHECK_NEAR(p.value, 100 - 12.5, 1e-9);
    p = pool_at(15);
    gait_stamina_set_multiplier(&p, 0.5);
    CHECK(gait_stamina_can_spend(&p, 20));  /* 20 x 0.5 = 10 <= 15 */
    CHECK(!gait_stamina_can_spend(&p, 40)); /* 20 > 15 */
    gait_stamina_spend(&p, 20);
    CHECK_NEAR(p.value, 5, 1e-12);
    /* the climb gate reads the multiplied threshold too: 5 x 0.5 = 2.5 */
    gait_locomotion n = gait_default_locomotion();
    gait_phase ph = {GAIT_STATE_RUN, 1};
    gait_contact ct = {0};
    ct.grounded = true;
    ct.wall = ct.wall_ahead = true;
    ct.submersion = -INFINITY;
    gait_gate_input in = {0};
    in.move = 1;
    in.stamina = 3;
    in.stamina_multiplier = 0.5;
    CHECK_EQ_INT(gait_locomotion_next(&ph, &in, &ct, &n), GAIT_STATE_CLIMB);
    in.stamina_multiplier = 1;
    CHECK_EQ_INT(gait_locomotion_next(&ph, &in, &ct, &n), GAIT_STATE_RUN);
}

TEST(stamina_spend_restarts_the_rest) {
    gait_stamina p = pool_at(50);
    gait_stamina_costs c = gait_default_stamina_costs();
    for (int i = 0; i < 60; i++) gait_stamina_step(&p, &c, GAIT_STATE_IDLE, GAIT_STATE_IDLE, false, DT);
    gait_stamina_spend(&p, 10);
    double v = p.value;
    int steps = 0;
    while (p.value == v && steps < 1000) {
        gait_stamina_step(&p, &c, GAIT_STATE_IDLE, GAIT_STATE_IDLE, false, DT);
        steps++;
    }
    CHECK_NEAR(steps * DT, 1.5, DT); /* the refill waits 1.5 s from the spend */
}

TEST(stamina_never_refills_on_a_wall_in_water_or_gliding) {
    gait_stamina_costs c = gait_default_stamina_costs();
    c.glide_per_s = 0; /* so only the refill could change the value */
    c.swim_stroke = 0;
    static const gait_state no[] = {GAIT_STATE_CLIMB, GAIT_STATE_SWIM, GAIT_STATE_GLIDE,
                                    GAIT_STATE_DROWN};
    for (int k = 0; k < 4; k++) {
        gait_stamina p = pool_at(10);
        for (int i = 0; i < 600; i++) gait_stamina_step(&p, &c, no[k], no[k], false, DT);
        CHECK_MSG(p.value <= 10, "%s refilled to %g", gait_state_name(no[k]), p.value);
    }
    static const gait_state yes[] = {GAIT_STATE_IDLE, GAIT_STATE_RUN, GAIT_STATE_FALL, GAIT_STATE_JUMP};
    for (int k = 0; k < 4; k++) {
        gait_stamina p = pool_at(10);
        for (int i = 0; i < 600; i++) gait_stamina_step(&p, &c, yes[k], yes[k], false, DT);
        CHECK_MSG(p.value == 100, "%s did not refill (%g)", gait_state_name(yes[k]), p.value);
    }
}

TEST(stamina_swim_strokes_cost_4_each_moving_or_treading) {
    gait_stamina_costs c = gait_default_stamina_costs();
    gait_stamina p = pool_at(100);
    gait_stamina_step(&p, &c, GAIT_STATE_FALL, GAIT_STATE_SWIM, false, DT); /* the first stroke */
    CHECK_NEAR(p.value, 96, 1e-12);
    for (int i = 0; i < 60 * 3; i++) gait_stamina_step(&p, &c, GAIT_STATE_SWIM, GAIT_STATE_SWIM, false, DT);
    CHECK_NEAR(p.value, 96 - 3 * 4, 1e-12); /* one stroke a second, treading water */
    gait_stamina_step(&p, &c, GAIT_STATE_SWIM, GAIT_STATE_SWIM_DASH, true, DT);
    CHECK_NEAR(p.value, 84 - 2 - 10.2 * DT, 1e-9);
}

TEST(stamina_bad_input) {
    gait_stamina p = pool_at(50);
    CHECK_EQ_INT(gait_stamina_spend(&p, NAN), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_stamina_spend(&p, -1), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_stamina_spend(&p, INFINITY), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_NEAR(p.value, 50, 0);
    CHECK(!gait_stamina_can_spend(&p, NAN));
    CHECK_EQ_INT(gait_stamina_set_max(&p, 0), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_stamina_set_multiplier(&p, -1), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_stamina_set_max(&p, 240), GAIT_OK); /* the option's maximum */
    CHECK_NEAR(p.max, 240, 0);
    CHECK_EQ_INT(gait_stamina_set_max(&p, 20), GAIT_OK);
    CHECK_NEAR(p.value, 20, 0);
    gait_stamina_def d = gait_default_stamina_def();
    d.max = NAN;
    CHECK_EQ_INT(gait_stamina_init(&p, &d), GAIT_ERR_INVALID_ARGUMENT);
}
