/* Internal: the lock a world puts on its collider while it steps. */
#ifndef GAIT_COLLIDE_LOCK_H
#define GAIT_COLLIDE_LOCK_H

#include <stdbool.h>

#include "gait/collide.h"

/* The owning world's step holds the collider still: while locked, every call that changes what
 * a query sees (terrain, water, landmarks added, removed, moved or set moving, advance) is
 * refused with GAIT_ERR_LOCKED and changes nothing. */
void gait__collider_lock(gait_collider *c, bool locked);
/* The refusal: the collider's last error names `what`; returns GAIT_ERR_LOCKED. */
gait_status gait__collider_locked(gait_collider *c, const char *what);

#endif
