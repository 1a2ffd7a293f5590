/* Moving (kinematic) landmarks (gait/collide.h, "moving landmarks"; docs/behaviour.md, "Moving
 * landmarks").
 *
 * A landmark's triangles and tree stay in its own frame; moving it changes its pose alone (a
 * position and, when turned, a rotation matrix the queries apply to themselves: collide_query.c)
 * and its world bounds, so a step's move costs the same for 12 triangles or 12 million. Moving
 * landmarks leave the top-level grid for a list of their own that every query looks at, and the
 * gathers (one tree walk for a region's queries) leave them out: a gather stays valid while only
 * moving landmarks move (the static revision).
 *
 * Each step (gait_collider_advance) a moving landmark's pose becomes its last pose and a new one
 * is made: the host's target, its velocity integrated over the step, or its path at the step's
 * time. Doubles throughout, the same operations every time: the same bits on every run. */
#include "collide_internal.h"
#include "collide_lock.h"
#include "collide_motion.h"

#include <stdio.h>
#include <string.h>

#define PATH_MAX_POSES 64
#define PERIOD_MAX 1e6      /* s */
#define DT_MAX 1.0          /* s an advance may take */

/* ---- quaternions (x, y, z, w) ----------------------------------------------------------- */

static void quat_mul(const double a[4], const double b[4], double out[4]) {
    double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

static bool quat_normalize(double q[4]) {
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(l > 1e-12) || !isfinite(l)) return false;
    for (int k = 0; k < 4; k++) q[k] /= l;
    return true;
}

static bool quat_identity(const double q[4]) {
    return q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 1;
}

/* Row-major rotation matrix of a unit quaternion. */
static void quat_matrix(const double q[4], double m[9]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    m[0] = 1 - 2 * (y * y + z * z); m[1] = 2 * (x * y - z * w);     m[2] = 2 * (x * z + y * w);
    m[3] = 2 * (x * y + z * w);     m[4] = 1 - 2 * (x * x + z * z); m[5] = 2 * (y * z - x * w);
    m[6] = 2 * (x * z - y * w);     m[7] = 2 * (y * z + x * w);     m[8] = 1 - 2 * (x * x + y * y);
}

static gait_vec3 mat_apply(const double m[9], gait_vec3 v) {
    return v3(m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
              m[6] * v.x + m[7] * v.y + m[8] * v.z);
}

static gait_vec3 mat_apply_t(const double m[9], gait_vec3 v) {
    return v3(m[0] * v.x + m[3] * v.y + m[6] * v.z, m[1] * v.x + m[4] * v.y + m[7] * v.z,
              m[2] * v.x + m[5] * v.y + m[8] * v.z);
}

/* The turn by |w| dt about w's axis. */
static void quat_from_rotvec(gait_vec3 w, double dt, double q[4]) {
    double a = v3_len(w) * dt;
    if (!(a > 0)) {
        q[0] = q[1] = q[2] = 0;
        q[3] = 1;
        return;
    }
    gait_vec3 ax = v3_scale(w, 1.0 / v3_len(w));
    double s = sin(0.5 * a);
    q[0] = ax.x * s;
    q[1] = ax.y * s;
    q[2] = ax.z * s;
    q[3] = cos(0.5 * a);
}

gait_transform gait_transform_yaw(gait_vec3 position, double yaw) {
    gait_transform t;
    t.position = position;
    t.rotation[0] = 0;
    t.rotation[1] = sin(0.5 * yaw);
    t.rotation[2] = 0;
    t.rotation[3] = cos(0.5 * yaw);
    return t;
}

static bool transform_valid(const gait_transform *t, gait_transform *norm) {
    if (!t || !v3_finite(t->position)) return false;
    *norm = *t;
    for (int k = 0; k < 4; k++)
        if (!isfinite(t->rotation[k])) return false;
    return quat_normalize(norm->rotation);
}

/* ---- the pose ------------------------------------------------------------------------------ */

/* Places the landmark at t: its origin, its rotation, its world bounds (the local box turned). */
static void set_pose(gait_collider *c, gait__landmark *lm, const gait_transform *t) {
    lm->origin = t->position;
    lm->rotated = !quat_identity(t->rotation);
    if (lm->rotated) quat_matrix(t->rotation, lm->rot);
    gait_vec3 lc = v3_scale(v3_add(lm->lbmin, lm->lbmax), 0.5);
    gait_vec3 le = v3_scale(v3_sub(lm->lbmax, lm->lbmin), 0.5);
    if (lm->rotated) {
        const double *r = lm->rot;
        gait_vec3 c0 = gait__lm_to_world(lm, lc);
        gait_vec3 e = v3(fabs(r[0]) * le.x + fabs(r[1]) * le.y + fabs(r[2]) * le.z,
                         fabs(r[3]) * le.x + fabs(r[4]) * le.y + fabs(r[5]) * le.z,
                         fabs(r[6]) * le.x + fabs(r[7]) * le.y + fabs(r[8]) * le.z);
        /* a hair beyond: the turned box is a bound, rounding must not shave it */
        double pad = 1e-9 * (1 + v3_len(c0) + v3_len(e));
        e = v3_add(e, v3(pad, pad, pad));
        lm->bmin = v3_sub(c0, e);
        lm->bmax = v3_add(c0, e);
    } else {
        lm->bmin = v3_add(t->position, lm->lbmin);
        lm->bmax = v3_add(t->position, lm->lbmax);
    }
    double *box = c->dense_box + 6 * (size_t)lm->dense;
    box[0] = lm->bmin.x; box[1] = lm->bmin.y; box[2] = lm->bmin.z;
    box[3] = lm->bmax.x; box[4] = lm->bmax.y; box[5] = lm->bmax.z;
}

static gait__landmark *lookup(const gait_collider *c, gait_landmark_id id) {
    if (!c || id.index1 < 1 || id.index1 > c->max_landmarks) return NULL;
    int s = id.index1 - 1;
    if (!c->slot[s] || c->generation[s] != id.generation) return NULL;
    return c->slot[s];
}

static void unlink_static(gait_collider *c, int slot, gait__landmark *lm) {
    int *at = lm->big ? &c->big_head : &c->bucket[gait__grid_bucket(lm->gx, lm->gz)];
    while (*at != slot) at = &c->slot[*at]->grid_next;
    *at = lm->grid_next;
}

/* A static landmark becomes a moving one: off the grid, onto the moving list, still where it is. */
/* Frees a motion's path (a motion with none keeps none). */
static void drop_path(gait_collider *c, gait__motion *m) {
    gait__free(&c->hooks, m->path, sizeof *m->path * (size_t)m->path_count);
    m->path = NULL;
    m->path_count = 0;
}

static void make_moving(gait_collider *c, int slot, gait__landmark *lm) {
    if (lm->moving) return;
    unlink_static(c, slot, lm);
    lm->grid_next = c->moving_head;
    c->moving_head = slot;
    c->moving_count++;
    lm->moving = true;
    gait__motion *m = &lm->motion;
    memset(m, 0, sizeof *m);
    m->cur.position = lm->origin;
    m->cur.rotation[3] = 1;
    m->prev = m->cur;
    m->mode = GAIT__MOTION_HELD;
    c->static_revision++;
    c->revision++;
}

void gait__motion_release(gait_collider *c, int slot, gait__landmark *lm) {
    if (!lm->moving) return;
    int *at = &c->moving_head;
    while (*at != slot) at = &c->slot[*at]->grid_next;
    *at = lm->grid_next;
    c->moving_count--;
    drop_path(c, &lm->motion);
    lm->moving = false;
}

static gait_status refuse(gait_collider *c, gait_status st, const char *what) {
    snprintf(c->err, sizeof c->err, "%s", what);
    return st;
}

gait_status gait_collider_move_landmark(gait_collider *c, gait_landmark_id id,
                                        const gait_transform *to) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "move landmark");
    gait__landmark *lm = lookup(c, id);
    if (!lm) return refuse(c, GAIT_ERR_STALE_ID, "move landmark: unknown or removed id");
    gait_transform t;
    if (!transform_valid(to, &t))
        return refuse(c, GAIT_ERR_INVALID_ARGUMENT,
                      "move landmark: the pose must be finite with a rotation of nonzero length");
    make_moving(c, id.index1 - 1, lm);
    gait__motion *m = &lm->motion;
    m->target = t;
    m->has_target = true;
    if (m->mode == GAIT__MOTION_PATH) drop_path(c, m);
    m->mode = GAIT__MOTION_HELD;
    c->err[0] = 0;
    return GAIT_OK;
}

gait_status gait_collider_set_landmark_velocity(gait_collider *c, gait_landmark_id id,
                                                gait_vec3 velocity, gait_vec3 angular) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "landmark velocity");
    gait__landmark *lm = lookup(c, id);
    if (!lm) return refuse(c, GAIT_ERR_STALE_ID, "landmark velocity: unknown or removed id");
    if (!v3_finite(velocity) || !v3_finite(angular) || v3_len(velocity) > 1e4 || v3_len(angular) > 1e4)
        return refuse(c, GAIT_ERR_INVALID_ARGUMENT,
                      "landmark velocity: velocity and angular velocity must be finite, at most 1e4");
    make_moving(c, id.index1 - 1, lm);
    gait__motion *m = &lm->motion;
    if (m->mode == GAIT__MOTION_PATH) drop_path(c, m);
    m->has_target = false;
    m->mode = GAIT__MOTION_VELOCITY;
    m->velocity = velocity;
    m->angular = angular;
    c->err[0] = 0;
    return GAIT_OK;
}

gait_status gait_collider_set_landmark_path(gait_collider *c, gait_landmark_id id,
                                            const gait_transform *poses, int count, double period) {
    if (!c) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "landmark path");
    gait__landmark *lm = lookup(c, id);
    if (!lm) return refuse(c, GAIT_ERR_STALE_ID, "landmark path: unknown or removed id");
    if (!poses || count < 2 || count > PATH_MAX_POSES || !(period > 0 && period <= PERIOD_MAX))
        return refuse(c, GAIT_ERR_INVALID_ARGUMENT,
                      "landmark path: 2..64 poses and a period in (0, 1e6] s");
    gait_transform *path = gait__alloc(&c->hooks, sizeof *path * (size_t)count);
    if (!path) return refuse(c, GAIT_ERR_OUT_OF_MEMORY, "landmark path: out of memory");
    for (int i = 0; i < count; i++)
        if (!transform_valid(&poses[i], &path[i])) {
            gait__free(&c->hooks, path, sizeof *path * (size_t)count);
            return refuse(c, GAIT_ERR_INVALID_ARGUMENT,
                          "landmark path: every pose must be finite with a rotation of nonzero length");
        }
    make_moving(c, id.index1 - 1, lm);
    gait__motion *m = &lm->motion;
    gait__free(&c->hooks, m->path, sizeof *m->path * (size_t)m->path_count);
    m->path = path;
    m->path_count = count;
    m->period = period;
    m->time = -1; /* the first advance puts it at the first pose */
    m->has_target = false;
    m->mode = GAIT__MOTION_PATH;
    c->err[0] = 0;
    return GAIT_OK;
}

/* The path's pose at time t (s, in [0, period)): straight from pose to pose, the turn the short
 * way (a normalised blend of the two quaternions, the second flipped into the first's half). */
static gait_transform path_at(const gait__motion *m, double t) {
    double seg = m->period / m->path_count;
    int i = (int)floor(t / seg);
    if (i < 0) i = 0;
    if (i >= m->path_count) i = m->path_count - 1;
    double f = (t - i * seg) / seg;
    if (f < 0) f = 0;
    if (f > 1) f = 1;
    const gait_transform *a = &m->path[i], *b = &m->path[(i + 1) % m->path_count];
    gait_transform out;
    out.position = v3_add(a->position, v3_scale(v3_sub(b->position, a->position), f));
    double dot = 0, sgn;
    for (int k = 0; k < 4; k++) dot += a->rotation[k] * b->rotation[k];
    sgn = dot < 0 ? -1 : 1;
    for (int k = 0; k < 4; k++) out.rotation[k] = a->rotation[k] * (1 - f) + sgn * b->rotation[k] * f;
    if (!quat_normalize(out.rotation)) memcpy(out.rotation, a->rotation, sizeof out.rotation);
    if (f == 0) out = *a; /* exactly the pose given at its time */
    return out;
}

gait_status gait_collider_advance(gait_collider *c, double dt) {
    if (!c || !(dt > 0 && dt <= DT_MAX)) return GAIT_ERR_INVALID_ARGUMENT;
    if (c->locked) return gait__collider_locked(c, "advance");
    bool moved = false;
    for (int s = c->moving_head; s >= 0; s = c->slot[s]->grid_next) {
        gait__landmark *lm = c->slot[s];
        gait__motion *m = &lm->motion;
        m->prev = m->cur;
        gait_transform next = m->cur;
        if (m->has_target) {
            next = m->target;
            m->has_target = false;
        } else if (m->mode == GAIT__MOTION_VELOCITY) {
            next.position = v3_add(m->cur.position, v3_scale(m->velocity, dt));
            double turn[4];
            quat_from_rotvec(m->angular, dt, turn);
            if (!quat_identity(turn)) {
                quat_mul(turn, m->cur.rotation, next.rotation);
                quat_normalize(next.rotation);
            }
        } else if (m->mode == GAIT__MOTION_PATH) {
            m->time = m->time < 0 ? 0 : fmod(m->time + dt, m->period);
            next = path_at(m, m->time);
        }
        if (memcmp(&next, &m->cur, sizeof next) != 0) {
            m->cur = next;
            set_pose(c, lm, &next);
            moved = true;
        }
    }
    c->last_dt = dt;
    if (moved) c->revision++;
    return GAIT_OK;
}

gait_status gait_collider_landmark_transform(const gait_collider *c, gait_landmark_id id,
                                             gait_transform *out) {
    const gait__landmark *lm = lookup(c, id);
    if (!out) return GAIT_ERR_INVALID_ARGUMENT;
    if (!lm) return GAIT_ERR_STALE_ID;
    if (lm->moving) {
        *out = lm->motion.cur;
    } else {
        memset(out, 0, sizeof *out);
        out->position = lm->origin;
        out->rotation[3] = 1;
    }
    return GAIT_OK;
}

gait_status gait_collider_landmark_drawn(const gait_collider *c, gait_landmark_id id,
                                         double alpha, gait_transform *out) {
    const gait__landmark *lm = lookup(c, id);
    if (!out || !(alpha >= 0 && alpha <= 1)) return GAIT_ERR_INVALID_ARGUMENT;
    if (!lm) return GAIT_ERR_STALE_ID;
    if (!lm->moving) return gait_collider_landmark_transform(c, id, out);
    const gait__motion *m = &lm->motion;
    out->position = v3_add(m->prev.position, v3_scale(v3_sub(m->cur.position, m->prev.position), alpha));
    double dot = 0;
    for (int k = 0; k < 4; k++) dot += m->prev.rotation[k] * m->cur.rotation[k];
    for (int k = 0; k < 4; k++)
        out->rotation[k] = m->prev.rotation[k] * (1 - alpha) + (dot < 0 ? -1 : 1) * m->cur.rotation[k] * alpha;
    if (!quat_normalize(out->rotation)) memcpy(out->rotation, m->cur.rotation, sizeof out->rotation);
    return GAIT_OK;
}

bool gait_collider_landmark_moving(const gait_collider *c, gait_landmark_id id) {
    const gait__landmark *lm = lookup(c, id);
    return lm && lm->moving;
}

gait_status gait_collider_landmark_carry(const gait_collider *c, gait_landmark_id id,
                                         gait_vec3 before, gait_vec3 *after, double turn[4]) {
    const gait__landmark *lm = lookup(c, id);
    if (!after || !v3_finite(before)) return GAIT_ERR_INVALID_ARGUMENT;
    if (!lm) return GAIT_ERR_STALE_ID;
    if (turn) {
        turn[0] = turn[1] = turn[2] = 0;
        turn[3] = 1;
    }
    if (!lm->moving) {
        *after = before;
        return GAIT_OK;
    }
    const gait__motion *m = &lm->motion;
    /* into the last pose's frame, out of this one's */
    gait_vec3 local = v3_sub(before, m->prev.position);
    if (!quat_identity(m->prev.rotation)) {
        double r[9];
        quat_matrix(m->prev.rotation, r);
        local = mat_apply_t(r, local);
    }
    if (!quat_identity(m->cur.rotation)) {
        double r[9];
        quat_matrix(m->cur.rotation, r);
        local = mat_apply(r, local);
    }
    *after = v3_add(m->cur.position, local);
    if (turn) { /* cur * prev^-1 */
        double inv[4] = {-m->prev.rotation[0], -m->prev.rotation[1], -m->prev.rotation[2],
                         m->prev.rotation[3]};
        quat_mul(m->cur.rotation, inv, turn);
        quat_normalize(turn);
    }
    return GAIT_OK;
}

bool gait_collider_moving_near(const gait_collider *c, gait_vec3 lo, gait_vec3 hi) {
    if (!c) return false;
    for (int s = c->moving_head; s >= 0; s = c->slot[s]->grid_next) {
        const gait__landmark *lm = c->slot[s];
        if (!(lm->bmax.x < lo.x || lm->bmin.x > hi.x || lm->bmax.y < lo.y || lm->bmin.y > hi.y ||
              lm->bmax.z < lo.z || lm->bmin.z > hi.z))
            return true;
    }
    return false;
}

int gait_collider_moving_count(const gait_collider *c) { return c ? c->moving_count : 0; }

uint64_t gait_collider_static_revision(const gait_collider *c) { return c ? c->static_revision : 0; }

/* ---- the state a snapshot keeps (collide_motion.h) ----------------------------------------- */

/* One moving landmark's record, in slot order. */
typedef struct motion_record {
    int32_t slot;
    uint32_t generation;
    int32_t mode, path_count;
    double period, time;
    gait_transform cur, prev, target;
    gait_vec3 velocity, angular;
    uint32_t has_target;
    uint32_t pad;
} motion_record;

size_t gait__motion_state_size(const gait_collider *c) {
    return sizeof(uint32_t) + sizeof(motion_record) * (size_t)(c ? c->moving_count : 0);
}

void gait__motion_state_save(const gait_collider *c, unsigned char *out) {
    uint32_t n = (uint32_t)c->moving_count;
    memcpy(out, &n, sizeof n);
    out += sizeof n;
    for (int s = 0; s < c->max_landmarks; s++) {
        const gait__landmark *lm = c->slot[s];
        if (!lm || !lm->moving) continue;
        const gait__motion *m = &lm->motion;
        motion_record r;
        memset(&r, 0, sizeof r);
        r.slot = s;
        r.generation = c->generation[s];
        r.mode = m->mode;
        r.path_count = m->path_count;
        r.period = m->period;
        r.time = m->time;
        r.cur = m->cur;
        r.prev = m->prev;
        r.target = m->target;
        r.velocity = m->velocity;
        r.angular = m->angular;
        r.has_target = m->has_target;
        memcpy(out, &r, sizeof r);
        out += sizeof r;
    }
}

static bool pose_ok(const gait_transform *t) {
    if (!v3_finite(t->position)) return false;
    double l = 0;
    for (int k = 0; k < 4; k++) {
        if (!isfinite(t->rotation[k])) return false;
        l += t->rotation[k] * t->rotation[k];
    }
    return fabs(l - 1) < 1e-6;
}

bool gait__motion_state_check(const gait_collider *c, const unsigned char *in, size_t size) {
    uint32_t n;
    if (size < sizeof n) return false;
    memcpy(&n, in, sizeof n);
    if (n != (uint32_t)c->moving_count || size != gait__motion_state_size(c)) return false;
    in += sizeof n;
    int32_t last = -1;
    for (uint32_t i = 0; i < n; i++, in += sizeof(motion_record)) {
        motion_record r;
        memcpy(&r, in, sizeof r);
        if (r.slot <= last || r.slot >= c->max_landmarks) return false; /* in slot order, once */
        last = r.slot;
        const gait__landmark *lm = c->slot[r.slot];
        if (!lm || !lm->moving || c->generation[r.slot] != r.generation) return false;
        const gait__motion *m = &lm->motion;
        if (r.mode != m->mode || r.path_count != m->path_count || r.has_target > 1) return false;
        if (m->mode == GAIT__MOTION_PATH &&
            (memcmp(&r.period, &m->period, sizeof r.period) != 0 || !(r.time >= -1 && r.time < r.period)))
            return false;
        if (!pose_ok(&r.cur) || !pose_ok(&r.prev) || (r.has_target && !pose_ok(&r.target)) ||
            !v3_finite(r.velocity) || !v3_finite(r.angular) || v3_len(r.velocity) > 1e4 ||
            v3_len(r.angular) > 1e4)
            return false;
    }
    return true;
}

uint64_t gait__motion_state_hash(const gait_collider *c, uint64_t h,
                                 uint64_t (*fold)(uint64_t h, const void *bytes, size_t n)) {
    if (!c || !c->moving_count) return h;
    for (int s = 0; s < c->max_landmarks; s++) {
        const gait__landmark *lm = c->slot[s];
        if (!lm || !lm->moving) continue;
        const gait__motion *m = &lm->motion;
        int32_t slot = s;
        uint32_t has = m->has_target;
        h = fold(h, &slot, sizeof slot);
        h = fold(h, &m->time, sizeof m->time);
        const gait_transform *t[3] = {&m->cur, &m->prev, &m->target};
        for (int k = 0; k < 3; k++) {
            h = fold(h, &t[k]->position, sizeof t[k]->position);
            h = fold(h, t[k]->rotation, sizeof t[k]->rotation);
        }
        h = fold(h, &has, sizeof has);
        h = fold(h, &m->velocity, sizeof m->velocity);
        h = fold(h, &m->angular, sizeof m->angular);
    }
    return h;
}

void gait__motion_state_restore(gait_collider *c, const unsigned char *in) {
    uint32_t n;
    memcpy(&n, in, sizeof n);
    in += sizeof n;
    for (uint32_t i = 0; i < n; i++, in += sizeof(motion_record)) {
        motion_record r;
        memcpy(&r, in, sizeof r);
        gait__landmark *lm = c->slot[r.slot];
        gait__motion *m = &lm->motion;
        m->time = r.time;
        m->cur = r.cur;
        m->prev = r.prev;
        m->target = r.target;
        m->has_target = r.has_target != 0;
        m->velocity = r.velocity;
        m->angular = r.angular;
        set_pose(c, lm, &m->cur);
    }
    if (n) c->revision++;
}
