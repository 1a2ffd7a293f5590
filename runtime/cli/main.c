/* gait — the headless runner: plays Lua scenarios with no window (tests, benchmarks, replays).
 *
 * Subcommands are a table: one line each, the code in runtime/cli/cmd_<name>.c. A subcommand
 * whose file is not built (its symbol is weak) says so instead of failing to link. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

#if defined(__GNUC__)
#define GAIT_CLI_WEAK __attribute__((weak))
#else
#define GAIT_CLI_WEAK
#endif

/* Optional subcommands: defined in their own files when those are built. */
int gait_cli_bench(int argc, char **argv) GAIT_CLI_WEAK;
int gait_cli_replay(int argc, char **argv) GAIT_CLI_WEAK;

typedef struct gait_cli_command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *usage;
    const char *summary;
} gait_cli_command;

static const gait_cli_command commands[] = {
    {"run", gait_cli_run, "run FILE.lua [--steps N] [--fps F] [--trace OUT.csv] [--trusted]",
     "play a Lua scenario headless; write a per-step CSV trace"},
    {"test", gait_cli_test, "test DIR_OR_FILE.lua...",
     "run Lua scenario tests; one line per test, then \"N passed, N failed\""},
    {"bench", gait_cli_bench, "bench [options]", "benchmarks (runtime/cli/cmd_bench.c)"},
    {"replay", gait_cli_replay, "replay FILE.replay", "play a replay headless; print the state hash"},
    {"schema", gait_cli_schema, "schema [--markdown]",
     "every tuning number: unit, range, default, source"},
};
#define COMMAND_COUNT ((int)(sizeof commands / sizeof commands[0]))

static void help(FILE *out) {
    fprintf(out,
"gait %d.%d.%d - a character-controller runtime (C + LuaJIT), headless runner\n"
"\n"
"usage: gait [--root DIR] COMMAND [ARGS]\n"
"       gait --help | --version\n"
"\n"
"commands:\n", GAIT_VERSION_MAJOR, GAIT_VERSION_MINOR, GAIT_VERSION_PATCH);
    for (int i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  gait %-52s %s%s\n", commands[i].usage, commands[i].summary,
                commands[i].fn ? "" : " [not built]");
    fprintf(out,
"\n"
"options (every command):\n"
"  --root DIR     the directory holding lua/ and scripts/ (default: $GAIT_ROOT, else found\n"
"                 next to or above the executable, else the current directory)\n"
"\n"
"gait run FILE.lua:\n"
"  The file builds a world and returns a scenario table (or nothing: it just runs):\n"
"    local gait = require(\"gait\")\n"
"    local w = gait.world.new()                      -- its own world, fixed steps of 1/60 s\n"
"    w:set_terrain{samples_x = 65, samples_z = 65, cell_size = 1, origin = {-32, 0, -32},\n"
"                  height = function(x, z) return 0 end}\n"
"    local ch = w:spawn{position = {0, 0, 0}, kit = \"sword\"}\n"
"    return {world = w, steps = 600, fps = 60,\n"
"            frame = function(frame, t, dt) ch:set_input{move_y = 1} end,  -- each frame\n"
"            finish = function() print(ch:position()) end}\n"
"  Each frame: frame() sets input, watched scripts hot-reload, kits read the held presses,\n"
"  then the whole fixed steps due run.\n"
"  --steps N      fixed steps to run (default: the scenario's steps, else 600)\n"
"  --fps F        frames per second the input is fed at (default: scenario's fps, else 60)\n"
"  --trace FILE   per-step CSV: step, time, character, position, velocity, yaw, state,\n"
"                 stamina, contact (grounded, rising, wall, wall_ahead, height, water), action\n"
"  --budget N     VM instructions the scenario's chunk and each callback may run (default\n"
"                 250000000, about a second)\n"
"  --trusted      the scenario is your own: the whole Lua library (io, os, debug), no budget.\n"
"                 Without it the scenario runs sandboxed like any content (lua/README.md).\n"
"  A script error prints its traceback and exits 1.\n"
"\n"
"gait test DIR_OR_FILES...:\n"
"  Runs every *.lua file (directories: their *.lua files, sorted), each in a fresh Lua state.\n"
"  A file registers cases with test(name, fn) and checks with expect_near(actual, wanted,\n"
"  tolerance, what), expect_eq(actual, wanted, what), expect_true(cond, what),\n"
"  expect_error(fn, pattern, what); a file with no cases is one test. Prints \"ok\" or\n"
"  \"FAIL\" per test with the values that failed, then one line \"N passed, N failed\";\n"
"  exits 1 when any failed.\n"
"\n"
"Lua API (require \"gait\"): gait.world (new, host; world:spawn, set_terrain, load_heightmap,\n"
"  add_water, set_sea_level, add_landmark, update, step, set_targets, locomotion, ...),\n"
"  gait.character (ch:state, position, velocity, stamina, face, place, set_body_type, spend,\n"
"  can_spend, start_action, set_input, held_presses, take_presses, set_kit, set_gate_hook,\n"
"  info, ...), gait.input, gait.locomotion (next{...}, is_edge, defaults), gait.stamina,\n"
"  gait.clock, gait.tuning (load, schema), gait.kit (load), gait.poll, gait.last_error.\n"
"  Enums are strings; a wrong one lists the valid names. See lua/README.md.\n"
"\n"
"environment: GAIT_ROOT (see --root)\n");
}

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        help(stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("gait %d.%d.%d\n", GAIT_VERSION_MAJOR, GAIT_VERSION_MINOR, GAIT_VERSION_PATCH);
        return 0;
    }
    /* a leading --root DIR applies to the command: pass it on after the command's name */
    int first = 1;
    const char *root = NULL;
    if (strcmp(argv[1], "--root") == 0 && argc > 3) {
        root = argv[2];
        first = 3;
    }
    for (int i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(argv[first], commands[i].name) != 0) continue;
        if (!commands[i].fn) {
            fprintf(stderr, "gait: '%s' is not built into this executable\n", commands[i].name);
            return 2;
        }
        if (!root) return commands[i].fn(argc - first, argv + first);
        /* rebuild argv as: name --root DIR rest... */
        char *args[256];
        int n = 0;
        args[n++] = argv[first];
        args[n++] = (char *)"--root";
        args[n++] = (char *)root;
        for (int k = first + 1; k < argc && n < 255; k++) args[n++] = argv[k];
        args[n] = NULL;
        return commands[i].fn(n, args);
    }
    fprintf(stderr, "gait: unknown command '%s' (gait --help lists them)\n", argv[first]);
    return 2;
}
