/* SPDX-License-Identifier: MIT */
/* test_shape_world.c: oriented boxes, k-DOPs and capsules as bodies: pairs only where shapes
 * overlap (or every box pair with aabb_only), the shape pool and its limit, bodies changing kind,
 * queries, and bad input. Every backend. */
#include "test_shape_gen.h"
#include "diff.h"

static void init(mbp_backend b, bool aabb_only)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = b;
    p.aabb_only = aabb_only ? 1u : 0u;
    p.cell_size = MBP_ONE; /* grid, hash, hgrid: cells of one unit */
    p.grid_origin[0] = p.grid_origin[1] = mbp_from_int(-16);
    if (MBP_DIM == 3) {
        p.grid_origin[MBP_DIM - 1] = mbp_from_int(-16);
    }
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

/* The world's pairs, ascending, as a << 16 | b, into out (up to cap); returns the count. */
static uint32_t pairs_of(uint32_t *out, uint32_t cap)
{
    mbp_sort_pairs(&test_w);
    uint32_t it = 0, n = 0;
    mbp_pair p;
    while (mbp_next_pair(&test_w, &it, &p)) {
        if (n < cap) {
            out[n] = test_pair_key(p);
        }
        n++;
    }
    return n;
}

#define PAIR(a, b) ((uint32_t)(a) << 16 | (uint32_t)(b))

/* Five bodies (in eighths, 3D: thickened around z = 0): an oriented box, a diamond k-DOP, a
 * capsule touching the oriented box's corner, a sphere beside that box's other corner (boxes
 * touch, shapes do not), and a box inside the diamond. Boxes overlap in 5 pairs; shapes in 2. */
static uint32_t scene(mbp_body *h)
{
    mbp_shape s[5];
    uint32_t n = 0;
    s[0] = box_s(12, -8, 20, 8);
    s[1] = box_s(24, -16, 56, 16);
#if MBP_WITH_OBB
    s[0] = obb_s(16, 0, 8, 4, 1);
#endif
#if MBP_WITH_KDOP
    s[1] = diamond_s(40, 0, 16);
#endif
    s[2] = sphere_s(26, 10, 2);
#if MBP_WITH_CAPSULE
    s[2] = capsule_s(20, 10, 30, 10, 2);
#endif
    s[3] = sphere_s(24, -12, 4);
    s[4] = box_s(44, -4, 48, 4);
    for (uint32_t i = 0; i < 5; i++) {
        mbp_status st = mbp_add_shape(&test_w, &s[i], 100u + i, &h[i]);
        CHECK_ST(st, MBP_OK);
        n += st == MBP_OK ? 1u : 0u;
    }
    return n;
}

TEST(shape_bodies_pair_only_where_their_shapes_overlap)
{
    if (!(MBP_WITH_OBB && MBP_WITH_KDOP && MBP_WITH_CAPSULE && MBP_WITH_SPHERES)) {
        return;
    }
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        for (int only = 0; only < 2; only++) {
            mbp_body h[5];
            uint32_t got[8];
            init(diff_backends[bi], only != 0);
            if (scene(h) != 5u) {
                return;
            }
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            uint32_t n = pairs_of(got, 8u);
            if (only) {
                const uint32_t want[5] = {PAIR(0, 2), PAIR(0, 3), PAIR(1, 2), PAIR(1, 3), PAIR(1, 4)};
                CHECK_EQ(n, 5);
                for (uint32_t i = 0; i < 5u && i < n; i++) {
                    CHECK_EQ(got[i], want[i]);
                }
            } else {
                CHECK_EQ(n, 2);
                CHECK(n >= 2u && got[0] == PAIR(0, 2) && got[1] == PAIR(1, 4));
            }
            /* the capsule slides off the oriented box's corner: that pair ends */
            mbp_shape c = capsule_s(21, 10, 30, 10, 2);
            CHECK_ST(mbp_move_shape(&test_w, h[2], &c), MBP_OK);
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            uint32_t ne;
            const mbp_pair *e = test_ended(&test_w, &ne);
            CHECK_EQ(ne, only ? 0 : 1);
            CHECK(only || (ne == 1u && (e == NULL || (e[0].a == 0u && e[0].b == 2u))));
        }
    }
}

/* A pile of boxes fills the pair set but for a few entries, and a row of parallel capsules adds
 * more pairs whose boxes overlap but whose capsules do not: such pairs take no room and are not
 * lost. (Full frames and SAP's rebuild once stored or counted them as candidates: fuzz input
 * tests/fuzz/corpus/lost-shape-pairs-sap.) */
TEST(a_nearly_full_pair_set_loses_no_pair_to_shapes_that_do_not_meet)
{
    uint32_t m = test_pile_that_fits();
    const uint32_t k = 16u; /* capsule i: (4i, 0)-(4i + 16, 16) in eighths, r 1/8: apart, and
                             * their boxes overlap when |i - j| <= 4: 54 pairs */
    uint32_t room = (uint32_t)MBP_MAX_PAIRS - m * (m - 1u) / 2u;
    if (!MBP_WITH_CAPSULE || m + k > MBP_MAX_BODIES || k > MBP_MAX_SHAPES || room >= 54u) {
        return; /* this configuration cannot hold the scene, or has room for every candidate */
    }
    static mbp_body h[MBP_MAX_BODIES];
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi], false);
        mbp_aabb pile = box_s(-64, -64, -60, -60).u.box;
        for (uint32_t i = 0; i < m; i++) {
            CHECK_ST(mbp_add_box(&test_w, &pile, i, &h[i]), MBP_OK);
        }
        for (uint32_t i = 0; i < k; i++) {
            int32_t x = 4 * (int32_t)i;
            mbp_shape c = capsule_s(x, 0, x + 16, 16, 1);
            CHECK_ST(mbp_add_shape(&test_w, &c, m + i, &h[m + i]), MBP_OK);
        }
        for (int f = 0; f < 2; f++) {
            /* The pile's pairs begin in the first frame: more events than the few free entries
             * where no room is reserved for them. */
            const uint32_t p = m * (m - 1u) / 2u;
            CHECK_ST(mbp_update(&test_w), f == 0 ? test_events_status(p, p) : MBP_OK);
            const mbp_stats *st = mbp_get_stats(&test_w);
            CHECK_EQ(st->lost_pairs, 0u);
            CHECK_EQ(st->pairs, m * (m - 1u) / 2u);
            for (uint32_t i = 0; i < k; i += 2u) { /* half the row moves; the capsules stay apart */
                int32_t x = 4 * (int32_t)i + (f == 0 ? 1 : 0);
                mbp_shape c = capsule_s(x, 1, x + 16, 17, 1);
                CHECK_ST(mbp_move_shape(&test_w, h[m + i], &c), MBP_OK);
            }
        }
    }
}

TEST(a_full_shape_pool_refuses_shapes_and_changes_nothing)
{
    if (!MBP_WITH_CAPSULE) {
        return;
    }
    init(diff_backends[0], false);
    mbp_body h[MBP_MAX_SHAPES + 1], box;
    mbp_shape c = capsule_s(0, 0, 8, 0, 2), b = box_s(0, 0, 8, 8);
    for (uint32_t i = 0; i < MBP_MAX_SHAPES; i++) { /* in a row, apart */
        mbp_shape ci = capsule_s(32 + 16 * (int32_t)i, 0, 40 + 16 * (int32_t)i, 0, 2);
        CHECK_ST(mbp_add_shape(&test_w, &ci, i, &h[i]), MBP_OK);
    }
    CHECK_ST(mbp_add_shape(&test_w, &c, 99u, &h[MBP_MAX_SHAPES]), MBP_E_FULL);
    CHECK_EQ(mbp_body_count(&test_w), MBP_MAX_SHAPES);
    if (MBP_MAX_SHAPES < MBP_MAX_BODIES) {
        CHECK_ST(mbp_add_shape(&test_w, &b, 7u, &box), MBP_OK); /* boxes need no entry */
        CHECK_ST(mbp_move_shape(&test_w, box, &c), MBP_E_FULL);
        mbp_aabb got;
        CHECK_ST(mbp_get_box(&test_w, box, &got), MBP_OK);
        CHECK(got.max[1] == e8(8)); /* still its box */
        CHECK_ST(mbp_move_shape(&test_w, h[0], &b), MBP_OK); /* a capsule becomes a box: room */
        CHECK_ST(mbp_move_shape(&test_w, box, &c), MBP_OK);
        CHECK_ST(mbp_move_shape(&test_w, h[0], &c), MBP_E_FULL);
    }
    CHECK_ST(mbp_remove(&test_w, h[1]), MBP_OK); /* a removed shape's entry is free at once */
    CHECK_ST(mbp_add_shape(&test_w, &c, 98u, &h[1]), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
}

/* A body cycles through every kind; its pairs with a fixed ring of bodies follow its kind, and
 * afterwards the pool is whole again (it can take MBP_MAX_SHAPES shapes). */
TEST(bodies_changing_kind_pair_as_their_new_shape)
{
    static mbp_shape ring[6];
    uint32_t rng = 4242u;
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi], false);
        mbp_body h[6], m;
        uint32_t nr = MBP_MAX_SHAPES - 1u < 5u ? MBP_MAX_SHAPES - 1u : 5u;
        int32_t c0[3] = {0, 0, 0};
        for (uint32_t i = 0; i < nr; i++) {
            int kind;
            do {
                kind = 1 + (int)test_below(&rng, 6u);
            } while (!gen_kind_on(kind) || (!MBP_WITH_SPHERES && kind == MBP_SHAPE_SPHERE));
            gen_shape(&rng, kind, c0, &ring[i]);
            CHECK_ST(mbp_add_shape(&test_w, &ring[i], i, &h[i]), MBP_OK);
        }
        mbp_shape s = box_s(0, 0, 1, 1);
        CHECK_ST(mbp_add_shape(&test_w, &s, 9u, &m), MBP_OK);
        for (int step = 0; step < 15 && !mbp_test_failed(); step++) {
            int kind = 1 + step % 5;
            if (!gen_kind_on(kind) || (!MBP_WITH_SPHERES && kind == MBP_SHAPE_SPHERE)) {
                continue;
            }
            gen_shape(&rng, kind, c0, &s);
            CHECK_ST(mbp_move_shape(&test_w, m, &s), MBP_OK);
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            uint32_t want = 0, got[8];
            mbp_aabb bs, br;
            mbp_shape_aabb(&s, &bs);
            for (uint32_t i = 0; i < nr; i++) {
                mbp_shape_aabb(&ring[i], &br);
                bool any = false; /* the ring among itself */
                for (uint32_t j = i + 1u; j < nr; j++) {
                    mbp_aabb bj;
                    mbp_shape_aabb(&ring[j], &bj);
                    any = mbp_aabb_overlap(&br, &bj) && mbp_shape_overlap(&ring[i], &ring[j]);
                    want += any ? 1u : 0u;
                }
                want += mbp_aabb_overlap(&bs, &br) && mbp_shape_overlap(&s, &ring[i]) ? 1u : 0u;
            }
            CHECK_EQ(pairs_of(got, 8u), want);
        }
        CHECK_ST(mbp_remove(&test_w, m), MBP_OK);
        for (uint32_t i = 0; i < nr; i++) {
            CHECK_ST(mbp_remove(&test_w, h[i]), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        if (MBP_WITH_CAPSULE) {
            mbp_shape c = capsule_s(0, 0, 8, 0, 2);
            for (uint32_t i = 0; i < MBP_MAX_SHAPES; i++) {
                CHECK_ST(mbp_add_shape(&test_w, &c, i, &m), MBP_OK);
            }
        }
    }
}

TEST(box_and_point_queries_test_shapes_and_rays_test_their_boxes)
{
    if (!MBP_WITH_CAPSULE) {
        return;
    }
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        init(diff_backends[bi], false);
        mbp_body h;
        mbp_shape c = capsule_s(0, 0, 32, 32, 4); /* a diagonal stadium */
        CHECK_ST(mbp_add_shape(&test_w, &c, 1u, &h), MBP_OK);
        for (int pass = 0; pass < 2; pass++) { /* dirty, then through the backend */
            uint16_t out[2];
            uint32_t n;
            mbp_aabb corner = box_s(28, 0, 32, 4).u.box; /* in its box, off the stadium */
            CHECK_ST(mbp_query_box(&test_w, &corner, 0xFFFFu, out, 2u, &n), MBP_OK);
            CHECK_EQ(n, 0);
            mbp_aabb mid = box_s(14, 14, 18, 18).u.box;
            CHECK_ST(mbp_query_box(&test_w, &mid, 0xFFFFu, out, 2u, &n), MBP_OK);
            CHECK_EQ(n, 1);
            mbp_scalar p[MBP_DIM];
            for (int k = 0; k < MBP_DIM; k++) {
                p[k] = e8(k == 0 ? 32 : k == 1 ? 2 : 0);
            }
            CHECK_ST(mbp_query_point(&test_w, p, 0xFFFFu, out, 2u, &n), MBP_OK);
            CHECK_EQ(n, 0);
            p[1] = e8(30);
            CHECK_ST(mbp_query_point(&test_w, p, 0xFFFFu, out, 2u, &n), MBP_OK);
            CHECK_EQ(n, 1);
            mbp_scalar a[MBP_DIM], b[MBP_DIM]; /* a ray through the box's empty corner */
            for (int k = 0; k < MBP_DIM; k++) {
                a[k] = e8(k == 0 ? 40 : k == 1 ? 2 : 0);
                b[k] = e8(k == 0 ? 30 : k == 1 ? 2 : 0);
            }
            mbp_hit hit;
            bool found;
            CHECK_ST(mbp_raycast_first(&test_w, a, b, 0xFFFFu, &hit, &found), MBP_OK);
            CHECK(found);
            CHECK_ST(mbp_update(&test_w), MBP_OK);
        }
    }
}

TEST(bad_shape_bodies_are_refused_and_nothing_is_added)
{
    init(diff_backends[0], false);
    mbp_body h = {0u, 0u};
    mbp_shape s = box_s(0, 0, 8, 8);
    s.kind = 0;
    CHECK_ST(mbp_add_shape(&test_w, &s, 1u, &h), MBP_E_PARAM);
#if MBP_WITH_OBB
    s = obb_s(0, 0, 8, 8, 0);
    s.u.obb.rot[0][1] = MBP_UNIT_LIT(0.1);
    CHECK_ST(mbp_add_shape(&test_w, &s, 1u, &h), MBP_E_BADBOX);
#endif
#if MBP_WITH_CAPSULE
    s = capsule_s(0, 0, 8, 0, -1);
    CHECK_ST(mbp_add_shape(&test_w, &s, 1u, &h), MBP_E_BADBOX);
#endif
#if MBP_WITH_KDOP
    s = diamond_s(0, 0, 8);
    s.u.kdop.min[MBP_DIM] = e8(30);
    s.u.kdop.max[MBP_DIM] = e8(40);
    CHECK_ST(mbp_add_shape(&test_w, &s, 1u, &h), MBP_E_BADBOX);
#endif
    CHECK_EQ(mbp_body_count(&test_w), 0);
    s = box_s(0, 0, 8, 8);
    CHECK_ST(mbp_add_shape(&test_w, &s, 1u, &h), MBP_OK);
#if MBP_WITH_CAPSULE
    mbp_shape c = capsule_s(0, 0, 8, 0, -1);
    CHECK_ST(mbp_move_shape(&test_w, h, &c), MBP_E_BADBOX);
    mbp_body stale = h;
    CHECK_ST(mbp_remove(&test_w, h), MBP_OK);
    c.u.capsule.r = 0;
    CHECK_ST(mbp_move_shape(&test_w, stale, &c), MBP_E_STALE);
#endif
}
