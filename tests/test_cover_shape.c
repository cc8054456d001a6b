/* SPDX-License-Identifier: MIT */
/* test_cover_shape.c: the checks of the shapes beyond box and sphere (lib/mbp.h, "shapes and
 * space-time bounds") that the other test files do not take, found with `make coverage`
 * (docs/coverage.md lists what stays unreached and why): each kind of bad number and each value
 * out of range gets its documented status, unknown kinds and sphere shapes without sphere bodies
 * MBP_E_PARAM, an oriented box at the edge of the range a clamped box, a body made fast twice. */
#include "diff.h"
#include "test_util.h"

/* A value out of range and, in float, a NaN and an infinity. */
#if MBP_SCALAR == MBP_FIXED
#define CSH_OUT (MBP_RANGE + 1)
#else
#define CSH_OUT (MBP_RANGE * 2.0f)
#endif

#if MBP_SCALAR == MBP_FLOAT
static float csh_nan(void)
{
    volatile float zero = 0.0f;
    return zero / zero;
}
static float csh_inf(void)
{
    volatile float zero = 0.0f;
    return 1.0f / zero;
}
#endif

TEST(shape_checks_tell_bad_numbers_from_values_out_of_range_for_every_kind)
{
    mbp_shape s;
    s.kind = 0u;
    CHECK_ST(mbp_shape_check(&s), MBP_E_PARAM);
    s.kind = 99u;
    CHECK_ST(mbp_shape_check(&s), MBP_E_PARAM);
#if MBP_WITH_CAPSULE
    for (int k = 0; k <= 2 * MBP_DIM; k++) { /* a[0..], b[0..], r */
        s.kind = MBP_SHAPE_CAPSULE;
        pt(s.u.capsule.a, 0, 0);
        pt(s.u.capsule.b, 2, 0);
        s.u.capsule.r = MBP_ONE;
        CHECK_ST(mbp_shape_check(&s), MBP_OK);
        mbp_scalar *v = &s.u.capsule.r;
        if (k < MBP_DIM) {
            v = &s.u.capsule.a[k];
        } else if (k < 2 * MBP_DIM) {
            v = &s.u.capsule.b[k - MBP_DIM];
        }
        *v = CSH_OUT;
        CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
#if MBP_SCALAR == MBP_FLOAT
        *v = csh_nan();
        CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
        *v = -csh_inf();
        CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
#endif
    }
    s.u.capsule.r = -MBP_ONE;
    CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
#endif
#if MBP_WITH_KDOP
    for (int j = 0; j < MBP_KDOP_AXES; j++) {
        for (int side = 0; side < 2; side++) {
            s.kind = MBP_SHAPE_KDOP;
            for (int i = 0; i < MBP_KDOP_AXES; i++) {
                s.u.kdop.min[i] = -mbp_from_int(10);
                s.u.kdop.max[i] = mbp_from_int(10);
            }
            CHECK_ST(mbp_shape_check(&s), MBP_OK);
            mbp_scalar *v = side == 0 ? &s.u.kdop.min[j] : &s.u.kdop.max[j];
            *v = side == 0 ? -CSH_OUT : CSH_OUT;
            CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
#if MBP_SCALAR == MBP_FLOAT
            *v = csh_nan();
            CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
#endif
            *v = side == 0 ? mbp_from_int(11) : -mbp_from_int(11); /* min > max */
            CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
        }
    }
#endif
#if MBP_WITH_OBB
    for (int i = 0; i < MBP_DIM; i++) {
        for (int which = 0; which < 2; which++) { /* c[i], h[i] */
            s.kind = MBP_SHAPE_OBB;
            for (int k = 0; k < MBP_DIM; k++) {
                s.u.obb.c[k] = 0;
                s.u.obb.h[k] = MBP_ONE;
                for (int m = 0; m < MBP_DIM; m++) {
                    s.u.obb.rot[k][m] = k == m ? MBP_UNIT_ONE : 0;
                }
            }
            CHECK_ST(mbp_shape_check(&s), MBP_OK);
            mbp_scalar *v = which == 0 ? &s.u.obb.c[i] : &s.u.obb.h[i];
            *v = CSH_OUT;
            CHECK_ST(mbp_shape_check(&s), MBP_E_RANGE);
#if MBP_SCALAR == MBP_FLOAT
            *v = csh_nan();
            CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
#endif
            if (which == 1) {
                *v = -MBP_ONE; /* negative extent */
                CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
            }
        }
        /* A rotation entry beyond +-1 (more than the 2^-10 tolerance), either sign. */
        for (int sign = 0; sign < 2; sign++) {
            for (int k = 0; k < MBP_DIM; k++) {
                s.u.obb.c[k] = 0;
                s.u.obb.h[k] = MBP_ONE;
                for (int m = 0; m < MBP_DIM; m++) {
                    s.u.obb.rot[k][m] = k == m ? MBP_UNIT_ONE : 0;
                }
            }
#if MBP_SCALAR == MBP_FIXED
            const mbp_unit over = MBP_UNIT_ONE + (MBP_UNIT_ONE >> 9); /* 1 + 2^-9 */
            s.u.obb.rot[i][i] = sign == 0 ? over : -over;
#else
            s.u.obb.rot[i][i] = sign == 0 ? 1.01f : -1.01f;
#endif
            CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
        }
#if MBP_SCALAR == MBP_FLOAT
        s.u.obb.rot[i][0] = csh_nan();
        CHECK_ST(mbp_shape_check(&s), MBP_E_BADBOX);
#endif
    }
#endif
}

TEST(kdop_from_points_refuses_bad_points_and_diagonal_bounds_out_of_range)
{
#if MBP_WITH_KDOP
    mbp_kdop k;
    mbp_scalar p[2][MBP_DIM];
    pt(p[0], 0, 0);
    pt(p[1], 3, 1);
    CHECK_ST(mbp_kdop_from_points(p, 0u, &k), MBP_E_PARAM);
    CHECK_ST(mbp_kdop_from_points(p, 2u, &k), MBP_OK);
    CHECK(k.min[0] == 0 && k.max[0] == mbp_from_int(3));
    for (int c = 0; c < MBP_DIM; c++) {
        pt(p[1], 3, 1);
        p[1][c] = -CSH_OUT;
        CHECK_ST(mbp_kdop_from_points(p, 2u, &k), MBP_E_RANGE);
#if MBP_SCALAR == MBP_FLOAT
        p[1][c] = csh_nan();
        CHECK_ST(mbp_kdop_from_points(p, 2u, &k), MBP_E_BADBOX);
#endif
    }
    /* Every coordinate within the range, but x + y beyond it, above or below. */
    for (int sign = 0; sign < 2; sign++) {
        for (int c = 0; c < MBP_DIM; c++) {
            p[1][c] = sign == 0 ? MBP_RANGE / 4 * 3 : -(MBP_RANGE / 4 * 3);
        }
        CHECK_ST(mbp_kdop_from_points(p, 2u, &k), MBP_E_RANGE);
    }
#endif
}

TEST(sphere_shapes_are_refused_without_sphere_bodies_and_unknown_kinds_always)
{
    mbp_params prm;
    mbp_params_default(&prm);
    prm.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w, &prm), MBP_OK);
    mbp_shape s;
    s.kind = MBP_SHAPE_SPHERE;
    s.u.sphere = sph(0, 0, 1);
    mbp_body h = {0u, 0u}, hb;
    mbp_aabb b = box2(5, 5, 6, 6);
    CHECK_ST(mbp_add_box(&test_w, &b, 0u, &hb), MBP_OK);
#if MBP_WITH_SPHERES
    CHECK_ST(mbp_add_shape(&test_w, &s, 1u, &h), MBP_OK);
    CHECK_ST(mbp_move_shape(&test_w, hb, &s), MBP_OK);
    CHECK_EQ(mbp_body_count(&test_w), 2);
#else
    CHECK_ST(mbp_add_shape(&test_w, &s, 1u, &h), MBP_E_PARAM);
    CHECK_ST(mbp_move_shape(&test_w, hb, &s), MBP_E_PARAM);
    CHECK_EQ(mbp_body_count(&test_w), 1);
    mbp_aabb out;
    CHECK_ST(mbp_get_box(&test_w, hb, &out), MBP_OK);
    CHECK(out.min[0] == b.min[0]); /* not moved */
#endif
    s.kind = 42u;
    CHECK_ST(mbp_add_shape(&test_w, &s, 1u, &h), MBP_E_PARAM);
    CHECK_ST(mbp_move_shape(&test_w, hb, &s), MBP_E_PARAM);
}

TEST(an_oriented_box_at_the_edge_of_the_range_has_a_clamped_box)
{
#if MBP_WITH_OBB
    mbp_shape s;
    s.kind = MBP_SHAPE_OBB;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.obb.h[k] = MBP_RANGE / 8;
        for (int m = 0; m < MBP_DIM; m++) {
            s.u.obb.rot[k][m] = k == m ? MBP_UNIT_ONE : 0;
        }
    }
    /* Turned by 45 degrees in the plane of the first two axes. */
    const mbp_unit c = MBP_UNIT_LIT(0.70710678), sn = MBP_UNIT_LIT(0.70710678);
    s.u.obb.rot[0][0] = c;
    s.u.obb.rot[0][1] = sn;
    s.u.obb.rot[1][0] = -sn;
    s.u.obb.rot[1][1] = c;
    for (int side = 0; side < 2; side++) {
        for (int k = 0; k < MBP_DIM; k++) {
            /* Turned, it reaches out 1.41 times as far: past the range. */
            s.u.obb.c[k] = side == 0 ? -MBP_RANGE + MBP_RANGE / 8 : MBP_RANGE - MBP_RANGE / 8;
        }
        CHECK_ST(mbp_shape_check(&s), MBP_OK);
        mbp_aabb box;
        mbp_shape_aabb(&s, &box);
        CHECK_ST(mbp_aabb_check(&box), MBP_OK);
        CHECK(side == 0 ? box.min[0] == -MBP_RANGE : box.max[0] == MBP_RANGE);
        CHECK(side == 0 ? box.max[0] > s.u.obb.c[0] : box.min[0] < s.u.obb.c[0]);
    }
#endif
}

TEST(making_a_body_fast_twice_or_slow_twice_changes_nothing_more)
{
#if MBP_WITH_FAST
    mbp_params prm;
    mbp_params_default(&prm);
    prm.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w, &prm), MBP_OK);
    mbp_aabb a = box2(0, 0, 1, 1), wall = box2(5, -5, 6, 5), out;
    mbp_body h, hw;
    CHECK_ST(mbp_add_box(&test_w, &a, 0u, &h), MBP_OK);
    CHECK_ST(mbp_add_box(&test_w, &wall, 0u, &hw), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, h, false), MBP_OK); /* already slow */
    CHECK_ST(mbp_set_fast(&test_w, h, true), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, h, true), MBP_OK); /* already fast */
    /* Through the wall in one step: the bound of the motion pairs with it. */
    mbp_aabb b = box2(10, 0, 11, 1);
    CHECK_ST(mbp_move_box(&test_w, h, &b), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 1);
    CHECK_ST(mbp_set_fast(&test_w, h, false), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, h, false), MBP_OK);
    CHECK_ST(mbp_get_box(&test_w, h, &out), MBP_OK);
    CHECK(out.min[0] == b.min[0] && out.max[0] == b.max[0]); /* its own box again */
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    mbp_body stale = {0u, 0u};
    CHECK_ST(mbp_set_fast(&test_w, stale, true), MBP_E_STALE);
#endif
}

TEST(motion_bounds_tell_bad_numbers_from_values_out_of_range)
{
    mbp_aabb box = box2(0, 0, 1, 1), bad = box2(0, 0, 1, 1), out;
    bad.max[0] = CSH_OUT;
    mbp_scalar v[MBP_DIM], a[MBP_DIM];
    pt(v, 1, 1);
    pt(a, 1, 1);
    CHECK_ST(mbp_sweep_motion(&box, v, a, MBP_ONE, &out), MBP_OK);
    CHECK_ST(mbp_sweep_motion(&box, v, NULL, MBP_ONE, &out), MBP_OK);
    CHECK_ST(mbp_sweep_motion(&bad, v, a, MBP_ONE, &out), MBP_E_RANGE);
    CHECK_ST(mbp_sweep_motion(&box, v, a, CSH_OUT, &out), MBP_E_RANGE);
    for (int k = 0; k < MBP_DIM; k++) {
        pt(v, 1, 1);
        pt(a, 1, 1);
        v[k] = CSH_OUT;
        CHECK_ST(mbp_sweep_motion(&box, v, a, MBP_ONE, &out), MBP_E_RANGE);
        pt(v, 1, 1);
        a[k] = CSH_OUT;
        CHECK_ST(mbp_sweep_motion(&box, v, a, MBP_ONE, &out), MBP_E_RANGE);
#if MBP_SCALAR == MBP_FLOAT
        /* A bad number outranks a value out of range, wherever each is. */
        a[k] = csh_nan();
        CHECK_ST(mbp_sweep_motion(&box, v, a, MBP_ONE, &out), MBP_E_BADBOX);
        CHECK_ST(mbp_sweep_motion(&bad, v, a, MBP_ONE, &out), MBP_E_BADBOX);
        pt(a, 1, 1);
        v[k] = csh_inf();
        CHECK_ST(mbp_sweep_motion(&bad, v, a, MBP_ONE, &out), MBP_E_BADBOX);
        pt(v, 1, 1);
#endif
    }
#if MBP_SCALAR == MBP_FLOAT
    CHECK_ST(mbp_sweep_motion(&box, v, a, csh_nan(), &out), MBP_E_BADBOX);
    CHECK_ST(mbp_sweep_motion(&bad, v, a, csh_nan(), &out), MBP_E_BADBOX);
    CHECK_ST(mbp_sweep_motion(&box, v, a, csh_inf(), &out), MBP_E_BADBOX);
#endif
}
