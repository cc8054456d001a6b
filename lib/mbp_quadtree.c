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
 * Cost per update: one or two walks of O(depth + nodes met) per moved body; a full frame one
 * walk per body from its home (mostly its node or a few levels up); queries one walk.
 * RAM: mbp_quadtree.h.
 */
#include "mbp_bp.h"

#if MBP_WITH_QUADTREE

#if MBP_SCALAR == MBP_FIXED
typedef int64_t qt_wide; /* an offset from the world's min corner, exact */
#else
typedef mbp_scalar qt_wide;
#endif

/* Where a box lives: its depth and its cell at that depth. */
typedef struct place {
    uint8_t depth;
    uint16_t cell[MBP_DIM];
} place;

/* The world box's edge: the root's cell. */
MBP__HOT qt_wide root_edge(const mbp_quadtree_state *s)
{
#if MBP_SCALAR == MBP_FIXED
    return (qt_wide)s->cell << s->depth;
#else
    return s->root;
#endif
}

MBP__HOT place place_of(const mbp_quadtree_state *s, const mbp_aabb *b)
{
    place p;
    uint32_t fine[MBP_DIM];
    p.depth = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        p.cell[k] = 0u; /* set below; written here too so that no path reads it unset */
    }
    bool inside = true;
    qt_wide ext = 0;
    qt_wide root = root_edge(s);
    for (int k = 0; k < MBP_DIM; k++) {
        qt_wide e = (qt_wide)b->max[k] - b->min[k];
#if MBP_SCALAR == MBP_FIXED
        qt_wide off = (qt_wide)b->min[k] - s->origin[k] + e / 2;
        inside = inside && off >= 0 && off < root;
        fine[k] = inside ? (uint32_t)off / (uint32_t)s->cell : 0u; /* off < root < 2^32 */
#else
        qt_wide off = (b->min[k] - s->origin[k]) + e * 0.5f;
        inside = inside && off >= 0 && off < root;
        fine[k] = inside ? (uint32_t)(off * s->inv) : 0u; /* off * inv < 2^15 + rounding */
        uint32_t last = (1u << s->depth) - 1u;
        fine[k] = fine[k] > last ? last : fine[k];
#endif
        ext = e > ext ? e : ext;
    }
    uint32_t d = s->depth;
    qt_wide lim = s->cell;
    while (d > 0u && ext > lim) {
        d--;
        lim *= 2;
    }
    p.depth = (uint8_t)(inside ? d : 0u);
    for (int k = 0; k < MBP_DIM; k++) {
        p.cell[k] = (uint16_t)(fine[k] >> (s->depth - p.depth));
    }
    return p;
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

/* The node at place p, taking the missing nodes of its path from the pool; when the pool runs
 * short, the deepest node of the path it could supply (the root at least). */
static uint16_t node_for(mbp_quadtree_state *s, const place *p)
{
    uint16_t n = 0u;
    uint16_t c[MBP_DIM];
    for (uint32_t l = 1u; l <= p->depth; l++) {
        for (int k = 0; k < MBP_DIM; k++) {
            c[k] = (uint16_t)(p->cell[k] >> (p->depth - l));
        }
        uint16_t m = s->node[n].kid[slot_of(c)];
        if (m == MBP__QT_NULL) {
            if (s->used >= s->cap) {
                break; /* the pool is short: n, an ancestor of p, holds the body */
            }
            m = s->free_head;
            mbp_qt_node *nd = &s->node[m];
            s->free_head = nd->parent;
            s->used++;
            for (int k = 0; k < MBP_DIM; k++) {
                nd->cell[k] = c[k];
            }
            for (uint32_t j = 0; j < (uint32_t)MBP__QT_KIDS; j++) {
                nd->kid[j] = MBP__QT_NULL;
            }
            nd->parent = n;
            nd->head = MBP__QT_NULL;
            nd->depth = (uint8_t)l;
            nd->kids = 0u;
            s->node[n].kid[slot_of(c)] = m;
            s->node[n].kids |= (uint8_t)(1u << slot_of(c));
        }
        n = m;
    }
    return n;
}

static void link_body(mbp_quadtree_state *s, uint16_t i, uint16_t n)
{
    uint16_t h = s->node[n].head;
    s->prev[i] = MBP__QT_NULL;
    s->next[i] = h;
    if (h != MBP__QT_NULL) {
        s->prev[h] = i;
    }
    s->node[n].head = i;
    s->of[i] = n;
}

/* Takes body i out of its node's list; returns the node. */
static uint16_t unlink_body(mbp_quadtree_state *s, uint16_t i)
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
static void prune(mbp_quadtree_state *s, uint16_t n)
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
    uint32_t u = (uint32_t)((x << QT_FRAC) / s->cell); /* x < cell * 2^depth: u < top */
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

/* Body b's home for a full frame: the deepest node of its path (b's node and its ancestors) whose
 * cell holds b's region r whole, in units, once r is clamped to the world box's units
 * (0 .. 2^(QT_FRAC + depth) - 1: a monotonic map, so regions that overlap still do); else the
 * root. */
MBP__HOT uint16_t home_of(const mbp_quadtree_state *s, uint16_t b, const qt_range *r)
{
    uint16_t n = s->of[b];
    uint32_t last = (1u << (QT_FRAC + s->depth)) - 1u;
    while (n != 0u) {
        const mbp_qt_node *nd = &s->node[n];
        uint32_t sh = QT_FRAC + s->depth - nd->depth;
        bool in = true;
        for (int k = 0; k < MBP_DIM; k++) {
            uint32_t hi = r->hi[k] < last ? r->hi[k] : last;
            in = in && (r->lo[k] >> sh) == nd->cell[k] && (hi >> sh) == nd->cell[k];
        }
        if (in) {
            break;
        }
        n = nd->parent;
    }
    return n;
}

/* A full frame's pairs of body b: with the bodies below its home node (home_of(), whose depth is
 * home[b]) whose homes are deeper, or as deep with a higher index; returns the box tests made.
 * Two bodies whose boxes meet share a unit of their regions, which both homes' cells hold (the
 * root holds every node): so one home is the other or its ancestor, and the pair is tested once,
 * by the body whose home is higher up (the lower index for one home). */
MBP__LOOP uint32_t pairs_below(const mbp_quadtree_state *s, mbp__sink *out, uint16_t b)
{
    uint32_t tests = 0u;
    const mbp_aabb *bb = &s->rec[b];
    uint32_t hd = s->home[b];
    uint16_t top = s->of[b];
    while (s->node[top].depth > hd) {
        top = s->node[top].parent;
    }
    qt_walk w;
    w.r = range_of_box(s, bb);
    walk_start(s, &w, top);
    for (uint16_t n = top; n != MBP__QT_NULL; n = walk_next(s, &w)) {
        for (uint16_t c = s->node[n].head; c != MBP__QT_NULL; c = s->next[c]) {
            uint32_t cd = s->home[c];
            if (cd > hd || (cd == hd && c > b)) {
                tests++;
                if (mbp__boxes_meet(bb, &s->rec[c])) {
                    mbp__sink_begin_met(out, b, c);
                }
            }
        }
    }
    return tests;
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
    s->cell = p->quadtree_cell;
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
        prune(s, unlink_body(s, i));
    }
}

/* Body i (live) placed at its box of this update: rec[i] and its node, relinked if it changed. */
static void place_body(mbp_quadtree_state *s, const mbp__bodies *v, uint16_t i)
{
    s->rec[i] = v->box[i];
    place p = place_of(s, &s->rec[i]);
    uint16_t from = s->of[i];
    if (from != MBP__QT_NULL) {
        const mbp_qt_node *nd = &s->node[from];
        bool same = nd->depth == p.depth;
        for (int k = 0; k < MBP_DIM; k++) {
            same = same && nd->cell[k] == p.cell[k];
        }
        if (same) {
            return;
        }
    }
    /* Linked into the new node before the old one is pruned: the new one may be the old one's
     * ancestor, with nothing else in it. */
    uint16_t n = node_for(s, &p);
    if (from != MBP__QT_NULL) {
        (void)unlink_body(s, i);
    }
    link_body(s, i, n);
    if (from != MBP__QT_NULL && from != n) {
        prune(s, from);
    }
}

/* One walk of moved body b over the region lo..hi: begins its pairs with the bodies whose boxes
 * meet its new box, ends those that met its old box (when it had one) and no longer do. It
 * handles the bodies whose box met b's old one when olds, and those that meet only its new one
 * when news (the top comment). Returns the bodies looked at; sets *full, and begins nothing
 * more, once the pair set is full. */
MBP__LOOP uint32_t step_walk(const mbp_quadtree_state *s, const mbp__bodies *v, mbp__sink *out,
                             uint16_t b, const qt_range *r, bool olds, bool news, bool *full)
{
    uint32_t tests = 0u;
    const mbp_aabb *nb = &v->box[b];
    const mbp_aabb *ob = &s->rec[b];
    bool had = s->of[b] != MBP__QT_NULL;
    qt_walk w;
    w.r = *r;
    walk_start(s, &w, 0u);
    for (uint16_t n = 0u; n != MBP__QT_NULL; n = walk_next(s, &w)) {
        for (uint16_t c = s->node[n].head; c != MBP__QT_NULL; c = s->next[c]) {
            if (c == b) {
                continue;
            }
            tests++;
            bool was = had && mbp__boxes_meet(ob, &s->rec[c]);
            bool now = mbp__boxes_meet(nb, &s->rec[c]);
            bool take = was ? olds : (now && news);
            if (!take) {
                continue;
            }
            if (now) {
                if (mbp__sink_count(out) >= (uint32_t)MBP_MAX_PAIRS) {
                    *full = true;
                } else {
                    mbp__sink_begin(out, b, c);
                }
            } else {
                mbp__sink_end(out, b, c);
            }
        }
    }
    return tests;
}

/* Moved (or new) body b's pairs, then its place (the top comment); returns the bodies looked at.
 * Once the pair set is full (*full), only places the body. */
static uint32_t step_body(mbp_quadtree_state *s, const mbp__bodies *v, mbp__sink *out, uint16_t b,
                          bool *full)
{
    uint32_t tests = 0u;
    if (!*full) {
        qt_range r = range_of_box(s, &v->box[b]);
        if (s->of[b] == MBP__QT_NULL) {
            tests = step_walk(s, v, out, b, &r, false, true, full);
        } else if (mbp__boxes_meet(&s->rec[b], &v->box[b])) {
            /* One walk over both: the regions are monotonic, so their union. */
            qt_range o = range_of_box(s, &s->rec[b]);
            for (int k = 0; k < MBP_DIM; k++) {
                r.lo[k] = o.lo[k] < r.lo[k] ? o.lo[k] : r.lo[k];
                r.hi[k] = o.hi[k] > r.hi[k] ? o.hi[k] : r.hi[k];
            }
            tests = step_walk(s, v, out, b, &r, true, true, full);
        } else { /* a jump: the old region, then the new */
            qt_range o = range_of_box(s, &s->rec[b]);
            tests = step_walk(s, v, out, b, &o, true, false, full);
            tests += step_walk(s, v, out, b, &r, false, true, full);
        }
    }
    place_body(s, v, b);
    return tests;
}

/* A full frame, once the moved bodies are placed (the top comment): every body's pairs anew,
 * only those that overlap stored, as brute force would. The candidates begun before it (if the
 * set filled up) are dropped first, so no pair that brute force keeps is lost to candidates that
 * do not overlap exactly. Returns the box tests made. */
MBP__LOOP uint32_t full_frame(mbp_quadtree_state *s, const mbp__bodies *v, mbp__sink *out)
{
    uint32_t tests = 0u;
    mbp__sink_drop_new(out);
    mbp__sink_full_frame(out, false);
    for (uint16_t b = 0u; b < v->high; b++) {
        if (s->of[b] != MBP__QT_NULL) { /* in the tree: live (removed bodies leave at once) */
            qt_range r = range_of_box(s, &s->rec[b]);
            s->home[b] = s->node[home_of(s, b, &r)].depth;
        }
    }
    for (uint16_t b = 0u; b < v->high; b++) {
        if (s->of[b] != MBP__QT_NULL) {
            tests += pairs_below(s, out, b);
        }
    }
    return tests;
}

/* An update with bodies to look at: their pairs and places, and a full frame where it pays
 * (mbp__quadtree_update()); returns the box tests made. */
MBP__LOOP uint32_t update_moved(mbp_quadtree_state *s, const mbp__bodies *v, mbp__sink *out)
{
    uint32_t tests = 0u;
    /* A full frame when candidates were lost, or when more than 7/16 of the bodies moved: a moved
     * body's walks from the root cost about 2.2 times a full frame's walk per body from its home
     * (M4, sparse 256: every body's walk from the root about 2900 instructions, a full frame about
     * 1300 per body), so the full frame is cheaper past about 0.45 of the bodies. */
    bool full = mbp__sink_overflowed(out) || v->moved_count * 16u > (uint32_t)v->live * 7u;
    for (uint32_t d = 0; d < v->moved_count; d++) {
        if (mbp__in(v, v->moved[d])) {
            tests += step_body(s, v, out, v->moved[d], &full);
        }
    }
    if (full) {
        tests += full_frame(s, v, out);
    }
    return tests;
}

mbp_status mbp__quadtree_update(mbp_quadtree_state *s, const mbp__bodies *v, mbp__sink *out)
{
    /* Nothing moved and nothing lost: no pair changes (a still scene costs a few instructions). */
    uint32_t tests = 0u;
    if (v->moved_count != 0u || mbp__sink_overflowed(out)) {
        tests = update_moved(s, v, out);
    }
    out->tests = tests;
    return MBP_OK;
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
