/* SPDX-License-Identifier: MIT */
/* test_shape_gen.h: random shapes for the shape tests, on a grid of 1/64 units (exact in float
 * and in fixed point), including the degenerate ones: zero extents, zero radius, zero-length
 * capsules, single-point k-DOPs, rotations by exact multiples of 90 degrees. A header so that
 * the M0's one-image-per-file build needs no extra source. */
#ifndef TEST_SHAPE_GEN_H
#define TEST_SHAPE_GEN_H

#include "test_shape_ref.h"

/* n / 64 units */
static inline mbp_scalar gen_q(int32_t n)
{
    return mbp_from_ratio(n, 64);
}

/* uniform in [lo, hi] */
static inline int32_t gen_int(uint32_t *rng, int32_t lo, int32_t hi)
{
    return lo + (int32_t)test_below(rng, (uint32_t)(hi - lo + 1));
}

static inline double gen_real(uint32_t *rng)
{
    return (double)test_below(rng, 1u << 24) / (double)(1u << 24);
}

static inline mbp_unit gen_unit(double x)
{
#if MBP_SCALAR == MBP_FIXED
    double y = x * 1073741824.0;
    return (mbp_unit)(y < 0 ? y - 0.5 : y + 0.5);
#else
    return (mbp_unit)x;
#endif
}

/* A random rotation; one in four an exact multiple of 90 degrees (a signed permutation). */
static inline void gen_rotation(uint32_t *rng, mbp_unit rot[MBP_DIM][MBP_DIM])
{
    if (test_below(rng, 4u) == 0u) {
        int perm[3] = {0, 1, 2};
        for (int i = MBP_DIM - 1; i > 0; i--) {
            int j = (int)test_below(rng, (uint32_t)(i + 1));
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (int i = 0; i < MBP_DIM; i++) {
            mbp_unit sg = test_below(rng, 2u) ? MBP_UNIT_ONE : -MBP_UNIT_ONE;
            for (int k = 0; k < MBP_DIM; k++) {
                rot[i][k] = k == perm[i] ? sg : (mbp_unit)0;
            }
        }
        return;
    }
#if MBP_DIM == 2
    double s, c;
    ref_sincos(gen_real(rng) * 6.283185307179586, &s, &c);
    rot[0][0] = gen_unit(c);
    rot[0][1] = gen_unit(s);
    rot[1][0] = gen_unit(-s);
    rot[1][1] = gen_unit(c);
#else
    double q[4], n = 0;
    do {
        n = 0;
        for (int i = 0; i < 4; i++) {
            q[i] = 2 * gen_real(rng) - 1;
            n += q[i] * q[i];
        }
    } while (n < 0.01 || n > 1);
    n = ref_sqrt(n);
    for (int i = 0; i < 4; i++) {
        q[i] /= n;
    }
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)},
                      {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)},
                      {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)}};
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) {
            rot[i][k] = gen_unit(m[i][k]);
        }
    }
#endif
}

/* A size in 1/64 units up to max, zero one time in eight. */
static inline int32_t gen_size(uint32_t *rng, int32_t max)
{
    return test_below(rng, 8u) == 0u ? 0 : gen_int(rng, 0, max);
}

/* A random shape of this kind near centre (1/64 units). */
static inline void gen_shape(uint32_t *rng, int kind, const int32_t *centre, mbp_shape *s)
{
    s->kind = (uint8_t)kind;
    int32_t c[3];
    for (int k = 0; k < MBP_DIM; k++) {
        c[k] = centre[k] + gen_int(rng, -64, 64);
    }
    switch (kind) {
    case MBP_SHAPE_BOX:
        for (int k = 0; k < MBP_DIM; k++) {
            int32_t e = gen_size(rng, 192);
            s->u.box.min[k] = gen_q(c[k] - e);
            s->u.box.max[k] = gen_q(c[k] + gen_size(rng, 192));
        }
        break;
    case MBP_SHAPE_SPHERE:
        for (int k = 0; k < MBP_DIM; k++) {
            s->u.sphere.c[k] = gen_q(c[k]);
        }
        s->u.sphere.r = gen_q(gen_size(rng, 192));
        break;
    case MBP_SHAPE_OBB:
        for (int k = 0; k < MBP_DIM; k++) {
            s->u.obb.c[k] = gen_q(c[k]);
            s->u.obb.h[k] = gen_q(gen_size(rng, 192));
        }
        gen_rotation(rng, s->u.obb.rot);
        break;
#if MBP_WITH_KDOP
    case MBP_SHAPE_KDOP:
        for (;;) {
            if (test_below(rng, 2u) == 0u) { /* the k-DOP of a few points */
                mbp_scalar p[6][MBP_DIM];
                uint32_t n = 1u + test_below(rng, 6u);
                for (uint32_t i = 0; i < n; i++) {
                    for (int k = 0; k < MBP_DIM; k++) {
                        p[i][k] = gen_q(c[k] + gen_int(rng, -192, 192));
                    }
                }
                CHECK_ST(mbp_kdop_from_points((const mbp_scalar(*)[MBP_DIM])p, n, &s->u.kdop),
                         MBP_OK);
                break;
            }
            /* a box with random diagonal cuts, then tightened */
            int32_t lo[3], hi[3];
            for (int k = 0; k < MBP_DIM; k++) {
                lo[k] = c[k] - gen_size(rng, 192);
                hi[k] = c[k] + gen_size(rng, 192);
                s->u.kdop.min[k] = gen_q(lo[k]);
                s->u.kdop.max[k] = gen_q(hi[k]);
            }
            for (int j = MBP_DIM; j < MBP_KDOP_AXES; j++) {
                int32_t a = 0, b = 0;
                for (int k = 0; k < MBP_DIM; k++) {
                    int32_t n = (int32_t)ref_n(j)[k];
                    a += n > 0 ? n * lo[k] : n * hi[k];
                    b += n > 0 ? n * hi[k] : n * lo[k];
                }
                int32_t x = gen_int(rng, a, b), y = gen_int(rng, a, b);
                if (test_below(rng, 3u) == 0u) {
                    x = a; /* no cut below */
                }
                s->u.kdop.min[j] = gen_q(x < y ? x : y);
                s->u.kdop.max[j] = gen_q(x < y ? y : x);
            }
            if (mbp_kdop_tighten(&s->u.kdop) == MBP_OK) {
                break;
            }
        }
        break;
#endif
    case MBP_SHAPE_RSS: /* zero half-lengths (a sphere, a capsule) and radius one time in eight */
        for (int k = 0; k < MBP_DIM; k++) {
            s->u.rss.c[k] = gen_q(c[k]);
        }
        s->u.rss.h[0] = gen_q(gen_size(rng, 160));
        s->u.rss.h[1] = gen_q(gen_size(rng, 160));
        s->u.rss.r = gen_q(gen_size(rng, 96));
        gen_rotation(rng, s->u.rss.rot);
        break;
    default:
        for (int k = 0; k < MBP_DIM; k++) {
            s->u.capsule.a[k] = gen_q(c[k]);
        }
        {
            bool zero = test_below(rng, 5u) == 0u;
            for (int k = 0; k < MBP_DIM; k++) {
                s->u.capsule.b[k] = gen_q(c[k] + (zero ? 0 : gen_int(rng, -256, 256)));
            }
        }
        s->u.capsule.r = gen_q(gen_size(rng, 128));
        break;
    }
}

/* The kinds compiled in, for loops. */
static inline bool gen_kind_on(int kind)
{
    switch (kind) {
    case MBP_SHAPE_OBB:
        return MBP_WITH_OBB != 0;
    case MBP_SHAPE_KDOP:
        return MBP_WITH_KDOP != 0;
    case MBP_SHAPE_CAPSULE:
        return MBP_WITH_CAPSULE != 0;
    case MBP_SHAPE_RSS:
        return MBP_WITH_RSS != 0;
    default:
        return true;
    }
}

/* Shape constructors in eighths of a unit (exact in float and fixed point). In 3D, centres and
 * points are at z = 0 and boxes span z in [-8, 8]: the 2D pictures, thickened. */
static inline mbp_scalar e8(int32_t n)
{
    return mbp_from_ratio(n, 8);
}

static inline mbp_shape box_s(int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    mbp_shape s;
    s.kind = MBP_SHAPE_BOX;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.box.min[k] = e8(k == 0 ? x0 : k == 1 ? y0 : -8);
        s.u.box.max[k] = e8(k == 0 ? x1 : k == 1 ? y1 : 8);
    }
    return s;
}

static inline mbp_shape sphere_s(int32_t x, int32_t y, int32_t r)
{
    mbp_shape s;
    s.kind = MBP_SHAPE_SPHERE;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.sphere.c[k] = e8(k == 0 ? x : k == 1 ? y : 0);
    }
    s.u.sphere.r = e8(r);
    return s;
}

static inline mbp_shape capsule_s(int32_t ax, int32_t ay, int32_t bx, int32_t by, int32_t r)
{
    mbp_shape s;
    s.kind = MBP_SHAPE_CAPSULE;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.capsule.a[k] = e8(k == 0 ? ax : k == 1 ? ay : 0);
        s.u.capsule.b[k] = e8(k == 0 ? bx : k == 1 ? by : 0);
    }
    s.u.capsule.r = e8(r);
    return s;
}

/* An RSS centred at (x, y, [0]) with half-lengths (hx, hy) and radius r, its rectangle in the xy
 * plane (3D: normal z), axis-aligned. */
static inline mbp_shape rss_s(int32_t x, int32_t y, int32_t hx, int32_t hy, int32_t r)
{
    mbp_shape s;
    s.kind = MBP_SHAPE_RSS;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.rss.c[k] = e8(k == 0 ? x : k == 1 ? y : 0);
        for (int j = 0; j < MBP_DIM; j++) {
            s.u.rss.rot[k][j] = k == j ? MBP_UNIT_ONE : (mbp_unit)0;
        }
    }
    s.u.rss.h[0] = e8(hx);
    s.u.rss.h[1] = e8(hy);
    s.u.rss.r = e8(r);
    return s;
}

/* An oriented box at (x, y, [y]) with half extents (hx, hy, [hy]), its first axis turned by
 * quarter turns q (0..3) in the xy plane. */
static inline mbp_shape obb_s(int32_t x, int32_t y, int32_t hx, int32_t hy, int q)
{
    mbp_shape s;
    s.kind = MBP_SHAPE_OBB;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.obb.c[k] = e8(k == 0 ? x : k == 1 ? y : 0);
        s.u.obb.h[k] = e8(k == 0 ? hx : k == 1 ? hy : 8);
        for (int j = 0; j < MBP_DIM; j++) {
            s.u.obb.rot[k][j] = k == j ? MBP_UNIT_ONE : (mbp_unit)0;
        }
    }
    static const int cs[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    mbp_unit one = MBP_UNIT_ONE, zero = 0;
    mbp_unit c = cs[q][0] > 0 ? one : cs[q][0] < 0 ? -one : zero;
    mbp_unit sn = cs[q][1] > 0 ? one : cs[q][1] < 0 ? -one : zero;
    s.u.obb.rot[0][0] = c;
    s.u.obb.rot[0][1] = sn;
    s.u.obb.rot[1][0] = -sn;
    s.u.obb.rot[1][1] = c;
    return s;
}

/* The diamond |x| + |y| <= r (in 3D also |z| <= r and every diagonal bound r) at (x, y). */
static inline mbp_shape diamond_s(int32_t x, int32_t y, int32_t r)
{
    mbp_shape s;
    s.kind = MBP_SHAPE_KDOP;
    for (int j = 0; j < MBP_KDOP_AXES; j++) {
        int32_t c = 0;
        for (int k = 0; k < MBP_DIM; k++) {
            c += (int32_t)ref_n(j)[k] * (k == 0 ? x : k == 1 ? y : 0);
        }
        s.u.kdop.min[j] = e8(c - r);
        s.u.kdop.max[j] = e8(c + r);
    }
    return s;
}

#endif
