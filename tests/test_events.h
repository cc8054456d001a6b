/* SPDX-License-Identifier: MIT */
/* test_events.h: the tests' way to read a world's events, with or without event lists
 * (tests/mbp_test.h includes it; tests/fuzz/ops.c too, which the fuzzer builds alone). */
#ifndef TEST_EVENTS_H
#define TEST_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include "mbp.h"

/* The begun (else ended) events of the last update, as mbp_begun() (mbp_ended()); in a
 * configuration without event lists (MBP_WITH_EVENTS 0: the 2d_fixed_sapq one) NULL, with *n the
 * statistics' count: the callers then check the counts, and the lists' contents in the other
 * configurations. */
static inline const mbp_pair *test_events(const mbp_world *w, bool begun, uint32_t *n)
{
#if MBP_WITH_EVENTS
    return begun ? mbp_begun(w, n) : mbp_ended(w, n);
#else
    *n = begun ? mbp_get_stats(w)->begun : mbp_get_stats(w)->ended;
    return NULL;
#endif
}
#define test_begun(w, n) test_events((w), true, (n))
#define test_ended(w, n) test_events((w), false, (n))

#endif
