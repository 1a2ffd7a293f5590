/* Internal: the layout tables (core/layout.h) of the collide layer's structs a character keeps
 * (a query's filter, a landmark id), defined in collide_layout.c. */
#ifndef GAIT_COLLIDE_LAYOUT_H
#define GAIT_COLLIDE_LAYOUT_H

#include "core/layout.h"

extern const gait__ltable gait__landmark_id_layout; /* gait_landmark_id */
extern const gait__ltable gait__filter_layout;      /* gait_filter */

#endif
