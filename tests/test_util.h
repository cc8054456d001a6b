/* SPDX-License-Identifier: MIT */
/* test_util.h: small constructors shared by the unit tests, in whole units (exact in float and
 * fixed point). */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include "mbp_test.h"

/* A box from x0 to x1 on the first axis and y0..y1 on every other axis. */
static inline mbp_aabb box2(int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    mbp_aabb b;
    for (int k = 0; k < MBP_DIM; k++) {
        b.min[k] = mbp_from_int(k == 0 ? x0 : y0);
        b.max[k] = mbp_from_int(k == 0 ? x1 : y1);
    }
    return b;
}

/* A sphere at (x, y, [y]) with radius r. */
static inline mbp_sphere sph(int32_t x, int32_t y, int32_t r)
{
    mbp_sphere s;
    for (int k = 0; k < MBP_DIM; k++) {
        s.c[k] = mbp_from_int(k == 0 ? x : y);
    }
    s.r = mbp_from_int(r);
    return s;
}

static inline void pt(mbp_scalar p[MBP_DIM], int32_t x, int32_t y)
{
    for (int k = 0; k < MBP_DIM; k++) {
        p[k] = mbp_from_int(k == 0 ? x : y);
    }
}

/* True when body h of w is live and its box is exactly b. */
static inline bool body_box_is(const mbp_world *w, mbp_body h, const mbp_aabb *b)
{
    mbp_aabb got;
    if (mbp_get_box(w, h, &got) != MBP_OK) {
        return false;
    }
    bool same = true;
    for (int k = 0; k < MBP_DIM; k++) {
        same = same && got.min[k] == b->min[k] && got.max[k] == b->max[k];
    }
    return same;
}

#endif
