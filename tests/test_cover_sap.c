/* SPDX-License-Identifier: MIT */
/* test_cover_sap.c: SAP paths that the other test files do not take, found with `make coverage`
 * (docs/coverage.md lists what stays unreached and why): the update that sorts few moved bodies
 * one at a time, with an endpoint landing on an equal value, a body growing wider than any
 * before, a moved body removed before the update and the swap budget running out; a candidate
 * that begins and ends within one update while the pair set is exactly full; the pairs a full
 * set loses counted exactly (candidates that are no pairs not counted); a rebuild with no body
 * left. Each against brute force in a twin world (test_w: SAP, test_w2: brute force).
 * Small worlds: these run on the 16 KB micro:bit too. */
#include "diff.h"
#include "test_util.h"
#include "cover/twin.h"

#if MBP_WITH_SAP

static void cs_init(uint16_t budget)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_SAP;
    p.sap_budget = budget;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    p.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w2, &p), MBP_OK);
}

/* Updates both; the pairs (sorted) and the pairs lost must be the same, and the events too when
 * both returned MBP_OK. Returns SAP's status. Brute force's is MBP_OK, MBP_E_PAIRS_FULL (it
 * counts exactly the true pairs it could not store: each is reported once and tested first), or
 * MBP_E_EVENTS_FULL where the configuration has fewer events than pairs
 * (tests/cover/mbp_config_cov_small.h). */
static mbp_status cs_update(void)
{
    mbp_status s1 = mbp_update(&test_w), s2 = mbp_update(&test_w2);
    CHECK(s2 == MBP_OK || s2 == MBP_E_PAIRS_FULL ||
          (s2 == MBP_E_EVENTS_FULL && MBP_MAX_EVENTS < MBP_MAX_PAIRS));
    CHECK_EQ(mbp_get_stats(&test_w)->lost_pairs, mbp_get_stats(&test_w2)->lost_pairs);
    CHECK(twin_same(s1 == MBP_OK && s2 == MBP_OK));
    return s1;
}

/* Both worlds give the same bodies for a box query. */
static void cs_query(const mbp_aabb *q)
{
    uint16_t i1[8], i2[8];
    uint32_t c1 = 0u, c2 = 0u;
    mbp_status s1 = mbp_query_box(&test_w, q, 0xFFFFu, i1, 8u, &c1);
    mbp_status s2 = mbp_query_box(&test_w2, q, 0xFFFFu, i2, 8u, &c2);
    CHECK_ST(s1, s2);
    CHECK_EQ(c1, c2);
    for (uint32_t k = 0; k < c1 && k < c2 && k < 8u; k++) {
        CHECK_EQ(i1[k], i2[k]);
    }
}

/* Body i of a row: x from 3i to 3i + 1, y from 0 to 1. */
static mbp_aabb cs_row(int32_t i)
{
    return box2(3 * i, 0, 3 * i + 1, 1);
}

/* Bodies whose pairs fill the pair set exactly, leaving `spare` body slots: a cluster of *c
 * bodies (x 0..6, y 0..4), then pairs of touching bodies: pair k (bodies *c + 2k and *c + 2k + 1)
 * at x 10+6k..11+6k and 11+6k..12+6k, y 10..11, at least 2 of them. Both worlds initialised
 * (budget 32). False when this configuration has no such layout. */
static bool cs_fill(uint32_t spare, uint32_t *c)
{
    uint32_t r = 0u;
    *c = 2u;
    for (uint32_t cc = 2u; cc < MBP_MAX_BODIES; cc++) {
        uint32_t in = cc * (cc - 1u) / 2u;
        if (in + 2u > MBP_MAX_PAIRS) {
            break;
        }
        uint32_t rest = MBP_MAX_PAIRS - in;
        if (cc + 2u * rest + spare <= MBP_MAX_BODIES) {
            *c = cc;
            r = rest;
        }
    }
    if (r < 2u) {
        return false;
    }
    cs_init(32u);
    for (uint32_t i = 0; i < *c; i++) {
        mbp_aabb b = box2((int32_t)(i % 3u), 0, (int32_t)(i % 3u) + 4, 4);
        twin_add(&b);
    }
    for (uint32_t k = 0; k < r; k++) {
        mbp_aabb a = box2(10 + 6 * (int32_t)k, 10, 11 + 6 * (int32_t)k, 11);
        mbp_aabb b = box2(11 + 6 * (int32_t)k, 10, 12 + 6 * (int32_t)k, 11);
        twin_add(&a);
        twin_add(&b);
    }
    return true;
}

/* True pairs of test_w2's live bodies (boxes and filters), counted here from scratch. */
static uint32_t cs_true_pairs(void)
{
    uint32_t n = 0u;
    for (uint16_t a = 0; a < MBP_MAX_BODIES; a++) {
        for (uint16_t b = (uint16_t)(a + 1u); b < MBP_MAX_BODIES; b++) {
            mbp_aabb ba, bb;
            if (mbp_get_box(&test_w2, mbp_handle(&test_w2, a), &ba) == MBP_OK &&
                mbp_get_box(&test_w2, mbp_handle(&test_w2, b), &bb) == MBP_OK &&
                mbp_aabb_overlap(&ba, &bb) && (test_w2.category[a] & test_w2.mask[b]) != 0u &&
                (test_w2.category[b] & test_w2.mask[a]) != 0u) {
                n++;
            }
        }
    }
    return n;
}

/* After an update of both worlds: SAP stores only true pairs (cs_update compares them with
 * brute force when nothing was lost), and stored + lost_pairs is exactly the true pairs. */
static void cs_check_lost(mbp_status s)
{
    uint32_t lost = mbp_get_stats(&test_w)->lost_pairs;
    CHECK_EQ(mbp_pair_count(&test_w) + lost, cs_true_pairs());
    CHECK((s == MBP_E_PAIRS_FULL) == (lost != 0u));
}

#endif

TEST(sap_sorts_few_moved_bodies_into_place_one_at_a_time_exactly)
{
#if MBP_WITH_SAP
    const uint32_t n = MBP_MAX_BODIES < 16u ? MBP_MAX_BODIES : 16u;
    if (n < 10u) {
        return;
    }
    cs_init(32u);
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b = cs_row((int32_t)i);
        twin_add(&b);
    }
    CHECK_ST(cs_update(), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    /* One body at a time (16 moved bodies per body in the world or fewer: one by one). Body 5
     * moves left until its min equals body 4's max: touching, the pair begins. */
    mbp_aabb b = box2(13, 0, 14, 1);
    twin_move(5u, &b);
    CHECK_ST(cs_update(), MBP_OK);
    CHECK_EQ(mbp_get_stats(&test_w)->begun, 1);
    CHECK_EQ(test_w.be.sap.batch_last, 0);
    /* Body 7 moves left onto body 6 exactly (equal mins, equal maxes). */
    b = cs_row(6);
    twin_move(7u, &b);
    CHECK_ST(cs_update(), MBP_OK);
    CHECK_EQ(mbp_get_stats(&test_w)->begun, 1);
    /* Body 2 grows wider than any body before, to x = 27 (touching body 9): a query at x = 27
     * must reach back to its min. */
    b = box2(6, 0, 27, 1);
    twin_move(2u, &b);
    CHECK_ST(cs_update(), MBP_OK);
    mbp_aabb q = box2(27, 0, 27, 1);
    cs_query(&q);
    uint16_t idx[8];
    uint32_t count = 0u;
    CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, idx, 8u, &count), MBP_OK);
    CHECK_EQ(count, 2);
    CHECK_EQ(idx[0], 2);
    CHECK_EQ(idx[1], 9);
    /* Body 9 moved, then removed before the update: its pairs end, nothing else changes. */
    b = box2(28, 0, 29, 1);
    twin_move(9u, &b);
    twin_remove(9u);
    CHECK_ST(cs_update(), MBP_OK);
    CHECK_EQ(mbp_get_stats(&test_w)->ended, 1); /* with body 2 */
    /* And back apart. */
    b = cs_row(2);
    twin_move(2u, &b);
    CHECK_ST(cs_update(), MBP_OK);
    cs_query(&q);
#endif
}

TEST(sap_rebuilds_exactly_when_moved_bodies_exceed_their_swap_budget_one_at_a_time)
{
#if MBP_WITH_SAP
    const uint32_t n = MBP_MAX_BODIES < 40u ? MBP_MAX_BODIES : 40u;
    if (n < 10u) {
        return;
    }
    cs_init(1u); /* one swap per body and update */
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b = cs_row((int32_t)i);
        twin_add(&b);
    }
    CHECK_ST(cs_update(), MBP_OK);
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    /* Bodies 0 and 1 move over 14 others (fewer than MBP_SAP_JUMP endpoints: sorted, no jump),
     * onto body 15 (or the last): the first already spends more than the budget, so the update
     * stops sorting and rebuilds. */
    mbp_aabb b = cs_row(n - 1u < 15u ? (int32_t)n - 1 : 15);
    twin_move(0u, &b);
    twin_move(1u, &b);
    CHECK_ST(cs_update(), MBP_OK);
    CHECK_EQ(mbp_get_stats(&test_w)->begun, 3); /* 0-1, 0-15, 1-15 */
    CHECK(test_w.be.sap.rebuilds > rebuilds);
    CHECK_EQ(test_w.be.sap.jumps_last, 0);
    /* And back, one of them. */
    b = cs_row(0);
    twin_move(0u, &b);
    CHECK_ST(cs_update(), MBP_OK);
    CHECK_EQ(mbp_get_stats(&test_w)->ended, 2);
#endif
}

TEST(sap_drops_a_candidate_that_a_full_pair_set_lost_and_that_ended_in_the_same_update)
{
#if MBP_WITH_SAP
    uint32_t c;
    if (!cs_fill(0u, &c)) {
        return; /* no such layout in this configuration */
    }
    mbp_status s = cs_update();
    CHECK(s == MBP_OK || (s == MBP_E_EVENTS_FULL && MBP_MAX_EVENTS < MBP_MAX_PAIRS));
    CHECK_EQ(mbp_pair_count(&test_w), MBP_MAX_PAIRS);
    /* The first body of pair 0 jumps over pair 1, to x 18.5..19.5: on its way its max passes
     * pair 1's mins (two candidates, no room for them), then its min passes pair 1's maxes (both
     * end again). Only its pair with its old partner really ends. */
    mbp_aabb b = box2(0, 10, 1, 11);
    b.min[0] = mbp_from_ratio(37, 2);
    b.max[0] = mbp_from_ratio(39, 2);
    twin_move((uint16_t)c, &b);
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    CHECK_ST(cs_update(), MBP_OK); /* nothing lost: the two candidates were no pairs at the end */
    CHECK_EQ(mbp_get_stats(&test_w)->lost_pairs, 0);
    CHECK_EQ(mbp_get_stats(&test_w)->ended, 1);
    CHECK_EQ(mbp_pair_count(&test_w), MBP_MAX_PAIRS - 1u);
    CHECK(test_w.be.sap.rebuilds > rebuilds); /* the lost candidates made it rebuild at once */
    /* The next update is exact, with no event: nothing moved. */
    CHECK_ST(cs_update(), MBP_OK);
    CHECK_EQ(mbp_get_stats(&test_w)->begun + mbp_get_stats(&test_w)->ended, 0);
    CHECK_EQ(mbp_get_stats(&test_w)->lost_pairs, 0);
#endif
}

TEST(sap_counts_exactly_the_true_pairs_that_a_full_pair_set_lost)
{
#if MBP_WITH_SAP
    /* The pair set exactly full, and body f (category 2, mask 2: it pairs with nothing) away
     * from everything. Moving f onto pair 0 gives two candidates that are no pairs: nothing is
     * lost. Letting f pair with everything makes them two true pairs with no room. */
    uint32_t c;
    if (!cs_fill(1u, &c)) {
        return;
    }
    mbp_aabb fb = box2(10, 20, 12, 21);
    twin_add(&fb);
    uint16_t f = (uint16_t)(mbp_body_count(&test_w) - 1u);
    CHECK_ST(mbp_set_filter(&test_w, mbp_handle(&test_w, f), 2u, 2u), MBP_OK);
    CHECK_ST(mbp_set_filter(&test_w2, mbp_handle(&test_w2, f), 2u, 2u), MBP_OK);
    mbp_status s = cs_update();
    CHECK(s == MBP_OK || s == MBP_E_EVENTS_FULL);
    cs_check_lost(s);
    CHECK_EQ(mbp_pair_count(&test_w), MBP_MAX_PAIRS);
    fb = box2(10, 10, 12, 11);
    twin_move(f, &fb);
    CHECK_ST(cs_update(), MBP_OK);
    cs_check_lost(MBP_OK);
    /* Still full, nothing moved: exact again (the update rebuilt, the candidates still lost). */
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    CHECK_ST(cs_update(), MBP_OK);
    cs_check_lost(MBP_OK);
    CHECK(test_w.be.sap.rebuilds > rebuilds);
    /* f pairs with everything: two true pairs lost. */
    CHECK_ST(mbp_set_filter(&test_w, mbp_handle(&test_w, f), 0xFFFFu, 0xFFFFu), MBP_OK);
    CHECK_ST(mbp_set_filter(&test_w2, mbp_handle(&test_w2, f), 0xFFFFu, 0xFFFFu), MBP_OK);
    CHECK_ST(cs_update(), MBP_E_PAIRS_FULL);
    CHECK_EQ(mbp_get_stats(&test_w)->lost_pairs, 2);
    cs_check_lost(MBP_E_PAIRS_FULL);
    /* Pair 1 comes apart: its entry leaves the set only at the end of the update, so f's
     * pairs are both still lost; the next update has room for one of them. */
    mbp_aabb apart = box2(0, 30, 1, 31);
    twin_move((uint16_t)(c + 3u), &apart);
    CHECK_ST(cs_update(), MBP_E_PAIRS_FULL);
    cs_check_lost(MBP_E_PAIRS_FULL);
    CHECK_ST(cs_update(), MBP_E_PAIRS_FULL);
    CHECK_EQ(mbp_get_stats(&test_w)->lost_pairs, 1);
    CHECK_EQ(mbp_pair_count(&test_w), MBP_MAX_PAIRS);
    cs_check_lost(MBP_E_PAIRS_FULL);
    /* f leaves: everything fits, the update is exact. */
    fb = box2(10, 20, 12, 21);
    twin_move(f, &fb);
    s = cs_update();
    CHECK(s == MBP_OK || s == MBP_E_EVENTS_FULL);
    cs_check_lost(s);
    CHECK_EQ(mbp_pair_count(&test_w), MBP_MAX_PAIRS - 1u);
#endif
}

TEST(sap_recovers_from_a_full_pair_set_by_a_rebuild_with_no_body_left)
{
#if MBP_WITH_SAP
    uint32_t n = 2u;
    while (n * (n - 1u) / 2u <= MBP_MAX_PAIRS) {
        n++;
    }
    if (n > MBP_MAX_BODIES) {
        return;
    }
    cs_init(32u);
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b = box2((int32_t)(i % 3u), 0, (int32_t)(i % 3u) + 4, 4);
        twin_add(&b);
    }
    CHECK_ST(mbp_update(&test_w), MBP_E_PAIRS_FULL);
    CHECK_ST(mbp_update(&test_w2), MBP_E_PAIRS_FULL);
    uint32_t stored = mbp_pair_count(&test_w);
    CHECK(stored > 0u && stored <= MBP_MAX_PAIRS);
    uint32_t rebuilds = test_w.be.sap.rebuilds;
    for (uint16_t i = 0; i < n; i++) {
        twin_remove(i);
    }
    mbp_status s = mbp_update(&test_w);
    CHECK(s == MBP_OK || s == MBP_E_EVENTS_FULL);
    CHECK_EQ(mbp_get_stats(&test_w)->ended + mbp_get_stats(&test_w)->lost_events, stored);
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    CHECK(test_w.be.sap.rebuilds > rebuilds); /* the overflow made this update rebuild */
    /* Empty and exact: a body added pairs with nothing, two touching ones pair. */
    mbp_aabb a = box2(0, 0, 1, 1), c = box2(1, 1, 2, 2);
    mbp_body h;
    CHECK_ST(mbp_add_box(&test_w, &a, 0u, &h), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &c, 0u, &h), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 1);
    CHECK_EQ(mbp_get_stats(&test_w)->begun, 1);
#endif
}
