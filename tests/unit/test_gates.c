/* The gates as a pure function (runtime/src/character/gates.c): the crouch's rules and the
 * traversal's transitions around the locomotion state machine, case by case, with no world —
 * the contact, the sense stage's readings and the rules' memory are plain values. */
#include <string.h>

#include "character/gates.h"
#include "character/traverse_internal.h"
#include "check.h"

typedef struct gate_case {
    gait__gates_in in;
    gait_contact contact;
    gait__senses senses;
    gait_locomotion numbers;
} gate_case;

/* Standing on dry ground, idle, nothing pressed, a full pool, a traversal table with rows. */
static void base(gate_case *c, gait_state state) {
    memset(c, 0, sizeof *c);
    c->numbers = gait_default_locomotion();
    c->contact.grounded = true;
    c->senses.offer = GAIT_TRAVERSE_NONE;
    c->senses.offer_row = -1;
    c->in.phase.state = state;
    c->in.phase.seconds = 1;
    c->in.input.stamina = 100;
    c->in.input.stamina_multiplier = 1;
    c->in.contact = &c->contact;
    c->in.senses = &c->senses;
    c->in.numbers = &c->numbers;
    c->in.can_traverse = true;
    c->in.auto_stand_seconds = gait_default_traverse_table().auto_crouch_stand_seconds;
    c->in.facing.z = 1;
    c->in.dt = 1.0 / 60;
}

static void press(gate_case *c, uint32_t b) { c->in.input.pressed |= b; }
static void hold(gate_case *c, uint32_t b) { c->in.input.held |= b; }
static void stick(gate_case *c, double up) {
    c->in.input.move = up < 0 ? -up : up;
    c->in.input.move_up = up;
    c->in.move_dir.z = 1;
}

/* A scan that found a ledge with room, and the table's offer for it. */
static void ledge(gate_case *c, gait_traverse_kind offer) {
    c->senses.scanned = true;
    c->senses.scan.ok = true;
    c->senses.offer = offer;
    c->senses.offer_row = offer == GAIT_TRAVERSE_NONE ? -1 : 0;
}

static gait__gates_out run(gate_case *c);

/* The same case again with the low ceiling read (or not). */
static gait__gates_out with_ceiling(gate_case *c, bool low) {
    c->senses.low_ceiling = low;
    return run(c);
}

static gait__gates_out run(gate_case *c) {
    gait__gates_out o;
    memset(&o, 0xA5, sizeof o); /* every field the gates leave unwritten shows */
    gait__gates_propose(&c->in, &o);
    gait__gates_decide(&c->in, &o);
    return o;
}

/* ---- crouch ------------------------------------------------------------------------------- */

TEST(gates_crouch_switch_crouches_and_stands_where_there_is_room) {
    gate_case c;
    base(&c, GAIT_STATE_IDLE);
    c.in.input.crouching = true;
    CHECK_EQ_INT(run(&c).next, GAIT_STATE_CROUCH);
    base(&c, GAIT_STATE_CROUCH);
    c.in.input.crouching = false; /* switch off, room above */
    gait__gates_out o = run(&c);
    CHECK_EQ_INT(o.next, GAIT_STATE_IDLE);
    CHECK(!o.crouch.stand_blocked);
}

TEST(gates_crouch_no_standing_into_a_low_ceiling) {
    gate_case c;
    base(&c, GAIT_STATE_CROUCH);
    c.senses.low_ceiling = true;
    gait__gates_out o = run(&c); /* switch off under a ceiling */
    CHECK_EQ_INT(o.next, GAIT_STATE_CROUCH);
    CHECK(o.crouch.stand_blocked);
    base(&c, GAIT_STATE_CROUCH); /* a jump, a dash: the capsule would grow into the ceiling */
    c.in.input.crouching = true;
    c.senses.low_ceiling = true;
    press(&c, GAIT_BUTTON_JUMP);
    o = run(&c);
    CHECK_EQ_INT(o.proposed, GAIT_STATE_JUMP);
    CHECK_EQ_INT(o.next, GAIT_STATE_CROUCH);
    CHECK(o.crouch.stand_blocked);
}

TEST(gates_crouch_edge_flicker_held_then_falls_from_standing_room) {
    gate_case c;
    base(&c, GAIT_STATE_CROUCH);
    c.in.input.crouching = true;
    c.senses.low_ceiling = true;
    c.contact.grounded = false;
    c.contact.height_above_ground = 0.1; /* within the step height below */
    for (int k = 0; k < 3; k++) {
        gait__gates_out o = run(&c);
        CHECK_EQ_INT(o.next, GAIT_STATE_CROUCH);
        CHECK(!o.drop);
        CHECK_EQ_INT(o.crouch.hover, k + 1);
        c.in.crouch = o.crouch;
    }
    gait__gates_out o = run(&c); /* the fourth: a real drop */
    CHECK_EQ_INT(o.next, GAIT_STATE_FALL);
    CHECK(o.drop);
    base(&c, GAIT_STATE_CROUCH); /* a drop deeper than a step falls at once */
    c.in.input.crouching = true;
    c.senses.low_ceiling = true;
    c.contact.grounded = false;
    c.contact.height_above_ground = 2;
    o = run(&c);
    CHECK_EQ_INT(o.next, GAIT_STATE_FALL);
    CHECK(o.drop);
}

TEST(gates_crouch_low_opening_crouches_by_itself_then_stands) {
    gate_case c;
    base(&c, GAIT_STATE_RUN);
    stick(&c, 1);
    c.senses.opening = true;
    gait__gates_out o = run(&c);
    CHECK_EQ_INT(o.next, GAIT_STATE_CROUCH);
    CHECK(o.crouch.auto_crouch);
    /* crouched in the opening: no room, held; once out with room, stands */
    base(&c, GAIT_STATE_CROUCH);
    stick(&c, 1);
    c.in.crouch = o.crouch;
    o = with_ceiling(&c, true);
    CHECK_EQ_INT(o.next, GAIT_STATE_CROUCH);
    CHECK(o.crouch.auto_under);
    c.in.crouch = o.crouch;
    o = with_ceiling(&c, false);
    CHECK_EQ_INT(o.next, GAIT_STATE_RUN);
    CHECK(!o.crouch.auto_crouch);
}

/* An auto crouch whose opening is never entered stands after the table's
 * auto_crouch_stand_seconds: the tuned delay, not a number fixed in code. */
static int steps_until_auto_stand(double stand_seconds) {
    gate_case c;
    base(&c, GAIT_STATE_RUN);
    c.in.auto_stand_seconds = stand_seconds;
    stick(&c, 1);
    c.senses.opening = true;
    gait__gates_out o = run(&c);
    if (o.next != GAIT_STATE_CROUCH) return -1;
    for (int i = 1; i <= 600; i++) { /* crouched in front of it, never under: room to stand */
        gait__crouch memory = o.crouch;
        base(&c, GAIT_STATE_CROUCH);
        c.in.auto_stand_seconds = stand_seconds;
        stick(&c, 1);
        c.in.crouch = memory;
        o = with_ceiling(&c, false);
        if (o.next != GAIT_STATE_CROUCH) return i;
    }
    return 0;
}

TEST(gates_auto_crouch_stands_after_the_tuned_delay) {
    /* 60 steps a second: the first step past the delay, the crouch's own step counted (the
     * summed 1/60 s may land a rounding either side of the delay: one step of slack) */
    int one = steps_until_auto_stand(1.0), half = steps_until_auto_stand(0.5),
        two = steps_until_auto_stand(2.0);
    CHECK(one >= 59 && one <= 60);
    CHECK(half >= 29 && half <= 30);
    CHECK(two >= 119 && two <= 120);
}

TEST(gates_crouch_fall_with_crouched_capsule_lands_crouched) {
    gate_case c;
    base(&c, GAIT_STATE_FALL);
    c.in.crouch.air = true;
    c.contact.grounded = true; /* lands, still no room */
    gait__gates_out o = with_ceiling(&c, true);
    CHECK_EQ_INT(o.next, GAIT_STATE_CROUCH);
    CHECK(o.crouch.air);
    o = with_ceiling(&c, false); /* room: the capsule grows, lands standing */
    CHECK_EQ_INT(o.next, GAIT_STATE_IDLE);
    CHECK(!o.crouch.air);
}

/* ---- traversal ---------------------------------------------------------------------------- */

TEST(gates_traverse_a_press_asks_for_the_ledge_and_takes_the_offer) {
    gate_case c;
    base(&c, GAIT_STATE_RUN);
    stick(&c, 1);
    c.in.speed = 5.6;
    press(&c, GAIT_BUTTON_JUMP);
    gait__gates_out o;
    gait__gates_propose(&c.in, &o);
    CHECK(o.request.want);
    CHECK(!o.request.climbing);
    CHECK_NEAR(o.request.speed, 5.6, 0);
    ledge(&c, GAIT_TRAVERSE_VAULT);
    gait__gates_decide(&c.in, &o);
    CHECK_EQ_INT(o.next, GAIT_STATE_TRAVERSE);
    CHECK_EQ_INT(o.fallback, GAIT_STATE_JUMP);
    CHECK(o.ledge);
    CHECK_EQ_INT(o.action, GAIT_TRAVERSE_VAULT);
    ledge(&c, GAIT_TRAVERSE_NONE); /* a ledge no row fits: the press jumps */
    o = run(&c);
    CHECK_EQ_INT(o.next, GAIT_STATE_JUMP);
    CHECK(o.ledge); /* the hook may still add an action */
    c.senses.scan.ok = false; /* no ledge: jumps, nothing for the hook */
    o = run(&c);
    CHECK_EQ_INT(o.next, GAIT_STATE_JUMP);
    CHECK(!o.ledge);
}

TEST(gates_traverse_asks_nothing_without_a_jump_a_table_or_ground) {
    gate_case c;
    base(&c, GAIT_STATE_RUN);
    stick(&c, 1);
    gait__gates_out o = run(&c);
    CHECK(!o.request.want);
    press(&c, GAIT_BUTTON_JUMP);
    c.in.can_traverse = false;
    CHECK(!run(&c).request.want);
    c.in.can_traverse = true;
    base(&c, GAIT_STATE_RUN); /* a held jump waits out the cooldown */
    hold(&c, GAIT_BUTTON_JUMP);
    c.in.cooldown = 0.1;
    CHECK(!run(&c).request.want);
    c.in.cooldown = 0.01; /* less than a step: over this step */
    CHECK(run(&c).request.want);
    base(&c, GAIT_STATE_CROUCH); /* not from a crouch */
    c.in.input.crouching = true;
    press(&c, GAIT_BUTTON_JUMP);
    CHECK(!run(&c).request.want);
    base(&c, GAIT_STATE_RUN); /* not into deep water */
    press(&c, GAIT_BUTTON_JUMP);
    c.contact.water_depth = 3;
    c.contact.submersion = 1.5;
    CHECK_EQ_INT(run(&c).proposed, GAIT_STATE_SWIM);
    CHECK(!run(&c).request.want);
}

TEST(gates_traverse_plays_on_then_chains_or_ends) {
    gate_case c;
    base(&c, GAIT_STATE_TRAVERSE);
    c.in.action_playing = true;
    press(&c, GAIT_BUTTON_JUMP);
    gait__gates_out o = run(&c);
    CHECK_EQ_INT(o.next, GAIT_STATE_TRAVERSE);
    CHECK(!o.request.want);
    /* over, jump held, cooldown out: another action if the table has one */
    base(&c, GAIT_STATE_TRAVERSE);
    hold(&c, GAIT_BUTTON_JUMP);
    stick(&c, 1);
    ledge(&c, GAIT_TRAVERSE_MANTLE_LOW);
    o = run(&c);
    CHECK(o.request.want);
    CHECK_EQ_INT(o.next, GAIT_STATE_TRAVERSE);
    CHECK_EQ_INT(o.fallback, GAIT_STATE_RUN); /* the jump already spent: runs on */
    /* over in the air: falls */
    base(&c, GAIT_STATE_TRAVERSE);
    c.contact.grounded = false;
    o = run(&c);
    CHECK_EQ_INT(o.next, GAIT_STATE_FALL);
}

TEST(gates_traverse_a_climb_up_asks_for_the_ledge_over_the_wall) {
    gate_case c;
    base(&c, GAIT_STATE_CLIMB);
    c.contact.wall = true;
    c.contact.grounded = false;
    stick(&c, 1);
    c.in.wall_normal.z = -1;
    gait__gates_out o;
    gait__gates_propose(&c.in, &o);
    CHECK(o.request.want);
    CHECK(o.request.climbing);
    CHECK_NEAR(o.request.forward.z, 1, 1e-12); /* into the wall */
    ledge(&c, GAIT_TRAVERSE_MANTLE_LOW);
    gait__gates_decide(&c.in, &o);
    CHECK_EQ_INT(o.next, GAIT_STATE_TRAVERSE);
    c.in.on_terrain_wall = true; /* a terrain cliff's top is mantled over as a landmark's is */
    CHECK(run(&c).request.want);
    c.in.on_terrain_wall = false;
    stick(&c, -1); /* climbing down */
    CHECK(!run(&c).request.want);
}

TEST(gates_keep_the_cooldown_running) {
    gate_case c;
    base(&c, GAIT_STATE_IDLE);
    c.in.cooldown = 0.15;
    CHECK_NEAR(run(&c).cooldown, 0.15 - 1.0 / 60, 1e-15);
    c.in.cooldown = 0.001;
    CHECK_NEAR(run(&c).cooldown, 0, 0);
}

/* Over the top of a climb the mantle is high above the table's climb_mantle_split, low at or
 * below it: the tuned split, not a number fixed in code. */
TEST(climb_over_mantle_split_is_the_tables) {
    gait_traverse_table t = gait_default_traverse_table();
    gait_traverse_scan scan;
    memset(&scan, 0, sizeof scan);
    scan.ok = true;
    int row = 7;
    scan.height = 1.25;
    CHECK_EQ_INT(gait__traverse_offer(&t, &scan, 0, true, &row), GAIT_TRAVERSE_MANTLE_LOW);
    CHECK_EQ_INT(row, -1);
    scan.height = 1.26;
    CHECK_EQ_INT(gait__traverse_offer(&t, &scan, 0, true, &row), GAIT_TRAVERSE_MANTLE_HIGH);
    t.climb_mantle_split = 0.8;
    scan.height = 1.0;
    CHECK_EQ_INT(gait__traverse_offer(&t, &scan, 0, true, &row), GAIT_TRAVERSE_MANTLE_HIGH);
    t.climb_mantle_split = 1.5;
    scan.height = 1.4;
    CHECK_EQ_INT(gait__traverse_offer(&t, &scan, 0, true, &row), GAIT_TRAVERSE_MANTLE_LOW);
}
