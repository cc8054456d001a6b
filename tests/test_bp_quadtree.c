/* SPDX-License-Identifier: MIT */
/* test_bp_quadtree.c: the loose quadtree (octree) as a data structure (mbp_bp.h), without a
 * world: its pairs are exactly the overlapping ones in worlds that hold the bodies, that miss
 * them, or that are much finer than them, in incremental frames (few movers, teleports, removes)
 * and after an overflow; its nodes are taken and given back; a short pool keeps bodies higher up
 * and pairs exact. */
#include "test_util.h"

#if MBP_WITH_QUADTREE
static mbp_quadtree_state g_qt;
#define BP_ADD(i, box) mbp__quadtree_add(&g_qt, i, box)
#define BP_MOVE(i, old, box) MBP_OK /* no move hook: bodies are placed at the update */
#define BP_REMOVE(i, last) mbp__quadtree_remove(&g_qt, i, last)
#define BP_UPDATE(v, out) mbp__quadtree_update(&g_qt, v, out)
#define BP_QUERY(v, box, fn, c) mbp__quadtree_query(&g_qt, v, box, fn, c)
#include "bp_harness.h"
#include "mbp_quadtree_walk.h" /* unit_of(), tested on its own below */

/* The world box from -half to +half units on every axis, finest cells of 1/2^shift units. */
static mbp_params qt_params(int32_t half, uint32_t shift, uint8_t depth)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_QUADTREE;
    for (int k = 0; k < MBP_DIM; k++) {
        p.quadtree_origin[k] = mbp_from_int(-half);
    }
    p.quadtree_cell = mbp_from_ratio(1, (int32_t)1 << shift);
    p.quadtree_depth = depth;
    return p;
}

static void qt_init(int32_t half, uint32_t shift, uint8_t depth)
{
    mbp_params p = qt_params(half, shift, depth);
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_OK);
}

/* The structure's invariants: every body of a list names its node and is live; every node in use
 * other than the root holds a body or a child; a node's mask of children in use names its
 * children; the nodes reached from the root are the nodes counted in use; each child's cell is
 * one of its parent's halves. */
static bool qt_valid(const bp_h *h)
{
    uint32_t reached = 0u, bodies = 0u;
    uint16_t todo[MBP_QUADTREE_NODES];
    uint32_t top = 0u;
    todo[top++] = 0u;
    while (top > 0u) {
        uint16_t n = todo[--top];
        const mbp_qt_node *nd = &g_qt.node[n];
        bool any = nd->head != MBP__QT_NULL;
        reached++;
        for (uint16_t c = nd->head, last = MBP__QT_NULL; c != MBP__QT_NULL; c = g_qt.next[c]) {
            if (g_qt.of[c] != n || g_qt.prev[c] != last || (h->flags[c] & MBP__LIVE) == 0u) {
                return false;
            }
            last = c;
            bodies++;
        }
        for (uint32_t j = 0; j < (uint32_t)MBP__QT_KIDS; j++) {
            uint16_t k = nd->kid[j];
            if ((k != MBP__QT_NULL) != (((nd->kids >> j) & 1u) != 0u)) {
                return false; /* the mask of children in use disagrees with kid[] */
            }
            if (k == MBP__QT_NULL) {
                continue;
            }
            any = true;
            const mbp_qt_node *kd = &g_qt.node[k];
            for (int a = 0; a < MBP_DIM; a++) {
                if (kd->cell[a] >> 1 != nd->cell[a] || ((kd->cell[a] & 1u) << a) != (j & (1u << a))) {
                    return false;
                }
            }
            if (kd->parent != n || kd->depth != nd->depth + 1u || top >= MBP_QUADTREE_NODES) {
                return false;
            }
            todo[top++] = k;
        }
        if (!any && n != 0u) {
            return false;
        }
    }
    return reached == g_qt.used && bodies == h->live;
}

/* Random scenes of n bodies (bp_random_run()) in the world box of p: the updates whose pairs
 * were wrong, plus one if a hook refused or the structure is broken. */
static uint32_t qt_random_in(const mbp_params *p, uint32_t n, int32_t span, int32_t size)
{
    uint32_t wrong = 0u;
    for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
        uint32_t noroom;
        CHECK_ST(mbp__quadtree_init(&g_qt, p), MBP_OK);
        wrong += bp_random_run(&g_bp, seed, n, TEST_FRAMES, span, size, true, &noroom);
        wrong += noroom != 0u || !qt_valid(&g_bp) ? 1u : 0u;
    }
    return wrong;
}

/* The same in the world box qt_init(half, shift, depth). */
static uint32_t qt_random(int32_t half, uint32_t shift, uint8_t depth, uint32_t n, int32_t span,
                          int32_t size)
{
    mbp_params p = qt_params(half, shift, depth);
    return qt_random_in(&p, n, span, size);
}

TEST(bp_quadtree_random_scenes_give_exactly_the_overlapping_pairs)
{
    /* The scene's +-20 units inside a world 64 wide, cells of 1/4 to 64 units. */
    CHECK_EQ(qt_random(32, 2u, 8u, TEST_BODIES / 2u, 160, 12), 0);
}

TEST(bp_quadtree_is_exact_when_most_bodies_are_outside_its_world_box)
{
    CHECK_EQ(qt_random(4, 2u, 5u, TEST_BODIES / 2u, 160, 12), 0); /* 8 units wide of 40 */
}

TEST(bp_quadtree_is_exact_with_sizes_spread_over_two_orders_of_magnitude)
{
    /* Cells of 1/16 to 128 units; bodies of 0 to 50 units. */
    CHECK_EQ(qt_random(64, 4u, 11u, TEST_BODIES / 4u, 200, 200), 0);
}

#if MBP_SCALAR == MBP_FIXED
TEST(bp_quadtree_is_exact_in_fixed_point_worlds_measured_by_long_division_and_by_small_shifts)
{
    /* Cells of 3/4 unit (not a power of two: unit_of() divides), 2^13 of them: 6144 units wide
     * from -4100, so the scene around 0 lies across offset 4096 units (2^28 raw), where
     * unit_of() turns from one division to the long one. */
    mbp_params p = qt_params(4100, 0u, 13u);
    p.quadtree_cell = mbp_from_ratio(3, 4);
    CHECK_EQ(qt_random_in(&p, TEST_BODIES / 4u, 160, 12), 0);
    /* Cells of 4 raw units (a power of two below 2^QT_FRAC: unit_of() shifts left), 2^15 of
     * them: a world box of 2^17 raw units in the middle of the scene, which lies mostly outside. */
    p = qt_params(0, 0u, 15u);
    p.quadtree_cell = 4;
    for (int k = 0; k < MBP_DIM; k++) {
        p.quadtree_origin[k] = -((int32_t)1 << 16);
    }
    CHECK_EQ(qt_random_in(&p, TEST_BODIES / 4u, 160, 12), 0);
}

/* unit_of()'s reference: floor(x * 2^QT_FRAC / cell) by a 64-bit division, clamped to the
 * world box as unit_of() clamps. */
static uint32_t unit_ref(const mbp_quadtree_state *s, int64_t x)
{
    uint32_t top = 1u << (QT_FRAC + s->depth);
    if (x <= 0) {
        return 0u;
    }
    if (x >= ((int64_t)s->cell.edge << s->depth)) {
        return top;
    }
    int64_t u = x * ((int64_t)1 << QT_FRAC) / s->cell.edge;
    return u < (int64_t)top ? (uint32_t)u : top;
}

TEST(bp_quadtree_measures_offsets_in_32_bits_as_a_64_bit_division_would)
{
    /* Finest cells (raw units) and depths up to a world edge of nearly 2^32 raw units. */
    static const int32_t cells[] = {1, 2, 8, 3, 65536, 131071, 0x10001, 12345, 0x7FFFFFFF, 1 << 30};
    static const uint8_t depths[] = {0u, 15u, 12u, 5u, 13u, 15u, 15u, 15u, 1u, 1u};
    uint32_t seed = 7u, wrong = 0u, checked = 0u;
    for (uint32_t w = 0; w < sizeof cells / sizeof cells[0]; w++) {
        mbp_params p = qt_params(0, 0u, depths[w]);
        p.quadtree_cell = cells[w];
        CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_OK);
        int64_t c = cells[w], root = c << depths[w];
        const int64_t edges[] = {-1, 0, 1, 2, c - 1, c, c + 1, (1 << 28) - 1, 1 << 28,
                                 (1 << 28) + 1, root / 2, root - c, root - 2, root - 1, root,
                                 root + 1};
        for (uint32_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
            wrong += unit_of(&g_qt, edges[e]) != unit_ref(&g_qt, edges[e]) ? 1u : 0u;
            checked++;
        }
        for (uint32_t r = 0; r < 500u; r++) {
            /* anywhere in the world, and one raw unit either side of a multiple of the cell */
            int64_t x = (int64_t)(((uint64_t)test_rand(&seed) * (uint64_t)root) >> 32);
            int64_t m = x - x % c + (int64_t)test_below(&seed, 3u) - 1;
            wrong += unit_of(&g_qt, x) != unit_ref(&g_qt, x) ? 1u : 0u;
            wrong += unit_of(&g_qt, m) != unit_ref(&g_qt, m) ? 1u : 0u;
            checked += 2u;
        }
    }
    CHECK_EQ(wrong, 0);
    CHECK_EQ(checked, 10u * (16u + 1000u));
}

/* The quadtree keeps mbp__cellmap_of()'s map (tested in test_bp_shared.c): a shift for a cell
 * of 8 raw units, a division for 12. */
TEST(bp_quadtree_keeps_a_shift_only_for_a_power_of_two_cell)
{
    mbp_params p = qt_params(0, 0u, 4u);
    p.quadtree_cell = 8;
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_OK);
    CHECK_EQ(g_qt.cell.edge, 8u);
    CHECK_EQ(g_qt.cell.shift, 3);
    p.quadtree_cell = 12;
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_OK);
    CHECK_EQ(g_qt.cell.edge, 12u);
    CHECK_EQ(g_qt.cell.shift, -1);
}
#endif

TEST(bp_quadtree_gives_every_node_back_once_its_bodies_are_gone)
{
    uint32_t noroom;
    qt_init(32, 2u, 8u);
    CHECK_EQ(bp_random_run(&g_bp, 5u, TEST_BODIES / 2u, 4u, 160, 12, true, &noroom), 0);
    CHECK(g_qt.used > 1u);
    for (uint16_t i = 0; i < g_bp.high; i++) {
        if ((g_bp.flags[i] & MBP__LIVE) != 0u) {
            bp_remove(&g_bp, i);
        }
    }
    CHECK_EQ(g_qt.used, 1); /* the root only */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, 0);
}

TEST(bp_quadtree_puts_a_small_body_deepest_and_a_large_or_outside_one_in_the_root)
{
    qt_init(8, 0u, 4u); /* 16 units wide, cells of 1 to 16 units */
    bp_reset(&g_bp, 3u);
    mbp_aabb small = box2(1, 1, 2, 2), large = box2(-9, -9, 9, 9), out = box2(20, 0, 21, 1);
    CHECK_ST(bp_add(&g_bp, 0, &small), MBP_OK);
    CHECK_ST(bp_add(&g_bp, 1, &large), MBP_OK);
    CHECK_ST(bp_add(&g_bp, 2, &out), MBP_OK);
    CHECK_EQ(g_qt.of[0], MBP__QT_NULL); /* placed at the update */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_qt.node[g_qt.of[0]].depth, 4);
    CHECK_EQ(g_qt.of[1], 0);
    CHECK_EQ(g_qt.of[2], 0);
    CHECK_EQ(g_qt.used, 5); /* the root and the small body's path of 4 */
    CHECK(bp_pairs_ok(&g_bp, true));
    CHECK_EQ(g_bp.ps.count, 1); /* (0, 1) */
}

TEST(bp_quadtree_moving_a_body_up_into_its_own_empty_ancestor_keeps_that_node)
{
    qt_init(8, 0u, 4u);
    bp_reset(&g_bp, 4u);
    mbp_aabb small = box2(1, 1, 2, 2), mid = box2(0, 0, 4, 4);
    CHECK_ST(bp_add(&g_bp, 0, &small), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    uint16_t deep = g_qt.of[0];
    CHECK_ST(bp_move(&g_bp, 0, &mid), MBP_OK); /* edge 4: two levels up, an empty node so far */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(g_qt.of[0] != deep);
    CHECK_EQ(g_qt.node[g_qt.of[0]].depth, 2);
    CHECK_EQ(g_qt.used, 3);
    CHECK(qt_valid(&g_bp));
}

TEST(bp_quadtree_tests_each_pair_of_one_node_once_in_a_full_frame)
{
    qt_init(8, 0u, 4u);
    bp_reset(&g_bp, 6u);
    mbp_aabb b = box2(1, 1, 2, 2);
    for (uint16_t i = 0; i < 5u; i++) {
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    mbp__bodies v = bp_view(&g_bp);
    mbp__sink out = {&g_bp.ps, bp_volumes(&g_bp), 1u, 0u}; /* as after an overflow */
    CHECK_ST(mbp__quadtree_update(&g_qt, &v, &out), MBP_OK);
    CHECK_EQ(out.tests, 10); /* 5 * 4 / 2 */
    CHECK_EQ(g_bp.ps.count, 10);
}

/* Random scenes of n bodies (bp_box(): ties, touching and zero-size boxes) in the world box
 * qt_init(half, shift, depth), where every body moves at every update (a step of a quarter unit
 * at most per axis, one in eight a teleport), so that every update is a full frame: the updates
 * that were no full frame or whose pairs were wrong, plus one if a hook refused or the structure
 * is broken. */
static uint32_t qt_full_random(int32_t half, uint32_t shift, uint8_t depth, uint32_t n,
                               int32_t span, int32_t size)
{
    uint32_t wrong = 0u;
    for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
        qt_init(half, shift, depth);
        bp_reset(&g_bp, seed);
        for (uint16_t i = 0; i < n; i++) {
            mbp_aabb b = bp_box(&g_bp, span, size);
            wrong += bp_add(&g_bp, i, &b) != MBP_OK ? 1u : 0u;
        }
        for (uint32_t f = 0; f < TEST_FRAMES; f++) {
            wrong += bp_update(&g_bp) != MBP_OK ? 1u : 0u;
            wrong += g_bp.ps.full_frame != 0u && bp_pairs_ok(&g_bp, true) ? 0u : 1u;
            for (uint16_t i = 0; i < n; i++) {
                mbp_aabb b = g_bp.box[i];
                if (bp_rand(&g_bp, 8u) == 0u) {
                    b = bp_box(&g_bp, span, size);
                } else {
                    for (int k = 0; k < MBP_DIM; k++) {
                        mbp_scalar d = mbp_from_ratio((int32_t)bp_rand(&g_bp, 3u) - 1, 4);
                        b.min[k] += d;
                        b.max[k] += d;
                    }
                }
                wrong += bp_move(&g_bp, i, &b) != MBP_OK ? 1u : 0u;
            }
        }
        wrong += qt_valid(&g_bp) ? 0u : 1u;
    }
    return wrong;
}

TEST(bp_quadtree_full_frames_give_exactly_the_overlapping_pairs)
{
    CHECK_EQ(qt_full_random(32, 2u, 8u, TEST_BODIES / 2u, 160, 12), 0);
}

TEST(bp_quadtree_full_frames_are_exact_with_sizes_spread_over_many_levels)
{
    /* Cells of 1/16 to 128 units (12 levels); bodies of 0 to 50 units. */
    CHECK_EQ(qt_full_random(64, 4u, 11u, TEST_BODIES / 4u, 200, 200), 0);
}

TEST(bp_quadtree_full_frames_are_exact_when_most_bodies_are_outside_its_world_box)
{
    CHECK_EQ(qt_full_random(4, 2u, 5u, TEST_BODIES / 2u, 160, 12), 0); /* 8 units wide of 40 */
}

TEST(bp_quadtree_full_frame_pairs_boxes_that_touch_across_cell_lines_once)
{
    qt_init(8, 0u, 4u); /* 16 units wide, cells of 1 to 16 units: 0 is the root's halving line */
    bp_reset(&g_bp, 5u);
    mbp_aabb a = box2(-1, -1, 0, 0), b = box2(0, 0, 1, 1), c = box2(1, 0, 2, 1);
    mbp_aabb far = box2(5, 5, 6, 6), z = box2(6, 6, 6, 6); /* z: zero-size, on far's corner */
    CHECK_ST(bp_add(&g_bp, 0, &a), MBP_OK); /* touches b at a corner, on the root's lines */
    CHECK_ST(bp_add(&g_bp, 1, &b), MBP_OK); /* touches c along a finest cell's line */
    CHECK_ST(bp_add(&g_bp, 2, &c), MBP_OK);
    CHECK_ST(bp_add(&g_bp, 3, &far), MBP_OK);
    CHECK_ST(bp_add(&g_bp, 4, &z), MBP_OK);
    mbp__bodies v = bp_view(&g_bp);
    mbp__sink out = {&g_bp.ps, bp_volumes(&g_bp), 1u, 0u}; /* as after an overflow */
    CHECK_ST(mbp__quadtree_update(&g_qt, &v, &out), MBP_OK);
    CHECK_EQ(g_bp.ps.count, 3); /* (0, 1), (1, 2), (3, 4), each once */
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) >= 0);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(1, 2)) >= 0);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(3, 4)) >= 0);
    CHECK_EQ(g_qt.home[0], 0); /* across the root's lines: its home is the root */
}

/* n bodies of size 1 on a lattice, updated once; then the few in movers[] move by step units. */
static void qt_lattice(uint16_t n)
{
    qt_init(32, 0u, 6u);
    bp_reset(&g_bp, 9u);
    for (uint16_t i = 0; i < n; i++) {
        int32_t x = (int32_t)(i % 16u) * 3 - 24, y = (int32_t)(i / 16u) * 3 - 24;
        mbp_aabb b = box2(x, y, x + 2, y + 2);
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
}

TEST(bp_quadtree_an_update_looks_only_at_the_bodies_that_moved)
{
    uint16_t n = TEST_BODIES < 64u ? (uint16_t)TEST_BODIES : 64u;
    qt_lattice(n);
    mbp_aabb b = g_bp.box[0];
    b.min[0] += mbp_from_int(2); /* onto body 1 */
    b.max[0] += mbp_from_int(2);
    CHECK_ST(bp_move(&g_bp, 0, &b), MBP_OK);
    mbp__bodies v = bp_view(&g_bp);
    mbp__sink out = {&g_bp.ps, bp_volumes(&g_bp), 0u, 0u};
    CHECK_ST(mbp__quadtree_update(&g_qt, &v, &out), MBP_OK);
    CHECK(out.tests > 0u);
    /* Its neighbours: fewer than the 3 x 3 block of lattice places around it, where an update
     * of every body would test the other n - 1 (at least 23 in every configuration). */
    CHECK(n - 1u > 9u);
    CHECK(out.tests < 9u);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) >= 0);
}

TEST(bp_quadtree_ends_the_pairs_of_a_teleported_body_and_begins_its_new_ones)
{
    qt_lattice(TEST_BODIES < 32u ? (uint16_t)TEST_BODIES : 32u); /* body 20 on the second row */
    mbp_aabb on1 = g_bp.box[1];
    CHECK_ST(bp_move(&g_bp, 0, &on1), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) >= 0);
    mbp_aabb on20 = g_bp.box[20], on2 = g_bp.box[2];
    CHECK_ST(bp_move(&g_bp, 0, &on20), MBP_OK); /* far away: two walks */
    CHECK_ST(bp_move(&g_bp, 1, &on2), MBP_OK);  /* its old partner moves too */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) < 0);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 20)) >= 0);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(1, 2)) >= 0);
    CHECK(bp_pairs_ok(&g_bp, true));
}

TEST(bp_quadtree_random_scenes_with_few_movers_stay_exact)
{
    uint32_t wrong = 0u;
    for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
        qt_init(32, 2u, 8u);
        bp_reset(&g_bp, seed);
        uint16_t n = (uint16_t)(TEST_BODIES / 2u);
        for (uint16_t i = 0; i < n; i++) {
            mbp_aabb b = bp_box(&g_bp, 160, 12);
            CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
        }
        for (uint32_t f = 0; f < TEST_FRAMES; f++) {
            CHECK_ST(bp_update(&g_bp), MBP_OK);
            wrong += bp_pairs_ok(&g_bp, true) ? 0u : 1u;
            for (uint32_t m = 0; m < 3u; m++) { /* three movers a frame, one of them removed */
                uint16_t i = (uint16_t)bp_rand(&g_bp, n);
                mbp__bodies v = bp_view(&g_bp);
                mbp_aabb b = bp_box(&g_bp, 160, 12);
                if (!mbp__in(&v, i)) {
                    if (g_bp.flags[i] == 0u) {
                        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
                    }
                } else if (m == 0u) {
                    bp_remove(&g_bp, i);
                } else {
                    CHECK_ST(bp_move(&g_bp, i, &b), MBP_OK);
                }
            }
        }
        CHECK_ST(bp_update(&g_bp), MBP_OK);
        wrong += bp_pairs_ok(&g_bp, true) && qt_valid(&g_bp) ? 0u : 1u;
    }
    CHECK_EQ(wrong, 0);
}

/* k bodies on one spot make more pairs than the set holds: the update counts the pairs it lost;
 * the next one is a full frame (candidates are missing) and finds every pair once the bodies
 * part; then incremental frames are exact again. */
TEST(bp_quadtree_after_an_overflow_runs_a_full_frame_and_is_exact_again)
{
    uint32_t k = test_pile_that_fits() + 1u; /* the smallest pile that overflows */
    if (k > (uint32_t)MBP_MAX_BODIES) {
        return; /* this build cannot hold enough bodies to fill its pair set */
    }
    qt_init(64, 0u, 7u);
    bp_reset(&g_bp, 10u);
    mbp_aabb spot = box2(0, 0, 2, 2);
    for (uint32_t i = 0; i < k; i++) {
        CHECK_ST(bp_add(&g_bp, (uint16_t)i, &spot), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, MBP_MAX_PAIRS);
    CHECK_EQ(g_bp.lost_last, k * (k - 1u) / 2u - (uint32_t)MBP_MAX_PAIRS);
    for (uint32_t i = 0; i < k; i++) { /* they part: a row, body 0 still on the spot */
        int32_t x = (int32_t)(i % 32u) * 3, y = (int32_t)(i / 32u) * 3;
        mbp_aabb b = box2(x, y, x + 2, y + 2);
        CHECK_ST(bp_move(&g_bp, (uint16_t)i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.lost_last, 0);
    CHECK(bp_pairs_ok(&g_bp, true));
    mbp_aabb b = box2(1, 0, 6, 2); /* touches bodies 0 and 2 */
    CHECK_ST(bp_move(&g_bp, 1, &b), MBP_OK);
    mbp__bodies v = bp_view(&g_bp);
    mbp__sink out = {&g_bp.ps, bp_volumes(&g_bp), 0u, 0u};
    CHECK_ST(mbp__quadtree_update(&g_qt, &v, &out), MBP_OK);
    CHECK(out.tests < k / 2u); /* incremental: body 1's neighbours only */
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(0, 1)) >= 0);
    CHECK(mbp__pairs_find(&g_bp.ps, mbp__key(1, 2)) >= 0);
}

/* A pile whose pairs just fit, and a row apart; two bodies of the row join the pile in an
 * incremental frame: the set fills up, the frame turns into a full one, which stores exactly as
 * many pairs as fit and counts the rest as lost. */
TEST(bp_quadtree_an_incremental_frame_that_fills_the_pair_set_turns_into_a_full_frame)
{
    uint32_t m = test_pile_that_fits();
    uint32_t n = m + 2u; /* the pile and the two that join it */
    if (n > (uint32_t)MBP_MAX_BODIES || n > 32u * 20u) {
        return; /* this build cannot hold the scene */
    }
    qt_init(64, 0u, 7u);
    bp_reset(&g_bp, 11u);
    mbp_aabb spot = box2(-60, -60, -58, -58);
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = (int32_t)(i % 32u) * 3 - 40, y = (int32_t)(i / 32u) * 3;
        mbp_aabb b = i < m ? spot : box2(x, y, x + 2, y + 2);
        CHECK_ST(bp_add(&g_bp, (uint16_t)i, &b), MBP_OK);
    }
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.lost_last, 0);
    CHECK_EQ(g_bp.ps.count, m * (m - 1u) / 2u);
    CHECK_ST(bp_move(&g_bp, (uint16_t)m, &spot), MBP_OK);
    CHECK_ST(bp_move(&g_bp, (uint16_t)(m + 1u), &spot), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, MBP_MAX_PAIRS);
    CHECK_EQ(g_bp.lost_last, (m + 2u) * (m + 1u) / 2u - (uint32_t)MBP_MAX_PAIRS);
}

TEST(bp_quadtree_with_a_short_pool_keeps_bodies_higher_up_and_pairs_exact)
{
    qt_init(8, 0u, 4u);
    bp_reset(&g_bp, 8u);
    g_qt.cap = 3u; /* the root and two more */
    mbp_aabb a = box2(1, 1, 2, 2), far = box2(-7, -7, -6, -6), a2 = box2(1, 1, 3, 2);
    CHECK_ST(bp_add(&g_bp, 0, &a), MBP_OK); /* needs 4: gets 2 */
    CHECK_ST(bp_add(&g_bp, 1, &far), MBP_OK); /* none left: the root */
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_qt.used, 3);
    CHECK_EQ(g_qt.node[g_qt.of[0]].depth, 2);
    CHECK_EQ(g_qt.of[1], 0);
    g_qt.cap = 9u;
    CHECK_ST(bp_move(&g_bp, 0, &a2), MBP_OK); /* goes deeper, now there is room */
    CHECK_ST(bp_add(&g_bp, 2, &a), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_qt.node[g_qt.of[0]].depth, 3);
    CHECK_EQ(g_qt.node[g_qt.of[2]].depth, 4);
    CHECK(qt_valid(&g_bp));
    CHECK(bp_pairs_ok(&g_bp, true));
    CHECK_EQ(g_bp.ps.count, 1); /* (0, 2) */
}

TEST(bp_quadtree_forgets_a_body_added_and_removed_between_updates)
{
    qt_lattice(8u);
    mbp_aabb b = g_bp.box[3];
    CHECK_ST(bp_add(&g_bp, 8, &b), MBP_OK);
    bp_remove(&g_bp, 8);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(bp_pairs_ok(&g_bp, true));
    CHECK(qt_valid(&g_bp));
}

TEST(bp_quadtree_refuses_parameters_out_of_their_ranges)
{
    mbp_params p = qt_params(8, 0u, 4u);
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_OK);
    p.quadtree_depth = MBP__QT_DEPTH_MAX + 1u;
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_E_PARAM);
    p = qt_params(8, 0u, 4u);
    p.quadtree_cell = 0;
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_E_PARAM);
    p = qt_params(8, 0u, 4u);
    p.quadtree_origin[MBP_DIM - 1] = -MBP_RANGE - MBP_RANGE / 2;
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_E_PARAM);
#if MBP_SCALAR == MBP_FIXED
    p = qt_params(8, 0u, 4u);
    p.quadtree_cell = MBP_RANGE; /* 2^30 raw units: 4 levels pass 2^32 */
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_E_PARAM);
    p.quadtree_depth = 1u;
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_OK);
#else
    p = qt_params(8, 0u, 4u);
    p.quadtree_cell = MBP_RANGE * 2;
    CHECK_ST(mbp__quadtree_init(&g_qt, &p), MBP_E_PARAM);
#endif
}
#endif
