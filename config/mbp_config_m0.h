/* SPDX-License-Identifier: MIT */
/* mbp_config_m0.h: the Cortex-M0 (microbit, 16 KB RAM) configuration: 2D fixed point, small
 * capacities, no floating point anywhere. Sized so that the test suite's two worlds, its
 * oracle and one test file's buffers fit in 14 KB beside a 2 KB stack; an application with one
 * world can afford several times these capacities (make size prints the bytes per body). */
#define MBP_DIM 2
#define MBP_SCALAR MBP_FIXED
#define MBP_FIXED_FRAC_BITS 16
#define MBP_MAX_BODIES 24
#define MBP_MAX_PAIRS 96
/* Pair changes logged per update: 4 bytes each, and the tests hold two worlds. */
#define MBP_PAIR_LOG 8
/* The shapes and fast bodies (off by default) are part of the test matrix. */
#define MBP_WITH_OBB 1
#define MBP_WITH_KDOP 1
#define MBP_WITH_CAPSULE 1
#define MBP_WITH_FAST 1
/* The quadtree: left out of this configuration's test matrix. Turned on, the microbit suite
 * builds, but tests/test_bp_quadtree.c assumes more bodies than the 24 here: a neighbour count
 * meant for 64 bodies fails, and a test adds bodies past the harness's arrays (a HardFault in
 * bp_mark). Those tests need scaling first. */
#define MBP_WITH_QUADTREE 0
