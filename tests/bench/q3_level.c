/* Writes a benchmark scene (format meadow-v1, docs/meadow-v1.md) from a Quake III Arena map: a real
 * game's level, made by people who never saw gait, for `gait bench` and the peers' harnesses.
 *   build/bench/q3_level --bsp FILE.bsp [--chars N] [--scale S] [--tess L] [--seed S] [--out PREFIX]
 * FILE.bsp is an IBSP version 46 map (Quake III Arena, OpenArena: the .bsp inside a .pk3, which is
 * a zip; scripts/bench_levels.sh takes them out of Debian's openarena-081-maps).
 *
 * What is kept: the world's faces (model 0) whose shader is solid to a player: polygons and meshes
 * as their triangles, curved patches tessellated L x L a section (biquadratic Bezier, --tess,
 * default 4). Billboards, fog, water, lava, slime and non-solid shaders are left out, as are the
 * doors and platforms (models past 0). Each triangle is wound so its normal agrees with the
 * face's (polygons) or its vertices' normals (meshes, patches): out of the solid, as meadow-v1
 * asks. The map's z-up units become y-up metres: (x, y, z) -> scale (x, z, -y), scale 0.03 by
 * default (Quake III's player, 56 units tall, is then 1.7 m: the benchmark's capsule).
 *
 * The players: the map's own starts (info_player_deathmatch, info_player_start, the CTF spawns)
 * first, dropped onto the floor under them; then points drawn on walkable faces (area-weighted,
 * no sky), each kept only where a capsule a little larger than the benchmark's stands clear and
 * 2.5 m of head room is free, all through gait's collider. The feet start 0.5 m over the floor,
 * as on the meadow. A Quake III map is no set of closed solids (the faces of its brushes only
 * where they can be seen), so the scene says "openMesh": the benchmark's inside-solid count does
 * not apply to it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gait/gait.h"

#define MEADOW_IMPLEMENTATION
#include "scene_meadow.h"

#define MAX_FILE (256u << 20)
#define LUMPS 17
#define L_ENTITIES 0
#define L_SHADERS 1
#define L_MODELS 7
#define L_VERTS 10
#define L_MESHVERTS 11
#define L_FACES 13

#define CONTENTS_SOLID 0x1
#define CONTENTS_LAVA 0x8
#define CONTENTS_SLIME 0x10
#define CONTENTS_WATER 0x20
#define CONTENTS_FOG 0x40
#define CONTENTS_PLAYERCLIP 0x10000
#define SURF_SKY 0x4
#define SURF_NONSOLID 0x4000

typedef struct bsp {
    const unsigned char *data;
    size_t size;
    uint32_t off[LUMPS], len[LUMPS];
} bsp;

static int32_t rd_i32(const unsigned char *p) {
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    int32_t s;
    memcpy(&s, &v, sizeof s);
    return s;
}

static float rd_f32(const unsigned char *p) {
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}

/* a lump's records of `size` bytes: their count, or -1 when the lump lies outside the file */
static long lump_count(const bsp *b, int lump, size_t size) {
    if ((size_t)b->off[lump] > b->size || (size_t)b->len[lump] > b->size - b->off[lump]) return -1;
    return (long)(b->len[lump] / size);
}

static const unsigned char *rec(const bsp *b, int lump, size_t size, long i) {
    return b->data + b->off[lump] + (size_t)i * size;
}

/* ---- the triangles ------------------------------------------------------------------------ */

typedef struct tri_buf {
    float *t;          /* 9 a triangle, y up, metres */
    unsigned char *sky;/* 1 for a sky face's triangle (never a floor to spawn on) */
    int n, cap;
    bool oom;
} tri_buf;

typedef struct vtx {
    double p[3], n[3]; /* the map's frame (z up), units */
} vtx;

static void to_scene(const double *q, double scale, float *out) {
    out[0] = (float)(scale * q[0]);
    out[1] = (float)(scale * q[2]);
    out[2] = (float)(-scale * q[1]);
}

/* One triangle a, b, c (the map's frame), wound so its normal agrees with `want`. */
static void add_tri(tri_buf *tb, const double *a, const double *b, const double *c, const double *want,
                    double scale, bool sky) {
    double e1[3], e2[3], n[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = b[k] - a[k];
        e2[k] = c[k] - a[k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double area2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (!(area2 > 1e-12) || !isfinite(area2)) return; /* degenerate: no face to meet */
    if (tb->n == tb->cap) {
        int cap = tb->cap ? 2 * tb->cap : 4096;
        float *t = realloc(tb->t, sizeof(float) * 9 * (size_t)cap);
        if (!t) { tb->oom = true; return; }
        tb->t = t;
        unsigned char *s = realloc(tb->sky, (size_t)cap);
        if (!s) { tb->oom = true; return; }
        tb->sky = s;
        tb->cap = cap;
    }
    bool flip = n[0] * want[0] + n[1] * want[1] + n[2] * want[2] < 0;
    float *o = tb->t + 9 * (size_t)tb->n;
    to_scene(a, scale, o);
    to_scene(flip ? c : b, scale, o + 3);
    to_scene(flip ? b : c, scale, o + 6);
    tb->sky[tb->n] = sky;
    tb->n++;
}

static vtx vertex_at(const bsp *b, long i) {
    const unsigned char *r = rec(b, L_VERTS, 44, i);
    vtx v;
    for (int k = 0; k < 3; k++) {
        v.p[k] = rd_f32(r + 4 * k);
        v.n[k] = rd_f32(r + 28 + 4 * k);
    }
    return v;
}

/* the biquadratic Bezier section of 3 x 3 control points c (row-major) at (u, v) */
static vtx bezier(const vtx c[9], double u, double v) {
    double bu[3] = {(1 - u) * (1 - u), 2 * u * (1 - u), u * u};
    double bv[3] = {(1 - v) * (1 - v), 2 * v * (1 - v), v * v};
    vtx o;
    memset(&o, 0, sizeof o);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                o.p[k] += bu[i] * bv[j] * c[3 * j + i].p[k];
                o.n[k] += bu[i] * bv[j] * c[3 * j + i].n[k];
            }
    return o;
}

static void add_patch(tri_buf *tb, const bsp *b, long first, int w, int h, int tess, double scale, bool sky) {
    enum { MAXL = 16 };
    vtx g[(MAXL + 1) * (MAXL + 1)];
    for (int sy = 0; sy + 2 < h; sy += 2)
        for (int sx = 0; sx + 2 < w; sx += 2) {
            vtx c[9];
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++) c[3 * j + i] = vertex_at(b, first + (long)(sy + j) * w + sx + i);
            for (int j = 0; j <= tess; j++)
                for (int i = 0; i <= tess; i++) g[j * (tess + 1) + i] = bezier(c, (double)i / tess, (double)j / tess);
            for (int j = 0; j < tess; j++)
                for (int i = 0; i < tess; i++) {
                    const vtx *q00 = &g[j * (tess + 1) + i], *q10 = q00 + 1, *q01 = q00 + tess + 1, *q11 = q01 + 1;
                    double w1[3], w2[3];
                    for (int k = 0; k < 3; k++) {
                        w1[k] = q00->n[k] + q10->n[k] + q11->n[k];
                        w2[k] = q00->n[k] + q11->n[k] + q01->n[k];
                    }
                    add_tri(tb, q00->p, q10->p, q11->p, w1, scale, sky);
                    add_tri(tb, q00->p, q11->p, q01->p, w2, scale, sky);
                }
        }
}

static int read_faces(const bsp *b, tri_buf *tb, double scale, int tess, char *err, size_t cap) {
    long nshaders = lump_count(b, L_SHADERS, 72), nmodels = lump_count(b, L_MODELS, 40);
    long nverts = lump_count(b, L_VERTS, 44), nmv = lump_count(b, L_MESHVERTS, 4);
    long nfaces = lump_count(b, L_FACES, 104);
    if (nshaders < 0 || nmodels < 1 || nverts < 0 || nmv < 0 || nfaces < 0)
        return snprintf(err, cap, "a lump lies outside the file (or no world model)"), -1;
    const unsigned char *m0 = rec(b, L_MODELS, 40, 0);
    long f0 = rd_i32(m0 + 24), fn = rd_i32(m0 + 28);
    if (f0 < 0 || fn < 0 || f0 > nfaces || fn > nfaces - f0)
        return snprintf(err, cap, "the world model's faces lie outside the face lump"), -1;
    for (long fi = f0; fi < f0 + fn; fi++) {
        const unsigned char *f = rec(b, L_FACES, 104, fi);
        long shader = rd_i32(f), type = rd_i32(f + 8), v0 = rd_i32(f + 12), vn = rd_i32(f + 16);
        long mv0 = rd_i32(f + 20), mvn = rd_i32(f + 24);
        if (shader < 0 || shader >= nshaders) continue;
        const unsigned char *sh = rec(b, L_SHADERS, 72, shader);
        uint32_t flags = (uint32_t)rd_i32(sh + 64), contents = (uint32_t)rd_i32(sh + 68);
        if (flags & SURF_NONSOLID) continue;
        if (contents & (CONTENTS_LAVA | CONTENTS_SLIME | CONTENTS_WATER | CONTENTS_FOG)) continue;
        if (!(contents & (CONTENTS_SOLID | CONTENTS_PLAYERCLIP))) continue;
        bool sky = (flags & SURF_SKY) != 0;
        if (v0 < 0 || vn < 0 || v0 > nverts || vn > nverts - v0) continue;
        if (type == 1 || type == 3) {
            if (mv0 < 0 || mvn < 0 || mv0 > nmv || mvn > nmv - mv0) continue;
            double fnrm[3] = {rd_f32(f + 84), rd_f32(f + 88), rd_f32(f + 92)};
            for (long k = 0; k + 2 < mvn; k += 3) {
                long i[3];
                bool ok = true;
                for (int c = 0; c < 3; c++) {
                    i[c] = rd_i32(rec(b, L_MESHVERTS, 4, mv0 + k + c));
                    ok = ok && i[c] >= 0 && i[c] < vn;
                }
                if (!ok) continue;
                vtx a = vertex_at(b, v0 + i[0]), bb = vertex_at(b, v0 + i[1]), c = vertex_at(b, v0 + i[2]);
                double want[3];
                for (int q = 0; q < 3; q++) want[q] = type == 1 ? fnrm[q] : a.n[q] + bb.n[q] + c.n[q];
                add_tri(tb, a.p, bb.p, c.p, want, scale, sky);
            }
        } else if (type == 2) {
            int w = rd_i32(f + 96), h = rd_i32(f + 100); /* size[2], after the normal */
            if (w < 3 || h < 3 || !(w & 1) || !(h & 1) || (long)w * h != vn) continue;
            add_patch(tb, b, v0, w, h, tess, scale, sky);
        }
        if (tb->oom) return snprintf(err, cap, "out of memory"), -1;
    }
    if (tb->n == 0) return snprintf(err, cap, "no solid face in the world model"), -1;
    return 0;
}

/* ---- the players ------------------------------------------------------------------------- */

/* The map's starts: each "origin" of an entity whose classname is a player start (the map's frame). */
static int read_starts(const bsp *b, double *out, int cap) {
    long len = lump_count(b, L_ENTITIES, 1);
    if (len <= 0) return 0;
    const char *p = (const char *)rec(b, L_ENTITIES, 1, 0), *end = p + len;
    int n = 0;
    char cls[96], org[96];
    while (p < end && n < cap) {
        while (p < end && *p != '{') p++;
        if (p >= end) break;
        cls[0] = org[0] = 0;
        p++;
        while (p < end && *p != '}') {
            char key[64], val[96];
            for (int f = 0; f < 2; f++) {
                char *dst = f ? val : key;
                size_t dcap = f ? sizeof val : sizeof key, k = 0;
                while (p < end && *p != '"' && *p != '}') p++;
                if (p >= end || *p == '}') { dst[0] = 0; break; }
                p++;
                while (p < end && *p != '"') {
                    if (k + 1 < dcap) dst[k++] = *p;
                    p++;
                }
                dst[k] = 0;
                if (p < end) p++;
            }
            if (!strcmp(key, "classname")) snprintf(cls, sizeof cls, "%s", val);
            else if (!strcmp(key, "origin")) snprintf(org, sizeof org, "%s", val);
        }
        bool start = !strcmp(cls, "info_player_deathmatch") || !strcmp(cls, "info_player_start") ||
                     !strncmp(cls, "team_CTF_", 9);
        double x, y, z;
        if (start && strstr(cls, "flag") == NULL && sscanf(org, "%lf %lf %lf", &x, &y, &z) == 3 &&
            isfinite(x + y + z)) {
            out[3 * n] = x;
            out[3 * n + 1] = y;
            out[3 * n + 2] = z;
            n++;
        }
    }
    return n;
}

static double rnd(uint32_t *st) {
    *st = *st * 1664525u + 1013904223u;
    return *st / 4294967296.0;
}

/* Feet at f stand clear: a capsule 0.1 m wider and 0.2 m taller than the benchmark's overlaps
 * nothing, and 2.5 m over the feet is free. */
static bool clear_at(gait_collider *c, const meadow_scene *s, gait_vec3 f) {
    double r = s->radius + 0.1;
    gait_capsule cap = {{f.x, f.y + r + 0.05, f.z}, {f.x, f.y + s->height + 0.15 - r, f.z}, r};
    gait_contact_point cp[4];
    bool more = false;
    if (gait_collider_capsule_overlap(c, &cap, NULL, cp, 4, &more) != 0 || more) return false;
    gait_hit hit;
    return !gait_collider_ray_cast(c, f, (gait_vec3){0, 2.5, 0}, NULL, &hit);
}

/* The floor under p within `drop` (m): walkable (normal y >= cos 45 deg), its height in *y. */
static bool floor_under(gait_collider *c, gait_vec3 p, double drop, double *y) {
    gait_hit hit;
    if (!gait_collider_ray_cast(c, p, (gait_vec3){0, -drop, 0}, NULL, &hit)) return false;
    if (hit.normal.y < 0.7071) return false;
    *y = hit.point.y;
    return true;
}

static int place_players(meadow_scene *s, const tri_buf *tb, const bsp *b, double scale, uint32_t seed,
                         int *from_map, char *err, size_t cap) {
    gait_collider_def cd = gait_default_collider_def();
    gait_collider *c = gait_collider_create(&cd);
    if (!c) return snprintf(err, cap, "cannot create a collider"), -1;
    /* the map's triangles as given: where the players stand does not hang on how a collider
     * stores them (merged coplanar pieces put a floor's height off by a few µm) */
    gait_mesh_def def = {.positions = tb->t, .vertex_count = 3 * tb->n, .indices = NULL,
                         .triangle_count = tb->n, .offset = {0, 0, 0}, .name = "level",
                         .keep_triangles = true};
    gait_landmark_id id;
    if (gait_collider_add_landmark(c, &def, &id) != GAIT_OK) {
        snprintf(err, cap, "the collider refused the level: %s", gait_collider_last_error(c));
        gait_collider_destroy(c);
        return -1;
    }
    int n = 0;
    uint32_t st = seed;
    /* the map's own starts, onto the floor under them */
    double starts[3 * 256];
    int ns = read_starts(b, starts, 256);
    for (int i = 0; i < ns && n < s->num_characters; i++) {
        double q[3] = {starts[3 * i], starts[3 * i + 1], starts[3 * i + 2]};
        float p[3];
        to_scene(q, scale, p);
        double y;
        gait_vec3 at = {p[0], p[1], p[2]};
        if (!floor_under(c, at, 4.0, &y)) continue;
        gait_vec3 f = {p[0], y + 0.5, p[2]};
        if (!clear_at(c, s, f)) continue;
        s->spawn[3 * n] = f.x;
        s->spawn[3 * n + 1] = f.y;
        s->spawn[3 * n + 2] = f.z;
        n++;
    }
    *from_map = n;
    /* then points on walkable faces, area-weighted */
    double *cum = malloc(sizeof(double) * (size_t)tb->n);
    if (!cum) {
        gait_collider_destroy(c);
        return snprintf(err, cap, "out of memory"), -1;
    }
    double total = 0;
    for (int t = 0; t < tb->n; t++) {
        const float *v = tb->t + 9 * (size_t)t;
        double e1[3], e2[3];
        for (int k = 0; k < 3; k++) {
            e1[k] = v[3 + k] - v[k];
            e2[k] = v[6 + k] - v[k];
        }
        double nx = e1[1] * e2[2] - e1[2] * e2[1], ny = e1[2] * e2[0] - e1[0] * e2[2],
               nz = e1[0] * e2[1] - e1[1] * e2[0], l = sqrt(nx * nx + ny * ny + nz * nz);
        if (!tb->sky[t] && l > 0 && ny / l >= 0.7071) total += 0.5 * l;
        cum[t] = total;
    }
    long tries = 0;
    while (n < s->num_characters && total > 0 && tries < 200L * s->num_characters + 100000) {
        tries++;
        double u = rnd(&st) * total;
        int lo = 0, hi = tb->n - 1;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (cum[mid] > u) hi = mid;
            else lo = mid + 1;
        }
        const float *v = tb->t + 9 * (size_t)lo;
        double a = rnd(&st), bb = rnd(&st);
        if (a + bb > 1) { a = 1 - a; bb = 1 - bb; }
        gait_vec3 p = {v[0] + a * (v[3] - v[0]) + bb * (v[6] - v[0]), v[1] + a * (v[4] - v[1]) + bb * (v[7] - v[1]),
                       v[2] + a * (v[5] - v[2]) + bb * (v[8] - v[2])};
        double y;
        gait_vec3 over = {p.x, p.y + 0.3, p.z};
        if (!floor_under(c, over, 0.6, &y)) continue; /* another face over this one */
        gait_vec3 f = {p.x, y + 0.5, p.z};
        if (!clear_at(c, s, f)) continue;
        s->spawn[3 * n] = f.x;
        s->spawn[3 * n + 1] = f.y;
        s->spawn[3 * n + 2] = f.z;
        n++;
    }
    free(cum);
    gait_collider_destroy(c);
    if (n < s->num_characters)
        return snprintf(err, cap, "only %d of %d players found clear floor", n, s->num_characters), -1;
    for (int i = 0; i < s->num_characters; i++)
        for (int g = 0; g < s->num_segments; g++)
            s->headings[(size_t)i * (size_t)s->num_segments + (size_t)g] = rnd(&st) * 2 * MEADOW_PI;
    return 0;
}

static int usage(const char *me) {
    fprintf(stderr, "usage: %s --bsp FILE.bsp [--chars N] [--scale S] [--tess L] [--seed S] [--out PREFIX]\n", me);
    return 2;
}

int main(int argc, char **argv) {
    const char *path = NULL, *out = "q3level";
    int chars = 1000, tess = 4;
    double scale = 0.03;
    unsigned long seed = 20240611;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bsp") && i + 1 < argc) path = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--chars") && i + 1 < argc) chars = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tess") && i + 1 < argc) tess = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc) scale = atof(argv[++i]);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoul(argv[++i], NULL, 10);
        else return usage(argv[0]);
    }
    if (!path) return usage(argv[0]);
    if (chars < 1 || chars > 100000 || tess < 1 || tess > 16 || !(scale > 0) || !isfinite(scale)) {
        fprintf(stderr, "q3_level: --chars 1..100000, --tess 1..16, --scale > 0\n");
        return 2;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "q3_level: cannot open %s\n", path);
        return 1;
    }
    unsigned char *data = malloc(MAX_FILE);
    size_t size = data ? fread(data, 1, MAX_FILE, f) : 0;
    fclose(f);
    bsp b;
    memset(&b, 0, sizeof b);
    b.data = data;
    b.size = size;
    if (!data || size < 8 + 8 * LUMPS || memcmp(data, "IBSP", 4) || rd_i32(data + 4) != 46) {
        fprintf(stderr, "q3_level: %s: not a Quake III map (IBSP version 46)\n", path);
        free(data);
        return 1;
    }
    for (int l = 0; l < LUMPS; l++) {
        b.off[l] = (uint32_t)rd_i32(data + 8 + 8 * l);
        b.len[l] = (uint32_t)rd_i32(data + 12 + 8 * l);
    }
    char err[256];
    tri_buf tb;
    memset(&tb, 0, sizeof tb);
    meadow_scene s;
    memset(&s, 0, sizeof s);
    int from_map = 0;
    int rc = read_faces(&b, &tb, scale, tess, err, sizeof err);
    if (!rc) {
        s.num_triangles = tb.n;
        s.tris = tb.t;
        tb.t = NULL;
        meadow_motion(&s, chars);
        s.spawn = malloc(sizeof(double) * 3 * (size_t)chars);
        s.headings = malloc(sizeof(double) * (size_t)s.num_segments * (size_t)chars);
        s.boxes = malloc(sizeof(double));
        if (!s.spawn || !s.headings || !s.boxes) {
            snprintf(err, sizeof err, "out of memory");
            rc = -1;
        }
    }
    if (!rc) {
        /* the collider reads the triangles from s.tris */
        tb.t = s.tris;
        rc = place_players(&s, &tb, &b, scale, (uint32_t)seed, &from_map, err, sizeof err);
        tb.t = NULL;
    }
    if (!rc) {
        meadow_bounds(&s);
        s.generator = "gait tests/bench/q3_level.c";
        s.seed = (uint32_t)seed;
        s.open_mesh = 1;
        if (meadow_write(&s, out, err, sizeof err)) rc = -1;
    }
    if (rc) fprintf(stderr, "q3_level: %s: %s\n", path, err);
    else
        printf("wrote %s.bin (%d triangles) and %s.json (%d players: %d at the map's starts); "
               "bounds %.1f..%.1f x %.1f..%.1f y %.1f..%.1f z (m)\n",
               out, s.num_triangles, out, chars, from_map, s.bounds[0], s.bounds[3], s.bounds[1], s.bounds[4],
               s.bounds[2], s.bounds[5]);
    free(tb.t);
    free(tb.sky);
    meadow_free(&s);
    free(data);
    return rc ? 1 : 0;
}
