/* Level import for the hosts (not the core library): reads a mesh file through assimp (OBJ,
 * glTF, FBX, ...) and adds every mesh instance of its node tree as a landmark. */
#ifndef GAIT_CLI_LEVEL_H
#define GAIT_CLI_LEVEL_H

#include <stddef.h>

#include "gait/collide.h"

/* Adds one landmark per mesh instance, in world coordinates: node transforms applied, then
 * `scale` (> 0; e.g. 0.01 for centimetre files), then the file's up axis turned to y
 * (up_axis 'y': as is; 'z': (x, y, z) -> (x, z, -y)). Returns the number of landmarks added
 * (their ids in out_ids[0 .. n), at most cap), or -1 with a message in err; on failure nothing
 * stays added. Meshes with no triangle (points, lines, all degenerate) are skipped. */
int gait_level_load(gait_collider *collider, const char *path, double scale, int up_axis,
                    gait_landmark_id *out_ids, int cap, char *err, size_t errcap);

#endif
