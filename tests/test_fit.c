/* SPDX-License-Identifier: MIT */
/* test_fit.c: volumes fitted to points (mbp_fit.c, mbp_fit_sphere.c, mbp_fit_obb.c). Every
 * fitted volume holds every point, on the stored values; the sphere is within its documented
 * bound of the minimum, found by brute force in double; the oriented box follows the principal
 * axis computed in double and is never larger than the axis-aligned box. Random clouds at many
 * scales, the ends of the range, and the degenerate cases (all points equal, collinear,
 * coplanar, isotropic).
 *
 * Containment is exact in fixed point (64-bit integers on the stored values). In float it is
 * checked in double: a difference of two floats of the clouds here, and its square, are exact in
 * double, so the check is exact up to the sum of two or three such squares (2^-52 relative). */
#include "test_util.h"

#define FIT_MAX 24                          /* points per cloud: the M0 runs this file alone */
#define FIT_REF_MAX (MBP_DIM == 2 ? 12 : 8) /* brute-force minimum: O(n^(MBP_DIM + 2)) */
#define FIT_CLOUDS 40u

static mbp_scalar pts[FIT_MAX][MBP_DIM];

static const mbp_scalar (*cpts(void))[MBP_DIM]
{
    return (const mbp_scalar(*)[MBP_DIM])pts;
}

/* A coordinate: v raw units (fixed) or v / 2^16 units times 2^up (float; up ignored in fixed). */
static mbp_scalar coord(int64_t v, int up)
{
#if MBP_SCALAR == MBP_FIXED
    (void)up;
    return (mbp_scalar)v;
#else
    double s = 1.0 / 65536.0;
    for (int i = 0; i < up; i++) {
        s *= 2.0;
    }
    for (int i = 0; i > up; i--) {
        s *= 0.5;
    }
    return (mbp_scalar)((double)v * s);
#endif
}

static int64_t rnd(uint32_t *rng, int64_t lo, int64_t hi)
{
    uint64_t w = (uint64_t)(hi - lo) + 1u;
    uint64_t r = ((uint64_t)test_rand(rng) << 32 | test_rand(rng)) % w;
    return lo + (int64_t)r;
}

/* n random points: spread 2^bits (bits <= 28) around a random centre; elongated: along
 * (1, 1/2, 1/2) with a sixteenth of the spread across. */
static void cloud(uint32_t *rng, uint32_t n, int bits, bool elongated, int up)
{
    int64_t span = (int64_t)1 << bits;
    int64_t cen[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        cen[k] = rnd(rng, -((int64_t)1 << 28), (int64_t)1 << 28);
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t v0 = rnd(rng, -span, span);
        for (int k = 0; k < MBP_DIM; k++) {
            int64_t v = k == 0 ? v0 : rnd(rng, -span, span);
            if (elongated && k > 0) {
                v = v0 / 2 + v / 16;
            }
            pts[i][k] = coord(cen[k] + v, up);
        }
    }
}

/* ---- references in double ---- */

static double dv(mbp_scalar s)
{
    return (double)s;
}

static double dabs(double v)
{
    return v < 0.0 ? -v : v;
}

#if MBP_SCALAR == MBP_FLOAT
/* The spacing of floats at v (>= 0): 2^-23 of its power of two. */
static double ulp_of(double v)
{
    double u = 1.0;
    while (u * 16777216.0 > v && u > 1e-300) {
        u *= 0.5;
    }
    while (u * 16777216.0 <= v) {
        u *= 2.0;
    }
    return u * 2.0;
}
#endif

/* Solves a x = y (m x m, m <= 3) by elimination with partial pivoting; false when singular
 * (a pivot below tiny). a and y are changed. */
static bool dsolve(double a[3][3], double y[3], int m, double x[3], double tiny)
{
    for (int c = 0; c < m; c++) {
        int piv = c;
        for (int r = c + 1; r < m; r++) {
            piv = dabs(a[r][c]) > dabs(a[piv][c]) ? r : piv;
        }
        if (dabs(a[piv][c]) <= tiny) {
            return false;
        }
        for (int k = 0; k < m; k++) {
            double t = a[c][k];
            a[c][k] = a[piv][k];
            a[piv][k] = t;
        }
        double t = y[c];
        y[c] = y[piv];
        y[piv] = t;
        for (int r = c + 1; r < m; r++) {
            double f = a[r][c] / a[c][c];
            for (int k = c; k < m; k++) {
                a[r][k] -= f * a[c][k];
            }
            y[r] -= f * y[c];
        }
    }
    for (int r = m - 1; r >= 0; r--) {
        double s = y[r];
        for (int k = r + 1; k < m; k++) {
            s -= a[r][k] * x[k];
        }
        x[r] = s / a[r][r];
    }
    return true;
}

#if MBP_SCALAR == MBP_FLOAT
static double ddist2(const mbp_scalar *p, const double *c)
{
    double d2 = 0.0;
    for (int k = 0; k < MBP_DIM; k++) {
        d2 += (dv(p[k]) - c[k]) * (dv(p[k]) - c[k]);
    }
    return d2;
}
#endif

static double dsqrt(double v)
{
    double r = v > 1.0 ? v : 1.0;
    for (int i = 0; i < 200; i++) {
        r = 0.5 * (r + v / r);
    }
    return v > 0.0 ? r : 0.0;
}

/* The minimum enclosing radius of pts[0..n-1] by brute force: the smallest ball through 1 to
 * MBP_DIM + 1 of them (in their affine hull) that holds all, within a relative 1e-9. */
static double ref_min_radius(uint32_t n, double scale)
{
    double best = -1.0;
    for (uint32_t size = 1u; size <= (uint32_t)MBP_DIM + 1u && size <= n; size++) {
        uint32_t idx[MBP_DIM + 1];
        for (uint32_t i = 0; i < size; i++) {
            idx[i] = i;
        }
        for (;;) {
            double b[3][MBP_DIM], g[3][3], e[3], s[3], c[MBP_DIM];
            int m = (int)size - 1;
            for (int i = 0; i < m; i++) {
                e[i] = 0.0;
                for (int k = 0; k < MBP_DIM; k++) {
                    b[i][k] = dv(pts[idx[i + 1]][k]) - dv(pts[idx[0]][k]);
                    e[i] += 0.5 * b[i][k] * b[i][k];
                }
            }
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < m; j++) {
                    g[i][j] = 0.0;
                    for (int k = 0; k < MBP_DIM; k++) {
                        g[i][j] += b[i][k] * b[j][k];
                    }
                }
            }
            if (dsolve(g, e, m, s, 1e-12 * scale * scale)) {
                for (int k = 0; k < MBP_DIM; k++) { /* relative to the first: no cancellation */
                    c[k] = 0.0;
                    for (int i = 0; i < m; i++) {
                        c[k] += s[i] * b[i][k];
                    }
                }
                double r2 = 0.0, worst = 0.0;
                for (int k = 0; k < MBP_DIM; k++) {
                    r2 += c[k] * c[k];
                }
                for (uint32_t i = 0; i < n; i++) {
                    double d2 = 0.0;
                    for (int k = 0; k < MBP_DIM; k++) {
                        double d = (dv(pts[i][k]) - dv(pts[idx[0]][k])) - c[k];
                        d2 += d * d;
                    }
                    worst = d2 > worst ? d2 : worst;
                }
                if (worst <= r2 * (1.0 + 1e-9) + 1e-18 * scale * scale &&
                    (best < 0.0 || r2 < best * best)) {
                    best = dsqrt(r2);
                }
            }
            int i = (int)size - 1;
            while (i >= 0 && idx[i] == n - size + (uint32_t)i) {
                i--;
            }
            if (i < 0) {
                break;
            }
            idx[i]++;
            for (uint32_t j = (uint32_t)i + 1u; j < size; j++) {
                idx[j] = idx[j - 1] + 1u;
            }
        }
    }
    return best;
}


/* True when s holds every point: exact integers in fixed point, double in float. */
static bool sphere_holds_all(const mbp_sphere *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
#if MBP_SCALAR == MBP_FIXED
        uint64_t d2 = 0u;
        for (int k = 0; k < MBP_DIM; k++) {
            int64_t d = (int64_t)pts[i][k] - s->c[k];
            d2 += (uint64_t)(d * d);
        }
        if (d2 > (uint64_t)((int64_t)s->r * s->r)) {
            return false;
        }
#else
        double c[MBP_DIM];
        for (int k = 0; k < MBP_DIM; k++) {
            c[k] = dv(s->c[k]);
        }
        if (ddist2(pts[i], c) > dv(s->r) * dv(s->r)) {
            return false;
        }
#endif
        if (!mbp_sphere_contains_point(s, pts[i])) {
            return false;
        }
    }
    return true;
}

/* The documented tightness (mbp.h): fixed, 4 raw units over the minimum; float, 2^-16 of it
 * plus an ulp of the centre's largest coordinate per axis. */
static bool sphere_is_tight(const mbp_sphere *s, double rmin)
{
#if MBP_SCALAR == MBP_FIXED
    return dv(s->r) <= rmin + 4.0 && dv(s->r) >= rmin - 1e-6;
#else
    /* and the rounding of the stored centre: an ulp of its largest coordinate on each axis */
    double cmax = 0.0;
    for (int k = 0; k < MBP_DIM; k++) {
        cmax = dabs(dv(s->c[k])) > cmax ? dabs(dv(s->c[k])) : cmax;
    }
    double tol = rmin / 65536.0 + ulp_of(cmax) * (double)MBP_DIM;
    return dv(s->r) <= rmin + tol && dv(s->r) >= rmin * (1.0 - 1e-9);
#endif
}

static double spread_of(uint32_t n)
{
    mbp_aabb b;
    CHECK_ST(mbp_aabb_from_points(cpts(), n, &b), MBP_OK);
    double w = 0.0;
    for (int k = 0; k < MBP_DIM; k++) {
        w = dv(b.max[k]) - dv(b.min[k]) > w ? dv(b.max[k]) - dv(b.min[k]) : w;
    }
    return w > 0.0 ? w : 1.0;
}

/* ---- the box ---- */

TEST(the_box_from_points_is_the_least_and_greatest_coordinate_of_each_axis)
{
    uint32_t rng = 11u;
    for (uint32_t c = 0; c < FIT_CLOUDS; c++) {
        uint32_t n = 1u + c % FIT_MAX;
        cloud(&rng, n, 4 + (int)(c % 24u), false, 0);
        mbp_aabb b;
        CHECK_ST(mbp_aabb_from_points(cpts(), n, &b), MBP_OK);
        for (int k = 0; k < MBP_DIM; k++) {
            mbp_scalar lo = pts[0][k], hi = pts[0][k];
            for (uint32_t i = 1; i < n; i++) {
                lo = pts[i][k] < lo ? pts[i][k] : lo;
                hi = pts[i][k] > hi ? pts[i][k] : hi;
            }
            CHECK(b.min[k] == lo && b.max[k] == hi);
        }
    }
}

TEST(fitting_refuses_no_points_and_bad_points_with_their_status)
{
    mbp_aabb b;
    mbp_sphere s;
    pt(pts[0], 1, 2);
    pt(pts[1], 3, 4);
    CHECK_ST(mbp_aabb_from_points(cpts(), 0u, &b), MBP_E_PARAM);
    CHECK_ST(mbp_sphere_from_points(cpts(), 0u, &s), MBP_E_PARAM);
#if MBP_SCALAR == MBP_FIXED
    pts[1][MBP_DIM - 1] = -MBP_RANGE - 1;
    CHECK_ST(mbp_aabb_from_points(cpts(), 2u, &b), MBP_E_RANGE);
    CHECK_ST(mbp_sphere_from_points(cpts(), 2u, &s), MBP_E_RANGE);
#else
    volatile float zero = 0.0f;
    pts[1][MBP_DIM - 1] = zero / zero;
    CHECK_ST(mbp_aabb_from_points(cpts(), 2u, &b), MBP_E_BADBOX);
    CHECK_ST(mbp_sphere_from_points(cpts(), 2u, &s), MBP_E_BADBOX);
    pts[1][MBP_DIM - 1] = MBP_RANGE * 2.0f;
    CHECK_ST(mbp_aabb_from_points(cpts(), 2u, &b), MBP_E_RANGE);
#endif
#if MBP_WITH_OBB
    mbp_obb o;
    CHECK_ST(mbp_obb_from_points(cpts(), 0u, &o), MBP_E_PARAM);
    CHECK_ST(mbp_obb_from_points(cpts(), 2u, &o), MBP_E_RANGE);
#endif
}

/* ---- the sphere ---- */

static void check_sphere_cloud(uint32_t n, const char *what)
{
    mbp_sphere s;
    CHECK_ST(mbp_sphere_from_points(cpts(), n, &s), MBP_OK);
    CHECK_ST(mbp_sphere_check(&s), MBP_OK);
    bool holds = sphere_holds_all(&s, n);
    CHECK(holds);
    if (n <= (uint32_t)FIT_REF_MAX) {
        double rmin = ref_min_radius(n, spread_of(n));
        bool tight = sphere_is_tight(&s, rmin);
        CHECK(tight);
        if (!tight) {
            test_puts(what);
            test_puts(": radius ");
            test_puti((long)(dv(s.r) * 1000.0));
            test_puts("/1000, minimum ");
            test_puti((long)(rmin * 1000.0));
            test_puts("/1000\n");
        }
    }
}

TEST(the_fitted_sphere_holds_every_point_and_is_within_its_bound_of_the_minimum)
{
    uint32_t rng = 5u;
    for (uint32_t c = 0; c < FIT_CLOUDS * 4u && !mbp_test_failed(); c++) {
        uint32_t n = c % 2u == 0u ? 2u + c % (uint32_t)(FIT_REF_MAX - 1) : 1u + c % FIT_MAX;
        cloud(&rng, n, 2 + (int)(c % 27u), c % 3u == 0u, 0);
        check_sphere_cloud(n, "random cloud");
    }
}

TEST(the_fitted_sphere_is_tight_on_clouds_of_very_large_and_very_small_coordinates)
{
#if MBP_SCALAR == MBP_FLOAT
    uint32_t rng = 7u;
    for (uint32_t c = 0; c < FIT_CLOUDS && !mbp_test_failed(); c++) {
        uint32_t n = 2u + c % (uint32_t)(FIT_REF_MAX - 1);
        cloud(&rng, n, 20, c % 2u == 0u, c % 4u < 2u ? 28 : -40);
        check_sphere_cloud(n, "scaled cloud");
    }
#else
    /* fixed point: the largest clouds the range holds, centred */
    uint32_t rng = 7u;
    for (uint32_t c = 0; c < FIT_CLOUDS && !mbp_test_failed(); c++) {
        uint32_t n = 2u + c % (uint32_t)(FIT_REF_MAX - 1);
        for (uint32_t i = 0; i < n; i++) {
            for (int k = 0; k < MBP_DIM; k++) {
                pts[i][k] = (mbp_scalar)rnd(&rng, -MBP_RANGE / 2, MBP_RANGE / 2);
            }
        }
        check_sphere_cloud(n, "range cloud");
    }
#endif
}

TEST(degenerate_clouds_give_the_expected_sphere)
{
    mbp_sphere s;
    for (uint32_t i = 0; i < 5u; i++) { /* all equal: radius 0 at the point */
        pt(pts[i], 3, -2);
    }
    CHECK_ST(mbp_sphere_from_points(cpts(), 5u, &s), MBP_OK);
    CHECK(s.r == 0 && s.c[0] == pts[0][0] && s.c[1] == pts[0][1]);
    for (uint32_t i = 0; i < 9u; i++) { /* collinear, unsorted: the middle of the ends */
        int32_t t = (int32_t)((i * 5u) % 9u);
        pt(pts[i], 2 * t, t);
    }
    check_sphere_cloud(9u, "collinear");
    CHECK_ST(mbp_sphere_from_points(cpts(), 9u, &s), MBP_OK);
    CHECK(s.c[0] == mbp_from_int(8) && s.c[1] == mbp_from_int(4));
    /* cocircular: a square's corners and its centre, twice (coincident points) */
    static const int8_t sq[5][2] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}, {2, 2}};
    for (uint32_t i = 0; i < 10u; i++) {
        pt(pts[i], sq[i % 5u][0], sq[i % 5u][1]);
        pts[i][MBP_DIM - 1] = i % 2u == 0u ? pts[i][MBP_DIM - 1] : pts[i][MBP_DIM - 1];
    }
    check_sphere_cloud(10u, "square");
#if MBP_DIM == 3
    /* coplanar and cocircular in 3D: a regular octagon in a tilted plane (whole units) */
    static const int8_t oct[8][2] = {{5, 0}, {4, 3}, {0, 5}, {-3, 4}, {-5, 0}, {-4, -3}, {0, -5}, {3, -4}};
    for (uint32_t i = 0; i < 8u; i++) {
        pts[i][0] = mbp_from_int(oct[i][0]);
        pts[i][1] = mbp_from_int(oct[i][1]);
        pts[i][2] = mbp_from_int(oct[i][0] + oct[i][1]);
    }
    check_sphere_cloud(8u, "tilted octagon");
    /* cube corners: cospherical */
    for (uint32_t i = 0; i < 8u; i++) {
        for (int k = 0; k < 3; k++) {
            pts[i][k] = mbp_from_int((i >> k) & 1u ? 6 : -2);
        }
    }
    check_sphere_cloud(8u, "cube");
#endif
}

TEST(spheres_at_the_ends_of_the_range_fit_or_are_refused_with_e_range)
{
    mbp_sphere s;
#if MBP_SCALAR == MBP_FIXED
    const mbp_scalar end = MBP_RANGE; /* exact: the radius is the range */
#else
    const mbp_scalar end = MBP_RANGE * 0.5f; /* float rounds the radius up by 2^-19 */
#endif
    for (int k = 0; k < MBP_DIM; k++) {
        pts[0][k] = k == 0 ? -end : 0;
        pts[1][k] = k == 0 ? end : 0;
        pts[2][k] = 0;
    }
    CHECK_ST(mbp_sphere_from_points(cpts(), 3u, &s), MBP_OK);
    CHECK(s.r >= end && s.r <= end + end / 65536 && s.c[0] == 0);
    CHECK(sphere_holds_all(&s, 3u));
    for (int k = 0; k < MBP_DIM; k++) { /* opposite corners: the radius exceeds the range */
        pts[1][k] = MBP_RANGE;
        pts[0][k] = -MBP_RANGE;
    }
    CHECK_ST(mbp_sphere_from_points(cpts(), 2u, &s), MBP_E_RANGE);
}

/* ---- the oriented box ---- */

#if MBP_WITH_OBB

static double unit_d(mbp_unit u)
{
#if MBP_SCALAR == MBP_FIXED
    return (double)u / 1073741824.0;
#else
    return (double)u;
#endif
}

/* True when o holds every point: its box coordinates t = (R^T)^-1 (p - c), solved in double
 * (|error| far below a raw unit or a float ulp of the extent), within h; and the library's own
 * test of o against the point agrees. */
static bool obb_holds_all(const mbp_obb *o, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        double a[3][3], y[3], t[3];
        for (int r = 0; r < MBP_DIM; r++) {
            y[r] = dv(pts[i][r]) - dv(o->c[r]);
            for (int j = 0; j < MBP_DIM; j++) {
                a[r][j] = unit_d(o->rot[j][r]);
            }
        }
        if (!dsolve(a, y, MBP_DIM, t, 0.5)) {
            return false;
        }
        for (int j = 0; j < MBP_DIM; j++) {
            if (dabs(t[j]) > dv(o->h[j])) {
                return false;
            }
        }
        mbp_shape so, sp;
        so.kind = MBP_SHAPE_OBB;
        so.u.obb = *o;
        sp.kind = MBP_SHAPE_BOX;
        for (int k = 0; k < MBP_DIM; k++) {
            sp.u.box.min[k] = pts[i][k];
            sp.u.box.max[k] = pts[i][k];
        }
        if (!mbp_shape_overlap(&so, &sp)) {
            return false;
        }
    }
    return true;
}

/* Area (volume) of the box of half-extents h, relative to the points' box's (as an oriented box:
 * fixed, its centre rounded to a raw unit; float, its extents rounded up). */
static double rel_volume(const mbp_scalar *h, uint32_t n)
{
    mbp_aabb b;
    CHECK_ST(mbp_aabb_from_points(cpts(), n, &b), MBP_OK);
    double v = 1.0, va = 1.0;
    for (int k = 0; k < MBP_DIM; k++) {
        v *= 2.0 * dv(h[k]);
#if MBP_SCALAR == MBP_FIXED /* the box's own centre is rounded to a raw unit */
        va *= dv(b.max[k]) - dv(b.min[k]) + 1.0;
#else /* and its centre rounded to an ulp */
        double top = dabs(dv(b.max[k])) > dabs(dv(b.min[k])) ? dabs(dv(b.max[k])) : dabs(dv(b.min[k]));
        va *= (dv(b.max[k]) - dv(b.min[k]) + 2.0 * ulp_of(top)) * (1.0 + 1.0 / 131072.0);
#endif
    }
    return va > 0.0 ? v / va : (v > 0.0 ? 2.0 : 0.0);
}

/* The principal axis of the points in double: power iteration on their covariance. */
static void ref_axis(uint32_t n, double ax[MBP_DIM])
{
    double m[MBP_DIM] = {0}, cv[MBP_DIM][MBP_DIM] = {{0}};
    for (uint32_t i = 0; i < n; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            m[k] += dv(pts[i][k]) / (double)n;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        for (int a = 0; a < MBP_DIM; a++) {
            for (int b = 0; b < MBP_DIM; b++) {
                cv[a][b] += (dv(pts[i][a]) - m[a]) * (dv(pts[i][b]) - m[b]);
            }
        }
    }
    for (int k = 0; k < MBP_DIM; k++) {
        ax[k] = 1.0 + 0.1 * k;
    }
    for (int it = 0; it < 200; it++) {
        double nx[MBP_DIM], l = 0.0;
        for (int a = 0; a < MBP_DIM; a++) {
            nx[a] = 0.0;
            for (int b = 0; b < MBP_DIM; b++) {
                nx[a] += cv[a][b] * ax[b];
            }
            l += nx[a] * nx[a];
        }
        l = dsqrt(l);
        for (int a = 0; a < MBP_DIM; a++) {
            ax[a] = nx[a] / l;
        }
    }
}

static void check_obb_cloud(uint32_t n, mbp_obb *o)
{
    CHECK_ST(mbp_obb_from_points(cpts(), n, o), MBP_OK);
    mbp_shape so;
    so.kind = MBP_SHAPE_OBB;
    so.u.obb = *o;
    CHECK_ST(mbp_shape_check(&so), MBP_OK);
    CHECK(obb_holds_all(o, n));
    CHECK(rel_volume(o->h, n) <= 1.0);
}

TEST(the_fitted_oriented_box_holds_every_point_and_is_no_larger_than_the_box)
{
    uint32_t rng = 3u;
    mbp_obb o;
    for (uint32_t c = 0; c < FIT_CLOUDS * 2u && !mbp_test_failed(); c++) {
        uint32_t n = 1u + c % FIT_MAX;
        cloud(&rng, n, 2 + (int)(c % 27u), false, c % 5u == 4u ? 30 : 0);
        check_obb_cloud(n, &o);
    }
}

TEST(on_elongated_clouds_the_oriented_box_follows_the_principal_axis_and_beats_the_box)
{
    uint32_t rng = 9u;
    mbp_obb o;
    for (uint32_t c = 0; c < FIT_CLOUDS && !mbp_test_failed(); c++) {
        uint32_t n = 8u + c % (FIT_MAX - 8u);
        cloud(&rng, n, 10 + (int)(c % 19u), true, c % 4u == 3u ? -30 : 0);
        check_obb_cloud(n, &o);
        CHECK(rel_volume(o.h, n) < (MBP_DIM == 2 ? 0.5 : 0.25));
        double ax[MBP_DIM], d = 0.0;
        ref_axis(n, ax);
        for (int k = 0; k < MBP_DIM; k++) {
            d += ax[k] * unit_d(o.rot[0][k]);
        }
        CHECK(dabs(d) >= 0.999);
    }
}

TEST(degenerate_clouds_give_the_documented_oriented_box)
{
    mbp_obb o;
    for (uint32_t i = 0; i < 4u; i++) { /* all equal: a point, world axes */
        pt(pts[i], -7, 5);
    }
    check_obb_cloud(4u, &o);
    for (int i = 0; i < MBP_DIM; i++) {
        CHECK(o.h[i] == 0 && o.c[i] == pts[0][i] && o.rot[i][i] == MBP_UNIT_ONE);
    }
    for (uint32_t i = 0; i < 12u; i++) { /* collinear on a diagonal: flat across */
        int32_t t = (int32_t)((i * 7u) % 12u) - 6;
        for (int k = 0; k < MBP_DIM; k++) {
            pts[i][k] = mbp_from_int(t * (k + 1));
        }
    }
    check_obb_cloud(12u, &o);
    CHECK(rel_volume(o.h, 12u) < 0.01);
    for (uint32_t i = 0; i < 1u << MBP_DIM; i++) { /* isotropic: a square's (cube's) corners */
        for (int k = 0; k < MBP_DIM; k++) {
            pts[i][k] = mbp_from_int((i >> k) & 1u ? 3 : -1);
        }
    }
    check_obb_cloud(1u << MBP_DIM, &o);
    for (int k = 0; k < MBP_DIM; k++) { /* the world axes: the box itself */
        CHECK(o.rot[k][k] == MBP_UNIT_ONE && o.h[k] == mbp_from_int(2));
    }
    static const int8_t oct[8][2] = {{5, 0}, {4, 3}, {0, 5}, {-3, 4}, {-5, 0}, {-4, -3}, {0, -5}, {3, -4}};
    for (uint32_t i = 0; i < 8u; i++) { /* isotropic, turned: any axes, but holds them */
        for (int k = 0; k < MBP_DIM; k++) {
            pts[i][k] = mbp_from_int(oct[i][k % 2] + (k == 2 ? oct[i][0] : 0));
        }
    }
    check_obb_cloud(8u, &o);
#if MBP_DIM == 3
    uint32_t rng = 21u; /* coplanar: a tilted plane, flat across */
    for (uint32_t i = 0; i < 16u; i++) {
        int32_t u = (int32_t)rnd(&rng, -40, 40), v = (int32_t)rnd(&rng, -40, 40);
        pts[i][0] = mbp_from_int(u);
        pts[i][1] = mbp_from_int(v);
        pts[i][2] = mbp_from_int(u + v);
    }
    check_obb_cloud(16u, &o);
    CHECK(rel_volume(o.h, 16u) < 0.01);
#endif
}

TEST(oriented_boxes_at_the_ends_of_the_range_do_not_overflow)
{
    mbp_obb o;
    /* the corners of the whole range, repeated: the largest covariance */
    for (uint32_t i = 0; i < FIT_MAX; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            pts[i][k] = ((i >> k) & 1u) ? MBP_RANGE : -MBP_RANGE;
        }
    }
    check_obb_cloud(FIT_MAX, &o);
    CHECK(o.h[0] == MBP_RANGE && o.rot[0][0] == MBP_UNIT_ONE);
    /* a thin cloud along the range's diagonal: the principal box would not fit the range, so
     * the box of the points comes back */
    const int64_t end = (int64_t)MBP_RANGE, nz = end >> 20; /* noise across: 2^-20 of it */
    uint32_t rng = 1u;
    for (uint32_t i = 0; i < FIT_MAX; i++) {
        int64_t t = rnd(&rng, -end + nz, end - nz);
        for (int k = 0; k < MBP_DIM; k++) {
            pts[i][k] = (mbp_scalar)(t + rnd(&rng, -nz, nz));
        }
    }
    check_obb_cloud(FIT_MAX, &o);
    /* the same along one plane's diagonal, half as long: fits, and is thin */
    for (uint32_t i = 0; i < FIT_MAX; i++) {
        int64_t t = rnd(&rng, -end / 2, end / 2);
        pts[i][0] = (mbp_scalar)t;
        pts[i][1] = (mbp_scalar)(t + rnd(&rng, -nz, nz));
        for (int k = 2; k < MBP_DIM; k++) {
            pts[i][k] = (mbp_scalar)rnd(&rng, -nz, nz);
        }
    }
    check_obb_cloud(FIT_MAX, &o);
    CHECK(rel_volume(o.h, FIT_MAX) < 0.01);
    /* a few raw units across (fixed) or a few ulps (float): still holds them */
    for (uint32_t i = 0; i < 6u; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            pts[i][k] = (mbp_scalar)(1000 + (int32_t)((i * (uint32_t)(k + 2)) % 5u));
        }
    }
    check_obb_cloud(6u, &o);
}


#if MBP_WITH_RSS
/* True when the RSS holds every point: its rectangle coordinates solved in double (as for the
 * oriented box), clamped to the rectangle, and the squared distance from that rectangle point
 * within r^2; and the library's own test of the RSS against the point agrees. */
static bool rss_holds_all(const mbp_rss *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        double a[3][3], y[3], t[3], d2 = 0.0;
        for (int r = 0; r < MBP_DIM; r++) {
            y[r] = dv(pts[i][r]) - dv(s->c[r]);
            for (int j = 0; j < MBP_DIM; j++) {
                a[r][j] = unit_d(s->rot[j][r]);
            }
        }
        if (!dsolve(a, y, MBP_DIM, t, 0.5)) {
            return false;
        }
        for (int k = 0; k < MBP_DIM; k++) {
            double q = dv(s->c[k]);
            for (int j = 0; j < 2; j++) {
                double h = dv(s->h[j]), tj = t[j] < -h ? -h : (t[j] > h ? h : t[j]);
                q += tj * unit_d(s->rot[j][k]);
            }
            d2 += (dv(pts[i][k]) - q) * (dv(pts[i][k]) - q);
        }
        if (d2 > dv(s->r) * dv(s->r)) {
            return false;
        }
        mbp_shape so, sp;
        so.kind = MBP_SHAPE_RSS;
        so.u.rss = *s;
        sp.kind = MBP_SHAPE_BOX;
        for (int k = 0; k < MBP_DIM; k++) {
            sp.u.box.min[k] = pts[i][k];
            sp.u.box.max[k] = pts[i][k];
        }
        if (!mbp_shape_overlap(&so, &sp)) {
            return false;
        }
    }
    return true;
}

/* Fits the RSS and the oriented box of the first n points (or, boxed, their axis-aligned box):
 * a valid RSS that holds them, no thicker across its rectangle than the box's thinnest extent
 * (plus the documented widening). */
static void check_rss_cloud(uint32_t n, mbp_rss *s, bool boxed)
{
    mbp_obb o;
    CHECK_ST(mbp_rss_from_points(cpts(), n, s), MBP_OK);
    CHECK_ST(mbp_obb_from_points(cpts(), n, &o), MBP_OK);
    if (boxed) {
        mbp_aabb b;
        CHECK_ST(mbp_aabb_from_points(cpts(), n, &b), MBP_OK);
        for (int k = 0; k < MBP_DIM; k++) {
            o.h[k] = (mbp_scalar)((dv(b.max[k]) - dv(b.min[k])) / 2.0 * (1.0 + 1.0 / 1048576.0));
        }
    }
    mbp_shape so;
    so.kind = MBP_SHAPE_RSS;
    so.u.rss = *s;
    CHECK_ST(mbp_shape_check(&so), MBP_OK);
    CHECK(rss_holds_all(s, n));
    double hmin = dv(o.h[0]);
    for (int k = 1; k < MBP_DIM; k++) {
        hmin = dv(o.h[k]) < hmin ? dv(o.h[k]) : hmin;
    }
#if MBP_SCALAR == MBP_FIXED
    CHECK(dv(s->r) <= hmin * (1.0 + 1.0 / 1048576.0) + 1.0);
#else
    CHECK(dv(s->r) <= hmin * (1.0 + 1.0 / 524288.0));
#endif
}

#endif /* MBP_WITH_RSS */

TEST(the_fitted_rss_holds_every_point_and_is_no_thicker_than_the_oriented_box)
{
#if MBP_WITH_RSS
    uint32_t rng = 5u;
    mbp_rss s;
    for (uint32_t c = 0; c < FIT_CLOUDS * 2u && !mbp_test_failed(); c++) {
        uint32_t n = 1u + c % FIT_MAX;
        cloud(&rng, n, 2 + (int)(c % 27u), c % 3u == 1u, c % 5u == 4u ? 30 : 0);
        check_rss_cloud(n, &s, false);
    }
#endif
}

TEST(fitting_an_rss_refuses_no_points)
{
#if MBP_WITH_RSS
    mbp_rss s;
    CHECK_ST(mbp_rss_from_points(cpts(), 0u, &s), MBP_E_PARAM);
#endif
}

TEST(degenerate_clouds_give_a_sphere_or_a_capsule_shaped_rss)
{
#if MBP_WITH_RSS
    mbp_rss s;
    for (uint32_t i = 0; i < 4u; i++) { /* all equal: a point */
        pt(pts[i], -7, 5);
    }
    check_rss_cloud(4u, &s, false);
    CHECK(s.h[0] == 0 && s.h[1] == 0 && s.r == 0 && s.c[0] == pts[0][0]);
    for (uint32_t i = 0; i < 12u; i++) { /* collinear: a thin capsule along the line */
        int32_t t = (int32_t)((i * 7u) % 12u) - 6;
        for (int k = 0; k < MBP_DIM; k++) {
            pts[i][k] = mbp_from_int(t * (k + 1));
        }
    }
    check_rss_cloud(12u, &s, false);
    CHECK(dv(s.r) < dv(s.h[0]) / 100.0 && dv(s.h[1]) < dv(s.h[0]) / 100.0);
#endif
}

#if MBP_WITH_RSS
/* A thin diagonal triangle in the range's corner: the principal rectangle's ends stick out past
 * the corner; the box's middle section does not. The points' x runs from low0 to top0. */
static void corner_cloud(mbp_scalar low0, mbp_scalar top0)
{
    const mbp_scalar e = MBP_RANGE, d = MBP_RANGE / 64, f = MBP_RANGE / 640;
    for (uint32_t i = 0; i < 6u; i++) {
        uint32_t j = i % 3u;
        pts[i][0] = j == 0u ? top0 : (j == 1u ? low0 : e - f);
        pts[i][1] = j == 0u ? e - 2 * d : (j == 1u ? e : e - f);
        for (int k = 2; k < MBP_DIM; k++) {
            pts[i][k] = i < 3u ? e : e - f / 64;
        }
    }
}
#endif

TEST(an_rss_whose_rectangle_would_leave_the_range_falls_back_to_the_points_box)
{
#if MBP_WITH_RSS
    mbp_rss s;
    corner_cloud(MBP_RANGE - 2 * (MBP_RANGE / 64), MBP_RANGE);
    check_rss_cloud(6u, &s, true);
    for (int i = 0; i < MBP_DIM; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            CHECK(s.rot[i][k] == 0 || s.rot[i][k] == MBP_UNIT_ONE);
        }
    }
#endif
}

#if MBP_WITH_RSS && MBP_SCALAR != MBP_FIXED
/* The corner cloud with x from top0 - 2^55 - 2^36 to top0, whose float middle is a tie that
 * rounds up (up) or down, as the test asserts first; the fit must hold every point. */
static void check_tie_cloud(float top0, bool up)
{
    const float low0 = top0 - 36028797018963968.0f - 68719476736.0f;
    const float mid = low0 * 0.5f + top0 * 0.5f;
    CHECK(up ? mid - low0 > top0 - mid : top0 - mid > mid - low0); /* the case tested */
    mbp_rss s;
    corner_cloud(low0, top0);
    check_rss_cloud(6u, &s, true);
}
#endif

TEST(the_rss_fallback_box_holds_both_ends_when_its_float_middle_rounds_up)
{
#if MBP_WITH_RSS && MBP_SCALAR != MBP_FIXED
    /* x from 2^60 - 2^55 - 2^38 - 2^36 to 2^60 - 2^38: the middle is a tie between floats (their
     * step is 2^36 there) and rounds to the even one, up. The half-length must come from the
     * lower end (2^54 + 2^36), not the upper one (2^54): else the lowest point is left out. */
    check_tie_cloud(1152921504606846976.0f - 274877906944.0f, true);
#endif
}

TEST(the_rss_fallback_box_holds_both_ends_when_its_float_middle_rounds_down)
{
#if MBP_WITH_RSS && MBP_SCALAR != MBP_FIXED
    /* As above with x one float step (2^36) lower at both ends: the middle is again a tie, and
     * the even float is now the lower one. The half-length must come from the upper end
     * (2^54 + 2^36), not the lower one (2^54): else the highest point is left out. */
    check_tie_cloud(1152921504606846976.0f - 274877906944.0f - 68719476736.0f, false);
#endif
}

TEST(an_rss_whose_widened_fallback_box_would_pass_the_range_end_returns_range)
{
#if MBP_WITH_RSS && MBP_SCALAR != MBP_FIXED
    /* As above, but x ends at 2^60 itself: the widened half-length carries the rectangle past
     * the range's end, which mbp.h documents; out stays as it was. */
    const float top0 = 1152921504606846976.0f;
    const float low0 = top0 - 36028797018963968.0f - 68719476736.0f;
    static mbp_rss s, before; /* zeroed: before = s copies no unset value */
    for (int k = 0; k < MBP_DIM; k++) {
        s.c[k] = mbp_from_int(k + 1);
    }
    before = s;
    corner_cloud(low0, top0);
    CHECK_ST(mbp_rss_from_points(cpts(), 6u, &s), MBP_E_RANGE);
    for (int k = 0; k < MBP_DIM; k++) {
        CHECK(s.c[k] == before.c[k]);
    }
#endif
}

#endif /* MBP_WITH_OBB */
