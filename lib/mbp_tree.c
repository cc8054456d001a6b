/* SPDX-License-Identifier: MIT */
/* mbp_tree.c: dynamic AABB tree with fat leaves, in a fixed node pool.
 *
 * How it works
 * ------------
 * Each body is a leaf holding a fat box: its box grown on each side by a margin (tree_margin plus
 * tree_margin_frac/256 of its size) and extended ahead by tree_sweep times its displacement since
 * the last update (velocity expansion: a body moving steadily stays inside for about tree_sweep
 * frames). The sweep is capped at twice the extent of the box with its margins, so a jump does
 * not make a huge box. A moving body's sweep is 16/16, 14/16, 12/16 or 10/16 of tree_sweep: the
 * one whose exit frame (about sweep + 1 frames ahead) has the fewest exits due so far, the
 * longest on a tie (see "Bursts" below). Inner nodes hold (at least) the union of their
 * children. Nodes come from a pool of 2N-1 (a tree of n leaves has 2n-1 nodes, so it never runs
 * out) with a free list; indices are 16-bit, MBP_TREE_NULL is none.
 *
 * Candidates are the pairs whose fat boxes overlap. Invariant between updates: the pair set
 * holds exactly those pairs as candidates (after a frame where it overflowed, see below). In an
 * update, only dirty bodies are looked at:
 *   - a moved body still inside its fat box costs nothing here but one box test (the core
 *     re-tests its candidate pairs exactly), unless its fat box is over twice the size a fresh
 *     one would be (it slowed down after a fast move), which counts as leaving it. Only a leaf
 *     whose sweep is longer than the rest of its box can become too big: those are checked one
 *     frame in four, the others never.
 *   - a new body is queried against the tree with its fat box (candidate for each hit) and
 *     then inserted, so two new bodies find each other exactly once;
 *   - a moved body that left its fat box F gets a fresh one F'. The pairs first: the leaves
 *     around it are walked with F u F' (or with F and with F' when they do not overlap: a jump),
 *     bottom-up from the leaf (the other child of each ancestor), and for each leaf j found, the
 *     pair becomes a candidate if F' overlaps Fj and F did not, and stops being one if F
 *     overlapped Fj and F' does not. Every step keeps the invariant, whatever the order of bodies,
 *     so no per-body candidate lists are needed. Then the leaf moves: when an ancestor of height
 *     <= KEEP_HEIGHT holds F', the leaf keeps its place and only the ancestors below that one grow
 *     to hold F' (nothing above changes); otherwise it is removed and inserted again, descending
 *     from the lowest ancestor that held F' (or the root).
 * Fat candidates outnumber true pairs, and the pair set is sized for true pairs, so the tree
 * keeps incremental only while the candidates fit with room to spare:
 *   - while they fill over 11/16 of the set (at the start of a frame, or as a frame's
 *     re-insertions add them), fat boxes made from then on shrink: each level halves the margins
 *     and the sweep, up to MBP_TREE_LEVELS times; below 5/8 they grow back a level, then wait
 *     tree_sweep >> level frames (the boxes made at the new level show in the count) before the
 *     next: growing back a level a frame overshoots, and the level swings (with waves of
 *     re-insertions as the small boxes of a high level run out together);
 *   - exact full frame (mbp__sink_full_frame(out, false), one walk per leaf, report pairs whose boxes
 *     overlap: as brute force, no more room needed) when the set is over 3/4 full at the start,
 *     when it overflowed last frame, or when an incremental report finds it full: then the
 *     candidates inserted this frame are dropped first (mbp__sink_drop_new), so no pair
 *     that brute force would keep is ever lost to fat candidates. Such frames also count the fat
 *     candidates, and re-insert every moved leaf whose fat box is over 5/4 of a fresh one;
 *   - sync (mbp__sink_full_frame(out, true), report every fat candidate) after an exact frame whose
 *     count says the candidates fit in 5/8 of the set: incremental again from the next frame.
 * Builds: in a frame where nearly every body moved (7 in 8) and most of them jumped (a fresh fat
 * box apart from the old one, or a new body), the rest of the jumpers only take fresh fat boxes,
 * the tree is built anew from all its leaves by median splits (mbp_tree_build.c) and the frame
 * is a full one: a sync, or exact once the candidates would fill 3/4 of the set (it drops them
 * and walks again) or when the last frame built too. Every body teleporting, a level reset or a
 * world filled at once: one walk a leaf in a tight tree, O(n log n), instead of re-inserting
 * each jumper into a tree whose other leaves sit at their old places (two walks and a descent
 * each, in a tree that grows looser).
 *
 * The tree's structure (insertion, removal, rotations, and the proof that the tree stays
 * AVL-balanced, of height h <= MBP_TREE_HEIGHT_MAX): mbp_tree_nodes.c; built anew:
 * mbp_tree_build.c. Fat boxes: mbp_tree_fat.c. The frame (walks, pair changes, re-insertions,
 * the update) and the query: mbp_tree_update.c. This file: the parameters, adding and removing
 * bodies.
 * A walk tests a node, and when it is an inner node that overlaps, goes on with its first child
 * and pushes its second: every entry on the stack is the second child of a distinct proper
 * ancestor of the node being tested, so it holds at most h entries (MBP_TREE_STACK is h+1).
 * Still, a walk checks before every push; a walk that would exceed its cap (only possible when a
 * test lowers stack_cap) finishes that subtree without a stack by following parent links, so the
 * result stays exact, and the update returns MBP_E_NOROOM (mbp_update() passes it on).
 *
 * Cost per frame (incremental): nothing for bodies that did not move (a fully static scene
 * costs O(1) here); O(1) for a moved body inside its fat box; for a body leaving it or new,
 * O(log n) to move the leaf (O(1) when it keeps its place) plus a walk of O(log n + k) for k
 * leaves near it. The core adds O(p) for p stored pairs. A full frame is O(n log n + c) for c fat
 * candidates, and so is a frame that builds the tree. Worst case: one huge body, or every body
 * overlapping: walks become O(n) each, O(n^2) a frame. Queries: O(log n + k). No recursion
 * anywhere. RAM: see mbp_tree.h.
 * Bursts: bodies that start moving alike in one frame (added together, say) would leave their fat
 * boxes together, about every tree_sweep + 1 frames, in waves that fade slowly (with one sweep for
 * all, make bench's sparse scene had a worst frame of 4 times the mean). So re-insertions are
 * spread: t->due counts, for each of the next MBP_TREE_DUE frames, the moving bodies expected to
 * leave their fat box then (a fresh box with sweep s lasts about s + 1 frames; the count is a
 * guess, bounces and turns make it wrong, and it only steers). A fresh box takes the sweep whose
 * exit frame has the fewest due, so a wave splits over up to 4 frames at each re-insertion and
 * is gone in a few; when the load is even, most take the full sweep. Correctness does not depend
 * on it: any sweep gives a valid fat box. In make bench's sparse, dense and teleport scenes the
 * worst frame is now within about 1.5 times the mean; re-insertions rise by about 2%.
 */
#include "mbp_bp.h"
#include "mbp_tree_nodes.h"

#if MBP_WITH_TREE

#define NUL MBP_TREE_NULL

/* ---- hooks (the update and the query: mbp_tree_update.c) ---- */

mbp_status mbp__tree_init(mbp_tree_state *t, const mbp_params *p)
{
    if (!mbp_in_range(p->tree_margin) || p->tree_margin < 0 || p->tree_margin_frac > 256u ||
        p->tree_sweep > 16u) {
        return MBP_E_PARAM;
    }
    t->param_margin = p->tree_margin;
    t->param_frac = p->tree_margin_frac;
    t->param_sweep = p->tree_sweep;
    for (uint32_t n = 0; n < MBP_TREE_NODES; n++) {
        t->node[n].parent = (uint16_t)(n + 1u < MBP_TREE_NODES ? n + 1u : NUL);
        t->node[n].height = MBP__TREE_FREE;
    }
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        t->leaf[i] = NUL;
    }
    t->root = NUL;
    t->free_head = 0u;
    t->stack_cap = MBP_TREE_STACK;
    t->build_min = 8u;
    t->inserts = 0u;
    t->kept = 0u;
    t->kept_in_place = 0u;
    t->jumps = 0u;
    t->overflows = 0u;
    t->level = 0u;
    t->tick = 0u;
    t->hold = 0u;
    for (uint32_t s = 0; s < MBP_TREE_DUE; s++) {
        t->due[s] = 0u;
    }
    mbp__tree_set_margins(t);
    t->rebuilds = 0u;
    t->builds = 0u;
    t->built = 0u;
    t->fat_pairs = 0u;
    t->synced = true; /* no bodies, no candidates */
    return MBP_OK;
}

mbp_status mbp__tree_add(mbp_tree_state *t, uint16_t i, const mbp_aabb *box)
{
    /* Inserted at the next update, after its pairs are found: see the top comment. */
    t->leaf[i] = NUL;
    for (int k = 0; k < MBP_DIM; k++) {
        t->ref[i][k] = box->min[k];
    }
    return MBP_OK;
}

void mbp__tree_remove(mbp_tree_state *t, uint16_t i, const mbp_aabb *last)
{
    (void)last; /* the leaf knows its fat box */
    uint16_t lf = t->leaf[i];
    if (lf != NUL) {
        mbp__tree_remove_leaf(t, lf);
        mbp__tree_free_node(t, lf);
        t->leaf[i] = NUL;
    }
}

#endif /* MBP_WITH_TREE */
