/* SPDX-License-Identifier: MIT */
/* mbp_fit.c: bounding volumes fitted to points: the box, the minimum enclosing sphere and the
 * oriented box of principal component analysis (docs/shapes.md, "Fitting volumes to points").
 *
 * Every fitted volume holds every input point exactly, on the stored values: the sphere's radius
 * is the largest distance from its stored centre, rounded up; the oriented box's extents are the
 * largest projections onto its stored rows, rounded up and widened by what the rows' distance
 * from orthonormal can hide. What is approximate is only how tight they are.
 *
 * The sphere: Welzl's algorithm in its iterative form. The points are visited in a fixed
 * stride order (a permutation coprime with n, so that sorted input does not hit the worst case);
 * each point outside the current ball starts a pass over the points before it with that point
 * on the boundary, up to MBP_DIM + 1 boundary points. Explicit levels instead of recursion: at
 * most MBP_DIM + 2 of them, so the loop is bounded (O(n^(MBP_DIM+1)) in the worst order, O(n) in
 * practice). The ball through m + 1 boundary points is the solution of the linear system
 * 2 (P_i - P_0).x = |P_i|^2 - |P_0|^2 within their affine hull, solved by Cramer's rule (m =
 * MBP_DIM) or through the Gram matrix (m < MBP_DIM), and refined: each round solves the same
 * system for the correction from the residual of the last centre.
 *
 * Fixed point: no float. The system's matrix is scaled down to S bits and its right-hand side to
 * T bits (S, T per case below) so that every product fits int64; each refinement round divides
 * the centre's error by about 2^S, so after FIT_ROUNDS rounds the centre is within a raw unit or
 * two of the exact ball's. Residuals are exact: the centre is kept inside the points' box, where
 * differences fit 32 bits, squares 62 and sums of three squares 64 (uint64).
 *
 * Float: the points are taken relative to the centre of their box and scaled by a power of two
 * (exact) so that they lie within [-1, 1]: no product overflows or underflows; rounding is float's.
 */
#include "mbp_internal.h"
#if MBP_SCALAR == MBP_FLOAT
#include <float.h>
#endif

#define FIT_ROUNDS 3 /* solves per ball: one, then two refinements */
#define FIT_SWEEPS 8 /* Jacobi sweeps (3D oriented box): 24 rotations */

mbp_status mbp_aabb_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_aabb *out)
{
    MBP__ASSERT(out != NULL && (p != NULL || n == 0u));
    if (n == 0u) {
        return MBP_E_PARAM;
    }
    mbp_aabb b = {{0}, {0}};
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb q;
        for (int k = 0; k < MBP_DIM; k++) {
            q.min[k] = p[i][k];
            q.max[k] = p[i][k];
        }
        mbp_status st = mbp_aabb_check(&q);
        if (st != MBP_OK) {
            return st;
        }
        if (i == 0u) {
            b = q;
        } else {
            mbp_aabb_union(&b, &q, &b);
        }
    }
    *out = b;
    return MBP_OK;
}

/* ---- numbers ---- */

#if MBP_SCALAR == MBP_FIXED
typedef int64_t fw; /* a working number: a coordinate, a product, a residual */

/* floor(sqrt(v)), any uint64 v. */
static uint64_t sqrt_floor(uint64_t v)
{
    uint64_t r = 0u, bit = (uint64_t)1 << 62;
    while (bit > v) {
        bit >>= 2;
    }
    while (bit != 0u) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r;
}

static uint64_t sqrt_ceil(uint64_t v)
{
    uint64_t r = sqrt_floor(v);
    return r * r == v ? r : r + 1u;
}

static uint64_t umag(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* Bits of m: 0 for 0, 64 at most. */
static int nbits(uint64_t m)
{
    int b = 0;
    while (m != 0u) {
        m >>= 1;
        b++;
    }
    return b;
}

/* v * 2^-s (s > 0: rounded to nearest, ties away from zero) or v * 2^-s exactly (s <= 0; the
 * caller keeps the result within int64). */
static int64_t shift(int64_t v, int s)
{
    if (s <= 0) {
        return (int64_t)(umag(v) << -s) * (v < 0 ? -1 : 1);
    }
    int64_t m = (int64_t)((umag(v) + ((uint64_t)1 << (s - 1))) >> s);
    return v < 0 ? -m : m;
}

/* round(a / b), b != 0. */
static int64_t div_round(int64_t a, int64_t b)
{
    uint64_t ua = umag(a), ub = umag(b);
    int64_t q = (int64_t)((ua + ub / 2u) / ub);
    return (a < 0) != (b < 0) ? -q : q;
}

/* Squared distance of p from x, exact: x within the points' box, so each difference fits 32
 * bits. */
static uint64_t dist2(const mbp_scalar *p, const fw *x)
{
    uint64_t d2 = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        uint64_t d = umag((int64_t)p[k] - x[k]);
        d2 += d * d;
    }
    return d2;
}
#else
typedef float fw;

/* sqrt(v) for finite v >= 0, within a few ulps: v is scaled into [1, 4) by powers of 4 (exact),
 * then Newton's iteration from 1.5 converges in five steps. */
static float sqrt_f(float v)
{
    float m = v, scale = 1.0f;
    for (int i = 0; i < 70 && m >= 4.0f; i++) {
        m *= 0.25f;
        scale *= 2.0f;
    }
    for (int i = 0; i < 80 && m < 1.0f && m > 0.0f; i++) {
        m *= 4.0f;
        scale *= 0.5f;
    }
    float y = 1.5f;
    for (int i = 0; i < 5; i++) {
        y = 0.5f * (y + m / y);
    }
    return m > 0.0f ? y * scale : 0.0f;
}

/* x grown by a relative 2^-19: more than the rounding of the few operations behind it. A final
 * radius or extent also gets FIT_TINY, more than a rounding among subnormal numbers. */
static float up(float x)
{
    return x + x * (1.0f / 524288.0f);
}
#define FIT_TINY (FLT_MIN * FLT_EPSILON * 8.0f)

#endif

/* ---- the working frame: where the ball is computed ---- */

typedef struct {
    const mbp_scalar (*p)[MBP_DIM];
    mbp_aabb box; /* of the points */
#if MBP_SCALAR == MBP_FLOAT
    float ref[MBP_DIM]; /* working coordinates: (p - ref) * scale */
    float scale;
#endif
} frame;

/* The frame of the points: their box (checking them: as mbp_aabb_from_points()), and in float
 * the reference and scale. */
static mbp_status frame_init(frame *f, const mbp_scalar (*p)[MBP_DIM], uint32_t n)
{
    mbp_status st = mbp_aabb_from_points(p, n, &f->box);
    if (st != MBP_OK) {
        return st;
    }
    f->p = p;
#if MBP_SCALAR == MBP_FLOAT
    const mbp_aabb *box = &f->box;
    float w = 0.0f;
    for (int k = 0; k < MBP_DIM; k++) {
        f->ref[k] = box->min[k] * 0.5f + box->max[k] * 0.5f;
        float e = box->max[k] - box->min[k];
        w = e > w ? e : w;
    }
    /* a power of two with w * scale in (0.5, 1] (or 1 for a single point), within 2^-62 (w is
     * below 2^62) and 2^100 (narrower clouds keep a smaller w * scale, still far from
     * underflow: a nonzero width is at least 2^-149) */
    float s = 1.0f;
    for (int i = 0; i < 64 && w * s > 1.0f; i++) {
        s *= 0.5f;
    }
    for (int i = 0; i < 100 && w > 0.0f && w * s <= 0.5f; i++) {
        s *= 2.0f;
    }
    f->scale = s;
#endif
    return MBP_OK;
}

/* Point i in working coordinates. */
static void wpt(const frame *f, uint32_t i, fw out[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        out[k] = (fw)f->p[i][k];
#else
        out[k] = (f->p[i][k] - f->ref[k]) * f->scale;
#endif
    }
}

/* x clamped into the points' box (working coordinates). */
static void clamp_box(const frame *f, fw x[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        fw lo = f->box.min[k], hi = f->box.max[k];
#else
        fw lo = (f->box.min[k] - f->ref[k]) * f->scale, hi = (f->box.max[k] - f->ref[k]) * f->scale;
#endif
        x[k] = x[k] < lo ? lo : (x[k] > hi ? hi : x[k]);
    }
}

/* Squared distance of point i from x in working coordinates (fixed: exact). */
static fw wdist2(const frame *f, uint32_t i, const fw x[MBP_DIM])
{
#if MBP_SCALAR == MBP_FIXED
    return (fw)(dist2(f->p[i], x) >> 1); /* halved: fits int64; compared with the same */
#else
    fw q[MBP_DIM], d2 = 0.0f;
    wpt(f, i, q);
    for (int k = 0; k < MBP_DIM; k++) {
        d2 += (q[k] - x[k]) * (q[k] - x[k]);
    }
    return d2;
#endif
}

/* ---- the ball through boundary points ---- */

/* One solve: the correction d to the centre x of the ball through the m + 1 points q[0..m]
 * (1 <= m <= MBP_DIM), within their affine hull: B d = e with B_i = q_i - q_0 and
 * e_i = (|q_i - x|^2 - |q_0 - x|^2) / 2. False when B is singular (q dependent; d is then meaningless). */
static bool solve(const fw (*q)[MBP_DIM], int m, const fw x[MBP_DIM], fw d[MBP_DIM])
{
    fw b[MBP_DIM][MBP_DIM], e[MBP_DIM] = {0};
#if MBP_SCALAR == MBP_FIXED
    /* Fixed: e_i = sum_k B_ik (q_ik + q_0k - 2 x_k) / 2, each product below 2^63 (x inside the
     * points' box), summed after a quarter: E_i = e_i / 2 within a raw unit. Then B is scaled to
     * S bits (by 2^-sb) and E to T bits (by 2^-se), so d = 2^(se + 1 - sb) N / det, with N and det
     * the integers of the case below, each below 2^63:
     *   m = 1:          g = b.b < 3 * 2^(2S); N = b E' < 2^(S + T)            S = T = 30
     *   m = 2, 2D:      det < 2^(2S + 1); N = adj(b) E' < 2^(S + T + 1)        S = T = 30
     *   m = 2, 3D:      Gram g < 3 * 2^(2S), det g < 2^(4S + 4.2);
     *                   N = b^T adj(g) E' < 2^(3S + T + 3.6)                   S = 14, T = 17
     *   m = 3:          det < 6 * 2^(3S); N = adj(b) E' < 2^(2S + T + 2.6)     S = T = 20 */
    int S = 30, T = 30;
#if MBP_DIM == 3
    if (m == 2) {
        S = 14;
        T = 17;
    } else if (m == 3) {
        S = 20;
        T = 20;
    }
#endif
    uint64_t mb = 0u, me = 0u;
    for (int i = 0; i < m; i++) {
        e[i] = 0;
        for (int k = 0; k < MBP_DIM; k++) {
            b[i][k] = q[i + 1][k] - q[0][k];
            mb |= umag(b[i][k]);
            e[i] += shift(b[i][k] * (q[i + 1][k] + q[0][k] - 2 * x[k]), 2);
        }
        me |= umag(e[i]);
    }
    int sb = nbits(mb) - S, se = nbits(me) - T;
    sb = sb < 0 ? 0 : sb;
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            b[i][k] = shift(b[i][k], sb);
        }
        e[i] = shift(e[i], se);
    }
    int up_by = se + 1 - sb;
#else
    for (int i = 0; i < m; i++) {
        e[i] = 0.0f;
        for (int k = 0; k < MBP_DIM; k++) {
            b[i][k] = q[i + 1][k] - q[0][k];
            e[i] += b[i][k] * (q[i + 1][k] + q[0][k] - 2.0f * x[k]);
        }
        e[i] *= 0.5f;
    }
#endif
    fw num[MBP_DIM], det;
    if (m == MBP_DIM) { /* Cramer: d = adj(b) e / det(b) */
#if MBP_DIM == 2
        det = b[0][0] * b[1][1] - b[0][1] * b[1][0];
        num[0] = b[1][1] * e[0] - b[0][1] * e[1];
        num[1] = b[0][0] * e[1] - b[1][0] * e[0];
#else
        fw a[3][3]; /* adj(b): a[k][i] = cofactor of b[i][k] */
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 3; k++) {
                int i1 = (i + 1) % 3, i2 = (i + 2) % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
                a[k][i] = b[i1][k1] * b[i2][k2] - b[i1][k2] * b[i2][k1];
            }
        }
        det = b[0][0] * a[0][0] + b[0][1] * a[1][0] + b[0][2] * a[2][0];
        for (int k = 0; k < 3; k++) {
            num[k] = a[k][0] * e[0] + a[k][1] * e[1] + a[k][2] * e[2];
        }
#endif
    } else { /* through the Gram matrix g = b b^T: d = b^T g^-1 e */
        fw s[MBP_DIM - 1];
#if MBP_DIM == 3
        if (m == 2) {
            fw g00 = 0, g01 = 0, g11 = 0;
            for (int k = 0; k < 3; k++) {
                g00 += b[0][k] * b[0][k];
                g01 += b[0][k] * b[1][k];
                g11 += b[1][k] * b[1][k];
            }
            det = g00 * g11 - g01 * g01;
            s[0] = g11 * e[0] - g01 * e[1];
            s[1] = g00 * e[1] - g01 * e[0];
        } else
#endif
        {
            det = 0;
            for (int k = 0; k < MBP_DIM; k++) {
                det += b[0][k] * b[0][k];
            }
            s[0] = e[0];
        }
        for (int k = 0; k < MBP_DIM; k++) {
            num[k] = 0;
            for (int i = 0; i < m; i++) {
                num[k] += b[i][k] * s[i];
            }
        }
    }
    bool ok = det != 0; /* else q is dependent: no step (divide by 1 instead) */
    det = ok ? det : 1;
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        /* d = 2^up_by num / det: divide by det shrunk first when up_by > 0 (det keeps enough
         * bits when it matters); a quotient beyond the points' box is clamped by the caller */
        const int64_t far = (int64_t)1 << 40; /* beyond the box: clamped there by the caller */
        int64_t dd = up_by > 0 ? shift(det, up_by) : det;
        int64_t v = dd == 0 ? ((num[k] < 0) != (det < 0) ? -far : far) : div_round(num[k], dd);
        v = up_by > 0 ? v : shift(v, -up_by);
        d[k] = v < -far ? -far : (v > far ? far : v);
#else
        /* working coordinates are within [-1, 1]: a step beyond 4 is clamped by the caller */
        float v = num[k] / det;
        d[k] = v < -4.0f ? -4.0f : (v > 4.0f ? 4.0f : v);
#endif
    }
    return ok;
}

/* The ball through the points sup[0..m] (indices), centre x, squared radius *r2 (the largest
 * over them, working units). When they are dependent (three collinear, four coplanar: only
 * rounding of near-cocircular points leads there), the centre stays where the last solve left it
 * (the first point, at worst): a larger ball, still holding them. */
static void ball(const frame *f, const uint32_t *sup, int m, fw x[MBP_DIM], fw *r2)
{
    fw q[MBP_DIM + 1][MBP_DIM];
    wpt(f, sup[0], q[0]); /* m >= 0; first, so that -O1 sees q[0] written */
    for (int i = 1; i <= m; i++) {
        wpt(f, sup[i], q[i]);
    }
    for (int k = 0; k < MBP_DIM; k++) {
        x[k] = q[0][k];
    }
    fw d[MBP_DIM];
    for (int r = 0; r < FIT_ROUNDS && m > 0 && solve((const fw(*)[MBP_DIM])q, m, x, d); r++) {
        bool moved = false;
        for (int k = 0; k < MBP_DIM; k++) {
            moved = moved || d[k] != 0;
            x[k] += d[k];
        }
        clamp_box(f, x);
        if (!moved) {
            break;
        }
    }
    *r2 = 0;
    for (int i = 0; i <= m; i++) {
        fw d2 = wdist2(f, sup[i], x);
        *r2 = d2 > *r2 ? d2 : *r2;
    }
}

mbp_status mbp_sphere_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_sphere *out)
{
    MBP__ASSERT(out != NULL && (p != NULL || n == 0u));
    frame f;
    mbp_status st = frame_init(&f, p, n);
    if (st != MBP_OK) {
        return st;
    }
    /* the visit order: position t is point t * step mod n, step coprime with n */
    uint32_t step = (uint32_t)(((uint64_t)n * 2654435769u) >> 32) | 1u;
    for (;;) { /* ends by step == n + 1 at the latest (coprime with n) */
        uint32_t a = step % n, c = n;
        while (a != 0u) {
            uint32_t t = c % a;
            c = a;
            a = t;
        }
        if (c == 1u || n == 1u) {
            break;
        }
        step++;
    }
    step %= n;
    /* level l: points at positions pos[l] < lim[l] are tested against the ball with
     * sup[0..l-1] on its boundary; idx[l] is the index at pos[l] */
    uint32_t lim[MBP_DIM + 2], pos[MBP_DIM + 2], idx[MBP_DIM + 2], sup[MBP_DIM + 1];
    fw x[MBP_DIM] = {0}, r2 = 0;
    bool empty = true;
    int l = 0;
    lim[0] = n;
    pos[0] = 0u;
    idx[0] = 0u;
    for (;;) {
        if (pos[l] >= lim[l]) {
            if (l == 0) {
                break;
            }
            l--;
        } else if (empty || wdist2(&f, idx[l], x) > r2) {
            empty = false;
            sup[l] = idx[l];
            ball(&f, sup, l, x, &r2);
            if (l < MBP_DIM) {
                lim[l + 1] = pos[l];
                pos[l + 1] = 0u;
                idx[l + 1] = 0u;
                l++;
                continue;
            }
        }
        pos[l]++;
        idx[l] = idx[l] >= n - step ? idx[l] - (n - step) : idx[l] + step;
    }
    /* the stored centre, then the radius that holds every point */
    mbp_sphere s;
#if MBP_SCALAR == MBP_FIXED
    uint64_t m2 = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        s.c[k] = (mbp_scalar)x[k]; /* inside the points' box */
    }
    for (uint32_t i = 0; i < n; i++) {
        uint64_t d2 = dist2(p[i], x);
        m2 = d2 > m2 ? d2 : m2;
    }
    uint64_t r = sqrt_ceil(m2);
    if (r > (uint64_t)MBP_RANGE) {
        return MBP_E_RANGE;
    }
    s.r = (mbp_scalar)r;
#else
    for (int k = 0; k < MBP_DIM; k++) {
        float c = f.ref[k] + x[k] / f.scale;
        s.c[k] = c < f.box.min[k] ? f.box.min[k] : (c > f.box.max[k] ? f.box.max[k] : c);
    }
    float m2 = 0.0f;
    for (uint32_t i = 0; i < n; i++) {
        float d2 = 0.0f;
        for (int k = 0; k < MBP_DIM; k++) {
            float d = (p[i][k] - s.c[k]) * f.scale;
            d2 += d * d;
        }
        m2 = d2 > m2 ? d2 : m2;
    }
    s.r = m2 > 0.0f ? up(sqrt_f(m2)) / f.scale + FIT_TINY : 0.0f;
    if (!(s.r <= MBP_RANGE)) {
        return MBP_E_RANGE;
    }
#endif
    *out = s;
    return MBP_OK;
}

/* ---- the oriented box: principal component analysis ---- */

#if MBP_WITH_OBB

#if MBP_SCALAR == MBP_FIXED
typedef int64_t ew; /* a covariance entry, a Q30 rotation entry or a Q30 projection */
#define E_ONE ((int64_t)0x40000000) /* 1.0 in Q30 */

static int64_t shr30(int64_t v)
{
    return shift(v, 30);
}

/* v (any int64 vector, not zero) scaled to a Q30 unit vector, within 2^-28 per entry. */
static void unit(ew v[MBP_DIM])
{
    uint64_t m = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        m |= umag(v[k]);
    }
    int s = nbits(m) - 30;
    uint64_t l2 = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        v[k] = shift(v[k], s); /* |v_k| <= 2^30 */
        l2 += (uint64_t)(v[k] * v[k]);
    }
    int64_t len = (int64_t)sqrt_floor(l2); /* >= 2^29 */
    for (int k = 0; k < MBP_DIM; k++) {
        v[k] = div_round(v[k] * E_ONE, len);
    }
}
#else
typedef float ew;
#define E_ONE 1.0f

static float absf(float v)
{
    return v < 0.0f ? -v : v;
}

/* a - b (a >= b) rounded up: exact when the difference is a float (the error term of the
 * rounded difference, computed exactly, is zero), else grown by up(). */
static float sub_up(float a, float b)
{
    float s = a - b, bb = s - a;
    float err = (a - (s - bb)) + (-b - bb);
    return err > 0.0f ? up(s) + FIT_TINY : s;
}


static float shr30(float v)
{
    return v;
}

static void unit(ew v[MBP_DIM])
{
    float l2 = 0.0f, m = 0.0f;
    for (int k = 0; k < MBP_DIM; k++) {
        m = absf(v[k]) > m ? absf(v[k]) : m;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        v[k] /= m;
        l2 += v[k] * v[k];
    }
    float len = sqrt_f(l2);
    for (int k = 0; k < MBP_DIM; k++) {
        v[k] /= len;
    }
}
#endif

#if MBP_DIM == 3
static ew dot(const ew *a, const ew *b)
{
    ew s = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        s += shr30(a[k] * b[k]);
    }
    return s;
}
#endif

/* The covariance of the points about their mean m (fixed: the mean rounded, coordinates shifted
 * right by sh so that each difference fits 15 bits: a product below 2^30, a sum of n < 2^32 of
 * them below 2^62, for any n; then the matrix shifted down to entries below 2^30). Float: in
 * working coordinates (scaled within [-1, 1]), summed in float. The eigenvectors do not depend on
 * a common factor, so no division by n. */
static void covariance(const frame *f, uint32_t n, fw m[MBP_DIM], ew cov[MBP_DIM][MBP_DIM])
{
    fw sum[MBP_DIM] = {0};
    fw q[MBP_DIM];
    for (uint32_t i = 0; i < n; i++) {
        wpt(f, i, q);
        for (int k = 0; k < MBP_DIM; k++) {
            sum[k] += q[k]; /* fixed: below 2^30 * 2^32 */
        }
    }
#if MBP_SCALAR == MBP_FIXED
    int w = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        m[k] = sum[k] / (int64_t)n;
        int b = nbits((uint64_t)((int64_t)f->box.max[k] - f->box.min[k]));
        w = b > w ? b : w;
    }
    int sh = w > 15 ? w - 15 : 0;
#else
    for (int k = 0; k < MBP_DIM; k++) {
        m[k] = sum[k] / (float)n;
    }
#endif
    for (int a = 0; a < MBP_DIM; a++) {
        for (int b = 0; b < MBP_DIM; b++) {
            cov[a][b] = 0;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        wpt(f, i, q);
        for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
            q[k] = (q[k] - m[k]) >> sh; /* |.| <= 2^15: within the box's width */
#else
            q[k] -= m[k];
#endif
        }
        for (int a = 0; a < MBP_DIM; a++) {
            for (int b = a; b < MBP_DIM; b++) {
                cov[a][b] += q[a] * q[b];
            }
        }
    }
#if MBP_SCALAR == MBP_FIXED
    uint64_t big = 0u;
    for (int a = 0; a < MBP_DIM; a++) {
        for (int b = a; b < MBP_DIM; b++) {
            big |= umag(cov[a][b]);
        }
    }
    int s = nbits(big) - 30;
    for (int a = 0; a < MBP_DIM; a++) {
        for (int b = a; b < MBP_DIM; b++) {
            cov[a][b] = s > 0 ? shift(cov[a][b], s) : cov[a][b];
        }
    }
#endif
    for (int a = 0; a < MBP_DIM; a++) {
        for (int b = 0; b < a; b++) {
            cov[a][b] = cov[b][a];
        }
    }
}

/* rot = the eigenvectors of the covariance c (entries below 2^30 in fixed point), as unit rows,
 * the largest variance first; the identity when c has no preferred direction (zero, or a
 * multiple of the identity). */
static void eigen(ew c[MBP_DIM][MBP_DIM], ew rot[MBP_DIM][MBP_DIM])
{
#if MBP_DIM == 2
    /* closed form: the larger eigenvalue's vector is (a - c + r, 2b) or (2b, c - a + r) with
     * r = sqrt((a - c)^2 + 4b^2) (below 2^31.5: no overflow); the one of larger norm */
    ew a = c[0][0], b = c[0][1], d = c[1][1];
#if MBP_SCALAR == MBP_FIXED
    ew r = (ew)sqrt_floor((uint64_t)((a - d) * (a - d)) + (uint64_t)(4 * b * b));
#else
    ew r = sqrt_f((a - d) * (a - d) + 4.0f * b * b);
#endif
    ew v[2] = {a - d + r, 2 * b};
    if (a < d) {
        v[0] = 2 * b;
        v[1] = d - a + r;
    }
    if (v[0] == 0 && v[1] == 0) {
        v[0] = E_ONE; /* isotropic: any axes; the world's */
    }
    unit(v);
    rot[0][0] = v[0];
    rot[0][1] = v[1];
    rot[1][0] = -v[1];
    rot[1][1] = v[0];
#else
    /* cyclic Jacobi: FIT_SWEEPS sweeps of the three rotations that zero c[p][q]; v holds the
     * product of the rotations, its columns the eigenvectors */
    ew v[3][3];
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 3; k++) {
            v[i][k] = i == k ? E_ONE : 0;
        }
    }
    for (int sweep = 0; sweep < FIT_SWEEPS; sweep++) {
        for (int pq = 0; pq < 3; pq++) {
            int p = pq / 2, q = 1 + (pq + 1) / 2; /* (0, 1), (0, 2), (1, 2) */
            /* t = tan of the angle: sign(th) / (|th| + sqrt(th^2 + 1)), th = dd / ee, written
             * as |ee| / (|dd| + sqrt(dd^2 + ee^2)) so that nothing divides by a small number */
            ew dd = c[q][q] - c[p][p], ee = 2 * c[p][q];
#if MBP_SCALAR == MBP_FIXED
            /* entries stay below 2^31.6 (the matrix's norm): dd, ee below 2^32.6, shifted to
             * 2^30 together; then t is Q30, and so are cs and sn */
            int s = nbits(umag(dd) | umag(ee)) - 30;
            dd = s > 0 ? shift(dd, s) : dd;
            ee = s > 0 ? shift(ee, s) : ee;
            if (ee == 0) {
                continue; /* already diagonal here (within the rounding) */
            }
            int64_t h = (int64_t)sqrt_floor((uint64_t)(dd * dd) + (uint64_t)(ee * ee));
            int64_t t = div_round((int64_t)(umag(ee) << 30), (int64_t)umag(dd) + h);
            t = (dd < 0) != (ee < 0) ? -t : t;
            int64_t cs = div_round(E_ONE * E_ONE,
                                   (int64_t)sqrt_floor((uint64_t)(E_ONE * E_ONE + t * t)));
            int64_t sn = shr30(t * cs);
            int64_t tq = shr30(t * c[p][q]);
#else
            if (ee == 0.0f) {
                continue;
            }
            float h = sqrt_f(dd * dd + ee * ee);
            float t = absf(ee) / (absf(dd) + h);
            t = (dd < 0.0f) != (ee < 0.0f) ? -t : t;
            float cs = 1.0f / sqrt_f(1.0f + t * t), sn = t * cs;
            float tq = t * c[p][q];
#endif
            c[p][p] -= tq;
            c[q][q] += tq;
            c[p][q] = 0;
            c[q][p] = 0;
            int r = 3 - p - q;
            ew g = c[r][p], hh = c[r][q];
            c[r][p] = shr30(cs * g - sn * hh);
            c[p][r] = c[r][p];
            c[r][q] = shr30(sn * g + cs * hh);
            c[q][r] = c[r][q];
            for (int k = 0; k < 3; k++) {
                g = v[k][p];
                hh = v[k][q];
                v[k][p] = shr30(cs * g - sn * hh);
                v[k][q] = shr30(sn * g + cs * hh);
            }
        }
    }
    /* the columns by decreasing eigenvalue, then made orthonormal again (Gram-Schmidt, the third
     * the cross product): the rows of rot */
    int ord[3] = {0, 1, 2};
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2 - i; j++) {
            if (c[ord[j + 1]][ord[j + 1]] > c[ord[j]][ord[j]]) {
                int t = ord[j];
                ord[j] = ord[j + 1];
                ord[j + 1] = t;
            }
        }
    }
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 3; k++) {
            rot[i][k] = v[k][ord[i]];
        }
    }
    unit(rot[0]);
    ew pr = dot(rot[1], rot[0]);
    for (int k = 0; k < 3; k++) {
        rot[1][k] -= shr30(pr * rot[0][k]);
    }
    unit(rot[1]);
    for (int k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        rot[2][k] = shr30(rot[0][k1] * rot[1][k2] - rot[0][k2] * rot[1][k1]);
    }
    unit(rot[2]);
#endif
}

/* True when the box of half-extents a has a smaller area (volume) than the one of b. */
static bool smaller(const fw a[MBP_DIM], const fw b[MBP_DIM], fw scale)
{
#if MBP_SCALAR == MBP_FIXED
    (void)scale;
    uint64_t pa = (uint64_t)a[0] * (uint64_t)a[1], pb = (uint64_t)b[0] * (uint64_t)b[1];
#if MBP_DIM == 3
    /* 60 bits by 30: compared as (high, low 32 bits) */
    uint64_t la = (pa & 0xFFFFFFFFu) * (uint64_t)a[2], lb = (pb & 0xFFFFFFFFu) * (uint64_t)b[2];
    uint64_t ha = (pa >> 32) * (uint64_t)a[2] + (la >> 32);
    uint64_t hb = (pb >> 32) * (uint64_t)b[2] + (lb >> 32);
    return ha < hb || (ha == hb && (la & 0xFFFFFFFFu) < (lb & 0xFFFFFFFFu));
#else
    return pa < pb;
#endif
#else
    float pa = 1.0f, pb = 1.0f; /* scaled: the points' box is within 1, no overflow */
    for (int k = 0; k < MBP_DIM; k++) {
        pa *= a[k] * scale;
        pb *= b[k] * scale;
    }
    return pa < pb;
#endif
}

mbp_status mbp_obb_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_obb *out)
{
    MBP__ASSERT(out != NULL && (p != NULL || n == 0u));
    frame f;
    mbp_status st = frame_init(&f, p, n);
    if (st != MBP_OK) {
        return st;
    }
    const mbp_aabb box = f.box;
    fw m[MBP_DIM];
    ew cov[MBP_DIM][MBP_DIM], rot[MBP_DIM][MBP_DIM];
    covariance(&f, n, m, cov);
    eigen(cov, rot);
#if MBP_SCALAR == MBP_FIXED
    const fw scale = 1;
#else
    const fw scale = f.scale;
#endif
    /* The centre: the mean, then moved to the middle of the projections onto the rows. Fixed:
     * a projection is Q30, three products below 2^61 (differences inside the box, rows Q30). */
    fw c[MBP_DIM], lo[MBP_DIM] = {0}, hi[MBP_DIM] = {0}, d[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        c[k] = m[k];
#else
        c[k] = f.ref[k] + m[k] / f.scale;
#endif
    }
    for (uint32_t i = 0; i < n; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            d[k] = (fw)p[i][k] - c[k];
        }
        for (int j = 0; j < MBP_DIM; j++) {
            fw y = 0;
            for (int k = 0; k < MBP_DIM; k++) {
                y += rot[j][k] * d[k];
            }
            lo[j] = i == 0u || y < lo[j] ? y : lo[j];
            hi[j] = i == 0u || y > hi[j] ? y : hi[j];
        }
    }
    fw mid[MBP_DIM];
    for (int j = 0; j < MBP_DIM; j++) {
        mid[j] = shr30(lo[j] / 2 + hi[j] / 2); /* fixed: raw units, |.| below 2^31.8 */
    }
    for (int k = 0; k < MBP_DIM; k++) {
        fw s = 0;
        for (int j = 0; j < MBP_DIM; j++) {
#if MBP_SCALAR == MBP_FIXED
            s += shift(mid[j] * rot[j][k], 2); /* below 2^60 each */
#else
            s += mid[j] * rot[j][k];
#endif
        }
#if MBP_SCALAR == MBP_FIXED
        c[k] += shift(s, 28);
#else
        c[k] += s;
#endif
        c[k] = c[k] < box.min[k] ? box.min[k] : (c[k] > box.max[k] ? box.max[k] : c[k]);
    }
    /* The extents from the stored centre and rows: the largest |projection|, rounded up, plus
     * what the rows' distance eps from orthonormal can hide. With R R^T = I + E (|E_ij| <= eps),
     * a point's box coordinates t = R^-T (p - c) differ from its projections R (p - c) = t + E t
     * by at most MBP_DIM eps |t| <= 2 MBP_DIM eps |p - c|. */
    fw ymax[MBP_DIM] = {0}, d2max = 0;
    for (uint32_t i = 0; i < n; i++) {
#if MBP_SCALAR == MBP_FIXED
        fw d2 = (fw)(dist2(p[i], c) >> 2); /* below 2^62 */
#else
        fw d2 = 0;
#endif
        for (int k = 0; k < MBP_DIM; k++) {
            d[k] = (fw)p[i][k] - c[k];
#if MBP_SCALAR == MBP_FLOAT
            d2 += (d[k] * scale) * (d[k] * scale);
#endif
        }
        d2max = d2 > d2max ? d2 : d2max;
        for (int j = 0; j < MBP_DIM; j++) {
            fw y = 0;
            for (int k = 0; k < MBP_DIM; k++) {
                y += rot[j][k] * d[k];
            }
            y = y < 0 ? -y : y;
            ymax[j] = y > ymax[j] ? y : ymax[j];
        }
    }
    fw eps = 0;
    for (int i = 0; i < MBP_DIM; i++) {
        for (int j = i; j < MBP_DIM; j++) {
            fw e = 0;
            for (int k = 0; k < MBP_DIM; k++) {
                e += (fw)((fw)(mbp_unit)rot[i][k] * (mbp_unit)rot[j][k]);
            }
            e -= i == j ? E_ONE * E_ONE : 0;
            e = e < 0 ? -e : e;
            eps = e > eps ? e : eps;
        }
    }
    mbp_obb o;
    fw h[MBP_DIM], ha[MBP_DIM];
#if MBP_SCALAR == MBP_FIXED
    /* eps (Q60) rounded up to Q40: below 2^30 (checked rows), times |p - c| below 2^32 */
    uint64_t dmax = (sqrt_ceil((uint64_t)d2max) + 1u) * 2u; /* >= |p - c| */
    fw slack = (fw)(2 * MBP_DIM) * (fw)((((uint64_t)(eps >> 20) + 1u) * dmax >> 40) + 1u);
    for (int j = 0; j < MBP_DIM; j++) {
        h[j] = ((ymax[j] + E_ONE - 1) >> 30) + slack;
    }
#else
    float dmax = up(sqrt_f(d2max)) / scale;
    float slack = dmax * (2.0f * (float)MBP_DIM * (eps + 1.0f / 4194304.0f) + 1.0f / 524288.0f);
    for (int j = 0; j < MBP_DIM; j++) {
        h[j] = up(ymax[j] + slack) + FIT_TINY;
    }
#endif
    /* the box of the points, as an oriented box, when it is no larger */
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        fw ca = box.min[k] + ((fw)box.max[k] - box.min[k]) / 2;
        ha[k] = box.max[k] - ca;
#else
        fw ca = box.min[k] * 0.5f + box.max[k] * 0.5f;
        fw h1 = sub_up(box.max[k], ca), h2 = sub_up(ca, box.min[k]);
        ha[k] = h1 > h2 ? h1 : h2;
#endif
        o.c[k] = (mbp_scalar)ca;
    }
    bool pca = smaller(h, ha, scale); /* and within the range: else the box (whose fits) */
    for (int k = 0; k < MBP_DIM; k++) {
        pca = pca && h[k] <= (fw)MBP_RANGE;
    }
    for (int i = 0; i < MBP_DIM; i++) {
        if (pca) {
            o.c[i] = (mbp_scalar)c[i];
        }
        o.h[i] = (mbp_scalar)(pca ? h[i] : ha[i]);
        for (int k = 0; k < MBP_DIM; k++) {
            o.rot[i][k] = pca ? (mbp_unit)rot[i][k] : (i == k ? MBP_UNIT_ONE : (mbp_unit)0);
        }
    }
    *out = o;
    return MBP_OK;
}

#endif /* MBP_WITH_OBB */
