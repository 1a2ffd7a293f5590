/* Coplanar pieces, merged at a landmark's build.
 *
 * Level meshes carry far more triangles than their shape needs: a floor exported as a grid of
 * tiles, a wall cut at every brush a compiler split it by, a face subdivided for lighting. Each
 * extra triangle is one more candidate for every query that passes near it, so a query's cost
 * grew with how finely the mesh was cut, not with what it is. Here coplanar triangles joined
 * edge to edge are grown into convex pieces, and a piece whose outline has k corners is stored
 * as its fan of k - 2 triangles when that is fewer than it had.
 *
 * Growth: every triangle starts as a piece of its own; in rounds, each piece in source order
 * goes round its outline again and again and absorbs the piece across an outline edge (a
 * triangle, or a piece grown already) when the seam is coplanar and wound alike, the two meet
 * along one run of edges, the union turns no corner back (a straight corner only between edges
 * of the same flags) and holds at most GAIT__PIECE_MAX triangles. Two convex pieces meeting
 * along a run lie either side of it, so the union is one simple convex polygon. Rounds go on
 * until one absorbs nothing (two strips side by side merge only once both are whole: two rounds
 * on every mesh measured). Deterministic: source order and outline order only.
 *
 * What stays exact:
 *   - the surface: the fan's corners are the piece's own vertices (the same floats), and a
 *     corner is dropped only where the outline goes straight on through it (to 1e-6 of the
 *     edges' lengths, or the float resolution), so the fan covers what the piece covered
 *     (checked: equal areas);
 *   - the edge flags: an outline edge is made of mesh edges of the same flags (computed on the
 *     mesh as given, before the merge), which it keeps; the fan's own diagonals are flat from
 *     both sides, as the seams between coplanar triangles were;
 *   - a hit's triangle index: each fan triangle keeps the index of one triangle of its piece
 *     (the piece's lowest indices, in order), so indices stay distinct and in range.
 * What the pieces were made of is kept for gait_collider_source_triangle (gait__merge_src).
 * gait_mesh_def.keep_triangles turns the pass off. Build cost: linear in the triangles but for
 * a sort of each piece's members (scratch allocated through the hooks, freed here). */
#include "collide_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Tolerances, each the larger of a relative part and the landmark's float resolution `eps`
 * (4 float epsilons of its largest coordinate: where a vertex can sit at best, a midpoint
 * computed in floats being off its edge's line by up to half of one):
 *   - a straight-through corner: the corner within COLLINEAR x |in + out| of the line joining
 *     its neighbours;
 *   - coplanar with the seed: a vertex w within PLANE_TOL x |w - p0| of the seed's plane. */
#define COLLINEAR 1e-6
#define PLANE_TOL 1e-6

static gait_vec3 vat(const gait__ltri *t, int k) {
    return v3(t->v[3 * k], t->v[3 * k + 1], t->v[3 * k + 2]);
}

static gait_vec3 fv(const float *p) { return v3(p[0], p[1], p[2]); }

static int int_cmp(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The pieces of a landmark. Each is a convex polygon whose outline is a loop of mesh edges
 * (edge e = 3 t + i, triangle t's edge from vertex i): next/prev link the loop, indexed by edge
 * (an edge is on one outline at most), so absorbing a neighbour splices two loops in O(1). */
typedef struct merger {
    const gait__ltri *tris;
    const gait_vec3 *normals;
    const uint32_t *mate;       /* the edge's one neighbour edge + 1 (0: none) */
    const uint8_t *joined;      /* a seam a piece may cross */
    double eps;                 /* the float resolution (m) */
    int *piece;                 /* per triangle: its piece (the piece's seed triangle) */
    int *next_member;           /* per triangle: the next of its piece, -1 ends */
    int *nx, *pv;               /* per edge: the outline loop */
    /* per piece, indexed by its seed triangle: */
    int *head;                  /* an edge on its outline */
    int *size;                  /* edges on its outline */
    int *last;                  /* its last member (the list runs from the seed) */
    int *low;                   /* its lowest triangle */
    int *count;                 /* members */
    struct piece_buf *buf;      /* one piece's corners and members */
} merger;

/* A piece of s triangles has at most 3 s outline edges (3, and each triangle absorbed adds at
 * most one: two edges for the one it covers; a piece absorbed adds its own less two a seam). */
#define RING_MAX (3 * GAIT__PIECE_MAX)

/* The corners of one piece, and the same with straight corners dropped (least first), with
 * the flags of the outline edge from each; its members, ascending. */
typedef struct piece_buf {
    const float *poly[RING_MAX], *cpoly[RING_MAX];
    unsigned act[RING_MAX], cact[RING_MAX];
    int cnx[RING_MAX], cpv[RING_MAX];
    int sorted[GAIT__PIECE_MAX];
} piece_buf;

/* Mesh edge e's start and end (3 floats in the triangles), and its direction. */
static const float *edge_a(const merger *g, int e) { return g->tris[e / 3].v + 3 * (e % 3); }
static const float *edge_b(const merger *g, int e) {
    return g->tris[e / 3].v + 3 * ((e % 3 + 1) % 3);
}
static gait_vec3 edge_dir(const merger *g, int e) {
    return v3_sub(fv(edge_b(g, e)), fv(edge_a(g, e)));
}

/* Active flags of mesh edge e: bit 0 from the front, bit 1 from the back. */
static unsigned edge_act(const merger *g, int e) {
    unsigned f = g->tris[e / 3].flags, i = (unsigned)(e % 3);
    return ((f >> i) & 1u) | (((f >> (GAIT__EDGES_BACK_SHIFT + i)) & 1u) << 1);
}

/* How far corner b (reached by `in`, left by `out`) lies left of the line joining its
 * neighbours, seen along normal n (m; < 0: right, a turn back), and the tolerance on that. */
static double corner_off(gait_vec3 in, gait_vec3 out, gait_vec3 n, double eps, double *tol) {
    double across = v3_len(v3_add(in, out));
    *tol = fmax(COLLINEAR * across, eps);
    return across > 0 ? v3_dot(v3_cross(in, out), n) / across : 0;
}

/* Whether the outline may turn from edge ein to edge eout: to the left, or straight on
 * (within the tolerance) between edges of the same flags, which then become one edge (an
 * edge that is a border along part of its length, where a hole's side meets it, and a flat
 * seam along the rest would have to stay two, and a fan cannot keep a straight corner). */
static bool corner_ok(const merger *g, int ein, int eout, gait_vec3 n) {
    gait_vec3 in = edge_dir(g, ein), out = edge_dir(g, eout);
    double tol, d = corner_off(in, out, n, g->eps, &tol);
    return d > tol || (d >= -tol && v3_dot(in, out) > 0 && edge_act(g, ein) == edge_act(g, eout));
}

/* The piece across outline edge e of piece p, or -1 (no seam there, or p itself). */
static int across(const merger *g, int p, int e) {
    if (!g->joined[e]) return -1;
    int q = g->piece[(g->mate[e] - 1) / 3];
    return q == p ? -1 : q;
}

/* Absorbs piece q into p across p's outline edge e when the two make one convex polygon in
 * p's plane: they must meet along one run of edges (p's run s0 .. s1, q's the same reversed)
 * and turn no corner back where the run ends. */
static bool absorb(merger *g, int p, int q, int e) {
    int s0 = e, s1 = e, run = 1;
    while (across(g, p, g->pv[s0]) == q && g->pv[s0] != e) s0 = g->pv[s0], run++;
    while (across(g, p, g->nx[s1]) == q && g->nx[s1] != s0) s1 = g->nx[s1], run++;
    if (run >= g->size[p] || run >= g->size[q]) return false;
    if (g->count[p] + g->count[q] > GAIT__PIECE_MAX) return false;
    /* q's outline runs the same edges the other way, and nothing else of it meets p */
    int qe = (int)g->mate[s1] - 1, pe = s1;
    for (int k = 0; k < run; k++, pe = g->pv[pe], qe = g->nx[qe])
        if (qe != (int)g->mate[pe] - 1) return false;
    int q0 = (int)g->mate[s1] - 1, q1 = (int)g->mate[s0] - 1; /* q's run: q0 .. q1 */
    int pin = g->pv[s0], qout = g->nx[q1], qin = g->pv[q0], pout = g->nx[s1];
    gait_vec3 n = g->normals[p], p0 = fv(g->tris[p].v);
    if (!corner_ok(g, pin, qout, n) || !corner_ok(g, qin, pout, n))
        return false;
    for (int x = qout; x != q0; x = g->nx[x]) {
        gait_vec3 rel = v3_sub(fv(edge_a(g, x)), p0);
        if (fabs(v3_dot(rel, n)) > fmax(PLANE_TOL * v3_len(rel), g->eps)) return false;
    }
    /* splice: p's loop .. pin -> qout .. qin -> pout .. */
    g->nx[pin] = qout;
    g->pv[qout] = pin;
    g->nx[qin] = pout;
    g->pv[pout] = qin;
    g->head[p] = pin;
    g->size[p] += g->size[q] - 2 * run;
    for (int t = q; t >= 0; t = g->next_member[t]) g->piece[t] = p;
    g->next_member[g->last[p]] = q;
    g->last[p] = g->last[q];
    g->count[p] += g->count[q];
    if (g->low[q] < g->low[p]) g->low[p] = g->low[q];
    g->count[q] = 0;
    return true;
}

/* Goes round p's outline absorbing what lies across it until a whole round absorbs nothing;
 * true when it absorbed anything. */
static bool grow(merger *g, int p) {
    bool grew = false;
    int at = g->head[p], calm = 0;
    while (calm < g->size[p]) {
        int q = across(g, p, at);
        if (q >= 0 && absorb(g, p, q, at)) {
            grew = true;
            calm = 0;
            at = g->head[p]; /* the edge before the splice: look on from there */
        } else {
            calm++;
            at = g->nx[at];
        }
    }
    g->head[p] = at;
    return grew;
}

/* Drops the straight-through corners of poly[0, k) between edges of the same flags (the two
 * become one) and rotates it to start at its least corner (the fan then does not depend on
 * where the growth began). Returns the corners left. nx, pv: scratch of k. */
static int drop_straight(merger *g, int k, gait_vec3 n) {
    const float **poly = g->buf->poly;
    unsigned *act = g->buf->act;
    int *nx = g->buf->cnx, *pv = g->buf->cpv;
    for (int i = 0; i < k; i++) {
        nx[i] = (i + 1) % k;
        pv[i] = (i + k - 1) % k;
    }
    int left = k, i = 0, calm = 0;
    while (calm < left && left >= 3) {
        gait_vec3 a = fv(poly[pv[i]]), b = fv(poly[i]), c = fv(poly[nx[i]]);
        gait_vec3 in = v3_sub(b, a), out = v3_sub(c, b);
        double tol, d = corner_off(in, out, n, g->eps, &tol);
        if (act[pv[i]] == act[i] && v3_dot(in, out) > 0 && fabs(d) <= tol) {
            nx[pv[i]] = nx[i];
            pv[nx[i]] = pv[i];
            left--;
            calm = 0;
            i = pv[i];
        } else {
            calm++;
            i = nx[i];
        }
    }
    if (left < 3) return 0;
    int start = i;
    for (int j = nx[i]; j != i; j = nx[j])
        if (gait__vcmp(poly[j], poly[start]) < 0) start = j;
    int q = 0, j = start;
    do {
        g->buf->cpoly[q] = poly[j];
        g->buf->cact[q] = act[j];
        q++;
        j = nx[j];
    } while (j != start);
    return left;
}

/* Piece p's members into buf->sorted, ascending; returns how many. */
static int sorted_members(merger *g, int p) {
    int s = 0;
    for (int t = p; t >= 0; t = g->next_member[t]) g->buf->sorted[s++] = t;
    qsort(g->buf->sorted, (size_t)s, sizeof *g->buf->sorted, int_cmp);
    return s;
}

static double tri_area(gait_vec3 a, gait_vec3 b, gait_vec3 c) {
    return v3_len(v3_cross(v3_sub(b, a), v3_sub(c, a)));
}

/* The fan of the piece's outline cpoly[0, k) into out (k - 2 triangles), members m[0, s)
 * sorted; false when a corner turns back or goes flat, a fan triangle is degenerate, or the
 * fan's area is not the piece's. */
static bool fan(const merger *g, const int *m, int s, gait_vec3 n, int k, gait__ltri *out) {
    const float **poly = g->buf->cpoly;
    const unsigned *act = g->buf->cact;
    for (int i = 0; i < k; i++) {
        gait_vec3 a = fv(poly[(i + k - 1) % k]), b = fv(poly[i]), c = fv(poly[(i + 1) % k]);
        double tol;
        if (!(corner_off(v3_sub(b, a), v3_sub(c, b), n, g->eps, &tol) > tol)) return false;
    }
    double area = 0, sum = 0;
    for (int q = 0; q < s; q++) {
        const gait__ltri *t = &g->tris[m[q]];
        area += tri_area(vat(t, 0), vat(t, 1), vat(t, 2));
    }
    for (int i = 1; i + 1 < k; i++) {
        gait__ltri *o = &out[i - 1];
        gait_vec3 a = fv(poly[0]), b = fv(poly[i]), c = fv(poly[i + 1]);
        gait__tri check;
        if (!gait__tri_make(&check, a, b, c, 0)) return false;
        sum += tri_area(a, b, c);
        memcpy(o->v, poly[0], 3 * sizeof(float));
        memcpy(o->v + 3, poly[i], 3 * sizeof(float));
        memcpy(o->v + 6, poly[i + 1], 3 * sizeof(float));
        /* edge 0: apex -> poly[i] (outline on the first), 1: poly[i] -> poly[i + 1] (outline),
         * 2: poly[i + 1] -> apex (outline on the last); the diagonals are flat (inactive) */
        unsigned a0 = i == 1 ? act[0] : 0, a1 = act[i], a2 = i + 2 == k ? act[k - 1] : 0;
        o->flags = (a0 & 1u) | (a1 & 1u) << 1 | (a2 & 1u) << 2 |
                   ((a0 >> 1) | (a1 >> 1) << 1 | (a2 >> 1) << 2) << GAIT__EDGES_BACK_SHIFT;
        o->index = g->tris[m[i - 1]].index;
    }
    /* the same area, to what straight corners dropped within eps can change (eps x perimeter) */
    double rim = 0;
    for (int i = 0; i < k; i++) rim += v3_len(v3_sub(fv(poly[(i + 1) % k]), fv(poly[i])));
    return fabs(sum - area) <= 1e-6 * area + 2 * g->eps * rim;
}

static int face_cmp(const void *a, const void *b) {
    uint32_t x = ((const gait__face *)a)->index, y = ((const gait__face *)b)->index;
    return (x > y) - (x < y);
}

gait_status gait__merge_coplanar(const gait_hooks *hooks, gait__ltri *tris,
                                 const gait_vec3 *normals, int n, const uint32_t *mate, int *out_n,
                                 gait__merge_src *out_src) {
    *out_n = n;
    memset(out_src, 0, sizeof *out_src);
    if (n < 2) return GAIT_OK;
    size_t ne = 3 * (size_t)n, nn = (size_t)n;
    uint8_t *joined = gait__alloc(hooks, ne);
    if (!joined) return GAIT_ERR_OUT_OF_MEMORY;
    /* the seams a piece may grow across: coplanar, wound alike (the edge runs the other way
     * in the neighbour), shared by these two triangles alone */
    float big = 0;
    for (int t = 0; t < n; t++)
        for (int k = 0; k < 9; k++) big = fmaxf(big, fabsf(tris[t].v[k]));
    double eps = 4.0 * FLT_EPSILON * big;
    int joins = 0;
    for (size_t e = 0; e < ne; e++) {
        if (!mate[e] || mate[e] - 1 < e) continue;
        size_t o = mate[e] - 1;
        int t = (int)(e / 3), u = (int)(o / 3), i = (int)(e % 3), j = (int)(o % 3);
        if (t == u) continue;
        const gait__ltri *a = &tris[t], *b = &tris[u];
        if (gait__vcmp(a->v + 3 * i, b->v + 3 * ((j + 1) % 3)) != 0) continue;
        if (!(v3_dot(normals[t], normals[u]) > 0)) continue;
        gait_vec3 rel = v3_sub(vat(b, (j + 2) % 3), vat(a, i));
        double h = v3_dot(rel, normals[t]);
        if (fabs(h) > fmax(PLANE_TOL * v3_len(rel), eps)) continue;
        joined[e] = joined[o] = 1;
        joins++;
    }
    if (joins == 0) {
        gait__free(hooks, joined, ne);
        return GAIT_OK;
    }
    merger g = {.tris = tris, .normals = normals, .mate = mate, .joined = joined, .eps = eps};
    int **ints[] = {&g.piece, &g.next_member, &g.head, &g.size, &g.last, &g.low, &g.count,
                    &g.nx, &g.pv};
    size_t nints = sizeof ints / sizeof *ints;
    /* (all written before they are read: not zeroed) */
    for (size_t i = 0; i < nints; i++) /* per triangle, then (last two) per edge */
        *ints[i] = gait__alloc_raw(hooks, (i < nints - 2 ? nn : ne) * sizeof(int));
    g.buf = gait__alloc_raw(hooks, sizeof *g.buf);
    /* per piece: where its fan is in fans (-1: kept as given) and how many */
    int *fan_at = gait__alloc_raw(hooks, nn * sizeof *fan_at);
    int *fan_count = gait__alloc_raw(hooks, nn * sizeof *fan_count);
    gait__ltri *fans = gait__alloc_raw(hooks, nn * sizeof *fans);
    gait__ltri *out = gait__alloc_raw(hooks, nn * sizeof *out);
    bool ok = g.buf && fan_at && fan_count && fans && out;
    for (size_t i = 0; i < nints; i++) ok = ok && *ints[i];
    gait_status st = ok ? GAIT_OK : GAIT_ERR_OUT_OF_MEMORY;
    if (ok) {
        for (int t = 0; t < n; t++) { /* every triangle a piece of its own */
            g.piece[t] = g.last[t] = g.low[t] = t;
            g.next_member[t] = -1;
            g.count[t] = 1;
            g.size[t] = 3;
            g.head[t] = 3 * t;
            for (int i = 0; i < 3; i++) {
                g.nx[3 * t + i] = 3 * t + (i + 1) % 3;
                g.pv[3 * t + i] = 3 * t + (i + 2) % 3;
            }
        }
        /* rounds of growth in seed order, until one changes nothing: a piece may only become
         * absorbable once its neighbour has grown (two strips side by side) */
        for (bool grew = true; grew;) {
            grew = false;
            for (int p = 0; p < n; p++)
                if (g.count[p] > 0 && grow(&g, p)) grew = true;
        }
        int nf = 0;
        for (int p = 0; p < n; p++) {
            fan_at[p] = -1;
            if (g.count[p] < 2) continue;
            int k = 0, e = g.head[p];
            do { /* (g.size[p] <= RING_MAX edges, as counted above) */
                g.buf->poly[k] = edge_a(&g, e);
                g.buf->act[k++] = edge_act(&g, e);
                e = g.nx[e];
            } while (e != g.head[p] && k < RING_MAX);
            int kc = e == g.head[p] ? drop_straight(&g, k, normals[p]) : 0;
            if (kc < 3 || kc - 2 >= g.count[p]) continue;
            int s = sorted_members(&g, p);
            if (!fan(&g, g.buf->sorted, s, normals[p], kc, fans + nf)) continue;
            fan_at[p] = nf;
            fan_count[p] = kc - 2;
            nf += kc - 2;
        }
        /* the merged pieces' triangles as given, and a face record per fan triangle */
        int srcs = 0;
        for (int p = 0; p < n; p++)
            if (fan_at[p] >= 0) srcs += g.count[p];
        if (nf > 0) {
            out_src->src = gait__alloc(hooks, (size_t)srcs * sizeof *out_src->src);
            out_src->faces = gait__alloc(hooks, (size_t)nf * sizeof *out_src->faces);
            if (!out_src->src || !out_src->faces) {
                gait__free(hooks, out_src->src, (size_t)srcs * sizeof *out_src->src);
                gait__free(hooks, out_src->faces, (size_t)nf * sizeof *out_src->faces);
                memset(out_src, 0, sizeof *out_src);
                st = GAIT_ERR_OUT_OF_MEMORY;
                nf = 0;
            }
        }
        int at = 0, nfaces = 0;
        for (int p = 0; p < n && nf > 0; p++) {
            if (fan_at[p] < 0) continue;
            int s = sorted_members(&g, p);
            for (int q = 0; q < s; q++) out_src->src[at + q] = tris[g.buf->sorted[q]];
            for (int f = 0; f < fan_count[p]; f++) {
                gait__face *fc = &out_src->faces[nfaces++];
                fc->index = fans[fan_at[p] + f].index;
                fc->start = (uint32_t)at;
                fc->count = (uint32_t)s;
            }
            at += s;
        }
        if (nf > 0) {
            qsort(out_src->faces, (size_t)nfaces, sizeof *out_src->faces, face_cmp);
            out_src->src_count = srcs;
            out_src->face_count = nfaces;
        }
        /* in source order: a merged piece's fan where its lowest triangle was, the rest as given */
        int w = 0;
        for (int t = 0; t < n; t++) {
            int p = g.piece[t];
            if (fan_at[p] < 0) {
                out[w++] = tris[t];
            } else if (t == g.low[p]) {
                memcpy(out + w, fans + fan_at[p], (size_t)fan_count[p] * sizeof *out);
                w += fan_count[p];
            }
        }
        if (st == GAIT_OK) {
            memcpy(tris, out, (size_t)w * sizeof *tris);
            *out_n = w;
        }
    }
    gait__free(hooks, joined, ne);
    for (size_t i = 0; i < nints; i++)
        gait__free(hooks, *ints[i], (i < nints - 2 ? nn : ne) * sizeof(int));
    gait__free(hooks, g.buf, sizeof *g.buf);
    gait__free(hooks, fan_at, nn * sizeof *fan_at);
    gait__free(hooks, fan_count, nn * sizeof *fan_count);
    gait__free(hooks, fans, nn * sizeof *fans);
    gait__free(hooks, out, nn * sizeof *out);
    return st;
}
