/* SPDX-License-Identifier: MIT */
/* mbp_hgrid.c: hierarchical grid, for bodies of mixed sizes (MBP_HGRID).
 *
 * How: MBP_HGRID_LEVELS hashed grids (as mbp_hash.c) whose cell edge doubles per level, the
 * finest being params.cell_size. A body lives at the finest level where its box spans at most
 * 2 cells per axis (the level follows the box's size, not its place), so it takes at most
 * 2^MBP_DIM entries whatever its size (up to the coarsest level; beyond, it is 'large': no
 * entries, checked against all). Two bodies are candidates when their cell ranges overlap once
 * the finer one's is shifted to the coarser level. Full frames find pairs at one level as the
 * grid does; a body also looks up the at most 2^MBP_DIM cells its box covers at each coarser
 * level that holds bodies, and the minimum-corner rule on that level's ranges reports each such
 * pair once. Incremental frames (as the grid's, mbp_grid.c): a body that changes cells walks,
 * at each level with bodies, the cells its old and new ranges cover there and that the other
 * does not (a coarse body seen from a fine level: the fine level's bodies, when fewer than those
 * cells). So one wall among many bullets takes a few entries and is met only by the bullets near
 * it. The engine is mbp_cells.c.
 *
 * Cost per frame, incremental: O(1) + per body that changed cells O(2^MBP_DIM + entries in the
 * cells it leaves and enters, per non-empty level, or the bodies of a finer level) + one
 * pair-set operation per candidate begun or ended. Full: O(n + entries + pairs sharing a cell)
 * plus, per body, 2^MBP_DIM bucket walks per coarser non-empty level. Move: 2 * MBP_DIM cell
 * conversions and a level choice, O(1) more when the cells change. Worst case: every body in
 * one cell, O(n^2) tests.
 * RAM: see mbp_grid.h (and the grid's note on pair-set room). A full entry pool makes add and
 * move return MBP_E_NOROOM.
 */
#include "mbp_cells.h"

#if MBP_WITH_HGRID

mbp_status mbp__hgrid_init(mbp_grid_state *s, const mbp_params *p)
{
    return mbp__cells_setup(s, p, MBP__CELLS_HGRID);
}

#else
typedef int mbp__hgrid_unused; /* ISO C wants a translation unit to declare something */
#endif
