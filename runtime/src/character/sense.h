/* Internal: the sense stage (sense.c; docs/design.md, "The step"): the one writer of a
 * character's contact, and the readings the gates take beside it. */
#ifndef GAIT_SENSE_H
#define GAIT_SENSE_H

#include "gait/mover.h"
#include "gait/traverse.h"
#include "intent.h"

struct gait__character;
struct gait__traverse;

/* A ledge worth scanning for, as the gates ask for it (gait__gates_propose): the scan costs
 * some 30 queries, so it runs only where a jump (or a climb up) could take a traversal. */
typedef struct gait__ledge_request {
    bool want;
    gait_vec3 forward;          /* horizontal, the way the body goes */
    double speed;               /* m/s horizontal: the scan's reach grows with it */
    bool climbing;              /* over the top of a climb: the climb's heights and mantles */
} gait__ledge_request;

/* What the sense stage read this step beyond the contact (not kept between steps). */
typedef struct gait__senses {
    bool low_ceiling;           /* no room to stand (read only while crouched or falling crouched:
                                   gait__crouch_needs_ceiling) */
    bool opening;               /* a low opening ahead the crouched body fits (read only while a
                                   standing body walks into a wall) */
    bool scanned;               /* the ledge ahead was scanned (a request) */
    gait_traverse_query query;  /* ... with this query */
    gait_traverse_scan scan;    /* ... and found this */
    bool deferred;              /* ... or was shown to find no ledge and not run: `scan` holds
                                   only its failure (gait__traverse_box_level_free over its ledge box) */
    bool proved_free;           /* ... and a box round its ledge box was shown to hold no
                                   ledge: free_lo..free_hi, kept in the traversal memory */
    gait_vec3 free_lo, free_hi;
    gait_traverse_kind offer;   /* the action the table offers there at this speed (NONE: no
                                   ledge with room, or no row fits) */
    int offer_row;              /* its row, -1 for none (and for a climb's mantle) */
} gait__senses;

/* Before the gates: the readings crouch needs (a low ceiling, a low opening; over an opening the
 * crouched body fits, the contact's wall_ahead is cleared: its lip is no wall to climb). */
void gait__sense_surroundings(const gait_collider *collider, gait_gather *gather,
                              struct gait__character *ch, const gait__intent *intent,
                              const gait_locomotion *numbers, gait__senses *out);

/* The ledge ahead, when the gates asked (request->want), for a body of these numbers reading
 * the traversal table; its queries through gather (may be NULL). The scan is a pure function of
 * its query and the collider: when `last` (the character's traversal memory, may be NULL) holds
 * a scan of the same query at the collider's present revision, that scan is the answer and no
 * query is asked (a body held still against a wall, a jump held in place). */
void gait__sense_ledge(const gait_collider *collider, gait_gather *gather, const gait_traverse_table *table,
                       gait_vec3 feet, const gait__ledge_request *request,
                       const gait_locomotion *numbers, const struct gait__traverse *last,
                       gait__senses *out);

/* How far down the height-above-ground probe's ray reaches. Both find the same ground; a ray's
 * hit distance is computed from its length, so their last bits differ, and the body and the
 * traversal have each always read their own: kept apart until a change of behaviour joins them
 * on purpose (tests/unit/test_golden.c would show it). */
typedef enum gait__ground_probe {
    GAIT__PROBE_TO_TERRAIN,     /* just past the terrain under the feet (the body's) */
    GAIT__PROBE_FULL            /* the whole HEIGHT_PROBE (the traversal's) */
} gait__ground_probe;

/* After a move (the body's, the traversal's, a placement): the contact from what the move met —
 * ground, rise, height above the ground, water, wall, wall ahead, over the top. The body's
 * carried velocity (rising) is read from ch->body.vel, so the move sets it first. */
void gait__sense_contact(struct gait__character *ch, const gait_mover *mover,
                         const gait_move_result *result, bool wall_ahead, bool over_top,
                         gait__ground_probe probe);

#endif
