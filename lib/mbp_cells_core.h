/* SPDX-License-Identifier: MIT */
/* mbp_cells_core.h: what the cell engine's two files share (mbp_cells.c: the cells, the entry
 * lists, the move hooks, the query and the full enumeration; mbp_cells_update.c: the update).
 * Not for users, not for the backends: only these two include it.
 */
#ifndef MBP_CELLS_CORE_H
#define MBP_CELLS_CORE_H

#include "mbp_cells.h"

#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID

/* Short names for mbp_cells.h's marks, and the most entries a body takes. */
#define NONE ((uint16_t)MBP__CELLS_NONE)
#define OUT ((uint8_t)MBP__CELLS_OUT)
#define F_LARGE ((uint8_t)MBP__CELLS_F_LARGE)
#define F_PEND ((uint8_t)MBP__CELLS_F_PEND)
#define MAX_CPB ((uint32_t)MBP_GRID_MAX_CELLS_PER_BODY)

/* The choice between incremental and full frames: set up in mbp_cells.c, made in
 * mbp_cells_update.c. */
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

/* The biased cell coordinate of x on axis k at level 0, clamped to the cells (at most 0xFFFF);
 * never decreases as x grows. */
MBP__HOT uint32_t cell_coord(const mbp_grid_state *s, int k, mbp_scalar x)
{
#if MBP_SCALAR == MBP_FIXED
    /* Both x and origin lie within the range, so the difference fits int32 (mbp_scalar.h). */
    int32_t d = (int32_t)((int64_t)x - s->origin[k]);
    if (d >= 0) {
        uint32_t u = (uint32_t)d;
        uint32_t q = (uint32_t)s->bias + mbp__cell_div(s->cell, u); /* < 2^32 */
        return q <= (uint32_t)s->maxc[k] ? q : (uint32_t)s->maxc[k];
    }
    /* floor of a negative quotient: minus the ceiling of the positive one; below cell 0, 0
     * (bias - u <= bias <= maxc). */
    uint32_t u = (uint32_t)(-(int64_t)d) + (s->cell.edge - 1u);
    u = mbp__cell_div(s->cell, u);
    return u <= (uint32_t)s->bias ? (uint32_t)s->bias - u : 0u;
#else
    /* |x - origin| <= 2^61 and inv <= 2^40: t is finite. For t >= +0 the bit patterns order as
     * the values, and a negative t (or -0) has the sign bit set: one unsigned compare of the
     * bits tells 0 <= t <= fmax, where truncation is floor; below 0 the cell is 0, above fmax
     * it is maxc. */
    mbp_scalar t = (x - s->origin[k]) * s->inv + s->fbias;
    uint32_t bits = mbp__float_bits(t);
    if (bits <= s->fmax_bits[k]) {
        return (uint32_t)t;
    }
    return (bits & 0x80000000u) != 0u ? 0u : (uint32_t)s->maxc[k];
#endif
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

/* The cells and the entry lists (mbp_cells.c). */

/* The place of a box: its level, its range there, and the entries it takes (0 when large). */
void mbp__cells_span_of(const mbp_grid_state *s, const mbp_aabb *box, span *out);
/* Entries body i holds now. */
uint32_t mbp__cells_held(const mbp_grid_state *s, uint16_t i);
/* The list head of cell c at a level. */
uint32_t mbp__cells_bucket(const mbp_grid_state *s, uint32_t level, const uint16_t c[MBP_DIM]);
/* Cells in a region, saturated at 2^20. */
uint32_t mbp__cells_region_cells(const region *r);
/* Takes entry e out of its cell's list and back to the pool (the body's list is the caller's). */
void mbp__cells_unlink_entry(mbp_grid_state *s, uint16_t e, uint32_t level);
/* Takes body i out of the structure: its entries back to the pool, or out of the large list. */
void mbp__cells_release(mbp_grid_state *s, uint16_t i);

/* The update (mbp_cells_update.c). */

/* Body i's committed place (level OUT when it is not in the structure). */
void mbp__cells_span_get(const mbp_grid_state *s, uint16_t i, span *out);
/* The candidate rule between place a and body j: ranges overlap at the coarser level. */
bool mbp__cells_cand(const mbp_grid_state *s, const span *a, uint16_t j);

/* The full enumeration (mbp_cells.c). */

/* What it does with each candidate pair: count it only, report it, or report it when the boxes
 * overlap (counting it either way). */
enum { E_COUNT, E_ALL, E_OVERLAP };
/* Every candidate pair once (mbp_cells.c's top comment), as 'how' says; returns their
 * number, and adds the pairs reported or box-tested to *tests. */
uint32_t mbp__cells_enumerate(const mbp__bodies *v, mbp__sink *out, const mbp_grid_state *s,
                              int how, uint32_t *tests);

#endif /* MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID */

#endif /* MBP_CELLS_CORE_H */
