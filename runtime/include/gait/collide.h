/* gait — the collision world: terrain heightfield, water, landmark meshes in BVHs, and the
 * capsule / sphere / ray queries the body, the camera and the traversal stand on.
 *
 * Every query is const, fills the caller's arrays and allocates nothing. Queries on one collider
 * may run from several threads at once; adding or removing geometry may not overlap a query.
 *
 * Terrain cells are split along the diagonal from sample (ix, iz) to (ix+1, iz+1), into the
 * triangles (p00, p01, p11) and (p00, p11, p10) — the same split as the meadow benchmark scene.
 * gait_terrain_sample() interpolates on those two triangles, so the height it reads is exactly
 * the surface the queries collide with. */
#ifndef GAIT_COLLIDE_H
#define GAIT_COLLIDE_H

#include "gait/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gait_collider gait_collider;

typedef struct gait_collider_def {
    gait_hooks hooks;           /* zeroed = defaults (malloc/free, stderr) */
    int max_landmarks;          /* landmarks alive at once; default 4096, range 1..1<<20 */
    double walkable_slope;      /* rad; a contact whose normal is within this of up is a floor.
                                   Default 50 deg (0.8727). Range (0, pi/2). A query's filter may
                                   override it per body type. */
    double ceiling_slope;       /* rad from straight down within which a contact is a ceiling;
                                   default 60 deg (1.0472). Range (0, pi/2). */
    double sweep_skin;          /* m; sweeps stop this far short of the surface so the next step
                                   does not start touching it. Default 0.002, range [0, 0.1]. */
} gait_collider_def;

gait_collider_def gait_default_collider_def(void);

/* NULL when the def is invalid or memory runs out (the reason goes to the log hook). */
gait_collider *gait_collider_create(const gait_collider_def *def);
void gait_collider_destroy(gait_collider *collider);
/* The message of the last failed call on this collider ("" when none). */
const char *gait_collider_last_error(const gait_collider *collider);

/* ---- terrain ---------------------------------------------------------------------------- */

typedef struct gait_heightfield_def {
    int samples_x, samples_z;   /* grid vertices along x and z, each >= 2 */
    double cell_size;           /* m between samples, > 0 */
    gait_vec3 origin;           /* world position of sample (0, 0); origin.y is added to heights */
    const float *heights;       /* samples_x * samples_z heights (m), index iz * samples_x + ix;
                                   copied, every value finite */
} gait_heightfield_def;

/* Replaces the terrain (NULL clears it). */
gait_status gait_collider_set_terrain(gait_collider *collider, const gait_heightfield_def *def);
/* Loads an 8- or 16-bit greyscale PNG (colour images use their first channel): height =
 * origin.y + value / max_value * height_scale. Row 0 of the image is z = origin.z. */
gait_status gait_collider_load_heightmap(gait_collider *collider, const char *png_path,
                                         double cell_size, double height_scale, gait_vec3 origin);
/* Height (m) and unit up-facing normal of the terrain at (x, z); false outside it or with none. */
bool gait_terrain_sample(const gait_collider *collider, double x, double z, double *height,
                         gait_vec3 *normal);

/* ---- water ------------------------------------------------------------------------------ */

/* A water volume: the box [min_x, max_x] x [min_z, max_z], surface at `surface` (m). */
typedef struct gait_water_region {
    double min_x, min_z, max_x, max_z;
    double surface;
} gait_water_region;

/* Sea level everywhere (m); -INFINITY (the default) means no sea. */
gait_status gait_collider_set_sea_level(gait_collider *collider, double level);
/* Up to 256 regions; *out_index receives the region's index (may be NULL). */
gait_status gait_collider_add_water(gait_collider *collider, const gait_water_region *region,
                                    int *out_index);
gait_status gait_collider_clear_water(gait_collider *collider);
/* The highest water surface over (x, z), and its depth down to the terrain there (m; +INFINITY
 * with no terrain or outside it). False when no water covers the point, which includes terrain
 * standing at or above the surface there (dry land below sea level's height is not water). */
bool gait_water_at(const gait_collider *collider, double x, double z, double *surface,
                   double *depth);

/* ---- landmarks -------------------------------------------------------------------------- */

/* A static triangle mesh. Positions are local floats placed at `offset` (double), so a mesh far
 * from the origin keeps its precision. Triangles are counter-clockwise seen from outside.
 * Triangles that are exact copies of another (the same three positions in the same order) cost
 * a query nothing more than the first: a stack of coincident faces never makes queries slow. */
typedef struct gait_mesh_def {
    const float *positions;     /* 3 floats per vertex (m) */
    int vertex_count;
    const uint32_t *indices;    /* 3 per triangle; NULL: positions are consecutive triangles */
    int triangle_count;
    gait_vec3 offset;           /* added to every position (m) */
    const char *name;           /* for messages; may be NULL */
    /* false (the default): coplanar triangles joined edge to edge are grown into convex pieces
     * (up to 256 triangles each), each stored as its outline's fan when that takes fewer
     * triangles (a floor of tiles, a face a compiler or a subdivision cut up): the same surface,
     * the same edges, fewer triangles for every query to test. A hit or contact on a merged
     * face names one of its piece's triangles; gait_collider_source_triangle() names the one
     * under the point. true: every triangle is stored as given. */
    bool keep_triangles;
} gait_mesh_def;

typedef struct gait_landmark_info {
    int triangle_count;         /* triangles kept */
    int stored_count;           /* triangles queries test: coplanar patches merged (<= kept) */
    int skipped_count;          /* degenerate triangles skipped (zero area, NaN, Inf) */
    gait_vec3 bounds_min, bounds_max;
    size_t memory_bytes;        /* held by this landmark (mesh + BVH) */
} gait_landmark_info;

/* Builds the landmark's BVH now. A mesh with no valid triangle is refused. */
gait_status gait_collider_add_landmark(gait_collider *collider, const gait_mesh_def *def,
                                       gait_landmark_id *out_id);
/* Frees its memory; it is gone from every later query. */
gait_status gait_collider_remove_landmark(gait_collider *collider, gait_landmark_id id);
gait_status gait_collider_landmark_info(const gait_collider *collider, gait_landmark_id id,
                                        gait_landmark_info *out);
int gait_collider_landmark_count(const gait_collider *collider);
/* The triangle of the mesh as given under `point` (world, m, on the surface) on the face
 * `triangle` of landmark `id` that a hit or contact named: the face's own index unless coplanar
 * triangles were merged into it (gait_mesh_def.keep_triangles), and then the nearest of them
 * (the lowest index on a seam). For a per-triangle lookup (a material, a footstep sound).
 * -1 for a stale id, an index out of range or a point not finite. */
int gait_collider_source_triangle(const gait_collider *collider, gait_landmark_id id, int triangle,
                                  gait_vec3 point);
/* Changes whenever anything a query can see changes: a landmark added, removed or moved, the
 * terrain set (a cache of a query's answer is valid while it stays the same). */
uint64_t gait_collider_revision(const gait_collider *collider);
/* Changes as the revision does, but not when a moving landmark moves: a cache that leaves moving
 * landmarks out (gait_filter.skip_moving, gait_collider_moving_near) keys on it. */
uint64_t gait_collider_static_revision(const gait_collider *collider);

/* ---- moving landmarks --------------------------------------------------------------------- */

/* A landmark's pose: its mesh's own frame (the positions as given) placed at `position` (m) and
 * turned by `rotation`, a unit quaternion (x, y, z, w). A landmark is added at (offset, no turn). */
typedef struct gait_transform {
    gait_vec3 position;
    double rotation[4];
} gait_transform;

/* A pose at `position` turned `yaw` rad about +y (a yaw of a faces +z into (sin a, 0, cos a),
 * as a character's does). */
gait_transform gait_transform_yaw(gait_vec3 position, double yaw);

/* Moving (kinematic) landmarks: lifts, ferries, turning bridges, swinging logs. A moving
 * landmark's pose changes once a step (gait_collider_advance: a world's step calls it first),
 * and every query of that step sees it there. Its tree stays in its own frame: moving it costs
 * nothing per triangle. What stands on one, or climbs it, is carried by how it moved over the
 * step and turned with it; what leaves it keeps its velocity; what it moves into is pushed out
 * (docs/behaviour.md, "Moving landmarks"). Each call below makes a static landmark moving (for
 * good) and takes effect at the next advance:
 *   move:         it is at `to` at the next step, then holds still there;
 *   set_velocity: it moves at `velocity` (m/s) and turns at `angular_velocity` (rad/s, about
 *                 world axes through its position) until told otherwise;
 *   set_path:     it loops through `count` poses (2..64), `period` s (0, 1e6] for the loop, at an
 *                 even pace, straight between them (turning the short way), from the first.
 * INVALID_ARGUMENT (nothing changed) for a non-finite number or a rotation of zero length;
 * STALE_ID for an unknown id. */
gait_status gait_collider_move_landmark(gait_collider *collider, gait_landmark_id id,
                                        const gait_transform *to);
gait_status gait_collider_set_landmark_velocity(gait_collider *collider, gait_landmark_id id,
                                                gait_vec3 velocity, gait_vec3 angular_velocity);
gait_status gait_collider_set_landmark_path(gait_collider *collider, gait_landmark_id id,
                                            const gait_transform *poses, int count, double period);
/* Moves every moving landmark one step of dt s (0 < dt <= 1): the step before becomes its last
 * pose, this one its pose. */
/* A world's collider is held still while the world steps: from a hook inside the step, the
 * calls that change it (the terrain, the water, adding, removing, moving or setting a landmark
 * moving, advance) are refused with GAIT_ERR_LOCKED and change nothing (gait_world_is_locked). */
gait_status gait_collider_advance(gait_collider *collider, double dt);
/* Its pose now. */
gait_status gait_collider_landmark_transform(const gait_collider *collider, gait_landmark_id id,
                                             gait_transform *out);
bool gait_collider_landmark_moving(const gait_collider *collider, gait_landmark_id id);
/* The pose to draw: blended between the last pose and this one by alpha in [0, 1] (a world's
 * gait_world_alpha), as a character's drawn pose is, so a body riding it stays on it on screen. */
gait_status gait_collider_landmark_drawn(const gait_collider *collider, gait_landmark_id id,
                                         double alpha, gait_transform *out);
/* Carrying over the last advance: the landmark's point that was at `before` (world, m) at its
 * last pose is at *after now; *turn (may be NULL) is its turn over the step, a quaternion. The
 * point's velocity is (after - before) / dt. A still landmark gives before and no turn. */
gait_status gait_collider_landmark_carry(const gait_collider *collider, gait_landmark_id id,
                                         gait_vec3 before, gait_vec3 *after, double turn[4]);
/* How many landmarks are moving. */
int gait_collider_moving_count(const gait_collider *collider);
/* Whether a moving landmark's bounds meet the box [lo, hi] (world, m). */
bool gait_collider_moving_near(const gait_collider *collider, gait_vec3 lo, gait_vec3 hi);

/* ---- queries ---------------------------------------------------------------------------- */

typedef enum gait_contact_class {
    GAIT_CONTACT_FLOOR = 0,     /* normal within walkable_slope of up */
    GAIT_CONTACT_WALL,          /* too steep to stand on, not a ceiling */
    GAIT_CONTACT_CEILING        /* normal within ceiling_slope of down */
} gait_contact_class;

/* A capsule: the segment a-b (sphere centres, m) swept by a sphere of `radius` (m, > 0). */
typedef struct gait_capsule {
    gait_vec3 a, b;
    double radius;
} gait_capsule;

/* What a query may skip. A zeroed filter skips nothing and uses the collider's slopes. */
typedef struct gait_filter {
    gait_landmark_id ignore;    /* a landmark to ignore (null: none) */
    bool ignore_region_only;    /* ignore only triangles of `ignore` overlapping the box below
                                   (the traversal's latch: the ledge, not the whole house) */
    gait_vec3 region_min, region_max;
    bool skip_terrain;
    bool skip_landmarks;
    bool skip_moving;           /* skip moving landmarks (a cache of the static ones) */
    double walkable_slope;      /* rad; 0 = the collider's */
} gait_filter;

typedef struct gait_contact_point {
    gait_vec3 point;            /* closest point on the surface (m) */
    gait_vec3 normal;           /* unit, from the surface towards the capsule axis */
    double depth;               /* penetration (m), > 0 */
    gait_contact_class cls;
    gait_landmark_id landmark;  /* null for terrain */
    int triangle;               /* triangle index in the landmark (or terrain cell * 2 + half) */
} gait_contact_point;

typedef struct gait_hit {
    double fraction;            /* of the motion travelled before touching, minus the skin [0, 1] */
    double distance;            /* m travelled, = fraction * |delta| */
    gait_vec3 point;            /* on the surface */
    gait_vec3 normal;           /* unit, facing the moving shape */
    gait_landmark_id landmark;  /* null for terrain */
    int triangle;
    bool start_solid;           /* the shape overlapped geometry where it started */
    bool back;                  /* a ray met the triangle's back (clockwise seen from the ray's
                                   origin): from inside a closed mesh; false for sweeps */
} gait_hit;

/* Contacts of a capsule with everything it overlaps, deepest per triangle, internal edges of
 * flat tessellated surfaces corrected so they push along the face normal. Returns the count
 * written (<= capacity), or -1 for invalid input (NaN, radius <= 0, capacity < 0, NULL out with
 * capacity > 0). *truncated (may be NULL) says more contacts existed than capacity. Contacts
 * come in (landmark, triangle) order (terrain first), whatever the trees look like.
 *
 * Details the callers rely on:
 *   - surfaces are two-sided: the normal points to the side the capsule's axis is on; an axis
 *     that crosses a face is pushed out to the side most of it is on (depth includes the part
 *     behind the face);
 *   - an edge or vertex with no real crease, as seen from the side of the face the axis is on
 *     (its neighbour across is coplanar, or bends towards that side into a concave corner of
 *     less than a right angle), reports the face normal, so a sum of normal * depth over a
 *     tessellated floor has no sideways part; convex creases and open borders keep their true
 *     normal. A bent edge is a crease from one side and a corner from the other, whichever way
 *     the mesh is wound (a thin wedge's knife edge is a corner from both); the terrain's edges
 *     are seen from above;
 *   - with more contacts than capacity, the deepest `capacity` are kept (at equal depth, the
 *     lower (landmark, triangle)). */
int gait_collider_capsule_overlap(const gait_collider *collider, const gait_capsule *capsule,
                                  const gait_filter *filter, gait_contact_point *out,
                                  int capacity, bool *truncated);

/* First hit of a capsule moved by delta (m). False when nothing is hit (or input is invalid).
 *
 * Exact time of impact (analytic, no iteration). A hit needs the motion to go into the
 * surface (by more than 1e-9 rad): sliding along a floor or a wall, or grazing, is no hit.
 * A shape that already overlaps a triangle and moves further into it stops at once
 * (start_solid, fraction 0); one that overlaps but moves out or along is not held back by it
 * (push out with capsule_overlap). Equal times go to the lowest (landmark, triangle), terrain
 * first, so the answer does not depend on traversal order. A zero delta hits nothing. */
bool gait_collider_capsule_sweep(const gait_collider *collider, const gait_capsule *capsule,
                                 gait_vec3 delta, const gait_filter *filter, gait_hit *out);
/* First hit of a sphere moved from `from` by delta (the camera's arm). Same rules and skin
 * as the capsule sweep. */
bool gait_collider_sphere_cast(const gait_collider *collider, gait_vec3 from, double radius,
                               gait_vec3 delta, const gait_filter *filter, gait_hit *out);
/* First hit of the segment origin .. origin + delta: the exact surface point (no skin),
 * either side of a triangle, the normal facing the ray's origin. */
bool gait_collider_ray_cast(const gait_collider *collider, gait_vec3 origin, gait_vec3 delta,
                            const gait_filter *filter, gait_hit *out);

/* ---- gathered queries: one tree walk for many queries of one region ------------------- */

/* A character's step asks a dozen queries of one small region (the move, the step up, the
 * snap, the push-out, the probes). gait_collider_gather walks the landmarks' trees once for a
 * box around all of them and keeps the triangles met in the caller's scratch; the gait_gather_*
 * queries then test only those, four boxes at a time. A query whose bounds (its shape over its
 * whole motion, grown by its radius) leave the gathered box — or a gather that overflowed its
 * scratch, or a collider changed since (gait_collider_static_revision) — is answered by the
 * collider itself. Moving landmarks are never gathered: a gathered query walks their trees as
 * they stand now. Either way the answer is exactly the collider's, bit for bit: the same contacts in
 * the same order, the same hit. The terrain is read per query as always (it is a function).
 *
 * Nothing is allocated. A gather is used by one thread at a time: its queries keep each
 * triangle's double-precision form in the scratch the first time they reach it. */
typedef struct gait_gather {
    const gait_collider *collider;  /* gathered from; NULL until a gather succeeds */
    uint64_t revision;              /* the collider's static revision then */
    gait_vec3 lo, hi;               /* the box gathered (world, m) */
    int count;                      /* triangles held */
    int capacity;                   /* triangles the scratch holds */
    bool overflow;                  /* more than capacity met the box: queries use the trees */
    void *internal;                 /* the scratch, as gait_gather_init laid it out */
} gait_gather;

/* Bytes of scratch a gather of `capacity` triangles needs (0 when capacity is outside
 * 1..1<<20). About 360 bytes a triangle; 256 triangles (90 KiB) hold a character's step on
 * any level measured. */
size_t gait_gather_scratch_bytes(int capacity);
/* Lays a gather out over the caller's scratch (any alignment; kept until the gather is no
 * longer used). CAPACITY when it holds not even one triangle. */
gait_status gait_gather_init(gait_gather *g, void *scratch, size_t bytes);
/* Keeps every landmark triangle whose bounds meet the box [lo, hi] (world, m). INVALID_ARGUMENT
 * for a non-finite or inverted box (the gather is then empty and every query goes to the
 * trees). */
gait_status gait_collider_gather(const gait_collider *collider, gait_vec3 lo, gait_vec3 hi,
                                 gait_gather *g);
/* Whether a query whose bounds are [lo, hi] would be answered from the gather. */
bool gait_gather_holds(const gait_gather *g, gait_vec3 lo, gait_vec3 hi);
/* Whether the gather shows that no surface within `slope` (rad) of level meets the box [lo, hi]:
 * no landmark triangle whose normal lies within `slope` of straight up or straight down, and no
 * terrain at all (whatever its slope), reaches the box. True: there is none, so no ray or sweep
 * inside the box meets such a surface. False: there may be one, or the gather cannot tell (it
 * does not hold the box, it overflowed, the collider changed). Conservative: false may be said
 * where there is none, true never where there is one. The filter (may be NULL) is honoured for
 * skip_terrain and skip_landmarks; its ignore is not (it only takes surfaces away). */
bool gait_gather_level_free(const gait_gather *g, gait_vec3 lo, gait_vec3 hi, double slope,
                            const gait_filter *filter);
/* The collider's queries of the same names, answered from the gather (see above). */
int gait_gather_capsule_overlap(gait_gather *g, const gait_capsule *capsule,
                                const gait_filter *filter, gait_contact_point *out, int capacity,
                                bool *truncated);
bool gait_gather_capsule_sweep(gait_gather *g, const gait_capsule *capsule, gait_vec3 delta,
                               const gait_filter *filter, gait_hit *out);
bool gait_gather_sphere_cast(gait_gather *g, gait_vec3 from, double radius, gait_vec3 delta,
                             const gait_filter *filter, gait_hit *out);
bool gait_gather_ray_cast(gait_gather *g, gait_vec3 origin, gait_vec3 delta,
                          const gait_filter *filter, gait_hit *out);

#ifdef __cplusplus
}
#endif
#endif
