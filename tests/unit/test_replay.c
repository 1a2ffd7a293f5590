/* Replay files (gait/replay.h): a recording at 144 fps plays back bit-identically, through the C
 * API and through `gait run --record` / `gait replay`; malformed files are refused with the
 * file's name and line, never a crash; bad arguments change nothing. */
#include "check.h"
#include "cli_fixtures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gait/gait.h"
#include "gait/replay.h"

static gait_world *make_world(void) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = 4;
    gait_world *w = gait_world_create(&wd);
    enum { N = 65 };
    float *h = malloc(sizeof(float) * N * N);
    for (int z = 0; z < N; z++)
        for (int x = 0; x < N; x++) h[z * N + x] = (float)(0.7 * sin(0.25 * x) * cos(0.19 * z));
    gait_heightfield_def hf = {N, N, 1.0, {-32, 0, -32}, h};
    gait_collider_set_terrain(gait_world_collider(w), &hf);
    free(h);
    /* a box to bump into and climb */
    static const float tris[] = {3, 0, 3, 5, 0, 3, 5, 2.5f, 3, 3, 0, 3, 5, 2.5f, 3, 3, 2.5f, 3,
                                 3, 2.5f, 3, 5, 2.5f, 3, 5, 2.5f, 6, 3, 2.5f, 3, 5, 2.5f, 6, 3, 2.5f, 6};
    gait_mesh_def md = {.positions = tris, .vertex_count = 12, .indices = NULL, .triangle_count = 4,
                        .offset = {0, 0, 0}, .name = "wall"};
    gait_collider_add_landmark(gait_world_collider(w), &md, NULL);
    gait_water_region wr = {-20, 8, -8, 20, 0.4};
    gait_collider_add_water(gait_world_collider(w), &wr, NULL);
    return w;
}

static void spawn3(gait_world *w, gait_character_id *ids) {
    for (int c = 0; c < 3; c++) {
        gait_character_def cd = gait_default_character_def();
        cd.position = (gait_vec3){c * 2.0 - 2, 3, c * 1.5};
        cd.body_type = (gait_body_type)c;
        gait_character_create(w, &cd, &ids[c]);
    }
}

/* Plays p into a fresh world built as the recording's was (make_world, spawn3): the status of the
 * play, the end's state hash in *hash and, when next_after is given, the status of asking for one
 * more frame after the last. */
static gait_status play_fresh(gait_replay_player *p, uint64_t *hash, gait_status *next_after) {
    gait_world *w = make_world();
    gait_character_id ids[3];
    spawn3(w, ids);
    gait_status st = gait_replay_player_play(p, w, hash);
    if (next_after) {
        double dt;
        *next_after = gait_replay_player_next(p, w, &dt);
    }
    gait_world_destroy(w);
    return st;
}

/* The input of frame k for character c: moves, looks and presses on a pseudo-random beat. */
static gait_input input_for(int k, int c) {
    gait_input in;
    memset(&in, 0, sizeof in);
    double t = k / 144.0;
    in.move_x = sin(0.8 * t + c);
    in.move_y = cos(0.45 * t + 2 * c);
    in.look_yaw = 0.01 * sin(3 * t + c);
    in.look_pitch = 0.005 * cos(2 * t);
    if ((k * 7 + c * 13) % 151 == 0) in.pressed |= GAIT_BUTTON_JUMP;
    if ((k * 11 + c) % 263 == 3) in.pressed |= GAIT_BUTTON_SPRINT;
    if ((k * 5 + c) % 389 == 7) in.pressed |= GAIT_BUTTON_ATTACK | GAIT_BUTTON_WALK;
    if ((k / 200) % 2 == 1) in.held |= GAIT_BUTTON_SPRINT;
    return in;
}

static const char *tmp_path(char *buf, size_t cap, const char *name) {
    snprintf(buf, cap, "/tmp/gait_test_replay_%d_%s", (int)getpid(), name);
    return buf;
}

TEST(replay_at_144_fps_plays_back_bit_identically) {
    gait_world *w = make_world();
    gait_character_id ids[3];
    spawn3(w, ids);
    gait_replay_recorder *rec = gait_replay_recorder_create(NULL, "test_replay make_world");
    CHECK(rec != NULL);
    for (int c = 0; c < 3; c++) CHECK_EQ_INT(gait_replay_recorder_add_character(rec, ids[c]), GAIT_OK);
    CHECK_EQ_INT(gait_replay_recorder_set_meta(rec, "fps", "144"), GAIT_OK);
    /* 144 fps with a little jitter, 8 s: frames with 0, 1 and 2 steps */
    for (int k = 0; k < 144 * 8; k++) {
        for (int c = 0; c < 3; c++) {
            gait_input in = input_for(k, c);
            gait_character_set_input(w, ids[c], &in);
            CHECK_EQ_INT(gait_replay_recorder_input(rec, ids[c], &in), GAIT_OK);
        }
        double dt = (1.0 / 144.0) * (1.0 + 0.05 * sin(k * 0.37));
        gait_world_update(w, dt, NULL);
        CHECK_EQ_INT(gait_replay_recorder_end_frame(rec, dt), GAIT_OK);
    }
    uint64_t want = gait_world_state_hash(w);
    gait_character_info moved;
    gait_character_info_get(w, ids[0], &moved);
    CHECK(moved.steps > 400);
    char path[256];
    tmp_path(path, sizeof path, "a.replay");
    CHECK_EQ_INT(gait_replay_recorder_save(rec, path), GAIT_OK);

    /* from the file, into a world built the same way */
    gait_replay_player *p = NULL;
    char err[512] = "";
    CHECK_EQ_INT(gait_replay_player_open(path, NULL, &p, err, sizeof err), GAIT_OK);
    CHECK(p != NULL);
    if (p) {
        CHECK_EQ_INT(gait_replay_player_frame_count(p), 144 * 8);
        CHECK_EQ_INT(gait_replay_player_character_count(p), 3);
        CHECK(strcmp(gait_replay_player_world_name(p), "test_replay make_world") == 0);
        CHECK(gait_replay_player_meta(p, "fps") && strcmp(gait_replay_player_meta(p, "fps"), "144") == 0);
        CHECK(gait_replay_player_meta(p, "nope") == NULL);
        uint64_t got = 0;
        gait_status next = GAIT_OK;
        CHECK_EQ_INT(play_fresh(p, &got, &next), GAIT_OK);
        CHECK(got == want);
        CHECK_EQ_INT(next, GAIT_ERR_CAPACITY); /* all played */
        /* rewound into a third world: the same again (nothing of the player's state leaks) */
        gait_replay_player_rewind(p);
        CHECK_EQ_INT(play_fresh(p, &got, NULL), GAIT_OK);
        CHECK(got == want);
        gait_replay_player_destroy(p);
    }
    /* straight from the recorder, no file */
    CHECK_EQ_INT(gait_replay_player_from_recorder(rec, &p), GAIT_OK);
    uint64_t got4 = 0;
    CHECK_EQ_INT(play_fresh(p, &got4, NULL), GAIT_OK);
    CHECK(got4 == want);
    gait_replay_player_destroy(p);
    /* a changed input changes the end: the replay is what drives the world */
    CHECK_EQ_INT(gait_replay_recorder_truncate(rec, 144 * 4), GAIT_OK);
    CHECK_EQ_INT(gait_replay_recorder_frame_count(rec), 144 * 4);
    CHECK_EQ_INT(gait_replay_player_from_recorder(rec, &p), GAIT_OK);
    CHECK_EQ_INT(play_fresh(p, &got4, NULL), GAIT_OK);
    CHECK(got4 != want);
    gait_replay_player_destroy(p);
    gait_replay_recorder_destroy(rec);
    gait_world_destroy(w);
    unlink(path);
}

TEST(replay_player_refuses_a_world_built_otherwise) {
    gait_world *w = make_world();
    gait_character_id ids[3];
    spawn3(w, ids);
    gait_replay_recorder *rec = gait_replay_recorder_create(NULL, "x");
    gait_replay_recorder_add_character(rec, ids[2]);
    gait_input in = input_for(3, 2);
    gait_replay_recorder_input(rec, ids[2], &in);
    gait_replay_recorder_end_frame(rec, 1.0 / 60);
    gait_replay_player *p = NULL;
    gait_replay_player_from_recorder(rec, &p);
    gait_world *empty = make_world(); /* no characters */
    uint64_t before = gait_world_state_hash(empty);
    double dt = -1;
    CHECK_EQ_INT(gait_replay_player_next(p, empty, &dt), GAIT_ERR_STALE_ID);
    CHECK(strstr(gait_replay_player_last_error(p), "not alive") != NULL);
    CHECK_EQ_INT(gait_replay_player_frame_index(p), 0);
    CHECK(dt == -1);
    CHECK(gait_world_state_hash(empty) == before);
    CHECK_EQ_INT(gait_replay_player_next(p, w, &dt), GAIT_OK);
    CHECK(dt == 1.0 / 60);
    gait_replay_player_destroy(p);
    gait_replay_recorder_destroy(rec);
    gait_world_destroy(empty);
    gait_world_destroy(w);
}

TEST(replay_recorder_refuses_bad_arguments) {
    gait_replay_recorder *rec = gait_replay_recorder_create(NULL, "w");
    gait_character_id a = {1, 0}, stranger = {2, 0}, null_id = {0, 0};
    CHECK_EQ_INT(gait_replay_recorder_add_character(rec, null_id), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_replay_recorder_add_character(rec, a), GAIT_OK);
    gait_input in;
    memset(&in, 0, sizeof in);
    CHECK_EQ_INT(gait_replay_recorder_input(rec, stranger, &in), GAIT_ERR_STALE_ID);
    CHECK_EQ_INT(gait_replay_recorder_input(rec, a, NULL), GAIT_ERR_INVALID_ARGUMENT);
    in.move_x = NAN;
    CHECK_EQ_INT(gait_replay_recorder_input(rec, a, &in), GAIT_ERR_INVALID_ARGUMENT);
    in.move_x = 0;
    in.look_zoom = INFINITY;
    CHECK_EQ_INT(gait_replay_recorder_input(rec, a, &in), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_recorder_end_frame(rec, -1), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_recorder_end_frame(rec, NAN), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_recorder_frame_count(rec), 0);
    CHECK_EQ_INT(gait_replay_recorder_set_meta(rec, "two words", "v"), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_recorder_set_meta(rec, "k", "line\nbreak"), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_recorder_set_meta(rec, "", "v"), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_recorder_set_meta(rec, NULL, "v"), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_recorder_save(rec, "/nonexistent-dir/x.replay"), GAIT_ERR_IO);
    CHECK(strstr(gait_replay_recorder_last_error(rec), "/nonexistent-dir/x.replay") != NULL);
    CHECK_EQ_INT(gait_replay_recorder_save(rec, NULL), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_recorder_truncate(rec, -1), GAIT_ERR_INVALID_ARGUMENT);
    gait_replay_recorder_destroy(rec);
    CHECK(gait_replay_recorder_create(NULL, "two\nlines") == NULL);
    /* NULLs everywhere are refused, never a crash */
    CHECK_EQ_INT(gait_replay_recorder_input(NULL, a, &in), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_recorder_end_frame(NULL, 0), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_player_next(NULL, NULL, NULL), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_player_play(NULL, NULL, NULL), GAIT_ERR_INVALID_ARGUMENT);
    CHECK_EQ_INT(gait_replay_player_open(NULL, NULL, NULL, NULL, 0), GAIT_ERR_INVALID_ARGUMENT);
    gait_replay_recorder_destroy(NULL);
    gait_replay_player_destroy(NULL);
    CHECK_EQ_INT(gait_replay_player_frame_count(NULL), 0);
}

/* Malformed files: each is refused with FORMAT and a message naming the file and the line. */
static const struct bad_file {
    const char *name, *text, *says;
    int line;
} bad_files[] = {
    {"empty", "", "not a gait replay", 1},
    {"other_magic", "PK\x03\x04 zip\n", "not a gait replay", 1},
    {"version_2", "gait-replay 2\nworld w\nframes 0\nend\n", "version 2", 1},
    {"no_world", "gait-replay 1\nframes 0\nend\n", "no \"world\"", 2},
    {"unknown_header", "gait-replay 1\nworld w\ncolour blue\nframes 0\nend\n", "unknown header", 3},
    {"character_zero", "gait-replay 1\nworld w\ncharacter 0 0\nframes 0\nend\n", "INDEX1", 3},
    {"character_negative", "gait-replay 1\nworld w\ncharacter -3 0\nframes 0\nend\n", "INDEX1", 3},
    {"character_twice", "gait-replay 1\nworld w\ncharacter 1 0\ncharacter 1 0\nframes 0\nend\n", "twice", 4},
    {"frames_word", "gait-replay 1\nworld w\nframes many\nend\n", "frames N", 3},
    {"frames_huge", "gait-replay 1\nworld w\nframes 99999999999999999999\nend\n", "frames N", 3},
    {"frames_lie", "gait-replay 1\nworld w\ncharacter 1 0\nframes 5\nf 0.1 0\nf 0.1 0\nend\n", "frame 3", 7},
    {"nan_seconds", "gait-replay 1\nworld w\nframes 1\nf nan 0\nend\n", "seconds", 4},
    {"inf_seconds", "gait-replay 1\nworld w\nframes 1\nf inf 0\nend\n", "seconds", 4},
    {"negative_seconds", "gait-replay 1\nworld w\nframes 1\nf -0.5 0\nend\n", "seconds", 4},
    {"input_count_lies", "gait-replay 1\nworld w\ncharacter 1 0\nframes 1\nf 0.1 2\ni 1 0 0 0 0 0 0 0 0\nend\n", "\"i ...\"", 7},
    {"unknown_character", "gait-replay 1\nworld w\ncharacter 1 0\nframes 1\nf 0.1 1\ni 2 0 0 0 0 0 0 0 0\nend\n", "does not name", 6},
    {"nan_move", "gait-replay 1\nworld w\ncharacter 1 0\nframes 1\nf 0.1 1\ni 1 0 nan 0 0 0 0 0 0\nend\n", "finite", 6},
    {"short_input", "gait-replay 1\nworld w\ncharacter 1 0\nframes 1\nf 0.1 1\ni 1 0 0 0\nend\n", "finite", 6},
    {"negative_buttons", "gait-replay 1\nworld w\ncharacter 1 0\nframes 1\nf 0.1 1\ni 1 0 0 0 0 0 0 -1 0\nend\n", "finite", 6},
    {"trailing_junk", "gait-replay 1\nworld w\nframes 1\nf 0.1 0 extra\nend\n", "seconds", 4},
    {"no_end", "gait-replay 1\nworld w\nframes 1\nf 0.1 0\n", "no \"end\"", 4},
    {"more_frames_than_declared", "gait-replay 1\nworld w\nframes 1\nf 0.1 0\nf 0.1 0\nend\n", "\"end\" expected", 5},
    {"nul_byte", "gait-replay 1\nworld w\0x\nframes 0\nend\n", "longer than", 2},
};
#define BAD_FILES ((int)(sizeof bad_files / sizeof bad_files[0]))

static void bad_file_case(int i) {
    const struct bad_file *b = &bad_files[i];
    char path[256];
    tmp_path(path, sizeof path, b->name);
    FILE *f = fopen(path, "wb");
    size_t len = strlen(b->text);
    if (strcmp(b->name, "nul_byte") == 0) len = 37; /* the text holds a NUL: 37 bytes in all */
    fwrite(b->text, 1, len, f);
    fclose(f);
    gait_replay_player *p = (gait_replay_player *)(uintptr_t)1;
    char err[512] = "";
    gait_status s = gait_replay_player_open(path, NULL, &p, err, sizeof err);
    CHECK_MSG(s == GAIT_ERR_FORMAT, "%s: status %s, message %s", b->name, gait_status_string(s), err);
    CHECK(p == NULL);
    char where[300];
    snprintf(where, sizeof where, "%s:%d:", path, b->line);
    CHECK_MSG(strstr(err, where) != NULL, "%s: \"%s\" does not start with %s", b->name, err, where);
    CHECK_MSG(strstr(err, b->says) != NULL, "%s: \"%s\" does not say %s", b->name, err, b->says);
    unlink(path);
}

__attribute__((constructor)) static void register_bad_files(void) {
    for (int i = 0; i < BAD_FILES; i++) check_register_case(bad_files[i].name, bad_file_case, i);
}

TEST(replay_missing_file_names_it) {
    gait_replay_player *p = NULL;
    char err[512] = "";
    CHECK_EQ_INT(gait_replay_player_open("/nonexistent/run.replay", NULL, &p, err, sizeof err), GAIT_ERR_IO);
    CHECK(strstr(err, "/nonexistent/run.replay") != NULL);
    CHECK_EQ_INT(gait_replay_player_open("/tmp", NULL, &p, err, sizeof err) != GAIT_OK, 1);
    CHECK(strstr(err, "/tmp") != NULL);
}

/* ---- the CLI: gait run --record at 144 fps, gait replay, the same hash ---------------------- */

static const char *hash_line(const char *out) { return strstr(out, "state hash: "); }

TEST(cli_record_at_144_fps_and_replay_give_the_same_hash) {
    char gait[1100];
    if (!cli_gait_path(gait, sizeof gait)) return;
    char path[256], cmd[2048], out1[8192], out2[8192];
    tmp_path(path, sizeof path, "cli.replay");
    /* a walk with the sword kit; kits that move the body and gadgets */
    static const char *const scenarios[] = {"tests/replays/scenario_kit_walk.lua",
                                            "tests/replays/scenario_kit_motion.lua"};
    for (int k = 0; k < 2; k++) {
        snprintf(cmd, sizeof cmd, "%s run %s --fps 144 --record %s 2>&1", gait, scenarios[k], path);
        CHECK_EQ_INT(cli_run_capture(cmd, out1, sizeof out1), 0);
        snprintf(cmd, sizeof cmd, "%s replay %s 2>&1", gait, path);
        CHECK_EQ_INT(cli_run_capture(cmd, out2, sizeof out2), 0);
        const char *h1 = hash_line(out1), *h2 = hash_line(out2);
        CHECK_MSG(h1 && h2 && strncmp(h1, h2, 28) == 0, "%s: record said \"%s\", replay said \"%s\"",
                  scenarios[k], out1, out2);
    }
    /* a malformed replay: a clear error naming the file, exit non-zero */
    FILE *f = fopen(path, "w");
    fputs("gait-replay 1\nworld tests/replays/scenario_kit_walk.lua\nframes 3\nf 0.1 0\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s replay %s 2>&1", gait, path);
    int rc = cli_run_capture(cmd, out2, sizeof out2);
    CHECK(rc != 0);
    CHECK_MSG(strstr(out2, path) != NULL, "the error does not name the file: %s", out2);
    unlink(path);
}
