/* SPDX-License-Identifier: MIT */
/* mbp_sap_run.h: what the SAP backend's three files share (mbp_sap.c: the rebuild and the
 * hooks; mbp_sap_sort.c: the incremental sort; mbp_sap_jump.c: jumps and the binary search):
 * the sentinel values, quantization, one update's counts and the position tests. Not for users,
 * not for the world: only these three include it.
 */
#ifndef MBP_SAP_RUN_H
#define MBP_SAP_RUN_H

#include <float.h>
#include "mbp_bp.h"

#if MBP_WITH_SAP

/* Always inlined when optimizing, like MBP__HOT. Not forced without optimization (the coverage
 * build, -O0): there each file keeps one copy, so that a branch is counted once for all its
 * callers, not once per inlined copy (callers that pass a constant, or test first, take only
 * some of its branches). */
#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define MBP__SAP_HOT static inline __attribute__((always_inline))
#else
#define MBP__SAP_HOT static inline
#endif

/* Sentinels below and above every value, and a placeholder for the endpoints of new bodies:
 * above every coordinate, below the upper sentinel. */
#if MBP_SAP_QUANTIZED
#define V_LEFT ((mbp_sap_val)0u)
#define V_NEW ((mbp_sap_val)65534u)
#define V_RIGHT ((mbp_sap_val)65535u)
#define Q_STEPS 65532u /* quantized values are 1..Q_STEPS+1 */
#elif MBP_SCALAR == MBP_FIXED
#define V_LEFT ((mbp_sap_val)INT32_MIN)
#define V_NEW ((mbp_sap_val)0x40000000)
#define V_RIGHT ((mbp_sap_val)INT32_MAX)
#else
#define V_LEFT ((mbp_sap_val)-FLT_MAX)
#define V_NEW ((mbp_sap_val)2305843009213693952.0f) /* 2^61 > MBP_RANGE */
#define V_RIGHT ((mbp_sap_val)FLT_MAX)
#endif

/* ---- values ---- */

#if MBP_SAP_QUANTIZED
/* 1..Q_STEPS+1; up rounds up (maxes), else down (mins). */
static inline mbp_sap_val quantize(const mbp_sap_state *s, int k, mbp_scalar v, bool up)
{
#if MBP_SCALAR == MBP_FIXED
    int64_t x = (int64_t)v - s->wmin[k];
    x = x < 0 ? 0 : (x > (int64_t)s->span[k] ? (int64_t)s->span[k] : x);
    uint64_t p = (uint64_t)x * s->mult[k]; /* <= 65532 * 2^32 */
    uint32_t q = (uint32_t)((up ? p + 0xFFFFFFFFu : p) >> 32);
#else
    mbp_scalar x = v - s->wmin[k];
    x = x < 0.0f ? 0.0f : (x > s->span[k] ? s->span[k] : x);
    mbp_scalar f = x * s->scale[k];
    uint32_t q = (uint32_t)f;
    if (up && (mbp_scalar)q < f) {
        q++;
    }
#endif
    return (mbp_sap_val)((q > Q_STEPS ? Q_STEPS : q) + 1u);
}
#define LO(s, k, v) quantize((s), (k), (v), false)
#define HI(s, k, v) quantize((s), (k), (v), true)
#else
#define LO(s, k, v) ((void)(s), (void)(k), (v))
#define HI(s, k, v) ((void)(s), (void)(k), (v))
#endif

/* v < w. On floats a quiet compare where the compiler has one (values are never NaN): the test
 * for equality after it then reuses its flags, one compare instead of two on an FPU. */
MBP__HOT bool mbp__sap_less(mbp_sap_val v, mbp_sap_val w)
{
#if !MBP_SAP_QUANTIZED && MBP_SCALAR != MBP_FIXED && defined(__GNUC__)
    return __builtin_isless(v, w);
#else
    return v < w;
#endif
}

/* True when endpoint (v, e) sorts before endpoint (w, f): by value, a min before a max on ties
 * (so that touching boxes overlap). */
MBP__HOT bool mbp__sap_before(mbp_sap_val v, uint32_t e, mbp_sap_val w, uint32_t f)
{
    return mbp__sap_less(v, w) || (v == w && (e & 1u) < (f & 1u));
}

/* Endpoint e's value on axis k, read from its body's box (quantized when so built). */
MBP__HOT mbp_sap_val mbp__sap_value(const mbp__bodies *v, const mbp_sap_state *s, int k,
                                    uint32_t e)
{
    const mbp_aabb *b = &v->box[e >> 1];
    return (e & 1u) ? HI(s, k, b->max[k]) : LO(s, k, b->min[k]);
}

/* Axis k's arrays, and the positions of the other axes (mbp_sap_sort.c). */
typedef struct {
    mbp_sap_val *val;
    mbp_sap_idx *id;
    mbp_sap_idx *pos;
    const mbp_sap_idx *other[MBP_DIM - 1];
} mbp__sap_axis;

/* One update of the SAP: what it reads, where it reports, and its counts. */
typedef struct {
    const mbp__bodies *v; /* the bodies: their boxes, flags and the moved ones */
    mbp__sink *out;       /* where candidates begin and end */
    mbp_sap_state *s;
    uint32_t swaps;
    uint32_t tests;
    uint32_t jumps;
    mbp_sap_val keep; /* a sifted endpoint's value across the sink's calls (mbp_sap_sort.c) */
    /* Each axis's arrays, set by mbp__sap_sort_moved(): its sorts load them from here, at
     * fixed places, instead of computing them from s (large offsets: two instructions each). */
    mbp__sap_axis ax[MBP_DIM];
} mbp__sap_run;

/* The position arrays of every axis but 0, in order. */
MBP__HOT void mbp__sap_others0(const mbp_sap_state *s, const mbp_sap_idx **other)
{
    for (int j = 0; j < MBP_DIM - 1; j++) {
        other[j] = s->pos[j + 1];
    }
}

/* The endpoint positions of e's body (e either of its two) on each axis of other: lo and hi
 * for mbp__sap_meets(). */
MBP__HOT void mbp__sap_span(const mbp_sap_idx *const *other, uint32_t e, uint32_t *lo,
                            uint32_t *hi)
{
    for (int j = 0; j < MBP_DIM - 1; j++) {
        lo[j] = other[j][e & ~1u];
        hi[j] = other[j][e | 1u];
    }
}

/* True when the body of endpoint f (either of its two) has endpoint positions that overlap
 * lo..hi on each axis of other (the positions of the body it meets there, from
 * mbp__sap_span()). */
MBP__HOT bool mbp__sap_meets(const mbp_sap_idx *const *other, const uint32_t *lo,
                             const uint32_t *hi, uint32_t f)
{
    bool in = true;
    for (int j = 0; j < MBP_DIM - 1; j++) {
        in = in && other[j][f & ~1u] <= hi[j] && other[j][f | 1u] >= lo[j];
    }
    return in;
}

/* ---- mbp_sap_sort.c ---- */
/* Few moved: each moved body into place on its own (O(moved + swaps)), or by a jump. Many moved
 * (at least n/16): every new value written, one insertion sort pass per axis, then the jumpers.
 * Each returns true when the swaps exceed the budget or a candidate was lost (then the caller
 * rebuilds). */
bool mbp__sap_sort_moved(mbp__sap_run *r, uint32_t budget);
bool mbp__sap_sort_all(mbp__sap_run *r, uint32_t budget);

/* The stored extent on axis 0 of the body of min endpoint e. */
MBP__HOT mbp_sap_val mbp__sap_extent(const mbp_sap_state *s, uint32_t e)
{
    return (mbp_sap_val)(s->val[0][s->pos[0][e + 1u]] - s->val[0][s->pos[0][e]]);
}

/* Body i's extent on axis 0 is now d (its stored values, or those it is about to take): s->ext
 * grows to cover it, unless i is the big body, or becomes it because it is larger than the big
 * body now (whose extent s->ext then covers). Queries below a min scan s->ext: one large body
 * among small ones (a heavy body through a crowd) is tested on its own instead of widening every
 * scan. A compare when d fits. MBP__SAP_HOT: each inlined copy sees only some of its branches
 * (write_all() calls it only when d exceeds s->ext). */
MBP__SAP_HOT void mbp__sap_cover(mbp_sap_state *s, uint32_t i, mbp_sap_val d)
{
    if (d <= s->ext || s->big == i + 1u) {
        return;
    }
    if (s->big == 0u) {
        s->big = i + 1u;
        return;
    }
    mbp_sap_val db = mbp__sap_extent(s, 2u * (s->big - 1u));
    if (d > db) {
        s->ext = db > s->ext ? db : s->ext;
        s->big = i + 1u;
    } else {
        s->ext = d;
    }
}

/* ---- mbp_sap_jump.c ---- */
/* The lowest min a body reaching up to v on axis 0 can have (s->ext bounds every extent there);
 * above the lower sentinel. */
mbp_sap_val mbp__sap_reach_down(const mbp_sap_state *s, mbp_sap_val v);
/* The first position in [1, n + 1] of axis k whose value is at least v (above v when after). */
uint32_t mbp__sap_find(const mbp_sap_state *s, int k, mbp_sap_val v, bool after);
/* Body i jumps to the values lo and hi (every axis): its pairs end, its endpoints move by block
 * moves, its new pairs begin. */
void mbp__sap_jump(mbp__sap_run *r, uint32_t i, const mbp_sap_val *lo, const mbp_sap_val *hi);
/* True when the held jumpers (s->jump) are worth jumping together (axis 0 sorted). */
bool mbp__sap_merge_pays(const mbp__sap_run *r, uint32_t held);
/* The held jumpers (s->jump: both endpoint ids of each, 2 * held in all) jump together, once
 * every axis is sorted: their pairs end, their endpoints are dropped and merged back in one
 * pass each per axis, their new pairs begin. */
void mbp__sap_jump_all(mbp__sap_run *r, uint32_t held);

#endif /* MBP_WITH_SAP */

#endif /* MBP_SAP_RUN_H */
