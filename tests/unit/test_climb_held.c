/* A climber held still (its head under a roof too deep to climb round, the stick pushed up) is
 * answered from its last step (body.h: gait__climb_memo) instead of asking the collider again.
 * The memo is a shortcut: a snapshot drops it, and a run that drops it before every step must
 * go the same way, bit for bit: a climber alone, two side by side, a walker passing under them,
 * and the roof taken away (the static landmarks changed). */
#include "check.h"

#include "body_fixtures.h"

#define STEPS 420

/* A wall (its face at z = 2, facing -z) with a roof 1.5 m deep under its face at 2.6 m: deeper
 * than a climb goes round, so a body climbing into it is held there. Three climbers: two side
 * by side 0.8 m apart (each is near the other), one alone; and a walker. */
static gait_world *roofed_wall(gait_character_id ids[4], gait_landmark_id *roof) {
    gait_world *w = bw_box_world(-4, 0, 2, 4, 6, 3);
    *roof = bw_box(w, -4, 2.6, 0.5, 4, 3.0, 2);
    const double xs[3] = {-2.4, -1.6, 2.5};
    for (int i = 0; i < 3; i++) ids[i] = bw_spawn(w, xs[i], 0, 1.2, 100);
    ids[3] = bw_spawn(w, 3.9, 0, 1.4, 100); /* walks along under the roof, past the climbers */
    return w;
}

typedef struct trace {
    gait_vec3 feet[STEPS][3];
    gait_state state[STEPS][3];
    double stamina[STEPS][3];
} trace;

/* The stick forward (+z, into the wall) every step; `drop`: a snapshot saved and restored before
 * each step (the memo zeroed). At step 300 the roof goes: the held climbers climb on (a memo
 * kept across it would answer for a world that is gone). */
static void play(bool drop, trace *t) {
    gait_character_id ids[4];
    gait_landmark_id roof;
    gait_world *w = roofed_wall(ids, &roof);
    size_t size = gait_world_snapshot_size(w);
    unsigned char *snap = malloc(size);
    for (int k = 0; k < STEPS; k++) {
        if (k == 300) CHECK_EQ_INT(gait_collider_remove_landmark(gait_world_collider(w), roof), GAIT_OK);
        if (drop) {
            CHECK_EQ_INT(gait_world_snapshot_save(w, snap, size, NULL), GAIT_OK);
            CHECK_EQ_INT(gait_world_snapshot_restore(w, snap, size), GAIT_OK);
        }
        for (int i = 0; i < 3; i++) bw_input(w, ids[i], 0, 1, 0, 0);
        /* the walker: along the wall under the climbers from k = 150 (to x = -3.6), back from
         * k = 230 */
        bw_input(w, ids[3], k < 150 ? 0 : k < 230 ? 0.5 : -0.5, 0, 0, 0);
        gait_world_step(w);
        for (int i = 0; i < 3; i++) {
            gait_character_info in = bw_info(w, ids[i]);
            t->feet[k][i] = in.position;
            t->state[k][i] = in.phase.state;
            t->stamina[k][i] = in.stamina;
        }
    }
    free(snap);
    gait_world_destroy(w);
}

TEST(held_climber_goes_the_same_way_with_its_memo_dropped) {
    static trace kept, dropped;
    play(false, &kept);
    play(true, &dropped);
    int differ = 0;
    for (int k = 0; k < STEPS; k++)
        for (int i = 0; i < 3; i++)
            if (memcmp(&kept.feet[k][i], &dropped.feet[k][i], sizeof(gait_vec3)) != 0 ||
                kept.state[k][i] != dropped.state[k][i] ||
                memcmp(&kept.stamina[k][i], &dropped.stamina[k][i], sizeof(double)) != 0)
                differ++;
    CHECK_EQ_INT(differ, 0);
    /* the run held climbers still under the roof (else the memo was never asked): each of the
     * three climbs, reaches the roof and stays there, motionless, for a second or more */
    for (int i = 0; i < 3; i++) {
        int held = 0, longest = 0;
        for (int k = 1; k < STEPS; k++) {
            bool still = kept.state[k][i] == GAIT_STATE_CLIMB &&
                         memcmp(&kept.feet[k][i], &kept.feet[k - 1][i], sizeof(gait_vec3)) == 0;
            held = still ? held + 1 : 0;
            if (held > longest) longest = held;
        }
        CHECK(longest >= 60);
        /* held under the roof: the head at its underside (2.6 m), within a few centimetres */
        double head = kept.feet[299][i].y + 1.7;
        CHECK(head > 2.5 && head < 2.61);
        /* and with the roof gone, up the wall past it */
        CHECK(kept.feet[STEPS - 1][i].y > kept.feet[299][i].y + 0.3);
    }
}

