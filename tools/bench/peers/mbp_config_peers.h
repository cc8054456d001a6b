/* SPDX-License-Identifier: MIT */
/* mbp_config_peers.h: make bench-peers' configuration: make bench's (config/mbp_config_bench.h:
 * 2D float, capacity BENCH_N, 8 pairs per body, grid entries for 8 cells per body), with the
 * grid's entries capped at their limit, 65535, from n = 8192 on. */
#include "mbp_config_bench.h"
#if 8 * BENCH_N > 65535
#undef MBP_GRID_MAX_ENTRIES
#define MBP_GRID_MAX_ENTRIES 65535
#endif
