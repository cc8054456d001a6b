/* SPDX-License-Identifier: MIT */
/* mbp_config_template.h: every mbp option, documented. Copy this file, uncomment what you
 * change, and build the library AND your application with
 *
 *     -DMBP_CONFIG_FILE='"my_mbp_config.h"'   (and -I the folder that holds it)
 *
 * or pass single options as -D flags. The defaults and the checks live in lib/mbp_config.h;
 * a bad value stops the build with a message naming the option. The library and the
 * application must agree: mbp_init() returns MBP_E_CONFIG for a world declared under other
 * options, and mixing MBP_DIM or MBP_SCALAR fails at link time.
 *
 * RAM: the world is one struct you declare (static mbp_world w;). `make size` prints its size
 * for each backend and capacity; the comments below give the main terms.
 */

/* ---- geometry ---- */

/* 2: boxes are rectangles, spheres circles. 3: boxes and spheres. */
/* #define MBP_DIM 2 */

/* MBP_FLOAT: IEEE single coordinates, range +-2^60.
 * MBP_FIXED: signed 32-bit fixed point with MBP_FIXED_FRAC_BITS fraction bits, range
 *            +-(2^30 - 1) raw units; the library then contains no floating point at all
 *            (what Cortex-M0/M3 without an FPU want). */
/* #define MBP_SCALAR MBP_FLOAT */

/* Fixed point only: 0..24 fraction bits. 16 gives +-16384.0 units in steps of 1/65536. */
/* #define MBP_FIXED_FRAC_BITS 16 */

/* ---- capacity ---- */

/* Bodies, 1..65534. Each costs about 40 bytes (2D) to 60 bytes (3D) in the world itself,
 * plus what the backend keeps per body (make size: RAM bytes per body alone). */
/* #define MBP_MAX_BODIES 128 */

/* Pairs the pair set can hold, 1..1048576 (default 2 * MBP_MAX_BODIES). 5 bytes each plus a
 * hash index of 1.5 slots per pair, 2 bytes a slot (4 from 65535 pairs). Within one update the
 * set holds the previous frame's pairs and the new ones: size it for the pairs you expect plus
 * those that can begin in one frame, plus the frame's begin and end events, which go into the
 * entries the pairs leave free. When the pairs do not fit, mbp_update() returns MBP_E_PAIRS_FULL
 * and stats.lost_pairs counts what was lost; the next frame with room is exact again. */
/* #define MBP_MAX_PAIRS (2 * MBP_MAX_BODIES) */

/* Begin/end event lists, mbp_begun() and mbp_ended() (default 1). 0 leaves them out, for
 * firmware that reads only the pairs. */
/* #define MBP_WITH_EVENTS 1 */

/* Entries of the pair set reserved for events, 4 bytes each (default 0). An update's events use
 * the entries its pairs leave free plus these; when they do not fit, mbp_update() returns
 * MBP_E_EVENTS_FULL and counts the lost events; pairs stay exact. MBP_MAX_PAIRS here: no frame
 * whose pairs fit loses an event. */
/* #define MBP_MAX_EVENTS 0 */

/* Pair changes one update can log, 4 bytes each (default MBP_MAX_BODIES / 2 + 8). With SAP on
 * exact values among plain boxes (no sphere, shape, fast or filtered body), and in the few-moved
 * updates of brute force and sweep (any bodies), an update whose changes fit settles just those
 * instead of walking every stored pair again; one with more walks. */
/* #define MBP_PAIR_LOG (MBP_MAX_BODIES / 2 + 8) */

/* Sphere bodies: 1 compiles them in (DIM+1 scalars per body: 12 bytes in 2D float), 0 (the
 * default) leaves them and their RAM out. */
/* #define MBP_WITH_SPHERES 0 */

/* ---- shapes beyond box and sphere (docs/shapes.md) ---- */

/* Oriented boxes, k-DOPs (8-DOP in 2D, 14-DOP in 3D), capsules: 1 compiles each in (flash, and
 * the shape pool; make bench-shapes prints how much). Off by default. */
/* #define MBP_WITH_OBB 0 */
/* #define MBP_WITH_KDOP 0 */
/* #define MBP_WITH_CAPSULE 0 */

/* Fast bodies (mbp_set_fast): their box covers their motion over each step. Off by default. */
/* #define MBP_WITH_FAST 0 */

/* Entries of the shape pool, 1..MBP_MAX_BODIES: one per oriented box, k-DOP, capsule or fast box
 * body. Each costs the largest shape compiled in (2D: up to 36 bytes, 3D: up to 64), plus 2 bytes
 * per body for its index; with the four options above all 0 there is no pool at all. A full pool
 * makes mbp_add_shape, mbp_move_shape and mbp_set_fast return MBP_E_FULL. */
/* #define MBP_MAX_SHAPES ((MBP_MAX_BODIES + 3) / 4) */

/* ---- backends: 1 compiles one in; a world picks one at mbp_init() ---- */
/* The world holds the state of the largest backend compiled in (a union), so compile in only
 * those you use. */
/* All default to 1. */
/* #define MBP_WITH_BRUTE 1 */ /* every pair tested; no state; best below ~30 bodies */
/* #define MBP_WITH_SWEEP 1 */ /* single-axis sort and sweep; smallest state */
/* #define MBP_WITH_SAP   1 */ /* incremental sweep and prune; best for coherent motion */
/* #define MBP_WITH_GRID  1 */ /* uniform grid over a bounded world */
/* #define MBP_WITH_HASH  1 */ /* spatial hash, unbounded world */
/* #define MBP_WITH_HGRID 1 */ /* hierarchical grid, mixed sizes */
/* #define MBP_WITH_TREE  1 */ /* dynamic AABB tree, fat leaves; best for mostly static scenes */

/* ---- backend options (lib/mbp_config.h has each one's range check) ---- */

/* SAP: 1 stores endpoints as 16-bit values over mbp_params.sap_world (4 bytes less per body and
 * axis); bodies outside that box still pair exactly, the exact test trims the extra candidates. */
/* #define MBP_SAP_QUANTIZED 0 */

/* Grid, hash, hgrid keep the pairs of bodies sharing a cell ('candidates') in the pair set, so
 * that a body moving within its cells costs nothing in an update: about 2 per body with cells
 * twice the boxes' size, 3 to 4 times the overlapping pairs. Without room for them (3/4 of
 * MBP_MAX_PAIRS), or when they would cost more, frames run full: exact, slower. */

/* Grid: the most cells of the world box (mbp_params.grid_cells multiplied), 2 bytes each. */
/* #define MBP_GRID_MAX_CELLS (8 * MBP_MAX_BODIES) */

/* Grid, hash, hgrid: (cell, body) entries, 12 (2D) or 14 (3D) bytes each, at most 65535; a body
 * takes one per cell it covers. When they run out, add and move return MBP_E_NOROOM. */
/* #define MBP_GRID_MAX_ENTRIES (4 * MBP_MAX_BODIES) */

/* Grid, hash, hgrid: a body covering more cells than this is kept on a list of large bodies,
 * checked against every body when it changes cells (or each full frame), instead of filling the
 * cells (1..1024). */
/* #define MBP_GRID_MAX_CELLS_PER_BODY 16 */

/* Hash, hgrid: buckets, a power of two, 2 bytes each (default: at least 4 per body). */
/* #define MBP_HASH_BUCKETS 1024 */

/* Hgrid: levels, each doubling the cell edge of the one below (1..16). */
/* #define MBP_HGRID_LEVELS 8 */

/* Tree: entries of the traversal stack, 2 bytes each. The default is the proven height bound of
 * the AVL-balanced tree plus one (lib/mbp_tree_nodes.c); smaller values are refused. Needs
 * MBP_MAX_BODIES <= 32767. */
/* #define MBP_TREE_STACK (MBP_TREE_HEIGHT_MAX + 1) */

/* ---- checks ---- */

/* 1: programmer errors (NULL or uninitialised world) call mbp_port_assert_failed().
 * 0: no checks, no flash for them; such errors are then undefined behaviour. */
/* #define MBP_ASSERT 1 */
