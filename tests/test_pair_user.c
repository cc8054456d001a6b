/* SPDX-License-Identifier: MIT */
/* test_pair_user.c: the per-pair user slots (MBP_PAIR_USER, mbp_pair_users(), mbp_ended_users()),
 * on every backend: a new pair starts at 0, a slot keeps what the user writes while its pair
 * overlaps, follows its pair when the set moves entries (removes, the split of mbp_pairs(),
 * mbp_sort_pairs()), and an ended pair reports its last value and begins again at 0.
 *
 * The tests run in the configurations that set MBP_PAIR_USER to 1 (config/mbp_config_2d_float.h);
 * elsewhere the functions do not exist and the tests pass empty. */
#include "diff.h"
#include "test_util.h"

#if MBP_PAIR_USER

static void init(mbp_backend b)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = b;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

/* The value the tests write into the slot of pair (a, b): nonzero, different per pair. */
static uint32_t mark(uint32_t a, uint32_t b)
{
    return 0x10000u * (a + 1u) + b + 7u;
}

/* The slot of pair (a, b) now, or UINT32_MAX when the pair does not overlap. The pairs and their
 * slots are read in the order given by users_first. */
static uint32_t slot_of(uint32_t a, uint32_t b, bool users_first)
{
    uint32_t n = 0u, nu = 0u;
    const uint32_t *u = users_first ? mbp_pair_users(&test_w, &nu) : NULL;
    const mbp_pair *p = mbp_pairs(&test_w, &n);
    if (!users_first) {
        u = mbp_pair_users(&test_w, &nu);
    }
    CHECK_EQ(nu, n);
    for (uint32_t k = 0; k < n; k++) {
        if (p[k].a == a && p[k].b == b) {
            return u[k];
        }
    }
    return UINT32_MAX;
}

/* Writes mark(a, b) into the slot of every overlapping pair. */
static void mark_all(void)
{
    uint32_t n, nu;
    const mbp_pair *p = mbp_pairs(&test_w, &n);
    uint32_t *u = mbp_pair_users(&test_w, &nu);
    CHECK_EQ(nu, n);
    for (uint32_t k = 0; k < n; k++) {
        u[k] = mark(p[k].a, p[k].b);
    }
}

/* Checks that n pairs' slots u are mark(a, b) (nu: the slots' count); returns n. */
static uint32_t marked(const mbp_pair *p, uint32_t n, const uint32_t *u, uint32_t nu)
{
    CHECK_EQ(nu, n);
    for (uint32_t k = 0; k < n; k++) {
        CHECK_EQ(u[k], mark(p[k].a, p[k].b));
    }
    return n;
}

/* Checks the overlapping pairs' slots; returns the pairs. */
static uint32_t check_marked(void)
{
    uint32_t n, nu;
    const mbp_pair *p = mbp_pairs(&test_w, &n);
    const uint32_t *u = mbp_pair_users(&test_w, &nu);
    return marked(p, n, u, nu);
}

/* Checks the ended events' values; returns their number. */
static uint32_t check_ended_marked(void)
{
    uint32_t n, nu;
    const mbp_pair *e = mbp_ended(&test_w, &n);
    const uint32_t *u = mbp_ended_users(&test_w, &nu);
    return marked(e, n, u, nu);
}

/* Box i of a row: 3 units wide, 2 apart, so that it overlaps boxes i - 1 and i + 1 only. */
static mbp_aabb row_box(uint32_t i, int32_t y0, int32_t y1)
{
    return box2(2 * (int32_t)i, y0, 2 * (int32_t)i + 3, y1);
}

/* A row of n boxes (row_box()). */
static void add_row(mbp_body *h, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b = row_box(i, 0, 2);
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
    }
}

#define ROW 12u

#endif /* MBP_PAIR_USER */

TEST(new_pairs_start_at_zero_and_keep_what_the_user_writes_while_they_overlap)
{
#if MBP_PAIR_USER
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[ROW];
        add_row(h, ROW);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint32_t n, nu;
        mbp_pairs(&test_w, &n);
        const uint32_t *u = mbp_pair_users(&test_w, &nu);
        CHECK_EQ(n, ROW - 1u);
        CHECK_EQ(nu, n);
        for (uint32_t k = 0; k < nu; k++) {
            CHECK_EQ(u[k], 0);
        }
        mark_all();
        /* Every body moves a little, every pair still overlaps: the slots stay. */
        for (int32_t step = 1; step <= 4; step++) {
            for (uint32_t i = 0; i < ROW; i++) {
                mbp_aabb b = row_box(i, step, step + 2 + (int32_t)(i % 2u));
                CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
            }
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            CHECK_EQ(check_marked(), ROW - 1u);
            uint32_t ended;
            mbp_ended(&test_w, &ended);
            CHECK_EQ(ended, 0);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK); /* a frame where nothing moved */
        CHECK_EQ(check_marked(), ROW - 1u);
    }
#endif
}

TEST(ended_pairs_report_their_last_value_and_the_other_pairs_keep_theirs)
{
#if MBP_PAIR_USER
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[ROW];
        add_row(h, ROW);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        mark_all();
        /* Body 3 goes far away (pairs 2-3, 3-4 end), body 7 is removed (6-7, 7-8 end): the set
         * moves its last entries into their holes. */
        mbp_aabb far = box2(100, 100, 101, 101);
        CHECK_ST(mbp_move_box(&test_w, h[3], &far), MBP_OK);
        CHECK_ST(mbp_remove(&test_w, h[7]), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(check_ended_marked(), 4);
        CHECK_EQ(check_marked(), ROW - 5u);
        /* Body 3 comes back: its pairs begin again, at 0. */
        mbp_aabb back = row_box(3u, 0, 2);
        CHECK_ST(mbp_move_box(&test_w, h[3], &back), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(slot_of(2u, 3u, false), 0);
        CHECK_EQ(slot_of(3u, 4u, true), 0);
        CHECK_EQ(slot_of(0u, 1u, false), mark(0u, 1u));
    }
#endif
}

TEST(user_slots_follow_their_pairs_through_mbp_sort_pairs)
{
#if MBP_PAIR_USER
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[ROW];
        /* Added from the right, so that the set holds the pairs out of order. */
        for (uint32_t i = ROW; i-- > 0u;) {
            mbp_aabb b = row_box(i, 0, 2);
            CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        mark_all();
        mbp_sort_pairs(&test_w);
        uint32_t n;
        const mbp_pair *p = mbp_pairs(&test_w, &n);
        for (uint32_t k = 1; k < n; k++) {
            CHECK(p[k - 1u].a < p[k].a || (p[k - 1u].a == p[k].a && p[k - 1u].b < p[k].b));
        }
        CHECK_EQ(check_marked(), ROW - 1u);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(check_marked(), ROW - 1u);
    }
#endif
}

TEST(a_sphere_pair_that_stops_overlapping_inside_its_boxes_ends_and_begins_again_at_zero)
{
#if MBP_PAIR_USER
    if (!MBP_WITH_SPHERES) {
        return;
    }
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body s0, s1;
        mbp_sphere a = sph(0, 0, 5), near = sph(6, 0, 5), corner = sph(8, 8, 5);
        CHECK_ST(mbp_add_sphere(&test_w, &a, 0u, &s0), MBP_OK);
        CHECK_ST(mbp_add_sphere(&test_w, &corner, 1u, &s1), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK); /* the boxes overlap, the circles do not */
        CHECK_EQ(slot_of(0u, 1u, false), UINT32_MAX);
        CHECK_ST(mbp_move_sphere(&test_w, s1, &near), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(slot_of(0u, 1u, true), 0);
        mark_all();
        /* Back to the corner: the pair ends with its value; the backend may keep it as a
         * candidate, whose slot is 0 again when it begins. */
        CHECK_ST(mbp_move_sphere(&test_w, s1, &corner), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(check_ended_marked(), 1);
        CHECK_ST(mbp_move_sphere(&test_w, s1, &near), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(slot_of(0u, 1u, false), 0);
    }
#endif
}

#if MBP_PAIR_USER
/* The random scene's bodies, and a copy of what each pair's slot should hold (0: not written,
 * or the pair does not overlap). */
#define SCENE_BODIES 30u
#define SHADOW 64u
static uint32_t shadow[SHADOW][SHADOW];

/* One frame's checks of the random scene, then new values for some pairs. */
static void check_frame(uint32_t *rng, bool users_first)
{
    uint32_t n, nu;
    const mbp_pair *e = mbp_ended(&test_w, &n);
    const uint32_t *eu = mbp_ended_users(&test_w, &nu);
    CHECK_EQ(nu, n);
    for (uint32_t k = 0; k < n; k++) {
        CHECK_EQ(eu[k], shadow[e[k].a][e[k].b]);
        shadow[e[k].a][e[k].b] = 0u;
    }
    uint32_t *u = users_first ? mbp_pair_users(&test_w, &nu) : NULL;
    const mbp_pair *p = mbp_pairs(&test_w, &n);
    if (!users_first) {
        u = mbp_pair_users(&test_w, &nu);
    }
    CHECK_EQ(nu, n);
    for (uint32_t k = 0; k < n; k++) {
        CHECK(p[k].b < SHADOW);
        if (p[k].b >= SHADOW) {
            return;
        }
        CHECK_EQ(u[k], shadow[p[k].a][p[k].b]);
        if (test_below(rng, 2u) == 0u) {
            u[k] = test_rand(rng) | 1u;
            shadow[p[k].a][p[k].b] = u[k];
        }
    }
}
#endif

TEST(user_slots_match_a_copy_kept_by_the_test_through_random_scenes_on_every_backend)
{
#if MBP_PAIR_USER
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        for (uint32_t seed = 1; seed <= 2u; seed++) {
            uint32_t rng = 0x9E3779B9u * seed + bi;
            init(diff_backends[bi]);
            for (uint32_t i = 0; i < SHADOW; i++) {
                for (uint32_t j = 0; j < SHADOW; j++) {
                    shadow[i][j] = 0u;
                }
            }
            mbp_body h[SCENE_BODIES];
            for (uint32_t i = 0; i < SCENE_BODIES; i++) {
                mbp_aabb b = box2(0, 0, 1, 1);
                CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
            }
            for (uint32_t f = 0; f < TEST_FRAMES && !mbp_test_failed(); f++) {
                for (uint32_t i = 0; i < SCENE_BODIES; i++) {
                    uint32_t r = test_below(&rng, 16u);
                    int32_t x = (int32_t)test_below(&rng, 40u), y = (int32_t)test_below(&rng, 40u);
                    int32_t s = 2 + (int32_t)test_below(&rng, 6u);
                    if (r == 0u) { /* removed, and a new body takes its place */
                        mbp_aabb b = box2(x, y, x + s, y + s);
                        CHECK_ST(mbp_remove(&test_w, h[i]), MBP_OK);
                        CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
                    } else if (r < 4u && MBP_WITH_SPHERES) {
                        mbp_sphere sp = sph(x, y, s);
                        CHECK_ST(mbp_move_sphere(&test_w, h[i], &sp), MBP_OK);
                    } else if (r < 10u) {
                        mbp_aabb b = box2(x, y, x + s, y + s);
                        CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
                    } /* else: stays */
                }
                CHECK_ST(mbp_update(&test_w), MBP_OK);
                if (test_below(&rng, 4u) == 0u) {
                    mbp_sort_pairs(&test_w);
                }
                check_frame(&rng, test_below(&rng, 2u) == 0u);
            }
        }
    }
#endif
}
