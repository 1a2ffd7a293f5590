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
    CHECK_MSG(strstr(err, "/nonexistent/level.obj") && strstr(err, "No such file"), "%s", err);
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

/* ---- an importer that crashes or hangs cannot take the host down -------------------------- */

#include <sys/stat.h>

/* A file assimp 5.2 dies on (found by mutating small files): the error names it, says the
 * importer crashed, and nothing is added; the next import works. */
TEST(collide_level_importer_crash_is_contained) {
    static const char *const crashers[] = {"tests/hostile/levels/importer_segv.off",
                                           "tests/hostile/levels/importer_segv.ase"};
    char err[512] = "", path[256];
    gait_collider *c = make_collider(NULL);
    gait_landmark_id ids[8];
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(gait_level_load(c, crashers[i], 1, 'y', ids, 8, err, sizeof err), -1);
        CHECK_MSG(strstr(err, crashers[i]) && strstr(err, "crashed"), "%s", err);
        CHECK_EQ_INT(gait_collider_landmark_count(c), 0);
    }
    snprintf(path, sizeof path, "/tmp/gait_level_after_%d.obj", (int)getpid());
    write_file(path, obj);
    CHECK_EQ_INT(gait_level_load(c, path, 1, 'y', ids, 8, err, sizeof err), 2);
    remove(path);
    gait_collider_destroy(c);
}

/* A two-line PLY header makes assimp 5.2 loop forever: the import is stopped at the limit. */
TEST(collide_level_importer_hang_is_stopped) {
    char err[512] = "";
    gait_collider *c = make_collider(NULL);
    gait_landmark_id ids[8];
    gait_level_limits lim = gait_level_default_limits();
    lim.seconds = 0.5;
    double t0 = check_now_s();
    CHECK_EQ_INT(gait_level_load_limited(c, "tests/hostile/levels/importer_hang.ply", 1, 'y', ids,
                                         8, &lim, err, sizeof err), -1);
    double took = check_now_s() - t0;
    CHECK_MSG(strstr(err, "importer_hang.ply") && strstr(err, "took more than 0.5 s"), "%s", err);
    CHECK_MSG(took >= 0.5 && took < 3, "stopped after %.2f s", took);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 0);
    gait_collider_destroy(c);
}

/* Files that are not files: a FIFO as the level, a directory, a device are refused at once; an
 * OBJ whose mtllib names a FIFO imports without its materials instead of waiting for a writer. */
TEST(collide_level_files_that_are_not_files) {
    char err[512] = "", dir[] = "/tmp/gait_level_fifo_XXXXXX", fifo[300], objp[300], mtl[300];
    CHECK(mkdtemp(dir) != NULL);
    gait_collider *c = make_collider(NULL);
    gait_landmark_id ids[8];
    snprintf(fifo, sizeof fifo, "%s/level.obj", dir);
    CHECK_EQ_INT(mkfifo(fifo, 0600), 0);
    double t0 = check_now_s();
    CHECK_EQ_INT(gait_level_load(c, fifo, 1, 'y', ids, 8, err, sizeof err), -1);
    CHECK_MSG(strstr(err, "FIFO") && strstr(err, fifo), "%s", err);
    CHECK_EQ_INT(gait_level_load(c, dir, 1, 'y', ids, 8, err, sizeof err), -1);
    CHECK_MSG(strstr(err, "directory"), "%s", err);
    CHECK_EQ_INT(gait_level_load(c, "/dev/zero", 1, 'y', ids, 8, err, sizeof err), -1);
    CHECK_MSG(strstr(err, "character device"), "%s", err);
    snprintf(mtl, sizeof mtl, "%s/stuck.mtl", dir);
    CHECK_EQ_INT(mkfifo(mtl, 0600), 0);
    snprintf(objp, sizeof objp, "%s/with_mtl.obj", dir);
    char text[600];
    snprintf(text, sizeof text, "mtllib stuck.mtl\n%s", obj);
    write_file(objp, text);
    int n = gait_level_load(c, objp, 1, 'y', ids, 8, err, sizeof err);
    CHECK_MSG(n == 2, "n = %d: %s", n, err);
    CHECK_MSG(check_now_s() - t0 < 5, "took %.2f s: something waited on a FIFO", check_now_s() - t0);
    remove(objp);
    remove(mtl);
    remove(fifo);
    rmdir(dir);
    gait_collider_destroy(c);
}

/* Player starts: nodes with no mesh named like one, through their parents' transforms, then the
 * scale, then the z-up turn; their yaw from where their +z axis faces. A glTF of one triangle
 * (its buffer in a .bin beside it), a start turned 90 deg about the file's y, a start under a
 * moved parent, an empty that is not a start, and a start whose place is not finite. */
TEST(collide_level_player_starts) {
    char path[256], bin[256], err[256] = "";
    snprintf(path, sizeof path, "/tmp/gait_level_starts_%d.gltf", (int)getpid());
    snprintf(bin, sizeof bin, "/tmp/gait_level_starts_%d.bin", (int)getpid());
    const float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    FILE *f = fopen(bin, "wb");
    fwrite(tri, sizeof tri, 1, f);
    fclose(f);
    char doc[2048];
    snprintf(doc, sizeof doc,
             "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0,"
             " \"scenes\": [{\"nodes\": [0, 1, 2, 4, 5]}],"
             " \"nodes\": ["
             "  {\"name\": \"floor\", \"mesh\": 0},"
             "  {\"name\": \"SpawnPoint\", \"translation\": [2, 4, 6],"
             "   \"rotation\": [0, 0.7071067811865476, 0, 0.7071067811865476]},"
             "  {\"name\": \"group\", \"translation\": [10, 0, 0], \"children\": [3]},"
             "  {\"name\": \"start_b\", \"translation\": [1, 0, 0]},"
             "  {\"name\": \"lamp\", \"translation\": [5, 5, 5]},"
             "  {\"name\": \"PlayerStart_far\", \"translation\": [1e39, 0, 0]}],"
             " \"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0}}]}],"
             " \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3,"
             "  \"type\": \"VEC3\", \"min\": [0, 0, 0], \"max\": [1, 1, 0]}],"
             " \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 36}],"
             " \"buffers\": [{\"byteLength\": 36, \"uri\": \"%s\"}]}",
             strrchr(bin, '/') + 1);
    write_file(path, doc);
    gait_collider *c = make_collider(NULL);
    gait_landmark_id ids[4];
    gait_level_start st[4];
    int count = -1;
    gait_level_limits lim = gait_level_default_limits();
    int n = gait_level_load_starts(c, path, 0.5, 'z', ids, 4, &lim, st, 4, &count, err, sizeof err);
    CHECK_MSG(n == 1, "n = %d: %s", n, err);
    CHECK_EQ_INT(count, 2); /* SpawnPoint and start_b; not lamp; not the one at 1e39 m (inf) */
    if (count == 2) {
        CHECK(strcmp(st[0].name, "SpawnPoint") == 0);
        /* (2, 4, 6) * 0.5 = (1, 2, 3); z up -> y up: (1, 3, -2) */
        CHECK_NEAR(st[0].position.x, 1, 1e-6);
        CHECK_NEAR(st[0].position.y, 3, 1e-6);
        CHECK_NEAR(st[0].position.z, -2, 1e-6);
        CHECK_NEAR(st[0].yaw, M_PI / 2, 1e-6); /* +z turned to +x, which the z-up turn keeps */
        CHECK(strcmp(st[1].name, "start_b") == 0);
        CHECK_NEAR(st[1].position.x, 5.5, 1e-6); /* (10 + 1) * 0.5 */
        CHECK_NEAR(st[1].position.y, 0, 1e-6);
        CHECK_NEAR(st[1].yaw, 0, 1e-6); /* +z points up after the turn: no heading, 0 */
    }
    /* room for one: the first in node order, and the count of all */
    for (int i = 0; i < n; i++) gait_collider_remove_landmark(c, ids[i]);
    n = gait_level_load_starts(c, path, 0.5, 'z', ids, 4, &lim, st, 1, &count, err, sizeof err);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(count, 2);
    CHECK(strcmp(st[0].name, "SpawnPoint") == 0);
    for (int i = 0; i < n; i++) gait_collider_remove_landmark(c, ids[i]);
    /* a start count with no array is refused, nothing added */
    n = gait_level_load_starts(c, path, 1, 'y', ids, 4, &lim, NULL, 2, &count, err, sizeof err);
    CHECK_EQ_INT(n, -1);
    CHECK_EQ_INT(count, 0);
    CHECK_EQ_INT(gait_collider_landmark_count(c), 0);
    CHECK(gait_level_is_start_name("PlayerStart.001") && gait_level_is_start_name("SPAWN_2") &&
          gait_level_is_start_name("start") && !gait_level_is_start_name("restart_lamp") &&
          !gait_level_is_start_name(NULL));
    remove(path);
    remove(bin);
    gait_collider_destroy(c);
}
