/* SPDX-License-Identifier: MIT */
/* test_bp_brute.c: brute force as a data structure (mbp_bp.h), without a world: its pairs are
 * exactly the overlapping ones, and its queries find every overlapping body. */
#include "test_util.h"

#if MBP_WITH_BRUTE
#define BP_ADD(i, box) ((void)(i), (void)(box), MBP_OK)
#define BP_MOVE(i, old, box) ((void)(i), (void)(old), (void)(box), MBP_OK)
#define BP_REMOVE(i, last) ((void)(i), (void)(last))
#define BP_UPDATE(v, out) mbp__brute_update(v, out)
#define BP_QUERY(v, box, fn, c) mbp__brute_query(v, box, fn, c)
#include "bp_harness.h"

TEST(bp_brute_random_scenes_give_exactly_the_overlapping_pairs)
{
    for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
        uint32_t noroom;
        CHECK_EQ(bp_random_run(&g_bp, seed, TEST_BODIES / 2u, TEST_FRAMES, 160, 12, true, &noroom), 0);
        CHECK_EQ(noroom, 0);
    }
}

TEST(bp_brute_never_pairs_two_static_bodies)
{
    bp_reset(&g_bp, 7u);
    mbp_aabb b = box2(0, 0, 2, 2);
    CHECK_ST(bp_add(&g_bp, 0, &b), MBP_OK);
    CHECK_ST(bp_add(&g_bp, 1, &b), MBP_OK);
    CHECK_ST(bp_add(&g_bp, 2, &b), MBP_OK);
    g_bp.flags[0] |= MBP__STATIC;
    g_bp.flags[1] |= MBP__STATIC;
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, 2); /* (0, 2) and (1, 2), not (0, 1) */
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) < 0);
}

TEST(bp_brute_counts_one_box_test_per_pair_of_live_bodies)
{
    bp_reset(&g_bp, 9u);
    mbp_aabb b = box2(0, 0, 1, 1);
    for (uint16_t i = 0; i < 5u; i++) {
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    bp_remove(&g_bp, 2);
    mbp__bodies v = bp_view(&g_bp);
    mbp__sink out = {&g_bp.ps, bp_volumes(&g_bp), 0u, 0u};
    CHECK_ST(mbp__brute_update(&v, &out), MBP_OK);
    CHECK_EQ(out.tests, 6); /* 4 live bodies: 4 * 3 / 2 */
}
#endif
