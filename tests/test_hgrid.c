/* SPDX-License-Identifier: MIT */
/* test_hgrid.c: the hierarchical grid (MBP_HGRID). The twin-world helpers are in cells_twin.c. */
#include "cells_twin.h"

TEST(hgrid_extra_differential_runs_match_the_oracle)
{
#if MBP_WITH_HGRID
    cells_extra_diff(MBP_HGRID, 51u);
#endif
}

TEST(hgrid_one_huge_body_among_many_tiny_ones_takes_a_few_entries)
{
#if MBP_WITH_HGRID
    mbp_params p;
    cells_params(&p, MBP_HGRID, 1);
    twin_init(&p);
    uint16_t huge;
    mbp_aabb b = box2(-30, -30, 30, 30); /* 60 level-0 cells per axis: level 6 (64-unit cells) */
    CHECK_ST(twin_add(&b, &huge), MBP_OK);
    CHECK(twin_update());
    CHECK(test_w.be.hgrid.level[huge] == 6u && !CELLS_LARGE(huge));
    CHECK((uint32_t)MBP_GRID_MAX_ENTRIES - test_w.be.hgrid.free_count <= (1u << MBP_DIM));
    uint32_t r = 99u;
    for (uint32_t k = 1; k < TEST_BODIES / 2u; k++) {
        mbp_aabb s = rand_box(&r, -40, 40, 1); /* tiny: level 0 */
        CHECK_ST(twin_add(&s, NULL), MBP_OK);
    }
    CHECK(twin_update());
    for (uint16_t i = 0; i < MBP_MAX_BODIES; i++) {
        CHECK(!twin_live(i) || i == huge || test_w.be.hgrid.level[i] == 0u);
    }
    /* The huge body sweeps across the tiny ones, on and off cell borders. */
    for (int32_t f = 0; f < 24; f++) {
        b = box2(-30 + 3 * f, -30 + f, 30 + 3 * f, 30 + f);
        CHECK_ST(twin_move(huge, &b), MBP_OK);
        CHECK(twin_update());
    }
    CHECK(twin_query(&b));
    b = box2(-35, -35, -34, -34);
    CHECK(twin_query(&b));
#endif
}

TEST(hgrid_mixed_sizes_match_brute_force_also_with_hash_collisions)
{
#if MBP_WITH_HGRID
    mbp_params p;
    cells_params(&p, MBP_HGRID, 1);
    /* Sizes 0 to 24 cells: every level from 0 to 5 is used. */
    CHECK_EQ(twin_scene(&p, 61u, TEST_BODIES / 3u, 40u, -60, 60, 24), 0);
    p.hash_buckets = 2u;
    CHECK_EQ(twin_scene(&p, 62u, TEST_BODIES / 3u, 30u, -60, 60, 24), 0);
    p.hash_buckets = 1u;
    cells_tested_once_check(&p);
    /* A cell size that is not a power of two (a division in fixed point). */
    cells_params(&p, MBP_HGRID, 3);
    CHECK_EQ(twin_scene(&p, 63u, TEST_BODIES / 3u, 30u, -60, 60, 30), 0);
#endif
}

TEST(hgrid_a_small_body_meets_a_coarse_one_once_whatever_cells_they_share)
{
#if MBP_WITH_HGRID
    mbp_params p;
    cells_params(&p, MBP_HGRID, 1);
    twin_init(&p);
    /* A level-2 body (4-unit cells) [-2, 2] spanning 2 cells per axis, and small bodies
     * straddling level-2 cell borders at -4, 0 and 4, each spanning 2 level-0 cells. */
    mbp_aabb b = box2(-2, -2, 2, 2);
    uint16_t big;
    CHECK_ST(twin_add(&b, &big), MBP_OK);
    const int32_t xs[] = {-3, -1, 0, 1, 2};
    uint32_t n = 0;
    for (uint32_t k = 0; k < sizeof xs / sizeof xs[0] && n + 2u < MBP_MAX_BODIES; k++) {
        b = box2(xs[k], xs[k], xs[k] + 1, xs[k] + 1);
        CHECK_ST(twin_add(&b, NULL), MBP_OK);
        n++;
    }
    CHECK(twin_update());
    CHECK_EQ(test_w.be.hgrid.level[big], 2);
    /* Each small one overlaps the big one; neighbours in xs touch or overlap each other. */
    CHECK_EQ(mbp_pair_count(&test_w), mbp_pair_count(&test_w2));
    CHECK_EQ(mbp_get_stats(&test_w)->tests, mbp_pair_count(&test_w));
#endif
}

TEST(hgrid_bodies_beyond_the_coarsest_level_are_large_and_pair_exactly)
{
#if MBP_WITH_HGRID
    mbp_params p;
    cells_params(&p, MBP_HGRID, 1);
    p.cell_size = mbp_from_ratio(1, 1 << (MBP_HGRID_LEVELS - 1)); /* coarsest cell: 1 unit */
    twin_init(&p);
    uint16_t wall;
    mbp_aabb b = box2(-20, 0, 20, 1); /* 41 coarsest cells: more than the per-body limit */
    CHECK_ST(twin_add(&b, &wall), MBP_OK);
    uint32_t r = 3u;
    for (uint32_t k = 1; k < TEST_BODIES / 2u; k++) {
        mbp_aabb s = rand_box(&r, -25, 25, 2);
        CHECK_ST(twin_add(&s, NULL), MBP_OK);
    }
    CHECK(twin_update());
    CHECK(CELLS_LARGE(wall));
    b = box2(-1, 0, 1, 1); /* back to the coarsest level: 3 x 2 (x 2) cells */
    CHECK_ST(twin_move(wall, &b), MBP_OK);
    CHECK(twin_update());
    CHECK(test_w.be.hgrid.level[wall] == MBP_HGRID_LEVELS - 1 && !CELLS_LARGE(wall));
    twin_remove(wall);
    CHECK(twin_update());
    b = box2(-25, -25, 25, 25);
    CHECK(twin_query(&b));
#endif
}

TEST(hgrid_a_full_entry_pool_returns_noroom_and_the_world_stays_exact)
{
#if MBP_WITH_HGRID
    cells_noroom_check(MBP_HGRID);
#endif
}

/* ---- incremental frames ---- */

TEST(hgrid_moves_within_the_cells_cost_the_backend_nothing_in_an_update)
{
#if MBP_WITH_HGRID
    cells_incremental_check(MBP_HGRID);
#endif
}

TEST(hgrid_a_body_crossing_a_cell_border_back_and_forth_pairs_exactly)
{
#if MBP_WITH_HGRID
    cells_border_check(MBP_HGRID);
#endif
}

TEST(hgrid_every_body_in_one_cell_pairs_exactly_in_both_frame_modes)
{
#if MBP_WITH_HGRID
    cells_one_cell_check(MBP_HGRID);
#endif
}

TEST(hgrid_moves_of_one_frame_share_the_entry_pool_whatever_their_order)
{
#if MBP_WITH_HGRID
    cells_pending_room_check(MBP_HGRID);
#endif
}

TEST(hgrid_candidates_overflowing_the_pair_set_fall_back_to_exact_full_frames)
{
#if MBP_WITH_HGRID
    cells_overflow_check(MBP_HGRID);
#endif
}

TEST(hgrid_random_scenes_match_brute_force_in_incremental_and_in_full_frames)
{
#if MBP_WITH_HGRID
    mbp_params p;
    cells_params(&p, MBP_HGRID, 2);
    for (uint8_t pin = 1; pin <= 2u; pin++) {
        cells_pin(pin);
        CHECK_EQ(twin_scene(&p, 100u + pin, TEST_BODIES / 2u, 40u, -20, 60, 5), 0);
        CHECK_EQ(twin_scene(&p, 102u + pin, TEST_BODIES / 3u, 30u, -40, 40, 12), 0);
    }
    cells_pin(0u);
#endif
}

TEST(hgrid_bodies_changing_level_and_sweeping_coarse_ones_keep_exact_candidates)
{
#if MBP_WITH_HGRID
    mbp_params p;
    cells_params(&p, MBP_HGRID, 1);
    for (uint8_t pin = 0; pin <= 2u; pin++) {
        cells_pin(pin);
        twin_init(&p);
        uint32_t r = 23u;
        for (uint32_t k = 0; k + 3u < TEST_BODIES / 2u; k++) {
            mbp_aabb s = rand_box(&r, -30, 30, 1); /* tiny: level 0 and 1 */
            CHECK_ST(twin_add(&s, NULL), MBP_OK);
        }
        /* g grows and shrinks across levels 0..5; w is a coarse wall sweeping across; l is
         * large (beyond the coarsest level at this cell size: no entries) and moves too. */
        uint16_t g, wall, l;
        mbp_aabb b = box2(0, 0, 1, 1);
        CHECK_ST(twin_add(&b, &g), MBP_OK);
        b = box2(-40, -20, -30, 20);
        CHECK_ST(twin_add(&b, &wall), MBP_OK);
        b = box2(-1000, -2, 1000, 2);
        CHECK_ST(twin_add(&b, &l), MBP_OK);
        CHECK(twin_update());
        CHECK(CELLS_LARGE(l));
        for (int32_t f = 0; f < 30 && !mbp_test_failed(); f++) {
            int32_t size = (f * 7) % 31; /* 0..30 units: levels 0 to 5 */
            b = box2(f - 15, f % 5 - 2, f - 15 + size, f % 5 - 2 + size / 2);
            CHECK_ST(twin_move(g, &b), MBP_OK);
            b = box2(-40 + 3 * f, -20, -30 + 3 * f, 20);
            CHECK_ST(twin_move(wall, &b), MBP_OK);
            if (f % 3 == 0) {
                b = box2(-1000, f - 15, 1000, f - 13);
                CHECK_ST(twin_move(l, &b), MBP_OK);
            }
            CHECK(twin_update());
        }
        b = box2(-30, -30, 30, 30);
        CHECK(twin_query(&b));
    }
    cells_pin(0u);
#endif
}
