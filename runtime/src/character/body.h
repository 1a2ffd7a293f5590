/* Internal: the character's body (body.c; docs/behaviour.md, "The body"). The step's move stage
 * calls gait__body_move to turn the state into a move through the mover (gait/mover.h); the body
 * keeps its memory between steps here. */
#ifndef GAIT_BODY_H
#define GAIT_BODY_H

#include "crowd.h"
#include "gait/mover.h"
#include "intent.h"

struct gait__character;

#define GAIT__HELD_BODIES 8     /* other characters near a held climber the memo keeps at most */

/* The last step of a climb on a landmark wall that held the body where it was (under a ceiling
 * or an overhang too deep to go round, in a corner): what climb_landmark was asked and found, as
 * a held walk keeps it (gait_mover_held: the climb's velocity, the wall's normal for the plane),
 * with what else it read. The same question with nothing near changed has the same answer, so a
 * climber held still for seconds (the stick pushed up into a roof) asks the collider nothing
 * new. A shortcut that gives the same bits when dropped (zero: empty). */
typedef struct gait__climb_memo {
    gait_mover_held ask;
    bool over_top;
    int nbounds;                 /* the other characters' half-spaces within its reach then */
    gait__bound bounds[GAIT__HELD_BODIES];
} gait__climb_memo;

/* The height probe's last ray down through the landmarks (sense.c): the ray and what it met, with
 * what else it read. A body held where it stands in the air (a climber pushed up into a roof, one
 * hung on a ledge by the stick) asks the same ray every step; with nothing it reads changed, the
 * answer is the same bits. A shortcut that gives the same bits when dropped (zero: empty). */
typedef struct gait__probe_memo {
    bool valid;
    const gait_collider *collider;
    uint64_t revision;           /* the collider's static revision then */
    gait_filter filter;
    gait_vec3 origin, delta;     /* the ray */
    bool found;
    double distance, point_y;    /* its hit: m down the ray, and the height it met */
} gait__probe_memo;

/* What the body keeps between steps (beyond position, velocity and contact). */
typedef struct gait__body {
    gait_vec3 vel;               /* m/s the body carries between steps (the air's momentum) */
    gait_vec3 wall_normal;       /* the wall last touched (unit, out of the wall) */
    gait_vec3 ground_normal;     /* unit, of the ground stood on (up when none) */
    double launch_speed;         /* m/s horizontal the body left the ground with (air steering cap) */
    bool on_ground;              /* stood on walkable ground after the last move */
    bool on_terrain_wall;        /* the wall is the terrain (a cliff), not a landmark */
    bool launched;               /* vel holds a kit's launch: a jump entered this step keeps it
                                    (motion.c sets it, the move clears it) */
    bool water_floor;            /* a kit's mode: the water's surface holds the feet on foot
                                    (motion.c sets it before each move) */
    gait_mover_cache near;       /* open country around the body */
    /* moving landmarks (docs/behaviour.md, "Moving landmarks") */
    gait_landmark_id ground_lm;  /* stood on after the last move (null: terrain or none) */
    gait_landmark_id wall_lm;    /* the wall last touched is part of it (null: terrain, none) */
    gait_vec3 inherit;           /* m/s horizontal: the velocity of the moving landmark the body
                                    left, which the air's steering keeps (zero on the ground) */
    gait__climb_memo held;       /* the climb's last step that held the body still */
    gait__probe_memo probe;      /* the height probe's last ray (sense.c) */
} gait__body;

/* A moving landmark's part in a step (gait__body_carry). */
typedef struct gait__carry {
    bool carried;                /* the body stood on (or climbed) a moving landmark */
    bool stays;                  /* ... and keeps to it this step (on foot, on the wall) */
    gait_landmark_id landmark;
    gait_vec3 velocity;          /* m/s of its point under the body over the step */
} gait__carry;

/* Stands a new or placed body on the ground below its position and writes its contact; on foot
 * where only the crouched capsule fits (a low ceiling), its state becomes crouch. */
void gait__body_place(const gait_collider *collider, struct gait__character *ch,
                      const gait_locomotion *numbers);
/* The same, told whether no landmark comes near (gait__body_spot's *clear for ch->position): when
 * clear, the placement's queries skip the landmarks, which they would not meet (the same result,
 * for the cost of the terrain alone). False: every query is asked. */
void gait__body_place_known(const gait_collider *collider, struct gait__character *ch,
                            const gait_locomotion *numbers, bool clear);

/* One step of dt seconds: `from` was the state before the gates, ch->phase.state is the state
 * now; numbers are the body type's. Updates position, velocity, yaw, the body's memory and the
 * contact. Its queries go through gather (may be NULL; gait_mover.gather); bodies (may be NULL)
 * are the other characters it keeps clear of (gait_mover.bodies). Allocates nothing. */
void gait__body_move(const gait_collider *collider, gait_gather *gather, gait_mover_bodies *bodies,
                     struct gait__character *ch, const gait__intent *intent,
                     const gait_locomotion *numbers, gait_state from, double dt);

/* Before the step's own move: a body on a moving landmark (or climbing one) is carried by how it
 * moved since the last step, turned with it (its feet glued: the carry is cast through the
 * other geometry, never through it); one leaving it (into the air) takes its velocity along.
 * Fills *carry. */
void gait__body_carry(const gait_collider *collider, gait_gather *gather, gait_mover_bodies *bodies,
                      struct gait__character *ch, const gait_locomotion *numbers, double dt,
                      gait__carry *carry);

/* After the step's move: a body that walked off the moving landmark it was carried on takes its
 * velocity into the fall. */
void gait__body_leave(struct gait__character *ch, const gait__carry *carry);

/* Whether a moving landmark holds the body more than 1 cm inside it after its move (the push-out
 * could not free it: squeezed against something, or under a lift's ceiling). */
bool gait__body_crushed(const gait_collider *collider, gait_gather *gather,
                        const struct gait__character *ch, const gait_locomotion *numbers);

/* A traversal hands the body back its momentum and footing (then the sense stage writes the
 * contact). */
void gait__body_hand_over(gait__body *body, bool grounded, gait_vec3 ground_normal,
                          gait_vec3 vel);

/* Where a body of these numbers put at *feet (a create, a place) stands free. Inside closed
 * geometry — a landmark whose faces every ray from the capsule's middle along the six axes meets
 * from behind (collide.h: triangles are counter-clockwise seen from outside) — it goes out by the
 * nearest of the six ways out where its capsule is free (through the face each ray met by its
 * radius and 1 cm, onto the top, under the bottom). Where the crouched capsule, stood on the
 * ground below (gait_mover_place), still lies more than the settle's 1 cm in a landmark (a thin
 * plate through it; under a low ceiling the body may be put: it crouches there), the nearest point
 * that stands free is taken, 0.25 m apart above and around, up to 3 m.
 * False, *feet unchanged, when none is free. */
bool gait__body_spot(const gait_collider *collider, const gait_locomotion *numbers,
                     gait_vec3 *feet, bool *clear);
/* The same; fast false asks every query even where no landmark is near (the tests compare the
 * two). *clear (may be NULL): no landmark lies near a body placed at *feet, for
 * gait__body_place_known; the spot then costs one query, not a placement. */
bool gait__body_spot_ex(const gait_collider *collider, const gait_locomotion *numbers,
                        gait_vec3 *feet, bool fast, bool *clear);

/* Whether a body with this contact stands where it may: dry, or water no deeper than where a
 * swim ends (wading_depth - swim_exit_margin). */
bool gait__body_can_wade(const gait_contact *contact, const gait_locomotion *numbers);

/* A body placed in water too deep to stand in is moved to the nearest ground it can stand in
 * (gait__body_can_wade), looked for in rings of 1 m up to 32 m around it, and placed there;
 * where there is none it stays. */
void gait__body_place_ashore(const gait_collider *collider, struct gait__character *ch,
                             const gait_locomotion *numbers);

/* One step of a fall from vertical speed vy0 (m/s): *vy1 the speed at its end, the return value
 * the mean over the step (the feet move mean * dt). Both capped at the terminal speed. */
double gait__body_fall(double vy0, const gait_locomotion *numbers, double dt, double *vy1);

#endif
