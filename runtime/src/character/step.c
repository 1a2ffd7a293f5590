/* The step (docs/design.md, "The step"): one fixed step of one character, in one direction —
 *
 *   input   -> the held presses, the switches, the move against the camera (intent.c)
 *   kits    -> (Lua, before the step: presses taken, an action that holds the body)
 *   sense   -> the contact the last move left, and what the crouch needs (sense.c)
 *   gates   -> the next state: crouch, locomotion, traversal (gates.c, pure), with the ledge
 *              ahead scanned between its halves when a traversal could start (sense.c)
 *   motion  -> a kit's launch or moving action, a world gadget's (motion.c, gadget.c)
 *   hooks   -> the traversal hook, the gate hook (the host's or a kit's); what they let through
 *              of the motion takes effect
 *   stamina -> the costs of the state entered and held, or the refill (stamina.c; a kit's
 *              action or mode pays its own)
 *   move    -> the motion the state asks for, through the mover: a drowning's return, the
 *              traversal's path (traverse_action.c), a kit's moving action (motion.c) or the
 *              body (body.c, with a kit's mode's numbers); the contact
 *   anim    -> the animation signal (anim.c); the camera follows once a frame (world.c)
 *
 * No stage reaches back into one before it. A step of one character reads the world's shared
 * data (collider, numbers, tables) and writes only that character, so ranges of characters may
 * run apart (gait__world_step_range). */
#include <math.h>
#include <string.h>

#include "core/vec.h"
#include "gates.h"
#include "intent.h"
#include "motion.h"
#include "mover_internal.h"
#include "sense.h"
#include "world_internal.h"

#define ACTION_END_EPS 1e-9    /* s: a kit action this close to its end has ended */

/* ---- gates ------------------------------------------------------------------------------- */

static void gates_input(const gait_world *w, gait__character *ch, const gait__intent *in,
                        const gait_locomotion *num, const gait__senses *sn, double dt,
                        gait__gates_in *g) {
    g->phase = ch->phase; /* every member set below: no memset on the step's path */
    g->input.move = in->move;
    g->input.move_up = in->climb_y;
    g->input.walking = in->walking;
    g->input.crouching = in->crouching;
    g->input.pressed = in->pressed;
    g->input.held = in->held;
    g->input.stamina = ch->stamina.value;
    g->input.stamina_multiplier = ch->stamina.multiplier;
    g->contact = &ch->contact;
    g->senses = sn;
    g->numbers = num;
    g->crouch = ch->crouch;
    g->cooldown = ch->trav.cooldown;
    g->action_playing = gait__traverse_playing(&ch->trav);
    g->can_traverse = w->traverse_table.count > 0;
    g->auto_stand_seconds = w->traverse_table.auto_crouch_stand_seconds;
    g->move_dir = in->dir_n;
    double s, c;
    gait__sincos(&ch->yaw_trig, ch->yaw, &s, &c);
    g->facing = v3(s, 0, c);
    g->speed = sqrt(ch->velocity.x * ch->velocity.x + ch->velocity.z * ch->velocity.z);
    g->on_terrain_wall = ch->body.on_terrain_wall;
    g->wall_normal = ch->body.wall_normal;
    g->dt = dt;
}

/* The rules' memory after the gates. */
static void gates_remember(gait__character *ch, const gait__gates_out *g, gait_state from) {
    gait__traverse *t = &ch->trav;
    ch->crouch = g->crouch;
    t->cooldown = g->cooldown;
    /* out of the state (a place, a drowning's return) no action is playing: a later entry that
     * skipped the scan (a hook's redirect) must not resume a stale path */
    if (from != GAIT_STATE_TRAVERSE) {
        t->phase = GAIT_TRAVERSE_PHASE_DONE;
        t->latch = false;
    }
}

/* ---- hooks ------------------------------------------------------------------------------- */

/* The traversal hook may add, change or refuse the action offered for a ledge; the gate hook may
 * allow, veto or redirect the change of state (an edge from `from` only). */
static gait_state run_hooks(gait_world *w, gait_character_id id, gait__character *ch,
                            const gait__senses *sn, const gait__gates_out *g, gait_state from) {
    gait__traverse *t = &ch->trav;
    if (sn->scanned) { /* the last scan, as traverse info and the debug view show it */
        t->scan = sn->scan;
        t->query = sn->query;
        t->scanned = true;
        t->scan_deferred = sn->deferred;
        t->scan_revision = gait_collider_revision(w->collider) + 1;
        if (sn->proved_free) {
            t->free_lo = sn->free_lo;
            t->free_hi = sn->free_hi;
            t->free_filter = sn->query.filter;
            t->free_slope = sn->query.max_ledge_slope;
            t->free_revision = t->scan_revision;
        }
    }
    t->pending = false;
    gait_state next = g->next;
    if (g->ledge) {
        gait_traverse_kind k = g->action;
        if (t->hook) {
            gait_traverse_kind h = t->hook(w, id, &t->scan, k, t->hook_user);
            if ((unsigned)h < GAIT_TRAVERSE_KIND_COUNT) k = h;
        }
        if (k != GAIT_TRAVERSE_NONE) {
            next = GAIT_STATE_TRAVERSE;
            t->pending = true;
            t->pending_kind = k;
            t->pending_row = g->action_row;
        } else {
            next = g->fallback;
        }
    }
    if (next != from && ch->gate_hook) {
        gait_state s = ch->gate_hook(w, id, from, next, ch->gate_user);
        if ((unsigned)s < GAIT_STATE_COUNT && (s == from || gait_locomotion_is_edge(from, s))) next = s;
    }
    return next;
}

/* ---- move -------------------------------------------------------------------------------- */

/* What moves the body this step. A kit's moving action, a platform carrying the body, or another
 * body blocking it (resolved against the positions at the start of the step) would each be one
 * more case here, every one of them through the mover. */
typedef enum motion {
    MOTION_BODY,       /* the state's own motion (body.c) */
    MOTION_TRAVERSE,   /* the traversal's path (traverse_action.c) */
    MOTION_KIT,        /* a kit's (or a gadget's) moving action (motion.c) */
    MOTION_RETURN      /* a drowning's end: back to the return point */
} motion;

static motion motion_of(gait_state from, gait_state state) {
    if (from == GAIT_STATE_DROWN && state != GAIT_STATE_DROWN) return MOTION_RETURN;
    if (state == GAIT_STATE_TRAVERSE) return MOTION_TRAVERSE;
    if (state == GAIT_STATE_ACTION) return MOTION_KIT;
    return MOTION_BODY;
}

/* What the body stands on after its move, when that moves: the landmark, its velocity under the
 * feet, and whether it holds the body inside it (crushed). Read only: nothing here feeds the
 * next step. */
static void carrier(const gait_collider *col, gait_gather *gather, gait__character *ch,
                    const gait_locomotion *num, double dt) {
    static const gait_landmark_id none = GAIT_NULL_ID_INIT;
    ch->carrier = none;
    ch->carrier_velocity = v3(0, 0, 0);
    ch->crushed = false;
    if (gait_collider_moving_count(col) == 0) return;
    gait_landmark_id lm = ch->body.on_ground ? ch->body.ground_lm : none;
    gait_vec3 after;
    if (lm.index1 && gait_collider_landmark_moving(col, lm) &&
        gait_collider_landmark_carry(col, lm, ch->position, &after, NULL) == GAIT_OK) {
        ch->carrier = lm;
        ch->carrier_velocity = v3_scale(v3_sub(after, ch->position), 1.0 / dt);
    }
    ch->crushed = gait__body_crushed(col, gather, ch, num);
}

static void move(gait_world *w, gait_character_id id, gait__character *ch,
                 const gait__intent *in, const gait_locomotion *num, const gait__gates_out *g,
                 gait_state from, double dt, gait_gather *gather) {
    const gait_collider *col = w->collider;
    /* the other characters, as the step began (crowd.c) */
    gait_mover_bodies bodies;
    gait_mover_bodies *others = ch->collide && gait__bodies_begin(&bodies, &w->crowd, id.index1 - 1) ? &bodies : NULL;
    /* a crouched body's fall starts where it can stand (crouch.c), not blended from above */
    if (g->drop) gait__crouch_drop(&ch->crouch, col, &ch->position, num);
    ch->prev_position = ch->position;
    ch->prev_yaw = ch->yaw;
    motion mo = motion_of(from, ch->phase.state);
    /* a moving landmark under the body (or climbed) carries it first, or hands it its velocity
     * as it leaves (body.c); what the body then does is its own move from there */
    gait__carry carry;
    memset(&carry, 0, sizeof carry);
    if (mo != MOTION_RETURN) gait__body_carry(col, gather, others, ch, num, dt, &carry);
    switch (mo) {
    case MOTION_RETURN:
        /* a drowned body comes back where its stamina was last full on foot, refilled */
        ch->position = ch->return_point;
        ch->yaw = ch->return_yaw;
        ch->velocity = v3(0, 0, 0);
        ch->stamina.value = ch->stamina.max;
        gait__body_place(col, ch, num);
        /* a return point in water too deep to stand in (a body placed there that never stood
         * on the ground since): the nearest ground it can stand on instead */
        if (!gait__body_can_wade(&ch->contact, num)) gait__body_place_ashore(col, ch, num);
        ch->prev_position = ch->position;
        ch->prev_yaw = ch->yaw;
        break;
    case MOTION_TRAVERSE:
        gait__traverse_move(col, gather, others, &w->traverse_table, ch, num, dt);
        break;
    case MOTION_KIT:
        gait__motion_move(w, gather, others, id, ch, num, dt);
        break;
    case MOTION_BODY:
        gait__body_move(col, gather, others, ch, in, num, from, dt);
        gait__body_leave(ch, &carry);
        break;
    }
    carrier(col, gather, ch, num, dt);
}

/* ---- one character, one step ------------------------------------------------------------- */

static void step_character(gait_world *w, gait_character_id id, gait__character *ch, double dt,
                           gait_gather *own) {
    const gait_locomotion *num = gait_world_locomotion(w, ch->body_type);

    /* input (kits ran before the step: a kit action has zeroed the move) */
    gait__intent in;
    gait__intent_read(ch, num, &in);

    /* sense */
    gait__senses sn;
    gait__sense_surroundings(w->collider, own, ch, &in, num, &sn);

    /* gates, the ledge between their halves */
    gait_state from = ch->phase.state;
    gait__gates_in gin;
    gates_input(w, ch, &in, num, &sn, dt, &gin);
    gait__gates_out g;
    gait__gates_propose(&gin, &g);
    /* the scan's some 30 queries only where a traversal could start. Into the body's own
     * gather: the ledge box holds the body's move after it, which the move then asks of that
     * gather instead of walking the trees for its own (into the shared one, the move gathered
     * again: the level's whole step 15,483 -> 14,828 Ir, the same bits on every scene; one map,
     * oa_dm1, +2.0 %) */
    if (g.request.want)
        gait__sense_ledge(w->collider, own, &w->traverse_table, ch->position, &g.request, num,
                          &ch->trav, &sn);
    gait__gates_decide(&gin, &g);
    gates_remember(ch, &g, from);

    /* motion: a kit's request or action, a gadget, in place of the gates' answer (a body no kit
     * or gadget touches skips the motion stages) */
    bool kit_motion = gait__motion_wanted(&ch->motion, from, w->gadget_count);
    gait__motion_plan plan;
    if (kit_motion) {
        gait_state motion_next = gait__motion_gate(w, ch, &g.input, num, sn.low_ceiling, from, g.next, &plan);
        if (motion_next != g.next) {
            g.next = motion_next;
            g.ledge = false;
        }
    }

    /* hooks */
    gait_state next = run_hooks(w, id, ch, &sn, &g, from);
    if (kit_motion) gait__motion_commit(w, ch, &plan, from, next, num, dt);

    /* stamina */
    bool moving = gait_stamina_moving(from, next, in.move, v3_len(ch->velocity), num->move_epsilon);
    if (!kit_motion || !gait__motion_stamina(ch, num, from, next, moving, dt))
        gait_stamina_step(&ch->stamina, &num->costs, from, next, moving, dt);

    gait__intent_climb(ch, from, next, &in);
    ch->previous_state = from;
    if (next != from) {
        ch->phase.state = next;
        ch->phase.seconds = 0;
    }
    ch->phase.seconds += dt;

    /* move (a kit's mode moves by its own numbers) */
    gait_locomotion mode_numbers;
    move(w, id, ch, &in, kit_motion ? gait__motion_prepare(ch, &plan, num, &mode_numbers) : num,
         &g, from, dt, own);

    /* anim */
    gait_anim_input ai;
    ai.state = ch->phase.state;
    ai.raw_grounded = ch->contact.grounded;
    ai.height_above_ground = ch->contact.height_above_ground;
    ai.step_height = num->step_height;
    ai.horizontal_speed = sqrt(ch->velocity.x * ch->velocity.x + ch->velocity.z * ch->velocity.z);
    ai.move = in.move;
    /* a kit's action or mode may play a clip of its own */
    double fade = 0;
    const char *clip = kit_motion ? gait__motion_clip(ch, &fade) : NULL;
    gait_anim_update_clip(&ch->anim, &ai, clip, fade, dt);

    /* the drowning's return point: on foot on the ground with a full pool, where the move ended
     * on ground shallow enough to stand in (the contact is the move's: the state is the gates',
     * chosen before the move, which may have walked on into deep water) */
    if (gait_state_on_foot(ch->phase.state) && ch->contact.grounded &&
        gait__body_can_wade(&ch->contact, num) && ch->stamina.value >= ch->stamina.max) {
        ch->return_point = ch->position;
        ch->return_yaw = ch->yaw;
    }
    if (ch->action_left > 0) {
        ch->action_left -= dt;
        if (ch->action_left <= ACTION_END_EPS) {
            ch->action_left = 0;
            ch->action_name[0] = 0;
        }
    }
    ch->steps++;
}

bool gait__character_hooked(const gait__character *ch) {
    return ch->gate_hook != NULL || ch->trav.hook != NULL || ch->motion.hook != NULL;
}

/* A crowd's step reads each character's record and gather after the last one's evicted them
 * from the nearer caches (5 KiB and a few hundred bytes of boxes a character: a thousand of them
 * outgrow the core's cache). Each is asked for ahead: the gather's own struct three characters
 * on, its scratch's header two on, and the character and its gather's runs, boxes and the
 * triangle records its queries built one on, so no request waits on another. At 1000 characters
 * on the level the whole step's mean over runs alternating with and without went 5.29 -> 4.81 us
 * (16 and 14 runs: a noisy machine); the records, read one after another as a query's candidates
 * come up, 3.43 -> 3.22 us more (with each record's own copy of its source's index: 10 pairs
 * of runs; oa_dm1 6.18 -> 5.57, 6 pairs). The
 * prefetches cost some 300 instructions a step (the records' 76 of them: 300 characters on the
 * level, 50 -> 126 in gait__gather_prefetch), so a range of fewer than PREFETCH_FROM characters
 * (whose records and boxes stay in the core's cache from one step to the next) skips them.
 * Only hints: nothing is written, the same bits. */
#define PREFETCH_FROM 256
static void prefetch_ahead(gait_world *w, int i, int end, gait_gather *shared) {
    if (i + 3 < end) gait__gather_prefetch(gait__own_gather(w, i + 3, shared), 0);
    if (i + 2 < end) gait__gather_prefetch(gait__own_gather(w, i + 2, shared), 1);
    if (i + 1 < end) {
        /* its every-step part: the pose to the traversal's last scan, and the heads of the
         * anim and the motion (their large tails are read only while in use) */
        const gait__character *n = &w->characters[i + 1];
        const char *head = (const char *)n, *anim = (const char *)&n->anim;
        const char *mo = (const char *)&n->motion;
        for (const char *p = head; p < anim; p += 64) __builtin_prefetch(p);
        __builtin_prefetch(anim);
        __builtin_prefetch(anim + 64);
        __builtin_prefetch(anim + 128);
        __builtin_prefetch(mo);
        __builtin_prefetch(mo + 64);
        gait__gather_prefetch(gait__own_gather(w, i + 1, shared), 2);
    }
}

int gait__world_step_range(gait_world *w, int first, int end, double dt, bool hooked,
                           uint32_t worker) {
    gait_gather *gather = &w->gathers[worker].g;
    int passed = 0;
    bool crowd = end - first >= PREFETCH_FROM;
    for (int i = first; i < end; i++) {
        gait__character *ch = &w->characters[i];
        if (crowd) prefetch_ahead(w, i, end, gather);
        if (!ch->alive) continue;
        if (gait__character_hooked(ch) != hooked) {
            passed++;
            continue;
        }
        gait_character_id id = {i + 1, ch->generation};
        step_character(w, id, ch, dt, gait__own_gather(w, i, gather));
    }
    return passed;
}
