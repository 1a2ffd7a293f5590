/* The headless runner's subcommands and what they share. Each subcommand lives in its own
 * cmd_<name>.c with `int gait_cli_<name>(int argc, char **argv)` (argv[0] is the subcommand's
 * name) and one line in main.c's table. */
#ifndef GAIT_CLI_CMD_H
#define GAIT_CLI_CMD_H

#include <stddef.h>

#include "gait/gait.h"
#include "gait/script.h"

int gait_cli_run(int argc, char **argv);
int gait_cli_test(int argc, char **argv);
int gait_cli_bench(int argc, char **argv); /* cmd_bench.c, when it is built */
int gait_cli_schema(int argc, char **argv);

/* The directory holding lua/ and scripts/: --root, else $GAIT_ROOT, else next to or above the
 * executable (build/gait -> .), else the current directory. Returns 0, or -1 with a message
 * printed. */
int gait_cli_find_root(const char *opt_root, char *out, size_t cap);
/* A script with no host world (scenarios make their own) whose errors go to stderr;
 * file_budget 0: the default. */
gait_script *gait_cli_script(const char *root, int64_t file_budget);
/* Adds the runner's host bindings (world:load_level) to a script made otherwise. */
void gait_cli_bind(gait_script *script);
/* Calls require(module)[fn](args...) with string/number args; returns the integer results
 * (up to 2) in out; 0 on success, -1 on a script error (printed with its traceback). */
int gait_cli_call(gait_script *script, const char *module, const char *fn, int nargs,
                  const char *const *args, int nresults, double *out);
/* "--name value" or "--name=value" at argv[*i]; advances *i past a separate value. */
const char *gait_cli_option(int argc, char **argv, int *i, const char *name);

#endif
