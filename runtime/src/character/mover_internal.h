/* Internal: the parts of the mover (mover.c) the body composes its own moves from — climbing a
 * wall is a slide pressed into it, held to a terrain cliff through the height function — beside
 * the public moves of gait/mover.h. */
#ifndef GAIT_MOVER_INTERNAL_H
#define GAIT_MOVER_INTERNAL_H

#include <math.h>
#include <string.h>

#include "gait/mover.h"

#define GAIT__MOVER_MAX_PLANES 8
#define GAIT__STEP_RAY_LIFT 0.02 /* m above the step height a ray looks for a face the step cannot
                                   get over (the walk's step-up, the climb's top-out) */

/* An upright capsule of radius r and height h (m) standing with its feet at feet. */
static inline gait_capsule gait__upright_capsule(gait_vec3 feet, double r, double h) {
    gait_capsule c = {{feet.x, feet.y + r, feet.z}, {feet.x, feet.y + h - r, feet.z}, r};
    return c;
}

/* What a slide met. */
typedef struct gait__slide_info {
    int hits;                   /* casts that met something */
    bool solid;                 /* a cast started inside something */
    bool floor;                 /* met walkable ground (by its normal, or an edge over it) */
    gait_vec3 floor_n;
    gait_landmark_id floor_lm;  /* ... of this landmark */
    bool steep;                 /* met an up-facing surface too steep to stand on */
    gait_vec3 steep_n;
    bool wall;                  /* met a surface too steep to walk (not a ceiling) */
    gait_vec3 wall_n;           /* its normal, 3D, out of the wall */
    gait_landmark_id wall_lm;   /* ... of this landmark */
    bool ceiling;
    bool body;                  /* met another character (gait_mover.bodies) */
    bool body_under;            /* ... from above: rests on it (its normal rises SUPPORT_MIN_UP) */
    gait_vec3 body_n;
    gait_vec3 planes[GAIT__MOVER_MAX_PLANES];
    int np;
} gait__slide_info;

/* Moves the capsule's feet by delta, sliding along what it meets. flatten: walls are taken as
 * vertical planes (a walking body must not ride up a wall it cannot walk). support: check edge
 * hits for walkable faces past them (landing). Returns the new feet. */
gait_vec3 gait__mover_slide(const gait_mover *m, gait_vec3 feet, gait_vec3 delta, bool flatten,
                            bool support, gait__slide_info *si);
/* Up by `up` (m), across by d (a slide), down again onto walkable ground: the move from start a
 * ledge stopped at `plain`, tried over it (the walk's step up is this with step_height). True
 * with the feet in *out when it lands on walkable ground further along d than plain. */
bool gait__mover_step_over(const gait_mover *m, gait_vec3 start, gait_vec3 d, gait_vec3 plain,
                           double up, gait_vec3 *out);
/* gait_mover_fly for a move a kit steers (a dash or a pull toward a point): a landmark's
 * too-steep face met with the move's rise is ridden up as the slide leaves it (a lip is got
 * over), where a body the air carries only slides down one (SLIDE_NO_RISE). The terrain's
 * too-steep faces are slid down alike. */
void gait__mover_fly_steered(const gait_mover *m, gait_vec3 *feet, gait_vec3 delta, gait_vec3 vel,
                             gait_mover_cache *near, gait_move_result *r);
/* Whether the capsule at feet lies in no landmark deeper than the settle pass allows (1 cm). */
bool gait__mover_free(const gait_mover *m, gait_vec3 feet);
/* gait_mover_init with cos(max_walk_slope) given (a caller that remembers it: core/trig.h). */
void gait__mover_init_cos(gait_mover *m, const gait_collider *collider, double radius, double height,
                          double step_height, double max_walk_slope, double cos_walkable);
/* One sweep of the capsule at feet by d (the mover's filter), against the landmarks only: the
 * body's probes for a wall or a floor, which another character never is. */
bool gait__mover_sweep(const gait_mover *m, gait_vec3 feet, gait_vec3 d, gait_hit *hit);
/* The collider's queries through a gather (g may be NULL: the collider's own), as the mover
 * asks its own: the gather is gathered anew, a margin around the query, when it does not hold
 * it (a query too wide to gather is answered from it when its first hit lies in it, else by the
 * trees). The same answers, bit for bit, as the collider's. */
gait_gather *gait__gather_for(const gait_collider *col, gait_gather *g, const gait_filter *f,
                              gait_vec3 lo, gait_vec3 hi);
/* Asks the memory for what a gather's next queries read first (collide_query.c), in stages a
 * step apart so none waits on another: 0 the gather's own struct (not read), 1 its scratch's
 * header (g read), 2 its runs, its boxes and the triangle records its queries built (the header
 * read). Nothing is written; a crowd's step issues them for the characters ahead. */
void gait__gather_prefetch(const gait_gather *g, int stage);
/* Whether more than `gap` mover steps on this thread went through other gathers (or none) since
 * the last one through g (collide_query.c), so its records have likely left the core's caches;
 * counts this one. */
bool gait__gather_cold(gait_gather *g, uint32_t gap);
bool gait__query_sweep(const gait_collider *col, gait_gather *g, const gait_capsule *c, gait_vec3 d,
                       const gait_filter *f, gait_hit *hit);
bool gait__query_ray(const gait_collider *col, gait_gather *g, gait_vec3 o, gait_vec3 d,
                     const gait_filter *f, gait_hit *hit);
/* (collide_query.c) As gait_collider_capsule_overlap (g NULL) or gait_gather_capsule_overlap
 * (g, of collider c), but one contact for each point and normal: a contact at the same point
 * (within 1e-6 m) with the same normal as one kept (an edge or a vertex several triangles share:
 * stair steps stacked corner over corner, copies of a mesh laid over each other) keeps the deeper
 * of the two and takes no place of its own. For readers of distinct faces (the mover's push-out
 * and support reading), whom a full list of one edge's copies left blind to the face beside it. */
int gait__capsule_overlap_distinct(const gait_collider *c, gait_gather *g,
                                   const gait_capsule *capsule, const gait_filter *filter,
                                   gait_contact_point *out, int capacity, bool *truncated);
/* The overlap as the mover asks it: one contact for each point and normal
 * (gait__capsule_overlap_distinct). */
int gait__query_overlap(const gait_collider *col, gait_gather *g, const gait_capsule *c,
                        const gait_filter *f, gait_contact_point *cp, int cap, bool *more);
/* Whether the cache (may be NULL) knows that no landmark comes near a capsule of this mover at
 * feet (its known-empty capsule, at the collider's present revision, holds it): the capsule
 * there overlaps no landmark, and stands across no other character's half-space (gait_mover.
 * bodies), so an overlap query would find nothing. */
bool gait__mover_clear_at(const gait_mover *m, const gait_mover_cache *cache, gait_vec3 feet);
/* The terrain's height and normal at (x, z); false off it. */
bool gait__mover_terrain(const gait_mover *m, double x, double z, double *h, gait_vec3 *n);
/* A move held still (gait_mover_held; the walk's, body.c's climb's): whether h was asked the
 * same question — the same mover (every number a move reads, doubles by their bits: its gather
 * changes no answer, its bodies are compared by the caller), feet, velocity, plane and step, at
 * the collider's static revision now — and keeping a question and its answer. */
bool gait__held_same(const gait_mover_held *h, const gait_mover *m, gait_vec3 feet, gait_vec3 vel,
                     gait_vec3 plane, double dt);
void gait__held_keep(gait_mover_held *h, const gait_mover *m, gait_vec3 feet, gait_vec3 vel,
                     gait_vec3 plane, double dt, const gait_move_result *r);
/* Whether the collider has a terrain at all (collide.c). */
bool gait__collider_has_terrain(const gait_collider *c);
/* Whether the capsule moved by delta meets the gathered triangle `triangle` of landmark lm (its
 * index, as a hit names it) by itself: when true, a cast of it by delta through the collider
 * (any filter that lets that landmark's triangle in) meets something; false when it does not or
 * the gather holds no such triangle (collide_query.c). */
bool gait__gather_sweep_meets(gait_gather *g, const gait_collider *c, gait_landmark_id lm,
                              int triangle, const gait_capsule *capsule, gait_vec3 delta);
/* A ray straight down (delta.y < 0, no x or z) that looks at nothing wholly below floor_y
 * (collide_query.c): 1 with *out when its first hit lies above floor_y, and is then the whole
 * ray's answer, the same bits as gait_collider_ray_cast; 0 when it met nothing there (ask the
 * whole ray). g (may be NULL): a gather of c's that answers when it holds the column down to
 * floor_y. */
int gait__ray_down_above(const gait_collider *c, gait_gather *g, gait_vec3 origin,
                         gait_vec3 delta, const gait_filter *filter, double floor_y,
                         gait_hit *out);
/* The first of the other characters' half-spaces (gait_mover.bodies; false with none) the
 * capsule at feet meets moving by d before the fraction `best` of it, as the mover's own casts
 * meet them: for moves cast by hand (a traversal's path). */
bool gait__mover_sweep_bodies(const gait_mover *m, gait_vec3 feet, gait_vec3 d, double best,
                              gait_hit *hit);
/* Moves the feet out of the other characters' half-spaces they stand across (gait_mover.bodies),
 * by a cast against the landmarks: for moves whose own casts pass the others by (a traversal's
 * path). */
void gait__mover_leave_bodies(const gait_mover *m, gait_vec3 *feet);
/* How deep the capsule at feet stands in a landmark (or, with bodies, across another
 * character's half-space), m; 0 when clear. */
double gait__mover_depth(const gait_mover *m, gait_vec3 feet);
/* p, raised onto the terrain when it is below it. */
gait_vec3 gait__mover_above_terrain(const gait_mover *m, gait_vec3 p);
bool gait__mover_is_floor(const gait_mover *m, gait_vec3 n);  /* walkable */
bool gait__mover_is_ceiling(gait_vec3 n);                      /* within 60 deg of down */
/* An empty result: nothing met, ground normal up, ground height -infinity. */
static inline void gait__mover_result_clear(gait_move_result *r) {
    memset(r, 0, sizeof *r);
    r->ground_normal.y = 1;
    r->ground_height = -INFINITY;
}

#endif
