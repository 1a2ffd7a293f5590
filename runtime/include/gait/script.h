/* gait — the Lua layer: kits, gate hooks, tuning as data, hot reload (docs/behaviour.md,
 * "Hooks and kits").
 *
 * One gait_script owns one LuaJIT state. It may be given the host's world (the sandbox, an
 * engine); Lua scripts may also make worlds of their own (gait.world.new, the headless runner).
 * Every call into Lua runs under lua_pcall with a traceback handler: a script error never
 * crashes the host, it is logged through the hooks and kept as the script's last error
 * ("file:line: message" and a traceback) for the host to show, and the last good scripts keep
 * running.
 *
 * A frame, as a host drives it with scripts:
 *     gait_character_set_input(world, id, &input);  // presses held until a step reads them
 *     gait_script_poll(script, NULL);               // at most once a frame: hot reload
 *     gait_script_frame(script, frame_seconds, &n); // kits read the held presses, then the steps
 *
 * Scripts are untrusted by default. Kits, gate and traversal hooks, tuning files, world files
 * and what run_file / run_string run are sandboxed: no io, os (but clock, time, date), ffi,
 * debug, jit, no bytecode, files only under the script root (or beside a file the host named),
 * the gait tables and the string metatable read-only. Each call runs under an instruction budget
 * it cannot catch or lift (instruction_budget for kits, hooks and tuning; file_budget for world
 * files and run_file chunks), with its JIT off, and every byte it makes Lua or C allocate counts
 * against memory_limit. A host runs its own code with the whole library only by asking:
 * gait_script_run_trusted_file. lua/README.md "Sandbox" lists the rules. */
#ifndef GAIT_SCRIPT_H
#define GAIT_SCRIPT_H

#include "gait/motion.h"
#include "gait/world.h"

#ifdef __cplusplus
extern "C" {
#endif

struct lua_State;
typedef struct gait_script gait_script;

typedef struct gait_script_def {
    gait_hooks hooks;            /* zeroed = defaults; Lua allocates through them too */
    gait_world *world;           /* the host's world (may be NULL); gait.world.host() in Lua.
                                    Must outlive the script. */
    const char *root;            /* directory holding lua/ and scripts/; NULL = "." */
    int64_t instruction_budget;  /* VM instructions one kit, gate-hook, traversal-hook or tuning
                                    call may run before it is stopped (work done in C for it is
                                    charged in the same units); default 10 000 000 (tens of ms
                                    of interpreted Lua); range 1000 .. 2 000 000 000 */
    int64_t file_budget;         /* the same for one call of a world file, a run_file chunk or
                                    a scenario's callback: default 250 000 000 (about a second
                                    of interpreted Lua); 0 means the default; range
                                    1000 .. 1e12 */
    size_t memory_limit;         /* bytes the Lua state and the worlds and geometry scripts make
                                    may hold; an allocation past it fails and the call raises
                                    "not enough memory" (a runaway script cannot take the host's
                                    memory). Default 256 MiB; 0 means the default; at least
                                    1 MiB (Lua boots in ~0.3 MiB). Needs the hooks allocator
                                    (gait_script_uses_hooks_allocator). */
} gait_script_def;

gait_script_def gait_default_script_def(void);
/* NULL when the def is invalid, memory runs out or lua/ cannot be booted (reason logged). */
gait_script *gait_script_create(const gait_script_def *def);
/* Clears the gate hooks this script set on the host world's characters, closes Lua. */
void gait_script_destroy(gait_script *script);

/* The last script error: "file:line: message" then a traceback; "" when none. */
const char *gait_script_last_error(const gait_script *script);
/* Script errors since create (a host or runner may exit non-zero when it is not 0). */
unsigned gait_script_error_count(const gait_script *script);
void gait_script_clear_error(gait_script *script);

/* Runs a Lua file (or a chunk of source text) in the script's state, sandboxed and under the
 * file budget; results are dropped. The file's directory may be read by what it requires. */
gait_status gait_script_run_file(gait_script *script, const char *path);
gait_status gait_script_run_string(gait_script *script, const char *code, const char *chunk_name);
/* The host's own code: the whole Lua library (io, os, debug ...), no budget, JIT on. Never for
 * content a user downloads or a replay names. Text only (bytecode is refused). */
gait_status gait_script_run_trusted_file(gait_script *script, const char *path);
gait_status gait_script_run_trusted_string(gait_script *script, const char *code,
                                           const char *chunk_name);
/* Runs a data file (a world file) sandboxed under the file budget, with `arg` (may be NULL) as
 * its `...`, and pushes a plain copy of what it returned onto gait_script_lua(script)'s stack:
 * tables copied without metatables, strings, numbers and booleans kept, functions and userdata
 * left out, so the host may read it with lua_getfield and no script code runs. GAIT_OK and one
 * value pushed; otherwise an error status (last_error names file:line) and nothing pushed. */
gait_status gait_script_read_data_file(gait_script *script, const char *path, const char *arg);

/* Loads scripts/tuning/{locomotion,stamina,gates}.lua under `dir` (NULL: <root>/scripts/tuning),
 * validates every number against the schema and applies them to the host world and every world
 * the scripts made. On any error nothing is applied. The files are watched for hot reload. */
gait_status gait_script_load_tuning(gait_script *script, const char *dir);

/* Gives a host-world character a kit: a name ("sword" = <root>/scripts/kits/sword.lua) or a
 * path ending in ".lua"; NULL removes it. The kit file is watched for hot reload. */
gait_status gait_script_set_kit(gait_script *script, gait_character_id id, const char *kit);

/* Calls every kit of the host world's characters with the held presses (before the step spends
 * them). A kit that fails is reported and skipped until its file is reloaded; the others run.
 * Returns GAIT_ERR_SCRIPT when one failed. */
gait_status gait_script_before_step(gait_script *script, double frame_seconds);
/* gait_script_before_step then gait_world_update on the host world. */
gait_status gait_script_frame(gait_script *script, double frame_seconds, int *out_steps);

/* Checks the watched files' modification times (call at most once a frame). A changed file is
 * re-run and validated; only a valid result replaces the old one, an error keeps the last good
 * version (last_error says why, with file:line). *out_reloaded (may be NULL) receives how many
 * files were reloaded successfully. GAIT_ERR_SCRIPT when a reload failed. */
gait_status gait_script_poll(gait_script *script, int *out_reloaded);

/* A world file's gadget (a table {kind = "updraft" | "wind" | "grapple" | "bounce", position |
 * points, radius, height, speed, button, name, on_ground}, lua/README.md) at `index` of any Lua
 * state, read and checked: the format gait.worldfile and hosts reading world files share. The
 * def's name points into `name`; *on_ground says its heights are above the terrain (the caller
 * adds the terrain's height). GAIT_ERR_FORMAT with the reason in err (an unknown key, a wrong
 * type, a number out of range). Values are checked again by gait_world_add_gadget. */
gait_status gait_script_gadget_from_table(struct lua_State *L, int index, gait_gadget_def *out,
                                          char name[32], bool *on_ground, char *err, size_t cap);

/* The Lua state, for hosts that add bindings of their own. */
struct lua_State *gait_script_lua(gait_script *script);
/* For such bindings: the world a gait.world userdata at `index` names. Raises a Lua error (it
 * does not return) when the value is not a world or the world was destroyed. */
gait_world *gait_script_check_world(struct lua_State *L, int index);
/* For such bindings, when they read a file or build geometry for the calling script (the CLI's
 * world:load_level does both): whether the script may name this path (an untrusted one: under
 * the script root or beside a file the host named), false with the reason in err; ... */
bool gait_script_path_allowed(struct lua_State *L, const char *path, char *err, size_t err_cap);
/* ... and the work and memory it made C spend: `units` VM instructions charged to the running
 * call's budget (raises the budget error when it runs out), `bytes` now held by the world at
 * stack index world_index, counted against memory_limit unless the script made that world (its
 * allocator counts those already). False, nothing charged, when the memory limit cannot take
 * them: the binding undoes its work and reports it. */
bool gait_script_charge(struct lua_State *L, int world_index, int64_t units, size_t bytes,
                        char *err, size_t err_cap);
/* True when Lua allocates through the hooks (false: LuaJIT refused a custom allocator and the
 * script fell back to luaL_newstate's own). */
bool gait_script_uses_hooks_allocator(const gait_script *script);

#ifdef __cplusplus
}
#endif
#endif
