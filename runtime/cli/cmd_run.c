/* gait run FILE.lua [--steps N] [--fps F] [--trace OUT.csv] [--record OUT.replay] [--root DIR]
 *                   [--budget N] [--trusted]
 * Plays a Lua scenario headless; the frame loop itself is lua/gait/runner.lua. --record writes
 * every frame's inputs to a replay file (cmd_replay.c) that `gait replay` plays back.
 *
 * The scenario is untrusted content unless --trusted says it is the developer's own: it runs
 * sandboxed, its chunk and each of its callbacks under the file budget (--budget N VM
 * instructions, default gait_default_script_def's). --trusted gives it the whole Lua library
 * (io, os, debug) and no budget: for scenario files you wrote. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "gait/replay.h"

/* cmd_replay.c: the recording hooks around the run */
int gait_cli_record_begin(gait_script *s, gait_replay_recorder *rec);
int gait_cli_record_end(gait_script *s, gait_replay_recorder *rec, const char *path);

static int usage(void) {
    fprintf(stderr, "usage: gait run FILE.lua [--steps N] [--fps F] [--trace OUT.csv] "
                    "[--record OUT.replay] [--root DIR] [--budget N] [--trusted]\n");
    return 2;
}

static int positive_number(const char *s, double max) {
    char *end = NULL;
    double v = strtod(s, &end);
    return end && *end == 0 && v > 0 && v <= max;
}

int gait_cli_run(int argc, char **argv) {
    const char *file = NULL, *steps = NULL, *fps = NULL, *trace = NULL, *root = NULL;
    const char *record = NULL, *budget = NULL;
    bool trusted = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--trusted") == 0) trusted = true;
        else if ((v = gait_cli_option(argc, argv, &i, "--budget"))) budget = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--steps"))) steps = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--fps"))) fps = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--trace"))) trace = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--root"))) root = v;
        else if ((v = gait_cli_option(argc, argv, &i, "--record"))) record = v;
        else if (argv[i][0] == '-' && argv[i][1] == '-') return usage();
        else if (!file) file = argv[i];
        else return usage();
    }
    if (!file) return usage();
    if (steps && !positive_number(steps, 1e9)) {
        fprintf(stderr, "gait run: --steps must be a whole number > 0\n");
        return 2;
    }
    if (fps && !positive_number(fps, 100000)) {
        fprintf(stderr, "gait run: --fps must be a number in (0, 100000]\n");
        return 2;
    }
    if (budget && !positive_number(budget, 1e12)) {
        fprintf(stderr, "gait run: --budget must be a number of VM instructions in [1000, 1e12]\n");
        return 2;
    }
    char dir[4096];
    if (gait_cli_find_root(root, dir, sizeof dir) != 0) return 2;
    gait_script *s = gait_cli_script(dir, budget ? (int64_t)strtod(budget, NULL) : 0);
    if (!s) return 1;
    gait_replay_recorder *rec = NULL;
    if (record) {
        /* the replay names the scenario and the loop's steps and fps, so `gait replay` can
         * rebuild the same world and run the same frames */
        rec = gait_replay_recorder_create(NULL, file);
        if (!rec || gait_cli_record_begin(s, rec) != 0) {
            fprintf(stderr, "gait run: --record: could not start recording\n");
            gait_replay_recorder_destroy(rec);
            gait_script_destroy(s);
            return 1;
        }
        if (steps) gait_replay_recorder_set_meta(rec, "steps", steps);
        if (fps) gait_replay_recorder_set_meta(rec, "fps", fps);
    }
    const char *args[5] = {file, steps, fps, trace, trusted ? "1" : "0"};
    double result[1] = {0};
    int rc = gait_cli_call(s, "gait.runner", "run_cli", 5, args, 1, result);
    if (rec) {
        if (rc == 0 && gait_cli_record_end(s, rec, record) != 0) rc = -1;
        gait_replay_recorder_destroy(rec);
    }
    unsigned errors = gait_script_error_count(s);
    gait_script_destroy(s);
    if (rc != 0) return 1;
    if (errors) {
        fprintf(stderr, "gait run: %u script error(s) during the run (see above)\n", errors);
        return 1;
    }
    return (int)result[0];
}
