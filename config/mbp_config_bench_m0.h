/* SPDX-License-Identifier: MIT */
/* mbp_config_bench_m0.h: make bench on the Cortex-M0 (microbit, 16 KB RAM): 2D fixed point, as
 * config/mbp_config_m0.h, with the capacity set to the scene's body count BENCH_N. */
#ifndef BENCH_N
#define BENCH_N 32
#endif
#define MBP_DIM 2
#define MBP_SCALAR MBP_FIXED
#define MBP_FIXED_FRAC_BITS 16
#define MBP_MAX_BODIES BENCH_N
#define MBP_MAX_PAIRS (8 * BENCH_N)
/* Room for one frame's events besides the pairs: a dense scene's first frame begins all its pairs
 * at once (about 4 a body, on top of the 4 a body stored), more than the free entries of the
 * pair set. Without it that frame returns MBP_E_EVENTS_FULL and the bench drops the row. */
#define MBP_MAX_EVENTS MBP_MAX_PAIRS
