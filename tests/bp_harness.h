/* SPDX-License-Identifier: MIT */
/* bp_harness.h: tests a backend as a data structure, without a world (lib/mbp_bp.h).
 *
 * The harness plays the part of the world in the smallest way: it keeps the bodies' boxes and
 * flags, the list of moved bodies, a pair set and its sink, and after each update it settles the
 * pair set as mbp_update() does (drops ended candidates and the pairs of removed bodies, marks
 * the rest as seen, tests boxes only: every body here is a plain box). A test file defines the
 * hooks of its backend, then includes this file:
 *
 *   #define BP_ADD(i, box)          mbp__sap_add(&g_state, i, box)
 *   #define BP_MOVE(i, old, box)    MBP_OK (a backend without a move hook)
 *   #define BP_REMOVE(i, last)      mbp__sap_remove(&g_state, i, last)
 *   #define BP_UPDATE(v, out)       mbp__sap_update(&g_state, v, out)
 *   #define BP_QUERY(v, box, fn, c) mbp__sap_query(&g_state, v, box, fn, c)
 *   #include "bp_harness.h"
 *
 * bp_random_run() then drives random scenes (ties, touching and zero-size boxes, small moves,
 * teleports, removes and re-adds) and checks after every update that the stored candidates hold
 * every overlapping pair (and nothing else, for an exact backend), and that queries find every
 * body they must.
 */
#ifndef BP_HARNESS_H
#define BP_HARNESS_H

#include "mbp_bp.h"
#include "mbp_test.h"

typedef struct bp_h {
    mbp_aabb box[MBP_MAX_BODIES];
    uint8_t flags[MBP_MAX_BODIES];
    uint16_t category[MBP_MAX_BODIES]; /* the default filters: every pair passes */
    uint16_t mask[MBP_MAX_BODIES];
    uint16_t moved[MBP_MAX_BODIES];
    uint32_t moved_count;
    uint16_t high;
    uint16_t live;
    uint32_t lost_last;
    uint32_t tests; /* the last update's box tests (mbp__sink's tests) */
    bool exact;     /* the last update set the pair set's exact ... */
    bool exact_ok;  /* ... and its candidates with a moved body all overlapped */
    uint32_t rng;
    mbp_pairset ps;
} bp_h;

static bp_h g_bp;

static mbp__bodies bp_view(const bp_h *h)
{
    mbp__bodies v = {h->box, h->flags, h->moved, h->moved_count, h->high, h->live};
    return v;
}

static mbp__volumes bp_volumes(const bp_h *h)
{
    mbp__volumes vol;
    vol.flags = h->flags;
    vol.box = h->box;
    vol.category = h->category;
    vol.mask = h->mask;
#if MBP_WITH_SPHERES
    vol.sphere = NULL; /* no sphere bodies here */
#endif
#if MBP__POOL
    vol.shape_of = NULL; /* nor shape or fast bodies */
    vol.shapes = NULL;
#endif
    vol.aabb_only = 0u;
    return vol;
}

static void bp_reset(bp_h *h, uint32_t seed)
{
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        h->flags[i] = 0u;
        h->category[i] = 1u;
        h->mask[i] = 0xFFFFu;
    }
    h->moved_count = 0u;
    h->high = 0u;
    h->live = 0u;
    h->lost_last = 0u;
    h->rng = seed * 2654435761u + 1u;
    mbp__pairs_clear(&h->ps);
}

static uint32_t bp_rand(bp_h *h, uint32_t n)
{
    h->rng = h->rng * 1664525u + 1013904223u;
    return (h->rng >> 8) % n;
}

static void bp_mark(bp_h *h, uint16_t i)
{
    if ((h->flags[i] & MBP__DIRTY) == 0u) {
        h->flags[i] |= MBP__DIRTY;
        h->moved[h->moved_count++] = i;
    }
}

static mbp_status bp_add(bp_h *h, uint16_t i, const mbp_aabb *box)
{
    h->box[i] = *box;
    mbp_status st = BP_ADD(i, &h->box[i]);
    if (st == MBP_OK) {
        h->flags[i] = MBP__LIVE;
        bp_mark(h, i);
        h->live++;
        if (i >= h->high) {
            h->high = (uint16_t)(i + 1u);
        }
    }
    return st;
}

static mbp_status bp_move(bp_h *h, uint16_t i, const mbp_aabb *box)
{
    mbp_aabb old = h->box[i];
    h->box[i] = *box;
    mbp_status st = BP_MOVE(i, &old, &h->box[i]);
    if (st != MBP_OK) {
        h->box[i] = old; /* as the world does: the old box stays */
        return st;
    }
    bp_mark(h, i);
    return MBP_OK;
}

static void bp_remove(bp_h *h, uint16_t i)
{
    BP_REMOVE(i, &h->box[i]);
    h->flags[i] |= MBP__DYING;
    h->live--;
}

/* One update, then the pair set settled as mbp_update() settles it. */
static mbp_status bp_update(bp_h *h)
{
    mbp_pairset *ps = &h->ps;
    mbp__pairs_start_update(ps);
    mbp__bodies v = bp_view(h);
    mbp__sink out = {ps, bp_volumes(h), h->lost_last, 0u};
    mbp_status st = BP_UPDATE(&v, &out);
    h->tests = out.tests;
    h->exact = ps->exact != 0u;
    h->exact_ok = true;
    for (uint32_t k = 0; k < ps->count; k++) {
        uint16_t a = ps->pair[k].a, b = ps->pair[k].b;
        bool moved = ((h->flags[a] | h->flags[b]) & MBP__DIRTY) != 0u;
        if (moved && (ps->flag[k] & MBP__CAND) != 0u && !mbp_aabb_overlap(&h->box[a], &h->box[b])) {
            h->exact_ok = false; /* what the world's apply_log() would take for a pair */
        }
    }
    for (uint32_t k = 0; k < ps->count;) {
        uint16_t a = ps->pair[k].a, b = ps->pair[k].b;
        if ((ps->flag[k] & MBP__CAND) == 0u || !mbp__in(&v, a) || !mbp__in(&v, b)) {
            mbp__pairs_remove_at(ps, k);
            continue;
        }
        bool hit = mbp_aabb_overlap(&h->box[a], &h->box[b]);
        ps->flag[k] = (uint8_t)(hit ? (MBP__CAND | MBP__HIT | MBP__PREV) : MBP__CAND);
        k++;
    }
    h->lost_last = ps->lost;
    ps->lost = 0u;
    for (uint32_t d = 0; d < h->moved_count; d++) {
        h->flags[h->moved[d]] &= (uint8_t)~MBP__DIRTY;
    }
    h->moved_count = 0u;
    for (uint16_t i = 0; i < h->high; i++) {
        if ((h->flags[i] & MBP__DYING) != 0u) {
            h->flags[i] = 0u;
        }
    }
    return st;
}

/* True when the stored candidates hold every overlapping pair of live bodies (and, for an exact
 * backend, no other pair). */
static bool bp_pairs_ok(const bp_h *h, bool exact)
{
    mbp__bodies v = bp_view(h);
    uint32_t want = 0u;
    for (uint16_t a = 0; a < h->high; a++) {
        for (uint16_t b = (uint16_t)(a + 1u); b < h->high && mbp__in(&v, a); b++) {
            if (!mbp__in(&v, b) || !mbp_aabb_overlap(&h->box[a], &h->box[b])) {
                continue;
            }
            want++;
            if (mbp__pairs_find(&h->ps, mbp__key(a, b)) < 0) {
                return false;
            }
        }
    }
    return !exact || want == h->ps.count;
}

/* Queries: every live body whose box overlaps q must be visited. */
static uint8_t g_bp_seen[MBP_MAX_BODIES];
static void bp_visit(void *ctx, uint16_t i)
{
    (void)ctx;
    g_bp_seen[i] = 1u;
}

static bool bp_query_ok(bp_h *h, const mbp_aabb *q)
{
    mbp__bodies v = bp_view(h);
    for (uint16_t i = 0; i < MBP_MAX_BODIES; i++) {
        g_bp_seen[i] = 0u;
    }
    BP_QUERY(&v, q, bp_visit, NULL);
    for (uint16_t i = 0; i < h->high; i++) {
        if (mbp__in(&v, i) && mbp_aabb_overlap(&h->box[i], q) && g_bp_seen[i] == 0u) {
            return false;
        }
    }
    return true;
}

/* A random box on a lattice of quarter units: ties, touching and zero-size boxes are common. */
static mbp_aabb bp_box(bp_h *h, int32_t span, int32_t size)
{
    mbp_aabb b;
    for (int k = 0; k < MBP_DIM; k++) {
        int32_t lo = (int32_t)bp_rand(h, (uint32_t)span) - span / 2;
        int32_t ext = (int32_t)bp_rand(h, (uint32_t)size + 1u);
        b.min[k] = mbp_from_ratio(lo, 4);
        b.max[k] = mbp_from_ratio(lo + ext, 4);
    }
    return b;
}

/* n bodies, frames updates of random moves (most small, some teleports), removes and re-adds;
 * every update checked. Returns the updates whose pairs were wrong (0 when all were right);
 * *noroom counts hooks or updates that reported MBP_E_NOROOM (not an error: the test decides). */
static uint32_t bp_random_run(bp_h *h, uint32_t seed, uint32_t n, uint32_t frames, int32_t span,
                              int32_t size, bool exact, uint32_t *noroom)
{
    uint32_t wrong = 0u;
    *noroom = 0u;
    bp_reset(h, seed);
    for (uint16_t i = 0; i < n; i++) {
        mbp_aabb b = bp_box(h, span, size);
        *noroom += bp_add(h, i, &b) != MBP_OK ? 1u : 0u;
    }
    for (uint32_t f = 0; f < frames; f++) {
        *noroom += bp_update(h) != MBP_OK ? 1u : 0u;
        wrong += bp_pairs_ok(h, exact) ? 0u : 1u;
        mbp_aabb q = bp_box(h, span, 4 * size);
        wrong += bp_query_ok(h, &q) ? 0u : 1u;
        mbp__bodies v = bp_view(h);
        for (uint16_t i = 0; i < n; i++) {
            uint32_t r = bp_rand(h, 100u);
            if (!mbp__in(&v, i)) {
                if (h->flags[i] == 0u && r < 30u) { /* a removed slot comes back */
                    mbp_aabb b = bp_box(h, span, size);
                    *noroom += bp_add(h, i, &b) != MBP_OK ? 1u : 0u;
                }
                continue;
            }
            if (r < 3u) {
                bp_remove(h, i);
            } else if (r < 6u) { /* a teleport */
                mbp_aabb b = bp_box(h, span, size);
                *noroom += bp_move(h, i, &b) != MBP_OK ? 1u : 0u;
            } else if (r < 50u) { /* a small step, by a quarter unit per axis at most */
                mbp_aabb b = h->box[i];
                for (int k = 0; k < MBP_DIM; k++) {
                    mbp_scalar d = mbp_from_ratio((int32_t)bp_rand(h, 3u) - 1, 4);
                    if (b.min[k] + d >= -MBP_RANGE && b.max[k] + d <= MBP_RANGE) {
                        b.min[k] += d;
                        b.max[k] += d;
                    }
                }
                *noroom += bp_move(h, i, &b) != MBP_OK ? 1u : 0u;
            }
        }
    }
    *noroom += bp_update(h) != MBP_OK ? 1u : 0u;
    wrong += bp_pairs_ok(h, exact) ? 0u : 1u;
    return wrong;
}

#ifdef BP_CALM
/* True when box b is larger on some axis than bp_box() makes a usual one (12 quarter units). */
static bool bp_large(const mbp_aabb *b)
{
    bool large = false;
    for (int k = 0; k < MBP_DIM; k++) {
        large = large || b->max[k] - b->min[k] > mbp_from_ratio(12, 4);
    }
    return large;
}

/* (For a backend whose few-moved update tests each moved body against other bodies only: the
 * test file defines BP_CALM.) A calm scene: n bodies, then frames updates in each of which 1 to 3
 * bodies move (small steps, teleports, and boxes growing to several times the usual size until
 * their next move: a large body widens the scans of a window-based update); every update
 * checked, and one where few moved (few * moved <= live; few 0: not checked) for at most
 * (moved bodies) * (n - 1) box tests, as an exact frame (mbp__sink_end_moved()) whose candidates
 * with a moved body all overlap. Returns the updates that were wrong. */
static uint32_t bp_calm_run(bp_h *h, uint32_t seed, uint32_t n, uint32_t frames, bool exact,
                            uint32_t few)
{
    uint32_t wrong = 0u;
    bp_reset(h, seed);
    for (uint16_t i = 0; i < n; i++) {
        mbp_aabb b = bp_box(h, 40, 12);
        wrong += bp_add(h, i, &b) != MBP_OK ? 1u : 0u;
    }
    for (uint32_t f = 0; f < frames; f++) {
        uint32_t moved = h->moved_count;
        wrong += bp_update(h) != MBP_OK ? 1u : 0u;
        wrong += bp_pairs_ok(h, exact) ? 0u : 1u;
        /* few moved: at most each mover against every other body, and the frame exact (the
         * world settles it from the log) */
        bool checked = few != 0u && f > 0u && few * moved <= h->live;
        wrong += checked && h->tests > moved * (n - 1u) ? 1u : 0u;
        wrong += checked && !(h->exact && h->exact_ok) ? 1u : 0u;
        uint32_t m = 1u + bp_rand(h, 3u);
        for (uint32_t j = 0; j < m; j++) {
            uint16_t i = (uint16_t)bp_rand(h, n);
            mbp_aabb b = h->box[i];
            uint32_t r = bp_rand(h, 8u);
            if (r == 0u) {
                b = bp_box(h, 40, 12);
            } else if (r == 1u) {
                b = bp_box(h, 40, 48);
            } else if (bp_large(&b)) {
                /* A large body takes a usual box again at its next move: left to small steps,
                 * large bodies pile up over a long run (half of them, in the end) until their
                 * pairs overflow the set, which this harness, unlike the world, cannot report. */
                b = bp_box(h, 40, 12);
            } else {
                for (int k = 0; k < MBP_DIM; k++) {
                    mbp_scalar d = mbp_from_ratio((int32_t)bp_rand(h, 3u) - 1, 4);
                    b.min[k] += d;
                    b.max[k] += d;
                }
            }
            wrong += bp_move(h, i, &b) != MBP_OK ? 1u : 0u;
        }
    }
    return wrong;
}
#endif /* BP_CALM */

#endif /* BP_HARNESS_H */
