/* Internal: host hooks wrappers, logging with formatting, asserts. */
#ifndef GAIT_CORE_H
#define GAIT_CORE_H

#include <stdarg.h>
#include <string.h>
#include "gait/schema.h"
#include "gait/types.h"

/* A small helper of the queries' hot path, inlined wherever it is called. Left to the compiler,
 * a helper called from two or three places (a kernel's inside test, a hit's offer, a query's
 * frame and setup) stays a call, and the queries spent 3-7 % of a mesh step on the calls and
 * the registers around them (scripts/bench_callgrind.sh; the same bits either way). */
#if defined(__GNUC__)
#define GAIT__HOT static inline __attribute__((always_inline))
#else
#define GAIT__HOT static inline
#endif

/* Fill NULL members of *hooks with the defaults. */
void gait__hooks_resolve(gait_hooks *hooks);

void *gait__alloc(const gait_hooks *hooks, size_t size);   /* zeroed; NULL on failure */
/* Not zeroed: for scratch whose user writes before it reads (a gather's arrays), so a large
 * block's pages are not all touched at once. NULL on failure. */
void *gait__alloc_raw(const gait_hooks *hooks, size_t size);
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

/* An enum's names: names[value], or NULL out of range; the value of `name`, or -1. */
const char *gait__name_of(const char *const *names, int count, int value);
int gait__name_index(const char *const *names, int count, const char *name);

/* A module's schema table (gait/schema.h) and its public getter, from an array of fields. */
#define GAIT__SCHEMA_TABLE(getter, name, type, fields)                                     \
    static const gait_schema getter##_table = {name, #type, fields,                       \
                                               (int)(sizeof fields / sizeof fields[0])};  \
    const gait_schema *getter(void) { return &getter##_table; }
/* `type fn(void)`: a struct of `type` zeroed, then every number of the schema's table at its
 * default. */
#define GAIT__SCHEMA_DEFAULTS(fn, type, getter)          \
    type fn(void) {                                     \
        type d;                                         \
        memset(&d, 0, sizeof d);                        \
        gait_schema_defaults(&getter##_table, &d);      \
        return d;                                       \
    }

#define GAIT_ASSERT(hooks, cond) \
    do { if (!(cond)) (hooks)->assert_fail(#cond, __FILE__, __LINE__, (hooks)->user); } while (0)

#endif
