/* SPDX-License-Identifier: MIT */
/* mbp_grid.c: uniform grid over a bounded world box (MBP_GRID).
 *
 * How: params.grid_cells[k] cells of params.cell_size from params.grid_origin on each axis; a
 * body is linked into every cell its box touches (closed boxes: a box ending exactly on a cell
 * border is in the next cell too), bodies outside the box go into the border cells. Bodies whose
 * cell ranges share a cell are candidate pairs, kept in the pair set between frames: a body that
 * moves within its cells costs its cell conversions in the move and nothing in the update (the
 * core re-tests its candidates); a body that changes cells walks only the cells it leaves and
 * enters, reporting each pair that starts or stops sharing a cell once. When that costs more
 * (most bodies crossing cells, several candidates per pair) or the pair set lacks room, frames
 * run full instead: each body walks the entries after its own in each of its cells and reports
 * a pair only from the minimum corner of the two cell ranges' intersection, each pair once with
 * no de-duplication pass. The engine is shared with hash and hgrid: mbp_cells.c explains it.
 *
 * Cost per frame, incremental: O(1) + per body that changed cells O(its cells + the entries in
 * the cells it leaves and enters + large bodies) + one pair-set operation per candidate begun or
 * ended (the core then walks the pair set). Full: O(n + entries + candidate pairs) plus O(n) per
 * large body (one covering more than MBP_GRID_MAX_CELLS_PER_BODY cells). Move: 2 * MBP_DIM cell
 * conversions (a shift in fixed point with a power-of-two cell size), O(1) more when the cells
 * change; nothing is linked until the update. Worst case: every body in one cell, O(n^2)
 * candidates, full frames of O(n^2) box tests like brute force (each pair once).
 * RAM: see mbp_grid.h; incremental frames also need room in the pair set for the candidates
 * (about 2 per body with cells twice the boxes' size), else frames stay full. A full entry pool
 * makes add and move return MBP_E_NOROOM (the update never runs out).
 */
#include "mbp_cells.h"

#if MBP_WITH_GRID

mbp_status mbp__grid_init(mbp_grid_state *s, const mbp_params *p)
{
    return mbp__cells_setup(s, p, MBP__CELLS_GRID);
}

#else
typedef int mbp__grid_unused; /* ISO C wants a translation unit to declare something */
#endif
