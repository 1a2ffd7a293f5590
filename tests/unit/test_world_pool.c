/* The character pool: create and destroy through a free list (O(1) whatever the pool's size),
 * ids with generations, the pool full, and the free list through a snapshot. */
#include "check.h"
#include "body_fixtures.h"

#include <stdlib.h>
#include <string.h>

#include "character/world_internal.h" /* to forge a world whose free list is broken */
#include "gait/gait.h"

static gait_world *pool_world(int capacity) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = capacity;
    return gait_world_create(&wd);
}

static gait_character_id spawn(gait_world *w, double x) {
    gait_character_def d = gait_default_character_def();
    d.position.x = x;
    d.no_camera = true;
    gait_character_id id = GAIT_NULL_ID_INIT;
    if (gait_character_create(w, &d, &id) != GAIT_OK) id.index1 = 0;
    return id;
}

TEST(pool_creates_fill_slots_in_order_and_reuse_the_last_destroyed) {
    gait_world *w = pool_world(8);
    gait_character_id ids[8];
    for (int i = 0; i < 8; i++) {
        ids[i] = spawn(w, i);
        CHECK_EQ_INT(ids[i].index1, i + 1);
        CHECK_EQ_INT(ids[i].generation, 0);
    }
    gait_character_id extra;
    gait_character_def d = gait_default_character_def();
    CHECK_EQ_INT(gait_character_create(w, &d, &extra), GAIT_ERR_CAPACITY);
    CHECK_EQ_INT(gait_world_character_count(w), 8);
    /* destroy 3 then 6: 6 comes back first, then 3, each a generation on */
    CHECK_EQ_INT(gait_character_destroy(w, ids[2]), GAIT_OK);
    CHECK_EQ_INT(gait_character_destroy(w, ids[5]), GAIT_OK);
    CHECK_EQ_INT(gait_character_destroy(w, ids[5]), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_world_character_count(w), 6);
    gait_character_id a = spawn(w, 10), b = spawn(w, 11);
    CHECK_EQ_INT(a.index1, 6);
    CHECK_EQ_INT(a.generation, 1);
    CHECK_EQ_INT(b.index1, 3);
    CHECK_EQ_INT(b.generation, 1);
    CHECK(!gait_character_valid(w, ids[2]));
    CHECK(!gait_character_valid(w, ids[5]));
    CHECK(gait_character_valid(w, a) && gait_character_valid(w, b));
    CHECK_EQ_INT(gait_character_create(w, &d, &extra), GAIT_ERR_CAPACITY);
    gait_world_destroy(w);
}

/* A long random run of creates and destroys against a plain model: the live set, the count and
 * the ids agree at every step, and no slot is handed out twice. */
TEST(pool_random_creates_and_destroys_match_a_model) {
    enum { CAP = 300, OPS = 20000 };
    gait_world *w = pool_world(CAP);
    gait_character_id live[CAP];
    int n = 0;
    unsigned rng = 12345;
    for (int op = 0; op < OPS; op++) {
        rng = rng * 1664525u + 1013904223u;
        bool create = n == 0 || (n < CAP && (rng >> 16) % 3 != 0);
        if (create) {
            gait_character_id id = spawn(w, 0);
            CHECK(id.index1 > 0);
            for (int k = 0; k < n; k++) CHECK(live[k].index1 != id.index1);
            live[n++] = id;
        } else {
            int k = (int)((rng >> 8) % (unsigned)n);
            CHECK_EQ_INT(gait_character_destroy(w, live[k]), GAIT_OK);
            CHECK(!gait_character_valid(w, live[k]));
            live[k] = live[--n];
        }
        CHECK_EQ_INT(gait_world_character_count(w), n);
    }
    for (int k = 0; k < n; k++) CHECK(gait_character_valid(w, live[k]));
    gait_world_destroy(w);
}

/* The free list is part of the state: after a restore the next creates take the same slots and
 * generations as they do in the world the snapshot came from. */
TEST(pool_free_list_survives_a_snapshot) {
    gait_world *w = pool_world(16);
    gait_character_id ids[10];
    for (int i = 0; i < 10; i++) ids[i] = spawn(w, i);
    gait_character_destroy(w, ids[7]);
    gait_character_destroy(w, ids[1]);
    gait_character_destroy(w, ids[4]);
    size_t size = gait_world_snapshot_size(w);
    unsigned char *snap = malloc(size);
    CHECK_EQ_INT(gait_world_snapshot_save(w, snap, size, NULL), GAIT_OK);
    gait_character_id want[5];
    for (int i = 0; i < 5; i++) want[i] = spawn(w, 20 + i);
    CHECK_EQ_INT(want[0].index1, 5); /* the last destroyed first */
    CHECK_EQ_INT(want[1].index1, 2);
    CHECK_EQ_INT(want[2].index1, 8);
    CHECK_EQ_INT(want[3].index1, 11);

    gait_world *r = pool_world(16);
    for (int i = 0; i < 3; i++) spawn(r, 0); /* another history: restore replaces it */
    CHECK_EQ_INT(gait_world_snapshot_restore(r, snap, size), GAIT_OK);
    CHECK_EQ_INT(gait_world_character_count(r), 7);
    for (int i = 0; i < 5; i++) {
        gait_character_id got = spawn(r, 20 + i);
        CHECK_EQ_INT(got.index1, want[i].index1);
        CHECK_EQ_INT(got.generation, want[i].generation);
    }
    CHECK(gait_world_state_hash(r) == gait_world_state_hash(w));
    free(snap);
    gait_world_destroy(r);
    gait_world_destroy(w);
}

/* A snapshot whose free list is broken (a live slot on it, a cycle, a count that does not add
 * up) is refused whole, its checksum right or not, and the world keeps its state. */
static void refuse_forged(void (*forge)(gait_world *w), const char *why) {
    gait_world *w = pool_world(8);
    gait_character_id ids[5];
    for (int i = 0; i < 5; i++) ids[i] = spawn(w, i);
    gait_character_destroy(w, ids[3]);
    forge(w); /* the save checksums what it is given */
    size_t size = gait_world_snapshot_size(w);
    unsigned char *snap = malloc(size);
    CHECK_EQ_INT(gait_world_snapshot_save(w, snap, size, NULL), GAIT_OK);
    gait_world *r = pool_world(8);
    spawn(r, 0);
    uint64_t before = gait_world_state_hash(r);
    CHECK_EQ_INT(gait_world_snapshot_restore(r, snap, size), GAIT_ERR_FORMAT);
    CHECK(strstr(gait_world_last_error(r), why) != NULL);
    CHECK(gait_world_state_hash(r) == before);
    CHECK_EQ_INT(gait_world_character_count(r), 1);
    free(snap);
    gait_world_destroy(r);
    gait_world_destroy(w);
}

static void forge_live_on_list(gait_world *w) { w->free_head = 0; }
static void forge_cycle(gait_world *w) { w->characters[7].free_next = w->free_head; }
static void forge_lost_slot(gait_world *w) { w->characters[3].free_next = -1; }
static void forge_out_of_range(gait_world *w) { w->characters[6].free_next = 99; }
static void forge_count(gait_world *w) { w->count = 5; }

TEST(pool_snapshot_with_a_broken_free_list_is_refused) {
    refuse_forged(forge_live_on_list, "free slots");
    refuse_forged(forge_cycle, "free slots");
    refuse_forged(forge_lost_slot, "free slots");
    refuse_forged(forge_out_of_range, "free slots");
    refuse_forged(forge_count, "live characters");
}

/* Creates remember the last def they checked: a def that differs in anything is checked and used
 * anew, a bad one after a good one is refused, and the good one still works after it. */
TEST(pool_create_checks_each_new_def) {
    gait_world *w = pool_world(8);
    gait_character_def a = gait_default_character_def();
    gait_character_id id;
    CHECK_EQ_INT(gait_character_create(w, &a, &id), GAIT_OK);
    gait_character_def b = a;
    b.camera.distance = 7;
    b.stamina.max = 240;
    b.anim.land_seconds = 0.5;
    CHECK_EQ_INT(gait_character_create(w, &b, &id), GAIT_OK);
    gait_camera cam;
    gait_character_camera(w, id, &cam);
    CHECK_NEAR(cam.def.distance, 7, 0);
    gait_character_info info;
    gait_character_info_get(w, id, &info);
    CHECK_NEAR(info.stamina_max, 240, 0);
    gait_character_def bad = b;
    bad.anim.land_seconds = -1;
    CHECK_EQ_INT(gait_character_create(w, &bad, &id), GAIT_ERR_INVALID_ARGUMENT);
    bad = b;
    bad.stamina.max = -5;
    CHECK_EQ_INT(gait_character_create(w, &bad, &id), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_world_character_count(w), 2);
    CHECK_EQ_INT(gait_character_create(w, &a, &id), GAIT_OK);
    gait_character_camera(w, id, &cam);
    CHECK_NEAR(cam.def.distance, a.camera.distance, 0);
    gait_anim_signal sig;
    CHECK_EQ_INT(gait_character_anim(w, id, &sig), GAIT_OK);
    gait_world_destroy(w);
}

/* A crowd past GAIT__OWN_GATHERS: the first slots get gathers of their own, the rest move
 * through their worker's, and the world's memory stays bounded (a gather is 40 KiB: 3000 of
 * them would be 120 MiB). A character without its own gather steps to the same bits as one
 * with it: the crowd's last member and a twin in a world of one. */
TEST(pool_own_gathers_stop_at_their_cap) {
    enum { N = GAIT__OWN_GATHERS + 1000 };
    gait_world *w = pool_world(N);
    for (int i = 0; i < N; i++) CHECK(spawn(w, 0.01 * i).index1 == i + 1);
    CHECK_EQ_INT(w->own_gather_count, GAIT__OWN_GATHERS);
    CHECK(w->own_gather[GAIT__OWN_GATHERS - 1] != NULL);
    CHECK(w->own_gather[GAIT__OWN_GATHERS] == NULL);
    CHECK(w->own_gather[N - 1] == NULL);
    /* destroyed and created again: the slot's gather stays, no more are made */
    gait_character_id last = {N, 0};
    CHECK_EQ_INT(gait_character_destroy(w, last), GAIT_OK);
    CHECK(spawn(w, 0.01 * (N - 1)).index1 == N);
    CHECK_EQ_INT(w->own_gather_count, GAIT__OWN_GATHERS);
    gait_world_destroy(w);
}

/* Twins running into a wall and along it, one in a slot with its own gather (a world of one),
 * one past the cap (the last of a crowd, 100 m from the others): the same bits every step. */
TEST(pool_a_character_past_the_gather_cap_steps_as_its_twin) {
    enum { N = GAIT__OWN_GATHERS + 2 };
    gait_world *w[2] = {pool_world(1), pool_world(N)};
    gait_character_id twin[2];
    for (int k = 0; k < 2; k++) {
        bw_flat(w[k]);
        bw_box(w[k], 38, 0, 3, 42, 2.5, 3.4);   /* a wall across the way, at z = 3 */
        bw_box(w[k], 41, 0, -2, 41.3, 0.25, 2); /* a riser beside the path */
        if (k == 1)
            for (int i = 0; i < N - 1; i++) CHECK(spawn(w[k], -40 + 0.02 * i).index1 == i + 1);
        twin[k] = bw_spawn(w[k], 40, 0, 0, 100);
    }
    CHECK(w[0]->own_gather[twin[0].index1 - 1] != NULL);
    CHECK(w[1]->own_gather[twin[1].index1 - 1] == NULL);
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_y = 1;
    in.move_x = 0.4;
    int differ = 0;
    for (int s = 0; s < 180; s++) {
        gait_character_info a[2];
        for (int k = 0; k < 2; k++) {
            gait_character_set_input(w[k], twin[k], &in);
            gait_world_step(w[k]);
            a[k] = bw_info(w[k], twin[k]);
        }
        if (memcmp(&a[0].position, &a[1].position, sizeof a[0].position) != 0 ||
            a[0].phase.state != a[1].phase.state)
            differ++;
    }
    CHECK_MSG(differ == 0, "the twins differed on %d of 180 steps", differ);
    for (int k = 0; k < 2; k++) gait_world_destroy(w[k]);
}
