#include "check.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_MAX_TESTS 4096

static struct { const char *name; check_fn fn; check_case_fn case_fn; int index; } tests[CHECK_MAX_TESTS];
static int test_count;
static int current_failed;
static const char *current_name;

double check_now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void check_register(const char *name, check_fn fn) {
    if (test_count == CHECK_MAX_TESTS) {
        fprintf(stderr, "check: more than %d tests\n", CHECK_MAX_TESTS);
        exit(2);
    }
    tests[test_count].name = name;
    tests[test_count].fn = fn;
    test_count++;
}

void check_register_case(const char *name, check_case_fn fn, int index) {
    check_register(name, NULL);
    tests[test_count - 1].case_fn = fn;
    tests[test_count - 1].index = index;
}

int check_failures(void) { return current_failed; }

void check_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    if (current_failed < 5) { /* the first few failures of a test tell the story */
        printf("  FAIL %s (%s:%d): ", current_name, file, line);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
    current_failed++;
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    for (int i = 0; i < test_count; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        current_name = tests[i].name;
        current_failed = 0;
        if (tests[i].case_fn) tests[i].case_fn(tests[i].index);
        else tests[i].fn();
        if (current_failed) {
            failed++;
            printf("FAIL %s\n", tests[i].name);
        } else {
            passed++;
            if (getenv("CHECK_VERBOSE")) printf("ok   %s\n", tests[i].name);
        }
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
