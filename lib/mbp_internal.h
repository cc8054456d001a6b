/* SPDX-License-Identifier: MIT */
/* mbp_internal.h: what the world's files share (mbp_world.c, mbp_move.c, mbp_update.c,
 * mbp_output.c, mbp_query.c, mbp_backend.c, the shape and fast-body code). Not for users.
 * Backends do not include it: they see only mbp_bp.h.
 */
#ifndef MBP_INTERNAL_H
#define MBP_INTERNAL_H

#include "mbp_bp.h"

#define MBP__MAGIC 0x6D627030u /* "mbp0" */
/* The world argument: a message the user can act on rather than the expression. */
#if MBP_ASSERT
#define MBP__CHECK_WORLD(w)                                                                        \
    ((w) == NULL ? mbp_port_assert_failed("world is NULL", __FILE__, __LINE__)                     \
     : (w)->magic != MBP__MAGIC                                                                    \
         ? mbp_port_assert_failed("world not initialised: call mbp_init() first", __FILE__, __LINE__) \
         : (void)0)
#else
#define MBP__CHECK_WORLD(w) ((void)0)
#endif

/* True when body i takes part in this frame's pairs (live and not removed). */
static inline bool mbp__active(const mbp_world *w, uint16_t i)
{
    return (w->flags[i] & (MBP__LIVE | MBP__DYING)) == MBP__LIVE;
}

/* Body i's flags become f, with w->special_count kept (the bodies, live or dying, that have a
 * special flag, MBP__SPECIAL) and w->special set when f has one: its pairs need their exact test
 * at the next update (mbp_update() clears w->special again once no such body is left). Every
 * write of a body's flags goes through here, except mbp_init()'s and the writes of MBP__DIRTY
 * alone, which cannot change either. Out of line (mbp_world.c): no hot path calls it. */
void mbp__set_flags(mbp_world *w, uint16_t i, uint32_t f);

/* Lists body i for the next update (once). Every change of a body's volume or filter comes here
 * after its flags are set (mbp_world.c), and a restart marks every active body (mbp_update.c). */
MBP__HOT void mbp__mark_dirty(mbp_world *w, uint16_t i)
{
    if ((w->flags[i] & MBP__DIRTY) == 0u) {
        w->flags[i] |= MBP__DIRTY;
        w->dirty[w->dirty_count++] = i;
    }
}

/* Whether a backend whose few-moved updates are exact (mbp__sink_end_moved(): brute force, sweep)
 * is compiled in. Without one, ps->exact is never set, and a build without SAP leaves out the
 * frame from the log (apply_log(), mbp_update.c): about 170 bytes of flash. */
#define MBP__EXACT_FEW (MBP_WITH_BRUTE || MBP_WITH_SWEEP)

/* The backend was built anew: see mbp_update.c (mbp_shift_origin(), mbp_shift.c). */
void mbp__pairs_restart(mbp_world *w);
#if MBP_WITH_KDOP
/* k translated by -d (mbp_kdop.c): each slab by d's projection on its axis. */
void mbp__kdop_translate(mbp_kdop *k, const mbp_scalar d[MBP_DIM]);
#endif

/* ---- exact tests the core applies to candidates (mbp_update.c) ---- */
bool mbp__exact(const mbp_world *w, uint16_t a, uint16_t b);
/* The world's volumes as plain data, for the tests under it (mbp__volumes_meet()). */
mbp__volumes mbp__world_volumes(const mbp_world *w);

/* ---- shapes and fast bodies (mbp_shape.c, mbp_shape_body.c, mbp_swept.c) ---- */
/* The box of a shape of this kind in its stored form (p: the shape's data, a stored k-DOP
 * tight), from mbp_shape.c, which knows no world. */
void mbp__stored_aabb(uint8_t kind, const void *p, mbp_aabb *out);
/* Body i's own volume as a shape (its box, sphere, shape, or a fast body's own box; not its
 * bound of the step). */
void mbp__own_shape(const mbp_world *w, uint16_t i, mbp_shape *out);
/* Queries: true when body i's volume overlaps box (i is a shape body, box overlaps its box). */
bool mbp__shape_box(const mbp_world *w, uint16_t i, const mbp_aabb *box);
/* The one path that sets a body's volume (mbp_world.c): box is the volume's own box; s the
 * sphere of a sphere body, shape the oriented box, k-DOP or capsule of a shape body (both NULL
 * for a box body). */
mbp_status mbp__add_body(mbp_world *w, const mbp_aabb *box, const mbp_sphere *s,
                         const mbp_shape *shape, uint32_t user, mbp_body *out);
mbp_status mbp__move_body(mbp_world *w, mbp_body h, const mbp_aabb *box, const mbp_sphere *s,
                          const mbp_shape *shape);
/* A box move that mbp_move.c's fast path did not take (mbp_world.c): any body, any box. */
mbp_status mbp__move_box_slow(mbp_world *w, mbp_body h, const mbp_aabb *box);
bool mbp__handle_ok(const mbp_world *w, mbp_body h);
#if MBP__POOL
void mbp__pool_init(mbp_world *w);
/* Writes shape s (of any kind the pool holds; a box for a fast box body) into pool entry e. */
void mbp__slot_store(mbp_shape_slot *e, const mbp_shape *s);
/* Before a volume change of body i (add: i has no entry): MBP_E_FULL when it will need a pool
 * entry (a shape, or a fast box) and none is free; else MBP_OK and *bound = the box the broad
 * phase gets (box, or a fast body's bound of the step). */
mbp_status mbp__pool_prepare(const mbp_world *w, uint16_t i, const mbp_aabb *box,
                             const mbp_sphere *s, const mbp_shape *shape, mbp_aabb *bound);
/* After it succeeded: keeps the shape (or a fast box's box) in the pool, or frees the entry. */
void mbp__pool_commit(mbp_world *w, uint16_t i, const mbp_aabb *box, const mbp_sphere *s,
                      const mbp_shape *shape);
/* Body i is removed: frees its entry. */
void mbp__pool_release(mbp_world *w, uint16_t i);
#endif

/* ---- backend dispatch (mbp_backend.c) ---- */
bool mbp__backend_compiled(mbp_backend b);
mbp_status mbp__backend_init(mbp_world *w);
mbp_status mbp__backend_add(mbp_world *w, uint16_t i);
/* Body i, whose box is still w->box[i], is about to move to *box: MBP_OK, or MBP_E_NOROOM (the
 * backend cannot hold it; the caller then leaves the body as it was). */
mbp_status mbp__backend_move(mbp_world *w, uint16_t i, const mbp_aabb *box);
/* False for backends whose move hook does nothing (they read w->dirty at the next update): the
 * core then skips the call. */
MBP__HOT bool mbp__backend_wants_moves(const mbp_world *w)
{
    mbp_backend b = w->params.backend;
    return !(b == MBP_BRUTE || b == MBP_SWEEP || b == MBP_SAP || b == MBP_TREE ||
             b == MBP_QUADTREE);
}
/* True for a backend whose candidates are exactly the pairs whose stored boxes overlap (SAP on
 * exact values keeps that invariant at every swap): the core then skips the box test of pairs of
 * two plain boxes. Quantized SAP adds candidates (values rounded outwards), so it is not. */
MBP__HOT bool mbp__backend_exact(const mbp_world *w)
{
    return MBP_WITH_SAP && !MBP_SAP_QUANTIZED && w->params.backend == MBP_SAP;
}
void mbp__backend_remove(mbp_world *w, uint16_t i);
mbp_status mbp__backend_update(mbp_world *w, mbp__sink *out);
void mbp__backend_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);

#endif /* MBP_INTERNAL_H */
