/* The mover (gait/mover.h): a capsule moved by queries against the collider.
 *
 *   - landmarks (triangle meshes) are met by capsule sweeps: collide-and-slide in the manner of
 *     Box2D v3's mover (cast -> collect the plane hit -> clip the rest of the move against every
 *     plane met so far -> cast again), a few iterations a move;
 *   - the terrain is read through its height function (gait's design: a heightfield needs no
 *     triangle tests; the feet stand exactly on it and cannot tunnel through it);
 *   - after the move the capsule is pushed out of any landmark it still overlaps (a plane solve
 *     over the overlap's contacts), and the contacts are classified floor / wall / ceiling.
 * Sweeps stop `sweep_skin` short of a surface, so a body at rest does not overlap and the
 * push-out query normally finds nothing.
 *
 * Determinism: doubles only, a fixed number of iterations, no time-dependent tolerance; the
 * same inputs give the same bits (the Makefile builds with -ffp-contract=off). A move allocates
 * nothing: every scratch array below lives on the stack. */
#include "mover_internal.h"

#include <math.h>
#include <string.h>

#include "core/core.h"
#include "core/vec.h"
#include "crowd.h"

#define SLIDE_ITERS 4          /* casts per slide: a corner needs 2-3 */
#define MAX_PLANES GAIT__MOVER_MAX_PLANES
#define MAX_CONTACTS 16         /* landmark contacts an overlap keeps (the deepest) */
#define CONTACT_CAP (MAX_CONTACTS + GAIT__BODIES_MAX) /* ... and those of other characters */
#define BODY_SKIN 0.002        /* m a cast stops short of another character's half-space (the
                                  collider's default sweep_skin) */
#define BODY_TRIANGLE (-1)     /* a hit or contact's triangle when it is another character */
#define PUSH_PASSES 2
#define PUSH_MARGIN 1e-3       /* m pushed beyond the depth so the next cast starts clear */
#define REFUSE_DEPTH 0.01      /* m: a move still this deep in a landmark after the push-out is
                                  refused (the body stays); ten times the push margin */
#define COS_CEILING 0.5        /* a normal within 60 deg of straight down is a ceiling (the
                                  collider's default ceiling_slope) */
#define PLACE_PROBE 1000.0     /* m: farthest gait_mover_place looks down for ground */
#define PLACE_LIFT 0.05        /* m gait_mover_place rises first at least (before its cast down) */
#define NEAR_SKIN 0.05         /* m a move's look for landmarks reaches past its own reach */
#define TERRAIN_RISE_PER_RUN 0.1 /* a terrain rise steeper than walkable stops a walk that would
                                  climb more than this per metre of run (m/m) */
#define TERRAIN_DOWNHILL 0.1   /* a walk goes down a face when its way leans this much (the sine
                                  of about 6 deg) from the face's contour towards its foot */
#define CREST_STEP 0.05         /* m apart along the way, within the capsule's radius: reads past
                                   a bump's crest the walk crosses (crest_ahead) */
#define FACE_ABOVE 0.002       /* m a steep face may stand above the plane a walk follows and
                                  still be gone down (rounding along a long cell's plane) */
#define DROP_UNCAST 1e-3       /* m: a walk's feet dropping further than this from where its cast
                                   along the ground's plane ended, down onto the terrain, pass
                                   through space no cast looked at */
#define LIFT_EPS 1e-9          /* m: less is no lift, no run */
#define LIFT_TOUCH 1e-4        /* m: a lift onto the terrain ending this little into a landmark
                                  touches it; no lack of room (fly) */
#define SUPPORT_MARGIN 0.03    /* m beyond the bottom sphere support is looked for (within the
                                  move's look for landmarks, NEAR_SKIN) */
#define SUPPORT_MIN_UP 0.1     /* a contact's normal must rise this much to bear weight */
#define SUPPORT_SAME_FACE 0.999 /* normals this alike are one face */
#define NOTCH_LEAN 1e-6       /* m two steep faces' contacts must lie apart, each towards the
                                  way the other faces, to be a notch (steep_pair) */
#define CREASE_CARRY 1e-9      /* of a move's length: a crease carrying no more of it is square
                                  to it (clip_planes passes it over) */
#define CREASE_FAINT 1e-3      /* of a move's length: a crease carrying no more of it is taken
                                  only when no crease carries more (clip_planes) */
#define NOTCH_REFUSED 1e-3     /* m: a walk moved less than this was refused (walk's notch
                                  crease) */
#define RISER_PAST 0.02        /* m past a sloped riser's top its walkable ground is looked for */
#define RISER_SAMPLES 4        /* points a sloped riser's top is looked for at (5-8 cm apart for
                                  a 46 deg face, the longest steep one) */
#define RISER_EDGE_HALVINGS 5  /* a terrain riser's top edge is found to within 1/32 of the gap
                                  between two of those points (2-3 mm) */

static const gait_vec3 UP = {0, 1, 0};

/* ---- geometry helpers -------------------------------------------------------------------- */

static gait_capsule capsule_at(const gait_mover *m, gait_vec3 feet) {
    return gait__upright_capsule(feet, m->radius, m->height);
}

/* ---- queries, through the mover's gather when it has one ---------------------------------- */

#define GATHER_MARGIN 0.35  /* m gathered around what a query needs: the move's next queries
                               (the slide's next cast, the step up and the snap, a step height
                               each, 0.3 m by default, the push-out) fall inside it. A wider
                               margin keeps more triangles for every query to sift (0.5 m cost
                               1-3 % more instructions a step on the meadow, its mesh and the
                               level; 0.2-0.25 m gathers again too often) */
#define GATHER_MARGIN_CROWDED 0.1 /* m gathered around a query where GATHER_MARGIN overflows the
                               gather: a walk's next cast (6 m/s for 1/60 s). On the level scene
                               0.05-0.1 m cost the fewest instructions (0: each cast just past
                               the box gathers again; 0.2 m overflows again) */
#define GATHER_SPAN 6.0     /* m: a query wider than this (a long probe down) gathers nothing
                               and asks the trees, rather than gathering a column of level */

/* The box of a capsule of radius r on segment a-b moved by d (m). */
static inline void moved_span(double a, double b, double d, double r, double *lo, double *hi) {
    double l = a < b ? a : b, h = a < b ? b : a;
    if (d < 0) l += d;
    else h += d;
    *lo = l - r;
    *hi = h + r;
}
/* comparisons, not fmin/fmax: a box's bounds, no NaN; axis by axis in scalars (the arrays this
 * was written with stayed in memory: a query's setup paid twice for its box) */
static void moved_box(gait_vec3 a, gait_vec3 b, double r, gait_vec3 d, gait_vec3 *lo, gait_vec3 *hi) {
    moved_span(a.x, b.x, d.x, r, &lo->x, &hi->x);
    moved_span(a.y, b.y, d.y, r, &lo->y, &hi->y);
    moved_span(a.z, b.z, d.z, r, &lo->z, &hi->z);
}

/* Whether the box lies in a region the gather found too crowded to hold (it overflowed there). */
static bool gather_crowded(const gait_gather *g, const gait_collider *col, gait_vec3 lo, gait_vec3 hi) {
    return g && g->collider == col && g->overflow && g->revision == gait_collider_revision(col) &&
           lo.x >= g->lo.x && lo.y >= g->lo.y && lo.z >= g->lo.z && hi.x <= g->hi.x &&
           hi.y <= g->hi.y && hi.z <= g->hi.z;
}

gait_gather *gait__gather_for(const gait_collider *col, gait_gather *g, const gait_filter *f,
                              gait_vec3 lo, gait_vec3 hi) {
    if (!g || (f && f->skip_landmarks)) return NULL;
    if (g->collider == col && gait_gather_holds(g, lo, hi)) return g;
    /* a region too crowded for the gather, gathered already: its queries ask the trees, rather
     * than gathering it again to overflow again */
    if (gather_crowded(g, col, lo, hi)) return NULL;
    if (hi.x - lo.x > GATHER_SPAN || hi.y - lo.y > GATHER_SPAN || hi.z - lo.z > GATHER_SPAN) {
        /* too wide to gather: the gather answers it still if its first hit lies in the box */
        return g->collider == col ? g : NULL;
    }
    gait_vec3 pad = v3(GATHER_MARGIN, GATHER_MARGIN, GATHER_MARGIN);
    if (gait_collider_gather(col, v3_sub(lo, pad), v3_add(hi, pad), g) != GAIT_OK) return NULL;
    /* too crowded with the margin (a stair, props by a wall): a narrower one, when it fits,
     * answers this query and the next ones of the step inside it from the gather, where the trees
     * would answer each (a tree query costs several gathered ones); when it does not fit either,
     * the trees answer the queries inside it (above) */
    gait_vec3 near = v3(GATHER_MARGIN_CROWDED, GATHER_MARGIN_CROWDED, GATHER_MARGIN_CROWDED);
    if (g->overflow && gait_collider_gather(col, v3_sub(lo, near), v3_add(hi, near), g) != GAIT_OK)
        return NULL;
    return g;
}

bool gait__query_sweep(const gait_collider *col, gait_gather *g, const gait_capsule *c, gait_vec3 d,
                       const gait_filter *f, gait_hit *hit) {
    gait_vec3 lo, hi;
    moved_box(c->a, c->b, c->radius, d, &lo, &hi);
    g = gait__gather_for(col, g, f, lo, hi);
    return g ? gait_gather_capsule_sweep(g, c, d, f, hit) : gait_collider_capsule_sweep(col, c, d, f, hit);
}

bool gait__query_ray(const gait_collider *col, gait_gather *g, gait_vec3 o, gait_vec3 d,
                     const gait_filter *f, gait_hit *hit) {
    gait_vec3 lo, hi;
    moved_box(o, o, 0, d, &lo, &hi);
    g = gait__gather_for(col, g, f, lo, hi);
    return g ? gait_gather_ray_cast(g, o, d, f, hit) : gait_collider_ray_cast(col, o, d, f, hit);
}

int gait__query_overlap(const gait_collider *col, gait_gather *g, const gait_capsule *c,
                        const gait_filter *f, gait_contact_point *cp, int cap, bool *more) {
    gait_vec3 lo, hi;
    moved_box(c->a, c->b, c->radius, v3(0, 0, 0), &lo, &hi);
    g = gait__gather_for(col, g, f, lo, hi);
    return gait__capsule_overlap_distinct(col, g, c, f, cp, cap, more);
}

GAIT__HOT bool q_sweep(const gait_mover *m, const gait_capsule *c, gait_vec3 d,
                       const gait_filter *f, gait_hit *hit) {
    return gait__query_sweep(m->collider, m->gather, c, d, f, hit);
}
static bool q_ray(const gait_mover *m, gait_vec3 o, gait_vec3 d, const gait_filter *f, gait_hit *hit) {
    return gait__query_ray(m->collider, m->gather, o, d, f, hit);
}

/* A cast of the capsule against the landmarks only (the body's probes: a wall to catch, a floor
 * over the top; another character is neither). */
GAIT__HOT bool sweep_geometry(const gait_mover *m, gait_vec3 feet, gait_vec3 d, gait_hit *hit) {
    gait_capsule c = capsule_at(m, feet);
    return q_sweep(m, &c, d, &m->filter, hit);
}

static bool body_triangle(int triangle) { return triangle == BODY_TRIANGLE; }
static bool hit_body(const gait_hit *hit) { return body_triangle(hit->triangle); }

/* How far the capsule at feet stands inside its side of a half-space another character leaves
 * it (m; negative: across it); *support the capsule's point nearest the plane. */
static double body_clearance(const gait_mover *m, gait_vec3 feet, const gait__bound *bd,
                             gait_vec3 *support) {
    gait_vec3 a = v3(feet.x, feet.y + m->radius, feet.z);
    gait_vec3 b = v3(feet.x, feet.y + m->height - m->radius, feet.z);
    double da = v3_dot(a, bd->normal), db = v3_dot(b, bd->normal);
    if (support) *support = v3_mad(da <= db ? a : b, bd->normal, -m->radius);
    return (da <= db ? da : db) - m->radius - bd->offset;
}

/* The first of the other characters' half-spaces the capsule at feet meets moving by d, if
 * before `best` (a fraction of d); as the collider's casts do: a hit needs the move to go into
 * it, stops BODY_SKIN short, and one already across it (or within the skin) stops at once. */
static bool sweep_bodies(const gait_mover *m, gait_vec3 feet, gait_vec3 d, double best,
                         gait_hit *hit) {
    gait_mover_bodies *bs = m->bodies;
    gait__bodies_cover(bs, feet, d, m->height);
    int found = -1;
    double found_clear = 0;
    for (int k = 0; k < bs->count; k++) {
        double into = -v3_dot(d, bs->bounds[k].normal);
        if (into <= 1e-12) continue; /* along it or away */
        double clear = body_clearance(m, feet, &bs->bounds[k], NULL);
        double t = clear > BODY_SKIN ? (clear - BODY_SKIN) / into : 0;
        if (t < best) {
            best = t;
            found = k;
            found_clear = clear;
        }
    }
    if (found < 0) return false;
    const gait__bound *bd = &bs->bounds[found];
    memset(hit, 0, sizeof *hit);
    hit->fraction = best;
    hit->distance = best * v3_len(d);
    hit->normal = bd->normal;
    body_clearance(m, v3_mad(feet, d, best), bd, &hit->point);
    hit->triangle = BODY_TRIANGLE;
    hit->start_solid = found_clear < 0;
    return true;
}

bool gait__mover_sweep_bodies(const gait_mover *m, gait_vec3 feet, gait_vec3 d, double best,
                              gait_hit *hit) {
    return m->bodies && sweep_bodies(m, feet, d, best, hit);
}

/* A cast of the capsule: the landmarks, then the other characters' half-spaces (gait_mover.
 * bodies) — whichever it meets first. */
GAIT__HOT bool sweep(const gait_mover *m, gait_vec3 feet, gait_vec3 d, gait_hit *hit) {
    bool met = sweep_geometry(m, feet, d, hit);
    if (!m->bodies) return met;
    gait_hit bh;
    if (sweep_bodies(m, feet, d, met ? hit->fraction : 1.0, &bh)) {
        if (met && hit->start_solid) bh.start_solid = true;
        *hit = bh;
        return true;
    }
    return met;
}

#define NEAR_MARGIN 0.5     /* m of open country a query looks beyond this step's reach */
#define NEAR_CONTACTS 16
#define NEAR_HOLD 16        /* steps a body found near a landmark takes as near without asking:
                               a wrong "near" costs casts that meet nothing, never a result */

/* Whether a landmark may lie within `reach` (m) of the capsule at feet or moved by d. One overlap
 * query of a fattened capsule answers, and its contacts tell how far the nearest triangle is from
 * the query's axis: the capsule of that radius is empty, and is cached, so the next steps inside
 * it ask nothing. When nothing is near, every cast, snap and push-out of the step would meet
 * nothing too, and the step skips them. */
static bool landmarks_near(const gait_mover *m, gait_mover_cache *cache, gait_vec3 feet,
                           gait_vec3 d, double reach) {
    if (m->filter.skip_landmarks) return false;
    gait_vec3 lo = v3_min(feet, v3_add(feet, d)), hi = v3_max(feet, v3_add(feet, d));
    /* a vertical capsule around the box of both positions */
    double hx = 0.5 * (hi.x - lo.x), hz = 0.5 * (hi.z - lo.z);
    double cx = 0.5 * (lo.x + hi.x), cz = 0.5 * (lo.z + hi.z);
    double radius = m->radius + sqrt(hx * hx + hz * hz) + reach;
    double y0 = lo.y + m->radius - reach, y1 = hi.y + m->height - m->radius + reach;
    /* a moving landmark near: every query is asked (it moves every step: nothing is cached of
     * it; the cache below is of the static ones, keyed to the static revision) */
    if (gait_collider_moving_near(m->collider, v3(cx - radius, y0 - radius, cz - radius),
                                  v3(cx + radius, y1 + radius, cz + radius)))
        return true;
    uint64_t rev = gait_collider_static_revision(m->collider);
    if (cache && cache->hold > 0) {
        cache->hold--;
        return true;
    }
    if (cache && cache->valid && cache->revision == rev) {
        double dx = cx - cache->x, dz = cz - cache->z;
        /* inside the known-empty capsule: the axes' distance plus our radius within its radius,
         * our segment within its segment */
        if (sqrt(dx * dx + dz * dz) + radius <= cache->radius && y0 >= cache->y0 && y1 <= cache->y1)
            return false;
    }
    double grow = cache ? NEAR_MARGIN : 0;
    gait_capsule c;
    c.a = v3(cx, y0 - grow, cz);
    c.b = v3(cx, y1 + grow, cz);
    c.radius = radius + grow;
    gait_contact_point cp[NEAR_CONTACTS];
    bool more = false;
    gait_filter f = m->filter;
    f.skip_terrain = true;
    f.skip_moving = true;
    /* With a gather, gathering the region answers: no triangle met its box, none is within the
     * capsule (empty, as the overlap below would find it); any met, and the move is near them
     * (the gather then holds the move's queries). */
    gait_vec3 glo, ghi;
    moved_box(c.a, c.b, c.radius, v3(0, 0, 0), &glo, &ghi);
    gait_gather *g = gait__gather_for(m->collider, m->gather, &f, glo, ghi);
    if (g && gait_gather_holds(g, glo, ghi)) {
        bool empty = g->count == 0;
        if (cache) {
            cache->valid = empty;
            cache->revision = rev;
            cache->x = cx;
            cache->z = cz;
            cache->y0 = c.a.y;
            cache->y1 = c.b.y;
            cache->radius = c.radius;
            if (!empty) cache->hold = NEAR_HOLD;
        }
        return !empty;
    }
    /* more triangles in the capsule's box than the gather holds: near, and no cache to keep (the
     * overlap would find more than NEAR_CONTACTS there, but it is asked of the trees and costs as
     * much as a few hundred gathered queries). A wrong "near" costs casts that meet nothing. */
    if (gather_crowded(m->gather, m->collider, glo, ghi)) {
        if (cache) {
            cache->valid = false;
            cache->hold = NEAR_HOLD;
        }
        return true;
    }
    int n = gait_collider_capsule_overlap(m->collider, &c, &f, cp, NEAR_CONTACTS, &more);
    /* the nearest triangle's distance from the axis: the radius less the deepest contact */
    double free_r = c.radius;
    for (int i = 0; i < n; i++)
        if (c.radius - cp[i].depth < free_r) free_r = c.radius - cp[i].depth;
    if (cache) {
        cache->valid = n >= 0 && !more;
        cache->revision = rev;
        cache->x = cx;
        cache->z = cz;
        cache->y0 = c.a.y;
        cache->y1 = c.b.y;
        cache->radius = free_r;
    }
    bool near = n < 0 || more || free_r < radius; /* something within this step's reach */
    if (cache && near) cache->hold = NEAR_HOLD;
    return near;
}

bool gait__mover_clear_at(const gait_mover *m, const gait_mover_cache *cache, gait_vec3 feet) {
    /* the cache holds the static landmarks (keyed to the static revision, as landmarks_near
     * keeps it) */
    if (!cache || !cache->valid || cache->revision != gait_collider_static_revision(m->collider))
        return false;
    /* the capsule at feet inside the cache's capsule known to hold no landmark: its axis within
     * the cached radius less its own, its segment within the cached segment */
    double dx = feet.x - cache->x, dz = feet.z - cache->z;
    if (!(sqrt(dx * dx + dz * dz) + m->radius <= cache->radius && feet.y + m->radius >= cache->y0 &&
          feet.y + m->height - m->radius <= cache->y1))
        return false;
    /* a moving landmark may have come where the cache found none */
    if (gait_collider_moving_near(m->collider, v3(feet.x - m->radius, feet.y, feet.z - m->radius),
                                  v3(feet.x + m->radius, feet.y + m->height, feet.z + m->radius)))
        return false;
    /* the cache knows the landmarks only: across another character's half-space, the end-of-step
     * overlap (overlap below) has a contact to push out of */
    if (m->bodies) {
        gait__bodies_cover(m->bodies, feet, v3(0, 0, 0), m->height);
        for (int k = 0; k < m->bodies->count; k++)
            if (body_clearance(m, feet, &m->bodies->bounds[k], NULL) < 0) return false;
    }
    return true;
}

/* A copy of the mover that skips the landmarks when none is near. */
static const gait_mover *mover_for_move(const gait_mover *m, gait_mover *tmp,
                                         gait_mover_cache *cache, gait_vec3 feet, gait_vec3 d,
                                         double reach) {
    if (landmarks_near(m, cache, feet, d, reach)) return m;
    *tmp = *m;
    tmp->filter.skip_landmarks = true;
    return tmp;
}

static bool terrain_at(const gait_mover *m, double x, double z, double *h, gait_vec3 *n) {
    return gait_terrain_sample(m->collider, x, z, h, n);
}

static gait_vec3 horizontal(gait_vec3 v) { return v3(v.x, 0, v.z); }

/* The feet never end below the terrain: a push-out (a low ceiling) or a body leaning on a cliff
 * must not sink them into the height function's ground. */
static gait_vec3 above_terrain(const gait_mover *m, gait_vec3 p) {
    double h; /* the height alone: the normal (a square root and a division) is not asked */
    if (terrain_at(m, p.x, p.z, &h, NULL) && p.y < h) p.y = h;
    return p;
}

static bool in_box(gait_vec3 p, gait_vec3 lo, gait_vec3 hi) {
    return p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z;
}

/* The overlap query of the push-out and the end-of-step check: the mover's filter, less the
 * latched contacts. The collider's region filter (the traversal's sweeps) drops a whole triangle
 * that touches the latch box, so a large sloping one reaching out of the box would be ignored
 * where it is not the ledge; here only the contacts inside the box are, as the traversal's latch means
 * (docs/behaviour.md, "Traversal"). cp holds CONTACT_CAP: the landmarks' MAX_CONTACTS, then one
 * for each other character the capsule is across. One contact for each point and normal: a copy
 * adds nothing to a push or a support, and copies filling the list left the rest out
 * (contact_support). */
static int overlap(const gait_mover *m, const gait_capsule *cap, gait_contact_point *cp) {
    int n = gait__query_overlap(m->collider, m->gather, cap, &m->filter, cp, MAX_CONTACTS, NULL);
    if (m->latch && n > 0) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            bool latched = cp[i].landmark.index1 == m->latch_landmark.index1 &&
                           cp[i].landmark.generation == m->latch_landmark.generation &&
                           in_box(cp[i].point, m->latch_min, m->latch_max);
            if (!latched) cp[k++] = cp[i];
        }
        n = k;
    }
    if (!m->bodies || n < 0) return n;
    /* across another character's half-space: a contact as deep as it is across */
    gait_vec3 feet = v3(cap->a.x, cap->a.y - m->radius, cap->a.z);
    gait__bodies_cover(m->bodies, feet, v3(0, 0, 0), m->height);
    for (int k = 0; k < m->bodies->count; k++) {
        gait_contact_point c;
        double clear = body_clearance(m, feet, &m->bodies->bounds[k], &c.point);
        if (clear >= 0) continue;
        c.normal = m->bodies->bounds[k].normal;
        c.depth = -clear;
        c.cls = GAIT_CONTACT_WALL;
        c.landmark.index1 = 0;
        c.landmark.generation = 0;
        c.triangle = BODY_TRIANGLE;
        cp[n++] = c;
    }
    return n;
}

/* The deepest a capsule at feet overlaps a landmark (m), 0 when it overlaps none. */
static double landmark_depth(const gait_mover *m, gait_vec3 feet) {
    gait_contact_point cp[CONTACT_CAP];
    gait_capsule cap = capsule_at(m, feet);
    int n = overlap(m, &cap, cp);
    double d = 0;
    for (int i = 0; i < n; i++)
        if (cp[i].depth > d) d = cp[i].depth;
    return d;
}

static bool is_floor(const gait_mover *m, gait_vec3 n) { return n.y >= m->cos_walkable; }
static bool is_ceiling(gait_vec3 n) { return n.y <= -COS_CEILING; }

/* Removes the part of v that goes into the plane n. */
static gait_vec3 clip_plane(gait_vec3 v, gait_vec3 n) {
    double d = v3_dot(v, n);
    return d < 0 ? v3_mad(v, n, -d) : v;
}

static bool enters_any(gait_vec3 v, const gait_vec3 *pl, int np, int skip_a, int skip_b) {
    for (int k = 0; k < np; k++)
        if (k != skip_a && k != skip_b && v3_dot(v, pl[k]) < -1e-12) return true;
    return false;
}

/* The part of v that enters none of the planes: along one plane if that suffices, else along
 * the crease of two, else nothing (a corner of three holds the body still, it never wedges).
 * The first crease that enters no other plane and carries a fair part of v is the answer; a
 * faint one (CREASE_FAINT of v or less) only when no crease carries more: a level crease where
 * a steep face meets its vertical twin carried a millionth of a fall and held the body in a
 * corner it could slide down (the liveness fuzzer, seed 210167). A crease square to v carries
 * none of it and is never the answer, so a later crease that does carry some is found (a fall
 * between two steep edges: each edge's face and its vertical twin, SLIDE_NO_RISE's, meet in a
 * level crease, and gravity along it is nothing, where the crease the two edges make runs down
 * and out between them). */
static gait_vec3 clip_planes(gait_vec3 v, const gait_vec3 *pl, int np) {
    if (!enters_any(v, pl, np, -1, -1)) return v;
    for (int i = 0; i < np; i++) {
        gait_vec3 w = clip_plane(v, pl[i]);
        if (!enters_any(w, pl, np, i, -1)) return w;
    }
    double len = v3_len(v);
    double fair = CREASE_FAINT * len;
    gait_vec3 best = v3(0, 0, 0);
    double most = CREASE_CARRY * len;
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++) {
            gait_vec3 dir = v3_cross(pl[i], pl[j]);
            double l = v3_len(dir);
            if (l < 1e-6) continue;
            dir = v3_scale(dir, 1.0 / l);
            double along = v3_dot(v, dir);
            if (fabs(along) <= most) continue;
            gait_vec3 w = v3_scale(dir, along);
            if (enters_any(w, pl, np, i, j)) continue;
            if (fabs(along) > fair) return w;
            best = w;
            most = fabs(along);
        }
    return best;
}

/* Whether a contact point lies under a sphere of centre c within the walkable cone: only there
 * can a floor or an edge hold it up (one at its side, a floor's edge level with its knee, holds
 * nothing). */
static bool under_sphere(const gait_mover *m, gait_vec3 c, gait_vec3 point) {
    return is_floor(m, v3_norm(v3_sub(c, point)));
}

/* The normal a contact at `point` with the capsule at feet has when it is an edge, not the face
 * whose normal n the collider gave: from the point to the nearest point of the capsule's axis.
 * A point under the bottom sphere within the walkable cone keeps n. */
static gait_vec3 edge_normal(const gait_mover *m, gait_vec3 feet, gait_vec3 point, gait_vec3 n) {
    gait_vec3 c = v3(feet.x, feet.y + m->radius, feet.z);
    if (under_sphere(m, c, point)) return n;
    double top = feet.y + m->height - m->radius;
    gait_vec3 axis = v3(feet.x, point.y < c.y ? c.y : point.y > top ? top : point.y, feet.z);
    gait_vec3 e = v3_sub(axis, point);
    double l = v3_len(e);
    return l > 1e-9 ? v3_scale(e, 1.0 / l) : n;
}

/* A hit on an edge or corner reports a normal tilted by the capsule's roundness even when the
 * surface past the edge is flat (a stair's tread seen from its nose). The face just beyond the
 * contact point, away from the capsule's axis, decides: a short ray down onto it. */
static bool edge_supports(const gait_mover *m, gait_vec3 feet, gait_vec3 point) {
    gait_vec3 away = v3_norm(horizontal(v3_sub(point, feet)));
    gait_vec3 o = v3_add(v3_mad(point, away, 0.02), v3(0, 0.05, 0));
    gait_hit hit;
    if (!q_ray(m, o, v3(0, -0.1, 0), &m->filter, &hit)) return false;
    return is_floor(m, hit.normal);
}

/* A face too steep to stand on, touched at `point` under the bottom sphere of a body with its feet
 * at `feet`, that is a riser within the step height: it leans back (46-89 deg, as a shelf's or a
 * terrain-like mesh's sloped riser does) and ends no higher than a step above the feet, with
 * walkable ground past its top. Such a face is stepped up as a vertical riser is, never a wall
 * (docs/behaviour.md, "The body"): while the sphere rides up it the body stands on the riser (as
 * Jolt's CharacterVirtual::WalkStairs looks a little further ahead when its step lands on a steep
 * face). Rays down from just above the step height, at RISER_SAMPLES points uphill out to where
 * the face would reach the step height: a face that goes on higher is met by each ray itself
 * (steep) or lies above it (no hit); a riser's top is walkable ground no higher than the step,
 * whether flat or rising on at a walkable slope (the first point past the edge finds it). */
static bool riser_supports(const gait_mover *m, gait_vec3 feet, gait_vec3 point, gait_vec3 n) {
    if (n.y <= SUPPORT_MIN_UP || is_floor(m, n) || m->step_height <= 0) return false;
    gait_vec3 uphill = v3_neg(horizontal(n)); /* a face leaning back: its normal leans away */
    double nh = v3_len(uphill);
    if (nh < 1e-6) return false;
    uphill = v3_scale(uphill, 1.0 / nh);
    double top = feet.y + m->step_height;
    double rise = top - point.y;           /* m the face may still rise to be a riser */
    if (rise < 0) return false;
    double run = rise * n.y / nh + RISER_PAST; /* m along the ground it takes (rise / tan) */
    for (int k = 1; k <= RISER_SAMPLES; k++) {
        gait_vec3 o = v3_mad(point, uphill, run * k / RISER_SAMPLES);
        o.y = top + GAIT__STEP_RAY_LIFT;
        gait_hit hit;
        if (q_ray(m, o, v3(0, -(top + GAIT__STEP_RAY_LIFT - point.y), 0), &m->filter, &hit) &&
            is_floor(m, hit.normal) && hit.point.y <= top)
            return true;
    }
    return false;
}

/* ---- support: ground the first touch did not show ---------------------------------------- */

/* Steep faces seen under a body: one normal a face (a tessellated face gives several alike) and
 * a point on it; body: the side of another character (still_bodies), which holds a body up only
 * with a face of the world beside it (docs/behaviour.md, "Characters that meet": another
 * character is never ground, so two heads side by side are no notch). */
typedef struct steep_set {
    gait_vec3 n[MAX_CONTACTS], p[MAX_CONTACTS];
    bool body[MAX_CONTACTS];
    int count;
} steep_set;

static void add_face(steep_set *s, gait_vec3 n, gait_vec3 p, bool body) {
    for (int k = 0; k < s->count; k++)
        if (v3_dot(s->n[k], n) > SUPPORT_SAME_FACE) return;
    if (s->count >= MAX_CONTACTS) return;
    s->n[s->count] = n;
    s->body[s->count] = body;
    s->p[s->count++] = p;
}

static void add_steep(steep_set *s, gait_vec3 n, gait_vec3 p) { add_face(s, n, p, false); }

/* Whether these steep faces hold a body between them, and the normal it then stands on (*n_out):
 *   - two forming a notch, each leaning towards the other (a ridge's faces lean apart), whose
 *     crease rises no more steeply than a walkable slope: the crease's normal (up, square to it);
 *   - three forming a funnel, each leaning towards the others (towards the middle of the three
 *     points), whose normals together push straight up (up lies in the cone they span: weights
 *     a, b, c >= 0 with a n_i + b n_j + c n_k = up, by Cramer's rule): a slope running down into
 *     a corner of two walls, a notch's crease running down into a wall. Each pair of them may be
 *     too steep (the crease slides on), yet the three leave no way down: the body stands (up).
 * Up in the cone of more faces lies in the cone of three of them (Caratheodory), so pairs and
 * threes decide any set. "Leaning towards" is by more than NOTCH_LEAN: a ridge's two faces are
 * met at one point of its edge, the two contacts' points apart only by rounding, which leaned
 * them towards each other as often as not (a body on a knife edge stood in the fall and fell in
 * the walk, fall <-> crouch every step). A face over the body (ceiling) makes no notch of two
 * (under an overhang meeting a wall the crease is level, and the body falls away from both), but
 * may be one face of a funnel of three: the cone test is exact, up in the cone is no way down. */
static bool steep_pair(const gait_mover *m, const steep_set *s, gait_vec3 *n_out) {
    for (int i = 0; i < s->count; i++)
        for (int j = i + 1; j < s->count; j++) {
            if ((s->body[i] && s->body[j]) || is_ceiling(s->n[i]) || is_ceiling(s->n[j]))
                continue;
            gait_vec3 ab = v3_sub(s->p[j], s->p[i]);
            if (v3_dot(horizontal(s->n[i]), ab) <= NOTCH_LEAN ||
                v3_dot(horizontal(s->n[j]), ab) >= -NOTCH_LEAN)
                continue;
            gait_vec3 crease = v3_cross(s->n[i], s->n[j]);
            double l = v3_len(crease);
            if (l < 1e-6) continue;
            crease = v3_scale(crease, 1.0 / l);
            gait_vec3 g = v3_norm(v3_mad(UP, crease, -crease.y));
            if (is_floor(m, g)) {
                *n_out = g;
                return true;
            }
        }
    for (int i = 0; i < s->count; i++)
        for (int j = i + 1; j < s->count; j++)
            for (int k = j + 1; k < s->count; k++) {
                if (s->body[i] && s->body[j] && s->body[k]) continue;
                gait_vec3 jk = v3_cross(s->n[j], s->n[k]), ki = v3_cross(s->n[k], s->n[i]),
                          ij = v3_cross(s->n[i], s->n[j]);
                double det = v3_dot(s->n[i], jk);
                if (fabs(det) < 1e-6) continue; /* no cone of three (two alike, or a plane) */
                if (jk.y / det < 0 || ki.y / det < 0 || ij.y / det < 0) continue;
                gait_vec3 mid = v3_scale(v3_add(v3_add(s->p[i], s->p[j]), s->p[k]), 1.0 / 3);
                if (v3_dot(horizontal(s->n[i]), v3_sub(mid, s->p[i])) <= NOTCH_LEAN ||
                    v3_dot(horizontal(s->n[j]), v3_sub(mid, s->p[j])) <= NOTCH_LEAN ||
                    v3_dot(horizontal(s->n[k]), v3_sub(mid, s->p[k])) <= NOTCH_LEAN)
                    continue; /* a peak's faces lean apart */
                *n_out = UP;
                return true;
            }
    return false;
}

/* The terrain around feet over a cell too steep to stand on (normal tn), read through its height
 * function under the bottom sphere's footprint, half a radius and a radius away downhill, along
 * the face's contour and uphill: the steep cells met are added to s (tn first, at the feet);
 * walkable ground downhill or along the contour within `within` of the feet's height
 * (SUPPORT_MARGIN: a cell beside it at the feet's height; walkable ground further below is slid
 * down to, as a landmark crease's is; a standing body's footing looks a step: keeps_footing), or
 * uphill at most a step above them (a dip of the height function: the
 * sphere rests on its rim), is written to *n_out and ends the look (true). Walkable is a normal
 * at least cos_floor up: the body's own limit (m->cos_walkable, a standing body's hysteresis
 * past it), or a landing's (m->cos_steep) for the notch contact_support reads. */
static bool terrain_around(const gait_mover *m, gait_vec3 feet, gait_vec3 tn, steep_set *s,
                           double within, double cos_floor, gait_vec3 *n_out) {
    add_steep(s, tn, feet);
    gait_vec3 down = v3_norm(horizontal(tn)); /* a slope's normal leans downhill */
    if (v3_len2(down) < 0.5) return false;
    gait_vec3 dirs[4] = {down, v3(-down.z, 0, down.x), v3(down.z, 0, -down.x), v3_neg(down)};
    for (int k = 1; k <= 2; k++)
        for (int i = 0; i < 4; i++) {
            gait_vec3 q = v3_mad(feet, dirs[i], 0.5 * k * m->radius);
            double h;
            gait_vec3 n;
            if (!terrain_at(m, q.x, q.z, &h, &n)) continue;
            bool near = i < 3 ? fabs(h - feet.y) <= within
                              : h >= feet.y && h <= feet.y + m->step_height;
            if (n.y >= cos_floor && near) {
                *n_out = n;
                return true;
            }
            /* steep, or walkable only by a standing body's hysteresis and not at the feet: one
             * face of a notch or funnel as it would be to a landing (cos_steep) */
            if (n.y < m->cos_steep) add_steep(s, n, v3(q.x, h, q.z));
        }
    return false;
}

#define BODY_HOLD 0.06 /* m past its side another character still holds a standing body up */
#define HELD_MOVE 1e-4 /* m: a body whose feet moved less than this in its step has not moved */

/* The sides of other characters standing still that the capsule at feet comes within
 * SUPPORT_MARGIN of, read from their own capsules as the step began (the crowd's picture), added
 * to s as faces of a notch. Not their half-spaces: a cast stops BODY_SKIN short of one, so a body
 * come to rest on it reads no contact through the bare radius, and the plane turns with the two
 * bodies' velocities (a pass), so a body that stops reads another plane than the one it fell
 * against. */
static void still_bodies(const gait_mover *m, gait_vec3 feet, steep_set *s) {
    gait_mover_bodies *bs = m->bodies;
    if (!bs) return;
    gait__bodies_cover(bs, feet, v3(0, 0, 0), m->height);
    const gait__crowd *crowd = bs->crowd;
    double y0 = feet.y + m->radius, y1 = feet.y + m->height - m->radius;
    /* A body that has not moved this step (at rest, or held where it is) reads the sides of the
     * moving ones too: one crouched in a funnel and jostled, or sliding down a bank a few
     * millimetres a step, still holds a body resting against it, and read as no face it let
     * that body fall a step where it was held fast and land again, idle <-> fall with the feet
     * never moving (the liveness fuzzer, seeds 1061154, 1081843). A body on the move still
     * reads only the still ones (seed 902549 above) */
    gait_vec3 moved = v3_sub(feet, bs->origin);
    bool held = v3_len2(moved) < HELD_MOVE * HELD_MOVE;
    /* a body standing as its step began keeps reading a side that moved a little further off
     * (BODY_HOLD), as it keeps its footing on a patchy bank (support_hold): a swimmer jostling
     * at the side of one held on a 53 deg bank came and went between 2.7 and 3.9 cm, and the
     * held body landed and fell in turn, walk <-> fall (the liveness fuzzer, seed 1055097) */
    double margin = m->support_hold > SUPPORT_MARGIN ? BODY_HOLD : SUPPORT_MARGIN;
    for (int k = 0; k < bs->count; k++) {
        if (!bs->bounds[k].still && !held) continue;
        const gait__crowd_entry *o = &crowd->entries[crowd->entry_of_slot[bs->bounds[k].slot]];
        gait_vec3 d = gait__crowd_apart(feet.x, y0, y1, feet.z, o);
        double dist = v3_len(d);
        if (dist < 1e-9 || dist - m->radius - o->radius > margin) continue;
        gait_vec3 n = v3(d.x / dist, d.y / dist, d.z / dist);
        /* the point on our axis it is nearest: a sphere's centre over or under it, else the
         * middle of the heights the two share */
        double y = d.y > 0 ? y0 : d.y < 0 ? y1 : 0.5 * (fmax(y0, o->y0) + fmin(y1, o->y1));
        /* however level its side there, never ground by itself (steep_pair) */
        if (is_ceiling(n)) continue;
        add_face(s, n, v3_mad(v3(feet.x, y, feet.z), n, -m->radius), true);
    }
}

/* The contacts a support reading weighs: the whole capsule's (a wall it leans on higher up, a
 * band over a steep slope, holds it too), SUPPORT_MARGIN beyond its radius; cp holds
 * CONTACT_CAP (overlap adds other characters' contacts after the landmarks' MAX_CONTACTS). One
 * contact for each point and normal (overlap): stair steps stacked corner over corner gave the
 * same edge contact once for each of their faces there, 16 of them, and the slope the body also
 * rested on was left out of the list (the walkers' mesh scene, seed 101: the landing read a
 * notch of the slope and the corner, the walk a millimetre on read the corner alone and fell,
 * walk <-> fall every fourth step; notch_stair_corner.lua). */
static int support_contacts(const gait_mover *m, gait_vec3 feet, gait_contact_point *cp) {
    gait_capsule s = gait__upright_capsule(feet, m->radius, m->height);
    s.radius += SUPPORT_MARGIN;
    return overlap(m, &s, cp);
}

/* Walkable support under a capsule whose feet are at `feet` though the surface a cast met first
 * there is too steep: the contacts within SUPPORT_MARGIN of its capsule say more than the first
 * touch —
 *   - a walkable one among them is ground (a crease: the sphere resting on a walkable slope and
 *     a steep face at once touches the face first as often as the slope);
 *   - steep ones that together hold the body are ground too, as Jolt's CharacterVirtual counts
 *     several steep contacts whose combined support is walkable: two faces leaning towards each
 *     other (a trough, a funnel, a steep slope running into a wall) whose crease rises no more
 *     steeply than a walkable slope. The ground's normal is then the crease's: walking along it
 *     is level with it, out of it is into a steep face. A face over the body (a ceiling to the
 *     move) is one face of a funnel of three only (steep_pair).
 * terrain_n (may be NULL): the steep terrain the feet rest on, one more face. Writes the normal
 * to stand on. */
static bool contact_support(const gait_mover *m, gait_vec3 feet, const gait_vec3 *terrain_n,
                            gait_vec3 *n_out) {
    gait_vec3 c = v3(feet.x, feet.y + m->radius, feet.z);
    gait_contact_point cp[CONTACT_CAP];
    int n = support_contacts(m, feet, cp);
    steep_set steep;
    steep.count = 0;
    /* the steep terrain under the feet, and its steep cells around them: a notch of the height
     * function running down into a landmark's wall is a funnel of three faces. Its cells are
     * read by a landing's limit, walk and fall alike: by the standing body's hysteresis a cell
     * beside the feet was walkable, ended the look with the notch's other faces unread, and the
     * crouched walk read no notch where the fall's landing a step before read one (crouch <->
     * fall every step on a steep face against a wall: the liveness fuzzer, seed 797332581) */
    gait_vec3 unused;
    if (terrain_n)
        terrain_around(m, feet, *terrain_n, &steep, SUPPORT_MARGIN, m->cos_steep, &unused);
    still_bodies(m, feet, &steep);
    bool walk = false;
    for (int i = 0; i < n; i++) {
        gait_vec3 nn = cp[i].normal;
        /* a face over the body (an overhang it is pressed under) is one face of a funnel of three
         * (steep_pair): held up by two heads side by side and pushed by the overhang against the
         * wall it leaned from, a body had no way down, hung in the fall (the walkers' survey on a
         * Quake III map, delta) */
        if (is_ceiling(nn)) {
            add_steep(&steep, nn, cp[i].point);
            continue;
        }
        /* another character is never ground by itself (as in a slide: a body on another's head
         * slides off), but the side of one standing still is a face of the notch it makes with
         * a steep face: a body sliding down a steep bank into another standing at its foot
         * rests there, held up by the two, and stands (a fall held there for good otherwise:
         * seed 902465). A moving one's is not: the walk a step on, the other gone, read the
         * bank alone and fell again (run <-> fall every step: seed 902549). The still one's
         * side is read from its capsule (still_bodies), not from its half-space here */
        if (body_triangle(cp[i].triangle)) continue;
        /* walkable, and under the bottom sphere: a floor's edge reported with the face's normal
         * (collide.h: internal edges) beside the sphere holds nothing */
        if (is_floor(m, nn) && under_sphere(m, c, cp[i].point)) {
            if (!walk || nn.y > n_out->y) *n_out = nn; /* the most level walkable contact */
            walk = true;
            continue;
        }
        if (!walk && nn.y > SUPPORT_MIN_UP && under_sphere(m, c, cp[i].point) &&
            edge_supports(m, feet, cp[i].point)) {
            *n_out = UP; /* an edge with walkable ground past it (a step's nose), as a slide's */
            walk = true;
            continue;
        }
        /* a floor beside or above the bottom sphere; a face walkable only by a standing body's
         * hysteresis stays a face of the notch it makes, as a landing reads it (cos_steep) */
        if (nn.y >= m->cos_steep) continue;
        add_steep(&steep, nn, cp[i].point);
    }
    return walk || steep_pair(m, &steep, n_out);
}

/* The crease of a notch two steep faces make round a capsule at feet (steep_pair, as
 * contact_support reads its contacts, walkable ones left out): its normal in *n_out. */
static bool notch_crease(const gait_mover *m, gait_vec3 feet, gait_vec3 *n_out) {
    gait_contact_point cp[CONTACT_CAP];
    int n = support_contacts(m, feet, cp);
    steep_set steep;
    steep.count = 0;
    for (int i = 0; i < n; i++) {
        gait_vec3 nn = cp[i].normal;
        if (is_ceiling(nn) || body_triangle(cp[i].triangle) || nn.y >= m->cos_steep) continue;
        add_steep(&steep, nn, cp[i].point);
    }
    return steep_pair(m, &steep, n_out);
}

/* The bottom sphere's rest on the height function's own triangles: the feet at `feet` over a
 * cell too steep to stand on, the sphere (centre a radius above them) touches, or comes within
 * SUPPORT_MARGIN of, a walkable triangle (or a crease of two whose rest direction is walkable)
 * under it. The cell under the feet is only where the axis crosses the surface; the sphere can
 * still rest on the walkable cell beside it, a centimetre or two away on a diagonal that sample
 * points around the feet step over. Asked alike by the walk's ground finder and the fall's
 * landing, so the two agree on where the body stands. Writes the most level such normal. */
/* The height function's triangles the bottom sphere at feet touches or comes within margin of
 * (into cp, MAX_CONTACTS): their count. */
static int terrain_touch(const gait_mover *m, gait_vec3 feet, double margin, gait_contact_point *cp) {
    gait_vec3 c = v3(feet.x, feet.y + m->radius, feet.z);
    gait_capsule s = {c, c, m->radius + margin};
    gait_filter f = m->filter;
    f.skip_terrain = false;
    f.skip_landmarks = true;
    return gait_collider_capsule_overlap(m->collider, &s, &f, cp, MAX_CONTACTS, NULL);
}

static bool terrain_rest(const gait_mover *m, gait_vec3 feet, double margin, gait_vec3 *n_out) {
    gait_vec3 c = v3(feet.x, feet.y + m->radius, feet.z);
    gait_contact_point cp[MAX_CONTACTS];
    int n = terrain_touch(m, feet, margin, cp);
    bool rest = false;
    for (int i = 0; i < n; i++) {
        gait_vec3 nn = cp[i].normal;
        if (!is_floor(m, nn) || !under_sphere(m, c, cp[i].point)) continue;
        if (!rest || nn.y > n_out->y) *n_out = nn;
        rest = true;
    }
    return rest;
}

/* The height function's faces too steep to stand on that the bottom sphere at feet touches, or
 * comes within margin of, added to s as faces of a notch at their contacts' points: each contact
 * whose normal is its own triangle's (a face: an edge's or a corner's normal a ridge has too). */
static void terrain_faces(const gait_mover *m, gait_vec3 feet, double margin, steep_set *s) {
    gait_contact_point cp[MAX_CONTACTS];
    int n = terrain_touch(m, feet, margin, cp);
    for (int i = 0; i < n; i++) {
        gait_vec3 nn = cp[i].normal, tn;
        double h;
        if (nn.y >= m->cos_steep || is_ceiling(nn)) continue;
        if (!terrain_at(m, cp[i].point.x, cp[i].point.z, &h, &tn) || v3_dot(tn, nn) < 1 - 1e-9) continue;
        add_steep(s, nn, cp[i].point);
    }
}

/* The same on the terrain: the feet over a cell too steep to stand on, the bottom sphere resting
 * on walkable terrain beside (terrain_rest, terrain_around), or in a notch or funnel of the
 * height function's faces: those terrain_around's samples meet, else those the sphere touches.
 * The samples, half a radius and a radius out, step over a notch narrower than that: a cell's two
 * steep triangles folded into a V along its diagonal, by a cell corner. A fall slid into such a V
 * from face to face and back each step, 2-7 mm either way, lifted onto the other face every time,
 * hung there for good (the liveness fuzzer, seed 797334663). */
static bool terrain_support(const gait_mover *m, gait_vec3 feet, gait_vec3 tn, gait_vec3 *n_out) {
    if (terrain_rest(m, feet, SUPPORT_MARGIN, n_out)) return true;
    steep_set steep;
    steep.count = 0;
    if (terrain_around(m, feet, tn, &steep, SUPPORT_MARGIN, m->cos_walkable, n_out)) return true;
    if (steep_pair(m, &steep, n_out)) return true;
    terrain_faces(m, feet, SUPPORT_MARGIN, &steep);
    return steep_pair(m, &steep, n_out);
}

/* A body standing as its step began keeps its footing on a terrain cell too steep to stand on
 * while walkable terrain lies within support_hold (the snap distance) of its bottom sphere, or
 * under terrain_around's samples beside the feet within support_hold of their height, and
 * its feet are on the cell (`above` it by at most SUPPORT_MARGIN: not carried off the bank by the
 * walkable plane it walked along, not run down a steep face below it). On a bank whose
 * height-function cells mix 57 deg triangles with walkable ones the walk read the steep cell under
 * the axis, fell 1-6 steps 1-9 cm over the bank and landed on the next walkable triangle, walk <->
 * fall (the liveness fuzzer, seeds 1027602, 1042436, and 1018478, 1019253, 1028303, 1036923 when
 * the fall was started on the bank instead). The samples: a crouched walk down a 50 deg bank
 * dotted with walkable triangles a few centimetres across stood beside one, found none beside
 * the next step and fell, landing on the next, crouch <-> fall (seed 1024130). A landing keeps
 * the 3 cm. */
static bool keeps_footing(const gait_mover *m, gait_vec3 at, gait_vec3 tn, double above,
                          gait_vec3 *n_out) {
    if (!(m->support_hold > SUPPORT_MARGIN && above <= SUPPORT_MARGIN)) return false;
    if (terrain_rest(m, at, m->support_hold, n_out)) return true;
    steep_set steep;
    steep.count = 0;
    return terrain_around(m, at, tn, &steep, m->support_hold, m->cos_walkable, n_out);
}

/* Whether the terrain too steep to stand on under `feet` (normal tn) is a riser within the step
 * (docs/behaviour.md, "The body": a riser is stepped, never climbed), as riser_supports asks of a
 * landmark's face: uphill across it the height function turns walkable no higher than top_y, the
 * face staying under top_y on the way. terrain_around looks only a capsule's radius uphill, for
 * walkable ground at most a step over the feet wherever it lies: the walkers' terraces (1 m
 * cells, a riser's cell split into a steep triangle and a walkable one) reach their top a little
 * further, or onto a top that rises on, and a run across a steep triangle's corner 0.15-0.29 m
 * high started a climb (run -> climb -> run). How far to look: however its slope bends, a face
 * steeper than walkable rises more than tan(max walk slope) per metre, so one that rises no more
 * than top_y - feet.y ends within that rise / tan(max walk slope) (the run a riser at the
 * walkable slope itself would take). The top's edge, between the last point found on the face
 * and the first walkable one, is found to RISER_EDGE_HALVINGS halvings: its height decides, not
 * a sample's past it (a top rising on at a walkable slope stands above the step a sample past an
 * edge within it). */
static bool terrain_riser(const gait_mover *m, gait_vec3 feet, gait_vec3 tn, double top_y) {
    if (tn.y <= SUPPORT_MIN_UP || is_floor(m, tn) || m->step_height <= 0) return false;
    gait_vec3 uphill = v3_neg(horizontal(tn)); /* a slope's normal leans downhill */
    double nh = v3_len(uphill);
    double sin_w = sqrt(fmax(0.0, 1.0 - m->cos_walkable * m->cos_walkable));
    if (nh < 1e-6 || top_y < feet.y || sin_w < 1e-6) return false;
    uphill = v3_scale(uphill, 1.0 / nh);
    double run = (top_y - feet.y) * m->cos_walkable / sin_w + RISER_PAST;
    double lo = 0; /* m uphill: still the face */
    for (int k = 1; k <= RISER_SAMPLES; k++) {
        double at = run * k / RISER_SAMPLES, h;
        gait_vec3 o = v3_mad(feet, uphill, at), n;
        if (!terrain_at(m, o.x, o.z, &h, &n)) return false;
        if (!is_floor(m, n)) {
            if (h > top_y) return false;
            lo = at;
            continue;
        }
        double hi = at, edge = h;
        for (int i = 0; i < RISER_EDGE_HALVINGS; i++) {
            double mid = 0.5 * (lo + hi), hm;
            gait_vec3 om = v3_mad(feet, uphill, mid), nm;
            if (!terrain_at(m, om.x, om.z, &hm, &nm)) return false;
            if (is_floor(m, nm)) {
                hi = mid;
                edge = hm;
            } else {
                lo = mid;
            }
        }
        return edge <= top_y;
    }
    return false;
}

/* ---- collide and slide ------------------------------------------------------------------- */

/* How a slide meets what it meets. */
enum {
    SLIDE_FLATTEN = 1,  /* walls are taken as vertical planes (a walking body must not ride up a
                           wall it cannot walk) */
    SLIDE_SUPPORT = 2,  /* edge hits are checked for walkable faces past them (landing) */
    SLIDE_NO_RISE = 4   /* a too-steep face up is also a vertical plane (an airborne body slides
                           down it, and its speed into the face is stopped, never turned into a
                           rise up it: Jolt's CharacterVirtual blocks steep slopes the same way) */
};

/* What a walk along the ground's plane g leaves of its move (v, on g) after the faces too steep to
 * walk that it took as vertical planes (a face leaning out over the way alike, with "up" for
 * "down" below): a face leaning back lies further out the lower it goes, so
 * a move along its vertical plane that goes down (along g) still goes into the face, and the
 * next cast meets it at once. Every cast of the slide then met it at fraction 0 and the feet
 * stayed: a body on a slope walking along (or away from) a steeper face at its side stood still
 * for good with open ground ahead (the walkers' survey: 52 of 1000 on its level scene). The move
 * goes on along the crease the face makes with g instead: on
 * g, along the face, never into it; where that crease goes up it goes into the face's vertical
 * plane too (up the face), and a corner of such planes or faces holds the body (nothing). pl:
 * the slide's planes (the faces' vertical ones among them); faces (nf): the faces as they are. */
static gait_vec3 along_faces(gait_vec3 v, gait_vec3 g, const gait_vec3 *faces, int nf,
                             const gait_vec3 *pl, int np) {
    for (int k = 0; k < nf; k++) {
        if (v3_dot(v, faces[k]) >= -1e-12) continue;
        gait_vec3 c = v3_cross(g, faces[k]);
        double l = v3_len(c);
        if (l < 1e-6) return v3(0, 0, 0);
        c = v3_scale(c, 1.0 / l);
        v = v3_scale(c, v3_dot(v, c));
        if (enters_any(v, pl, np, -1, -1) || enters_any(v, faces, nf, k, -1)) return v3(0, 0, 0);
        return v;
    }
    return v;
}

/* Moves the capsule's feet by delta, sliding along what it meets (flags: SLIDE_*). ground, when
 * given, is the walkable plane the move follows. seed (nseed of them, may be none): planes the
 * body already lies on that no cast meets (the terrain, read through its height function), kept
 * with those met, so what a wall leaves of the move goes along their crease, not into them.
 * Returns the new feet. */
static gait_vec3 slide_on(const gait_mover *m, gait_vec3 feet, gait_vec3 delta, unsigned flags,
                          const gait_vec3 *ground, const gait_vec3 *seed, int nseed,
                          gait__slide_info *si) {
    bool flatten = flags & SLIDE_FLATTEN, support = flags & SLIDE_SUPPORT;
    memset(si, 0, sizeof *si);
    for (int k = 0; k < nseed && si->np < MAX_PLANES; k++) si->planes[si->np++] = seed[k];
    gait_vec3 want = delta;
    gait_vec3 want_h = horizontal(delta); /* walls are only compared against one another along
                                             it: its length scales them all alike, unnormalised */
    double si_wall_into = 0;               /* the reported wall's share against it */
    gait_vec3 g = ground ? *ground : UP;
    gait_vec3 faces[MAX_PLANES]; /* the faces leaning back or out a walk along `ground` took as
                                    vertical */
    int nf = 0;
    for (int it = 0; it < SLIDE_ITERS; it++) {
        if (v3_len2(delta) < 1e-10) break; /* under 10 um left: not worth a cast */
        gait_hit hit;
        if (!sweep(m, feet, delta, &hit)) {
            feet = v3_add(feet, delta);
            break;
        }
        feet = v3_mad(feet, delta, hit.fraction);
        si->hits++;
        if (hit.start_solid) si->solid = true;
        gait_vec3 n = hit.normal;
        /* a floor's edge reported with the face's normal (collide.h: internal edges) where it
         * touches the capsule outside the walkable cone under its bottom sphere (beside it, on
         * its side) holds nothing: it is the edge it is, met along the line from it to the
         * axis, as the ground finder's cast down and the support (under_sphere) take it */
        if (!hit_body(&hit) && is_floor(m, n)) n = edge_normal(m, feet, hit.point, n);
        if (hit_body(&hit)) {
            si->body = true; /* another character: slid along, never ground, wall or ceiling */
            if (n.y > SUPPORT_MIN_UP) {
                si->body_under = true;
                si->body_n = n;
            }
            if (flatten) { /* a walk slides round it level, not down into its own ground */
                gait_vec3 f = v3_norm(horizontal(n));
                if (v3_len2(f) > 0.5) n = f;
            }
        } else if (is_floor(m, n)) {
            si->floor = true;
            si->floor_n = n;
            g = n; /* walking on, the move follows the floor met */
            si->floor_lm = hit.landmark;
        } else if (is_ceiling(n)) {
            si->ceiling = true;
        } else {
            bool edge_floor = support && n.y > 0.1 &&
                              under_sphere(m, v3(feet.x, feet.y + m->radius, feet.z), hit.point) &&
                              edge_supports(m, feet, hit.point);
            if (edge_floor) {
                si->floor = true;
                si->floor_n = UP;
                si->floor_lm = hit.landmark;
            } else {
                /* of the walls a walk meets, the one it pushed into the hardest (across the
                 * ground): a walk into a corner slides along the first wall into the second and
                 * is stopped by the first, the one the stick points at and the climb takes; the
                 * last met was the second, beside the stick, so no wall was ahead and the body
                 * stood in the corner for good (climb_crease_corner.lua) */
                gait_vec3 wh = horizontal(n);
                double l = v3_len(wh);
                double into = l > 1e-9 ? v3_dot(wh, want_h) / l : 0;
                if (!si->wall || !flatten || into < si_wall_into) {
                    si->wall_n = n;
                    si->wall_lm = hit.landmark;
                    si_wall_into = into;
                }
                si->wall = true;
                if (n.y > 0) {
                    si->steep = true;
                    si->steep_n = n;
                }
            }
            /* a face too steep to stand on cannot touch the bottom sphere within the walkable
             * cone (it touches where its own normal points from the centre): a hit there is an
             * edge or a corner, one with no walkable face past it (a ridge where a steep face
             * meets a wall, a fin's top). An airborne body slides off it along the edge's own
             * normal, point to centre; the face's normal (and its vertical twin) held the sphere
             * balanced on the ridge, nothing down left and nothing holding it */
            gait_vec3 c = v3(feet.x, feet.y + m->radius, feet.z);
            bool ridge = !flatten && !edge_floor && n.y > 0 && under_sphere(m, c, hit.point);
            if (ridge) n = v3_norm(v3_sub(c, hit.point));
            gait_vec3 f = v3_norm(horizontal(n));
            if (flatten && v3_len2(f) > 0.5) {
                /* leaning out too (n.y < 0: an overhang's underside the head meets): along
                 * its vertical plane a walk up the ground's plane goes up into it, met again at
                 * once (a tilted rock's side over rising ground held runners dead) */
                if (ground && n.y != 0 && nf < MAX_PLANES) faces[nf++] = n;
                n = f;
            } else if ((flags & SLIDE_NO_RISE) && !edge_floor && !ridge && n.y > 0 &&
                       v3_len2(f) > 0.5 && si->np < MAX_PLANES) {
                si->planes[si->np++] = f;
            }
        }
        if (si->np < MAX_PLANES) si->planes[si->np++] = n;
        gait_vec3 rest = v3_scale(delta, 1.0 - hit.fraction);
        delta = clip_planes(rest, si->planes, si->np);
        /* walking along a ground's plane: what a wall (taken as vertical) leaves of the move
         * stays on that plane, so a body pressing up a slope into a wall does not rise along it */
        if (ground && !si->ceiling) {
            delta.y = -(g.x * delta.x + g.z * delta.z) / g.y;
            delta = along_faces(delta, g, faces, nf, si->planes, si->np);
        }
        /* never turn back against the wanted move: that is how corners jitter */
        if (v3_dot(delta, want) <= 0) break;
    }
    return feet;
}

static gait_vec3 slide(const gait_mover *m, gait_vec3 feet, gait_vec3 delta, unsigned flags,
                       const gait_vec3 *ground, gait__slide_info *si) {
    return slide_on(m, feet, delta, flags, ground, NULL, 0, si);
}

/* ---- push-out ---------------------------------------------------------------------------- */

typedef struct push_info {
    bool floor, wall, ceiling;
    gait_vec3 wall_n;
    bool clear;                 /* its last overlap query found nothing, at clear_at: the same
                                   query there (the end-of-step check's) finds nothing either */
    gait_vec3 clear_at;
    gait_landmark_id floor_lm, wall_lm;
} push_info;

/* The push out of n contacts: the smallest move d with dot(n_i, d) >= depth_i + PUSH_MARGIN for
 * each, by a few Gauss-Seidel sweeps over the planes. The other characters' half-spaces the
 * capsule is still clear of are limits too, dot(n_k, d) >= -clearance_k: a body pinned among
 * others, pushed out of one straight into the next and back the next pass, was left a
 * centimetre across a third (bench_crowd's plaza: a climber between a body on the wall's top,
 * one beside it and one at the wall). They go first, the contacts last, so where the two
 * disagree the contacts (the landmarks) win. */
static gait_vec3 push_solve(const gait_mover *m, gait_vec3 feet, const gait_contact_point *cp, int n) {
    gait_vec3 ln[GAIT__BODIES_MAX];
    double lc[GAIT__BODIES_MAX];
    int nl = 0;
    if (m->bodies)
        for (int k = 0; k < m->bodies->count; k++) {
            double clear = body_clearance(m, feet, &m->bodies->bounds[k], NULL);
            if (clear < 0) continue; /* across: one of the contacts */
            ln[nl] = m->bodies->bounds[k].normal;
            lc[nl++] = clear;
        }
    gait_vec3 d = v3(0, 0, 0);
    for (int it = 0; it < 6; it++) {
        for (int k = 0; k < nl; k++) {
            double s = -lc[k] - v3_dot(ln[k], d);
            if (s > 0) d = v3_mad(d, ln[k], s);
        }
        for (int i = 0; i < n; i++) {
            double s = cp[i].depth + PUSH_MARGIN - v3_dot(cp[i].normal, d);
            if (s > 0) d = v3_mad(d, cp[i].normal, s);
        }
    }
    return d;
}

/* Pushes the capsule out of the landmarks it overlaps: the smallest move d with
 * dot(n_i, d) >= depth_i for every contact, by a few Gauss-Seidel sweeps over the planes
 * (so two walls of an acute corner push out along their crease instead of fighting). */
static gait_vec3 push_out(const gait_mover *m, gait_vec3 feet, push_info *pi) {
    memset(pi, 0, sizeof *pi);
    gait_contact_point cp[CONTACT_CAP];
    for (int pass = 0; pass < PUSH_PASSES; pass++) {
        gait_capsule cap = capsule_at(m, feet);
        int n = overlap(m, &cap, cp);
        if (n <= 0) {
            pi->clear = true;
            pi->clear_at = feet;
            break;
        }
        gait_vec3 d = push_solve(m, feet, cp, n);
        for (int i = 0; i < n; i++) {
            gait_vec3 nn = cp[i].normal;
            if (body_triangle(cp[i].triangle)) continue; /* another character: no surface */
            if (is_floor(m, nn)) {
                pi->floor = true;
                pi->floor_lm = cp[i].landmark;
            }
            else if (is_ceiling(nn)) pi->ceiling = true;
            else {
                pi->wall = true;
                pi->wall_n = nn;
                pi->wall_lm = cp[i].landmark;
            }
        }
        feet = v3_add(feet, d);
        if (v3_len2(d) < 1e-18) break;
    }
    return feet;
}

/* The end-of-step check (gait_mover_settle); pushed: the step has pushed out already (pi
 * holds what it met), so a second push-out is not worth its queries. */
/* The deepest overlap at feet, 0 without a query where the push-out just found none there. */
static double depth_after_push(const gait_mover *m, gait_vec3 feet, const push_info *pi) {
    if (pi->clear && pi->clear_at.x == feet.x && pi->clear_at.y == feet.y && pi->clear_at.z == feet.z)
        return 0;
    return landmark_depth(m, feet);
}

static bool end_step(const gait_mover *m, gait_vec3 start, gait_vec3 *feet, bool pushed,
                     push_info *pi) {
    double deep = pushed ? depth_after_push(m, *feet, pi) : landmark_depth(m, *feet);
    if (deep > REFUSE_DEPTH && !pushed) {
        *feet = above_terrain(m, push_out(m, *feet, pi));
        deep = depth_after_push(m, *feet, pi);
    }
    if (deep > REFUSE_DEPTH && landmark_depth(m, start) < deep) {
        *feet = start;
        return true;
    }
    /* deep counts the other characters' half-spaces too, which are no solid: a body whose
     * capsule grew across one (a crouch standing up into a jump under another plunging onto
     * it, 25 cm) was let end its push-out 4.7 cm inside a wall, as less deep than it began
     * (the liveness fuzzer, seed 205793). The landmarks alone may not get deeper either */
    if (deep > REFUSE_DEPTH && m->bodies) {
        gait_mover solid = *m;
        solid.bodies = NULL;
        double end = landmark_depth(&solid, *feet);
        if (end > REFUSE_DEPTH && landmark_depth(&solid, start) < end) {
            *feet = start;
            return true;
        }
    }
    return false;
}

/* ---- the mover --------------------------------------------------------------------------- */

void gait_mover_init(gait_mover *m, const gait_collider *collider, double radius, double height,
                      double step_height, double max_walk_slope) {
    gait__mover_init_cos(m, collider, radius, height, step_height, max_walk_slope, cos(max_walk_slope));
}

void gait__mover_init_cos(gait_mover *m, const gait_collider *collider, double radius, double height,
                          double step_height, double max_walk_slope, double cos_walkable) {
    memset(m, 0, sizeof *m);
    m->collider = collider;
    m->radius = radius;
    m->height = height < 2 * radius ? 2 * radius : height;
    m->step_height = step_height;
    m->cos_walkable = cos_walkable;
    m->cos_steep = cos_walkable;
    m->support_hold = SUPPORT_MARGIN;
    m->filter.skip_terrain = true;
    m->filter.walkable_slope = max_walk_slope;
}

static void result_clear(gait_move_result *r) { gait__mover_result_clear(r); }

/* A move by d of the capsule at feet *p onto the height function's grid from past its edge (it
 * answers nothing there): cast against the grid's own triangles, it meets their edge as it meets
 * a landmark box's, and rests on it while that contact is walkable and under the bottom sphere
 * where it is met. Moves *p there and writes the contact's normal. Asked by the walk's ground
 * finder (a cast down) and the fall (its move), so the two agree on where the edge holds. lift
 * (m; 0 for none): how far above *p the cast starts again when the first starts inside. */
static bool terrain_edge(const gait_mover *m, gait_vec3 *p, gait_vec3 d, double lift,
                         gait_vec3 *n_out) {
    if (!gait__collider_has_terrain(m->collider)) return false; /* a level: no cast to make */
    gait_filter f = m->filter;
    f.skip_terrain = false;
    f.skip_landmarks = true;
    gait_vec3 s = *p;
    gait_capsule c = capsule_at(m, s);
    gait_hit hit;
    bool met = gait_collider_capsule_sweep(m->collider, &c, d, &f, &hit);
    if (met && hit.start_solid && lift > 0) {
        /* the walk's slide, blind to the grid's triangles (the height function answers for
         * them, and it answers nothing past the edge), may have sunk the sphere a hair into
         * the edge it follows: cast again from up to the step height above, as a step up
         * (read as a start inside, a crouched walk there read no ground and fell every other
         * step, landing back on the edge: the liveness fuzzer, seed 797418825) */
        gait_vec3 up = v3(0, lift, 0);
        s = v3_add(*p, up);
        c = capsule_at(m, s);
        d = v3_sub(d, up);
        met = gait_collider_capsule_sweep(m->collider, &c, d, &f, &hit);
    }
    if (!met || hit.start_solid || !is_floor(m, hit.normal)) return false;
    gait_vec3 q = v3_mad(s, d, hit.fraction);
    if (!under_sphere(m, v3(q.x, q.y + m->radius, q.z), hit.point)) return false;
    *p = q;
    *n_out = hit.normal;
    return true;
}

/* Ground under the feet within reach (m) below: the higher of a landmark floor (a cast down)
 * and the terrain. Walkable ground snaps the feet onto it; steep ground is reported, not
 * stood on. The feet never end below the terrain. */
static gait_vec3 find_ground(const gait_mover *m, gait_vec3 p, double reach, bool landmarks,
                             bool riser, gait_move_result *r) {
    double h = -INFINITY;
    gait_vec3 tn = UP;
    bool has_t = terrain_at(m, p.x, p.z, &h, &tn);
    /* the walk's cast followed the plane the feet stood on; where the terrain falls away under
     * it (a crest, a bend), the drop down onto it may meet a landmark's top the cast passed over
     * (a fence sunk in a bank, its top 7 cm up: the feet were put 5 cm inside it, and the
     * push-out took the step back, seed 1059261). Only a floor met there is taken: a steep face
     * beside the way (a crease along a leaning wall) was the cast's to meet, and it did not */
    bool uncast = !landmarks && has_t && p.y > h + DROP_UNCAST;
    if (uncast) landmarks = true;
    if (has_t && p.y < h) p.y = h;

    gait_hit hit;
    double ly = -INFINITY;
    gait_vec3 ln = UP;
    bool lwalk = false;
    bool lhit = landmarks && sweep(m, p, v3(0, -reach, 0), &hit);
    if (lhit && hit_body(&hit)) lhit = false; /* another character below is no ground */
    if (lhit && hit.start_solid) {
        r->touched = true; /* inside something: the push-out answers, not the cast */
        lhit = false;
    }
    if (lhit) {
        ly = p.y - reach * hit.fraction;
        ln = hit.normal;
        lwalk = is_floor(m, ln);
        gait_vec3 at = v3(p.x, ly, p.z), sn;
        if (!lwalk && ln.y > 0.1 && hit.point.y < ly + m->radius &&
            (edge_supports(m, at, hit.point) || riser_supports(m, at, hit.point, ln))) {
            lwalk = true;
            ln = UP;
        }
        /* a crease, a trough (the steep terrain just under the feet one of its faces) */
        bool tnear = has_t && !is_floor(m, tn) && h >= ly - SUPPORT_MARGIN;
        if (!lwalk && contact_support(m, at, tnear ? &tn : NULL, &sn)) {
            lwalk = true;
            ln = sn;
        }
        if (uncast && !lwalk) {
            lhit = false;
            ly = -INFINITY;
            ln = UP;
        }
    }
    gait_vec3 sn;
    if (has_t && h >= p.y - reach && h >= ly) {
        r->ground_height = h;
        /* too steep there, the feet may still stand: walkable terrain beside (terrain_support;
         * for a body standing, within the step height: keeps_footing), a landmark's walkable
         * face or edge the sweep met within SUPPORT_MARGIN below, or a landmark's floor among
         * the contacts */
        gait_vec3 at = v3(p.x, h, p.z);
        bool lnear = lwalk && ly >= h - SUPPORT_MARGIN;
        bool support = is_floor(m, tn) || terrain_support(m, at, tn, &sn) || lnear ||
                       keeps_footing(m, at, tn, p.y - h, &sn) || contact_support(m, at, &tn, &sn);
        /* or the walk went onto a riser within the step there (riser: terrain_wall found its
         * top), as onto a landmark's: it rides up the face */
        if (!support && riser) sn = UP;
        if (support || riser) {
            r->grounded = true;
            r->ground_normal = is_floor(m, tn) ? tn : lnear ? ln : sn;
            p.y = h;
        } else {
            r->steep = true;
            r->ground_normal = tn;
        }
    } else if (isfinite(ly)) {
        r->ground_height = ly;
        if (lwalk) {
            r->grounded = true;
            r->ground_normal = ln;
            r->ground_landmark = hit.landmark;
            p.y = ly;
        } else if (has_t && is_floor(m, tn) && h >= ly - SUPPORT_MARGIN && h >= p.y - reach) {
            /* a steep landmark face met a hair above walkable terrain (a wedge's side standing
             * on it, touched by the sphere at the crease): the terrain within SUPPORT_MARGIN
             * holds the feet, as a fall's landing there takes it. Read as steep, a walk along
             * such a crease fell and landed every other step (build/fuzz/walkers, terrain) */
            r->grounded = true;
            r->ground_normal = tn;
            p.y = ly;
        } else if (ln.y > 0) {
            r->steep = true;
            r->ground_normal = ln;
        }
    } else if (landmarks && !lhit && contact_support(m, p, NULL, &sn)) {
        /* nothing under the feet within reach, yet faces around them hold the body (a box's
         * edge at the feet and a wall it leans on at the head): the ground the fall's landing
         * finds there (fly), so the walk agrees with it. It read no ground and the body flipped
         * run <-> fall every other step (the liveness fuzzer, seed 403049) */
        r->grounded = true;
        r->ground_normal = sn;
        r->ground_height = p.y;
    }
    if (!r->grounded && !has_t && terrain_edge(m, &p, v3(0, -reach, 0), m->step_height, &sn)) {
        /* off the height function's grid, the bottom sphere still on its last cells: a run along
         * a face rising just past the terrain's edge was slid a few centimetres over the edge,
         * read nothing under the feet and fell, landed back on the grid, and again (run <-> fall
         * every few steps: the liveness fuzzer, seed 1304312) */
        r->grounded = true;
        r->steep = false;
        r->ground_normal = sn;
        r->ground_height = p.y;
    }
    return p;
}

/* Whether some wall the plain move met ends within the step height: a ray just above the step
 * height, from the axis into each wall, meets nothing there (or a floor). A body pushing into or
 * sliding along walls that all go on above the step pays one ray a wall, not the step's casts.
 * *low_into: the level way into the first wall found ending low (set only when one is). */
static bool a_wall_ends_low(const gait_mover *m, gait_vec3 start, gait_vec3 d,
                            const gait__slide_info *si, gait_vec3 *low_into) {
    gait_vec3 o = v3(start.x, start.y + m->step_height + GAIT__STEP_RAY_LIFT, start.z);
    double reach = m->radius + v3_len(d) + GAIT__STEP_RAY_LIFT;
    for (int k = 0; k < si->np; k++) {
        gait_vec3 n = si->planes[k];
        if (is_floor(m, n) || is_ceiling(n)) continue;
        gait_vec3 into = v3_norm(horizontal(v3_neg(n)));
        if (v3_len2(into) < 0.5) continue;
        gait_hit hit;
        if (!q_ray(m, o, v3_scale(into, reach), &m->filter, &hit) || is_floor(m, hit.normal)) {
            *low_into = into;
            return true;
        }
    }
    return false;
}

#define RISE_LEAN 0.2 /* a face over the head that stops a step's rise with this much of its
                         normal level (about 12 deg from flat or more) leans over the way up */
/* The capsule at start raised by up to `up`, the first leg of a step over a riser: *top the feet
 * raised, and the height risen (0: it starts stuck). Straight up until something stops it; a
 * face over the head leaning over the way up (a stair under a sloping wall) is slid along for
 * the rest of the rise, as the move across slides along walls. Stopped dead by it at once, a
 * step under a sloping wall's foot rose nothing, and the riser it left was climbed as a wall
 * (tests/scenarios/riser_under_leaning_face.lua; build/fuzz/walkers on oa_rpg3dm2). *body_met
 * (may be NULL) set when another character cut it. */
static double step_rise(const gait_mover *m, gait_vec3 start, double up, gait_vec3 *top,
                        bool *body_met) {
    gait_hit hit;
    if (!sweep(m, start, v3(0, up, 0), &hit)) {
        *top = v3(start.x, start.y + up, start.z);
        return up;
    }
    if (body_met && hit_body(&hit)) *body_met = true;
    double rose = hit.start_solid ? 0 : up * hit.fraction;
    *top = v3(start.x, start.y + rose, start.z);
    gait_vec3 n = hit.normal;
    if (hit.start_solid || hit_body(&hit) || !(n.y < 0) ||
        n.x * n.x + n.z * n.z < RISE_LEAN * RISE_LEAN)
        return rose;
    gait_vec3 rest = v3(0, up - rose, 0);
    rest = v3_mad(rest, n, -v3_dot(rest, n)); /* along the face */
    if (!(rest.y > 0)) return rose;
    gait__slide_info si;
    gait_vec3 q = slide(m, *top, rest, 0, NULL, &si);
    if (si.solid || si.body || !(q.y > top->y)) return rose;
    *top = q;
    return q.y - start.y;
}

/* Across and down from *top, risen `up` above start (step_rise's answers): the move a riser
 * blocked, tried over it. Across is a slide, as the plain move's is, so a body sliding along a
 * wall, or in the corner a riser makes with a wall, steps up while it slides (as Jolt's
 * CharacterVirtual::WalkStairs moves across with its own collide-and-slide). Taken only when it
 * lands on walkable ground and gets further along the move than the plain move did. *body_met
 * (may be NULL): set when another character cut the move across or the drop (left alone
 * otherwise). */
static bool step_across(const gait_mover *m, gait_vec3 start, gait_vec3 top, gait_vec3 d,
                        gait_vec3 plain, double up, gait_vec3 *out, bool *body_met) {
    if (up < 1e-4) return false;
    gait__slide_info si;
    gait_vec3 q = slide(m, top, d, SLIDE_FLATTEN, NULL, &si);
    if (body_met && si.body) *body_met = true;
    if (si.solid) return false;
    gait_vec3 dir = v3_norm(d);
    double gain = v3_dot(v3_sub(q, start), dir) - v3_dot(v3_sub(plain, start), dir);
    if (gain <= 1e-5) return false;
    gait_hit hit;
    if (!sweep(m, q, v3(0, -up, 0), &hit)) return false;
    if (hit_body(&hit)) {
        if (body_met) *body_met = true;
        return false;
    }
    if (hit.start_solid) return false;
    q.y -= up * hit.fraction;
    bool walk = is_floor(m, hit.normal) ||
                (hit.normal.y > 0.1 && hit.point.y < q.y + m->radius &&
                 (edge_supports(m, q, hit.point) || riser_supports(m, q, hit.point, hit.normal)));
    if (!walk) return false;
    *out = q;
    return true;
}
/* Up by `up` (the step height), across, down. */
static bool step_over(const gait_mover *m, gait_vec3 start, gait_vec3 d, gait_vec3 plain,
                      double up, gait_vec3 *out) {
    gait_vec3 top;
    double rose = step_rise(m, start, up, &top, NULL);
    return step_across(m, start, top, d, plain, rose, out, NULL);
}

#define STEP_LEAN 0.25 /* the least share of the move into a wall that ends low (sin 14.5 deg)
                          for the step straight over it, when the one along the stick fails: a
                          stick along a curb into a corner is no sidestep onto the curb */
/* *body_met (may be NULL): set when another character cut the rise, or either try's move across
 * or drop. */
static bool step_up(const gait_mover *m, gait_vec3 start, gait_vec3 d, gait_vec3 plain,
                    const gait__slide_info *plain_si, gait_vec3 *out, bool *body_met) {
    gait_vec3 into;
    if (!a_wall_ends_low(m, start, d, plain_si, &into)) return false;
    /* both tries rise from the same feet by the same height: one cast answers for both */
    gait_vec3 top;
    double up = step_rise(m, start, m->step_height, &top, body_met);
    if (step_across(m, start, top, d, plain, up, out, body_met)) return true;
    /* the move over the step along the stick lands nowhere to stand (between a pillar and a
     * riser, the drop meets the pillar's face): the same length straight over the wall that
     * ends low, when the stick leans into it (tests/scenarios/pillar_riser_wedge.lua: by 0.32
     * of the move) */
    double lean = v3_dot(horizontal(d), into), dl = v3_len(horizontal(d));
    if (!(dl > 0 && lean >= STEP_LEAN * dl)) return false;
    gait_vec3 q;
    if (!step_across(m, start, top, v3_scale(into, dl), plain, up, &q, body_met) ||
        !(v3_dot(v3_sub(q, plain), d) > 0))
        return false; /* ... and further along the stick than the plain move got */
    *out = q;
    return true;
}

/* Whether the step up refused by another character (step_up's *body_met) is taken with the
 * other characters away: a riser the feet would step onto but for a body standing on it or in
 * the way over it. That riser is no wall: the walk is stopped by the body, as by any body, and
 * no climb starts up a step (a runner turned back up a stair with another on the next tread
 * climbed the 0.24 m riser: build/fuzz/walkers on oa_rpg3dm2, walker 186). */
static bool riser_behind_body(const gait_mover *m, gait_vec3 start, gait_vec3 d, gait_vec3 plain,
                              const gait__slide_info *plain_si) {
    gait_mover alone = *m;
    alone.bodies = NULL;
    gait_vec3 q;
    return step_up(&alone, start, d, plain, plain_si, &q, NULL);
}

bool gait__mover_step_over(const gait_mover *m, gait_vec3 start, gait_vec3 d, gait_vec3 plain,
                           double up, gait_vec3 *out) {
    return step_over(m, start, d, plain, up, out);
}

/* Whether the walk crosses a bump's crest: the feet's end p lies over a steep face standing above
 * the plane the walk follows, h high there, but leaning the way the walk goes (a riser's cell
 * corner jutting into the ground at its foot), and within the capsule's radius further along
 * lies walkable terrain lower than h and no higher than `top`. Read as a wall, the face's normal
 * pointed along the move: no wall was ahead, its foot led nowhere, and the runner stood at the
 * bump for good (the walkers' survey, terrain scene). Steep terrain going on down beyond it is no
 * crest: the walk down a too-steep face is a slide (a walk stepped onto a face falling away
 * between walkable triangles flipped walk <-> fall every few steps: the liveness fuzzer, seed
 * 913673). */
static bool crest_ahead(const gait_mover *m, gait_vec3 p, double h, double top, gait_vec3 way) {
    gait_vec3 wd = v3_norm(way), tq;
    for (int k = 1; k * CREST_STEP <= m->radius + 1e-9; k++) {
        gait_vec3 q = v3_add(p, v3_scale(wd, k * CREST_STEP));
        double hq;
        if (terrain_at(m, q.x, q.z, &hq, &tq) && is_floor(m, tq) && hq < h - FACE_ABOVE && hq <= top)
            return true;
    }
    return false;
}

#define LEAN_MIN 0.1   /* a face over the head leans towards the way: its normal's level part */
#define FOOT_ALONG 0.5 /* cos 60 deg: a way closer than this to straight up a face presses in */
#define FOOT_SAMPLES 4 /* points down a face looked at for the walkable ground at its foot */

/* A walk refused on a face too steep to stand on, by feet standing on it (held there by walkable
 * ground a sample beside them: terrain_around), goes on along the face and down it to that ground
 * at its foot, within the capsule's radius downhill and the step height down, where the feet
 * stand again. A runner stepped onto such a face beside its foot stood there for good with the
 * stick along the bank: the way along it rose a hair and was a wall, the contour's end had no
 * walkable ground beside it, and the feet stayed (the liveness fuzzer, seed 1034239). The body
 * stays on its feet (no fall across the few centimetres down, no run <-> fall); landmarks in the
 * way stop it as any walk's slide does. `along` is where the slide along the face's contour
 * ended. */
static bool face_foot(const gait_mover *m, gait_vec3 start, gait_vec3 d, gait_vec3 along,
                      gait_move_result *r, gait_vec3 *out) {
    double h0, h;
    gait_vec3 tn0, n;
    if (!terrain_at(m, start.x, start.z, &h0, &tn0) || start.y != h0 || is_floor(m, tn0))
        return false;
    gait_vec3 down = horizontal(tn0); /* a slope's normal leans downhill */
    double len = v3_len(down), dl = v3_len(horizontal(d));
    if (len < 1e-6 || dl < 1e-12) return false;
    down = v3_scale(down, 1.0 / len);
    /* only a way along the face: one pressed into it (within FOOT_ALONG's 60 deg, as a climb
     * takes a wall ahead) is the climb's. Taken there, a body that climbed a bank and stood on
     * its top's edge was walked back down the face and climbed it again, run <-> climb
     * (the liveness fuzzer, seeds 1068523, 1072630) */
    if (-v3_dot(horizontal(d), down) / dl >= FOOT_ALONG) return false;
    for (int k = 1; k <= FOOT_SAMPLES; k++) {
        gait_vec3 q = v3_mad(v3(along.x, start.y, along.z), down, m->radius * k / FOOT_SAMPLES);
        if (!terrain_at(m, q.x, q.z, &h, &n) || !is_floor(m, n)) continue;
        if (h > start.y || h < start.y - m->step_height) return false;
        /* not into water over the step height: a body that stood up on a bank out of the
         * water went down it into the swim and swam back up onto it, run <-> swim */
        double surface;
        if (gait_water_at(m->collider, q.x, q.z, &surface, NULL) && surface - h > m->step_height)
            return false;
        gait__slide_info si;
        gait_vec3 to = v3_sub(q, start);
        gait_vec3 got = slide(m, start, to, SLIDE_FLATTEN, NULL, &si);
        if (si.solid) r->touched = true;
        if (v3_len2(horizontal(v3_sub(got, q))) > LIFT_EPS * LIFT_EPS) return false;
        *out = got;
        return true;
    }
    return false;
}

/* The terrain as a wall: a rise steeper than walkable stops the feet (docs/behaviour.md,
 * "The body"). The walk from start by d ended at p over a too-steep cell. It goes on when it goes
 * down the face (the body leaves the ground and slides, or crosses a crest: the face drops below
 * the ground's plane, `ground`, NULL when the walk follows none) within a step, or rises no more
 * than a step to where the feet still stand (terrain_support: a riser within the step height
 * whose walkable top is within the sphere's reach is no wall, on the terrain as on a landmark;
 * the ground finder then agrees), or onto a riser within the step whose top lies further up its
 * face (terrain_riser; *riser tells the ground finder). Otherwise the face is a wall: the move
 * tries along its foot (its contour, or the crease it makes with the ground's plane), kept only
 * where the feet stand — a body walking along a face's foot with the stick a little into it
 * stays on the walkable ground beside it, instead of stepping onto the face, falling off it and
 * walking on again; else the feet stay. Returns the feet. */
static gait_vec3 terrain_wall(const gait_mover *m, gait_vec3 start, gait_vec3 d, gait_vec3 p,
                              const gait_vec3 *ground, gait_move_result *r, bool *floor_met,
                              bool *riser, bool on_landmark) {
    double h;
    gait_vec3 tn, sn;
    if (!terrain_at(m, p.x, p.z, &h, &tn) || is_floor(m, tn) || h <= p.y - m->step_height)
        return p;
    /* a walk along a landmark's floor over steep terrain within a step under it: the face lies
     * under the floor, no wall (read as one, a run across a box's top standing in a bank stopped
     * dead wherever the bank came within a step under its top: seed 1055365). Only while the
     * floor goes on under the feet: a walk off its edge meets the face as before (taken as no
     * wall there too, a crouched walk stepped off a box's edge onto a steep bank a few
     * centimetres under it, fell, landed back in the crouch: crouch <-> fall, seed 1013233) */
    if (on_landmark && h < p.y) {
        gait_hit fh;
        if (sweep_geometry(m, p, v3(0, h - p.y, 0), &fh) && fh.landmark.index1 != 0 &&
            is_floor(m, fh.normal))
            return p;
    }
    double rise = h - start.y;
    gait_vec3 nh = v3_norm(horizontal(tn)); /* a slope's normal leans downhill */
    /* going down the face: the way leans towards its foot, and the face lies at or below where
     * the walk along the ground's plane put the feet (a face dropping away past a convex edge).
     * A face standing above that plane rises out of the ground walked on (a concave crease at
     * its foot): walking into it is climbing it, whichever way its contour runs, however the
     * ground falls away along it */
    bool above = h > p.y + FACE_ABOVE;
    /* the way the feet went, not the way they were sent: a slide along a wall can turn a move
     * down the face into one up it (judged by d, a walk pressed into a wall at a 51 deg face's
     * foot climbed onto the face 5 mm, read no ground there, fell back and walked up again:
     * walk <-> fall every other step, the liveness fuzzer's seed 601401) */
    gait_vec3 way = horizontal(v3_sub(p, start));
    if (v3_len2(way) < 1e-18) way = horizontal(d);
    bool downhill = v3_dot(v3_norm(way), nh) > TERRAIN_DOWNHILL &&
                    (!above || crest_ahead(m, p, h, start.y + m->step_height, way));
    bool stands = terrain_support(m, v3(p.x, h, p.z), tn, &sn);
    if (rise <= m->step_height && (downhill || stands)) return p;
    /* a riser within the step whose top lies further uphill: walked onto, ridden up (the
     * ground finder is told, *riser); not a face gone down, whose top is behind the feet */
    if (rise <= m->step_height && terrain_riser(m, v3(p.x, h, p.z), tn, start.y + m->step_height)) {
        *riser = true;
        return p;
    }
    r->wall = true;
    r->wall_terrain = true;
    r->wall_normal = tn;
    gait_vec3 d2 = clip_plane(d, nh);
    /* a face rising out of a sloping ground: along the crease the two make (the way the ground
     * runs at the face's foot), not the face's contour, which climbs the face where the ground
     * falls away along it */
    gait_vec3 crease = ground && above ? v3_norm(horizontal(v3_cross(tn, *ground))) : v3(0, 0, 0);
    if (v3_len2(crease) > 0.5) d2 = v3_scale(crease, v3_dot(d, crease));
    gait__slide_info si;
    gait_vec3 p2 = slide(m, start, d2, SLIDE_FLATTEN, NULL, &si);
    if (si.solid) r->touched = true;
    if (si.floor) *floor_met = true;
    double h2;
    gait_vec3 tn2;
    double run2 = v3_len(horizontal(v3_sub(p2, start)));
    if (run2 > LIFT_EPS && terrain_at(m, p2.x, p2.z, &h2, &tn2) &&
        (is_floor(m, tn2) || (h2 - start.y <= TERRAIN_RISE_PER_RUN * run2 &&
                              terrain_support(m, v3(p2.x, h2, p2.z), tn2, &sn))))
        return p2;
    gait_vec3 q;
    if (face_foot(m, start, d, p2, r, &q)) return q;
    return start;
}

/* The terrain lifted the feet from cast_y to p where no cast went: cast that lift too. Rising
 * ground under a low ceiling leaves no room for the body: the move is refused, as a wall's is.
 * Returns the feet. */
static gait_vec3 lift_check(const gait_mover *m, gait_vec3 start, double cast_y, gait_vec3 p,
                            gait_vec3 ground_normal, gait_move_result *r, gait_vec3 *met) {
    gait_hit hit;
    if (!sweep_geometry(m, v3(p.x, cast_y, p.z), v3(0, p.y - cast_y, 0), &hit)) return p;
    *met = hit.normal;
    r->grounded = true;
    r->steep = false;
    r->ground_normal = ground_normal;
    r->ground_height = start.y;
    r->ceiling = true;
    r->vel = v3(0, 0, 0);
    r->touched = hit.start_solid;
    return start;
}

static void walk(const gait_mover *m_in, gait_vec3 *feet_io, gait_vec3 hvel,
                 gait_vec3 ground_normal, double dt, gait_mover_cache *near,
                 gait_move_result *r, bool again);

/* ---- a walk held still: the last one's answer (gait_mover_held) --------------------------- */

static bool same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }
#define SAME(f) same_bits(&a->f, &b->f, sizeof a->f)

static bool same_filter(const gait_filter *a, const gait_filter *b) {
    return a->ignore.index1 == b->ignore.index1 && a->ignore.generation == b->ignore.generation &&
           a->ignore_region_only == b->ignore_region_only && SAME(region_min) && SAME(region_max) &&
           a->skip_terrain == b->skip_terrain && a->skip_landmarks == b->skip_landmarks &&
           a->skip_moving == b->skip_moving && SAME(walkable_slope);
}

static bool same_mover(const gait_mover *a, const gait_mover *b) {
    return a->collider == b->collider && SAME(radius) && SAME(height) && SAME(step_height) &&
           SAME(cos_walkable) && SAME(cos_steep) && SAME(support_hold) &&
           same_filter(&a->filter, &b->filter) && a->latch == b->latch &&
           (!a->latch || (a->latch_landmark.index1 == b->latch_landmark.index1 &&
                          a->latch_landmark.generation == b->latch_landmark.generation &&
                          SAME(latch_min) && SAME(latch_max)));
}
#undef SAME

bool gait__held_same(const gait_mover_held *h, const gait_mover *m, gait_vec3 feet, gait_vec3 vel,
                     gait_vec3 plane, double dt) {
    return h->valid && same_bits(&h->feet, &feet, sizeof feet) && same_bits(&h->vel, &vel, sizeof vel) &&
           same_bits(&h->plane, &plane, sizeof plane) && same_bits(&h->dt, &dt, sizeof dt) &&
           h->revision == gait_collider_static_revision(m->collider) && same_mover(&h->mover, m);
}

void gait__held_keep(gait_mover_held *h, const gait_mover *m, gait_vec3 feet, gait_vec3 vel,
                     gait_vec3 plane, double dt, const gait_move_result *r) {
    h->valid = true;
    h->revision = gait_collider_static_revision(m->collider);
    h->mover = *m;
    h->mover.gather = NULL;
    h->mover.bodies = NULL;
    h->feet = feet;
    h->vel = vel;
    h->plane = plane;
    h->dt = dt;
    h->result = *r;
}

/* Nothing a walk from feet asks could change since it was answered but the static landmarks:
 * no terrain in the world (its lift reaches metres), no moving landmark and no other character
 * within every query's reach. That reach: the move along the ground's plane, the same again
 * along a face leaning over the way (the walk's second try), a step up, across and down, the
 * snap down, with room to spare. */
static bool walk_alone(const gait_mover *m, gait_vec3 feet, gait_vec3 hvel, double dt) {
    if (gait__collider_has_terrain(m->collider) || !(m->cos_walkable > 0.01)) return false;
    double along = sqrt(hvel.x * hvel.x + hvel.z * hvel.z) * dt / m->cos_walkable;
    double reach = 2 * along + 4 * m->step_height + NEAR_MARGIN;
    if (!(reach < 1e3)) return false;
    double R = reach + m->height;
    if (gait_collider_moving_near(m->collider, v3(feet.x - R, feet.y - R, feet.z - R),
                                  v3(feet.x + R, feet.y + R, feet.z + R)))
        return false;
    return !m->bodies || gait__bodies_within(m->bodies, feet, reach, m->radius, m->height, NULL, 0) == 0;
}


void gait_mover_walk(const gait_mover *m_in, gait_vec3 *feet_io, gait_vec3 hvel,
                      gait_vec3 ground_normal, double dt, gait_mover_cache *near,
                      gait_move_result *r) {
    if (!near || gait__collider_has_terrain(m_in->collider)) { /* no memo: the walk alone */
        walk(m_in, feet_io, hvel, ground_normal, dt, near, r, true);
        return;
    }
    if (gait__held_same(&near->held, m_in, *feet_io, hvel, ground_normal, dt) &&
        walk_alone(m_in, *feet_io, hvel, dt)) {
        *r = near->held.result;
        return;
    }
    gait_vec3 start = *feet_io;
    walk(m_in, feet_io, hvel, ground_normal, dt, near, r, true);
    if (same_bits(feet_io, &start, sizeof start) && walk_alone(m_in, start, hvel, dt))
        gait__held_keep(&near->held, m_in, start, hvel, ground_normal, dt, r);
    else
        near->held.valid = false;
}

/* The walk; `again`: a move refused by a face over the head that leans towards the way (the lift
 * onto rising ground under it found no room) is walked once more along that face. */
static void walk(const gait_mover *m_in, gait_vec3 *feet_io, gait_vec3 hvel,
                 gait_vec3 ground_normal, double dt, gait_mover_cache *near,
                 gait_move_result *r, bool again) {
    result_clear(r);
    gait_vec3 start = *feet_io;
    gait_vec3 d = v3(hvel.x * dt, 0, hvel.z * dt);
    gait_mover tmp;
    /* reach: the step up and the snap down (step height each), a margin for the skin */
    const gait_mover *m = mover_for_move(m_in, &tmp, near, start, d, m_in->step_height + NEAR_SKIN);
    /* along the ground's plane, so a ramp is walked up and down, not ploughed into */
    gait_vec3 d3 = d;
    bool on_plane = ground_normal.y >= m->cos_walkable && ground_normal.y > 0;
    if (on_plane) d3.y = -(ground_normal.x * d.x + ground_normal.z * d.z) / ground_normal.y;

    gait__slide_info si;
    gait_vec3 p = slide(m, start, d3, SLIDE_FLATTEN, on_plane ? &ground_normal : NULL, &si);
    /* refused between two steep faces leaning towards each other (a V trough narrower than the
     * body, over ground that falls away along it): along the ground's plane the move goes down
     * into the V, held by both faces; the faces hold the body up, and it walks along their
     * crease (docs/behaviour.md, "The body"), as it would standing in the notch */
    gait_vec3 crease;
    bool refused = v3_len2(v3_sub(p, start)) < NOTCH_REFUSED * NOTCH_REFUSED;
    if (on_plane && si.steep && si.np >= 2 && refused && notch_crease(m, start, &crease) &&
        v3_dot(crease, ground_normal) < 1 - 1e-9) {
        gait_vec3 dc = v3(d.x, -(crease.x * d.x + crease.z * d.z) / crease.y, d.z);
        gait__slide_info sc;
        gait_vec3 pc = slide(m, start, dc, SLIDE_FLATTEN, &crease, &sc);
        if (v3_len2(v3_sub(pc, start)) > v3_len2(v3_sub(p, start))) {
            p = pc;
            si = sc;
        }
    }
    bool floor_met = si.floor;
    r->touched = si.solid;
    double h0;
    bool has_terrain = terrain_at(m, start.x, start.z, &h0, NULL);
    bool on_terrain = has_terrain && start.y == h0;
    bool on_landmark = has_terrain && start.y > h0; /* a floor over the terrain: a landmark's */
    if (si.wall) {
        gait_vec3 q;
        bool body_met = false;
        if (m->step_height > 0 && step_up(m, start, d, p, &si, &q, &body_met)) {
            on_terrain = false;
            r->touched = true; /* three casts placed it by an edge: let the push-out check */
            p = q;
        } else if (body_met && riser_behind_body(m, start, d, p, &si)) {
            r->touched = true; /* at a step another character stands in the way of */
        } else {
            r->wall = true;
            r->wall_normal = si.wall_n;
            r->wall_landmark = si.wall_lm;
        }
    }
    if (si.ceiling) r->ceiling = true;

    bool riser = false;
    p = terrain_wall(m, start, d, p, on_plane ? &ground_normal : NULL, r, &floor_met, &riser,
                     on_landmark);
    gait_vec3 moved = v3_sub(p, start);
    r->vel = dt > 0 ? v3(moved.x / dt, 0, moved.z / dt) : v3(0, 0, 0);
    /* on the terrain with no landmark floor met on the way, no landmark floor can be under the
     * feet (the move was cast along the ground's plane): the height function alone answers,
     * while the feet are still over its grid (past its edge a landmark's floor may lie a hair
     * below the plane: a quay's deck) */
    double cast_y = p.y;
    double hp;
    bool left_grid = on_terrain && !terrain_at(m, p.x, p.z, &hp, NULL);
    p = find_ground(m, p, m->step_height, floor_met || !on_terrain || left_grid, riser, r);
    /* the lift is asked of the landmarks too when it reaches past what the near test covered
     * (the step height and NEAR_SKIN): feet under the terrain's surface are lifted metres onto
     * it, and "no landmark near the move" says nothing of the way up (the cache's answer and a
     * fresh one, after a snapshot's restore, differ there: the fly's lift keeps the same rule) */
    if (p.y > cast_y + LIFT_EPS && (m == m_in || p.y - cast_y > m_in->step_height + NEAR_SKIN)) {
        gait_vec3 met = UP;
        p = lift_check(m_in, start, cast_y, p, ground_normal, r, &met);
        /* refused by a face leaning over the way (an overhang's underside at the head, the
         * ground rising a little under it): the way along that face, as along a wall. The walk
         * stopped dead there for good, the stick held (build/fuzz/walkers, terrain) */
        gait_vec3 mh = horizontal(met);
        double ml = v3_len(mh);
        if (again && r->ceiling && p.x == start.x && p.z == start.z && ml > LEAN_MIN &&
            v3_dot(hvel, mh) < 0) {
            gait_vec3 along = clip_plane(hvel, v3_scale(mh, 1.0 / ml));
            if (v3_len2(along) * dt * dt > LIFT_EPS * LIFT_EPS) {
                walk(m_in, feet_io, along, ground_normal, dt, near, r, false);
                r->ceiling = true;
                return;
            }
        }
    }
    *feet_io = p;
}

/* Whether the lift of feet p up onto the terrain's height h meets a landmark (*hit). A lift that
 * starts inside one is no lack of room when it ends no deeper than the step began (from), or
 * only touching (LIFT_TOUCH): a head already pressed into a ceiling over a steep bank, a capsule
 * against a wedge's edge. Refused, the slide down the bank lost its speed every step and the
 * body hung there in a fall (the liveness fuzzer, seeds 203125, 306388). */
static bool lift_blocked(const gait_mover *m, gait_vec3 from, gait_vec3 p, double h, gait_hit *hit) {
    if (!(h > p.y + 1e-9) || !sweep_geometry(m, p, v3(0, h - p.y, 0), hit)) return false;
    if (!hit->start_solid) return true;
    double end = landmark_depth(m, v3(p.x, h, p.z));
    return end > LIFT_TOUCH && end > landmark_depth(m, from);
}

/* The fly: rise is SLIDE_NO_RISE for a body the air carries (a fall, a jump, a dash's glide), 0
 * for one a kit steers (gait__mover_fly_steered). */
static void fly(const gait_mover *m_in, gait_vec3 *feet_io, gait_vec3 delta, gait_vec3 vel,
                gait_mover_cache *near, gait_move_result *r, unsigned rise) {
    result_clear(r);
    gait_mover tmp;
    const gait_mover *m = mover_for_move(m_in, &tmp, near, *feet_io, delta, NEAR_SKIN);
    /* resting on terrain too steep to stand on, the body slides down it: the face is a plane the
     * slide keeps, so a wall met on the way down sends the body along the crease they make.
     * Without it the wall alone turned the move under the terrain's surface, and the lift back
     * out met the wall (leaning over the face) and was refused: the body hung in the crease. */
    gait_vec3 seed[1];
    int nseed = 0;
    double hs;
    gait_vec3 tns;
    bool start_t = terrain_at(m, feet_io->x, feet_io->z, &hs, &tns);
    if (start_t && feet_io->y <= hs + SUPPORT_MARGIN && !is_floor(m, tns) && tns.y > 0)
        seed[nseed++] = tns;
    unsigned flags = rise | (vel.y <= 0 ? SLIDE_SUPPORT : 0u);
    gait__slide_info si;
    gait_vec3 p = slide_on(m, *feet_io, delta, flags, NULL, seed, nseed, &si);
    gait_vec3 v = clip_planes(vel, si.planes, si.np);
    gait_vec3 sn, tn;
    double h;
    bool has_t = terrain_at(m, p.x, p.z, &h, &tn);
    /* The heightfield's side: a body beyond its edge with its whole capsule below its surface
     * there (fallen off the world's edge, the head under the ground it would enter) is kept out,
     * as a wall keeps it, and goes on falling where it is. Lifted onto the surface instead, it
     * rose tens of metres in a step, and the push-out from what it then met sent it metres more
     * (found by the liveness fuzzer: a fall or glide in the void beyond the edge thrown up and
     * back again and again). A body less deep (one that slipped off the edge) is lifted onto it
     * as before. */
    if (!start_t && has_t && h - p.y > m->height) {
        p = slide(m, *feet_io, v3(0, delta.y, 0), flags, NULL, &si);
        v = clip_planes(v3(0, vel.y, 0), si.planes, si.np);
        has_t = terrain_at(m, p.x, p.z, &h, &tn);
    }
    r->touched = si.solid;
    /* the terrain just under the feet, too steep: one more face a trough may be made of */
    const gait_vec3 *tsteep = has_t && p.y <= h + SUPPORT_MARGIN && !is_floor(m, tn) ? &tn : NULL;
    if (vel.y <= 0 && (si.floor || ((si.steep || ((si.wall || si.ceiling) && si.hits > 0) ||
                                     (tsteep && si.hits > 0)) &&
                                    contact_support(m, p, tsteep, &sn)))) {
        r->grounded = true; /* on a floor, or in a trough its steep faces (and walls) make */
        r->ground_normal = si.floor ? si.floor_n : sn;
        r->ground_height = p.y;
        r->ground_landmark = si.floor_lm;
        v.y = 0;
    }
    gait_vec3 at = *feet_io, en;
    if (vel.y <= 0 && !r->grounded && !has_t && terrain_edge(m, &at, v3_sub(p, *feet_io), 0, &en)) {
        /* past the grid's edge, come down on its last cells' edge: where the walk stands (a
         * jump from there fell through it and off the world) */
        p = at;
        r->grounded = true;
        r->ground_normal = en;
        r->ground_height = p.y;
        v.y = 0;
    }
    if (si.ceiling && v.y > 0) v.y = 0;
    r->ceiling = si.ceiling;
    if (si.wall) {
        r->wall = true;
        r->wall_normal = si.wall_n;
        r->wall_landmark = si.wall_lm;
    }
    if (si.steep && !r->grounded) {
        r->steep = true;
        r->ground_normal = si.steep_n;
    } else if (si.body_under && !r->grounded) {
        /* on another character's head or shoulder: no ground, slid off as a steep face is (air
         * steering towards a standstill held a body 0.8 m up on a crouched one's head for good:
         * the liveness fuzzer, seed 303295) */
        r->steep = true;
        r->ground_normal = si.body_n;
    }
    if (has_t && p.y <= h) {
        gait_hit hit;
        /* the lift is asked of the landmarks whenever it reaches past what the near test
         * covered (the move and NEAR_SKIN around it): a body under the terrain's edge inside a
         * landmark can be lifted metres, and "no landmark near the move" says nothing of those
         * (with the cache dropped by a snapshot's restore, the other answer gave other bits) */
        bool no_room = (m == m_in || h - p.y > NEAR_SKIN) && lift_blocked(m_in, *feet_io, p, h, &hit);
        if (no_room && nseed > 0) {
            /* resting on the bank, the move along its plane needs (almost) no lift: a body in
             * the crease of a bank and a landmark's face leaning over it (a wedge's flank) was
             * lifted straight up into the face, refused, and hung there in a fall (the liveness
             * fuzzer, seed 204282) */
            gait__slide_info sb;
            gait_vec3 q = slide_on(m_in, *feet_io, clip_planes(delta, seed, nseed), flags, NULL,
                                   seed, nseed, &sb);
            double hq;
            gait_vec3 tq;
            bool on_t = terrain_at(m_in, q.x, q.z, &hq, &tq);
            bool blocked = on_t && lift_blocked(m_in, *feet_io, q, hq, &hit);
            /* ... and in a V of two steep cells (its crease running down away from the
             * heightfield's edge, a face leaning over it), the move along the bank's plane rose
             * onto the other cell and into the face: along the crease the two make, down it (the
             * liveness fuzzer, seed 797395364: held in the fall for good) */
            if (blocked && !is_floor(m_in, tq) && tq.y > 0 &&
                v3_dot(tq, seed[0]) < SUPPORT_SAME_FACE) {
                gait_vec3 crease[2] = {seed[0], tq};
                q = slide_on(m_in, *feet_io, clip_planes(delta, crease, 2), flags, NULL, crease, 2,
                             &sb);
                on_t = terrain_at(m_in, q.x, q.z, &hq, &tq);
                blocked = on_t && lift_blocked(m_in, *feet_io, q, hq, &hit);
            }
            if (on_t && !blocked) {
                no_room = false;
                p = q;
                h = hq > q.y ? hq : q.y;
                tn = tq;
                r->touched = r->touched || sb.solid;
            }
        }
        if (no_room) {
            /* lifted onto the terrain under a landmark with no room: stay where the step began
             * (over it, the terrain there) and drop the velocity that went in */
            gait_vec3 s0 = *feet_io;
            double h0;
            gait_vec3 tn0 = UP; /* off the terrain's edge terrain_at writes nothing: flat, as
                                   project_terrain takes it (left unset, a stack's garbage became
                                   the wall's normal: found by a snapshot's check) */
            if (terrain_at(m, s0.x, s0.z, &h0, &tn0) && s0.y < h0) s0.y = h0;
            p = s0;
            v = v3(0, v.y < 0 ? 0 : v.y, 0);
            r->touched = hit.start_solid;
            h = p.y;
            tn = tn0;
        }
        p.y = h;
        r->ground_height = h;
        /* walkable, walkable beside it, or a notch it makes with a landmark's face */
        bool walk = is_floor(m, tn) || terrain_support(m, p, tn, &sn) ||
                    (v.y <= 0 && contact_support(m, p, &tn, &sn));
        if (walk) {
            if (v.y <= 0) {
                r->grounded = true;
                r->ground_normal = is_floor(m, tn) ? tn : sn;
                v.y = 0;
            }
        } else {
            /* too steep to stand on: slide down it, never up it (as SLIDE_NO_RISE); it is also
             * a wall to catch */
            gait_vec3 pl[2] = {tn, v3_norm(horizontal(tn))};
            v = clip_planes(v, pl, v3_len2(pl[1]) > 0.5 ? 2 : 1);
            r->steep = true;
            r->ground_normal = tn;
            r->wall = true;
            r->wall_terrain = true;
            r->wall_normal = tn;
        }
    }
    r->vel = v;
    *feet_io = p;
}

void gait_mover_fly(const gait_mover *m, gait_vec3 *feet, gait_vec3 delta, gait_vec3 vel,
                    gait_mover_cache *near, gait_move_result *r) {
    fly(m, feet, delta, vel, near, r, SLIDE_NO_RISE);
}

void gait__mover_fly_steered(const gait_mover *m, gait_vec3 *feet, gait_vec3 delta, gait_vec3 vel,
                             gait_mover_cache *near, gait_move_result *r) {
    fly(m, feet, delta, vel, near, r, 0);
}

/* A crowd stepped one mover at a time through gait_mover_step reads each one's gather after
 * the others' have evicted it from the core's caches; its queries then read the triangle records
 * one after another as their candidates come up, each a miss. When more than this many mover
 * steps went through other gathers since this one's last, the step asks for the records it built
 * all at once first (hints only, the same bits; a world's crowd asks a character ahead instead,
 * step.c). */
#define MOVER_PREFETCH_GAP 256
void gait_mover_step(const gait_mover *m, gait_mover_state *st, gait_vec3 vel, double dt,
                      gait_move_result *result) {
    gait_move_result r;
    if (gait__gather_cold(m->gather, MOVER_PREFETCH_GAP)) gait__gather_prefetch(m->gather, 2);
    if (st->grounded && vel.y <= 0) {
        gait_mover_walk(m, &st->feet, vel, st->ground_normal, dt, &st->cache, &r);
    } else {
        gait_mover_fly(m, &st->feet, v3_scale(vel, dt), vel, &st->cache, &r);
    }
    push_info pi;
    memset(&pi, 0, sizeof pi);
    /* no cast met a landmark: the move cannot have entered one (a start inside one is met by
     * the next step's first cast, which then pushes out) */
    if (r.touched) st->feet = above_terrain(m, push_out(m, st->feet, &pi));
    if (pi.floor && r.vel.y <= 0 && !r.grounded) {
        r.grounded = true;
        r.ground_landmark = pi.floor_lm;
    }
    st->grounded = r.grounded;
    st->ground_normal = r.grounded ? r.ground_normal : UP;
    if (result) *result = r;
}

/* Merges what the push-out met into the move's result. */
static void merge_push(gait_move_result *r, const push_info *pi, bool may_land) {
    if (pi->floor && may_land && !r->grounded) {
        r->grounded = true;
        r->ground_landmark = pi->floor_lm;
    }
    if (pi->wall && !r->wall) {
        r->wall = true;
        r->wall_normal = pi->wall_n;
        r->wall_landmark = pi->wall_lm;
        r->wall_terrain = false;
    }
    if (pi->ceiling) {
        r->ceiling = true;
        if (r->vel.y > 0) r->vel.y = 0;
    }
}

bool gait_mover_settle(const gait_mover *m, gait_vec3 start, gait_vec3 *feet, bool push,
                       bool may_land, gait_move_result *r, gait_vec3 *carried) {
    push_info pi;
    memset(&pi, 0, sizeof pi);
    if (push) *feet = above_terrain(m, push_out(m, *feet, &pi));
    bool refused = end_step(m, start, feet, push, &pi);
    if (refused && carried) *carried = v3(0, 0, 0);
    merge_push(r, &pi, may_land);
    if (pi.ceiling && carried && carried->y > 0) carried->y = 0;
    return refused;
}

void gait_mover_place(const gait_mover *m, gait_vec3 *feet, gait_move_result *r) {
    gait_vec3 p = *feet;
    double h;
    gait_vec3 tn;
    bool has_t = terrain_at(m, p.x, p.z, &h, &tn);
    if (has_t && p.y < h) p.y = h;
    /* from a little above: feet exactly on a floor (an authored spawn point) touch it, and a
     * cast down from there starts inside it; up by up to a step first (away from the floor:
     * the cast is not held by it), then down onto it */
    gait_hit hit;
    double lift = m->step_height > PLACE_LIFT ? m->step_height : PLACE_LIFT;
    if (sweep(m, p, v3(0, lift, 0), &hit)) lift = hit.start_solid ? 0 : lift * hit.fraction;
    p.y += lift;
    double reach = has_t ? p.y - h : PLACE_PROBE;
    if (reach > 0 && sweep(m, p, v3(0, -reach, 0), &hit) && !hit.start_solid)
        p.y -= reach * hit.fraction;
    else if (has_t)
        p.y = h;
    else
        p.y -= lift;
    push_info pi;
    p = push_out(m, p, &pi);
    result_clear(r);
    *feet = find_ground(m, p, 0.01, true, false, r);
}

void gait__mover_leave_bodies(const gait_mover *m, gait_vec3 *feet) {
    if (!m->bodies) return;
    gait_contact_point cp[CONTACT_CAP];
    gait_capsule cap = capsule_at(m, *feet);
    gait_mover copy = *m;
    copy.filter.skip_landmarks = true; /* the other characters' contacts alone */
    int n = overlap(&copy, &cap, cp);
    if (n <= 0) return;
    gait_vec3 d = push_solve(m, *feet, cp, n);
    gait_hit hit; /* out by a cast, so no landmark is entered on the way */
    *feet = sweep_geometry(m, *feet, d, &hit) ? v3_mad(*feet, d, hit.start_solid ? 0 : hit.fraction)
                                              : v3_add(*feet, d);
}

double gait__mover_depth(const gait_mover *m, gait_vec3 feet) { return landmark_depth(m, feet); }

/* ---- the parts the body composes its own moves from (mover_internal.h) ------------------- */

gait_vec3 gait__mover_slide(const gait_mover *m, gait_vec3 feet, gait_vec3 delta, bool flatten,
                            bool support, gait__slide_info *si) {
    return slide(m, feet, delta, (flatten ? SLIDE_FLATTEN : 0u) | (support ? SLIDE_SUPPORT : 0u), NULL,
                 si);
}
bool gait__mover_sweep(const gait_mover *m, gait_vec3 feet, gait_vec3 d, gait_hit *hit) {
    return sweep_geometry(m, feet, d, hit);
}

bool gait__mover_terrain(const gait_mover *m, double x, double z, double *h, gait_vec3 *n) {
    return terrain_at(m, x, z, h, n);
}
gait_vec3 gait__mover_above_terrain(const gait_mover *m, gait_vec3 p) { return above_terrain(m, p); }
bool gait__mover_is_floor(const gait_mover *m, gait_vec3 n) { return is_floor(m, n); }
bool gait__mover_free(const gait_mover *m, gait_vec3 feet) { return landmark_depth(m, feet) <= REFUSE_DEPTH; }
bool gait__mover_is_ceiling(gait_vec3 n) { return is_ceiling(n); }
