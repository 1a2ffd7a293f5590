/* fuzz_body — random worlds, random input streams, invariants after every step.
 *
 * A case is a seed: it makes a world (a random heightfield; boxes, ramps, stairs, thin plates,
 * acute wedges, corners, overlapping clusters, low ceilings, poles; water regions), 1..8
 * characters with random body types and stamina, and a stream of frames at 20..300 fps (each
 * frame's seconds and every character's gait_input: moves, walk/crouch switches, jumps,
 * sprints, drops, attacks, looks). The frames run through gait_world_update, the host's path.
 *
 * After every fixed step, for every character (docs/behaviour.md):
 *   - no NaN anywhere in gait_character_info, no Inf except where the contact documents one:
 *     height_above_ground and water_depth may be +INFINITY (nothing below), submersion -INFINITY
 *     (dry: "<= 0 above the water or dry");
 *   - the capsule (radius and height from the body type's numbers, the crouch height while
 *     crouched, feet = position) overlaps no landmark deeper than PEN_TOL;
 *   - the feet are never below the terrain height by more than PEN_TOL;
 *   - stamina in [0, max];
 *   - the state change is an edge of the state tables (gait_locomotion_is_edge), and previous_state is
 *     the state the last step left;
 *   - every press fed is read by exactly one step: the first step after it reads all the held
 *     presses (presses_read), any later step of the same frame reads none, a frame that runs no
 *     step keeps them (gait_character_held_presses).
 * A frame that runs several steps is checked step by step on a shadow world: the state is
 * snapshotted before the frame, restored into the shadow (same geometry) and stepped one step
 * at a time; the shadow must end bit-identical to the real world (a determinism check too).
 *
 * PEN_TOL = 2 cm. The body stops sweeps 2 mm short of a surface and pushes out 1 mm beyond a
 * contact; a climbing body is pressed 5 cm into a landmark wall during its move and pushed back
 * out before the step ends. So an honest body ends each step at or outside the surface, give or
 * take millimetres of float and iteration residue; 2 cm is ten times that residue and a tenth of
 * what a player could see against a 0.3 m capsule. The terrain is read through its height
 * function (the feet stand exactly on it), and on a slope the bottom sphere dips r(1 - cos a)
 * into the terrain's triangles by design, so the terrain is checked by height, not by overlap.
 *
 * A failure is minimised (frames after it cut; characters, then shapes dropped one at a time
 * while it still fails the same way) and saved as a replay (gait/replay.h) whose meta holds the
 * seed, the kept shapes and the characters' spawns; `fuzz_body --replay FILE` re-runs it.
 *
 * Before the random cases, five figures measure what users report of other controllers on fixed
 * worlds (ghost bumps on internal edges, grounded flicker on slopes, tunnelling at speed, stairs
 * that depend on the frame rate, bodies wedged in corners); each must be zero.
 *
 * With --liveness (and in make test's second leg) it also checks what players
 * notice — bodies hung in the air, traversals that outlast their plan, drownings that end in deep
 * water, walkers stopped with open ground ahead, state flicker (check_live below) — on worlds of
 * generator 2, which adds overhang bands, leaning faces, fences in a row, platforms at the water
 * line, stairs along a wall and spawns exactly on faces. Findings not fixed yet go under
 * tests/pending/replays/.
 *
 * Modes:
 *   test_fuzz_body                 (make test) the figures, FUZZ_SECONDS of fuzzing (default 3), as
 *                                  much again with the liveness invariants (generator 2), then
 *                                  every tests/replays/ *.replay must pass; "N passed, N failed"
 *   fuzz_body --seconds N          (make fuzz) a long run with a progress line every 5 s
 *   fuzz_body --seed S [--cases K] the cases S .. S+K-1
 *   fuzz_body --liveness ...       the liveness invariants too, on generator 2's worlds
 *   fuzz_body --replay FILE...     re-run replays, print the state hash of each */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gait/gait.h"
#include "gait/replay.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#include "live.h"
#include "shapes.h"

#define PEN_TOL 0.02          /* m, see above */
#define MAX_SHAPES 40
#define MAX_CHARS 8
#define MAX_FRAMES 1800
#define AREA 22.0             /* m: shapes and characters within [-AREA, AREA]^2 */
/* The world generator's version: make_terrain and make_shape turn a seed into a world, and a saved
 * replay holds only the seed. Any change to what a generator builds must add a new one, and the
 * replays made by the old one re-made (a replay of an unknown generator is refused, not silently
 * run on another world). Generator 1 is make test's; generator 2 (with --liveness) builds what 1
 * builds for the same seed's rolls plus the shapes the liveness invariants look for: overhang
 * bands on walls, faces leaning back, fences in a row, platforms at the water line, stairs along
 * a wall, and spawns exactly on a face. */
#define LIVE_TEST_SEED 1     /* make test's liveness leg starts here */
#define GENERATOR 1
#define GENERATOR_MAX 2
static int generator = GENERATOR; /* the one cases are made and replays rebuilt with */
#define MAX_TRIS 8192         /* per mesh; tri() drops what is past it */

/* ---- random numbers: splitmix64, one stream per purpose so dropping a shape or a character
 * leaves the others as they were ---------------------------------------------------------- */

static int rint_(rng *r, int lo, int hi) { return lo + (int)(rnext(r) % (uint64_t)(hi - lo + 1)); }

/* ---- the case ------------------------------------------------------------------------------ */

typedef struct spawn {
    double x, y, z, yaw;
    int body_type;
    double stamina_max, stamina_start;
} spawn;

typedef struct fuzz_case {
    uint64_t seed;
    int shape_count;
    bool keep_shape[MAX_SHAPES];
    int char_count;
    spawn spawns[MAX_CHARS];
    int frame_count;
    double *dt;                /* [frame] */
    gait_input *in;            /* [frame * MAX_CHARS + character] */
} fuzz_case;

typedef struct failure {
    bool failed;
    int frame, step, character;
    char kind[32];
    char msg[400];
} failure;

typedef struct stats {
    uint64_t steps, char_steps, frames, cases, failures;
    struct { char kind[32]; uint64_t cases; } by_kind[16]; /* cases failing, by what failed first */
    int kinds;
    double max_pen;            /* deepest landmark overlap seen (m) */
    double max_below;          /* deepest the feet were below the terrain (m) */
} stats;

/* ---- world building ------------------------------------------------------------------------ */

static double terrain_h(const gait_collider *c, double x, double z) {
    double h = 0;
    return gait_terrain_sample(c, x, z, &h, NULL) ? h : 0;
}

static const char *const shape_names[] = {"box", "ramp", "stairs", "plate", "wedge", "corner",
                                          "cluster", "ceiling", "pole", "band", "lean", "fences",
                                          "waterline"};

/* Shape i of the seed's world, into m; returns its kind. A platform at the water line brings its
 * own water: *water (surface NAN when none) is added with the shape. */
static int make_shape(uint64_t seed, int i, const gait_collider *c, mesh *m, gait_water_region *water) {
    rng r = stream(seed, 100 + (uint64_t)i);
    m->n = 0;
    water->surface = NAN;
    int kind = rint_(&r, 0, generator >= 2 ? 12 : 8);
    xform t;
    t.o[0] = runi(&r, -AREA, AREA);
    t.o[2] = runi(&r, -AREA, AREA);
    t.o[1] = terrain_h(c, t.o[0], t.o[2]) - runi(&r, 0, 0.5);
    t.yaw = rchance(&r, 0.5) ? 0 : runi(&r, -M_PI, M_PI);
    t.tilt = 0;
    switch (kind) {
    case 0: { /* a box, sometimes floating */
        double hx = runi(&r, 0.05, 3), hy = runi(&r, 0.05, 2.5), hz = runi(&r, 0.05, 3);
        if (rchance(&r, 0.3)) t.o[1] += runi(&r, 0.5, 4);
        box(m, &t, -hx, 0, -hz, hx, 2 * hy, hz);
        break;
    }
    case 1: { /* a ramp: a closed triangular prism rising along +z */
        double len = runi(&r, 1, 6), w = runi(&r, 0.5, 3), ang = runi(&r, 5, 80) * M_PI / 180;
        double h = fmin(len * tan(ang), 8);
        double p[6][3] = {{-w, 0, 0}, {w, 0, 0}, {-w, 0, len}, {w, 0, len}, {-w, h, len}, {w, h, len}};
        double q[6][3];
        for (int k = 0; k < 6; k++) xf(&t, p[k], q[k]);
        quad(m, q[0], q[2], q[3], q[1]);         /* bottom */
        quad(m, q[0], q[1], q[5], q[4]);         /* slope */
        quad(m, q[2], q[4], q[5], q[3]);         /* back */
        tri(m, q[0], q[4], q[2]);                /* sides */
        tri(m, q[1], q[3], q[5]);
        break;
    }
    case 2: { /* stairs: overlapping boxes in one mesh */
        int n = rint_(&r, 2, 10);
        double rise = runi(&r, 0.05, 0.5), run = runi(&r, 0.12, 0.6), w = runi(&r, 0.4, 2);
        for (int k = 0; k < n; k++) box(m, &t, -w, 0, k * run, w, (k + 1) * rise, n * run);
        /* generator 2: half of them along a wall (stairs against walls are everywhere) */
        if (generator >= 2 && rchance(&r, 0.5))
            box(m, &t, -w - 0.4, 0, -1, -w, n * rise + 2.5, n * run + 1);
        break;
    }
    case 3: { /* a thin plate: a zero-thickness quad at any angle, or 1 cm thick */
        double a = runi(&r, 0.3, 3), b = runi(&r, 0.3, 3);
        t.o[1] += runi(&r, 0, 3);
        t.tilt = runi(&r, -M_PI, M_PI);
        if (rchance(&r, 0.5)) {
            double p[4][3] = {{-a, 0, -b}, {a, 0, -b}, {a, 0, b}, {-a, 0, b}}, q[4][3];
            for (int k = 0; k < 4; k++) xf(&t, p[k], q[k]);
            quad(m, q[0], q[3], q[2], q[1]);
        } else {
            box(m, &t, -a, 0, -b, a, 0.01, b);
        }
        break;
    }
    case 4: { /* an acute wedge: two plates meeting along an edge at 3..40 degrees */
        double len = runi(&r, 1, 4), w = runi(&r, 0.5, 3), ang = runi(&r, 3, 40) * M_PI / 180;
        t.tilt = rchance(&r, 0.5) ? 0 : runi(&r, -M_PI, M_PI);
        double s = sin(ang), co = cos(ang);
        double p[6][3] = {{-w, 0, 0}, {w, 0, 0}, {w, 0, len}, {-w, 0, len},
                          {w, len * s, len * co}, {-w, len * s, len * co}};
        double q[6][3];
        for (int k = 0; k < 6; k++) xf(&t, p[k], q[k]);
        quad(m, q[0], q[3], q[2], q[1]);
        quad(m, q[0], q[1], q[4], q[5]);
        break;
    }
    case 5: { /* a corner: floor and two walls, square or acute in plan */
        double s = runi(&r, 1, 4), ang = rchance(&r, 0.5) ? M_PI / 2 : runi(&r, 10, 80) * M_PI / 180;
        double o[3] = {0, 0, 0}, a[3] = {s, 0, 0}, b[3] = {s * cos(ang), 0, s * sin(ang)};
        double ah[3] = {s, s, 0}, bh[3] = {b[0], s, b[2]}, oh[3] = {0, s, 0};
        double q[6][3];
        const double *p[6] = {o, a, b, ah, bh, oh};
        for (int k = 0; k < 6; k++) xf(&t, p[k], q[k]);
        tri(m, q[0], q[2], q[1]);
        quad(m, q[0], q[1], q[3], q[5]);
        quad(m, q[0], q[5], q[4], q[2]);
        break;
    }
    case 6: { /* overlapping boxes in one mesh */
        int n = rint_(&r, 2, 4);
        for (int k = 0; k < n; k++) {
            double dx = runi(&r, -1, 1), dz = runi(&r, -1, 1), h = runi(&r, 0.2, 2.5);
            double hx = runi(&r, 0.2, 1.5), hz = runi(&r, 0.2, 1.5);
            box(m, &t, dx - hx, 0, dz - hz, dx + hx, h, dz + hz);
        }
        break;
    }
    case 7: { /* a low ceiling: a slab at 0.8..2.2 m over the ground */
        double a = runi(&r, 1, 4), b = runi(&r, 1, 4), y = runi(&r, 0.8, 2.2);
        t.o[1] = terrain_h(c, t.o[0], t.o[2]) + y;
        box(m, &t, -a, 0, -b, a, runi(&r, 0.01, 0.3), b);
        break;
    }
    case 8: { /* a thin pole */
        double w = runi(&r, 0.02, 0.2);
        box(m, &t, -w, 0, -w, w, runi(&r, 1, 6), w);
        break;
    }
    case 9: { /* a wall with overhang bands (the default world's tower): 1-3 bands sticking out
               * 0.1-0.5 m, 0.1-0.4 m thick, 1.5-8 m up */
        double hx = runi(&r, 1, 4), hz = runi(&r, 0.3, 3), h = runi(&r, 3, 12);
        box(m, &t, -hx, 0, -hz, hx, h, hz);
        int bands = rint_(&r, 1, 3);
        for (int k = 0; k < bands; k++) {
            double out = runi(&r, 0.1, 0.5), y = runi(&r, 1.5, fmin(8, h - 0.5)), th = runi(&r, 0.1, 0.4);
            box(m, &t, -hx - out, y, -hz - out, hx + out, y + th, hz + out);
        }
        break;
    }
    case 10: { /* a block whose front face leans back 3-40 deg, its top flat */
        double w = runi(&r, 0.5, 3), h = runi(&r, 0.4, 3), depth = runi(&r, 0.1, 3);
        double lean = runi(&r, 3, 40) * M_PI / 180, z1 = h * tan(lean);
        double p[8][3] = {{-w, 0, 0}, {w, 0, 0}, {w, h, z1}, {-w, h, z1},
                          {w, h, z1 + depth}, {-w, h, z1 + depth}, {w, 0, z1 + depth}, {-w, 0, z1 + depth}};
        double q[8][3];
        for (int k = 0; k < 8; k++) xf(&t, p[k], q[k]);
        quad(m, q[0], q[3], q[2], q[1]); /* the leaning front */
        quad(m, q[3], q[5], q[4], q[2]); /* top */
        quad(m, q[7], q[6], q[4], q[5]); /* back */
        quad(m, q[0], q[1], q[6], q[7]); /* bottom */
        quad(m, q[0], q[7], q[5], q[3]); /* sides */
        quad(m, q[1], q[2], q[4], q[6]);
        break;
    }
    case 11: { /* 2-4 fences in a row, 0.1-0.3 m thick, 0.5-1.4 m high, 0.6-2.5 m apart */
        int n = rint_(&r, 2, 4);
        double len = runi(&r, 1, 6), h = runi(&r, 0.5, 1.4), th = runi(&r, 0.1, 0.3), gap = runi(&r, 0.6, 2.5);
        for (int k = 0; k < n; k++) box(m, &t, -len, 0, k * (th + gap), len, h, k * (th + gap) + th);
        break;
    }
    default: { /* a platform at the water line (its top 0.8 m under to 0.3 m over the surface),
                * in water of its own 1-6 m deep over the terrain */
        double a = runi(&r, 0.5, 4), b = runi(&r, 0.5, 4);
        double surface = t.o[1] + runi(&r, 1, 6), top = surface + runi(&r, -0.8, 0.3);
        box(m, &t, -a, 0, -b, a, top - t.o[1], b);
        double reach = fmax(a, b) + runi(&r, 2, 8);
        water->min_x = t.o[0] - reach;
        water->max_x = t.o[0] + reach;
        water->min_z = t.o[2] - reach;
        water->max_z = t.o[2] + reach;
        water->surface = surface;
        break;
    }
    }
    return kind;
}

static void make_terrain(uint64_t seed, gait_collider *c) {
    rng r = stream(seed, 1);
    enum { N = 49 };
    static const int n = N;
    float h[N * N];
    double cell = runi(&r, 0.75, 1.5);
    double a1 = runi(&r, 0, 4), f1 = runi(&r, 0.05, 0.8), f2 = runi(&r, 0.05, 0.8);
    double p1 = runi(&r, 0, 6), p2 = runi(&r, 0, 6);
    double terrace = rchance(&r, 0.3) ? runi(&r, 0.2, 2) : 0;
    double noise = rchance(&r, 0.3) ? runi(&r, 0, 0.5) : 0;
    double cliff = rchance(&r, 0.3) ? runi(&r, 2, 8) : 0, cliff_at = runi(&r, -10, 10);
    double spikes = rchance(&r, 0.2) ? 3 : 0;
    double x0 = -0.5 * (n - 1) * cell;
    for (int iz = 0; iz < n; iz++)
        for (int ix = 0; ix < n; ix++) {
            double x = x0 + ix * cell, z = x0 + iz * cell;
            double v = a1 * sin(x * f1 + p1) * cos(z * f2 + p2);
            if (terrace > 0) v = floor(v / terrace) * terrace;
            if (noise > 0) v += runi(&r, -noise, noise);
            if (cliff > 0 && x > cliff_at) v += cliff;
            if (spikes > 0 && rchance(&r, 0.03)) v += runi(&r, 0, spikes);
            h[iz * n + ix] = (float)v;
        }
    gait_heightfield_def hd = {n, n, cell, {x0, 0, x0}, h};
    gait_collider_set_terrain(c, &hd);
    int waters = rint_(&r, 0, 3);
    for (int k = 0; k < waters; k++) {
        gait_water_region wr;
        wr.min_x = runi(&r, -AREA, AREA);
        wr.min_z = runi(&r, -AREA, AREA);
        wr.max_x = wr.min_x + runi(&r, 2, 20);
        wr.max_z = wr.min_z + runi(&r, 2, 20);
        wr.surface = terrain_h(c, 0.5 * (wr.min_x + wr.max_x), 0.5 * (wr.min_z + wr.max_z)) +
                     runi(&r, -1, 3);
        gait_collider_add_water(c, &wr, NULL);
    }
    if (rchance(&r, 0.15)) gait_collider_set_sea_level(c, runi(&r, -2, 2));
}

static gait_world *build_world(const fuzz_case *fc) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = fc->char_count > 0 ? fc->char_count : 1;
    gait_world *w = gait_world_create(&wd);
    if (!w) return NULL;
    gait_collider *c = gait_world_collider(w);
    make_terrain(fc->seed, c);
    mesh *m = mesh_new(MAX_TRIS); /* 295 KB: too big for the stack */
    for (int i = 0; m && i < fc->shape_count; i++) {
        gait_water_region water;
        int kind = make_shape(fc->seed, i, c, m, &water);
        if (!fc->keep_shape[i] || m->n == 0) continue;
        if (!isnan(water.surface)) gait_collider_add_water(c, &water, NULL);
        if (getenv("FUZZ_TRACE")) printf("shape %d: %s, %d triangles\n", i, shape_names[kind], m->n);
        if (getenv("FUZZ_TRACE") && atoi(getenv("FUZZ_TRACE")) >= 2) /* its triangles too */
            for (int k = 0; k < m->n; k++) {
                const float *v = m->v + 9 * k;
                printf("  tri %d: (%.3f %.3f %.3f) (%.3f %.3f %.3f) (%.3f %.3f %.3f)\n", k, v[0], v[1],
                       v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
            }
        gait_mesh_def md;
        memset(&md, 0, sizeof md);
        md.positions = m->v;
        md.vertex_count = m->n * 3;
        md.triangle_count = m->n;
        md.name = shape_names[kind];
        gait_collider_add_landmark(c, &md, NULL); /* a fully degenerate mesh is refused: fine */
    }
    free(m);
    return w;
}

static bool spawn_chars(gait_world *w, const fuzz_case *fc, gait_character_id *ids) {
    for (int i = 0; i < fc->char_count; i++) {
        const spawn *s = &fc->spawns[i];
        gait_character_def cd = gait_default_character_def();
        cd.position = (gait_vec3){s->x, s->y, s->z};
        cd.yaw = s->yaw;
        cd.body_type = (gait_body_type)s->body_type;
        cd.stamina.max = s->stamina_max;
        cd.stamina.start = s->stamina_start;
        if (gait_character_create(w, &cd, &ids[i]) != GAIT_OK) return false;
    }
    return true;
}

/* ---- generating a case --------------------------------------------------------------------- */

static void case_free(fuzz_case *fc) {
    free(fc->dt);
    free(fc->in);
    fc->dt = NULL;
    fc->in = NULL;
}

static void case_alloc(fuzz_case *fc, int frames) {
    fc->frame_count = frames;
    fc->dt = calloc((size_t)(frames > 0 ? frames : 1), sizeof *fc->dt);
    fc->in = calloc((size_t)(frames > 0 ? frames : 1) * MAX_CHARS, sizeof *fc->in);
    if (!fc->dt || !fc->in) {
        fprintf(stderr, "fuzz_body: out of memory\n");
        exit(2);
    }
}

static void make_case(uint64_t seed, fuzz_case *fc) {
    memset(fc, 0, sizeof *fc);
    fc->seed = seed;
    rng r = stream(seed, 2);
    fc->shape_count = rint_(&r, 0, MAX_SHAPES);
    for (int i = 0; i < fc->shape_count; i++) fc->keep_shape[i] = true;
    fc->char_count = rint_(&r, 1, MAX_CHARS);
    case_alloc(fc, rint_(&r, 200, MAX_FRAMES));
    /* spawns: clear of every landmark, over the highest surface below */
    gait_world *w = build_world(fc);
    for (int i = 0; i < fc->char_count; i++) {
        rng cr = stream(seed, 1000 + (uint64_t)i);
        spawn *s = &fc->spawns[i];
        s->body_type = rint_(&cr, 0, GAIT_BODY_TYPE_COUNT - 1);
        s->stamina_max = rchance(&cr, 0.5) ? 100 : runi(&cr, 20, 240);
        s->stamina_start = rchance(&cr, 0.5) ? s->stamina_max : runi(&cr, 0, s->stamina_max);
        s->yaw = runi(&cr, -M_PI, M_PI);
        const gait_locomotion *num = gait_world_locomotion(w, (gait_body_type)s->body_type);
        for (int tries = 0; tries < 40; tries++) {
            s->x = runi(&cr, -AREA, AREA);
            s->z = runi(&cr, -AREA, AREA);
            gait_hit hit;
            double top = terrain_h(gait_world_collider_const(w), s->x, s->z);
            if (gait_collider_ray_cast(gait_world_collider_const(w), (gait_vec3){s->x, 100, s->z},
                                       (gait_vec3){0, -200, 0}, NULL, &hit))
                top = hit.point.y;
            s->y = top + 0.05 + (rchance(&cr, 0.3) ? runi(&cr, 0, 12) : 0);
            /* generator 2: some spawns with the feet exactly on the face below (authored spawn
             * points sit exactly on floors); the room above is checked as for the others */
            bool exact = generator >= 2 && rchance(&cr, 0.4);
            if (exact) s->y = top + 0.05; /* the room checked where it will stand, not above */
            gait_capsule cap = {{s->x, s->y + num->capsule_radius, s->z},
                                {s->x, s->y + num->capsule_height - num->capsule_radius, s->z},
                                num->capsule_radius + 0.05};
            gait_filter f;
            memset(&f, 0, sizeof f);
            f.skip_terrain = true;
            gait_contact_point cp;
            if (gait_collider_capsule_overlap(gait_world_collider_const(w), &cap, &f, &cp, 1, NULL) == 0) {
                if (exact) s->y = top;
                break;
            }
        }
    }
    gait_world_destroy(w);
    /* the input stream: a move that wanders, presses at rates per second, frame rates that
     * change every second or so */
    double fps = runi(&r, 20, 300);
    for (int k = 0; k < fc->frame_count; k++) {
        if (rchance(&r, 0.02)) fps = runi(&r, 20, 300);
        fc->dt[k] = (1.0 / fps) * runi(&r, 0.9, 1.1);
    }
    for (int i = 0; i < fc->char_count; i++) {
        rng cr = stream(seed, 2000 + (uint64_t)i);
        double dir = runi(&cr, -M_PI, M_PI), mag = 1;
        bool moving = true, sprint_held = false;
        for (int k = 0; k < fc->frame_count; k++) {
            double dt = fc->dt[k];
            gait_input *in = &fc->in[k * MAX_CHARS + i];
            if (rchance(&cr, 0.8 * dt)) moving = !moving;
            if (rchance(&cr, 1.5 * dt)) dir = runi(&cr, -M_PI, M_PI);
            if (rchance(&cr, 0.5 * dt)) mag = rchance(&cr, 0.7) ? 1 : runi(&cr, 0, 1);
            if (rchance(&cr, 0.4 * dt)) sprint_held = !sprint_held;
            if (moving) {
                in->move_x = mag * sin(dir);
                in->move_y = mag * cos(dir);
            }
            if (rchance(&cr, 0.002)) in->move_x = runi(&cr, -3, 3); /* out of range: clamped */
            in->look_yaw = rchance(&cr, 0.1) ? runi(&cr, -0.3, 0.3) : 0;
            in->look_pitch = rchance(&cr, 0.02) ? runi(&cr, -0.2, 0.2) : 0;
            in->look_zoom = rchance(&cr, 0.01) ? runi(&cr, -1, 1) : 0;
            if (sprint_held) in->held |= GAIT_BUTTON_SPRINT;
            if (rchance(&cr, 0.3 * dt)) in->held |= GAIT_BUTTON_JUMP | GAIT_BUTTON_ATTACK;
            static const double rate[8] = {1.2, 0.6, 0.25, 0.5, 0.1, 0.1, 0.05, 0.08};
            for (int b = 0; b < 8; b++)
                if (rchance(&cr, rate[b] * dt)) in->pressed |= 1u << b;
            if (rchance(&cr, 0.001)) in->pressed |= 0xFFFFFF00u; /* bits no button has */
        }
    }
}

/* ---- running a case with the checks ---------------------------------------------------------- */

static void failf(failure *f, int frame, int step, int ch, const char *kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static void failf(failure *f, int frame, int step, int ch, const char *kind, const char *fmt, ...) {
    if (f->failed) return;
    /* FUZZ_SKIP=kind,kind: ignore those kinds, to look for other bugs behind a known one */
    const char *skip = getenv("FUZZ_SKIP");
    if (skip && strstr(skip, kind)) return;
    f->failed = true;
    f->frame = frame;
    f->step = step;
    f->character = ch;
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
}

static bool finite_or_inf(double v) { return !isnan(v) && v != -INFINITY; }

/* ---- liveness (--liveness): what players notice, checked step by step (live.h) -------------- */

static bool liveness = false;

static void check_live(gait_world *w, gait_character_id id, int c, const gait_character_info *info,
                       live_track *lt, int frame, int step, failure *f) {
    char msg[300];
    const char *kind = live_check(w, id, info, lt, msg, sizeof msg);
    if (kind) failf(f, frame, step, c, kind, "%s", msg);
}

/* The checks on one character after one step. expect: the presses this step must read. */
static void check_char(gait_world *w, gait_character_id id, int c, uint32_t expect, gait_state *last,
                       live_track *lt, int frame, int step, failure *f, stats *st) {
    gait_character_info info;
    if (gait_character_info_get(w, id, &info) != GAIT_OK) {
        failf(f, frame, step, c, "stale", "character %d is gone", c);
        return;
    }
    const gait_contact *ct = &info.contact;
    if (getenv("FUZZ_TRACE")) /* a line per character step, to read a replay's story */
        printf("trace f%d s%d c%d %s pos %.4f %.4f %.4f vel %.3f %.3f %.3f g%d w%d wa%d h %.3f st %.2f\n",
               frame + 1, step, c + 1, gait_state_name(info.phase.state), info.position.x,
               info.position.y, info.position.z, info.velocity.x, info.velocity.y, info.velocity.z,
               ct->grounded, ct->wall, ct->wall_ahead, ct->height_above_ground, info.stamina);
    if (getenv("FUZZ_TRACE") && atoi(getenv("FUZZ_TRACE")) >= 3) {
        gait_vec3 n = {0}; double hh = 0;
        gait_terrain_sample(gait_world_collider(w), info.position.x, info.position.z, &hh, &n);
        printf("   steep %d terrain %.4f n %.3f %.3f %.3f water depth %.3f submersion %.3f\n",
               ct->steep, hh, n.x, n.y, n.z, ct->water_depth, ct->submersion);
    }
    double fin[] = {info.position.x, info.position.y, info.position.z, info.velocity.x,
                    info.velocity.y, info.velocity.z, info.yaw, info.camera_yaw, info.phase.seconds,
                    info.stamina, info.stamina_max, info.action_seconds_left,
                    info.return_point.x, info.return_point.y, info.return_point.z};
    for (size_t k = 0; k < sizeof fin / sizeof fin[0]; k++)
        if (!isfinite(fin[k])) {
            failf(f, frame, step, c, "nan", "field %zu of the info is %g (state %s)", k, fin[k],
                  gait_state_name(info.phase.state));
            return;
        }
    if (!finite_or_inf(ct->height_above_ground) || !finite_or_inf(ct->water_depth) ||
        isnan(ct->submersion) || ct->submersion == INFINITY) {
        failf(f, frame, step, c, "nan", "contact height %g / water depth %g / submersion %g",
              ct->height_above_ground, ct->water_depth, ct->submersion);
        return;
    }
    if (!(info.stamina >= 0 && info.stamina <= info.stamina_max)) {
        failf(f, frame, step, c, "stamina", "stamina %.17g outside [0, %g]", info.stamina,
              info.stamina_max);
        return;
    }
    if (info.previous_state != *last) {
        failf(f, frame, step, c, "edge", "previous_state %s but the last step left %s",
              gait_state_name(info.previous_state), gait_state_name(*last));
        return;
    }
    if (!gait_locomotion_is_edge(info.previous_state, info.phase.state)) {
        failf(f, frame, step, c, "edge", "%s -> %s is not an edge of the state tables",
              gait_state_name(info.previous_state), gait_state_name(info.phase.state));
        return;
    }
    *last = info.phase.state;
    uint32_t held = 0;
    gait_character_held_presses(w, id, &held);
    if (info.presses_read != (expect & GAIT_BUTTON_ALL) || held != 0) {
        failf(f, frame, step, c, "press", "step read presses 0x%x, wanted 0x%x (still held 0x%x)",
              info.presses_read, expect & GAIT_BUTTON_ALL, held);
        return;
    }
    const gait_collider *col = gait_world_collider_const(w);
    double ground;
    if (gait_terrain_sample(col, info.position.x, info.position.z, &ground, NULL)) {
        double below = ground - info.position.y;
        if (below > st->max_below) st->max_below = below;
        if (below > PEN_TOL) {
            failf(f, frame, step, c, "below_terrain", "feet %.4f m below the terrain (state %s)",
                  below, gait_state_name(info.phase.state));
            return;
        }
    }
    const gait_locomotion *num = gait_world_locomotion(w, info.body_type);
    double r = num->capsule_radius;
    /* crouched: in the crouch, or falling from one with no room to stand (traverse.c keeps the
     * crouched capsule then: gait_traverse_info.crouch_air) */
    gait_traverse_info trav;
    bool crouch_air_known = gait_character_traverse_info(w, id, &trav) == GAIT_OK;
    bool crouch_air = crouch_air_known && trav.crouch_air;
    double h = info.phase.state == GAIT_STATE_CROUCH || crouch_air ? num->crouch_height
                                                                   : num->capsule_height;
    gait_capsule cap = {{info.position.x, info.position.y + r, info.position.z},
                        {info.position.x, info.position.y + h - r, info.position.z}, r};
    gait_filter fl;
    memset(&fl, 0, sizeof fl);
    fl.skip_terrain = true;
    gait_contact_point cp[8];
    int n = gait_collider_capsule_overlap(col, &cap, &fl, cp, 8, NULL);
    double deepest = 0;
    for (int k = 0; k < n; k++) {
        /* the height latch (docs/behaviour.md, "Traversal"): during a vault or mantle the ledge's triangles inside the
         * latch box are ignored until the feet rise above the ledge; overlapping them is the
         * design, not a failure */
        const gait_vec3 q = cp[k].point;
        bool latched = crouch_air_known && trav.latch && q.x >= trav.latch_min.x - 1e-6 &&
                       q.y >= trav.latch_min.y - 1e-6 && q.z >= trav.latch_min.z - 1e-6 &&
                       q.x <= trav.latch_max.x + 1e-6 && q.y <= trav.latch_max.y + 1e-6 &&
                       q.z <= trav.latch_max.z + 1e-6;
        if (!latched && cp[k].depth > deepest) deepest = cp[k].depth;
    }
    if (deepest > st->max_pen) st->max_pen = deepest;
    if (deepest > PEN_TOL && getenv("FUZZ_TRACE"))
        for (int k = 0; k < n; k++)
            printf("contact %d: depth %.4f normal %.3f %.3f %.3f point %.3f %.3f %.3f tri %d class %d\n", k,
                   cp[k].depth, cp[k].normal.x, cp[k].normal.y, cp[k].normal.z, cp[k].point.x,
                   cp[k].point.y, cp[k].point.z, cp[k].triangle, (int)cp[k].cls);
    if (n < 0 || deepest > PEN_TOL) {
        failf(f, frame, step, c, "overlap", "capsule %.4f m inside a landmark (state %s, from %s, "
              "feet %.3f %.3f %.3f)", deepest, gait_state_name(info.phase.state),
              gait_state_name(info.previous_state), info.position.x, info.position.y,
              info.position.z);
        return;
    }
    if (liveness) check_live(w, id, c, &info, lt, frame, step, f);
}

typedef struct runner {
    gait_world *w, *shadow;
    gait_character_id ids[MAX_CHARS];
    unsigned char *snap;
    size_t snap_size;
} runner;

/* Runs frames [0, frames) of the case (inputs from the case, or from a player when given),
 * recording into rec when given. Returns the state hash at the end. */
static uint64_t run_case(const fuzz_case *fc, int frames, gait_replay_player *player,
                         gait_replay_recorder *rec, failure *f, stats *st) {
    memset(f, 0, sizeof *f);
    runner rn;
    memset(&rn, 0, sizeof rn);
    rn.w = build_world(fc);
    rn.shadow = build_world(fc);
    if (!rn.w || !rn.shadow || !spawn_chars(rn.w, fc, rn.ids) || !spawn_chars(rn.shadow, fc, rn.ids)) {
        failf(f, 0, 0, 0, "setup", "could not build the world or spawn: %s",
              rn.w ? gait_world_last_error(rn.w) : "no world");
        gait_world_destroy(rn.w);
        gait_world_destroy(rn.shadow);
        return 0;
    }
    rn.snap_size = gait_world_snapshot_size(rn.w);
    rn.snap = malloc(rn.snap_size);
    if (rec)
        for (int c = 0; c < fc->char_count; c++) gait_replay_recorder_add_character(rec, rn.ids[c]);
    uint32_t pending[MAX_CHARS] = {0};
    gait_state last[MAX_CHARS];
    for (int c = 0; c < fc->char_count; c++) { /* idle, or crouched under a low ceiling */
        gait_phase ph;
        last[c] = gait_character_phase(rn.w, rn.ids[c], &ph) == GAIT_OK ? ph.state : GAIT_STATE_IDLE;
    }
    live_track live[MAX_CHARS];
    memset(live, 0, sizeof live);
    for (int k = 0; k < frames && !f->failed; k++) {
        double dt;
        if (player) {
            /* the replay's inputs; the presses fed are what the replay gives */
            int before = gait_replay_player_frame_index(player);
            uint32_t held_before[MAX_CHARS];
            for (int c = 0; c < fc->char_count; c++) gait_character_held_presses(rn.w, rn.ids[c], &held_before[c]);
            if (gait_replay_player_next(player, rn.w, &dt) != GAIT_OK) {
                failf(f, k, 0, 0, "replay", "%s", gait_replay_player_last_error(player));
                break;
            }
            (void)before;
            for (int c = 0; c < fc->char_count; c++) {
                uint32_t held = 0;
                gait_character_held_presses(rn.w, rn.ids[c], &held);
                pending[c] |= held & ~held_before[c];
            }
        } else {
            dt = fc->dt[k];
            for (int c = 0; c < fc->char_count; c++) {
                const gait_input *in = &fc->in[k * MAX_CHARS + c];
                gait_character_set_input(rn.w, rn.ids[c], in);
                if (rec) gait_replay_recorder_input(rec, rn.ids[c], in);
                pending[c] |= in->pressed & GAIT_BUTTON_ALL;
            }
        }
        gait_clock probe = *gait_world_clock(rn.w);
        int due = 0;
        gait_clock_advance(&probe, dt, &due);
        if (due >= 2) gait_world_snapshot_save(rn.w, rn.snap, rn.snap_size, NULL);
        int ran = 0;
        gait_world_update(rn.w, dt, &ran);
        if (rec) gait_replay_recorder_end_frame(rec, dt);
        st->frames++;
        st->steps += (uint64_t)ran;
        st->char_steps += (uint64_t)ran * (uint64_t)fc->char_count;
        if (ran != due) {
            failf(f, k, 0, 0, "clock", "the frame ran %d steps, the clock said %d", ran, due);
            break;
        }
        if (ran == 0) {
            for (int c = 0; c < fc->char_count; c++) {
                uint32_t held = 0;
                gait_character_held_presses(rn.w, rn.ids[c], &held);
                if (held != pending[c])
                    failf(f, k, 0, c, "press", "a frame with no step holds 0x%x, fed 0x%x", held,
                          pending[c]);
            }
            continue;
        }
        if (ran == 1) {
            for (int c = 0; c < fc->char_count; c++)
                check_char(rn.w, rn.ids[c], c, pending[c], &last[c], &live[c], k, 1, f, st);
        } else {
            /* the world's own state: restore checks every value and must take it */
            if (gait_world_snapshot_restore(rn.shadow, rn.snap, rn.snap_size) != GAIT_OK) {
                failf(f, k, 0, 0, "snapshot", "the world's own snapshot was refused: %s",
                      gait_world_last_error(rn.shadow));
                break;
            }
            for (int s = 1; s <= ran && !f->failed; s++) {
                gait_world_step(rn.shadow);
                for (int c = 0; c < fc->char_count; c++)
                    check_char(rn.shadow, rn.ids[c], c, s == 1 ? pending[c] : 0, &last[c], &live[c],
                               k, s, f, st);
            }
            for (int c = 0; c < fc->char_count && !f->failed; c++) {
                gait_character_info a, b;
                gait_character_info_get(rn.w, rn.ids[c], &a);
                gait_character_info_get(rn.shadow, rn.ids[c], &b);
                if (memcmp(&a.position, &b.position, sizeof a.position) != 0 ||
                    memcmp(&a.velocity, &b.velocity, sizeof a.velocity) != 0 ||
                    a.phase.state != b.phase.state || a.stamina != b.stamina)
                    failf(f, k, ran, c, "determinism", "stepping one by one from a snapshot gave "
                          "another state than the frame (%.17g vs %.17g)", a.position.y, b.position.y);
            }
        }
        for (int c = 0; c < fc->char_count; c++) pending[c] = 0;
    }
    /* and the state the case ended on */
    gait_world_snapshot_save(rn.w, rn.snap, rn.snap_size, NULL);
    if (gait_world_snapshot_restore(rn.shadow, rn.snap, rn.snap_size) != GAIT_OK)
        failf(f, frames, 0, 0, "snapshot", "the world's own snapshot was refused: %s",
              gait_world_last_error(rn.shadow));
    uint64_t hash = gait_world_state_hash(rn.w);
    free(rn.snap);
    gait_world_destroy(rn.w);
    gait_world_destroy(rn.shadow);
    return hash;
}

/* ---- minimising and saving ------------------------------------------------------------------- */

static bool same_failure(const fuzz_case *fc, const failure *want, stats *st) {
    failure f;
    run_case(fc, fc->frame_count, NULL, NULL, &f, st);
    return f.failed && strcmp(f.kind, want->kind) == 0;
}

static void drop_char(fuzz_case *fc, int i) {
    for (int c = i; c + 1 < fc->char_count; c++) {
        fc->spawns[c] = fc->spawns[c + 1];
        for (int k = 0; k < fc->frame_count; k++)
            fc->in[k * MAX_CHARS + c] = fc->in[k * MAX_CHARS + c + 1];
    }
    fc->char_count--;
    for (int k = 0; k < fc->frame_count; k++) memset(&fc->in[k * MAX_CHARS + fc->char_count], 0, sizeof(gait_input));
}

static void minimise(fuzz_case *fc, failure *f, stats *st) {
    fc->frame_count = f->frame + 1;
    for (int i = fc->char_count - 1; i >= 0 && fc->char_count > 1; i--) {
        fuzz_case t = *fc;
        t.dt = malloc(sizeof *t.dt * (size_t)fc->frame_count);
        t.in = malloc(sizeof *t.in * (size_t)fc->frame_count * MAX_CHARS);
        memcpy(t.dt, fc->dt, sizeof *t.dt * (size_t)fc->frame_count);
        memcpy(t.in, fc->in, sizeof *t.in * (size_t)fc->frame_count * MAX_CHARS);
        drop_char(&t, i);
        if (same_failure(&t, f, st)) {
            case_free(fc);
            *fc = t;
        } else {
            case_free(&t);
        }
    }
    for (int i = 0; i < fc->shape_count; i++) {
        if (!fc->keep_shape[i]) continue;
        fc->keep_shape[i] = false;
        if (!same_failure(fc, f, st)) fc->keep_shape[i] = true;
    }
    /* the failure as the minimised case shows it */
    run_case(fc, fc->frame_count, NULL, NULL, f, st);
    if (f->failed) fc->frame_count = f->frame + 1;
}

static void save_replay(const fuzz_case *fc, const failure *f, const char *path, stats *st) {
    char name[128], buf[512];
    snprintf(name, sizeof name, "fuzz_body seed=%llu", (unsigned long long)fc->seed);
    gait_replay_recorder *rec = gait_replay_recorder_create(NULL, name);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)fc->seed);
    gait_replay_recorder_set_meta(rec, "seed", buf);
    snprintf(buf, sizeof buf, "%d", generator);
    gait_replay_recorder_set_meta(rec, "generator", buf);
    if (liveness) gait_replay_recorder_set_meta(rec, "liveness", "1"); /* replayed with them on */
    int o = 0;
    buf[0] = 0;
    for (int i = 0; i < fc->shape_count && o < (int)sizeof buf - 8; i++)
        if (fc->keep_shape[i]) o += snprintf(buf + o, sizeof buf - (size_t)o, "%s%d", o ? "," : "", i);
    gait_replay_recorder_set_meta(rec, "shapes", o ? buf : "-");
    snprintf(buf, sizeof buf, "%d", fc->shape_count);
    gait_replay_recorder_set_meta(rec, "shape_count", buf);
    for (int c = 0; c < fc->char_count; c++) {
        const spawn *s = &fc->spawns[c];
        char key[32];
        snprintf(key, sizeof key, "spawn%d", c + 1);
        snprintf(buf, sizeof buf, "%a %a %a %a %d %a %a", s->x, s->y, s->z, s->yaw, s->body_type,
                 s->stamina_max, s->stamina_start);
        gait_replay_recorder_set_meta(rec, key, buf);
    }
    snprintf(buf, sizeof buf, "%s at frame %d step %d character %d: %s", f->kind, f->frame + 1,
             f->step, f->character + 1, f->msg);
    for (char *p = buf; *p; p++) if (*p == '\n') *p = ' ';
    gait_replay_recorder_set_meta(rec, "found", buf);
    failure again;
    run_case(fc, fc->frame_count, NULL, rec, &again, st);
    if (gait_replay_recorder_save(rec, path) != GAIT_OK)
        fprintf(stderr, "fuzz_body: %s\n", gait_replay_recorder_last_error(rec));
    gait_replay_recorder_destroy(rec);
}

static int play_replay_with_its_meta(const char *path, stats *st, bool verbose);

/* A replay made by save_replay back into a case (inputs come from the player). */
static bool case_from_replay(gait_replay_player *p, fuzz_case *fc, char *err, size_t cap) {
    memset(fc, 0, sizeof *fc);
    const char *seed = gait_replay_player_meta(p, "seed"), *shapes = gait_replay_player_meta(p, "shapes");
    const char *count = gait_replay_player_meta(p, "shape_count");
    if (!seed || !shapes || !count) {
        snprintf(err, cap, "not a fuzz_body replay (meta seed, shapes, shape_count missing)");
        return false;
    }
    const char *gen = gait_replay_player_meta(p, "generator");
    int g = gen ? atoi(gen) : GENERATOR;
    if (g < 1 || g > GENERATOR_MAX) {
        snprintf(err, cap, "made by world generator %s; this fuzz_body builds worlds with "
                 "generators 1 to %d", gen, GENERATOR_MAX);
        return false;
    }
    generator = g;
    const char *live = gait_replay_player_meta(p, "liveness");
    liveness = live && atoi(live) == 1;
    fc->seed = strtoull(seed, NULL, 10);
    fc->shape_count = atoi(count);
    if (fc->shape_count < 0 || fc->shape_count > MAX_SHAPES) {
        snprintf(err, cap, "shape_count %d out of range", fc->shape_count);
        return false;
    }
    for (const char *s = shapes; *s && *s != '-';) {
        int i = (int)strtol(s, (char **)&s, 10);
        if (i >= 0 && i < fc->shape_count) fc->keep_shape[i] = true;
        if (*s == ',') s++;
        else break;
    }
    fc->char_count = gait_replay_player_character_count(p);
    if (fc->char_count < 1 || fc->char_count > MAX_CHARS) {
        snprintf(err, cap, "%d characters (1..%d)", fc->char_count, MAX_CHARS);
        return false;
    }
    for (int c = 0; c < fc->char_count; c++) {
        char key[32];
        snprintf(key, sizeof key, "spawn%d", c + 1);
        const char *v = gait_replay_player_meta(p, key);
        spawn *s = &fc->spawns[c];
        if (!v || sscanf(v, "%la %la %la %la %d %la %la", &s->x, &s->y, &s->z, &s->yaw,
                         &s->body_type, &s->stamina_max, &s->stamina_start) != 7) {
            snprintf(err, cap, "meta %s missing or malformed", key);
            return false;
        }
    }
    fc->frame_count = gait_replay_player_frame_count(p);
    return true;
}

static int play_replay(const char *path, stats *st, bool verbose) {
    int keep_generator = generator;
    bool keep_liveness = liveness;
    int bad = play_replay_with_its_meta(path, st, verbose);
    generator = keep_generator; /* a replay's meta sets them for its own run only */
    liveness = keep_liveness;
    return bad;
}

static int play_replay_with_its_meta(const char *path, stats *st, bool verbose) {
    char err[600];
    gait_replay_player *p = NULL;
    if (gait_replay_player_open(path, NULL, &p, err, sizeof err) != GAIT_OK) {
        printf("FAIL %s: %s\n", path, err);
        return 1;
    }
    fuzz_case fc;
    if (!case_from_replay(p, &fc, err, sizeof err)) {
        printf("FAIL %s: %s\n", path, err);
        gait_replay_player_destroy(p);
        return 1;
    }
    failure f;
    uint64_t hash = run_case(&fc, fc.frame_count, p, NULL, &f, st);
    gait_replay_player_destroy(p);
    if (f.failed) {
        printf("FAIL %s: %s at frame %d step %d character %d: %s\n", path, f.kind, f.frame + 1,
               f.step, f.character + 1, f.msg);
        return 1;
    }
    if (verbose) printf("ok   %s (%d frames, state hash %016llx)\n", path, fc.frame_count,
                        (unsigned long long)hash);
    return 0;
}

/* ---- figures: the failures users report of other controllers, measured ------------------------
 *
 * Each is a small fixed world and a sweep of inputs; each prints one line with its figure and
 * counts as a test (it must be zero where zero is the claim). */

typedef struct figure {
    const char *name;
    double value;
    double limit;              /* pass when value <= limit */
    const char *unit;
    long samples;
    const char *what;
} figure;

static gait_world *figure_world(int chars) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = chars;
    return gait_world_create(&wd);
}

static void add_mesh(gait_world *w, const mesh *m, const char *name) {
    gait_mesh_def md;
    memset(&md, 0, sizeof md);
    md.positions = m->v;
    md.vertex_count = m->n * 3;
    md.triangle_count = m->n;
    md.name = name;
    gait_collider_add_landmark(gait_world_collider(w), &md, NULL);
}

static gait_character_id figure_spawn(gait_world *w, double x, double y, double z) {
    gait_character_def cd = gait_default_character_def();
    cd.position = (gait_vec3){x, y, z};
    cd.no_camera = true;
    gait_character_id id = {0, 0};
    gait_character_create(w, &cd, &id);
    return id;
}

static void figure_input(gait_world *w, gait_character_id id, double mx, double my, uint32_t held,
                         uint32_t pressed) {
    gait_input in;
    memset(&in, 0, sizeof in);
    in.move_x = mx;
    in.move_y = my;
    in.held = held;
    in.pressed = pressed;
    gait_character_set_input(w, id, &in);
}

/* Ghost bumps: a flat floor of 1 m cells with jittered vertices and random diagonals (every
 * internal edge a chance to bump), run and dashed across in 32 directions: the feet must stay
 * on the floor's height and the vertical speed at zero while on foot. */
static figure fig_ghost_bumps(void) {
    figure fg = {"ghost bumps on internal edges", 0, 1e-9, "m", 0,
                 "spread of the feet's height, and |vy| * dt, on foot over a jittered flat floor"};
    enum { N = 60, CH = 32 };
    gait_world *w = figure_world(CH);
    mesh *m = mesh_new(MAX_TRIS);
    rng r = stream(7, 7);
    double px[N + 1][N + 1], pz[N + 1][N + 1];
    for (int i = 0; i <= N; i++)
        for (int j = 0; j <= N; j++) {
            bool edge = i == 0 || j == 0 || i == N || j == N;
            px[i][j] = i - N / 2 + (edge ? 0 : runi(&r, -0.3, 0.3));
            pz[i][j] = j - N / 2 + (edge ? 0 : runi(&r, -0.3, 0.3));
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double a[3] = {px[i][j], 0, pz[i][j]}, b[3] = {px[i + 1][j], 0, pz[i + 1][j]};
            double c[3] = {px[i + 1][j + 1], 0, pz[i + 1][j + 1]}, d[3] = {px[i][j + 1], 0, pz[i][j + 1]};
            if (rchance(&r, 0.5)) { tri(m, a, d, c); tri(m, a, c, b); }
            else { tri(m, a, d, b); tri(m, b, d, c); }
        }
    add_mesh(w, m, "jittered floor");
    free(m);
    gait_character_id ids[CH];
    for (int c = 0; c < CH; c++) ids[c] = figure_spawn(w, 0.3 * cos(c), 0.05, 0.3 * sin(c));
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < 100; k++) {
        for (int c = 0; c < CH; c++) {
            double a = 2 * M_PI * c / CH;
            figure_input(w, ids[c], sin(a), cos(a), (c & 1) ? GAIT_BUTTON_SPRINT : 0,
                         k % 40 == 1 ? GAIT_BUTTON_SPRINT : 0);
        }
        gait_world_update(w, 1.0 / 60, NULL);
        for (int c = 0; c < CH; c++) {
            gait_character_info info;
            gait_character_info_get(w, ids[c], &info);
            if (getenv("FIG_DEBUG") && c == 0 && k < 5)
                printf("ghost: body 0 step %d %s %.4f %.4f %.4f g%d\n", k, gait_state_name(info.phase.state),
                       info.position.x, info.position.y, info.position.z, info.contact.grounded);
            if (!gait_state_on_foot(info.phase.state)) { fg.value = fmax(fg.value, 1); continue; }
            lo = fmin(lo, info.position.y); /* the feet rest a sweep skin (2 mm) above the floor */
            hi = fmax(hi, info.position.y);
            fg.value = fmax(fg.value, fabs(info.velocity.y) / 60);
            fg.samples++;
        }
    }
    fg.value = fmax(fg.value, hi - lo);
    if (getenv("FIG_DEBUG")) printf("ghost: y in [%.17g, %.17g]\n", lo, hi);
    gait_world_destroy(w);
    return fg;
}

/* Grounded flicker: terrain slopes from 0 to 44 degrees (a plane; and up to 40 degrees a plane
 * with a gentle roll), run up, down and across at 30, 60, 144 and 240 fps: the raw grounded reading must not
 * drop, nor the state leave the ground. */
static figure fig_slope_flicker(void) {
    figure fg = {"grounded flicker on slopes", 0, 0, "drops", 0,
                 "steps where the raw grounded reading dropped on a walkable slope, 0-44 deg, 30-240 fps"};
    static const double fps[4] = {30, 60, 144, 240};
    for (int deg = 0; deg <= 44; deg += 4)
        for (int roll = 0; roll < 2; roll++)
            for (int f = 0; f < 4; f++) {
                /* the roll adds up to 0.13 to the gradient: above 40 deg it is steeper than
                 * walkable (45 deg) in places, and leaving the ground there is right */
                if (roll && deg > 40) continue;
                enum { CH = 8, N = 81 };
                gait_world *w = figure_world(CH);
                float *h = malloc(sizeof(float) * N * N);
                double t = tan(deg * M_PI / 180);
                for (int iz = 0; iz < N; iz++)
                    for (int ix = 0; ix < N; ix++) {
                        double x = ix - 40.0, z = iz - 40.0;
                        h[iz * N + ix] = (float)(t * x + (roll ? 0.15 * sin(0.7 * z) * sin(0.5 * x) : 0));
                    }
                gait_heightfield_def hd = {N, N, 1.0, {-40, 0, -40}, h};
                gait_collider_set_terrain(gait_world_collider(w), &hd);
                free(h);
                gait_character_id ids[CH];
                for (int c = 0; c < CH; c++) ids[c] = figure_spawn(w, 0, 50, 0);
                double dt = 1 / fps[f];
                for (int k = 0; k < (int)(2.5 * fps[f]); k++) {
                    for (int c = 0; c < CH; c++) {
                        double a = 2 * M_PI * c / CH;
                        figure_input(w, ids[c], sin(a), cos(a), c >= 4 ? GAIT_BUTTON_SPRINT : 0,
                                     k == 3 && c >= 4 ? GAIT_BUTTON_SPRINT : 0);
                    }
                    int ran = 0;
                    gait_world_update(w, dt, &ran);
                    if (k < 10 || !ran) continue; /* the first steps land the spawn */
                    for (int c = 0; c < CH; c++) {
                        gait_character_info info;
                        gait_character_info_get(w, ids[c], &info);
                        fg.samples++;
                        bool drop = !info.contact.grounded || !gait_state_on_foot(info.phase.state);
                        if (drop) fg.value++;
                        if (drop && getenv("FIG_DEBUG"))
                            printf("flicker: %d deg roll %d %g fps body %d step %d: %s g%d at %.2f %.2f %.2f\n",
                                   deg, roll, fps[f], c, k, gait_state_name(info.phase.state),
                                   info.contact.grounded, info.position.x, info.position.y, info.position.z);
                    }
                }
                gait_world_destroy(w);
            }
    return fg;
}

/* Tunnelling at speed: zero-thickness plates; bodies dropped from 5 to 400 m (terminal speed,
 * 0.83 m a step) and plunging, and dashing and sprinting into thin walls: none may end beyond. */
static figure fig_tunnelling(void) {
    figure fg = {"tunnelling at speed", 0, 0, "bodies through", 0,
                 "bodies that ended beyond a zero-thickness plate or wall (falls up to terminal speed, plunges, dashes)"};
    enum { CH = 24 };
    gait_world *w = figure_world(CH);
    mesh *m = mesh_new(MAX_TRIS);
    /* a floor plate at y = 0 over [-60, 60]^2, no terrain under it */
    double a[3] = {-60, 0, -60}, b[3] = {60, 0, -60}, c[3] = {60, 0, 60}, d[3] = {-60, 0, 60};
    quad(m, a, d, c, b);
    add_mesh(w, m, "floor plate");
    /* thin walls: x = 20 plane and z = 20 plane, 200 m high (a body climbs them until its
     * stamina runs out, never over) */
    m->n = 0;
    double w0[3] = {20, 0, -60}, w1[3] = {20, 0, 60}, w2[3] = {20, 200, 60}, w3[3] = {20, 200, -60};
    quad(m, w0, w1, w2, w3);
    add_mesh(w, m, "wall x");
    m->n = 0;
    double v0[3] = {-60, 0, 20}, v1[3] = {60, 0, 20}, v2[3] = {60, 200, 20}, v3[3] = {-60, 200, 20};
    quad(m, v0, v1, v2, v3);
    add_mesh(w, m, "wall z");
    gait_character_id ids[CH];
    gait_landmark_id stands[12];
    for (int i = 0; i < CH; i++) {
        if (i < 12) {
            /* a faller: stood on a small plate high up, which is then taken away */
            double x = -30 + 4 * i, y = 5 + 35 * i, z = -30;
            m->n = 0;
            double s0[3] = {x - 1, y, z - 1}, s1[3] = {x + 1, y, z - 1}, s2[3] = {x + 1, y, z + 1},
                   s3[3] = {x - 1, y, z + 1};
            quad(m, s0, s3, s2, s1);
            gait_mesh_def md;
            memset(&md, 0, sizeof md);
            md.positions = m->v;
            md.vertex_count = m->n * 3;
            md.triangle_count = m->n;
            gait_collider_add_landmark(gait_world_collider(w), &md, &stands[i]);
            ids[i] = figure_spawn(w, x, y + 0.5, z);
        } else {
            ids[i] = figure_spawn(w, 10, 0.05, -40 + 5 * (i - 12)); /* runners */
        }
    }
    for (int i = 0; i < 12; i++) gait_collider_remove_landmark(gait_world_collider(w), stands[i]);
    free(m);
    for (int k = 0; k < 600; k++) {
        for (int i = 0; i < CH; i++) {
            if (i < 12) {
                uint32_t pr = (i % 3 == 1 && k == 20) ? GAIT_BUTTON_ATTACK : 0; /* plunge */
                figure_input(w, ids[i], 0, 0, 0, pr);
            } else {
                /* into the x wall, diagonally into the corner, dashing every half second */
                double mx = (i % 2) ? 1 : 0.7, my = (i % 2) ? 0 : 0.7;
                figure_input(w, ids[i], mx, my, GAIT_BUTTON_SPRINT, k % 30 == 0 ? GAIT_BUTTON_SPRINT : 0);
                gait_character_set_camera_yaw(w, ids[i], M_PI / 2); /* forward is +x */
            }
        }
        gait_world_update(w, 1.0 / 60, NULL);
        for (int i = 0; i < CH; i++) {
            gait_character_info info;
            gait_character_info_get(w, ids[i], &info);
            fg.samples++;
            bool through = info.position.y < -0.02 || info.position.x > 20.02 || info.position.z > 20.02;
            if (through) fg.value++;
            if (through && getenv("FIG_DEBUG"))
                printf("tunnel: body %d step %d at %.3f %.3f %.3f (%s, vy %.2f)\n", i, k,
                       info.position.x, info.position.y, info.position.z,
                       gait_state_name(info.phase.state), info.velocity.y);
        }
    }
    gait_world_destroy(w);
    return fg;
}

/* Stairs and the frame rate: a flight of 10 steps (0.25 m rise, 0.3 m run) run up for 3 s at
 * 30, 60, 144 and 240 fps: the paths must be the same bits and reach the top. */
static figure fig_stairs_fps(void) {
    figure fg = {"stairs that depend on the frame rate", 0, 0, "m", 0,
                 "largest difference in the feet after running up stairs at 30/60/144/240 fps"};
    static const double fps[4] = {30, 60, 144, 240};
    gait_vec3 end[4];
    double top = 0;
    for (int f = 0; f < 4; f++) {
        gait_world *w = figure_world(1);
        mesh *m = mesh_new(MAX_TRIS);
        xform t = {{0, 0, 2}, 0, 0};
        for (int k = 0; k < 10; k++) box(m, &t, -1.5, 0, k * 0.3, 1.5, (k + 1) * 0.25, 40); /* a long landing */
        add_mesh(w, m, "stairs");
        m->n = 0;
        double a[3] = {-20, 0, -20}, b[3] = {20, 0, -20}, c[3] = {20, 0, 20}, d[3] = {-20, 0, 20};
        quad(m, a, d, c, b);
        add_mesh(w, m, "ground");
        free(m);
        gait_character_id id = figure_spawn(w, 0, 0.05, 0);
        /* whole steps of the clock: 3 s is 180 steps at every rate */
        int frames = (int)(3 * fps[f] + 0.5);
        for (int k = 0; k < frames; k++) {
            figure_input(w, id, 0, 1, 0, 0);
            gait_world_update(w, 1 / fps[f], NULL);
        }
        while (gait_world_step_count(w) < 180) gait_world_step(w);
        gait_character_info info;
        gait_character_info_get(w, id, &info);
        end[f] = info.position;
        if (getenv("FIG_DEBUG"))
            printf("stairs %g fps: %.17g %.17g %.17g %s, %llu steps\n", fps[f], info.position.x,
                   info.position.y, info.position.z, gait_state_name(info.phase.state),
                   (unsigned long long)info.steps);
        top = fmax(top, info.position.y);
        fg.samples += (long)info.steps;
        gait_world_destroy(w);
    }
    for (int f = 1; f < 4; f++) {
        fg.value = fmax(fg.value, fabs(end[f].x - end[0].x));
        fg.value = fmax(fg.value, fabs(end[f].y - end[0].y));
        fg.value = fmax(fg.value, fabs(end[f].z - end[0].z));
    }
    if (end[0].y < 2.5 - 0.01) fg.value = fmax(fg.value, 2.5 - end[0].y); /* did not climb them */
    (void)top;
    return fg;
}

/* Wedged in corners: V-shaped wedges of 10 to 80 degrees (walls, a floor under them), bodies
 * run into the apex for 2 s, then back out for 2 s: each must leave by at least 2 m. */
static figure fig_corners(void) {
    figure fg = {"bodies wedged in corners", 0, 0, "bodies stuck", 0,
                 "bodies (no stamina: no climbing) not 2.5 m out after 2 s into a 10-80 deg wedge, 2 s back"};
    enum { CH = 8 };
    gait_world *w = figure_world(CH);
    mesh *m = mesh_new(MAX_TRIS);
    double a[3] = {-80, 0, -80}, b[3] = {80, 0, -80}, c[3] = {80, 0, 80}, d[3] = {-80, 0, 80};
    quad(m, a, d, c, b);
    add_mesh(w, m, "floor");
    gait_character_id ids[CH];
    double apex_x[CH];
    for (int i = 0; i < CH; i++) {
        double ang = (10 + 10 * i) * M_PI / 180; /* the wedge's opening */
        apex_x[i] = -60 + 16 * i;
        m->n = 0;
        /* two walls from the apex (at z = 10) opening towards -z, 3 m high, 6 m long */
        double ax = apex_x[i], az = 10;
        double l[3] = {ax - 6 * sin(ang / 2), 0, az - 6 * cos(ang / 2)};
        double rr[3] = {ax + 6 * sin(ang / 2), 0, az - 6 * cos(ang / 2)};
        double p0[3] = {ax, 0, az}, p0h[3] = {ax, 3, az};
        double lh[3] = {l[0], 3, l[2]}, rh[3] = {rr[0], 3, rr[2]};
        quad(m, p0, l, lh, p0h);
        quad(m, p0, p0h, rh, rr);
        add_mesh(w, m, "wedge");
        /* no stamina and no refill: it cannot climb, so the wedge holds it or not */
        gait_character_def cd = gait_default_character_def();
        cd.position = (gait_vec3){ax, 0.05, az - 4};
        cd.no_camera = true;
        cd.stamina.start = 0;
        cd.stamina.refill_rate = 0;
        gait_character_create(w, &cd, &ids[i]);
    }
    free(m);
    for (int k = 0; k < 240; k++) {
        double dir = k < 120 ? 1 : -1;
        for (int i = 0; i < CH; i++)
            figure_input(w, ids[i], 0.05 * sin(k * 0.3), dir, 0, 0);
        gait_world_update(w, 1.0 / 60, NULL);
    }
    for (int i = 0; i < CH; i++) {
        gait_character_info info;
        gait_character_info_get(w, ids[i], &info);
        fg.samples++;
        if (10 - info.position.z < 2 + 0.5) fg.value++; /* still within 2.5 m of the apex */
        if (getenv("FIG_DEBUG"))
            printf("wedge %d deg: %.3f %.3f %.3f %s\n", 10 + 10 * i, info.position.x, info.position.y,
                   info.position.z, gait_state_name(info.phase.state));
    }
    gait_world_destroy(w);
    return fg;
}

static int run_figures(bool print) {
    figure (*const fns[])(void) = {fig_ghost_bumps, fig_slope_flicker, fig_tunnelling, fig_stairs_fps,
                                   fig_corners};
    int bad = 0;
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        figure fg = fns[i]();
        bool ok = fg.value <= fg.limit;
        bad += !ok;
        if (print || !ok)
            printf("%s figure: %-38s %-10.3g %-13s (limit %g; %ld samples) %s\n", ok ? "ok  " : "FAIL",
                   fg.name, fg.value, fg.unit, fg.limit, fg.samples, fg.what);
    }
    return bad;
}

/* ---- main ----------------------------------------------------------------------------------- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int replay_file(const struct dirent *e) {
    size_t n = strlen(e->d_name);
    return n > 7 && strcmp(e->d_name + n - 7, ".replay") == 0;
}

int main(int argc, char **argv) {
    double seconds = 3;
    const char *env = getenv("FUZZ_SECONDS");
    if (env && atof(env) > 0) seconds = atof(env);
    uint64_t seed = 1;
    long cases = -1;
    const char *out_dir = getenv("FUZZ_OUT") ? getenv("FUZZ_OUT") : "build/fuzz-failures";
    bool progress = false, seed_given = false;
    stats st;
    memset(&st, 0, sizeof st);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--replay") == 0) {
            int bad = 0;
            for (int k = i + 1; k < argc; k++) bad += play_replay(argv[k], &st, true);
            printf("%d passed, %d failed\n", argc - i - 1 - bad, bad);
            return bad ? 1 : 0;
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
            progress = true;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
            seed_given = true;
        } else if (strcmp(argv[i], "--cases") == 0 && i + 1 < argc) {
            cases = atol(argv[++i]);
        } else if (strcmp(argv[i], "--liveness") == 0) {
            liveness = true;
            generator = 2;
        } else {
            fprintf(stderr,
                    "usage: fuzz_body [--seconds N] [--seed S] [--cases K] [--liveness] | --replay FILE...\n"
                    "  --liveness  also check what players notice (make test runs FUZZ_SECONDS of it\n"
                    "              after its plain fuzzing): a fall, glide or plunge\n"
                    "              not descending for 1 s, a traversal outlasting its plan, a drowning\n"
                    "              ending in deep water, a walker pressing towards open walkable space\n"
                    "              and not moving, a state flipping back and forth; worlds by\n"
                    "              generator 2 (overhang bands, leaning faces, fences in a row,\n"
                    "              platforms at the water line, stairs along a wall, spawns exactly\n"
                    "              on faces)\n"
                    "  env FUZZ_NO_MINIMISE=1  count failures only; FUZZ_SKIP=kind,...  ignore kinds\n"
                    "  env FUZZ_TRACE=1  a line per character step; 2: the shapes' triangles too;\n"
                    "                    3: the terrain under the feet (height, normal) each step\n"
                    "  a replay's meta says its generator and whether liveness is checked\n");
            return 2;
        }
    }
    /* a long run starts at a seed from the clock (printed; --seed repeats it); make test's short
     * run always starts at 1, so it is the same on every run */
    if (progress && !seed_given) seed = 1000000 + (uint64_t)time(NULL) % 1000000000;
    if (getenv("FUZZ_SEED")) seed = strtoull(getenv("FUZZ_SEED"), NULL, 10);
    /* the figures first: the failures users report of other controllers, measured */
    int fig_bad = run_figures(true);
    fflush(stdout);
    int passed = 0, failed = 0;
    /* make test (no --seconds, --cases or --liveness) runs two legs of FUZZ_SECONDS each: generator
     * 1's worlds from seed 1 with the geometry's invariants, then generator 2's from LIVE_TEST_SEED
     * with the liveness invariants too */
    bool test_mode = !progress && cases < 0 && !liveness;
    for (int leg = 0; leg < (test_mode ? 2 : 1); leg++) {
        if (leg == 1) {
            liveness = true;
            generator = 2;
            seed = LIVE_TEST_SEED;
            memset(&st, 0, sizeof st);
        }
        double t0 = now(), last_report = t0;
        for (uint64_t s = seed;; s++) {
            if (cases >= 0 ? (long)(s - seed) >= cases : now() - t0 >= seconds) break;
            fuzz_case fc;
            make_case(s, &fc);
            failure f;
            run_case(&fc, fc.frame_count, NULL, NULL, &f, &st);
            st.cases++;
            if (f.failed) {
                st.failures++;
                failed++;
                int k = 0;
                while (k < st.kinds && strcmp(st.by_kind[k].kind, f.kind) != 0) k++;
                if (k == st.kinds && k < 16) snprintf(st.by_kind[st.kinds++].kind, 32, "%s", f.kind);
                if (k < 16) st.by_kind[k].cases++;
                printf("FAIL seed %llu: %s at frame %d step %d character %d: %s\n",
                       (unsigned long long)s, f.kind, f.frame + 1, f.step, f.character + 1, f.msg);
                if (getenv("FUZZ_NO_MINIMISE")) { /* a survey: count, do not minimise */
                    case_free(&fc);
                    fflush(stdout);
                    continue;
                }
                stats scratch = st;
                minimise(&fc, &f, &scratch);
                mkdir("build", 0777);
                mkdir(out_dir, 0777);
                char path[512];
                snprintf(path, sizeof path, "%s/seed%llu-%s.replay", out_dir, (unsigned long long)s, f.kind);
                save_replay(&fc, &f, path, &scratch);
                int kept = 0;
                for (int i = 0; i < fc.shape_count; i++) kept += fc.keep_shape[i];
                printf("  minimised: %d frames, %d characters, %d of %d shapes: %s at frame %d: %s\n"
                       "  replay: %s\n", fc.frame_count, fc.char_count, kept, fc.shape_count,
                       f.kind, f.frame + 1, f.msg, path);
            } else {
                passed++;
            }
            case_free(&fc);
            fflush(stdout);
            if (progress && now() - last_report >= 5) {
                last_report = now();
                double el = last_report - t0;
                printf("fuzz: %.0f s, %llu cases, %llu steps (%.0f character-steps/s), %llu failures, "
                       "deepest overlap %.4f m, deepest below terrain %.4f m\n", el,
                       (unsigned long long)st.cases, (unsigned long long)st.steps,
                       (double)st.char_steps / el, (unsigned long long)st.failures, st.max_pen,
                       st.max_below);
                fflush(stdout);
            }
        }
        double el = now() - t0;
        printf("fuzz: generator %d%s: %llu cases (seeds %llu..%llu), %llu frames, %llu world steps, "
               "%llu character-steps in %.1f s = %.0f character-steps/s; invariant failures %llu; deepest landmark overlap "
               "%.4f m, deepest below terrain %.4f m (tolerance %.2f m)\n",
               generator, liveness ? " with liveness" : "", (unsigned long long)st.cases,
               (unsigned long long)seed,
               (unsigned long long)(seed + st.cases - 1), (unsigned long long)st.frames,
               (unsigned long long)st.steps, (unsigned long long)st.char_steps, el,
               el > 0 ? (double)st.char_steps / el : 0, (unsigned long long)st.failures, st.max_pen,
               st.max_below, PEN_TOL);
        if (st.kinds) {
            printf("fuzz: failing cases by what failed first (generator %d%s):", generator,
                   liveness ? ", liveness on" : "");
            for (int k = 0; k < st.kinds; k++)
                printf(" %s %llu", st.by_kind[k].kind, (unsigned long long)st.by_kind[k].cases);
            printf("\n");
        }
    }
    /* the regression replays: each was a bug; each must pass now */
    struct dirent **list = NULL;
    int n = scandir("tests/replays", &list, replay_file, alphasort);
    for (int k = 0; k < n; k++) {
        char path[600];
        snprintf(path, sizeof path, "tests/replays/%s", list[k]->d_name);
        if (play_replay(path, &st, true)) failed++;
        else passed++;
        free(list[k]);
    }
    free(list);
    passed += 5 - fig_bad;
    failed += fig_bad;
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
