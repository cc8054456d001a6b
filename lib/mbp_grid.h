/* SPDX-License-Identifier: MIT */
/* mbp_grid.h: the state of the cell backends: uniform grid, spatial hash and (mbp_hgrid.h)
 * hierarchical grid. One engine serves all three (mbp_cells.c, mbp_cells_update.c); they differ in
 * how a cell maps to a list head: grid cell index, hash of the cell, hash of (level, cell).
 *
 * RAM: per body 4 * MBP_DIM + 6 bytes (its cell range, first entry, level, flags, a place in
 * the list of pending changes); per entry 8 + 2 * MBP_DIM bytes (MBP_GRID_MAX_ENTRIES of them);
 * per list head 2 bytes (MBP_GRID_MAX_CELLS for the grid, MBP_HASH_BUCKETS for hash and hgrid,
 * the larger of those compiled in).
 */
#ifndef MBP_GRID_H
#define MBP_GRID_H


#if MBP_WITH_GRID && (MBP_GRID_MAX_CELLS > MBP_HASH_BUCKETS || !(MBP_WITH_HASH || MBP_WITH_HGRID))
#define MBP__CELLS_HEADS MBP_GRID_MAX_CELLS
#else
#define MBP__CELLS_HEADS MBP_HASH_BUCKETS
#endif

typedef struct mbp_grid_state {
    /* Geometry, set at init from the params (first: the move hook reads it). */
    mbp_scalar origin[MBP_DIM];
#if MBP_SCALAR == MBP_FIXED
    mbp__cellmap cell;        /* cell size in raw units, with its shift */
#else
    mbp_scalar inv;           /* 1 / cell size */
    mbp_scalar fbias;         /* bias as a float */
    uint32_t fmax_bits[MBP_DIM]; /* the bits of maxc as a float */
#endif
    uint16_t maxc[MBP_DIM];   /* largest biased cell coordinate per axis */
    /* Levels by box size (mbp_cells.c's size_key()): a box is at level L when its key minus
     * lvl_from[L] is at most lvl_span[L], unsigned (one compare for the move's check). */
    uint32_t lvl_from[MBP_HGRID_LEVELS];
    uint32_t lvl_span[MBP_HGRID_LEVELS];
    uint16_t bias;  /* added to cell coordinates so they are unsigned: 0 (grid) or 32768 */
    uint8_t mode;   /* grid, hash or hgrid (mbp_cells.h) */
    uint8_t levels; /* 1, or MBP_HGRID_LEVELS for hgrid */
    uint32_t stride[MBP_DIM]; /* grid: cell index = sum of coordinate * stride */
    uint32_t bucket_mask;     /* hash, hgrid: buckets - 1 */
    uint32_t nheads;          /* list heads in use */

    /* Counters and list heads. */
    int32_t spare;        /* free entries not promised to pending changes; never negative */
    uint32_t cands;       /* full frames: candidate pairs the last one counted */
    uint16_t free_head;
    uint16_t free_count;  /* entries in the free list */
    uint16_t pend_count;
    uint16_t large_head;  /* the list of large bodies, through first[] */
    uint16_t large_count;
    uint16_t level_count[MBP_HGRID_LEVELS]; /* bodies with entries, per level */
    uint8_t incr;         /* 1: incremental frames (candidates kept in the pair set); 0: full */
    uint8_t dwell;        /* frames since the last change of mode, up to a few */
    uint8_t pin;          /* 0: mode chosen by cost; 1: incremental when it fits; 2: full (tests) */

    /* Per body, as of the last update ('committed'): its cell range at its level (inclusive,
     * biased cell coordinates), its level (MBP__CELLS_OUT: not in the structure), flags
     * (MBP__CELLS_F_*) and first entry (for a large body: the next large body). */
    uint16_t lo[MBP_MAX_BODIES][MBP_DIM];
    uint16_t hi[MBP_MAX_BODIES][MBP_DIM];
    uint8_t level[MBP_MAX_BODIES];
    uint8_t bflag[MBP_MAX_BODIES];
    uint16_t first[MBP_MAX_BODIES];
    /* Bodies added or moved to another cell range since the last update, in order. */
    uint16_t pend[MBP_MAX_BODIES];

    /* Entries, one per (cell, body): doubly linked in their cell's list (cnext, cprev), singly
     * linked per body (bnext); free entries are linked through cnext. 0xFFFF ends a list. */
    uint16_t cnext[MBP_GRID_MAX_ENTRIES];
    uint16_t cprev[MBP_GRID_MAX_ENTRIES];
    uint16_t bnext[MBP_GRID_MAX_ENTRIES];
    uint16_t ebody[MBP_GRID_MAX_ENTRIES];
    uint16_t ecell[MBP_GRID_MAX_ENTRIES][MBP_DIM];
    uint16_t head[MBP__CELLS_HEADS];
} mbp_grid_state;

#endif /* MBP_GRID_H */
