/* Level import for the hosts (not the core library): reads a mesh file through assimp (OBJ,
 * glTF, FBX, ...) and adds every mesh instance of its node tree as a landmark.
 *
 * Importers of many formats have bugs no host can fix (a crafted OFF or ASE file segfaults
 * assimp 5.2, a two-line PLY header makes it loop forever), so the import runs in a child
 * process that hands the triangles back through a pipe, under a time limit (and a memory limit
 * outside sanitizer builds): a crash or a hang of the importer is an error naming the file,
 * never the host's. The child opens every file assimp asks for (the level, its mtllib, its
 * textures) as a regular file of capped size only: a FIFO or a device is refused at once. The
 * sandbox host can load levels through the same call. */
#ifndef GAIT_CLI_LEVEL_H
#define GAIT_CLI_LEVEL_H

#include <stdbool.h>
#include <stddef.h>

#include "gait/collide.h"

typedef struct gait_level_limits {
    double seconds;              /* wall time the import may take; default 60 s */
    size_t max_file_bytes;       /* each file the importer opens; default 256 MiB */
    size_t max_memory_bytes;     /* the importer's address space (not under sanitizers, whose
                                    shadow memory needs more); default 4 GiB */
    int max_triangles;           /* over every mesh; default 16 Mi */
} gait_level_limits;

gait_level_limits gait_level_default_limits(void);

/* A player start the file marks: a node with no mesh (an "empty") named like one
 * (gait_level_is_start_name), where its origin lands in world coordinates (the same transforms,
 * scale and up axis as the meshes) and the yaw its +z axis faces (rad; 0 facing +z). */
#define GAIT_LEVEL_NAME_MAX 64
typedef struct gait_level_start {
    char name[GAIT_LEVEL_NAME_MAX];
    gait_vec3 position;
    double yaw;
} gait_level_start;

/* Whether a node's name marks a player start: it holds "spawn", "player_start" or "playerstart",
 * or begins with "start" (any case). */
bool gait_level_is_start_name(const char *name);

/* Adds one landmark per mesh instance, in world coordinates: node transforms applied, then
 * `scale` (> 0; e.g. 0.01 for centimetre files), then the file's up axis turned to y
 * (up_axis 'y': as is; 'z': (x, y, z) -> (x, z, -y)). Returns the number of landmarks added
 * (their ids in out_ids[0 .. n), at most cap), or -1 with a message naming the file in err; on
 * failure nothing stays added. Meshes with no triangle (points, lines, all degenerate) are
 * skipped. gait_level_load uses the default limits. */
int gait_level_load(gait_collider *collider, const char *path, double scale, int up_axis,
                    gait_landmark_id *out_ids, int cap, char *err, size_t errcap);
int gait_level_load_limited(gait_collider *collider, const char *path, double scale, int up_axis,
                            gait_landmark_id *out_ids, int cap, const gait_level_limits *limits,
                            char *err, size_t errcap);

/* gait_level_load_limited that also reports the file's player starts: the first start_cap of
 * them into starts (in the file's node order), how many there are into *start_count (may be
 * NULL; 0 on failure). A start whose place is not finite is left out. */
int gait_level_load_starts(gait_collider *collider, const char *path, double scale, int up_axis,
                           gait_landmark_id *out_ids, int cap, const gait_level_limits *limits,
                           gait_level_start *starts, int start_cap, int *start_count, char *err,
                           size_t errcap);

#endif
