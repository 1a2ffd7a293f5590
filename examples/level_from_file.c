/* A level loaded from a file: an engine reads its level with its own importer and hands the
 * runtime triangles (gait_mesh_def), one landmark per mesh. Here the importer is a small
 * Wavefront OBJ reader (v and f lines; polygons as fans; negative indices; v/vt/vn forms).
 *
 *   cc level_from_file.c $(pkg-config --cflags --libs gait) -o level_from_file
 *   ./level_from_file level.obj
 *
 * The level (examples/level.obj) is a floor with a wall across it at z = 5. The body, placed on
 * the floor with no terrain at all, walks at the wall for 3 s; the program checks it stood on
 * the floor, did not pass through the wall, and exits 0. (gait-sandbox --level FILE and
 * `w:load_level` in Lua read OBJ, glTF, FBX and the rest through assimp instead.) */
#include <gait/gait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mesh {
    char name[64];
    float *pos;          /* all the file's vertices (OBJ indices are file-wide) */
    uint32_t *idx;       /* this object's triangles */
    int tris, tri_cap;
} mesh;

static float *verts;
static int vert_count, vert_cap;

static int add_landmark(gait_world *w, mesh *m) {
    if (m->tris == 0) return 0;
    gait_mesh_def d = {.positions = verts, .vertex_count = vert_count, .indices = m->idx,
                       .triangle_count = m->tris, .offset = {0, 0, 0}, .name = m->name};
    gait_landmark_id id;
    if (gait_collider_add_landmark(gait_world_collider(w), &d, &id) != GAIT_OK) {
        fprintf(stderr, "%s: %s\n", m->name, gait_collider_last_error(gait_world_collider(w)));
        return -1;
    }
    printf("landmark %-8s %d triangles\n", m->name, m->tris);
    m->tris = 0;
    return 1;
}

/* Reads `path` into landmarks; returns how many, or -1 with a message. */
static int load_obj(gait_world *w, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); return -1; }
    mesh m = {"mesh", NULL, NULL, 0, 0};
    char line[512];
    int lineno = 0, added = 0, rc = 0;
    while (rc >= 0 && fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == 'v' && line[1] == ' ') {
            if (vert_count == vert_cap) {
                vert_cap = vert_cap ? vert_cap * 2 : 256;
                verts = realloc(verts, sizeof *verts * 3 * (size_t)vert_cap);
                if (!verts) return -1;
            }
            float *v = verts + 3 * vert_count;
            if (sscanf(line + 2, "%f %f %f", &v[0], &v[1], &v[2]) != 3) {
                fprintf(stderr, "%s:%d: a vertex needs x y z\n", path, lineno);
                rc = -1;
            }
            vert_count++;
        } else if ((line[0] == 'o' || line[0] == 'g') && line[1] == ' ') {
            if ((rc = add_landmark(w, &m)) > 0) added++;
            snprintf(m.name, sizeof m.name, "%.*s", (int)strcspn(line + 2, "\r\n"), line + 2);
        } else if (line[0] == 'f' && line[1] == ' ') {
            uint32_t poly[64];
            int n = 0;
            for (char *tok = strtok(line + 2, " \t\r\n"); tok && n < 64; tok = strtok(NULL, " \t\r\n")) {
                long i = strtol(tok, NULL, 10);          /* "7", "7/1", "7//3", "7/1/3" */
                if (i < 0) i += vert_count + 1;           /* relative to the end */
                if (i < 1 || i > vert_count) {
                    fprintf(stderr, "%s:%d: vertex index %s out of 1..%d\n", path, lineno, tok, vert_count);
                    rc = -1;
                    break;
                }
                poly[n++] = (uint32_t)(i - 1);
            }
            for (int k = 2; rc >= 0 && k < n; k++) {      /* a fan: (0, k-1, k) */
                if (m.tris == m.tri_cap) {
                    m.tri_cap = m.tri_cap ? m.tri_cap * 2 : 64;
                    m.idx = realloc(m.idx, sizeof *m.idx * 3 * (size_t)m.tri_cap);
                    if (!m.idx) return -1;
                }
                uint32_t *t = m.idx + 3 * m.tris++;
                t[0] = poly[0], t[1] = poly[k - 1], t[2] = poly[k];
            }
        }
    }
    fclose(f);
    if (rc >= 0 && (rc = add_landmark(w, &m)) > 0) added++;
    free(m.idx);
    return rc < 0 ? -1 : added;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "level.obj";
    gait_world_def wd = gait_default_world_def();
    gait_world *world = gait_world_create(&wd);
    if (!world) return 1;
    int n = load_obj(world, path);               /* copied in: the reader's arrays can go */
    free(verts);
    if (n <= 0) {
        fprintf(stderr, "%s: no level loaded\n", path);
        return 1;
    }
    gait_character_def cd = gait_default_character_def();
    cd.position = (gait_vec3){0, 0.5, 0};        /* stood on the floor below at create */
    gait_character_id hero;
    if (gait_character_create(world, &cd, &hero) != GAIT_OK) {
        fprintf(stderr, "%s\n", gait_world_last_error(world));
        return 1;
    }
    gait_character_info info;
    gait_character_info_get(world, hero, &info);
    double start_y = info.position.y, max_z = 0;
    for (int frame = 0; frame < 180; frame++) {     /* 3 s of walking towards +z, at the wall */
        gait_input in = {.move_y = 1, .held = GAIT_BUTTON_WALK, .pressed = frame ? 0 : GAIT_BUTTON_WALK};
        gait_character_set_input(world, hero, &in);
        gait_world_update(world, 1.0 / 60, NULL);
        gait_character_info_get(world, hero, &info);
        if (info.position.z > max_z) max_z = info.position.z;
    }
    printf("%d landmarks; feet on the floor at y %.3f; walked to z %.2f (the wall's face at 5, "
           "the capsule's radius 0.3), state %s\n", n, start_y, max_z,
           gait_state_name(info.phase.state));
    gait_world_destroy(world);
    int ok = start_y > -0.01 && start_y < 0.01 && max_z > 3.0 && max_z < 5.0;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
