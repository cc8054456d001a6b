/* SPDX-License-Identifier: MIT */
/* test_moves.c: batch moves (mbp_move_boxes), static bodies and the plain pair array
 * (mbp_pairs), on every backend. The randomized differential suite (diff.c) runs all three
 * against the oracle too; these tests pin the documented edges. */
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

/* The pair count, checked against the array and the walk. */
static uint32_t pair_count(void)
{
    uint32_t n, it = 0, walked = 0;
    mbp_pair p;
    const mbp_pair *arr = mbp_pairs(&test_w, &n);
    while (mbp_next_pair(&test_w, &it, &p)) {
        CHECK(walked < n && arr[walked].a == p.a && arr[walked].b == p.b);
        walked++;
    }
    CHECK_EQ(walked, n);
    CHECK_EQ(mbp_pair_count(&test_w), n);
    return n;
}

TEST(move_boxes_moves_every_body_on_every_backend)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[3];
        mbp_aabb to[3] = {box2(0, 0, 1, 1), box2(1, 0, 2, 1), box2(5, 5, 6, 6)};
        for (int32_t i = 0; i < 3; i++) {
            mbp_aabb far = box2(10 * i + 20, 20, 10 * i + 21, 21);
            CHECK_ST(mbp_add_box(&test_w, &far, (uint32_t)i, &h[i]), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(pair_count(), 0);
        uint32_t done = 99u;
        CHECK_ST(mbp_move_boxes(&test_w, 3u, h, to, &done), MBP_OK);
        CHECK_EQ(done, 3);
        for (uint32_t i = 0; i < 3u; i++) {
            CHECK(body_box_is(&test_w, h[i], &to[i]));
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(pair_count(), 1); /* 0 and 1 touch */
        CHECK_ST(mbp_move_boxes(&test_w, 0u, NULL, NULL, NULL), MBP_OK);
    }
}

TEST(move_boxes_stops_at_a_stale_handle_and_moves_nothing_after_it)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[4];
        mbp_aabb b0 = box2(0, 0, 1, 1), to = box2(3, 3, 4, 4);
        for (uint32_t i = 0; i < 3u; i++) {
            CHECK_ST(mbp_add_box(&test_w, &b0, i, &h[i]), MBP_OK);
        }
        h[3] = h[2];
        CHECK_ST(mbp_remove(&test_w, h[1]), MBP_OK); /* h[1] is stale now */
        mbp_body order[4] = {h[0], h[1], h[2], h[3]};
        mbp_aabb boxes[4] = {to, to, to, to};
        uint32_t done = 99u;
        CHECK_ST(mbp_move_boxes(&test_w, 4u, order, boxes, &done), MBP_E_STALE);
        CHECK_EQ(done, 1);
        CHECK(body_box_is(&test_w, h[0], &to));
        CHECK(body_box_is(&test_w, h[2], &b0));
        mbp_body null_h = {0u, 0u};
        mbp_body out_of_range = {(uint16_t)(MBP_MAX_BODIES + 1u), 1u};
        CHECK_ST(mbp_move_boxes(&test_w, 1u, &null_h, boxes, &done), MBP_E_STALE);
        CHECK_EQ(done, 0);
        CHECK_ST(mbp_move_boxes(&test_w, 1u, &out_of_range, boxes, NULL), MBP_E_STALE);
        mbp_body wrong_gen = h[2];
        wrong_gen.gen = (uint16_t)(wrong_gen.gen + 1u);
        CHECK_ST(mbp_move_boxes(&test_w, 1u, &wrong_gen, boxes, NULL), MBP_E_STALE);
        CHECK(body_box_is(&test_w, h[2], &b0));
    }
}

TEST(move_boxes_stops_at_a_bad_box_with_its_status)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[2];
        mbp_aabb b0 = box2(0, 0, 1, 1), to = box2(3, 3, 4, 4);
        CHECK_ST(mbp_add_box(&test_w, &b0, 0u, &h[0]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &b0, 1u, &h[1]), MBP_OK);
        mbp_aabb inverted = box2(2, 2, 1, 3);
        mbp_aabb far = b0;
        far.max[0] = MBP_RANGE;
        far.max[0] += MBP_RANGE; /* twice the range: fits in the scalar, outside the range */
        mbp_aabb boxes[2] = {to, inverted};
        uint32_t done = 99u;
        CHECK_ST(mbp_move_boxes(&test_w, 2u, h, boxes, &done), MBP_E_BADBOX);
        CHECK_EQ(done, 1);
        CHECK(body_box_is(&test_w, h[0], &to));
        CHECK(body_box_is(&test_w, h[1], &b0));
        boxes[0] = far;
        CHECK_ST(mbp_move_boxes(&test_w, 1u, &h[1], boxes, &done), MBP_E_RANGE);
        CHECK_EQ(done, 0);
        CHECK(body_box_is(&test_w, h[1], &b0));
    }
}

/* Edge coordinates for the box checks, and how many ordered pairs of them (min, max) make a good
 * axis: both within the range, min <= max. */
#if MBP_SCALAR == MBP_FLOAT
static const uint32_t k_edge_bits[] = {
    0x00000000u, 0x80000000u, /* +0, -0 */
    0x00000001u, 0x80000001u, /* the smallest subnormals */
    0x3F800000u, 0xBF800000u, /* 1, -1 */
    0x5D800000u, 0xDD800000u, /* MBP_RANGE (2^60), -MBP_RANGE */
    0x5D800001u, 0xDD800001u, /* just past the range */
    0x5D7FFFFFu, 0xDD7FFFFFu, /* just within it */
    0x7F800000u, 0xFF800000u, /* +inf, -inf */
    0x7FC00000u, 0xFFC00000u, /* NaNs of either sign */
    0x7F800001u, 0xFFFFFFFFu, /* a signalling NaN, the largest -NaN */
};
#define EDGE_COUNT (sizeof k_edge_bits / sizeof k_edge_bits[0])
#define EDGE_GOOD_PAIRS 56u /* 10 values in range, -0 and +0 equal both ways */

static mbp_scalar edge_value(uint32_t i)
{
    union {
        uint32_t u;
        float f;
    } v;
    v.u = k_edge_bits[i];
    return v.f;
}
#else
static const mbp_scalar k_edge[] = {
    0, 1, -1, MBP_RANGE, -MBP_RANGE, MBP_RANGE - 1, -MBP_RANGE + 1, /* in range */
    MBP_RANGE + 1, -MBP_RANGE - 1, INT32_MAX, INT32_MIN,              /* past it */
};
#define EDGE_COUNT (sizeof k_edge / sizeof k_edge[0])
#define EDGE_GOOD_PAIRS 28u /* 7 distinct values in range */

static mbp_scalar edge_value(uint32_t i)
{
    return k_edge[i];
}
#endif

/* mbp_move_boxes(), mbp_move_boxes_at() and mbp_move_box() check a box on their fast path with
 * their own tests (in float by the coordinates' bits: lib/mbp_move.c, quick_good()). Every pair
 * of edge values on each axis, as min and max: the status must be mbp_aabb_check()'s, and the box
 * stored exactly when it is MBP_OK. */
TEST(moves_check_edge_coordinates_as_aabb_check_does)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h;
        mbp_aabb b0 = box2(0, 0, 1, 1);
        CHECK_ST(mbp_add_box(&test_w, &b0, 0u, &h), MBP_OK);
        uint32_t moved = 0;
        for (int k = 0; k < MBP_DIM; k++) {
            for (uint32_t i = 0; i < (uint32_t)EDGE_COUNT; i++) {
                for (uint32_t j = 0; j < (uint32_t)EDGE_COUNT; j++) {
                    mbp_aabb to = b0;
                    to.min[k] = edge_value(i);
                    to.max[k] = edge_value(j);
                    mbp_status want = mbp_aabb_check(&to);
                    const mbp_aabb *now = want == MBP_OK ? &to : &b0;
                    CHECK_ST(mbp_move_boxes(&test_w, 1u, &h, &to, NULL), want);
                    CHECK(body_box_is(&test_w, h, now));
                    CHECK_ST(mbp_move_box(&test_w, h, &b0), MBP_OK); /* back */
                    CHECK_ST(mbp_move_box(&test_w, h, &to), want);
                    CHECK(body_box_is(&test_w, h, now));
                    CHECK_ST(mbp_move_box(&test_w, h, &b0), MBP_OK);
                    /* the same by index: its own copies of the checks */
                    uint16_t x = (uint16_t)(h.slot1 - 1u);
                    CHECK_ST(mbp_move_boxes_at(&test_w, 1u, &x, &to, NULL), want);
                    CHECK(body_box_is(&test_w, h, now));
                    CHECK_ST(mbp_move_box(&test_w, h, &b0), MBP_OK);
                    moved += want == MBP_OK ? 1u : 0u;
                }
            }
        }
        CHECK_EQ(moved, (uint32_t)MBP_DIM * EDGE_GOOD_PAIRS);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
    }
}

#if MBP_WITH_SPHERES
TEST(move_boxes_turns_a_sphere_body_into_a_box_body)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body s, b;
        mbp_sphere sp = sph(0, 0, 2);
        mbp_aabb corner = box2(2, 2, 3, 3); /* in the sphere's box, outside the sphere */
        CHECK_ST(mbp_add_sphere(&test_w, &sp, 0u, &s), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &corner, 1u, &b), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(pair_count(), 0);
        mbp_aabb as_box = box2(-2, -2, 2, 2);
        CHECK_ST(mbp_move_boxes(&test_w, 1u, &s, &as_box, NULL), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(pair_count(), 1);
    }
}

TEST(the_pair_array_holds_only_overlapping_pairs_when_candidates_do_not_overlap)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[4];
        mbp_sphere s0 = sph(0, 0, 2), s1 = sph(10, 0, 2);
        mbp_aabb c0 = box2(2, 2, 3, 3), c1 = box2(11, 1, 12, 2); /* s1 overlaps c1, not s0 c0 */
        CHECK_ST(mbp_add_sphere(&test_w, &s0, 0u, &h[0]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &c0, 1u, &h[1]), MBP_OK);
        CHECK_ST(mbp_add_sphere(&test_w, &s1, 2u, &h[2]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &c1, 3u, &h[3]), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint32_t n;
        const mbp_pair *p = mbp_pairs(&test_w, &n);
        CHECK_EQ(n, 1);
        CHECK(p[0].a == mbp_index(h[2]) && p[0].b == mbp_index(h[3]));
        p = mbp_pairs(&test_w, &n); /* a second call finds it split already */
        CHECK_EQ(n, 1);
        CHECK_EQ(pair_count(), 1);
        mbp_sort_pairs(&test_w);
        p = mbp_pairs(&test_w, &n);
        CHECK(n == 1u && p[0].a == mbp_index(h[2]));
    }
}
#endif

TEST(the_pair_array_of_an_empty_world_is_empty)
{
    init(diff_backends[0]);
    uint32_t n = 99u;
    (void)mbp_pairs(&test_w, &n);
    CHECK_EQ(n, 0);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    (void)mbp_pairs(&test_w, &n);
    CHECK_EQ(n, 0);
}

/* True when no entry of the pair set, candidate or pair, has two static bodies: the world's
 * re-test of a moved body's pairs counts on it (mbp_update.c, hit_now()). */
static bool no_static_entry(void)
{
    const mbp_pairset *ps = &test_w.pairs;
    for (uint32_t k = 0; k < ps->count; k++) {
        if ((test_w.flags[ps->pair[k].a] & test_w.flags[ps->pair[k].b] & MBP__STATIC) != 0u) {
            return false;
        }
    }
    return true;
}

TEST(static_bodies_never_pair_with_each_other_but_pair_with_others)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body w0, w1, d;
        mbp_aabb a = box2(0, 0, 2, 2), b = box2(1, 1, 3, 3), c = box2(2, 2, 4, 4);
        CHECK_ST(mbp_add_static_box(&test_w, &a, 0u, &w0), MBP_OK);
        CHECK_ST(mbp_add_static_box(&test_w, &b, 1u, &w1), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK(no_static_entry());
        CHECK_EQ(pair_count(), 0);
        CHECK_ST(mbp_add_box(&test_w, &c, 2u, &d), MBP_OK); /* touches both */
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK(no_static_entry());
        CHECK_EQ(pair_count(), 2);
        uint32_t nb;
        (void)test_begun(&test_w, &nb);
        CHECK_EQ(nb, 2);
        /* A moved static body stays static: still no pair with the other wall. */
        mbp_aabb onto = box2(1, 1, 3, 3);
        CHECK_ST(mbp_move_box(&test_w, w0, &onto), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK(no_static_entry());
        CHECK_EQ(pair_count(), 2);
        CHECK_ST(mbp_remove(&test_w, d), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK(no_static_entry());
        CHECK_EQ(pair_count(), 0);
    }
}

TEST(a_static_box_is_checked_as_any_box)
{
    init(diff_backends[0]);
    mbp_body h = {0u, 0u};
    mbp_aabb inverted = box2(2, 2, 1, 3);
    CHECK_ST(mbp_add_static_box(&test_w, &inverted, 0u, &h), MBP_E_BADBOX);
    CHECK_EQ(h.slot1, 0);
    CHECK_EQ(mbp_body_count(&test_w), 0);
}

TEST(a_pair_whose_bodies_move_together_far_gives_no_event)
{
    /* Many still bodies, so that SAP sorts the two movers in one at a time: the first one's
     * endpoints pass the second's (the pair ends), then the second's pass the first's again
     * (it starts again): one update, no event. */
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        uint32_t still = TEST_BODIES > 2u ? TEST_BODIES - 2u : 0u;
        for (uint32_t i = 0; i < still; i++) {
            mbp_body h;
            mbp_aabb far = box2(100 + 2 * (int32_t)i, 100, 101 + 2 * (int32_t)i, 101);
            CHECK_ST(mbp_add_box(&test_w, &far, i, &h), MBP_OK);
        }
        mbp_body ab[2];
        mbp_aabb a0 = box2(0, 0, 2, 2), b0 = box2(1, 0, 3, 2);
        CHECK_ST(mbp_add_box(&test_w, &a0, 90u, &ab[0]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &b0, 91u, &ab[1]), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(pair_count(), 1);
        for (int32_t step = 1; step <= 3; step++) {
            mbp_aabb to[2] = {box2(10 * step, 0, 10 * step + 2, 2),
                              box2(10 * step + 1, 0, 10 * step + 3, 2)};
            CHECK_ST(mbp_move_boxes(&test_w, 2u, ab, to, NULL), MBP_OK);
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            uint32_t nb, ne;
            (void)test_begun(&test_w, &nb);
            (void)test_ended(&test_w, &ne);
            CHECK_EQ(nb, 0);
            CHECK_EQ(ne, 0);
            CHECK_EQ(pair_count(), 1);
        }
    }
}

/* Moves and removal by index: the indices that the pairs give, back in without a handle. */
TEST(moves_and_removal_by_index_take_the_indices_of_the_pairs)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[3];
        mbp_aabb a0 = box2(0, 0, 2, 2), b0 = box2(1, 0, 3, 2), c0 = box2(20, 20, 21, 21);
        CHECK_ST(mbp_add_box(&test_w, &a0, 10u, &h[0]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &b0, 11u, &h[1]), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &c0, 12u, &h[2]), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint32_t n, nb, ne;
        const mbp_pair *arr = mbp_pairs(&test_w, &n);
        CHECK_EQ(n, 1);
        mbp_pair p = arr[0];
        CHECK_EQ(mbp_user(&test_w, p.a) + mbp_user(&test_w, p.b), 21u);
        /* one body moved away by its index: the pair ends */
        mbp_aabb away = box2(40, 0, 41, 1);
        CHECK_ST(mbp_move_box_at(&test_w, p.b, &away), MBP_OK);
        CHECK(body_box_is(&test_w, mbp_handle(&test_w, p.b), &away));
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        const mbp_pair *ended = test_ended(&test_w, &ne);
        CHECK_EQ(ne, 1);
        CHECK(ended == NULL || (ended[0].a == p.a && ended[0].b == p.b));
        CHECK_EQ(pair_count(), 0);
        /* both back together by index, in one batch: it begins again */
        uint16_t both[2] = {p.a, p.b};
        mbp_aabb back[2] = {box2(30, 30, 32, 32), box2(32, 30, 33, 31)};
        uint32_t done = 99u;
        CHECK_ST(mbp_move_boxes_at(&test_w, 2u, both, back, &done), MBP_OK);
        CHECK_EQ(done, 2);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        const mbp_pair *begun = test_begun(&test_w, &nb);
        CHECK_EQ(nb, 1);
        CHECK(begun == NULL || (begun[0].a == p.a && begun[0].b == p.b));
        /* removed by index: refused by index and by handle from then on */
        CHECK_ST(mbp_remove_at(&test_w, p.a), MBP_OK);
        CHECK_ST(mbp_remove_at(&test_w, p.a), MBP_E_STALE);
        CHECK_ST(mbp_move_box_at(&test_w, p.a, &away), MBP_E_STALE);
        CHECK_ST(mbp_move_boxes_at(&test_w, 1u, &p.a, &away, &done), MBP_E_STALE);
        CHECK_EQ(done, 0);
        CHECK(!mbp_valid(&test_w, h[p.a == h[0].slot1 - 1u ? 0 : 1]));
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        ended = test_ended(&test_w, &ne);
        CHECK_EQ(ne, 1); /* the ended event still names the removed body's index */
        CHECK(ended == NULL || (ended[0].a == p.a && ended[0].b == p.b));
        /* its slot is free after that update: still refused, until a body is added there */
        CHECK_ST(mbp_move_box_at(&test_w, p.a, &away), MBP_E_STALE);
        CHECK_ST(mbp_remove_at(&test_w, p.a), MBP_E_STALE);
        CHECK_ST(mbp_move_boxes_at(&test_w, 0u, NULL, NULL, NULL), MBP_OK);
        CHECK_EQ(mbp_body_count(&test_w), 2);
    }
}

TEST(move_boxes_at_stops_at_an_index_that_names_no_body_or_a_bad_box)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[3];
        mbp_aabb b0 = box2(0, 0, 1, 1), to = box2(3, 3, 4, 4);
        for (uint32_t i = 0; i < 3u; i++) {
            CHECK_ST(mbp_add_box(&test_w, &b0, i, &h[i]), MBP_OK);
        }
        uint16_t x[3] = {(uint16_t)(h[0].slot1 - 1u), (uint16_t)MBP_MAX_BODIES,
                         (uint16_t)(h[2].slot1 - 1u)};
        mbp_aabb boxes[3] = {to, to, to};
        uint32_t done = 99u;
        CHECK_ST(mbp_move_boxes_at(&test_w, 3u, x, boxes, &done), MBP_E_STALE);
        CHECK_EQ(done, 1);
        CHECK(body_box_is(&test_w, h[0], &to));
        CHECK(body_box_is(&test_w, h[2], &b0)); /* after the bad entry: not moved */
        x[1] = 0xFFFFu;
        CHECK_ST(mbp_move_boxes_at(&test_w, 2u, &x[1], boxes, &done), MBP_E_STALE);
        CHECK_EQ(done, 0);
        CHECK_ST(mbp_move_box_at(&test_w, 0xFFFFu, &to), MBP_E_STALE);
        CHECK_ST(mbp_remove_at(&test_w, (uint16_t)MBP_MAX_BODIES), MBP_E_STALE);
        /* a free slot (never used) names no body */
        if (MBP_MAX_BODIES > 3u) {
            CHECK_ST(mbp_move_box_at(&test_w, 3u, &to), MBP_E_STALE);
        }
        mbp_aabb inverted = box2(2, 2, 1, 3);
        boxes[1] = inverted;
        x[1] = (uint16_t)(h[1].slot1 - 1u);
        CHECK_ST(mbp_move_boxes_at(&test_w, 3u, x, boxes, &done), MBP_E_BADBOX);
        CHECK_EQ(done, 1);
        CHECK(body_box_is(&test_w, h[1], &b0));
        CHECK_ST(mbp_move_box_at(&test_w, x[1], &inverted), MBP_E_BADBOX);
        CHECK(body_box_is(&test_w, h[1], &b0));
        CHECK_EQ(mbp_body_count(&test_w), 3);
    }
}
