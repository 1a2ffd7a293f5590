/* Characters that block one another (crowd.h; docs/behaviour.md, "Characters that meet").
 *
 * The picture: before a step, every colliding character's capsule, filed by a counting sort into
 * the buckets of a uniform grid over (x, z) — O(n) to build, a few cells to look into. A crowd
 * whose cells span at most DENSE_CELLS a character (a plaza) gets a bucket a cell, row by row, so
 * a gather reads a run of entries a row and nothing of other cells; a sparser one shares
 * buckets through a hash of the cell. Which one holds a body changes nothing of its bounds (the
 * same entries are considered, and their list's order is the bounds' own, never the scan's).
 *
 * The half-spaces: two upright capsules A and B with a gap g between them (negative when they
 * overlap) share one plane, halfway across the gap, normal to the line of their closest points;
 * A keeps to its side, B to the other. Each may close at most half the gap this step, so
 * together they never close more than all of it, whatever each one does — and the plane is
 * built from the picture alone, so the order of the steps and the threads cannot change it.
 *
 * One body over another (their vertical extents apart) within STACK_NEAR: the plane lies on the
 * lower one's capsule and the upper takes the whole gap — the lower, held up by its ground,
 * could not make room — unless the lower is rising into the upper (a climber under a body on the
 * wall's top, a jump under one standing on a ledge): then the plane lies on the upper one and the
 * lower takes the whole gap, as the upper, held by its ground, cannot make room either; a body balanced dead over another's head has its plane tilted
 * MIN_TILT off level, so it slides off rather than stays (starting at most 1 cm across it). Two
 * closing on one another turn their plane a little about the vertical, the same way for both,
 * so each slides to its own right: two walking head-on on one line pass instead of pressing
 * forever.
 *
 * Determinism: doubles only, the same operations in the same order for any stepping order. */
#include "crowd.h"

#include <math.h>
#include <string.h>

#include "core/vec.h"
#include "world_internal.h"

#define CELL 2.0            /* m: the grid's cell. A gather reaches 1.2-1.5 m about its body:
                               2 or 3 cells a side (it was 1 m, 3 or 4 a side; on the meadow
                               the whole step took 1.4% fewer instructions at 2 m, a spread
                               crowd 2.4% fewer, a packed plaza 0.6% more) */
#define COVER_MIN 0.2       /* m a gather covers at least (a run's step is 0.09 m) */
#define COVER_GROW 2.0      /* a gather covers this many times what the move asking needs */
#define MAX_NORMAL_Y 0.984807753012208 /* cos 10 deg (MIN_TILT): a plane over a head is tilted
                               at least this far off level; the one on top starts at most
                               (ra + rb)(1 - cos 10 deg) = 9 mm across it */
#define STACK_NEAR 0.1      /* m: one over the other this close, the upper takes the whole gap */
#define STACK_RISE 0.05     /* m/s: a lower body rising faster than this takes the whole gap */
#define COINCIDENT 1e-9     /* m: axes this close have no direction between them */
#define COS_PASS 0.9396926207859084 /* cos and sin of 20 deg: two closing bodies' plane turns */
#define SIN_PASS 0.3420201433256687 /* by this at most */
#define PASS_CLOSING 0.1    /* m/s: closing faster than this, they turn it */
#define STILL_SPEED 0.1     /* m/s across the ground under which another body stands still */
#define HELD_SPEED 0.01     /* m/s under which one off the ground (on a wall, in water) is held
                               still, as the stamina's resting climber is. A climber creeping at
                               0.05 m/s, under STILL_SPEED, left the notch a body rested in by a
                               few millimetres a step: the body fell and landed again every other
                               step (seed 1048824) */
#define MAX_CELLS 256       /* cells a gather looks into at most; wider, it reads every entry */
#define DENSE_CELLS 8       /* cells per entry a dense grid may hold at most (its counting sort
                               clears every cell: 32 bytes an entry a step): a plaza with a few
                               strays a hundred metres out stays dense */

/* ---- the picture --------------------------------------------------------------------------- */

static size_t bucket_bytes(int buckets) { return sizeof(int) * ((size_t)buckets + 1); }

gait_status gait__crowd_init(gait__crowd *c, const gait_hooks *h, int capacity) {
    memset(c, 0, sizeof *c);
    c->capacity = capacity;
    int buckets = 16;
    while (buckets < 2 * capacity) buckets *= 2;
    c->bucket_cap = buckets;
    c->bucket_alloc = buckets > DENSE_CELLS * capacity ? buckets : DENSE_CELLS * capacity;
    c->entries = gait__alloc(h, sizeof *c->entries * (size_t)capacity);
    c->unsorted = gait__alloc(h, sizeof *c->unsorted * (size_t)capacity);
    c->entry_of_slot = gait__alloc(h, sizeof(int) * (size_t)capacity);
    c->bucket_start = gait__alloc(h, bucket_bytes(c->bucket_alloc));
    if (!c->entries || !c->unsorted || !c->entry_of_slot || !c->bucket_start) {
        gait__crowd_free(c, h);
        return GAIT_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < capacity; i++) c->entry_of_slot[i] = -1;
    return GAIT_OK;
}

void gait__crowd_free(gait__crowd *c, const gait_hooks *h) {
    gait__free(h, c->entries, sizeof *c->entries * (size_t)c->capacity);
    gait__free(h, c->unsorted, sizeof *c->unsorted * (size_t)c->capacity);
    gait__free(h, c->entry_of_slot, sizeof(int) * (size_t)c->capacity);
    gait__free(h, c->bucket_start, bucket_bytes(c->bucket_alloc));
    memset(c, 0, sizeof *c);
}

/* floor(v / CELL) clamped to +-1e9 (far out a cell holds more, the answers stay right); the
 * truncation corrected below zero, as floor() would give it (a libm call a gather made four
 * times). */
static int32_t cell_of(double v) {
    v /= CELL;
    if (v < -1e9) return -1000000000;
    if (v >= 1e9) return 1000000000;
    int32_t c = (int32_t)v;
    return (double)c > v ? c - 1 : c;
}

static uint32_t bucket_of(int32_t cx, int32_t cz, uint32_t mask) {
    /* two large primes (Teschner et al. 2003, "Optimized Spatial Hashing for Collision
     * Detection of Deformable Objects") */
    return ((uint32_t)cx * 73856093u ^ (uint32_t)cz * 19349663u) & mask;
}

/* The bucket of cell (cx, cz), which holds an entry of it. */
static uint32_t bucket_at(const gait__crowd *c, int32_t cx, int32_t cz) {
    if (c->dense) return (uint32_t)(cz - c->oz) * (uint32_t)c->width + (uint32_t)(cx - c->ox);
    return bucket_of(cx, cz, c->bucket_mask);
}

void gait__crowd_build(gait__crowd *c, const gait_world *w, gait_vec3 *feet) {
    for (int i = 0; i < c->count; i++) c->entry_of_slot[c->entries[i].slot] = -1;
    int n = 0;
    double max_r = 0;
    int32_t lo_x = INT32_MAX, lo_z = INT32_MAX, hi_x = INT32_MIN, hi_z = INT32_MIN;
    for (int i = 0; i < w->capacity; i++) {
        const gait__character *ch = &w->characters[i];
        if (!ch->alive) continue;
        feet[i] = ch->position;
        if (!ch->collide) continue;
        const gait_locomotion *num = gait_world_locomotion(w, ch->body_type);
        double r = num->capsule_radius;
        double h = gait__crouch_capsule_height(&ch->crouch, ch->phase.state, num);
        if (h < 2 * r) h = 2 * r; /* as the mover takes it */
        gait__crowd_entry *e = &c->unsorted[n++];
        e->x = ch->position.x;
        e->z = ch->position.z;
        e->y0 = ch->position.y + r;
        e->y1 = ch->position.y + h - r;
        e->radius = r;
        e->vx = ch->velocity.x;
        e->vy = ch->velocity.y;
        e->vz = ch->velocity.z;
        e->grounded = ch->contact.grounded;
        e->layer = ch->collision_layer;
        e->mask = ch->collision_mask;
        e->slot = i;
        e->cx = cell_of(e->x);
        e->cz = cell_of(e->z);
        if (r > max_r) max_r = r;
        if (e->cx < lo_x) lo_x = e->cx;
        if (e->cx > hi_x) hi_x = e->cx;
        if (e->cz < lo_z) lo_z = e->cz;
        if (e->cz > hi_z) hi_z = e->cz;
    }
    c->count = n;
    c->max_radius = max_r;
    c->active = n >= 2;
    if (!c->active) return;
    /* dense when the crowd's cells fit a few per entry (and the buckets allocated) */
    int64_t width = (int64_t)hi_x - lo_x + 1, depth = (int64_t)hi_z - lo_z + 1;
    int64_t cells = width * depth;
    uint32_t buckets;
    c->dense = cells <= (int64_t)DENSE_CELLS * n && cells <= c->bucket_alloc;
    if (c->dense) {
        c->ox = lo_x;
        c->oz = lo_z;
        c->width = (int)width;
        c->depth = (int)depth;
        buckets = (uint32_t)cells;
    } else {
        buckets = 16;
        while ((int)buckets < 2 * n && (int)buckets < c->bucket_cap) buckets *= 2;
        c->bucket_mask = buckets - 1;
    }
    /* counting sort by bucket; within one, slot order (the order of the loop above) */
    memset(c->bucket_start, 0, bucket_bytes((int)buckets));
    for (int k = 0; k < n; k++) c->bucket_start[bucket_at(c, c->unsorted[k].cx, c->unsorted[k].cz) + 1]++;
    for (uint32_t b = 0; b < buckets; b++) c->bucket_start[b + 1] += c->bucket_start[b];
    for (int k = 0; k < n; k++) {
        uint32_t b = bucket_at(c, c->unsorted[k].cx, c->unsorted[k].cz);
        int at = c->bucket_start[b]++;
        c->entries[at] = c->unsorted[k];
        c->entry_of_slot[c->unsorted[k].slot] = at;
    }
    for (uint32_t b = buckets; b > 0; b--) c->bucket_start[b] = c->bucket_start[b - 1];
    c->bucket_start[0] = 0;
}

/* ---- the half-space between two ------------------------------------------------------------ */

/* A capsule's extent along unit t: the least (lo) and the most (hi) of dot(p, t) over it. */
static void extent(const gait__crowd_entry *e, gait_vec3 t, double *lo, double *hi) {
    double s0 = e->y0 * t.y, s1 = e->y1 * t.y, h = e->x * t.x + e->z * t.z;
    *lo = (s0 < s1 ? s0 : s1) + h - e->radius;
    *hi = (s0 < s1 ? s1 : s0) + h + e->radius;
}

/* The plane `a` keeps to against `b` (see the top of this file). *clearance: how far a's capsule
 * as the step began stands inside its side (m; negative when it starts across). */
gait_vec3 gait__crowd_apart(double x, double y0, double y1, double z, const gait__crowd_entry *b) {
    double dy = 0;
    if (y0 > b->y1) dy = y0 - b->y1;       /* over b */
    else if (y1 < b->y0) dy = y1 - b->y0;  /* under b */
    return v3(x - b->x, dy, z - b->z);
}

/* Whether b's side, seen from along n (unit, from b towards the other), stays where it is for
 * the next step: b stands on the ground neither leaving it (receding) nor sliding along it faster
 * than STILL_SPEED (pressing into it is staying: a crouched body that pushed into one resting in
 * a notch every other step, moving only when the other fell, took the notch's face from it every
 * other step, idle <-> fall: seed 1050006), or b is held still off the ground (HELD_SPEED). */
static bool other_stays(const gait__crowd_entry *b, gait_vec3 n) {
    if (!b->grounded) return b->vx * b->vx + b->vy * b->vy + b->vz * b->vz < HELD_SPEED * HELD_SPEED;
    double l = sqrt(n.x * n.x + n.z * n.z);
    if (l <= COINCIDENT) return b->vx * b->vx + b->vz * b->vz < STILL_SPEED * STILL_SPEED;
    double along = (b->vx * n.x + b->vz * n.z) / l, across = (b->vz * n.x - b->vx * n.z) / l;
    return along > -STILL_SPEED && fabs(across) < STILL_SPEED;
}

static gait__bound pair_bound(const gait__crowd_entry *a, const gait__crowd_entry *b,
                              double *clearance) {
    gait_vec3 ab = gait__crowd_apart(a->x, a->y0, a->y1, a->z, b);
    double dx = ab.x, dy = ab.y, dz = ab.z;
    double dist = sqrt(dx * dx + dy * dy + dz * dz);
    double side = a->slot < b->slot ? -1.0 : 1.0; /* coincident: apart along x, the same for both */
    gait_vec3 n = dist > COINCIDENT ? v3(dx / dist, dy / dist, dz / dist) : v3(side, 0, 0);
    double gap = dist - a->radius - b->radius;
    gait_vec3 t = n;
    double closing = (b->vx - a->vx) * n.x + (b->vz - a->vz) * n.z; /* the same seen from b */
    if (dy == 0 && gap > 0 && closing > PASS_CLOSING) {
        /* turned about +y by the same angle seen from either side: one plane, each to its right.
         * Not so far that either stood across it as the step began: the turn's cosine at least
         * (ra + rb) / dist (their extents along it still apart) */
        double c = (a->radius + b->radius) / dist, s;
        if (c < COS_PASS) {
            c = COS_PASS;
            s = SIN_PASS;
        } else {
            s = sqrt(1 - c * c);
        }
        t = v3(n.x * c + n.z * s, 0, n.z * c - n.x * s);
    } else if (fabs(n.y) > MAX_NORMAL_Y) { /* dead over a head: tilted off level */
        double hl = sqrt(n.x * n.x + n.z * n.z);
        gait_vec3 hd = hl > COINCIDENT ? v3(n.x / hl, 0, n.z / hl) : v3(side, 0, 0);
        double c = sqrt(1 - MAX_NORMAL_Y * MAX_NORMAL_Y);
        t = v3(hd.x * c, n.y > 0 ? MAX_NORMAL_Y : -MAX_NORMAL_Y, hd.z * c);
    }
    double alo, ahi, blo, bhi;
    extent(a, t, &alo, &ahi);
    extent(b, t, &blo, &bhi);
    gait__bound bd;
    bd.normal = t;
    bd.slot = b->slot;
    bd.still = other_stays(b, n);
    if (dy == 0 || gap >= STACK_NEAR) {
        bd.offset = 0.5 * (alo + bhi); /* each keeps half the gap */
    } else {
        bool rising = (dy > 0 ? b->vy : a->vy) > STACK_RISE; /* the lower one */
        if (dy > 0) bd.offset = rising ? alo : bhi; /* a on top: on b; b rising: on a */
        else bd.offset = rising ? bhi : alo;        /* a below: on a; a rising: on b */
    }
    *clearance = alo - bd.offset;
    return bd;
}

/* How near (m, between the axes, 3D as pair_bound measures) another body must be for its plane
 * to lie within `covered` of this one: each keeps half the gap, shrunk by a plane's turn (at
 * most 20 deg: cos 0.94); one stacked within STACK_NEAR may lie right on it. */
static double reach_of(double radii, double covered) {
    double half = (radii + 2 * covered) / COS_PASS;
    return half > radii + STACK_NEAR ? half : radii + STACK_NEAR;
}

/* ---- gathering a character's half-spaces ---------------------------------------------------- */

bool gait__bodies_begin(gait_mover_bodies *b, const gait__crowd *c, int slot) {
    if (!c->active || slot < 0 || slot >= c->capacity || c->entry_of_slot[slot] < 0) return false;
    const gait__crowd_entry *e = &c->entries[c->entry_of_slot[slot]];
    b->crowd = c;
    b->self = slot;
    b->origin = v3(e->x, e->y0 - e->radius, e->z);
    b->height0 = e->y1 - e->y0 + 2 * e->radius;
    b->covered = -1;
    b->full = false;
    b->count = 0;
    return true;
}

/* Whether bound x (clearance cx) comes before y: nearest first; at equal clearance by the plane
 * itself, never by slot — slots are the order of creation, and the list's order (which plane a
 * cast meets first at a tie, the push-out's sweep order) must not depend on it. */
static bool before(const gait__bound *x, double cx, const gait__bound *y, double cy) {
    if (cx != cy) return cx < cy;
    if (x->normal.x != y->normal.x) return x->normal.x < y->normal.x;
    if (x->normal.z != y->normal.z) return x->normal.z < y->normal.z;
    if (x->normal.y != y->normal.y) return x->normal.y < y->normal.y;
    return x->offset < y->offset;
}

/* Keeps the bounds nearest first: with more than fit, the farthest go. */
static void keep(gait_mover_bodies *b, gait__bound bd, double clearance, double *clear) {
    int k = b->count;
    if (k == GAIT__BODIES_MAX) {
        b->full = true;
        if (!before(&bd, clearance, &b->bounds[k - 1], clear[k - 1])) return;
        k--;
    } else {
        b->count++;
    }
    while (k > 0 && before(&bd, clearance, &b->bounds[k - 1], clear[k - 1])) {
        b->bounds[k] = b->bounds[k - 1];
        clear[k] = clear[k - 1];
        k--;
    }
    b->bounds[k] = bd;
    clear[k] = clearance;
}

/* Whether o lies farther across the ground than the reach with the largest radius (the
 * gather's, reach2 its square), which no pair's reach exceeds: out before anything else (most
 * of the entries a gather reads, tested in its loop). */
static inline bool beyond(const gait__crowd_entry *self, const gait__crowd_entry *o, double reach2) {
    double dx = self->x - o->x, dz = self->z - o->z;
    return dx * dx + dz * dz > reach2;
}

/* o, within reach2 across the ground (beyond() is false). A body of the largest radius (a crowd
 * of one body type: all of them) has that very reach. */
static void consider(gait_mover_bodies *b, const gait__crowd_entry *self,
                     const gait__crowd_entry *o, double reach2, double *clear) {
    double dx = self->x - o->x, dz = self->z - o->z, dy = 0;
    if (o->slot == self->slot || !(self->layer & o->mask) || !(o->layer & self->mask)) return;
    /* too far apart for their plane to lie within reach: no need to build it */
    if (self->y0 > o->y1) dy = self->y0 - o->y1;
    else if (self->y1 < o->y0) dy = self->y1 - o->y0;
    double d2 = dx * dx + dy * dy + dz * dz;
    if (o->radius != b->crowd->max_radius) {
        double reach = reach_of(self->radius + o->radius, b->covered);
        reach2 = reach * reach;
    }
    if (d2 > reach2) return;
    double clearance;
    gait__bound bd = pair_bound(self, o, &clearance);
    if (clearance <= b->covered) keep(b, bd, clearance, clear);
}

static void gather(gait_mover_bodies *b, double covered) {
    const gait__crowd *c = b->crowd;
    const gait__crowd_entry *self = &c->entries[c->entry_of_slot[b->self]];
    b->covered = covered;
    b->full = false;
    b->count = 0;
    double clear[GAIT__BODIES_MAX];
    /* a half-space lies half a gap away: bodies up to two covers away may matter */
    double reach = reach_of(self->radius + c->max_radius, covered); /* as consider() culls */
    double reach2 = reach * reach;
    int32_t x0 = cell_of(self->x - reach), x1 = cell_of(self->x + reach);
    int32_t z0 = cell_of(self->z - reach), z1 = cell_of(self->z + reach);
    if (c->dense) { /* the cells inside the grid, a row of them one run of entries */
        int64_t lx = x0 > c->ox ? x0 - c->ox : 0, hx = (int64_t)x1 - c->ox;
        int64_t lz = z0 > c->oz ? z0 - c->oz : 0, hz = (int64_t)z1 - c->oz;
        if (hx > c->width - 1) hx = c->width - 1;
        if (hz > c->depth - 1) hz = c->depth - 1;
        for (int64_t row = lz; row <= hz && lx <= hx; row++) {
            const int *start = c->bucket_start + row * c->width;
            for (int k = start[lx]; k < start[hx + 1]; k++)
                if (!beyond(self, &c->entries[k], reach2)) consider(b, self, &c->entries[k], reach2, clear);
        }
    } else if ((double)(x1 - x0 + 1) * (double)(z1 - z0 + 1) > MAX_CELLS) {
        for (int k = 0; k < c->count; k++)
            if (!beyond(self, &c->entries[k], reach2)) consider(b, self, &c->entries[k], reach2, clear);
    } else {
        for (int32_t cz = z0; cz <= z1; cz++)
            for (int32_t cx = x0; cx <= x1; cx++) {
                uint32_t bk = bucket_of(cx, cz, c->bucket_mask);
                for (int k = c->bucket_start[bk]; k < c->bucket_start[bk + 1]; k++) {
                    const gait__crowd_entry *o = &c->entries[k];
                    if (o->cx == cx && o->cz == cz && !beyond(self, o, reach2)) consider(b, self, o, reach2, clear);
                }
            }
    }
    if (b->full) b->covered = clear[GAIT__BODIES_MAX - 1];
}

void gait__bodies_cover(gait_mover_bodies *b, gait_vec3 feet, gait_vec3 d, double height) {
    double a0 = v3_len2(v3_sub(feet, b->origin));
    double a1 = v3_len2(v3_sub(v3_add(feet, d), b->origin));
    double grow = height > b->height0 ? height - b->height0 : 0;
    /* squared while the capsule keeps its height (most moves): no root */
    if (grow == 0 && b->covered >= 0 && (a0 > a1 ? a0 : a1) <= b->covered * b->covered) return;
    double need = sqrt(a0 > a1 ? a0 : a1) + grow;
    if (need <= b->covered || (b->full && b->covered >= 0)) return;
    double want = COVER_GROW * need;
    gather(b, want > COVER_MIN ? want : COVER_MIN);
}

int gait__bodies_within(gait_mover_bodies *b, gait_vec3 feet, double reach, double radius,
                        double height, gait__bound *out, int cap) {
    double grow = height > b->height0 ? height - b->height0 : 0;
    double need = v3_len(v3_sub(feet, b->origin)) + reach + grow;
    if (b->covered < need && !(b->full && b->covered >= 0)) gather(b, COVER_GROW * need);
    if (b->covered < need) return -1; /* more than a gather keeps: nearest ones only */
    int n = 0;
    for (int k = 0; k < b->count; k++) {
        const gait__bound *bd = &b->bounds[k];
        /* how far the capsule at feet stands inside its side (as the mover's body_clearance) */
        double da = feet.x * bd->normal.x + (feet.y + radius) * bd->normal.y + feet.z * bd->normal.z;
        double db = feet.x * bd->normal.x + (feet.y + height - radius) * bd->normal.y + feet.z * bd->normal.z;
        if ((da <= db ? da : db) - radius - bd->offset > reach) continue;
        if (n == cap) return -1;
        out[n++] = *bd;
    }
    return n;
}
