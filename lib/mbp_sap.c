/* SPDX-License-Identifier: MIT */
/* mbp_sap.c: incremental sweep and prune on every axis.
 *
 * How: per axis, an array of endpoints (value; id = body << 1 | is_max) kept sorted, ties
 * ordering a min before a max so that touching boxes overlap, between two sentinels; per body the
 * positions of its endpoints. Two boxes overlap on an axis exactly when each min lies before the
 * other's max, so the overlap on one axis changes only when a min and a max swap. The sort is the
 * producer: each update takes the bodies moved or added since the last (v->moved), writes their
 * new values one endpoint at a time and moves each into place by insertion sort. Each swap of a
 * min with a max checks the pair on the other axes (positions only, inline); if they overlap
 * there, the swap starts (mbp__sink_begin) or ends (mbp__sink_end) the candidate. Candidates are
 * therefore exactly the pairs whose stored boxes overlap; the pair set remembers them, and the
 * core exact-tests those of moved bodies. A body grows on the side it moves to before the other
 * side follows, so its own endpoints never cross.
 * Adds: O(1), endpoints appended at the top with a placeholder value above every coordinate (it
 * overlaps nothing), sorted down into place by the next update, which finds its pairs on the way.
 * Removes: O(1), the next update drops the endpoints of removed bodies in one O(n) pass (the world
 * ends their pairs).
 *
 * Two ways to sort, with the same swaps and events: when few bodies moved (m < n/16), each moved
 * body's endpoints are written and sifted into place one at a time; when many moved, all new
 * values are written first and one insertion sort pass per axis puts them in order (an endpoint
 * already in order costs a load and a compare; pairs of bodies that move together swap less).
 * Either way the invariant is the same: a pair is a candidate exactly when its bodies' endpoint
 * positions overlap on every axis; every swap of a min with a max changes that on one axis and
 * checks the others by position, so any sequence of adjacent swaps keeps it.
 * Jumps: a moved body whose min would pass at least MBP_SAP_JUMP (32) endpoints of axis 0 (looked
 * at only when the min moves farther than the body's extent: coherent motion pays a load and a
 * compare) is not sorted but taken out and put back by block moves (mbp_sap_jump.c, which says
 * how). When few bodies moved, a jumper jumps in its turn; when many did, the jumpers (up to
 * MBP_SAP_JUMPS) keep their old values during the sort passes and jump after them, when every
 * axis is sorted; more than that are sorted like the others. New bodies jump too (their
 * placeholders lie above every value).
 * Cost per update: O(m + s) for m moved bodies and s swaps in the first way, O(n + s) in the
 * second (chosen only when m >= n/16, so also O(m + s)); coherent motion makes s about the number
 * of endpoints passed, usually a few per moved body. Swaps that cross no pair on the other axes
 * cost about 15 instructions on the Cortex-M4, with no call; an endpoint of a moved body that
 * stays between its neighbours costs a few loads and compares, one that passes any, one call (a
 * sort loop per axis and direction, out of line). Worst case: the swaps are counted, and once they
 * exceed the budget the update stops and rebuilds: every endpoint re-read, DIM heap sorts of 2n
 * endpoints (no recursion) and one sweep of axis 0 reporting every pair that overlaps on all axes
 * (mbp__sink_full_frame(out, true)): O(n log n + k0), k0 the pairs overlapping on axis 0. The budget is
 * sap_budget swaps per body (default 32) up to 1024 bodies, times log2(bodies) / 10 above (the
 * rebuild it guards against costs O(n log n); on a uniform 2D world the endpoints a body passes
 * per unit of motion grow as sqrt(n)). So no update costs more than the budget plus one
 * rebuild. An update also rebuilds when it loses a candidate (pair set full; the rebuild counts
 * the true pairs lost exactly) and after a frame that lost one (s->incomplete, or the sink says
 * the last update overflowed). When a budget is exceeded, the
 * pairs set keeps the few candidates reported before the switch until the frame ends.
 * Per operation: moving one body by d endpoint places costs O(d) swaps (d < MBP_SAP_JUMP unless
 * it moved less than its extent); a jump, O(log n) plus the endpoints between its old and new
 * places (a few instructions each, no call), plus O(1) per pair begun or ended.
 * Queries: a binary search on axis 0 for min >= query min - (largest extent), then a scan to the
 * query max, checking the other axes on stored values: O(log n + bodies in that window).
 *
 * MBP_SAP_QUANTIZED: values are 16 bits over mbp_params.sap_world, mins rounded down and maxes
 * up (both by the same monotone map, clamped into the box), so every overlap survives and a few
 * extra candidates appear; the world's exact test removes them. Bodies outside the box are clamped
 * to its border: still exact, only slower if many are there.
 */
#include <float.h>
#include "mbp_sap_run.h"

#if MBP_WITH_SAP

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

/* The insertion sort's inner loops are inlined into each caller: on Cortex-M the call, with its
 * register saves and address set-up, costs as much as a swap. Not forced without optimization
 * (the coverage build, -O0): there each function keeps one copy, so that a branch is counted
 * once, not once per caller (several callers pass a constant axis). */
#if defined(__GNUC__) && defined(__OPTIMIZE__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

typedef mbp__sap_run run; /* one update (mbp_sap_run.h) */


/* ---- values ---- */

#if MBP_SAP_QUANTIZED
/* 1..Q_STEPS+1; up rounds up (maxes), else down (mins). */
static mbp_sap_val quantize(const mbp_sap_state *s, int k, mbp_scalar v, bool up)
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

void mbp__sap_default_world(mbp_aabb *box)
{
#if MBP_SCALAR == MBP_FIXED
    int64_t h = (int64_t)1024 << MBP_FIXED_FRAC_BITS;
    mbp_scalar half = h > MBP_RANGE ? MBP_RANGE : (mbp_scalar)h;
#else
    mbp_scalar half = 1024.0f;
#endif
    for (int k = 0; k < MBP_DIM; k++) {
        box->min[k] = -half;
        box->max[k] = half;
    }
}
#else
#define LO(s, k, v) ((void)(s), (void)(k), (v))
#define HI(s, k, v) ((void)(s), (void)(k), (v))
#endif

static mbp_sap_val ep_value(const mbp__bodies *v, const mbp_sap_state *s, int k, uint32_t e)
{
    const mbp_aabb *b = &v->box[e >> 1];
    return (e & 1u) ? HI(s, k, b->max[k]) : LO(s, k, b->min[k]);
}

/* ---- the incremental sort ---- */


/* Axis k's arrays, and the positions of the other axes, loaded once by a sort loop (in
 * registers there: the pair sink's calls could otherwise make it reload them from the state). */
typedef struct {
    mbp_sap_val *val;
    mbp_sap_idx *id;
    mbp_sap_idx *pos;
    const mbp_sap_idx *other[MBP_DIM - 1];
} axis;

HOT void axis_of(mbp_sap_state *s, int k, axis *x)
{
    x->val = s->val[k];
    x->id = s->id[k];
    x->pos = s->pos[k];
    x->other[0] = s->pos[k == 0 ? 1 : 0];
#if MBP_DIM == 3
    x->other[1] = s->pos[k == 2 ? 1 : 2];
#endif
}

/* True when endpoint (v, e) sorts before endpoint (w, f): by value, a min before a max on ties
 * (so that touching boxes overlap). */
HOT bool sorts_before(mbp_sap_val v, uint32_t e, mbp_sap_val w, uint32_t f)
{
    return v < w || (v == w && (e & 1u) < (f & 1u));
}

/* Endpoint e, at position p of axis x, takes the value v and moves into place, down (or up when
 * up), past the endpoints that sort after (before) it; returns its new position. A min and a max
 * swapping change the overlap of their bodies on this axis: when the bodies overlap on the others
 * (positions only: e's loaded once), the pair begins (a min passing a max downwards, or a max
 * passing a min upwards) or ends (the other two). The sentinels stop it. */
HOT uint32_t slide_to(const axis *x, mbp__sink *out, uint32_t *tests, uint32_t p, uint32_t e,
                      mbp_sap_val v, bool up)
{
    uint32_t lo[MBP_DIM - 1], hi[MBP_DIM - 1];
    mbp__sap_span(x->other, e, lo, hi);
    bool begins = ((e & 1u) != 0u) == up;
    for (;;) {
        uint32_t q = up ? p + 1u : p - 1u;
        mbp_sap_val w = x->val[q];
        uint32_t f = x->id[q];
        if (!(up ? sorts_before(w, f, v, e) : sorts_before(v, e, w, f))) {
            break;
        }
        x->val[p] = w;
        x->id[p] = (mbp_sap_idx)f;
        x->pos[f] = (mbp_sap_idx)p;
        if (((f ^ e) & 1u) != 0u) {
            (*tests)++;
            bool in = mbp__sap_meets(x->other, lo, hi, f);
            if (in && begins) {
                mbp__sink_begin(out, (uint16_t)(e >> 1), (uint16_t)(f >> 1));
            } else if (in) {
                mbp__sink_end(out, (uint16_t)(e >> 1), (uint16_t)(f >> 1));
            }
        }
        p = q;
    }
    x->val[p] = v;
    x->id[p] = (mbp_sap_idx)e;
    x->pos[e] = (mbp_sap_idx)p;
    return p;
}

/* slide_to() for one endpoint of a moved body, with the run's counts. */
HOT void sift_in(run *r, int k, uint32_t p, uint32_t e, mbp_sap_val v, bool up)
{
    axis x;
    axis_of(r->s, k, &x);
    uint32_t q = slide_to(&x, r->out, &r->tests, p, e, v, up);
    r->swaps += up ? q - p : p - q;
}

/* The sorts of one endpoint of a moved body, out of line (the loop keeps its variables in
 * registers, which it would not inlined into the caller), one per axis and direction, so that
 * each finds its axis's arrays at fixed places. */
MBP__LOOP void sift_down0(run *r, uint32_t p, uint32_t e, mbp_sap_val v)
{
    sift_in(r, 0, p, e, v, false);
}
MBP__LOOP void sift_down1(run *r, uint32_t p, uint32_t e, mbp_sap_val v)
{
    sift_in(r, 1, p, e, v, false);
}
MBP__LOOP void sift_up0(run *r, uint32_t p, uint32_t e, mbp_sap_val v)
{
    sift_in(r, 0, p, e, v, true);
}
MBP__LOOP void sift_up1(run *r, uint32_t p, uint32_t e, mbp_sap_val v)
{
    sift_in(r, 1, p, e, v, true);
}
#if MBP_DIM == 3
MBP__LOOP void sift_down2(run *r, uint32_t p, uint32_t e, mbp_sap_val v)
{
    sift_in(r, 2, p, e, v, false);
}
MBP__LOOP void sift_up2(run *r, uint32_t p, uint32_t e, mbp_sap_val v)
{
    sift_in(r, 2, p, e, v, true);
}
#endif

/* Endpoint e, at position p on axis k (a constant where inlined), sorted down (or up) to v. */
HOT void sift(run *r, int k, uint32_t p, uint32_t e, mbp_sap_val v, bool down)
{
    if (k == 0) {
        if (down) {
            sift_down0(r, p, e, v);
        } else {
            sift_up0(r, p, e, v);
        }
#if MBP_DIM == 3
    } else if (k == 2) {
        if (down) {
            sift_down2(r, p, e, v);
        } else {
            sift_up2(r, p, e, v);
        }
#endif
    } else if (down) {
        sift_down1(r, p, e, v);
    } else {
        sift_up1(r, p, e, v);
    }
}

/* Endpoint e, at position p on axis k with the value old, takes the value v: written in place
 * when it stays between its neighbours (under coherent motion, the common case: a few loads and
 * no call), else sorted into place. */
HOT void set_endpoint(run *r, int k, uint32_t p, uint32_t e, mbp_sap_val old, mbp_sap_val v)
{
    mbp_sap_val *val = r->s->val[k];
    const mbp_sap_idx *id = r->s->id[k];
    if (v < old) {
        mbp_sap_val pv = val[p - 1u];
        if (pv > v || (pv == v && (id[p - 1u] & 1u) > (e & 1u))) {
            sift(r, k, p, e, v, true);
            return;
        }
    } else if (old < v) {
        mbp_sap_val nv = val[p + 1u];
        if (nv < v || (nv == v && (id[p + 1u] & 1u) < (e & 1u))) {
            sift(r, k, p, e, v, false);
            return;
        }
    }
    val[p] = v;
}

/* Body i's endpoints on axis k, at positions a < b with the values oa and ob, take the values lo
 * and hi. The side that grows outwards goes first, so the min never passes its own max; the
 * first one's sort moves only endpoints beyond it, so the other keeps its position. */
HOT void update_axis(run *r, int k, uint32_t i, uint32_t a, mbp_sap_val oa, mbp_sap_val lo,
                     mbp_sap_val hi)
{
    mbp_sap_state *s = r->s;
    uint32_t b = s->pos[k][2u * i + 1u];
    mbp_sap_val ob = s->val[k][b];
    if (hi > ob) {
        set_endpoint(r, k, b, 2u * i + 1u, ob, hi);
        set_endpoint(r, k, a, 2u * i, oa, lo);
    } else {
        set_endpoint(r, k, a, 2u * i, oa, lo);
        set_endpoint(r, k, b, 2u * i + 1u, ob, hi);
    }
}

/* True when a body's min moves from old to lo farther than its extent (hi - lo): only then can
 * it be a jump, so coherent motion pays a load and a compare for the test below. */
HOT bool far(mbp_sap_val old, mbp_sap_val lo, mbp_sap_val hi)
{
#if MBP_SAP_QUANTIZED || MBP_SCALAR == MBP_FIXED
    return old < lo ? hi - lo < lo - old : hi - lo < old - lo;
#else
    mbp_sap_val d = lo - old;
    return hi - lo < (d < 0.0f ? -d : d);
#endif
}

/* True when body i's min, at position p of axis 0, taking the value lo, would pass at least
 * MBP_SAP_JUMP endpoints: every endpoint between it and the one MBP_SAP_JUMP places away lies
 * beyond lo. */
static bool jumps(const mbp_sap_state *s, uint32_t p, mbp_sap_val lo)
{
    const mbp_sap_val *val = s->val[0];
    uint32_t down = p > MBP_SAP_JUMP ? p - MBP_SAP_JUMP : 0u;
    uint32_t up = p + MBP_SAP_JUMP <= s->n ? p + MBP_SAP_JUMP : s->n + 1u;
    return lo < val[down] || val[up] < lo;
}

/* Body i's endpoint values on every axis (quantized when so built); s->ext grows to cover it. */
static void box_values(mbp_sap_state *s, const mbp_aabb *b, mbp_sap_val *lo, mbp_sap_val *hi)
{
    for (int k = 0; k < MBP_DIM; k++) {
        lo[k] = LO(s, k, b->min[k]);
        hi[k] = HI(s, k, b->max[k]);
    }
    if (hi[0] - lo[0] > s->ext) {
        s->ext = (mbp_sap_val)(hi[0] - lo[0]);
    }
}

/* Batch mode: body i's new values written in place on every axis, not yet sorted; unless hold
 * and it jumps (then nothing is written and it returns false). */
static inline bool write_values(mbp_sap_state *s, const mbp_aabb *b, uint32_t i, bool hold)
{
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_sap_val lo = LO(s, k, b->min[k]);
        mbp_sap_val hi = HI(s, k, b->max[k]);
        uint32_t p = s->pos[k][2u * i];
        if (k == 0) {
            if (hold && far(s->val[0][p], lo, hi) && jumps(s, p, lo)) {
                return false;
            }
            if (hi - lo > s->ext) {
                s->ext = (mbp_sap_val)(hi - lo);
            }
        }
        s->val[k][p] = lo;
        s->val[k][s->pos[k][2u * i + 1u]] = hi;
    }
    return true;
}

/* Batch mode: every moved body's values written in place, except jumpers' (s->jump, up to
 * MBP_SAP_JUMPS of them). Returns the jumpers held. */
MBP__LOOP uint32_t write_all(const mbp__bodies *v, mbp_sap_state *s)
{
    const mbp__bodies lv = *v; /* in registers: the stores below could otherwise reload v's */
    uint32_t held = 0u;
    for (uint32_t d = 0u; d < lv.moved_count; d++) {
        uint16_t i = lv.moved[d];
        if (mbp__in(&lv, i) && !write_values(s, &lv.box[i], i, held < MBP_SAP_JUMPS)) {
            s->jump[held++] = i;
        }
    }
    return held;
}

/* Batch mode, when many bodies moved: their new values are already written in place; one
 * insertion sort pass over the axis moves each endpoint that is out of order down into place,
 * with the same swaps and events as slide_to(). An endpoint already in order costs a load and a
 * compare. Returns false when the swaps exceed the budget (the caller rebuilds). */
HOT bool sort_axis_in(run *r, int k, uint32_t budget)
{
    axis x;
    axis_of(r->s, k, &x);
    mbp__sink *out = r->out;
    uint32_t end = r->s->n + 1u; /* the upper sentinel */
    uint32_t swaps = r->swaps, tests = r->tests, p = 0u; /* the lower sentinel */
    bool ok = true;
    x.val[end] = V_LEFT; /* for this pass, the sentinel stops the scan for the next endpoint */
    for (;;) {
        mbp_sap_val w = x.val[p], v;
        for (;;) {
            p++;
            v = x.val[p];
            if (!(v > w)) {
                break;
            }
            w = v;
        }
        if (p == end) {
            break;
        }
        uint32_t e = x.id[p];
        if (v == w && (x.id[p - 1u] & 1u) <= (e & 1u)) {
            continue; /* a tie in order */
        }
        /* Out of order: the sorted prefix's largest ends at p. */
        swaps += p - slide_to(&x, out, &tests, p, e, v, false);
        if (swaps > budget) {
            ok = false;
            break;
        }
    }
    x.val[end] = V_RIGHT;
    r->swaps = swaps;
    r->tests = tests;
    return ok;
}

/* The pass of sort_axis_in() on each axis, out of line (the loop keeps its variables in
 * registers) with the axis's arrays at fixed places. */
MBP__LOOP bool sort_axis0(run *r, uint32_t budget)
{
    return sort_axis_in(r, 0, budget);
}
MBP__LOOP bool sort_axis1(run *r, uint32_t budget)
{
    return sort_axis_in(r, 1, budget);
}
#if MBP_DIM == 3
MBP__LOOP bool sort_axis2(run *r, uint32_t budget)
{
    return sort_axis_in(r, 2, budget);
}
#endif

HOT bool sort_axis(run *r, int k, uint32_t budget)
{
#if MBP_DIM == 3
    if (k == 2) {
        return sort_axis2(r, budget);
    }
#endif
    return k == 0 ? sort_axis0(r, budget) : sort_axis1(r, budget);
}

/* Few moved: each moved body into place on its own (O(moved + swaps)), or by a jump. Returns
 * true when the swaps exceed the budget or a candidate was lost (the caller rebuilds). */
MBP__LOOP bool sort_moved(run *r, uint32_t budget)
{
    const mbp__bodies *v = r->v;
    mbp_sap_state *s = r->s;
    for (uint32_t d = 0u; d < v->moved_count; d++) {
        uint16_t i = v->moved[d];
        if (!mbp__in(v, i)) {
            continue;
        }
        mbp_sap_val lo[MBP_DIM], hi[MBP_DIM];
        box_values(s, &v->box[i], lo, hi);
        uint32_t a = s->pos[0][2u * i];
        mbp_sap_val oa = s->val[0][a];
        if (far(oa, lo[0], hi[0]) && jumps(s, a, lo[0])) {
            mbp__sap_jump(r, i, lo, hi);
        } else {
            update_axis(r, 0, i, a, oa, lo[0], hi[0]);
            for (int k = 1; k < MBP_DIM; k++) {
                a = s->pos[k][2u * i];
                update_axis(r, k, i, a, s->val[k][a], lo[k], hi[k]);
            }
        }
        if (r->swaps > budget || r->out->ps->lost != 0u) {
            return true;
        }
    }
    return false;
}

/* Drops the endpoints of removed bodies; the others keep their order. */
static void compact(const mbp__bodies *v, mbp_sap_state *s)
{
    uint32_t j = 1u;
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_sap_val *val = s->val[k];
        mbp_sap_idx *id = s->id[k];
        j = 1u;
        for (uint32_t p = 1u; p <= s->n; p++) {
            mbp_sap_idx e = id[p];
            if (mbp__in(v, (uint16_t)(e >> 1))) {
                val[j] = val[p];
                id[j] = e;
                s->pos[k][e] = (mbp_sap_idx)j;
                j++;
            }
        }
        val[j] = V_RIGHT;
        id[j] = 0u;
    }
    s->n = j - 1u;
    s->removed = 0u;
}

/* ---- the rebuild ---- */

static bool ep_less(const mbp_sap_val *v, const mbp_sap_idx *id, uint32_t i, uint32_t j)
{
    return v[i] < v[j] || (v[i] == v[j] && (id[i] & 1u) < (id[j] & 1u));
}

static void ep_swap(mbp_sap_val *v, mbp_sap_idx *id, uint32_t i, uint32_t j)
{
    mbp_sap_val tv = v[i];
    mbp_sap_idx ti = id[i];
    v[i] = v[j];
    id[i] = id[j];
    v[j] = tv;
    id[j] = ti;
}

static void ep_sift(mbp_sap_val *v, mbp_sap_idx *id, uint32_t root, uint32_t n)
{
    for (;;) {
        uint32_t child = 2u * root + 1u;
        if (child >= n) {
            return;
        }
        if (child + 1u < n && ep_less(v, id, child, child + 1u)) {
            child++;
        }
        if (!ep_less(v, id, root, child)) {
            return;
        }
        ep_swap(v, id, root, child);
        root = child;
    }
}

/* Heap sort of n endpoints: in place, O(n log n) whatever the order, no recursion. */
static void ep_heap_sort(mbp_sap_val *v, mbp_sap_idx *id, uint32_t n)
{
    if (n < 2u) {
        return;
    }
    for (uint32_t i = n / 2u; i-- > 0u;) {
        ep_sift(v, id, i, n);
    }
    for (uint32_t end = n - 1u; end > 0u; end--) {
        ep_swap(v, id, 0u, end);
        ep_sift(v, id, 0u, end);
    }
}

static void rebuild(run *r)
{
    mbp__sink *out = r->out;
    mbp_sap_state *s = r->s;
    uint32_t n = s->n;
    uint32_t lost_candidates = 0u, lost = 0u;
    mbp__sink_full_frame(out, true);
    out->ps->lost = 0u; /* what an incremental pass of this update lost is found again below */
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_sap_val *val = s->val[k];
        mbp_sap_idx *id = s->id[k];
        for (uint32_t p = 1u; p <= n; p++) {
            val[p] = ep_value(r->v, s, k, id[p]);
        }
        ep_heap_sort(&val[1], &id[1], n);
        for (uint32_t p = 1u; p <= n; p++) {
            s->pos[k][id[p]] = (mbp_sap_idx)p;
        }
    }
    /* One sweep of axis 0: every body whose min lies between a's min and a's max overlaps a
     * there; each such pair is met once, from the body whose min comes first. */
    const mbp_sap_val *val = s->val[0];
    const mbp_sap_idx *id = s->id[0];
    const mbp_sap_idx *other[MBP_DIM - 1];
    mbp__sap_others0(s, other);
    mbp_sap_val ext = 0;
    for (uint32_t p = 1u; p <= n; p++) {
        mbp_sap_idx e = id[p];
        if (e & 1u) {
            continue;
        }
        uint32_t end = s->pos[0][e + 1u];
        if (val[end] - val[p] > ext) {
            ext = (mbp_sap_val)(val[end] - val[p]);
        }
        uint32_t lo[MBP_DIM - 1], hi[MBP_DIM - 1];
        mbp__sap_span(other, e, lo, hi);
        for (uint32_t q = p + 1u; q < end; q++) {
            mbp_sap_idx f = id[q];
            if (f & 1u) {
                continue;
            }
            r->tests++;
            if (mbp__sap_meets(other, lo, hi, f)) {
                uint32_t before = out->ps->lost;
                mbp__sink_begin(out, (uint16_t)(e >> 1), (uint16_t)(f >> 1));
                if (out->ps->lost != before) {
                    lost_candidates++;
                    lost += mbp__volumes_meet(&out->vol, (uint16_t)(e >> 1), (uint16_t)(f >> 1))
                                ? 1u
                                : 0u;
                }
            }
        }
    }
    s->ext = ext;
    /* Each candidate is met once, so the frame lost exactly the true pairs counted here
     * (mbp__volumes_meet(), exact). A lost candidate that is not a pair (filtered out, volumes
     * apart) is not counted, but the next update must rebuild all the same: the pair set no
     * longer holds every candidate. */
    out->ps->lost = lost;
    s->incomplete = (uint8_t)(lost_candidates != 0u ? 1u : 0u);
}

/* ---- hooks ---- */

mbp_status mbp__sap_init(mbp_sap_state *s, const mbp_params *params)
{
    if (params->sap_budget == 0u) {
        return MBP_E_PARAM;
    }
    s->budget = params->sap_budget;
#if MBP_SAP_QUANTIZED
    const mbp_aabb *wb = &params->sap_world;
    if (mbp_aabb_check(wb) != MBP_OK) {
        return MBP_E_PARAM;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        if (!(wb->min[k] < wb->max[k])) {
            return MBP_E_PARAM;
        }
        s->wmin[k] = wb->min[k];
#if MBP_SCALAR == MBP_FIXED
        s->span[k] = (uint32_t)((int64_t)wb->max[k] - wb->min[k]);
        s->mult[k] = ((uint64_t)Q_STEPS << 32) / s->span[k];
#else
        s->span[k] = wb->max[k] - wb->min[k];
        s->scale[k] = (mbp_scalar)Q_STEPS / s->span[k];
        if (!(s->scale[k] <= FLT_MAX)) {
            return MBP_E_PARAM; /* a box so thin that the scale overflows */
        }
#endif
    }
#endif
    s->n = 0u;
    s->removed = 0u;
    s->ext = 0;
    s->swaps_last = 0u;
    s->jumps_last = 0u;
    s->rebuilds = 0u;
    s->batch_last = 0u;
    s->incomplete = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        s->val[k][0] = V_LEFT;
        s->id[k][0] = 0u;
        s->val[k][1] = V_RIGHT;
        s->id[k][1] = 0u;
    }
    return MBP_OK;
}

mbp_status mbp__sap_add(mbp_sap_state *s, uint16_t i, const mbp_aabb *box)
{
    (void)box; /* placeholders now; the next update reads the box and sorts it into place */
    /* Live and dying bodies have distinct indices, so this cannot fill. */
    MBP__ASSERT(s->n + 2u <= 2u * MBP_MAX_BODIES);
    uint32_t p = s->n + 1u;
    for (int k = 0; k < MBP_DIM; k++) {
        s->val[k][p] = V_NEW;
        s->id[k][p] = (mbp_sap_idx)(2u * i);
        s->pos[k][2u * i] = (mbp_sap_idx)p;
        s->val[k][p + 1u] = V_NEW;
        s->id[k][p + 1u] = (mbp_sap_idx)(2u * i + 1u);
        s->pos[k][2u * i + 1u] = (mbp_sap_idx)(p + 1u);
        s->val[k][p + 2u] = V_RIGHT;
        s->id[k][p + 2u] = 0u;
    }
    s->n += 2u;
    return MBP_OK;
}

void mbp__sap_remove(mbp_sap_state *s, uint16_t i, const mbp_aabb *last)
{
    (void)i;
    (void)last;
    s->removed++;
}

mbp_status mbp__sap_update(mbp_sap_state *s, const mbp__bodies *v, mbp__sink *out)
{
    run r = {v, out, s, 0u, 0u, 0u};
    if (s->removed != 0u) {
        compact(v, s);
    }
    /* After a frame that lost candidates, or when this one loses one (it could not be
     * remembered), the update rebuilds: the rebuild counts the lost pairs exactly. */
    bool full = s->incomplete != 0u || mbp__sink_overflowed(out);
    s->batch_last = 0u;
    if (!full) {
        /* sap_budget swaps a body, times log2(bodies) / 10 from 1024 bodies on: a rebuild costs
         * O(n log n). At most 65535 * 65536 * 16 / 10, kept below 2^32. */
        uint32_t lg = 9u, m = s->n >> 11; /* lg: 10 up to 1024 bodies, then log2(bodies) */
        do {
            lg++;
            m >>= 1;
        } while (m != 0u);
        uint64_t b64 = (uint64_t)s->budget * (s->n / 2u + 1u) * lg / 10u;
        uint32_t budget = b64 < UINT32_MAX ? (uint32_t)b64 : UINT32_MAX;
        if (16u * v->moved_count >= s->n) { /* s->n: 2 endpoints a body */
            /* Many moved: write every new value, then one pass per axis (O(n + swaps)); the
             * jumpers wait, at their old values, and jump once the axes are sorted. */
            uint32_t held = write_all(v, s);
            s->batch_last = 1u;
            for (int k = 0; k < MBP_DIM && !full; k++) {
                full = !sort_axis(&r, k, budget) || out->ps->lost != 0u;
            }
            for (uint32_t j = 0u; j < held && !full; j++) {
                mbp_sap_val lo[MBP_DIM], hi[MBP_DIM];
                box_values(s, &v->box[s->jump[j]], lo, hi);
                mbp__sap_jump(&r, s->jump[j], lo, hi);
                full = r.swaps > budget || out->ps->lost != 0u;
            }
        } else {
            full = sort_moved(&r, budget);
        }
    }
    if (full) {
        rebuild(&r);
        s->rebuilds++;
    }
    s->swaps_last = r.swaps;
    s->jumps_last = r.jumps;
    out->tests = r.tests;
    return MBP_OK;
}

void mbp__sap_query(const mbp_sap_state *s, const mbp__bodies *v, const mbp_aabb *box,
                    mbp__visit_fn fn, void *ctx)
{
    (void)v; /* the stored values answer: bodies moved since are the world's to test */
    mbp_sap_val lo[MBP_DIM], hi[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        lo[k] = LO(s, k, box->min[k]);
        hi[k] = HI(s, k, box->max[k]);
    }
    const mbp_sap_val *val = s->val[0];
    const mbp_sap_idx *id = s->id[0];
    uint32_t a = mbp__sap_find(s, 0, mbp__sap_reach_down(s, lo[0]), false);
    for (uint32_t p = a; p <= s->n && !(hi[0] < val[p]); p++) {
        mbp_sap_idx e = id[p];
        if (e & 1u) {
            continue;
        }
        bool in = !(val[s->pos[0][e + 1u]] < lo[0]);
        for (int k = 1; in && k < MBP_DIM; k++) {
            in = !(hi[k] < s->val[k][s->pos[k][e]]) && !(s->val[k][s->pos[k][e + 1u]] < lo[k]);
        }
        if (in) {
            fn(ctx, (uint16_t)(e >> 1));
        }
    }
}

#endif /* MBP_WITH_SAP */
