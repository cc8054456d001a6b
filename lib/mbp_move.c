/* SPDX-License-Identifier: MIT */
/* mbp_move.c: box moves, one (mbp_move_box()) or many (mbp_move_boxes()), by handle or by index
 * (the _at calls). The common move, a live box body and a good box, is taken here: the checks
 * on the coordinates' bits, the backend told when it wants each move, the box stored and the body
 * listed once for the next update (O(1) plus the backend's move hook). Anything else (a bad box
 * or handle, which tells its error there, a sphere, shape or fast body) goes to
 * mbp__move_box_slow() in mbp_world.c, on the one path that sets a body's volume.
 */
#include "mbp_internal.h"

/* mbp__box_good() for the common move, on the coordinates' bits alone: no float compare (a
 * compare, a move of the flags and a branch on the Cortex-M4; a library call without an FPU).
 * True only for a good box; false for a bad one, and for a max of -0 over a min of +0 (good, as
 * floats compare), which the slow path then takes. Per axis, lo and hi are min's and max's bits:
 * - lo <= 0xDD800000 (unsigned): min >= -2^60, or min's sign is clear (+inf and +NaN included);
 * - hi <= 0x5D800000: max in [+0, 2^60]. Then min <= max is lo <= hi as signed integers (a
 *   negative min is below; a positive one, NaN and inf too, compares as its bits do);
 * - else max's sign must be set (hi >= 0x80000000), and lo >= hi: min is negative too, as large
 *   in magnitude or larger (and so max finite, at least -2^60: hi <= lo <= 0xDD800000).
 * Signed means two's complement, as every target's compiler converts. */
#if MBP_SCALAR == MBP_FIXED
MBP__HOT bool quick_good(const mbp_aabb *b)
{
    return mbp__box_good(b);
}
#else
MBP__HOT bool quick_axis(const mbp_aabb *b, int k)
{
    uint32_t lo = mbp__float_bits(b->min[k]), hi = mbp__float_bits(b->max[k]);
    if (lo > 0xDD800000u) {
        return false;
    }
    if (hi <= 0x5D800000u) {
        return (int32_t)lo <= (int32_t)hi;
    }
    return hi >= 0x80000000u && lo >= hi;
}

MBP__HOT bool quick_good(const mbp_aabb *b)
{
    bool good = quick_axis(b, 0) && quick_axis(b, 1);
#if MBP_DIM == 3
    good = good && quick_axis(b, 2);
#endif
    return good;
}
#endif

/* The common move: a live box body (not a sphere, shape or fast body; other flags allowed) and a
 * good box. Then the backend is told when it wants each move (wants), the box stored and the
 * body listed once for the next update: true, with the backend's status in *st (MBP_OK, or
 * MBP_E_NOROOM with nothing changed). Anything else returns false for mbp__move_box_slow(). */
MBP__HOT bool quick_move(mbp_world *w, mbp_body h, const mbp_aabb *box, bool wants,
                         mbp_status *st)
{
    uint32_t i = (uint32_t)h.slot1 - 1u; /* the null handle wraps past MBP_MAX_BODIES */
    if (i >= (uint32_t)MBP_MAX_BODIES) {
        return false;
    }
    uint32_t f = w->flags[i];
    if ((f & (MBP__LIVE | MBP__DYING | MBP__VOLUME)) != MBP__LIVE || w->gen[i] != h.gen ||
        !quick_good(box)) {
        return false;
    }
    *st = wants ? mbp__backend_move(w, (uint16_t)i, box) : MBP_OK; /* it reads the old box */
    if (*st != MBP_OK) {
        return true;
    }
    w->box[i] = *box;
    if ((f & MBP__DIRTY) == 0u) {
        w->flags[i] = (uint8_t)(f | MBP__DIRTY);
        w->dirty[w->dirty_count++] = (uint16_t)i;
    }
    return true;
}

mbp_status mbp_move_box(mbp_world *w, mbp_body h, const mbp_aabb *box)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(box != NULL);
    mbp_status st;
    if (quick_move(w, h, box, mbp__backend_wants_moves(w), &st)) {
        return st;
    }
    return mbp__move_box_slow(w, h, box);
}

/* A move of move_one() that its fast path would not take: mbp__move_box_slow() with the dirty
 * list's length stored first (next, where its next body goes). Out of line and cold: the loop's
 * values that it does not need can then stay in registers across the call. */
MBP__COLD mbp_status move_slow(mbp_world *w, const uint16_t *next, mbp_body h,
                               const mbp_aabb *b)
{
    w->dirty_count = (uint16_t)(next - w->dirty);
    return mbp__move_box_slow(w, h, b);
}

/* One entry of mbp_move_boxes() or mbp_move_boxes_at(): body i (past the world when the handle
 * or index names none; gen_ok: its generation matched, always true by index) takes box b. The
 * common move in place, with the arrays' bases (flags, box) and the dirty list's next free entry
 * (*next) in the caller's registers; anything else goes to move_slow() with the handle *h, or,
 * by index (h NULL), mbp_handle(): null for a free or dying body. Returns false to
 * stop the list, with the status in *st. wants (a constant where inlined): the backend is told of
 * each move first (mbp__backend_move(); it reads the old box), and its MBP_E_NOROOM stops the
 * list there with that body unchanged. */
MBP__HOT bool move_one(mbp_world *w, uint8_t *flags, mbp_aabb *box, uint32_t i, bool gen_ok,
                       const mbp_body *h, const mbp_aabb *b, uint16_t **next, mbp_status *st,
                       bool wants)
{
    uint32_t f = i < (uint32_t)MBP_MAX_BODIES ? flags[i] : 0u;
    if ((f & (MBP__LIVE | MBP__DYING | MBP__VOLUME)) == MBP__LIVE && gen_ok && quick_good(b)) {
        if (wants) {
            mbp_status bst = mbp__backend_move(w, (uint16_t)i, b);
            if (bst != MBP_OK) {
                *st = bst;
                return false;
            }
        }
        box[i] = *b;
        if ((f & MBP__DIRTY) == 0u) {
            flags[i] = (uint8_t)(f | MBP__DIRTY);
            *(*next)++ = (uint16_t)i;
        }
        return true;
    }
    mbp_status sst = move_slow(w, *next, h != NULL ? *h : mbp_handle(w, (uint16_t)i), b);
    *next = &w->dirty[w->dirty_count];
    if (sst != MBP_OK) {
        *st = sst;
        return false;
    }
    return true;
}

/* mbp_move_boxes(): move_one() for the handles from h up to end (at least one) and their boxes
 * from b on. Returns the first handle not moved, end when all were, with the status in *st. Each
 * handle is read where it lies (no copy kept for the slow path), the list's start is not kept and
 * st is a fifth argument (on the stack): fewer live values, so the loop spills less. */
MBP__HOT const mbp_body *move_list_in(mbp_world *w, const mbp_body *h, const mbp_body *end,
                                      const mbp_aabb *b, mbp_status *st, bool wants)
{
    uint8_t *flags = w->flags;
    mbp_aabb *box = w->box;
    const uint16_t *gen = w->gen;
    uint16_t *next = &w->dirty[w->dirty_count]; /* where the next body listed goes */
    *st = MBP_OK;
    do {
        uint32_t i = (uint32_t)h->slot1 - 1u; /* the null handle wraps past MBP_MAX_BODIES */
        if (!move_one(w, flags, box, i, i < (uint32_t)MBP_MAX_BODIES && gen[i] == h->gen, h, b,
                      &next, st, wants)) {
            break;
        }
        h++;
        b++;
    } while (h != end);
    w->dirty_count = (uint16_t)(next - w->dirty);
    return h;
}

/* The two loops of move_list_in(), each out of line (its variables in registers): for a backend
 * that reads the dirty list, and for one that wants each move. */
MBP__LOOP const mbp_body *move_list(mbp_world *w, const mbp_body *h, const mbp_body *end,
                                    const mbp_aabb *b, mbp_status *st)
{
    return move_list_in(w, h, end, b, st, false);
}

MBP__LOOP const mbp_body *move_list_told(mbp_world *w, const mbp_body *h, const mbp_body *end,
                                         const mbp_aabb *b, mbp_status *st)
{
    return move_list_in(w, h, end, b, st, true);
}

mbp_status mbp_move_boxes(mbp_world *w, uint32_t n, const mbp_body *bodies,
                          const mbp_aabb *boxes, uint32_t *done)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(n == 0u || (bodies != NULL && boxes != NULL));
    uint32_t j = 0u;
    mbp_status st = MBP_OK;
    /* With n 0, bodies and boxes may be NULL: the loops' pointer arithmetic would be undefined. */
    if (n != 0u) {
        const mbp_body *end = &bodies[n];
        const mbp_body *at = mbp__backend_wants_moves(w)
                                 ? move_list_told(w, bodies, end, boxes, &st)
                                 : move_list(w, bodies, end, boxes, &st);
        j = (uint32_t)(at - bodies);
    }
    if (done != NULL) {
        *done = j;
    }
    return st;
}

/* mbp_move_boxes_at(): move_one() for the indices from x up to end (at least one): an index has
 * no generation to check. Returns the first index not moved, end when all were. */
MBP__HOT const uint16_t *index_list_in(mbp_world *w, const uint16_t *x, const uint16_t *end,
                                       const mbp_aabb *b, mbp_status *st, bool wants)
{
    uint8_t *flags = w->flags;
    mbp_aabb *box = w->box;
    uint16_t *next = &w->dirty[w->dirty_count];
    *st = MBP_OK;
    do {
        if (!move_one(w, flags, box, *x, true, NULL, b, &next, st, wants)) {
            break;
        }
        x++;
        b++;
    } while (x != end);
    w->dirty_count = (uint16_t)(next - w->dirty);
    return x;
}

MBP__LOOP const uint16_t *index_list(mbp_world *w, const uint16_t *x, const uint16_t *end,
                                     const mbp_aabb *b, mbp_status *st)
{
    return index_list_in(w, x, end, b, st, false);
}

MBP__LOOP const uint16_t *index_list_told(mbp_world *w, const uint16_t *x, const uint16_t *end,
                                          const mbp_aabb *b, mbp_status *st)
{
    return index_list_in(w, x, end, b, st, true);
}

mbp_status mbp_move_boxes_at(mbp_world *w, uint32_t n, const uint16_t *index,
                             const mbp_aabb *boxes, uint32_t *done)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(n == 0u || (index != NULL && boxes != NULL));
    uint32_t j = 0u;
    mbp_status st = MBP_OK;
    if (n != 0u) {
        const uint16_t *end = &index[n];
        const uint16_t *at = mbp__backend_wants_moves(w)
                                 ? index_list_told(w, index, end, boxes, &st)
                                 : index_list(w, index, end, boxes, &st);
        j = (uint32_t)(at - index);
    }
    if (done != NULL) {
        *done = j;
    }
    return st;
}

mbp_status mbp_move_box_at(mbp_world *w, uint16_t index, const mbp_aabb *box)
{
    return mbp_move_box(w, mbp_handle(w, index), box);
}
