/* SPDX-License-Identifier: MIT */
/* mbp_swept.c: space-time bounds: the box a body covers while it moves over one step.
 *
 * Per axis, a position x0 + v t + a t^2 / 2 with |a| <= A (any acceleration within the bound,
 * even one that changes along the step) stays, for 0 <= t <= dt, within
 *     [x0 + min(0, v dt - A dt^2 / 2),  x0 + max(0, v dt + A dt^2 / 2)]
 * because v t + A t^2 / 2 is convex in t (its largest value on [0, dt] is at an end) and
 * v t - A t^2 / 2 concave (its least is at an end); both ends are reached with a = +-A, so the
 * bound is the tightest box for that family of paths. mbp_aabb_union() of the start and end
 * boxes is the bound of a straight translation between them.
 *
 * Fixed point: v dt is exact in int64 (below 2^60), then rounded outwards; A dt^2 / 2 is
 * computed as ceil(ceil(A dt) dt / 2), saturating where the result is beyond any coordinate:
 * ceil(A dt) < 2^(61 - F) (F fraction bits), and its product with dt is computed only when it is
 * below 2^62 (dt < 2^(F+1), or ceil(A dt) < 2^32); otherwise the displacement is at least 2^32
 * raw units and the box is clamped to the range anyway. Float: each of the five roundings errs by
 * at most 2^-24 of its result, so the bound is widened by 2^-20 of |x0| + |v dt| + A dt^2 / 2.
 */
#include "mbp_internal.h"

static mbp_status check_num(mbp_scalar s)
{
#if MBP_SCALAR == MBP_FLOAT
    if (!(s == s) || s - s != 0.0f) {
        return MBP_E_BADBOX;
    }
#endif
    return mbp_in_range(s) ? MBP_OK : MBP_E_RANGE;
}

#if MBP_SCALAR == MBP_FIXED
#define MBP__F MBP_FIXED_FRAC_BITS

/* floor and ceil of x / 2^F */
static int64_t fdiv(int64_t x)
{
    return x >= 0 ? x >> MBP__F : -((-x + (((int64_t)1 << MBP__F) - 1)) >> MBP__F);
}

static int64_t cdiv(int64_t x)
{
    return x >= 0 ? (x + (((int64_t)1 << MBP__F) - 1)) >> MBP__F : -((-x) >> MBP__F);
}

static mbp_scalar clamp64(int64_t x)
{
    return x > MBP_RANGE ? MBP_RANGE : (x < -(int64_t)MBP_RANGE ? -MBP_RANGE : (mbp_scalar)x);
}
#endif

mbp_status mbp_sweep_motion(const mbp_aabb *box, const mbp_scalar v[MBP_DIM],
                            const mbp_scalar *amax, mbp_scalar dt, mbp_aabb *out)
{
    MBP__ASSERT(box != NULL && v != NULL && out != NULL);
    mbp_status st = mbp_aabb_check(box);
    mbp_status s2 = check_num(dt);
    if (st == MBP_OK || s2 == MBP_E_BADBOX) {
        st = s2;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_status a = check_num(v[k]);
        mbp_status b = amax != NULL ? check_num(amax[k]) : MBP_OK;
        if (a == MBP_E_BADBOX || b == MBP_E_BADBOX) {
            return MBP_E_BADBOX;
        }
        if (st == MBP_OK && (a != MBP_OK || b != MBP_OK)) {
            st = MBP_E_RANGE;
        }
    }
    if (st != MBP_OK) {
        return st;
    }
    if (dt < 0) {
        return MBP_E_PARAM;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        if (amax != NULL && amax[k] < 0) {
            return MBP_E_PARAM;
        }
    }
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        int64_t vdt = (int64_t)v[k] * dt; /* |.| < 2^60 */
        int64_t acc = 0;                  /* ceil(A dt^2 / 2), raw units */
        if (amax != NULL && amax[k] != 0 && dt != 0) {
            int64_t x = cdiv((int64_t)amax[k] * dt); /* ceil(A dt) */
            if (dt >= ((int32_t)1 << (MBP__F + 1)) && x >= ((int64_t)1 << 32)) {
                acc = (int64_t)1 << 33; /* beyond the range: the box is clamped anyway */
            } else {
                int64_t p = x * dt; /* < 2^62, see above */
                acc = (p + (((int64_t)1 << (MBP__F + 1)) - 1)) >> (MBP__F + 1);
            }
        }
        int64_t lo = fdiv(vdt) - acc, hi = cdiv(vdt) + acc;
        lo = lo < 0 ? lo : 0;
        hi = hi > 0 ? hi : 0;
        out->min[k] = clamp64((int64_t)box->min[k] + lo);
        out->max[k] = clamp64((int64_t)box->max[k] + hi);
#else
        float d = v[k] * dt;
        float a = amax != NULL ? 0.5f * amax[k] * dt * dt : 0.0f;
        float lo = d - a < 0.0f ? d - a : 0.0f;
        float hi = d + a > 0.0f ? d + a : 0.0f;
        float ad = d < 0.0f ? -d : d;
        float m0 = box->min[k] < 0.0f ? -box->min[k] : box->min[k];
        float m1 = box->max[k] < 0.0f ? -box->max[k] : box->max[k];
        float e0 = (m0 + ad + a) * (1.0f / 1048576.0f);
        float e1 = (m1 + ad + a) * (1.0f / 1048576.0f);
        out->min[k] = mbp_add_sat(box->min[k], lo - e0);
        out->max[k] = mbp_add_sat(box->max[k], hi + e1);
#endif
    }
    return MBP_OK;
}
