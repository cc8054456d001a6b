/* SPDX-License-Identifier: MIT */
/* mbp_sap_sort.c: the SAP's incremental sort (mbp_sap.c has the design, the rebuild and the
 * hooks; mbp_sap_jump.c the jumps).
 *
 * Two ways to sort, with the same swaps and events: when few bodies moved (m < n/16), each moved
 * body's endpoints are written and sifted into place one at a time; when many moved, all new
 * values are written first and one insertion sort pass per axis puts them in order (an endpoint
 * already in order costs a load and a compare; pairs of bodies that move together swap less).
 * Either way the invariant is the same: a pair is a candidate exactly when its bodies' endpoint
 * positions overlap on every axis; every swap of a min with a max changes that on one axis and
 * checks the others by position, so any sequence of adjacent swaps keeps it.
 */
#include "mbp_sap_run.h"

#if MBP_WITH_SAP

/* The insertion sort's inner loops are inlined into each caller: on Cortex-M the call, with its
 * register saves and address set-up, costs as much as a swap (MBP__SAP_HOT: forced only when
 * optimizing, so that the coverage build counts each branch once). */
#define HOT MBP__SAP_HOT

typedef mbp__sap_run run; /* one update (mbp_sap_run.h) */

/* Axis k's arrays, and the positions of the other axes, loaded once by a sort loop (in
 * registers there: the pair sink's calls could otherwise make it reload them from the state). */
typedef mbp__sap_axis axis;

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

/* Where cross() parks a moved body's endpoint value around the sink's calls: float values only.
 * An integer value (fixed point, quantized) is in a core register, which the parking would only
 * add stores to (the Cortex-M0: +2% on the level scene). */
#if MBP_SCALAR == MBP_FLOAT && !MBP_SAP_QUANTIZED
#define KEEP(r) (&(r)->keep)
#else
#define KEEP(r) NULL
#endif

/* Endpoint e, moving down (or up when up) on axis x, passes f, of the other kind: when their
 * bodies overlap on the other axes (positions only), the pair begins (a min passing a max down,
 * or a max passing a min upwards) or ends (the other two). e's positions are loaded here: most
 * slides pass no endpoint of the other kind, and the loops have no registers to spare for them.
 * out is read at a pair only (a slide of a moved body keeps no register for it). Given keep
 * (KEEP(); NULL in the batch pass), e's value v is stored there before the sink's
 * call and read back after it: v is then not live across the call, so the sift keeps it in the
 * register it came in (s0 on an FPU), not in one the call must keep (a vpush, a vpop and a move
 * on every sift, where pairs begin or end on few of them). */
HOT void cross(const axis *x, mbp__sink *const *out, uint32_t *tests, uint32_t e, uint32_t f,
               bool up, mbp_sap_val *v, mbp_sap_val *keep)
{
    uint32_t lo[MBP_DIM - 1], hi[MBP_DIM - 1];
    mbp__sap_span(x->other, e, lo, hi);
    (*tests)++;
    if (mbp__sap_meets(x->other, lo, hi, f)) {
        if (keep != NULL) {
            *keep = *v;
        }
        /* e a max going up (f a min), or a min going down: told by f, which the loops have in
         * a register (gcc would keep e's kind apart, in a register or a spill). */
        if (((f & 1u) == 0u) == up) {
            mbp__sink_begin(*out, (uint16_t)(e >> 1), (uint16_t)(f >> 1));
        } else {
            mbp__sink_end(*out, (uint16_t)(e >> 1), (uint16_t)(f >> 1));
        }
        if (keep != NULL) {
            *v = *keep;
        }
    }
}

/* Endpoint e, at position p of axis x, takes the value v and moves down into place, past the
 * endpoints that sort after it (the batch pass's slides: slide_moved() sorts a moved body's
 * endpoints either way); returns its new position. A min and a max swapping change the overlap
 * of their bodies on this axis: cross() tells the pair when they overlap on the others. The lower
 * sentinel stops it. */
HOT uint32_t slide_to(const axis *x, mbp__sink *out, uint32_t *tests, uint32_t p, uint32_t e,
                      mbp_sap_val v)
{
    for (;;) {
        uint32_t q = p - 1u;
        mbp_sap_val w = x->val[q];
        uint32_t f = x->id[q];
        if (!mbp__sap_before(v, e, w, f)) {
            break;
        }
        x->val[p] = w;
        x->id[p] = (mbp_sap_idx)f;
        x->pos[f] = (mbp_sap_idx)p;
        if (((f ^ e) & 1u) != 0u) {
            cross(x, &out, tests, e, f, false, NULL, NULL);
        }
        p = q;
    }
    x->val[p] = v;
    x->id[p] = (mbp_sap_idx)e;
    x->pos[e] = (mbp_sap_idx)p;
    return p;
}

/* slide_to() for a moved body's endpoint, either way, by pointer: the last stores reuse the
 * loop's (no base register kept), and going down vp stays one below p (a load that steps its
 * pointer, a store at an offset). The run's counts are loaded where used: the loop keeps only r
 * in a register. (The batch pass keeps slide_to(): its slides start from positions it has in
 * registers, this one's set-up would cost it more.) */
HOT uint32_t slide_moved(const axis *x, run *r, uint32_t p, uint32_t e, mbp_sap_val v, bool up)
{
    mbp_sap_val *vp = up ? &x->val[p] : &x->val[p - 1u];
    mbp_sap_idx *ip = &x->id[p];
    for (;;) {
        mbp_sap_val w = up ? vp[1] : vp[0];
        uint32_t f = up ? ip[1] : ip[-1];
        if (!(up ? mbp__sap_before(w, f, v, e) : mbp__sap_before(v, e, w, f))) {
            break;
        }
        if (up) {
            vp[0] = w;
        } else {
            vp[1] = w;
        }
        *ip = (mbp_sap_idx)f;
        x->pos[f] = (mbp_sap_idx)p;
        if (((f ^ e) & 1u) != 0u) {
            cross(x, &r->out, &r->tests, e, f, up, &v, KEEP(r));
        }
        if (up) {
            vp++;
            ip++;
            p++;
        } else {
            vp--;
            ip--;
            p--;
        }
    }
    if (up) {
        vp[0] = v;
    } else {
        vp[1] = v;
    }
    *ip = (mbp_sap_idx)e;
    x->pos[e] = (mbp_sap_idx)p;
    return p;
}

/* slide_moved() for one endpoint of a moved body, with the run's swaps. */
HOT void sift_in(run *r, int k, uint32_t p, uint32_t e, mbp_sap_val v, bool up)
{
    axis x = r->ax[k];
    /* The swaps are base + q (up) at the end: base is kept instead of p, and the end adds one
     * register to it (no reload of r->swaps, no subtraction). Nothing else changes r->swaps
     * during a slide. Unsigned: the wrap of r->swaps - p undoes itself. */
    uint32_t base = up ? r->swaps - p : r->swaps + p;
    uint32_t q = slide_moved(&x, r, p, e, v, up);
    r->swaps = up ? base + q : base - q;
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
HOT void set_endpoint(run *r, mbp_sap_state *s, int k, uint32_t p, uint32_t e, mbp_sap_val old,
                      mbp_sap_val v)
{
    mbp_sap_val *val = s->val[k];
    const mbp_sap_idx *id = s->id[k];
    /* A tie is !(a < b) after a > b, not a == b (the same for stored values, never NaN): the
     * float compare is made once, and the id is loaded only on a tie. */
    if (v < old) {
        mbp_sap_val pv = val[p - 1u];
        if (pv > v) {
            sift(r, k, p, e, v, true);
            return;
        }
        if (!(pv < v) && (id[p - 1u] & 1u) > (e & 1u)) {
            sift(r, k, p, e, v, true);
            return;
        }
    } else if (old < v) {
        mbp_sap_val nv = val[p + 1u];
        if (nv < v) {
            sift(r, k, p, e, v, false);
            return;
        }
        if (!(nv > v) && (id[p + 1u] & 1u) < (e & 1u)) {
            sift(r, k, p, e, v, false);
            return;
        }
    }
    val[p] = v;
}

/* Body i's endpoints on axis k, at positions a < b with the values oa and ob, take the values lo
 * and hi. The side that grows outwards goes first, so the min never passes its own max; the
 * first one's sort moves only endpoints beyond it, so the other keeps its position. */
HOT void update_axis(run *r, mbp_sap_state *s, int k, uint32_t i, uint32_t a, mbp_sap_val oa,
                     mbp_sap_val lo, mbp_sap_val hi)
{
    uint32_t b = s->pos[k][2u * i + 1u];
    mbp_sap_val ob = s->val[k][b];
    if (hi > ob) {
        set_endpoint(r, s, k, b, 2u * i + 1u, ob, hi);
        set_endpoint(r, s, k, a, 2u * i, oa, lo);
    } else {
        set_endpoint(r, s, k, a, 2u * i, oa, lo);
        set_endpoint(r, s, k, b, 2u * i + 1u, ob, hi);
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
#if defined(__GNUC__)
    return hi - lo < __builtin_fabsf(d); /* one vabs on an FPU; d is never NaN (checked boxes) */
#else
    return hi - lo < (d < 0.0f ? -d : d);
#endif
#endif
}

/* True when body i's min, at position p of axis 0, taking the value lo, would pass at least
 * MBP_SAP_JUMP endpoints: every endpoint between it and the one MBP_SAP_JUMP places away lies
 * beyond lo. Inlined: write_all()'s loop then makes no call, and keeps its values in registers
 * (r0-r3 and r12 too). */
HOT bool jumps(const mbp_sap_state *s, uint32_t p, mbp_sap_val lo)
{
    const mbp_sap_val *val = s->val[0];
    uint32_t down = p > MBP_SAP_JUMP ? p - MBP_SAP_JUMP : 0u;
    uint32_t up = p + MBP_SAP_JUMP <= s->n ? p + MBP_SAP_JUMP : s->n + 1u;
    return lo < val[down] || val[up] < lo;
}

/* Body i jumps to the values of its box b (covered already). */
static void jump_box(run *r, uint32_t i, const mbp_aabb *b)
{
    mbp_sap_val lo[MBP_DIM], hi[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        lo[k] = LO(r->s, k, b->min[k]);
        hi[k] = HI(r->s, k, b->max[k]);
    }
    mbp__sap_jump(r, i, lo, hi);
}

/* Batch mode: every moved body's values written in place, except jumpers' (up to MBP_SAP_JUMPS
 * of them: s->jump holds both endpoint ids of each). Returns the jumpers held. Each axis's values
 * have a base register, the axes written one by one: no loop over the axes, no array of bases
 * (gcc would address each store from the state, or keep the bases on the stack). */
MBP__LOOP uint32_t write_all(const mbp__bodies *v, mbp_sap_state *s)
{
    const mbp_aabb *box = v->box; /* locals: the stores could otherwise make gcc reload v's */
    const uint8_t *flags = v->flags;
    const uint16_t *m = v->moved, *end = &v->moved[v->moved_count];
    mbp_sap_val *val0 = s->val[0], *val1 = s->val[1];
#if MBP_DIM == 3
    mbp_sap_val *val2 = s->val[2];
#endif
    mbp_sap_val ext = s->ext; /* a local, for the same reason: only mbp__sap_cover() sets it */
    uint32_t held = 0u;
    for (; m != end; m++) {
        uint16_t i = *m;
        if (!mbp__in_flags(flags, i)) {
            continue;
        }
        const mbp_aabb *b = &box[i];
        mbp_sap_val lo = LO(s, 0, b->min[0]);
        mbp_sap_val hi = HI(s, 0, b->max[0]);
        uint32_t p = s->pos[0][2u * i];
        /* far() first: it is rarely true, and only then is the room for a jumper checked */
        if (far(val0[p], lo, hi) && held < MBP_SAP_JUMPS && jumps(s, p, lo)) {
            s->jump[2u * held] = (mbp_sap_idx)(2u * i);
            s->jump[2u * held + 1u] = (mbp_sap_idx)(2u * i + 1u);
            held++;
            continue;
        }
        if ((mbp_sap_val)(hi - lo) > ext) { /* mbp__sap_cover()'s first test */
            mbp__sap_cover(s, i, (mbp_sap_val)(hi - lo));
            ext = s->ext;
        }
        val0[p] = lo;
        val0[s->pos[0][2u * i + 1u]] = hi;
        val1[s->pos[1][2u * i]] = LO(s, 1, b->min[1]);
        val1[s->pos[1][2u * i + 1u]] = HI(s, 1, b->max[1]);
#if MBP_DIM == 3
        val2[s->pos[2][2u * i]] = LO(s, 2, b->min[2]);
        val2[s->pos[2][2u * i + 1u]] = HI(s, 2, b->max[2]);
#endif
    }
    return held;
}

/* Batch mode, when many bodies moved: their new values are already written in place; one
 * insertion sort pass over the axis moves each endpoint that is out of order down into place,
 * with the same swaps and events as slide_to(). An endpoint already in order costs a load and a
 * compare. One loop for every axis, out of line, given the axis's arrays: it keeps them in
 * registers (gcc, given the state, addresses each array from it and spills what that crowds
 * out). Given the swaps left in the budget and the tests so far, returns both (tests << 32 |
 * left; past the budget, left wraps and the pass stops): no pointer to the run is kept, and
 * its register holds an array (M4 profile, SAP sparse 256: 33,737 to 32,248 a frame). */
MBP__LOOP uint64_t sort_pass(const axis *ax, mbp__sink *out, uint32_t end, uint32_t left,
                             uint32_t tests)
{
    const axis x = *ax;
    uint32_t p = 1u;
    x.val[end] = V_LEFT; /* for this pass, the sentinel stops the scan for the next endpoint */
    mbp_sap_val w = x.val[0]; /* the sorted prefix's largest, at p - 1 */
    for (;;) {
        /* The scan for the next endpoint out of order, two at a time (w and v take turns as the
         * larger value: no copy between them). Ends with v at p and w at p - 1. */
        mbp_sap_val v;
        for (;;) {
            v = x.val[p];
            if (!(v > w)) {
                break;
            }
            w = x.val[p + 1u];
            if (!(w > v)) {
                p++;
                mbp_sap_val t = v;
                v = w;
                w = t;
                break;
            }
            p += 2u;
        }
        if (p == end) {
            break;
        }
        uint32_t e = x.id[p];
        if (!mbp__sap_before(v, e, w, x.id[p - 1u])) {
            w = v; /* a tie in order */
            p++;
            continue;
        }
        /* Out of order: e passes f, the endpoint at p - 1, at once (the endpoint at p is then w
         * again, the prefix's largest), then slides on. */
        uint32_t f = x.id[p - 1u];
        x.val[p] = w;
        x.id[p] = (mbp_sap_idx)f;
        x.pos[f] = (mbp_sap_idx)p;
        if (((f ^ e) & 1u) != 0u) {
            cross(&x, &out, &tests, e, f, false, NULL, NULL);
        }
        uint32_t n = p - slide_to(&x, out, &tests, p - 1u, e, v);
        if (n > left) {
            left -= n; /* swaps > budget: wraps past any budget (sort_axis()) */
            break;
        }
        left -= n;
        p++;
    }
    x.val[end] = V_RIGHT;
    return (uint64_t)tests << 32 | left;
}

/* Axis k by one batch pass; false when the swaps exceed the budget (the caller rebuilds). Called
 * only while r->swaps <= budget (mbp__sap_sort_all() stops at the first false), so the swaps
 * left, budget - r->swaps, do not wrap. */
HOT bool sort_axis(run *r, int k, uint32_t budget)
{
    axis x;
    axis_of(r->s, k, &x);
    uint64_t got = sort_pass(&x, r->out, r->s->n + 1u, budget - r->swaps, r->tests);
    uint32_t left = (uint32_t)got;
    r->swaps = budget - left; /* exact past the budget too (mod 2^32) */
    r->tests = (uint32_t)(got >> 32);
    return left <= budget;
}

/* Few moved: each moved body into place on its own (O(moved + swaps)), or by a jump. Returns
 * true when the swaps exceed the budget or a candidate was lost (the caller rebuilds). */
bool mbp__sap_sort_moved(run *r, uint32_t budget)
{
    const mbp__bodies *v = r->v;
    mbp_sap_state *s = r->s;
    for (int k = 0; k < MBP_DIM; k++) {
        axis_of(s, k, &r->ax[k]);
    }
    const uint16_t *end = &v->moved[v->moved_count];
    for (const uint16_t *m = v->moved; m != end; m++) {
        uint16_t i = *m;
        if (!mbp__in(v, i)) {
            continue;
        }
        /* The box read axis by axis where used, not into arrays: those would live in memory
         * (the jump takes them by address), a store and a load each on every move. */
        const mbp_aabb *b = &v->box[i];
        mbp_sap_val lo = LO(s, 0, b->min[0]), hi = HI(s, 0, b->max[0]);
        mbp__sap_cover(s, i, (mbp_sap_val)(hi - lo));
        uint32_t a = s->pos[0][2u * i];
        mbp_sap_val oa = s->val[0][a];
        if (far(oa, lo, hi) && jumps(s, a, lo)) {
            jump_box(r, i, b);
        } else {
            update_axis(r, s, 0, i, a, oa, lo, hi);
            for (int k = 1; k < MBP_DIM; k++) {
                a = s->pos[k][2u * i];
                update_axis(r, s, k, i, a, s->val[k][a], LO(s, k, b->min[k]), HI(s, k, b->max[k]));
            }
        }
        if (r->swaps > budget) {
            return true;
        }
    }
    /* A lost candidate is checked once, here: the bodies after it sort as usual (the sink
     * counts what it cannot keep), and the rebuild that follows recounts every pair. */
    return r->out->ps->lost != 0u;
}

/* Many moved: every new value written, then one pass per axis (O(n + swaps)); the jumpers
 * wait, at their old values, and jump once the axes are sorted: together when their jumps
 * would shift many endpoints several times (mbp__sap_merge_pays()), else one by one. Returns
 * true when the swaps exceed the budget or a candidate was lost (the caller rebuilds). */
bool mbp__sap_sort_all(run *r, uint32_t budget)
{
    const mbp__bodies *v = r->v;
    mbp_sap_state *s = r->s;
    uint32_t held = write_all(v, s);
    bool full = false;
    for (int k = 0; k < MBP_DIM && !full; k++) {
        full = !sort_axis(r, k, budget) || r->out->ps->lost != 0u;
    }
    if (!full && held >= 2u && mbp__sap_merge_pays(r, held)) {
        mbp__sap_jump_all(r, held);
        return r->swaps > budget || r->out->ps->lost != 0u;
    }
    for (uint32_t j = 0u; j < held && !full; j++) {
        uint32_t i = s->jump[2u * j] >> 1;
        const mbp_aabb *b = &v->box[i];
        mbp__sap_cover(s, i, (mbp_sap_val)(HI(s, 0, b->max[0]) - LO(s, 0, b->min[0])));
        jump_box(r, i, b);
        full = r->swaps > budget || r->out->ps->lost != 0u;
    }
    return full;
}

#endif /* MBP_WITH_SAP */
