/* Queries of the collision world: capsule overlap, capsule sweep, sphere cast, ray cast.
 *
 * One walker visits the candidate triangles of a query: the terrain cells under the query
 * (generated on the fly, row by row, clipped to the query's footprint), then every live
 * landmark whose bounds the query reaches, through its octree with a fixed stack on the C
 * stack. Nothing is allocated. Each candidate goes to the exact kernels of collide_geom.c.
 * The brute-force path (for the tests) visits every triangle with no culling at all and
 * reaches the same kernels, so both give the same answer bit for bit; sweeps break ties in
 * time by (landmark index, triangle index) so the visiting order never shows. */
#include "collide_internal.h"

#include <string.h>

enum { Q_OVERLAP, Q_SWEEP, Q_RAY };

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
    /* the shape in the current frame (landmark or terrain origin subtracted) */
    gait_vec3 lp, lq, llo, lhi, lcen, lext;
    gait_vec3 origin;
    gait_landmark_id lm;        /* current landmark (null for terrain) */
    bool region_filter;         /* current landmark: skip triangles in the filter's region */
    /* overlap results */
    gait_contact_point *out;
    int cap, n;
    bool truncated;
    /* sweep results */
    bool found;
    double best_t;
    int32_t best_lm;
    int best_tri;
    gait__tri_hit best;
    gait_landmark_id best_id;
} query;

/* min / max without the libm calls -fno-fast-math keeps for NaN rules (no NaN reaches here) */
static inline float mn3(float a, float b, float c) { float m = a < b ? a : b; return m < c ? m : c; }
static inline float mx3(float a, float b, float c) { float m = a > b ? a : b; return m > c ? m : c; }

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

static void on_tri(query *qy, const gait__tri *t, int tri_index) {
    if (qy->kind == Q_OVERLAP) {
        gait__tri_contact ct;
        if (!gait__capsule_tri(qy->lp, qy->lq, qy->r, t, &ct)) return;
        gait_contact_point cp;
        cp.point = v3_add(qy->origin, ct.point);
        cp.normal = ct.normal;
        cp.depth = ct.depth;
        cp.cls = classify(qy, ct.normal);
        cp.landmark = qy->lm;
        cp.triangle = tri_index;
        if (qy->n < qy->cap) {
            qy->out[qy->n++] = cp;
            return;
        }
        /* full: keep the deepest; the shallowest written one gives way */
        qy->truncated = true;
        int w = -1;
        double wd = cp.depth;
        for (int i = 0; i < qy->n; i++)
            if (qy->out[i].depth < wd) { wd = qy->out[i].depth; w = i; }
        if (w >= 0) qy->out[w] = cp;
        return;
    }
    gait__tri_hit h;
    bool hit = qy->kind == Q_RAY ? gait__ray_tri(qy->lp, qy->d, t, &h)
                                 : gait__sweep_tri(qy->lp, qy->lq, qy->r, qy->d, t, &h);
    if (!hit || !better(qy, h.t, qy->lm.index1, tri_index)) return;
    qy->found = true;
    qy->best_t = h.t;
    qy->best_lm = qy->lm.index1;
    qy->best_tri = tri_index;
    h.point = v3_add(qy->origin, h.point);
    qy->best = h;
    qy->best_id = qy->lm;
}

/* Moves the query into a frame whose origin is `o`. */
static void set_frame(query *qy, gait_vec3 o) {
    qy->origin = o;
    qy->lp = v3_sub(qy->p, o);
    qy->lq = v3_sub(qy->q, o);
    qy->llo = v3_sub(qy->lo, o);
    qy->lhi = v3_sub(qy->hi, o);
    /* sweeps cull boxes with the ray of the shape's centre against boxes grown by the
     * shape's half extent (+ r); 1e-6 m more keeps rounding on the safe side */
    gait_vec3 a = v3_min(qy->lp, qy->lq), b = v3_max(qy->lp, qy->lq);
    qy->lcen = v3_scale(v3_add(a, b), 0.5);
    double g = qy->r + 1e-6;
    qy->lext = v3_add(v3_scale(v3_sub(b, a), 0.5), v3(g, g, g));
}

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
    qy->region_filter = false;
    int cells_x = t->nx - 1, cells_z = t->nz - 1;
    gait__tri tri;
    if (qy->brute) {
        for (int iz = 0; iz < cells_z; iz++)
            for (int ix = 0; ix < cells_x; ix++)
                for (int half = 0; half < 2; half++)
                    if (gait__terrain_tri(t, ix, iz, half, &tri))
                        on_tri(qy, &tri, (iz * cells_x + ix) * 2 + half);
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
                    on_tri(qy, &tri, (iz * cells_x + ix) * 2 + half);
        }
    }
}

/* ---- landmarks -------------------------------------------------------------------------- */

static inline void ltri_to_tri(const gait__ltri *s, gait__tri *t) {
    t->v[0] = v3(s->v[0], s->v[1], s->v[2]);
    t->v[1] = v3(s->v[3], s->v[4], s->v[5]);
    t->v[2] = v3(s->v[6], s->v[7], s->v[8]);
    /* stored triangles were validated at add: the normal is well defined */
    t->n = v3_norm(v3_cross(v3_sub(t->v[1], t->v[0]), v3_sub(t->v[2], t->v[0])));
    t->flags = s->flags;
}

static bool region_skips(const query *qy, const gait__ltri *s) {
    const gait_filter *f = qy->f;
    for (int a = 0; a < 3; a++) {
        float lo = mn3(s->v[a], s->v[3 + a], s->v[6 + a]);
        float hi = mx3(s->v[a], s->v[3 + a], s->v[6 + a]);
        double o = a == 0 ? qy->origin.x : a == 1 ? qy->origin.y : qy->origin.z;
        double rlo = a == 0 ? f->region_min.x : a == 1 ? f->region_min.y : f->region_min.z;
        double rhi = a == 0 ? f->region_max.x : a == 1 ? f->region_max.y : f->region_max.z;
        if (o + hi < rlo || o + lo > rhi) return false;
    }
    return true;
}

static void leaf_tris(query *qy, const gait__landmark *lm, uint32_t first, uint32_t count) {
    gait__tri tri;
    for (uint32_t i = first; i < first + count; i++) {
        const gait__ltri *s = &lm->tris[i];
        {
            /* triangle box against the query's box (a sweep's or ray's covers its whole
             * motion, grown by the radius): most candidates stop here */
            bool out = false;
            for (int a = 0; a < 3 && !out; a++) {
                float lo = mn3(s->v[a], s->v[3 + a], s->v[6 + a]);
                float hi = mx3(s->v[a], s->v[3 + a], s->v[6 + a]);
                double qlo = a == 0 ? qy->llo.x : a == 1 ? qy->llo.y : qy->llo.z;
                double qhi = a == 0 ? qy->lhi.x : a == 1 ? qy->lhi.y : qy->lhi.z;
                out = hi < qlo || lo > qhi;
            }
            if (out) continue;
        }
        if (qy->region_filter && region_skips(qy, s)) continue;
        ltri_to_tri(s, &tri);
        on_tri(qy, &tri, (int)s->index);
    }
}

/* Entry time (fraction of the motion) of the centre ray into a box grown by ext; false when
 * it misses within [0, tmax]. */
static bool slab(gait_vec3 c, gait_vec3 d, const float *lo, const float *hi, gait_vec3 ext,
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

static bool node_reached(const query *qy, const gait__onode *nd) {
    if (qy->kind == Q_OVERLAP) {
        return !(nd->max[0] < qy->llo.x || nd->min[0] > qy->lhi.x || nd->max[1] < qy->llo.y ||
                 nd->min[1] > qy->lhi.y || nd->max[2] < qy->llo.z || nd->min[2] > qy->lhi.z);
    }
    double enter;
    if (!slab(qy->lcen, qy->d, nd->min, nd->max, qy->lext, 1.0, &enter)) return false;
    return !qy->found || enter <= qy->best_t;
}

static void walk_landmark(query *qy, int slot) {
    const gait__landmark *lm = qy->c->slot[slot];
    set_frame(qy, lm->origin);
    qy->lm.index1 = slot + 1;
    qy->lm.generation = qy->c->generation[slot];
    const gait_filter *f = qy->f;
    qy->region_filter = false;
    if (f && f->ignore.index1 == qy->lm.index1 && f->ignore.generation == qy->lm.generation) {
        if (!f->ignore_region_only) return;
        qy->region_filter = true;
    }
    if (qy->brute) {
        leaf_tris(qy, lm, 0, (uint32_t)lm->tri_count);
        return;
    }
    uint32_t stack[GAIT__STACK_SIZE];
    int sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        const gait__onode *nd = &lm->nodes[stack[--sp]];
        if (!node_reached(qy, nd)) continue;
        if (nd->children == 0) {
            leaf_tris(qy, lm, nd->first, nd->count);
        } else {
            for (uint32_t k = 0; k < nd->children; k++) stack[sp++] = nd->first + k;
        }
    }
}

static bool box_reached(const query *qy, const gait__landmark *lm) {
    return !(lm->bmax.x < qy->lo.x || lm->bmin.x > qy->hi.x || lm->bmax.y < qy->lo.y ||
             lm->bmin.y > qy->hi.y || lm->bmax.z < qy->lo.z || lm->bmin.z > qy->hi.z);
}

static void walk(query *qy) {
    const gait_collider *c = qy->c;
    const gait_filter *f = qy->f;
    if (c->terrain.present && !(f && f->skip_terrain)) walk_terrain(qy);
    if (f && f->skip_landmarks) return;
    if (qy->brute) {
        for (int i = 0; i < c->live; i++) walk_landmark(qy, c->dense_slot[i]);
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
            walk_landmark(qy, c->dense_slot[i]);
        }
        return;
    }
    for (int s = c->big_head; s >= 0; s = c->slot[s]->grid_next)
        if (box_reached(qy, c->slot[s])) walk_landmark(qy, s);
    for (int32_t gz = (int32_t)cz0; gz <= (int32_t)cz1; gz++)
        for (int32_t gx = (int32_t)cx0; gx <= (int32_t)cx1; gx++)
            for (int s = c->bucket[gait__grid_bucket(gx, gz)]; s >= 0; s = c->slot[s]->grid_next) {
                const gait__landmark *lm = c->slot[s];
                /* buckets are shared by far cells: only this cell's landmarks */
                if (lm->gx == gx && lm->gz == gz && box_reached(qy, lm)) walk_landmark(qy, s);
            }
}

/* ---- setup and the public entry points -------------------------------------------------- */

static bool filter_valid(const gait_filter *f) {
    if (!f) return true;
    if (!(f->walkable_slope >= 0 && f->walkable_slope < 1.57079632679489661923)) return false;
    if (f->ignore_region_only && (!v3_finite(f->region_min) || !v3_finite(f->region_max)))
        return false;
    return true;
}

static void query_init(query *qy, const gait_collider *c, const gait_filter *f, int kind,
                       gait_vec3 p, gait_vec3 q, double r, gait_vec3 d, int brute) {
    memset(qy, 0, sizeof *qy);
    qy->kind = kind;
    qy->brute = brute;
    qy->c = c;
    qy->f = f;
    qy->cos_walk = (f && f->walkable_slope > 0) ? cos(f->walkable_slope) : c->cos_walkable;
    qy->cos_ceil = c->cos_ceiling;
    qy->p = p;
    qy->q = q;
    qy->r = r;
    qy->d = d;
    gait_vec3 lo = v3_min(p, q), hi = v3_max(p, q);
    lo = v3_min(lo, v3_add(lo, d));
    hi = v3_max(hi, v3_add(hi, d));
    /* 1e-6 m beyond r: boxes are compared with rounding on the safe side */
    double g = r + 1e-6;
    qy->lo = v3_sub(lo, v3(g, g, g));
    qy->hi = v3_add(hi, v3(g, g, g));
}

int gait__capsule_overlap_ex(const gait_collider *c, const gait_capsule *capsule,
                             const gait_filter *filter, gait_contact_point *out, int capacity,
                             bool *truncated, int brute) {
    if (truncated) *truncated = false;
    if (!c || !capsule || capacity < 0 || (!out && capacity > 0)) return -1;
    if (!v3_finite(capsule->a) || !v3_finite(capsule->b) || !(capsule->radius > 0) ||
        !isfinite(capsule->radius) || !filter_valid(filter))
        return -1;
    query qy;
    query_init(&qy, c, filter, Q_OVERLAP, capsule->a, capsule->b, capsule->radius, v3(0, 0, 0), brute);
    qy.out = out;
    qy.cap = capacity;
    walk(&qy);
    if (truncated) *truncated = qy.truncated;
    return qy.n;
}

int gait_collider_capsule_overlap(const gait_collider *c, const gait_capsule *capsule,
                                  const gait_filter *filter, gait_contact_point *out,
                                  int capacity, bool *truncated) {
    return gait__capsule_overlap_ex(c, capsule, filter, out, capacity, truncated, 0);
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
}

bool gait__capsule_sweep_ex(const gait_collider *c, const gait_capsule *capsule, gait_vec3 delta,
                            const gait_filter *filter, gait_hit *out, int brute) {
    if (!c || !capsule || !v3_finite(capsule->a) || !v3_finite(capsule->b) ||
        !(capsule->radius > 0) || !isfinite(capsule->radius) || !v3_finite(delta) ||
        !filter_valid(filter))
        return false;
    query qy;
    query_init(&qy, c, filter, Q_SWEEP, capsule->a, capsule->b, capsule->radius, delta, brute);
    walk(&qy);
    if (!qy.found) return false;
    if (out) fill_hit(&qy, delta, c->def.sweep_skin, out);
    return true;
}

bool gait_collider_capsule_sweep(const gait_collider *c, const gait_capsule *capsule,
                                 gait_vec3 delta, const gait_filter *filter, gait_hit *out) {
    return gait__capsule_sweep_ex(c, capsule, delta, filter, out, 0);
}

bool gait_collider_sphere_cast(const gait_collider *c, gait_vec3 from, double radius,
                               gait_vec3 delta, const gait_filter *filter, gait_hit *out) {
    gait_capsule cap = {from, from, radius};
    return gait__capsule_sweep_ex(c, &cap, delta, filter, out, 0);
}

bool gait__ray_cast_ex(const gait_collider *c, gait_vec3 origin, gait_vec3 delta,
                       const gait_filter *filter, gait_hit *out, int brute) {
    if (!c || !v3_finite(origin) || !v3_finite(delta) || !filter_valid(filter)) return false;
    if (v3_len2(delta) == 0) return false;
    query qy;
    query_init(&qy, c, filter, Q_RAY, origin, origin, 0, delta, brute);
    walk(&qy);
    if (!qy.found) return false;
    if (out) fill_hit(&qy, delta, 0, out); /* a ray reports the exact surface, no skin */
    return true;
}

bool gait_collider_ray_cast(const gait_collider *c, gait_vec3 origin, gait_vec3 delta,
                            const gait_filter *filter, gait_hit *out) {
    return gait__ray_cast_ex(c, origin, delta, filter, out, 0);
}
