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

/* test_w on the quadtree of qt_world_params(), empty. */
static void qt_world(void)
{
    mbp_params p;
    qt_world_params(&p);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

/* The same with a pool of 5 nodes: the root and one path of 4. */
static void qt_short_pool_world(void)
{
    qt_world();
    test_w.be.quadtree.cap = 5u;
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
    qt_short_pool_world();
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

/* box2(x0, y0, x1, y1), its first axis mirrored when side < 0. */
static mbp_aabb side_box(int32_t side, int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    return side > 0 ? box2(x0, y0, x1, y1) : box2(-x1, y0, -x0, y1);
}

/* The world is 16 units wide from -8. Node N, at depth 1, has the cell -8..0 on the first axis
 * (mirrored: 0..8) and -8..0 on the others: its loose box reaches 4 past its cell (to 4), its
 * children's loose boxes only 2 (to 2). A body added at 3..4, beside N's cell, meets N's loose
 * box but neither child's: its walk looks at N's body and not at the body in N's child. */
TEST(quadtree_walk_skips_both_children_of_a_node_when_its_box_lies_past_them_on_an_axis)
{
    for (int32_t side = -1; side <= 1; side += 2) {
        qt_world();
        mbp_body s, c, m;
        mbp_aabb sb = side_box(side, -4, -5, 3, -3);  /* edge 7, centre in N's cell: in N */
        mbp_aabb cb = side_box(side, -8, -8, -5, -5); /* edge 3: in N's child of cell -8..-4 */
        mbp_aabb mb = side_box(side, 3, -4, 4, -3);
        CHECK_ST(mbp_add_box(&test_w, &sb, 0u, &s), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &cb, 1u, &c), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 0);
        CHECK_ST(mbp_add_box(&test_w, &mb, 2u, &m), MBP_OK); /* one of three moved: incremental */
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_get_stats(&test_w)->tests, 1); /* N's body only */
        uint32_t n = 0u;
        const mbp_pair *e = test_begun(&test_w, &n);
        CHECK_EQ(n, 1);
        CHECK(n == 1u && (e == NULL || (e[0].a == mbp_index(s) && e[0].b == mbp_index(m)))); /* touch at 3 */
        CHECK_EQ(mbp_pair_count(&test_w), 1);
    }
}

/* A body whose place changes while the pool is short, so that its new place falls back on the
 * node it is in already (the root here): it stays there, no node is taken or given back, and its
 * pairs stay exact. */
TEST(quadtree_world_with_a_short_pool_keeps_a_body_in_the_node_its_new_place_falls_back_on)
{
    qt_short_pool_world();
    mbp_body a, b, c;
    mbp_aabb x = box2(1, 1, 2, 2), far = box2(-7, -7, -6, -6), near = box2(-6, -6, -5, -5);
    mbp_aabb other = box2(-5, -5, -4, -4);
    CHECK_ST(mbp_add_box(&test_w, &x, 1u, &a), MBP_OK); /* takes the path of 4 */
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &far, 2u, &b), MBP_OK); /* no path left: in the root */
    CHECK_ST(mbp_add_box(&test_w, &other, 3u, &c), MBP_OK); /* in the root too */
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(test_w.be.quadtree.of[mbp_index(b)], 0);
    CHECK_EQ(test_w.be.quadtree.used, 5);
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    CHECK_ST(mbp_move_box(&test_w, b, &near), MBP_OK); /* another fine cell, still no path */
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(test_w.be.quadtree.of[mbp_index(b)], 0);
    CHECK_EQ(test_w.be.quadtree.used, 5);
    CHECK_EQ(mbp_pair_count(&test_w), 1); /* (b, c): they touch at -5 */
    CHECK_EQ(test_w.stats.begun, 1);
    mbp_aabb q = box2(-6, -6, -6, -6);
    uint16_t out[4];
    uint32_t n = 0u;
    CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, out, 4u, &n), MBP_OK);
    CHECK(n == 1u && out[0] == mbp_index(b));
}
#endif
