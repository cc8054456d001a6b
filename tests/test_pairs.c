/* SPDX-License-Identifier: MIT */
/* test_pairs.c: the pair set on its own (mbp_pairs.c): its hash index, 1.5 slots per pair and no
 * power of two, finds every stored pair at any load, the full one included, across removals that
 * shift clusters back (over the table's end, where a cluster wraps). */
#include "mbp_bp.h"
#include "test_util.h"

static mbp_pairset g_ps;

/* The k-th of a fixed sequence of distinct keys, spread as body pairs are (a < b). */
static uint32_t key_of(uint32_t k)
{
    uint16_t a = (uint16_t)(k * 7u % 65521u);
    return mbp__key(a, (uint16_t)(a + 1u + k % 13u));
}

/* 1 when exactly the keys k in [0, n) but the multiples of step (none for step 0) are stored,
 * each at the dense index the set gives, and the set holds no other entry. */
static int holds_exactly(uint32_t n, uint32_t step)
{
    uint32_t want = 0u;
    for (uint32_t k = 0; k < n; k++) {
        int32_t at = mbp__pairs_find(&g_ps, key_of(k));
        bool kept = step == 0u || k % step != 0u;
        if (kept != (at >= 0)) {
            return 0;
        }
        if (kept) {
            want++;
            if (mbp__pkey(&g_ps.pair[at]) != key_of(k)) {
                return 0;
            }
        }
    }
    return want == g_ps.count ? 1 : 0;
}

TEST(pair_set_finds_every_pair_when_full_and_after_removals_shift_clusters)
{
    const uint32_t n = (uint32_t)MBP_MAX_PAIRS;
    mbp__pairs_clear(&g_ps);
    for (uint32_t k = 0; k < n; k++) {
        CHECK_EQ(mbp__pairs_insert(&g_ps, key_of(k), 0u), (int32_t)k);
    }
    CHECK_EQ(mbp__pairs_insert(&g_ps, key_of(n), 0u), -1); /* full: refused and counted */
    CHECK_EQ(g_ps.lost, 1);
    CHECK_EQ(mbp__pairs_insert(&g_ps, key_of(0), 0u), 0); /* stored already: found, not lost */
    CHECK_EQ(holds_exactly(n, 0u), 1);
    /* Remove every third pair: each removal shifts its cluster back (across the table's end when
     * the cluster wraps) and moves the last entry into the hole. */
    for (uint32_t k = 0; k < n; k += 3u) {
        int32_t at = mbp__pairs_find(&g_ps, key_of(k));
        CHECK(at >= 0);
        mbp__pairs_remove_at(&g_ps, (uint32_t)at);
    }
    CHECK_EQ(holds_exactly(n, 3u), 1);
}

TEST(pair_set_index_has_half_again_as_many_slots_as_pairs_and_at_least_one_free)
{
    const unsigned long p = (unsigned long)MBP_MAX_PAIRS;
    CHECK(MBP_PAIR_HASH_SIZE > p);
    CHECK(2UL * MBP_PAIR_HASH_SIZE >= 3UL * p);
    CHECK(2UL * MBP_PAIR_HASH_SIZE <= 3UL * p + 2UL);
    CHECK_EQ(sizeof g_ps.slot / sizeof g_ps.slot[0], MBP_PAIR_HASH_SIZE);
}

/* A backend that ends the same candidate twice in one update (the second time it is no longer
 * one): the pair is logged once and kept, still overlapping as of the last update, for the
 * world's update to end with one event. */
TEST(sink_ending_a_candidate_twice_in_one_update_logs_it_once_and_keeps_it_for_its_end_event)
{
    mbp__pairs_clear(&g_ps);
    const uint32_t key = mbp__key(3u, 5u);
    int32_t k = mbp__pairs_insert(&g_ps, key, (uint8_t)(MBP__CAND | MBP__HIT | MBP__PREV));
    CHECK_EQ(k, 0);
    mbp__sink out;
    out.ps = &g_ps;
    out.lost_last = 0u;
    out.tests = 0u;
    mbp__sink_end(&out, 3u, 5u);
    mbp__sink_end(&out, 5u, 3u);
    CHECK_EQ(g_ps.log_count, 1);
    CHECK_EQ(g_ps.log[0], key);
    CHECK_EQ(g_ps.count, 1);
    CHECK_EQ(mbp__pairs_find(&g_ps, key), 0);
    CHECK_EQ(g_ps.flag[0] & (MBP__CAND | MBP__PREV), MBP__PREV);
    CHECK_EQ(g_ps.dropped, 1);
    CHECK_EQ(g_ps.touched, 1);
}

/* mbp__sink_end_moved() (the few-moved update of brute force and sweep): of the stored
 * candidates, those with a moved body end: one that overlapped in the last update is kept and
 * logged for its end event, one that did not (a candidate only) leaves at once, its place taken by
 * the last entry, which is then looked at too. Pairs of bodies that did not move, and pairs no
 * longer candidates, stay as they are; the update is marked exact. */
TEST(sink_end_moved_ends_the_candidates_of_moved_bodies_only)
{
    static uint8_t flags[8];
    for (uint32_t i = 0; i < 8u; i++) {
        flags[i] = MBP__LIVE;
    }
    flags[2] |= MBP__DIRTY;
    flags[6] |= MBP__DIRTY;
    const uint8_t seen = (uint8_t)(MBP__CAND | MBP__HIT | MBP__PREV);
    mbp__pairs_clear(&g_ps);
    CHECK_EQ(mbp__pairs_insert(&g_ps, mbp__key(0u, 1u), seen), 0);        /* stays */
    CHECK_EQ(mbp__pairs_insert(&g_ps, mbp__key(1u, 2u), MBP__CAND), 1);   /* leaves */
    CHECK_EQ(mbp__pairs_insert(&g_ps, mbp__key(2u, 3u), seen), 2);        /* ends, kept */
    CHECK_EQ(mbp__pairs_insert(&g_ps, mbp__key(4u, 6u), MBP__PREV), 3);   /* not a candidate */
    CHECK_EQ(mbp__pairs_insert(&g_ps, mbp__key(5u, 6u), MBP__CAND), 4);   /* leaves, moved to 1 */
    mbp__sink out;
    out.ps = &g_ps;
    out.vol.flags = flags;
    out.lost_last = 0u;
    out.tests = 0u;
    g_ps.exact = 0u;
    mbp__sink_end_moved(&out);
    CHECK_EQ(g_ps.exact, 1); /* the world settles this update from the log */
    CHECK_EQ(g_ps.count, 3);
    CHECK(mbp__pairs_find(&g_ps, mbp__key(1u, 2u)) < 0);
    CHECK(mbp__pairs_find(&g_ps, mbp__key(5u, 6u)) < 0);
    int32_t k = mbp__pairs_find(&g_ps, mbp__key(0u, 1u));
    CHECK(k >= 0 && g_ps.flag[k] == seen);
    k = mbp__pairs_find(&g_ps, mbp__key(2u, 3u));
    CHECK(k >= 0 && g_ps.flag[k] == (uint8_t)(MBP__HIT | MBP__PREV));
    k = mbp__pairs_find(&g_ps, mbp__key(4u, 6u));
    CHECK(k >= 0 && g_ps.flag[k] == MBP__PREV);
    CHECK_EQ(g_ps.log_count, 1);
    CHECK_EQ(g_ps.log[0], mbp__key(2u, 3u));
    CHECK_EQ(g_ps.dropped, 1);
    CHECK_EQ(g_ps.touched, 1);
}
