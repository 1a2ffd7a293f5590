/* Level import through assimp's C API, in a child process. Host-side only: the library takes
 * triangles, it never parses files (collide knows nothing of file formats).
 *
 * The parent checks the path (a regular file, its size capped), forks, and reads records from
 * the child through a pipe with a deadline; the child imports with assimp and writes one record
 * per mesh instance (its name, centre and float positions around it, its triangle indices),
 * then a "done" record; an error is a record with the message. The parent validates every
 * count and index before it builds a landmark, so a child gone wrong cannot make it read or
 * allocate past the limits. A child that dies (a signal), exits early or outlives the deadline
 * (killed) is an error naming the file, and what this call added is removed again. */
#include "level.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "gait/file.h"

#define MESH_NAME_MAX 160

/* A sanitizer's shadow memory needs far more address space than any limit we would set. */
#if defined(__SANITIZE_ADDRESS__)
#define LEVEL_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEVEL_UNDER_ASAN 1
#endif
#endif
#define MAX_MESH_VERTICES (1 << 26)

static int level_err(char *err, size_t cap, const char *fmt, ...) {
    if (err && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

gait_level_limits gait_level_default_limits(void) {
    gait_level_limits l;
    l.seconds = 60;
    l.max_file_bytes = (size_t)256 << 20;
    l.max_memory_bytes = (size_t)4 << 30;
    l.max_triangles = 16 << 20;
    return l;
}

/* ---- the records -------------------------------------------------------------------------- */

enum { REC_MESH = 'M', REC_START = 'S', REC_ERROR = 'E', REC_DONE = 'D' };

typedef struct mesh_record {
    char name[MESH_NAME_MAX];
    double centre[3];
    uint32_t vertex_count, triangle_count;
} mesh_record;

typedef struct start_record {
    char name[GAIT_LEVEL_NAME_MAX];
    double position[3], yaw;
} start_record;

bool gait_level_is_start_name(const char *name) {
    if (!name) return false;
    char low[GAIT_LEVEL_NAME_MAX];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof low; i++)
        low[i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
    low[i] = '\0';
    return strstr(low, "spawn") || strstr(low, "player_start") || strstr(low, "playerstart") ||
           strncmp(low, "start", 5) == 0;
}

/* ---- the child ---------------------------------------------------------------------------- */

/* Files assimp opens, read whole into memory as gait reads content: regular files only, size
 * capped. */
typedef struct mem_file {
    unsigned char *data;
    size_t size, pos;
} mem_file;

typedef struct child_ctx {
    int fd;
    const char *path;
    size_t max_file_bytes;
    int max_triangles, cap;
    double scale;
    int zup;
    int meshes, triangles;
    const struct aiScene *scene;
    char refused[512];         /* the last file the importer was refused, and why */
} child_ctx;

static size_t mem_read(struct aiFile *f, char *buf, size_t size, size_t count) {
    mem_file *m = (mem_file *)(void *)f->UserData;
    if (size == 0) return 0;
    size_t want = size * count, left = m->size - m->pos;
    if (want > left) want = left - left % size;
    memcpy(buf, m->data + m->pos, want);
    m->pos += want;
    return want / size;
}

static size_t mem_write(struct aiFile *f, const char *buf, size_t size, size_t count) {
    (void)f; (void)buf; (void)size; (void)count;
    return 0; /* the importer only reads */
}

static size_t mem_tell(struct aiFile *f) { return ((mem_file *)(void *)f->UserData)->pos; }
static size_t mem_size(struct aiFile *f) { return ((mem_file *)(void *)f->UserData)->size; }
static void mem_flush(struct aiFile *f) { (void)f; }

static enum aiReturn mem_seek(struct aiFile *f, size_t offset, enum aiOrigin origin) {
    mem_file *m = (mem_file *)(void *)f->UserData;
    size_t base = origin == aiOrigin_SET ? 0 : origin == aiOrigin_CUR ? m->pos : m->size;
    size_t to = base + offset; /* size_t arithmetic: a "negative" offset wraps back, as fseek's */
    if (to > m->size) return aiReturn_FAILURE;
    m->pos = to;
    return aiReturn_SUCCESS;
}

static struct aiFile *io_open(struct aiFileIO *io, const char *name, const char *mode) {
    child_ctx *x = (child_ctx *)(void *)io->UserData;
    if (!name || (mode && (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+')))) return NULL;
    void *data = NULL;
    size_t size = 0;
    char why[400];
    if (gait_file_read(name, x->max_file_bytes, NULL, &data, &size, why, sizeof why) != GAIT_OK) {
        snprintf(x->refused, sizeof x->refused, "%s", why);
        return NULL;
    }
    struct aiFile *f = calloc(1, sizeof *f);
    mem_file *m = calloc(1, sizeof *m);
    if (!f || !m) {
        free(f);
        free(m);
        gait_file_free(data, size, NULL);
        return NULL;
    }
    m->data = (unsigned char *)data;
    m->size = size;
    f->ReadProc = mem_read;
    f->WriteProc = mem_write;
    f->TellProc = mem_tell;
    f->FileSizeProc = mem_size;
    f->SeekProc = mem_seek;
    f->FlushProc = mem_flush;
    f->UserData = (aiUserData)(void *)m;
    return f;
}

static void io_close(struct aiFileIO *io, struct aiFile *f) {
    (void)io;
    if (!f) return;
    mem_file *m = (mem_file *)(void *)f->UserData;
    gait_file_free(m->data, m->size, NULL);
    free(m);
    free(f);
}

static bool write_all(int fd, const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    while (n > 0) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        b += w;
        n -= (size_t)w;
    }
    return true;
}

static void child_fail(child_ctx *x, const char *fmt, ...) {
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char type = REC_ERROR;
    uint32_t n = (uint32_t)strlen(msg);
    write_all(x->fd, &type, 1);
    write_all(x->fd, &n, sizeof n);
    write_all(x->fd, msg, n);
    if (x->scene) aiReleaseImport(x->scene);
    _exit(1);
}

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

/* One mesh instance: world positions in doubles, sent as floats around their centre. */
static void send_mesh(child_ctx *x, const struct aiMesh *m, const struct aiMatrix4x4 *w,
                      const char *node_name) {
    if (m->mNumVertices == 0 || m->mNumFaces == 0 || !(m->mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
        return;
    if (m->mNumVertices > MAX_MESH_VERTICES) child_fail(x, "%s: a mesh of %u vertices (more than %d)",
                                                        x->path, m->mNumVertices, MAX_MESH_VERTICES);
    size_t nv = m->mNumVertices;
    double *p = malloc(sizeof(double) * 3 * nv);
    float *f = malloc(sizeof(float) * 3 * nv);
    uint32_t *idx = malloc(sizeof(uint32_t) * 3 * (size_t)m->mNumFaces);
    if (!p || !f || !idx) child_fail(x, "%s: out of memory", x->path);
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
    mesh_record rec;
    memset(&rec, 0, sizeof rec);
    if (lo[0] <= hi[0])
        for (int a = 0; a < 3; a++) rec.centre[a] = (lo[a] + hi[a]) / 2;
    for (size_t i = 0; i < nv; i++)
        for (int a = 0; a < 3; a++) f[3 * i + a] = (float)(p[3 * i + a] - rec.centre[a]);
    uint32_t nt = 0;
    for (unsigned i = 0; i < m->mNumFaces; i++) {
        const struct aiFace *fc = &m->mFaces[i];
        if (fc->mNumIndices != 3) continue; /* points and lines of a mixed mesh */
        for (int k = 0; k < 3; k++) idx[3 * nt + k] = fc->mIndices[k];
        nt++;
    }
    if (nt > 0) {
        if (x->meshes >= x->cap) child_fail(x, "%s: more than %d meshes (the ids array is full)", x->path, x->cap);
        if (x->triangles > x->max_triangles - (int)(nt > (uint32_t)x->max_triangles ? (uint32_t)x->max_triangles : nt))
            child_fail(x, "%s: more than %d triangles", x->path, x->max_triangles);
        x->meshes++;
        x->triangles += (int)nt;
        snprintf(rec.name, sizeof rec.name, "%.70s/%.70s", node_name, m->mName.length ? m->mName.data : "mesh");
        rec.vertex_count = (uint32_t)nv;
        rec.triangle_count = nt;
        char type = REC_MESH;
        if (!write_all(x->fd, &type, 1) || !write_all(x->fd, &rec, sizeof rec) ||
            !write_all(x->fd, f, sizeof(float) * 3 * nv) ||
            !write_all(x->fd, idx, sizeof(uint32_t) * 3 * nt))
            _exit(1); /* the parent stopped reading */
    }
    free(p);
    free(f);
    free(idx);
}

/* A node with no mesh named like a player start (an "empty" in the authoring tool): where its
 * origin lands, and the yaw its +z axis faces on the ground plane (0 when it points up or down). */
static void send_start(child_ctx *x, const struct aiMatrix4x4 *w, const char *name) {
    const float *M = &w->a1;
    start_record rec;
    memset(&rec, 0, sizeof rec);
    snprintf(rec.name, sizeof rec.name, "%.63s", name);
    double q[3], f[3];
    for (int r = 0; r < 3; r++) {
        q[r] = (double)M[r * 4 + 3] * x->scale;
        f[r] = (double)M[r * 4 + 2];
    }
    if (x->zup) {
        double y = q[1];
        q[1] = q[2], q[2] = -y;
        y = f[1];
        f[1] = f[2], f[2] = -y;
    }
    memcpy(rec.position, q, sizeof q);
    rec.yaw = hypot(f[0], f[2]) > 1e-6 ? atan2(f[0], f[2]) : 0;
    char type = REC_START;
    if (!write_all(x->fd, &type, 1) || !write_all(x->fd, &rec, sizeof rec)) _exit(1);
}

static void walk_node(child_ctx *x, const struct aiNode *node, const struct aiMatrix4x4 *parent,
                      int depth) {
    if (depth > 256) child_fail(x, "%s: node tree deeper than 256", x->path);
    struct aiMatrix4x4 w = mat_mul(parent, &node->mTransformation);
    if (node->mNumMeshes == 0 && gait_level_is_start_name(node->mName.data)) send_start(x, &w, node->mName.data);
    for (unsigned i = 0; i < node->mNumMeshes; i++) {
        if (node->mMeshes[i] >= x->scene->mNumMeshes) continue;
        send_mesh(x, x->scene->mMeshes[node->mMeshes[i]], &w, node->mName.data);
    }
    for (unsigned i = 0; i < node->mNumChildren; i++) walk_node(x, node->mChildren[i], &w, depth + 1);
}

static void child_main(child_ctx *x, const gait_level_limits *lim) {
    /* the importer's limits: CPU a little past the parent's deadline (the parent kills first),
     * address space outside sanitizer builds */
    struct rlimit cpu = {(rlim_t)(lim->seconds + 2), (rlim_t)(lim->seconds + 3)};
    setrlimit(RLIMIT_CPU, &cpu);
#ifndef LEVEL_UNDER_ASAN
    struct rlimit as = {(rlim_t)lim->max_memory_bytes, (rlim_t)lim->max_memory_bytes};
    setrlimit(RLIMIT_AS, &as);
#endif
    /* a crash of the importer is a crash of this process that the parent sees as a signal:
     * not the host's crash handler (or a sanitizer's report) running in the child */
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGPIPE};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], SIG_DFL);
    struct aiFileIO io = {io_open, io_close, (aiUserData)(void *)x};
    x->scene = aiImportFileEx(x->path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                           aiProcess_SortByPType, &io);
    if (!x->scene) {
        if (x->refused[0]) child_fail(x, "cannot import: %s", x->refused);
        child_fail(x, "%s: cannot import: %s", x->path, aiGetErrorString());
    }
    if (!x->scene->mRootNode || x->scene->mNumMeshes == 0) child_fail(x, "%s: no meshes in the file", x->path);
    struct aiMatrix4x4 id = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    walk_node(x, x->scene->mRootNode, &id, 0);
    aiReleaseImport(x->scene);
    x->scene = NULL;
    char type = REC_DONE;
    write_all(x->fd, &type, 1);
    _exit(0);
}

/* ---- the parent --------------------------------------------------------------------------- */

typedef struct reader {
    int fd;
    struct timespec deadline;
    bool timed_out;
} reader;

static double seconds_left(const reader *r) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(r->deadline.tv_sec - now.tv_sec) + (double)(r->deadline.tv_nsec - now.tv_nsec) * 1e-9;
}

/* Reads exactly n bytes before the deadline: 1, 0 at the end of the pipe, -1 on a timeout. */
static int read_exact(reader *r, void *p, size_t n) {
    unsigned char *b = (unsigned char *)p;
    size_t got = 0;
    while (got < n) {
        double left = seconds_left(r);
        if (left <= 0) {
            r->timed_out = true;
            return -1;
        }
        struct pollfd pf = {r->fd, POLLIN, 0};
        int pr = poll(&pf, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR) continue;
        if (pr == 0) continue; /* the deadline is checked above */
        ssize_t k = read(r->fd, b + got, n - got);
        if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (k <= 0) return 0;
        got += (size_t)k;
    }
    return 1;
}

/* Why the child ended, for a message (reaps it). */
static void child_end(pid_t pid, bool kill_it, char *why, size_t cap) {
    if (kill_it) kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (WIFSIGNALED(st))
        snprintf(why, cap, "the importer crashed (signal %d, %s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else if (WIFEXITED(st))
        snprintf(why, cap, "the importer stopped (exit %d) before it was done", WEXITSTATUS(st));
    else
        snprintf(why, cap, "the importer ended");
}

int gait_level_load(gait_collider *c, const char *path, double scale, int up_axis,
                    gait_landmark_id *out_ids, int cap, char *err, size_t errcap) {
    gait_level_limits lim = gait_level_default_limits();
    return gait_level_load_starts(c, path, scale, up_axis, out_ids, cap, &lim, NULL, 0, NULL, err,
                                  errcap);
}

int gait_level_load_limited(gait_collider *c, const char *path, double scale, int up_axis,
                            gait_landmark_id *out_ids, int cap, const gait_level_limits *limits,
                            char *err, size_t errcap) {
    return gait_level_load_starts(c, path, scale, up_axis, out_ids, cap, limits, NULL, 0, NULL,
                                  err, errcap);
}

int gait_level_load_starts(gait_collider *c, const char *path, double scale, int up_axis,
                           gait_landmark_id *out_ids, int cap, const gait_level_limits *limits,
                           gait_level_start *starts, int start_cap, int *start_count, char *err,
                           size_t errcap) {
    if (start_count) *start_count = 0;
    if (!c || !path || !out_ids || cap < 1)
        return level_err(err, errcap, "level: collider, path and a non-empty ids array are required");
    if (start_cap < 0 || (start_cap > 0 && !starts))
        return level_err(err, errcap, "level: a start count of %d needs a starts array", start_cap);
    gait_level_limits lim = limits ? *limits : gait_level_default_limits();
    if (!(lim.seconds > 0 && lim.seconds <= 3600) || lim.max_triangles < 1)
        return level_err(err, errcap, "%s: limits out of range (seconds in (0, 3600], triangles >= 1)", path);
    if (!(scale > 0) || !isfinite(scale))
        return level_err(err, errcap, "%s: scale %g must be finite and > 0", path, scale);
    if (up_axis != 'y' && up_axis != 'z' && up_axis != 'Y' && up_axis != 'Z')
        return level_err(err, errcap, "%s: up axis must be 'y' or 'z'", path);
    char why[512];
    if (gait_file_check(path, lim.max_file_bytes, NULL, why, sizeof why) != GAIT_OK)
        return level_err(err, errcap, "level %s", why);

    int fds[2];
    if (pipe(fds) != 0) return level_err(err, errcap, "%s: cannot start the importer: %s", path, strerror(errno));
    fflush(NULL); /* nothing buffered is written twice by the child */
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return level_err(err, errcap, "%s: cannot start the importer: %s", path, strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        child_ctx x;
        memset(&x, 0, sizeof x);
        x.fd = fds[1];
        x.path = path;
        x.max_file_bytes = lim.max_file_bytes;
        x.max_triangles = lim.max_triangles;
        x.cap = cap;
        x.scale = scale;
        x.zup = up_axis == 'z' || up_axis == 'Z';
        child_main(&x, &lim);
    }
    close(fds[1]);
    reader r = {fds[0], {0, 0}, false};
    clock_gettime(CLOCK_MONOTONIC, &r.deadline);
    double whole = floor(lim.seconds);
    r.deadline.tv_sec += (time_t)whole;
    r.deadline.tv_nsec += (long)((lim.seconds - whole) * 1e9);
    if (r.deadline.tv_nsec >= 1000000000L) {
        r.deadline.tv_sec++;
        r.deadline.tv_nsec -= 1000000000L;
    }

    int n = 0, rc = -1, triangles = 0, nstarts = 0;
    bool done = false, child_reaped = false;
    float *pos = NULL;
    uint32_t *idx = NULL;
    for (;;) {
        char type = 0;
        int k = read_exact(&r, &type, 1);
        if (k <= 0) break;
        if (type == REC_DONE) {
            done = true;
            break;
        }
        if (type == REC_ERROR) {
            uint32_t len = 0;
            char msg[600];
            if (read_exact(&r, &len, sizeof len) <= 0 || len >= sizeof msg ||
                read_exact(&r, msg, len) <= 0) {
                level_err(err, errcap, "%s: the importer's error did not arrive whole", path);
            } else {
                msg[len] = 0;
                level_err(err, errcap, "%s", msg);
            }
            child_end(pid, false, why, sizeof why);
            child_reaped = true;
            goto out;
        }
        if (type == REC_START) {
            start_record sr;
            if (read_exact(&r, &sr, sizeof sr) <= 0) break;
            sr.name[sizeof sr.name - 1] = 0;
            bool finite = isfinite(sr.position[0]) && isfinite(sr.position[1]) &&
                          isfinite(sr.position[2]) && isfinite(sr.yaw) && fabs(sr.yaw) <= 4;
            if (!finite) continue; /* a start nobody could stand at: left out, never the host's NaN */
            if (nstarts < start_cap) {
                gait_level_start *st = &starts[nstarts];
                memcpy(st->name, sr.name, sizeof st->name);
                st->position = (gait_vec3){sr.position[0], sr.position[1], sr.position[2]};
                st->yaw = sr.yaw;
            }
            nstarts++;
            continue;
        }
        if (type != REC_MESH) {
            level_err(err, errcap, "%s: the importer sent a record of unknown type", path);
            goto kill_out;
        }
        mesh_record rec;
        if (read_exact(&r, &rec, sizeof rec) <= 0) break;
        rec.name[MESH_NAME_MAX - 1] = 0;
        if (rec.vertex_count < 3 || rec.vertex_count > MAX_MESH_VERTICES || rec.triangle_count < 1 ||
            rec.triangle_count > (uint32_t)lim.max_triangles ||
            (int)rec.triangle_count > lim.max_triangles - triangles || n >= cap ||
            !isfinite(rec.centre[0] + rec.centre[1] + rec.centre[2])) {
            level_err(err, errcap, "%s: the importer sent a mesh out of the limits", path);
            goto kill_out;
        }
        triangles += (int)rec.triangle_count;
        pos = malloc(sizeof(float) * 3 * rec.vertex_count);
        idx = malloc(sizeof(uint32_t) * 3 * rec.triangle_count);
        if (!pos || !idx) {
            level_err(err, errcap, "%s: out of memory", path);
            goto kill_out;
        }
        if (read_exact(&r, pos, sizeof(float) * 3 * rec.vertex_count) <= 0 ||
            read_exact(&r, idx, sizeof(uint32_t) * 3 * rec.triangle_count) <= 0)
            break;
        for (uint32_t i = 0; i < 3 * rec.triangle_count; i++)
            if (idx[i] >= rec.vertex_count) {
                level_err(err, errcap, "%s: the importer sent an index out of range", path);
                goto kill_out;
            }
        gait_mesh_def d = {.positions = pos, .vertex_count = (int)rec.vertex_count,
                           .indices = idx, .triangle_count = (int)rec.triangle_count,
                           .offset = {rec.centre[0], rec.centre[1], rec.centre[2]},
                           .name = rec.name};
        gait_landmark_id id;
        gait_status st = gait_collider_add_landmark(c, &d, &id);
        if (st == GAIT_OK) {
            out_ids[n++] = id;
        } else if (st != GAIT_ERR_INVALID_ARGUMENT) { /* all degenerate is skipped, the rest fails */
            level_err(err, errcap, "%s: mesh %s: %s", path, rec.name, gait_collider_last_error(c));
            goto kill_out;
        }
        free(pos);
        free(idx);
        pos = NULL;
        idx = NULL;
    }
    if (done) {
        child_end(pid, false, why, sizeof why);
        child_reaped = true;
        if (n == 0) level_err(err, errcap, "%s: no triangles in the file", path);
        else rc = n;
        if (rc >= 0 && start_count) *start_count = nstarts;
        goto out;
    }
    if (r.timed_out) {
        child_end(pid, true, why, sizeof why);
        child_reaped = true;
        level_err(err, errcap, "%s: the importer took more than %g s: stopped, nothing added", path,
                  lim.seconds);
        goto out;
    }
    /* the pipe ended before "done": the child died or gave up (it closes the pipe by exiting) */
    child_end(pid, false, why, sizeof why);
    child_reaped = true;
    level_err(err, errcap, "%s: %s reading it; nothing added", path, why);
    goto out;
kill_out:
    child_end(pid, true, why, sizeof why);
    child_reaped = true;
out:
    if (!child_reaped) child_end(pid, true, why, sizeof why);
    free(pos);
    free(idx);
    close(fds[0]);
    if (rc < 0) {
        /* nothing half-applied: what this call added goes again */
        for (int i = 0; i < n; i++) gait_collider_remove_landmark(c, out_ids[i]);
        return -1;
    }
    return rc;
}
