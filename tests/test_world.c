/* SPDX-License-Identifier: MIT */
/* test_world.c: init, bodies, handles, filters, the frame, events and capacities. */
#include "diff.h"
#include "mbp_bp.h"
#include "test_util.h"


static void init(mbp_backend b)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = b;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

static uint32_t sorted_pairs(uint32_t *keys, uint32_t cap)
{
    uint32_t it = 0, n = 0;
    mbp_pair p;
    mbp_sort_pairs(&test_w);
    while (mbp_next_pair(&test_w, &it, &p)) {
        if (n < cap) {
            keys[n] = test_pair_key(p);
        }
        n++;
    }
    return n;
}

TEST(init_refuses_a_backend_that_is_not_compiled_in)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = (mbp_backend)42;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_BACKEND);
    mbp_params_default(&p);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK); /* the default is always compiled in */
}

TEST(init_refuses_a_world_declared_under_another_configuration)
{
    /* What an application built with other options would pass: another size or signature. */
    CHECK_ST(MBP_INIT_SYMBOL(&test_w, NULL, (uint32_t)sizeof(mbp_world) + 4u, MBP_CONFIG_SIGNATURE),
             MBP_E_CONFIG);
    CHECK_ST(MBP_INIT_SYMBOL(&test_w, NULL, (uint32_t)sizeof(mbp_world), MBP_CONFIG_SIGNATURE ^ 1u),
             MBP_E_CONFIG);
    CHECK_ST(mbp_init(&test_w, NULL), MBP_OK);
}

TEST(a_stale_handle_is_refused_everywhere)
{
    init(MBP_BRUTE);
    mbp_aabb b = box2(0, 0, 1, 1), out;
    mbp_body h, h2;
    CHECK_ST(mbp_add_box(&test_w, &b, 7u, &h), MBP_OK);
    CHECK(mbp_valid(&test_w, h));
    CHECK_ST(mbp_remove(&test_w, h), MBP_OK);
    CHECK(!mbp_valid(&test_w, h));
    CHECK_ST(mbp_remove(&test_w, h), MBP_E_STALE);
    CHECK_ST(mbp_move_box(&test_w, h, &b), MBP_E_STALE);
    CHECK_ST(mbp_get_box(&test_w, h, &out), MBP_E_STALE);
    CHECK_ST(mbp_set_filter(&test_w, h, 1u, 1u), MBP_E_STALE);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    /* The slot is reused after the update, with a new generation. */
    CHECK_ST(mbp_add_box(&test_w, &b, 8u, &h2), MBP_OK);
    CHECK_EQ(mbp_index(h2), mbp_index(h));
    CHECK(h2.gen != h.gen);
    CHECK(!mbp_valid(&test_w, h));
    CHECK(mbp_valid(&test_w, h2));
    CHECK_EQ(mbp_user(&test_w, mbp_index(h2)), 8);
}

/* A slot reused 65536 times wraps its 16-bit generation past 0: a live handle never has
 * generation 0 (found by cppcheck: the old wrap test was always true). */
TEST(generations_wrap_without_taking_the_value_0)
{
    init(MBP_BRUTE);
    mbp_aabb b = box2(0, 0, 1, 1);
    mbp_body h;
    uint32_t zeros = 0u;
    for (uint32_t k = 0; k < 65537u; k++) {
        CHECK_ST(mbp_add_box(&test_w, &b, k, &h), MBP_OK);
        zeros += h.gen == 0u ? 1u : 0u;
        CHECK_ST(mbp_remove(&test_w, h), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        if (mbp_test_failed()) {
            return;
        }
    }
    CHECK_EQ(zeros, 0);
}

TEST(the_null_handle_and_out_of_range_handles_are_refused)
{
    init(MBP_BRUTE);
    mbp_aabb b = box2(0, 0, 1, 1);
    mbp_body nul = {0u, 0u}, big = {(uint16_t)(MBP_MAX_BODIES + 1u), 1u}, h;
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h), MBP_OK);
    CHECK(!mbp_valid(&test_w, nul));
    CHECK_ST(mbp_remove(&test_w, nul), MBP_E_STALE);
    CHECK_ST(mbp_move_box(&test_w, big, &b), MBP_E_STALE);
    mbp_body wrong = h;
    wrong.gen = (uint16_t)(h.gen + 1u);
    CHECK_ST(mbp_remove(&test_w, wrong), MBP_E_STALE);
    CHECK(mbp_handle(&test_w, (uint16_t)(MBP_MAX_BODIES - 1u)).slot1 == 0u || MBP_MAX_BODIES == 1);
}

TEST(a_handle_from_another_world_is_refused)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_BRUTE;
    p.id = 1u;
    CHECK_ST(mbp_init(&test_w2, &p), MBP_OK);
    init(MBP_BRUTE);
    mbp_aabb b = box2(0, 0, 1, 1);
    mbp_body ho, hw;
    CHECK_ST(mbp_add_box(&test_w2, &b, 0u, &ho), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &hw), MBP_OK);
    CHECK_EQ(mbp_index(ho), mbp_index(hw)); /* same slot, different generations */
    CHECK(!mbp_valid(&test_w, ho));
    CHECK_ST(mbp_remove(&test_w, ho), MBP_E_STALE);
    CHECK(mbp_valid(&test_w2, ho));
}

TEST(bad_volumes_are_refused_and_change_nothing)
{
    init(MBP_BRUTE);
    mbp_aabb good = box2(0, 0, 1, 1), bad = box2(1, 0, 0, 1), out;
    mbp_body h, h2 = {0u, 0u};
    CHECK_ST(mbp_add_box(&test_w, &bad, 0u, &h2), MBP_E_BADBOX);
    CHECK(h2.slot1 == 0u);
    CHECK_EQ(mbp_body_count(&test_w), 0);
    CHECK_ST(mbp_add_box(&test_w, &good, 0u, &h), MBP_OK);
    CHECK_ST(mbp_move_box(&test_w, h, &bad), MBP_E_BADBOX);
    CHECK_ST(mbp_get_box(&test_w, h, &out), MBP_OK);
    CHECK(out.max[0] == good.max[0]);
#if MBP_WITH_SPHERES
    mbp_sphere s = sph(0, 0, -1);
    CHECK_ST(mbp_add_sphere(&test_w, &s, 0u, &h2), MBP_E_BADBOX);
    CHECK_ST(mbp_move_sphere(&test_w, h, &s), MBP_E_BADBOX);
#endif
#if MBP_SCALAR == MBP_FIXED
    bad = good;
    bad.max[0] = MBP_RANGE + 1;
    CHECK_ST(mbp_add_box(&test_w, &bad, 0u, &h2), MBP_E_RANGE);
#endif
    CHECK_EQ(mbp_body_count(&test_w), 1);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
}

TEST(a_full_world_says_so_and_frees_slots_after_the_update)
{
    init(MBP_BRUTE);
    mbp_aabb b = box2(0, 0, 1, 1);
    mbp_body h, first = {0u, 0u};
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        b = box2((int32_t)(3 * i), 0, (int32_t)(3 * i + 1), 1);
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h), MBP_OK);
        if (i == 0u) {
            first = h;
        }
    }
    CHECK_EQ(mbp_body_count(&test_w), MBP_MAX_BODIES);
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h), MBP_E_FULL);
    CHECK_ST(mbp_remove(&test_w, first), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h), MBP_E_FULL); /* not before the update */
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h), MBP_OK);
    CHECK_EQ(mbp_index(h), 0);
}

TEST(pairs_begin_and_end_with_events_in_ascending_order)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[4];
        mbp_aabb b0 = box2(0, 0, 2, 2), b1 = box2(1, 1, 3, 3), b2 = box2(2, 2, 4, 4),
                 b3 = box2(10, 10, 11, 11);
        CHECK_ST(mbp_add_box(&test_w, &b0, 0u, &h[0]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &b1, 1u, &h[1]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &b2, 2u, &h[2]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &b3, 3u, &h[3]), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint32_t keys[8], nb, ne;
        CHECK_EQ(sorted_pairs(keys, 8), 3); /* 0-1, 0-2 (touch at a corner), 1-2 */
        CHECK_EQ(keys[0], 0x00000001);
        CHECK_EQ(keys[1], 0x00000002);
        CHECK_EQ(keys[2], 0x00010002);
        const mbp_pair *e = test_begun(&test_w, &nb);
        CHECK_EQ(nb, 3);
        CHECK(e == NULL || (e[0].a == 0 && e[0].b == 1 && e[1].a == 0 && e[1].b == 2 && e[2].a == 1));
        test_ended(&test_w, &ne);
        CHECK_EQ(ne, 0);
        CHECK_EQ(mbp_get_stats(&test_w)->pairs, 3);
        /* Nothing moves: no events, same pairs. */
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        test_begun(&test_w, &nb);
        test_ended(&test_w, &ne);
        CHECK_EQ(nb + ne, 0);
        CHECK_EQ(mbp_pair_count(&test_w), 3);
        /* Move 3 onto 2 and remove 0: 0-1 and 0-2 end, 2-3 begins. */
        mbp_aabb m = box2(4, 4, 6, 6); /* touches 2 at a corner, misses 1 */
        CHECK_ST(mbp_move_box(&test_w, h[3], &m), MBP_OK);
        CHECK_ST(mbp_remove(&test_w, h[0]), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        e = test_begun(&test_w, &nb);
        CHECK_EQ(nb, 1);
        CHECK(nb == 1 && (e == NULL || (e[0].a == 2 && e[0].b == 3)));
        e = test_ended(&test_w, &ne);
        CHECK_EQ(ne, 2);
        CHECK(ne == 2 && (e == NULL || (e[0].a == 0 && e[0].b == 1 && e[1].a == 0 && e[1].b == 2)));
        CHECK_EQ(mbp_user(&test_w, 0), 0); /* the removed body's user value is still readable */
        CHECK_EQ(sorted_pairs(keys, 8), 2);
    }
}

TEST(spheres_pair_only_when_the_spheres_really_overlap)
{
#if MBP_WITH_SPHERES
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body a, b;
        /* Circle of radius 5 at the origin; a box whose corner region only its box reaches. */
        mbp_sphere s = sph(0, 0, 5);
        mbp_aabb near = box2(4, 4, 6, 6);
        CHECK_ST(mbp_add_sphere(&test_w, &s, 0u, &a), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &near, 0u, &b), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 0);
        /* Move the box in until it touches the circle: (3,4) is at distance 5. */
        mbp_aabb touch = box2(3, 4, 6, 6);
        for (int k = 2; k < MBP_DIM; k++) {
            touch.min[k] = mbp_from_int(-1);
        }
        CHECK_ST(mbp_move_box(&test_w, b, &touch), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 1);
        /* Shrink the circle without changing its box much: the pair ends. */
        mbp_sphere s2 = sph(0, 0, 5);
        s2.r = mbp_from_ratio(49, 10);
        CHECK_ST(mbp_move_sphere(&test_w, a, &s2), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint32_t ne;
        test_ended(&test_w, &ne);
        CHECK_EQ(ne, 1);
        CHECK_EQ(mbp_pair_count(&test_w), 0);
    }
#endif
}

TEST(filters_apply_both_ways_and_changes_take_effect_at_the_next_update)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body a, b;
        mbp_aabb box = box2(0, 0, 2, 2);
        CHECK_ST(mbp_add_box(&test_w, &box, 0u, &a), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &box, 0u, &b), MBP_OK);
        CHECK_ST(mbp_set_filter(&test_w, a, 0x0002u, 0x0001u), MBP_OK); /* a accepts b */
        CHECK_ST(mbp_set_filter(&test_w, b, 0x0001u, 0x0001u), MBP_OK); /* b refuses a */
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 0);
        CHECK_ST(mbp_set_filter(&test_w, b, 0x0001u, 0x0002u), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 1);
        CHECK_ST(mbp_set_filter(&test_w, a, 0x0002u, 0x0000u), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 0);
        uint32_t ne;
        test_ended(&test_w, &ne);
        CHECK_EQ(ne, 1);
        /* Back to the defaults, which always pass (mbp_update() then skips the filter test). */
        CHECK_ST(mbp_set_filter(&test_w, a, MBP_DEFAULT_CATEGORY, MBP_DEFAULT_MASK), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 0); /* b's mask (2) still refuses a's category (1) */
        CHECK_ST(mbp_set_filter(&test_w, b, MBP_DEFAULT_CATEGORY, MBP_DEFAULT_MASK), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 1);
        CHECK_ST(mbp_set_filter(&test_w, b, 0x0001u, 0x0004u), MBP_OK); /* refuses a again */
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 0);
    }
}

/* One update; checks the pair count and the begun and ended events' counts. */
static void update_expect(uint32_t pairs, uint32_t begun, uint32_t ended)
{
    uint32_t nb, ne;
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), pairs);
    (void)test_begun(&test_w, &nb);
    (void)test_ended(&test_w, &ne);
    CHECK_EQ(nb, begun);
    CHECK_EQ(ne, ended);
}

/* A filtered (or sphere, shape, fast) body keeps the world from taking a backend's log of pair
 * changes (mbp_update.c): its pairs need their own test. Once the last such body is plain again
 * or removed, the update after that one takes the log again (w->special back to 0), and the pair
 * that the filter refused but whose boxes overlap begins when the filter goes. */
TEST(the_world_takes_the_log_again_once_no_body_is_filtered)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body a, b;
        mbp_aabb box = box2(0, 0, 2, 2), away = box2(10, 0, 12, 2);
        CHECK_ST(mbp_add_box(&test_w, &box, 0u, &a), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &box, 0u, &b), MBP_OK);
        CHECK_ST(mbp_set_filter(&test_w, b, 0x0001u, 0x0002u), MBP_OK); /* refuses a */
        CHECK_EQ(test_w.special_count, 1);
        update_expect(0u, 0u, 0u);
        CHECK(test_w.special != 0u);
        CHECK_ST(mbp_set_filter(&test_w, b, MBP_DEFAULT_CATEGORY, MBP_DEFAULT_MASK), MBP_OK);
        CHECK_EQ(test_w.special_count, 0);
        update_expect(1u, 1u, 0u); /* tested again: the boxes overlap */
        CHECK_EQ(test_w.special, 0);
        CHECK_ST(mbp_move_box(&test_w, b, &away), MBP_OK);
        update_expect(0u, 0u, 1u);
        CHECK_ST(mbp_move_box(&test_w, b, &box), MBP_OK);
        update_expect(1u, 1u, 0u);
        /* Filtered and removed: the count drops at the removal, the flag after the update. */
        CHECK_ST(mbp_set_filter(&test_w, a, 0x0004u, 0xFFFFu), MBP_OK);
        update_expect(1u, 0u, 0u);
        CHECK_EQ(test_w.special_count, 1);
        CHECK_ST(mbp_remove(&test_w, a), MBP_OK);
        CHECK_EQ(test_w.special_count, 1); /* still there, dying, until the update */
        update_expect(0u, 0u, 1u);
        CHECK_EQ(test_w.special_count, 0);
        CHECK_EQ(test_w.special, 0);
    }
}

#if MBP_WITH_SPHERES
TEST(the_world_takes_the_log_again_once_no_body_is_a_sphere)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body s, c, t;
        mbp_sphere sp = sph(0, 0, 2);
        mbp_aabb corner = box2(2, 2, 3, 3); /* in the sphere's box, outside the sphere */
        mbp_aabb as_box = box2(-2, -2, 2, 2), away = box2(20, 20, 21, 21);
        CHECK_ST(mbp_add_sphere(&test_w, &sp, 0u, &s), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &corner, 1u, &c), MBP_OK);
        update_expect(0u, 0u, 0u);
        CHECK(test_w.special != 0u);
        /* The same box, now a plain box body: not moved on any axis, yet the pair begins. */
        CHECK_ST(mbp_move_box(&test_w, s, &as_box), MBP_OK);
        CHECK_EQ(test_w.special_count, 0);
        update_expect(1u, 1u, 0u);
        CHECK_EQ(test_w.special, 0);
        CHECK_ST(mbp_move_box(&test_w, c, &away), MBP_OK);
        update_expect(0u, 0u, 1u);
        /* A sphere added and removed before an update leaves no count behind. */
        CHECK_ST(mbp_add_sphere(&test_w, &sp, 2u, &t), MBP_OK);
        CHECK_ST(mbp_remove(&test_w, t), MBP_OK);
        update_expect(0u, 0u, 0u);
        CHECK_EQ(test_w.special_count, 0);
        CHECK_EQ(test_w.special, 0);
        CHECK_ST(mbp_move_box(&test_w, c, &corner), MBP_OK);
        update_expect(1u, 1u, 0u);
    }
}
#endif

/* The smallest n with n(n-1)/2 above the pair capacity. */
static uint32_t crowd_size(void)
{
    return test_pile_that_fits() + 1u; /* the smallest pile that overflows */
}

TEST(a_full_pair_set_is_reported_every_frame_and_recovers_exactly)
{
    uint32_t n = crowd_size();
    if (n > MBP_MAX_BODIES) {
        return; /* this configuration cannot overflow its pair set */
    }
    static mbp_body h[MBP_MAX_BODIES];
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_aabb pile = box2(0, 0, 4, 4);
        for (uint32_t i = 0; i < n; i++) {
            CHECK_ST(mbp_add_box(&test_w, &pile, i, &h[i]), MBP_OK);
        }
        uint32_t total = n * (n - 1u) / 2u;
        for (int f = 0; f < 3; f++) {
            CHECK_ST(mbp_update(&test_w), MBP_E_PAIRS_FULL);
            const mbp_stats *st = mbp_get_stats(&test_w);
            CHECK(st->lost_pairs > 0u);
            CHECK(st->pairs <= (uint32_t)MBP_MAX_PAIRS);
            if (diff_backends[bi] == MBP_BRUTE) {
                CHECK_EQ(st->pairs + st->lost_pairs, total);
            }
            /* Every stored pair is a true one. */
            uint32_t it = 0;
            mbp_pair p;
            while (mbp_next_pair(&test_w, &it, &p)) {
                CHECK(p.a < p.b && p.b < n);
            }
        }
        /* Spread them out in a row of touching boxes: n - 1 pairs, exact again. */
        for (uint32_t i = 0; i < n; i++) {
            mbp_aabb b = box2((int32_t)(2 * i), 0, (int32_t)(2 * i + 2), 1);
            CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
        }
        mbp_status st = mbp_update(&test_w);
        CHECK(st == MBP_OK || st == MBP_E_PAIRS_FULL || st == MBP_E_EVENTS_FULL);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        static uint32_t keys[MBP_MAX_BODIES];
        CHECK_EQ(sorted_pairs(keys, MBP_MAX_BODIES), n - 1u);
        for (uint32_t i = 0; i + 1u < n; i++) {
            CHECK_EQ(keys[i], i << 16 | (i + 1u));
        }
    }
}

/* The events of a frame go into the pair set's entries that its pairs leave free, plus
 * MBP_MAX_EVENTS: a pile whose pairs all begin at once, and fill more than half of that, loses
 * some events, reports it, and keeps every pair; the next frame has room again. Brute force
 * stores no pair that does not overlap, so the room is known exactly. */
TEST(a_frame_whose_events_outgrow_the_free_entries_reports_it_and_the_pairs_stay_exact)
{
#if MBP_WITH_EVENTS
    const uint32_t room = (uint32_t)MBP_MAX_PAIRS + (uint32_t)MBP_MAX_EVENTS;
    uint32_t n = 2;
    while (n <= MBP_MAX_BODIES && 2u * (n * (n - 1u) / 2u) <= room) {
        n++;
    }
    uint32_t p = n * (n - 1u) / 2u;
    if (n > MBP_MAX_BODIES || p > (uint32_t)MBP_MAX_PAIRS) {
        return; /* MBP_MAX_EVENTS >= MBP_MAX_PAIRS: no frame whose pairs fit can lose an event */
    }
    init(MBP_BRUTE);
    mbp_aabb pile = box2(0, 0, 4, 4);
    mbp_body h[MBP_MAX_BODIES];
    for (uint32_t i = 0; i < n; i++) {
        CHECK_ST(mbp_add_box(&test_w, &pile, i, &h[i]), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_E_EVENTS_FULL);
    uint32_t nb, ne;
    const mbp_pair *bg = test_begun(&test_w, &nb);
    CHECK_EQ(nb, room - p);
    CHECK_EQ(mbp_get_stats(&test_w)->lost_events, p - (room - p));
    CHECK_EQ(mbp_pair_count(&test_w), p);
    bool ascending = true; /* the part held is still in order, each a pair of the pile */
    for (uint32_t i = 0; i < nb; i++) {
        ascending = ascending && bg[i].a < bg[i].b && bg[i].b < n &&
                    (i == 0u || test_pair_key(bg[i - 1u]) < test_pair_key(bg[i]));
    }
    CHECK(ascending);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    mbp_aabb away = box2(40, 40, 44, 44); /* the first body leaves: its n - 1 pairs end */
    CHECK_ST(mbp_move_box(&test_w, h[0], &away), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    const mbp_pair *en = test_ended(&test_w, &ne);
    CHECK_EQ(ne, n - 1u);
    for (uint32_t i = 0; i < ne; i++) {
        CHECK(en[i].a == 0u && en[i].b == i + 1u);
    }
    CHECK_EQ(mbp_pair_count(&test_w), (n - 1u) * (n - 2u) / 2u);
#endif
}

/* Without event lists (MBP_WITH_EVENTS 0: the 2d_fixed_sapq configuration) there is nothing to
 * fill: a frame where every pair of a pile begins is MBP_OK, and the statistics count each begin
 * and end. */
TEST(with_no_event_lists_every_begin_and_end_is_counted)
{
#if !MBP_WITH_EVENTS
    uint32_t n = test_pile_that_fits();
    n = n > MBP_MAX_BODIES ? MBP_MAX_BODIES : n;
    for (uint32_t kb = 0; kb < diff_backend_count; kb++) {
        init(diff_backends[kb]);
        mbp_aabb pile = box2(0, 0, 4, 4);
        mbp_body h[MBP_MAX_BODIES];
        for (uint32_t i = 0; i < n; i++) {
            CHECK_ST(mbp_add_box(&test_w, &pile, i, &h[i]), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        const mbp_stats *st = mbp_get_stats(&test_w);
        CHECK_EQ(st->begun, n * (n - 1u) / 2u);
        CHECK_EQ(st->ended, 0);
        CHECK_EQ(st->lost_events, 0);
        mbp_aabb away = box2(40, 40, 44, 44); /* the first body leaves the pile */
        CHECK_ST(mbp_move_box(&test_w, h[0], &away), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(st->begun, 0);
        CHECK_EQ(st->ended, n - 1u);
        CHECK_EQ(mbp_pair_count(&test_w), (n - 1u) * (n - 2u) / 2u);
    }
#endif
}

TEST(walking_pairs_in_own_order_and_sorted_gives_the_same_set)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h;
        uint32_t rng = 5u;
        uint32_t n = TEST_BODIES / 2u;
        for (uint32_t i = 0; i < n; i++) {
            int32_t x = (int32_t)test_below(&rng, 40u), y = (int32_t)test_below(&rng, 40u);
            mbp_aabb b = box2(x, y, x + 3, y + 3);
            CHECK_ST(mbp_add_box(&test_w, &b, i, &h), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint32_t sum_own = 0, sum_sorted = 0, count = 0, it = 0, last = 0;
        mbp_pair p;
        while (mbp_next_pair(&test_w, &it, &p)) {
            sum_own += (uint32_t)p.a * 131u + p.b;
        }
        mbp_sort_pairs(&test_w);
        it = 0;
        bool ascending = true;
        while (mbp_next_pair(&test_w, &it, &p)) {
            uint32_t key = test_pair_key(p);
            ascending = ascending && (count == 0u || key > last);
            last = key;
            sum_sorted += (uint32_t)p.a * 131u + p.b;
            count++;
        }
        CHECK(ascending);
        CHECK_EQ(sum_own, sum_sorted);
        CHECK_EQ(count, mbp_pair_count(&test_w));
        CHECK(count > 0u);
    }
}

TEST(status_names_name_every_status)
{
    CHECK(mbp_status_name(MBP_OK)[4] == 'O');
    CHECK(mbp_status_name(MBP_E_TRUNCATED)[6] == 'T');
    CHECK(mbp_status_name((mbp_status)99)[6] == '?');
    for (int s = MBP_OK; s <= MBP_E_TRUNCATED; s++) {
        CHECK(mbp_status_name((mbp_status)s)[6] != '?');
    }
}

TEST(backend_names_name_every_backend)
{
    CHECK(mbp_backend_name(MBP_BRUTE)[0] == 'b' && mbp_backend_name(MBP_HGRID)[1] == 'g');
    CHECK(mbp_backend_name(MBP_TREE)[0] == 't' && mbp_backend_name(MBP_SAP)[2] == 'p');
    CHECK(mbp_backend_name((mbp_backend)0)[0] == '?');
    CHECK(mbp_backend_name((mbp_backend)99)[0] == '?');
    for (int b = MBP_BRUTE; b <= MBP_QUADTREE; b++) {
        CHECK(mbp_backend_name((mbp_backend)b)[0] != '?');
    }
}
