/* SPDX-License-Identifier: MIT */
/* mbp_update.c: the frame, mbp_update(), and the exact test it applies to candidates.
 *
 * The backend reports candidate pairs into the pair set (see mbp_internal.h); then
 * either one pass over the set applies the exact tests where needed, ends the pairs of removed
 * bodies and of lost candidates and writes the begun and ended events, or, on SAP with exact
 * values among plain boxes and when the backend began only exact pairs (brute force and sweep when
 * few moved), apply_log() settles just the pairs the backend changed, or, in an incremental frame
 * with no body removed, test_moved() ends the logged candidates and tests the pairs with a moved
 * body in a light pass. The events are then sorted. Cost per frame: the backend's, plus O(p) for
 * p stored pairs (the pass; the light one about 10 instructions a pair on the M4) or O(c) for c
 * logged changes (the log), plus O(e log e) for e events, plus O(moved). The bodies are in
 * mbp_world.c, the pairs and events as the user reads them in mbp_output.c.
 */
#include "mbp_internal.h"

/* ---- the exact test applied to every candidate ---- */

MBP__HOT mbp__volumes volumes_of(const mbp_world *w)
{
    mbp__volumes vol;
    vol.flags = w->flags;
    vol.box = w->box;
    vol.category = w->category;
    vol.mask = w->mask;
#if MBP_WITH_SPHERES
    vol.sphere = w->sphere;
#endif
#if MBP__POOL
    vol.shape_of = w->shape_of;
    vol.shapes = w->shapes;
#endif
    vol.aabb_only = w->params.aabb_only;
    return vol;
}

mbp__volumes mbp__world_volumes(const mbp_world *w)
{
    return volumes_of(w);
}

bool mbp__exact(const mbp_world *w, uint16_t a, uint16_t b)
{
    /* Two static bodies never pair; then the filters both ways, the boxes, the spheres, the shapes
     * and fast bodies: the test a full frame's sink makes (mbp__volumes_meet()). */
    mbp__volumes vol = volumes_of(w);
    return mbp__volumes_meet(&vol, a, b);
}

/* ---- the pair sink the backend reports into (mbp_bp.h, mbp_pairs.c) ---- */

static mbp__sink sink_of(mbp_world *w)
{
    mbp__sink out;
    out.ps = &w->pairs;
    out.vol = volumes_of(w);
    out.lost_last = w->stats.lost_pairs;
    out.tests = 0u;
    return out;
}

/* ---- the frame ---- */

/* The backend was built anew (mbp_shift_origin()): its candidates are reported afresh at the next
 * update. Every stored pair stops being a candidate until then (a pair not reported again ends
 * there), and every body counts as moved, so that every pair is tested. */
void mbp__pairs_restart(mbp_world *w)
{
    for (uint32_t k = 0; k < w->pairs.count; k++) {
        w->pairs.flag[k] &= (uint8_t)~MBP__CAND;
    }
    for (uint16_t i = 0; i < w->high; i++) {
        if (mbp__active(w, i)) {
            mbp__mark_dirty(w, i);
        }
    }
    w->restart = 1u;
}

/* The user slot of pair k (MBP_PAIR_USER), which its end event keeps; else 0. */
static inline uint32_t user_at(const mbp_pairset *ps, uint32_t k)
{
#if MBP_PAIR_USER
    return ps->user[k];
#else
    (void)ps;
    (void)k;
    return 0u;
#endif
}

/* Records pair key as begun or ended, in the pair set's free entries, each step O(1): the begun
 * list fills them from the top down, the ended list is one block around the entry above the
 * pairs the backend left (ev_end), which grows down onto the entries of pairs that ended and
 * left (each is dropped before its event is recorded) and else up towards the begun list; when
 * the two meet and entries are free below, the block's top event moves below it (the lists are
 * sorted afterwards), so that every free entry serves. user: an ended pair's user slot
 * (MBP_PAIR_USER). With no event lists (MBP_WITH_EVENTS 0), only counts it. */
static void push_event(mbp_world *w, uint32_t key, uint32_t user, bool begun)
{
    mbp_stats *s = &w->stats;
#if MBP_WITH_EVENTS
    mbp_pairset *ps = &w->pairs;
    const uint32_t top = (uint32_t)MBP__PAIR_ROOM - s->begun; /* the begun list's first entry */
    const uint32_t hi = ps->ev_end + s->ended;                  /* past the ended block */
    const bool below = ps->ev_end > ps->count;                  /* a free entry under the block */
    uint32_t at;
    if (!begun && below) {
        at = --ps->ev_end;
    } else if (hi < top) {
        at = begun ? top - 1u : hi;
    } else if (below) { /* begun, the lists meet: the block's top event moves under it */
        ps->ev_end--;
        ps->pair[ps->ev_end] = ps->pair[hi - 1u];
#if MBP_PAIR_USER
        ps->user[ps->ev_end] = ps->user[hi - 1u];
#endif
        at = top - 1u;
    } else {
        s->lost_events++;
        return;
    }
    ps->pair[at].a = (uint16_t)(key >> 16);
    ps->pair[at].b = (uint16_t)(key & 0xFFFFu);
#if MBP_PAIR_USER
    ps->user[at] = user; /* read for ended pairs only (mbp_ended_users()) */
#else
    (void)user;
#endif
#else
    (void)key;
    (void)user;
#endif /* MBP_WITH_EVENTS */
    if (begun) {
        s->begun++;
    } else {
        s->ended++;
    }
}

#if MBP_WITH_EVENTS
/* After the frame's pass: each list ascending. O(e log e) for e events. */
static void sort_events(mbp_world *w)
{
    mbp_pairset *ps = &w->pairs;
    mbp__sort_events(&ps->pair[(uint32_t)MBP__PAIR_ROOM - w->stats.begun], w->stats.begun);
#if MBP_PAIR_USER
    mbp__sort_pairs_user(&ps->pair[ps->ev_end], NULL, &ps->user[ps->ev_end], w->stats.ended);
#else
    mbp__sort_events(&ps->pair[ps->ev_end], w->stats.ended);
#endif
}
#endif

/* Whether pair (a, b), with a moved body or new, overlaps now; fab holds both bodies' flags. Two
 * boxes with the default filters, static or not: only the box test of mbp__exact(), inlined, and
 * not even that when the backend's candidates are exactly the pairs whose boxes overlap (exact;
 * every pair tested is a candidate: the backend's ended ones are dropped first). Two static
 * bodies never get here: mbp__sink_begin() stores no such pair, so a static body pairs with a
 * body that is not, and its flag asks nothing more (level geometry: most pairs of a moved body). */
MBP__HOT bool hit_now(const mbp_world *w, const mbp_aabb *box, uint32_t a, uint32_t b,
                      uint32_t fab, bool exact)
{
    if ((fab & MBP__SPECIAL) == 0u) {
        return exact || mbp__boxes_meet(&box[a], &box[b]);
    }
    return mbp__exact(w, (uint16_t)a, (uint16_t)b);
}

/* Pair k, of bodies a < b and flags f, overlaps now (hit) or not: its event when that changed
 * since the last update, and its flags. */
MBP__HOT void settle(mbp_world *w, uint8_t *pflag, uint32_t k, uint32_t a, uint32_t b, uint32_t f,
                     bool hit)
{
    if (hit != ((f & MBP__PREV) != 0u)) {
        push_event(w, a << 16 | b, hit ? 0u : user_at(&w->pairs, k), hit);
#if MBP_PAIR_USER
        w->pairs.user[k] = 0u; /* begun: starts at 0; ended, still a candidate: ready to begin */
#endif
    }
    pflag[k] = (uint8_t)(hit ? (MBP__CAND | MBP__HIT | MBP__PREV) : MBP__CAND);
}

/* The first part of the frame's walk over the pair set, when the backend ended candidates or
 * bodies were removed: drops the pairs that are no longer candidates or lost a body, with an end
 * event for those that overlapped. In a full frame (full: the sink decided every pair it stored,
 * and stored only hits) the same walk settles the rest, so no second walk is needed: it returns
 * the pairs that overlap then, else 0. */
static uint32_t drop_gone(mbp_world *w, bool full)
{
    mbp_pairset *ps = &w->pairs;
    const bool dying = w->dying_head != 0u;
    for (uint32_t k = 0; k < ps->count;) {
        uint32_t key = mbp__pkey(&ps->pair[k]);
        uint8_t f = ps->flag[k];
        if ((f & MBP__CAND) == 0u || (dying && (!mbp__active(w, (uint16_t)(key >> 16)) ||
                                                !mbp__active(w, (uint16_t)(key & 0xFFFFu))))) {
            const uint32_t u = user_at(ps, k);
            mbp__pairs_remove_at(ps, k); /* the last entry moves to k: look at k again */
            if (f & MBP__PREV) {
                push_event(w, key, u, false);
            }
        } else {
            if (full) {
                MBP__ASSERT((f & MBP__HIT) != 0u);
                settle(w, ps->flag, k, key >> 16, key & 0xFFFFu, f, true);
            }
            k++;
        }
    }
    return full ? ps->count : 0u;
}

/* The rest, in a frame that is not full: tests again the pairs with a moved body or new, records
 * begin and end events. Returns the pairs that overlap. A function of its own, with no call on
 * its common path: the loop keeps its variables in registers. */
MBP__LOOP uint32_t test_pairs(mbp_world *w, bool exact)
{
    mbp_pairset *ps = &w->pairs;
    const uint8_t *flags = w->flags;
    const mbp_aabb *box = w->box;
    const mbp_pair *pairs = ps->pair;
    uint8_t *pflag = ps->flag;
    const uint32_t n = ps->count;
    uint32_t hits = 0u;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t a = pairs[k].a, b = pairs[k].b;
        uint32_t f = pflag[k];
        uint32_t fab = (uint32_t)flags[a] | flags[b]; /* both bodies' flags */
        bool hit;
        /* NEW is a pair flag, DIRTY a body flag. */
        if (((f & MBP__NEW) | (fab & MBP__DIRTY)) == 0u) {
            hit = (f & MBP__HIT) != 0u;
        } else {
            hit = hit_now(w, box, a, b, fab, exact);
        }
        settle(w, pflag, k, a, b, f, hit);
        hits += hit ? 1u : 0u;
    }
    return hits;
}

/* Drops the logged pair of hash slot s, dense index k, that is no longer a candidate: it
 * overlapped (PREV: mbp__sink_end() kept it for its end event), so it ends now. */
static void end_logged(mbp_world *w, uint32_t key, uint32_t s, uint32_t k)
{
    const uint32_t u = user_at(&w->pairs, k);
    mbp__pairs_remove_slot(&w->pairs, s); /* found: no second probe */
    push_event(w, key, u, false);
}

/* An incremental frame whose log holds every change, with no body removed, instead of
 * drop_gone() and test_pairs(): the log's ended candidates are dropped, then a light pass over
 * the set tests again the pairs with a moved body (about 11 instructions on the M4 for each other
 * pair, against test_pairs()' 26: no flag written, no hit counted). That finds every pair to
 * test: in an incremental update a backend begins and ends only pairs with a moved body
 * (mbp_bp.h). Returns the pairs that overlap: after an update a pair overlaps (HIT) exactly when
 * it did in that update (PREV), so the count changes by the events (recounted when some were
 * lost). Cost: O(c) for c logged changes, plus O(p) light steps. */
MBP__LOOP uint32_t test_moved(mbp_world *w, bool exact)
{
    mbp_pairset *ps = &w->pairs;
    for (uint32_t j = 0; j < ps->log_count && ps->dropped != 0u; j++) {
        uint32_t key = ps->log[j];
        uint32_t s = mbp__pairs_probe(ps, key);
        /* Absent: started and ended in this update, or a second entry of a dropped pair. */
        if (ps->slot[s] != 0u && (ps->flag[ps->slot[s] - 1u] & MBP__CAND) == 0u) {
            end_logged(w, key, s, (uint32_t)ps->slot[s] - 1u);
        }
    }
    const uint8_t *flags = w->flags;
    const mbp_aabb *box = w->box;
    const mbp_pair *pairs = ps->pair;
    uint8_t *pflag = ps->flag;
    const uint32_t n = ps->count;
    if (n != 0u) {
        uint32_t k = 0u;
        do { /* tested at the bottom: one branch a pair less */
            uint32_t a = pairs[k].a, b = pairs[k].b;
            uint32_t fab = (uint32_t)flags[a] | flags[b];
            if ((fab & MBP__DIRTY) != 0u) {
                settle(w, pflag, k, a, b, pflag[k], hit_now(w, box, a, b, fab, exact));
            }
            k++;
        } while (k < n);
    }
    uint32_t hits = ps->hits + w->stats.begun - w->stats.ended;
    if (w->stats.lost_events != 0u) {
        hits = 0u;
        for (uint32_t m = 0; m < n; m++) {
            hits += (pflag[m] & MBP__HIT) != 0u ? 1u : 0u;
        }
    }
    return hits;
}

/* The frame from the log, instead of drop_gone() and test_pairs(): for a backend whose candidates
 * are exactly the overlapping boxes (mbp__backend_exact()), in a world of plain boxes (no
 * special), every stored pair overlaps, and a pair changes only when the backend starts or ends
 * it: the log lists those. The same holds when the backend ended every candidate of a moved body
 * and began again only the pairs that overlap, by the exact test (mbp__sink_end_moved()): the
 * pairs it did not touch are as the last update left them. Each logged pair is settled once (a
 * later entry of the same key finds it settled or gone). Returns the pairs that overlap. Cost:
 * O(changes), whatever the pairs. */
static uint32_t apply_log(mbp_world *w)
{
    mbp_pairset *ps = &w->pairs;
    uint32_t hits = ps->hits;
    for (uint32_t j = 0; j < ps->log_count; j++) {
        uint32_t key = ps->log[j];
        uint32_t s = mbp__pairs_probe(ps, key);
        if (ps->slot[s] == 0u) {
            continue; /* started and ended in this update: no event */
        }
        uint32_t k = (uint32_t)ps->slot[s] - 1u;
        uint8_t f = ps->flag[k];
        if ((f & MBP__CAND) == 0u) { /* overlapped (PREV: uncandidate() kept it), ended now */
            end_logged(w, key, s, k);
            hits--;
        } else {
            if ((f & MBP__PREV) == 0u) {
                push_event(w, key, 0u, true);
                hits++;
            } /* else: ended and started again in this update, no event */
            ps->flag[k] = (uint8_t)(MBP__CAND | MBP__HIT | MBP__PREV);
        }
    }
    return hits;
}

mbp_status mbp_update(mbp_world *w)
{
    MBP__CHECK_WORLD(w);
    mbp_pairset *ps = &w->pairs;
    /* The overflow of the last frame tells an incremental backend to rebuild; keep it until the
     * backend has run. */
    mbp__pairs_start_update(ps);
    w->stats.tests = 0u;
    bool was_whole = w->stats.lost_pairs == 0u; /* the last update stored every pair */
    mbp__sink out = sink_of(w);
    mbp_status st = mbp__backend_update(w, &out);
    w->stats.tests += out.tests;
    uint32_t lost = ps->lost;
    ps->lost = 0u;
    ps->ev_end = ps->count; /* the ended events go above the pairs stored now (push_event()) */
    w->stats.begun = w->stats.ended = w->stats.lost_events = 0u;
    w->stats.lost_pairs = lost;

    /* Nothing moved, nothing was removed, the backend changed no candidate and no pair was lost
     * now or in the last update: every pair and flag is as the last update left it, so there is
     * nothing to walk (a static frame costs the backend's update only). */
    bool same = w->restart == 0u && ps->touched == 0u && w->dirty_count == 0u && w->dying_head == 0u && lost == 0u &&
                was_whole;
    /* The log settles the frame when it holds every change, the pairs need no exact test (SAP's
     * among plain boxes, or an update that began only exact pairs, ps->exact), no body was
     * removed (their pairs end in the walk) and no pair was lost now or before. */
    bool logged = !same && w->restart == 0u &&
                  ((mbp__backend_exact(w) && w->special == 0u) ||
                   (MBP__EXACT_FEW && ps->exact != 0u)) &&
                  w->dying_head == 0u && ps->log_count <= (uint32_t)MBP_PAIR_LOG && lost == 0u &&
                  was_whole;
    /* An incremental frame whose log holds every change (a full frame overflows it), with no body
     * removed: test_moved() tests the pairs of the moved bodies without drop_gone(). Every
     * backend makes one when few bodies moved (mbp_bp.h). */
    bool moved = ps->log_count <= (uint32_t)MBP_PAIR_LOG && w->restart == 0u && w->dying_head == 0u;
    uint32_t hits;
    if (same) {
        hits = ps->hits;
    } else if (logged) {
        hits = apply_log(w);
    } else if (moved) {
        hits = test_moved(w, mbp__backend_exact(w));
    } else if (ps->full_frame != 0u) {
        hits = drop_gone(w, true); /* one walk drops the pairs not reported and settles the rest */
    } else {
        if (ps->dropped != 0u || w->dying_head != 0u || w->restart != 0u) {
            (void)drop_gone(w, false);
        }
        hits = test_pairs(w, mbp__backend_exact(w));
    }
    ps->hits = hits;
    if (!same) {
        ps->split = (uint8_t)(hits == ps->count ? 1u : 0u);
    }
    w->stats.pairs = hits;
#if MBP_WITH_EVENTS
    if (w->stats.begun + w->stats.ended != 0u) {
        sort_events(w);
    }
#endif

    /* The frame is done: moved bodies are clean, removed slots become free. */
    w->restart = 0u;
    uint8_t *flags = w->flags; /* in a register: 7 instructions a body on the M4, against 9 */
    const uint16_t *end = &w->dirty[w->dirty_count];
    for (const uint16_t *d = w->dirty; d != end; d++) {
        flags[*d] &= (uint8_t)~MBP__DIRTY;
    }
    w->dirty_count = 0u;
    while (w->dying_head != 0u) {
        uint16_t i = (uint16_t)(w->dying_head - 1u);
        w->dying_head = w->category[i];
        mbp__set_flags(w, i, 0u);
        w->category[i] = w->free_head;
        w->free_head = (uint16_t)(i + 1u);
    }
    /* Every pair of a body that changed its flags was settled by the exact test in this update
     * (it was listed, and w->special kept the log out): with no special body left, the next
     * update may take the log again. */
    w->special = (uint8_t)(w->special_count != 0u ? 1u : 0u);

    if (st != MBP_OK) {
        return st;
    }
    if (lost != 0u) {
        return MBP_E_PAIRS_FULL;
    }
    return w->stats.lost_events != 0u ? MBP_E_EVENTS_FULL : MBP_OK;
}
