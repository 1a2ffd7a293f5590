/* Forged snapshots: a buffer that lies, with its checksum computed again (anyone can: FNV-1a), is
 * refused with a message naming what lies, the world is left as it was (its own snapshot is the
 * same bytes) and steps on exactly as an untouched twin. Three corpora:
 *   - named attacks: every field class out of range (the clock of a world that never returns or
 *     freezes, NaN and huge positions, state indices, negative seconds, counters, enums, booleans,
 *     strings without an end, ids, the def of a camera out of order), lying headers (counts,
 *     sizes, capacity, layout), truncated and corrupted buffers;
 *   - a sweep of every row of the character's and the world's layout tables (layouts.h) with the
 *     values a forger would try (NaN, +-inf, +-1e300, -1, the integers' ends, 2 in a boolean, a
 *     string with no end): a refusal must name the row; a value the row takes must step on to a
 *     state that is still in range;
 *   - random bytes anywhere: refused, or stepped on in range.
 * The last two extend themselves to any row added later; under make asan they also catch a member
 * no row checks that the step indexes or divides by. */
#include "check.h"

#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#include "body_fixtures.h"
#include "state_fixtures.h"
#include "character/layouts.h"
#include "character/world_internal.h"
#include "core/layout.h"
#include "gait/motion.h"

#define CAPACITY 4
#define DT (1.0 / 60.0)

/* The header as snapshot.c writes it (format gaitsnp2). */
typedef struct header {
    char magic[8];
    uint32_t header_size, world_size, character_size, capacity, count, reserved;
    uint64_t layout, payload_size, checksum;
} header;

#define WORLD_AT sizeof(header)
#define SLOT_AT(i) (WORLD_AT + sizeof(struct gait_world) + (size_t)(i) * sizeof(gait__character))

static gait_state gate_hook(gait_world *w, gait_character_id id, gait_state from,
                            gait_state proposed, void *user) {
    (void)w, (void)id, (void)from;
    ++*(int *)user;
    return proposed;
}

static int gate_calls;
static int user_cookie;

/* The fixture's geometry: flat ground, a low box and a wall ahead of slot 1's body, water under
 * slot 3's. */
static gait_world *geometry(void) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = CAPACITY;
    gait_world *w = gait_world_create(&wd);
    bw_flat(w);
    bw_box(w, -1, 0, 5, 1, 1.0, 6);
    bw_box(w, -3, 0, 15, 3, 6, 16);
    gait_water_region water = {10, 10, 30, 30, 2.0};
    gait_collider_add_water(gait_world_collider(w), &water, NULL);
    return w;
}

/* The fixture, run: slot 2 destroyed (a dead slot with a generation), slot 4 never used, 150
 * steps of running, sprinting, jumping and swimming; slot 1 has user data and a gate hook. */
static gait_world *fixture_run(void) {
    gait_world *w = geometry();
    gait_character_def d = gait_default_character_def();
    d.user_data = &user_cookie;
    gait_character_id a, b, c;
    gait_character_create(w, &d, &a);
    d = gait_default_character_def();
    d.position = (gait_vec3){5, 0, 0};
    gait_character_create(w, &d, &b);
    d.position = (gait_vec3){20, 3, 20};
    d.body_type = GAIT_BODY_TALL_MALE;
    gait_character_create(w, &d, &c);
    gait_character_destroy(w, b);
    gait_character_set_gate_hook(w, a, gate_hook, &gate_calls);
    for (int k = 0; k < 150; k++) {
        bw_input(w, a, 0.1 * sin(k * 0.05), 1, k > 30 ? GAIT_BUTTON_SPRINT : 0,
                 (k == 30 ? GAIT_BUTTON_SPRINT : 0) | (k == 40 || k == 110 ? GAIT_BUTTON_JUMP : 0));
        bw_input_look(w, c, 1, 0.5, k > 60 ? GAIT_BUTTON_SPRINT : 0, 0, 0.01);
        gait_world_update(w, DT, NULL);
    }
    return w;
}

/* The fixture's state, run once; each later fixture is its geometry and that state restored
 * (stepping on from a restore is bit-identical: the same world). */
static unsigned char *fixture_state;
static size_t fixture_size;
static gait_world *fixture(void) {
    if (!fixture_state) {
        gait_world *w = fixture_run();
        fixture_size = gait_world_snapshot_size(w);
        fixture_state = malloc(fixture_size);
        gait_world_snapshot_save(w, fixture_state, fixture_size, NULL);
        return w;
    }
    gait_world *w = geometry();
    CHECK_EQ_INT(gait_world_snapshot_restore(w, fixture_state, fixture_size), GAIT_OK);
    return w;
}

__attribute__((destructor)) static void fixture_free(void) { free(fixture_state); }

static unsigned char *save(gait_world *w, size_t *size) {
    *size = gait_world_snapshot_size(w);
    unsigned char *buf = malloc(*size);
    CHECK_EQ_INT(gait_world_snapshot_save(w, buf, *size, NULL), GAIT_OK);
    return buf;
}

/* The checksum a forger computes: FNV-1a over the header (its checksum zero) and the payload (as
 * much of it as the buffer holds, when the header lies about its size). */
static void reseal_n(unsigned char *buf, size_t size) {
    header h;
    memcpy(&h, buf, sizeof h);
    h.checksum = 0;
    uint64_t sum = gait__fnv1a(GAIT__FNV_BASIS, &h, sizeof h);
    size_t n = h.payload_size < size - sizeof h ? (size_t)h.payload_size : size - sizeof h;
    sum = gait__fnv1a(sum, buf + sizeof h, n);
    memcpy(buf + offsetof(header, checksum), &sum, sizeof sum);
}

#define reseal(buf) reseal_n((buf), size)

static void put_d(unsigned char *p, double v) { memcpy(p, &v, sizeof v); }
static void put_i(unsigned char *p, int32_t v) { memcpy(p, &v, sizeof v); }
static void put_u32(unsigned char *p, uint32_t v) { memcpy(p, &v, sizeof v); }
static void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, sizeof v); }

/* A forged buffer must be refused with words naming the lie, leave the world's own snapshot
 * unchanged, and the world must step on as an untouched twin does. */
static void expect_refused(const char *what, const unsigned char *forged, size_t size,
                           const char *want1, const char *want2) {
    gait_world *w = fixture();
    size_t n;
    unsigned char *before = save(w, &n);
    gait_status s = gait_world_snapshot_restore(w, forged, size);
    const char *err = gait_world_last_error(w);
    CHECK_MSG(s == GAIT_ERR_FORMAT, "%s: restore gave %d (%s), wanted a refusal", what, (int)s, err);
    CHECK_MSG(strncmp(err, "snapshot: ", 10) == 0, "%s: the message says whose it is: %s", what, err);
    CHECK_MSG(!want1 || strstr(err, want1), "%s: the message does not say \"%s\": %s", what, want1,
              err);
    CHECK_MSG(!want2 || strstr(err, want2), "%s: the message does not say \"%s\": %s", what, want2,
              err);
    unsigned char *after = save(w, &n);
    CHECK_MSG(memcmp(before, after, n) == 0, "%s: the refused restore changed the world", what);
    /* steps on as a twin that never saw the buffer */
    gait_world *twin = fixture();
    for (int k = 0; k < 30; k++) {
        gait_world_update(w, DT, NULL);
        gait_world_update(twin, DT, NULL);
    }
    CHECK_MSG(gait_world_state_hash(w) == gait_world_state_hash(twin), "%s: after the refusal the "
              "world steps otherwise than its twin", what);
    free(before);
    free(after);
    gait_world_destroy(twin);
    gait_world_destroy(w);
}

/* ---- the named attacks --------------------------------------------------------------------- */

typedef enum vtype { V_D, V_I32, V_U32, V_U64, V_BYTE, V_TEXT } vtype;

typedef struct attack {
    const char *name;
    int slot;               /* -1: the world's record, -2: the header */
    size_t offset;          /* into that record */
    vtype type;
    double d;               /* V_D */
    long long i;            /* V_I32, V_U32, V_U64, V_BYTE; V_TEXT: the string's length */
    const char *want1, *want2;
} attack;

#define W_(field) -1, offsetof(struct gait_world, field)
#define C_(slot, field) slot, offsetof(gait__character, field)
#define H_(field) -2, offsetof(header, field)
#define D(where, v, w1, w2) {#where, where, V_D, v, 0, w1, w2}
#define I(where, v, w1, w2) {#where, where, V_I32, 0, v, w1, w2}
#define U(where, v, w1, w2) {#where, where, V_U32, 0, v, w1, w2}
#define U64(where, v, w1, w2) {#where, where, V_U64, 0, (long long)(v), w1, w2}
#define B(where, v, w1, w2) {#where, where, V_BYTE, 0, v, w1, w2}
#define T(where, n, w1, w2) {#where, where, V_TEXT, 0, n, w1, w2}

static const attack attacks[] = {
    /* the clock: a world that never returns from update, or freezes with NaN poses */
    D(W_(clock.step_seconds), 1e-300, "world: clock.step_seconds = 1e-300", "allowed [0.001, 0.1] s"),
    D(W_(clock.step_seconds), 0, "clock.step_seconds = 0", NULL),
    D(W_(clock.step_seconds), NAN, "clock.step_seconds is NaN", NULL),
    I(W_(clock.max_steps_per_frame), 1000000000, "clock.max_steps_per_frame = 1000000000", NULL),
    I(W_(clock.max_steps_per_frame), 0, "clock.max_steps_per_frame = 0", NULL),
    D(W_(clock.accumulator), NAN, "clock.accumulator is NaN", NULL),
    D(W_(clock.accumulator), -1, "clock.accumulator = -1", NULL),
    D(W_(clock.accumulator), INFINITY, "clock.accumulator = inf is infinite", NULL),
    D(W_(clock.accumulator), 0.05, "accumulator = 0.05 is not below step_seconds", NULL),
    /* the body types' numbers: as the setters check them */
    D(W_(provisional.run_speed), NAN, "provisional.run_speed is NaN", NULL),
    D(W_(provisional.gravity), -5, "provisional.gravity = -5 is out of range", NULL),
    D(W_(provisional.capsule_radius), 1.0, "provisional.capsule_height", "twice"),
    D(W_(provisional.costs.dash), 1e300, "provisional.costs.dash = 1e+300", NULL),
    B(W_(is_measured[2]), 7, "is_measured[2] = 7 is not a boolean", NULL),
    B(W_(is_measured[1]), 1, "measured[medium_male]", NULL), /* numbers never set: zeros */
    /* a slot */
    B(C_(0, alive), 2, "slot 1: alive = 2 is not a boolean", NULL),
    B(C_(1, alive), 1, "character 2", "out of range"), /* a dead slot's zeros brought to life */
    B(C_(3, alive), 1, "character 4", NULL),
    /* the state machine */
    I(C_(0, phase.state), 99, "character 1 (generation 0): phase.state = 99", "is out of range; allowed 0.."),
    I(C_(0, phase.state), -1, "phase.state = -1", NULL),
    D(C_(0, phase.seconds), -1e300, "phase.seconds = -1e+300 is out of range", NULL),
    D(C_(0, phase.seconds), NAN, "phase.seconds is NaN", NULL),
    I(C_(2, previous_state), GAIT_STATE_COUNT, "character 3", "previous_state = "), /* the count: one past */
    /* the pose */
    D(C_(0, position.x), NAN, "position.x is NaN", NULL),
    D(C_(0, position.y), 1e300, "position.y = 1e+300 is out of range", NULL),
    D(C_(0, prev_position.z), -INFINITY, "prev_position.z = -inf is infinite", NULL),
    D(C_(0, velocity.x), 1e300, "velocity.x = 1e+300", NULL),
    D(C_(0, yaw), INFINITY, "yaw = inf", NULL),
    D(C_(0, prev_yaw), 1e10, "prev_yaw = 1e+10 is out of range", NULL),
    D(C_(0, return_point.x), NAN, "return_point.x is NaN", NULL),
    D(C_(0, return_yaw), -1e300, "return_yaw", NULL),
    /* enums and booleans */
    I(C_(0, body_type), GAIT_BODY_TYPE_COUNT, "body_type = 5 is out of range", NULL),
    I(C_(0, body_type), -1, "body_type = -1", NULL),
    B(C_(0, contact.grounded), 3, "contact.grounded = 3 is not a boolean", NULL),
    B(C_(0, walking), 2, "walking = 2", NULL),
    B(C_(0, camera_enabled), 9, "camera_enabled = 9", NULL),
    B(C_(0, body.on_ground), 2, "body.on_ground = 2", NULL),
    /* the contact */
    D(C_(0, contact.height_above_ground), -1, "contact.height_above_ground = -1", NULL),
    D(C_(2, contact.water_depth), NAN, "contact.water_depth is NaN", NULL),
    D(C_(2, contact.submersion), INFINITY, "contact.submersion = inf", NULL),
    /* stamina, as its setters check it */
    D(C_(0, stamina.value), 150, "stamina.value = 150 is above max = 100", NULL),
    D(C_(0, stamina.value), -1, "stamina.value = -1", NULL),
    D(C_(0, stamina.max), 0, "stamina.max = 0 is out of range", "(0, 1e+06]"),
    D(C_(0, stamina.multiplier), 1000, "stamina.multiplier = 1000", "[0, 100]"),
    D(C_(0, stamina.refill_rate), NAN, "stamina.refill_rate is NaN", NULL),
    D(C_(0, stamina.refill_delay), 61, "stamina.refill_delay = 61", NULL),
    D(C_(0, stamina.rest), -5, "stamina.rest = -5", NULL),
    D(C_(2, stamina.stroke_timer), NAN, "stamina.stroke_timer is NaN", NULL),
    /* input */
    D(C_(0, move_x), 2, "move_x = 2 is out of range", NULL),
    D(C_(0, move_y), NAN, "move_y is NaN", NULL),
    U(C_(0, held), 0x100, "held = 256 is out of range", "0..255"),
    U(C_(0, pressed), 0xFFFFFFFFu, "pressed = 4294967295", NULL),
    U(C_(0, presses_read), 0x80000000u, "presses_read", NULL),
    D(C_(0, camera_yaw), NAN, "camera_yaw is NaN", NULL),
    /* the camera, as its def and look keep it */
    D(C_(0, camera.pitch), 1.5, "camera.pitch = 1.5 is outside the def's", NULL),
    D(C_(0, camera.def.min_distance), 50, "camera.def.", "out of order"),
    D(C_(0, camera.def.probe_radius), NAN, "camera.def.probe_radius is NaN", NULL),
    D(C_(0, camera.distance), 5000, "camera.distance = 5000", NULL),
    D(C_(0, camera.arm), -1, "camera.arm = -1", NULL),
    D(C_(0, camera.eye.y), NAN, "camera.eye.y is NaN", NULL),
    D(C_(0, camera.yaw), 1e300, "camera.yaw", NULL),
    /* the animation signal */
    I(C_(0, anim.playing), GAIT_ANIM_STATE_COUNT, "anim.playing = ", "is out of range"),
    I(C_(0, anim.wanted), -3, "anim.wanted = -3", NULL),
    T(C_(0, anim.clips[5]), GAIT_CLIP_NAME_MAX, "anim.clips[5] is not a string ended", NULL),
    D(C_(0, anim.def.crossfade_seconds), 100, "anim.def.crossfade_seconds = 100", "[0, 10] s"),
    D(C_(0, anim.land_left), NAN, "anim.land_left is NaN", NULL),
    D(C_(0, anim.fade), -1, "anim.fade = -1", NULL),
    /* the kit's action */
    D(C_(0, action_left), 1e9, "action_left = 1e+09 is out of range", "[0, 3600] s"),
    D(C_(0, action_left), -1, "action_left = -1", NULL),
    T(C_(0, action_name), 32, "action_name is not a string ended within its 32 bytes", NULL),
    /* the body's, the crouch's and the traversal's memory */
    D(C_(0, body.vel.y), NAN, "body.vel.y is NaN", NULL),
    D(C_(0, body.wall_normal.x), 5, "body.wall_normal.x = 5", NULL),
    D(C_(0, body.launch_speed), -1, "body.launch_speed = -1", NULL),
    I(C_(0, crouch.hover), 1000, "crouch.hover = 1000 is out of range", NULL),
    D(C_(0, crouch.auto_seconds), -1, "crouch.auto_seconds = -1", NULL),
    I(C_(0, trav.kind), 9, "trav.kind = 9 is out of range", NULL),
    I(C_(0, trav.phase), 77, "trav.phase = 77", NULL),
    I(C_(0, trav.pending_kind), -2, "trav.pending_kind = -2", NULL),
    I(C_(0, trav.pending_row), 99, "trav.pending_row = 99", NULL),
    I(C_(0, trav.path_count), 5, "trav.path_count = 5", NULL),
    I(C_(0, trav.actions), INT_MAX, "trav.actions = 2147483647 is out of range", NULL),
    D(C_(0, trav.seconds), NAN, "trav.seconds is NaN", NULL),
    D(C_(0, trav.cooldown), -1, "trav.cooldown = -1", NULL),
    D(C_(0, trav.path[2].y), NAN, "trav.path[2].y is NaN", NULL),
    D(C_(0, trav.latch_min.x), NAN, "trav.latch_min.x is NaN", NULL),
    I(C_(0, trav.latch_landmark.index1), -5, "trav.latch_landmark.index1 = -5", NULL),
    T(C_(0, trav.scan.reason), 32, "trav.scan.reason is not a string ended", NULL),
    D(C_(0, trav.query.filter.walkable_slope), 4, "trav.query.filter.walkable_slope = 4", NULL),
    B(C_(0, trav.query.filter.skip_terrain), 255, "trav.query.filter.skip_terrain = 255", NULL),
    /* a kit's motion, as its setters check it */
    I(C_(0, motion.request), 9, "motion.request = 9 is out of range", NULL),
    I(C_(0, motion.mode_count), 77, "motion.mode_count = 77 is out of range", NULL),
    I(C_(0, motion.point), 1000, "motion.point = 1000", NULL),
    I(C_(0, motion.next.key_count), 1000, "motion.next.key_count = 1000", NULL),
    I(C_(0, motion.move.kind), 40, "motion.move.kind = 40", NULL),
    D(C_(0, motion.cooldown[3]), NAN, "motion.cooldown[3] is NaN", NULL),
    D(C_(0, motion.cooldown[2]), 5, "motion.cooling = 0x0 is not the running cooldowns' 0x4", NULL),
    D(C_(0, motion.launch.velocity.y), 1e6, "motion.launch.velocity.y = 1e+06", NULL),
    T(C_(0, motion.modes[1].name), GAIT_MOTION_NAME_MAX, "motion.modes[1].name is not a string", NULL),
    /* the header's numbers, the checksum computed again */
    U(H_(count), 3, "the header says 3 live characters, the slots hold 2", NULL),
    U(H_(count), 9, "9 live characters in 4 slots", NULL),
    U(H_(capacity), 5, "another size (capacity 5, this world 4)", NULL),
    U64(H_(payload_size), 1ull << 62, "truncated", NULL),
    U64(H_(layout), 12345, "another build", NULL),
    /* the free list of slots: out of the pool, onto a live slot, a cycle, a live slot's link */
    I(W_(free_head), 99, "free slots", "free_head = 99"),
    I(W_(free_head), -2, "free_head = -2 is out of range", NULL),
    I(W_(free_head), 0, "free slots", "names a live one"),
    I(C_(1, free_next), 1, "free slots", "cycles"),
    I(C_(3, free_next), 1, "free slots", NULL),
    I(C_(0, free_next), 3, "free slots", NULL),
    I(C_(0, free_next), INT_MIN, "free_next = -2147483648 is out of range", NULL),
    /* contact with other characters and what the last move stood on */
    B(C_(0, collide), 2, "collide = 2 is not a boolean", NULL),
    B(C_(0, crushed), 9, "crushed = 9 is not a boolean", NULL),
    D(C_(0, carrier_velocity.y), NAN, "carrier_velocity.y is NaN", NULL),
    D(C_(0, body.inherit.x), INFINITY, "body.inherit.x = inf", NULL),
    I(C_(0, body.ground_lm.index1), -7, "body.ground_lm.index1 = -7 is out of range", NULL),
    U(H_(header_size), 40, "another build", NULL),
    U(H_(world_size), 8, "another build", NULL),
    U(H_(character_size), 16, "another build", NULL),
    U(H_(reserved), 1, "another build", NULL),
};
#define ATTACK_COUNT ((int)(sizeof attacks / sizeof attacks[0]))

static void run_attack(int index) {
    const attack *a = &attacks[index];
    gait_world *w = fixture();
    size_t size;
    unsigned char *buf = save(w, &size);
    gait_world_destroy(w);
    unsigned char *p = buf + (a->slot == -2 ? 0 : a->slot == -1 ? WORLD_AT : SLOT_AT(a->slot)) +
                       a->offset;
    switch (a->type) {
    case V_D: put_d(p, a->d); break;
    case V_I32: put_i(p, (int32_t)a->i); break;
    case V_U32: put_u32(p, (uint32_t)a->i); break;
    case V_U64: put_u64(p, (uint64_t)a->i); break;
    case V_BYTE: *p = (unsigned char)a->i; break;
    case V_TEXT: memset(p, 'A', (size_t)a->i); break;
    }
    reseal(buf);
    expect_refused(a->name, buf, size, a->want1, a->want2);
    free(buf);
}

__attribute__((constructor)) static void register_attacks(void) {
    for (int i = 0; i < ATTACK_COUNT; i++) check_register_case(attacks[i].name, run_attack, i);
}

/* ---- the buffer itself ---------------------------------------------------------------------- */

TEST(truncated_short_and_corrupted_buffers) {
    gait_world *w = fixture();
    size_t size;
    unsigned char *buf = save(w, &size);
    gait_world_destroy(w);
    expect_refused("one byte short", buf, size - 1, "truncated", NULL);
    expect_refused("the header alone", buf, sizeof(header), "truncated", NULL);
    expect_refused("less than a header", buf, sizeof(header) - 1, "too short", NULL);
    expect_refused("empty", buf, 0, "too short", NULL);
    /* not resealed: the checksum covers the header, the payload and itself */
    const size_t at[] = {offsetof(header, count), offsetof(header, capacity), sizeof(header) + 3,
                         SLOT_AT(2) + offsetof(gait__character, position), size - 1,
                         offsetof(header, checksum) + 7};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        buf[at[i]] ^= 0x10;
        char what[64];
        snprintf(what, sizeof what, "byte %zu corrupted", at[i]);
        expect_refused(what, buf, size, "checksum mismatch", NULL);
        buf[at[i]] ^= 0x10;
    }
    /* a smaller payload_size, sealed over what it claims */
    header h;
    memcpy(&h, buf, sizeof h);
    h.payload_size -= sizeof(gait__character);
    memcpy(buf, &h, sizeof h);
    reseal(buf);
    expect_refused("payload_size one slot short", buf, size, "the header says", "bytes of state");
    /* the format before checked values, and no snapshot at all */
    memcpy(buf, "gaitsnp1", 8);
    expect_refused("the old format", buf, size, "older format", NULL);
    memset(buf, 'x', size);
    expect_refused("garbage", buf, size, "not a gait snapshot", NULL);
    free(buf);
    /* a snapshot of a world of another size */
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = CAPACITY + 1;
    gait_world *other = gait_world_create(&wd);
    buf = save(other, &size);
    gait_world_destroy(other);
    expect_refused("another size", buf, size, "another size (capacity 5, this world 4)", NULL);
    free(buf);
}

/* Rules across members: each forged pair is in range member by member. */
TEST(rules_across_members) {
    gait_world *w = fixture();
    size_t size;
    unsigned char *base = save(w, &size), *buf = malloc(size);
    gait_world_destroy(w);
    unsigned char *ch = buf + SLOT_AT(0);
#define AT(field) (ch + offsetof(gait__character, field))
    memcpy(buf, base, size);
    put_i(AT(trav.path_count), 1);
    put_i(AT(trav.path_next), 3);
    reseal(buf);
    expect_refused("path_next past path_count", buf, size, "trav.path_next = 3 is past path_count = 1", NULL);
    memcpy(buf, base, size);
    put_d(AT(move_x), 0.9);
    put_d(AT(move_y), 0.9);
    reseal(buf);
    expect_refused("a stick longer than 1", buf, size, "the stick is longer than 1", NULL);
    /* a scan's query: one the scan takes, its numbers within their schemas */
    gait_traverse_query q = gait_traverse_default_query(NULL, NULL);
    memcpy(buf, base, size);
    *AT(trav.scanned) = 1;
    q.radius = 0;
    memcpy(AT(trav.query), &q, sizeof q);
    reseal(buf);
    expect_refused("a scanned query of radius 0", buf, size, "trav.query.radius = 0 is out of range", NULL);
    memcpy(buf, base, size);
    *AT(trav.scanned) = 1;
    q.radius = 3;
    q.height = 7;
    memcpy(AT(trav.query), &q, sizeof q);
    reseal(buf);
    expect_refused("a scanned query of radius 3", buf, size, "query.radius = 3 is out of range",
                   "locomotion's capsule_radius");
    q.radius = 0.3;
    q.height = 1.7;
    q.reach_max = 500;
    memcpy(buf, base, size);
    *AT(trav.scanned) = 1;
    memcpy(AT(trav.query), &q, sizeof q);
    reseal(buf);
    expect_refused("a scanned query reaching 500 m", buf, size, "query.reach_max = 500", NULL);
    q.reach_max = 0.5;
    memcpy(buf, base, size);
    *AT(trav.scanned) = 1;
    memcpy(AT(trav.query), &q, sizeof q);
    reseal(buf);
    expect_refused("a scanned query reaching less far moving", buf, size,
                   "query.reach_max = 0.5 is below query.reach_min", NULL);
#undef AT
    free(base);
    free(buf);
}

/* The first attack, resealed: a clock of 1e-300 s steps and a billion steps a frame. */
TEST(a_clock_that_would_never_return_is_refused) {
    gait_world *w = fixture();
    size_t size;
    unsigned char *buf = save(w, &size);
    put_d(buf + WORLD_AT + offsetof(struct gait_world, clock.step_seconds), 1e-300);
    put_i(buf + WORLD_AT + offsetof(struct gait_world, clock.max_steps_per_frame), 1000000000);
    reseal(buf);
    CHECK_EQ_INT(gait_world_snapshot_restore(w, buf, size), GAIT_ERR_FORMAT);
    int steps = -1;
    CHECK_EQ_INT(gait_world_update(w, 1.0, &steps), GAIT_OK); /* returns: 8 steps, the cap */
    CHECK_EQ_INT(steps, 8);
    CHECK(gait_world_step_seconds(w) == 1.0 / 60.0);
    free(buf);
    gait_world_destroy(w);
}

/* ---- moving landmarks --------------------------------------------------------------------- */

/* The geometry with a turning, drifting slab, a body riding it; 40 steps run. */
static gait_world *moving_world(void) {
    gait_world *w = geometry();
    gait_landmark_id lm = bw_box(w, -8, 0, -8, -4, 0.5, -4);
    gait_collider_set_landmark_velocity(gait_world_collider(w), lm, (gait_vec3){0.5, 0, 0},
                                        (gait_vec3){0, 0.3, 0});
    gait_character_def d = gait_default_character_def();
    d.position = (gait_vec3){-6, 0.5, -6};
    gait_character_id id;
    gait_character_create(w, &d, &id);
    for (int k = 0; k < 40; k++) gait_world_step(w);
    return w;
}

/* The moving landmarks' state follows the slots: a count, then a record per landmark (the
 * collider's, collide_motion.c): slot, generation, mode, path count (4 bytes each), period, time,
 * the pose now, the last, the target (a position and a quaternion each), velocity, angular
 * velocity (doubles), has_target and a pad (4 bytes each): 256 bytes. */
#define MOTION_AT SLOT_AT(CAPACITY)
#define RECORD_AT (MOTION_AT + 4)
#define REC_CUR (RECORD_AT + 32)
#define REC_CUR_ROT (RECORD_AT + 56)
#define REC_VELOCITY (RECORD_AT + 200)
#define REC_HAS_TARGET (RECORD_AT + 248)

TEST(a_forged_moving_landmark_is_refused_whole) {
    gait_world *w = moving_world();
    size_t size;
    unsigned char *good = save(w, &size);
    CHECK_EQ_INT((int)(size - RECORD_AT), 256);
    unsigned char *buf = malloc(size);
    struct {
        const char *what;
        size_t at;
        int kind; /* 0: a double, 1: a 32-bit integer */
        double v;
    } forge[] = {
        {"pose x NaN", REC_CUR, 0, NAN},
        {"pose z infinite", REC_CUR + 16, 0, -INFINITY},
        {"rotation not unit", REC_CUR_ROT, 0, 2.0},
        {"last pose NaN", REC_CUR + 56, 0, NAN},
        {"velocity 1e300", REC_VELOCITY, 0, 1e300},
        {"angular velocity NaN", REC_VELOCITY + 32, 0, NAN},
        {"another slot", RECORD_AT, 1, 99},
        {"another generation", RECORD_AT + 4, 1, 7},
        {"another motion", RECORD_AT + 8, 1, 3},
        {"two landmarks moving", MOTION_AT, 1, 2},
        {"has_target 5", REC_HAS_TARGET, 1, 5},
    };
    for (size_t i = 0; i < sizeof forge / sizeof forge[0]; i++) {
        memcpy(buf, good, size);
        if (forge[i].kind == 0) put_d(buf + forge[i].at, forge[i].v);
        else put_i(buf + forge[i].at, (int32_t)forge[i].v);
        reseal(buf);
        gait_world *r = moving_world();
        uint64_t before = gait_world_state_hash(r);
        CHECK_MSG(gait_world_snapshot_restore(r, buf, size) == GAIT_ERR_FORMAT, "%s: taken",
                  forge[i].what);
        CHECK_MSG(strstr(gait_world_last_error(r), "moving landmarks") != NULL, "%s: %s",
                  forge[i].what, gait_world_last_error(r));
        CHECK_MSG(gait_world_state_hash(r) == before, "%s: the refusal changed the world",
                  forge[i].what);
        gait_world_destroy(r);
    }
    /* the honest one restores into a twin, which steps on as the original */
    gait_world *twin = geometry();
    gait_landmark_id lm = bw_box(twin, -8, 0, -8, -4, 0.5, -4);
    gait_collider_set_landmark_velocity(gait_world_collider(twin), lm, (gait_vec3){0, 0, 0},
                                        (gait_vec3){0, 0, 0});
    CHECK_EQ_INT(gait_world_snapshot_restore(twin, good, size), GAIT_OK);
    for (int k = 0; k < 40; k++) {
        gait_world_step(w);
        gait_world_step(twin);
    }
    CHECK(gait_world_state_hash(twin) == gait_world_state_hash(w));
    free(buf);
    free(good);
    gait_world_destroy(twin);
    gait_world_destroy(w);
}

/* ---- what restores keep --------------------------------------------------------------------- */

/* Equal states give equal bytes; a restore and a save give the bytes back; the host's pointers
 * are in no snapshot and survive a restore; a buffer longer than the snapshot is read up to the
 * snapshot's end. */
TEST(snapshots_are_the_state_alone) {
    gait_world *w = fixture_run();
    size_t size;
    unsigned char *a = save(w, &size), *b = save(w, &size);
    CHECK(memcmp(a, b, size) == 0);
    void *ptrs[] = {&user_cookie, &gate_calls, (void *)(uintptr_t)gate_hook};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
        for (size_t k = 0; k + sizeof(void *) <= size; k++)
            CHECK_MSG(memcmp(a + k, &ptrs[i], sizeof(void *)) != 0, "a host pointer at byte %zu", k);
    /* a twin with its own hooks and user data: a restore keeps them */
    gait_world *twin = fixture();
    int twin_calls = 0, twin_cookie = 0;
    gait_character_id id = {1, 0};
    gait_character_set_gate_hook(twin, id, gate_hook, &twin_calls);
    twin->characters[0].user_data = &twin_cookie;
    unsigned char *longer = calloc(size + 100, 1);
    memcpy(longer, a, size);
    CHECK_EQ_INT(gait_world_snapshot_restore(twin, longer, size + 100), GAIT_OK);
    CHECK(twin->characters[0].user_data == &twin_cookie);
    CHECK(twin->characters[0].gate_hook == gate_hook && twin->characters[0].gate_user == &twin_calls);
    unsigned char *c = save(twin, &size);
    CHECK(memcmp(a, c, size) == 0);
    CHECK(gait_world_state_hash(twin) == gait_world_state_hash(w));
    for (int k = 0; k < 60; k++) {
        bw_input(w, id, 0, 1, 0, k == 5 ? GAIT_BUTTON_JUMP : 0);
        bw_input(twin, id, 0, 1, 0, k == 5 ? GAIT_BUTTON_JUMP : 0);
        gait_world_update(w, DT, NULL);
        gait_world_update(twin, DT, NULL);
    }
    CHECK(gait_world_state_hash(twin) == gait_world_state_hash(w));
    CHECK_MSG(twin_calls > 0, "the twin's own gate hook ran after the restore");
    free(a);
    free(b);
    free(c);
    free(longer);
    gait_world_destroy(twin);
    gait_world_destroy(w);
}

/* ---- every row, the values a forger tries ----------------------------------------------------- */

typedef struct sweep_stats {
    int refused, taken;
} sweep_stats;

/* A buffer that restored: 10 frames on (every stage has read every member), every value still in
 * range. */
static void step_on_in_range(gait_world *w, const char *what) {
    for (int k = 0; k < 10; k++) CHECK_EQ_INT(gait_world_update(w, DT, NULL), GAIT_OK);
    char why[300];
    CHECK_MSG(world_in_range(w, why, sizeof why), "%s was taken, and 10 frames later: %s", what,
              why);
}

/* Under valgrind (make valgrind) the sweep tries one value an element and fewer random bytes: the
 * same code paths, a tenth of the time; make asan runs them all. */
static bool quick(void) { return RUNNING_ON_VALGRIND; }

/* Writes each forger's value into the element at p of row f, named `name`; restores. */
static void try_values(gait_world *w, const unsigned char *base, size_t size, size_t at,
                       const gait__lfield *f, const char *name, sweep_stats *st) {
    static const double reals[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, -1, DBL_MAX};
    static const long long ints[] = {-1, INT_MIN, INT_MAX, 1 << 20, 256};
    unsigned char *buf = malloc(size);
    int tries = f->kind == GAIT__L_REAL || f->kind == GAIT__L_VEC3 ? (int)(sizeof reals / sizeof reals[0])
              : f->kind == GAIT__L_INT || f->kind == GAIT__L_UINT ? (int)(sizeof ints / sizeof ints[0])
              : f->kind == GAIT__L_BOOL || f->kind == GAIT__L_TEXT ? 1 : 0;
    if (quick() && tries > 1) tries = 1;
    for (int t = 0; t < tries; t++) {
        memcpy(buf, base, size);
        char what[200];
        switch (f->kind) {
        case GAIT__L_REAL:
        case GAIT__L_VEC3:
            put_d(buf + at, reals[t]);
            snprintf(what, sizeof what, "%s = %g", name, reals[t]);
            break;
        case GAIT__L_INT:
        case GAIT__L_UINT: {
            long long v = ints[t];
            if (f->elem == 1) buf[at] = (unsigned char)v;
            else if (f->elem == 4) put_i(buf + at, (int32_t)v);
            else put_u64(buf + at, (uint64_t)v);
            snprintf(what, sizeof what, "%s = %lld", name, v);
            break;
        }
        case GAIT__L_BOOL:
            buf[at] = 2;
            snprintf(what, sizeof what, "%s = 2", name);
            break;
        default:
            memset(buf + at, 'z', f->elem);
            snprintf(what, sizeof what, "%s unended", name);
        }
        reseal(buf);
        if (gait_world_snapshot_restore(w, buf, size) != GAIT_OK) {
            st->refused++;
            const char *err = gait_world_last_error(w);
            CHECK_MSG(strstr(err, name) != NULL || strstr(err, "twice") || strstr(err, "order") ||
                          strstr(err, "above max") || strstr(err, "live characters"),
                      "%s: refused without naming it: %s", what, err);
        } else {
            st->taken++;
            step_on_in_range(w, what);
        }
        CHECK_EQ_INT(gait_world_snapshot_restore(w, base, size), GAIT_OK);
    }
    free(buf);
}

/* Every element of every leaf row of table t at record offset `at`. */
static void sweep_table(gait_world *w, const unsigned char *base, size_t size, size_t at,
                        const gait__ltable *t, const char *prefix, sweep_stats *st) {
    for (int i = 0; i < t->count; i++) {
        const gait__lfield *f = &t->fields[i];
        size_t n = f->size / f->elem;
        for (size_t k = 0; k < n; k++) {
            char name[160];
            if (n > 1) snprintf(name, sizeof name, "%s%s%s[%zu]", prefix, prefix[0] ? "." : "", f->name, k);
            else snprintf(name, sizeof name, "%s%s%s", prefix, prefix[0] ? "." : "", f->name);
            size_t el = at + f->offset + k * f->elem;
            if (f->kind == GAIT__L_STRUCT) sweep_table(w, base, size, el, f->sub, name, st);
            else if (f->kind == GAIT__L_VEC3)
                for (int c = 0; c < 3; c++) {
                    char comp[176];
                    snprintf(comp, sizeof comp, "%.160s.%c", name, "xyz"[c]);
                    try_values(w, base, size, el + (size_t)c * sizeof(double), f, comp, st);
                }
            else try_values(w, base, size, el, f, name, st);
        }
    }
    if (t->schema) { /* a def's numbers */
        const gait_schema *s = t->schema();
        static const gait__lfield real = {"", 0, 8, 8, GAIT__L_REAL, 0, 0, "", NULL};
        for (int i = 0; i < s->count; i++) {
            char name[160];
            snprintf(name, sizeof name, "%s%s%s%s%s", prefix, prefix[0] ? "." : "", s->fields[i].group,
                     s->fields[i].group[0] ? "." : "", s->fields[i].name);
            try_values(w, base, size, at + s->fields[i].offset, &real, name, st);
        }
    }
}

TEST(every_row_refuses_a_forgers_values_or_steps_on_in_range) {
    gait_world *w = fixture();
    size_t size;
    unsigned char *base = save(w, &size);
    sweep_stats st = {0, 0};
    sweep_table(w, base, size, SLOT_AT(0), &gait__character_layout, "", &st);
    sweep_table(w, base, size, SLOT_AT(2), &gait__character_layout, "", &st);
    sweep_table(w, base, size, WORLD_AT, &gait__world_layout, "", &st);
    printf("  row sweep: %d forged values refused, %d taken and stepped on in range\n", st.refused,
           st.taken);
    CHECK(st.refused > (quick() ? 500 : 1000));
    free(base);
    gait_world_destroy(w);
}

/* ---- random bytes ----------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) { return splitmix(&rng_state); }

TEST(random_bytes_are_refused_or_step_on_in_range) {
    gait_world *w = fixture();
    size_t size;
    unsigned char *base = save(w, &size), *buf = malloc(size);
    int refused = 0, taken = 0;
    for (int n = 0, count = quick() ? 150 : 1500; n < count; n++) {
        memcpy(buf, base, size);
        int bytes = 1 + (int)(rng() % 4); /* a few bytes, anywhere (header too) */
        for (int b = 0; b < bytes; b++) buf[rng() % size] = (unsigned char)rng();
        reseal(buf);
        if (gait_world_snapshot_restore(w, buf, size) != GAIT_OK) {
            refused++;
        } else {
            taken++;
            char what[64];
            snprintf(what, sizeof what, "random bytes #%d", n);
            step_on_in_range(w, what);
        }
        CHECK_EQ_INT(gait_world_snapshot_restore(w, base, size), GAIT_OK);
    }
    printf("  random bytes: %d refused, %d taken and stepped on in range\n", refused, taken);
    CHECK(refused > 0 && taken > 0);
    free(base);
    free(buf);
    gait_world_destroy(w);
}
