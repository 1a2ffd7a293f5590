/* The collision world's state: create/destroy, terrain heightfield (and PNG heightmaps), water,
 * and landmarks (validation, edge flags, coincident groups, ids; the BVH is collide_bvh.c's).
 * Queries are in collide_query.c, the per-triangle kernels in collide_geom.c. */
#include "collide_internal.h"
#include "collide_lock.h"
#include "gait/file.h"

#include <float.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <stb_image.h>

#define DEG2RAD(d) ((d) * 3.14159265358979323846 / 180.0)

static gait_status fail(gait_collider *c, gait_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static gait_status fail(gait_collider *c, gait_status st, const char *fmt, ...) {
    /* one formatted message kept on the collider and sent to the log hook */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    gait__logf(&c->hooks, GAIT_LOG_WARN, "collide: %s", c->err);
    return st;
}

static void ok(gait_collider *c) { c->err[0] = '\0'; }

void gait__collider_lock(gait_collider *c, bool locked) {
    if (c) c->locked = locked;
}

gait_status gait__collider_locked(gait_collider *c, const char *what) {
    return fail(c, GAIT_ERR_LOCKED, "%s: refused while the world steps (called from a hook)", what);
}

gait_collider_def gait_default_collider_def(void) {
    gait_collider_def d;
    memset(&d, 0, sizeof d);
    d.max_landmarks = 4096;
    d.walkable_slope = DEG2RAD(50.0);
    d.ceiling_slope = DEG2RAD(60.0);
    d.sweep_skin = 0.002;
    return d;
}

gait_collider *gait_collider_create(const gait_collider_def *def) {
    gait_collider_def d = def ? *def : gait_default_collider_def();
    gait_hooks h = d.hooks;
    gait__hooks_resolve(&h);
    const double half_pi = 1.57079632679489661923;
    const char *bad = NULL;
    if (d.max_landmarks < 1 || d.max_landmarks > (1 << 20)) bad = "max_landmarks outside 1..1<<20";
    else if (!(d.walkable_slope > 0 && d.walkable_slope < half_pi)) bad = "walkable_slope outside (0, pi/2)";
    else if (!(d.ceiling_slope > 0 && d.ceiling_slope < half_pi)) bad = "ceiling_slope outside (0, pi/2)";
    else if (!(d.sweep_skin >= 0 && d.sweep_skin <= 0.1)) bad = "sweep_skin outside [0, 0.1]";
    if (bad) {
        gait__logf(&h, GAIT_LOG_ERROR, "gait_collider_create: %s", bad);
        return NULL;
    }
    gait_collider *c = gait__alloc(&h, sizeof *c);
    if (!c) {
        gait__logf(&h, GAIT_LOG_ERROR, "gait_collider_create: out of memory");
        return NULL;
    }
    c->hooks = h;
    c->def = d;
    c->def.hooks = h;
    c->cos_walkable = cos(d.walkable_slope);
    c->cos_ceiling = cos(d.ceiling_slope);
    c->sea_level = -INFINITY;
    c->max_landmarks = d.max_landmarks;
    size_t n = (size_t)d.max_landmarks;
    c->slot = gait__alloc(&h, n * sizeof *c->slot);
    c->generation = gait__alloc(&h, n * sizeof *c->generation);
    c->free_stack = gait__alloc(&h, n * sizeof *c->free_stack);
    c->dense_slot = gait__alloc(&h, n * sizeof *c->dense_slot);
    c->dense_box = gait__alloc(&h, n * 6 * sizeof *c->dense_box);
    c->bucket = gait__alloc(&h, GAIT__GRID_BUCKETS * sizeof *c->bucket);
    if (!c->slot || !c->generation || !c->free_stack || !c->dense_slot || !c->dense_box || !c->bucket) {
        gait__logf(&h, GAIT_LOG_ERROR, "gait_collider_create: out of memory");
        gait_collider_destroy(c);
        return NULL;
    }
    /* slots are handed out lowest first: push them in reverse */
    for (int i = 0; i < d.max_landmarks; i++) {
        c->free_stack[i] = d.max_landmarks - 1 - i;
        c->generation[i] = 1;
    }
    c->free_count = d.max_landmarks;
    for (int i = 0; i < GAIT__GRID_BUCKETS; i++) c->bucket[i] = -1;
    c->big_head = -1;
    c->moving_head = -1;
    return c;
}

static void merge_src_free(gait_collider *c, gait__merge_src *m) {
    gait__free(&c->hooks, m->src, (size_t)m->src_count * sizeof *m->src);
    gait__free(&c->hooks, m->faces, (size_t)m->face_count * sizeof *m->faces);
    memset(m, 0, sizeof *m);
}

static void landmark_free(gait_collider *c, gait__landmark *lm) {
    if (!lm) return;
    merge_src_free(c, &lm->merge);
    gait__free(&c->hooks, lm->tris, (size_t)lm->tri_count * sizeof *lm->tris);
    gait__free(&c->hooks, lm->tbox, (size_t)lm->tri_count * sizeof *lm->tbox);
    gait__free(&c->hooks, lm->nodes, (size_t)lm->node_count * sizeof *lm->nodes);
    if (lm->groups) {
        gait__free(&c->hooks, lm->dup_start, ((size_t)lm->groups + 1) * sizeof *lm->dup_start);
        gait__free(&c->hooks, lm->dup_index, (size_t)lm->dups * sizeof *lm->dup_index);
    }
    /* a moving landmark's path (a removed one's was freed as it stopped moving) */
    gait__free(&c->hooks, lm->motion.path, (size_t)lm->motion.path_count * sizeof *lm->motion.path);
    gait__free(&c->hooks, lm, sizeof *lm);
}

void gait_collider_destroy(gait_collider *c) {
    if (!c) return;
    size_t n = (size_t)c->max_landmarks;
    if (c->slot)
        for (int i = 0; i < c->max_landmarks; i++) landmark_free(c, c->slot[i]);
    gait__free(&c->hooks, c->terrain.h, c->terrain.bytes);
    gait__free(&c->hooks, c->slot, n * sizeof *c->slot);
    gait__free(&c->hooks, c->generation, n * sizeof *c->generation);
    gait__free(&c->hooks, c->free_stack, n * sizeof *c->free_stack);
    gait__free(&c->hooks, c->dense_slot, n * sizeof *c->dense_slot);
    gait__free(&c->hooks, c->dense_box, n * 6 * sizeof *c->dense_box);
    gait__free(&c->hooks, c->bucket, GAIT__GRID_BUCKETS * sizeof *c->bucket);
    gait_hooks h = c->hooks;
    gait__free(&h, c, sizeof *c);
}

const char *gait_collider_last_error(const gait_collider *c) { return c ? c->err : "no collider"; }

/* ---- terrain ---------------------------------------------------------------------------- */

/* Largest heightfield accepted: 2^28 samples (1 GiB of floats). */
#define MAX_SAMPLES ((size_t)1 << 28)
/* A heightmap file: at most 64 MiB, decoding to at most 4097 x 4097 samples (16 km x 16 km at
 * 4 m, as much as one terrain of the Lua layer's set_terrain holds). */
#define HEIGHTMAP_FILE_MAX ((size_t)64 << 20)
#define HEIGHTMAP_MAX_SAMPLES ((size_t)4097 * 4097)

static gait_status terrain_replace(gait_collider *c, int nx, int nz, double cell, gait_vec3 origin,
                                   const float *heights, const uint16_t *u16, const uint8_t *u8,
                                   int stride, double scale) {
    size_t count = (size_t)nx * (size_t)nz;
    size_t bytes = count * sizeof(float);
    float *h = gait__alloc(&c->hooks, bytes);
    if (!h) return fail(c, GAIT_ERR_OUT_OF_MEMORY, "terrain: out of memory (%zu samples)", count);
    float lo = FLT_MAX, hi = -FLT_MAX;
    for (size_t i = 0; i < count; i++) {
        float v;
        if (heights) v = heights[i];
        else if (u16) v = (float)(u16[i * (size_t)stride] / 65535.0 * scale);
        else v = (float)(u8[i * (size_t)stride] / 255.0 * scale);
        if (!isfinite(v)) {
            gait__free(&c->hooks, h, bytes);
            return fail(c, GAIT_ERR_INVALID_ARGUMENT, "terrain: height #%zu is not finite", i);
        }
        h[i] = v;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    gait__free(&c->hooks, c->terrain.h, c->terrain.bytes);
    c->terrain.present = true;
    c->terrain.nx = nx;
    c->terrain.nz = nz;
    c->terrain.cell = cell;
    c->terrain.origin = origin;
    c->terrain.h = h;
    c->terrain.hmin = lo;
    c->terrain.hmax = hi;
    c->terrain.bytes = bytes;
    c->revision++;
    c->static_revision++;
    ok(c);
    return GAIT_OK;
}

gait_status gait_collider_set_terrain(gait_collider *c, const gait_heightfield_def *def) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "terrain");
    if (!def) {
        gait__free(&c->hooks, c->terrain.h, c->terrain.bytes);
        memset(&c->terrain, 0, sizeof c->terrain);
        c->revision++;
        c->static_revision++;
        ok(c);
        return GAIT_OK;
    }
    if (def->samples_x < 2 || def->samples_z < 2)
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "terrain: samples_x (%d) and samples_z (%d) must be >= 2", def->samples_x, def->samples_z);
    if ((size_t)def->samples_x * (size_t)def->samples_z > MAX_SAMPLES)
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "terrain: more than 2^28 samples");
    if (!(def->cell_size > 0) || !isfinite(def->cell_size))
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "terrain: cell_size %g must be finite and > 0", def->cell_size);
    if (!v3_finite(def->origin))
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "terrain: origin is not finite");
    if (!def->heights)
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "terrain: heights is NULL");
    return terrain_replace(c, def->samples_x, def->samples_z, def->cell_size, def->origin,
                           def->heights, NULL, NULL, 1, 1.0);
}

gait_status gait_collider_load_heightmap(gait_collider *c, const char *png_path, double cell_size,
                                         double height_scale, gait_vec3 origin) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "heightmap");
    if (!png_path) return fail(c, GAIT_ERR_INVALID_ARGUMENT, "heightmap: path is NULL");
    if (!(cell_size > 0) || !isfinite(cell_size))
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "heightmap %s: cell_size %g must be finite and > 0", png_path, cell_size);
    if (!isfinite(height_scale))
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "heightmap %s: height_scale %g is not finite", png_path, height_scale);
    if (!v3_finite(origin))
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "heightmap %s: origin is not finite", png_path);
    /* content: a regular file of at most HEIGHTMAP_FILE_MAX bytes (a FIFO or a device is refused
     * without blocking), and its decoded size checked from its header before it is decoded (a
     * small PNG may claim 16384 x 16384 16-bit pixels: a decompression bomb) */
    void *file = NULL;
    size_t file_size = 0;
    char refused[256];
    gait_status rs = gait_file_read(png_path, HEIGHTMAP_FILE_MAX, &c->hooks, &file, &file_size,
                                    refused, sizeof refused);
    if (rs != GAIT_OK) return fail(c, rs, "heightmap %s", refused);
    int w = 0, hgt = 0, ch = 0;
    if (file_size > INT_MAX || !stbi_info_from_memory(file, (int)file_size, &w, &hgt, &ch)) {
        gait_file_free(file, file_size, &c->hooks);
        return fail(c, GAIT_ERR_FORMAT, "heightmap %s: not a readable image (%s)", png_path,
                    stbi_failure_reason());
    }
    if (w < 2 || hgt < 2 || (size_t)w * (size_t)hgt > HEIGHTMAP_MAX_SAMPLES) {
        gait_file_free(file, file_size, &c->hooks);
        return fail(c, GAIT_ERR_FORMAT, "heightmap %s: %d x %d pixels; a heightmap has 2 x 2 to "
                    "%zu samples (4097 x 4097)", png_path, w, hgt, HEIGHTMAP_MAX_SAMPLES);
    }
    int is16 = stbi_is_16_bit_from_memory(file, (int)file_size);
    void *img = is16 ? (void *)stbi_load_16_from_memory(file, (int)file_size, &w, &hgt, &ch, 0)
                     : (void *)stbi_load_from_memory(file, (int)file_size, &w, &hgt, &ch, 0);
    gait_file_free(file, file_size, &c->hooks);
    if (!img) {
        char why[160];
        snprintf(why, sizeof why, "%s: not a readable image (%s)", png_path, stbi_failure_reason());
        return fail(c, GAIT_ERR_FORMAT, "heightmap %s", why);
    }
    gait_status st;
    if (w < 2 || hgt < 2) {
        st = fail(c, GAIT_ERR_FORMAT, "heightmap %s: image smaller than 2x2", png_path);
    } else if ((size_t)w * (size_t)hgt > MAX_SAMPLES) {
        st = fail(c, GAIT_ERR_FORMAT, "heightmap %s: more than 2^28 pixels", png_path);
    } else {
        /* image row r is z = origin.z + r * cell: sample (ix, iz) = pixel (ix, iz); colour
         * images read their first channel (stride = channels) */
        st = terrain_replace(c, w, hgt, cell_size, origin, NULL, is16 ? (const uint16_t *)img : NULL,
                             is16 ? NULL : (const uint8_t *)img, ch, height_scale);
    }
    stbi_image_free(img);
    return st;
}

/* Cell and position inside it of (x, z), terrain-local; false outside. */
static bool terrain_cell(const gait__terrain *t, double x, double z, int *ix, int *iz, double *fx,
                         double *fz) {
    double lx = (x - t->origin.x) / t->cell, lz = (z - t->origin.z) / t->cell;
    if (!(lx >= 0 && lz >= 0 && lx <= t->nx - 1 && lz <= t->nz - 1)) return false;
    int cx = (int)lx, cz = (int)lz;
    if (cx > t->nx - 2) cx = t->nx - 2;
    if (cz > t->nz - 2) cz = t->nz - 2;
    *ix = cx;
    *iz = cz;
    *fx = lx - cx;
    *fz = lz - cz;
    return true;
}

bool gait__collider_has_terrain(const gait_collider *c) { return c && c->terrain.present; }

bool gait_terrain_sample(const gait_collider *c, double x, double z, double *height,
                         gait_vec3 *normal) {
    if (!c || !c->terrain.present) return false;
    const gait__terrain *t = &c->terrain;
    int ix, iz;
    double fx, fz;
    if (!terrain_cell(t, x, z, &ix, &iz, &fx, &fz)) return false;
    const float *H = t->h;
    double h00 = H[(size_t)iz * t->nx + ix], h10 = H[(size_t)iz * t->nx + ix + 1];
    double h01 = H[(size_t)(iz + 1) * t->nx + ix], h11 = H[(size_t)(iz + 1) * t->nx + ix + 1];
    double gx, gz, h;
    if (fz >= fx) { /* triangle (p00, p01, p11) */
        gx = h11 - h01;
        gz = h01 - h00;
        h = h00 + fz * gz + fx * gx;
    } else {        /* triangle (p00, p11, p10) */
        gx = h10 - h00;
        gz = h11 - h10;
        h = h00 + fx * gx + fz * gz;
    }
    if (height) *height = t->origin.y + h;
    if (normal) *normal = v3_norm(v3(-gx / t->cell, 1.0, -gz / t->cell));
    return true;
}

static gait_vec3 tvert(const gait__terrain *t, int ix, int iz) {
    return v3(ix * t->cell, t->h[(size_t)iz * t->nx + ix], iz * t->cell);
}

/* Edge flag of terrain edge e0-e1 of a triangle (normal n) whose neighbour across it has far
 * vertex w; no neighbour (the border) is an active edge. */
static unsigned terrain_edge(gait_vec3 e0, gait_vec3 e1, gait_vec3 n, bool has, gait_vec3 w) {
    if (!has) return 1;
    return gait__edge_active(e0, e1, n, w, n) ? 1 : 0;
}

bool gait__terrain_tri(const gait__terrain *t, int ix, int iz, int half, gait__tri *out) {
    gait_vec3 p00 = tvert(t, ix, iz), p10 = tvert(t, ix + 1, iz);
    gait_vec3 p01 = tvert(t, ix, iz + 1), p11 = tvert(t, ix + 1, iz + 1);
    bool ok = half == 0 ? gait__tri_make(out, p00, p01, p11, GAIT__EDGES_LAZY)
                        : gait__tri_make(out, p00, p11, p10, GAIT__EDGES_LAZY);
    out->terrain = t;
    out->ix = ix;
    out->iz = iz;
    out->half = half;
    return ok;
}

/* The terrain is met from above (the ground is solid below it): its edges read the same from
 * both sides, as seen from above. */
static unsigned terrain_sides(unsigned f) { return f | f << GAIT__EDGES_BACK_SHIFT; }

unsigned gait__tri_flags(const gait__tri *tri) {
    if (!(tri->flags & GAIT__EDGES_LAZY)) return tri->flags;
    const gait__terrain *t = tri->terrain;
    int ix = tri->ix, iz = tri->iz;
    gait_vec3 p00 = tvert(t, ix, iz), p10 = tvert(t, ix + 1, iz);
    gait_vec3 p01 = tvert(t, ix, iz + 1), p11 = tvert(t, ix + 1, iz + 1);
    gait__tri tmp;
    gait__tri *out = &tmp;
    out->n = tri->n;
    if (tri->half == 0) {
        /* (p00, p01, p11): edges p00-p01 (cell ix-1's B, far vertex (ix-1, iz)),
         * p01-p11 (cell iz+1's B, far vertex (ix+1, iz+2)), p11-p00 (this cell's B, p10) */
        unsigned f = terrain_edge(p00, p01, out->n, ix > 0, ix > 0 ? tvert(t, ix - 1, iz) : p00);
        f |= terrain_edge(p01, p11, out->n, iz + 2 < t->nz, iz + 2 < t->nz ? tvert(t, ix + 1, iz + 2) : p00) << 1;
        f |= terrain_edge(p11, p00, out->n, true, p10) << 2;
        return terrain_sides(f);
    }
    /* (p00, p11, p10): edges p00-p11 (this cell's A, p01), p11-p10 (cell ix+1's A, far
     * vertex (ix+2, iz+1)), p10-p00 (cell iz-1's A, far vertex (ix, iz-1)) */
    unsigned f = terrain_edge(p00, p11, out->n, true, p01);
    f |= terrain_edge(p11, p10, out->n, ix + 2 < t->nx, ix + 2 < t->nx ? tvert(t, ix + 2, iz + 1) : p00) << 1;
    f |= terrain_edge(p10, p00, out->n, iz > 0, iz > 0 ? tvert(t, ix, iz - 1) : p00) << 2;
    return terrain_sides(f);
}

/* ---- water ------------------------------------------------------------------------------ */

gait_status gait_collider_set_sea_level(gait_collider *c, double level) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "sea level");
    if (isnan(level) || level == INFINITY)
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "sea level %g must be finite or -INFINITY", level);
    c->sea_level = level;
    ok(c);
    return GAIT_OK;
}

gait_status gait_collider_add_water(gait_collider *c, const gait_water_region *r, int *out_index) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "water");
    if (!r) return fail(c, GAIT_ERR_INVALID_ARGUMENT, "water region is NULL");
    if (!isfinite(r->min_x) || !isfinite(r->min_z) || !isfinite(r->max_x) || !isfinite(r->max_z) ||
        !isfinite(r->surface))
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "water region has a non-finite value");
    if (!(r->min_x <= r->max_x && r->min_z <= r->max_z))
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "water region min > max");
    if (c->water_count >= GAIT__MAX_WATER)
        return fail(c, GAIT_ERR_CAPACITY, "water: already %d regions", GAIT__MAX_WATER);
    c->water[c->water_count] = *r;
    if (out_index) *out_index = c->water_count;
    c->water_count++;
    ok(c);
    return GAIT_OK;
}

gait_status gait_collider_clear_water(gait_collider *c) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "clear water");
    c->water_count = 0;
    ok(c);
    return GAIT_OK;
}

bool gait_water_at(const gait_collider *c, double x, double z, double *surface, double *depth) {
    if (!c || isnan(x) || isnan(z)) return false;
    double s = c->sea_level;
    for (int i = 0; i < c->water_count; i++) {
        const gait_water_region *r = &c->water[i];
        if (x >= r->min_x && x <= r->max_x && z >= r->min_z && z <= r->max_z && r->surface > s)
            s = r->surface;
    }
    if (s == -INFINITY) return false;
    double ground, dep = INFINITY;
    if (gait_terrain_sample(c, x, z, &ground, NULL)) {
        dep = s - ground;
        if (!(dep > 0)) return false; /* dry land above the surface: no water covers it */
    }
    if (surface) *surface = s;
    if (depth) *depth = dep;
    return true;
}

/* ---- landmarks: edge flags -------------------------------------------------------------- */

static uint64_t hash_vert(const float *v, uint64_t h) {
    for (int k = 0; k < 3; k++) {
        h ^= gait__fbits(v[k]);
        h *= 0x100000001b3ull; /* FNV-1a style mixing over 32-bit words */
        h ^= h >> 29;
    }
    return h;
}

static gait_vec3 ltri_vert(const gait__ltri *t, int k) {
    return v3(t->v[3 * k], t->v[3 * k + 1], t->v[3 * k + 2]);
}

/* Marks each edge active from both sides unless exactly one neighbour shares it; a shared edge
 * is internal from the sides gait__edge_internal_sides says (flat: both; bent: the side it bends
 * towards, while less than a right angle). Edges are matched by exact vertex positions through a
 * temporary open-addressing table (freed before return). Both sides are kept because surfaces
 * are two-sided: an open mesh is met from either side, and a closed one wound inside out (its
 * normals facing into the solid: a mirrored import, a generator's prism) is met from its back,
 * where a convex corner is convex and not, as its normals' side says, a concave one (a capsule
 * meeting it then slid along one face's plane past the corner as if the face went on). */
static gait_status compute_edge_flags(gait_collider *c, gait__ltri *tris, const gait_vec3 *normals,
                                      int n, uint32_t *mate) {
    size_t edges = (size_t)n * 3, cap = 16;
    while (cap < edges * 2) cap <<= 1;
    /* slot: first edge id + 1 (0 = empty), second edge id, sharing count */
    uint32_t *first = gait__alloc(&c->hooks, cap * sizeof *first);
    uint32_t *second = gait__alloc(&c->hooks, cap * sizeof *second);
    uint8_t *count = gait__alloc(&c->hooks, cap);
    if (!first || !second || !count) {
        gait__free(&c->hooks, first, cap * sizeof *first);
        gait__free(&c->hooks, second, cap * sizeof *second);
        gait__free(&c->hooks, count, cap);
        return GAIT_ERR_OUT_OF_MEMORY;
    }
    for (size_t e = 0; e < edges; e++) {
        const float *v = tris[e / 3].v;
        int i = (int)(e % 3);
        const float *a = v + 3 * i, *b = v + 3 * ((i + 1) % 3);
        if (gait__vcmp(a, b) > 0) { const float *tmp = a; a = b; b = tmp; }
        uint64_t h = hash_vert(b, hash_vert(a, 0xcbf29ce484222325ull));
        size_t s = (size_t)(h ^ (h >> 32)) & (cap - 1);
        for (;;) {
            if (!first[s]) {
                first[s] = (uint32_t)e + 1;
                count[s] = 1;
                break;
            }
            uint32_t o = first[s] - 1;
            const float *ov = tris[o / 3].v;
            int oi = (int)(o % 3);
            const float *oa = ov + 3 * oi, *ob = ov + 3 * ((oi + 1) % 3);
            if (gait__vcmp(oa, ob) > 0) { const float *tmp = oa; oa = ob; ob = tmp; }
            if (gait__vcmp(a, oa) == 0 && gait__vcmp(b, ob) == 0) {
                if (count[s] == 1) second[s] = (uint32_t)e;
                if (count[s] < 255) count[s]++;
                break;
            }
            s = (s + 1) & (cap - 1);
        }
    }
    for (int t = 0; t < n; t++) tris[t].flags = GAIT__EDGES_ALL;
    for (size_t s = 0; s < cap; s++) {
        if (count[s] != 2) continue;
        uint32_t e1 = first[s] - 1, e2 = second[s];
        if (mate) {
            mate[e1] = e2 + 1;
            mate[e2] = e1 + 1;
        }
        for (int side = 0; side < 2; side++) {
            uint32_t me = side ? e2 : e1, other = side ? e1 : e2;
            const gait__ltri *tm = &tris[me / 3], *to = &tris[other / 3];
            int mi = (int)(me % 3), oi = (int)(other % 3);
            unsigned in = gait__edge_internal_sides(ltri_vert(tm, mi), ltri_vert(tm, (mi + 1) % 3),
                                                    normals[me / 3], ltri_vert(to, (oi + 2) % 3));
            if (in & GAIT__SIDE_FRONT) tris[me / 3].flags &= ~(1u << mi);
            if (in & GAIT__SIDE_BACK) tris[me / 3].flags &= ~(1u << (GAIT__EDGES_BACK_SHIFT + mi));
        }
    }
    gait__free(&c->hooks, first, cap * sizeof *first);
    gait__free(&c->hooks, second, cap * sizeof *second);
    gait__free(&c->hooks, count, cap);
    return GAIT_OK;
}

/* Sets each triangle's corner flags (GAIT__CORNERS_SHIFT): vertex i is a corner from a side
 * when an edge active from that side (of its own triangle) ends at its position, in any
 * triangle. Positions are matched exactly through a temporary table (freed before return). */
static gait_status mark_corners(gait_collider *c, gait__ltri *tris, int n) {
    size_t verts = (size_t)n * 3, cap = 16;
    while (cap < verts + verts / 2) cap <<= 1;
    /* slot: a vertex id (3 t + i) + 1 holding that position, 0 empty; its sides (bit 0 front,
     * bit 1 back) */
    uint32_t *key = gait__alloc(&c->hooks, cap * sizeof *key);
    uint8_t *sides = gait__alloc(&c->hooks, cap);
    uint32_t *slot_of = gait__alloc_raw(&c->hooks, verts * sizeof *slot_of);
    if (!key || !sides || !slot_of) {
        gait__free(&c->hooks, key, cap * sizeof *key);
        gait__free(&c->hooks, sides, cap);
        gait__free(&c->hooks, slot_of, verts * sizeof *slot_of);
        return GAIT_ERR_OUT_OF_MEMORY;
    }
    for (size_t e = 0; e < verts; e++) {
        const float *v = tris[e / 3].v + 3 * (e % 3);
        uint64_t h = hash_vert(v, 0xcbf29ce484222325ull);
        size_t sl = (size_t)(h ^ (h >> 32)) & (cap - 1);
        while (key[sl] && gait__vcmp(tris[(key[sl] - 1) / 3].v + 3 * ((key[sl] - 1) % 3), v) != 0)
            sl = (sl + 1) & (cap - 1);
        if (!key[sl]) key[sl] = (uint32_t)e + 1;
        slot_of[e] = (uint32_t)sl;
        /* the triangle's edges at vertex i: i (i -> i+1) and i+2 (i-1 -> i) */
        unsigned f = tris[e / 3].flags, i = (unsigned)(e % 3), j = (i + 2) % 3;
        unsigned front = ((f >> i) | (f >> j)) & 1u;
        unsigned back = ((f >> (GAIT__EDGES_BACK_SHIFT + i)) | (f >> (GAIT__EDGES_BACK_SHIFT + j))) & 1u;
        sides[sl] |= (uint8_t)(front | back << 1);
    }
    for (size_t e = 0; e < verts; e++) {
        unsigned sd = sides[slot_of[e]], i = (unsigned)(e % 3);
        tris[e / 3].flags |= (sd & 1u) << (GAIT__CORNERS_SHIFT + i) |
                             (sd >> 1 & 1u) << (GAIT__CORNERS_BACK_SHIFT + i);
    }
    gait__free(&c->hooks, key, cap * sizeof *key);
    gait__free(&c->hooks, sides, cap);
    gait__free(&c->hooks, slot_of, verts * sizeof *slot_of);
    return GAIT_OK;
}

/* ---- landmarks: coincident groups -------------------------------------------------------- */

/* Groups the triangles that are bit-identical (9 floats in the same order, same edge flags):
 * the first of each group stays in tris (compacted, source order kept), the others' indices go
 * to the landmark's dup tables and the first's flags carry its group + 1. A table of
 * 2 * n slots (freed before return) finds them in one pass. */
static gait_status group_coincident(gait_collider *c, gait__landmark *lm, gait__ltri *tris, int n,
                                    int *out_n) {
    *out_n = n;
    size_t cap = 16;
    while (cap < (size_t)n * 2) cap <<= 1;
    uint32_t *slot = gait__alloc(&c->hooks, cap * sizeof *slot);  /* triangle + 1, 0 empty */
    uint32_t *rep = gait__alloc(&c->hooks, (size_t)n * sizeof *rep); /* each triangle's first */
    if (!slot || !rep) {
        gait__free(&c->hooks, slot, cap * sizeof *slot);
        gait__free(&c->hooks, rep, (size_t)n * sizeof *rep);
        return GAIT_ERR_OUT_OF_MEMORY;
    }
    int dups = 0;
    for (int t = 0; t < n; t++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (int k = 0; k < 3; k++) h = hash_vert(tris[t].v + 3 * k, h);
        h ^= tris[t].flags;
        size_t s = (size_t)(h ^ (h >> 32)) & (cap - 1);
        rep[t] = (uint32_t)t;
        for (;;) {
            if (!slot[s]) {
                slot[s] = (uint32_t)t + 1;
                break;
            }
            const gait__ltri *o = &tris[slot[s] - 1];
            if (o->flags == tris[t].flags && memcmp(o->v, tris[t].v, sizeof o->v) == 0) {
                rep[t] = slot[s] - 1;
                dups++;
                break;
            }
            s = (s + 1) & (cap - 1);
        }
    }
    gait__free(&c->hooks, slot, cap * sizeof *slot);
    if (dups == 0) {
        gait__free(&c->hooks, rep, (size_t)n * sizeof *rep);
        return GAIT_OK;
    }
    /* groups: the firsts that have copies, numbered in source order */
    uint32_t *group_of = gait__alloc(&c->hooks, (size_t)n * sizeof *group_of); /* first -> g + 1 */
    int groups = 0;
    if (group_of)
        for (int t = 0; t < n; t++)
            if (rep[t] != (uint32_t)t && group_of[rep[t]] == 0) group_of[rep[t]] = (uint32_t)++groups;
    if (group_of && (uint32_t)groups > GAIT__GROUP_MAX) { /* too many to number: store them all */
        gait__free(&c->hooks, rep, (size_t)n * sizeof *rep);
        gait__free(&c->hooks, group_of, (size_t)n * sizeof *group_of);
        return GAIT_OK;
    }
    uint32_t *start = group_of ? gait__alloc(&c->hooks, ((size_t)groups + 1) * sizeof *start) : NULL;
    uint32_t *index = start ? gait__alloc(&c->hooks, (size_t)dups * sizeof *index) : NULL;
    if (!index) {
        gait__free(&c->hooks, rep, (size_t)n * sizeof *rep);
        gait__free(&c->hooks, group_of, (size_t)n * sizeof *group_of);
        gait__free(&c->hooks, start, ((size_t)groups + 1) * sizeof *start);
        return GAIT_ERR_OUT_OF_MEMORY;
    }
    /* counting sort of the copies by group (group_of is 1-based); within a group in source
     * (= ascending index) order. start[g] ends as group g's first, start[groups] = dups. */
    for (int t = 0; t < n; t++)
        if (rep[t] != (uint32_t)t) start[group_of[rep[t]]]++;
    for (int g = 0; g < groups; g++) start[g + 1] += start[g];
    for (int t = 0; t < n; t++)
        if (rep[t] != (uint32_t)t) index[start[group_of[rep[t]] - 1]++] = tris[t].index;
    for (int g = groups; g > 0; g--) start[g] = start[g - 1];
    start[0] = 0;
    int kept = 0;
    for (int t = 0; t < n; t++) {
        if (rep[t] != (uint32_t)t) continue;
        gait__ltri x = tris[t];
        if (group_of[t]) x.flags |= group_of[t] << GAIT__GROUP_SHIFT;
        tris[kept++] = x;
    }
    gait__free(&c->hooks, rep, (size_t)n * sizeof *rep);
    gait__free(&c->hooks, group_of, (size_t)n * sizeof *group_of);
    lm->dup_start = start;
    lm->dup_index = index;
    lm->groups = groups;
    lm->dups = dups;
    *out_n = kept;
    return GAIT_OK;
}

/* ---- landmarks: the top-level grid ----------------------------------------------------------- */

static void grid_insert(gait_collider *c, int slot, gait__landmark *lm) {
    double cx = floor(lm->bmin.x / GAIT__GRID_CELL), cz = floor(lm->bmin.z / GAIT__GRID_CELL);
    /* wider than a cell, or so far out that the cell index would not fit: the big list */
    lm->big = lm->bmax.x - lm->bmin.x > GAIT__GRID_CELL || lm->bmax.z - lm->bmin.z > GAIT__GRID_CELL ||
              !(fabs(cx) < 1e9 && fabs(cz) < 1e9);
    int *head = &c->big_head;
    if (!lm->big) {
        lm->gx = (int32_t)cx;
        lm->gz = (int32_t)cz;
        head = &c->bucket[gait__grid_bucket(lm->gx, lm->gz)];
    }
    lm->grid_next = *head;
    *head = slot;
}

static void grid_unlink(gait_collider *c, int slot, gait__landmark *lm) {
    int *at = lm->big ? &c->big_head : &c->bucket[gait__grid_bucket(lm->gx, lm->gz)];
    while (*at != slot) at = &c->slot[*at]->grid_next;
    *at = lm->grid_next;
}

/* Most triangles one landmark may hold (keeps every index and size in 32 bits). */
#define MAX_LANDMARK_TRIS (1 << 26)

gait_status gait_collider_add_landmark(gait_collider *c, const gait_mesh_def *def,
                                       gait_landmark_id *out_id) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "add landmark");
    if (!def) return fail(c, GAIT_ERR_INVALID_ARGUMENT, "landmark: def is NULL");
    const char *name = def->name ? def->name : "(unnamed)";
    if (!def->positions || def->vertex_count < 0 || def->triangle_count < 0)
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "landmark %s: positions NULL or negative count", name);
    if (def->triangle_count == 0)
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "landmark %s: empty mesh (no triangles)", name);
    if (def->triangle_count > MAX_LANDMARK_TRIS)
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "landmark %s: more than %d triangles", name, MAX_LANDMARK_TRIS);
    if (!def->indices && (size_t)def->vertex_count < (size_t)def->triangle_count * 3)
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "landmark %s: non-indexed mesh needs 3 vertices per triangle (%d triangles, %d vertices)", name, def->triangle_count, def->vertex_count);
    if (!v3_finite(def->offset))
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "landmark %s: offset is not finite", name);
    if (c->free_count == 0)
        return fail(c, GAIT_ERR_CAPACITY, "landmark %s: already max_landmarks (%d) alive", name, c->max_landmarks);

    /* 1. keep the valid triangles (source order) */
    size_t ntri = (size_t)def->triangle_count;
    gait__ltri *src = gait__alloc(&c->hooks, ntri * sizeof *src);
    /* unit normals of the kept triangles, for the edge flags (freed after the build) */
    gait_vec3 *normals = gait__alloc(&c->hooks, ntri * sizeof *normals);
    if (!src || !normals) {
        gait__free(&c->hooks, src, ntri * sizeof *src);
        gait__free(&c->hooks, normals, ntri * sizeof *normals);
        return fail(c, GAIT_ERR_OUT_OF_MEMORY, "landmark %s: out of memory", name);
    }
    int kept = 0, skipped = 0, first_bad = -1;
    for (size_t t = 0; t < ntri; t++) {
        uint32_t idx[3];
        bool good = true;
        for (int k = 0; k < 3; k++) {
            idx[k] = def->indices ? def->indices[3 * t + k] : (uint32_t)(3 * t + k);
            if (idx[k] >= (uint32_t)def->vertex_count) good = false;
        }
        gait__tri tt;
        if (good) {
            const float *P = def->positions;
            gait_vec3 v[3];
            for (int k = 0; k < 3; k++) v[k] = v3(P[3 * idx[k]], P[3 * idx[k] + 1], P[3 * idx[k] + 2]);
            good = gait__tri_make(&tt, v[0], v[1], v[2], 0);
            if (good) {
                normals[kept] = tt.n;
                gait__ltri *o = &src[kept++];
                for (int k = 0; k < 3; k++) memcpy(o->v + 3 * k, P + 3 * idx[k], 3 * sizeof(float));
                o->index = (uint32_t)t;
            }
        }
        if (!good) {
            if (first_bad < 0) first_bad = (int)t;
            skipped++;
        }
    }
    if (kept == 0) {
        gait__free(&c->hooks, src, ntri * sizeof *src);
        gait__free(&c->hooks, normals, ntri * sizeof *normals);
        return fail(c, GAIT_ERR_INVALID_ARGUMENT, "landmark %s: no valid triangle (all %zu degenerate: zero area, NaN/Inf or index out of range)", name, ntri);
    }
    if (skipped)
        gait__logf(&c->hooks, GAIT_LOG_WARN,
                   "collide: landmark %s: skipped %d degenerate triangle(s) (zero area, NaN/Inf or index out of range; first #%d)",
                   name, skipped, first_bad);

    /* 2. edge flags on the kept triangles, 3. coplanar pieces merged (collide_merge.c),
     * 4. corner flags, 5. coincident groups, 6. the BVH */
    size_t nedge = def->keep_triangles ? 0 : 3 * (size_t)kept;
    uint32_t *mate = nedge ? gait__alloc(&c->hooks, nedge * sizeof *mate) : NULL;
    gait_status st = nedge && !mate ? GAIT_ERR_OUT_OF_MEMORY
                                    : compute_edge_flags(c, src, normals, kept, mate);
    int merged = kept;
    gait__merge_src msrc = {0};
    if (st == GAIT_OK && mate)
        st = gait__merge_coplanar(&c->hooks, src, normals, kept, mate, &merged, &msrc);
    if (merged < kept)
        gait__logf(&c->hooks, GAIT_LOG_INFO,
                   "collide: landmark %s: %d triangles stored as %d (coplanar pieces merged)", name,
                   kept, merged);
    gait__free(&c->hooks, mate, nedge * sizeof *mate);
    gait__free(&c->hooks, normals, ntri * sizeof *normals);
    gait__landmark *lm = gait__alloc(&c->hooks, sizeof *lm);
    if (lm) lm->merge = msrc; /* freed with it */
    else merge_src_free(c, &msrc);
    if (st == GAIT_OK) st = mark_corners(c, src, merged);
    int stored = merged;
    if (st == GAIT_OK && lm) st = group_coincident(c, lm, src, merged, &stored);
    gait__ltri *tris = st == GAIT_OK && lm ? gait__alloc(&c->hooks, (size_t)stored * sizeof *tris) : NULL;
    gait__bnode *nodes = NULL;
    int node_count = 0;
    if (tris) {
        memcpy(tris, src, (size_t)stored * sizeof *tris);
        st = gait__bvh_build(&c->hooks, tris, stored, &nodes, &node_count);
    }
    gait__free(&c->hooks, src, ntri * sizeof *src);
    float(*tbox)[6] = st == GAIT_OK && tris ? gait__alloc(&c->hooks, (size_t)stored * sizeof *tbox) : NULL;
    if (lm) lm->tbox = tbox;
    if (!lm || !tris || !tbox || st != GAIT_OK) {
        if (lm) {
            lm->tri_count = tris ? stored : 0;
            lm->tris = tris;
            lm->nodes = nodes;
            lm->node_count = node_count;
            landmark_free(c, lm);
        } else {
            gait__free(&c->hooks, tris, (size_t)stored * sizeof *tris);
        }
        return fail(c, GAIT_ERR_OUT_OF_MEMORY, "landmark %s: out of memory", name);
    }

    lm->origin = def->offset;
    lm->tris = tris;
    lm->tri_count = stored;
    lm->kept = kept;
    lm->merged = merged;
    lm->nodes = nodes;
    lm->node_count = node_count;
    lm->skipped = skipped;
    for (int t = 0; t < stored; t++)
        for (int a = 0; a < 3; a++) {
            const float *v = tris[t].v;
            float lo = v[a], hi = v[a];
            for (int k = 1; k < 3; k++) {
                if (v[3 * k + a] < lo) lo = v[3 * k + a];
                if (v[3 * k + a] > hi) hi = v[3 * k + a];
            }
            tbox[t][a] = lo;
            tbox[t][3 + a] = hi;
        }
    lm->bytes = sizeof *lm + (size_t)stored * (sizeof *tris + sizeof *tbox) + (size_t)node_count * sizeof *nodes +
                (size_t)lm->merge.src_count * sizeof *lm->merge.src +
                (size_t)lm->merge.face_count * sizeof *lm->merge.faces +
                (lm->groups ? ((size_t)lm->groups + 1 + (size_t)lm->dups) * sizeof(uint32_t) : 0);
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int t = 0; t < stored; t++)
        for (int k = 0; k < 9; k++) {
            if (tris[t].v[k] < lo[k % 3]) lo[k % 3] = tris[t].v[k];
            if (tris[t].v[k] > hi[k % 3]) hi[k % 3] = tris[t].v[k];
        }
    lm->lbmin = v3(lo[0], lo[1], lo[2]);
    lm->lbmax = v3(hi[0], hi[1], hi[2]);
    lm->bmin = v3_add(def->offset, lm->lbmin);
    lm->bmax = v3_add(def->offset, lm->lbmax);

    int s = c->free_stack[--c->free_count];
    c->slot[s] = lm;
    lm->dense = c->live;
    c->dense_slot[c->live] = s;
    double *box = c->dense_box + 6 * (size_t)c->live;
    box[0] = lm->bmin.x; box[1] = lm->bmin.y; box[2] = lm->bmin.z;
    box[3] = lm->bmax.x; box[4] = lm->bmax.y; box[5] = lm->bmax.z;
    c->live++;
    c->revision++;
    c->static_revision++;
    grid_insert(c, s, lm);
    if (out_id) {
        out_id->index1 = s + 1;
        out_id->generation = c->generation[s];
    }
    ok(c);
    return GAIT_OK;
}

static gait__landmark *lookup(const gait_collider *c, gait_landmark_id id) {
    if (id.index1 < 1 || id.index1 > c->max_landmarks) return NULL;
    int s = id.index1 - 1;
    if (!c->slot[s] || c->generation[s] != id.generation) return NULL;
    return c->slot[s];
}

gait_status gait_collider_remove_landmark(gait_collider *c, gait_landmark_id id) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "remove landmark");
    gait__landmark *lm = lookup(c, id);
    if (!lm) return fail(c, GAIT_ERR_STALE_ID, "remove landmark: id {%d, %u} is null, unknown or already removed", (int)id.index1, (unsigned)id.generation);
    int s = id.index1 - 1;
    /* swap-remove from the dense list */
    int d = lm->dense, last = c->live - 1;
    if (d != last) {
        int ms = c->dense_slot[last];
        c->dense_slot[d] = ms;
        memcpy(c->dense_box + 6 * (size_t)d, c->dense_box + 6 * (size_t)last, 6 * sizeof(double));
        c->slot[ms]->dense = d;
    }
    c->live--;
    c->revision++;
    c->static_revision++;
    if (lm->moving) gait__motion_release(c, s, lm);
    else grid_unlink(c, s, lm);
    landmark_free(c, lm);
    c->slot[s] = NULL;
    c->generation[s]++;
    if (c->generation[s] == 0) c->generation[s] = 1; /* generation 0 is never handed out */
    c->free_stack[c->free_count++] = s;
    ok(c);
    return GAIT_OK;
}

gait_status gait_collider_landmark_info(const gait_collider *c, gait_landmark_id id,
                                        gait_landmark_info *out) {
    if (!c || !out) return GAIT_ERR_INVALID_ARGUMENT;
    const gait__landmark *lm = lookup(c, id);
    if (!lm) return GAIT_ERR_STALE_ID; /* const: no message is kept */
    out->triangle_count = lm->kept;
    out->stored_count = lm->merged;
    out->skipped_count = lm->skipped;
    out->bounds_min = lm->bmin;
    out->bounds_max = lm->bmax;
    out->memory_bytes = lm->bytes;
    return GAIT_OK;
}

/* ---- landmarks: a merged face's triangles as given ------------------------------------- */

int gait_collider_source_triangle(const gait_collider *c, gait_landmark_id id, int triangle,
                                  gait_vec3 point) {
    const gait__landmark *lm = c ? lookup(c, id) : NULL;
    if (!lm || triangle < 0 || triangle >= lm->kept + lm->skipped || !v3_finite(point))
        return -1;
    const gait__merge_src *m = &lm->merge;
    int lo = 0, hi = m->face_count - 1;
    const gait__face *face = NULL;
    while (lo <= hi && !face) {
        int mid = (lo + hi) / 2;
        uint32_t k = m->faces[mid].index;
        if (k == (uint32_t)triangle) face = &m->faces[mid];
        else if (k < (uint32_t)triangle) lo = mid + 1;
        else hi = mid - 1;
    }
    if (!face) return triangle; /* stored as given */
    gait_vec3 p = gait__lm_to_local(lm, point);
    /* the nearest of the piece's triangles (the lowest index among those as near, to a micron:
     * a point on a seam names the lower, as a query over the mesh as given breaks its ties) */
    double best = INFINITY;
    int best_index = triangle;
    for (uint32_t k = face->start; k < face->start + face->count; k++) {
        const gait__ltri *t = &m->src[k];
        gait__tri tt;
        if (!gait__tri_make(&tt, v3(t->v[0], t->v[1], t->v[2]), v3(t->v[3], t->v[4], t->v[5]),
                            v3(t->v[6], t->v[7], t->v[8]), 0))
            continue;
        gait_vec3 sp, tp;
        int feature;
        double d = sqrt(gait__seg_tri_closest(p, p, &tt, &sp, &tp, &feature, false));
        if (d < best - 1e-6) {
            best = d;
            best_index = (int)t->index;
        }
    }
    return best_index;
}

int gait_collider_landmark_count(const gait_collider *c) { return c ? c->live : 0; }
uint64_t gait_collider_revision(const gait_collider *c) { return c ? c->revision : 0; }
