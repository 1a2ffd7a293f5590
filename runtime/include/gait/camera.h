/* gait — the follow camera (docs/behaviour.md, "Camera") and the floating origin helper.
 *
 * Yaw, pitch (clamped) and zoom (the arm's length, clamped) turn once a frame from look input.
 * The camera follows the blended body smoothly; a sphere cast along the arm from the body's
 * axis to the eye keeps it out of walls and terrain: it pulls in at once when blocked and eases
 * back out when clear, so it never ends inside geometry. The water's surface limits the arm the
 * same way: the eye stays probe_radius above the surface of the water it stands over (a swimmer
 * looking up gets a shorter arm, not a view from under the water), unless the body's axis is
 * itself that low. Plain data out, no GL. */
#ifndef GAIT_CAMERA_H
#define GAIT_CAMERA_H

#include "gait/collide.h"
#include "gait/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gait_camera_def {
    double distance;          /* m, the arm's wanted length; default 4.5; in [min, max] */
    double min_distance;      /* m, default 1.0; > probe_radius */
    double max_distance;      /* m, default 12.0 */
    double pitch;             /* rad, + looks up; default -0.25 */
    double min_pitch;         /* rad, default -1.30 (looking down) */
    double max_pitch;         /* rad, default 1.0 (looking up) */
    double pivot_height;      /* m above the feet the arm starts from (the body's axis), default 1.5 */
    double probe_radius;      /* m, the sphere cast along the arm, default 0.2 */
    double follow_seconds;    /* s, time constant of the pivot's smoothing (0 = rigid), default 0.08 */
    double ease_out_seconds;  /* s to ease back out to full length once clear, default 0.4 */
} gait_camera_def;

typedef struct gait_camera {
    gait_camera_def def;
    double yaw;               /* rad: the camera looks along (sin yaw, 0, cos yaw) level */
    double pitch;             /* rad */
    double distance;          /* m wanted (zoom) */
    double arm;               /* m the arm reaches now (<= distance; shorter when blocked) */
    gait_vec3 pivot;          /* smoothed point on the body's axis (m) */
    gait_vec3 eye;            /* where the camera stands (m) */
    bool blocked;             /* the probe hit something this frame */
    bool has_pivot;           /* the pivot has been set (first follow snaps) */
} gait_camera;

gait_camera_def gait_default_camera_def(void);
/* The def's numbers: unit, range, default, source (gait/schema.h). */
const gait_schema *gait_camera_schema(void);
/* Validates the def (finite, ordered ranges); INVALID_ARGUMENT and nothing written otherwise. */
gait_status gait_camera_init(gait_camera *camera, const gait_camera_def *def);
/* Replaces the settings, keeping yaw and the current follow (for hot-reloaded tuning). */
gait_status gait_camera_set_def(gait_camera *camera, const gait_camera_def *def);
/* Once a frame: turn by the look deltas (rad, rad, m); pitch and zoom are clamped. */
void gait_camera_look(gait_camera *camera, double d_yaw, double d_pitch, double d_zoom);
/* Follow the body's blended feet position for a frame of dt seconds; probes the arm against
 * the collider (ignoring what `filter` says, may be NULL). */
void gait_camera_follow(gait_camera *camera, const gait_collider *collider, gait_vec3 feet,
                        double dt, const gait_filter *filter);
/* Stand level behind a body facing `yaw` at `feet`, at once (after a place). */
void gait_camera_behind(gait_camera *camera, const gait_collider *collider, gait_vec3 feet,
                        double yaw, const gait_filter *filter);
/* Unit vector from the eye towards the pivot. */
gait_vec3 gait_camera_forward(const gait_camera *camera);

/* Floating origin: a host draws in floats relative to `origin`; the origin jumps to the camera
 * (rounded to `cell` metres) whenever the camera strays more than `cell` from it, so float
 * positions stay small. The body and every query stay in world coordinates (doubles). */
typedef struct gait_floating_origin {
    gait_vec3 origin;         /* m, subtract from world positions before converting to float */
    double cell;              /* m, default 256 */
    uint64_t shifts;          /* how many times it moved */
} gait_floating_origin;

void gait_floating_origin_init(gait_floating_origin *fo, double cell);
/* After the camera moves: shift when it strayed; returns true when the origin moved. */
bool gait_floating_origin_update(gait_floating_origin *fo, gait_vec3 camera_eye);
/* world - origin, as floats for drawing. */
void gait_floating_origin_apply(const gait_floating_origin *fo, gait_vec3 world, float out[3]);

#ifdef __cplusplus
}
#endif
#endif
