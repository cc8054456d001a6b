/* SPDX-License-Identifier: MIT */
/* mbp_brute.c: brute force, the reference backend.
 *
 * Every pair of active bodies is tested: n(n-1)/2 box tests, no state, no RAM, and nothing to go
 * wrong. For a dozen bodies it is also the fastest. When at most half the bodies moved since the
 * last update, only the pairs with a moved body can have changed: each moved body is tested
 * against every other one instead, and the frame costs O(moved * n + stored pairs); a frame where
 * nothing moved costs nothing. Otherwise, or when the last update could not store every pair,
 * the whole O(n^2) frame. (Measured on the M4, make bench: with every body moving, the whole frame
 * costs about 28 instructions a pair tested and the incremental one 39, with its pair-set probes;
 * at half moving they are about even.) Queries O(n).
 */
#include "mbp_bp.h"

/* Few moved: the stored pairs with a moved body end, then each moved body is tested against every
 * other body in use (mbp__sink_retest(): a pair of two moved bodies once, and begun again only
 * when it overlaps). */
static uint32_t brute_moved(const mbp__bodies *v, mbp__sink *out)
{
    if (v->moved_count == 0u) {
        return 0u; /* nothing changed (removed bodies' pairs are the world's to end) */
    }
    mbp__sink_end_moved(out);
    const uint8_t *flags = v->flags;
    const mbp_aabb *boxes = v->box;
    uint32_t high = v->high, movers = 0u;
    for (uint32_t d = 0u; d < v->moved_count; d++) {
        uint16_t a = v->moved[d];
        if (!mbp__in(v, a)) {
            continue;
        }
        movers++;
        const mbp_aabb ba = boxes[a];
        for (uint32_t b = 0u; b < high; b++) {
            if ((flags[b] & (MBP__LIVE | MBP__DYING)) == MBP__LIVE) {
                (void)mbp__sink_retest(out, flags, boxes, &ba, a, b);
            }
        }
    }
    /* Counted here, not in the loop (a register less there): each mover against the other live
     * bodies, a pair of two movers once. */
    return movers * (v->live - 1u) - movers * (movers - 1u) / 2u;
}

mbp_status mbp__brute_update(const mbp__bodies *v, mbp__sink *out)
{
    if (2u * v->moved_count <= v->live && !mbp__sink_overflowed(out)) {
        out->tests = brute_moved(v, out);
        return MBP_OK;
    }
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
