/* gait — the mover: a kinematic capsule that applies the velocity it is given.
 *
 * The mover knows nothing of states, stamina or input. It takes a capsule (radius, height, the
 * step it walks up and down, the steepest slope it stands on) and a velocity, and moves the
 * capsule's feet through a collider by queries, never by a solver:
 *   - landmarks (triangle meshes) are met by capsule sweeps, collide-and-slide in the manner of
 *     Box2D v3's mover (cast -> collect the plane hit -> clip the rest of the move against every
 *     plane met so far -> cast again), a few casts a move;
 *   - the terrain is read through its height function: the feet stand exactly on it and cannot
 *     tunnel through it;
 *   - after the move the capsule is pushed out of any landmark it still overlaps and the move is
 *     checked (gait_mover_settle): what the push-out cannot solve is refused.
 * Gravity, input and what the motion means are the caller's (as with Jolt's CharacterVirtual):
 * the character's body, the traversal's path, a host's or a kit's own motion and the benchmark
 * all move through these same calls.
 *
 * Deterministic: doubles only, a fixed number of casts, no time-dependent tolerance. Allocates
 * nothing. Units: m, s, m/s; y is up. Docs: docs/design.md ("The mover"). */
#ifndef GAIT_MOVER_H
#define GAIT_MOVER_H

#include "gait/collide.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Other characters a move keeps clear of: the world's, built for each character's step (it
 * cannot be made outside a world). */
typedef struct gait_mover_bodies gait_mover_bodies;

/* The capsule and the numbers a move needs (gait_mover_init fills it). */
typedef struct gait_mover {
    const gait_collider *collider;
    double radius;               /* m */
    double height;               /* m, feet to top (>= 2 radius) */
    double step_height;          /* m the feet follow up or down while walking */
    double cos_walkable;         /* cos of the steepest walkable slope */
    double cos_steep;            /* a contact less level than this is a steep face to the
                                    support's reading even where cos_walkable lets the feet stand
                                    on it (a standing body's walk: gait_locomotion's
                                    walk_slope_hysteresis); gait_mover_init sets it equal to
                                    cos_walkable */
    gait_filter filter;          /* landmark queries (skip_terrain set: the terrain is read
                                    through its height function) */
    bool latch;                  /* contacts with latch_landmark inside the latch box are not
                                    overlaps for the push-out and the end-of-step check: a region
                                    the move passes through on purpose (the traversal's height
                                    latch over a ledge, docs/behaviour.md "Traversal") */
    gait_landmark_id latch_landmark;
    gait_vec3 latch_min, latch_max;
    gait_gather *gather;         /* NULL, or a gather (gait/collide.h) the mover's queries go
                                    through: the first query of a move gathers the region around
                                    it (re-gathering when a later one leaves it), the rest test
                                    only the triangles kept. The same answers, bit for bit, for
                                    one tree walk a move instead of one a query. One thread at a
                                    time; it may be shared by many movers (a world's characters):
                                    each re-gathers where it stands */
    gait_mover_bodies *bodies;   /* NULL, or the other characters this capsule keeps clear of
                                    (the world sets it while a character steps): its casts stop
                                    at them and its push-out leaves them, but they are never
                                    ground, wall or ceiling to the move's result */
    double support_hold;         /* m: how far past its bottom sphere a standing body's walk
                                    still finds walkable terrain to stand on where the cell under
                                    its feet is too steep and the feet are on that cell (a bank
                                    of steep and walkable triangles); gait_mover_init sets it to
                                    the 3 cm a landing reads, the world to the step height for a
                                    body standing as its step begins */
} gait_mover;

/* What a move found. */
typedef struct gait_move_result {
    bool grounded;               /* stands on walkable ground */
    gait_vec3 ground_normal;
    double ground_height;        /* m, feet height of that ground */
    bool steep;                  /* rests on ground too steep to stand on (slides) */
    bool wall;                   /* touched a surface too steep to walk (blocked by it) */
    gait_vec3 wall_normal;       /* unit, out of the wall (3D) */
    bool wall_terrain;           /* that wall is the terrain */
    bool ceiling;                /* touched a ceiling */
    bool touched;                /* the capsule may overlap a landmark (a cast started inside one,
                                    a step-up, an uncast terrain lift near landmarks): the
                                    push-out is worth its query */
    gait_vec3 vel;               /* the velocity after the surfaces clipped it (m/s) */
    gait_landmark_id ground_landmark; /* the landmark it stands on (null: the terrain, or none) */
    gait_landmark_id wall_landmark;   /* the landmark the wall is part of (null: terrain, none) */
} gait_move_result;

/* The last walk that left the feet where they stood, pushed into a wall it can neither step nor
 * slide along (a corner, a riser too tall, another body): what it was asked and what it found.
 * The same walk asked again, with the static landmarks as they were and nothing else near (no
 * moving landmark, no other character, no terrain in the world), has the same answer, and is
 * given it without a query. Part of the cache below: zeroed = empty, the same bits dropped. */
typedef struct gait_mover_held {
    bool valid;
    uint64_t revision;           /* the collider's static revision then */
    gait_mover mover;            /* the mover then, its gather and bodies left out */
    gait_vec3 feet, vel, plane;  /* the walk's: its velocity and the ground's normal */
    double dt;
    gait_move_result result;
} gait_mover_held;

/* A region known to hold no landmark: a vertical capsule, axis (x, z) from y0 to y1, radius (m),
 * of static landmarks, valid while the collider's static revision is the one it was found at
 * (a moving landmark near the move makes every query be asked). A body in open country skips
 * every landmark query for several steps. It only ever skips queries that would meet nothing:
 * with the cache and with it dropped before every move, the same motion gives the same bits.
 * Zeroed = empty. */
typedef struct gait_mover_cache {
    int hold;                    /* moves left that take "near" without asking (a body by a wall
                                    stays by it for a while) */
    bool valid;
    uint64_t revision;
    double x, z, y0, y1, radius;
    gait_mover_held held;        /* the last walk that held the feet still */
} gait_mover_cache;

/* A capsule of radius and height (m; height below 2 radius is raised to it) that walks up and
 * down step_height (m) and stands on slopes up to max_walk_slope (rad). No gather (set
 * mover->gather after to use one). */
void gait_mover_init(gait_mover *mover, const gait_collider *collider, double radius,
                     double height, double step_height, double max_walk_slope);

/* On the ground: moves the feet by the horizontal velocity hvel (m/s; y ignored) for dt s,
 * sliding along walls, stepping up risers of at most step_height, following the ground down
 * within step_height. ground_normal is the last result's (the move follows that plane).
 * result->grounded false means the ground dropped away. cache may be NULL. */
void gait_mover_walk(const gait_mover *mover, gait_vec3 *feet, gait_vec3 hvel,
                     gait_vec3 ground_normal, double dt, gait_mover_cache *cache,
                     gait_move_result *result);

/* In the air (or on a wall, in water): moves the feet by delta (m), sliding along what it meets;
 * vel is the velocity to clip (m/s). Lands on walkable ground when moving down. cache may be
 * NULL. */
void gait_mover_fly(const gait_mover *mover, gait_vec3 *feet, gait_vec3 delta, gait_vec3 vel,
                    gait_mover_cache *cache, gait_move_result *result);

/* The last pass of a move that began at `start`: when `push` (the move may have entered a
 * landmark: result->touched, or a move that presses into walls on purpose) the capsule is pushed
 * out of the landmarks it overlaps; then one overlap query at the feet: more than 1 cm inside a
 * landmark is pushed out, and what the push-out cannot solve is refused — the feet go back to
 * `start` (unless start was no better). What the push-out met is merged into *result (a floor
 * grounds it only when may_land). *carried (may be NULL), the velocity the caller keeps between
 * steps, is zeroed when the move is refused and loses its rise when the push-out met a ceiling.
 * Returns whether the move was refused. */
bool gait_mover_settle(const gait_mover *mover, gait_vec3 start, gait_vec3 *feet, bool push,
                       bool may_land, gait_move_result *result, gait_vec3 *carried);

/* Stands a capsule on the ground below *feet: down onto the terrain or the first landmark below
 * (up to 1000 m), out of any overlap, snapped onto walkable ground. *result says what it stands
 * on. For placing a body, not for moving it. */
void gait_mover_place(const gait_mover *mover, gait_vec3 *feet, gait_move_result *result);

/* A mover's body between steps, for hosts that drive the mover with a velocity alone (the
 * benchmark, a crowd): where it stands and its cache. */
typedef struct gait_mover_state {
    gait_vec3 feet;              /* m */
    gait_vec3 ground_normal;     /* of the ground stood on (up when none) */
    bool grounded;
    gait_mover_cache cache;
} gait_mover_state;

/* One step with the velocity given (m/s): walks when grounded and not moving up, else flies;
 * then pushes out of any overlap a cast reported. Updates the state; result (may be NULL) says
 * what it met. */
void gait_mover_step(const gait_mover *mover, gait_mover_state *state, gait_vec3 vel, double dt,
                     gait_move_result *result);

#ifdef __cplusplus
}
#endif
#endif
