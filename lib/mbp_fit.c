/* SPDX-License-Identifier: MIT */
/* mbp_fit.c: the box fitted to points, and what the other fits share (mbp_fit.h): the working
 * numbers and the working frame. The sphere: mbp_fit_sphere.c; the oriented box: mbp_fit_obb.c
 * (docs/shapes.md, "Fitting volumes to points").
 */
#include "mbp_fit.h"

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
/* floor(sqrt(v)), any uint64 v. */
uint64_t mbp__fit_sqrt_floor(uint64_t v)
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

/* v * 2^-s (s > 0: rounded to nearest, ties away from zero) or v * 2^-s exactly (s <= 0; the
 * caller keeps the result within int64). */
int64_t mbp__fit_shift(int64_t v, int s)
{
    if (s <= 0) {
        return (int64_t)(mbp__fit_umag(v) << -s) * (v < 0 ? -1 : 1);
    }
    int64_t m = (int64_t)((mbp__fit_umag(v) + ((uint64_t)1 << (s - 1))) >> s);
    return v < 0 ? -m : m;
}

/* round(a / b), b != 0. */
int64_t mbp__fit_div_round(int64_t a, int64_t b)
{
    uint64_t ua = mbp__fit_umag(a), ub = mbp__fit_umag(b);
    int64_t q = (int64_t)((ua + ub / 2u) / ub);
    return (a < 0) != (b < 0) ? -q : q;
}

/* Squared distance of p from x, exact: x within the points' box, so each difference fits 32
 * bits. */
uint64_t mbp__fit_dist2(const mbp_scalar *p, const mbp__fw *x)
{
    uint64_t d2 = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        uint64_t d = mbp__fit_umag((int64_t)p[k] - x[k]);
        d2 += d * d;
    }
    return d2;
}
#else
/* sqrt(v) for finite v >= 0, within a few ulps: v is scaled into [1, 4) by powers of 4 (exact),
 * then Newton's iteration from 1.5 converges in five steps. */
float mbp__fit_sqrt_f(float v)
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
#endif

/* ---- the working frame ---- */

/* The frame of the points: their box (checking them: as mbp_aabb_from_points()), and in float
 * the reference and scale. */
mbp_status mbp__fit_frame_init(mbp__fit_frame *f, const mbp_scalar (*p)[MBP_DIM], uint32_t n)
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
void mbp__fit_wpt(const mbp__fit_frame *f, uint32_t i, mbp__fw out[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        out[k] = (mbp__fw)f->p[i][k];
#else
        out[k] = (f->p[i][k] - f->ref[k]) * f->scale;
#endif
    }
}
