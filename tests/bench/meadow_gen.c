/* Writes a benchmark scene (format meadow-v1): PREFIX.bin + PREFIX.json, so peers in other
 * languages read the very scene gait's benchmarks use.
 *   build/bench/meadow_gen [--chars N] [--out PREFIX]                  the meadow (runtime/cli/scene_meadow.h)
 *   build/bench/meadow_gen --level [--seed S] [--chars N] [--out PREFIX]  a level with no terrain
 *                                                                       (runtime/cli/scene_level.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEADOW_IMPLEMENTATION
#include "scene_meadow.h"
#include "scene_level.h"

int main(int argc, char **argv) {
    int chars = 1000, level = 0;
    unsigned long seed = LEVEL_SEED;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--chars") && i + 1 < argc) chars = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--level")) level = 1;
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: %s [--level [--seed S]] [--chars N] [--out PREFIX]\n", argv[0]);
            return 2;
        }
    }
    if (!out) out = level ? "level" : "meadow";
    meadow_scene s;
    char err[512];
    int rc = level ? level_generate(&s, chars, (uint32_t)seed, err, sizeof err) : meadow_generate(&s, chars, err, sizeof err);
    if (rc || meadow_write(&s, out, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("wrote %s.bin (%d triangles) and %s.json (%d characters)\n", out, s.num_triangles, out, chars);
    meadow_free(&s);
    return 0;
}
