/* gait — shared types: vectors, ids, status codes, host hooks.
 *
 * Conventions for the whole public API:
 *   - units: metres (m), seconds (s), radians (rad), metres per second (m/s); y is up;
 *   - world coordinates are doubles so a body 50 km from the origin still moves in
 *     sub-millimetre steps (the host subtracts a floating origin before it draws in float);
 *   - objects are small value ids (index + generation, all-zero is null), never pointers;
 *   - every function that can fail returns a gait_status and changes nothing on failure;
 *     a human-readable message for the last failure is kept by the object that failed.
 */
#ifndef GAIT_TYPES_H
#define GAIT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest |coordinate| (m) of a body's position and |angle| (rad) of a facing or camera yaw
 * the API takes: gait_character_create, _place, _face and _set_camera_yaw refuse beyond it, and
 * so does a snapshot's restore. A million km: any two such positions are a finite distance
 * apart, and so is any speed one step could make of them. */
#define GAIT_WORLD_LIMIT 1e9

/* A point or direction in world space (m). */
typedef struct gait_vec3 {
    double x, y, z;
} gait_vec3;

/* Result of any call that can fail. GAIT_OK is zero. */
typedef enum gait_status {
    GAIT_OK = 0,
    GAIT_ERR_INVALID_ARGUMENT, /* NaN/Inf, negative size, NULL, degenerate data */
    GAIT_ERR_STALE_ID,         /* id is null, out of range, or its object was destroyed */
    GAIT_ERR_OUT_OF_MEMORY,    /* the allocator hook returned NULL */
    GAIT_ERR_CAPACITY,         /* a pool sized at create is full */
    GAIT_ERR_IO,               /* a file could not be read or written */
    GAIT_ERR_FORMAT,           /* a file or buffer is malformed */
    GAIT_ERR_SCRIPT,           /* a Lua script failed (message has file:line) */
    GAIT_ERR_LOCKED,           /* not now: the world is stepping (the call came from a hook) */
    GAIT_STATUS_COUNT
} gait_status;

/* "ok", "invalid argument", ... never NULL. */
const char *gait_status_string(gait_status status);

/* A character in a world. index1 is the slot index plus one (0 means null); generation
 * changes each time the slot is reused, so an id kept after destroy is refused. */
typedef struct gait_character_id {
    int32_t index1;
    uint32_t generation;
} gait_character_id;

/* A landmark (static triangle mesh) in a collision world; same scheme as characters. */
typedef struct gait_landmark_id {
    int32_t index1;
    uint32_t generation;
} gait_landmark_id;

#define GAIT_NULL_ID_INIT {0, 0}

typedef enum gait_log_level {
    GAIT_LOG_DEBUG = 0,
    GAIT_LOG_INFO,
    GAIT_LOG_WARN,
    GAIT_LOG_ERROR
} gait_log_level;

/* Host hooks: memory, logging and assertion failures. Every object that allocates takes a
 * copy of these at create. A zeroed struct (or any NULL member) means the default: malloc/
 * free, log to stderr at WARN and above, assert prints and aborts.
 *
 * The allocator sees the size on free, so a counting or arena allocator needs no header.
 * Memory returned must be aligned for any C type (16 bytes on x86_64). */
typedef struct gait_hooks {
    void *(*alloc)(size_t size, void *user);
    void (*free)(void *ptr, size_t size, void *user);
    void (*log)(gait_log_level level, const char *message, void *user);
    void (*assert_fail)(const char *expression, const char *file, int line, void *user);
    void *user; /* passed back to every hook */
} gait_hooks;

/* The hooks above with every member filled with the default implementation. */
gait_hooks gait_default_hooks(void);

#ifdef __cplusplus
}
#endif
#endif
