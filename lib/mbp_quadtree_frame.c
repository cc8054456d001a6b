/* SPDX-License-Identifier: MIT */
/* mbp_quadtree_frame.c: the quadtree backend's update (how it works: mbp_quadtree.c's top
 * comment): placing the moved bodies (their nodes taken from the pool as their places need
 * them), their pairs by walks from the root (incremental), and the full frame, each body walking
 * the subtree of its home. The hot helpers (the places here, the walks of mbp_quadtree_walk.h)
 * are inlined beside their callers.
 */
#include "mbp_quadtree_walk.h"

#if MBP_WITH_QUADTREE

/* ---- placing the moved bodies ---- */

/* Where a box lives: its depth and its cell at that depth. */
typedef struct place {
    uint8_t depth;
    uint16_t cell[MBP_DIM];
} place;

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
        fine[k] = 0u;
        if (inside) { /* off < root < 2^32 */
            fine[k] = mbp__cell_div(s->cell, (uint32_t)off);
        }
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
    qt_wide lim = cell_edge(s);
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
        (void)mbp__quadtree_unlink(s, i);
    }
    link_body(s, i, n);
    if (from != MBP__QT_NULL && from != n) {
        mbp__quadtree_prune(s, from);
    }
}

/* ---- incremental steps ---- */

/* One walk of moved body b over the region lo..hi: begins its pairs with the bodies whose boxes
 * meet its new box, ends those that met its old box (when it had one) and no longer do. It
 * handles the bodies whose box met b's old one when olds, and those that meet only its new one
 * when news (mbp_quadtree.c's top comment). Returns the bodies looked at; sets *full, and begins
 * nothing more, once the pair set is full. */
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

/* Moved (or new) body b's pairs, then its place (mbp_quadtree.c's top comment); returns the
 * bodies looked at. Once the pair set is full (*full), only places the body. */
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

/* ---- full frames ---- */

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

/* A full frame, once the moved bodies are placed (mbp_quadtree.c's top comment): every body's
 * pairs anew, only those that overlap stored, as brute force would. The candidates begun before
 * it (if the set filled up) are dropped first, so no pair that brute force keeps is lost to
 * candidates that do not overlap exactly. Returns the box tests made. */
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

/* ---- the update ---- */

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

#endif /* MBP_WITH_QUADTREE */
