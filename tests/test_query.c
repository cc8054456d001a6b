/* SPDX-License-Identifier: MIT */
/* test_query.c: box, point and ray queries on every backend, against a scan written here. */
#include "diff.h"
#include "test_util.h"

static void init(mbp_backend b)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = b;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

/* A row of unit boxes at x = 0, 3, 6, ... plus one sphere at x = 40. */
static void row(mbp_body *h, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b = box2((int32_t)(3 * i), 0, (int32_t)(3 * i + 1), 1);
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
    }
}

TEST(box_and_point_queries_find_exactly_the_overlapping_bodies_in_ascending_order)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[8];
        row(h, 8);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint16_t out[8];
        uint32_t n = 99;
        mbp_aabb q = box2(1, 1, 6, 2); /* touches 0 at x=1 and y=1, 1 fully, 2 at x=6 */
        CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, out, 8, &n), MBP_OK);
        CHECK_EQ(n, 3);
        CHECK(n == 3 && out[0] == 0 && out[1] == 1 && out[2] == 2);
        mbp_scalar p[MBP_DIM];
        pt(p, 4, 1);
        CHECK_ST(mbp_query_point(&test_w, p, 0xFFFFu, out, 8, &n), MBP_OK);
        CHECK(n == 1 && out[0] == 1);
        pt(p, 2, 0); /* between boxes */
        CHECK_ST(mbp_query_point(&test_w, p, 0xFFFFu, out, 8, &n), MBP_OK);
        CHECK_EQ(n, 0);
        /* The mask filters by category. */
        CHECK_ST(mbp_set_filter(&test_w, h[1], 0x0004u, 0xFFFFu), MBP_OK);
        CHECK_ST(mbp_query_box(&test_w, &q, 0x0001u, out, 8, &n), MBP_OK);
        CHECK(n == 2 && out[0] == 0 && out[1] == 2);
    }
}

TEST(queries_see_moves_adds_and_removes_made_since_the_last_update)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[8], extra;
        row(h, 8);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        mbp_aabb far = box2(100, 100, 101, 101), q = box2(0, 0, 4, 1);
        CHECK_ST(mbp_move_box(&test_w, h[0], &far), MBP_OK);
        CHECK_ST(mbp_remove(&test_w, h[1]), MBP_OK);
        mbp_aabb b = box2(2, 0, 2, 0);
        CHECK_ST(mbp_add_box(&test_w, &b, 0u, &extra), MBP_OK);
        uint16_t out[8];
        uint32_t n;
        CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, out, 8, &n), MBP_OK);
        CHECK(n == 1 && out[0] == mbp_index(extra));
        CHECK_ST(mbp_query_box(&test_w, &far, 0xFFFFu, out, 8, &n), MBP_OK);
        CHECK(n == 1 && out[0] == 0);
    }
}

TEST(a_query_with_a_small_buffer_counts_all_and_says_truncated)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[8];
        row(h, 8);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint16_t out[2] = {0xAAAAu, 0xAAAAu};
        uint32_t n;
        mbp_aabb all = box2(-1, -1, 30, 2);
        CHECK_ST(mbp_query_box(&test_w, &all, 0xFFFFu, out, 1, &n), MBP_E_TRUNCATED);
        CHECK_EQ(n, 8);
        CHECK(out[0] < 8u);
        CHECK(out[1] == 0xAAAAu); /* nothing past cap */
        CHECK_ST(mbp_query_box(&test_w, &all, 0xFFFFu, NULL, 0, &n), MBP_E_TRUNCATED);
        CHECK_EQ(n, 8);
        mbp_aabb bad = box2(1, 0, 0, 1);
        CHECK_ST(mbp_query_box(&test_w, &bad, 0xFFFFu, out, 2, &n), MBP_E_BADBOX);
    }
}

/* A truncated query keeps the cap smallest results (rays: the cap first hits), whatever order the
 * backend visits bodies in: the same answer from every backend, some bodies moved since the last
 * update. */
TEST(a_truncated_query_keeps_the_smallest_results_on_every_backend)
{
    enum { N = 20 };
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[N];
        uint32_t rng = 99u;
        for (uint32_t i = 0; i < N; i++) {
            int32_t x = (int32_t)test_below(&rng, 40u), y = (int32_t)test_below(&rng, 4u);
            mbp_aabb b = box2(x, y, x + 1 + (int32_t)test_below(&rng, 3u), y + 1);
            CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        for (uint32_t i = 0; i < N; i += 3u) { /* dirty ones come from another list */
            int32_t x = (int32_t)test_below(&rng, 40u);
            mbp_aabb b = box2(x, 1, x + 2, 2);
            CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
        }
        uint16_t all[N], out[N];
        uint32_t n_all, n;
        mbp_aabb q = box2(-1, -1, 50, 8);
        CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, all, N, &n_all), MBP_OK);
        CHECK_EQ(n_all, N);
        mbp_scalar p0[MBP_DIM], p1[MBP_DIM];
        pt(p0, -5, 1);
        pt(p1, 60, 2);
        mbp_hit hall[N], hout[N];
        uint32_t h_all;
        CHECK_ST(mbp_raycast(&test_w, p0, p1, 0xFFFFu, hall, N, &h_all), MBP_OK);
        CHECK(h_all > 8u);
        for (uint32_t cap = 1; cap < 8u; cap += 2u) {
            CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, out, cap, &n), MBP_E_TRUNCATED);
            CHECK_EQ(n, n_all);
            for (uint32_t k = 0; k < cap; k++) {
                CHECK_EQ(out[k], all[k]);
            }
            CHECK_ST(mbp_raycast(&test_w, p0, p1, 0xFFFFu, hout, cap, &n), MBP_E_TRUNCATED);
            CHECK_EQ(n, h_all);
            for (uint32_t k = 0; k < cap; k++) {
                CHECK(hout[k].index == hall[k].index && hout[k].t == hall[k].t);
            }
        }
    }
}

TEST(ray_casts_return_hits_in_order_of_distance_and_the_first_hit)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body h[8];
        row(h, 8);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        mbp_scalar p0[MBP_DIM], p1[MBP_DIM];
        /* From x = 20 backwards to x = 2: hits 6 (x 18..19), 5, 4, 3, 2, 1 (x 3..4), in that order. */
        pt(p0, 20, 0);
        pt(p1, 2, 0);
        mbp_hit hits[8];
        uint32_t n;
        CHECK_ST(mbp_raycast(&test_w, p0, p1, 0xFFFFu, hits, 8, &n), MBP_OK);
        CHECK_EQ(n, 6);
        for (uint32_t i = 0; i < n && i < 6u; i++) {
            CHECK_EQ(hits[i].index, 6 - i);
        }
        CHECK(n >= 2 && hits[0].t < hits[1].t);
        mbp_hit first;
        bool found = false;
        CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &first, &found), MBP_OK);
        CHECK(found && first.index == 6);
        CHECK(first.t == mbp_from_ratio(1, 18)); /* enters box 6 at x = 19 */
        /* Two bodies at the same distance: the lower index comes first. */
        mbp_body twin;
        mbp_aabb b6 = box2(18, 0, 19, 1);
        CHECK_ST(mbp_add_box(&test_w, &b6, 0u, &twin), MBP_OK);
        CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &first, &found), MBP_OK);
        CHECK(found && first.index == 6);
        pt(p0, 0, 5); /* above the row: no hit */
        pt(p1, 30, 5);
        CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &first, &found), MBP_OK);
        CHECK(!found);
        CHECK_ST(mbp_raycast(&test_w, p0, p1, 0xFFFFu, hits, 8, &n), MBP_OK);
        CHECK_EQ(n, 0);
    }
}

TEST(sphere_bodies_answer_box_and_point_queries_by_the_sphere_itself)
{
#if MBP_WITH_SPHERES
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        mbp_body s;
        mbp_sphere sp = sph(0, 0, 5);
        for (int k = 2; k < MBP_DIM; k++) {
            sp.c[k] = 0;
        }
        CHECK_ST(mbp_add_sphere(&test_w, &sp, 0u, &s), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint16_t out[2];
        uint32_t n;
        mbp_scalar p[MBP_DIM];
        pt(p, 4, 4); /* inside the sphere's box, outside the sphere */
        for (int k = 2; k < MBP_DIM; k++) {
            p[k] = 0;
        }
        CHECK_ST(mbp_query_point(&test_w, p, 0xFFFFu, out, 2, &n), MBP_OK);
        CHECK_EQ(n, 0);
        pt(p, 3, 4);
        for (int k = 2; k < MBP_DIM; k++) {
            p[k] = 0;
        }
        CHECK_ST(mbp_query_point(&test_w, p, 0xFFFFu, out, 2, &n), MBP_OK);
        CHECK_EQ(n, 1);
        mbp_aabb corner = box2(4, 4, 6, 6);
        CHECK_ST(mbp_query_box(&test_w, &corner, 0xFFFFu, out, 2, &n), MBP_OK);
        CHECK_EQ(n, 0);
    }
#endif
}

/* Random queries against a scan over the test's own copy of the boxes. */
TEST(random_box_queries_match_a_scan_on_every_backend)
{
    static mbp_aabb boxes[MBP_MAX_BODIES];
    static uint16_t out[MBP_MAX_BODIES];
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi]);
        uint32_t rng = 77u + bi, n = TEST_BODIES;
        mbp_body h;
        for (uint32_t i = 0; i < n; i++) {
            int32_t x = (int32_t)test_below(&rng, 60u), y = (int32_t)test_below(&rng, 60u);
            boxes[i] = box2(x, y, x + (int32_t)test_below(&rng, 5u), y + 2);
            CHECK_ST(mbp_add_box(&test_w, &boxes[i], i, &h), MBP_OK);
            CHECK_EQ(mbp_index(h), i);
        }
        for (uint32_t f = 0; f < 3u; f++) {
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            for (uint32_t qn = 0; qn < 20u; qn++) {
                int32_t x = (int32_t)test_below(&rng, 60u), y = (int32_t)test_below(&rng, 60u);
                mbp_aabb q = box2(x, y, x + (int32_t)test_below(&rng, 10u), y + (int32_t)test_below(&rng, 10u));
                uint32_t got, want = 0, k = 0;
                CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, out, MBP_MAX_BODIES, &got), MBP_OK);
                bool same = true;
                for (uint32_t i = 0; i < n; i++) {
                    if (mbp_aabb_overlap(&boxes[i], &q)) {
                        same = same && k < got && out[k] == i;
                        k++;
                        want++;
                    }
                }
                CHECK(same);
                CHECK_EQ(got, want);
            }
            /* Move a third of them for the next round. */
            for (uint32_t i = 0; i < n; i += 3u) {
                int32_t x = (int32_t)test_below(&rng, 60u);
                boxes[i] = box2(x, x / 2, x + 1, x / 2 + 1);
                CHECK_ST(mbp_move_box(&test_w, mbp_handle(&test_w, (uint16_t)i), &boxes[i]), MBP_OK);
            }
        }
    }
}
