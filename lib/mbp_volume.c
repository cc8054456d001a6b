/* SPDX-License-Identifier: MIT */
/* mbp_volume.c: boxes, spheres and segments; pure functions on valid inputs.
 *
 * Inputs are assumed valid (mbp_aabb_check / mbp_sphere_check passed): the world checks every
 * volume at the door. The overflow argument for fixed point is in mbp_scalar.h.
 */
#include "mbp_internal.h"

static mbp_status check_scalar(mbp_scalar s)
{
#if MBP_SCALAR == MBP_FLOAT
    /* NaN fails every comparison; infinity is out of range but reported as a bad number. */
    if (!(s == s) || s - s != 0.0f) {
        return MBP_E_BADBOX;
    }
#endif
    return mbp_in_range(s) ? MBP_OK : MBP_E_RANGE;
}

mbp_status mbp_aabb_check(const mbp_aabb *box)
{
    mbp_status st = MBP_OK;
    MBP__ASSERT(box != NULL);
    if (mbp__box_good(box)) {
        return MBP_OK; /* the common case, first */
    }
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_status a = check_scalar(box->min[k]);
        mbp_status b = check_scalar(box->max[k]);
        /* A bad number outranks a range error: it says more about the caller's data. */
        if (a == MBP_E_BADBOX || b == MBP_E_BADBOX) {
            return MBP_E_BADBOX;
        }
        if (a != MBP_OK || b != MBP_OK) {
            st = MBP_E_RANGE;
        } else if (box->min[k] > box->max[k]) {
            return MBP_E_BADBOX;
        }
    }
    return st;
}

mbp_status mbp_sphere_check(const mbp_sphere *s)
{
    mbp_status st = MBP_OK;
    MBP__ASSERT(s != NULL);
    for (int k = 0; k <= MBP_DIM; k++) {
        mbp_scalar v = (k < MBP_DIM) ? s->c[k] : s->r;
        mbp_status a = check_scalar(v);
        if (a == MBP_E_BADBOX) {
            return a;
        }
        if (a != MBP_OK) {
            st = a;
        }
    }
    if (st == MBP_OK && s->r < 0) {
        return MBP_E_BADBOX;
    }
    return st;
}

bool mbp_aabb_overlap(const mbp_aabb *a, const mbp_aabb *b)
{
    return mbp__boxes_meet(a, b);
}

bool mbp_aabb_contains(const mbp_aabb *outer, const mbp_aabb *inner)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (inner->min[k] < outer->min[k] || inner->max[k] > outer->max[k]) {
            return false;
        }
    }
    return true;
}

bool mbp_aabb_contains_point(const mbp_aabb *box, const mbp_scalar p[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (p[k] < box->min[k] || p[k] > box->max[k]) {
            return false;
        }
    }
    return true;
}

void mbp_aabb_union(const mbp_aabb *a, const mbp_aabb *b, mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_scalar lo = a->min[k] < b->min[k] ? a->min[k] : b->min[k];
        mbp_scalar hi = a->max[k] > b->max[k] ? a->max[k] : b->max[k];
        out->min[k] = lo;
        out->max[k] = hi;
    }
}

void mbp_aabb_fatten(const mbp_aabb *box, mbp_scalar margin, mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        out->min[k] = mbp_add_sat(box->min[k], -margin);
        out->max[k] = mbp_add_sat(box->max[k], margin);
    }
}

void mbp_aabb_sweep(const mbp_aabb *box, const mbp_scalar d[MBP_DIM], mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (d[k] < 0) {
            out->min[k] = mbp_add_sat(box->min[k], d[k]);
            out->max[k] = box->max[k];
        } else {
            out->min[k] = box->min[k];
            out->max[k] = mbp_add_sat(box->max[k], d[k]);
        }
    }
}

/* Squared distances: exact in uint64_t for fixed point (see mbp_scalar.h), float otherwise. */
#if MBP_SCALAR == MBP_FIXED
typedef uint64_t dist2_t;
static dist2_t sq(int64_t d)
{
    uint64_t u = (uint64_t)(d < 0 ? -d : d);
    return u * u;
}
#else
typedef float dist2_t;
static dist2_t sq(mbp_scalar d)
{
    return d * d;
}
#endif

/* Distance from p to the interval [lo, hi] along one axis; 0 inside. */
#if MBP_SCALAR == MBP_FIXED
static int64_t gap(mbp_scalar p, mbp_scalar lo, mbp_scalar hi)
{
    if (p < lo) {
        return (int64_t)lo - p;
    }
    if (p > hi) {
        return (int64_t)p - hi;
    }
    return 0;
}
#define DIFF(a, b) ((int64_t)(a) - (b))
#define RADIUS_SUM(a, b) ((int64_t)(a) + (b))
#else
static mbp_scalar gap(mbp_scalar p, mbp_scalar lo, mbp_scalar hi)
{
    if (p < lo) {
        return lo - p;
    }
    if (p > hi) {
        return p - hi;
    }
    return 0.0f;
}
#define DIFF(a, b) ((a) - (b))
#define RADIUS_SUM(a, b) ((a) + (b))
#endif

bool mbp_sphere_overlap(const mbp_sphere *a, const mbp_sphere *b)
{
    dist2_t d2 = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        d2 += sq(DIFF(a->c[k], b->c[k]));
    }
    return d2 <= sq(RADIUS_SUM(a->r, b->r));
}

bool mbp_sphere_aabb_overlap(const mbp_sphere *s, const mbp_aabb *box)
{
    dist2_t d2 = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        d2 += sq(gap(s->c[k], box->min[k], box->max[k]));
    }
    return d2 <= sq(s->r);
}

bool mbp_sphere_contains_point(const mbp_sphere *s, const mbp_scalar p[MBP_DIM])
{
    dist2_t d2 = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        d2 += sq(DIFF(p[k], s->c[k]));
    }
    return d2 <= sq(s->r);
}

void mbp_sphere_aabb(const mbp_sphere *s, mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        out->min[k] = mbp_add_sat(s->c[k], -s->r);
        out->max[k] = mbp_add_sat(s->c[k], s->r);
    }
}

/* Segment against box by slabs. The entry fraction is the largest per-axis entry num/den and the
 * exit the smallest exit; in fixed point each fraction is kept as an exact pair (num, den > 0)
 * and fractions are compared by cross-multiplying in int64_t (products below 2^62). */
bool mbp_segment_aabb(const mbp_scalar p0[MBP_DIM], const mbp_scalar p1[MBP_DIM],
                      const mbp_aabb *box, mbp_scalar *t)
{
    /* The segment's own box first: exact, and it keeps float rounding in the slab fractions
     * (tiny or huge coordinates) from reporting a box that the segment stops short of. */
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_scalar lo = p0[k] < p1[k] ? p0[k] : p1[k];
        mbp_scalar hi = p0[k] < p1[k] ? p1[k] : p0[k];
        if (hi < box->min[k] || lo > box->max[k]) {
            return false;
        }
    }
#if MBP_SCALAR == MBP_FIXED
    int64_t in_n = 0, in_d = 1, out_n = 1, out_d = 1; /* entry 0/1, exit 1/1 */
    for (int k = 0; k < MBP_DIM; k++) {
        int64_t d = (int64_t)p1[k] - p0[k];
        int64_t lo = (int64_t)box->min[k] - p0[k];
        int64_t hi = (int64_t)box->max[k] - p0[k];
        if (d == 0) {
            continue; /* within the slab: the segment's box was checked above */
        }
        if (d < 0) { /* mirror the axis so that d > 0 */
            int64_t tmp = -lo;
            lo = -hi;
            hi = tmp;
            d = -d;
        }
        /* Entry lo/d, exit hi/d on this axis. */
        if (lo * in_d > in_n * d) {
            in_n = lo;
            in_d = d;
        }
        if (hi * out_d < out_n * d) {
            out_n = hi;
            out_d = d;
        }
        if (in_n * out_d > out_n * in_d) {
            return false;
        }
    }
    /* The exit is never before p0 (out_n >= 0): the segment's box meets the box. */
    if (in_n <= 0) {
        *t = 0;
    } else {
        *t = (mbp_scalar)((in_n << MBP_FIXED_FRAC_BITS) / in_d);
    }
    return true;
#else
    float tin = 0.0f, tout = 1.0f;
    for (int k = 0; k < MBP_DIM; k++) {
        float d = p1[k] - p0[k];
        if (d == 0.0f) {
            continue; /* within the slab: the segment's box was checked above */
        }
        float a = (box->min[k] - p0[k]) / d;
        float b = (box->max[k] - p0[k]) / d;
        if (a > b) {
            float tmp = a;
            a = b;
            b = tmp;
        }
        if (a > tin) {
            tin = a;
        }
        if (b < tout) {
            tout = b;
        }
        if (tin > tout) {
            return false;
        }
    }
    *t = tin;
    return true;
#endif
}
