/* Exact triangle kernels of the collision world, in doubles: closest points, capsule overlap,
 * capsule/sphere sweep (time of impact) and ray against one triangle. The octree queries and
 * the brute-force reference both call these, so the two give bit-identical answers.
 *
 * The sweep is analytic, not iterative: the set of translations that bring a capsule within r
 * of a triangle is (triangle - segment) grown by r, a convex body whose surface is made of
 * offset faces, cylinders around edges and spheres around vertices. The first time a ray
 * enters it is the first time it enters one of those pieces, so the time of impact is the
 * minimum over a fixed list of ray-vs-plane / cylinder / sphere tests. */
#include "collide_internal.h"

/* Below this squared length (m^2) a vector is treated as zero (degenerate input). */
#define TINY2 1e-24

bool gait__tri_make(gait__tri *t, gait_vec3 a, gait_vec3 b, gait_vec3 c, unsigned flags) {
    if (!v3_finite(a) || !v3_finite(b) || !v3_finite(c)) return false;
    gait_vec3 n = v3_cross(v3_sub(b, a), v3_sub(c, a));
    double n2 = v3_len2(n);
    /* Zero area relative to the edge lengths (a sliver with no usable normal). */
    double e2 = fmax(v3_len2(v3_sub(b, a)), fmax(v3_len2(v3_sub(c, b)), v3_len2(v3_sub(a, c))));
    if (!(n2 > 1e-20 * e2 * e2) || !(n2 > TINY2)) return false;
    t->v[0] = a;
    t->v[1] = b;
    t->v[2] = c;
    t->n = v3_scale(n, 1.0 / sqrt(n2));
    t->flags = flags;
    t->terrain = NULL;
    return true;
}

/* Closest point of the triangle to p (Voronoi regions, after Ericson, Real-Time Collision
 * Detection 5.1.5), with the feature it lies on. */
static gait_vec3 closest_on_tri(gait_vec3 p, const gait__tri *t, int *feature) {
    gait_vec3 a = t->v[0], b = t->v[1], c = t->v[2];
    gait_vec3 ab = v3_sub(b, a), ac = v3_sub(c, a), ap = v3_sub(p, a);
    double d1 = v3_dot(ab, ap), d2 = v3_dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) { *feature = GAIT__FEAT_VERT0; return a; }
    gait_vec3 bp = v3_sub(p, b);
    double d3 = v3_dot(ab, bp), d4 = v3_dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) { *feature = GAIT__FEAT_VERT0 + 1; return b; }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        *feature = GAIT__FEAT_EDGE0;
        return v3_mad(a, ab, d1 / (d1 - d3));
    }
    gait_vec3 cp = v3_sub(p, c);
    double d5 = v3_dot(ab, cp), d6 = v3_dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) { *feature = GAIT__FEAT_VERT0 + 2; return c; }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        *feature = GAIT__FEAT_EDGE0 + 2; /* edge c -> a */
        return v3_mad(a, ac, d2 / (d2 - d6));
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        *feature = GAIT__FEAT_EDGE0 + 1; /* edge b -> c */
        return v3_mad(b, v3_sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    double inv = 1.0 / (va + vb + vc);
    *feature = GAIT__FEAT_FACE;
    return v3_add(a, v3_add(v3_scale(ab, vb * inv), v3_scale(ac, vc * inv)));
}

/* Closest points of segments p1-q1 and p2-q2 (Ericson 5.1.9). *s, *t are the parameters. */
static double seg_seg(gait_vec3 p1, gait_vec3 q1, gait_vec3 p2, gait_vec3 q2, double *s,
                      double *t, gait_vec3 *c1, gait_vec3 *c2) {
    gait_vec3 d1 = v3_sub(q1, p1), d2 = v3_sub(q2, p2), r = v3_sub(p1, p2);
    double a = v3_dot(d1, d1), e = v3_dot(d2, d2), f = v3_dot(d2, r);
    double ss, tt;
    if (a <= 0 && e <= 0) {
        ss = tt = 0;
    } else if (a <= 0) {
        ss = 0;
        tt = clampd(f / e, 0, 1);
    } else {
        double c = v3_dot(d1, r);
        if (e <= 0) {
            tt = 0;
            ss = clampd(-c / a, 0, 1);
        } else {
            double b = v3_dot(d1, d2), den = a * e - b * b;
            ss = den > 0 ? clampd((b * f - c * e) / den, 0, 1) : 0;
            tt = (b * ss + f) / e;
            if (tt < 0) {
                tt = 0;
                ss = clampd(-c / a, 0, 1);
            } else if (tt > 1) {
                tt = 1;
                ss = clampd((b - c) / a, 0, 1);
            }
        }
    }
    *s = ss;
    *t = tt;
    *c1 = v3_mad(p1, d1, ss);
    *c2 = v3_mad(p2, d2, tt);
    return v3_len2(v3_sub(*c1, *c2));
}

/* ---- boxes that cannot meet (the pruning of the sweep's feature tests) ----------------- */

/* A feature test (an end sphere against an edge's cylinder or a vertex's sphere, a vertex or an
 * edge against the capsule's side) can only hit when the moving shape comes within r of the
 * feature, so within r of its box. When the two boxes (the path grown by r, the feature's) lie
 * apart by more than PRUNE_GAP on some axis, the test would return no hit and is skipped: the
 * answer is bit for bit the same. The gap is far above the tests' rounding (about 1e-16 of the
 * coordinates, m: 1e-10 m a million metres from the landmark's origin), so no hit near the
 * boundary is lost; the brute-force reference path runs every test unpruned and the tests
 * compare the two. */
#define PRUNE_GAP 1e-6

/* The vertex after i round a triangle, (i + 1) % 3, read from a table: no division in the
 * kernels' edge loops */
static const int NEXT[3] = {1, 2, 0};

typedef struct box3 {
    double lo[3], hi[3];
} box3;

static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }

/* The box of segment a-b, grown by g. */
static inline box3 seg_box(gait_vec3 a, gait_vec3 b, double g) {
    box3 x = {{dmin(a.x, b.x) - g, dmin(a.y, b.y) - g, dmin(a.z, b.z) - g},
              {dmax(a.x, b.x) + g, dmax(a.y, b.y) + g, dmax(a.z, b.z) + g}};
    return x;
}

static inline bool apart(const box3 *a, const box3 *b) {
    for (int k = 0; k < 3; k++)
        if (a->lo[k] > b->hi[k] + PRUNE_GAP || b->lo[k] > a->hi[k] + PRUNE_GAP) return true;
    return false;
}

static inline bool point_apart(const box3 *a, gait_vec3 v) {
    return v.x < a->lo[0] - PRUNE_GAP || v.x > a->hi[0] + PRUNE_GAP || v.y < a->lo[1] - PRUNE_GAP ||
           v.y > a->hi[1] + PRUNE_GAP || v.z < a->lo[2] - PRUNE_GAP || v.z > a->hi[2] + PRUNE_GAP;
}

/* x (in the triangle's plane) inside the triangle, borders included. */
GAIT__HOT bool inside_tri(gait_vec3 x, const gait__tri *t) {
    for (int i = 0; i < 3; i++) {
        gait_vec3 a = t->v[i], b = t->v[NEXT[i]];
        if (v3_dot(v3_cross(v3_sub(b, a), v3_sub(x, a)), t->n) < 0) return false;
    }
    return true;
}

/* The triangle's edges as in-plane separating axes (gait__edge_memo): every point of the
 * triangle has dot(m[i], x) <= o[i]; a point with dot(m[i], x) - o[i] = s > 0 lies at least s
 * from it (and, as m[i] is perpendicular to the normal, at least sqrt(s^2 + h^2) when h off its
 * plane). */
typedef gait__edge_memo edge_planes;

static inline void edge_planes_of(const gait__tri *t, edge_planes *ep) {
    for (int i = 0; i < 3; i++) {
        gait_vec3 v = t->v[i], e = v3_sub(t->v[NEXT[i]], v);
        ep->m[i] = v3_scale(v3_cross(e, t->n), 1.0 / sqrt(v3_dot(e, e)));
        ep->o[i] = v3_dot(ep->m[i], v);
    }
}

/* The edge planes from the memo (worked out into it the first time), else into *local. */
static inline const edge_planes *edge_planes_get(const gait__tri *t, gait__edge_memo *memo,
                                                 edge_planes *local) {
    if (!memo) {
        edge_planes_of(t, local);
        return local;
    }
    if (!memo->ready) {
        edge_planes_of(t, memo);
        memo->ready = true;
    }
    return memo;
}

/* Whether the segment p-q stays beyond one edge's line by more than r (+ the gap) over a move
 * by d: then no point of the capsule comes within r of the triangle. */
static inline bool separated(const edge_planes *ep, gait_vec3 p, gait_vec3 q, gait_vec3 d, double r) {
    for (int i = 0; i < 3; i++) {
        double s0 = v3_dot(ep->m[i], p) - ep->o[i], s1 = v3_dot(ep->m[i], q) - ep->o[i];
        double dd = v3_dot(ep->m[i], d);
        double lo = dmin(s0, s1) + dmin(dd, 0);
        if (lo > r + PRUNE_GAP) return true;
    }
    return false;
}

/* m: a point of the plane this far inside every edge's line is inside the triangle past any
 * rounding of the kernels (a contact there moves by ~gap^2 / 2r before an edge could be met) */
#define FACE_INSIDE_GAP 1e-4

/* Whether x (in the triangle's plane) lies inside every edge's line by more than gap. */
static inline bool inside_by(const edge_planes *ep, gait_vec3 x, double gap) {
    for (int i = 0; i < 3; i++)
        if (v3_dot(ep->m[i], x) - ep->o[i] > -gap) return false;
    return true;
}

/* Whether the segment p-q (not moving), at least h off the triangle's plane along its whole
 * length, lies beyond one edge's line by s > 0 with s^2 + h^2 beyond (r + the gap)^2: every
 * point of the triangle is then further than r (its distance is at least sqrt(s^2 + h^2): s
 * across in the plane, h off it), so the capsule cannot overlap it. */
static inline bool beyond_corner(const edge_planes *ep, gait_vec3 p, gait_vec3 q, double r, double h) {
    double rr = (r + PRUNE_GAP) * (r + PRUNE_GAP);
    for (int i = 0; i < 3; i++) {
        double s = dmin(v3_dot(ep->m[i], p) - ep->o[i], v3_dot(ep->m[i], q) - ep->o[i]);
        if (s > 0 && s * s + h * h > rr) return true;
    }
    return false;
}

/* Squared distance between two boxes (0 when they meet): no pair of their points is nearer. */
static inline double box_dist2(const box3 *a, const box3 *b) {
    double s = 0;
    for (int k = 0; k < 3; k++) {
        double g = dmax(a->lo[k] - b->hi[k], b->lo[k] - a->hi[k]);
        if (g > 0) s += g * g;
    }
    return s;
}

double gait__seg_tri_closest(gait_vec3 p, gait_vec3 q, const gait__tri *t, gait_vec3 *seg_pt,
                             gait_vec3 *tri_pt, int *feature, bool prune) {
    gait_vec3 a = t->v[0];
    double dp = v3_dot(v3_sub(p, a), t->n), dq = v3_dot(v3_sub(q, a), t->n);
    /* 1. the segment pierces the face */
    if ((dp <= 0 && dq >= 0) || (dp >= 0 && dq <= 0)) {
        if (dp != dq) {
            gait_vec3 x = v3_lerp(p, q, dp / (dp - dq));
            if (inside_tri(x, t)) {
                *seg_pt = x;
                *tri_pt = x;
                *feature = GAIT__FEAT_FACE;
                return 0;
            }
        }
    }
    /* 2. an end of the segment against the triangle. Shortcut: both ends on one side and the
     * nearer end right over the face: every point of the segment is at least that far from
     * the plane, so that end and its foot are the closest pair (a capsule over a floor). */
    int f;
    gait_vec3 c;
    if ((dp > 0 && dq > 0) || (dp < 0 && dq < 0)) {
        gait_vec3 e = fabs(dp) <= fabs(dq) ? p : q;
        c = closest_on_tri(e, t, &f);
        if (f == GAIT__FEAT_FACE) {
            *seg_pt = e;
            *tri_pt = c;
            *feature = f;
            return v3_len2(v3_sub(e, c));
        }
    }
    c = closest_on_tri(p, t, &f);
    double best = v3_len2(v3_sub(p, c));
    *seg_pt = p;
    *tri_pt = c;
    *feature = f;
    if (q.x != p.x || q.y != p.y || q.z != p.z) {
        /* q is at least |dq| from the plane: no nearer than p's pair when dq^2 >= best */
        if (dq * dq < best) {
            c = closest_on_tri(q, t, &f);
            double d2 = v3_len2(v3_sub(q, c));
            if (d2 < best) { best = d2; *seg_pt = q; *tri_pt = c; *feature = f; }
        }
        double d2;
        box3 sbox;
        if (prune) sbox = seg_box(p, q, 0);
        /* 3. the segment against each edge (pruned: an edge whose box is farther from the
         * segment's than the best pair so far, by more than rounding, cannot beat it) */
        for (int i = 0; i < 3; i++) {
            double s, u;
            gait_vec3 c1, c2;
            if (prune) {
                box3 eb = seg_box(t->v[i], t->v[NEXT[i]], 0);
                if (box_dist2(&sbox, &eb) > best * (1 + 1e-9) + PRUNE_GAP * PRUNE_GAP) continue;
            }
            d2 = seg_seg(p, q, t->v[i], t->v[NEXT[i]], &s, &u, &c1, &c2);
            if (d2 < best) {
                best = d2;
                *seg_pt = c1;
                *tri_pt = c2;
                *feature = u <= 0 ? GAIT__FEAT_VERT0 + i
                         : u >= 1 ? GAIT__FEAT_VERT0 + NEXT[i] : GAIT__FEAT_EDGE0 + i;
            }
        }
    }
    return best;
}

/* Is the feature an internal one (no real crease) seen from the side of the triangle the
 * contact's axis point is on: side is the contact normal's part along the face normal (> 0 the
 * front, < 0 the back; 0, in the face's plane: internal only when it is from both sides). An
 * inactive edge, or a vertex whose two edges in this triangle are both inactive and that is no
 * corner of the mesh (GAIT__CORNERS_SHIFT). Contacts there take the face normal. */
static bool feature_internal(int feature, unsigned flags, double side) {
    if (feature == GAIT__FEAT_FACE) return false;
    unsigned all = flags, back = flags >> GAIT__EDGES_BACK_SHIFT;
    flags = side > 0 ? flags : side < 0 ? back : flags | back;
    if (feature < GAIT__FEAT_VERT0) return !(flags & (1u << (feature - GAIT__FEAT_EDGE0)));
    int v = feature - GAIT__FEAT_VERT0;        /* edges v (v -> v+1) and v+2 (v-1 -> v) */
    unsigned corners = side > 0 ? all >> GAIT__CORNERS_SHIFT
                     : side < 0 ? all >> GAIT__CORNERS_BACK_SHIFT
                                : all >> GAIT__CORNERS_SHIFT | all >> GAIT__CORNERS_BACK_SHIFT;
    return !(flags & (1u << v)) && !(flags & (1u << ((v + 2) % 3))) && !(corners & (1u << v));
}

/* The capsule test past the plane test; ep (may be NULL: not pruned) are the triangle's edge
 * planes when the caller has them. */
GAIT__HOT bool capsule_tri_near(gait_vec3 p, gait_vec3 q, double r, const gait__tri *t, double dp,
                                double dq, const edge_planes *ep, gait__tri_contact *out,
                                bool prune) {
    edge_planes own;
    if (prune && !ep) {
        edge_planes_of(t, &own);
        ep = &own;
    }
    if (prune && separated(ep, p, q, v3(0, 0, 0), r)) return false;
    /* beside the triangle and off its plane: most capsules near a triangle's plane (a wall's
     * end, a riser, a neighbour's face) are clear of the triangle itself */
    if (prune && ((dp > 0 && dq > 0) || (dp < 0 && dq < 0)) &&
        beyond_corner(ep, p, q, r, dmin(fabs(dp), fabs(dq))))
        return false;
    gait_vec3 sp, tp;
    int feature;
    double d2 = gait__seg_tri_closest(p, q, t, &sp, &tp, &feature, prune);
    if (!(d2 < r * r)) return false;
    double dist = sqrt(d2);
    out->point = tp;
    if (dist > 1e-12) {
        gait_vec3 n = v3_scale(v3_sub(sp, tp), 1.0 / dist);
        /* the face itself, or an internal feature: exactly the face normal (the difference
         * above carries rounding in its tangential part) */
        double side = v3_dot(n, t->n);
        if (feature == GAIT__FEAT_FACE || feature_internal(feature, gait__tri_flags(t), side))
            n = side >= 0 ? t->n : v3_neg(t->n);
        out->normal = n;
        out->depth = r - dist;
    } else {
        /* The axis touches or crosses the face: push it out to the side most of it is on,
         * far enough that the whole axis clears the plane by r. */
        if (dp + dq >= 0) {
            out->normal = t->n;
            out->depth = r - fmin(dp, dq);
        } else {
            out->normal = v3_neg(t->n);
            out->depth = r + fmax(dp, dq);
        }
    }
    return out->depth > 0;
}

bool gait__capsule_tri(gait_vec3 p, gait_vec3 q, double r, const gait__tri *t,
                       gait__tri_contact *out, bool prune, gait__edge_memo *memo) {
    gait_vec3 a = t->v[0];
    double dp = v3_dot(v3_sub(p, a), t->n), dq = v3_dot(v3_sub(q, a), t->n);
    if ((dp >= r && dq >= r) || (dp <= -r && dq <= -r)) return false;
    edge_planes local;
    return capsule_tri_near(p, q, r, t, dp, dq, prune ? edge_planes_get(t, memo, &local) : NULL,
                            out, prune);
}

/* ---- sweeps --------------------------------------------------------------------------- */

/* Entry time of ray o + t d into the sphere (c, r), t in [0, 1]. */
GAIT__HOT bool ray_sphere(gait_vec3 o, gait_vec3 d, gait_vec3 c, double r, double *t) {
    gait_vec3 m = v3_sub(o, c);
    double b = v3_dot(m, d), cc = v3_dot(m, m) - r * r;
    if (b >= 0) return false;           /* moving away (or not moving) */
    if (cc <= 0) { *t = 0; return true; } /* touching already (rounding): moving in now */
    double a = v3_dot(d, d), disc = b * b - a * cc;
    if (disc < 0) return false;
    double tt = (-b - sqrt(disc)) / a;
    if (tt > 1) return false;
    *t = tt < 0 ? 0 : tt;
    return true;
}

/* Entry time of ray o + t d into the cylinder of radius r around segment e0-e1 (its curved
 * surface only: the ends belong to the vertex spheres). *s: axis parameter of the hit. */
GAIT__HOT bool ray_cylinder(gait_vec3 o, gait_vec3 d, gait_vec3 e0, gait_vec3 e1, double r,
                            double *t, double *s) {
    gait_vec3 ax = v3_sub(e1, e0);
    double ax2 = v3_dot(ax, ax);
    if (ax2 <= TINY2) return false;
    gait_vec3 m = v3_sub(o, e0);
    gait_vec3 dp = v3_sub(d, v3_scale(ax, v3_dot(d, ax) / ax2));
    gait_vec3 mp = v3_sub(m, v3_scale(ax, v3_dot(m, ax) / ax2));
    double a = v3_dot(dp, dp), b = v3_dot(mp, dp), c = v3_dot(mp, mp) - r * r;
    if (a <= TINY2 || b >= 0) return false; /* along the axis, or moving away from it */
    double tt;
    if (c <= 0) {
        tt = 0; /* inside the infinite cylinder now: a hit only if beside the segment */
    } else {
        double disc = b * b - a * c;
        if (disc < 0) return false;
        tt = (-b - sqrt(disc)) / a;
        if (tt > 1) return false;
        if (tt < 0) tt = 0;
    }
    double ss = v3_dot(v3_mad(m, d, tt), ax) / ax2;
    if (ss < 0 || ss > 1) return false;
    *t = tt;
    *s = ss;
    return true;
}

/* The motion goes into a surface of this normal: by more than 1e-9 rad, so a slide along a
 * surface (whose dot product is rounding noise of either sign) is never a hit. */
GAIT__HOT bool moves_into(gait_vec3 d, gait_vec3 normal) {
    return v3_dot(d, normal) < -1e-9 * v3_len(d);
}

typedef struct sweep_best {
    unsigned flags;             /* the triangle's edge flags, once flags_known */
    bool flags_known;           /* asked by the first hit on an edge or a vertex: a face's hit
                                   reads none (a terrain triangle works them out from its
                                   neighbours) */
    double t;
    gait_vec3 point, normal;
    bool found;
} sweep_best;

/* Keeps the earliest candidate that moves into the surface. The normal of a hit on an
 * internal feature becomes the face normal; a hit that does not move into its normal is no
 * hit (a graze, or a slide over an internal edge). */
GAIT__HOT void offer(sweep_best *b, const gait__tri *t, gait_vec3 d, double tt, gait_vec3 point,
                     gait_vec3 normal, int feature) {
    if (b->found && tt >= b->t) return;
    if (feature != GAIT__FEAT_FACE) {
        if (!b->flags_known) {
            b->flags = gait__tri_flags(t);
            b->flags_known = true;
        }
        double side = v3_dot(normal, t->n);
        if (feature_internal(feature, b->flags, side)) normal = side >= 0 ? t->n : v3_neg(t->n);
    }
    if (!moves_into(d, normal)) return;
    b->t = tt;
    b->point = point;
    b->normal = normal;
    b->found = true;
}

/* The approach to the plane (pruning only). A capsule on one side of the triangle's plane,
 * moving towards it, first comes within r of the plane at t_plane (its nearer end). Each edge's
 * in-plane outward normal separates the triangle from the capsule's axis there: if the axis,
 * at t_plane, lies a distance delta beyond one edge's line, every axis point is at least
 * sqrt(r^2 + delta^2) from the triangle (r off the plane, delta across), so the capsule still
 * has sqrt(r^2 + delta^2) - r to travel: no contact before t_plane + that / |d|. If it lies
 * inside every edge's line by delta, no edge or vertex is touched before that time either: the
 * face is met first. Either bound is used only with PRUNE_TIME_GAP (m) to spare, a hundred
 * times what the kernels' rounding can move a contact (grazing hits included). */
#define PRUNE_TIME_GAP 1e-5

typedef struct approach {
    bool none;                  /* no contact can come at or before t_bound */
    bool face_first;            /* no edge or vertex can be met before the face */
} approach;

/* The capsule on one side of the plane, beyond r, moving towards it (false otherwise): t_plane
 * when its nearer end comes within r of the plane, out_max how far its axis then lies beyond the
 * edges' lines at most (<= 0: inside every one), face_first as in `approach`. A t_plane past
 * t_stop (+ 1e-9) is all there is to know: out_max 0, face_first false. */
static inline bool plane_side(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, double dl, const edge_planes *ep,
                       double dp, double dq, double dn, double t_stop, double *t_plane,
                       double *out_max, bool *face_first) {
    double side = dp >= 0 ? 1 : -1, sp = side * dp, sq = side * dq, sn = side * dn;
    if (!(sp >= r && sq >= r && sn < -1e-6 * dl)) return false;
    double tp = (dmin(sp, sq) - r) / -sn;
    *t_plane = tp;
    *out_max = 0;
    *face_first = false;
    if (tp > t_stop + 1e-9) return true;
    gait_vec3 y0 = v3_mad(p, d, tp), y1 = v3_mad(q, d, tp);
    double out = -INFINITY, in_min = INFINITY;
    for (int i = 0; i < 3; i++) {
        double o0 = v3_dot(ep->m[i], y0) - ep->o[i], o1 = v3_dot(ep->m[i], y1) - ep->o[i];
        out = dmax(out, dmin(o0, o1));
        in_min = dmin(in_min, dmin(-o0, -o1));
    }
    *out_max = out;
    *face_first = in_min > 0 && sqrt(r * r + in_min * in_min) - r > PRUNE_TIME_GAP;
    return true;
}

/* The earliest the capsule can touch the triangle once its nearer end is within r of the plane
 * at t_plane, its axis then out_max beyond an edge's line: it has sqrt(r^2 + out_max^2) - r to
 * travel (less PRUNE_TIME_GAP) at |d| = dl a unit of time; t_plane less 1e-9 when inside. */
static inline double plane_bound(double r, double dl, double t_plane, double out_max) {
    if (out_max > 0) {
        double travel = sqrt(r * r + out_max * out_max) - r - PRUNE_TIME_GAP;
        if (travel > 0) return t_plane + travel / dl;
    }
    return t_plane - 1e-9;
}

static approach plane_approach(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, const edge_planes *ep,
                               double dp, double dq, double dn, double t_bound) {
    approach ap = {false, false};
    /* beyond an edge by more than r the whole way: no contact at all */
    if (separated(ep, p, q, d, r)) {
        ap.none = true;
        return ap;
    }
    double t_plane, out_max, dl = v3_len(d);
    if (!plane_side(p, q, r, d, dl, ep, dp, dq, dn, t_bound, &t_plane, &out_max, &ap.face_first))
        return ap;
    if (plane_bound(r, dl, t_plane, out_max) > t_bound) ap.none = true;
    return ap;
}

/* The first time in [0, 1] (INFINITY for none) a point of the capsule's axis, x0 + xa t from the
 * triangle's plane (x0 > 0, staying above 0 over the move) and y0 + yb t beyond one of its edges'
 * lines (y0 > 0), can lie within R of the triangle: its distance to it is at least
 * sqrt(x^2 + y^2) while y > 0 (the plane's part and, in the plane, the edge's), so that pair
 * must enter the disc of radius R first, or y reach 0. A lower bound (less 1e-9 for rounding). */
static double off_plane_entry(double x0, double xa, double y0, double yb, double R) {
    double c = x0 * x0 + y0 * y0 - R * R;
    if (c <= 0) return 0;
    double ty = yb < 0 ? y0 / -yb : INFINITY; /* beyond the edge's line until then */
    double a = xa * xa + yb * yb, b = x0 * xa + y0 * yb;
    double t = ty;
    if (b < 0 && a > 0) {
        double disc = b * b - a * c;
        if (disc >= 0) t = dmin(t, (-b - sqrt(disc)) / a);
    }
    return t - 1e-9 > 1 ? INFINITY : dmax(0, t - 1e-9);
}

/* The earliest the capsule can come within r of the triangle by its edges' lines (the plane's
 * slab test passed: lo < r and hi > -r, the ends' signed distances over the move). Each edge's
 * line: the axis beyond it by s (its nearer end) comes within r + the gap no sooner than when it
 * has moved s - r - the gap towards it (a stronger form of separated). Kept off the plane by at
 * least h the whole move (lo or -hi), a point of the axis touches the triangle only within
 * sqrt(r^2 - h^2) of the edge's line, in the plane: a capsule sliding along a face beside this
 * one (a pillar's facets, a wall's other quad) is held off it by that much less; h less the gap,
 * whose rounding the root magnifies near h = r. Off the plane, the two distances are followed
 * together too (off_plane_entry). INFINITY: not within the move. */
static double edge_bound(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, const edge_planes *ep,
                         double dp, double dq, double dn) {
    double lo = dmin(dp, dq) + dmin(0, dn), hi = dmax(dp, dq) + dmax(0, dn);
    double h = (lo > 0 ? lo : hi < 0 ? -hi : 0) - PRUNE_GAP;
    double reach = h > 0 ? sqrt(r * r - h * h) : r;
    double bound = 0, ys[3];
    for (int i = 0; i < 3; i++) {
        double y = dmin(v3_dot(ep->m[i], p) - ep->o[i], v3_dot(ep->m[i], q) - ep->o[i]);
        ys[i] = y;
        double s = y - (reach + PRUNE_GAP);
        if (s <= 0) continue;
        double k = v3_dot(ep->m[i], d);
        if (!(k < 0)) return INFINITY;
        bound = dmax(bound, s / -k);
    }
    if (h > 0) {
        double x0 = lo > 0 ? dmin(dp, dq) : -dmax(dp, dq), xa = lo > 0 ? dn : -dn;
        for (int i = 0; i < 3 && bound <= 1; i++)
            if (ys[i] > PRUNE_GAP)
                bound = dmax(bound, off_plane_entry(x0 - PRUNE_GAP, xa, ys[i] - PRUNE_GAP,
                                                    v3_dot(ep->m[i], d), r + PRUNE_GAP));
    }
    return bound > 1 ? INFINITY : bound;
}

double gait__sweep_tri_bound(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, double dl,
                             const gait__tri *t, gait__edge_memo *memo, gait__sweep_pre *pre) {
    gait_vec3 a = t->v[0], n = t->n;
    double dp = v3_dot(v3_sub(p, a), n), dq = v3_dot(v3_sub(q, a), n), dn = v3_dot(d, n);
    /* the kernel's first test: the capsule never comes within r of the plane */
    double lo = dmin(dp, dq) + dmin(0, dn), hi = dmax(dp, dq) + dmax(0, dn);
    if (lo >= r || hi <= -r) return INFINITY;
    const edge_planes *ep = edge_planes_get(t, memo, NULL);
    double bound = edge_bound(p, q, r, d, ep, dp, dq, dn);
    if (bound > 1) return INFINITY;
    /* the plane, and beside it: plane_approach's bound */
    bool face_first = false;
    double t_plane, out_max;
    if (plane_side(p, q, r, d, dl, ep, dp, dq, dn, 1.0, &t_plane, &out_max, &face_first))
        bound = dmax(bound, plane_bound(r, dl, t_plane, out_max));
    if (bound > 1) return INFINITY;
    pre->dp = dp;
    pre->dq = dq;
    pre->dn = dn;
    pre->face_first = face_first;
    /* a bound past 0 comes from the plane (both ends r or more off it: the kernel's own test
     * says as much) or from edge_bound: an edge's line the axis lies beyond by more than the
     * reach its plane distance leaves, or the two distances together (off_plane_entry) outside
     * r now. Either way every axis point is more than r from the triangle: no overlap at the
     * start */
    pre->clear = bound > 0;
    return bound;
}

/* The sweep past its plane test and the approach: dp, dq, dn the ends' distances to the plane and
 * the motion along its normal; ep the edge planes (pruning only, else NULL). */
#define SIDE_GAP 1e-9 /* m past the side's heights a vertex must lie to be left out (rounding) */

/* Whether an upright capsule's side (its cylinder between the end spheres' centres, p-q along
 * u) can meet no part of the triangle over a move by d, by height alone: the side touches a
 * point only along a level line (the axis is upright, so the contact normal is level), at a
 * height between the centres' then, and the triangle lies wholly below the lower centre's
 * lowest or above the upper centre's highest. A walk's slide over a mesh floor meets its
 * triangles under the bottom sphere, never with its side. */
static inline bool beside_side(gait_vec3 p, gait_vec3 q, gait_vec3 d, gait_vec3 u,
                               const gait__tri *t) {
    if (u.x != 0 || u.z != 0) return false;
    double lo = dmin(p.y, q.y) + dmin(0, d.y) - SIDE_GAP;
    double hi = dmax(p.y, q.y) + dmax(0, d.y) + SIDE_GAP;
    double vlo = dmin(t->v[0].y, dmin(t->v[1].y, t->v[2].y));
    double vhi = dmax(t->v[0].y, dmax(t->v[1].y, t->v[2].y));
    return vhi < lo || vlo > hi;
}

static bool sweep_tri_body(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, const gait__tri *t,
                           gait__tri_hit *out, bool prune, const edge_planes *ep, double dp,
                           double dq, double dn, bool face_first, bool clear) {
    gait_vec3 n = t->n;
    /* the edges' boxes, once (pruning only, when the edges are tested) */
    box3 ebox[3];
    if (prune && !face_first)
        for (int i = 0; i < 3; i++) ebox[i] = seg_box(t->v[i], t->v[NEXT[i]], 0);

    /* a start within r of the plane may overlap the triangle already (gait__capsule_tri's own
     * plane test, then the rest of it), unless the bound showed it clear */
    gait__tri_contact c0;
    bool near_plane = !((dp >= r && dq >= r) || (dp <= -r && dq <= -r));
    if (near_plane && !clear && capsule_tri_near(p, q, r, t, dp, dq, ep, &c0, prune)) {
        /* overlapping but leaving, or sliding along it: not in the way */
        if (!moves_into(d, c0.normal)) return false;
        out->t = 0;
        out->point = c0.point;
        out->normal = c0.normal;
        out->start_solid = true;
        out->back = false;
        return true;
    }

    sweep_best b = {0};
    gait_vec3 u = v3_sub(q, p);
    bool seg = v3_len2(u) > TINY2;
    /* An upright capsule swept straight up or down (the ground's cast down, a lift's cast up)
     * moves along its own axis: clear of the triangle at the start, it first touches it with
     * its leading end's sphere — the trailing sphere passes only where the leading one has been,
     * and the side keeps its distance from everything beside it (its edge and vertex tests below
     * find nothing for a motion along the axis). Only the leading end is tested. */
    int k0 = 0, k1 = seg ? 2 : 1;
    bool along = seg && d.x == 0 && d.z == 0 && u.x == 0 && u.z == 0 && d.y != 0;
    if (along) {
        if (d.y * u.y < 0) k1 = 1; /* moving from q towards p: p leads */
        else k0 = 1;
    }
    for (int k = k0; k < k1; k++) {
        gait_vec3 e = k ? q : p;
        double se = k ? dq : dp, tt, s;
        box3 path; /* the end sphere's path, grown by r */
        if (prune) path = seg_box(e, v3_add(e, d), r);
        /* the end sphere against the face, from the side it starts on */
        bool face_in = false;
        if (dn != 0 && fabs(se) >= r * (1 - 1e-12)) {
            double side = se >= 0 ? 1 : -1;
            if (side * dn < 0) {
                tt = (se - side * r) / -dn;
                if (tt < 0) tt = 0;
                if (tt <= 1) {
                    gait_vec3 x = v3_mad(v3_mad(e, d, tt), n, -side * r);
                    if (inside_tri(x, t)) {
                        offer(&b, t, d, tt, x, v3_scale(n, side), GAIT__FEAT_FACE);
                        face_in = ep && b.found && b.t == tt && inside_by(ep, x, FACE_INSIDE_GAP);
                    }
                }
            }
        }
        /* the sphere meets the face's plane first at x: with x inside the triangle (by
         * FACE_INSIDE_GAP, far past the kernels' rounding), no edge or vertex of it is met by
         * this end before then */
        for (int i = 0; i < 3 && !face_first && !face_in; i++) {
            gait_vec3 v0 = t->v[i], v1 = t->v[NEXT[i]];
            if (!(prune && apart(&path, &ebox[i])) && ray_cylinder(e, d, v0, v1, r, &tt, &s)) {
                gait_vec3 x = v3_lerp(v0, v1, s);
                gait_vec3 nn = v3_norm(v3_sub(v3_mad(e, d, tt), x));
                offer(&b, t, d, tt, x, nn, GAIT__FEAT_EDGE0 + i);
            }
            if (!(prune && point_apart(&path, v0)) && ray_sphere(e, d, v0, r, &tt)) {
                gait_vec3 nn = v3_norm(v3_sub(v3_mad(e, d, tt), v0));
                offer(&b, t, d, tt, v0, nn, GAIT__FEAT_VERT0 + i);
            }
        }
    }
    if (seg && !face_first && !along && !beside_side(p, q, d, u, t)) {
        gait_vec3 nd = v3_neg(d);
        /* the capsule's box at its start (grown by r), and over its whole motion */
        box3 cap0, swept;
        if (prune) {
            cap0 = seg_box(p, q, r);
            swept = cap0;
            for (int k = 0; k < 3; k++) {
                double dk = k == 0 ? d.x : k == 1 ? d.y : d.z;
                if (dk < 0) swept.lo[k] += dk;
                else swept.hi[k] += dk;
            }
        }
        for (int i = 0; i < 3; i++) {
            gait_vec3 v0 = t->v[i], v1 = t->v[NEXT[i]];
            double tt, s;
            /* a vertex against the side of the capsule (the vertex moving by -d) */
            box3 vpath;
            if (prune) vpath = seg_box(v0, v3_add(v0, nd), 0);
            if (!(prune && apart(&vpath, &cap0)) && ray_cylinder(v0, nd, p, q, r, &tt, &s)) {
                gait_vec3 axis_pt = v3_mad(v3_lerp(p, q, s), d, tt);
                offer(&b, t, d, tt, v0, v3_norm(v3_sub(axis_pt, v0)), GAIT__FEAT_VERT0 + i);
            }
            /* an edge against the side of the capsule: the two lines reach distance r along
             * their common normal, with both closest points inside their segments */
            if (prune && apart(&swept, &ebox[i])) continue;
            gait_vec3 e = v3_sub(v1, v0);
            gait_vec3 m = v3_cross(u, e);
            double m2 = v3_len2(m);
            if (m2 <= 1e-18 * v3_len2(u) * v3_len2(e)) continue; /* parallel: ends cover it */
            m = v3_scale(m, 1.0 / sqrt(m2));
            double s0 = v3_dot(v3_sub(p, v0), m), ds = v3_dot(d, m);
            if (fabs(s0) < r * (1 - 1e-12)) continue; /* within the slab already: ends cover it */
            double side = s0 >= 0 ? 1 : -1;
            if (!(side * ds < 0)) continue;
            tt = (s0 - side * r) / -ds;
            if (tt < 0) tt = 0;
            if (tt > 1) continue;
            gait_vec3 w = v3_sub(v3_mad(p, d, tt), v0);
            double A = v3_dot(u, u), B = v3_dot(u, e), C = v3_dot(e, e);
            double D = v3_dot(u, w), E = v3_dot(e, w), den = A * C - B * B;
            if (!(den > 0)) continue;
            double sa = (B * E - C * D) / den, sb = (A * E - B * D) / den;
            if (sa < 0 || sa > 1 || sb < 0 || sb > 1) continue;
            offer(&b, t, d, tt, v3_mad(v0, e, sb), v3_scale(m, side), GAIT__FEAT_EDGE0 + i);
        }
    }
    if (!b.found) return false;
    out->t = b.t;
    out->point = b.point;
    out->normal = b.normal;
    out->start_solid = false;
    out->back = false;
    return true;
}

bool gait__sweep_tri(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, const gait__tri *t,
                     gait__tri_hit *out, bool prune, double t_bound, gait__edge_memo *memo) {
    gait_vec3 a = t->v[0], n = t->n;
    double dp = v3_dot(v3_sub(p, a), n), dq = v3_dot(v3_sub(q, a), n), dn = v3_dot(d, n);
    /* the capsule's signed distance to the plane over the whole motion */
    double lo = dmin(dp, dq) + dmin(0, dn), hi = dmax(dp, dq) + dmax(0, dn);
    if (lo >= r || hi <= -r) return false;
    bool face_first = false;
    edge_planes local;
    const edge_planes *ep = NULL;
    if (prune) {
        ep = edge_planes_get(t, memo, &local);
        approach ap = plane_approach(p, q, r, d, ep, dp, dq, dn, t_bound);
        if (ap.none) return false;
        face_first = ap.face_first;
    }
    return sweep_tri_body(p, q, r, d, t, out, prune, ep, dp, dq, dn, face_first, false);
}

bool gait__sweep_tri_pre(gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, const gait__tri *t,
                         gait__tri_hit *out, const gait__edge_memo *memo, const gait__sweep_pre *pre) {
    return sweep_tri_body(p, q, r, d, t, out, true, memo, pre->dp, pre->dq, pre->dn, pre->face_first,
                          pre->clear);
}

bool gait__ray_tri(gait_vec3 o, gait_vec3 d, const gait__tri *t, gait__tri_hit *out) {
    /* Moller-Trumbore, two-sided, borders included. */
    gait_vec3 e1 = v3_sub(t->v[1], t->v[0]), e2 = v3_sub(t->v[2], t->v[0]);
    gait_vec3 pv = v3_cross(d, e2);
    double det = v3_dot(e1, pv);
    if (det == 0) return false;
    double inv = 1.0 / det;
    gait_vec3 tv = v3_sub(o, t->v[0]);
    double u = v3_dot(tv, pv) * inv;
    if (u < 0 || u > 1) return false;
    gait_vec3 qv = v3_cross(tv, e1);
    double v = v3_dot(d, qv) * inv;
    if (v < 0 || u + v > 1) return false;
    double tt = v3_dot(e2, qv) * inv;
    if (tt < 0 || tt > 1) return false;
    out->t = tt;
    out->point = v3_mad(o, d, tt);
    out->back = v3_dot(d, t->n) > 0;
    out->normal = out->back ? v3_neg(t->n) : t->n;
    out->start_solid = false;
    return true;
}

bool gait__edge_active(gait_vec3 e0, gait_vec3 e1, gait_vec3 n, gait_vec3 w, gait_vec3 nn) {
    (void)nn;
    gait_vec3 rel = v3_sub(w, e0);
    double s = v3_dot(rel, n);          /* height of the neighbour's far vertex over our plane */
    /* 1e-6 rad: a crease flatter than this is a tessellated flat surface (squared: no sqrt
     * on the terrain's per-query path) */
    if (s * s <= 1e-12 * v3_len2(rel)) {
        /* coplanar: flat unless the neighbour folds back over this triangle (a zero-thickness
         * fin), whose edge is a real border */
        gait_vec3 inward = v3_cross(n, v3_sub(e1, e0));
        return v3_dot(rel, inward) > 0;
    }
    return s < 0; /* neighbour bends away below our plane: convex crease; above: concave */
}

/* A bent edge is internal seen from the side its neighbour bends towards, and only while the
 * neighbour still leans out beyond the edge's line (bent by less than a right angle): a point
 * whose nearest feature of this triangle is the edge lies beyond that line, so it sits in the
 * concave corner only when the corner reaches past the line. A neighbour bent back by a right
 * angle or more (a box's corner seen from inside its faces, a thin wedge's knife edge, a fin)
 * leaves every such point on the convex side: active from both sides. The right angle is taken
 * with FOLD_COS to spare, far above what a float mesh's rounding moves it, so a box's corner
 * stays one whatever its turn; the normals it changes lie within that angle of the face's. */
#define FOLD_COS 1e-2

unsigned gait__edge_internal_sides(gait_vec3 e0, gait_vec3 e1, gait_vec3 n, gait_vec3 w) {
    gait_vec3 e = v3_sub(e1, e0), rel = v3_sub(w, e0);
    double s = v3_dot(rel, n);                  /* the far vertex's height over our plane */
    double b = v3_dot(rel, v3_cross(e, n));     /* how far it lies out beyond the edge (x |e|) */
    /* coplanar (as gait__edge_active): flat from both sides, unless it folds back over this
     * triangle (a zero-thickness fin), whose edge is a real border */
    if (s * s <= 1e-12 * v3_len2(rel)) return b >= 0 ? GAIT__SIDE_FRONT | GAIT__SIDE_BACK : 0;
    /* its part across the edge: b / (|e| |across|) is the cosine of the bend */
    double ee = v3_len2(e), re = v3_dot(rel, e), across2 = v3_len2(rel) - re * re / ee;
    if (!(b > 0 && b * b > FOLD_COS * FOLD_COS * ee * across2)) return 0;
    return s > 0 ? GAIT__SIDE_FRONT : GAIT__SIDE_BACK;
}
