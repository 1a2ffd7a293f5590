/* Snapshot / restore: stepping on from a restored snapshot is bit-identical. */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gait/gait.h"

static gait_world *make_world(int capacity) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = capacity;
    gait_world *w = gait_world_create(&wd);
    float *h = malloc(sizeof(float) * 65 * 65);
    for (int z = 0; z < 65; z++)
        for (int x = 0; x < 65; x++) h[z * 65 + x] = (float)(0.6 * sin(0.3 * x) * cos(0.2 * z));
    gait_heightfield_def hf = {65, 65, 1.0, {-32, 0, -32}, h};
    gait_collider_set_terrain(gait_world_collider(w), &hf);
    free(h);
    return w;
}

/* The same scripted input for step k, whichever run plays it. */
static void input_for(int k, int who, gait_input *in) {
    memset(in, 0, sizeof *in);
    double t = k / 60.0;
    in->move_x = sin(0.7 * t + who);
    in->move_y = cos(0.5 * t + 2 * who);
    if (k % 47 == who) in->pressed |= GAIT_BUTTON_JUMP;
    if (k % 83 == 5 + who) in->pressed |= GAIT_BUTTON_SPRINT;
    if ((k / 30) % 3 == 0) in->held |= GAIT_BUTTON_SPRINT;
    in->look_yaw = 0.01 * sin(t);
}

static void run(gait_world *w, gait_character_id *ids, int n, int from, int to) {
    for (int k = from; k < to; k++) {
        for (int c = 0; c < n; c++) {
            gait_input in;
            input_for(k, c, &in);
            gait_character_set_input(w, ids[c], &in);
        }
        gait_world_update(w, 1.0 / 60.0, NULL);
    }
}

TEST(snapshot_restore_continues_bit_identically) {
    gait_world *w = make_world(8);
    gait_character_id ids[4];
    for (int c = 0; c < 4; c++) {
        gait_character_def cd = gait_default_character_def();
        cd.position = (gait_vec3){c * 3.0 - 5, 5, c * 2.0 - 3};
        gait_character_create(w, &cd, &ids[c]);
    }
    run(w, ids, 4, 0, 120);
    size_t size = gait_world_snapshot_size(w);
    unsigned char *snap = malloc(size);
    size_t written = 0;
    CHECK_EQ_INT(gait_world_snapshot_save(w, snap, size, &written), GAIT_OK);
    CHECK_EQ_INT(written, size);
    uint64_t at_snap = gait_world_state_hash(w);

    run(w, ids, 4, 120, 420);
    uint64_t first = gait_world_state_hash(w);
    gait_character_info a[4];
    for (int c = 0; c < 4; c++) gait_character_info_get(w, ids[c], &a[c]);

    CHECK_EQ_INT(gait_world_snapshot_restore(w, snap, size), GAIT_OK);
    CHECK(gait_world_state_hash(w) == at_snap);
    run(w, ids, 4, 120, 420);
    CHECK(gait_world_state_hash(w) == first);
    for (int c = 0; c < 4; c++) {
        gait_character_info b;
        gait_character_info_get(w, ids[c], &b);
        CHECK(memcmp(&a[c].position, &b.position, sizeof b.position) == 0);
        CHECK(memcmp(&a[c].velocity, &b.velocity, sizeof b.velocity) == 0);
        CHECK(a[c].phase.state == b.phase.state && a[c].stamina == b.stamina);
    }
    /* the run moved and did things: the comparison is not between idle bodies */
    CHECK(first != at_snap);

    /* a restored snapshot in a second world of the same size continues the same way */
    gait_world *w2 = make_world(8);
    CHECK_EQ_INT(gait_world_snapshot_restore(w2, snap, size), GAIT_OK);
    CHECK_EQ_INT(gait_world_character_count(w2), 4);
    run(w2, ids, 4, 120, 420);
    CHECK(gait_world_state_hash(w2) == first);
    gait_world_destroy(w2);
    free(snap);
    gait_world_destroy(w);
}

/* A world of `capacity` with one body at the origin, run through the scripted input's first
 * `steps` steps. */
static gait_world *one_body(int capacity, int steps, gait_character_id *id) {
    gait_world *w = make_world(capacity);
    gait_character_def cd = gait_default_character_def();
    gait_character_create(w, &cd, id);
    run(w, id, 1, 0, steps);
    return w;
}

TEST(snapshot_bad_input_changes_nothing) {
    gait_character_id id;
    gait_world *w = one_body(4, 30, &id);
    size_t size = gait_world_snapshot_size(w);
    unsigned char *snap = malloc(size);
    CHECK_EQ_INT(gait_world_snapshot_save(w, snap, size - 1, NULL), GAIT_ERR_CAPACITY);
    CHECK_EQ_INT(gait_world_snapshot_save(w, snap, size, NULL), GAIT_OK);
    uint64_t before = gait_world_state_hash(w);
    run(w, &id, 1, 30, 60);
    uint64_t moved = gait_world_state_hash(w);
    snap[size / 2] ^= 0x40; /* corrupt one bit */
    CHECK_EQ_INT(gait_world_snapshot_restore(w, snap, size), GAIT_ERR_FORMAT);
    CHECK(strstr(gait_world_last_error(w), "checksum") != NULL);
    CHECK(gait_world_state_hash(w) == moved);
    snap[size / 2] ^= 0x40;
    CHECK_EQ_INT(gait_world_snapshot_restore(w, snap, 10), GAIT_ERR_FORMAT);
    CHECK_EQ_INT(gait_world_snapshot_restore(w, "not a snapshot at all, not at all", 34), GAIT_ERR_FORMAT);
    gait_world *other = make_world(5); /* another size */
    CHECK_EQ_INT(gait_world_snapshot_restore(other, snap, size), GAIT_ERR_FORMAT);
    gait_world_destroy(other);
    CHECK(gait_world_state_hash(w) == moved);
    CHECK_EQ_INT(gait_world_snapshot_restore(w, snap, size), GAIT_OK);
    CHECK(gait_world_state_hash(w) == before);
    free(snap);
    gait_world_destroy(w);
}

/* The same inputs, step by step, at 30, 60, 144 and 240 fps (events on 1/6 s boundaries, a
 * whole number of frames at each rate): the bodies are bit-identical, and so is the simulation
 * hash (what replays and rollback compare); the presentation (the camera that follows once a
 * frame, the clock's leftover) differs, and only the presentation hash and the state hash, which
 * covers both, see it. */
static uint64_t play_at(double fps, uint64_t *presentation, uint64_t *state, gait_vec3 *feet) {
    gait_world *w = make_world(2);
    gait_character_def cd = gait_default_character_def();
    cd.position = (gait_vec3){-3, 5, -8};
    gait_character_id id;
    gait_character_create(w, &cd, &id);
    int per_sixth = (int)(fps / 6 + 0.5), frames = (int)(fps * 4 + 0.5);
    for (int f = 0; f < frames; f++) {
        int sixth = f / per_sixth;
        bool edge = f % per_sixth == 0;
        gait_input in;
        memset(&in, 0, sizeof in);
        in.move_y = sixth < 20 ? 1 : 0;
        in.move_x = sixth >= 12 && sixth < 16 ? 0.7 : 0;
        if (edge && (sixth == 9 || sixth == 17)) in.pressed |= GAIT_BUTTON_JUMP;
        if (edge && sixth == 5) in.pressed |= GAIT_BUTTON_SPRINT;
        if (sixth >= 5 && sixth < 8) in.held |= GAIT_BUTTON_SPRINT;
        if (edge && sixth == 14) in.look_yaw = 0.5;  /* turns the moves: simulation */
        in.look_pitch = 0.4 / fps;                    /* a slow look up: the camera alone */
        gait_character_set_input(w, id, &in);
        gait_world_update(w, 1 / fps, NULL);
    }
    CHECK_EQ_INT(gait_world_step_count(w), 240);
    gait_character_info info;
    gait_character_info_get(w, id, &info);
    *feet = info.position;
    uint64_t sim = gait_world_simulation_hash(w);
    *presentation = gait_world_presentation_hash(w);
    *state = gait_world_state_hash(w);
    gait_world_destroy(w);
    return sim;
}

TEST(simulation_hash_is_the_same_at_every_frame_rate) {
    static const double fps[4] = {30, 60, 144, 240};
    uint64_t sim[4], pres[4], state[4];
    gait_vec3 feet[4];
    for (int i = 0; i < 4; i++) sim[i] = play_at(fps[i], &pres[i], &state[i], &feet[i]);
    int pres_differ = 0, state_differ = 0;
    for (int i = 1; i < 4; i++) {
        CHECK_MSG(memcmp(&feet[i], &feet[0], sizeof feet[0]) == 0, "%g fps: the body ended at "
                  "%.17g %.17g %.17g, at 30 fps at %.17g %.17g %.17g", fps[i], feet[i].x, feet[i].y,
                  feet[i].z, feet[0].x, feet[0].y, feet[0].z);
        CHECK_MSG(sim[i] == sim[0], "%g fps: simulation hash %016llx, at 30 fps %016llx", fps[i],
                  (unsigned long long)sim[i], (unsigned long long)sim[0]);
        pres_differ += pres[i] != pres[0];
        state_differ += state[i] != state[0];
    }
    /* the camera did follow differently per frame rate: the test reaches the presentation */
    CHECK_MSG(pres_differ == 3, "presentation hashes equal across frame rates (%d of 3 differ)",
              pres_differ);
    CHECK_MSG(state_differ == 3, "the state hash covers the presentation too (%d of 3 differ)",
              state_differ);
    CHECK(feet[0].z > 5); /* the run went somewhere */
}

/* The simulation hash changes with the simulation and only with it; the presentation hash with
 * the camera and the animation signal; a snapshot restores both. */
TEST(simulation_and_presentation_hashes_see_their_own_parts) {
    gait_character_id id;
    gait_world *w = one_body(2, 60, &id);
    uint64_t sim = gait_world_simulation_hash(w), pres = gait_world_presentation_hash(w);
    size_t size = gait_world_snapshot_size(w);
    unsigned char *snap = malloc(size);
    gait_world_snapshot_save(w, snap, size, NULL);
    gait_input in;
    input_for(59, 0, &in); /* the last step's move and levels again ... */
    in.look_yaw = 0;
    in.look_pitch = 0.3;   /* ... and a look up: the camera alone */
    gait_character_set_input(w, id, &in);
    uint64_t steps = gait_world_step_count(w);
    gait_world_update(w, 0.001, NULL); /* a frame that runs no step; the camera follows */
    CHECK_EQ_INT(gait_world_step_count(w), steps);
    CHECK(gait_world_simulation_hash(w) == sim);
    CHECK(gait_world_presentation_hash(w) != pres);
    gait_world_snapshot_restore(w, snap, size);
    CHECK(gait_world_simulation_hash(w) == sim);
    CHECK(gait_world_presentation_hash(w) == pres);
    gait_world_step(w); /* a step: the simulation moves on */
    CHECK(gait_world_simulation_hash(w) != sim);
    CHECK_EQ_INT(gait_world_simulation_hash(NULL), 0);
    CHECK_EQ_INT(gait_world_presentation_hash(NULL), 0);
    free(snap);
    gait_world_destroy(w);
}
