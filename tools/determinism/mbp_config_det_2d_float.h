/* SPDX-License-Identifier: MIT */
/* mbp_config_det_2d_float.h: the determinism scene's configuration (tools/determinism/). The same
 * on the host and on every QEMU machine, small enough for the micro:bit's 16 KB (a 9-10 KB world).
 * The pair set has room for SAP's and the tree's candidate pairs, and the grids for every body's
 * cells (det.c uses cells of 8 units), so no frame loses pairs or events. */
#define MBP_DIM 2
#define MBP_SCALAR MBP_FLOAT
/* The scene has sphere bodies (off by default). */
#define MBP_WITH_SPHERES 1
#define MBP_MAX_BODIES 32
#define MBP_MAX_PAIRS 256
#define MBP_MAX_EVENTS 256
#define MBP_GRID_MAX_ENTRIES 256
