/* mbp_tree.c: dynamic AABB tree with fat leaves, in a fixed node pool.
 *
 * How it works
 * ------------
 * Each body is a leaf holding a fat box: its box grown by a margin (tree_margin plus
 * tree_margin_frac/256 of its size) and extended ahead by tree_sweep times its displacement since
 * the last update (the space-time bound). Inner nodes hold the union of their children. Nodes
 * come from a pool of 2N-1 (a tree of n leaves has 2n-1 nodes, so it never runs out) with a free
 * list; indices are 16-bit, MBP_TREE_NULL is none.
 *
 * Candidates are the pairs whose fat boxes overlap. Invariant between updates: the pair set
 * holds exactly those pairs as candidates (after a frame where it overflowed, see below). In an
 * update, only dirty bodies are looked at:
 *   - a new body is queried against the tree with its fat box (candidate for each hit) and
 *     then inserted, so two new bodies find each other exactly once;
 *   - a moved body still inside its fat box costs nothing here (the core re-tests its candidate
 *     pairs exactly), unless its fat box is over twice the size a fresh one would be (it has
 *     slowed down or stopped after a fast move), which counts as leaving it;
 *   - a moved body that left its fat box F gets a fresh one F': its leaf is removed, the tree is
 *     walked once with F u F', and for each leaf j found, the pair becomes a candidate if F'
 *     overlaps Fj and F did not, and stops being one if F overlapped Fj and F' does not. Then the
 *     leaf is re-inserted with F'. Every step keeps the invariant, whatever the order of bodies,
 *     so no per-body candidate lists are needed.
 * Fat candidates outnumber true pairs, and the pair set is sized for true pairs, so the tree
 * keeps incremental only while the candidates fit with room to spare; otherwise it runs full
 * frames (one walk per leaf, each pair once), which also count the fat candidates:
 *   - exact full frame (mbp__full_frame(w, false), report pairs whose boxes overlap: as brute
 *     force, no more room needed) when the set is over 3/4 full at the start, when it overflowed
 *     last frame, or when an incremental report finds it full: then the candidates inserted this
 *     frame are dropped first (mbp__drop_new_candidates, a 12-line core helper), so no pair that
 *     brute force would keep is ever lost to fat candidates;
 *   - sync (mbp__full_frame(w, true), report every fat candidate) after an exact frame whose
 *     count says the candidates fit in half the set: incremental again from the next frame.
 * So MBP_MAX_PAIRS of at least twice the fat candidates keeps the tree incremental.
 *
 * Insertion descends from the root to the child whose box grows least in surface (perimeter in
 * 2D, area in 3D; Box2D v2.4's cost with inheritance) but may stop only at a node of height <= 1,
 * so that the new parent is balanced; then every ancestor is rebalanced and refitted.
 *
 * Height bound (why the walks' stack cannot overflow)
 * ---------------------------------------------------
 * Claim: the tree is always AVL-balanced: at every inner node the children's heights differ by
 * at most 1 (height of a leaf 0). Then a tree of height h has at least Fib(h+2) leaves (by
 * induction: L(0) = 1, L(1) = 2, L(h) >= L(h-1) + L(h-2)), so h <= MBP_TREE_HEIGHT_MAX for
 * MBP_MAX_BODIES leaves (table in mbp_config.h: 11 for 256 bodies, 21 for 32767).
 * Proof that insertion and removal keep it: insertion puts the leaf beside a node S of height
 * 0 or 1, so the new parent (S, leaf) is balanced and the subtree at S's place grows by exactly 1;
 * removal replaces the leaf's parent P = (leaf, S) by S, and P balanced means h(S) <= 1, so the
 * subtree shrinks by exactly 1. Walking up, every ancestor then has one child whose height changed
 * by at most 1, all its descendants balanced, so an imbalance of at most 2. rotate() fixes an
 * imbalance of 2 at A = (Y, X), h(X) = h(Y) + 2, X = (F, G), h(F) >= h(G): X takes A's place
 * with children (A', F) and A' = (Y, G). Since X is balanced, h(F) = h(X)-1, h(G) >= h(X)-2 =
 * h(Y), so A' is balanced with height h(X)-1 or h(X), and X's children F and A' differ by at
 * most 1. (Leaf order does not matter in this tree, which is why one rotation handles what an
 * AVL search tree needs two for.) The rotated subtree's height again differs from its height
 * before the operation by at most 1, so the argument continues up to the root.
 * A depth-first walk that pops a node and pushes its two children holds at most one pending
 * sibling per depth 1..d plus the two children of a node at depth d <= h-1: h+1 entries, which
 * is MBP_TREE_STACK. Still, a walk checks before every push; a walk that would exceed its cap
 * (only possible when a test lowers stack_cap) finishes that subtree without a stack by
 * following parent links, so the result stays exact, and mbp_update() returns MBP_E_NOROOM.
 *
 * Cost per frame (incremental): nothing for bodies that did not move (a fully static scene
 * costs O(1) here); O(1) for a moved body inside its fat box; for a body leaving it or new,
 * O(log n) to remove and insert plus a walk of O(log n + k) for k leaves near it. The core adds
 * O(p) for p stored pairs. A full frame is O(n log n + c) for c fat candidates. Worst case: one
 * huge body, or every body overlapping: walks become O(n) each, O(n^2) a frame. Queries:
 * O(log n + k). No recursion anywhere. RAM: see mbp_tree.h.
 */
#include "mbp_internal.h"

#if MBP_WITH_TREE

#define NUL MBP_TREE_NULL
#define FREE_MARK 0xFFu

/* ---- boxes and their surface ---- */

static inline bool ov(const mbp_aabb *a, const mbp_aabb *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (a->max[k] < b->min[k] || b->max[k] < a->min[k]) {
            return false;
        }
    }
    return true;
}

static inline void unite(const mbp_aabb *a, const mbp_aabb *b, mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        out->min[k] = a->min[k] < b->min[k] ? a->min[k] : b->min[k];
        out->max[k] = a->max[k] > b->max[k] ? a->max[k] : b->max[k];
    }
}

#if MBP_SCALAR == MBP_FIXED
/* Fixed point: extents are below 2^31. 2D: a perimeter below 2^32. 3D: extents scaled down by 4
 * (below 2^29), so an area is below 3 * 2^58 and the insertion costs (sums of up to four areas)
 * stay below 2^63. The lost low bits only blur the choice of sibling, never correctness. */
typedef int64_t cost_t;
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
typedef float cost_t;
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

/* The fat box of body i from its box and displacement (see the top comment). */
static void make_fat(const mbp_world *w, uint16_t i, mbp_aabb *out)
{
    const mbp_params *p = &w->params;
    const mbp_aabb *b = &w->box[i];
    const mbp_scalar *d = w->be.tree.disp[i];
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        /* Margins and sweeps computed in int64 and capped at 2 * MBP_RANGE, the most that can
         * matter, so they fit the int32 that mbp_add_sat takes. */
        const int64_t cap = 2 * (int64_t)MBP_RANGE;
        int64_t ext = (int64_t)b->max[k] - b->min[k];
        int64_t m = (int64_t)p->tree_margin + ((ext * p->tree_margin_frac) >> 8);
        int64_t s = (int64_t)d[k] * p->tree_sweep;
        m = m > cap ? cap : m;
        s = s > cap ? cap : (s < -cap ? -cap : s);
        mbp_scalar lo = mbp_add_sat(b->min[k], (mbp_scalar)-m);
        mbp_scalar hi = mbp_add_sat(b->max[k], (mbp_scalar)m);
        if (s < 0) {
            lo = mbp_add_sat(lo, (mbp_scalar)s);
        } else {
            hi = mbp_add_sat(hi, (mbp_scalar)s);
        }
#else
        float m = p->tree_margin + (b->max[k] - b->min[k]) * (float)p->tree_margin_frac / 256.0f;
        float s = d[k] * (float)p->tree_sweep;
        mbp_scalar lo = mbp_add_sat(b->min[k], -m);
        mbp_scalar hi = mbp_add_sat(b->max[k], m);
        if (s < 0) {
            lo = mbp_add_sat(lo, s);
        } else {
            hi = mbp_add_sat(hi, s);
        }
#endif
        out->min[k] = lo;
        out->max[k] = hi;
    }
}

/* True when the fat box is over twice as large, on some axis, as a fresh one would be. */
static bool too_big(const mbp_aabb *fat, const mbp_aabb *fresh)
{
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        int64_t a = (int64_t)fat->max[k] - fat->min[k];
        int64_t b = (int64_t)fresh->max[k] - fresh->min[k];
#else
        float a = fat->max[k] - fat->min[k];
        float b = fresh->max[k] - fresh->min[k];
#endif
        if (a > 2 * b) {
            return true;
        }
    }
    return false;
}

static bool inside(const mbp_aabb *outer, const mbp_aabb *inner)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (inner->min[k] < outer->min[k] || inner->max[k] > outer->max[k]) {
            return false;
        }
    }
    return true;
}

/* ---- the tree ---- */

static void refit(mbp_tree_state *t, uint16_t n)
{
    mbp_tree_node *a = &t->node[n];
    const mbp_tree_node *c1 = &t->node[a->child1];
    const mbp_tree_node *c2 = &t->node[a->child2];
    unite(&c1->box, &c2->box, &a->box);
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

/* Rebalances and refits n and all its ancestors. */
static void fix_up(mbp_tree_state *t, uint16_t n)
{
    while (n != NUL) {
        const mbp_tree_node *a = &t->node[n];
        int bal = (int)t->node[a->child2].height - (int)t->node[a->child1].height;
        if (bal > 1) {
            n = rotate(t, n, a->child2);
        } else if (bal < -1) {
            n = rotate(t, n, a->child1);
        } else {
            refit(t, n);
        }
        n = t->node[n].parent;
    }
}

static uint16_t alloc_node(mbp_tree_state *t)
{
    uint16_t n = t->free_head;
    MBP__ASSERT(n != NUL); /* 2N-1 nodes always suffice for N leaves */
    t->free_head = t->node[n].parent;
    return n;
}

static void free_node(mbp_tree_state *t, uint16_t n)
{
    t->node[n].height = FREE_MARK;
    t->node[n].parent = t->free_head;
    t->free_head = n;
}

/* Surface increase of putting box b under node c (the whole union when c is a leaf, which would
 * become a new parent). */
static cost_t child_cost(const mbp_tree_state *t, uint16_t c, const mbp_aabb *b)
{
    mbp_aabb u;
    unite(&t->node[c].box, b, &u);
    cost_t s = surface(&u);
    return t->node[c].height == 0u ? s : s - surface(&t->node[c].box);
}

static void insert_leaf(mbp_tree_state *t, uint16_t leaf)
{
    if (t->root == NUL) {
        t->root = leaf;
        t->node[leaf].parent = NUL;
        return;
    }
    const mbp_aabb *b = &t->node[leaf].box;
    uint16_t s = t->root;
    while (t->node[s].height > 0u) {
        const mbp_tree_node *n = &t->node[s];
        mbp_aabb u;
        unite(&n->box, b, &u);
        cost_t here = 2 * surface(&u);
        cost_t inherit = 2 * (surface(&u) - surface(&n->box));
        cost_t c1 = child_cost(t, n->child1, b) + inherit;
        cost_t c2 = child_cost(t, n->child2, b) + inherit;
        /* Stopping above height 1 would unbalance the new parent: keep descending. */
        if (n->height <= 1u && here < c1 && here < c2) {
            break;
        }
        s = c1 <= c2 ? n->child1 : n->child2;
    }
    uint16_t p = alloc_node(t);
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

static void remove_leaf(mbp_tree_state *t, uint16_t leaf)
{
    if (leaf == t->root) {
        t->root = NUL;
        return;
    }
    uint16_t p = t->node[leaf].parent;
    uint16_t gp = t->node[p].parent;
    uint16_t s = t->node[p].child1 == leaf ? t->node[p].child2 : t->node[p].child1;
    replace_child(t, gp, p, s);
    free_node(t, p);
    fix_up(t, gp);
}

/* ---- walks ---- */

/* Walks the subtree of r without a stack, by parent links: the fallback when the stack is full.
 * Returns the number of box tests. */
static uint32_t walk_linked(const mbp_tree_state *t, uint16_t r, const mbp_aabb *box,
                            mbp__visit_fn fn, void *ctx)
{
    uint32_t tests = 0u;
    uint16_t n = r;
    for (;;) {
        const mbp_tree_node *nd = &t->node[n];
        tests++;
        if (ov(&nd->box, box)) {
            if (nd->child1 == NUL) {
                fn(ctx, nd->child2);
            } else {
                n = nd->child1;
                continue;
            }
        }
        /* Next: the second child of the nearest ancestor (within r) we reached by its first. */
        for (;;) {
            if (n == r) {
                return tests;
            }
            uint16_t p = t->node[n].parent;
            if (t->node[p].child1 == n) {
                n = t->node[p].child2;
                break;
            }
            n = p;
        }
    }
}

/* Calls fn(ctx, body) for every leaf whose fat box overlaps box. Returns the box tests made;
 * adds 1 to *overflows for each subtree the stack could not hold (walked by links instead). */
static uint32_t walk(const mbp_tree_state *t, const mbp_aabb *box, mbp__visit_fn fn, void *ctx,
                     uint32_t *overflows)
{
    uint16_t stack[MBP_TREE_STACK];
    uint32_t cap = t->stack_cap < MBP_TREE_STACK ? t->stack_cap : MBP_TREE_STACK;
    uint32_t sp = 0u, tests = 0u;
    if (t->root == NUL) {
        return 0u;
    }
    if (cap == 0u) {
        ++*overflows;
        return walk_linked(t, t->root, box, fn, ctx);
    }
    stack[sp++] = t->root;
    while (sp > 0u) {
        const mbp_tree_node *nd = &t->node[stack[--sp]];
        tests++;
        if (!ov(&nd->box, box)) {
            continue;
        }
        if (nd->child1 == NUL) {
            fn(ctx, nd->child2);
        } else if (sp + 2u > cap) {
            ++*overflows;
            tests += walk_linked(t, nd->child1, box, fn, ctx);
            tests += walk_linked(t, nd->child2, box, fn, ctx);
        } else {
            stack[sp++] = nd->child2;
            stack[sp++] = nd->child1;
        }
    }
    return tests;
}

/* Pair reporting for one body i whose fat box changes from *old (NULL: new body) to *fresh. */
typedef struct {
    mbp_world *w;
    const mbp_aabb *old;
    const mbp_aabb *fresh;
    uint32_t tests;
    uint32_t fat_pairs; /* full frames: pairs of overlapping fat boxes found */
    uint16_t i;
    bool abandon;       /* incremental: the pair set is full, this frame becomes a full one */
} pair_ctx;

/* Incremental reports refuse to fill the pair set: a candidate lost there could be a true pair
 * that brute force would have kept. The frame turns into an exact full frame instead. */
static void candidate(pair_ctx *c, uint16_t j)
{
    if (c->w->pairs.count >= MBP_MAX_PAIRS) {
        c->abandon = true;
    } else {
        mbp__candidate(c->w, c->i, j);
    }
}

static void visit_moved(void *ctx, uint16_t j)
{
    pair_ctx *c = (pair_ctx *)ctx;
    const mbp_tree_state *t = &c->w->be.tree;
    const mbp_aabb *fj = &t->node[t->leaf[j]].box;
    c->tests += 2u;
    bool now = ov(c->fresh, fj);
    bool then = ov(c->old, fj);
    if (now && !then) {
        candidate(c, j);
    } else if (then && !now) {
        mbp__uncandidate(c->w, c->i, j);
    }
}

static void visit_new(void *ctx, uint16_t j)
{
    candidate((pair_ctx *)ctx, j);
}

/* Full frames, each pair once, from its lower index: the fat candidates (sync) ... */
static void visit_fat(void *ctx, uint16_t j)
{
    pair_ctx *c = (pair_ctx *)ctx;
    if (j > c->i) {
        c->fat_pairs++;
        mbp__candidate(c->w, c->i, j);
    }
}

/* ... or only the pairs whose boxes overlap (exact). */
static void visit_exact(void *ctx, uint16_t j)
{
    pair_ctx *c = (pair_ctx *)ctx;
    if (j > c->i) {
        c->fat_pairs++;
        c->tests++;
        if (ov(&c->w->box[c->i], &c->w->box[j])) {
            mbp__candidate(c->w, c->i, j);
        }
    }
}

/* ---- hooks ---- */

mbp_status mbp__tree_init(mbp_world *w)
{
    const mbp_params *p = &w->params;
    mbp_tree_state *t = &w->be.tree;
    if (!mbp_in_range(p->tree_margin) || p->tree_margin < 0 || p->tree_margin_frac > 256u ||
        p->tree_sweep > 16u) {
        return MBP_E_PARAM;
    }
    for (uint32_t n = 0; n < MBP_TREE_NODES; n++) {
        t->node[n].parent = (uint16_t)(n + 1u < MBP_TREE_NODES ? n + 1u : NUL);
        t->node[n].height = FREE_MARK;
    }
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        t->leaf[i] = NUL;
    }
    t->root = NUL;
    t->free_head = 0u;
    t->stack_cap = MBP_TREE_STACK;
    t->inserts = 0u;
    t->overflows = 0u;
    t->rebuilds = 0u;
    t->fat_pairs = 0u;
    t->synced = true; /* no bodies, no candidates */
    return MBP_OK;
}

mbp_status mbp__tree_add(mbp_world *w, uint16_t i)
{
    /* Inserted at the next update, after its pairs are found: see the top comment. */
    mbp_tree_state *t = &w->be.tree;
    t->leaf[i] = NUL;
    for (int k = 0; k < MBP_DIM; k++) {
        t->disp[i][k] = 0;
    }
    return MBP_OK;
}

mbp_status mbp__tree_move(mbp_world *w, uint16_t i, const mbp_aabb *old)
{
    /* Only the displacement is kept; the tree changes at the update. The sum telescopes to
     * (box now - box at the last update), which fits; the cap is for clarity. */
    mbp_scalar *d = w->be.tree.disp[i];
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        const int64_t cap = 2 * (int64_t)MBP_RANGE;
        int64_t s = (int64_t)d[k] + w->box[i].min[k] - old->min[k];
        d[k] = (mbp_scalar)(s > cap ? cap : (s < -cap ? -cap : s));
#else
        d[k] += w->box[i].min[k] - old->min[k];
#endif
    }
    return MBP_OK;
}

void mbp__tree_remove(mbp_world *w, uint16_t i)
{
    mbp_tree_state *t = &w->be.tree;
    uint16_t lf = t->leaf[i];
    if (lf != NUL) {
        remove_leaf(t, lf);
        free_node(t, lf);
        t->leaf[i] = NUL;
    }
}

mbp_status mbp__tree_update(mbp_world *w)
{
    mbp_tree_state *t = &w->be.tree;
    /* Incremental only while the pair set holds exactly the fat candidates, with room to spare;
     * an exact full frame when it is (nearly) full. */
    bool exact = mbp__pairs_overflowed(w) || w->pairs.count > (uint32_t)MBP_MAX_PAIRS / 4u * 3u;
    bool full = !t->synced || exact;
    uint32_t tests = 0u;
    t->inserts = 0u;
    t->overflows = 0u;
    for (uint32_t d = 0; d < w->dirty_count; d++) {
        uint16_t i = w->dirty[d];
        if (!mbp__active(w, i)) {
            continue;
        }
        mbp_aabb fresh, old, walk_box;
        make_fat(w, i, &fresh);
        for (int k = 0; k < MBP_DIM; k++) {
            t->disp[i][k] = 0;
        }
        uint16_t lf = t->leaf[i];
        pair_ctx c = {w, NULL, &fresh, 0u, 0u, i, false};
        if (lf == NUL) {
            lf = alloc_node(t);
            t->leaf[i] = lf;
            t->node[lf].child1 = NUL;
            t->node[lf].child2 = i;
            t->node[lf].height = 0u;
            if (!full) {
                tests += walk(t, &fresh, visit_new, &c, &t->overflows);
            }
        } else {
            old = t->node[lf].box;
            if (inside(&old, &w->box[i]) && !too_big(&old, &fresh)) {
                continue;
            }
            remove_leaf(t, lf);
            if (!full) {
                c.old = &old;
                unite(&old, &fresh, &walk_box);
                tests += walk(t, &walk_box, visit_moved, &c, &t->overflows);
            }
        }
        tests += c.tests;
        exact = exact || c.abandon;
        full = full || c.abandon;
        t->node[lf].box = fresh;
        insert_leaf(t, lf);
        t->inserts++;
    }
    if (full) {
        /* Sync (report the fat candidates, keep=true, incremental again next frame) when the
         * last count says they fit in half the set; otherwise an exact frame, like brute force. */
        bool sync = !exact && t->fat_pairs <= (uint32_t)MBP_MAX_PAIRS / 2u;
        t->rebuilds++;
        if (exact) {
            mbp__drop_new_candidates(w); /* an abandoned incremental frame's, if any */
        }
        mbp__full_frame(w, sync);
        pair_ctx c = {w, NULL, NULL, 0u, 0u, 0u, false};
        for (uint16_t i = 0; i < w->high; i++) {
            uint16_t lf = t->leaf[i];
            if (lf != NUL && mbp__active(w, i)) {
                c.i = i;
                tests += walk(t, &t->node[lf].box, sync ? visit_fat : visit_exact, &c,
                              &t->overflows);
            }
        }
        tests += c.tests;
        t->fat_pairs = c.fat_pairs;
        t->synced = sync && w->pairs.lost == 0u;
    }
    w->stats.tests = tests;
    return t->overflows != 0u ? MBP_E_NOROOM : MBP_OK;
}

void mbp__tree_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx)
{
    uint32_t overflows = 0u; /* a query cannot report it; the linked walk keeps it exact */
    (void)walk(&w->be.tree, box, fn, ctx, &overflows);
}

/* ---- for tests ---- */

uint32_t mbp__tree_height(const struct mbp_world *w)
{
    const mbp_tree_state *t = &w->be.tree;
    return t->root == NUL ? 0u : t->node[t->root].height;
}

bool mbp__tree_valid(const struct mbp_world *w)
{
    const mbp_tree_state *t = &w->be.tree;
    uint32_t used = 0u, leaves = 0u, bodies = 0u, free_count = 0u;
    if (t->root != NUL && (t->root >= MBP_TREE_NODES || t->node[t->root].parent != NUL)) {
        return false;
    }
    for (uint32_t n = 0; n < MBP_TREE_NODES; n++) {
        const mbp_tree_node *a = &t->node[n];
        if (a->height == FREE_MARK) {
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
            if (p->height == FREE_MARK || p->height <= a->height ||
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
        if (c1->height == FREE_MARK || c2->height == FREE_MARK || c1->parent != n ||
            c2->parent != n || a->height != 1 + (h1 > h2 ? h1 : h2) || h1 - h2 > 1 ||
            h2 - h1 > 1 || !inside(&a->box, &c1->box) || !inside(&a->box, &c2->box)) {
            return false;
        }
    }
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        bodies += t->leaf[i] != NUL ? 1u : 0u;
    }
    for (uint16_t n = t->free_head; n != NUL && free_count <= MBP_TREE_NODES; n = t->node[n].parent) {
        if (n >= MBP_TREE_NODES || t->node[n].height != FREE_MARK) {
            return false;
        }
        free_count++;
    }
    return leaves == bodies && used == (leaves == 0u ? 0u : 2u * leaves - 1u) &&
           free_count == MBP_TREE_NODES - used && (t->root == NUL) == (used == 0u) &&
           mbp__tree_height(w) <= MBP_TREE_HEIGHT_MAX;
}

#endif /* MBP_WITH_TREE */
