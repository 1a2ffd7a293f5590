/* Internal: a character's traversal memory and the traversal's parts (docs/behaviour.md,
 * "Traversal"): the scan (traverse_scan.c, pure), the choice (traverse_choose.c, the table),
 * the action (traverse_action.c, the move), the world and character API (traverse.c). */
#ifndef GAIT_TRAVERSE_INTERNAL_H
#define GAIT_TRAVERSE_INTERNAL_H

#include "gait/mover.h"
#include "gait/traverse.h"

struct gait__character;

/* Shared by the scan and the action (m). */
#define GAIT__TRAVERSE_SKIN 0.03   /* between the capsule and the face at the approach point */
#define GAIT__TRAVERSE_CLEAR 0.05  /* the feet cross this far above the ledge */

typedef struct gait__traverse {
    bool scanned;                  /* query/scan (below) hold something */
    uint64_t scan_revision;        /* the collider's revision + 1 when the last scan was run (0:
                                      unknown): the same query at that revision scans the same,
                                      so the sense stage takes the last scan again. A shortcut
                                      only (not hashed; dropped by a snapshot's restore) */
    bool scan_deferred;            /* the last scan was shown to find no ledge and not run: `scan`
                                      holds only its failure; traverse info and the debug view
                                      run it when they show it */
    gait_vec3 free_lo, free_hi;    /* a box shown to hold no surface level enough for a ledge
                                      (gait__traverse_box_level_free) at the collider's revision
                                      free_revision - 1 (0: none), for scans of this filter and
                                      ledge slope: a climb whose ledge box stays inside it has no
                                      ledge to find. A shortcut only, like scan_revision */
    uint64_t free_revision;
    gait_filter free_filter;
    double free_slope;             /* rad */
    bool pending;                  /* the gates chose TRAVERSE this step: start it in the move */
    gait_traverse_kind pending_kind;
    int pending_row;
    gait_traverse_kind kind;       /* the action playing */
    gait_traverse_phase phase;
    double seconds;                /* s in the action */
    double blocked;                /* s the path has been blocked (ends the action) */
    int actions;
    gait_vec3 origin, in;          /* front edge at the grab point; horizontal into the obstacle */
    double ledge_y;                /* m */
    double corridor;               /* m past the front face the feet may go */
    gait_vec3 path[4];             /* feet waypoints after the approach */
    int path_count, path_next;
    double rise_speed, cross_speed;/* m/s */
    double drop_speed;             /* m/s horizontal carried into the drop */
    bool latch;
    gait_vec3 latch_min, latch_max;
    gait_landmark_id latch_landmark;
    double cooldown;               /* s */
    gait_traverse_hook hook;       /* the host's action hook (not part of the simulation) */
    void *hook_user;
    /* Last: read only once scanned, so a character's create leaves them as the slot held them
     * (character.c) and a snapshot writes them as zeros until then (snapshot.c). */
    gait_traverse_query query;     /* the last scan's query (the debug view re-runs it) */
    gait_traverse_scan scan;       /* the last scan */
} gait__traverse;

/* A traversal action is playing (not over). */
bool gait__traverse_playing(const gait__traverse *t);

/* A query the scan takes: finite, radius > 0, height >= 2 radius, reaches ordered, ... (the scan
 * answers any other with "invalid query"). */
bool gait__traverse_query_valid(const gait_traverse_query *q);

/* ---- the choice (traverse_choose.c) ------------------------------------------------------ */

/* The scan's query for a body of these numbers at feet going forward at speed; climbing: over
 * the top of a climb (the climb's heights). */
gait_traverse_query gait__traverse_body_query(const gait_traverse_table *table,
                                              const gait_locomotion *numbers, gait_vec3 feet,
                                              gait_vec3 forward, double speed, bool climbing);
/* The action the table offers for a scan that found a ledge with room (*row: its row, -1 for
 * none and for a climb's mantle, chosen by height alone). */
gait_traverse_kind gait__traverse_offer(const gait_traverse_table *table,
                                        const gait_traverse_scan *scan, double speed,
                                        bool climbing, int *row);
/* The row a kind plays by: `row` when it holds that kind, else the first of that kind, else the
 * first row (a hook's kind with no row moves at its speeds); NULL for an empty table. */
const gait_traverse_action_def *gait__traverse_row(const gait_traverse_table *table,
                                                   gait_traverse_kind kind, int row);

/* ---- the action (traverse_action.c) ------------------------------------------------------ */

/* The move of a body in GAIT_STATE_TRAVERSE: starts the pending action, follows its path
 * through the mover, ends it when it is done, blocked or overran; writes the contact. Its
 * queries go through gather (may be NULL); bodies (may be NULL) are the other characters it
 * keeps clear of. */
void gait__traverse_move(const gait_collider *collider, gait_gather *gather,
                         gait_mover_bodies *bodies, const gait_traverse_table *table,
                         struct gait__character *ch, const gait_locomotion *numbers, double dt);

/* ---- the scan (traverse_scan.c) ---------------------------------------------------------- */

/* gait_traverse_scan_run with its queries through a gather (may be NULL): the same scan. */
bool gait__traverse_scan(const gait_collider *collider, gait_gather *gather,
                         const gait_traverse_query *query, const gait_debug_draw *draw,
                         gait_traverse_scan *scan);

/* Whether the gather alone shows that the scan of this query finds no ledge (no surface level
 * enough to stand on where its trace down onto the ledge could go): then the scan fails, and
 * the step need not run it. False when it may find one, or the gather cannot tell. */
bool gait__traverse_no_ledge(gait_gather *gather, const gait_traverse_query *query);
/* The box gait__traverse_no_ledge reads (the gather must hold it for an answer); false for a
 * query it cannot read. */
bool gait__traverse_ledge_box(const gait_traverse_query *query, gait_vec3 *lo, gait_vec3 *hi);
/* Whether the gather shows the box holds no surface within the query's ledge slope (its
 * filter's), as gait__traverse_no_ledge reads its own box. */
bool gait__traverse_box_level_free(gait_gather *gather, const gait_traverse_query *query,
                                   gait_vec3 lo, gait_vec3 hi);

#endif
