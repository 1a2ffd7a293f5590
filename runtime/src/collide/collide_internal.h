/* Internal to the collision world: the collider's layout, the landmark octree and the exact
 * triangle kernels shared by the tree queries and the brute-force reference path.
 *
 * Coordinates: a landmark keeps its triangles as the float positions it was given, relative to
 * its double `origin` (= gait_mesh_def.offset). That is exactly the input, so nothing is lost,
 * and it halves the memory a query walks compared with doubles. A query is moved into the
 * landmark's frame once (query - origin, in doubles) and every kernel runs in doubles there.
 * The terrain does the same with its own origin. */
#ifndef GAIT_COLLIDE_INTERNAL_H
#define GAIT_COLLIDE_INTERNAL_H

#include "gait/collide.h"
#include "core/core.h"
#include "core/vec.h"

#include <string.h>

/* Edge flags of a triangle. Surfaces are two-sided, and whether an edge is a real crease depends
 * on the side it is seen from (a bent edge is concave from one side, convex from the other), so
 * each edge has a flag per side: bit i says edge i (vertex i -> vertex i+1) is "active" seen from
 * the front (the side the normal faces), bit 3 + i the same seen from the back. Active: a real
 * convex crease, an open border, a fin, or a neighbour bent back by a right angle or more.
 * Inactive edges (a coplanar neighbour, or one bending towards that side into a concave corner)
 * never turn a contact normal away from the face normal: that is the internal-edge ("ghost
 * collision") fix. A contact reads the flags of the side its axis point is on. */
#define GAIT__EDGE0 1u
#define GAIT__EDGE1 2u
#define GAIT__EDGE2 4u
#define GAIT__EDGES_BACK_SHIFT 3
#define GAIT__EDGES_ALL 0x3fu
/* Corner flags (bits 6-11, front then back as the edges): vertex i is a real corner of the
 * mesh seen from that side, an end of some edge there that is active from it (a border's
 * corner), whatever this triangle's own two edges at it say. A vertex whose two edges in this
 * triangle are inactive is internal (the face normal) only when it is no corner: the middle
 * triangles of a fan meet its apex with two inner edges, and the apex may be a floor's corner. */
#define GAIT__CORNERS_SHIFT 6
#define GAIT__CORNERS_BACK_SHIFT 9

/* Which feature of a triangle holds the closest point. */
enum {
    GAIT__FEAT_FACE = 0,
    GAIT__FEAT_EDGE0 = 1, /* .. EDGE2 = 3: edge i */
    GAIT__FEAT_VERT0 = 4  /* .. VERT2 = 6: vertex i */
};

/* One stored landmark triangle: 9 floats (landmark-local, m), its index in the mesh as given,
 * and its flags: edge flags in bits 0-5 (front, back), corner flags in bits 6-11, and in bits
 * 12-31 its coincident group + 1 (0: none; past GAIT__GROUP_MAX groups copies are stored as
 * they are).
 * 44 bytes; the array is in BVH-leaf order. */
typedef struct gait__ltri {
    float v[9];
    uint32_t index;
    uint32_t flags;
} gait__ltri;

#define GAIT__GROUP_SHIFT 12
#define GAIT__GROUP_MAX ((1u << (32 - GAIT__GROUP_SHIFT)) - 1)
#define GAIT__EDGE_MASK 0xfffu /* edges and corners */

/* A BVH node of four children, their boxes stored axis by axis so one SSE compare tests all
 * four (structure of arrays). A child is a leaf (count > 0: `count` triangles from `child`) or
 * an inner node (count == 0: node index `child`); an unused slot has an empty box (min +inf,
 * max -inf) that no query meets. Boxes are the tight float bounds of every triangle under the
 * child, landmark-local (m): exactly the stored floats, so comparing them costs no rounding.
 * The tree is built by a binned surface-area heuristic over the triangles' boxes (each triangle
 * in exactly one leaf: nothing to de-duplicate in a query), so a long floor triangle sits in a
 * leaf of its own size near the root instead of inflating the boxes of small props beside it. */
typedef struct gait__bnode {
    float min[3][4], max[3][4];
    uint32_t child[4];
    uint8_t count[4];
    uint8_t pad[12];
} gait__bnode;

#define GAIT__BVH_LEAF_MAX 8     /* triangles a leaf holds at most */
#define GAIT__BVH_DEPTH_MAX 96   /* depth bound the builder guarantees (balanced splits past 48) */
/* Traversal stack: each pop pushes at most 4, so 3 per level plus one is never exceeded. */
#define GAIT__STACK_SIZE (3 * GAIT__BVH_DEPTH_MAX + 4)

/* A moving (kinematic) landmark's motion (collide_motion.c): where it is this step, where it was
 * the step before (what stands on it is carried by the difference), and what moves it. */
enum { GAIT__MOTION_HELD = 0, GAIT__MOTION_VELOCITY, GAIT__MOTION_PATH };

typedef struct gait__motion {
    gait_transform cur, prev;   /* this step's pose and the last step's */
    gait_transform target;      /* the host's pose for the next step (has_target) */
    bool has_target;
    int mode;                   /* GAIT__MOTION_* */
    gait_vec3 velocity;         /* m/s (VELOCITY) */
    gait_vec3 angular;          /* rad/s about the landmark's position, world axes (VELOCITY) */
    gait_transform *path;       /* PATH: the poses it passes through, in a loop */
    int path_count;
    double period;              /* s for the whole loop (PATH) */
    double time;                /* s into the loop (PATH) */
} gait__motion;

/* A merged face's piece: stored triangle `index` (one of the piece's own indices) stands for
 * the mesh's triangles src[start, start + count) (ascending index). */
typedef struct gait__face {
    uint32_t index, start, count;
} gait__face;

/* What a merge keeps of the mesh as given, for gait_collider_source_triangle: the triangles of
 * every merged piece (src) and a face record per fan triangle, sorted by index. Allocated
 * through the hooks (NULL, 0 when nothing merged). */
typedef struct gait__merge_src {
    gait__ltri *src;
    int src_count;
    gait__face *faces;
    int face_count;
} gait__merge_src;

typedef struct gait__landmark {
    gait_vec3 origin;           /* world position of the local frame (m) */
    /* a moving landmark: its local frame is also turned (rot, local -> world, row-major) when
     * `rotated`; its tree stays in the local frame, so moving it costs nothing per triangle */
    bool moving;
    bool rotated;
    double rot[9];
    gait__motion motion;
    gait_vec3 bmin, bmax;       /* world bounds (m) */
    gait_vec3 lbmin, lbmax;     /* bounds in its own frame (m) */
    gait__ltri *tris;           /* one of each coincident group (its lowest index) */
    float (*tbox)[6];           /* each stored triangle's box (min xyz, max xyz), as tris */
    int tri_count;              /* stored in tris */
    int kept;                   /* valid triangles of the mesh, coincident ones included */
    int merged;                 /* kept, once coplanar pieces are merged (collide_merge.c) */
    gait__merge_src merge;      /* the merged pieces' triangles as given */
    gait__bnode *nodes;
    int node_count;
    /* Coincident groups: triangles bit-identical to a stored one (same 9 floats in the same
     * order, same edge flags) give the same contact and the same hit, so only the first is in
     * the tree; group g's other indices (ascending) are dup_index[dup_start[g] .. dup_start[g+1]).
     * A stack of a million copies costs a query one triangle test, not a million. */
    uint32_t *dup_start;        /* groups + 1 */
    uint32_t *dup_index;
    int groups, dups;
    int skipped;
    int dense;                  /* position in the collider's dense array */
    int grid_next;              /* next slot in its grid bucket (or the big list), -1 ends */
    int32_t gx, gz;             /* its grid cell (of bmin); unused when big */
    bool big;                   /* wider than a grid cell: on the big list, always tested */
    /* (a moving landmark is on neither the grid nor the big list: on the moving list) */
    size_t bytes;
} gait__landmark;

/* Top level over landmark bounds: a loose uniform grid in x, z. A landmark no wider than a
 * cell lives in the one cell holding its bounds' min corner, so a query looks at the cells
 * under its own box grown by one cell towards -x and -z; a wider landmark goes on a short
 * list every query tests. 32 m fits props, trees and houses; cells hash into a fixed table
 * of buckets (allocated at create, nothing grows). */
#define GAIT__GRID_CELL 32.0
#define GAIT__GRID_BUCKETS 4096

typedef struct gait__terrain {
    bool present;
    int nx, nz;                 /* samples */
    double cell;                /* m */
    gait_vec3 origin;
    float *h;                   /* nx * nz heights (m, without origin.y) */
    float hmin, hmax;
    size_t bytes;
} gait__terrain;

#define GAIT__MAX_WATER 256

struct gait_collider {
    gait_hooks hooks;
    gait_collider_def def;
    double cos_walkable, cos_ceiling;
    char err[256];

    gait__terrain terrain;

    double sea_level;
    gait_water_region water[GAIT__MAX_WATER];
    int water_count;

    /* Landmark slots (ids) and the dense list of live landmarks the queries scan. */
    int max_landmarks;
    gait__landmark **slot;      /* max_landmarks; NULL when free */
    uint32_t *generation;       /* max_landmarks */
    int *free_stack;            /* max_landmarks */
    int free_count;
    int *bucket;                /* GAIT__GRID_BUCKETS heads (slot or -1) */
    int big_head;               /* the big list's first slot, -1 when empty */
    int *dense_slot;            /* live landmarks: their slot */
    double *dense_box;          /* live landmarks: world bounds, 6 doubles (min xyz, max xyz) */
    int live;
    uint64_t revision;          /* bumped by every change a query can see, moves included
                                   (gait_collider_revision) */
    uint64_t static_revision;   /* ... and this one by every change but a move: caches that leave
                                   moving landmarks out key on it (gathers, open-country caches) */
    int moving_head;            /* the moving landmarks' list (through grid_next), -1 ends */
    int moving_count;
    double last_dt;             /* s of the last advance */
    bool locked;                /* the owning world steps: every change refused (collide_lock.h) */
};

/* A point of a landmark's local frame in the world, and a world direction in its frame. */
static inline gait_vec3 gait__lm_to_world(const gait__landmark *lm, gait_vec3 p) {
    if (!lm->rotated) return v3_add(lm->origin, p);
    const double *r = lm->rot;
    return v3(lm->origin.x + r[0] * p.x + r[1] * p.y + r[2] * p.z,
              lm->origin.y + r[3] * p.x + r[4] * p.y + r[5] * p.z,
              lm->origin.z + r[6] * p.x + r[7] * p.y + r[8] * p.z);
}

/* A world direction into a frame turned by r (row-major, local -> world): r transposed. */
static inline gait_vec3 gait__turn_in(const double *r, gait_vec3 v) {
    return v3(r[0] * v.x + r[3] * v.y + r[6] * v.z, r[1] * v.x + r[4] * v.y + r[7] * v.z,
              r[2] * v.x + r[5] * v.y + r[8] * v.z);
}

/* A world point in a landmark's local frame (its pose now). */
static inline gait_vec3 gait__lm_to_local(const gait__landmark *lm, gait_vec3 p) {
    gait_vec3 d = v3_sub(p, lm->origin);
    return lm->rotated ? gait__turn_in(lm->rot, d) : d;
}

/* ---- motion (collide_motion.c) ------------------------------------------------------------ */

/* Frees a landmark's path; unlinks it from the moving list when it moves. */
void gait__motion_release(gait_collider *c, int slot, gait__landmark *lm);

/* ---- kernels (collide_geom.c): doubles, one triangle at a time ---------------------------- */

typedef struct gait__tri {
    /* (the normal and the first vertex first: the plane a sweep's bound reads, one line) */
    gait_vec3 n;                /* unit face normal (counter-clockwise front) */
    gait_vec3 v[3];
    unsigned flags;             /* GAIT__EDGE* front and back, or GAIT__EDGES_LAZY */
    /* a terrain triangle's flags are worked out only when a contact lands on an edge or a
     * vertex (most land on the face): from this cell of this terrain */
    const struct gait__terrain *terrain;
    int ix, iz, half;
} gait__tri;

#define GAIT__EDGES_LAZY 0x1000u

/* The triangle's edge flags (computing a terrain triangle's on demand). */
unsigned gait__tri_flags(const gait__tri *t);

/* Builds a triangle; false when degenerate (area ~ 0 or non-finite). */
bool gait__tri_make(gait__tri *t, gait_vec3 a, gait_vec3 b, gait_vec3 c, unsigned flags);

/* Closest points between segment p-q and the triangle. Returns the squared distance; writes
 * the segment point, the triangle point and the triangle feature holding it. */
double gait__seg_tri_closest(gait_vec3 p, gait_vec3 q, const gait__tri *t, gait_vec3 *seg_pt,
                             gait_vec3 *tri_pt, int *feature, bool prune);

/* `prune` (every query but the brute-force reference): skip the feature tests whose boxes
 * show they cannot change the answer (collide_geom.c, PRUNE_GAP): the same answer, bit for bit,
 * for less work; the brute-force path runs them all, and the tests compare the two. */

/* A triangle's edges as in-plane separating axes (the pruning's): m[i] the unit outward normal
 * of edge i in the triangle's plane, o[i] = dot(m[i], v[i]). A gathered triangle keeps them in
 * a memo, worked out by the first query that needs them (ready false until then): the same
 * bits every time, as the triangle's double form is built once per gather. NULL memo: worked
 * out per test. */
typedef struct gait__edge_memo {
    bool ready;
    gait_vec3 m[3];
    double o[3];
} gait__edge_memo;

/* Capsule (segment p-q, radius r) against a triangle: true with a contact when they overlap
 * (depth > 0). The normal points from the triangle to the capsule axis, with the internal
 * edge fix applied. */
typedef struct gait__tri_contact {
    gait_vec3 point, normal;
    double depth;
} gait__tri_contact;
bool gait__capsule_tri(gait_vec3 p, gait_vec3 q, double r, const gait__tri *t,
                       gait__tri_contact *out, bool prune, gait__edge_memo *memo);

/* First time t in [0, 1] at which the capsule p-q (radius r) moved by d touches the triangle.
 * r == 0 with p == q is a ray. *start_solid says it overlapped at t = 0 while moving into
 * the triangle (then t = 0). t_bound (pruning only): the caller keeps only hits before it
 * (its best so far, else 1), so a triangle shown to be met strictly later is not tested. Hits on inactive edges use the face normal and are dropped when
 * the motion does not go into the face. */
typedef struct gait__tri_hit {
    double t;
    gait_vec3 point, normal;
    bool start_solid;
    bool back;                  /* a ray's: it met the face from behind */
} gait__tri_hit;
bool gait__sweep_tri(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, const gait__tri *t,
                     gait__tri_hit *out, bool prune, double t_bound, gait__edge_memo *memo);
/* A lower bound on the time gait__sweep_tri (pruning) would report for this triangle, from its
 * plane and its edges' lines (the memo's, worked out into it when not yet; dl = |d|): INFINITY
 * when it can report no hit in [0, 1]. A query tests its candidates in the order of these bounds
 * and stops at the first bound past its best hit: the same answer as testing them all, for fewer
 * tests. A finite bound fills *pre with what the kernel would work out again, and
 * gait__sweep_tri_pre (pruning, with the same memo) finishes the test from it: the same answer as
 * gait__sweep_tri's for any t_bound below the bound... or above it. */
typedef struct gait__sweep_pre {
    double dp, dq, dn;          /* the ends' signed distances to the plane, the motion along n */
    bool face_first;            /* no edge or vertex can be met before the face */
    bool clear;                 /* the capsule starts more than r from the triangle */
} gait__sweep_pre;
double gait__sweep_tri_bound(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, double dl,
                             const gait__tri *t, gait__edge_memo *memo, gait__sweep_pre *pre);
bool gait__sweep_tri_pre(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, const gait__tri *t,
                         gait__tri_hit *out, const gait__edge_memo *memo, const gait__sweep_pre *pre);
bool gait__ray_tri(gait_vec3 o, gait_vec3 d, const gait__tri *t, gait__tri_hit *out);

/* Edge flag for edge (e0, e1) of a triangle with unit normal n, given the vertex w of the
 * neighbour across that edge that is not on it: true = active (convex crease) seen from the
 * front. The terrain's rule: a heightfield is met from above, so both its sides read this. */
bool gait__edge_active(gait_vec3 e0, gait_vec3 e1, gait_vec3 n, gait_vec3 w, gait_vec3 nn);

/* A landmark edge's sides: which of them see edge (e0, e1) of a triangle with unit normal n as
 * internal, given the neighbour's far vertex w (GAIT__SIDE_FRONT | GAIT__SIDE_BACK). */
#define GAIT__SIDE_FRONT 1u
#define GAIT__SIDE_BACK 2u
unsigned gait__edge_internal_sides(gait_vec3 e0, gait_vec3 e1, gait_vec3 n, gait_vec3 w);

/* A vertex key: the float bits, with -0 folded into +0 so equal positions match. */
static inline uint32_t gait__fbits(float f) {
    f += 0.0f;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Orders vertices (3 floats) by their keys; 0 when they are the same position. */
static inline int gait__vcmp(const float *a, const float *b) {
    for (int k = 0; k < 3; k++) {
        uint32_t x = gait__fbits(a[k]), y = gait__fbits(b[k]);
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

/* ---- coplanar patches (collide_merge.c) ----------------------------------------------------- */

/* Stores each patch of coplanar triangles joined edge to edge (mate[e]: the edge sharing edge
 * e = 3 t + i with it alone, + 1; 0 none) whose outline is one convex polygon as that polygon's
 * fan, when that is fewer triangles; tris[0, *out_n) is the result, in source order, edge flags
 * carried over. normals: the triangles' unit normals. */
/* Most triangles one merged piece holds: gait_collider_source_triangle tests them all. */
#define GAIT__PIECE_MAX 256

gait_status gait__merge_coplanar(const gait_hooks *hooks, gait__ltri *tris,
                                 const gait_vec3 *normals, int n, const uint32_t *mate, int *out_n,
                                 gait__merge_src *out_src);

/* ---- the BVH builder (collide_bvh.c) ------------------------------------------------------ */

/* Builds the BVH over tris[0, n) (n >= 1), reordering tris into leaf order. *out_nodes is
 * allocated through the hooks (node_count nodes). */
gait_status gait__bvh_build(const gait_hooks *hooks, gait__ltri *tris, int n, gait__bnode **out_nodes,
                            int *out_count);

/* ---- internal query entry points (collide_query.c) ---------------------------------------- */

/* brute != 0 tests every triangle of every landmark and every terrain cell, no tree and no
 * top-level culling: the reference the unit tests compare the octree against. */
int gait__capsule_overlap_ex(const gait_collider *c, const gait_capsule *capsule,
                             const gait_filter *filter, gait_contact_point *out, int capacity,
                             bool *truncated, int brute);
bool gait__capsule_sweep_ex(const gait_collider *c, const gait_capsule *capsule, gait_vec3 delta,
                            const gait_filter *filter, gait_hit *out, int brute);
bool gait__ray_cast_ex(const gait_collider *c, gait_vec3 origin, gait_vec3 delta,
                       const gait_filter *filter, gait_hit *out, int brute);

/* Terrain triangle (cell ix, iz, half 0 = (p00,p01,p11), 1 = (p00,p11,p10)) in the terrain's
 * local frame (origin subtracted), with edge flags from its grid neighbours. */
bool gait__terrain_tri(const gait__terrain *t, int ix, int iz, int half, gait__tri *out);

/* Bucket of grid cell (gx, gz). */
static inline int gait__grid_bucket(int32_t gx, int32_t gz) {
    uint32_t h = (uint32_t)gx * 73856093u ^ (uint32_t)gz * 19349663u;
    return (int)(h & (GAIT__GRID_BUCKETS - 1));
}

#endif
