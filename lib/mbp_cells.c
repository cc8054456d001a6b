/* SPDX-License-Identifier: MIT */
/* mbp_cells.c: the cell engine behind the grid, hash and hgrid backends: the cells, the entry
 * lists, the move hooks, the query and the full frames' enumeration of the candidates (the
 * update: mbp_cells_update.c; what the two share: mbp_cells_core.h).
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
 *
 * Enumeration (full frames, mbp_cells_update.c), once per pair without marks: each body walks the
 * entries after its own in each of its cells, and reports only from the minimum corner of the
 * two ranges' intersection; it also looks up the (at most 2^MBP_DIM) cells its range covers at
 * each coarser non-empty level (hgrid), with the same rule on that level's ranges; each large
 * body checks every body.
 */
#include "mbp_cells_core.h"

#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID

/* Keeps a slow path out of a hot function, so that the hot one saves fewer registers. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* ---- cells ---- */

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
    return mbp__float_bits(d * s->inv);
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

void mbp__cells_span_of(const mbp_grid_state *s, const mbp_aabb *box, span *out)
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

/* Entries body i holds now. */
uint32_t mbp__cells_held(const mbp_grid_state *s, uint16_t i)
{
    if (s->level[i] == OUT || (s->bflag[i] & F_LARGE) != 0u) {
        return 0u;
    }
    return range_cells(s->lo[i], s->hi[i]);
}

/* Cells in a region, saturated at 2^20 (a side is up to 2^16: a product is taken only while
 * the count is below 2^16, so it never wraps). */
uint32_t mbp__cells_region_cells(const region *r)
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

/* The list head of cell c at a level. */
uint32_t mbp__cells_bucket(const mbp_grid_state *s, uint32_t level, const uint16_t c[MBP_DIM])
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

/* ---- the structure ---- */

/* Takes entry e out of its cell's list and back to the pool (the body's list is the caller's). */
void mbp__cells_unlink_entry(mbp_grid_state *s, uint16_t e, uint32_t level)
{
    uint16_t p = s->cprev[e];
    uint16_t n = s->cnext[e];
    if (p != NONE) {
        s->cnext[p] = n;
    } else {
        s->head[mbp__cells_bucket(s, level, s->ecell[e])] = n;
    }
    if (n != NONE) {
        s->cprev[n] = p;
    }
    s->cnext[e] = s->free_head;
    s->free_head = e;
    s->free_count++;
}

/* Takes body i out of the structure: its entries back to the pool, or out of the large list. */
void mbp__cells_release(mbp_grid_state *s, uint16_t i)
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
        mbp__cells_unlink_entry(s, e, level); /* leaves bnext[e] alone */
    }
    s->first[i] = NONE;
    s->level_count[level]--;
}

/* ---- full enumeration ---- */

MBP__HOT bool overlap(const mbp_aabb *a, const mbp_aabb *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (a->max[k] < b->min[k] || b->max[k] < a->min[k]) {
            return false;
        }
    }
    return true;
}

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
uint32_t mbp__cells_enumerate(const mbp__bodies *v, mbp__sink *out, const mbp_grid_state *s,
                              int how, uint32_t *tests)
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
                for (uint16_t f = s->head[mbp__cells_bucket(s, m, c)]; f != NONE; f = s->cnext[f]) {
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
        mbp__cells_span_get(s, l, &sl);
        for (uint16_t j = 0; j < v->high; j++) {
            if (j == l || s->level[j] == OUT || ((s->bflag[j] & F_LARGE) != 0u && j < l) ||
                !mbp__cells_cand(s, &sl, j)) {
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
    s->cell = mbp__cellmap_of((uint32_t)p->cell_size);
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
        uint64_t lim = (uint64_t)s->cell.edge << l;
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
        s->fmax_bits[k] = mbp__float_bits((mbp_scalar)s->maxc[k]);
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
    mbp__cells_span_of(s, box, &t);
    int32_t h = (int32_t)mbp__cells_held(s, i);
    int32_t need = (int32_t)t.n - h, before = 0;
    if ((f & F_PEND) != 0u) {
        span was; /* the change recorded by the last add or move of this frame */
        MBP__ASSERT(old != NULL);
        mbp__cells_span_of(s, old, &was);
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
    int32_t h = (int32_t)mbp__cells_held(s, i);
    if ((s->bflag[i] & F_PEND) != 0u) {
        span t;
        mbp__cells_span_of(s, last, &t);
        s->spare += (int32_t)t.n - h; /* the promise is void */
        s->bflag[i] &= (uint8_t)~F_PEND;
    }
    mbp__cells_release(s, i);
    s->spare += h;
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
        if (mbp__cells_region_cells(&q) > v->high) {
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
            for (uint16_t f = s->head[mbp__cells_bucket(s, level, c)]; f != NONE; f = s->cnext[f]) {
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
