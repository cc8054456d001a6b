/* SPDX-License-Identifier: MIT */
/* test_shift.c: mbp_shift_origin(): every volume moves, pairs stay without an event, the rebuilt
 * backend keeps agreeing with brute force; bad offsets, bodies leaving the range and a backend
 * that cannot hold the moved bodies change nothing. */
#include "test_util.h"
#include "diff.h"
#include "mbp_internal.h" /* mbp__kdop_translate() */
#include "mbp_kdop.h"     /* mbp__kdop_axis_of() */

static uint32_t g_rng = 1u;
static uint32_t rnd(uint32_t n)
{
    g_rng = g_rng * 1664525u + 1013904223u;
    return (g_rng >> 8) % n;
}

/* A box of side 1..3 units at integer places in [-20, 20): offsets in whole units keep every
 * coordinate exact, in float too. */
static mbp_aabb rnd_box(void)
{
    mbp_aabb b;
    for (int k = 0; k < MBP_DIM; k++) {
        int32_t lo = (int32_t)rnd(40u) - 20;
        b.min[k] = mbp_from_int(lo);
        b.max[k] = mbp_from_int(lo + 1 + (int32_t)rnd(3u));
    }
    return b;
}

static mbp_aabb minus(const mbp_aabb *b, const mbp_scalar d[MBP_DIM])
{
    mbp_aabb r = *b;
    for (int k = 0; k < MBP_DIM; k++) {
        r.min[k] -= d[k];
        r.max[k] -= d[k];
    }
    return r;
}

/* The pairs of w, sorted, as keys; returns their count. */
static uint32_t keys_of(mbp_world *w, uint32_t *out, uint32_t cap)
{
    uint32_t n;
    mbp_sort_pairs(w);
    const mbp_pair *p = mbp_pairs(w, &n);
    for (uint32_t k = 0; k < n && k < cap; k++) {
        out[k] = test_pair_key(p[k]);
    }
    return n;
}

#define NB (TEST_BODIES < 48u ? TEST_BODIES : 48u)
static mbp_body g_h[NB], g_h2[NB];
static mbp_aabb g_box[NB];
static uint32_t g_k0[MBP_MAX_PAIRS], g_k1[MBP_MAX_PAIRS];

/* Whether g_k0[0..na) and g_k1[0..nc) hold the same keys (keys_of()). */
static bool same_keys(uint32_t na, uint32_t nc)
{
    bool same = na == nc;
    for (uint32_t k = 0; same && k < na; k++) {
        same = g_k0[k] == g_k1[k];
    }
    return same;
}

/* test_w, empty, on backend b with the default parameters. */
static void init_on(mbp_backend b)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = b;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

/* Adds the same body to test_w (with b) and test_w2 (brute force, already shifted by d). */
static void add_both(uint32_t i, const mbp_scalar d[MBP_DIM])
{
    g_box[i] = rnd_box();
    mbp_aabb b2 = minus(&g_box[i], d);
#if MBP_WITH_SPHERES
    if (i % 4u == 1u) { /* a sphere: centre and radius in whole units */
        mbp_sphere s, s2;
        for (int k = 0; k < MBP_DIM; k++) {
            s.c[k] = g_box[i].min[k];
            s2.c[k] = s.c[k] - d[k];
        }
        s.r = s2.r = mbp_from_int(1 + (int32_t)rnd(2u));
        CHECK_ST(mbp_add_sphere(&test_w, &s, i, &g_h[i]), MBP_OK);
        CHECK_ST(mbp_add_sphere(&test_w2, &s2, i, &g_h2[i]), MBP_OK);
        CHECK_ST(mbp_get_box(&test_w, g_h[i], &g_box[i]), MBP_OK);
        return;
    }
#endif
    CHECK_ST(mbp_add_box(&test_w, &g_box[i], i, &g_h[i]), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w2, &b2, i, &g_h2[i]), MBP_OK);
}

TEST(shift_origin_keeps_every_pair_without_an_event_and_the_backend_then_agrees_with_brute_force)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        mbp_params p, p2;
        mbp_params_default(&p);
        p.backend = diff_backends[bi];
        mbp_params_default(&p2);
        p2.backend = MBP_BRUTE;
        mbp_scalar d[MBP_DIM];
        for (int k = 0; k < MBP_DIM; k++) {
            d[k] = mbp_from_int((int32_t)rnd(61u) - 30);
        }
        CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
        CHECK_ST(mbp_init(&test_w2, &p2), MBP_OK);
        g_rng = bi + 1u;
        for (uint32_t i = 0; i < NB; i++) {
            add_both(i, d);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_ST(mbp_update(&test_w2), MBP_OK);
        CHECK_ST(mbp_remove(&test_w, g_h[0]), MBP_OK); /* a dying body at the shift */
        CHECK_ST(mbp_remove(&test_w2, g_h2[0]), MBP_OK);
        uint32_t n0 = keys_of(&test_w, g_k0, MBP_MAX_PAIRS);

        CHECK_ST(mbp_shift_origin(&test_w, d), MBP_OK);
        for (uint32_t i = 1; i < NB; i++) {
            mbp_aabb want = minus(&g_box[i], d);
            CHECK(body_box_is(&test_w, g_h[i], &want));
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_ST(mbp_update(&test_w2), MBP_OK);
        uint32_t nb, ne;
        (void)test_begun(&test_w, &nb);
        (void)test_ended(&test_w, &ne);
        uint32_t ne0 = 0u; /* the pairs of body 0 ended; no other pair may */
        for (uint32_t k = 0; k < n0; k++) {
            ne0 += (g_k0[k] >> 16) == 0u ? 1u : 0u;
        }
        CHECK_EQ(nb, 0);
        CHECK_EQ(ne, ne0);
        uint32_t n1 = keys_of(&test_w, g_k1, MBP_MAX_PAIRS);
        CHECK_EQ(n1, n0 - ne0);

        /* Then moves: the rebuilt structure and brute force (built shifted) agree. */
        for (uint32_t f = 0; f < 8u; f++) {
            for (uint32_t i = 1; i < NB; i++) {
                if (rnd(3u) == 0u) {
                    mbp_aabb b = rnd_box(), b2 = minus(&b, d); /* both in the new frame */
                    CHECK_ST(mbp_move_box(&test_w, g_h[i], &b2), MBP_OK);
                    CHECK_ST(mbp_move_box(&test_w2, g_h2[i], &b2), MBP_OK);
                }
            }
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            CHECK_ST(mbp_update(&test_w2), MBP_OK);
            uint32_t na = keys_of(&test_w, g_k0, MBP_MAX_PAIRS);
            uint32_t nc = keys_of(&test_w2, g_k1, MBP_MAX_PAIRS);
            CHECK_EQ(na, nc);
            CHECK(same_keys(na, nc));
        }
    }
}

TEST(shift_origin_refuses_an_offset_that_takes_a_body_out_of_range_and_changes_nothing)
{
    mbp_params p;
    mbp_params_default(&p);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    mbp_aabb far = box2(0, 0, 1, 1), near = box2(0, 0, 1, 1);
    far.max[0] = MBP_RANGE; /* at the range's ends: float's rounding there is coarse */
    far.min[0] = MBP_RANGE / 2;
    near.min[0] = -(MBP_RANGE / 2);
    near.max[0] = 0;
    mbp_body a, b;
    CHECK_ST(mbp_add_box(&test_w, &far, 1u, &a), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &near, 2u, &b), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    mbp_scalar d[MBP_DIM] = {0};
    d[0] = -(MBP_RANGE / 4); /* far would pass +MBP_RANGE */
    CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_RANGE);
    d[0] = MBP_RANGE / 4 * 3; /* near would pass -MBP_RANGE */
    CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_RANGE);
    CHECK(body_box_is(&test_w, a, &far));
    CHECK(body_box_is(&test_w, b, &near));
#if MBP_SCALAR == MBP_FIXED
    d[0] = MBP_RANGE + 1; /* beyond the offsets allowed, on both sides */
    CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_RANGE);
    d[0] = -MBP_RANGE - 1;
    CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_RANGE);
#else
    volatile float zero = 0.0f;
    d[0] = MBP_RANGE * 2.0f;
    CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_RANGE);
    d[0] = MBP_RANGE * -2.0f;
    CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_RANGE);
    d[0] = zero / zero; /* NaN */
    CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_BADBOX);
    d[0] = 1.0f / zero; /* infinity */
    CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_BADBOX);
#endif
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(test_w.stats.begun + test_w.stats.ended, 0);
}

/* The grid's origin and the quadtree's near an end of the range, shifted past it: each stops at
 * the range's end, and the backend stays exact (the grid holds bodies far from its origin in its
 * border cells; the quadtree, bodies outside its world box in its root). Both ends. */
TEST(shift_origin_keeps_a_grid_origin_pushed_past_the_range_at_its_end)
{
    const mbp_backend backends[] = {MBP_WITH_GRID ? MBP_GRID : MBP_BRUTE,
                                    MBP_WITH_QUADTREE ? MBP_QUADTREE : MBP_BRUTE};
    for (uint32_t bi = 0; bi < 2u; bi++) {
        for (int side = -1; side <= 1; side += 2) {
            mbp_params p;
            mbp_params_default(&p);
            p.backend = backends[bi];
            for (int k = 0; k < MBP_DIM; k++) {
                p.grid_origin[k] = side > 0 ? MBP_RANGE - MBP_RANGE / 64 : -MBP_RANGE;
#if MBP_WITH_QUADTREE
                p.quadtree_origin[k] = p.grid_origin[k];
#endif
            }
            CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
            mbp_aabb a = box2(0, 0, 2, 2), b = box2(1, 1, 3, 3), c = box2(8, 8, 9, 9);
            mbp_body h;
            CHECK_ST(mbp_add_box(&test_w, &a, 0u, &h), MBP_OK);
            CHECK_ST(mbp_add_box(&test_w, &b, 1u, &h), MBP_OK);
            CHECK_ST(mbp_add_box(&test_w, &c, 2u, &h), MBP_OK);
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            CHECK_EQ(mbp_pair_count(&test_w), 1u);
            mbp_scalar d[MBP_DIM] = {0};
            /* origin: past the end by 1/64 or 1/32 of the range, not lost to float's rounding
             * (its step there is 2^-23 of the range) */
            d[0] = side > 0 ? -(MBP_RANGE / 32) : MBP_RANGE / 32;
            CHECK_ST(mbp_shift_origin(&test_w, d), MBP_OK);
            CHECK(test_w.params.grid_origin[0] == (side > 0 ? MBP_RANGE : -MBP_RANGE));
#if MBP_WITH_QUADTREE
            CHECK(test_w.params.quadtree_origin[0] == (side > 0 ? MBP_RANGE : -MBP_RANGE));
#endif
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            CHECK_EQ(mbp_pair_count(&test_w), 1u);
            CHECK_EQ(test_w.stats.begun + test_w.stats.ended, 0u);
        }
    }
}

/* A slot freed below the highest body (its body removed, the update done) is skipped by the
 * shift, and the bodies around it keep their pair. Every backend. */
TEST(shift_origin_skips_a_freed_slot_and_keeps_the_pairs_around_it)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init_on(diff_backends[bi]);
        mbp_aabb a = box2(0, 0, 2, 2), b = box2(4, 4, 5, 5), c = box2(1, 1, 3, 3);
        mbp_body ha, hb, hc;
        CHECK_ST(mbp_add_box(&test_w, &a, 0u, &ha), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &b, 1u, &hb), MBP_OK);
        CHECK_ST(mbp_add_box(&test_w, &c, 2u, &hc), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_ST(mbp_remove(&test_w, hb), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK); /* hb's slot is free now, below hc's */
        mbp_scalar d[MBP_DIM] = {0};
        d[0] = mbp_from_int(3);
        CHECK_ST(mbp_shift_origin(&test_w, d), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 1u);
        CHECK_EQ(test_w.stats.begun + test_w.stats.ended, 0u);
        CHECK(!mbp_valid(&test_w, hb));
        mbp_aabb now;
        CHECK_ST(mbp_get_box(&test_w, hc, &now), MBP_OK);
        CHECK(now.min[0] == mbp_from_int(-2) && now.max[0] == mbp_from_int(0));
    }
}

/* Body i of a row of MAX_BODIES boxes 3 units apart, each 4 wide: every neighbour pair meets
 * (1 unit thick across the row: within one cell of the grids there, so their entries suffice).
 * moved: even bodies 2 units right, odd ones 1 left: the pairs (odd i, i + 1) come apart. */
static mbp_aabb row_box(uint32_t i, bool moved)
{
    int32_t x = 3 * (int32_t)i + (!moved ? 0 : i % 2u == 0u ? 2 : -1);
    return box2(x, 1, x + 4, 2);
}

/* Every body moved (marked for the update) and then the origin shifted in the same frame: the
 * shift marks every body again, each still once, and the update ends exactly the pairs the moves
 * broke, as brute force (test_w2, never shifted) does. Every backend. */
TEST(shift_origin_after_every_body_moved_in_the_frame_ends_exactly_the_pairs_the_moves_broke)
{
    static mbp_body h[MBP_MAX_BODIES], h2[MBP_MAX_BODIES];
    const uint32_t n = MBP_MAX_BODIES;
    if (n - 1u > (uint32_t)MBP_MAX_PAIRS) {
        return; /* the row's pairs do not fit this configuration's pair set */
    }
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        mbp_params p2;
        mbp_params_default(&p2);
        p2.backend = MBP_BRUTE;
        init_on(diff_backends[bi]);
        CHECK_ST(mbp_init(&test_w2, &p2), MBP_OK);
        for (uint32_t i = 0; i < n; i++) {
            mbp_aabb b = row_box(i, false);
            CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
            CHECK_ST(mbp_add_box(&test_w2, &b, i, &h2[i]), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_ST(mbp_update(&test_w2), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), n - 1u);
        mbp_scalar d[MBP_DIM] = {0};
        d[0] = mbp_from_int(5);
        for (uint32_t i = 0; i < n; i++) {
            mbp_aabb b = row_box(i, true), b1 = minus(&b, d);
            CHECK_ST(mbp_move_box(&test_w, h[i], &b1), MBP_OK);
            CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK); /* moved twice: marked once */
            CHECK_ST(mbp_move_box(&test_w2, h2[i], &b), MBP_OK);
        }
        CHECK_ST(mbp_shift_origin(&test_w, d), MBP_OK); /* the same boxes, less d */
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_ST(mbp_update(&test_w2), MBP_OK);
        uint32_t nb, ne, nb2, ne2;
        (void)test_begun(&test_w, &nb);
        (void)test_begun(&test_w2, &nb2);
        const mbp_pair *e = test_ended(&test_w, &ne);
        const mbp_pair *e2 = test_ended(&test_w2, &ne2);
        CHECK_EQ(nb, 0);
        CHECK_EQ(nb2, 0);
        CHECK_EQ(ne, n - 1u - n / 2u); /* (1, 2), (3, 4) ... */
        CHECK_EQ(ne, ne2);
        bool same = ne == ne2;
        for (uint32_t k = 0; same && e != NULL && k < ne; k++) {
            same = e[k].a == e2[k].a && e[k].b == e2[k].b;
        }
        CHECK(same);
        uint32_t na = keys_of(&test_w, g_k0, MBP_MAX_PAIRS);
        uint32_t nc = keys_of(&test_w2, g_k1, MBP_MAX_PAIRS);
        CHECK_EQ(na, n / 2u); /* (0, 1), (2, 3) ... */
        CHECK_EQ(na, nc);
        CHECK(same_keys(na, nc));
    }
}

/* A shift on a world whose pair set overflowed: the update after it reports the overflow again,
 * keeps the pairs it stored and gives no event. Every backend. */
TEST(shift_origin_on_a_world_whose_pair_set_overflowed_keeps_its_pairs_without_an_event)
{
    uint32_t n = test_pile_that_fits() + 1u; /* the smallest pile that overflows */
    if (n > MBP_MAX_BODIES) {
        return; /* this configuration cannot overflow its pair set */
    }
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init_on(diff_backends[bi]);
        mbp_aabb pile = box2(0, 0, 4, 4);
        mbp_body h;
        for (uint32_t i = 0; i < n; i++) {
            CHECK_ST(mbp_add_box(&test_w, &pile, i, &h), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_E_PAIRS_FULL);
        uint32_t lost = mbp_get_stats(&test_w)->lost_pairs;
        CHECK(lost > 0u);
        uint32_t n0 = keys_of(&test_w, g_k0, MBP_MAX_PAIRS);
        CHECK_EQ(n0, MBP_MAX_PAIRS);
        mbp_scalar d[MBP_DIM] = {0};
        d[0] = mbp_from_int(-3);
        CHECK_ST(mbp_shift_origin(&test_w, d), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_E_PAIRS_FULL);
        CHECK_EQ(mbp_get_stats(&test_w)->lost_pairs, lost);
        CHECK_EQ(test_w.stats.begun + test_w.stats.ended, 0);
        uint32_t n1 = keys_of(&test_w, g_k1, MBP_MAX_PAIRS);
        CHECK_EQ(n1, n0);
        CHECK(same_keys(n0, n1));
    }
}

#if MBP_WITH_HASH
/* The hash's cells do not move with the origin: boxes of side 5 on cells of 4 (on axes 0 and 1;
 * within one cell on axis 2), moved by 1 unit, straddle 3 cells an axis instead of 2 (9 entries
 * instead of 4, fewer than make a body large), and the entries run out. */
TEST(shift_origin_that_the_hash_cannot_hold_returns_noroom_and_changes_nothing)
{
    uint32_t per = 4u, after = 9u;
    uint32_t n = (uint32_t)MBP_GRID_MAX_ENTRIES / per;
    n = n < MBP_MAX_BODIES ? n : MBP_MAX_BODIES;
    if (n * after <= (uint32_t)MBP_GRID_MAX_ENTRIES) {
        return; /* a configuration with entries to spare: nothing to run out of */
    }
    mbp_params p;
    mbp_params_default(&p);
    p.backend = MBP_HASH;
    p.cell_size = mbp_from_int(4);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    mbp_aabb b;
    mbp_body h = {0u, 0u};
    for (uint32_t i = 0; i < n; i++) { /* apart: 8 units (2 cells) between neighbours */
        for (int k = 0; k < MBP_DIM; k++) {
            int32_t at = 8 * (int32_t)(k == 0 ? i % 16u : k == 1 ? i / 16u : 0u);
            b.min[k] = mbp_from_ratio(2 * at + 1, 2);
            b.max[k] = mbp_from_ratio(2 * at + (k < 2 ? 11 : 7), 2);
        }
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    uint32_t pairs = test_w.stats.pairs;
    mbp_scalar d[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        d[k] = mbp_from_int(k < 2 ? 1 : 0);
    }
    CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_NOROOM);
    CHECK(body_box_is(&test_w, h, &b));
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(test_w.stats.pairs, pairs);
    CHECK_EQ(test_w.stats.begun + test_w.stats.ended, 0);
}
#endif

#if MBP__POOL
/* One body of every shape kind compiled in, and a fast box body, all around the origin. */
static uint32_t add_shapes(mbp_body *h)
{
    uint32_t n = 0u;
    mbp_shape s;
#if MBP_WITH_OBB
    s.kind = MBP_SHAPE_OBB;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.obb.c[k] = mbp_from_int(1);
        s.u.obb.h[k] = mbp_from_int(2);
        for (int j = 0; j < MBP_DIM; j++) {
            s.u.obb.rot[k][j] = k == j ? MBP_UNIT_ONE : 0;
        }
    }
    CHECK_ST(mbp_add_shape(&test_w, &s, n, &h[n]), MBP_OK);
    n++;
#endif
#if MBP_WITH_KDOP
    mbp_scalar pts[3][MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        pts[0][k] = 0;
        pts[1][k] = mbp_from_int(k == 0 ? 3 : 0);
        pts[2][k] = mbp_from_int(k == 1 ? 3 : 1);
    }
    s.kind = MBP_SHAPE_KDOP;
    CHECK_ST(mbp_kdop_from_points(pts, 3u, &s.u.kdop), MBP_OK);
    CHECK_ST(mbp_add_shape(&test_w, &s, n, &h[n]), MBP_OK);
    n++;
#endif
#if MBP_WITH_CAPSULE
    s.kind = MBP_SHAPE_CAPSULE;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.capsule.a[k] = 0;
        s.u.capsule.b[k] = mbp_from_int(2);
    }
    s.u.capsule.r = mbp_from_int(1);
    CHECK_ST(mbp_add_shape(&test_w, &s, n, &h[n]), MBP_OK);
    n++;
#endif
#if MBP_WITH_RSS
    s.kind = MBP_SHAPE_RSS;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.rss.c[k] = mbp_from_int(2);
        for (int j = 0; j < MBP_DIM; j++) {
            s.u.rss.rot[k][j] = k == j ? MBP_UNIT_ONE : 0;
        }
    }
    s.u.rss.h[0] = mbp_from_int(2);
    s.u.rss.h[1] = mbp_from_int(1);
    s.u.rss.r = mbp_from_int(1);
    CHECK_ST(mbp_add_shape(&test_w, &s, n, &h[n]), MBP_OK);
    n++;
#endif
#if MBP_WITH_FAST
    mbp_aabb b = box2(0, 0, 4, 4), b2 = box2(8, 0, 12, 4);
    CHECK_ST(mbp_add_box(&test_w, &b, n, &h[n]), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, h[n], true), MBP_OK);
    CHECK_ST(mbp_move_box(&test_w, h[n], &b2), MBP_OK); /* its box: the bound of the step */
    n++;
#endif
    return n;
}

TEST(shift_origin_moves_every_shape_kind_and_fast_bodies_and_keeps_their_pairs)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init_on(diff_backends[bi]);
        uint32_t n = add_shapes(g_h);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        uint32_t pairs = test_w.stats.pairs;
        for (uint32_t i = 0; i < n; i++) {
            CHECK_ST(mbp_get_box(&test_w, g_h[i], &g_box[i]), MBP_OK);
        }
        mbp_scalar d[MBP_DIM];
        for (int k = 0; k < MBP_DIM; k++) {
            d[k] = mbp_from_int(k == 0 ? 7 : -5);
        }
        CHECK_ST(mbp_shift_origin(&test_w, d), MBP_OK);
        for (uint32_t i = 0; i < n; i++) {
            mbp_aabb want = minus(&g_box[i], d);
            CHECK(body_box_is(&test_w, g_h[i], &want));
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(test_w.stats.pairs, pairs);
        CHECK_EQ(test_w.stats.begun + test_w.stats.ended, 0);
        /* Back again: the same boxes as at first. */
        for (int k = 0; k < MBP_DIM; k++) {
            d[k] = -d[k];
        }
        CHECK_ST(mbp_shift_origin(&test_w, d), MBP_OK);
        for (uint32_t i = 0; i < n; i++) {
            CHECK(body_box_is(&test_w, g_h[i], &g_box[i]));
        }
    }
}
#endif

#if MBP_WITH_KDOP
/* A k-DOP at the range's end on its first diagonal (x + y, x + y + z), on the side sign, and
 * the offset that pushes that slab past twice the range (3D: the coordinates stay in range; 2D:
 * a diagonal sum cannot pass twice the range unless a coordinate passes the range). */
static void kdop_at_the_end(int sign, mbp_shape *s, mbp_scalar d[MBP_DIM])
{
    mbp_scalar pts[3][MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_scalar c = MBP_DIM == 2 ? MBP_RANGE / 2 : (k == 2 ? MBP_RANGE / 2 : MBP_RANGE / 4);
        for (int i = 0; i < 3; i++) {
            pts[i][k] = (mbp_scalar)sign * (c - (i == k + 1 ? mbp_from_int(1) : 0));
        }
        d[k] = (mbp_scalar)-sign * (MBP_DIM == 2 ? MBP_RANGE / 4 * 3 : MBP_RANGE / 2);
    }
    s->kind = MBP_SHAPE_KDOP;
    CHECK_ST(mbp_kdop_from_points(pts, 3u, &s->u.kdop), MBP_OK);
}

TEST(shift_origin_refuses_a_kdop_whose_diagonal_slab_it_would_push_past_twice_the_range)
{
    for (int sign = -1; sign <= 1; sign += 2) {
        init_on(MBP_BRUTE);
        mbp_shape s;
        mbp_scalar d[MBP_DIM];
        kdop_at_the_end(sign, &s, d);
        mbp_body hk, hb;
        CHECK_ST(mbp_add_shape(&test_w, &s, 0u, &hk), MBP_OK);
        mbp_aabb kb, b;
        CHECK_ST(mbp_get_box(&test_w, hk, &kb), MBP_OK);
        b = kb; /* a box on the k-DOP's box: they pair */
        CHECK_ST(mbp_add_box(&test_w, &b, 1u, &hb), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 1);
        CHECK_ST(mbp_shift_origin(&test_w, d), MBP_E_RANGE);
        CHECK(body_box_is(&test_w, hk, &kb));
        CHECK(body_box_is(&test_w, hb, &b));
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK_EQ(mbp_pair_count(&test_w), 1);
        CHECK_EQ(test_w.stats.begun + test_w.stats.ended, 0);
    }
}

/* The translation itself: the slab pushed past twice the range stays past the range on its own
 * side (in fixed point, v - t no longer fits the scalar there), so the check refuses it; the
 * other slabs move by the offset's projection exactly. */
TEST(a_kdop_slab_translated_past_twice_the_range_stays_past_the_range_on_its_own_side)
{
    const int diag = MBP_DIM; /* the first diagonal axis: x + y (+ z) */
    for (int sign = -1; sign <= 1; sign += 2) {
        mbp_shape s, moved;
        mbp_scalar d[MBP_DIM];
        kdop_at_the_end(sign, &s, d);
        moved = s;
        mbp__kdop_translate(&moved.u.kdop, d);
        for (int j = 0; j < MBP_KDOP_AXES; j++) {
            mbp__w t = mbp__kdop_axis_of(d, j);
            if (j == diag) {
                CHECK(sign > 0 ? moved.u.kdop.min[j] > MBP_RANGE : moved.u.kdop.max[j] < -MBP_RANGE);
                CHECK(sign > 0 ? moved.u.kdop.max[j] > MBP_RANGE : moved.u.kdop.min[j] < -MBP_RANGE);
            } else {
                CHECK((mbp__w)moved.u.kdop.min[j] == (mbp__w)s.u.kdop.min[j] - t);
                CHECK((mbp__w)moved.u.kdop.max[j] == (mbp__w)s.u.kdop.max[j] - t);
            }
        }
        CHECK_ST(mbp_shape_check(&moved), MBP_E_RANGE);
    }
}
#endif
