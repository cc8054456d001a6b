/* SPDX-License-Identifier: MIT */
/* test_bounds.c: the work of one update is bounded (SAFETY.md, invariant 11), measured by the
 * box tests each backend counts (stats.tests), in the two scenes that hurt broad phases most:
 * every body in one spot (k = n(n-1)/2 pairs) and every body jumping to a random place each frame
 * (no coherence). The per-backend tests (test_sap.c, test_sweep.c, test_tree.c, test_grid.c...)
 * check the finer bounds of each file's top comment: swaps per update, the rebuild paths, the
 * tree's height, the cells' entries. */
#include "diff.h"
#include "test_util.h"

/* A world whose grid covers [0, span) on every axis with as many cells as it may have. */
static void bounds_init(mbp_backend b, uint32_t span)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = b;
    uint32_t c = 1;
    for (;;) { /* cells per axis: c^MBP_DIM <= MBP_GRID_MAX_CELLS */
        uint32_t v = 1, d = c + 1u;
        for (int k = 0; k < MBP_DIM; k++) {
            v *= d;
        }
        if (v > (uint32_t)MBP_GRID_MAX_CELLS) {
            break;
        }
        c = d;
    }
    p.cell_size = mbp_from_int((int32_t)(span / c + 1u));
    for (int k = 0; k < MBP_DIM; k++) {
        p.grid_origin[k] = 0;
        p.grid_cells[k] = (uint16_t)c;
    }
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

/* n bodies so that n(n-1)/2 pairs fit the pair set with room for candidates. */
static uint32_t dense_n(void)
{
    uint32_t n = 2;
    while (n < TEST_BODIES && (n + 1u) * n / 2u * 2u <= (uint32_t)MBP_MAX_PAIRS) {
        n++;
    }
    return n;
}

/* Every body in one spot, jittering: k = n(n-1)/2 pairs, all true. No backend makes more than 4
 * box tests per pair plus 16 per body in an update (the tree's walks visit inner nodes too). */
TEST(no_update_tests_more_than_quadratic_work_when_every_body_overlaps)
{
    uint32_t n = dense_n();
    for (uint32_t bi = 0; bi < diff_backend_count && !mbp_test_failed(); bi++) {
        bounds_init(diff_backends[bi], 4u);
        mbp_body h[TEST_BODIES];
        uint32_t rng = 7u;
        for (uint32_t i = 0; i < n; i++) {
            mbp_aabb b = box2(0, 0, 2, 2);
            CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
        }
        uint32_t worst = 0;
        for (uint32_t f = 0; f < 8u; f++) {
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            CHECK_EQ(mbp_pair_count(&test_w), n * (n - 1u) / 2u);
            uint32_t t = mbp_get_stats(&test_w)->tests;
            worst = t > worst ? t : worst;
            for (uint32_t i = 0; i < n; i++) { /* jitter inside the common spot */
                int32_t d = (int32_t)test_below(&rng, 2u);
                mbp_aabb b = box2(d, d, 2 + d, 2 + d);
                CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
            }
        }
        CHECK(worst <= 4u * n * n + 16u * n);
    }
}

/* The worst update of n scattered bodies that all jump to a random place every frame, over the
 * same density (span^2 grows as n). */
static uint32_t teleport_worst(mbp_backend b, uint32_t n)
{
    uint32_t span = 8u;
    while (span * span < 64u * n) {
        span++;
    }
    bounds_init(b, span + 2u);
    static mbp_body h[TEST_BODIES];
    uint32_t rng = 11u, worst = 0;
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = (int32_t)test_below(&rng, span), y = (int32_t)test_below(&rng, span);
        mbp_aabb bx = box2(x, y, x + 2, y + 2);
        CHECK_ST(mbp_add_box(&test_w, &bx, i, &h[i]), MBP_OK);
    }
    for (uint32_t f = 0; f < 8u; f++) {
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint32_t t = mbp_get_stats(&test_w)->tests;
        worst = f > 0u && t > worst ? t : worst; /* frame 0 adds every body */
        for (uint32_t i = 0; i < n; i++) {
            int32_t x = (int32_t)test_below(&rng, span), y = (int32_t)test_below(&rng, span);
            mbp_aabb bx = box2(x, y, x + 2, y + 2);
            CHECK_ST(mbp_move_box(&test_w, h[i], &bx), MBP_OK);
        }
    }
    return worst;
}

/* Without coherence every backend but brute force stays O(n log n) in box tests. With at least
 * 128 bodies, four times the bodies cost at most 9 times the tests (n log n gives about 5.4 from
 * 50 to 200 bodies, n^2 would give 16); with fewer (small targets), twice the bodies cost at
 * most 3 times (2.2 against 4). Plus 2 per body of slack for backends that test almost nothing.
 * Brute force makes exactly n(n-1)/2. Over twice the bodies at 200, the bound was within the
 * noise of a worst frame: the tree's went from 2.8 to 3.4 when its n/2 case got cheaper. */
TEST(scattered_bodies_that_all_teleport_cost_n_log_n_tests_not_n_squared)
{
    uint32_t n = TEST_BODIES & ~3u;
    bool wide = n >= 128u;
    uint32_t m = wide ? n / 4u : n / 2u, times = wide ? 9u : 3u;
    for (uint32_t bi = 0; bi < diff_backend_count && !mbp_test_failed(); bi++) {
        mbp_backend b = diff_backends[bi];
        uint32_t big = teleport_worst(b, n), small = teleport_worst(b, m);
        if (b == MBP_BRUTE) {
            CHECK_EQ(big, n * (n - 1u) / 2u);
        } else {
            CHECK(big <= times * small + 2u * n);
        }
    }
}

/* A frame where nothing moved skips the core's walk over the pairs: the pairs stay, no event
 * comes, and the first change after it (a move, a filter, a removal) is seen in full. */
TEST(static_frames_keep_every_pair_and_the_next_change_is_seen)
{
    for (uint32_t bi = 0; bi < diff_backend_count && !mbp_test_failed(); bi++) {
        bounds_init(diff_backends[bi], 64u);
        mbp_body h[4];
        for (uint32_t i = 0; i < 4u; i++) { /* a chain: 0-1, 1-2, 2-3 touch */
            mbp_aabb b = box2((int32_t)(2u * i), 0, (int32_t)(2u * i + 2u), 2);
            CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
        }
        uint32_t nb, ne;
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 3);
        for (uint32_t f = 0; f < 3u; f++) {
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            CHECK_EQ(mbp_pair_count(&test_w), 3);
            (void)test_begun(&test_w, &nb);
            (void)test_ended(&test_w, &ne);
            CHECK(nb == 0u && ne == 0u);
        }
        mbp_sort_pairs(&test_w);
        uint32_t it = 0, seen = 0;
        mbp_pair p;
        while (mbp_next_pair(&test_w, &it, &p)) {
            CHECK_EQ(p.b, p.a + 1u);
            seen++;
        }
        CHECK_EQ(seen, 3);
        CHECK_ST(mbp_set_filter(&test_w, h[1], 0x0002u, 0x0002u), MBP_OK); /* ends 0-1, 1-2 */
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 1);
        (void)test_ended(&test_w, &ne);
        CHECK_EQ(ne, 2);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 1);
        CHECK_ST(mbp_remove(&test_w, h[3]), MBP_OK); /* ends 2-3 */
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 0);
        const mbp_pair *e = test_ended(&test_w, &ne);
        CHECK(ne == 1u && (e == NULL || (e[0].a == 2u && e[0].b == 3u)));
    }
}
