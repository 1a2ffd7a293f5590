/* bench_budget: how long a hostile kit runs before its instruction budget stops it.
 *
 * A host world with one character whose kit (on_presses) does one of the things a script may
 * do to outrun its budget; one frame runs the kit until the budget trips. Printed: the CPU time
 * (this thread) of that frame, with the default instruction budget (gait_default_script_def:
 * 10 M), median of the repeats. The target: every trip within 100 ms of CPU.
 *
 *   bench_budget [--repeats N] [--root DIR]     (defaults 5, .) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "body_fixtures.h" /* bw_flat */
#include "gait/gait.h"
#include "gait/script.h"

typedef struct attack {
    const char *name;
    const char *on_presses; /* the body of on_presses(ch, presses, state) */
} attack;

static const attack attacks[] = {
    {"loop", "while true do end"},
    {"pcall loop", "while true do pcall(function() while true do end end) end"},
    {"pcall(error) loop", "while true do pcall(error) end"},
    {"coroutine loop", "while true do coroutine.resume(coroutine.create(function() while true do end end)) end"},
    {"backtracking pattern", "local s = string.rep('a', 100000) s:find('a*a*a*b')"},
    {"string.rep loop", "for i = 1, 1e9 do local s = string.rep('x', 1000000) end"},
    {"world step loop", "local w = require('gait').world.new{max_characters = 64} "
                        "for i = 1, 64 do w:spawn{position = {i, 0, 0}} end "
                        "while true do w:step() end"},
    {"gsub callback loop", "string.gsub(string.rep('a', 1e6), '.', function() end)"},
    {"table growth", "local t = {} for i = 1, 1e9 do t[i] = i end"},
};

static double cpu_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void quiet(gait_log_level level, const char *msg, void *user) {
    (void)level; (void)msg; (void)user;
}

/* CPU seconds of one frame whose kit is the attack; < 0 when it did not trip. */
static double run(const char *root, const attack *a, char *why, size_t cap) {
    gait_world_def wd = gait_default_world_def();
    wd.max_characters = 2;
    gait_world *w = gait_world_create(&wd);
    bw_flat(w);
    gait_character_def cd = gait_default_character_def();
    gait_character_id id;
    gait_character_create(w, &cd, &id);
    gait_script_def sd = gait_default_script_def();
    sd.world = w;
    sd.root = root;
    sd.hooks.log = quiet;
    gait_script *s = gait_script_create(&sd);
    char path[] = "/tmp/gait_bench_budget_XXXXXX.lua";
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    double took = -1;
    if (s && f) {
        fprintf(f, "return {on_presses = function(ch, presses, state)\n%s\nend}\n", a->on_presses);
        fclose(f);
        if (gait_script_set_kit(s, id, path) == GAIT_OK) {
            double t0 = cpu_s();
            gait_status st = gait_script_before_step(s, 1.0 / 60);
            took = cpu_s() - t0;
            snprintf(why, cap, "%s", gait_script_last_error(s));
            char *nl = strchr(why, '\n');
            if (nl) *nl = 0;
            if (st == GAIT_OK) took = -1;
        }
    } else if (f) {
        fclose(f);
    }
    remove(path);
    gait_script_destroy(s);
    gait_world_destroy(w);
    return took;
}

int main(int argc, char **argv) {
    int repeats = 5;
    const char *root = ".";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) repeats = atoi(argv[++i]);
        else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) root = argv[++i];
    }
    if (repeats < 1 || repeats > 101) repeats = 5;
    printf("bench_budget: CPU until the default budget (%lld VM instructions) stops a kit, "
           "median of %d\n", (long long)gait_default_script_def().instruction_budget, repeats);
    printf("%-24s %12s  %s\n", "attack", "cpu (ms)", "error");
    int bad = 0;
    double worst = 0;
    for (size_t k = 0; k < sizeof attacks / sizeof attacks[0]; k++) {
        double t[101];
        char why[512] = "";
        int ok = 1;
        for (int r = 0; r < repeats; r++) {
            t[r] = run(root, &attacks[k], why, sizeof why);
            if (t[r] < 0) ok = 0;
        }
        qsort(t, (size_t)repeats, sizeof t[0], cmp);
        double med = t[repeats / 2];
        const char *msg = strstr(why, ": ") ? strstr(why, ": ") + 2 : why;
        if (!ok) {
            printf("%-24s %12s  did not trip\n", attacks[k].name, "-");
            bad++;
            continue;
        }
        if (med > worst) worst = med;
        printf("%-24s %12.1f  %.70s\n", attacks[k].name, med * 1e3, msg);
    }
    printf("slowest trip: %.1f ms of CPU (target: within 100 ms)\n", worst * 1e3);
    return bad ? 1 : 0;
}
