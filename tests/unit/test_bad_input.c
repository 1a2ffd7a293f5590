/* Bad input, everywhere: every public C function called with NaN, +-Inf, negative and huge
 * sizes, zero-length arrays, NULL, unknown and stale ids, degenerate triangles, out-of-range
 * enums, and malformed files (heightmap PNG, tuning, world/scenario scripts, replays). Each row
 * must answer with its error (a status, -1, false or NULL as the function documents), leave a
 * message where the object keeps one, never crash, and change nothing: the world's state hash,
 * the collider's revision, landmark count and terrain/water readings, and every plain struct the
 * call was given are compared before and after.
 *
 * One named test per row (check_register_case), so a failure names the call. */
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gait/gait.h"
#include "gait/replay.h"
#include "gait/traverse.h"

/* ---- the fixture: a world with terrain, water, a landmark, two characters, stepped a while -- */

typedef struct ctx {
    gait_world *w;
    gait_collider *c;
    gait_script *s;
    gait_character_id a, b, stale, null_id, far_id;
    gait_landmark_id lm, stale_lm, null_lm;
    gait_clock clock;
    gait_stamina pool;
    gait_camera camera;
    gait_anim anim;
    gait_floating_origin fo;
    char dir[256];          /* temporary files live here */
} ctx;

static const float box_tris[] = {
    /* a 2 m wall: two triangles, one face */
    0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 0, 0, 2, 2, 0, 0, 2, 0,
};

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(data, 1, n, f);
    fclose(f);
}

static void fixture(ctx *x) {
    memset(x, 0, sizeof *x);
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = 4;
    x->w = gait_world_create(&wd);
    x->c = gait_world_collider(x->w);
    enum { N = 33 };
    float h[N * N];
    for (int i = 0; i < N * N; i++) h[i] = (float)(0.3 * sin(i * 0.1));
    gait_heightfield_def hd = {N, N, 1.0, {-16, 0, -16}, h};
    gait_collider_set_terrain(x->c, &hd);
    gait_water_region wr = {-10, -10, -5, -5, 1};
    gait_collider_add_water(x->c, &wr, NULL);
    gait_mesh_def md = {.positions = box_tris, .vertex_count = 6, .indices = NULL,
                        .triangle_count = 2, .offset = {3, 0, 3}, .name = "wall"};
    gait_collider_add_landmark(x->c, &md, &x->lm);
    gait_landmark_id gone;
    gait_collider_add_landmark(x->c, &md, &gone);
    gait_collider_remove_landmark(x->c, gone);
    x->stale_lm = gone;
    gait_character_def cd = gait_default_character_def();
    gait_character_create(x->w, &cd, &x->a);
    cd.position = (gait_vec3){2, 1, -2};
    gait_character_create(x->w, &cd, &x->b);
    gait_character_id dead;
    gait_character_create(x->w, &cd, &dead);
    gait_character_destroy(x->w, dead);
    x->stale = dead;
    x->far_id = (gait_character_id){1000, 0};
    for (int k = 0; k < 30; k++) {
        gait_input in = {0.3, 1, 0.01, 0, 0, 0, k == 5 ? GAIT_BUTTON_JUMP : 0u};
        gait_character_set_input(x->w, x->a, &in);
        gait_world_update(x->w, 1.0 / 60, NULL);
    }
    gait_clock_def ckd = gait_default_clock_def();
    gait_clock_init(&x->clock, &ckd);
    gait_stamina_def sd = gait_default_stamina_def();
    gait_stamina_init(&x->pool, &sd);
    gait_camera_def cam = gait_default_camera_def();
    gait_camera_init(&x->camera, &cam);
    gait_anim_def ad = gait_default_anim_def();
    gait_anim_init(&x->anim, &ad);
    gait_floating_origin_init(&x->fo, 256);
    snprintf(x->dir, sizeof x->dir, "/tmp/gait_bad_input_%d", (int)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", x->dir);
    if (system(cmd) != 0) x->dir[0] = 0;
}

static void teardown(ctx *x) {
    gait_script_destroy(x->s);
    gait_world_destroy(x->w);
    char cmd[300];
    if (x->dir[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf %s", x->dir);
        if (system(cmd) != 0) printf("  (could not remove %s)\n", x->dir);
    }
}

/* What "nothing changed" compares. */
typedef struct observed {
    uint64_t hash;
    uint64_t revision;
    int landmarks, characters;
    double terrain[3];
    bool water;
    double surface, depth;
    gait_clock clock;
    gait_stamina pool;
    gait_camera camera;
    gait_anim anim;
    gait_floating_origin fo;
    gait_locomotion numbers;
} observed;

static void observe(const ctx *x, observed *o) {
    memset(o, 0, sizeof *o);
    o->hash = gait_world_state_hash(x->w);
    o->revision = gait_collider_revision(x->c);
    o->landmarks = gait_collider_landmark_count(x->c);
    o->characters = gait_world_character_count(x->w);
    static const double pts[3][2] = {{0, 0}, {-7.5, -7.5}, {11.25, 3.5}};
    for (int i = 0; i < 3; i++) gait_terrain_sample(x->c, pts[i][0], pts[i][1], &o->terrain[i], NULL);
    o->water = gait_water_at(x->c, -7, -7, &o->surface, &o->depth);
    o->clock = x->clock;
    o->pool = x->pool;
    o->camera = x->camera;
    o->anim = x->anim;
    o->fo = x->fo;
    o->numbers = *gait_world_locomotion(x->w, GAIT_BODY_MEDIUM_FEMALE);
}

/* ---- the rows ----------------------------------------------------------------------------- */

/* Where a row's message is kept: the world, the collider, the script, or nowhere (a pure
 * function answers by its value). */
enum { NONE, WORLD, COLLIDER, SCRIPT };
#define ANY_ERROR (-1) /* any status but OK */
#define NO_ANSWER GAIT_OK /* a query or predicate answered false / no hit (ERR below) */

typedef gait_status (*row_fn)(ctx *x);
typedef struct row {
    const char *name;
    row_fn fn;
    int want;               /* a gait_status, or ANY_ERROR */
    int where;
} row;

#define ERR(cond) ((cond) ? GAIT_ERR_INVALID_ARGUMENT : GAIT_OK) /* a value answer as a status */
/* One row: its function and its expectations together; a row left out of the table below is
 * an unused variable, which the build refuses. */
#define R(name, want, where, expr)                                       \
    static gait_status row_##name(ctx *x) { (void)x; return (expr); }  \
    static const row rowdef_##name = {#name, row_##name, want, where};
#define V3(a, b, c) ((gait_vec3){(a), (b), (c)})

static gait_character_def char_def(gait_vec3 p, double yaw, int type) {
    gait_character_def d = gait_default_character_def();
    d.position = p;
    d.yaw = yaw;
    d.body_type = (gait_body_type)type;
    return d;
}
static gait_status create_with(ctx *x, gait_character_def d) {
    gait_character_id id;
    return gait_character_create(x->w, &d, &id);
}
static gait_status create_out_null(ctx *x) {
    gait_character_def d = gait_default_character_def();
    return gait_character_create(x->w, &d, NULL);
}
static gait_status create_stamina(ctx *x, double max, double start, double rate, double mult) {
    gait_character_def d = gait_default_character_def();
    d.stamina.max = max;
    d.stamina.start = start;
    d.stamina.refill_rate = rate;
    d.stamina.multiplier = mult;
    return create_with(x, d);
}
static gait_status create_camera(ctx *x, double dist, double min_d, double probe) {
    gait_character_def d = gait_default_character_def();
    d.camera.distance = dist;
    d.camera.min_distance = min_d;
    d.camera.probe_radius = probe;
    return create_with(x, d);
}
static gait_status numbers_with(ctx *x, int field, double v, bool provisional) {
    gait_locomotion n = gait_default_locomotion();
    double *f[] = {&n.walk_speed, &n.gravity, &n.capsule_radius, &n.capsule_height,
                   &n.step_height, &n.max_walk_slope, &n.costs.dash, &n.jump_height};
    *f[field] = v;
    return provisional ? gait_world_set_provisional_locomotion(x->w, &n)
                       : gait_world_set_locomotion(x->w, GAIT_BODY_TALL_MALE, &n);
}
static gait_status terrain_with(ctx *x, int sx, int sz, double cell, double oy, float h0,
                                bool null_heights) {
    float h[16] = {0};
    h[0] = h0;
    gait_heightfield_def d = {sx, sz, cell, {0, oy, 0}, null_heights ? NULL : h};
    return gait_collider_set_terrain(x->c, &d);
}
static gait_status water_with(ctx *x, double x0, double z0, double x1, double z1, double s) {
    gait_water_region r = {x0, z0, x1, z1, s};
    return gait_collider_add_water(x->c, &r, NULL);
}
static gait_status mesh_with(ctx *x, const float *pos, int nv, const uint32_t *idx, int nt,
                             gait_vec3 off) {
    gait_mesh_def d = {.positions = pos, .vertex_count = nv, .indices = idx, .triangle_count = nt,
                       .offset = off, .name = "bad"};
    gait_landmark_id id;
    return gait_collider_add_landmark(x->c, &d, &id);
}
static const float degenerate[] = {0, 0, 0, 1, 1, 1, 2, 2, 2,  /* collinear */
                                   5, 5, 5, 5, 5, 5, 5, 5, 5}; /* a point */
static const float with_nan[] = {0, 0, 0, 1, 0, 0, NAN, 0, 1};
static const float with_inf[] = {0, 0, 0, 1, 0, 0, 0, INFINITY, 1};
static const float huge_coord[] = {0, 0, 0, 1e30f, 0, 0, 0, 0, 1};
static const uint32_t idx_out[] = {0, 1, 99};
static gait_status overlap(ctx *x, gait_capsule cap, int capacity, bool null_out) {
    gait_contact_point cp[4];
    return ERR(gait_collider_capsule_overlap(x->c, &cap, NULL, null_out ? NULL : cp, capacity, NULL) != -1 ? false : true);
}
static gait_capsule cap_of(gait_vec3 a, gait_vec3 b, double r) {
    gait_capsule c = {a, b, r};
    return c;
}
static gait_status sweep(ctx *x, gait_capsule cap, gait_vec3 d) {
    gait_hit hit;
    memset(&hit, 0, sizeof hit);
    return ERR(gait_collider_capsule_sweep(x->c, &cap, d, NULL, &hit));
}
static gait_status sphere(ctx *x, gait_vec3 from, double r, gait_vec3 d) {
    gait_hit hit;
    return ERR(gait_collider_sphere_cast(x->c, from, r, d, NULL, &hit));
}
static gait_status ray(ctx *x, gait_vec3 o, gait_vec3 d) {
    gait_hit hit;
    return ERR(gait_collider_ray_cast(x->c, o, d, NULL, &hit));
}
static gait_status clock_def_with(ctx *x, double step, int max) {
    gait_clock_def d = {step, max};
    return gait_clock_init(&x->clock, &d);
}
static gait_status advance(ctx *x, double dt) {
    int n = -7;
    gait_status s = gait_clock_advance(&x->clock, dt, &n);
    return s == GAIT_OK || n != -7 ? GAIT_OK : s; /* an error must not write the step count */
}
static gait_status stamina_def_with(ctx *x, double max, double start, double rate, double delay,
                                    double mult) {
    gait_stamina_def d = {max, start, rate, delay, mult};
    return gait_stamina_init(&x->pool, &d);
}
static gait_status camera_def_with(ctx *x, int field, double v, bool set) {
    gait_camera_def d = gait_default_camera_def();
    double *f[] = {&d.distance, &d.min_distance, &d.max_distance, &d.pitch, &d.min_pitch,
                   &d.max_pitch, &d.pivot_height, &d.probe_radius, &d.follow_seconds,
                   &d.ease_out_seconds};
    *f[field] = v;
    return set ? gait_camera_set_def(&x->camera, &d) : gait_camera_init(&x->camera, &d);
}
static gait_status anim_def_with(ctx *x, int field, double v, int which) {
    gait_anim_def d = gait_default_anim_def();
    double *f[] = {&d.crossfade_seconds, &d.movement_epsilon, &d.grounded_transition_delay,
                   &d.land_seconds};
    *f[field] = v;
    if (which == 0) return gait_anim_init(&x->anim, &d);
    if (which == 1) return gait_anim_set_def(&x->anim, &d);
    return gait_character_set_anim_def(x->w, x->a, &d);
}
static gait_status long_clip(ctx *x, bool character) {
    char name[200];
    memset(name, 'c', sizeof name - 1);
    name[sizeof name - 1] = 0;
    return character ? gait_character_set_clip(x->w, x->a, GAIT_ANIM_RUN, name)
                     : gait_anim_set_clip(&x->anim, GAIT_ANIM_RUN, name);
}
static gait_status snapshot_restore_bad(ctx *x, int how) {
    size_t n = gait_world_snapshot_size(x->w);
    unsigned char *buf = calloc(1, n + 8);
    gait_world_snapshot_save(x->w, buf, n, NULL);
    gait_status s;
    if (how == 0) s = gait_world_snapshot_restore(x->w, buf, n - 1);       /* short */
    else if (how == 1) { buf[n - 1] ^= 1; s = gait_world_snapshot_restore(x->w, buf, n); }
    else if (how == 2) { buf[0] = 'X'; s = gait_world_snapshot_restore(x->w, buf, n); }
    else s = gait_world_snapshot_restore(x->w, NULL, n);
    free(buf);
    return s;
}
static gait_status snapshot_save_small(ctx *x) {
    unsigned char buf[16];
    size_t out = 12345;
    gait_status s = gait_world_snapshot_save(x->w, buf, sizeof buf, &out);
    return s != GAIT_OK && out != 12345 ? GAIT_OK : s; /* an error must not write the size */
}
static gait_status held_presses_null(ctx *x) { return gait_character_held_presses(x->w, x->a, NULL); }
static gait_status can_spend_bad(ctx *x, double v) {
    bool out = true;
    return gait_character_can_spend(x->w, x->a, v, &out);
}
static gait_status info_stale(ctx *x) {
    gait_character_info info;
    memset(&info, 0x5a, sizeof info);
    gait_status s = gait_character_info_get(x->w, x->stale, &info);
    unsigned char *p = (unsigned char *)&info;
    for (size_t i = 0; i < sizeof info; i++)
        if (p[i] != 0x5a) return GAIT_OK; /* written on failure: the row fails */
    return s;
}
static gait_status pose_far(ctx *x) {
    gait_pose p;
    return gait_character_pose(x->w, x->far_id, &p);
}
static gait_status camera_get_stale(ctx *x) {
    gait_camera c;
    return gait_character_camera(x->w, x->stale, &c);
}
static gait_status anim_get_null(ctx *x) { return gait_character_anim(x->w, x->a, NULL); }
static gait_status landmark_info_stale(ctx *x) {
    gait_landmark_info info;
    return gait_collider_landmark_info(x->c, x->stale_lm, &info);
}
static gait_status heightmap(ctx *x, const char *name, const void *data, size_t n, double cell,
                             double scale) {
    char path[400];
    snprintf(path, sizeof path, "%s/%s", x->dir, name);
    if (data) write_file(path, data, n);
    gait_status s = gait_collider_load_heightmap(x->c, path, cell, scale, V3(0, 0, 0));
    if (s != GAIT_OK && !strstr(gait_collider_last_error(x->c), name)) {
        printf("  the error does not name the file: %s\n", gait_collider_last_error(x->c));
        return GAIT_OK;
    }
    return s;
}
static const unsigned char png_magic_only[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
static const unsigned char png_truncated[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0,
                                              13, 'I', 'H', 'D', 'R', 0, 0, 0x10, 0, 0, 0, 0x10, 0};
/* A real 1x1 PNG: valid, but one sample is not a heightfield (needs 2 x 2). */
static const unsigned char png_1x1[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x7e, 0x9b,
    0x55, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x01, 0x48, 0xaf, 0xa4, 0x71, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82};

/* ---- script rows: a script over the host world ----------------------------------------------- */

static gait_script *script_of(ctx *x) {
    if (!x->s) {
        gait_script_def d = gait_default_script_def();
        d.world = x->w;
        d.root = ".";
        d.instruction_budget = 200000;
        x->s = gait_script_create(&d);
    }
    return x->s;
}
static gait_status script_file(ctx *x, const char *name, const char *text, int what) {
    gait_script *s = script_of(x);
    if (!s) return GAIT_OK;
    char path[1000];
    snprintf(path, sizeof path, "%s/%s", x->dir, name);
    if (text) write_file(path, text, strlen(text));
    gait_status st;
    if (what == 0) st = gait_script_run_file(s, path);
    else if (what == 1) st = gait_script_set_kit(s, x->a, path);
    else {
        /* a tuning directory whose locomotion.lua is `text` */
        char dir[400];
        snprintf(dir, sizeof dir, "%s/tuning_%s", x->dir, name);
        char cmd[900];
        snprintf(cmd, sizeof cmd, "mkdir -p %s && cp scripts/tuning/*.lua %s/ 2>/dev/null; true", dir, dir);
        if (system(cmd) != 0) return GAIT_OK;
        snprintf(path, sizeof path, "%s/locomotion.lua", dir);
        write_file(path, text, strlen(text));
        st = gait_script_load_tuning(s, dir);
    }
    if (st != GAIT_OK && !strstr(gait_script_last_error(s), path)) {
        printf("  the error does not name the file %s: %s\n", path, gait_script_last_error(s));
        return GAIT_OK;
    }
    return st;
}
static gait_status script_string(ctx *x, const char *code) {
    gait_script *s = script_of(x);
    return s ? gait_script_run_string(s, code, "=bad_input") : GAIT_OK;
}
static gait_status script_def_with(int64_t budget, size_t memory) {
    gait_script_def d = gait_default_script_def();
    d.root = ".";
    d.instruction_budget = budget;
    d.memory_limit = memory;
    gait_script *s = gait_script_create(&d);
    gait_script_destroy(s);
    return s ? GAIT_OK : GAIT_ERR_INVALID_ARGUMENT;
}
static gait_status replay_file(ctx *x, const char *name, const char *text) {
    char path[400], err[600];
    snprintf(path, sizeof path, "%s/%s", x->dir, name);
    write_file(path, text, strlen(text));
    gait_replay_player *p = NULL;
    gait_status s = gait_replay_player_open(path, NULL, &p, err, sizeof err);
    gait_replay_player_destroy(p);
    if (s != GAIT_OK && !strstr(err, path)) return GAIT_OK;
    return s;
}
static gait_status traverse_table_bad(ctx *x) {
    gait_traverse_table t = gait_default_traverse_table();
    t.count = GAIT_TRAVERSE_MAX_ACTIONS + 1;
    return gait_world_set_traverse_table(x->w, &t);
}
static gait_status traverse_table_nan(ctx *x) {
    gait_traverse_table t = gait_default_traverse_table();
    t.cooldown = NAN;
    return gait_world_set_traverse_table(x->w, &t);
}
static gait_status traverse_info_stale(ctx *x) {
    gait_traverse_info info;
    return gait_character_traverse_info(x->w, x->stale, &info);
}
static gait_status traverse_scan_nan(ctx *x) {
    gait_traverse_query q = gait_traverse_default_query(gait_world_traverse_table(x->w),
                                                        gait_world_locomotion(x->w, GAIT_BODY_MEDIUM_FEMALE));
    q.feet.x = NAN;
    gait_traverse_scan scan;
    return ERR(gait_traverse_scan_run(x->c, &q, NULL, &scan));
}

static gait_status world_create_with(int max, double step, int steps) {
    gait_world_def d = gait_default_world_def();
    d.max_characters = max;
    d.clock.step_seconds = step;
    d.clock.max_steps_per_frame = steps;
    gait_world *w = gait_world_create(&d);
    gait_world_destroy(w);
    return w ? GAIT_OK : GAIT_ERR_INVALID_ARGUMENT;
}
static gait_status collider_create_with(int max, double slope, double skin) {
    gait_collider_def d = gait_default_collider_def();
    d.max_landmarks = max;
    d.walkable_slope = slope;
    d.sweep_skin = skin;
    gait_collider *c = gait_collider_create(&d);
    gait_collider_destroy(c);
    return c ? GAIT_OK : GAIT_ERR_INVALID_ARGUMENT;
}
/* A full pool: a world of one character refuses a second (and changes nothing). */
static gait_status create_when_full(ctx *x) {
    gait_world_def d = gait_default_world_def();
    d.max_characters = 1;
    gait_world *w = gait_world_create(&d);
    gait_character_def cd = gait_default_character_def();
    gait_character_id id, id2;
    gait_character_create(w, &cd, &id);
    uint64_t h = gait_world_state_hash(w);
    gait_status s = gait_character_create(w, &cd, &id2);
    if (gait_world_state_hash(w) != h || !gait_world_last_error(w)[0]) s = GAIT_OK;
    gait_world_destroy(w);
    return s;
}
static gait_status stamina_step_nan(ctx *x) {
    gait_stamina_costs costs = gait_default_stamina_costs();
    /* no time, or no pool: nothing may change */
    gait_stamina_step(&x->pool, &costs, GAIT_STATE_RUN, GAIT_STATE_SPRINT, true, NAN);
    gait_stamina_step(&x->pool, &costs, GAIT_STATE_RUN, GAIT_STATE_SPRINT, true, -1);
    gait_stamina_step(&x->pool, &costs, GAIT_STATE_RUN, GAIT_STATE_SPRINT, true, INFINITY);
    gait_stamina_step(NULL, &costs, GAIT_STATE_RUN, GAIT_STATE_RUN, true, 1.0 / 60);
    gait_stamina_step(&x->pool, NULL, GAIT_STATE_RUN, GAIT_STATE_RUN, true, 1.0 / 60);
    /* unknown states in a real step (on a copy: time passes): no cost, the pool stays sane */
    gait_stamina copy = x->pool;
    gait_stamina_step(&copy, &costs, (gait_state)99, (gait_state)-4, true, 1.0 / 60);
    bool sane = copy.value == x->pool.value && isfinite(copy.rest);
    return sane ? GAIT_ERR_INVALID_ARGUMENT : GAIT_OK; /* void: "nothing changed" is the check */
}
static gait_status camera_void_calls(ctx *x) {
    gait_camera_look(&x->camera, NAN, INFINITY, -INFINITY);
    gait_camera_follow(&x->camera, x->c, V3(NAN, 0, 0), 1.0 / 60, NULL);
    gait_camera_follow(&x->camera, x->c, V3(0, 0, 0), NAN, NULL);
    gait_camera_behind(&x->camera, x->c, V3(0, INFINITY, 0), 0, NULL);
    gait_camera_behind(&x->camera, x->c, V3(0, 0, 0), NAN, NULL);
    gait_camera_look(NULL, 0, 0, 0);
    gait_camera_follow(NULL, x->c, V3(0, 0, 0), 0.1, NULL);
    gait_camera_behind(NULL, x->c, V3(0, 0, 0), 0, NULL);
    return GAIT_ERR_INVALID_ARGUMENT;
}
static gait_status anim_void_calls(ctx *x) {
    gait_anim_input ok = {GAIT_STATE_RUN, true, 0, 0.3, 5, 1};
    /* no time, or nothing to read: nothing may change */
    gait_anim_update(&x->anim, &ok, NAN);
    gait_anim_update(&x->anim, &ok, -1);
    gait_anim_update(&x->anim, &ok, INFINITY);
    gait_anim_update(&x->anim, NULL, 1.0 / 60);
    gait_anim_update(NULL, &ok, 1.0 / 60);
    gait_anim_signal_get(NULL, NULL);
    gait_anim_signal sig;
    gait_anim_signal_get(&x->anim, NULL);
    gait_anim_signal_get(NULL, &sig);
    /* garbage in a real step (on a copy: time passes): the signal stays a known state */
    gait_anim copy = x->anim;
    gait_anim_input bad = {(gait_state)99, true, NAN, NAN, INFINITY, NAN};
    gait_anim_update(&copy, &bad, 1.0 / 60);
    gait_anim_signal_get(&copy, &sig);
    bool sane = (unsigned)sig.state < GAIT_ANIM_STATE_COUNT && (unsigned)sig.wanted < GAIT_ANIM_STATE_COUNT &&
                sig.clip != NULL && isfinite(sig.seconds_in_state);
    return sane ? GAIT_ERR_INVALID_ARGUMENT : GAIT_OK;
}
static gait_status floating_void_calls(ctx *x) {
    float out[3];
    bool moved = gait_floating_origin_update(&x->fo, V3(NAN, 0, 0));
    moved = gait_floating_origin_update(&x->fo, V3(INFINITY, 0, 0)) || moved;
    gait_floating_origin_apply(&x->fo, V3(1, 2, 3), NULL);
    gait_floating_origin_update(NULL, V3(1, 2, 3));
    gait_floating_origin_apply(NULL, V3(1, 2, 3), out);
    return moved ? GAIT_OK : GAIT_ERR_INVALID_ARGUMENT;
}
static gait_status floating_init_nan(ctx *x) {
    gait_floating_origin fo;
    gait_floating_origin_init(&fo, NAN);
    gait_floating_origin_init(NULL, 256);
    /* a NaN cell must not make a NaN origin: it takes the default */
    return isfinite(fo.cell) && fo.cell > 0 ? GAIT_ERR_INVALID_ARGUMENT : GAIT_OK;
}
static gait_status pure_calls(ctx *x) {
    bool ok = gait_state_name((gait_state)99) == NULL && gait_state_name((gait_state)-1) == NULL &&
              gait_state_from_name(NULL) == -1 && gait_state_from_name("") == -1 &&
              gait_state_from_name("flying") == -1 && !gait_state_on_foot((gait_state)99) &&
              !gait_state_airborne((gait_state)-2) && !gait_state_in_water((gait_state)77) &&
              !gait_state_on_wall((gait_state)1000) && !gait_locomotion_is_edge((gait_state)99, GAIT_STATE_IDLE) &&
              !gait_locomotion_is_edge(GAIT_STATE_IDLE, (gait_state)-1) &&
              gait_anim_state_name((gait_anim_state)99) == NULL && gait_anim_state_from_name(NULL) == -1 &&
              gait_body_type_name((gait_body_type)99) == NULL && gait_body_type_from_name(NULL) == -1 &&
              gait_body_type_from_name("giant") == -1 && gait_status_string((gait_status)99) != NULL &&
              gait_traverse_kind_name((gait_traverse_kind)99) == NULL &&
              gait_traverse_kind_from_name(NULL) == -1 && !gait_stamina_refills_in((gait_state)99);
    return ok ? GAIT_ERR_INVALID_ARGUMENT : GAIT_OK;
}
static gait_status gates_bad(ctx *x) {
    gait_phase ph = {(gait_state)99, NAN};
    gait_gate_input gi;
    memset(&gi, 0, sizeof gi);
    gi.move = NAN;
    gi.stamina = NAN;
    gait_contact ct;
    memset(&ct, 0, sizeof ct);
    ct.height_above_ground = NAN;
    gait_locomotion n = gait_default_locomotion();
    gait_state s1 = gait_locomotion_next(&ph, &gi, &ct, &n);
    gait_state s2 = gait_locomotion_next(NULL, &gi, &ct, &n);
    gait_state s3 = gait_locomotion_next(&ph, NULL, NULL, NULL);
    bool ok = (unsigned)s1 < GAIT_STATE_COUNT && (unsigned)s2 < GAIT_STATE_COUNT &&
              (unsigned)s3 < GAIT_STATE_COUNT;
    char err[64];
    ok = ok && gait_locomotion_validate(NULL, err, sizeof err) != GAIT_OK;
    n.walk_speed = NAN;
    ok = ok && gait_locomotion_validate(&n, NULL, 0) != GAIT_OK;
    return ok ? GAIT_ERR_INVALID_ARGUMENT : GAIT_OK;
}
static gait_status null_objects(ctx *x) {
    /* every entry point with its object NULL answers, never dereferences */
    gait_input in;
    memset(&in, 0, sizeof in);
    gait_vec3 zero = {0, 0, 0};
    gait_capsule cap = {{0, 1, 0}, {0, 2, 0}, 0.3};
    gait_hit hit;
    double h;
    bool ok = true;
    /* each failing expression is named */
#define NQ(e) do { if (!(e)) { printf("  NULL answered wrongly: %s\n", #e); ok = false; } } while (0)
    NQ(gait_world_last_error(NULL) != NULL);
    NQ(gait_world_collider(NULL) == NULL);
    NQ(gait_world_collider_const(NULL) == NULL);
    NQ(gait_world_set_provisional_locomotion(NULL, NULL) != GAIT_OK);
    NQ(gait_world_locomotion(NULL, GAIT_BODY_MEDIUM_FEMALE) == NULL);
    NQ(!gait_world_locomotion_measured(NULL, GAIT_BODY_MEDIUM_FEMALE));
    NQ(gait_world_update(NULL, 0.1, NULL) != GAIT_OK);
    NQ(gait_world_step(NULL) != GAIT_OK);
    NQ(gait_world_alpha(NULL) == 0);
    NQ(gait_world_step_count(NULL) == 0);
    NQ(gait_world_clock(NULL) == NULL);
    NQ(gait_world_snapshot_size(NULL) == 0);
    NQ(gait_world_snapshot_save(NULL, NULL, 0, NULL) != GAIT_OK);
    NQ(gait_world_snapshot_restore(NULL, NULL, 0) != GAIT_OK);
    NQ(gait_world_state_hash(NULL) == 0);
    NQ(gait_character_create(NULL, NULL, NULL) != GAIT_OK);
    NQ(gait_character_destroy(NULL, x->a) != GAIT_OK);
    NQ(!gait_character_valid(NULL, x->a));
    NQ(gait_world_character_count(NULL) == 0);
    NQ(gait_character_set_input(NULL, x->a, &in) != GAIT_OK);
    NQ(gait_character_take_presses(NULL, x->a, 1) != GAIT_OK);
    NQ(gait_character_stamina(NULL, x->a) == NULL);
    NQ(gait_character_info_get(NULL, x->a, NULL) != GAIT_OK);
    NQ(gait_character_pose(NULL, x->a, NULL) != GAIT_OK);
    NQ(gait_collider_last_error(NULL) != NULL);
    NQ(gait_collider_set_terrain(NULL, NULL) != GAIT_OK);
    NQ(gait_collider_load_heightmap(NULL, NULL, 1, 1, zero) != GAIT_OK);
    NQ(!gait_terrain_sample(NULL, 0, 0, &h, NULL));
    NQ(gait_collider_set_sea_level(NULL, 0) != GAIT_OK);
    NQ(gait_collider_add_water(NULL, NULL, NULL) != GAIT_OK);
    NQ(gait_collider_clear_water(NULL) != GAIT_OK);
    NQ(!gait_water_at(NULL, 0, 0, NULL, NULL));
    NQ(gait_collider_add_landmark(NULL, NULL, NULL) != GAIT_OK);
    NQ(gait_collider_remove_landmark(NULL, x->lm) != GAIT_OK);
    NQ(gait_collider_landmark_info(NULL, x->lm, NULL) != GAIT_OK);
    NQ(gait_collider_landmark_count(NULL) == 0);
    NQ(gait_collider_capsule_overlap(NULL, &cap, NULL, NULL, 0, NULL) == -1);
    NQ(gait_collider_capsule_overlap(x->c, NULL, NULL, NULL, 0, NULL) == -1);
    NQ(!gait_collider_capsule_sweep(NULL, &cap, zero, NULL, &hit));
    NQ(!gait_collider_capsule_sweep(x->c, NULL, zero, NULL, &hit));
    /* a NULL hit with a good query is "did it hit?": answered, not refused */
    NQ(!gait_collider_sphere_cast(NULL, zero, 1, zero, NULL, &hit));
    NQ(!gait_collider_ray_cast(NULL, zero, V3(0, -1, 0), NULL, &hit));
    NQ(gait_clock_init(NULL, NULL) != GAIT_OK);
    NQ(gait_clock_advance(NULL, 0.1, NULL) != GAIT_OK);
    NQ(gait_clock_alpha(NULL) == 0);
    NQ(gait_stamina_init(NULL, NULL) != GAIT_OK);
    NQ(!gait_stamina_can_spend(NULL, 1));
    NQ(gait_stamina_spend(NULL, 1) != GAIT_OK);
    NQ(gait_stamina_set_max(NULL, 1) != GAIT_OK);
    NQ(gait_stamina_set_multiplier(NULL, 1) != GAIT_OK);
    NQ(gait_camera_init(NULL, NULL) != GAIT_OK);
    NQ(gait_camera_set_def(NULL, NULL) != GAIT_OK);
    NQ(gait_anim_init(NULL, NULL) != GAIT_OK);
    NQ(gait_anim_set_def(NULL, NULL) != GAIT_OK);
    NQ(gait_anim_set_clip(NULL, GAIT_ANIM_RUN, "run") != GAIT_OK);
    NQ(gait_anim_set_model_lacks(NULL, GAIT_ANIM_RUN, true) != GAIT_OK);
    NQ(gait_script_last_error(NULL) != NULL);
    NQ(gait_script_error_count(NULL) == 0);
    NQ(gait_script_run_file(NULL, "x.lua") != GAIT_OK);
    NQ(gait_script_run_string(NULL, "", NULL) != GAIT_OK);
    NQ(gait_script_load_tuning(NULL, NULL) != GAIT_OK);
    NQ(gait_script_set_kit(NULL, x->a, NULL) != GAIT_OK);
    NQ(gait_script_before_step(NULL, 0.1) != GAIT_OK);
    NQ(gait_script_frame(NULL, 0.1, NULL) != GAIT_OK);
    NQ(gait_script_poll(NULL, NULL) != GAIT_OK);
    NQ(gait_script_lua(NULL) == NULL);
    NQ(!gait_script_uses_hooks_allocator(NULL));
    NQ(gait_world_traverse_table(NULL) == NULL);
    NQ(gait_world_set_traverse_table(NULL, NULL) != GAIT_OK);
    NQ(gait_character_traverse_info(NULL, x->a, NULL) != GAIT_OK);
    NQ(gait_character_traverse_draw(NULL, x->a, NULL) != GAIT_OK);
    NQ(gait_traverse_table_validate(NULL, NULL, 0) != GAIT_OK);
#undef NQ
    gait_world_destroy(NULL);
    gait_collider_destroy(NULL);
    gait_script_destroy(NULL);
    gait_script_clear_error(NULL);
    return ok ? GAIT_ERR_INVALID_ARGUMENT : GAIT_OK;
}

static gait_status last_nulls(ctx *x) {
    bool ok = true;
#define NQ(e) do { if (!(e)) { printf("  NULL answered wrongly: %s\n", #e); ok = false; } } while (0)
    gait_vec3 f = gait_camera_forward(NULL);
    NQ(f.x == 0 && f.y == 0 && f.z == 1);
    NQ(gait_world_step_seconds(NULL) == 0);
    NQ(gait_world_set_debug_draw(NULL, NULL) != GAIT_OK);
    NQ(gait_world_draw_debug(NULL) != GAIT_OK);
    int chosen = 7;
    NQ(gait_traverse_choose(NULL, NULL, NAN, &chosen) == GAIT_TRAVERSE_NONE && chosen == -1);
    /* no collider, or a NaN point: an answer, not a crash (with nothing to collide there is room) */
    (void)gait_crouch_room_to_stand(NULL, V3(0, 0, 0), 0.3, 1, 1.7, NULL);
    (void)gait_crouch_room_to_stand(x->c, V3(NAN, 0, 0), 0.3, 1, 1.7, NULL);
    gait_replay_player *p = (gait_replay_player *)(uintptr_t)1;
    char err[200] = "";
    NQ(gait_replay_player_open_buffer(NULL, 5, "x", NULL, &p, err, sizeof err) != GAIT_OK && p == NULL && err[0]);
    NQ(gait_replay_player_meta(NULL, "x") == NULL && gait_replay_player_world_name(NULL) != NULL);
    NQ(gait_replay_player_character(NULL, 0).index1 == 0 && gait_replay_player_character_count(NULL) == 0);
    NQ(gait_replay_player_frame_index(NULL) == 0 && gait_replay_player_last_error(NULL) != NULL);
    NQ(gait_replay_player_from_recorder(NULL, &p) != GAIT_OK);
    NQ(gait_replay_recorder_add_character(NULL, x->a) != GAIT_OK);
    NQ(gait_replay_recorder_set_meta(NULL, "k", "v") != GAIT_OK);
    NQ(gait_replay_recorder_save(NULL, "/tmp/x") != GAIT_OK && gait_replay_recorder_frame_count(NULL) == 0);
    NQ(gait_replay_recorder_last_error(NULL) != NULL && gait_replay_recorder_truncate(NULL, 1) != GAIT_OK);
    gait_replay_player_rewind(NULL);
#undef NQ
    return ok ? GAIT_ERR_INVALID_ARGUMENT : GAIT_OK;
}

/* world */
R(world_create_max_0, GAIT_ERR_INVALID_ARGUMENT, NONE, world_create_with(0, 1.0 / 60, 8))
R(world_create_max_huge, GAIT_ERR_INVALID_ARGUMENT, NONE, world_create_with(1 << 30, 1.0 / 60, 8))
R(world_create_max_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, world_create_with(-5, 1.0 / 60, 8))
R(world_create_step_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, world_create_with(4, NAN, 8))
R(world_create_step_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, world_create_with(4, -1.0 / 60, 8))
R(world_create_step_inf, GAIT_ERR_INVALID_ARGUMENT, NONE, world_create_with(4, INFINITY, 8))
R(world_create_steps_0, GAIT_ERR_INVALID_ARGUMENT, NONE, world_create_with(4, 1.0 / 60, 0))
R(world_numbers_null, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_world_set_provisional_locomotion(x->w, NULL))
R(world_numbers_walk_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, numbers_with(x, 0, NAN, true))
R(world_numbers_gravity_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, numbers_with(x, 1, -20, true))
R(world_numbers_radius_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, numbers_with(x, 2, INFINITY, true))
R(world_numbers_height_below_2r, GAIT_ERR_INVALID_ARGUMENT, WORLD, numbers_with(x, 3, 0.1, true))
R(world_numbers_step_huge, GAIT_ERR_INVALID_ARGUMENT, WORLD, numbers_with(x, 4, 1e9, true))
R(world_numbers_slope_past_90, GAIT_ERR_INVALID_ARGUMENT, WORLD, numbers_with(x, 5, 2.0, true))
R(world_measured_cost_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, numbers_with(x, 6, -18, false))
R(world_measured_jump_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, numbers_with(x, 7, NAN, false))
R(world_measured_type_unknown, GAIT_ERR_INVALID_ARGUMENT, WORLD,
  gait_world_set_locomotion(x->w, (gait_body_type)99, gait_world_locomotion(x->w, GAIT_BODY_MEDIUM_FEMALE)))
R(world_measured_type_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD,
  gait_world_set_locomotion(x->w, (gait_body_type)-1, gait_world_locomotion(x->w, GAIT_BODY_MEDIUM_FEMALE)))
R(world_measured_null, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_world_set_locomotion(x->w, GAIT_BODY_TALL_MALE, NULL))
R(world_clear_type_unknown, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_world_clear_locomotion(x->w, (gait_body_type)77))
R(world_update_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_world_update(x->w, NAN, NULL))
R(world_update_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_world_update(x->w, -1.0 / 60, NULL))
R(world_update_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_world_update(x->w, INFINITY, NULL))
R(world_snapshot_short, GAIT_ERR_FORMAT, WORLD, snapshot_restore_bad(x, 0))
R(world_snapshot_corrupt, GAIT_ERR_FORMAT, WORLD, snapshot_restore_bad(x, 1))
R(world_snapshot_magic, GAIT_ERR_FORMAT, WORLD, snapshot_restore_bad(x, 2))
R(world_snapshot_null, GAIT_ERR_INVALID_ARGUMENT, NONE, snapshot_restore_bad(x, 3))
R(world_snapshot_save_small, GAIT_ERR_CAPACITY, WORLD, snapshot_save_small(x))
R(world_snapshot_save_null, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_world_snapshot_save(x->w, NULL, 1 << 20, NULL))
R(world_traverse_table_rows, ANY_ERROR, WORLD, traverse_table_bad(x))
R(world_traverse_table_nan, ANY_ERROR, WORLD, traverse_table_nan(x))
R(world_traverse_table_null, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_world_set_traverse_table(x->w, NULL))
/* characters */
R(char_create_def_null, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_character_create(x->w, NULL, &x->null_id))
R(char_create_out_null, GAIT_ERR_INVALID_ARGUMENT, NONE, create_out_null(x))
R(char_create_position_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_with(x, char_def(V3(NAN, 0, 0), 0, 0)))
R(char_create_position_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_with(x, char_def(V3(0, -INFINITY, 0), 0, 0)))
R(char_create_yaw_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_with(x, char_def(V3(0, 0, 0), NAN, 0)))
R(char_create_type_unknown, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_with(x, char_def(V3(0, 0, 0), 0, 42)))
R(char_create_type_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_with(x, char_def(V3(0, 0, 0), 0, -1)))
R(char_create_stamina_max_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_stamina(x, -100, 0, 25, 1))
R(char_create_stamina_max_huge, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_stamina(x, 1e300, 0, 25, 1))
R(char_create_stamina_start_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_stamina(x, 100, NAN, 25, 1))
R(char_create_stamina_start_over_max, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_stamina(x, 100, 101, 25, 1))
R(char_create_stamina_rate_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_stamina(x, 100, 100, INFINITY, 1))
R(char_create_stamina_multiplier_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_stamina(x, 100, 100, 25, -1))
R(char_create_camera_distance_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_camera(x, NAN, 1, 0.2))
R(char_create_camera_probe_zero, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_camera(x, 4.5, 1, 0))
R(char_create_camera_min_over_distance, GAIT_ERR_INVALID_ARGUMENT, WORLD, create_camera(x, 2, 3, 0.2))
R(char_create_when_full, GAIT_ERR_CAPACITY, NONE, create_when_full(x))
R(char_destroy_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_destroy(x->w, x->stale))
R(char_destroy_null_id, GAIT_ERR_STALE_ID, WORLD, gait_character_destroy(x->w, x->null_id))
R(char_destroy_out_of_range, GAIT_ERR_STALE_ID, WORLD, gait_character_destroy(x->w, x->far_id))
R(char_destroy_negative_index, GAIT_ERR_STALE_ID, WORLD, gait_character_destroy(x->w, (gait_character_id){-5, 0}))
R(char_destroy_wrong_generation, GAIT_ERR_STALE_ID, WORLD,
  gait_character_destroy(x->w, (gait_character_id){x->a.index1, x->a.generation + 7}))
R(char_input_null, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_input(x->w, x->a, NULL))
R(char_input_move_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_input(x->w, x->a, &(gait_input){NAN, 0, 0, 0, 0, 0, GAIT_BUTTON_JUMP}))
R(char_input_move_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_input(x->w, x->a, &(gait_input){0, INFINITY, 0, 0, 0, 0, 0}))
R(char_input_look_yaw_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_input(x->w, x->a, &(gait_input){0, 0, NAN, 0, 0, 0, 0}))
R(char_input_look_pitch_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_input(x->w, x->a, &(gait_input){0, 0, 0, -INFINITY, 0, 0, 0}))
R(char_input_zoom_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_input(x->w, x->a, &(gait_input){0, 0, 0, 0, NAN, 0, 0}))
R(char_input_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_set_input(x->w, x->stale, &(gait_input){0, 1, 0, 0, 0, 0, 0}))
R(char_held_presses_null, GAIT_ERR_INVALID_ARGUMENT, NONE, held_presses_null(x))
R(char_held_presses_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_held_presses(x->w, x->stale, &(uint32_t){0}))
R(char_take_presses_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_take_presses(x->w, x->stale, GAIT_BUTTON_ALL))
R(char_action_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_start_action(x->w, x->a, NAN, "x"))
R(char_action_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_start_action(x->w, x->a, -1, "x"))
R(char_action_huge, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_start_action(x->w, x->a, 1e12, "x"))
R(char_action_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_start_action(x->w, x->a, INFINITY, NULL))
R(char_action_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_start_action(x->w, x->stale, 1, "x"))
R(char_face_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_face(x->w, x->a, NAN))
R(char_face_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_face(x->w, x->a, INFINITY))
R(char_face_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_face(x->w, x->stale, 0))
R(char_place_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_place(x->w, x->a, V3(0, NAN, 0), 0))
R(char_place_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_place(x->w, x->a, V3(INFINITY, 0, 0), 0))
R(char_place_yaw_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_place(x->w, x->a, V3(0, 0, 0), NAN))
R(char_place_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_place(x->w, x->stale, V3(0, 0, 0), 0))
R(char_body_type_unknown, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_body_type(x->w, x->a, (gait_body_type)5))
R(char_body_type_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_body_type(x->w, x->a, (gait_body_type)-1))
R(char_body_type_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_set_body_type(x->w, x->stale, GAIT_BODY_TALL_MALE))
R(char_spend_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_spend(x->w, x->a, NAN))
R(char_spend_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_spend(x->w, x->a, -10))
R(char_spend_inf, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_spend(x->w, x->a, INFINITY))
R(char_spend_more_than_left, GAIT_ERR_CAPACITY, WORLD, gait_character_spend(x->w, x->a, 1e6))
R(char_spend_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_spend(x->w, x->stale, 1))
R(char_can_spend_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, can_spend_bad(x, NAN))
R(char_can_spend_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, can_spend_bad(x, -1))
R(char_can_spend_null, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_character_can_spend(x->w, x->a, 1, NULL))
R(char_stamina_stale, GAIT_ERR_STALE_ID, NONE, gait_character_stamina(x->w, x->stale) ? GAIT_OK : GAIT_ERR_STALE_ID)
R(char_camera_yaw_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_camera_yaw(x->w, x->a, NAN))
R(char_camera_yaw_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_set_camera_yaw(x->w, x->stale, 0))
R(char_camera_get_stale, GAIT_ERR_STALE_ID, WORLD, camera_get_stale(x))
R(char_camera_get_null, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_character_camera(x->w, x->a, NULL))
R(char_camera_def_null, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_camera_def(x->w, x->a, NULL))
R(char_anim_get_null, GAIT_ERR_INVALID_ARGUMENT, NONE, anim_get_null(x))
R(char_anim_def_nan, GAIT_ERR_INVALID_ARGUMENT, WORLD, anim_def_with(x, 0, NAN, 2))
R(char_anim_def_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, anim_def_with(x, 2, -0.1, 2))
R(char_anim_def_null, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_anim_def(x->w, x->a, NULL))
R(char_clip_state_unknown, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_clip(x->w, x->a, (gait_anim_state)99, "run"))
R(char_clip_name_long, GAIT_ERR_INVALID_ARGUMENT, WORLD, long_clip(x, true))
R(char_clip_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_set_clip(x->w, x->stale, GAIT_ANIM_RUN, "run"))
R(char_model_lacks_state_negative, GAIT_ERR_INVALID_ARGUMENT, WORLD, gait_character_set_model_lacks(x->w, x->a, (gait_anim_state)-1, true))
R(char_gate_hook_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_set_gate_hook(x->w, x->stale, NULL, NULL))
R(char_info_stale_writes_nothing, GAIT_ERR_STALE_ID, WORLD, info_stale(x))
R(char_pose_out_of_range, GAIT_ERR_STALE_ID, WORLD, pose_far(x))
R(char_traverse_hook_stale, GAIT_ERR_STALE_ID, WORLD, gait_character_set_traverse_hook(x->w, x->stale, NULL, NULL))
R(char_traverse_info_stale, GAIT_ERR_STALE_ID, WORLD, traverse_info_stale(x))
/* collider */
R(collider_create_max_0, GAIT_ERR_INVALID_ARGUMENT, NONE, collider_create_with(0, 0.87, 0.002))
R(collider_create_slope_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, collider_create_with(16, NAN, 0.002))
R(collider_create_skin_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, collider_create_with(16, 0.87, -1))
R(terrain_samples_1, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, terrain_with(x, 1, 4, 1, 0, 0, false))
R(terrain_samples_negative, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, terrain_with(x, -4, 4, 1, 0, 0, false))
R(terrain_samples_huge, ANY_ERROR, COLLIDER, terrain_with(x, 1 << 20, 1 << 20, 1, 0, 0, false))
R(terrain_cell_zero, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, terrain_with(x, 4, 4, 0, 0, 0, false))
R(terrain_cell_nan, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, terrain_with(x, 4, 4, NAN, 0, 0, false))
R(terrain_origin_inf, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, terrain_with(x, 4, 4, 1, INFINITY, 0, false))
R(terrain_height_nan, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, terrain_with(x, 4, 4, 1, 0, NAN, false))
R(terrain_height_inf, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, terrain_with(x, 4, 4, 1, 0, -INFINITY, false))
R(terrain_heights_null, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, terrain_with(x, 4, 4, 1, 0, 0, true))
R(heightmap_missing, GAIT_ERR_IO, COLLIDER, heightmap(x, "missing.png", NULL, 0, 1, 10))
R(heightmap_not_png, ANY_ERROR, COLLIDER, heightmap(x, "text.png", "hello, not an image\n", 20, 1, 10))
R(heightmap_empty, ANY_ERROR, COLLIDER, heightmap(x, "empty.png", "", 0, 1, 10))
R(heightmap_magic_only, ANY_ERROR, COLLIDER, heightmap(x, "magic.png", png_magic_only, sizeof png_magic_only, 1, 10))
R(heightmap_truncated, ANY_ERROR, COLLIDER, heightmap(x, "truncated.png", png_truncated, sizeof png_truncated, 1, 10))
R(heightmap_one_pixel, ANY_ERROR, COLLIDER, heightmap(x, "one.png", png_1x1, sizeof png_1x1, 1, 10))
R(heightmap_cell_nan, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, heightmap(x, "one.png", png_1x1, sizeof png_1x1, NAN, 10))
R(heightmap_scale_inf, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, heightmap(x, "one.png", png_1x1, sizeof png_1x1, 1, INFINITY))
R(heightmap_path_null, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_collider_load_heightmap(x->c, NULL, 1, 1, V3(0, 0, 0)))
R(sea_level_nan, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, gait_collider_set_sea_level(x->c, NAN))
R(water_nan, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, water_with(x, NAN, 0, 1, 1, 0))
R(water_inverted, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, water_with(x, 5, 5, 1, 1, 0))
R(water_surface_inf, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, water_with(x, 0, 0, 1, 1, INFINITY))
R(water_null, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_collider_add_water(x->c, NULL, NULL))
R(landmark_def_null, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_collider_add_landmark(x->c, NULL, &x->null_lm))
R(landmark_positions_null, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, mesh_with(x, NULL, 3, NULL, 1, V3(0, 0, 0)))
R(landmark_zero_triangles, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, mesh_with(x, box_tris, 6, NULL, 0, V3(0, 0, 0)))
R(landmark_negative_triangles, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, mesh_with(x, box_tris, 6, NULL, -2, V3(0, 0, 0)))
R(landmark_negative_vertices, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, mesh_with(x, box_tris, -6, NULL, 2, V3(0, 0, 0)))
R(landmark_too_few_vertices, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, mesh_with(x, box_tris, 4, NULL, 2, V3(0, 0, 0)))
R(landmark_all_degenerate, ANY_ERROR, COLLIDER, mesh_with(x, degenerate, 6, NULL, 2, V3(0, 0, 0)))
R(landmark_nan_vertex, ANY_ERROR, COLLIDER, mesh_with(x, with_nan, 3, NULL, 1, V3(0, 0, 0)))
R(landmark_inf_vertex, ANY_ERROR, COLLIDER, mesh_with(x, with_inf, 3, NULL, 1, V3(0, 0, 0)))
R(landmark_index_out_of_range, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, mesh_with(x, box_tris, 6, idx_out, 1, V3(0, 0, 0)))
R(landmark_offset_nan, GAIT_ERR_INVALID_ARGUMENT, COLLIDER, mesh_with(x, box_tris, 6, NULL, 2, V3(NAN, 0, 0)))
R(landmark_huge_coordinate, ANY_ERROR, COLLIDER, mesh_with(x, huge_coord, 3, NULL, 1, V3(0, 0, 0)))
R(landmark_remove_stale, GAIT_ERR_STALE_ID, COLLIDER, gait_collider_remove_landmark(x->c, x->stale_lm))
R(landmark_remove_null, GAIT_ERR_STALE_ID, COLLIDER, gait_collider_remove_landmark(x->c, x->null_lm))
R(landmark_info_stale, GAIT_ERR_STALE_ID, NONE, /* const: no message kept, by design */ landmark_info_stale(x))
R(overlap_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, overlap(x, cap_of(V3(NAN, 1, 0), V3(0, 2, 0), 0.3), 4, false))
R(overlap_inf, GAIT_ERR_INVALID_ARGUMENT, NONE, overlap(x, cap_of(V3(0, 1, 0), V3(0, INFINITY, 0), 0.3), 4, false))
R(overlap_radius_zero, GAIT_ERR_INVALID_ARGUMENT, NONE, overlap(x, cap_of(V3(0, 1, 0), V3(0, 2, 0), 0), 4, false))
R(overlap_radius_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, overlap(x, cap_of(V3(0, 1, 0), V3(0, 2, 0), -1), 4, false))
R(overlap_capacity_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, overlap(x, cap_of(V3(0, 1, 0), V3(0, 2, 0), 0.3), -1, false))
R(overlap_out_null, GAIT_ERR_INVALID_ARGUMENT, NONE, overlap(x, cap_of(V3(0, 1, 0), V3(0, 2, 0), 0.3), 2, true))
R(sweep_nan, NO_ANSWER, NONE, sweep(x, cap_of(V3(0, 1, 0), V3(0, 2, 0), 0.3), V3(NAN, 0, 0)))
R(sweep_inf, NO_ANSWER, NONE, sweep(x, cap_of(V3(0, 1, 0), V3(0, 2, 0), 0.3), V3(0, -INFINITY, 0)))
R(sweep_radius_negative, NO_ANSWER, NONE, sweep(x, cap_of(V3(0, 1, 0), V3(0, 2, 0), -0.3), V3(0, -5, 0)))
R(sphere_nan, NO_ANSWER, NONE, sphere(x, V3(0, NAN, 0), 0.2, V3(0, -5, 0)))
R(sphere_radius_zero, NO_ANSWER, NONE, sphere(x, V3(0, 3, 0), 0, V3(0, -5, 0)))
R(ray_nan, NO_ANSWER, NONE, ray(x, V3(0, 3, 0), V3(0, NAN, 0)))
R(ray_inf, NO_ANSWER, NONE, ray(x, V3(INFINITY, 3, 0), V3(0, -5, 0)))
R(terrain_sample_nan, NO_ANSWER, NONE, ERR(gait_terrain_sample(x->c, NAN, 0, &(double){0}, NULL)))
R(water_at_nan, NO_ANSWER, NONE, ERR(gait_water_at(x->c, NAN, NAN, &(double){0}, &(double){0})))
R(traverse_scan_nan, NO_ANSWER, NONE, traverse_scan_nan(x))
/* clock, stamina, camera, anim, floating origin, pure functions */
R(clock_step_zero, GAIT_ERR_INVALID_ARGUMENT, NONE, clock_def_with(x, 0, 8))
R(clock_step_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, clock_def_with(x, NAN, 8))
R(clock_steps_huge, GAIT_ERR_INVALID_ARGUMENT, NONE, clock_def_with(x, 1.0 / 60, 1001))
R(clock_advance_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, advance(x, NAN))
R(clock_advance_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, advance(x, -0.5))
R(clock_advance_inf, GAIT_ERR_INVALID_ARGUMENT, NONE, advance(x, INFINITY))
R(stamina_def_max_zero, GAIT_ERR_INVALID_ARGUMENT, NONE, stamina_def_with(x, 0, 0, 25, 1.5, 1))
R(stamina_def_start_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, stamina_def_with(x, 100, NAN, 25, 1.5, 1))
R(stamina_def_delay_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, stamina_def_with(x, 100, 100, 25, -1.5, 1))
R(stamina_def_multiplier_huge, GAIT_ERR_INVALID_ARGUMENT, NONE, stamina_def_with(x, 100, 100, 25, 1.5, 1e9))
R(stamina_spend_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_stamina_spend(&x->pool, NAN))
R(stamina_spend_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_stamina_spend(&x->pool, -5))
R(stamina_set_max_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_stamina_set_max(&x->pool, NAN))
R(stamina_set_max_zero, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_stamina_set_max(&x->pool, 0))
R(stamina_multiplier_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_stamina_set_multiplier(&x->pool, -1))
R(stamina_multiplier_inf, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_stamina_set_multiplier(&x->pool, INFINITY))
R(stamina_can_spend_nan, NO_ANSWER, NONE, ERR(gait_stamina_can_spend(&x->pool, NAN)))
R(stamina_step_nan_dt_and_bad_states, GAIT_ERR_INVALID_ARGUMENT, NONE, stamina_step_nan(x))
R(camera_init_distance_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, camera_def_with(x, 0, NAN, false))
R(camera_init_min_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, camera_def_with(x, 1, -1, false))
R(camera_set_max_inf, GAIT_ERR_INVALID_ARGUMENT, NONE, camera_def_with(x, 2, INFINITY, true))
R(camera_set_pitch_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, camera_def_with(x, 3, NAN, true))
R(camera_set_min_pitch_past_vertical, GAIT_ERR_INVALID_ARGUMENT, NONE, camera_def_with(x, 4, -3, true))
R(camera_set_probe_negative, GAIT_ERR_INVALID_ARGUMENT, NONE, camera_def_with(x, 7, -0.2, true))
R(camera_set_follow_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, camera_def_with(x, 8, NAN, true))
R(camera_look_follow_behind_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, camera_void_calls(x))
R(anim_init_nan, GAIT_ERR_INVALID_ARGUMENT, NONE, anim_def_with(x, 1, NAN, 0))
R(anim_set_def_huge, GAIT_ERR_INVALID_ARGUMENT, NONE, anim_def_with(x, 3, 1e9, 1))
R(anim_clip_state_unknown, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_anim_set_clip(&x->anim, (gait_anim_state)-3, "x"))
R(anim_clip_name_long, GAIT_ERR_INVALID_ARGUMENT, NONE, long_clip(x, false))
R(anim_model_lacks_state_unknown, GAIT_ERR_INVALID_ARGUMENT, NONE, gait_anim_set_model_lacks(&x->anim, GAIT_ANIM_STATE_COUNT, true))
R(anim_update_nan_and_bad_state, GAIT_ERR_INVALID_ARGUMENT, NONE, anim_void_calls(x))
R(floating_origin_nan_eye, GAIT_ERR_INVALID_ARGUMENT, NONE, floating_void_calls(x))
R(floating_origin_nan_cell, GAIT_ERR_INVALID_ARGUMENT, NONE, floating_init_nan(x))
R(pure_names_and_predicates_out_of_range, GAIT_ERR_INVALID_ARGUMENT, NONE, pure_calls(x))
R(gates_nan_null_and_unknown_state, GAIT_ERR_INVALID_ARGUMENT, NONE, gates_bad(x))
R(null_objects_everywhere, GAIT_ERR_INVALID_ARGUMENT, NONE, null_objects(x))
R(null_objects_the_rest, GAIT_ERR_INVALID_ARGUMENT, NONE, last_nulls(x))
/* scripts: files that do not parse, raise, raise in the handler; stale ids; bad defs */
R(script_def_budget_zero, GAIT_ERR_INVALID_ARGUMENT, NONE, script_def_with(0, 0))
R(script_def_memory_tiny, GAIT_ERR_INVALID_ARGUMENT, NONE, script_def_with(100000, 1000))
R(script_world_file_missing, GAIT_ERR_IO, SCRIPT, script_file(x, "missing.lua", NULL, 0))
R(script_world_file_syntax, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "syntax.lua", "local w = {\nterrain = \n", 0))
R(script_world_file_runtime, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "runtime.lua", "local t\nreturn t.x\n", 0))
R(script_world_file_handler_fails, GAIT_ERR_SCRIPT, SCRIPT,
  script_file(x, "handler.lua", "error(setmetatable({}, {__tostring = function() error('again') end}))\n", 0))
R(script_world_file_binary, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "binary.lua", "\x1bLJ\x02\x0a garbage", 0))
R(script_kit_syntax, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "kit_syntax.lua", "return {on_presses = function(\n", 1))
R(script_kit_not_a_table, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "kit_number.lua", "return 42\n", 1))
R(script_kit_missing, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "kit_missing.lua", NULL, 1))
R(script_kit_stale_character, GAIT_ERR_STALE_ID, NONE, (script_of(x) ? gait_script_set_kit(x->s, x->stale, "sword") : GAIT_OK))
R(script_tuning_nan, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "nan", "return {provisional = {walk_speed = 0/0}}\n", 2))
R(script_tuning_unknown_key, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "key", "return {provisional = {walk_sped = 2}}\n", 2))
R(script_tuning_syntax, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "syntax", "return {provisional = \n", 2))
R(script_tuning_endless, GAIT_ERR_SCRIPT, SCRIPT, script_file(x, "endless", "while true do end\n", 2))
R(script_string_null, GAIT_ERR_INVALID_ARGUMENT, NONE, (script_of(x) ? gait_script_run_string(x->s, NULL, "x") : GAIT_OK))
R(script_string_runtime, GAIT_ERR_SCRIPT, SCRIPT, script_string(x, "error('boom')"))
R(script_frame_nan, ANY_ERROR, NONE, (script_of(x) ? gait_script_frame(x->s, NAN, NULL) : GAIT_OK))
R(script_before_step_negative, ANY_ERROR, NONE, (script_of(x) ? gait_script_before_step(x->s, -1) : GAIT_OK))
/* replay files (more in test_replay.c) */
R(replay_garbage, GAIT_ERR_FORMAT, NONE, replay_file(x, "garbage.replay", "\x7f" "ELF\x02\x01\x01"))
R(replay_nan, GAIT_ERR_FORMAT, NONE, replay_file(x, "nan.replay", "gait-replay 1\nworld w\ncharacter 1 0\nframes 1\nf 0.1 1\ni 1 0 0 nan 0 0 0 0 0\nend\n"))
R(replay_truncated, GAIT_ERR_FORMAT, NONE, replay_file(x, "cut.replay", "gait-replay 1\nworld w\nframes 2\nf 0.1 0\n"))

static const row *const rows[] = {
    &rowdef_world_create_max_0,
    &rowdef_world_create_max_huge,
    &rowdef_world_create_max_negative,
    &rowdef_world_create_step_nan,
    &rowdef_world_create_step_negative,
    &rowdef_world_create_step_inf,
    &rowdef_world_create_steps_0,
    &rowdef_world_numbers_null,
    &rowdef_world_numbers_walk_nan,
    &rowdef_world_numbers_gravity_negative,
    &rowdef_world_numbers_radius_inf,
    &rowdef_world_numbers_height_below_2r,
    &rowdef_world_numbers_step_huge,
    &rowdef_world_numbers_slope_past_90,
    &rowdef_world_measured_cost_negative,
    &rowdef_world_measured_jump_nan,
    &rowdef_world_measured_type_unknown,
    &rowdef_world_measured_type_negative,
    &rowdef_world_measured_null,
    &rowdef_world_clear_type_unknown,
    &rowdef_world_update_nan,
    &rowdef_world_update_negative,
    &rowdef_world_update_inf,
    &rowdef_world_snapshot_short,
    &rowdef_world_snapshot_corrupt,
    &rowdef_world_snapshot_magic,
    &rowdef_world_snapshot_null,
    &rowdef_world_snapshot_save_small,
    &rowdef_world_snapshot_save_null,
    &rowdef_world_traverse_table_rows,
    &rowdef_world_traverse_table_nan,
    &rowdef_world_traverse_table_null,
    &rowdef_char_create_def_null,
    &rowdef_char_create_out_null,
    &rowdef_char_create_position_nan,
    &rowdef_char_create_position_inf,
    &rowdef_char_create_yaw_nan,
    &rowdef_char_create_type_unknown,
    &rowdef_char_create_type_negative,
    &rowdef_char_create_stamina_max_negative,
    &rowdef_char_create_stamina_max_huge,
    &rowdef_char_create_stamina_start_nan,
    &rowdef_char_create_stamina_start_over_max,
    &rowdef_char_create_stamina_rate_inf,
    &rowdef_char_create_stamina_multiplier_negative,
    &rowdef_char_create_camera_distance_nan,
    &rowdef_char_create_camera_probe_zero,
    &rowdef_char_create_camera_min_over_distance,
    &rowdef_char_create_when_full,
    &rowdef_char_destroy_stale,
    &rowdef_char_destroy_null_id,
    &rowdef_char_destroy_out_of_range,
    &rowdef_char_destroy_negative_index,
    &rowdef_char_destroy_wrong_generation,
    &rowdef_char_input_null,
    &rowdef_char_input_move_nan,
    &rowdef_char_input_move_inf,
    &rowdef_char_input_look_yaw_nan,
    &rowdef_char_input_look_pitch_inf,
    &rowdef_char_input_zoom_nan,
    &rowdef_char_input_stale,
    &rowdef_char_held_presses_null,
    &rowdef_char_held_presses_stale,
    &rowdef_char_take_presses_stale,
    &rowdef_char_action_nan,
    &rowdef_char_action_negative,
    &rowdef_char_action_huge,
    &rowdef_char_action_inf,
    &rowdef_char_action_stale,
    &rowdef_char_face_nan,
    &rowdef_char_face_inf,
    &rowdef_char_face_stale,
    &rowdef_char_place_nan,
    &rowdef_char_place_inf,
    &rowdef_char_place_yaw_nan,
    &rowdef_char_place_stale,
    &rowdef_char_body_type_unknown,
    &rowdef_char_body_type_negative,
    &rowdef_char_body_type_stale,
    &rowdef_char_spend_nan,
    &rowdef_char_spend_negative,
    &rowdef_char_spend_inf,
    &rowdef_char_spend_more_than_left,
    &rowdef_char_spend_stale,
    &rowdef_char_can_spend_nan,
    &rowdef_char_can_spend_negative,
    &rowdef_char_can_spend_null,
    &rowdef_char_stamina_stale,
    &rowdef_char_camera_yaw_nan,
    &rowdef_char_camera_yaw_stale,
    &rowdef_char_camera_get_stale,
    &rowdef_char_camera_get_null,
    &rowdef_char_camera_def_null,
    &rowdef_char_anim_get_null,
    &rowdef_char_anim_def_nan,
    &rowdef_char_anim_def_negative,
    &rowdef_char_anim_def_null,
    &rowdef_char_clip_state_unknown,
    &rowdef_char_clip_name_long,
    &rowdef_char_clip_stale,
    &rowdef_char_model_lacks_state_negative,
    &rowdef_char_gate_hook_stale,
    &rowdef_char_info_stale_writes_nothing,
    &rowdef_char_pose_out_of_range,
    &rowdef_char_traverse_hook_stale,
    &rowdef_char_traverse_info_stale,
    &rowdef_collider_create_max_0,
    &rowdef_collider_create_slope_nan,
    &rowdef_collider_create_skin_negative,
    &rowdef_terrain_samples_1,
    &rowdef_terrain_samples_negative,
    &rowdef_terrain_samples_huge,
    &rowdef_terrain_cell_zero,
    &rowdef_terrain_cell_nan,
    &rowdef_terrain_origin_inf,
    &rowdef_terrain_height_nan,
    &rowdef_terrain_height_inf,
    &rowdef_terrain_heights_null,
    &rowdef_heightmap_missing,
    &rowdef_heightmap_not_png,
    &rowdef_heightmap_empty,
    &rowdef_heightmap_magic_only,
    &rowdef_heightmap_truncated,
    &rowdef_heightmap_one_pixel,
    &rowdef_heightmap_cell_nan,
    &rowdef_heightmap_scale_inf,
    &rowdef_heightmap_path_null,
    &rowdef_sea_level_nan,
    &rowdef_water_nan,
    &rowdef_water_inverted,
    &rowdef_water_surface_inf,
    &rowdef_water_null,
    &rowdef_landmark_def_null,
    &rowdef_landmark_positions_null,
    &rowdef_landmark_zero_triangles,
    &rowdef_landmark_negative_triangles,
    &rowdef_landmark_negative_vertices,
    &rowdef_landmark_too_few_vertices,
    &rowdef_landmark_all_degenerate,
    &rowdef_landmark_nan_vertex,
    &rowdef_landmark_inf_vertex,
    &rowdef_landmark_index_out_of_range,
    &rowdef_landmark_offset_nan,
    &rowdef_landmark_huge_coordinate,
    &rowdef_landmark_remove_stale,
    &rowdef_landmark_remove_null,
    &rowdef_landmark_info_stale,
    &rowdef_overlap_nan,
    &rowdef_overlap_inf,
    &rowdef_overlap_radius_zero,
    &rowdef_overlap_radius_negative,
    &rowdef_overlap_capacity_negative,
    &rowdef_overlap_out_null,
    &rowdef_sweep_nan,
    &rowdef_sweep_inf,
    &rowdef_sweep_radius_negative,
    &rowdef_sphere_nan,
    &rowdef_sphere_radius_zero,
    &rowdef_ray_nan,
    &rowdef_ray_inf,
    &rowdef_terrain_sample_nan,
    &rowdef_water_at_nan,
    &rowdef_traverse_scan_nan,
    &rowdef_clock_step_zero,
    &rowdef_clock_step_nan,
    &rowdef_clock_steps_huge,
    &rowdef_clock_advance_nan,
    &rowdef_clock_advance_negative,
    &rowdef_clock_advance_inf,
    &rowdef_stamina_def_max_zero,
    &rowdef_stamina_def_start_nan,
    &rowdef_stamina_def_delay_negative,
    &rowdef_stamina_def_multiplier_huge,
    &rowdef_stamina_spend_nan,
    &rowdef_stamina_spend_negative,
    &rowdef_stamina_set_max_nan,
    &rowdef_stamina_set_max_zero,
    &rowdef_stamina_multiplier_negative,
    &rowdef_stamina_multiplier_inf,
    &rowdef_stamina_can_spend_nan,
    &rowdef_stamina_step_nan_dt_and_bad_states,
    &rowdef_camera_init_distance_nan,
    &rowdef_camera_init_min_negative,
    &rowdef_camera_set_max_inf,
    &rowdef_camera_set_pitch_nan,
    &rowdef_camera_set_min_pitch_past_vertical,
    &rowdef_camera_set_probe_negative,
    &rowdef_camera_set_follow_nan,
    &rowdef_camera_look_follow_behind_nan,
    &rowdef_anim_init_nan,
    &rowdef_anim_set_def_huge,
    &rowdef_anim_clip_state_unknown,
    &rowdef_anim_clip_name_long,
    &rowdef_anim_model_lacks_state_unknown,
    &rowdef_anim_update_nan_and_bad_state,
    &rowdef_floating_origin_nan_eye,
    &rowdef_floating_origin_nan_cell,
    &rowdef_pure_names_and_predicates_out_of_range,
    &rowdef_gates_nan_null_and_unknown_state,
    &rowdef_null_objects_everywhere,
    &rowdef_null_objects_the_rest,
    &rowdef_script_def_budget_zero,
    &rowdef_script_def_memory_tiny,
    &rowdef_script_world_file_missing,
    &rowdef_script_world_file_syntax,
    &rowdef_script_world_file_runtime,
    &rowdef_script_world_file_handler_fails,
    &rowdef_script_world_file_binary,
    &rowdef_script_kit_syntax,
    &rowdef_script_kit_not_a_table,
    &rowdef_script_kit_missing,
    &rowdef_script_kit_stale_character,
    &rowdef_script_tuning_nan,
    &rowdef_script_tuning_unknown_key,
    &rowdef_script_tuning_syntax,
    &rowdef_script_tuning_endless,
    &rowdef_script_string_null,
    &rowdef_script_string_runtime,
    &rowdef_script_frame_nan,
    &rowdef_script_before_step_negative,
    &rowdef_replay_garbage,
    &rowdef_replay_nan,
    &rowdef_replay_truncated,
};
#define ROWS ((int)(sizeof rows / sizeof rows[0]))

static void run_row(int i) {
    const row *r = rows[i];
    ctx x;
    fixture(&x);
    observed before, after;
    observe(&x, &before);
    gait_status st = r->fn(&x);
    observe(&x, &after);
    if (r->want == ANY_ERROR) CHECK_MSG(st != GAIT_OK, "%s: answered ok", r->name);
    else CHECK_MSG((int)st == r->want, "%s: answered %s, wanted %s", r->name, gait_status_string(st),
                   gait_status_string((gait_status)r->want));
    const char *msg = r->where == WORLD      ? gait_world_last_error(x.w)
                      : r->where == COLLIDER ? gait_collider_last_error(x.c)
                      : r->where == SCRIPT   ? gait_script_last_error(x.s)
                                             : "(none kept)";
    CHECK_MSG(msg && msg[0], "%s: no message says why", r->name);
    if (getenv("CHECK_VERBOSE")) printf("  %-44s %-18s %s\n", r->name, gait_status_string(st), msg ? msg : "");
    CHECK_MSG(after.hash == before.hash, "%s: the world's state changed", r->name);
    CHECK_MSG(after.revision == before.revision && after.landmarks == before.landmarks,
              "%s: the landmarks changed", r->name);
    CHECK_MSG(after.characters == before.characters, "%s: the characters changed", r->name);
    CHECK_MSG(memcmp(after.terrain, before.terrain, sizeof after.terrain) == 0, "%s: the terrain changed", r->name);
    CHECK_MSG(after.water == before.water && after.surface == before.surface && after.depth == before.depth,
              "%s: the water changed", r->name);
    CHECK_MSG(memcmp(&after.clock, &before.clock, sizeof after.clock) == 0, "%s: the clock changed", r->name);
    CHECK_MSG(memcmp(&after.pool, &before.pool, sizeof after.pool) == 0, "%s: the stamina pool changed", r->name);
    CHECK_MSG(memcmp(&after.camera, &before.camera, sizeof after.camera) == 0, "%s: the camera changed", r->name);
    CHECK_MSG(memcmp(&after.anim, &before.anim, sizeof after.anim) == 0, "%s: the anim signal changed", r->name);
    CHECK_MSG(memcmp(&after.fo, &before.fo, sizeof after.fo) == 0, "%s: the floating origin changed", r->name);
    CHECK_MSG(memcmp(&after.numbers, &before.numbers, sizeof after.numbers) == 0, "%s: the numbers changed", r->name);
    /* and the world still steps */
    gait_input in = {0, 1, 0, 0, 0, 0, GAIT_BUTTON_JUMP};
    CHECK_EQ_INT(gait_character_set_input(x.w, x.a, &in), GAIT_OK);
    CHECK_EQ_INT(gait_world_update(x.w, 1.0 / 30, NULL), GAIT_OK);
    teardown(&x);
}

__attribute__((constructor)) static void register_rows(void) {
    for (int i = 0; i < ROWS; i++) check_register_case(rows[i]->name, run_row, i);
}

TEST(bad_input_table_covers_the_api) {
    /* a census, printed for the report: rows and the public functions they reach */
    printf("  bad-input rows: %d\n", ROWS);
    CHECK(ROWS > 150);
}
