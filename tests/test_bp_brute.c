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
#define BP_CALM
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

/* Body i of a row: unit boxes 2 units apart, none touching. */
static mbp_aabb row_box(uint16_t i)
{
    int32_t x = 2 * (int32_t)i - 200;
    return box2(x, 0, x + 1, 1);
}

TEST(bp_brute_few_moved_tests_each_moved_body_against_the_others_only)
{
    const uint16_t n = (uint16_t)(TEST_BODIES < 16u ? TEST_BODIES : 16u);
    bp_reset(&g_bp, 11u);
    for (uint16_t i = 0; i < n; i++) {
        mbp_aabb b = row_box(i);
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK); /* all new: the whole frame */
    CHECK_EQ(g_bp.tests, (uint32_t)n * (n - 1u) / 2u);
    CHECK_EQ(g_bp.ps.count, 0);

    mbp_aabb b = row_box(1); /* body 0 onto body 1 */
    CHECK_ST(bp_move(&g_bp, 0, &b), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.tests, n - 1u);
    CHECK(bp_pairs_ok(&g_bp, true));
    CHECK_EQ(g_bp.ps.count, 1);

    b = row_box(4); /* two movers: 2 onto 4, 3 onto 1 and 0; the pair (2, 3) tested once */
    CHECK_ST(bp_move(&g_bp, 2, &b), MBP_OK);
    b = row_box(1);
    CHECK_ST(bp_move(&g_bp, 3, &b), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.tests, (n - 1u) + (n - 2u));
    CHECK(bp_pairs_ok(&g_bp, true));
    CHECK_EQ(g_bp.ps.count, 4); /* (0, 1) kept, (0, 3), (1, 3), (2, 4) */

    CHECK_ST(bp_update(&g_bp), MBP_OK); /* nothing moved: no test, the pairs as they were */
    CHECK_EQ(g_bp.tests, 0);
    CHECK_EQ(g_bp.ps.count, 4);

    b = row_box(3); /* 3 leaves 0 and 1; the pair (0, 1) it did not touch stays */
    CHECK_ST(bp_move(&g_bp, 3, &b), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.tests, n - 1u);
    CHECK(bp_pairs_ok(&g_bp, true));
    CHECK_EQ(g_bp.ps.count, 2);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) >= 0);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(2, 4)) >= 0);
}

TEST(bp_brute_calm_random_scenes_give_exactly_the_overlapping_pairs)
{
    for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
        CHECK_EQ(bp_calm_run(&g_bp, seed, TEST_BODIES / 2u, TEST_FRAMES, true, 2u), 0);
    }
}

/* A pile that fills the pair set but for a few entries; then, in one update of few movers (the
 * incremental pass), one body leaves the pile and others join it, more than the set can hold.
 * The leaver's pairs still hold their room while the joiners' pairs are reported (they end when
 * the update settles), so more are lost than the set could have held; every pair lost is counted,
 * each once, and the next update, a whole frame because pairs were lost, stores as many as fit. */
TEST(bp_brute_few_movers_overflowing_the_pair_set_count_the_lost_pairs_exactly)
{
    const uint32_t cap = (uint32_t)MBP_MAX_PAIRS, nb = (uint32_t)MBP_MAX_BODIES;
    uint32_t p = 2u;
    while (p + 1u <= nb / 2u && (p + 1u) * p / 2u <= cap) {
        p++;
    }
    uint32_t m = 1u; /* joiners: with the p - 1 that stay, more pairs than the set holds */
    while ((p - 1u + m) * (p - 2u + m) / 2u <= cap) {
        m++;
    }
    if (2u * (m + 1u) > nb || p + m + 1u > nb || p * (p - 1u) / 2u > cap) {
        return; /* this configuration cannot hold the scene */
    }
    bp_reset(&g_bp, 13u);
    mbp_aabb pile = box2(0, -8, 1, -7); /* below the row */
    for (uint16_t i = 0; i < p; i++) {
        CHECK_ST(bp_add(&g_bp, i, &pile), MBP_OK);
    }
    for (uint16_t i = (uint16_t)p; i < nb; i++) {
        mbp_aabb b = row_box((uint16_t)(i + 4u));
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, p * (p - 1u) / 2u);
    mbp_aabb away = row_box((uint16_t)(nb + 10u));
    CHECK_ST(bp_move(&g_bp, 0, &away), MBP_OK);
    for (uint16_t i = (uint16_t)p; i < p + m; i++) {
        CHECK_ST(bp_move(&g_bp, i, &pile), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK); /* the harness settles; the world would say PAIRS_FULL */
    uint32_t want = (p - 1u + m) * (p - 2u + m) / 2u;
    uint32_t moved_tests = 0u; /* the incremental pass: each mover against the others, once */
    for (uint32_t j = 0; j <= m; j++) {
        moved_tests += nb - 1u - j;
    }
    CHECK_EQ(g_bp.tests, moved_tests);
    CHECK(g_bp.lost_last > want - cap);
    CHECK_EQ(g_bp.ps.count + g_bp.lost_last, want);
    for (uint32_t k = 0; k < g_bp.ps.count; k++) {
        CHECK(mbp_aabb_overlap(&g_bp.box[g_bp.ps.pair[k].a], &g_bp.box[g_bp.ps.pair[k].b]));
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK); /* nothing moved, but the last update lost pairs */
    CHECK_EQ(g_bp.tests, nb * (nb - 1u) / 2u);
    CHECK_EQ(g_bp.ps.count, cap);
    CHECK_EQ(g_bp.lost_last, want - cap);
}
#endif
