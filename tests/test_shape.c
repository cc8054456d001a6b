/* SPDX-License-Identifier: MIT */
/* test_shape.c: oriented boxes, k-DOPs and capsules as pure shapes: validation, tight boxes,
 * touching built exactly, degenerate shapes, points a raw unit inside or outside a boundary, and
 * values at the edges of the coordinate range. (test_shape_ref.c compares random pairs with the
 * reference; test_shape_world.c covers shapes as bodies.) */
#include "test_shape_gen.h"

/* Random cases: many on the host, fewer on the QEMU machines (soft double is slow there). */
#define MANY(n) (TEST_FRAMES >= 200u ? (n) : (n) / 8)

static bool ov(const mbp_shape *a, const mbp_shape *b)
{
    bool r = mbp_shape_overlap(a, b);
    CHECK(r == mbp_shape_overlap(b, a));
    return r;
}

#if MBP__SHAPES
/* d raw units (float: d * 2^-16, well above its rounding at these sizes) */
static mbp_scalar raw(int32_t d)
{
#if MBP_SCALAR == MBP_FLOAT
    return (float)d / 65536.0f;
#else
    return d;
#endif
}

/* Moves a shape by d raw units along the first axis. */
static void nudge(mbp_shape *s, int32_t d)
{
    mbp_scalar step = raw(d);
    switch (s->kind) {
    case MBP_SHAPE_BOX:
        s->u.box.min[0] += step;
        s->u.box.max[0] += step;
        break;
    case MBP_SHAPE_SPHERE:
        s->u.sphere.c[0] += step;
        break;
    case MBP_SHAPE_OBB:
        s->u.obb.c[0] += step;
        break;
    case MBP_SHAPE_RSS:
        s->u.rss.c[0] += step;
        break;
    case MBP_SHAPE_KDOP:
        for (int j = 0; j < MBP_KDOP_AXES; j++) {
            s->u.kdop.min[j] += step * (mbp_scalar)ref_n(j)[0];
            s->u.kdop.max[j] += step * (mbp_scalar)ref_n(j)[0];
        }
        break;
    default:
        s->u.capsule.a[0] += step;
        s->u.capsule.b[0] += step;
        break;
    }
}

/* b touches a from the +x side: they overlap; one step further they do not. */
static void touch_then_apart_at(const mbp_shape *a, mbp_shape b, int line)
{
    uint32_t before = 0;
    (void)before;
    if (!ov(a, &b)) {
        test_puts("  not touching: line ");
        test_putu((uint32_t)line);
        test_puts("\n");
    }
    CHECK_ST(mbp_shape_check(a), MBP_OK);
    CHECK_ST(mbp_shape_check(&b), MBP_OK);
    CHECK(ov(a, &b));
    nudge(&b, -1); /* deeper */
    CHECK(ov(a, &b));
    nudge(&b, 2 * (MBP_DIM == 3 ? 4 : 2)); /* apart: a few raw units, beyond axis rounding */
    if (ov(a, &b)) {
        test_puts("  not apart: line ");
        test_putu((uint32_t)line);
        test_puts("\n");
    }
    CHECK(!ov(a, &b));
}
#define touch_then_apart(a, b) touch_then_apart_at((a), (b), __LINE__)
#endif

TEST(bad_shapes_are_refused_with_the_right_status)
{
    mbp_shape s = box_s(0, 0, 8, 8);
    s.kind = 0;
    CHECK_ST(mbp_shape_check(&s), MBP_E_PARAM);
    s.kind = 99;
    CHECK_ST(mbp_shape_check(&s), MBP_E_PARAM);
#if MBP_WITH_OBB
    s = obb_s(0, 0, 8, 8, 1);
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
    s.u.obb.h[1] = -1;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = obb_s(0, 0, 8, 8, 0);
    s.u.obb.rot[0][0] = MBP_UNIT_LIT(0.99); /* not unit */
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = obb_s(0, 0, 8, 8, 0);
    s.u.obb.rot[1][0] = MBP_UNIT_LIT(0.01); /* not orthogonal */
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = obb_s(0, 0, 8, 8, 0);
    s.u.obb.rot[0][0] = MBP_UNIT_LIT(1.0002); /* within 2^-10 */
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
    s.u.obb.rot[0][0] = (mbp_unit)(-MBP_UNIT_ONE); /* a reflection is still a box */
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
#if MBP_SCALAR == MBP_FIXED
    s.u.obb.rot[0][0] = INT32_MIN; /* would overflow the products */
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = obb_s(0, 0, 8, 8, 0);
    s.u.obb.c[0] = MBP_RANGE + 1;
    CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
#else
    volatile float zero = 0.0f;
    s = obb_s(0, 0, 8, 8, 0);
    s.u.obb.c[0] = zero / zero;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = obb_s(0, 0, 8, 8, 0);
    s.u.obb.rot[0][1] = zero / zero;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = obb_s(0, 0, 8, 8, 0);
    s.u.obb.h[0] = 1.0f / zero;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
#endif
#endif
#if MBP_WITH_CAPSULE
    s = capsule_s(0, 0, 8, 0, 2);
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
    s.u.capsule.r = -1;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
#if MBP_SCALAR == MBP_FIXED
    s = capsule_s(0, 0, 8, 0, 2);
    s.u.capsule.b[0] = -MBP_RANGE - 1;
    CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
#endif
#endif
#if MBP_WITH_KDOP
    s = diamond_s(0, 0, 8);
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
    s.u.kdop.min[0] = e8(9); /* min > max */
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = diamond_s(0, 0, 8);
    s.u.kdop.min[MBP_DIM] = e8(30); /* x + y (+ z) >= 30 misses the rest: empty */
    s.u.kdop.max[MBP_DIM] = e8(40);
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    mbp_kdop k = s.u.kdop;
    CHECK_ST(mbp_kdop_tighten(&k), MBP_E_BADBOX);
    mbp_scalar p[1][MBP_DIM];
    CHECK_ST(mbp_kdop_from_points((const mbp_scalar(*)[MBP_DIM])p, 0u, &k), MBP_E_PARAM);
    for (int c = 0; c < MBP_DIM; c++) {
        p[0][c] = MBP_RANGE; /* the point is in range, its x + y is not */
    }
    CHECK_ST(mbp_kdop_from_points((const mbp_scalar(*)[MBP_DIM])p, 1u, &k), MBP_E_RANGE);
#endif
}

TEST(shape_boxes_are_exact_for_quarter_turns_and_degenerate_shapes)
{
    mbp_aabb b;
    (void)b;
#if MBP_WITH_OBB
    mbp_shape s = obb_s(16, 8, 12, 4, 1); /* turned a quarter: x half extent 4, y 12 */
    mbp_shape_aabb(&s, &b);
    CHECK(b.min[0] == e8(12) && b.max[0] == e8(20) && b.min[1] == e8(-4) && b.max[1] == e8(20));
    s = obb_s(16, 8, 0, 0, 3); /* a point */
    s.u.obb.h[MBP_DIM - 1] = 0;
    mbp_shape_aabb(&s, &b);
    CHECK(b.min[0] == e8(16) && b.max[0] == e8(16) && b.min[1] == e8(8) && b.max[1] == e8(8));
#endif
#if MBP_WITH_CAPSULE
    mbp_shape c = capsule_s(8, 0, -8, 4, 2);
    mbp_shape_aabb(&c, &b);
    CHECK(b.min[0] == e8(-10) && b.max[0] == e8(10) && b.min[1] == e8(-2) && b.max[1] == e8(6));
#endif
#if MBP_WITH_KDOP
    mbp_shape d = diamond_s(8, 0, 16);
    mbp_shape_aabb(&d, &b);
    CHECK(b.min[0] == e8(-8) && b.max[0] == e8(24) && b.min[1] == e8(-16) && b.max[1] == e8(16));
    /* loose slabs are tightened: the box [0,8]^2 with x + y <= 4 has y <= 4 */
    mbp_shape t = box_s(0, 0, 8, 8);
    t.kind = MBP_SHAPE_KDOP;
    for (int j = 0; j < MBP_KDOP_AXES; j++) {
        if (j >= MBP_DIM) {
            t.u.kdop.min[j] = e8(-64);
            t.u.kdop.max[j] = e8(64);
        } else {
            t.u.kdop.min[j] = e8(0);
            t.u.kdop.max[j] = e8(8);
        }
    }
    t.u.kdop.max[MBP_DIM] = e8(4); /* x + y (2D) or x + y + z (3D) <= 4 */
    mbp_shape_aabb(&t, &b);
    CHECK(b.max[0] == e8(4) && b.max[1] == e8(4) && b.min[0] == e8(0));
    mbp_kdop k = t.u.kdop;
    CHECK_ST(mbp_kdop_tighten(&k), MBP_OK);
    CHECK(k.max[0] == e8(4) && k.max[1] == e8(4) && k.max[MBP_DIM] == e8(4));
    CHECK(k.min[MBP_DIM] == e8(0)); /* x + y >= 0 from the box */
#endif
}

TEST(touching_shapes_overlap_and_shapes_a_hair_apart_do_not)
{
#if MBP_WITH_OBB
    /* a quarter-turned oriented box touching boxes, spheres and other oriented boxes */
    mbp_shape o = obb_s(16, 0, 8, 4, 1); /* x in [12, 20], y in [-8, 8] */
    touch_then_apart(&o, box_s(20, -2, 28, 2));
    touch_then_apart(&o, sphere_s(24, 0, 4));
    touch_then_apart(&o, sphere_s(23, 12, 5)); /* its corner (20, 8), 3-4-5 */
    touch_then_apart(&o, obb_s(24, 4, 4, 2, 2));
    touch_then_apart(&o, obb_s(24, 8, 4, 4, 1)); /* face on face, partly */
    touch_then_apart(&o, obb_s(23, 11, 3, 3, 1)); /* corner to corner */
#endif
#if MBP_WITH_CAPSULE
    mbp_shape c = capsule_s(0, 0, 32, 0, 8); /* y in [-8, 8] along x in [0, 32] */
    touch_then_apart(&c, capsule_s(46, 0, 60, 0, 6)); /* end to end */
    touch_then_apart(&c, capsule_s(37, 12, 37, 40, 5)); /* end to end: 5-12-13 */
    touch_then_apart(&c, sphere_s(38, -8, 2));          /* the cap: 6-8-10 */
    touch_then_apart(&c, box_s(40, -2, 48, 2));
    mbp_shape c2 = capsule_s(0, 0, 32, 0, 10);
    touch_then_apart(&c2, box_s(38, 8, 48, 16)); /* the box's corner, 6-8-10 */
#if MBP_WITH_OBB
    touch_then_apart(&c, obb_s(42, 0, 4, 2, 1));
#endif
#if MBP_DIM == 3
    /* skew segments in 3D: along x at z = 0 and along y at z = 12, radii 5 + 7 */
    mbp_shape p = capsule_s(-16, 0, 16, 0, 5), q = capsule_s(0, -16, 0, 16, 7);
    p.u.capsule.a[2] = p.u.capsule.b[2] = 0;
    q.u.capsule.a[2] = q.u.capsule.b[2] = e8(12);
    CHECK(ov(&p, &q));
    q.u.capsule.a[2] += raw(1);
    q.u.capsule.b[2] += raw(1);
    CHECK(!ov(&p, &q));
#endif
#endif
#if MBP_WITH_KDOP
    mbp_shape d = diamond_s(0, 0, 16); /* |x| + |y| <= 2: the vertex (16, 0) */
    touch_then_apart(&d, box_s(16, -4, 24, 4));
    if (MBP_DIM == 2) {
        touch_then_apart(&d, box_s(12, 4, 24, 12));        /* on the face x + y = 16 */
        touch_then_apart(&d, sphere_s(20, 3, 5));          /* from the vertex: 4, 3 */
#if MBP_WITH_CAPSULE
        touch_then_apart(&d, capsule_s(20, 3, 40, 3, 5)); /* the same from a capsule's end */
#endif
        touch_then_apart(&d, diamond_s(32, 0, 16));        /* vertex to vertex */
        touch_then_apart(&d, diamond_s(24, 8, 16));        /* face to face */
#if MBP_WITH_OBB
        touch_then_apart(&d, obb_s(20, 0, 4, 8, 2));
#endif
    } else {
        /* against boxes, k-DOPs and oriented boxes the 3D tests are exact too */
        mbp_shape b = box_s(8, 4, 24, 20); /* its corner (1, 1/2, 1/2) on x + y + z = 2 */
        b.u.box.min[2] = e8(4);
        b.u.box.max[2] = e8(20);
        touch_then_apart(&d, b);
        touch_then_apart(&d, diamond_s(32, 0, 16)); /* vertex to vertex */
        touch_then_apart(&d, diamond_s(24, 8, 16)); /* on the plane x + y + z = 2 */
#if MBP_WITH_OBB
        touch_then_apart(&d, obb_s(20, 0, 4, 8, 2)); /* its face x = 2 on the vertex */
        mbp_shape ob = obb_s(16, 12, 8, 8, 0); /* b as an oriented box (the other path) */
        ob.u.obb.c[2] = e8(12);
        ob.u.obb.h[2] = e8(8);
        touch_then_apart(&d, ob);
#endif
        touch_then_apart(&d, sphere_s(20, 0, 4)); /* at the vertex (16, 0, 0) */
#if MBP_WITH_CAPSULE
        touch_then_apart(&d, capsule_s(20, 0, 20, 24, 4)); /* its end at the vertex */
        touch_then_apart(&d, capsule_s(20, -24, 20, 24, 4)); /* its side at the vertex */
#endif
    }
#endif
}

TEST(bad_rss_are_refused_with_the_right_status)
{
#if MBP_WITH_RSS
    mbp_shape s = rss_s(0, 0, 16, 8, 4);
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
    s.u.rss.r = -1;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.h[1] = -1;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.rot[1][0] = MBP_UNIT_LIT(0.01); /* not orthogonal */
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
#if MBP_SCALAR == MBP_FIXED
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.c[1] = MBP_RANGE - e8(8); /* the rectangle reaches the range's end: fits */
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
    s.u.rss.c[1] = -MBP_RANGE + e8(7); /* and a hair past it */
    CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.c[0] = MBP_RANGE - e8(15);
    CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.r = MBP_RANGE + 1;
    CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.h[0] = MBP_RANGE + 1;
    CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
#else
    volatile float zero = 0.0f;
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.r = zero / zero;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.c[0] = 1.0f / zero;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.r = 2.0f * MBP_RANGE;
    CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.c[1] = -0.75f * MBP_RANGE; /* the rectangle reaches the range's end: fits */
    s.u.rss.h[1] = 0.25f * MBP_RANGE;
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
    s.u.rss.h[1] = 0.5f * MBP_RANGE; /* past it */
    CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
    s = rss_s(0, 0, 16, 8, 4);
    s.u.rss.c[0] = 0.75f * MBP_RANGE;
    s.u.rss.h[0] = 0.5f * MBP_RANGE;
    CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
#endif
#endif
}

TEST(rss_boxes_are_the_rectangle_widened_by_the_radius)
{
#if MBP_WITH_RSS
    mbp_aabb b;
    mbp_shape s = rss_s(16, 8, 12, 4, 2);
    mbp_shape_aabb(&s, &b);
    CHECK(b.min[0] == e8(2) && b.max[0] == e8(30) && b.min[1] == e8(2) && b.max[1] == e8(14));
#if MBP_DIM == 3
    CHECK(b.min[2] == e8(-2) && b.max[2] == e8(2)); /* across the rectangle: the radius */
#endif
    mbp_shape t = obb_s(16, 8, 12, 4, 1); /* the same rows as that box, turned a quarter */
    for (int i = 0; i < MBP_DIM; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            s.u.rss.rot[i][k] = t.u.obb.rot[i][k];
        }
    }
    mbp_shape_aabb(&s, &b);
    CHECK(b.min[0] == e8(10) && b.max[0] == e8(22) && b.min[1] == e8(-6) && b.max[1] == e8(22));
    s.u.rss.c[0] = MBP_RANGE - e8(4); /* the radius past the range's end: clamped */
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
    mbp_shape_aabb(&s, &b);
    CHECK(b.max[0] == MBP_RANGE && b.min[0] == MBP_RANGE - e8(10));
    s.u.rss.c[0] = -MBP_RANGE + e8(4); /* and past the other end */
    CHECK_ST(mbp_shape_check(&s), MBP_OK);
    mbp_shape_aabb(&s, &b);
    CHECK(b.min[0] == -MBP_RANGE && b.max[0] == -MBP_RANGE + e8(10));
#endif
}

TEST(rss_touching_other_shapes_overlap_and_a_hair_apart_do_not)
{
#if MBP_WITH_RSS
    mbp_shape r = rss_s(0, 0, 16, 8, 4); /* x in [-20, 20], y in [-12, 12], corners rounded */
    touch_then_apart(&r, box_s(20, -2, 28, 2));          /* on its flat side */
    touch_then_apart(&r, sphere_s(19, 12, 1));           /* at the corner (16, 8): 3-4-5 */
    touch_then_apart(&r, obb_s(24, 0, 4, 4, 1));         /* face on its flat side */
    touch_then_apart(&r, capsule_s(24, -4, 24, 4, 4));   /* side by side */
    touch_then_apart(&r, capsule_s(22, 16, 28, 16, 6));  /* its rounded corner: 6-8-10 */
    touch_then_apart(&r, rss_s(40, 0, 8, 8, 12));        /* flat side to flat side */
    touch_then_apart(&r, rss_s(28, 22, 6, 6, 6));        /* corner to corner: 6-8-10 */
#if MBP_WITH_KDOP
    touch_then_apart(&r, diamond_s(28, 0, 8));           /* the diamond's vertex on its side */
#endif
#endif
}

/* An RSS with no half-lengths is a sphere, with one a capsule: the same answers against random
 * shapes of every kind. */
TEST(rss_with_zero_half_lengths_agree_with_spheres_and_capsules)
{
#if MBP_WITH_RSS
    uint32_t rng = 77u;
    int32_t c0[3] = {0, 0, 0};
    for (uint32_t i = 0; i < MANY(300u) && !mbp_test_failed(); i++) {
        mbp_shape x;
        int kind = 1 + (int)test_below(&rng, 6u);
        gen_shape(&rng, kind, c0, &x);
        int32_t cx = gen_int(&rng, -48, 48), cy = gen_int(&rng, -48, 48);
        int32_t h = gen_int(&rng, 0, 40), r = gen_int(&rng, 0, 24);
        mbp_shape s = sphere_s(cx, cy, r), p = rss_s(cx, cy, 0, 0, r);
        gen_rotation(&rng, p.u.rss.rot); /* any rows: the rectangle is a point */
        CHECK(ov(&p, &x) == ov(&s, &x));
        bool along_y = test_below(&rng, 2u) != 0u; /* the capsule along rot[0] */
        mbp_shape c = along_y ? capsule_s(cx, cy - h, cx, cy + h, r)
                              : capsule_s(cx - h, cy, cx + h, cy, r);
        mbp_shape q = rss_s(cx, cy, h, 0, r);
        if (along_y) {
            mbp_shape t = obb_s(0, 0, 0, 0, 1);
            for (int a = 0; a < MBP_DIM; a++) {
                for (int k = 0; k < MBP_DIM; k++) {
                    q.u.rss.rot[a][k] = t.u.obb.rot[a][k];
                }
            }
        }
        CHECK(ov(&q, &x) == ov(&c, &x));
    }
#endif
}

TEST(degenerate_shapes_agree_with_their_simpler_twins)
{
    uint32_t rng = 99u;
    int32_t c0[3] = {0, 0, 0};
    for (uint32_t i = 0; i < MANY(200u) && !mbp_test_failed(); i++) {
        mbp_shape x;
        int kind = 1 + (int)test_below(&rng, 5u);
        if (!gen_kind_on(kind)) {
            continue;
        }
        gen_shape(&rng, kind, c0, &x);
        mbp_shape s = sphere_s(gen_int(&rng, -48, 48), gen_int(&rng, -48, 48),
                               gen_int(&rng, 0, 24));
#if MBP_DIM == 3
        s.u.sphere.c[2] = e8(gen_int(&rng, -48, 48));
#endif
        (void)s;
#if MBP_WITH_CAPSULE
        mbp_shape c; /* a zero-length capsule is that sphere */
        c.kind = MBP_SHAPE_CAPSULE;
        for (int k = 0; k < MBP_DIM; k++) {
            c.u.capsule.a[k] = c.u.capsule.b[k] = s.u.sphere.c[k];
        }
        c.u.capsule.r = s.u.sphere.r;
        CHECK(ov(&c, &x) == ov(&s, &x));
#endif
#if MBP_WITH_OBB
        mbp_shape o, b; /* an oriented box turned by quarter turns is a box */
        o.kind = MBP_SHAPE_OBB;
        gen_shape(&rng, MBP_SHAPE_BOX, c0, &b);
        for (int k = 0; k < MBP_DIM; k++) { /* centres on the 1/128 grid: exact */
            o.u.obb.c[k] = (b.u.box.min[k] + b.u.box.max[k]) / 2;
            o.u.obb.h[k] = (b.u.box.max[k] - b.u.box.min[k]) / 2;
        }
        int q = (int)test_below(&rng, 2u) * 2; /* 0 or a half turn */
        mbp_shape t = obb_s(0, 0, 0, 0, q);
        for (int k = 0; k < MBP_DIM; k++) {
            for (int j = 0; j < MBP_DIM; j++) {
                o.u.obb.rot[k][j] = t.u.obb.rot[k][j];
            }
        }
        CHECK(ov(&o, &x) == ov(&b, &x));
#endif
    }
}

TEST(contained_shapes_overlap)
{
    mbp_shape big = box_s(-64, -64, 64, 64);
    mbp_shape small[5] = {box_s(-1, -1, 1, 1), sphere_s(0, 0, 2), sphere_s(0, 0, 2),
                          sphere_s(0, 0, 2), sphere_s(0, 0, 2)};
#if MBP_WITH_OBB
    small[2] = obb_s(3, 2, 4, 1, 1);
#endif
#if MBP_WITH_KDOP
    small[3] = diamond_s(-2, 2, 4);
#endif
#if MBP_WITH_CAPSULE
    small[4] = capsule_s(-8, 0, 8, 2, 1);
#endif
    mbp_shape outer[5] = {big, sphere_s(0, 0, 64), big, big, big};
#if MBP_WITH_OBB
    outer[2] = obb_s(0, 0, 48, 48, 1);
#endif
#if MBP_WITH_KDOP
    outer[3] = diamond_s(0, 0, 64);
#endif
#if MBP_WITH_CAPSULE
    outer[4] = capsule_s(-4, 0, 4, 0, 40);
#endif
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 5; j++) {
            CHECK(ov(&outer[i], &small[j]));
        }
    }
}

/* A point (as a zero-size box) a raw unit or so inside a shape's boundary is inside; a few raw
 * units outside is outside (for the exact tests). Boundary points are found with the reference
 * in double along lines from an inner point, then put on the raw grid. */
TEST(points_next_to_a_boundary_are_on_the_right_side)
{
    static ref_shape r;
    uint32_t rng = 12345u;
    int32_t c0[3] = {0, 0, 0};
    uint32_t inside = 0, outside = 0, tried = 0;
    for (uint32_t i = 0; i < MANY(300u) && !mbp_test_failed(); i++) {
        int kind = 2 + (int)test_below(&rng, 4u);
        if (!gen_kind_on(kind)) {
            continue;
        }
        tried++;
        mbp_shape s;
        gen_shape(&rng, kind, c0, &s);
        ref_from(&s, &r);
        double in[3] = {0, 0, 0}, dir[3] = {0, 0, 0};
        for (int k = 0; k < MBP_DIM; k++) { /* an inner point: the middle of its box */
            double e[3] = {0, 0, 0};
            e[k] = 1;
            double hi = ref_support(&r, e);
            e[k] = -1;
            in[k] = 0.5 * (hi - ref_support(&r, e));
            dir[k] = 2 * gen_real(&rng) - 1;
        }
        if (!ref_in(&r, in, 1e-12)) {
            continue; /* a thin shape whose box centre is outside it */
        }
        double t0 = 0, t1 = 64; /* bisect for the boundary along dir */
        for (int it = 0; it < 80; it++) {
            double tm = 0.5 * (t0 + t1), x[3];
            for (int k = 0; k < 3; k++) {
                x[k] = in[k] + tm * dir[k];
            }
            if (ref_in(&r, x, 0)) {
                t0 = tm;
            } else {
                t1 = tm;
            }
        }
        for (int off = -3; off <= 6; off++) {
            mbp_shape p;
            p.kind = MBP_SHAPE_BOX;
            double x[3] = {0, 0, 0};
            for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
                double raw = (in[k] + t0 * dir[k]) * MBP_ONE + off * dir[k] * 2;
                p.u.box.min[k] = p.u.box.max[k] = (mbp_scalar)(raw < 0 ? raw - 0.5 : raw + 0.5);
#else
                double v = (in[k] + t0 * dir[k]) + off * dir[k] * (1.0 / 32768);
                p.u.box.min[k] = p.u.box.max[k] = (float)v;
#endif
                x[k] = ref_d(p.u.box.min[k]);
            }
            bool lib = mbp_shape_overlap(&s, &p);
#if MBP_SCALAR == MBP_FIXED
            const double deep = 1e-12, far = 8.0 / MBP_ONE;
#else
            const double deep = 1.0 / 65536, far = 1.0 / 8192;
#endif
            if (ref_in(&r, x, -deep)) {
                inside++;
                CHECK(lib);
            } else if (!ref_in(&r, x, far)) {
                outside++;
                CHECK(!lib);
            }
        }
    }
    CHECK(inside > tried / 3u && outside > tried / 3u);
}

/* Shapes as large and as far out as the range allows: random pairs against the reference, with
 * every coordinate scaled up (fixed point: 1024 times, to +-12000 of the +-16384 units; float:
 * 2^40 times), and shapes pressed against the range's corners. No overflow (the sanitizer build
 * checks), and the same answers. */
static void scale_shape(mbp_shape *s, int32_t f)
{
    mbp_scalar *v;
    int n;
    switch (s->kind) {
    case MBP_SHAPE_OBB:
        v = s->u.obb.c;
        n = 2 * MBP_DIM; /* c and h; not the rotation */
        break;
    case MBP_SHAPE_KDOP:
        v = s->u.kdop.min;
        n = 2 * MBP_KDOP_AXES;
        break;
    case MBP_SHAPE_SPHERE:
        v = s->u.sphere.c;
        n = MBP_DIM + 1;
        break;
    case MBP_SHAPE_CAPSULE:
        v = s->u.capsule.a;
        n = 2 * MBP_DIM + 1;
        break;
    default:
        v = s->u.box.min;
        n = 2 * MBP_DIM;
        break;
    }
    for (int i = 0; i < n; i++) {
#if MBP_SCALAR == MBP_FIXED
        v[i] *= f;
#else
        v[i] *= (float)f * 1073741824.0f;
#endif
    }
}

TEST(shapes_at_the_edges_of_the_range_give_the_same_answers)
{
    static ref_shape ra, rb;
    uint32_t rng = 777u;
    const int32_t f = MBP_DIM == 2 ? 1024 : 512; /* 3D: x + y + z stays in range */
#if MBP_SCALAR == MBP_FIXED
    const double tol = 8.0 * f / MBP_ONE;
#else
    const double tol = (double)f * 1073741824.0 / 8192;
#endif
    uint32_t decided = 0, tried = 0;
    for (uint32_t i = 0; i < MANY(400u) && !mbp_test_failed(); i++) {
        int ka = 1 + (int)test_below(&rng, 5u), kb = 1 + (int)test_below(&rng, 5u);
        if (!gen_kind_on(ka) || !gen_kind_on(kb)) {
            continue;
        }
        tried++;
        mbp_shape a, b;
        int32_t c0[3] = {0, 0, 0}, c1[3];
        for (int k = 0; k < 3; k++) {
            c1[k] = gen_int(&rng, -160, 160);
        }
        gen_shape(&rng, ka, c0, &a);
        gen_shape(&rng, kb, c1, &b);
        scale_shape(&a, f);
        scale_shape(&b, f);
        CHECK_ST(mbp_shape_check(&a), MBP_OK);
        CHECK_ST(mbp_shape_check(&b), MBP_OK);
        bool lib = ov(&a, &b);
        ref_from(&a, &ra);
        ref_from(&b, &rb);
        double gap = ref_gap(&ra, &rb);
        if (gap > tol) {
            CHECK(!lib);
            decided++;
        } else if (ref_common(&ra, &rb, tol, MBP_DIM == 2 ? 16 : 8)) {
            CHECK(lib);
            decided++;
        }
    }
    CHECK(decided * 2u > tried);
    /* Pressed against the corners: huge shapes whose boxes are clamped. */
#if MBP_WITH_OBB
    mbp_shape o = obb_s(0, 0, 0, 0, 0), s = sphere_s(0, 0, 0);
    for (int k = 0; k < MBP_DIM; k++) {
        o.u.obb.c[k] = MBP_RANGE; /* [0, 2 RANGE] on every axis */
        o.u.obb.h[k] = MBP_RANGE;
        s.u.sphere.c[k] = k == 0 ? -MBP_RANGE : 0;
    }
    s.u.sphere.r = MBP_RANGE;
    CHECK_ST(mbp_shape_check(&o), MBP_OK);
    mbp_aabb box;
    mbp_shape_aabb(&o, &box);
    CHECK_ST(mbp_aabb_check(&box), MBP_OK);
    CHECK(box.max[0] == MBP_RANGE && box.min[0] == 0);
    CHECK(ov(&o, &s)); /* they touch at the origin */
    s.u.sphere.r = MBP_RANGE - MBP_RANGE / 64;
    CHECK(!ov(&o, &s));
#if MBP_WITH_CAPSULE
    mbp_shape c = capsule_s(0, 0, 0, 0, 0);
    for (int k = 0; k < MBP_DIM; k++) {
        c.u.capsule.a[k] = k == 0 ? -MBP_RANGE : k == 1 ? -MBP_RANGE : 0;
        c.u.capsule.b[k] = k == 0 ? MBP_RANGE : k == 1 ? -MBP_RANGE : 0;
    }
    c.u.capsule.r = MBP_RANGE; /* along x at y = -RANGE: reaches y = 0 */
    CHECK(ov(&o, &c));
    c.u.capsule.r = MBP_RANGE - MBP_RANGE / 64;
    CHECK(!ov(&o, &c));
#endif
#endif
#if MBP_WITH_KDOP && MBP_DIM == 3 && MBP_SCALAR == MBP_FIXED
    /* The widest 14-DOP, every bound +-R (the octahedron |x| + |y| + |z| <= R), against the
     * cube [R/3, R]^3 on its face x + y + z = R, then one raw unit further: the projections'
     * largest magnitudes (mbp_shape.h), as a box and as an oriented box. R = 3 * 357913941. */
    mbp_shape k;
    k.kind = MBP_SHAPE_KDOP;
    for (int j = 0; j < MBP_KDOP_AXES; j++) {
        k.u.kdop.min[j] = -MBP_RANGE;
        k.u.kdop.max[j] = MBP_RANGE;
    }
    const mbp_scalar third = MBP_RANGE / 3;
    mbp_shape cube = box_s(0, 0, 0, 0), oc = obb_s(0, 0, 0, 0, 0);
    for (int k3 = 0; k3 < 3; k3++) {
        cube.u.box.min[k3] = third;
        cube.u.box.max[k3] = MBP_RANGE;
        oc.u.obb.c[k3] = 2 * third;
        oc.u.obb.h[k3] = third;
    }
    CHECK_ST(mbp_shape_check(&k), MBP_OK);
    CHECK_ST(mbp_shape_check(&oc), MBP_OK);
    CHECK(ov(&k, &cube));
    CHECK(ov(&k, &oc));
    for (int k3 = 0; k3 < 3; k3++) {
        cube.u.box.min[k3] = third + 1;
        oc.u.obb.h[k3] = third - 1; /* [R/3 + 1, R - 1] */
    }
    CHECK(!ov(&k, &cube));
    CHECK(!ov(&k, &oc));
    /* turned: against the reference, at the same scale */
    static ref_shape rk, ro;
    ref_from(&k, &rk);
    uint32_t turned = 0;
    for (uint32_t i = 0; i < MANY(64u); i++) {
        gen_rotation(&rng, oc.u.obb.rot);
        for (int k3 = 0; k3 < 3; k3++) {
            oc.u.obb.c[k3] = (mbp_scalar)gen_int(&rng, -MBP_RANGE / 2, MBP_RANGE / 2);
            oc.u.obb.h[k3] = (mbp_scalar)gen_int(&rng, 0, MBP_RANGE / 4);
        }
        CHECK_ST(mbp_shape_check(&oc), MBP_OK);
        ref_from(&oc, &ro);
        bool lib = ov(&k, &oc);
        double gap = ref_gap(&rk, &ro);
        if (gap > tol) {
            CHECK(!lib);
            turned++;
        } else if (ref_common(&rk, &ro, tol, 8)) {
            CHECK(lib);
            turned++;
        }
    }
    CHECK(turned * 2u > MANY(64u));
#endif
}
