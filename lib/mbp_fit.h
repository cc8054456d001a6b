/* SPDX-License-Identifier: MIT */
/* mbp_fit.h: what the point fits share (internal): the working numbers and the working frame of
 * the points. mbp_fit.c defines them (beside the box fit); the sphere fit (mbp_fit_sphere.c) and
 * the oriented box fit (mbp_fit_obb.c) use them. docs/shapes.md, "Fitting volumes to points".
 *
 * Every fitted volume holds every input point exactly, on the stored values: the sphere's radius
 * is the largest distance from its stored centre, rounded up; the oriented box's extents are the
 * largest projections onto its stored rows, rounded up and widened by what the rows' distance
 * from orthonormal can hide. What is approximate is only how tight they are.
 *
 * Fixed point: working numbers are int64; differences of coordinates inside the points' box fit
 * 32 bits, squares 62 and sums of three squares 64 (uint64).
 *
 * Float: the points are taken relative to the centre of their box and scaled by a power of two
 * (exact) so that they lie within [-1, 1]: no product overflows or underflows; rounding is float's.
 */
#ifndef MBP_FIT_H
#define MBP_FIT_H

#include "mbp_internal.h"
#if MBP_SCALAR == MBP_FLOAT
#include <float.h>
#endif

/* ---- numbers ---- */

#if MBP_SCALAR == MBP_FIXED
typedef int64_t mbp__fw; /* a working number: a coordinate, a product, a residual */

/* floor(sqrt(v)), any uint64 v. */
uint64_t mbp__fit_sqrt_floor(uint64_t v);

static inline uint64_t mbp__fit_sqrt_ceil(uint64_t v)
{
    uint64_t r = mbp__fit_sqrt_floor(v);
    return r * r == v ? r : r + 1u;
}

static inline uint64_t mbp__fit_umag(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* Bits of m: 0 for 0, 64 at most. */
static inline int mbp__fit_nbits(uint64_t m)
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
int64_t mbp__fit_shift(int64_t v, int s);

/* round(a / b), b != 0. */
int64_t mbp__fit_div_round(int64_t a, int64_t b);

/* Squared distance of p from x, exact: x within the points' box. */
uint64_t mbp__fit_dist2(const mbp_scalar *p, const mbp__fw *x);
#else
typedef float mbp__fw;

/* sqrt(v) for finite v >= 0, within a few ulps. */
float mbp__fit_sqrt_f(float v);

/* x grown by a relative 2^-19: more than the rounding of the few operations behind it. A final
 * radius or extent also gets MBP__FIT_TINY, more than a rounding among subnormal numbers. */
static inline float mbp__fit_up(float x)
{
    return x + x * (1.0f / 524288.0f);
}
#define MBP__FIT_TINY (FLT_MIN * FLT_EPSILON * 8.0f)

#endif

/* ---- the working frame: where the ball and the box are computed ---- */


typedef struct {
    const mbp_scalar (*p)[MBP_DIM];
    mbp_aabb box; /* of the points */
#if MBP_SCALAR == MBP_FLOAT
    float ref[MBP_DIM]; /* working coordinates: (p - ref) * scale */
    float scale;
#endif
} mbp__fit_frame;

/* The frame of the points: their box (checking them: as mbp_aabb_from_points()), and in float
 * the reference and scale. */
mbp_status mbp__fit_frame_init(mbp__fit_frame *f, const mbp_scalar (*p)[MBP_DIM], uint32_t n);

/* Point i in working coordinates. */
void mbp__fit_wpt(const mbp__fit_frame *f, uint32_t i, mbp__fw out[MBP_DIM]);

#endif /* MBP_FIT_H */
