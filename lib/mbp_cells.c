/* mbp_cells.c: the cell engine behind the grid, hash and hgrid backends.
 *
 * Cells. A coordinate x maps to the cell floor((x - origin) / cell_size), clamped to the grid
 * (grid) or to +-32767 cells (hash, hgrid), then biased to an unsigned 16-bit value. Fixed point
 * uses integer division (a shift when the cell size is a power of two); float uses one multiply
 * by 1/cell_size and a floor. The only property correctness needs is that this map never
 * decreases: then two closed boxes that overlap (touching included, boxes exactly on a cell
 * border included, bodies outside the grid included, since clamping never decreases either) get
 * cell ranges that overlap. A box's min and max go through the same function.
 *
 * Levels (hgrid). Level L's cell is 2^L level-0 cells: its coordinate is the level-0 coordinate
 * shifted right by L, which is exact nesting. A body lives at the finest level where its range
 * spans at most 2 cells per axis (at most 2^MBP_DIM cells), at the coarsest level otherwise.
 * Grid and hash have one level.
 *
 * Storage. A body covering at most MBP_GRID_MAX_CELLS_PER_BODY cells has one entry per cell;
 * entries are linked in their cell's list (grid: one list per cell; hash: one per bucket, shared
 * by colliding cells, so entries keep their cell and walks compare it) and in the body's list.
 * All entries come from one pool of MBP_GRID_MAX_ENTRIES: a body that does not fit makes its add
 * or move return MBP_E_NOROOM and keeps its old cells. A larger body is 'large': no entries, and
 * the update tests it against every body.
 *
 * Pairs, once each, with no de-duplication pass: bodies i and j at the same level share the cells
 * of the intersection of their ranges; only the cell at its minimum corner, max(lo_i, lo_j) per
 * axis, reports the pair. Within a cell, each body looks only at the entries after its own in the
 * list, so a pair is seen once per shared cell. Across levels, a body at level L looks up the
 * (at most 2^MBP_DIM) cells its range covers at each coarser non-empty level M, and the same
 * minimum-corner rule on level-M ranges picks one cell. Queries use the rule against the query's
 * range, so a body is visited once without marks.
 *
 * Incremental: a move whose cell range (and level) did not change costs 2 * MBP_DIM cell
 * conversions and a compare; otherwise O(old cells + new cells).
 */
#include "mbp_cells.h"

#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID

#define NONE ((uint16_t)MBP__CELLS_NONE)
#define LARGE ((uint8_t)MBP__CELLS_LARGE)
#define OUT ((uint8_t)MBP__CELLS_OUT)

/* Unbiased cell coordinates are clamped to [QMIN, QMAX] first: wider than any biased range, and
 * far from int32 overflow. */
#define QMIN (-40000)
#define QMAX 70000

/* A body's place: its level and its cell range at that level. */
typedef struct {
    uint16_t lo[MBP_DIM];
    uint16_t hi[MBP_DIM];
    uint8_t level;
} span;

/* The biased cell coordinate of x on axis k at level 0; never decreases as x grows. */
static uint16_t cell_coord(const mbp_grid_state *s, int k, mbp_scalar x)
{
    int32_t q;
#if MBP_SCALAR == MBP_FIXED
    /* Both x and origin lie within the range, so the difference fits int32 (mbp_scalar.h). */
    int32_t d = (int32_t)((int64_t)x - s->origin[k]);
    if (d >= 0) {
        uint32_t u = (uint32_t)d;
        u = s->shift >= 0 ? u >> s->shift : u / s->cell;
        q = u > (uint32_t)QMAX ? QMAX : (int32_t)u;
    } else {
        /* floor of a negative quotient: minus the ceiling of the positive one. */
        uint32_t u = (uint32_t)(-(int64_t)d) + (s->cell - 1u);
        u = s->shift >= 0 ? u >> s->shift : u / s->cell;
        q = u > (uint32_t)-QMIN ? QMIN : -(int32_t)u;
    }
#else
    mbp_scalar t = (x - s->origin[k]) * s->inv;
    if (!(t > (mbp_scalar)QMIN)) {
        q = QMIN;
    } else if (t >= (mbp_scalar)QMAX) {
        q = QMAX;
    } else {
        q = mbp_to_int(t);
    }
#endif
    q += (int32_t)s->bias;
    if (q < 0) {
        return 0u;
    }
    return q > (int32_t)s->maxc[k] ? s->maxc[k] : (uint16_t)q;
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

static bool same_cell(const uint16_t a[MBP_DIM], const uint16_t b[MBP_DIM])
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
static bool reports(const uint16_t c[MBP_DIM], const uint16_t la[MBP_DIM],
                    const uint16_t lb[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (c[k] != la[k] && c[k] != lb[k]) {
            return false;
        }
    }
    return true;
}

static bool overlap(const mbp_aabb *a, const mbp_aabb *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (a->max[k] < b->min[k] || b->max[k] < a->min[k]) {
            return false;
        }
    }
    return true;
}

/* Steps c through the range lo..hi, axis 0 fastest; false after the last cell. */
static bool next_cell(uint16_t c[MBP_DIM], const uint16_t lo[MBP_DIM], const uint16_t hi[MBP_DIM])
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

static void span_of(const mbp_grid_state *s, const mbp_aabb *box, span *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        out->lo[k] = cell_coord(s, k, box->min[k]);
        out->hi[k] = cell_coord(s, k, box->max[k]);
    }
    uint8_t level = 0u;
    for (; level + 1u < s->levels; level++) {
        bool fits = true;
        for (int k = 0; k < MBP_DIM; k++) {
            fits = fits && (out->hi[k] >> level) - (out->lo[k] >> level) <= 1;
        }
        if (fits) {
            break;
        }
    }
    for (int k = 0; k < MBP_DIM; k++) {
        out->lo[k] = (uint16_t)(out->lo[k] >> level);
        out->hi[k] = (uint16_t)(out->hi[k] >> level);
    }
    out->level = level;
}

/* Cells in the range, or MBP_GRID_MAX_CELLS_PER_BODY + 1 when more (no overflow: each factor is
 * at most 1024 before the product is cut). */
static uint32_t span_cells(const uint16_t lo[MBP_DIM], const uint16_t hi[MBP_DIM])
{
    uint32_t n = 1u;
    for (int k = 0; k < MBP_DIM; k++) {
        n *= (uint32_t)(hi[k] - lo[k]) + 1u;
        if (n > (uint32_t)MBP_GRID_MAX_CELLS_PER_BODY) {
            return (uint32_t)MBP_GRID_MAX_CELLS_PER_BODY + 1u;
        }
    }
    return n;
}

/* Returns body i's entries to the pool and takes it out of the structure. */
static void release(mbp_grid_state *s, uint16_t i)
{
    uint8_t level = s->level[i];
    if (level == OUT) {
        return;
    }
    s->level[i] = OUT;
    if (level == LARGE) {
        s->large_count--;
        return;
    }
    for (uint16_t e = s->first[i]; e != NONE;) {
        uint16_t next = s->bnext[e];
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
        e = next;
    }
    s->first[i] = NONE;
    s->level_count[level]--;
}

/* Links body i into every cell of sp; the caller checked that the pool has room. */
static void insert(mbp_grid_state *s, uint16_t i, const span *sp)
{
    uint16_t c[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        c[k] = sp->lo[k];
        s->lo[i][k] = sp->lo[k];
        s->hi[i][k] = sp->hi[k];
    }
    s->level[i] = sp->level;
    s->level_count[sp->level]++;
    s->first[i] = NONE;
    do {
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
        uint32_t b = bucket(s, sp->level, c);
        uint16_t h = s->head[b];
        s->cnext[e] = h;
        s->cprev[e] = NONE;
        if (h != NONE) {
            s->cprev[h] = e;
        }
        s->head[b] = e;
    } while (next_cell(c, sp->lo, sp->hi));
}

mbp_status mbp__cells_init(const mbp_world *w, mbp_grid_state *s, uint8_t mode)
{
    const mbp_params *p = &w->params;
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
    for (uint32_t h = 0; h < s->nheads; h++) {
        s->head[h] = NONE;
    }
    for (uint32_t e = 0; e < (uint32_t)MBP_GRID_MAX_ENTRIES; e++) {
        s->cnext[e] = (uint16_t)(e + 1u < (uint32_t)MBP_GRID_MAX_ENTRIES ? e + 1u : NONE);
    }
    s->free_head = 0u;
    s->free_count = (uint16_t)MBP_GRID_MAX_ENTRIES;
    for (uint32_t i = 0; i < (uint32_t)MBP_MAX_BODIES; i++) {
        s->level[i] = OUT;
        s->first[i] = NONE;
    }
    for (uint32_t l = 0; l < (uint32_t)MBP_HGRID_LEVELS; l++) {
        s->level_count[l] = 0u;
    }
    s->large_count = 0u;
    return MBP_OK;
}

mbp_status mbp__cells_place(const mbp_world *w, mbp_grid_state *s, uint16_t i)
{
    span sp;
    span_of(s, &w->box[i], &sp);
    uint32_t n = span_cells(sp.lo, sp.hi);
    uint8_t level = n > (uint32_t)MBP_GRID_MAX_CELLS_PER_BODY ? LARGE : sp.level;
    uint8_t old = s->level[i];
    if (level == old && (level == LARGE || (same_cell(sp.lo, s->lo[i]) &&
                                            same_cell(sp.hi, s->hi[i])))) {
        return MBP_OK; /* the usual case of coherent motion: nothing to do */
    }
    if (level != LARGE) {
        uint32_t own = old < LARGE ? span_cells(s->lo[i], s->hi[i]) : 0u;
        if (n > (uint32_t)s->free_count + own) {
            return MBP_E_NOROOM;
        }
    }
    release(s, i);
    if (level == LARGE) {
        s->level[i] = LARGE;
        s->large_count++;
    } else {
        insert(s, i, &sp);
    }
    return MBP_OK;
}

void mbp__cells_remove(mbp_grid_state *s, uint16_t i)
{
    release(s, i);
}

/* Pairs of large body i with every body (with other large bodies once: from the lower index). */
static uint32_t large_pairs(mbp_world *w, const mbp_grid_state *s, uint16_t i)
{
    uint32_t tests = 0u;
    for (uint16_t j = 0; j < w->high; j++) {
        uint8_t lj = s->level[j];
        if (j == i || lj == OUT || (lj == LARGE && j < i)) {
            continue;
        }
        tests++;
        if (overlap(&w->box[i], &w->box[j])) {
            mbp__candidate(w, i, j);
        }
    }
    return tests;
}

/* Pairs of body i with the bodies of every coarser non-empty level (hgrid). */
static uint32_t coarser_pairs(mbp_world *w, const mbp_grid_state *s, uint16_t i)
{
    uint32_t tests = 0u;
    uint32_t level = s->level[i];
    for (uint32_t m = level + 1u; m < s->levels; m++) {
        if (s->level_count[m] == 0u) {
            continue;
        }
        uint16_t lo[MBP_DIM], hi[MBP_DIM], c[MBP_DIM];
        for (int k = 0; k < MBP_DIM; k++) {
            lo[k] = (uint16_t)(s->lo[i][k] >> (m - level));
            hi[k] = (uint16_t)(s->hi[i][k] >> (m - level));
            c[k] = lo[k];
        }
        do {
            for (uint16_t f = s->head[bucket(s, m, c)]; f != NONE; f = s->cnext[f]) {
                uint16_t j = s->ebody[f];
                if (s->level[j] != m || !same_cell(s->ecell[f], c) || !reports(c, lo, s->lo[j])) {
                    continue;
                }
                tests++;
                if (overlap(&w->box[i], &w->box[j])) {
                    mbp__candidate(w, i, j);
                }
            }
        } while (next_cell(c, lo, hi));
    }
    return tests;
}

mbp_status mbp__cells_update(mbp_world *w, const mbp_grid_state *s)
{
    uint32_t tests = 0u;
    bool hashed = s->mode != MBP__CELLS_GRID;
    mbp__full_frame(w, false);
    for (uint16_t i = 0; i < w->high; i++) {
        uint8_t level = s->level[i];
        if (level >= LARGE) {
            if (level == LARGE) {
                tests += large_pairs(w, s, i);
            }
            continue;
        }
        MBP__ASSERT(mbp__active(w, i));
        const mbp_aabb *bi = &w->box[i];
        for (uint16_t e = s->first[i]; e != NONE; e = s->bnext[e]) {
            const uint16_t *c = s->ecell[e];
            /* Entries before e in this list meet i from their own walk. */
            for (uint16_t f = s->cnext[e]; f != NONE; f = s->cnext[f]) {
                uint16_t j = s->ebody[f];
                if (hashed && (s->level[j] != level || !same_cell(s->ecell[f], c))) {
                    continue; /* another cell in the same bucket */
                }
                if (!reports(c, s->lo[i], s->lo[j])) {
                    continue;
                }
                tests++;
                if (overlap(bi, &w->box[j])) {
                    mbp__candidate(w, i, j);
                }
            }
        }
        if (level + 1u < s->levels) {
            tests += coarser_pairs(w, s, i);
        }
    }
    w->stats.tests = tests;
    return MBP_OK;
}

void mbp__cells_query(const mbp_world *w, const mbp_grid_state *s, const mbp_aabb *box,
                      mbp__visit_fn fn, void *ctx)
{
    uint16_t q0[MBP_DIM], q1[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        q0[k] = cell_coord(s, k, box->min[k]);
        q1[k] = cell_coord(s, k, box->max[k]);
    }
    if (s->large_count != 0u) {
        for (uint16_t j = 0; j < w->high; j++) {
            if (s->level[j] == LARGE) {
                fn(ctx, j);
            }
        }
    }
    bool hashed = s->mode != MBP__CELLS_GRID;
    for (uint32_t level = 0; level < s->levels; level++) {
        if (s->level_count[level] == 0u) {
            continue;
        }
        uint16_t lo[MBP_DIM], hi[MBP_DIM], c[MBP_DIM];
        uint32_t n = 1u;
        for (int k = 0; k < MBP_DIM; k++) {
            lo[k] = (uint16_t)(q0[k] >> level);
            hi[k] = (uint16_t)(q1[k] >> level);
            c[k] = lo[k];
            if (n <= 0xFFFFu) { /* beyond that it exceeds any body count: no overflow */
                n *= (uint32_t)(hi[k] - lo[k]) + 1u;
            }
        }
        if (n > w->high) {
            /* More cells than bodies: checking each body's range is cheaper. */
            for (uint16_t j = 0; j < w->high; j++) {
                bool in = s->level[j] == level;
                for (int k = 0; in && k < MBP_DIM; k++) {
                    in = s->lo[j][k] <= hi[k] && lo[k] <= s->hi[j][k];
                }
                if (in) {
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
                if (reports(c, lo, s->lo[j])) {
                    fn(ctx, j);
                }
            }
        } while (next_cell(c, lo, hi));
    }
}

#else
typedef int mbp__cells_unused; /* ISO C wants a translation unit to declare something */
#endif
