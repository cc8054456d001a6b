/* SPDX-License-Identifier: MIT */
/* test_tree.c: the dynamic AABB tree beyond the shared differential suite: more seeds, adversarial
 * insertion orders against the height bound, the stack cap, static scenes costing nothing, the
 * rebuild after a full pair set, parameters and queries. The tree world (test_w) runs beside a
 * brute-force world (test_w2) fed the same calls, and their sorted pairs and events must agree. */
#include "diff.h"

#if !MBP_WITH_TREE
#error "test_tree.c needs MBP_WITH_TREE (on by default in lib/mbp_config.h)"
#endif

/* ---- twins: the tree and brute force, driven by the same calls ---- */

static mbp_body g_ht[MBP_MAX_BODIES], g_hb[MBP_MAX_BODIES];
static bool g_live[MBP_MAX_BODIES];
static uint32_t g_keys_t[MBP_MAX_PAIRS], g_keys_b[MBP_MAX_PAIRS];

static mbp_aabb tbox(int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    mbp_aabb b;
    for (int k = 0; k < MBP_DIM; k++) {
        b.min[k] = mbp_from_ratio(k == 0 ? x0 : y0, 4);
        b.max[k] = mbp_from_ratio(k == 0 ? x1 : y1, 4);
    }
    return b;
}

static void twins_init(const mbp_params *tree_params)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w2, &p), MBP_OK);
    if (tree_params != NULL) {
        p = *tree_params;
    }
    p.backend = MBP_TREE;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        g_live[i] = false;
    }
}

static void twins_add(uint32_t slot, const mbp_aabb *b)
{
    CHECK_ST(mbp_add_box(&test_w, b, slot, &g_ht[slot]), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w2, b, slot, &g_hb[slot]), MBP_OK);
    CHECK_EQ(mbp_index(g_ht[slot]), mbp_index(g_hb[slot])); /* same calls, same indices */
    g_live[slot] = true;
}

static void twins_move(uint32_t slot, const mbp_aabb *b)
{
    CHECK_ST(mbp_move_box(&test_w, g_ht[slot], b), MBP_OK);
    CHECK_ST(mbp_move_box(&test_w2, g_hb[slot], b), MBP_OK);
}

static void twins_remove(uint32_t slot)
{
    CHECK_ST(mbp_remove(&test_w, g_ht[slot]), MBP_OK);
    CHECK_ST(mbp_remove(&test_w2, g_hb[slot]), MBP_OK);
    g_live[slot] = false;
}

static uint32_t sorted_keys(mbp_world *w, uint32_t *keys)
{
    uint32_t it = 0, n = 0;
    mbp_pair p;
    mbp_sort_pairs(w);
    while (mbp_next_pair(w, &it, &p)) {
        if (n < MBP_MAX_PAIRS) {
            keys[n] = test_pair_key(p);
        }
        n++;
    }
    return n;
}

static bool same_events(bool begun)
{
    uint32_t nt, nb;
    const mbp_pair *et = begun ? test_begun(&test_w, &nt) : test_ended(&test_w, &nt);
    const mbp_pair *eb = begun ? test_begun(&test_w2, &nb) : test_ended(&test_w2, &nb);
    if (nt != nb) {
        return false;
    }
    for (uint32_t k = 0; et != NULL && k < nt; k++) {
        if (et[k].a != eb[k].a || et[k].b != eb[k].b) {
            return false;
        }
    }
    return true;
}

/* Updates both; returns the tree's status after checking it and the pairs against brute force
 * (pairs compared only when both are exact). */
static mbp_status twins_compare(mbp_status st, mbp_status sb);

static mbp_status twins_update(mbp_status expected)
{
    mbp_status st = mbp_update(&test_w);
    mbp_status sb = mbp_update(&test_w2);
    CHECK_ST(st, expected);
    return twins_compare(st, sb);
}

/* As twins_update(), for a tree whose stack cap may be hit: MBP_OK or MBP_E_NOROOM. */
static mbp_status twins_update_any(void)
{
    mbp_status st = mbp_update(&test_w);
    mbp_status sb = mbp_update(&test_w2);
    CHECK(st == MBP_OK || st == MBP_E_NOROOM);
    return twins_compare(st, sb);
}

static mbp_status twins_compare(mbp_status st, mbp_status sb)
{
    CHECK(mbp__tree_valid(&test_w.be.tree));
    if (sb == MBP_OK && (st == MBP_OK || st == MBP_E_NOROOM)) {
        uint32_t nt = sorted_keys(&test_w, g_keys_t);
        uint32_t nb = sorted_keys(&test_w2, g_keys_b);
        CHECK_EQ(nt, nb);
        bool same = nt == nb;
        for (uint32_t k = 0; same && k < nt && k < MBP_MAX_PAIRS; k++) {
            same = g_keys_t[k] == g_keys_b[k];
        }
        CHECK(same);
        CHECK(same_events(true));
        CHECK(same_events(false));
    }
    return st;
}

/* Largest height an AVL tree of n leaves can have: the h with Fib(h+2) <= n < Fib(h+3),
 * computed here independently of the library's table. */
static uint32_t avl_bound(uint32_t n)
{
    uint32_t a = 1u, b = 2u, h = 0u; /* a = Fib(h+2), b = Fib(h+3) */
    while (b <= n) {
        uint32_t c = a + b;
        a = b;
        b = c;
        h++;
    }
    return h;
}

static uint32_t live_count(void)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        n += g_live[i] ? 1u : 0u;
    }
    return n;
}

static void check_height(void)
{
    uint32_t h = mbp__tree_height(&test_w.be.tree);
    CHECK(h <= avl_bound(live_count()));
    CHECK(h <= MBP_TREE_HEIGHT_MAX);
}

/* Side of a square of cells holding n bodies, 3 quarters of a unit apart, for sparse scenes. */
static int32_t grid_side(uint32_t n)
{
    int32_t s = 1;
    while ((uint32_t)(s * s) < n) {
        s++;
    }
    return s;
}

/* ---- differential seeds beyond the shared suite ---- */

TEST(tree_matches_the_oracle_on_extra_seeds_in_every_scene)
{
    for (uint32_t scene = 0; scene < SCENE_COUNT; scene++) {
        for (uint32_t seed = 101; seed <= 103; seed++) {
            diff_opts o = {seed, TEST_BODIES * (seed % 3u + 1u) / 3u, 40u, (diff_scene)scene,
                           seed != 102u, seed == 103u};
            if (diff_run(MBP_TREE, &o) != 0u) {
                test_puts("  scene ");
                test_putu(scene);
                test_puts(" seed ");
                test_putu(seed);
                test_puts("\n");
                return;
            }
        }
    }
}

/* ---- adversarial insertion orders ---- */

TEST(tree_sorted_insertions_keep_the_avl_height_bound)
{
    twins_init(NULL);
    /* One body per frame along x, then all the rest in one frame: both orders are sorted. */
    uint32_t half = MBP_MAX_BODIES / 2u;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        mbp_aabb b = tbox((int32_t)i * 8, 0, (int32_t)i * 8 + 4, 4);
        twins_add(i, &b);
        if (i < half) {
            twins_update(MBP_OK);
            check_height();
        }
    }
    twins_update(MBP_OK);
    check_height();
    CHECK_EQ(mbp_body_count(&test_w), MBP_MAX_BODIES);
    /* Sweep them back along x in sorted order, a few per frame: re-insertions stay balanced. */
    for (uint32_t f = 0; f < 20u && !mbp_test_failed(); f++) {
        for (uint32_t i = f % 4u; i < MBP_MAX_BODIES; i += 4u) {
            mbp_aabb b = tbox((int32_t)i * 8 - (int32_t)f * 3, 0, (int32_t)i * 8 - (int32_t)f * 3 + 4, 4);
            twins_move(i, &b);
        }
        twins_update(MBP_OK);
        check_height();
    }
}

TEST(tree_identical_boxes_keep_the_height_bound_and_pair_exactly)
{
    /* As many identical boxes as the pair set can hold all pairs of: exact pairs. */
    uint32_t k = 2u;
    while (k < MBP_MAX_BODIES && (k + 1u) * k / 2u <= MBP_MAX_PAIRS / 2u) {
        k++;
    }
    twins_init(NULL);
    mbp_aabb b = tbox(4, 4, 12, 12);
    for (uint32_t i = 0; i < k; i++) {
        twins_add(i, &b);
    }
    twins_update(MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), k * (k - 1u) / 2u);
    check_height();
    /* Then every body, identical: pairs may not fit, the tree must stay balanced. */
    for (uint32_t i = k; i < MBP_MAX_BODIES; i++) {
        CHECK_ST(mbp_add_box(&test_w, &b, i, &g_ht[i]), MBP_OK);
        g_live[i] = true;
    }
    mbp_status st = mbp_update(&test_w);
    CHECK(st == MBP_OK || st == MBP_E_PAIRS_FULL);
    CHECK(mbp__tree_valid(&test_w.be.tree));
    check_height();
}

static void huge_and_tiny(bool huge_first)
{
    twins_init(NULL);
    uint32_t n = MBP_MAX_BODIES - 1u;
    int32_t side = grid_side(n);
    mbp_aabb huge = tbox(-8, -8, side * 12 + 8, side * 12 + 8);
    uint32_t huge_slot = huge_first ? 0u : n;
    if (huge_first) {
        twins_add(huge_slot, &huge);
    }
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = (int32_t)i % side * 12, y = (int32_t)i / side * 12; /* 2 units apart */
        mbp_aabb b = tbox(x, y, x + 4, y + 4);
        twins_add(huge_first ? i + 1u : i, &b);
    }
    if (!huge_first) {
        twins_add(huge_slot, &huge);
    }
    twins_update(MBP_OK);
    check_height();
    CHECK_EQ(mbp_pair_count(&test_w), n); /* the huge one with each tiny one, nothing else */
    /* Tiny ones step around; the huge one stays. */
    for (uint32_t f = 0; f < 10u && !mbp_test_failed(); f++) {
        for (uint32_t i = 0; i < n; i += 3u) {
            uint32_t slot = huge_first ? i + 1u : i;
            int32_t x = (int32_t)i % side * 12 + (int32_t)(f % 3u), y = (int32_t)i / side * 12;
            mbp_aabb b = tbox(x, y, x + 4, y + 4);
            twins_move(slot, &b);
        }
        twins_update(MBP_OK);
        check_height();
    }
}

TEST(tree_one_huge_body_among_tiny_ones_keeps_the_height_bound_inserted_first)
{
    huge_and_tiny(true);
}

TEST(tree_one_huge_body_among_tiny_ones_keeps_the_height_bound_inserted_last)
{
    huge_and_tiny(false);
}

/* ---- a random moving scene, for the stack and the counters ---- */

static uint32_t g_rng;
/* Small types: the M0 has 16 KB for everything (positions stay below 2^15 quarters). */
static int16_t g_pos[MBP_MAX_BODIES][2];
static int8_t g_vel[MBP_MAX_BODIES][2], g_size[MBP_MAX_BODIES];

static mbp_aabb scene_box(uint32_t i)
{
    return tbox(g_pos[i][0], g_pos[i][1], g_pos[i][0] + g_size[i], g_pos[i][1] + g_size[i]);
}

static int32_t scene_extent(uint32_t n)
{
    return grid_side(n) * 10; /* about one overlap per body */
}

static void scene_start(uint32_t n, uint32_t seed)
{
    g_rng = seed;
    int32_t ext = scene_extent(n);
    for (uint32_t i = 0; i < n; i++) {
        g_size[i] = (int8_t)(1 + (int32_t)test_below(&g_rng, 8u));
        for (int k = 0; k < 2; k++) {
            g_pos[i][k] = (int16_t)test_below(&g_rng, (uint32_t)ext);
            g_vel[i][k] = (int8_t)((int32_t)test_below(&g_rng, 5u) - 2);
        }
        mbp_aabb b = scene_box(i);
        twins_add(i, &b);
    }
}

/* Moves every `every`-th live body (from `first`) one step, bouncing off the walls. */
static void scene_step(uint32_t n, uint32_t first, uint32_t every)
{
    int32_t ext = scene_extent(n);
    for (uint32_t i = first; i < n; i += every) {
        if (!g_live[i]) {
            continue;
        }
        for (int k = 0; k < 2; k++) {
            int32_t p = g_pos[i][k] + g_vel[i][k];
            if (p < 0 || p > ext) {
                g_vel[i][k] = (int8_t)-g_vel[i][k];
                p = g_pos[i][k] + g_vel[i][k];
            }
            g_pos[i][k] = (int16_t)p;
        }
        mbp_aabb b = scene_box(i);
        twins_move(i, &b);
    }
}

TEST(tree_walks_never_exceed_the_default_stack)
{
    twins_init(NULL);
    scene_start(MBP_MAX_BODIES, 7u);
    for (uint32_t f = 0; f < 30u && !mbp_test_failed(); f++) {
        twins_update(MBP_OK);
        CHECK_EQ(test_w.be.tree.overflows, 0);
        check_height();
        scene_step(MBP_MAX_BODIES, 0u, 1u);
    }
}

TEST(tree_a_lowered_stack_cap_reports_noroom_and_stays_exact)
{
    /* The same scene with the walks' stack capped at 0, 1 and 2 entries (the array itself keeps
     * MBP_TREE_STACK entries; the cap is checked before every push): each update that needed
     * more says MBP_E_NOROOM, and the pairs, events and queries still equal brute force's. */
    uint32_t n = TEST_BODIES < 60u ? TEST_BODIES : 60u;
    for (uint16_t cap = 0; cap <= 2u && !mbp_test_failed(); cap++) {
        twins_init(NULL);
        test_w.be.tree.stack_cap = cap;
        scene_start(n, 11u + cap);
        uint32_t noroom = 0;
        for (uint32_t f = 0; f < 20u && !mbp_test_failed(); f++) {
            mbp_status st = twins_update_any();
            noroom += st == MBP_E_NOROOM ? 1u : 0u;
            CHECK((st == MBP_E_NOROOM) == (test_w.be.tree.overflows > 0u));
            scene_step(n, f % 2u, 2u);
            static uint16_t qt[MBP_MAX_BODIES], qb[MBP_MAX_BODIES];
            uint32_t ct = 0, cb = 0;
            int32_t e = scene_extent(n);
            mbp_aabb q = tbox(e / 4, e / 4, e / 2, e / 2);
            CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, qt, MBP_MAX_BODIES, &ct), MBP_OK);
            CHECK_ST(mbp_query_box(&test_w2, &q, 0xFFFFu, qb, MBP_MAX_BODIES, &cb), MBP_OK);
            CHECK_EQ(ct, cb);
            for (uint32_t k = 0; k < ct && k < cb; k++) {
                CHECK_EQ(qt[k], qb[k]);
            }
        }
        CHECK(noroom > 0u); /* the cap was hit: the test tests something */
    }
}

/* ---- static scenes cost nothing ---- */

TEST(tree_a_static_scene_costs_no_tree_work_per_frame)
{
    twins_init(NULL);
    uint32_t n = TEST_BODIES;
    scene_start(n, 3u);
    uint32_t work = 0;
    for (uint32_t f = 0; f < 5u; f++) {
        scene_step(n, 0u, 1u);
        twins_update(MBP_OK);
        work += test_w.be.tree.inserts + test_w.stats.tests;
    }
    CHECK(work > 0u); /* the moving frames did work */
    CHECK(test_w.be.tree.synced); /* incremental: the static frames below take that path */
    uint32_t pairs = mbp_pair_count(&test_w);
    for (uint32_t f = 0; f < 5u; f++) {
        twins_update(MBP_OK);
        CHECK_EQ(test_w.be.tree.inserts, 0);
        CHECK_EQ(test_w.stats.tests, 0);
        CHECK_EQ(mbp_pair_count(&test_w), pairs);
    }
}

/* Parameters with round numbers for the tests below: margin 1/8 unit plus 1/8 of the size a
 * side, sweep `sweep` times the displacement. */
static mbp_params tree_params(uint8_t sweep)
{
    mbp_params p;
    mbp_params_default(&p);
    p.tree_margin = mbp_from_ratio(1, 8);
    p.tree_margin_frac = 32u;
    p.tree_sweep = sweep;
    return p;
}

/* The fat box of the body in slot (its leaf in the tree). */
static const mbp_aabb *fat_box(uint32_t slot)
{
    const mbp_tree_state *t = &test_w.be.tree;
    return &t->node[t->leaf[mbp_index(g_ht[slot])]].box;
}

static mbp_scalar fat_extent(uint32_t slot, int k)
{
    return fat_box(slot)->max[k] - fat_box(slot)->min[k];
}

TEST(tree_a_body_moving_inside_its_fat_box_costs_no_tree_work)
{
    mbp_params p = tree_params(2u);
    twins_init(&p);
    mbp_aabb a = tbox(0, 0, 8, 8), b = tbox(12, 0, 20, 8), c = tbox(40, 40, 44, 44);
    twins_add(0, &a);
    twins_add(1, &b);
    twins_add(2, &c);
    twins_update(MBP_OK);
    CHECK_EQ(test_w.be.tree.inserts, 3);
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    /* Fat margin: 1/8 unit plus 1/8 of 2 units = 3/8 unit a side; 1/4 unit (one quarter) fits. */
    mbp_aabb a2 = tbox(1, 0, 9, 8);
    twins_move(0, &a2);
    twins_update(MBP_OK);
    CHECK_EQ(test_w.be.tree.kept, 1);
    CHECK_EQ(test_w.be.tree.inserts, 0);
    CHECK_EQ(test_w.stats.tests, 0);
    /* Out of its fat box and onto b: re-inserted, and the pair begins. */
    mbp_aabb a3 = tbox(6, 0, 14, 8);
    twins_move(0, &a3);
    twins_update(MBP_OK);
    CHECK_EQ(test_w.be.tree.kept, 0);
    CHECK_EQ(test_w.be.tree.inserts, 1);
    CHECK(test_w.stats.tests > 0u);
    CHECK_EQ(mbp_pair_count(&test_w), 1);
}

/* ---- velocity expansion ---- */

TEST(tree_a_steady_mover_is_reinserted_about_once_per_sweep_frames)
{
    /* One body crossing a row of still ones at 1/4 unit a frame, sweep 8: its fat box reaches
     * 8 frames ahead, so it is re-inserted about once in 8 frames and kept in between. */
    mbp_params p = tree_params(8u);
    twins_init(&p);
    uint32_t n = TEST_BODIES < 12u ? TEST_BODIES : 12u;
    for (uint32_t i = 1; i < n; i++) {
        mbp_aabb b = tbox((int32_t)i * 16, 6, (int32_t)i * 16 + 4, 10);
        twins_add(i, &b);
    }
    mbp_aabb m = tbox(0, 0, 8, 8);
    twins_add(0, &m);
    twins_update(MBP_OK);
    uint32_t inserts = 0, kept = 0, frames = 0;
    for (int32_t x = 1; x + 8 <= (int32_t)n * 16 && !mbp_test_failed(); x++, frames++) {
        m = tbox(x, 0, x + 8, 8);
        twins_move(0, &m);
        twins_update(MBP_OK);
        CHECK_EQ(test_w.be.tree.inserts + test_w.be.tree.kept, 1);
        inserts += test_w.be.tree.inserts;
        kept += test_w.be.tree.kept;
        if (x > 1 && test_w.be.tree.inserts == 1u) {
            /* A fresh fat box reaches 8 frames of motion ahead of the box, plus the margin. */
            CHECK(fat_box(0)->max[0] - m.max[0] >= mbp_from_ratio(8, 4));
        }
    }
    CHECK(frames >= 40u);
    CHECK(inserts <= frames / 8u + 2u);
    CHECK(kept >= frames - frames / 8u - 2u);
}

/* Bodies of 1 unit on a grid spacing_quarters apart, shifted dx quarters on x, in the first
 * `count` slots: added, or moved there. */
static void grid_bodies(uint32_t count, int32_t spacing_quarters, int32_t dx, bool add)
{
    int32_t side = grid_side(count);
    for (uint32_t i = 0; i < count; i++) {
        int32_t x = (int32_t)i % side * spacing_quarters + dx;
        int32_t y = (int32_t)i / side * spacing_quarters;
        mbp_aabb b = tbox(x, y, x + 4, y + 4);
        if (add) {
            twins_add(i, &b);
        } else {
            twins_move(i, &b);
        }
    }
}

TEST(tree_spreads_the_reinsertions_of_bodies_that_move_alike)
{
    /* Bodies added together and moving alike (1/4 unit a frame, sweep 8, none overlapping) would
     * all leave their fat boxes in the same frame, once in about 9. The fresh boxes' sweeps are
     * picked to spread those exits: after a few waves no frame re-inserts half of them, and the
     * re-insertions stay about one per body in 9 frames (no more than one in 7). */
    mbp_params p = tree_params(8u);
    twins_init(&p);
    uint32_t n = TEST_BODIES;
    grid_bodies(n, 16, 0, true);
    twins_update(MBP_OK);
    uint32_t most = 0u, inserts = 0u;
    for (int32_t f = 1; f <= 72 && !mbp_test_failed(); f++) {
        grid_bodies(n, 16, f, false);
        twins_update(MBP_OK);
        if (f > 36) {
            most = test_w.be.tree.inserts > most ? test_w.be.tree.inserts : most;
            inserts += test_w.be.tree.inserts;
        }
    }
    CHECK(most > 0u);
    CHECK(most < n / 4u);
    CHECK(inserts <= 36u * n / 7u);
}

/* Body 0 stays at *b (moved there again each frame, so dirty) for 4 frames; returns how many
 * of them re-inserted it. */
static uint32_t stay_until_reinserted(const mbp_aabb *b)
{
    uint32_t inserts = 0;
    for (int f = 0; f < 4; f++) {
        twins_move(0, b);
        twins_update(MBP_OK);
        inserts += test_w.be.tree.inserts;
    }
    return inserts;
}

TEST(tree_a_jump_is_not_a_velocity_and_a_slowed_body_gets_a_smaller_box)
{
    mbp_params p = tree_params(8u);
    twins_init(&p);
    mbp_aabb a = tbox(0, 0, 8, 8), o = tbox(4, 4, 12, 12), d = tbox(404, 4, 412, 12);
    twins_add(0, &a);
    twins_add(1, &o);
    twins_add(2, &d);
    twins_update(MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 1);
    /* A jump of 100 units, from a pair to another (the old and new fat boxes are walked apart):
     * the sweep is capped at twice the box with its margins (2 + 3/4 units on x), so the fat box
     * is at most 3 times that, not 8 jumps long. */
    mbp_aabb j = tbox(400, 0, 408, 8);
    twins_move(0, &j);
    twins_update(MBP_OK); /* checks the pair with 1 ended and the one with 2 began */
    CHECK_EQ(mbp_pair_count(&test_w), 1);
    CHECK_EQ(test_w.be.tree.inserts, 1);
    CHECK(fat_extent(0, 0) <= mbp_from_ratio(3 * 11, 4));
    CHECK(fat_extent(0, 0) >= mbp_from_ratio(3 * 11, 4) - mbp_from_ratio(1, 64));
    /* It stays (moved by nothing, so dirty): over twice a fresh box, so it gets a fresh one
     * within 4 frames (a swept leaf's size is checked one frame in four). */
    CHECK_EQ(stay_until_reinserted(&j), 1);
    CHECK(fat_extent(0, 0) <= mbp_from_ratio(11, 4) + mbp_from_ratio(1, 64));
    /* A fast mover (1 unit a frame) that stops while still being moved: re-inserted with a
     * smaller box long before it would leave the big one. */
    int32_t x = 400;
    for (int f = 0; f < 3; f++) {
        x += 4;
        j = tbox(x, 0, x + 8, 8);
        twins_move(0, &j);
        twins_update(MBP_OK);
    }
    mbp_scalar fast = fat_extent(0, 0);
    CHECK(fast > mbp_from_ratio(2 * 11, 4)); /* swept: 8 frames of 1 unit, capped */
    CHECK_EQ(stay_until_reinserted(&j), 1);
    CHECK(fat_extent(0, 0) <= mbp_from_ratio(11, 4) + mbp_from_ratio(1, 64));
}

/* ---- leaves kept in place ---- */

TEST(tree_reinserted_leaves_keep_their_place_when_an_ancestor_holds_the_new_box)
{
    /* A random moving scene: some re-insertions keep the leaf in place (only boxes grow), others
     * move it; the tree stays valid and balanced and the pairs exact (twins_update checks). */
    twins_init(NULL);
    uint32_t n = TEST_BODIES;
    scene_start(n, 21u);
    uint32_t inserts = 0, in_place = 0;
    for (uint32_t f = 0; f < 30u && !mbp_test_failed(); f++) {
        twins_update(MBP_OK);
        check_height();
        if (f > 0u) {
            inserts += test_w.be.tree.inserts;
            in_place += test_w.be.tree.kept_in_place;
        }
        CHECK(test_w.be.tree.kept_in_place <= test_w.be.tree.inserts);
        scene_step(n, 0u, 1u);
    }
    CHECK(in_place > 0u);
    CHECK(in_place < inserts);
}

/* ---- crowded pair sets ---- */

/* Every body (the set holds MBP_MAX_PAIRS / n pairs a body) on a grid 2 units apart, with
 * margins of 3/2 units and the given sweep; the first update done. Returns the body count. */
static uint32_t crowd_start(uint8_t sweep)
{
    mbp_params p = tree_params(sweep);
    p.tree_margin = mbp_from_ratio(3, 2);
    p.tree_margin_frac = 0u;
    twins_init(&p);
    uint32_t n = MBP_MAX_BODIES;
    grid_bodies(n, 8, 0, true);
    twins_update(MBP_OK);
    return n;
}

TEST(tree_shrinks_fat_boxes_while_their_candidates_crowd_the_pair_set)
{
    /* A margin of 3/2 units reaches two grid steps around each body: 12 fat candidates a body,
     * more than the set holds (8 a body in the test configurations, 4 on the M0), while nothing
     * overlaps. The
     * tree halves its margins until they fit, stays or gets back to incremental, and gives
     * exactly brute force's pairs all along; spread out, the margins grow back. */
    uint32_t n = crowd_start(2u);
    uint32_t top = 0u, rebuilds = 0u;
    for (uint32_t f = 0; f < 16u && !mbp_test_failed(); f++) {
        grid_bodies(n, 8, (int32_t)(f % 2u), false); /* every body wiggles by 1/4 unit */
        twins_update(MBP_OK);
        top = test_w.be.tree.level > top ? test_w.be.tree.level : top;
        if (f == 8u) {
            rebuilds = test_w.be.tree.rebuilds;
        }
    }
    CHECK(top > 0u);
    CHECK(test_w.be.tree.synced);
    CHECK_EQ(test_w.be.tree.rebuilds, rebuilds); /* incremental for the last 7 frames */
    /* Far apart (8 units): the fat boxes fit whatever the level, which goes back to 0. */
    for (uint32_t f = 0; f < 12u && !mbp_test_failed(); f++) {
        grid_bodies(n, 32, (int32_t)(f % 2u), false);
        twins_update(MBP_OK);
    }
    CHECK_EQ(test_w.be.tree.level, 0);
    CHECK(test_w.be.tree.synced);
}

TEST(tree_grows_fat_boxes_back_a_level_at_a_time_once_the_last_level_had_time_to_show)
{
    /* Crowded (margins of 3/2 units and bodies jumping 4 units to and fro every frame, so every
     * fat box is made anew and long: the level goes up), then spread out: the margins grow back
     * a level at a time, and after each fall the level waits tree_sweep >> level frames before
     * the next, so that the boxes made at the new level count first (a level a frame
     * overshoots and swings). */
    uint32_t n = crowd_start(8u);
    for (uint32_t f = 0; f < 6u && !mbp_test_failed(); f++) {
        grid_bodies(n, 8, (int32_t)(f % 2u) * 16, false);
        twins_update(MBP_OK);
    }
    uint32_t level = test_w.be.tree.level, falls = 0u, since = 0u;
    CHECK(level >= 2u);
    for (uint32_t f = 0; f < 24u && !mbp_test_failed(); f++, since++) {
        grid_bodies(n, 32, (int32_t)f, false);
        twins_update(MBP_OK);
        uint32_t now = test_w.be.tree.level;
        CHECK(now <= level);     /* spread out: never up again */
        CHECK(now + 1u >= level); /* one level at a time */
        if (now < level) {
            if (falls > 0u) {
                CHECK(since >= (8u >> level)); /* the wait after the last fall, to level */
            }
            falls++;
            since = 0u;
        }
        level = now;
    }
    CHECK_EQ(level, 0);
    CHECK(falls >= 2u);
}

TEST(tree_a_static_scene_costs_nothing_even_when_its_pairs_crowd_the_set)
{
    /* Overlapping boxes with more pairs than 3/4 of the set (or all of it: then brute force
     * loses pairs too): once still, updates do no tree work at all, exact or not. */
    uint32_t k = 2u;
    while (k < MBP_MAX_BODIES && k * (k - 1u) / 2u <= (uint32_t)MBP_MAX_PAIRS * 7u / 8u) {
        k++;
    }
    k--; /* the most bodies whose pairs all fit in 7/8 of the set */
    twins_init(NULL);
    mbp_aabb b = tbox(0, 0, 4, 4);
    for (uint32_t i = 0; i < k; i++) {
        twins_add(i, &b);
    }
    const uint32_t p = k * (k - 1u) / 2u; /* all begin at once: more events than free entries
                                           * where no room is reserved for them */
    twins_update(test_events_status(p, p));
    twins_update(MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), p);
    uint32_t rebuilds = test_w.be.tree.rebuilds;
    for (uint32_t f = 0; f < 3u; f++) {
        twins_update(MBP_OK);
        CHECK_EQ(test_w.stats.tests, 0);
        CHECK_EQ(test_w.be.tree.inserts, 0);
        CHECK_EQ(test_w.be.tree.rebuilds, rebuilds);
        CHECK_EQ(mbp_pair_count(&test_w), k * (k - 1u) / 2u);
    }
    /* One moves off: an exact frame again, and its pairs end. */
    mbp_aabb off = tbox(40, 40, 44, 44);
    twins_move(0, &off);
    twins_update(MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), (k - 1u) * (k - 2u) / 2u);
}

TEST(tree_a_mostly_static_scene_reinserts_only_the_movers)
{
    twins_init(NULL);
    uint32_t n = TEST_BODIES;
    scene_start(n, 5u);
    twins_update(MBP_OK);
    uint32_t most = 0;
    for (uint32_t f = 0; f < 20u && !mbp_test_failed(); f++) {
        scene_step(n, f % 10u, 10u); /* a tenth of the bodies move each frame */
        twins_update(MBP_OK);
        most = test_w.be.tree.inserts > most ? test_w.be.tree.inserts : most;
    }
    CHECK(most <= n / 10u + 1u);
}

/* ---- a full pair set: the next frame rebuilds ---- */

TEST(tree_rebuilds_its_candidates_after_the_pair_set_overflowed)
{
    twins_init(NULL);
    uint32_t n = MBP_MAX_BODIES;
    /* Everyone on one spot: the first k with more pairs than the set holds (or every body). */
    uint32_t k = 1u;
    while (k < n && k * (k - 1u) / 2u <= MBP_MAX_PAIRS) {
        k++;
    }
    mbp_aabb spot = tbox(0, 0, 4, 4);
    for (uint32_t i = 0; i < k; i++) {
        twins_add(i, &spot);
    }
    mbp_status st = mbp_update(&test_w);
    (void)mbp_update(&test_w2);
    if (k * (k - 1u) / 2u > MBP_MAX_PAIRS) {
        CHECK_ST(st, MBP_E_PAIRS_FULL);
    }
    /* Spread them on a sparse grid: every pair ends and the frame after is exact again. */
    uint32_t before = test_w.be.tree.rebuilds;
    int32_t side = grid_side(k);
    for (uint32_t i = 0; i < k; i++) {
        int32_t x = (int32_t)i % side * 16, y = (int32_t)i / side * 16;
        mbp_aabb b = tbox(x, y, x + 4 + (int32_t)(i % 5u) * 3, y + 4);
        twins_move(i, &b);
    }
    /* The first frame may still overflow (last frame's pairs hold the set until its end), as it
     * would for brute force; within three frames both are exact, and from then on agree. */
    uint32_t f = 0;
    for (; f < 3u; f++) {
        st = mbp_update(&test_w);
        mbp_status sb = mbp_update(&test_w2);
        CHECK(st == MBP_OK || st == MBP_E_PAIRS_FULL);
        if (st == MBP_OK && sb == MBP_OK) {
            break;
        }
    }
    CHECK(f < 3u);
    if (k * (k - 1u) / 2u > MBP_MAX_PAIRS) {
        CHECK(test_w.be.tree.rebuilds > before);
    }
    twins_update(MBP_OK);
    for (f = 0; f < 5u; f++) {
        for (uint32_t i = 0; i < k; i++) {
            int32_t x = (int32_t)i % side * 16 + (int32_t)f * 2, y = (int32_t)i / side * 16;
            mbp_aabb b = tbox(x, y, x + 4 + (int32_t)(i % 5u) * 3, y + 4);
            twins_move(i, &b);
        }
        twins_update(MBP_OK);
    }
}

/* ---- parameters ---- */

TEST(tree_init_refuses_bad_parameters)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_TREE;
    p.tree_margin = -MBP_ONE;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    mbp_params_default(&p);
    p.backend = MBP_TREE;
    p.tree_margin_frac = 257u;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    mbp_params_default(&p);
    p.backend = MBP_TREE;
    p.tree_sweep = 17u;
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    mbp_params_default(&p);
    p.backend = MBP_TREE;
    p.tree_margin = MBP_RANGE;
    p.tree_margin_frac = 256u;
    p.tree_sweep = 16u;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK); /* the extremes are valid */
}

TEST(tree_extreme_margins_and_teleports_across_the_range_stay_exact)
{
    /* Margins as large as the range and displacements across all of it: the fat boxes clamp
     * to the range without overflow, and pairs stay exact. Zero margins: fat = exact boxes. */
    mbp_params p;
    mbp_params_default(&p);
    for (uint32_t v = 0; v < 2u && !mbp_test_failed(); v++) {
        p.tree_margin = v == 0u ? MBP_RANGE : 0;
        p.tree_margin_frac = v == 0u ? 256u : 0u;
        p.tree_sweep = v == 0u ? 16u : 0u;
        twins_init(&p);
        mbp_aabb far_lo, far_hi, mid = tbox(0, 0, 4, 4);
        for (int k = 0; k < MBP_DIM; k++) {
            far_lo.min[k] = -MBP_RANGE;
            far_lo.max[k] = (mbp_scalar)(-MBP_RANGE / 2);
            far_hi.min[k] = (mbp_scalar)(MBP_RANGE / 2);
            far_hi.max[k] = MBP_RANGE;
        }
        twins_add(0, &far_lo);
        twins_add(1, &far_hi);
        twins_add(2, &mid);
        twins_update(MBP_OK);
        twins_move(0, &far_hi);
        twins_move(1, &far_lo);
        twins_update(MBP_OK);
        twins_move(0, &mid);
        twins_update(MBP_OK);
        twins_move(0, &far_lo);
        twins_move(2, &far_lo);
        twins_update(MBP_OK);
        twins_remove(1);
        twins_update(MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 1); /* 0 and 2 on far_lo */
    }
}

/* ---- queries walk the tree ---- */

TEST(tree_box_point_and_ray_queries_equal_brute_force)
{
    twins_init(NULL);
    uint32_t n = TEST_BODIES;
    scene_start(n, 9u);
    int32_t e = scene_extent(n);
    static uint16_t qt[MBP_MAX_BODIES], qb[MBP_MAX_BODIES]; /* static: the M0 stack is small */
    static mbp_hit ht[MBP_MAX_BODIES], hb[MBP_MAX_BODIES];
    for (uint32_t f = 0; f < 8u && !mbp_test_failed(); f++) {
        twins_update(MBP_OK);
        scene_step(n, f % 3u, 3u); /* some bodies dirty during the queries */
        for (uint32_t r = 0; r < 10u; r++) {
            int32_t x0 = (int32_t)test_below(&g_rng, (uint32_t)e), y0 = (int32_t)test_below(&g_rng, (uint32_t)e);
            int32_t x1 = (int32_t)test_below(&g_rng, (uint32_t)e), y1 = (int32_t)test_below(&g_rng, (uint32_t)e);
            mbp_aabb q = tbox(x0 < x1 ? x0 : x1, y0 < y1 ? y0 : y1, x0 < x1 ? x1 : x0, y0 < y1 ? y1 : y0);
            uint32_t ct = 0, cb = 0;
            CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, qt, MBP_MAX_BODIES, &ct), MBP_OK);
            CHECK_ST(mbp_query_box(&test_w2, &q, 0xFFFFu, qb, MBP_MAX_BODIES, &cb), MBP_OK);
            CHECK_EQ(ct, cb);
            for (uint32_t k = 0; k < ct && k < cb; k++) {
                CHECK_EQ(qt[k], qb[k]);
            }
            CHECK_ST(mbp_query_point(&test_w, q.min, 0xFFFFu, qt, MBP_MAX_BODIES, &ct), MBP_OK);
            CHECK_ST(mbp_query_point(&test_w2, q.min, 0xFFFFu, qb, MBP_MAX_BODIES, &cb), MBP_OK);
            CHECK_EQ(ct, cb);
            for (uint32_t k = 0; k < ct && k < cb; k++) {
                CHECK_EQ(qt[k], qb[k]);
            }
            CHECK_ST(mbp_raycast(&test_w, q.min, q.max, 0xFFFFu, ht, MBP_MAX_BODIES, &ct), MBP_OK);
            CHECK_ST(mbp_raycast(&test_w2, q.min, q.max, 0xFFFFu, hb, MBP_MAX_BODIES, &cb), MBP_OK);
            CHECK_EQ(ct, cb);
            for (uint32_t k = 0; k < ct && k < cb; k++) {
                CHECK_EQ(ht[k].index, hb[k].index);
                CHECK(ht[k].t == hb[k].t);
            }
        }
    }
}
