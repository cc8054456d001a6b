/* SPDX-License-Identifier: MIT */
/* mbp_cells_update.c: the cell engine's update (mbp_cells.c explains the cells, the levels and
 * the storage): the incremental steps that link the pending changes, and the choice between
 * incremental and full frames (the full frames' enumeration of the candidates: mbp_cells.c).
 *
 * Incremental frames. The pair set keeps the candidates between frames, and
 * the structure keeps each body's cells as of the last update. Add and move only compute the
 * body's new cell range: when it is the same as its committed one (the usual case of coherent
 * motion) they return at once, and the update does nothing for that body (the core re-tests its
 * candidates because it is dirty). Otherwise the body joins a list of pending changes, and the
 * entry pool is checked then: 'spare' counts the free entries not promised to pending changes,
 * so an add or move that would not fit returns MBP_E_NOROOM at once and the update never runs
 * out. The update takes the pending bodies one at a time (in list order; growing bodies that do
 * not fit yet wait for a second pass after the others have freed theirs), each from its old place
 * to its new one with every other body where it is in the structure at that moment. For such a
 * step and each level M it maps the old and new ranges to level M (shifted right, or, for a finer
 * M, expanded to every level-M cell inside), A and B, and then:
 *   - walks the cells of A not in B: each body j found whose cell is the minimum corner of
 *     A n Rj (max(A.lo, Rj.lo) per axis) and whose range misses B stops being a candidate
 *     (mbp__sink_end), found once: the minimum corner of A n Rj lies outside B when Rj misses B;
 *   - walks the cells of B not in A the same way, for bodies j that become candidates;
 *   - when walking those cells would cost more than looking at every body (their number times
 *     the mean length of a list, against the bodies), it checks each body of level M instead (a
 *     coarse or large body seen from a fine level, or a table of very few buckets);
 *   - and checks every large body directly.
 * Then it moves the body's entries. So each pair's candidate status is maintained exactly and
 * reported once per change; the order of the steps does not matter. A removed body leaves the
 * structure at once (the core ends its pairs).
 *
 * Full frames. Candidates take room in the pair set (about 2 per body for boxes half a cell
 * wide, 3 to 4 times the overlapping pairs), and the core exact-tests those of every moved body
 * each frame: when most bodies move and cross cells often, a full frame costs less. So the
 * engine runs full frames: changes applied without reports, every candidate pair enumerated
 * once, only those whose boxes overlap reported (mbp__sink_full_frame(out, false): only hits are
 * stored, as brute force), and the candidates counted -
 *   - when the pair set is over 7/8 full at an update (after a frame that lost pairs, a full
 *     one, the candidates do not fit: it stays full);
 *   - when an incremental report finds it full (a candidate is never lost: the frame runs as a
 *     full one instead);
 *   - when the estimated cost of the frame (the K_* figures below, counts of candidates, moved
 *     bodies, cell changes, entries and hits) is over 5/4 of a full frame's, after DWELL frames
 *     in a mode.
 * Leaving incremental frames drops every stored candidate that was not a pair in the last frame,
 * so a full frame has the same room as brute force's and overflows only where it would. It
 * returns to incremental frames when the last count of candidates is at most 3/4 of the set
 * and the estimate is below a full frame's (after DWELL frames): it counts them again and, if
 * they fit beside the stored pairs, reports them all (mbp__sink_full_frame(out, true)). A new world
 * starts in full frames (its first update links every body and counts the candidates). The
 * estimates are rough (within about 10% of the better mode on the bench scenes); exactness does
 * not depend on the mode.
 */
#include "mbp_cells_core.h"

#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID

/* Full frames leave for incremental ones when the candidates fill at most LOW_WATER of the pair
 * set; incremental frames leave when the set holds more than HIGH_WATER at an update. */
#define LOW_WATER ((uint32_t)MBP_MAX_PAIRS - (uint32_t)MBP_MAX_PAIRS / 4u)
#define HIGH_WATER ((uint32_t)MBP_MAX_PAIRS - (uint32_t)MBP_MAX_PAIRS / 8u)

/* Instructions per unit of work, about (make bench under QEMU), for choosing between
 * incremental and full frames; exactness does not depend on them. Incremental: the core walks
 * every stored candidate (K_WALK) and exact-tests those of moved bodies (K_TEST); each body
 * whose cells changed costs K_CHANGE. Full: each candidate pair is enumerated and box-tested
 * (K_ENUM), each overlapping pair inserted (K_HIT), each entry walked (K_ENTRY), and changed
 * bodies are relinked (K_RELINK). One set of figures (the Cortex-M4's) for every CPU: the
 * choice orders the pair set, and mbp_next_pair() walks it in the same order everywhere. */
#define K_WALK 45u
#define K_TEST 75u
#define K_CHANGE 1000u
#define K_ENUM 60u
#define K_HIT 200u
#define K_ENTRY 40u
#define K_RELINK 500u

/* What an incremental step reports into. */
typedef struct {
    const mbp__bodies *v;
    mbp__sink *out;
    const mbp_grid_state *s;
    uint16_t i;
    uint32_t tests;
    bool abandon; /* the pair set is full: this frame becomes a full one */
} step;

/* ---- cells ---- */

/* Body i's committed place (level OUT when it is not in the structure). */
void mbp__cells_span_get(const mbp_grid_state *s, uint16_t i, span *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        out->r.lo[k] = s->lo[i][k];
        out->r.hi[k] = s->hi[i][k];
    }
    out->level = s->level[i];
    out->large = (uint8_t)(s->bflag[i] & F_LARGE);
    out->n = 0u; /* not needed */
}

/* sp's range at level m: shifted right when m is coarser, else every level-m cell inside. Both
 * fit 16 bits: a coordinate at level l is at most 65535 >> l. */
static void region_at(const span *sp, uint32_t m, region *out)
{
    uint32_t l = sp->level;
    for (int k = 0; k < MBP_DIM; k++) {
        if (m >= l) {
            out->lo[k] = (uint16_t)(sp->r.lo[k] >> (m - l));
            out->hi[k] = (uint16_t)(sp->r.hi[k] >> (m - l));
        } else {
            out->lo[k] = (uint16_t)((uint32_t)sp->r.lo[k] << (l - m));
            out->hi[k] = (uint16_t)((((uint32_t)sp->r.hi[k] + 1u) << (l - m)) - 1u);
        }
    }
}

MBP__HOT bool inside(const uint16_t c[MBP_DIM], const region *r)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (c[k] < r->lo[k] || c[k] > r->hi[k]) {
            return false;
        }
    }
    return true;
}

/* The candidate rule between place a and body j: ranges overlap at the coarser level. */
bool mbp__cells_cand(const mbp_grid_state *s, const span *a, uint16_t j)
{
    uint32_t la = a->level, lj = s->level[j];
    uint32_t da = lj > la ? lj - la : 0u, dj = la > lj ? la - lj : 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        if ((uint32_t)(a->r.lo[k] >> da) > (uint32_t)(s->hi[j][k] >> dj) ||
            (uint32_t)(s->lo[j][k] >> dj) > (uint32_t)(a->r.hi[k] >> da)) {
            return false;
        }
    }
    return true;
}

/* ---- the structure ---- */

/* Takes a free entry for body i in cell c at a level, at the head of the cell's list. */
static void link_entry(mbp_grid_state *s, uint16_t i, uint32_t level, const uint16_t c[MBP_DIM])
{
    uint16_t e = s->free_head;
    MBP__ASSERT(e != NONE);
    s->free_head = s->cnext[e];
    s->free_count--;
    s->ebody[e] = i;
    for (int k = 0; k < MBP_DIM; k++) {
        s->ecell[e][k] = c[k];
    }
    s->bnext[e] = s->first[i];
    s->first[i] = e;
    uint32_t b = mbp__cells_bucket(s, level, c);
    uint16_t h = s->head[b];
    s->cnext[e] = h;
    s->cprev[e] = NONE;
    if (h != NONE) {
        s->cprev[h] = e;
    }
    s->head[b] = e;
}

static void set_range(mbp_grid_state *s, uint16_t i, const span *sp)
{
    for (int k = 0; k < MBP_DIM; k++) {
        s->lo[i][k] = sp->r.lo[k];
        s->hi[i][k] = sp->r.hi[k];
    }
}

/* Puts body i (out of the structure) at sp; the caller checked that the pool has room. */
static void insert(mbp_grid_state *s, uint16_t i, const span *sp)
{
    set_range(s, i, sp);
    s->level[i] = sp->level;
    if (sp->large) {
        s->bflag[i] |= F_LARGE;
        s->first[i] = s->large_head;
        s->large_head = i;
        s->large_count++;
        return;
    }
    MBP__ASSERT(sp->n <= s->free_count);
    s->level_count[sp->level]++;
    s->first[i] = NONE;
    uint16_t c[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        c[k] = sp->r.lo[k];
    }
    do {
        link_entry(s, i, sp->level, c);
    } while (next_cell(c, sp->r.lo, sp->r.hi));
}

/* Body i, with entries at t's level, takes t's range: only the cells that differ change. */
static void relink(mbp_grid_state *s, uint16_t i, const span *t)
{
    uint32_t level = t->level;
    region old;
    for (int k = 0; k < MBP_DIM; k++) {
        old.lo[k] = s->lo[i][k];
        old.hi[k] = s->hi[i][k];
    }
    uint16_t *p = &s->first[i];
    while (*p != NONE) {
        uint16_t e = *p;
        if (inside(s->ecell[e], &t->r)) {
            p = &s->bnext[e];
        } else {
            *p = s->bnext[e];
            mbp__cells_unlink_entry(s, e, level);
        }
    }
    uint16_t c[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        c[k] = t->r.lo[k];
    }
    do {
        if (!inside(c, &old)) {
            link_entry(s, i, level, c);
        }
    } while (next_cell(c, t->r.lo, t->r.hi));
    set_range(s, i, t);
}

/* ---- incremental steps ---- */

/* A candidate is never lost to a full pair set (it could be a pair brute force keeps): the
 * frame is abandoned instead, and runs as a full one. */
static void flip(step *st, uint16_t j, bool now)
{
    if (now) {
        if (st->out->ps->count >= (uint32_t)MBP_MAX_PAIRS) {
            st->abandon = true;
        } else {
            mbp__sink_begin(st->out, st->i, j);
        }
    } else {
        mbp__sink_end(st->out, st->i, j);
    }
}

/* The bodies of level m in the cells of piece (a part of a): those at the minimum corner of
 * a n their range, whose range misses b (NULL: nothing), change to status 'now'. */
static void walk_piece(step *st, uint32_t m, const region *piece, const region *a,
                       const region *b, bool now)
{
    const mbp_grid_state *s = st->s;
    bool hashed = s->mode != MBP__CELLS_GRID;
    uint16_t c[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        c[k] = piece->lo[k];
    }
    do {
        for (uint16_t f = s->head[mbp__cells_bucket(s, m, c)]; f != NONE; f = s->cnext[f]) {
            uint16_t j = s->ebody[f];
            if (j == st->i || (hashed && (s->level[j] != m || !same_cell(s->ecell[f], c))) ||
                !reports(c, a->lo, s->lo[j])) {
                continue;
            }
            st->tests++;
            if (b == NULL || !meets(s->lo[j], s->hi[j], b)) {
                flip(st, j, now);
            }
        }
    } while (next_cell(c, piece->lo, piece->hi));
}

/* The bodies of level m found in the cells of a that are not in b (b may be NULL: none), each
 * once, at the minimum corner of a n its range; those whose range misses b change to status
 * 'now'. a \ b is cut into at most 2 * MBP_DIM boxes, a slab below and above b per axis. */
static void walk(step *st, uint32_t m, const region *a, const region *b, bool now)
{
    if (b == NULL || !meets(a->lo, a->hi, b)) {
        walk_piece(st, m, a, a, b, now);
        return;
    }
    region rest = *a;
    for (int k = 0; k < MBP_DIM; k++) {
        if (rest.lo[k] < b->lo[k]) {
            region piece = rest;
            piece.hi[k] = (uint16_t)(b->lo[k] - 1u);
            walk_piece(st, m, &piece, a, b, now);
            rest.lo[k] = b->lo[k];
        }
        if (rest.hi[k] > b->hi[k]) {
            region piece = rest;
            piece.lo[k] = (uint16_t)(b->hi[k] + 1u);
            walk_piece(st, m, &piece, a, b, now);
            rest.hi[k] = b->hi[k];
        }
    }
}

/* As the two walks, by checking every body of level m: was it a candidate (its range meets a)
 * and is it now (meets b)? a may be NULL (a new body). */
static void scan(step *st, uint32_t m, const region *a, const region *b)
{
    const mbp_grid_state *s = st->s;
    for (uint16_t j = 0; j < st->v->high; j++) {
        if (s->level[j] != m || (s->bflag[j] & F_LARGE) != 0u || j == st->i) {
            continue;
        }
        st->tests++;
        bool was = a != NULL && meets(s->lo[j], s->hi[j], a);
        bool now = meets(s->lo[j], s->hi[j], b);
        if (was != now) {
            flip(st, j, now);
        }
    }
}

/* Body i goes from its committed place to t; with report, every pair whose candidate status
 * changes is reported once, walking at most 'most' cells per level (else checking every body).
 * Returns true when the pair set was full (reports incomplete). */
static bool apply(const mbp__bodies *v, mbp__sink *out, mbp_grid_state *s, uint16_t i,
                  const span *t, bool report, uint32_t most, uint32_t *tests)
{
    bool abandon = false;
    span c;
    mbp__cells_span_get(s, i, &c);
    bool had = c.level != OUT;
    bool cells = had && !c.large && !t->large && c.level == t->level; /* entries, both */
    if (had && c.level == t->level && c.large == t->large && same_cell(c.r.lo, t->r.lo) &&
        same_cell(c.r.hi, t->r.hi)) {
        return false; /* moved away and back this frame */
    }
    if (report) {
        step st = {v, out, s, i, 0u, false};
        for (uint32_t m = 0; m < s->levels; m++) {
            uint32_t others = s->level_count[m];
            if (had && !c.large && c.level == m) {
                others--;
            }
            if (others == 0u) {
                continue;
            }
            region a, b;
            if (m == t->level && cells) {
                if (2u * MAX_CPB <= most) { /* the usual case: one level, few cells */
                    walk(&st, m, &c.r, &t->r, false);
                    walk(&st, m, &t->r, &c.r, true);
                    continue;
                }
                a = c.r;
                b = t->r;
            } else {
                region_at(t, m, &b);
                if (had) {
                    region_at(&c, m, &a);
                }
            }
            if (mbp__cells_region_cells(&b) + (had ? mbp__cells_region_cells(&a) : 0u) > most) {
                scan(&st, m, had ? &a : NULL, &b);
            } else {
                if (had) {
                    walk(&st, m, &a, &b, false);
                }
                walk(&st, m, &b, had ? &a : NULL, true);
            }
        }
        for (uint16_t l = s->large_head; l != NONE; l = s->first[l]) {
            if (l == i) {
                continue;
            }
            st.tests++;
            bool was = had && mbp__cells_cand(s, &c, l);
            bool now = mbp__cells_cand(s, t, l);
            if (was != now) {
                flip(&st, l, now);
            }
        }
        *tests += st.tests;
        abandon = st.abandon;
    }
    if (cells) {
        relink(s, i, t);
    } else {
        mbp__cells_release(s, i);
        insert(s, i, t);
    }
    return abandon;
}

/* Applies the pending changes, in list order; a body that needs more entries than are free
 * waits for a second pass, after every other has freed its own ('spare' guarantees the total).
 * With report, returns true when the pair set filled up (the reports stopped there). */
static bool run_pending(const mbp__bodies *v, mbp__sink *out, mbp_grid_state *s, bool report,
                        uint32_t *tests)
{
    bool abandon = false;
    uint32_t wait = 0u;
    /* Walking a cell costs its list: with few buckets (hash, hgrid) the list holds other cells'
     * entries too. The cells worth walking: the bodies over that load, about. */
    uint32_t load = 1u + ((uint32_t)MBP_GRID_MAX_ENTRIES - s->free_count) / s->nheads;
    uint32_t most = (v->high + 8u) / load;
    for (uint32_t pass = 0; pass < 2u; pass++) {
        uint32_t n = pass == 0u ? s->pend_count : wait;
        wait = 0u;
        for (uint32_t p = 0; p < n; p++) {
            uint16_t i = s->pend[p];
            if ((s->bflag[i] & F_PEND) == 0u) {
                continue; /* removed since */
            }
            span t;
            mbp__cells_span_of(s, &v->box[i], &t);
            uint32_t h = mbp__cells_held(s, i);
            if (pass == 0u && t.n > h && t.n - h > s->free_count) {
                s->pend[wait++] = i;
                continue;
            }
            MBP__ASSERT(t.n <= h || t.n - h <= s->free_count);
            s->bflag[i] &= (uint8_t)~F_PEND;
            if (apply(v, out, s, i, &t, report && !abandon, most, tests)) {
                abandon = true;
            }
        }
    }
    s->pend_count = 0u;
    MBP__ASSERT(s->spare == (int32_t)s->free_count);
    return abandon;
}

/* ---- hooks ---- */

/* The two estimates of this frame's cost, from c candidates and p bodies whose cells changed.
 * In 32 bits: c and the hits are at most 2^20 (MBP_MAX_PAIRS), p and the entries 2^16, so each
 * sum stays below 2^29 and five times it below 2^32. */
static void estimate(const mbp__bodies *v, const mbp__sink *out, const mbp_grid_state *s,
                     uint32_t c, uint32_t p, uint32_t *incr, uint32_t *full)
{
    uint32_t n = v->live != 0u ? v->live : 1u;
    uint32_t d = v->moved_count < n ? v->moved_count : n;
    uint32_t e = (uint32_t)MBP_GRID_MAX_ENTRIES - s->free_count;
    /* Candidates with a moved body, if moved bodies are spread evenly: c (1 - (1 - d/n)^2). */
    uint32_t f = (d << 8) / n; /* d/n in 1/256 */
    uint32_t moved = (uint32_t)(((uint64_t)c * ((uint64_t)f * (uint64_t)(512u - f))) >> 16);
    *incr = K_WALK * c + K_TEST * moved + K_CHANGE * p;
    *full = K_ENUM * c + K_HIT * out->ps->hits + K_ENTRY * e + K_RELINK * p;
}

/* Leaving incremental frames: the pair set keeps only the last frame's pairs (MBP__PREV, what
 * brute force's set holds at this point), so the full frame has exactly brute force's room. The
 * candidates dropped were no pairs (an incremental frame's own too): no event depends on them. */
static void drop_candidates(mbp__sink *out, mbp_grid_state *s)
{
    mbp_pairset *ps = out->ps;
    for (uint32_t k = 0; k < ps->count;) {
        if ((ps->flag[k] & MBP__PREV) == 0u) {
            mbp__pairs_remove_at(ps, k); /* the last entry moves to k: look at k again */
        } else {
            k++;
        }
    }
    s->incr = 0u;
    s->dwell = 0u;
}

mbp_status mbp__cells_update(mbp_grid_state *s, const mbp__bodies *v, mbp__sink *out)
{
    uint32_t tests = 0u, incr, full, changes = s->pend_count;
    if (s->dwell < DWELL) {
        s->dwell++;
    }
    if (s->incr) {
        estimate(v, out, s, out->ps->count, changes, &incr, &full);
        /* No frame that lost pairs is incremental: an incremental report never loses a
         * candidate (flip()), and the switch to incremental frames needs room for them all. */
        if (out->ps->count > HIGH_WATER || s->pin == PIN_FULL) {
            drop_candidates(out, s); /* candidates would soon be lost: full frames */
            s->cands = 0u;
        } else if (s->pin == PIN_NONE && s->dwell >= DWELL && 4u * incr > 5u * full) {
            drop_candidates(out, s); /* full frames cost less now */
        }
    }
    if (run_pending(v, out, s, s->incr != 0u, &tests)) {
        drop_candidates(out, s); /* the candidates do not fit: this frame becomes a full one */
        s->cands = 0u;
    }
    if (!s->incr && s->pin != PIN_FULL && s->cands <= LOW_WATER) {
        estimate(v, out, s, s->cands, changes, &incr, &full);
        if (s->pin == PIN_INCR || (s->dwell >= DWELL && incr < full)) {
            uint32_t none = 0u;
            uint32_t c = mbp__cells_enumerate(v, out, s, E_COUNT, &none);
            if (c <= LOW_WATER && out->ps->count + c <= (uint32_t)MBP_MAX_PAIRS) {
                mbp__sink_full_frame(out, true); /* back to incremental frames: keep them all */
                (void)mbp__cells_enumerate(v, out, s, E_ALL, &tests);
                s->incr = 1u;
                s->dwell = 0u;
            }
        }
    }
    if (!s->incr) {
        mbp__sink_full_frame(out, false);
        s->cands = mbp__cells_enumerate(v, out, s, E_OVERLAP, &tests);
    }
    out->tests = tests;
    return MBP_OK;
}

#else
typedef int mbp__cells_update_unused; /* ISO C wants a translation unit to declare something */
#endif
