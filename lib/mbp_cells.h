/* SPDX-License-Identifier: MIT */
/* mbp_cells.h: the cell engine shared by the grid, hash and hgrid backends (mbp_cells.c).
 * Not for users; the state type is in mbp_grid.h. */
#ifndef MBP_CELLS_H
#define MBP_CELLS_H

#include "mbp_internal.h"

#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID

/* How a cell maps to a list head. */
#define MBP__CELLS_GRID 0u  /* bounded: the cell's index, one cell per list */
#define MBP__CELLS_HASH 1u  /* unbounded: a hash of the cell */
#define MBP__CELLS_HGRID 2u /* unbounded, MBP_HGRID_LEVELS levels: a hash of (level, cell) */

#define MBP__CELLS_NONE 0xFFFFu /* ends an entry list */
#define MBP__CELLS_OUT 0xFFu    /* level of a body not in the structure */
#define MBP__CELLS_F_LARGE 0x01u /* bflag: no entries; in the large list */
#define MBP__CELLS_F_PEND 0x02u  /* bflag: in the pending list (added, or moved to other cells) */

/* Checks the params this mode uses (MBP_E_PARAM) and empties the structure. */
mbp_status mbp__cells_init(const mbp_world *w, mbp_grid_state *s, uint8_t mode);
/* Body i was added (old == NULL) or moved from *old to w->box[i]. Records the change for the
 * next update; MBP_E_NOROOM when the entries cannot hold it (nothing changes then). */
mbp_status mbp__cells_place(const mbp_world *w, mbp_grid_state *s, uint16_t i,
                            const mbp_aabb *old);
/* Takes body i out of the structure (w->box[i] is its last box). */
void mbp__cells_remove(const mbp_world *w, mbp_grid_state *s, uint16_t i);
/* One frame: applies the recorded changes and reports candidates (see mbp_cells.c). */
mbp_status mbp__cells_update(mbp_world *w, mbp_grid_state *s);
/* Calls fn once for every body that may overlap box. */
void mbp__cells_query(const mbp_world *w, const mbp_grid_state *s, const mbp_aabb *box,
                      mbp__visit_fn fn, void *ctx);

#endif /* MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID */

#endif /* MBP_CELLS_H */
