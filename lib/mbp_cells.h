/* SPDX-License-Identifier: MIT */
/* mbp_cells.h: the cell engine shared by the grid, hash and hgrid backends (mbp_cells.c,
 * mbp_cells_update.c; what those two share: mbp_cells_core.h).
 * Not for users; the state type is in mbp_grid.h. */
#ifndef MBP_CELLS_H
#define MBP_CELLS_H

#include "mbp_bp.h"

#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID

/* How a cell maps to a list head. */
#define MBP__CELLS_GRID 0u  /* bounded: the cell's index, one cell per list */
#define MBP__CELLS_HASH 1u  /* unbounded: a hash of the cell */
#define MBP__CELLS_HGRID 2u /* unbounded, MBP_HGRID_LEVELS levels: a hash of (level, cell) */

#define MBP__CELLS_NONE 0xFFFFu /* ends an entry list */
#define MBP__CELLS_OUT 0xFFu    /* level of a body not in the structure */
#define MBP__CELLS_F_LARGE 0x01u /* bflag: no entries; in the large list */
#define MBP__CELLS_F_PEND 0x02u  /* bflag: in the pending list (added, or moved to other cells) */

/* The init hooks of the three backends (mbp_bp.h): checks the params this mode uses
 * (MBP_E_PARAM, nothing else read) and empties the structure for them. The other hooks,
 * mbp__cells_add() ... mbp__cells_query(), are the same for the three (mbp_bp.h). */
mbp_status mbp__cells_setup(mbp_grid_state *s, const mbp_params *p, uint8_t mode);

#endif /* MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID */

#endif /* MBP_CELLS_H */
