/* Internal: the moving landmarks' state as a world's snapshot keeps it (collide_motion.c). The
 * geometry and the paths are the host's (not saved); where each moving landmark is, was and is
 * going is simulation state. */
#ifndef GAIT_COLLIDE_MOTION_H
#define GAIT_COLLIDE_MOTION_H

#include <stddef.h>

#include "gait/collide.h"

/* Bytes the state takes now. */
size_t gait__motion_state_size(const gait_collider *collider);
/* Writes it (gait__motion_state_size bytes). */
void gait__motion_state_save(const gait_collider *collider, unsigned char *out);
/* Whether `size` bytes at `in` are a state this collider can take: the same moving landmarks
 * (slots and generations), the same kind of motion and path, every number finite and in range.
 * Changes nothing. */
bool gait__motion_state_check(const gait_collider *collider, const unsigned char *in, size_t size);
/* Folds each moving landmark's state into a hash, in slot order: fold(h, bytes, n) per value (no
 * padding bytes). Returns h unchanged when none moves. */
uint64_t gait__motion_state_hash(const gait_collider *collider, uint64_t h,
                                 uint64_t (*fold)(uint64_t h, const void *bytes, size_t n));
/* Takes a state gait__motion_state_check accepted. */
void gait__motion_state_restore(gait_collider *collider, const unsigned char *in);

#endif
