/* Snapshots (save / restore the simulation state bit for bit) and the state hash.
 *
 * A snapshot is a header and a payload: the world's record, then one record per slot, each laid
 * out as this build lays the struct out (layout tables, core/layout.h: layouts.h lists them).
 * Save writes the members that are simulation state and zeroes the rest (the host's pointers,
 * caches, padding), so equal states give equal bytes. The checksum (FNV-1a) covers the whole
 * snapshot, header included; it finds corruption, not forgery (anyone can compute it). Forgery is
 * restore's to refuse: it checks every member of every record against its table, into a scratch
 * copy, before it changes anything. */
#include "world_internal.h"

#include "collide/collide_motion.h"

#include <stdio.h>
#include <string.h>

#include "layouts.h"

#define FAIL GAIT__FAIL
#define MAGIC "gaitsnp2"

typedef struct snapshot_header {
    char magic[8];              /* MAGIC ("gaitsnp1" was the format before the checked one) */
    uint32_t header_size;       /* sizeof(snapshot_header) */
    uint32_t world_size;        /* the world's record: sizeof(struct gait_world) */
    uint32_t character_size;    /* each slot's record: sizeof(gait__character) */
    uint32_t capacity;          /* slots */
    uint32_t count;             /* live characters */
    uint32_t reserved;          /* zero */
    uint64_t layout;            /* the build's layout (layout_fingerprint) */
    uint64_t payload_size;      /* bytes after the header */
    uint64_t checksum;          /* FNV-1a of the header, with this member zero, then the payload */
} snapshot_header;

/* The world's record and the slots' records; the moving landmarks' state (collide_motion.h: where
 * each is, was and is going, checked by its own rules) follows them. */
static size_t characters_end(const gait_world *w) {
    return sizeof(struct gait_world) + sizeof(gait__character) * (size_t)w->capacity;
}

static size_t payload_size(const gait_world *w) {
    return characters_end(w) + gait__motion_state_size(w->collider);
}

size_t gait_world_snapshot_size(const gait_world *w) {
    return w ? sizeof(snapshot_header) + payload_size(w) : 0;
}

/* The world's and a character's tables, the record sizes and the header's: the same number for
 * two builds that lay the state out the same way. */
static uint64_t layout_fingerprint(void) {
    uint64_t h = gait__fnv1a(GAIT__FNV_BASIS, MAGIC, 8);
    const uint64_t sizes[3] = {sizeof(snapshot_header), sizeof(struct gait_world),
                               sizeof(gait__character)};
    h = gait__fnv1a(h, sizes, sizeof sizes);
    h = gait__layout_fingerprint(&gait__world_layout, h);
    return gait__layout_fingerprint(&gait__character_layout, h);
}

/* FNV-1a of the header (its checksum zero) and the payload. */
static uint64_t checksum(const snapshot_header *h, const unsigned char *payload) {
    snapshot_header z = *h;
    z.checksum = 0;
    return gait__fnv1a(gait__fnv1a(GAIT__FNV_BASIS, &z, sizeof z), payload, (size_t)h->payload_size);
}

/* A dead slot's record: its generation and alive only (nothing else of it is ever read). */
static void save_slot(unsigned char *rec, const gait__character *ch) {
    if (ch->alive) {
        gait__layout_copy(&gait__character_layout, rec, ch, false);
        /* the parts not in use hold whatever the slot last held (character.c's create leaves
         * them): zeros in the snapshot, so equal states give equal bytes */
        if (!ch->trav.scanned)
            memset(rec + offsetof(gait__character, trav.query), 0,
                   sizeof ch->trav.query + sizeof ch->trav.scan);
        if (ch->anim.default_clips)
            memset(rec + offsetof(gait__character, anim.clips), 0, sizeof ch->anim.clips);
        gait__motion m;
        memcpy(&m, rec + offsetof(gait__character, motion), sizeof m);
        gait__motion_clear_unused(&m);
        memcpy(rec + offsetof(gait__character, motion), &m, sizeof m);
        return;
    }
    memcpy(rec + offsetof(gait__character, generation), &ch->generation, sizeof ch->generation);
    memcpy(rec + offsetof(gait__character, alive), &ch->alive, sizeof ch->alive);
    memcpy(rec + offsetof(gait__character, free_next), &ch->free_next, sizeof ch->free_next);
}

/* Whether the slots and the free list agree: the list from `head` visits every dead slot once and
 * no live one, and no live slot links anywhere (a cycle or a stray link would hand out a live
 * slot, or lose one for good). Read from the snapshot's slot records, before anything is applied;
 * false with the link at fault, named, in why. */
static bool free_list_valid(const gait_world *w, const unsigned char *slots, int head,
                            uint32_t alive, char *why, size_t cap) {
#define SLOT_FIELD(i, field, out)                                                               \
    memcpy(&(out), slots + (size_t)(i) * sizeof(gait__character) + offsetof(gait__character, field), \
           sizeof(out))
    for (int i = 0; i < w->capacity; i++) {
        bool a;
        int next;
        SLOT_FIELD(i, alive, a);
        SLOT_FIELD(i, free_next, next);
        if (a && next != -1) {
            snprintf(why, cap, "slot %d: free_next = %d, a live slot's must be -1", i + 1, next);
            return false;
        }
    }
    long dead = (long)w->capacity - (long)alive, seen = 0;
    const char *name = "free_head";
    int from = 0;
    for (int i = head; i != -1; seen++) {
        char link[48];
        if (from) snprintf(link, sizeof link, "slot %d: free_next", from);
        else snprintf(link, sizeof link, "%s", name);
        if (i < 0 || i >= w->capacity) {
            snprintf(why, cap, "%s = %d leaves the pool of %d slots", link, i, w->capacity);
            return false;
        }
        if (seen >= dead) {
            snprintf(why, cap, "%s = %d cycles (the list is longer than the %ld dead slots)", link,
                     i, dead);
            return false;
        }
        bool a;
        SLOT_FIELD(i, alive, a);
        if (a) {
            snprintf(why, cap, "%s = %d names a live one", link, i);
            return false;
        }
        from = i + 1;
        SLOT_FIELD(i, free_next, i);
    }
#undef SLOT_FIELD
    if (seen != dead) {
        snprintf(why, cap, "free_head = %d: the list leaves %ld of the %ld dead slots out", head,
                 dead - seen, dead);
        return false;
    }
    return true;
}

gait_status gait_world_snapshot_save(const gait_world *w, void *buffer, size_t capacity,
                                     size_t *out_size) {
    if (!w || !buffer) return GAIT_ERR_INVALID_ARGUMENT;
    size_t need = gait_world_snapshot_size(w);
    if (capacity < need)
        return FAIL((gait_world *)w, GAIT_ERR_CAPACITY, "snapshot: needs %zu bytes, buffer has %zu",
                    need, capacity);
    unsigned char *p = buffer, *payload = p + sizeof(snapshot_header);
    memset(p, 0, need);
    gait__layout_copy(&gait__world_layout, payload, w, false);
    unsigned char *rec = payload + sizeof(struct gait_world);
    for (int i = 0; i < w->capacity; i++, rec += sizeof(gait__character))
        save_slot(rec, &w->characters[i]);
    gait__motion_state_save(w->collider, rec); /* the moving landmarks' poses */
    snapshot_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, 8);
    h.header_size = sizeof h;
    h.world_size = sizeof(struct gait_world);
    h.character_size = sizeof(gait__character);
    h.capacity = (uint32_t)w->capacity;
    h.count = (uint32_t)w->count;
    h.layout = layout_fingerprint();
    h.payload_size = payload_size(w);
    h.checksum = checksum(&h, payload);
    memcpy(p, &h, sizeof h);
    if (out_size) *out_size = need;
    return GAIT_OK;
}

/* The header: a gait snapshot whole (no byte read past `size`), uncorrupted, of this build and a
 * world of this size. */
static gait_status check_header(gait_world *w, const unsigned char *p, size_t size,
                                snapshot_header *h) {
    if (size < sizeof *h)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: %zu bytes is too short (the header alone is %zu)",
                    size, sizeof *h);
    memcpy(h, p, sizeof *h);
    if (memcmp(h->magic, "gaitsnp1", 8) == 0)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: an older format (gaitsnp1, no checked values); "
                    "this build reads %s", MAGIC);
    if (memcmp(h->magic, MAGIC, 8) != 0)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: not a gait snapshot (bad magic)");
    if (h->header_size != sizeof *h)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: made by another build (header of %u bytes, this "
                    "build's is %zu)", h->header_size, sizeof *h);
    if (h->payload_size > size - sizeof *h)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: truncated (the header says %llu bytes follow, "
                    "%zu do)", (unsigned long long)h->payload_size, size - sizeof *h);
    if (checksum(h, p + sizeof *h) != h->checksum)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: checksum mismatch (corrupted)");
    if (h->layout != layout_fingerprint() || h->world_size != sizeof(struct gait_world) ||
        h->character_size != sizeof(gait__character) || h->reserved != 0)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: made by another build (its state is laid out "
                    "otherwise)");
    if (h->capacity != (uint32_t)w->capacity)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: made by a world of another size (capacity %u, "
                    "this world %d)", h->capacity, w->capacity);
    if (h->payload_size != payload_size(w))
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: the header says %llu bytes of state; %u slots "
                    "take %zu", (unsigned long long)h->payload_size, h->capacity, payload_size(w));
    if (h->count > h->capacity)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: the header says %u live characters in %u slots",
                    h->count, h->capacity);
    return GAIT_OK;
}

/* Slot i's record into *ch (aligned, for the checks) and the verdict on it; *alive says whether
 * it holds a live character. */
static gait_status check_slot(gait_world *w, const unsigned char *rec, int i, gait__character *ch,
                              bool *alive) {
    memcpy(ch, rec, sizeof *ch);
    char why[200];
    const bool no = false, yes = true;
    unsigned char flag[sizeof(bool)];
    memcpy(flag, &ch->alive, sizeof flag);
    if (memcmp(flag, &no, sizeof no) != 0 && memcmp(flag, &yes, sizeof yes) != 0)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: slot %d: alive = %u is not a boolean (0 or 1)",
                    i + 1, (unsigned)flag[0]);
    *alive = ch->alive;
    if (*alive && !gait__layout_check(&gait__character_layout, ch, "", why, sizeof why))
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: character %d (generation %u): %s", i + 1,
                    ch->generation, why);
    return GAIT_OK;
}

gait_status gait_world_snapshot_restore(gait_world *w, const void *buffer, size_t size) {
    if (!w || !buffer) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "snapshot: restore refused while the world steps");
    const unsigned char *p = buffer;
    snapshot_header h;
    gait_status s = check_header(w, p, size, &h);
    if (s != GAIT_OK) return s;

    /* every record checked before anything changes: the world's, then each slot's */
    const unsigned char *payload = p + sizeof h, *slots = payload + sizeof(struct gait_world);
    struct gait_world world;
    memcpy(&world, payload, sizeof world);
    char why[200];
    if (!gait__layout_check(&gait__world_layout, &world, "", why, sizeof why))
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: world: %s", why);
    gait__character ch;
    uint32_t alive_count = 0;
    for (int i = 0; i < w->capacity; i++) {
        bool alive;
        s = check_slot(w, slots + (size_t)i * sizeof ch, i, &ch, &alive);
        if (s != GAIT_OK) return s;
        alive_count += alive;
    }
    if (alive_count != h.count)
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: the header says %u live characters, the slots "
                    "hold %u", h.count, alive_count);
    if (!free_list_valid(w, slots, world.free_head, alive_count, why, sizeof why))
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: its free slots do not add up: %s", why);
    if (!gait__motion_state_check(w->collider, payload + characters_end(w),
                                  (size_t)h.payload_size - characters_end(w)))
        return FAIL(w, GAIT_ERR_FORMAT, "snapshot: its moving landmarks are not this world's (other "
                    "landmarks, motions or paths, or a pose out of range)");

    /* commit: the state members; the host's pointers stay, caches go */
    gait__layout_copy(&gait__world_layout, w, &world, true);
    for (int i = 0; i < w->capacity; i++) {
        gait__character *live = &w->characters[i];
        memcpy(&ch, slots + (size_t)i * sizeof ch, sizeof ch);
        if (ch.alive) {
            gait__layout_copy(&gait__character_layout, live, &ch, true);
        } else {
            live->alive = false;
            live->generation = ch.generation;
            live->free_next = ch.free_next;
        }
    }
    w->count = (int)alive_count;
    gait__motion_state_restore(w->collider, payload + characters_end(w));
    return GAIT_OK;
}

/* Hashes members one by one: whole-struct bytes would take in padding, which struct
 * assignments may fill with whatever the source's stack held. */
static uint64_t hash_d(uint64_t h, double v) { return gait__fnv1a(h, &v, sizeof v); }
static uint64_t hash_v(uint64_t h, gait_vec3 v) { return hash_d(hash_d(hash_d(h, v.x), v.y), v.z); }
static uint64_t hash_u(uint64_t h, uint64_t v) { return gait__fnv1a(h, &v, sizeof v); }

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

/* A body's part with moving landmarks (stood on, climbed, left), when the world has any: with
 * none they change nothing, and the hashes stay as they were before landmarks could move. */
static uint64_t hash_carry(uint64_t h, const gait__character *ch) {
    h = hash_u(h, (uint64_t)(uint32_t)ch->body.ground_lm.index1 << 32 | ch->body.ground_lm.generation);
    h = hash_u(h, (uint64_t)(uint32_t)ch->body.wall_lm.index1 << 32 | ch->body.wall_lm.generation);
    return hash_v(h, ch->body.inherit);
}

/* The rest of what the steps read and write: the kit action, the return point, the body's, the
 * traversal's and the crouch's memory, a kit's motion. */
static uint64_t hash_sim_tail(uint64_t h, const gait__character *ch) {
    h = hash_d(h, ch->action_left);
    h = hash_v(h, ch->return_point);
    h = hash_v(hash_v(h, ch->body.vel), ch->body.wall_normal);
    h = hash_u(h, (uint64_t)ch->body_type);
    /* contact with others, when not the default (so hashes of worlds that keep it stay as they
     * were) */
    if (!ch->collide || ch->collision_layer != 1 || ch->collision_mask != 0xffffffffu)
        h = hash_u(hash_u(h, (uint64_t)ch->collide | 2), (uint64_t)ch->collision_layer << 32 |
                                                              ch->collision_mask);
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
    uint64_t h = GAIT__FNV_BASIS;
    h = hash_d(h, w->clock.accumulator);
    h = hash_u(h, w->steps);
    bool moving = gait_collider_moving_count(w->collider) > 0;
    for (int i = 0; i < w->capacity; i++) {
        const gait__character *ch = &w->characters[i];
        h = hash_slot(h, ch);
        if (!ch->alive) continue;
        h = hash_sim_tail(hash_presentation(hash_sim_head(h, ch), ch), ch);
        if (moving) h = hash_carry(h, ch);
    }
    return gait__motion_state_hash(w->collider, h, gait__fnv1a);
}

uint64_t gait_world_simulation_hash(const gait_world *w) {
    if (!w) return 0;
    uint64_t h = hash_u(GAIT__FNV_BASIS, w->steps);
    bool moving = gait_collider_moving_count(w->collider) > 0;
    for (int i = 0; i < w->capacity; i++) {
        const gait__character *ch = &w->characters[i];
        h = hash_slot(h, ch);
        if (!ch->alive) continue;
        h = hash_sim_tail(hash_sim_head(h, ch), ch);
        if (moving) h = hash_carry(h, ch);
    }
    return gait__motion_state_hash(w->collider, h, gait__fnv1a);
}

uint64_t gait_world_presentation_hash(const gait_world *w) {
    if (!w) return 0;
    uint64_t h = hash_d(GAIT__FNV_BASIS, w->clock.accumulator);
    for (int i = 0; i < w->capacity; i++) {
        const gait__character *ch = &w->characters[i];
        h = hash_slot(h, ch);
        if (ch->alive) h = hash_presentation(h, ch);
    }
    return h;
}
