/* SPDX-License-Identifier: MIT */
/* mbp_sap_run.h: what the SAP backend's two files share (mbp_sap.c: the sort, the rebuild and
 * the hooks; mbp_sap_jump.c: jumps and the binary search). Not for users, not for the world:
 * only these two include it.
 */
#ifndef MBP_SAP_RUN_H
#define MBP_SAP_RUN_H

#include "mbp_bp.h"

#if MBP_WITH_SAP

/* One update of the SAP: what it reads, where it reports, and its counts. */
typedef struct {
    const mbp__bodies *v; /* the bodies: their boxes, flags and the moved ones */
    mbp__sink *out;       /* where candidates begin and end */
    mbp_sap_state *s;
    uint32_t swaps;
    uint32_t tests;
    uint32_t jumps;
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
 * lo..hi on each axis of other (the positions of the body it meets there, loaded once by a loop
 * that tests it against many). */
MBP__HOT bool mbp__sap_meets(const mbp_sap_idx *const *other, const uint32_t *lo,
                             const uint32_t *hi, uint32_t f)
{
    bool in = true;
    for (int j = 0; j < MBP_DIM - 1; j++) {
        in = in && other[j][f & ~1u] <= hi[j] && other[j][f | 1u] >= lo[j];
    }
    return in;
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

#endif /* MBP_WITH_SAP */

#endif /* MBP_SAP_RUN_H */
