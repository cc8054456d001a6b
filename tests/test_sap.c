/* SPDX-License-Identifier: MIT */
/* test_sap.c: the incremental sweep-and-prune backend: exactness under every budget, the work
 * bound (swaps per update, when it rebuilds), pair-set overflow and recovery, queries, and the
 * quantized endpoints when built with MBP_SAP_QUANTIZED=1. */
#include "twin.h"

static void sap_params(mbp_params *p, uint16_t budget)
{
    mbp_params_default(p);
    p->backend = MBP_SAP;
    p->sap_budget = budget;
}

/* ---- a lattice of bodies in both worlds: the SAP world and brute force ---- */

static int32_t g_x[MBP_MAX_BODIES][MBP_DIM];    /* quarter units */
static int32_t g_home[MBP_MAX_BODIES][MBP_DIM]; /* where lat_init put them */
static int32_t g_size;                        /* quarter units */
static uint32_t g_n;

static mbp_aabb lat_box(uint32_t i)
{
    mbp_aabb b;
    for (int k = 0; k < MBP_DIM; k++) {
        b.min[k] = mbp_from_ratio(g_x[i][k], 4);
        b.max[k] = mbp_from_ratio(g_x[i][k] + g_size, 4);
    }
    return b;
}

/* n bodies of side size/4, spacing/4 apart: on a square of axes 0 and 1 (axis 2 all alike), or
 * when diagonal, each axis a different permutation of 0, spacing, 2 spacing... (sparse on every
 * axis, as scattered bodies are). */
static void lat_init(uint16_t budget, uint32_t n, int32_t spacing, int32_t size, bool diagonal)
{
    mbp_params p, p2;
    sap_params(&p, budget);
    mbp_params_default(&p2);
    p2.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    CHECK_ST(mbp_init(&test_w2, &p2), MBP_OK);
    uint32_t side = 1;
    while (side * side < n) {
        side++;
    }
    g_n = n;
    g_size = size;
    for (uint32_t i = 0; i < n; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            g_x[i][k] = k == 0 ? (int32_t)(i % side) * spacing : k == 1 ? (int32_t)(i / side) * spacing : 0;
            if (diagonal) {
                g_x[i][k] = (int32_t)((i * (k == 0 ? 1u : k == 1 ? 7u : 13u)) % n) * spacing;
            }
            g_home[i][k] = g_x[i][k];
        }
        mbp_aabb b = lat_box(i);
        mbp_body h1, h2;
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h1), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w2, &b, i, &h2), MBP_OK);
        CHECK_EQ(mbp_index(h1), i);
        CHECK_EQ(mbp_index(h2), i);
    }
}

static void lat_move(uint32_t i)
{
    mbp_aabb b = lat_box(i);
    CHECK_ST(mbp_move_box(&test_w, mbp_handle(&test_w, (uint16_t)i), &b), MBP_OK);
    CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, (uint16_t)i), &b), MBP_OK);
}

static mbp_status lat_update(void)
{
    mbp_status s1 = mbp_update(&test_w);
    mbp_status s2 = mbp_update(&test_w2);
    CHECK_ST(s1, s2);
    return s1;
}

/* ---- exactness ---- */

TEST(sap_matches_the_oracle_in_long_runs_of_every_scene)
{
    for (uint32_t s = 0; s < (uint32_t)SCENE_COUNT; s++) {
        for (uint32_t seed = 21; seed < 21u + TEST_SEEDS; seed++) {
            /* On one line, 200 bodies give about 1500 pairs; the set (2048) also holds the
             * candidates whose spheres miss, so keep that scene to half the bodies. */
            uint32_t n = s == (uint32_t)SCENE_LINE ? TEST_BODIES / 2u : TEST_BODIES;
            diff_opts o = {seed, n, 2u * TEST_FRAMES, (diff_scene)s, seed % 2u == 1u,
                           seed % 3u == 0u};
            if (diff_run(MBP_SAP, &o) != 0u) {
                test_puts("  scene ");
                test_putu(s);
                test_puts("\n");
                return;
            }
        }
    }
}

/* Budget 1 rebuilds almost every update, 65535 never: both must be exact, events included. */
TEST(sap_matches_brute_force_whatever_the_swap_budget)
{
    static const uint16_t budgets[] = {1u, 4u, 32u, 65535u};
    for (uint32_t b = 0; b < 4u; b++) {
        mbp_params p;
        sap_params(&p, budgets[b]);
        for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
            twin_opts o = {seed, TEST_BODIES, TEST_FRAMES, 20u * seed, 20u, 0};
            if (twin_run(&p, &o) != 0u) {
                return;
            }
        }
    }
}

TEST(sap_refuses_a_zero_swap_budget)
{
    mbp_params p;
    sap_params(&p, 0u);
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
}

/* ---- the work bound ---- */

/* Adding every body at once costs O(n^2) swaps incrementally: the first update rebuilds. Then
 * sparse bodies jittering by less than the gap swap a few endpoints each, and never rebuild. */
TEST(sap_coherent_motion_stays_incremental_with_few_swaps_per_body)
{
    uint32_t n = TEST_BODIES, rng = 17u;
    lat_init(32u, n, 16, 4, true);
    CHECK_ST(lat_update(), MBP_OK);
    if (n >= 64u) {
        CHECK_EQ(test_w.be.sap.rebuilds, 1);
    }
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    CHECK(twin_same(true));
    for (uint32_t f = 0; f < TEST_FRAMES; f++) {
        for (uint32_t i = 0; i < n; i++) {
            for (int k = 0; k < MBP_DIM; k++) {
                g_x[i][k] = g_home[i][k] + (int32_t)test_below(&rng, 21u) - 10;
            }
            lat_move(i);
        }
        CHECK_ST(lat_update(), MBP_OK);
        CHECK(twin_same(true));
        /* Homes 4 units apart, boxes of 1, moves of up to 2.5 around home: an endpoint can
         * only pass those of its two neighbours on each axis. */
        CHECK(test_w.be.sap.swaps_last <= 2u * MBP_DIM * n);
        CHECK_EQ(test_w.be.sap.batch_last, 1); /* every body moved: one sort pass per axis */
        if (mbp_test_failed()) {
            return;
        }
    }
    CHECK_EQ(test_w.be.sap.rebuilds, rebuilds);
}

/* One body jumping across the world each frame: O(n) swaps, no rebuild, exact. */
TEST(sap_teleport_of_one_body_takes_the_rebuild_free_path)
{
    uint32_t n = TEST_BODIES, rng = 3u;
    lat_init(32u, n, 16, 12, false);
    CHECK_ST(lat_update(), MBP_OK);
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    for (uint32_t f = 0; f < 20u; f++) {
        uint32_t i = test_below(&rng, n);
        for (int k = 0; k < 2 && k < MBP_DIM; k++) {
            g_x[i][k] = (int32_t)test_below(&rng, 16u * 15u);
        }
        lat_move(i);
        CHECK_ST(lat_update(), MBP_OK);
        CHECK(twin_same(true));
        /* Each of its endpoints passes at most every other endpoint of the axis once. */
        CHECK(test_w.be.sap.swaps_last <= MBP_DIM * 2u * 2u * n);
        CHECK_EQ(test_w.be.sap.batch_last, 0); /* one body moved: sifted on its own */
    }
    CHECK_EQ(test_w.be.sap.rebuilds, rebuilds);
}

/* Every body jumping at once: the update stops after the budget and rebuilds, and the swaps
 * spent before the switch stay within the budget plus one body's worth. */
TEST(sap_teleporting_many_bodies_takes_the_rebuild_path)
{
    uint32_t n = TEST_BODIES, rng = 8u;
    uint16_t budget = 4u;
    lat_init(budget, n, 16, 12, false);
    CHECK_ST(lat_update(), MBP_OK);
    for (uint32_t f = 0; f < 5u; f++) {
        uint32_t rebuilds = test_w.be.sap.rebuilds;
        for (uint32_t i = 0; i < n; i++) {
            for (int k = 0; k < 2 && k < MBP_DIM; k++) {
                g_x[i][k] = (int32_t)test_below(&rng, 16u * 15u);
            }
            lat_move(i);
        }
        CHECK_ST(lat_update(), MBP_OK);
        CHECK(twin_same(true));
        CHECK_EQ(test_w.be.sap.rebuilds, rebuilds + 1u);
        CHECK(test_w.be.sap.swaps_last <= budget * (n + 1u) + MBP_DIM * 2u * 2u * n);
    }
    /* And quiet frames after it are incremental again. */
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    for (uint32_t f = 0; f < 5u; f++) {
        g_x[f][0] += 1;
        lat_move(f);
        CHECK_ST(lat_update(), MBP_OK);
        CHECK(twin_same(true));
    }
    CHECK_EQ(test_w.be.sap.rebuilds, rebuilds);
}

/* ---- jumps: bodies taken out and put back by binary search and block moves ---- */

/* frames frames: in each, jumpers random bodies jump to random points of a lattice of step
 * quarter units (span of them on every axis), then, when all, every body also shifts by a
 * quarter unit on the last axis (so that the update sorts all of them in one pass). Every frame
 * is checked against brute force. Returns the jumps counted. */
static uint32_t jump_frames(uint32_t frames, uint32_t jumpers, int32_t step, uint32_t span,
                            bool all, uint32_t *rng)
{
    uint32_t jumps = 0u;
    for (uint32_t f = 0; f < frames && !mbp_test_failed(); f++) {
        for (uint32_t j = 0; j < jumpers; j++) {
            uint32_t i = test_below(rng, g_n);
            for (int k = 0; k < MBP_DIM; k++) {
                g_x[i][k] = (int32_t)test_below(rng, span) * step;
            }
            lat_move(i);
        }
        for (uint32_t i = 0; all && i < g_n; i++) {
            g_x[i][MBP_DIM - 1] += f % 2u == 0u ? 1 : -1;
            lat_move(i);
        }
        CHECK_ST(lat_update(), MBP_OK);
        CHECK(twin_same(true));
        CHECK_EQ(test_w.be.sap.batch_last, all ? 1 : 0);
        jumps += test_w.be.sap.jumps_last;
    }
    return jumps;
}

/* A few bodies at a time (each sorted or jumped on its own) and many at once (one sort pass,
 * the jumpers held back until it is done): exact, and no rebuild. */
TEST(sap_bodies_jumping_across_the_world_pair_exactly_without_a_rebuild)
{
    uint32_t n = TEST_BODIES, rng = 31u;
    lat_init(65535u, n, 16, 12, false);
    CHECK_ST(lat_update(), MBP_OK);
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    uint32_t side = 1u;
    while (side * side < n) {
        side++;
    }
    CHECK(jump_frames(TEST_FRAMES / 4u, n / 32u + 1u, 16, side, false, &rng) > 0u);
    CHECK(jump_frames(TEST_FRAMES / 4u, n / 8u + 1u, 16, side, true, &rng) > 0u);
    CHECK_EQ(test_w.be.sap.rebuilds, rebuilds);
}

/* Jumps onto lattice points of touching boxes: boxes equal to others, boxes touching others on
 * one axis or on all, so endpoints tie with mins and maxes of other bodies. */
TEST(sap_jumps_onto_equal_and_touching_boxes_pair_exactly)
{
    uint32_t n = TEST_BODIES, rng = 32u;
    lat_init(65535u, n, 8, 8, false);
    CHECK_ST(lat_update(), MBP_OK);
    CHECK(mbp_pair_count(&test_w) > 0u);
    CHECK(jump_frames(TEST_FRAMES / 4u, n / 32u + 1u, 8, 24u, false, &rng) > 0u);
    CHECK(jump_frames(TEST_FRAMES / 4u, n / 8u + 1u, 4, 48u, true, &rng) > 0u);
}

/* Zero-size boxes (points) on a lattice: a min and a max of the same value, and many bodies on
 * the same point. */
TEST(sap_zero_size_boxes_jump_onto_shared_points_exactly)
{
    uint32_t n = TEST_BODIES, rng = 33u;
    lat_init(65535u, n, 4, 0, false);
    CHECK_ST(lat_update(), MBP_OK);
    CHECK(jump_frames(TEST_FRAMES / 4u, n / 32u + 1u, 4, 12u, false, &rng) > 0u);
    CHECK(jump_frames(TEST_FRAMES / 4u, n / 8u + 1u, 4, 12u, true, &rng) > 0u);
    /* Where the random jumps left no two points together (few bodies: the micro:bit's 24), one
     * body lands on another's point: they pair. */
    for (int k = 0; k < MBP_DIM; k++) {
        g_x[1][k] = g_x[0][k];
    }
    lat_move(1);
    CHECK_ST(lat_update(), MBP_OK);
    CHECK(twin_same(true));
    CHECK(mbp_pair_count(&test_w) > 0u);
}

/* Every body jumping in one update: more jumpers than an update holds back (MBP_SAP_JUMPS); the
 * rest are sorted into place. Exact with a budget that allows it, and no rebuild. */
TEST(sap_more_jumpers_than_an_update_holds_pair_exactly)
{
    uint32_t n = TEST_BODIES, rng = 34u;
    lat_init(65535u, n, 16, 12, true);
    CHECK_ST(lat_update(), MBP_OK);
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    for (uint32_t f = 0; f < 4u; f++) {
        for (uint32_t i = 0; i < n; i++) {
            for (int k = 0; k < MBP_DIM; k++) {
                g_x[i][k] = (int32_t)test_below(&rng, 16u * n);
            }
            lat_move(i);
        }
        CHECK_ST(lat_update(), MBP_OK);
        CHECK(twin_same(true));
        CHECK(test_w.be.sap.jumps_last <= MBP_SAP_JUMPS);
        CHECK(test_w.be.sap.jumps_last > 0u);
    }
    CHECK_EQ(test_w.be.sap.rebuilds, rebuilds);
}

/* The jumps count against the swap budget: with one swap a body, a frame of many jumpers runs
 * out of it during the jumps (after the sort passes) and rebuilds, still exact. */
TEST(sap_jumps_that_exceed_the_swap_budget_end_in_a_rebuild)
{
    uint32_t n = TEST_BODIES, rng = 35u;
    lat_init(1u, n, 16, 12, true);
    CHECK_ST(lat_update(), MBP_OK);
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    jump_frames(4u, n / 4u + 1u, 16, n, true, &rng);
    CHECK(test_w.be.sap.rebuilds > rebuilds);
}

/* An update that moves many bodies (one sort pass) fills the pair set while its held-back jumpers
 * land: a pile of m bodies holds nearly MBP_MAX_PAIRS pairs and jiggles, and the two farthest of
 * a row of bodies jump onto it. The jumps lose pairs within the swap budget, so the update
 * rebuilds, counts exactly what it lost, and recovers once they leave. */
TEST(sap_jumpers_that_fill_the_pair_set_in_a_sort_pass_rebuild_and_count_the_loss)
{
    uint32_t m = test_pile_that_fits();
    uint32_t n = TEST_BODIES;
    if (n < m + 2u * MBP_SAP_JUMP / 2u || m * (m - 1u) / 2u + 2u * m <= (uint32_t)MBP_MAX_PAIRS ||
        16u * (m + 2u) < 2u * n) {
        return; /* no room for the pile and a row to jump from, or the jumps would fit */
    }
    lat_init(65535u, n, 16, 12, false);
    for (uint32_t i = 0; i < n; i++) { /* the pile at 0, then the row along axis 0 */
        for (int k = 0; k < MBP_DIM; k++) {
            g_x[i][k] = i < m || k != 0 ? 0 : 100 + 16 * (int32_t)(i - m);
        }
        lat_move(i);
    }
    /* The pile's pairs all begin: more events than free entries where none are reserved. */
    CHECK_ST(lat_update(), test_events_status(m * (m - 1u) / 2u, m * (m - 1u) / 2u));
    CHECK(twin_same(false));
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    for (uint32_t i = 0; i < m; i++) {
        g_x[i][0] = 1;
        lat_move(i);
    }
    for (uint32_t i = n - 2u; i < n; i++) {
        g_x[i][0] = 0;
        lat_move(i);
    }
    CHECK_ST(lat_update(), MBP_E_PAIRS_FULL);
    const mbp_stats *a = mbp_get_stats(&test_w), *b = mbp_get_stats(&test_w2);
    CHECK_EQ(a->pairs + a->lost_pairs, b->pairs + b->lost_pairs);
    CHECK_EQ(a->pairs + a->lost_pairs, (m + 2u) * (m + 1u) / 2u);
    CHECK(test_w.be.sap.jumps_last > 0u);
    CHECK(test_w.be.sap.rebuilds > rebuilds);
    for (uint32_t i = n - 2u; i < n; i++) {
        g_x[i][0] = 100 + 16 * (int32_t)(i - m);
        lat_move(i);
    }
    CHECK_ST(lat_update(), MBP_OK);
    CHECK(twin_same(false));
}

/* The switch point: body 0 of a row (one body every 16 quarter units on axis 0, in order) moves
 * onto body m + 1. Its min lies beyond the next 2m + 1 endpoints of axis 0 (its own max, bodies
 * 1 to m): sorted into place below MBP_SAP_JUMP, a jump from there on; the same pairs either
 * way, alone or while every body moves. */
TEST(sap_a_body_jumps_once_its_min_would_pass_sap_jump_endpoints)
{
    const uint32_t half = MBP_SAP_JUMP / 2u;
    uint32_t n = TEST_BODIES;
    if (n < half + 4u) {
        return; /* too few bodies to pass that many endpoints */
    }
    for (uint32_t all = 0; all < 2u; all++) {
        for (uint32_t m = half - 1u; m <= half; m++) {
            lat_init(65535u, n, 16, 4, true);
            CHECK_ST(lat_update(), MBP_OK);
            uint32_t rebuilds = test_w.be.sap.rebuilds;
            for (int k = 0; k < MBP_DIM; k++) {
                g_x[0][k] = g_x[m + 1u][k] - 3; /* overlapping body m + 1 */
            }
            lat_move(0);
            for (uint32_t i = 1; all && i < n; i++) {
                g_x[i][MBP_DIM - 1] += 1;
                lat_move(i);
            }
            CHECK_ST(lat_update(), MBP_OK);
            CHECK(twin_same(true));
            CHECK_EQ(test_w.be.sap.batch_last, all);
            CHECK_EQ(test_w.be.sap.jumps_last, m >= half ? 1 : 0);
            CHECK_EQ(mbp_pair_count(&test_w), 1);
            CHECK_EQ(test_w.be.sap.rebuilds, rebuilds);
        }
    }
}

/* ---- pair set overflow ---- */

/* All bodies on one spot: n(n-1)/2 pairs, more than the set holds. Every such frame says so;
 * once they spread out, the next update is exact again and later ones stay exact. */
TEST(sap_overflowing_pair_set_reports_every_frame_and_recovers_exactly)
{
    uint32_t n = MBP_MAX_BODIES;
    if (n * (n - 1u) / 2u <= MBP_MAX_PAIRS) {
        return; /* this configuration's set cannot overflow with its bodies */
    }
    lat_init(32u, n, 0, 8, false); /* spacing 0: all identical */
    for (uint32_t f = 0; f < 4u; f++) {
        CHECK_ST(lat_update(), MBP_E_PAIRS_FULL);
        CHECK(test_w.stats.lost_pairs > 0u);
        for (uint32_t i = 0; i < n; i += 2u) {
            g_x[i][0] += f % 2u ? -1 : 1;
            lat_move(i);
        }
    }
    /* Spread out on a lattice of touching neighbours. */
    uint32_t side = 1;
    while (side * side < n) {
        side++;
    }
    for (uint32_t i = 0; i < n; i++) {
        g_x[i][0] = (int32_t)(i % side) * 8;
        g_x[i][1 % MBP_DIM] = (int32_t)(i / side) * 8;
        lat_move(i);
    }
    /* During this update the set still holds the pairs of the last: it may overflow once more
     * (as for brute force); the next one has room and is exact. */
    mbp_status st = mbp_update(&test_w);
    CHECK(st == MBP_OK || st == MBP_E_PAIRS_FULL);
    st = mbp_update(&test_w2);
    CHECK(st == MBP_OK || st == MBP_E_PAIRS_FULL);
    CHECK_ST(lat_update(), MBP_OK);
    CHECK_EQ(test_w.stats.lost_pairs, 0);
    CHECK(mbp_pair_count(&test_w) > 0u);
    CHECK(twin_same(false)); /* the ended events differ: what each set kept differed */
    uint32_t rng = 4u;
    for (uint32_t f = 0; f < 10u; f++) {
        for (uint32_t i = 0; i < n; i++) {
            g_x[i][f % MBP_DIM] += (int32_t)test_below(&rng, 3u) - 1;
            lat_move(i);
        }
        CHECK_ST(lat_update(), MBP_OK);
        CHECK(twin_same(true));
    }
}

/* ---- queries ---- */

TEST(sap_box_point_and_ray_queries_match_brute_force)
{
    mbp_params p;
    sap_params(&p, 32u);
    twin_opts o = {5u, TEST_BODIES, 6u, 50u, 10u, 0};
    twin_run(&p, &o);
    uint32_t rng = 7u;
    for (uint16_t i = 0; i < MBP_MAX_BODIES; i += 4u) { /* some moved since the update */
        mbp_body h = mbp_handle(&test_w, i);
        if (h.slot1 != 0u) {
            mbp_aabb b;
            CHECK_ST(mbp_get_box(&test_w, h, &b), MBP_OK);
            b.max[0] = mbp_add_sat(b.max[0], mbp_from_int(3));
            CHECK_ST(mbp_move_box(&test_w, h, &b), MBP_OK);
            CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, i), &b), MBP_OK);
        }
    }
    static uint16_t r1[MBP_MAX_BODIES], r2[MBP_MAX_BODIES];
    static mbp_hit h1[MBP_MAX_BODIES], h2[MBP_MAX_BODIES];
    uint32_t found = 0;
    for (uint32_t q = 0; q < 60u; q++) {
        mbp_scalar a[MBP_DIM], b[MBP_DIM];
        mbp_aabb box;
        for (int k = 0; k < MBP_DIM; k++) {
            a[k] = mbp_from_ratio((int32_t)test_below(&rng, 160u), 4);
            b[k] = mbp_from_ratio((int32_t)test_below(&rng, 160u), 4);
            box.min[k] = a[k] < b[k] ? a[k] : b[k];
            box.max[k] = a[k] < b[k] ? b[k] : a[k];
        }
        uint32_t n1, n2;
        CHECK_ST(mbp_query_box(&test_w, &box, 0xFFFFu, r1, MBP_MAX_BODIES, &n1), MBP_OK);
        CHECK_ST(mbp_query_box(&test_w2, &box, 0xFFFFu, r2, MBP_MAX_BODIES, &n2), MBP_OK);
        CHECK_EQ(n1, n2);
        for (uint32_t i = 0; i < n1 && i < n2; i++) {
            CHECK_EQ(r1[i], r2[i]);
        }
        found += n1;
        CHECK_ST(mbp_query_point(&test_w, a, 0xFFFFu, r1, MBP_MAX_BODIES, &n1), MBP_OK);
        CHECK_ST(mbp_query_point(&test_w2, a, 0xFFFFu, r2, MBP_MAX_BODIES, &n2), MBP_OK);
        CHECK_EQ(n1, n2);
        for (uint32_t i = 0; i < n1 && i < n2; i++) {
            CHECK_EQ(r1[i], r2[i]);
        }
        CHECK_ST(mbp_raycast(&test_w, a, b, 0xFFFFu, h1, MBP_MAX_BODIES, &n1), MBP_OK);
        CHECK_ST(mbp_raycast(&test_w2, a, b, 0xFFFFu, h2, MBP_MAX_BODIES, &n2), MBP_OK);
        CHECK_EQ(n1, n2);
        for (uint32_t i = 0; i < n1 && i < n2; i++) {
            CHECK_EQ(h1[i].index, h2[i].index);
        }
    }
    CHECK(found > 0u); /* the queries were not all empty */
}

/* ---- extreme coordinates and quantized endpoints (build with -DMBP_SAP_QUANTIZED=1) ---- */

/* Boxes at both ends of the range and one spanning it: the sentinels and the placeholder of new
 * bodies lie beyond every coordinate, so these sort and pair like any other. */
TEST(sap_boxes_at_the_ends_of_the_range_pair_exactly)
{
    static const int32_t lo_hi[][2] = {{-4, -3}, {-3, -2}, {2, 3}, {3, 4}, {-4, 4}, {0, 0}};
    mbp_params p, p2;
    sap_params(&p, 32u);
    mbp_params_default(&p2);
    p2.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    CHECK_ST(mbp_init(&test_w2, &p2), MBP_OK);
    mbp_scalar unit = MBP_RANGE / 4, v[9]; /* v[j + 4] = j * unit, the ends exactly the range */
    v[4] = 0;
    for (int j = 1; j <= 3; j++) {
        v[4 + j] = v[3 + j] + unit;
        v[4 - j] = -v[4 + j];
    }
    v[8] = MBP_RANGE;
    v[0] = -MBP_RANGE;
    for (uint32_t f = 0; f < 3u; f++) {
        for (uint32_t i = 0; i < 6u; i++) {
            mbp_aabb b;
            for (int k = 0; k < MBP_DIM; k++) {
                uint32_t j = (i + f * (uint32_t)k) % 6u;
                b.min[k] = v[lo_hi[j][0] + 4];
                b.max[k] = v[lo_hi[j][1] + 4];
            }
            mbp_body h1, h2;
            if (f == 0u) {
                CHECK_ST(mbp_add_box(&test_w, &b, i, &h1), MBP_OK);
                CHECK_ST(mbp_add_box(&test_w2, &b, i, &h2), MBP_OK);
            } else {
                CHECK_ST(mbp_move_box(&test_w, mbp_handle(&test_w, (uint16_t)i), &b), MBP_OK);
                CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, (uint16_t)i), &b), MBP_OK);
            }
        }
        CHECK_ST(lat_update(), MBP_OK);
        CHECK(mbp_pair_count(&test_w) > 0u);
        CHECK(twin_same(true));
    }
#if MBP_SAP_QUANTIZED
    /* The world box is checked. */
    sap_params(&p, 32u);
    p.sap_world.max[0] = p.sap_world.min[0];
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    sap_params(&p, 32u);
    p.sap_world.min[MBP_DIM - 1] = mbp_from_int(5);
    p.sap_world.max[MBP_DIM - 1] = mbp_from_int(-5);
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    /* A world box far too small (most bodies clamped onto its border), then one with coarse
     * steps: still exact; the exact test trims the extra candidates. */
    sap_params(&p, 32u);
    for (int k = 0; k < MBP_DIM; k++) {
        p.sap_world.min[k] = mbp_from_int(10);
        p.sap_world.max[k] = mbp_from_int(20);
    }
    /* Clamped bodies all share one step: n^2/2 candidates, so a quarter of the bodies. */
    twin_opts o = {9u, TEST_BODIES / 4u, TEST_FRAMES, 20u, 20u, 0};
    twin_run(&p, &o);
    for (int k = 0; k < MBP_DIM; k++) {
        p.sap_world.min[k] = -MBP_RANGE;
        p.sap_world.max[k] = MBP_RANGE;
    }
    o.seed = 10u;
    twin_run(&p, &o);
#endif
}

TEST(sap_endpoint_values_take_two_bytes_when_quantized)
{
    CHECK_EQ(sizeof(mbp_sap_val), MBP_SAP_QUANTIZED ? 2u : sizeof(mbp_scalar));
    CHECK(sizeof(mbp_sap_state) <= (size_t)MBP_DIM * (2u * MBP_MAX_BODIES + 2u) *
                                       (2u * sizeof(mbp_sap_val) + 2u * sizeof(mbp_sap_idx)) + 64u);
}
