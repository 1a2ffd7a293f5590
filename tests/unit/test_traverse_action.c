/* The traversal action through the world (docs/behaviour.md, "Traversal"): the latch is on only while the feet
 * are below the ledge and covers only a box round it; the body never overlaps geometry the latch
 * does not cover; the corridor holds; a step allocates nothing; the same inputs give the same
 * bits; the debug view draws the scan, the corridor and the latch. */
#include <stdio.h>
#include <string.h>

#include "body_fixtures.h"
#include "check.h"

static double overlap_depth(gait_world *w, gait_vec3 feet, double r, double h) {
    gait_capsule c;
    c.a.x = c.b.x = feet.x;
    c.a.z = c.b.z = feet.z;
    c.a.y = feet.y + r;
    c.b.y = feet.y + h - r;
    c.radius = r;
    gait_contact_point cp[16];
    gait_filter f;
    memset(&f, 0, sizeof f);
    int n = gait_collider_capsule_overlap(gait_world_collider_const(w), &c, &f, cp, 16, NULL);
    double d = 0;
    for (int i = 0; i < n; i++)
        if (cp[i].depth > d) d = cp[i].depth;
    return d;
}

/* The vault course: flat ground, a box 1 m high and 0.3 m deep at z = 4, a body at the origin. */
static gait_character_id vault_course(gait_world *w) {
    bw_flat(w);
    bw_box(w, -2, 0, 4, 2, 1, 4.3);
    return bw_spawn(w, 0, 0, 0, 100);
}

/* Runs +z at a box from z = 0, presses jump once the body passes z = press_z, for `steps`. Checks
 * every step: no overlap deeper than 1 cm outside the latch, the latch's box small and only while
 * the feet are below the ledge, the corridor held. */
typedef struct run_result {
    int traverse_steps, latched_steps, actions;
    double max_overlap, max_past_corridor, max_latch_size;
    bool latch_above_ledge;
    gait_vec3 end;
    gait_state end_state;
    uint64_t hash;
} run_result;

static run_result run(gait_world *w, gait_character_id id, double press_z, int steps) {
    run_result r;
    memset(&r, 0, sizeof r);
    bool pressed = false;
    for (int k = 0; k < steps; k++) {
        gait_character_info i = bw_info(w, id);
        uint32_t p = 0;
        if (!pressed && i.position.z >= press_z) {
            p = GAIT_BUTTON_JUMP;
            pressed = true;
        }
        bw_input(w, id, 0, 1, 0, p);
        gait_world_step(w);
        i = bw_info(w, id);
        gait_traverse_info t;
        gait_character_traverse_info(w, id, &t);
        if (i.phase.state == GAIT_STATE_TRAVERSE) {
            r.traverse_steps++;
            double past = (i.position.x - t.corridor_origin.x) * t.corridor_dir.x +
                          (i.position.z - t.corridor_origin.z) * t.corridor_dir.z - t.corridor;
            if (past > r.max_past_corridor) r.max_past_corridor = past;
        }
        if (t.latch) {
            r.latched_steps++;
            double size = fmax(t.latch_max.x - t.latch_min.x,
                               fmax(t.latch_max.y - t.latch_min.y, t.latch_max.z - t.latch_min.z));
            if (size > r.max_latch_size) r.max_latch_size = size;
            if (i.position.y > t.scan.edge.y + 0.01) r.latch_above_ledge = true;
        } else {
            double d = overlap_depth(w, i.position, 0.3, 1.7);
            if (d > r.max_overlap) r.max_overlap = d;
        }
        r.actions = t.actions;
    }
    gait_character_info i = bw_info(w, id);
    r.end = i.position;
    r.end_state = i.phase.state;
    r.hash = gait_world_state_hash(w);
    return r;
}

TEST(traverse_action_vault_latch_corridor_and_no_overlap) {
    gait_world *w = bw_world(NULL);
    gait_character_id id = vault_course(w);
    run_result r = run(w, id, 2.0, 150);
    CHECK_EQ_INT(r.actions, 1);
    CHECK(r.traverse_steps > 20);
    CHECK(r.latched_steps > 0);
    CHECK(!r.latch_above_ledge);
    CHECK_MSG(r.max_latch_size < 1.2, "latch box %g m", r.max_latch_size);
    CHECK_MSG(r.max_overlap < 0.01, "overlap %g m", r.max_overlap);
    CHECK_MSG(r.max_past_corridor <= 1e-9, "past the corridor by %g m", r.max_past_corridor);
    CHECK(gait_state_on_foot(r.end_state));
    CHECK(r.end.z > 4.3 + 0.3);
    CHECK_NEAR(r.end.y, 0, 0.005);
    gait_world_destroy(w);
}

TEST(traverse_action_mantle_never_overlaps_and_stands_on_top) {
    gait_world *w = bw_box_world(-2, 0, 4, 2, 2.2, 30); /* deep: the run goes on along its top */
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    run_result r = run(w, id, 2.0, 200);
    CHECK_EQ_INT(r.actions, 1);
    CHECK(!r.latch_above_ledge);
    CHECK_MSG(r.max_overlap < 0.01, "overlap %g m", r.max_overlap);
    CHECK_MSG(r.max_past_corridor <= 1e-9, "past the corridor by %g m", r.max_past_corridor);
    CHECK_NEAR(r.end.y, 2.2, 0.005);
    gait_world_destroy(w);
}

TEST(traverse_action_allocates_nothing_and_is_deterministic) {
    alloc_count cnt;
    gait_world *w = bw_world(&cnt);
    bw_flat(w);
    bw_box(w, -2, 0, 4, 2, 1, 4.3);
    bw_box(w, -2, 0, 9, 2, 1.5, 12);
    gait_character_id id = bw_spawn(w, 0, 0, 0, 100);
    long before = cnt.allocs;
    run_result a = run(w, id, 2.0, 300);
    CHECK_EQ_INT(cnt.allocs, before);
    gait_world *w2 = bw_world(NULL);
    bw_flat(w2);
    bw_box(w2, -2, 0, 4, 2, 1, 4.3);
    bw_box(w2, -2, 0, 9, 2, 1.5, 12);
    gait_character_id id2 = bw_spawn(w2, 0, 0, 0, 100);
    run_result b = run(w2, id2, 2.0, 300);
    CHECK(a.hash == b.hash);
    CHECK(a.end.x == b.end.x && a.end.y == b.end.y && a.end.z == b.end.z);
    gait_world_destroy(w);
    gait_world_destroy(w2);
}

typedef struct draw_count {
    int lines, points, texts, corridor, latch;
} draw_count;

static void on_line(gait_vec3 a, gait_vec3 b, uint32_t c, void *u) {
    (void)a; (void)b;
    draw_count *d = u;
    d->lines++;
    if (c == 0xff80ffffu) d->corridor++;
    if (c == 0xff8000ffu) d->latch++;
}
static void on_point(gait_vec3 p, double s, uint32_t c, void *u) {
    (void)p; (void)s; (void)c;
    ((draw_count *)u)->points++;
}
static void on_text(gait_vec3 p, const char *t, uint32_t c, void *u) {
    (void)p; (void)t; (void)c;
    ((draw_count *)u)->texts++;
}

TEST(traverse_debug_draw_shows_probes_corridor_and_latch) {
    gait_world *w = bw_world(NULL);
    gait_character_id id = vault_course(w);
    draw_count d;
    memset(&d, 0, sizeof d);
    gait_debug_draw dd;
    memset(&dd, 0, sizeof dd);
    dd.line = on_line;
    dd.point = on_point;
    dd.text = on_text;
    dd.user = &d;
    CHECK_EQ_INT(gait_world_set_debug_draw(w, &dd), GAIT_OK);
    CHECK_EQ_INT(gait_world_draw_debug(w), GAIT_OK);
    CHECK_EQ_INT(d.lines, 0); /* nothing scanned yet */
    bool seen_latch = false, seen_corridor = false;
    bool pressed = false;
    for (int k = 0; k < 120; k++) {
        uint32_t p = 0;
        if (!pressed && bw_info(w, id).position.z >= 2.0) p = GAIT_BUTTON_JUMP, pressed = true;
        bw_input(w, id, 0, 1, 0, p);
        gait_world_step(w);
        memset(&d, 0, sizeof d);
        gait_world_draw_debug(w);
        if (d.latch == 12) seen_latch = true;
        if (d.corridor >= 2) seen_corridor = true;
        if (pressed) CHECK(d.lines > 0 && d.points > 0 && d.texts > 0);
    }
    CHECK(seen_latch);
    CHECK(seen_corridor);
    /* removed: nothing drawn */
    CHECK_EQ_INT(gait_world_set_debug_draw(w, NULL), GAIT_OK);
    memset(&d, 0, sizeof d);
    gait_world_draw_debug(w);
    CHECK_EQ_INT(d.lines, 0);
    CHECK_EQ_INT(gait_world_draw_debug(NULL), GAIT_ERR_INVALID_ARGUMENT);
    gait_world_destroy(w);
}

TEST(traverse_table_set_on_a_world_is_validated) {
    gait_world *w = bw_world(NULL);
    gait_traverse_table t = gait_default_traverse_table();
    t.actions[0].min_height = -1;
    CHECK_EQ_INT(gait_world_set_traverse_table(w, &t), GAIT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(gait_world_last_error(w), "min_height") != NULL);
    CHECK(gait_world_traverse_table(w)->actions[0].min_height == 0.5); /* unchanged */
    t = gait_default_traverse_table();
    t.count = 0; /* no actions: a jump is always a jump */
    CHECK_EQ_INT(gait_world_set_traverse_table(w, &t), GAIT_OK);
    gait_character_id id = vault_course(w);
    run_result r = run(w, id, 2.0, 40);
    CHECK_EQ_INT(r.actions, 0);
    gait_character_id stale = {99, 0};
    gait_traverse_info ti;
    CHECK_EQ_INT(gait_character_traverse_info(w, stale, &ti), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_character_set_traverse_hook(w, stale, NULL, NULL), GAIT_ERR_STALE_ID);
    gait_world_destroy(w);
}

static int hook_calls;
static gait_traverse_kind veto_hook(gait_world *w, gait_character_id id, const gait_traverse_scan *s,
                                    gait_traverse_kind proposed, void *user) {
    (void)w; (void)id; (void)s; (void)proposed; (void)user;
    hook_calls++;
    return GAIT_TRAVERSE_NONE;
}

TEST(traverse_snapshot_restores_the_action_and_keeps_the_hosts_hook) {
    gait_world *w = bw_world(NULL);
    gait_character_id id = vault_course(w);
    run(w, id, 2.0, 30); /* mid-action */
    CHECK_EQ_INT(bw_info(w, id).phase.state, GAIT_STATE_TRAVERSE);
    size_t n = gait_world_snapshot_size(w);
    void *buf = malloc(n);
    CHECK_EQ_INT(gait_world_snapshot_save(w, buf, n, NULL), GAIT_OK);
    run_result a = run(w, id, 99, 60);
    CHECK_EQ_INT(gait_character_set_traverse_hook(w, id, veto_hook, NULL), GAIT_OK);
    CHECK_EQ_INT(gait_world_snapshot_restore(w, buf, n), GAIT_OK);
    run_result b = run(w, id, 99, 60); /* the action plays on from the snapshot, bit for bit */
    CHECK(a.end.x == b.end.x && a.end.y == b.end.y && a.end.z == b.end.z);
    /* the hook set after the save is still the host's */
    gait_character_place(w, id, (gait_vec3){0, 0, 0}, 0);
    hook_calls = 0;
    run_result c = run(w, id, 2.0, 40);
    CHECK(hook_calls > 0);
    CHECK_EQ_INT(c.actions, a.actions); /* vetoed: no new action */
    gait_traverse_info ti;
    gait_character_traverse_info(w, id, &ti);
    CHECK(strcmp(ti.scan.reason, "ok") == 0);
    free(buf);
    gait_world_destroy(w);
}

TEST(crouch_walks_off_a_ledge_under_a_low_ceiling_falls_and_lands_crouched) {
    gait_world *w = bw_world(NULL);
    bw_flat(w);
    bw_box(w, -3, 0, -3, 3, 0.5, 2);     /* a raised floor, 0.5 m: a drop past the step at z = 2 */
    bw_box(w, -3, 1.6, -3, 3, 1.8, 6);   /* a ceiling at 1.6 m: 1.1 m over the raised floor */
    gait_character_id id = bw_spawn(w, 0, 0.6, 0, 100);
    bw_input(w, id, 0, 0, 0, GAIT_BUTTON_CROUCH);
    gait_world_step(w);
    CHECK_EQ_INT(bw_info(w, id).phase.state, GAIT_STATE_CROUCH);
    bool fell = false, air = false;
    double worst = 0;
    for (int k = 0; k < 240; k++) {
        bw_input(w, id, 0, 1, 0, 0);
        gait_world_step(w);
        gait_character_info i = bw_info(w, id);
        gait_traverse_info t;
        gait_character_traverse_info(w, id, &t);
        if (i.phase.state == GAIT_STATE_FALL) fell = true;
        if (t.crouch_air) air = true;
        bool crouched = i.phase.state == GAIT_STATE_CROUCH || t.crouch_air;
        double d = overlap_depth(w, i.position, 0.3, crouched ? 1.0 : 1.7);
        if (d > worst) worst = d;
        if (i.position.z > 4) break;
    }
    gait_character_info e = bw_info(w, id);
    CHECK(fell);
    CHECK(air);
    CHECK_MSG(worst < 0.01, "overlap %g m", worst);
    CHECK_EQ_INT(e.phase.state, GAIT_STATE_CROUCH); /* landed crouched: no room to stand there */
    CHECK_NEAR(e.position.y, 0, 0.005);
    gait_world_destroy(w);
}
