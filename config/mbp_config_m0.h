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
/* Room for every event of any frame whose pairs fit (4 bytes each): the tests' dense piles
 * begin nearly a full set of pairs at once. */
#define MBP_MAX_EVENTS MBP_MAX_PAIRS
/* Pair changes logged per update: 4 bytes each, and the tests hold two worlds. */
#define MBP_PAIR_LOG 8
/* Sphere bodies, the shapes and fast bodies (off by default) are part of the test matrix. */
#define MBP_WITH_SPHERES 1
#define MBP_WITH_OBB 1
#define MBP_WITH_KDOP 1
#define MBP_WITH_CAPSULE 1
#define MBP_WITH_FAST 1
/* The quadtree is part of the test matrix (its tests scale to these 24 bodies). */
#define MBP_WITH_QUADTREE 1
/* The rectangle-swept sphere stays off: it adds 24 bytes to a world, and test_tree's image,
 * whose two worlds and buffers fill the 14 KB to the byte, then overflows RAM by 48 bytes. */
#define MBP_WITH_RSS 0
