/* SPDX-License-Identifier: MIT */
/* mbp_test.h: the test harness, the same on the host and on the targets.
 *
 * A test is a function written as TEST(name_as_a_sentence) { ... } at the start of a line in a
 * tests/test_*.c file; the Makefile finds them and lists them in build/.../test_list.inc, so
 * there is nothing to register. CHECK() records a failure with the file and line and goes on;
 * a test passes when none of its checks failed. Output goes through mbp_port_write() only, so
 * no printf is needed on the targets.
 */
#ifndef MBP_TEST_H
#define MBP_TEST_H

#include <stdint.h>
#include <stdbool.h>
#include "mbp.h"
#include "mbp_port.h"

#define TEST(name) void name(void)

#define CHECK(e) mbp_test_check((e) ? 1 : 0, #e, __FILE__, __LINE__)
/* Integer equality that prints both values on failure. */
#define CHECK_EQ(a, b) mbp_test_check_eq((long)(a), (long)(b), #a " == " #b, __FILE__, __LINE__)
/* A status equality that prints both names on failure. */
#define CHECK_ST(a, b) mbp_test_check_st((a), (b), #a, __FILE__, __LINE__)

void mbp_test_check(int ok, const char *expr, const char *file, int line);
void mbp_test_check_eq(long a, long b, const char *expr, const char *file, int line);
void mbp_test_check_st(mbp_status a, mbp_status b, const char *expr, const char *file, int line);
/* True when the running test has failed a check (lets long loops stop early). */
bool mbp_test_failed(void);

/* Output helpers (no printf on targets). */
void test_puts(const char *s);
void test_putu(uint32_t v);
void test_puti(long v);

/* The worlds the tests share: the M0 has room for two, not one per test file. */
extern mbp_world test_w;
extern mbp_world test_w2;

/* A small deterministic PRNG (xorshift32): the same sequence on every machine. */
uint32_t test_rand(uint32_t *state);
/* Uniform in [0, n), n > 0. */
uint32_t test_below(uint32_t *state, uint32_t n);

/* Sizes scaled to the configuration, so the same tests fit the 16 KB Cortex-M0. */
#ifndef TEST_BODIES_CAP
#define TEST_BODIES_CAP 200u
#endif
#define TEST_BODIES (MBP_MAX_BODIES < TEST_BODIES_CAP ? MBP_MAX_BODIES : TEST_BODIES_CAP)
/* Frames per random run and seeds per scene: the Makefile sets more on the host, fewer on the
 * QEMU machines. */
#ifndef TEST_FRAMES
#define TEST_FRAMES 60u
#endif
#ifndef TEST_SEEDS
#define TEST_SEEDS 3u
#endif

/* The largest pile of m bodies whose m (m - 1) / 2 pairs all fit in MBP_MAX_PAIRS: the tests
 * that fill the pair set start from it. */
static inline uint32_t test_pile_that_fits(void)
{
    uint32_t m = 2u;
    while ((m + 1u) * m / 2u <= (uint32_t)MBP_MAX_PAIRS) {
        m++;
    }
    return m;
}

/* The status of an update whose pass leaves `stored` entries in the pair set (its pairs, and
 * the candidates its backend keeps) and records `events` events, none of them the end of a pair
 * that leaves the set: MBP_E_EVENTS_FULL when they outgrow the free entries and MBP_MAX_EVENTS
 * (events share the pair set's entries), else MBP_OK. */
static inline mbp_status test_events_status(uint32_t stored, uint32_t events)
{
    return MBP_WITH_EVENTS && stored + events > (uint32_t)MBP__PAIR_ROOM ? MBP_E_EVENTS_FULL
                                                                          : MBP_OK;
}

/* A pair as one ascending key, a << 16 | b: the order of mbp_sort_pairs() and of the oracle's
 * lists. */
static inline uint32_t test_pair_key(mbp_pair p)
{
    return (uint32_t)p.a << 16 | p.b;
}

#include "test_events.h" /* test_begun(), test_ended() */

#endif
