/* SPDX-License-Identifier: MIT */
/* mbp_tree_nodes.c: the structure of the dynamic AABB tree (the backend: mbp_tree.c): insertion,
 * removal, rotations and refits in the fixed node pool, and the validity check of the tests.
 *
 * Insertion descends to the child whose box grows least in surface (perimeter in 2D, area in 3D;
 * Box2D v2.4's cost with inheritance; on a tie, as for a box inside both, the child whose centre
 * is nearer) but may stop only at a node of height <= 1, so that the new parent is balanced;
 * then the ancestors are rebalanced and refitted, up to the first that keeps its box and height
 * (nothing above it can change then).
 *
 * Height bound (why the walks' stack cannot overflow)
 * ---------------------------------------------------
 * Claim: the tree is always AVL-balanced: at every inner node the children's heights differ by
 * at most 1 (height of a leaf 0). Then a tree of height h has at least Fib(h+2) leaves (by
 * induction: L(0) = 1, L(1) = 2, L(h) >= L(h-1) + L(h-2)), so h <= MBP_TREE_HEIGHT_MAX for
 * MBP_MAX_BODIES leaves (table in mbp_config.h: 11 for 256 bodies, 21 for 32767).
 * Proof that insertion and removal keep it: insertion puts the leaf beside a node S of height
 * 0 or 1 (wherever the descent started), so the new parent (S, leaf) is balanced and the subtree
 * at S's place grows by exactly 1; removal replaces the leaf's parent P = (leaf, S) by S, and P
 * balanced means h(S) <= 1, so the subtree shrinks by exactly 1. Walking up, every ancestor then
 * has one child whose height changed by at most 1, all its descendants balanced, so an imbalance
 * of at most 2. rotate() fixes an imbalance of 2 at A = (Y, X), h(X) = h(Y) + 2, X = (F, G),
 * h(F) >= h(G): X takes A's place with children (A', F) and A' = (Y, G). Since X is balanced,
 * h(F) = h(X)-1, h(G) >= h(X)-2 = h(Y), so A' is balanced with height h(X)-1 or h(X), and X's
 * children F and A' differ by at most 1. (Leaf order does not matter in this tree, which is why
 * one rotation handles what an AVL search tree needs two for.) The rotated subtree's height again
 * differs from its height before the operation by at most 1, so the argument continues up, and
 * it may stop at the first node whose height (and box) came out unchanged: its ancestors' balance
 * is as before. A leaf kept in place changes no link and no height, only boxes.
 */
#include "mbp_tree_nodes.h"

#if MBP_WITH_TREE

#define NUL MBP_TREE_NULL

/* ---- surface ---- */

typedef mbp__tree_wide cost_t;
#if MBP_SCALAR == MBP_FIXED
/* Fixed point: extents are below 2^31. 2D: a perimeter below 2^32. 3D: extents scaled down by 4
 * (below 2^29), so an area is below 3 * 2^58 and the insertion costs (sums of up to four areas)
 * stay below 2^63. The lost low bits only blur the choice of sibling, never correctness. */
static cost_t surface(const mbp_aabb *b)
{
#if MBP_DIM == 2
    return ((int64_t)b->max[0] - b->min[0]) + ((int64_t)b->max[1] - b->min[1]);
#else
    int64_t x = ((int64_t)b->max[0] - b->min[0]) >> 2;
    int64_t y = ((int64_t)b->max[1] - b->min[1]) >> 2;
    int64_t z = ((int64_t)b->max[2] - b->min[2]) >> 2;
    return x * y + y * z + z * x;
#endif
}
#else
static cost_t surface(const mbp_aabb *b)
{
    float x = b->max[0] - b->min[0];
    float y = b->max[1] - b->min[1];
#if MBP_DIM == 2
    return x + y;
#else
    float z = b->max[2] - b->min[2];
    return x * y + y * z + z * x;
#endif
}
#endif

/* ---- the tree ---- */

static void refit(mbp_tree_state *t, uint16_t n)
{
    mbp_tree_node *a = &t->node[n];
    const mbp_tree_node *c1 = &t->node[a->child1];
    const mbp_tree_node *c2 = &t->node[a->child2];
    mbp__tree_unite(&c1->box, &c2->box, &a->box);
    a->height = (uint8_t)(1u + (c1->height > c2->height ? c1->height : c2->height));
}

/* In n's parent (or at the root), put m where n was. */
static void replace_child(mbp_tree_state *t, uint16_t parent, uint16_t n, uint16_t m)
{
    if (parent == NUL) {
        t->root = m;
    } else if (t->node[parent].child1 == n) {
        t->node[parent].child1 = m;
    } else {
        t->node[parent].child2 = m;
    }
    t->node[m].parent = parent;
}

/* A's child x is 2 higher than the other: x takes A's place (see the proof at the top). */
static uint16_t rotate(mbp_tree_state *t, uint16_t a, uint16_t x)
{
    mbp_tree_node *na = &t->node[a];
    mbp_tree_node *nx = &t->node[x];
    uint16_t f = nx->child1, g = nx->child2;
    if (t->node[f].height < t->node[g].height) {
        uint16_t tmp = f;
        f = g;
        g = tmp;
    }
    replace_child(t, na->parent, a, x);
    if (na->child1 == x) {
        na->child1 = g;
    } else {
        na->child2 = g;
    }
    t->node[g].parent = a;
    na->parent = x;
    nx->child1 = a;
    nx->child2 = f;
    refit(t, a);
    refit(t, x);
    return x;
}

static bool same_box(const mbp_aabb *a, const mbp_aabb *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (a->min[k] != b->min[k] || a->max[k] != b->max[k]) {
            return false;
        }
    }
    return true;
}

/* Rebalances and refits n and its ancestors, up to the first that comes out of it with the box
 * and height it had: nothing above it can change then. */
static void fix_up(mbp_tree_state *t, uint16_t n)
{
    while (n != NUL) {
        mbp_tree_node *a = &t->node[n];
        const mbp_tree_node *c1 = &t->node[a->child1];
        const mbp_tree_node *c2 = &t->node[a->child2];
        int bal = (int)c2->height - (int)c1->height;
        if (bal > 1 || bal < -1) {
            n = rotate(t, n, bal > 1 ? a->child2 : a->child1);
        } else {
            uint8_t h = (uint8_t)(1u + (c1->height > c2->height ? c1->height : c2->height));
            mbp_aabb u;
            mbp__tree_unite(&c1->box, &c2->box, &u);
            if (h == a->height && same_box(&u, &a->box)) {
                return;
            }
            a->box = u;
            a->height = h;
        }
        n = t->node[n].parent;
    }
}

/* Surface increase of putting box b under node c (the whole union when c is a leaf, which would
 * become a new parent). */
static cost_t child_cost(const mbp_tree_state *t, uint16_t c, const mbp_aabb *b)
{
    mbp_aabb u;
    mbp__tree_unite(&t->node[c].box, b, &u);
    cost_t s = surface(&u);
    return t->node[c].height == 0u ? s : s - surface(&t->node[c].box);
}

/* How far node c's centre lies from box b's, as the sum over the axes of |difference| (doubled:
 * min + max, no halving). Breaks the ties of child_cost(): a box inside both children grows
 * neither, and always taking the first one stretched the middle levels of large trees. */
static cost_t distance(const mbp_tree_state *t, uint16_t c, const mbp_aabb *b)
{
    const mbp_aabb *x = &t->node[c].box;
    cost_t d = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        cost_t e = mbp__tree_centre2(x, k) - mbp__tree_centre2(b, k);
        d += e < 0 ? -e : e;
    }
    return d;
}

/* Inserts the leaf, descending from node s (the root, or a node whose box held the leaf's box
 * before a removal: a local re-insertion). */
void mbp__tree_insert_leaf(mbp_tree_state *t, uint16_t leaf, uint16_t s)
{
    if (t->root == NUL) {
        t->root = leaf;
        t->node[leaf].parent = NUL;
        return;
    }
    const mbp_aabb *b = &t->node[leaf].box;
    while (t->node[s].height > 0u) {
        const mbp_tree_node *n = &t->node[s];
        cost_t c1 = child_cost(t, n->child1, b);
        cost_t c2 = child_cost(t, n->child2, b);
        /* The leaf may become s's sibling only at height <= 1: higher, the new parent would be
         * unbalanced. There, that costs the new parent's surface, against going down, which
         * also grows s (the inherited cost). */
        if (n->height <= 1u) {
            mbp_aabb u;
            mbp__tree_unite(&n->box, b, &u);
            cost_t here = 2 * surface(&u);
            cost_t inherit = 2 * (surface(&u) - surface(&n->box));
            if (here < c1 + inherit && here < c2 + inherit) {
                break;
            }
        }
        if (c1 == c2) {
            c1 = distance(t, n->child1, b);
            c2 = distance(t, n->child2, b);
        }
        s = c1 <= c2 ? n->child1 : n->child2;
    }
    uint16_t p = mbp__tree_alloc_node(t);
    uint16_t gp = t->node[s].parent;
    mbp_tree_node *np = &t->node[p];
    np->child1 = s;
    np->child2 = leaf;
    t->node[s].parent = p;
    t->node[leaf].parent = p;
    replace_child(t, gp, s, p);
    refit(t, p);
    fix_up(t, gp);
}

void mbp__tree_remove_leaf(mbp_tree_state *t, uint16_t leaf)
{
    if (leaf == t->root) {
        t->root = NUL;
        return;
    }
    uint16_t p = t->node[leaf].parent;
    uint16_t gp = t->node[p].parent;
    uint16_t s = t->node[p].child1 == leaf ? t->node[p].child2 : t->node[p].child1;
    replace_child(t, gp, p, s);
    mbp__tree_free_node(t, p);
    fix_up(t, gp);
}

/* ---- for tests ---- */

uint32_t mbp__tree_height(const mbp_tree_state *t)
{
    return t->root == NUL ? 0u : t->node[t->root].height;
}

bool mbp__tree_valid(const mbp_tree_state *t)
{
    uint32_t used = 0u, leaves = 0u, bodies = 0u, free_count = 0u;
    if (t->root != NUL && (t->root >= MBP_TREE_NODES || t->node[t->root].parent != NUL)) {
        return false;
    }
    for (uint32_t n = 0; n < MBP_TREE_NODES; n++) {
        const mbp_tree_node *a = &t->node[n];
        if (a->height == MBP__TREE_FREE) {
            continue;
        }
        used++;
        /* Heights strictly grow along parent links and only the root lacks a parent, so every
         * used node reaches the root: with the counts below, this is one tree. */
        if (n != t->root) {
            if (a->parent >= MBP_TREE_NODES) {
                return false;
            }
            const mbp_tree_node *p = &t->node[a->parent];
            if (p->height == MBP__TREE_FREE || p->height <= a->height ||
                (p->child1 != n && p->child2 != n)) {
                return false;
            }
        }
        if (a->child1 == NUL) {
            leaves++;
            if (a->height != 0u || a->child2 >= MBP_MAX_BODIES || t->leaf[a->child2] != n) {
                return false;
            }
            continue;
        }
        if (a->child1 >= MBP_TREE_NODES || a->child2 >= MBP_TREE_NODES) {
            return false;
        }
        const mbp_tree_node *c1 = &t->node[a->child1];
        const mbp_tree_node *c2 = &t->node[a->child2];
        int h1 = c1->height, h2 = c2->height;
        if (c1->height == MBP__TREE_FREE || c2->height == MBP__TREE_FREE || c1->parent != n ||
            c2->parent != n || a->height != 1 + (h1 > h2 ? h1 : h2) || h1 - h2 > 1 ||
            h2 - h1 > 1 || !mbp__tree_inside(&a->box, &c1->box) || !mbp__tree_inside(&a->box, &c2->box)) {
            return false;
        }
    }
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        bodies += t->leaf[i] != NUL ? 1u : 0u;
    }
    for (uint16_t n = t->free_head; n != NUL && free_count <= MBP_TREE_NODES; n = t->node[n].parent) {
        if (n >= MBP_TREE_NODES || t->node[n].height != MBP__TREE_FREE) {
            return false;
        }
        free_count++;
    }
    return leaves == bodies && used == (leaves == 0u ? 0u : 2u * leaves - 1u) &&
           free_count == MBP_TREE_NODES - used && (t->root == NUL) == (used == 0u) &&
           mbp__tree_height(t) <= MBP_TREE_HEIGHT_MAX;
}

#endif /* MBP_WITH_TREE */
