#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(size_t size, void *user) {
    (void)user;
    return malloc(size);
}
static void default_free(void *ptr, size_t size, void *user) {
    (void)size; (void)user;
    free(ptr);
}
static void default_log(gait_log_level level, const char *message, void *user) {
    static const char *names[] = {"debug", "info", "warn", "error"};
    (void)user;
    if (level >= GAIT_LOG_WARN) fprintf(stderr, "gait %s: %s\n", names[level & 3], message);
}
static void default_assert(const char *expression, const char *file, int line, void *user) {
    (void)user;
    fprintf(stderr, "gait: assertion failed: %s (%s:%d)\n", expression, file, line);
    abort();
}

gait_hooks gait_default_hooks(void) {
    gait_hooks h = {default_alloc, default_free, default_log, default_assert, NULL};
    return h;
}

void gait__hooks_resolve(gait_hooks *hooks) {
    gait_hooks d = gait_default_hooks();
    /* Allocator members come as a pair: half a custom allocator would free through the wrong one. */
    if (!hooks->alloc || !hooks->free) { hooks->alloc = d.alloc; hooks->free = d.free; }
    if (!hooks->log) hooks->log = d.log;
    if (!hooks->assert_fail) hooks->assert_fail = d.assert_fail;
}

void *gait__alloc(const gait_hooks *hooks, size_t size) {
    if (size == 0) size = 1;
    void *p = hooks->alloc(size, hooks->user);
    if (p) memset(p, 0, size);
    return p;
}

void *gait__alloc_raw(const gait_hooks *hooks, size_t size) {
    return hooks->alloc(size == 0 ? 1 : size, hooks->user);
}

void gait__free(const gait_hooks *hooks, void *ptr, size_t size) {
    if (ptr) hooks->free(ptr, size == 0 ? 1 : size, hooks->user);
}

void gait__logf(const gait_hooks *hooks, gait_log_level level, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    hooks->log(level, buf, hooks->user);
}

gait_status gait__fail(char *buf, size_t cap, gait_status status, const char *fmt, ...) {
    if (buf && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, cap, fmt, ap);
        va_end(ap);
    }
    return status;
}

const char *gait_status_string(gait_status status) {
    switch (status) {
    case GAIT_OK: return "ok";
    case GAIT_ERR_INVALID_ARGUMENT: return "invalid argument";
    case GAIT_ERR_STALE_ID: return "stale or unknown id";
    case GAIT_ERR_OUT_OF_MEMORY: return "out of memory";
    case GAIT_ERR_CAPACITY: return "capacity exceeded";
    case GAIT_ERR_IO: return "i/o error";
    case GAIT_ERR_FORMAT: return "malformed data";
    case GAIT_ERR_SCRIPT: return "script error";
    case GAIT_ERR_LOCKED: return "locked while the world steps";
    default: return "unknown status";
    }
}

const char *gait__name_of(const char *const *names, int count, int value) {
    return value >= 0 && value < count ? names[value] : NULL;
}

int gait__name_index(const char *const *names, int count, const char *name) {
    if (!name) return -1;
    for (int i = 0; i < count; i++)
        if (strcmp(name, names[i]) == 0) return i;
    return -1;
}
