/* bench_crowd: many characters in one world.
 *
 *   create   100,000 characters made in a world sized for them (the free list: no slot scan),
 *            then destroyed;
 *   meadow   the meadow (format meadow-v1, docs/meadow-v1.md) with 10,000 characters, each
 *            running along its heading (the stick, turned by the camera's yaw), through the whole
 *            step (gait_world_step: presses, gates, stamina, traversal, body, anim): microseconds
 *            per character-step on one thread and on every core the machine has (the world's own
 *            pool), and whether the two end on the same bits; contact between characters off;
 *   crowd    1,000 characters with contact on, milling in a plaza 32 m across (one a square
 *            metre): each wanders (a new stick every 2 s) and heads back in when it strays past
 *            the plaza's edge, as a town square's crowd does; against the same 1,000 spread over
 *            190 m (6 m apart, held the same way at their own edge), on one thread: the plaza's
 *            cost over the spread's, and the deepest any two capsules overlapped in the plaza
 *            over the run. Beside it the plaza inside 2 m walls at its edge (0.5 m past its outer
 *            ring as it starts): the walls' share, apart from the crowding's. Walls 2 m high hold
 *            no crowd here (every face too steep to walk is climbed): a quarter of a crowd held
 *            by walls alone climbed out in 10 s, and a tenth was on the walls or vaulting at the
 *            end: their cost is the climb's.
 *
 *   bench_crowd [--full] [--chars N] [--steps S] [--reps R] [--crowd-steps C]
 *               [--only create|meadow|plaza|spread|plaza-walled]
 *
 * --only runs the meadow (on one worker) or one crowd alone for S steps (for a profiler: under callgrind,
 * --toggle-collect=gait_world_step counts just the steps) and prints the simulation hash at the
 * end: a change meant to be faster only must leave it as it was.
 * Quick by default (120 timed steps a run, 3 runs; the plaza 300 steps); --full times 600 steps
 * a run and plays the plaza for 10 minutes of simulated time (36,000 steps). Wall-clock times:
 * the machine's load average is printed before and after, for the figures to be read against. */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gait/gait.h"
#include "collide_fixtures.h" /* box_tris */

#define MEADOW_IMPLEMENTATION
#include "scene_meadow.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    double t[64];
    memcpy(t, v, sizeof(double) * (size_t)n);
    qsort(t, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void load_line(const char *when) {
    double l[3] = {0, 0, 0};
    if (getloadavg(l, 3) == 3)
        printf("load average %s: %.2f %.2f %.2f (%ld cores)\n", when, l[0], l[1], l[2],
               sysconf(_SC_NPROCESSORS_ONLN));
}

static void flat_terrain(gait_world *w, double half) {
    float h[4] = {0, 0, 0, 0};
    gait_heightfield_def t;
    memset(&t, 0, sizeof t);
    t.samples_x = t.samples_z = 2;
    t.cell_size = 2 * half;
    t.origin.x = t.origin.z = -half;
    t.heights = h;
    gait_collider_set_terrain(gait_world_collider(w), &t);
}

/* ---- create ---------------------------------------------------------------------------------- */

static void bench_create(int n, int reps) {
    gait_world_def d = gait_default_world_def();
    d.max_characters = n;
    gait_world *w = gait_world_create(&d);
    gait_character_id *ids = malloc(sizeof *ids * (size_t)n);
    if (!w || !ids) {
        printf("create: no world of %d characters\n", n);
        free(ids);
        gait_world_destroy(w);
        return;
    }
    flat_terrain(w, 1000);
    gait_character_def cd = gait_default_character_def();
    cd.no_camera = true;
    double make[16], unmake[16], make_cpu[16];
    int side = (int)ceil(sqrt((double)n));
    for (int r = 0; r < reps; r++) {
        double t0 = now_s(), c0 = cpu_s();
        for (int i = 0; i < n; i++) {
            cd.position.x = (i % side) * 1.5 - 750;
            cd.position.z = (i / side) * 1.5 - 750;
            if (gait_character_create(w, &cd, &ids[i]) != GAIT_OK) {
                printf("create: %s\n", gait_world_last_error(w));
                break;
            }
        }
        double t1 = now_s();
        make_cpu[r] = cpu_s() - c0;
        for (int i = 0; i < n; i++) gait_character_destroy(w, ids[i]);
        make[r] = t1 - t0;
        unmake[r] = now_s() - t1;
    }
    printf("create %d characters: %.4f s (median of %d; runs", n, median(make, reps), reps);
    for (int r = 0; r < reps; r++) printf(" %.4f", make[r]);
    printf("; process CPU %.4f s), destroy them: %.4f s\n", median(make_cpu, reps), median(unmake, reps));
    free(ids);
    gait_world_destroy(w);
}

/* ---- the meadow ------------------------------------------------------------------------------ */

static int meadow_world(const meadow_scene *s, int workers, gait_world **out) {
    gait_world_def d = gait_default_world_def();
    d.max_characters = s->num_characters;
    d.worker_count = workers;
    d.clock.step_seconds = s->dt;
    gait_world *w = gait_world_create(&d);
    if (!w) return -1;
    gait_collider *c = gait_world_collider(w);
    gait_heightfield_def hd;
    memset(&hd, 0, sizeof hd);
    hd.samples_x = hd.samples_z = s->grid;
    hd.cell_size = s->cell;
    hd.heights = s->heights;
    gait_mesh_def m;
    memset(&m, 0, sizeof m);
    m.positions = s->tris + 9 * (size_t)s->num_terrain_triangles;
    m.triangle_count = s->num_triangles - s->num_terrain_triangles;
    m.vertex_count = 3 * m.triangle_count;
    m.name = "boxes";
    gait_landmark_id id;
    gait_locomotion num = gait_default_locomotion();
    num.run_speed = s->speed; /* the scene's motion (docs/meadow-v1.md) */
    num.gravity = s->gravity;
    if (gait_collider_set_terrain(c, &hd) != GAIT_OK || gait_collider_add_landmark(c, &m, &id) != GAIT_OK ||
        gait_world_set_provisional_locomotion(w, &num) != GAIT_OK) {
        gait_world_destroy(w);
        return -1;
    }
    *out = w;
    return 0;
}

static void meadow_spawn(gait_world *w, const meadow_scene *s, gait_character_id *ids) {
    gait_character_def cd = gait_default_character_def();
    cd.no_camera = true;
    cd.collide = false; /* the meadow's figure: no contact between characters */
    for (int i = 0; i < s->num_characters; i++) {
        double a = s->headings[(size_t)i * (size_t)s->num_segments];
        cd.position = (gait_vec3){s->spawn[3 * i], s->spawn[3 * i + 1], s->spawn[3 * i + 2]};
        cd.yaw = atan2(cos(a), sin(a));
        gait_character_create(w, &cd, &ids[i]);
    }
}

/* The stick full forward, the camera turned so forward is the heading a: (cos a, 0, sin a). */
static void meadow_input(gait_world *w, const meadow_scene *s, const gait_character_id *ids, int seg) {
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_y = 1;
    for (int i = 0; i < s->num_characters; i++) {
        double a = s->headings[(size_t)i * (size_t)s->num_segments + (size_t)(seg % s->num_segments)];
        gait_character_set_camera_yaw(w, ids[i], atan2(cos(a), sin(a)));
        gait_character_set_input(w, ids[i], &in);
    }
}

/* The characters' final positions, hashed bit for bit in their own order (FNV-1a): runs and
 * worker counts compare by it (slots and step counts differ from run to run). */
static uint64_t feet_hash(gait_world *w, const gait_character_id *ids, int n) {
    uint64_t h = 14695981039346656037ull;
    for (int i = 0; i < n; i++) {
        gait_character_info info;
        gait_character_info_get(w, ids[i], &info);
        const unsigned char *p = (const unsigned char *)&info.position;
        for (size_t k = 0; k < sizeof info.position; k++) h = (h ^ p[k]) * 1099511628211ull;
    }
    return h;
}

/* One run: fresh characters, warm-up, timed steps. us per character-step; the feet's hash. */
static double meadow_run(gait_world *w, const meadow_scene *s, gait_character_id *ids, int warm,
                         int steps, uint64_t *hash, double *cpu) {
    meadow_spawn(w, s, ids);
    double t = 0, c = 0;
    for (int k = 0; k < warm + steps; k++) {
        meadow_input(w, s, ids, k / s->heading_period);
        double t0 = now_s(), c0 = cpu_s();
        gait_world_step(w);
        if (k >= warm) {
            t += now_s() - t0;
            c += cpu_s() - c0;
        }
    }
    *hash = feet_hash(w, ids, s->num_characters);
    for (int i = 0; i < s->num_characters; i++) gait_character_destroy(w, ids[i]);
    *cpu = c * 1e6 / ((double)steps * s->num_characters);
    return t * 1e6 / ((double)steps * s->num_characters);
}

static void bench_meadow(int n, int steps, int reps) {
    meadow_scene s;
    char err[256];
    memset(&s, 0, sizeof s);
    if (meadow_generate(&s, n, err, sizeof err)) {
        printf("meadow: %s\n", err);
        return;
    }
    int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    int counts[2] = {1, cores};
    double us[2][16], cpu[2][16];
    uint64_t hash[2] = {0, 0};
    gait_character_id *ids = malloc(sizeof *ids * (size_t)n);
    int variants = cores > 1 ? 2 : 1;
    gait_world *worlds[2] = {NULL, NULL};
    for (int v = 0; v < variants; v++)
        if (!ids || meadow_world(&s, counts[v], &worlds[v])) {
            printf("meadow: no world\n");
            for (int k = 0; k < v; k++) gait_world_destroy(worlds[k]);
            free(ids);
            meadow_free(&s);
            return;
        }
    /* the 1-worker and the every-core runs alternate, so a change in the machine's load falls on
     * both alike; the speed-up is the median of each pair's ratio */
    double ratio[16];
    for (int r = 0; r < reps; r++) {
        for (int v = 0; v < variants; v++) {
            uint64_t h;
            us[v][r] = meadow_run(worlds[v], &s, ids, 30, steps, &h, &cpu[v][r]);
            if (r == 0) hash[v] = h;
            else if (h != hash[v]) printf("meadow: run %d of %d worker(s) ended on other bits!\n", r + 1, counts[v]);
        }
        if (variants > 1) ratio[r] = us[0][r] / us[1][r];
    }
    for (int v = 0; v < variants; v++) {
        gait_world_destroy(worlds[v]);
        printf("meadow %d characters, contact off, %d worker%s: %.3f us per character-step (median of %d; runs", n,
               counts[v], counts[v] > 1 ? "s" : "", median(us[v], reps), reps);
        for (int r = 0; r < reps; r++) printf(" %.3f", us[v][r]);
        printf("; process CPU %.3f us)\n", median(cpu[v], reps));
    }
    if (variants > 1)
        printf("meadow speed-up on %d cores: %.2fx (median of the alternating pairs' ratios); the same bits "
               "on 1 and %d workers: %s\n", cores, median(ratio, reps), cores, hash[0] == hash[1] ? "yes" : "NO");
    free(ids);
    meadow_free(&s);
}

/* ---- a crowd: a plaza against the same crowd spread out ------------------------------------ */

#define CROWD_N 1000
#define PLAZA 32.0   /* m across, inside its walls */

/* How a crowd stands: packed in the plaza, spread out, or packed in the plaza inside walls at its
 * edge. Every crowd is held by its steering at the edge of its own square (edge()). */
typedef enum crowd_kind { CROWD_PLAZA, CROWD_SPREAD, CROWD_PLAZA_WALLED } crowd_kind;
static const char *const crowd_names[] = {"plaza", "spread", "plaza-walled"};
#define SPREAD_SPACING 6.0 /* m between neighbours spread out (the plaza's: 1 m) */

/* m between a crowd's neighbours at the start; half its square's width (where its steering turns
 * a stray back in, and where the walls' inner faces stand) */
static double spacing_of(crowd_kind kind) { return kind == CROWD_SPREAD ? SPREAD_SPACING : PLAZA / 32; }
static double edge(crowd_kind kind) { return spacing_of(kind) * 16; }

static gait_world *crowd_world(crowd_kind kind, bool contact, gait_character_id *ids) {
    gait_world_def d = gait_default_world_def();
    d.max_characters = CROWD_N;
    gait_world *w = gait_world_create(&d);
    if (!w) return NULL;
    flat_terrain(w, 200);
    double spacing = spacing_of(kind); /* 32 x 32 places, 1,000 of them taken */
    if (kind == CROWD_PLAZA_WALLED) { /* four walls 2 m high round the crowd, their inner faces +-h */
        float h = (float)edge(kind);
        const float walls[4][6] = {{-h - 1, 0, -h - 1, h + 1, 2, -h}, {-h - 1, 0, h, h + 1, 2, h + 1},
                                   {-h - 1, 0, -h, -h, 2, h}, {h, 0, -h, h + 1, 2, h}};
        for (int k = 0; k < 4; k++) {
            const float *b = walls[k];
            float tris[36 * 3];
            box_tris(tris, b, b + 3);
            gait_mesh_def m;
            memset(&m, 0, sizeof m);
            m.positions = tris;
            m.vertex_count = 36;
            m.triangle_count = 12;
            m.name = "plaza wall";
            gait_landmark_id id;
            gait_collider_add_landmark(gait_world_collider(w), &m, &id);
        }
    }
    gait_character_def cd = gait_default_character_def();
    cd.no_camera = true;
    cd.collide = contact;
    for (int i = 0; i < CROWD_N; i++) {
        cd.position.x = (i % 32 - 15.5) * spacing;
        cd.position.z = (i / 32 - 15.5) * spacing;
        cd.yaw = 0.7 * i;
        gait_character_create(w, &cd, &ids[i]);
    }
    return w;
}

/* A new stick every 2 s per character: a direction and a length from a hash of (i, period);
 * past the square's edge (+-half) the stick, as long, points at its centre instead. */
static void crowd_input(gait_world *w, const gait_character_id *ids, int k, double half) {
    for (int i = 0; i < CROWD_N; i++) {
        uint32_t h = (uint32_t)(i * 2654435761u) ^ (uint32_t)(k / 120) * 40503u;
        h ^= h >> 13;
        h *= 0x5bd1e995u;
        h ^= h >> 15;
        double a = (h & 0xffff) / 65536.0 * 2 * M_PI, len = 0.3 + 0.7 * ((h >> 16) & 0xff) / 255.0;
        gait_input in;
        memset(&in, 0, sizeof in);
        in.move_x = len * sin(a);
        in.move_y = len * cos(a);
        gait_character_info info;
        if (gait_character_info_get(w, ids[i], &info) == GAIT_OK &&
            (fabs(info.position.x) > half || fabs(info.position.z) > half)) {
            /* the stick turns with the camera: forward (sin, cos) of its yaw, right (-cos, sin) */
            double px = info.position.x, pz = info.position.z, d = sqrt(px * px + pz * pz);
            double sy = sin(info.camera_yaw), cy = cos(info.camera_yaw);
            in.move_y = len * (-px * sy - pz * cy) / d;
            in.move_x = len * (px * cy - pz * sy) / d;
        }
        if ((h >> 24) % 97 == 0 && k % 120 == 0) in.pressed = GAIT_BUTTON_JUMP;
        gait_character_set_input(w, ids[i], &in);
    }
}

/* The deepest two capsules overlap (m), through a 1 m grid over the plaza (every character in
 * the crowd world stands inside 200 m). */
static int worst_pair[2]; /* the pair deepest_overlap found last */
static double deepest_overlap(gait_world *w, const gait_character_id *ids) {
    enum { G = 64 };
    static int head[G * G], next[CROWD_N];
    static gait_vec3 p[CROWD_N];
    for (int c = 0; c < G * G; c++) head[c] = -1;
    for (int i = 0; i < CROWD_N; i++) {
        gait_character_info info;
        gait_character_info_get(w, ids[i], &info);
        p[i] = info.position;
        int cx = (int)floor(p[i].x + G / 2), cz = (int)floor(p[i].z + G / 2);
        cx = cx < 0 ? 0 : (cx >= G ? G - 1 : cx);
        cz = cz < 0 ? 0 : (cz >= G ? G - 1 : cz);
        next[i] = head[cz * G + cx];
        head[cz * G + cx] = i;
    }
    double worst = -1;
    for (int i = 0; i < CROWD_N; i++) {
        int cx = (int)floor(p[i].x + G / 2), cz = (int)floor(p[i].z + G / 2);
        for (int dz = -1; dz <= 1; dz++)
            for (int dx = -1; dx <= 1; dx++) {
                int x = cx + dx, z = cz + dz;
                if (x < 0 || z < 0 || x >= G || z >= G) continue;
                for (int j = head[z * G + x]; j >= 0; j = next[j]) {
                    if (j <= i) continue;
                    /* upright capsules r 0.3, sphere centres 0.3 .. 1.4 above the feet */
                    double ya0 = p[i].y + 0.3, ya1 = p[i].y + 1.4, yb0 = p[j].y + 0.3, yb1 = p[j].y + 1.4;
                    double dy = ya0 > yb1 ? ya0 - yb1 : (ya1 < yb0 ? yb0 - ya1 : 0);
                    double d = sqrt((p[i].x - p[j].x) * (p[i].x - p[j].x) + dy * dy +
                                    (p[i].z - p[j].z) * (p[i].z - p[j].z));
                    if (0.6 - d > worst) {
                        worst = 0.6 - d;
                        worst_pair[0] = i;
                        worst_pair[1] = j;
                    }
                }
            }
    }
    return worst;
}

/* us per character-step over `steps` timed steps (after 60 of warm-up); the deepest overlap
 * over every step when `watch`. */
static uint64_t last_hash; /* the simulation hash at the end of the last crowd_run */
static bool tally;         /* crowd_run prints where its crowd ended (--only) */
static int last_on_wall;   /* how many of the last crowd_run's crowd were on a wall at the end */
static int worst_step;     /* the step of crowd_run's deepest overlap, and its pair */
static gait_character_info worst_info[2];

/* How many of the crowd are in each state, and how many were past its square's edge (+-h: the
 * walls' inner faces, where it has walls) at the end. */
static void print_tally(gait_world *w, const gait_character_id *ids, double h) {
    int count[GAIT_STATE_COUNT] = {0}, out = 0;
    for (int i = 0; i < CROWD_N; i++) {
        gait_character_info info;
        if (gait_character_info_get(w, ids[i], &info) != GAIT_OK) continue;
        if ((unsigned)info.phase.state < GAIT_STATE_COUNT) count[info.phase.state]++;
        if (fabs(info.position.x) > h || fabs(info.position.z) > h) out++;
    }
    printf("at the end:");
    for (int s = 0; s < GAIT_STATE_COUNT; s++)
        if (count[s]) printf(" %s %d", gait_state_name((gait_state)s), count[s]);
    printf("; %d past the edge", out);
    printf("\n");
}

static double crowd_run(crowd_kind kind, bool contact, int steps, bool watch, double *worst) {
    gait_character_id *ids = malloc(sizeof *ids * CROWD_N);
    gait_world *w = ids ? crowd_world(kind, contact, ids) : NULL;
    if (!w) {
        free(ids);
        return NAN;
    }
    double t = 0;
    *worst = -1;
    for (int k = 0; k < 60 + steps; k++) {
        crowd_input(w, ids, k, edge(kind));
        double t0 = now_s();
        gait_world_step(w);
        if (k >= 60) t += now_s() - t0;
        if (watch) {
            double o = deepest_overlap(w, ids);
            if (o > *worst) {
                *worst = o;
                worst_step = k;
                for (int e = 0; e < 2; e++) gait_character_info_get(w, ids[worst_pair[e]], &worst_info[e]);
            }
        }
    }
    last_hash = gait_world_simulation_hash(w);
    last_on_wall = 0;
    for (int i = 0; i < CROWD_N; i++) {
        gait_character_info info;
        if (gait_character_info_get(w, ids[i], &info) == GAIT_OK && gait_state_on_wall(info.phase.state))
            last_on_wall++;
    }
    if (tally) print_tally(w, ids, edge(kind));
    gait_world_destroy(w);
    free(ids);
    return t * 1e6 / ((double)steps * CROWD_N);
}

static void bench_crowd(int steps, int reps, int watch_steps) {
    double plaza[16], spread[16], walled[16], off[16], worst;
    int on_wall = 0;
    for (int r = 0; r < reps; r++) { /* interleaved, so the machine's load falls on all alike */
        plaza[r] = crowd_run(CROWD_PLAZA, true, steps, false, &worst);
        spread[r] = crowd_run(CROWD_SPREAD, true, steps, false, &worst);
        walled[r] = crowd_run(CROWD_PLAZA_WALLED, true, steps, false, &worst);
        on_wall = last_on_wall;
        off[r] = crowd_run(CROWD_SPREAD, false, steps, false, &worst);
    }
    printf("crowd of %d, contact on, 1 worker: plaza %.3f us per character-step, spread %.3f "
           "(median of %d), plaza / spread %.2f; spread with contact off %.3f\n", CROWD_N,
           median(plaza, reps), median(spread, reps), reps, median(plaza, reps) / median(spread, reps),
           median(off, reps));
    printf("crowd of %d in the plaza inside 2 m walls at its edge: %.3f us per character-step "
           "(%d on the walls at the end of the last run), over the open plaza's %.2f\n", CROWD_N,
           median(walled, reps), on_wall, median(walled, reps) / median(plaza, reps));
    double t0 = now_s();
    crowd_run(CROWD_PLAZA, true, watch_steps, true, &worst);
    printf("plaza crowd over %.1f s of simulated time (%d steps, %.0f s to run): deepest overlap of "
           "two capsules %.2f mm\n", (watch_steps + 60) / 60.0, watch_steps + 60, now_s() - t0,
           worst > 0 ? worst * 1e3 : 0.0);
    if (worst > 0)
        printf("  at step %d: a %s at (%.3f, %.3f, %.3f) and a %s at (%.3f, %.3f, %.3f)\n", worst_step,
               gait_state_name(worst_info[0].phase.state), worst_info[0].position.x, worst_info[0].position.y,
               worst_info[0].position.z, gait_state_name(worst_info[1].phase.state), worst_info[1].position.x,
               worst_info[1].position.y, worst_info[1].position.z);
}

int main(int argc, char **argv) {
    bool full = false;
    int chars = 10000, steps = 0, reps = 3, crowd_steps = 0;
    bool chars_given = false;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--full")) full = true;
        else if (!strcmp(argv[i], "--chars") && i + 1 < argc) chars = atoi(argv[++i]), chars_given = true;
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--crowd-steps") && i + 1 < argc) crowd_steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else {
            fprintf(stderr, "usage: bench_crowd [--full] [--chars N] [--steps S] [--reps R] [--crowd-steps C] "
                            "[--only create|meadow|plaza|spread|plaza-walled]\n");
            return 2;
        }
    }
    if (!steps) steps = full ? 600 : 120;
    if (!crowd_steps) crowd_steps = full ? 36000 - 60 : 300;
    if (chars < 1 || steps < 1 || reps < 1 || reps > 16 || crowd_steps < 1) {
        fprintf(stderr, "bench_crowd: chars, steps, crowd steps >= 1, reps in 1..16\n");
        return 2;
    }
    if (only && !strcmp(only, "create")) { /* the creates alone, for a profiler */
        bench_create(chars_given ? chars : 100000, reps);
        return 0;
    }
    if (only && !strcmp(only, "meadow")) { /* the meadow alone on one worker, for a profiler */
        meadow_scene s;
        char err[256];
        memset(&s, 0, sizeof s);
        gait_world *w = NULL;
        gait_character_id *ids = malloc(sizeof *ids * (size_t)chars);
        if (!ids || meadow_generate(&s, chars, err, sizeof err) || meadow_world(&s, 1, &w)) {
            fprintf(stderr, "bench_crowd: no meadow world\n");
            free(ids);
            return 1;
        }
        uint64_t h;
        double cpu, us = meadow_run(w, &s, ids, 30, steps, &h, &cpu);
        printf("meadow %d characters, contact off, 1 worker, alone: %.3f us per character-step (the "
               "feet's hash at the end %016llx)\n", chars, us, (unsigned long long)h);
        gait_world_destroy(w);
        meadow_free(&s);
        free(ids);
        return 0;
    }
    if (only) { /* one crowd alone, for a profiler: callgrind --toggle-collect=gait_world_step */
        int kind = 0;
        while (kind < 3 && strcmp(only, crowd_names[kind])) kind++;
        if (kind == 3) {
            fprintf(stderr, "bench_crowd: --only takes plaza, spread or plaza-walled\n");
            return 2;
        }
        double worst;
        tally = true;
        double us = crowd_run((crowd_kind)kind, true, steps, false, &worst);
        printf("crowd of %d, contact on, 1 worker, %s alone: %.3f us per character-step (simulation "
               "hash at the end %016llx)\n", CROWD_N, only, us, (unsigned long long)last_hash);
        return 0;
    }
    load_line("before");
    bench_create(100000, reps);
    bench_meadow(chars, steps, reps);
    bench_crowd(full ? 600 : 120, reps, crowd_steps);
    load_line("after");
    return 0;
}
