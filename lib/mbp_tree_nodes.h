/* SPDX-License-Identifier: MIT */
/* mbp_tree_nodes.h: what the tree backend's files share (internal): the node pool, the box
 * helpers, the structure's entry points and the fat boxes. mbp_tree.c: how it works, the
 * parameters, adding and removing bodies; mbp_tree_update.c: walks, pairs, the update and the
 * query; mbp_tree_fat.c: fat boxes and margins; mbp_tree_nodes.c: insertion, removal,
 * rotations, the validity check; mbp_tree_build.c: the tree built anew. The state itself:
 * mbp_tree.h.
 */
#ifndef MBP_TREE_NODES_H
#define MBP_TREE_NODES_H

#include "mbp_bp.h"

#if MBP_WITH_TREE

#define MBP__TREE_FREE 0xFFu /* the height of a free node */

/* ---- boxes ---- */

/* A scalar wide enough for sums and differences of coordinates: int64 in fixed point (whose
 * coordinates are int32), float otherwise. */
#if MBP_SCALAR == MBP_FIXED
typedef int64_t mbp__tree_wide;
#else
typedef float mbp__tree_wide;
#endif

/* Twice box b's centre on axis k: min + max, no halving. */
MBP__HOT mbp__tree_wide mbp__tree_centre2(const mbp_aabb *b, int k)
{
    return (mbp__tree_wide)b->min[k] + (mbp__tree_wide)b->max[k];
}

MBP__HOT bool mbp__tree_ov(const mbp_aabb *a, const mbp_aabb *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (a->max[k] < b->min[k] || b->max[k] < a->min[k]) {
            return false;
        }
    }
    return true;
}

MBP__HOT void mbp__tree_unite(const mbp_aabb *a, const mbp_aabb *b, mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        out->min[k] = a->min[k] < b->min[k] ? a->min[k] : b->min[k];
        out->max[k] = a->max[k] > b->max[k] ? a->max[k] : b->max[k];
    }
}

MBP__HOT bool mbp__tree_inside(const mbp_aabb *outer, const mbp_aabb *inner)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (inner->min[k] < outer->min[k] || inner->max[k] > outer->max[k]) {
            return false;
        }
    }
    return true;
}

/* ---- the node pool: a free list through the parent links ---- */

/* The first free node, taken off the free list, which must not be empty. No assert: the build
 * calls it from a second file, where an assert's strings, inlined, would make the flash depend
 * on the link order. */
MBP__HOT uint16_t mbp__tree_pop_free(mbp_tree_state *t)
{
    uint16_t n = t->free_head;
    t->free_head = t->node[n].parent;
    return n;
}

MBP__HOT uint16_t mbp__tree_alloc_node(mbp_tree_state *t)
{
    uint16_t n = t->free_head;
    MBP__ASSERT(n != MBP_TREE_NULL); /* 2N-1 nodes always suffice for N leaves */
    (void)n; /* with MBP_ASSERT 0 */
    return mbp__tree_pop_free(t);
}

MBP__HOT void mbp__tree_free_node(mbp_tree_state *t, uint16_t n)
{
    t->node[n].height = MBP__TREE_FREE;
    t->node[n].parent = t->free_head;
    t->free_head = n;
}

/* ---- the structure (mbp_tree_nodes.c) ---- */

/* Inserts the leaf, descending from node s (the root, or a node whose box held the leaf's box
 * before a removal: a local re-insertion). */
void mbp__tree_insert_leaf(mbp_tree_state *t, uint16_t leaf, uint16_t s);

/* Takes the leaf out of the tree (its node stays allocated: the caller frees or re-inserts it). */
void mbp__tree_remove_leaf(mbp_tree_state *t, uint16_t leaf);

/* Builds the tree anew from the leaves of bodies below high (at least one), with their boxes as
 * they are now, whether in the tree or not yet (mbp_tree_build.c): O(n log n) for n leaves,
 * O(high) more. Every inner node is freed and taken again. */
void mbp__tree_rebuild(mbp_tree_state *t, uint32_t high);

/* ---- fat boxes (mbp_tree_fat.c) ---- */

/* Sets the margins in force from the parameters and the level, and each sweep's exit frame. */
void mbp__tree_set_margins(mbp_tree_state *t);
/* The fat box *out of a body with box *b, displaced by d since the last update; true when it is
 * swept (its sweep longer than the rest of it: only such a leaf can become too big). */
bool mbp__tree_make_fat(mbp_tree_state *t, const mbp_aabb *b, const mbp_scalar *d, mbp_aabb *out);
/* True when fat box *fat is too big for box *box displaced by d (strict: by a smaller factor). */
bool mbp__tree_too_big(const mbp_tree_state *t, const mbp_aabb *fat, const mbp_aabb *box,
                       const mbp_scalar *d, bool strict);

#endif /* MBP_WITH_TREE */

#endif /* MBP_TREE_NODES_H */
