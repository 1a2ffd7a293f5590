/* bench_kit: what a Lua kit hook costs per character-step.
 *
 * A host world with N characters standing on flat ground, every one with a kit; each frame runs
 * the kits (gait_script_before_step: one protected Lua call per character, budget hook set and
 * cleared, the presses userdata read) and then one fixed step. Three kits:
 *   none   no kit: the step alone (the baseline)
 *   empty  on_presses does nothing: the price of the call itself
 *   sword  scripts/kits/sword.lua with no press (reads presses, state and ch:state())
 * Printed: ns per character per frame for the kit call alone (before_step timed on its own) and
 * for kit + step. Kit functions run with the JIT off (so the instruction budget can stop an
 * endless loop): this is the interpreted cost.
 *
 *   bench_kit [--characters N] [--frames F] [--root DIR]     (defaults 64, 2000, .) */
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

static int run(const char *root, const char *kit, int n, int frames, result *out) {
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
        gait_script_before_step(s, dt);
        gait_world_step(w);
    }
    double kit_s = 0, t0 = now_s();
    for (int f = 0; f < frames; f++) {
        double k0 = now_s();
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
    int n = 64, frames = 2000;
    const char *root = ".";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--characters") == 0 && i + 1 < argc) n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) root = argv[++i];
        else {
            fprintf(stderr, "usage: bench_kit [--characters N] [--frames F] [--root DIR]\n");
            return 2;
        }
    }
    if (n < 1 || n > 4096 || frames < 1) {
        fprintf(stderr, "bench_kit: characters in 1..4096, frames >= 1\n");
        return 2;
    }
    char empty[] = "/tmp/gait_bench_kit_XXXXXX.lua";
    int fd = mkstemps(empty, 4);
    if (fd < 0) return 1;
    const char *text = "return {on_presses = function(ch, presses, state) end}\n";
    if (write(fd, text, strlen(text)) < 0) return 1;
    close(fd);

    const char *names[3] = {"none", "empty", "sword"};
    const char *kits[3] = {NULL, empty, "sword"};
    result r[3];
    int status = 0;
    printf("bench_kit: %d characters, %d frames, one step a frame\n", n, frames);
    printf("%-8s %22s %26s\n", "kit", "kit call (ns/char)", "kit + step (ns/char/step)");
    for (int k = 0; k < 3; k++) {
        if (run(root, kits[k], n, frames, &r[k]) != 0) {
            printf("%-8s failed\n", names[k]);
            status = 1;
            continue;
        }
        printf("%-8s %22.0f %26.0f\n", names[k], r[k].kit_ns, r[k].total_ns);
    }
    unlink(empty);
    if (!status)
        printf("kit hook cost per character-step: %.2f us (empty kit), %.2f us (sword kit)\n",
               r[1].kit_ns / 1000, r[2].kit_ns / 1000);
    return status;
}
