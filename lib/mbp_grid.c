/* mbp_grid.c: uniform grid over a bounded world box (MBP_GRID).
 *
 * How: params.grid_cells[k] cells of params.cell_size from params.grid_origin on each axis; a
 * body is linked into every cell its box touches (closed boxes: a box ending exactly on a cell
 * border is in the next cell too), bodies outside the box go into the border cells. Each frame,
 * each body walks the entries after its own in each of its cells and reports a pair only from
 * the minimum corner of the two cell ranges' intersection: each pair once, no de-duplication
 * pass, no marks. The engine is shared with hash and hgrid: mbp_cells.c explains it.
 *
 * Cost per frame: O(n + entries + pairs sharing a cell), plus O(n) per large body (one covering
 * more than MBP_GRID_MAX_CELLS_PER_BODY cells). Move: 2 * MBP_DIM cell conversions (a shift in
 * fixed point with a power-of-two cell size) when the cell range is unchanged, else O(cells).
 * Worst case: every body in one cell, O(n^2) box tests like brute force (each pair once).
 * RAM: see mbp_grid.h. A full entry pool makes add and move return MBP_E_NOROOM.
 */
#include "mbp_cells.h"

#if MBP_WITH_GRID

mbp_status mbp__grid_init(mbp_world *w)
{
    return mbp__cells_init(w, &w->be.grid, MBP__CELLS_GRID);
}

mbp_status mbp__grid_add(mbp_world *w, uint16_t i)
{
    return mbp__cells_place(w, &w->be.grid, i);
}

mbp_status mbp__grid_move(mbp_world *w, uint16_t i, const mbp_aabb *old)
{
    (void)old; /* the engine compares cell ranges, which it keeps */
    return mbp__cells_place(w, &w->be.grid, i);
}

void mbp__grid_remove(mbp_world *w, uint16_t i)
{
    mbp__cells_remove(&w->be.grid, i);
}

mbp_status mbp__grid_update(mbp_world *w)
{
    return mbp__cells_update(w, &w->be.grid);
}

void mbp__grid_query(const mbp_world *w, const mbp_aabb *box, mbp__visit_fn fn, void *ctx)
{
    mbp__cells_query(w, &w->be.grid, box, fn, ctx);
}

#else
typedef int mbp__grid_unused; /* ISO C wants a translation unit to declare something */
#endif
