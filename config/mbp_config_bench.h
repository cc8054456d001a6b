/* SPDX-License-Identifier: MIT */
/* mbp_config_bench.h: the configuration of make bench (host and 4 MB QEMU targets), 2D float.
 *
 * The capacity is the scene's body count, BENCH_N (mk/bench.mk builds one program per n), as a
 * user would size the world for their scene; every backend compiled in by default is in.
 * The pair set has room for 8 pairs per body: the dense scene keeps about 4. */
#ifndef BENCH_N
#define BENCH_N 256
#endif
#define MBP_DIM 2
#define MBP_SCALAR MBP_FLOAT
#define MBP_MAX_BODIES BENCH_N
#define MBP_MAX_PAIRS (8 * BENCH_N)
/* Grid-type backends: room for every body to cover 8 cells (the default is 4). */
#define MBP_GRID_MAX_ENTRIES (8 * BENCH_N)
/* The quadtree: 4 nodes a body, within the pool's limit (the replay holds 16384 bodies). */
#define MBP_QUADTREE_NODES (4 * BENCH_N <= 65534 ? 4 * BENCH_N : 65534)
/* Room for one frame's events besides the pairs: a dense scene's first frame begins all its pairs
 * at once (about 4 a body, on top of the 4 a body stored), more than the free entries of the
 * pair set. Without it that frame returns MBP_E_EVENTS_FULL and the bench drops the row. */
#define MBP_MAX_EVENTS MBP_MAX_PAIRS
