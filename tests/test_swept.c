/* SPDX-License-Identifier: MIT */
/* test_swept.c: space-time bounds (mbp_sweep_motion) and fast bodies: the bound holds every
 * path it promises to and is tight at the extremes; a fast bullet that crosses a thin wall within
 * one step pairs with it on every backend (and a slow one does not); the bound's life over
 * steps; fast bodies' pool entries. */
#include "test_shape_gen.h"
#include "diff.h"

static mbp_aabb unit_box(int32_t x, int32_t y)
{
    return box_s(x, y, x + 8, y + 8).u.box;
}

static void vec(mbp_scalar v[MBP_DIM], int32_t x, int32_t y)
{
    for (int k = 0; k < MBP_DIM; k++) {
        v[k] = e8(k == 0 ? x : k == 1 ? y : 0);
    }
}

TEST(sweep_motion_gives_straight_and_accelerated_bounds)
{
    mbp_aabb b = unit_box(0, 0), out;
    mbp_scalar v[MBP_DIM], a[MBP_DIM];
    vec(v, 16, -8);                                            /* (2, -1) units per time unit */
    CHECK_ST(mbp_sweep_motion(&b, v, NULL, e8(12), &out), MBP_OK); /* dt = 1.5 */
    const mbp_scalar slop = MBP_SCALAR == MBP_FIXED ? 0 : MBP_ONE / 1024; /* float widening */
    CHECK(out.min[0] <= e8(0) && out.min[0] >= e8(0) - slop);
    CHECK(out.max[0] >= e8(8 + 24) && out.max[0] <= e8(8 + 24) + slop);
    CHECK(out.min[1] >= e8(-12) - MBP_ONE / 1024 && out.min[1] <= e8(-12));
    CHECK(out.max[1] >= e8(8) && out.max[1] <= e8(8) + MBP_ONE / 1024);
    /* |a| <= 2 units on x only, v = 0, dt = 2: x in [-4, +4] beyond the box */
    vec(v, 0, 0);
    vec(a, 16, 0);
    if (MBP_DIM == 3) {
        a[2] = 0;
    }
    CHECK_ST(mbp_sweep_motion(&b, v, a, e8(16), &out), MBP_OK);
    CHECK(out.min[0] <= e8(-32) && out.min[0] >= e8(-32) - MBP_ONE / 1024);
    CHECK(out.max[0] >= e8(40) && out.max[0] <= e8(40) + MBP_ONE / 1024);
    CHECK(out.min[1] <= e8(0) && out.max[1] >= e8(8) && out.max[1] <= e8(8) + MBP_ONE / 1024);
    /* thrown up against gravity: v = +4, a in [-2, 2], dt = 1: up to 4 + 1, down to 0 */
    vec(v, 0, 32);
    vec(a, 0, 16);
    CHECK_ST(mbp_sweep_motion(&b, v, a, e8(8), &out), MBP_OK);
    CHECK(out.max[1] >= e8(8 + 40) && out.min[1] <= e8(0));
    /* bad input */
    CHECK_ST(mbp_sweep_motion(&b, v, a, -MBP_ONE, &out), MBP_E_PARAM);
    a[0] = -1;
    CHECK_ST(mbp_sweep_motion(&b, v, a, MBP_ONE, &out), MBP_E_PARAM);
    vec(a, 0, 0);
    mbp_aabb bad = b;
    bad.min[0] = bad.max[0] + 1;
    CHECK_ST(mbp_sweep_motion(&bad, v, a, MBP_ONE, &out), MBP_E_BADBOX);
#if MBP_SCALAR == MBP_FIXED
    v[0] = MBP_RANGE + 1;
    CHECK_ST(mbp_sweep_motion(&b, v, a, MBP_ONE, &out), MBP_E_RANGE);
#else
    volatile float zero = 0.0f;
    v[0] = zero / zero;
    CHECK_ST(mbp_sweep_motion(&b, v, a, MBP_ONE, &out), MBP_E_BADBOX);
#endif
}

/* Random motions with random accelerations within the bound, changing along the step: every
 * position (sampled finely, in double) lies in the bound, and the bound is reached by the
 * extreme motions (constant +-amax) to within rounding. */
TEST(sweep_motion_holds_every_path_within_the_acceleration_bound)
{
    uint32_t rng = 31337u;
    for (int i = 0; i < 300 && !mbp_test_failed(); i++) {
        mbp_aabb b = unit_box(gen_int(&rng, -64, 64), gen_int(&rng, -64, 64)), out;
        mbp_scalar v[MBP_DIM], a[MBP_DIM];
        for (int k = 0; k < MBP_DIM; k++) {
            v[k] = gen_q(gen_int(&rng, -512, 512));
            a[k] = gen_q(test_below(&rng, 4u) == 0u ? 0 : gen_int(&rng, 0, 1024));
        }
        mbp_scalar dt = gen_q(gen_int(&rng, 0, 192));
        CHECK_ST(mbp_sweep_motion(&b, v, i % 5 == 0 ? NULL : a, dt, &out), MBP_OK);
        double T = ref_d(dt);
        for (int k = 0; k < MBP_DIM; k++) {
            double A = i % 5 == 0 ? 0 : ref_d(a[k]), V = ref_d(v[k]);
            double lo = ref_d(out.min[k]) - ref_d(b.min[k]), hi = ref_d(out.max[k]) - ref_d(b.max[k]);
            for (int path = 0; path < 4; path++) { /* piecewise constant a in [-A, A] */
                double x = 0, vel = V, acc = 0, dtt = T / 64;
                for (int s = 0; s < 64; s++) {
                    if (s % 8 == 0) {
                        acc = path == 0 ? A : path == 1 ? -A : (2 * gen_real(&rng) - 1) * A;
                    }
                    double x1 = x + vel * dtt + 0.5 * acc * dtt * dtt;
                    CHECK(x1 >= lo - 1e-9 && x1 <= hi + 1e-9);
                    x = x1;
                    vel += acc * dtt;
                }
            }
            double top = V * T + 0.5 * A * T * T, bot = V * T - 0.5 * A * T * T;
            double want_hi = top > 0 ? top : 0, want_lo = bot < 0 ? bot : 0;
#if MBP_SCALAR == MBP_FIXED
            const double tight = 3.0 / MBP_ONE;
#else
            const double tight = 1e-4;
#endif
            CHECK(hi <= want_hi + tight && lo >= want_lo - tight);
        }
    }
}

TEST(sweep_motion_saturates_at_the_edges_of_the_range)
{
    mbp_aabb b, out;
    mbp_scalar v[MBP_DIM], a[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        b.min[k] = -MBP_RANGE;
        b.max[k] = MBP_RANGE;
        v[k] = k == 0 ? MBP_RANGE : -MBP_RANGE;
        a[k] = MBP_RANGE;
    }
    CHECK_ST(mbp_sweep_motion(&b, v, a, MBP_RANGE, &out), MBP_OK);
    CHECK_ST(mbp_aabb_check(&out), MBP_OK);
    CHECK(out.min[0] == -MBP_RANGE && out.max[1] == MBP_RANGE);
    for (int k = 0; k < MBP_DIM; k++) { /* a point at the origin, tiny dt, huge acceleration */
        b.min[k] = b.max[k] = 0;
        v[k] = 0;
    }
#if MBP_SCALAR == MBP_FIXED
    CHECK_ST(mbp_sweep_motion(&b, v, a, 1, &out), MBP_OK); /* 2^30 * 2^-32 / 2: a raw unit */
    CHECK(out.max[0] >= 1 && out.max[0] <= 2 && out.min[0] <= -1 && out.min[0] >= -2);
    CHECK_ST(mbp_sweep_motion(&b, v, a, MBP_ONE * 2, &out), MBP_OK); /* saturates */
    CHECK(out.max[0] == MBP_RANGE && out.min[0] == -MBP_RANGE);
#else
    CHECK_ST(mbp_sweep_motion(&b, v, a, 1e-30f, &out), MBP_OK);
    CHECK(out.max[0] >= 0.0f && out.max[0] < 1e-3f);
#endif
}

/* A thin wall at x in [0, 1/8], y in [-8, 8]; a bullet sphere of radius 1/16 going from x = -4
 * to x = +4 in one step. */
TEST(a_fast_bullet_pairs_with_a_thin_wall_it_crosses_within_one_step)
{
#if MBP_WITH_FAST
    if (!MBP_WITH_SPHERES) {
        return;
    }
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        for (int fast = 0; fast < 2; fast++) {
            mbp_params p;
            mbp_params_default(&p);
            p.backend = diff_backends[bi];
            p.cell_size = MBP_ONE;
            p.grid_origin[0] = p.grid_origin[1] = mbp_from_int(-16);
            if (MBP_DIM == 3) {
                p.grid_origin[2] = mbp_from_int(-16);
            }
            CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
            mbp_body wall, bullet;
            mbp_shape w = box_s(0, -64, 1, 64), s = sphere_s(-32, 0, 0);
            s.u.sphere.r = mbp_from_ratio(1, 16);
            CHECK_ST(mbp_add_shape(&test_w, &w, 1u, &wall), MBP_OK);
            CHECK_ST(mbp_add_shape(&test_w, &s, 2u, &bullet), MBP_OK);
            if (fast) {
                CHECK_ST(mbp_set_fast(&test_w, bullet, true), MBP_OK);
            }
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            CHECK_EQ(mbp_pair_count(&test_w), 0);
            s.u.sphere.c[0] = e8(32); /* through the wall */
            CHECK_ST(mbp_move_shape(&test_w, bullet, &s), MBP_OK);
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            uint32_t nb;
            const mbp_pair *e = test_begun(&test_w, &nb);
            CHECK_EQ(nb, fast ? 1 : 0);
            CHECK(nb == 0u || e == NULL || (e[0].a == mbp_index(wall) && e[0].b == mbp_index(bullet)));
            s.u.sphere.c[0] = e8(96); /* on, clear of the wall */
            CHECK_ST(mbp_move_shape(&test_w, bullet, &s), MBP_OK);
            CHECK_ST(mbp_update(&test_w), MBP_OK);
            uint32_t ne;
            (void)test_ended(&test_w, &ne);
            CHECK_EQ(ne, fast ? 1 : 0);
            CHECK_EQ(mbp_pair_count(&test_w), 0);
        }
    }
#endif
}

TEST(a_fast_body_bound_covers_every_move_of_the_step_and_then_shrinks)
{
#if MBP_WITH_FAST
    mbp_params p;
    mbp_params_default(&p);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    mbp_body h;
    mbp_aabb b = unit_box(0, 0), got;
    CHECK_ST(mbp_add_box(&test_w, &b, 1u, &h), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, h, true), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_ST(mbp_get_box(&test_w, h, &got), MBP_OK);
    CHECK(mbp_aabb_contains(&b, &got) && mbp_aabb_contains(&got, &b)); /* not moved yet */
    mbp_aabb b1 = unit_box(16, 0), b2 = unit_box(16, 16);
    CHECK_ST(mbp_move_box(&test_w, h, &b1), MBP_OK); /* two moves in one step */
    CHECK_ST(mbp_move_box(&test_w, h, &b2), MBP_OK);
    CHECK_ST(mbp_get_box(&test_w, h, &got), MBP_OK);
    mbp_aabb want;
    mbp_aabb_union(&b, &b1, &want);
    mbp_aabb_union(&want, &b2, &want);
    CHECK(got.min[0] == want.min[0] && got.max[0] == want.max[0] && got.min[1] == want.min[1] &&
          got.max[1] == want.max[1]);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_ST(mbp_move_box(&test_w, h, &b2), MBP_OK); /* next step, standing still */
    CHECK_ST(mbp_get_box(&test_w, h, &got), MBP_OK);
    CHECK(got.min[0] == b2.min[0] && got.max[0] == b2.max[0] && got.min[1] == b2.min[1]);
    CHECK_ST(mbp_move_box(&test_w, h, &b1), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, h, false), MBP_OK); /* off: its own box again */
    CHECK_ST(mbp_get_box(&test_w, h, &got), MBP_OK);
    CHECK(got.min[0] == b1.min[0] && got.max[1] == b1.max[1] && got.min[1] == b1.min[1]);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    mbp_body stale = h;
    CHECK_ST(mbp_remove(&test_w, h), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, stale, true), MBP_E_STALE);
#endif
}

/* Pairs with a fast body test the other body's shape against the bound: a sphere beside the
 * bound's corner does not pair, a sphere inside it does. */
TEST(a_fast_body_pairs_where_the_other_shape_meets_its_bound)
{
#if MBP_WITH_FAST
    if (!MBP_WITH_SPHERES) {
        return;
    }
    mbp_params p;
    mbp_params_default(&p);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    mbp_body f, near, in;
    mbp_aabb b0 = unit_box(0, 0), b1 = unit_box(32, 0);
    /* the bound will be [0, 40] x [0, 8]: s1 is 4, 3 from its corner (40, 8), 5 > 4 away */
    mbp_shape s1 = sphere_s(44, 11, 4), s2 = sphere_s(20, 4, 1);
    CHECK_ST(mbp_add_box(&test_w, &b0, 1u, &f), MBP_OK);
    CHECK_ST(mbp_add_shape(&test_w, &s1, 2u, &near), MBP_OK);
    CHECK_ST(mbp_add_shape(&test_w, &s2, 3u, &in), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, f, true), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    CHECK_ST(mbp_move_box(&test_w, f, &b1), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    uint32_t nb;
    const mbp_pair *e = test_begun(&test_w, &nb);
    CHECK_EQ(nb, 1);
    CHECK(nb == 1u && (e == NULL || (e[0].a == mbp_index(f) && e[0].b == mbp_index(in))));
#endif
}

TEST(fast_box_bodies_take_a_pool_entry_and_fast_spheres_do_not)
{
#if MBP_WITH_FAST
    if (!MBP_WITH_CAPSULE || !MBP_WITH_SPHERES) {
        return;
    }
    mbp_params p;
    mbp_params_default(&p);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    mbp_body h[MBP_MAX_SHAPES], box, ball;
    mbp_shape b = box_s(0, 0, 8, 8), s = sphere_s(0, 0, 4);
    for (uint32_t i = 0; i < MBP_MAX_SHAPES; i++) { /* in a row, apart */
        mbp_shape ci = capsule_s(32 + 16 * (int32_t)i, 0, 40 + 16 * (int32_t)i, 0, 2);
        CHECK_ST(mbp_add_shape(&test_w, &ci, i, &h[i]), MBP_OK);
    }
    if (MBP_MAX_SHAPES + 2u > MBP_MAX_BODIES) {
        return;
    }
    CHECK_ST(mbp_add_shape(&test_w, &b, 7u, &box), MBP_OK);
    CHECK_ST(mbp_add_shape(&test_w, &s, 8u, &ball), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, box, true), MBP_E_FULL);
    CHECK_ST(mbp_set_fast(&test_w, ball, true), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, h[0], true), MBP_OK); /* a capsule has its entry already */
    CHECK_ST(mbp_move_shape(&test_w, ball, &b), MBP_E_FULL); /* a fast box would need one */
    CHECK_ST(mbp_remove(&test_w, h[1]), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, box, true), MBP_OK);
    CHECK_ST(mbp_move_shape(&test_w, h[0], &b), MBP_OK); /* a fast capsule becomes a fast box */
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_ST(mbp_set_fast(&test_w, box, false), MBP_OK);
    CHECK_ST(mbp_move_shape(&test_w, ball, &b), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
#endif
}
