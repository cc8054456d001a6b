/* SPDX-License-Identifier: MIT */
/* mbp_test.c: the harness and the runner. Each test is run once; a summary line
 * "<platform>: N passed, N failed" ends the run, and the exit status is the number of failed
 * tests (capped at 100), so QEMU and the Makefile see failure without parsing. */
#include "mbp_test.h"

#ifndef MBP_TEST_PLATFORM
#define MBP_TEST_PLATFORM "host"
#endif

/* Weak: a test file compiled out as a whole (its backend or option off, e.g. #if
 * MBP_WITH_QUADTREE around the file) leaves its names unresolved, and they are skipped below. */
#define X(name) __attribute__((weak)) TEST(name);
#include "test_list.inc"
#undef X

typedef struct {
    const char *name;
    void (*fn)(void);
} test_case;

static const test_case k_tests[] = {
#define X(name) {#name, name},
#include "test_list.inc"
#undef X
};

mbp_world test_w;
mbp_world test_w2;

static const char *g_current;
static uint32_t g_failed_checks;

void test_puts(const char *s)
{
    mbp_port_write(s);
}

void test_putu(uint32_t v)
{
    char buf[11];
    int i = 10;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    mbp_port_write(&buf[i]);
}

void test_puti(long v)
{
    if (v < 0) {
        test_puts("-");
        test_putu((uint32_t)(-(v + 1)) + 1u);
    } else {
        test_putu((uint32_t)v);
    }
}

static void fail_head(const char *file, int line)
{
    test_puts("FAIL ");
    test_puts(g_current);
    test_puts(" at ");
    test_puts(file);
    test_puts(":");
    test_puti(line);
    test_puts(": ");
}

void mbp_test_check(int ok, const char *expr, const char *file, int line)
{
    if (ok) {
        return;
    }
    if (g_failed_checks++ < 5u) {
        fail_head(file, line);
        test_puts(expr);
        test_puts("\n");
    }
}

void mbp_test_check_eq(long a, long b, const char *expr, const char *file, int line)
{
    if (a == b) {
        return;
    }
    if (g_failed_checks++ < 5u) {
        fail_head(file, line);
        test_puts(expr);
        test_puts(" (");
        test_puti(a);
        test_puts(" vs ");
        test_puti(b);
        test_puts(")\n");
    }
}

void mbp_test_check_st(mbp_status a, mbp_status b, const char *expr, const char *file, int line)
{
    if (a == b) {
        return;
    }
    if (g_failed_checks++ < 5u) {
        fail_head(file, line);
        test_puts(expr);
        test_puts(" is ");
        test_puts(mbp_status_name(a));
        test_puts(", expected ");
        test_puts(mbp_status_name(b));
        test_puts("\n");
    }
}

bool mbp_test_failed(void)
{
    return g_failed_checks != 0u;
}

uint32_t test_rand(uint32_t *state)
{
    uint32_t x = *state != 0u ? *state : 0x9E3779B9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

uint32_t test_below(uint32_t *state, uint32_t n)
{
    return (uint32_t)(((uint64_t)test_rand(state) * n) >> 32);
}

int main(void)
{
    uint32_t passed = 0u, failed = 0u;
    for (uint32_t i = 0; i < sizeof k_tests / sizeof k_tests[0]; i++) {
        if (k_tests[i].fn == NULL) {
            continue; /* compiled out in this configuration */
        }
        g_current = k_tests[i].name;
        g_failed_checks = 0u;
        k_tests[i].fn();
        if (g_failed_checks == 0u) {
            passed++;
        } else {
            failed++;
        }
    }
    test_puts(MBP_TEST_PLATFORM ": ");
    test_putu(passed);
    test_puts(" passed, ");
    test_putu(failed);
    test_puts(" failed\n");
    return failed > 100u ? 100 : (int)failed;
}
