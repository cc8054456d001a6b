/* SPDX-License-Identifier: MIT */
/* test_query_sphere.c: sphere queries, and rays against sphere bodies, on every backend, against
 * a scan written here.
 *
 * Scenes are in whole units (exact in float and fixed point), so the scan decides in integers:
 * a sphere meets a box when the squared distance from its centre to the box is at most r^2, two
 * spheres when the distance between centres is at most the sum of the radii, a segment meets a
 * sphere when its nearest point to the centre is within r. The entry fraction is worked out in
 * double. Shape bodies are decided by mbp_shape_overlap() (checked against its own reference in
 * test_shape_diff.c and test_shape_ref.c): here the question is that the query reaches it.
 */
#include "diff.h"
#include "test_shape_gen.h"

enum { QS_BOX, QS_SPHERE, QS_SHAPE };

typedef struct {
    uint8_t kind;
    int32_t lo[3], hi[3]; /* QS_BOX */
    int32_t c[3], r;      /* QS_SPHERE */
} qs_body;

static qs_body g_qb[MBP_MAX_BODIES];
#if MBP__SHAPES
static mbp_shape g_qshape[MBP_MAX_BODIES];
#endif
static uint16_t g_out[MBP_MAX_BODIES];
static mbp_hit g_hits[MBP_MAX_BODIES];

static void qs_init(mbp_backend b)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = b;
    p.cell_size = 8 * MBP_ONE;
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

/* Integer coordinates on every axis: axis 0 is x, the others y (as box2() and sph()). */
static void qs_point(int32_t x, int32_t y, int32_t *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        out[k] = k == 0 ? x : y;
    }
}

static mbp_sphere qs_sphere(const int32_t *c, int32_t r)
{
    mbp_sphere s;
    for (int k = 0; k < MBP_DIM; k++) {
        s.c[k] = mbp_from_int(c[k]);
    }
    s.r = mbp_from_int(r);
    return s;
}

/* Body i, new or moved: a box, a sphere (with MBP_WITH_SPHERES) or, every eighth body, a shape
 * (when compiled in: an eighth of the bodies stays within the shape pool). */
static void qs_place(uint32_t *rng, uint16_t i, bool add)
{
    qs_body *b = &g_qb[i];
    int32_t x = (int32_t)test_below(rng, 50u), y = (int32_t)test_below(rng, 50u);
    uint32_t pick = i % 8u == 7u ? 6u : test_below(rng, 6u);
    mbp_body h = add ? (mbp_body){0u, 0u} : mbp_handle(&test_w, i);
    if (pick < 3u || (!MBP_WITH_SPHERES && pick < 6u)) {
        b->kind = QS_BOX;
        qs_point(x, y, b->lo);
        qs_point(x + (int32_t)test_below(rng, 5u), y + (int32_t)test_below(rng, 5u), b->hi);
        mbp_aabb box;
        for (int k = 0; k < MBP_DIM; k++) {
            box.min[k] = mbp_from_int(b->lo[k]);
            box.max[k] = mbp_from_int(b->hi[k]);
        }
        CHECK_ST(add ? mbp_add_box(&test_w, &box, i, &h) : mbp_move_box(&test_w, h, &box),
                 MBP_OK);
    } else if (pick < 6u) {
#if MBP_WITH_SPHERES
        b->kind = QS_SPHERE;
        qs_point(x, y, b->c);
        b->r = (int32_t)test_below(rng, 5u);
        mbp_sphere s = qs_sphere(b->c, b->r);
        CHECK_ST(add ? mbp_add_sphere(&test_w, &s, i, &h) : mbp_move_sphere(&test_w, h, &s),
                 MBP_OK);
#endif
    } else {
        int kind = MBP_SHAPE_BOX;
#if MBP__SHAPES
        static const int kinds[4] = {MBP_SHAPE_OBB, MBP_SHAPE_KDOP, MBP_SHAPE_CAPSULE,
                                     MBP_SHAPE_RSS};
        kind = kinds[test_below(rng, 4u)];
        while (!gen_kind_on(kind)) {
            kind = kinds[test_below(rng, 4u)];
        }
#endif
        int32_t c64[3];
        for (int k = 0; k < MBP_DIM; k++) {
            c64[k] = 64 * (k == 0 ? x : y);
        }
        mbp_shape s;
        gen_shape(rng, kind, c64, &s);
        b->kind = QS_SHAPE;
#if MBP__SHAPES
        g_qshape[i] = s;
        CHECK_ST(add ? mbp_add_shape(&test_w, &s, i, &h) : mbp_move_shape(&test_w, h, &s),
                 MBP_OK);
#else
        /* no shapes compiled in: a box body, decided by the box test */
        b->kind = QS_BOX;
        for (int k = 0; k < MBP_DIM; k++) {
            b->lo[k] = k == 0 ? x : y;
            b->hi[k] = b->lo[k] + 1;
            s.u.box.min[k] = mbp_from_int(b->lo[k]);
            s.u.box.max[k] = mbp_from_int(b->hi[k]);
        }
        CHECK_ST(add ? mbp_add_box(&test_w, &s.u.box, i, &h) : mbp_move_box(&test_w, h, &s.u.box),
                 MBP_OK);
#endif
    }
    CHECK_EQ(mbp_index(h), i);
}

static int64_t qs_sq(int64_t v)
{
    return v * v;
}

/* The scan's sphere test: body i against the sphere (c, r). */
static bool qs_meets(uint16_t i, const int32_t *c, int32_t r)
{
    const qs_body *b = &g_qb[i];
    int64_t d2 = 0;
    switch (b->kind) {
    case QS_BOX:
        for (int k = 0; k < MBP_DIM; k++) {
            d2 += c[k] < b->lo[k] ? qs_sq(b->lo[k] - c[k]) : c[k] > b->hi[k] ? qs_sq(c[k] - b->hi[k]) : 0;
        }
        return d2 <= qs_sq(r);
    case QS_SPHERE:
        for (int k = 0; k < MBP_DIM; k++) {
            d2 += qs_sq(c[k] - b->c[k]);
        }
        return d2 <= qs_sq(r + b->r);
    default: {
#if MBP__SHAPES
        mbp_shape q;
        q.kind = MBP_SHAPE_SPHERE;
        q.u.sphere = qs_sphere(c, r);
        return mbp_shape_overlap(&g_qshape[i], &q);
#else
        return false;
#endif
    }
    }
}

/* The scan's segment test against a sphere body: true when p0 + s (p1 - p0), s in [0, 1], comes
 * within r of c; *t = the first such s. */
static bool qs_ray_sphere(const int32_t *p0, const int32_t *p1, const qs_body *b, double *t)
{
    int64_t a = 0, bb = 0, ff = 0, gg = 0, r2 = qs_sq(b->r);
    for (int k = 0; k < MBP_DIM; k++) {
        int64_t d = p1[k] - p0[k], f = p0[k] - b->c[k];
        a += d * d;
        bb += f * d;
        ff += f * f;
        gg += qs_sq(p1[k] - b->c[k]);
    }
    *t = 0;
    if (ff <= r2) {
        return true;
    }
    /* nearest point: s = -bb / a clamped to [0, 1] */
    bool near;
    if (bb >= 0) {
        near = false; /* the start is the nearest point, and it is outside */
    } else if (-bb >= a) {
        near = gg <= r2;
    } else {
        near = a * ff - bb * bb <= a * r2; /* distance^2 = ff - bb^2 / a */
    }
    if (near) {
        double disc = (double)bb * (double)bb - (double)a * (double)(ff - r2);
        *t = (-(double)bb - ref_sqrt(disc)) / (double)a;
    }
    return near;
}

/* The scan's segment test against a box (slabs, in double: exact enough to order the small
 * fractions of these scenes). */
static bool qs_ray_box(const int32_t *p0, const int32_t *p1, const int32_t *lo, const int32_t *hi,
                       double *t)
{
    double tin = 0, tout = 1;
    for (int k = 0; k < MBP_DIM; k++) {
        double d = (double)(p1[k] - p0[k]);
        if (d == 0) {
            if (p0[k] < lo[k] || p0[k] > hi[k]) {
                return false;
            }
            continue;
        }
        double e0 = (lo[k] - p0[k]) / d, e1 = (hi[k] - p0[k]) / d;
        if (e0 > e1) {
            double x = e0;
            e0 = e1;
            e1 = x;
        }
        tin = e0 > tin ? e0 : tin;
        tout = e1 < tout ? e1 : tout;
    }
    *t = tin;
    return tin <= tout;
}

/* The library's t against the scan's: fixed point, the exact fraction rounded down; float, not
 * after it, and where the segment is at t on the sphere to float's rounding of squared distances
 * (a grazing segment's entry moves far for a small change in them). */
static bool qs_t_close(mbp_scalar got, double want, const int32_t *p0, const int32_t *p1,
                       const qs_body *b)
{
#if MBP_SCALAR == MBP_FIXED
    (void)p0;
    (void)p1;
    (void)b;
    double raw = want * (double)MBP_ONE;
    return (double)got <= raw + 1e-6 && (double)got > raw - 1.0 - 1e-6;
#else
    double g = 0, scale = (double)b->r * b->r;
    for (int k = 0; k < MBP_DIM; k++) {
        double f = p0[k] - b->c[k], d = p1[k] - p0[k], v = f + (double)got * d;
        g += v * v;
        scale += f * f + d * d;
    }
    g -= (double)b->r * b->r;
    return (double)got <= want + 1e-6 && (got == 0 || (g >= -1e-6 * scale && g <= 1e-6 * scale));
#endif
}

/* A box's t: fixed point rounded down, float within its rounding. */
static bool qs_box_t_close(mbp_scalar got, double want)
{
#if MBP_SCALAR == MBP_FIXED
    double raw = want * (double)MBP_ONE;
    return (double)got <= raw + 1e-6 && (double)got > raw - 1.0 - 1e-6;
#else
    return (double)got <= want + 1e-6 && (double)got >= want - 1e-6;
#endif
}

/* One sphere query against the scan; the truncated form too. */
static void qs_check_query(uint32_t *rng, uint32_t n)
{
    int32_t c[3];
    qs_point((int32_t)test_below(rng, 60u) - 5, (int32_t)test_below(rng, 60u) - 5, c);
    int32_t r = (int32_t)test_below(rng, 9u);
    mbp_sphere s = qs_sphere(c, r);
    uint32_t got = 0, want = 0;
    CHECK_ST(mbp_query_sphere(&test_w, &s, 0xFFFFu, g_out, MBP_MAX_BODIES, &got), MBP_OK);
    bool same = true;
    for (uint16_t i = 0; i < n; i++) {
        if (qs_meets(i, c, r)) {
            same = same && want < got && g_out[want] == i;
            want++;
        }
    }
    CHECK(same);
    CHECK_EQ(got, want);
    if (want >= 2u) {
        uint16_t first = g_out[0];
        uint32_t cut = 0;
        CHECK_ST(mbp_query_sphere(&test_w, &s, 0xFFFFu, g_out, 1u, &cut), MBP_E_TRUNCATED);
        CHECK_EQ(cut, want);
        CHECK_EQ(g_out[0], first);
    }
}

/* One ray against the scan: the same bodies, the same order, each t close to the scan's. */
static void qs_check_ray(uint32_t *rng, uint32_t n)
{
    int32_t p0[3], p1[3];
    qs_point((int32_t)test_below(rng, 70u) - 10, (int32_t)test_below(rng, 70u) - 10, p0);
    qs_point((int32_t)test_below(rng, 70u) - 10, (int32_t)test_below(rng, 70u) - 10, p1);
    mbp_scalar q0[MBP_DIM], q1[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        q0[k] = mbp_from_int(p0[k]);
        q1[k] = mbp_from_int(p1[k]);
    }
    uint32_t got = 0, want = 0;
    CHECK_ST(mbp_raycast(&test_w, q0, q1, 0xFFFFu, g_hits, MBP_MAX_BODIES, &got), MBP_OK);
    bool same = true;
    for (uint16_t i = 0; i < n; i++) {
        const qs_body *b = &g_qb[i];
        double t;
        bool hit;
        if (b->kind == QS_SPHERE) {
            hit = qs_ray_sphere(p0, p1, b, &t);
        } else if (b->kind == QS_BOX) {
            hit = qs_ray_box(p0, p1, b->lo, b->hi, &t);
        } else {
            continue; /* shapes: by their box, tested in test_query.c */
        }
        if (!hit) {
            for (uint32_t j = 0; j < got; j++) {
                same = same && g_hits[j].index != i;
            }
            continue;
        }
        want++;
        bool found = false;
        for (uint32_t j = 0; j < got; j++) {
            if (g_hits[j].index == i) {
                found = true;
                same = same && (b->kind == QS_BOX ? qs_box_t_close(g_hits[j].t, t)
                                                  : qs_t_close(g_hits[j].t, t, p0, p1, b));
            }
        }
        same = same && found;
    }
    for (uint32_t j = 1; j < got; j++) {
        same = same && (g_hits[j - 1].t < g_hits[j].t ||
                        (g_hits[j - 1].t == g_hits[j].t && g_hits[j - 1].index < g_hits[j].index));
    }
    CHECK(same);
    if (MBP__SHAPES == 0) {
        CHECK_EQ(got, want);
    }
}

TEST(random_sphere_queries_and_rays_match_a_scan_on_every_backend)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        qs_init(diff_backends[bi]);
        uint32_t rng = 901u + 17u * bi, n = TEST_BODIES;
        for (uint16_t i = 0; i < n; i++) {
            qs_place(&rng, i, true);
        }
        for (uint32_t f = 0; f < 4u && !mbp_test_failed(); f++) {
            if (f % 2u == 0u) {
                CHECK_ST(mbp_update(&test_w), MBP_OK); /* odd rounds: bodies moved since */
            }
            for (uint32_t qn = 0; qn < 25u; qn++) {
                qs_check_query(&rng, n);
                qs_check_ray(&rng, n);
            }
            for (uint16_t i = 0; i < n; i += 4u) {
                qs_place(&rng, i, false);
            }
        }
    }
}

TEST(a_sphere_query_finds_what_its_box_holds_only_inside_the_sphere)
{
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        qs_init(diff_backends[bi]);
        mbp_body h[3];
        mbp_aabb corner = box2(4, 4, 6, 6), touching = box2(-8, -1, -5, 1), far = box2(20, 20, 21, 21);
        CHECK_ST(mbp_add_box(&test_w, &corner, 0u, &h[0]), MBP_OK);   /* in the box, not the circle */
        CHECK_ST(mbp_add_box(&test_w, &touching, 1u, &h[1]), MBP_OK); /* touches it at x = -5 */
        CHECK_ST(mbp_add_box(&test_w, &far, 2u, &h[2]), MBP_OK);
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        mbp_sphere s = sph(0, 0, 5);
        uint32_t n = 99;
        CHECK_ST(mbp_query_sphere(&test_w, &s, 0xFFFFu, g_out, 3u, &n), MBP_OK);
        CHECK(n == 1 && g_out[0] == 1);
        /* the mask filters by category, as for the other queries */
        CHECK_ST(mbp_set_filter(&test_w, h[1], 0x0004u, 0xFFFFu), MBP_OK);
        CHECK_ST(mbp_query_sphere(&test_w, &s, 0x0001u, g_out, 3u, &n), MBP_OK);
        CHECK_EQ(n, 0);
        CHECK_ST(mbp_query_sphere(&test_w, &s, 0x0004u, NULL, 0u, &n), MBP_E_TRUNCATED);
        CHECK_EQ(n, 1);
    }
}

TEST(a_sphere_query_refuses_a_bad_sphere)
{
    qs_init(diff_backends[0]);
    mbp_sphere s = sph(0, 0, 1);
    uint32_t n = 7;
    s.r = -MBP_ONE;
    CHECK_ST(mbp_query_sphere(&test_w, &s, 0xFFFFu, g_out, 1u, &n), MBP_E_BADBOX);
    s = sph(0, 0, 1);
    s.c[0] = MBP_RANGE;
    s.c[0] = s.c[0] + s.c[0];
    CHECK_ST(mbp_query_sphere(&test_w, &s, 0xFFFFu, g_out, 1u, &n), MBP_E_RANGE);
    CHECK_EQ(n, 7); /* untouched */
}

#if MBP_WITH_SPHERES
/* The world holds one sphere body, updated. */
static void qs_only(const mbp_sphere *s)
{
    mbp_body h;
    CHECK_ST(mbp_add_sphere(&test_w, s, 0u, &h), MBP_OK);
    CHECK_ST(mbp_update(&test_w), MBP_OK);
}
#endif

TEST(a_ray_enters_a_sphere_body_at_the_sphere_not_its_box)
{
#if MBP_WITH_SPHERES
    for (uint32_t bi = 0; bi < diff_backend_count; bi++) {
        qs_init(diff_backends[bi]);
        int32_t c[3];
        qs_point(10, 0, c); /* on the first axis, 0 on the others */
        mbp_sphere s = qs_sphere(c, 5);
        qs_only(&s);
        mbp_scalar p0[MBP_DIM] = {0}, p1[MBP_DIM] = {0};
        mbp_hit hit;
        bool found = false;
        /* along the axis from x = 0 to 20: enters at x = 5, t = 1/4 exactly */
        p1[0] = mbp_from_int(20);
        CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &hit, &found), MBP_OK);
#if MBP_SCALAR == MBP_FIXED
        CHECK(found && hit.t == mbp_from_ratio(1, 4)); /* the exact fraction, a whole raw unit */
#else
        CHECK(found && hit.t <= 0.25f && hit.t > 0.25f - 1e-6f);
#endif
        /* through the corner of its box, outside the circle: (5, 4) to (7, 6) */
        p0[0] = mbp_from_int(5);
        p0[1] = mbp_from_int(4);
        p1[0] = mbp_from_int(6);
        p1[1] = mbp_from_int(5);
        CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &hit, &found), MBP_OK);
        CHECK(!found);
        /* starting inside: t = 0; grazing it at (10, 5): a hit */
        p0[0] = mbp_from_int(9);
        p0[1] = 0;
        CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &hit, &found), MBP_OK);
        CHECK(found && hit.t == 0);
        p0[0] = 0;
        p0[1] = mbp_from_int(5);
        p1[0] = mbp_from_int(20);
        p1[1] = mbp_from_int(5);
        CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &hit, &found), MBP_OK);
        CHECK(found && hit.t > mbp_from_ratio(49, 100) && hit.t <= mbp_from_ratio(1, 2));
    }
#endif
}

/* Near the ends of the range: fixed point needs its 128-bit products here, float its scaling. A
 * segment along y = r from x = -R to R touches the sphere (centre 0, radius r) at x = 0, t 1/2;
 * one step higher it misses. Along the axis it enters at x = -r. */
TEST(a_ray_far_out_in_the_range_meets_a_sphere_body_exactly)
{
#if MBP_WITH_SPHERES
    qs_init(diff_backends[0]);
#if MBP_SCALAR == MBP_FIXED
    const mbp_scalar R = MBP_RANGE, r = (mbp_scalar)1 << 28, up = 1;
#else
    const mbp_scalar R = 1125899906842624.0f /* 2^50 */, r = 1099511627776.0f /* 2^40 */;
    const mbp_scalar up = r / 1048576.0f; /* 2^-20 of r */
#endif
    mbp_sphere s;
    for (int k = 0; k < MBP_DIM; k++) {
        s.c[k] = 0;
    }
    s.r = r;
    qs_only(&s);
    mbp_scalar p0[MBP_DIM] = {0}, p1[MBP_DIM] = {0};
    mbp_hit hit;
    bool found = false;
    p0[0] = -R;
    p1[0] = R;
    p0[1] = p1[1] = r;
    CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &hit, &found), MBP_OK);
    CHECK(found && qs_box_t_close(hit.t, 0.5));
    p0[1] = p1[1] = r + up;
    CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &hit, &found), MBP_OK);
    CHECK(!found);
    p0[1] = p1[1] = 0;
    CHECK_ST(mbp_raycast_first(&test_w, p0, p1, 0xFFFFu, &hit, &found), MBP_OK);
#if MBP_SCALAR == MBP_FIXED
    /* (R - r) / 2R exactly, rounded down to a raw unit */
    int64_t want = (((int64_t)R - r) << MBP_FIXED_FRAC_BITS) / (2 * (int64_t)R);
    CHECK(found && hit.t == (mbp_scalar)want);
#else
    CHECK(found && qs_box_t_close(hit.t, (double)(R - r) / (2.0 * (double)R)));
#endif
#endif
}
