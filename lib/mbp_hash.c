/* SPDX-License-Identifier: MIT */
/* mbp_hash.c: spatial hash, an unbounded uniform grid (MBP_HASH).
 *
 * How: as the grid (mbp_grid.c), with cells of params.cell_size anywhere (cell coordinates
 * clamped to +-32767: beyond that bodies share the outermost cells, exact but slower), and each
 * cell's list kept in bucket hash(cell) of params.hash_buckets (<= MBP_HASH_BUCKETS). Cells that
 * collide share a bucket list; every entry keeps its cell and walks skip the other cells' entries,
 * so a collision costs time, never a pair, and the reporting cell is chosen by real cell
 * coordinates. A body covering more than MBP_GRID_MAX_CELLS_PER_BODY cells is 'large': kept out
 * of the table and tested against every body each frame. The engine is mbp_cells.c.
 *
 * Incremental and full frames as the grid's (mbp_grid.c): a body moving within its cells costs
 * its cell conversions and nothing in the update.
 *
 * Cost per frame, incremental: O(1) + per body that changed cells O(its cells + the entries in
 * the buckets of the cells it leaves and enters + large bodies) + one pair-set operation per
 * candidate begun or ended. Full: O(n + entries + entries sharing a bucket with a body's cell)
 * + O(n) per large body. Move: 2 * MBP_DIM cell conversions, O(1) more when the cells change.
 * Worst case: every body in one cell (or every cell in one bucket), O(n^2) tests.
 * RAM: see mbp_grid.h (and the grid's note on pair-set room). A full entry pool makes add and
 * move return MBP_E_NOROOM.
 */
#include "mbp_cells.h"

#if MBP_WITH_HASH

mbp_status mbp__hash_init(mbp_grid_state *s, const mbp_params *p)
{
    return mbp__cells_setup(s, p, MBP__CELLS_HASH);
}

#else
typedef int mbp__hash_unused; /* ISO C wants a translation unit to declare something */
#endif
