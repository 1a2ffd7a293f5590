/* Level import (runtime/cli/level.c, through assimp): an OBJ with two objects becomes two
 * landmarks in world coordinates, scaled and turned to y up; missing and malformed files are
 * clear errors that change nothing. Linked with the importer and assimp by its own Makefile
 * rule. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "collide_fixtures.h"
#include "../../runtime/cli/level.h"

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* a floor quad 4 x 4 m at z = 0 (z up) and a 1 m cube standing on it, in OBJ units of 0.5 m */
static const char *obj =
    "o floor\n"
    "v -4 -4 0\nv 4 -4 0\nv 4 4 0\nv -4 4 0\n"
    "f 1 2 3 4\n"
    "o cube\n"
    "v 0 0 0\nv 2 0 0\nv 2 2 0\nv 0 2 0\nv 0 0 2\nv 2 0 2\nv 2 2 2\nv 0 2 2\n"
    "f 5 8 7 6\nf 9 10 11 12\nf 5 6 10 9\nf 6 7 11 10\nf 7 8 12 11\nf 8 5 9 12\n";

TEST(collide_level_obj_z_up_scaled) {
    char path[256], err[256] = "";
    snprintf(path, sizeof path, "/tmp/gait_level_%d.obj", (int)getpid());
    write_file(path, obj);
    counter cnt;
    gait_collider *c = make_collider(&cnt);
    long long base = cnt.live_bytes;
    gait_landmark_id ids[8];
    int n = gait_level_load(c, path, 0.5, 'z', ids, 8, err, sizeof err);
    CHECK_MSG(n == 2, "n = %d: %s", n, err);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 2);
    gait_landmark_info fl, cu;
    CHECK(gait_collider_landmark_info(c, ids[0], &fl) == GAIT_OK);
    CHECK(gait_collider_landmark_info(c, ids[1], &cu) == GAIT_OK);
    CHECK_EQ_INT(fl.triangle_count, 2);
    CHECK_EQ_INT(cu.triangle_count, 12);
    /* z up -> y up: the floor spans x, -z in [-2, 2] at y = 0; the cube y in [0, 1] */
    CHECK_NEAR(fl.bounds_min.x, -2, 1e-6);
    CHECK_NEAR(fl.bounds_max.z, 2, 1e-6);
    CHECK_NEAR(fl.bounds_min.y, 0, 1e-6);
    CHECK_NEAR(fl.bounds_max.y, 0, 1e-6);
    CHECK_NEAR(cu.bounds_max.y, 1, 1e-6);
    CHECK_NEAR(cu.bounds_min.z, -1, 1e-6);
    CHECK_NEAR(cu.bounds_max.x, 1, 1e-6);
    /* a capsule standing on the cube's top is pushed up by it */
    gait_capsule cap = {{0.5, 1.2, -0.5}, {0.5, 2.0, -0.5}, 0.3};
    gait_contact_point ct[8];
    int k = gait_collider_capsule_overlap(c, &cap, NULL, ct, 8, NULL);
    CHECK(k >= 1);
    for (int i = 0; i < k; i++) {
        CHECK_NEAR(ct[i].normal.y, 1, 1e-9);
        CHECK_NEAR(ct[i].depth, 0.1, 1e-6);
    }
    for (int i = 0; i < n; i++) gait_collider_remove_landmark(c, ids[i]);
    CHECK(cnt.live_bytes == base);

    /* too small an ids array: an error, nothing left added */
    n = gait_level_load(c, path, 0.5, 'z', ids, 1, err, sizeof err);
    CHECK_EQ_INT(n, -1);
    CHECK(strstr(err, "more than 1") != NULL);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 0);
    remove(path);
    gait_collider_destroy(c);
}

TEST(collide_level_bad_files) {
    char err[256] = "", path[256];
    gait_collider *c = make_collider(NULL);
    gait_landmark_id ids[4];
    CHECK_EQ_INT(gait_level_load(c, "/nonexistent/level.obj", 1, 'y', ids, 4, err, sizeof err), -1);
    CHECK(strstr(err, "cannot open") != NULL);
    snprintf(path, sizeof path, "/tmp/gait_level_bad_%d.gltf", (int)getpid());
    write_file(path, "{ this is not json");
    CHECK_EQ_INT(gait_level_load(c, path, 1, 'y', ids, 4, err, sizeof err), -1);
    CHECK(strstr(err, path) != NULL);
    remove(path);
    snprintf(path, sizeof path, "/tmp/gait_level_empty_%d.obj", (int)getpid());
    write_file(path, "# nothing here\nv 0 0 0\n");
    CHECK_EQ_INT(gait_level_load(c, path, 1, 'y', ids, 4, err, sizeof err), -1);
    remove(path);
    CHECK_EQ_INT(gait_level_load(c, path, 0, 'y', ids, 4, err, sizeof err), -1);
    CHECK(strstr(err, "scale") != NULL);
    CHECK_EQ_INT(gait_level_load(c, path, 1, 'x', ids, 4, err, sizeof err), -1);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 0);
    gait_collider_destroy(c);
}
