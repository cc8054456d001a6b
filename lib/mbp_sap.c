/* SPDX-License-Identifier: MIT */
/* mbp_sap.c: incremental sweep and prune on every axis: the design, the rebuild and the hooks
 * (the incremental sort is in mbp_sap_sort.c, the jumps in mbp_sap_jump.c).
 *
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
 * Two ways to sort, with the same swaps and events (mbp_sap_sort.c, which says how): each moved
 * body on its own when few moved, one insertion sort pass per axis when many did.
 * Jumps: a moved body whose min would pass at least MBP_SAP_JUMP (32) endpoints of axis 0 (looked
 * at only when the min moves farther than the body's extent: coherent motion pays a load and a
 * compare) is not sorted but taken out and put back by block moves (mbp_sap_jump.c, which says
 * how). When few bodies moved, a jumper jumps in its turn; when many did, the jumpers (up to
 * MBP_SAP_JUMPS) keep their old values during the sort passes and jump after them, when every
 * axis is sorted; more than that are sorted like the others. When one by one they would shift
 * more than twice the endpoints of axis 0 (teleports across the world), they jump together
 * instead: their pairs end, each axis drops and merges back their endpoints so that every other
 * endpoint moves once at most, their new pairs begin (mbp_sap_jump.c). New bodies jump too
 * (their placeholders lie above every value).
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
 * places (a few instructions each, no call), plus O(1) per pair begun or ended; j jumpers
 * together, O(j log j + n) per axis, each endpoint moved once at most.
 * Queries: a binary search on axis 0 for min >= query min - s->ext, then a scan to the query
 * max, checking the other axes on stored values: O(log n + bodies in that window). s->ext bounds
 * the extent on axis 0 of every body but one, the largest (s->big, kept by mbp__sap_cover() and
 * the rebuild), which a query or a jump tests on its own: one heavy body among small ones would
 * otherwise widen every window to its size (the smash scene: about a quarter of SAP's frame at
 * 1024 bodies on the M4).
 *
 * Why the endpoints keep values of their own, a second copy of each box (16 bytes a body in 2D
 * float): the sort could read them from the world's boxes through the endpoint ids. That was
 * built and measured. Each value read in the sort loops then costs an id load and an address
 * more. An update no longer sees a moved body's old values, so the bodies not yet in place must
 * be told apart in the loops, and the jump test and the extent bound lose their cheap forms. When
 * many bodies moved, that cost as much as the copy it saved; when few moved, it cost more.
 *
 * MBP_SAP_QUANTIZED: values are 16 bits over mbp_params.sap_world, mins rounded down and maxes
 * up (both by the same monotone map, clamped into the box), so every overlap survives and a few
 * extra candidates appear; the world's exact test removes them. Bodies outside the box are clamped
 * to its border: still exact, only slower if many are there.
 */
#include "mbp_heap.h"
#include "mbp_sap_run.h"

#if MBP_WITH_SAP

#if MBP_SAP_QUANTIZED
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
#endif

/* ---- removes and the rebuild ---- */

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
    if (s->big != 0u && !mbp__in(v, (uint16_t)(s->big - 1u))) {
        s->big = 0u; /* gone: s->ext covers every body left */
    }
}

/* Endpoints to sort: values with their ids beside them. */
typedef struct {
    mbp_sap_val *v;
    mbp_sap_idx *id;
} endpoints;

static bool ep_before(const void *h, uint32_t i, uint32_t j)
{
    const endpoints *x = (const endpoints *)h;
    return mbp__sap_before(x->v[i], x->id[i], x->v[j], x->id[j]);
}

static void ep_swap(void *h, uint32_t i, uint32_t j)
{
    const endpoints *x = (const endpoints *)h;
    mbp_sap_val tv = x->v[i];
    mbp_sap_idx ti = x->id[i];
    x->v[i] = x->v[j];
    x->id[i] = x->id[j];
    x->v[j] = tv;
    x->id[j] = ti;
}

static void rebuild(mbp__sap_run *r)
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
            val[p] = mbp__sap_value(r->v, s, k, id[p]);
        }
        endpoints eps = {&val[1], &id[1]};
        mbp__heap_sort(&eps, n, ep_before, ep_swap);
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
    mbp_sap_val ext = 0, top = 0; /* the second largest extent and the largest */
    uint32_t big = 0u;
    for (uint32_t p = 1u; p <= n; p++) {
        mbp_sap_idx e = id[p];
        if (e & 1u) {
            continue;
        }
        uint32_t end = s->pos[0][e + 1u];
        mbp_sap_val d = (mbp_sap_val)(val[end] - val[p]);
        if (d > top || big == 0u) {
            ext = top;
            top = d;
            big = (uint32_t)e / 2u + 1u;
        } else if (d > ext) {
            ext = d;
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
    s->big = big;
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
    s->big = 0u;
    s->swaps_last = 0u;
    s->jumps_last = 0u;
    s->rebuilds = 0u;
    s->batch_last = 0u;
    s->merged_last = 0u;
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
    /* Field by field: an initializer would zero r.ax too (a memset each update); it is set by
     * mbp__sap_sort_moved(), the one that reads it. */
    mbp__sap_run r;
    r.v = v;
    r.out = out;
    r.s = s;
    r.swaps = 0u;
    r.tests = 0u;
    r.jumps = 0u;
    r.keep = 0; /* written before it is read (mbp_sap_sort.c, cross()); set for the checkers */
    if (s->removed != 0u) {
        compact(v, s);
    }
    /* After a frame that lost candidates, or when this one loses one (it could not be
     * remembered), the update rebuilds: the rebuild counts the lost pairs exactly. */
    bool full = s->incomplete != 0u || mbp__sink_overflowed(out);
    s->batch_last = 0u;
    s->merged_last = 0u;
    /* When nothing moved or came, there is nothing to sort: the update costs O(1) (removed
     * bodies' endpoints went above). */
    if (!full && v->moved_count != 0u) {
        /* sap_budget swaps a body, times log2(bodies) / 10 from 1024 bodies on: a rebuild costs
         * O(n log n). Clamped below 2^31 (32767 swaps a body at 65536 bodies), so that a
         * batch pass's count of swaps left wraps past it when it runs out (sort_axis()). The
         * division is a 32-bit one: in 64 bits it is a libgcc call on Cortex-M. */
        uint32_t lg = 9u, m = s->n >> 11; /* lg: 10 up to 1024 bodies, then log2(bodies) */
        do {
            lg++;
            m >>= 1;
        } while (m != 0u);
        uint64_t b64 = (uint64_t)((uint32_t)s->budget * lg / 10u) * (s->n / 2u + 1u);
        uint32_t budget = b64 < 0x7FFFFFFFu ? (uint32_t)b64 : 0x7FFFFFFFu;
        if (16u * v->moved_count >= s->n) { /* s->n: 2 endpoints a body */
            s->batch_last = 1u;
            full = mbp__sap_sort_all(&r, budget);
        } else {
            full = mbp__sap_sort_moved(&r, budget);
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

/* True when the body of min endpoint e, whose min is at most hi[0], meets lo..hi by its stored
 * values. */
static bool stored_meets(const mbp_sap_state *s, uint32_t e, const mbp_sap_val *lo,
                         const mbp_sap_val *hi)
{
    bool in = !(s->val[0][s->pos[0][e + 1u]] < lo[0]);
    for (int k = 1; in && k < MBP_DIM; k++) {
        in = !(hi[k] < s->val[k][s->pos[k][e]]) && !(s->val[k][s->pos[k][e + 1u]] < lo[k]);
    }
    return in;
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
    if (s->big != 0u) { /* the big body, when its min lies below the scan (s->ext skips it) */
        uint32_t e = 2u * (s->big - 1u);
        if (s->pos[0][e] < a && stored_meets(s, e, lo, hi)) {
            fn(ctx, (uint16_t)(e >> 1));
        }
    }
    for (uint32_t p = a; p <= s->n && !(hi[0] < val[p]); p++) {
        mbp_sap_idx e = id[p];
        if ((e & 1u) == 0u && stored_meets(s, e, lo, hi)) {
            fn(ctx, (uint16_t)(e >> 1));
        }
    }
}

#endif /* MBP_WITH_SAP */