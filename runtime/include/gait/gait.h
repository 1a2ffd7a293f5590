/* gait — a character-controller runtime for third-person action-adventure games.
 *
 * One include for the whole public C API:
 *   types.h       vectors, ids, status codes, host hooks (allocator, log, assert)
 *   input.h       the per-frame input struct and its buttons
 *   clock.h       the fixed-step clock (1/60 s, accumulator, cap, interpolation alpha)
 *   locomotion.h  states, a body type's numbers, the gates as a pure function
 *   stamina.h     the shared stamina pool
 *   collide.h     terrain, water, landmark BVHs and the capsule / sphere / ray queries
 *   camera.h      the follow camera and the floating origin
 *   anim.h        the animation-state signal (grounded debounce, clip map, crossfade)
 *   mover.h       the capsule mover: a velocity in, sweep / slide / step / push-out, a move out
 *   task.h        a host's task system (Box2D v3's shape) the world steps characters through
 *   world.h       characters, body types, the step
 *   motion.h      kits that move the body: launches, moving actions, modes, world gadgets
 *   traverse.h    vault / mantle / hurdle found in plain geometry, the debug draw
 *   crouch.h      the stand-up check
 *   script.h      the Lua layer: kits, gate hooks, tuning files, hot reload
 *   replay.h      replay files: record a world's inputs, save, load, play back bit-identically
 *   file.h        reading a path as a regular file only, its size capped (FIFOs never block)
 */
#ifndef GAIT_H
#define GAIT_H

#include "gait/types.h"
#include "gait/input.h"
#include "gait/clock.h"
#include "gait/locomotion.h"
#include "gait/stamina.h"
#include "gait/collide.h"
#include "gait/camera.h"
#include "gait/anim.h"
#include "gait/mover.h"
#include "gait/task.h"
#include "gait/world.h"
#include "gait/motion.h"
#include "gait/traverse.h"
#include "gait/crouch.h"
#include "gait/script.h"
#include "gait/replay.h"
#include "gait/file.h"

#define GAIT_VERSION_MAJOR 0
#define GAIT_VERSION_MINOR 1
#define GAIT_VERSION_PATCH 0

#endif
