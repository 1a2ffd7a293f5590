/* What a create leaves alone and what it must not: a character starts with the shared default
 * clip map (a rename makes the map its own, the others keep the default); a slot reused after a
 * character that played a kit's move, held modes, renamed clips and scanned a ledge hands the new
 * character none of it (info, the signal, a snapshot's bytes), and kit motion plays in it; and
 * the crowd's picture, packed in a dense grid or spread over a hashed one, gives the same bits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_fixtures.h"
#include "check.h"
#include "gait/motion.h"
#include "character/world_internal.h" /* the record's clip map, the crowd's picture */

static const gait_anim *anim_of(gait_world *w, gait_character_id id) {
    return &gait__character_get(w, id)->anim;
}

TEST(anim_clip_map_is_the_shared_default_until_a_state_is_renamed) {
    gait_anim a;
    gait_anim_def d = gait_default_anim_def();
    CHECK(gait_anim_init(&a, &d) == GAIT_OK);
    CHECK(strcmp(gait_anim_clip(&a, GAIT_ANIM_RUN), "") == 0); /* init: an empty map */
    CHECK(gait_anim_set_default_clips(&a) == GAIT_OK);
    CHECK(a.default_clips);
    for (int s = 0; s < GAIT_ANIM_STATE_COUNT; s++)
        CHECK(strcmp(gait_anim_clip(&a, (gait_anim_state)s), gait_default_anim_clip((gait_anim_state)s)) == 0);
    /* a copy taken now keeps the default whatever the original does next */
    gait_anim other = a;
    CHECK(gait_anim_set_clip(&a, GAIT_ANIM_RUN, "HeroRun") == GAIT_OK);
    CHECK(!a.default_clips);
    CHECK(strcmp(gait_anim_clip(&a, GAIT_ANIM_RUN), "HeroRun") == 0);
    CHECK(strcmp(gait_anim_clip(&a, GAIT_ANIM_WALK), "Walk") == 0); /* the rest copied in */
    CHECK(strcmp(gait_anim_clip(&a, GAIT_ANIM_TRAVERSE), "Vault") == 0);
    CHECK(strcmp(gait_anim_clip(&other, GAIT_ANIM_RUN), "Run") == 0);
    CHECK(gait_anim_set_clip(&a, GAIT_ANIM_WALK, NULL) == GAIT_OK);
    CHECK(strcmp(gait_anim_clip(&a, GAIT_ANIM_WALK), "") == 0);
    /* a refused rename changes nothing, the default map included */
    char long_name[GAIT_CLIP_NAME_MAX + 1];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[GAIT_CLIP_NAME_MAX] = 0;
    CHECK(gait_anim_set_clip(&other, GAIT_ANIM_RUN, long_name) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(other.default_clips);
    CHECK(gait_anim_clip(NULL, GAIT_ANIM_RUN) == NULL);
    CHECK(gait_anim_clip(&a, GAIT_ANIM_STATE_COUNT) == NULL);
    CHECK(gait_anim_clip(&a, (gait_anim_state)-1) == NULL);
}

TEST(a_character_renamed_after_create_plays_its_own_clip_the_others_the_default) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id a = bw_spawn(w, 0, 0, 0, 100), b = bw_spawn(w, 5, 0, 0, 100);
    gait_character_id c = bw_spawn(w, 10, 0, 0, 100);
    CHECK(anim_of(w, a)->default_clips && anim_of(w, b)->default_clips);
    CHECK(gait_character_set_clip(w, a, GAIT_ANIM_RUN, "HeroRun") == GAIT_OK);
    CHECK(gait_character_set_clip(w, c, GAIT_ANIM_RUN, "") == GAIT_OK); /* c's model has none */
    CHECK(!anim_of(w, a)->default_clips && anim_of(w, b)->default_clips);
    gait_anim_signal sa, sb, sc;
    for (int k = 0; k < 60; k++) {
        bw_input_look(w, a, 0, 1, 0, 0, 0);
        bw_input_look(w, b, 0, 1, 0, 0, 0);
        bw_input_look(w, c, 0, 1, 0, 0, 0);
        gait_world_step(w);
    }
    gait_character_anim(w, a, &sa);
    gait_character_anim(w, b, &sb);
    gait_character_anim(w, c, &sc);
    CHECK_EQ_INT(sa.state, GAIT_ANIM_RUN);
    CHECK_EQ_INT(sb.state, GAIT_ANIM_RUN);
    CHECK(strcmp(sa.clip, "HeroRun") == 0);
    CHECK(strcmp(sb.clip, "Run") == 0);
    /* c wants run but has no clip for it: what played before (the walk's start) keeps playing */
    CHECK_EQ_INT(sc.wanted, GAIT_ANIM_RUN);
    CHECK(sc.state != GAIT_ANIM_RUN && strcmp(sc.clip, "Run") != 0);
    /* a snapshot carries the renamed map, and the default one as the default */
    size_t n = gait_world_snapshot_size(w);
    void *buf = malloc(n);
    CHECK(gait_world_snapshot_save(w, buf, n, NULL) == GAIT_OK);
    CHECK(gait_character_set_clip(w, b, GAIT_ANIM_RUN, "Other") == GAIT_OK);
    CHECK(gait_character_set_clip(w, a, GAIT_ANIM_RUN, "Changed") == GAIT_OK);
    CHECK(gait_world_snapshot_restore(w, buf, n) == GAIT_OK);
    CHECK(anim_of(w, b)->default_clips);
    CHECK(strcmp(gait_anim_clip(anim_of(w, b), GAIT_ANIM_RUN), "Run") == 0);
    CHECK(strcmp(gait_anim_clip(anim_of(w, a), GAIT_ANIM_RUN), "HeroRun") == 0);
    CHECK(strcmp(gait_anim_clip(anim_of(w, a), GAIT_ANIM_IDLE), "Idle") == 0);
    free(buf);
    gait_world_destroy(w);
}

/* World 1 holds a character that leaves everything a create skips written (a moving action
 * playing, a request waiting, modes, a renamed map, a ledge scan), then destroys it and creates
 * another in its slot; world 2 does the same with a character that touched none of it. */
static gait_world *reuse_world(bool busy, gait_character_id *out) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    gait_character_id first = bw_spawn(w, 0, 0, 0, 100);
    if (busy) {
        gait_move_def mv = gait_default_move_def();
        mv.name = "dash_strike";
        mv.clip = "Strike";
        mv.velocity = (gait_vec3){0, 0, 6};
        mv.seconds = 2;
        CHECK(gait_character_start_move(w, first, &mv) == GAIT_OK);
        gait_mode_def md = gait_default_mode_def();
        md.name = "wind_sprint";
        md.speed = 9;
        CHECK(gait_character_set_mode(w, first, &md) == GAIT_OK);
        md.state = GAIT_STATE_GLIDE;
        md.name = "fast_glide";
        CHECK(gait_character_set_mode(w, first, &md) == GAIT_OK);
        CHECK(gait_character_set_clip(w, first, GAIT_ANIM_IDLE, "Lounge") == GAIT_OK);
    }
    for (int k = 0; k < 10; k++) gait_world_step(w);
    if (busy) {
        gait_motion_info mi;
        gait_character_motion_info(w, first, &mi);
        CHECK(mi.playing && mi.mode_count == 2);
        gait_move_def next = gait_default_move_def();
        next.name = "queued";
        CHECK(gait_character_start_move(w, first, &next) == GAIT_OK); /* waits as the request */
        /* a ledge scan as the sense stage leaves one (the scan itself needs a ledge in reach) */
        gait__traverse *t = &gait__character_get(w, first)->trav;
        t->scanned = true;
        t->query.radius = 0.3;
        t->query.height = 1.7;
        t->scan.ok = true;
        t->scan.height = 1.2;
        snprintf(t->scan.reason, sizeof t->scan.reason, "ledge");
    }
    CHECK(gait_character_destroy(w, first) == GAIT_OK);
    *out = bw_spawn(w, 2, 0, 3, 100);
    CHECK_EQ_INT(out->index1, first.index1);
    return w;
}

TEST(a_reused_slot_hands_nothing_of_its_last_character_to_the_next) {
    gait_character_id a, b;
    gait_world *busy = reuse_world(true, &a), *quiet = reuse_world(false, &b);
    gait_motion_info mi;
    CHECK(gait_character_motion_info(busy, a, &mi) == GAIT_OK);
    CHECK(!mi.requested && !mi.playing && mi.mode_count == 0 && mi.name[0] == 0);
    gait_traverse_info ti;
    CHECK(gait_character_traverse_info(busy, a, &ti) == GAIT_OK);
    CHECK(strcmp(ti.scan.reason, "not scanned") == 0);
    CHECK(!ti.scan.ok && ti.scan.height == 0);
    CHECK(anim_of(busy, a)->default_clips);
    CHECK(strcmp(gait_anim_clip(anim_of(busy, a), GAIT_ANIM_IDLE), "Idle") == 0);
    gait_character_info ia = bw_info(busy, a);
    CHECK_EQ_INT(ia.phase.state, GAIT_STATE_IDLE);
    CHECK(ia.action_name[0] == 0);
    /* equal states, equal bytes: the stale parts are not in the snapshot */
    size_t n = gait_world_snapshot_size(busy);
    CHECK_EQ_INT(n, gait_world_snapshot_size(quiet));
    unsigned char *s1 = malloc(n), *s2 = malloc(n);
    CHECK(gait_world_snapshot_save(busy, s1, n, NULL) == GAIT_OK);
    CHECK(gait_world_snapshot_save(quiet, s2, n, NULL) == GAIT_OK);
    CHECK(memcmp(s1, s2, n) == 0);
    CHECK(gait_world_state_hash(busy) == gait_world_state_hash(quiet));
    /* and the two step alike */
    for (int k = 0; k < 30; k++) {
        bw_input_look(busy, a, 0.3, 1, 0, 0, 0);
        bw_input_look(quiet, b, 0.3, 1, 0, 0, 0);
        gait_world_step(busy);
        gait_world_step(quiet);
    }
    CHECK(gait_world_state_hash(busy) == gait_world_state_hash(quiet));
    free(s1);
    free(s2);
    gait_world_destroy(quiet);

    /* kit motion plays in the reused slot: a move requested, started, carried through, ended */
    gait_vec3 p0 = bw_info(busy, a).position;
    gait_move_def mv = gait_default_move_def();
    mv.name = "lunge";
    mv.frame = GAIT_FRAME_WORLD;
    mv.velocity = (gait_vec3){4, 0, 0};
    mv.seconds = 0.5;
    CHECK(gait_character_start_move(busy, a, &mv) == GAIT_OK);
    CHECK(gait_character_motion_info(busy, a, &mi) == GAIT_OK);
    CHECK(mi.requested && strcmp(mi.name, "lunge") == 0);
    gait_world_step(busy);
    CHECK_EQ_INT(bw_info(busy, a).phase.state, GAIT_STATE_ACTION);
    CHECK(gait_character_motion_info(busy, a, &mi) == GAIT_OK);
    CHECK(mi.playing && strcmp(mi.name, "lunge") == 0 && mi.kind == GAIT_MOVE_VELOCITY);
    CHECK_NEAR(mi.velocity.x, 4, 1e-9);
    /* 10 steps of it: 4 m/s along x on flat ground, nothing along z */
    gait_vec3 p1 = bw_info(busy, a).position;
    for (int k = 0; k < 10; k++) gait_world_step(busy);
    gait_vec3 p2 = bw_info(busy, a).position;
    CHECK_NEAR(p2.x - p1.x, 10 * 4.0 / 60, 1e-6);
    CHECK_NEAR(p2.z - p1.z, 0, 1e-6);
    CHECK(p1.x > p0.x);
    for (int k = 0; k < 30; k++) gait_world_step(busy);
    CHECK(bw_info(busy, a).phase.state != GAIT_STATE_ACTION); /* over after its 0.5 s */
    gait_world_destroy(busy);
}

/* A packed crowd: 64 characters 0.7 m apart walking at the middle; `far`: one more colliding
 * character 500 m off, which spreads the picture's cells past a dense grid's (hashed). */
static gait_world *crowd(bool far, gait_character_id *ids) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = 80;
    gait_world *w = gait_world_create(&wd);
    bw_terrain(w, bw_flat0, -600, -600, 2, 600); /* flat, 1.2 km across */
    for (int i = 0; i < 64; i++) ids[i] = bw_spawn(w, (i % 8) * 0.7 - 2.45, 0, (i / 8) * 0.7 - 2.45, 100);
    if (far) bw_spawn(w, 500, 0, 0, 100);
    return w;
}

TEST(crowd_picture_dense_or_hashed_steps_the_same_bits) {
    gait_character_id ia[64], ib[64];
    gait_world *a = crowd(false, ia), *b = crowd(true, ib);
    bool dense_seen = false, hashed_seen = false;
    for (int k = 0; k < 120; k++) {
        for (int i = 0; i < 64; i++) {
            gait_vec3 p = bw_info(a, ia[i]).position;
            double mx = -p.x, mz = -p.z, l = sqrt(mx * mx + mz * mz) + 1e-9;
            bw_input_look(a, ia[i], mx / l, mz / l, 0, 0, 0);
            bw_input_look(b, ib[i], mx / l, mz / l, 0, 0, 0);
        }
        gait_world_step(a);
        gait_world_step(b);
        dense_seen |= a->crowd.dense;
        hashed_seen |= !b->crowd.dense && b->crowd.active;
    }
    CHECK(dense_seen && hashed_seen); /* the two pictures this test compares */
    int same = 0;
    double deepest = 0;
    for (int i = 0; i < 64; i++) {
        gait_vec3 pa = bw_info(a, ia[i]).position, pb = bw_info(b, ib[i]).position;
        same += memcmp(&pa, &pb, sizeof pa) == 0;
        for (int j = 0; j < i; j++) {
            gait_vec3 q = bw_info(a, ia[j]).position;
            double d = sqrt((pa.x - q.x) * (pa.x - q.x) + (pa.z - q.z) * (pa.z - q.z));
            if (fabs(pa.y - q.y) < 1 && 0.6 - d > deepest) deepest = 0.6 - d;
        }
    }
    CHECK_EQ_INT(same, 64);
    CHECK_MSG(deepest <= 0.01, "two capsules overlap by %.4f m", deepest); /* a centimetre */
    gait_world_destroy(a);
    gait_world_destroy(b);
}
