/* The world is held still while it steps: a hook (the host's gate hook here) that calls a C setter
 * changing the world — moving a landmark, setting its velocity or path, adding or removing one,
 * the terrain or the water, a character's collision flag, layer and mask, creating or destroying
 * a character — is refused with GAIT_ERR_LOCKED, and nothing of the call is applied. After the
 * step the same calls go through. */
#include "check.h"

#include <stdio.h>
#include <string.h>

#include "body_fixtures.h"

enum {
    C_MOVE, C_VELOCITY, C_PATH, C_ADD, C_REMOVE, C_TERRAIN, C_SEA, C_WATER, C_CLEAR_WATER,
    C_ADVANCE, C_COLLISION, C_NUMBERS, C_CLEAR_NUMBERS, C_PROVISIONAL, C_CREATE, C_DESTROY, C_COUNT
};
static const char *const call_name[C_COUNT] = {
    "move_landmark", "set_landmark_velocity", "set_landmark_path", "add_landmark",
    "remove_landmark", "set_terrain", "set_sea_level", "add_water", "clear_water", "advance",
    "set_collision", "set_locomotion", "clear_locomotion", "set_provisional_locomotion",
    "character_create", "character_destroy",
};

typedef struct lock_probe {
    gait_landmark_id box;
    gait_character_id other;
    int calls;                  /* times the hook ran */
    gait_status got[C_COUNT];   /* each call's status in the hook's first run */
    bool locked;                /* gait_world_is_locked inside the hook */
} lock_probe;

static gait_status call(gait_world *w, lock_probe *p, int which) {
    gait_collider *c = gait_world_collider(w);
    gait_transform t = gait_transform_yaw((gait_vec3){5, 1, 5}, 0.5);
    gait_transform path[2] = {t, gait_transform_yaw((gait_vec3){5, 3, 5}, 0)};
    float tris[36 * 3];
    const float lo[3] = {20, 0, 20}, hi[3] = {21, 1, 21};
    box_tris(tris, lo, hi);
    gait_mesh_def m;
    memset(&m, 0, sizeof m);
    m.positions = tris;
    m.vertex_count = 36;
    m.triangle_count = 12;
    float h[4] = {5, 5, 5, 5};
    gait_heightfield_def hd;
    memset(&hd, 0, sizeof hd);
    hd.samples_x = hd.samples_z = 2;
    hd.cell_size = 200;
    hd.origin.x = hd.origin.z = -100;
    hd.heights = h;
    gait_water_region pond = {-10, -10, 10, 10, 3};
    gait_landmark_id id;
    gait_character_def cd = gait_default_character_def();
    cd.position = (gait_vec3){-20, 0, -20};
    gait_character_id ch;
    gait_locomotion num = gait_default_locomotion();
    num.run_speed = 7.5;
    switch (which) {
    case C_MOVE: return gait_collider_move_landmark(c, p->box, &t);
    case C_VELOCITY: return gait_collider_set_landmark_velocity(c, p->box, (gait_vec3){0, 1, 0}, (gait_vec3){0, 1, 0});
    case C_PATH: return gait_collider_set_landmark_path(c, p->box, path, 2, 4.0);
    case C_ADD: return gait_collider_add_landmark(c, &m, &id);
    case C_REMOVE: return gait_collider_remove_landmark(c, p->box);
    case C_TERRAIN: return gait_collider_set_terrain(c, &hd);
    case C_SEA: return gait_collider_set_sea_level(c, 2.0);
    case C_WATER: return gait_collider_add_water(c, &pond, NULL);
    case C_CLEAR_WATER: return gait_collider_clear_water(c);
    case C_ADVANCE: return gait_collider_advance(c, 1.0 / 60);
    case C_COLLISION: return gait_character_set_collision(w, p->other, false, 4, 8);
    case C_NUMBERS: return gait_world_set_locomotion(w, GAIT_BODY_MEDIUM_MALE, &num);
    case C_CLEAR_NUMBERS: return gait_world_clear_locomotion(w, GAIT_BODY_MEDIUM_MALE);
    case C_PROVISIONAL: return gait_world_set_provisional_locomotion(w, &num);
    case C_CREATE: return gait_character_create(w, &cd, &ch);
    case C_DESTROY: return gait_character_destroy(w, p->other);
    default: return GAIT_ERR_INVALID_ARGUMENT;
    }
}

static gait_state every_setter(gait_world *w, gait_character_id id, gait_state from,
                               gait_state proposed, void *user) {
    (void)id;
    (void)from;
    lock_probe *p = user;
    if (p->calls++ == 0) {
        p->locked = gait_world_is_locked(w);
        for (int k = 0; k < C_COUNT; k++) p->got[k] = call(w, p, k);
    }
    return proposed;
}

/* What a refused call could have changed. */
typedef struct world_view {
    uint64_t revision;
    int landmarks, moving, characters;
    gait_transform box_pose;
    bool box_moving, has_water, other_valid;
    double terrain_h;
    gait_character_info other;
    gait_locomotion numbers;
    bool measured;
} world_view;

static world_view look(gait_world *w, const lock_probe *p) {
    world_view v;
    memset(&v, 0, sizeof v);
    const gait_collider *c = gait_world_collider(w);
    v.revision = gait_collider_revision(c);
    v.landmarks = gait_collider_landmark_count(c);
    v.moving = gait_collider_moving_count(c);
    v.characters = gait_world_character_count(w);
    gait_collider_landmark_transform(c, p->box, &v.box_pose);
    v.box_moving = gait_collider_landmark_moving(c, p->box);
    double s, d;
    v.has_water = gait_water_at(c, 0, 0, &s, &d);
    gait_terrain_sample(c, 0, 0, &v.terrain_h, NULL);
    v.other_valid = gait_character_valid(w, p->other);
    gait_character_info_get(w, p->other, &v.other);
    v.numbers = *gait_world_locomotion(w, GAIT_BODY_MEDIUM_MALE);
    v.measured = gait_world_locomotion_measured(w, GAIT_BODY_MEDIUM_MALE);
    return v;
}

/* Flat ground, a box, a walker whose gate hook calls every setter, and another character. */
static gait_world *hooked_world(lock_probe *p, gait_character_id *walker) {
    memset(p, 0, sizeof *p);
    gait_world *w = bw_world(NULL);
    if (!w) return NULL;
    bw_flat(w);
    p->box = bw_box(w, 4, 0, 4, 6, 1, 6);
    *walker = bw_spawn(w, 0, 0, -8, 100);
    p->other = bw_spawn(w, -8, 0, -8, 100);
    CHECK_EQ_INT(gait_character_set_gate_hook(w, *walker, every_setter, p), GAIT_OK);
    bw_input(w, *walker, 0, 1, 0, 0); /* the stick forward: idle -> run, and the hook runs */
    return w;
}

TEST(setters_refused_inside_a_step_and_nothing_applied) {
    lock_probe p;
    gait_character_id walker;
    gait_world *w = hooked_world(&p, &walker);
    CHECK(w != NULL);
    if (!w) return;
    world_view before = look(w, &p);
    for (int k = 0; k < 10 && p.calls == 0; k++) CHECK_EQ_INT(gait_world_step(w), GAIT_OK);
    CHECK(p.calls > 0);
    CHECK(p.locked);
    for (int k = 0; k < C_COUNT; k++)
        CHECK_MSG(p.got[k] == GAIT_ERR_LOCKED, "%s from a hook: status %d, wanted LOCKED (%d)",
                  call_name[k], (int)p.got[k], (int)GAIT_ERR_LOCKED);
    world_view after = look(w, &p);
    /* the steps moved the walker only: the world it walks in is as it was */
    CHECK(after.revision == before.revision);
    CHECK_EQ_INT(after.landmarks, before.landmarks);
    CHECK_EQ_INT(after.moving, 0);
    CHECK(!after.box_moving);
    CHECK(memcmp(&after.box_pose, &before.box_pose, sizeof before.box_pose) == 0);
    CHECK(!after.has_water);
    CHECK(after.terrain_h == before.terrain_h);
    CHECK_EQ_INT(after.characters, before.characters);
    CHECK(after.other_valid);
    CHECK(after.other.collide == before.other.collide);
    CHECK_EQ_INT(after.other.collision_layer, before.other.collision_layer);
    CHECK_EQ_INT(after.other.collision_mask, before.other.collision_mask);
    CHECK(memcmp(&after.numbers, &before.numbers, sizeof before.numbers) == 0);
    CHECK(after.measured == before.measured);
    CHECK(!gait_world_is_locked(w));

    /* between steps each goes through (the lock is the step's, not a lasting refusal) */
    CHECK_EQ_INT(gait_character_set_gate_hook(w, walker, NULL, NULL), GAIT_OK);
    for (int k = 0; k < C_COUNT; k++) {
        gait_status st = call(w, &p, k);
        CHECK_MSG(st == GAIT_OK, "%s between steps: status %d (%s)", call_name[k], (int)st,
                  k >= C_COLLISION ? gait_world_last_error(w)
                                   : gait_collider_last_error(gait_world_collider(w)));
        if (k == C_REMOVE) p.box = bw_box(w, 4, 0, 4, 6, 1, 6); /* for the calls after it */
    }
    CHECK(gait_world_step(w) == GAIT_OK);
    gait_world_destroy(w);
}

/* The refusal says why: the collider's and the world's last errors name the call and the step. */
TEST(refusal_message_names_the_step) {
    lock_probe p;
    gait_character_id walker;
    gait_world *w = hooked_world(&p, &walker);
    CHECK(w != NULL);
    if (!w) return;
    for (int k = 0; k < 10 && p.calls == 0; k++) gait_world_step(w);
    CHECK(p.calls > 0);
    const char *ce = gait_collider_last_error(gait_world_collider(w));
    CHECK_MSG(strstr(ce, "advance") && strstr(ce, "steps"), "collider's last error: %s", ce);
    const char *we = gait_world_last_error(w);
    CHECK_MSG(strstr(we, "destroy") && strstr(we, "steps"), "world's last error: %s", we);
    gait_world_destroy(w);
}
