/* SPDX-License-Identifier: MIT */
/* test_cover_tree.c: tree paths that the other test files do not take, found with
 * `make coverage` (docs/coverage.md lists what stays unreached and why).
 *
 * mbp__tree_valid(), the tree's own invariant check that the tree tests rely on (lib/mbp_tree.h),
 * must catch every kind of damage, or those tests would pass on a broken tree: a valid tree of
 * five leaves is built in test_w, copied into test_w2, damaged there in one way, and the check
 * must say so; test_w stays valid throughout.
 *
 * Bodies stepping in and out of their fat boxes and jumping, against brute force every frame
 * (leaves kept in place under a low ancestor, and re-inserted). */
#include "diff.h"
#include "test_util.h"
#include "twin.h"

#if MBP_WITH_TREE

#define NUL MBP_TREE_NULL
#define FREE 0xFFu

static mbp_tree_state *ct(mbp_world *w)
{
    return &w->be.tree;
}

/* test_w2 = test_w, to be damaged. */
static mbp_tree_state *ct_copy(void)
{
    test_w2 = test_w;
    return ct(&test_w2);
}

static void ct_damaged(const char *what)
{
    if (mbp__tree_valid(&test_w2.be.tree)) {
        test_puts("not caught: ");
        test_puts(what);
        test_puts("\n");
        CHECK(!mbp__tree_valid(&test_w2.be.tree));
    }
}

/* Five bodies apart from each other: a tree of height 3 whose root's children have heights 2
 * and 1 (AVL: 5 leaves need height 3, and a height-2 subtree holds 3 or 4 of them). */
static bool ct_build(uint32_t bodies)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_TREE;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    for (uint32_t i = 0; i < bodies; i++) {
        mbp_aabb b = box2(4 * (int32_t)i, 0, 4 * (int32_t)i + 1, 1);
        mbp_body h;
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK(mbp__tree_valid(&test_w.be.tree));
    return !mbp_test_failed();
}

/* A leaf below node n (following child1). */
static uint16_t ct_leaf_below(const mbp_tree_state *t, uint16_t n)
{
    while (t->node[n].child1 != NUL) {
        n = t->node[n].child1;
    }
    return n;
}

/* The last node of the free list. */
static uint16_t ct_last_free(const mbp_tree_state *t)
{
    uint16_t n = t->free_head;
    while (n != NUL && t->node[n].parent != NUL) {
        n = t->node[n].parent;
    }
    return n;
}

#endif

TEST(the_tree_check_catches_damage_to_the_root_links_and_leaves)
{
#if MBP_WITH_TREE
    if (MBP_MAX_BODIES < 6 || !ct_build(5u)) {
        return;
    }
    const mbp_tree_state *t0 = ct(&test_w);
    CHECK_EQ(mbp__tree_height(&test_w.be.tree), 3);
    const uint16_t r = t0->root;
    const uint16_t leaf = ct_leaf_below(t0, r);
    const uint16_t p = t0->node[leaf].parent;
    mbp_tree_state *t;

    t = ct_copy();
    t->root = MBP_TREE_NODES;
    ct_damaged("root index past the nodes");
    t = ct_copy();
    t->node[r].parent = leaf;
    ct_damaged("root with a parent");
    t = ct_copy();
    t->node[leaf].parent = MBP_TREE_NODES;
    ct_damaged("parent index past the nodes");
    t = ct_copy();
    t->node[p].height = FREE;
    ct_damaged("parent marked free");
    t = ct_copy();
    t->node[leaf].height = t->node[p].height;
    ct_damaged("child as high as its parent");
    t = ct_copy();
    /* A parent that is not the leaf's: the root, or (when the root is its parent) the root's
     * other child, which is inner (heights 2 and 1). */
    if (p != r) {
        t->node[leaf].parent = r;
    } else {
        t->node[leaf].parent = t->node[r].child1 == leaf ? t->node[r].child2 : t->node[r].child1;
    }
    ct_damaged("parent that does not list the child");
    t = ct_copy();
    t->node[leaf].child2 = MBP_MAX_BODIES;
    ct_damaged("leaf body index past the bodies");
    t = ct_copy();
    t->leaf[t->node[leaf].child2] = p;
    ct_damaged("body pointing at another node");
    t = ct_copy();
    t->leaf[MBP_MAX_BODIES - 1u] = leaf; /* a body that has no leaf gets one */
    ct_damaged("more bodies with a leaf than leaves");
    CHECK(mbp__tree_valid(&test_w.be.tree));

    /* A lone leaf as root that claims a height. */
    if (!ct_build(1u)) {
        return;
    }
    t = ct_copy();
    CHECK(t->node[t->root].child1 == NUL);
    t->node[t->root].height = 1u;
    ct_damaged("leaf with a height");
#endif
}

TEST(the_tree_check_catches_damage_to_inner_nodes_boxes_and_balance)
{
#if MBP_WITH_TREE
    if (MBP_MAX_BODIES < 6 || !ct_build(5u)) {
        return;
    }
    const mbp_tree_state *t0 = ct(&test_w);
    const uint16_t r = t0->root;
    const uint16_t c1 = t0->node[r].child1, c2 = t0->node[r].child2;
    mbp_tree_state *t;

    t = ct_copy();
    t->node[r].child1 = MBP_TREE_NODES;
    ct_damaged("child1 index past the nodes");
    t = ct_copy();
    t->node[r].child2 = MBP_TREE_NODES;
    ct_damaged("child2 index past the nodes");
    t = ct_copy();
    t->node[c1].height = FREE;
    ct_damaged("child1 marked free");
    t = ct_copy();
    t->node[c2].height = FREE;
    ct_damaged("child2 marked free");
    t = ct_copy();
    t->node[c1].parent = c2;
    ct_damaged("child1 pointing at another parent");
    t = ct_copy();
    t->node[c2].parent = c1;
    ct_damaged("child2 pointing at another parent");
    t = ct_copy();
    t->node[r].height++;
    ct_damaged("inner node with the wrong height");
    t = ct_copy();
    t->node[c1].box.max[0] = t->node[r].box.max[0] + MBP_ONE;
    ct_damaged("child1 box outside its parent's");
    t = ct_copy();
    t->node[c2].box.min[MBP_DIM - 1] = t->node[r].box.min[MBP_DIM - 1] - MBP_ONE;
    ct_damaged("child2 box outside its parent's");
    t = ct_copy();
    t->node[c1].box.min[MBP_DIM - 1] = t->node[r].box.min[MBP_DIM - 1] - MBP_ONE;
    ct_damaged("child1 box below its parent's");
    t = ct_copy();
    t->node[c2].box.max[0] = t->node[r].box.max[0] + MBP_ONE;
    ct_damaged("child2 box above its parent's");

    /* Damage at a height-1 node I whose children are leaves, so that no other node's check
     * sees it first: a child index past the nodes or a child freed (the leaf left out of the
     * tree), or a child whose parent link names the other height-1 node X, which took it in
     * place of one of its own leaves (freed, its box given to the child). */
    uint16_t h1[2] = {NUL, NUL};
    for (uint16_t n = 0; n < MBP_TREE_NODES; n++) {
        if (t0->node[n].height == 1u) {
            h1[h1[0] == NUL ? 0 : 1] = n;
        }
    }
    CHECK(h1[0] != NUL && h1[1] != NUL); /* 5 leaves: 2 + 3, the 3 as 2 + 1 */
    if (h1[1] == NUL) {
        return;
    }
    const uint16_t in = h1[0], x = h1[1];
    for (int which = 0; which < 2; which++) {
        uint16_t lf = which == 0 ? t0->node[in].child1 : t0->node[in].child2;
        t = ct_copy();
        t->node[lf].height = FREE;
        if (which == 0) {
            t->node[in].child1 = MBP_TREE_NODES;
        } else {
            t->node[in].child2 = MBP_TREE_NODES;
        }
        ct_damaged(which == 0 ? "child1 index past the nodes, leaf dropped"
                              : "child2 index past the nodes, leaf dropped");
        t = ct_copy();
        t->node[lf].height = FREE;
        ct_damaged(which == 0 ? "child1 freed" : "child2 freed");
        t = ct_copy();
        uint16_t y = which == 0 ? t->node[x].child1 : t->node[x].child2;
        if (which == 0) {
            t->node[x].child1 = lf;
        } else {
            t->node[x].child2 = lf;
        }
        t->node[lf].parent = x;
        t->node[lf].box = t->node[y].box;
        t->node[y].height = FREE;
        ct_damaged(which == 0 ? "child1 taken by another node" : "child2 taken by another node");
    }

    /* Unbalanced: the root's height-1 child replaced by one of its leaves (the child and its
     * other leaf freed), on either side. */
    for (int side = 0; side < 2; side++) {
        t = ct_copy();
        uint16_t lo = t->node[c1].height == 1u ? c1 : c2;
        uint16_t hi = lo == c1 ? c2 : c1;
        CHECK_EQ(t->node[lo].height, 1);
        CHECK_EQ(t->node[hi].height, 2);
        uint16_t keep = t->node[lo].child1, drop = t->node[lo].child2;
        t->node[lo].height = FREE;
        t->node[drop].height = FREE;
        t->node[keep].parent = r;
        t->node[r].child1 = side == 0 ? hi : keep;
        t->node[r].child2 = side == 0 ? keep : hi;
        ct_damaged(side == 0 ? "right side two lower" : "left side two lower");
    }
    CHECK(mbp__tree_valid(&test_w.be.tree));
#endif
}

TEST(the_tree_check_catches_damage_to_the_free_list)
{
#if MBP_WITH_TREE
    if (MBP_MAX_BODIES < 6 || !ct_build(5u)) {
        return;
    }
    const mbp_tree_state *t0 = ct(&test_w);
    mbp_tree_state *t;
    CHECK(t0->free_head != NUL); /* 2 * bodies - 1 nodes, 9 used */

    t = ct_copy();
    t->free_head = MBP_TREE_NODES;
    ct_damaged("free list index past the nodes");
    t = ct_copy();
    t->free_head = t->root;
    ct_damaged("used node in the free list");
    t = ct_copy();
    t->node[t->free_head].parent = t->free_head;
    ct_damaged("free list looping");
    t = ct_copy();
    t->free_head = t->node[t->free_head].parent;
    ct_damaged("free node lost from the list");

    /* An empty tree whose root names a free node. */
    if (!ct_build(0u)) {
        return;
    }
    t = ct_copy();
    CHECK(t->root == NUL);
    t->root = ct_last_free(t);
    ct_damaged("empty tree with a root");
    CHECK(mbp__tree_valid(&test_w.be.tree));
#endif
}

TEST(tree_bodies_stepping_in_and_out_of_their_fat_boxes_pair_exactly)
{
#if MBP_WITH_TREE
    /* 12 bodies, fewer where the pair set is small: the tree keeps its fat candidates in the
     * pair set too (README: give it more room), and they must fit for the pairs to be exact. */
    uint32_t n = MBP_MAX_BODIES < 12u ? MBP_MAX_BODIES : 12u;
    while (n > 2u && n * (n - 1u) / 2u > MBP_MAX_PAIRS / 2u) {
        n--;
    }
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_TREE;
    p.tree_margin = MBP_ONE / 4;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    p.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w2, &p), MBP_OK);
    int32_t x[12], y[12]; /* quarter units */
    for (uint32_t i = 0; i < n; i++) {
        x[i] = 12 * (int32_t)(i % 4u);
        y[i] = 12 * (int32_t)(i / 4u);
        mbp_aabb b = box2(0, 0, 1, 1);
        mbp_body h;
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w2, &b, i, &h), MBP_OK);
    }
    uint32_t rng = 99u;
    for (uint32_t frame = 0; frame < 40u; frame++) {
        for (uint16_t i = 0; i < n; i++) {
            /* Steps of -3..3 quarter units, a jump now and then, within 0..48. */
            int32_t dx = (int32_t)test_below(&rng, 7u) - 3, dy = (int32_t)test_below(&rng, 7u) - 3;
            if (test_below(&rng, 16u) == 0u) {
                dx = (int32_t)test_below(&rng, 49u) - x[i];
            }
            x[i] = x[i] + dx < 0 ? 0 : (x[i] + dx > 48 ? 48 : x[i] + dx);
            y[i] = y[i] + dy < 0 ? 0 : (y[i] + dy > 48 ? 48 : y[i] + dy);
            mbp_aabb b = box2(0, 0, 0, 0);
            for (int k = 0; k < MBP_DIM; k++) {
                int32_t q = k == 0 ? x[i] : y[i];
                b.min[k] = mbp_from_ratio(q, 4);
                b.max[k] = mbp_from_ratio(q + 10, 4);
            }
            CHECK_ST(mbp_move_box(&test_w, mbp_handle(&test_w, i), &b), MBP_OK);
            CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, i), &b), MBP_OK);
        }
        mbp_status s1 = mbp_update(&test_w), s2 = mbp_update(&test_w2);
        CHECK_ST(s1, s2);
        CHECK(mbp__tree_valid(&test_w.be.tree));
        CHECK(twin_same(s1 == MBP_OK && s2 == MBP_OK));
        if (mbp_test_failed()) {
            return;
        }
    }
#endif
}
