/* SPDX-License-Identifier: MIT */
/* mbp_bp.h: the broad-phase layer: what a backend reads, what it writes, and the pair set it
 * writes into. Not for users.
 *
 * Layers inside lib/, each using only those below it:
 *   scalars, boxes, spheres, shapes   mbp.h, mbp_scalar.h, mbp_volume.c, mbp_overlap.c ...
 *   the pair set and its sink         this header, mbp_pairs.c, mbp_sort.c
 *   backends (data structures)        mbp_brute.c, mbp_sweep.c, mbp_sap.c, mbp_cells.c (grid,
 *                                     hash, hgrid), mbp_tree.c: each includes this header only
 *   the world                         mbp_internal.h, mbp_world.c, mbp_move.c, mbp_update.c,
 *                                     mbp_output.c, mbp_query.c, mbp_backend.c, mbp_shape_body.c,
 *                                     mbp_shift.c
 * A backend never sees mbp_world: it keeps its own state (mbp_<b>_state) and is given
 *   - at add, move and remove: the body's index and box(es);
 *   - at update and query: a read-only view of the bodies (mbp__bodies): their boxes, their
 *     flags and the bodies moved since the last update;
 *   - at update: a pair sink (mbp__sink) into which it reports candidate pairs, pairs whose boxes
 *     (or any larger bounds it keeps) overlap.
 * The world owns the rest: handles, user values, filters, static bodies, the exact tests, the
 * events and their order. tools/check-layers.sh holds backends to this.
 *
 * Reporting, chosen per update:
 *   full frame:   mbp__sink_full_frame(out, false) first, then mbp__sink_begin(out, a, b) once for
 *                 every candidate pair; only pairs that overlap are stored (mbp__volumes_meet()), and
 *                 pairs not reported end. (brute, sweep, grid, hash, hgrid.)
 *                 An incremental backend rebuilding calls mbp__sink_full_frame(out, true) instead:
 *                 its candidates are kept whatever their filters, to be re-tested when they move.
 *   incremental:  mbp__sink_begin(out, a, b) when a pair becomes a candidate and
 *                 mbp__sink_end(out, a, b) when it stops being one; the pair set keeps candidates
 *                 between updates and the world re-tests the candidates of bodies that moved. An
 *                 ended candidate that did not overlap in the last update leaves the set at once
 *                 (its room is free for this update's reports); one that did waits for the world
 *                 to give its end event, unless it is begun again first. When the last update could
 *                 not store every pair (mbp__sink_overflowed()), candidates were lost and the
 *                 backend must run a full frame instead. An incremental update begins and ends
 *                 only pairs with a body of the view's moved list: the world then re-tests just
 *                 the stored pairs with a moved body (mbp_update.c, test_moved()).
 *   few moved:    mbp__sink_end_moved(out), then mbp__sink_retest() for each moved body and each
 *                 other body it may meet: an incremental update whose candidates are exact, which
 *                 the world settles from the log of changes. (brute, sweep.)
 * Pairs with a removed body are ended by the world; a backend drops the body from its structure in
 * its remove hook and never reports it again.
 *
 * Hooks of backend <b> (state s of type mbp_<b>_state; dispatch in mbp_backend.c):
 *   mbp__<b>_init(s, params)          empty structure for these parameters; MBP_OK or an error
 *   mbp__<b>_add(s, i, box)           body i added with this box; may fail with MBP_E_NOROOM
 *   mbp__<b>_move(s, i, old, box)     body i's box changed from *old to *box; may fail with
 *                                     MBP_E_NOROOM, and then the world keeps the old box. Only the
 *                                     backends mbp__backend_wants_moves() names have one; the
 *                                     others find moved bodies in the view at the next update
 *   mbp__<b>_remove(s, i, last)       body i removed; *last is its last box
 *   mbp__<b>_update(s, v, out)        one frame: report candidates as above; MBP_OK or
 *                                     MBP_E_NOROOM
 *   mbp__<b>_query(s, v, box, fn, ctx)  calls fn(ctx, i) for at least every body i, neither moved
 *                                     nor dying, whose box as of the last update overlaps *box
 *                                     (more is fine: the world re-tests and handles moved bodies)
 */
#ifndef MBP_BP_H
#define MBP_BP_H

#include <float.h>
#include "mbp.h"
#include "mbp_port.h"

#if MBP_SCALAR != MBP_FIXED
/* The library reads a float's bits (mbp__float_bits()) as those of an IEEE 754 single, as on
 * every Cortex-M compiler. */
#ifdef FLT_MANT_DIG /* (a checker without the compiler's <float.h> skips the test) */
#if FLT_RADIX != 2 || FLT_MANT_DIG != 24 || FLT_MAX_EXP != 128
#error "MBP_SCALAR MBP_FLOAT needs float to be IEEE 754 single: use MBP_FIXED on this compiler"
#endif
#endif

/* f's bits (sign, exponent, mantissa), for the tests that compare them as integers. */
static inline uint32_t mbp__float_bits(mbp_scalar f)
{
    union {
        mbp_scalar f;
        uint32_t u;
    } b;
    b.f = f;
    return b.u;
}
#endif

#if MBP_ASSERT
#define MBP__ASSERT(e) ((e) ? (void)0 : mbp_port_assert_failed(#e, __FILE__, __LINE__))
#else
#define MBP__ASSERT(e) ((void)0)
#endif

/* MBP__HOT: small functions on the per-body path (every move of every body) are inlined where
 * the compiler allows it: at -Os gcc would call them, and a call costs about what they do.
 * MBP__LOOP: a hot loop kept out of its only caller, so that the loop's variables get the
 * registers (inlined, gcc spills them).
 * MBP__COLD: the rare case of a hot loop, out of line and marked unlikely, so that gcc gives the
 * loop's values the registers rather than what only the rare case needs. */
#if defined(__GNUC__)
#define MBP__HOT static inline __attribute__((always_inline))
#define MBP__LOOP static __attribute__((noinline))
#define MBP__COLD static __attribute__((noinline, cold))
#else
#define MBP__HOT static inline
#define MBP__LOOP static
#define MBP__COLD static
#endif

#if MBP_SCALAR == MBP_FIXED
/* Fixed-point cells (the type, which the backends' states hold, is in mbp_world_types.h).
 * The map of an edge of `edge` raw units, edge >= 1. At init only (32 steps). */
static inline mbp__cellmap mbp__cellmap_of(uint32_t edge)
{
    mbp__cellmap m = {edge, -1};
    for (int32_t k = 0; k < 32; k++) {
        if ((1u << k) == edge) {
            m.shift = k;
        }
    }
    return m;
}

/* floor(u / m.edge): by the shift when there is one, else by a division. By value: gcc then
 * loads the edge once, before its callers' loops (by pointer it loaded it at each division:
 * 4 bytes less stack on the Cortex-M0, up to 1% more instructions a frame). */
MBP__HOT uint32_t mbp__cell_div(mbp__cellmap m, uint32_t u)
{
    return m.shift >= 0 ? u >> m.shift : u / m.edge;
}
#endif

/* Body flags, one byte per body. Backends read only MBP__LIVE, MBP__DYING and MBP__DIRTY. */
#define MBP__LIVE 0x01u
#define MBP__SPHERE 0x02u
#define MBP__DIRTY 0x04u  /* added, moved or refiltered since the last update */
#define MBP__DYING 0x08u  /* removed: its pairs end at the next update */
#define MBP__SHAPE 0x10u /* the volume is the pool entry's oriented box, k-DOP or capsule */
#define MBP__FAST 0x20u  /* the box is the bound of the step (mbp_set_fast) */
#define MBP__VOLUME (MBP__SPHERE | MBP__SHAPE | MBP__FAST) /* more to test than the box */
#define MBP__FILTER 0x40u /* category or mask differ from the defaults (which always pass) */
#define MBP__STATIC 0x80u /* never pairs with another static body (mbp_add_static_box) */
#define MBP__PASS (MBP__FILTER | MBP__STATIC) /* a pair of these may fail before its boxes */
/* A body whose pairs need more than its box, or may fail before it: the world counts these
 * (mbp__set_flags()), and takes a backend's log of pair changes only while there are none. */
#define MBP__SPECIAL (MBP__VOLUME | MBP__FILTER)

/* Pair-set entry flags. */
#define MBP__CAND 0x01u /* the backend reports this pair as a candidate */
#define MBP__HIT 0x02u  /* the pair overlaps (filters and exact volumes passed) this frame */
#define MBP__PREV 0x04u /* the pair was reported overlapping by the previous update */
#define MBP__NEW 0x08u  /* inserted this frame: its hit is not known yet */

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

/* mbp_aabb_overlap(), inlined where every pair goes through it. */
MBP__HOT bool mbp__boxes_meet(const mbp_aabb *a, const mbp_aabb *b)
{
    bool in = true;
    for (int k = 0; k < MBP_DIM; k++) {
        in = in && !(a->max[k] < b->min[k] || b->max[k] < a->min[k]);
    }
    return in;
}

/* ---- what a backend reads: the bodies ---- */
typedef struct mbp__bodies {
    const mbp_aabb *box;    /* box[i]: body i's box now, for i < high */
    const uint8_t *flags;   /* flags[i]: MBP__LIVE, MBP__DYING, MBP__DIRTY (others: the world's) */
    const uint16_t *moved;  /* the bodies added, moved or refiltered since the last update */
    uint32_t moved_count;
    uint16_t high;          /* every live or dying body is below this */
    uint16_t live;          /* live bodies */
} mbp__bodies;

/* True when body i takes part in this update's pairs (live and not removed), told by its flags
 * (a loop may keep the flags' base in a register) or by the bodies. */
MBP__HOT bool mbp__in_flags(const uint8_t *flags, uint16_t i)
{
    return (flags[i] & (MBP__LIVE | MBP__DYING)) == MBP__LIVE;
}
MBP__HOT bool mbp__in(const mbp__bodies *v, uint16_t i)
{
    return mbp__in_flags(v->flags, i);
}

/* Visitor for backend queries. */
typedef void (*mbp__visit_fn)(void *ctx, uint16_t index);

/* ---- what a backend writes: the pair sink ---- */
/* The sink calls nothing above it (no callback, which keeps lib/'s call graph free of cycles
 * through function pointers): in a full frame it tests each pair as it is reported, exactly, from
 * the plain data of the bodies' volumes that the world lends it, so that only overlapping pairs
 * take room. */
/* The plain data of the bodies' volumes, as the tests below the world need it (read only). */
typedef struct mbp__volumes {
    const uint8_t *flags;     /* the bodies' flags (MBP__STATIC, MBP__SPHERE, MBP__SHAPE ...) */
    const mbp_aabb *box;      /* the bodies' boxes (a fast body's: its bound of the step) */
    const uint16_t *category; /* the bodies' filters */
    const uint16_t *mask;
#if MBP_WITH_SPHERES
    const mbp_sphere *sphere; /* the spheres of sphere bodies */
#endif
#if MBP__POOL
    const uint16_t *shape_of;     /* a body's shape pool entry, index + 1; 0 for none */
    const mbp_shape_slot *shapes; /* the shape pool (mbp_shape_body.c) */
#endif
    uint8_t aabb_only;        /* params.aabb_only: boxes only, even for spheres */
} mbp__volumes;

/* The test between two volumes of kinds ka, kb (mbp_shape_kind) with their data at a, b
 * (mbp_overlap.c): the same result in either order. */
bool mbp__overlap(uint8_t ka, const void *a, uint8_t kb, const void *b);
/* Body i's volume: its kind, and its data in *p. own: the body's own volume (a fast box body's
 * own box); else the volume it pairs with (a fast body's bound of the step). mbp_overlap.c. */
uint8_t mbp__volume_of(const mbp__volumes *vol, uint16_t i, bool own, const void **p);
#if MBP__POOL
/* The exact test of bodies a and b, one of them a shape or fast body, once the filters and the
 * boxes passed (mbp_overlap.c). */
bool mbp__volumes_exact(const mbp__volumes *vol, uint16_t a, uint16_t b);
#endif

/* Whether the pair (a, b) overlaps: false for two static bodies, when the filters refuse it both
 * ways or either way, or when the volumes are apart; the exact test of every kind. boxes_met (a
 * constant where inlined): the caller has found the boxes overlapping, and their test is skipped. */
MBP__HOT bool mbp__volumes_meet_if(const mbp__volumes *vol, uint16_t a, uint16_t b, bool boxes_met)
{
    uint32_t fa = vol->flags[a], fb = vol->flags[b];
    if (((fa | fb) & MBP__PASS) != 0u &&
        ((fa & fb & MBP__STATIC) != 0u || (vol->category[a] & vol->mask[b]) == 0u ||
         (vol->category[b] & vol->mask[a]) == 0u)) {
        return false;
    }
    if (!boxes_met && !mbp__boxes_meet(&vol->box[a], &vol->box[b])) {
        return false;
    }
    /* Two plain boxes, the common pair, take one test (and any pair when aabb_only). */
    if (((fa | fb) & MBP__VOLUME) != 0u && vol->aabb_only == 0u) {
#if MBP__POOL
        if (((fa | fb) & (MBP__SHAPE | MBP__FAST)) != 0u) {
            return mbp__volumes_exact(vol, a, b);
        }
#endif
#if MBP_WITH_SPHERES
        /* No shape or fast body: one of them at least is a sphere. */
        if ((fa & fb & MBP__SPHERE) != 0u) {
            return mbp_sphere_overlap(&vol->sphere[a], &vol->sphere[b]);
        }
        return (fa & MBP__SPHERE) != 0u ? mbp_sphere_aabb_overlap(&vol->sphere[a], &vol->box[b])
                                        : mbp_sphere_aabb_overlap(&vol->sphere[b], &vol->box[a]);
#endif
    }
    return true;
}

/* mbp__volumes_meet_if() with the box test. */
MBP__HOT bool mbp__volumes_meet(const mbp__volumes *vol, uint16_t a, uint16_t b)
{
    return mbp__volumes_meet_if(vol, a, b, false);
}

typedef struct mbp__sink {
    mbp_pairset *ps;      /* the pairs, and this update's record of changes (mbp_pairset) */
    mbp__volumes vol;     /* a full frame's test of each pair reported (mbp__volumes_meet()) */
    uint32_t lost_last;   /* pairs the last update could not store (the set was full) */
    uint32_t tests;       /* box tests the backend made in this update (statistics) */
} mbp__sink;

/* Starts a full frame: every pair is reported anew. keep_candidates: an incremental backend
 * rebuilding (its candidates stay stored between updates, whatever their filters). */
void mbp__sink_full_frame(mbp__sink *out, bool keep_candidates);
/* Pair (a, b), a != b, is a candidate (from this update on). Refused silently for two static
 * bodies, and in a full frame for a pair the filters refuse; counted in ps->lost when the set is
 * full. In a full frame, a pair that fails mbp__volumes_meet() is not stored. */
void mbp__sink_begin(mbp__sink *out, uint16_t a, uint16_t b);
/* mbp__sink_begin() in a full frame, for a pair whose boxes the backend has found overlapping
 * (closed, as mbp_aabb_overlap()): the filters and the exact volumes are tested, the boxes not
 * again. Only in a full frame (asserted). */
void mbp__sink_begin_met(mbp__sink *out, uint16_t a, uint16_t b);
/* Pair (a, b) stopped being a candidate (incremental backends). */
void mbp__sink_end(mbp__sink *out, uint16_t a, uint16_t b);
/* Every stored candidate with a moved body (MBP__DIRTY) stops being one, as mbp__sink_end() would
 * end it, unless begun again in this update: for a backend that finds a moved body's candidates
 * anew (brute force, sweep) but not those it lost. Call it before any begin, and then begin only
 * through mbp__sink_retest(): every candidate of a moved body is then an exact pair, and the
 * world settles the frame from the log of changes, without a walk of its own (mbp_update.c,
 * apply_log()). O(stored pairs). */
void mbp__sink_end_moved(mbp__sink *out);
/* After mbp__sink_end_moved(): moved body a, its box *ba, against body b in use; flags and box
 * are out->vol's (passed so that a caller's loop keeps them in registers). Skipped (returns 0)
 * when b is a moved body not above a: that pair is tested from b, or b is a. Else the pair is
 * tested (returns 1) and begins when the volumes overlap, by the exact test of a full frame
 * (mbp__volumes_meet()): so, as in a full frame, only overlapping pairs take room. */
MBP__HOT uint32_t mbp__sink_retest(mbp__sink *out, const uint8_t *flags, const mbp_aabb *box,
                                   const mbp_aabb *ba, uint32_t a, uint32_t b)
{
    if ((flags[b] & MBP__DIRTY) != 0u && b <= a) {
        return 0u;
    }
    if (mbp__boxes_meet(ba, &box[b]) &&
        mbp__volumes_meet_if(&out->vol, (uint16_t)a, (uint16_t)b, true)) {
        mbp__sink_begin(out, (uint16_t)a, (uint16_t)b);
    }
    return 1u;
}
/* For a backend that gives up on an incremental update and runs a full frame instead: forgets
 * the candidates begun in this update (they were no pairs before, so no event depends on them). */
void mbp__sink_drop_new(mbp__sink *out);
/* True when the last update lost pairs: an incremental backend must run a full frame. */
static inline bool mbp__sink_overflowed(const mbp__sink *out)
{
    return out->lost_last != 0u;
}
/* Pairs stored now (candidates included). */
static inline uint32_t mbp__sink_count(const mbp__sink *out)
{
    return out->ps->count;
}

/* ---- the pair set (mbp_pairs.c) ---- */
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
/* Starts an update's record of what the backend reports (mbp_pairset's full_frame ... log):
 * nothing yet. */
static inline void mbp__pairs_start_update(mbp_pairset *ps)
{
    ps->full_frame = 0u;
    ps->touched = 0u;
    ps->dropped = 0u;
    ps->exact = 0u;
    ps->log_count = 0u;
}
/* Dense index of key, or -1. */
int32_t mbp__pairs_find(const mbp_pairset *ps, uint32_t key);
/* Inserts key with flag; returns its dense index, or -1 when full (ps->lost counts it). */
int32_t mbp__pairs_insert(mbp_pairset *ps, uint32_t key, uint8_t flag);
/* The hash slot s holding key, or the empty slot where it would go: ps->slot[s] is the key's
 * dense index + 1, or 0 when it is not stored. */
uint32_t mbp__pairs_probe(const mbp_pairset *ps, uint32_t key);
/* Removes the entry at dense index k; the last entry moves into k. */
void mbp__pairs_remove_at(mbp_pairset *ps, uint32_t k);
/* The same for the entry of hash slot s (a probe's result that holds one), without probing for
 * it again. */
void mbp__pairs_remove_slot(mbp_pairset *ps, uint32_t s);
/* Moves the hits (MBP__HIT) in front of the other entries, in O(count). */
void mbp__pairs_split(mbp_pairset *ps);
/* Splits, sorts the hits and the rest each by key, and rebuilds the index. */
void mbp__pairs_sort(mbp_pairset *ps);

/* ---- sorting (mbp_sort.c): heap sort, O(n log n), no recursion, in place ---- */
/* Pairs ascending by (a, b); payload (or NULL) holds a byte per pair moved along with it. */
void mbp__sort_pairs(mbp_pair *p, uint8_t *payload, uint32_t n);
/* The same with no payload: a frame's events. */
void mbp__sort_events(mbp_pair *p, uint32_t n);
#if MBP_PAIR_USER
/* The same, and user (or NULL) holds a 32-bit user slot per pair, moved along with it too. */
void mbp__sort_pairs_user(mbp_pair *p, uint8_t *payload, uint32_t *user, uint32_t n);
#endif
void mbp__sort_u16(uint16_t *v, uint32_t n);
void mbp__sort_hits(mbp_hit *h, uint32_t n);
/* A query's kept results as a max-heap, n >= 1: heapify v[0..n), then keep x in place of the
 * largest when x orders before it (hits: by t, then index). */
void mbp__heapify_u16(uint16_t *v, uint32_t n);
void mbp__heapify_hits(mbp_hit *h, uint32_t n);
void mbp__keep_u16(uint16_t *v, uint32_t n, uint16_t x);
void mbp__keep_hit(mbp_hit *h, uint32_t n, const mbp_hit *x);

/* ---- the backends' hooks, as described at the top ---- */
/* Brute force keeps no state: it tests every pair of the view at each update. */
#if MBP_WITH_BRUTE
mbp_status mbp__brute_update(const mbp__bodies *v, mbp__sink *out);
void mbp__brute_query(const mbp__bodies *v, const mbp_aabb *box, mbp__visit_fn fn, void *ctx);
#endif
#if MBP_WITH_SWEEP
mbp_status mbp__sweep_init(mbp_sweep_state *s, const mbp_params *p);
mbp_status mbp__sweep_add(mbp_sweep_state *s, uint16_t i, const mbp_aabb *box);
void mbp__sweep_remove(mbp_sweep_state *s, uint16_t i, const mbp_aabb *last);
mbp_status mbp__sweep_update(mbp_sweep_state *s, const mbp__bodies *v, mbp__sink *out);
void mbp__sweep_query(const mbp_sweep_state *s, const mbp__bodies *v, const mbp_aabb *box,
                      mbp__visit_fn fn, void *ctx);
#endif
#if MBP_WITH_SAP
mbp_status mbp__sap_init(mbp_sap_state *s, const mbp_params *p);
mbp_status mbp__sap_add(mbp_sap_state *s, uint16_t i, const mbp_aabb *box);
void mbp__sap_remove(mbp_sap_state *s, uint16_t i, const mbp_aabb *last);
mbp_status mbp__sap_update(mbp_sap_state *s, const mbp__bodies *v, mbp__sink *out);
void mbp__sap_query(const mbp_sap_state *s, const mbp__bodies *v, const mbp_aabb *box,
                    mbp__visit_fn fn, void *ctx);
#endif
/* The grid, the hash and the hgrid share one state type and the cell engine (mbp_cells.c). */
#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID
#if MBP_WITH_GRID
mbp_status mbp__grid_init(mbp_grid_state *s, const mbp_params *p);
#endif
#if MBP_WITH_HASH
mbp_status mbp__hash_init(mbp_grid_state *s, const mbp_params *p);
#endif
#if MBP_WITH_HGRID
mbp_status mbp__hgrid_init(mbp_grid_state *s, const mbp_params *p);
#endif
/* The same for the three: the state knows its mode. */
mbp_status mbp__cells_add(mbp_grid_state *s, uint16_t i, const mbp_aabb *box);
mbp_status mbp__cells_move(mbp_grid_state *s, uint16_t i, const mbp_aabb *old,
                           const mbp_aabb *box);
void mbp__cells_remove(mbp_grid_state *s, uint16_t i, const mbp_aabb *last);
mbp_status mbp__cells_update(mbp_grid_state *s, const mbp__bodies *v, mbp__sink *out);
void mbp__cells_query(const mbp_grid_state *s, const mbp__bodies *v, const mbp_aabb *box,
                      mbp__visit_fn fn, void *ctx);
#endif
#if MBP_WITH_TREE
mbp_status mbp__tree_init(mbp_tree_state *s, const mbp_params *p);
mbp_status mbp__tree_add(mbp_tree_state *s, uint16_t i, const mbp_aabb *box);
void mbp__tree_remove(mbp_tree_state *s, uint16_t i, const mbp_aabb *last);
mbp_status mbp__tree_update(mbp_tree_state *s, const mbp__bodies *v, mbp__sink *out);
void mbp__tree_query(const mbp_tree_state *s, const mbp__bodies *v, const mbp_aabb *box,
                     mbp__visit_fn fn, void *ctx);
#endif
/* The loose quadtree (octree): bodies are placed at the update (no move hook). */
#if MBP_WITH_QUADTREE
mbp_status mbp__quadtree_init(mbp_quadtree_state *s, const mbp_params *p);
mbp_status mbp__quadtree_add(mbp_quadtree_state *s, uint16_t i, const mbp_aabb *box);
void mbp__quadtree_remove(mbp_quadtree_state *s, uint16_t i, const mbp_aabb *last);
mbp_status mbp__quadtree_update(mbp_quadtree_state *s, const mbp__bodies *v, mbp__sink *out);
void mbp__quadtree_query(const mbp_quadtree_state *s, const mbp__bodies *v, const mbp_aabb *box,
                         mbp__visit_fn fn, void *ctx);
#endif

#endif /* MBP_BP_H */
