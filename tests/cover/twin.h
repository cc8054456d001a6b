/* SPDX-License-Identifier: MIT */
/* twin.h: the same call on test_w (the backend under test) and test_w2 (brute force), for
 * tests/test_cover_*.c; each must succeed, and bodies get the same index in both. twin_same()
 * (tests/twin.h) compares what the two worlds hold. */
#ifndef COVER_TWIN_H
#define COVER_TWIN_H

#include "../diff.h"
#include "../twin.h"

static inline void twin_add(const mbp_aabb *b)
{
    mbp_body h1, h2;
    CHECK_ST(mbp_add_box(&test_w, b, 0u, &h1), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w2, b, 0u, &h2), MBP_OK);
    CHECK_EQ(mbp_index(h1), mbp_index(h2));
}

static inline void twin_move(uint16_t i, const mbp_aabb *b)
{
    CHECK_ST(mbp_move_box(&test_w, mbp_handle(&test_w, i), b), MBP_OK);
    CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, i), b), MBP_OK);
}

static inline void twin_remove(uint16_t i)
{
    CHECK_ST(mbp_remove(&test_w, mbp_handle(&test_w, i)), MBP_OK);
    CHECK_ST(mbp_remove(&test_w2, mbp_handle(&test_w2, i)), MBP_OK);
}

#endif
