/* Drawing: sky, terrain (shaded by slope and height), landmarks, the character, water, debug
 * lines. OpenGL 3.3 core through glad; GLSL from shaders/ read at run time.
 *
 * Everything is drawn relative to a floating origin, the camera's eye: a mesh's double offset
 * minus the eye becomes the float u_offset, so precision does not depend on how far the world
 * reaches. */
#include "sandbox.h"

#include <cglm/cglm.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const float IDENTITY3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

typedef struct gpu_mesh {
    GLuint vao, vbo, ebo;
    int count;                   /* vertices (or indices when ebo) */
    gait_vec3 offset;
    gait_landmark_id landmark;   /* the landmark it draws (null: not one) */
    bool turned;                 /* a moving landmark's turn, in model (row-major) */
    float model[9];
} gpu_mesh;

/* The terrain is drawn in square chunks, each culled against the view frustum and drawn at a
 * level of detail chosen by its distance: llvmpipe transforms vertices on one thread, so the
 * 131k-triangle heightfield drawn whole costs tens of milliseconds a frame. */
enum { CHUNK_CELLS = 16, LOD_LEVELS = 4 };     /* steps 1, 2, 4, 8 samples */
typedef struct terrain_chunk {
    float box[2][3];                           /* bounds relative to the terrain's origin */
    int first[LOD_LEVELS], count[LOD_LEVELS];  /* index ranges */
} terrain_chunk;

typedef struct hud_vertex {
    float x, y;
    float r, g, b, a;
} hud_vertex;

/* Uniforms of the programs built on lit.vert (lit.frag: everything; water.frag: the water). */
typedef struct lit_uniforms {
    GLint view_proj, offset, model, sun_dir, sun_color, sky_color, ground_color, fog_color,
        fog_density, tint, specular;
} lit_uniforms;

struct sb_renderer {
    GLuint lit, water_prog, sky, line, hud, upscale;
    lit_uniforms ul, uw;
    struct { GLint inv_view_proj, sun_dir, zenith, horizon, below; } us;
    GLint line_view_proj, hud_screen;
    GLuint empty_vao;

    gpu_mesh terrain;            /* one vertex buffer; indices per chunk and level of detail */
    terrain_chunk *chunks;
    int chunk_count;
    int terrain_triangles_drawn; /* last frame */
    gpu_mesh landmarks[SB_MAX_LANDMARKS];
    int landmark_count;
    gpu_mesh water;
    int scene_generation;

    /* per-frame geometry: the character (lit), lines, HUD */
    GLuint dyn_vao, dyn_vbo;
    sb_vertex *dyn;
    int dyn_count, dyn_cap;
    GLuint line_vao, line_vbo;
    GLuint hud_vao, hud_vbo;
    hud_vertex *hud_verts;
    int hud_count, hud_cap;
    int hud_w, hud_h;

    /* The 3D scene may be drawn at a fraction of the window's resolution into this framebuffer
     * and scaled up (the HUD is always drawn at full resolution): under llvmpipe the frame time
     * is almost all per-pixel work. */
    mat4 last_view_proj;         /* of the last frame, relative to its eye (for labels) */
    gait_vec3 last_eye;
    float render_scale;
    int wire_first, wire_count;  /* landmarks drawn again as wireframe (the debug view's level) */
    /* --profile: each pass finished (glFinish) and timed, ms of the last frame */
    bool profile;
    double pass_ms[SB_PASS_COUNT], pass_t0;
    GLuint fbo, fbo_color, fbo_depth;
    int fbo_w, fbo_h;
};

/* Towards the sun (not normalised): behind the spawn's view (it faces +z), so the faces it
 * sees are lit. */
#define SUN_TOWARDS {0.40f, 0.75f, -0.50f}

/* ---- shaders ------------------------------------------------------------------------------ */

static GLuint compile(const char *dir, const char *file, GLenum type, char *err, size_t cap) {
    char path[SB_PATH_MAX];
    sb_path_join(path, sizeof path, dir, file);
    char *src = sb_read_file(path, NULL);
    if (!src) {
        snprintf(err, cap, "%s: cannot read the shader (run from the repo, or pass --root DIR)", path);
        return 0;
    }
    GLuint s = glCreateShader(type);
    const char *srcs[1] = {src};
    glShaderSource(s, 1, srcs, NULL);
    glCompileShader(s);
    free(src);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        snprintf(err, cap, "%s: %s", path, log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

static GLuint program(const char *dir, const char *vs, const char *fs, char *err, size_t cap) {
    GLuint v = compile(dir, vs, GL_VERTEX_SHADER, err, cap);
    if (!v) return 0;
    GLuint f = compile(dir, fs, GL_FRAGMENT_SHADER, err, cap);
    if (!f) { glDeleteShader(v); return 0; }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        snprintf(err, cap, "%s + %s: %s", vs, fs, log);
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

/* ---- meshes ------------------------------------------------------------------------------- */

static void lit_layout(void) {
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(sb_vertex), (void *)offsetof(sb_vertex, px));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(sb_vertex), (void *)offsetof(sb_vertex, nx));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, sizeof(sb_vertex), (void *)offsetof(sb_vertex, r));
}

static void mesh_free(gpu_mesh *m) {
    if (m->vao) glDeleteVertexArrays(1, &m->vao);
    if (m->vbo) glDeleteBuffers(1, &m->vbo);
    if (m->ebo) glDeleteBuffers(1, &m->ebo);
    memset(m, 0, sizeof *m);
}

static void mesh_upload(gpu_mesh *m, const sb_vertex *v, int count, const uint32_t *idx,
                        int index_count, gait_vec3 offset) {
    mesh_free(m);
    glGenVertexArrays(1, &m->vao);
    glBindVertexArray(m->vao);
    glGenBuffers(1, &m->vbo);
    glBindBuffer(GL_ARRAY_BUFFER, m->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof *v * (size_t)count), v, GL_STATIC_DRAW);
    lit_layout();
    if (idx) {
        glGenBuffers(1, &m->ebo);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m->ebo);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof *idx * (size_t)index_count), idx,
                     GL_STATIC_DRAW);
        m->count = index_count;
    } else {
        m->count = count;
    }
    m->offset = offset;
    glBindVertexArray(0);
}

static float smooth01(float e0, float e1, float v) {
    float t = (v - e0) / (e1 - e0);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}

static void mix3(float *c, const float *a, const float *b, float t) {
    for (int k = 0; k < 3; k++) c[k] = a[k] + (b[k] - a[k]) * t;
}

/* Terrain colour by slope (n_y) and height (m): grass on the flats, rock on steep faces, sand
 * at the water's edge and under it, snow on the heights. */
static void terrain_color(float *out, float h, float ny, float water_level, float jitter) {
    static const float grass_a[3] = {0.30f, 0.52f, 0.20f}, grass_b[3] = {0.45f, 0.58f, 0.24f};
    static const float rock[3] = {0.47f, 0.43f, 0.39f}, sand[3] = {0.78f, 0.71f, 0.50f};
    static const float snow[3] = {0.93f, 0.94f, 0.97f};
    float c[3];
    mix3(c, grass_a, grass_b, jitter);
    float t_sand = 1.0f - smooth01(water_level + 0.3f, water_level + 1.2f, h);
    mix3(c, c, sand, t_sand);
    float t_snow = smooth01(44.0f, 50.0f, h) * smooth01(0.6f, 0.8f, ny);
    mix3(c, c, snow, t_snow);
    float t_rock = 1.0f - smooth01(0.66f, 0.80f, ny);
    mix3(c, c, rock, t_rock);
    memcpy(out, c, sizeof c);
}

static void build_terrain(sb_renderer *r, const sb_scene *s, const gait_collider *collider) {
    mesh_free(&r->terrain);
    if (!s->has_terrain || s->samples_x < 2 || s->samples_z < 2) return;
    int nx = s->samples_x, nz = s->samples_z;
    double cell = s->cell_size;
    float *h = malloc(sizeof *h * (size_t)nx * (size_t)nz);
    sb_vertex *v = malloc(sizeof *v * (size_t)nx * (size_t)nz);
    if (!h || !v) { free(h), free(v); return; }
    /* The water level the sand follows: the lowest water surface (or the sea). */
    float water_level = isfinite(s->sea_level) ? (float)s->sea_level : -1e9f;
    for (int i = 0; i < s->water_count; i++)
        if (water_level < -1e8f || s->water[i].surface < water_level) water_level = (float)s->water[i].surface;
    for (int iz = 0; iz < nz; iz++) {
        for (int ix = 0; ix < nx; ix++) {
            /* Sample a hair inside the last row and column: the grid's far edge is exclusive. */
            double x = s->origin.x + cell * (ix == nx - 1 ? ix - 1e-6 : ix);
            double z = s->origin.z + cell * (iz == nz - 1 ? iz - 1e-6 : iz);
            double y = s->origin.y;
            gait_vec3 n;
            gait_terrain_sample(collider, x, z, &y, &n);
            h[iz * nx + ix] = (float)(y - s->origin.y);
        }
    }
    for (int iz = 0; iz < nz; iz++) {
        for (int ix = 0; ix < nx; ix++) {
            float hl = h[iz * nx + (ix > 0 ? ix - 1 : ix)], hr = h[iz * nx + (ix < nx - 1 ? ix + 1 : ix)];
            float hd = h[(iz > 0 ? iz - 1 : iz) * nx + ix], hu = h[(iz < nz - 1 ? iz + 1 : iz) * nx + ix];
            float dx = (hr - hl) / (float)(cell * ((ix > 0 && ix < nx - 1) ? 2 : 1));
            float dz = (hu - hd) / (float)(cell * ((iz > 0 && iz < nz - 1) ? 2 : 1));
            float n[3] = {-dx, 1.0f, -dz};
            float len = sqrtf(n[0] * n[0] + 1.0f + n[2] * n[2]);
            sb_vertex *o = &v[iz * nx + ix];
            o->px = (float)(cell * ix), o->py = h[iz * nx + ix], o->pz = (float)(cell * iz);
            o->nx = n[0] / len, o->ny = n[1] / len, o->nz = n[2] / len;
            /* A cheap repeatable jitter so the grass is not one flat colour. */
            float jitter = 0.5f + 0.5f * sinf((float)ix * 0.37f + sinf((float)iz * 0.23f) * 3.0f) *
                                      cosf((float)iz * 0.29f + (float)ix * 0.05f);
            float col[3];
            terrain_color(col, o->py + (float)s->origin.y, o->ny, water_level, jitter);
            o->r = col[0], o->g = col[1], o->b = col[2];
        }
    }
    /* Cells split along the (ix, iz)-(ix+1, iz+1) diagonal, as collide.h's terrain is; both
     * triangles counter-clockwise seen from above. Each chunk has its indices at steps of 1, 2,
     * 4 and 8 samples (a coarser level leaves small cracks at its seams, hidden by distance). */
    int ccx = (nx - 2) / CHUNK_CELLS + 1, ccz = (nz - 2) / CHUNK_CELLS + 1;
    free(r->chunks);
    r->chunks = calloc((size_t)(ccx * ccz), sizeof *r->chunks);
    size_t idx_cap = (size_t)(nx - 1) * (size_t)(nz - 1) * 6 * 2; /* level 1 + a third for the rest */
    uint32_t *all = r->chunks ? malloc(sizeof *all * idx_cap) : NULL;
    if (!all) { free(h), free(v); free(r->chunks); r->chunks = NULL; return; }
    size_t k = 0;
    r->chunk_count = 0;
    for (int cz = 0; cz < ccz; cz++) {
        for (int cx = 0; cx < ccx; cx++) {
            terrain_chunk *c = &r->chunks[r->chunk_count++];
            int x0 = cx * CHUNK_CELLS, z0 = cz * CHUNK_CELLS;
            int x1 = x0 + CHUNK_CELLS < nx - 1 ? x0 + CHUNK_CELLS : nx - 1;
            int z1 = z0 + CHUNK_CELLS < nz - 1 ? z0 + CHUNK_CELLS : nz - 1;
            float lo = 1e30f, hi = -1e30f;
            for (int iz = z0; iz <= z1; iz++)
                for (int ix = x0; ix <= x1; ix++) {
                    float y = h[iz * nx + ix];
                    lo = y < lo ? y : lo, hi = y > hi ? y : hi;
                }
            c->box[0][0] = (float)(cell * x0), c->box[0][1] = lo, c->box[0][2] = (float)(cell * z0);
            c->box[1][0] = (float)(cell * x1), c->box[1][1] = hi, c->box[1][2] = (float)(cell * z1);
            for (int l = 0; l < LOD_LEVELS; l++) {
                int step = 1 << l;
                c->first[l] = (int)k;
                for (int iz = z0; iz < z1; iz += step) {
                    for (int ix = x0; ix < x1; ix += step) {
                        int jx = ix + step < x1 ? ix + step : x1, jz = iz + step < z1 ? iz + step : z1;
                        uint32_t p00 = (uint32_t)(iz * nx + ix), p10 = (uint32_t)(iz * nx + jx);
                        uint32_t p01 = (uint32_t)(jz * nx + ix), p11 = (uint32_t)(jz * nx + jx);
                        if (k + 6 > idx_cap) break;
                        all[k++] = p00, all[k++] = p01, all[k++] = p11;
                        all[k++] = p00, all[k++] = p11, all[k++] = p10;
                    }
                }
                c->count[l] = (int)k - c->first[l];
            }
        }
    }
    gait_vec3 off = {s->origin.x, s->origin.y, s->origin.z};
    mesh_upload(&r->terrain, v, nx * nz, all, (int)k, off);
    free(all);
    free(h), free(v);
}

/* The water surfaces, tessellated into cells of at most 8 m: lighting and fog are per vertex. */
static void build_water(sb_renderer *r, const sb_scene *s) {
    mesh_free(&r->water);
    if (s->water_count == 0) return;
    const double max_cell = 8.0;
    size_t total = 0;
    for (int i = 0; i < s->water_count; i++) {
        const gait_water_region *w = &s->water[i];
        size_t nx = (size_t)ceil((w->max_x - w->min_x) / max_cell), nz = (size_t)ceil((w->max_z - w->min_z) / max_cell);
        total += (nx ? nx : 1) * (nz ? nz : 1) * 6;
    }
    sb_vertex *v = malloc(sizeof *v * total);
    if (!v) return;
    int k = 0;
    for (int i = 0; i < s->water_count; i++) {
        const gait_water_region *w = &s->water[i];
        int nx = (int)ceil((w->max_x - w->min_x) / max_cell), nz = (int)ceil((w->max_z - w->min_z) / max_cell);
        if (nx < 1) nx = 1;
        if (nz < 1) nz = 1;
        float y = (float)w->surface;
        for (int iz = 0; iz < nz; iz++) {
            for (int ix = 0; ix < nx; ix++) {
                float x0 = (float)(w->min_x + (w->max_x - w->min_x) * ix / nx);
                float x1 = (float)(w->min_x + (w->max_x - w->min_x) * (ix + 1) / nx);
                float z0 = (float)(w->min_z + (w->max_z - w->min_z) * iz / nz);
                float z1 = (float)(w->min_z + (w->max_z - w->min_z) * (iz + 1) / nz);
                const float corners[6][2] = {{x0, z0}, {x0, z1}, {x1, z1}, {x0, z0}, {x1, z1}, {x1, z0}};
                for (int c = 0; c < 6; c++)
                    v[k++] = (sb_vertex){corners[c][0], y, corners[c][1], 0, 1, 0, 0.16f, 0.38f, 0.55f};
            }
        }
    }
    mesh_upload(&r->water, v, k, NULL, 0, (gait_vec3){0, 0, 0});
    free(v);
}

void sb_renderer_sync_scene(sb_renderer *r, const sb_scene *s, const gait_collider *col) {
    if (r->scene_generation == s->generation) return;
    for (int i = 0; i < r->landmark_count; i++) mesh_free(&r->landmarks[i]);
    r->landmark_count = 0;
    build_terrain(r, s, col);
    build_water(r, s);
    for (int i = 0; i < s->landmark_count; i++) {
        const sb_draw_mesh *m = &s->meshes[i];
        mesh_upload(&r->landmarks[r->landmark_count], m->verts, m->count, NULL, 0, m->offset);
        r->landmarks[r->landmark_count++].landmark = s->landmarks[i];
    }
    r->scene_generation = s->generation;
}

void sb_renderer_move_landmarks(sb_renderer *r, const gait_collider *col, double alpha) {
    if (gait_collider_moving_count(col) == 0) return;
    for (int i = 0; i < r->landmark_count; i++) {
        gpu_mesh *m = &r->landmarks[i];
        gait_transform t;
        if (!gait_collider_landmark_moving(col, m->landmark) ||
            gait_collider_landmark_drawn(col, m->landmark, alpha, &t) != GAIT_OK)
            continue;
        m->offset = t.position;
        double x = t.rotation[0], y = t.rotation[1], z = t.rotation[2], w = t.rotation[3];
        double rm[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                        2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                        2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
        for (int k = 0; k < 9; k++) m->model[k] = (float)rm[k];
        m->turned = true;
    }
}

/* ---- create / destroy --------------------------------------------------------------------- */

static void lit_locations(GLuint prog, lit_uniforms *u) {
#define UL(name) u->name = glGetUniformLocation(prog, "u_" #name)
    UL(view_proj); UL(offset); UL(model); UL(sun_dir); UL(sun_color); UL(sky_color); UL(ground_color);
    UL(fog_color); UL(fog_density); UL(tint); UL(specular);
#undef UL
}

sb_renderer *sb_renderer_create(const char *dir, char *err, size_t cap) {
    sb_renderer *r = calloc(1, sizeof *r);
    if (!r) { snprintf(err, cap, "out of memory"); return NULL; }
    r->scene_generation = -1;
    r->render_scale = 1.0f;
    r->lit = program(dir, "lit.vert", "lit.frag", err, cap);
    r->water_prog = r->lit ? program(dir, "lit.vert", "water.frag", err, cap) : 0;
    r->sky = r->water_prog ? program(dir, "sky.vert", "sky.frag", err, cap) : 0;
    r->line = r->sky ? program(dir, "line.vert", "line.frag", err, cap) : 0;
    r->hud = r->line ? program(dir, "hud.vert", "hud.frag", err, cap) : 0;
    r->upscale = r->hud ? program(dir, "upscale.vert", "upscale.frag", err, cap) : 0;
    if (!r->upscale) { sb_renderer_destroy(r); return NULL; }
    lit_locations(r->lit, &r->ul);
    lit_locations(r->water_prog, &r->uw);
    r->us.inv_view_proj = glGetUniformLocation(r->sky, "u_inv_view_proj");
    r->us.sun_dir = glGetUniformLocation(r->sky, "u_sun_dir");
    r->us.zenith = glGetUniformLocation(r->sky, "u_zenith");
    r->us.horizon = glGetUniformLocation(r->sky, "u_horizon");
    r->us.below = glGetUniformLocation(r->sky, "u_below");
    r->line_view_proj = glGetUniformLocation(r->line, "u_view_proj");
    r->hud_screen = glGetUniformLocation(r->hud, "u_screen");
    glGenVertexArrays(1, &r->empty_vao);

    glGenVertexArrays(1, &r->dyn_vao);
    glBindVertexArray(r->dyn_vao);
    glGenBuffers(1, &r->dyn_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->dyn_vbo);
    lit_layout();

    glGenVertexArrays(1, &r->line_vao);
    glBindVertexArray(r->line_vao);
    glGenBuffers(1, &r->line_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->line_vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(sb_line_vertex), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(sb_line_vertex), (void *)(3 * sizeof(float)));

    glGenVertexArrays(1, &r->hud_vao);
    glBindVertexArray(r->hud_vao);
    glGenBuffers(1, &r->hud_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, r->hud_vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(hud_vertex), (void *)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(hud_vertex), (void *)(2 * sizeof(float)));
    glBindVertexArray(0);
    return r;
}

void sb_renderer_destroy(sb_renderer *r) {
    if (!r) return;
    for (int i = 0; i < r->landmark_count; i++) mesh_free(&r->landmarks[i]);
    mesh_free(&r->terrain);
    mesh_free(&r->water);
    free(r->chunks);
    if (r->lit) glDeleteProgram(r->lit);
    if (r->water_prog) glDeleteProgram(r->water_prog);
    if (r->upscale) glDeleteProgram(r->upscale);
    if (r->sky) glDeleteProgram(r->sky);
    if (r->line) glDeleteProgram(r->line);
    if (r->hud) glDeleteProgram(r->hud);
    if (r->empty_vao) glDeleteVertexArrays(1, &r->empty_vao);
    if (r->dyn_vao) glDeleteVertexArrays(1, &r->dyn_vao);
    if (r->dyn_vbo) glDeleteBuffers(1, &r->dyn_vbo);
    if (r->line_vao) glDeleteVertexArrays(1, &r->line_vao);
    if (r->line_vbo) glDeleteBuffers(1, &r->line_vbo);
    if (r->hud_vao) glDeleteVertexArrays(1, &r->hud_vao);
    if (r->hud_vbo) glDeleteBuffers(1, &r->hud_vbo);
    if (r->fbo) glDeleteFramebuffers(1, &r->fbo);
    if (r->fbo_color) glDeleteTextures(1, &r->fbo_color);
    if (r->fbo_depth) glDeleteRenderbuffers(1, &r->fbo_depth);
    free(r->dyn);
    free(r->hud_verts);
    free(r);
}

/* ---- the character (built each frame, relative to the eye) -------------------------------- */

static void dyn_push(sb_renderer *r, sb_vertex v) {
    if (r->dyn_count == r->dyn_cap) {
        int cap = r->dyn_cap ? r->dyn_cap * 2 : 1024;
        sb_vertex *grown = realloc(r->dyn, sizeof *grown * (size_t)cap);
        if (!grown) return;
        r->dyn = grown;
        r->dyn_cap = cap;
    }
    r->dyn[r->dyn_count++] = v;
}

static void dyn_tri(sb_renderer *r, const vec3 a, const vec3 b, const vec3 c, const float *col) {
    vec3 e1, e2, n;
    glm_vec3_sub((float *)b, (float *)a, e1);
    glm_vec3_sub((float *)c, (float *)a, e2);
    glm_vec3_cross(e1, e2, n);
    glm_vec3_normalize(n);
    const float *p[3] = {a, b, c};
    for (int k = 0; k < 3; k++)
        dyn_push(r, (sb_vertex){p[k][0], p[k][1], p[k][2], n[0], n[1], n[2], col[0], col[1], col[2]});
}

/* A capsule from `feet` (relative to the eye) along axes[1] (its up), smooth normals; axes are
 * the capsule's local x, y, z as unit vectors (identity: standing). */
static void dyn_capsule(sb_renderer *r, const vec3 feet, float radius, float height, const float *col,
                        const float axes[3][3]) {
    enum { SEG = 18, RINGS = 6 };
    float cyl = height - 2 * radius;
    if (cyl < 0) cyl = 0;
    /* Rings from the bottom pole to the top pole: a hemisphere, the cylinder, a hemisphere. */
    float ry[2 * RINGS + 2], rr[2 * RINGS + 2], ny[2 * RINGS + 2];
    int n = 0;
    for (int i = 0; i <= RINGS; i++) {
        float a = (float)GLM_PI_2 * (float)(RINGS - i) / RINGS; /* from -pi/2 up to 0 */
        ry[n] = radius - radius * sinf(a), rr[n] = radius * cosf(a), ny[n] = -sinf(a), n++;
    }
    for (int i = 0; i <= RINGS; i++) {
        float a = (float)GLM_PI_2 * (float)i / RINGS;
        ry[n] = radius + cyl + radius * sinf(a), rr[n] = radius * cosf(a), ny[n] = sinf(a), n++;
    }
    for (int i = 0; i + 1 < n; i++) {
        for (int s = 0; s < SEG; s++) {
            float a0 = 2 * (float)GLM_PI * (float)s / SEG, a1 = 2 * (float)GLM_PI * (float)(s + 1) / SEG;
            float q[4][3], qn[4][3];
            const float ang[4] = {a0, a1, a1, a0};
            const int ring[4] = {i, i, i + 1, i + 1};
            for (int k = 0; k < 4; k++) {
                float c = cosf(ang[k]), sn = sinf(ang[k]);
                q[k][0] = feet[0] + rr[ring[k]] * c;
                q[k][1] = feet[1] + ry[ring[k]];
                q[k][2] = feet[2] + rr[ring[k]] * sn;
                float h = sqrtf(fmaxf(0, 1 - ny[ring[k]] * ny[ring[k]]));
                qn[k][0] = h * c, qn[k][1] = ny[ring[k]], qn[k][2] = h * sn;
            }
            const int tri[6] = {0, 2, 1, 0, 3, 2};
            for (int t = 0; t < 6; t++) {
                int k = tri[t];
                float lp[3] = {q[k][0] - feet[0], q[k][1] - feet[1], q[k][2] - feet[2]}, wp[3], wn[3];
                for (int c = 0; c < 3; c++) {
                    wp[c] = feet[c] + axes[0][c] * lp[0] + axes[1][c] * lp[1] + axes[2][c] * lp[2];
                    wn[c] = axes[0][c] * qn[k][0] + axes[1][c] * qn[k][1] + axes[2][c] * qn[k][2];
                }
                dyn_push(r, (sb_vertex){wp[0], wp[1], wp[2], wn[0], wn[1], wn[2], col[0], col[1], col[2]});
            }
        }
    }
}

/* A box centred at c (relative to the eye) with half sizes h, turned by yaw. */
static void dyn_box(sb_renderer *r, const vec3 c, const vec3 h, float yaw, const float *col) {
    float cs = cosf(yaw), sn = sinf(yaw);
    vec3 p[8];
    for (int k = 0; k < 8; k++) {
        float lx = (k & 1) ? h[0] : -h[0], ly = (k & 2) ? h[1] : -h[1], lz = (k & 4) ? h[2] : -h[2];
        p[k][0] = c[0] + lx * cs + lz * sn;
        p[k][1] = c[1] + ly;
        p[k][2] = c[2] - lx * sn + lz * cs;
    }
    const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int f = 0; f < 6; f++) {
        dyn_tri(r, p[faces[f][0]], p[faces[f][1]], p[faces[f][2]], col);
        dyn_tri(r, p[faces[f][0]], p[faces[f][2]], p[faces[f][3]], col);
    }
}

void sb_state_color(gait_state s, float *c) {
    static const float table[GAIT_STATE_COUNT][3] = {
        [GAIT_STATE_IDLE] = {0.25f, 0.45f, 0.85f},  [GAIT_STATE_WALK] = {0.30f, 0.55f, 0.90f},
        [GAIT_STATE_RUN] = {0.20f, 0.60f, 1.00f},   [GAIT_STATE_DASH] = {0.10f, 0.95f, 1.00f},
        [GAIT_STATE_SPRINT] = {0.10f, 0.85f, 0.70f}, [GAIT_STATE_CROUCH] = {0.60f, 0.35f, 0.85f},
        [GAIT_STATE_JUMP] = {1.00f, 0.85f, 0.20f},  [GAIT_STATE_FALL] = {1.00f, 0.55f, 0.15f},
        [GAIT_STATE_GLIDE] = {0.55f, 0.95f, 0.45f}, [GAIT_STATE_PLUNGE] = {0.95f, 0.15f, 0.15f},
        [GAIT_STATE_CLIMB] = {0.65f, 0.45f, 0.25f}, [GAIT_STATE_CLIMB_JUMP] = {0.95f, 0.75f, 0.30f},
        [GAIT_STATE_SWIM] = {0.15f, 0.30f, 0.95f},  [GAIT_STATE_SWIM_DASH] = {0.20f, 0.85f, 0.95f},
        [GAIT_STATE_DROWN] = {0.15f, 0.15f, 0.20f}, [GAIT_STATE_TRAVERSE] = {0.95f, 0.30f, 0.85f},
        [GAIT_STATE_ACTION] = {1.00f, 1.00f, 1.00f},
    };
    const float *t = ((unsigned)s < GAIT_STATE_COUNT) ? table[s] : table[0];
    memcpy(c, t, 3 * sizeof(float));
}

static void build_character(sb_renderer *r, const sb_character_draw *ch, const gait_vec3 eye) {
    vec3 feet = {(float)(ch->pose.position.x - eye.x), (float)(ch->pose.position.y - eye.y),
                 (float)(ch->pose.position.z - eye.z)};
    float col[3];
    sb_state_color(ch->state, col);
    /* Party members 2..4 are told apart by a warmer / cooler shade. */
    static const float party_tint[4][3] = {{1, 1, 1}, {1.1f, 0.9f, 0.8f}, {0.9f, 1.05f, 0.9f}, {0.85f, 0.85f, 1.1f}};
    int pi = (ch->party >= 1 && ch->party <= 4) ? ch->party - 1 : 0;
    for (int k = 0; k < 3; k++) col[k] = fminf(1.0f, col[k] * party_tint[pi][k]);
    float height = (float)ch->height, radius = (float)ch->radius;
    if (ch->state == GAIT_STATE_SWIM || ch->state == GAIT_STATE_SWIM_DASH || ch->state == GAIT_STATE_DROWN) {
        /* Swimming: the capsule lies along the facing, at the feet's depth plus a radius. */
        float sy = sinf((float)ch->pose.yaw), cy = cosf((float)ch->pose.yaw);
        const float axes[3][3] = {{cy, 0, -sy}, {sy, 0, cy}, {0, -1, 0}};
        vec3 tail = {feet[0] - sy * height * 0.5f, feet[1] + radius, feet[2] - cy * height * 0.5f};
        dyn_capsule(r, tail, radius, height, col, axes);
    } else {
        const float up[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        dyn_capsule(r, feet, radius, height, col, up);
    }
    float yaw = (float)ch->pose.yaw;
    /* The facing: a nose at head height. */
    static const float nose_col[3] = {0.95f, 0.95f, 0.95f};
    bool lying = ch->state == GAIT_STATE_SWIM || ch->state == GAIT_STATE_SWIM_DASH || ch->state == GAIT_STATE_DROWN;
    float reach = lying ? height * 0.5f + 0.02f : radius * 1.05f;
    vec3 nose = {feet[0] + sinf(yaw) * reach, feet[1] + (lying ? radius * 1.6f : height * 0.82f),
                 feet[2] + cosf(yaw) * reach};
    vec3 nose_h = {0.07f, 0.05f, 0.12f};
    dyn_box(r, nose, nose_h, yaw, nose_col);
    if (ch->state == GAIT_STATE_GLIDE) {
        /* The glider: a canopy 3.6 m wide over the head, its leading edge along the facing and
         * raised (so it shows from the follow camera, which rides about its height), the tips
         * bent down; two rods hold it to the shoulders. */
        static const float wing[3] = {0.95f, 0.88f, 0.62f}, rod[3] = {0.35f, 0.30f, 0.25f};
        float cs = cosf(yaw), sn = sinf(yaw);
        float base = feet[1] + height + 0.45f;
        /* local (across, up, along) -> relative to the eye; across is the body's left (+x at yaw 0) */
#define GL_PT(out, a, u, f) vec3 out = {feet[0] + (a) * cs + (f) * sn, base + (u), feet[2] - (a) * sn + (f) * cs}
        GL_PT(fl, 1.8f, -0.25f, 0.55f); GL_PT(fm, 0.6f, 0.15f, 0.75f); GL_PT(fc, 0.0f, 0.2f, 0.8f);
        GL_PT(fn, -0.6f, 0.15f, 0.75f); GL_PT(fr, -1.8f, -0.25f, 0.55f);
        GL_PT(bl, 1.8f, -0.45f, -0.45f); GL_PT(bm, 0.6f, -0.1f, -0.5f); GL_PT(bc, 0.0f, -0.05f, -0.5f);
        GL_PT(bn, -0.6f, -0.1f, -0.5f); GL_PT(br, -1.8f, -0.45f, -0.45f);
#undef GL_PT
        dyn_tri(r, fl, bl, bm, wing); dyn_tri(r, fl, bm, fm, wing);
        dyn_tri(r, fm, bm, bc, wing); dyn_tri(r, fm, bc, fc, wing);
        dyn_tri(r, fc, bc, bn, wing); dyn_tri(r, fc, bn, fn, wing);
        dyn_tri(r, fn, bn, br, wing); dyn_tri(r, fn, br, fr, wing);
        for (int side = -1; side <= 1; side += 2) {
            float a = 0.22f * (float)side;
            vec3 c = {feet[0] + a * cs, feet[1] + height + 0.2f, feet[2] - a * sn};
            vec3 h = {0.03f, 0.3f, 0.03f};
            dyn_box(r, c, h, yaw, rod);
        }
    }
}

/* A flat disc under the body (its shadow, darker the nearer the ground) and, in it, an arrow
 * along the facing that shows from behind (the follow camera's usual view), both lying on the
 * surface below the feet. Appended to the dyn vertices. */
static float build_ground_marks(sb_renderer *r, const sb_character_draw *ch, gait_vec3 eye) {
    vec3 c = {(float)(ch->ground.x - eye.x), (float)(ch->ground.y - eye.y), (float)(ch->ground.z - eye.z)};
    vec3 n = {(float)ch->ground_normal.x, (float)ch->ground_normal.y, (float)ch->ground_normal.z};
    if (n[1] < 0.2f) n[0] = 0, n[1] = 1, n[2] = 0;   /* a wall below? lie flat */
    /* two axes in the surface: along the facing and across it */
    float yaw = (float)ch->pose.yaw;
    vec3 f = {sinf(yaw), 0, cosf(yaw)}, s;
    glm_vec3_cross(n, f, s);
    glm_vec3_normalize(s);
    glm_vec3_cross(s, n, f);
    float above = (float)(ch->pose.position.y - ch->ground.y);
    float fade = above < 0 ? 1.0f : fmaxf(0.0f, 1.0f - above / 12.0f);   /* gone 12 m up */
    if (fade <= 0) return 0;
    float rad = (float)ch->radius * 1.3f;
    static const float dark[3] = {0, 0, 0};
    enum { SEG = 20 };
    for (int k = 0; k < SEG; k++) {
        float a0 = 2 * (float)GLM_PI * (float)k / SEG, a1 = 2 * (float)GLM_PI * (float)(k + 1) / SEG;
        vec3 p0, p1;
        for (int i = 0; i < 3; i++) {
            p0[i] = c[i] + (cosf(a0) * f[i] + sinf(a0) * s[i]) * rad;
            p1[i] = c[i] + (cosf(a1) * f[i] + sinf(a1) * s[i]) * rad;
        }
        dyn_tri(r, c, p0, p1, dark);
    }
    /* the arrow: a light chevron from the disc's middle to beyond its front edge */
    static const float light[3] = {0.95f, 0.95f, 0.85f};
    vec3 tip, l, rr, back;
    for (int i = 0; i < 3; i++) {
        tip[i] = c[i] + f[i] * rad * 1.6f + n[i] * 0.005f;
        l[i] = c[i] + f[i] * rad * 0.3f + s[i] * rad * 0.55f + n[i] * 0.005f;
        rr[i] = c[i] + f[i] * rad * 0.3f - s[i] * rad * 0.55f + n[i] * 0.005f;
        back[i] = c[i] + f[i] * rad * 0.7f + n[i] * 0.005f;
    }
    dyn_tri(r, tip, l, back, light);
    dyn_tri(r, tip, back, rr, light);
    return fade;
}

static void draw_dyn(sb_renderer *r, int first, int count) {
    if (count <= 0) return;
    glUniform3f(r->ul.offset, 0, 0, 0);
    glBindVertexArray(r->dyn_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->dyn_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(sb_vertex) * (size_t)count), r->dyn + first, GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, count);
}

/* ---- a frame ------------------------------------------------------------------------------ */

static void set_lit(GLuint prog, const lit_uniforms *u, mat4 vp, bool underwater) {
    const vec3 sun = SUN_TOWARDS;
    vec3 sun_dir;
    glm_vec3_normalize_to((float *)sun, sun_dir);
    glUseProgram(prog);
    glUniformMatrix4fv(u->view_proj, 1, GL_FALSE, (const float *)vp);
    glUniformMatrix3fv(u->model, 1, GL_TRUE, IDENTITY3);
    glUniform3fv(u->sun_dir, 1, sun_dir);
    glUniform3f(u->sun_color, 0.95f, 0.90f, 0.80f);
    glUniform3f(u->sky_color, 0.55f, 0.65f, 0.82f);
    glUniform3f(u->ground_color, 0.42f, 0.39f, 0.34f);
    if (underwater) {
        glUniform3f(u->fog_color, 0.08f, 0.22f, 0.32f);
        glUniform1f(u->fog_density, 1.0f / 25.0f);
    } else {
        glUniform3f(u->fog_color, 0.70f, 0.80f, 0.92f);
        glUniform1f(u->fog_density, 1.0f / 420.0f);
    }
    glUniform4f(u->tint, 1, 1, 1, 1);
    if (u->specular >= 0) glUniform1f(u->specular, 0);
}

static void draw_mesh(const lit_uniforms *u, const gpu_mesh *m, gait_vec3 eye) {
    if (!m->vao || m->count == 0) return;
    glUniform3f(u->offset, (float)(m->offset.x - eye.x), (float)(m->offset.y - eye.y),
                (float)(m->offset.z - eye.z));
    glUniformMatrix3fv(u->model, 1, GL_TRUE, m->turned ? m->model : IDENTITY3);
    glBindVertexArray(m->vao);
    if (m->ebo) glDrawElements(GL_TRIANGLES, m->count, GL_UNSIGNED_INT, 0);
    else glDrawArrays(GL_TRIANGLES, 0, m->count);
}

typedef struct chunk_draw {
    float d2;
    int index, lod;
} chunk_draw;

static int by_distance(const void *a, const void *b) {
    float da = ((const chunk_draw *)a)->d2, db = ((const chunk_draw *)b)->d2;
    return (da > db) - (da < db);
}

/* The chunks in the view, nearest first: a near hill hides the far ones, and llvmpipe skips
 * the shading of pixels that fail the depth test. */
static void draw_terrain(sb_renderer *r, mat4 vp, gait_vec3 eye) {
    r->terrain_triangles_drawn = 0;
    if (!r->terrain.vao || !r->chunks) return;
    vec4 planes[6];
    glm_frustum_planes(vp, planes);
    vec3 off = {(float)(r->terrain.offset.x - eye.x), (float)(r->terrain.offset.y - eye.y),
                (float)(r->terrain.offset.z - eye.z)};
    chunk_draw list[1024];
    int n = 0;
    for (int i = 0; i < r->chunk_count && n < (int)(sizeof list / sizeof list[0]); i++) {
        const terrain_chunk *c = &r->chunks[i];
        vec3 box[2];
        for (int k = 0; k < 3; k++) box[0][k] = c->box[0][k] + off[k], box[1][k] = c->box[1][k] + off[k];
        if (!glm_aabb_frustum(box, planes)) continue;
        /* Distance from the eye (the origin) to the box. */
        float d2 = 0;
        for (int k = 0; k < 3; k++) {
            float q = box[0][k] > 0 ? box[0][k] : box[1][k] < 0 ? -box[1][k] : 0;
            d2 += q * q;
        }
        int l = d2 < 60.0f * 60.0f ? 0 : d2 < 140.0f * 140.0f ? 1 : d2 < 280.0f * 280.0f ? 2 : 3;
        list[n++] = (chunk_draw){d2, i, l};
    }
    qsort(list, (size_t)n, sizeof list[0], by_distance);
    glUniform3fv(r->ul.offset, 1, off);
    glBindVertexArray(r->terrain.vao);
    for (int i = 0; i < n; i++) {
        const terrain_chunk *c = &r->chunks[list[i].index];
        int l = list[i].lod;
        glDrawElements(GL_TRIANGLES, c->count[l], GL_UNSIGNED_INT,
                       (const void *)((size_t)c->first[l] * sizeof(uint32_t)));
        r->terrain_triangles_drawn += c->count[l] / 3;
    }
}

bool sb_renderer_project(const sb_renderer *r, gait_vec3 p, int width, int height, float *sx, float *sy) {
    vec4 q = {(float)(p.x - r->last_eye.x), (float)(p.y - r->last_eye.y), (float)(p.z - r->last_eye.z), 1.0f};
    vec4 c;
    glm_mat4_mulv((vec4 *)r->last_view_proj, q, c);
    if (c[3] <= 0.05f) return false;   /* behind the eye */
    *sx = (c[0] / c[3] * 0.5f + 0.5f) * (float)width;
    *sy = (0.5f - c[1] / c[3] * 0.5f) * (float)height;
    return true;
}

/* CPU time of the whole process (this thread and llvmpipe's rasterizer threads): what a pass
 * costs, which other programs on a shared machine inflate far less than the wall clock. */
static double mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* With profiling on, waits for the GPU (llvmpipe: the rasterizer threads) to finish what was
 * asked so far and books the CPU time since the last mark to `pass`. */
static void pass_mark(sb_renderer *r, int pass) {
    if (!r->profile) return;
    glFinish();
    double t = mono_ms();
    r->pass_ms[pass] += t - r->pass_t0;
    r->pass_t0 = t;
}

void sb_renderer_set_profile(sb_renderer *r, bool on) { r->profile = on; }
int sb_renderer_terrain_triangles(const sb_renderer *r) { return r->terrain_triangles_drawn; }

void sb_renderer_pass_ms(sb_renderer *r, double out[SB_PASS_COUNT]) {
    for (int i = 0; i < SB_PASS_COUNT; i++) out[i] = r->pass_ms[i], r->pass_ms[i] = 0;
}

void sb_renderer_profile_mark(sb_renderer *r, int pass) {
    if (pass < 0) { if (r->profile) { glFinish(); r->pass_t0 = mono_ms(); } return; }
    pass_mark(r, pass);
}

void sb_renderer_set_wireframe(sb_renderer *r, int first, int count) {
    r->wire_first = first, r->wire_count = count;
}

void sb_renderer_set_scale(sb_renderer *r, float scale) {
    r->render_scale = scale < 0.1f ? 0.1f : scale > 1.0f ? 1.0f : scale;
}

float sb_renderer_scale(const sb_renderer *r) { return r->render_scale; }

/* Binds the framebuffer the scene is drawn into (w x h pixels); false: draw straight to the
 * window. */
static bool bind_scene_target(sb_renderer *r, int w, int h) {
    if (r->fbo && (r->fbo_w != w || r->fbo_h != h)) {
        glDeleteFramebuffers(1, &r->fbo);
        glDeleteTextures(1, &r->fbo_color);
        glDeleteRenderbuffers(1, &r->fbo_depth);
        r->fbo = r->fbo_color = r->fbo_depth = 0;
    }
    if (!r->fbo) {
        glGenFramebuffers(1, &r->fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
        /* A texture, not a renderbuffer: glBlitFramebuffer's scaled blit costs llvmpipe more
         * than a textured triangle (measured with --profile at 1280x720, scale 0.5: ~8-9 ms of
         * CPU against ~6). Nearest, not linear: bilinear filtering took 9-13 ms there. */
        glGenTextures(1, &r->fbo_color);
        glBindTexture(GL_TEXTURE_2D, r->fbo_color);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, r->fbo_color, 0);
        glGenRenderbuffers(1, &r->fbo_depth);
        glBindRenderbuffer(GL_RENDERBUFFER, r->fbo_depth);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, r->fbo_depth);
        r->fbo_w = w, r->fbo_h = h;
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            r->render_scale = 1.0f;   /* give up on scaling; draw to the window */
            return false;
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    return true;
}

void sb_renderer_draw(sb_renderer *r, const sb_scene *scene, const sb_view *view,
                      const sb_character_draw *ch, const sb_line_vertex *lines, int line_count,
                      bool underwater) {
    (void)scene;
    int sw = view->width, sh = view->height;
    bool scaled = false;
    if (r->render_scale < 1.0f) {
        sw = (int)((float)view->width * r->render_scale + 0.5f), sh = (int)((float)view->height * r->render_scale + 0.5f);
        if (sw < 1) sw = 1;
        if (sh < 1) sh = 1;
        scaled = bind_scene_target(r, sw, sh);
        if (!scaled) sw = view->width, sh = view->height;
    }
    if (r->profile) { glFinish(); r->pass_t0 = mono_ms(); }
    glViewport(0, 0, sw, sh);
    /* Depth only: the sky, drawn at the far plane where nothing else is, covers every pixel
     * the world leaves, so clearing the colour too is a full-screen pass for nothing. */
    glClear(GL_DEPTH_BUFFER_BIT);
    pass_mark(r, SB_PASS_CLEAR);

    /* Camera, relative to the eye (the floating origin). */
    gait_vec3 eye = view->eye;
    vec3 e = {0, 0, 0};
    vec3 t = {(float)(view->target.x - eye.x), (float)(view->target.y - eye.y), (float)(view->target.z - eye.z)};
    vec3 up = {0, 1, 0};
    mat4 v, p, vp, inv;
    glm_lookat(e, t, up, v);
    float aspect = view->height > 0 ? (float)view->width / (float)view->height : 1.0f;
    glm_perspective(view->fov_y, aspect, 0.1f, 2000.0f, p);
    glm_mat4_mul(p, v, vp);
    glm_mat4_inv(vp, inv);
    glm_mat4_copy(vp, r->last_view_proj);
    r->last_eye = eye;

    /* Opaque world. */
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glDisable(GL_CULL_FACE);
    set_lit(r->lit, &r->ul, vp, underwater);
    /* Near to far, roughly: the character, the landmarks, then the terrain nearest first. */
    r->dyn_count = 0;
    if (ch) build_character(r, ch, eye);
    bool faded = ch && ch->alpha < 0.999f;
    if (r->dyn_count && !faded) draw_dyn(r, 0, r->dyn_count);
    for (int i = 0; i < r->landmark_count; i++) draw_mesh(&r->ul, &r->landmarks[i], eye);
    glUniformMatrix3fv(r->ul.model, 1, GL_TRUE, IDENTITY3);
    draw_terrain(r, vp, eye);
    if (r->wire_count > 0) {
        /* Every triangle's edges, dark, pulled towards the eye so they win the depth test. */
        glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
        glEnable(GL_POLYGON_OFFSET_LINE);
        glPolygonOffset(-1.0f, -1.0f);
        glUniform4f(r->ul.tint, 0.15f, 0.15f, 0.15f, 1);
        for (int i = r->wire_first; i < r->wire_first + r->wire_count && i < r->landmark_count; i++)
            draw_mesh(&r->ul, &r->landmarks[i], eye);
        glUniformMatrix3fv(r->ul.model, 1, GL_TRUE, IDENTITY3);
        glUniform4f(r->ul.tint, 1, 1, 1, 1);
        glDisable(GL_POLYGON_OFFSET_LINE);
        glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    }

    /* The body's shadow and facing arrow on the ground, then the body itself when faded:
     * translucent, over the opaque world, before the sky (which fills only untouched pixels). */
    if (ch && ch->has_ground) {
        int first = r->dyn_count;
        float fade = build_ground_marks(r, ch, eye);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(-2.0f, -2.0f);
        glUniform4f(r->ul.tint, 1, 1, 1, 0.45f * fade);
        draw_dyn(r, first, r->dyn_count - first);
        glDisable(GL_POLYGON_OFFSET_FILL);
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
        glUniform4f(r->ul.tint, 1, 1, 1, 1);
        r->dyn_count = first;
    }
    if (faded && r->dyn_count) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUniform4f(r->ul.tint, 1, 1, 1, ch->alpha);
        draw_dyn(r, 0, r->dyn_count);
        glUniform4f(r->ul.tint, 1, 1, 1, 1);
        glDisable(GL_BLEND);
    }
    pass_mark(r, SB_PASS_OPAQUE);
    /* Sky. */
    /* After the opaque world, at the far plane: only the pixels nothing covered are shaded
     * (llvmpipe rejects the rest by depth before running the fragment shader). */
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    glUseProgram(r->sky);
    glUniformMatrix4fv(r->us.inv_view_proj, 1, GL_FALSE, (const float *)inv);
    const vec3 sun = SUN_TOWARDS;
    vec3 sun_dir;
    glm_vec3_normalize_to((float *)sun, sun_dir);
    if (underwater) glm_vec3_zero(sun_dir);    /* no sun disc through the water */
    glUniform3fv(r->us.sun_dir, 1, sun_dir);
    if (underwater) {
        glUniform3f(r->us.zenith, 0.10f, 0.30f, 0.42f);
        glUniform3f(r->us.horizon, 0.08f, 0.22f, 0.32f);
        glUniform3f(r->us.below, 0.05f, 0.15f, 0.22f);
    } else {
        glUniform3f(r->us.zenith, 0.22f, 0.45f, 0.85f);
        glUniform3f(r->us.horizon, 0.70f, 0.80f, 0.92f);
        glUniform3f(r->us.below, 0.62f, 0.70f, 0.78f);
    }
    glBindVertexArray(r->empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);

    pass_mark(r, SB_PASS_SKY);
    /* Debug lines, over everything (not depth-tested: a contact behind the body still shows). */
    if (lines && line_count > 0) {
        glUseProgram(r->line);
        glUniformMatrix4fv(r->line_view_proj, 1, GL_FALSE, (const float *)vp);
        glBindVertexArray(r->line_vao);
        glBindBuffer(GL_ARRAY_BUFFER, r->line_vbo);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof *lines * (size_t)line_count), lines, GL_STREAM_DRAW);
        glDisable(GL_DEPTH_TEST);
        glDrawArrays(GL_LINES, 0, line_count);
        glEnable(GL_DEPTH_TEST);
    }

    pass_mark(r, SB_PASS_LINES);
    /* Water last: translucent, both sides (seen from above and from below). */
    if (r->water.vao) {
        set_lit(r->water_prog, &r->uw, vp, underwater);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        glUniform4f(r->uw.tint, 1, 1, 1, underwater ? 0.85f : 0.70f);
        glUniform1f(r->uw.specular, underwater ? 0.0f : 0.8f);
        draw_mesh(&r->uw, &r->water, eye);
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }
    glBindVertexArray(0);
    pass_mark(r, SB_PASS_WATER);
    glViewport(0, 0, view->width, view->height);
    if (scaled) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glDisable(GL_DEPTH_TEST);
        glUseProgram(r->upscale);
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, r->fbo_color);
        glUniform1i(glGetUniformLocation(r->upscale, "u_image"), 0);
        glBindVertexArray(r->empty_vao);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindVertexArray(0);
        glEnable(GL_DEPTH_TEST);
    }
    pass_mark(r, SB_PASS_UPSCALE);
}

/* ---- HUD ---------------------------------------------------------------------------------- */

void sb_hud_begin(sb_renderer *r, int width, int height) {
    r->hud_count = 0;
    r->hud_w = width, r->hud_h = height;
}

static void hud_push(sb_renderer *r, float x, float y, float cr, float cg, float cb, float ca) {
    if (r->hud_count == r->hud_cap) {
        int cap = r->hud_cap ? r->hud_cap * 2 : 4096;
        hud_vertex *grown = realloc(r->hud_verts, sizeof *grown * (size_t)cap);
        if (!grown) return;
        r->hud_verts = grown;
        r->hud_cap = cap;
    }
    r->hud_verts[r->hud_count++] = (hud_vertex){x, y, cr, cg, cb, ca};
}

void sb_hud_rect(sb_renderer *r, float x, float y, float w, float h, float cr, float cg, float cb, float ca) {
    hud_push(r, x, y, cr, cg, cb, ca);
    hud_push(r, x + w, y, cr, cg, cb, ca);
    hud_push(r, x + w, y + h, cr, cg, cb, ca);
    hud_push(r, x, y, cr, cg, cb, ca);
    hud_push(r, x + w, y + h, cr, cg, cb, ca);
    hud_push(r, x, y + h, cr, cg, cb, ca);
}

void sb_hud_ring(sb_renderer *r, float cx, float cy, float r_in, float r_out, float frac, float cr,
                 float cg, float cb, float ca) {
    enum { SEGMENTS = 48 };
    int n = (int)(SEGMENTS * (frac < 0 ? 0 : frac > 1 ? 1 : frac) + 0.5f);
    for (int i = 0; i < n; i++) {
        /* Clockwise from the top, like a clock's hand. */
        float a0 = 2 * (float)GLM_PI * (float)i / SEGMENTS, a1 = 2 * (float)GLM_PI * (float)(i + 1) / SEGMENTS;
        float s0 = sinf(a0), c0 = -cosf(a0), s1 = sinf(a1), c1 = -cosf(a1);
        hud_push(r, cx + s0 * r_in, cy + c0 * r_in, cr, cg, cb, ca);
        hud_push(r, cx + s0 * r_out, cy + c0 * r_out, cr, cg, cb, ca);
        hud_push(r, cx + s1 * r_out, cy + c1 * r_out, cr, cg, cb, ca);
        hud_push(r, cx + s0 * r_in, cy + c0 * r_in, cr, cg, cb, ca);
        hud_push(r, cx + s1 * r_out, cy + c1 * r_out, cr, cg, cb, ca);
        hud_push(r, cx + s1 * r_in, cy + c1 * r_in, cr, cg, cb, ca);
    }
}

void sb_hud_end(sb_renderer *r) {
    if (r->hud_count == 0) return;
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(r->hud);
    glUniform2f(r->hud_screen, (float)r->hud_w, (float)r->hud_h);
    glBindVertexArray(r->hud_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->hud_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(hud_vertex) * (size_t)r->hud_count), r->hud_verts, GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, r->hud_count);
    glBindVertexArray(0);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    r->hud_count = 0;
    pass_mark(r, SB_PASS_HUD);
}
