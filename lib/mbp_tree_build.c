/* SPDX-License-Identifier: MIT */
/* mbp_tree_build.c: the dynamic AABB tree built anew from its leaves (the backend: mbp_tree.c),
 * for a frame in which nearly every body jumped (mbp_tree_update.c decides): re-inserted one by
 * one, each jumper would go down a tree whose other leaves still sit at their old places, and the
 * tree would come out loose (walks test more, and more each such frame); built at once from where
 * the leaves are now, it is tight.
 *
 * Top-down median splits: each inner node takes a range of leaves, finds the axis along which
 * their centres spread most and splits the range at its middle position, the leaves with the
 * smaller centres on that axis first (a radix select on the centres quantized to 16 bits an axis
 * in 2D, 10 in 3D). Sibling subtrees hold counts that differ by at most 1, so their heights differ
 * by at most 1: the tree is AVL-balanced, as mbp_tree_nodes.c requires, and its height is
 * ceil(log2 n), within MBP_TREE_HEIGHT_MAX.
 * Scratch space, none extra: the body -> leaf array holds the leaves while the tree is built (it
 * is filled again from the leaves at the end), and each leaf's parent and child1 hold its
 * quantized centre while it waits (both are written when it is placed). No recursion: a stack of
 * the ranges still to place (one per level), and walks along the parent links to free the old
 * tree and to finish the new one.
 * Cost: O(n log n) for n leaves (each level is a pass over the leaves; AXIS_BITS passes at worst,
 * when the centres bunch up), plus O(high) for the body -> leaf array. The tree depends only on
 * the leaves' boxes and the bodies' order: deterministic.
 */
#include "mbp_bp.h"
#include "mbp_tree_nodes.h"

#if MBP_WITH_TREE

#define NUL MBP_TREE_NULL

/* Bits of a leaf's quantized centre per axis: 2 x 16 in 2D, 3 x 10 in 3D, in the 32 bits of
 * its parent and child1 while it waits to be placed. */
#if MBP_DIM == 2
#define AXIS_BITS 16u
#define AXIS_MAX 0xFFFFu
#define AXIS_TOP 0x8000u    /* its highest bit */
#define AXIS_MAX_F 65535.0f /* AXIS_MAX as a float */
#else
#define AXIS_BITS 10u
#define AXIS_MAX 0x3FFu
#define AXIS_TOP 0x200u
#define AXIS_MAX_F 1023.0f
#endif

/* How the centres map to AXIS_BITS on each axis: from lo[k], shifted right by sh[k] (fixed
 * point) or scaled by sc[k] (float). */
typedef struct {
    mbp__tree_wide lo[MBP_DIM];
#if MBP_SCALAR == MBP_FIXED
    uint32_t sh[MBP_DIM];
#else
    mbp_scalar sc[MBP_DIM];
#endif
} grid_t;

static uint32_t quantize(const grid_t *g, mbp__tree_wide c, int k)
{
    mbp__tree_wide d = c - g->lo[k]; /* >= 0 */
#if MBP_SCALAR == MBP_FIXED
    return (uint32_t)((uint64_t)d >> g->sh[k]); /* d <= the span: within AXIS_MAX */
#else
    mbp_scalar q = d * g->sc[k];
    return q < AXIS_MAX_F ? (uint32_t)q : AXIS_MAX;
#endif
}

/* Leaf n's quantized centre on axis k. */
static uint32_t key(const mbp_tree_state *t, uint16_t n, int k)
{
    const mbp_tree_node *nd = &t->node[n];
#if MBP_DIM == 2
    return k == 0 ? nd->parent : nd->child1;
#else
    uint32_t w = ((uint32_t)nd->parent << 16) | nd->child1;
    return (w >> (AXIS_BITS * (uint32_t)k)) & AXIS_MAX;
#endif
}

/* The span of the centres of the m leaves in ids, and each leaf's quantized centre. */
static void quantize_all(mbp_tree_state *t, const uint16_t *ids, uint32_t m)
{
    grid_t g;
    mbp__tree_wide hi[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        g.lo[k] = hi[k] = mbp__tree_centre2(&t->node[ids[0]].box, k);
    }
    for (uint32_t j = 1u; j < m; j++) {
        for (int k = 0; k < MBP_DIM; k++) {
            mbp__tree_wide c = mbp__tree_centre2(&t->node[ids[j]].box, k);
            g.lo[k] = c < g.lo[k] ? c : g.lo[k];
            hi[k] = c > hi[k] ? c : hi[k];
        }
    }
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        uint64_t span = (uint64_t)(hi[k] - g.lo[k]);
        uint32_t s = 0u;
        while ((span >> s) > AXIS_MAX) {
            s++;
        }
        g.sh[k] = s;
#else
        mbp_scalar span = hi[k] - g.lo[k];
        g.sc[k] = span > 0.0f ? AXIS_MAX_F / span : 0.0f;
#endif
    }
    for (uint32_t j = 0u; j < m; j++) {
        mbp_tree_node *n = &t->node[ids[j]];
        uint32_t w = 0u;
        for (int k = 0; k < MBP_DIM; k++) {
            w |= quantize(&g, mbp__tree_centre2(&n->box, k), k) << (AXIS_BITS * (uint32_t)k);
        }
#if MBP_DIM == 2
        n->parent = (uint16_t)w; /* axis 0 */
        n->child1 = (uint16_t)(w >> 16);
#else
        n->parent = (uint16_t)(w >> 16);
        n->child1 = (uint16_t)w;
#endif
    }
}

/* ids[b..e) reordered so that no leaf before mid has a larger key on axis k than ids[mid], and
 * none after it a smaller one: a radix select, one pass over the part that holds mid for each
 * bit of the key from the highest that differs among them (the highest set in differ, the
 * xor of their least and greatest key): about 2 (e - b) steps for spread keys, AXIS_BITS (e - b)
 * at worst, whatever the input. */
static void select_mid(const mbp_tree_state *t, uint16_t *ids, int k, uint32_t b, uint32_t e,
                       uint32_t mid, uint32_t differ)
{
    uint32_t l = b, r = e; /* ids[l..r) holds mid, and sorts between the two sides of it */
    uint32_t bit = AXIS_TOP;
    while (bit > differ) {
        bit >>= 1; /* a bit above the highest that differs: the same in every key here */
    }
    for (; bit != 0u && r - l > 1u; bit >>= 1) {
        uint32_t i = l, j = r; /* this bit 0 before i, 1 from j on */
        for (;;) {
            while (i < j && (key(t, ids[i], k) & bit) == 0u) {
                i++;
            }
            while (i < j && (key(t, ids[j - 1u], k) & bit) != 0u) {
                j--;
            }
            if (i == j) {
                break;
            }
            uint16_t y = ids[i];
            ids[i] = ids[j - 1u];
            ids[j - 1u] = y;
        }
        if (mid < i) {
            r = i;
        } else {
            l = i;
        }
    }
}

/* ids[b..e) split at mid on the axis along which their centres spread most. */
static void split(const mbp_tree_state *t, uint16_t *ids, uint32_t b, uint32_t e, uint32_t mid)
{
    uint32_t lo[MBP_DIM], hi[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        lo[k] = hi[k] = key(t, ids[b], k);
    }
    for (uint32_t j = b + 1u; j < e; j++) {
        for (int k = 0; k < MBP_DIM; k++) {
            uint32_t c = key(t, ids[j], k);
            lo[k] = c < lo[k] ? c : lo[k];
            hi[k] = c > hi[k] ? c : hi[k];
        }
    }
    int ax = 0;
    for (int k = 1; k < MBP_DIM; k++) {
        if (hi[k] - lo[k] > hi[ax] - lo[ax]) {
            ax = k;
        }
    }
    select_mid(t, ids, ax, b, e, mid, lo[ax] ^ hi[ax]);
}

/* The first leaf of subtree n, by child1 links. */
static uint16_t first_leaf(const mbp_tree_state *t, uint16_t n)
{
    while (t->node[n].child1 != NUL) {
        n = t->node[n].child1;
    }
    return n;
}

/* The node after n in a walk by links that visits each node after its subtrees (children before
 * parents, no stack); NUL after the root. Reads n's parent and the parent's children only. */
static uint16_t after(const mbp_tree_state *t, uint16_t n)
{
    uint16_t p = t->node[n].parent;
    if (p == NUL) {
        return NUL;
    }
    return t->node[p].child1 == n ? first_leaf(t, t->node[p].child2) : p;
}

/* Frees every inner node of the tree (the next node is found before one is freed, and a freed
 * node is never visited again). */
static void free_inner(mbp_tree_state *t)
{
    if (t->root == NUL) {
        return;
    }
    uint16_t n = first_leaf(t, t->root);
    while (n != NUL) {
        uint16_t next = after(t, n);
        if (t->node[n].child1 != NUL) {
            mbp__tree_free_node(t, n);
        }
        n = next;
    }
    t->root = NUL;
}

/* A range of the leaves still to place, and where its subtree hangs. */
typedef struct {
    uint16_t b, e;   /* ids[b..e) */
    uint16_t parent; /* NUL: the root */
    uint16_t second; /* 1: the parent's child2, else its child1 */
} part_t;

/* Places the leaves ids[0..m) in a tree whose inner nodes each split their range at its middle
 * (split(): the smaller centres first): links only (finish() does the boxes and heights). */
static void place(mbp_tree_state *t, uint16_t *ids, uint32_t m)
{
    part_t stack[MBP_TREE_STACK];
    uint32_t sp = 0u;
    stack[sp++] = (part_t){0u, (uint16_t)m, NUL, 0u};
    while (sp > 0u) {
        part_t r = stack[--sp];
        uint16_t n;
        if (r.e - r.b == 1u) {
            n = ids[r.b];
            t->node[n].child1 = NUL;
        } else {
            /* Stack depth: the pending second halves, one per level above, at most the height
             * ceil(log2 m) <= MBP_TREE_HEIGHT_MAX < MBP_TREE_STACK, and this node's two. The
             * free list holds at least the m - 1 inner nodes freed above. */
            n = mbp__tree_pop_free(t);
            uint16_t mid = (uint16_t)(r.b + (r.e - r.b) / 2u);
            split(t, ids, r.b, r.e, mid);
            stack[sp++] = (part_t){mid, r.e, n, 1u};
            stack[sp++] = (part_t){r.b, mid, n, 0u};
        }
        t->node[n].parent = r.parent;
        if (r.parent == NUL) {
            t->root = n;
        } else if (r.second != 0u) {
            t->node[r.parent].child2 = n;
        } else {
            t->node[r.parent].child1 = n;
        }
    }
}

/* Every inner node's box and height from its children's, and every body's leaf, each node after
 * its subtrees. */
static void finish(mbp_tree_state *t)
{
    for (uint16_t n = first_leaf(t, t->root); n != NUL; n = after(t, n)) {
        mbp_tree_node *nd = &t->node[n];
        if (nd->child1 == NUL) {
            t->leaf[nd->child2] = n;
        } else {
            const mbp_tree_node *c1 = &t->node[nd->child1], *c2 = &t->node[nd->child2];
            mbp__tree_unite(&c1->box, &c2->box, &nd->box);
            /* child2 holds the larger half (place()), so the taller subtree, or as tall. */
            nd->height = (uint8_t)(c2->height + 1u);
        }
    }
}

void mbp__tree_rebuild(mbp_tree_state *t, uint32_t high)
{
    free_inner(t);
    /* The leaves, in body order, into the body -> leaf array (compacted in place). */
    uint16_t *ids = t->leaf;
    uint32_t m = 0u;
    for (uint32_t i = 0u; i < high; i++) {
        if (ids[i] != NUL) {
            ids[m++] = ids[i];
        }
    }
    MBP__ASSERT(m > 0u); /* the body whose jump made the frame build has a leaf */
    quantize_all(t, ids, m);
    place(t, ids, m);
    for (uint32_t i = 0u; i < high; i++) {
        ids[i] = NUL;
    }
    finish(t);
    t->builds++;
}

#endif /* MBP_WITH_TREE */
