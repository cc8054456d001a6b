/* SPDX-License-Identifier: MIT */
/* test_bp_tree.c: the dynamic AABB tree as a data structure (mbp_bp.h), without a world: its
 * candidates (pairs of fat boxes) hold every overlapping pair, its queries find every overlapping
 * body, and its full frames (after a lost pair, or when the pair set fills) are exact. */
#include "test_util.h"

#if MBP_WITH_TREE
#include "mbp_tree_nodes.h"

static mbp_tree_state g_tree;
#define BP_ADD(i, box) mbp__tree_add(&g_tree, i, box)
#define BP_MOVE(i, old, box) ((void)(i), (void)(old), (void)(box), MBP_OK)
#define BP_REMOVE(i, last) mbp__tree_remove(&g_tree, i, last)
#define BP_UPDATE(v, out) mbp__tree_update(&g_tree, v, out)
#define BP_QUERY(v, box, fn, c) mbp__tree_query(&g_tree, v, box, fn, c)
#include "bp_harness.h"

static mbp_status tree_init(void)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_TREE;
    return mbp__tree_init(&g_tree, &p);
}

/* The overlapping pairs among the stored ones, and whether every stored pair overlaps. */
static uint32_t overlapping_stored(const bp_h *h, bool *all)
{
    uint32_t n = 0u;
    *all = true;
    for (uint32_t k = 0; k < h->ps.count; k++) {
        bool hit = mbp_aabb_overlap(&h->box[h->ps.pair[k].a], &h->box[h->ps.pair[k].b]);
        n += hit ? 1u : 0u;
        *all = *all && hit;
    }
    return n;
}

TEST(bp_tree_random_scenes_keep_every_overlapping_pair_and_a_valid_tree)
{
    for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
        uint32_t noroom;
        CHECK_ST(tree_init(), MBP_OK);
        CHECK_EQ(bp_random_run(&g_bp, seed, TEST_BODIES / 2u, TEST_FRAMES, 160, 12, false, &noroom), 0);
        CHECK_EQ(noroom, 0);
        CHECK(mbp__tree_valid(&g_tree));
    }
}

TEST(bp_tree_with_no_walk_stack_still_finds_every_pair_and_reports_noroom)
{
    uint32_t noroom;
    CHECK_ST(tree_init(), MBP_OK);
    g_tree.stack_cap = 0u; /* every walk falls back on the parent links */
    CHECK_EQ(bp_random_run(&g_bp, 5u, TEST_BODIES / 2u, TEST_FRAMES / 4u, 80, 12, false, &noroom), 0);
    CHECK(noroom > 0u);
    CHECK(mbp__tree_valid(&g_tree));
}

TEST(bp_tree_candidates_are_pairs_of_fat_boxes_not_only_of_boxes)
{
    bp_reset(&g_bp, 3u);
    CHECK_ST(tree_init(), MBP_OK);
    mbp_aabb a = box2(0, 0, 2, 2);
    mbp_aabb b = box2(0, 0, 2, 2);
    b.min[0] = mbp_add_sat(a.max[0], g_tree.margin); /* apart by one margin: the fat boxes meet */
    b.max[0] = mbp_add_sat(b.min[0], mbp_from_int(2));
    CHECK_ST(bp_add(&g_bp, 0, &a), MBP_OK);
    CHECK_ST(bp_add(&g_bp, 1, &b), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(!mbp_aabb_overlap(&a, &b));
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) >= 0);
}

TEST(bp_tree_after_a_lost_pair_runs_an_exact_full_frame)
{
    bp_reset(&g_bp, 4u);
    CHECK_ST(tree_init(), MBP_OK);
    for (uint16_t i = 0; i < 8u; i++) {
        mbp_aabb b = box2(0, 0, 2, 2); /* neighbours 1/16 apart: their fat boxes meet */
        b.min[0] = mbp_from_ratio(33 * (int32_t)i, 16);
        b.max[0] = mbp_add_sat(b.min[0], mbp_from_int(2));
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    bool all;
    CHECK(g_bp.ps.count > overlapping_stored(&g_bp, &all)); /* fat candidates kept */
    uint32_t rebuilds = g_tree.rebuilds;
    mbp_aabb moved = g_bp.box[0];
    moved.max[0] = g_bp.box[1].min[0]; /* body 0 now touches body 1 */
    CHECK_ST(bp_move(&g_bp, 0, &moved), MBP_OK);
    g_bp.lost_last = 1u; /* as bp_update() records when the set was full */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_tree.rebuilds, rebuilds + 1u);
    CHECK(bp_pairs_ok(&g_bp, true)); /* exactly the overlapping pairs */
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) >= 0);
}

/* The crowd below: n thin bodies added, then four frames of the twos stepping right. */
static void crowd_frames(uint32_t n)
{
    for (uint16_t i = 0; i < n; i++) {
        mbp_aabb b = box2(0, 0, 0, 1);
        b.min[0] = b.max[0] = mbp_from_ratio((int32_t)(i / 2u), 1024);
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    for (uint32_t f = 0; f < 4u; f++) {
        CHECK_ST(bp_update(&g_bp), MBP_OK);
        CHECK(bp_pairs_ok(&g_bp, false));
        CHECK_EQ(g_bp.lost_last, 0);
        for (uint16_t i = 0; i < n; i += 2u) { /* the twos step right together */
            mbp_aabb b = g_bp.box[i];
            b.min[0] = b.max[0] = mbp_add_sat(b.min[0], mbp_from_ratio(1, 256));
            CHECK_ST(bp_move(&g_bp, i, &b), MBP_OK);
            CHECK_ST(bp_move(&g_bp, (uint16_t)(i + 1u), &b), MBP_OK);
        }
    }
    CHECK(g_tree.rebuilds > 0u);
    CHECK(g_tree.level > 0u); /* the fat boxes shrank */
}

TEST(bp_tree_gives_up_fat_candidates_that_would_fill_the_pair_set_and_loses_no_pair)
{
    /* Up to 128 thin bodies within 1/16 in x, in twos at the same x: every fat box (margin 1/16)
     * meets every other, far more fat candidates than the pair set holds, but only the twos
     * overlap. The tree must keep every one of those, never losing a pair to fat candidates:
     * when the crowd comes in one by one (incremental), and in a frame that builds the tree. */
    uint32_t n = TEST_BODIES < 128u ? TEST_BODIES : 128u;
    if (n * (n - 1u) / 2u <= (uint32_t)MBP_MAX_PAIRS) {
        return; /* a configuration whose pair set holds every fat pair: nothing to give up */
    }
    for (uint32_t build = 0; build < 2u; build++) {
        bp_reset(&g_bp, 6u);
        CHECK_ST(tree_init(), MBP_OK);
        if (build == 0u) {
            g_tree.build_min = 0xFFFFu;
        }
        crowd_frames(n);
        CHECK_EQ(g_tree.builds, build);
    }
}

TEST(bp_tree_stays_on_full_frames_when_its_sync_frame_overflows_the_pair_set)
{
    /* An exact frame (after a lost pair) that counts few fat pairs makes the next full frame a
     * sync (every fat candidate reported). A crowd added then (thin bodies, in twos at the same
     * x, all within 1/16: their fat boxes all meet) overflows it: the tree must not trust the
     * set as its fat candidates, and turns to exact frames until no pair is lost. */
    uint32_t n = TEST_BODIES < 128u ? TEST_BODIES : 128u;
    if (n * (n - 1u) / 2u <= (uint32_t)MBP_MAX_PAIRS) {
        return; /* the crowd cannot overflow this configuration's pair set */
    }
    bp_reset(&g_bp, 10u);
    CHECK_ST(tree_init(), MBP_OK);
    g_tree.build_min = 0xFFFFu; /* the crowd comes in one by one, not in a tree built anew */
    mbp_aabb far = box2(-40, -40, -38, -38);
    CHECK_ST(bp_add(&g_bp, 0, &far), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    g_bp.lost_last = 1u;
    far.max[0] = mbp_from_int(-37);
    CHECK_ST(bp_move(&g_bp, 0, &far), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK); /* exact: one fat pair counted at most */
    CHECK(!g_tree.synced);
    for (uint16_t i = 1; i < n; i++) {
        mbp_aabb b = box2(0, 0, 0, 1);
        b.min[0] = b.max[0] = mbp_from_ratio((int32_t)(i / 2u), 1024);
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    uint32_t rebuilds = g_tree.rebuilds;
    CHECK_ST(bp_update(&g_bp), MBP_OK); /* the sync frame */
    CHECK_EQ(g_tree.rebuilds, rebuilds + 1u);
    CHECK(g_bp.lost_last > 0u);
    CHECK(!g_tree.synced);
    /* Exact frames from now on. The first may lose pairs again (the sync frame's candidates
     * fill the set until it is settled); the second has room. */
    for (uint32_t f = 0; f < 2u; f++) {
        mbp_aabb moved = g_bp.box[1];
        CHECK_ST(bp_move(&g_bp, 1, &moved), MBP_OK);
        CHECK_ST(bp_update(&g_bp), MBP_OK);
        CHECK_EQ(g_tree.rebuilds, rebuilds + 2u + f);
    }
    CHECK_EQ(g_bp.lost_last, 0);
    CHECK(bp_pairs_ok(&g_bp, true));
}

TEST(bp_tree_does_nothing_in_an_update_where_nothing_moved)
{
    uint32_t noroom;
    CHECK_ST(tree_init(), MBP_OK);
    CHECK_EQ(bp_random_run(&g_bp, 8u, TEST_BODIES / 4u, 2u, 160, 12, false, &noroom), 0);
    uint32_t count = g_bp.ps.count;
    mbp__bodies v = bp_view(&g_bp);
    mbp__sink out = {&g_bp.ps, bp_volumes(&g_bp), 0u, 0u};
    CHECK_ST(mbp__tree_update(&g_tree, &v, &out), MBP_OK);
    CHECK_EQ(out.tests, 0);
    CHECK_EQ(g_tree.inserts + g_tree.kept, 0);
    CHECK_EQ(g_bp.ps.count, count);
}

/* A new node of g_tree: the leaf of body i, with box b, not linked yet. */
static uint16_t tree_leaf(uint16_t i, mbp_aabb b)
{
    uint16_t n = mbp__tree_alloc_node(&g_tree);
    g_tree.node[n].child1 = MBP_TREE_NULL;
    g_tree.node[n].child2 = i;
    g_tree.node[n].height = 0u;
    g_tree.node[n].box = b;
    g_tree.leaf[i] = n;
    return n;
}

/* A new inner node of g_tree over c1 and c2, with its box and height. */
static uint16_t tree_join(uint16_t c1, uint16_t c2)
{
    uint16_t n = mbp__tree_alloc_node(&g_tree);
    mbp_tree_node *a = &g_tree.node[n];
    a->child1 = c1;
    a->child2 = c2;
    a->parent = MBP_TREE_NULL;
    g_tree.node[c1].parent = n;
    g_tree.node[c2].parent = n;
    mbp_aabb_union(&g_tree.node[c1].box, &g_tree.node[c2].box, &a->box);
    uint8_t h1 = g_tree.node[c1].height, h2 = g_tree.node[c2].height;
    a->height = (uint8_t)(1u + (h1 > h2 ? h1 : h2));
    return n;
}

/* A new leaf inside both children of the root grows neither: the insertion takes the child
 * whose centre is nearer, not the first (which stretched the middle levels of large trees). */
TEST(bp_tree_insertion_breaks_a_tie_of_growth_by_the_nearer_child)
{
    CHECK_ST(tree_init(), MBP_OK);
    uint16_t p1 = tree_join(tree_leaf(0u, box2(0, 0, 1, 1)), tree_leaf(1u, box2(60, 0, 61, 1)));
    uint16_t p2 = tree_join(tree_leaf(2u, box2(40, 0, 41, 1)), tree_leaf(3u, box2(100, 0, 101, 1)));
    g_tree.root = tree_join(p1, p2); /* p1 = [0, 61], centre 30.5; p2 = [40, 101], centre 70.5 */
    CHECK(mbp__tree_valid(&g_tree));
    uint16_t lf = tree_leaf(4u, box2(58, 0, 59, 1)); /* inside both; centre 58.5 */
    mbp__tree_insert_leaf(&g_tree, lf, g_tree.root);
    CHECK(mbp__tree_valid(&g_tree));
    uint16_t top = lf; /* lf's ancestor just below the root */
    while (g_tree.node[top].parent != g_tree.root) {
        top = g_tree.node[top].parent;
    }
    CHECK(top != p1);
    CHECK_EQ(g_tree.node[g_tree.leaf[2]].parent, g_tree.node[lf].parent); /* beside body 2 */
}

/* ceil(log2 n): the height of a tree that halves n leaves at every inner node. */
static uint32_t halving_height(uint32_t n)
{
    uint32_t h = 0u;
    while ((1u << h) < n) {
        h++;
    }
    return h;
}

/* Bodies 0 to n-1 (every step-th) added or moved to random boxes within span quarter units. */
static void scatter(uint32_t n, uint32_t step, int32_t span, bool add)
{
    for (uint16_t i = 0; i < n; i = (uint16_t)(i + step)) {
        mbp_aabb b = bp_box(&g_bp, span, 12);
        CHECK_ST(add ? bp_add(&g_bp, i, &b) : bp_move(&g_bp, i, &b), MBP_OK);
    }
}

/* A frame in which nearly every body jumps (a world filled at once, then every body teleported)
 * builds the tree anew: balanced, as low as a tree of n leaves can be; the frame reports the fat
 * candidates (a sync), or only the overlapping pairs when the last frame built too. A frame in
 * which half the bodies teleport, or every body steps a little, re-inserts one by one. */
TEST(bp_tree_builds_the_tree_anew_when_nearly_every_body_jumps)
{
    uint32_t n = TEST_BODIES;
    bp_reset(&g_bp, 21u);
    CHECK_ST(tree_init(), MBP_OK);
    scatter(n, 1u, 400, true);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_tree.builds, 1);
    CHECK_EQ(g_tree.inserts, n);
    CHECK(mbp__tree_valid(&g_tree));
    CHECK_EQ(mbp__tree_height(&g_tree), halving_height(n));
    CHECK(bp_pairs_ok(&g_bp, false));
    CHECK(g_tree.synced); /* a frame that builds reports the fat candidates when they fit */
    for (uint32_t f = 0; f < 4u; f++) {
        scatter(n, 1u, 400, false);
        CHECK_ST(bp_update(&g_bp), MBP_OK);
        CHECK_EQ(g_tree.builds, 2u + f);
        CHECK(mbp__tree_valid(&g_tree));
        CHECK_EQ(mbp__tree_height(&g_tree), halving_height(n));
        CHECK(bp_pairs_ok(&g_bp, true)); /* a build right after one is exact */
        CHECK(!g_tree.synced);
    }
    /* Half of them teleport: one by one, incremental. */
    scatter(n, 2u, 400, false);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_tree.builds, 5);
    CHECK(g_tree.jumps > 0u);
    CHECK(bp_pairs_ok(&g_bp, false));
    /* Every body steps by 1/8 unit: out of its fat box (a margin of 1/16 on each side) unless
     * its sweep points that way, never apart from it: no jump, no build. */
    for (uint32_t f = 0; f < 2u; f++) {
        for (uint16_t i = 0; i < n; i++) {
            mbp_aabb b = g_bp.box[i];
            b.min[0] += mbp_from_ratio(1, 8);
            b.max[0] += mbp_from_ratio(1, 8);
            CHECK_ST(bp_move(&g_bp, i, &b), MBP_OK);
        }
        CHECK_ST(bp_update(&g_bp), MBP_OK);
        CHECK_EQ(g_tree.builds, 5);
        CHECK_EQ(g_tree.jumps, 0);
        CHECK(f > 0u || g_tree.inserts > 0u);
        CHECK(mbp__tree_valid(&g_tree));
        CHECK(bp_pairs_ok(&g_bp, false));
    }
    /* Every body teleports in an incremental frame: the candidates reported before the build
     * began are dropped, and the full frame reports every pair again. */
    CHECK(g_tree.synced);
    scatter(n, 1u, 400, false);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_tree.builds, 6);
    CHECK(mbp__tree_valid(&g_tree));
    CHECK(bp_pairs_ok(&g_bp, false));
    CHECK(g_tree.synced);
}

/* With no minimum, a world of fewer than 16 bodies builds at its first new body: from an empty
 * tree, every body a leaf not yet in it. */
TEST(bp_tree_builds_from_an_empty_tree)
{
    bp_reset(&g_bp, 22u);
    CHECK_ST(tree_init(), MBP_OK);
    g_tree.build_min = 0u;
    scatter(TEST_BODIES < 12u ? TEST_BODIES : 12u, 1u, 40, true);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_tree.builds, 1);
    CHECK(mbp__tree_valid(&g_tree));
    CHECK(bp_pairs_ok(&g_bp, true));
}

TEST(bp_tree_refuses_parameters_out_of_range)
{
    mbp_params p;
    mbp_params_default(&p);
    p.tree_sweep = 17u;
    CHECK_ST(mbp__tree_init(&g_tree, &p), MBP_E_PARAM);
    mbp_params_default(&p);
    p.tree_margin_frac = 257u;
    CHECK_ST(mbp__tree_init(&g_tree, &p), MBP_E_PARAM);
    mbp_params_default(&p);
    p.tree_margin = -p.tree_margin - 1;
    CHECK_ST(mbp__tree_init(&g_tree, &p), MBP_E_PARAM);
}
#endif
