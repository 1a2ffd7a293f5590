/* The BVH (and the terrain row walk, and the top-level culling, and the kernels' pruning) must
 * give exactly what testing every triangle gives: 10,000 random queries on a random scene,
 * compared bit for bit with the brute-force path, and the same queries answered from gathers
 * (covering the query, or not: then the tree answers; or overflowing their scratch). Sweeps are
 * also checked against the overlap query: just before the reported time nothing overlaps, just
 * after, the reported triangle does. Coincident stacks answer as their copies would. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "collide_fixtures.h"
#include "collide/collide_internal.h"
#include "character/mover_internal.h"

typedef struct rng { uint32_t s; } rng;
static double rnd(rng *r) { r->s = r->s * 1664525u + 1013904223u; return (double)(r->s >> 8) / 16777216.0; }
static double rr(rng *r, double a, double b) { return a + (b - a) * rnd(r); }
static gait_vec3 rv(rng *r, double lo, double hi) {
    gait_vec3 v = {rr(r, lo, hi), rr(r, lo * 0.3, hi * 0.3), rr(r, lo, hi)};
    return v;
}

#define MAX_LM 16
typedef struct scene {
    gait_collider *c;
    gait_landmark_id ids[MAX_LM];
    int n;
} scene;

static void build_scene(scene *s, rng *r) {
    s->c = make_collider(NULL);
    /* terrain: 17 x 17 samples, 1.25 m cells, centred, bumps of +-1 m */
    float hs[17 * 17];
    for (int i = 0; i < 17 * 17; i++) hs[i] = (float)rr(r, -1, 1);
    gait_heightfield_def hd = {17, 17, 1.25, {-10, -0.5, -10}, hs};
    gait_collider_set_terrain(s->c, &hd);
    s->n = 0;
    /* boxes (shared edges: convex creases), at offsets */
    for (int i = 0; i < 5; i++) {
        float lo[3] = {(float)rr(r, -1, 0), (float)rr(r, -1, 0), (float)rr(r, -1, 0)};
        float hi[3] = {(float)rr(r, 0.2, 2), (float)rr(r, 0.2, 3), (float)rr(r, 0.2, 2)};
        float t[108];
        box_tris(t, lo, hi);
        gait_vec3 off = rv(r, -8, 8);
        s->ids[s->n++] = add_tris(s->c, t, 12, off);
    }
    /* triangle soups */
    for (int i = 0; i < 5; i++) {
        int nt = 40 + (int)(rnd(r) * 160);
        float *t = malloc(sizeof(float) * 9 * (size_t)nt);
        gait_vec3 ctr = rv(r, -3, 3);
        for (int k = 0; k < nt; k++) {
            gait_vec3 base = rv(r, -3, 3);
            for (int v = 0; v < 3; v++) {
                t[k * 9 + v * 3] = (float)(base.x + rr(r, -0.8, 0.8));
                t[k * 9 + v * 3 + 1] = (float)(base.y + rr(r, -0.8, 0.8));
                t[k * 9 + v * 3 + 2] = (float)(base.z + rr(r, -0.8, 0.8));
            }
        }
        s->ids[s->n++] = add_tris(s->c, t, nt, ctr);
        free(t);
    }
    /* flat tessellated floors and a bent sheet (internal edges), one far from the origin */
    for (int i = 0; i < 3; i++) {
        int n = 12;
        float *t = malloc(sizeof(float) * 9 * 2 * (size_t)(n * n));
        floor_grid(t, n, -3, -3, 6, 0, 0.6f, 77u + (unsigned)i);
        if (i == 2) /* bend: lift the vertices with x > 0 along a ramp */
            for (int k = 0; k < n * n * 2 * 3; k++)
                if (t[k * 3] > 0) t[k * 3 + 1] = t[k * 3] * 0.5f;
        gait_vec3 off = rv(r, -6, 6);
        off.y = rr(r, -0.5, 1.5);
        s->ids[s->n++] = add_tris(s->c, t, n * n * 2, off);
        free(t);
    }
}

static int by_key(const void *a, const void *b) {
    const gait_contact_point *x = a, *y = b;
    if (x->landmark.index1 != y->landmark.index1) return x->landmark.index1 < y->landmark.index1 ? -1 : 1;
    return (x->triangle > y->triangle) - (x->triangle < y->triangle);
}

static void random_filter(rng *r, const scene *s, gait_filter *f, const gait_filter **fp) {
    memset(f, 0, sizeof *f);
    *fp = NULL;
    double u = rnd(r);
    if (u < 0.6) return;
    *fp = f;
    if (u < 0.7) f->skip_terrain = true;
    else if (u < 0.75) f->skip_landmarks = true;
    else if (u < 0.85) f->ignore = s->ids[(int)(rnd(r) * s->n)];
    else {
        f->ignore = s->ids[(int)(rnd(r) * s->n)];
        f->ignore_region_only = true;
        f->region_min = rv(r, -8, 8);
        f->region_max = f->region_min;
        f->region_max.x += rr(r, 0, 4);
        f->region_max.y += rr(r, 0, 4);
        f->region_max.z += rr(r, 0, 4);
    }
    if (rnd(r) < 0.3) f->walkable_slope = rr(r, 0.2, 1.4);
}

static bool same_hit(const gait_hit *a, const gait_hit *b) {
    return a->fraction == b->fraction && a->distance == b->distance &&
           memcmp(&a->point, &b->point, sizeof a->point) == 0 &&
           memcmp(&a->normal, &b->normal, sizeof a->normal) == 0 &&
           a->landmark.index1 == b->landmark.index1 && a->landmark.generation == b->landmark.generation &&
           a->triangle == b->triangle && a->start_solid == b->start_solid;
}

static bool same_contacts(const gait_contact_point *a, const gait_contact_point *b, int n) {
    for (int k = 0; k < n; k++)
        if (memcmp(&a[k].point, &b[k].point, sizeof a[k].point) != 0 ||
            memcmp(&a[k].normal, &b[k].normal, sizeof a[k].normal) != 0 || a[k].depth != b[k].depth ||
            a[k].cls != b[k].cls || a[k].landmark.index1 != b[k].landmark.index1 ||
            a[k].landmark.generation != b[k].landmark.generation || a[k].triangle != b[k].triangle)
            return false;
    return true;
}

/* A gather for a query of box [lo, hi]: mostly one holding it (grown by up to a metre), now and
 * then one that does not (the query then goes to the tree), or a tiny scratch that overflows. */
typedef struct gather_kit {
    gait_gather big, tiny;
    void *big_mem, *tiny_mem;
    int held, fell_back, overflowed;
} gather_kit;

static gait_gather *gather_for(gather_kit *k, rng *r, const gait_collider *c, gait_vec3 lo, gait_vec3 hi) {
    double u = rnd(r), grow = rr(r, 0, 1);
    gait_gather *g = u < 0.1 ? &k->tiny : &k->big;
    gait_vec3 glo = {lo.x - grow, lo.y - grow, lo.z - grow}, ghi = {hi.x + grow, hi.y + grow, hi.z + grow};
    if (u > 0.9) { /* too small on one side */
        glo.x = lo.x + rr(r, 0.01, 0.5);
        if (glo.x > ghi.x) glo.x = ghi.x;
    }
    CHECK(gait_collider_gather(c, glo, ghi, g) == GAIT_OK);
    if (g->overflow) k->overflowed++;
    else if (gait_gather_holds(g, lo, hi)) k->held++;
    else k->fell_back++;
    return g;
}

static void gather_kit_init(gather_kit *k) {
    memset(k, 0, sizeof *k);
    size_t nb = gait_gather_scratch_bytes(4096), nt = gait_gather_scratch_bytes(3);
    k->big_mem = malloc(nb);
    k->tiny_mem = malloc(nt + 1);
    CHECK(gait_gather_init(&k->big, k->big_mem, nb) == GAIT_OK && k->big.capacity >= 4096);
    /* an odd address: the layout aligns itself */
    CHECK(gait_gather_init(&k->tiny, (char *)k->tiny_mem + 1, nt) == GAIT_OK && k->tiny.capacity >= 2);
}

/* A gather of 1024 triangles in a scratch of its own (returned: the caller frees it). */
static void *gather_1024(gait_gather *g) {
    size_t bytes = gait_gather_scratch_bytes(1024);
    void *mem = malloc(bytes);
    CHECK(mem && gait_gather_init(g, mem, bytes) == GAIT_OK);
    return mem;
}

static void gather_kit_free(gather_kit *k) {
    free(k->big_mem);
    free(k->tiny_mem);
}

TEST(collide_bvh_and_gathers_equal_brute_force_10000_queries) {
    rng r = {12345};
    scene s;
    build_scene(&s, &r);
    enum { CAP = 256 };
    static gait_contact_point a[CAP], b[CAP], gc[CAP];
    gather_kit kit;
    gather_kit_init(&kit);
    int overlaps = 0, contacts = 0, sweeps = 0, sweep_hits = 0, rays = 0, ray_hits = 0, solid = 0;
    int mismatches = 0, gathered_mismatches = 0, proven = 0, unmet = 0;
    for (int i = 0; i < 10000; i++) {
        gait_filter f;
        const gait_filter *fp;
        random_filter(&r, &s, &f, &fp);
        gait_vec3 p = rv(&r, -9, 9);
        gait_vec3 q = p;
        if (rnd(&r) < 0.8) { q.x += rr(&r, -1, 1); q.y += rr(&r, -1.5, 1.5); q.z += rr(&r, -1, 1); }
        double rad = rr(&r, 0.05, 0.9);
        gait_capsule cap = {p, q, rad};
        int kind = i % 10;
        if (kind < 4) {
            bool ta, tb;
            int na = gait__capsule_overlap_ex(s.c, &cap, fp, a, CAP, &ta, 0);
            int nb = gait__capsule_overlap_ex(s.c, &cap, fp, b, CAP, &tb, 1);
            CHECK(!ta && !tb);
            overlaps++;
            contacts += na;
            if (na != nb) { mismatches++; CHECK_EQ_INT(na, nb); continue; }
            /* returned in (landmark, triangle) order by both */
            bool same = same_contacts(a, b, na);
            for (int k = 1; k < na; k++) same = same && by_key(&a[k - 1], &a[k]) < 0;
            if (!same) mismatches++;
            CHECK(same);
            gait_vec3 lo = {fmin(p.x, q.x) - rad, fmin(p.y, q.y) - rad, fmin(p.z, q.z) - rad};
            gait_vec3 hi = {fmax(p.x, q.x) + rad, fmax(p.y, q.y) + rad, fmax(p.z, q.z) + rad};
            bool tg;
            gait_gather *g = gather_for(&kit, &r, s.c, lo, hi);
            int ng = gait_gather_capsule_overlap(g, &cap, fp, gc, CAP, &tg);
            if (ng != nb || tg || !same_contacts(gc, b, nb)) gathered_mismatches++;
        } else if (kind < 9) {
            gait_vec3 d = rv(&r, -6, 6);
            gait_hit ha, hb;
            memset(&ha, 0, sizeof ha);
            memset(&hb, 0, sizeof hb);
            bool fa, fb;
            if (kind < 7) { /* capsule sweep (7 in 10: 3 capsules, 2 spheres) */
                if (kind >= 5) cap.b = cap.a;
                fa = gait__capsule_sweep_ex(s.c, &cap, d, fp, &ha, 0);
                fb = gait__capsule_sweep_ex(s.c, &cap, d, fp, &hb, 1);
                sweeps++;
                sweep_hits += fa;
                solid += fa && ha.start_solid;
            } else {
                fa = gait__ray_cast_ex(s.c, p, d, fp, &ha, 0);
                fb = gait__ray_cast_ex(s.c, p, d, fp, &hb, 1);
                rays++;
                ray_hits += fa;
            }
            CHECK(fa == fb);
            if (fa != fb || (fa && !same_hit(&ha, &hb))) {
                mismatches++;
                CHECK(fa == fb && same_hit(&ha, &hb));
            }
            /* the same query from a gather */
            double g0 = kind < 7 ? rad : 0;
            gait_vec3 a0 = kind < 7 ? cap.a : p, b0 = kind < 7 ? cap.b : p;
            gait_vec3 lo = {fmin(fmin(a0.x, b0.x), fmin(a0.x, b0.x) + d.x) - g0,
                            fmin(fmin(a0.y, b0.y), fmin(a0.y, b0.y) + d.y) - g0,
                            fmin(fmin(a0.z, b0.z), fmin(a0.z, b0.z) + d.z) - g0};
            gait_vec3 hi = {fmax(fmax(a0.x, b0.x), fmax(a0.x, b0.x) + d.x) + g0,
                            fmax(fmax(a0.y, b0.y), fmax(a0.y, b0.y) + d.y) + g0,
                            fmax(fmax(a0.z, b0.z), fmax(a0.z, b0.z) + d.z) + g0};
            gait_gather *g = gather_for(&kit, &r, s.c, lo, hi);
            gait_hit hg;
            memset(&hg, 0, sizeof hg);
            bool fg = kind < 7 ? (kind >= 5 ? gait_gather_sphere_cast(g, cap.a, rad, d, fp, &hg)
                                            : gait_gather_capsule_sweep(g, &cap, d, fp, &hg))
                               : gait_gather_ray_cast(g, p, d, fp, &hg);
            if (fg != fb || (fg && !same_hit(&hg, &hb))) gathered_mismatches++;
            if (kind < 7 && fb && hb.landmark.index1) {
                /* the triangle met, alone, for a capsule moved a little and swept on: where it
                 * meets it, the whole collider's sweep meets something */
                gait_vec3 off = rv(&r, -0.3, 0.3), d2 = v3_scale(d, rr(&r, 0.5, 1.5));
                gait_capsule c2 = {v3_add(cap.a, off), v3_add(cap.b, off), cap.radius};
                if (gait__gather_sweep_meets(g, s.c, hb.landmark, hb.triangle, &c2, d2)) {
                    gait_hit h2;
                    proven++;
                    if (!gait__capsule_sweep_ex(s.c, &c2, d2, fp, &h2, 1)) unmet++;
                }
            }
        } else {
            /* the public entry points agree with the _ex ones */
            gait_hit ha, hb;
            gait_vec3 d = rv(&r, -4, 4);
            bool fa = gait_collider_sphere_cast(s.c, p, rad, d, fp, &ha);
            cap.b = cap.a;
            bool fb = gait__capsule_sweep_ex(s.c, &cap, d, fp, &hb, 1);
            CHECK(fa == fb);
            if (fa && fb) CHECK(same_hit(&ha, &hb));
        }
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(gathered_mismatches, 0);
    CHECK_EQ_INT(unmet, 0); /* gait__gather_sweep_meets said met: the collider's sweep met */
    printf("  one gathered triangle met alone: %d sweeps shown to meet something\n", proven);
    CHECK(proven > 200);
    /* the scene is busy enough for the comparison to mean something */
    CHECK(contacts > overlaps);
    CHECK(sweep_hits > sweeps / 4 && sweep_hits < sweeps);
    CHECK(ray_hits > rays / 5);
    CHECK(solid > 0 && solid < sweep_hits);
    /* every way a gather answers was taken, the gathered one most */
    CHECK(kit.held > 6000 && kit.fell_back > 300 && kit.overflowed > 300);
    printf("  equivalence: %d overlaps (%d contacts), %d sweeps (%d hits, %d start solid), %d rays (%d hits); "
           "gathers: %d held, %d fell back to the tree, %d overflowed\n",
           overlaps, contacts, sweeps, sweep_hits, solid, rays, ray_hits, kit.held, kit.fell_back, kit.overflowed);
    gather_kit_free(&kit);
    gait_collider_destroy(s.c);
}

/* A gather made before the collider changed is not used: the tree answers, with the new
 * landmark; an empty or invalid gather answers through the tree too. */
TEST(collide_gather_follows_the_colliders_changes) {
    gait_collider *c = make_collider(NULL);
    add_box(c, -1, 0, -1, 1, 1, 1);
    size_t nb = gait_gather_scratch_bytes(64);
    void *mem = malloc(nb);
    gait_gather g;
    CHECK(gait_gather_init(&g, mem, nb) == GAIT_OK);
    CHECK(g.capacity >= 64);
    gait_vec3 lo = {-5, -5, -5}, hi = {5, 5, 5};
    CHECK(gait_collider_gather(c, lo, hi, &g) == GAIT_OK);
    CHECK_EQ_INT(g.count, 12);
    gait_vec3 qlo = {2, 0, -1}, qhi = {4, 1, 1};
    CHECK(gait_gather_holds(&g, qlo, qhi));
    /* a wall the gather never saw */
    gait_landmark_id wall = add_box(c, 2.5f, 0, -2, 3, 2, 2);
    CHECK(!gait_gather_holds(&g, qlo, qhi));
    gait_capsule cap = {{1.5, 0.5, 0}, {1.5, 0.5, 0}, 0.3};
    gait_vec3 d = {2, 0, 0};
    gait_hit h;
    CHECK(gait_gather_capsule_sweep(&g, &cap, d, NULL, &h));
    CHECK(h.landmark.index1 == wall.index1);
    /* gathered again: held, the same answer */
    CHECK(gait_collider_gather(c, lo, hi, &g) == GAIT_OK);
    CHECK(gait_gather_holds(&g, qlo, qhi));
    gait_hit h2;
    CHECK(gait_gather_capsule_sweep(&g, &cap, d, NULL, &h2));
    CHECK(same_hit(&h, &h2));
    /* an inverted box: refused, the gather empty, queries still answered by the tree */
    CHECK(gait_collider_gather(c, hi, lo, &g) == GAIT_ERR_INVALID_ARGUMENT);
    CHECK(!gait_gather_holds(&g, qlo, qhi));
    CHECK(gait_gather_capsule_sweep(&g, &cap, d, NULL, &h2) == false); /* no collider to ask */
    CHECK(gait_gather_init(&g, mem, 16) == GAIT_ERR_CAPACITY);
    CHECK(gait_gather_scratch_bytes(0) == 0 && gait_gather_scratch_bytes((1 << 20) + 1) == 0);
    free(mem);
    gait_collider_destroy(c);
}

/* A distinct overlap (the mover's support reading) keeps one contact for each point and normal:
 * copies of a wall, laid over each other exactly or with their corners listed from another one
 * (no coincident group then), give the same contact once, so a floor the capsule also touches,
 * less deep, still makes a list of 16 that the copies fill in a plain overlap. The same answer
 * through a gather as through the trees. */
TEST(collide_distinct_overlap_keeps_one_contact_per_point) {
    enum { COPIES = 40 };
    /* a 4 x 4 m floor of two triangles, then a wall at x = 0 facing -x (a quad), laid COPIES
     * times: the odd copies with their corners rotated */
    float floor_t[2 * 9] = {-2, 0, -2, -2, 0, 2, 2, 0, 2, -2, 0, -2, 2, 0, 2, 2, 0, -2};
    float wall[2 * 9] = {0, 0, -2, 0, 3, -2, 0, 3, 2, 0, 0, -2, 0, 3, 2, 0, 0, 2};
    int n = 2 + 2 * COPIES;
    float *t = malloc(sizeof(float) * 9 * (size_t)n);
    memcpy(t, floor_t, sizeof floor_t);
    for (int k = 0; k < COPIES; k++)
        for (int j = 0; j < 2; j++)
            for (int v = 0; v < 3; v++)
                memcpy(t + 18 + 18 * k + 9 * j + 3 * v, wall + 9 * j + 3 * ((v + k % 2) % 3),
                       3 * sizeof(float));
    gait_collider *c = make_collider(NULL);
    gait_vec3 zero = {0, 0, 0};
    add_tris(c, t, n, zero);
    /* 5 cm into the wall, 1 cm into the floor: the wall's contacts are the deeper */
    gait_capsule cap = {{-0.25, 0.29, 0}, {-0.25, 1.5, 0}, 0.3};
    gait_contact_point plain[16], once[16], gathered[16];
    bool tr;
    int np = gait_collider_capsule_overlap(c, &cap, NULL, plain, 16, &tr);
    CHECK(tr && np == 16);
    int floors = 0;
    for (int i = 0; i < np; i++) floors += plain[i].normal.y > 0.9;
    CHECK_EQ_INT(floors, 0); /* the copies filled the list */
    int nd = gait__capsule_overlap_distinct(c, NULL, &cap, NULL, once, 16, &tr);
    CHECK(!tr && nd >= 2 && nd <= 4);
    floors = 0;
    int walls = 0, same = 0;
    for (int i = 0; i < nd; i++) {
        floors += once[i].normal.y > 0.9;
        walls += once[i].normal.x < -0.9;
        for (int j = 0; j < i; j++)
            same += v3_len(v3_sub(once[i].point, once[j].point)) < 1e-6 &&
                    v3_dot(once[i].normal, once[j].normal) > 1 - 1e-9;
    }
    CHECK(floors >= 1 && walls >= 1 && floors + walls == nd);
    CHECK_EQ_INT(same, 0);
    /* the wall's contact as deep as the plain overlap's deepest */
    double deepest = 0;
    for (int i = 0; i < nd; i++)
        if (once[i].normal.x < -0.9 && once[i].depth > deepest) deepest = once[i].depth;
    CHECK(fabs(deepest - plain[0].depth) < 1e-12 && fabs(deepest - 0.05) < 1e-9);
    /* through a gather holding the capsule: the same contacts */
    size_t bytes = gait_gather_scratch_bytes(256);
    void *mem = malloc(bytes);
    gait_gather g;
    CHECK(gait_gather_init(&g, mem, bytes) == GAIT_OK);
    gait_vec3 lo = {-1, -1, -1}, hi = {1, 2, 1};
    CHECK(gait_collider_gather(c, lo, hi, &g) == GAIT_OK && !g.overflow);
    int ng = gait__capsule_overlap_distinct(c, &g, &cap, NULL, gathered, 16, &tr);
    CHECK(!tr && ng == nd && same_contacts(once, gathered, nd));
    /* a gather of another collider is refused */
    gait_collider *other = make_collider(NULL);
    CHECK(gait__capsule_overlap_distinct(other, &g, &cap, NULL, gathered, 16, NULL) == -1);
    gait_collider_destroy(other);
    free(mem);
    free(t);
    gait_collider_destroy(c);
}

/* A stack of coincident copies answers as testing each copy would: the same contact for every
 * copy (lowest indices first when they do not all fit), a sweep's hit on the lowest index. */
TEST(collide_coincident_stack_answers_as_its_copies) {
    enum { COPIES = 1000 };
    /* a 4 x 4 m floor of two triangles, then a small wall, then copies of the floor */
    float base[2 * 9] = {-2, 0, -2, -2, 0, 2, 2, 0, 2, -2, 0, -2, 2, 0, 2, 2, 0, -2};
    float wall[9] = {1, 0, -1, 1, 1, 0, 1, 0, 1};
    int n = 2 + 1 + 2 * COPIES;
    float *t = malloc(sizeof(float) * 9 * (size_t)n);
    memcpy(t, base, sizeof base);
    memcpy(t + 18, wall, sizeof wall);
    for (int k = 0; k < COPIES; k++) memcpy(t + 27 + 18 * k, base, sizeof base);
    counter cnt;
    gait_collider *c = make_collider(&cnt);
    gait_collider *one = make_collider(NULL);
    gait_vec3 zero = {0, 0, 0};
    gait_landmark_id id = add_tris(c, t, n, zero);
    add_tris(one, base, 2, zero);
    gait_landmark_info info;
    CHECK(gait_collider_landmark_info(c, id, &info) == GAIT_OK);
    CHECK_EQ_INT(info.triangle_count, n);
    /* a capsule sunk 5 cm into the floor, off the wall */
    gait_capsule cap = {{-1, 0.25, -1}, {-1, 1.5, -1}, 0.3};
    static gait_contact_point all[4 * COPIES], ref[4], bruted[4 * COPIES];
    int nr = gait_collider_capsule_overlap(one, &cap, NULL, ref, 4, NULL);
    CHECK(nr >= 1);
    bool tr;
    int na = gait_collider_capsule_overlap(c, &cap, NULL, all, 4 * COPIES, &tr);
    CHECK(!tr);
    CHECK_EQ_INT(na, nr * (COPIES + 1));
    int nbr = gait__capsule_overlap_ex(c, &cap, NULL, bruted, 4 * COPIES, NULL, 1);
    CHECK_EQ_INT(nbr, na);
    CHECK(same_contacts(all, bruted, na));
    /* each contact is its base triangle's, in (triangle) order: copy k of triangle j is 3 + 2k + j */
    int bad = 0;
    for (int i = 0; i < na; i++) {
        const gait_contact_point *x = &all[i];
        int tri = x->triangle, j = tri < 2 ? tri : (tri - 3) % 2;
        const gait_contact_point *rj = NULL;
        for (int k = 0; k < nr; k++)
            if (ref[k].triangle == j) rj = &ref[k];
        if (!rj || x->depth != rj->depth || memcmp(&x->point, &rj->point, sizeof x->point) ||
            memcmp(&x->normal, &rj->normal, sizeof x->normal) || (i > 0 && all[i - 1].triangle >= tri))
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
    /* 16 do not hold them: the lowest indices are kept (equal depths), flagged truncated */
    gait_contact_point few[16];
    int nf = gait_collider_capsule_overlap(c, &cap, NULL, few, 16, &tr);
    CHECK(tr && nf == 16);
    int nfb = gait__capsule_overlap_ex(c, &cap, NULL, bruted, 16, NULL, 1);
    CHECK(nfb == 16 && same_contacts(few, bruted, 16));
    CHECK(same_contacts(few, all, nr == 2 ? 16 : 0) || nr != 2);
    /* a sweep down onto the stack hits as the single floor does, on triangle 0 or 1 */
    gait_capsule above = {{-1, 1.0, -1}, {-1, 2.2, -1}, 0.3};
    gait_vec3 down = {0, -1, 0};
    gait_hit hs, h1, hb;
    CHECK(gait_collider_capsule_sweep(c, &above, down, NULL, &hs));
    CHECK(gait_collider_capsule_sweep(one, &above, down, NULL, &h1));
    CHECK(gait__capsule_sweep_ex(c, &above, down, NULL, &hb, 1));
    CHECK(hs.fraction == h1.fraction && hs.triangle == h1.triangle && hs.triangle < 2);
    CHECK(same_hit(&hs, &hb));
    /* memory: the copies cost an index each, not a stored triangle */
    CHECK(info.memory_bytes < sizeof(float) * 9 * 3 + 16 * (size_t)n + 4096);
    free(t);
    gait_collider_destroy(c);
    gait_collider_destroy(one);
}

/* Sweeps that start clear: just before the reported time the shape overlaps nothing (deeper
 * than rounding), at the time plus a hair it overlaps the reported triangle. */
TEST(collide_sweep_time_agrees_with_overlap) {
    rng r = {999};
    scene s;
    build_scene(&s, &r);
    static gait_contact_point ct[256];
    int checked = 0;
    for (int i = 0; i < 3000 && checked < 600; i++) {
        gait_vec3 p = rv(&r, -9, 9), q = p;
        if (i % 2) { q.x += rr(&r, -1, 1); q.y += rr(&r, -1.5, 1.5); q.z += rr(&r, -1, 1); }
        gait_capsule cap = {p, q, rr(&r, 0.05, 0.9)};
        if (gait_collider_capsule_overlap(s.c, &cap, NULL, ct, 256, NULL) != 0) continue;
        gait_vec3 d = rv(&r, -6, 6);
        gait_hit h;
        if (!gait__capsule_sweep_ex(s.c, &cap, d, NULL, &h, 0)) continue;
        double len = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
        double t = h.fraction + 0.002 / len; /* undo the skin */
        if (h.fraction == 0) continue;       /* the skin ate all of it: t is not exact */
        checked++;
        double before = t - 1e-7 / len, after = t + 1e-6 / len;
        gait_capsule cb = cap, ca = cap;
        cb.a.x += d.x * before; cb.a.y += d.y * before; cb.a.z += d.z * before;
        cb.b.x += d.x * before; cb.b.y += d.y * before; cb.b.z += d.z * before;
        ca.a.x += d.x * after; ca.a.y += d.y * after; ca.a.z += d.z * after;
        ca.b.x += d.x * after; ca.b.y += d.y * after; ca.b.z += d.z * after;
        int nb = gait_collider_capsule_overlap(s.c, &cb, NULL, ct, 256, NULL);
        double deepest = 0;
        for (int k = 0; k < nb; k++) deepest = fmax(deepest, ct[k].depth);
        CHECK_MSG(deepest < 1e-9, "query %d: overlap %.3g before the sweep's time", i, deepest);
        int na = gait_collider_capsule_overlap(s.c, &ca, NULL, ct, 256, NULL);
        bool found = false;
        for (int k = 0; k < na; k++)
            if (ct[k].landmark.index1 == h.landmark.index1 && ct[k].triangle == h.triangle) found = true;
        CHECK_MSG(found, "query %d: the hit triangle %d/%d is not touched after the time", i,
                  h.landmark.index1, h.triangle);
    }
    CHECK(checked >= 300);
    gait_collider_destroy(s.c);
}

/* Many landmarks over a wide area (the top-level grid: cells, shared buckets, the big list,
 * the flat fallback for long rays), streamed in and out between queries. */
TEST(collide_top_level_grid_equals_brute_force) {
    rng r = {4321};
    gait_collider *c = make_collider(NULL);
    static gait_landmark_id ids[600];
    int n = 0;
    static gait_contact_point a[256], b[256];
    int mismatches = 0, hits = 0;
    for (int i = 0; i < 3000; i++) {
        if (n < 600 && (i % 5 == 0 || n < 300)) {
            /* small boxes over +-3 km (many cells, many share a bucket), a few wide ones */
            float lo[3], hi[3], t[108];
            double span = rnd(&r) < 0.5 ? 300 : 3000;
            for (int k = 0; k < 3; k++) lo[k] = (float)rr(&r, -span, span) * (k == 1 ? 0.01f : 1.0f);
            double w = rnd(&r) < 0.05 ? rr(&r, 40, 200) : rr(&r, 0.5, 20);
            hi[0] = lo[0] + (float)w;
            hi[1] = lo[1] + (float)rr(&r, 0.5, 10);
            hi[2] = lo[2] + (float)rr(&r, 0.5, 20);
            box_tris(t, lo, hi);
            gait_vec3 zero = {0, 0, 0};
            ids[n++] = add_tris(c, t, 12, zero);
        } else if (n > 0 && i % 7 == 0) {
            int k = (int)(rnd(&r) * n);
            CHECK(gait_collider_remove_landmark(c, ids[k]) == GAIT_OK);
            ids[k] = ids[--n];
        }
        /* a query near a random live landmark */
        gait_landmark_info info;
        gait_vec3 p = {0, 0, 0};
        if (n > 0 && gait_collider_landmark_info(c, ids[(int)(rnd(&r) * n)], &info) == GAIT_OK) {
            p.x = rr(&r, info.bounds_min.x - 2, info.bounds_max.x + 2);
            p.y = rr(&r, info.bounds_min.y - 2, info.bounds_max.y + 2);
            p.z = rr(&r, info.bounds_min.z - 2, info.bounds_max.z + 2);
        }
        gait_capsule cap = {p, {p.x + rr(&r, -1, 1), p.y + 1, p.z}, rr(&r, 0.1, 1.5)};
        if (i % 3 == 0) {
            int na = gait__capsule_overlap_ex(c, &cap, NULL, a, 256, NULL, 0);
            int nb = gait__capsule_overlap_ex(c, &cap, NULL, b, 256, NULL, 1);
            hits += na > 0;
            if (na != nb) { mismatches++; continue; }
            qsort(a, (size_t)na, sizeof *a, by_key);
            qsort(b, (size_t)nb, sizeof *b, by_key);
            for (int k = 0; k < na; k++)
                if (memcmp(&a[k].point, &b[k].point, sizeof a[k].point) || a[k].depth != b[k].depth ||
                    a[k].landmark.index1 != b[k].landmark.index1 || a[k].triangle != b[k].triangle)
                    mismatches++;
        } else {
            /* sweeps of a few metres, and rays of up to 5 km (the flat fallback) */
            double len = i % 3 == 1 ? 4 : 5000;
            gait_vec3 d = {rr(&r, -len, len), rr(&r, -len, len) * 0.01, rr(&r, -len, len)};
            gait_hit ha, hb;
            memset(&ha, 0, sizeof ha);
            memset(&hb, 0, sizeof hb);
            bool fa = i % 3 == 1 ? gait__capsule_sweep_ex(c, &cap, d, NULL, &ha, 0) : gait__ray_cast_ex(c, p, d, NULL, &ha, 0);
            bool fb = i % 3 == 1 ? gait__capsule_sweep_ex(c, &cap, d, NULL, &hb, 1) : gait__ray_cast_ex(c, p, d, NULL, &hb, 1);
            hits += fa;
            if (fa != fb || (fa && !same_hit(&ha, &hb))) mismatches++;
        }
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK(hits > 500);
    gait_collider_destroy(c);
}

/* The sweep kernel skips what cannot change its answer (feature tests whose boxes show no hit,
 * triangles whose plane is reached after the best hit so far or away from them, a face's edges
 * when the face is met first). Where that matters most, bit for bit against the unpruned
 * brute-force path: capsules and spheres dropped onto, and slid into, tessellated floors, walls
 * and steps, from points on the grid's vertices and edges (ties between coplanar triangles) and
 * anywhere near them. */
TEST(collide_sweep_pruning_keeps_every_hit_on_tessellations) {
    rng r = {777};
    gait_collider *c = make_collider(NULL);
    int n = 8;
    float *t = malloc(sizeof(float) * 9 * 2 * (size_t)(n * n));
    gait_vec3 zero = {0, 0, 0};
    floor_grid(t, n, -4, -4, 8, 0, 0, 1u); /* 1 m grid, flat */
    add_tris(c, t, n * n * 2, zero);
    floor_grid(t, n, 4, -4, 8, 0.3f, 0.6f, 2u); /* jittered, a step higher */
    add_tris(c, t, n * n * 2, zero);
    /* a wall of 0.5 m triangles: the floor grid turned upright at x = -4.5 */
    floor_grid(t, n, -4, 0, 4, 0, 0, 3u);
    for (int k = 0; k < n * n * 2 * 3; k++) {
        float x = t[3 * k], z = t[3 * k + 2];
        t[3 * k] = -4.5f;
        t[3 * k + 1] = x + 4;
        t[3 * k + 2] = z - 2;
    }
    add_tris(c, t, n * n * 2, zero);
    add_box(c, 1, 0, 1, 2, 0.25f, 2); /* a kerb */
    free(t);
    /* the same sweeps answered from a gather of their region: its candidates are tested in the
     * order of the earliest each can be met, and ties on the grid's shared edges and vertices
     * still go to the lowest triangle */
    gait_gather g;
    void *gmem = gather_1024(&g);
    int hits = 0, mismatches = 0, gathered_mismatches = 0, gathered = 0;
    for (int i = 0; i < 20000; i++) {
        /* a start on the grid's lines now and then (exact ties), else anywhere */
        double x = rr(&r, -5, 11), z = rr(&r, -5, 5);
        if (i % 3 == 0) x = floor(x * 2) / 2;
        if (i % 5 == 0) z = floor(z * 2) / 2;
        double rad = i % 7 == 0 ? rr(&r, 0.05, 0.6) : 0.3;
        double y = rr(&r, 0, 1.5) + rad;
        gait_capsule cap = {{x, y, z}, {x, y + (i % 4 == 0 ? 0 : 1.1), z}, rad};
        gait_vec3 d;
        int kind = i % 4;
        if (kind == 0) d = (gait_vec3){0, -rr(&r, 0.2, 3), 0};                       /* drop */
        else if (kind == 1) d = (gait_vec3){rr(&r, -1, 1), -rr(&r, 0, 1), rr(&r, -1, 1)}; /* slant */
        else if (kind == 2) d = (gait_vec3){-rr(&r, 0, 3), 0, rr(&r, -0.5, 0.5)};       /* into the wall */
        else d = (gait_vec3){rr(&r, -0.3, 0.3), 0, rr(&r, -0.3, 0.3)};                  /* a walk */
        gait_hit ha, hb;
        memset(&ha, 0, sizeof ha);
        memset(&hb, 0, sizeof hb);
        bool fa = gait__capsule_sweep_ex(c, &cap, d, NULL, &ha, 0);
        bool fb = gait__capsule_sweep_ex(c, &cap, d, NULL, &hb, 1);
        hits += fa;
        if (fa != fb || (fa && !same_hit(&ha, &hb))) mismatches++;
        gait_vec3 lo = {fmin(x, x + d.x) - rad - 0.1, fmin(cap.a.y, cap.a.y + d.y) - rad - 0.1, fmin(z, z + d.z) - rad - 0.1};
        gait_vec3 hi = {fmax(x, x + d.x) + rad + 0.1, fmax(cap.b.y, cap.b.y + d.y) + rad + 0.1, fmax(z, z + d.z) + rad + 0.1};
        if (gait_collider_gather(c, lo, hi, &g) != GAIT_OK || g.overflow) continue;
        gait_hit hg;
        memset(&hg, 0, sizeof hg);
        bool fg = gait_gather_capsule_sweep(&g, &cap, d, NULL, &hg);
        gathered++;
        if (fg != fb || (fg && !same_hit(&hg, &hb))) gathered_mismatches++;
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(gathered_mismatches, 0);
    CHECK(gathered > 15000);
    free(gmem);
    printf("  tessellations: %d sweeps, %d hits\n", 20000, hits);
    CHECK(hits > 5000);
    gait_collider_destroy(c);
}

/* Rays straight down (the height probe's 1000 m, a ledge's trace) take their own walk through a
 * tree: top first, the boxes below the best hit so far culled. They must give what testing every
 * triangle gives: stacked floors of 1 m and jittered tessellations (rays on their grid lines and
 * vertices: exact ties between triangles), a coincident copy of a floor, slanted soups, a wall
 * the rays run along, and from a gather that holds only the ray's start. */
TEST(collide_rays_straight_down_equal_brute_force) {
    rng r = {4242};
    scene s;
    build_scene(&s, &r);
    int n = 8;
    float *t = malloc(sizeof(float) * 9 * 2 * (size_t)(n * n));
    gait_vec3 zero = {0, 0, 0};
    for (int k = 0; k < 4; k++) { /* floors at 0, 2.5, 5 and 7.5 m; the last twice over */
        floor_grid(t, n, -4, -4, 8, 2.5f * (float)k, k & 1 ? 0.6f : 0, 10u + (unsigned)k);
        add_tris(s.c, t, n * n * 2, zero);
        if (k == 3) add_tris(s.c, t, n * n * 2, zero);
    }
    floor_grid(t, n, -4, -4, 8, 0, 0, 3u); /* a wall at x = 2 the rays may run down along */
    for (int k = 0; k < n * n * 2 * 3; k++) {
        float y = t[3 * k] + 4;
        t[3 * k] = 2.0f;
        t[3 * k + 1] = y;
    }
    add_tris(s.c, t, n * n * 2, zero);
    free(t);
    gait_gather g;
    void *gmem = gather_1024(&g);
    int hits = 0, mismatches = 0, gathered_mismatches = 0, ties = 0, answered = 0;
    int floored_mismatches = 0;
    for (int i = 0; i < 20000; i++) {
        gait_filter f;
        const gait_filter *fp;
        random_filter(&r, &s, &f, &fp);
        double x = rr(&r, -6, 6), z = rr(&r, -6, 6);
        if (i % 3 == 0) x = floor(x);         /* on a grid line ... */
        if (i % 5 == 0) z = floor(z);         /* ... or a vertex */
        if (i % 7 == 0) x = 2;                /* down the wall's face */
        ties += i % 3 == 0 || i % 5 == 0;
        gait_vec3 o = {x, rr(&r, -2, 12), z};
        double reach = i % 4 == 0 ? 1000 : i % 4 == 1 ? rr(&r, 0.2, 3) : rr(&r, 3, 40);
        gait_vec3 d = {0, -reach, 0};
        gait_hit ha, hb, hg;
        memset(&ha, 0, sizeof ha);
        memset(&hb, 0, sizeof hb);
        memset(&hg, 0, sizeof hg);
        bool fa = gait__ray_cast_ex(s.c, o, d, fp, &ha, 0);
        bool fb = gait__ray_cast_ex(s.c, o, d, fp, &hb, 1);
        hits += fb;
        if (fa != fb || (fa && !same_hit(&ha, &hb))) mismatches++;
        /* a gather of the ray's first metre: a hit below it is the trees' */
        gait_vec3 glo = {x - 0.5, o.y - 1, z - 0.5}, ghi = {x + 0.5, o.y + 0.5, z + 0.5};
        CHECK(gait_collider_gather(s.c, glo, ghi, &g) == GAIT_OK);
        bool fg = gait_gather_ray_cast(&g, o, d, fp, &hg);
        if (fg != fb || (fg && !same_hit(&hg, &hb))) gathered_mismatches++;
        /* the same ray looking no lower than a floor (the height probe's first look, under the
         * last one's hit): where it answers, the whole ray's hit. Floors on the stacked floors'
         * heights too, the hits on them exactly there */
        double fy = i % 6 == 0 ? 2.5 * (double)(i % 4) : o.y - rr(&r, 0, 8);
        gait_hit hh;
        memset(&hh, 0, sizeof hh);
        int fh = gait__ray_down_above(s.c, i % 2 ? &g : NULL, o, d, fp, fy, &hh);
        answered += fh;
        if (fh && (!fb || !same_hit(&hh, &hb))) floored_mismatches++;
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(gathered_mismatches, 0);
    CHECK_EQ_INT(floored_mismatches, 0);
    printf("  rays straight down: 20000 (%d on grid lines), %d hits, %d answered above a floor\n",
           ties, hits, answered);
    CHECK(answered > 4000);
    CHECK(hits > 10000 && hits < 20000);
    free(gmem);
    gait_collider_destroy(s.c);
}
