/* The locomotion gates (docs/behaviour.md, "States and transitions"): one named case per edge of the diagram and per refusal. */
#include "check.h"

#include <string.h>

#include "gait/gait.h"

/* Where the body is, as the contact says it. */
enum where { GROUND = 0, AIR_LOW, AIR_HIGH, WATER_DEEP, WATER_SHALLOW };

typedef struct gate_case {
    const char *name;
    gait_state from;
    double seconds;
    enum where where;
    double move, move_up;
    bool walking, crouching;
    uint32_t pressed, held;
    double stamina;      /* used when stamina_set */
    bool stamina_set, rising, wall_ahead, wall_only, over_top, steep;
    gait_state want;
} gate_case;

#define S(x) GAIT_STATE_##x
#define B(x) GAIT_BUTTON_##x
#define OUT .stamina_set = true, .stamina = 0

static const gate_case cases[] = {
    /* on foot */
    {"idle_to_walk_switch", S(IDLE), 1, GROUND, .move = 1, .walking = true, .want = S(WALK)},
    {"idle_to_walk_part_stick", S(IDLE), 1, GROUND, .move = 0.3, .want = S(WALK)},
    {"idle_to_run", S(IDLE), 1, GROUND, .move = 1, .want = S(RUN)},
    {"run_to_idle_no_move", S(RUN), 1, GROUND, .want = S(IDLE)},
    {"idle_stays_under_move_epsilon", S(IDLE), 1, GROUND, .move = 0.005, .want = S(IDLE)},
    {"run_to_dash", S(RUN), 1, GROUND, .move = 1, .pressed = B(SPRINT), .want = S(DASH)},
    {"idle_to_dash", S(IDLE), 1, GROUND, .pressed = B(SPRINT), .want = S(DASH)},
    {"run_to_dash_refused_no_stamina", S(RUN), 1, GROUND, .move = 1, .pressed = B(SPRINT), OUT, .want = S(RUN)},
    {"dash_lasts_its_seconds", S(DASH), 0.2, GROUND, .move = 1, .held = B(SPRINT), .want = S(DASH)},
    {"dash_to_sprint", S(DASH), 0.35, GROUND, .move = 1, .held = B(SPRINT), .want = S(SPRINT)},
    {"dash_to_run_sprint_not_held", S(DASH), 0.35, GROUND, .move = 1, .want = S(RUN)},
    {"dash_to_run_no_stamina", S(DASH), 0.35, GROUND, .move = 1, .held = B(SPRINT), OUT, .want = S(RUN)},
    {"sprint_stays_held", S(SPRINT), 2, GROUND, .move = 1, .held = B(SPRINT), .want = S(SPRINT)},
    {"sprint_to_run_let_go", S(SPRINT), 2, GROUND, .move = 1, .want = S(RUN)},
    {"sprint_to_run_stamina_out", S(SPRINT), 2, GROUND, .move = 1, .held = B(SPRINT), OUT, .want = S(RUN)},
    {"onfoot_to_jump", S(RUN), 1, GROUND, .move = 1, .pressed = B(JUMP), .want = S(JUMP)},
    {"idle_to_jump", S(IDLE), 1, GROUND, .pressed = B(JUMP), .want = S(JUMP)},
    {"sprint_to_jump", S(SPRINT), 1, GROUND, .move = 1, .held = B(SPRINT), .pressed = B(JUMP), .want = S(JUMP)},
    {"onfoot_to_fall_ground_drops", S(RUN), 1, AIR_LOW, .move = 1, .want = S(FALL)},
    {"onfoot_to_climb", S(RUN), 1, GROUND, .move = 1, .wall_ahead = true, .want = S(CLIMB)},
    {"onfoot_to_climb_at_5", S(RUN), 1, GROUND, .move = 1, .wall_ahead = true, .stamina_set = true, .stamina = 5, .want = S(CLIMB)},
    {"onfoot_to_climb_refused_under_5", S(RUN), 1, GROUND, .move = 1, .wall_ahead = true, .stamina_set = true, .stamina = 4.9, .want = S(RUN)},
    {"onfoot_to_climb_refused_no_move", S(IDLE), 1, GROUND, .wall_only = true, .want = S(IDLE)},
    {"onfoot_to_swim", S(RUN), 1, WATER_DEEP, .move = 1, .want = S(SWIM)},
    {"onfoot_wades_shallow_water", S(RUN), 1, WATER_SHALLOW, .move = 1, .want = S(RUN)},
    {"walk_to_crouch", S(WALK), 1, GROUND, .move = 1, .crouching = true, .want = S(CROUCH)},
    {"crouch_to_idle", S(CROUCH), 1, GROUND, .want = S(IDLE)},
    /* jump */
    {"jump_stays_rising", S(JUMP), 0.1, AIR_LOW, .rising = true, .want = S(JUMP)},
    {"jump_to_fall_no_longer_rising", S(JUMP), 0.4, AIR_LOW, .want = S(FALL)},
    {"jump_to_glide", S(JUMP), 0.4, AIR_HIGH, .rising = true, .pressed = B(JUMP), .want = S(GLIDE)},
    {"jump_to_glide_refused_low", S(JUMP), 0.2, AIR_LOW, .rising = true, .pressed = B(JUMP), .want = S(JUMP)},
    {"jump_to_glide_refused_no_stamina", S(JUMP), 0.4, AIR_HIGH, .rising = true, .pressed = B(JUMP), OUT, .want = S(JUMP)},
    {"jump_to_climb", S(JUMP), 0.1, AIR_LOW, .rising = true, .move = 1, .wall_ahead = true, .want = S(CLIMB)},
    {"jump_to_swim", S(JUMP), 0.5, WATER_DEEP, .want = S(SWIM)},
    {"jump_to_onfoot_lands", S(JUMP), 0.5, GROUND, .want = S(IDLE)},
    /* fall */
    {"fall_to_glide", S(FALL), 1, AIR_HIGH, .pressed = B(JUMP), .want = S(GLIDE)},
    {"fall_to_glide_refused_low", S(FALL), 1, AIR_LOW, .pressed = B(JUMP), .want = S(FALL)},
    {"fall_to_glide_refused_no_stamina", S(FALL), 1, AIR_HIGH, .pressed = B(JUMP), OUT, .want = S(FALL)},
    {"fall_to_plunge", S(FALL), 1, AIR_HIGH, .pressed = B(ATTACK), .want = S(PLUNGE)},
    {"fall_to_plunge_refused_low", S(FALL), 1, AIR_LOW, .pressed = B(ATTACK), .want = S(FALL)},
    {"fall_to_climb_once_falling_a_moment", S(FALL), 0.3, AIR_LOW, .move = 1, .wall_ahead = true, .want = S(CLIMB)},
    {"fall_to_climb_refused_too_soon", S(FALL), 0.1, AIR_LOW, .move = 1, .wall_ahead = true, .want = S(FALL)},
    {"fall_to_onfoot_lands", S(FALL), 1, GROUND, .move = 1, .want = S(RUN)},
    {"fall_to_swim", S(FALL), 1, WATER_DEEP, .want = S(SWIM)},
    /* glide */
    {"glide_stays", S(GLIDE), 1, AIR_HIGH, .move = 1, .want = S(GLIDE)},
    {"glide_to_plunge", S(GLIDE), 1, AIR_LOW, .pressed = B(ATTACK), .want = S(PLUNGE)},
    {"glide_to_fall_jump", S(GLIDE), 1, AIR_HIGH, .pressed = B(JUMP), .want = S(FALL)},
    {"glide_to_fall_stamina_out", S(GLIDE), 1, AIR_HIGH, OUT, .want = S(FALL)},
    {"glide_to_climb_wall_ahead", S(GLIDE), 1, AIR_HIGH, .wall_ahead = true, .want = S(CLIMB)},
    {"glide_to_onfoot_lands", S(GLIDE), 1, GROUND, .want = S(IDLE)},
    {"glide_to_swim", S(GLIDE), 1, WATER_DEEP, .want = S(SWIM)},
    {"glide_to_fall_on_steep_ground", S(GLIDE), 1, AIR_LOW, .wall_only = true, .steep = true, .want = S(FALL)},
    {"glide_to_climb_beats_steep_ground", S(GLIDE), 1, AIR_LOW, .wall_ahead = true, .steep = true, .want = S(CLIMB)},
    /* resting on ground too steep to stand on, the dive is over: the fall slides off (a plunge
     * restarting straight down each step hung on a bank under a box: seed 1018773) */
    {"plunge_to_fall_on_steep_ground", S(PLUNGE), 1, AIR_LOW, .wall_only = true, .steep = true, .want = S(FALL)},
    /* plunge */
    {"plunge_stays", S(PLUNGE), 0.5, AIR_HIGH, .want = S(PLUNGE)},
    {"plunge_to_onfoot_lands", S(PLUNGE), 0.5, GROUND, .want = S(IDLE)},
    {"plunge_to_swim", S(PLUNGE), 0.5, WATER_DEEP, .want = S(SWIM)},
    /* climb */
    {"climb_stays_on_wall", S(CLIMB), 1, AIR_LOW, .move = 1, .move_up = 1, .wall_ahead = true, .want = S(CLIMB)},
    {"climb_stays_at_the_wall_base_pushing_up", S(CLIMB), 0.1, GROUND, .move = 1, .move_up = 1, .wall_ahead = true, .want = S(CLIMB)},
    {"climb_to_climb_jump", S(CLIMB), 1, AIR_LOW, .wall_only = true, .pressed = B(JUMP), .want = S(CLIMB_JUMP)},
    {"climb_jump_lasts_its_seconds", S(CLIMB_JUMP), 0.2, AIR_LOW, .wall_only = true, .want = S(CLIMB_JUMP)},
    {"climb_jump_to_climb", S(CLIMB_JUMP), 0.45, AIR_LOW, .wall_only = true, .want = S(CLIMB)},
    {"climb_to_fall_drop", S(CLIMB), 1, AIR_LOW, .wall_only = true, .pressed = B(DROP), .want = S(FALL)},
    {"climb_to_fall_stamina_out", S(CLIMB), 1, AIR_LOW, .move = 1, .wall_ahead = true, OUT, .want = S(FALL)},
    {"climb_to_fall_wall_ended", S(CLIMB), 1, AIR_LOW, .move = 1, .want = S(FALL)},
    {"climb_to_onfoot_over_the_top", S(CLIMB), 1, AIR_LOW, .move = 1, .move_up = 1, .over_top = true, .want = S(RUN)},
    {"climb_to_onfoot_down_onto_ground", S(CLIMB), 1, GROUND, .move = 1, .move_up = -1, .wall_only = true, .want = S(RUN)},
    /* water */
    {"swim_stays", S(SWIM), 1, WATER_DEEP, .move = 1, .want = S(SWIM)},
    {"swim_to_swim_dash", S(SWIM), 1, WATER_DEEP, .move = 1, .pressed = B(SPRINT), .held = B(SPRINT), .want = S(SWIM_DASH)},
    {"swim_to_swim_dash_refused_not_moving", S(SWIM), 1, WATER_DEEP, .pressed = B(SPRINT), .want = S(SWIM)},
    {"swim_dash_stays_held", S(SWIM_DASH), 1, WATER_DEEP, .move = 1, .held = B(SPRINT), .want = S(SWIM_DASH)},
    {"swim_dash_to_swim_let_go", S(SWIM_DASH), 1, WATER_DEEP, .move = 1, .want = S(SWIM)},
    {"swim_to_drown_stamina_out", S(SWIM), 1, WATER_DEEP, OUT, .want = S(DROWN)},
    {"swim_dash_to_drown_stamina_out", S(SWIM_DASH), 1, WATER_DEEP, .move = 1, .held = B(SPRINT), OUT, .want = S(DROWN)},
    {"drown_lasts_its_seconds", S(DROWN), 1, WATER_DEEP, OUT, .want = S(DROWN)},
    {"drown_to_onfoot_seconds_over", S(DROWN), 2, WATER_DEEP, OUT, .want = S(IDLE)},
    {"swim_to_onfoot_ground_within_wading_depth", S(SWIM), 1, WATER_SHALLOW, .move = 1, .want = S(RUN)},
};

static gait_state run_case(const gate_case *c, const gait_locomotion *n) {
    gait_phase ph = {c->from, c->seconds};
    gait_gate_input in;
    memset(&in, 0, sizeof in);
    in.move = c->move;
    in.move_up = c->move_up;
    in.walking = c->walking;
    in.crouching = c->crouching;
    in.pressed = c->pressed;
    in.held = c->held;
    in.stamina = c->stamina_set ? c->stamina : 100;
    in.stamina_multiplier = 1;
    gait_contact ct;
    memset(&ct, 0, sizeof ct);
    ct.submersion = -INFINITY;
    switch (c->where) {
    case GROUND: ct.grounded = true; break;
    case AIR_LOW: ct.height_above_ground = 1.0; break;
    case AIR_HIGH: ct.height_above_ground = 10.0; break;
    case WATER_DEEP: ct.water_depth = 3.0; ct.submersion = n->wading_depth; ct.height_above_ground = 1.8; break;
    case WATER_SHALLOW: ct.water_depth = 0.8; ct.submersion = 0.8; ct.grounded = true; break;
    }
    ct.rising = c->rising;
    ct.wall = c->wall_ahead || c->wall_only;
    ct.wall_ahead = c->wall_ahead;
    ct.over_top = c->over_top;
    ct.steep = c->steep;
    return gait_locomotion_next(&ph, &in, &ct, n);
}

static void gate_case_run(int i) {
    gait_locomotion n = gait_default_locomotion();
    gait_state got = run_case(&cases[i], &n);
    CHECK_MSG(got == cases[i].want, "%s: %s -> %s, wanted %s", cases[i].name,
              gait_state_name(cases[i].from), gait_state_name(got), gait_state_name(cases[i].want));
    CHECK_MSG(gait_locomotion_is_edge(cases[i].from, got), "%s: %s -> %s is not an edge of the state tables",
              cases[i].name, gait_state_name(cases[i].from), gait_state_name(got));
}

/* One registered test per row, named after the edge or refusal it shows. */
__attribute__((constructor)) static void gate_cases_register(void) {
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++)
        check_register_case(cases[i].name, gate_case_run, i);
}

/* Every edge of the diagram has at least one case that takes it. */
TEST(gate_every_edge_is_covered) {
    static const gait_state edges[][2] = {
        {S(IDLE), S(WALK)}, {S(IDLE), S(RUN)}, {S(RUN), S(DASH)}, {S(DASH), S(SPRINT)},
        {S(SPRINT), S(RUN)}, {S(RUN), S(JUMP)}, {S(RUN), S(FALL)}, {S(RUN), S(CLIMB)},
        {S(RUN), S(SWIM)}, {S(JUMP), S(FALL)}, {S(JUMP), S(GLIDE)}, {S(FALL), S(GLIDE)},
        {S(FALL), S(PLUNGE)}, {S(GLIDE), S(PLUNGE)}, {S(GLIDE), S(FALL)}, {S(JUMP), S(CLIMB)},
        {S(FALL), S(CLIMB)}, {S(GLIDE), S(CLIMB)}, {S(CLIMB), S(CLIMB_JUMP)},
        {S(CLIMB_JUMP), S(CLIMB)}, {S(CLIMB), S(FALL)}, {S(CLIMB), S(RUN)},
        {S(SWIM), S(SWIM_DASH)}, {S(SWIM_DASH), S(SWIM)}, {S(SWIM), S(DROWN)},
        {S(DROWN), S(IDLE)}, {S(SWIM), S(RUN)}, {S(FALL), S(RUN)}, {S(GLIDE), S(IDLE)},
        {S(PLUNGE), S(IDLE)}, {S(JUMP), S(SWIM)}, {S(FALL), S(SWIM)},
    };
    gait_locomotion n = gait_default_locomotion();
    int n_cases = (int)(sizeof cases / sizeof cases[0]);
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
        bool covered = false;
        for (int i = 0; i < n_cases && !covered; i++)
            covered = cases[i].from == edges[e][0] && cases[i].want == edges[e][1] &&
                      run_case(&cases[i], &n) == edges[e][1];
        CHECK_MSG(covered, "edge %s -> %s has no passing case", gait_state_name(edges[e][0]),
                  gait_state_name(edges[e][1]));
        CHECK(gait_locomotion_is_edge(edges[e][0], edges[e][1]));
    }
}

TEST(gate_non_edges_are_not_edges) {
    CHECK(!gait_locomotion_is_edge(S(CLIMB_JUMP), S(FALL)));
    CHECK(!gait_locomotion_is_edge(S(SWIM), S(GLIDE)));
    CHECK(!gait_locomotion_is_edge(S(DROWN), S(SWIM)));
    CHECK(!gait_locomotion_is_edge(S(IDLE), S(GLIDE)));
    CHECK(!gait_locomotion_is_edge(S(PLUNGE), S(GLIDE)));
    CHECK(!gait_locomotion_is_edge(S(SPRINT), S(DASH)));
    CHECK(!gait_locomotion_is_edge(S(RUN), S(SPRINT)));
    CHECK(!gait_locomotion_is_edge((gait_state)99, S(IDLE)));
}

TEST(gate_is_pure) {
    /* same arguments, same answer; the arguments are not written */
    gait_locomotion n = gait_default_locomotion();
    gait_locomotion n2 = n;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gait_state a = run_case(&cases[i], &n), b = run_case(&cases[i], &n);
        CHECK(a == b);
    }
    CHECK(memcmp(&n, &n2, sizeof n) == 0);
    gait_phase bad = {(gait_state)1000, 0};
    gait_gate_input in = {0};
    gait_contact ct = {0};
    CHECK_EQ_INT(gait_locomotion_next(&bad, &in, &ct, &n), S(IDLE));
    CHECK_EQ_INT(gait_locomotion_next(NULL, &in, &ct, &n), S(IDLE));
}

TEST(gate_state_names_round_trip) {
    for (int s = 0; s < GAIT_STATE_COUNT; s++)
        CHECK_EQ_INT(gait_state_from_name(gait_state_name((gait_state)s)), s);
    CHECK_EQ_INT(gait_state_from_name("flying"), -1);
    CHECK(gait_state_name(GAIT_STATE_COUNT) == NULL);
}

TEST(locomotion_validate_names_the_field) {
    gait_locomotion n = gait_default_locomotion();
    char err[128];
    CHECK_EQ_INT(gait_locomotion_validate(&n, err, sizeof err), GAIT_OK);
    n.run_speed = NAN;
    CHECK_EQ_INT(gait_locomotion_validate(&n, err, sizeof err), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(err, "run_speed") != NULL, "message: %s", err);
    n = gait_default_locomotion();
    n.costs.dash = -1;
    CHECK_EQ_INT(gait_locomotion_validate(&n, err, sizeof err), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(err, "costs.dash") != NULL, "message: %s", err);
    n = gait_default_locomotion();
    n.capsule_height = 0.5; /* shorter than two radii */
    CHECK_EQ_INT(gait_locomotion_validate(&n, err, sizeof err), GAIT_ERR_INVALID_ARGUMENT);
}
