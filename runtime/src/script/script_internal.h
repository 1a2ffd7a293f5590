/* Internal: the script struct and what script.c, script_world.c and script_tuning.c share. */
#ifndef GAIT_SCRIPT_INTERNAL_H
#define GAIT_SCRIPT_INTERNAL_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "gait/schema.h"
#include "gait/script.h"
#include "character/world_internal.h"

#define GAIT__PATH_MAX 512
#define GAIT__WATCH_MAX 64

/* Registry keys (strings in the registry table, never C globals). */
#define GAIT__REG_SCRIPT   "gait.script"     /* light userdata: the gait_script */
#define GAIT__REG_KITDEFS  "gait.kitdefs"    /* name -> kit table (last good) */
#define GAIT__REG_WORLDS   "gait.worlds"     /* weak-keyed set of world userdata */
#define GAIT__REG_HOST     "gait.hostworld"  /* the host world's userdata */
#define GAIT__REG_HANDLER  "gait.traceback"  /* the traceback handler */
#define GAIT__REG_JITOFF   "gait.jitoff"     /* jit.off, or nil when there is no jit module */

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
    GAIT__KIT_DEAD         /* true: removed (character gone, kit replaced) */
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

struct gait_script {
    gait_hooks hooks;
    lua_State *L;
    bool custom_allocator;
    gait_world *host_world;
    char root[GAIT__PATH_MAX];
    int64_t instruction_budget;
    int64_t budget_used;        /* VM instructions of the current budgeted call, by ticks */
    size_t memory_limit;        /* bytes Lua may hold (the allocator refuses past it) */
    size_t memory_used;         /* bytes Lua holds now, counted by the allocator */
    const char *call_kit;       /* what == NULL in gait__script_pcall: the kit being called */
    int call_character;         /* ... and its character's index1 (names it only on error) */
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

/* script.c */
gait_script *gait__script_from(lua_State *L);
/* Calls the function below nargs arguments under pcall + traceback (+ the instruction budget
 * when `budget`). On error the message goes to last_error prefixed by `what` (NULL: "kit
 * <call_kit> (character #<call_character>)", formatted only then), the stack is left as it was
 * below the function and GAIT_ERR_SCRIPT is returned. */
gait_status gait__script_pcall(gait_script *s, int nargs, int nresults, const char *what,
                               bool budget);
/* Arms the budget hook for a batch of budgeted calls (each still gets the whole budget):
 * lua_sethook rewrites LuaJIT's dispatch table, too dear to do per call. Returns whether it
 * armed it (then disarm with the same value). */
bool gait__budget_arm(gait_script *s);
void gait__budget_disarm(gait_script *s, bool armed);
void gait__script_error(gait_script *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Loads a file as a function with the JIT off for it and every function it defines. */
gait_status gait__script_loadfile(gait_script *s, const char *path, bool jit_off);
void gait__script_watch(gait_script *s, const char *path, int kind, const char *name);
/* Kit path for a name or path; false when it does not fit. */
bool gait__kit_path(gait_script *s, const char *kit, char *out, size_t cap, char *name,
                    size_t name_cap);
/* Loads (or reloads) a kit file into the kit definitions. */
gait_status gait__kit_load(gait_script *s, const char *path, const char *name);

/* script_world.c */
int gait__open_world(lua_State *L);       /* pushes the gait.world module */
int gait__open_character(lua_State *L);   /* pushes the gait.character module */
int gait__open_input(lua_State *L);
void gait__push_world(lua_State *L, gait_script *s, gait_world *world, bool owned);
gait__wbox *gait__check_world(lua_State *L, int idx);
void gait__push_character(lua_State *L, int world_idx, gait_character_id id);
gait__chud *gait__check_character(lua_State *L, int idx); /* raises when stale */

/* A number field of a tuning struct, for the readers of camera.lua, anim.lua and traversal.lua:
 * a row of the struct's schema (gait/schema.h): its key, where it lands, its range and unit. */
typedef gait_schema_field gait__num_field;
/* Reads the number at the top of the stack into *out (a double) per f, or writes "path: prefix
 * name: why; allowed [min, max] unit" to err and returns false. */
bool gait__read_number(lua_State *L, const gait__num_field *f, const char *path,
                       const char *prefix, double *out, char *err, size_t cap);

/* script_present.c: camera.lua and anim.lua, and ch:camera() / ch:anim() / ch:set_clip() ... */
bool gait__camera_from_table(lua_State *L, int idx, const char *path, gait_camera_def *out,
                             char *err, size_t cap);
bool gait__anim_from_table(lua_State *L, int idx, const char *path, gait_anim_def *out,
                           char clips[GAIT_ANIM_STATE_COUNT][GAIT_CLIP_NAME_MAX], char *err,
                           size_t cap);
/* The tuning's camera, anim settings and clip map onto one character (spawn, reload). */
void gait__present_apply_character(gait_script *s, gait_world *w, gait_character_id id);
/* Adds the character methods (after the character class exists). */
void gait__present_register(lua_State *L);
/* For a hook's trampoline: pushes what it takes to find the world userdata of box b and returns
 * its stack index, or 0 when b has none or no longer holds `world` (the caller restores the top). */
int gait__push_box_world(lua_State *L, gait__wbox *b, const gait_world *world);
gait_status gait__run_kits(gait_script *s, int world_idx, double dt);
uint32_t gait__check_buttons(lua_State *L, int idx, const char *what); /* table -> bits */
void gait__push_buttons(lua_State *L, uint32_t bits);                   /* bits -> {names} */
/* Raises an error listing the valid names when s is not one of them. */
int gait__check_enum(lua_State *L, int arg, const char *const *names, int count, const char *what);
/* {x, y, z} or {x = , y = , z = } */
gait_vec3 gait__check_vec3(lua_State *L, int idx, const char *what);
void gait__push_vec3(lua_State *L, gait_vec3 v);
void gait__clear_gate_hooks(gait_script *s, gait_world *world);

/* script_tuning.c */
int gait__open_tuning(lua_State *L);
int gait__open_locomotion(lua_State *L);
int gait__open_stamina(lua_State *L);
int gait__open_clock(lua_State *L);
int gait__open_image(lua_State *L);
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

/* traverse_script.c */
int gait__open_traverse(lua_State *L);  /* gait.traverse; adds ch:traversal() and friends */
/* Reads traversal.lua's table at idx (defaults for what it leaves out); false with "path: key:
 * reason (allowed ...)" in err. */
bool gait__traversal_from_table(lua_State *L, int idx, const char *path, gait_traverse_table *out,
                                char *err, size_t cap);

#endif
