/* The layout tables of the collide layer's structs a character keeps (collide_layout.h). */
#include "collide/collide_layout.h"

#include <math.h>

#include "gait/collide.h"

/* An id is only compared with the collider's, never used to index: any generation, an index up
 * to the largest pool (gait_collider_def.max_landmarks, 1..1<<20); 0 is the null id. */
static const gait__lfield landmark_id_rows[] = {
    GAIT__LINT(gait_landmark_id, index1, 0, 1 << 20),
    GAIT__LUINT(gait_landmark_id, generation, 0, 4294967295.0),
};
GAIT__LTABLE(gait__landmark_id_layout, gait_landmark_id, landmark_id_rows, NULL, NULL);

static const gait__lfield filter_rows[] = {
    GAIT__LSTRUCT(gait_filter, ignore, gait__landmark_id_layout),
    GAIT__LBOOL(gait_filter, ignore_region_only),
    GAIT__LVEC3(gait_filter, region_min, -GAIT__LFINITE, GAIT__LFINITE, "m"),
    GAIT__LVEC3(gait_filter, region_max, -GAIT__LFINITE, GAIT__LFINITE, "m"),
    GAIT__LBOOL(gait_filter, skip_terrain),
    GAIT__LBOOL(gait_filter, skip_landmarks),
    /* rad; 0 = the collider's; else within gait_collider_def.walkable_slope's range */
    GAIT__LREAL(gait_filter, walkable_slope, 0, M_PI / 2, "rad"),
};
GAIT__LTABLE(gait__filter_layout, gait_filter, filter_rows, NULL, NULL);
