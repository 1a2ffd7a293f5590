/* The gates (docs/behaviour.md, "States and transitions"): from the step's input, the contact and
 * the sense stage's readings to the next state, as one pure function in two halves.
 *
 *   propose: the crouch the gates see (crouch.c: the switch, a low opening, the stand-up check),
 *            then the locomotion state machine (locomotion.c: gait_locomotion_next), then
 *            whether a traversal could start here — a ledge the sense stage should scan;
 *   decide:  the crouch's transitions (crouch.c: no growing into a low ceiling, an edge's
 *            flicker held, a fall begun where the body can stand), then the traversal's: a jump
 *            pressed (or held, chaining) on foot over a ledge the table has an action for, a
 *            climb up to a ledge within reach, an action that ended.
 * Nothing here queries the world or changes a character: the memory the rules keep (the
 * crouch's, the traversal's cooldown) comes in and goes out by value. The traversal hook and the
 * gate hook run after, in the step. */
#include "gates.h"

#include <string.h>

#include "core/vec.h"

#define CLIMB_WALL_MIN 0.25   /* a climbed wall's horizontal normal must be at least this long
                                 (squared) to face a ledge over it: an overhang's is not */

static bool has(uint32_t bits, uint32_t b) { return (bits & b) != 0; }

static gait__ledge_request ledge_request(gait_vec3 forward, double speed, bool climbing) {
    gait__ledge_request r;
    r.want = true;
    r.forward = forward;
    r.speed = speed;
    r.climbing = climbing;
    return r;
}

void gait__gates_propose(const gait__gates_in *in, gait__gates_out *out) {
    const gait_locomotion *n = in->numbers;
    const gait_contact *c = in->contact;
    gait_state from = in->phase.state;
    out->cooldown = in->cooldown > in->dt ? in->cooldown - in->dt : 0;
    out->crouch = in->crouch;
    out->input = in->input;
    out->input.crouching = gait__crouch_before(&out->crouch, from, in->input.crouching,
                                               in->senses->low_ceiling, in->senses->opening,
                                               in->auto_stand_seconds, in->dt);
    out->proposed = gait_locomotion_next(&in->phase, &out->input, c, n);
    memset(&out->request, 0, sizeof out->request);
    if (!in->can_traverse) return;

    gait_state proposed = out->proposed;
    bool jump_pressed = has(out->input.pressed, GAIT_BUTTON_JUMP);
    bool jump_held = has(out->input.held, GAIT_BUTTON_JUMP);
    gait_vec3 forward = v3_len2(in->move_dir) > 0.5 ? in->move_dir : in->facing;
    if (from == GAIT_STATE_TRAVERSE) {
        /* chaining: jump still held re-plans at once once the cooldown is over */
        if (!in->action_playing && (jump_held || jump_pressed) && out->cooldown <= 0 &&
            c->grounded)
            out->request = ledge_request(forward, in->speed, false);
    } else if (gait_state_on_foot(from) && c->grounded && from != GAIT_STATE_CROUCH &&
               (proposed == GAIT_STATE_JUMP || proposed == GAIT_STATE_CLIMB ||
                gait_state_on_foot(proposed))) {
        /* a press plans; a held jump re-plans every step once the cooldown is over (chaining);
         * (a held jump also beats the climb a run into a low fence would start) */
        if (jump_pressed || (jump_held && out->cooldown <= 0))
            out->request = ledge_request(forward, in->speed, false);
    } else if (from == GAIT_STATE_CLIMB && proposed == GAIT_STATE_CLIMB &&
               out->input.move_up > n->move_epsilon) {
        /* climbing up a wall (a landmark or a terrain cliff): a ledge within reach above is mantled */
        gait_vec3 wn = v3(in->wall_normal.x, 0, in->wall_normal.z);
        if (v3_len2(wn) > CLIMB_WALL_MIN) out->request = ledge_request(v3_neg(v3_norm(wn)), 0, true);
    }
}

void gait__gates_decide(const gait__gates_in *in, gait__gates_out *out) {
    const gait_locomotion *n = in->numbers;
    const gait_contact *c = in->contact;
    const gait__senses *sn = in->senses;
    gait_state from = in->phase.state;
    out->drop = false;
    out->ledge = false;
    out->action = GAIT_TRAVERSE_NONE;
    out->action_row = -1;
    if (from == GAIT_STATE_TRAVERSE) {
        if (in->action_playing) { /* the action plays on */
            out->next = out->fallback = GAIT_STATE_TRAVERSE;
            return;
        }
        /* the action is over: the gates as if on foot (or falling), the jump already spent */
        gait_phase p = {c->grounded ? GAIT_STATE_IDLE : GAIT_STATE_FALL, 1.0};
        gait_gate_input g = out->input;
        g.pressed &= ~(uint32_t)GAIT_BUTTON_JUMP;
        gait_state over = gait_locomotion_next(&p, &g, c, n);
        if (!gait_locomotion_is_edge(GAIT_STATE_TRAVERSE, over))
            over = c->grounded ? GAIT_STATE_IDLE : GAIT_STATE_FALL;
        out->fallback = over;
    } else {
        gait_state s = gait__crouch_after(&out->crouch, from, out->proposed, c, sn->low_ceiling,
                                          out->input.crouching, n, &out->drop);
        out->fallback = s;
        if (s != out->proposed) { /* the crouch held the body */
            out->next = s;
            return;
        }
    }
    out->next = out->fallback;
    /* a ledge with room where a traversal could start: the table's action, if it has one (the
     * traversal hook, after, may add, change or refuse it; nothing fits: the gates' own answer
     * stands — a press jumps) */
    if (out->request.want && sn->scanned && sn->scan.ok) {
        out->ledge = true;
        out->action = sn->offer;
        out->action_row = sn->offer_row;
        if (sn->offer != GAIT_TRAVERSE_NONE) out->next = GAIT_STATE_TRAVERSE;
    }
}
