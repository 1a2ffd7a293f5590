/* Putting a body down (a create, a place): where no landmark is near, the spot asks one query
 * instead of a crouched placement, and the placement's queries skip the landmarks. The answer
 * must be the one every query gives, bit for bit: spots near boxes, on them, under a low slab,
 * beside a moving landmark, over water and far in the open are put down both ways and compared. */
#include "check.h"

#include <stdio.h>
#include <string.h>

#include "body_fixtures.h"
#include "character/body.h"
#include "character/character.h"

/* Hills with a box to stand on, a wall, a slab low over the ground (crouch under it), a lift
 * moving up through the ground, and a pond. */
static gait_world *spot_world(void) {
    gait_world *w = bw_world(NULL);
    if (!w) return NULL;
    bw_terrain(w, bw_hills, -64, -64, 128, 1.0);
    bw_box(w, 0, -3, 0, 4, 1.5, 4);      /* a block, its top 1.5 m up */
    bw_box(w, -10, -3, 0, -9.6, 5, 12);  /* a wall */
    bw_box(w, 8, 0.2, 8, 10, 0.3, 10);   /* a thin slab 0.75 .. 1.6 m over the hills */
    gait_landmark_id lift = bw_box(w, -6, -3, -12, -3, 0.5, -9);
    gait_collider *c = gait_world_collider(w);
    gait_collider_set_landmark_velocity(c, lift, (gait_vec3){0, 1.0, 0}, (gait_vec3){0, 0, 0});
    gait_collider_advance(c, 1.0 / 60);
    gait_water_region pond = {-20, 10, -12, 18, 0.5};
    gait_collider_add_water(c, &pond, NULL);
    return w;
}

/* The body as gait_character_create leaves it before its placement. */
static void fresh(gait__character *ch, gait_vec3 at) {
    memset(ch, 0, sizeof *ch);
    ch->position = at;
    ch->phase.state = GAIT_STATE_IDLE;
}

static bool same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

TEST(spot_and_place_fast_path_give_the_same_bits) {
    gait_world *w = spot_world();
    CHECK(w != NULL);
    if (!w) return;
    const gait_collider *col = gait_world_collider(w);
    static gait__character a, b; /* 5 kB each: off the stack */
    int clear = 0, near = 0, refused = 0, crouched = 0;
    const double heights[4] = {-0.5, 0.0, 1.0, 6.0}; /* over the hills' height at the point */
    for (int type = 0; type < GAIT_BODY_TYPE_COUNT; type++) {
        const gait_locomotion *n = gait_world_locomotion(w, (gait_body_type)type);
        for (double x = -22; x <= 22; x += 0.9)
            for (double z = -22; z <= 22; z += 1.3)
                for (int k = 0; k < 4; k++) {
                    gait_vec3 p = {x, bw_hills(x, z) + heights[k], z};
                    gait_vec3 fast = p, slow = p;
                    bool is_clear = false;
                    bool ok_fast = gait__body_spot_ex(col, n, &fast, true, &is_clear);
                    bool ok_slow = gait__body_spot_ex(col, n, &slow, false, NULL);
                    CHECK_MSG(ok_fast == ok_slow, "spot at %g %g %g: %d fast, %d slow", p.x, p.y, p.z,
                              ok_fast, ok_slow);
                    if (!ok_fast || !ok_slow) {
                        refused++;
                        continue;
                    }
                    CHECK_MSG(same_bits(&fast, &slow, sizeof fast), "spot at %g %g %g: %.17g %.17g "
                              "%.17g fast, %.17g %.17g %.17g slow", p.x, p.y, p.z, fast.x, fast.y,
                              fast.z, slow.x, slow.y, slow.z);
                    is_clear ? clear++ : near++;
                    fresh(&a, fast);
                    fresh(&b, slow);
                    gait__body_place_known(col, &a, n, is_clear);
                    gait__body_place_known(col, &b, n, false);
                    bool same = same_bits(&a.position, &b.position, sizeof a.position) &&
                                same_bits(&a.body, &b.body, sizeof a.body) &&
                                same_bits(&a.contact, &b.contact, sizeof a.contact) &&
                                a.phase.state == b.phase.state;
                    CHECK_MSG(same, "placed from %g %g %g (clear %d): %.17g %.17g %.17g state %d, "
                              "every query: %.17g %.17g %.17g state %d", p.x, p.y, p.z, is_clear,
                              a.position.x, a.position.y, a.position.z, (int)a.phase.state,
                              b.position.x, b.position.y, b.position.z, (int)b.phase.state);
                    if (b.phase.state == GAIT_STATE_CROUCH) crouched++;
                    /* and gait__body_place, which asks whether anything is near itself */
                    fresh(&a, fast);
                    gait__body_place(col, &a, n);
                    CHECK(same_bits(&a.position, &b.position, sizeof a.position) &&
                          same_bits(&a.contact, &b.contact, sizeof a.contact));
                }
    }
    /* both paths were taken, and the scene holds what makes a placement differ near landmarks */
    printf("  spots: %d clear, %d near landmarks, %d refused, %d crouched\n", clear, near, refused,
           crouched);
    CHECK(clear > 1000);
    CHECK(near > 100);
    CHECK(crouched > 0);
    gait_world_destroy(w);
}

/* The far spots are clear, the ones by a landmark (on the block, under the slab, by the lift
 * moving up into reach) are not. */
TEST(spot_clear_only_far_from_landmarks) {
    gait_world *w = spot_world();
    CHECK(w != NULL);
    if (!w) return;
    const gait_collider *col = gait_world_collider(w);
    const gait_locomotion *n = gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE);
    struct {
        double x, z;
        bool clear;
    } cases[] = {
        {30, 30, true}, {-30, 25, true}, {2, 2, false}, {4.4, 2, false}, {9, 9, false},
        {-4.5, -10.5, false}, {-9.4, 6, false}, {-8.9, 6, true}, {20, -20, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gait_vec3 p = {cases[i].x, bw_hills(cases[i].x, cases[i].z) + 0.2, cases[i].z};
        bool clear = !cases[i].clear;
        CHECK(gait__body_spot(col, n, &p, &clear));
        CHECK_MSG(clear == cases[i].clear, "spot at %g %g: clear %d, wanted %d", cases[i].x,
                  cases[i].z, clear, cases[i].clear);
    }
    gait_world_destroy(w);
}

/* A character created through the API stands where the placement that asks every query puts it. */
TEST(create_puts_the_body_where_every_query_does) {
    gait_world *w = spot_world();
    CHECK(w != NULL);
    if (!w) return;
    const gait_collider *col = gait_world_collider(w);
    static gait__character b;
    for (int i = 0; i < 40; i++) {
        double x = -18 + 0.93 * i, z = 14 - 0.71 * i;
        gait_character_def cd = gait_default_character_def();
        cd.position = (gait_vec3){x, bw_hills(x, z) + 0.3, z};
        cd.no_camera = true;
        gait_character_id id;
        CHECK_EQ_INT(gait_character_create(w, &cd, &id), GAIT_OK);
        gait_character_info info;
        CHECK_EQ_INT(gait_character_info_get(w, id, &info), GAIT_OK);
        const gait_locomotion *n = gait_world_locomotion(w, cd.body_type);
        gait_vec3 at = cd.position;
        CHECK(gait__body_spot_ex(col, n, &at, false, NULL));
        fresh(&b, at);
        gait__body_place_known(col, &b, n, false);
        CHECK_MSG(same_bits(&info.position, &b.position, sizeof b.position),
                  "created at %.17g %.17g %.17g, every query %.17g %.17g %.17g", info.position.x,
                  info.position.y, info.position.z, b.position.x, b.position.y, b.position.z);
        CHECK_EQ_INT(info.phase.state, b.phase.state);
    }
    gait_world_destroy(w);
}
