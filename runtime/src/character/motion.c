/* Kits that move the body (gait/motion.h): the kit's door (launch, moving actions, modes,
 * cooldowns) and the step's motion stage (motion.h) — a kit decides, the step moves.
 *
 * A request waits in the character until the next step's motion stage, which runs after the
 * gates and before the gate hook: a launch puts the body in the air (jump while it rises, else
 * fall), a moving action takes state GAIT_STATE_ACTION, and the hook sees either change as any
 * other. While an action plays, the step moves the body by the action's velocity through the
 * public mover (walk on the ground when it does not rise, fly otherwise, then the settle pass),
 * and the sense stage writes the contact as after any move. When it ends, the body is handed to
 * the gates as a traversal's end hands it (on foot or falling), or to the glider or a plunge.
 *
 * Determinism: the same requests at the same steps give the same bits at any frame rate (the
 * kit runs per frame, but a request acts at a step; doubles only, a fixed number of queries).
 * A step allocates nothing. */
#include "motion.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "body.h"
#include "core/vec.h"
#include "crouch.h"
#include "intent.h"
#include "mover_internal.h"
#include "layouts.h"
#include "sense.h"
#include "world_internal.h"

#define FAIL GAIT__FAIL
#define TIME_EPS 1e-9          /* s: a timer this close to its end has ended (steps of 1/60 sum
                                  to a hair under whole seconds) */
#define RISING 1e-9            /* m/s: a launch faster than this upward is a jump */
#define AHEAD_COS 0.5          /* a wall is ahead when the move points within 60 deg into it */
#define FACE_SPEED 0.01        /* m/s: a move toward a target slower than this keeps the facing */
#define STALL_PROGRESS 0.1     /* of a step's travel: a move toward a point that gets less nearer
                                  than this ... */
#define STALL_STEPS 12         /* ... this many steps in a row (0.2 s) is blocked, and ends */

static const gait_vec3 UP = {0, 1, 0};

/* ---- small helpers ------------------------------------------------------------------------- */

static bool in_range(double v, double lo, double hi) { return v >= lo && v <= hi; } /* NaN: no */

static bool speed_ok(gait_vec3 v) {
    return in_range(v.x, -GAIT_MOTION_MAX_SPEED, GAIT_MOTION_MAX_SPEED) &&
           in_range(v.y, -GAIT_MOTION_MAX_SPEED, GAIT_MOTION_MAX_SPEED) &&
           in_range(v.z, -GAIT_MOTION_MAX_SPEED, GAIT_MOTION_MAX_SPEED);
}

/* A velocity in `frame` to the world, for a body facing yaw: x right, y up, z ahead. */
static gait_vec3 to_world(gait_vec3 v, gait_frame frame, double yaw) {
    if (frame == GAIT_FRAME_WORLD) return v;
    gait_vec3 fwd = v3(sin(yaw), 0, cos(yaw)), right = v3(-cos(yaw), 0, sin(yaw));
    return v3_add(v3_add(v3_scale(right, v.x), v3_scale(UP, v.y)), v3_scale(fwd, v.z));
}

/* Copies a name into a fixed buffer; false when it does not fit. */
static bool copy_name(char *dst, size_t cap, const char *src, const char *fallback) {
    memset(dst, 0, cap);
    if (!src) src = fallback;
    size_t n = strlen(src);
    if (n >= cap) return false;
    memcpy(dst, src, n);
    return true;
}

static int button_index(uint32_t button) {
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++)
        if (button == 1u << i) return i;
    return -1;
}

static bool mode_state_ok(gait_state s) {
    switch (s) {
    case GAIT_STATE_WALK: case GAIT_STATE_RUN: case GAIT_STATE_SPRINT: case GAIT_STATE_CROUCH:
    case GAIT_STATE_FALL: case GAIT_STATE_GLIDE: case GAIT_STATE_SWIM: case GAIT_STATE_SWIM_DASH:
    case GAIT_STATE_CLIMB:
        return true;
    default:
        return false;
    }
}

/* ---- the motion's memory --------------------------------------------------------------------- */

void gait__motion_reset(gait__motion *m) {
    gait_move_hook hook = m->hook;
    void *user = m->hook_user;
    memset(m, 0, sizeof *m);
    m->request_gadget = -1;
    m->gadget = -1;
    m->hook = hook;
    m->hook_user = user;
}

void gait__motion_start(gait__motion *m) {
    memset(m, 0, offsetof(gait__motion, next));
    m->request_gadget = -1;
    m->gadget = -1;
}

void gait__motion_clear_unused(gait__motion *m) {
    if (m->request != GAIT__REQ_MOVE) memset(&m->next, 0, sizeof m->next);
    if (!m->playing) memset(&m->move, 0, sizeof m->move);
    int used = m->mode_count < 0 ? 0 : m->mode_count > GAIT_MODE_MAX ? GAIT_MODE_MAX : m->mode_count;
    memset(&m->modes[used], 0, sizeof m->modes[0] * (size_t)(GAIT_MODE_MAX - used));
}

void gait__motion_cancel(gait__motion *m) {
    m->request = GAIT__REQ_NONE;
    m->playing = false;
    m->hanging = false;
    m->arrived = false;
}

bool gait__motion_active(const gait__motion *m) {
    return m->request != GAIT__REQ_NONE || m->playing || m->mode_count > 0 || m->cooling;
}

const gait__mode *gait__motion_mode(const gait__motion *m, gait_state s) {
    if (m->mode_count == 0) return NULL;
    if (s == GAIT_STATE_DASH) s = GAIT_STATE_SPRINT; /* an alternate sprint starts as the dash */
    for (int i = 0; i < m->mode_count; i++)
        if (m->modes[i].state == s) return &m->modes[i];
    return NULL;
}

/* ---- the kit's door: checks ------------------------------------------------------------------ */

#define GET(w, id, ch)                                          \
    if (!(w)) return GAIT_ERR_INVALID_ARGUMENT;                 \
    gait__character *ch = gait__character_get((w), (id));       \
    if (!ch) return GAIT_ERR_STALE_ID

gait_status gait_character_launch(gait_world *w, gait_character_id id, const gait_launch_def *d) {
    GET(w, id, ch);
    if (!d) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "launch: def is NULL");
    if ((unsigned)d->frame > GAIT_FRAME_WORLD)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "launch: frame %d is not body (0) or world (1)",
                    (int)d->frame);
    if (!speed_ok(d->velocity))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT,
                    "launch: velocity (%g, %g, %g) must be finite, each part in [-%g, %g] m/s",
                    d->velocity.x, d->velocity.y, d->velocity.z, GAIT_MOTION_MAX_SPEED,
                    GAIT_MOTION_MAX_SPEED);
    if (ch->phase.state == GAIT_STATE_DROWN)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "launch: a drowning body cannot be launched");
    gait__motion *m = &ch->motion;
    m->request = GAIT__REQ_LAUNCH;
    m->launch = *d;
    m->request_gadget = -1;
    return GAIT_OK;
}

gait_move_def gait_default_move_def(void) {
    gait_move_def d;
    memset(&d, 0, sizeof d);
    d.kind = GAIT_MOVE_VELOCITY;
    d.frame = GAIT_FRAME_BODY;
    d.seconds = 1.0;
    d.speed = 10.0;
    d.arrive_distance = 0.5;
    d.then = GAIT_THEN_AUTO;
    return d;
}

/* Checks a move def; writes "field: why" to err. */
static bool move_def_ok(const gait_world *w, const gait__character *self,
                        const gait_move_def *d, char *err, size_t cap) {
#define BAD(...) (snprintf(err, cap, __VA_ARGS__), false)
    if ((unsigned)d->kind >= GAIT_MOVE_KIND_COUNT) return BAD("kind %d is not a move kind", (int)d->kind);
    if ((unsigned)d->frame > GAIT_FRAME_WORLD) return BAD("frame %d is not body (0) or world (1)", (int)d->frame);
    if (!in_range(d->seconds, 1e-6, GAIT_MOTION_MAX_SECONDS) )
        return BAD("seconds %g is not in (0, %g]", d->seconds, GAIT_MOTION_MAX_SECONDS);
    if (!in_range(d->fade_seconds, 0, 10)) return BAD("fade_seconds %g is not in [0, 10]", d->fade_seconds);
    if (!in_range(d->gravity_scale, 0, 10)) return BAD("gravity_scale %g is not in [0, 10]", d->gravity_scale);
    if (!in_range(d->start_cost, 0, 1e6)) return BAD("start_cost %g is not in [0, 1e6]", d->start_cost);
    if (!in_range(d->drain_per_s, 0, 1e6)) return BAD("drain_per_s %g is not in [0, 1e6]", d->drain_per_s);
    if (d->end_on & ~(uint32_t)GAIT_END_ALL) return BAD("end_on 0x%x has unknown bits", (unsigned)d->end_on);
    if (d->cancel_buttons & ~(uint32_t)GAIT_BUTTON_ALL)
        return BAD("cancel_buttons 0x%x has unknown bits", (unsigned)d->cancel_buttons);
    if ((d->end_on & GAIT_END_PRESS) && !d->cancel_buttons)
        return BAD("end_on has press but cancel_buttons names no button");
    if ((unsigned)d->then >= GAIT_THEN_COUNT) return BAD("then %d is not a then", (int)d->then);
    if (d->name && strlen(d->name) >= GAIT_MOTION_NAME_MAX)
        return BAD("name is %zu bytes, at most %d", strlen(d->name), GAIT_MOTION_NAME_MAX - 1);
    if (d->clip && strlen(d->clip) >= GAIT_CLIP_NAME_MAX)
        return BAD("clip is %zu bytes, at most %d", strlen(d->clip), GAIT_CLIP_NAME_MAX - 1);
    switch (d->kind) {
    case GAIT_MOVE_VELOCITY:
        if (!speed_ok(d->velocity))
            return BAD("velocity must be finite, each part in [-%g, %g] m/s", GAIT_MOTION_MAX_SPEED,
                       GAIT_MOTION_MAX_SPEED);
        break;
    case GAIT_MOVE_KEYS:
        if (d->key_count < 1 || d->key_count > GAIT_MOVE_MAX_KEYS)
            return BAD("key_count %d is not in 1..%d", d->key_count, GAIT_MOVE_MAX_KEYS);
        for (int i = 0; i < d->key_count; i++) {
            if (!speed_ok(d->keys[i].velocity))
                return BAD("keys[%d].velocity must be finite, each part in [-%g, %g] m/s", i,
                           GAIT_MOTION_MAX_SPEED, GAIT_MOTION_MAX_SPEED);
            if (!in_range(d->keys[i].t, 0, GAIT_MOTION_MAX_SECONDS))
                return BAD("keys[%d].t %g is not in [0, %g]", i, d->keys[i].t, GAIT_MOTION_MAX_SECONDS);
            if (i == 0 && d->keys[0].t != 0) return BAD("keys[0].t must be 0 (got %g)", d->keys[0].t);
            if (i > 0 && !(d->keys[i].t > d->keys[i - 1].t))
                return BAD("keys[%d].t %g must be after keys[%d].t %g", i, d->keys[i].t, i - 1,
                           d->keys[i - 1].t);
        }
        break;
    case GAIT_MOVE_HOOK:
        if (!self->motion.hook) return BAD("kind hook, but the character has no move hook");
        break;
    case GAIT_MOVE_TO_POINTS:
        if (d->point_count < 1 || d->point_count > GAIT_MOVE_MAX_POINTS)
            return BAD("point_count %d is not in 1..%d", d->point_count, GAIT_MOVE_MAX_POINTS);
        for (int i = 0; i < d->point_count; i++)
            if (!v3_finite(d->points[i]) || fabs(d->points[i].x) > 1e7 || fabs(d->points[i].y) > 1e7 ||
                fabs(d->points[i].z) > 1e7)
                return BAD("points[%d] must be finite and within 1e7 m", i);
        break;
    case GAIT_MOVE_TO_CHARACTER: {
        if (!gait_character_valid(w, d->target)) return BAD("target is not a live character");
        const gait__character *t = &w->characters[d->target.index1 - 1];
        if (t == self) return BAD("target is the character itself");
        if (!v3_finite(d->offset) || v3_len(d->offset) > 1000) return BAD("offset must be finite, within 1000 m");
        break;
    }
    default: break;
    }
    if (d->kind == GAIT_MOVE_TO_POINTS || d->kind == GAIT_MOVE_TO_CHARACTER) {
        if (!in_range(d->speed, 1e-6, GAIT_MOTION_MAX_SPEED))
            return BAD("speed %g is not in (0, %g] m/s", d->speed, GAIT_MOTION_MAX_SPEED);
        if (!in_range(d->arrive_distance, 0, 100))
            return BAD("arrive_distance %g is not in [0, 100] m", d->arrive_distance);
        if ((unsigned)d->arrive >= GAIT_ARRIVE_COUNT) return BAD("arrive %d is not end (0) or hang (1)", (int)d->arrive);
        if (!in_range(d->hang_seconds, 0, GAIT_MOTION_MAX_SECONDS))
            return BAD("hang_seconds %g is not in [0, %g]", d->hang_seconds, GAIT_MOTION_MAX_SECONDS);
    }
    return true;
#undef BAD
}

static void store_move(gait__move *dst, const gait_move_def *d) {
    memset(dst, 0, sizeof *dst);
    copy_name(dst->name, sizeof dst->name, d->name, "move");
    copy_name(dst->clip, sizeof dst->clip, d->clip, "");
    dst->fade_seconds = d->fade_seconds;
    dst->kind = d->kind;
    dst->frame = d->frame;
    dst->seconds = d->seconds;
    dst->velocity = d->velocity;
    dst->key_count = d->kind == GAIT_MOVE_KEYS ? d->key_count : 0;
    for (int i = 0; i < dst->key_count; i++) dst->keys[i] = d->keys[i];
    dst->point_count = d->kind == GAIT_MOVE_TO_POINTS ? d->point_count : 0;
    for (int i = 0; i < dst->point_count; i++) dst->points[i] = d->points[i];
    dst->target = d->target;
    dst->offset = d->offset;
    dst->speed = d->speed;
    dst->arrive_distance = d->arrive_distance;
    dst->horizontal = d->horizontal;
    dst->arrive = d->arrive;
    dst->hang_seconds = d->hang_seconds;
    dst->gravity_scale = d->gravity_scale;
    dst->start_cost = d->start_cost;
    dst->drain_per_s = d->drain_per_s;
    dst->end_on = d->end_on;
    dst->cancel_buttons = d->cancel_buttons;
    dst->then = d->then;
}

gait_status gait_character_start_move(gait_world *w, gait_character_id id, const gait_move_def *d) {
    GET(w, id, ch);
    if (!d) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "move: def is NULL");
    char err[160];
    if (!move_def_ok(w, ch, d, err, sizeof err))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "move: %s", err);
    if (ch->phase.state == GAIT_STATE_DROWN)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "move: a drowning body cannot start an action");
    if (!gait_stamina_can_spend(&ch->stamina, d->start_cost))
        return FAIL(w, GAIT_ERR_CAPACITY, "move: start_cost %g x %g is more than the %g stamina left",
                    d->start_cost, ch->stamina.multiplier, ch->stamina.value);
    gait__motion *m = &ch->motion;
    store_move(&m->next, d);
    m->request = GAIT__REQ_MOVE;
    m->request_gadget = -1;
    return GAIT_OK;
}

gait_status gait_character_end_move(gait_world *w, gait_character_id id) {
    GET(w, id, ch);
    gait__motion *m = &ch->motion;
    if (m->request == GAIT__REQ_MOVE) m->request = GAIT__REQ_NONE;
    if (m->playing && m->request == GAIT__REQ_NONE) m->request = GAIT__REQ_END;
    return GAIT_OK;
}

gait_status gait_character_set_move_hook(gait_world *w, gait_character_id id, gait_move_hook hook,
                                         void *user) {
    GET(w, id, ch);
    ch->motion.hook = hook;
    ch->motion.hook_user = hook ? user : NULL;
    return GAIT_OK;
}

gait_status gait_character_move_hook(const gait_world *w, gait_character_id id,
                                     gait_move_hook *hook, void **user) {
    if (!w || !hook || !user) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    *hook = ch->motion.hook;
    *user = ch->motion.hook_user;
    return GAIT_OK;
}

gait_mode_def gait_default_mode_def(void) {
    gait_mode_def d;
    memset(&d, 0, sizeof d);
    d.state = GAIT_STATE_SPRINT;
    return d;
}

gait_status gait_character_set_mode(gait_world *w, gait_character_id id, const gait_mode_def *d) {
    GET(w, id, ch);
    if (!d) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "mode: def is NULL");
    if ((unsigned)d->state >= GAIT_STATE_COUNT || !mode_state_ok(d->state))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT,
                    "mode: state %s is not one a mode replaces (walk, run, sprint, crouch, fall, "
                    "glide, swim, swim_dash, climb)",
                    gait_state_name(d->state) ? gait_state_name(d->state) : "?");
    const char *bad = NULL;
    double v = 0, lo = 0, hi = 0;
    if (!in_range(d->seconds, 0, GAIT_MOTION_MAX_SECONDS)) bad = "seconds", v = d->seconds, hi = GAIT_MOTION_MAX_SECONDS;
    else if (!in_range(d->speed, 0, GAIT_MOTION_MAX_SPEED)) bad = "speed", v = d->speed, hi = GAIT_MOTION_MAX_SPEED;
    else if (!in_range(d->sink, 0, 100)) bad = "sink", v = d->sink, hi = 100;
    else if (!in_range(d->start_cost, 0, 1e6)) bad = "start_cost", v = d->start_cost, hi = 1e6;
    else if (!in_range(d->drain_per_s, 0, 1e6)) bad = "drain_per_s", v = d->drain_per_s, hi = 1e6;
    if (bad) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "mode: %s %g is not in [%g, %g]", bad, v, lo, hi);
    if (d->sink > 0 && d->state != GAIT_STATE_FALL && d->state != GAIT_STATE_GLIDE)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "mode: sink is for fall and glide, not %s",
                    gait_state_name(d->state));
    if (d->walk_on_water && !gait_state_on_foot(d->state))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "mode: walk_on_water is for states on foot, not %s",
                    gait_state_name(d->state));
    gait__mode md;
    memset(&md, 0, sizeof md);
    if (!copy_name(md.name, sizeof md.name, d->name, gait_state_name(d->state)))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "mode: name is longer than %d bytes", GAIT_MOTION_NAME_MAX - 1);
    if (!copy_name(md.clip, sizeof md.clip, d->clip, ""))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "mode: clip is longer than %d bytes", GAIT_CLIP_NAME_MAX - 1);
    md.state = d->state;
    md.timed = d->seconds > 0;
    md.seconds_left = d->seconds;
    md.speed = d->speed;
    md.sink = d->sink;
    md.start_cost = d->start_cost;
    md.drain_per_s = d->drain_per_s;
    md.flat_cost = d->flat_cost;
    md.walk_on_water = d->walk_on_water;
    md.end_when_empty = d->end_when_empty;
    gait__motion *m = &ch->motion;
    for (int i = 0; i < m->mode_count; i++)
        if (m->modes[i].state == d->state) {
            m->modes[i] = md;
            return GAIT_OK;
        }
    if (m->mode_count >= GAIT_MODE_MAX)
        return FAIL(w, GAIT_ERR_CAPACITY, "mode: the character holds %d modes already (for other states)",
                    GAIT_MODE_MAX);
    m->modes[m->mode_count++] = md;
    return GAIT_OK;
}

static void remove_mode(gait__motion *m, int i) {
    for (int k = i; k + 1 < m->mode_count; k++) m->modes[k] = m->modes[k + 1];
    m->mode_count--;
    memset(&m->modes[m->mode_count], 0, sizeof m->modes[0]);
}

gait_status gait_character_clear_mode(gait_world *w, gait_character_id id, gait_state state) {
    GET(w, id, ch);
    if ((unsigned)state > GAIT_STATE_COUNT)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "clear mode: state %d is not a state", (int)state);
    gait__motion *m = &ch->motion;
    for (int i = m->mode_count - 1; i >= 0; i--)
        if (state == GAIT_STATE_COUNT || m->modes[i].state == state) remove_mode(m, i);
    return GAIT_OK;
}

gait_status gait_character_set_cooldown(gait_world *w, gait_character_id id, uint32_t button,
                                        double seconds) {
    GET(w, id, ch);
    int i = button_index(button);
    if (i < 0) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "cooldown: 0x%x is not one button", (unsigned)button);
    if (!in_range(seconds, 0, GAIT_MOTION_MAX_SECONDS))
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "cooldown: seconds %g is not in [0, %g]", seconds,
                    GAIT_MOTION_MAX_SECONDS);
    ch->motion.cooldown[i] = seconds;
    if (seconds > 0) ch->motion.cooling |= 1u << i;
    else ch->motion.cooling &= ~(1u << i);
    return GAIT_OK;
}

gait_status gait_character_cooldown(const gait_world *w, gait_character_id id, uint32_t button,
                                    double *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    int i = button_index(button);
    if (i < 0) return GAIT_ERR_INVALID_ARGUMENT;
    *out = ch->motion.cooldown[i];
    return GAIT_OK;
}

gait_status gait_character_motion_info(const gait_world *w, gait_character_id id,
                                       gait_motion_info *out) {
    if (!w || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__character *ch = gait__character_get_const(w, id);
    if (!ch) return GAIT_ERR_STALE_ID;
    const gait__motion *m = &ch->motion;
    memset(out, 0, sizeof *out);
    out->requested = m->request == GAIT__REQ_LAUNCH || m->request == GAIT__REQ_MOVE;
    out->playing = m->playing;
    const gait__move *mv = m->playing ? &m->move : &m->next;
    if (m->playing || m->request == GAIT__REQ_MOVE) {
        memcpy(out->name, mv->name, sizeof out->name);
        out->kind = mv->kind;
    }
    if (m->playing) {
        out->seconds = m->seconds;
        out->seconds_left = mv->seconds > m->seconds ? mv->seconds - m->seconds : 0;
        out->velocity = m->last_velocity;
        out->point = m->point;
        out->hanging = m->hanging;
    }
    out->mode_count = m->mode_count;
    for (int i = 0; i < m->mode_count; i++) {
        const gait__mode *md = &m->modes[i];
        gait_mode_def *d = &out->modes[i];
        d->state = md->state;
        d->name = md->name;
        d->clip = md->clip;
        d->seconds = md->timed ? md->seconds_left : 0;
        d->speed = md->speed;
        d->sink = md->sink;
        d->start_cost = md->start_cost;
        d->drain_per_s = md->drain_per_s;
        d->flat_cost = md->flat_cost;
        d->walk_on_water = md->walk_on_water;
        d->end_when_empty = md->end_when_empty;
        out->mode_seconds_left[i] = md->timed ? md->seconds_left : 0;
    }
    out->gadget = m->playing ? m->gadget : (m->request != GAIT__REQ_NONE ? m->request_gadget : -1);
    return GAIT_OK;
}

/* ---- the step: gates ------------------------------------------------------------------------- */

/* The state a launch takes: jump while the velocity it leaves rises, fall otherwise. */
static gait_state launch_state(const gait__character *ch, const gait_launch_def *d) {
    gait_vec3 v = to_world(d->velocity, d->frame, ch->yaw);
    double vy = d->add ? ch->body.vel.y + v.y : v.y;
    return vy > RISING ? GAIT_STATE_JUMP : GAIT_STATE_FALL;
}

/* The state an ending action hands the body to. */
static gait_state then_state(const gait__character *ch, const gait_gate_input *gi,
                             const gait_locomotion *n, gait_move_then then) {
    const gait_contact *c = &ch->contact;
    bool ground = c->grounded;
    if (!ground && then == GAIT_THEN_GLIDE && gi->stamina > 0) return GAIT_STATE_GLIDE;
    if (!ground && then == GAIT_THEN_PLUNGE) return GAIT_STATE_PLUNGE;
    /* as a traversal's end: the gates as if on foot or falling (a jump pressed on the ground
     * jumps, in the air opens the glider high enough; deep water swims) */
    gait_phase p = {ground ? GAIT_STATE_IDLE : GAIT_STATE_FALL, 1.0};
    gait_state s = gait_locomotion_next(&p, gi, c, n);
    if (!gait_locomotion_is_edge(GAIT_STATE_ACTION, s)) s = ground ? GAIT_STATE_IDLE : GAIT_STATE_FALL;
    return s;
}

/* Whether the playing action ends at this step (read before its move). */
static bool action_ends(const gait_world *w, const gait__character *ch, const gait_gate_input *gi,
                        const gait_locomotion *n) {
    const gait__motion *m = &ch->motion;
    const gait__move *mv = &m->move;
    const gait_contact *c = &ch->contact;
    if (m->seconds + TIME_EPS >= mv->seconds || m->hook_failed || m->arrived ||
        m->stalled >= STALL_STEPS)
        return true;
    if (mv->kind == GAIT_MOVE_TO_CHARACTER && !gait_character_valid(w, mv->target)) return true;
    if (gait_locomotion_deep_water(c->water_depth, c->submersion, n)) return true;
    if (m->hanging && mv->hang_seconds > 0 && m->hang_seconds + TIME_EPS >= mv->hang_seconds) return true;
    uint32_t e = mv->end_on;
    if ((e & GAIT_END_PRESS) && (gi->pressed & mv->cancel_buttons)) return true;
    if ((e & GAIT_END_LAND) && m->airborne_seen && c->grounded) return true;
    if ((e & GAIT_END_WALL) && (m->met & GAIT__MET_WALL)) return true;
    if ((e & GAIT_END_CEILING) && (m->met & GAIT__MET_CEILING)) return true;
    if ((e & GAIT_END_STAMINA) && ch->stamina.value <= 0) return true;
    return false;
}

gait_state gait__motion_gate(const gait_world *w, const gait__character *ch,
                             const gait_gate_input *gi, const gait_locomotion *n, bool low_ceiling,
                             gait_state from, gait_state next, gait__motion_plan *plan) {
    /* the flags (the rest is read only under them) */
    plan->launch = plan->start = plan->end = plan->drop = plan->gadget_start = plan->lift = false;
    plan->gadget = -1;
    const gait__motion *m = &ch->motion;
    plan->taken = m->request;
    /* a body no kit and no gadget touches: nothing to decide */
    if (m->request == GAIT__REQ_NONE && from != GAIT_STATE_ACTION && w->gadget_count == 0) return next;
    /* a traversal plays out first: a request waits for its end */
    if (from == GAIT_STATE_TRAVERSE) return next;
    /* a crouched body under a low ceiling cannot grow into it (as the crouch's own rule) */
    bool cramped = (from == GAIT_STATE_CROUCH || ch->crouch.air) && low_ceiling;
    bool refused = from == GAIT_STATE_DROWN || cramped;
    switch (m->request) {
    case GAIT__REQ_LAUNCH:
        if (refused) {
            plan->drop = true;
            break;
        }
        plan->launch = true;
        plan->launch_def = m->launch;
        plan->gadget = m->request_gadget;
        return launch_state(ch, &m->launch);
    case GAIT__REQ_MOVE:
        if (refused || !gait_stamina_can_spend(&ch->stamina, m->next.start_cost)) {
            plan->drop = true;
            break;
        }
        plan->start = true;
        return GAIT_STATE_ACTION;
    case GAIT__REQ_END:
        if (from == GAIT_STATE_ACTION && m->playing) {
            plan->end = true;
            plan->then = m->move.then;
            return then_state(ch, gi, n, plan->then);
        }
        plan->drop = true;
        break;
    default:
        break;
    }
    if (from == GAIT_STATE_ACTION) {
        /* nothing plays (a hook redirected into the state): hand the body back at once */
        if (!m->playing || action_ends(w, ch, gi, n)) {
            plan->end = true;
            plan->then = m->playing ? m->move.then : GAIT_THEN_AUTO;
            return then_state(ch, gi, n, plan->then);
        }
        return GAIT_STATE_ACTION;
    }
    if (w->gadget_count > 0 && from != GAIT_STATE_DROWN && !cramped)
        return gait__gadgets_gate(w, ch, gi, n, from, next, plan);
    return next;
}

/* ---- the step: what the hook let through ----------------------------------------------------- */

static void apply_launch(gait__character *ch, const gait_launch_def *d) {
    gait__body *b = &ch->body;
    gait_vec3 v = to_world(d->velocity, d->frame, ch->yaw);
    if (d->add) v = v3_add(v, b->vel);
    b->vel = v;
    b->launch_speed = sqrt(v.x * v.x + v.z * v.z); /* the air's steering cap */
    b->launched = true;
}

static void start_move(gait__character *ch, const gait__move *src, int gadget) {
    gait__motion *m = &ch->motion;
    m->move = *src;
    gait__move *mv = &m->move;
    m->yaw0 = ch->yaw;
    /* the body frame is the facing at the start: velocities become the world's now */
    if (mv->frame == GAIT_FRAME_BODY && mv->kind != GAIT_MOVE_HOOK) {
        mv->velocity = to_world(mv->velocity, GAIT_FRAME_BODY, m->yaw0);
        for (int i = 0; i < mv->key_count; i++)
            mv->keys[i].velocity = to_world(mv->keys[i].velocity, GAIT_FRAME_BODY, m->yaw0);
        mv->frame = GAIT_FRAME_WORLD;
    }
    m->playing = true;
    m->seconds = 0;
    m->fall_vy = 0;
    m->point = 0;
    m->hanging = false;
    m->arrived = false;
    m->hang_seconds = 0;
    m->airborne_seen = !ch->body.on_ground;
    m->hook_failed = false;
    m->stalled = 0;
    m->met = 0;
    m->last_velocity = v3(0, 0, 0);
    m->gadget = gadget;
}

static void tick(gait__character *ch, gait_state state, double dt) {
    gait__motion *m = &ch->motion;
    for (int i = 0; m->cooling && i < GAIT_BUTTON_COUNT; i++)
        if (m->cooling & 1u << i) {
            m->cooldown[i] -= dt;
            if (m->cooldown[i] <= TIME_EPS) {
                m->cooldown[i] = 0;
                m->cooling &= ~(1u << i);
            }
        }
    for (int i = m->mode_count - 1; i >= 0; i--) {
        gait__mode *md = &m->modes[i];
        bool over = md->timed && (md->seconds_left -= dt) <= TIME_EPS;
        /* a mode that ends with the pool: only once it has run dry in its own state */
        if (md->end_when_empty && ch->stamina.value <= 0 && gait__motion_mode(m, state) == md)
            over = true;
        if (over) remove_mode(m, i);
    }
}

void gait__motion_commit(gait_world *w, gait__character *ch, const gait__motion_plan *plan,
                         gait_state from, gait_state next, const gait_locomotion *n, double dt) {
    gait__motion *m = &ch->motion;
    if (!plan->launch && !plan->start && !plan->gadget_start && !plan->drop && !plan->end &&
        from != GAIT_STATE_ACTION && m->mode_count == 0 && !m->cooling)
        return; /* nothing to take effect, nothing to count down */
    if (plan->launch) {
        if (gait_state_airborne(next)) {
            m->playing = false;
            m->hanging = false;
            apply_launch(ch, &plan->launch_def);
            m->gadget = plan->gadget;
        }
        if (m->request == plan->taken) m->request = GAIT__REQ_NONE;
    } else if (plan->start) {
        if (next == GAIT_STATE_ACTION) start_move(ch, &m->next, m->request_gadget);
        if (m->request == plan->taken) m->request = GAIT__REQ_NONE;
    } else if (plan->gadget_start) {
        if (next == GAIT_STATE_ACTION) {
            gait__move mv;
            gait__gadgets_move(w, ch, plan->gadget, n, &mv);
            start_move(ch, &mv, plan->gadget);
        }
    } else if ((plan->drop || plan->end) && m->request == plan->taken) {
        m->request = GAIT__REQ_NONE;
    }
    if (from == GAIT_STATE_ACTION && next != GAIT_STATE_ACTION && !plan->launch) {
        gait_move_then then = plan->end ? plan->then : GAIT_THEN_AUTO;
        m->playing = false;
        m->hanging = false;
        if (then == GAIT_THEN_STOP) {
            ch->body.vel = v3(0, 0, 0);
            ch->body.launch_speed = 0;
        }
    }
    tick(ch, next, dt);
}

/* ---- the step: stamina ----------------------------------------------------------------------- */

static void pay(gait_stamina *p, double amount, bool flat) {
    if (!flat) {
        gait_stamina_spend(p, amount);
        return;
    }
    p->value -= amount;
    if (p->value < 0) p->value = 0;
    p->rest = 0;
}

bool gait__motion_stamina(gait__character *ch, const gait_locomotion *n, gait_state from,
                          gait_state next, bool moving, double dt) {
    gait__motion *m = &ch->motion;
    if (next == GAIT_STATE_ACTION) {
        if (!m->playing) return false;
        /* the start cost as it starts (a new action replacing one starts again at 0 s) */
        double cost = m->seconds == 0 ? m->move.start_cost : 0;
        cost += m->move.drain_per_s * dt;
        if (!(cost > 0)) return false; /* no cost: the pool rests as in any state (no refill) */
        pay(&ch->stamina, cost, false);
        return true;
    }
    const gait__mode *md = gait__motion_mode(m, next);
    if (!md) return false;
    /* the mode's costs replace the state's */
    double cost = md->drain_per_s * dt;
    if (gait__motion_mode(m, from) != md) cost += md->start_cost;
    if (cost > 0) {
        pay(&ch->stamina, cost, md->flat_cost);
        return true;
    }
    gait_stamina_costs none;
    memset(&none, 0, sizeof none);
    none.swim_stroke_seconds = n->costs.swim_stroke_seconds;
    gait_stamina_step(&ch->stamina, &none, from, next, moving, dt);
    return true;
}

/* ---- the step: before the move ---------------------------------------------------------------- */

const gait_locomotion *gait__motion_prepare(gait__character *ch, const gait__motion_plan *plan,
                                            const gait_locomotion *n, gait_locomotion *scratch) {
    gait__body *b = &ch->body;
    gait_state s = ch->phase.state;
    b->water_floor = false;
    const gait__mode *md = gait__motion_mode(&ch->motion, s);
    bool lift = plan->lift && s == GAIT_STATE_GLIDE;
    if (!md && !lift) return n;
    *scratch = *n;
    if (md) {
        double v = md->speed;
        if (v > 0) {
            switch (s) {
            case GAIT_STATE_WALK: scratch->walk_speed = v; break;
            case GAIT_STATE_RUN: scratch->run_speed = v; break;
            case GAIT_STATE_DASH: case GAIT_STATE_SPRINT: scratch->dash_speed = scratch->sprint_speed = v; break;
            case GAIT_STATE_CROUCH: scratch->crouch_speed = v; break;
            case GAIT_STATE_GLIDE: scratch->glide_speed = v; break;
            case GAIT_STATE_SWIM: scratch->swim_speed = v; break;
            case GAIT_STATE_SWIM_DASH: scratch->swim_dash_speed = v; break;
            case GAIT_STATE_CLIMB: scratch->climb_speed = v; break;
            case GAIT_STATE_FALL: b->launch_speed = v; break; /* the stick steers it up to v */
            default: break;
            }
        }
        if (md->sink > 0) {
            if (s == GAIT_STATE_FALL) scratch->max_fall_speed = md->sink; /* a hover: a slow sink */
            if (s == GAIT_STATE_GLIDE) scratch->glide_sink = md->sink;
        }
        b->water_floor = md->walk_on_water && gait_state_on_foot(s);
    }
    /* an updraft: the glide's vertical speed is the updraft's (the sink, negated, rises) */
    if (lift) scratch->glide_sink = -plan->lift_vy;
    return scratch;
}

/* ---- the step: the action's move ------------------------------------------------------------- */

/* The velocity of keyframes at t (linear between keys, the first before, the last after). */
static gait_vec3 key_velocity(const gait__move *mv, double t) {
    const gait_move_key *k = mv->keys;
    if (t <= k[0].t) return k[0].velocity;
    for (int i = 1; i < mv->key_count; i++)
        if (t <= k[i].t) {
            double a = (t - k[i - 1].t) / (k[i].t - k[i - 1].t);
            return v3_lerp(k[i - 1].velocity, k[i].velocity, a);
        }
    return k[mv->key_count - 1].velocity;
}

/* Where a move toward a character heads: the target's feet as they stood at the start of this
 * world step (the world's copy), so the answer depends neither on whether the target has stepped
 * yet nor on the thread stepping it. */
static gait_vec3 target_point(const gait_world *w, const gait__character *self, const gait__move *mv) {
    (void)self;
    return v3_add(w->step_feet[mv->target.index1 - 1], mv->offset);
}

/* The point the move heads for now, passing the points already within reach. */
static gait_vec3 heading(const gait_world *w, gait__character *ch, gait_vec3 feet, double *dist) {
    gait__motion *m = &ch->motion;
    const gait__move *mv = &m->move;
    for (;;) {
        gait_vec3 p = mv->kind == GAIT_MOVE_TO_CHARACTER ? target_point(w, ch, mv) : mv->points[m->point];
        gait_vec3 d = v3_sub(p, feet);
        if (mv->horizontal) d.y = 0;
        *dist = v3_len(d);
        bool last = mv->kind == GAIT_MOVE_TO_CHARACTER || m->point + 1 >= mv->point_count;
        if (*dist > mv->arrive_distance || last) return d;
        m->point++;
    }
}

/* The action's own velocity for this step: at its start (v0), its end (v1), and the mean the
 * feet move by (exact for keyframes' straight segments); *face: turn the body along it. */
static void action_velocity(gait_world *w, gait_character_id id, gait__character *ch, double dt,
                            gait_vec3 *v0, gait_vec3 *v1, gait_vec3 *mean, bool *face) {
    gait__motion *m = &ch->motion;
    const gait__move *mv = &m->move;
    gait_vec3 zero = v3(0, 0, 0);
    *v0 = *v1 = *mean = zero;
    *face = false;
    if (!m->playing || m->hanging || m->arrived) return;
    switch (mv->kind) {
    case GAIT_MOVE_VELOCITY:
        *v0 = *v1 = *mean = mv->velocity;
        break;
    case GAIT_MOVE_KEYS:
        *v0 = key_velocity(mv, m->seconds);
        *v1 = key_velocity(mv, m->seconds + dt);
        *mean = v3_scale(v3_add(*v0, *v1), 0.5);
        break;
    case GAIT_MOVE_HOOK: {
        gait_vec3 v = zero;
        if (!m->hook || !m->hook(w, id, m->seconds + 0.5 * dt, &v, m->hook_user) || !speed_ok(v)) {
            m->hook_failed = true;
            return;
        }
        *v0 = *v1 = *mean = to_world(v, mv->frame, m->yaw0);
        break;
    }
    case GAIT_MOVE_TO_POINTS:
    case GAIT_MOVE_TO_CHARACTER: {
        double dist;
        gait_vec3 d = heading(w, ch, ch->position, &dist);
        if (dist <= mv->arrive_distance || dist <= 1e-9) return;
        /* at speed, but never past the point */
        double step = mv->speed * dt, k = step > dist ? dist / step : 1.0;
        *v0 = *v1 = *mean = v3_scale(d, mv->speed * k / dist);
        *face = true;
        break;
    }
    default:
        break;
    }
}

/* After the move: the arrival at the path's end (then ending, or hanging there). */
static void arrive(const gait_world *w, gait__character *ch) {
    gait__motion *m = &ch->motion;
    const gait__move *mv = &m->move;
    if (!m->playing || m->hanging || m->arrived ||
        (mv->kind != GAIT_MOVE_TO_POINTS && mv->kind != GAIT_MOVE_TO_CHARACTER))
        return;
    if (mv->kind == GAIT_MOVE_TO_CHARACTER && !gait_character_valid(w, mv->target)) return;
    double dist;
    heading(w, ch, ch->position, &dist);
    if (dist > mv->arrive_distance) return;
    if (mv->arrive == GAIT_ARRIVE_HANG) m->hanging = true;
    else m->arrived = true;
}

void gait__motion_move(gait_world *w, gait_gather *gather, gait_mover_bodies *bodies,
                       gait_character_id id, gait__character *ch, const gait_locomotion *n,
                       double dt) {
    gait__motion *m = &ch->motion;
    gait__body *b = &ch->body;
    if (m->playing && m->move.kind == GAIT_MOVE_TO_CHARACTER && !gait_character_valid(w, m->move.target))
        m->arrived = true; /* the target is gone: it ends at the next step */
    gait_mover mover;
    gait_mover_init(&mover, w->collider, n->capsule_radius,
                    gait__crouch_capsule_height(&ch->crouch, ch->phase.state, n), n->step_height,
                    n->max_walk_slope);
    mover.gather = gather; /* the step's gather: the same answers, one tree walk */
    mover.bodies = bodies; /* the other characters, as the step began (NULL: passes them by) */
    gait_vec3 v0, v1, mean;
    bool face;
    bool toward = m->playing && !m->hanging && !m->arrived &&
                  (m->move.kind == GAIT_MOVE_TO_POINTS || m->move.kind == GAIT_MOVE_TO_CHARACTER);
    double before = 0;
    int point_before = m->point;
    if (toward) heading(w, ch, ch->position, &before);
    action_velocity(w, id, ch, dt, &v0, &v1, &mean, &face);
    /* the action's gravity, from its start, integrated exactly (mean of the step's ends) and
     * capped at the body's terminal speed; none while hanging */
    double g0 = m->fall_vy, g1 = g0;
    if (m->playing && !m->hanging && m->move.gravity_scale > 0) {
        g1 = g0 - n->gravity * m->move.gravity_scale * dt;
        if (g1 < -n->max_fall_speed) g1 = -n->max_fall_speed;
    }
    gait_vec3 vel = v3(v1.x, v1.y + g1, v1.z);
    gait_vec3 delta = v3(mean.x * dt, (mean.y + 0.5 * (g0 + g1)) * dt, mean.z * dt);

    gait_vec3 start = ch->position, feet = start;
    gait_move_result r;
    /* on the ground and not rising: walk (steps up, follows the ground down, slides along
     * walls); else fly (slides, lands) */
    bool walk = b->on_ground && delta.y <= 0;
    if (walk)
        gait_mover_walk(&mover, &feet, v3(mean.x, 0, mean.z), b->ground_normal, dt, &b->near, &r);
    else
        gait__mover_fly_steered(&mover, &feet, delta, vel, &b->near, &r);
    gait_vec3 carried = walk ? v3(r.vel.x, 0, r.vel.z) : r.vel;
    gait_mover_settle(&mover, start, &feet, r.touched, carried.y <= 0, &r, &carried);

    ch->prev_position = start;
    ch->position = feet;
    ch->velocity = dt > 0 ? v3_scale(v3_sub(feet, start), 1.0 / dt) : v3(0, 0, 0);
    gait_vec3 hv = v3(mean.x, 0, mean.z);
    if (face && v3_len(hv) > FACE_SPEED) ch->yaw = atan2(hv.x, hv.z);

    m->met = (r.wall ? GAIT__MET_WALL : 0u) | (r.ceiling ? GAIT__MET_CEILING : 0u) |
             (r.grounded ? GAIT__MET_GROUND : 0u);
    if (!r.grounded) m->airborne_seen = true;
    m->fall_vy = r.grounded ? 0 : (carried.y > g1 ? g1 : (g1 < 0 ? g1 : 0));
    m->last_velocity = ch->velocity;
    if (m->playing) {
        m->seconds += dt;
        if (m->hanging) m->hang_seconds += dt;
        if (toward && m->point == point_before) { /* blocked: no nearer for a while */
            double after;
            heading(w, ch, ch->position, &after);
            m->stalled = before - after < STALL_PROGRESS * v3_len(mean) * dt ? m->stalled + 1 : 0;
        }
        arrive(w, ch);
    }

    /* the body's memory for the moves after the action, then the contact */
    gait__body_hand_over(b, r.grounded, r.ground_normal, carried);
    if (r.wall) {
        b->wall_normal = r.wall_normal;
        b->on_terrain_wall = r.wall_terrain;
    }
    gait_vec3 look = v3_len(hv) > FACE_SPEED ? v3_norm(hv) : v3(sin(ch->yaw), 0, cos(ch->yaw));
    gait_vec3 into = v3_norm(v3(-r.wall_normal.x, 0, -r.wall_normal.z));
    bool wall_ahead = r.wall && v3_dot(look, into) > AHEAD_COS;
    gait__sense_contact(ch, &mover, &r, wall_ahead, false, GAIT__PROBE_TO_TERRAIN);
}

/* ---- the step: anim ----------------------------------------------------------------------------- */

const char *gait__motion_clip(const gait__character *ch, double *fade_seconds) {
    const gait__motion *m = &ch->motion;
    *fade_seconds = 0;
    if (ch->phase.state == GAIT_STATE_ACTION) {
        if (!m->playing) return NULL;
        *fade_seconds = m->move.fade_seconds;
        return m->move.clip[0] ? m->move.clip : NULL;
    }
    const gait__mode *md = gait__motion_mode(m, ch->phase.state);
    return md && md->clip[0] ? md->clip : NULL;
}

/* ---- layouts (layouts.h) ------------------------------------------------------------------ */

/* A velocity a kit gave, in the body's frame or turned into the world's as the action started:
 * each part within the largest speed, or sqrt(2) of it once turned (1.5 here). */
#define KIT_SPEED (1.5 * GAIT_MOTION_MAX_SPEED)

static const gait__lfield launch_rows[] = {
    GAIT__LVEC3(gait_launch_def, velocity, -GAIT_MOTION_MAX_SPEED, GAIT_MOTION_MAX_SPEED, "m/s"),
    GAIT__LINT(gait_launch_def, frame, GAIT_FRAME_BODY, GAIT_FRAME_WORLD),
    GAIT__LBOOL(gait_launch_def, add),
};
static GAIT__LTABLE(launch_layout, gait_launch_def, launch_rows, NULL, NULL);

static const gait__lfield key_rows[] = {
    GAIT__LREAL(gait_move_key, t, 0, GAIT_MOTION_MAX_SECONDS, "s"),
    GAIT__LVEC3(gait_move_key, velocity, -KIT_SPEED, KIT_SPEED, "m/s"),
};
static GAIT__LTABLE(key_layout, gait_move_key, key_rows, NULL, NULL);

static const gait__lfield id_rows[] = {
    GAIT__LINT(gait_character_id, index1, 0, 1 << 20), /* a pool holds at most 1 << 20 */
    GAIT__LUINT(gait_character_id, generation, 0, 4294967295.0),
};
static GAIT__LTABLE(character_id_layout, gait_character_id, id_rows, NULL, NULL);

/* A stored move: the ranges of gait_character_start_move's def (a gadget's may last longer: its
 * seconds are its path's length over its speed). What a kind needs is move_rules'. */
static const gait__lfield move_rows[] = {
    GAIT__LTEXT(gait__move, name),
    GAIT__LTEXT(gait__move, clip),
    GAIT__LREAL(gait__move, fade_seconds, 0, 10, "s"),
    GAIT__LINT(gait__move, kind, 0, GAIT_MOVE_KIND_COUNT - 1),
    GAIT__LINT(gait__move, frame, GAIT_FRAME_BODY, GAIT_FRAME_WORLD),
    GAIT__LREAL(gait__move, seconds, 0, GAIT__LFINITE, "s"),
    GAIT__LVEC3(gait__move, velocity, -KIT_SPEED, KIT_SPEED, "m/s"),
    GAIT__LINT(gait__move, key_count, 0, GAIT_MOVE_MAX_KEYS),
    GAIT__LSTRUCTS(gait__move, keys, key_layout),
    GAIT__LINT(gait__move, point_count, 0, GAIT_MOVE_MAX_POINTS),
    GAIT__LVEC3(gait__move, points, -GAIT__POS_LIMIT, GAIT__POS_LIMIT, "m"),
    GAIT__LSTRUCT(gait__move, target, character_id_layout),
    GAIT__LVEC3(gait__move, offset, -1000, 1000, "m"),
    GAIT__LREAL(gait__move, speed, 0, GAIT_MOTION_MAX_SPEED, "m/s"),
    GAIT__LREAL(gait__move, arrive_distance, 0, 100, "m"),
    GAIT__LBOOL(gait__move, horizontal),
    GAIT__LINT(gait__move, arrive, 0, GAIT_ARRIVE_COUNT - 1),
    GAIT__LREAL(gait__move, hang_seconds, 0, GAIT_MOTION_MAX_SECONDS, "s"),
    GAIT__LREAL(gait__move, gravity_scale, 0, 10, ""),
    GAIT__LREAL(gait__move, start_cost, 0, 1e6, "stamina"),
    GAIT__LREAL(gait__move, drain_per_s, 0, 1e6, "stamina/s"),
    GAIT__LUINT(gait__move, end_on, 0, GAIT_END_ALL),
    GAIT__LUINT(gait__move, cancel_buttons, 0, GAIT_BUTTON_ALL),
    GAIT__LINT(gait__move, then, 0, GAIT_THEN_COUNT - 1),
};
static GAIT__LTABLE(move_layout, gait__move, move_rows, NULL, NULL);

static const gait__lfield mode_rows[] = {
    GAIT__LINT(gait__mode, state, 0, GAIT_STATE_COUNT - 1),
    GAIT__LTEXT(gait__mode, name),
    GAIT__LTEXT(gait__mode, clip),
    GAIT__LREAL(gait__mode, seconds_left, 0, GAIT_MOTION_MAX_SECONDS, "s"),
    GAIT__LBOOL(gait__mode, timed),
    GAIT__LREAL(gait__mode, speed, 0, GAIT_MOTION_MAX_SPEED, "m/s"),
    GAIT__LREAL(gait__mode, sink, 0, 100, "m/s"),
    GAIT__LREAL(gait__mode, start_cost, 0, 1e6, "stamina"),
    GAIT__LREAL(gait__mode, drain_per_s, 0, 1e6, "stamina/s"),
    GAIT__LBOOL(gait__mode, flat_cost),
    GAIT__LBOOL(gait__mode, walk_on_water),
    GAIT__LBOOL(gait__mode, end_when_empty),
};
static GAIT__LTABLE(mode_layout, gait__mode, mode_rows, NULL, NULL);

/* A move in use, as the setter (and a gadget) makes it: what its kind needs, keys in time order
 * from 0, a press that ends it names a button; `started`: in the world's frame, heading for one
 * of its points. */
static bool move_rules(const gait__move *mv, const char *which, bool started, int point,
                       char *err, size_t cap) {
#define BAD(...) (snprintf(err, cap, __VA_ARGS__), false)
    if (!(mv->seconds > 0)) return BAD("%s.seconds = %g: a move lasts more than 0 s", which, mv->seconds);
    if (mv->kind == GAIT_MOVE_KEYS) {
        if (mv->key_count < 1) return BAD("%s.key_count = 0 for a move by keys", which);
        if (mv->keys[0].t != 0) return BAD("%s.keys[0].t = %g must be 0", which, mv->keys[0].t);
        for (int i = 1; i < mv->key_count; i++)
            if (!(mv->keys[i].t > mv->keys[i - 1].t))
                return BAD("%s.keys[%d].t = %g must be after keys[%d].t = %g", which, i,
                           mv->keys[i].t, i - 1, mv->keys[i - 1].t);
    }
    bool toward = mv->kind == GAIT_MOVE_TO_POINTS || mv->kind == GAIT_MOVE_TO_CHARACTER;
    if (mv->kind == GAIT_MOVE_TO_POINTS && mv->point_count < 1)
        return BAD("%s.point_count = 0 for a move to points", which);
    if (toward && !(mv->speed > 0)) return BAD("%s.speed = 0 for a move toward a target", which);
    if ((mv->end_on & GAIT_END_PRESS) && !mv->cancel_buttons)
        return BAD("%s.end_on has press but cancel_buttons names no button", which);
    if (started && mv->frame != GAIT_FRAME_WORLD && mv->kind != GAIT_MOVE_HOOK)
        return BAD("%s.frame: a started move's velocities are the world's", which);
    if (started && mv->kind == GAIT_MOVE_TO_POINTS && point >= mv->point_count)
        return BAD("point = %d is past %s.point_count = %d", point, which, mv->point_count);
    return true;
#undef BAD
}

/* The request's and the playing move's needs; the modes held, each one a mode of the setter's
 * (a state a mode replaces, a sink for fall and glide only, water under feet only, timed ones
 * with time left); the cooling bits those of the cooldowns running. */
static bool motion_rules(const void *base, char *err, size_t cap) {
    const gait__motion *m = base;
    if (m->request == GAIT__REQ_MOVE) {
        if (!move_rules(&m->next, "next", false, 0, err, cap)) return false;
        if (!(m->next.seconds <= GAIT_MOTION_MAX_SECONDS)) {
            snprintf(err, cap, "next.seconds = %g is out of range; allowed (0, %g] s",
                     m->next.seconds, GAIT_MOTION_MAX_SECONDS);
            return false;
        }
    }
    if (m->playing && !move_rules(&m->move, "move", true, m->point, err, cap)) return false;
    for (int i = 0; i < m->mode_count; i++) {
        const gait__mode *md = &m->modes[i];
        const char *why = !mode_state_ok(md->state) ? "is not a state a mode replaces"
                        : md->sink > 0 && md->state != GAIT_STATE_FALL &&
                                  md->state != GAIT_STATE_GLIDE ? "has a sink (fall and glide only)"
                        : md->walk_on_water && !gait_state_on_foot(md->state)
                            ? "walks on water (states on foot only)"
                        : md->timed != (md->seconds_left > 0) ? "is timed with no time left, or untimed with some"
                        : NULL;
        if (why) {
            snprintf(err, cap, "modes[%d] (state %d) %s", i, (int)md->state, why);
            return false;
        }
        for (int k = 0; k < i; k++)
            if (m->modes[k].state == md->state) {
                snprintf(err, cap, "modes[%d] and modes[%d] are both for state %d", k, i,
                         (int)md->state);
                return false;
            }
    }
    uint32_t running = 0;
    for (int i = 0; i < GAIT_BUTTON_COUNT; i++)
        if (m->cooldown[i] > 0) running |= 1u << i;
    if (m->cooling != running) {
        snprintf(err, cap, "cooling = 0x%x is not the running cooldowns' 0x%x", (unsigned)m->cooling,
                 (unsigned)running);
        return false;
    }
    return true;
}

static const gait__lfield motion_rows[] = {
    GAIT__LINT(gait__motion, request, GAIT__REQ_NONE, GAIT__REQ_END),
    GAIT__LSTRUCT(gait__motion, launch, launch_layout),
    GAIT__LINT(gait__motion, request_gadget, -1, 4095), /* gadget.c's GADGETS_MAX - 1 */
    GAIT__LBOOL(gait__motion, playing),
    GAIT__LREAL(gait__motion, seconds, 0, GAIT__LFINITE, "s"),
    GAIT__LREAL(gait__motion, yaw0, -GAIT_WORLD_LIMIT, GAIT_WORLD_LIMIT, "rad"),
    GAIT__LREAL(gait__motion, fall_vy, -GAIT__SPEED_LIMIT, 0, "m/s"),
    GAIT__LINT(gait__motion, point, 0, GAIT_MOVE_MAX_POINTS - 1),
    GAIT__LBOOL(gait__motion, hanging),
    GAIT__LBOOL(gait__motion, arrived),
    GAIT__LREAL(gait__motion, hang_seconds, 0, GAIT__LFINITE, "s"),
    GAIT__LBOOL(gait__motion, airborne_seen),
    GAIT__LBOOL(gait__motion, hook_failed),
    GAIT__LINT(gait__motion, stalled, 0, 1 << 30),
    GAIT__LUINT(gait__motion, met, 0, GAIT__MET_WALL | GAIT__MET_CEILING | GAIT__MET_GROUND),
    GAIT__LVEC3(gait__motion, last_velocity, -GAIT__SPEED_LIMIT, GAIT__SPEED_LIMIT, "m/s"),
    GAIT__LINT(gait__motion, gadget, -1, 4095),
    GAIT__LINT(gait__motion, mode_count, 0, GAIT_MODE_MAX),
    GAIT__LREAL(gait__motion, cooldown, 0, GAIT_MOTION_MAX_SECONDS, "s"),
    GAIT__LUINT(gait__motion, cooling, 0, GAIT_BUTTON_ALL),
    GAIT__LHOST(gait__motion, hook),
    GAIT__LHOST(gait__motion, hook_user),
    GAIT__LSTRUCT(gait__motion, next, move_layout),
    GAIT__LSTRUCT(gait__motion, move, move_layout),
    GAIT__LSTRUCTS(gait__motion, modes, mode_layout),
};
#undef KIT_SPEED
GAIT__LTABLE(gait__motion_layout, gait__motion, motion_rows, NULL, motion_rules);
