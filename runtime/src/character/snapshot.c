/* Snapshots (save / restore the simulation state bit for bit) and the state hash. */
#include "world_internal.h"

#include <string.h>

#define FAIL GAIT__FAIL

/* Layout: header, clock, steps, numbers, characters[capacity]. Structs are copied whole: the
 * snapshot is for the same build, and every struct was zeroed before it was filled, so padding
 * bytes are zero and the bytes (and their hash) depend on the state alone. */
typedef struct snapshot_header {
    char magic[8];              /* "gaitsnp1" */
    uint32_t header_size, character_size;
    uint32_t capacity, count;
    uint64_t payload_size;
    uint64_t checksum;          /* FNV-1a of the payload */
} snapshot_header;

static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

#define FNV_BASIS 14695981039346656037ull

static size_t payload_size(const gait_world *w) {
    return sizeof w->clock + sizeof w->steps + sizeof w->provisional + sizeof w->measured +
           sizeof w->is_measured + sizeof(gait__character) * (size_t)w->capacity;
}

size_t gait_world_snapshot_size(const gait_world *w) {
    return w ? sizeof(snapshot_header) + payload_size(w) : 0;
}

/* Copies the state to or from a payload, in one order for both directions. On restore the
 * host's own pointers in each slot (gate hook, its user pointer, user data) stay as they are. */
static void payload_copy(gait_world *w, unsigned char *p, bool save) {
#define PART(field)                                                   \
    do {                                                              \
        if (save) memcpy(p, &(field), sizeof(field));                 \
        else memcpy(&(field), p, sizeof(field));                      \
        p += sizeof(field);                                           \
    } while (0)
    PART(w->clock);
    PART(w->steps);
    PART(w->provisional);
    PART(w->measured);
    PART(w->is_measured);
#undef PART
    for (int i = 0; i < w->capacity; i++, p += sizeof(gait__character)) {
        gait__character *ch = &w->characters[i];
        if (save) {
            memcpy(p, ch, sizeof *ch);
            continue;
        }
        gait_gate_hook hook = ch->gate_hook;
        void *gate_user = ch->gate_user, *user_data = ch->user_data;
        gait_traverse_hook trav_hook = ch->trav.hook; /* the host's, like the gate hook */
        void *trav_user = ch->trav.hook_user;
        gait_move_hook move_hook = ch->motion.hook;
        void *move_user = ch->motion.hook_user;
        memcpy(ch, p, sizeof *ch);
        ch->gate_hook = hook;
        ch->gate_user = gate_user;
        ch->user_data = user_data;
        /* the body's open-country cache is keyed to this collider's revision: a snapshot from
         * another world could carry a matching number for other geometry. It is only a
         * shortcut (results are the same bits either way), so drop it */
        ch->body.near.valid = false;
        ch->trav.scan_revision = 0; /* the last scan's shortcut, for the same reason */
        ch->trav.hook = trav_hook;
        ch->trav.hook_user = trav_user;
        ch->motion.hook = move_hook;
        ch->motion.hook_user = move_user;
        gait__motion_sanitize(&ch->motion);
    }
}

gait_status gait_world_snapshot_save(const gait_world *w, void *buffer, size_t capacity,
                                     size_t *out_size) {
    if (!w || !buffer) return GAIT_ERR_INVALID_ARGUMENT;
    size_t need = gait_world_snapshot_size(w);
    if (capacity < need)
        return FAIL((gait_world *)w, GAIT_ERR_CAPACITY, "snapshot: needs %zu bytes, buffer has %zu",
                    need, capacity);
    unsigned char *p = buffer;
    snapshot_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, "gaitsnp1", 8);
    h.header_size = sizeof h;
    h.character_size = sizeof(gait__character);
    h.capacity = (uint32_t)w->capacity;
    h.count = (uint32_t)w->count;
    h.payload_size = payload_size(w);
    payload_copy((gait_world *)w, p + sizeof h, true);
    h.checksum = fnv1a(FNV_BASIS, p + sizeof h, h.payload_size);
    memcpy(p, &h, sizeof h);
    if (out_size) *out_size = need;
    return GAIT_OK;
}

gait_status gait_world_snapshot_restore(gait_world *w, const void *buffer, size_t size) {
    if (!w || !buffer) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "snapshot: restore refused while the world steps");
    snapshot_header h;
    if (size < sizeof h) return FAIL(w, GAIT_ERR_FORMAT, "snapshot: %zu bytes is too short", size);
    memcpy(&h, buffer, sizeof h);
    if (memcmp(h.magic, "gaitsnp1", 8) != 0 || h.header_size != sizeof h)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: not a gait snapshot (bad magic)");
    if (h.character_size != sizeof(gait__character) || h.capacity != (uint32_t)w->capacity ||
        h.payload_size != payload_size(w) || size < sizeof h + h.payload_size)
        return FAIL(w, GAIT_ERR_FORMAT,
                    "snapshot: made by another build or a world of another size (capacity %u, "
                    "this world %d)", h.capacity, w->capacity);
    const unsigned char *p = (const unsigned char *)buffer + sizeof h;
    if (fnv1a(FNV_BASIS, p, h.payload_size) != h.checksum)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: checksum mismatch (corrupted)");
    payload_copy(w, (unsigned char *)p, false);
    w->count = (int)h.count;
    return GAIT_OK;
}

/* Hashes members one by one: whole-struct bytes would take in padding, which struct
 * assignments may fill with whatever the source's stack held. */
static uint64_t hash_d(uint64_t h, double v) { return fnv1a(h, &v, sizeof v); }
static uint64_t hash_v(uint64_t h, gait_vec3 v) { return hash_d(hash_d(hash_d(h, v.x), v.y), v.z); }
static uint64_t hash_u(uint64_t h, uint64_t v) { return fnv1a(h, &v, sizeof v); }

/* The three hashes share their member lists, so the state hash is the very sequence of bytes it
 * always was: its slot (alive, generation), then the simulation's head, the presentation's
 * camera and animation, the simulation's tail. */
static uint64_t hash_slot(uint64_t h, const gait__character *ch) {
    h = hash_u(h, ch->alive);
    return hash_u(h, ch->generation);
}

/* What the steps read and write, up to the camera's yaw (the moves are relative to it:
 * ch->camera_yaw, always equal to camera.yaw). */
static uint64_t hash_sim_head(uint64_t h, const gait__character *ch) {
    h = hash_v(hash_v(hash_v(h, ch->position), ch->prev_position), ch->velocity);
    h = hash_d(hash_d(h, ch->yaw), ch->prev_yaw);
    h = hash_u(hash_d(h, ch->phase.seconds), (uint64_t)ch->phase.state);
    h = hash_u(h, (uint64_t)ch->previous_state);
    const gait_contact *c = &ch->contact;
    h = hash_u(h, (uint64_t)c->grounded | (uint64_t)c->rising << 1 | (uint64_t)c->wall << 2 |
                      (uint64_t)c->wall_ahead << 3 | (uint64_t)c->over_top << 4 |
                      (uint64_t)c->steep << 5);
    h = hash_d(hash_d(hash_d(h, c->height_above_ground), c->water_depth), c->submersion);
    h = hash_d(hash_d(hash_d(h, ch->stamina.value), ch->stamina.rest), ch->stamina.stroke_timer);
    h = hash_u(hash_u(h, ch->pressed), ch->held);
    h = hash_u(h, (uint64_t)ch->walking | (uint64_t)ch->crouching << 1);
    h = hash_d(hash_d(h, ch->move_x), ch->move_y);
    return hash_d(h, ch->camera.yaw);
}

/* The follow camera (turned by look input and moved once a frame) and the animation signal. */
static uint64_t hash_presentation(uint64_t h, const gait__character *ch) {
    h = hash_d(h, ch->camera.pitch);
    h = hash_d(hash_d(h, ch->camera.distance), ch->camera.arm);
    h = hash_v(h, ch->camera.eye);
    return hash_u(hash_u(h, (uint64_t)ch->anim.playing), ch->anim.switches);
}

/* A kit's motion (motion.c), only while in use: a body no kit touches hashes as before. */
static uint64_t hash_motion(uint64_t h, const gait__motion *m) {
    if (!gait__motion_active(m)) return h;
    h = hash_u(hash_u(h, (uint64_t)m->request), (uint64_t)m->playing | (uint64_t)m->hanging << 1 |
                                                   (uint64_t)m->arrived << 2 |
                                                   (uint64_t)m->airborne_seen << 3);
    h = hash_d(hash_d(hash_d(h, m->seconds), m->fall_vy), m->hang_seconds);
    h = hash_u(hash_u(hash_u(h, (uint64_t)m->point), (uint64_t)m->met), (uint64_t)m->stalled);
    h = hash_v(h, m->last_velocity);
    h = hash_u(h, (uint64_t)m->mode_count);
    for (int k = 0; k < m->mode_count; k++)
        h = hash_u(hash_d(h, m->modes[k].seconds_left), (uint64_t)m->modes[k].state);
    for (int k = 0; k < GAIT_BUTTON_COUNT; k++) h = hash_d(h, m->cooldown[k]);
    return h;
}

/* The rest of what the steps read and write: the kit action, the return point, the body's, the
 * traversal's and the crouch's memory, a kit's motion. */
static uint64_t hash_sim_tail(uint64_t h, const gait__character *ch) {
    h = hash_d(h, ch->action_left);
    h = hash_v(h, ch->return_point);
    h = hash_v(hash_v(h, ch->body.vel), ch->body.wall_normal);
    h = hash_u(h, (uint64_t)ch->body_type);
    /* the traversal's action and the crouch's memory */
    h = hash_u(hash_u(h, (uint64_t)ch->trav.kind), (uint64_t)ch->trav.phase);
    h = hash_d(hash_d(hash_d(h, ch->trav.seconds), ch->trav.cooldown), ch->trav.corridor);
    h = hash_u(h, (uint64_t)ch->trav.latch | (uint64_t)ch->crouch.auto_crouch << 1 |
                      (uint64_t)ch->crouch.auto_under << 2 | (uint64_t)ch->crouch.air << 3);
    h = hash_motion(h, &ch->motion);
    /* a climb's turned stick, only while it is set: states without one hash as they always did */
    return ch->climb_turn != 0 ? hash_d(h, ch->climb_turn) : h;
}

uint64_t gait_world_state_hash(const gait_world *w) {
    if (!w) return 0;
    uint64_t h = FNV_BASIS;
    h = hash_d(h, w->clock.accumulator);
    h = hash_u(h, w->steps);
    for (int i = 0; i < w->capacity; i++) {
        const gait__character *ch = &w->characters[i];
        h = hash_slot(h, ch);
        if (!ch->alive) continue;
        h = hash_sim_tail(hash_presentation(hash_sim_head(h, ch), ch), ch);
    }
    return h;
}

uint64_t gait_world_simulation_hash(const gait_world *w) {
    if (!w) return 0;
    uint64_t h = hash_u(FNV_BASIS, w->steps);
    for (int i = 0; i < w->capacity; i++) {
        const gait__character *ch = &w->characters[i];
        h = hash_slot(h, ch);
        if (ch->alive) h = hash_sim_tail(hash_sim_head(h, ch), ch);
    }
    return h;
}

uint64_t gait_world_presentation_hash(const gait_world *w) {
    if (!w) return 0;
    uint64_t h = hash_d(FNV_BASIS, w->clock.accumulator);
    for (int i = 0; i < w->capacity; i++) {
        const gait__character *ch = &w->characters[i];
        h = hash_slot(h, ch);
        if (ch->alive) h = hash_presentation(h, ch);
    }
    return h;
}
