/* gait — traversal: vault, mantle and hurdle over obstacles found in plain geometry at run time,
 * with no markup (docs/behaviour.md, "Traversal"), and the debug view of what the scan found.
 *
 * Three layers:
 *   - the scan (gait_traverse_scan_run): a pure, allocation-free query over the collider with
 *     the body's own capsule — a sweep forward to the obstacle, the ledge from a trace along the
 *     face and one down from above, side probes that build a ledge *segment*, the grab point
 *     (the body's projection on that segment, kept a margin from its ends), the room check in
 *     two legs (straight up, then forward over the ledge), the depth by a reverse trace from
 *     2 m beyond the face, and the floor behind;
 *   - the action table (gait_traverse_table, filled from scripts/tuning/traversal.lua): the first
 *     row whose bands hold the scan's height, depth, speed and floor behind is the action;
 *   - the action (GAIT_STATE_TRAVERSE, run by the world): the body follows the action's path at
 *     the row's speeds, inside a corridor computed at the start, with the collision of the
 *     ledge's own triangles ignored only near the ledge and only until the feet rise above it.
 * Units: m, s, m/s, rad; y is up. */
#ifndef GAIT_TRAVERSE_H
#define GAIT_TRAVERSE_H

#include "gait/collide.h"
#include "gait/schema.h"
#include "gait/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gait_traverse_kind {
    GAIT_TRAVERSE_NONE = 0,
    GAIT_TRAVERSE_VAULT,       /* hands on a low, thin obstacle, over it and down behind */
    GAIT_TRAVERSE_HURDLE,      /* over a low, thin obstacle at speed, onto a floor behind */
    GAIT_TRAVERSE_MANTLE_LOW,  /* up onto an obstacle about waist high */
    GAIT_TRAVERSE_MANTLE_HIGH, /* up onto an obstacle above the head, hands first */
    GAIT_TRAVERSE_KIND_COUNT
} gait_traverse_kind;

/* "none", "vault", "hurdle", "mantle_low", "mantle_high"; NULL when out of range. */
const char *gait_traverse_kind_name(gait_traverse_kind kind);
int gait_traverse_kind_from_name(const char *name); /* -1 when unknown */

/* ---- the scan ------------------------------------------------------------------------------ */

/* Where the body is and what it is. */
typedef struct gait_traverse_query {
    gait_vec3 feet;             /* m, the capsule's bottom */
    gait_vec3 forward;          /* the way the body goes (horizontal; normalised by the scan) */
    double speed;               /* m/s horizontal: the forward reach grows with it */
    double radius, height;      /* m, the body's standing capsule */
    double step_height;         /* m: anything lower is walked over, not scanned */
    double max_height;          /* m above the feet: the highest ledge any action takes */
    double min_height;          /* m above the feet: the lowest ledge worth an action */
    double reach_min, reach_max;/* m the forward sweep reaches at rest / at reach_speed */
    double reach_speed;         /* m/s at which the reach is greatest */
    double grab_margin;         /* m kept between the grab point and the segment's ends */
    double max_ledge_slope;     /* rad: a ledge top steeper than this is no ledge */
    double max_drop;            /* m below the feet a floor behind may lie */
    gait_filter filter;         /* what the scan's queries skip (zeroed: nothing) */
} gait_traverse_query;

/* What the scan found. Every field is written; `reason` says why the scan stopped. */
typedef struct gait_traverse_scan {
    bool wall;                  /* the forward sweep met a surface too steep to walk */
    bool ledge;                 /* ... with a walkable top within the heights */
    bool room;                  /* the body fits: up, then forward over the ledge */
    bool thick;                 /* the reverse trace found no back face: thicker than 2 m */
    bool back_floor;            /* a floor lies behind (for a vault's landing) */
    bool ok;                    /* all of wall, ledge and room: an action may be chosen */
    char reason[32];            /* "ok", "no obstacle", "no ledge", "no room above", ... (a copy,
                                   not a pointer: a snapshot of the world holds no address) */
    gait_vec3 wall_point;       /* m, where the forward sweep touched */
    gait_vec3 wall_normal;      /* unit, horizontal (y = 0), out of the wall towards the body */
    double wall_distance;       /* m the capsule travelled before touching */
    gait_landmark_id landmark;  /* the obstacle's landmark (null: terrain) */
    gait_vec3 edge;             /* m, the ledge's front edge found by the two traces */
    gait_vec3 ledge_a, ledge_b; /* m, the synthesised ledge segment (a to the left of b) */
    gait_vec3 grab;             /* m, on the segment: the body's projection, a margin from its ends */
    gait_vec3 ledge_normal;     /* unit, of the ledge's top */
    double height;              /* m, ledge above the feet */
    double depth;               /* m, front edge to back face; 2 when thick (a lower bound) */
    double lean;                /* rad the front face leans back from vertical (0: vertical or
                                   overhanging); the action rises along it */
    double back_floor_height;   /* m, the floor behind relative to the feet (from its point) */
    double back_floor_distance; /* m past the front face where the floor behind was read */
    int sweeps, rays;           /* queries spent (the benchmark reads these) */
} gait_traverse_scan;

/* A query's numbers from the world's traversal table and a body's locomotion numbers. */
struct gait_traverse_table;
gait_traverse_query gait_traverse_default_query(const struct gait_traverse_table *table,
                                                const gait_locomotion *numbers);

/* Runs the scan. Pure: reads the collider, allocates nothing, keeps no state. `draw` (may be
 * NULL) receives every sweep, ray, the ledge segment and the grab point. Returns scan->ok;
 * false for invalid input too (NaN, radius <= 0, ...) with the reason "invalid query". */
bool gait_traverse_scan_run(const gait_collider *collider, const gait_traverse_query *query,
                            const gait_debug_draw *draw, gait_traverse_scan *scan);

/* ---- the action table ---------------------------------------------------------------------- */

#define GAIT_TRAVERSE_MAX_ACTIONS 16

/* One row: the action, the bands it takes (inclusive) and how fast its path goes. */
typedef struct gait_traverse_action_def {
    gait_traverse_kind kind;
    double min_height, max_height; /* m, ledge above the feet */
    double min_depth, max_depth;   /* m; a thick obstacle's depth counts as +infinity */
    double min_speed, max_speed;   /* m/s horizontal as the action would start */
    int back_floor;                /* 1: a floor behind is needed, 0: none may be, -1: either */
    double rise_speed;             /* m/s up the face (the path's own speed, no play rate) */
    double cross_speed;            /* m/s forward over the ledge */
} gait_traverse_action_def;

typedef struct gait_traverse_table {
    gait_traverse_action_def actions[GAIT_TRAVERSE_MAX_ACTIONS];
    int count;                     /* rows in use; the first that fits is taken */
    double cooldown;               /* s after an action before a chained one may start (0.15) */
    double reach_min, reach_max;   /* m forward reach at rest / at reach_speed */
    double reach_speed;            /* m/s */
    double grab_margin;            /* m from the ledge segment's ends */
    double max_ledge_slope;        /* rad */
    double max_drop;               /* m a floor behind may lie below the feet */
    double corridor_floor_margin;  /* m past the floor behind's read point the body may go */
    double corridor_flight_margin; /* m past the back face a vault into the air may fly */
    double corridor_mantle;        /* m past the front face a mantle onto something thick may go */
    double climb_over_height;      /* m: a climbing body mantles over a ledge this close above */
    double climb_mantle_split;     /* m: over the top of a climb, a ledge higher than this above
                                      the feet is a high mantle, else a low one (1.25) */
    double auto_crouch_stand_seconds; /* s an auto crouch whose low opening is never entered
                                      lasts before the body stands (1.0) */
} gait_traverse_table;

/* The defaults (their sources in gait_traverse_table_schema() and scripts/tuning/traversal.lua). */
gait_traverse_table gait_default_traverse_table(void);
/* The table's numbers and a row's numbers: unit, range, default, source (gait/schema.h). */
const gait_schema *gait_traverse_table_schema(void);
const gait_schema *gait_traverse_action_schema(void);
/* Every number finite and in range, rows well formed; on failure "field: reason" in err. */
gait_status gait_traverse_table_validate(const gait_traverse_table *table, char *err,
                                         size_t err_cap);
/* The first row that fits the scan at this speed, or GAIT_TRAVERSE_NONE (also when !scan->ok).
 * *row (may be NULL) receives its index, -1 for none. Pure. */
gait_traverse_kind gait_traverse_choose(const gait_traverse_table *table,
                                        const gait_traverse_scan *scan, double speed, int *row);

/* ---- in the world -------------------------------------------------------------------------- */

/* The table every character of the world traverses by (validated; nothing changes on failure). */
gait_status gait_world_set_traverse_table(gait_world *world, const gait_traverse_table *table);
const gait_traverse_table *gait_world_traverse_table(const gait_world *world);

/* An action hook: called when the table proposes an action (or none) for a scan that found a
 * ledge with room. Return `proposed` to allow, GAIT_TRAVERSE_NONE to veto (the jump then falls
 * back to a jump), or another kind to add or replace an action (its row's speeds are used; a
 * kind with no row moves at the first row's). NULL: no hook. */
typedef gait_traverse_kind (*gait_traverse_hook)(gait_world *world, gait_character_id id,
                                                 const gait_traverse_scan *scan,
                                                 gait_traverse_kind proposed, void *user);
gait_status gait_character_set_traverse_hook(gait_world *world, gait_character_id id,
                                             gait_traverse_hook hook, void *user);
/* The action hook and its user pointer (NULL, NULL when none). */
gait_status gait_character_traverse_hook(const gait_world *world, gait_character_id id,
                                         gait_traverse_hook *out_hook, void **out_user);

/* The phase of an action playing. */
typedef enum gait_traverse_phase {
    GAIT_TRAVERSE_PHASE_NONE = 0,
    GAIT_TRAVERSE_PHASE_APPROACH,  /* on the ground, to the face below the grab point */
    GAIT_TRAVERSE_PHASE_RISE,      /* up the face (the latch ignores the ledge's corner) */
    GAIT_TRAVERSE_PHASE_CROSS,     /* forward over the ledge */
    GAIT_TRAVERSE_PHASE_DROP,      /* a vault's fall behind the obstacle */
    GAIT_TRAVERSE_PHASE_DONE
} gait_traverse_phase;

/* A character's traversal as the last step left it. */
typedef struct gait_traverse_info {
    gait_traverse_scan scan;       /* the last scan run for this character */
    gait_traverse_kind kind;       /* the action playing (or the last one played) */
    gait_traverse_phase phase;
    double seconds;                /* s into the action */
    int actions;                   /* actions started since the character was created */
    gait_vec3 corridor_origin;     /* m, the front edge at the grab point */
    gait_vec3 corridor_dir;        /* unit horizontal, into the obstacle */
    double corridor;               /* m past the front face the feet may go */
    bool latch;                    /* the ledge's triangles are ignored now */
    gait_vec3 latch_min, latch_max;/* m, the box they are ignored in */
    double cooldown;               /* s before a chained action may start */
    bool auto_crouch;              /* crouched by a low opening (stands once there is room) */
    bool stand_blocked;            /* crouched and no room above to stand (the last step) */
    bool crouch_air;               /* falling with the crouched capsule: the fall began crouched
                                      under a ceiling with no room to stand; it lands crouched */
    /* The action's plan: the feet's waypoints after the approach (path[0], the approach's end,
     * walked to at the body's speed, at least the walk's), up the face to path[1] and over the
     * corner to path[2] at rise_speed, over the top to path[3] at cross_speed; path_next is the
     * one the feet head for now. Once the approach ends, path[1] is set under it at the feet. */
    gait_vec3 path[4];             /* m */
    int path_count, path_next;
    double rise_speed, cross_speed;/* m/s */
} gait_traverse_info;

gait_status gait_character_traverse_info(const gait_world *world, gait_character_id id,
                                         gait_traverse_info *out);

/* Draws a character's last scan and its action's corridor and latch through `draw`. */
gait_status gait_character_traverse_draw(const gait_world *world, gait_character_id id,
                                         const gait_debug_draw *draw);

#ifdef __cplusplus
}
#endif
#endif
