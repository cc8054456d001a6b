/* SPDX-License-Identifier: MIT */
/* mbp_fit_sphere.c: the minimum enclosing sphere of points (docs/shapes.md, "Fitting volumes to
 * points"); the numbers and the frame it works in: mbp_fit.h.
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
 * Float: in the working coordinates of the frame (mbp_fit.h); rounding is float's.
 */
#include "mbp_fit.h"

#define FIT_ROUNDS 3 /* solves per ball: one, then two refinements */

/* x clamped into the points' box (working coordinates). */
static void clamp_box(const mbp__fit_frame *f, mbp__fw x[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        mbp__fw lo = f->box.min[k], hi = f->box.max[k];
#else
        mbp__fw lo = (f->box.min[k] - f->ref[k]) * f->scale, hi = (f->box.max[k] - f->ref[k]) * f->scale;
#endif
        x[k] = x[k] < lo ? lo : (x[k] > hi ? hi : x[k]);
    }
}

/* Squared distance of point i from x in working coordinates (fixed: exact). */
static mbp__fw wdist2(const mbp__fit_frame *f, uint32_t i, const mbp__fw x[MBP_DIM])
{
#if MBP_SCALAR == MBP_FIXED
    return (mbp__fw)(mbp__fit_dist2(f->p[i], x) >> 1); /* halved: fits int64; compared with the same */
#else
    mbp__fw q[MBP_DIM], d2 = 0.0f;
    mbp__fit_wpt(f, i, q);
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
static bool solve(const mbp__fw (*q)[MBP_DIM], int m, const mbp__fw x[MBP_DIM], mbp__fw d[MBP_DIM])
{
    mbp__fw b[MBP_DIM][MBP_DIM], e[MBP_DIM] = {0};
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
            mb |= mbp__fit_umag(b[i][k]);
            e[i] += mbp__fit_shift(b[i][k] * (q[i + 1][k] + q[0][k] - 2 * x[k]), 2);
        }
        me |= mbp__fit_umag(e[i]);
    }
    int sb = mbp__fit_nbits(mb) - S, se = mbp__fit_nbits(me) - T;
    sb = sb < 0 ? 0 : sb;
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            b[i][k] = mbp__fit_shift(b[i][k], sb);
        }
        e[i] = mbp__fit_shift(e[i], se);
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
    mbp__fw num[MBP_DIM], det;
    if (m == MBP_DIM) { /* Cramer: d = adj(b) e / det(b) */
#if MBP_DIM == 2
        det = b[0][0] * b[1][1] - b[0][1] * b[1][0];
        num[0] = b[1][1] * e[0] - b[0][1] * e[1];
        num[1] = b[0][0] * e[1] - b[1][0] * e[0];
#else
        mbp__fw a[3][3]; /* adj(b): a[k][i] = cofactor of b[i][k] */
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
        mbp__fw s[MBP_DIM - 1];
#if MBP_DIM == 3
        if (m == 2) {
            mbp__fw g00 = 0, g01 = 0, g11 = 0;
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
        int64_t dd = up_by > 0 ? mbp__fit_shift(det, up_by) : det;
        int64_t v = dd == 0 ? ((num[k] < 0) != (det < 0) ? -far : far) : mbp__fit_div_round(num[k], dd);
        v = up_by > 0 ? v : mbp__fit_shift(v, -up_by);
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
static void ball(const mbp__fit_frame *f, const uint32_t *sup, int m, mbp__fw x[MBP_DIM], mbp__fw *r2)
{
    mbp__fw q[MBP_DIM + 1][MBP_DIM];
    mbp__fit_wpt(f, sup[0], q[0]); /* m >= 0; first, so that -O1 sees q[0] written */
    for (int i = 1; i <= m; i++) {
        mbp__fit_wpt(f, sup[i], q[i]);
    }
    for (int k = 0; k < MBP_DIM; k++) {
        x[k] = q[0][k];
    }
    mbp__fw d[MBP_DIM];
    for (int r = 0; r < FIT_ROUNDS && m > 0 && solve((const mbp__fw(*)[MBP_DIM])q, m, x, d); r++) {
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
        mbp__fw d2 = wdist2(f, sup[i], x);
        *r2 = d2 > *r2 ? d2 : *r2;
    }
}

mbp_status mbp_sphere_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_sphere *out)
{
    MBP__ASSERT(out != NULL && (p != NULL || n == 0u));
    mbp__fit_frame f;
    mbp_status st = mbp__fit_frame_init(&f, p, n);
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
    mbp__fw x[MBP_DIM] = {0}, r2 = 0;
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
        uint64_t d2 = mbp__fit_dist2(p[i], x);
        m2 = d2 > m2 ? d2 : m2;
    }
    uint64_t r = mbp__fit_sqrt_ceil(m2);
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
    s.r = m2 > 0.0f ? mbp__fit_up(mbp__fit_sqrt_f(m2)) / f.scale + MBP__FIT_TINY : 0.0f;
    if (!(s.r <= MBP_RANGE)) {
        return MBP_E_RANGE;
    }
#endif
    *out = s;
    return MBP_OK;
}
