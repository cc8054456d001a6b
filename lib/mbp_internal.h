/* SPDX-License-Identifier: MIT */
/* mbp_internal.h: what the library's files share and the backend interface. Not for users.
 *
 * The backend interface
 * ---------------------
 * A backend keeps its own structure over the bodies' boxes (w->box[i]) and, in mbp_update(),
 * tells the core which pairs are candidates: pairs whose boxes (or any larger bounds the backend
 * keeps, e.g. fat boxes) overlap. The core owns everything else: handles, filters, the exact
 * box and sphere tests, the pair set, events and their order. A backend reports in one of two
 * ways, chosen per frame:
 *
 *   full frame:   it calls mbp__full_frame(w, false) first, then mbp__candidate(w, a, b) once for
 *                 every candidate pair. Pairs not reported end. (brute, sweep, grid, hash, hgrid.)
 *                 An incremental backend rebuilding calls mbp__full_frame(w, true) instead: its
 *                 candidates that fail the exact test are kept, to be re-tested when they move.
 *   incremental:  it calls mbp__candidate(w, a, b) when a pair becomes a candidate and
 *                 mbp__uncandidate(w, a, b) when it stops being one; the pair set remembers
 *                 candidates between frames and the core re-tests candidates of bodies that moved.
 *                 An ended candidate that did not overlap in the last update leaves the pair set
 *                 at once (its room is free for this frame's reports); one that did waits for
 *                 mbp_update() to give its end event, unless it is reported again first.
 *                 When the pair set was full (mbp__pairs_overflowed(w)), candidates were lost and
 *                 the backend must run a full frame instead.
 *
 * Candidates are reported only from inside mbp__<b>_update. The order of reports may differ
 * between backends: the core's output does not depend on it, except the pair set's own walking
 * order. Pairs with a removed (dying) body are ended by the core; a backend drops the body from its own
 * structure in its remove hook and never reports it again. Hooks:
 *   mbp__<b>_init(w)          world initialised, w->params set, bodies empty; MBP_OK or error
 *   mbp__<b>_add(w, i)        body i added, box in w->box[i]; may fail with MBP_E_NOROOM
 *   mbp__<b>_move(w, i, old)  body i's box changed from *old to w->box[i]; may fail with
 *                             MBP_E_NOROOM, and then the core puts the old box back. Only the
 *                             backends mbp__backend_wants_moves() names have one; the others
 *                             read w->dirty at the next update
 *   mbp__<b>_remove(w, i)     body i removed (w->box[i] still holds its last box)
 *   mbp__<b>_update(w)        one frame: report candidates as above; returns MBP_OK or
 *                             MBP_E_NOROOM; w->dirty[0..dirty_count) lists the bodies added or
 *                             moved since the last update
 *   mbp__<b>_query(w, box, fn, ctx)  calls fn(ctx, i) for at least every body i, neither dirty nor
 *                             dying, whose box as of the last update overlaps *box (more is
 *                             fine: the core re-tests); the core handles dirty bodies itself.
 * Dispatch is a switch in mbp_backend.c: no function pointers in the world.
 */
#ifndef MBP_INTERNAL_H
#define MBP_INTERNAL_H

#include "mbp.h"
#include "mbp_port.h"

#if MBP_ASSERT
#define MBP__ASSERT(e) ((e) ? (void)0 : mbp_port_assert_failed(#e, __FILE__, __LINE__))
#else
#define MBP__ASSERT(e) ((void)0)
#endif

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

/* Body flags. */
#define MBP__LIVE 0x01u
#define MBP__SPHERE 0x02u
#define MBP__DIRTY 0x04u
#define MBP__DYING 0x08u
#define MBP__SHAPE 0x10u /* the volume is the pool entry's oriented box, k-DOP or capsule */
#define MBP__FAST 0x20u  /* w->box is the bound of the step (mbp_set_fast) */
#define MBP__VOLUME (MBP__SPHERE | MBP__SHAPE | MBP__FAST) /* more to test than the box */
#define MBP__FILTER 0x40u /* category or mask differ from the defaults (which always pass) */
#define MBP__STATIC 0x80u /* never pairs with another static body (mbp_add_static_box) */
#define MBP__PASS (MBP__FILTER | MBP__STATIC) /* a pair of these may fail before its boxes */

/* Pair-set entry flags. */
#define MBP__CAND 0x01u /* the backend reports this pair as a candidate */
#define MBP__HIT 0x02u  /* the pair overlaps (filters and exact volumes passed) this frame */
#define MBP__PREV 0x04u /* the pair was reported overlapping by the previous update */
#define MBP__NEW 0x08u  /* inserted this frame: its hit is not known yet */

/* Visitor for backend queries. */
typedef void (*mbp__visit_fn)(void *ctx, uint16_t index);

/* ---- for backends ---- */
void mbp__full_frame(mbp_world *w, bool keep_candidates);
void mbp__candidate(mbp_world *w, uint16_t a, uint16_t b);
void mbp__uncandidate(mbp_world *w, uint16_t a, uint16_t b);
bool mbp__pairs_overflowed(const mbp_world *w);
void mbp__drop_new_candidates(mbp_world *w); /* see mbp_world.c; the tree uses it */

/* MBP__HOT: small functions on the per-body path (every move of every body) are inlined where
 * the compiler allows it: at -Os gcc would call them, and a call costs about what they do.
 * MBP__LOOP: a hot loop kept out of its only caller, so that the loop's variables get the
 * registers (inlined, gcc spills them). */
#if defined(__GNUC__)
#define MBP__HOT static inline __attribute__((always_inline))
#define MBP__LOOP static __attribute__((noinline))
#else
#define MBP__HOT static inline
#define MBP__LOOP static
#endif

/* True for a box mbp_aabb_check() accepts with MBP_OK, in three comparisons an axis (NaN fails
 * them all); the slow path in mbp_aabb_check() then tells which error it is. */
MBP__HOT bool mbp__box_good(const mbp_aabb *b)
{
    bool good = true;
    for (int k = 0; k < MBP_DIM; k++) {
        good = good && b->min[k] >= -MBP_RANGE && b->min[k] <= b->max[k] && b->max[k] <= MBP_RANGE;
    }
    return good;
}

/* mbp_aabb_overlap(), inlined where every pair goes through it (the core's exact test). */
MBP__HOT bool mbp__boxes_meet(const mbp_aabb *a, const mbp_aabb *b)
{
    bool in = true;
    for (int k = 0; k < MBP_DIM; k++) {
        in = in && !(a->max[k] < b->min[k] || b->max[k] < a->min[k]);
    }
    return in;
}

/* True when body i takes part in this frame's pairs (live and not removed). */
static inline bool mbp__active(const mbp_world *w, uint16_t i)
{
    return (w->flags[i] & (MBP__LIVE | MBP__DYING)) == MBP__LIVE;
}

/* ---- pair set (mbp_pairs.c) ---- */
static inline uint32_t mbp__key(uint16_t a, uint16_t b)
{
    return a < b ? ((uint32_t)a << 16 | b) : ((uint32_t)b << 16 | a);
}
/* The key of a stored pair (a < b): ascending keys are ascending pairs. */
static inline uint32_t mbp__pkey(const mbp_pair *p)
{
    return (uint32_t)p->a << 16 | p->b;
}
void mbp__pairs_clear(mbp_pairset *ps);
/* Dense index of key, or -1. */
int32_t mbp__pairs_find(const mbp_pairset *ps, uint32_t key);
/* Inserts key with flag; returns its dense index, or -1 when full (ps->lost counts it). */
int32_t mbp__pairs_insert(mbp_pairset *ps, uint32_t key, uint8_t flag);
/* Removes the entry at dense index k; the last entry moves into k. */
void mbp__pairs_remove_at(mbp_pairset *ps, uint32_t k);
/* Moves the hits (MBP__HIT) in front of the other entries, in O(count). */
void mbp__pairs_split(mbp_pairset *ps);
/* Splits, sorts the hits and the rest each by key, and rebuilds the index. */
void mbp__pairs_sort(mbp_pairset *ps);

/* ---- sorting (mbp_sort.c): heap sort, O(n log n), no recursion, in place ---- */
/* Pairs ascending by (a, b); payload (or NULL) holds a byte per pair moved along with it. */
void mbp__sort_pairs(mbp_pair *p, uint8_t *payload, uint32_t n);
void mbp__sort_u16(uint16_t *v, uint32_t n);
void mbp__sort_hits(mbp_hit *h, uint32_t n);
/* A query's kept results as a max-heap, n >= 1: heapify v[0..n), then keep x in place of the
 * largest when x orders before it (hits: by t, then index). */
void mbp__heapify_u16(uint16_t *v, uint32_t n);
void mbp__heapify_hits(mbp_hit *h, uint32_t n);
void mbp__keep_u16(uint16_t *v, uint32_t n, uint16_t x);
void mbp__keep_hit(mbp_hit *h, uint32_t n, const mbp_hit *x);

/* ---- exact tests the core applies to candidates (mbp_world.c) ---- */
bool mbp__exact(const mbp_world *w, uint16_t a, uint16_t b);

/* ---- shapes and fast bodies (mbp_shape.c, mbp_swept.c) ---- */
/* The exact test of a candidate pair where a body is a shape or fast (flags MBP__SHAPE,
 * MBP__FAST): called by mbp__exact() after the filters and the box test. */
bool mbp__shape_exact(const mbp_world *w, uint16_t a, uint16_t b);
/* Queries: true when body i's volume overlaps box (i is a shape body, box overlaps its box). */
bool mbp__shape_box(const mbp_world *w, uint16_t i, const mbp_aabb *box);
/* The one path that sets a body's volume (mbp_world.c): box is the volume's own box; s the
 * sphere of a sphere body, shape the oriented box, k-DOP or capsule of a shape body (both NULL
 * for a box body). */
mbp_status mbp__add_body(mbp_world *w, const mbp_aabb *box, const mbp_sphere *s,
                         const mbp_shape *shape, uint32_t user, mbp_body *out);
mbp_status mbp__move_body(mbp_world *w, mbp_body h, const mbp_aabb *box, const mbp_sphere *s,
                          const mbp_shape *shape);
bool mbp__handle_ok(const mbp_world *w, mbp_body h);
#if MBP__POOL
void mbp__pool_init(mbp_world *w);
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
mbp_status mbp__backend_move(mbp_world *w, uint16_t i, const mbp_aabb *old);
/* False for backends whose move hook does nothing (they read w->dirty at the next update): the
 * core then skips the call and the copy of the old box. */
MBP__HOT bool mbp__backend_wants_moves(const mbp_world *w)
{
    mbp_backend b = w->params.backend;
    return !(b == MBP_BRUTE || b == MBP_SWEEP || b == MBP_SAP || b == MBP_TREE);
}
/* True for a backend whose candidates are exactly the pairs whose stored boxes overlap (SAP on
 * exact values keeps that invariant at every swap): the core then skips the box test of pairs of
 * two plain boxes. Quantized SAP adds candidates (values rounded outwards), so it is not. */
MBP__HOT bool mbp__backend_exact(const mbp_world *w)
{
    return MBP_WITH_SAP && !MBP_SAP_QUANTIZED && w->params.backend == MBP_SAP;
}
void mbp__backend_remove(mbp_world *w, uint16_t i);
mbp_status mbp__backend_update(mbp_world *w);
void mbp__backend_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);

/* Brute force: the reference (mbp_brute.c). */
#if MBP_WITH_BRUTE
mbp_status mbp__brute_update(mbp_world *w);
void mbp__brute_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);
#endif

/* The other backends, one file each (mbp_<backend>.c), hooks as described at the top. */
#if MBP_WITH_SWEEP
mbp_status mbp__sweep_init(mbp_world *w);
mbp_status mbp__sweep_add(mbp_world *w, uint16_t i);
void mbp__sweep_remove(mbp_world *w, uint16_t i);
mbp_status mbp__sweep_update(mbp_world *w);
void mbp__sweep_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);
#endif
#if MBP_WITH_SAP
mbp_status mbp__sap_init(mbp_world *w);
mbp_status mbp__sap_add(mbp_world *w, uint16_t i);
void mbp__sap_remove(mbp_world *w, uint16_t i);
mbp_status mbp__sap_update(mbp_world *w);
void mbp__sap_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);
#endif
#if MBP_WITH_GRID
mbp_status mbp__grid_init(mbp_world *w);
mbp_status mbp__grid_add(mbp_world *w, uint16_t i);
mbp_status mbp__grid_move(mbp_world *w, uint16_t i, const mbp_aabb *old);
void mbp__grid_remove(mbp_world *w, uint16_t i);
mbp_status mbp__grid_update(mbp_world *w);
void mbp__grid_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);
#endif
#if MBP_WITH_HASH
mbp_status mbp__hash_init(mbp_world *w);
mbp_status mbp__hash_add(mbp_world *w, uint16_t i);
mbp_status mbp__hash_move(mbp_world *w, uint16_t i, const mbp_aabb *old);
void mbp__hash_remove(mbp_world *w, uint16_t i);
mbp_status mbp__hash_update(mbp_world *w);
void mbp__hash_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);
#endif
#if MBP_WITH_HGRID
mbp_status mbp__hgrid_init(mbp_world *w);
mbp_status mbp__hgrid_add(mbp_world *w, uint16_t i);
mbp_status mbp__hgrid_move(mbp_world *w, uint16_t i, const mbp_aabb *old);
void mbp__hgrid_remove(mbp_world *w, uint16_t i);
mbp_status mbp__hgrid_update(mbp_world *w);
void mbp__hgrid_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);
#endif
#if MBP_WITH_TREE
mbp_status mbp__tree_init(mbp_world *w);
mbp_status mbp__tree_add(mbp_world *w, uint16_t i);
void mbp__tree_remove(mbp_world *w, uint16_t i);
mbp_status mbp__tree_update(mbp_world *w);
void mbp__tree_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);
#endif

#endif /* MBP_INTERNAL_H */
