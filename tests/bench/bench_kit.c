/* bench_kit: what a Lua kit hook costs per character-step.
 *
 * A host world with N characters standing on flat ground, every one with a kit; each frame runs
 * the kits (gait_script_before_step: one protected Lua call per character, budget hook set and
 * cleared, the presses userdata read) and then one fixed step. Three kits:
 *   none   no kit: the step alone (the baseline)
 *   empty  on_presses does nothing: the price of the call itself
 *   sword  scripts/kits/sword.lua with no press (reads presses, state and ch:state())
 *   jump   no kit: the host presses jump every frame (the bodies hop: the air's own cost)
 * and kits that move the body (gait/motion.h), each character always in the motion:
 *   launch   launches the body up whenever it stands on the ground (ch:launch, then the air)
 *   move     keeps a keyframed moving action playing (ch:start_move whenever none plays; the
 *            step moves the body by the action through the mover)
 *   fn       the same driven by a Lua function of time (the step calls it once a step)
 * Printed: ns per character per frame for the kit call alone (before_step timed on its own) and
 * for kit + step; and what a motion kit costs per character-step beyond the empty kit (today's
 * kit hook): kit + step, and the kit call alone. Kit functions run with the JIT off (so the instruction budget can stop an
 * endless loop): this is the interpreted cost.
 *
 * The machine is shared and noisy: each kit runs --repeat times, interleaved with the others,
 * and the fastest run of each is printed.
 *
 *   bench_kit [--characters N] [--frames F] [--repeat R] [--root DIR]   (defaults 64, 2000, 3, .)
 *             [--only KIT]   one kit alone (none, empty, sword, jump, launch, move, fn), e.g.
 *                            under valgrind --tool=callgrind to count instructions */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gait/gait.h"
#include "gait/script.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static gait_world *flat_world(int n) {
    gait_world_def d = gait_default_world_def();
    d.max_characters = n;
    gait_world *w = gait_world_create(&d);
    if (!w) return NULL;
    float h[4] = {0, 0, 0, 0};
    gait_heightfield_def t;
    memset(&t, 0, sizeof t);
    t.samples_x = t.samples_z = 2;
    t.cell_size = 400;
    t.origin.x = t.origin.z = -200;
    t.heights = h;
    gait_collider_set_terrain(gait_world_collider(w), &t);
    for (int i = 0; i < n; i++) {
        gait_character_def cd = gait_default_character_def();
        cd.position.x = (i % 16) * 3.0 - 24;
        cd.position.z = (i / 16) * 3.0 - 24;
        gait_character_id id;
        gait_character_create(w, &cd, &id);
    }
    return w;
}

typedef struct result { double kit_ns, total_ns; } result;

/* The host's own presses for the "jump" reference: every character presses jump each frame (a
 * body on the ground jumps), the same hop as the launch kit's, with no kit. */
static void press_jump(gait_world *w, int n) {
    gait_input in;
    memset(&in, 0, sizeof in);
    in.pressed = GAIT_BUTTON_JUMP;
    for (int i = 1; i <= n; i++) {
        gait_character_id id = {i, 0};
        gait_character_set_input(w, id, &in);
    }
}

static int run(const char *root, const char *kit, int n, int frames, result *out) {
    bool jump = kit && strcmp(kit, "jump") == 0; /* no kit: the host presses jump */
    if (jump) kit = NULL;
    gait_world *w = flat_world(n);
    if (!w) return -1;
    gait_script_def sd = gait_default_script_def();
    sd.world = w;
    sd.root = root;
    gait_script *s = gait_script_create(&sd);
    if (!s) {
        gait_world_destroy(w);
        return -1;
    }
    if (kit) {
        for (int i = 1; i <= n; i++) {
            gait_character_id id = {i, 0};
            if (gait_script_set_kit(s, id, kit) != GAIT_OK) {
                fprintf(stderr, "bench_kit: %s\n", gait_script_last_error(s));
                gait_script_destroy(s);
                gait_world_destroy(w);
                return -1;
            }
        }
    }
    const double dt = 1.0 / 60;
    for (int f = 0; f < 100; f++) { /* warm up */
        if (jump) press_jump(w, n);
        gait_script_before_step(s, dt);
        gait_world_step(w);
    }
    double kit_s = 0, t0 = now_s();
    for (int f = 0; f < frames; f++) {
        double k0 = now_s();
        if (jump) press_jump(w, n);
        gait_script_before_step(s, dt);
        kit_s += now_s() - k0;
        gait_world_step(w);
    }
    double total = now_s() - t0;
    double per = 1e9 / ((double)frames * n);
    out->kit_ns = kit_s * per;
    out->total_ns = total * per;
    int errors = (int)gait_script_error_count(s);
    gait_script_destroy(s);
    gait_world_destroy(w);
    return errors ? -1 : 0;
}

int main(int argc, char **argv) {
    int n = 64, frames = 2000, repeat = 3;
    const char *root = ".", *only = NULL; /* --only KIT: that kit alone (for callgrind) */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--characters") == 0 && i + 1 < argc) n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) root = argv[++i];
        else {
            fprintf(stderr, "usage: bench_kit [--characters N] [--frames F] [--repeat R] [--root DIR] [--only KIT]\n");
            return 2;
        }
    }
    if (n < 1 || n > 4096 || frames < 1 || repeat < 1 || repeat > 100) {
        fprintf(stderr, "bench_kit: characters in 1..4096, frames >= 1, repeat in 1..100\n");
        return 2;
    }
    /* the kits as files (a kit is content: a file, as a game ships it) */
    static const char *const texts[] = {
        "return {on_presses = function(ch, presses, state) end}\n",
        /* launch: up 6 m/s whenever it stands (a hop of 0.9 m, about 0.6 s a cycle) */
        "return {on_presses = function(ch, presses, state)\n"
        "  if ch:state() == 'idle' then ch:launch{up = 6} end\n"
        "end}\n",
        /* move: a keyframed rise and fall, started again whenever none plays */
        "local keys = {{0, 0, 4, 0}, {0.4, 0, -4, 0}}\n"
        "return {on_presses = function(ch, presses, state)\n"
        "  if ch:state() ~= 'action' then ch:start_move{keys = keys, seconds = 0.8} end\n"
        "end}\n",
        /* fn: the same rise and fall from a Lua function of time */
        "local function f(ch, t) if t < 0.4 then return 0, 4, 0 end return 0, -4, 0 end\n"
        "return {on_presses = function(ch, presses, state)\n"
        "  if ch:state() ~= 'action' then ch:start_move{fn = f, seconds = 0.8} end\n"
        "end}\n",
    };
    enum { TEXTS = 4 };
    char paths[TEXTS][40];
    for (int k = 0; k < TEXTS; k++) {
        snprintf(paths[k], sizeof paths[k], "/tmp/gait_bench_kit_XXXXXX.lua");
        int fd = mkstemps(paths[k], 4);
        if (fd < 0) return 1;
        if (write(fd, texts[k], strlen(texts[k])) < 0) return 1;
        close(fd);
    }

    enum { KITS = 7 };
    const char *names[KITS] = {"none", "empty", "sword", "jump", "launch", "move", "fn"};
    const char *kits[KITS] = {NULL, paths[0], "sword", "jump", paths[1], paths[2], paths[3]};
    result r[KITS];
    bool ok[KITS];
    int status = 0;
    printf("bench_kit: %d characters, %d frames, one step a frame, best of %d\n", n, frames, repeat);
    printf("%-8s %22s %26s\n", "kit", "kit call (ns/char)", "kit + step (ns/char/step)");
    for (int k = 0; k < KITS; k++) ok[k] = !only || strcmp(only, names[k]) == 0;
    for (int rep = 0; rep < repeat; rep++)
        for (int k = 0; k < KITS; k++) {
            result one = {0, 0};
            if (!ok[k]) continue;
            ok[k] = run(root, kits[k], n, frames, &one) == 0;
            if (rep == 0 || one.kit_ns < r[k].kit_ns) r[k].kit_ns = one.kit_ns;
            if (rep == 0 || one.total_ns < r[k].total_ns) r[k].total_ns = one.total_ns;
        }
    for (int k = 0; k < KITS; k++) {
        if (only && strcmp(only, names[k]) != 0) continue;
        if (!ok[k]) {
            printf("%-8s failed\n", names[k]);
            status = 1;
            continue;
        }
        printf("%-8s %22.0f %26.0f\n", names[k], r[k].kit_ns, r[k].total_ns);
    }
    for (int k = 0; k < TEXTS; k++) unlink(paths[k]);
    if (ok[1] && ok[2])
        printf("kit hook cost per character-step: %.2f us (empty kit), %.2f us (sword kit)\n",
               r[1].kit_ns / 1000, r[2].kit_ns / 1000);
    /* today's kit hook is the empty kit's cost (empty - none); a body in the air costs its move
     * whoever put it there (jump - none: the same hop pressed by the host, no kit). A kit that
     * moves the body, beyond both: what the kit's motion itself adds. */
    for (int k = 4; k < KITS; k++)
        if (ok[0] && ok[1] && ok[3] && ok[k])
            printf("%s kit beyond today's kit hook and the air's own move: %+.2f us per "
                   "character-step (raw, beyond the empty kit: %+.2f us)\n", names[k],
                   (r[k].total_ns - r[1].total_ns - (r[3].total_ns - r[0].total_ns)) / 1000,
                   (r[k].total_ns - r[1].total_ns) / 1000);
    return status;
}
