/* SPDX-License-Identifier: MIT */
/* mbp_scalar.h: the coordinate type, float or fixed point, and the few operations mbp needs.
 *
 * The range argument (why nothing overflows)
 * ------------------------------------------
 * Every coordinate the library accepts (box bounds, sphere centres and radii, displacements,
 * margins, ray end points) lies in [-MBP_RANGE, MBP_RANGE]; anything else is refused with
 * MBP_E_RANGE before it is stored.
 *
 * Fixed point: MBP_RANGE is 2^30 - 1 raw units. Then
 *   - a difference or sum of two coordinates is at most 2^31 - 2 in magnitude: it fits int32_t
 *     (mbp_sub_wide and mbp_add_sat still compute it in int64_t, for clarity, not need);
 *   - the square of such a difference is below 2^62, and a sum of three squares below 3 * 2^62
 *     < 2^64: squared distances are exact in uint64_t (sphere tests, mbp_volume.c);
 *   - the product of two differences in a ray-slab comparison is below 2^62: exact in int64_t;
 *   - grown boxes (fatten, sweep) are computed in int64_t and clamped back to the range. Clamping
 *     a conservative bound to the range loses nothing: every body lies inside the range, so a
 *     grown box and its clamp overlap exactly the same bodies.
 *
 * Float: MBP_RANGE is 2^60. Sums of three squared differences stay below 3 * (2^61)^2 = 3 * 2^122,
 * far below FLT_MAX (about 2^128), so no test overflows to infinity, and NaN and infinities are
 * refused at the door. Results are IEEE single rounded; they are the same on every CPU as long as
 * the compiler does not fuse multiply-adds (build with -ffp-contract=off, as the Makefile does) and
 * evaluates float in float (FLT_EVAL_METHOD 0: x86-64 SSE, Arm VFP and soft float all do).
 */
#ifndef MBP_SCALAR_H
#define MBP_SCALAR_H

#include <stdint.h>
#include <stdbool.h>
#include "mbp_config.h"

#if MBP_SCALAR == MBP_FIXED

typedef int32_t mbp_scalar;
#define MBP_RANGE ((mbp_scalar)0x3FFFFFFF)
#define MBP_ONE ((mbp_scalar)1 << MBP_FIXED_FRAC_BITS)
/* A compile-time constant: MBP_LIT(1.5). Folded by the compiler; no float code is emitted. */
#define MBP_LIT(x) ((mbp_scalar)((x) * (double)MBP_ONE))

/* i in whole units; the caller keeps |i| * 2^MBP_FIXED_FRAC_BITS within MBP_RANGE. */
static inline mbp_scalar mbp_from_int(int32_t i)
{
    return (mbp_scalar)((int64_t)i * MBP_ONE);
}

/* num/den units, rounded towards zero; den != 0. */
static inline mbp_scalar mbp_from_ratio(int32_t num, int32_t den)
{
    return (mbp_scalar)(((int64_t)num * MBP_ONE) / den);
}

/* Whole units, rounded towards minus infinity. */
static inline int32_t mbp_to_int(mbp_scalar s)
{
    return (int32_t)(s >> MBP_FIXED_FRAC_BITS);
}

/* a * b with a 64-bit intermediate, rounded towards minus infinity. */
static inline mbp_scalar mbp_mul(mbp_scalar a, mbp_scalar b)
{
    return (mbp_scalar)(((int64_t)a * b) >> MBP_FIXED_FRAC_BITS);
}

#if defined(MBP_FLOAT_API)
/* Only where the application has floats to give; the library itself never uses this. */
static inline mbp_scalar mbp_from_float(float f)
{
    return (mbp_scalar)(f * (float)MBP_ONE);
}
static inline float mbp_to_float(mbp_scalar s)
{
    return (float)s / (float)MBP_ONE;
}
#endif

/* a + b clamped to [-MBP_RANGE, MBP_RANGE]; a and b may each be up to 2^31 - 1 in magnitude. */
static inline mbp_scalar mbp_add_sat(mbp_scalar a, mbp_scalar b)
{
    int64_t s = (int64_t)a + b;
    if (s > MBP_RANGE) {
        return MBP_RANGE;
    }
    if (s < -(int64_t)MBP_RANGE) {
        return -MBP_RANGE;
    }
    return (mbp_scalar)s;
}

#else /* MBP_FLOAT */

typedef float mbp_scalar;
#define MBP_RANGE ((mbp_scalar)1152921504606846976.0f) /* 2^60 */
#define MBP_ONE ((mbp_scalar)1.0f)
#define MBP_LIT(x) ((mbp_scalar)(x))

static inline mbp_scalar mbp_from_int(int32_t i)
{
    return (mbp_scalar)i;
}

static inline mbp_scalar mbp_from_ratio(int32_t num, int32_t den)
{
    return (mbp_scalar)num / (mbp_scalar)den;
}

/* Whole units, rounded towards minus infinity; s within +-2^31. */
static inline int32_t mbp_to_int(mbp_scalar s)
{
    int32_t i = (int32_t)s;
    return ((mbp_scalar)i > s) ? i - 1 : i;
}

static inline mbp_scalar mbp_mul(mbp_scalar a, mbp_scalar b)
{
    return a * b;
}

static inline mbp_scalar mbp_from_float(float f)
{
    return f;
}
static inline float mbp_to_float(mbp_scalar s)
{
    return s;
}

static inline mbp_scalar mbp_add_sat(mbp_scalar a, mbp_scalar b)
{
    mbp_scalar s = a + b;
    if (s > MBP_RANGE) {
        return MBP_RANGE;
    }
    if (s < -MBP_RANGE) {
        return -MBP_RANGE;
    }
    return s;
}

#endif

/* True when s is a number (not NaN, not infinite) within [-MBP_RANGE, MBP_RANGE]. Written so
 * that NaN fails both comparisons. */
static inline bool mbp_in_range(mbp_scalar s)
{
    return s >= -MBP_RANGE && s <= MBP_RANGE;
}


#endif /* MBP_SCALAR_H */
