/* SPDX-License-Identifier: MIT */
/* mbp_fit_obb.c: the oriented box of principal component analysis fitted to points
 * (docs/shapes.md, "Fitting volumes to points"): the covariance of the points, its eigenvectors
 * (closed form in 2D, cyclic Jacobi in 3D) as the rows, the extents from the stored rows; the
 * box of the points instead when that is no larger. The numbers and the frame: mbp_fit.h.
 */
#include "mbp_fit.h"

#if MBP_WITH_OBB

#define FIT_SWEEPS 8 /* Jacobi sweeps (3D oriented box): 24 rotations */

#if MBP_SCALAR == MBP_FIXED
typedef int64_t ew; /* a covariance entry, a Q30 rotation entry or a Q30 projection */
#define E_ONE ((int64_t)0x40000000) /* 1.0 in Q30 */

static int64_t shr30(int64_t v)
{
    return mbp__fit_shift(v, 30);
}

/* v (any int64 vector, not zero) scaled to a Q30 unit vector, within 2^-28 per entry. */
static void unit(ew v[MBP_DIM])
{
    uint64_t m = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        m |= mbp__fit_umag(v[k]);
    }
    int s = mbp__fit_nbits(m) - 30;
    uint64_t l2 = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        v[k] = mbp__fit_shift(v[k], s); /* |v_k| <= 2^30 */
        l2 += (uint64_t)(v[k] * v[k]);
    }
    int64_t len = (int64_t)mbp__fit_sqrt_floor(l2); /* >= 2^29 */
    for (int k = 0; k < MBP_DIM; k++) {
        v[k] = mbp__fit_div_round(v[k] * E_ONE, len);
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
    return err > 0.0f ? mbp__fit_up(s) + MBP__FIT_TINY : s;
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
    float len = mbp__fit_sqrt_f(l2);
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
static void covariance(const mbp__fit_frame *f, uint32_t n, mbp__fw m[MBP_DIM], ew cov[MBP_DIM][MBP_DIM])
{
    mbp__fw sum[MBP_DIM] = {0};
    mbp__fw q[MBP_DIM];
    for (uint32_t i = 0; i < n; i++) {
        mbp__fit_wpt(f, i, q);
        for (int k = 0; k < MBP_DIM; k++) {
            sum[k] += q[k]; /* fixed: below 2^30 * 2^32 */
        }
    }
#if MBP_SCALAR == MBP_FIXED
    int w = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        m[k] = sum[k] / (int64_t)n;
        int b = mbp__fit_nbits((uint64_t)((int64_t)f->box.max[k] - f->box.min[k]));
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
        mbp__fit_wpt(f, i, q);
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
            big |= mbp__fit_umag(cov[a][b]);
        }
    }
    int s = mbp__fit_nbits(big) - 30;
    for (int a = 0; a < MBP_DIM; a++) {
        for (int b = a; b < MBP_DIM; b++) {
            cov[a][b] = s > 0 ? mbp__fit_shift(cov[a][b], s) : cov[a][b];
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
    ew r = (ew)mbp__fit_sqrt_floor((uint64_t)((a - d) * (a - d)) + (uint64_t)(4 * b * b));
#else
    ew r = mbp__fit_sqrt_f((a - d) * (a - d) + 4.0f * b * b);
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
            int s = mbp__fit_nbits(mbp__fit_umag(dd) | mbp__fit_umag(ee)) - 30;
            dd = s > 0 ? mbp__fit_shift(dd, s) : dd;
            ee = s > 0 ? mbp__fit_shift(ee, s) : ee;
            if (ee == 0) {
                continue; /* already diagonal here (within the rounding) */
            }
            int64_t h = (int64_t)mbp__fit_sqrt_floor((uint64_t)(dd * dd) + (uint64_t)(ee * ee));
            int64_t t = mbp__fit_div_round((int64_t)(mbp__fit_umag(ee) << 30), (int64_t)mbp__fit_umag(dd) + h);
            t = (dd < 0) != (ee < 0) ? -t : t;
            int64_t cs = mbp__fit_div_round(E_ONE * E_ONE,
                                   (int64_t)mbp__fit_sqrt_floor((uint64_t)(E_ONE * E_ONE + t * t)));
            int64_t sn = shr30(t * cs);
            int64_t tq = shr30(t * c[p][q]);
#else
            if (ee == 0.0f) {
                continue;
            }
            float h = mbp__fit_sqrt_f(dd * dd + ee * ee);
            float t = absf(ee) / (absf(dd) + h);
            t = (dd < 0.0f) != (ee < 0.0f) ? -t : t;
            float cs = 1.0f / mbp__fit_sqrt_f(1.0f + t * t), sn = t * cs;
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
static bool smaller(const mbp__fw a[MBP_DIM], const mbp__fw b[MBP_DIM], mbp__fw scale)
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
    mbp__fit_frame f;
    mbp_status st = mbp__fit_frame_init(&f, p, n);
    if (st != MBP_OK) {
        return st;
    }
    const mbp_aabb box = f.box;
    mbp__fw m[MBP_DIM];
    ew cov[MBP_DIM][MBP_DIM], rot[MBP_DIM][MBP_DIM];
    covariance(&f, n, m, cov);
    eigen(cov, rot);
#if MBP_SCALAR == MBP_FIXED
    const mbp__fw scale = 1;
#else
    const mbp__fw scale = f.scale;
#endif
    /* The centre: the mean, then moved to the middle of the projections onto the rows. Fixed:
     * a projection is Q30, three products below 2^61 (differences inside the box, rows Q30). */
    mbp__fw c[MBP_DIM], lo[MBP_DIM] = {0}, hi[MBP_DIM] = {0}, d[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        c[k] = m[k];
#else
        c[k] = f.ref[k] + m[k] / f.scale;
#endif
    }
    for (uint32_t i = 0; i < n; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            d[k] = (mbp__fw)p[i][k] - c[k];
        }
        for (int j = 0; j < MBP_DIM; j++) {
            mbp__fw y = 0;
            for (int k = 0; k < MBP_DIM; k++) {
                y += rot[j][k] * d[k];
            }
            lo[j] = i == 0u || y < lo[j] ? y : lo[j];
            hi[j] = i == 0u || y > hi[j] ? y : hi[j];
        }
    }
    mbp__fw mid[MBP_DIM];
    for (int j = 0; j < MBP_DIM; j++) {
        mid[j] = shr30(lo[j] / 2 + hi[j] / 2); /* fixed: raw units, |.| below 2^31.8 */
    }
    for (int k = 0; k < MBP_DIM; k++) {
        mbp__fw s = 0;
        for (int j = 0; j < MBP_DIM; j++) {
#if MBP_SCALAR == MBP_FIXED
            s += mbp__fit_shift(mid[j] * rot[j][k], 2); /* below 2^60 each */
#else
            s += mid[j] * rot[j][k];
#endif
        }
#if MBP_SCALAR == MBP_FIXED
        c[k] += mbp__fit_shift(s, 28);
#else
        c[k] += s;
#endif
        c[k] = c[k] < box.min[k] ? box.min[k] : (c[k] > box.max[k] ? box.max[k] : c[k]);
    }
    /* The extents from the stored centre and rows: the largest |projection|, rounded up, plus
     * what the rows' distance eps from orthonormal can hide. With R R^T = I + E (|E_ij| <= eps),
     * a point's box coordinates t = R^-T (p - c) differ from its projections R (p - c) = t + E t
     * by at most MBP_DIM eps |t| <= 2 MBP_DIM eps |p - c|. */
    mbp__fw ymax[MBP_DIM] = {0}, d2max = 0;
    for (uint32_t i = 0; i < n; i++) {
#if MBP_SCALAR == MBP_FIXED
        mbp__fw d2 = (mbp__fw)(mbp__fit_dist2(p[i], c) >> 2); /* below 2^62 */
#else
        mbp__fw d2 = 0;
#endif
        for (int k = 0; k < MBP_DIM; k++) {
            d[k] = (mbp__fw)p[i][k] - c[k];
#if MBP_SCALAR == MBP_FLOAT
            d2 += (d[k] * scale) * (d[k] * scale);
#endif
        }
        d2max = d2 > d2max ? d2 : d2max;
        for (int j = 0; j < MBP_DIM; j++) {
            mbp__fw y = 0;
            for (int k = 0; k < MBP_DIM; k++) {
                y += rot[j][k] * d[k];
            }
            y = y < 0 ? -y : y;
            ymax[j] = y > ymax[j] ? y : ymax[j];
        }
    }
    mbp__fw eps = 0;
    for (int i = 0; i < MBP_DIM; i++) {
        for (int j = i; j < MBP_DIM; j++) {
            mbp__fw e = 0;
            for (int k = 0; k < MBP_DIM; k++) {
                e += (mbp__fw)((mbp__fw)(mbp_unit)rot[i][k] * (mbp_unit)rot[j][k]);
            }
            e -= i == j ? E_ONE * E_ONE : 0;
            e = e < 0 ? -e : e;
            eps = e > eps ? e : eps;
        }
    }
    mbp_obb o;
    mbp__fw h[MBP_DIM], ha[MBP_DIM];
#if MBP_SCALAR == MBP_FIXED
    /* eps (Q60) rounded up to Q40: below 2^30 (checked rows), times |p - c| below 2^32 */
    uint64_t dmax = (mbp__fit_sqrt_ceil((uint64_t)d2max) + 1u) * 2u; /* >= |p - c| */
    mbp__fw slack = (mbp__fw)(2 * MBP_DIM) * (mbp__fw)((((uint64_t)(eps >> 20) + 1u) * dmax >> 40) + 1u);
    for (int j = 0; j < MBP_DIM; j++) {
        h[j] = ((ymax[j] + E_ONE - 1) >> 30) + slack;
    }
#else
    float dmax = mbp__fit_up(mbp__fit_sqrt_f(d2max)) / scale;
    float slack = dmax * (2.0f * (float)MBP_DIM * (eps + 1.0f / 4194304.0f) + 1.0f / 524288.0f);
    for (int j = 0; j < MBP_DIM; j++) {
        h[j] = mbp__fit_up(ymax[j] + slack) + MBP__FIT_TINY;
    }
#endif
    /* the box of the points, as an oriented box, when it is no larger */
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        mbp__fw ca = box.min[k] + ((mbp__fw)box.max[k] - box.min[k]) / 2;
        ha[k] = box.max[k] - ca;
#else
        mbp__fw ca = box.min[k] * 0.5f + box.max[k] * 0.5f;
        mbp__fw h1 = sub_up(box.max[k], ca), h2 = sub_up(ca, box.min[k]);
        ha[k] = h1 > h2 ? h1 : h2;
#endif
        o.c[k] = (mbp_scalar)ca;
    }
    bool pca = smaller(h, ha, scale); /* and within the range: else the box (whose fits) */
    for (int k = 0; k < MBP_DIM; k++) {
        pca = pca && h[k] <= (mbp__fw)MBP_RANGE;
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
