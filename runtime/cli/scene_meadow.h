/* The "meadow" benchmark scene (format meadow-v1, docs/meadow-v1.md): a generator that follows the scene's
 * definition step by step, and a reader/writer of PREFIX.bin (float32 triangles) + PREFIX.json
 * (header). A scene may have no terrain (terrain null, every triangle a level mesh, the header's
 * "bounds" the triangles' box): level.h makes one. Header-only so any one-file benchmark can
 * use it:
 *
 *     #define MEADOW_IMPLEMENTATION
 *     #include "scene_meadow.h"
 *
 * Every function returns 0 on success, -1 with a message in err on failure. No globals. */
#ifndef GAIT_BENCH_MEADOW_H
#define GAIT_BENCH_MEADOW_H

#include <stddef.h>
#include <stdint.h>

typedef struct meadow_scene {
    int num_triangles;          /* terrain first, then 12 per box */
    int num_terrain_triangles;  /* 0 for a level mesh with no terrain */
    float *tris;                /* 9 floats per triangle (ax ay az bx by bz cx cy cz), CCW outside */
    int grid;                   /* terrain vertices per side (257), 0 without terrain */
    double cell;                /* terrain cell (m) */
    float *heights;             /* grid * grid terrain heights, [iz * grid + ix] (NULL without) */
    int num_boxes;
    double *boxes;              /* 7 per box: cx, cz, halfX, halfZ, angleY, y0, y1 */
    double dt, speed, gravity;
    int warmup_steps, timed_steps, repetitions, heading_period;
    double radius, height, half_segment; /* the characters' capsule (m) */
    int num_characters, num_segments;
    double *spawn;              /* 3 per character: feet x, y, z */
    double *headings;           /* num_segments per character (rad) */
    double bounds[6];           /* min x y z, max x y z of every triangle */
    const char *generator;      /* written to the header; NULL: this file's meadow */
    uint32_t seed;              /* the generator's seed (the meadow's: 20240611) */
    int open_mesh;              /* 1: the triangles are no set of closed solids (an imported game
                                   level: only the faces a player can see), so no point can be
                                   told inside solid matter ("openMesh" in the header) */
} meadow_scene;

/* The reference scene with n characters (1000 by default in the spec). */
int meadow_generate(meadow_scene *s, int num_characters, char *err, size_t errcap);
int meadow_write(const meadow_scene *s, const char *prefix, char *err, size_t errcap);
int meadow_read(meadow_scene *s, const char *prefix, char *err, size_t errcap);
void meadow_free(meadow_scene *s);
/* Sets s->bounds from the triangles. */
void meadow_bounds(meadow_scene *s);
/* The scene's motion and characters' capsule (dt, steps, speed, gravity, capsule; the same for
 * every meadow-v1 scene gait writes) for n characters. */
void meadow_motion(meadow_scene *s, int num_characters);
/* Height of the triangulated terrain at (x, z) (same split as the triangles); NaN outside. */
double meadow_terrain_height(const meadow_scene *s, double x, double z);

#endif

/* ============================================================================================ */
#ifdef MEADOW_IMPLEMENTATION
#ifndef MEADOW_IMPLEMENTED
#define MEADOW_IMPLEMENTED

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEADOW_PI 3.14159265358979323846

static int meadow__err(char *err, size_t cap, const char *fmt, ...) {
    if (err && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void meadow_free(meadow_scene *s) {
    free(s->tris);
    free(s->heights);
    free(s->boxes);
    free(s->spawn);
    free(s->headings);
    memset(s, 0, sizeof *s);
}

void meadow_bounds(meadow_scene *s) {
    for (int a = 0; a < 3; a++) {
        s->bounds[a] = INFINITY;
        s->bounds[3 + a] = -INFINITY;
    }
    for (size_t i = 0; i < (size_t)s->num_triangles * 3; i++)
        for (int a = 0; a < 3; a++) {
            double v = s->tris[3 * i + a];
            if (v < s->bounds[a]) s->bounds[a] = v;
            if (v > s->bounds[3 + a]) s->bounds[3 + a] = v;
        }
}

void meadow_motion(meadow_scene *s, int num_characters) {
    s->dt = 1.0 / 60;
    s->warmup_steps = 60;
    s->timed_steps = 600;
    s->repetitions = 3;
    s->heading_period = 120;
    s->speed = 6;
    s->gravity = 9.81;
    s->radius = 0.3;
    s->height = 1.7;
    s->half_segment = (1.7 - 2 * 0.3) / 2;
    s->num_characters = num_characters;
    s->num_segments = (s->warmup_steps + s->timed_steps + s->heading_period - 1) / s->heading_period;
}

double meadow_terrain_height(const meadow_scene *s, double x, double z) {
    int cells = s->grid - 1;
    if (!s->heights || !(x >= 0 && x <= cells * s->cell && z >= 0 && z <= cells * s->cell)) return NAN;
    x /= s->cell;
    z /= s->cell;
    int ix = (int)floor(x), iz = (int)floor(z);
    if (ix > cells - 1) ix = cells - 1;
    if (iz > cells - 1) iz = cells - 1;
    double fx = x - ix, fz = z - iz;
    const float *H = s->heights;
    int g = s->grid;
    double h00 = H[iz * g + ix], h10 = H[iz * g + ix + 1], h01 = H[(iz + 1) * g + ix], h11 = H[(iz + 1) * g + ix + 1];
    if (fz >= fx) return h00 + fz * (h01 - h00) + fx * (h11 - h01);
    return h00 + fx * (h10 - h00) + fz * (h11 - h10);
}

/* ---- generator ------------------------------------------------------------------------- */

/* the scene's LCG: state = state * 1664525 + 1013904223 mod 2^32, rand = state / 2^32 */
static double meadow__rand(uint32_t *st) {
    *st = *st * 1664525u + 1013904223u;
    return *st / 4294967296.0;
}

static void meadow__box_world(const double *b, double lx, double ly, double lz, double out[3]) {
    double c = cos(b[4]), s = sin(b[4]);
    out[0] = b[0] + lx * c + lz * s;
    out[1] = ly;
    out[2] = b[1] - lx * s + lz * c;
}

static int meadow__touches_box(const meadow_scene *s, double x, double z, double margin) {
    for (int i = 0; i < s->num_boxes; i++) {
        const double *b = s->boxes + 7 * i;
        double dx = x - b[0], dz = z - b[1], c = cos(b[4]), sn = sin(b[4]);
        double lx = dx * c - dz * sn, lz = dx * sn + dz * c;
        if (fabs(lx) < b[2] + margin && fabs(lz) < b[3] + margin) return 1;
    }
    return 0;
}

int meadow_generate(meadow_scene *s, int num_characters, char *err, size_t errcap) {
    enum { GRID = 257, BOXES = 400 };
    memset(s, 0, sizeof *s);
    if (num_characters < 1) return meadow__err(err, errcap, "meadow: need at least one character");
    const int cells = GRID - 1;
    s->grid = GRID;
    s->cell = 1;
    s->num_terrain_triangles = cells * cells * 2;
    s->num_boxes = BOXES;
    s->num_triangles = s->num_terrain_triangles + BOXES * 12;
    meadow_motion(s, num_characters);
    s->heights = malloc(sizeof(float) * GRID * GRID);
    s->tris = malloc(sizeof(float) * 9 * (size_t)s->num_triangles);
    s->boxes = malloc(sizeof(double) * 7 * BOXES);
    s->spawn = malloc(sizeof(double) * 3 * (size_t)num_characters);
    s->headings = malloc(sizeof(double) * (size_t)s->num_segments * (size_t)num_characters);
    if (!s->heights || !s->tris || !s->boxes || !s->spawn || !s->headings) {
        meadow_free(s);
        return meadow__err(err, errcap, "meadow: out of memory");
    }
    for (int iz = 0; iz < GRID; iz++)
        for (int ix = 0; ix < GRID; ix++)
            s->heights[iz * GRID + ix] = (float)(4 * sin(0.05 * ix) * cos(0.04 * iz) + 1.5 * sin(0.21 * ix + 0.17 * iz));
    float *t = s->tris;
    for (int iz = 0; iz < cells; iz++)
        for (int ix = 0; ix < cells; ix++) {
            /* cell split along (ix,iz)-(ix+1,iz+1): (p00, p01, p11), (p00, p11, p10) */
            int v[2][3][2] = {{{ix, iz}, {ix, iz + 1}, {ix + 1, iz + 1}}, {{ix, iz}, {ix + 1, iz + 1}, {ix + 1, iz}}};
            for (int k = 0; k < 2; k++)
                for (int j = 0; j < 3; j++) {
                    *t++ = (float)v[k][j][0];
                    *t++ = s->heights[v[k][j][1] * GRID + v[k][j][0]];
                    *t++ = (float)v[k][j][1];
                }
        }
    uint32_t st = 20240611u;
    for (int i = 0; i < BOXES; i++) {
        double *b = s->boxes + 7 * i;
        double cx = 8 + 240 * meadow__rand(&st), cz = 8 + 240 * meadow__rand(&st);
        double w = 1 + 5 * meadow__rand(&st), d = 1 + 5 * meadow__rand(&st);
        double h = 0.5 + 7.5 * meadow__rand(&st), angle = meadow__rand(&st) * 2 * MEADOW_PI;
        b[0] = cx; b[1] = cz; b[2] = w / 2; b[3] = d / 2; b[4] = angle;
        /* lowest terrain point under the footprint, sampled every 0.05 m */
        double min_h = INFINITY;
        int nu = (int)ceil(w / 0.05), nv = (int)ceil(d / 0.05);
        for (int u = 0; u <= nu; u++)
            for (int v = 0; v <= nv; v++) {
                double p[3];
                meadow__box_world(b, -b[2] + (w * u) / nu, 0, -b[3] + (d * v) / nv, p);
                /* the generator clamps the cell index; the footprint stays on the map */
                double x = p[0], z = p[2];
                int ix = (int)floor(x), iz = (int)floor(z);
                ix = ix < 0 ? 0 : ix > cells - 1 ? cells - 1 : ix;
                iz = iz < 0 ? 0 : iz > cells - 1 ? cells - 1 : iz;
                double fx = x - ix, fz = z - iz;
                const float *H = s->heights;
                double h00 = H[iz * GRID + ix], h10 = H[iz * GRID + ix + 1];
                double h01 = H[(iz + 1) * GRID + ix], h11 = H[(iz + 1) * GRID + ix + 1];
                double th = fz >= fx ? h00 + fz * (h01 - h00) + fx * (h11 - h01) : h00 + fx * (h10 - h00) + fz * (h11 - h10);
                if (th < min_h) min_h = th;
            }
        b[5] = min_h - 0.5;
        b[6] = min_h + h;
    }
    for (int i = 0; i < BOXES; i++) {
        const double *b = s->boxes + 7 * i;
        float corner[8][3];
        for (int k = 0; k < 8; k++) {
            double p[3];
            meadow__box_world(b, (k & 1) ? b[2] : -b[2], (k & 2) ? b[6] : b[5], (k & 4) ? b[3] : -b[3], p);
            for (int a = 0; a < 3; a++) corner[k][a] = (float)p[a];
        }
        double centre[3] = {b[0], (b[5] + b[6]) / 2, b[1]};
        static const int faces[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
        for (int f = 0; f < 6; f++) {
            const float *q[4];
            for (int k = 0; k < 4; k++) q[k] = corner[faces[f][k]];
            double out[3];
            for (int a = 0; a < 3; a++) out[a] = (q[0][a] + q[1][a] + q[2][a] + q[3][a]) / 4 - centre[a];
            const float *tri[2][3] = {{q[0], q[1], q[2]}, {q[0], q[2], q[3]}};
            for (int k = 0; k < 2; k++) {
                const float *A = tri[k][0], *B = tri[k][1], *C = tri[k][2];
                double u[3], v[3];
                for (int a = 0; a < 3; a++) { u[a] = B[a] - A[a]; v[a] = C[a] - A[a]; }
                double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
                const float *order[3] = {A, B, C};
                if (n[0] * out[0] + n[1] * out[1] + n[2] * out[2] < 0) { order[1] = C; order[2] = B; }
                for (int j = 0; j < 3; j++)
                    for (int a = 0; a < 3; a++) *t++ = order[j][a];
            }
        }
    }
    /* characters: spawn off the boxes, headings that keep the ideal path on the map */
    for (int i = 0; i < num_characters; i++) {
        double x, z;
        for (;;) {
            x = 16 + 224 * meadow__rand(&st);
            z = 16 + 224 * meadow__rand(&st);
            if (!meadow__touches_box(s, x, z, s->radius + 0.2)) break;
        }
        s->spawn[3 * i] = x;
        s->spawn[3 * i + 1] = meadow_terrain_height(s, x, z) + 0.5;
        s->spawn[3 * i + 2] = z;
        double px = x, pz = z;
        int total = s->warmup_steps + s->timed_steps;
        for (int g = 0; g < s->num_segments; g++) {
            int steps = total - g * s->heading_period;
            if (steps > s->heading_period) steps = s->heading_period;
            double len = s->speed * s->dt * steps, a = 0;
            int found = 0;
            for (int tries = 0; tries < 16; tries++) {
                a = meadow__rand(&st) * 2 * MEADOW_PI;
                double ex = px + cos(a) * len, ez = pz + sin(a) * len;
                if (ex >= 12 && ex <= 244 && ez >= 12 && ez <= 244) { found = 1; break; }
            }
            if (!found) a = atan2(128 - pz, 128 - px);
            s->headings[i * s->num_segments + g] = a;
            px += cos(a) * len;
            pz += sin(a) * len;
        }
    }
    meadow_bounds(s);
    return 0;
}

/* ---- writer ------------------------------------------------------------------------------ */

static void meadow__array(FILE *f, const char *key, const double *v, size_t n) {
    fprintf(f, ",\"%s\":[", key);
    for (size_t i = 0; i < n; i++) fprintf(f, i ? ",%.17g" : "%.17g", v[i]);
    fputc(']', f);
}

int meadow_write(const meadow_scene *s, const char *prefix, char *err, size_t errcap) {
    char path[4096];
    snprintf(path, sizeof path, "%s.bin", prefix);
    FILE *f = fopen(path, "wb");
    if (!f) return meadow__err(err, errcap, "meadow: cannot write %s", path);
    size_t n = (size_t)s->num_triangles * 9;
    /* float32 little-endian: this code runs on little-endian hosts (x86_64, arm64) */
    if (fwrite(s->tris, sizeof(float), n, f) != n) { fclose(f); return meadow__err(err, errcap, "meadow: short write %s", path); }
    fclose(f);
    snprintf(path, sizeof path, "%s.json", prefix);
    f = fopen(path, "w");
    if (!f) return meadow__err(err, errcap, "meadow: cannot write %s", path);
    const char *base = strrchr(prefix, '/');
    base = base ? base + 1 : prefix;
    fprintf(f, "{\"format\":\"meadow-v1\",\"generator\":\"%s\",\"seed\":%u,"
               "\"trianglesFile\":\"%s.bin\",\"numTriangles\":%d,\"numTerrainTriangles\":%d,\"numBoxTriangles\":%d,",
            s->generator ? s->generator : "gait runtime/cli/scene_meadow.h", s->generator ? (unsigned)s->seed : 20240611u,
            base, s->num_triangles, s->num_terrain_triangles, s->num_boxes * 12);
    if (s->grid)
        fprintf(f, "\"terrain\":{\"grid\":%d,\"cell\":%.17g,\"formula\":\"y = 4*sin(0.05*x)*cos(0.04*z) + 1.5*sin(0.21*x + 0.17*z)\","
                   "\"diagonal\":\"(ix,iz)-(ix+1,iz+1)\"},", s->grid, s->cell);
    else
        fprintf(f, "\"terrain\":null,\"bounds\":[%.9g,%.9g,%.9g,%.9g,%.9g,%.9g],", s->bounds[0], s->bounds[1],
                s->bounds[2], s->bounds[3], s->bounds[4], s->bounds[5]);
    if (s->open_mesh) fputs("\"openMesh\":true,", f);
    fprintf(f, "\"numBoxes\":%d", s->num_boxes);
    meadow__array(f, "boxes", s->boxes, (size_t)s->num_boxes * 7);
    fprintf(f, ",\"dt\":%.17g,\"warmupSteps\":%d,\"timedSteps\":%d,\"repetitions\":%d,\"headingPeriod\":%d,"
               "\"speed\":%.17g,\"gravity\":%.17g,\"capsule\":{\"radius\":%.17g,\"height\":%.17g,\"halfSegment\":%.17g},"
               "\"numCharacters\":%d,\"numSegments\":%d",
            s->dt, s->warmup_steps, s->timed_steps, s->repetitions, s->heading_period, s->speed, s->gravity,
            s->radius, s->height, s->half_segment, s->num_characters, s->num_segments);
    meadow__array(f, "spawn", s->spawn, (size_t)s->num_characters * 3);
    meadow__array(f, "headings", s->headings, (size_t)s->num_characters * (size_t)s->num_segments);
    fputs("}\n", f);
    int bad = ferror(f);
    fclose(f);
    return bad ? meadow__err(err, errcap, "meadow: write error %s", path) : 0;
}

/* ---- reader: a small JSON walker (objects, arrays, numbers, strings, literals) ----------- */

static const char *meadow__ws(const char *p) {
    while (*p && isspace((unsigned char)*p)) p++;
    return p;
}

/* Past the value at p; NULL when malformed. */
static const char *meadow__skip(const char *p, int depth) {
    p = meadow__ws(p);
    if (depth > 64) return NULL;
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1]) p++;
        return *p == '"' ? p + 1 : NULL;
    }
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = meadow__ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (close == '}') {
                p = meadow__skip(p, depth + 1); /* key */
                if (!p) return NULL;
                p = meadow__ws(p);
                if (*p != ':') return NULL;
                p++;
            }
            p = meadow__skip(p, depth + 1);
            if (!p) return NULL;
            p = meadow__ws(p);
            if (*p == ',') { p++; continue; }
            return *p == close ? p + 1 : NULL;
        }
    }
    if (*p == '-' || isdigit((unsigned char)*p)) {
        char *end;
        strtod(p, &end);
        return end > p ? end : NULL;
    }
    if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    return NULL;
}

/* The value of member `key` of the object at p; NULL when absent or malformed. */
static const char *meadow__member(const char *p, const char *key) {
    p = meadow__ws(p);
    if (*p != '{') return NULL;
    p = meadow__ws(p + 1);
    size_t kl = strlen(key);
    while (*p == '"') {
        const char *k = p + 1;
        const char *after = meadow__skip(p, 0);
        if (!after) return NULL;
        int match = (size_t)(after - 1 - k) == kl && !strncmp(k, key, kl);
        p = meadow__ws(after);
        if (*p != ':') return NULL;
        p = meadow__ws(p + 1);
        if (match) return p;
        p = meadow__skip(p, 0);
        if (!p) return NULL;
        p = meadow__ws(p);
        if (*p != ',') return NULL;
        p = meadow__ws(p + 1);
    }
    return NULL;
}

static int meadow__num(const char *obj, const char *key, double *out) {
    const char *v = meadow__member(obj, key);
    if (!v) return -1;
    char *end;
    *out = strtod(v, &end);
    return end > v ? 0 : -1;
}

/* A numeric array of exactly n entries into a new buffer. */
static double *meadow__nums(const char *obj, const char *key, size_t n) {
    const char *p = meadow__member(obj, key);
    if (!p || *p != '[') return NULL;
    double *out = malloc(sizeof(double) * (n ? n : 1));
    if (!out) return NULL;
    p = meadow__ws(p + 1);
    size_t i = 0;
    while (*p != ']') {
        char *end;
        double v = strtod(p, &end);
        if (end == p || i >= n) { free(out); return NULL; }
        out[i++] = v;
        p = meadow__ws(end);
        if (*p == ',') p = meadow__ws(p + 1);
        else if (*p != ']') { free(out); return NULL; }
    }
    if (i != n) { free(out); return NULL; }
    return out;
}

static char *meadow__slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    if (buf) { buf[n] = 0; *len = (size_t)n; }
    return buf;
}

int meadow_read(meadow_scene *s, const char *prefix, char *err, size_t errcap) {
    memset(s, 0, sizeof *s);
    char path[4096];
    size_t len;
    snprintf(path, sizeof path, "%s.json", prefix);
    char *js = meadow__slurp(path, &len);
    if (!js) return meadow__err(err, errcap, "meadow: cannot read %s", path);
    int rc = -1;
    const char *fmt = meadow__member(js, "format");
    double v;
#define NUM(key, dst, conv)                                                                        \
    do {                                                                                       \
        if (meadow__num(js, key, &v)) { meadow__err(err, errcap, "meadow: %s: missing or bad \"%s\"", path, key); goto done; } \
        dst = conv v;                                                                          \
    } while (0)
    if (!fmt || strncmp(fmt, "\"meadow-v1\"", 11)) { meadow__err(err, errcap, "meadow: %s: not format meadow-v1", path); goto done; }
    NUM("numTriangles", s->num_triangles, (int));
    NUM("numTerrainTriangles", s->num_terrain_triangles, (int));
    NUM("numBoxes", s->num_boxes, (int));
    NUM("dt", s->dt, );
    NUM("warmupSteps", s->warmup_steps, (int));
    NUM("timedSteps", s->timed_steps, (int));
    NUM("repetitions", s->repetitions, (int));
    NUM("headingPeriod", s->heading_period, (int));
    NUM("speed", s->speed, );
    NUM("gravity", s->gravity, );
    NUM("numCharacters", s->num_characters, (int));
    NUM("numSegments", s->num_segments, (int));
#undef NUM
    {
        const char *om = meadow__member(js, "openMesh");
        s->open_mesh = om && !strncmp(om, "true", 4);
    }
    const char *cap = meadow__member(js, "capsule");
    if (!cap || meadow__num(cap, "radius", &s->radius) || meadow__num(cap, "height", &s->height) ||
        meadow__num(cap, "halfSegment", &s->half_segment)) {
        meadow__err(err, errcap, "meadow: %s: missing or bad \"capsule\"", path);
        goto done;
    }
    if (s->num_triangles <= 0 || s->num_terrain_triangles < 0 || s->num_terrain_triangles > s->num_triangles ||
        s->num_boxes < 0 || s->num_characters < 0 || s->num_segments < 0) {
        meadow__err(err, errcap, "meadow: %s: inconsistent counts", path);
        goto done;
    }
    const char *ter = meadow__member(js, "terrain");
    if (ter && *ter == '{') {
        double g, c;
        if (meadow__num(ter, "grid", &g) || meadow__num(ter, "cell", &c) || g < 2 || !(c > 0)) {
            meadow__err(err, errcap, "meadow: %s: bad \"terrain\"", path);
            goto done;
        }
        s->grid = (int)g;
        s->cell = c;
    }
    s->boxes = meadow__nums(js, "boxes", (size_t)s->num_boxes * 7);
    s->spawn = meadow__nums(js, "spawn", (size_t)s->num_characters * 3);
    s->headings = meadow__nums(js, "headings", (size_t)s->num_characters * (size_t)s->num_segments);
    if (!s->boxes || !s->spawn || !s->headings) {
        meadow__err(err, errcap, "meadow: %s: \"boxes\", \"spawn\" or \"headings\" missing or of the wrong length", path);
        goto done;
    }
    snprintf(path, sizeof path, "%s.bin", prefix);
    char *bin = meadow__slurp(path, &len);
    if (!bin) { meadow__err(err, errcap, "meadow: cannot read %s", path); goto done; }
    if (len != (size_t)s->num_triangles * 36) {
        free(bin);
        meadow__err(err, errcap, "meadow: %s has %zu bytes, the header says %d triangles", path, len, s->num_triangles);
        goto done;
    }
    s->tris = (float *)(void *)bin; /* malloc'd: aligned for float */
    meadow_bounds(s); /* the header's "bounds" is the same box, informative */
    if (s->grid) {
        /* the terrain's vertex heights, read back from its triangles (vertices on the grid) */
        s->heights = calloc((size_t)s->grid * (size_t)s->grid, sizeof(float));
        if (!s->heights) { meadow__err(err, errcap, "meadow: out of memory"); goto done; }
        for (int t = 0; t < s->num_terrain_triangles; t++)
            for (int k = 0; k < 3; k++) {
                const float *p = s->tris + 9 * t + 3 * k;
                long ix = lround(p[0] / s->cell), iz = lround(p[2] / s->cell);
                if (ix >= 0 && iz >= 0 && ix < s->grid && iz < s->grid) s->heights[iz * s->grid + ix] = p[1];
            }
    }
    rc = 0;
done:
    free(js);
    if (rc) meadow_free(s);
    return rc;
}

#endif
#endif
