/* SPDX-License-Identifier: MIT */
/* test_cover_backends.c: backend paths that the other test files do not take, found with
 * `make coverage` (docs/coverage.md lists what stays unreached and why): the sweep with no body
 * and before its first update, parameters out of range, the tree's only body removed, SAP's
 * quantization box (MBP_SAP_QUANTIZED) at its borders, the volume tests' last cases, the
 * internal key sort without payload, and the grid leaving incremental frames (pinned to full
 * ones, or when a frame fills the pair set with moves still pending). Small worlds, in test_w and test_w2 only: these run on the
 * 16 KB micro:bit too. */
#include "diff.h"
#include "test_util.h"
#include "cover/twin.h"
#include "mbp_internal.h" /* mbp__sort_keys() */

static mbp_status cb_init(mbp_world *w, const mbp_params *p)
{
    return mbp_init(w, p);
}

static void cb_params(mbp_params *p, mbp_backend b)
{
    mbp_params_default(p);
    p->backend = b;
}

/* The query's bodies, ascending, must be exactly want[0..n). */
static void cb_query_is(mbp_world *w, const mbp_aabb *q, const uint16_t *want, uint32_t n)
{
    uint16_t idx[8];
    uint32_t count = 0u;
    CHECK_ST(mbp_query_box(w, q, 0xFFFFu, idx, 8u, &count), MBP_OK);
    CHECK_EQ(count, n);
    for (uint32_t k = 0; k < n && k < count; k++) {
        CHECK_EQ(idx[k], want[k]);
    }
}

TEST(the_sweep_answers_exactly_with_no_body_and_before_its_first_update)
{
    for (uint8_t axis = 0u; axis <= MBP_DIM; axis++) {
        mbp_params p;
        cb_params(&p, MBP_SWEEP);
        p.sweep_axis = axis < MBP_DIM ? axis : MBP_AXIS_AUTO;
        mbp_world *w = &test_w;
        CHECK_ST(cb_init(w, &p), MBP_OK);
        /* No body at all. */
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK_EQ(mbp_pair_count(w), 0);
        mbp_aabb all = box2(-10, -10, 10, 10);
        cb_query_is(w, &all, NULL, 0u);
        /* Bodies added, queried before any update has sorted them. */
        mbp_aabb a = box2(0, 0, 2, 2), b = box2(1, 1, 3, 3), c = box2(6, 6, 7, 7);
        mbp_body ha, hb, hc;
        CHECK_ST(mbp_add_box(w, &a, 0u, &ha), MBP_OK);
        CHECK_ST(mbp_add_box(w, &b, 0u, &hb), MBP_OK);
        CHECK_ST(mbp_add_box(w, &c, 0u, &hc), MBP_OK);
        const uint16_t ab[] = {mbp_index(ha), mbp_index(hb)};
        mbp_aabb q = box2(0, 0, 2, 2);
        cb_query_is(w, &q, ab, 2u);
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK_EQ(mbp_pair_count(w), 1);
        cb_query_is(w, &q, ab, 2u);
        /* Every body removed: the pair ends, and the next updates run on an empty sweep. */
        CHECK_ST(mbp_remove(w, ha), MBP_OK);
        CHECK_ST(mbp_remove(w, hb), MBP_OK);
        CHECK_ST(mbp_remove(w, hc), MBP_OK);
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK_EQ(mbp_get_stats(w)->ended, 1);
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK_EQ(mbp_pair_count(w), 0);
        CHECK_EQ(mbp_get_stats(w)->ended + mbp_get_stats(w)->begun, 0);
        cb_query_is(w, &all, NULL, 0u);
    }
    mbp_params p;
    cb_params(&p, MBP_SWEEP);
    p.sweep_axis = MBP_DIM; /* neither an axis nor MBP_AXIS_AUTO */
    CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
}

TEST(the_cell_backends_refuse_cell_sizes_and_grids_out_of_range)
{
#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID
#if MBP_SCALAR == MBP_FIXED
    const mbp_scalar bad_size[] = {0, -1, MBP_RANGE + 1, INT32_MAX, INT32_MIN};
    const mbp_scalar good_size[] = {1, MBP_ONE, MBP_RANGE};
    const mbp_scalar bad_origin[] = {MBP_RANGE + 1, INT32_MIN};
#else
    volatile float zero = 0.0f;
    const mbp_scalar bad_size[] = {0.0f, -1.0f, 1.0f / 2199023255552.0f /* 2^-41 */,
                                   MBP_RANGE * 2.0f, zero / zero, 1.0f / zero};
    const mbp_scalar good_size[] = {1.0f / 1099511627776.0f /* 2^-40 */, 1.0f, MBP_RANGE};
    const mbp_scalar bad_origin[] = {-MBP_RANGE * 2.0f, zero / zero};
#endif
    static const mbp_backend cells[] = {
#if MBP_WITH_GRID
        MBP_GRID,
#endif
#if MBP_WITH_HASH
        MBP_HASH,
#endif
#if MBP_WITH_HGRID
        MBP_HGRID,
#endif
    };
    mbp_params p;
    for (uint32_t kb = 0; kb < sizeof cells / sizeof cells[0]; kb++) {
        for (uint32_t k = 0; k < sizeof bad_size / sizeof bad_size[0]; k++) {
            cb_params(&p, cells[kb]);
            p.cell_size = bad_size[k];
            CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
        }
        for (uint32_t k = 0; k < sizeof good_size / sizeof good_size[0]; k++) {
            cb_params(&p, cells[kb]);
            p.cell_size = good_size[k];
            CHECK_ST(cb_init(&test_w, &p), MBP_OK);
            /* Any cell size pairs exactly: two touching boxes and one apart. */
            mbp_aabb a = box2(0, 0, 1, 1), b = box2(1, 1, 2, 2), c = box2(3, 0, 4, 1);
            mbp_body h;
            CHECK_ST(mbp_add_box(&test_w, &a, 0u, &h), MBP_OK);
            CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h), MBP_OK);
            CHECK_ST(mbp_add_box(&test_w, &c, 0u, &h), MBP_OK);
            mbp_status st = mbp_update(&test_w);
            /* A tiny cell makes every body large (tested against all): never an entry shortage. */
            CHECK_ST(st, MBP_OK);
            CHECK_EQ(mbp_pair_count(&test_w), 1);
        }
        if (cells[kb] == MBP_GRID) {
            for (int axis = 0; axis < MBP_DIM; axis++) {
                for (uint32_t k = 0; k < sizeof bad_origin / sizeof bad_origin[0]; k++) {
                    cb_params(&p, MBP_GRID);
                    p.grid_origin[axis] = bad_origin[k];
                    CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
                }
                cb_params(&p, MBP_GRID);
                p.grid_cells[axis] = 0u;
                CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
#if MBP_GRID_MAX_CELLS < 65535
                cb_params(&p, MBP_GRID);
                p.grid_cells[axis] = (uint16_t)(MBP_GRID_MAX_CELLS + 1); /* more than allowed */
                CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
#endif
            }
        } else {
            const uint32_t bad_buckets[] = {0u, 3u, (uint32_t)MBP_HASH_BUCKETS * 2u};
            for (uint32_t k = 0; k < sizeof bad_buckets / sizeof bad_buckets[0]; k++) {
                cb_params(&p, cells[kb]);
                p.hash_buckets = bad_buckets[k];
                CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
            }
            cb_params(&p, cells[kb]);
            p.hash_buckets = 1u;
            CHECK_ST(cb_init(&test_w, &p), MBP_OK);
        }
    }
#endif
}

TEST(the_tree_empties_and_fills_again_when_its_only_body_is_removed)
{
#if MBP_WITH_TREE
    mbp_params p;
    cb_params(&p, MBP_TREE);
    mbp_world *w = &test_w;
    CHECK_ST(cb_init(w, &p), MBP_OK);
    mbp_aabb a = box2(0, 0, 2, 2), b = box2(1, 1, 3, 3);
    mbp_body ha, hb;
    for (uint32_t round = 0; round < 3u; round++) {
        CHECK_ST(mbp_add_box(w, &a, round, &ha), MBP_OK);
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK(mbp__tree_valid(&w->be.tree));
        CHECK_EQ(mbp__tree_height(&w->be.tree), 0);
        CHECK_ST(mbp_remove(w, ha), MBP_OK); /* the root leaf */
        CHECK(mbp__tree_valid(&w->be.tree));
        const uint16_t none[1] = {0u};
        cb_query_is(w, &a, none, 0u);
        CHECK_ST(mbp_update(w), MBP_OK);
        CHECK_EQ(mbp_pair_count(w), 0);
    }
    /* And it still pairs. */
    CHECK_ST(mbp_add_box(w, &a, 0u, &ha), MBP_OK);
    CHECK_ST(mbp_add_box(w, &b, 0u, &hb), MBP_OK);
    CHECK_ST(mbp_update(w), MBP_OK);
    CHECK_EQ(mbp_get_stats(w)->begun, 1);
    CHECK(mbp__tree_valid(&w->be.tree));
    CHECK_EQ(mbp__tree_height(&w->be.tree), 1);
#endif
}

TEST(the_tree_refuses_a_margin_beyond_the_range)
{
#if MBP_WITH_TREE
    mbp_params p;
    cb_params(&p, MBP_TREE);
#if MBP_SCALAR == MBP_FIXED
    p.tree_margin = MBP_RANGE + 1;
#else
    p.tree_margin = MBP_RANGE * 2.0f;
#endif
    CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
#if MBP_SCALAR == MBP_FLOAT
    volatile float zero = 0.0f;
    p.tree_margin = zero / zero;
    CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
#endif
    p.tree_margin = MBP_RANGE; /* the largest allowed */
    CHECK_ST(cb_init(&test_w, &p), MBP_OK);
    mbp_aabb a = box2(0, 0, 1, 1), b = box2(3, 3, 4, 4);
    mbp_body h;
    CHECK_ST(mbp_add_box(&test_w, &a, 0u, &h), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 0); /* huge fat boxes, exact pairs */
#endif
}

TEST(box_containment_fails_on_any_side_of_any_axis)
{
    mbp_aabb outer = box2(0, 0, 10, 10);
    CHECK(mbp_aabb_contains(&outer, &outer)); /* borders included */
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_aabb in = box2(2, 2, 8, 8);
        CHECK(mbp_aabb_contains(&outer, &in));
        in.min[k] = mbp_from_int(-1);
        CHECK(!mbp_aabb_contains(&outer, &in));
        in = box2(2, 2, 8, 8);
        in.max[k] = mbp_from_int(11);
        CHECK(!mbp_aabb_contains(&outer, &in));
        in = box2(2, 2, 8, 8);
        in.max[k] = mbp_from_int(10);
        CHECK(mbp_aabb_contains(&outer, &in));
    }
}

TEST(the_pair_sort_orders_pairs_with_or_without_payload)
{
    static const uint16_t ab[9][2] = {{0, 7}, {0, 3}, {0xFFFEu, 0xFFFFu}, {0, 0}, {0, 3},
                                      {1, 2},  {0, 9}, {0, 1},           {2, 1}};
    mbp_pair p[9], copy[9];
    uint8_t pay[9];
    for (uint32_t i = 0; i < 9u; i++) {
        p[i].a = ab[i][0];
        p[i].b = ab[i][1];
        pay[i] = (uint8_t)(mbp__pkey(&p[i]) * 7u);
        copy[i] = p[i];
    }
    mbp__sort_pairs(p, pay, 9u);
    mbp__sort_pairs(copy, NULL, 9u);
    for (uint32_t i = 0; i < 9u; i++) {
        CHECK_EQ(mbp__pkey(&p[i]), mbp__pkey(&copy[i]));
        CHECK_EQ(pay[i], (uint8_t)(mbp__pkey(&p[i]) * 7u)); /* each payload byte moved with its pair */
        if (i > 0u) {
            CHECK(mbp__pkey(&p[i - 1u]) <= mbp__pkey(&p[i]));
        }
    }
    CHECK_EQ(mbp__pkey(&p[0]), 0);
    CHECK(mbp__pkey(&p[8]) == 0xFFFEFFFFu);
    mbp__sort_pairs(copy, NULL, 0u); /* nothing to sort */
    mbp__sort_pairs(copy, NULL, 1u);
    CHECK_EQ(copy[0].b, 0);
}

/* The events' sort (no payload, its own copy of the heap sort) orders as the general one, at
 * every length from 0 past the insertion sort's 16, on keys with repeats and both 16-bit halves
 * in use. */
TEST(the_event_sort_orders_as_the_pair_sort)
{
    static mbp_pair ev[100], ref[100];
    uint32_t x = 0x2545F491u;
    for (uint32_t n = 0; n <= 100u; n++) {
        for (uint32_t i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            ev[i].a = (uint16_t)(x % 23u * 2851u);
            ev[i].b = (uint16_t)(x >> 16);
            ref[i] = ev[i];
        }
        mbp__sort_events(ev, n);
        mbp__sort_pairs(ref, NULL, n);
        for (uint32_t i = 0; i < n; i++) {
            CHECK(ev[i].a == ref[i].a && ev[i].b == ref[i].b);
            CHECK(i == 0u || mbp__pkey(&ev[i - 1u]) <= mbp__pkey(&ev[i]));
        }
    }
}

#if MBP_WITH_SAP && MBP_SAP_QUANTIZED
/* Both worlds hold the same pairs (sorted), and the same events when neither buffer overflowed. */
static void cb_same(mbp_status s1, mbp_status s2)
{
    CHECK_ST(s1, s2);
    CHECK(s1 == MBP_OK || s1 == MBP_E_EVENTS_FULL);
    CHECK(twin_same(s1 == MBP_OK));
}
#endif

TEST(quantized_sap_pairs_exactly_on_and_past_the_borders_of_its_box)
{
#if MBP_WITH_SAP && MBP_SAP_QUANTIZED
    mbp_params p;
    cb_params(&p, MBP_SAP);
    /* The default box: +-1024 units, clamped to the range. */
    const mbp_scalar half = MBP_RANGE / MBP_ONE >= 1024 ? mbp_from_int(1024) : MBP_RANGE;
    for (int k = 0; k < MBP_DIM; k++) {
        CHECK(p.sap_world.min[k] == -half && p.sap_world.max[k] == half);
    }
    /* Boxes whose min and max are not ordered: refused. */
    p.sap_world.max[0] = p.sap_world.min[0];
    CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
    cb_params(&p, MBP_SAP);
    p.sap_world.min[MBP_DIM - 1] = mbp_from_int(5);
    p.sap_world.max[MBP_DIM - 1] = mbp_from_int(4);
    CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
#if MBP_SCALAR == MBP_FLOAT
    cb_params(&p, MBP_SAP);
    p.sap_world.min[0] = 0.0f;
    p.sap_world.max[0] = 1e-37f; /* 65532 / 1e-37 overflows a float */
    CHECK_ST(cb_init(&test_w, &p), MBP_E_PARAM);
#endif
    /* Quantization boxes of many sizes, with bodies inside, on the borders and past them: the
     * same pairs as brute force, and the same events. Coordinates within +-50 units. */
    uint32_t rng = 12345u;
    for (int32_t span = 1; span <= 13; span++) {
        cb_params(&p, MBP_SAP);
        for (int k = 0; k < MBP_DIM; k++) {
            p.sap_world.min[k] = mbp_from_int(-span);
            p.sap_world.max[k] = mbp_from_ratio(span * 7, 3);
        }
        mbp_params pb = p;
        pb.backend = MBP_BRUTE;
        CHECK_ST(cb_init(&test_w, &p), MBP_OK);
        CHECK_ST(cb_init(&test_w2, &pb), MBP_OK);
        for (uint32_t i = 0; i < 5u; i++) {
            mbp_body h1, h2;
            mbp_aabb b = box2(0, 0, 1, 1);
            CHECK_ST(mbp_add_box(&test_w, &b, i, &h1), MBP_OK);
            CHECK_ST(mbp_add_box(&test_w2, &b, i, &h2), MBP_OK);
        }
        cb_same(mbp_update(&test_w), mbp_update(&test_w2));
        for (uint32_t frame = 0; frame < 4u; frame++) {
            for (uint16_t i = 0; i < 5u; i++) {
                /* x from beyond the min to beyond the max, and exactly on both borders. */
                int32_t lo = (int32_t)test_below(&rng, (uint32_t)(4 * span + 8)) - span - 4;
                mbp_aabb b = box2(lo, 0, lo + 1 + (int32_t)test_below(&rng, 3u), 1);
                if (i == 0u) {
                    b.min[0] = b.max[0] = p.sap_world.max[0];
                } else if (i == 1u) {
                    b.min[0] = p.sap_world.min[0];
                    b.max[0] = p.sap_world.min[0] + MBP_ONE / 2;
                }
                CHECK_ST(mbp_move_box(&test_w, mbp_handle(&test_w, i), &b), MBP_OK);
                CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, i), &b), MBP_OK);
            }
            cb_same(mbp_update(&test_w), mbp_update(&test_w2));
            mbp_aabb q = box2(-span, 0, span, 1);
            uint16_t i1[8], i2[8];
            uint32_t c1, c2;
            CHECK_ST(mbp_query_box(&test_w, &q, 0xFFFFu, i1, 8u, &c1), MBP_OK);
            CHECK_ST(mbp_query_box(&test_w2, &q, 0xFFFFu, i2, 8u, &c2), MBP_OK);
            CHECK_EQ(c1, c2);
            for (uint32_t k = 0; k < c1 && k < c2; k++) {
                CHECK_EQ(i1[k], i2[k]);
            }
        }
        if (mbp_test_failed()) {
            return;
        }
    }
#if MBP_SCALAR == MBP_FLOAT
    /* A box size for which 65532 / size * size rounds above 65532 in float: a max on the
     * border then maps past the last step (clamped to it). Such bodies still pair exactly. */
    float size = 0.0f;
    for (uint32_t k = 3u; k < 4000u && size == 0.0f; k++) {
        volatile float sz = (float)k / 7.0f;
        volatile float scale = 65532.0f / sz;
        volatile float f = sz * scale;
        size = f > 65532.0f ? sz : 0.0f;
    }
    CHECK(size > 0.0f);
    cb_params(&p, MBP_SAP);
    for (int k = 0; k < MBP_DIM; k++) {
        p.sap_world.min[k] = 0.0f;
        p.sap_world.max[k] = size;
    }
    mbp_params pb = p;
    pb.backend = MBP_BRUTE;
    CHECK_ST(cb_init(&test_w, &p), MBP_OK);
    CHECK_ST(cb_init(&test_w2, &pb), MBP_OK);
    const float lo[4] = {size, size - 1.0f, size, size + 0.5f};
    const float hi[4] = {size, size - 0.25f, size + 1.0f, size + 2.0f};
    for (uint32_t i = 0; i < 4u; i++) {
        mbp_aabb b;
        for (int k = 0; k < MBP_DIM; k++) {
            b.min[k] = lo[i];
            b.max[k] = hi[i];
        }
        mbp_body h1, h2;
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h1), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w2, &b, i, &h2), MBP_OK);
    }
    cb_same(mbp_update(&test_w), mbp_update(&test_w2));
    CHECK_EQ(mbp_pair_count(&test_w), 2); /* 0-2 (touching) and 2-3 */
#endif
#endif
}

#if MBP_WITH_GRID
/* The grid pinned to incremental frames (state.pin, as tests/cells_twin.h does), with brute
 * force in test_w2; bodies added to both. */
static void cb_grid_incremental(void)
{
    mbp_params p;
    cb_params(&p, MBP_GRID);
    CHECK_ST(cb_init(&test_w, &p), MBP_OK);
    test_w.be.grid.pin = 1u;
    p.backend = MBP_BRUTE;
    CHECK_ST(cb_init(&test_w2, &p), MBP_OK);
}

/* Both updated: the same status, pairs stored and pairs lost (brute force counts exactly). */
static void cb_same_count(void)
{
    mbp_status s1 = mbp_update(&test_w), s2 = mbp_update(&test_w2);
    CHECK_ST(s1, s2);
    CHECK_EQ(mbp_pair_count(&test_w), mbp_pair_count(&test_w2));
    CHECK_EQ(mbp_get_stats(&test_w)->lost_pairs, mbp_get_stats(&test_w2)->lost_pairs);
}
#endif

TEST(the_grid_leaves_incremental_frames_when_pinned_to_full_ones)
{
#if MBP_WITH_GRID
    cb_grid_incremental();
    for (int32_t i = 0; i < 4; i++) {
        mbp_aabb b = box2(2 * i, 0, 2 * i + 2, 1); /* 0-1, 1-2, 2-3 touch */
        twin_add(&b);
    }
    cb_same_count(); /* counts the candidates, then turns incremental */
    CHECK_EQ(mbp_pair_count(&test_w), 3);
    CHECK_EQ(test_w.be.grid.incr, 1);
    test_w.be.grid.pin = 2u;
    mbp_aabb b = box2(1, 0, 2, 1); /* body 3 onto 0 and 1 */
    twin_move(3u, &b);
    cb_same_count();
    CHECK_EQ(test_w.be.grid.incr, 0);
    CHECK_EQ(mbp_pair_count(&test_w), 4); /* 0-1, 1-2, 0-3, 1-3 */
#endif
}

TEST(the_grid_abandons_an_incremental_frame_that_fills_the_pair_set_with_more_moves_pending)
{
#if MBP_WITH_GRID
    /* A cluster of c bodies in one cell (its candidates fit the incremental mode), then m more
     * bodies move into it in one update: the candidates of the first ones fill the pair set,
     * the frame runs as a full one, and the moves after the one that filled it are applied
     * without reports. */
    const uint32_t low = MBP_MAX_PAIRS - MBP_MAX_PAIRS / 4u;
    uint32_t c = 2u;
    while ((c + 1u) * c / 2u <= low) {
        c++;
    }
    uint32_t m = 0u, cand = c * (c - 1u) / 2u;
    while (cand <= MBP_MAX_PAIRS) {
        cand += c + m;
        m++;
    }
    m++; /* one more after the move that fills the set */
    if (c + m > MBP_MAX_BODIES || 5u * m + 4u > 60u) {
        return; /* too few bodies, or coordinates past 60 units (64 is the range of cov_small) */
    }
    cb_grid_incremental();
    for (uint32_t i = 0; i < c; i++) {
        mbp_aabb b = box2(0, 0, 1, 1);
        twin_add(&b);
    }
    for (uint32_t j = 0; j < m; j++) { /* each alone in its cell */
        mbp_aabb b = box2(8 + 5 * (int32_t)j, 30, 9 + 5 * (int32_t)j, 31);
        twin_add(&b);
    }
    cb_same_count();
    CHECK_EQ(test_w.be.grid.incr, 1);
    for (uint32_t j = 0; j < m; j++) {
        mbp_aabb b = box2(0, 0, 1, 1);
        twin_move((uint16_t)(c + j), &b);
    }
    cb_same_count(); /* MBP_E_PAIRS_FULL in both, the same count lost */
    CHECK_EQ(test_w.be.grid.incr, 0);
    CHECK(mbp_get_stats(&test_w)->lost_pairs > 0u);
#endif
}

#if MBP_WITH_BRUTE || MBP_WITH_SWEEP
/* A pile of c bodies whose c(c-1)/2 pairs fit the set, and 7 bodies apart; then one of those moves
 * onto the pile, in a few-moved update: its c new pairs do not all fit. */
static void cb_few_movers_overflow(mbp_backend be, uint32_t c)
{
    mbp_params p;
    cb_params(&p, be);
    p.sweep_axis = 0u; /* a fixed axis: the few-moved update is not traded for a new axis */
    CHECK_ST(cb_init(&test_w, &p), MBP_OK);
    mbp_aabb pile = box2(0, 0, 1, 1);
    mbp_body h;
    for (uint32_t i = 0; i < c; i++) {
        CHECK_ST(mbp_add_box(&test_w, &pile, 0u, &h), MBP_OK);
    }
    for (int32_t j = 0; j < 7; j++) {
        mbp_aabb b = box2(8 + 5 * j, 30, 9 + 5 * j, 31);
        CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h), MBP_OK);
    }
    const uint32_t before = c * (c - 1u) / 2u, after = c * (c + 1u) / 2u;
    /* The pile's pairs all begin at once: more events than the pair set's free entries and
     * MBP_MAX_EVENTS hold (cov_small's 32 pairs and 8 events), which says so; the pairs are
     * stored all the same. */
    CHECK_ST(mbp_update(&test_w), test_events_status(before, before));
    CHECK_EQ(mbp_pair_count(&test_w), before);
    mbp_body mover = mbp_handle(&test_w, (uint16_t)c);
    CHECK_ST(mbp_move_box(&test_w, mover, &pile), MBP_OK);
    /* The set fills: every pair stored is true, every true one stored or counted lost. */
    CHECK_ST(mbp_update(&test_w), MBP_E_PAIRS_FULL);
    CHECK_EQ(mbp_pair_count(&test_w), MBP_MAX_PAIRS);
    CHECK_EQ(mbp_pair_count(&test_w) + mbp_get_stats(&test_w)->lost_pairs, after);
    /* Their events: the full set leaves only the room reserved for events (MBP_MAX_EVENTS). */
    const uint32_t ev = MBP_MAX_PAIRS - before;
    const uint32_t fit = !MBP_WITH_EVENTS || ev <= (uint32_t)MBP_MAX_EVENTS ? ev : MBP_MAX_EVENTS;
    CHECK_EQ(mbp_get_stats(&test_w)->begun, fit);
    CHECK_EQ(mbp_get_stats(&test_w)->lost_events, ev - fit);
    /* Nothing moved, but pairs were lost: a full frame counts them again. */
    CHECK_ST(mbp_update(&test_w), MBP_E_PAIRS_FULL);
    CHECK_EQ(mbp_pair_count(&test_w) + mbp_get_stats(&test_w)->lost_pairs, after);
    /* The mover leaves: the pile's pairs fit again, and no pair is lost. */
    mbp_aabb away = box2(50, 50, 51, 51);
    CHECK_ST(mbp_move_box(&test_w, mover, &away), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), before);
    CHECK_EQ(mbp_get_stats(&test_w)->lost_pairs, 0);
}
#endif

/* Brute force and sweep settle a few-moved update from the log of changes (their candidates are
 * exact): when the set fills in one, the world counts the lost pairs and recovers, as in a full
 * frame. */
TEST(few_movers_that_fill_the_pair_set_are_counted_and_recovered_on_brute_force_and_sweep)
{
#if MBP_WITH_BRUTE || MBP_WITH_SWEEP
    uint32_t c = 2u;
    while ((c + 1u) * c / 2u <= (uint32_t)MBP_MAX_PAIRS) {
        c++; /* the largest pile whose pairs fit */
    }
    if (c + 8u > MBP_MAX_BODIES) {
        return; /* too few bodies for the pile and the 7 apart */
    }
#if MBP_WITH_BRUTE
    cb_few_movers_overflow(MBP_BRUTE, c);
#endif
#if MBP_WITH_SWEEP
    cb_few_movers_overflow(MBP_SWEEP, c);
#endif
#endif
}

#if MBP_WITH_BRUTE || MBP_WITH_SWEEP
/* Body 0 moves onto bodies 1 and 2 in a few-moved update (7 more bodies apart keep it few). 1's
 * category is not in 0's mask, though 0's is in 1's: refused by 0's side only. 2 pairs with it. */
static void cb_few_movers_filter(mbp_backend be)
{
    mbp_params p;
    cb_params(&p, be);
    p.sweep_axis = 0u; /* a fixed axis: the few-moved update is not traded for a new axis */
    CHECK_ST(cb_init(&test_w, &p), MBP_OK);
    mbp_body h[10];
    for (int32_t j = 0; j < 10; j++) {
        mbp_aabb b = j == 1 ? box2(0, 0, 2, 2) : box2(8 + 5 * j, 30, 9 + 5 * j, 31);
        CHECK_ST(mbp_add_box(&test_w, &b, 0u, &h[j]), MBP_OK);
    }
    CHECK_ST(mbp_set_filter(&test_w, h[0], 0x0001u, 0x0004u), MBP_OK); /* meets category 4 only */
    CHECK_ST(mbp_set_filter(&test_w, h[1], 0x0002u, 0xFFFFu), MBP_OK); /* would meet anything */
    CHECK_ST(mbp_set_filter(&test_w, h[2], 0x0004u, 0xFFFFu), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    mbp_aabb b2 = box2(1, 1, 3, 3), b0 = box2(0, 0, 3, 3);
    CHECK_ST(mbp_move_box(&test_w, h[2], &b2), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 1); /* 1 and 2 */
    CHECK_ST(mbp_move_box(&test_w, h[0], &b0), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 2); /* and 0 with 2, not with 1 */
    CHECK_EQ(mbp_get_stats(&test_w)->begun, 1);
#if MBP_WITH_EVENTS
    uint32_t n = 0u;
    const mbp_pair *e = mbp_begun(&test_w, &n);
    CHECK(n == 1u && e[0].a == 0u && e[0].b == 2u);
#endif
}
#endif

/* Brute force's and sweep's few-moved updates apply the filters both ways, as full frames do. */
TEST(few_movers_meet_the_filters_both_ways_on_brute_force_and_sweep)
{
#if MBP_WITH_BRUTE
    cb_few_movers_filter(MBP_BRUTE);
#endif
#if MBP_WITH_SWEEP
    cb_few_movers_filter(MBP_SWEEP);
#endif
}
