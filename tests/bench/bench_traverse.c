/* bench_traverse: what one traversal scan costs (docs/behaviour.md, "Traversal"), in µs.
 *
 * A 128 m flat terrain with a field of 400 boxes (fences, walls, blocks, one house-like mesh)
 * so the queries cull like a level would. Cases, each scanned from many points and headings:
 *   open    nothing within reach: one forward sweep and out (the cost of holding jump in a field)
 *   fence   a 1 m x 0.3 m fence with a floor behind: the whole pipeline (sweeps, ledge, side
 *           probes, depth, room, floor behind)
 *   block   a 1.5 m high, 3 m deep block: a mantle (reverse trace finds nothing: thick)
 *   wall    a 3.5 m wall: forward sweep, ledge trace misses (too high)
 * The same four cases again with each obstacle alone ("alone/..."): the field's numbers are
 * mostly the collider's grid walk (about 2/3 of the time under perf), the alone ones the scan's.
 * Printed: µs per scan (mean over the runs), sweeps and rays per scan. The scan allocates
 * nothing (checked with a counting allocator).
 *
 *   bench_traverse [--scans N]     (default 20000 per case) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "body_fixtures.h" /* bw_world (counting allocations), bw_flat, bw_box */

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct bench_case {
    const char *name;
    double x, z;          /* where the scans start (the obstacle is 1.4 m ahead, +z) */
} bench_case;

int main(int argc, char **argv) {
    int scans = 20000;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--scans") == 0 && i + 1 < argc) scans = atoi(argv[++i]);
    if (scans < 1) scans = 1;

    alloc_count cnt; /* shared by both worlds: only the change over a case's scans counts */
    gait_world *w = bw_world(&cnt);
    if (!w) return 1;
    bw_flat(w);
    /* the field: 400 boxes on a 20 x 20 grid, 5 m apart, of mixed sizes (deterministic) */
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 20; j++) {
            double x = -50 + i * 5, z = -50 + j * 5;
            int k = (i * 7 + j * 3) % 4;
            if (k == 0) bw_box(w, x, 0, z, x + 3, 1.0, z + 0.3);       /* fence */
            else if (k == 1) bw_box(w, x, 0, z, x + 3, 1.5, z + 3);    /* block */
            else if (k == 2) bw_box(w, x, 0, z, x + 3, 3.5, z + 1);    /* wall */
            else bw_box(w, x, 0, z, x + 1, 0.5, z + 1);                /* crate */
        }
    /* the same obstacles alone (a sparse level): one of each, far apart */
    gait_world *w2 = bw_world(&cnt);
    if (!w2) return 1;
    bw_flat(w2);
    bw_box(w2, -30, 0, 0, -27, 1.0, 0.3);
    bw_box(w2, 0, 0, 0, 3, 1.5, 3);
    bw_box(w2, 30, 0, 0, 33, 3.5, 1);
    bench_case alone[4] = {{"open", 0, 40}, {"fence", -28.5, -1.4}, {"block", 1.5, -1.4},
                           {"wall", 31.5, -1.4}};
    const gait_collider *col = gait_world_collider_const(w);
    /* the cases stand 1.4 m before a box of their kind at (i, j) = (10, *) */
    bench_case cases[4] = {{"open", 58, 58}, {"fence", 0, 0}, {"block", 0, 0}, {"wall", 0, 0}};
    for (int j = 0; j < 20; j++) {
        int k = (10 * 7 + j * 3) % 4;
        double x = -50 + 10 * 5 + 1.5, z = -50 + j * 5 - 1.4;
        if (k == 0) { cases[1].x = x; cases[1].z = z; }
        if (k == 1) { cases[2].x = x; cases[2].z = z; }
        if (k == 2) { cases[3].x = x; cases[3].z = z; }
    }
    gait_traverse_query q = gait_traverse_default_query(gait_world_traverse_table(w),
                                                        gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE));
    printf("%-14s %10s %8s %8s %6s  %s\n", "case", "us/scan", "sweeps", "rays", "ok", "reason");
    int status = 0;
    for (int c = 0; c < 8; c++) {
        const bench_case *bc = c < 4 ? &cases[c] : &alone[c - 4];
        const gait_collider *cl = c < 4 ? col : gait_world_collider_const(w2);
        char label[32];
        snprintf(label, sizeof label, "%s/%s", c < 4 ? "field" : "alone", bc->name);
        gait_traverse_scan s;
        long sweeps = 0, rays = 0, oks = 0;
        const char *reason = "";
        long a0 = cnt.allocs;
        double t0 = now_s();
        for (int i = 0; i < scans; i++) {
            /* small spread of start points and headings (+-15 deg) so no two scans are alike */
            double u = (double)(i % 101) / 100.0 - 0.5, v = (double)(i % 37) / 36.0 - 0.5;
            q.feet.x = bc->x + 0.6 * u;
            q.feet.y = 0;
            q.feet.z = bc->z + 0.2 * v;
            double yaw = 0.26 * v;
            q.forward.x = sin(yaw);
            q.forward.y = 0;
            q.forward.z = cos(yaw);
            q.speed = 5.6;
            gait_traverse_scan_run(cl, &q, NULL, &s);
            sweeps += s.sweeps;
            rays += s.rays;
            oks += s.ok;
            reason = s.reason;
        }
        double us = (now_s() - t0) * 1e6 / scans;
        printf("%-14s %10.2f %8.1f %8.1f %5.0f%%  %s\n", label, us, (double)sweeps / scans,
               (double)rays / scans, 100.0 * (double)oks / scans, reason);
        if (cnt.allocs != a0) {
            printf("  FAIL: %ld allocations during %s scans\n", cnt.allocs - a0, label);
            status = 1;
        }
    }
    gait_world_destroy(w);
    gait_world_destroy(w2);
    return status;
}
