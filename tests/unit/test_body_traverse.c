/* The body off its feet (docs/behaviour.md, "The body"): climbing landmark walls and terrain cliffs, the glider, the
 * plunge, swimming and drowning, place / face / party switch. Provisional numbers: climb 1.6 m/s,
 * glide 7.5 m/s sinking 1.8 m/s, glider height 2.5 m, plunge 30 m/s, wading depth 1.2 m. */
#include <stdio.h>
#include <string.h>

#include "body_fixtures.h"
#include "check.h"

/* Runs until the state is reached (true) or max steps pass. */
static bool until_state(gait_world *w, gait_character_id id, gait_state s, int max) {
    for (int k = 0; k < max; k++) {
        gait_world_step(w);
        if (bw_info(w, id).phase.state == s) return true;
    }
    return false;
}

/* Runs until the body is on its feet (true) or max steps pass. */
static bool until_on_foot(gait_world *w, gait_character_id id, int max) {
    for (int k = 0; k < max; k++) {
        gait_world_step(w);
        if (gait_state_on_foot(bw_info(w, id).phase.state)) return true;
    }
    return false;
}

/* The stick at (mx, my) and `button` pressed for one step: the state after it. */
static gait_state press(gait_world *w, gait_character_id id, double mx, double my, uint32_t button) {
    bw_input(w, id, mx, my, 0, button);
    gait_world_step(w);
    return bw_info(w, id).phase.state;
}

/* The body's info now (*a) and after `steps` more steps (*b). */
static void sample_over(gait_world *w, gait_character_id id, int steps, gait_character_info *a,
                        gait_character_info *b) {
    *a = bw_info(w, id);
    bw_steps(w, steps);
    *b = bw_info(w, id);
}

/* Flat ground, a 6 m wide wall `height` m tall over z 2..6 and a body with `stamina` at the
 * origin walking into it (W held) until it climbs (checked, within 1 s), then `steps` more. */
static gait_world *climbing(double height, double stamina, int steps, gait_character_id *id) {
    gait_world *w = bw_box_world(-3, 0, 2, 3, height, 6);
    *id = bw_spawn(w, 0, 0, 0, stamina);
    bw_input(w, *id, 0, 1, 0, 0);
    CHECK(until_state(w, *id, GAIT_STATE_CLIMB, 60));
    bw_steps(w, steps);
    return w;
}

TEST(body_climbs_a_landmark_wall_at_climb_speed_and_over_the_top) {
    gait_character_id id;
    gait_world *w = climbing(4, 100, 30, &id);
    gait_character_info a, b;
    sample_over(w, id, 30, &a, &b);
    CHECK_EQ_INT(b.phase.state, GAIT_STATE_CLIMB);
    CHECK_NEAR((b.position.y - a.position.y) / 0.5, 1.6, 0.016); /* +-1 % */
    CHECK_NEAR(b.position.z, a.position.z, 1e-6);                /* held to the wall */
    CHECK(b.position.z > 2 - 0.3 - 0.01);
    CHECK(b.contact.wall);
    CHECK(b.stamina < a.stamina); /* moving on a wall costs */
    /* up and over onto the walkable top */
    bool over = until_on_foot(w, id, 240);
    CHECK(over);
    bw_steps(w, 20);
    gait_character_info c = bw_info(w, id);
    CHECK(gait_state_on_foot(c.phase.state));
    CHECK_NEAR(c.position.y, 4.0, 0.005);
    CHECK(c.position.z > 2.3);
    CHECK(c.contact.grounded);
    gait_world_destroy(w);
}

TEST(body_standing_still_on_a_wall_costs_nothing_and_drops_off) {
    gait_character_id id;
    gait_world *w = climbing(6, 100, 30, &id);
    bw_input(w, id, 0, 0, 0, 0);
    bw_steps(w, 2);
    gait_character_info a, b;
    sample_over(w, id, 60, &a, &b);
    CHECK_EQ_INT(b.phase.state, GAIT_STATE_CLIMB);
    CHECK(b.stamina == a.stamina);
    CHECK_NEAR(b.position.y, a.position.y, 1e-9);
    CHECK_NEAR(b.position.z, a.position.z, 1e-9);
    /* the drop lets go and falls to the ground */
    CHECK_EQ_INT(press(w, id, 0, 0, GAIT_BUTTON_DROP), GAIT_STATE_FALL);
    bw_input(w, id, 0, 0, 0, 0);
    bw_steps(w, 60);
    CHECK(gait_state_on_foot(bw_info(w, id).phase.state));
    CHECK_NEAR(bw_info(w, id).position.y, 0, 1e-9);
    gait_world_destroy(w);
}

TEST(body_stamina_out_on_a_wall_falls) {
    gait_character_id id;
    gait_world *w = climbing(20, 8, 0, &id);
    CHECK(until_state(w, id, GAIT_STATE_FALL, 300)); /* 6 / s while moving */
    double y = bw_info(w, id).position.y;
    CHECK(y > 1.0);
    bw_steps(w, 90);
    gait_character_info i = bw_info(w, id);
    CHECK(gait_state_on_foot(i.phase.state));
    CHECK_NEAR(i.position.y, 0, 1e-9);
    gait_world_destroy(w);
}

TEST(body_climb_jump_rises_along_the_wall) {
    gait_character_id id;
    gait_world *w = climbing(20, 100, 10, &id);
    double y0 = bw_info(w, id).position.y;
    CHECK_EQ_INT(press(w, id, 0, 1, GAIT_BUTTON_JUMP), GAIT_STATE_CLIMB_JUMP);
    bw_input(w, id, 0, 0, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_CLIMB, 60));
    /* climb_jump_height 2 m over its 0.45 s */
    CHECK_NEAR(bw_info(w, id).position.y - y0, 2.0, 0.1);
    gait_world_destroy(w);
}

/* A terrain cliff: flat, then up 6 m at 76 deg over 1.5 m, then a flat plateau. */
static double cliff(double x, double z) {
    (void)x;
    if (z < 2) return 0;
    if (z > 3.5) return 6;
    return (z - 2) * 4;
}

TEST(body_climbs_a_terrain_cliff_held_to_its_surface) {
    gait_world *w = bw_world(NULL);
    bw_terrain(w, cliff, -16, -16, 128, 0.25);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_CLIMB, 60));
    bw_steps(w, 30);
    gait_character_info a, b;
    sample_over(w, id, 30, &a, &b);
    CHECK_EQ_INT(b.phase.state, GAIT_STATE_CLIMB);
    double dy = b.position.y - a.position.y, dz = b.position.z - a.position.z;
    CHECK_NEAR(sqrt(dy * dy + dz * dz) / 0.5, 1.6, 0.016); /* along the surface */
    CHECK_NEAR(dz / dy, 0.25, 1e-6);                       /* in the cliff's plane */
    /* the lower sphere rests on the cliff: its centre is the radius off the surface */
    double cy = b.position.y + 0.3, cz = b.position.z;
    double dist = (cy - 4 * (cz - 2)) / sqrt(17.0); /* distance to the plane y = 4 (z - 2) */
    CHECK_NEAR(dist, 0.3, 1e-3);
    bool over = until_on_foot(w, id, 300);
    CHECK(over);
    bw_steps(w, 20);
    gait_character_info c = bw_info(w, id);
    CHECK(gait_state_on_foot(c.phase.state));
    CHECK_NEAR(c.position.y, 6.0, 1e-6);
    CHECK(c.position.z > 3.5);
    gait_world_destroy(w);
}

/* A tall platform to glide from. */
static gait_world *tower(gait_character_id *id, double stamina) {
    gait_world *w = bw_box_world(-3, 0, -3, 3, 20, 3);
    *id = bw_spawn(w, 0, 21, 0, stamina);
    return w;
}

TEST(body_glider_refused_low_opened_high_and_sinks_at_the_tuned_rate) {
    /* refused below glider height: a jump from flat ground reaches 1.2 m < 2.5 m */
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_JUMP);
    bw_steps(w, 20);
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_JUMP);
    gait_world_step(w);
    CHECK(bw_info(w, id).phase.state != GAIT_STATE_GLIDE);
    CHECK(bw_info(w, id).contact.height_above_ground < 2.5);
    gait_world_destroy(w);

    w = tower(&id, 100);
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_FALL, 120));
    bw_steps(w, 3);
    CHECK(bw_info(w, id).contact.height_above_ground > 15);
    CHECK_EQ_INT(press(w, id, 0, 1, GAIT_BUTTON_JUMP), GAIT_STATE_GLIDE);
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 5);
    gait_character_info a, b;
    sample_over(w, id, 60, &a, &b);
    CHECK_EQ_INT(b.phase.state, GAIT_STATE_GLIDE);
    CHECK_NEAR(b.position.y - a.position.y, -1.8, 0.018);  /* 1.8 m/s, +-1 % */
    CHECK_NEAR(b.position.z - a.position.z, 7.5, 0.075);   /* 7.5 m/s ahead */
    CHECK(b.stamina < a.stamina);
    /* jump closes it */
    CHECK_EQ_INT(press(w, id, 0, 1, GAIT_BUTTON_JUMP), GAIT_STATE_FALL);
    /* ... and it reopens, and closes when stamina runs out */
    CHECK_EQ_INT(press(w, id, 0, 1, GAIT_BUTTON_JUMP), GAIT_STATE_GLIDE);
    gait_character_stamina(w, id)->value = 0.2; /* 3 / s: gone in 4 steps */
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_FALL, 30));
    gait_world_destroy(w);
}

TEST(body_glide_catches_a_wall_ahead) {
    gait_character_id id;
    gait_world *w = tower(&id, 100);
    bw_box(w, -5, 0, 9, 5, 30, 12);
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_FALL, 120));
    CHECK_EQ_INT(press(w, id, 0, 1, GAIT_BUTTON_JUMP), GAIT_STATE_GLIDE);
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_CLIMB, 120));
    gait_character_info i = bw_info(w, id);
    CHECK(i.position.z > 9 - 0.35 && i.position.z < 9);
    CHECK(i.position.y > 10);
    bw_steps(w, 30);
    CHECK_EQ_INT(bw_info(w, id).phase.state, GAIT_STATE_CLIMB);
    gait_world_destroy(w);
}

TEST(body_plunge_from_a_glide_lands) {
    gait_character_id id;
    gait_world *w = tower(&id, 100);
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_FALL, 120));
    bw_input(w, id, 0, 1, 0, GAIT_BUTTON_JUMP);
    gait_world_step(w);
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 10);
    CHECK_EQ_INT(press(w, id, 0, 0, GAIT_BUTTON_ATTACK), GAIT_STATE_PLUNGE);
    gait_vec3 p0 = bw_info(w, id).position;
    bw_input(w, id, 0, 0, 0, 0);
    gait_world_step(w);
    CHECK_NEAR(bw_info(w, id).velocity.y, -30, 1e-6);
    bw_steps(w, 60);
    gait_character_info i = bw_info(w, id);
    CHECK(gait_state_on_foot(i.phase.state));
    CHECK_NEAR(i.position.y, 0, 1e-9);
    CHECK_NEAR(i.position.z, p0.z, 1e-9); /* straight down */
    gait_world_destroy(w);
}

/* From 100 m at 30 m/s (0.5 m a step) onto a platform 1 cm thick: swept, never teleported. */
TEST(body_plunge_from_100_m_lands_on_a_1_cm_platform) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    bw_box(w, -1, 0, -1, 1, 100, 1);
    bw_box(w, -2, 49.99, 1, 2, 50.0, 4);
    gait_character_id id = bw_spawn(w, 0, 101, 0, 100);
    CHECK_NEAR(bw_info(w, id).position.y, 100, 0.005);
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_FALL, 60));
    CHECK_EQ_INT(press(w, id, 0, 0, GAIT_BUTTON_ATTACK), GAIT_STATE_PLUNGE);
    bw_input(w, id, 0, 0, 0, 0);
    bw_steps(w, 150);
    gait_character_info i = bw_info(w, id);
    CHECK(gait_state_on_foot(i.phase.state));
    CHECK_NEAR(i.position.y, 50.0, 0.005);
    gait_world_destroy(w);
}

/* A beach: ground falls 0.25 m per metre from z = 0 to a 5 m deep lake bed; water at 0. */
static double beach(double x, double z) {
    (void)x;
    double h = 0.5 - 0.25 * z;
    return h < -5 ? -5 : (h > 0.5 ? 0.5 : h);
}

static gait_world *lake(gait_character_id *id) {
    gait_world *w = bw_world(NULL);
    bw_terrain(w, beach, -32, -32, 128, 0.5);
    gait_water_region r = {-32, 0, 32, 32, 0.0};
    gait_collider_add_water(gait_world_collider(w), &r, NULL);
    *id = bw_spawn(w, 0, 1, -2, 100);
    return w;
}

TEST(body_swims_floating_at_wading_depth_and_wades_out) {
    gait_character_id id;
    gait_world *w = lake(&id);
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_SWIM, 240));
    bw_steps(w, 120);
    gait_character_info i = bw_info(w, id);
    CHECK_EQ_INT(i.phase.state, GAIT_STATE_SWIM);
    CHECK_NEAR(i.position.y, -1.2, 1e-6); /* feet the wading depth under the surface */
    CHECK_NEAR(i.velocity.z, 2.3, 0.023);
    /* back to the shore: stands once the ground rises to the feet */
    bw_input(w, id, 0, -1, 0, 0);
    bool out = until_on_foot(w, id, 600);
    CHECK(out);
    bw_steps(w, 60);
    i = bw_info(w, id);
    CHECK(gait_state_on_foot(i.phase.state));
    CHECK(i.contact.grounded);
    CHECK_NEAR(i.position.y, beach(0, i.position.z), 1e-6);
    gait_world_destroy(w);
}

TEST(body_swim_strokes_and_dash_cost_then_drowning_returns) {
    gait_character_id id;
    gait_world *w = lake(&id);
    gait_vec3 shore = bw_info(w, id).position;
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_SWIM, 240));
    double s0 = bw_info(w, id).stamina;
    bw_input(w, id, 0, 0, 0, 0);
    bw_steps(w, 120); /* treading water: a stroke a second */
    double s1 = bw_info(w, id).stamina;
    CHECK_NEAR(s0 - s1, 8, 0.01);
    bw_input(w, id, 0, 1, GAIT_BUTTON_SPRINT, GAIT_BUTTON_SPRINT);
    gait_world_step(w);
    CHECK_EQ_INT(bw_info(w, id).phase.state, GAIT_STATE_SWIM_DASH);
    bw_input(w, id, 0, 1, GAIT_BUTTON_SPRINT, 0);
    bw_steps(w, 59);
    gait_character_info d = bw_info(w, id);
    CHECK_NEAR(s1 - d.stamina, 2 + 10.2, 0.2);
    CHECK_NEAR(d.velocity.z, 4.6, 0.05);
    /* out of stamina in water: drowns, comes back at the last full point on foot, refilled */
    gait_character_stamina(w, id)->value = 0;
    bw_input(w, id, 0, 0, 0, 0);
    gait_world_step(w);
    CHECK_EQ_INT(bw_info(w, id).phase.state, GAIT_STATE_DROWN);
    CHECK(until_state(w, id, GAIT_STATE_IDLE, 180));
    gait_character_info r = bw_info(w, id);
    CHECK_NEAR(r.stamina, r.stamina_max, 1e-9);
    /* the last point on foot with a full pool: wading in, before the water got deep */
    CHECK(r.position.z < (0.5 + 1.2) * 4 + 0.1);
    CHECK(r.position.z >= shore.z - 1e-9);
    CHECK(gait_state_on_foot(r.phase.state));
    CHECK_NEAR(r.position.y, beach(0, r.position.z), 1e-6);
    CHECK(r.contact.grounded);
    gait_world_destroy(w);
}

TEST(body_place_face_and_party_switch) {
    gait_world *w = bw_box_world(5, 0, 5, 8, 2, 8);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 60);
    CHECK(gait_character_place(w, id, (gait_vec3){6, 10, 6}, 1.0) == GAIT_OK);
    gait_character_info i = bw_info(w, id);
    CHECK_NEAR(i.position.y, 2.0, 0.005); /* stood on the box below the point */
    CHECK(i.contact.grounded);
    CHECK_NEAR(i.return_point.x, 6, 1e-9);
    CHECK(gait_character_face(w, id, 2.0) == GAIT_OK);
    CHECK_NEAR(bw_info(w, id).yaw, 2.0, 1e-12);
    gait_vec3 p = bw_info(w, id).position;
    double st = bw_info(w, id).stamina;
    CHECK(gait_character_set_body_type(w, id, GAIT_BODY_TALL_MALE) == GAIT_OK);
    gait_locomotion tall = gait_default_locomotion();
    tall.run_speed = 7.0;
    tall.capsule_height = 1.9;
    CHECK(gait_world_set_locomotion(w, GAIT_BODY_TALL_MALE, &tall) == GAIT_OK);
    gait_world_step(w);
    i = bw_info(w, id);
    CHECK_NEAR(i.position.x, p.x, 1e-9);
    CHECK_NEAR(i.position.y, p.y, 1e-9);
    CHECK(i.stamina >= st);
    gait_character_place(w, id, (gait_vec3){0, 0, -20}, 0);
    bw_input(w, id, 0, 1, 0, 0);
    bw_steps(w, 60);
    CHECK_NEAR(bw_info(w, id).position.z, -20 + 7.0, 0.07); /* the new numbers */
    gait_world_destroy(w);
}

/* "States and transitions": a drop from a wall is not re-caught at once by the move still pushing into it, but a
 * fall that has lasted its moment (fall_catch_seconds 0.3 s) catches the wall again. */
TEST(body_drop_is_recaught_after_a_moment_of_falling) {
    gait_character_id id;
    gait_world *w = climbing(30, 100, 120, &id); /* 3 m up */
    CHECK_EQ_INT(press(w, id, 0, 1, GAIT_BUTTON_DROP), GAIT_STATE_FALL);
    bw_input(w, id, 0, 1, 0, 0);
    int fell_steps = 1;
    while (bw_info(w, id).phase.state == GAIT_STATE_FALL && fell_steps < 60) {
        gait_world_step(w);
        fell_steps++;
    }
    CHECK_EQ_INT(bw_info(w, id).phase.state, GAIT_STATE_CLIMB);
    CHECK(fell_steps >= 18 && fell_steps <= 21); /* 0.3 s of falling, then caught */
    CHECK(bw_info(w, id).position.y > 1.5);
    gait_world_destroy(w);
}

/* Climbing down onto walkable ground stands the body up (Climb -> OnFoot). */
TEST(body_climbs_down_onto_the_ground) {
    gait_character_id id;
    gait_world *w = climbing(30, 100, 30, &id);
    bw_input(w, id, 0, -1, 0, 0);
    bool down = until_on_foot(w, id, 120);
    CHECK(down);
    CHECK_NEAR(bw_info(w, id).position.y, 0, 1e-9);
    gait_world_destroy(w);
}

/* Jump/Fall -> Swim: a jump off a pier lands in deep water and swims. */
TEST(body_jump_into_deep_water_swims) {
    gait_character_id id;
    gait_world *w = lake(&id);
    bw_box(w, -1, -5, 8, 1, 0.5, 12); /* a pier out over the deep water */
    gait_character_place(w, id, (gait_vec3){0, 1, 11.5}, 0);
    CHECK_NEAR(bw_info(w, id).position.y, 0.5, 0.005);
    CHECK_EQ_INT(press(w, id, 0, 1, GAIT_BUTTON_JUMP), GAIT_STATE_JUMP);
    bw_input(w, id, 0, 1, 0, 0);
    CHECK(until_state(w, id, GAIT_STATE_SWIM, 120));
    bw_steps(w, 90);
    CHECK_NEAR(bw_info(w, id).position.y, -1.2, 1e-6);
    gait_world_destroy(w);
}
