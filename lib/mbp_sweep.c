/* SPDX-License-Identifier: MIT */
/* mbp_sweep.c: single-axis sort and sweep, the smallest backend.
 *
 * How: order[] holds the bodies sorted by box min on one axis. Each update re-sorts it by
 * insertion sort (motion is coherent, so it is nearly sorted), then sweeps it: for each body a,
 * the bodies after it whose min is <= a's max overlap a on that axis (closed intervals) and are
 * tested on the other axes. This forward scan finds the same pairs as a sweep with an active list
 * (a body leaves when a later min passes its max) without keeping the list: 2 bytes per body in
 * all. The axis is a parameter, or chosen as the one along which the body centres spread most
 * (switching only for a 25% larger spread, since a switch costs a full sort); choosing reads every
 * box, so it is done at the first update and again only every 16 updates, when the bodies jump or
 * when they gather along the sorted axis (recheck_axis()).
 *
 * Cost per update: O(n + s) for the sort with s element moves, O(n + k) for the sweep with k the
 * pairs overlapping on the sweep axis, O(n) when it picks the axis. When at most one body in 8
 * moved (and the axis stays), no sweep: each moved body scans only its window of order[], found
 * by binary search as a query's (sweep_moved()): O(moved * (log n + window) + stored pairs). A
 * window reaches back by the largest extent, so one large body widens every window: past 1 in 8
 * the whole sweep is cheaper (measured on the M4, make bench's smash and cluster scenes). Worst
 * case: the insertion sort stops after n * log2(n) moves (bodies teleporting, a new axis) and a
 * heap sort finishes it: O(n log n), no recursion. k is n^2/2 when every body overlaps on the
 * sweep axis (all on one line across it): choose the axis, or let it be chosen. An update after
 * which nothing was added, moved, refiltered or removed costs O(1). Adds are O(1); removes are
 * O(1), the next update compacts the array in O(n).
 * Queries: a binary search on the sorted mins for min >= query min - (largest extent), then a
 * scan up to the query max: O(log n + bodies in the window) when no body moved since the update;
 * bodies that did are skipped (the core tests them), and can only widen the window.
 */
#include "mbp_bp.h"
#include "mbp_heap.h"

#if MBP_WITH_SWEEP

#define MBP__SWEEP_RECHECK 16u /* updates between two choices of the axis (recheck_axis()) */

static mbp_scalar min_of(const mbp_aabb *box, uint16_t body, uint8_t ax)
{
    return box[body].min[ax];
}

/* Removes bodies no longer active (removed since the last update) from order[]. */
static void compact(mbp_sweep_state *s, const mbp__bodies *v)
{
    uint16_t j = 0u;
    for (uint16_t i = 0u; i < s->count; i++) {
        if (mbp__in(v, s->order[i])) {
            s->order[j++] = s->order[i];
        }
    }
    s->count = j;
    s->removed = 0u;
}

#if MBP_DIM > 1
/* The axis along which the centres (min + max, twice the centre) spread most; the current axis
 * is kept unless another spreads 25% more. */
static uint8_t pick_axis(const mbp_sweep_state *s, const mbp_aabb *box)
{
#if MBP_SCALAR == MBP_FIXED
    typedef int64_t wide;
#else
    typedef mbp_scalar wide;
#endif
    wide lo[MBP_DIM], hi[MBP_DIM];
    if (s->count == 0u) {
        return s->axis < MBP_DIM ? s->axis : 0u;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        const mbp_aabb *b = &box[s->order[0]];
        lo[k] = hi[k] = (wide)b->min[k] + (wide)b->max[k];
    }
    for (uint16_t i = 1u; i < s->count; i++) {
        const mbp_aabb *b = &box[s->order[i]];
        for (int k = 0; k < MBP_DIM; k++) {
            wide c = (wide)b->min[k] + (wide)b->max[k];
            lo[k] = c < lo[k] ? c : lo[k];
            hi[k] = c > hi[k] ? c : hi[k];
        }
    }
    uint8_t best = s->axis < MBP_DIM ? s->axis : 0u;
    wide cur = hi[best] - lo[best];
    for (uint8_t k = 0u; k < MBP_DIM; k++) {
        wide spread = hi[k] - lo[k];
        if (spread > cur + cur / 4) {
            best = k;
            cur = spread;
        }
    }
    return best;
}
#endif

/* The auto axis (pick_axis()); the only one in 1D. */
static uint8_t pick(const mbp_sweep_state *s, const mbp_aabb *box)
{
#if MBP_DIM > 1
    return pick_axis(s, box);
#else
    (void)s;
    (void)box;
    return 0u;
#endif
}

/* The spread of the mins on ax, from the ends of order[] sorted on ax. */
static mbp_scalar spread_of(const mbp_sweep_state *s, const mbp_aabb *box, uint8_t ax)
{
    if (s->count < 2u) {
        return 0;
    }
    return min_of(box, s->order[s->count - 1u], ax) - min_of(box, s->order[0], ax);
}

/* Whether to choose the auto axis again, after the insertion sort on it (sorted: it finished).
 * Choosing reads every box (pick_axis(), a tenth of an update), so it is done only every
 * MBP__SWEEP_RECHECK updates, when the sort gave up (the bodies jumped: a full sort is due anyway),
 * when the axis had no spread at the choice, or when the spread of mins on it (read from the sorted
 * order's ends) fell below 3/4 of that at the choice (the bodies gather: the scan tests more). */
static bool recheck_axis(mbp_sweep_state *s, const mbp_aabb *box, bool sorted)
{
    s->since_pick++;
    if (!sorted) {
        return true;
    }
    if (s->since_pick >= MBP__SWEEP_RECHECK) {
        return true;
    }
    if (s->spread_pick <= 0) {
        return true; /* chosen among fewer than two bodies, or all at one min: no spread to keep */
    }
    return spread_of(s, box, s->axis) < s->spread_pick - s->spread_pick / 4;
}

/* Insertion sort of order[] by min on ax; false when it gave up after `budget` moves (order[]
 * is then still a permutation, partly sorted). The largest key of the sorted prefix is kept: a
 * body not before it (the usual case, motion being coherent) costs one load and one comparison. */
static bool insertion_sort(mbp_sweep_state *s, const mbp_aabb *box, uint8_t ax, uint32_t budget)
{
    uint16_t *o = s->order;
    uint32_t n = s->count;
    uint32_t moves = 0u;
    mbp_scalar top = n > 0u ? min_of(box, o[0], ax) : 0;
    for (uint32_t i = 1u; i < n; i++) {
        uint16_t v = o[i];
        mbp_scalar key = min_of(box, v, ax);
        if (!(key < top)) {
            top = key;
            continue;
        }
        uint32_t j = i; /* o[i - 1] holds top: it moves; the prefix's largest stays top */
        do {
            o[j] = o[j - 1u];
            j--;
        } while (j > 0u && min_of(box, o[j - 1u], ax) > key);
        o[j] = v;
        moves += i - j;
        if (moves > budget) {
            s->shifts_last = moves;
            return false;
        }
    }
    s->shifts_last = moves;
    return true;
}

/* The sweep's order, to heap sort by the boxes' mins on axis ax. */
typedef struct {
    const mbp_aabb *box;
    uint16_t *o;
    uint8_t ax;
} by_min;

static bool order_before(const void *h, uint32_t i, uint32_t j)
{
    const by_min *r = (const by_min *)h;
    return min_of(r->box, r->o[i], r->ax) < min_of(r->box, r->o[j], r->ax);
}

static void order_swap(void *h, uint32_t i, uint32_t j)
{
    const by_min *r = (const by_min *)h;
    uint16_t *o = r->o;
    uint16_t t = o[i];
    o[i] = o[j];
    o[j] = t;
}

static void heap_sort(const mbp_aabb *box, uint16_t *o, uint32_t n, uint8_t ax)
{
    by_min r = {box, o, ax};
    mbp__heap_sort(&r, n, order_before, order_swap);
}

/* Reports (a, b) when b's box meets lo..up (a's bounds) on the axes other than ax. */
MBP__HOT void report(mbp__sink *out, uint16_t a, uint16_t b, const mbp_aabb *box,
                     const mbp_scalar *lo, const mbp_scalar *up, int ax)
{
    const mbp_aabb *bb = &box[b];
    bool in = true;
    for (int k = 0; k < MBP_DIM; k++) {
        in = in && (k == ax || (bb->min[k] <= up[k] && lo[k] <= bb->max[k]));
    }
    if (in) {
        mbp__sink_begin_met(out, a, b); /* the boxes meet: on ax by the scan, here on the rest */
    }
}

/* The sweep along axis ax, a constant where it is inlined: for each body a in order, the bodies
 * after it whose min on ax is <= a's max there overlap a on ax; those that overlap it on the
 * other axes too are reported. One copy per axis, so that the other axes' bounds of a stay in
 * registers and no axis index is computed per pair. When the largest min (the last body's) is
 * beyond a's max, the scan needs no end test: it stops at that body at the latest. Sets *ext to
 * the largest extent on ax; returns the pairs tested on the other axes. */
MBP__HOT uint32_t scan(const uint16_t *o, uint32_t n, const mbp_aabb *box, mbp__sink *out,
                       mbp_scalar *ext, int ax)
{
    uint32_t stops = 0u; /* the sum of the indices at which the scans stopped */
    mbp_scalar e_max = 0;
    if (n == 0u) {
        *ext = 0;
        return 0u;
    }
    const uint16_t *end = &o[n];
    mbp_scalar last = box[o[n - 1u]].min[ax];
    for (const uint16_t *pa = o; pa < end; pa++) {
        uint16_t a = *pa;
        const mbp_aabb *ba = &box[a];
        mbp_scalar hi = ba->max[ax];
        mbp_scalar lo[MBP_DIM], up[MBP_DIM];
        for (int k = 0; k < MBP_DIM; k++) {
            lo[k] = ba->min[k];
            up[k] = ba->max[k];
        }
        mbp_scalar e = hi - lo[ax];
        e_max = e > e_max ? e : e_max;
        const uint16_t *pb = pa;
        if (last > hi) {
            while (box[*++pb].min[ax] <= hi) { /* stops at the last body at the latest */
                report(out, a, *pb, box, lo, up, ax);
            }
        } else {
            while (++pb < end) { /* sorted: every min up to the end is <= last <= hi */
                report(out, a, *pb, box, lo, up, ax);
            }
        }
        stops += (uint32_t)(pb - o);
    }
    *ext = e_max;
    /* Body i's scan stopped at index j_i: j_i - i - 1 tests; sum(i) = n(n-1)/2 (n <= 65535). */
    return stops - n * (n + 1u) / 2u;
}

MBP__LOOP uint32_t scan0(const uint16_t *o, uint32_t n, const mbp_aabb *box, mbp__sink *out,
                         mbp_scalar *ext)
{
    return scan(o, n, box, out, ext, 0);
}
#if MBP_DIM > 1
MBP__LOOP uint32_t scan1(const uint16_t *o, uint32_t n, const mbp_aabb *box, mbp__sink *out,
                         mbp_scalar *ext)
{
    return scan(o, n, box, out, ext, 1);
}
#endif
#if MBP_DIM > 2
MBP__LOOP uint32_t scan2(const uint16_t *o, uint32_t n, const mbp_aabb *box, mbp__sink *out,
                         mbp_scalar *ext)
{
    return scan(o, n, box, out, ext, 2);
}
#endif

mbp_status mbp__sweep_init(mbp_sweep_state *s, const mbp_params *p)
{
    if (p->sweep_axis >= MBP_DIM && p->sweep_axis != MBP_AXIS_AUTO) {
        return MBP_E_PARAM;
    }
    s->want_axis = p->sweep_axis;
    s->count = 0u;
    s->sorted = 0u;
    s->axis = MBP_AXIS_AUTO;
    s->removed = 0u;
    s->ext = 0;
    s->shifts_last = 0u;
    s->heap_sorts = 0u;
    s->since_pick = 0u;
    s->spread_pick = 0;
    return MBP_OK;
}

mbp_status mbp__sweep_add(mbp_sweep_state *s, uint16_t i, const mbp_aabb *box)
{
    (void)box; /* read at the update, from the view */
    /* Live and dying bodies have distinct indices, so this cannot fill. */
    MBP__ASSERT(s->count < MBP_MAX_BODIES);
    s->order[s->count++] = i;
    return MBP_OK;
}

void mbp__sweep_remove(mbp_sweep_state *s, uint16_t i, const mbp_aabb *last)
{
    (void)i;
    (void)last;
    s->removed = 1u;
}

/* Bodies moved since the update are out of place in order[] until the next one: a query skips
 * them, and its search treats them as "not before the key", which can only start the scan
 * earlier. */
static bool stale(const mbp__bodies *v, uint16_t i)
{
    return (v->flags[i] & MBP__DIRTY) != 0u;
}

/* The first position of o[0..n) whose body's min on ax is not below from: a binary search of the
 * sorted order. v: NULL after an update's sort, or, for a query, the view whose stale bodies
 * count as "not below". */
static uint32_t first_from(const mbp_aabb *box, const uint16_t *o, uint32_t n, uint8_t ax,
                           mbp_scalar from, const mbp__bodies *v)
{
    uint32_t lo = 0u, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        uint16_t b = o[mid];
        if ((v == NULL || !stale(v, b)) && min_of(box, b, ax) < from) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Few moved (order[] sorted again): the stored pairs with a moved body end, then each moved body
 * a scans the window of bodies whose min on ax lies in [a's min - ext, a's max] (ext: the largest
 * extent on ax, grown to cover the moved bodies), as a query does, and a pair that overlaps, by
 * the exact test of a full frame (mbp__volumes_meet()), begins again. A pair of two moved bodies
 * is tested once, from the lower index. Returns the pairs tested. */
static uint32_t sweep_moved(mbp_sweep_state *s, const mbp__bodies *v, mbp__sink *out, uint8_t ax)
{
    const mbp_aabb *box = v->box;
    const uint16_t *o = s->order;
    uint32_t n = s->count, tests = 0u;
    if (v->moved_count == 0u) {
        return 0u; /* only removals: their pairs are the world's to end */
    }
    mbp_scalar ext = s->ext;
    for (uint32_t d = 0u; d < v->moved_count; d++) {
        uint16_t a = v->moved[d];
        mbp_scalar e = box[a].max[ax] - box[a].min[ax];
        ext = mbp__in(v, a) && e > ext ? e : ext;
    }
    s->ext = ext;
    mbp__sink_end_moved(out);
    for (uint32_t d = 0u; d < v->moved_count; d++) {
        uint16_t a = v->moved[d];
        if (!mbp__in(v, a)) {
            continue;
        }
        const mbp_aabb ba = box[a];
        uint32_t i = first_from(box, o, n, ax, mbp_add_sat(ba.min[ax], -ext), NULL);
        for (; i < n && box[o[i]].min[ax] <= ba.max[ax]; i++) {
            tests += mbp__sink_retest(out, v->flags, box, &ba, a, o[i]);
        }
    }
    return tests;
}

mbp_status mbp__sweep_update(mbp_sweep_state *s, const mbp__bodies *v, mbp__sink *out)
{
    const mbp_aabb *box = v->box;
    if (v->moved_count == 0u && !s->removed && !mbp__sink_overflowed(out)) {
        return MBP_OK; /* nothing changed: the world keeps the last frame's pairs as they are */
    }
    if (s->removed) {
        compact(s, v);
    }
    uint32_t n = s->count;
    uint32_t log2n = 1u;
    while ((1u << log2n) < n) {
        log2n++;
    }
    uint8_t ax = s->axis, was = s->axis;
    bool chose = false;
    if (s->want_axis != MBP_AXIS_AUTO) {
        ax = s->want_axis;
    } else if (ax == MBP_AXIS_AUTO) {
        ax = pick(s, box); /* the first update */
        chose = true;
    }
    /* A heap sort costs about 2 n log2 n comparisons: beyond n log2 n moves, switch to it. */
    bool sorted = ax == s->axis && insertion_sort(s, box, ax, n * log2n + 16u);
    if (s->want_axis == MBP_AXIS_AUTO && !chose && recheck_axis(s, box, sorted)) {
        ax = pick(s, box);
        chose = true;
        if (ax != s->axis) {
            sorted = false; /* a new axis: a full sort */
        }
    }
    if (!sorted) {
        if (ax != s->axis) {
            s->shifts_last = 0u;
        }
        heap_sort(box, s->order, n, ax);
        s->heap_sorts++;
    }
    if (chose) {
        s->since_pick = 0u;
        s->spread_pick = spread_of(s, box, ax);
    }
    s->axis = ax;
    s->sorted = s->count;

    if (ax == was && 8u * v->moved_count <= v->live && !mbp__sink_overflowed(out)) {
        out->tests = sweep_moved(s, v, out, ax);
        return MBP_OK;
    }
    mbp__sink_full_frame(out, false);
#if MBP_DIM > 2
    if (ax == 2u) {
        out->tests = scan2(s->order, n, box, out, &s->ext);
        return MBP_OK;
    }
#endif
#if MBP_DIM > 1
    if (ax == 1u) {
        out->tests = scan1(s->order, n, box, out, &s->ext);
        return MBP_OK;
    }
#endif
    out->tests = scan0(s->order, n, box, out, &s->ext);
    return MBP_OK;
}

void mbp__sweep_query(const mbp_sweep_state *s, const mbp__bodies *v, const mbp_aabb *box,
                      mbp__visit_fn fn, void *ctx)
{
    if (s->sorted == 0u) {
        return; /* no update yet: every body is dirty, and the world tests those */
    }
    uint8_t ax = s->axis;
    mbp_scalar from = mbp_add_sat(box->min[ax], -s->ext);
    for (uint32_t i = first_from(v->box, s->order, s->sorted, ax, from, v); i < s->sorted; i++) {
        uint16_t b = s->order[i];
        if (stale(v, b)) {
            continue;
        }
        if (min_of(v->box, b, ax) > box->max[ax]) {
            break;
        }
        if (v->box[b].max[ax] >= box->min[ax]) {
            fn(ctx, b);
        }
    }
}

#endif /* MBP_WITH_SWEEP */
