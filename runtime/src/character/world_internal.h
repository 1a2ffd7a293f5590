/* Internal: the world — the character pool, the body-type numbers, the clock and the tables
 * every character reads (world.c, character.c, step.c, snapshot.c, traverse.c). A new member of
 * struct gait_world needs its row in world.c's layout table: state a snapshot holds, or HOST
 * (docs/design.md, "Snapshots"). */
#ifndef GAIT_WORLD_INTERNAL_H
#define GAIT_WORLD_INTERNAL_H

#include "gait/world.h"
#include "character.h"
#include "core/core.h"

struct gait_world {
    gait_hooks hooks;
    gait_clock clock;
    uint64_t steps;                    /* fixed steps run (by update or step) */
    gait_collider *collider;
    gait_locomotion provisional;
    gait_locomotion measured[GAIT_BODY_TYPE_COUNT];
    bool is_measured[GAIT_BODY_TYPE_COUNT];
    gait__character *characters;
    int capacity;
    int count;                         /* alive */
    char error[256];
    gait_traverse_table traverse_table; /* the action table every character uses */
    gait_debug_draw debug_draw;        /* gait_world_draw_debug's callbacks */
    /* The step's queries go through one gather (gait/collide.h): a character's move walks the
     * collider's trees once, its queries test what it kept. A cache, not state: results are the
     * same bits without it. Its scratch is allocated at create. */
    gait_gather gather;
    void *gather_mem;
    size_t gather_bytes;
    bool stepping;                     /* gait_world_step runs (hooks are inside it): locked */
    gait__gadget *gadgets;             /* the world's traversal gadgets (gadget.c) */
    int gadget_count, gadget_capacity;
};

/* Triangles the world's gather holds: a character's region on the densest level measured keeps
 * a few hundred (more, and the queries ask the trees: the same answers, slower). */
#define GAIT__WORLD_GATHER 1024

#define GAIT__FAIL(w, status, ...) gait__fail((w)->error, sizeof (w)->error, (status), __VA_ARGS__)

/* The character an id names, or NULL when stale (and the world's error says why). */
gait__character *gait__character_get(gait_world *world, gait_character_id id);
const gait__character *gait__character_get_const(const gait_world *world, gait_character_id id);

/* The opening of a character call: `ch` for the id, or the call returns INVALID_ARGUMENT (no
 * world, or `out` NULL) or STALE_ID. */
#define GAIT__GET(w, id, ch)                                    \
    if (!(w)) return GAIT_ERR_INVALID_ARGUMENT;                 \
    gait__character *ch = gait__character_get((w), (id));       \
    if (!ch) return GAIT_ERR_STALE_ID
#define GAIT__GET_CONST(w, id, ch, out)                                 \
    if (!(w) || !(out)) return GAIT_ERR_INVALID_ARGUMENT;               \
    const gait__character *ch = gait__character_get_const((w), (id));   \
    if (!ch) return GAIT_ERR_STALE_ID

/* One step of the live characters in slots [first, end) (step.c), their queries through the
 * gather (may be NULL). A character's step writes only that character: separate ranges may run
 * at once, each with a gather of its own. */
void gait__world_step_range(gait_world *world, int first, int end, double dt, gait_gather *gather);

#endif
