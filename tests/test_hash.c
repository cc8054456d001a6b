/* SPDX-License-Identifier: MIT */
/* test_hash.c: the spatial hash (MBP_HASH). The twin-world helpers are in cells_twin.c. */
#include "cells_twin.h"

TEST(hash_extra_differential_runs_match_the_oracle)
{
#if MBP_WITH_HASH
    cells_extra_diff(MBP_HASH, 21u);
#endif
}

TEST(hash_collisions_in_a_one_bucket_table_cost_time_not_pairs)
{
#if MBP_WITH_HASH
    mbp_params p;
    cells_params(&p, MBP_HASH, 2);
    p.hash_buckets = 1u; /* every cell collides */
    CHECK_EQ(twin_scene(&p, 31u, TEST_BODIES / 2u, 30u, -30, 50, 4), 0);
    p.hash_buckets = 4u;
    CHECK_EQ(twin_scene(&p, 32u, TEST_BODIES / 2u, 30u, -30, 50, 4), 0);
    /* Two cells in one bucket: the reporting cell is chosen by cell coordinates, not buckets. */
    p.hash_buckets = 1u;
    cells_tested_once_check(&p);
#endif
}

TEST(hash_a_pair_sharing_many_cells_is_tested_once)
{
#if MBP_WITH_HASH
    mbp_params p;
    cells_params(&p, MBP_HASH, 1);
    cells_tested_once_check(&p);
#endif
}

TEST(hash_negative_far_and_border_coordinates_pair_like_brute_force)
{
#if MBP_WITH_HASH
    mbp_params p;
    cells_params(&p, MBP_HASH, 4);
    /* Around the origin: negative cells, boxes on cell borders (multiples of 4 are common). */
    CHECK_EQ(twin_scene(&p, 41u, TEST_BODIES / 2u, 40u, -64, 64, 8), 0);
    /* A cell size that is not a power of two (a division in fixed point). */
    p.cell_size = mbp_from_int(3);
    CHECK_EQ(twin_scene(&p, 42u, TEST_BODIES / 2u, 40u, -64, 64, 8), 0);
    /* Tiny cells: coordinates beyond +-32767 cells share the outermost cells. */
    p.cell_size = mbp_from_ratio(1, 64);
    CHECK_EQ(twin_scene(&p, 43u, TEST_BODIES / 3u, 30u, -2000, 2000, 1), 0);
    /* Near the ends of the range. */
    cells_params(&p, MBP_HASH, 4);
    twin_init(&p);
    mbp_aabb b = box2(0, 0, 1, 1);
    for (int k = 0; k < MBP_DIM; k++) {
        b.min[k] = MBP_RANGE - MBP_ONE;
        b.max[k] = MBP_RANGE;
    }
    CHECK_ST(twin_add(&b, NULL), MBP_OK);
    CHECK_ST(twin_add(&b, NULL), MBP_OK);
    for (int k = 0; k < MBP_DIM; k++) {
        b.min[k] = -MBP_RANGE;
        b.max[k] = -MBP_RANGE + MBP_ONE;
    }
    CHECK_ST(twin_add(&b, NULL), MBP_OK);
    CHECK(twin_update());
    CHECK_EQ(mbp_pair_count(&test_w), 1);
    CHECK(twin_query(&b));
#endif
}

TEST(hash_bodies_covering_too_many_cells_go_to_the_large_list)
{
#if MBP_WITH_HASH
    mbp_params p;
    cells_params(&p, MBP_HASH, 1);
    twin_init(&p);
    uint16_t big, wall;
    mbp_aabb b = box2(-1000, -1000, 1000, 1000); /* far more than MBP_GRID_MAX_CELLS_PER_BODY */
    CHECK_ST(twin_add(&b, &big), MBP_OK);
    b = box2(-50, 0, 50, 0);
    CHECK_ST(twin_add(&b, &wall), MBP_OK);
    CHECK(twin_update());
    CHECK(CELLS_LARGE(big));
    CHECK(CELLS_LARGE(wall));
    CHECK_EQ(test_w.be.grid.free_count, MBP_GRID_MAX_ENTRIES);
    uint32_t r = 77u;
    for (uint32_t k = 2; k < TEST_BODIES / 2u; k++) {
        int32_t x = (int32_t)test_below(&r, 120u) - 60, y = (int32_t)test_below(&r, 120u) - 60;
        mbp_aabb s = box2(x, y, x + 1, y + 1);
        CHECK_ST(twin_add(&s, NULL), MBP_OK);
    }
    CHECK(twin_update());
    /* The wall shrinks back into ordinary cells and grows again. */
    b = box2(-1, 0, 1, 0);
    CHECK_ST(twin_move(wall, &b), MBP_OK);
    CHECK(twin_update());
    CHECK(test_w.be.grid.level[wall] == 0u && !CELLS_LARGE(wall));
    b = box2(-60, -2, 60, 2);
    CHECK_ST(twin_move(wall, &b), MBP_OK);
    CHECK(twin_update());
    CHECK(twin_query(&b));
#endif
}

TEST(hash_a_full_entry_pool_returns_noroom_and_the_world_stays_exact)
{
#if MBP_WITH_HASH
    cells_noroom_check(MBP_HASH);
#endif
}

TEST(hash_bad_bucket_counts_are_refused)
{
#if MBP_WITH_HASH
    mbp_params p;
    cells_params(&p, MBP_HASH, 4);
    p.hash_buckets = 3u;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    p.hash_buckets = 0u;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    p.hash_buckets = 2u * MBP_HASH_BUCKETS;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    p.hash_buckets = 2u;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
#endif
}

/* ---- incremental frames ---- */

TEST(hash_moves_within_the_cells_cost_the_backend_nothing_in_an_update)
{
#if MBP_WITH_HASH
    cells_incremental_check(MBP_HASH);
#endif
}

TEST(hash_a_body_crossing_a_cell_border_back_and_forth_pairs_exactly)
{
#if MBP_WITH_HASH
    cells_border_check(MBP_HASH);
#endif
}

TEST(hash_every_body_in_one_cell_pairs_exactly_in_both_frame_modes)
{
#if MBP_WITH_HASH
    cells_one_cell_check(MBP_HASH);
#endif
}

TEST(hash_moves_of_one_frame_share_the_entry_pool_whatever_their_order)
{
#if MBP_WITH_HASH
    cells_pending_room_check(MBP_HASH);
#endif
}

TEST(hash_candidates_overflowing_the_pair_set_fall_back_to_exact_full_frames)
{
#if MBP_WITH_HASH
    cells_overflow_check(MBP_HASH);
#endif
}

TEST(hash_random_scenes_match_brute_force_in_incremental_and_in_full_frames)
{
#if MBP_WITH_HASH
    mbp_params p;
    cells_params(&p, MBP_HASH, 2);
    for (uint8_t pin = 1; pin <= 2u; pin++) {
        cells_pin(pin);
        CHECK_EQ(twin_scene(&p, 90u + pin, TEST_BODIES / 2u, 40u, -20, 60, 5), 0);
        CHECK_EQ(twin_scene(&p, 92u + pin, TEST_BODIES / 3u, 30u, -40, 40, 12), 0);
    }
    cells_pin(0u);
#endif
}

TEST(hash_a_body_covering_the_whole_table_moves_and_queries_without_walking_its_cells)
{
#if MBP_WITH_HASH
    /* 65536^MBP_DIM cells (clamped at +-32767 per axis): the engine checks the bodies instead of
     * walking the cells, in incremental and in full frames, and so does a query. */
    mbp_params p;
    cells_params(&p, MBP_HASH, 1);
    p.hash_buckets = 2u;
    for (uint8_t pin = 1; pin <= 2u; pin++) {
        cells_pin(pin);
        twin_init(&p);
        mbp_aabb all = box2(0, 0, 0, 0), half = all;
        for (int k = 0; k < MBP_DIM; k++) {
            all.min[k] = -MBP_RANGE;
            all.max[k] = MBP_RANGE;
            half.min[k] = 0;
            half.max[k] = MBP_RANGE;
        }
        uint16_t big;
        CHECK_ST(twin_add(&half, &big), MBP_OK);
        uint32_t r = 8u;
        for (uint32_t k = 1; k < TEST_BODIES / 4u; k++) {
            mbp_aabb b = rand_box(&r, -20, 20, 2);
            CHECK_ST(twin_add(&b, NULL), MBP_OK);
        }
        CHECK(twin_update());
        for (uint32_t f = 0; f < 6u && !mbp_test_failed(); f++) {
            CHECK_ST(twin_move(big, f % 2u == 0u ? &all : &half), MBP_OK);
            CHECK(twin_update());
            CHECK(twin_query(&all));
        }
    }
    cells_pin(0u);
#endif
}
