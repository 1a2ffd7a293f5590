/* Queries of the collision world: capsule overlap, capsule sweep, sphere cast, ray cast, and the
 * gathered queries (one tree walk for many queries of one region).
 *
 * One walker visits the candidate triangles of a query: the terrain cells under the query
 * (generated on the fly, row by row, clipped to the query's footprint), then every live
 * landmark whose bounds the query reaches, through its BVH (four boxes tested at once) with a
 * fixed stack on the C stack. Nothing is allocated. Each candidate goes to the exact kernels of
 * collide_geom.c. The brute-force path (for the tests) visits every triangle with no culling at
 * all and reaches the same kernels; a gathered query tests the triangles its gather kept. All
 * three give the same answer bit for bit, because nothing depends on the visiting order:
 * contacts are returned in (landmark, triangle) order, and when more exist than fit, the deepest
 * are kept (equal depths: the lower key); sweeps break ties in time by the same key.
 *
 * Box tests against node and triangle bounds compare the stored floats with the query's box
 * (doubles) rounded outward to floats: for a float b and a double q, b < q exactly when
 * b < (q rounded up), so the float compare decides exactly what the double one would. */
#include "collide_internal.h"

#include <stddef.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { Q_OVERLAP, Q_SWEEP, Q_RAY, Q_GATHER };

typedef struct query {
    int kind;
    int brute;
    const gait_collider *c;
    const gait_filter *f;
    double cos_walk, cos_ceil;
    /* the shape, world (m) */
    gait_vec3 p, q, d;
    double r;
    gait_vec3 lo, hi;           /* world bounds of everything the query can touch */
    /* the shape in the current frame (landmark or terrain origin subtracted; a turned moving
     * landmark's turn undone) and its motion there */
    gait_vec3 lp, lq, ld, llo, lhi, lcen, lext;
    const double *rot;          /* the frame's turn (local -> world), NULL when it has none */
    float flo[3], fhi[3];       /* llo rounded up, lhi rounded down, to floats (see above) */
    gait_vec3 origin;
    bool framed;                /* the frame above is set (for `origin`) */
    gait_landmark_id lm;        /* current landmark (null for terrain) */
    const gait__landmark *lmp;  /* and its data */
    bool region_filter;         /* current landmark: skip triangles in the filter's region */
    /* overlap results */
    gait_contact_point *out;
    int cap, n;
    bool truncated;
    bool distinct;              /* one contact for each point and normal
                                   (gait__capsule_overlap_distinct) */
    /* sweep results */
    bool found;
    double best_t;
    int32_t best_lm;
    int best_tri;
    gait__tri_hit best;
    gait_landmark_id best_id;
    /* gather results */
    gait_gather *g;
    int run_first;
} query;

/* min / max without the libm calls -fno-fast-math keeps for NaN rules (no NaN reaches here) */
static inline float mn3(float a, float b, float c) { float m = a < b ? a : b; return m < c ? m : c; }
static inline float mx3(float a, float b, float c) { float m = a > b ? a : b; return m > c ? m : c; }

/* Component-wise min / max for boxes (comparisons, not libm's fmin/fmax calls: no NaN reaches a
 * box, and a box's -0 or +0 compares the same). */
static inline gait_vec3 box_min(gait_vec3 a, gait_vec3 b) {
    return v3(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}
static inline gait_vec3 box_max(gait_vec3 a, gait_vec3 b) {
    return v3(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}

/* The next float towards +inf (f finite, or -inf), and towards -inf (f finite, or +inf), by
 * the bits: the libm call is most of the cost of a frame change otherwise. */
static inline float next_up(float f) {
    if (f == 0) return 1e-45f; /* the smallest subnormal, from either zero */
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    u = (u >> 31) ? u - 1 : u + 1;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline float next_down(float f) { return -next_up(-f); }

/* The smallest float >= d and the largest float <= d. */
static inline float float_up(double d) {
    float f = (float)d;
    return (double)f < d ? next_up(f) : f;
}
static inline float float_down(double d) {
    float f = (float)d;
    return (double)f > d ? next_down(f) : f;
}

/* A query's box to floats: lo's corner rounded up (float_up), hi's down (float_down), the same
 * bits as those, four lanes at once and no branch: whether a bound rounds up or down is a coin
 * toss, six a query. */
static inline void box_floats(gait_vec3 lo, gait_vec3 hi, float flo[3], float fhi[3]) {
#if defined(__SSE2__)
    const __m128 sign = _mm_set1_ps(-0.0f);
    for (int k = 0; k < 2; k++) {
        bool up = k == 0;
        gait_vec3 v = up ? lo : hi;
        __m128d xy = _mm_set_pd(v.y, v.x), zz = _mm_set1_pd(v.z);
        __m128 f = _mm_movelh_ps(_mm_cvtpd_ps(xy), _mm_cvtpd_ps(zz)); /* (x, y, z, z) */
        __m128d bxy = _mm_cvtps_pd(f), bzz = _mm_cvtps_pd(_mm_movehl_ps(f, f));
        __m128d mxy = up ? _mm_cmplt_pd(bxy, xy) : _mm_cmpgt_pd(bxy, xy);
        __m128d mzz = up ? _mm_cmplt_pd(bzz, zz) : _mm_cmpgt_pd(bzz, zz);
        __m128 m = _mm_shuffle_ps(_mm_castpd_ps(mxy), _mm_castpd_ps(mzz), _MM_SHUFFLE(2, 0, 2, 0));
        /* the next float up from f (down: from -f, negated): -0 made +0, then the bits step
         * away from zero for a positive float, towards it for a negative one */
        __m128 from = up ? f : _mm_xor_ps(f, sign);
        __m128i u = _mm_castps_si128(_mm_add_ps(from, _mm_setzero_ps()));
        __m128i step = _mm_or_si128(_mm_srai_epi32(u, 31), _mm_set1_epi32(1));
        __m128 next = _mm_castsi128_ps(_mm_add_epi32(u, step));
        if (!up) next = _mm_xor_ps(next, sign);
        float out[4];
        _mm_storeu_ps(out, _mm_or_ps(_mm_and_ps(m, next), _mm_andnot_ps(m, f)));
        memcpy(up ? flo : fhi, out, 3 * sizeof(float));
    }
#else
    flo[0] = float_up(lo.x);
    flo[1] = float_up(lo.y);
    flo[2] = float_up(lo.z);
    fhi[0] = float_down(hi.x);
    fhi[1] = float_down(hi.y);
    fhi[2] = float_down(hi.z);
#endif
}

static gait_contact_class classify(const query *qy, gait_vec3 n) {
    if (n.y >= qy->cos_walk) return GAIT_CONTACT_FLOOR;
    if (-n.y >= qy->cos_ceil) return GAIT_CONTACT_CEILING;
    return GAIT_CONTACT_WALL;
}

/* Sweeps keep the earliest hit; equal times go to the lowest (landmark, triangle) key. */
static bool better(const query *qy, double t, int32_t lm, int tri) {
    if (!qy->found) return true;
    if (t != qy->best_t) return t < qy->best_t;
    if (lm != qy->best_lm) return lm < qy->best_lm;
    return tri < qy->best_tri;
}

/* The canonical order of contacts: by (landmark, triangle). */
static bool key_less(const gait_contact_point *a, const gait_contact_point *b) {
    if (a->landmark.index1 != b->landmark.index1) return a->landmark.index1 < b->landmark.index1;
    return a->triangle < b->triangle;
}

/* Which of two contacts a full list keeps: the deeper, at equal depth the lower key. */
static bool keeps_before(const gait_contact_point *a, const gait_contact_point *b) {
    if (a->depth != b->depth) return a->depth > b->depth;
    return key_less(a, b);
}

/* Whether two contacts are one: the same point (within DISTINCT_POINT) with the same normal
 * (within DISTINCT_NORMAL), as an edge or a vertex several triangles share gives each of them. */
#define DISTINCT_POINT 1e-6   /* m */
#define DISTINCT_NORMAL 1e-9  /* 1 - cos of the angle between the normals */
static bool same_contact(const gait_contact_point *a, const gait_contact_point *b) {
    gait_vec3 d = v3_sub(a->point, b->point);
    return v3_dot(d, d) <= DISTINCT_POINT * DISTINCT_POINT &&
           v3_dot(a->normal, b->normal) >= 1 - DISTINCT_NORMAL;
}

/* Adds a contact; when the list is full, it replaces the one it keeps last if it ranks before
 * it. Returns whether it went in. A distinct query keeps one of each contact (the one it keeps
 * first): a copy takes no place of its own. */
static bool add_contact(query *qy, const gait_contact_point *cp) {
    if (qy->distinct)
        for (int i = 0; i < qy->n; i++)
            if (same_contact(&qy->out[i], cp)) {
                if (keeps_before(cp, &qy->out[i])) qy->out[i] = *cp;
                return true;
            }
    if (qy->n < qy->cap) {
        qy->out[qy->n++] = *cp;
        return true;
    }
    qy->truncated = true;
    if (qy->n == 0) return false;
    int w = 0;
    for (int i = 1; i < qy->n; i++)
        if (keeps_before(&qy->out[w], &qy->out[i])) w = i;
    if (!keeps_before(cp, &qy->out[w])) return false;
    qy->out[w] = *cp;
    return true;
}

/* Heap sort of the contacts by key (no allocation; n is the caller's capacity at most). */
static void sift_contacts(gait_contact_point *a, int root, int n) {
    for (;;) {
        int c = 2 * root + 1;
        if (c >= n) return;
        if (c + 1 < n && key_less(&a[c], &a[c + 1])) c++;
        if (!key_less(&a[root], &a[c])) return;
        gait_contact_point t = a[root];
        a[root] = a[c];
        a[c] = t;
        root = c;
    }
}
static void sort_contacts(gait_contact_point *a, int n) {
    for (int i = n / 2 - 1; i >= 0; i--) sift_contacts(a, i, n);
    for (int end = n - 1; end > 0; end--) {
        gait_contact_point t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_contacts(a, 0, end);
    }
}

/* A point of the query's frame in the world, a direction of it turned out into the world. */
static inline gait_vec3 turn_out(const query *qy, gait_vec3 v) {
    const double *r = qy->rot;
    if (!r) return v;
    return v3(r[0] * v.x + r[1] * v.y + r[2] * v.z, r[3] * v.x + r[4] * v.y + r[5] * v.z,
              r[6] * v.x + r[7] * v.y + r[8] * v.z);
}
static inline gait_vec3 to_world(const query *qy, gait_vec3 p) {
    return v3_add(qy->origin, turn_out(qy, p));
}

static void take_hit(query *qy, const gait__tri_hit *hit, int tri_index);

/* A candidate triangle through the kernel. flags carries its coincident group (landmark
 * triangles; 0 for terrain): an overlap reports the group's other indices with the same
 * contact, lowest first, while they still make the list; a sweep's hit is the group's first
 * (its lowest index), which is what testing every copy would give. */
static void on_tri(query *qy, const gait__tri *t, int tri_index, uint32_t flags, gait__edge_memo *memo) {
    if (qy->kind == Q_OVERLAP) {
        gait__tri_contact ct;
        if (!gait__capsule_tri(qy->lp, qy->lq, qy->r, t, &ct, !qy->brute, memo)) return;
        gait_contact_point cp;
        cp.point = to_world(qy, ct.point);
        cp.normal = turn_out(qy, ct.normal);
        cp.depth = ct.depth;
        cp.cls = classify(qy, ct.normal);
        cp.landmark = qy->lm;
        cp.triangle = tri_index;
        if (!add_contact(qy, &cp)) return;
        uint32_t g = flags >> GAIT__GROUP_SHIFT;
        if (!g || qy->distinct) return; /* the copies' contacts are this one */
        const gait__landmark *lm = qy->lmp;
        for (uint32_t k = lm->dup_start[g - 1]; k < lm->dup_start[g]; k++) {
            cp.triangle = (int)lm->dup_index[k];
            if (!add_contact(qy, &cp)) return; /* the rest rank after it */
        }
        return;
    }
    gait__tri_hit h;
    bool hit = qy->kind == Q_RAY ? gait__ray_tri(qy->lp, qy->ld, t, &h)
                                 : gait__sweep_tri(qy->lp, qy->lq, qy->r, qy->ld, t, &h, !qy->brute,
                                                   qy->found ? qy->best_t : 1.0, memo);
    if (hit) take_hit(qy, &h, tri_index);
}

/* A sweep's or ray's hit on triangle tri_index of the current frame: kept when it is the best. */
GAIT__HOT void take_hit(query *qy, const gait__tri_hit *hit, int tri_index) {
    if (!better(qy, hit->t, qy->lm.index1, tri_index)) return;
    gait__tri_hit h = *hit;
    qy->found = true;
    qy->best_t = h.t;
    qy->best_lm = qy->lm.index1;
    qy->best_tri = tri_index;
    h.point = to_world(qy, h.point);
    h.normal = turn_out(qy, h.normal);
    qy->best = h;
    qy->best_id = qy->lm;
}

/* Whether two points are the same bits (+0 and -0 differ: a frame of either gives other bits). */
static inline bool same_point(gait_vec3 a, gait_vec3 b) {
    uint64_t x[3], y[3];
    memcpy(x, &a, sizeof x);
    memcpy(y, &b, sizeof y);
    return x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
}

/* Moves the query into a frame whose origin is `o`, turned by `rot` (local -> world; NULL: no
 * turn). Landmarks of one origin and no turn (a level's meshes, all placed at the world's) share
 * the frame: what it would work out again is already there, the same bits. */
GAIT__HOT void set_frame_turned(query *qy, gait_vec3 o, const double *rot) {
    if (qy->framed && !rot && !qy->rot && same_point(o, qy->origin)) return;
    qy->framed = true;
    qy->origin = o;
    qy->rot = rot;
    if (!rot) {
        qy->lp = v3_sub(qy->p, o);
        qy->lq = v3_sub(qy->q, o);
        qy->ld = qy->d;
        qy->llo = v3_sub(qy->lo, o);
        qy->lhi = v3_sub(qy->hi, o);
    } else {
        /* turned: the shape's ends and motion into the frame, its box from them */
        qy->lp = gait__turn_in(rot, v3_sub(qy->p, o));
        qy->lq = gait__turn_in(rot, v3_sub(qy->q, o));
        qy->ld = gait__turn_in(rot, qy->d);
        gait_vec3 a = box_min(qy->lp, qy->lq), b = box_max(qy->lp, qy->lq);
        a = box_min(a, v3_add(a, qy->ld));
        b = box_max(b, v3_add(b, qy->ld));
        double g = qy->r + 1e-6 + 1e-9 * (1 + v3_len(qy->lp) + v3_len(qy->ld));
        qy->llo = v3_sub(a, v3(g, g, g));
        qy->lhi = v3_add(b, v3(g, g, g));
    }
    box_floats(qy->llo, qy->lhi, qy->flo, qy->fhi);
    /* sweeps cull boxes with the ray of the shape's centre against boxes grown by the
     * shape's half extent (+ r); 1e-6 m more keeps rounding on the safe side. Only a sweep or a
     * ray reads them (is_timed). */
    if (qy->kind != Q_SWEEP && qy->kind != Q_RAY) return;
    gait_vec3 a = box_min(qy->lp, qy->lq), b = box_max(qy->lp, qy->lq);
    qy->lcen = v3_scale(v3_add(a, b), 0.5);
    /* (a turned frame's is the same shape: a capsule's ends turn, its radius does not) */
    double g = qy->r + 1e-6;
    qy->lext = v3_add(v3_scale(v3_sub(b, a), 0.5), v3(g, g, g));
}

static void set_frame(query *qy, gait_vec3 o) { set_frame_turned(qy, o, NULL); }

/* ---- terrain ---------------------------------------------------------------------------- */

/* x-range of the convex hull of pts (x, z pairs) inside the slab z in [za, zb]. */
static bool hull_xrange(const double pts[][2], int n, double za, double zb, double *x0,
                        double *x1) {
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (pts[i][1] >= za && pts[i][1] <= zb) {
            lo = fmin(lo, pts[i][0]);
            hi = fmax(hi, pts[i][0]);
        }
        for (int j = i + 1; j < n; j++) {
            double z0 = pts[i][1], z1 = pts[j][1];
            if (z0 == z1) continue;
            for (int k = 0; k < 2; k++) {
                double zz = k ? zb : za;
                double s = (zz - z0) / (z1 - z0);
                if (s < 0 || s > 1) continue;
                double x = pts[i][0] + s * (pts[j][0] - pts[i][0]);
                lo = fmin(lo, x);
                hi = fmax(hi, x);
            }
        }
    }
    if (lo > hi) return false;
    *x0 = lo;
    *x1 = hi;
    return true;
}

static void walk_terrain(query *qy) {
    const gait__terrain *t = &qy->c->terrain;
    set_frame(qy, t->origin);
    qy->lm.index1 = 0;
    qy->lm.generation = 0;
    qy->lmp = NULL;
    qy->region_filter = false;
    int cells_x = t->nx - 1, cells_z = t->nz - 1;
    gait__tri tri;
    if (qy->brute) {
        for (int iz = 0; iz < cells_z; iz++)
            for (int ix = 0; ix < cells_x; ix++)
                for (int half = 0; half < 2; half++)
                    if (gait__terrain_tri(t, ix, iz, half, &tri))
                        on_tri(qy, &tri, (iz * cells_x + ix) * 2 + half, 0, NULL);
        return;
    }
    if (qy->llo.y > t->hmax || qy->lhi.y < t->hmin) return;
    /* the footprint: hull of the shape's segment ends at the start and the end of the motion */
    double pts[4][2];
    int np = 0;
    gait_vec3 ends[4] = {qy->lp, qy->lq, v3_add(qy->lp, qy->d), v3_add(qy->lq, qy->d)};
    for (int i = 0; i < (qy->kind == Q_OVERLAP ? 2 : 4); i++) {
        pts[np][0] = ends[i].x;
        pts[np][1] = ends[i].z;
        np++;
    }
    double cell = t->cell, g = qy->r + 1e-9;
    double zlo = qy->llo.z, zhi = qy->lhi.z;
    int iz0 = (int)fmax(0, floor(zlo / cell)), iz1 = (int)fmin(cells_z - 1, floor(zhi / cell));
    if (zhi < 0 || zlo > cells_z * cell) return;
    for (int iz = iz0; iz <= iz1; iz++) {
        double x0, x1;
        if (!hull_xrange((const double(*)[2])pts, np, iz * cell - g, (iz + 1) * cell + g, &x0, &x1))
            continue;
        x0 -= g;
        x1 += g;
        if (x1 < 0 || x0 > cells_x * cell) continue;
        int ix0 = (int)fmax(0, floor(x0 / cell)), ix1 = (int)fmin(cells_x - 1, floor(x1 / cell));
        for (int ix = ix0; ix <= ix1; ix++) {
            const float *row0 = t->h + (size_t)iz * t->nx + ix, *row1 = row0 + t->nx;
            float a = row0[0], b = row0[1], c = row1[0], d = row1[1];
            float cmin = mn3(a, b, c < d ? c : d), cmax = mx3(a, b, c > d ? c : d);
            if (cmin > qy->lhi.y || cmax < qy->llo.y) continue;
            for (int half = 0; half < 2; half++)
                if (gait__terrain_tri(t, ix, iz, half, &tri))
                    on_tri(qy, &tri, (iz * cells_x + ix) * 2 + half, 0, NULL);
        }
    }
}

/* ---- landmarks -------------------------------------------------------------------------- */

static inline void ltri_to_tri(const float *v, uint32_t flags, gait__tri *t) {
    t->v[0] = v3(v[0], v[1], v[2]);
    t->v[1] = v3(v[3], v[4], v[5]);
    t->v[2] = v3(v[6], v[7], v[8]);
    /* stored triangles were validated at add: the normal is well defined */
    t->n = v3_norm(v3_cross(v3_sub(t->v[1], t->v[0]), v3_sub(t->v[2], t->v[0])));
    t->flags = flags & GAIT__EDGE_MASK;
    t->terrain = NULL;
}

/* Whether a triangle (its float box, landmark-local) lies in the filter's ignore region. */
static bool region_skips(const query *qy, const float lo[3], const float hi[3]) {
    const gait_filter *f = qy->f;
    double rlo[3] = {f->region_min.x, f->region_min.y, f->region_min.z};
    double rhi[3] = {f->region_max.x, f->region_max.y, f->region_max.z};
    double wlo[3], whi[3];
    if (!qy->rot) {
        double o[3] = {qy->origin.x, qy->origin.y, qy->origin.z};
        for (int a = 0; a < 3; a++) {
            wlo[a] = o[a] + lo[a];
            whi[a] = o[a] + hi[a];
        }
    } else { /* the local box turned out: its world bounds */
        const double *r = qy->rot;
        gait_vec3 c = to_world(qy, v3(0.5 * ((double)lo[0] + hi[0]), 0.5 * ((double)lo[1] + hi[1]),
                                      0.5 * ((double)lo[2] + hi[2])));
        double e[3] = {0.5 * ((double)hi[0] - lo[0]), 0.5 * ((double)hi[1] - lo[1]),
                       0.5 * ((double)hi[2] - lo[2])};
        double cc[3] = {c.x, c.y, c.z};
        for (int a = 0; a < 3; a++) {
            double ext = fabs(r[3 * a]) * e[0] + fabs(r[3 * a + 1]) * e[1] + fabs(r[3 * a + 2]) * e[2];
            wlo[a] = cc[a] - ext;
            whi[a] = cc[a] + ext;
        }
    }
    for (int a = 0; a < 3; a++)
        if (whi[a] < rlo[a] || wlo[a] > rhi[a]) return false;
    return true;
}

static void gather_add(query *qy, const gait__ltri *s, const float lo[3], const float hi[3]);

/* A short sweep's candidates in one landmark's tree, kept in doubles with their edge planes until
 * the walk is done, then tested as a gather's are: in the order of the earliest each can be met,
 * stopping at the first that cannot beat the best (a crowded spot's sweeps, which no gather
 * holds, test a few instead of all). Past TREE_SORT they are kept apart, and each tested after
 * those only if its bound can still beat the best (a wall cut four times finer); past TREE_OVER
 * too, at once. */
#define TREE_SORT 64
#define TREE_OVER 512 /* candidates past those, tested after them against the best hit they left */
typedef struct tree_cands {
    int n, no;
    gait__tri tri[TREE_SORT];
    gait__edge_memo memo[TREE_SORT];
    int index[TREE_SORT];
    const gait__ltri *over[TREE_OVER];
} tree_cands;

static bool tree_keep(tree_cands *tc, const gait__ltri *s) {
    if (tc->n == TREE_SORT) return false;
    int k = tc->n++;
    ltri_to_tri(s->v, s->flags, &tc->tri[k]);
    tc->memo[k].ready = false;
    tc->index[k] = (int)s->index;
    return true;
}

static void tree_sweep_kept(query *qy, tree_cands *tc);

/* A sweep's candidate past those it put in order (triangle index tri of the current frame, dl the
 * motion's length there): through the kernel only if its bound can still beat the best hit. */
static void sweep_past(query *qy, const gait__tri *t, gait__edge_memo *memo, double dl, int tri) {
    gait__sweep_pre pre;
    double e = gait__sweep_tri_bound(qy->lp, qy->lq, qy->r, qy->ld, dl, t, memo, &pre);
    if (!(e <= 1) || (qy->found && e > qy->best_t)) return;
    gait__tri_hit h;
    if (gait__sweep_tri_pre(qy->lp, qy->lq, qy->r, qy->ld, t, &h, memo, &pre)) take_hit(qy, &h, tri);
}

/* tc: a short sweep's list to keep the candidates in (NULL: tested at once) */
static void leaf_tris(query *qy, const gait__landmark *lm, uint32_t first, uint32_t count, tree_cands *tc) {
    gait__tri tri;
    for (uint32_t i = first; i < first + count; i++) {
        const gait__ltri *s = &lm->tris[i];
        /* triangle box against the query's box (a sweep's or ray's covers its whole motion,
         * grown by the radius): most candidates stop here */
        const float *lo = lm->tbox[i], *hi = lm->tbox[i] + 3;
        if (hi[0] < qy->flo[0] || lo[0] > qy->fhi[0] || hi[1] < qy->flo[1] || lo[1] > qy->fhi[1] ||
            hi[2] < qy->flo[2] || lo[2] > qy->fhi[2])
            continue;
        if (qy->kind == Q_GATHER) {
            gather_add(qy, s, lo, hi);
            continue;
        }
        if (qy->region_filter && region_skips(qy, lo, hi)) continue;
        if (tc && tree_keep(tc, s)) continue;
        if (tc && tc->no < TREE_OVER) {
            tc->over[tc->no++] = s;
            continue;
        }
        ltri_to_tri(s->v, s->flags, &tri);
        on_tri(qy, &tri, (int)s->index, s->flags, NULL);
    }
}

/* Entry time (fraction of the motion) of the centre ray into a box grown by ext; false when
 * it misses within [0, tmax]. */
GAIT__HOT bool slab(gait_vec3 c, gait_vec3 d, const double lo[3], const double hi[3], gait_vec3 ext,
                    double tmax, double *enter) {
    double t0 = 0, t1 = tmax;
    double cc[3] = {c.x, c.y, c.z}, dd[3] = {d.x, d.y, d.z}, ee[3] = {ext.x, ext.y, ext.z};
    for (int a = 0; a < 3; a++) {
        double l = lo[a] - ee[a], h = hi[a] + ee[a];
        if (dd[a] == 0) {
            if (cc[a] < l || cc[a] > h) return false;
            continue;
        }
        double inv = 1.0 / dd[a], ta = (l - cc[a]) * inv, tb = (h - cc[a]) * inv;
        if (ta > tb) { double s = ta; ta = tb; tb = s; }
        if (ta > t0) t0 = ta;
        if (tb < t1) t1 = tb;
        if (t0 > t1) return false;
    }
    *enter = t0;
    return true;
}

/* Bit k set when child k's box meets the query's box (lo rounded up, hi down: exact). */
static inline unsigned node_hits(const gait__bnode *nd, const float lo[3], const float hi[3]) {
#if defined(__SSE2__)
    __m128 m = _mm_and_ps(_mm_cmpge_ps(_mm_loadu_ps(nd->max[0]), _mm_set1_ps(lo[0])),
                          _mm_cmple_ps(_mm_loadu_ps(nd->min[0]), _mm_set1_ps(hi[0])));
    m = _mm_and_ps(m, _mm_and_ps(_mm_cmpge_ps(_mm_loadu_ps(nd->max[1]), _mm_set1_ps(lo[1])),
                                 _mm_cmple_ps(_mm_loadu_ps(nd->min[1]), _mm_set1_ps(hi[1]))));
    m = _mm_and_ps(m, _mm_and_ps(_mm_cmpge_ps(_mm_loadu_ps(nd->max[2]), _mm_set1_ps(lo[2])),
                                 _mm_cmple_ps(_mm_loadu_ps(nd->min[2]), _mm_set1_ps(hi[2]))));
    return (unsigned)_mm_movemask_ps(m);
#else
    unsigned mask = 0;
    for (int k = 0; k < 4; k++)
        if (nd->max[0][k] >= lo[0] && nd->min[0][k] <= hi[0] && nd->max[1][k] >= lo[1] &&
            nd->min[1][k] <= hi[1] && nd->max[2][k] >= lo[2] && nd->min[2][k] <= hi[2])
            mask |= 1u << k;
    return mask;
#endif
}

/* Sets the query's landmark (its frame at origin, turned by rot when not NULL); false when the
 * filter ignores the whole of it. */
GAIT__HOT bool enter_landmark(query *qy, int slot, gait_vec3 origin, const double *rot) {
    set_frame_turned(qy, origin, rot);
    qy->lm.index1 = slot + 1;
    qy->lm.generation = qy->c->generation[slot];
    qy->lmp = qy->c->slot[slot];
    const gait_filter *f = qy->f;
    qy->region_filter = false;
    if (f && f->ignore.index1 == qy->lm.index1 && f->ignore.generation == qy->lm.generation) {
        if (!f->ignore_region_only) return false;
        qy->region_filter = true;
    }
    return true;
}

/* A sweep or ray longer than its shape is wide also culls by the entry time of its centre's ray
 * into each box (and by the best hit so far), nearest first; a short one's box says as much. */
static bool is_timed(const query *qy) {
    return (qy->kind == Q_SWEEP || qy->kind == Q_RAY) &&
           v3_len2(qy->d) > 4 * (qy->r + 0.05) * (qy->r + 0.05);
}

/* A ray straight down meets a box no earlier than where it passes the box's top, so once it has a
 * hit, nothing whose box tops out below the hit's height can beat it: the query box's floor is
 * raised to that height (DOWN_MARGIN below it, and a billionth of the ray's reach for the kernel's
 * rounding of t), and the SSE box tests of nodes and triangles cull by it. */
#define DOWN_MARGIN 1e-5 /* m */
#define DOWN_ABOVE_MARGIN 1e-6 /* m a hit must lie above a hinted floor (gait__ray_down_above),
                                  far past the rounding of its height */
static void down_floor(query *qy) {
    if (!qy->found) return;
    double y = qy->lp.y + qy->ld.y * qy->best_t;
    float f = float_down(y - DOWN_MARGIN - 1e-9 * (fabs(qy->lp.y) - qy->ld.y));
    if (f > qy->flo[1]) qy->flo[1] = f;
}

/* A long ray straight down through one landmark's tree (the height probe over a level, a ledge's
 * trace down): the children a node's box test keeps are visited top first, and the floor above
 * (down_floor) culls the rest, in place of each child's slab entry time. The same hit: only boxes
 * that hold no earlier one are skipped. */
static void walk_down(query *qy, const gait__landmark *lm) {
    uint32_t stack[GAIT__STACK_SIZE];
    float top[GAIT__STACK_SIZE]; /* each stacked node's box top, as its parent holds it */
    int sp = 0;
    stack[sp] = 0;
    top[sp++] = INFINITY;
    down_floor(qy);
    while (sp > 0) {
        sp--;
        if (top[sp] < qy->flo[1]) continue;
        const gait__bnode *nd = &lm->nodes[stack[sp]];
        unsigned mask = node_hits(nd, qy->flo, qy->fhi);
        int kids[4], nk = 0;
        while (mask) { /* highest top first */
            int k = __builtin_ctz(mask);
            mask &= mask - 1;
            int at = nk++;
            while (at > 0 && nd->max[1][kids[at - 1]] < nd->max[1][k]) {
                kids[at] = kids[at - 1];
                at--;
            }
            kids[at] = k;
        }
        for (int i = 0; i < nk; i++) {
            int k = kids[i];
            if (!nd->count[k] || nd->max[1][k] < qy->flo[1]) continue;
            leaf_tris(qy, lm, nd->child[k], nd->count[k], NULL);
            down_floor(qy);
        }
        /* inner nodes pushed lowest first: the highest pops next */
        for (int i = nk - 1; i >= 0; i--) {
            int k = kids[i];
            if (nd->count[k]) continue;
            stack[sp] = nd->child[k];
            top[sp++] = nd->max[1][k];
        }
    }
}

static void walk_landmark(query *qy, int slot) {
    const gait__landmark *lm = qy->c->slot[slot];
    if (!enter_landmark(qy, slot, lm->origin, lm->rotated ? lm->rot : NULL)) return;
    if (qy->brute) {
        leaf_tris(qy, lm, 0, (uint32_t)lm->tri_count, NULL);
        return;
    }
    bool timed = is_timed(qy);
    if (timed && qy->kind == Q_RAY && qy->ld.x == 0 && qy->ld.z == 0 && qy->ld.y < 0) {
        walk_down(qy, lm);
        return;
    }
    tree_cands tc_mem, *tc = NULL;
    if (!timed && qy->kind == Q_SWEEP) {
        tc_mem.n = tc_mem.no = 0;
        tc = &tc_mem;
    }
    uint32_t stack[GAIT__STACK_SIZE];
    double enter_at[GAIT__STACK_SIZE];
    int sp = 0;
    stack[sp] = 0;
    enter_at[sp++] = 0;
    while (sp > 0) {
        sp--;
        /* a node entered after the best hit so far holds no earlier one */
        if (timed && qy->found && enter_at[sp] > qy->best_t) continue;
        const gait__bnode *nd = &lm->nodes[stack[sp]];
        unsigned mask = node_hits(nd, qy->flo, qy->fhi);
        if (!timed) {
            while (mask) {
                int k = __builtin_ctz(mask);
                mask &= mask - 1;
                if (nd->count[k]) {
                    leaf_tris(qy, lm, nd->child[k], nd->count[k], tc);
                } else {
                    stack[sp] = nd->child[k];
                    enter_at[sp++] = 0;
                }
            }
            continue;
        }
        if (!mask) continue;
        int kids[4], nk = 0;
        double when[4];
        for (int k = 0; k < 4; k++) {
            if (!(mask & (1u << k))) continue;
            double e = 0;
            double lo[3] = {nd->min[0][k], nd->min[1][k], nd->min[2][k]};
            double hi[3] = {nd->max[0][k], nd->max[1][k], nd->max[2][k]};
            if (!slab(qy->lcen, qy->ld, lo, hi, qy->lext, 1.0, &e)) continue;
            if (qy->found && e > qy->best_t) continue;
            /* nearest first: insertion by entry time */
            int at = nk++;
            while (at > 0 && when[at - 1] > e) {
                kids[at] = kids[at - 1];
                when[at] = when[at - 1];
                at--;
            }
            kids[at] = k;
            when[at] = e;
        }
        /* leaves now, nearest first; inner nodes pushed farthest first so the nearest pops next */
        for (int i = 0; i < nk; i++)
            if (nd->count[kids[i]]) leaf_tris(qy, lm, nd->child[kids[i]], nd->count[kids[i]], NULL);
        for (int i = nk - 1; i >= 0; i--)
            if (!nd->count[kids[i]]) {
                stack[sp] = nd->child[kids[i]];
                enter_at[sp++] = when[i];
            }
    }
    if (tc) tree_sweep_kept(qy, tc);
}

static bool box_reached(const query *qy, const gait__landmark *lm) {
    return !(lm->bmax.x < qy->lo.x || lm->bmin.x > qy->hi.x || lm->bmax.y < qy->lo.y ||
             lm->bmin.y > qy->hi.y || lm->bmax.z < qy->lo.z || lm->bmin.z > qy->hi.z);
}

static void gather_end_landmark(query *qy, int slot);

static void visit_landmark(query *qy, int slot) {
    /* a gather keeps the static landmarks only (it stays valid while moving ones move) */
    if (qy->c->slot[slot]->moving && (qy->kind == Q_GATHER || (qy->f && qy->f->skip_moving))) return;
    if (qy->kind == Q_GATHER) qy->run_first = qy->g->count;
    walk_landmark(qy, slot);
    if (qy->kind == Q_GATHER) gather_end_landmark(qy, slot);
}

static void walk(query *qy) {
    const gait_collider *c = qy->c;
    const gait_filter *f = qy->f;
    if (c->terrain.present && !(f && f->skip_terrain)) walk_terrain(qy);
    if (f && f->skip_landmarks) return;
    if (qy->brute) {
        for (int i = 0; i < c->live; i++) visit_landmark(qy, c->dense_slot[i]);
        return;
    }
    /* the grid cells that can hold a landmark reaching the query's box: its own cells and
     * one more towards -x and -z (a landmark sits in the cell of its min corner) */
    const double cell = GAIT__GRID_CELL;
    double cx0 = floor((qy->lo.x - cell) / cell), cx1 = floor(qy->hi.x / cell);
    double cz0 = floor((qy->lo.z - cell) / cell), cz1 = floor(qy->hi.z / cell);
    double cells = (cx1 - cx0 + 1) * (cz1 - cz0 + 1);
    if (!(cells <= c->live) || !(fabs(cx0) < 1e9 && fabs(cx1) < 1e9 && fabs(cz0) < 1e9 && fabs(cz1) < 1e9)) {
        /* a query longer than the landmarks are many (a long ray): the flat list is cheaper */
        for (int i = 0; i < c->live; i++) {
            const double *b = c->dense_box + 6 * (size_t)i;
            if (b[3] < qy->lo.x || b[0] > qy->hi.x || b[4] < qy->lo.y || b[1] > qy->hi.y ||
                b[5] < qy->lo.z || b[2] > qy->hi.z)
                continue;
            visit_landmark(qy, c->dense_slot[i]);
        }
        return;
    }
    for (int s = c->big_head; s >= 0; s = c->slot[s]->grid_next)
        if (box_reached(qy, c->slot[s])) visit_landmark(qy, s);
    for (int s = c->moving_head; s >= 0; s = c->slot[s]->grid_next)
        if (box_reached(qy, c->slot[s])) visit_landmark(qy, s);
    for (int32_t gz = (int32_t)cz0; gz <= (int32_t)cz1; gz++)
        for (int32_t gx = (int32_t)cx0; gx <= (int32_t)cx1; gx++)
            for (int s = c->bucket[gait__grid_bucket(gx, gz)]; s >= 0; s = c->slot[s]->grid_next) {
                const gait__landmark *lm = c->slot[s];
                /* buckets are shared by far cells: only this cell's landmarks */
                if (lm->gx == gx && lm->gz == gz && box_reached(qy, lm)) visit_landmark(qy, s);
            }
}

/* ---- gathers ------------------------------------------------------------------------------- */

/* The scratch a gather lays out: runs of triangles by landmark, their boxes (landmark-local
 * floats, one array per bound and axis, GATHER_GROUP spare entries so a group's load never
 * reads past the end), the same boxes again in 16-bit steps of the gather's own box, and the
 * triangles, each turned into doubles (gait__tri) the first time a query reaches it.
 *
 * The 16-bit boxes are what a query scans: GATHER_GROUP triangles' boxes to a 96-byte record
 * (an axis and bound to each 8-lane row), and each group's box, the union of its triangles',
 * GATHER_GROUP groups to a record again. A query tests 8 groups' boxes at once, then the 8
 * triangles' of each group it meets: the triangles are gathered in their trees' leaf order, so
 * a group is a small patch of the level, and a query of a corner of the gather reads a few
 * records, not every box (half the bytes of the float boxes, a line or two a query; a crowd's
 * gathers do not stay in cache from one character's step to its next).
 *
 * The steps are rounded outwards (a triangle's low bound and a query's down, the high ones up)
 * through the same float operations for both, each one monotonic: a triangle whose float box
 * meets the query's float box always meets it in steps too. A step is the gather's extent over
 * 65535 (0.1 mm for a 6 m gather; a host's 650 m gather has 1 cm steps, and its queries meet
 * more candidates), so the steps may let in a triangle lying just past the query's box: beyond
 * r + 1e-6 of the shape's whole path (the box's margin), where the kernels find nothing. The
 * answers are the float boxes', bit for bit (test_collide_brute: 10,000 queries against the
 * brute-force path, through gathers of 3 and 4096 triangles). */
#define GATHER_GROUP 8
#define QSTEPS 65535.0f
/* A run this short (a box's 12 triangles, a prop's) is scanned by its float boxes alone: the
 * steps' setup, a query's and a gather's, costs more than they spare it (the meadow's
 * heightfield and boxes: 3 % of a whole step). A gather of such runs only has no steps. */
#define STEPPED_RUN 16

typedef struct gather_run {
    gait_vec3 origin;
    int slot;
    int first, count;
    float qoff[4];              /* origin less the gather's low corner, as floats (gather_steps) */
} gather_run;

/* A gathered triangle's double form and edge planes in one record of four cache lines, not
 * lines of three arrays. The generation shares the first line with the plane and the first
 * vertex, so a triangle the plane test turns away costs one line (with the generation beside
 * the edge planes it cost two), one it passes reads three (the edge planes' two more). A record
 * is built when its generation is the gather's: a new gather writes no record, only its
 * sources. */
typedef struct gather_tri {
    _Alignas(64) uint32_t gen;  /* the gather's generation when built */
    uint32_t index, flags;      /* its source's (gait__ltri), copied when built: a hit or a
                                   contact reads them here, not from the landmark's array (a
                                   line a crowd's step has mostly evicted) */
    gait__tri t;                /* built the first time a query of this gather reaches it */
    gait__edge_memo memo;       /* the pruning's edge planes of t, the first time asked */
} gather_tri;
_Static_assert(offsetof(gather_tri, t) + offsetof(gait__tri, v) + sizeof(gait_vec3) <= 64,
               "a gathered triangle's generation, plane and first vertex share its first line");

#define BUILT_WORDS 2
typedef struct gather_mem {
    int cap;
    int runs;
    gather_run *run;
    float *bmin[3], *bmax[3];
    int16_t *qtri;              /* [groups][6][8]: the triangles' boxes in steps (gather_steps) */
    int16_t *qgroup;            /* [groups / 8 + 1][6][8]: the groups' boxes in steps */
    float qscale[4];            /* steps a metre along each axis (and a 0) */
    bool stepped;               /* the steps are worked out (a run longer than STEPPED_RUN) */
    const gait__ltri **src;     /* each triangle in its landmark (alive while the revision holds) */
    gather_tri *tri;
    uint32_t gen;               /* this gather's generation (never 0: a record's before the
                                   first gather) */
    uint64_t built[BUILT_WORDS]; /* which of the first BUILT_WORDS * 64 records (a character's
                                   own gather holds 128) this generation has built:
                                   the ones the next step's queries most likely read again
                                   (gait__gather_prefetch asks for them ahead) */
    uint32_t used;              /* the thread's mover steps when a step last went through it */
} gather_mem;

#define GATHER_ALIGN 64
static size_t align_up(size_t n) { return (n + GATHER_ALIGN - 1) & ~(size_t)(GATHER_ALIGN - 1); }

static size_t gather_layout(int cap, unsigned char *base, gather_mem **out) {
    size_t at = align_up(sizeof(gather_mem));
    size_t run_at = at;
    at += align_up((size_t)cap * sizeof(gather_run));
    size_t b_at[6];
    for (int k = 0; k < 6; k++) {
        b_at[k] = at;
        at += align_up(((size_t)cap + GATHER_GROUP) * sizeof(float));
    }
    size_t groups = ((size_t)cap + GATHER_GROUP - 1) / GATHER_GROUP;
    size_t qt_at = at;
    at += align_up(groups * 6 * GATHER_GROUP * sizeof(int16_t));
    size_t qg_at = at;
    at += align_up((groups / GATHER_GROUP + 1) * 6 * GATHER_GROUP * sizeof(int16_t));
    size_t src_at = at;
    at += align_up((size_t)cap * sizeof(const gait__ltri *));
    size_t tri_at = at;
    at += align_up((size_t)cap * sizeof(gather_tri));
    if (base) {
        gather_mem *m = (gather_mem *)(void *)base;
        m->cap = cap;
        m->runs = 0;
        m->run = (gather_run *)(void *)(base + run_at);
        for (int a = 0; a < 3; a++) {
            m->bmin[a] = (float *)(void *)(base + b_at[a]);
            m->bmax[a] = (float *)(void *)(base + b_at[3 + a]);
        }
        m->qtri = (int16_t *)(void *)(base + qt_at);
        m->qgroup = (int16_t *)(void *)(base + qg_at);
        m->src = (const gait__ltri **)(void *)(base + src_at);
        m->tri = (gather_tri *)(void *)(base + tri_at);
        m->gen = 0;
        memset(m->built, 0, sizeof m->built);
        m->stepped = false;
        m->used = 0;
        for (int i = 0; i < cap; i++) m->tri[i].gen = 0;
        *out = m;
    }
    return at;
}

#define GATHER_MAX (1 << 20)

size_t gait_gather_scratch_bytes(int capacity) {
    if (capacity < 1 || capacity > GATHER_MAX) return 0;
    return gather_layout(capacity, NULL, NULL) + GATHER_ALIGN; /* + the scratch's own alignment */
}

gait_status gait_gather_init(gait_gather *g, void *scratch, size_t bytes) {
    if (!g) return GAIT_ERR_INVALID_ARGUMENT;
    memset(g, 0, sizeof *g);
    if (!scratch) return GAIT_ERR_INVALID_ARGUMENT;
    uintptr_t p = (uintptr_t)scratch, a = (p + GATHER_ALIGN - 1) & ~(uintptr_t)(GATHER_ALIGN - 1);
    if (bytes < a - p) return GAIT_ERR_CAPACITY;
    size_t room = bytes - (size_t)(a - p);
    /* the largest capacity that fits (the layout grows with it) */
    int lo = 0, hi = GATHER_MAX;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (gather_layout(mid, NULL, NULL) <= room) lo = mid;
        else hi = mid - 1;
    }
    if (lo < 1) return GAIT_ERR_CAPACITY;
    gather_mem *m = NULL;
    gather_layout(lo, (unsigned char *)a, &m);
    g->capacity = lo;
    g->internal = m;
    return GAIT_OK;
}

static void gather_add(query *qy, const gait__ltri *s, const float lo[3], const float hi[3]) {
    gait_gather *g = qy->g;
    gather_mem *m = g->internal;
    if (g->count >= m->cap) {
        g->overflow = true;
        return;
    }
    int i = g->count++;
    for (int a = 0; a < 3; a++) {
        m->bmin[a][i] = lo[a];
        m->bmax[a][i] = hi[a];
    }
    m->src[i] = s;
}

static void gather_end_landmark(query *qy, int slot) {
    gait_gather *g = qy->g;
    gather_mem *m = g->internal;
    if (g->count == qy->run_first || g->overflow) return;
    gather_run *r = &m->run[m->runs++]; /* runs <= triangles <= cap */
    r->origin = qy->c->slot[slot]->origin;
    r->slot = slot;
    r->first = qy->run_first;
    r->count = g->count - qy->run_first;
}

/* Whether the gather holds every landmark triangle a query of box [lo, hi] can meet. */
GAIT__HOT bool gather_holds(const gait_gather *g, const gait_collider *c, gait_vec3 lo,
                            gait_vec3 hi) {
    return g->internal && g->collider == c && !g->overflow && g->revision == c->static_revision &&
           lo.x >= g->lo.x && lo.y >= g->lo.y && lo.z >= g->lo.z && hi.x <= g->hi.x &&
           hi.y <= g->hi.y && hi.z <= g->hi.z;
}

/* Mask of the 4 boxes from i on (of the arrays mn, mx: a bound and axis each) that meet the
 * query's box. */
static inline unsigned boxes_hit(float *const mn[3], float *const mx[3], int i, const float lo[3],
                                 const float hi[3]) {
#if defined(__SSE2__)
    __m128 k = _mm_and_ps(_mm_cmpge_ps(_mm_loadu_ps(mx[0] + i), _mm_set1_ps(lo[0])),
                          _mm_cmple_ps(_mm_loadu_ps(mn[0] + i), _mm_set1_ps(hi[0])));
    k = _mm_and_ps(k, _mm_and_ps(_mm_cmpge_ps(_mm_loadu_ps(mx[1] + i), _mm_set1_ps(lo[1])),
                                 _mm_cmple_ps(_mm_loadu_ps(mn[1] + i), _mm_set1_ps(hi[1]))));
    k = _mm_and_ps(k, _mm_and_ps(_mm_cmpge_ps(_mm_loadu_ps(mx[2] + i), _mm_set1_ps(lo[2])),
                                 _mm_cmple_ps(_mm_loadu_ps(mn[2] + i), _mm_set1_ps(hi[2]))));
    return (unsigned)_mm_movemask_ps(k);
#else
    unsigned mask = 0;
    for (int j = 0; j < 4; j++)
        if (mx[0][i + j] >= lo[0] && mn[0][i + j] <= hi[0] && mx[1][i + j] >= lo[1] &&
            mn[1][i + j] <= hi[1] && mx[2][i + j] >= lo[2] && mn[2][i + j] <= hi[2])
            mask |= 1u << j;
    return mask;
#endif
}
static inline unsigned gather_hits(const gather_mem *m, int i, const float lo[3], const float hi[3]) {
    return boxes_hit(m->bmin, m->bmax, i, lo, hi);
}

/* Landmark-local float coordinates in steps: (f + off) * scale, clamped to the steps, rounded
 * down (or up), biased to int16. Each operation is monotonic, so is the whole. */
static inline int16_t to_step(float f, float off, float scale, bool up) {
    float v = (f + off) * scale;
    v = v > 0 ? v : 0;
    v = v < QSTEPS ? v : QSTEPS;
    int i = (int)v;
    if (up && (float)i < v) i++;
    return (int16_t)(i - 32768);
}

#if defined(__SSE2__)
/* to_step of four lanes, as 32-bit lanes (the same bits: the same float operations; a NaN in
 * a spare lane becomes 0, as MAXPS takes its second operand then) */
static inline __m128i to_steps4(__m128 f, __m128 off, __m128 scale, bool up) {
    __m128 v = _mm_mul_ps(_mm_add_ps(f, off), scale);
    v = _mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(QSTEPS));
    __m128i i = _mm_cvttps_epi32(v); /* v >= 0: rounded down */
    if (up) i = _mm_sub_epi32(i, _mm_castps_si128(_mm_cmplt_ps(_mm_cvtepi32_ps(i), v)));
    return _mm_sub_epi32(i, _mm_set1_epi32(32768));
}
#endif

/* The query's box (its landmark-local floats in qy->flo, qy->fhi) in a run's steps. */
static inline void query_steps(const query *qy, const gather_mem *m, const gather_run *run,
                               int16_t lo[4], int16_t hi[4]) {
#if defined(__SSE2__)
    __m128 off = _mm_loadu_ps(run->qoff), sc = _mm_loadu_ps(m->qscale);
    __m128i l = to_steps4(_mm_set_ps(0, qy->flo[2], qy->flo[1], qy->flo[0]), off, sc, false);
    __m128i h = to_steps4(_mm_set_ps(0, qy->fhi[2], qy->fhi[1], qy->fhi[0]), off, sc, true);
    _mm_storel_epi64((__m128i *)(void *)lo, _mm_packs_epi32(l, l)); /* within int16 */
    _mm_storel_epi64((__m128i *)(void *)hi, _mm_packs_epi32(h, h));
#else
    for (int k = 0; k < 3; k++) {
        lo[k] = to_step(qy->flo[k], run->qoff[k], m->qscale[k], false);
        hi[k] = to_step(qy->fhi[k], run->qoff[k], m->qscale[k], true);
    }
#endif
}

/* The run each triangle of group b lies in, when all its n lanes lie in one (else -1). */
static int group_run(const gather_mem *m, int b, int n, int *r) {
    int j = b * GATHER_GROUP;
    while (*r < m->runs && m->run[*r].first + m->run[*r].count <= j) (*r)++;
    const gather_run *run = &m->run[*r];
    return j + n <= run->first + run->count ? *r : -1;
}

/* The least (or, up, the greatest) of a row's first n lanes. */
static inline int16_t row_union(const int16_t *row, int n, bool up) {
#if defined(__SSE2__)
    __m128i v = _mm_load_si128((const __m128i *)(const void *)row);
    __m128i in = _mm_cmplt_epi16(_mm_set_epi16(7, 6, 5, 4, 3, 2, 1, 0), _mm_set1_epi16((short)n));
    __m128i fill = _mm_set1_epi16(up ? -32768 : 32767);
    v = _mm_or_si128(_mm_and_si128(in, v), _mm_andnot_si128(in, fill));
    if (up) {
        v = _mm_max_epi16(v, _mm_shuffle_epi32(v, 0x4e));
        v = _mm_max_epi16(v, _mm_shuffle_epi32(v, 0xb1));
        v = _mm_max_epi16(v, _mm_srli_epi32(v, 16));
    } else {
        v = _mm_min_epi16(v, _mm_shuffle_epi32(v, 0x4e));
        v = _mm_min_epi16(v, _mm_shuffle_epi32(v, 0xb1));
        v = _mm_min_epi16(v, _mm_srli_epi32(v, 16));
    }
    return (int16_t)_mm_cvtsi128_si32(v);
#else
    int16_t v = row[0];
    for (int i = 1; i < n; i++) v = up ? (row[i] > v ? row[i] : v) : (row[i] < v ? row[i] : v);
    return v;
#endif
}

/* The gather's boxes in steps: each triangle's, then each group's (the union of its own). */
static void gather_steps(gait_gather *g) {
    gather_mem *m = g->internal;
    m->stepped = false;
    for (int r = 0; r < m->runs; r++) m->stepped |= m->run[r].count > STEPPED_RUN;
    if (!m->stepped) return;
    double ext[3] = {g->hi.x - g->lo.x, g->hi.y - g->lo.y, g->hi.z - g->lo.z};
    for (int k = 0; k < 3; k++) m->qscale[k] = ext[k] > 0 ? (float)(QSTEPS / ext[k]) : 0;
    m->qscale[3] = 0;
    for (int r = 0; r < m->runs; r++) {
        gather_run *run = &m->run[r];
        run->qoff[0] = (float)(run->origin.x - g->lo.x);
        run->qoff[1] = (float)(run->origin.y - g->lo.y);
        run->qoff[2] = (float)(run->origin.z - g->lo.z);
        run->qoff[3] = 0;
    }
    for (int b = 0, r = 0; b * GATHER_GROUP < g->count; b++) {
        int j0 = b * GATHER_GROUP, n = g->count - j0 < GATHER_GROUP ? g->count - j0 : GATHER_GROUP;
        int one = group_run(m, b, n, &r);
        (void)one; /* (read by the SSE2 path only) */
        int16_t *q = m->qtri + b * 6 * GATHER_GROUP;
        int16_t *u = m->qgroup + (b / GATHER_GROUP) * 6 * GATHER_GROUP + b % GATHER_GROUP;
        for (int k = 0; k < 6; k++) {
            const float *src = (k < 3 ? m->bmin[k] : m->bmax[k - 3]) + j0;
            int16_t *row = q + k * GATHER_GROUP;
            bool up = k >= 3;
#if defined(__SSE2__)
            if (one >= 0) {
                /* (the float arrays have GATHER_GROUP spare entries past the last triangle) */
                __m128 off = _mm_set1_ps(m->run[one].qoff[k % 3]);
                __m128 sc = _mm_set1_ps(m->qscale[k % 3]);
                __m128i v = _mm_packs_epi32(to_steps4(_mm_loadu_ps(src), off, sc, up),
                                            to_steps4(_mm_loadu_ps(src + 4), off, sc, up));
                _mm_store_si128((__m128i *)(void *)row, v);
            } else
#endif
            {
                for (int i = 0, rr = r; i < n; i++) {
                    while (m->run[rr].first + m->run[rr].count <= j0 + i) rr++;
                    row[i] = to_step(src[i], m->run[rr].qoff[k % 3], m->qscale[k % 3], up);
                }
            }
            u[k * GATHER_GROUP] = row_union(row, n, up);
        }
    }
}

/* Mask of the 8 boxes of a record (6 rows of 8: low x, y, z, high x, y, z) that meet the
 * query's box in steps (lo, hi). */
static inline unsigned steps_hit(const int16_t *rec, const int16_t lo[3], const int16_t hi[3]) {
#if defined(__SSE2__)
    const __m128i *r = (const __m128i *)(const void *)rec;
    __m128i miss = _mm_or_si128(_mm_cmpgt_epi16(_mm_load_si128(r + 0), _mm_set1_epi16(hi[0])),
                                _mm_cmplt_epi16(_mm_load_si128(r + 3), _mm_set1_epi16(lo[0])));
    miss = _mm_or_si128(miss, _mm_cmpgt_epi16(_mm_load_si128(r + 1), _mm_set1_epi16(hi[1])));
    miss = _mm_or_si128(miss, _mm_cmplt_epi16(_mm_load_si128(r + 4), _mm_set1_epi16(lo[1])));
    miss = _mm_or_si128(miss, _mm_cmpgt_epi16(_mm_load_si128(r + 2), _mm_set1_epi16(hi[2])));
    miss = _mm_or_si128(miss, _mm_cmplt_epi16(_mm_load_si128(r + 5), _mm_set1_epi16(lo[2])));
    return ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(miss, _mm_setzero_si128())) & 0xffu;
#else
    unsigned mask = 0;
    for (int j = 0; j < GATHER_GROUP; j++) {
        bool meets = true;
        for (int k = 0; k < 3; k++)
            meets = meets && rec[k * GATHER_GROUP + j] <= hi[k] &&
                    rec[(3 + k) * GATHER_GROUP + j] >= lo[k];
        if (meets) mask |= 1u << j;
    }
    return mask;
#endif
}

/* steps_hit of the record whose lane 0 is item `base`, of the items [from, to] only. */
static inline unsigned record_hits(const int16_t *rec, const int16_t lo[3], const int16_t hi[3],
                                   int base, int from, int to) {
    int a = from > base ? from - base : 0, b = to < base + 7 ? to - base : 7;
    return steps_hit(rec, lo, hi) & (0xffu >> (7 - b)) & (0xffu << a);
}

/* Gathered triangle j in doubles (built the first time a query reaches it). */
static inline gait__tri *gathered_built(gather_mem *m, int j) {
    gather_tri *s = &m->tri[j];
    if (s->gen != m->gen) {
        const gait__ltri *src = m->src[j];
        ltri_to_tri(src->v, src->flags, &s->t);
        s->index = src->index;
        s->flags = src->flags;
        if (j < BUILT_WORDS * 64) m->built[j >> 6] |= 1ull << (j & 63);
        s->memo.ready = false;
        s->gen = m->gen;
    }
    return &s->t;
}

/* Gathered triangle j through the kernel. */
static void gathered_tri(query *qy, gather_mem *m, int j) {
    gait__tri *t = gathered_built(m, j);
    on_tri(qy, t, (int)m->tri[j].index, m->tri[j].flags, &m->tri[j].memo);
}

#define GATHER_SORT 128 /* a sweep's candidates put in order of their bounds (the rest after) */
#define GATHER_OVER 1024 /* a sweep's candidates past those, each still held to the best hit */

/* The candidates of one run a query's box meets, in order of the earliest each can be met; a
 * sweep's past GATHER_SORT in `over`, tested after the ordered ones against the best hit they
 * left (a climber pressed to a finely cut wall meets hundreds, nearly all beyond its first hit). */
typedef struct cand_list {
    int n, no;
    double when[GATHER_SORT];
    int tri[GATHER_SORT];
    gait__sweep_pre pre[GATHER_SORT];
    int over[GATHER_OVER];
} cand_list;

static void cand_insert(cand_list *cl, double e, int j, const gait__sweep_pre *pre) {
    int at = cl->n++;
    while (at > 0 && cl->when[at - 1] > e) {
        cl->when[at] = cl->when[at - 1];
        cl->tri[at] = cl->tri[at - 1];
        if (pre) cl->pre[at] = cl->pre[at - 1];
        at--;
    }
    cl->when[at] = e;
    cl->tri[at] = j;
    if (pre) cl->pre[at] = *pre;
}

/* Entry time of a long query's centre ray into gathered triangle j's box (false: it misses). */
GAIT__HOT bool box_entry(const query *qy, const gather_mem *m, int j, double *e) {
    double lo[3] = {m->bmin[0][j], m->bmin[1][j], m->bmin[2][j]};
    double hi[3] = {m->bmax[0][j], m->bmax[1][j], m->bmax[2][j]};
    return slab(qy->lcen, qy->ld, lo, hi, qy->lext, 1.0, e);
}

/* A short sweep's kept tree candidates through the kernel, in order of their bounds. */
static void tree_sweep_kept(query *qy, tree_cands *tc) {
    if (tc->n == 1) {
        on_tri(qy, &tc->tri[0], tc->index[0], 0, &tc->memo[0]);
        return;
    }
    cand_list cl;
    cl.n = 0;
    double dl = v3_len(qy->ld); /* the frame's motion (a turned landmark's turned) */
    for (int k = 0; k < tc->n; k++) {
        gait__sweep_pre pre;
        double e = gait__sweep_tri_bound(qy->lp, qy->lq, qy->r, qy->ld, dl, &tc->tri[k], &tc->memo[k], &pre);
        if (!(e <= 1) || (qy->found && e > qy->best_t)) continue;
        cand_insert(&cl, e, k, &pre);
    }
    for (int i = 0; i < cl.n; i++) {
        if (qy->found && cl.when[i] > qy->best_t) break; /* met after the best hit, if at all */
        int k = cl.tri[i];
        gait__tri_hit h;
        if (gait__sweep_tri_pre(qy->lp, qy->lq, qy->r, qy->ld, &tc->tri[k], &h, &tc->memo[k], &cl.pre[i]))
            take_hit(qy, &h, tc->index[k]);
    }
    for (int i = 0; i < tc->no; i++) {
        const gait__ltri *s = tc->over[i];
        gait__tri t;
        gait__edge_memo memo;
        ltri_to_tri(s->v, s->flags, &t);
        memo.ready = false;
        sweep_past(qy, &t, &memo, dl, (int)s->index);
    }
}

/* Gathered triangle j, its box met by the query's: through the kernel at once (direct, or past
 * GATHER_SORT candidates), else kept in cl for the ordered pass. */
static inline void gathered_cand(query *qy, gather_mem *m, int j, cand_list *cl, int *nc, bool direct) {
    if (qy->region_filter) {
        float lo[3] = {m->bmin[0][j], m->bmin[1][j], m->bmin[2][j]};
        float hi[3] = {m->bmax[0][j], m->bmax[1][j], m->bmax[2][j]};
        if (region_skips(qy, lo, hi)) return;
    }
    if (!direct && *nc == GATHER_SORT && qy->kind == Q_SWEEP && cl->no < GATHER_OVER) {
        cl->over[cl->no++] = j;
        return;
    }
    if (direct || *nc == GATHER_SORT) {
        gathered_tri(qy, m, j); /* in the gather's order: nothing depends on it */
        return;
    }
    cl->tri[(*nc)++] = j;
}

/* The gathered triangles of [from, to) whose float boxes meet the query's, four at a time,
 * through gathered_cand. */
static inline void gathered_stretch(query *qy, gather_mem *m, int from, int to, cand_list *cl,
                                    int *nc, bool direct) {
    for (int i = from; i < to; i += 4) {
        unsigned mask = gather_hits(m, i, qy->flo, qy->fhi);
        if (to - i < 4) mask &= (1u << (to - i)) - 1;
        while (mask) {
            int j = i + __builtin_ctz(mask);
            mask &= mask - 1;
            gathered_cand(qy, m, j, cl, nc, direct);
        }
    }
}

/* The gathered triangles of a run whose boxes meet the query's box, through gathered_cand in
 * the gather's order: 8 groups' boxes at a time in steps, then 8 triangles' of each group met
 * (a short run: by its float boxes). */
static inline void gathered_run(query *qy, gather_mem *m, const gather_run *run,
                                cand_list *cl, int *nc, bool direct) {
    if (!m->stepped || run->count <= STEPPED_RUN) {
        gathered_stretch(qy, m, run->first, run->first + run->count, cl, nc, direct);
        return;
    }
    int16_t lo[4], hi[4];
    query_steps(qy, m, run, lo, hi);
    int first = run->first, last = run->first + run->count - 1;
    int g0 = first / GATHER_GROUP, g1 = last / GATHER_GROUP;
    for (int s = g0 / GATHER_GROUP; s <= g1 / GATHER_GROUP; s++) {
        int base = s * GATHER_GROUP;
        unsigned gm = record_hits(m->qgroup + s * 6 * GATHER_GROUP, lo, hi, base, g0, g1);
        while (gm) {
            int b = base + __builtin_ctz(gm);
            gm &= gm - 1;
            int t0 = b * GATHER_GROUP;
            unsigned tm = record_hits(m->qtri + b * 6 * GATHER_GROUP, lo, hi, t0, first, last);
            while (tm) {
                int j = t0 + __builtin_ctz(tm);
                tm &= tm - 1;
                gathered_cand(qy, m, j, cl, nc, direct);
            }
        }
    }
}

/* A run's nc candidates (cl->tri[0..nc)) through the kernel in order of the earliest each can
 * be met: a sweep's bounds (gait__sweep_tri_bound; a long sweep's also its centre's entry into
 * the triangle's box, as the trees order their nodes), a long ray's entry into their boxes, all
 * worked out and sorted first (cl->tri[k] is read before cand_insert writes it: the insertion
 * fills slots below k + 1 only). */
static void ordered(query *qy, gather_mem *m, cand_list *cl, int nc, double dl, bool sweep, bool timed) {
    cl->n = 0;
    for (int k = 0; k < nc; k++) {
        int j = cl->tri[k];
        double e;
        if (sweep) {
            gait__sweep_pre pre;
            e = gait__sweep_tri_bound(qy->lp, qy->lq, qy->r, qy->ld, dl, gathered_built(m, j),
                                      &m->tri[j].memo, &pre);
            if (!(e <= 1) || (qy->found && e > qy->best_t)) continue;
            double s;
            if (timed) {
                if (!box_entry(qy, m, j, &s)) continue;
                if (s > e) e = s;
            }
            cand_insert(cl, e, j, &pre);
        } else {
            if (!box_entry(qy, m, j, &e)) continue;
            cand_insert(cl, e, j, NULL);
        }
    }
    for (int k = 0; k < cl->n; k++) {
        if (qy->found && cl->when[k] > qy->best_t) break; /* met after the best hit, if at all */
        int j = cl->tri[k];
        if (!sweep) {
            gathered_tri(qy, m, j);
            continue;
        }
        gait__tri_hit h;
        if (gait__sweep_tri_pre(qy->lp, qy->lq, qy->r, qy->ld, &m->tri[j].t, &h, &m->tri[j].memo,
                                &cl->pre[k]))
            take_hit(qy, &h, (int)m->tri[j].index);
    }
}

/* A long sweep with this many candidates or fewer takes the plain `ordered` pass. Measured by
 * instructions per character-step on the 9 benchmark scenes, against putting off the bounds from
 * 3 candidates on: from 2 on cost 0.0-0.1 % more, from 9 on cost the whole step 0.0-0.4 % more
 * (the level's the most). */
#define LAZY_BOUNDS 2

/* A long sweep's nc candidates (cl->tri[0..nc), the gathered triangles its box meets) through
 * the kernel, best first, their bounds worked out only when needed. Each is keyed first by its
 * centre's entry into its box (box_entry, a slab test); when a candidate's key comes first its
 * bound is worked out and its key raised to the later of the two; when a bounded key comes first
 * its kernel runs, and once the best hit comes before the first key the rest are left. Every key
 * is a lower bound of its candidate's hit, so the kernels run in the order of the later of bound
 * and entry, and only those, as in `ordered`, where every bound is worked out and sorted first:
 * the hit is the same bits. But no bound is worked out for a triangle whose box the hit comes
 * before: a climber's scan straight into a rounded prop (a ball of 320 triangles) met some 240
 * of them, and the hit came before a hundred of the first 128's boxes.
 * Slot k (the candidate's place in cl->tri) holds its key in cl->when[k] and its bound's
 * workings in cl->pre[k]; `order` holds the slots by key. */
static void timed_sweep(query *qy, gather_mem *m, cand_list *cl, int nc, double dl) {
    uint8_t order[GATHER_SORT];
    bool bounded[GATHER_SORT];
    int n = 0;
    for (int k = 0; k < nc; k++) {
        double s;
        if (!box_entry(qy, m, cl->tri[k], &s) || (qy->found && s > qy->best_t)) continue;
        cl->when[k] = s;
        bounded[k] = false;
        int at = n++;
        while (at > 0 && cl->when[order[at - 1]] > s) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = (uint8_t)k;
    }
    int h = 0;
    while (h < n) {
        int k = order[h], j = cl->tri[k];
        if (qy->found && cl->when[k] > qy->best_t) break; /* met after the best hit, if at all */
        if (!bounded[k]) {
            double e = gait__sweep_tri_bound(qy->lp, qy->lq, qy->r, qy->ld, dl, gathered_built(m, j),
                                             &m->tri[j].memo, &cl->pre[k]);
            if (!(e <= 1) || (qy->found && e > qy->best_t)) {
                h++;
                continue;
            }
            if (e > cl->when[k]) cl->when[k] = e;
            bounded[k] = true;
            /* back to its place by the raised key */
            int at = h;
            while (at + 1 < n && cl->when[order[at + 1]] < cl->when[k]) {
                order[at] = order[at + 1];
                at++;
            }
            order[at] = (uint8_t)k;
            continue;
        }
        h++;
        gait__tri_hit hit;
        if (gait__sweep_tri_pre(qy->lp, qy->lq, qy->r, qy->ld, &m->tri[j].t, &hit, &m->tri[j].memo,
                                &cl->pre[k]))
            take_hit(qy, &hit, (int)m->tri[j].index);
    }
}

/* A query answered from the gather: the terrain as usual, then the gathered triangles by
 * landmark (gathered_run). A sweep with more than one candidate takes them in order of the
 * earliest each can be met (`ordered`; a long one with more than LAZY_BOUNDS, `timed_sweep`), so
 * the first hits found bound the rest and the walk stops at the first candidate that cannot beat
 * the best; a long ray's go in order of its entry into their boxes (its kernel is cheap). */
static void walk_gathered(query *qy, gait_gather *g) {
    const gait_collider *c = qy->c;
    const gait_filter *f = qy->f;
    if (c->terrain.present && !(f && f->skip_terrain)) walk_terrain(qy);
    if (f && f->skip_landmarks) return;
    gather_mem *m = g->internal;
    bool timed = is_timed(qy), sweep = qy->kind == Q_SWEEP;
    /* |d| in the gathered frames (never turned: the motion is the world's) */
    double dl = sweep ? v3_len(qy->d) : 0;
    cand_list cl;
    for (int r = 0; r < m->runs; r++) {
        const gather_run *run = &m->run[r];
        if (!enter_landmark(qy, run->slot, run->origin, NULL)) continue; /* static ones only */
        int nc = 0;
        cl.no = 0;
        gathered_run(qy, m, run, &cl, &nc, !timed && !sweep);
        if (nc == 0) continue;
        if (sweep && nc == 1 && !timed) {
            gathered_tri(qy, m, cl.tri[0]);
            continue;
        }
        if (sweep && timed && nc > LAZY_BOUNDS) timed_sweep(qy, m, &cl, nc, dl);
        else ordered(qy, m, &cl, nc, dl, sweep, timed);
        for (int k = 0; k < cl.no; k++) {
            int j = cl.over[k];
            double s; /* a long sweep's centre enters the box no sooner than the hit can come */
            if (timed && (!box_entry(qy, m, j, &s) || (qy->found && s > qy->best_t))) continue;
            gait__tri *t = gathered_built(m, j); /* first: it writes the index read below */
            sweep_past(qy, t, &m->tri[j].memo, dl, (int)m->tri[j].index);
        }
    }
    /* the moving landmarks are never gathered: through their trees, where they are now */
    for (int s = c->moving_head; s >= 0; s = c->slot[s]->grid_next)
        if (box_reached(qy, c->slot[s])) visit_landmark(qy, s);
}

/* ---- setup and the public entry points -------------------------------------------------- */

GAIT__HOT bool filter_valid(const gait_filter *f) {
    if (!f) return true;
    if (!(f->walkable_slope >= 0 && f->walkable_slope < 1.57079632679489661923)) return false;
    if (f->ignore_region_only && (!v3_finite(f->region_min) || !v3_finite(f->region_max)))
        return false;
    return true;
}

GAIT__HOT void query_init(query *qy, const gait_collider *c, const gait_filter *f, int kind,
                          gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, int brute) {
    /* every member a query reads before it writes it, one by one: a query is set up a dozen
     * times a step, and clearing the whole (hit and frame included) cost more than its use */
    qy->kind = kind;
    qy->brute = brute;
    qy->c = c;
    qy->f = f;
    /* only an overlap classifies its contacts (a cos() call otherwise spent on every query) */
    qy->cos_walk = kind != Q_OVERLAP ? 0
                 : (f && f->walkable_slope > 0) ? cos(f->walkable_slope) : c->cos_walkable;
    qy->cos_ceil = c->cos_ceiling;
    qy->framed = false;
    qy->lm.index1 = 0;
    qy->lm.generation = 0;
    qy->lmp = NULL;
    qy->region_filter = false;
    qy->out = NULL;
    qy->cap = qy->n = 0;
    qy->truncated = false;
    qy->distinct = false;
    qy->found = false;
    qy->best_t = 1.0;
    qy->g = NULL;
    qy->run_first = 0;
    qy->p = p;
    qy->q = q;
    qy->r = r;
    qy->d = d;
    gait_vec3 lo = box_min(p, q), hi = box_max(p, q);
    lo = box_min(lo, v3_add(lo, d));
    hi = box_max(hi, v3_add(hi, d));
    /* 1e-6 m beyond r: boxes are compared with rounding on the safe side */
    double g = r + 1e-6;
    qy->lo = v3_sub(lo, v3(g, g, g));
    qy->hi = v3_add(hi, v3(g, g, g));
}

/* The box of a sweep's or ray's shape over its motion up to time t (grown as query_init's). */
static void motion_box(const query *qy, double t, gait_vec3 *lo, gait_vec3 *hi) {
    gait_vec3 dt = v3_scale(qy->d, t);
    gait_vec3 a = box_min(qy->p, qy->q), b = box_max(qy->p, qy->q);
    a = box_min(a, v3_add(a, dt));
    b = box_max(b, v3_add(b, dt));
    double g = qy->r + 1e-6;
    *lo = v3_sub(a, v3(g, g, g));
    *hi = v3_add(b, v3(g, g, g));
}

/* Runs the query: from the gather when it holds the query's box, else through the trees. A
 * sweep or ray that leaves the gather may still be answered by it: when the gathered triangles
 * give a hit at time t and the shape's box up to t (a hair past it, for ties) lies in the
 * gather, every triangle that could be met at or before t was gathered, so that hit is the
 * trees' too. */
GAIT__HOT void run(query *qy, gait_gather *g) {
    if (!g || !g->internal || g->collider != qy->c || g->overflow ||
        g->revision != qy->c->static_revision) {
        walk(qy);
        return;
    }
    if (gather_holds(g, qy->c, qy->lo, qy->hi)) {
        walk_gathered(qy, g);
        return;
    }
    /* (not a long ray straight down, the height probe under a body in the air: it mostly meets
     * its floor below the gather, and its own walk of the trees, walk_down, costs little more
     * than the gathered try) */
    if (qy->kind == Q_SWEEP || (qy->kind == Q_RAY && !(qy->d.x == 0 && qy->d.z == 0 && is_timed(qy)))) {
        query tried = *qy;
        walk_gathered(&tried, g);
        if (tried.found) {
            gait_vec3 lo, hi;
            motion_box(&tried, fmin(1.0, tried.best_t + 1e-9), &lo, &hi);
            /* the trees' answer all the same: the gathered hit is one of theirs, so the walk
             * starts from it and skips every node entered after it */
            *qy = tried;
            if (gather_holds(g, qy->c, lo, hi)) return;
        }
    }
    walk(qy);
}

static int overlap_run(const gait_collider *c, gait_gather *g, const gait_capsule *capsule,
                       const gait_filter *filter, gait_contact_point *out, int capacity,
                       bool *truncated, int brute, bool distinct) {
    if (truncated) *truncated = false;
    if (!c || !capsule || capacity < 0 || (!out && capacity > 0)) return -1;
    if (!v3_finite(capsule->a) || !v3_finite(capsule->b) || !(capsule->radius > 0) ||
        !isfinite(capsule->radius) || !filter_valid(filter))
        return -1;
    if (filter && filter->skip_terrain && filter->skip_landmarks) return 0; /* asks for nothing */
    query qy;
    query_init(&qy, c, filter, Q_OVERLAP, capsule->a, capsule->b, capsule->radius, v3(0, 0, 0), brute);
    qy.out = out;
    qy.cap = capacity;
    qy.distinct = distinct;
    run(&qy, g);
    sort_contacts(out, qy.n);
    if (truncated) *truncated = qy.truncated;
    return qy.n;
}

int gait__capsule_overlap_ex(const gait_collider *c, const gait_capsule *capsule,
                             const gait_filter *filter, gait_contact_point *out, int capacity,
                             bool *truncated, int brute) {
    return overlap_run(c, NULL, capsule, filter, out, capacity, truncated, brute, false);
}

int gait_collider_capsule_overlap(const gait_collider *c, const gait_capsule *capsule,
                                  const gait_filter *filter, gait_contact_point *out,
                                  int capacity, bool *truncated) {
    return overlap_run(c, NULL, capsule, filter, out, capacity, truncated, 0, false);
}

static void fill_hit(const query *qy, gait_vec3 delta, double skin, gait_hit *out) {
    double len = v3_len(delta);
    double frac = qy->best_t;
    /* stop `skin` metres short along the motion, never behind the start */
    if (skin > 0 && len > 0) frac = fmax(0.0, frac - skin / len);
    out->fraction = frac;
    out->distance = frac * len;
    out->point = qy->best.point;
    out->normal = qy->best.normal;
    out->landmark = qy->best_id;
    out->triangle = qy->best_tri;
    out->start_solid = qy->best.start_solid;
    out->back = qy->best.back;
}

static bool sweep_run(const gait_collider *c, gait_gather *g, const gait_capsule *capsule,
                      gait_vec3 delta, const gait_filter *filter, gait_hit *out, int brute) {
    if (!c || !capsule || !v3_finite(capsule->a) || !v3_finite(capsule->b) ||
        !(capsule->radius > 0) || !isfinite(capsule->radius) || !v3_finite(delta) ||
        !filter_valid(filter))
        return false;
    if (filter && filter->skip_terrain && filter->skip_landmarks) return false;
    query qy;
    query_init(&qy, c, filter, Q_SWEEP, capsule->a, capsule->b, capsule->radius, delta, brute);
    run(&qy, g);
    if (!qy.found) return false;
    if (out) fill_hit(&qy, delta, c->def.sweep_skin, out);
    return true;
}

bool gait__capsule_sweep_ex(const gait_collider *c, const gait_capsule *capsule, gait_vec3 delta,
                            const gait_filter *filter, gait_hit *out, int brute) {
    return sweep_run(c, NULL, capsule, delta, filter, out, brute);
}

bool gait_collider_capsule_sweep(const gait_collider *c, const gait_capsule *capsule,
                                 gait_vec3 delta, const gait_filter *filter, gait_hit *out) {
    return sweep_run(c, NULL, capsule, delta, filter, out, 0);
}

bool gait_collider_sphere_cast(const gait_collider *c, gait_vec3 from, double radius,
                               gait_vec3 delta, const gait_filter *filter, gait_hit *out) {
    gait_capsule cap = {from, from, radius};
    return sweep_run(c, NULL, &cap, delta, filter, out, 0);
}

static bool ray_run(const gait_collider *c, gait_gather *g, gait_vec3 origin, gait_vec3 delta,
                    const gait_filter *filter, gait_hit *out, int brute) {
    if (!c || !v3_finite(origin) || !v3_finite(delta) || !filter_valid(filter)) return false;
    if (v3_len2(delta) == 0) return false;
    if (filter && filter->skip_terrain && filter->skip_landmarks) return false;
    query qy;
    query_init(&qy, c, filter, Q_RAY, origin, origin, 0, delta, brute);
    run(&qy, g);
    if (!qy.found) return false;
    if (out) fill_hit(&qy, delta, 0, out); /* a ray reports the exact surface, no skin */
    return true;
}

int gait__ray_down_above(const gait_collider *c, gait_gather *g, gait_vec3 origin,
                         gait_vec3 delta, const gait_filter *filter, double floor_y,
                         gait_hit *out) {
    if (!c || !v3_finite(origin) || !v3_finite(delta) || !isfinite(floor_y) ||
        !filter_valid(filter) || delta.x != 0 || delta.z != 0 || !(delta.y < 0) ||
        !(floor_y < origin.y) || (filter && filter->skip_terrain && filter->skip_landmarks))
        return 0;
    query qy;
    query_init(&qy, c, filter, Q_RAY, origin, origin, 0, delta, 0);
    /* nothing wholly below floor_y is looked at: the trees' and the gather's box tests cull it,
     * and a gather that holds the column down to there answers alone */
    if (floor_y > qy.lo.y) qy.lo.y = floor_y;
    run(&qy, g && g->collider == c ? g : NULL);
    if (!qy.found) return 0;
    gait_hit h;
    fill_hit(&qy, delta, 0, &h);
    /* a hit this far above the floor is the whole ray's: every triangle the ray meets no lower
     * (ties included) reaches above the floor, so none of them was culled */
    if (!(h.point.y >= floor_y + DOWN_ABOVE_MARGIN)) return 0;
    if (out) *out = h;
    return 1;
}

bool gait__ray_cast_ex(const gait_collider *c, gait_vec3 origin, gait_vec3 delta,
                       const gait_filter *filter, gait_hit *out, int brute) {
    return ray_run(c, NULL, origin, delta, filter, out, brute);
}

bool gait_collider_ray_cast(const gait_collider *c, gait_vec3 origin, gait_vec3 delta,
                            const gait_filter *filter, gait_hit *out) {
    return ray_run(c, NULL, origin, delta, filter, out, 0);
}

/* ---- gathered queries ----------------------------------------------------------------------- */

gait_status gait_collider_gather(const gait_collider *c, gait_vec3 lo, gait_vec3 hi, gait_gather *g) {
    if (!g || !g->internal) return GAIT_ERR_INVALID_ARGUMENT;
    gather_mem *m = g->internal;
    g->collider = NULL;
    g->count = 0;
    g->overflow = false;
    m->runs = 0;
    /* a new generation: every record unbuilt (once in 2^32 gathers, each marked so) */
    memset(m->built, 0, sizeof m->built);
    if (++m->gen == 0) {
        for (int i = 0; i < m->cap; i++) m->tri[i].gen = 0;
        m->gen = 1;
    }
    if (!c || !v3_finite(lo) || !v3_finite(hi) || !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z))
        return GAIT_ERR_INVALID_ARGUMENT;
    g->collider = c;
    g->revision = c->static_revision;
    g->lo = lo;
    g->hi = hi;
    /* a box query of the landmarks alone: the terrain is read per query (it is a function) */
    gait_filter f;
    memset(&f, 0, sizeof f);
    f.skip_terrain = true;
    query qy;
    query_init(&qy, c, &f, Q_GATHER, lo, hi, 0, v3(0, 0, 0), 0);
    qy.g = g;
    walk(&qy);
    if (g->overflow) {
        g->count = 0;
        m->runs = 0;
    }
    gather_steps(g);
    return GAIT_OK;
}

void gait__gather_prefetch(const gait_gather *g, int stage) {
    if (stage == 0) {
        __builtin_prefetch(g);
        return;
    }
    const gather_mem *m = g->internal;
    if (!m) return;
    __builtin_prefetch(m);
    if (stage == 1) return;
    __builtin_prefetch(m->run);
    /* the records its queries built: a query reads each one's lines one after another as its
     * candidates come up (their plane and first vertex, the other two, the edge planes) */
    for (int w = 0; w < BUILT_WORDS; w++)
        for (uint64_t b = m->built[w]; b; b &= b - 1) {
            const char *r = (const char *)&m->tri[w * 64 + __builtin_ctzll(b)];
            for (size_t at = 0; at < sizeof(gather_tri); at += 64) __builtin_prefetch(r + at);
        }
    if (!m->stepped) {
        for (int k = 0; k < 3; k++) {
            __builtin_prefetch(m->bmin[k]);
            __builtin_prefetch(m->bmax[k]);
        }
        return;
    }
    __builtin_prefetch(m->qgroup);
    for (int i = 0; i < g->count; i += GATHER_GROUP) {
        const char *q = (const char *)(m->qtri + i * 6);
        __builtin_prefetch(q);
        __builtin_prefetch(q + 64);
    }
}

/* Mover steps on this thread (gait_mover_step), each going through a gather or none: the gap
 * since a gather's last step says how much other data went through the core's caches since. */
static _Thread_local uint32_t mover_steps;

bool gait__gather_cold(gait_gather *g, uint32_t gap) {
    uint32_t now = ++mover_steps;
    gather_mem *m = g ? g->internal : NULL;
    if (!m) return false;
    uint32_t last = m->used;
    m->used = now;
    return now - last > gap;
}

bool gait_gather_holds(const gait_gather *g, gait_vec3 lo, gait_vec3 hi) {
    return g && g->collider && gather_holds(g, g->collider, lo, hi);
}

/* Whether the terrain may reach the box: any sample of the cells under its footprint as high as
 * its bottom (a cell's two triangles lie between its corner samples). */
static bool terrain_may_reach(const gait__terrain *t, gait_vec3 lo, gait_vec3 hi) {
    if (!t->present) return false;
    double x0 = (lo.x - t->origin.x) / t->cell, x1 = (hi.x - t->origin.x) / t->cell;
    double z0 = (lo.z - t->origin.z) / t->cell, z1 = (hi.z - t->origin.z) / t->cell;
    if (x1 < 0 || z1 < 0 || x0 > t->nx - 1 || z0 > t->nz - 1) return false; /* off the grid */
    int ix0 = (int)fmax(0, floor(x0)), ix1 = (int)fmin(t->nx - 1, ceil(x1));
    int iz0 = (int)fmax(0, floor(z0)), iz1 = (int)fmin(t->nz - 1, ceil(z1));
    if ((double)(ix1 - ix0 + 1) * (iz1 - iz0 + 1) > 4096) return true; /* too wide to read */
    double floor_y = lo.y - t->origin.y;
    for (int iz = iz0; iz <= iz1; iz++) {
        const float *row = t->h + (size_t)iz * (size_t)t->nx;
        for (int ix = ix0; ix <= ix1; ix++)
            if (row[ix] >= floor_y) return true;
    }
    return false;
}

bool gait_gather_level_free(const gait_gather *g, gait_vec3 lo, gait_vec3 hi, double slope,
                            const gait_filter *f) {
    if (!g || !g->collider || !v3_finite(lo) || !v3_finite(hi) || !isfinite(slope)) return false;
    if (!(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z)) return false;
    const gait_collider *c = g->collider;
    if (!(f && f->skip_terrain) && terrain_may_reach(&c->terrain, lo, hi)) return false;
    if (f && f->skip_landmarks) return true;
    if (!gather_holds(g, c, lo, hi)) return false;
    /* a moving landmark is never gathered: one in the box may hold a level surface */
    if (gait_collider_moving_near(c, lo, hi)) return false;
    /* |n.y| >= cos(slope) of a unit normal, as n.y^2 >= k^2 |n|^2 for the unnormalised cross
     * product, with 1e-9 to spare for the kernels' rounding of the normal */
    double k = cos(slope) - 1e-9;
    if (k <= 0) return g->count == 0;
    double k2 = k * k;
    const gather_mem *m = g->internal;
    for (int r = 0; r < m->runs; r++) {
        const gather_run *run = &m->run[r];
        /* the box in the landmark's frame, rounded outwards: every triangle box that meets it */
        float flo[3] = {float_down(lo.x - run->origin.x), float_down(lo.y - run->origin.y),
                        float_down(lo.z - run->origin.z)};
        float fhi[3] = {float_up(hi.x - run->origin.x), float_up(hi.y - run->origin.y),
                        float_up(hi.z - run->origin.z)};
        int end = run->first + run->count;
        for (int i = run->first; i < end; i += 4) {
            unsigned mask = gather_hits(m, i, flo, fhi);
            if (end - i < 4) mask &= (1u << (end - i)) - 1;
            while (mask) {
                int j = i + __builtin_ctz(mask);
                mask &= mask - 1;
                const float *v = m->src[j]->v;
                gait_vec3 a = v3(v[0], v[1], v[2]);
                gait_vec3 n = v3_cross(v3_sub(v3(v[3], v[4], v[5]), a), v3_sub(v3(v[6], v[7], v[8]), a));
                if (n.y * n.y >= k2 * v3_len2(n)) return false;
            }
        }
    }
    return true;
}

int gait_gather_capsule_overlap(gait_gather *g, const gait_capsule *capsule, const gait_filter *filter,
                                gait_contact_point *out, int capacity, bool *truncated) {
    if (truncated) *truncated = false;
    if (!g) return -1;
    return overlap_run(g->collider, g, capsule, filter, out, capacity, truncated, 0, false);
}

/* (declared for the mover in character/mover_internal.h, as gait__gather_prefetch is) */
int gait__capsule_overlap_distinct(const gait_collider *c, gait_gather *g,
                                   const gait_capsule *capsule, const gait_filter *filter,
                                   gait_contact_point *out, int capacity, bool *truncated) {
    if (truncated) *truncated = false;
    if (g && g->collider != c) return -1;
    return overlap_run(c, g, capsule, filter, out, capacity, truncated, 0, true);
}

bool gait_gather_capsule_sweep(gait_gather *g, const gait_capsule *capsule, gait_vec3 delta,
                               const gait_filter *filter, gait_hit *out) {
    return g && sweep_run(g->collider, g, capsule, delta, filter, out, 0);
}

bool gait_gather_sphere_cast(gait_gather *g, gait_vec3 from, double radius, gait_vec3 delta,
                             const gait_filter *filter, gait_hit *out) {
    gait_capsule cap = {from, from, radius};
    return g && sweep_run(g->collider, g, &cap, delta, filter, out, 0);
}

bool gait__gather_sweep_meets(gait_gather *g, const gait_collider *c, gait_landmark_id lm,
                              int triangle, const gait_capsule *capsule, gait_vec3 delta) {
    if (!g || !g->internal || !c || g->collider != c || g->overflow ||
        g->revision != c->static_revision || !lm.index1 || triangle < 0 || !capsule)
        return false;
    gather_mem *m = g->internal;
    for (int r = 0; r < m->runs; r++) {
        const gather_run *run = &m->run[r];
        if (run->slot + 1 != lm.index1 || c->generation[run->slot] != lm.generation) continue;
        for (int j = run->first; j < run->first + run->count; j++) {
            if ((int)m->src[j]->index != triangle) continue;
            /* as a query in the run's frame tests it (set_frame, on_tri), before any hit */
            gait__tri_hit h;
            return gait__sweep_tri(v3_sub(capsule->a, run->origin), v3_sub(capsule->b, run->origin),
                                   capsule->radius, delta, gathered_built(m, j), &h, true, 1.0,
                                   &m->tri[j].memo);
        }
    }
    return false;
}

bool gait_gather_ray_cast(gait_gather *g, gait_vec3 origin, gait_vec3 delta, const gait_filter *filter,
                          gait_hit *out) {
    return g && ray_run(g->collider, g, origin, delta, filter, out, 0);
}
