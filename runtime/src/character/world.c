/* The world: the character pool, the body types' numbers, the clock, and the fixed steps a frame
 * runs (one step of each character: step.c). */
#include "world_internal.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "collide/collide_lock.h"
#include "core/core.h"
#include "core/vec.h"
#include "layouts.h"

#define FAIL GAIT__FAIL

static const char *const body_type_names[GAIT_BODY_TYPE_COUNT] = {
    "medium_female", "medium_male", "tall_female", "tall_male", "short_female",
};

const char *gait_body_type_name(gait_body_type type) {
    return gait__name_of(body_type_names, GAIT_BODY_TYPE_COUNT, (int)type);
}
int gait_body_type_from_name(const char *name) {
    return gait__name_index(body_type_names, GAIT_BODY_TYPE_COUNT, name);
}

gait_world_def gait_default_world_def(void) {
    gait_world_def d;
    memset(&d, 0, sizeof d);
    d.clock = gait_default_clock_def();
    d.collider = gait_default_collider_def();
    d.max_characters = 64;
    d.worker_count = 1;
    return d;
}

gait_world *gait_world_create(const gait_world_def *def_in) {
    gait_world_def def = def_in ? *def_in : gait_default_world_def();
    gait__hooks_resolve(&def.hooks);
    if (def.max_characters < 1 || def.max_characters > (1 << 20)) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "world: max_characters %d is out of range 1..%d",
                   def.max_characters, 1 << 20);
        return NULL;
    }
    if (def.worker_count == 0) def.worker_count = 1; /* a zeroed def: one worker */
    if (def.worker_count < 1 || def.worker_count > GAIT__MAX_WORKERS) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "world: worker_count %d is out of range 1..%d",
                   def.worker_count, GAIT__MAX_WORKERS);
        return NULL;
    }
    if ((def.enqueue_task == NULL) != (def.finish_task == NULL)) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR,
                   "world: enqueue_task and finish_task come together (one is NULL)");
        return NULL;
    }
    gait_clock clock;
    if (gait_clock_init(&clock, &def.clock) != GAIT_OK) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR,
                   "world: clock def out of range (step_seconds %g in [0.001, 0.1], "
                   "max_steps_per_frame %d in 1..1000)",
                   def.clock.step_seconds, def.clock.max_steps_per_frame);
        return NULL;
    }
    gait_world *w = gait__alloc(&def.hooks, sizeof *w);
    if (!w) return NULL;
    w->hooks = def.hooks;
    w->clock = clock;
    w->capacity = def.max_characters;
    w->workers = def.worker_count;
    w->characters = gait__alloc(&def.hooks, sizeof(gait__character) * (size_t)w->capacity);
    def.collider.hooks = def.hooks;
    w->collider = w->characters ? gait_collider_create(&def.collider) : NULL;
    /* a gather per worker: each thread's queries keep their own scratch */
    w->gather_bytes = gait_gather_scratch_bytes(GAIT__WORLD_GATHER);
    w->gathers = gait__alloc(&def.hooks, sizeof *w->gathers * (size_t)w->workers);
    size_t stride = GAIT__GATHER_STRIDE(w->gather_bytes);
    w->gather_mem = gait__alloc(&def.hooks, stride * (size_t)w->workers);
    bool ok = w->characters && w->collider && w->gathers && w->gather_mem;
    for (int k = 0; ok && k < w->workers; k++)
        ok = gait_gather_init(&w->gathers[k].g, (char *)w->gather_mem + stride * (size_t)k,
                              w->gather_bytes) == GAIT_OK;
    if (!ok) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "world: could not create (memory or collider def)");
        gait_world_destroy(w);
        return NULL;
    }
    w->own_gather = gait__alloc(&def.hooks, sizeof *w->own_gather * (size_t)w->capacity);
    w->own_gather_bytes = sizeof(gait_gather) + gait_gather_scratch_bytes(GAIT__CHARACTER_GATHER);
    w->step_feet = gait__alloc(&def.hooks, sizeof *w->step_feet * (size_t)w->capacity);
    w->hooked_seen = gait__alloc(&def.hooks, sizeof *w->hooked_seen * GAIT__SEEN_STRIDE * (size_t)w->workers);
    if (!w->own_gather || !w->step_feet || !w->hooked_seen) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "world: could not create (memory)");
        gait_world_destroy(w);
        return NULL;
    }
    /* every slot free, in order: creates fill slots 0, 1, 2, ... */
    for (int i = 0; i < w->capacity; i++) w->characters[i].free_next = i + 1 < w->capacity ? i + 1 : -1;
    w->free_head = 0;
    if (gait__crowd_init(&w->crowd, &def.hooks, w->capacity) != GAIT_OK) {
        gait__logf(&def.hooks, GAIT_LOG_ERROR, "world: out of memory for %d characters' contact",
                   w->capacity);
        gait_world_destroy(w);
        return NULL;
    }
    w->enqueue_task = def.enqueue_task;
    w->finish_task = def.finish_task;
    w->task_user = def.user_task_context;
    if (w->workers > 1 && !w->enqueue_task) {
        w->pool = gait__pool_create(&def.hooks, w->workers);
        if (!w->pool) {
            gait__logf(&def.hooks, GAIT_LOG_ERROR, "world: could not start %d worker threads",
                       w->workers - 1);
            gait_world_destroy(w);
            return NULL;
        }
        w->enqueue_task = gait__pool_enqueue;
        w->finish_task = gait__pool_finish;
        w->task_user = w->pool;
    }
    w->provisional = gait_default_locomotion();
    w->traverse_table = gait_default_traverse_table();
    memset(&w->debug_draw, 0, sizeof w->debug_draw);
    return w;
}

void gait_world_destroy(gait_world *w) {
    if (!w) return;
    if (w->stepping) { /* from a hook inside its own step: the step still uses the world */
        gait__logf(&w->hooks, GAIT_LOG_ERROR, "world: destroy refused while the world steps "
                   "(called from a hook); destroy it after the step");
        return;
    }
    gait_hooks hooks = w->hooks;
    gait__pool_destroy(w->pool);
    gait__gadgets_free(w);
    gait__crowd_free(&w->crowd, &hooks);
    gait_collider_destroy(w->collider);
    gait__free(&hooks, w->gather_mem, GAIT__GATHER_STRIDE(w->gather_bytes) * (size_t)w->workers);
    gait__free(&hooks, w->gathers, sizeof *w->gathers * (size_t)w->workers);
    if (w->own_gather)
        for (int i = 0; i < w->capacity; i++)
            if (w->own_gather[i]) gait__free(&hooks, w->own_gather[i], w->own_gather_bytes);
    gait__free(&hooks, w->own_gather, sizeof *w->own_gather * (size_t)w->capacity);
    gait__free(&hooks, w->step_feet, sizeof *w->step_feet * (size_t)w->capacity);
    gait__free(&hooks, w->hooked_seen, sizeof *w->hooked_seen * GAIT__SEEN_STRIDE * (size_t)w->workers);
    gait__free(&hooks, w->characters, sizeof(gait__character) * (size_t)w->capacity);
    gait__free(&hooks, w, sizeof *w);
}

const char *gait_world_last_error(const gait_world *w) {
    return w ? w->error : "world is NULL";
}
gait_collider *gait_world_collider(gait_world *w) { return w ? w->collider : NULL; }
const gait_collider *gait_world_collider_const(const gait_world *w) { return w ? w->collider : NULL; }

/* ---- body-type numbers ------------------------------------------------------------------- */

static gait_status check_numbers(gait_world *w, const gait_locomotion *n, const char *what) {
    char err[160];
    if (!n) return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "%s: numbers are NULL", what);
    gait_status s = gait_locomotion_validate(n, err, sizeof err);
    if (s != GAIT_OK) return FAIL(w, s, "%s: %s", what, err);
    return GAIT_OK;
}

gait_status gait_world_set_provisional_locomotion(gait_world *w, const gait_locomotion *n) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) /* the characters stepped after a change would read other numbers */
        return FAIL(w, GAIT_ERR_LOCKED, "provisional numbers: refused while the world steps");
    gait_status s = check_numbers(w, n, "provisional numbers");
    if (s == GAIT_OK) w->provisional = *n;
    return s;
}

gait_status gait_world_set_locomotion(gait_world *w, gait_body_type type, const gait_locomotion *n) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "set_locomotion: refused while the world steps");
    if ((unsigned)type >= GAIT_BODY_TYPE_COUNT)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "body type %d is not one of 0..%d", (int)type,
                    GAIT_BODY_TYPE_COUNT - 1);
    gait_status s = check_numbers(w, n, body_type_names[type]);
    if (s != GAIT_OK) return s;
    w->measured[type] = *n;
    w->is_measured[type] = true;
    return GAIT_OK;
}

gait_status gait_world_clear_locomotion(gait_world *w, gait_body_type type) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "clear_locomotion: refused while the world steps");
    if ((unsigned)type >= GAIT_BODY_TYPE_COUNT)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "body type %d is not one of 0..%d", (int)type,
                    GAIT_BODY_TYPE_COUNT - 1);
    w->is_measured[type] = false;
    return GAIT_OK;
}

const gait_locomotion *gait_world_locomotion(const gait_world *w, gait_body_type type) {
    if (!w) return NULL;
    if ((unsigned)type < GAIT_BODY_TYPE_COUNT && w->is_measured[type]) return &w->measured[type];
    return &w->provisional; /* a measured type never lends its entry to another */
}

bool gait_world_locomotion_measured(const gait_world *w, gait_body_type type) {
    return w && (unsigned)type < GAIT_BODY_TYPE_COUNT && w->is_measured[type];
}

/* ---- the steps ---------------------------------------------------------------------------- */

#define STEP_MIN_RANGE 32   /* characters a task's range holds at least: fewer cost more in the
                               handing out than they save */

static void step_task(int start, int end, uint32_t worker, void *context) {
    gait_world *w = context;
    GAIT_ASSERT(&w->hooks, worker < (uint32_t)w->workers);
    if (worker >= (uint32_t)w->workers) worker = 0;
    w->hooked_seen[worker * GAIT__SEEN_STRIDE] += gait__world_step_range(w, start, end, w->step_dt, false, worker);
}

gait_status gait_world_step(gait_world *w) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "step: refused while the world steps (a hook stepped it)");
    w->stepping = true;
    double dt = w->clock.step_seconds;
    w->step_dt = dt;
    /* the moving landmarks to this step's poses: every query of the step sees them there */
    gait_collider_advance(w->collider, dt);
    /* held still for the rest of the step: a hook that changes the world is refused */
    gait__collider_lock(w->collider, true);
    /* the picture every character's contact with the others is resolved against */
    gait__crowd_build(&w->crowd, w, w->step_feet);
    /* the characters with no hook, in parallel ranges when there are workers; then those with
     * hooks, one at a time here (the same order with one worker: the same bits) — a pass over
     * every slot (a cache miss or three each: 2-4 % of a step of 10,000) only when the first
     * passed over any */
    int hooked = 0;
    if (w->workers > 1 && w->count > STEP_MIN_RANGE) {
        for (int k = 0; k < w->workers; k++) w->hooked_seen[k * GAIT__SEEN_STRIDE] = 0;
        void *task = w->enqueue_task(step_task, w->capacity, STEP_MIN_RANGE, w, w->task_user);
        if (task) w->finish_task(task, w->task_user);
        for (int k = 0; k < w->workers; k++) hooked += w->hooked_seen[k * GAIT__SEEN_STRIDE];
    } else {
        hooked = gait__world_step_range(w, 0, w->capacity, dt, false, 0);
    }
    if (hooked > 0) gait__world_step_range(w, 0, w->capacity, dt, true, 0);
    w->steps++;
    gait__collider_lock(w->collider, false);
    w->stepping = false;
    return GAIT_OK;
}

gait_status gait_world_update(gait_world *w, double frame_seconds, int *out_steps) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping) return FAIL(w, GAIT_ERR_LOCKED, "update: refused while the world steps (a hook updated it)");
    int steps = 0;
    gait_status s = gait_clock_advance(&w->clock, frame_seconds, &steps);
    if (s != GAIT_OK)
        return FAIL(w, s, "update: frame seconds %g must be finite and >= 0", frame_seconds);
    for (int i = 0; i < steps; i++) gait_world_step(w);
    if (out_steps) *out_steps = steps;
    /* frame_seconds passed the clock's check above, and no hook runs between: this cannot fail */
    return gait_world_follow_cameras(w, frame_seconds);
}

gait_status gait_world_follow_cameras(gait_world *w, double frame_seconds) {
    if (!w) return GAIT_ERR_INVALID_ARGUMENT;
    if (w->stepping)
        return FAIL(w, GAIT_ERR_LOCKED, "follow_cameras: refused while the world steps (a hook called it)");
    if (!isfinite(frame_seconds) || frame_seconds < 0)
        return FAIL(w, GAIT_ERR_INVALID_ARGUMENT, "follow_cameras: frame seconds %g must be finite and >= 0",
                    frame_seconds);
    /* the camera follows the blended body, once a frame, after the steps */
    double a = gait_clock_alpha(&w->clock);
    for (int i = 0; i < w->capacity; i++) {
        gait__character *ch = &w->characters[i];
        if (!ch->alive || !ch->camera_enabled) continue;
        gait_vec3 drawn = v3_lerp(ch->prev_position, ch->position, a);
        gait_camera_follow(&ch->camera, w->collider, drawn, frame_seconds, NULL);
    }
    return GAIT_OK;
}

double gait_world_alpha(const gait_world *w) { return w ? gait_clock_alpha(&w->clock) : 0; }
uint64_t gait_world_step_count(const gait_world *w) { return w ? w->steps : 0; }
double gait_world_step_seconds(const gait_world *w) { return w ? w->clock.step_seconds : 0; }
const gait_clock *gait_world_clock(const gait_world *w) { return w ? &w->clock : NULL; }
int gait_world_worker_count(const gait_world *w) { return w ? w->workers : 1; }

/* ---- layout (layouts.h) ------------------------------------------------------------------- */

/* What a snapshot holds of the world itself: the clock, the step count and the body types'
 * numbers. The rest is the host's or the world's own and stays as it is through a restore: the
 * hooks, the collision geometry, the character pool (each slot is its own record), its size (the
 * snapshot's header must match it), the live count (counted again from the slots), the last
 * error, the traversal table (tuning the host sets, like the geometry), the debug callbacks, the
 * step's gather, the lock, the gadgets (world data like the geometry, gait/motion.h). */
/* A measured body type's numbers, as gait_world_set_locomotion checks them. */
static bool world_rules(const void *base, char *err, size_t cap) {
    const gait_world *w = base;
    for (int t = 0; t < GAIT_BODY_TYPE_COUNT; t++) {
        char why[160];
        if (w->is_measured[t] && gait_locomotion_validate(&w->measured[t], why, sizeof why) != GAIT_OK) {
            snprintf(err, cap, "measured[%s].%s", body_type_names[t], why);
            return false;
        }
    }
    return true;
}

static const gait__lfield world_rows[] = {
    GAIT__LHOST(struct gait_world, hooks),
    GAIT__LSTRUCT(struct gait_world, clock, gait__clock_layout),
    GAIT__LUINT(struct gait_world, steps, 0, GAIT__LU64_ANY),
    GAIT__LHOST(struct gait_world, collider),
    GAIT__LSTRUCT(struct gait_world, provisional, gait__locomotion_layout),
    /* numbers only (zero until measured: world_rules checks those in use) */
    GAIT__LREAL(struct gait_world, measured, -GAIT__LFINITE, GAIT__LFINITE, ""),
    GAIT__LBOOL(struct gait_world, is_measured),
    GAIT__LHOST(struct gait_world, characters),
    GAIT__LHOST(struct gait_world, capacity),
    GAIT__LHOST(struct gait_world, count),
    /* the first free slot: -1 (none) up to a slot; snapshot.c checks the list against the pool */
    GAIT__LINT(struct gait_world, free_head, -1, INT_MAX),
    GAIT__LHOST(struct gait_world, error),
    GAIT__LHOST(struct gait_world, traverse_table),
    GAIT__LHOST(struct gait_world, debug_draw),
    GAIT__LHOST(struct gait_world, gathers),      /* caches of the step's queries, and their */
    GAIT__LHOST(struct gait_world, gather_mem),   /* scratch: the same bits without it */
    GAIT__LHOST(struct gait_world, gather_bytes),
    GAIT__LHOST(struct gait_world, own_gather),   /* the slots' own gathers: caches too */
    GAIT__LHOST(struct gait_world, own_gather_count),
    GAIT__LHOST(struct gait_world, own_gather_bytes),
    GAIT__LHOST(struct gait_world, stepping),     /* the lock: a restore never runs inside a step */
    GAIT__LHOST(struct gait_world, gadgets),      /* world data, like the geometry */
    GAIT__LHOST(struct gait_world, gadget_count),
    GAIT__LHOST(struct gait_world, gadget_capacity),
    GAIT__LCACHE(struct gait_world, create_cache), /* the last def a create checked: made again */
    GAIT__LHOST(struct gait_world, workers),      /* the step's threads: the host's setting */
    GAIT__LHOST(struct gait_world, enqueue_task),
    GAIT__LHOST(struct gait_world, finish_task),
    GAIT__LHOST(struct gait_world, task_user),
    GAIT__LHOST(struct gait_world, pool),
    GAIT__LHOST(struct gait_world, step_dt),      /* the running step's dt, for its tasks */
    GAIT__LHOST(struct gait_world, crowd),        /* the step's picture of the others: built anew */
    GAIT__LHOST(struct gait_world, step_feet),    /* ... and of every one's feet */
    GAIT__LHOST(struct gait_world, hooked_seen),  /* ... and how many have hooks */
};
GAIT__LTABLE(gait__world_layout, struct gait_world, world_rows, NULL, world_rules);
