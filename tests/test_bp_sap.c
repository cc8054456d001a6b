/* SPDX-License-Identifier: MIT */
/* test_bp_sap.c: the SAP as a data structure (mbp_bp.h), without a world: random scenes against
 * brute force (its candidates are exactly the overlapping boxes, unless quantized), and its own
 * paths: the rebuild after lost pairs and over budget, jumps in both sorting modes, removes, and
 * queries that must look below the query box. */
#include "test_util.h"

#if MBP_WITH_SAP
static mbp_sap_state g_sap;

#define BP_ADD(i, box) mbp__sap_add(&g_sap, i, box)
#define BP_MOVE(i, old, box) ((void)(i), (void)(old), (void)(box), MBP_OK)
#define BP_REMOVE(i, last) mbp__sap_remove(&g_sap, i, last)
#define BP_UPDATE(v, out) mbp__sap_update(&g_sap, v, out)
#define BP_QUERY(v, box, fn, c) mbp__sap_query(&g_sap, v, box, fn, c)
#include "bp_harness.h"

/* Quantized values add candidates (rounded outwards): then only "every overlap is there". */
#define SAP_EXACT (!MBP_SAP_QUANTIZED)

/* Bodies in the row scenes below: enough that a body crossing the row passes MBP_SAP_JUMP
 * endpoints. */
#define ROW_N (MBP_MAX_BODIES < 40 ? MBP_MAX_BODIES : 40)

/* An empty SAP with this budget (swaps a body), and an empty harness. */
static void sap_start(uint16_t budget, uint32_t seed)
{
    mbp_params p;
    mbp_params_default(&p);
    p.sap_budget = budget;
    CHECK_ST(mbp__sap_init(&g_sap, &p), MBP_OK);
    bp_reset(&g_bp, seed);
}

/* Body i of a row: [3i, 3i + 2] on the first axis, [0, 2] on the others; neighbours 1 apart. */
static mbp_aabb row_box(uint32_t i)
{
    return box2((int32_t)(3u * i), 0, (int32_t)(3u * i + 2u), 2);
}

/* n bodies in a row, sorted into place by one update. */
static void row(uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b = row_box(i);
        CHECK_ST(bp_add(&g_bp, (uint16_t)i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, 0);
}

/* Moves body i to box b (the harness marks it moved). */
static void move_to(uint32_t i, mbp_aabb b)
{
    CHECK_ST(bp_move(&g_bp, (uint16_t)i, &b), MBP_OK);
}

TEST(bp_sap_random_scenes_give_exactly_the_overlapping_pairs)
{
    for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
        uint32_t noroom;
        sap_start(32u, seed);
        CHECK_EQ(bp_random_run(&g_bp, seed, TEST_BODIES / 2u, TEST_FRAMES, 160, 12, SAP_EXACT,
                               &noroom),
                 0);
        CHECK_EQ(noroom, 0);
    }
}

/* A budget of one swap a body: updates give up and rebuild often, and stay right. */
TEST(bp_sap_random_scenes_under_a_tight_budget_rebuild_and_stay_right)
{
    uint32_t noroom;
    sap_start(1u, 5u);
    CHECK_EQ(bp_random_run(&g_bp, 5u, TEST_BODIES / 2u, TEST_FRAMES / 2u, 160, 12, SAP_EXACT,
                           &noroom),
             0);
    CHECK_EQ(noroom, 0);
    CHECK(g_sap.rebuilds > 1u);
}

TEST(bp_sap_init_refuses_a_zero_budget)
{
    mbp_params p;
    mbp_params_default(&p);
    p.sap_budget = 0u;
    CHECK_ST(mbp__sap_init(&g_sap, &p), MBP_E_PARAM);
}

/* Quantized: the box the 16-bit values span must have width on every axis. */
TEST(bp_sap_quantized_init_refuses_a_world_box_of_no_width)
{
#if MBP_SAP_QUANTIZED
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_params p;
        mbp_params_default(&p);
        p.sap_world.max[k] = p.sap_world.min[k];
        CHECK_ST(mbp__sap_init(&g_sap, &p), MBP_E_PARAM);
        mbp_params_default(&p);
        CHECK_ST(mbp__sap_init(&g_sap, &p), MBP_OK);
    }
#endif
}

/* The sink says the last update lost pairs (as the world's sink does after a full pair set):
 * the update rebuilds even though nothing moved, and only then. */
TEST(bp_sap_rebuilds_when_the_sink_says_the_last_update_lost_pairs)
{
    sap_start(32u, 3u);
    row(ROW_N);
    move_to(0u, box2(1, 1, 4, 3)); /* meets body 1 */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, 1);
    uint32_t rebuilds = g_sap.rebuilds;
    g_bp.lost_last = 1u;
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.rebuilds, rebuilds + 1u);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_ST(bp_update(&g_bp), MBP_OK); /* lost_last is 0 again: incremental */
    CHECK_EQ(g_sap.rebuilds, rebuilds + 1u);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
}

/* k bodies on one spot make more pairs than the set holds: the rebuild counts exactly the pairs
 * it could not store; the next update rebuilds again (candidates are missing), and once the
 * bodies part, it finds every pair and goes back to incremental updates. */
TEST(bp_sap_a_full_pair_set_counts_the_lost_pairs_and_rebuilds_until_they_fit)
{
    uint32_t k = test_pile_that_fits() + 1u; /* the smallest pile that overflows */
    if (k > (uint32_t)MBP_MAX_BODIES) {
        return; /* this build cannot hold enough bodies to fill its pair set */
    }
    sap_start(32u, 4u);
    mbp_aabb spot = box2(0, 0, 2, 2);
    for (uint32_t i = 0; i < k; i++) {
        CHECK_ST(bp_add(&g_bp, (uint16_t)i, &spot), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, MBP_MAX_PAIRS);
    CHECK_EQ(g_bp.lost_last, k * (k - 1u) / 2u - (uint32_t)MBP_MAX_PAIRS);
    CHECK(g_sap.rebuilds >= 1u);
    CHECK_EQ(g_sap.incomplete, 1);
    /* They part: each to its own place of a row (no pair left). */
    for (uint32_t i = 0; i < k; i++) {
        move_to(i, row_box(i));
    }
    uint32_t rebuilds = g_sap.rebuilds;
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.rebuilds, rebuilds + 1u);
    CHECK_EQ(g_bp.lost_last, 0);
    CHECK_EQ(g_sap.incomplete, 0);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    move_to(1u, box2(2, 0, 6, 2)); /* touches bodies 0 and 2 */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.rebuilds, rebuilds + 1u);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, 2); /* (0, 1) and (1, 2) */
}

/* Few bodies moved (each sorted on its own): the first joins a pile that fills the pair set, so
 * its new pairs do not all fit; the second, listed after it, still sorts into place and touches
 * its neighbour. The rebuild that follows counts exactly the pairs it could not store, and once
 * both are back in the row the next update finds every pair. */
TEST(bp_sap_few_movers_one_overflowing_the_pair_set_rebuild_and_count_exactly)
{
    uint32_t k = test_pile_that_fits(); /* k bodies on one spot fit, k + 1 do not */
    uint32_t n = (uint32_t)MBP_MAX_BODIES - k < ROW_N ? (uint32_t)MBP_MAX_BODIES - k : ROW_N;
    if (k + n <= 16u || n < 3u) {
        return; /* this build cannot hold a pile and a row of few-moved size */
    }
    sap_start(32u, 12u);
    mbp_aabb spot = box2((int32_t)(3u * n + 10u), 0, (int32_t)(3u * n + 12u), 2);
    for (uint32_t i = 0; i < k; i++) {
        CHECK_ST(bp_add(&g_bp, (uint16_t)i, &spot), MBP_OK);
    }
    for (uint32_t j = 0; j < n; j++) { /* the row: bodies k .. k + n - 1 */
        mbp_aabb b = row_box(j);
        CHECK_ST(bp_add(&g_bp, (uint16_t)(k + j), &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.lost_last, 0);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    uint32_t rebuilds = g_sap.rebuilds;
    move_to(k, spot); /* k new pairs: the set overflows */
    uint32_t last = k + n - 1u;
    move_to(last, box2((int32_t)(3u * n - 4u), 0, (int32_t)(3u * n - 1u), 2)); /* touches last - 1 */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.batch_last, 0);
    CHECK_EQ(g_sap.rebuilds, rebuilds + 1u);
    CHECK_EQ(g_bp.ps.count, MBP_MAX_PAIRS);
    CHECK_EQ(g_bp.lost_last, (k + 1u) * k / 2u + 1u - (uint32_t)MBP_MAX_PAIRS);
    move_to(k, row_box(0u)); /* both back to their places: the pile alone fits */
    move_to(last, row_box(n - 1u));
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.lost_last, 0);
    CHECK_EQ(g_sap.incomplete, 0);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, k * (k - 1u) / 2u);
}

/* One body grows over the whole row: its max is sifted (not a jump: its min stays), past more
 * endpoints than a budget of one swap a body allows, so the update rebuilds. */
TEST(bp_sap_one_body_passing_more_endpoints_than_the_budget_rebuilds_the_update)
{
    sap_start(1u, 6u);
    row(ROW_N);
    uint32_t rebuilds = g_sap.rebuilds;
    move_to(0u, box2(0, 0, (int32_t)(3u * ROW_N), 2));
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.batch_last, 0);
    CHECK_EQ(g_sap.jumps_last, 0);
    CHECK_EQ(g_sap.rebuilds, rebuilds + 1u);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, ROW_N - 1u);
}

/* The row reversed at once: one sort pass (every body moved), far more swaps than one a body. */
TEST(bp_sap_many_bodies_passing_more_endpoints_than_the_budget_rebuild_the_update)
{
    sap_start(1u, 7u);
    row(ROW_N);
    uint32_t rebuilds = g_sap.rebuilds;
    for (uint32_t i = 0; i < ROW_N; i++) {
        move_to(i, row_box(ROW_N - 1u - i));
    }
    move_to(0u, box2(0, 0, 5, 2)); /* over the last body's new place and the next */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.batch_last, 1);
    CHECK_EQ(g_sap.rebuilds, rebuilds + 1u);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, 2);
}

/* Few bodies moved: the first of the row teleports past its end, onto the last body. It jumps
 * (block moves, no sort), and its pair is found without a rebuild. */
TEST(bp_sap_a_body_teleported_across_the_row_jumps_and_pairs_exactly)
{
    sap_start(32u, 8u);
    row(ROW_N);
    uint32_t rebuilds = g_sap.rebuilds;
    int32_t end = (int32_t)(3u * (ROW_N - 1u));
    move_to(0u, box2(end + 1, 1, end + 4, 3));
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.batch_last, 0);
    CHECK_EQ(g_sap.jumps_last, 1);
    CHECK_EQ(g_sap.rebuilds, rebuilds);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, 1);
    /* And back, onto body 1: its old pair ends, the new one begins. */
    move_to(0u, box2(3, 0, 4, 1));
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.jumps_last, 1);
    CHECK_EQ(g_sap.rebuilds, rebuilds);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) >= 0);
}

/* Many bodies moved (one sort pass per axis): the two that cross the row are held back and jump
 * once the axes are sorted. */
TEST(bp_sap_jumpers_among_many_moved_bodies_jump_after_the_sort_pass)
{
    sap_start(32u, 9u);
    row(ROW_N);
    uint32_t rebuilds = g_sap.rebuilds;
    int32_t end = (int32_t)(3u * (ROW_N - 1u));
    for (uint32_t i = 1; i + 1u < ROW_N; i++) {
        mbp_aabb b = row_box(i);
        for (int k = 1; k < MBP_DIM; k++) {
            b.min[k] += mbp_from_int(1);
            b.max[k] += mbp_from_int(1);
        }
        move_to(i, b);
    }
    move_to(0u, box2(end + 1, 1, end + 4, 3));              /* onto the last */
    move_to(ROW_N - 1u, box2(-1, 0, 0, 1));                  /* onto the first's old place */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.batch_last, 1);
    CHECK_EQ(g_sap.jumps_last, 2);
    CHECK_EQ(g_sap.rebuilds, rebuilds);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, 0); /* they swapped ends: nothing left to meet */
}

/* The row reversed under a large budget: more bodies would jump than an update holds back; the
 * rest are sorted in the pass, and the result is still exact, without a rebuild. */
TEST(bp_sap_more_jumpers_than_it_holds_back_are_sorted_and_stay_exact)
{
    sap_start(65535u, 10u);
    row(ROW_N);
    uint32_t rebuilds = g_sap.rebuilds;
    for (uint32_t i = 0; i < ROW_N; i++) {
        mbp_aabb b = row_box(ROW_N - 1u - i);
        b.max[0] += mbp_from_int(1); /* touches the next */
        move_to(i, b);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.batch_last, 1);
    CHECK(g_sap.jumps_last > 0u);
    CHECK(g_sap.jumps_last <= MBP_SAP_JUMPS);
    CHECK_EQ(g_sap.rebuilds, rebuilds);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, ROW_N - 1u);
}

/* The three last bodies of the row cross it onto its first bodies in one update (with three
 * others moved in place, so that it sorts in one pass and holds the jumpers back), then go back:
 * each time they would shift more than twice the endpoints one by one, so they jump together
 * (down, then up), meeting each other and the bodies there (overlapping, touching, equal). Small
 * enough for every configuration, the micro:bit's 24 bodies too. */
TEST(bp_sap_three_bodies_crossing_the_row_jump_together_both_ways_exactly)
{
    sap_start(32u, 18u);
    row(ROW_N);
    uint32_t rebuilds = g_sap.rebuilds;
    const mbp_aabb lands[3] = {box2(1, 1, 4, 3), box2(2, 0, 2, 0), box2(0, 0, 2, 2)};
    for (uint32_t g = 0; g < 3u; g++) {
        move_to(ROW_N - 1u - g, lands[g]);
        move_to(4u + g, row_box(4u + g));
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.batch_last, 1);
    CHECK_EQ(g_sap.merged_last, 1);
    CHECK_EQ(g_sap.jumps_last, 3);
    CHECK_EQ(g_sap.rebuilds, rebuilds);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    /* Two among them (the point lies below the first), body 0 three times, body 1 once. */
    CHECK(!SAP_EXACT || g_bp.ps.count == 2u + 3u + 1u);
    for (uint32_t g = 0; g < 3u; g++) {
        move_to(ROW_N - 1u - g, row_box(ROW_N - 1u - g));
        move_to(4u + g, row_box(4u + g));
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.merged_last, 1);
    CHECK_EQ(g_sap.jumps_last, 3);
    CHECK_EQ(g_sap.rebuilds, rebuilds);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, 0);
}

/* The jumps-together tests below need 200 bodies; the micro:bit's configuration holds 24 (the
 * test above runs there; the host's coverage run reaches every line of the merge). */
#if MBP_MAX_BODIES >= 200
/* n random bodies (quarter units over span: ties, touching and zero-size boxes), then frames
 * updates in which every body steps by up to a quarter unit per axis (so one sort pass per axis)
 * and tele of them, drawn at random, teleport anywhere (up or down, onto each other or not). Every
 * update is checked against brute force; returns those whose pairs were wrong. *merged counts the
 * updates whose jumpers jumped together, *rebuilt those that rebuilt. */
static uint32_t teleport_run(uint32_t n, uint32_t frames, uint32_t tele, int32_t span,
                             uint32_t *merged, uint32_t *rebuilt)
{
    uint32_t wrong = 0u;
    *merged = 0u;
    *rebuilt = 0u;
    for (uint16_t i = 0; i < n; i++) {
        mbp_aabb b = bp_box(&g_bp, span, 12);
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    for (uint32_t f = 0; f < frames; f++) {
        for (uint16_t i = 0; i < n; i++) {
            mbp_aabb b = g_bp.box[i];
            for (int k = 0; k < MBP_DIM; k++) {
                mbp_scalar d = mbp_from_ratio((int32_t)bp_rand(&g_bp, 3u) - 1, 4);
                b.min[k] += d;
                b.max[k] += d;
            }
            move_to(i, b);
        }
        for (uint32_t t = 0; t < tele; t++) {
            move_to(bp_rand(&g_bp, n), bp_box(&g_bp, span, 12));
        }
        uint32_t rebuilds = g_sap.rebuilds;
        CHECK_ST(bp_update(&g_bp), MBP_OK);
        CHECK_EQ(g_sap.batch_last, 1);
        wrong += bp_pairs_ok(&g_bp, SAP_EXACT) ? 0u : 1u;
        *merged += g_sap.merged_last;
        *rebuilt += g_sap.rebuilds - rebuilds;
    }
    return wrong;
}

/* A dozen teleports an update among 200 moving bodies: they are held back and jump together
 * (one merge per axis), and every update's pairs are exactly the overlapping boxes. */
TEST(bp_sap_many_teleports_in_one_update_jump_together_and_pair_exactly)
{
    uint32_t merged, rebuilt;
    sap_start(32u, 13u);
    CHECK_EQ(teleport_run(200u, 24u, 12u, 160, &merged, &rebuilt), 0);
    CHECK_EQ(merged, 24);
    CHECK_EQ(rebuilt, 0);
}

/* Twice as many teleports as an update holds back: MBP_SAP_JUMPS of them jump together, the
 * rest are sorted in the pass (a large budget: they pass hundreds of endpoints); exact every
 * update. */
TEST(bp_sap_more_teleports_than_it_holds_back_jump_together_and_the_rest_sort)
{
    uint32_t merged, rebuilt;
    sap_start(1024u, 14u);
    CHECK_EQ(teleport_run(200u, 16u, 2u * MBP_SAP_JUMPS, 640, &merged, &rebuilt), 0);
    CHECK_EQ(merged, 16);
    CHECK_EQ(rebuilt, 0);
    CHECK_EQ(g_sap.jumps_last, MBP_SAP_JUMPS);
}

/* Two groups of six bodies that meet each other (equal boxes; zero-size points on one spot) swap
 * ends of the row in one update: each lands on the other's side meeting its own group again
 * (equal boxes, points on their corner) and the bodies there (overlapping, touching). Then, with
 * no swap left in the budget, the same jump back rebuilds after the merge. */
TEST(bp_sap_jumpers_that_meet_each_other_before_and_after_jump_together_exactly)
{
    sap_start(32u, 16u);
    row(ROW_N);
    for (uint32_t g = 0; g < 6u; g++) {
        move_to(g, box2(0, 0, 2, 2));
        move_to(ROW_N - 1u - g, box2(110, 0, 110, 0));
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    uint32_t rebuilds = g_sap.rebuilds;
    int32_t x = (int32_t)(3u * (ROW_N - 7u)); /* body ROW_N - 7's min: it stays */
    for (uint32_t g = 0; g < 6u; g++) {
        move_to(g, g < 3u ? box2(x + 1, 1, x + 3, 3) : box2(x + 3, 3, x + 3, 3));
        move_to(ROW_N - 1u - g, box2(16, 0, 18, 2)); /* touches body 6, [18, 20] */
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.merged_last, 1);
    CHECK_EQ(g_sap.jumps_last, 12);
    CHECK_EQ(g_sap.rebuilds, rebuilds);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    /* 15 in each group, 3 with body ROW_N - 7, 6 with body 6. */
    CHECK(!SAP_EXACT || g_bp.ps.count == 15u + 15u + 3u + 6u);
    g_sap.budget = 0u; /* below what sap_init allows: the sort pass (no swap) fits, a jump not */
    for (uint32_t g = 0; g < 6u; g++) {
        move_to(g, box2(0, 0, 2, 2));
        move_to(ROW_N - 1u - g, box2(110, 0, 110, 0));
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.merged_last, 1);
    CHECK_EQ(g_sap.rebuilds, rebuilds + 1u);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
}

/* A pile that fits in the pair set, left of a row of 60 bodies; the row's last six teleport onto
 * the pile together (a merge: they pass the whole row), while ten others are moved in place (so
 * that the update sorts in one pass and holds the jumpers back). Their new pairs fill the set in
 * the merge's last step: the update rebuilds and counts exactly the pairs it could not store.
 * Once they go back, the next update rebuilds (candidates were missing) and finds every pair. */
TEST(bp_sap_jumpers_landing_together_on_a_pile_that_fills_the_pair_set_rebuild_and_count)
{
    const uint32_t jumpers = 6u, row_n = 60u;
    uint32_t pile = test_pile_that_fits() - 2u; /* its pairs fit; with the jumpers they do not */
    if (pile + row_n > (uint32_t)MBP_MAX_BODIES) {
        return; /* this build cannot hold enough bodies to fill its pair set */
    }
    sap_start(32u, 17u);
    mbp_aabb spot = box2(-10, 0, -8, 2);
    for (uint32_t i = 0; i < pile; i++) {
        CHECK_ST(bp_add(&g_bp, (uint16_t)i, &spot), MBP_OK);
    }
    for (uint32_t j = 0; j < row_n; j++) {
        mbp_aabb b = row_box(j);
        CHECK_ST(bp_add(&g_bp, (uint16_t)(pile + j), &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, pile * (pile - 1u) / 2u);
    uint32_t rebuilds = g_sap.rebuilds;
    for (uint32_t j = 0; j < 10u; j++) {
        move_to(pile + j, row_box(j));
    }
    for (uint32_t j = row_n - jumpers; j < row_n; j++) {
        move_to(pile + j, spot);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    uint32_t all = (pile + jumpers) * (pile + jumpers - 1u) / 2u;
    CHECK_EQ(g_sap.batch_last, 1);
    CHECK_EQ(g_sap.merged_last, 1);
    CHECK_EQ(g_sap.rebuilds, rebuilds + 1u);
    CHECK_EQ(g_bp.ps.count, MBP_MAX_PAIRS);
    CHECK_EQ(g_bp.lost_last, all - (uint32_t)MBP_MAX_PAIRS);
    CHECK_EQ(g_sap.incomplete, 1);
    for (uint32_t j = row_n - jumpers; j < row_n; j++) {
        move_to(pile + j, row_box(j));
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.rebuilds, rebuilds + 2u);
    CHECK_EQ(g_bp.lost_last, 0);
    CHECK_EQ(g_sap.incomplete, 0);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, pile * (pile - 1u) / 2u);
}
#endif /* MBP_MAX_BODIES >= 200 */

/* Removed bodies' endpoints leave at the next update; the others keep their order and pairs. */
TEST(bp_sap_removed_bodies_leave_the_axes_at_the_next_update)
{
    sap_start(32u, 11u);
    mbp_aabb b = box2(0, 0, 2, 2);
    for (uint16_t i = 0; i < 3u; i++) {
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.n, 6);
    CHECK_EQ(g_bp.ps.count, 3);
    bp_remove(&g_bp, 1u);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.n, 4);
    CHECK_EQ(g_sap.removed, 0);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, 1);
}

/* A long body whose min lies far below a small query box, with many endpoints between: the query
 * looks down by the largest extent and finds it. */
/* The largest body is kept apart from s->ext (which bounds how far below a min a scan looks):
 * jumps and queries test it on their own. A body grown over the whole row becomes it; a jumper
 * leaves it (landing beside it), then a body grown longer takes its place (ext then covers the
 * first) and the jumper lands back on both; once removed, no body is apart. Every update
 * against brute force. */
TEST(bp_sap_the_largest_body_is_tested_on_its_own_by_jumps_and_queries)
{
    sap_start(32u, 19u);
    row(ROW_N);
    int32_t end = (int32_t)(3u * ROW_N);
    move_to(0u, box2(0, 0, end, 2));
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.big, 1);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK_EQ(g_bp.ps.count, ROW_N - 1u);
    uint32_t rebuilds = g_sap.rebuilds;
    move_to(ROW_N - 1u, box2(10, 3, 11, 4)); /* off the long body's end, to beside its middle */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.jumps_last, 1);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    move_to(1u, box2(-5, 0, end + 5, 2)); /* longer: the largest now */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.big, 2);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    move_to(ROW_N - 1u, box2(end - 8, 0, end - 7, 1)); /* onto both long bodies */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.jumps_last, 1);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    mbp_aabb q = box2(end - 1, 0, end, 1);
    CHECK(bp_query_ok(&g_bp, &q));
    bp_remove(&g_bp, 1u);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.big, 0);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    move_to(ROW_N - 2u, box2(4, 0, 5, 1)); /* onto body 0, found by the scan now */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.jumps_last, 1);
    CHECK_EQ(g_sap.rebuilds, rebuilds);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK(bp_query_ok(&g_bp, &q));
    move_to(2u, box2(-9, 0, end + 9, 1)); /* the longest now, with no big body: it becomes one */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.big, 3);
    CHECK_EQ(g_sap.rebuilds, rebuilds);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
    CHECK(bp_query_ok(&g_bp, &q));
}

/* Body i moves to b, and bodies 10..13 to where they are, so that the update moves at least
 * n/16 bodies and sorts in one pass per axis (write_all() keeps the extent bound, s->ext, apart);
 * the update's pairs checked against brute force. */
static void move_in_batch(uint32_t i, mbp_aabb b)
{
    move_to(i, b);
    for (uint32_t k = 10u; k < 14u; k++) {
        move_to(k, row_box(k));
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_sap.batch_last, 1);
    CHECK(bp_pairs_ok(&g_bp, SAP_EXACT));
}

/* The same bookkeeping of the largest body as above, in updates that sort in one pass: a body
 * grown over the row becomes the largest, grows on (it alone is not bounded by s->ext), a longer
 * one takes its place (s->ext then covers the first), a shorter one that still exceeds s->ext
 * raises it, and once the largest has shrunk, a long body takes its place without raising
 * s->ext to the shrunk one's extent. */
TEST(bp_sap_the_largest_body_is_kept_apart_in_updates_that_sort_in_one_pass)
{
    sap_start(32u, 23u);
    row(ROW_N);
    int32_t end = (int32_t)(3u * ROW_N);
    mbp_sap_val ext0 = g_sap.ext;
    move_in_batch(0u, box2(0, 0, end, 2));
    CHECK_EQ(g_sap.big, 1);
    CHECK(g_sap.ext == ext0);
    move_in_batch(0u, box2(0, 0, end + 3, 2)); /* the largest grows: s->ext stays */
    CHECK_EQ(g_sap.big, 1);
    CHECK(g_sap.ext == ext0);
    move_in_batch(1u, box2(-5, 0, end + 5, 2)); /* longer: the largest now, s->ext covers 0 */
    CHECK_EQ(g_sap.big, 2);
    mbp_sap_val ext1 = g_sap.ext;
    CHECK(ext1 > ext0);
    move_in_batch(3u, box2(-2, 0, end + 4, 2)); /* longer than body 0, shorter than body 1 */
    CHECK_EQ(g_sap.big, 2);
    CHECK(g_sap.ext > ext1);
    mbp_sap_val ext2 = g_sap.ext;
    move_in_batch(1u, row_box(1u)); /* the largest shrinks back into the row */
    CHECK_EQ(g_sap.big, 2);
    move_in_batch(5u, box2(-9, 0, end + 9, 2)); /* the longest: s->ext keeps body 3's bound */
    CHECK_EQ(g_sap.big, 6);
    CHECK(g_sap.ext == ext2);
    mbp_aabb q = box2(end - 1, 0, end, 1);
    CHECK(bp_query_ok(&g_bp, &q));
}

TEST(bp_sap_query_finds_a_long_body_reaching_in_from_below)
{
    sap_start(32u, 12u);
    row(ROW_N);
    int32_t end = (int32_t)(3u * ROW_N);
    move_to(0u, box2(0, 0, end, 1));
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    mbp_aabb q = box2(end - 1, 0, end, 1);
    CHECK(bp_query_ok(&g_bp, &q));
    for (uint16_t i = 0; i < MBP_MAX_BODIES; i++) {
        g_bp_seen[i] = 0u;
    }
    mbp__bodies v = bp_view(&g_bp);
    mbp__sap_query(&g_sap, &v, &q, bp_visit, NULL);
    CHECK_EQ(g_bp_seen[0], 1);
    CHECK_EQ(g_bp_seen[1], 0); /* far from the query */
}
#endif
