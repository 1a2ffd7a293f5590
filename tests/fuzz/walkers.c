/* walkers — many bodies over whole runs on level-like geometry, counting what players notice.
 *
 *   build/fuzz/walkers [--walkers N] [--seconds S] [--seed K] [--scene mesh|terrain|both]
 *                      [--show KIND] [--trace WALKER] [--follow WALKER] [--place X Y Z YAW]
 *                      [--stick S] [--sprint] [--heights X Z N] [--level PREFIX]
 *
 * A survey, not a test: it prints counts, it fails nothing. The fuzzer (fuzz_body.c) looks for
 * the first broken invariant in small random worlds; this counts, over a whole run of many
 * walkers on one larger outdoor level, how often each thing a player would notice happens.
 *
 * The level (built from the seed, 160 m square): rolling ground with shelves and risers (slopes
 * from flat to about 70 deg, so walkable ground meets too-steep faces in creases everywhere),
 * V-shaped troughs and three-faced funnels of 50-78 deg faces, tilted rocks, buildings (some with
 * ledge bands), stairs (half along a wall), ramps of 15-50 deg, fences in rows, blocks leaning
 * back, a lake with platforms at its water line. Scene "mesh": the ground is a landmark (a
 * triangle mesh, as a level exported from an editor); scene "terrain": the same ground as the
 * heightfield, the rest the same. --level PREFIX runs a meadow-v1 level instead (docs/meadow-v1.md:
 * meadow_gen --level's, or a game's map written by build/bench/q3_level), one landmark, the
 * walkers at its spawns in turn.
 *
 * The walkers: spawned with the feet exactly on the surface below a random point (authored spawn
 * points sit on floors), each with its own input stream: a heading held for 1-4 s then another,
 * mostly the stick full forward (sometimes part way: a walk; sometimes none), sprint taps and
 * holds, jump presses (about one in 4 s), now and then an attack (a plunge from high enough).
 * The camera's yaw is 0 (the stick's forward is +z), whatever way a walker faces. Fixed steps at 60 Hz through
 * gait_world_update, the host's path.
 *
 * --show KIND prints each event of that kind (changes: each walker over 30 changes in a window)
 * with the walker whose capsule is nearest and how far off it is ("touching" within 1 cm: a body
 * in the way, or under one held in the air); --trace and --follow name it on every step too.
 * --trace WALKER runs that walker alone and prints its every step (alone it moves as in the whole
 * run only while it meets no other walker: bodies meet); --follow WALKER prints that walker's
 * every step in the whole run; --place X Y Z YAW puts one walker at those feet (as a trace or a
 * --show printed them) with the stick held full (or --stick S of the way: 0 to 1) the way that
 * turns it to YAW (radians, as printed) and prints its every step (--sprint: sprinting, the
 * press on its first step and held after). --heights X Z N prints the
 * terrain scene's heights on the N x N samples (1 m apart) round (X, Z) as a Lua table, for a
 * scenario test that rebuilds a spot a walker met (tests/scenarios/).
 *
 * What it counts, per scene (a walker counts once per kind however often it happens; events are
 * every occurrence):
 *   changes>30/10s  walkers with more than 30 state changes within one 10 s window of the run (a
 *                   flickering body: the figure a real level was first measured by);
 *   flicker         the liveness invariant (live.h): the same two states 6 times within 0.5 s,
 *                   no press read; the pairs seen are listed;
 *   air_stuck       a fall, glide or plunge held 1 s without descending 5 cm (hung in the air);
 *   stuck_walker    walking the same way 1 s without moving, open walkable way ahead;
 *   traverse_overrun, drown_deep  as live.h says;
 *   riser_climb     a climb begun on foot that ended on foot within 1 s, 5 cm to a step above the
 *                   feet of the step before it began, never more than a step above them on the
 *                   way (a wall climbed up and back down is no riser): a riser climbed as a wall
 *                   (--show riser_climb prints each);
 *   barely moved    walkers whose whole path was under 10 % of a run's for the run's time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gait/gait.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "live.h"

#define MEADOW_IMPLEMENTATION
#include "scene_meadow.h"

/* --level PREFIX: a meadow-v1 level (no terrain; docs/meadow-v1.md: the generated level, or a
 * game's map through tests/bench/q3_level.c) as one landmark, the walkers at its spawns */
static meadow_scene level_scene;
static bool level_on;
#include "shapes.h"

#define HALF 80.0            /* m: the level spans [-HALF, HALF]^2 */
#define SPAWN_HALF 74.0      /* m: walkers start within [-SPAWN_HALF, SPAWN_HALF]^2 */
#define CELL 1.6             /* m: the ground mesh's cell */
#define MAX_TRIS 65536
#define RISER_CLIMB_SECONDS 1.0 /* s: a riser's climb is short (a step, 0.3 m, at the climb
                                   speed takes about 0.25 s); a longer climb that ends about
                                   where it began wandered over a face */

/* ---- random numbers (splitmix64), one stream per purpose ---------------------------------- */

/* ---- meshes --------------------------------------------------------------------------------- */

static void add(gait_collider *c, mesh *m, const char *name) {
    if (m->n == 0) return;
    gait_mesh_def md;
    memset(&md, 0, sizeof md);
    md.positions = m->v;
    md.vertex_count = m->n * 3;
    md.triangle_count = m->n;
    md.name = name;
    if (gait_collider_add_landmark(c, &md, NULL) != GAIT_OK)
        fprintf(stderr, "walkers: %s refused: %s\n", name, gait_collider_last_error(c));
    m->n = 0;
}

/* ---- the level ------------------------------------------------------------------------------ */

typedef struct ground { double a1, f1x, f1z, p1, a2, f2x, f2z, shelf; } ground;

static double smooth01(double x) {
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    return x * x * (3 - 2 * x);
}

/* The ground's height: rolling hills, shelved so that each shelf (a gentle slope) ends in a riser
 * several times steeper (a crease where they meet). */
static double ground_h(const ground *g, double x, double z) {
    double base = g->a1 * sin(g->f1x * x + g->p1) * cos(g->f1z * z) + g->a2 * sin(g->f2x * x + g->f2z * z);
    double t = base / g->shelf, k = floor(t), f = t - k;
    double terrace = g->shelf * (k + smooth01((f - 0.78) / 0.22));
    return 0.4 * base + 0.6 * terrace;
}

static void make_ground(const ground *g, uint64_t seed, bool as_mesh, gait_collider *c, mesh *m) {
    rng r = stream(seed, 10);
    if (as_mesh) {
        int n = (int)(2 * HALF / CELL);
        double *py = malloc(sizeof(double) * (size_t)(n + 1) * (size_t)(n + 1));
        for (int i = 0; i <= n; i++)
            for (int j = 0; j <= n; j++) {
                double x = -HALF + i * CELL, z = -HALF + j * CELL;
                py[i * (n + 1) + j] = ground_h(g, x, z) + runi(&r, -0.08, 0.08);
            }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double x0 = -HALF + i * CELL, z0 = -HALF + j * CELL;
                double a[3] = {x0, py[i * (n + 1) + j], z0};
                double b[3] = {x0 + CELL, py[(i + 1) * (n + 1) + j], z0};
                double cc[3] = {x0 + CELL, py[(i + 1) * (n + 1) + j + 1], z0 + CELL};
                double d[3] = {x0, py[i * (n + 1) + j + 1], z0 + CELL};
                if (rchance(&r, 0.5)) { tri(m, a, d, cc); tri(m, a, cc, b); }
                else { tri(m, a, d, b); tri(m, b, d, cc); }
            }
        free(py);
        add(c, m, "ground");
    } else {
        int n = (int)(2 * HALF) + 1;
        float *h = malloc(sizeof(float) * (size_t)n * (size_t)n);
        for (int iz = 0; iz < n; iz++)
            for (int ix = 0; ix < n; ix++)
                h[iz * n + ix] = (float)ground_h(g, -HALF + ix, -HALF + iz);
        gait_heightfield_def hd = {n, n, 1.0, {-HALF, 0, -HALF}, h};
        gait_collider_set_terrain(c, &hd);
        free(h);
    }
}

/* A placement on the ground: a point, a yaw, sunk a little. */
static xform place(rng *r, const ground *g, double sink) {
    xform t;
    t.o[0] = runi(r, -HALF + 6, HALF - 6);
    t.o[2] = runi(r, -HALF + 6, HALF - 6);
    t.o[1] = ground_h(g, t.o[0], t.o[2]) - sink;
    t.yaw = rchance(r, 0.4) ? 0 : runi(r, -M_PI, M_PI);
    t.tilt = 0;
    return t;
}

static void make_props(const ground *g, uint64_t seed, gait_collider *c, mesh *m) {
    rng r = stream(seed, 20);
    /* troughs: two faces of 50-78 deg meeting in a level crease; half close one end (a funnel) */
    for (int i = 0; i < 40; i++) {
        xform t = place(&r, g, runi(&r, 0.1, 0.6));
        double a1 = runi(&r, 50, 78) * M_PI / 180, a2 = runi(&r, 50, 78) * M_PI / 180;
        double len = runi(&r, 3, 6), h = runi(&r, 1.5, 4);
        double w1 = h / tan(a1), w2 = h / tan(a2);
        double p[6][3] = {{0, 0, 0}, {0, 0, len}, {-w1, h, 0}, {-w1, h, len}, {w2, h, 0}, {w2, h, len}};
        double q[6][3];
        for (int k = 0; k < 6; k++) xf(&t, p[k], q[k]);
        quad(m, q[0], q[2], q[3], q[1]);
        quad(m, q[0], q[1], q[5], q[4]);
        if (rchance(&r, 0.5)) { /* the end at z = len closed by a third steep face */
            double a3 = runi(&r, 50, 78) * M_PI / 180, e = len + h / tan(a3);
            double p3[3][3] = {{-w1, h, e}, {w2, h, e}, {0, 0, len}}, q3[3][3];
            for (int k = 0; k < 3; k++) xf(&t, p3[k], q3[k]);
            tri(m, q[1], q[3], q3[0]);
            tri(m, q[1], q3[0], q3[1]);
            tri(m, q[1], q3[1], q[5]);
        }
        add(c, m, "trough");
    }
    /* rocks: boxes tilted up to 35 deg, half buried */
    for (int i = 0; i < 40; i++) {
        xform t = place(&r, g, runi(&r, 0.5, 1.5));
        t.tilt = runi(&r, -0.6, 0.6);
        double hx = runi(&r, 0.6, 3), hy = runi(&r, 0.8, 3), hz = runi(&r, 0.6, 3);
        box(m, &t, -hx, 0, -hz, hx, hy, hz);
        add(c, m, "rock");
    }
    /* buildings, some with ledge bands */
    for (int i = 0; i < 30; i++) {
        xform t = place(&r, g, 1.0);
        double hx = runi(&r, 1.5, 5), hz = runi(&r, 1.5, 5), h = runi(&r, 3, 10);
        box(m, &t, -hx, 0, -hz, hx, h, hz);
        if (rchance(&r, 0.5)) {
            int bands = 1 + (int)runi(&r, 0, 2.99);
            for (int k = 0; k < bands; k++) {
                double out = runi(&r, 0.1, 0.4), y = runi(&r, 2.5, fmax(2.6, h - 0.5)), th = runi(&r, 0.15, 0.35);
                box(m, &t, -hx - out, y, -hz - out, hx + out, y + th, hz + out);
            }
        }
        add(c, m, "building");
    }
    /* stairs, half along a wall */
    for (int i = 0; i < 25; i++) {
        xform t = place(&r, g, 0.3);
        int n = 6 + (int)runi(&r, 0, 6.99);
        double rise = runi(&r, 0.15, 0.28), run = runi(&r, 0.3, 0.8), w = runi(&r, 0.8, 2);
        for (int k = 0; k < n; k++) box(m, &t, -w, 0, k * run, w, 0.3 + (k + 1) * rise, n * run + 3);
        if (rchance(&r, 0.5)) box(m, &t, -w - 0.4, 0, -1, -w, 0.3 + n * rise + 2.5, n * run + 3);
        add(c, m, "stairs");
    }
    /* ramps of 15-50 deg */
    for (int i = 0; i < 20; i++) {
        xform t = place(&r, g, 0.3);
        double len = runi(&r, 2, 7), w = runi(&r, 0.8, 3), ang = runi(&r, 15, 50) * M_PI / 180;
        double h = fmin(len * tan(ang), 6);
        double p[6][3] = {{-w, 0, 0}, {w, 0, 0}, {-w, 0, len}, {w, 0, len}, {-w, h, len}, {w, h, len}};
        double q[6][3];
        for (int k = 0; k < 6; k++) xf(&t, p[k], q[k]);
        quad(m, q[0], q[2], q[3], q[1]);
        quad(m, q[0], q[1], q[5], q[4]);
        quad(m, q[2], q[4], q[5], q[3]);
        tri(m, q[0], q[4], q[2]);
        tri(m, q[1], q[3], q[5]);
        add(c, m, "ramp");
    }
    /* fences in rows */
    for (int i = 0; i < 15; i++) {
        xform t = place(&r, g, 0.2);
        int n = 2 + (int)runi(&r, 0, 2.99);
        double len = runi(&r, 1.5, 5), h = runi(&r, 0.6, 1.4), th = runi(&r, 0.1, 0.3), gap = runi(&r, 0.8, 2.5);
        for (int k = 0; k < n; k++) box(m, &t, -len, 0, k * (th + gap), len, h + 0.2, k * (th + gap) + th);
        add(c, m, "fences");
    }
    /* blocks leaning back 5-35 deg */
    for (int i = 0; i < 15; i++) {
        xform t = place(&r, g, 0.2);
        double w = runi(&r, 0.8, 3), h = runi(&r, 0.8, 2.5), depth = runi(&r, 0.3, 3);
        double lean = runi(&r, 5, 35) * M_PI / 180, z1 = h * tan(lean);
        double p[8][3] = {{-w, 0, 0}, {w, 0, 0}, {w, h, z1}, {-w, h, z1},
                          {w, h, z1 + depth}, {-w, h, z1 + depth}, {w, 0, z1 + depth}, {-w, 0, z1 + depth}};
        double q[8][3];
        for (int k = 0; k < 8; k++) xf(&t, p[k], q[k]);
        quad(m, q[0], q[3], q[2], q[1]);
        quad(m, q[3], q[5], q[4], q[2]);
        quad(m, q[7], q[6], q[4], q[5]);
        quad(m, q[0], q[1], q[6], q[7]);
        quad(m, q[0], q[7], q[5], q[3]);
        quad(m, q[1], q[2], q[4], q[6]);
        add(c, m, "leaning block");
    }
    /* a lake over the lowest of a few candidate spots, with platforms at its water line */
    double lx = 0, lz = 0, low = INFINITY;
    for (int k = 0; k < 12; k++) {
        double x = runi(&r, -50, 50), z = runi(&r, -50, 50), h = ground_h(g, x, z);
        if (h < low) { low = h; lx = x; lz = z; }
    }
    gait_water_region wr = {lx - 14, lz - 14, lx + 14, lz + 14, low + 2.5};
    gait_collider_add_water(c, &wr, NULL);
    for (int k = 0; k < 6; k++) {
        xform t = {{lx + runi(&r, -10, 10), 0, lz + runi(&r, -10, 10)}, runi(&r, -M_PI, M_PI), 0};
        t.o[1] = ground_h(g, t.o[0], t.o[2]) - 0.5;
        double top = wr.surface + runi(&r, -0.8, 0.3);
        double a = runi(&r, 1, 3), b = runi(&r, 1, 3);
        box(m, &t, -a, 0, -b, a, top - t.o[1], b);
        add(c, m, "platform");
    }
}

static gait_world *build(uint64_t seed, bool as_mesh, int walkers) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = walkers;
    gait_world *w = gait_world_create(&wd);
    if (!w) return NULL;
    gait_collider *c = gait_world_collider(w);
    if (level_on) {
        gait_mesh_def def = {.positions = level_scene.tris,
                             .vertex_count = 3 * level_scene.num_triangles, .indices = NULL,
                             .triangle_count = level_scene.num_triangles, .offset = {0, 0, 0},
                             .name = "level"};
        gait_landmark_id id;
        if (gait_collider_add_landmark(c, &def, &id) != GAIT_OK) {
            gait_world_destroy(w);
            return NULL;
        }
        return w;
    }
    rng r = stream(seed, 1);
    ground g = {runi(&r, 4, 7), runi(&r, 0.05, 0.09), runi(&r, 0.04, 0.07), runi(&r, 0, 6),
                runi(&r, 2, 3.5), runi(&r, 0.1, 0.16), runi(&r, 0.08, 0.14), runi(&r, 1.8, 2.8)};
    mesh m = {malloc(sizeof(float) * 9 * MAX_TRIS), 0, MAX_TRIS};
    make_ground(&g, seed, as_mesh, c, &m);
    make_props(&g, seed, c, &m);
    free(m.v);
    return w;
}

static int follow = -1; /* --follow: the walker whose every step is printed in the whole run */

/* ---- the walkers ------------------------------------------------------------------------- */

typedef struct walker {
    gait_character_id id;
    rng r;
    double heading, stick, hold_left, sprint_left;
    live_track live;
    int changes[8];             /* state changes in each 10 s window */
    unsigned kinds;             /* bit per kind seen */
    double path;                /* m walked (3D) */
    gait_vec3 last;
    bool climbing;              /* in a climb begun on foot ... */
    double climb_y;             /* ... from feet this high (m) */
    int climb_steps;            /* ... for this many steps */
    double climb_top;           /* ... reaching feet this high (m) */
    bool riser;                 /* it climbed a riser as a wall */
} walker;

/* The gap between two upright capsules of radius r and height h (every walker's body is the
 * same) with their feet at a and b: the distance between their axes less both radii (0 or less:
 * touching). */
static double capsule_gap(gait_vec3 a, gait_vec3 b, double r, double h) {
    double dx = a.x - b.x, dz = a.z - b.z;
    double dv = fabs(a.y - b.y) - (h - 2 * r); /* the axes' vertical gap, when they share none */
    if (dv < 0) dv = 0;
    return sqrt(dx * dx + dz * dz + dv * dv) - 2 * r;
}

/* The walker of the n other than `self` whose capsule comes nearest a capsule with its feet at p
 * (each where it stood after the last step), its gap in *gap; -1 when there is no other. */
static int nearest_walker(const gait_world *w, const walker *wk, int n, int self, gait_vec3 p,
                          const gait_locomotion *num, double *gap) {
    int best = -1;
    *gap = INFINITY;
    for (int j = 0; j < n; j++) {
        if (j == self || !gait_character_valid(w, wk[j].id)) continue;
        double g = capsule_gap(wk[j].last, p, num->capsule_radius, num->capsule_height);
        if (g < *gap) {
            *gap = g;
            best = j;
        }
    }
    return best;
}

/* " near N, its capsule G m off" (" near N, touching" within 1 cm: bodies keep a few mm apart),
 * for a trace line or an event's. */
static void print_nearest(const gait_world *w, const walker *wk, int n, int self, gait_vec3 p,
                          const gait_locomotion *num) {
    double gap;
    int near = nearest_walker(w, wk, n, self, p, num, &gap);
    if (near < 0) return;
    if (gap <= 0.01) printf(" near %d, touching", near);
    else printf(" near %d, its capsule %.2f m off", near, gap);
}

static const char *const kind_names[] = {"flicker", "air_stuck", "stuck_walker",
                                         "traverse_overrun", "drown_deep"};
enum { KINDS = 5 };

typedef struct pair_count { gait_state a, b; int n; } pair_count;

typedef struct tally {
    int walkers, spawned;
    long steps;
    int flicker30;              /* walkers over 30 changes in a 10 s window */
    int by_kind[KINDS];         /* walkers */
    long events[KINDS];
    int barely;
    int risers;                 /* walkers that climbed a riser as a wall */
    long riser_events;
    double path_sum;
    pair_count pairs[32];
    int npairs;
} tally;

static void count_pair(tally *t, const char *msg) {
    char a[32], b[32];
    if (sscanf(msg, "%31s <-> %31s", a, b) != 2) return;
    int sa = gait_state_from_name(a), sb = gait_state_from_name(b);
    if (sa < 0 || sb < 0) return;
    if (sa > sb) { int x = sa; sa = sb; sb = x; }
    for (int i = 0; i < t->npairs; i++)
        if ((int)t->pairs[i].a == sa && (int)t->pairs[i].b == sb) { t->pairs[i].n++; return; }
    if (t->npairs < 32) t->pairs[t->npairs++] = (pair_count){(gait_state)sa, (gait_state)sb, 1};
}

/* --place: one walker at these feet, the stick held to turn it to this yaw (no presses), full
 * or as far as --stick says (a walk: the survey's walkers hold it part way now and then);
 * --sprint: sprinting (pressed on the first step, held), as the survey's walkers now and then */
static struct {
    bool on, sprint;
    double x, y, z, heading, stick;
} placed = {.stick = 1.0};

/* The terrain scene's heights round (x, z), n x n samples 1 m apart from the cell corner below
 * (x - n / 2, z - n / 2), rows along +x, one row per z, as a Lua table. 0 on success. Give
 * --seed before it. */
static int print_heights(uint64_t seed, double x, double z, int n) {
    if (n < 2 || n > 64 || !isfinite(x) || !isfinite(z)) {
        fprintf(stderr, "walkers: --heights X Z N takes finite X, Z and N in 2..64\n");
        return 2;
    }
    gait_world *w = build(seed, false, 1);
    if (!w) {
        fprintf(stderr, "walkers: no world\n");
        return 1;
    }
    const gait_collider *col = gait_world_collider_const(w);
    double x0 = floor(x) - n / 2, z0 = floor(z) - n / 2;
    printf("-- terrain scene, seed %llu: %d x %d heights from (%g, %g), 1 m apart, rows along +x\n",
           (unsigned long long)seed, n, n, x0, z0);
    printf("local H = {\n");
    for (int j = 0; j < n; j++) {
        printf("  {");
        for (int i = 0; i < n; i++) {
            double h = 0;
            /* off the terrain: 0/0, a NaN in Lua, which a world's terrain refuses by name */
            if (gait_terrain_sample(col, x0 + i, z0 + j, &h, NULL)) printf("%s%.4f", i ? ", " : "", h);
            else printf("%s0/0", i ? ", " : "");
        }
        printf("},\n");
    }
    printf("}\n");
    gait_world_destroy(w);
    return 0;
}

static void run_scene(uint64_t seed, bool as_mesh, int n, double seconds, const char *show,
                      int trace, tally *t) {
    memset(t, 0, sizeof *t);
    t->walkers = n;
    gait_world *w = build(seed, as_mesh, n);
    if (!w) { fprintf(stderr, "walkers: no world\n"); exit(1); }
    const gait_collider *col = gait_world_collider_const(w);
    walker *wk = calloc((size_t)n, sizeof *wk);
    for (int i = 0; i < n; i++) {
        walker *k = &wk[i];
        k->r = stream(seed, 1000 + (uint64_t)i);
        gait_character_def cd = gait_default_character_def();
        double x = runi(&k->r, -SPAWN_HALF, SPAWN_HALF), z = runi(&k->r, -SPAWN_HALF, SPAWN_HALF);
        if (trace >= 0 && i != trace) continue; /* one alone */
        gait_hit hit;
        double y = 0;
        if (level_on) { /* the level's spawns in turn, dropped onto the floor under them */
            const double *sp = level_scene.spawn + 3 * (i % level_scene.num_characters);
            x = sp[0];
            z = sp[2];
            y = sp[1];
            if (gait_collider_ray_cast(col, (gait_vec3){x, y, z}, (gait_vec3){0, -2, 0}, NULL, &hit))
                y = hit.point.y;
        } else if (gait_collider_ray_cast(col, (gait_vec3){x, 200, z}, (gait_vec3){0, -400, 0}, NULL, &hit))
            y = hit.point.y; /* exactly on the surface */
        cd.position = (gait_vec3){x, y, z};
        cd.yaw = runi(&k->r, -M_PI, M_PI);
        if (placed.on) { /* one body put where a run left one, the stick held one way */
            cd.position = (gait_vec3){placed.x, placed.y, placed.z};
            cd.yaw = placed.heading;
        }
        if (i == trace)
            printf("  trace spawn %.17g %.17g %.17g yaw %.17g\n", cd.position.x, cd.position.y,
                   cd.position.z, cd.yaw);
        cd.no_camera = true;
        if (gait_character_create(w, &cd, &k->id) != GAIT_OK) continue;
        gait_character_set_camera_yaw(w, k->id, 0); /* the stick is the world direction */
        t->spawned++;
        k->heading = runi(&k->r, -M_PI, M_PI);
        k->stick = 1;
        gait_character_info info;
        gait_character_info_get(w, k->id, &info);
        k->last = info.position;
    }
    double dt = gait_world_step_seconds(w);
    int steps = (int)(seconds / dt + 0.5);
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++) {
            walker *k = &wk[i];
            if (!gait_character_valid(w, k->id)) continue;
            gait_input in;
            memset(&in, 0, sizeof in);
            if (placed.on) {
                /* the stick that turns the body to that yaw */
                in.move_x = -sin(placed.heading) * placed.stick;
                in.move_y = cos(placed.heading) * placed.stick;
                if (placed.sprint) {
                    in.held |= GAIT_BUTTON_SPRINT;
                    if (s == 0) in.pressed |= GAIT_BUTTON_SPRINT;
                }
                gait_character_set_input(w, k->id, &in);
                continue;
            }
            if ((k->hold_left -= dt) <= 0) {
                k->hold_left = runi(&k->r, 1, 4);
                k->heading = runi(&k->r, -M_PI, M_PI);
                double u = runi(&k->r, 0, 1);
                k->stick = u < 0.75 ? 1 : u < 0.9 ? 0.4 : 0;
            }
            if (k->sprint_left > 0) {
                k->sprint_left -= dt;
                in.held |= GAIT_BUTTON_SPRINT;
            } else if (rchance(&k->r, 0.15 * dt)) {
                k->sprint_left = runi(&k->r, 0.5, 3);
                in.pressed |= GAIT_BUTTON_SPRINT;
            }
            if (rchance(&k->r, 0.25 * dt)) in.pressed |= GAIT_BUTTON_JUMP;
            if (rchance(&k->r, 0.03 * dt)) in.pressed |= GAIT_BUTTON_ATTACK;
            in.move_x = k->stick * sin(k->heading);
            in.move_y = k->stick * cos(k->heading);
            gait_character_set_input(w, k->id, &in);
        }
        gait_world_update(w, dt, NULL);
        t->steps += n;
        int window = (int)(s * dt / 10.0);
        if (window > 7) window = 7;
        for (int i = 0; i < n; i++) {
            walker *k = &wk[i];
            gait_character_info info;
            if (gait_character_info_get(w, k->id, &info) != GAIT_OK) continue;
            if (info.phase.state != info.previous_state) k->changes[window]++;
            /* a riser climbed as a wall: a climb begun on foot that ends on foot at most a step
             * above where it began (and more than 5 cm up: a climb let go of ends where it
             * began), where a step-up should have carried the body */
            if (info.phase.state == GAIT_STATE_CLIMB && gait_state_on_foot(info.previous_state)) {
                k->climbing = true;
                /* the feet on foot before the climb's first step (that step already rose) */
                k->climb_y = k->last.y;
                k->climb_steps = 0;
                k->climb_top = info.position.y;
            } else if (k->climbing && info.phase.state == GAIT_STATE_CLIMB) {
                k->climb_steps++;
                if (info.position.y > k->climb_top) k->climb_top = info.position.y;
            } else if (k->climbing && info.phase.state != GAIT_STATE_CLIMB) {
                k->climbing = false;
                const gait_locomotion *num = gait_world_locomotion(w, info.body_type);
                double rise = info.position.y - k->climb_y;
                if (gait_state_on_foot(info.phase.state) && rise > 0.05 &&
                    rise <= num->step_height + 0.05 && k->climb_steps * dt < RISER_CLIMB_SECONDS &&
                    k->climb_top - k->climb_y <= num->step_height + 0.05) {
                    t->riser_events++;
                    if (!k->riser) t->risers++;
                    k->riser = true;
                    if (show && strcmp(show, "riser_climb") == 0)
                        printf("  riser_climb walker %d at %.2f s: climbed %.3f m and walked on "
                               "(feet %.3f %.3f %.3f)\n", i, (s + 1) * dt, rise, info.position.x,
                               info.position.y, info.position.z);
                }
            }
            if (i == trace || i == follow) { /* one walker's story, step by step */
                printf("  trace %.3f s %-10s %.4f %.4f %.4f vel %.3f %.3f %.3f g%d w%d wa%d h %.3f yaw "
                       "%.3f stamina %.1f", (s + 1) * dt, gait_state_name(info.phase.state),
                       info.position.x, info.position.y, info.position.z, info.velocity.x,
                       info.velocity.y, info.velocity.z, info.contact.grounded, info.contact.wall,
                       info.contact.wall_ahead, info.contact.height_above_ground, info.yaw,
                       info.stamina);
                /* in the crowd, the nearest other walker (where it stood after the last step):
                 * a body in the way stops a walk as a wall does */
                print_nearest(w, wk, n, i, info.position, gait_world_locomotion(w, info.body_type));
                printf("\n");
            }
            gait_vec3 p = info.position;
            double dx = p.x - k->last.x, dy = p.y - k->last.y, dz = p.z - k->last.z;
            k->path += sqrt(dx * dx + dy * dy + dz * dz);
            k->last = p;
            char msg[300];
            const char *kind = live_check(w, k->id, &info, &k->live, msg, sizeof msg);
            if (!kind) continue;
            int kk = 0;
            while (kk < KINDS && strcmp(kind_names[kk], kind) != 0) kk++;
            if (kk == KINDS) continue;
            t->events[kk]++;
            if (!(k->kinds & (1u << kk))) t->by_kind[kk]++;
            k->kinds |= 1u << kk;
            if (kk == 0) count_pair(t, msg);
            if (show && strcmp(show, kind) == 0) {
                /* the nearest other walker: a body may be what holds this one */
                printf("  %s walker %d at %.2f s: %s;", kind, i, (s + 1) * dt, msg);
                print_nearest(w, wk, n, i, p, gait_world_locomotion(w, info.body_type));
                printf("\n");
            }
        }
    }
    for (int i = 0; i < n; i++) {
        walker *k = &wk[i];
        if (!gait_character_valid(w, k->id)) continue;
        bool over = false;
        for (int q = 0; q < 8; q++) {
            over |= k->changes[q] > 30;
            if (k->changes[q] > 30 && show && strcmp(show, "changes") == 0)
                printf("  changes walker %d: %d state changes in %d-%d s\n", i, k->changes[q],
                       10 * q, 10 * q + 10);
        }
        t->flicker30 += over;
        t->path_sum += k->path;
        const gait_locomotion *num = gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE);
        if (k->path < 0.1 * num->run_speed * seconds) t->barely++;
    }
    free(wk);
    gait_world_destroy(w);
}

static void report(const char *scene, const tally *t, double seconds, double wall) {
    printf("%-8s %d walkers (%d spawned), %.0f s each, %ld character-steps in %.1f s\n", scene,
           t->walkers, t->spawned, seconds, t->steps, wall);
    printf("  changes>30/10s   %5d walkers\n", t->flicker30);
    for (int k = 0; k < KINDS; k++)
        printf("  %-16s %5d walkers  %6ld events\n", kind_names[k], t->by_kind[k], t->events[k]);
    printf("  riser_climb      %5d walkers  %6ld events\n", t->risers, t->riser_events);
    printf("  barely moved     %5d walkers (path < 10 %% of a run's)\n", t->barely);
    printf("  mean path        %7.1f m\n", t->spawned ? t->path_sum / t->spawned : 0);
    if (t->npairs) {
        printf("  flicker pairs:");
        for (int i = 0; i < t->npairs; i++)
            printf(" %s<->%s %d", gait_state_name(t->pairs[i].a), gait_state_name(t->pairs[i].b),
                   t->pairs[i].n);
        printf("\n");
    }
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
    int n = 1000;
    double seconds = 20;
    uint64_t seed = 1;
    const char *scene = "both", *show = NULL;
    int trace = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--walkers") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--scene") && i + 1 < argc) scene = argv[++i];
        else if (!strcmp(argv[i], "--show") && i + 1 < argc) show = argv[++i];
        else if (!strcmp(argv[i], "--trace") && i + 1 < argc) trace = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--follow") && i + 1 < argc) follow = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--place") && i + 4 < argc) {
            placed.on = true;
            placed.x = atof(argv[++i]);
            placed.y = atof(argv[++i]);
            placed.z = atof(argv[++i]);
            placed.heading = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--stick") && i + 1 < argc) {
            placed.stick = atof(argv[++i]);
            if (!(placed.stick >= 0 && placed.stick <= 1)) {
                fprintf(stderr, "walkers: --stick takes 0 to 1 (how far the stick is held)\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--sprint")) {
            placed.sprint = true;
        } else if (!strcmp(argv[i], "--level") && i + 1 < argc) {
            char err[512];
            if (meadow_read(&level_scene, argv[++i], err, sizeof err) != 0) {
                fprintf(stderr, "walkers: %s\n", err);
                return 1;
            }
            if (level_scene.num_terrain_triangles > 0 || level_scene.num_boxes > 0) {
                fprintf(stderr, "walkers: %s: a level has no terrain and no boxes (meadow_gen "
                                "--level, or a map through q3_level)\n", argv[i]);
                return 1;
            }
            level_on = true;
            scene = "level";
        } else if (!strcmp(argv[i], "--heights") && i + 3 < argc) {
            double x = atof(argv[++i]), z = atof(argv[++i]);
            return print_heights(seed, x, z, atoi(argv[++i]));
        } else {
            fprintf(stderr, "usage: walkers [--walkers N] [--seconds S] [--seed K] "
                            "[--scene mesh|terrain|both] [--show KIND] [--trace WALKER] [--follow WALKER] "
                            "[--place X Y Z YAW [--stick S] [--sprint]] [--heights X Z N] "
                            "[--level PREFIX]\n");
            return 2;
        }
    }
    if (placed.on) { /* one walker, traced, whatever --walkers or --trace said */
        n = 1;
        trace = 0;
    }
    if (n < 1 || n > 100000 || !(seconds > 0 && seconds <= 80)) {
        fprintf(stderr, "walkers: --walkers 1..100000, --seconds up to 80\n");
        return 2;
    }
    for (int v = 0; v < 2; v++) {
        const char *name = level_on ? "level" : v == 0 ? "mesh" : "terrain";
        if (level_on ? v > 0 : strcmp(scene, "both") != 0 && strcmp(scene, name) != 0) continue;
        tally t;
        double t0 = now();
        run_scene(seed, v == 0, n, seconds, show, trace, &t);
        report(name, &t, seconds, now() - t0);
        fflush(stdout);
    }
    return 0;
}
