/* Forged replays: a replay file is content (shared, downloaded). Whatever it says, loading and
 * playing it ends: refused with "file:line: reason", or played to a world whose every value is
 * still in range (a snapshot of it restores). What is new beside test_replay.c's malformed files:
 *   - counts that lie cost no memory the file does not hold;
 *   - frames of ages (1e300 s), looks and moves of 1e300 play and leave a world in range;
 *   - random characters anywhere in an honest replay: refused or played in range;
 *   - the CLI (`gait replay`) on forged files of both hosts: each ends, none hangs. */
#include "check.h"
#include "cli_fixtures.h"

#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "body_fixtures.h"
#include "state_fixtures.h"
#include "character/layouts.h"
#include "character/world_internal.h"
#include "gait/replay.h"

#define DT (1.0 / 60.0)

static gait_world *fixture(void) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = 4;
    gait_world *w = gait_world_create(&wd);
    bw_flat(w);
    bw_box(w, -1, 0, 5, 1, 1.0, 6);
    gait_water_region water = {10, 10, 30, 30, 2.0};
    gait_collider_add_water(gait_world_collider(w), &water, NULL);
    bw_spawn(w, 0, 0, 0, -1);
    bw_spawn(w, 20, 3, 20, -1);
    return w;
}

/* An honest replay of both characters: 120 frames at 60 fps, walking, jumping, turning. */
static char *honest_text(size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *t = malloc(cap);
    n += (size_t)snprintf(t + n, cap - n, "gait-replay 1\nworld w\nmeta fps 60\ncharacter 1 0\n"
                          "character 2 0\nframes 120\n");
    for (int k = 0; k < 120; k++) {
        n += (size_t)snprintf(t + n, cap - n, "f %a 2\n", DT);
        n += (size_t)snprintf(t + n, cap - n, "i 1 0 %a %a %a 0 0 %u %u\n", 0.3 * sin(k * 0.1), 1.0,
                              0.01, k > 50 ? 2u : 0u, k % 40 == 10 ? 1u : 0u);
        n += (size_t)snprintf(t + n, cap - n, "i 2 0 1 0.5 0 0 0 0 0\n");
    }
    n += (size_t)snprintf(t + n, cap - n, "end\n");
    *len = n;
    return t;
}

/* Opens the text and plays it into a fresh fixture: GAIT_OK and a world in range, or a refusal
 * naming "name:line:". */
static gait_status open_and_play(const char *text, size_t len, const char *name, char *why,
                                 size_t cap) {
    gait_replay_player *p = NULL;
    char err[600] = "";
    gait_status s = gait_replay_player_open_buffer(text, len, name, NULL, &p, err, sizeof err);
    if (s != GAIT_OK) {
        CHECK_MSG(p == NULL, "%s: a refused replay gave a player", name);
        char where[64];
        snprintf(where, sizeof where, "%s:", name);
        CHECK_MSG(strncmp(err, where, strlen(where)) == 0, "%s: the refusal does not name the "
                  "file and line: %s", name, err);
        snprintf(why, cap, "%s", err);
        return s;
    }
    gait_world *w = fixture();
    uint64_t hash = 0;
    s = gait_replay_player_play(p, w, &hash);
    if (s == GAIT_OK) {
        CHECK_MSG(world_in_range(w, why, cap), "%s played, and then: %s", name, why);
    } else {
        snprintf(why, cap, "%s", gait_replay_player_last_error(p));
    }
    gait_replay_player_destroy(p);
    gait_world_destroy(w);
    return s;
}

/* The text (len bytes) opens and plays into a fresh fixture in range; else the failure says why. */
#define CHECK_PLAYS(text, len, name)                                                        \
    do {                                                                                    \
        char why_[600] = "";                                                                \
        CHECK_MSG(open_and_play(text, len, name, why_, sizeof why_) == GAIT_OK, "%s", why_); \
    } while (0)

TEST(an_honest_replay_plays_in_range) {
    size_t len;
    char *t = honest_text(&len);
    CHECK_PLAYS(t, len, "honest");
    free(t);
}

/* Frames of ages: each runs the cap of steps, the clock's leftover stays below a step. */
TEST(frames_of_ages_play_and_leave_the_clock_in_range) {
    const char *text = "gait-replay 1\nworld w\ncharacter 1 0\nframes 3\n"
                       "f 0x1.7e43c8800759cp+996 1\ni 1 0 0 1 0 0 0 0 1\n"
                       "f 0x1.fffffffffffffp+1023 0\n"
                       "f 0x0.0000000000001p-1022 0\nend\n";
    CHECK_PLAYS(text, strlen(text), "ages");
    /* the same frames straight into a world: each returns with the cap's steps */
    gait_world *w = fixture();
    int steps = 0;
    CHECK_EQ_INT(gait_world_update(w, 1e300, &steps), GAIT_OK);
    CHECK_EQ_INT(steps, 8);
    CHECK_EQ_INT(gait_world_update(w, DBL_MAX, &steps), GAIT_OK);
    CHECK_EQ_INT(steps, 8);
    const gait_clock *c = gait_world_clock(w);
    CHECK(c->accumulator >= 0 && c->accumulator < c->step_seconds);
    CHECK(c->dropped_steps == UINT64_MAX);
    char why[600] = "";
    CHECK_MSG(world_in_range(w, why, sizeof why), "%s", why);
    gait_world_destroy(w);
}

/* Looks and moves of 1e300: clamped by set_input, the camera's yaw wrapped. */
TEST(huge_looks_and_moves_play_in_range) {
    const char *text = "gait-replay 1\nworld w\ncharacter 1 0\ncharacter 2 0\nframes 2\n"
                       "f 0x1.1111111111111p-6 2\ni 1 0 1e300 -1e300 1e300 -1e300 1e300 4294967295 4294967295\n"
                       "i 2 0 -1e300 1e300 -1e300 1e300 -1e300 0 255\n"
                       "f 0x1.1111111111111p-6 1\ni 1 0 0 0 1.7976931348623157e308 0 -1.7976931348623157e308 0 0\nend\n";
    CHECK_PLAYS(text, strlen(text), "huge");
}

/* A count that lies: a frame claiming 262144 inputs, a header claiming 1e8 frames. Refused, and
 * what was allocated is the size of what the file holds, not of what it claims. */
static size_t alloc_peak, alloc_now;
static void *count_alloc(size_t n, void *user) {
    (void)user;
    alloc_now += n;
    if (alloc_now > alloc_peak) alloc_peak = alloc_now;
    return calloc(1, n);
}
static void count_free(void *p, size_t n, void *user) {
    (void)user;
    if (p) alloc_now -= n;
    free(p);
}

TEST(lying_counts_cost_no_memory) {
    gait_hooks h;
    memset(&h, 0, sizeof h);
    h.alloc = count_alloc;
    h.free = count_free;
    const char *lies[] = {
        "gait-replay 1\nworld w\ncharacter 1 0\nframes 1\nf 0 262144\ni 1 0 0 0 0 0 0 0 0\nend\n",
        "gait-replay 1\nworld w\ncharacter 1 0\nframes 100000000\nf 0 0\nend\n",
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        alloc_peak = alloc_now = 0;
        gait_replay_player *p = NULL;
        char err[600] = "";
        CHECK_EQ_INT(gait_replay_player_open_buffer(lies[i], strlen(lies[i]), "lie", &h, &p, err,
                                                    sizeof err), GAIT_ERR_FORMAT);
        CHECK_EQ_INT(alloc_now, 0);
        /* the player and a first block of frames and inputs: about 1 MB (the player's header
         * holds 4096 ids and 64 meta pairs); the lie alone would be 19 MB */
        CHECK_MSG(alloc_peak < (size_t)2 << 20, "case %zu: %zu bytes allocated for a %zu-byte file",
                  i, alloc_peak, strlen(lies[i]));
    }
}

/* Random characters written over an honest replay: each refused with its file and line, or
 * played to a world in range. */
static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rng(void) { return splitmix(&rng_state); }

TEST(random_characters_are_refused_or_play_in_range) {
    size_t len;
    char *honest = honest_text(&len), *t = malloc(len);
    static const char alphabet[] = "0123456789 \n-+.xpaefin\t\0";
    int refused = 0, played = 0;
    for (int n = 0; n < 300; n++) {
        memcpy(t, honest, len);
        int edits = 1 + (int)(rng() % 3);
        for (int e = 0; e < edits; e++)
            t[rng() % len] = alphabet[rng() % (sizeof alphabet - 1)];
        char why[600] = "";
        if (open_and_play(t, len, "mutant", why, sizeof why) == GAIT_OK) played++;
        else refused++;
    }
    printf("  random characters: %d refused, %d played in range\n", refused, played);
    CHECK(refused > 0 && played > 0);
    free(t);
    free(honest);
}

/* ---- the CLI ----------------------------------------------------------------------------------- */

/* Forged replays through `gait replay` (the scenario host and the sandbox host): each ends on its
 * own within the time limit, with the exit and the words expected. */
TEST(cli_forged_replays_end) {
    char gait[1100];
    if (!cli_gait_path(gait, sizeof gait)) return;
#define SCEN "world tests/replays/scenario_kit_walk.lua\n"
#define AGES "0x1.7e43c8800759bp+996" /* 1 / 1e-300 s: what --fps 1e-300 gives */
    static const struct { const char *name, *text, *says; int exit; } cases[] = {
        {"frames_of_ages", "gait-replay 1\n" SCEN "meta fps 1e-300\ncharacter 1 0\nframes 2\nf " AGES
         " 0\nf " AGES " 0\nend\n", "more frames than the 2 recorded", 1},
        {"fps_zero", "gait-replay 1\n" SCEN "meta fps 0\nframes 1\nf 0 0\nend\n", "fps in (0, 100000]", 1},
        {"steps_infinite", "gait-replay 1\n" SCEN "meta steps inf\nframes 1\nf 0x1.1111111111111p-6 0\nend\n",
         "more frames than the 1 recorded", 1},
        {"count_lie", "gait-replay 1\n" SCEN "character 1 0\nframes 1\nf 0 262144\ni 1 0 0 0 0 0 0 0 0\nend\n",
         "input 2 of 262144", 1},
        {"sandbox_frames_of_ages", "gait-replay 1\nworld scripts/worlds/default.lua\nmeta host sandbox\n"
         "character 1 0\nframes 3\nf " AGES " 0\nf " AGES " 1\ni 1 0 0 1 1e300 0 0 0 1\nf " AGES " 0\nend\n",
         "replayed 3 frames", 0},
        {"sandbox_place_nan", "gait-replay 1\nworld scripts/worlds/default.lua\nmeta host sandbox\n"
         "meta place nan,0,0,0\ncharacter 1 0\nframes 1\nf 0 0\nend\n", "cannot place the player", 1},
        {"sandbox_place_far", "gait-replay 1\nworld scripts/worlds/default.lua\nmeta host sandbox\n"
         "meta place 1e300,0,0,0\ncharacter 1 0\nframes 1\nf 0 0\nend\n", "cannot place the player", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[256], cmd[1600], out[8192];
        snprintf(path, sizeof path, "/tmp/gait_forged_%d_%s.replay", (int)getpid(), cases[i].name);
        FILE *f = fopen(path, "w");
        fputs(cases[i].text, f);
        fclose(f);
        snprintf(cmd, sizeof cmd, "timeout 60 %s replay %s 2>&1", gait, path);
        int rc = cli_run_capture(cmd, out, sizeof out);
        int code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
        CHECK_MSG(code == cases[i].exit, "%s: exit %d (wanted %d): %s", cases[i].name, code,
                  cases[i].exit, out);
        CHECK_MSG(strstr(out, cases[i].says) != NULL, "%s: the output does not say \"%s\": %s",
                  cases[i].name, cases[i].says, out);
        unlink(path);
    }
}
