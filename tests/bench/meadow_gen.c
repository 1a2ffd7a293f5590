/* Writes the meadow benchmark scene: build/bench/meadow_gen [--chars N] [--out PREFIX]
 * (PREFIX.bin + PREFIX.json, format meadow-v1), so peers in other languages read the very
 * scene gait's benchmarks use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEADOW_IMPLEMENTATION
#include "meadow.h"

int main(int argc, char **argv) {
    int chars = 1000;
    const char *out = "meadow";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--chars") && i + 1 < argc) chars = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--chars N] [--out PREFIX]\n", argv[0]);
            return 2;
        }
    }
    meadow_scene s;
    char err[512];
    if (meadow_generate(&s, chars, err, sizeof err) || meadow_write(&s, out, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("wrote %s.bin (%d triangles) and %s.json (%d characters)\n", out, s.num_triangles, out, chars);
    meadow_free(&s);
    return 0;
}
