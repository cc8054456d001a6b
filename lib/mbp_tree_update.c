/* SPDX-License-Identifier: MIT */
/* mbp_tree_update.c: the tree backend's frame (how it works: mbp_tree.c's top comment): the walks
 * (around a moved body, from the root, the linked fallback), the pair changes they report, the
 * re-insertions (kept in place or moved), the update (the kept bodies' loop, levels, full
 * frames, builds) and the query, a walk like the frame's. Fat boxes: mbp_tree_fat.c; the tree
 * built anew: mbp_tree_build.c.
 * The hot helpers (moved_leaf, visit_leaf, the walk loop) stay inlined here, beside their callers.
 */
#include "mbp_bp.h"
#include "mbp_tree_nodes.h"

#if MBP_WITH_TREE

#define NUL MBP_TREE_NULL
/* A leaf keeps its place when an ancestor this high (or lower) holds its new fat box: see
 * reinsert(). Higher keeps more leaves in place, for looser subtrees (the walks test more). */
#define KEEP_HEIGHT 4u
#if KEEP_HEIGHT < 2
#error "reinsert() relies on a leaf's parent (height <= 2) being kept in place"
#endif

/* ---- walks ---- */

/* Pair reporting for one body i whose fat box changes from *old (NULL: new body) to *fresh. */
typedef struct {
    mbp_tree_state *t;
    const mbp__bodies *v;
    mbp__sink *out;
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
    if (mbp__sink_count(c->out) >= MBP_MAX_PAIRS) {
        c->abandon = true;
    } else {
        mbp__sink_begin(c->out, c->i, j);
    }
}

/* A leaf whose fat box *fj the walk around a moved body found: the pair begins when the fresh fat
 * box overlaps *fj and the old one did not, and ends in the opposite case. */
MBP__HOT void moved_leaf(pair_ctx *c, uint16_t j, const mbp_aabb *fj)
{
    c->tests += 2u;
    bool now = mbp__tree_ov(c->fresh, fj);
    bool then = mbp__tree_ov(c->old, fj);
    if (now && !then) {
        candidate(c, j);
    } else if (then && !now) {
        mbp__sink_end(c->out, c->i, j);
    }
}

static void visit_moved(void *ctx, uint16_t j)
{
    pair_ctx *c = (pair_ctx *)ctx;
    moved_leaf(c, j, &c->t->node[c->t->leaf[j]].box);
}

/* fn(ctx, body) for the leaf n a walk found. The walks around a moved body (walk_around() with
 * visit_moved, where this folds to the first branch) test the leaf's box where they found it,
 * without a call or a look-up through t->leaf. */
MBP__HOT void visit_leaf(mbp__visit_fn fn, void *ctx, const mbp_tree_node *n)
{
    if (fn == visit_moved) {
        moved_leaf((pair_ctx *)ctx, n->child2, &n->box);
    } else {
        fn(ctx, n->child2);
    }
}

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
        if (mbp__tree_ov(&nd->box, box)) {
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

/* Calls fn(ctx, body) for every leaf below the inner node r (whose box overlaps *q) whose fat
 * box overlaps *q. Returns the box tests made; adds 1 to *overflows for each subtree the stack
 * could not hold (walked by links instead). The stack holds inner nodes whose box overlaps, each
 * pushed after its test. */
MBP__HOT uint32_t walk_inner(const mbp_tree_state *t, uint16_t r, const mbp_aabb *box,
                             mbp__visit_fn fn, void *ctx, uint32_t *overflows)
{
    uint16_t stack[MBP_TREE_STACK];
    uint32_t cap = t->stack_cap < MBP_TREE_STACK ? t->stack_cap : MBP_TREE_STACK;
    uint32_t sp = 0u, pushes = 1u, extra = 0u;
    const mbp_aabb q = *box; /* a local the calls below cannot change: kept in registers */
    if (cap == 0u) {
        ++*overflows;
        return walk_linked(t, t->node[r].child1, &q, fn, ctx) +
               walk_linked(t, t->node[r].child2, &q, fn, ctx);
    }
    const mbp_tree_node *nodes = t->node;
    uint16_t c = nodes[r].child1;
    stack[sp++] = nodes[r].child2;
    for (;;) {
        const mbp_tree_node *cn = &nodes[c];
        if (mbp__tree_ov(&cn->box, &q)) {
            if (cn->height == 0u) {
                visit_leaf(fn, ctx, cn);
            } else if (sp < cap) {
                stack[sp++] = cn->child2;
                pushes++;
                c = cn->child1;
                continue;
            } else {
                ++*overflows;
                extra += walk_linked(t, c, &q, fn, ctx) - 1u; /* c is tested again there */
            }
        }
        if (sp == 0u) {
            break;
        }
        c = stack[--sp];
    }
    /* Each push means two tests, not counted one by one in the loop: the first child's, at once,
     * and the second child's, when it is popped. */
    return 2u * pushes + extra;
}

/* As walk_inner() for any node r, tested here. */
static uint32_t walk_from(const mbp_tree_state *t, uint16_t r, const mbp_aabb *box,
                          mbp__visit_fn fn, void *ctx, uint32_t *overflows)
{
    const mbp_tree_node *rn = &t->node[r];
    if (!mbp__tree_ov(&rn->box, box)) {
        return 1u;
    }
    if (rn->child1 == NUL) {
        fn(ctx, rn->child2);
        return 1u;
    }
    return 1u + walk_inner(t, r, box, fn, ctx, overflows);
}

static uint32_t walk(const mbp_tree_state *t, const mbp_aabb *box, mbp__visit_fn fn, void *ctx,
                     uint32_t *overflows)
{
    return t->root == NUL ? 0u : walk_from(t, t->root, box, fn, ctx, overflows);
}

/* As walk(), for every leaf but lf, which is in the tree: bottom-up, the other child of each of
 * lf's ancestors. The ancestors themselves need no test: one test a level instead of two. */
static uint32_t walk_around(const mbp_tree_state *t, uint16_t lf, const mbp_aabb *box,
                            mbp__visit_fn fn, void *ctx, uint32_t *overflows)
{
    uint32_t tests = 0u;
    const mbp_aabb q = *box;
    for (uint16_t n = lf, p = t->node[lf].parent; p != NUL; n = p, p = t->node[p].parent) {
        const mbp_tree_node *pn = &t->node[p];
        uint16_t sib = pn->child1 == n ? pn->child2 : pn->child1;
        const mbp_tree_node *sn = &t->node[sib];
        tests++;
        if (!mbp__tree_ov(&sn->box, &q)) {
            continue;
        }
        if (sn->height == 0u) {
            visit_leaf(fn, ctx, sn);
        } else {
            tests += walk_inner(t, sib, &q, fn, ctx, overflows);
        }
    }
    return tests;
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
        mbp__sink_begin(c->out, c->i, j);
    }
}

/* ... or, in a frame that builds the tree, the fat candidates until they would fill 3/4 of the
 * set (then the frame turns exact: no pair lost to candidates, and the next frame not crowded) ...
 */
static void visit_build(void *ctx, uint16_t j)
{
    pair_ctx *c = (pair_ctx *)ctx;
    if (j > c->i && !c->abandon) {
        c->fat_pairs++;
        if (mbp__sink_count(c->out) >= (uint32_t)MBP_MAX_PAIRS / 4u * 3u) {
            c->abandon = true;
        } else {
            mbp__sink_begin(c->out, c->i, j);
        }
    }
}

/* ... or only the pairs whose boxes overlap (exact). */
static void visit_exact(void *ctx, uint16_t j)
{
    pair_ctx *c = (pair_ctx *)ctx;
    if (j > c->i) {
        c->fat_pairs++;
        c->tests++;
        if (mbp__tree_ov(&c->v->box[c->i], &c->v->box[j])) {
            mbp__sink_begin(c->out, c->i, j);
        }
    }
}

/* ---- the frame ---- */

/* A full frame's walks, one a leaf, each pair reported by fn from its lower index; stops once fn
 * abandons. */
static void walk_all(pair_ctx *c, mbp__visit_fn fn, uint32_t *tests)
{
    for (uint16_t i = 0; i < c->v->high && !c->abandon; i++) {
        uint16_t lf = c->t->leaf[i];
        if (lf != NUL && mbp__in(c->v, i)) {
            c->i = i;
            *tests += walk(c->t, &c->t->node[lf].box, fn, c, &c->t->overflows);
        }
    }
}

/* Moves body i's leaf lf from its fat box to *fresh: first the pairs, unless the frame is a full
 * one (c == NULL); then the tree. When an ancestor of height <= KEEP_HEIGHT holds *fresh, the
 * leaf keeps its place and only the ancestors below that one grow: no link or height changes, and
 * nothing above changes at all; the looseness stays within subtrees of at most 2^KEEP_HEIGHT
 * leaves. Otherwise the leaf is removed and inserted again, descending from the lowest ancestor
 * that held *fresh (or the root). */
static void reinsert(mbp_tree_state *t, uint16_t lf, const mbp_aabb *fresh, pair_ctx *c)
{
    mbp_tree_node *leaf = &t->node[lf];
    bool jump = !mbp__tree_ov(&leaf->box, fresh);
    t->jumps += jump ? 1u : 0u;
    if (c != NULL) {
        c->old = &leaf->box;
        if (!jump) {
            mbp_aabb u;
            mbp__tree_unite(&leaf->box, fresh, &u);
            c->tests += walk_around(t, lf, &u, visit_moved, c, &t->overflows);
        } else {
            /* Far apart (a jump): two walks, not one over all that lies between. A leaf that
             * overlaps both boxes is seen twice and left as it is both times. */
            c->tests += walk_around(t, lf, &leaf->box, visit_moved, c, &t->overflows);
            c->tests += walk_around(t, lf, fresh, visit_moved, c, &t->overflows);
        }
    }
    uint16_t p = leaf->parent;
    uint16_t a = p;
    while (a != NUL && !mbp__tree_inside(&t->node[a].box, fresh)) {
        a = t->node[a].parent;
    }
    if (a != NUL && t->node[a].height <= KEEP_HEIGHT) {
        leaf->box = *fresh;
        for (uint16_t n = p; n != a; n = t->node[n].parent) {
            mbp__tree_unite(&t->node[n].box, fresh, &t->node[n].box);
        }
        t->kept_in_place++;
        return;
    }
    /* a is not p: p, a leaf's parent, has height <= 2 (AVL), at most KEEP_HEIGHT, so a == p
     * kept the leaf in place above. So a survives the removal of p. */
    mbp__tree_remove_leaf(t, lf);
    leaf->box = *fresh;
    mbp__tree_insert_leaf(t, lf, a != NUL ? a : t->root);
}

/* Body i's fresh fat box, into *fresh, from its box and its displacement since the last update
 * (which becomes 0); returns whether it is swept (mbp__tree_make_fat()). */
static bool fresh_fat(mbp_tree_state *t, const mbp__bodies *v, uint16_t i, mbp_aabb *fresh)
{
    const mbp_aabb *box = &v->box[i];
    mbp_scalar *ref = t->ref[i];
    mbp_scalar d[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        d[k] = box->min[k] - ref[k]; /* both within the range: no overflow */
        ref[k] = box->min[k];
    }
    t->inserts++;
    return mbp__tree_make_fat(t, box, d, fresh);
}

/* A leaf node for new body i, not yet in the tree. */
static mbp_tree_node *new_leaf(mbp_tree_state *t, uint16_t i)
{
    uint16_t lf = mbp__tree_alloc_node(t);
    t->leaf[i] = lf;
    mbp_tree_node *leaf = &t->node[lf];
    leaf->child1 = NUL;
    leaf->child2 = i;
    leaf->height = 0u;
    return leaf;
}

/* Body i, added, out of its fat box or in one too big: a fresh fat box, its pairs unless the
 * frame is a full one, and its leaf moved. Returns false when the pair set filled up (the frame
 * must become an exact full one). */
static bool update_body(mbp_tree_state *t, const mbp__bodies *v, mbp__sink *out, uint16_t i,
                        bool full, uint32_t *tests)
{
    uint16_t lf = t->leaf[i];
    mbp_aabb fresh;
    bool swept = fresh_fat(t, v, i, &fresh);
    pair_ctx c = {t, v, out, NULL, &fresh, 0u, 0u, i, false};
    mbp_tree_node *leaf;
    if (lf == NUL) {
        t->jumps++; /* a new leaf has no place in the tree either */
        leaf = new_leaf(t, i);
        if (!full) {
            *tests += walk(t, &fresh, visit_new, &c, &t->overflows);
        }
        leaf->box = fresh;
        mbp__tree_insert_leaf(t, t->leaf[i], t->root);
    } else {
        leaf = &t->node[lf];
        reinsert(t, lf, &fresh, full ? NULL : &c);
    }
    leaf->swept = swept ? 1u : 0u;
    *tests += c.tests;
    return !c.abandon;
}

/* In a frame that builds the tree anew: body i's leaf takes its fresh fat box, left out of place
 * (mbp__tree_rebuild() places every leaf). */
static void refresh_body(mbp_tree_state *t, const mbp__bodies *v, uint16_t i)
{
    mbp_aabb fresh;
    bool swept = fresh_fat(t, v, i, &fresh);
    mbp_tree_node *leaf = t->leaf[i] == NUL ? new_leaf(t, i) : &t->node[t->leaf[i]];
    leaf->box = fresh;
    leaf->swept = swept ? 1u : 0u;
}

/* The common case, in a loop of its own: from dirty[di] on, every body inside its fat box (a
 * swept leaf also not too big, checked one frame in four; in a full frame, every leaf not too
 * big, strictly) costs nothing here but the note of its position. Returns the position of the first other one, or nd. A
 * removed body has no leaf (mbp__tree_remove), so it stops the loop too. */
MBP__LOOP uint32_t skip_kept(mbp_tree_state *t, const mbp__bodies *v, uint32_t di, uint32_t nd,
                             bool strict)
{
    const uint16_t *dirty = v->moved;
    const mbp_aabb *boxes = v->box;
    const uint16_t *leaves = t->leaf;
    const mbp_tree_node *nodes = t->node;
    const uint32_t first = di;
    for (; di < nd; di++) {
        uint32_t i = dirty[di];
        uint32_t lf = leaves[i];
        const mbp_aabb *box = &boxes[i];
        if (lf == NUL || !mbp__tree_inside(&nodes[lf].box, box)) {
            break; /* new, moved out, or removed (its leaf is gone): the caller looks */
        }
        mbp_scalar *ref = t->ref[i];
        if (strict || (nodes[lf].swept != 0u && ((i + t->tick) & 3u) == 0u)) {
            mbp_scalar d[MBP_DIM];
            for (int k = 0; k < MBP_DIM; k++) {
                d[k] = box->min[k] - ref[k]; /* both within the range: no overflow */
            }
            if (mbp__tree_too_big(t, &nodes[lf].box, box, d, strict)) {
                break;
            }
        }
        for (int k = 0; k < MBP_DIM; k++) {
            ref[k] = box->min[k];
        }
    }
    t->kept += di - first; /* every body the loop went past */
    return di;
}

mbp_status mbp__tree_update(mbp_tree_state *t, const mbp__bodies *v, mbp__sink *out)
{
    /* Incremental only while the pair set holds exactly the fat candidates, with room to spare;
     * an exact full frame when it is (nearly) full. */
    bool exact = mbp__sink_overflowed(out) || out->ps->count > (uint32_t)MBP_MAX_PAIRS / 4u * 3u;
    bool full = !t->synced || exact;
    uint32_t tests = 0u;
    /* Fat boxes shrink (each level halves margins and sweep) while their pairs fill over 11/16
     * of the set (checked at the start of the frame and, once, as re-insertions add pairs), and
     * grow back below 5/8. Without it, pairs that fit the set as exact pairs but not as fat
     * candidates would force exact full frames every frame. */
    const uint32_t crowded = (uint32_t)MBP_MAX_PAIRS * 11u / 16u;
    uint32_t fat = t->synced ? out->ps->count : t->fat_pairs;
    uint32_t trigger = crowded; /* raises the level again within this frame */
    t->hold = t->hold > 0u ? (uint8_t)(t->hold - 1u) : 0u;
    if (fat > crowded && t->level < MBP_TREE_LEVELS) {
        t->level++;
        trigger = out->ps->count + (uint32_t)MBP_MAX_PAIRS / 32u;
    } else if (fat < (uint32_t)MBP_MAX_PAIRS * 5u / 8u && t->level > 0u && t->hold == 0u) {
        t->level--;
        t->hold = (uint8_t)(t->param_sweep >> t->level);
    }
    t->tick++;
    t->due[t->tick & (MBP_TREE_DUE - 1u)] = 0u;
    mbp__tree_set_margins(t);
    t->inserts = 0u;
    t->kept = 0u;
    t->kept_in_place = 0u;
    t->jumps = 0u;
    t->overflows = 0u;
    /* When nearly every body moved (7 in 8) and most of them jumped (a fresh fat box apart from
     * the old one, or a new body: 3 in 4 of the moved bodies looked at, and many so far), the
     * rest only take their fresh boxes, the tree is built anew from all its leaves and the frame
     * becomes a full one (below): one walk a leaf in a tight tree. Re-inserting each jumper
     * costs two walks and a descent through a tree whose other leaves still sit at their old
     * places, and leaves the tree looser, more so each such frame: every body teleporting, a
     * level reset, a world filled at once. Bodies that leave their fat boxes by moving on (waves
     * of them in make bench's mixed scene) keep the tree's order: they go on one by one. */
    const uint32_t many = (uint32_t)v->live / 16u + t->build_min;
    bool build = false, reported = false;
    const bool strict = full; /* a frame that builds keeps its leaves' checks as they began */
    for (uint32_t di = 0, nd = v->moved_count; di < nd; di++) {
        di = skip_kept(t, v, di, nd, strict);
        if (di == nd) {
            break;
        }
        uint16_t i = v->moved[di];
        if (!mbp__in(v, i)) {
            continue;
        }
        if (!build && t->jumps >= many && 4u * t->jumps >= 3u * di &&
            8u * nd >= 7u * (uint32_t)v->live) {
            build = true;
            reported = !full; /* this frame's reports so far are dropped: all come again */
            full = true;
        }
        if (build) {
            refresh_body(t, v, i);
            continue;
        }
        if (!update_body(t, v, out, i, full, &tests)) {
            exact = full = true;
        }
        if (out->ps->count > trigger && t->level < MBP_TREE_LEVELS) {
            t->level++; /* the fat boxes made this frame crowd the set: smaller from now on */
            mbp__tree_set_margins(t);
            trigger = out->ps->count + (uint32_t)MBP_MAX_PAIRS / 32u;
        }
    }
    if (full && t->kept + t->inserts == 0u && !mbp__sink_overflowed(out)) {
        /* Nothing moved or came (removed bodies' pairs are the core's): the pair set, exact
         * pairs or fat candidates, is still right. A static scene costs nothing here, even
         * while the candidates do not fit. */
        full = false;
    }
    if (full) {
        /* Sync (report the fat candidates, keep=true, incremental again next frame) when the
         * last count says they fit in 5/8 of the set; otherwise an exact frame, like brute force.
         * A frame that builds the tree tries a sync whatever the last count (it says nothing
         * after such a change), and turns exact when the candidates would crowd the set; but
         * when the last frame built too (bodies jumping frame after frame) it is exact: fat
         * candidates that all end at the next build would only cost. */
        bool sync = !exact && (build ? t->built == 0u
                                     : t->fat_pairs <= (uint32_t)MBP_MAX_PAIRS * 5u / 8u);
        t->rebuilds++;
        if (exact || reported) {
            mbp__sink_drop_new(out); /* an abandoned incremental frame's, if any */
        }
        if (build) {
            mbp__tree_rebuild(t, v->high);
        }
        mbp__sink_full_frame(out, sync);
        pair_ctx c = {t, v, out, NULL, NULL, 0u, 0u, 0u, false};
        walk_all(&c, !sync ? visit_exact : build ? visit_build : visit_fat, &tests);
        if (c.abandon) {
            mbp__sink_drop_new(out); /* the build's candidates so far */
            mbp__sink_full_frame(out, false);
            sync = false;
            c.abandon = false;
            c.fat_pairs = 0u;
            walk_all(&c, visit_exact, &tests);
        }
        tests += c.tests;
        t->fat_pairs = c.fat_pairs;
        t->synced = sync && out->ps->lost == 0u;
    }
    t->built = build ? 1u : 0u;
    out->tests = tests;
    return t->overflows != 0u ? MBP_E_NOROOM : MBP_OK;
}

void mbp__tree_query(const mbp_tree_state *t, const mbp__bodies *v, const mbp_aabb *box,
                     mbp__visit_fn fn, void *ctx)
{
    uint32_t overflows = 0u; /* a query cannot report it; the linked walk keeps it exact */
    (void)v; /* the tree holds the boxes as of the last update, fattened */
    (void)walk(t, box, fn, ctx, &overflows);
}

#endif /* MBP_WITH_TREE */
