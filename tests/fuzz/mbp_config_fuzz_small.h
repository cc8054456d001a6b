/* SPDX-License-Identifier: MIT */
/* mbp_config_fuzz_small.h: a tiny 2D fixed world for the fuzzer (tests/fuzz/), where a short
 * input fills the bodies, the pair set and the entries it reserves for events, the shape pool
 * (3 entries) and the backends' own storage. */
#define MBP_DIM 2
#define MBP_SCALAR MBP_FIXED
/* The fuzzer adds sphere bodies (off by default). */
#define MBP_WITH_SPHERES 1
#define MBP_MAX_BODIES 12
#define MBP_MAX_PAIRS 10
#define MBP_MAX_EVENTS 6
#define MBP_GRID_MAX_ENTRIES 16
#define MBP_GRID_MAX_CELLS 64
#define MBP_GRID_MAX_CELLS_PER_BODY 4
#define MBP_WITH_OBB 1
#define MBP_WITH_KDOP 1
#define MBP_WITH_CAPSULE 1
#define MBP_WITH_FAST 1
