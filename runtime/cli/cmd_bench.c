/* gait bench --scene PREFIX [--chars N] [--reps R] [--out RESULT.json] [--variant V] [--tess K]
 *
 * The meadow benchmark (format meadow-v1: docs/meadow-v1.md) on gait's body mover:
 * every character runs the scene's motion exactly — each fixed step, vertical velocity reset when
 * the mover reported grounded, gravity added, desired horizontal speed along its heading — through
 * gait_mover_step, the same walk / fly / push-out code the characters' body runs. 60 warm-up and
 * 600 timed steps, 3 repetitions, every character reset to its spawn each time.
 *
 * Variants (how the scene reaches gait):
 *   heightfield (default)  the terrain as gait's heightfield (gait's design: the body reads the
 *                          height function), the 400 boxes as one landmark octree;
 *   mesh                   every triangle, terrain included, as one landmark octree (no
 *                          heightfield), to show what the triangle path alone costs.
 * --tess 2 splits every triangle into 4 (the terrain by sampling the same surface on a grid twice
 * as fine): 4x the triangles of the same shapes, for the scaling figure.
 *
 * The mover is the public one (gait/mover.h): the benchmark measures the body's own code path,
 * not a copy of it. Allocations are counted through the collider's allocator hook during the
 * timed steps. Result JSON as docs/meadow-v1.md gives it, plus "allocsDuringTimedSteps" and "stats". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gait/mover.h"
#include "cmd.h"

#define MEADOW_IMPLEMENTATION
#include "../../tests/bench/meadow.h"

typedef struct bench_alloc {
    long allocs;
} bench_alloc;

static void *bench_alloc_fn(size_t size, void *user) {
    ((bench_alloc *)user)->allocs++;
    return malloc(size);
}
static void bench_free_fn(void *p, size_t size, void *user) {
    (void)size;
    (void)user;
    free(p);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_usage(void) {
    fprintf(stderr, "usage: gait bench --scene PREFIX [--chars N] [--reps R] [--out RESULT.json]\n"
                    "                  [--variant heightfield|mesh] [--tess 1|2]\n");
    return 2;
}

/* Midpoint split of one triangle into 4, written at out (36 floats). */
static void split4(const float *t, float *out) {
    float m[3][3];
    for (int e = 0; e < 3; e++)
        for (int a = 0; a < 3; a++) m[e][a] = 0.5f * (t[3 * e + a] + t[3 * ((e + 1) % 3) + a]);
    const float *tri[4][3] = {{t, m[0], m[2]}, {m[0], t + 3, m[1]}, {m[2], m[1], t + 6}, {m[0], m[1], m[2]}};
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 3; j++)
            for (int a = 0; a < 3; a++) *out++ = tri[k][j][a];
}

/* Adds triangles [first, first + count) of the scene as one landmark (split 4-way when tess). */
static int add_mesh(gait_collider *c, const meadow_scene *s, int first, int count, int tess,
                    const char *name) {
    if (count <= 0) return 0;
    int n = tess == 2 ? count * 4 : count;
    float *buf = malloc(sizeof(float) * 9 * (size_t)n);
    if (!buf) return -1;
    for (int t = 0; t < count; t++) {
        const float *src = s->tris + 9 * (size_t)(first + t);
        if (tess == 2) split4(src, buf + 36 * (size_t)t);
        else memcpy(buf + 9 * (size_t)t, src, sizeof(float) * 9);
    }
    gait_mesh_def m;
    memset(&m, 0, sizeof m);
    m.positions = buf;
    m.vertex_count = n * 3;
    m.triangle_count = n;
    m.name = name;
    gait_landmark_id id;
    gait_status st = gait_collider_add_landmark(c, &m, &id);
    free(buf);
    if (st != GAIT_OK) {
        fprintf(stderr, "gait bench: %s: %s\n", name, gait_collider_last_error(c));
        return -1;
    }
    return 0;
}

static int set_heightfield(gait_collider *c, const meadow_scene *s, int tess) {
    int g = tess == 2 ? 2 * (s->grid - 1) + 1 : s->grid;
    double cell = tess == 2 ? s->cell / 2 : s->cell;
    float *h = malloc(sizeof(float) * (size_t)g * (size_t)g);
    if (!h) return -1;
    for (int iz = 0; iz < g; iz++)
        for (int ix = 0; ix < g; ix++)
            h[iz * g + ix] = tess == 2 ? (float)meadow_terrain_height(s, ix * cell, iz * cell)
                                       : s->heights[iz * g + ix];
    gait_heightfield_def hd;
    memset(&hd, 0, sizeof hd);
    hd.samples_x = hd.samples_z = g;
    hd.cell_size = cell;
    hd.heights = h;
    gait_status st = gait_collider_set_terrain(c, &hd);
    free(h);
    if (st != GAIT_OK) {
        fprintf(stderr, "gait bench: terrain: %s\n", gait_collider_last_error(c));
        return -1;
    }
    return 0;
}

/* A capsule axis point inside box b (cx, cz, halfX, halfZ, angle, y0, y1) by more than margin. */
static int inside_box(const double *b, double x, double y, double z, double margin) {
    double dx = x - b[0], dz = z - b[1], c = cos(b[4]), sn = sin(b[4]);
    double lx = dx * c - dz * sn, lz = dx * sn + dz * c;
    return fabs(lx) < b[2] - margin && fabs(lz) < b[3] - margin && y > b[5] + margin && y < b[6] - margin;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int gait_cli_bench(int argc, char **argv) {
    const char *scene_path = NULL, *out_path = NULL, *variant = "heightfield";
    int chars = 0, reps = 0, tess = 1;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = gait_cli_option(argc, argv, &i, "--scene"))) scene_path = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--chars"))) chars = atoi(v);
        else if ((v = gait_cli_option(argc, argv, &i, "--reps"))) reps = atoi(v);
        else if ((v = gait_cli_option(argc, argv, &i, "--out"))) out_path = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--variant"))) variant = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--tess"))) tess = atoi(v);
        else return bench_usage();
    }
    if (!scene_path || chars < 0 || reps < 0 || (tess != 1 && tess != 2) ||
        (strcmp(variant, "heightfield") && strcmp(variant, "mesh")))
        return bench_usage();

    meadow_scene s;
    char err[512];
    if (meadow_read(&s, scene_path, err, sizeof err)) {
        fprintf(stderr, "gait bench: %s\n", err);
        return 1;
    }
    int n = chars > 0 && chars < s.num_characters ? chars : s.num_characters;
    if (reps <= 0) reps = s.repetitions;
    bool use_hf = !strcmp(variant, "heightfield") && s.grid > 0;

    bench_alloc counter = {0};
    gait_collider_def cd = gait_default_collider_def();
    cd.hooks.alloc = bench_alloc_fn;
    cd.hooks.free = bench_free_fn;
    cd.hooks.user = &counter;
    double t0 = now_seconds();
    gait_collider *col = gait_collider_create(&cd);
    int rc = col ? 0 : -1;
    if (!rc && use_hf) rc = set_heightfield(col, &s, tess);
    if (!rc && use_hf) rc = add_mesh(col, &s, s.num_terrain_triangles, s.num_triangles - s.num_terrain_triangles, tess, "boxes");
    if (!rc && !use_hf) rc = add_mesh(col, &s, 0, s.num_triangles, tess, "meadow");
    double build_ms = (now_seconds() - t0) * 1e3;
    if (rc) {
        gait_collider_destroy(col);
        meadow_free(&s);
        return 1;
    }

    /* the peers' settings: step 0.3 m, steepest walkable slope 45 deg */
    gait_mover m;
    gait_mover_init(&m, col, s.radius, s.height, 0.3, 45.0 * M_PI / 180.0);
    if (!use_hf) m.filter.skip_terrain = false; /* no heightfield: nothing to skip */

    gait_mover_state *st = calloc((size_t)n, sizeof *st);
    double *vy = calloc((size_t)n, sizeof(double));
    double *prev = calloc((size_t)n * 3, sizeof(double));
    double *final_feet = calloc((size_t)n * 3, sizeof(double));
    double *path = calloc((size_t)n, sizeof(double));
    double *us = calloc((size_t)reps, sizeof(double));
    if (!st || !vy || !prev || !final_feet || !path || !us) {
        fprintf(stderr, "gait bench: out of memory\n");
        return 1;
    }
    bool identical = true;
    long allocs_timed = 0;
    int total = s.warmup_steps + s.timed_steps;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < n; i++) {
            st[i].feet.x = s.spawn[3 * i];
            st[i].feet.y = s.spawn[3 * i + 1];
            st[i].feet.z = s.spawn[3 * i + 2];
            st[i].ground_normal.x = 0;
            st[i].ground_normal.y = 1;
            st[i].ground_normal.z = 0;
            st[i].grounded = false;
            st[i].cache.valid = false; /* a repetition starts with nothing cached */
            vy[i] = 0;
            path[i] = 0;
        }
        double timed = 0;
        long allocs0 = 0;
        for (int k = 0; k < total; k++) {
            if (k == s.warmup_steps) {
                for (int i = 0; i < n; i++) {
                    prev[3 * i] = st[i].feet.x;
                    prev[3 * i + 1] = st[i].feet.y;
                    prev[3 * i + 2] = st[i].feet.z;
                }
                allocs0 = counter.allocs;
            }
            int seg = k / s.heading_period;
            double a0 = k >= s.warmup_steps ? now_seconds() : 0;
            for (int i = 0; i < n; i++) {
                double a = s.headings[(size_t)i * (size_t)s.num_segments + (size_t)seg];
                if (st[i].grounded) vy[i] = 0;
                vy[i] -= s.gravity * s.dt;
                gait_vec3 vel = {s.speed * cos(a), vy[i], s.speed * sin(a)};
                gait_mover_step(&m, &st[i], vel, s.dt, NULL);
            }
            if (k >= s.warmup_steps) {
                timed += now_seconds() - a0;
                for (int i = 0; i < n; i++) {
                    path[i] += hypot(st[i].feet.x - prev[3 * i], st[i].feet.z - prev[3 * i + 2]);
                    prev[3 * i] = st[i].feet.x;
                    prev[3 * i + 1] = st[i].feet.y;
                    prev[3 * i + 2] = st[i].feet.z;
                }
            }
        }
        allocs_timed += counter.allocs - allocs0;
        us[r] = timed * 1e6 / ((double)s.timed_steps * n);
        if (r > 0 && memcmp(final_feet, prev, sizeof(double) * 3 * (size_t)n) != 0) identical = false;
        memcpy(final_feet, prev, sizeof(double) * 3 * (size_t)n);
        fprintf(stderr, "  gait %s%s rep %d/%d: %.3f us/char-step\n", variant, tess == 2 ? " x4" : "",
                r + 1, reps, us[r]);
    }

    /* the sanity figures of docs/meadow-v1.md */
    double ideal = s.speed * s.dt * s.timed_steps, sum_path = 0, sum_above = 0;
    int stuck = 0, fell = 0, off = 0, in_box = 0, n_above = 0;
    for (int i = 0; i < n; i++) {
        double x = final_feet[3 * i], y = final_feet[3 * i + 1], z = final_feet[3 * i + 2];
        sum_path += path[i];
        if (path[i] < 0.1 * ideal) stuck++;
        double h = meadow_terrain_height(&s, x, z);
        if (isnan(h)) off++;
        else {
            if (y < h - 0.5) fell++;
            if (y - h < 0.3) { sum_above += y - h; n_above++; }
        }
        double axis[3] = {s.radius, s.radius + s.half_segment, s.radius + 2 * s.half_segment};
        int inside = 0;
        for (int b = 0; b < s.num_boxes && !inside; b++)
            for (int k = 0; k < 3 && !inside; k++) inside = inside_box(s.boxes + 7 * b, x, y + axis[k], z, 0.02);
        in_box += inside;
    }
    double *sorted = malloc(sizeof(double) * (size_t)reps);
    memcpy(sorted, us, sizeof(double) * (size_t)reps);
    qsort(sorted, (size_t)reps, sizeof(double), cmp_double);
    double median = reps % 2 ? sorted[reps / 2] : 0.5 * (sorted[reps / 2 - 1] + sorted[reps / 2]);
    free(sorted);
    int tris = (use_hf ? s.num_triangles - s.num_terrain_triangles : s.num_triangles) * (tess == 2 ? 4 : 1);
    int hf_tris = use_hf ? s.num_terrain_triangles * (tess == 2 ? 4 : 1) : 0;
    printf("{\"peer\": \"gait\", \"variant\": \"%s%s\", \"medianUs\": %.4f, \"meanPath\": %.3f, \"stuck\": %d, "
           "\"fell\": %d, \"offMap\": %d, \"inBox\": %d, \"feetAboveTerrain\": %.5f, \"repsBitIdentical\": %s, "
           "\"allocsDuringTimedSteps\": %ld, \"buildMs\": %.1f}\n",
           variant, tess == 2 ? "-x4" : "", median, sum_path / n, stuck, fell, off, in_box,
           n_above ? sum_above / n_above : 0.0, identical ? "true" : "false", allocs_timed, build_ms);

    if (out_path) {
        FILE *f = fopen(out_path, "w");
        if (!f) {
            fprintf(stderr, "gait bench: cannot write %s\n", out_path);
            rc = 1;
        } else {
            fprintf(f, "{\"peer\": \"gait\", \"variant\": \"%s%s\", \"versions\": {\"gait\": \"%d.%d.%d\"},\n",
                    variant, tess == 2 ? "-x4" : "", GAIT_VERSION_MAJOR, GAIT_VERSION_MINOR, GAIT_VERSION_PATCH);
            fprintf(f, " \"config\": \"body mover (gait_mover_step): sweep-and-slide, step 0.3 m, "
                       "walkable 45 deg, ground snap 0.3 m, push-out; %s; %d landmark triangles%s; 1 thread\",\n",
                    use_hf ? "terrain as a heightfield (height function)" : "terrain as triangles",
                    tris, use_hf ? "" : " (terrain included)");
            fprintf(f, " \"numCharacters\": %d, \"timedSteps\": %d, \"reps\": %d, \"buildMs\": %.3f,\n", n,
                    s.timed_steps, reps, build_ms);
            fprintf(f, " \"landmarkTriangles\": %d, \"heightfieldTriangles\": %d,\n", tris, hf_tris);
            fprintf(f, " \"usPerCharStep\": [");
            for (int r = 0; r < reps; r++) fprintf(f, r ? ", %.5f" : "%.5f", us[r]);
            fprintf(f, "], \"medianUsPerCharStep\": %.5f,\n", median);
            fprintf(f, " \"repsBitIdentical\": %s, \"allocsDuringTimedSteps\": %ld,\n",
                    identical ? "true" : "false", allocs_timed);
            fprintf(f, " \"stats\": {\"meanPath\": %.5f, \"idealPath\": %.5f, \"stuck\": %d, \"fell\": %d, "
                       "\"offMap\": %d, \"inBox\": %d, \"meanFeetAboveTerrain\": %.6f},\n",
                    sum_path / n, ideal, stuck, fell, off, in_box, n_above ? sum_above / n_above : 0.0);
            fprintf(f, " \"finalFeet\": [");
            for (int i = 0; i < 3 * n; i++) fprintf(f, i ? ",%.5f" : "%.5f", final_feet[i]);
            fprintf(f, "],\n \"pathLen\": [");
            for (int i = 0; i < n; i++) fprintf(f, i ? ",%.5f" : "%.5f", path[i]);
            fprintf(f, "]}\n");
            if (fclose(f) != 0) rc = 1;
        }
    }
    free(st);
    free(vy);
    free(prev);
    free(final_feet);
    free(path);
    free(us);
    gait_collider_destroy(col);
    meadow_free(&s);
    return rc ? 1 : 0;
}
