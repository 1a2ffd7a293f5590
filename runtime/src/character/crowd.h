/* Internal: characters that block one another (crowd.c; docs/behaviour.md, "Characters that
 * meet").
 *
 * Before each step the world takes a picture of every colliding character's capsule (the crowd:
 * gait__crowd_build) and files it in a uniform grid over (x, z), dense or hashed. During the
 * step a character's mover keeps clear of the others through half-spaces built from that
 * picture alone (gait_mover_bodies): for each pair, the plane halfway across the gap between
 * their capsules, each keeping to its own side. Whatever either does this step, the two cannot
 * end inside one another, and no result depends on the order the characters are stepped in or
 * on the thread that steps them. */
#ifndef GAIT_CROWD_H
#define GAIT_CROWD_H

#include "gait/mover.h"

struct gait_world;

#define GAIT__BODIES_MAX 32    /* other characters one step keeps clear of at most (the nearest) */

/* One colliding character as the step began: an upright capsule. */
typedef struct gait__crowd_entry {
    double x, z;               /* its axis (m) */
    double y0, y1;             /* the heights of its lower and upper sphere centres (m) */
    double radius;             /* m */
    double vx, vz;             /* m/s, its horizontal velocity over the last step */
    double vy;                 /* m/s, its vertical one (a lower body rising takes the gap) */
    bool grounded;             /* its feet stood on walkable ground as the last step ended */
    uint32_t layer, mask;
    int slot;
    int32_t cx, cz;            /* its grid cell */
} gait__crowd_entry;

/* The picture and its grid. Sized for the world's capacity at its create: a build allocates
 * nothing. */
typedef struct gait__crowd {
    int capacity;
    gait__crowd_entry *entries;    /* filed by bucket, each bucket in slot order */
    gait__crowd_entry *unsorted;   /* the build's scratch */
    int *bucket_start;             /* bucket b holds entries [bucket_start[b], bucket_start[b + 1]) */
    int *entry_of_slot;            /* a slot's entry, -1 when it does not collide */
    int bucket_cap;                /* hashed: buckets at most (a power of two) */
    int bucket_alloc;              /* buckets allocated: bucket_cap, or a dense grid's most */
    uint32_t bucket_mask;          /* hashed: buckets used this step, less one */
    /* Dense (a crowd packed in a few cells a character): bucket (cz - oz) * width + (cx - ox)
     * holds that one cell, so a row of cells is one run of entries and a gather reads only the
     * entries of the cells it looks into. Else hashed: bucket_of(cx, cz), cells sharing one. */
    bool dense;
    int32_t ox, oz;                /* dense: the cell at bucket 0 */
    int width, depth;              /* dense: cells along x and z */
    int count;                     /* entries this step */
    double max_radius;             /* m, of them all */
    bool active;                   /* two or more characters collide this step */
} gait__crowd;

gait_status gait__crowd_init(gait__crowd *crowd, const gait_hooks *hooks, int capacity);
void gait__crowd_free(gait__crowd *crowd, const gait_hooks *hooks);
/* The picture of the world's colliding characters now (the start of a step); feet[slot] the feet
 * of every live one, colliding or not (the world's step_feet: a kit's move may follow one), in
 * the same pass over the slots. */
void gait__crowd_build(gait__crowd *crowd, const struct gait_world *world, gait_vec3 *feet);

/* From the nearest point of b's axis to the nearest of an upright axis at (x, z) whose sphere
 * centres are at heights y0..y1: level where their heights overlap, else between their ends. */
gait_vec3 gait__crowd_apart(double x, double y0, double y1, double z, const gait__crowd_entry *b);

/* A half-space an other character leaves this one: every point p of this capsule keeps
 * dot(p, normal) - radius >= offset. */
typedef struct gait__bound {
    gait_vec3 normal;          /* unit, from the other towards this one */
    double offset;             /* m */
    int slot;                  /* the other's */
    bool still;                /* the other's side stays put for the next step (crowd.c
                                  other_stays): it may be one face of a notch (mover.c
                                  contact_support); a moving one's is gone by the next step, and
                                  a slow climber's a little at a time */
} gait__bound;

/* The other characters one character's step keeps clear of (the mover's `bodies`). Gathered
 * from the crowd lazily: the half-spaces of every character this one could reach moving up to
 * `covered` from where the step began; a move that may reach further gathers again. */
struct gait_mover_bodies {
    const gait__crowd *crowd;
    int self;                  /* slot */
    gait_vec3 origin;          /* feet as the step began (the picture's) */
    double height0;            /* the capsule's height then (m) */
    double covered;            /* m; < 0 before the first gather */
    bool full;                 /* more than GAIT__BODIES_MAX were in reach: the nearest kept */
    int count;
    gait__bound bounds[GAIT__BODIES_MAX];
};

/* Sets *bodies up for the character in `slot` (false when it does not collide this step: the
 * mover then takes no bodies). */
bool gait__bodies_begin(gait_mover_bodies *bodies, const gait__crowd *crowd, int slot);

/* For the mover (mover.c): makes sure the bounds cover a capsule of `height` at feet moved by d
 * (gathering again when it does not). */
void gait__bodies_cover(gait_mover_bodies *bodies, gait_vec3 feet, gait_vec3 d, double height);

/* The other characters' half-spaces within `reach` (m) of a capsule of `radius` and `height` at
 * feet (gathering as far as that needs): all any query about there could meet, nearest first,
 * into out; their count, or -1 when more than cap. */
int gait__bodies_within(gait_mover_bodies *bodies, gait_vec3 feet, double reach, double radius,
                        double height, gait__bound *out, int cap);

#endif
