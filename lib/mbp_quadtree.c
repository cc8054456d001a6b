/* SPDX-License-Identifier: MIT */
/* mbp_quadtree.c: the loose quadtree (2D) / octree (3D) backend.
 *
 * The world box is a square (cube) of edge quadtree_cell * 2^quadtree_depth from quadtree_origin:
 * the root node. A node at depth d has the cell of edge E = quadtree_cell * 2^(depth - d) that
 * its cell coordinates name, and up to 2^MBP_DIM children, the four (eight) halves of its cell.
 * The tree is loose: a node holds the bodies whose centre lies in its cell and whose largest
 * edge is at most E, so each body's box lies within its node's cell grown by E/2 on every side
 * (the loose box, twice the cell). A body lives in exactly one node, found in O(depth) steps of
 * integer (fixed point) or float arithmetic, with no search: the depth from its size (the
 * deepest whose E is at least the largest edge), the cell from its centre. A body whose centre
 * is outside the world box, or larger than the world box, lives in the root.
 *
 * Nodes come from a fixed pool (MBP_QUADTREE_NODES) and are taken when a body needs them (the
 * path from the root to its node) and given back as soon as they hold no body and no child. When
 * the pool runs short, a body lives in the deepest node of its path that the pool could supply:
 * an ancestor of its own node, whose cell holds its centre and whose edge exceeds its size, so the
 * loose bound still holds and pairs stay exact (only walks meet more bodies). Nothing fails and no
 * body is dropped; it goes deeper when it next moves and the pool has room.
 *
 * Bodies are placed at the update, not at add or move (there is no move hook): between updates
 * the tree holds every body where its box of the last update (rec[]) puts it, and a body added
 * since is not in it yet.
 *
 * Pairs, incremental (mbp__sink_begin / mbp__sink_end): the candidates are the pairs whose boxes
 * overlap, as of the update where one of the two last moved. The pairs stored from a full frame
 * (those that overlap exactly) are a subset of these, which is enough: an update begins every
 * pair whose boxes meet for each body that moved, so a pair a full frame left out (filters, exact
 * volumes) is begun as soon as either body moves, refiltering included. Only the bodies of the
 * view's moved list (added ones included) are looked at, one at a time. For moved body b, a walk
 * from the root meets every body c of the tree whose box rec[c] meets b's old box (rec[b]) or its
 * new one (one walk with their union, or two when b jumped): the pair begins when rec[c] meets b's
 * new box, and ends when it met the old one and does not meet the new one. Then rec[b] becomes
 * the new box and b is relinked if its node changed. Each step keeps "every stored candidate's
 * boxes (rec[]) overlap", whatever the order of the bodies, so when the last one is done every
 * candidate overlaps as of this update and every overlapping pair with a moved body was begun.
 * A new body (not in the tree) has no old box: it only begins pairs, and is linked after.
 *
 * Full frame (mbp__sink_full_frame(out, false)) when more than 7/16 of the live bodies moved
 * (their walks from the root would cost more: mbp__quadtree_update()), when the last update could
 * not store every pair (mbp__sink_overflowed()), or when this one filled the pair set with
 * candidates (those begun in it are dropped first, mbp__sink_drop_new(), so that no pair brute
 * force keeps is lost to candidates that do not overlap exactly). The moved bodies are placed
 * first. Then each body gets a home: the deepest node of its path whose cell (not loose) holds its
 * box, in units of the walks below (the root when no cell does). Cells either nest or are apart,
 * so two bodies whose boxes meet have homes of which one is the other or its ancestor: each body
 * walks only the subtree of its home (into the children whose loose box meets its box), and tests
 * the bodies there whose home is deeper than its own, or the same with a higher index. So each
 * pair is tested once, and no walk starts from the root unless the body's home is the root (a
 * body across one of the root's halving lines, or outside the world box).
 *
 * No recursion: a walk goes from a node to its first child whose loose box meets the box, else up
 * to the parent's next such child, using the parent links; it holds the node and, for each depth
 * of its path, the children still to visit (a mask worked out once per node entered). Boxes are
 * measured in 1/16 of the finest cell, integers, widened by one unit each way: offsets from the
 * world's min corner are exact in fixed point (int64) and, in float, rounded monotonically, by far
 * less than that unit.
 *
 * Files: this one keeps how it works, the parameters, adding and removing bodies (a body's node
 * given back to the pool) and the query; mbp_quadtree_frame.c the update (placing the moved
 * bodies, their walks from the root, the full frame from each body's home); mbp_quadtree_walk.h
 * what the two share (the walks, inlined where they are hot).
 *
 * Cost per update: one or two walks of O(depth + nodes met) per moved body; a full frame one
 * walk per body from its home (mostly its node or a few levels up); queries one walk.
 * RAM: mbp_quadtree.h.
 */
#include "mbp_quadtree_walk.h"

#if MBP_WITH_QUADTREE

/* ---- nodes ---- */

/* Takes body i out of its node's list; returns the node. */
uint16_t mbp__quadtree_unlink(mbp_quadtree_state *s, uint16_t i)
{
    uint16_t n = s->of[i], a = s->prev[i], b = s->next[i];
    if (a != MBP__QT_NULL) {
        s->next[a] = b;
    } else {
        s->node[n].head = b;
    }
    if (b != MBP__QT_NULL) {
        s->prev[b] = a;
    }
    s->of[i] = MBP__QT_NULL;
    return n;
}

/* Gives node n and its ancestors back to the pool while they hold nothing (never the root). */
void mbp__quadtree_prune(mbp_quadtree_state *s, uint16_t n)
{
    while (n != 0u && s->node[n].head == MBP__QT_NULL && s->node[n].kids == 0u) {
        const mbp_qt_node *nd = &s->node[n];
        uint16_t up = nd->parent;
        uint32_t j = slot_of(nd->cell);
        s->node[up].kid[j] = MBP__QT_NULL;
        s->node[up].kids &= (uint8_t)~(1u << j);
        s->node[n].parent = s->free_head;
        s->free_head = n;
        s->used--;
        n = up;
    }
}

/* ---- hooks ---- */

mbp_status mbp__quadtree_init(mbp_quadtree_state *s, const mbp_params *p)
{
    if (p->quadtree_depth > MBP__QT_DEPTH_MAX) {
        return MBP_E_PARAM;
    }
#if MBP_SCALAR == MBP_FIXED
    if (p->quadtree_cell < 1 || ((int64_t)p->quadtree_cell << p->quadtree_depth) > (int64_t)UINT32_MAX) {
        return MBP_E_PARAM;
    }
#else
    /* Written so that NaN fails; 2^-40 keeps offsets / cell finite, as for the grid. */
    if (!(p->quadtree_cell >= 1.0f / 1099511627776.0f && p->quadtree_cell <= MBP_RANGE)) {
        return MBP_E_PARAM;
    }
    s->inv = 1.0f / p->quadtree_cell;
    s->root = p->quadtree_cell;
    for (uint32_t d = 0u; d < p->quadtree_depth; d++) {
        s->root *= 2;
    }
#endif
    for (int k = 0; k < MBP_DIM; k++) {
        if (!mbp_in_range(p->quadtree_origin[k])) {
            return MBP_E_PARAM;
        }
        s->origin[k] = p->quadtree_origin[k];
        s->node[0].cell[k] = 0u;
    }
#if MBP_SCALAR == MBP_FIXED
    s->cell = mbp__cellmap_of((uint32_t)p->quadtree_cell);
#else
    s->cell = p->quadtree_cell;
#endif
    s->depth = p->quadtree_depth;
    for (uint32_t j = 0; j < (uint32_t)MBP__QT_KIDS; j++) {
        s->node[0].kid[j] = MBP__QT_NULL;
    }
    s->node[0].parent = MBP__QT_NULL;
    s->node[0].head = MBP__QT_NULL;
    s->node[0].depth = 0u;
    s->node[0].kids = 0u;
    for (uint32_t n = 1u; n < MBP_QUADTREE_NODES; n++) {
        s->node[n].parent = (uint16_t)(n + 1u < MBP_QUADTREE_NODES ? n + 1u : MBP__QT_NULL);
    }
    s->free_head = MBP_QUADTREE_NODES > 1 ? 1u : MBP__QT_NULL;
    s->used = 1u;
    s->cap = MBP_QUADTREE_NODES;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        s->of[i] = MBP__QT_NULL;
    }
    return MBP_OK;
}

/* Bodies are placed at the update (the top comment): a new body waits outside the tree. */
mbp_status mbp__quadtree_add(mbp_quadtree_state *s, uint16_t i, const mbp_aabb *box)
{
    (void)box;
    s->of[i] = MBP__QT_NULL;
    return MBP_OK;
}

void mbp__quadtree_remove(mbp_quadtree_state *s, uint16_t i, const mbp_aabb *last)
{
    (void)last;
    if (s->of[i] != MBP__QT_NULL) { /* else added and removed since the last update */
        mbp__quadtree_prune(s, mbp__quadtree_unlink(s, i));
    }
}

void mbp__quadtree_query(const mbp_quadtree_state *s, const mbp__bodies *v, const mbp_aabb *box,
                         mbp__visit_fn fn, void *ctx)
{
    (void)v; /* the tree's boxes are those of the last update (rec[]) */
    qt_walk w;
    w.r = range_of_box(s, box);
    walk_start(s, &w, 0u);
    for (uint16_t n = 0u; n != MBP__QT_NULL; n = walk_next(s, &w)) {
        for (uint16_t c = s->node[n].head; c != MBP__QT_NULL; c = s->next[c]) {
            if (mbp__boxes_meet(&s->rec[c], box)) {
                fn(ctx, c);
            }
        }
    }
}

#endif /* MBP_WITH_QUADTREE */
