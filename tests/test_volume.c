/* SPDX-License-Identifier: MIT */
/* test_volume.c: boxes, spheres and segments, and the validation of each. */
#include "test_util.h"

TEST(touching_boxes_overlap_and_separated_ones_do_not)
{
    mbp_aabb a = box2(0, 0, 2, 2), b = box2(2, 0, 4, 2), c = box2(3, 0, 4, 2);
    CHECK(mbp_aabb_overlap(&a, &b));
    CHECK(mbp_aabb_overlap(&b, &a));
    CHECK(!mbp_aabb_overlap(&a, &c));
    mbp_aabb p = box2(2, 2, 2, 2); /* a point on a's corner */
    CHECK_ST(mbp_aabb_check(&p), MBP_OK);
    CHECK(mbp_aabb_overlap(&a, &p));
    mbp_aabb d = box2(0, 3, 2, 4); /* apart on the other axis only */
    CHECK(!mbp_aabb_overlap(&a, &d));
}

TEST(contains_union_fatten_and_sweep_give_the_expected_boxes)
{
    mbp_aabb a = box2(0, 0, 2, 2), b = box2(1, 1, 2, 2), u;
    CHECK(mbp_aabb_contains(&a, &b));
    CHECK(!mbp_aabb_contains(&b, &a));
    mbp_aabb c = box2(5, -1, 6, 0);
    mbp_aabb_union(&a, &c, &u);
    CHECK(u.min[0] == mbp_from_int(0) && u.max[0] == mbp_from_int(6));
    CHECK(u.min[1] == mbp_from_int(-1) && u.max[1] == mbp_from_int(2));
    mbp_aabb_fatten(&a, mbp_from_int(1), &u);
    CHECK(u.min[0] == mbp_from_int(-1) && u.max[1] == mbp_from_int(3));
    mbp_scalar d[MBP_DIM];
    pt(d, 3, -2);
    mbp_aabb_sweep(&a, d, &u);
    CHECK(u.min[0] == mbp_from_int(0) && u.max[0] == mbp_from_int(5));
    CHECK(u.min[1] == mbp_from_int(-2) && u.max[1] == mbp_from_int(2));
    mbp_scalar p[MBP_DIM];
    pt(p, 2, 0);
    CHECK(mbp_aabb_contains_point(&a, p));
    pt(p, 3, 0);
    CHECK(!mbp_aabb_contains_point(&a, p));
}

TEST(grown_boxes_are_clamped_to_the_range_instead_of_overflowing)
{
    mbp_aabb a, u;
    for (int k = 0; k < MBP_DIM; k++) {
        a.min[k] = -MBP_RANGE;
        a.max[k] = MBP_RANGE;
    }
    mbp_aabb_fatten(&a, MBP_RANGE, &u);
    CHECK(u.min[0] == -MBP_RANGE && u.max[0] == MBP_RANGE);
    CHECK_ST(mbp_aabb_check(&u), MBP_OK);
    mbp_scalar d[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        d[k] = k == 0 ? MBP_RANGE : -MBP_RANGE;
    }
    mbp_aabb_sweep(&a, d, &u);
    CHECK_ST(mbp_aabb_check(&u), MBP_OK);
    CHECK(u.max[0] == MBP_RANGE && u.min[1] == -MBP_RANGE);
}

TEST(bad_boxes_are_refused_with_the_right_status)
{
    mbp_aabb a = box2(0, 0, 1, 1);
    CHECK_ST(mbp_aabb_check(&a), MBP_OK);
    a.min[0] = mbp_from_int(2); /* inverted */
    CHECK_ST(mbp_aabb_check(&a), MBP_E_BADBOX);
    a = box2(0, 0, 1, 1);
    a.max[MBP_DIM - 1] = MBP_RANGE;
    CHECK_ST(mbp_aabb_check(&a), MBP_OK);
#if MBP_SCALAR == MBP_FIXED
    a.max[MBP_DIM - 1] = MBP_RANGE + 1;
    CHECK_ST(mbp_aabb_check(&a), MBP_E_RANGE);
    a.max[MBP_DIM - 1] = INT32_MAX;
    CHECK_ST(mbp_aabb_check(&a), MBP_E_RANGE);
    a = box2(0, 0, 1, 1);
    a.min[0] = INT32_MIN;
    CHECK_ST(mbp_aabb_check(&a), MBP_E_RANGE);
#else
    a.max[MBP_DIM - 1] = MBP_RANGE * 2.0f;
    CHECK_ST(mbp_aabb_check(&a), MBP_E_RANGE);
    volatile float zero = 0.0f;
    a = box2(0, 0, 1, 1);
    a.min[0] = zero / zero; /* NaN */
    CHECK_ST(mbp_aabb_check(&a), MBP_E_BADBOX);
    a = box2(0, 0, 1, 1);
    a.max[1] = 1.0f / zero; /* +infinity */
    CHECK_ST(mbp_aabb_check(&a), MBP_E_BADBOX);
    a = box2(0, 0, 1, 1);
    a.min[1] = -1.0f / zero;
    CHECK_ST(mbp_aabb_check(&a), MBP_E_BADBOX);
#endif
}

TEST(bad_spheres_are_refused_with_the_right_status)
{
    mbp_sphere s = sph(0, 0, 1);
    CHECK_ST(mbp_sphere_check(&s), MBP_OK);
    s.r = mbp_from_int(-1);
    CHECK_ST(mbp_sphere_check(&s), MBP_E_BADBOX);
    s = sph(0, 0, 0);
    CHECK_ST(mbp_sphere_check(&s), MBP_OK); /* a point */
#if MBP_SCALAR == MBP_FIXED
    s.c[0] = MBP_RANGE + 1;
    CHECK_ST(mbp_sphere_check(&s), MBP_E_RANGE);
#else
    volatile float zero = 0.0f;
    s.r = zero / zero;
    CHECK_ST(mbp_sphere_check(&s), MBP_E_BADBOX);
#endif
}

TEST(sphere_tests_are_exact_at_touching)
{
    /* 3-4-5: centres 5 apart, radii 2 and 3 touch; radius 2 and 2.9 do not. */
    mbp_sphere a = sph(0, 0, 2), b = sph(3, 4, 3);
    for (int k = 2; k < MBP_DIM; k++) {
        b.c[k] = 0; /* keep the 3-4-5 triangle in the first two axes */
    }
    b.c[1] = mbp_from_int(4);
    CHECK(mbp_sphere_overlap(&a, &b));
    b.r = mbp_from_ratio(29, 10);
    CHECK(!mbp_sphere_overlap(&a, &b));
    /* Sphere against box: the corner (3,4) of a box is at distance 5 from the centre. */
    mbp_sphere c = sph(0, 0, 5);
    for (int k = 2; k < MBP_DIM; k++) {
        c.c[k] = mbp_from_int(0);
    }
    mbp_aabb corner = box2(3, 4, 6, 8);
    for (int k = 2; k < MBP_DIM; k++) {
        corner.min[k] = mbp_from_int(-1);
        corner.max[k] = mbp_from_int(1);
    }
    CHECK(mbp_sphere_aabb_overlap(&c, &corner));
    c.r = mbp_from_ratio(49, 10);
    CHECK(!mbp_sphere_aabb_overlap(&c, &corner));
    /* Boxes overlap but the sphere misses the corner region: the sphere test must say no. */
    mbp_aabb sb;
    mbp_sphere_aabb(&c, &sb);
    CHECK(mbp_aabb_overlap(&sb, &corner));
}

TEST(sphere_tests_do_not_overflow_at_the_edges_of_the_range)
{
    mbp_sphere a, b;
    for (int k = 0; k < MBP_DIM; k++) {
        a.c[k] = -MBP_RANGE;
        b.c[k] = MBP_RANGE;
    }
    a.r = MBP_RANGE;
    b.r = MBP_RANGE;
    CHECK_ST(mbp_sphere_check(&a), MBP_OK);
    /* Centres 2R*sqrt(DIM) apart, radii sum 2R: apart. */
    CHECK(!mbp_sphere_overlap(&a, &b));
    b.c[1] = -MBP_RANGE;
    for (int k = 2; k < MBP_DIM; k++) {
        b.c[k] = -MBP_RANGE;
    }
    /* Now 2R apart along one axis: touching. */
    CHECK(mbp_sphere_overlap(&a, &b));
    mbp_aabb far = {{0}, {0}};
    for (int k = 0; k < MBP_DIM; k++) {
        far.min[k] = MBP_RANGE;
        far.max[k] = MBP_RANGE;
    }
    CHECK(!mbp_sphere_aabb_overlap(&a, &far));
    mbp_aabb sa;
    mbp_sphere_aabb(&a, &sa);
    CHECK_ST(mbp_aabb_check(&sa), MBP_OK);
    CHECK(sa.min[0] == -MBP_RANGE && sa.max[0] == 0);
    mbp_scalar p[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        p[k] = MBP_RANGE;
    }
    CHECK(!mbp_sphere_contains_point(&a, p));
    p[0] = -MBP_RANGE;
    for (int k = 1; k < MBP_DIM; k++) {
        p[k] = -MBP_RANGE;
    }
    CHECK(mbp_sphere_contains_point(&a, p));
}

TEST(segments_hit_boxes_at_the_entry_fraction)
{
    mbp_aabb b = box2(2, -1, 4, 1);
    mbp_scalar p0[MBP_DIM], p1[MBP_DIM], t = -1;
    pt(p0, 0, 0);
    pt(p1, 8, 0);
    CHECK(mbp_segment_aabb(p0, p1, &b, &t));
    CHECK(t == mbp_from_ratio(1, 4));
    pt(p1, 1, 0); /* stops short */
    CHECK(!mbp_segment_aabb(p0, p1, &b, &t));
    pt(p1, 2, 0); /* ends exactly on the face: closed boxes are hit */
    CHECK(mbp_segment_aabb(p0, p1, &b, &t));
    CHECK(t == mbp_from_int(1));
    pt(p0, 3, 0); /* starts inside */
    pt(p1, 10, 0);
    CHECK(mbp_segment_aabb(p0, p1, &b, &t));
    CHECK(t == 0);
    pt(p0, 0, 2); /* parallel, outside */
    pt(p1, 8, 2);
    CHECK(!mbp_segment_aabb(p0, p1, &b, &t));
    pt(p0, 0, 1); /* parallel along the face */
    pt(p1, 8, 1);
    CHECK(mbp_segment_aabb(p0, p1, &b, &t));
    pt(p0, 8, 3); /* backwards, diagonal: touches exactly the corner (4,1) at t = 4/5 */
    pt(p1, 3, -2);
    CHECK(mbp_segment_aabb(p0, p1, &b, &t));
    CHECK(t == mbp_from_ratio(4, 5));
    pt(p0, 9, 3);
    pt(p1, 4, -3); /* passes right of the box */
    CHECK(!mbp_segment_aabb(p0, p1, &b, &t));
}

TEST(scalar_conversions_round_as_documented)
{
    CHECK_EQ(mbp_to_int(mbp_from_int(7)), 7);
    CHECK_EQ(mbp_to_int(mbp_from_int(-7)), -7);
    CHECK_EQ(mbp_to_int(mbp_from_ratio(-1, 2)), -1); /* towards minus infinity */
    CHECK_EQ(mbp_to_int(mbp_from_ratio(3, 2)), 1);
    CHECK(mbp_mul(mbp_from_int(3), mbp_from_ratio(1, 2)) == mbp_from_ratio(3, 2));
    CHECK(MBP_LIT(2.5) == mbp_from_ratio(5, 2));
    CHECK(mbp_add_sat(MBP_RANGE, MBP_RANGE) == MBP_RANGE);
    CHECK(mbp_add_sat(-MBP_RANGE, -MBP_RANGE) == -MBP_RANGE);
}
