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
#define BP_CALM
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

/* Few bodies move (each scans its window of the sorted axis), some growing large, on every axis
 * choice; with a fixed axis, no more box tests than each mover against every other body. */
TEST(bp_sweep_calm_random_scenes_give_exactly_the_overlapping_pairs)
{
    for (uint8_t ax = 0u; ax <= MBP_DIM; ax++) {
        uint8_t axis = ax == MBP_DIM ? (uint8_t)MBP_AXIS_AUTO : ax;
        for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
            sweep_init(axis);
            /* A fixed axis: an update where at most 1 body in 8 moved is a few-moved one (the
             * auto axis is chosen again every 16 updates, in a whole frame). */
            uint32_t few = axis != (uint8_t)MBP_AXIS_AUTO ? 8u : 0u;
            CHECK_EQ(bp_calm_run(&g_bp, seed, TEST_BODIES / 2u, TEST_FRAMES, true, few), 0);
        }
    }
}

/* An update whose every body was removed before it sweeps nothing, on each axis, and the next one
 * finds the pairs of the bodies added then. */
TEST(bp_sweep_an_update_after_every_body_left_sweeps_an_empty_order_on_every_axis)
{
    for (uint8_t ax = 0u; ax < MBP_DIM; ax++) {
        sweep_init(ax);
        bp_reset(&g_bp, 9u);
        mbp_aabb b = box2(0, 0, 2, 2);
        CHECK_ST(bp_add(&g_bp, 0, &b), MBP_OK);
        bp_remove(&g_bp, 0);
        CHECK_ST(bp_update(&g_bp), MBP_OK); /* added and gone: the order is empty */
        CHECK_EQ(g_sweep.count, 0);
        CHECK_EQ(g_bp.ps.count, 0);
        CHECK_ST(bp_add(&g_bp, 1, &b), MBP_OK);
        CHECK_ST(bp_add(&g_bp, 2, &b), MBP_OK);
        CHECK_ST(bp_update(&g_bp), MBP_OK);
        CHECK_EQ(g_bp.ps.count, 1);
        CHECK(bp_pairs_ok(&g_bp, true));
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
/* n bodies in a row, 3 units apart on axis 0 and `dy` apart on the others (boxes of 1). */
static void place_row(uint16_t n, int32_t dy, bool reversed)
{
    for (uint16_t i = 0; i < n; i++) {
        int32_t at = (int32_t)(reversed ? n - 1u - i : i);
        mbp_aabb b = box2(3 * at, dy * at, 3 * at + 1, dy * at + 1);
        CHECK_ST(bp_move(&g_bp, i, &b), MBP_OK);
    }
}

/* The auto axis, and n bodies added in a row along axis 0: the first update chooses it. */
static uint16_t start_row(void)
{
    uint16_t n = (uint16_t)(TEST_BODIES / 2u);
    sweep_init(MBP_AXIS_AUTO);
    bp_reset(&g_bp, 7u);
    for (uint16_t i = 0; i < n; i++) {
        mbp_aabb b = box2(3 * (int32_t)i, 0, 3 * (int32_t)i + 1, 1);
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sweep.axis, 0);
    return n;
}

/* The auto axis is chosen at the first update, then kept while the bodies keep their spread
 * along it, even when another axis spreads more, until 16 updates have passed. */
TEST(bp_sweep_auto_axis_is_chosen_again_after_sixteen_updates)
{
    uint16_t n = start_row();
    for (uint32_t u = 1u; u < 16u; u++) {
        place_row(n, 6, false); /* twice the spread on the other axes: not chosen yet */
        CHECK_ST(bp_update(&g_bp), MBP_OK);
        CHECK_EQ(g_sweep.axis, 0);
        CHECK(bp_pairs_ok(&g_bp, true));
    }
    place_row(n, 6, false);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(g_sweep.axis != 0);
    CHECK(bp_pairs_ok(&g_bp, true));
}

/* When the insertion sort gives up (the bodies jumped), the auto axis is chosen again at once,
 * and only one heap sort runs, on the new axis. */
TEST(bp_sweep_auto_axis_is_chosen_again_when_the_bodies_jump)
{
    uint16_t n = start_row();
    uint32_t before = g_sweep.heap_sorts;
    place_row(n, 6, true); /* reversed on axis 0, twice the spread on the others */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    if (n >= 16u) {
        CHECK(g_sweep.axis != 0);
        CHECK_EQ(g_sweep.heap_sorts, before + 1u);
    }
    CHECK(bp_pairs_ok(&g_bp, true));
}
#endif
