/* The golden simulation hash: a fixed set of courses, each played at several frame rates through
 * gait_world_update (the host's path), hashing the whole simulation state after every frame. The
 * expected hashes are committed below: a change that moves any body by one bit, in any state,
 * fails here, and a change meant to alter behaviour updates the table on purpose
 * (`GOLDEN_PRINT=1 build/tests/test_golden` prints it). Box2D's determinism test does the same
 * for its scenes.
 *
 * Each course also names what it must make happen (states entered, traversal actions played,
 * crouch checks taken, a drowning's return) and fails when a frame rate misses one, so the
 * hash guards behaviour that really ran; a last test checks that the courses together enter every
 * state.
 *
 * `GOLDEN_TRACE=climb GOLDEN_RATE=1 build/tests/test_golden golden_climb` prints a course frame by
 * frame (rate 0..3: 30 fps, 60 fps, 144 fps, uneven).
 *
 * The hashes hold for this build's toolchain (doubles, -ffp-contract=off, glibc's libm): another
 * libm may round sin/cos/atan2 differently and needs its own table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_fixtures.h"
#include "check.h"
#include "gait/motion.h"

/* ---- what a course must make happen ---------------------------------------------------------- */

enum {
    SEEN_VAULT = 1u << 0,
    SEEN_HURDLE = 1u << 1,
    SEEN_MANTLE_LOW = 1u << 2,
    SEEN_MANTLE_HIGH = 1u << 3,
    SEEN_AUTO_CROUCH = 1u << 4,   /* a low opening crouched the body by itself */
    SEEN_STAND_BLOCKED = 1u << 5, /* the stand-up check refused */
    SEEN_CROUCH_AIR = 1u << 6,    /* fell with the crouched capsule */
    SEEN_OVER_TOP = 1u << 7,      /* from a climb onto its feet */
    SEEN_DROWN_RETURN = 1u << 8,  /* a drowning brought the body back */
    SEEN_KIT_ACTION = 1u << 9,    /* a kit action held the body */
};

#define STATE_BIT(s) (1u << (s))

typedef struct course_run {
    gait_world *w;
    gait_character_id ids[4];
    int count;
    double t;          /* s played so far (the sum of frame seconds) */
    double fs;         /* s of the frame about to run */
    int stage;         /* the course's own progress */
    double stage_t;    /* s the stage began at */
} course_run;

typedef struct course {
    const char *name;
    double seconds;                       /* how long it plays */
    void (*build)(course_run *r);
    void (*drive)(course_run *r, double s); /* sets this frame's inputs; s: seconds into the stage */
    uint32_t states, seen;                /* what it must enter and make happen */
} course;

/* look_yaw in rad/s, so a course turns alike at every frame rate */
static void input(course_run *r, int i, double mx, double my, uint32_t held, uint32_t pressed,
                  double look_yaw) {
    bw_input_look(r->w, r->ids[i], mx, my, held, pressed, look_yaw * r->fs); /* this frame's part */
}

static gait_character_info info(course_run *r, int i) { return bw_info(r->w, r->ids[i]); }

/* A world on flat ground (128 m square at height 0). */
static void flat_course(course_run *r) {
    r->w = bw_world(NULL);
    bw_flat(r->w);
}

/* The course's only body, at (x, y, z) with 100 stamina. */
static void one_body_at(course_run *r, double x, double y, double z) {
    r->ids[0] = bw_spawn(r->w, x, y, z, 100);
    r->count = 1;
}

static void next_stage(course_run *r) {
    r->stage++;
    r->stage_t = r->t;
}

static double in_stage(const course_run *r) { return r->t - r->stage_t; }

/* ---- the courses ------------------------------------------------------------------------------ */

/* On foot along a 1.5 m platform: idle, walk, run, dash into a sprint, a jump, off the end into a
 * fall, a landing, up a flight of 0.25 m stairs, a kit action that holds the body. */
static void foot_build(course_run *r) {
    flat_course(r);
    bw_box(r->w, -10, 0, -3, 10, 1.5, 25);
    for (int k = 0; k < 6; k++) bw_box(r->w, -10, 0, 34 + 0.4 * k, 10, 0.25 * (k + 1), 40);
    one_body_at(r, 0, 1.5, 0);
}

static void foot_drive(course_run *r, double s) {
    switch (r->stage) {
    case 0: input(r, 0, 0, 0, 0, 0, 0); if (s >= 0.5) next_stage(r); break;   /* idle */
    case 1: input(r, 0, 0, 0, 0, GAIT_BUTTON_WALK, 0); next_stage(r); break;  /* walk on */
    case 2: input(r, 0, 0, 1, 0, 0, 0); if (s >= 1.0) next_stage(r); break;
    case 3: input(r, 0, 0, 1, 0, GAIT_BUTTON_WALK, 0); next_stage(r); break;  /* walk off: run */
    case 4: input(r, 0, 0.1, 1, 0, 0, 0.3); if (s >= 1.0) next_stage(r); break;
    case 5: input(r, 0, 0, 1, GAIT_BUTTON_SPRINT, GAIT_BUTTON_SPRINT, 0); next_stage(r); break;
    case 6: input(r, 0, 0, 1, GAIT_BUTTON_SPRINT, 0, -0.3); if (s >= 1.2) next_stage(r); break;
    case 7: input(r, 0, 0, 1, 0, 0, 0); if (s >= 0.3) next_stage(r); break;
    case 8: input(r, 0, 0, 1, 0, GAIT_BUTTON_JUMP, 0); next_stage(r); break;
    case 9: input(r, 0, 0, 1, 0, 0, 0); if (s >= 3.0) next_stage(r); break;  /* off the end */
    case 10:
        gait_character_start_action(r->w, r->ids[0], 0.5, "hold");
        input(r, 0, 0, 1, 0, 0, 0);
        next_stage(r);
        break;
    default: input(r, 0, 0.3, 1, 0, 0, 0.5); break;
    }
}

/* An 8 m landmark wall: a run into it climbs, a climb jump, a drop, the fall re-catches the wall,
 * up to the top and over it (the climb's mantle), along it and off its far side. */
static void climb_build(course_run *r) {
    flat_course(r);
    bw_box(r->w, -3, 0, 2, 3, 8, 6);
    one_body_at(r, 0, 0, 0);
}

static void climb_drive(course_run *r, double s) {
    gait_state st = info(r, 0).phase.state;
    switch (r->stage) {
    case 0: input(r, 0, 0, 1, 0, 0, 0); if (st == GAIT_STATE_CLIMB && s >= 1.0) next_stage(r); break;
    case 1: input(r, 0, 0, 1, 0, GAIT_BUTTON_JUMP, 0); next_stage(r); break;
    case 2: input(r, 0, 0.3, 0.5, 0, 0, 0); if (s >= 0.7) next_stage(r); break;
    case 3: input(r, 0, 0, 1, 0, GAIT_BUTTON_DROP, 0); next_stage(r); break;
    case 4: input(r, 0, 0, 1, 0, 0, 0); if (st == GAIT_STATE_FALL) next_stage(r); break;
    default: input(r, 0, 0, 1, 0, 0, 0); break;
    }
}

/* A terrain cliff (76 deg, 6 m): climbed held to its surface, over the top onto the plateau by a
 * mantle (as a landmark wall's top), a rest there, on again. */
static double cliff(double x, double z) {
    (void)x;
    if (z < 2) return 0;
    if (z > 3.5) return 6;
    return (z - 2) * 4;
}

static void cliff_build(course_run *r) {
    r->w = bw_world(NULL);
    bw_terrain(r->w, cliff, -16, -16, 128, 0.25);
    one_body_at(r, 0, 0, 0);
}

static void cliff_drive(course_run *r, double s) {
    gait_state st = info(r, 0).phase.state;
    switch (r->stage) {
    case 0: input(r, 0, 0, 1, 0, 0, 0); if (st == GAIT_STATE_CLIMB) next_stage(r); break;
    case 1: input(r, 0, 0.3, 1, 0, 0, 0); if (gait_state_on_foot(st)) next_stage(r); break;
    case 2: input(r, 0, 0, 0, 0, 0, 0); if (s >= 0.5) next_stage(r); break;
    default: input(r, 0, -0.2, 1, 0, 0, 0); break;
    }
}

/* A 20 m tower: off its edge, the glider opens, closes, opens again, a plunge to the ground; a
 * second body glides into a wall ahead and catches it. */
static void glide_build(course_run *r) {
    flat_course(r);
    bw_box(r->w, -3, 0, -3, 3, 20, 3);
    bw_box(r->w, 20, 0, -3, 26, 20, 3);
    bw_box(r->w, 18, 0, 12, 28, 30, 15);
    r->ids[0] = bw_spawn(r->w, 0, 21, 0, 100);
    r->ids[1] = bw_spawn(r->w, 23, 21, 0, 100);
    r->count = 2;
}

static void glide_drive(course_run *r, double s) {
    gait_character_info a = info(r, 0), b = info(r, 1);
    bool b_jump = b.phase.state == GAIT_STATE_FALL && b.contact.height_above_ground > 10;
    input(r, 1, 0, 1, 0, b_jump ? GAIT_BUTTON_JUMP : 0, 0);
    switch (r->stage) {
    case 0: input(r, 0, 0, 1, 0, 0, 0); if (a.phase.state == GAIT_STATE_FALL) next_stage(r); break;
    case 1: input(r, 0, 0, 1, 0, 0, 0); if (s >= 0.1) next_stage(r); break;
    case 2: input(r, 0, 0, 1, 0, GAIT_BUTTON_JUMP, 0); next_stage(r); break;        /* open */
    case 3: input(r, 0, 0.5, 1, 0, 0, 1.0); if (s >= 1.0) next_stage(r); break;
    case 4: input(r, 0, 0, 1, 0, GAIT_BUTTON_JUMP, 0); next_stage(r); break;        /* close */
    case 5: input(r, 0, 0, 1, 0, 0, 0); if (s >= 0.2) next_stage(r); break;
    case 6: input(r, 0, 0, 1, 0, GAIT_BUTTON_JUMP, 0); next_stage(r); break;        /* reopen */
    case 7: input(r, 0, 0, 1, 0, 0, 0); if (s >= 0.5) next_stage(r); break;
    case 8: input(r, 0, 0, 0, 0, GAIT_BUTTON_ATTACK, 0); next_stage(r); break;      /* plunge */
    default: input(r, 0, 0, 0, 0, 0, 0); break;
    }
}

/* A beach into a 5 m deep lake: wading, swimming, treading water, a swim dash that drains the
 * pool, drowning and the return; a second body jumps into the deep water from a pier. */
static double beach(double x, double z) {
    (void)x;
    double h = 0.5 - 0.25 * z;
    return h < -5 ? -5 : (h > 0.5 ? 0.5 : h);
}

static void water_build(course_run *r) {
    r->w = bw_world(NULL);
    bw_terrain(r->w, beach, -32, -32, 128, 0.5);
    gait_water_region reg = {-32, 0, 32, 32, 0.0};
    gait_collider_add_water(gait_world_collider(r->w), &reg, NULL);
    bw_box(r->w, 8, -5, -2, 10, 1.0, 12);
    gait_character_def d = gait_default_character_def(); /* a small pool: drowns sooner */
    d.position.y = 1;
    d.position.z = -2;
    d.stamina.max = 50;
    gait_character_create(r->w, &d, &r->ids[0]);
    r->ids[1] = bw_spawn(r->w, 9, 1.0, 0, 100);
    r->count = 2;
}

static void water_drive(course_run *r, double s) {
    gait_character_info a = info(r, 0), b = info(r, 1);
    /* the second body runs off the pier's end into deep water and swims on */
    bool b_jump = b.position.z > 11.2 && gait_state_on_foot(b.phase.state);
    input(r, 1, 0, 1, 0, b_jump ? GAIT_BUTTON_JUMP : 0, 0);
    switch (r->stage) {
    case 0: input(r, 0, 0, 1, 0, 0, 0); if (a.phase.state == GAIT_STATE_SWIM) next_stage(r); break;
    case 1: input(r, 0, 0, 1, 0, 0, 0); if (s >= 1.0) next_stage(r); break;
    case 2: input(r, 0, 0, 0, 0, 0, 0); if (s >= 1.5) next_stage(r); break;          /* tread */
    case 3: input(r, 0, 0, 1, GAIT_BUTTON_SPRINT, GAIT_BUTTON_SPRINT, 0); next_stage(r); break;
    case 4: input(r, 0, 0.2, 1, GAIT_BUTTON_SPRINT, 0, 0); if (s >= 0.8) next_stage(r); break;
    case 5: input(r, 0, 0, 1, 0, 0, 0); if (s >= 0.3) next_stage(r); break;          /* swim on */
    case 6: input(r, 0, 0, 1, GAIT_BUTTON_SPRINT, GAIT_BUTTON_SPRINT, 0); next_stage(r); break;
    default: /* round in circles until the pool is empty */
        input(r, 0, 0.8, 0.6, GAIT_BUTTON_SPRINT, 0, 1.0);
        break;
    }
}

/* A row of obstacles along +z: a walking vault, a running hurdle, a low mantle onto a deep block,
 * a high mantle onto a taller one on top of it. Jump is pressed a set distance before each. */
static void traverse_build(course_run *r) {
    flat_course(r);
    bw_box(r->w, -2, 0, 4, 2, 1, 4.3);      /* vault: 1 m high, 0.3 m deep */
    bw_box(r->w, -2, 0, 14, 2, 0.9, 14.3);  /* hurdle: 0.9 m high, floor behind */
    bw_box(r->w, -2, 0, 22, 2, 1.0, 40);    /* mantle low: 1 m onto a deep block */
    bw_box(r->w, -2, 1.0, 28, 2, 3.2, 40);  /* mantle high: 2.2 m above that block */
    one_body_at(r, 0, 0, 0);
}

static void traverse_drive(course_run *r, double s) {
    gait_character_info a = info(r, 0);
    static const double press_at[] = {2.6, 10.8, 20.2, 26.0};
    switch (r->stage) {
    case 0: input(r, 0, 0, 0, 0, GAIT_BUTTON_WALK, 0); next_stage(r); break;
    case 1: case 3: case 4: case 5: {
        int k = r->stage == 1 ? 0 : r->stage - 2;
        input(r, 0, 0, 1, 0, a.position.z >= press_at[k] ? GAIT_BUTTON_JUMP : 0, 0);
        if (a.position.z >= press_at[k]) next_stage(r);
        break;
    }
    case 2: /* past the vault: walk off, run on */
        input(r, 0, 0, 1, 0, a.position.z > 6 ? GAIT_BUTTON_WALK : 0, 0);
        if (a.position.z > 6) next_stage(r);
        break;
    default: input(r, 0, 0, 1, 0, 0, 0); break;
    }
}

/* A 0.9 m vent through a wall: walked into, crossed crouched by itself, stood up beyond. */
static void vent_build(course_run *r) {
    flat_course(r);
    bw_box(r->w, -3, 0.9, 4, 3, 3, 6);
    bw_box(r->w, -3, 0, 4, -0.5, 0.9, 6);
    bw_box(r->w, 0.5, 0, 4, 3, 0.9, 6);
    one_body_at(r, 0, 0, 0);
}

static void vent_drive(course_run *r, double s) { input(r, 0, 0, 1, 0, 0, 0); }

/* A 1.2 m ceiling: crouched under it, the switch off is refused until the body is out; a second
 * body crouch-walks off a raised floor under a low ceiling, falls crouched and lands crouched. */
static void crouch_build(course_run *r) {
    flat_course(r);
    bw_box(r->w, -3, 1.2, 2, 3, 1.5, 8);
    bw_box(r->w, 7, 0, -3, 13, 0.5, 2);
    bw_box(r->w, 7, 1.6, -3, 13, 1.8, 6);
    r->ids[0] = bw_spawn(r->w, 0, 0, 0, 100);
    r->ids[1] = bw_spawn(r->w, 10, 0.6, 0, 100);
    r->count = 2;
}

static void crouch_drive(course_run *r, double s) {
    uint32_t first = r->t == 0 ? GAIT_BUTTON_CROUCH : 0;
    input(r, 1, 0, first ? 0 : 1, 0, first, 0);
    switch (r->stage) {
    case 0: input(r, 0, 0, 0, 0, GAIT_BUTTON_CROUCH, 0); next_stage(r); break;
    case 1: input(r, 0, 0, 1, 0, 0, 0); if (s >= 3.0) next_stage(r); break;
    case 2: input(r, 0, 0, 0, 0, GAIT_BUTTON_CROUCH, 0); next_stage(r); break;  /* refused */
    case 3: input(r, 0, 0, 0, 0, 0, 0); if (s >= 0.5) next_stage(r); break;
    default: input(r, 0, 0, 1, 0, 0, 0); break;
    }
}

/* Four bodies of different types on rolling hills among boxes, the camera turning: every body
 * type's numbers (one measured), the follow camera against geometry, the order of the crowd. */
static double hills(double x, double z) { return 0.8 * sin(0.3 * x) * cos(0.25 * z) + 0.05 * x; }

static void crowd_build(course_run *r) {
    r->w = bw_world(NULL);
    bw_terrain(r->w, hills, -32, -32, 64, 1.0);
    for (int k = 0; k < 6; k++)
        bw_box(r->w, -10 + 4 * k, -1, 3 + (k % 3), -8.5 + 4 * k, 1.5 + 0.5 * k, 4.5 + (k % 3));
    gait_locomotion m = gait_default_locomotion();
    m.run_speed = 6.1;
    m.capsule_height = 1.85;
    m.jump_height = 1.0;
    gait_world_set_locomotion(r->w, GAIT_BODY_TALL_MALE, &m);
    static const gait_body_type types[4] = {GAIT_BODY_MEDIUM_FEMALE, GAIT_BODY_TALL_MALE,
                                            GAIT_BODY_SHORT_FEMALE, GAIT_BODY_MEDIUM_MALE};
    for (int i = 0; i < 4; i++) {
        gait_character_def d = gait_default_character_def();
        d.position.x = -6 + 4 * i;
        d.position.y = 3;
        d.position.z = -4;
        d.yaw = 0.3 * i;
        d.body_type = types[i];
        gait_character_create(r->w, &d, &r->ids[i]);
    }
    r->count = 4;
}

static void crowd_drive(course_run *r, double s) {
    int tick = (int)(r->t * 2); /* half seconds */
    bool new_tick = tick != r->stage;
    r->stage = tick;
    for (int i = 0; i < r->count; i++) {
        double a = 0.7 * r->t + 1.3 * i;
        uint32_t press = new_tick && (tick + i) % 5 == 0 ? GAIT_BUTTON_JUMP : 0;
        input(r, i, 0.6 * sin(a), 0.8 + 0.2 * cos(a), 0, press, 0.25 * (i + 1));
    }
}

/* Kits that move the body (gait/motion.h): a launch, a keyframed leap that opens the glider, a
 * plunge, a move to points into a wall, a mode's run over a bounce pad, an updraft. */
static void kit_build(course_run *r) {
    r->w = bw_world(NULL);
    bw_flat(r->w);
    bw_box(r->w, -6, 0, 16, 6, 4, 17);
    gait_gadget_def pad = gait_default_gadget_def(GAIT_GADGET_BOUNCE);
    pad.position.x = 2;
    pad.position.z = -8;
    pad.height = 5;
    gait_world_add_gadget(r->w, &pad, NULL);
    gait_gadget_def up = gait_default_gadget_def(GAIT_GADGET_UPDRAFT);
    up.position.x = 2;
    up.position.z = -16;
    up.height = 10;
    gait_world_add_gadget(r->w, &up, NULL);
    one_body_at(r, 0, 0, 0);
}

static void kit_drive(course_run *r, double s) {
    gait_character_id id = r->ids[0];
    gait_character_info ci = info(r, 0);
    bool foot = gait_state_on_foot(ci.phase.state);
    switch (r->stage) {
    case 0:
        input(r, 0, 0, 0, 0, 0, 0);
        if (s >= 0.3) {
            gait_launch_def l = {{0, 10, 3}, GAIT_FRAME_BODY, false};
            gait_character_launch(r->w, id, &l);
            next_stage(r);
        }
        break;
    case 1: input(r, 0, 0, 1, 0, 0, 0); if (foot && s >= 0.3) next_stage(r); break;
    case 2: {
        gait_move_def d = gait_default_move_def();
        d.kind = GAIT_MOVE_KEYS;
        d.key_count = 2;
        d.keys[0] = (gait_move_key){0, {0, 16, 1}};
        d.keys[1] = (gait_move_key){0.8, {0, 0, 0}};
        d.seconds = 0.8;
        d.then = GAIT_THEN_GLIDE;
        d.start_cost = 10;
        gait_character_start_move(r->w, id, &d);
        input(r, 0, 0, 0, 0, 0, 0);
        next_stage(r);
        break;
    }
    case 3: input(r, 0, 0.4, 1, 0, 0, 0.5); if (ci.phase.state == GAIT_STATE_GLIDE && s >= 1.5) next_stage(r); break;
    case 4: input(r, 0, 0, 0, 0, GAIT_BUTTON_ATTACK, 0); next_stage(r); break;
    case 5: input(r, 0, 0, 0, 0, 0, 0); if (foot && s >= 0.2) next_stage(r); break;
    case 6: {
        gait_move_def d = bw_ground_move((gait_vec3){2, 0, 4}, (gait_vec3){2, 0, 30}, 18, 3);
        d.end_on = GAIT_END_WALL;
        gait_character_start_move(r->w, id, &d);
        next_stage(r);
        break;
    }
    case 7:
        input(r, 0, 0, 0, 0, 0, 0);
        if (foot && s >= 0.2) {
            gait_mode_def md = gait_default_mode_def();
            md.state = GAIT_STATE_RUN;
            md.speed = 8;
            md.drain_per_s = 4;
            gait_character_set_mode(r->w, id, &md);
            gait_character_set_cooldown(r->w, id, GAIT_BUTTON_SKILL, 2);
            gait_character_set_camera_yaw(r->w, id, 0);
            next_stage(r);
        }
        break;
    default: input(r, 0, 0, -1, 0, 0, 0); break; /* back over the pad, into the updraft */
    }
}

static const course courses[] = {
    {"foot", 12.0, foot_build, foot_drive,
     STATE_BIT(GAIT_STATE_IDLE) | STATE_BIT(GAIT_STATE_WALK) | STATE_BIT(GAIT_STATE_RUN) |
         STATE_BIT(GAIT_STATE_DASH) | STATE_BIT(GAIT_STATE_SPRINT) | STATE_BIT(GAIT_STATE_JUMP) |
         STATE_BIT(GAIT_STATE_FALL),
     SEEN_KIT_ACTION},
    {"climb", 12.0, climb_build, climb_drive,
     STATE_BIT(GAIT_STATE_CLIMB) | STATE_BIT(GAIT_STATE_CLIMB_JUMP) | STATE_BIT(GAIT_STATE_FALL) |
         STATE_BIT(GAIT_STATE_TRAVERSE) | STATE_BIT(GAIT_STATE_RUN),
     SEEN_MANTLE_LOW},
    {"cliff", 10.0, cliff_build, cliff_drive,
     STATE_BIT(GAIT_STATE_CLIMB) | STATE_BIT(GAIT_STATE_TRAVERSE) | STATE_BIT(GAIT_STATE_IDLE) |
         STATE_BIT(GAIT_STATE_RUN),
     SEEN_MANTLE_LOW},
    {"glide", 10.0, glide_build, glide_drive,
     STATE_BIT(GAIT_STATE_FALL) | STATE_BIT(GAIT_STATE_GLIDE) | STATE_BIT(GAIT_STATE_PLUNGE) |
         STATE_BIT(GAIT_STATE_CLIMB) | STATE_BIT(GAIT_STATE_IDLE),
     0},
    {"water", 16.0, water_build, water_drive,
     STATE_BIT(GAIT_STATE_SWIM) | STATE_BIT(GAIT_STATE_SWIM_DASH) | STATE_BIT(GAIT_STATE_DROWN) |
         STATE_BIT(GAIT_STATE_JUMP),
     SEEN_DROWN_RETURN},
    {"traverse", 14.0, traverse_build, traverse_drive,
     STATE_BIT(GAIT_STATE_TRAVERSE) | STATE_BIT(GAIT_STATE_WALK) | STATE_BIT(GAIT_STATE_RUN),
     SEEN_VAULT | SEEN_HURDLE | SEEN_MANTLE_LOW | SEEN_MANTLE_HIGH},
    {"vent", 6.0, vent_build, vent_drive, STATE_BIT(GAIT_STATE_CROUCH) | STATE_BIT(GAIT_STATE_RUN),
     SEEN_AUTO_CROUCH | SEEN_STAND_BLOCKED},
    {"crouch", 9.0, crouch_build, crouch_drive,
     STATE_BIT(GAIT_STATE_CROUCH) | STATE_BIT(GAIT_STATE_FALL) | STATE_BIT(GAIT_STATE_RUN),
     SEEN_STAND_BLOCKED | SEEN_CROUCH_AIR},
    {"crowd", 10.0, crowd_build, crowd_drive,
     STATE_BIT(GAIT_STATE_RUN) | STATE_BIT(GAIT_STATE_JUMP) | STATE_BIT(GAIT_STATE_FALL), 0},
    {"kit", 14.0, kit_build, kit_drive,
     STATE_BIT(GAIT_STATE_ACTION) | STATE_BIT(GAIT_STATE_JUMP) | STATE_BIT(GAIT_STATE_GLIDE) |
         STATE_BIT(GAIT_STATE_PLUNGE) | STATE_BIT(GAIT_STATE_RUN) | STATE_BIT(GAIT_STATE_FALL),
     0},
};
#define COURSES ((int)(sizeof courses / sizeof courses[0]))

/* ---- frame rates ------------------------------------------------------------------------------ */

/* Fixed rates and one uneven one (a frame's seconds cycling through a few values, some running
 * no step and some several). */
static const char *const rate_names[] = {"30fps", "60fps", "144fps", "uneven"};
#define RATES 4
static const double uneven[] = {1.0 / 50, 1.0 / 144, 1.0 / 33, 1.0 / 90, 1.0 / 240, 0.041};

static double frame_seconds(int rate, long frame) {
    switch (rate) {
    case 0: return 1.0 / 30;
    case 1: return 1.0 / 60;
    case 2: return 1.0 / 144;
    default: return uneven[frame % (long)(sizeof uneven / sizeof uneven[0])];
    }
}

/* ---- the hash --------------------------------------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}
static uint64_t fnv_u(uint64_t h, uint64_t v) { return fnv(h, &v, sizeof v); }
static uint64_t fnv_d(uint64_t h, double v) { return fnv(h, &v, sizeof v); }
static uint64_t fnv_v(uint64_t h, gait_vec3 v) { return fnv_d(fnv_d(fnv_d(h, v.x), v.y), v.z); }

/* What the traversal and the crouch show, member by member (no padding bytes). */
static uint64_t hash_traverse(uint64_t h, const gait_traverse_info *t) {
    h = fnv_u(fnv_u(fnv_u(h, (uint64_t)t->kind), (uint64_t)t->phase), (uint64_t)t->actions);
    h = fnv_d(fnv_d(fnv_d(h, t->seconds), t->corridor), t->cooldown);
    h = fnv_v(fnv_v(fnv_v(h, t->corridor_origin), t->latch_min), t->latch_max);
    h = fnv_u(h, (uint64_t)t->latch | (uint64_t)t->auto_crouch << 1 |
                     (uint64_t)t->stand_blocked << 2 | (uint64_t)t->crouch_air << 3 |
                     (uint64_t)t->scan.ok << 4 | (uint64_t)t->scan.thick << 5 |
                     (uint64_t)t->scan.back_floor << 6);
    h = fnv_d(fnv_d(h, t->scan.height), t->scan.depth);
    return fnv_v(h, t->scan.grab);
}

typedef struct played {
    uint64_t hash;
    uint32_t states, seen;
    long frames, steps;
} played;

static played play(const course *c, int rate) {
    played p;
    memset(&p, 0, sizeof p);
    p.hash = 14695981039346656037ull;
    course_run r;
    memset(&r, 0, sizeof r);
    c->build(&r);
    const char *trace = getenv("GOLDEN_TRACE");
    int trace_rate = getenv("GOLDEN_RATE") ? atoi(getenv("GOLDEN_RATE")) : 1;
    gait_state last[4];
    for (int i = 0; i < r.count; i++) last[i] = info(&r, i).phase.state;
    for (long f = 0; r.t < c->seconds; f++) {
        double fs = frame_seconds(rate, f);
        r.fs = fs;
        c->drive(&r, in_stage(&r));
        int steps = 0;
        gait_world_update(r.w, fs, &steps);
        r.t += fs;
        p.frames++;
        p.steps += steps;
        p.hash = fnv_u(p.hash, gait_world_state_hash(r.w));
        for (int i = 0; i < r.count; i++) {
            gait_character_info ci = info(&r, i);
            gait_traverse_info t;
            gait_character_traverse_info(r.w, r.ids[i], &t);
            p.hash = hash_traverse(p.hash, &t);
            p.states |= STATE_BIT(ci.phase.state) | STATE_BIT(ci.previous_state);
            if (ci.phase.state == GAIT_STATE_TRAVERSE) {
                if (t.kind == GAIT_TRAVERSE_VAULT) p.seen |= SEEN_VAULT;
                if (t.kind == GAIT_TRAVERSE_HURDLE) p.seen |= SEEN_HURDLE;
                if (t.kind == GAIT_TRAVERSE_MANTLE_LOW) p.seen |= SEEN_MANTLE_LOW;
                if (t.kind == GAIT_TRAVERSE_MANTLE_HIGH) p.seen |= SEEN_MANTLE_HIGH;
            }
            if (t.auto_crouch) p.seen |= SEEN_AUTO_CROUCH;
            if (t.stand_blocked) p.seen |= SEEN_STAND_BLOCKED;
            if (t.crouch_air) p.seen |= SEEN_CROUCH_AIR;
            if (last[i] == GAIT_STATE_CLIMB && gait_state_on_foot(ci.phase.state))
                p.seen |= SEEN_OVER_TOP;
            if (last[i] == GAIT_STATE_DROWN && ci.phase.state != GAIT_STATE_DROWN)
                p.seen |= SEEN_DROWN_RETURN;
            if (ci.action_seconds_left > 0) p.seen |= SEEN_KIT_ACTION;
            last[i] = ci.phase.state;
            if (trace && !strcmp(trace, c->name) && rate == trace_rate)
                printf("%s %ld t %.3f ch %d %-10s %8.3f %8.3f %8.3f stamina %6.2f stage %d\n", c->name, f,
                       r.t, i, gait_state_name(ci.phase.state), ci.position.x, ci.position.y,
                       ci.position.z, ci.stamina, r.stage);
        }
    }
    gait_world_destroy(r.w);
    return p;
}

/* ---- the committed hashes --------------------------------------------------------------------- */

typedef struct golden_row {
    const char *course, *rate;
    uint64_t hash;
} golden_row;

static const golden_row golden[] = {
#include "golden_hashes.h"
};
#define GOLDEN ((int)(sizeof golden / sizeof golden[0]))

static const golden_row *expected(const char *name, const char *rate) {
    for (int i = 0; i < GOLDEN; i++)
        if (!strcmp(golden[i].course, name) && !strcmp(golden[i].rate, rate)) return &golden[i];
    return NULL;
}

static void names(uint32_t bits, bool states, char *out, size_t cap) {
    static const char *const seen_names[] = {"vault", "hurdle", "mantle_low", "mantle_high",
                                             "auto_crouch", "stand_blocked", "crouch_air",
                                             "over_top", "drown_return", "kit_action"};
    out[0] = 0;
    for (int b = 0; b < 32; b++) {
        if (!(bits & (1u << b))) continue;
        const char *n = states ? gait_state_name((gait_state)b)
                               : (b < 10 ? seen_names[b] : "?");
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", len ? " " : "", n ? n : "?");
    }
}

static void course_case(int index) {
    const course *c = &courses[index];
    bool print = getenv("GOLDEN_PRINT") != NULL;
    for (int rate = 0; rate < RATES; rate++) {
        played p = play(c, rate);
        char miss[256];
        names(c->states & ~p.states, true, miss, sizeof miss);
        CHECK_MSG((c->states & ~p.states) == 0, "%s at %s: never entered %s", c->name,
                  rate_names[rate], miss);
        names(c->seen & ~p.seen, false, miss, sizeof miss);
        CHECK_MSG((c->seen & ~p.seen) == 0, "%s at %s: never saw %s", c->name, rate_names[rate],
                  miss);
        const golden_row *g = expected(c->name, rate_names[rate]);
        if (print) printf("    {\"%s\", \"%s\", 0x%016llxull},\n", c->name, rate_names[rate],
                          (unsigned long long)p.hash);
        CHECK_MSG(g != NULL, "%s at %s: no committed hash (GOLDEN_PRINT=1 prints the table)",
                  c->name, rate_names[rate]);
        if (g)
            CHECK_MSG(g->hash == p.hash,
                      "%s at %s: state hash 0x%016llx, committed 0x%016llx (%ld frames, %ld steps): "
                      "the simulation changed. If that is meant, GOLDEN_PRINT=1 prints the new "
                      "table for tests/unit/golden_hashes.h",
                      c->name, rate_names[rate], (unsigned long long)p.hash,
                      (unsigned long long)g->hash, p.frames, p.steps);
    }
}

__attribute__((constructor)) static void register_courses(void) {
    static char names_buf[COURSES][48];
    for (int i = 0; i < COURSES; i++) {
        snprintf(names_buf[i], sizeof names_buf[i], "golden_%s", courses[i].name);
        check_register_case(names_buf[i], course_case, i);
    }
}

TEST(golden_courses_enter_every_state) {
    uint32_t all = 0;
    for (int i = 0; i < COURSES; i++) all |= courses[i].states;
    for (int s = 0; s < GAIT_STATE_COUNT; s++)
        CHECK_MSG(all & STATE_BIT(s), "no course enters %s", gait_state_name((gait_state)s));
    CHECK_EQ_INT(GOLDEN, COURSES * RATES); /* every course at every rate, nothing stale */
}
