/* The follow camera (docs/behaviour.md, "Camera") and the floating origin. */
#include "gait/camera.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "core/core.h"
#include "core/vec.h"
#include "layouts.h"

/* Every default is provisional: chosen to frame a 1.7 m body the way the game's default camera
 * roughly does, not measured. */
#define PROV "provisional"
#define CF(n, lo, hi, def, unit, doc) \
    {#n, "", offsetof(gait_camera_def, n), lo, hi, false, def, unit, "camera.lua", PROV, doc}
static const gait_schema_field fields[] = {
    CF(distance, 0.1, 1000, 4.5, "m", "the arm's length at start (zoom), in [min, max]"),
    CF(min_distance, 0.1, 1000, 1.0, "m", "the closest zoom; above probe_radius"),
    CF(max_distance, 0.1, 1000, 12.0, "m", "the farthest zoom"),
    CF(pitch, -1.55, 1.55, -0.25, "rad", "at start, + looks up, in [min, max]"),
    CF(min_pitch, -1.55, 1.55, -1.30, "rad", "looking down at most"),
    CF(max_pitch, -1.55, 1.55, 1.0, "rad", "looking up at most"),
    CF(pivot_height, -10, 10, 1.5, "m", "above the feet the arm hangs from (the body's axis)"),
    CF(probe_radius, 0.01, 5, 0.2, "m", "the sphere cast along the arm"),
    CF(follow_seconds, 0, 10, 0.08, "s", "the pivot's smoothing time constant (0: rigid)"),
    CF(ease_out_seconds, 0, 10, 0.4, "s", "to ease back to full length once clear"),
};
#undef CF
GAIT__SCHEMA_TABLE(gait_camera_schema, "camera", gait_camera_def, fields)
GAIT__SCHEMA_DEFAULTS(gait_default_camera_def, gait_camera_def, gait_camera_schema)

/* The schema's ranges, then the order the ranges must keep. */
static bool def_valid(const gait_camera_def *d) {
    if (!d || gait_schema_check(&gait_camera_schema_table, d, NULL, 0) != GAIT_OK) return false;
    return d->min_distance > d->probe_radius && d->min_distance <= d->max_distance &&
           d->distance >= d->min_distance && d->distance <= d->max_distance &&
           d->min_pitch <= d->max_pitch && d->pitch >= d->min_pitch && d->pitch <= d->max_pitch;
}

gait_status gait_camera_init(gait_camera *c, const gait_camera_def *d) {
    if (!c || !def_valid(d)) return GAIT_ERR_INVALID_ARGUMENT;
    c->def = *d;
    c->yaw = 0;
    c->pitch = d->pitch;
    c->distance = d->distance;
    c->arm = d->distance;
    c->pivot = c->eye = v3(0, 0, 0);
    c->blocked = false;
    c->has_pivot = false;
    return GAIT_OK;
}

gait_status gait_camera_set_def(gait_camera *c, const gait_camera_def *d) {
    if (!c || !def_valid(d)) return GAIT_ERR_INVALID_ARGUMENT;
    c->def = *d;
    c->pitch = clampd(c->pitch, d->min_pitch, d->max_pitch);
    c->distance = clampd(c->distance, d->min_distance, d->max_distance);
    if (c->arm > c->distance) c->arm = c->distance;
    return GAIT_OK;
}

void gait_camera_look(gait_camera *c, double dy, double dp, double dz) {
    if (!c) return;
    if (isfinite(dy)) c->yaw = remainder(c->yaw + dy, 2 * M_PI);
    if (isfinite(dp)) c->pitch = clampd(c->pitch + dp, c->def.min_pitch, c->def.max_pitch);
    if (isfinite(dz)) c->distance = clampd(c->distance + dz, c->def.min_distance, c->def.max_distance);
}

gait_vec3 gait_camera_forward(const gait_camera *c) {
    if (!c) return v3(0, 0, 1); /* no camera: yaw 0, level */
    double cp = cos(c->pitch);
    return v3(sin(c->yaw) * cp, sin(c->pitch), cos(c->yaw) * cp);
}

/* Probe the arm from the body's axis point towards the wanted eye; returns the length free. */
static double probe(gait_camera *c, const gait_collider *col, gait_vec3 axis, gait_vec3 wanted,
                    const gait_filter *filter) {
    gait_vec3 delta = v3_sub(wanted, axis);
    double len = v3_len(delta);
    c->blocked = false;
    if (!col || len < 1e-9) return len;
    gait_hit hit;
    if (gait_collider_sphere_cast(col, axis, c->def.probe_radius, delta, filter, &hit)) {
        c->blocked = true;
        return hit.start_solid ? 0 : hit.distance;
    }
    return len;
}

/* The water surface is a floor for the eye (chosen over an under-water view: the runtime draws
 * nothing, and a host's view from just under a surface shows neither the body nor the world
 * above it). A swimmer floats with its feet the wading depth under the surface, its axis a few
 * decimetres above it; looking up swings the arm down behind and below the pivot, through the
 * surface. The arm is shortened along its own line, as a wall shortens it, so the view keeps its
 * direction and its centre on the body: the eye's centre stays the probe's radius above the
 * surface of the water it stands over. An axis already that low (a body under the surface) is
 * not held: there the view is under water on purpose. Returns the arm length (m) that keeps the
 * eye above the water, at most `len`. Two passes: the eye pulled in may stand over another
 * region (regions are boxes, each with its own surface). */
static double above_water(const gait_camera *c, const gait_collider *col, gait_vec3 axis,
                          gait_vec3 along, double full, double len) {
    if (!col || full < 1e-9 || along.y >= 0) return len; /* an arm going up stays above */
    double down = -along.y / full; /* metres the eye sinks per metre of arm */
    for (int pass = 0; pass < 2; pass++) {
        gait_vec3 eye = v3_mad(axis, along, len / full);
        double surface, depth;
        if (!gait_water_at(col, eye.x, eye.z, &surface, &depth)) break;
        double floor_y = surface + c->def.probe_radius;
        if (axis.y < floor_y || eye.y >= floor_y) break;
        len = (axis.y - floor_y) / down;
    }
    return len;
}

static void place_eye(gait_camera *c, const gait_collider *col, gait_vec3 axis, double dt,
                      bool snap, const gait_filter *filter) {
    gait_vec3 back = v3_neg(gait_camera_forward(c));
    /* the arm hangs from the smoothed pivot; the probe starts on the body's own axis, which
     * the capsule keeps clear of geometry, so the eye is always on a free path from the body */
    gait_vec3 wanted = v3_mad(c->pivot, back, c->distance);
    gait_vec3 along = v3_sub(wanted, axis);
    double full = v3_len(along);
    double free_len = probe(c, col, axis, wanted, filter);
    /* the water limits the arm as a wall does: pulled in at once, eased back out */
    free_len = above_water(c, col, axis, along, full, free_len);
    if (snap || c->def.ease_out_seconds <= 0) {
        c->arm = free_len;
    } else if (free_len < c->arm) {
        c->arm = free_len; /* blocked: pull in at once, never through the wall */
    } else {
        double rate = c->distance / c->def.ease_out_seconds; /* full length within the ease time */
        c->arm = fmin(free_len, c->arm + rate * dt);
    }
    if (c->arm > full) c->arm = full;
    c->eye = full > 1e-9 ? v3_mad(axis, along, c->arm / full) : axis;
}

void gait_camera_follow(gait_camera *c, const gait_collider *col, gait_vec3 feet, double dt,
                        const gait_filter *filter) {
    if (!c || !v3_finite(feet) || !isfinite(dt) || dt < 0) return;
    gait_vec3 axis = v3_add(feet, v3(0, c->def.pivot_height, 0));
    if (!c->has_pivot || c->def.follow_seconds <= 0) {
        c->pivot = axis;
        c->has_pivot = true;
    } else {
        double k = 1.0 - exp(-dt / c->def.follow_seconds);
        c->pivot = v3_lerp(c->pivot, axis, k);
    }
    place_eye(c, col, axis, dt, false, filter);
}

void gait_camera_behind(gait_camera *c, const gait_collider *col, gait_vec3 feet, double yaw,
                        const gait_filter *filter) {
    if (!c || !v3_finite(feet) || !isfinite(yaw)) return;
    c->yaw = remainder(yaw, 2 * M_PI);
    c->pitch = clampd(0.0, c->def.min_pitch, c->def.max_pitch); /* level behind the body */
    c->pivot = v3_add(feet, v3(0, c->def.pivot_height, 0));
    c->has_pivot = true;
    place_eye(c, col, c->pivot, 0, true, filter);
}

void gait_floating_origin_init(gait_floating_origin *fo, double cell) {
    if (!fo) return;
    fo->origin = v3(0, 0, 0);
    fo->cell = (isfinite(cell) && cell > 0) ? cell : 256.0;
    fo->shifts = 0;
}

bool gait_floating_origin_update(gait_floating_origin *fo, gait_vec3 eye) {
    if (!fo || !v3_finite(eye)) return false;
    gait_vec3 d = v3_sub(eye, fo->origin);
    if (fabs(d.x) <= fo->cell && fabs(d.y) <= fo->cell && fabs(d.z) <= fo->cell) return false;
    /* snap to a multiple of the cell: origins are exact doubles, so relative positions of two
     * points drawn with the same origin carry no rounding from the origin itself */
    fo->origin = v3(round(eye.x / fo->cell) * fo->cell, round(eye.y / fo->cell) * fo->cell,
                    round(eye.z / fo->cell) * fo->cell);
    fo->shifts++;
    return true;
}

void gait_floating_origin_apply(const gait_floating_origin *fo, gait_vec3 w, float out[3]) {
    if (!out) return;
    gait_vec3 o = fo ? fo->origin : v3(0, 0, 0);
    out[0] = (float)(w.x - o.x);
    out[1] = (float)(w.y - o.y);
    out[2] = (float)(w.z - o.z);
}

/* ---- layout (layouts.h) ------------------------------------------------------------------- */

/* The def: its schema's ranges, then the order gait_camera_init asks of them. */
static bool def_rules(const void *base, char *err, size_t cap) {
    if (def_valid(base)) return true;
    snprintf(err, cap, "the def's ranges are out of order (probe_radius < min_distance <= distance "
             "<= max_distance; min_pitch <= pitch <= max_pitch)");
    return false;
}
static GAIT__LTABLE_SCHEMA(camera_def_layout, gait_camera_def, gait_camera_schema, def_rules);

/* Pitch and zoom within the def's bounds, as look, set_def and behind keep them. */
static bool camera_rules(const void *base, char *err, size_t cap) {
    const gait_camera *c = base;
    if (c->pitch < c->def.min_pitch || c->pitch > c->def.max_pitch) {
        snprintf(err, cap, "pitch = %g is outside the def's [%g, %g] rad", c->pitch,
                 c->def.min_pitch, c->def.max_pitch);
        return false;
    }
    if (c->distance < c->def.min_distance || c->distance > c->def.max_distance) {
        snprintf(err, cap, "distance = %g is outside the def's [%g, %g] m", c->distance,
                 c->def.min_distance, c->def.max_distance);
        return false;
    }
    return true;
}

/* The pivot and the eye hang within a few km of a body's feet (pivot_height, max_distance). The arm may reach past the zoom while the pivot lags the body
 * (place_eye cuts it to the free length each frame): not negative, finite. */
static const gait__lfield camera_rows[] = {
    GAIT__LSTRUCT(gait_camera, def, camera_def_layout),
    GAIT__LREAL(gait_camera, yaw, -GAIT_WORLD_LIMIT, GAIT_WORLD_LIMIT, "rad"),
    GAIT__LREAL(gait_camera, pitch, -1.55, 1.55, "rad"),
    GAIT__LREAL(gait_camera, distance, 0.1, 1000, "m"),
    GAIT__LREAL(gait_camera, arm, 0, GAIT__LFINITE, "m"),
    GAIT__LVEC3(gait_camera, pivot, -GAIT__NEAR_LIMIT, GAIT__NEAR_LIMIT, "m"),
    GAIT__LVEC3(gait_camera, eye, -GAIT__NEAR_LIMIT, GAIT__NEAR_LIMIT, "m"),
    GAIT__LBOOL(gait_camera, blocked),
    GAIT__LBOOL(gait_camera, has_pivot),
};
GAIT__LTABLE(gait__camera_layout, gait_camera, camera_rows, NULL, camera_rules);
