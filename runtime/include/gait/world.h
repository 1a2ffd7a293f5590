/* gait — the world: characters, their body types, the fixed-step loop and the order of a step.
 *
 * A frame, as a host drives it (docs/behaviour.md, "The frame and the step"):
 *     gait_character_set_input(world, id, &input);   // presses held until a step reads them
 *     ... a kit may read gait_character_held_presses() and take some ...
 *     gait_world_update(world, frame_seconds, &steps); // whole fixed steps from the accumulator
 *     gait_character_pose(world, id, &pose);          // blended between the last two steps
 *
 * One step, per character: read the contact left by the last move -> gates (pure) -> the gate
 * hook, if any -> stamina -> desired velocity -> move and collide -> push-out -> contact. */
#ifndef GAIT_WORLD_H
#define GAIT_WORLD_H

#include "gait/anim.h"
#include "gait/camera.h"
#include "gait/clock.h"
#include "gait/collide.h"
#include "gait/input.h"
#include "gait/locomotion.h"
#include "gait/stamina.h"
#include "gait/task.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gait_world gait_world;

/* The game's body types (docs/behaviour.md, "The numbers"). Until a type is measured it moves by the provisional numbers;
 * a measured type has its own entry and never lends it to another. */
typedef enum gait_body_type {
    GAIT_BODY_MEDIUM_FEMALE = 0, /* "girl": the Traveler's body, the first measured */
    GAIT_BODY_MEDIUM_MALE,       /* "boy" */
    GAIT_BODY_TALL_FEMALE,       /* "lady" */
    GAIT_BODY_TALL_MALE,         /* "male" */
    GAIT_BODY_SHORT_FEMALE,      /* "loli" */
    GAIT_BODY_TYPE_COUNT
} gait_body_type;

/* "medium_female", "medium_male", "tall_female", "tall_male", "short_female"; NULL if invalid. */
const char *gait_body_type_name(gait_body_type type);
int gait_body_type_from_name(const char *name); /* -1 when unknown */

typedef struct gait_world_def {
    gait_hooks hooks;            /* zeroed = defaults */
    gait_clock_def clock;        /* default 1/60 s steps, at most 8 a frame */
    gait_collider_def collider;  /* the world's collision world */
    int max_characters;          /* pool size, default 64, range 1..1<<20 */
    /* Stepping characters on several threads (gait/task.h, Box2D v3's shape). worker_count 1
     * (the default) steps them one after another on the caller. More, with enqueue_task and
     * finish_task (both or neither), hands each step's characters to the host's scheduler in
     * ranges; more with neither runs the world's own pool of worker_count - 1 threads beside
     * the caller. Range 1..64. The results are the same bits whatever the count and whichever
     * thread steps whom: a character reads only the state the step began with (its own, and
     * the other characters' positions) and writes only itself. Characters with a gate or
     * traversal hook (the host's or a Lua kit's) are stepped after the others, one at a time on
     * the calling thread, so hooks need not be thread-safe; the same order holds with one
     * worker. 0 counts as 1. */
    int worker_count;
    gait_enqueue_task_fn *enqueue_task;
    gait_finish_task_fn *finish_task;
    void *user_task_context;     /* passed to enqueue_task and finish_task */
} gait_world_def;

gait_world_def gait_default_world_def(void);
/* NULL when the def is invalid or memory runs out (the reason goes to the log hook). */
gait_world *gait_world_create(const gait_world_def *def);
void gait_world_destroy(gait_world *world);
const char *gait_world_last_error(const gait_world *world);
/* The world's collision world: add terrain, water and landmarks to it. */
gait_collider *gait_world_collider(gait_world *world);
const gait_collider *gait_world_collider_const(const gait_world *world);

/* Body-type numbers. set marks the type measured (its own entry); clear makes it provisional again.
 * Both validate the numbers (gait_locomotion_validate) and change nothing on failure. */
gait_status gait_world_set_provisional_locomotion(gait_world *world, const gait_locomotion *numbers);
gait_status gait_world_set_locomotion(gait_world *world, gait_body_type type,
                                      const gait_locomotion *numbers);
gait_status gait_world_clear_locomotion(gait_world *world, gait_body_type type);
/* The numbers a body of this type moves by: its own when measured, else the provisional ones. */
const gait_locomotion *gait_world_locomotion(const gait_world *world, gait_body_type type);
bool gait_world_locomotion_measured(const gait_world *world, gait_body_type type);

/* Runs the frame: adds frame_seconds to the clock and runs the whole steps due (capped).
 * *out_steps (may be NULL) receives how many ran. */
gait_status gait_world_update(gait_world *world, double frame_seconds, int *out_steps);
/* Runs exactly one fixed step now (tests, replays). */
gait_status gait_world_step(gait_world *world);
double gait_world_alpha(const gait_world *world);     /* interpolation alpha, [0, 1) */
uint64_t gait_world_step_count(const gait_world *world);
double gait_world_step_seconds(const gait_world *world);
const gait_clock *gait_world_clock(const gait_world *world);
/* The def's worker_count (1 for a NULL world). */
int gait_world_worker_count(const gait_world *world);

/* ---- snapshot / restore ------------------------------------------------------------------- */

/* The whole simulation state a step reads: the clock, every character (pose, phase, contact,
 * stamina, held input, camera, animation signal, the body's memory) and the body-type numbers.
 * Not the collision geometry (the host's, static) nor hooks and user data (kept as they are).
 * Stepping on from a restored snapshot gives bit-identical states to stepping on from the
 * original — for rollback netcode and replays. The format is this build's own (same layout,
 * same capacity); a buffer from another build or world size is refused with GAIT_ERR_FORMAT.
 * Equal states give equal bytes; no pointer of the host's is in them. */
size_t gait_world_snapshot_size(const gait_world *world);
/* Writes the snapshot into buffer (capacity bytes); *out_size (may be NULL) receives its size.
 * CAPACITY (nothing written) when the buffer is too small. Allocates nothing. */
gait_status gait_world_snapshot_save(const gait_world *world, void *buffer, size_t capacity,
                                     size_t *out_size);
/* Restores a snapshot. A snapshot is untrusted content: restore checks its header, its checksum
 * (FNV-1a over the header and the state: it finds corruption, not forgery) and every value it
 * holds, as the setters and defs check them (ranges, finiteness, enums, booleans, ids, counts,
 * strings ended), and refuses it with GAIT_ERR_FORMAT and a message naming the value and the
 * character ("snapshot: character 2 (generation 0): phase.state = 99 is out of range; ...");
 * nothing changes then. Bytes past the snapshot's own size are not read. */
gait_status gait_world_snapshot_restore(gait_world *world, const void *buffer, size_t size);
/* FNV-1a hashes of the state, member by member (no padding bytes): equal states, equal hashes.
 *   simulation:   what the steps read and write — the step count, every character's pose,
 *                 velocity, phase, contact, stamina, held input (move, levels, presses, the
 *                 camera's yaw the moves are relative to), kit action, return point, the body's,
 *                 the traversal's and the crouch's memory. The same inputs step by step give the
 *                 same hash at any frame rate: this is what replays and rollback compare.
 *   presentation: what follows once a frame or only describes the body — the clock's leftover
 *                 (the blend's alpha), each camera's pitch, zoom, arm and eye, the animation
 *                 signal's state and switch count. It differs between frame rates by design.
 *   state:        both in one (its bits are what they were before the split: hashes saved by
 *                 replays and tests/unit/golden_hashes.h stay valid). It hashes exactly the
 *                 members the other two do, so equal state hashes mean equal simulation and
 *                 presentation hashes; it differs across frame rates whenever the presentation
 *                 does. */
uint64_t gait_world_state_hash(const gait_world *world);
uint64_t gait_world_simulation_hash(const gait_world *world);
uint64_t gait_world_presentation_hash(const gait_world *world);

/* ---- debug draw (traverse.c; "Traversal") ----------------------------------------------------- */

/* Box2D-style debug drawing: the core never touches a graphics API, it calls these. Colours are
 * 0xRRGGBBAA. Any member may be NULL (that kind of shape is not drawn). */
typedef struct gait_debug_draw {
    void (*line)(gait_vec3 a, gait_vec3 b, uint32_t rgba, void *user);
    void (*point)(gait_vec3 p, double size, uint32_t rgba, void *user); /* size in m */
    void (*text)(gait_vec3 p, const char *text, uint32_t rgba, void *user);
    void *user;
} gait_debug_draw;

/* The callbacks gait_world_draw_debug calls (NULL removes them; the struct is copied). */
gait_status gait_world_set_debug_draw(gait_world *world, const gait_debug_draw *draw);
/* Draws every character's last traversal scan (each sweep and trace, the ledge segment, the grab
 * point) and its action's corridor and latch. Once a frame, from the host; allocates nothing. */
gait_status gait_world_draw_debug(const gait_world *world);

/* ---- characters --------------------------------------------------------------------------- */

typedef struct gait_character_def {
    gait_vec3 position;          /* feet (m); stood on the ground below at create */
    double yaw;                  /* facing (rad): direction (sin yaw, 0, cos yaw); 0 faces +z */
    gait_body_type body_type;    /* default GAIT_BODY_MEDIUM_FEMALE */
    gait_stamina_def stamina;    /* the party's pool; defaults per gait_default_stamina_def */
    gait_camera_def camera;      /* its follow camera; defaults per gait_default_camera_def */
    bool no_camera;              /* true: no follow camera (crowds, benchmarks); default false */
    gait_anim_def anim;          /* its animation signal; defaults per gait_default_anim_def; the
                                    clip map starts as gait_default_anim_clip's names */
    /* Contact with other characters (docs/behaviour.md, "Characters that meet"): a pair blocks
     * each other when both collide and each one's layer shares a bit with the other's mask.
     * Defaults: collide true, layer 1, mask every bit (a zeroed def collides with nothing). */
    bool collide;
    uint32_t collision_layer;
    uint32_t collision_mask;
    void *user_data;
} gait_character_def;

gait_character_def gait_default_character_def(void);
gait_status gait_character_create(gait_world *world, const gait_character_def *def,
                                  gait_character_id *out_id);
gait_status gait_character_destroy(gait_world *world, gait_character_id id);
bool gait_character_valid(const gait_world *world, gait_character_id id);
int gait_world_character_count(const gait_world *world);

/* Once a frame: the move and held levels replace the last ones, the presses are added to those
 * already held (a press in a frame that runs no step is kept), the look deltas turn the camera. */
gait_status gait_character_set_input(gait_world *world, gait_character_id id, const gait_input *input);
/* The presses the next step will read (gait_button bits). */
gait_status gait_character_held_presses(const gait_world *world, gait_character_id id,
                                        uint32_t *out_pressed);
/* Removes `mask` from the held presses (a kit took them), so the step does not read them. */
gait_status gait_character_take_presses(gait_world *world, gait_character_id id, uint32_t mask);

/* A kit action: for `seconds` the step receives the presses with no move — the body holds where
 * it stands. A new action replaces the current one; seconds 0 ends it. `name` (may be NULL) is
 * copied (up to 31 bytes) for the HUD. */
gait_status gait_character_start_action(gait_world *world, gait_character_id id, double seconds,
                                        const char *name);

/* Turns the body on the spot. */
gait_status gait_character_face(gait_world *world, gait_character_id id, double yaw);
/* Stands the body on the ground at position (a map teleport), facing yaw, camera level behind it;
 * the point becomes the drowning return point until stamina is next full on foot; ends any action. */
gait_status gait_character_place(gait_world *world, gait_character_id id, gait_vec3 position,
                                 double yaw);
/* Contact with other characters from the next step (see gait_character_def.collide). */
gait_status gait_character_set_collision(gait_world *world, gait_character_id id, bool collide,
                                         uint32_t layer, uint32_t mask);

/* A party switch: new numbers from the next step, same place, same stamina. */
gait_status gait_character_set_body_type(gait_world *world, gait_character_id id,
                                         gait_body_type type);

/* Stamina through the kit's door: multiplied by the pool's multiplier. spend fails (CAPACITY,
 * nothing taken) when the pool cannot pay; can_spend answers the same question. */
gait_status gait_character_spend(gait_world *world, gait_character_id id, double amount);
gait_status gait_character_can_spend(const gait_world *world, gait_character_id id, double amount,
                                     bool *out);
gait_stamina *gait_character_stamina(gait_world *world, gait_character_id id); /* NULL if stale */

/* The camera's yaw (rad) that moves are relative to; turned by look_yaw each frame. */
gait_status gait_character_set_camera_yaw(gait_world *world, gait_character_id id, double yaw);

/* The follow camera, as it stands after the last gait_world_update (which follows the blended
 * body once a frame, after the steps). gait_character_place puts it level behind the body. */
gait_status gait_character_camera(const gait_world *world, gait_character_id id, gait_camera *out);
gait_status gait_character_set_camera_def(gait_world *world, gait_character_id id,
                                          const gait_camera_def *def);

/* The animation signal after the last step; `clip` stays valid until the next step. */
gait_status gait_character_anim(const gait_world *world, gait_character_id id,
                                gait_anim_signal *out);
gait_status gait_character_set_anim_def(gait_world *world, gait_character_id id,
                                        const gait_anim_def *def);
/* The clip map: a state to a clip name (NULL or "" removes it). */
gait_status gait_character_set_clip(gait_world *world, gait_character_id id, gait_anim_state state,
                                    const char *clip);
/* The host tells which mapped clips its model lacks; those states are never switched into. */
gait_status gait_character_set_model_lacks(gait_world *world, gait_character_id id,
                                           gait_anim_state state, bool lacks);

/* A gate hook: called after the C gates proposed `proposed` (different from `from`, or equal
 * when nothing changed — called only when they differ). Return the state to take: `proposed`
 * to allow, `from` to veto, another state to redirect (it must be an edge from `from`, or it is
 * refused and `proposed` taken). NULL (the default) runs no hook at all. */
typedef gait_state (*gait_gate_hook)(gait_world *world, gait_character_id id, gait_state from,
                                     gait_state proposed, void *user);
gait_status gait_character_set_gate_hook(gait_world *world, gait_character_id id,
                                         gait_gate_hook hook, void *user);

/* Everything a character is, read after a step. */
typedef struct gait_character_info {
    gait_vec3 position;          /* feet (m), at the last step */
    gait_vec3 velocity;          /* m/s over the last step */
    double yaw;                  /* facing (rad) */
    double camera_yaw;           /* rad */
    gait_phase phase;            /* state and seconds in it */
    gait_state previous_state;   /* before the last step */
    gait_contact contact;        /* as the last move left it */
    double stamina, stamina_max;
    gait_body_type body_type;
    bool walking;                /* walk switch on */
    bool crouching;              /* crouch switch on */
    double action_seconds_left;  /* of the kit action, 0 when none */
    char action_name[32];
    gait_vec3 return_point;      /* where a drowning brings the body back */
    uint32_t presses_read;       /* the presses the last step read */
    uint64_t steps;              /* steps this character has run */
    bool collide;                /* contact with other characters (gait_character_def) */
    uint32_t collision_layer, collision_mask;
    /* a moving landmark after the last step (docs/behaviour.md, "Moving landmarks"): the one
     * stood on (null: none, or a still one), its velocity under the feet (m/s), and whether one
     * holds the body more than 1 cm inside it (crushed: the push-out could not free it) */
    gait_landmark_id carrier;
    gait_vec3 carrier_velocity;
    bool crushed;
} gait_character_info;

gait_status gait_character_info_get(const gait_world *world, gait_character_id id,
                                    gait_character_info *out);

/* The drawn pose: feet position and yaw blended between the last two steps by the alpha. */
typedef struct gait_pose {
    gait_vec3 position;
    double yaw;
} gait_pose;
gait_status gait_character_pose(const gait_world *world, gait_character_id id, gait_pose *out);


/* ---- reading and setting one thing at a time (bindings, tools) ----------------------------- */
/* Each checks its arguments at the edge: NULL, a stale id or a bad value is refused with a
 * status (the world's last error says why) and nothing changes. */

/* True while gait_world_step runs, that is inside its gate and traversal hooks. Locked then:
 * gait_world_destroy (refused and logged), gait_world_step, gait_world_update,
 * gait_world_advance_clock, gait_world_follow_cameras, gait_world_snapshot_restore, gait_character_create,
 * gait_character_destroy, gait_character_set_collision and the body types' numbers
 * (gait_world_set_locomotion, _clear_locomotion, _set_provisional_locomotion) (GAIT_ERR_LOCKED),
 * and every call that changes the world's collider (collide.h: terrain, water, landmarks added,
 * removed, moved, set moving; gait_collider_advance). A refused call changes nothing. */
bool gait_world_is_locked(const gait_world *world);
/* gait_world_update's first half: adds frame_seconds to the clock and gives the whole steps due
 * (capped), without running them or moving the cameras; for a host that acts between steps
 * and then calls gait_world_step that many times. */
gait_status gait_world_advance_clock(gait_world *world, double frame_seconds, int *out_steps);
/* gait_world_update's second half: each living character's follow camera follows its body as
 * drawn (blended between the last two steps by the clock's alpha) over frame_seconds, once a
 * frame after the steps. A host (or a script's w:update) that advanced the clock and ran the
 * steps itself calls this to move the cameras as gait_world_update does. Refused while the
 * world steps (GAIT_ERR_LOCKED) and for frame seconds not finite or < 0; nothing moves then. */
gait_status gait_world_follow_cameras(gait_world *world, double frame_seconds);
int gait_world_max_characters(const gait_world *world); /* the pool size given at create */
/* The living character in slot index1 (1 .. max_characters), or GAIT_ERR_STALE_ID when the
 * slot is empty or out of range. Walking the slots lists every character. */
gait_status gait_world_character_in_slot(const gait_world *world, int index1,
                                         gait_character_id *out);
/* The numbers a body type moves by until it is measured. */
const gait_locomotion *gait_world_provisional_locomotion(const gait_world *world);

/* The input the next step will read: the move and held levels of the last set_input and the
 * presses not yet read (look deltas are spent at set_input: 0 here). */
gait_status gait_character_input(const gait_world *world, gait_character_id id, gait_input *out);
/* Its state and the seconds in it (what gait_character_info_get's phase holds, without the
 * rest: kits ask for it every frame). */
gait_status gait_character_phase(const gait_world *world, gait_character_id id, gait_phase *out);
/* A copy of the character's stamina pool (value, max, refill, multiplier, rest). */
gait_status gait_character_stamina_get(const gait_world *world, gait_character_id id,
                                       gait_stamina *out);
/* What is left: finite, clamped to [0, max]. */
gait_status gait_character_set_stamina(gait_world *world, gait_character_id id, double value);
/* The consumption multiplier, [0, 100]. */
gait_status gait_character_set_stamina_multiplier(gait_world *world, gait_character_id id,
                                                  double multiplier);
/* The refill (gait_stamina_set_refill's ranges: the stamina schema); value and rest stay. */
gait_status gait_character_set_stamina_refill(gait_world *world, gait_character_id id,
                                              double rate, double delay);
/* The gate hook and its user pointer (NULL, NULL when none). */
gait_status gait_character_gate_hook(const gait_world *world, gait_character_id id,
                                     gait_gate_hook *out_hook, void **out_user);

#ifdef __cplusplus
}
#endif
#endif
