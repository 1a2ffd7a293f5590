/* gait — replay files: a recorded input stream that plays a world back bit-identically.
 *
 * A replay is what a host gave the world, frame by frame: each frame's seconds (the argument of
 * gait_world_update) and the gait_input each character received that frame
 * (gait_character_set_input). Played into a world built the same way (same world file, same
 * characters created in the same order, same tuning), the same build steps to the same bits
 * (the Makefile builds with -ffp-contract=off), so gait_world_state_hash at the end matches.
 *
 * The file is text, one record a line, doubles as C99 hex floats ("%a") so they round-trip
 * exactly:
 *
 *     gait-replay 1                         magic and format version
 *     world scripts/worlds/meadow.lua       the world file or scenario the world was built from
 *     meta fps 144                          any number of free key/value pairs (host's own)
 *     character 1 0                         each recorded character: id index1, generation
 *     frames 600                            how many frame records follow
 *     f 0x1.c71c71c71c71cp-8 2              a frame: seconds, then how many inputs follow
 *     i 1 0 mx my look_yaw look_pitch look_zoom held pressed
 *     ...
 *     end
 *
 * Recording is not a step: the recorder grows its buffers through the hooks allocator. Loading
 * checks everything (version, counts, finite numbers, known characters, the "end" line) and
 * answers a malformed file with GAIT_ERR_FORMAT and a message naming the file and the line.
 *
 * A host (the sandbox, an engine, `gait run --record`) records like this:
 *     rec = gait_replay_recorder_create(&hooks, "scripts/worlds/meadow.lua");
 *     gait_replay_recorder_add_character(rec, hero);
 *     each frame: gait_character_set_input(w, hero, &in);
 *                 gait_replay_recorder_input(rec, hero, &in);
 *                 gait_world_update(w, dt, NULL);
 *                 gait_replay_recorder_end_frame(rec, dt);
 *     gait_replay_recorder_save(rec, "out.replay");
 * and plays back like this (the world rebuilt as it was when recording started):
 *     gait_replay_player_open("out.replay", &hooks, &player, err, sizeof err);
 *     while (gait_replay_player_next(player, w, &dt) == GAIT_OK) gait_world_update(w, dt, NULL);
 *     hash = gait_world_state_hash(w);
 * What the replay cannot know (a kit's Lua, the gate hooks, a frame callback that places or
 * spends) must be rebuilt by the host the same way. */
#ifndef GAIT_REPLAY_H
#define GAIT_REPLAY_H

#include "gait/input.h"
#include "gait/world.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GAIT_REPLAY_VERSION 1
#define GAIT_REPLAY_MAX_CHARACTERS 4096     /* characters one replay may name */
#define GAIT_REPLAY_MAX_META 64             /* meta pairs; keys and values up to 255 bytes */

/* ---- recording ----------------------------------------------------------------------------- */

typedef struct gait_replay_recorder gait_replay_recorder;

/* hooks may be NULL (defaults). world_name: the world file or scenario (one line, up to 1023
 * bytes, no newline); NULL means "". NULL on bad arguments or out of memory. */
gait_replay_recorder *gait_replay_recorder_create(const gait_hooks *hooks, const char *world_name);
void gait_replay_recorder_destroy(gait_replay_recorder *rec);
const char *gait_replay_recorder_last_error(const gait_replay_recorder *rec);
/* A free key/value pair for the header (key: no space; neither holds a newline). */
gait_status gait_replay_recorder_set_meta(gait_replay_recorder *rec, const char *key,
                                          const char *value);
/* Names a character the replay will carry inputs for (its id in the recording world). */
gait_status gait_replay_recorder_add_character(gait_replay_recorder *rec, gait_character_id id);
/* The input a character got this frame, exactly as given to gait_character_set_input (checked
 * the same way: finite moves and looks; a character not added is refused). Several inputs to
 * one character in a frame are kept in order. */
gait_status gait_replay_recorder_input(gait_replay_recorder *rec, gait_character_id id,
                                       const gait_input *input);
/* Closes the frame: its seconds (finite, >= 0) and the inputs given since the last frame. */
gait_status gait_replay_recorder_end_frame(gait_replay_recorder *rec, double frame_seconds);
int gait_replay_recorder_frame_count(const gait_replay_recorder *rec);
/* Writes the file (IO with the path and errno's message when it cannot be written). */
gait_status gait_replay_recorder_save(gait_replay_recorder *rec, const char *path);
/* Drops the last `frames` frames (the fuzzer's minimiser; frames > count drops them all). */
gait_status gait_replay_recorder_truncate(gait_replay_recorder *rec, int frames);

/* ---- playing back -------------------------------------------------------------------------- */

typedef struct gait_replay_player gait_replay_player;

/* Loads a replay file. On failure *out is NULL, the status says why (IO: cannot read;
 * FORMAT: malformed; OUT_OF_MEMORY) and err (may be NULL) receives "path:line: reason". */
gait_status gait_replay_player_open(const char *path, const gait_hooks *hooks,
                                    gait_replay_player **out, char *err, size_t err_cap);
/* The same from bytes in memory (name is used in messages). */
gait_status gait_replay_player_open_buffer(const char *data, size_t size, const char *name,
                                           const gait_hooks *hooks, gait_replay_player **out,
                                           char *err, size_t err_cap);
/* A player over what a recorder holds now (a copy; the recorder may go on). */
gait_status gait_replay_player_from_recorder(const gait_replay_recorder *rec,
                                             gait_replay_player **out);
void gait_replay_player_destroy(gait_replay_player *player);
const char *gait_replay_player_last_error(const gait_replay_player *player);

const char *gait_replay_player_world_name(const gait_replay_player *player);
/* The value of a meta key, or NULL. */
const char *gait_replay_player_meta(const gait_replay_player *player, const char *key);
int gait_replay_player_character_count(const gait_replay_player *player);
/* The i-th recorded character's id (null id when i is out of range). */
gait_character_id gait_replay_player_character(const gait_replay_player *player, int i);
int gait_replay_player_frame_count(const gait_replay_player *player);
int gait_replay_player_frame_index(const gait_replay_player *player); /* the next frame */

/* Gives `world` the next frame's inputs (gait_character_set_input, in recorded order) and
 * writes its seconds to *out_frame_seconds; the caller then runs the frame (gait_world_update,
 * or a script's frame). CAPACITY when every frame was played; STALE_ID (frame not consumed,
 * nothing set) when a recorded character is not alive in `world`. */
gait_status gait_replay_player_next(gait_replay_player *player, gait_world *world,
                                    double *out_frame_seconds);
/* Back to the first frame. */
void gait_replay_player_rewind(gait_replay_player *player);
/* Plays every remaining frame into world with gait_world_update; *out_hash (may be NULL)
 * receives gait_world_state_hash at the end. */
gait_status gait_replay_player_play(gait_replay_player *player, gait_world *world,
                                    uint64_t *out_hash);

#ifdef __cplusplus
}
#endif
#endif
