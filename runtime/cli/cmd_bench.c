/* gait bench --scene PREFIX [--chars N] [--reps R] [--out RESULT.json] [--variant V] [--tess K]
 *            [--whole]
 *
 * The meadow benchmark (format meadow-v1: docs/meadow-v1.md) on gait's body mover: every
 * character runs the scene's motion exactly — each fixed step, vertical velocity reset when the
 * mover reported grounded, gravity added, desired horizontal speed along its heading — through
 * gait_mover_step, the same walk / fly / push-out code the characters' body runs. 60 warm-up and
 * 600 timed steps, 3 repetitions, every character reset to its spawn each time.
 *
 * --whole runs the same characters a second time through the public API, gait_world_step: the
 * whole character step a game pays (presses, gates, stamina, traversal, body, anim; no camera),
 * with the stick held forward along the scene's headings (the camera's yaw turned to the heading,
 * move_y = 1) and the body's numbers set to the scene's (run speed, gravity, capsule, step 0.3 m,
 * 45 deg). Bodies do what the game does with that input: a stick held into a wall climbs it.
 * Both figures are printed; the result JSON is the whole step's, the mover's beside it.
 *
 * Variants (how the scene reaches gait):
 *   heightfield (default)  the terrain as gait's heightfield (gait's design: the body reads the
 *                          height function), the boxes as one landmark;
 *   mesh                   every triangle, terrain included, as one landmark (no heightfield).
 * A scene with no terrain (a level, runtime/cli/scene_level.h) is always a mesh.
 * --tess 2 splits every triangle into 4 (a terrain by sampling the same surface on a grid twice
 * as fine): 4x the triangles of the same shapes, for the scaling figure.
 *
 * Sanity figures (the peers' report computes the same from the raw final feet and path lengths):
 * mean path, stuck (path < 10 % of ideal); with a terrain: fell through (> 0.5 m under it), off
 * the map, a capsule axis point inside a box by > 2 cm; without: fell out of the level (> 1 m
 * under its lowest triangle, or outside its bounds in x, z) and a capsule axis point inside the
 * level's solid matter by > 2 cm.
 *
 * Timed steps run inside gait_bench_timed_mover / gait_bench_timed_whole (never inlined), so
 * `valgrind --tool=callgrind --toggle-collect=gait_bench_timed_*` counts exactly the instructions
 * of the timed steps (scripts/bench_callgrind.sh). Allocations are counted through the hooks
 * during the timed steps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gait/mover.h"
#include "cmd.h"

#define MEADOW_IMPLEMENTATION
#include "scene_meadow.h"
#include "scene_level.h"

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
                    "                  [--variant heightfield|mesh] [--tess 1|2] [--whole]\n");
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

/* Triangles the scene's landmarks store, coplanar pieces merged (gait_landmark_info). */
static int stored_tris;

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
    gait_landmark_info info;
    if (st == GAIT_OK) st = gait_collider_landmark_info(c, id, &info);
    if (st != GAIT_OK) {
        fprintf(stderr, "gait bench: %s: %s\n", name, gait_collider_last_error(c));
        return -1;
    }
    stored_tris += info.stored_count;
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

/* The scene into a collider; the time it took (ms) in *ms. */
static int build_scene(gait_collider *c, const meadow_scene *s, bool use_hf, int tess, double *ms) {
    stored_tris = 0;
    double t0 = now_seconds();
    int rc = 0;
    if (use_hf) {
        rc = set_heightfield(c, s, tess);
        if (!rc) rc = add_mesh(c, s, s->num_terrain_triangles, s->num_triangles - s->num_terrain_triangles, tess, "boxes");
    } else {
        rc = add_mesh(c, s, 0, s->num_triangles, tess, s->grid ? "meadow" : "level");
    }
    *ms = (now_seconds() - t0) * 1e3;
    return rc;
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

static double median_of(const double *v, int n) {
    double *s = malloc(sizeof(double) * (size_t)n);
    if (!s) return NAN;
    memcpy(s, v, sizeof(double) * (size_t)n);
    qsort(s, (size_t)n, sizeof(double), cmp_double);
    double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

/* One run's outcome: timings per repetition, the last repetition's final feet and paths. */
typedef struct bench_run {
    double *us;                 /* reps */
    double *final_feet;         /* 3 per character */
    double *path;               /* per character */
    bool identical;             /* final feet bit-identical across repetitions */
    long allocs;                /* during the timed steps, all repetitions */
    double median;
} bench_run;

typedef struct bench_stats {
    double mean_path, ideal, feet_above;
    int stuck, fell, off, inside;
} bench_stats;

static void stats_of(const meadow_scene *s, const bench_run *r, int n, bench_stats *st) {
    memset(st, 0, sizeof *st);
    st->ideal = s->speed * s->dt * s->timed_steps;
    double sum_path = 0, sum_above = 0;
    int n_above = 0;
    double axis[3] = {s->radius, s->radius + s->half_segment, s->radius + 2 * s->half_segment};
    for (int i = 0; i < n; i++) {
        double x = r->final_feet[3 * i], y = r->final_feet[3 * i + 1], z = r->final_feet[3 * i + 2];
        sum_path += r->path[i];
        if (r->path[i] < 0.1 * st->ideal) st->stuck++;
        int inside = 0;
        if (s->grid) {
            double h = meadow_terrain_height(s, x, z);
            if (isnan(h)) st->off++;
            else {
                if (y < h - 0.5) st->fell++;
                if (y - h < 0.3) { sum_above += y - h; n_above++; }
            }
            for (int b = 0; b < s->num_boxes && !inside; b++)
                for (int k = 0; k < 3 && !inside; k++) inside = inside_box(s->boxes + 7 * b, x, y + axis[k], z, 0.02);
        } else {
            if (!(x >= s->bounds[0] && x <= s->bounds[3] && z >= s->bounds[2] && z <= s->bounds[5])) st->off++;
            else if (y < s->bounds[1] - 1) st->fell++;
            for (int k = 0; k < 3 && !inside && !s->open_mesh; k++)
                inside = level_inside_solid(s, x, y + axis[k], z, 0.02);
        }
        st->inside += inside;
    }
    st->mean_path = sum_path / n;
    st->feet_above = n_above ? sum_above / n_above : 0.0;
}

static int run_alloc(bench_run *r, int n, int reps) {
    memset(r, 0, sizeof *r);
    r->us = calloc((size_t)reps, sizeof(double));
    r->final_feet = calloc((size_t)n * 3, sizeof(double));
    r->path = calloc((size_t)n, sizeof(double));
    r->identical = true;
    return r->us && r->final_feet && r->path ? 0 : -1;
}

static void run_free(bench_run *r) {
    free(r->us);
    free(r->final_feet);
    free(r->path);
}

/* ---- the mover ----------------------------------------------------------------------------- */

typedef struct mover_bench {
    const meadow_scene *s;
    gait_mover m;
    gait_mover_state *st;
    double *vy;
    gait_gather *gathers;       /* one a character, as a world's characters have theirs */
    int n;
} mover_bench;

static void mover_step_all(mover_bench *b, int seg) {
    const meadow_scene *s = b->s;
    for (int i = 0; i < b->n; i++) {
        b->m.gather = &b->gathers[i];
        double a = s->headings[(size_t)i * (size_t)s->num_segments + (size_t)seg];
        if (b->st[i].grounded) b->vy[i] = 0;
        b->vy[i] -= s->gravity * s->dt;
        gait_vec3 vel = {s->speed * cos(a), b->vy[i], s->speed * sin(a)};
        gait_mover_step(&b->m, &b->st[i], vel, s->dt, NULL);
    }
}

/* The timed steps of the mover (a function of its own for callgrind's --toggle-collect). */
__attribute__((noinline)) void gait_bench_timed_mover(mover_bench *b, int seg);
__attribute__((noinline)) void gait_bench_timed_mover(mover_bench *b, int seg) { mover_step_all(b, seg); }

static int run_mover(const meadow_scene *s, const gait_collider *col, bool mesh, int n, int reps,
                     const char *label, bench_alloc *counter, bench_run *out) {
    mover_bench b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.n = n;
    /* the peers' settings: step 0.3 m, steepest walkable slope 45 deg */
    gait_mover_init(&b.m, col, s->radius, s->height, 0.3, 45.0 * M_PI / 180.0);
    if (mesh) b.m.filter.skip_terrain = false; /* no heightfield: nothing to skip */
    /* the queries through a gather of each character's own, kept from step to step, as a
     * world's characters have theirs (128 triangles each; the scratch is allocated here, before
     * the timed steps) */
    size_t gather_bytes = gait_gather_scratch_bytes(128);
    unsigned char *gather_mem = malloc(gather_bytes * (size_t)n);
    b.gathers = calloc((size_t)n, sizeof *b.gathers);
    bool gathers_ok = gather_mem && b.gathers;
    for (int i = 0; i < n && gathers_ok; i++)
        gathers_ok = gait_gather_init(&b.gathers[i], gather_mem + gather_bytes * (size_t)i, gather_bytes) == GAIT_OK;
    b.st = calloc((size_t)n, sizeof *b.st);
    b.vy = calloc((size_t)n, sizeof(double));
    double *prev = calloc((size_t)n * 3, sizeof(double));
    if (!b.st || !b.vy || !prev || !gathers_ok || run_alloc(out, n, reps)) {
        free(b.st);
        free(b.vy);
        free(prev);
        free(gather_mem);
        free(b.gathers);
        return -1;
    }
    int total = s->warmup_steps + s->timed_steps;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < n; i++) {
            memset(&b.st[i], 0, sizeof b.st[i]);
            b.st[i].feet.x = s->spawn[3 * i];
            b.st[i].feet.y = s->spawn[3 * i + 1];
            b.st[i].feet.z = s->spawn[3 * i + 2];
            b.st[i].ground_normal.y = 1;
            b.vy[i] = 0;
            out->path[i] = 0;
        }
        double timed = 0;
        long allocs0 = 0;
        for (int k = 0; k < total; k++) {
            int seg = k / s->heading_period;
            if (k < s->warmup_steps) {
                mover_step_all(&b, seg);
                continue;
            }
            if (k == s->warmup_steps) {
                for (int i = 0; i < n; i++) memcpy(prev + 3 * i, &b.st[i].feet, sizeof(double) * 3);
                allocs0 = counter->allocs;
            }
            double a0 = now_seconds();
            gait_bench_timed_mover(&b, seg);
            timed += now_seconds() - a0;
            for (int i = 0; i < n; i++) {
                out->path[i] += hypot(b.st[i].feet.x - prev[3 * i], b.st[i].feet.z - prev[3 * i + 2]);
                memcpy(prev + 3 * i, &b.st[i].feet, sizeof(double) * 3);
            }
        }
        out->allocs += counter->allocs - allocs0;
        out->us[r] = timed * 1e6 / ((double)s->timed_steps * n);
        if (r > 0 && memcmp(out->final_feet, prev, sizeof(double) * 3 * (size_t)n) != 0) out->identical = false;
        memcpy(out->final_feet, prev, sizeof(double) * 3 * (size_t)n);
        fprintf(stderr, "  gait mover %s rep %d/%d: %.3f us/char-step\n", label, r + 1, reps, out->us[r]);
    }
    out->median = median_of(out->us, reps);
    free(b.st);
    free(b.vy);
    free(prev);
    free(gather_mem);
    free(b.gathers);
    return 0;
}

/* ---- the whole step ------------------------------------------------------------------------ */

typedef struct whole_bench {
    const meadow_scene *s;
    gait_world *w;
    gait_character_id *ids;
    int n;
    long states[GAIT_STATE_COUNT]; /* character-steps in each state, the last repetition's timed steps */
} whole_bench;

/* The stick along each character's heading: the camera's yaw turned so forward is the heading
 * (forward = (sin yaw, 0, cos yaw), heading a = (cos a, 0, sin a)), the stick full forward. */
static void whole_input(whole_bench *b, int seg) {
    const meadow_scene *s = b->s;
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_y = 1;
    for (int i = 0; i < b->n; i++) {
        double a = s->headings[(size_t)i * (size_t)s->num_segments + (size_t)seg];
        gait_character_set_camera_yaw(b->w, b->ids[i], atan2(cos(a), sin(a)));
        gait_character_set_input(b->w, b->ids[i], &in);
    }
}

__attribute__((noinline)) void gait_bench_timed_whole(gait_world *w);
__attribute__((noinline)) void gait_bench_timed_whole(gait_world *w) { gait_world_step(w); }

static int whole_feet(whole_bench *b, double *out) {
    for (int i = 0; i < b->n; i++) {
        gait_character_info info;
        if (gait_character_info_get(b->w, b->ids[i], &info) != GAIT_OK) return -1;
        if (info.phase.state >= 0 && info.phase.state < GAIT_STATE_COUNT) b->states[info.phase.state]++;
        out[3 * i] = info.position.x;
        out[3 * i + 1] = info.position.y;
        out[3 * i + 2] = info.position.z;
    }
    return 0;
}

static int run_whole(const meadow_scene *s, bool use_hf, int tess, int n, int reps, const char *label,
                     bench_alloc *counter, bench_run *out, double *build_ms) {
    gait_world_def wd = gait_default_world_def();
    wd.hooks.alloc = wd.collider.hooks.alloc = bench_alloc_fn;
    wd.hooks.free = wd.collider.hooks.free = bench_free_fn;
    wd.hooks.user = wd.collider.hooks.user = counter;
    wd.max_characters = n;
    wd.clock.step_seconds = s->dt;
    whole_bench b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.n = n;
    b.w = gait_world_create(&wd);
    b.ids = calloc((size_t)n, sizeof *b.ids);
    double *prev = calloc((size_t)n * 3, sizeof(double)), *now = calloc((size_t)n * 3, sizeof(double));
    int rc = !b.w || !b.ids || !prev || !now || run_alloc(out, n, reps) ? -1 : 0;
    if (!rc) rc = build_scene(gait_world_collider(b.w), s, use_hf, tess, build_ms);
    if (!rc) {
        gait_locomotion num = gait_default_locomotion();
        num.run_speed = s->speed;
        num.gravity = s->gravity;
        num.capsule_radius = s->radius;
        num.capsule_height = s->height;
        num.step_height = 0.3;
        num.max_walk_slope = 45.0 * M_PI / 180.0;
        if (gait_world_set_provisional_locomotion(b.w, &num) != GAIT_OK) {
            fprintf(stderr, "gait bench: locomotion: %s\n", gait_world_last_error(b.w));
            rc = -1;
        }
    }
    int total = s->warmup_steps + s->timed_steps;
    for (int r = 0; r < reps && !rc; r++) {
        for (int i = 0; i < n && !rc; i++) {
            gait_character_def cd = gait_default_character_def();
            double a = s->headings[(size_t)i * (size_t)s->num_segments];
            cd.position.x = s->spawn[3 * i];
            cd.position.y = s->spawn[3 * i + 1];
            cd.position.z = s->spawn[3 * i + 2];
            cd.yaw = atan2(cos(a), sin(a));
            cd.no_camera = true;
            if (gait_character_create(b.w, &cd, &b.ids[i]) != GAIT_OK) {
                fprintf(stderr, "gait bench: character: %s\n", gait_world_last_error(b.w));
                rc = -1;
            }
            out->path[i] = 0;
        }
        double timed = 0;
        long allocs0 = 0;
        for (int k = 0; k < total && !rc; k++) {
            whole_input(&b, k / s->heading_period);
            if (k < s->warmup_steps) {
                gait_world_step(b.w);
                continue;
            }
            if (k == s->warmup_steps) {
                rc = whole_feet(&b, prev);
                allocs0 = counter->allocs;
                memset(b.states, 0, sizeof b.states);
            }
            double a0 = now_seconds();
            gait_bench_timed_whole(b.w);
            timed += now_seconds() - a0;
            if (whole_feet(&b, now)) rc = -1;
            for (int i = 0; i < n; i++)
                out->path[i] += hypot(now[3 * i] - prev[3 * i], now[3 * i + 2] - prev[3 * i + 2]);
            memcpy(prev, now, sizeof(double) * 3 * (size_t)n);
        }
        if (rc) break;
        out->allocs += counter->allocs - allocs0;
        out->us[r] = timed * 1e6 / ((double)s->timed_steps * n);
        if (r > 0 && memcmp(out->final_feet, prev, sizeof(double) * 3 * (size_t)n) != 0) out->identical = false;
        memcpy(out->final_feet, prev, sizeof(double) * 3 * (size_t)n);
        for (int i = 0; i < n; i++) gait_character_destroy(b.w, b.ids[i]);
        fprintf(stderr, "  gait whole step %s rep %d/%d: %.3f us/char-step\n", label, r + 1, reps, out->us[r]);
    }
    if (!rc) {
        /* what the walkers spent the timed steps doing: the whole step's cost follows it (a
         * climb reads the wall and scans for its top every step; a run in the open does not) */
        long all = 0;
        for (int k = 0; k < GAIT_STATE_COUNT; k++) all += b.states[k];
        fprintf(stderr, "  gait whole step %s, states over the timed steps:", label);
        for (int k = 0; k < GAIT_STATE_COUNT && all > 0; k++)
            if (b.states[k] * 1000 >= all)
                fprintf(stderr, " %s %.1f%%", gait_state_name((gait_state)k), 100.0 * (double)b.states[k] / (double)all);
        fprintf(stderr, "\n");
    }
    if (!rc) out->median = median_of(out->us, reps);
    gait_world_destroy(b.w);
    free(b.ids);
    free(prev);
    free(now);
    return rc;
}

/* ---- output -------------------------------------------------------------------------------- */

/* FNV-1a (64 bits) of the final feet's bytes: two builds that print the same hash moved every
 * character along the same path, bit for bit (a change meant to keep the paths is checked so). */
static unsigned long long feet_hash(const bench_run *r, int n) {
    unsigned long long h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)r->final_feet;
    for (size_t i = 0; i < sizeof(double) * 3 * (size_t)n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static void print_line(const char *variant, const char *what, const bench_run *r, const bench_stats *st,
                       bool level, double build_ms, int n) {
    printf("{\"peer\": \"gait\", \"variant\": \"%s\", \"what\": \"%s\", \"medianUs\": %.4f, \"meanPath\": %.3f, "
           "\"stuck\": %d, \"fell\": %d, \"offMap\": %d, \"%s\": %d, \"feetAboveTerrain\": %.5f, "
           "\"repsBitIdentical\": %s, \"feetHash\": \"%016llx\", \"allocsDuringTimedSteps\": %ld, "
           "\"buildMs\": %.1f}\n",
           variant, what, r->median, st->mean_path, st->stuck, st->fell, st->off, level ? "inSolid" : "inBox",
           st->inside, st->feet_above, r->identical ? "true" : "false", feet_hash(r, n), r->allocs, build_ms);
}

static void write_stats(FILE *f, const char *key, const bench_stats *st, bool level) {
    fprintf(f, " \"%s\": {\"meanPath\": %.5f, \"idealPath\": %.5f, \"stuck\": %d, \"fell\": %d, \"offMap\": %d, "
               "\"%s\": %d, \"meanFeetAboveTerrain\": %.6f},\n",
            key, st->mean_path, st->ideal, st->stuck, st->fell, st->off, level ? "inSolid" : "inBox", st->inside,
            st->feet_above);
}

static void write_array(FILE *f, const char *key, const double *v, int n, bool last) {
    fprintf(f, " \"%s\": [", key);
    for (int i = 0; i < n; i++) fprintf(f, i ? ",%.5f" : "%.5f", v[i]);
    fprintf(f, "]%s\n", last ? "" : ",");
}

int gait_cli_bench(int argc, char **argv) {
    const char *scene_path = NULL, *out_path = NULL, *variant_opt = "heightfield";
    int chars = 0, reps = 0, tess = 1;
    bool whole = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (!strcmp(argv[i], "--whole")) whole = true;
        else if ((v = gait_cli_option(argc, argv, &i, "--scene"))) scene_path = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--chars"))) chars = atoi(v);
        else if ((v = gait_cli_option(argc, argv, &i, "--reps"))) reps = atoi(v);
        else if ((v = gait_cli_option(argc, argv, &i, "--out"))) out_path = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--variant"))) variant_opt = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--tess"))) tess = atoi(v);
        else return bench_usage();
    }
    if (!scene_path || chars < 0 || reps < 0 || (tess != 1 && tess != 2) ||
        (strcmp(variant_opt, "heightfield") && strcmp(variant_opt, "mesh")))
        return bench_usage();

    meadow_scene s;
    char err[512];
    if (meadow_read(&s, scene_path, err, sizeof err)) {
        fprintf(stderr, "gait bench: %s\n", err);
        return 1;
    }
    int n = chars > 0 && chars < s.num_characters ? chars : s.num_characters;
    if (reps <= 0) reps = s.repetitions;
    bool level = s.grid == 0;
    bool use_hf = !strcmp(variant_opt, "heightfield") && !level;
    char variant[64];
    snprintf(variant, sizeof variant, "%s%s", use_hf ? "heightfield" : "mesh", tess == 2 ? "-x4" : "");

    bench_alloc counter = {0};
    gait_collider_def cd = gait_default_collider_def();
    cd.hooks.alloc = bench_alloc_fn;
    cd.hooks.free = bench_free_fn;
    cd.hooks.user = &counter;
    gait_collider *col = gait_collider_create(&cd);
    double build_ms = 0, whole_build_ms = 0;
    int rc = col ? build_scene(col, &s, use_hf, tess, &build_ms) : -1;
    bench_run mover, wrun;
    memset(&mover, 0, sizeof mover);
    memset(&wrun, 0, sizeof wrun);
    bench_stats mst, wst;
    if (!rc) rc = run_mover(&s, col, !use_hf, n, reps, variant, &counter, &mover);
    gait_collider_destroy(col);
    if (!rc) {
        stats_of(&s, &mover, n, &mst);
        print_line(variant, "mover", &mover, &mst, level, build_ms, n);
    }
    if (!rc && whole) {
        rc = run_whole(&s, use_hf, tess, n, reps, variant, &counter, &wrun, &whole_build_ms);
        if (!rc) {
            stats_of(&s, &wrun, n, &wst);
            print_line(variant, "whole", &wrun, &wst, level, whole_build_ms, n);
        }
    }
    if (rc) fprintf(stderr, "gait bench: failed\n");

    int tris = (use_hf ? s.num_triangles - s.num_terrain_triangles : s.num_triangles) * (tess == 2 ? 4 : 1);
    int hf_tris = use_hf ? s.num_terrain_triangles * (tess == 2 ? 4 : 1) : 0;
    if (!rc && out_path) {
        /* the result JSON (MEADOW.md's fields): the whole step's when it ran, the mover's beside */
        const bench_run *main_run = whole ? &wrun : &mover;
        const bench_stats *main_st = whole ? &wst : &mst;
        FILE *f = fopen(out_path, "w");
        if (!f) {
            fprintf(stderr, "gait bench: cannot write %s\n", out_path);
            rc = 1;
        } else {
            fprintf(f, "{\"peer\": \"gait\", \"variant\": \"%s%s\", \"versions\": {\"gait\": \"%d.%d.%d\"},\n",
                    variant, whole ? "-whole" : "", GAIT_VERSION_MAJOR, GAIT_VERSION_MINOR, GAIT_VERSION_PATCH);
            if (whole)
                fprintf(f, " \"config\": \"whole character step (gait_world_step: presses, gates, stamina, traversal, "
                           "body, anim; no camera), stick forward along the headings, run speed %g m/s, gravity %g, "
                           "step 0.3 m, walkable 45 deg; %s; %d landmark triangles; 1 thread\",\n",
                        s.speed, s.gravity, use_hf ? "terrain as a heightfield" : "every triangle a landmark", tris);
            else
                fprintf(f, " \"config\": \"body mover (gait_mover_step): sweep-and-slide, step 0.3 m, "
                           "walkable 45 deg, ground snap 0.3 m, push-out; %s; %d landmark triangles; 1 thread\",\n",
                        use_hf ? "terrain as a heightfield (height function)" : "every triangle a landmark", tris);
            fprintf(f, " \"numCharacters\": %d, \"timedSteps\": %d, \"reps\": %d, \"buildMs\": %.3f,\n", n,
                    s.timed_steps, reps, whole ? whole_build_ms : build_ms);
            fprintf(f, " \"landmarkTriangles\": %d, \"storedTriangles\": %d, \"heightfieldTriangles\": %d,\n",
                    tris, stored_tris, hf_tris);
            write_array(f, "usPerCharStep", main_run->us, reps, false);
            fprintf(f, " \"medianUsPerCharStep\": %.5f,\n", main_run->median);
            fprintf(f, " \"repsBitIdentical\": %s, \"allocsDuringTimedSteps\": %ld,\n",
                    main_run->identical ? "true" : "false", main_run->allocs);
            write_stats(f, "stats", main_st, level);
            if (whole) {
                fprintf(f, " \"mover\": {\"medianUsPerCharStep\": %.5f, \"repsBitIdentical\": %s, "
                           "\"allocsDuringTimedSteps\": %ld, \"buildMs\": %.3f,\n",
                        mover.median, mover.identical ? "true" : "false", mover.allocs, build_ms);
                write_array(f, "usPerCharStep", mover.us, reps, false);
                write_stats(f, "stats", &mst, level);
                write_array(f, "finalFeet", mover.final_feet, 3 * n, false);
                write_array(f, "pathLen", mover.path, n, true);
                fprintf(f, " },\n");
            }
            write_array(f, "finalFeet", main_run->final_feet, 3 * n, false);
            write_array(f, "pathLen", main_run->path, n, true);
            fprintf(f, "}\n");
            if (fclose(f) != 0) rc = 1;
        }
    }
    run_free(&mover);
    run_free(&wrun);
    meadow_free(&s);
    return rc ? 1 : 0;
}
