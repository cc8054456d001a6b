/* SPDX-License-Identifier: MIT */
/* mbp_hgrid.h: the state of the hierarchical grid: the cell engine's state (mbp_grid.h), with
 * the level of each body and MBP_HGRID_LEVELS levels hashed into one bucket table. */
#ifndef MBP_HGRID_H
#define MBP_HGRID_H

#include "mbp_grid.h"

typedef mbp_grid_state mbp_hgrid_state;

#endif /* MBP_HGRID_H */
