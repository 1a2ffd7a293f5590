/* Internal: the script struct and what the Lua layer's files share. The layer binds the public C
 * API only (runtime/include/gait/): it never sees the world's or the collider's structs.
 *
 * Files, one concern each:
 *   script.c            the state, protected calls, errors, watched files, the C API, `gait`
 *   script_budget.c     the instruction budget: the count hook, trips, charges for C work
 *   script_sandbox.c    untrusted code: safe library, environments, read-only views, loaders
 *   script_pattern.c    string.find / match / gmatch / gsub with a step count
 *   script_args.c       argument checks and the one way errors are reported
 *   script_input.c      button names, gait.input
 *   script_world.c      the gait.world type          script_character.c  the gait.character type
 *   script_landmark.c   the gait.landmark type       script_presses.c    the gait.presses type
 *   script_kit.c        kits: gait.kit, ch:set_kit, the per-frame kit calls
 *   script_motion.c     kits that move the body: ch:launch, ch:start_move ..., w:add_gadget
 *   script_tuning.c     tuning files, gait.tuning, gait.locomotion, gait.stamina, gait.clock
 *   script_present.c    camera.lua / anim.lua and ch:camera(), ch:anim() ...
 *   traverse_script.c   traversal.lua, ch:traverse_info(), gait.traverse
 *   script_image.c      gait.image (trusted scripts only) */
#ifndef GAIT_SCRIPT_INTERNAL_H
#define GAIT_SCRIPT_INTERNAL_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "gait/gait.h"
#include "gait/schema.h"
#include "gait/script.h"

#define GAIT__PATH_MAX 512
#define GAIT__WATCH_MAX 64
#define GAIT__GRANT_MAX 16        /* directories the host named files in (see gait__grant) */
#define GAIT__SOURCE_MAX ((size_t)16 << 20) /* bytes of one Lua source file: 16 MiB */

/* Registry keys (strings in the registry table, never C globals). */
#define GAIT__REG_SCRIPT   "gait.script"     /* light userdata: the gait_script */
#define GAIT__REG_KITDEFS  "gait.kitdefs"    /* name -> kit table (last good) */
#define GAIT__REG_WORLDS   "gait.worlds"     /* weak-keyed set of world userdata */
#define GAIT__REG_HOST     "gait.hostworld"  /* the host world's userdata */
#define GAIT__REG_HANDLER  "gait.traceback"  /* the traceback handler */
#define GAIT__REG_BOXES    "gait.boxes"      /* weak-valued: light userdata box -> world userdata */

#define GAIT__MT_WORLD     "gait.world"
#define GAIT__MT_CHARACTER "gait.character"
#define GAIT__MT_LANDMARK  "gait.landmark"
#define GAIT__MT_PRESSES   "gait.presses"
#define GAIT__MT_CLOCK     "gait.clock"
#define GAIT__MT_POOL      "gait.stamina_pool"

enum { GAIT__WATCH_TUNING = 0, GAIT__WATCH_KIT = 1 };

/* A kit entry (world env .kits[i]) is an array: integer slots are read with rawgeti, far
 * cheaper per call than string keys. */
enum {
    GAIT__KIT_CH = 1,      /* the character's userdata */
    GAIT__KIT_KIT,         /* kit name (string: a file's kit) or the kit table */
    GAIT__KIT_STATE,       /* per-character table; survives a reload of the kit file */
    GAIT__KIT_PRESSES,     /* the presses userdata handed to on_presses */
    GAIT__KIT_FAILED,      /* true: the kit raised; skipped until its file is reloaded */
    GAIT__KIT_DEAD,        /* true: removed (character gone, kit replaced) */
    GAIT__KIT_UNTRUSTED    /* true: on_presses is untrusted code (decided once, at set_kit) */
};

typedef struct gait__watch {
    char path[GAIT__PATH_MAX];
    char name[64];              /* kit name (kits) */
    int kind;
    long long mtime_ns, size, ino; /* a change in any of them is a change of the file */
} gait__watch;

/* traversal.lua (traverse_script.c), camera.lua and anim.lua (script_present.c) are optional in
 * a directory: a set without one keeps the built-in numbers for it. */
enum { GAIT__TUNE_LOCOMOTION = 0, GAIT__TUNE_STAMINA, GAIT__TUNE_GATES, GAIT__TUNE_TRAVERSAL,
       GAIT__TUNE_CAMERA, GAIT__TUNE_ANIM, GAIT__TUNE_FILES };

/* The numbers the tuning files gave, validated; applied to every world. */
typedef struct gait__tuning {
    bool loaded;
    gait_locomotion provisional;
    gait_locomotion measured[GAIT_BODY_TYPE_COUNT];
    bool has[GAIT_BODY_TYPE_COUNT];
    double refill_rate, refill_delay;  /* per s, s: applied to every live pool and new ones */
    bool has_traversal;                /* traversal.lua gave the action table below */
    gait_traverse_table traversal;
    bool has_camera, has_anim;         /* camera.lua, anim.lua gave these (script_present.c) */
    gait_camera_def camera;
    gait_anim_def anim;
    char clips[GAIT_ANIM_STATE_COUNT][GAIT_CLIP_NAME_MAX]; /* "" = not mapped */
    char paths[GAIT__TUNE_FILES][GAIT__PATH_MAX]; /* "" = that file is not part of the set */
} gait__tuning;

/* The budget of the call running now (script_budget.c). A budgeted call from the host starts a
 * new count; one nested in another (a kit stepping a world whose gate hook runs) gets what is
 * left of the outer one and hands its count back to it. */
typedef struct gait__budget {
    int64_t limit;              /* VM instructions (and charges) this call may use */
    int64_t used;
    int depth;                  /* budgeted calls running (0: no budget) */
    int held;                   /* gait__budget_hold: keep the hook across a batch of calls */
    int hook_count;             /* the count hook as set now: 0 none, 1 tripped, else the tick */
    bool tripped;               /* ran out: every instruction raises until the host has it */
} gait__budget;

struct gait_script {
    gait_hooks hooks;
    gait_hooks world_hooks;     /* for the worlds scripts make: counted in memory_used */
    lua_State *L;
    bool custom_allocator;
    gait_world *host_world;
    char root[GAIT__PATH_MAX];
    char root_real[GAIT__PATH_MAX]; /* root resolved (realpath): untrusted paths stay under it */
    int64_t instruction_budget; /* per kit, gate-hook, traversal-hook or tuning call */
    int64_t file_budget;        /* per call of a world file, scenario or run_file chunk */
    size_t memory_limit;        /* bytes Lua and the C memory it asked for may hold */
    size_t memory_used;         /* bytes held now (Lua's allocator + script-made worlds) */
    gait__budget budget;
    char trip_message[GAIT__PATH_MAX + 256]; /* the trip's "file:line: ..." (raised again as it is) */
    int ref_handler;            /* registry refs (integer slots: cheaper than string keys per */
    int ref_envs;               /* call): the traceback handler, the set of untrusted envs */
    int untrusted_depth;        /* calls into untrusted functions running */
    int hook_depth;             /* gate / traversal hooks running (their worlds are locked) */
    char granted[GAIT__GRANT_MAX][GAIT__PATH_MAX]; /* resolved directories (see gait__grant) */
    int granted_count;
    const char *call_kit;       /* what == NULL in gait__script_pcall: the kit being called */
    int call_character;         /* ... and its character's index1 (names it only on error) */
    const gait_world *call_world; /* while a kit's on_presses runs: its world (the motion verbs
                                     move only the kit's own character); NULL otherwise */
    gait__tuning tuning;
    gait__watch watch[GAIT__WATCH_MAX];
    int watch_count;
    unsigned error_count;
    char error[4096];
};

/* A world as Lua holds it. Its environment table holds: self (the userdata, so a character's
 * userdata sharing the table keeps the world alive), kits (array of entries), gate_hooks
 * (index1 -> function), targets (array of {x, y, z}). */
typedef struct gait__wbox {
    gait_world *world;          /* NULL once destroyed */
    gait_script *script;
    bool owned;                 /* made by Lua: destroyed with the userdata */
    size_t charged;             /* bytes of geometry scripts added to a world they do not own,
                                   counted in the script's memory_used */
    size_t terrain_charged;     /* the part of it the terrain holds (a new terrain replaces it) */
} gait__wbox;

typedef struct gait__chud {
    gait__wbox *box;
    gait_character_id id;
} gait__chud;

typedef struct gait__presses {
    gait__wbox *box;
    gait_character_id id;
    double dt;                  /* s of the frame the kit is called for */
} gait__presses;

/* ---- script.c ------------------------------------------------------------------------------ */
gait_script *gait__script_from(lua_State *L);
/* How a protected call runs: budget none, the instruction budget (kits, hooks, tuning) or the
 * file budget (world files, scenarios). */
typedef enum { GAIT__BUDGET_NONE = 0, GAIT__BUDGET_CALL, GAIT__BUDGET_FILE } gait__budget_kind;
/* Calls the function below nargs arguments under pcall + traceback (+ a budget). On success the
 * results replace it; on error the message ("file:line: ..." and a traceback) is left on the
 * stack in the function's place (one value) and the status returned; nothing is logged. */
gait_status gait__pcall(gait_script *s, int nargs, int nresults, gait__budget_kind budget);
/* The same when the caller knows whether the function is untrusted (-1: find out). */
gait_status gait__pcall_as(gait_script *s, int nargs, int nresults, gait__budget_kind budget,
                           int untrusted);
/* gait__pcall, and on error the message goes to last_error (counted, logged) prefixed by `what`
 * (NULL: "kit <call_kit> (character #<call_character>)", formatted only then) and the stack is
 * left as it was below the function. */
gait_status gait__script_pcall(gait_script *s, int nargs, int nresults, const char *what,
                               gait__budget_kind budget);
gait_status gait__script_pcall_as(gait_script *s, int nargs, int nresults, const char *what,
                                  gait__budget_kind budget, int untrusted);
/* A hook's call from inside the step (gate, traversal, a moving action's fn): gait__script_pcall
 * under the instruction budget with the script's worlds locked (hook_depth) while it runs. */
gait_status gait__hook_pcall(gait_script *s, int nargs, int nresults, const char *what);
/* The start of a gate or traversal hook: room for `room` values on the script's stack and its
 * world's userdata pushed. Returns that userdata's index, 0 when either fails; *top: the top
 * before, which the hook restores. */
int gait__hook_enter(gait__wbox *b, gait_world *world, int room, int *top);
/* A hook function given as argument 2 (or nil, which removes the hook): checked, wrapped when
 * the caller is untrusted, and run with the JIT off as every hook is. */
void gait__check_hook_arg(lua_State *L, gait_script *s);
void gait__script_error(gait_script *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void gait__script_logf(gait_script *s, gait_log_level level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void gait__script_watch(gait_script *s, const char *path, int kind, const char *name);
void *gait__hooks_alloc(const gait_hooks *h, size_t size); /* zeroed */
void gait__hooks_free(const gait_hooks *h, void *p, size_t size);

/* ---- script_budget.c ---------------------------------------------------------------------- */
/* Keeps the count hook set across a batch of budgeted calls (lua_sethook rewrites LuaJIT's
 * dispatch table: too dear per call). Pair with gait__budget_release. */
void gait__budget_hold(gait_script *s);
void gait__budget_release(gait_script *s);
/* Enters / leaves a budgeted call (gait__pcall does this); `saved` keeps the outer state. */
void gait__budget_enter(gait_script *s, int64_t limit, gait__budget *saved);
void gait__budget_leave(gait_script *s, const gait__budget *saved);
/* Charges work done in C for the running call (a step, a terrain, a long string), in VM
 * instruction units; raises the budget error when it runs out. No-op with no budget. */
void gait__budget_charge(lua_State *L, gait_script *s, int64_t units);
/* Raises the trip again if the budget ran out (after a caught error: pcall, resume). */
void gait__budget_check(lua_State *L, gait_script *s);

/* ---- script_sandbox.c --------------------------------------------------------------------- */
/* Builds the safe library and read-only views (once, at boot, after the gait module). */
void gait__sandbox_open(lua_State *L, gait_script *s);
/* Loads a Lua source file as untrusted code: a regular file, text only, in a fresh sandboxed
 * environment whose home is the file's directory, with the JIT off for it. Pushes the chunk,
 * or returns an error status with the message in last_error (counted) and pushes nothing.
 * When the caller is trusted the file's directory is granted (see gait__grant). */
gait_status gait__sandbox_loadfile(gait_script *s, const char *path);
/* The same for source text (chunk_name as luaL_loadbuffer takes it; home: the script root). */
gait_status gait__sandbox_loadstring(gait_script *s, const char *code, size_t len,
                                     const char *chunk_name);
/* Loads a trusted file (the host's own code): full library, a regular file, text only. */
gait_status gait__trusted_loadfile(gait_script *s, const char *path, bool jit_off);
/* True when the code calling now is untrusted: an untrusted call is running, or an untrusted
 * function is on the Lua stack. */
bool gait__untrusted(lua_State *L, gait_script *s);
/* Raises "<what> is for trusted scripts (the host's own): ..." when the caller is untrusted. */
void gait__require_trusted(lua_State *L, const char *what);
/* Whether an untrusted caller may name this path: it must resolve under the script root or a
 * granted directory. Trusted callers may name any path. False with "why" in err. */
bool gait__path_allowed(lua_State *L, gait_script *s, const char *path, char *err, size_t cap);
/* The host named a file: its directory may be read by the untrusted code it runs. */
void gait__grant(gait_script *s, const char *path);
/* Replaces the value at idx with a plain copy: tables copied (shared ones once) without
 * metatables, strings, numbers and booleans kept, anything else dropped. Raw access only: no
 * metamethod of the value runs. Raises when it nests deeper than 100. */
void gait__plain_copy(lua_State *L, int idx);
/* Whether the function at idx is untrusted (its environment is a sandbox's). */
bool gait__function_untrusted(lua_State *L, int idx);
/* Registers a table as read-only for scripts: pushes its proxy. */
void gait__freeze(lua_State *L, int idx, const char *name);
int gait__open_sandbox(lua_State *L); /* the trusted-only gait.sandbox module */
/* Wraps the function at idx in an untrusted trampoline (in place) unless it already is
 * untrusted Lua: a C function a script installs as a hook or kit still runs as the script. */
void gait__sandbox_wrap(lua_State *L, int idx);

/* ---- script_pattern.c --------------------------------------------------------------------- */
/* Replaces string.find, match, gmatch and gsub in the string table at idx with versions that
 * count their steps against the budget (an unbounded backtracking pattern is stopped). */
void gait__pattern_register(lua_State *L, int idx);

/* ---- script_args.c: argument checks; how every binding reports an error --------------------- */
/* The rule (lua/README.md "Errors"): misuse (a wrong type, NaN, an unknown key, a value out of
 * range, a stale id, a call not allowed now) raises a Lua error naming the caller's file:line
 * and the valid values; an expected failure (something the caller cannot know beforehand: a
 * file that does not load, a full pool, stamina that cannot pay, memory) returns nil, message;
 * a query that finds nothing returns nil. */
int gait__lua_fail(lua_State *L, const char *fmt, ...); /* pushes nil, message: returns 2 */
int gait__check_enum(lua_State *L, int arg, const char *const *names, int count, const char *what);
/* a name at idx (any stack slot, e.g. a table field) -> its index, or an error naming `what` */
int gait__enum_at(lua_State *L, int idx, const char *const *names, int count, const char *what);
gait_vec3 gait__check_vec3(lua_State *L, int idx, const char *what); /* {x, y, z} or {x =, ...} */
void gait__push_vec3(lua_State *L, gait_vec3 v);
/* t[key] = v on the table at the top of the stack (it stays there): how every binding fills the
 * tables it returns. */
void gait__set_number(lua_State *L, const char *key, double v);
void gait__set_integer(lua_State *L, const char *key, lua_Integer v);
void gait__set_bool(lua_State *L, const char *key, bool v);
void gait__set_string(lua_State *L, const char *key, const char *v); /* NULL sets nil */
void gait__set_vec3(lua_State *L, const char *key, gait_vec3 v);
void gait__set_function(lua_State *L, const char *key, lua_CFunction fn);
/* A struct's fields copied into the table at the top under their C names: a list macro
 * `#define FIELDS(X) X(number, yaw) X(vec3, eye) ...` expanded as FIELDS(GAIT__SET_FIELD) where
 * `from` points at the struct (kinds: number, integer, bool, string, vec3). */
#define GAIT__SET_FIELD(kind, name) gait__set_##kind(L, #name, from->name);
int gait__push_xyz(lua_State *L, gait_vec3 v);   /* three results */
double gait__check_finite(lua_State *L, int arg);
/* t[key] as a finite number, def when absent; raises naming what.key otherwise. */
double gait__field_number(lua_State *L, int t, const char *key, double def, const char *what);
/* Raises when the table at t has a key not in keys (a typo must not pass silently). */
void gait__check_keys(lua_State *L, int t, const char *const *keys, int count, const char *what);
void gait__push_name_list(lua_State *L, const char *const *names, int count);
int gait__check_body_type(lua_State *L, int arg);
/* Raises when the world steps now (the caller is inside one of its hooks). */
void gait__check_unlocked(lua_State *L, const gait_world *w, const char *what);
/* A method taking an options table at argument 2: the world not mid-step (gait__check_unlocked,
 * `call` naming the method), argument 2 a table, no key in it outside keys (`what` naming the
 * table in the error). */
void gait__check_options(lua_State *L, const gait_world *w, const char *call,
                         const char *const *keys, int count, const char *what);
/* Raises when any hook of any world runs now (for calls that touch every world). */
void gait__check_no_hook(lua_State *L, gait_script *s, const char *what);

/* ---- script_input.c ----------------------------------------------------------------------- */
extern const char *const gait__button_names[GAIT_BUTTON_COUNT];
uint32_t gait__check_buttons(lua_State *L, int idx, const char *what); /* table -> bits */
void gait__push_buttons(lua_State *L, uint32_t bits);                   /* bits -> {names} */
int gait__open_input(lua_State *L);

/* ---- script_world.c ----------------------------------------------------------------------- */
int gait__open_world(lua_State *L);       /* pushes the gait.world module */
void gait__push_world(lua_State *L, gait_script *s, gait_world *world, bool owned);
gait__wbox *gait__check_world(lua_State *L, int idx); /* raises when destroyed */
/* For a hook's trampoline: pushes what it takes to find the world userdata of box b and returns
 * its stack index, or 0 when b has none or no longer holds `world` (the caller restores the top). */
int gait__push_box_world(lua_State *L, gait__wbox *b, const gait_world *world);
/* Charges bytes of geometry added to a world the script does not own (see gait__wbox.charged);
 * raises the memory error when they pass the limit. */
void gait__charge_memory(lua_State *L, gait__wbox *b, size_t bytes);
void gait__uncharge_memory(gait__wbox *b, size_t bytes);

/* ---- script_character.c ------------------------------------------------------------------- */
int gait__open_character(lua_State *L);   /* pushes the gait.character module */
void gait__push_character(lua_State *L, int world_idx, gait_character_id id);
gait__chud *gait__check_character(lua_State *L, int idx); /* raises when stale */
/* Clears every hook this script set on the world's characters (gate, traversal, move), leaving a
 * host's own: when the script is destroyed. */
void gait__clear_hooks(gait_script *s, gait_world *world);
/* The C side of each Lua hook (gate here, move in script_motion.c, traversal in
 * traverse_script.c): how a script knows its own hooks from a host's. */
gait_state gait__gate_trampoline(gait_world *world, gait_character_id id, gait_state from,
                                 gait_state proposed, void *user);
bool gait__move_trampoline(gait_world *world, gait_character_id id, double t, gait_vec3 *velocity,
                           void *user);
gait_traverse_kind gait__traverse_trampoline(gait_world *world, gait_character_id id,
                                             const gait_traverse_scan *scan,
                                             gait_traverse_kind proposed, void *user);
/* Adds methods to a class's method table (its metatable exists by now). */
void gait__add_methods(lua_State *L, const char *class_name, const luaL_Reg *methods);
/* metatable `name` with __index = a fresh methods table; leaves the methods table pushed */
void gait__new_class(lua_State *L, const char *name, const luaL_Reg *methods);

/* ---- script_landmark.c -------------------------------------------------------------------- */
void gait__landmark_register(lua_State *L);  /* the class; w:add_landmark etc. */

/* ---- script_presses.c --------------------------------------------------------------------- */
void gait__presses_register(lua_State *L);
void gait__push_presses(lua_State *L, gait__wbox *box, gait_character_id id);

/* ---- script_kit.c ------------------------------------------------------------------------- */
int gait__open_kit(lua_State *L);
/* Kit path for a name or path; false when it does not fit. */
bool gait__kit_path(gait_script *s, const char *kit, char *out, size_t cap, char *name,
                    size_t name_cap);
/* Loads (or reloads) a kit file into the kit definitions (untrusted code). */
gait_status gait__kit_load(gait_script *s, const char *path, const char *name);
gait_status gait__run_kits(gait_script *s, int world_idx, double dt);
int gait__character_set_kit(lua_State *L);    /* ch:set_kit(...) */
int gait__character_kit(lua_State *L);        /* ch:kit() */
void gait__kit_forget(lua_State *L, int ch_idx); /* the character's kit entry is dead */

/* ---- script_motion.c ---------------------------------------------------------------------- */
/* ch:launch, ch:start_move, ..., w:add_gadget (after the classes exist). */
void gait__motion_register(lua_State *L);
/* A kit given (or taken) starts fresh: the character's modes and cooldowns are cleared (they
 * are a kit's state, kept in the character so snapshots carry them). */
void gait__motion_kit_fresh(gait_world *world, gait_character_id id);

/* ---- script_tuning.c ---------------------------------------------------------------------- */
int gait__open_tuning(lua_State *L);
int gait__open_locomotion(lua_State *L);
int gait__open_stamina(lua_State *L);
int gait__open_clock(lua_State *L);
gait_status gait__tuning_load(gait_script *s, const char *const paths[GAIT__TUNE_FILES]);
/* The tuning set of a directory (NULL: <root>/scripts/tuning): every file's path, with the
 * optional ones that are not there left NULL. False when a path is too long. */
bool gait__tuning_dir_paths(const gait_script *s, const char *dir,
                            char buf[GAIT__TUNE_FILES][GAIT__PATH_MAX],
                            const char *paths[GAIT__TUNE_FILES]);
/* Applies the current tuning (if loaded) to one world / to every world. */
void gait__tuning_apply_world(gait_script *s, gait_world *w);
void gait__tuning_apply_all(gait_script *s);
/* Reads a table at idx over *base by the schema (every key known, numeric, finite, in range);
 * on error pushes nothing and writes "key: reason (allowed ...)" to err. */
bool gait__locomotion_from_table(lua_State *L, int idx, gait_locomotion *out, char *err,
                                 size_t cap);
void gait__push_locomotion(lua_State *L, const gait_locomotion *n);

/* A number field of a tuning struct, for the readers of camera.lua, anim.lua and traversal.lua:
 * a row of the struct's schema (gait/schema.h): its key, where it lands, its range and unit. */
typedef gait_schema_field gait__num_field;
/* Reads the number at the top of the stack into *out (a double) per f, or writes "path: prefix
 * name: why; allowed [min, max] unit" to err and returns false. */
bool gait__read_number(lua_State *L, const gait__num_field *f, const char *path,
                       const char *prefix, double *out, char *err, size_t cap);

/* ---- script_present.c --------------------------------------------------------------------- */
bool gait__camera_from_table(lua_State *L, int idx, const char *path, gait_camera_def *out,
                             char *err, size_t cap);
bool gait__anim_from_table(lua_State *L, int idx, const char *path, gait_anim_def *out,
                           char clips[GAIT_ANIM_STATE_COUNT][GAIT_CLIP_NAME_MAX], char *err,
                           size_t cap);
/* The tuning's camera, anim settings and clip map onto one character (spawn, reload). */
void gait__present_apply_character(gait_script *s, gait_world *w, gait_character_id id);
void gait__present_register(lua_State *L); /* ch:camera(), ch:anim(), ... */

/* ---- traverse_script.c -------------------------------------------------------------------- */
int gait__open_traverse(lua_State *L);  /* gait.traverse; adds ch:traverse_info() and friends */
/* Reads traversal.lua's table at idx (defaults for what it leaves out); false with "path: key:
 * reason (allowed ...)" in err. */
bool gait__traversal_from_table(lua_State *L, int idx, const char *path, gait_traverse_table *out,
                                char *err, size_t cap);

/* ---- script_image.c ----------------------------------------------------------------------- */
int gait__open_image(lua_State *L);

#endif
