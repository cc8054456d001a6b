/* SPDX-License-Identifier: MIT */
/* mbp_brute.c: brute force, the reference backend.
 *
 * Every pair of active bodies is tested, every frame: n(n-1)/2 box tests, no state, no RAM, and
 * nothing to go wrong. It is the oracle the other backends are checked against, and for a dozen
 * bodies it is also the fastest. Cost per frame O(n^2); queries O(n).
 */
#include "mbp_internal.h"

mbp_status mbp__brute_update(mbp_world *w)
{
    uint32_t tests = 0u;
    mbp__full_frame(w, false);
    for (uint16_t a = 0; a < w->high; a++) {
        if (!mbp__active(w, a)) {
            continue;
        }
        for (uint16_t b = (uint16_t)(a + 1u); b < w->high; b++) {
            if (!mbp__active(w, b)) {
                continue;
            }
            tests++;
            if (mbp_aabb_overlap(&w->box[a], &w->box[b])) {
                mbp__candidate(w, a, b);
            }
        }
    }
    w->stats.tests = tests;
    return MBP_OK;
}

void mbp__brute_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx)
{
    for (uint16_t i = 0; i < w->high; i++) {
        if (mbp__active(w, i) && mbp_aabb_overlap(&w->box[i], box)) {
            fn(ctx, i);
        }
    }
}
