/* Internal: the world — the character pool, the body-type numbers, the clock and the tables
 * every character reads (world.c, character.c, step.c, snapshot.c, traverse.c). A new member of
 * struct gait_world needs its row in world.c's layout table: state a snapshot holds, or HOST
 * (docs/design.md, "Snapshots"). */
#ifndef GAIT_WORLD_INTERNAL_H
#define GAIT_WORLD_INTERNAL_H

#include "gait/world.h"
#include "character.h"
#include "core/core.h"
#include "core/pool.h"
#include "crowd.h"

/* The parts of the last character def a create checked, and what they made: a crowd's creates
 * share one def, so its checks and the clip map's copy run once (character.c). A pure function
 * of the def's bytes: a def that differs in any byte is checked anew. */
typedef struct gait__create_cache {
    bool valid;
    gait_stamina_def stamina_def;
    gait_camera_def camera_def;
    gait_anim_def anim_def;
    gait_stamina pool;
    gait_camera camera;
    gait_anim anim;                    /* with the default clip map */
} gait__create_cache;

#define GAIT__MAX_WORKERS 64   /* gait_world_def.worker_count at most */

/* A worker's gather, padded: each thread writes its gather's header at every query, and two
 * headers (88 bytes each) side by side shared a cache line, so one thread's writes would cost the
 * other a miss. Their scratch blocks lie a line apart for the same reason. (A guard, not a
 * measured win: the 2-worker step's extra CPU per character was the records moving between cores,
 * core/pool.c.) */
typedef struct gait__worker_gather {
    gait_gather g;
    char pad[64];
} gait__worker_gather;
#define GAIT__GATHER_STRIDE(bytes) ((((bytes) + 63) & ~(size_t)63) + 64)

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
    int free_head;                     /* the first free slot (-1: none); the free slots are
                                          chained through gait__character.free_next, so a create
                                          or destroy costs the same with 10 or 10^6 slots */
    char error[256];
    gait_traverse_table traverse_table; /* the action table every character uses */
    gait_debug_draw debug_draw;        /* gait_world_draw_debug's callbacks */
    /* The step's queries go through a gather (gait/collide.h), one per worker: a character's move
     * walks the collider's trees once, its queries test what it kept. A cache, not state:
     * results are the same bits without it. Their scratch is allocated at create. */
    gait__worker_gather *gathers;      /* [workers] */
    void *gather_mem;                  /* [workers], GAIT__GATHER_STRIDE(gather_bytes) apart */
    size_t gather_bytes;               /* each */
    /* Each slot's own gather for its character's moves, kept from step to step: a body that stays
     * inside what it gathered asks the trees nothing (the worker's gather above is gathered anew
     * for every character, and serves the scans, whose regions are larger). Allocated when a
     * character is first created in the slot (a slot filled by a snapshot's restore alone uses
     * its worker's); a cache like the workers', so results are the same bits either way. */
    gait_gather **own_gather;          /* capacity entries, NULL until allocated */
    int own_gather_count;              /* allocated, at most GAIT__OWN_GATHERS */
    size_t own_gather_bytes;           /* each: the gather and its scratch after it */
    bool stepping;                     /* gait_world_step runs (hooks are inside it): locked */
    gait__gadget *gadgets;             /* the world's traversal gadgets (gadget.c) */
    int gadget_count, gadget_capacity;
    gait__create_cache create_cache;
    /* the step's workers (gait_world_def.worker_count): the host's task system, or the pool */
    int workers;
    gait_enqueue_task_fn *enqueue_task;
    gait_finish_task_fn *finish_task;
    void *task_user;
    gait__pool *pool;                  /* the built-in one, when the host gave none */
    double step_dt;                    /* s of the step running (read by its tasks) */
    gait__crowd crowd;                 /* the colliding characters as the step began (crowd.c) */
    /* Every live character's feet as the step began, [capacity]: what a kit's move toward a
     * character heads for (motion.c), the same whichever order or thread steps the two. */
    gait_vec3 *step_feet;
    int *hooked_seen;                  /* [workers * GAIT__SEEN_STRIDE]: the hooked characters each
                                          worker's ranges passed over this step (a line each) */
};

/* Triangles the world's gather holds: a character's region on the densest level measured keeps
 * a few hundred (more, and the queries ask the trees: the same answers, slower). */
#define GAIT__WORLD_GATHER 1024
/* Triangles a character's own gather holds: a move's region (its box and 0.35 m around) keeps
 * under 64 in nearly every step of the meadow, its mesh and the level; a larger one overflows
 * and that move asks the trees (the same answers, slower). 45 KiB a character, 13 of them the
 * triangles' edge planes the kernels keep (before those: 96 saved 6 KiB and cost the level's
 * mover 4 % more instructions; 256 saved 1 % more for 7 KiB more). */
#define GAIT__CHARACTER_GATHER 128
/* Slots that get a gather of their own (the first created; a slot keeps its gather for every
 * character it holds later): 45 MiB of caches at most, whatever the world's capacity. The rest
 * move through their worker's gather, gathered anew each step: the same bits, a tree walk more. */
#define GAIT__OWN_GATHERS 1024

/* The gather a character in `slot` moves through: its own, else the shared one. */
static inline gait_gather *gait__own_gather(gait_world *w, int slot, gait_gather *shared) {
    return w->own_gather && w->own_gather[slot] ? w->own_gather[slot] : shared;
}

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

/* Whether a character's step calls out of the library (a gate, traversal or move hook): such steps run
 * one at a time on the calling thread, after the others. */
bool gait__character_hooked(const gait__character *ch);

/* One step of the live characters in slots [first, end) (step.c), those with hooks too when
 * `hooked`, else only those without. A character's step writes only that character and reads
 * of the others only what the step began with: separate ranges may run at once. `worker`
 * (0 .. workers - 1) names the thread's scratch (its gather). */
int gait__world_step_range(gait_world *world, int first, int end, double dt, bool hooked,
                           uint32_t worker);
/* Returns how many live characters of the range it passed over (those with a hook, when not
 * `hooked`): the step runs its serial pass of the hooked ones only when there are any. */
#define GAIT__SEEN_STRIDE 16 /* ints: a worker's count on a cache line of its own */

#endif
