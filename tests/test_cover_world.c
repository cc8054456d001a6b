/* SPDX-License-Identifier: MIT */
/* test_cover_world.c: paths of the world's core (lib/mbp_world.c, mbp_update.c, mbp_output.c)
 * that the other test files do not take, found with `make coverage` (docs/coverage.md lists what
 * stays unreached and why):
 * every call that takes a handle, with every kind of bad handle; index lookups past the world;
 * bad query points and segments; bodies removed before any update; a full event buffer (also in
 * a frame whose backend logged nothing); a pair set that overflows and then empties; generations
 * that would start at zero. Small worlds: these run on the 16 KB micro:bit too, in test_w and
 * test_w2. */
#include "diff.h"
#include "test_util.h"

static void cw_init(mbp_world *w, mbp_backend b, uint16_t id)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = b;
    p.id = id;
    CHECK_ST(mbp_init(w, &p), MBP_OK);
}

/* Walks the pairs in ascending order: the count, and whether (a, b) is among them. */
static uint32_t cw_pairs(mbp_world *w, uint16_t a, uint16_t b, bool *found)
{
    uint32_t it = 0u, n = 0u;
    mbp_pair p;
    *found = false;
    mbp_sort_pairs(w);
    while (mbp_next_pair(w, &it, &p)) {
        CHECK(p.a < p.b);
        *found = *found || (p.a == a && p.b == b);
        n++;
    }
    CHECK_EQ(n, mbp_pair_count(w));
    return n;
}

TEST(every_call_refuses_every_kind_of_bad_handle_and_changes_nothing)
{
    /* Brute force skips the backend's move hook, the grid takes it: both paths of a move. */
    static const mbp_backend kinds[] = {MBP_BRUTE, MBP_GRID, MBP_TREE};
    for (uint32_t kb = 0; kb < sizeof kinds / sizeof kinds[0]; kb++) {
        mbp_world *w = &test_w;
        cw_init(w, kinds[kb], 0u);
        mbp_aabb b0 = box2(0, 0, 2, 2), b1 = box2(1, 1, 3, 3), far = box2(50, 50, 51, 51), out;
        mbp_body h0, h1, hd, hf;
        CHECK_ST(mbp_add_box(w, &b0, 10u, &h0), MBP_OK);
        CHECK_ST(mbp_add_box(w, &b1, 11u, &h1), MBP_OK);
        CHECK_ST(mbp_add_box(w, &b0, 12u, &hf), MBP_OK); /* removed before the update: free after */
        CHECK_ST(mbp_add_box(w, &b0, 13u, &hd), MBP_OK); /* removed after it: dying */
        CHECK_ST(mbp_remove(w, hf), MBP_OK);
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK_ST(mbp_remove(w, hd), MBP_OK);

        mbp_body bad[7];
        bad[0] = (mbp_body){0u, 0u};                                /* null */
        bad[1] = (mbp_body){(uint16_t)(MBP_MAX_BODIES + 1u), h0.gen}; /* past the world */
        bad[2] = (mbp_body){0xFFFFu, h0.gen};
        bad[3] = hf;                                                /* a free slot */
        bad[4] = hd;                                                /* a dying body */
        bad[5] = (mbp_body){h0.slot1, (uint16_t)(h0.gen + 1u)};     /* a live slot, wrong gen */
        bad[6] = (mbp_body){h0.slot1, 0u};                          /* generation 0 */
        for (uint32_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            CHECK(!mbp_valid(w, bad[k]));
            CHECK_ST(mbp_move_box(w, bad[k], &far), MBP_E_STALE);
#if MBP_WITH_SPHERES
            mbp_sphere s = sph(50, 50, 1);
            CHECK_ST(mbp_move_sphere(w, bad[k], &s), MBP_E_STALE);
#endif
#if MBP_WITH_CAPSULE
            mbp_shape cap;
            cap.kind = MBP_SHAPE_CAPSULE;
            pt(cap.u.capsule.a, 50, 50);
            pt(cap.u.capsule.b, 51, 50);
            cap.u.capsule.r = MBP_ONE;
            CHECK_ST(mbp_move_shape(w, bad[k], &cap), MBP_E_STALE);
#endif
#if MBP_WITH_FAST
            CHECK_ST(mbp_set_fast(w, bad[k], true), MBP_E_STALE);
            CHECK_ST(mbp_set_fast(w, bad[k], false), MBP_E_STALE);
#endif
            CHECK_ST(mbp_set_filter(w, bad[k], 0u, 0u), MBP_E_STALE);
            CHECK_ST(mbp_remove(w, bad[k]), MBP_E_STALE);
            CHECK_ST(mbp_get_box(w, bad[k], &out), MBP_E_STALE);
        }
        /* Nothing moved, nothing was filtered out: the live pair stays, the dying body's ends. */
        CHECK_EQ(mbp_body_count(w), 2);
        CHECK_ST(mbp_get_box(w, h0, &out), MBP_OK);
        CHECK(out.min[0] == b0.min[0] && out.max[0] == b0.max[0]);
        CHECK_ST(mbp_update(w), MBP_OK);
        bool found;
        CHECK_EQ(cw_pairs(w, mbp_index(h0), mbp_index(h1), &found), 1);
        CHECK(found);
        uint32_t nb, ne;
        (void)test_begun(w, &nb);
        const mbp_pair *e = test_ended(w, &ne);
        CHECK_EQ(nb, 0);
        CHECK_EQ(ne, 2); /* the dying body's pairs with h0 and h1 */
        for (uint32_t k = 0; e != NULL && k < ne; k++) {
            CHECK(e[k].a == mbp_index(hd) || e[k].b == mbp_index(hd));
        }
    }
}

TEST(index_lookups_past_the_world_give_the_null_handle)
{
    mbp_world *w = &test_w;
    cw_init(w, MBP_BRUTE, 0u);
    mbp_aabb b = box2(0, 0, 1, 1);
    mbp_body h;
    CHECK_ST(mbp_add_box(w, &b, 77u, &h), MBP_OK);
    const uint16_t past[] = {(uint16_t)MBP_MAX_BODIES, 0xFFFEu, 0xFFFFu};
    for (uint32_t k = 0; k < sizeof past / sizeof past[0]; k++) {
        mbp_body n = mbp_handle(w, past[k]);
        CHECK(n.slot1 == 0u && n.gen == 0u);
        /* mbp_user() asserts instead: tools/check-asserts.sh */
    }
    mbp_body live = mbp_handle(w, mbp_index(h));
    CHECK(live.slot1 == h.slot1 && live.gen == h.gen);
    /* Removed: no handle any more, but the user value stays until the index is reused. */
    CHECK_ST(mbp_remove(w, h), MBP_OK);
    CHECK_EQ(mbp_handle(w, mbp_index(h)).slot1, 0);
    CHECK_EQ(mbp_user(w, mbp_index(h)), 77);
    CHECK_ST(mbp_update(w), MBP_OK);
    CHECK_EQ(mbp_handle(w, mbp_index(h)).slot1, 0);
}

/* A point or end point that mbp_aabb_check() refuses: out of range, and in float also NaN. */
static void cw_bad_point(mbp_scalar p[MBP_DIM], uint32_t kind, mbp_status *expect)
{
    pt(p, 1, 1);
#if MBP_SCALAR == MBP_FIXED
    p[kind % MBP_DIM] = kind & 1u ? INT32_MIN : MBP_RANGE + 1;
    *expect = MBP_E_RANGE;
#else
    volatile float zero = 0.0f;
    if (kind & 1u) {
        p[kind % MBP_DIM] = zero / zero;
        *expect = MBP_E_BADBOX;
    } else {
        p[kind % MBP_DIM] = -MBP_RANGE * 2.0f;
        *expect = MBP_E_RANGE;
    }
#endif
}

TEST(queries_refuse_bad_points_and_segments_and_write_nothing)
{
    mbp_world *w = &test_w;
    cw_init(w, MBP_BRUTE, 0u);
    mbp_aabb b = box2(0, 0, 4, 4);
    mbp_body h;
    CHECK_ST(mbp_add_box(w, &b, 0u, &h), MBP_OK);
    CHECK_ST(mbp_update(w), MBP_OK);
    mbp_scalar good[MBP_DIM], p[MBP_DIM];
    pt(good, 2, 2);
    for (uint32_t kind = 0; kind < 4u; kind++) {
        mbp_status expect;
        cw_bad_point(p, kind, &expect);
        uint16_t idx[2] = {0xABCDu, 0xABCDu};
        mbp_hit hits[2] = {{0xABCDu, 0}, {0xABCDu, 0}};
        mbp_hit first = {0xABCDu, 0};
        uint32_t count = 12345u;
        bool found = true;
        CHECK_ST(mbp_query_point(w, p, 0xFFFFu, idx, 2u, &count), expect);
        CHECK_ST(mbp_raycast(w, p, good, 0xFFFFu, hits, 2u, &count), expect);
        CHECK_ST(mbp_raycast(w, good, p, 0xFFFFu, hits, 2u, &count), expect);
        CHECK_ST(mbp_raycast_first(w, p, good, 0xFFFFu, &first, &found), expect);
        CHECK_ST(mbp_raycast_first(w, good, p, 0xFFFFu, &first, &found), expect);
        CHECK_EQ(count, 12345);
        CHECK(found);
        CHECK(idx[0] == 0xABCDu && hits[0].index == 0xABCDu && first.index == 0xABCDu);
    }
    /* The good ones find the body. */
    uint16_t idx[2];
    uint32_t count;
    CHECK_ST(mbp_query_point(w, good, 0xFFFFu, idx, 2u, &count), MBP_OK);
    CHECK_EQ(count, 1);
    CHECK_EQ(idx[0], mbp_index(h));
}

TEST(bodies_removed_before_any_update_are_found_by_no_query_and_pair_with_nothing)
{
    for (uint32_t kb = 0; kb < diff_backend_count; kb++) {
        mbp_world *w = &test_w;
        cw_init(w, diff_backends[kb], 0u);
        mbp_aabb b = box2(0, 0, 4, 4);
        mbp_body keep, gone, gone2;
        CHECK_ST(mbp_add_box(w, &b, 1u, &gone), MBP_OK);
        CHECK_ST(mbp_add_box(w, &b, 2u, &keep), MBP_OK);
        CHECK_ST(mbp_add_box(w, &b, 3u, &gone2), MBP_OK);
        CHECK_ST(mbp_remove(w, gone), MBP_OK);
        CHECK_ST(mbp_move_box(w, gone2, &b), MBP_OK); /* dirty twice, then removed */
        CHECK_ST(mbp_remove(w, gone2), MBP_OK);
        uint16_t idx[4];
        uint32_t count = 0u;
        mbp_scalar p0[MBP_DIM], p1[MBP_DIM];
        pt(p0, -2, 2);
        pt(p1, 6, 2);
        CHECK_ST(mbp_query_box(w, &b, 0xFFFFu, idx, 4u, &count), MBP_OK);
        CHECK_EQ(count, 1);
        CHECK_EQ(idx[0], mbp_index(keep));
        CHECK_ST(mbp_query_point(w, p1, 0xFFFFu, idx, 4u, &count), MBP_OK);
        CHECK_EQ(count, 0);
        mbp_hit hits[4], first;
        bool found = false;
        CHECK_ST(mbp_raycast(w, p0, p1, 0xFFFFu, hits, 4u, &count), MBP_OK);
        CHECK_EQ(count, 1);
        CHECK_EQ(hits[0].index, mbp_index(keep));
        CHECK(hits[0].t == mbp_from_ratio(1, 4));
        CHECK_ST(mbp_raycast_first(w, p0, p1, 0xFFFFu, &first, &found), MBP_OK);
        CHECK(found);
        CHECK_EQ(first.index, mbp_index(keep));
        CHECK_ST(mbp_update(w), MBP_OK);
        uint32_t nb, ne;
        (void)test_begun(w, &nb);
        (void)test_ended(w, &ne);
        CHECK_EQ(nb, 0);
        CHECK_EQ(ne, 0);
        CHECK_EQ(mbp_pair_count(w), 0);
        CHECK_EQ(mbp_body_count(w), 1);
    }
}

/* n bodies on one spot: n(n-1)/2 pairs. */
static void cw_cluster(mbp_world *w, uint32_t n, mbp_body *h)
{
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b = box2((int32_t)(i % 3u), 0, (int32_t)(i % 3u) + 4, 4);
        CHECK_ST(mbp_add_box(w, &b, i, &h[i]), MBP_OK);
    }
}

/* The largest cluster with at most limit pairs: its size n, its n(n-1)/2 pairs, the events of
 * them all that fit and the status of an update that gives them. Every backend stores exactly
 * those pairs as candidates, so the events' room is the set's free entries plus MBP_MAX_EVENTS:
 * when that is fewer than the pairs (2d_float and 3d_fixed reserve none, cov_small 8), the
 * events overflow. */
static uint32_t cw_cluster_set(uint32_t limit, uint32_t *pairs, uint32_t *kept,
                               mbp_status *expect)
{
    uint32_t n = 2u;
    while (n < MBP_MAX_BODIES && (n + 1u) * n / 2u <= limit) {
        n++;
    }
    *pairs = n * (n - 1u) / 2u;
#if MBP_WITH_EVENTS
    const uint32_t room = (uint32_t)MBP__PAIR_ROOM - *pairs;
    *kept = *pairs < room ? *pairs : room;
#else
    *kept = *pairs; /* no lists to fill: every event is counted */
#endif
    *expect = test_events_status(*pairs, *pairs);
    return n;
}

TEST(a_full_event_buffer_is_counted_and_the_pairs_stay_exact)
{
    uint32_t pairs, stored;
    mbp_status expect;
    const uint32_t n = cw_cluster_set(MBP_MAX_PAIRS, &pairs, &stored, &expect);
    mbp_body h[MBP_MAX_BODIES];
    for (uint32_t kb = 0; kb < diff_backend_count; kb++) {
        mbp_world *w = &test_w;
        cw_init(w, diff_backends[kb], 0u);
        cw_cluster(w, n, h);
        CHECK_ST(mbp_update(w), expect);
        const mbp_stats *st = mbp_get_stats(w);
        CHECK_EQ(st->begun, stored);
        CHECK_EQ(st->lost_events, pairs - stored);
        CHECK_EQ(st->lost_pairs, 0);
        CHECK_EQ(st->pairs, pairs);
        bool found;
        CHECK_EQ(cw_pairs(w, 0u, (uint16_t)(n - 1u), &found), pairs);
        CHECK(found);
        uint32_t nb;
        const mbp_pair *e = test_begun(w, &nb);
        for (uint32_t k = 1; e != NULL && k < nb; k++) { /* ascending, no duplicates */
            CHECK(test_pair_key(e[k - 1u]) < test_pair_key(e[k]));
        }
        /* Nothing changes: no events, exact again. */
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK_EQ(mbp_get_stats(w)->begun + mbp_get_stats(w)->ended, 0);
        CHECK_EQ(mbp_get_stats(w)->lost_events, 0);
        /* Every body removed: every pair ends and leaves the set, its entry free for its end
         * event, so every one fits. */
        for (uint32_t i = 0; i < n; i++) {
            CHECK_ST(mbp_remove(w, h[i]), MBP_OK);
        }
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK_EQ(mbp_get_stats(w)->ended, pairs);
        CHECK_EQ(mbp_get_stats(w)->lost_events, 0);
        CHECK_EQ(mbp_pair_count(w), 0);
        uint32_t ne;
        e = test_ended(w, &ne);
        for (uint32_t k = 1; e != NULL && k < ne; k++) {
            CHECK(test_pair_key(e[k - 1u]) < test_pair_key(e[k]));
        }
        if (mbp_test_failed()) {
            test_puts(mbp_backend_name(diff_backends[kb]));
            test_puts(": failed\n");
            return;
        }
    }
}

TEST(events_lost_in_a_frame_of_moved_candidates_leave_the_pair_count_exact)
{
#if MBP_WITH_TREE
    /* Tree candidates are pairs of fat boxes: n bodies apart in a row whose fat boxes (margin
     * 2n) all overlap are n(n-1)/2 stored candidates and no pair. Then every body steps, within
     * its fat box, onto one spot: no candidate changes (the backend logs nothing) and every
     * candidate begins, more events than fit when the configuration has few. The count of pairs
     * must not follow the events kept; then all step apart again and every pair ends. At most
     * 5/8 of the set: above 11/16 the tree shrinks its fat boxes (mbp__tree_update()). */
    uint32_t pairs, kept;
    mbp_status expect;
    const uint32_t n = cw_cluster_set(MBP_MAX_PAIRS * 5u / 8u, &pairs, &kept, &expect);
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_TREE;
    p.tree_margin = (mbp_scalar)(2 * (int32_t)n) * MBP_ONE;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    mbp_body h[MBP_MAX_BODIES];
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b = box2(2 * (int32_t)i, 0, 2 * (int32_t)i + 1, 1);
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    for (int32_t round = 0; round < 2; round++) {
        for (uint32_t i = 0; i < n; i++) {
            int32_t x = round == 0 ? 0 : 2 * (int32_t)i;
            mbp_aabb b = box2(x, 0, round == 0 ? 2 * (int32_t)n : x + 1, 1);
            CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), expect);
        const mbp_stats *st = mbp_get_stats(&test_w);
        CHECK_EQ(round == 0 ? st->begun : st->ended, kept);
        CHECK_EQ(st->lost_events, pairs - kept);
        CHECK_EQ(mbp_pair_count(&test_w), round == 0 ? pairs : 0u);
        CHECK_EQ(test_w.be.tree.inserts, 0); /* every body stayed in its fat box */
    }
#endif
}

/* The begun events fill the free entries from the top down; when they reach the ended block
 * while pairs have left the set below it, the block's top event moves down, so that those
 * entries serve too. A group of g bodies on one spot whose k pairs SAP keeps as candidates, all
 * filtered out, and a pair x-y that overlaps; in the next update the group and x are removed
 * (k pairs leave the set with no event, x-y ends) while a pile of nb new bodies begins b pairs:
 * more than the entries above the pairs the backend left, not more than those and the entries
 * the group frees. Runs where MBP_MAX_EVENTS reserves little (2d_float, 3d_fixed, cov_small). */
TEST(begun_events_also_take_the_entries_of_pairs_that_left_in_the_same_update)
{
#if MBP_WITH_SAP && MBP_WITH_EVENTS
    const uint32_t room = (uint32_t)MBP__PAIR_ROOM;
    uint32_t nb = 2u;
    while ((nb + 1u) * nb + 1u <= room) {
        nb++; /* the largest pile whose pairs, and the end of x-y, fit twice in the room */
    }
    const uint32_t b = nb * (nb - 1u) / 2u;
    uint32_t g = 2u;
    while (g * (g - 1u) / 2u + 1u + 2u * b <= room) {
        g++; /* the smallest group that leaves too little room above for the pile's events */
    }
    const uint32_t k = g * (g - 1u) / 2u;
    if (g + nb + 2u > MBP_MAX_BODIES || k + 1u + b > (uint32_t)MBP_MAX_PAIRS) {
        return; /* the room reserved for events is too large for such a frame */
    }
    mbp_body grp[MBP_MAX_BODIES], x, y, h;
    cw_init(&test_w, MBP_SAP, 0u);
    for (uint32_t i = 0; i < g; i++) {
        mbp_aabb box = box2(0, 0, 2, 2);
        CHECK_ST(mbp_add_box(&test_w, &box, i, &grp[i]), MBP_OK);
        CHECK_ST(mbp_set_filter(&test_w, grp[i], 0x0002u, 0x0001u), MBP_OK);
    }
    mbp_aabb bx = box2(20, 0, 22, 2), by = box2(21, 0, 23, 2);
    CHECK_ST(mbp_add_box(&test_w, &bx, 0u, &x), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &by, 0u, &y), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 1);
    CHECK_EQ(test_w.pairs.count, k + 1u); /* the group's kept as candidates: filtered later */
#if MBP_PAIR_USER
    uint32_t nu;
    mbp_pair_users(&test_w, &nu)[0] = 77u; /* x-y's slot, handed back when it ends */
#endif
    for (uint32_t i = 0; i < g; i++) {
        CHECK_ST(mbp_remove(&test_w, grp[i]), MBP_OK);
    }
    CHECK_ST(mbp_remove(&test_w, x), MBP_OK);
    for (uint32_t i = 0; i < nb; i++) {
        mbp_aabb box = box2(10, 10, 12, 12);
        CHECK_ST(mbp_add_box(&test_w, &box, i, &h), MBP_OK);
    }
    CHECK(b > room - (k + 1u + b)); /* more than the entries above the pairs the backend left */
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    const mbp_stats *st = mbp_get_stats(&test_w);
    CHECK_EQ(st->begun, b);
    CHECK_EQ(st->ended, 1);
    CHECK_EQ(st->lost_events, 0);
    CHECK_EQ(mbp_pair_count(&test_w), b);
    uint32_t n;
    const mbp_pair *e = test_begun(&test_w, &n);
    CHECK_EQ(n, b);
    for (uint32_t j = 1; e != NULL && j < n; j++) {
        CHECK(test_pair_key(e[j - 1u]) < test_pair_key(e[j]));
    }
    e = test_ended(&test_w, &n);
    CHECK_EQ(n, 1);
    CHECK(e == NULL || (e[0].a == mbp_index(x) && e[0].b == mbp_index(y)));
#if MBP_PAIR_USER
    CHECK_EQ(mbp_ended_users(&test_w, &nu)[0], 77u);
#endif
#endif
}

TEST(a_pair_set_that_overflowed_empties_exactly_when_the_bodies_part)
{
    /* The smallest cluster with more pairs than the set holds. */
    uint32_t n = 2u;
    while (n * (n - 1u) / 2u <= MBP_MAX_PAIRS) {
        n++;
    }
    if (n > MBP_MAX_BODIES) {
        return; /* no configuration of the suite: every one has room for such a cluster */
    }
    const uint32_t pairs = n * (n - 1u) / 2u;
    mbp_body h[MBP_MAX_BODIES];
    for (uint32_t kb = 0; kb < diff_backend_count; kb++) {
        mbp_world *w = &test_w;
        cw_init(w, diff_backends[kb], 0u);
        cw_cluster(w, n, h);
        CHECK_ST(mbp_update(w), MBP_E_PAIRS_FULL);
        const mbp_stats *st = mbp_get_stats(w);
        CHECK(st->lost_pairs > 0u);
        CHECK(st->pairs <= MBP_MAX_PAIRS);
        CHECK(st->pairs + st->lost_pairs >= pairs);
        /* Every body to its own place, far apart: no pair, and each stored pair ends. */
        uint32_t before = st->pairs;
        for (uint32_t i = 0; i < n; i++) {
            mbp_aabb b = box2(3 * (int32_t)i, 40, 3 * (int32_t)i + 1, 41);
            CHECK_ST(mbp_move_box(w, h[i], &b), MBP_OK);
        }
        mbp_status s = mbp_update(w);
        CHECK(s == MBP_OK || s == MBP_E_EVENTS_FULL);
        CHECK_EQ(mbp_pair_count(w), 0);
        CHECK_EQ(mbp_get_stats(w)->lost_pairs, 0);
        CHECK_EQ(mbp_get_stats(w)->ended + mbp_get_stats(w)->lost_events, before);
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK_EQ(mbp_get_stats(w)->ended + mbp_get_stats(w)->begun, 0);
        if (mbp_test_failed()) {
            test_puts(mbp_backend_name(diff_backends[kb]));
            test_puts(": failed\n");
            return;
        }
    }
}

TEST(no_handle_ever_has_generation_zero)
{
    /* Generations start at a value mixed from the world's id and address, and the one slot
     * whose start would be 0 gets 1: look for an id that makes one of our slots that slot (by
     * the formula of mbp_init; if it changes, the test still checks every handle). */
    uint32_t zero_id = 0u, zero_slot = 0u;
    bool seen = false;
    for (uint32_t id = 0u; id < 65536u && !seen; id++) {
        uint32_t salt = ((uint32_t)(uintptr_t)&test_w >> 3) * 2654435761u ^ id * 40503u;
        for (uint32_t i = 0u; i < MBP_MAX_BODIES; i++) {
            if ((uint16_t)((salt >> 16) + i * 0x9E37u) == 0u) {
                zero_id = id;
                zero_slot = i;
                seen = true;
                break;
            }
        }
    }
    CHECK(seen);
    mbp_world *w = &test_w;
    cw_init(w, MBP_BRUTE, (uint16_t)zero_id);
    mbp_aabb b = box2(0, 0, 1, 1);
    for (uint32_t i = 0u; i <= zero_slot; i++) {
        mbp_body h;
        CHECK_ST(mbp_add_box(w, &b, i, &h), MBP_OK);
        CHECK_EQ(mbp_index(h), i);
        CHECK(h.gen != 0u);
        CHECK(mbp_valid(w, h));
        mbp_body zero = {h.slot1, 0u};
        CHECK(!mbp_valid(w, zero));
    }
    CHECK_EQ(mbp_body_count(w), zero_slot + 1u);
}
