/* SPDX-License-Identifier: MIT */
/* test_sweep.c: the single-axis sort-and-sweep backend. */
#include "twin.h"
#include "test_util.h"


/* ---- sort and sweep ---- */

static void sweep_params(mbp_params *p, uint8_t axis)
{
    mbp_params_default(p);
    p->backend = MBP_SWEEP;
    p->sweep_axis = axis;
}

TEST(sweep_matches_brute_force_on_every_fixed_axis_and_on_the_auto_axis)
{
    for (uint8_t ax = 0; ax <= MBP_DIM; ax++) {
        mbp_params p;
        sweep_params(&p, ax < MBP_DIM ? ax : (uint8_t)MBP_AXIS_AUTO);
        for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
            twin_opts o = {seed, TEST_BODIES, TEST_FRAMES, 10u, 20u, 0};
            if (twin_run(&p, &o) != 0u) {
                return;
            }
        }
    }
}

TEST(sweep_matches_the_oracle_in_long_runs_of_lines_teleports_and_bursts)
{
    static const diff_scene scenes[] = {SCENE_LINE, SCENE_TELEPORT, SCENE_BURST, SCENE_IDENTICAL};
    for (uint32_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++) {
        for (uint32_t seed = 11; seed < 11u + TEST_SEEDS; seed++) {
            diff_opts o = {seed, TEST_BODIES, 2u * TEST_FRAMES, scenes[s], true, seed % 2u == 0u};
            if (diff_run(MBP_SWEEP, &o) != 0u) {
                return;
            }
        }
    }
}

TEST(sweep_refuses_an_axis_beyond_the_dimension)
{
    mbp_params p;
    sweep_params(&p, (uint8_t)MBP_DIM);
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    sweep_params(&p, (uint8_t)(MBP_DIM - 1));
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

/* Bodies on a row along the last axis: the auto axis follows the spread. */
TEST(sweep_auto_axis_picks_the_axis_along_which_bodies_spread)
{
    mbp_params p;
    sweep_params(&p, (uint8_t)MBP_AXIS_AUTO);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    uint32_t n = TEST_BODIES;
    static mbp_body h[TEST_BODIES];
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b;
        for (int k = 0; k < MBP_DIM; k++) {
            int32_t at = k == MBP_DIM - 1 ? 3 * (int32_t)i : (int32_t)(i % 2u);
            b.min[k] = mbp_from_int(at);
            b.max[k] = mbp_from_int(at + 2);
        }
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(test_w.be.sweep.axis, MBP_DIM - 1);
    /* Rows of 3 units with boxes of 2: no pairs, and only a few tests on this axis. */
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    CHECK(test_w.stats.tests <= n);
    /* Now spread them along axis 0: the axis switches. */
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b;
        for (int k = 0; k < MBP_DIM; k++) {
            int32_t at = k == 0 ? 3 * (int32_t)i : 0;
            b.min[k] = mbp_from_int(at);
            b.max[k] = mbp_from_int(at + 2);
        }
        CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(test_w.be.sweep.axis, 0);
    CHECK(test_w.stats.tests <= n);
}

/* Coherent motion keeps the insertion sort; a frame of teleports falls back to the heap sort. */
TEST(sweep_insertion_sort_gives_way_to_heap_sort_when_bodies_teleport)
{
    mbp_params p;
    sweep_params(&p, 0u);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    uint32_t n = TEST_BODIES, rng = 5u;
    static mbp_body h[MBP_MAX_BODIES];
    static int32_t x[MBP_MAX_BODIES];
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b;
        x[i] = 4 * (int32_t)i;
        for (int k = 0; k < MBP_DIM; k++) {
            b.min[k] = mbp_from_int(k == 0 ? x[i] : 0);
            b.max[k] = mbp_from_int(k == 0 ? x[i] + 1 : 1);
        }
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    uint32_t sorts = test_w.be.sweep.heap_sorts;
    for (uint32_t f = 0; f < 20u; f++) {
        for (uint32_t i = 0; i < n; i++) {
            mbp_aabb b;
            x[i] += (int32_t)test_below(&rng, 5u) - 2; /* neighbours 4 apart: a few swaps */
            for (int k = 0; k < MBP_DIM; k++) {
                b.min[k] = mbp_from_int(k == 0 ? x[i] : 0);
                b.max[k] = mbp_from_int(k == 0 ? x[i] + 1 : 1);
            }
            CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK(test_w.be.sweep.shifts_last <= n);
    }
    CHECK_EQ(test_w.be.sweep.heap_sorts, sorts);
    /* Reverse the order: n^2/2 inversions, beyond the budget. */
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b;
        x[i] = 4 * (int32_t)(n - i);
        for (int k = 0; k < MBP_DIM; k++) {
            b.min[k] = mbp_from_int(k == 0 ? x[i] : 0);
            b.max[k] = mbp_from_int(k == 0 ? x[i] + 4 : 1);
        }
        CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    if (n >= 16u) {
        CHECK_EQ(test_w.be.sweep.heap_sorts, sorts + 1u);
    }
    CHECK_EQ(mbp_pair_count(&test_w), n - 1u); /* touching neighbours */
    for (uint32_t i = 1; i < test_w.be.sweep.count; i++) {
        uint16_t a = test_w.be.sweep.order[i - 1u], b = test_w.be.sweep.order[i];
        CHECK(test_w.box[a].min[0] <= test_w.box[b].min[0]);
    }
}

/* Queries through the sorted axis, with some bodies moved since the update, against brute force. */
TEST(sweep_queries_match_brute_force_with_bodies_moved_since_the_update)
{
    mbp_params p;
    sweep_params(&p, (uint8_t)MBP_AXIS_AUTO);
    twin_opts o = {3u, TEST_BODIES, 5u, 0u, 0u, 0};
    twin_run(&p, &o);
    uint32_t rng = 99u;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i += 3u) { /* move a third without an update */
        if (g_tb[i].live) {
            t_place(&rng, &g_tb[i], 40);
            mbp_aabb x = t_box(&g_tb[i]);
            CHECK_ST(mbp_move_box(&test_w, g_tb[i].h, &x), MBP_OK);
            CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, (uint16_t)i), &x), MBP_OK);
        }
    }
    static uint16_t r1[MBP_MAX_BODIES], r2[MBP_MAX_BODIES];
    for (uint32_t q = 0; q < 50u; q++) {
        tbody t;
        t_place(&rng, &t, 40);
        mbp_aabb box = t_box(&t);
        uint32_t n1, n2;
        CHECK_ST(mbp_query_box(&test_w, &box, 0xFFFFu, r1, MBP_MAX_BODIES, &n1), MBP_OK);
        CHECK_ST(mbp_query_box(&test_w2, &box, 0xFFFFu, r2, MBP_MAX_BODIES, &n2), MBP_OK);
        CHECK_EQ(n1, n2);
        for (uint32_t i = 0; i < n1 && i < n2; i++) {
            CHECK_EQ(r1[i], r2[i]);
        }
    }
}

TEST(sweep_keeps_two_bytes_per_body)
{
    CHECK(sizeof(mbp_sweep_state) <= 2u * MBP_MAX_BODIES + 24u);
}

/* A body added and removed before the first update: that update runs (something changed) and
 * finds no body, with the axis still unchosen; the world is empty and usable. */
TEST(sweep_first_update_after_a_body_came_and_went_is_empty_and_usable)
{
    mbp_params p;
    sweep_params(&p, MBP_AXIS_AUTO);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    mbp_body h, h2;
    mbp_aabb b = box2(0, 0, 1, 1);
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h), MBP_OK);
    CHECK_ST(mbp_remove(&test_w, h), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &b, 1u, &h2), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 1);
}
