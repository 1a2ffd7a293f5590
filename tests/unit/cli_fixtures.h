/* Helpers of the tests that run the built `gait` runner: where it is, and a command's output.
 * Header-only (static functions). */
#ifndef GAIT_TEST_CLI_FIXTURES_H
#define GAIT_TEST_CLI_FIXTURES_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The runner beside the test programs (build/tests/.. = build/gait) into gait (cap bytes); false,
 * with a line saying why, when it is not built or the tests do not run from the repository root
 * (they read tests/replays/). */
static inline bool cli_gait_path(char *gait, size_t cap) {
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(gait, cap, "%.1000s/../gait", exe);
    if (access(gait, X_OK) != 0 || access("tests/replays/scenario_kit_walk.lua", R_OK) != 0) {
        printf("  (skipped: run from the repository root with %s built)\n", gait);
        return false;
    }
    return true;
}

/* Runs cmd through the shell; its output (up to cap - 1 bytes) into out; pclose's status. */
static inline int cli_run_capture(const char *cmd, char *out, size_t cap) {
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    return pclose(p);
}

#endif
