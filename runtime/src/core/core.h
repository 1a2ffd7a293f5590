/* Internal: host hooks wrappers, logging with formatting, asserts. */
#ifndef GAIT_CORE_H
#define GAIT_CORE_H

#include <stdarg.h>
#include "gait/types.h"

/* Fill NULL members of *hooks with the defaults. */
void gait__hooks_resolve(gait_hooks *hooks);

void *gait__alloc(const gait_hooks *hooks, size_t size);   /* zeroed; NULL on failure */
void gait__free(const gait_hooks *hooks, void *ptr, size_t size);
void gait__logf(const gait_hooks *hooks, gait_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Format into a fixed error buffer (never overflows) and return status (for one-line returns). */
gait_status gait__fail(char *buf, size_t cap, gait_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#define GAIT_ASSERT(hooks, cond) \
    do { if (!(cond)) (hooks)->assert_fail(#cond, __FILE__, __LINE__, (hooks)->user); } while (0)

#endif
