/* Level import through assimp's C API. Host-side only: the library takes triangles, it never
 * parses files (ARCHITECTURE.md: collide knows nothing of file formats). */
#include "level.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

static int level_err(char *err, size_t cap, const char *fmt, ...) {
    if (err && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

typedef struct level_ctx {
    gait_collider *c;
    const struct aiScene *scene;
    double scale;
    int zup;
    gait_landmark_id *ids;
    int cap, n;
    char *err;
    size_t errcap;
    const char *path;
} level_ctx;

/* parent * local (assimp matrices are row-major with the translation in a4, b4, c4) */
static struct aiMatrix4x4 mat_mul(const struct aiMatrix4x4 *a, const struct aiMatrix4x4 *b) {
    const float *x = &a->a1, *y = &b->a1;
    struct aiMatrix4x4 r;
    float *o = &r.a1;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float s = 0;
            for (int k = 0; k < 4; k++) s += x[i * 4 + k] * y[k * 4 + j];
            o[i * 4 + j] = s;
        }
    return r;
}

/* One mesh instance: world positions in doubles, stored as floats around their centre. */
static int add_mesh(level_ctx *x, const struct aiMesh *m, const struct aiMatrix4x4 *w,
                    const char *node_name) {
    if (m->mNumVertices == 0 || m->mNumFaces == 0 || !(m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
        return 0;
    size_t nv = m->mNumVertices;
    double *p = malloc(sizeof(double) * 3 * nv);
    float *f = malloc(sizeof(float) * 3 * nv);
    uint32_t *idx = malloc(sizeof(uint32_t) * 3 * m->mNumFaces);
    if (!p || !f || !idx) {
        free(p); free(f); free(idx);
        return level_err(x->err, x->errcap, "%s: out of memory", x->path);
    }
    const float *M = &w->a1;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < nv; i++) {
        const struct aiVector3D *v = &m->mVertices[i];
        double q[3];
        for (int r = 0; r < 3; r++)
            q[r] = ((double)M[r * 4] * v->x + (double)M[r * 4 + 1] * v->y + (double)M[r * 4 + 2] * v->z +
                    (double)M[r * 4 + 3]) * x->scale;
        if (x->zup) { double y = q[1]; q[1] = q[2]; q[2] = -y; }
        for (int a = 0; a < 3; a++) {
            p[3 * i + a] = q[a];
            if (isfinite(q[a])) { lo[a] = fmin(lo[a], q[a]); hi[a] = fmax(hi[a], q[a]); }
        }
    }
    gait_vec3 centre = {0, 0, 0};
    if (lo[0] <= hi[0]) centre = (gait_vec3){(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
    for (size_t i = 0; i < nv; i++) {
        f[3 * i] = (float)(p[3 * i] - centre.x);
        f[3 * i + 1] = (float)(p[3 * i + 1] - centre.y);
        f[3 * i + 2] = (float)(p[3 * i + 2] - centre.z);
    }
    int nt = 0;
    for (unsigned i = 0; i < m->mNumFaces; i++) {
        const struct aiFace *fc = &m->mFaces[i];
        if (fc->mNumIndices != 3) continue; /* points and lines of a mixed mesh */
        for (int k = 0; k < 3; k++) idx[3 * nt + k] = fc->mIndices[k];
        nt++;
    }
    int rc = 0;
    if (nt > 0) {
        if (x->n >= x->cap) {
            rc = level_err(x->err, x->errcap, "%s: more than %d meshes (the ids array is full)", x->path, x->cap);
        } else {
            char name[160];
            snprintf(name, sizeof name, "%.70s/%.70s", node_name, m->mName.length ? m->mName.data : "mesh");
            gait_mesh_def d = {f, (int)nv, idx, nt, centre, name};
            gait_landmark_id id;
            gait_status st = gait_collider_add_landmark(x->c, &d, &id);
            if (st == GAIT_OK) x->ids[x->n++] = id;
            else if (st != GAIT_ERR_INVALID_ARGUMENT) /* all degenerate is skipped, the rest fails */
                rc = level_err(x->err, x->errcap, "%s: mesh %s: %s", x->path, name, gait_collider_last_error(x->c));
        }
    }
    free(p); free(f); free(idx);
    return rc;
}

static int walk_node(level_ctx *x, const struct aiNode *node, const struct aiMatrix4x4 *parent, int depth) {
    if (depth > 256) return level_err(x->err, x->errcap, "%s: node tree deeper than 256", x->path);
    struct aiMatrix4x4 w = mat_mul(parent, &node->mTransformation);
    for (unsigned i = 0; i < node->mNumMeshes; i++) {
        if (node->mMeshes[i] >= x->scene->mNumMeshes) continue;
        if (add_mesh(x, x->scene->mMeshes[node->mMeshes[i]], &w, node->mName.data) < 0) return -1;
    }
    for (unsigned i = 0; i < node->mNumChildren; i++)
        if (walk_node(x, node->mChildren[i], &w, depth + 1) < 0) return -1;
    return 0;
}

int gait_level_load(gait_collider *c, const char *path, double scale, int up_axis,
                    gait_landmark_id *out_ids, int cap, char *err, size_t errcap) {
    if (!c || !path || !out_ids || cap < 1)
        return level_err(err, errcap, "level: collider, path and a non-empty ids array are required");
    if (!(scale > 0) || !isfinite(scale))
        return level_err(err, errcap, "%s: scale %g must be finite and > 0", path, scale);
    if (up_axis != 'y' && up_axis != 'z' && up_axis != 'Y' && up_axis != 'Z')
        return level_err(err, errcap, "%s: up axis must be 'y' or 'z'", path);
    FILE *probe = fopen(path, "rb");
    if (!probe) return level_err(err, errcap, "%s: cannot open the file", path);
    fclose(probe);
    const struct aiScene *scene = aiImportFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                                         aiProcess_SortByPType);
    if (!scene) return level_err(err, errcap, "%s: cannot import: %s", path, aiGetErrorString());
    if (!scene->mRootNode || scene->mNumMeshes == 0) {
        aiReleaseImport(scene);
        return level_err(err, errcap, "%s: no meshes in the file", path);
    }
    level_ctx x = {c, scene, scale, up_axis == 'z' || up_axis == 'Z', out_ids, cap, 0, err, errcap, path};
    struct aiMatrix4x4 id = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    int rc = walk_node(&x, scene->mRootNode, &id, 0);
    aiReleaseImport(scene);
    if (rc == 0 && x.n == 0) rc = level_err(err, errcap, "%s: no triangles in the file", path);
    if (rc < 0) {
        /* nothing half-applied: what this call added goes again */
        for (int i = 0; i < x.n; i++) gait_collider_remove_landmark(c, out_ids[i]);
        return -1;
    }
    return x.n;
}
