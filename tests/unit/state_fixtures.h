/* Helpers of the forged-state tests: whether a world's state is all in range (its layout tables'
 * checks, core/layout.h), and a seeded generator. Header-only (static functions); the tests see
 * the library's internals. */
#ifndef GAIT_TEST_STATE_FIXTURES_H
#define GAIT_TEST_STATE_FIXTURES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "character/layouts.h"
#include "character/world_internal.h"

/* The world's record and every live character pass their tables' checks, and the world's own
 * snapshot restores; else false with the first failure in why. */
static inline bool world_in_range(gait_world *w, char *why, size_t cap) {
    char err[256];
    if (!gait__layout_check(&gait__world_layout, w, "", err, sizeof err)) {
        snprintf(why, cap, "world: %s", err);
        return false;
    }
    for (int i = 0; i < w->capacity; i++)
        if (w->characters[i].alive &&
            !gait__layout_check(&gait__character_layout, &w->characters[i], "", err, sizeof err)) {
            snprintf(why, cap, "character %d: %s", i + 1, err);
            return false;
        }
    size_t n = gait_world_snapshot_size(w);
    unsigned char *buf = malloc(n);
    gait_world_snapshot_save(w, buf, n, NULL);
    bool ok = gait_world_snapshot_restore(w, buf, n) == GAIT_OK;
    if (!ok) snprintf(why, cap, "its own snapshot: %s", gait_world_last_error(w));
    free(buf);
    return ok;
}

/* splitmix64 over *state: the same numbers every run. */
static inline uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
