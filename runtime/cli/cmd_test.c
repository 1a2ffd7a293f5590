/* gait test DIR_OR_FILES... [--root DIR]
 * Every *.lua file runs in a fresh script (a fresh Lua state and worlds of its own), through
 * lua/gait/test.lua, which prints a line per test. This sums them into one closing line. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"

static int lua_file(const struct dirent *e) {
    size_t n = strlen(e->d_name);
    return n > 4 && strcmp(e->d_name + n - 4, ".lua") == 0 && e->d_name[0] != '.';
}

static void run_one(const char *root, const char *path, long *passed, long *failed) {
    gait_script *s = gait_cli_script(root, 0);
    if (!s) {
        printf("FAIL %s: could not start Lua\n", path);
        ++*failed;
        return;
    }
    const char *args[1] = {path};
    double r[2] = {0, 0};
    if (gait_cli_call(s, "gait.test", "run_file", 1, args, 2, r) != 0) {
        printf("FAIL %s: the test runner failed (traceback above)\n", path);
        ++*failed;
    } else {
        *passed += (long)r[0];
        *failed += (long)r[1];
    }
    fflush(stdout);
    gait_script_destroy(s);
}

int gait_cli_test(int argc, char **argv) {
    const char *root = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = gait_cli_option(argc, argv, &i, "--root");
        if (v) root = v;
    }
    char dir[4096];
    if (gait_cli_find_root(root, dir, sizeof dir) != 0) {
        printf("0 passed, 1 failed\n");
        return 2;
    }
    long passed = 0, failed = 0;
    int inputs = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--root") == 0) { i++; continue; }
        if (strncmp(argv[i], "--root=", 7) == 0) continue;
        inputs++;
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            printf("FAIL %s: no such file or directory\n", argv[i]);
            failed++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            run_one(dir, argv[i], &passed, &failed);
            continue;
        }
        struct dirent **list = NULL;
        int n = scandir(argv[i], &list, lua_file, alphasort);
        for (int k = 0; k < n; k++) {
            char path[4096];
            size_t dl = strlen(argv[i]);
            int len = snprintf(path, sizeof path, "%s%s%s", argv[i],
                               dl && argv[i][dl - 1] == '/' ? "" : "/", list[k]->d_name);
            if (len > 0 && len < (int)sizeof path) run_one(dir, path, &passed, &failed);
            free(list[k]);
        }
        free(list);
    }
    if (!inputs) {
        fprintf(stderr, "usage: gait test DIR_OR_FILE.lua... [--root DIR]\n");
        return 2;
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
