/* SPDX-License-Identifier: MIT */
/* test_bp_grid.c: the cell backends (uniform grid, spatial hash, hierarchical grid) as a data
 * structure (mbp_bp.h), without a world. The three share one state type and the hooks
 * mbp__cells_*; only their init differs, so one state serves the three in turn. */
#include "test_util.h"

#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID
#include "mbp_cells.h"

static mbp_grid_state g_cells;

#define BP_ADD(i, box) mbp__cells_add(&g_cells, i, box)
#define BP_MOVE(i, old, box) mbp__cells_move(&g_cells, i, old, box)
#define BP_REMOVE(i, last) mbp__cells_remove(&g_cells, i, last)
#define BP_UPDATE(v, out) mbp__cells_update(&g_cells, v, out)
#define BP_QUERY(v, box, fn, c) mbp__cells_query(&g_cells, v, box, fn, c)
#include "bp_harness.h"

/* state.pin (mbp_grid.h): the frame mode, chosen by cost, incremental whenever the candidates
 * fit, or full frames only. */
#define PIN_COST 0u
#define PIN_INCR 1u
#define PIN_FULL 2u

/* The pair-set levels of mbp_cells_update.c: incremental frames start only when the candidates fill at
 * most LOW of the set, and end when it holds more than HIGH at an update. */
#define LOW ((uint32_t)MBP_MAX_PAIRS - (uint32_t)MBP_MAX_PAIRS / 4u)
#define HIGH ((uint32_t)MBP_MAX_PAIRS - (uint32_t)MBP_MAX_PAIRS / 8u)

/* Empties g_cells as backend b (MBP_GRID, MBP_HASH or MBP_HGRID) with cells of 'cell' units
 * (a grid of the largest square that fits, centred on 0) and 'buckets' list heads for the hash
 * and hgrid (0: the default); false when b is not compiled in. */
static bool cells_start(mbp_backend b, int32_t cell, uint32_t buckets, uint8_t pin)
{
    mbp_params p;
    mbp_params_default(&p);
    p.cell_size = mbp_from_int(cell);
    if (buckets != 0u) {
        p.hash_buckets = buckets;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        p.grid_origin[k] = mbp_from_int(-(int32_t)p.grid_cells[k] * cell / 2);
    }
    mbp_status st = MBP_E_BACKEND;
    switch (b) {
#if MBP_WITH_GRID
    case MBP_GRID:
        st = mbp__grid_init(&g_cells, &p);
        break;
#endif
#if MBP_WITH_HASH
    case MBP_HASH:
        st = mbp__hash_init(&g_cells, &p);
        break;
#endif
#if MBP_WITH_HGRID
    case MBP_HGRID:
        st = mbp__hgrid_init(&g_cells, &p);
        break;
#endif
    default:
        break;
    }
    g_cells.pin = pin;
    return st == MBP_OK;
}

static const mbp_backend g_modes[3] = {MBP_GRID, MBP_HASH, MBP_HGRID};

/* Random scenes for backend b in every frame mode; returns the wrong updates. */
static uint32_t cells_random(mbp_backend b, int32_t cell, uint32_t buckets, int32_t size,
                             bool need_room)
{
    uint32_t wrong = 0u;
    for (uint8_t pin = 0; pin < 3u; pin++) {
        for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
            if (!cells_start(b, cell, buckets, pin)) {
                return 0u; /* not compiled in */
            }
            uint32_t noroom;
            /* Full frames store only overlapping pairs: exact. */
            wrong += bp_random_run(&g_bp, seed + 10u * pin, TEST_BODIES / 2u, TEST_FRAMES, 160,
                                   size, pin == PIN_FULL, &noroom);
            wrong += need_room && noroom != 0u ? 1u : 0u;
        }
    }
    return wrong;
}

TEST(bp_cells_random_scenes_hold_every_overlapping_pair_in_every_frame_mode)
{
    /* Cells of 4 units, boxes up to 3: at most 2 cells per axis, the entries always suffice. */
    for (uint32_t m = 0; m < 3u; m++) {
        CHECK_EQ(cells_random(g_modes[m], 4, 0u, 12, true), 0);
    }
}

TEST(bp_cells_random_scenes_with_small_cells_and_few_buckets_stay_right_when_entries_run_out)
{
    /* Cells of 1 unit: boxes cover up to 16 cells (some large, some refused for want of
     * entries: the harness keeps the old box, as the world does); 4 buckets: cells collide. */
    for (uint32_t m = 0; m < 3u; m++) {
        CHECK_EQ(cells_random(g_modes[m], 1, 4u, 16, false), 0);
    }
}

/* A box of s x s cells of 1 unit from (x, y) (one cell deep on the axes after the second). */
static mbp_aabb cells_box(int32_t x, int32_t y, int32_t s)
{
    mbp_aabb b = box2(x, y, x + s - 1, y + s - 1);
    for (int k = 2; k < MBP_DIM; k++) {
        b.min[k] = 0;
        b.max[k] = mbp_from_ratio(1, 2);
    }
    b.max[0] = b.max[0] + mbp_from_ratio(1, 2);
    b.max[1] = b.max[1] + mbp_from_ratio(1, 2);
    return b;
}

TEST(bp_cells_a_full_entry_pool_refuses_adds_and_growing_moves_until_entries_are_freed)
{
    /* The hash: unbounded, so a body takes exactly the entries of its cells. */
    if (!cells_start(MBP_HASH, 1, 0u, PIN_COST)) {
        return;
    }
    bp_reset(&g_bp, 3u);
    /* Boxes of 3 x 3 cells, apart: 9 entries each, until the pool is short. */
    uint16_t n = 0u;
    mbp_status st = MBP_OK;
    while (n < MBP_MAX_BODIES && st == MBP_OK) {
        mbp_aabb b = cells_box(4 * (int32_t)(n % 8u), 4 * (int32_t)(n / 8u), 3);
        st = bp_add(&g_bp, n, &b);
        n = (uint16_t)(n + (st == MBP_OK ? 1u : 0u));
    }
    CHECK_ST(st, MBP_E_NOROOM);
    CHECK_EQ(n, (uint32_t)MBP_GRID_MAX_ENTRIES / 9u);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(bp_pairs_ok(&g_bp, false));
    /* Growing body 0 to 4 x 4 cells needs 7 entries more than it holds. */
    mbp_aabb big = cells_box(0, 0, 4);
    if ((uint32_t)MBP_GRID_MAX_ENTRIES % 9u < 7u) {
        CHECK_ST(bp_move(&g_bp, 0, &big), MBP_E_NOROOM);
        CHECK_EQ(g_bp.box[0].max[0], cells_box(0, 0, 3).max[0]); /* the old box stays */
    }
    /* Shrinking body 1 to one cell frees 8: now body 0 fits, and the update applies both. */
    mbp_aabb small = cells_box(4, 0, 1);
    CHECK_ST(bp_move(&g_bp, 1, &small), MBP_OK);
    CHECK_ST(bp_move(&g_bp, 0, &big), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(bp_pairs_ok(&g_bp, false));
    /* Removing a body gives its entries back. */
    bp_remove(&g_bp, 2);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    mbp_aabb b = cells_box(100, 100, 3);
    CHECK_ST(bp_add(&g_bp, 2, &b), MBP_OK);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK(bp_pairs_ok(&g_bp, false));
    CHECK_EQ(g_cells.spare, g_cells.free_count); /* no promise outstanding after an update */
}

/* The smallest cluster whose pairs, all in one cell, number more than 'pairs'. */
static uint32_t cluster_over(uint32_t pairs)
{
    uint32_t c = 1u;
    while (c * (c - 1u) / 2u <= pairs) {
        c++;
    }
    return c;
}

/* Bodies 0..c-1 in one cell (the same box), the others from c on, each alone in its own cell
 * (the hash: unbounded, no border cells shared). */
static void cells_cluster(uint32_t c, uint32_t total)
{
    bp_reset(&g_bp, 5u);
    for (uint16_t i = 0; i < total; i++) {
        uint32_t j = i < c ? 0u : i - c + 1u;
        int32_t x = 4 * (int32_t)(j % 8u) + 1, y = 4 * (int32_t)(j / 8u) + 1;
        mbp_aabb b = box2(x, y, x + 1, y + 1);
        CHECK_ST(bp_add(&g_bp, i, &b), MBP_OK);
    }
}

/* Moves bodies from..to-1 into the cluster's box. */
static void cells_join(uint32_t from, uint32_t to)
{
    mbp_aabb b = box2(1, 1, 2, 2);
    for (uint16_t i = (uint16_t)from; i < to; i++) {
        CHECK_ST(bp_move(&g_bp, i, &b), MBP_OK);
    }
}

TEST(bp_cells_incremental_frames_end_when_the_candidates_fill_the_pair_set_past_its_high_water)
{
    uint32_t c1 = cluster_over(LOW) - 1u, c2 = cluster_over(HIGH);
    if (c2 * (c2 - 1u) / 2u > (uint32_t)MBP_MAX_PAIRS || c2 > MBP_MAX_BODIES ||
        !cells_start(MBP_HASH, 4, 0u, PIN_INCR)) {
        return;
    }
    cells_cluster(c1, c2);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_cells.incr, 1); /* the cluster's pairs fit under LOW */
    cells_join(c1, c2);
    CHECK_ST(bp_update(&g_bp), MBP_OK); /* reported incrementally: over HIGH, still stored */
    CHECK_EQ(g_cells.incr, 1);
    CHECK_EQ(g_bp.ps.count, c2 * (c2 - 1u) / 2u);
    CHECK(bp_pairs_ok(&g_bp, true));
    CHECK_ST(bp_update(&g_bp), MBP_OK); /* over HIGH at an update: full frames */
    CHECK_EQ(g_cells.incr, 0);
    CHECK(bp_pairs_ok(&g_bp, true));
}

TEST(bp_cells_full_frames_stay_full_when_the_candidates_counted_exceed_the_low_water)
{
    /* c bodies apart (no pair stored), then all in one cell: more than LOW candidates, though
     * they would fit the empty set. */
    uint32_t c = cluster_over(LOW);
    if (c > MBP_MAX_BODIES || c * (c - 1u) / 2u > (uint32_t)MBP_MAX_PAIRS ||
        !cells_start(MBP_HASH, 4, 0u, PIN_FULL)) {
        return;
    }
    cells_cluster(1u, c);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, 0);
    g_cells.pin = PIN_INCR; /* incremental as soon as the candidates fit */
    cells_join(1u, c);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_cells.incr, 0);
    CHECK(bp_pairs_ok(&g_bp, true));
}

TEST(bp_cells_full_frames_stay_full_when_the_candidates_do_not_fit_beside_the_stored_pairs)
{
    /* c0 bodies overlapping (their pairs stored), then c1 <= LOW candidates counted: together
     * more than the set holds. */
    uint32_t c1 = cluster_over(LOW) - 1u, c0 = 2u;
    while (c0 * (c0 - 1u) / 2u + c1 * (c1 - 1u) / 2u <= (uint32_t)MBP_MAX_PAIRS) {
        c0++;
    }
    if (c0 > c1 || c1 > MBP_MAX_BODIES || !cells_start(MBP_HASH, 4, 0u, PIN_FULL)) {
        return;
    }
    cells_cluster(c0, c1);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_bp.ps.count, c0 * (c0 - 1u) / 2u);
    g_cells.pin = PIN_INCR;
    cells_join(c0, c1);
    CHECK_ST(bp_update(&g_bp), MBP_OK);
    CHECK_EQ(g_cells.incr, 0);
    CHECK(bp_pairs_ok(&g_bp, true));
}

TEST(bp_cells_inits_refuse_bad_parameters)
{
    mbp_params p;
    mbp_params_default(&p);
    p.cell_size = 0;
#if MBP_WITH_GRID
    CHECK_ST(mbp__grid_init(&g_cells, &p), MBP_E_PARAM);
#endif
#if MBP_WITH_HASH
    CHECK_ST(mbp__hash_init(&g_cells, &p), MBP_E_PARAM);
#endif
#if MBP_WITH_HGRID
    mbp_params_default(&p);
    p.hash_buckets = 3u; /* not a power of two */
    CHECK_ST(mbp__hgrid_init(&g_cells, &p), MBP_E_PARAM);
#endif
#if MBP_WITH_GRID
    mbp_params_default(&p);
    p.grid_cells[0] = 0u;
    CHECK_ST(mbp__grid_init(&g_cells, &p), MBP_E_PARAM);
#endif
}

#if MBP_SCALAR == MBP_FIXED && MBP_WITH_GRID
TEST(bp_cells_map_by_shifts_only_when_the_cell_is_a_power_of_two)
{
    mbp_params p;
    mbp_params_default(&p);
    p.cell_size = 16; /* raw units */
    CHECK_ST(mbp__grid_init(&g_cells, &p), MBP_OK);
    CHECK_EQ(g_cells.cell.edge, 16u);
    CHECK_EQ(g_cells.cell.shift, 4);
    p.cell_size = 24;
    CHECK_ST(mbp__grid_init(&g_cells, &p), MBP_OK);
    CHECK_EQ(g_cells.cell.shift, -1);
    p.cell_size = MBP_ONE;
    CHECK_ST(mbp__grid_init(&g_cells, &p), MBP_OK);
    CHECK_EQ(g_cells.cell.shift, MBP_FIXED_FRAC_BITS);
}
#endif
#endif
