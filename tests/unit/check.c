#include "check.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_MAX_TESTS 4096

static struct { const char *name; check_fn fn; } tests[CHECK_MAX_TESTS];
static int test_count;
static int current_failed;
static const char *current_name;

void check_register(const char *name, check_fn fn) {
    if (test_count == CHECK_MAX_TESTS) {
        fprintf(stderr, "check: more than %d tests\n", CHECK_MAX_TESTS);
        exit(2);
    }
    tests[test_count].name = name;
    tests[test_count].fn = fn;
    test_count++;
}

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

static int by_name(const void *a, const void *b) {
    /* constructors run in an unspecified order; sort for a stable report */
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    return strcmp(x, y);
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    (void)by_name;
    for (int i = 0; i < test_count; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        current_name = tests[i].name;
        current_failed = 0;
        tests[i].fn();
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
