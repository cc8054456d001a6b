/* SPDX-License-Identifier: MIT */
/* mbp_sap_jump.c: the SAP's jumps (mbp_sap_sort.c sorts; this file takes a body out and puts it
 * back elsewhere), and the binary search its queries share.
 *
 * A moved body whose min would pass at least MBP_SAP_JUMP (32) endpoints of axis 0
 * (jumps() in mbp_sap_sort.c, asked only when the min moves farther than its extent) is not sorted
 * but taken out and put back: its candidates end (mbp__sink_end for each body its stored box
 * overlaps, found like a query: the bodies whose min lies between its endpoints on axis 0, or
 * within ext below its min with the max above it), its endpoints go to where binary search puts
 * them on every axis, the endpoints between shifting by one place (two where both of its
 * endpoints pass them) with their positions, no overlap test; then its new candidates begin,
 * found the same way. The invariant of mbp_sap.c (a pair is a candidate exactly when its
 * bodies' endpoint positions overlap on every axis) holds before and after, so a jump may come
 * between any two swaps. A jump costs O(log n + shifted + window); it counts as one swap per 32
 * endpoints shifted, plus one, against the budget (a shift is a few instructions; at 1024 bodies
 * a rebuild costs about as much as 300 jumps).
 */
#include "mbp_sap_run.h"

#if MBP_WITH_SAP

/* The lowest min a body reaching up to v on axis 0 can have (s->ext bounds every extent there);
 * above the lower sentinel. */
mbp_sap_val mbp__sap_reach_down(const mbp_sap_state *s, mbp_sap_val v)
{
#if MBP_SAP_QUANTIZED
    return (mbp_sap_val)(v > s->ext ? v - s->ext : 1);
#else
    return mbp_add_sat(v, -s->ext);
#endif
}

/* The first position in [1, n + 1] of axis k whose value is at least v (above v when after). */
uint32_t mbp__sap_find(const mbp_sap_state *s, int k, mbp_sap_val v, bool after)
{
    const mbp_sap_val *val = s->val[k];
    uint32_t a = 1u, b = s->n + 1u;
    while (a < b) {
        uint32_t mid = a + (b - a) / 2u;
        if (val[mid] < v || (after && !(v < val[mid]))) {
            a = mid + 1u;
        } else {
            b = mid;
        }
    }
    return a;
}

/* The len endpoints at positions from.. move, in order, to to.. (their positions follow). A jump
 * shifts hundreds of endpoints: the loops step pointers and count down to zero, which keeps them
 * at 8 M4 instructions an endpoint (indexed, 10). */
static void slide(mbp_sap_state *s, int k, uint32_t from, uint32_t to, uint32_t len)
{
    mbp_sap_idx *pos = s->pos[k];
    uint32_t n = len;
    if (n == 0u) {
        return;
    }
    if (to < from) {
        const mbp_sap_val *vs = &s->val[k][from];
        const mbp_sap_idx *is = &s->id[k][from];
        mbp_sap_val *vd = &s->val[k][to];
        mbp_sap_idx *idd = &s->id[k][to];
        uint32_t t = to;
        do {
            mbp_sap_idx e = *is;
            *vd = *vs;
            *idd = e;
            pos[e] = (mbp_sap_idx)t;
            is++;
            vs++;
            vd++;
            idd++;
            t++;
            n--;
        } while (n != 0u);
    } else { /* last first: the places written are above the ones read */
        const mbp_sap_val *vs = &s->val[k][from + len];
        const mbp_sap_idx *is = &s->id[k][from + len];
        mbp_sap_val *vd = &s->val[k][to + len];
        mbp_sap_idx *idd = &s->id[k][to + len];
        uint32_t t = to + len;
        do {
            is--;
            vs--;
            vd--;
            idd--;
            t--;
            mbp_sap_idx e = *is;
            *vd = *vs;
            *idd = e;
            pos[e] = (mbp_sap_idx)t;
            n--;
        } while (n != 0u);
    }
}

/* Body i's endpoints on axis k, at a < b, go to where lo and hi belong: c < d, found by binary
 * search among the others. The endpoints between shift by one place, or by two where both of
 * i's pass them, in one pass. Returns the endpoints shifted. */
static uint32_t jump_axis(mbp_sap_state *s, int k, uint32_t i, mbp_sap_val lo, mbp_sap_val hi)
{
    uint32_t a = s->pos[k][2u * i], b = s->pos[k][2u * i + 1u];
    uint32_t tl = mbp__sap_find(s, k, lo, false), th = mbp__sap_find(s, k, hi, true);
    /* Ranks among the other endpoints: i's own old ones do not count. */
    uint32_t c = tl - (a < tl ? 1u : 0u) - (b < tl ? 1u : 0u);
    uint32_t d = th - (a < th ? 1u : 0u) - (b < th ? 1u : 0u) + 1u;
    uint32_t moved;
    if (c >= a && d >= b && c >= b) { /* up, the min past the old max */
        slide(s, k, a + 1u, a, b - a - 1u);
        slide(s, k, b + 1u, b - 1u, c + 1u - b);
        slide(s, k, c + 2u, c + 1u, d - c - 1u);
        moved = d - a - 1u;
    } else if (c <= a && d <= b && d <= a) { /* down, the max past the old min */
        slide(s, k, a + 1u, a + 2u, b - a - 1u);
        slide(s, k, d - 1u, d + 1u, a + 1u - d);
        slide(s, k, c, c + 1u, d - c - 1u);
        moved = b - c - 1u;
    } else { /* each end on its own: the endpoints between them stay */
        if (c > a) {
            slide(s, k, a + 1u, a, c - a);
        } else {
            slide(s, k, c, c + 1u, a - c);
        }
        if (d > b) {
            slide(s, k, b + 1u, b, d - b);
        } else {
            slide(s, k, d, d + 1u, b - d);
        }
        moved = (c > a ? c - a : a - c) + (d > b ? d - b : b - d);
    }
    s->val[k][c] = lo;
    s->id[k][c] = (mbp_sap_idx)(2u * i);
    s->pos[k][2u * i] = (mbp_sap_idx)c;
    s->val[k][d] = hi;
    s->id[k][d] = (mbp_sap_idx)(2u * i + 1u);
    s->pos[k][2u * i + 1u] = (mbp_sap_idx)d;
    return moved;
}

/* Every body whose endpoint positions overlap body i's on every axis: their pairs begin (or end).
 * On axis 0 these are the bodies whose min lies between i's endpoints, and those whose min lies
 * below i's min, within s->ext of it, and whose max lies above it. Axis 0 must be sorted. */
static void jump_pairs(mbp__sap_run *r, uint32_t i, bool begin)
{
    const mbp_sap_state *s = r->s;
    const mbp_sap_val *val = s->val[0];
    const mbp_sap_idx *id = s->id[0];
    const mbp_sap_idx *pos = s->pos[0];
    uint32_t a = pos[2u * i], b = pos[2u * i + 1u];
    mbp_sap_val from = mbp__sap_reach_down(s, val[a]);
    const mbp_sap_idx *other[MBP_DIM - 1];
    uint32_t lo[MBP_DIM - 1], hi[MBP_DIM - 1];
    mbp__sap_others0(s, other);
    mbp__sap_span(other, 2u * i, lo, hi);
    uint32_t q = a;
    while (!(val[q - 1u] < from)) { /* the lower sentinel stops it */
        q--;
    }
    for (; q < b; q++) {
        mbp_sap_idx f = id[q];
        if ((f & 1u) != 0u || pos[f + 1u] <= a || q == a) {
            continue;
        }
        r->tests++;
        if (mbp__sap_meets(other, lo, hi, f)) {
            if (begin) {
                mbp__sink_begin(r->out, (uint16_t)i, (uint16_t)(f >> 1));
            } else {
                mbp__sink_end(r->out, (uint16_t)i, (uint16_t)(f >> 1));
            }
        }
    }
}

/* Body i jumps to the values lo and hi: its pairs end, its endpoints move by block moves on
 * every axis, its new pairs begin. The work counts as one swap per 32 endpoints shifted. */
void mbp__sap_jump(mbp__sap_run *r, uint32_t i, const mbp_sap_val *lo, const mbp_sap_val *hi)
{
    uint32_t moved = 0u;
    jump_pairs(r, i, false);
    for (int k = 0; k < MBP_DIM; k++) {
        moved += jump_axis(r->s, k, i, lo[k], hi[k]);
    }
    jump_pairs(r, i, true);
    r->swaps += moved / 32u + 1u;
    r->jumps++;
}

#endif /* MBP_WITH_SAP */
