/* SPDX-License-Identifier: MIT */
/* mbp_brute.c: brute force, the reference backend.
 *
 * Every pair of active bodies is tested, every frame: n(n-1)/2 box tests, no state, no RAM, and
 * nothing to go wrong. It is the oracle the other backends are checked against, and for a dozen
 * bodies it is also the fastest. Cost per frame O(n^2); queries O(n).
 */
#include "mbp_bp.h"

mbp_status mbp__brute_update(const mbp__bodies *v, mbp__sink *out)
{
    uint32_t tests = 0u;
    mbp__sink_full_frame(out, false);
    for (uint16_t a = 0; a < v->high; a++) {
        if (!mbp__in(v, a)) {
            continue;
        }
        for (uint16_t b = (uint16_t)(a + 1u); b < v->high; b++) {
            if (!mbp__in(v, b)) {
                continue;
            }
            tests++;
            if (mbp_aabb_overlap(&v->box[a], &v->box[b])) {
                mbp__sink_begin(out, a, b);
            }
        }
    }
    out->tests = tests;
    return MBP_OK;
}

void mbp__brute_query(const mbp__bodies *v, const mbp_aabb *box, mbp__visit_fn fn, void *ctx)
{
    for (uint16_t i = 0; i < v->high; i++) {
        if (mbp__in(v, i) && mbp_aabb_overlap(&v->box[i], box)) {
            fn(ctx, i);
        }
    }
}
