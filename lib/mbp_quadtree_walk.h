/* SPDX-License-Identifier: MIT */
/* mbp_quadtree_walk.h: what the quadtree backend's two files share (internal; how it works:
 * mbp_quadtree.c's top comment): the walks over the nodes whose loose box may meet a region
 * (the query's, the update's), inlined in their callers, and giving a body's node back
 * (mbp_quadtree.c: on remove, and when the update moves a body). The state itself:
 * mbp_quadtree.h.
 */
#ifndef MBP_QUADTREE_WALK_H
#define MBP_QUADTREE_WALK_H

#include "mbp_bp.h"

#if MBP_WITH_QUADTREE

#if MBP_SCALAR == MBP_FIXED
typedef int64_t qt_wide; /* an offset from the world's min corner, exact */
#else
typedef mbp_scalar qt_wide;
#endif

/* The finest cell's edge. */
MBP__HOT qt_wide cell_edge(const mbp_quadtree_state *s)
{
#if MBP_SCALAR == MBP_FIXED
    return s->cell.edge;
#else
    return s->cell;
#endif
}

/* The world box's edge: the root's cell. */
MBP__HOT qt_wide root_edge(const mbp_quadtree_state *s)
{
#if MBP_SCALAR == MBP_FIXED
    return cell_edge(s) << s->depth;
#else
    return s->root;
#endif
}

/* The child slot of a cell in its parent: bit k is the cell's low bit on axis k. */
MBP__HOT uint32_t slot_of(const uint16_t *cell)
{
    uint32_t j = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        j |= (uint32_t)(cell[k] & 1u) << k;
    }
    return j;
}

/* ---- the nodes (mbp_quadtree.c) ---- */

/* Takes body i out of its node's list; returns the node. */
uint16_t mbp__quadtree_unlink(mbp_quadtree_state *s, uint16_t i);
/* Gives node n and its ancestors back to the pool while they hold nothing (never the root). */
void mbp__quadtree_prune(mbp_quadtree_state *s, uint16_t n);

/* ---- walks ---- */

/* Walks measure in units of 1/16 of the finest cell (QT_FRAC bits), from the world's min corner:
 * a cell at depth d spans 2^(QT_FRAC + depth - d) units, 2^(QT_FRAC + depth) <= 2^19 in all. */
#define QT_FRAC 4u

/* The region a walk covers, in units on every axis, clamped to the world box and widened by one
 * unit each way (range_of_box()). */
typedef struct qt_range {
    uint32_t lo[MBP_DIM], hi[MBP_DIM];
} qt_range;

/* The unit holding offset x, clamped to the world box: floor(x * 2^QT_FRAC / cell). */
MBP__HOT uint32_t unit_of(const mbp_quadtree_state *s, qt_wide x)
{
    uint32_t top = 1u << (QT_FRAC + s->depth);
    if (!(x > 0)) {
        return 0u;
    }
    if (x >= root_edge(s)) {
        return top;
    }
#if MBP_SCALAR == MBP_FIXED
    /* floor(x * 2^QT_FRAC / cell) in 32 bits: 0 < x < cell * 2^depth <= UINT32_MAX (checked at
     * init), so u < top. An int64 division would be a library call on every Cortex-M (hundreds
     * of instructions on the M0, per edge of every box a walk measures); a power of two shifts. */
    uint32_t ux = (uint32_t)x, c = s->cell.edge; /* 1 <= c < 2^31 */
    int32_t shift = s->cell.shift;
    uint32_t u;
    if (shift < 0) {
        if (ux <= (UINT32_MAX >> QT_FRAC)) {
            u = (ux << QT_FRAC) / c;
        } else { /* the quotient's whole part, then its QT_FRAC bits by long division */
            u = ux / c;
            uint32_t r = ux - u * c; /* r < c < 2^31: 2r fits */
            for (uint32_t j = 0u; j < QT_FRAC; j++) {
                r <<= 1;
                u <<= 1;
                if (r >= c) {
                    r -= c;
                    u |= 1u;
                }
            }
        }
    } else if ((uint32_t)shift >= QT_FRAC) {
        u = ux >> ((uint32_t)shift - QT_FRAC);
    } else {
        u = ux << (QT_FRAC - (uint32_t)shift); /* ux < 2^(shift + depth): u < top */
    }
#else
    uint32_t u = (uint32_t)(x * ((qt_wide)(1u << QT_FRAC) * s->inv)); /* may round up to top */
#endif
    return u < top ? u : top;
}

/* The region of box b. The unit of room each way holds the rounding of float offsets (a few
 * 2^-24 of the world box's edge, at most 2^15 finest cells: far below 1/16 of a cell); in fixed
 * point it is spare. */
MBP__HOT qt_range range_of_box(const mbp_quadtree_state *s, const mbp_aabb *b)
{
    qt_range r;
    for (int k = 0; k < MBP_DIM; k++) {
        uint32_t l = unit_of(s, (qt_wide)b->min[k] - s->origin[k]);
        r.lo[k] = l > 0u ? l - 1u : 0u;
        r.hi[k] = unit_of(s, (qt_wide)b->max[k] - s->origin[k]) + 1u;
    }
    return r;
}

/* The children of n (in use) whose loose box (the cell grown by half its edge E on every side)
 * may meet the region r, as a mask of slots. A body of a child's subtree lies in that child's
 * loose box, so a walk that skips the others misses none. On axis k, with h = E/2 in units and
 * t = 4 c_k h (c_k n's cell), the child of cell 2 c_k (bit k clear) has the loose box t - h ..
 * t + 3h, the child of cell 2 c_k + 1 (bit k set) t + h .. t + 5h. */
MBP__HOT uint32_t kid_mask(const mbp_quadtree_state *s, uint16_t n, const qt_range *r)
{
    const mbp_qt_node *nd = &s->node[n];
    if (nd->kids == 0u) {
        return 0u; /* a leaf (the finest cells' nodes among them) */
    }
    uint32_t h = 1u << (QT_FRAC - 1u + s->depth - nd->depth - 1u);
    uint32_t m = 1u;
    for (int k = 0; k < MBP_DIM; k++) {
        uint32_t lo = r->lo[k], hi = r->hi[k] + h, t = 4u * nd->cell[k] * h;
        uint32_t low = lo <= t + 3u * h && hi >= t ? m : 0u;
        uint32_t high = lo <= t + 5u * h && hi >= t + 2u * h ? m << (1u << k) : 0u;
        m = low | high;
    }
    return m & nd->kids;
}

/* A walk: the nodes, depth first, whose loose box may meet a region, from a top node (the root,
 * or a full frame's home node) down, the top node first. rem[d]: the slots of the children still
 * to visit of the node at depth d on the current path (each node's kid_mask(), worked out once,
 * when the walk enters it): the walk's stack, one byte per level, bounded by MBP__QT_DEPTH_MAX. */
typedef struct qt_walk {
    qt_range r;
    uint16_t n;   /* the current node, MBP__QT_NULL at the end */
    uint16_t top; /* the node the walk started from, and ends at */
    uint8_t rem[MBP__QT_DEPTH_MAX + 1u];
} qt_walk;

/* Starts walk w over its region w->r from node top: w->n is top. */
MBP__HOT void walk_start(const mbp_quadtree_state *s, qt_walk *w, uint16_t top)
{
    w->n = top;
    w->top = top;
    w->rem[s->node[top].depth] = (uint8_t)kid_mask(s, top, &w->r);
}

/* Moves walk w to its next node and returns it; MBP__QT_NULL at the end. */
MBP__HOT uint16_t walk_next(const mbp_quadtree_state *s, qt_walk *w)
{
    uint16_t n = w->n;
    uint32_t d = s->node[n].depth;
    for (;;) {
        uint32_t m = w->rem[d];
        for (uint32_t j = 0u; (m >> j) != 0u; j++) {
            if (((m >> j) & 1u) != 0u) {
                uint16_t k = s->node[n].kid[j];
                w->rem[d] = (uint8_t)(m & ~((2u << j) - 1u)); /* the slots after j */
                w->rem[d + 1u] = (uint8_t)kid_mask(s, k, &w->r);
                w->n = k;
                return k;
            }
        }
        if (n == w->top) {
            w->n = MBP__QT_NULL;
            return MBP__QT_NULL;
        }
        n = s->node[n].parent;
        d--;
    }
}

#endif /* MBP_WITH_QUADTREE */

#endif /* MBP_QUADTREE_WALK_H */
