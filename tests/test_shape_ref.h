/* SPDX-License-Identifier: MIT */
/* test_shape_ref.h: the shape tests' reference, written independently of lib/ (no code shared):
 * shapes in double precision, their support functions, point membership, and two certificates:
 *
 *   ref_gap(A, B)     the largest gap found between the projections of A and B over directions
 *                     (a dense sweep of directions, then local refinement of the best). Any
 *                     direction with a positive gap is a proof that A and B are apart by at least
 *                     that much; a search that misses the best direction only finds less.
 *   ref_common(A, B)  a point found (on a grid over the overlap of their boxes) inside both by
 *                     at least eps: a proof that they overlap by at least that much.
 * Neither can be wrong, only silent; the tests check the library against whichever speaks.
 *
 * Shapes are converted from the library's types value for value (fixed point to double is
 * exact): an oriented box is the set its rows span, c + sum t_i u_i, |t_i| <= h_i, as the
 * library defines it; a k-DOP is the intersection of its slabs, its vertices enumerated by
 * solving every pair (2D) or triple (3D) of bounding planes.
 *
 * Each test file that includes this gets its own static copy: it is a header only so that the
 * M0's one-image-per-file build needs no extra source.
 */
#ifndef TEST_SHAPE_REF_H
#define TEST_SHAPE_REF_H

#include "test_util.h"

#define RD MBP_DIM
#define REF_KA (RD == 2 ? 4 : 7)
#define REF_MAXV (RD == 2 ? 16 : 48)

typedef struct {
    int kind;
    double lo[3], hi[3];      /* box */
    double c[3], r;           /* sphere, oriented box centre */
    double a[3], b[3];        /* capsule */
    double h[3], u[3][3];     /* oriented box, RSS: half extents, rows */
    double inv[3][3];         /* oriented box, RSS: t = inv (x - c) */
    double klo[7], khi[7];    /* k-DOP */
    double v[REF_MAXV][3];    /* k-DOP vertices */
    int nv;
} ref_shape;

static const double k_ref_normal[7][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1},
                                          {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};
static const double k_ref_normal2[4][3] = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, -1, 0}};

static inline const double *ref_n(int j)
{
    return RD == 2 ? k_ref_normal2[j] : k_ref_normal[j];
}

static inline double ref_abs(double x)
{
    return x < 0 ? -x : x;
}

static inline double ref_sqrt(double x)
{
    if (!(x > 0)) {
        return 0;
    }
    double y = x > 1 ? x : 1;
    for (int i = 0; i < 200; i++) {
        double z = 0.5 * (y + x / y);
        if (z >= y) {
            break;
        }
        y = z;
    }
    return y;
}

/* sin and cos by their series after reduction to [-pi, pi]: |error| < 1e-13. */
static inline void ref_sincos(double t, double *s, double *c)
{
    const double pi = 3.14159265358979323846;
    while (t > pi) {
        t -= 2 * pi;
    }
    while (t < -pi) {
        t += 2 * pi;
    }
    double ts = t, tc = 1, ss = 0, cc = 0;
    for (int n = 1; n < 40; n += 2) {
        ss += ts;
        cc += tc;
        ts *= -t * t / ((n + 1) * (n + 2));
        tc *= -t * t / (n * (n + 1));
    }
    *s = ss;
    *c = cc;
}

static inline double ref_d(mbp_scalar s)
{
#if MBP_SCALAR == MBP_FIXED
    return (double)s / (double)MBP_ONE;
#else
    return (double)s;
#endif
}

static inline double ref_ud(mbp_unit u)
{
#if MBP_SCALAR == MBP_FIXED
    return (double)u / 1073741824.0;
#else
    return (double)u;
#endif
}

static inline double ref_dot(const double *a, const double *b)
{
    double s = 0;
    for (int k = 0; k < RD; k++) {
        s += a[k] * b[k];
    }
    return s;
}

/* Solves the n x n system m x = y (n = 2 or 3) by Cramer's rule; false when singular. */
static inline bool ref_solve(int n, const double m[3][3], const double *y, double *x)
{
    double det;
    if (n == 2) {
        det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
        if (ref_abs(det) < 1e-12) {
            return false;
        }
        x[0] = (y[0] * m[1][1] - m[0][1] * y[1]) / det;
        x[1] = (m[0][0] * y[1] - y[0] * m[1][0]) / det;
        return true;
    }
    det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
          m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
          m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    if (ref_abs(det) < 1e-12) {
        return false;
    }
    for (int c = 0; c < 3; c++) {
        double t[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                t[i][j] = j == c ? y[i] : m[i][j];
            }
        }
        x[c] = (t[0][0] * (t[1][1] * t[2][2] - t[1][2] * t[2][1]) -
                t[0][1] * (t[1][0] * t[2][2] - t[1][2] * t[2][0]) +
                t[0][2] * (t[1][0] * t[2][1] - t[1][1] * t[2][0])) / det;
    }
    return true;
}

static inline void ref_kdop_vertices(ref_shape *r)
{
    /* planes: n_j . x = bound, for every axis j and both bounds */
    int np = 2 * REF_KA;
    r->nv = 0;
    int idx[3];
    for (idx[0] = 0; idx[0] < np; idx[0]++) {
        for (idx[1] = idx[0] + 1; idx[1] < np; idx[1]++) {
            for (idx[2] = (RD == 3 ? idx[1] + 1 : np - 1); idx[2] < np; idx[2]++) {
                double m[3][3], y[3], x[3];
                for (int t = 0; t < RD; t++) {
                    int p = idx[t], j = p >> 1;
                    for (int k = 0; k < RD; k++) {
                        m[t][k] = ref_n(j)[k];
                    }
                    y[t] = (p & 1) ? r->klo[j] : r->khi[j];
                }
                if (!ref_solve(RD, m, y, x)) {
                    continue;
                }
                bool ok = true;
                for (int j = 0; j < REF_KA && ok; j++) {
                    double s = ref_dot(ref_n(j), x);
                    ok = s >= r->klo[j] - 1e-9 && s <= r->khi[j] + 1e-9;
                }
                for (int i = 0; i < r->nv && ok; i++) {
                    bool same = true;
                    for (int k = 0; k < RD; k++) {
                        same = same && ref_abs(r->v[i][k] - x[k]) < 1e-12;
                    }
                    ok = !same;
                }
                if (ok && r->nv < REF_MAXV) {
                    for (int k = 0; k < 3; k++) {
                        r->v[r->nv][k] = k < RD ? x[k] : 0;
                    }
                    r->nv++;
                }
                if (RD == 2) {
                    break; /* pairs only */
                }
            }
        }
    }
}

static inline void ref_from(const mbp_shape *s, ref_shape *r)
{
    r->kind = s->kind;
    switch (s->kind) {
    case MBP_SHAPE_BOX:
        for (int k = 0; k < RD; k++) {
            r->lo[k] = ref_d(s->u.box.min[k]);
            r->hi[k] = ref_d(s->u.box.max[k]);
        }
        break;
    case MBP_SHAPE_SPHERE:
        for (int k = 0; k < RD; k++) {
            r->c[k] = ref_d(s->u.sphere.c[k]);
        }
        r->r = ref_d(s->u.sphere.r);
        break;
    case MBP_SHAPE_OBB:
    case MBP_SHAPE_RSS: {
        double ut[3][3], e[3], x[3] = {0, 0, 0};
        bool rss = s->kind == MBP_SHAPE_RSS;
        for (int i = 0; i < RD; i++) {
            r->c[i] = ref_d(rss ? s->u.rss.c[i] : s->u.obb.c[i]);
            r->h[i] = rss ? (i < 2 ? ref_d(s->u.rss.h[i < 2 ? i : 0]) : 0) : ref_d(s->u.obb.h[i]);
            for (int k = 0; k < RD; k++) {
                r->u[i][k] = ref_ud(rss ? s->u.rss.rot[i][k] : s->u.obb.rot[i][k]);
            }
        }
        r->r = rss ? ref_d(s->u.rss.r) : 0;
        for (int i = 0; i < RD; i++) { /* x - c = U^T t */
            for (int k = 0; k < RD; k++) {
                ut[k][i] = r->u[i][k];
            }
        }
        for (int c = 0; c < RD; c++) { /* columns of the inverse */
            for (int k = 0; k < RD; k++) {
                e[k] = k == c ? 1 : 0;
            }
            (void)ref_solve(RD, ut, e, x);
            for (int i = 0; i < RD; i++) {
                r->inv[i][c] = x[i];
            }
        }
        break;
    }
    case MBP_SHAPE_KDOP:
        for (int j = 0; j < REF_KA; j++) {
            r->klo[j] = ref_d(s->u.kdop.min[j]);
            r->khi[j] = ref_d(s->u.kdop.max[j]);
        }
        ref_kdop_vertices(r);
        break;
    default:
        for (int k = 0; k < RD; k++) {
            r->a[k] = ref_d(s->u.capsule.a[k]);
            r->b[k] = ref_d(s->u.capsule.b[k]);
        }
        r->r = ref_d(s->u.capsule.r);
        break;
    }
}

/* max over the shape of d.x */
static inline double ref_support(const ref_shape *r, const double *d)
{
    double s = 0, n = ref_sqrt(ref_dot(d, d));
    switch (r->kind) {
    case MBP_SHAPE_BOX:
        for (int k = 0; k < RD; k++) {
            s += d[k] * (d[k] > 0 ? r->hi[k] : r->lo[k]);
        }
        return s;
    case MBP_SHAPE_SPHERE:
        return ref_dot(d, r->c) + r->r * n;
    case MBP_SHAPE_OBB:
    case MBP_SHAPE_RSS: /* an RSS: h[2] is 0, plus its radius */
        s = ref_dot(d, r->c);
        for (int i = 0; i < RD; i++) {
            s += r->h[i] * ref_abs(ref_dot(d, r->u[i]));
        }
        return s + (r->kind == MBP_SHAPE_RSS ? r->r * n : 0);
    case MBP_SHAPE_KDOP:
        for (int i = 0; i < r->nv; i++) {
            double p = ref_dot(d, r->v[i]);
            s = (i == 0 || p > s) ? p : s;
        }
        return s;
    default: {
        double a = ref_dot(d, r->a), b = ref_dot(d, r->b);
        return (a > b ? a : b) + r->r * n;
    }
    }
}

/* A point of the shape where d.x is largest. */
static inline void ref_support_point(const ref_shape *r, const double *d, double *x)
{
    double n = ref_sqrt(ref_dot(d, d)), f = n > 0 ? 1 / n : 0;
    for (int k = 0; k < 3; k++) {
        x[k] = 0;
    }
    switch (r->kind) {
    case MBP_SHAPE_BOX:
        for (int k = 0; k < RD; k++) {
            x[k] = d[k] > 0 ? r->hi[k] : r->lo[k];
        }
        break;
    case MBP_SHAPE_SPHERE:
        for (int k = 0; k < RD; k++) {
            x[k] = r->c[k] + r->r * d[k] * f;
        }
        break;
    case MBP_SHAPE_OBB:
    case MBP_SHAPE_RSS:
        for (int k = 0; k < RD; k++) {
            x[k] = r->c[k] + (r->kind == MBP_SHAPE_RSS ? r->r * d[k] * f : 0);
        }
        for (int i = 0; i < RD; i++) {
            double sg = ref_dot(d, r->u[i]) >= 0 ? 1 : -1;
            for (int k = 0; k < RD; k++) {
                x[k] += sg * r->h[i] * r->u[i][k];
            }
        }
        break;
    case MBP_SHAPE_KDOP: {
        int best = 0;
        for (int i = 1; i < r->nv; i++) {
            best = ref_dot(d, r->v[i]) > ref_dot(d, r->v[best]) ? i : best;
        }
        for (int k = 0; k < RD; k++) {
            x[k] = r->v[best][k];
        }
        break;
    }
    default: {
        const double *p = ref_dot(d, r->a) >= ref_dot(d, r->b) ? r->a : r->b;
        for (int k = 0; k < RD; k++) {
            x[k] = p[k] + r->r * d[k] * f;
        }
        break;
    }
    }
}

/* Gilbert's algorithm: the point of A - B nearest the origin, approximately; -v is then the
 * direction along which B lies beyond A (when they are apart). */
static inline void ref_gilbert(const ref_shape *a, const ref_shape *b, double *v)
{
    double p[3], q[3], d[3] = {1, 0.5, 0.25};
    ref_support_point(a, d, p);
    for (int k = 0; k < 3; k++) {
        d[k] = -d[k];
    }
    ref_support_point(b, d, q);
    for (int k = 0; k < 3; k++) {
        v[k] = p[k] - q[k];
    }
    for (int it = 0; it < 400; it++) {
        double mv[3], w[3];
        for (int k = 0; k < 3; k++) {
            mv[k] = -v[k];
        }
        ref_support_point(a, mv, p); /* the point of A - B least along v */
        ref_support_point(b, v, q);
        for (int k = 0; k < 3; k++) {
            w[k] = p[k] - q[k] - v[k];
        }
        double ww = ref_dot(w, w);
        if (!(ww > 0)) {
            break;
        }
        double t = -ref_dot(v, w) / ww;
        if (!(t > 0)) {
            break;
        }
        t = t > 1 ? 1 : t;
        for (int k = 0; k < 3; k++) {
            v[k] += t * w[k];
        }
    }
}

/* An RSS's distance from x to its rectangle: x's coordinates t in the rows (solved), the
 * rectangle's point with t0, t1 clamped, and the distance to it in world units. In 2D the
 * rectangle has an inside: there the distance is signed, minus the depth to its nearest edge (in
 * its own coordinates, as an oriented box's), so that a rectangle of radius 0 is not flat and a
 * point deep in it counts as inside by a margin. (Without the sign, ref_common() never found a
 * common point with such an RSS, and the tests' cases left undecided failed them on the QEMU
 * machines' 16 cases, where the host's 300 hid them.) */
static inline double ref_rss_dist(const ref_shape *r, const double *x)
{
    double q[3] = {0, 0, 0}, d2 = 0, depth = 1e300;
    for (int k = 0; k < RD; k++) {
        q[k] = r->c[k];
    }
    for (int i = 0; i < 2; i++) {
        double t = 0;
        for (int k = 0; k < RD; k++) {
            t += r->inv[i][k] * (x[k] - r->c[k]);
        }
        double in = r->h[i] - ref_abs(t);
        depth = in < depth ? in : depth;
        t = t < -r->h[i] ? -r->h[i] : (t > r->h[i] ? r->h[i] : t);
        for (int k = 0; k < RD; k++) {
            q[k] += t * r->u[i][k];
        }
    }
    for (int k = 0; k < RD; k++) {
        d2 += (x[k] - q[k]) * (x[k] - q[k]);
    }
    return RD == 2 && depth > 0 ? -depth : ref_sqrt(d2);
}

/* x inside the shape with a margin: eps > 0 lets points up to about eps outside in, eps < 0
 * asks them to be about -eps inside. */
static inline bool ref_in(const ref_shape *r, const double *x, double eps)
{
    switch (r->kind) {
    case MBP_SHAPE_RSS:
        return ref_rss_dist(r, x) <= r->r + eps;
    case MBP_SHAPE_BOX:
        for (int k = 0; k < RD; k++) {
            if (x[k] < r->lo[k] - eps || x[k] > r->hi[k] + eps) {
                return false;
            }
        }
        return true;
    case MBP_SHAPE_SPHERE: {
        double d[3];
        for (int k = 0; k < RD; k++) {
            d[k] = x[k] - r->c[k];
        }
        return ref_sqrt(ref_dot(d, d)) <= r->r + eps;
    }
    case MBP_SHAPE_OBB:
        for (int i = 0; i < RD; i++) {
            double t = 0;
            for (int k = 0; k < RD; k++) {
                t += r->inv[i][k] * (x[k] - r->c[k]);
            }
            if (ref_abs(t) > r->h[i] + eps) {
                return false;
            }
        }
        return true;
    case MBP_SHAPE_KDOP:
        for (int j = 0; j < REF_KA; j++) {
            double s = ref_dot(ref_n(j), x), m = eps * ref_sqrt(ref_dot(ref_n(j), ref_n(j)));
            if (s < r->klo[j] - m || s > r->khi[j] + m) {
                return false;
            }
        }
        return true;
    default: {
        double e[3], w[3], ee = 0, t = 0, d2 = 0;
        for (int k = 0; k < RD; k++) {
            e[k] = r->b[k] - r->a[k];
            w[k] = x[k] - r->a[k];
        }
        ee = ref_dot(e, e);
        t = ee > 0 ? ref_dot(w, e) / ee : 0;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        for (int k = 0; k < RD; k++) {
            double q = w[k] - t * e[k];
            d2 += q * q;
        }
        return ref_sqrt(d2) <= r->r + eps;
    }
    }
}

/* The gap along direction d between a and b (positive: apart by that much, b beyond a). */
static inline double ref_gap_dir(const ref_shape *a, const ref_shape *b, const double *d)
{
    double md[3];
    for (int k = 0; k < 3; k++) {
        md[k] = -d[k];
    }
    double n = ref_sqrt(ref_dot(d, d));
    return (-ref_support(b, md) - ref_support(a, d)) / n;
}

static inline void ref_dir(double th, double ph, double *d)
{
    double s, c, s2, c2;
    ref_sincos(th, &s, &c);
    if (RD == 2) {
        d[0] = c;
        d[1] = s;
        d[2] = 0;
        return;
    }
    ref_sincos(ph, &s2, &c2);
    d[0] = c * s2;
    d[1] = s * s2;
    d[2] = c2;
}

/* The largest gap found over directions (see the top). */
static inline double ref_gap(const ref_shape *a, const ref_shape *b)
{
    const double pi = 3.14159265358979323846;
    enum { KEEP = 3 };
    double bg[KEEP], bt[KEEP], bp[KEEP], d[3];
    for (int i = 0; i < KEEP; i++) {
        bg[i] = -1e300;
        bt[i] = bp[i] = 0;
    }
    /* The sweep: finer on the host; the QEMU machines' soft double is slow. */
    int nth = RD == 2 ? (TEST_FRAMES >= 200u ? 360 : 72) : (TEST_FRAMES >= 200u ? 36 : 16);
    int nph = RD == 2 ? 1 : (TEST_FRAMES >= 200u ? 18 : 8);
    for (int i = 0; i < nth; i++) {
        for (int j = 0; j < nph; j++) {
            double th = 2 * pi * i / nth, ph = pi * (j + 0.5) / nph;
            ref_dir(th, ph, d);
            double g = ref_gap_dir(a, b, d);
            int w = 0;
            for (int q = 1; q < KEEP; q++) {
                w = bg[q] < bg[w] ? q : w;
            }
            if (g > bg[w]) {
                bg[w] = g;
                bt[w] = th;
                bp[w] = ph;
            }
        }
    }
    ref_gilbert(a, b, d);
    double best = -1e300;
    if (ref_dot(d, d) > 0) { /* Gilbert's direction as one more start */
        double th, ph, r2 = ref_sqrt(d[0] * d[0] + d[1] * d[1]);
        /* angles of -d without atan: a short bisection on the sweep's own parametrisation */
        double md[3] = {-d[0], -d[1], -d[2]};
        best = ref_gap_dir(a, b, md);
        (void)r2;
        th = 0;
        ph = 0;
        double bestc = -2;
        for (int i = 0; i < nth; i++) { /* the sample nearest -d seeds the pattern search */
            for (int j = 0; j < nph; j++) {
                double t2 = 2 * pi * i / nth, p2 = pi * (j + 0.5) / nph, e[3];
                ref_dir(t2, p2, e);
                double c = ref_dot(e, md) / ref_sqrt(ref_dot(md, md));
                if (c > bestc) {
                    bestc = c;
                    th = t2;
                    ph = p2;
                }
            }
        }
        int w = 0;
        for (int q = 1; q < KEEP; q++) {
            w = bg[q] < bg[w] ? q : w;
        }
        ref_dir(th, ph, d);
        bg[w] = ref_gap_dir(a, b, d);
        bt[w] = th;
        bp[w] = ph;
    }
    for (int q = 0; q < KEEP; q++) { /* pattern search from each of the best */
        double th = bt[q], ph = bp[q], g = bg[q], step = 2 * pi / nth;
        while (step > 1e-8) {
            bool moved = false;
            for (int m = 0; m < (RD == 2 ? 2 : 4); m++) {
                double t2 = th + (m == 0 ? step : m == 1 ? -step : 0);
                double p2 = ph + (m == 2 ? step : m == 3 ? -step : 0);
                ref_dir(t2, p2, d);
                double g2 = ref_gap_dir(a, b, d);
                if (g2 > g) {
                    g = g2;
                    th = t2;
                    ph = p2;
                    moved = true;
                }
            }
            if (!moved) {
                step *= 0.5;
            }
        }
        best = g > best ? g : best;
    }
    return best;
}

/* How far x is outside the shape (negative: inside), in length units (an oriented box's in its
 * own coordinates, nearly the same for rows within 2^-10 of unit). Convex in x. */
static inline double ref_out(const ref_shape *r, const double *x)
{
    double v = -1e300;
    switch (r->kind) {
    case MBP_SHAPE_RSS:
        return ref_rss_dist(r, x) - r->r;
    case MBP_SHAPE_BOX:
        for (int k = 0; k < RD; k++) {
            double a = r->lo[k] - x[k], b = x[k] - r->hi[k];
            v = a > v ? a : v;
            v = b > v ? b : v;
        }
        return v;
    case MBP_SHAPE_SPHERE: {
        double d[3];
        for (int k = 0; k < RD; k++) {
            d[k] = x[k] - r->c[k];
        }
        return ref_sqrt(ref_dot(d, d)) - r->r;
    }
    case MBP_SHAPE_OBB:
        for (int i = 0; i < RD; i++) {
            double t = 0;
            for (int k = 0; k < RD; k++) {
                t += r->inv[i][k] * (x[k] - r->c[k]);
            }
            t = ref_abs(t) - r->h[i];
            v = t > v ? t : v;
        }
        return v;
    case MBP_SHAPE_KDOP:
        for (int j = 0; j < REF_KA; j++) {
            double s = ref_dot(ref_n(j), x), n = ref_sqrt(ref_dot(ref_n(j), ref_n(j)));
            double a = (r->klo[j] - s) / n, b = (s - r->khi[j]) / n;
            v = a > v ? a : v;
            v = b > v ? b : v;
        }
        return v;
    default: {
        double e[3], w[3], ee, t, d2 = 0;
        for (int k = 0; k < RD; k++) {
            e[k] = r->b[k] - r->a[k];
            w[k] = x[k] - r->a[k];
        }
        ee = ref_dot(e, e);
        t = ee > 0 ? ref_dot(w, e) / ee : 0;
        t = t < 0 ? 0 : (t > 1 ? 1 : t);
        for (int k = 0; k < RD; k++) {
            double q = w[k] - t * e[k];
            d2 += q * q;
        }
        return ref_sqrt(d2) - r->r;
    }
    }
}

/* True when the shape has no inside (zero extent, zero radius): no point is inside it by a
 * margin, so a common point only has to be within REF_FLAT of it. */
#define REF_FLAT 1e-10
static inline bool ref_flat(const ref_shape *r)
{
    bool f = false;
    switch (r->kind) {
    case MBP_SHAPE_BOX:
        for (int k = 0; k < RD; k++) {
            f = f || r->hi[k] - r->lo[k] <= 0;
        }
        return f;
    case MBP_SHAPE_OBB:
        for (int k = 0; k < RD; k++) {
            f = f || r->h[k] <= 0;
        }
        return f;
    case MBP_SHAPE_KDOP:
        for (int j = 0; j < REF_KA; j++) {
            f = f || r->khi[j] - r->klo[j] <= 1e-12;
        }
        return f;
    case MBP_SHAPE_RSS:
        return r->r <= 0 && (RD == 3 || r->h[0] <= 0 || r->h[1] <= 0);
    default:
        return r->r <= 0;
    }
}

/* The worst of how far x is from being eps inside each (within REF_FLAT of a flat one). */
static inline double ref_worst(const ref_shape *a, const ref_shape *b, const double *x,
                               double ea, double eb)
{
    double u = ref_out(a, x) + ea, v = ref_out(b, x) + eb;
    return u > v ? u : v;
}

/* A point inside both by eps: the best point of a grid over the overlap of their bounding boxes,
 * then a compass search down the (convex) worst of the two distances outside. The point is
 * checked with ref_in(), so only a true common point counts. */
static inline bool ref_common(const ref_shape *a, const ref_shape *b, double eps, int n)
{
    double lo[3], hi[3], best[3] = {0, 0, 0}, fb = 1e300;
    double ea = ref_flat(a) ? -REF_FLAT : eps, eb = ref_flat(b) ? -REF_FLAT : eps;
    for (int k = 0; k < RD; k++) {
        double e[3] = {0, 0, 0};
        e[k] = 1;
        double ah = ref_support(a, e), bh = ref_support(b, e);
        e[k] = -1;
        double al = -ref_support(a, e), bl = -ref_support(b, e);
        lo[k] = al > bl ? al : bl;
        hi[k] = ah < bh ? ah : bh;
        if (lo[k] > hi[k]) {
            return false;
        }
    }
    int idx[3] = {0, 0, 0};
    for (;;) {
        double x[3] = {0, 0, 0};
        for (int k = 0; k < RD; k++) {
            x[k] = lo[k] + (hi[k] - lo[k]) * (idx[k] + 0.5) / n;
        }
        double f = ref_worst(a, b, x, ea, eb);
        if (f < fb) {
            fb = f;
            for (int k = 0; k < 3; k++) {
                best[k] = x[k];
            }
        }
        int k = 0;
        while (k < RD && ++idx[k] == n) {
            idx[k++] = 0;
        }
        if (k == RD) {
            break;
        }
    }
    double step = 0;
    for (int k = 0; k < RD; k++) {
        double c = (hi[k] - lo[k]) / n;
        step = c > step ? c : step;
    }
    static const int8_t dirs[26][3] = {
        {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {1, 1, 0}, {1, -1, 0}, {-1, 1, 0},
        {-1, -1, 0}, {0, 0, 1}, {0, 0, -1}, {1, 0, 1}, {1, 0, -1}, {-1, 0, 1}, {-1, 0, -1},
        {0, 1, 1}, {0, 1, -1}, {0, -1, 1}, {0, -1, -1}, {1, 1, 1}, {1, 1, -1}, {1, -1, 1},
        {1, -1, -1}, {-1, 1, 1}, {-1, 1, -1}, {-1, -1, 1}, {-1, -1, -1}};
    int nd = RD == 2 ? 8 : 26;
    for (int it = 0; it < 4000 && step > 1e-13 && fb > 0; it++) {
        bool moved = false;
        for (int d = 0; d < nd; d++) {
            double x[3] = {0, 0, 0};
            for (int k = 0; k < RD; k++) {
                x[k] = best[k] + step * dirs[d][k];
            }
            double f = ref_worst(a, b, x, ea, eb);
            if (f < fb) {
                fb = f;
                for (int k = 0; k < 3; k++) {
                    best[k] = x[k];
                }
                moved = true;
            }
        }
        if (!moved) {
            step *= 0.5;
        }
    }
    return ref_in(a, best, -ea) && ref_in(b, best, -eb);
}

#endif
