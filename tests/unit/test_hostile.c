/* The hostile-script corpus (tests/hostile/scripts) through the C API, with a host world.
 *
 * Each file says in its header what it attacks, the roles it is tried in and what the error
 * must say:
 *     -- hostile: <the attack>
 *     -- as: kit tuning world run scenario      (scenario: tests/hostile/run.sh, the CLI)
 *     -- expect: <text of the error>            ("ok": it must load and run without one)
 * and one test per file and role checks that it is contained: the call returns, the error (if
 * expected) names what happened, the world still steps, a well-behaved kit on another character
 * still runs, the last good tuning is kept, nothing was written outside the build folder, and
 * every byte the script and its worlds took is given back when the script is destroyed (the
 * counting hooks; make asan checks the rest). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lua.h>

#include "body_fixtures.h" /* bw_world, bw_flat; the counting allocator */
#include "check.h"
#include "gait/gait.h"
#include "gait/script.h"

#define CORPUS "tests/hostile/scripts"
#define PWNED "/tmp/gait_hostile_pwned"
#define MAX_CASES 512
#define FRAMES 3

typedef struct hostile_case {
    char path[512];
    char role[16];
    char expect[256];
    char name[600];
} hostile_case;

static hostile_case cases[MAX_CASES];
static int case_count;

/* "-- key: value" from the first lines of the file */
static bool header(const char *path, const char *key, char *out, size_t cap) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[512], want[64];
    snprintf(want, sizeof want, "-- %s: ", key);
    bool found = false;
    for (int i = 0; i < 6 && fgets(line, sizeof line, f); i++)
        if (strncmp(line, want, strlen(want)) == 0) {
            snprintf(out, cap, "%s", line + strlen(want));
            out[strcspn(out, "\n")] = 0;
            found = true;
            break;
        }
    fclose(f);
    return found;
}

static bool pwned(void) {
    struct stat st;
    return stat(PWNED, &st) == 0 || stat(PWNED ".png", &st) == 0;
}

/* A world of 4 characters on flat ground whose memory the counter follows. */
static gait_world *flat_world(counter *c) {
    gait_world *w = bw_world(c);
    if (w) bw_flat(w);
    return w;
}

/* A script on the host world w whose memory (Lua's and its worlds') the counter follows. */
static gait_script *make_script(gait_world *w, counter *cnt) {
    gait_script_def sd = gait_default_script_def();
    sd.hooks.alloc = counting_alloc;
    sd.hooks.free = counting_free;
    sd.hooks.log = counting_log;
    sd.hooks.user = cnt;
    sd.world = w;
    sd.root = ".";
    sd.file_budget = 20000000;             /* the files' budget, kept short for the test */
    sd.memory_limit = (size_t)64 << 20;    /* the memory attacks reach it quickly */
    return gait_script_create(&sd);
}

static void run_case(int index) {
    const hostile_case *hc = &cases[index];
    counter cnt;
    memset(&cnt, 0, sizeof cnt);
    gait_world *w = flat_world(&cnt);
    CHECK(w != NULL);
    if (!w) return;
    gait_character_def cd = gait_default_character_def();
    gait_character_id hero, other;
    gait_character_create(w, &cd, &hero);
    cd.position.x = 4;
    gait_character_create(w, &cd, &other);
    gait_script *s = make_script(w, &cnt);
    CHECK(s != NULL);
    if (!s) {
        gait_world_destroy(w);
        return;
    }
    /* the last good state: the repo's tuning, a good kit on the other character */
    CHECK_EQ_INT(gait_script_load_tuning(s, NULL), GAIT_OK);
    double run_speed = gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE)->run_speed;
    CHECK_EQ_INT(gait_script_set_kit(s, other, "tests/hostile/good_kit.lua"), GAIT_OK);
    gait_script_clear_error(s);

    double t0 = check_now_s();
    lua_State *L = gait_script_lua(s);
    int top = lua_gettop(L);
    if (strcmp(hc->role, "kit") == 0) {
        gait_script_set_kit(s, hero, hc->path);
    } else if (strcmp(hc->role, "tuning") == 0) {
        char code[1200];
        snprintf(code, sizeof code, "require('gait').tuning.load{locomotion = '%s'}", hc->path);
        CHECK_EQ_INT(gait_script_run_trusted_string(s, code, "=tuning driver"), GAIT_OK);
    } else if (strcmp(hc->role, "world") == 0) {
        if (gait_script_read_data_file(s, hc->path, CORPUS) == GAIT_OK) lua_pop(L, 1);
    } else {
        gait_script_run_file(s, hc->path);
    }
    CHECK_EQ_INT(lua_gettop(L), top); /* the Lua stack as it was */
    uint64_t steps = gait_world_step_count(w);
    for (int f = 0; f < FRAMES; f++) {
        gait_input in;
        memset(&in, 0, sizeof in);
        in.move_y = 1;
        gait_character_set_input(w, hero, &in);
        gait_character_set_input(w, other, &in);
        gait_script_poll(s, NULL);
        gait_script_frame(s, 1.0 / 60, NULL);
    }
    double took = check_now_s() - t0;
    const char *err = gait_script_last_error(s);
    if (strcmp(hc->expect, "ok") == 0) {
        CHECK_MSG(gait_script_error_count(s) == 0, "%s: an error where none was expected: %s",
                  hc->name, err);
    } else {
        CHECK_MSG(gait_script_error_count(s) > 0, "%s: no error (expected \"%s\")", hc->name,
                  hc->expect);
        CHECK_MSG(strstr(err, hc->expect) != NULL, "%s: the error does not say \"%s\": %s",
                  hc->name, hc->expect, err);
    }
    /* contained: the host goes on, the other kit runs, the last good tuning stays */
    CHECK_MSG(took < 20, "%s: took %.1f s", hc->name, took);
    CHECK_EQ_INT(gait_world_step_count(w), steps + FRAMES);
    gait_character_info info;
    CHECK_EQ_INT(gait_character_info_get(w, other, &info), GAIT_OK);
    CHECK_MSG(strcmp(info.action_name, "good") == 0, "%s: the other kit did not run", hc->name);
    CHECK_NEAR(gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE)->run_speed, run_speed, 0);
    CHECK_MSG(!pwned(), "%s: wrote %s", hc->name, PWNED);
    remove(PWNED);
    gait_script_destroy(s);
    gait_world_destroy(w);
    CHECK_MSG(cnt.live_bytes == 0, "%s: %lld bytes not given back", hc->name, cnt.live_bytes);
}

static int lua_name(const struct dirent *e) {
    size_t n = strlen(e->d_name);
    return n > 4 && strcmp(e->d_name + n - 4, ".lua") == 0;
}

/* One registered test per file and role (the corpus is read when the program starts). */
__attribute__((constructor)) static void register_corpus(void) {
    struct dirent **list = NULL;
    int n = scandir(CORPUS, &list, lua_name, alphasort);
    for (int i = 0; i < n; i++) {
        char path[512], roles[128] = "", expect[256] = "";
        snprintf(path, sizeof path, "%s/%s", CORPUS, list[i]->d_name);
        if (header(path, "as", roles, sizeof roles) && header(path, "expect", expect, sizeof expect)) {
            for (char *r = strtok(roles, " "); r; r = strtok(NULL, " ")) {
                if (strcmp(r, "scenario") == 0 || case_count == MAX_CASES) continue;
                hostile_case *hc = &cases[case_count];
                snprintf(hc->path, sizeof hc->path, "%s", path);
                snprintf(hc->role, sizeof hc->role, "%s", r);
                snprintf(hc->expect, sizeof hc->expect, "%s", expect);
                snprintf(hc->name, sizeof hc->name, "hostile %s as %s", list[i]->d_name, r);
                check_register_case(hc->name, run_case, case_count);
                case_count++;
            }
        }
        free(list[i]);
    }
    free(list);
}

/* The corpus is there, and big enough to mean something. */
TEST(hostile_corpus_is_read) {
    CHECK_MSG(case_count >= 150, "%d cases", case_count);
}

/* Files that are not files, through the C API: a kit path that is a FIFO, a directory, a
 * source bigger than the cap, and a watched tuning file replaced by a FIFO (poll must not
 * block, and the last good numbers stay). */
TEST(hostile_files_that_are_not_files) {
    counter cnt;
    memset(&cnt, 0, sizeof cnt);
    gait_world *w = flat_world(&cnt);
    gait_character_def cd = gait_default_character_def();
    gait_character_id hero;
    gait_character_create(w, &cd, &hero);
    gait_script *s = make_script(w, &cnt);
    char dir[] = "/tmp/gait_hostile_files_XXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL);
    double t0 = check_now_s();
    snprintf(path, sizeof path, "%s/fifo_kit.lua", dir);
    CHECK_EQ_INT(mkfifo(path, 0600), 0);
    CHECK(gait_script_set_kit(s, hero, path) != GAIT_OK);
    CHECK_MSG(strstr(gait_script_last_error(s), "FIFO"), "%s", gait_script_last_error(s));
    remove(path);
    snprintf(path, sizeof path, "%s/dir_kit.lua", dir);
    CHECK_EQ_INT(mkdir(path, 0700), 0);
    CHECK(gait_script_set_kit(s, hero, path) != GAIT_OK);
    CHECK_MSG(strstr(gait_script_last_error(s), "directory"), "%s", gait_script_last_error(s));
    rmdir(path);
    snprintf(path, sizeof path, "%s/huge_kit.lua", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fclose(f);
        CHECK_EQ_INT(truncate(path, (off_t)17 << 20), 0); /* sparse: 17 MiB of zeros */
    }
    CHECK(gait_script_set_kit(s, hero, path) != GAIT_OK);
    CHECK_MSG(strstr(gait_script_last_error(s), "is more than"), "%s", gait_script_last_error(s));
    remove(path);
    /* a tuning set, then its locomotion.lua turned into a FIFO: the reload is refused unopened */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cp scripts/tuning/*.lua %s/", dir);
    CHECK_EQ_INT(system(cmd), 0);
    CHECK_EQ_INT(gait_script_load_tuning(s, dir), GAIT_OK);
    double run_speed = gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE)->run_speed;
    snprintf(path, sizeof path, "%s/locomotion.lua", dir);
    remove(path);
    CHECK_EQ_INT(mkfifo(path, 0600), 0);
    int reloaded = -1;
    CHECK_EQ_INT(gait_script_poll(s, &reloaded), GAIT_ERR_SCRIPT);
    CHECK_EQ_INT(reloaded, 0);
    CHECK_MSG(strstr(gait_script_last_error(s), "FIFO"), "%s", gait_script_last_error(s));
    CHECK_NEAR(gait_world_locomotion(w, GAIT_BODY_MEDIUM_FEMALE)->run_speed, run_speed, 0);
    CHECK_MSG(check_now_s() - t0 < 10, "took %.1f s: something waited on a FIFO", check_now_s() - t0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ_INT(system(cmd), 0);
    gait_script_destroy(s);
    gait_world_destroy(w);
    CHECK_EQ_INT(cnt.live_bytes, 0);
}
