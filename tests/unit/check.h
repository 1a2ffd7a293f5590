/* A tiny test harness: TEST(name) { CHECK(...); } registers itself; check.c's main runs them
 * all (or those whose name contains argv[1]) and ends with "N passed, N failed".
 * A test passes when none of its checks fail. */
#ifndef GAIT_CHECK_H
#define GAIT_CHECK_H

#include <math.h>
#include <stdio.h>

typedef void (*check_fn)(void);
typedef void (*check_case_fn)(int index);
void check_register(const char *name, check_fn fn);
/* A table-driven test registers one named test per row: fn(index) runs row `index`. */
void check_register_case(const char *name, check_case_fn fn, int index);
void check_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Checks failed so far in the running test (a loop can tell which of its cases failed). */
int check_failures(void);

/* Monotonic seconds, for the watchdog limits of tests that guard against hangs. */
double check_now_s(void);

#define TEST(name)                                                              \
    static void test_##name(void);                                              \
    __attribute__((constructor)) static void register_##name(void) {            \
        check_register(#name, test_##name);                                     \
    }                                                                           \
    static void test_##name(void)

#define CHECK(cond) \
    do { if (!(cond)) check_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); } while (0)
#define CHECK_MSG(cond, ...) \
    do { if (!(cond)) check_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)
/* |a - b| <= tol, printing both values when it fails. */
#define CHECK_NEAR(a, b, tol)                                                             \
    do {                                                                                  \
        double check_a_ = (double)(a), check_b_ = (double)(b), check_t_ = (double)(tol); \
        if (!(fabs(check_a_ - check_b_) <= check_t_))                                     \
            check_fail(__FILE__, __LINE__, "%s = %.9g, wanted %s = %.9g (tolerance %g)", \
                       #a, check_a_, #b, check_b_, check_t_);                             \
    } while (0)
#define CHECK_EQ_INT(a, b)                                                                \
    do {                                                                                  \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                   \
        if (check_a_ != check_b_)                                                         \
            check_fail(__FILE__, __LINE__, "%s = %lld, wanted %s = %lld", #a, check_a_,   \
                       #b, check_b_);                                                     \
    } while (0)

#endif
