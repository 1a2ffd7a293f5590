/* Internal: the kinematic capsule (SPEC §3). world.c runs the gates and the stamina, then calls
 * gait__body_move to turn the state into a move against the collider and to write the contact
 * the next step's gates will read.
 *
 * Two layers:
 *   - the mover (gait__mover_*): a capsule that applies the velocity it is given, Jolt
 *     CharacterVirtual style — walk (slide + step up + stick to the ground) or fly (slide, land,
 *     slide down what is too steep) — against the landmarks by sweeps and the terrain through its
 *     height function. It knows nothing of states; the benchmark drives it directly;
 *   - the body (gait__body_move): turns a locomotion state into a velocity for the mover, and
 *     adds what only a character does: climbing, the glider, the plunge, swimming. */
#ifndef GAIT_BODY_H
#define GAIT_BODY_H

#include "gait/world.h"

struct gait__character;

/* A region known to hold no landmark: a vertical capsule, axis (x, z) from y0 to y1, radius (m),
 * valid while the collider's revision is the one it was found at. It lets a body in open country
 * skip every landmark query for several steps. */
typedef struct gait__near_cache {
    int hold;                    /* steps left that take "near" without asking (a body by a wall
                                    stays by it for a while) */
    bool valid;
    uint64_t revision;
    double x, z, y0, y1, radius;
} gait__near_cache;

/* What the body keeps between steps (beyond position, velocity and contact). */
typedef struct gait__body {
    gait_vec3 vel;               /* m/s the body carries between steps (the air's momentum) */
    gait_vec3 wall_normal;       /* the wall last touched (unit, out of the wall) */
    gait_vec3 ground_normal;     /* unit, of the ground stood on (up when none) */
    double launch_speed;         /* m/s horizontal the body left the ground with (air steering cap) */
    double ground_height;        /* m, height of the ground under the feet at the last step */
    bool on_ground;              /* stood on walkable ground after the last move */
    bool on_terrain_wall;        /* the wall is the terrain (a cliff), not a landmark */
    gait__near_cache near;       /* open country around the body */
} gait__body;

/* ---- the mover ------------------------------------------------------------------------- */

/* The capsule and the numbers a move needs. */
typedef struct gait__mover {
    const gait_collider *collider;
    double radius;               /* m */
    double height;               /* m, feet to top (>= 2 radius) */
    double step_height;          /* m the feet follow up or down while walking */
    double cos_walkable;         /* cos of the steepest walkable slope */
    gait_filter filter;          /* landmark queries (skip_terrain set: the terrain is read
                                    through its height function) */
    bool latch;                  /* the traversal's height latch (SPEC §8.8): contacts with
                                    latch_landmark inside the latch box are not overlaps for the
                                    push-out and the end-of-step check (the ledge's triangles the
                                    action passes through on purpose) */
    gait_landmark_id latch_landmark;
    gait_vec3 latch_min, latch_max;
} gait__mover;

/* What a move found. */
typedef struct gait__move_result {
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
} gait__move_result;

void gait__mover_init(gait__mover *m, const gait_collider *collider, double radius, double height,
                      double step_height, double max_walk_slope);

/* On the ground: moves the feet by the horizontal velocity hvel (m/s; y ignored) for dt s,
 * sliding along walls, stepping up risers of at most step_height, following the ground down
 * within step_height. ground_normal is the last result's (the move follows that plane).
 * result->grounded false means the ground dropped away. near (may be NULL) is the body's cache
 * of open country. */
void gait__mover_walk(const gait__mover *m, gait_vec3 *feet, gait_vec3 hvel,
                      gait_vec3 ground_normal, double dt, gait__near_cache *near,
                      gait__move_result *result);

/* In the air (or on a wall, in water): moves the feet by delta (m), sliding along what it meets;
 * vel is the velocity to clip (m/s). Lands on walkable ground when moving down. */
void gait__mover_fly(const gait__mover *m, gait_vec3 *feet, gait_vec3 delta, gait_vec3 vel,
                     gait__near_cache *near, gait__move_result *result);

/* A mover's body between steps, for hosts that drive the mover directly (the benchmark). */
typedef struct gait__mover_state {
    gait_vec3 feet;              /* m */
    gait_vec3 ground_normal;     /* of the ground stood on (up when none) */
    bool grounded;
    gait__near_cache near;
} gait__mover_state;

/* One step with the velocity given (m/s): walks when grounded and not moving up, else flies;
 * then pushes out of any overlap. Updates the state; result (may be NULL) says what it met. */
void gait__mover_step(const gait__mover *m, gait__mover_state *state, gait_vec3 vel, double dt,
                      gait__move_result *result);

/* The last word of a step (the body's move and the traversal's): one overlap query at feet; more
 * than 1 cm inside a landmark is pushed out, and what the push-out cannot solve is refused: feet
 * go back to start (unless start was no better). Returns whether the move was refused. */
bool gait__mover_end_step(const gait__mover *m, gait_vec3 start, gait_vec3 *feet);

/* ---- the body ---------------------------------------------------------------------------- */

/* Stands a new or placed body on the ground below `position` and fills its contact. */
void gait__body_place(gait_world *world, struct gait__character *ch);

/* One step of dt seconds: `from` was the state before the gates, ch->phase.state is the state
 * now; move is (move_x, move_y) camera-relative after a kit action zeroed it; numbers are the
 * body type's. Updates position, velocity, yaw and ch->contact. Allocates nothing. */
void gait__body_move(gait_world *world, struct gait__character *ch, const gait_locomotion *numbers,
                     gait_state from, double move_x, double move_y, double dt);

#endif
