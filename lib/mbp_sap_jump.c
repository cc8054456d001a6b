/* SPDX-License-Identifier: MIT */
/* mbp_sap_jump.c: the SAP's jumps (mbp_sap_sort.c sorts; this file takes a body out and puts it
 * back elsewhere), and the binary search its queries share.
 *
 * A moved body whose min would pass at least MBP_SAP_JUMP (32) endpoints of axis 0
 * (jumps() in mbp_sap_sort.c, asked only when the min moves farther than its extent) is not sorted
 * but taken out and put back: its candidates end (mbp__sink_end for each body its stored box
 * overlaps, found like a query: the bodies whose min lies between its endpoints on axis 0, or
 * within ext below its min with the max above it, and the big body on its own), its endpoints go
 * to where binary search puts them on every axis, the endpoints between shifting by one place
 * (two where both of its endpoints pass them) with their positions, no overlap test; then its
 * new candidates begin, found the same way. The invariant of mbp_sap.c (a pair is a candidate
 * exactly when its bodies' endpoint positions overlap on every axis) holds before and after, so
 * a jump may come between any two swaps. A jump costs O(log n + shifted + window); it counts as
 * one swap per 32 endpoints shifted, plus one, against the budget (a shift is a few
 * instructions; at 1024 bodies a rebuild costs about as much as 300 jumps).
 *
 * Jumping together (mbp__sap_jump_all): the jumpers an update held back (many bodies moved) jump
 * at once when one by one they would shift more than twice the endpoints of axis 0. Their
 * candidates end; per axis, their old places and their endpoints (by new value) are heap sorted,
 * each new place found by binary search among the others, and the other endpoints, cut by those
 * places into runs that each move by one fixed shift, move once (runs going down lowest first,
 * runs going up highest first, so none lands on one not yet moved); then their new candidates
 * begin. O(j log j + n) per axis for j jumpers; counted as one swap per 32 endpoints moved, plus
 * one per jumper. Room: s->jump holds both endpoint ids of each held jumper, then their old
 * places on one axis.
 */
#include "mbp_heap.h"
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

/* Body i (its positions lo, hi on the axes of other) and the body of endpoint f, which overlap
 * on axis 0: their pair begins (or ends) when they overlap on the others too. */
MBP__HOT void pair_if_meets(mbp__sap_run *r, const mbp_sap_idx *const *other, const uint32_t *lo,
                            const uint32_t *hi, uint32_t i, uint32_t f, bool begin)
{
    r->tests++;
    if (mbp__sap_meets(other, lo, hi, f)) {
        if (begin) {
            mbp__sink_begin(r->out, (uint16_t)i, (uint16_t)(f >> 1));
        } else {
            mbp__sink_end(r->out, (uint16_t)i, (uint16_t)(f >> 1));
        }
    }
}

/* Every body whose endpoint positions overlap body i's on every axis: their pairs begin (or end).
 * On axis 0 these are the bodies whose min lies between i's endpoints, and those whose min lies
 * below i's min, within s->ext of it, and whose max lies above it; the big body (s->ext need not
 * cover it) is tested on its own when its min lies below that. Axis 0 must be sorted. */
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
    if (s->big != 0u && s->big != i + 1u) { /* the big body, when its min lies below the scan */
        uint32_t f = 2u * (s->big - 1u);
        if (pos[f] < q && pos[f + 1u] > a) {
            pair_if_meets(r, other, lo, hi, i, f, begin);
        }
    }
    for (; q < b; q++) {
        mbp_sap_idx f = id[q];
        if ((f & 1u) != 0u || pos[f + 1u] <= a || q == a) {
            continue;
        }
        pair_if_meets(r, other, lo, hi, i, f, begin);
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

/* ---- jumps together ---- */

/* A list of s->jump to sort: endpoint ids by their new values on axis k (a min before a max on
 * ties), or plain numbers (positions) when k < 0. */
typedef struct {
    const mbp__sap_run *r;
    int k;
    mbp_sap_idx *a;
} list;

static bool list_before(const void *h, uint32_t i, uint32_t j)
{
    const list *x = (const list *)h;
    const mbp_sap_idx *a = x->a;
    if (x->k < 0) {
        return a[i] < a[j];
    }
    return mbp__sap_before(mbp__sap_value(x->r->v, x->r->s, x->k, a[i]), a[i],
                           mbp__sap_value(x->r->v, x->r->s, x->k, a[j]), a[j]);
}

static void list_swap(void *h, uint32_t i, uint32_t j)
{
    const list *x = (const list *)h;
    mbp_sap_idx *a = x->a;
    mbp_sap_idx t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* The m entries of a in order (list_before()). */
static void sort_list(const mbp__sap_run *r, int k, mbp_sap_idx *a, uint32_t m)
{
    list x = {r, k, a};
    mbp__heap_sort(&x, m, list_before, list_swap);
}

/* Axis k: the m endpoints listed in s->jump (the held jumpers', at their old places) leave and
 * come back at their new values (read from the boxes), in one move of each other endpoint at
 * most. Their old places (sorted) and their new ones (binary search among the others, in the
 * order of their new values) cut the others into runs that keep their order and move by one
 * shift each: runs that move down are moved lowest first, then runs that move up highest first,
 * so that no run lands on one not yet moved; runs whose shift is zero stay. The jumpers'
 * positions then hold their new places, where their values and ids are written. Returns the
 * endpoints moved. */
static uint32_t merge_axis(mbp__sap_run *r, int k, uint32_t m)
{
    mbp_sap_state *s = r->s;
    mbp_sap_idx *pos = s->pos[k];
    mbp_sap_idx *ids = s->jump;                          /* sorted by new value */
    mbp_sap_idx *old = &s->jump[(size_t)2 * MBP_SAP_JUMPS]; /* their old places, sorted */
    uint32_t n = s->n, moved = 0u;
    for (uint32_t j = 0u; j < m; j++) {
        old[j] = pos[ids[j]];
    }
    sort_list(r, -1, old, m);
    sort_list(r, k, ids, m);
    for (uint32_t t = 0u, i = 0u; t < m; t++) { /* new places: monotone, so i only grows */
        mbp_sap_idx e = ids[t];
        uint32_t p = mbp__sap_find(s, k, mbp__sap_value(r->v, s, k, e), (e & 1u) != 0u);
        while (i < m && old[i] < p) {
            i++;
        }
        pos[e] = (mbp_sap_idx)(p - 1u - i + t + 1u); /* the others before it, the new ones */
    }
    /* Runs moving down, lowest first: po, pn are the next other's old and new places. */
    for (uint32_t i = 0u, t = 0u, po = 1u, pn = 1u;;) {
        while (i < m && old[i] == po) {
            po++;
            i++;
        }
        while (t < m && pos[ids[t]] == pn) {
            pn++;
            t++;
        }
        if (po > n) {
            break;
        }
        uint32_t lo = (i < m ? old[i] : n + 1u) - po, ln = (t < m ? pos[ids[t]] : n + 1u) - pn;
        uint32_t len = lo < ln ? lo : ln;
        if (pn < po) {
            slide(s, k, po, pn, len);
            moved += len;
        }
        po += len;
        pn += len;
    }
    /* Runs moving up, highest first: i, t count the old and new places not yet passed. */
    for (uint32_t i = m, t = m, po = n, pn = n;;) {
        while (i > 0u && old[i - 1u] == po) {
            po--;
            i--;
        }
        while (t > 0u && pos[ids[t - 1u]] == pn) {
            pn--;
            t--;
        }
        if (po == 0u) {
            break;
        }
        uint32_t lo = po - (i > 0u ? old[i - 1u] : 0u), ln = pn - (t > 0u ? pos[ids[t - 1u]] : 0u);
        uint32_t len = lo < ln ? lo : ln;
        if (pn > po) {
            slide(s, k, po + 1u - len, pn + 1u - len, len);
            moved += len;
        }
        po -= len;
        pn -= len;
    }
    for (uint32_t t = 0u; t < m; t++) {
        mbp_sap_idx e = ids[t];
        s->val[k][pos[e]] = mbp__sap_value(r->v, s, k, e);
        s->id[k][pos[e]] = e;
    }
    return moved;
}

/* True when the held jumpers (s->jump, axis 0 sorted) are worth jumping together: when one by
 * one they would shift, on axis 0, more than twice the endpoints there are (each about those
 * between its min's old place and its new one, found by binary search), so that most
 * endpoints would move several times; together each moves once at most. Teleports across the
 * world pass that from a few jumpers on; many bodies jumping just past MBP_SAP_JUMP endpoints do
 * not (then the sorts of the merge would cost more than the shifts they save). */
bool mbp__sap_merge_pays(const mbp__sap_run *r, uint32_t held)
{
    const mbp_sap_state *s = r->s;
    uint32_t apart = 0u;
    for (uint32_t j = 0u; j < 2u * held && apart <= 2u * s->n; j += 2u) {
        uint32_t a = s->pos[0][s->jump[j]];
        uint32_t c = mbp__sap_find(s, 0, mbp__sap_value(r->v, s, 0, s->jump[j]), false);
        apart += a < c ? c - a : a - c;
    }
    return apart > 2u * s->n;
}

/* The held jumpers jump together. With every axis sorted and the jumpers still at their old
 * places (the invariant holds), their candidates end (a pair of two jumpers is ended twice: the
 * second is a no-op); then no candidate has a jumper, and the merge keeps the others' order, so
 * the invariant holds for every pair left; then
 * their new candidates begin (two jumpers' pair begins twice, the second a no-op), once s->ext
 * covers their new extents. The work counts as one swap per 32
 * endpoints moved, plus one a jumper. */
void mbp__sap_jump_all(mbp__sap_run *r, uint32_t held)
{
    mbp_sap_state *s = r->s;
    const mbp_sap_idx *jump = s->jump;
    uint32_t m = 2u * held, moved = 0u;
    for (uint32_t j = 0u; j < m; j++) {
        if ((jump[j] & 1u) == 0u) {
            jump_pairs(r, jump[j] >> 1, false);
        }
    }
    for (int k = 0; k < MBP_DIM; k++) {
        moved += merge_axis(r, k, m);
    }
    for (uint32_t j = 0u; j < m; j++) { /* s->ext covers the new extents before any query */
        if ((jump[j] & 1u) == 0u) {
            mbp__sap_cover(s, jump[j] >> 1, mbp__sap_extent(s, jump[j]));
        }
    }
    for (uint32_t j = 0u; j < m; j++) {
        if ((jump[j] & 1u) == 0u) {
            jump_pairs(r, jump[j] >> 1, true);
        }
    }
    r->swaps += moved / 32u + held;
    r->jumps += held;
    s->merged_last = 1u;
}

#endif /* MBP_WITH_SAP */
