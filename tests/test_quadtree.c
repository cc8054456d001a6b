/* SPDX-License-Identifier: MIT */
/* test_quadtree.c: the loose quadtree (octree) behind the world (MBP_QUADTREE): its parameters,
 * a full node pool seen through the world's API, bodies of mixed sizes and queries. The
 * differential suite (test_differential.c) checks its pairs against the oracle on every scene. */
#include "test_util.h"

#if MBP_WITH_QUADTREE
static void qt_world_params(mbp_params *p)
{
    mbp_params_default(p);
    p->backend = MBP_QUADTREE;
    for (int k = 0; k < MBP_DIM; k++) {
        p->quadtree_origin[k] = mbp_from_int(-8);
    }
    p->quadtree_cell = mbp_from_int(1);
    p->quadtree_depth = 4u; /* 16 units wide */
}

TEST(quadtree_world_refuses_a_depth_beyond_15_and_a_cell_of_zero)
{
    mbp_params p;
    qt_world_params(&p);
    p.quadtree_depth = 16u;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    qt_world_params(&p);
    p.quadtree_cell = 0;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
}

TEST(quadtree_world_accepts_its_default_parameters)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_QUADTREE;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    mbp_body a, b;
    mbp_aabb x = box2(0, 0, 2, 2), y = box2(1, 1, 3, 3);
    CHECK_ST(mbp_add_box(&test_w, &x, 0u, &a), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &y, 0u, &b), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 1);
}

TEST(quadtree_world_with_a_short_pool_still_takes_every_body_and_pairs_exactly)
{
    mbp_params p;
    qt_world_params(&p);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    test_w.be.quadtree.cap = 5u; /* the root and one path of 4 */
    mbp_body a, b, c;
    mbp_aabb x = box2(1, 1, 2, 2), far = box2(-7, -7, -6, -6), wide = box2(-20, -20, 20, 20);
    CHECK_ST(mbp_add_box(&test_w, &x, 1u, &a), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &far, 2u, &b), MBP_OK); /* no path left: it lives higher up */
    CHECK_ST(mbp_add_box(&test_w, &wide, 3u, &c), MBP_OK); /* larger than the world: the root */
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 2); /* (a, c), (b, c) */
    CHECK_ST(mbp_move_box(&test_w, a, &far), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 3); /* and (a, b) */
}

TEST(quadtree_world_pairs_a_large_slow_body_with_the_small_ones_it_covers)
{
    mbp_params p;
    qt_world_params(&p);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    mbp_body big, small[6];
    mbp_aabb b = box2(-6, -6, 0, 0);
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &big), MBP_OK);
    for (int32_t i = 0; i < 6; i++) { /* 1-unit boxes on the diagonal from -7 to 3 */
        mbp_aabb s = box2(2 * i - 7, 2 * i - 7, 2 * i - 6, 2 * i - 6);
        CHECK_ST(mbp_add_box(&test_w, &s, (uint32_t)i, &small[i]), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 4); /* those from -7 to -1: -7..-6 touches -6 */
    uint16_t out[8];
    uint32_t n = 0u;
    mbp_aabb q = box2(3, 3, 5, 5);
    CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, out, 8u, &n), MBP_OK);
    CHECK_EQ(n, 1); /* the box from 3 to 4 */
}
#endif
