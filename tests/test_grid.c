/* SPDX-License-Identifier: MIT */
/* test_grid.c: the uniform grid (MBP_GRID); the twin-world helpers are in cells_twin.c. */
#include "cells_twin.h"

/* ---- grid tests ---- */


TEST(grid_extra_differential_runs_match_the_oracle)
{
#if MBP_WITH_GRID
    cells_extra_diff(MBP_GRID, 11u);
#endif
}

TEST(grid_a_pair_sharing_many_cells_is_tested_once)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 1);
    for (int k = 0; k < MBP_DIM; k++) {
        p.grid_origin[k] = mbp_from_int(-5);
        p.grid_cells[k] = 10u;
    }
    cells_tested_once_check(&p);
#endif
}

TEST(grid_boxes_exactly_on_cell_borders_pair_like_brute_force)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 4);
    twin_init(&p);
    /* Cells are 4 wide: boxes that end exactly on 4, 8, 12 and points on corners. */
    const int32_t c[][4] = {{0, 0, 4, 4},   {4, 0, 8, 4},   {4, 4, 8, 8},     {8, 8, 8, 8},
                            {0, 4, 4, 4},   {12, 0, 16, 4}, {8, 0, 12, 0},    {4, 4, 4, 4},
                            {3, 3, 4, 4},   {8, 4, 12, 8},  {16, 16, 16, 16}, {0, 0, 0, 0}};
    for (uint32_t k = 0; k < sizeof c / sizeof c[0] && k < MBP_MAX_BODIES; k++) {
        mbp_aabb b = box2(c[k][0], c[k][1], c[k][2], c[k][3]);
        CHECK_ST(twin_add(&b, NULL), MBP_OK);
    }
    CHECK(twin_update());
    if (MBP_MAX_BODIES >= 12) {
        /* {0,0,4,4} touches {4,0,8,4} at x = 4 and {4,4,8,8} at a corner. */
        CHECK(mbp_pair_count(&test_w) >= 10u);
    }
    /* Slide everything by a quarter cell at a time through the borders. */
    for (int32_t step = 0; step < 16; step++) {
        for (uint16_t i = 0; i < MBP_MAX_BODIES; i++) {
            if (twin_live(i)) {
                mbp_aabb b;
                CHECK_ST(mbp_get_box(&test_w, mbp_handle(&test_w, i), &b), MBP_OK);
                b.min[0] += (i % 2u) ? MBP_ONE : -MBP_ONE;
                b.max[0] += (i % 2u) ? MBP_ONE : -MBP_ONE;
                CHECK_ST(twin_move(i, &b), MBP_OK);
            }
        }
        CHECK(twin_update());
        mbp_aabb q = box2(4, 4, 8, 8);
        CHECK(twin_query(&q));
        q = box2(8, 0, 8, 0);
        CHECK(twin_query(&q));
    }
#endif
}

TEST(grid_bodies_outside_the_world_box_pair_exactly_in_the_border_cells)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 2);
    for (int k = 0; k < MBP_DIM; k++) {
        p.grid_cells[k] = 3u; /* the world is [10, 16] on every axis */
        p.grid_origin[k] = mbp_from_int(10);
    }
    /* Bodies mostly outside, on both sides, far and near. */
    CHECK_EQ(twin_scene(&p, 1u, TEST_BODIES / 2u, 40u, -60, 80, 6), 0);
    twin_init(&p);
    mbp_aabb a = box2(-1000, -1000, -999, -999), b = box2(-999, -999, -990, -990);
    mbp_aabb c = box2(5000, 5000, 5001, 5001), d = box2(-1000, 5000, -999, 5001);
    CHECK_ST(twin_add(&a, NULL), MBP_OK);
    CHECK_ST(twin_add(&b, NULL), MBP_OK);
    CHECK_ST(twin_add(&c, NULL), MBP_OK);
    CHECK_ST(twin_add(&d, NULL), MBP_OK);
    CHECK(twin_update());
    CHECK_EQ(mbp_pair_count(&test_w), MBP_MAX_BODIES >= 2 ? 1 : 0);
    mbp_aabb q = box2(-1000, -1000, -1000, -1000);
    CHECK(twin_query(&q));
#endif
}

TEST(grid_bodies_larger_than_the_world_pair_with_everything_they_touch)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 2);
    for (int k = 0; k < MBP_DIM; k++) {
        p.grid_cells[k] = 8u;
    }
    twin_init(&p);
    uint32_t r = 5u;
    mbp_aabb huge = box2(-100, -100, 100, 100);
    uint16_t h;
    CHECK_ST(twin_add(&huge, &h), MBP_OK);
    for (uint32_t k = 1; k < TEST_BODIES / 2u; k++) {
        mbp_aabb b = rand_box(&r, -20, 36, 3);
        CHECK_ST(twin_add(&b, NULL), MBP_OK);
    }
    CHECK(twin_update());
    CHECK(CELLS_LARGE(h)); /* no entries: checked against every body */
    for (int32_t f = 0; f < 20; f++) {
        mbp_aabb b = box2(-100 + 10 * f, -100, 20 * f - 100, 100);
        CHECK_ST(twin_move(h, &b), MBP_OK);
        CHECK(twin_update());
        CHECK(twin_query(&b));
    }
#endif
}

TEST(grid_every_body_in_one_cell_pairs_exactly)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 1000);
    uint32_t n = TEST_BODIES / 2u;
    /* Sparse enough for the pair set: a 2D side of 6 units per body. */
    int32_t side = MBP_DIM == 2 ? 6 * 16 : 48;
    CHECK_EQ(twin_scene(&p, 3u, n, 30u, 1, side, 3), 0);
    CHECK_EQ(CELLS(test_w)->level_count[0] + CELLS(test_w)->large_count, mbp_body_count(&test_w));
    CHECK_EQ(CELLS(test_w)->free_count, MBP_GRID_MAX_ENTRIES - mbp_body_count(&test_w));
#endif
}

TEST(grid_random_scenes_with_a_cell_size_that_is_not_a_power_of_two_match_brute_force)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 3);
    for (int k = 0; k < MBP_DIM; k++) {
        p.grid_origin[k] = mbp_from_int(-7);
        p.grid_cells[k] = (uint16_t)(k == 0 ? 9u : 5u);
    }
    CHECK_EQ(twin_scene(&p, 7u, TEST_BODIES / 2u, 40u, -20, 40, 5), 0);
    p.cell_size = mbp_from_ratio(5, 2);
    CHECK_EQ(twin_scene(&p, 8u, TEST_BODIES / 2u, 40u, -20, 40, 5), 0);
#endif
}

TEST(grid_a_full_entry_pool_returns_noroom_and_the_world_stays_exact)
{
#if MBP_WITH_GRID
    cells_noroom_check(MBP_GRID);
#endif
}

TEST(grid_a_move_within_the_same_cells_leaves_the_structure_alone)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 4);
    twin_init(&p);
    mbp_aabb b = box2(1, 1, 2, 2);
    uint16_t i;
    CHECK_ST(twin_add(&b, &i), MBP_OK);
    CHECK(twin_update());
    uint16_t first = CELLS(test_w)->first[i], free_head = CELLS(test_w)->free_head;
    b = box2(0, 0, 3, 3); /* still cell (0, 0) */
    CHECK_ST(twin_move(i, &b), MBP_OK);
    CHECK_EQ(CELLS(test_w)->first[i], first);
    CHECK_EQ(CELLS(test_w)->free_head, free_head);
    b = box2(0, 0, 4, 3); /* now cells (0, 0) and (1, 0) */
    CHECK_ST(twin_move(i, &b), MBP_OK);
    CHECK_EQ(CELLS(test_w)->spare, MBP_GRID_MAX_ENTRIES - 2); /* promised now, linked later */
    CHECK_EQ(CELLS(test_w)->free_count, MBP_GRID_MAX_ENTRIES - 1);
    CHECK(twin_update());
    CHECK_EQ(CELLS(test_w)->free_count, MBP_GRID_MAX_ENTRIES - 2);
#endif
}

TEST(grid_bad_parameters_are_refused)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 4);
    p.cell_size = 0;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    p.cell_size = -MBP_ONE;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    cells_params(&p, MBP_GRID, 4);
    p.grid_cells[0] = 0u;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    cells_params(&p, MBP_GRID, 4);
    for (int k = 0; k < MBP_DIM; k++) {
        p.grid_cells[k] = 65535u;
    }
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM); /* more than MBP_GRID_MAX_CELLS */
    cells_params(&p, MBP_GRID, 4);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
#endif
}

/* ---- incremental frames ---- */

TEST(grid_moves_within_the_cells_cost_the_backend_nothing_in_an_update)
{
#if MBP_WITH_GRID
    cells_incremental_check(MBP_GRID);
#endif
}

TEST(grid_a_body_crossing_a_cell_border_back_and_forth_pairs_exactly)
{
#if MBP_WITH_GRID
    cells_border_check(MBP_GRID);
#endif
}

TEST(grid_every_body_in_one_cell_pairs_exactly_in_both_frame_modes)
{
#if MBP_WITH_GRID
    cells_one_cell_check(MBP_GRID);
#endif
}

TEST(grid_moves_of_one_frame_share_the_entry_pool_whatever_their_order)
{
#if MBP_WITH_GRID
    cells_pending_room_check(MBP_GRID);
#endif
}

TEST(grid_candidates_overflowing_the_pair_set_fall_back_to_exact_full_frames)
{
#if MBP_WITH_GRID
    cells_overflow_check(MBP_GRID);
#endif
}

TEST(grid_random_scenes_match_brute_force_in_incremental_and_in_full_frames)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 3);
    for (uint8_t pin = 1; pin <= 2u; pin++) {
        cells_pin(pin);
        CHECK_EQ(twin_scene(&p, 80u + pin, TEST_BODIES / 2u, 40u, -20, 60, 5), 0);
        CHECK_EQ(twin_scene(&p, 82u + pin, TEST_BODIES / 3u, 30u, -40, 40, 12), 0);
    }
    cells_pin(0u);
#endif
}

TEST(grid_bodies_outside_the_world_box_pair_exactly_in_incremental_frames)
{
#if MBP_WITH_GRID
    mbp_params p;
    cells_params(&p, MBP_GRID, 2);
    for (int k = 0; k < MBP_DIM; k++) {
        p.grid_cells[k] = 4u; /* the world is [-4, 4] on every axis */
        p.grid_origin[k] = mbp_from_int(-4);
    }
    cells_pin(1u);
    /* Most bodies outside, moving in and out through the border cells. */
    CHECK_EQ(twin_scene(&p, 12u, TEST_BODIES / 3u, 40u, -40, 40, 4), 0);
    cells_pin(0u);
#endif
}
