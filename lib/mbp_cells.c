/* SPDX-License-Identifier: MIT */
/* mbp_cells.c: the cell engine behind the grid, hash and hgrid backends.
 *
 * Cells. A coordinate x maps to a cell coordinate, about floor((x - origin) / cell_size), clamped
 * to the grid (grid) or to +-32767 cells (hash, hgrid), biased to an unsigned 16-bit value. Fixed
 * point uses integer division (a shift when the cell size is a power of two); float computes
 * (x - origin) * (1 / cell_size) + bias, clamps it and truncates. The only property correctness
 * needs is that this map never decreases (each float operation above rounds monotonically): then
 * two closed boxes that overlap (touching included, boxes exactly on a cell border included,
 * bodies outside the grid included, since clamping never decreases either) get cell ranges that
 * overlap. A box's min and max go through the same function.
 *
 * Levels (hgrid). Level L's cell is 2^L level-0 cells: its coordinate is the level-0 coordinate
 * shifted right by L, exact nesting. A body lives at the finest level whose cell edge is at
 * least its largest box edge (so it spans at most 2 cells per axis there), at the coarsest level
 * otherwise; the level depends on the box's size, not on where it is. Grid and hash: one level.
 *
 * Storage. A body covering at most MBP_GRID_MAX_CELLS_PER_BODY cells at its level has one entry
 * per cell; entries are linked in their cell's list (grid: one list per cell; hash: one per
 * bucket, shared by colliding cells, so entries keep their cell and walks compare it) and in the
 * body's list. All entries come from one pool of MBP_GRID_MAX_ENTRIES. A larger body is 'large':
 * no entries, a place in the list of large bodies instead.
 *
 * Candidates. Bodies i and j (levels Li <= Lj, inclusive cell ranges Ri, Rj) are a candidate pair
 * when Ri shifted to level Lj (each coordinate >> (Lj - Li)) overlaps Rj: for one level, when
 * their ranges share a cell. Boxes that overlap are always candidates (monotone map, exact
 * nesting); the core's exact test decides. This holds for large bodies too (by their ranges).
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
 * Enumeration, once per pair without marks: each body walks the entries after its own in each
 * of its cells, and reports only from the minimum corner of the two ranges' intersection; it
 * also looks up the (at most 2^MBP_DIM) cells its range covers at each coarser non-empty level
 * (hgrid), with the same rule on that level's ranges; each large body checks every body.
 *
 * Bounds (n bodies, L large bodies, P bodies whose cells changed since the last update, C
 * candidate pairs, E entries in use, k = MBP_GRID_MAX_CELLS_PER_BODY):
 *   add, move   2 * MBP_DIM cell conversions (hgrid: and a level choice, O(levels)); when the
 *               cells changed, O(1) more (a second span when the body already changed this
 *               frame). Nothing is linked or reported here.
 *   remove      O(k) to unlink its entries, or O(L) for a large body.
 *   update      incremental: O(1) + per changed body and level O(min(n, the cells it leaves and
 *               enters there, times the mean list length) + the entries in those cells) + O(L),
 *               plus one pair-set operation per candidate begun or ended; nothing for the other
 *               bodies (the core's walk of the pair set is O(C)). Full frame: O(n + E + C + L * n), twice when it switches to
 *               incremental. Worst case: every body in one cell, O(n) per changed body and
 *               O(n^2) candidates (then full frames: O(n^2) box tests, as brute force).
 *   query       O(cells of the query's range per level + entries there + L), or O(n) per level
 *               when that range has more cells than there are bodies.
 * Queries use the rule against the query's range, so a body is visited once without marks.
 */
#include "mbp_cells.h"

#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID

#define NONE ((uint16_t)MBP__CELLS_NONE)
#define OUT ((uint8_t)MBP__CELLS_OUT)
#define F_LARGE ((uint8_t)MBP__CELLS_F_LARGE)
#define F_PEND ((uint8_t)MBP__CELLS_F_PEND)
#define MAX_CPB ((uint32_t)MBP_GRID_MAX_CELLS_PER_BODY)

/* Keeps a slow path out of a hot function, so that the hot one saves fewer registers. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

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
#define DWELL 4u /* frames in a mode before a choice by cost may leave it */
#define PIN_NONE 0u /* state.pin: choose by cost */
#define PIN_INCR 1u /* incremental frames whenever the candidates fit */
#define PIN_FULL 2u /* full frames only */

/* A box of cells at one level, inclusive. */
typedef struct {
    uint16_t lo[MBP_DIM];
    uint16_t hi[MBP_DIM];
} region;

/* A body's place: level, range at that level, and the entries it takes (0 when large). */
typedef struct {
    region r;
    uint8_t level;
    uint8_t large;
    uint16_t n;
} span;

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

/* The biased cell coordinate of x on axis k at level 0, clamped to the cells (at most 0xFFFF);
 * never decreases as x grows. */
MBP__HOT uint32_t cell_coord(const mbp_grid_state *s, int k, mbp_scalar x)
{
#if MBP_SCALAR == MBP_FIXED
    /* Both x and origin lie within the range, so the difference fits int32 (mbp_scalar.h). */
    int32_t d = (int32_t)((int64_t)x - s->origin[k]);
    if (d >= 0) {
        uint32_t u = (uint32_t)d;
        uint32_t q = (uint32_t)s->bias + (s->shift >= 0 ? u >> s->shift : u / s->cell); /* < 2^32 */
        return q <= (uint32_t)s->maxc[k] ? q : (uint32_t)s->maxc[k];
    }
    /* floor of a negative quotient: minus the ceiling of the positive one; below cell 0, 0
     * (bias - u <= bias <= maxc). */
    uint32_t u = (uint32_t)(-(int64_t)d) + (s->cell - 1u);
    u = s->shift >= 0 ? u >> s->shift : u / s->cell;
    return u <= (uint32_t)s->bias ? (uint32_t)s->bias - u : 0u;
#else
    /* |x - origin| <= 2^61 and inv <= 2^40: t is finite. For t >= +0 the bit patterns order as
     * the values, and a negative t (or -0) has the sign bit set: one unsigned compare of the
     * bits tells 0 <= t <= fmax, where truncation is floor; below 0 the cell is 0, above fmax
     * it is maxc. */
    union {
        mbp_scalar f;
        uint32_t u;
    } t;
    t.f = (x - s->origin[k]) * s->inv + s->fbias;
    if (t.u <= s->fmax_bits[k]) {
        return (uint32_t)t.f;
    }
    return (t.u & 0x80000000u) != 0u ? 0u : (uint32_t)s->maxc[k];
#endif
}

/* The key of a box's size: its largest edge (fixed point, raw units) or the bits of that edge
 * over the cell size (float, >= +0: the bits order as the values). A box is at level L when
 * key - lvl_from[L] <= lvl_span[L] (unsigned). */
MBP__HOT uint32_t size_key(const mbp_grid_state *s, const mbp_aabb *b)
{
#if MBP_SCALAR == MBP_FIXED
    (void)s;
    uint32_t d = (uint32_t)((int64_t)b->max[0] - b->min[0]); /* < 2^31 */
    for (int k = 1; k < MBP_DIM; k++) {
        uint32_t e = (uint32_t)((int64_t)b->max[k] - b->min[k]);
        d = e > d ? e : d;
    }
    return d;
#else
    mbp_scalar d = b->max[0] - b->min[0]; /* >= +0: boxes are checked */
    for (int k = 1; k < MBP_DIM; k++) {
        mbp_scalar e = b->max[k] - b->min[k];
        d = e > d ? e : d;
    }
    union {
        mbp_scalar f;
        uint32_t u;
    } t;
    t.f = d * s->inv;
    return t.u;
#endif
}

/* The level of a box: the finest whose cell edge is at least the box's largest edge (the
 * coarsest when none is). */
static uint8_t level_for(const mbp_grid_state *s, const mbp_aabb *b)
{
    uint8_t level = 0u;
    if (s->levels > 1u) {
        uint32_t key = size_key(s, b);
        while (key - s->lvl_from[level] > s->lvl_span[level]) {
            level++;
        }
    }
    return level;
}

/* Cells in a range, or MAX_CPB + 1 when more (no overflow: each factor is at most 65536 and
 * the product is cut as soon as it passes MAX_CPB <= 1024). */
static uint32_t range_cells(const uint16_t lo[MBP_DIM], const uint16_t hi[MBP_DIM])
{
    uint32_t n = 1u;
    for (int k = 0; k < MBP_DIM; k++) {
        n *= (uint32_t)(hi[k] - lo[k]) + 1u;
        if (n > MAX_CPB) {
            return MAX_CPB + 1u;
        }
    }
    return n;
}

static void span_of(const mbp_grid_state *s, const mbp_aabb *box, span *out)
{
    uint8_t level = level_for(s, box);
    for (int k = 0; k < MBP_DIM; k++) {
        out->r.lo[k] = (uint16_t)(cell_coord(s, k, box->min[k]) >> level);
        out->r.hi[k] = (uint16_t)(cell_coord(s, k, box->max[k]) >> level);
    }
    uint32_t n = range_cells(out->r.lo, out->r.hi);
    out->level = level;
    out->large = (uint8_t)(n > MAX_CPB ? 1u : 0u);
    out->n = (uint16_t)(n > MAX_CPB ? 0u : n);
}

/* Body i's committed place (level OUT when it is not in the structure). */
static void span_get(const mbp_grid_state *s, uint16_t i, span *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        out->r.lo[k] = s->lo[i][k];
        out->r.hi[k] = s->hi[i][k];
    }
    out->level = s->level[i];
    out->large = (uint8_t)(s->bflag[i] & F_LARGE);
    out->n = 0u; /* not needed */
}

/* Entries body i holds now. */
static uint32_t held(const mbp_grid_state *s, uint16_t i)
{
    if (s->level[i] == OUT || (s->bflag[i] & F_LARGE) != 0u) {
        return 0u;
    }
    return range_cells(s->lo[i], s->hi[i]);
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

/* Cells in a region, saturated at 2^20 (a side is up to 2^16: a product is taken only while
 * the count is below 2^16, so it never wraps). */
static uint32_t region_cells(const region *r)
{
    uint32_t n = 1u;
    for (int k = 0; k < MBP_DIM; k++) {
        if (n > 0xFFFFu) {
            return 0x100000u;
        }
        n *= (uint32_t)(r->hi[k] - r->lo[k]) + 1u;
    }
    return n > 0x100000u ? 0x100000u : n;
}

/* True when the range lo..hi shares a cell with region r (same level). */
MBP__HOT bool meets(const uint16_t lo[MBP_DIM], const uint16_t hi[MBP_DIM], const region *r)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (lo[k] > r->hi[k] || r->lo[k] > hi[k]) {
            return false;
        }
    }
    return true;
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
static bool cand(const mbp_grid_state *s, const span *a, uint16_t j)
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

/* The list head of cell c at a level. */
static uint32_t bucket(const mbp_grid_state *s, uint32_t level, const uint16_t c[MBP_DIM])
{
    uint32_t h;
    if (s->mode == MBP__CELLS_GRID) {
        h = c[0];
        for (int k = 1; k < MBP_DIM; k++) {
            h += c[k] * s->stride[k];
        }
        return h;
    }
    h = (level + 1u) * 0x27D4EB2Fu;
    for (int k = 0; k < MBP_DIM; k++) {
        h = (h ^ c[k]) * 0x9E3779B1u;
    }
    return (h ^ (h >> 16)) & s->bucket_mask;
}

MBP__HOT bool same_cell(const uint16_t a[MBP_DIM], const uint16_t b[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (a[k] != b[k]) {
            return false;
        }
    }
    return true;
}

/* For a cell c inside both ranges: true when c is their intersection's minimum corner, that is
 * c[k] == max(la[k], lb[k]) on every axis (c >= both, so equal to one of them is enough). */
MBP__HOT bool reports(const uint16_t c[MBP_DIM], const uint16_t la[MBP_DIM],
                    const uint16_t lb[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (c[k] != la[k] && c[k] != lb[k]) {
            return false;
        }
    }
    return true;
}

MBP__HOT bool overlap(const mbp_aabb *a, const mbp_aabb *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (a->max[k] < b->min[k] || b->max[k] < a->min[k]) {
            return false;
        }
    }
    return true;
}

/* Steps c through the range lo..hi, axis 0 fastest; false after the last cell. */
MBP__HOT bool next_cell(uint16_t c[MBP_DIM], const uint16_t lo[MBP_DIM], const uint16_t hi[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (c[k] < hi[k]) {
            c[k]++;
            return true;
        }
        c[k] = lo[k];
    }
    return false;
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
    uint32_t b = bucket(s, level, c);
    uint16_t h = s->head[b];
    s->cnext[e] = h;
    s->cprev[e] = NONE;
    if (h != NONE) {
        s->cprev[h] = e;
    }
    s->head[b] = e;
}

/* Takes entry e out of its cell's list and back to the pool (the body's list is the caller's). */
static void unlink_entry(mbp_grid_state *s, uint16_t e, uint32_t level)
{
    uint16_t p = s->cprev[e];
    uint16_t n = s->cnext[e];
    if (p != NONE) {
        s->cnext[p] = n;
    } else {
        s->head[bucket(s, level, s->ecell[e])] = n;
    }
    if (n != NONE) {
        s->cprev[n] = p;
    }
    s->cnext[e] = s->free_head;
    s->free_head = e;
    s->free_count++;
}

/* Takes body i out of the structure: its entries back to the pool, or out of the large list. */
static void release(mbp_grid_state *s, uint16_t i)
{
    uint8_t level = s->level[i];
    if (level == OUT) {
        return;
    }
    s->level[i] = OUT;
    if ((s->bflag[i] & F_LARGE) != 0u) {
        s->bflag[i] &= (uint8_t)~F_LARGE;
        uint16_t *p = &s->large_head;
        while (*p != i) {
            p = &s->first[*p];
        }
        *p = s->first[i];
        s->first[i] = NONE;
        s->large_count--;
        return;
    }
    for (uint16_t e = s->first[i]; e != NONE; e = s->bnext[e]) {
        unlink_entry(s, e, level); /* leaves bnext[e] alone */
    }
    s->first[i] = NONE;
    s->level_count[level]--;
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
            unlink_entry(s, e, level);
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
        for (uint16_t f = s->head[bucket(s, m, c)]; f != NONE; f = s->cnext[f]) {
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
    span_get(s, i, &c);
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
            if (region_cells(&b) + (had ? region_cells(&a) : 0u) > most) {
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
            bool was = had && cand(s, &c, l);
            bool now = cand(s, t, l);
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
        release(s, i);
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
            span_of(s, &v->box[i], &t);
            uint32_t h = held(s, i);
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

/* ---- full enumeration ---- */

enum { E_COUNT, E_ALL, E_OVERLAP };

MBP__HOT void act(const mbp__bodies *v, mbp__sink *out, int how, uint16_t i, uint16_t j,
                  uint32_t *tests)
{
    if (how == E_ALL) {
        (*tests)++;
        mbp__sink_begin(out, i, j);
    } else if (how == E_OVERLAP) {
        (*tests)++;
        if (overlap(&v->box[i], &v->box[j])) {
            mbp__sink_begin(out, i, j);
        }
    }
}

/* Every candidate pair once (see the top); returns their number. */
static uint32_t enumerate(const mbp__bodies *v, mbp__sink *out, const mbp_grid_state *s, int how,
                          uint32_t *tests)
{
    uint32_t count = 0u;
    bool hashed = s->mode != MBP__CELLS_GRID;
    for (uint16_t i = 0; i < v->high; i++) {
        uint32_t level = s->level[i];
        if (level == OUT || (s->bflag[i] & F_LARGE) != 0u) {
            continue;
        }
        MBP__ASSERT(mbp__in(v, i));
        for (uint16_t e = s->first[i]; e != NONE; e = s->bnext[e]) {
            const uint16_t *c = s->ecell[e];
            /* Entries before e in this list meet i from their own walk. */
            for (uint16_t f = s->cnext[e]; f != NONE; f = s->cnext[f]) {
                uint16_t j = s->ebody[f];
                if ((hashed && (s->level[j] != level || !same_cell(s->ecell[f], c))) ||
                    !reports(c, s->lo[i], s->lo[j])) {
                    continue;
                }
                count++;
                act(v, out, how, i, j, tests);
            }
        }
        for (uint32_t m = level + 1u; m < s->levels; m++) {
            if (s->level_count[m] == 0u) {
                continue;
            }
            region a;
            uint16_t c[MBP_DIM];
            for (int k = 0; k < MBP_DIM; k++) {
                a.lo[k] = (uint16_t)(s->lo[i][k] >> (m - level));
                a.hi[k] = (uint16_t)(s->hi[i][k] >> (m - level));
                c[k] = a.lo[k];
            }
            do {
                for (uint16_t f = s->head[bucket(s, m, c)]; f != NONE; f = s->cnext[f]) {
                    uint16_t j = s->ebody[f];
                    if (s->level[j] != m || !same_cell(s->ecell[f], c) ||
                        !reports(c, a.lo, s->lo[j])) {
                        continue;
                    }
                    count++;
                    act(v, out, how, i, j, tests);
                }
            } while (next_cell(c, a.lo, a.hi));
        }
    }
    for (uint16_t l = s->large_head; l != NONE; l = s->first[l]) {
        span sl;
        span_get(s, l, &sl);
        for (uint16_t j = 0; j < v->high; j++) {
            if (j == l || s->level[j] == OUT || ((s->bflag[j] & F_LARGE) != 0u && j < l) ||
                !cand(s, &sl, j)) {
                continue;
            }
            count++;
            act(v, out, how, l, j, tests);
        }
    }
    return count;
}

/* ---- hooks ---- */

mbp_status mbp__cells_setup(mbp_grid_state *s, const mbp_params *p, uint8_t mode)
{
#if MBP_SCALAR == MBP_FIXED
    if (p->cell_size < 1 || p->cell_size > MBP_RANGE) {
        return MBP_E_PARAM;
    }
    s->cell = (uint32_t)p->cell_size;
    s->shift = -1;
    if ((s->cell & (s->cell - 1u)) == 0u) {
        s->shift = 0;
        while ((1u << s->shift) != s->cell) {
            s->shift++;
        }
    }
#else
    /* Written so that NaN fails. 2^-40 keeps (x - origin) / cell finite for every x. */
    if (!(p->cell_size >= 1.0f / 1099511627776.0f && p->cell_size <= MBP_RANGE)) {
        return MBP_E_PARAM;
    }
    s->inv = 1.0f / p->cell_size;
#endif
    s->mode = mode;
    s->levels = (uint8_t)(mode == MBP__CELLS_HGRID ? MBP_HGRID_LEVELS : 1);
    /* Level L takes the size keys (size_key()) above level L - 1's limit up to its own: the cell
     * edge 2^L cells (float: the bits of 2^L; fixed point: 2^L cells in raw units, saturated),
     * the coarsest level all the rest. */
    uint32_t from = 0u;
    for (uint32_t l = 0; l < s->levels; l++) {
#if MBP_SCALAR == MBP_FIXED
        uint64_t lim = (uint64_t)s->cell << l;
        uint32_t upto = lim > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)lim;
#else
        uint32_t upto = 0x3F800000u + (l << 23); /* the bits of 2^l, l <= 15 */
#endif
        if (l + 1u == s->levels) {
            upto = 0xFFFFFFFFu;
        }
        s->lvl_from[l] = from;
        s->lvl_span[l] = upto - from;
        from = upto == 0xFFFFFFFFu ? upto : upto + 1u;
    }
    if (mode == MBP__CELLS_GRID) {
        uint32_t n = 1u;
        for (int k = 0; k < MBP_DIM; k++) {
            uint32_t cells = p->grid_cells[k];
            if (cells < 1u || !mbp_in_range(p->grid_origin[k]) ||
                (uint64_t)n * cells > (uint64_t)MBP_GRID_MAX_CELLS) {
                return MBP_E_PARAM;
            }
            s->stride[k] = n;
            n *= cells;
            s->maxc[k] = (uint16_t)(cells - 1u);
            s->origin[k] = p->grid_origin[k];
        }
        s->bias = 0u;
        s->bucket_mask = 0u;
        s->nheads = n;
    } else {
        uint32_t b = p->hash_buckets;
        if (b < 1u || b > (uint32_t)MBP_HASH_BUCKETS || (b & (b - 1u)) != 0u) {
            return MBP_E_PARAM;
        }
        for (int k = 0; k < MBP_DIM; k++) {
            s->stride[k] = 0u;
            s->maxc[k] = 0xFFFFu;
            s->origin[k] = 0;
        }
        s->bias = 32768u;
        s->bucket_mask = b - 1u;
        s->nheads = b;
    }
#if MBP_SCALAR != MBP_FIXED
    s->fbias = (mbp_scalar)s->bias;
    for (int k = 0; k < MBP_DIM; k++) {
        union {
            mbp_scalar f;
            uint32_t u;
        } m;
        m.f = (mbp_scalar)s->maxc[k];
        s->fmax_bits[k] = m.u;
    }
#endif
    for (uint32_t h = 0; h < s->nheads; h++) {
        s->head[h] = NONE;
    }
    for (uint32_t e = 0; e < (uint32_t)MBP_GRID_MAX_ENTRIES; e++) {
        s->cnext[e] = (uint16_t)(e + 1u < (uint32_t)MBP_GRID_MAX_ENTRIES ? e + 1u : NONE);
    }
    s->free_head = 0u;
    s->free_count = (uint16_t)MBP_GRID_MAX_ENTRIES;
    s->spare = (int32_t)MBP_GRID_MAX_ENTRIES;
    for (uint32_t i = 0; i < (uint32_t)MBP_MAX_BODIES; i++) {
        s->level[i] = OUT;
        s->bflag[i] = 0u;
        s->first[i] = NONE;
    }
    for (uint32_t l = 0; l < (uint32_t)MBP_HGRID_LEVELS; l++) {
        s->level_count[l] = 0u;
    }
    s->pend_count = 0u;
    s->large_head = NONE;
    s->large_count = 0u;
    s->cands = 0u;
    s->incr = 0u; /* the first update counts the candidates before it keeps them */
    s->dwell = DWELL;
    s->pin = PIN_NONE;
    return MBP_OK;
}

/* The move hook's slow path: the body's cells change (or it is new, or already pending). */
static NOINLINE mbp_status place_change(mbp_grid_state *s, uint16_t i, const mbp_aabb *old,
                                         const mbp_aabb *box)
{
    uint8_t f = s->bflag[i];
    span t;
    span_of(s, box, &t);
    int32_t h = (int32_t)held(s, i);
    int32_t need = (int32_t)t.n - h, before = 0;
    if ((f & F_PEND) != 0u) {
        span was; /* the change recorded by the last add or move of this frame */
        MBP__ASSERT(old != NULL);
        span_of(s, old, &was);
        before = (int32_t)was.n - h;
    }
    if (need - before > s->spare) {
        return MBP_E_NOROOM;
    }
    s->spare -= need - before;
    if ((f & F_PEND) == 0u) {
        s->bflag[i] = (uint8_t)(f | F_PEND);
        s->pend[s->pend_count++] = i;
    }
    return MBP_OK;
}

/* True when box b's cells on axis k, at the given level, are lo..hi. */
MBP__HOT bool same_axis(const mbp_grid_state *s, int k, const mbp_aabb *b, uint32_t level,
                        const uint16_t *lo, const uint16_t *hi)
{
    return (cell_coord(s, k, b->min[k]) >> level) == lo[k] &&
           (cell_coord(s, k, b->max[k]) >> level) == hi[k];
}

/* Body i moved from *old to *box. Records the change for the next update; MBP_E_NOROOM when the
 * entries cannot hold it (nothing changes then). */
MBP__HOT mbp_status place(mbp_grid_state *s, uint16_t i, const mbp_aabb *old, const mbp_aabb *box)
{
    /* The usual case of coherent motion: the same level and cells, nothing to do. The axes are
     * written out (no loop at -Os); a body out of the structure has level OUT >= levels. */
    uint32_t level = s->level[i];
    if ((s->bflag[i] & F_PEND) == 0u && level < s->levels &&
        (s->levels == 1u || size_key(s, box) - s->lvl_from[level] <= s->lvl_span[level])) {
        const uint16_t *lo = s->lo[i];
        const uint16_t *hi = s->hi[i];
        if (same_axis(s, 0, box, level, lo, hi) && same_axis(s, 1, box, level, lo, hi)
#if MBP_DIM == 3
            && same_axis(s, 2, box, level, lo, hi)
#endif
        ) {
            return MBP_OK;
        }
    }
    return place_change(s, i, old, box);
}

mbp_status mbp__cells_add(mbp_grid_state *s, uint16_t i, const mbp_aabb *box)
{
    /* A new body is out of the structure (level OUT, not pending): the fast path never holds. */
    MBP__ASSERT(s->level[i] == OUT && (s->bflag[i] & F_PEND) == 0u);
    return place_change(s, i, NULL, box);
}

mbp_status mbp__cells_move(mbp_grid_state *s, uint16_t i, const mbp_aabb *old,
                           const mbp_aabb *box)
{
    return place(s, i, old, box);
}

void mbp__cells_remove(mbp_grid_state *s, uint16_t i, const mbp_aabb *last)
{
    int32_t h = (int32_t)held(s, i);
    if ((s->bflag[i] & F_PEND) != 0u) {
        span t;
        span_of(s, last, &t);
        s->spare += (int32_t)t.n - h; /* the promise is void */
        s->bflag[i] &= (uint8_t)~F_PEND;
    }
    release(s, i);
    s->spare += h;
}

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
            uint32_t c = enumerate(v, out, s, E_COUNT, &none);
            if (c <= LOW_WATER && out->ps->count + c <= (uint32_t)MBP_MAX_PAIRS) {
                mbp__sink_full_frame(out, true); /* back to incremental frames: keep them all */
                (void)enumerate(v, out, s, E_ALL, &tests);
                s->incr = 1u;
                s->dwell = 0u;
            }
        }
    }
    if (!s->incr) {
        mbp__sink_full_frame(out, false);
        s->cands = enumerate(v, out, s, E_OVERLAP, &tests);
    }
    out->tests = tests;
    return MBP_OK;
}

void mbp__cells_query(const mbp_grid_state *s, const mbp__bodies *v, const mbp_aabb *box,
                      mbp__visit_fn fn, void *ctx)
{
    uint16_t q0[MBP_DIM], q1[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        q0[k] = (uint16_t)cell_coord(s, k, box->min[k]);
        q1[k] = (uint16_t)cell_coord(s, k, box->max[k]);
    }
    for (uint16_t l = s->large_head; l != NONE; l = s->first[l]) {
        fn(ctx, l);
    }
    bool hashed = s->mode != MBP__CELLS_GRID;
    for (uint32_t level = 0; level < s->levels; level++) {
        if (s->level_count[level] == 0u) {
            continue;
        }
        region q;
        uint16_t c[MBP_DIM];
        for (int k = 0; k < MBP_DIM; k++) {
            q.lo[k] = (uint16_t)(q0[k] >> level);
            q.hi[k] = (uint16_t)(q1[k] >> level);
            c[k] = q.lo[k];
        }
        if (region_cells(&q) > v->high) {
            /* More cells than bodies: checking each body's range is cheaper. */
            for (uint16_t j = 0; j < v->high; j++) {
                if (s->level[j] == level && (s->bflag[j] & F_LARGE) == 0u &&
                    meets(s->lo[j], s->hi[j], &q)) {
                    fn(ctx, j);
                }
            }
            continue;
        }
        do {
            for (uint16_t f = s->head[bucket(s, level, c)]; f != NONE; f = s->cnext[f]) {
                uint16_t j = s->ebody[f];
                if (hashed && (s->level[j] != level || !same_cell(s->ecell[f], c))) {
                    continue;
                }
                if (reports(c, q.lo, s->lo[j])) {
                    fn(ctx, j);
                }
            }
        } while (next_cell(c, q.lo, q.hi));
    }
}

#else
typedef int mbp__cells_unused; /* ISO C wants a translation unit to declare something */
#endif
