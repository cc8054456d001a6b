/* SPDX-License-Identifier: MIT */
/* test_bp_sweep.c: the single-axis sort and sweep as a data structure (mbp_bp.h), without a
 * world: exactly the overlapping pairs on every axis choice, through removes, teleports (the heap
 * sort's fallback) and quiet updates; queries find every overlapping body. */
#include "test_util.h"

#if MBP_WITH_SWEEP
static mbp_sweep_state g_sweep;
#define BP_ADD(i, box) mbp__sweep_add(&g_sweep, i, box)
#define BP_MOVE(i, old, box) ((void)(i), (void)(old), (void)(box), MBP_OK)
#define BP_REMOVE(i, last) mbp__sweep_remove(&g_sweep, i, last)
#define BP_UPDATE(v, out) mbp__sweep_update(&g_sweep, v, out)
#define BP_QUERY(v, box, fn, c) mbp__sweep_query(&g_sweep, v, box, fn, c)
#include "bp_harness.h"

static void sweep_init(uint8_t axis)
{
    mbp_params p;
    mbp_params_default(&p);
    p.sweep_axis = axis;
    CHECK_ST(mbp__sweep_init(&g_sweep, &p), MBP_OK);
}

TEST(bp_sweep_random_scenes_give_exactly_the_overlapping_pairs_on_every_axis_choice)
{
    for (uint8_t ax = 0u; ax <= MBP_DIM; ax++) {
        uint8_t axis = ax == MBP_DIM ? (uint8_t)MBP_AXIS_AUTO : ax;
        for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
            uint32_t noroom;
            sweep_init(axis);
            CHECK_EQ(bp_random_run(&g_bp, seed, TEST_BODIES / 2u, TEST_FRAMES, 160, 12, true,
                                   &noroom), 0);
            CHECK_EQ(noroom, 0);
        }
    }
}

TEST(bp_sweep_refuses_an_axis_the_world_does_not_have)
{
    mbp_params p;
    mbp_params_default(&p);
    p.sweep_axis = MBP_DIM;
    CHECK_ST(mbp__sweep_init(&g_sweep, &p), MBP_E_PARAM);
}

TEST(bp_sweep_an_update_with_nothing_changed_reports_nothing)
{
    sweep_init(0u);
    bp_reset(&g_bp, 3u);
    mbp_aabb b = box2(0, 0, 2, 2);
    CHECK_ST(bp_add(&g_bp, 0, &b), MBP_OK);
    CHECK_ST(bp_add(&g_bp, 1, &b), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, 1);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.touched, 0); /* the sink saw no report: the pairs stand as they were */
    CHECK_EQ(g_bp.ps.count, 1);
}

TEST(bp_sweep_bodies_in_reverse_order_fall_back_to_the_heap_sort)
{
    sweep_init(0u);
    bp_reset(&g_bp, 5u);
    uint16_t n = (uint16_t)(TEST_BODIES / 2u);
    for (uint16_t i = 0; i < n; i++) {
        mbp_aabb b = box2((int32_t)(4 * i), 0, (int32_t)(4 * i + 1), 1);
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    uint32_t before = g_sweep.heap_sorts;
    for (uint16_t i = 0; i < n; i++) { /* every body to the mirror place: order reversed */
        mbp_aabb b = box2((int32_t)(4 * (n - 1u - i)), 0, (int32_t)(4 * (n - 1u - i) + 1), 1);
        CHECK_ST(bp_move(&g_bp, i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(g_sweep.heap_sorts == before + 1u);
    CHECK(bp_pairs_ok(&g_bp, true));
}
#endif
