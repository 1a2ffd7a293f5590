/* The landmark BVH builder: a binary tree by the binned surface-area heuristic, then collapsed
 * into nodes of four children (gait__bnode).
 *
 * Binned SAH (Wald, "On fast Construction of SAH-based Bounding Volume Hierarchies", 2007): the
 * triangles' centroids are binned into 16 bins along each axis (nodes of 64 triangles or
 * more; below, along the longest axis of the centroids only); the split between bins that
 * minimises (area left x count left + area right x count right) / area wins, unless keeping
 * the node a leaf is cheaper (cost 1 per triangle, 1 per traversal step). Real levels mix 100 m
 * floor triangles with 5 cm props: the heuristic puts each in a node of its own size, where an
 * octree by centroid lets the large ones inflate every box around the small ones.
 *
 * Past depth 48 (a pathological mesh) splits are balanced (the median by centroid), so the tree
 * is never deeper than GAIT__BVH_DEPTH_MAX and a query's fixed stack cannot overflow; a node
 * whose centroids all coincide is split by index. Deterministic: the same mesh gives the same
 * tree on every build (the tree's shape never shows in a query's answer anyway: contacts are
 * returned in (landmark, triangle) order and sweeps break ties by the same key). */
#include "collide_internal.h"

#include <float.h>
#include <string.h>

#define BINS 16
#define BALANCED_DEPTH 48

typedef struct bnode2 {
    float lo[3], hi[3];
    int left, right;            /* children (inner), -1 for a leaf */
    int first, count;           /* leaf: triangles perm[first, first + count) */
} bnode2;

typedef struct builder {
    const gait__ltri *tris;
    float *cen;                 /* 3 per triangle */
    float *tlo, *thi;           /* 3 per triangle: the triangle's box */
    uint32_t *perm;
    bnode2 *n2;
    int n2_count;
    gait__bnode *n4;
    int n4_count;
} builder;

static double area(const float lo[3], const float hi[3]) {
    double dx = (double)hi[0] - lo[0], dy = (double)hi[1] - lo[1], dz = (double)hi[2] - lo[2];
    if (dx < 0 || dy < 0 || dz < 0) return 0;
    return dx * dy + dy * dz + dz * dx;
}

static void grow(float lo[3], float hi[3], const float *blo, const float *bhi) {
    for (int a = 0; a < 3; a++) {
        if (blo[a] < lo[a]) lo[a] = blo[a];
        if (bhi[a] > hi[a]) hi[a] = bhi[a];
    }
}

static void empty_box(float lo[3], float hi[3]) {
    for (int a = 0; a < 3; a++) {
        lo[a] = FLT_MAX;
        hi[a] = -FLT_MAX;
    }
}

/* Sorts perm[first, first + count) by centroid on axis (ties by triangle) with a heap sort: no
 * allocation, deterministic. Only the balanced fallback uses it. */
static bool cen_less(const builder *b, uint32_t x, uint32_t y, int axis) {
    float cx = b->cen[3 * x + axis], cy = b->cen[3 * y + axis];
    return cx < cy || (cx == cy && x < y);
}
static void sift(builder *b, uint32_t *a, int root, int n, int axis) {
    for (;;) {
        int c = 2 * root + 1;
        if (c >= n) return;
        if (c + 1 < n && cen_less(b, a[c], a[c + 1], axis)) c++;
        if (!cen_less(b, a[root], a[c], axis)) return;
        uint32_t t = a[root];
        a[root] = a[c];
        a[c] = t;
        root = c;
    }
}
static void sort_range(builder *b, int first, int count, int axis) {
    uint32_t *a = b->perm + first;
    for (int i = count / 2 - 1; i >= 0; i--) sift(b, a, i, count, axis);
    for (int end = count - 1; end > 0; end--) {
        uint32_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift(b, a, 0, end, axis);
    }
}

/* Builds binary node `ni` over perm[first, first + count). */
static void build2(builder *b, int ni, int first, int count, int depth) {
    bnode2 *nd = &b->n2[ni];
    empty_box(nd->lo, nd->hi);
    float clo[3], chi[3];
    empty_box(clo, chi);
    for (int i = first; i < first + count; i++) {
        uint32_t t = b->perm[i];
        grow(nd->lo, nd->hi, b->tlo + 3 * t, b->thi + 3 * t);
        grow(clo, chi, b->cen + 3 * t, b->cen + 3 * t);
    }
    nd->left = nd->right = -1;
    nd->first = first;
    nd->count = count;
    /* four triangles or fewer: a leaf (the heuristic keeps them so all but always) */
    if (count <= 4) return;

    int best_axis = -1, best_split = 0;
    double best_cost = INFINITY;
    /* every axis near the root, where the choice shapes most of the tree; the longest below */
    int longest = 0;
    for (int a = 1; a < 3; a++)
        if ((double)chi[a] - clo[a] > (double)chi[longest] - clo[longest]) longest = a;
    if (depth < BALANCED_DEPTH) {
        for (int axis = 0; axis < 3; axis++) {
            if (count < 64 && axis != longest) continue;
            double ext = (double)chi[axis] - clo[axis];
            if (!(ext > 0)) continue;
            int cnt[BINS];
            float blo[BINS][3], bhi[BINS][3];
            memset(cnt, 0, sizeof cnt);
            for (int k = 0; k < BINS; k++) empty_box(blo[k], bhi[k]);
            double scale = BINS / ext;
            for (int i = first; i < first + count; i++) {
                uint32_t t = b->perm[i];
                int k = (int)(((double)b->cen[3 * t + axis] - clo[axis]) * scale);
                if (k >= BINS) k = BINS - 1;
                if (k < 0) k = 0;
                cnt[k]++;
                grow(blo[k], bhi[k], b->tlo + 3 * t, b->thi + 3 * t);
            }
            /* right-to-left areas, then sweep left to right */
            double right_area[BINS];
            int right_cnt[BINS];
            float rlo[3], rhi[3];
            empty_box(rlo, rhi);
            int rc = 0;
            for (int k = BINS - 1; k > 0; k--) {
                grow(rlo, rhi, blo[k], bhi[k]);
                rc += cnt[k];
                right_area[k] = area(rlo, rhi);
                right_cnt[k] = rc;
            }
            float llo[3], lhi[3];
            empty_box(llo, lhi);
            int lc = 0;
            for (int k = 0; k < BINS - 1; k++) {
                grow(llo, lhi, blo[k], bhi[k]);
                lc += cnt[k];
                if (lc == 0 || right_cnt[k + 1] == 0) continue;
                double cost = area(llo, lhi) * lc + right_area[k + 1] * right_cnt[k + 1];
                if (cost < best_cost) {
                    best_cost = cost;
                    best_axis = axis;
                    best_split = k + 1;
                }
            }
        }
    }
    double node_area = area(nd->lo, nd->hi);
    /* leaf cost: count tests; split cost: one step plus the children's tests by area */
    if (count <= GAIT__BVH_LEAF_MAX &&
        (best_axis < 0 || !(node_area > 0) || (double)count <= 1.0 + best_cost / node_area))
        return;

    int mid;
    if (best_axis >= 0) {
        /* partition by bin (in place, stable enough to be deterministic) */
        double ext = (double)chi[best_axis] - clo[best_axis], scale = BINS / ext;
        int i = first, j = first + count - 1;
        while (i <= j) {
            uint32_t t = b->perm[i];
            int k = (int)(((double)b->cen[3 * t + best_axis] - clo[best_axis]) * scale);
            if (k >= BINS) k = BINS - 1;
            if (k < 0) k = 0;
            if (k < best_split) {
                i++;
            } else {
                b->perm[i] = b->perm[j];
                b->perm[j] = t;
                j--;
            }
        }
        mid = i;
    } else {
        /* no split by bins (all centroids on one point, or deep): the median, by index when the
         * centroids coincide */
        int axis = 0;
        for (int a = 1; a < 3; a++)
            if ((double)chi[a] - clo[a] > (double)chi[axis] - clo[axis]) axis = a;
        sort_range(b, first, count, axis);
        mid = first + count / 2;
    }
    if (mid == first || mid == first + count) mid = first + count / 2;
    int l = b->n2_count, r = b->n2_count + 1;
    b->n2_count += 2;
    nd->left = l;
    nd->right = r;
    build2(b, l, first, mid - first, depth + 1);
    build2(b, r, mid, first + count - mid, depth + 1);
}

/* Node `out` of the 4-wide tree from binary node ni: its children, opened up (the largest
 * first) until there are four or only leaves. */
static void collapse(builder *b, int ni, int out) {
    int kids[4], nk = 0;
    const bnode2 *nd = &b->n2[ni];
    if (nd->left < 0) {
        kids[nk++] = ni; /* a leaf root */
    } else {
        kids[nk++] = nd->left;
        kids[nk++] = nd->right;
        while (nk < 4) {
            int pick = -1;
            double best = -1;
            for (int k = 0; k < nk; k++) {
                const bnode2 *c = &b->n2[kids[k]];
                double a = area(c->lo, c->hi);
                if (c->left >= 0 && a > best) { best = a; pick = k; }
            }
            if (pick < 0) break;
            const bnode2 *c = &b->n2[kids[pick]];
            kids[pick] = c->left;
            kids[nk++] = c->right;
        }
    }
    gait__bnode *o = &b->n4[out];
    memset(o, 0, sizeof *o);
    for (int k = 0; k < 4; k++)
        for (int a = 0; a < 3; a++) {
            o->min[a][k] = INFINITY;
            o->max[a][k] = -INFINITY;
        }
    for (int k = 0; k < nk; k++) {
        const bnode2 *c = &b->n2[kids[k]];
        for (int a = 0; a < 3; a++) {
            o->min[a][k] = c->lo[a];
            o->max[a][k] = c->hi[a];
        }
        if (c->left < 0) {
            o->child[k] = (uint32_t)c->first;
            o->count[k] = (uint8_t)c->count;
        } else {
            int idx = b->n4_count++;
            o->child[k] = (uint32_t)idx;
            o->count[k] = 0;
            collapse(b, kids[k], idx);
        }
    }
}

gait_status gait__bvh_build(const gait_hooks *hooks, gait__ltri *tris, int n, gait__bnode **out_nodes,
                            int *out_count) {
    *out_nodes = NULL;
    *out_count = 0;
    size_t nn = (size_t)n;
    builder b;
    memset(&b, 0, sizeof b);
    b.tris = tris;
    b.cen = gait__alloc(hooks, nn * 3 * sizeof(float));
    b.tlo = gait__alloc(hooks, nn * 3 * sizeof(float));
    b.thi = gait__alloc(hooks, nn * 3 * sizeof(float));
    b.perm = gait__alloc(hooks, nn * sizeof(uint32_t));
    b.n2 = gait__alloc(hooks, (2 * nn) * sizeof *b.n2);
    /* a 4-wide node has at least two children: at most n - 1 of them, and one for a leaf root */
    size_t cap4 = nn;
    b.n4 = gait__alloc(hooks, cap4 * sizeof *b.n4);
    gait__ltri *sorted = gait__alloc(hooks, nn * sizeof *sorted);
    gait_status st = GAIT_OK;
    if (!b.cen || !b.tlo || !b.thi || !b.perm || !b.n2 || !b.n4 || !sorted) {
        st = GAIT_ERR_OUT_OF_MEMORY;
    } else {
        for (int t = 0; t < n; t++) {
            const float *v = tris[t].v;
            b.perm[t] = (uint32_t)t;
            for (int a = 0; a < 3; a++) {
                float lo = v[a], hi = v[a];
                for (int k = 1; k < 3; k++) {
                    if (v[3 * k + a] < lo) lo = v[3 * k + a];
                    if (v[3 * k + a] > hi) hi = v[3 * k + a];
                }
                b.tlo[3 * t + a] = lo;
                b.thi[3 * t + a] = hi;
                b.cen[3 * t + a] = 0.5f * lo + 0.5f * hi;
            }
        }
        b.n2_count = 1;
        build2(&b, 0, 0, n, 0);
        b.n4_count = 1;
        collapse(&b, 0, 0);
        for (int t = 0; t < n; t++) sorted[t] = tris[b.perm[t]];
        memcpy(tris, sorted, nn * sizeof *tris);
        gait__bnode *nodes = gait__alloc(hooks, (size_t)b.n4_count * sizeof *nodes);
        if (!nodes) {
            st = GAIT_ERR_OUT_OF_MEMORY;
        } else {
            memcpy(nodes, b.n4, (size_t)b.n4_count * sizeof *nodes);
            *out_nodes = nodes;
            *out_count = b.n4_count;
        }
    }
    gait__free(hooks, b.cen, nn * 3 * sizeof(float));
    gait__free(hooks, b.tlo, nn * 3 * sizeof(float));
    gait__free(hooks, b.thi, nn * 3 * sizeof(float));
    gait__free(hooks, b.perm, nn * sizeof(uint32_t));
    gait__free(hooks, b.n2, (2 * nn) * sizeof *b.n2);
    gait__free(hooks, b.n4, cap4 * sizeof *b.n4);
    gait__free(hooks, sorted, nn * sizeof *sorted);
    return st;
}
