/* Collision world benchmark on the meadow scene (docs/meadow-v1.md): BVH build time and
 * capsule overlap queries per second, gait against three.js's Octree (fromGraphNode +
 * capsuleIntersect) on the same triangles and the same query capsules in the same run, gait's
 * query cost as the scene grows to 4x (and with --sixteen 16x) the triangles (tiled copies) at a
 * fixed query count, and a step's queries over 10^6 coincident triangles against a clean floor.
 *
 *   build/bench/bench_collide [--scene PREFIX] [--queries N] [--passes N] [--three SCRIPT]
 *                             [--node NODE] [--json FILE] [--no-scaling] [--sixteen]
 *
 * PREFIX.bin/.json is read when present, else generated and written (the three.js side reads
 * it). The query capsules go to PREFIX_queries.bin (7 float64 each: a xyz, b xyz, radius). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gait/collide.h"

#define MEADOW_IMPLEMENTATION
#include "scene_meadow.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s / 4294967296.0;
}

/* The query capsules: the characters' capsule (r 0.3, 1.7 m tall) standing with its feet
 * 0.1 m into the terrain; three in four anywhere on the map, one in four against a box's side
 * (centre within the box's footprint grown by 0.4 m), so walls are queried too. */
static double *make_queries(const meadow_scene *s, int n) {
    double *q = malloc(sizeof(double) * 7 * (size_t)n);
    uint32_t st = 777u;
    for (int i = 0; i < n; i++) {
        double x, z;
        if (i % 4 == 3 && s->num_boxes > 0) {
            const double *b = s->boxes + 7 * (int)(lcg(&st) * s->num_boxes);
            double lx = (2 * lcg(&st) - 1) * (b[2] + 0.4), lz = (2 * lcg(&st) - 1) * (b[3] + 0.4);
            double c = cos(b[4]), sn = sin(b[4]);
            x = b[0] + lx * c + lz * sn;
            z = b[1] - lx * sn + lz * c;
        } else {
            x = 8 + 240 * lcg(&st);
            z = 8 + 240 * lcg(&st);
        }
        double feet = meadow_terrain_height(s, x, z) - 0.1;
        if (isnan(feet)) feet = 0;
        double *o = q + 7 * i;
        o[0] = x; o[1] = feet + s->radius; o[2] = z;
        o[3] = x; o[4] = feet + s->radius + 2 * s->half_segment; o[5] = z;
        o[6] = s->radius;
    }
    return q;
}

typedef struct qstats {
    double ns_per_query; /* median over passes */
    long hits;           /* queries with at least one contact */
    long contacts;
} qstats;

static qstats run_queries(const gait_collider *c, const double *q, int n, int passes) {
    static gait_contact_point ct[256];
    qstats st = {0, 0, 0};
    double *t = malloc(sizeof(double) * (size_t)(passes + 1));
    for (int p = -1; p < passes; p++) { /* pass -1 warms the caches */
        long hits = 0, contacts = 0;
        double t0 = now_s();
        for (int i = 0; i < n; i++) {
            const double *o = q + 7 * i;
            gait_capsule cap = {{o[0], o[1], o[2]}, {o[3], o[4], o[5]}, o[6]};
            int k = gait_collider_capsule_overlap(c, &cap, NULL, ct, 256, NULL);
            hits += k > 0;
            contacts += k;
        }
        double dt = now_s() - t0;
        if (p >= 0) t[p] = dt * 1e9 / n;
        st.hits = hits;
        st.contacts = contacts;
    }
    st.ns_per_query = median(t, passes);
    free(t);
    return st;
}

/* Adds `tiles` x `tiles` copies of every triangle (offset 256 m apart) as one landmark;
 * returns the build time (s) of that add. */
static double add_all(gait_collider *c, const meadow_scene *s, int tiles, gait_landmark_id *id) {
    size_t n = (size_t)s->num_triangles;
    float *buf = (float *)s->tris;
    float *tiled = NULL;
    if (tiles > 1) {
        tiled = malloc(sizeof(float) * 9 * n * (size_t)(tiles * tiles));
        size_t o = 0;
        for (int tz = 0; tz < tiles; tz++)
            for (int tx = 0; tx < tiles; tx++)
                for (size_t i = 0; i < n * 3; i++) {
                    tiled[o++] = s->tris[3 * i] + 256.0f * (float)tx;
                    tiled[o++] = s->tris[3 * i + 1];
                    tiled[o++] = s->tris[3 * i + 2] + 256.0f * (float)tz;
                }
        buf = tiled;
    }
    int count = (int)(n * (size_t)(tiles * tiles));
    gait_mesh_def m = {.positions = buf, .vertex_count = count * 3, .indices = NULL,
                       .triangle_count = count, .offset = {0, 0, 0}, .name = "meadow"};
    double t0 = now_s();
    gait_status st = gait_collider_add_landmark(c, &m, id);
    double dt = now_s() - t0;
    free(tiled);
    if (st != GAIT_OK) {
        fprintf(stderr, "add_landmark: %s\n", gait_collider_last_error(c));
        exit(1);
    }
    return dt;
}

/* The terrain as a heightfield and each box as its own landmark (12 triangles). */
static double add_heightfield_boxes(gait_collider *c, const meadow_scene *s) {
    double t0 = now_s();
    gait_heightfield_def hd = {s->grid, s->grid, s->cell, {0, 0, 0}, s->heights};
    if (gait_collider_set_terrain(c, &hd) != GAIT_OK) {
        fprintf(stderr, "set_terrain: %s\n", gait_collider_last_error(c));
        exit(1);
    }
    for (int b = 0; b < s->num_boxes; b++) {
        const float *t = s->tris + 9 * ((size_t)s->num_terrain_triangles + 12 * (size_t)b);
        gait_mesh_def m = {.positions = t, .vertex_count = 36, .indices = NULL,
                           .triangle_count = 12, .offset = {0, 0, 0}, .name = "box"};
        gait_landmark_id id;
        if (gait_collider_add_landmark(c, &m, &id) != GAIT_OK) {
            fprintf(stderr, "add_landmark: %s\n", gait_collider_last_error(c));
            exit(1);
        }
    }
    return now_s() - t0;
}

/* ---- coincident faces ---------------------------------------------------------------------- */

/* A character's step over a floor: the queries a step asks (a sweep across, a sweep down onto the
 * floor, an overlap of 16 contacts for the push-out), at n points, ns per step (median of passes). */
static double floor_steps(const gait_collider *c, int n, int passes, long *hits) {
    static gait_contact_point ct[16];
    double *t = malloc(sizeof(double) * (size_t)passes);
    uint32_t st = 99u;
    for (int p = -1; p < passes; p++) {
        long h = 0;
        double t0 = now_s();
        for (int i = 0; i < n; i++) {
            double x = -8 + 16 * lcg(&st), z = -8 + 16 * lcg(&st);
            gait_capsule cap = {{x, 0.302, z}, {x, 1.402, z}, 0.3};
            gait_vec3 across = {0.1, 0, 0.05}, down = {0, -0.3, 0};
            gait_hit hit;
            h += gait_collider_capsule_sweep(c, &cap, across, NULL, &hit);
            h += gait_collider_capsule_sweep(c, &cap, down, NULL, &hit);
            cap.a.y -= 0.01; /* 8 mm into the floor */
            cap.b.y -= 0.01;
            h += gait_collider_capsule_overlap(c, &cap, NULL, ct, 16, NULL) > 0;
        }
        if (p >= 0) t[p] = (now_s() - t0) * 1e9 / n;
        *hits = h;
    }
    double m = median(t, passes);
    free(t);
    return m;
}

/* 10^6 coincident triangles under a body against a clean floor of the same two triangles. */
static void coincident(int passes, double *ratio) {
    enum { COPIES = 500000 }; /* of a two-triangle floor: 10^6 triangles */
    const float floor2[18] = {-10, 0, -10, -10, 0, 10, 10, 0, 10, -10, 0, -10, 10, 0, 10, 10, 0, -10};
    float *stack = malloc(sizeof floor2 * COPIES);
    if (!stack) return;
    for (int k = 0; k < COPIES; k++) memcpy(stack + 18 * k, floor2, sizeof floor2);
    gait_collider_def def = gait_default_collider_def();
    gait_collider *clean = gait_collider_create(&def), *stacked = gait_collider_create(&def);
    gait_mesh_def m = {.positions = floor2, .vertex_count = 6, .indices = NULL, .triangle_count = 2,
                       .offset = {0, 0, 0}, .name = "floor"};
    gait_landmark_id id;
    gait_collider_add_landmark(clean, &m, &id);
    m.positions = stack;
    m.vertex_count = 6 * COPIES;
    m.triangle_count = 2 * COPIES;
    m.name = "stack";
    double t0 = now_s();
    gait_status stt = gait_collider_add_landmark(stacked, &m, &id);
    double build_ms = (now_s() - t0) * 1e3;
    free(stack);
    if (stt == GAIT_OK) {
        long h1 = 0, h2 = 0;
        double a = floor_steps(clean, 20000, passes, &h1), b = floor_steps(stacked, 20000, passes, &h2);
        *ratio = b / a;
        printf("coincident faces: a step's queries over 2 triangles %.0f ns, over 10^6 coincident ones %.0f ns: "
               "%.2fx (target < 10x); the stack built in %.0f ms; answers %s\n",
               a, b, *ratio, build_ms, h1 == h2 ? "alike" : "DIFFER");
    }
    gait_collider_destroy(clean);
    gait_collider_destroy(stacked);
}

/* Runs the three.js side; fills build ms (median), ns per query (median) and hits. */
static int run_three(const char *node, const char *script, const char *prefix, const char *qfile,
                     int passes, double *build_ms, double *ns, long *hits, char *version, size_t vcap) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' '%s' --scene '%s' --queries '%s' --passes %d", node, script, prefix, qfile, passes);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    char line[65536];
    int ok = -1;
    while (fgets(line, sizeof line, p)) {
        const char *b = strstr(line, "\"buildMsMedian\":"), *q = strstr(line, "\"nsPerQueryMedian\":");
        const char *h = strstr(line, "\"hits\":"), *v = strstr(line, "\"three\":\"");
        if (b && q && h) {
            *build_ms = strtod(b + 16, NULL);
            *ns = strtod(q + 19, NULL);
            *hits = strtol(h + 7, NULL, 10);
            if (v) {
                v += 9;
                size_t k = 0;
                while (v[k] && v[k] != '"' && k + 1 < vcap) { version[k] = v[k]; k++; }
                version[k] = 0;
            }
            ok = 0;
        }
    }
    int rc = pclose(p);
    return rc == 0 ? ok : -1;
}

int main(int argc, char **argv) {
    const char *prefix = "build/bench/meadow", *three = NULL, *node = "node", *json = NULL;
    int nq = 20000, passes = 5, scaling = 1, max_tiles = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--scene") && i + 1 < argc) prefix = argv[++i];
        else if (!strcmp(argv[i], "--queries") && i + 1 < argc) nq = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--passes") && i + 1 < argc) passes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--three") && i + 1 < argc) three = argv[++i];
        else if (!strcmp(argv[i], "--node") && i + 1 < argc) node = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--no-scaling")) scaling = 0;
        else if (!strcmp(argv[i], "--sixteen")) max_tiles = 4;
        else {
            fprintf(stderr, "usage: %s [--scene PREFIX] [--queries N] [--passes N] [--three SCRIPT] [--node NODE] [--json FILE] [--no-scaling] [--sixteen]\n", argv[0]);
            return 2;
        }
    }
    if (nq < 1 || passes < 1) return 2;
    meadow_scene s;
    char err[512];
    if (meadow_read(&s, prefix, err, sizeof err)) {
        if (meadow_generate(&s, 1000, err, sizeof err) || meadow_write(&s, prefix, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        printf("meadow: generated %s.bin/.json\n", prefix);
    }
    if (!s.grid) {
        fprintf(stderr, "bench_collide: the scene has no terrain grid\n");
        return 1;
    }
    double *q = make_queries(&s, nq);
    char qfile[4200];
    snprintf(qfile, sizeof qfile, "%s_queries.bin", prefix);
    FILE *f = fopen(qfile, "wb");
    if (!f || fwrite(q, sizeof(double) * 7, (size_t)nq, f) != (size_t)nq) {
        fprintf(stderr, "cannot write %s\n", qfile);
        return 1;
    }
    fclose(f);

    printf("== collide: meadow, %d triangles (%d terrain + %d boxes x 12), %d capsule queries, median of %d passes\n",
           s.num_triangles, s.num_terrain_triangles, s.num_boxes, nq, passes);

    /* A: every triangle in one landmark BVH (exactly what three.js gets) */
    gait_collider_def def = gait_default_collider_def();
    gait_collider *c = gait_collider_create(&def);
    double builds[3];
    gait_landmark_id id;
    for (int b = 0; b < 3; b++) {
        builds[b] = add_all(c, &s, 1, &id);
        if (b < 2) gait_collider_remove_landmark(c, id);
    }
    double build_a = median(builds, 3) * 1e3;
    gait_landmark_info info;
    gait_collider_landmark_info(c, id, &info);
    qstats qa = run_queries(c, q, nq, passes);
    gait_collider_destroy(c);

    /* B: the terrain as a heightfield, the boxes as 400 landmarks */
    double build_b_v[3];
    qstats qb = {0, 0, 0};
    for (int b = 0; b < 3; b++) {
        c = gait_collider_create(&def);
        build_b_v[b] = add_heightfield_boxes(c, &s);
        if (b == 2) qb = run_queries(c, q, nq, passes);
        gait_collider_destroy(c);
    }
    double build_b = median(build_b_v, 3) * 1e3;

    printf("%-44s %10s %12s %12s %8s\n", "variant", "build ms", "ns/query", "queries/s", "hits");
    printf("%-44s %10.2f %12.0f %12.0f %8ld\n", "gait  landmark BVH (all triangles)", build_a, qa.ns_per_query, 1e9 / qa.ns_per_query, qa.hits);
    printf("%-44s %10.2f %12.0f %12.0f %8ld\n", "gait  heightfield + 400 box landmarks", build_b, qb.ns_per_query, 1e9 / qb.ns_per_query, qb.hits);
    printf("      (BVH: %d triangles kept, %.1f MB; contacts per query: %.2f landmark, %.2f heightfield)\n",
           info.triangle_count, info.memory_bytes / 1048576.0, (double)qa.contacts / nq, (double)qb.contacts / nq);

    double t_build = NAN, t_ns = NAN;
    long t_hits = -1;
    char version[64] = "?";
    if (three) {
        if (run_three(node, three, prefix, qfile, passes, &t_build, &t_ns, &t_hits, version, sizeof version) == 0) {
            printf("%-44s %10.2f %12.0f %12.0f %8ld\n", "three.js Octree.fromGraphNode/capsuleIntersect", t_build, t_ns, 1e9 / t_ns, t_hits);
            printf("three.js %s: build %.1fx slower than gait's BVH (target >= 10x), queries %.1fx slower (target >= 5x);"
                   " vs the heightfield variant: queries %.1fx slower\n",
                   version, t_build / build_a, t_ns / qa.ns_per_query, t_ns / qb.ns_per_query);
        } else {
            printf("three.js: the peer did not run (%s %s); see its messages above\n", node, three);
        }
    }

    double sc_ns[3] = {qa.ns_per_query, NAN, NAN}, sc_build[3] = {build_a, NAN, NAN};
    int sc_tris[3] = {info.triangle_count, 0, 0};
    if (scaling) {
        /* the three sizes stay alive and their passes are interleaved, so load from other
         * processes on a shared machine falls on all three alike */
        printf("gait query cost as the triangles grow (tiled copies in one landmark; same %d queries, interleaved passes):\n", nq);
        gait_collider *cs[3] = {NULL, NULL, NULL};
        int sizes = max_tiles == 4 ? 3 : 2; /* 16x (2.2 M triangles) only when asked: its builds take a while */
        for (int k = 0; k < sizes; k++) {
            cs[k] = gait_collider_create(&def);
            sc_build[k] = add_all(cs[k], &s, 1 << k, &id) * 1e3;
            gait_collider_landmark_info(cs[k], id, &info);
            sc_tris[k] = info.triangle_count;
        }
        double per[3][16];
        int np = passes < 16 ? passes : 16;
        for (int k = 0; k < sizes; k++) run_queries(cs[k], q, nq, 1); /* warm */
        for (int p = 0; p < np; p++)
            for (int k = 0; k < sizes; k++) per[k][p] = run_queries(cs[k], q, nq, 1).ns_per_query;
        printf("  %-10s %12s %10s %12s %10s\n", "triangles", "count", "build ms", "ns/query", "vs 1x");
        for (int k = 0; k < sizes; k++) {
            sc_ns[k] = median(per[k], np);
            printf("  %-10s %12d %10.2f %12.0f %10.2f\n", k == 0 ? "1x" : k == 1 ? "4x" : "16x", sc_tris[k], sc_build[k], sc_ns[k], sc_ns[k] / sc_ns[0]);
            gait_collider_destroy(cs[k]);
        }
        if (sizes == 3)
            printf("  growth per 4x triangles: %.2fx (1x->4x), %.2fx (4x->16x) (target < 1.3x)\n", sc_ns[1] / sc_ns[0], sc_ns[2] / sc_ns[1]);
        else
            printf("  growth per 4x triangles: %.2fx (1x->4x) (target < 1.3x; --sixteen adds 16x)\n", sc_ns[1] / sc_ns[0]);
    }
    double stack_ratio = NAN;
    coincident(passes, &stack_ratio);
    if (json) {
        for (int k = 0; k < 3; k++) { /* JSON has no NaN: -1 marks what did not run */
            if (isnan(sc_ns[k])) sc_ns[k] = -1;
            if (isnan(sc_build[k])) sc_build[k] = -1;
        }
        FILE *o = fopen(json, "w");
        if (o) {
            fprintf(o, "{\"bench\":\"collide\",\"scene\":\"%s\",\"queries\":%d,\"passes\":%d,"
                       "\"gait_landmark\":{\"buildMs\":%.4f,\"nsPerQuery\":%.2f,\"hits\":%ld},"
                       "\"gait_heightfield\":{\"buildMs\":%.4f,\"nsPerQuery\":%.2f,\"hits\":%ld},"
                       "\"three\":{\"version\":\"%s\",\"buildMs\":%.4f,\"nsPerQuery\":%.2f,\"hits\":%ld},"
                       "\"scaling\":{\"triangles\":[%d,%d,%d],\"buildMs\":[%.3f,%.3f,%.3f],\"nsPerQuery\":[%.2f,%.2f,%.2f]},"
                       "\"coincidentStepRatio\":%.4f}\n",
                    prefix, nq, passes, build_a, qa.ns_per_query, qa.hits, build_b, qb.ns_per_query, qb.hits,
                    version, isnan(t_build) ? -1.0 : t_build, isnan(t_ns) ? -1.0 : t_ns, t_hits,
                    sc_tris[0], sc_tris[1], sc_tris[2], sc_build[0], sc_build[1], sc_build[2],
                    sc_ns[0], sc_ns[1], sc_ns[2], isnan(stack_ratio) ? -1.0 : stack_ratio);
            fclose(o);
        }
    }
    free(q);
    meadow_free(&s);
    return 0;
}
